//! Unified diffs of a change set, as `git diff` would print them (coloured on a terminal).

use std::path::Path;

use similar::TextDiff;

use super::{ChangeSet, EditConflict, FileChange};
use crate::style::Style;

/// The unified diff of one file, with `a/` and `b/` headers; `old` is `None` for a new file.
pub fn unified(path: &Path, old: Option<&str>, new: &str, style: Style) -> String {
    let name = path.display().to_string().replace('\\', "/");
    let diff = TextDiff::from_lines(old.unwrap_or(""), new);
    let old_header = if old.is_some() { format!("a/{name}") } else { "/dev/null".to_string() };
    let text = diff.unified_diff().context_radius(3).header(&old_header, &format!("b/{name}")).to_string();
    paint(text, style)
}

fn paint(text: String, style: Style) -> String {
    if !style.color {
        return text;
    }
    text.lines()
        .map(|line| {
            if line.starts_with("+++") || line.starts_with("---") {
                style.bold(line)
            } else if line.starts_with('+') {
                style.green(line)
            } else if line.starts_with('-') {
                style.red(line)
            } else if line.starts_with("@@") {
                style.cyan(line)
            } else {
                line.to_string()
            }
        })
        .map(|l| l + "\n")
        .collect()
}

/// The diff of a deleted file: every line removed, to `/dev/null`.
fn deleted(path: &Path, old: &str, style: Style) -> String {
    let name = path.display().to_string().replace('\\', "/");
    let text = TextDiff::from_lines(old, "")
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), "/dev/null")
        .to_string();
    paint(text, style)
}

impl ChangeSet {
    /// The diff of every file in the change set, in path order.
    pub fn unified_diff(&self, style: Style) -> Result<String, EditConflict> {
        let rendered = self.render()?;
        let mut out = String::new();
        for (path, change) in &self.files {
            match (change, rendered.get(path)) {
                (FileChange::Delete { original }, _) => out.push_str(&deleted(path, original, style)),
                (_, Some(new)) => out.push_str(&unified(path, change.original(), new, style)),
                (_, None) => {}
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_unified_diff() {
        let d = unified(Path::new("A.java"), Some("a\nb\nc\n"), "a\nB\nc\n", Style::PLAIN);
        assert_eq!(d, "--- a/A.java\n+++ b/A.java\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    }
}
