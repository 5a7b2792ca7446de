//! mantra's own cost per agent turn, the model and the build excluded, and the size of what the
//! Developer sends and receives for one refactoring made through the engine vs written whole.
//!
//! An in-process model answers from a script (no HTTP), so a turn's wall time minus the model's is
//! mantra: building requests, parsing calls, running the tools (project model, engine, overlay).
//! Tokens are estimated as bytes / 4 of the request and of the answer as JSON.
//!
//! `cargo run --release --example agent_overhead [turns]` (default 20).

use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use mantra::agent::turn::{Session, Silent};
use mantra::agent::{Meter, NoExamples, Prompts, developer, tools::Workbench};
use mantra::java::{Project, target};
use mantra::llm::{ChatModel, ChatRequest, ChatResponse, LlmError, Message, Role, ToolCall, Usage};
use mantra::refactoring::RefactoringKind;

const ISSUE: &str = "src/main/java/com/acme/invoicing/invoice/InvoiceService.java";

/// Answers from a script; counts the bytes it is sent and sends.
struct Scripted {
    answers: Mutex<Vec<Message>>,
    sent: Mutex<usize>,
    received: Mutex<usize>,
}

impl Scripted {
    fn new(answers: Vec<Message>) -> Scripted {
        Scripted {
            answers: Mutex::new(answers.into_iter().rev().collect()),
            sent: Mutex::new(0),
            received: Mutex::new(0),
        }
    }
}

impl ChatModel for Scripted {
    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
        *self.sent.lock().unwrap() += serde_json::to_string(request).unwrap().len();
        let message = self.answers.lock().unwrap().pop().ok_or(LlmError::Malformed("script ended".into()))?;
        *self.received.lock().unwrap() += serde_json::to_string(&message).unwrap().len();
        Ok(ChatResponse { message, usage: Usage::default(), finish_reason: None })
    }
}

fn call(name: &str, args: serde_json::Value) -> Message {
    Message {
        role: Role::Assistant,
        content: None,
        tool_calls: vec![ToolCall { id: "c".into(), name: name.into(), arguments: args.to_string() }],
        tool_call_id: None,
    }
}

fn main() {
    let turns: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/projects/demo");
    let prompts = Prompts::builtin();
    let original = std::fs::read_to_string(root.join(ISSUE)).unwrap();
    // The hand-written extraction the whole-file run sends (the engine's result, as text).
    let whole = {
        let project = Project::open(&root).unwrap();
        let m = target::resolve(&project, &root, &format!("{ISSUE}:issue")).unwrap().method;
        let mut b = Workbench::new(&root, &project, m, RefactoringKind::ExtractMethod, &NoExamples);
        use mantra::agent::turn::ToolHost;
        b.call("extract_method", &serde_json::json!({"start_line": 38, "end_line": 44, "name": "validateIssuable"}))
            .unwrap();
        b.text(Path::new(ISSUE)).unwrap()
    };
    assert_ne!(whole, original);

    for (label, script) in [
        (
            "engine tool",
            vec![
                call("get_method", serde_json::json!({})),
                call("get_callers_and_callees", serde_json::json!({})),
                call(
                    "extract_method",
                    serde_json::json!({"start_line": 38, "end_line": 44, "name": "validateIssuable"}),
                ),
                call("finish", serde_json::json!({"summary": "done"})),
            ],
        ),
        (
            "write_file",
            vec![
                call("get_method", serde_json::json!({})),
                call("get_callers_and_callees", serde_json::json!({})),
                call("write_file", serde_json::json!({"path": ISSUE, "content": whole})),
                call("finish", serde_json::json!({"summary": "done", "new_name": "validateIssuable"})),
            ],
        ),
    ] {
        let mut overhead = Vec::new();
        let (mut sent, mut received) = (0, 0);
        let start = Instant::now();
        for _ in 0..turns {
            let project = Project::open(&root).unwrap();
            let m = target::resolve(&project, &root, &format!("{ISSUE}:issue")).unwrap().method;
            let mut bench = Workbench::new(&root, &project, m, RefactoringKind::ExtractMethod, &NoExamples);
            let task = developer::Task {
                kind: RefactoringKind::ExtractMethod,
                method: "InvoiceService.issue(Invoice, LocalDate)".into(),
                file: ISSUE.into(),
                target: bench.target.clone(),
                context: developer::context(&project, m),
                rag: true,
                fixed: String::new(),
            };
            let mut messages = developer::opening(&prompts, &task).unwrap();
            let model = Scripted::new(script.clone());
            let (mut meter, mut silent) = (Meter::default(), Silent);
            let mut session = Session { model: &model, meter: &mut meter, observer: &mut silent };
            let t = Instant::now();
            let end = session.turn("developer", 1, &mut messages, &mut bench, 30).unwrap();
            let whole_turn = t.elapsed().as_micros() as u64;
            assert!(end.finish.is_some() && !bench.change_set().is_empty());
            // The turn's own figure excludes model time; add the context gathering done before it.
            overhead.push(meter.turn_overhead_us[0].min(whole_turn));
            sent = *model.sent.lock().unwrap();
            received = *model.received.lock().unwrap();
        }
        overhead.sort_unstable();
        let median = overhead[overhead.len() / 2];
        let max = overhead[overhead.len() - 1];
        println!(
            "{label:>11}: {turns} turns in {:.2}s; mantra per turn (4 requests, tools included, model excluded): \
             median {:.1} ms, max {:.1} ms; per refactoring ~{} tokens sent, ~{} received (bytes/4)",
            start.elapsed().as_secs_f64(),
            median as f64 / 1000.0,
            max as f64 / 1000.0,
            sent / 4,
            received / 4
        );
    }
}
