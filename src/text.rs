//! Text layout of source files: where lines start, a line's indentation, re-indenting a block,
//! whole-word search, lines by number, and the edit distance between names. A leaf: the Java
//! model, the engine, the detector and the build adapters all use it, so each of these jobs is
//! written once.

/// The byte offset of every line's start: `0`, then one past each `\n`.
pub fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1)).collect()
}

/// The byte offset of the start of the line holding byte `at`.
pub fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// The leading whitespace (spaces and tabs) of the line holding byte `at`.
pub fn line_indent(text: &str, at: usize) -> &str {
    let rest = &text[line_start(text, at)..];
    &rest[..rest.len() - rest.trim_start_matches([' ', '\t']).len()]
}

/// Re-indents `text`, whose first line starts at the insertion point and whose other lines are
/// indented by `base`, to `indent`: every later line loses the base indentation and gains the new
/// one (a line less indented than the base loses what it has), a blank line becomes empty, and
/// nothing else changes. The first line is returned as it is.
pub fn reindent(text: &str, base: &str, indent: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i == 0 {
            out.push_str(line);
            continue;
        }
        out.push('\n');
        if line.trim().is_empty() {
            continue;
        }
        let stripped = match line.strip_prefix(base) {
            Some(rest) => rest,
            None => {
                // Less indented than the base (continuations, text blocks): strip what there is.
                let ws = line.len() - line.trim_start_matches([' ', '\t']).len();
                &line[ws.min(base.len())..]
            }
        };
        out.push_str(indent);
        out.push_str(stripped);
    }
    out
}

/// `text` without any whitespace: how two spellings of one expression or type are compared.
pub fn compact(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Levenshtein distance over characters (names are short, so the two-row table is fine).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The words of an identifier as written: split at `_`, `$`, lower-to-upper and letter-digit
/// changes, and before the last capital of a run of capitals followed by a lower-case letter
/// (`IOStats` → `IO`, `Stats`).
pub fn identifier_words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' || c == '$' {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if let Some(&p) = cur.chars().last().as_ref() {
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let boundary = (p.is_lowercase() && c.is_uppercase())
                || (p.is_uppercase() && c.is_uppercase() && next_lower)
                || (p.is_ascii_digit() != c.is_ascii_digit());
            if boundary {
                out.push(std::mem::take(&mut cur));
            }
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Whether `short` (3 or 4 letters) is `long` with vowels left out: the same first letter, then
/// only consonants, in `long`'s order (`fmt` for `format`, `idx` for `index`, `msg` for `message`).
pub fn drops_vowels(short: &str, long: &str) -> bool {
    let is_vowel = |c: char| matches!(c, 'a' | 'e' | 'i' | 'o' | 'u');
    let mut rest = long.chars();
    let mut letters = short.chars();
    (3..=4).contains(&short.len())
        && long.len() > short.len()
        && letters.next().is_some_and(|c| rest.next() == Some(c))
        && letters.all(|c| c.is_ascii_lowercase() && !is_vowel(c) && rest.any(|l| l == c))
}

/// Whether a variable's name is no more than an abbreviation of its type's (`ty`, a simple
/// name): the initials of some of its last words, then the start of its last word or that word
/// without its vowels (`sb` for `StringBuilder`, `im` for `IndexMetadata`, `buf` for
/// `StringBuffer`, `ctx` and `ectx` for `ExecutionContext`). Two to five lower-case letters, at
/// least three without initials; the last word itself is not one.
pub fn abbreviates_type(name: &str, ty: &str) -> bool {
    let words: Vec<String> = identifier_words(ty).iter().map(|w| w.to_lowercase()).collect();
    let Some((head, modifiers)) = words.split_last() else { return false };
    if !(2..=5).contains(&name.len()) || !name.chars().all(|c| c.is_ascii_lowercase()) || name == head {
        return false;
    }
    (0..=modifiers.len()).any(|from| {
        let initials: String = modifiers[from..].iter().filter_map(|w| w.chars().next()).collect();
        name.strip_prefix(initials.as_str()).is_some_and(|rest| {
            !rest.is_empty()
                && (!initials.is_empty() || rest.len() >= 3)
                && (head.starts_with(rest) || drops_vowels(rest, head))
        })
    })
}

/// The rest of camelCase `name` after its first word when that word is `word` (`Next` of
/// `hasNext` for `has`; nothing for `hash`).
pub fn after_word<'n>(name: &'n str, word: &str) -> Option<&'n str> {
    name.strip_prefix(word).filter(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// A field's name without the prefixes some code styles give fields: leading `_`, then `my` or
/// `m` before a capital (`_files` → `files`, `myFilter` → `Filter`, `mFiles` → `Files`).
pub fn field_stem(field: &str) -> &str {
    let bare = field.trim_start_matches('_');
    ["my", "m"].iter().find_map(|p| after_word(bare, p)).unwrap_or(bare)
}

/// Whether `c` can be part of a Java identifier.
pub fn is_identifier_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The byte offsets where `word` occurs in `text` as a whole identifier: no identifier character
/// right before or after it.
pub fn word_occurrences<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    text.match_indices(word).map(|(i, _)| i).filter(move |&i| {
        !text[..i].chars().next_back().is_some_and(is_identifier_char)
            && !text[i + word.len()..].chars().next().is_some_and(is_identifier_char)
    })
}

/// Whether `word` occurs in `text` as a whole identifier.
pub fn contains_word(text: &str, word: &str) -> bool {
    word_occurrences(text, word).next().is_some()
}

/// The longest start of `text` of at most `max` bytes that ends on a character boundary.
pub fn head(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Lines `a..=b` (1-based) of `text`, joined by `\n`.
pub fn lines(text: &str, a: usize, b: usize) -> String {
    text.lines().skip(a.saturating_sub(1)).take(b + 1 - a.max(1)).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout() {
        let text = "a\n  b\n\tc";
        assert_eq!(line_starts(text), [0, 2, 6]);
        assert_eq!(line_start(text, 4), 2);
        assert_eq!(line_indent(text, 4), "  ");
        assert_eq!(line_indent(text, 7), "\t");
        assert_eq!(lines(text, 2, 3), "  b\n\tc");
    }

    #[test]
    fn a_head_ends_on_a_character_boundary() {
        assert_eq!(head("abc", 5), "abc");
        assert_eq!(head("aé", 2), "a");
        assert_eq!(head("aé", 3), "aé");
    }

    #[test]
    fn lines_are_one_based_and_inclusive() {
        assert_eq!(lines("a\nb\nc\nd", 2, 3), "b\nc");
    }

    #[test]
    fn reindent_moves_later_lines_only() {
        assert_eq!(reindent("if (x) {\n    y();\n  \n  }", "  ", "\t"), "if (x) {\n\t  y();\n\n\t}");
        assert_eq!(reindent("a(\n b)", "    ", "  "), "a(\n  b)");
    }

    #[test]
    fn abbreviations_of_a_type_name() {
        for (name, ty) in [
            ("sb", "StringBuilder"),
            ("buf", "StringBuffer"),
            ("conf", "Configuration"),
            ("ctx", "Context"),
            ("im", "IndexMetadata"),
            ("ectx", "ExecutionContext"),
        ] {
            assert!(abbreviates_type(name, ty), "{name} {ty}");
        }
        for (name, ty) in [
            ("map", "Map"),
            ("list", "ArrayList"),
            ("rows", "Table"),
            ("s", "String"),
            ("Sb", "StringBuilder"),
            ("order", "Order"),
        ] {
            assert!(!abbreviates_type(name, ty), "{name} {ty}");
        }
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }

    #[test]
    fn words_are_whole_identifiers() {
        assert!(contains_word("x = total + 1", "total"));
        assert!(!contains_word("x = subtotal + 1", "total"));
        assert!(!contains_word("x = total$1", "total"));
        assert_eq!(word_occurrences("a.total(total)", "total").collect::<Vec<_>>(), [2, 8]);
    }
}
