//! What one Java file declares and calls: package, imports, types, fields, methods, locals, call sites.
//!
//! Extraction is one pass over the tree-sitter tree with an explicit cursor (no recursion: generated
//! files nest string concatenations thousands of levels deep). Nothing here looks at other files;
//! names stay as written and [`super::project`] resolves them against the project.
//!
//! Types, methods and their members are flat vectors indexed by `u32`, so ids into them are stable
//! and cheap; a [`TypeDecl`] lists its methods, a [`MethodDecl`] names its owner.
//!
//! Files: this one holds the types; `builder` is the one-pass walk, `declarations` what it
//! records of each declaration, `names` type names as written.

mod builder;
mod declarations;
mod names;
#[cfg(test)]
mod tests;

use serde::Serialize;

use super::source::Span;
pub use builder::extract;
pub use names::type_name;

/// Everything a file declares.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FileSymbols {
    /// `a.b.c` from `package a.b.c;`, if any.
    pub package: Option<String>,
    pub imports: Vec<Import>,
    /// Every type of the file in document order: top-level, nested, local and anonymous.
    pub types: Vec<TypeDecl>,
    /// Every method and constructor of the file in document order; [`MethodDecl::owner`] indexes `types`.
    pub methods: Vec<MethodDecl>,
}

/// One `import` declaration.
#[derive(Debug, Clone, Serialize)]
pub struct Import {
    /// The imported name without `.*`: `java.util.List`, `java.util`, `org.junit.Assert.assertEquals`.
    pub path: String,
    pub is_static: bool,
    /// `import a.b.*;`
    pub wildcard: bool,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TypeKind {
    Class,
    Interface,
    Enum,
    Record,
    Annotation,
    /// `new T() { ... }` or an enum constant with a body.
    Anonymous,
}

impl TypeKind {
    pub fn keyword(self) -> &'static str {
        match self {
            TypeKind::Class => "class",
            TypeKind::Interface => "interface",
            TypeKind::Enum => "enum",
            TypeKind::Record => "record",
            TypeKind::Annotation => "@interface",
            TypeKind::Anonymous => "anonymous class",
        }
    }

    /// Whether its members are public without a modifier (JLS 9.3, 9.4, 9.6.1): an interface's
    /// and an annotation type's, whose elements are abstract methods of an interface.
    pub fn members_public(self) -> bool {
        matches!(self, TypeKind::Interface | TypeKind::Annotation)
    }
}

/// One name a `@MethodSource` gives in its strings: `"data"`, `"a.b.C#data"` (a nested class
/// written `a.b.C$D` or `a.b.C.D`, kept with dots), `"data(int)"` (the parameters dropped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodSourceName {
    /// Where the method's name stands in the text scanned.
    pub range: std::ops::Range<usize>,
    pub class: Option<String>,
    pub method: String,
}

/// The names the string literals of every `@MethodSource(…)` in `text` give (an annotation, or a
/// declaration's annotations as written), up to the parenthesis closing each one's arguments.
pub fn method_source_names(text: &str) -> Vec<MethodSourceName> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("MethodSource") {
        let start = from + at + "MethodSource".len();
        from = start;
        let rest = &text[start..];
        let Some(args) = rest.trim_start().strip_prefix('(') else { continue };
        let mut i = start + (rest.len() - args.len());
        while let Some(c) = text[i..].chars().next() {
            if c == ')' {
                break;
            }
            i += c.len_utf8();
            if c != '"' {
                continue;
            }
            // The literal's end: the next quote not escaped.
            let lit_start = i;
            let mut escaped = false;
            let Some(len) = text[lit_start..].char_indices().find_map(|(k, d)| {
                let end = d == '"' && !escaped;
                escaped = d == '\\' && !escaped;
                end.then_some(k)
            }) else {
                return out;
            };
            let lit = &text[lit_start..lit_start + len];
            i = lit_start + len + 1;
            let (class, method_at) = match lit.split_once('#') {
                Some((c, _)) => (Some(c.replace('$', ".")), c.len() + 1),
                None => (None, 0),
            };
            let method = &lit[method_at..];
            let method = &method[..method.find('(').unwrap_or(method.len())];
            let trimmed = method.trim();
            if !trimmed.is_empty() {
                let off = lit_start + method_at + (method.len() - method.trim_start().len());
                out.push(MethodSourceName { range: off..off + trimmed.len(), class, method: trimmed.to_string() });
            }
        }
        from = i.max(start);
    }
    out
}

/// An annotation's simple name: `@org.junit.Test(timeout = 5)` → `Test`.
fn annotation_simple_name(annotation: &str) -> &str {
    let name = annotation.trim_start_matches('@').split('(').next().unwrap_or("").trim();
    name.rsplit('.').next().unwrap_or(name)
}

/// A type as written in a declaration: `Map<String, List<Foo>>[]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TypeName {
    /// The source text, whitespace collapsed.
    pub text: String,
    /// The name without type arguments, annotations or array dimensions: `Map`, `java.util.Map`, `int`.
    pub raw: String,
    /// Array dimensions; a varargs parameter counts one.
    pub dims: u8,
}

impl TypeName {
    /// The last segment of [`Self::raw`]: `java.util.Map` → `Map`.
    pub fn simple(&self) -> &str {
        self.raw.rsplit('.').next().unwrap_or(&self.raw)
    }

    /// The erased simple name with dimensions: `List<String>[]` → `List[]`. Used to compare signatures.
    pub fn erased(&self) -> String {
        let mut s = self.simple().to_string();
        for _ in 0..self.dims {
            s.push_str("[]");
        }
        s
    }
}

/// One class, interface, enum, record, annotation type or anonymous class.
#[derive(Debug, Clone, Serialize)]
pub struct TypeDecl {
    /// Simple name; empty for anonymous classes.
    pub name: String,
    /// `Outer.Inner`; anonymous classes are numbered per enclosing type: `Outer$1`.
    pub display: String,
    pub kind: TypeKind,
    /// Declared inside a method body (local and anonymous classes).
    pub local: bool,
    /// The enclosing type, if any.
    pub parent: Option<u32>,
    /// The enclosing method for local and anonymous classes declared in one.
    pub enclosing_method: Option<u32>,
    pub modifiers: Vec<String>,
    pub annotations: Vec<String>,
    /// Names of the type parameters: `<K, V extends X>` → `K`, `V`.
    pub type_params: Vec<String>,
    /// `extends` of a class (one) or interface (several); for an anonymous class the instantiated
    /// type; for an enum constant body the enum.
    pub extends: Vec<TypeName>,
    pub implements: Vec<TypeName>,
    /// The declaration from its modifiers to just before `{`: `public class Tokens extends Base `.
    pub header: String,
    pub span: Span,
    pub body: Option<Span>,
    pub fields: Vec<FieldDecl>,
    /// Indices into [`FileSymbols::methods`].
    pub methods: Vec<u32>,
    /// Member, local and anonymous types declared directly inside this one (indices into `types`).
    pub nested: Vec<u32>,
    pub javadoc: Option<String>,
}

impl TypeDecl {
    pub fn is_anonymous(&self) -> bool {
        self.kind == TypeKind::Anonymous
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldKind {
    Field,
    EnumConstant,
    RecordComponent,
}

/// A field, enum constant or record component.
#[derive(Debug, Clone, Serialize)]
pub struct FieldDecl {
    pub name: String,
    /// The declared type; an enum constant's type is its enum.
    pub ty: TypeName,
    pub kind: FieldKind,
    pub modifiers: Vec<String>,
    /// The whole declaration (all declarators of `int a, b;` share it).
    pub span: Span,
}

impl FieldDecl {
    pub fn is_static(&self) -> bool {
        self.kind == FieldKind::EnumConstant || self.modifiers.iter().any(|m| m == "static")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MethodKind {
    Method,
    Constructor,
    /// A record's `Name { ... }` constructor without a parameter list.
    CompactConstructor,
}

/// A method or constructor parameter.
#[derive(Debug, Clone, Serialize)]
pub struct Param {
    pub name: String,
    pub ty: TypeName,
    pub varargs: bool,
    /// The type is a type variable of the method or an enclosing type (erases to its bound).
    pub generic: bool,
}

/// A local variable (also catch, for-each, resource, pattern and lambda parameters).
#[derive(Debug, Clone, Serialize)]
pub struct LocalVar {
    pub name: String,
    /// `None` for `var` and untyped lambda parameters.
    pub ty: Option<TypeName>,
    /// Where the name is visible: from its declaration to the end of the enclosing block.
    pub scope: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CallKind {
    /// `recv.name(args)` or `name(args)`.
    Method,
    /// `Type::name`, `expr::name`, `Type::new`.
    MethodRef,
    /// `new T(args)`; `name` is `T` as written without type arguments.
    New,
    /// `this(args)` inside a constructor.
    ThisConstructor,
    /// `super(args)` inside a constructor.
    SuperConstructor,
}

/// What a call is made on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "name")]
pub enum Receiver {
    /// No receiver: `name(...)`.
    Implicit,
    This,
    Super,
    /// An identifier or a dotted name: `list`, `this.items`, `Outer.Inner`, `java.util.Objects`.
    Name(String),
    /// Any other expression (a call result, an array element, ...); its text is in `receiver_span`.
    Expr,
}

/// What the model knows of an argument's static type without resolving anything.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum ArgHint {
    Unknown,
    /// A literal, `new T()`, or a cast: the erased simple type name.
    Type(String),
    /// A bare identifier whose type a local, parameter or field declares.
    Var(String),
    Null,
}

/// One call inside a method body (lambdas included; anonymous and local classes have their own methods).
#[derive(Debug, Clone, Serialize)]
pub struct CallSite {
    pub kind: CallKind,
    /// The method name; for `new T(...)` and `T::new` the type name as written.
    pub name: String,
    pub receiver: Receiver,
    pub receiver_span: Option<Span>,
    /// One hint per argument; `None` for method references, whose arity is not written.
    pub args: Option<Vec<ArgHint>>,
    /// The whole call expression.
    pub span: Span,
}

impl CallSite {
    pub fn arg_count(&self) -> Option<usize> {
        self.args.as_ref().map(Vec::len)
    }
}

/// One method or constructor.
#[derive(Debug, Clone, Serialize)]
pub struct MethodDecl {
    /// The method name; a constructor's is its class name.
    pub name: String,
    pub kind: MethodKind,
    /// Index of the declaring type in [`FileSymbols::types`].
    pub owner: u32,
    pub params: Vec<Param>,
    /// `None` for constructors.
    pub return_type: Option<TypeName>,
    pub modifiers: Vec<String>,
    /// `@Override`, `@Test(timeout = 5)`, as written.
    pub annotations: Vec<String>,
    pub type_params: Vec<String>,
    pub throws: Vec<TypeName>,
    /// The declaration from modifiers (annotations included) to the closing brace or `;`.
    pub span: Span,
    pub name_span: Span,
    /// The `{ ... }` block; `None` for abstract and interface methods.
    pub body: Option<Span>,
    /// The `/** ... */` comment right before the declaration.
    pub javadoc: Option<String>,
    pub javadoc_span: Option<Span>,
    pub locals: Vec<LocalVar>,
    pub calls: Vec<CallSite>,
}

impl MethodDecl {
    /// Whether the method says it overrides (`@Override`).
    pub fn annotated_override(&self) -> bool {
        self.annotations.iter().any(|a| a == "@Override")
    }

    pub fn is_constructor(&self) -> bool {
        self.kind != MethodKind::Method
    }

    pub fn is_static(&self) -> bool {
        self.modifiers.iter().any(|m| m == "static")
    }

    /// Whether a test framework calls this method on an instance of its class: a test (JUnit 4
    /// and 5, TestNG's `@Test`) or a per-test fixture method.
    pub fn is_test(&self) -> bool {
        const FRAMEWORK: [&str; 9] = [
            "Test",
            "ParameterizedTest",
            "RepeatedTest",
            "TestFactory",
            "TestTemplate",
            "Before",
            "After",
            "BeforeEach",
            "AfterEach",
        ];
        !self.is_static() && self.annotations.iter().any(|a| FRAMEWORK.contains(&annotation_simple_name(a)))
    }

    /// The factory methods JUnit 5's `@MethodSource` on this method names, as (class, method):
    /// `@MethodSource("data")` and `@MethodSource({"a", "b"})` name methods of the test's class
    /// (class `None`), `@MethodSource("a.b.C#data")` one of `a.b.C` ([`method_source_names`]),
    /// and a bare `@MethodSource` the method of the test's own name.
    pub fn method_sources(&self) -> Vec<(Option<String>, String)> {
        let mut out = Vec::new();
        for a in self.annotations.iter().filter(|a| annotation_simple_name(a) == "MethodSource") {
            let names = method_source_names(a);
            // Bare (`@MethodSource`, `@MethodSource()`): the factory of the test's own name. Names
            // given by constants are not followed.
            let args = a.split_once('(').map_or("", |(_, rest)| rest.trim_end().trim_end_matches(')').trim());
            if names.is_empty() && args.is_empty() {
                out.push((None, self.name.clone()));
            }
            out.extend(names.into_iter().map(|n| (n.class, n.method)));
        }
        out
    }

    /// The lifecycle annotation (`@Before`, `@AfterClass`, TestNG's `@BeforeMethod`, ...) that
    /// makes a test framework run this method around the tests of its class, if it has one.
    pub fn fixture_annotation(&self) -> Option<&str> {
        const LIFECYCLE: [&str; 16] = [
            "Before",
            "After",
            "BeforeEach",
            "AfterEach",
            "BeforeClass",
            "AfterClass",
            "BeforeAll",
            "AfterAll",
            "BeforeMethod",
            "AfterMethod",
            "BeforeTest",
            "AfterTest",
            "BeforeSuite",
            "AfterSuite",
            "BeforeGroups",
            "AfterGroups",
        ];
        self.annotations.iter().find_map(|a| LIFECYCLE.contains(&annotation_simple_name(a)).then_some(a.as_str()))
    }

    /// Whether a call with `args` arguments can target this method (varargs take any count ≥ n-1).
    pub fn accepts_arity(&self, args: usize) -> bool {
        match self.params.last() {
            Some(p) if p.varargs => args + 1 >= self.params.len(),
            _ => args == self.params.len(),
        }
    }

    /// `name(int, List<String>, Object...)`, types as written.
    pub fn signature(&self) -> String {
        let params: Vec<String> = self.params.iter().map(param_text).collect();
        format!("{}({})", self.name, params.join(", "))
    }

    /// `public static <T> List<T> name(T a, int... b) throws IOException`: the declaration without body.
    pub fn declaration(&self) -> String {
        let mut out = String::new();
        for m in &self.modifiers {
            out.push_str(m);
            out.push(' ');
        }
        if !self.type_params.is_empty() {
            out.push('<');
            out.push_str(&self.type_params.join(", "));
            out.push_str("> ");
        }
        if let Some(r) = &self.return_type {
            out.push_str(&r.text);
            out.push(' ');
        }
        out.push_str(&self.name);
        out.push('(');
        let params: Vec<String> = self.params.iter().map(|p| format!("{} {}", param_text(p), p.name)).collect();
        out.push_str(&params.join(", "));
        out.push(')');
        if !self.throws.is_empty() {
            out.push_str(" throws ");
            out.push_str(&self.throws.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join(", "));
        }
        out
    }

    /// The erased parameter types: `(List, int[])`; two methods with equal lists have equal erasures.
    pub fn erased_params(&self) -> Vec<String> {
        self.params.iter().map(|p| p.ty.erased()).collect()
    }
}

fn param_text(p: &Param) -> String {
    if p.varargs { format!("{}...", p.ty.text) } else { p.ty.text.clone() }
}
