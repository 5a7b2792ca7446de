//! The type hierarchy inside the project: supertypes, subtypes, and which methods override which.
//!
//! Supertypes are resolved once per file and cached. Subtypes are found by searching only the files
//! whose text mentions the type's name, so asking for one type's subtypes does not parse the repo.
//! Types outside the project (`Object`, `ArrayList`) appear by name, unresolved.

use std::collections::{HashSet, VecDeque};

use rayon::prelude::*;
use serde::Serialize;

use super::project::{MethodId, Project, TypeId};
use super::symbols::{MethodDecl, TypeKind, TypeName};

/// A direct supertype as written, with the project type it names if the project declares it.
#[derive(Debug, Clone, Serialize)]
pub struct SuperType {
    pub name: TypeName,
    pub resolved: Option<TypeId>,
    /// `true` for `implements` (and an interface's `extends`), `false` for a class's `extends`.
    pub interface: bool,
}

impl Project {
    /// The resolved `extends` then `implements` entries of a type (`None` where outside the project).
    pub(super) fn direct_supertype_ids(&self, ty: TypeId) -> Vec<Option<TypeId>> {
        let slot_supers = self.supers_of_file(ty);
        slot_supers.get(ty.index() as usize).cloned().unwrap_or_default()
    }

    fn supers_of_file(&self, ty: TypeId) -> &Vec<Vec<Option<TypeId>>> {
        let file = ty.file();
        self.supers_slot(file).get_or_init(|| {
            let syms = self.symbols_of(ty);
            syms.types
                .iter()
                .map(|t| {
                    // `extends` clauses are read in the enclosing scope; inherited member types are
                    // not consulted (inherit = 0), which also keeps this from recursing into itself.
                    t.extends
                        .iter()
                        .chain(&t.implements)
                        .map(|n| self.resolve_type_in(file.index() as u32, t.parent, &n.raw, 0))
                        .collect()
                })
                .collect()
        })
    }

    /// The direct supertypes of a type, as written and resolved.
    pub fn direct_supertypes(&self, ty: TypeId) -> Vec<SuperType> {
        let decl = self.type_decl(ty);
        let ids = self.direct_supertype_ids(ty);
        let class_extends = matches!(decl.kind, TypeKind::Class | TypeKind::Anonymous);
        decl.extends
            .iter()
            .map(|n| (n, !class_extends))
            .chain(decl.implements.iter().map(|n| (n, true)))
            .zip(ids)
            .map(|((name, interface), resolved)| SuperType { name: name.clone(), resolved, interface })
            .collect()
    }

    /// The superclass of a class (or the instantiated type of an anonymous class), if in the project.
    pub fn superclass(&self, ty: TypeId) -> Option<TypeId> {
        let decl = self.type_decl(ty);
        if !matches!(decl.kind, TypeKind::Class | TypeKind::Anonymous) || decl.extends.is_empty() {
            return None;
        }
        self.direct_supertype_ids(ty).first().copied().flatten()
    }

    /// Every project supertype, nearest first (breadth-first), each once; cycles in broken code end.
    pub fn supertypes(&self, ty: TypeId) -> Vec<TypeId> {
        let mut seen = HashSet::from([ty]);
        let mut out = Vec::new();
        let mut queue = VecDeque::from([ty]);
        while let Some(t) = queue.pop_front() {
            for s in self.direct_supertype_ids(t).into_iter().flatten() {
                if seen.insert(s) {
                    out.push(s);
                    queue.push_back(s);
                }
            }
        }
        out
    }

    /// Whether a member declared in `owner` (`ty` or one of its supertypes) with these modifiers is
    /// a member of `ty`, so that its simple name reaches it there (JLS 8.2): a supertype's private
    /// members are not inherited, nor its package-private ones into another package; an
    /// interface's and an annotation type's members are public.
    pub fn inherits(&self, ty: TypeId, owner: TypeId, modifiers: &[String]) -> bool {
        if owner == ty || self.type_decl(owner).kind.members_public() {
            return true;
        }
        let has = |m: &str| modifiers.iter().any(|x| x == m);
        !has("private") && (has("public") || has("protected") || self.package_of(owner) == self.package_of(ty))
    }

    /// Names of supertypes outside the project met anywhere up the hierarchy (`Object` is implied).
    pub fn external_supertypes(&self, ty: TypeId) -> Vec<String> {
        self.external_supertype_names(ty).into_iter().map(|n| n.text).collect()
    }

    /// [`Self::external_supertypes`] as written, each once: `List<String>`, `junit.framework.TestCase`.
    pub fn external_supertype_names(&self, ty: TypeId) -> Vec<TypeName> {
        let mut out: Vec<TypeName> = Vec::new();
        for t in std::iter::once(ty).chain(self.supertypes(ty)) {
            for s in self.direct_supertypes(t) {
                if s.resolved.is_none() && !out.iter().any(|o| o.text == s.name.text) {
                    out.push(s.name);
                }
            }
        }
        out
    }

    /// Whether a test framework runs `method` as a test or fixture: an annotated one
    /// ([`MethodDecl::is_test`](crate::java::symbols::MethodDecl::is_test)), or a JUnit 3 test: a
    /// public, non-static, no-argument `void testX()` of a class that extends `TestCase`.
    pub fn is_test_method(&self, method: MethodId) -> bool {
        let d = self.method(method);
        if d.is_test() {
            return true;
        }
        let junit3_shape = d.name.starts_with("test")
            && d.params.is_empty()
            && !d.is_static()
            && d.modifiers.iter().any(|m| m == "public")
            && d.return_type.as_ref().is_some_and(|r| r.text == "void");
        junit3_shape && self.extends_test_case(self.owner(method))
    }

    /// The tests whose JUnit 5 `@MethodSource` names `method` as their arguments' factory: JUnit
    /// finds it by name at run time, so no call in the code reaches it. A name without a class
    /// is looked up in the test's class and its superclasses.
    pub fn method_source_users(&self, method: MethodId) -> Vec<MethodId> {
        let decl = self.method(method);
        let owner = self.owner(method);
        let qualified = self.qualified_name(owner);
        let mut out = Vec::new();
        for f in self.files_containing_all(&["MethodSource", &decl.name]) {
            for test in self.methods_in(f).unwrap_or_default() {
                let names = self.method(test).method_sources();
                let named = names.iter().any(|(class, name)| {
                    name == &decl.name
                        && match class {
                            Some(c) => c == &qualified || c == &self.type_decl(owner).name,
                            None => {
                                let t = self.owner(test);
                                t == owner || self.supertypes(t).contains(&owner)
                            }
                        }
                });
                if named && test != method {
                    out.push(test);
                }
            }
        }
        out
    }

    /// Whether `ty` is a JUnit 3 test case: `TestCase` (outside the project) is among its supertypes.
    pub fn extends_test_case(&self, ty: TypeId) -> bool {
        self.external_supertype_names(ty).iter().any(|s| s.simple() == "TestCase")
    }

    /// The types directly extending or implementing `ty`, anonymous classes included.
    pub fn direct_subtypes(&self, ty: TypeId) -> Vec<TypeId> {
        // Remembered: the files never change under a project, and the search reads every file
        // that spells the name.
        if let Some(known) = self.subtypes.lock().ok().and_then(|m| m.get(&ty).cloned()) {
            return known.to_vec();
        }
        let name = &self.type_decl(ty).name;
        if name.is_empty() {
            return Vec::new();
        }
        let mut out: Vec<TypeId> = self
            .files_containing(name)
            .into_par_iter()
            .flat_map_iter(|f| {
                let types = self.types_in(f).unwrap_or_default();
                types.into_iter().filter(|&t| self.direct_supertype_ids(t).contains(&Some(ty))).collect::<Vec<_>>()
            })
            .collect();
        out.sort();
        if let Ok(mut m) = self.subtypes.lock() {
            m.insert(ty, out.as_slice().into());
        }
        out
    }

    /// Every project subtype, nearest first, each once.
    pub fn subtypes(&self, ty: TypeId) -> Vec<TypeId> {
        let mut seen = HashSet::from([ty]);
        let mut out = Vec::new();
        let mut queue = VecDeque::from([ty]);
        while let Some(t) = queue.pop_front() {
            for s in self.direct_subtypes(t) {
                if seen.insert(s) {
                    out.push(s);
                    queue.push_back(s);
                }
            }
        }
        out
    }

    /// The methods of supertypes that `method` overrides (or implements), nearest first.
    pub fn overrides(&self, method: MethodId) -> Vec<MethodId> {
        let m = self.method(method);
        if !can_override(m) {
            return Vec::new();
        }
        self.supertypes(self.owner(method))
            .into_iter()
            .flat_map(|s| self.methods_of(s))
            .filter(|&o| same_signature(m, self.method(o)) && can_override(self.method(o)))
            .collect()
    }

    /// The methods of subtypes that override `method`, nearest first.
    pub fn overridden_by(&self, method: MethodId) -> Vec<MethodId> {
        let m = self.method(method);
        if !can_override(m) {
            return Vec::new();
        }
        self.subtypes(self.owner(method))
            .into_iter()
            .flat_map(|s| self.methods_of(s))
            .filter(|&o| same_signature(m, self.method(o)) && can_override(self.method(o)))
            .collect()
    }
}

fn can_override(m: &MethodDecl) -> bool {
    !m.is_constructor() && !m.is_static() && !m.modifiers.iter().any(|x| x == "private")
}

/// Same name, same parameter count, same erased parameter types; a type variable matches anything
/// (its erasure is its bound, which the model does not track).
pub fn same_signature(a: &MethodDecl, b: &MethodDecl) -> bool {
    a.name == b.name
        && a.params.len() == b.params.len()
        && a.params.iter().zip(&b.params).all(|(x, y)| x.generic || y.generic || x.ty.erased() == y.ty.erased())
}

#[cfg(test)]
mod tests {
    use crate::java::project::tests::{project, type_named};

    #[test]
    fn supertypes_subtypes_and_overrides() {
        let (_d, p) = project(&[
            (
                "a/Shape.java",
                "package a; public interface Shape { double area(); default String name() { return \"s\"; } }",
            ),
            (
                "a/Base.java",
                "package a; public abstract class Base<T> implements Shape { public abstract void set(T t); }",
            ),
            (
                "b/Circle.java",
                "package b; import a.*; public class Circle extends Base<String> implements java.io.Serializable {\n\
                 public double area() { return 1; } public void set(String s) {} public String name() { return \"c\"; }\n\
                 Shape anon() { return new Shape() { public double area() { return 0; } }; } }",
            ),
            ("b/Unit.java", "package b; class Unit extends Circle { @Override public double area() { return 2; } }"),
        ]);
        let shape = type_named(&p, "Shape");
        let base = type_named(&p, "Base");
        let circle = type_named(&p, "Circle");
        let unit = type_named(&p, "Unit");
        assert_eq!(p.supertypes(unit), [circle, base, shape]);
        assert_eq!(p.superclass(circle), Some(base));
        assert_eq!(p.external_supertypes(circle), ["java.io.Serializable"]);
        let subs: Vec<String> = p.subtypes(shape).into_iter().map(|t| p.qualified_name(t)).collect();
        assert_eq!(subs, ["a.Base", "b.Circle$1", "b.Circle", "b.Unit"]);
        let area = p.methods_of(shape)[0];
        let overriders: Vec<String> = p.overridden_by(area).into_iter().map(|m| p.qualified_name(p.owner(m))).collect();
        assert_eq!(overriders, ["b.Circle$1", "b.Circle", "b.Unit"]);
        let unit_area = p.methods_of(unit)[0];
        assert_eq!(p.overrides(unit_area).len(), 2);
        // set(String) overrides set(T): a type variable matches any type.
        let set = p.methods_of(circle)[1];
        assert_eq!(p.overrides(set), [p.methods_of(base)[0]]);
    }

    #[test]
    fn inherits_follows_access_across_packages() {
        let (_d, p) = project(&[
            ("a/Base.java", "package a; public class Base { int pkg; protected int prot; private int own; }"),
            ("a/Marker.java", "package a; public @interface Marker { String value() default \"\"; }"),
            ("a/Named.java", "package a; public interface Named { String NAME = \"n\"; }"),
            ("b/Sub.java", "package b; public class Sub extends a.Base implements a.Named, a.Marker {}"),
            ("a/Near.java", "package a; class Near extends Base {}"),
        ]);
        let (base, sub, near) = (type_named(&p, "Base"), type_named(&p, "Sub"), type_named(&p, "Near"));
        let (marker, named) = (type_named(&p, "Marker"), type_named(&p, "Named"));
        let none: [String; 0] = [];
        assert!(!p.inherits(sub, base, &none), "package-private does not cross packages");
        assert!(p.inherits(near, base, &none), "package-private stays in its package");
        assert!(p.inherits(sub, base, &["protected".to_string()]));
        assert!(!p.inherits(near, base, &["private".to_string()]));
        // An interface's and an annotation type's members are public without saying so.
        assert!(p.inherits(sub, named, &none));
        assert!(p.inherits(sub, marker, &none));
    }
}
