//! Near misses: the key a user probably meant, and warnings for `MANTRA_*` variables that look
//! like configuration.

use super::keys::{KEYS, Key};
use super::resolve::ConfigWarning;

/// The key the user probably meant: the same name in another section, or a close spelling.
pub(super) fn suggest(unknown: &str) -> Option<String> {
    let leaf = unknown.rsplit('.').next().unwrap_or(unknown);
    let same_leaf: Vec<&str> =
        KEYS.iter().map(|k| k.name).filter(|n| n.rsplit('.').next() == Some(leaf) && *n != unknown).collect();
    if !same_leaf.is_empty() {
        return Some(same_leaf.join("` or `"));
    }
    let sections = KEYS.iter().filter_map(|k| k.name.rsplit_once('.').map(|(s, _)| s));
    let candidates = KEYS.iter().map(|k| k.name).chain(sections);
    nearest(unknown, candidates).map(str::to_string)
}

pub(super) fn nearest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.len() / 4).max(2);
    candidates
        .map(|c| (crate::text::edit_distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// A warning for an unknown `MANTRA_*` variable that looks like configuration: it starts with a
/// section's name or is spelled close to a key's variable. Others are left alone (they may be
/// another tool's).
pub(super) fn unknown_env_warning(var: &str) -> Option<ConfigWarning> {
    let known: Vec<String> = KEYS.iter().map(Key::env_var).collect();
    let near = nearest(var, known.iter().map(String::as_str)).map(str::to_string);
    let rest = &var["MANTRA_".len()..];
    let in_section = KEYS.iter().filter_map(|k| k.name.split_once('.')).any(|(s, _)| {
        let s = s.to_uppercase();
        rest.starts_with(&format!("{s}_"))
    });
    if near.is_none() && !in_section {
        return None;
    }
    Some(ConfigWarning {
        message: format!("environment variable {var} is not a configuration key; it is ignored"),
        hint: Some(match near {
            Some(n) => format!("did you mean {n}?"),
            None => "configuration variables are MANTRA_<SECTION>_<KEY>; see the README, section Configuration".into(),
        }),
    })
}
