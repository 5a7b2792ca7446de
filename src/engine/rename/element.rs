//! What `mantra rename FILE --old NAME` names: every declaration of that name in the file (a
//! type, a method, a field or enum constant, a parameter, a local variable), narrowed by kind,
//! enclosing class, enclosing method and line until one is left.

use serde::Serialize;

use super::resolve::Var;
use crate::java::project::{FileId, MethodId, Project, TypeId};

/// The kinds of identifier `mantra rename` renames.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Class,
    Method,
    Field,
    Parameter,
    Variable,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Class => "class",
            Kind::Method => "method",
            Kind::Field => "field",
            Kind::Parameter => "parameter",
            Kind::Variable => "variable",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One declared identifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Element {
    Type(TypeId),
    Method(MethodId),
    /// A field or enum constant: the declaring type and the index into its fields.
    Field(TypeId, usize),
    Var(Var),
}

impl Element {
    pub fn kind(self) -> Kind {
        match self {
            Element::Type(_) => Kind::Class,
            Element::Method(_) => Kind::Method,
            Element::Field(..) => Kind::Field,
            Element::Var(Var::Param(..)) => Kind::Parameter,
            Element::Var(Var::Local(..)) => Kind::Variable,
        }
    }

    pub fn file(self) -> FileId {
        match self {
            Element::Type(t) | Element::Field(t, _) => t.file(),
            Element::Method(m) | Element::Var(Var::Param(m, _) | Var::Local(m, _)) => m.file(),
        }
    }

    pub fn name(self, project: &Project) -> &str {
        match self {
            Element::Type(t) => &project.type_decl(t).name,
            Element::Method(m) => &project.method(m).name,
            Element::Field(t, i) => &project.type_decl(t).fields[i].name,
            Element::Var(v) => super::resolve::var_name(project, v),
        }
    }

    /// The line of the declaration.
    pub fn line(self, project: &Project) -> usize {
        match self {
            Element::Type(t) => project.type_decl(t).span.start_line,
            Element::Method(m) => project.method(m).name_span.start_line,
            Element::Field(t, i) => project.type_decl(t).fields[i].span.start_line,
            Element::Var(Var::Param(m, _)) => project.method(m).name_span.start_line,
            Element::Var(Var::Local(m, i)) => project.method(m).locals[i].scope.start_line,
        }
    }

    /// The class that declares it (for a type, its enclosing type, if any).
    pub fn class(self, project: &Project) -> Option<TypeId> {
        match self {
            Element::Type(t) => project.enclosing_type(t),
            Element::Field(t, _) => Some(t),
            Element::Method(m) | Element::Var(Var::Param(m, _) | Var::Local(m, _)) => Some(project.owner(m)),
        }
    }

    /// The method that declares it, for a parameter or a local.
    pub fn method(self) -> Option<MethodId> {
        match self {
            Element::Var(Var::Param(m, _) | Var::Local(m, _)) => Some(m),
            _ => None,
        }
    }

    /// `variable total in Invoice.sum(int) (line 12)`, `method notNull(Object) in Validate (line 14)`.
    pub fn describe(self, project: &Project) -> String {
        let name = match self {
            Element::Method(m) => project.method(m).signature(),
            other => other.name(project).to_string(),
        };
        let line = self.line(project);
        let place = match (self.method(), self.class(project)) {
            (Some(m), _) => format!(" in {}", project.method_label(m)),
            (None, Some(c)) => format!(" in {}", project.type_decl(c).display),
            (None, None) => String::new(),
        };
        format!("{} {name}{place} (line {line})", self.kind())
    }
}

/// What narrows the choice: all optional.
#[derive(Debug, Clone, Default)]
pub struct Narrowing {
    pub kind: Option<Kind>,
    /// `Outer.Inner` or a simple name: the declaring class.
    pub class: Option<String>,
    /// `name` or `name(Type, ...)`: the declaring method.
    pub method: Option<String>,
    pub line: Option<usize>,
}

/// Every declaration named `old` in `file`.
pub fn declarations(project: &Project, file: FileId, old: &str) -> Vec<Element> {
    let mut out = Vec::new();
    for t in project.types_in(file).unwrap_or_default() {
        let decl = project.type_decl(t);
        if decl.name == old {
            out.push(Element::Type(t));
        }
        for (i, f) in decl.fields.iter().enumerate() {
            if f.name == old {
                out.push(Element::Field(t, i));
            }
        }
    }
    for m in project.methods_in(file).unwrap_or_default() {
        let decl = project.method(m);
        if decl.name == old && !decl.is_constructor() {
            out.push(Element::Method(m));
        }
        for (i, p) in decl.params.iter().enumerate() {
            if p.name == old {
                out.push(Element::Var(Var::Param(m, i)));
            }
        }
        for (i, l) in decl.locals.iter().enumerate() {
            if l.name == old {
                out.push(Element::Var(Var::Local(m, i)));
            }
        }
    }
    out
}

/// The declarations of `declarations` that fit `narrowing`.
pub fn narrow(project: &Project, found: Vec<Element>, n: &Narrowing) -> Vec<Element> {
    found
        .into_iter()
        .filter(|e| n.kind.is_none_or(|k| k == e.kind()))
        .filter(|e| {
            n.class.as_deref().is_none_or(|c| {
                e.class(project).is_some_and(|t| {
                    let display = &project.type_decl(t).display;
                    display == c || display.ends_with(&format!(".{c}")) || project.qualified_name(t) == c
                })
            })
        })
        .filter(|e| {
            n.method.as_deref().is_none_or(|want| {
                let m = match *e {
                    Element::Method(m) => Some(m),
                    other => other.method(),
                };
                m.is_some_and(|m| {
                    let d = project.method(m);
                    let sig: String = d.signature().chars().filter(|c| !c.is_whitespace()).collect();
                    let want: String = want.chars().filter(|c| !c.is_whitespace()).collect();
                    d.name == want || sig == want
                })
            })
        })
        .filter(|e| {
            n.line.is_none_or(|line| match *e {
                Element::Var(Var::Param(m, _)) => {
                    let s = project.method(m).span;
                    s.start_line <= line && line <= s.end_line
                }
                Element::Field(t, i) => {
                    let s = project.type_decl(t).fields[i].span;
                    s.start_line <= line && line <= s.end_line
                }
                other => other.line(project) == line,
            })
        })
        .collect()
}
