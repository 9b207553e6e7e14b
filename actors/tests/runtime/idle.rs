//! An idle chat held as its state alone: its actor stopped after `active`, its next message
//! starts another from that state, and nothing it decides changes for it.

use super::{CWD, bash, decision, eventually, facts, read};
use std::path::Path;
use std::time::Duration;
use warden::chat::{Answer, ChatState, Event};
use warden::verdict::Decision;
use warden_actors::runtime::{InMemory, Options, Runtime};

/// A chat stays in memory for ten minutes, and keeps its actor for `active`.
async fn open(dir: &Path, active: Duration) -> Runtime {
    open_for(dir, Duration::from_secs(600), active).await
}

async fn open_for(dir: &Path, idle: Duration, active: Duration) -> Runtime {
    Runtime::open(
        dir,
        facts(),
        Options {
            idle,
            active,
            ..Options::default()
        },
    )
    .await
    .unwrap_or_else(|e| panic!("open: {e:#}"))
}

async fn in_memory(runtime: &Runtime) -> InMemory {
    runtime
        .chats_in_memory()
        .await
        .unwrap_or_else(|e| panic!("{e:#}"))
}

async fn state(runtime: &Runtime, chat: &str) -> ChatState {
    runtime
        .state(chat)
        .await
        .unwrap_or_else(|e| panic!("{chat}: {e:#}"))
}

/// Stops the runtime, opens its log again, and checks that the log gives each chat the state
/// that was held for it.
async fn the_log_says(runtime: Runtime, dir: &Path, held: Vec<(&str, ChatState)>) {
    runtime.shutdown().await.unwrap_or_else(|e| panic!("{e:#}"));
    // The log is let go with the last handle on it.
    drop(runtime);
    let runtime = open(dir, Duration::from_secs(60)).await;
    for (chat, held) in held {
        assert_eq!(
            state(&runtime, chat).await,
            held,
            "{chat}: what was held is what the log says"
        );
    }
    runtime.shutdown().await.unwrap_or_else(|e| panic!("{e:#}"));
}

/// Waits until every chat in memory is idle (no actor), `n` of them.
async fn all_idle(runtime: &Runtime, n: usize) {
    eventually("the chats to stop their actors", || async {
        in_memory(runtime).await == InMemory { actors: 0, idle: n }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_chat_keeps_its_words_marks_questions_and_kept_answers() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let runtime = open(dir.path(), Duration::from_millis(100)).await;
    let ok = |r: Result<(), _>| {
        r.unwrap_or_else(|e: warden_actors::runtime::RuntimeError| panic!("{e:#}"))
    };
    ok(runtime
        .record(
            "c1",
            Event::Said {
                text: "push it".into(),
            },
        )
        .await);
    ok(runtime.record("c1", read("a web page")).await);
    ok(runtime.record("c2", read("a web page")).await);
    let asked = runtime
        .judge("c2", bash("git push origin main"), CWD)
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(
        asked.verdict.decision,
        Decision::Ask,
        "{}",
        asked.verdict.reason
    );
    let question = asked.question.unwrap_or_else(|| panic!("it asks"));
    let before = (state(&runtime, "c1").await, state(&runtime, "c2").await);
    all_idle(&runtime, 2).await;
    let after = (state(&runtime, "c1").await, state(&runtime, "c2").await);
    assert_eq!(before, after, "an actor started from what was held");
    all_idle(&runtime, 2).await;
    assert_eq!(
        decision(&runtime, "c1", "git push origin main").await,
        Decision::Allow,
        "its words were held"
    );
    // The question asked before it was idle is still waiting, and what its answer keeps holds.
    ok(runtime.answer("c2", question, Answer::Always).await);
    all_idle(&runtime, 2).await;
    assert_eq!(
        decision(&runtime, "c2", "git push origin main").await,
        Decision::Allow,
        "the kept answer was held"
    );
    let held = state(&runtime, "c2").await;
    the_log_says(runtime, dir.path(), vec![("c2", held)]).await;
}

/// Messages that come while a chat stops its actor, again and again, are none of them lost
/// and come in their order: each is answered by the actor that took it, or refused unread and
/// sent again to the next one, which starts from what the stopped one handed back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_while_a_chat_stops_its_actor_are_kept_in_order() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // Stopped after 10 ms with nothing to do, swept every 50 ms: most gaps below stop it.
    let runtime = open(dir.path(), Duration::from_millis(10)).await;
    let mut said = Vec::new();
    let mut writers = Vec::new();
    for n in 0..60u64 {
        let text = format!("message {n}");
        said.push(text.clone());
        // One caller in order in c1; in c2, eight at once, arriving as c2 may be stopping.
        runtime
            .record("c1", Event::Said { text })
            .await
            .unwrap_or_else(|e| panic!("{n}: {e:#}"));
        for k in 0..8u64 {
            let other = runtime.clone();
            writers.push(tokio::spawn(async move {
                tokio::time::sleep(Duration::from_micros(k * 700)).await;
                other.record("c2", read(&format!("page {n} {k}"))).await
            }));
        }
        tokio::time::sleep(Duration::from_millis(n % 7 * 9)).await;
    }
    for (n, writer) in writers.into_iter().enumerate() {
        writer
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|e| panic!("c2 {n}: {e:#}"));
    }
    let c1 = state(&runtime, "c1").await;
    assert_eq!(c1.said, said, "every message, in its order");
    let c2 = state(&runtime, "c2").await;
    assert_eq!(c2.marks.len(), 60 * 8, "every mark");
    the_log_says(runtime, dir.path(), vec![("c1", c1), ("c2", c2)]).await;
}

/// A task reaches its parent for what it starts from and for its ceiling (the parent's live
/// mode) while the parent stops its actor over and over: no task creation fails, and no step
/// asks because the parent was caught stopping (a parent out of reach is read as ask-first).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tasks_reach_a_parent_that_stops_its_actor_over_and_over() {
    use warden::chat::Company;
    use warden::mode::Mode;
    use warden_actors::runtime::Made;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let runtime = open(dir.path(), Duration::from_millis(10)).await;
    runtime
        .open_chat("c1", Mode::Auto, Company::Alone)
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    // Four callers, each with gaps from 0 to 60 ms: the parent is often idle past `active`
    // and stopping when a task's message comes.
    let mut callers = Vec::new();
    for caller in 0..4u64 {
        let runtime = runtime.clone();
        callers.push(tokio::spawn(async move {
            let mut seen = Vec::new();
            for n in 0..40u64 {
                tokio::time::sleep(Duration::from_millis((n * 7 + caller * 3) % 13 * 5)).await;
                let task = format!("t{caller}-{n}");
                let made = runtime.create_task("c1", &task, false).await;
                let decided = decision(&runtime, &task, "cargo test").await;
                seen.push((task, made, decided));
            }
            seen
        }));
    }
    for caller in callers {
        for (task, made, decided) in caller.await.unwrap_or_else(|e| panic!("{e}")) {
            assert!(matches!(made, Ok(Made::Created)), "{task}: {made:?}");
            assert_eq!(decided, Decision::Allow, "{task}: its ceiling is c1's auto");
        }
    }
    assert_eq!(state(&runtime, "c1").await.tasks.len(), 160);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_chat_leaves_memory_after_idle_and_a_chat_with_nothing_is_not_held() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let runtime = open_for(
        dir.path(),
        Duration::from_millis(600),
        Duration::from_millis(100),
    )
    .await;
    runtime
        .record("c1", read("a web page"))
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    // Asked about, never written: nothing to hold once its actor stops.
    assert_eq!(state(&runtime, "c0").await.events, 0);
    all_idle(&runtime, 1).await;
    eventually("the idle chat to leave memory", || async {
        in_memory(&runtime).await.total() == 0
    })
    .await;
    assert_eq!(
        state(&runtime, "c1").await.marks.len(),
        1,
        "back from the log"
    );
    runtime.shutdown().await.unwrap_or_else(|e| panic!("{e:#}"));
}
