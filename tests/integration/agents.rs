//! The agents end to end: the real binary, the scripted chat-completions server on 127.0.0.1
//! (real HTTP and JSON; the script is the test's), real Maven on copies of the demo fixture.
//! Each test asserts on the captured requests (the tools offered, the Reviewer's feedback and the
//! repair diagnostics in the next request) as well as on the output and the user's files.

use std::path::Path;

use serde_json::{Value as Json, json};

use crate::harness::{Run, copy_fixture, git, mantra_env, read};
use crate::llm_server::{
    CapturedRequest, ScriptedServer, reply_status, reply_text, reply_tool_call, reply_tool_call_raw,
};

const ISSUE: &str = "src/main/java/com/acme/invoicing/invoice/InvoiceService.java";

/// Maven as fast as the configuration allows: tests inside Maven's JVM, the affected ones only.
pub(crate) const FAST_BUILD: &[(&str, &str)] = &[
    ("MANTRA_VERIFY_TESTS", "affected"),
    (
        "MANTRA_BUILD_TEST",
        "mvn -o -B -q -Dmaven.repo.local=/usr/share/maven-repo -DforkCount=0 -DfailIfNoTests=false -Dtest={tests} test",
    ),
];

fn run_agents(dir: &Path, server: Option<&ScriptedServer>, args: &[&str], extra: &[(&str, &str)]) -> Run {
    let mut all = vec!["--repo", dir.to_str().unwrap(), "refactor", "-t", "extract-method"];
    let target = format!("{ISSUE}:issue");
    all.push(&target);
    all.extend_from_slice(args);
    let server_env = server.map(|s| s.env()).unwrap_or_default();
    let mut env: Vec<(&str, &str)> = server_env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    env.extend_from_slice(FAST_BUILD);
    env.extend_from_slice(extra);
    mantra_env(dir, &all, &env)
}

/// The issue file with D1 extracted by hand, exactly as the engine writes it.
fn extracted(original: &str, call_args: &str) -> String {
    let start = original.find("        Objects.requireNonNull(issueDate, \"issueDate\");").unwrap();
    let end = original.find("\n        Customer customer = invoice.getCustomer();").unwrap();
    let block = &original[start..end];
    let method = format!(
        "\n    private void validateIssuable(LocalDate issueDate, Invoice invoice) {{\n{}\n    }}\n",
        block.trim_end_matches('\n')
    );
    let mut text = format!("{}        validateIssuable({call_args});\n{}", &original[..start], &original[end..]);
    // after the end of issue(): the first "\n    }\n" after the call
    let call = text.find("validateIssuable(").unwrap();
    let close = call + text[call..].find("\n    }\n").unwrap() + "\n    }\n".len();
    text.insert_str(close, &method);
    text
}

fn tool_results(request: &CapturedRequest) -> Vec<String> {
    request.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap_or("").to_string())
        .collect()
}

fn messages(request: &CapturedRequest) -> Vec<Json> {
    request.body["messages"].as_array().unwrap().clone()
}

#[test]
fn a_the_model_extracts_through_the_engine_and_the_change_is_verified_and_applied() {
    let dir = copy_fixture("demo");
    let server = ScriptedServer::start([
        reply_tool_call("get_method", json!({})),
        reply_tool_call("extract_method", json!({"start_line": 38, "end_line": 44, "name": "validateIssuable"})),
        reply_tool_call("finish", json!({"summary": "extracted the checks into validateIssuable"})),
    ]);
    let run = run_agents(dir.path(), Some(&server), &["--apply"], &[]);
    assert_eq!(run.code, 0, "{run:?}");
    server.assert_done();
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    // The Developer is given the planner's candidates to choose from (list, then pick).
    let opening = &requests[0].raw_body;
    assert!(opening.contains("Candidates mantra's planner found") && opening.contains("1. extract lines"), "{opening}");
    let tools = requests[0].tool_names();
    for t in ["get_file_content", "get_method", "search_similar_refactorings", "extract_method", "write_file", "finish"]
    {
        assert!(tools.contains(&t.to_string()), "{t} not offered: {tools:?}");
    }
    let first = messages(&requests[0]);
    assert!(first[0]["content"].as_str().unwrap().contains("Work in four steps"));
    let task = first[1]["content"].as_str().unwrap();
    assert!(
        task.contains("the refactoring **extract-method** on `InvoiceService.issue(Invoice, LocalDate)`"),
        "{task}"
    );
    assert!(task.contains("38|         Objects.requireNonNull(issueDate, \"issueDate\");"), "{task}");
    assert!(tool_results(&requests[1])[0].contains("37|     public Invoice issue("));
    assert!(tool_results(&requests[2])[1].contains("+        validateIssuable(issueDate, invoice);"));
    // Live progress on stderr, result on stdout.
    assert!(run.stderr.contains("[developer 1.2] tool extract_method("), "{}", run.stderr);
    assert!(run.stderr.contains("[reviewer 1] verdict detection: extract-method found"), "{}", run.stderr);
    assert!(run.stderr.contains("[compile] ok"), "{}", run.stderr);
    assert!(run.stdout.contains("1 file written (verified)"), "{}", run.stdout);
    assert!(
        run.stdout.contains("agents: 1 round(s), 0 repair(s), engine: extract-method; tokens 300 sent, 60 received"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("verdict: accepted"), "{}", run.stdout);
    let written = read(dir.path(), ISSUE);
    assert!(written.contains("        validateIssuable(issueDate, invoice);\n"), "{written}");
    assert!(written.contains("    private void validateIssuable(LocalDate issueDate, Invoice invoice) {\n"));
}

#[test]
fn b_code_that_does_not_compile_is_repaired_in_two_attempts() {
    let dir = copy_fixture("demo");
    let original = read(dir.path(), ISSUE);
    let broken = extracted(&original, "issueDate, invoce");
    let still_broken = extracted(&original, "issueDate");
    let fixed = extracted(&original, "issueDate, invoice");
    let server = ScriptedServer::start([
        reply_tool_call("write_file", json!({"path": ISSUE, "content": broken})),
        reply_tool_call("finish", json!({"summary": "extracted by hand", "new_name": "validateIssuable"})),
        // Repair, attempt 1: a patch that still does not compile.
        reply_tool_call("write_file", json!({"path": ISSUE, "content": still_broken})),
        reply_tool_call("finish", json!({"summary": "fixed the variable"})),
        // The reflection, then attempt 2.
        reply_text(
            "Before: `invoce` was unknown. After: the call lacks its second argument. Plan: line 38, call validateIssuable(issueDate, invoice).",
        ),
        reply_tool_call("write_file", json!({"path": ISSUE, "content": fixed})),
        reply_tool_call("finish", json!({"summary": "passed invoice"})),
    ]);
    let run = run_agents(dir.path(), Some(&server), &["--apply"], &[]);
    assert_eq!(run.code, 0, "{run:?}");
    server.assert_done();
    let r = server.requests();
    // The Repair agent's initial analysis: the failure class, the structured diagnostic, the class.
    let analysis = messages(&r[2]);
    assert!(analysis[0]["content"].as_str().unwrap().contains("You are the Repair agent"));
    let task = analysis[1]["content"].as_str().unwrap();
    assert!(task.contains("fails: **compile error** at the compile stage"), "{task}");
    assert!(task.contains("cannot find symbol") && task.contains("invoce"), "{task}");
    // Code wiring's candidates under the diagnostic: the Repair agent binds the name, not guesses it.
    assert!(task.contains("`invoce` is not declared there; most likely `invoice`"), "{task}");
    assert_eq!(
        r[2].tool_names(),
        [
            "get_file_content",
            "get_class_info",
            "get_method",
            "get_callers_and_callees",
            "wire_code",
            "write_file",
            "finish"
        ]
    );
    // The Developer's `write_file` already said so.
    let wrote = tool_results(&r[1]);
    assert!(wrote[0].contains("`invoce`") && wrote[0].contains("`invoice`"), "{wrote:?}");
    // The reflection: errors before and after the patch, no tools.
    let reflect = r[4].last_content();
    assert!(reflect.contains("## Attempt 1 of 20 failed"), "{reflect}");
    let (before, after) = reflect.split_once("### Errors after your patch").unwrap();
    assert!(before.contains("invoce"), "{before}");
    assert!(after.contains("validateIssuable") && !after.contains("invoce"), "{after}");
    assert!(r[4].tool_names().is_empty());
    assert!(r[5].last_content().contains("carry out your plan"), "{}", r[5].last_content());
    assert!(run.stderr.contains("[repair 2] reflection Before:"), "{}", run.stderr);
    assert!(run.stdout.contains("1 round(s), 2 repair(s), written by the model"), "{}", run.stdout);
    assert_eq!(read(dir.path(), ISSUE), fixed);
}

#[test]
fn c_a_claimed_refactoring_the_detector_does_not_find_is_corrected_after_feedback() {
    let dir = copy_fixture("demo");
    let original = read(dir.path(), ISSUE);
    let server = ScriptedServer::start([
        reply_tool_call("write_file", json!({"path": ISSUE, "content": format!("{original}// tidied\n")})),
        reply_tool_call("finish", json!({"summary": "extracted validateIssuable", "new_name": "validateIssuable"})),
        reply_tool_call("extract_method", json!({"start_line": 38, "end_line": 44, "name": "validateIssuable"})),
        reply_tool_call("finish", json!({"summary": "extracted through the engine"})),
    ]);
    let run = run_agents(dir.path(), Some(&server), &[], &[]);
    assert_eq!(run.code, 0, "{run:?}");
    server.assert_done();
    let r = server.requests();
    let feedback = r[2].last_content();
    assert!(feedback.contains("review round 1 of 5") && feedback.contains("Stage: **detection**"), "{feedback}");
    assert!(feedback.contains("did not find the extract-method you were asked for"), "{feedback}");
    assert!(run.stderr.contains("[reviewer 1] feedback detection:"), "{}", run.stderr);
    assert!(run.stdout.contains("2 round(s)"), "{}", run.stdout);
    assert!(run.stdout.contains("verified, not written (pass --apply to write)"), "{}", run.stdout);
    assert_eq!(read(dir.path(), ISSUE), original, "no --apply: nothing written");
}

#[test]
fn d_a_429_is_retried_and_the_run_goes_on() {
    let dir = copy_fixture("demo");
    let server = ScriptedServer::start([
        reply_status(429, "slow down").header("Retry-After", "1"),
        reply_tool_call("extract_method", json!({"start_line": 38, "end_line": 44, "name": "validateIssuable"})),
        reply_tool_call("finish", json!({"summary": "done"})),
    ]);
    let prices = [("MANTRA_LLM_PRICES_PROMPT", "2"), ("MANTRA_LLM_PRICES_COMPLETION", "10")];
    let run = run_agents(dir.path(), Some(&server), &["--no-verify"], &prices);
    assert_eq!(run.code, 0, "{run:?}");
    server.assert_done();
    let r = server.requests();
    assert_eq!(r.len(), 3);
    assert_eq!(r[0].body, r[1].body, "the retry sends the same request");
    assert!(run.stdout.contains("1 file changed, not verified and not written"), "{}", run.stdout);
    // The retried 429 is the client's business: two answered requests, priced per million tokens.
    assert!(run.stdout.contains("tokens 200 sent, 40 received, cost 0.0008"), "{}", run.stdout);
}

#[test]
fn a_name_fixed_with_name_is_told_to_the_model_and_held_to_by_the_reviewer() {
    let dir = copy_fixture("demo");
    let server = ScriptedServer::start([
        reply_tool_call("extract_method", json!({"start_line": 38, "end_line": 44, "name": "checkIssuable"})),
        reply_tool_call("finish", json!({"summary": "extracted"})),
        reply_tool_call(
            "rename_method",
            json!({"target": format!("{ISSUE}:checkIssuable"), "new_name": "validateIssuable"}),
        ),
        reply_tool_call("finish", json!({"summary": "renamed to the user's name"})),
    ]);
    let run = run_agents(dir.path(), Some(&server), &["--name", "validateIssuable", "--no-verify"], &[]);
    assert_eq!(run.code, 0, "{run:?}");
    server.assert_done();
    let r = server.requests();
    let task = messages(&r[0])[1]["content"].as_str().unwrap().to_string();
    assert!(
        task.contains("The user has fixed part of this refactoring; keep to it exactly: the new method's name is `validateIssuable`."),
        "{task}"
    );
    // The model's own name does not count: the Reviewer looks for the user's.
    let feedback = r[2].last_content();
    assert!(feedback.contains("Stage: **detection**"), "{feedback}");
    assert!(
        feedback.contains("the method is named `checkIssuable` where `validateIssuable` was asked for"),
        "{feedback}"
    );
    assert!(run.stdout.contains("+    private void validateIssuable("), "{}", run.stdout);
    assert!(!run.stdout.contains("checkIssuable"), "{}", run.stdout);
}

#[test]
fn e_a_malformed_tool_call_gets_an_error_result_and_the_model_corrects_itself() {
    let dir = copy_fixture("demo");
    let server = ScriptedServer::start([
        reply_tool_call_raw("extract_method", "{\"start_line\": 38, \"end_line\": "),
        reply_tool_call("extract_methods", json!({})),
        reply_tool_call("extract_method", json!({"start_line": 38, "end_line": 44})),
        reply_tool_call("extract_method", json!({"start_line": 38, "end_line": 44, "name": "validateIssuable"})),
        reply_tool_call("finish", json!({"summary": "done"})),
    ]);
    let run = run_agents(dir.path(), Some(&server), &["--no-verify", "--json"], &[]);
    assert_eq!(run.code, 0, "{run:?}");
    server.assert_done();
    let results = tool_results(&server.requests()[4]);
    assert!(results[0].starts_with("error: the arguments are not valid JSON"), "{}", results[0]);
    assert!(results[1].starts_with("error: there is no tool named `extract_methods`"), "{}", results[1]);
    assert!(results[2].contains("extract-method needs more fields"), "{}", results[2]);
    assert!(results[3].starts_with("applied extract-method"), "{}", results[3]);
    let events: Vec<Json> = run.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let failed: Vec<&Json> = events.iter().filter(|e| e["event"] == "agent" && e["ok"] == false).collect();
    assert_eq!(failed.len(), 3, "{events:?}");
    let result = events.iter().find(|e| e["event"] == "result" && e["kind"] == "refactoring").unwrap();
    assert_eq!(result["data"]["verdict"], "unverified");
    assert_eq!(result["data"]["agents"]["engine"][0]["type"], "extract-method");
}

#[test]
fn f_when_the_repair_budget_runs_out_the_run_is_rejected_and_nothing_is_written() {
    let dir = copy_fixture("demo");
    let original = read(dir.path(), ISSUE);
    let broken = extracted(&original, "issueDate, invoce");
    let server = ScriptedServer::start([
        reply_tool_call("write_file", json!({"path": ISSUE, "content": broken})),
        reply_tool_call("finish", json!({"summary": "extracted", "new_name": "validateIssuable"})),
        reply_tool_call("write_file", json!({"path": ISSUE, "content": extracted(&original, "issueDate, invoic")})),
        reply_tool_call("finish", json!({"summary": "attempt 1"})),
        reply_text("The name is still misspelt. Plan: fix it."),
        reply_tool_call("write_file", json!({"path": ISSUE, "content": extracted(&original, "issueDate, invoise")})),
        reply_tool_call("finish", json!({"summary": "attempt 2"})),
    ]);
    let run = run_agents(dir.path(), Some(&server), &["--apply"], &[("MANTRA_AGENT_MAX_REPAIR_ATTEMPTS", "2")]);
    assert_eq!(run.code, 1, "{run:?}");
    server.assert_done();
    assert!(
        run.stdout.contains(
            "rejected, nothing written: still failing after 2 repair attempt(s) (agent.max_repair_attempts = 2)"
        ),
        "{}",
        run.stdout
    );
    // The last attempt's code is what the verdict speaks of.
    assert!(run.stdout.contains("verdict: rejected at compile"), "{}", run.stdout);
    assert!(run.stdout.contains("invoise"), "{}", run.stdout);
    assert!(run.stderr.contains("[repair 2] budget no repair after 2 attempts"), "{}", run.stderr);
    assert_eq!(read(dir.path(), ISSUE), original, "the user's file is untouched");
}

/// A last repair that gives the refactoring up is what the verdict reports, not the attempt
/// before it: the code shown no longer has the extraction, so the run is rejected at detection.
#[test]
fn f2_a_last_repair_that_undoes_the_refactoring_is_rejected_at_detection() {
    let dir = copy_fixture("demo");
    let original = read(dir.path(), ISSUE);
    let broken = extracted(&original, "issueDate, invoce");
    let server = ScriptedServer::start([
        reply_tool_call("write_file", json!({"path": ISSUE, "content": broken})),
        reply_tool_call("finish", json!({"summary": "extracted", "new_name": "validateIssuable"})),
        reply_tool_call("write_file", json!({"path": ISSUE, "content": extracted(&original, "issueDate")})),
        reply_tool_call("finish", json!({"summary": "attempt 1"})),
        reply_text("Still broken. Plan: put the original code back."),
        reply_tool_call("write_file", json!({"path": ISSUE, "content": format!("{original}// tidied\n")})),
        reply_tool_call("finish", json!({"summary": "attempt 2"})),
    ]);
    let run = run_agents(dir.path(), Some(&server), &["--apply"], &[("MANTRA_AGENT_MAX_REPAIR_ATTEMPTS", "2")]);
    assert_eq!(run.code, 1, "{run:?}");
    server.assert_done();
    assert!(run.stdout.contains("verdict: rejected at detection"), "{}", run.stdout);
    assert!(!run.stdout.contains("rejected at compile"), "{}", run.stdout);
    assert_eq!(read(dir.path(), ISSUE), original, "the user's file is untouched");
}

#[test]
fn g_a_replay_reproduces_a_recorded_run_byte_for_byte() {
    let dir = copy_fixture("demo");
    let rec = tempfile::tempdir().unwrap();
    let rec_dir = rec.path().join("run");
    let rec_arg = rec_dir.to_str().unwrap();
    let server = ScriptedServer::start([
        reply_tool_call("get_class_info", json!({"class": "InvoiceService"})),
        reply_tool_call("extract_method", json!({"start_line": 38, "end_line": 44, "name": "validateIssuable"})),
        reply_tool_call("finish", json!({"summary": "done"})),
    ]);
    let recorded = run_agents(dir.path(), Some(&server), &["--no-verify", "--llm-record", rec_arg], &[]);
    assert_eq!(recorded.code, 0, "{recorded:?}");
    server.assert_done();
    drop(server);
    // No server at all now: the recording answers.
    let replayed = run_agents(dir.path(), None, &["--no-verify", "--llm-replay", rec_arg], &[]);
    assert_eq!(replayed.code, 0, "{replayed:?}");
    assert_eq!(replayed.stdout, recorded.stdout);
    assert!(replayed.stdout.contains("+        validateIssuable(issueDate, invoice);"), "{}", replayed.stdout);
    // The agent events on stderr replay too (the transcript's path aside).
    let agent_lines = |s: &str| {
        s.lines()
            .filter(|l| l.starts_with("[developer") || l.starts_with("[reviewer"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(agent_lines(&replayed.stderr), agent_lines(&recorded.stderr));
}

#[test]
fn the_developer_retrieves_examples_from_the_repositorys_store() {
    let dir = copy_fixture("demo");
    let records = tempfile::tempdir().unwrap();
    let pmd = crate::store::sample(records.path(), 12);
    let repo = dir.path().to_str().unwrap();
    let import = mantra_env(dir.path(), &["--repo", repo, "store", "import", pmd.to_str().unwrap()], &[]);
    assert_eq!(import.code, 0, "{import:?}");
    let server = ScriptedServer::start([
        reply_tool_call(
            "search_similar_refactorings",
            json!({"query": "validate the invoice before issuing it", "k": 2}),
        ),
        reply_tool_call("extract_method", json!({"start_line": 38, "end_line": 44, "name": "validateIssuable"})),
        reply_tool_call("finish", json!({"summary": "done"})),
    ]);
    let run = run_agents(dir.path(), Some(&server), &["--no-verify"], &[]);
    assert_eq!(run.code, 0, "{run:?}");
    server.assert_done();
    let r = server.requests();
    assert!(r[0].tool_names().iter().any(|t| t == "search_similar_refactorings"));
    let results = tool_results(&r[1]);
    assert_eq!(results.len(), 1, "{results:?}");
    assert!(results[0].contains("Example 1 (pmd@"), "{}", results[0]);
    assert!(results[0].contains("Example 2 (pmd@"), "{}", results[0]);
    assert!(!results[0].contains("Example 3"), "k = 2 gives two examples: {}", results[0]);

    // --no-rag: the tool is not offered at all.
    let server = ScriptedServer::start([
        reply_tool_call("extract_method", json!({"start_line": 38, "end_line": 44, "name": "validateIssuable"})),
        reply_tool_call("finish", json!({"summary": "done"})),
    ]);
    let run = run_agents(dir.path(), Some(&server), &["--no-verify", "--no-rag"], &[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(!server.requests()[0].tool_names().iter().any(|t| t == "search_similar_refactorings"));
}

/// Issue 14, defect 7: a run that stopped before the baseline (here the model answering 401)
/// left `.mantra/` (the run's transcript) without its `.gitignore`, and `git status` showed it.
#[test]
fn a_run_the_model_stops_leaves_mantra_state_ignored_by_git() {
    let dir = copy_fixture("demo");
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "demo"]);
    let server = ScriptedServer::start([reply_status(401, "invalid api key")]);
    let run = run_agents(dir.path(), Some(&server), &[], &[]);
    assert_ne!(run.code, 0, "{run:?}");
    assert!(dir.path().join(".mantra/runs").is_dir(), "the run's transcript folder is made: {run:?}");
    assert_eq!(git(dir.path(), &["status", "--porcelain"]), "", "{run:?}");
}

/// Issue 14, defect 13: log lines (a retried request's warning) carried ANSI colour codes with
/// `--color never`, and when stderr is not a terminal.
#[test]
fn log_lines_carry_no_colour_codes_off_a_terminal() {
    for color in [&["--color", "never"][..], &[]] {
        let dir = copy_fixture("demo");
        let server = ScriptedServer::start([
            reply_status(429, "slow down").header("Retry-After", "1"),
            reply_tool_call("extract_method", json!({"start_line": 38, "end_line": 44, "name": "validateIssuable"})),
            reply_tool_call("finish", json!({"summary": "done"})),
        ]);
        let mut args = vec!["--no-verify"];
        args.extend_from_slice(color);
        // An empty NO_COLOR does not ask for plain output (no-color.org), so only the flag and
        // the terminal decide.
        let run = run_agents(dir.path(), Some(&server), &args, &[("NO_COLOR", "")]);
        assert_eq!(run.code, 0, "{run:?}");
        assert!(run.stderr.contains("retrying"), "{}", run.stderr);
        assert!(!run.stderr.contains('\u{1b}'), "{color:?}: {:?}", run.stderr);
    }
}

/// Issue 14, defect 3: Ctrl-C was ignored while mantra waited for the model (the handler came
/// with the first workspace), and SIGTERM then ended it without cleanup. Both now end the run at
/// once with 130 and the cleanup message.
#[test]
fn an_interrupt_while_the_model_thinks_ends_the_run_at_once() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let dir = copy_fixture("demo");
        let server = ScriptedServer::start([reply_text("late").delay(std::time::Duration::from_secs(8))]);
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_mantra"));
        cmd.args([
            "--repo",
            dir.path().to_str().unwrap(),
            "refactor",
            "-t",
            "extract-method",
            &format!("{ISSUE}:issue"),
        ])
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
        for (k, v) in server.env() {
            cmd.env(k, v);
        }
        let mut proc = cmd.spawn().unwrap();
        let start = std::time::Instant::now();
        while server.requests().is_empty() {
            assert!(start.elapsed().as_secs() < 30, "the model was never asked");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let asked = std::time::Instant::now();
        // SAFETY: kill(2) with a pid we spawned and still own (not yet waited for).
        assert_eq!(unsafe { libc::kill(proc.id() as i32, signal) }, 0);
        let status = loop {
            if let Some(status) = proc.try_wait().unwrap() {
                break status;
            }
            if asked.elapsed().as_secs() > 20 {
                let _ = proc.kill();
                panic!("signal {signal}: mantra did not stop");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        assert!(asked.elapsed() < std::time::Duration::from_secs(5), "signal {signal}: it waited for the model");
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut proc.stderr.take().unwrap(), &mut stderr).unwrap();
        assert_eq!(status.code(), Some(mantra::exit::INTERRUPTED), "signal {signal}: {stderr}");
        assert!(stderr.contains("mantra: interrupted"), "{stderr}");
    }
}

/// Issue 14, defect 2: the key's value went wherever it turned up: read from a repository file
/// into the next request, repeated by the model into the transcript, the recording, stdout and
/// stderr. Now only the `Authorization` header carries it.
#[test]
fn the_api_key_is_scrubbed_from_requests_answers_output_and_records() {
    const KEY: &str = "sk-live-4f9a2c81d7e0";
    let dir = copy_fixture("demo");
    let props = "src/main/resources/app.properties";
    std::fs::create_dir_all(dir.path().join("src/main/resources")).unwrap();
    std::fs::write(dir.path().join(props), format!("api.token={KEY}\n")).unwrap();
    let rec = tempfile::tempdir().unwrap();
    let rec_dir = rec.path().join("run");
    let server = ScriptedServer::start([
        reply_tool_call("get_file_content", json!({"path": props})),
        // A malformed call whose text the error result quotes back.
        reply_tool_call_raw("extract_method", &format!("{{\"start_line\": 38, \"name\": \"{KEY}")),
        reply_tool_call("extract_method", json!({"start_line": 38, "end_line": 44, "name": "validateIssuable"})),
        reply_tool_call("finish", json!({"summary": format!("done; the token is {KEY}")})),
    ]);
    let args = ["--no-verify", "--json", "--llm-record", rec_dir.to_str().unwrap()];
    let run = run_agents(dir.path(), Some(&server), &args, &[("MANTRA_API_KEY", KEY), ("MANTRA_LOG", "mantra=trace")]);
    assert_eq!(run.code, 0, "{run:?}");
    server.assert_done();
    let requests = server.requests();
    assert_eq!(requests[0].header("authorization"), Some(format!("Bearer {KEY}").as_str()));
    for (i, r) in requests.iter().enumerate() {
        assert!(!r.raw_body.contains(KEY), "request {i} carries the key: {}", r.raw_body);
    }
    assert!(tool_results(&requests[1])[0].contains("api.token=<redacted>"), "{:?}", tool_results(&requests[1]));
    assert!(!run.stdout.contains(KEY) && !run.stderr.contains(KEY), "{run:?}");
    assert!(run.stdout.contains("the token is <redacted>"), "{}", run.stdout);
    let mut written = Vec::new();
    for root in [dir.path().join(".mantra/runs"), rec_dir.clone()] {
        for entry in walk(&root) {
            written.push((entry.clone(), std::fs::read_to_string(&entry).unwrap()));
        }
    }
    assert!(written.iter().any(|(p, _)| p.ends_with("transcript.jsonl")), "{written:?}");
    assert!(written.len() >= 5, "a transcript and four recorded exchanges: {written:?}");
    for (path, text) in &written {
        assert!(!text.contains(KEY), "{} holds the key", path.display());
    }
}

fn walk(root: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(root).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() { files.extend(walk(&path)) } else { files.push(path) }
    }
    files
}

/// Issue 14: with a model, `refactor` then `refactor --apply` ran the agents twice and could write
/// another change than the one shown. `mantra apply` writes the one shown, with no model at all.
#[test]
fn apply_writes_the_agents_previewed_change_without_asking_the_model_again() {
    let dir = copy_fixture("demo");
    let original = std::fs::read_to_string(dir.path().join(ISSUE)).unwrap();
    let server = ScriptedServer::start([
        reply_tool_call("extract_method", json!({"start_line": 38, "end_line": 44, "name": "validateIssuable"})),
        reply_tool_call("finish", json!({"summary": "done"})),
    ]);
    let shown = run_agents(dir.path(), Some(&server), &["--no-verify"], &[]);
    assert_eq!(shown.code, 0, "{shown:?}");
    server.assert_done();
    drop(server);
    let id = shown
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("[preview] kept as run "))
        .unwrap_or_else(|| panic!("{}", shown.stderr));
    let id = id.split(':').next().unwrap();
    assert!(dir.path().join(".mantra/runs").join(id).join("transcript.jsonl").is_file(), "one run folder: {id}");
    assert_eq!(std::fs::read_to_string(dir.path().join(ISSUE)).unwrap(), original);
    let applied = mantra_env(dir.path(), &["--repo", dir.path().to_str().unwrap(), "apply", id], &[]);
    assert_eq!(applied.code, 0, "{applied:?}");
    assert_eq!(std::fs::read_to_string(dir.path().join(ISSUE)).unwrap(), extracted(&original, "issueDate, invoice"));
}
