use super::*;

const METHOD: &str = r#"public int getLineCount(TokenEntry mark, Match match) {
        TokenEntry endTok = get(mark.getIndex() + match.getTokenCount() - 1);
        if (endTok == TokenEntry.EOF) {
            endTok = get(mark.getIndex() + match.getTokenCount() - 2);
        }
        return endTok.getBeginLine() - mark.getBeginLine() + 1;
    }"#;

#[test]
fn identical_code_scores_exactly_one() {
    let s = codebleu(METHOD, METHOD);
    assert_eq!(s, CodeBleu { score: 1.0, ngram: 1.0, weighted_ngram: 1.0, syntax: 1.0, dataflow: 1.0 });
    let file = format!("package p;\n\nclass Tokens {{\n    {METHOD}\n}}\n");
    assert_eq!(codebleu(&file, &file).score, 1.0);
    assert_eq!(codebleu("", "").score, 1.0);
    assert_eq!(codebleu("int x;", "int x;").score, 1.0);
}

#[test]
fn layout_and_comments_barely_count() {
    let reformatted = METHOD.replace("        ", "  ").replace(" + ", "+").replace("{\n", "{ // go on\n");
    let s = codebleu(METHOD, &reformatted);
    assert_eq!(s.score, 1.0, "{s:?}");
    let documented = format!("/** Lines between two tokens. */\n{METHOD}");
    assert_eq!(codebleu(METHOD, &documented).score, 1.0);
}

#[test]
fn empty_and_garbage_do_not_panic() {
    let s = codebleu(METHOD, "");
    assert_eq!(s.score, 0.0, "{s:?}");
    let s = codebleu("", METHOD);
    assert_eq!(s.score, 0.0, "{s:?}");
    let s = codebleu(METHOD, "}}}{{ ((( int = ;; \"unterminated");
    assert!(s.score >= 0.0 && s.score < 0.3, "{s:?}");
    let s = codebleu("@@@ ### $$$", "@@@ ### $$$");
    assert_eq!(s.score, 1.0, "{s:?}");
}

#[test]
fn renaming_a_variable_costs_ngrams_more_than_data_flow() {
    let renamed = METHOD.replace("endTok", "last");
    let s = codebleu(METHOD, &renamed);
    assert_eq!(s.dataflow, 1.0, "{s:?}");
    assert_eq!(s.syntax, 1.0, "{s:?}");
    assert!(s.ngram < 0.9 && s.weighted_ngram < 0.9, "{s:?}");
    assert!(s.score < 1.0 && s.score > 0.8, "{s:?}");
}

#[test]
fn reordering_statements_lowers_the_score() {
    let a = "void f() { int a = 1; int b = a + 2; log(a); log(b); }";
    let b = "void f() { int a = 1; log(a); int b = a + 2; log(b); }";
    let s = codebleu(a, b);
    assert!(s.score < 1.0 && s.score > 0.6, "{s:?}");
    assert!(s.ngram < 1.0, "{s:?}");
    // Variables are numbered in order of appearance, so moving a use changes some flows too.
    assert!(s.dataflow < 1.0 && s.syntax < 1.0, "{s:?}");
}

#[test]
fn keywords_weigh_more_in_the_weighted_match() {
    // The candidate misses only keywords in one case, only identifiers in the other.
    let r = ["public", "static", "int", "a", "b", "c"];
    let no_keywords = ["x", "y", "z", "a", "b", "c"];
    let no_names = ["public", "static", "int", "x", "y", "z"];
    assert!(weighted_bleu(&r, &no_names) > weighted_bleu(&r, &no_keywords));
}

#[test]
fn bleu_matches_nltk_on_the_textbook_example() {
    // NLTK's sentence_bleu doctest (one reference), 0.4118...; method 1 changes nothing here.
    let hyp = "It is a guide to action which ensures that the military always obeys the commands of the party";
    let reference = "It is a guide to action that ensures that the military will forever heed Party commands";
    let (h, r): (Vec<&str>, Vec<&str>) = (hyp.split(' ').collect(), reference.split(' ').collect());
    let b = bleu(&r, &h);
    assert!((b - 0.4118).abs() < 1e-4, "{b}");
}

/// CodeXGLUE's README example (`Code-Code/code-to-code-trans`): reference CodeBLEU 0.7238 for the
/// first candidate and 0.8397 for the second (its grammar and whitespace tokens; ours differ, see
/// the module docs).
#[test]
fn close_to_codexglue_on_its_readme_example() {
    let reference = "public static int Sign ( double d ) { return ( int ) ( ( d == 0 ) ? 0 : ( d < 0 ) ? - 1 : 1) ; }";
    let first = "public static int Sign ( double d ) { return ( float ) ( ( d == 0 ) ? 0 : ( c < 0.0 ) ? - 1 : 1) ; }";
    let second = "public static int Sign ( double c ) { return ( int ) ( ( c == 0 ) ? 0 : ( c < 0 ) ? - 1 : 1) ; }";
    let (a, b) = (codebleu(reference, first), codebleu(reference, second));
    assert!((a.score - 0.7238).abs() < 0.08, "{a:?}");
    assert!((b.score - 0.8397).abs() < 0.08, "{b:?}");
    assert!(b.score > a.score);
}
