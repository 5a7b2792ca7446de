use super::parse::{included, merge};
use super::*;

/// Both sides parsed in full (nothing unparsed), bodies filled as [`Side::build_pair`] fills them.
fn build_pair_in_full(before: &Snapshot, after: &Snapshot) -> (Side, Side) {
    let parse = |s: &Snapshot| -> Vec<Parsed> {
        s.files.iter().map(|(p, t)| Parsed::parse_skipping(p, t.clone(), Vec::new(), Vec::new())).collect()
    };
    let (mut b, mut a) = (Side::declare(parse(before)), Side::declare(parse(after)));
    let fb: HashSet<u64> = b.methods.iter().map(|m| m.fingerprint).collect();
    let fa: HashSet<u64> = a.methods.iter().map(|m| m.fingerprint).collect();
    b.fill_bodies(&fa);
    a.fill_bodies(&fb);
    (b, a)
}

/// Everything the matcher reads of a side, printed.
fn describe(side: &Side) -> Vec<String> {
    let mut out: Vec<String> = side
        .classes
        .iter()
        .map(|c| format!("class {} {} {:?} {:?} {:?}", c.name, c.file, c.supers, c.methods, c.fields))
        .collect();
    for m in &side.methods {
        out.push(format!(
            "method {} {} {:?} {} {:?} {} {} {} {} {:?} {} {:?}",
            m.class, m.name, m.params, m.key, m.ret, m.ctor, m.is_static, m.has_body, m.file, m.span, m.desc, m.locals
        ));
        for s in &m.stmts {
            out.push(format!("  stmt {} {:?} {:?} {} {}", s.text, s.core, s.span, s.trivial, s.kind));
        }
        for c in &m.calls {
            out.push(format!(
                "  call {} {:?} {} {} {:?} {:?}",
                c.name, c.args, c.qualified, c.receiver, c.span, c.stmt
            ));
        }
    }
    out
}

#[test]
fn included_ranges_leave_out_nested_skips_once() {
    let text = "ab\ncdefghij\nkl";
    let ranges = included(&merge(&[(2, 10)], &[(4, 6), (12, 13)]), &crate::text::line_starts(text), text.len());
    let spans: Vec<(usize, usize, usize, usize)> =
        ranges.iter().map(|r| (r.start_byte, r.end_byte, r.start_point.row, r.start_point.column)).collect();
    assert_eq!(spans, [(0, 2, 0, 0), (10, 12, 1, 7), (13, 14, 2, 1)]);
}

#[test]
fn skipped_bodies_are_parsed_when_their_method_changed() {
    // `g` keeps its body under a new name, `h` is untouched, `k` changes, `R` is a record.
    let before = Snapshot::from_files([(
        "a/A.java",
        "package a;\nclass A {\n  void g(int x) {\n    run(x);\n    if (x > 0) { stop(); }\n  }\n\
         int h() { return 1; }\n  void k() { a(); }\n  record R(int y) { int z() { return y; } }\n}\n",
    )]);
    let after = Snapshot::from_files([(
        "a/A.java",
        "package a;\nclass A {\n  void renamed(int x) {\n    run(x);\n    if (x > 0) { stop(); }\n  }\n\
         int h() { return 1; }\n  void k() { b(); }\n  record R(int y) { int z() { return y; } }\n}\n",
    )]);
    let (b, a) = Side::build_pair(&before, &after);
    assert_eq!(a.files[0].unparsed.len(), 2, "h and z stay unparsed once renamed is restored");
    let (fb, fa) = build_pair_in_full(&before, &after);
    assert_eq!(describe(&b), describe(&fb));
    assert_eq!(describe(&a), describe(&fa));
    let renamed = a.methods.iter().find(|m| m.name == "renamed").expect("renamed");
    let texts: Vec<&str> = renamed.stmts.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(texts, ["run ( x ) ;", "if ( x > 0 )", "stop ( ) ;"]);
    assert!(a.methods.iter().find(|m| m.name == "h").is_some_and(|m| m.stmts.is_empty()));
    assert_eq!(a.methods.iter().filter(|m| m.name == "z").count(), 1);
}

#[test]
#[ignore = "one-off check over the oracle"]
fn skipping_parse_builds_the_same_sides_on_the_oracle() {
    let shared = crate::dataset::shared_data_dir().expect("data");
    let commits = crate::detect::oracle::load(&shared.join("refactoring-oracle")).expect("oracle");
    let (mut unparsed, mut restored) = (0, 0);
    for c in &commits {
        let b = Snapshot::read(&c.dir.join("before")).expect("before");
        let a = Snapshot::read(&c.dir.join("after")).expect("after");
        let (fb, fa) = build_pair_in_full(&b, &a);
        let (sb, sa) = Side::build_pair(&b, &a);
        for (full, fast) in [(&fb, &sb), (&fa, &sa)] {
            let (x, y) = (describe(full), describe(fast));
            if let Some(i) = (0..x.len().max(y.len())).find(|&i| x.get(i) != y.get(i)) {
                panic!("{}/{}: {:?} != {:?}", c.project, c.sha, x.get(i), y.get(i));
            }
            unparsed += fast.files.iter().map(|f| f.unparsed.len()).sum::<usize>();
        }
        restored += sb.methods.iter().chain(&sa.methods).filter(|m| !m.stmts.is_empty()).count();
    }
    eprintln!("{} commits: {unparsed} bodies left unparsed, {restored} methods with statements", commits.len());
}

#[test]
fn types_in_refactoringminer_notation() {
    let snap = Snapshot::from_files([(
        "a/A.java",
        "package a; interface I { java.util.Map<String, List<? extends X>> m(@Nullable int[] a, String... rest); }\n\
         class A { private static <T> void g(final T t, int x[]) { if (t == null) { return; } h(t, x); } A(int y) {} }",
    )]);
    let side = Side::build(&snap);
    let descs: Vec<&str> = side.methods.iter().map(|m| m.desc.as_str()).collect();
    assert_eq!(
        descs,
        [
            "public m(a int[], rest String...) : java.util.Map<String,List<? extends X>>",
            "private g(t T, x int[]) : void",
            "package A(y int)"
        ]
    );
    let g = &side.methods[1];
    let texts: Vec<&str> = g.stmts.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(texts, ["if ( t == null )", "return ;", "h ( t , x ) ;"]);
    assert_eq!(g.calls[0].name, "h");
    assert_eq!(g.calls[0].stmt, Some(2));
    assert_eq!(side.classes[0].name, "a.I");
}
