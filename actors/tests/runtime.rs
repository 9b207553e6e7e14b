//! The runtime in process: what scenarios as data (`corpus/runtime/`, played over HTTP by
//! `scenarios.rs`) can't say: chats leaving memory and coming back, lookups asked at the
//! same moment, a hundred thousand chats in the log, the person's thresholds.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use warden::chat::{Company, Event, Mark};
use warden::facts::{Facts, FakeFacts, Remote};
use warden::mode::Mode;
use warden::step::Step;
use warden::verdict::Decision;
use warden_actors::runtime::{Options, Part, Runtime, RuntimeError};

mod atomic;
mod idle;
mod slow;

fn facts() -> Arc<FakeFacts> {
    Arc::new(FakeFacts::repo(&[]))
}

async fn open(dir: &Path, idle: Duration) -> Runtime {
    Runtime::open(
        dir,
        facts(),
        Options {
            idle,
            ..Options::default()
        },
    )
    .await
    .unwrap_or_else(|e| panic!("open: {e:#}"))
}

fn bash(command: &str) -> Step {
    Step::Command {
        command: command.to_string(),
    }
}

const CWD: &str = "/home/user/app";

async fn decision(runtime: &Runtime, chat: &str, command: &str) -> Decision {
    runtime
        .judge(chat, bash(command), CWD)
        .await
        .unwrap_or_else(|e| panic!("judge {command}: {e:#}"))
        .verdict
        .decision
}

fn read(name: &str) -> Event {
    Event::Read {
        mark: Mark {
            name: name.to_string(),
            provenance: None,
        },
    }
}

/// Waits for a condition, polling, with a deadline: tests never sleep for a fixed time.
async fn eventually<F: Fn() -> Fut, Fut: std::future::Future<Output = bool>>(what: &str, check: F) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !check().await {
        if tokio::time::Instant::now() > deadline {
            panic!("timed out waiting for {what}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_chat_leaves_memory_and_comes_back_from_the_log() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // Idle after two seconds: long enough that a loaded machine (CI on two cores) doesn't
    // evict the chat between its two writes and the first count, short enough to wait for.
    let runtime = open(dir.path(), Duration::from_secs(2)).await;
    runtime
        .record(
            "c1",
            Event::Said {
                text: "push it".into(),
            },
        )
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    runtime
        .record("c1", read("a web page"))
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(
        runtime
            .in_memory()
            .await
            .unwrap_or_else(|e| panic!("{e:#}")),
        1
    );
    eventually("the idle chat to leave memory", || async {
        runtime.in_memory().await.ok() == Some(0)
    })
    .await;
    assert_eq!(
        decision(&runtime, "c1", "git push origin main").await,
        Decision::Allow,
        "its words came back from the log"
    );
}

fn send_email(to: serde_json::Value) -> Step {
    let request = serde_json::json!({
        "tool_name": "mcp__gmail__send_email",
        "tool_input": {"to": to, "subject": "Hello", "body": "A short note."},
    });
    let request: warden::protocol::Request =
        serde_json::from_value(request).unwrap_or_else(|e| panic!("{e}"));
    let defaults = warden::protocol::Defaults::new(CWD);
    warden::protocol::read_request(&request, &defaults)
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

fn app_call(tool: &str, arguments: serde_json::Value) -> Step {
    let request = serde_json::json!({
        "tool_name": "App",
        "app": {"origin": "stranger", "setting": "ask"},
        "tool_input": {"app": "FoodDB", "tool": tool, "arguments": arguments},
    });
    let request: warden::protocol::Request =
        serde_json::from_value(request).unwrap_or_else(|e| panic!("{e}"));
    warden::protocol::read_request(&request, &warden::protocol::Defaults::new(CWD))
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookups_asked_at_once_share_one_question_and_changes_never_do() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let runtime = open(dir.path(), Duration::from_secs(60)).await;
    let mut calls = Vec::new();
    for n in 0..11 {
        let runtime = runtime.clone();
        calls.push(tokio::spawn(async move {
            runtime
                .judge(
                    "c1",
                    app_call(
                        "get_product",
                        serde_json::json!({"id": format!("food-{n}")}),
                    ),
                    CWD,
                )
                .await
        }));
    }
    let mut questions = std::collections::BTreeSet::new();
    for call in calls {
        let judged = call
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(
            judged.verdict.decision,
            Decision::Ask,
            "a tool set to Ask keeps asking"
        );
        questions.insert(judged.question.unwrap_or_else(|| panic!("asks")));
    }
    assert_eq!(
        questions.len(),
        1,
        "eleven lookups at once are one question: {questions:?}"
    );
    let first = runtime
        .judge(
            "c1",
            app_call("add_entry", serde_json::json!({"id": "food-1"})),
            CWD,
        )
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    let second = runtime
        .judge(
            "c1",
            app_call("add_entry", serde_json::json!({"id": "food-2"})),
            CWD,
        )
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_ne!(first.question, second.question, "changes are never joined");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_thousand_chats_in_the_log_only_the_active_ones_in_memory() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    {
        let log = warden_storage::EventLog::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        let records: Vec<(String, warden::chat::Record)> = (0..100_000)
            .map(|n| {
                let text = if n % 2 == 0 {
                    "push it"
                } else {
                    "don't push yet"
                };
                (
                    format!("c{n}"),
                    warden::chat::Record {
                        at_ms: 0,
                        event: Event::Said {
                            text: text.to_string(),
                        },
                    },
                )
            })
            .collect();
        let items: Vec<(&str, warden::chat::Record)> = records
            .iter()
            .map(|(chat, record)| (chat.as_str(), record.clone()))
            .collect();
        log.append_batch(&items).unwrap_or_else(|e| panic!("{e}"));
        log.flush().unwrap_or_else(|e| panic!("{e}"));
    }
    let runtime = open(dir.path(), Duration::from_secs(60)).await;
    assert_eq!(
        runtime
            .in_memory()
            .await
            .unwrap_or_else(|e| panic!("{e:#}")),
        0,
        "nothing is loaded before it is asked for"
    );
    for n in [0, 1, 49_998, 49_999, 99_999] {
        let chat = format!("c{n}");
        runtime
            .record(&chat, read("a web page"))
            .await
            .unwrap_or_else(|e| panic!("{e:#}"));
        let want = if n % 2 == 0 {
            Decision::Allow
        } else {
            Decision::Ask
        };
        assert_eq!(
            decision(&runtime, &chat, "git push origin main").await,
            want,
            "{chat} came back with its own words"
        );
    }
    assert_eq!(
        runtime
            .in_memory()
            .await
            .unwrap_or_else(|e| panic!("{e:#}")),
        5,
        "only the active chats are in memory"
    );
}

/// The person's thresholds reach the behaviour watch: with `watch.recipients = 5`, a note to
/// five people asks, where LIMITS' thirty would let it go.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_person_s_thresholds_reach_the_watch() {
    let five: Vec<String> = (0..5).map(|n| format!("friend{n}@example.com")).collect();
    for (thresholds, want) in [
        (warden::watch::Thresholds::new(), Decision::Allow),
        (
            warden::watch::Thresholds::from([("watch.recipients".to_string(), 5)]),
            Decision::Ask,
        ),
    ] {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let runtime = Runtime::open(
            dir.path(),
            facts(),
            Options {
                idle: Duration::from_secs(60),
                thresholds,
                ..Options::default()
            },
        )
        .await
        .unwrap_or_else(|e| panic!("open: {e:#}"));
        runtime
            .open_chat("c1", Mode::Auto, Company::Alone)
            .await
            .unwrap_or_else(|e| panic!("{e:#}"));
        let judged = runtime
            .judge("c1", send_email(serde_json::json!(five)), CWD)
            .await
            .unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(judged.verdict.decision, want, "{}", judged.verdict.reason);
        runtime.shutdown().await.unwrap_or_else(|e| panic!("{e:#}"));
    }
}

/// Facts that panic when asked about a folder under `/boom`: the judge that asks fails.
struct Explosive(FakeFacts);

impl Explosive {
    fn check(dir: &str) {
        if dir.starts_with("/boom") {
            panic!("a fact about `{dir}` (a test's fault)");
        }
    }
}

impl Facts for Explosive {
    fn tree_clean(&self, dir: &str) -> Option<bool> {
        Explosive::check(dir);
        self.0.tree_clean(dir)
    }
    fn remotes(&self, dir: &str) -> Option<Vec<Remote>> {
        Explosive::check(dir);
        self.0.remotes(dir)
    }
    fn declared(&self, dir: &str) -> Option<Vec<String>> {
        Explosive::check(dir);
        self.0.declared(dir)
    }
    fn home(&self) -> Option<String> {
        self.0.home()
    }
}

/// A step whose judging panics fails alone (its caller asks): the judge drops its question
/// and goes on, so no step sent to it meanwhile is lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_whose_judging_panics_fails_alone_and_the_judges_go_on() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let facts = Arc::new(Explosive(FakeFacts::repo(&[])));
    let runtime = Runtime::open(dir.path(), facts, Options::default())
        .await
        .unwrap_or_else(|e| panic!("open: {e:#}"));
    // More rounds than the pool has places: every judge is hit at least once.
    for round in 0..8 {
        let failed = runtime
            .judge("c1", bash("git push origin main"), "/boom/app")
            .await;
        assert!(
            matches!(&failed, Err(RuntimeError::Gone { part: Part::Judge })),
            "round {round}: {failed:?}"
        );
        for step in 0..4 {
            let judged = runtime.judge("c1", bash("cargo test"), CWD).await;
            assert!(
                judged
                    .as_ref()
                    .is_ok_and(|j| j.verdict.decision == Decision::Allow),
                "round {round}, step {step}: {judged:?}"
            );
        }
    }
    runtime.shutdown().await.unwrap_or_else(|e| panic!("{e:#}"));
}
