//! One operation, one write: the runtime's operations against crash points between any two
//! of the log's writes. A model of a short session (a chat opened, words, a mark, two
//! questions answered with what they keep, a task created, rules forgotten) runs with the
//! log's writer told to crash before its n-th write, or after it and before its answer (the
//! acknowledgement lost), for every n. Each time the runtime is opened again from the log:
//! every operation is whole or absent (never a rule in force while its question waits, never
//! a task without its chat's marks), every acknowledged one is there, and the retry of the
//! one in flight succeeds, after which the session ends as it does without a crash.
//!
//! Also: task creation is idempotent for a retry and refused for another chat or scope; a
//! task or an answer that an older warden wrote in part is completed by its retry; a writer
//! that dies fails every judge request.

use super::{CWD, bash, facts, open, read};
use std::path::Path;
use std::time::Duration;
use warden::chat::{Answer, ChatState, Company, Event, Kept, Mark, Record};
use warden::mode::Mode;
use warden::preferences::{Preferences, STREAM};
use warden::rules::AutoRule;
use warden::verdict::Decision;
use warden_actors::runtime::{Fault, Made, Options, Runtime, RuntimeError, Standing};
use warden_storage::EventLog;

const IDLE: Duration = Duration::from_secs(60);
const NOTE: &str = "I work on acme/app.";

/// The session's operations, in order.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Open,
    Said,
    Read,
    /// A push of a feature branch after reading: asks, offering its one command.
    AskRule,
    /// "This one command": the rule kept with the answer.
    KeepRule,
    /// A push to main after reading: asks, offering Always allow.
    AskAlways,
    /// "Always allow" in this chat: the class lifted with the answer.
    KeepAlways,
    Task,
    /// The rule forgotten and a note set, as one change of the preferences.
    Forget,
}

const SESSION: [Op; 9] = [
    Op::Open,
    Op::Said,
    Op::Read,
    Op::AskRule,
    Op::KeepRule,
    Op::AskAlways,
    Op::KeepAlways,
    Op::Task,
    Op::Forget,
];

/// What the session learned as it went: the questions it was given.
#[derive(Debug, Default)]
struct Known {
    rule_question: Option<u64>,
    always_question: Option<u64>,
    rule: Option<AutoRule>,
}

fn mark() -> Mark {
    Mark {
        name: "GitHub content".to_string(),
        provenance: None,
    }
}

fn push() -> Kept {
    Kept {
        tool: "Bash".to_string(),
        class: "git.push".to_string(),
    }
}

/// Runs one operation.
async fn run(runtime: &Runtime, op: Op, known: &mut Known) -> anyhow::Result<()> {
    match op {
        Op::Open => Ok(runtime.open_chat("c1", Mode::Auto, Company::Alone).await?),
        Op::Said => {
            let text = "fix the login page".to_string();
            Ok(runtime.record("c1", Event::Said { text }).await?)
        }
        Op::Read => Ok(runtime.record("c1", read("GitHub content")).await?),
        Op::AskRule => {
            let judged = runtime
                .judge("c1", bash("git push origin feature/login"), CWD)
                .await?;
            anyhow::ensure!(judged.verdict.decision == Decision::Ask, "{judged:?}");
            known.rule = judged.offers.rule.clone();
            known.rule_question = judged.question;
            anyhow::ensure!(known.rule.is_some() && known.rule_question.is_some());
            Ok(())
        }
        Op::KeepRule => {
            let question = known.rule_question.unwrap_or_default();
            Ok(runtime.answer("c1", question, Answer::Command).await?)
        }
        Op::AskAlways => {
            let judged = runtime
                .judge("c1", bash("git push origin main"), CWD)
                .await?;
            anyhow::ensure!(judged.offers.always, "{judged:?}");
            known.always_question = judged.question;
            Ok(())
        }
        Op::KeepAlways => {
            let question = known.always_question.unwrap_or_default();
            Ok(runtime.answer("c1", question, Answer::Always).await?)
        }
        Op::Task => match runtime.create_task("c1", "t1", false).await? {
            Made::Created | Made::Already => Ok(()),
        },
        Op::Forget => {
            let rule = known.rule.clone().unwrap_or_else(|| panic!("no rule"));
            Ok(runtime
                .prefer_all(vec![
                    Event::RuleKept { rule, kept: false },
                    Event::NoteChanged {
                        note: NOTE.to_string(),
                    },
                ])
                .await?)
        }
    }
}

/// The log as the runtime reads it back: c1, t1 and the preferences.
struct Found {
    c1: ChatState,
    t1: ChatState,
    preferences: Preferences,
}

async fn found(runtime: &Runtime) -> Found {
    let state = |chat: &'static str| async move {
        runtime
            .state(chat)
            .await
            .unwrap_or_else(|e| panic!("{chat}: {e:#}"))
    };
    Found {
        c1: state("c1").await,
        t1: state("t1").await,
        preferences: runtime
            .preferences()
            .await
            .unwrap_or_else(|e| panic!("{e:#}")),
    }
}

/// Whether an operation is in the log, whole (`None`: a question asked, which leaves nothing
/// to hold it to); a torn one fails here, naming what is missing.
fn landed(op: Op, found: &Found, known: &Known, at: &str) -> Option<bool> {
    let Found {
        c1,
        t1,
        preferences,
    } = found;
    let pending = |question: Option<u64>| question.is_some_and(|q| c1.pending.contains_key(&q));
    let parts: Vec<(&str, bool)> = match op {
        Op::Open => vec![("c1 opened", c1.events > 0)],
        Op::Said => vec![("the words", !c1.said.is_empty())],
        Op::Read => vec![("the mark", c1.marks.contains(&mark()))],
        Op::AskRule | Op::AskAlways => return None,
        Op::KeepRule => {
            // Never sent before the question it answers was given out.
            let Some(rule) = known.rule.clone() else {
                return Some(false);
            };
            vec![
                // Forgotten later by Forget, which holds it only after this landed.
                (
                    "the rule kept",
                    preferences.auto_rules.contains(&rule) || preferences.note == NOTE,
                ),
                ("the question answered", !pending(known.rule_question)),
            ]
        }
        Op::KeepAlways if known.always_question.is_none() => return Some(false),
        Op::KeepAlways => vec![
            ("the class kept in c1", c1.kept.contains(&push())),
            (
                "the class noted as lifted",
                preferences.lifted.contains(&push()),
            ),
            ("the question answered", !pending(known.always_question)),
        ],
        Op::Task => vec![
            ("t1 opened as c1's task", t1.parent.as_deref() == Some("c1")),
            ("t1 inherited c1's mark", t1.marks.contains(&mark())),
            ("t1 inherited c1's words", !t1.inherited.is_empty()),
            ("c1 lists t1 once", c1.tasks == ["t1"]),
        ],
        Op::Forget => {
            let Some(rule) = known.rule.clone() else {
                return Some(false);
            };
            // A rule never kept is not forgotten: only the note says the change landed.
            let noted = preferences.note == NOTE;
            let forgotten = !preferences.auto_rules.contains(&rule);
            assert!(
                !noted || forgotten,
                "{at}: Forget is torn: the note set, the rule still kept"
            );
            return Some(noted);
        }
    };
    let there = parts.iter().filter(|(_, yes)| *yes).count();
    assert!(
        there == 0 || there == parts.len(),
        "{at}: {op:?} is torn: {parts:?}"
    );
    Some(there == parts.len())
}

/// Runs the session with the writer told to `fault`; reopens; checks; retries and finishes.
/// Whether the fault fell inside the session.
async fn crash_at(fault: Fault) -> bool {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let at = format!("{fault:?}");
    let mut known = Known::default();
    let mut failed = None;
    {
        let runtime = open(dir.path(), IDLE).await;
        runtime.inject(fault);
        for (i, op) in SESSION.iter().enumerate() {
            if let Err(e) = run(&runtime, *op, &mut known).await {
                let text = format!("{e:#}");
                assert!(
                    text.contains("the event log's writer stopped"),
                    "{at}: {op:?} failed otherwise: {text}"
                );
                failed = Some(i);
                break;
            }
        }
        let shutdown = runtime.shutdown().await;
        match failed {
            None => assert!(shutdown.is_ok(), "{at}: {shutdown:?}"),
            // INVARIANT: a stop never claims a flush that failed.
            Some(_) => assert!(
                shutdown
                    .as_ref()
                    .is_err_and(|e| e.to_string().contains("could not be flushed at shutdown")),
                "{at}: the shutdown after the writer died says so: {shutdown:?}"
            ),
        }
    }
    let Some(failed) = failed else {
        return false;
    };
    let runtime = open(dir.path(), IDLE).await;
    let after = found(&runtime).await;
    for (i, op) in SESSION.iter().enumerate() {
        let Some(there) = landed(*op, &after, &known, &at) else {
            continue;
        };
        if i < failed {
            assert!(there, "{at}: {op:?} was acknowledged and is not in the log");
        } else if i > failed {
            assert!(!there, "{at}: {op:?} was never sent and is in the log");
        }
    }
    // The retry of the operation in flight, then the rest of the session.
    for op in &SESSION[failed..] {
        let answered = match op {
            Op::KeepRule => known.rule_question,
            Op::KeepAlways => known.always_question,
            _ => None,
        }
        .is_some_and(|q| !after.c1.pending.contains_key(&q));
        if *op == SESSION[failed] && answered {
            // It landed with its acknowledgement lost: the question is answered, and
            // answering it again is refused as answering nothing.
            continue;
        }
        run(&runtime, *op, &mut known)
            .await
            .unwrap_or_else(|e| panic!("{at}: the retry of {op:?}: {e:#}"));
    }
    let done = found(&runtime).await;
    for op in SESSION {
        assert_ne!(
            landed(op, &done, &known, &at),
            Some(false),
            "{at}: {op:?} is missing at the end"
        );
    }
    // Every question given out was answered; one whose answer was lost with the crash
    // (asked, never given out) may wait, nothing else.
    assert!(
        done.c1
            .pending
            .keys()
            .all(|q| after.c1.pending.contains_key(q)
                && Some(*q) != known.rule_question
                && Some(*q) != known.always_question),
        "{at}: {:?}",
        done.c1.pending
    );
    runtime
        .shutdown()
        .await
        .unwrap_or_else(|e| panic!("{at}: {e:#}"));
    true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_is_whole_or_absent_at_every_crash_point_and_its_retry_succeeds() {
    let mut points = 0;
    for n in 0.. {
        let before = crash_at(Fault::PanicBeforeWrite(n)).await;
        let after = crash_at(Fault::PanicBeforeAnswer(n)).await;
        assert_eq!(
            before, after,
            "write {n}: one fault fell in the session, not the other"
        );
        if !before {
            break;
        }
        points += 1;
    }
    assert_eq!(
        points,
        SESSION.len(),
        "one write per operation: as many crash points as operations"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_task_creation_is_made_once_and_another_chat_or_scope_is_refused() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let runtime = open(dir.path(), IDLE).await;
    for chat in ["c1", "c2"] {
        runtime
            .open_chat(chat, Mode::Auto, Company::Alone)
            .await
            .unwrap_or_else(|e| panic!("{e:#}"));
    }
    let made = |chat: &'static str, task: &'static str, scoped: bool| {
        let runtime = runtime.clone();
        async move { runtime.create_task(chat, task, scoped).await }
    };
    assert_eq!(made("c1", "t1", false).await.ok(), Some(Made::Created));
    assert_eq!(
        made("c1", "t1", false).await.ok(),
        Some(Made::Already),
        "a retry"
    );
    let taken = [
        (made("c1", "t1", true).await, "t1", "a task of `c1`"),
        (made("c2", "t1", false).await, "t1", "a task of `c1`"),
        (made("c1", "c2", false).await, "c2", "a chat of its own"),
    ];
    for (made, id, as_what) in taken {
        match made {
            Err(RuntimeError::Taken { task, what }) => {
                assert_eq!((task.as_str(), what.as_str()), (id, as_what));
            }
            other => panic!("`{id}` taken as {as_what}: {other:?}"),
        }
    }
    let c1 = runtime
        .state("c1")
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(c1.tasks, ["t1"], "one TaskCreated for two creations");
    let c2 = runtime
        .state("c2")
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert!(c2.tasks.is_empty() && c2.parent.is_none(), "{c2:?}");
    let t1 = runtime
        .state("t1")
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!((t1.events, t1.scoped), (2, false), "{t1:?}");
    assert!(
        matches!(
            runtime.create_task("c1", "c1", false).await,
            Err(RuntimeError::OwnId { chat }) if chat == "c1"
        ),
        "a chat is not its own task"
    );
    runtime.shutdown().await.unwrap_or_else(|e| panic!("{e:#}"));
}

/// Writes records straight into a closed log, as an older warden did.
fn write_raw(dir: &Path, items: &[(&str, Event)]) {
    let log = EventLog::open(dir).unwrap_or_else(|e| panic!("{e}"));
    for (chat, event) in items {
        let record = Record {
            at_ms: 1,
            event: event.clone(),
        };
        log.append(chat, &record).unwrap_or_else(|e| panic!("{e}"));
    }
    log.flush().unwrap_or_else(|e| panic!("{e}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_an_older_warden_cut_short_is_completed_by_its_retry() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // The first of the three writes an older warden made one at a time, then a crash: a
    // task without its chat's mark, which its chat doesn't list.
    write_raw(
        dir.path(),
        &[
            (
                "c1",
                Event::Opened {
                    mode: Mode::Auto,
                    company: Company::Alone,
                    parent: None,
                    scoped: false,
                },
            ),
            ("c1", read("GitHub content")),
            (
                "t1",
                Event::Opened {
                    mode: Mode::Auto,
                    company: Company::Task,
                    parent: Some("c1".into()),
                    scoped: false,
                },
            ),
        ],
    );
    let runtime = open(dir.path(), IDLE).await;
    let decision = |chat: &'static str| {
        let runtime = runtime.clone();
        async move {
            runtime
                .judge(chat, bash("git push origin feature/x"), CWD)
                .await
                .unwrap_or_else(|e| panic!("{e:#}"))
                .verdict
                .decision
        }
    };
    assert_eq!(
        decision("c1").await,
        Decision::Ask,
        "the chat read something"
    );
    assert_eq!(
        decision("t1").await,
        Decision::Allow,
        "the torn task doesn't carry its chat's mark: what the retry mends"
    );
    let made = runtime
        .create_task("c1", "t1", false)
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(
        made,
        Made::Already,
        "the retry is not refused as existing already"
    );
    assert_eq!(
        decision("t1").await,
        Decision::Ask,
        "the task carries the mark now"
    );
    let made = runtime
        .create_task("c1", "t1", false)
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(made, Made::Already);
    let c1 = runtime
        .state("c1")
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(c1.tasks, ["t1"], "listed once, after two retries");
    runtime.shutdown().await.unwrap_or_else(|e| panic!("{e:#}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_an_older_warden_cut_short_is_whole_after_its_retry() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (question, rule) = {
        let runtime = open(dir.path(), IDLE).await;
        runtime
            .record("c1", read("a web page"))
            .await
            .unwrap_or_else(|e| panic!("{e:#}"));
        let judged = runtime
            .judge("c1", bash("git push origin feature/login"), CWD)
            .await
            .unwrap_or_else(|e| panic!("{e:#}"));
        runtime.shutdown().await.unwrap_or_else(|e| panic!("{e:#}"));
        (
            judged.question.unwrap_or_else(|| panic!("asks")),
            judged
                .offers
                .rule
                .unwrap_or_else(|| panic!("offers a rule")),
        )
    };
    // An older warden kept the rule first and recorded the answer second; a crash between.
    write_raw(
        dir.path(),
        &[(
            STREAM,
            Event::RuleKept {
                rule: rule.clone(),
                kept: true,
            },
        )],
    );
    let runtime = open(dir.path(), IDLE).await;
    let c1 = runtime
        .state("c1")
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert!(
        c1.pending.contains_key(&question),
        "the question still waits"
    );
    runtime
        .answer("c1", question, Answer::Command)
        .await
        .unwrap_or_else(|e| panic!("the retry: {e:#}"));
    let c1 = runtime
        .state("c1")
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert!(c1.pending.is_empty(), "{:?}", c1.pending);
    let preferences = runtime
        .preferences()
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(preferences.auto_rules, [rule], "kept once");
    runtime.shutdown().await.unwrap_or_else(|e| panic!("{e:#}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_writer_that_dies_fails_every_judge_request_and_says_why() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let runtime = Runtime::open(dir.path(), facts(), Options::default())
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    runtime
        .record("c1", read("a web page"))
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(runtime.log_standing(), Standing::Writing);
    runtime.inject(Fault::PanicBeforeWrite(0));
    // A question waits for the writer (a routine step's record is handed over and not waited
    // for): the writer dies instead of writing it.
    let Err(e) = runtime
        .judge("c1", bash("git push --force origin main"), CWD)
        .await
    else {
        panic!("judged with a dead writer")
    };
    let text = format!("{e:#}");
    assert!(text.contains("the event log's writer panicked"), "{text}");
    let why = tokio::time::timeout(Duration::from_secs(10), runtime.writer_stopped())
        .await
        .unwrap_or_else(|_| panic!("the writer's death was never said"));
    assert!(why.contains("warden stops"), "{why}");
    assert!(matches!(runtime.log_standing(), Standing::Stopped(_)));
    // Nothing is judged any more, not even a look that records nothing: the caller asks.
    for judged in [
        runtime.judge("c1", bash("ls"), CWD).await,
        runtime.peek("c1", bash("ls"), CWD).await,
        runtime.judge("c2", bash("ls"), CWD).await,
    ] {
        let Err(e) = judged else {
            panic!("a verdict with a dead writer: {judged:?}")
        };
        assert!(
            format!("{e:#}").contains("the event log can't be written"),
            "{e:#}"
        );
    }
    assert!(
        runtime.record("c1", read("another page")).await.is_err(),
        "nothing is recorded either"
    );
    let shutdown = runtime.shutdown().await;
    assert!(
        shutdown
            .as_ref()
            .is_err_and(|e| format!("{e:#}").contains("panicked")),
        "{shutdown:?}"
    );
}
