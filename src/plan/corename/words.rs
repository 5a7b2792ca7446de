//! Identifiers as words, and a rename's edit carried over to another identifier: `count → total`
//! makes `getCount → getTotal` and `MAX_COUNT → MAX_TOTAL`; `policy → retryPolicy` makes
//! `defaultPolicy → defaultRetryPolicy`. The words of the identifier that the edit does not touch
//! keep their spelling (`IOStats` stays `IO`), new words take the seed's, with the case the
//! identifier's style needs where they land.

use crate::plan::naming::capitalize;

/// One word of an identifier, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
}

impl Word {
    pub fn lower(&self) -> String {
        self.text.to_lowercase()
    }
}

/// How an identifier joins its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `maxCount`
    Camel,
    /// `MaxCount`
    Pascal,
    /// `MAX_COUNT`
    UpperSnake,
    /// `max_count`
    Snake,
}

/// The words of `name`: split at `_`, `$`, lower-to-upper and letter-digit changes, and before the
/// last capital of a run of capitals followed by a lower-case letter (`IOStats` → `IO`, `Stats`).
pub fn split(name: &str) -> Vec<Word> {
    crate::text::identifier_words(name).into_iter().map(|text| Word { text }).collect()
}

pub fn style_of(name: &str) -> Style {
    let letters: Vec<char> = name.chars().filter(|c| c.is_alphabetic()).collect();
    if name.contains('_') && letters.iter().all(|c| c.is_uppercase()) {
        Style::UpperSnake
    } else if name.contains('_') && letters.iter().all(|c| c.is_lowercase()) {
        Style::Snake
    } else if name.chars().next().is_some_and(char::is_uppercase) && letters.iter().any(|c| c.is_lowercase()) {
        Style::Pascal
    } else if letters.len() > 1 && letters.iter().all(|c| c.is_uppercase()) {
        Style::UpperSnake
    } else {
        Style::Camel
    }
}

/// The words joined in `style`. `kept[i]` says word `i` comes from the identifier itself and keeps
/// its spelling inside a camel or Pascal name (an acronym stays an acronym).
fn join(words: &[Word], kept: &[bool], style: Style) -> String {
    match style {
        Style::UpperSnake => words.iter().map(|w| w.text.to_uppercase()).collect::<Vec<_>>().join("_"),
        Style::Snake => words.iter().map(|w| w.text.to_lowercase()).collect::<Vec<_>>().join("_"),
        Style::Camel | Style::Pascal => {
            let mut out = String::new();
            for (i, w) in words.iter().enumerate() {
                let first_lower = i == 0 && style == Style::Camel;
                if kept[i] && !(i == 0 && first_lower) {
                    out.push_str(&w.text);
                } else if first_lower {
                    out.push_str(&lower_first(&w.text));
                } else {
                    out.push_str(&capitalize(&w.text));
                }
            }
            out
        }
    }
}

/// `URL` → `url`, `Count` → `count`, `IOStats`' first word `IO` → `io`.
pub fn lower_first(w: &str) -> String {
    if w.chars().all(|c| !c.is_lowercase()) {
        return w.to_lowercase();
    }
    let mut c = w.chars();
    c.next().map(|f| f.to_lowercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

/// One hunk of a word-level edit: old words `at..at + old.len()` become `new`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    /// Lower-cased old words (empty for an insertion).
    pub old: Vec<String>,
    pub new: Vec<Word>,
    /// For an insertion: the old word it follows, or, at the start, the one it precedes.
    pub anchor: Option<(String, bool)>,
}

/// The word-level edit from `old` to `new` (longest common subsequence of lower-cased words).
pub fn edit(old: &str, new: &str) -> Vec<Hunk> {
    let (a, b) = (split(old), split(new));
    let al: Vec<String> = a.iter().map(Word::lower).collect();
    let bl: Vec<String> = b.iter().map(Word::lower).collect();
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &al, &bl);
    let mut out = Vec::new();
    for op in ops {
        if let similar::DiffOp::Equal { .. } = op {
            continue;
        }
        let (o, n) = (op.old_range(), op.new_range());
        let anchor = if o.is_empty() {
            if o.start > 0 {
                Some((al[o.start - 1].clone(), true))
            } else {
                al.get(o.start).map(|w| (w.clone(), false))
            }
        } else {
            None
        };
        out.push(Hunk { old: al[o.clone()].to_vec(), new: b[n].to_vec(), anchor });
    }
    out
}

/// The words the edit removes or replaces (lower-cased); for a pure insertion, its anchors.
pub fn touched(hunks: &[Hunk]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for h in hunks {
        let words = if h.old.is_empty() { h.anchor.iter().map(|(w, _)| w.clone()).collect() } else { h.old.clone() };
        for w in words {
            if !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

/// `name` with the seed's edit carried over, when some hunk applies and the name changes.
///
/// Separators stay where they are: leading and trailing ones (`_count` → `_total`), and those in
/// a camelCase name (`testCommentStart_Deprecated`, `Outer$Inner`), each part between them taking
/// the edit in its own style.
pub fn transfer(name: &str, hunks: &[Hunk]) -> Option<String> {
    let core = name.trim_matches(['_', '$']);
    let start = name.len() - name.trim_start_matches(['_', '$']).len();
    let (head, tail) = (&name[..start], &name[start + core.len()..]);
    let mixed = matches!(style_of(core), Style::Camel | Style::Pascal) && core.contains(['_', '$']);
    let new = if mixed {
        let mut changed = false;
        let out: String = core
            .split_inclusive(['_', '$'])
            .map(|piece| {
                let part = piece.trim_end_matches(['_', '$']);
                match transfer_part(part, hunks) {
                    Some(new) => {
                        changed = true;
                        new + &piece[part.len()..]
                    }
                    None => piece.to_string(),
                }
            })
            .collect();
        changed.then_some(out)?
    } else {
        transfer_part(core, hunks)?
    };
    let out = format!("{head}{new}{tail}");
    (out != name && crate::java::syntax::is_java_identifier(&out) && !crate::java::syntax::is_reserved(&out))
        .then_some(out)
}

/// [`transfer`] for a name in one style.
fn transfer_part(name: &str, hunks: &[Hunk]) -> Option<String> {
    let style = style_of(name);
    let mut words = split(name);
    let mut kept = vec![true; words.len()];
    let mut applied = false;
    for h in hunks {
        let lower: Vec<String> = words.iter().map(Word::lower).collect();
        if !h.old.is_empty() {
            if let Some(at) = find(&lower, &h.old) {
                words.splice(at..at + h.old.len(), h.new.iter().cloned());
                kept.splice(at..at + h.old.len(), h.new.iter().map(|_| false));
                applied = true;
            } else if let Some((at, word)) = spelled_like(&lower, h) {
                // The seed spelled its number (`Separator5 → SeparatorFive`): a number ending
                // this name is spelled too (`Separator3 → SeparatorThree`).
                words[at] = Word { text: word };
                kept[at] = false;
                applied = true;
            }
        } else if let Some((anchor, after)) = &h.anchor {
            let Some(at) = lower.iter().position(|w| w == anchor) else { continue };
            let at = if *after { at + 1 } else { at };
            words.splice(at..at, h.new.iter().cloned());
            kept.splice(at..at, h.new.iter().map(|_| false));
            applied = true;
        }
    }
    if !applied || words.is_empty() {
        return None;
    }
    // A word the edit inserts next to itself (`myOrphanDirtyFileIds` gaining `Orphan` again): the
    // name holds that word already, and the edit is not this name's.
    let doubled = |ws: &[Word]| ws.windows(2).filter(|w| w[0].lower() == w[1].lower()).count();
    if doubled(&words) > doubled(&split(name)) {
        return None;
    }
    let out = join(&words, &kept, style);
    (out != name && crate::java::syntax::is_java_identifier(&out) && !crate::java::syntax::is_reserved(&out))
        .then_some(out)
}

/// When hunk `h` spells a number (`5 → Five`) and the name's last word is another number with a
/// spelling, that word's index and its spelling in the seed's case.
fn spelled_like(lower: &[String], h: &Hunk) -> Option<(usize, String)> {
    let ([number], [word]) = (h.old.as_slice(), h.new.as_slice()) else { return None };
    if spelling(number)? != word.lower() {
        return None;
    }
    let at = lower.len().checked_sub(1)?;
    let spelled = spelling(&lower[at])?;
    let capital = word.text.chars().next().is_some_and(char::is_uppercase);
    Some((at, if capital { capitalize(spelled) } else { spelled.to_string() }))
}

/// The English word of a number from zero to twenty, as identifiers spell it (`3` → `three`).
fn spelling(number: &str) -> Option<&'static str> {
    const WORDS: [&str; 21] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    number
        .parse::<usize>()
        .ok()
        .and_then(|n| WORDS.get(n).copied())
        .filter(|_| !number.starts_with('0') || number == "0")
}

/// How strongly `name` holds what the seed's edit changed, in 0..1 (`None`: not at all).
///
/// A replacement or deletion must find its old words in `name`, and at least half of all the
/// words the edit touches must be there. One word in common is weak evidence (`data` is in
/// `assertData` and `noDataLeftBehind` by chance far more often than by design); two or more
/// words are strong. Words of one or two letters alone are no evidence. An edit that only inserts words (`policy → retryPolicy`) is
/// carried over to names that hold the seed's whole old name (`defaultPolicy`), not to every
/// name that shares one word with it, and not where the inserted words are there already.
///
/// `whole_concept` says `name` holds the seed's concept however few words the two share: the
/// seed's object replaced whole ([`replaces_the_object`]), or `name` parallel to the seed beside
/// it ([`parallel`]). It is then as strong as two words in common.
pub fn affinity(name: &str, old: &str, hunks: &[Hunk], whole_concept: bool) -> Option<f64> {
    let lower: Vec<String> = split(name).iter().map(Word::lower).collect();
    let replaced: Vec<&Hunk> = hunks.iter().filter(|h| !h.old.is_empty()).collect();
    if replaced.is_empty() {
        let whole: Vec<String> = split(old).iter().map(Word::lower).collect();
        let specific = whole.len() >= 2 || old.len() >= 5;
        let inserted: Vec<String> = hunks.iter().flat_map(|h| h.new.iter().map(Word::lower)).collect();
        let there = !inserted.is_empty() && find(&lower, &inserted).is_some();
        let strength = if whole.len() >= 2 { 1.0 } else { ONE_WORD };
        return (specific && !there && find(&lower, &whole).is_some()).then_some(strength);
    }
    let found = replaced.iter().any(|h| {
        let chars: usize = h.old.iter().map(String::len).sum();
        (h.old.len() >= 2 || chars >= 3) && find(&lower, &h.old).is_some()
    });
    let touched = touched(hunks);
    let common = touched.iter().filter(|w| lower.contains(w)).count();
    let share = common as f64 / touched.len().max(1) as f64;
    // A name built on the seed's whole name (`TokenQueueTest`, `createTokenQueue` for the class
    // `TokenQueue`) is named after it, however few words the edit touched.
    let built_on = built_on(name, old) || spans(name, old);
    let strength = if common >= 2 || built_on || whole_concept {
        0.5 + 0.5 * share.max(if built_on { 1.0 } else { 0.0 })
    } else {
        ONE_WORD
    };
    (found && share >= 0.5).then_some(strength)
}

/// Whether the edit of a method's name keeps its verb, the first word, and replaces every word
/// after it (`resolveWorker → resolveService`): the edit names another object, and the
/// replaced words were the whole of the old one.
pub fn replaces_the_object(old: &str, hunks: &[Hunk]) -> bool {
    let seed: Vec<String> = split(old).iter().map(Word::lower).collect();
    let replaced: Vec<&String> = hunks.iter().flat_map(|h| &h.old).collect();
    seed.len() >= 2
        && hunks.iter().all(|h| !h.old.is_empty())
        && replaced.len() == seed.len() - 1
        && seed[1..].iter().all(|w| replaced.contains(&w))
}

/// Whether `name` is a sibling of `old` for an edit that only inserts words: the same words but
/// the last (the head noun: `CompressingTermVectorsWriter` for `CompressingTermVectorsFormat`),
/// those shared words being two or more, and every insertion anchored in them, not in the head
/// noun (a prefix added to a family of classes, `Lucene90…`).
pub fn sibling(name: &str, old: &str, hunks: &[Hunk]) -> bool {
    let lower: Vec<String> = split(name).iter().map(Word::lower).collect();
    let whole: Vec<String> = split(old).iter().map(Word::lower).collect();
    if whole.len() < 3 || lower.len() != whole.len() || lower.last() == whole.last() {
        return false;
    }
    let stem = &whole[..whole.len() - 1];
    let inserts_only = !hunks.is_empty() && hunks.iter().all(|h| h.old.is_empty());
    let anchored = hunks.iter().all(|h| h.anchor.as_ref().is_some_and(|(w, _)| stem.contains(w)));
    inserts_only && anchored && lower[..stem.len()] == *stem
}

/// Whether `name` is `old` with one other word in one place, a word the edit does not touch
/// (`maxLimitValue` beside `minLimitValue → minLimit`): the same concept for another case,
/// named to match.
pub fn parallel(name: &str, old: &str, touched: &[String]) -> bool {
    let lower: Vec<String> = split(name).iter().map(Word::lower).collect();
    let whole: Vec<String> = split(old).iter().map(Word::lower).collect();
    let differ: Vec<usize> = (0..whole.len()).filter(|&i| lower.get(i) != whole.get(i)).collect();
    whole.len() >= 2
        && lower.len() == whole.len()
        && differ.len() == 1
        && !touched.contains(&whole[differ[0]])
        && lower[differ[0]].len() > 1
}

/// Whether `name` holds every word of `old`, three or more, in order with other words between
/// (`CacheStatsRemoteAction` for `CacheStatsAction`): named after it, a qualifier added inside.
pub fn spans(name: &str, old: &str) -> bool {
    let lower: Vec<String> = split(name).iter().map(Word::lower).collect();
    let whole: Vec<String> = split(old).iter().map(Word::lower).collect();
    let mut rest = lower.iter();
    whole.len() >= 3 && lower.len() > whole.len() && whole.iter().all(|w| rest.any(|l| l == w))
}

/// Whether `name` holds every word of `old`, in order and together, `old` being two words or more
/// (`TokenQueueTest` and `createTokenQueue` for `TokenQueue`).
pub fn built_on(name: &str, old: &str) -> bool {
    let lower: Vec<String> = split(name).iter().map(Word::lower).collect();
    let whole: Vec<String> = split(old).iter().map(Word::lower).collect();
    whole.len() >= 2 && lower.len() > whole.len() && find(&lower, &whole).is_some()
}

/// The affinity of a name sharing one word with the seed's edit.
const ONE_WORD: f64 = 0.45;

fn find(hay: &[String], needle: &[String]) -> Option<usize> {
    (0..=hay.len().checked_sub(needle.len())?).find(|&i| hay[i..i + needle.len()] == *needle)
}

/// Whether the two names share a word (case aside) that is not a one-letter word.
pub fn share_word(a: &str, b: &str) -> bool {
    let bw: Vec<String> = split(b).iter().map(Word::lower).collect();
    split(a).iter().map(Word::lower).any(|w| w.len() > 1 && bw.contains(&w))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(name: &str, old: &str, new: &str) -> Option<String> {
        transfer(name, &edit(old, new))
    }

    #[test]
    fn splits_camel_snake_acronyms_and_digits() {
        let w = |n: &str| split(n).into_iter().map(|w| w.text).collect::<Vec<_>>();
        assert_eq!(w("sequentialIOStats"), ["sequential", "IO", "Stats"]);
        assert_eq!(w("MAX_RETRY_COUNT"), ["MAX", "RETRY", "COUNT"]);
        assert_eq!(w("storageInfo1"), ["storage", "Info", "1"]);
        assert_eq!(w("HTTP2Handler"), ["HTTP", "2", "Handler"]);
    }

    #[test]
    fn a_number_the_seed_spelled_is_spelled_elsewhere() {
        assert_eq!(t("ParserTest3", "ParserTest5", "LexerTestFive").as_deref(), Some("LexerTestThree"));
        assert_eq!(t("caseTwo", "case5", "caseFive"), None, "nothing to spell");
        assert_eq!(t("ParserTest42", "ParserTest5", "LexerTestFive").as_deref(), Some("LexerTest42"));
        // A number replaced by another word, not its spelling, is not a spelling.
        assert_eq!(t("ParserTest3", "ParserTest5", "ParserTestLast"), None);
    }

    #[test]
    fn carries_replacements_insertions_and_deletions_over() {
        assert_eq!(t("getCount", "count", "total").as_deref(), Some("getTotal"));
        assert_eq!(t("MAX_COUNT", "count", "total").as_deref(), Some("MAX_TOTAL"));
        assert_eq!(t("countLabel", "count", "total").as_deref(), Some("totalLabel"));
        assert_eq!(
            t("getRetryPolicy", "retryPolicy", "exponentialRetryPolicy").as_deref(),
            Some("getExponentialRetryPolicy")
        );
        assert_eq!(t("readIOStats", "readStats", "readAllStats").as_deref(), Some("readAllIOStats"));
        assert_eq!(t("OldWidgetTest", "OldWidget", "Widget").as_deref(), Some("WidgetTest"));
        assert_eq!(t("unrelated", "count", "total"), None);
        // The inserted word is there already: the edit is not this name's.
        assert_eq!(t("orphanFileIds", "fileIds", "orphanFileIds"), None);
        assert_eq!(t("dirtyFileIds", "fileIds", "orphanFileIds").as_deref(), Some("dirtyOrphanFileIds"));
    }

    #[test]
    fn separators_in_a_camel_case_name_stay() {
        assert_eq!(
            t("testCommentStart_Deprecated", "commentStart", "commentMarker").as_deref(),
            Some("testCommentMarker_Deprecated")
        );
        assert_eq!(t("Deprecated_countLabel", "count", "total").as_deref(), Some("Deprecated_totalLabel"));
        assert_eq!(t("Outer$CountHolder", "count", "total").as_deref(), Some("Outer$TotalHolder"));
        assert_eq!(t("_count", "count", "total").as_deref(), Some("_total"));
        assert_eq!(t("test_Deprecated", "count", "total"), None);
    }

    #[test]
    fn a_method_s_object_replaced_whole_keeps_the_verb() {
        assert!(replaces_the_object("resolveWorker", &edit("resolveWorker", "resolveService")));
        assert!(replaces_the_object("getRetryCount", &edit("getRetryCount", "getAttempts")));
        // The verb changes, a word of the object stays, or words are only added.
        assert!(!replaces_the_object("parseTree", &edit("parseTree", "walkTree")));
        assert!(!replaces_the_object("setRetryMode", &edit("setRetryMode", "setBackoffMode")));
        assert!(!replaces_the_object("encoding", &edit("encoding", "fileEncoding")));
        let hunks = edit("resolveWorker", "resolveService");
        let strong = affinity("workerFilename", "resolveWorker", &hunks, true).unwrap();
        let weak = affinity("workerFilename", "resolveWorker", &hunks, false).unwrap();
        assert!(strong > weak, "{strong} vs {weak}");
    }

    #[test]
    fn a_name_built_on_the_whole_old_name_is_close_however_few_words_changed() {
        let hunks = edit("TokenQueue", "CharQueue");
        assert!(built_on("TokenQueueTest", "TokenQueue") && built_on("createTokenQueue", "TokenQueue"));
        assert!(!built_on("TokenQueue", "TokenQueue") && !built_on("tokenizer", "TokenQueue"));
        let named_after = affinity("TokenQueueTest", "TokenQueue", &hunks, false).unwrap();
        let one_word = affinity("TokenStream", "TokenQueue", &hunks, false).unwrap();
        assert!(named_after > one_word, "{named_after} vs {one_word}");
    }

    #[test]
    fn a_prefix_given_to_a_class_reaches_its_siblings_not_other_head_nouns() {
        let (old, new) = ("PackedBlockReader", "Legacy9PackedBlockReader");
        let hunks = edit(old, new);
        assert!(sibling("PackedBlockWriter", old, &hunks));
        assert_eq!(transfer("PackedBlockWriter", &hunks).as_deref(), Some("Legacy9PackedBlockWriter"));
        // Another stem, another length, the same head noun, or a suffix anchored on the head noun.
        assert!(!sibling("PackedTermWriter", old, &hunks));
        assert!(!sibling("PackedBlockWriterTest", old, &hunks));
        assert!(!sibling("PackedBlockReader", old, &hunks));
        assert!(!sibling("PackedBlockWriter", old, &edit(old, "PackedBlockReaderImpl")));
        // Two words are a stem of one word: too little to make a family.
        assert!(!sibling("BlockWriter", "BlockReader", &edit("BlockReader", "OldBlockReader")));
    }
}
