//! Whether our result is the developer's, character for character once layout and comments are
//! set aside: the strictest of the evaluation's measures.

use crate::detect::Snapshot;
use crate::java::SourceFile;

/// Whether two Java texts have the same tokens (tree-sitter leaves, comments dropped, whitespace
/// ignored). If either text has a syntax error, tree-sitter's recovery may skip characters, so the
/// plain lexer of [`super::tokens`] compares them instead.
pub fn identical(human_after: &str, ours_after: &str) -> bool {
    if human_after == ours_after {
        return true;
    }
    let (a, b) = (
        SourceFile::parse("Human.java", human_after.to_string()),
        SourceFile::parse("Ours.java", ours_after.to_string()),
    );
    if a.root().has_error() || b.root().has_error() {
        return super::tokens(human_after) == super::tokens(ours_after);
    }
    let texts = |f: &SourceFile| -> Vec<String> {
        crate::java::syntax::code_leaves(f.root())
            .into_iter()
            .map(|n| f.text_of(n).to_string())
            .filter(|t| !t.is_empty())
            .collect()
    };
    texts(&a) == texts(&b)
}

/// [`identical`] over file sets: the same paths, and every file identical.
pub fn identical_files(human_after: &Snapshot, ours_after: &Snapshot) -> bool {
    human_after.files.len() == ours_after.files.len()
        && human_after
            .files
            .iter()
            .all(|(path, text)| ours_after.files.get(path).is_some_and(|ours| identical(text, ours)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_and_comments_do_not_count() {
        let a = "class A {\n  int f(int x) {\n    return x + 1; // one more\n  }\n}\n";
        let b = "class A { /* doc */ int f(int x) { return x+1; } }";
        assert!(identical(a, b));
        assert!(!identical(a, "class A { int f(int x) { return x + 2; } }"));
        // A string's spaces are part of it.
        assert!(!identical("class A { String s = \"a b\"; }", "class A { String s = \"a  b\"; }"));
        // A method alone (a syntax error as a file) still compares by tokens.
        assert!(identical("void f() { g(); }", "void f()\n{\n  g();  // call\n}"));
        assert!(!identical("void f() { g(); }", "void f() { h(); }"));
    }

    #[test]
    fn file_sets() {
        let a = Snapshot::from_files([("A.java", "class A {}"), ("B.java", "class B { }")]);
        let b = Snapshot::from_files([("A.java", "class  A {}"), ("B.java", "class B {}")]);
        assert!(identical_files(&a, &b));
        let c = Snapshot::from_files([("A.java", "class A {}")]);
        assert!(!identical_files(&a, &c));
        let d = Snapshot::from_files([("A.java", "class A {}"), ("C.java", "class B {}")]);
        assert!(!identical_files(&a, &d));
    }
}
