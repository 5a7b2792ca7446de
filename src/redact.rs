//! Secrets mantra must never repeat: the model's API key, wherever it turns up.
//!
//! The key reaches mantra in its environment and leaves only in the `Authorization` header. It
//! can come back in other ways: a repository file that holds it (read by a tool and sent to the
//! model), or a model that writes it into an answer. So every way out — stdout, stderr, the log,
//! transcripts, `--llm-record` files, batch results, the request bodies themselves — passes its
//! text through [`scrub`], which replaces each registered secret with [`REDACTED`].
//!
//! Values shorter than [`MIN_SECRET_LEN`] are not registered: local servers are often given a
//! placeholder such as `x` or `none`, and replacing every `x` in a diff would ruin the output
//! while protecting nothing.

use std::borrow::Cow;
use std::io::Write;
use std::sync::{PoisonError, RwLock};

/// What a secret is replaced with.
pub const REDACTED: &str = "<redacted>";

/// The shortest value treated as a secret.
pub const MIN_SECRET_LEN: usize = 6;

static SECRETS: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// From now on, `value` (trimmed) never appears in what mantra writes. Also registers the form it
/// takes inside a JSON string, when that differs.
pub fn register(value: &str) {
    let value = value.trim();
    if value.chars().count() < MIN_SECRET_LEN {
        return;
    }
    let escaped = serde_json::to_string(value).unwrap_or_default();
    let escaped = escaped.trim_matches('"');
    let mut secrets = SECRETS.write().unwrap_or_else(PoisonError::into_inner);
    for v in [value, escaped] {
        if !v.is_empty() && !secrets.iter().any(|s| s == v) {
            secrets.push(v.to_string());
        }
    }
    // Longest first, so that a secret containing another is replaced whole.
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
}

/// `text` with every registered secret replaced by [`REDACTED`]; borrowed when there is none.
pub fn scrub(text: &str) -> Cow<'_, str> {
    match scrub_bytes(text.as_bytes()) {
        Cow::Borrowed(_) => Cow::Borrowed(text),
        // A UTF-8 secret matches only whole characters, and the replacement is ASCII: the result
        // is UTF-8 still, so nothing is lost here.
        Cow::Owned(bytes) => Cow::Owned(String::from_utf8_lossy(&bytes).into_owned()),
    }
}

/// Scrubs `text` in place.
pub fn scrub_string(text: &mut String) {
    if let Cow::Owned(clean) = scrub(text) {
        *text = clean;
    }
}

/// Scrubs every string of a JSON value (keys included) in place.
pub fn scrub_json(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::String(s) => scrub_string(s),
        Value::Array(items) => items.iter_mut().for_each(scrub_json),
        Value::Object(map) => {
            let dirty: Vec<String> = map.keys().filter(|k| matches!(scrub(k), Cow::Owned(_))).cloned().collect();
            for key in dirty {
                if let Some(v) = map.remove(&key) {
                    map.insert(scrub(&key).into_owned(), v);
                }
            }
            map.values_mut().for_each(scrub_json);
        }
        _ => {}
    }
}

/// A writer that scrubs what passes through it. It holds text back until a flush (or its drop),
/// so that a secret split across two writes is still found; text is flushed at least at every
/// 64 KiB.
pub struct Scrubbed<W: Write> {
    inner: W,
    held: Vec<u8>,
}

const HOLD_LIMIT: usize = 64 * 1024;

impl<W: Write> Scrubbed<W> {
    pub fn new(inner: W) -> Scrubbed<W> {
        Scrubbed { inner, held: Vec::new() }
    }

    fn pass_on(&mut self) -> std::io::Result<()> {
        if self.held.is_empty() {
            return Ok(());
        }
        let held = std::mem::take(&mut self.held);
        self.inner.write_all(&scrub_bytes(&held))
    }
}

/// [`scrub`] for bytes that need not be UTF-8 (a child's output, a file being written).
pub fn scrub_bytes(bytes: &[u8]) -> Cow<'_, [u8]> {
    let secrets = SECRETS.read().unwrap_or_else(PoisonError::into_inner);
    let mut out = Cow::Borrowed(bytes);
    for s in secrets.iter().map(|s| s.as_bytes()) {
        let Some(first) = find(&out, s) else { continue };
        let mut clean = Vec::with_capacity(out.len());
        let mut rest: &[u8] = &out;
        let mut at = Some(first);
        while let Some(i) = at {
            clean.extend_from_slice(&rest[..i]);
            clean.extend_from_slice(REDACTED.as_bytes());
            rest = &rest[i + s.len()..];
            at = find(rest, s);
        }
        clean.extend_from_slice(rest);
        out = Cow::Owned(clean);
    }
    out
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

impl<W: Write> Write for Scrubbed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.held.extend_from_slice(buf);
        if self.held.len() >= HOLD_LIMIT {
            self.pass_on()?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.pass_on()?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for Scrubbed<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The registry is process-wide: each test uses secrets of its own.

    #[test]
    fn a_registered_secret_is_replaced_everywhere() {
        register("  sk-unit-abc123  ");
        assert_eq!(scrub("key=sk-unit-abc123; again sk-unit-abc123"), "key=<redacted>; again <redacted>");
        assert!(matches!(scrub("nothing here"), Cow::Borrowed(_)));
    }

    #[test]
    fn short_placeholders_are_not_secrets() {
        register("none");
        assert_eq!(scrub("none of it"), "none of it");
    }

    #[test]
    fn json_strings_and_their_escaped_form_are_scrubbed() {
        register("sk-q\"uote-456");
        let mut v = serde_json::json!({"a": ["x sk-q\"uote-456 y"], "sk-q\"uote-456": 1});
        scrub_json(&mut v);
        assert_eq!(v, serde_json::json!({"a": ["x <redacted> y"], "<redacted>": 1}));
        let text = serde_json::to_string(&serde_json::json!({"k": "sk-q\"uote-456"})).unwrap();
        assert_eq!(scrub(&text), r#"{"k":"<redacted>"}"#);
    }

    #[test]
    fn bytes_that_are_not_text_are_scrubbed_too() {
        register("sk-bytes-000111");
        assert_eq!(&*scrub_bytes(b"\xff sk-bytes-000111 \xfe"), b"\xff <redacted> \xfe");
    }

    #[test]
    fn the_writer_finds_a_secret_split_across_writes() {
        register("sk-split-789xyz");
        let mut out = Vec::new();
        {
            let mut w = Scrubbed::new(&mut out);
            w.write_all(b"token sk-spl").unwrap();
            w.write_all(b"it-789xyz end\n").unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), "token <redacted> end\n");
    }
}
