//! `mantra batch --spec llm`: the agents replay a human's refactoring against the scripted
//! chat-completions server (real HTTP and JSON; the script is the test's), with real Maven.
//!
//! The history is one Extract Method commit on library-junit4 (made with mantra's engine, as a
//! developer's IDE would). The script has the Developer extract the human's lines under the
//! human's name through the engine tool, then finish; the agents' Reviewer accepts, and the batch
//! measures and scores that change like any other mode's.

use serde_json::{Value, json};

use crate::agents::FAST_BUILD;
use crate::batch::{events, one_extract_history};
use crate::harness::mantra_env;
use crate::llm_server::{ScriptedServer, reply_tool_call};

fn script() -> ScriptedServer {
    ScriptedServer::start([
        reply_tool_call("extract_method", json!({"start_line": 33, "end_line": 36, "name": "checkLoanLimit"})),
        reply_tool_call("finish", json!({"summary": "extracted the loan-limit check into checkLoanLimit"})),
    ])
}

#[test]
fn batch_spec_llm_runs_the_agents_and_scores_their_change() {
    let (dir, base) = one_extract_history();
    let repo = dir.path();
    let repo_s = repo.to_str().unwrap();
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("out");
    let recording = out_dir.path().join("recording");
    let range = format!("{base}..HEAD");
    let args =
        ["--repo", repo_s, "--json", "batch", "--range", &range, "--spec", "llm", "--out", out.to_str().unwrap()];

    // The agents' flags belong to --spec llm; elsewhere they are refused, not ignored.
    let run = mantra_env(repo, &["--repo", repo_s, "batch", "--range", &range, "--spec", "oracle", "--no-rag"], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("need --spec llm"), "{}", run.stderr);

    let server = script();
    let server_env = server.env();
    let mut env: Vec<(&str, &str)> = server_env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    env.extend_from_slice(FAST_BUILD);
    let record = [&args[..], &["--llm-record", recording.to_str().unwrap()]].concat();
    let run = mantra_env(repo, &record, &env);
    assert_eq!(run.code, 0, "{}", run.stderr);
    server.assert_done();
    let (tasks, summary) = events(&run.stdout);
    assert_eq!(tasks.len(), 1, "{}", run.stdout);
    let t = &tasks[0];
    assert_eq!(t["mode"], "llm");
    assert_eq!(t["type"], "extract-method");
    assert_eq!(t["success"], true, "{t:#}");
    assert_eq!(
        (&t["compiled"], &t["tests_passed"], &t["verified"]),
        (&Value::Bool(true), &Value::Bool(true), &Value::Bool(true)),
        "{t:#}"
    );
    // The agents called the engine with the human's lines and name: the human's code exactly.
    assert_eq!(t["identical"], true, "{t:#}");
    assert!((t["codebleu"]["score"].as_f64().unwrap() - 1.0).abs() < 1e-9, "{t:#}");
    assert_eq!(t["spec"]["name"], "checkLoanLimit", "{t:#}");
    assert!(t["diff"].as_str().unwrap().contains("+        checkLoanLimit(member);"), "{t:#}");
    // Tokens from the server's usage: two requests of 100 prompt and 20 completion tokens.
    assert_eq!((t["prompt_tokens"].as_u64(), t["completion_tokens"].as_u64()), (Some(200), Some(40)), "{t:#}");
    assert_eq!(t["cost"], Value::Null, "no prices configured");
    assert_eq!(t["agents"]["status"], "accepted", "{t:#}");
    assert_eq!((t["agents"]["rounds"].as_u64(), t["agents"]["repairs"].as_u64()), (Some(1), Some(0)));
    assert_eq!(t["agents"]["engine"], json!(["extract-method"]));
    assert_eq!(t["agents"]["requests"], json!({"developer": 2}));
    // The agents' builds are timed and, with the model's time, left out of mantra's overhead.
    let times = &t["times_ms"];
    for stage in ["spec", "model", "compile", "tests", "total"] {
        assert!(times[stage].is_u64(), "{stage}: {t:#}");
    }
    let external: u64 =
        ["checkout", "baseline", "style", "compile", "tests", "model"].iter().filter_map(|k| times[*k].as_u64()).sum();
    assert!(times["compile"].as_u64().unwrap() > 0, "{t:#}");
    assert_eq!(t["overhead_ms"].as_u64().unwrap(), times["total"].as_u64().unwrap().saturating_sub(external));
    // The agents' accepted review built exactly this change: the batch re-used it and built
    // nothing itself (its own builds cache their baseline under `batch-<parent>`).
    let cache = out.join("checkouts").join(&base).join(".mantra/cache/baseline");
    let cached: Vec<String> =
        std::fs::read_dir(&cache).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(cached.len(), 1, "the agents' baseline: {cached:?}");
    assert!(!cached[0].starts_with("batch-"), "{cached:?}");
    assert_eq!((summary["tasks"].as_u64(), summary["succeeded"].as_u64()), (Some(1), Some(1)));
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(md.contains("| llm | **all** | 1 | 1 (100.0%) | 1 (100.0%) | 1 (100.0%) | 1.000 |"), "{md}");

    // What the model was asked: the task, with the engine's tools and the free-form fallback.
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let tools = requests[0].tool_names();
    for tool in
        ["get_method", "get_file_content", "search_similar_refactorings", "extract_method", "write_file", "finish"]
    {
        assert!(tools.contains(&tool.to_string()), "{tool} not offered: {tools:?}");
    }
    let task = requests[0].body["messages"][1]["content"].as_str().unwrap();
    assert!(task.contains("**extract-method** on `LoanDesk.checkOut("), "{task}");
    assert!(
        requests[1].body["messages"].to_string().contains("+        checkLoanLimit(member);"),
        "the engine's diff comes back as the tool result"
    );

    // The recording replays the run offline: no server, the same result.
    let replay = [&args[..], &["--llm-replay", recording.to_str().unwrap()]].concat();
    let run = mantra_env(repo, &replay, FAST_BUILD);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (tasks, _) = events(&run.stdout);
    assert_eq!(tasks.len(), 1);
    for key in ["success", "identical", "spec", "diff", "prompt_tokens", "completion_tokens", "agents"] {
        assert_eq!(tasks[0][key], t[key], "{key}");
    }
    // --timeout bounds the agents' own builds too: the Reviewer's baseline (a cold Maven build in a
    // new checkout) is killed at the task's deadline, and the task fails as a timeout.
    let short = out_dir.path().join("short");
    let mut timed = replay.clone();
    let at = timed.iter().position(|a| *a == out.to_str().unwrap()).unwrap();
    timed[at] = short.to_str().unwrap();
    let run = mantra_env(repo, &[&timed[..], &["--timeout", "2"]].concat(), FAST_BUILD);
    assert_eq!(run.code, 0, "--fail-on never is the default: {}", run.stderr);
    let (tasks, _) = events(&run.stdout);
    assert_eq!(tasks[0]["failure"], "timeout", "{:#}", tasks[0]);
    assert_ne!(tasks[0]["agents"]["status"], "accepted", "{:#}", tasks[0]);

    // Record and replay follow the exchanges in order: one task at a time.
    let run = mantra_env(repo, &[&replay[..], &["--jobs", "2"]].concat(), &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(said.contains("need --jobs 1"), "{said}");
}
