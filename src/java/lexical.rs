//! A lexical pass over Java text: how many types and methods a file declares, and whether its
//! brackets, comments and literals are closed, without building a syntax tree.
//!
//! `mantra analyze` shows the project summary beside every method. Parsing every file of a large
//! project for two counts cost more than the whole rest of the analysis, so the summary counts
//! declarations from tokens instead. The rules follow what [`super::symbols`] records from the tree:
//! a named type is `class`, `interface`, `enum`, `record` or `@interface` followed by its name; a
//! method is a name followed by `(` where a class, interface, enum or record body expects a member
//! (not in an initializer, an annotation, an enum constant's arguments or an annotation type's
//! elements), or a record's compact constructor `Name {`. Methods of anonymous classes (`new T() {`,
//! enum constant bodies) and local classes count, as they do in the model. On well-formed code the
//! counts equal the parsed ones (a test checks this against the refactoring oracle's files).
//!
//! [`Counts::suspect`] is set when a bracket, comment or literal is left open or closed twice; only
//! such files need a parse to locate a syntax error. Errors inside balanced text (`int x = ;`) are
//! not seen here.

/// What the lexical pass found in one file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Named types: classes, interfaces, enums, records, annotation types (nested and local included).
    pub types: usize,
    /// Methods and constructors, anonymous and local classes' included.
    pub methods: usize,
    /// Unbalanced brackets or an unterminated comment or literal.
    pub suspect: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    /// An identifier or keyword: the byte range.
    Word(u32, u32),
    Punct(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BodyKind {
    /// Classes, interfaces and anonymous classes.
    Class,
    Enum,
    Record,
    Annotation,
}

#[derive(Debug, Clone, Copy)]
enum Frame {
    /// A type body; `eq` is set inside a field initializer, `decl` after a method's name and `(`,
    /// `constants` while an enum lists its constants.
    Body {
        kind: BodyKind,
        eq: bool,
        decl: bool,
        constants: bool,
    },
    Block,
    /// `new_args`: the arguments of `new T(...)`, which a class body may follow.
    Paren {
        new_args: bool,
    },
    Bracket,
}

/// Counts the declarations of one Java file.
pub fn count(text: &str) -> Counts {
    pass(text, |_| {})
}

/// The names of the types a file declares (top-level, nested and local), with [`Counts::suspect`].
/// Every type the parse finds in a file whose brackets close is named here, so the names narrow the
/// files to parse when looking a type up by name.
pub fn type_names(text: &str) -> (Vec<&str>, bool) {
    let mut names = Vec::new();
    let counts = pass(text, |name| names.push(name));
    (names, counts.suspect)
}

/// The lexical pass; `named` is called with the name of every type declaration.
fn pass<'t>(text: &'t str, mut named: impl FnMut(&'t str)) -> Counts {
    let (toks, mut suspect) = tokenize(text.as_bytes());
    let word = |t: Tok| -> Option<&'t str> {
        match t {
            Tok::Word(s, e) => Some(&text[s as usize..e as usize]),
            Tok::Punct(_) => None,
        }
    };
    let mut counts = Counts::default();
    let mut stack: Vec<Frame> = Vec::new();
    // A type header seen (`class X ...`): the next `{` at this depth opens its body.
    let mut pending: Option<(BodyKind, usize)> = None;
    // The previous token was the `)` of `new T(...)`.
    let mut after_new_args = false;
    for i in 0..toks.len() {
        let tok = toks[i];
        let prev = i.checked_sub(1).map(|p| toks[p]);
        let closed_new = std::mem::take(&mut after_new_args);
        match tok {
            Tok::Word(..) => {
                let w = word(tok).unwrap_or("");
                let kind = match w {
                    "class" | "interface" if prev == Some(Tok::Punct(b'@')) => Some(BodyKind::Annotation),
                    "class" | "interface" => Some(BodyKind::Class),
                    "enum" => Some(BodyKind::Enum),
                    "record" => Some(BodyKind::Record),
                    _ => None,
                };
                let Some(kind) = kind else { continue };
                if prev == Some(Tok::Punct(b'.')) || toks.get(i + 1).and_then(|&t| word(t)).is_none_or(is_keyword) {
                    continue;
                }
                // `record` is a contextual keyword: a declaration has `(` or `<` after the name
                if w == "record" && !matches!(toks.get(i + 2), Some(Tok::Punct(b'(' | b'<'))) {
                    continue;
                }
                counts.types += 1;
                named(toks.get(i + 1).and_then(|&t| word(t)).unwrap_or(""));
                pending = Some((kind, stack.len()));
            }
            Tok::Punct(b'(') => {
                let mut new_args = false;
                if pending.is_none_or(|(_, d)| d != stack.len()) {
                    if let Some(Frame::Body { kind, eq: false, decl, constants: false }) = stack.last_mut()
                        && *kind != BodyKind::Annotation
                        && is_declared_name(&toks, i, &word)
                    {
                        counts.methods += 1;
                        *decl = true;
                    }
                    new_args = follows_new(&toks, i, &word);
                }
                stack.push(Frame::Paren { new_args });
            }
            Tok::Punct(b')') => match stack.pop() {
                Some(Frame::Paren { new_args }) => after_new_args = new_args,
                _ => suspect = true,
            },
            Tok::Punct(b'[') => stack.push(Frame::Bracket),
            Tok::Punct(b']') => {
                if !matches!(stack.pop(), Some(Frame::Bracket)) {
                    suspect = true;
                }
            }
            Tok::Punct(b'{') => {
                let frame = match (pending, stack.last()) {
                    (Some((kind, d)), _) if d == stack.len() => {
                        pending = None;
                        Frame::Body { kind, eq: false, decl: false, constants: kind == BodyKind::Enum }
                    }
                    _ if closed_new => Frame::Body { kind: BodyKind::Class, eq: false, decl: false, constants: false },
                    // an enum constant with a body
                    (_, Some(Frame::Body { constants: true, .. })) => {
                        Frame::Body { kind: BodyKind::Class, eq: false, decl: false, constants: false }
                    }
                    (_, Some(Frame::Body { kind: BodyKind::Record, eq: false, decl: false, .. })) => {
                        // `Name {` is a compact constructor; `static {` an initializer
                        if prev.and_then(word).is_some_and(|w| !is_keyword(w)) {
                            counts.methods += 1;
                        }
                        Frame::Block
                    }
                    _ => Frame::Block,
                };
                stack.push(frame);
            }
            Tok::Punct(b'}') => {
                loop {
                    match stack.pop() {
                        Some(Frame::Block | Frame::Body { .. }) => break,
                        Some(_) => suspect = true,
                        None => {
                            suspect = true;
                            break;
                        }
                    }
                }
                // a method body, an initializer or a nested type ends the member, unless it was
                // part of a field's initializer (`Object o = new Object() { ... };`)
                if let Some(Frame::Body { eq: false, decl, .. }) = stack.last_mut() {
                    *decl = false;
                }
            }
            Tok::Punct(b';') => {
                if let Some(Frame::Body { eq, decl, constants, .. }) = stack.last_mut() {
                    *eq = false;
                    *decl = false;
                    *constants = false;
                }
            }
            Tok::Punct(b'=') => {
                if let Some(Frame::Body { eq, constants: false, .. }) = stack.last_mut() {
                    *eq = true;
                }
            }
            Tok::Punct(_) => {}
        }
    }
    counts.suspect = suspect || !stack.is_empty();
    counts
}

/// Whether the word before the `(` at `i` names a declaration: an identifier, not a keyword, not
/// after `.` (a qualified call) and not an annotation's name (`@a.b.Name(`).
fn is_declared_name<'t>(toks: &[Tok], i: usize, word: &impl Fn(Tok) -> Option<&'t str>) -> bool {
    let Some(name) = i.checked_sub(1).and_then(|p| word(toks[p])) else { return false };
    if is_keyword(name) {
        return false;
    }
    let mut j = i - 1;
    // walk back over a dotted name to see whether `@` starts it
    while j >= 2 && toks[j - 1] == Tok::Punct(b'.') && word(toks[j - 2]).is_some() {
        j -= 2;
    }
    if j >= 1 && toks[j - 1] == Tok::Punct(b'@') {
        return false;
    }
    i < 2 || toks[i - 2] != Tok::Punct(b'.')
}

/// Whether the `(` at `i` opens the arguments of `new T(...)` / `new a.B<C<D>>(...)`.
fn follows_new<'t>(toks: &[Tok], i: usize, word: &impl Fn(Tok) -> Option<&'t str>) -> bool {
    let mut j = i;
    let mut angle = 0usize;
    while j > 0 {
        j -= 1;
        match toks[j] {
            Tok::Punct(b'>') => angle += 1,
            Tok::Punct(b'<') => angle = angle.saturating_sub(1),
            Tok::Punct(b'.' | b',' | b'?' | b'[' | b']' | b'&') if angle > 0 => {}
            Tok::Punct(b'.') => {}
            t => match word(t) {
                Some("new") => return true,
                Some(w) if angle > 0 || !is_keyword(w) => {}
                _ => return false,
            },
        }
    }
    false
}

fn is_keyword(w: &str) -> bool {
    matches!(
        w,
        "abstract"
            | "assert"
            | "boolean"
            | "break"
            | "byte"
            | "case"
            | "catch"
            | "char"
            | "class"
            | "const"
            | "continue"
            | "default"
            | "do"
            | "double"
            | "else"
            | "enum"
            | "extends"
            | "final"
            | "finally"
            | "float"
            | "for"
            | "goto"
            | "if"
            | "implements"
            | "import"
            | "instanceof"
            | "int"
            | "interface"
            | "long"
            | "native"
            | "new"
            | "package"
            | "private"
            | "protected"
            | "public"
            | "return"
            | "short"
            | "static"
            | "strictfp"
            | "super"
            | "switch"
            | "synchronized"
            | "this"
            | "throw"
            | "throws"
            | "transient"
            | "try"
            | "void"
            | "volatile"
            | "while"
            | "true"
            | "false"
            | "null"
    )
}

/// Words and the punctuation the counter needs; comments and literals are skipped. The flag says a
/// comment or literal was left open.
fn tokenize(b: &[u8]) -> (Vec<Tok>, bool) {
    let mut toks = Vec::with_capacity(b.len() / 6);
    let mut suspect = false;
    let mut i = 0;
    let n = b.len();
    while i < n {
        let c = b[i];
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = memchr_from(b, b'\n', i).unwrap_or(n);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => match find(b, b"*/", i + 2) {
                Some(e) => i = e + 2,
                None => {
                    suspect = true;
                    i = n;
                }
            },
            b'"' if b[i..].starts_with(b"\"\"\"") => {
                // a text block: up to the next unescaped `"""`
                let mut j = i + 3;
                loop {
                    match find(b, b"\"\"\"", j) {
                        Some(e) if escaped(b, e) => j = e + 1,
                        Some(e) => {
                            i = e + 3;
                            break;
                        }
                        None => {
                            suspect = true;
                            i = n;
                            break;
                        }
                    }
                }
            }
            b'"' | b'\'' => {
                let mut j = i + 1;
                loop {
                    match b.get(j) {
                        Some(b'\\') => j += 2,
                        Some(&q) if q == c => {
                            i = j + 1;
                            break;
                        }
                        Some(b'\n') | None => {
                            suspect = true;
                            i = j;
                            break;
                        }
                        Some(_) => j += 1,
                    }
                }
                toks.push(Tok::Punct(b'"'));
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80 => {
                let start = i;
                while i < n && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$' || b[i] >= 0x80) {
                    i += 1;
                }
                toks.push(Tok::Word(start as u32, i as u32));
            }
            c if c.is_ascii_digit() => {
                // a number literal (with `.`, exponents, suffixes and `_`): one token
                while i < n && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                    i += 1;
                }
                toks.push(Tok::Punct(b'0'));
            }
            c if c.is_ascii_whitespace() => i += 1,
            c => {
                toks.push(Tok::Punct(c));
                i += 1;
            }
        }
    }
    (toks, suspect)
}

/// Whether the quote at `at` is escaped by an odd number of backslashes.
fn escaped(b: &[u8], at: usize) -> bool {
    b[..at].iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 1
}

fn memchr_from(b: &[u8], needle: u8, from: usize) -> Option<usize> {
    b[from..].iter().position(|&c| c == needle).map(|p| p + from)
}

fn find(b: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from > b.len() {
        return None;
    }
    b[from..].windows(needle.len()).position(|w| w == needle).map(|p| p + from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::java::source::SourceFile;
    use crate::java::symbols::{TypeKind, extract};

    /// The counts the parsed model gives for the same text.
    fn parsed(text: &str) -> (usize, usize) {
        let s = extract(&SourceFile::parse("T.java", text.to_string()));
        (s.types.iter().filter(|t| t.kind != TypeKind::Anonymous).count(), s.methods.len())
    }

    fn both(text: &str) -> ((usize, usize), (usize, usize)) {
        let c = count(text);
        ((c.types, c.methods), parsed(text))
    }

    #[test]
    fn agrees_with_the_parse_on_every_kind_of_member() {
        let cases = [
            "package a; class A { void f() {} class In {} Object o = new Object() { void g() {} }; }",
            "class A<T> { /** { */ @Ann(x = \"(\", y = {1, 2}) public <U> U m(int a) throws X { return \
             foo(new B() { int h() { return 1; } }, () -> { class L { void l() {} } }); }\n A() { this(1); } \
             static { init(); } { more(); } int[] xs = {1, 2}; Runnable r = () -> run(); }",
            "enum E { A, B(2), C { void c() {} }, D(3) { void d() {} }; E() {} E(int x) {} int v() { return 0; } }",
            "enum F { ; void f() {} } enum G { X, Y }",
            "@interface Ann { String value() default \"\"; int[] n() default {}; class Nested { void k() {} } }",
            "record P(int x, String... ys) implements Q { P { check(x); } static { } P(int x) { this(x, \"\"); } \
             static P of() { return new P(1); } }",
            "interface I extends J { int MAX = 3; void a(); default int b() { return MAX; } static I c() { \
             return new I() { public void a() {} }; } }",
            "class S { String t = \"\"\"\n  text { ( \"\"\"; char c = '{'; char q = '\\''; String s = \"\\\")\"; \
             Class<?> k = String.class; Object o = new java.util.ArrayList<java.util.Map<String, Integer>>() {}; \
             void record(int record) { record = 1; } }",
            "class Gen { <T extends Comparable<T>> void sort(java.util.List<T> xs) { xs.sort((a, b) -> { \
             return new Comparator<T>() { public int compare(T p, T q) { return 0; } }.compare(a, b); }); } }",
            "class W { void f() { record R(int a) { R { } } enum Local { X; void y() {} } } }",
        ];
        for text in cases {
            let (lexical, parsed) = both(text);
            assert_eq!(lexical, parsed, "{text}");
            assert!(!count(text).suspect, "{text}");
        }
    }

    #[test]
    fn open_brackets_comments_and_literals_are_suspect() {
        for text in [
            "class A { void broken( { }",
            "class A { void f() { }",
            "class A { } }",
            "class A { /* never closed }",
            "class A { String s = \"no end; }",
            "class A { int[ x; }",
        ] {
            assert!(count(text).suspect, "{text}");
        }
        assert!(!count("class A { void f() { int x = ; } }").suspect, "balanced errors are not seen");
    }

    #[test]
    fn names_every_declared_type() {
        let (names, suspect) = type_names("class A { enum B { X } void f() { record C(int x) {} } } @interface D {}");
        assert_eq!((names, suspect), (vec!["A", "B", "C", "D"], false));
    }
}
