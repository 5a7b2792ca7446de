//! Normalisation: type names erased as RefactoringMiner writes them, and code as tokens without
//! comments, whitespace or `this.`.

use crate::detect::skeleton;

/// The erased simple name of a type as written, with `dims` extra dimensions: `java.util.List<T>[]` → `List[]`.
pub fn erase(text: &str, dims: usize) -> String {
    let mut depth = 0;
    let mut plain = String::new();
    for ch in text.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ if depth == 0 && !ch.is_whitespace() => plain.push(ch),
            _ => {}
        }
    }
    let written = plain.matches("[]").count();
    let base = plain.replace("[]", "");
    let base = base.rsplit(['.', ')']).next().unwrap_or(&base).to_string();
    let mut out = base;
    for _ in 0..written + dims {
        out.push_str("[]");
    }
    out
}

/// A type as RefactoringMiner prints it: `Map<String,List<T>>`, `List<? extends X>`, `String...`.
pub fn rm_type(text: &str, extra_dims: usize, varargs: bool) -> String {
    let toks = tokens(text);
    let mut out = String::new();
    let mut i = 0;
    let mut prev_word = false;
    while i < toks.len() {
        let tok = toks[i].as_str();
        if tok == "@" {
            // A type annotation: `@Nullable` or `@A(x)`; RefactoringMiner leaves it out.
            i += 2;
            if toks.get(i).is_some_and(|t| t == "(") {
                let mut depth = 0;
                while i < toks.len() {
                    depth += match toks[i].as_str() {
                        "(" => 1,
                        ")" => -1,
                        _ => 0,
                    };
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            continue;
        }
        let word = is_word(tok);
        if tok == "extends" || tok == "super" || tok == "&" {
            out.push(' ');
            out.push_str(tok);
            out.push(' ');
            prev_word = false;
        } else {
            if word && prev_word {
                out.push(' ');
            }
            out.push_str(tok);
            prev_word = word;
        }
        i += 1;
    }
    for _ in 0..extra_dims {
        out.push_str("[]");
    }
    if varargs {
        out.push_str("...");
    }
    out
}

pub(super) fn is_word(tok: &str) -> bool {
    tok.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '?')
}

/// Java tokens without comments or whitespace; `this.` dropped; common two-character operators kept whole.
pub fn tokens(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i += 2;
            while i < b.len() && !b[i..].starts_with(b"*/") {
                i += 1;
            }
            i = (i + 2).min(b.len());
        } else if skeleton::is_word_byte(c) {
            let s = i;
            while i < b.len() && skeleton::is_word_byte(b[i]) {
                i += 1;
            }
            // Numbers with a fraction or exponent stay one token.
            if c.is_ascii_digit() && i < b.len() && b[i] == b'.' {
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
            }
            out.push(text[s..i].to_string());
        } else if c == b'"' || c == b'\'' {
            let s = i;
            i = skeleton::skip_literal(b, i);
            out.push(text[s..i.min(text.len())].to_string());
        } else {
            let two = if i + 1 < b.len() { &b[i..i + 2] } else { &b[i..i + 1] };
            let n = if matches!(
                two,
                b"=="
                    | b"!="
                    | b"<="
                    | b">="
                    | b"&&"
                    | b"||"
                    | b"++"
                    | b"--"
                    | b"+="
                    | b"-="
                    | b"*="
                    | b"/="
                    | b"->"
                    | b"::"
            ) {
                2
            } else {
                // Not a char boundary only inside non-ASCII text, which the identifier branch took.
                text[i..].chars().next().map(char::len_utf8).unwrap_or(1)
            };
            let tok = &text[i..i + n];
            if tok == "." && out.last().is_some_and(|t| t == "this") {
                out.pop();
            } else {
                out.push(tok.to_string());
            }
            i += n;
        }
    }
    out
}
