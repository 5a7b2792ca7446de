//! `--baseline raw`: the paper's RawGPT baseline. One prompt with the same context the Developer
//! gets up front (plus retrieved examples unless `--no-rag`), no tools, no feedback, no repair;
//! the ```java block of the answer becomes the target file's new text, which is then detected
//! and verified like any other change.

use super::review_loop::{Run, Status};
use super::tools::{Workbench, render_examples};
use super::{AgentError, developer};
use crate::llm::Message;
use crate::review::{Change, Match, Review, Validation};

/// The first ```java (or unlabelled) code block of `text`; the longest when there are several
/// of the same kind, since models often quote a snippet before the whole file.
pub fn code_block(text: &str) -> Option<String> {
    let mut blocks: Vec<(bool, String)> = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let lang_end = after.find('\n')?;
        let lang = after[..lang_end].trim().to_ascii_lowercase();
        let body = &after[lang_end + 1..];
        let close = body.find("\n```").map(|i| i + 1).or_else(|| body.rfind("```"))?;
        blocks.push((lang == "java", body[..close].to_string()));
        rest = &body[(close + 3).min(body.len())..];
    }
    let java: Vec<&String> = blocks.iter().filter(|(j, _)| *j).map(|(_, b)| b).collect();
    let pool: Vec<&String> = if java.is_empty() { blocks.iter().map(|(_, b)| b).collect() } else { java };
    pool.into_iter().max_by_key(|b| b.len()).cloned()
}

pub(crate) fn run(
    run: &mut Run,
    bench: &mut Workbench,
) -> Result<(Status, Option<Review>, Option<Validation>), AgentError> {
    let job = run.job;
    let file = job.project.method_source(job.method).path.clone();
    let kind = job.kind.name().to_string();
    let examples = if job.modes.rag {
        let query = developer_code(job);
        match job.examples.search(&query, job.kind, 3) {
            Ok(found) if !found.is_empty() => {
                format!("Similar refactorings from other projects:\n\n{}", render_examples(&found))
            }
            _ => String::new(),
        }
    } else {
        String::new()
    };
    let prompt = job.prompts.render(
        "raw",
        &[
            ("kind", &kind),
            ("method", &job.project.method_label(job.method)),
            ("file", &file.display().to_string()),
            ("hint", &job.fixed_sentence()),
            ("context", developer::context(job.project, job.method).trim_end()),
            ("examples", &examples),
            ("file_code", job.project.method_source(job.method).text.trim_end()),
        ],
    )?;
    let response = run.session.ask("raw", &[Message::user(prompt)], Vec::new(), None)?;
    let answer = response.message.content.unwrap_or_default();
    let Some(code) = code_block(&answer) else {
        run.session.event("raw", 1, 1, "text", "the answer holds no code block");
        return Ok((Status::Rejected("the model's answer holds no ```java code block".into()), None, None));
    };
    let code = if code.ends_with('\n') { code } else { code + "\n" };
    run.session.event("raw", 1, 1, "finish", format!("{} ({} lines)", file.display(), code.lines().count()));
    bench.set(file, code);
    let changes = bench.change_set();
    if changes.is_empty() {
        return Ok((Status::Rejected("the model returned the file unchanged".into()), None, None));
    }
    let change = Change::from_change_set(&changes).map_err(|e| AgentError::Internal(e.to_string()))?;
    let detection = run.detect(&change, 1);
    if !job.modes.build {
        let status = match detection.verdict {
            Match::Missing => Status::Rejected(format!("the intended refactoring was not found: {}", detection.reason)),
            _ => Status::Unverified,
        };
        return Ok((status, None, Some(detection)));
    }
    let review = run.review(&change, 1)?;
    let status = match &review.verdict {
        crate::review::Verdict::Accepted => Status::Accepted,
        crate::review::Verdict::BrokenBaseline { .. } => Status::BrokenBaseline,
        v @ crate::review::Verdict::Rejected { stage, .. } => Status::Rejected(format!(
            "rejected at {}: {}",
            stage.label(),
            v.reasons().first().cloned().unwrap_or_default()
        )),
    };
    Ok((status, Some(review), Some(detection)))
}

fn developer_code(job: &super::Job) -> String {
    let d = job.project.method(job.method);
    job.project.method_source(job.method).slice(&d.span).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_java_block_wins() {
        let text = "Here:\n```java\nint x;\n```\nand the file:\n```java\nclass A {\n}\n```\n";
        assert_eq!(code_block(text).unwrap(), "class A {\n}\n");
        assert_eq!(code_block("```\nclass B {}\n```").unwrap(), "class B {}\n");
        assert_eq!(code_block("no code"), None);
    }
}
