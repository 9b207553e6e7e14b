//! Operations of several events under SIGKILL: a runtime creating tasks and keeping rules
//! from answers, killed at random points. After each kill every task in the log is whole
//! (opened, with its chat's mark, listed by its chat) and every answer is whole (the rule
//! kept exactly when its question is answered), and every one acknowledged is there.
//!
//! The test binary runs itself again as the writer (`WARDEN_CRASH_OPS_WRITER` set), which
//! prints each operation once the runtime acknowledged it.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use warden::chat::{Answer, Company, Event, Mark};
use warden::facts::FakeFacts;
use warden::mode::Mode;
use warden::preferences::{Preferences, STREAM};
use warden::step::Step;
use warden_actors::runtime::{Made, Options, Runtime, RuntimeError};

const WRITER: &str = "WARDEN_CRASH_OPS_WRITER";
const ROUND: &str = "WARDEN_CRASH_OPS_ROUND";
/// Writers at once, each with chats of its own.
const LANES: usize = 2;

/// A chat's work folder: the rule its answer keeps holds there only, so each chat's rule is
/// its own in the preferences.
fn folder(chat: &str) -> String {
    format!("/w/{chat}")
}

fn mark() -> Mark {
    Mark {
        name: "a web page".to_string(),
        provenance: None,
    }
}

fn failed<T>(chat: &str, what: &str, e: &RuntimeError) -> T {
    panic!("{chat}: {what}: {e:#}")
}

/// The writer: in chat after chat, a mark, a question answered with "this one command" (a
/// rule kept), and a task; each acknowledged operation printed.
#[test]
fn ops_writer() {
    let (Some(dir), Some(round)) = (std::env::var_os(WRITER), std::env::var_os(ROUND)) else {
        return;
    };
    let round = round.to_string_lossy().into_owned();
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    tokio.block_on(async move {
        let warden = Runtime::open(
            std::path::Path::new(&dir),
            Arc::new(FakeFacts::repo(&[])),
            Options::default(),
        )
        .await
        .unwrap_or_else(|e| panic!("open: {e:#}"));
        let mut lanes = Vec::new();
        for lane in 0..LANES {
            let warden = warden.clone();
            let round = round.clone();
            lanes.push(tokio::spawn(async move {
                for i in 0u64.. {
                    let chat = format!("r{round}l{lane}c{i}");
                    warden
                        .open_chat(&chat, Mode::Auto, Company::Alone)
                        .await
                        .unwrap_or_else(|e| failed(&chat, "open", &e));
                    warden
                        .record(&chat, Event::Read { mark: mark() })
                        .await
                        .unwrap_or_else(|e| failed(&chat, "read", &e));
                    let step = Step::Command {
                        command: "git push origin feature/login".to_string(),
                    };
                    let asked = warden
                        .judge(&chat, step, &folder(&chat))
                        .await
                        .unwrap_or_else(|e| failed(&chat, "judge", &e));
                    let question = asked
                        .question
                        .filter(|_| asked.offers.rule.is_some())
                        .unwrap_or_else(|| panic!("{chat}: asks, offering its command"));
                    println!("asked {chat} {question}");
                    warden
                        .answer(&chat, question, Answer::Command)
                        .await
                        .unwrap_or_else(|e| failed(&chat, "answer", &e));
                    println!("kept {chat}");
                    let made = warden
                        .create_task(&chat, &format!("{chat}.t"), false)
                        .await
                        .unwrap_or_else(|e| failed(&chat, "task", &e));
                    assert_eq!(made, Made::Created, "{chat}");
                    println!("task {chat}");
                }
            }));
        }
        for lane in lanes {
            let _ = lane.await;
        }
    });
}

#[test]
fn tasks_and_kept_answers_are_whole_after_sigkill() {
    if std::env::var_os(WRITER).is_some() {
        return;
    }
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut asked: Vec<(String, u64)> = Vec::new();
    let mut kept: BTreeSet<String> = BTreeSet::new();
    let mut tasks: BTreeSet<String> = BTreeSet::new();
    for round in 0..3u64 {
        let mut child = Command::new(std::env::current_exe().unwrap_or_else(|e| panic!("{e}")))
            .args([
                "--exact",
                "crash::ops::ops_writer",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env(WRITER, dir.path())
            .env(ROUND, round.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn the writer: {e}"));
        let stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
        let kill_after = 30 + (round * 7919 + u64::from(std::process::id())) % 120;
        let started = Instant::now();
        let mut seen = 0;
        for line in BufReader::new(stdout).lines() {
            let line = line.unwrap_or_else(|e| panic!("{e}"));
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["asked", chat, question] => asked.push((
                    chat.to_string(),
                    question.parse().unwrap_or_else(|e| panic!("{line}: {e}")),
                )),
                ["kept", chat] => {
                    kept.insert(chat.to_string());
                }
                ["task", chat] => {
                    tasks.insert(chat.to_string());
                }
                _ => continue,
            }
            seen += 1;
            if seen >= kill_after || started.elapsed() > Duration::from_secs(20) {
                break;
            }
        }
        child.kill().unwrap_or_else(|e| panic!("SIGKILL: {e}"));
        let _ = child.wait();
        assert!(!tasks.is_empty(), "round {round}: the writer made no task");
        verify(dir.path(), &asked, &kept, &tasks);
    }
}

/// Every question asked is whole with its answer; every task is whole; all acknowledged.
fn verify(
    dir: &std::path::Path,
    asked: &[(String, u64)],
    kept: &BTreeSet<String>,
    tasks: &BTreeSet<String>,
) {
    let log = super::open_after_crash(dir);
    let mut preferences = Preferences::default();
    for entry in log.records(STREAM).unwrap_or_else(|e| panic!("{e}")) {
        let entry = entry.unwrap_or_else(|e| panic!("{e}"));
        let record = entry
            .record
            .unwrap_or_else(|e| panic!("a torn record: {e}"));
        preferences.apply(&record);
    }
    for (chat, question) in asked {
        let replayed = log.chat(chat).unwrap_or_else(|e| panic!("{chat}: {e}"));
        assert_eq!(replayed.skipped, 0, "{chat}");
        let answered = !replayed.state.pending.contains_key(question);
        let rule = preferences
            .auto_rules
            .iter()
            .any(|rule| rule.cwd.as_deref() == Some(folder(chat).as_str()));
        assert_eq!(
            answered, rule,
            "{chat}: question {question} answered {answered}, its rule kept {rule}: torn"
        );
        if kept.contains(chat) {
            assert!(
                answered,
                "{chat}: the answer was acknowledged and is not in the log"
            );
        }
    }
    for chat in log.chats().map(|c| c.unwrap_or_else(|e| panic!("{e}"))) {
        let Some(parent) = chat.strip_suffix(".t") else {
            continue;
        };
        let task = log.chat(&chat).unwrap_or_else(|e| panic!("{e}")).state;
        let listed = log
            .chat(parent)
            .unwrap_or_else(|e| panic!("{e}"))
            .state
            .tasks
            .contains(&chat);
        assert!(
            listed && task.parent.as_deref() == Some(parent) && task.marks.contains(&mark()),
            "{chat}: torn (listed by its chat {listed}): {task:?}"
        );
    }
    for parent in tasks {
        let chat = format!("{parent}.t");
        let task = log.chat(&chat).unwrap_or_else(|e| panic!("{e}")).state;
        assert!(task.events > 0, "{chat}: acknowledged and not in the log");
    }
    // A chat lists a task only when the task is there.
    for chat in log.chats().map(|c| c.unwrap_or_else(|e| panic!("{e}"))) {
        let state = log.chat(&chat).unwrap_or_else(|e| panic!("{e}")).state;
        for task in state.tasks {
            let there = log.chat(&task).unwrap_or_else(|e| panic!("{e}")).state;
            assert!(
                there.events > 0,
                "{chat} lists {task}, which is not in the log"
            );
        }
    }
}
