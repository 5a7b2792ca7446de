//! The methods whose names say least about their code: what `suggest` shows a configured model
//! for renaming, since only a reader of the code can say whether a name fits it. A method's name
//! is doubtful when, once the words any method may use (`get`, `process`, `handle`, `data`,
//! `result`, ...) and their abbreviations (`proc`) are left out, nothing is left (`doWork`), or
//! none of the words after its verb occurs among the words of its code (its identifiers,
//! parameters, return type and text: `shipOrders` that never names an order). A verb alone
//! (`render`) and a test named by what it shows (`emptyCartIsRefused`) are left to the reader.
//! The longer the method, the more its name matters: the longest come first. Constructors,
//! test fixtures (`setUp`), overrides and members of an override family (whose name is their
//! supertype's), `main`, and methods of fewer than three lines are left out. Without a model
//! nothing here is suggested.

use crate::java::{FileId, MethodId, Project};

/// A method whose name may not say what its code does, with why.
#[derive(Debug, Clone)]
pub struct Naming {
    pub method: MethodId,
    /// As `mantra refactor` takes it.
    pub target: String,
    pub reason: String,
}

/// Words that say what kind of method it is, or nothing, rather than what it is about.
const GENERIC: [&str; 59] = [
    "a",
    "action",
    "an",
    "and",
    "apply",
    "at",
    "build",
    "by",
    "calc",
    "calculate",
    "check",
    "compute",
    "create",
    "data",
    "do",
    "does",
    "exec",
    "execute",
    "for",
    "from",
    "func",
    "function",
    "get",
    "go",
    "handle",
    "helper",
    "impl",
    "in",
    "info",
    "init",
    "internal",
    "is",
    "it",
    "item",
    "logic",
    "make",
    "method",
    "my",
    "new",
    "obj",
    "object",
    "of",
    "on",
    "or",
    "perform",
    "process",
    "result",
    "run",
    "set",
    "something",
    "stuff",
    "temp",
    "test",
    "the",
    "thing",
    "tmp",
    "to",
    "value",
    "work",
];

/// How many methods `suggest` offers a model for naming.
pub const OFFERED: usize = 8;

/// The shortest body, in lines between its braces, whose name is worth a question.
const MIN_LINES: usize = 3;

/// Up to `limit` methods of `files` whose names say least about their code, longest first.
pub fn candidates(project: &Project, files: &[FileId], limit: usize) -> Vec<Naming> {
    let mut found: Vec<(usize, Naming)> = Vec::new();
    for &f in files {
        for m in project.methods_in(f).unwrap_or_default() {
            if let Some((lines, reason)) = doubtful(project, m) {
                found.push((lines, Naming { method: m, target: super::target(project, m), reason }));
            }
        }
    }
    found.sort_by(|(a, x), (b, y)| b.cmp(a).then_with(|| x.target.cmp(&y.target)));
    found.into_iter().take(limit).map(|(_, n)| n).collect()
}

/// The body's length in lines and why the name is doubtful, when it is.
fn doubtful(project: &Project, m: MethodId) -> Option<(usize, String)> {
    let decl = project.method(m);
    let body = decl.body?;
    let lines = body.end_line.saturating_sub(body.start_line + 1);
    // A fixture's name is its framework's (`setUp`), as an override's is its supertype's.
    if decl.is_constructor()
        || matches!(decl.name.as_str(), "main" | "setUp" | "tearDown")
        || decl.fixture_annotation().is_some()
        || lines < MIN_LINES
        || decl.annotated_override()
        || !crate::engine::rename::renamed_with(project, m).is_empty()
    {
        return None;
    }
    let words: Vec<String> = crate::text::identifier_words(&decl.name).iter().map(|w| w.to_lowercase()).collect();
    let telling: Vec<&String> = words.iter().filter(|w| w.len() > 1 && !generic(w) && !is_digits(w)).collect();
    let name = &decl.name;
    if telling.is_empty() {
        return Some((
            lines,
            format!("`{name}` is only words any method may use; it does not say what its {lines} lines do"),
        ));
    }
    // A test named by what it shows (`overpaymentIsRefused`) describes a behaviour, whose words
    // its code need not hold.
    let test = decl.is_test() || project.is_test_method(m) || words[0] == "test";
    if telling.len() >= 2 && test {
        return None;
    }
    // The words after the verb name what the method works on (`sumPrices`); a verb alone
    // (`render`) says what it does, which only a reader can judge.
    let objects: Vec<&String> = telling.iter().copied().filter(|w| words.len() < 2 || *w != &words[0]).collect();
    if objects.is_empty() || words.len() < 2 {
        return None;
    }
    let text = &project.method_source(m).text;
    let mut code = words_of(&text[body.start_byte..body.end_byte]);
    for p in &decl.params {
        code.extend(words_of(&p.name));
        code.extend(words_of(&p.ty.text));
    }
    if let Some(ty) = &decl.return_type {
        code.extend(words_of(&ty.text));
    }
    if objects.iter().any(|w| code.iter().any(|c| same_word(w, c))) {
        return None;
    }
    let listed: Vec<&str> = objects.iter().map(|w| w.as_str()).collect();
    Some((
        lines,
        format!("no word of `{name}` after its verb ({}) occurs in its {lines} lines of code", listed.join(", ")),
    ))
}

/// Whether a word says nothing of what a method is about, or abbreviates such a word (`proc`).
fn generic(w: &str) -> bool {
    GENERIC.contains(&w) || (w.len() >= 3 && GENERIC.iter().any(|g| g.len() > w.len() && g.starts_with(w)))
}

/// The lower-cased words of every identifier-like token of `text`.
fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|t| !t.is_empty())
        .flat_map(crate::text::identifier_words)
        .map(|w| w.to_lowercase())
        .collect()
}

/// One word, up to a plural (`order`, `orders`) or an abbreviation of four letters or more
/// (`config`, `configuration`).
fn same_word(a: &str, b: &str) -> bool {
    let stem = |w: &str| w.strip_suffix('s').filter(|s| s.len() >= 3).unwrap_or(w).to_string();
    let (a, b) = (stem(a), stem(b));
    a == b || (a.len().min(b.len()) >= 4 && (a.starts_with(&b) || b.starts_with(&a)))
}

fn is_digits(w: &str) -> bool {
    w.chars().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(src: &str) -> (tempfile::TempDir, Project) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("src/main/java/a");
        std::fs::create_dir_all(&path).unwrap();
        std::fs::write(path.join("Shop.java"), src).unwrap();
        let p = Project::open(dir.path()).unwrap();
        (dir, p)
    }

    /// A name of generic words only (or their abbreviations), and a name none of whose words
    /// after the verb the code holds, are doubtful; a name the code bears out, a verb alone, a
    /// test named by what it shows, a short method, an override and a constructor are not.
    #[test]
    fn names_that_say_nothing_of_their_code_are_the_candidates() {
        let src = r#"package a;
import java.util.List;
public class Shop {
    private int total;
    public Shop() {
        total = 0;
        total += 1;
        total += 2;
    }
    public int doWork(List<Integer> prices) {
        int sum = 0;
        for (int p : prices) sum += p;
        return sum;
    }
    public int sumPrices(List<Integer> prices) {
        int sum = 0;
        for (int p : prices) sum += p;
        return sum;
    }
    public int shipOrders(List<Integer> prices) {
        int sum = 0;
        for (int p : prices) sum += p;
        return sum;
    }
    public int render(List<Integer> prices) {
        int sum = 0;
        for (int p : prices) sum += p;
        return sum;
    }
    public int proc(List<Integer> prices) {
        int sum = 0;
        for (int p : prices) sum += p;
        return sum;
    }
    @org.junit.Test
    public void emptyCartIsRefused() {
        int sum = 0;
        sum += 1;
        sum += 2;
    }
    public int totals(List<Integer> prices) {
        int s = 0;
        for (int p : prices) s += p;
        return s + total;
    }
    public int process() { return total; }
    @Override
    public String toString() {
        String s = "";
        s += total;
        return s;
    }
}
"#;
        let (_dir, p) = project(src);
        let files: Vec<FileId> = p.file_ids().collect();
        let found = candidates(&p, &files, 10);
        let names: Vec<&str> = found.iter().map(|n| p.method(n.method).name.as_str()).collect();
        assert_eq!(names, ["doWork", "proc", "shipOrders"], "{found:#?}");
        assert!(found[0].reason.contains("only words any method may use"), "{}", found[0].reason);
        assert!(found[2].reason.contains("no word of `shipOrders` after its verb (orders)"), "{}", found[2].reason);
        assert!(found[2].target.ends_with("Shop#shipOrders(List)"), "{}", found[2].target);
        assert_eq!(candidates(&p, &files, 1).len(), 1);
    }
}
