//! Which tests can see a change, so they run first (a broken refactoring fails in seconds).
//!
//! A test class is affected by a changed class `C` when:
//! - it references `C` directly: imports it (single, static or the package's wildcard), names it
//!   fully qualified, or names it by its simple name from `C`'s own package; subclasses of `C`
//!   count as `C` (they inherit the changed code);
//! - or through one hop of callers: one of its methods calls a method (anywhere in the project,
//!   test helpers included) that calls a method of `C`.
//!
//! References are found textually (over-selecting on a comment is harmless: the full suite runs
//! afterwards with `affected-then-all`); calls come from the project's call graph. Only files
//! under test roots that declare a test (`@Test`, `@ParameterizedTest`, ...) are selected.

use std::collections::BTreeSet;
use std::path::Path;

use super::{BuildError, BuildTool, TestRun, TestSelection};
use crate::config::TestSelection as Policy;
use crate::java::{FileId, MethodId, Project, TypeId};

/// Annotations that make a method a test (JUnit 4 and 5).
const TEST_ANNOTATIONS: [&str; 5] = ["Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate"];

/// The qualified names of the test classes affected by the `changed` classes (qualified names), sorted.
pub fn affected_tests(project: &Project, changed: &[String]) -> Vec<String> {
    let mut targets: BTreeSet<String> = changed.iter().cloned().collect();
    let mut test_files: BTreeSet<FileId> = BTreeSet::new();
    let mut changed_methods: Vec<MethodId> = Vec::new();
    for name in changed {
        let Some(ty) = project.find_type(name) else {
            tracing::debug!("changed class {name} is not in the project; matching it by name only");
            continue;
        };
        for sub in project.subtypes(ty) {
            targets.insert(project.qualified_name(sub));
        }
        changed_methods.extend(methods_within(project, ty));
    }

    // Direct references.
    for target in &targets {
        let (package, simple) = target.rsplit_once('.').unwrap_or(("", target));
        for f in project.files_containing(simple) {
            if project.is_test_code(f) && references(project, f, target, package, simple) {
                test_files.insert(f);
            }
        }
    }

    // One hop through callers: tests calling a method (main code or a test helper such as a
    // fixture builder) that calls the changed code. Calls inside the changed classes are no hop.
    let mut hop: BTreeSet<MethodId> = BTreeSet::new();
    for m in &changed_methods {
        for c in project.callers(*m) {
            let f = c.method.file();
            if project.is_test_code(f) && declares_tests(project, f) {
                test_files.insert(f);
            } else if !changed_methods.contains(&c.method) {
                hop.insert(c.method);
            }
        }
    }
    for h in &hop {
        for c in project.callers(*h) {
            if project.is_test_code(c.method.file()) {
                test_files.insert(c.method.file());
            }
        }
    }

    let mut out: BTreeSet<String> = BTreeSet::new();
    for f in test_files {
        if !declares_tests(project, f) {
            continue;
        }
        for ty in project.types_in(f).unwrap_or_default() {
            let decl = project.type_decl(ty);
            if decl.parent.is_none() && !decl.local {
                out.insert(project.qualified_name(ty));
            }
        }
    }
    out.into_iter().collect()
}

/// The methods of a type and of the types nested in it.
fn methods_within(project: &Project, ty: TypeId) -> Vec<MethodId> {
    let types = project.types_in(ty.file()).unwrap_or_default();
    let inside = |t: TypeId| {
        let mut cur = Some(t.index());
        while let Some(i) = cur {
            if i == ty.index() {
                return true;
            }
            cur = types.get(i as usize).and_then(|&t| project.type_decl(t).parent);
        }
        false
    };
    types.iter().filter(|&&t| inside(t)).flat_map(|&t| project.methods_of(t)).collect()
}

/// Whether file `f` names the class `target` (qualified; `package` + `simple`).
fn references(project: &Project, f: FileId, target: &str, package: &str, simple: &str) -> bool {
    let Ok(file) = project.file(f) else { return false };
    let text = &file.source.text;
    if contains_word(text, target) {
        return true;
    }
    let own_package = file.symbols.package.as_deref().unwrap_or("");
    let visible = own_package == package
        || file.symbols.imports.iter().any(|i| !i.is_static && i.wildcard && i.path == package)
        // A nested type `a.B.Inner` is visible by simple name after `import a.B.*`-style imports too.
        || file.symbols.imports.iter().any(|i| i.wildcard && target.starts_with(&format!("{}.", i.path)));
    visible && contains_word(text, simple)
}

/// Whether a file declares at least one test method.
fn declares_tests(project: &Project, f: FileId) -> bool {
    let Ok(file) = project.file(f) else { return false };
    file.symbols.methods.iter().any(|m| {
        m.annotations.iter().any(|a| {
            let name = a.trim_start_matches('@').split('(').next().unwrap_or("").trim();
            let simple = name.rsplit('.').next().unwrap_or(name);
            TEST_ANNOTATIONS.contains(&simple)
        })
    })
}

/// `word` in `text` with no identifier character (or `.` before it) on either side.
fn contains_word(text: &str, word: &str) -> bool {
    crate::text::word_occurrences(text, word).any(|i| !text[..i].ends_with('.'))
}

/// Runs tests as `verify.tests` says: the affected ones, all, or the affected ones then (if they
/// pass) all. Stops at the first failing run. With `affected` and nothing affected, runs nothing.
pub fn run_policy(
    tool: &dyn BuildTool,
    dir: &Path,
    policy: Policy,
    affected: &[String],
) -> Result<Vec<TestRun>, BuildError> {
    let mut plan = Vec::new();
    if matches!(policy, Policy::Affected | Policy::AffectedThenAll) && !affected.is_empty() {
        plan.push(TestSelection::Only(affected.to_vec()));
    }
    if matches!(policy, Policy::All | Policy::AffectedThenAll) {
        plan.push(TestSelection::All);
    }
    let mut runs = Vec::new();
    for selection in plan {
        let run = tool.test(dir, &selection)?;
        let failed = !run.success();
        runs.push(run);
        if failed {
            break;
        }
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        assert!(contains_word("new InvoiceService(x)", "InvoiceService"));
        assert!(!contains_word("new InvoiceServiceTest()", "InvoiceService"));
        assert!(!contains_word("other.InvoiceService x", "InvoiceService"));
        assert!(contains_word("import a.b.InvoiceService;", "a.b.InvoiceService"));
    }
}
