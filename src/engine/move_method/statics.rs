//! The static imports a moved method relies on, as its destination sees them: carried over, or
//! written with their class where a member of the destination would capture the simple name.

use tree_sitter::Node;

use super::body::Rewriter;
use super::refuse;
use crate::engine::{Edit, Reason, Refusal};

impl Rewriter<'_, '_> {
    /// Records the source's static import that provides `name`; `false` if there is none.
    pub(super) fn static_import_for(&mut self, name: &str, n: Node<'_>) -> Result<bool, Refusal> {
        let syms = self.m.project.symbols_of(self.m.source);
        let single =
            syms.imports.iter().find(|i| i.is_static && !i.wildcard && i.path.rsplit('.').next() == Some(name));
        let found = match single {
            Some(i) => Some((i.path.clone(), false)),
            None => syms.imports.iter().find(|i| i.is_static && i.wildcard).map(|i| (i.path.clone(), true)),
        };
        let Some(found) = found else { return Ok(false) };
        // The destination's own member of that name would capture the unqualified use.
        let project = self.m.project;
        let dest_has = std::iter::once(self.dest).chain(project.supertypes(self.dest)).any(|t| {
            project.methods_of(t).into_iter().any(|m| project.method(m).name == name)
                || project.type_decl(t).fields.iter().any(|f| f.name == name)
        });
        if dest_has {
            // Written with its class instead (`Entities.escape(…)`), it still means the import's.
            let class = if found.1 { Some(found.0.as_str()) } else { found.0.rsplit_once('.').map(|(c, _)| c) };
            let at = if n.kind() == "method_invocation" { n.child_by_field_name("name") } else { Some(n) };
            let (Some(class), Some(at)) = (class, at) else {
                return Err(refuse(
                    Reason::NameCapture,
                    format!(
                        "line {} uses `{name}` from a static import, but `{}` has a member of that name that would take its place",
                        self.line(n),
                        project.qualified_name(self.dest)
                    ),
                ));
            };
            let qualifier = self.class_reference(class);
            self.edits.push(Edit::insert(at.start_byte(), format!("{qualifier}.")));
            return Ok(true);
        }
        self.static_imports.insert(found);
        Ok(true)
    }

    /// How the moved text names the class `path` in the destination: by its simple name when
    /// that names nothing else there (importing it if need be), else fully qualified.
    fn class_reference(&mut self, path: &str) -> String {
        let project = self.m.project;
        let simple = path.rsplit('.').next().unwrap_or(path);
        let syms = project.symbols_of(self.dest);
        let package = project.package_of(self.dest);
        let same_package = path.rsplit_once('.').is_some_and(|(p, _)| p == package);
        let imported = syms.imports.iter().any(|i| !i.is_static && !i.wildcard && i.path == path);
        // Another type of that name in the file, its package or its imports (a wildcard import
        // may hold one too) would take the simple name's place.
        let declared = syms.types.iter().any(|t| t.name == simple);
        let other = declared
            || syms
                .imports
                .iter()
                .any(|i| !i.is_static && i.path != path && (i.wildcard || i.path.rsplit('.').next() == Some(simple)))
            || !same_package && project.find_type(&format!("{package}.{simple}")).is_some();
        if (imported || same_package) && !declared {
            return simple.to_string();
        }
        if other {
            return path.to_string();
        }
        self.type_imports.insert(path.to_string());
        simple.to_string()
    }
}
