use super::*;
use crate::java::source::SourceFile;

fn syms(src: &str) -> FileSymbols {
    extract(&SourceFile::parse("T.java", src.to_string()))
}

#[test]
fn package_imports_and_types() {
    let s = syms(
        "package a.b;\nimport java.util.*;\nimport static org.junit.Assert.assertEquals;\nimport x.Y;\n\
         public class Outer<T> extends Base<T> implements Runnable, java.io.Serializable {\n\
           static class Inner { interface Deep {} }\n enum Color { RED, GREEN { void f() {} } }\n\
           record P(int x, String... ys) {}\n @interface Ann {}\n}\n",
    );
    assert_eq!(s.package.as_deref(), Some("a.b"));
    assert_eq!(s.imports.len(), 3);
    assert!(s.imports[0].wildcard && s.imports[0].path == "java.util");
    assert!(s.imports[1].is_static && s.imports[1].path == "org.junit.Assert.assertEquals");
    let names: Vec<&str> = s.types.iter().map(|t| t.display.as_str()).collect();
    assert_eq!(
        names,
        ["Outer", "Outer.Inner", "Outer.Inner.Deep", "Outer.Color", "Outer.Color$1", "Outer.P", "Outer.Ann"]
    );
    let outer = &s.types[0];
    assert_eq!(outer.header, "public class Outer<T> extends Base<T> implements Runnable, java.io.Serializable ");
    assert_eq!(outer.extends[0].raw, "Base");
    assert_eq!(outer.implements[1].raw, "java.io.Serializable");
    assert_eq!(outer.type_params, ["T"]);
    let color = &s.types[3];
    assert_eq!(color.fields.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["RED", "GREEN"]);
    assert_eq!(s.types[4].extends[0].raw, "Color");
    assert_eq!(s.methods[0].name, "f");
    assert_eq!(s.methods[0].owner, 4);
    let rec = &s.types[5];
    assert_eq!(rec.fields[1].name, "ys");
    assert_eq!(rec.fields[1].kind, FieldKind::RecordComponent);
    assert_eq!(s.types[6].kind, TypeKind::Annotation);
}

#[test]
fn methods_signatures_and_javadoc() {
    let s = syms(
        "class A<E> {\n  /** Adds. */\n  @Override @SuppressWarnings(\"x\")\n  public static <T extends Comparable<T>> \
         java.util.List<T> add(final int a, E[] b, String... rest) throws java.io.IOException, X { return null; }\n\
         A(int x) { this(); }\n  A() { super(); }\n  abstract void none();\n}\n",
    );
    let m = &s.methods[0];
    assert_eq!(m.name, "add");
    assert_eq!(m.modifiers, ["public", "static"]);
    assert_eq!(m.annotations, ["@Override", "@SuppressWarnings(\"x\")"]);
    assert_eq!(m.type_params, ["T"]);
    assert_eq!(m.return_type.as_ref().map(|r| r.raw.as_str()), Some("java.util.List"));
    assert_eq!(m.erased_params(), ["int", "E[]", "String[]"]);
    assert!(m.params[1].generic && !m.params[0].generic && m.params[2].varargs);
    assert_eq!(m.signature(), "add(int, E[], String...)");
    assert_eq!(m.throws.iter().map(|t| t.raw.as_str()).collect::<Vec<_>>(), ["java.io.IOException", "X"]);
    assert_eq!(m.javadoc.as_deref(), Some("/** Adds. */"));
    assert_eq!(m.span.start_line, 3);
    assert_eq!(m.body.map(|b| b.start_line), Some(4));
    assert!(m.accepts_arity(2) && m.accepts_arity(5) && !m.accepts_arity(1));
    assert_eq!(s.methods[1].kind, MethodKind::Constructor);
    assert_eq!(s.methods[1].calls[0].kind, CallKind::ThisConstructor);
    assert_eq!(s.methods[2].calls[0].kind, CallKind::SuperConstructor);
    assert!(s.methods[3].body.is_none());
}

#[test]
fn calls_locals_and_nested_bodies() {
    let s = syms(
        "class A {\n  java.util.List<String> items;\n  void run(Helper h) {\n    int n = 0, m[] = {};\n    \
         h.go(1, \"s\", n);\n    this.items.add(null);\n    helper();\n    super.toString();\n    \
         Runnable r = () -> inLambda(x -> x);\n    items.forEach(A::print);\n    new Thread(new Runnable() {\n      \
         public void run() { insideAnon(); }\n    });\n    class Local { void l() { deep(); } }\n    \
         get().chained();\n    for (String s : items) { use(s); }\n  }\n}\n",
    );
    let run = &s.methods[0];
    let calls: Vec<(&str, CallKind)> = run.calls.iter().map(|c| (c.name.as_str(), c.kind)).collect();
    assert_eq!(
        calls,
        [
            ("go", CallKind::Method),
            ("add", CallKind::Method),
            ("helper", CallKind::Method),
            ("toString", CallKind::Method),
            ("inLambda", CallKind::Method),
            ("forEach", CallKind::Method),
            ("print", CallKind::MethodRef),
            ("Thread", CallKind::New),
            ("Runnable", CallKind::New),
            ("chained", CallKind::Method),
            ("get", CallKind::Method),
            ("use", CallKind::Method),
        ]
    );
    assert_eq!(run.calls[0].receiver, Receiver::Name("h".into()));
    assert_eq!(
        run.calls[0].args,
        Some(vec![ArgHint::Type("int".into()), ArgHint::Type("String".into()), ArgHint::Var("n".into())])
    );
    assert_eq!(run.calls[1].receiver, Receiver::Name("this.items".into()));
    assert_eq!(run.calls[3].receiver, Receiver::Super);
    assert_eq!(run.calls[6].receiver, Receiver::Name("A".into()));
    assert_eq!(run.calls[9].receiver, Receiver::Expr);
    let locals: Vec<(&str, Option<String>)> =
        run.locals.iter().map(|l| (l.name.as_str(), l.ty.as_ref().map(|t| t.erased()))).collect();
    assert_eq!(
        locals,
        [
            ("n", Some("int".into())),
            ("m", Some("int[]".into())),
            ("r", Some("Runnable".into())),
            ("x", None),
            ("s", Some("String".into()))
        ]
    );
    let anon = s.types.iter().position(|t| t.display == "A$1").expect("anonymous class");
    let anon_run = s.methods.iter().find(|m| m.owner == anon as u32).expect("anon method");
    assert_eq!(anon_run.calls[0].name, "insideAnon");
    let local = s.types.iter().find(|t| t.display == "A.Local").expect("local class");
    assert!(local.local);
    let l = s.methods.iter().find(|m| m.name == "l").expect("l");
    assert_eq!(l.calls[0].name, "deep");
}

#[test]
fn interface_default_methods_and_constants() {
    let s = syms("interface I extends J, K<String> { int MAX = 3; default int twice(int x) { return x * helper(); } }");
    assert_eq!(s.types[0].extends.len(), 2);
    assert!(s.types[0].fields[0].is_static());
    assert_eq!(s.methods[0].name, "twice");
    assert_eq!(s.methods[0].calls[0].name, "helper");
}

#[test]
fn type_names_are_erased() {
    let s = syms("class A { @Nullable Map<String, List<Integer>>[] a; java.util.Map.Entry<K, V> e; }");
    let f = &s.types[0].fields;
    assert_eq!((f[0].ty.raw.as_str(), f[0].ty.dims, f[0].ty.erased()), ("Map", 1, "Map[]".to_string()));
    assert_eq!(f[1].ty.simple(), "Entry");
}

#[test]
fn deep_nesting_does_not_overflow() {
    let mut expr = String::from("\"a\"");
    for _ in 0..20_000 {
        expr.push_str(" + \"a\"");
    }
    let s = syms(&format!("class A {{ String s() {{ return {expr}; }} void t() {{ s(); }} }}"));
    assert_eq!(s.methods.len(), 2);
    assert_eq!(s.methods[1].calls.len(), 1);
}

#[test]
fn method_sources_name_factories_by_string_or_by_the_test_s_own_name() {
    let s = syms(
        r#"class T {
    @ParameterizedTest @MethodSource("a") void one(int x) {}
    @ParameterizedTest @MethodSource(value = { "b", "p.Q$R#c(int)" }) void two(int x) {}
    @ParameterizedTest @MethodSource void three(int x) {}
    @ParameterizedTest @MethodSource(FACTORY) void four(int x) {}
    @ParameterizedTest @org.junit.jupiter.params.provider.MethodSource() void five(int x) {}
}"#,
    );
    let of = |name: &str| s.methods.iter().find(|m| m.name == name).expect(name).method_sources();
    let local = |n: &str| (None, n.to_string());
    assert_eq!(of("one"), [local("a")]);
    assert_eq!(of("two"), [local("b"), (Some("p.Q.R".to_string()), "c".to_string())]);
    assert_eq!(of("three"), [local("three")]);
    assert!(of("four").is_empty(), "a constant is not followed");
    assert_eq!(of("five"), [local("five")]);
}
