//! Method bodies found without parsing, so that the parser can skip the ones a change left alone.
//!
//! Most of a changed file is methods the commit did not touch, and the detector never looks inside
//! a method that is identical on both sides. Parsing is what costs (tree-sitter runs at about
//! 10 MB/s), so the detector first finds the bodies of a file's members with a lexer-level scan
//! (comments, strings, character literals and text blocks skipped; braces counted) and has
//! tree-sitter skip (as excluded ranges) every body interior whose exact text also occurs on the
//! other side, and the comments between members. Offsets, lines and columns are those of the full
//! text, so the declarations, spans and fingerprints read from that tree are the same; a skipped
//! body that turns out to be needed (a renamed or moved method keeps its body) is parsed
//! afterwards, reusing the rest of the tree ([`super::model`]).
//!
//! The scan only has to be right about one thing for the declarations to be right: a type body
//! (`class A {`, `record R(int x) {`) is never taken for a method body. A block is taken for a
//! member body when, at class-body level, its header ends with a parameter list (`f(int x) {`,
//! `f() throws E {`) and names no type declaration; anonymous class bodies in field initializers
//! and enum constant bodies match too, which is harmless (the declaration walk never enters them).

/// A member body `{ ... }` at class-body level: byte offsets of its braces and a hash of its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Body {
    /// Offset of `{`.
    pub open: usize,
    /// Offset of the matching `}`.
    pub close: usize,
    /// Hash of the text from `{` to `}` inclusive.
    pub hash: u64,
}

impl Body {
    /// The bytes between the braces.
    pub fn interior(&self) -> (usize, usize) {
        (self.open + 1, self.close)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    /// A class, interface, enum, record or annotation body (or the file itself): members follow.
    Type,
    /// A member body, opened at this offset.
    Member(usize),
    /// Anything else (initializer blocks, array initializers, lambda bodies, nested blocks).
    Other,
}

/// What the scan finds in a file.
#[derive(Debug, Default)]
pub struct Skeleton {
    /// The member bodies, in order, outermost only (no body holds another).
    pub bodies: Vec<Body>,
    /// What the parser may skip because the detector reads nothing of it: comments at class-body
    /// or file level (Javadoc, licence headers), import declarations and field initializers
    /// (from `=` to before `;`; a field's type and names are all the detector reads of it). Byte ranges in order (a
    /// comment may lie inside an import). A comment glued to code on both sides (`a/*x*/b`) is
    /// not listed, since without it the two tokens would run together.
    pub skippable: Vec<(usize, usize)>,
}

/// The member bodies and the skippable comments, imports and field initializers of `text`.
pub fn scan(text: &str) -> Skeleton {
    let b = text.as_bytes();
    let mut out = Skeleton::default();
    let mut stack: Vec<Block> = Vec::new();
    // The tokens since the last `;`, `{` or `}` at class-body level: a member's header.
    let mut header: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    let spaced = |at: Option<&u8>| at.is_none_or(|c| c.is_ascii_whitespace());
    while i < b.len() {
        let c = b[i];
        let in_type = stack.last().is_none_or(|k| *k == Block::Type);
        match c {
            b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let s = i;
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                // Ends before its newline, which stays to separate what follows.
                if in_type {
                    out.skippable.push((s, i));
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let s = i;
                i += 2;
                while i < b.len() && !b[i..].starts_with(b"*/") {
                    i += 1;
                }
                i = (i + 2).min(b.len());
                if in_type && (s == 0 || spaced(b.get(s - 1)) || spaced(b.get(i))) {
                    out.skippable.push((s, i));
                }
            }
            b'"' | b'\'' => {
                let s = i;
                i = skip_literal(b, i);
                if in_type {
                    header.push((s, i));
                }
            }
            b'{' => {
                let block = if !in_type {
                    Block::Other
                } else if declares_type(b, &header) {
                    Block::Type
                } else if ends_with_parameters(b, &header) {
                    Block::Member(i)
                } else {
                    Block::Other
                };
                header.clear();
                stack.push(block);
                i += 1;
            }
            b'}' => {
                if let Some(Block::Member(open)) = stack.pop() {
                    out.bodies.push(Body { open, close: i, hash: hash(&b[open..=i]) });
                }
                header.clear();
                i += 1;
            }
            b';' => {
                if stack.is_empty() && header.first().is_some_and(|&(s, e)| &b[s..e] == b"import") {
                    out.skippable.push((header[0].0, i + 1));
                } else if in_type && let Some(at) = initializer(b, &header) {
                    out.skippable.push((at, i));
                }
                if in_type {
                    header.clear();
                }
                i += 1;
            }
            _ if is_word_byte(c) => {
                let s = i;
                while i < b.len() && is_word_byte(b[i]) {
                    i += 1;
                }
                if in_type {
                    header.push((s, i));
                }
            }
            _ => {
                if in_type {
                    header.push((i, i + 1));
                }
                i += 1;
            }
        }
    }
    out
}

/// A byte of a Java identifier or number (non-ASCII bytes are taken as letters).
pub(super) fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80
}

/// The offset after the string, character literal or text block starting at `i`.
pub(super) fn skip_literal(b: &[u8], mut i: usize) -> usize {
    if b[i..].starts_with(b"\"\"\"") {
        i += 3;
        while i < b.len() && !b[i..].starts_with(b"\"\"\"") {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        return (i + 3).min(b.len());
    }
    let quote = b[i];
    i += 1;
    while i < b.len() && b[i] != quote && b[i] != b'\n' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    (i + 1).min(b.len())
}

/// Where a field's initializer starts (its `=`), when the header is one declarator with an
/// initializer free of braces: `T x = f(a, b)` (not `T x = 1, y = 2`, whose declarators a comma
/// at depth 0 separates, nor anything whose generic arguments make that comma ambiguous).
fn initializer(b: &[u8], header: &[(usize, usize)]) -> Option<usize> {
    let mut depth = 0i32;
    let mut at = None;
    for &(s, e) in header {
        match &b[s..e] {
            b"(" | b"[" => depth += 1,
            b")" | b"]" => depth -= 1,
            b"=" if depth == 0 && at.is_none() => at = Some(s),
            b"," if depth == 0 && at.is_some() => return None,
            _ => {}
        }
    }
    at
}

/// Whether a header declares a type: `class`, `interface`, `enum` or `record` followed by a name,
/// outside any parentheses (`@A(B.class) void f() {` declares none).
fn declares_type(b: &[u8], header: &[(usize, usize)]) -> bool {
    let mut depth = 0i32;
    for (k, &(s, e)) in header.iter().enumerate() {
        match &b[s..e] {
            b"(" => depth += 1,
            b")" => depth -= 1,
            b"class" | b"interface" | b"enum" | b"record"
                if depth == 0
                    && header.get(k + 1).is_some_and(|&(s2, e2)| b[s2..e2].iter().all(|&c| is_word_byte(c))) =>
            {
                return true;
            }
            _ => {}
        }
    }
    false
}

/// Whether a header ends with a parameter list, optionally followed by a `throws` clause of
/// plain (qualified) names.
fn ends_with_parameters(b: &[u8], header: &[(usize, usize)]) -> bool {
    let text = |k: usize| &b[header[k].0..header[k].1];
    let Some(mut k) = header.len().checked_sub(1) else { return false };
    if text(k) == b")" {
        return true;
    }
    // `throws A, b.C`: names, dots and commas back to `throws`, which follows `)`.
    loop {
        let t = text(k);
        if t == b"throws" {
            return k > 0 && text(k - 1) == b")";
        }
        if !(t == b"." || t == b"," || t.iter().all(|&c| is_word_byte(c))) || k == 0 {
            return false;
        }
        k -= 1;
    }
}

/// A fast 64-bit hash of bytes (word at a time); a collision only costs a re-parse.
pub fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let mut a = [0u8; 8];
        a.copy_from_slice(w);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(a)).wrapping_mul(K);
    }
    for &x in words.remainder() {
        h = (h.rotate_left(5) ^ u64::from(x)).wrapping_mul(K);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bodies(text: &str) -> Vec<&str> {
        scan(text).bodies.iter().map(|b| &text[b.open..=b.close]).collect()
    }

    #[test]
    fn lists_the_comments_and_imports_that_can_go() {
        let text = "/* licence */\npackage a;\nimport b.C;\nimport static d.E.*;\n/** doc */\nclass A {\n  // line\n  int/*glued*/x;\n  \
                    void f() { /* inside */ }\n  int y = 1; /* after */\n  @A(v = 1) Map<K, V> m = new HashMap<K, V>();\n  \
                    int p = g(1, 2), q;\n  int[] r = {1};\n  Object o = h(x -> { return x; });\n}";
        let skippable: Vec<&str> = scan(text).skippable.iter().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(
            skippable,
            ["/* licence */", "import b.C;", "import static d.E.*;", "/** doc */", "// line", "= 1", "/* after */"]
        );
    }

    #[test]
    fn finds_method_and_constructor_bodies_at_class_level() {
        let text = "package a;\n@A(B.class) public class C<T extends D> implements E {\n\
                    C(int x) throws java.io.IOException, F { this.x = x; }\n\
                    void f(String s) { if (s != null) { g(\"}\"); } char c = '{'; /* } */ }\n\
                    // }\n\
                    int[] a = {1, 2};\n\
                    static { init(); }\n\
                    Runnable r = new Runnable() { public void run() { } };\n\
                    record R(int x) { R { check(x); } int y() { return x; } }\n\
                    interface I { default void d() { } void e(); }\n\
                    enum K { A(1) { void z() {} }, B; K(int v) { } }\n\
                    String t = \"\"\"\n  { \"\"\";\n\
                    void record(int r) { }\n\
                    }";
        assert_eq!(
            bodies(text),
            [
                "{ this.x = x; }",
                "{ if (s != null) { g(\"}\"); } char c = '{'; /* } */ }",
                "{ public void run() { } }",
                "{ return x; }",
                "{ }",
                "{ void z() {} }",
                "{ }",
                "{ }",
            ]
        );
    }
}
