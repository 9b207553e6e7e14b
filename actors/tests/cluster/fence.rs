//! The runtime's writes fenced in the log, two nodes in one process on one `nats-server`
//! (`docs/cluster.md`, "The fence"): node `a` serves a chat, node `b` takes it over
//! (`Runtime::take_over`, what a node does once it holds the chat's lease) and writes it; `a`'s
//! next write of it, from what it held, is refused by its fence, told to the cluster before it
//! is answered, and nothing of it is stored. `a` then reads the chat again from the log and
//! writes from there, and `b`, now behind, is refused in turn.

use crate::common::nats::NatsServer;
use std::sync::{Arc, Mutex, PoisonError};
use warden::chat::{Company, Event};
use warden::facts::FakeFacts;
use warden::mode::Mode;
use warden_actors::runtime::{Options, Runtime, RuntimeError, WriteError};
use warden_storage::jetstream::Settings;
use warden_storage::{Engine, EventLog};

/// What the cluster was told: the chats whose writes were fenced.
type Told = Arc<Mutex<Vec<String>>>;

async fn node(id: &str, settings: &Settings, dir: &std::path::Path, told: &Told) -> Runtime {
    let told = Arc::clone(told);
    Runtime::open(
        dir,
        Arc::new(FakeFacts::unknown()),
        Options {
            log_engine: Engine::JetStream(settings.clone()),
            log_node: Some(id.to_string()),
            gate: Some(Arc::new(|_: &str| true)),
            fenced: Some(Arc::new(move |chat: &str| {
                told.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(chat.to_string());
            })),
            ..Options::default()
        },
    )
    .await
    .unwrap_or_else(|e| panic!("node {id}: {e:#}"))
}

fn told(told: &Told) -> Vec<String> {
    told.lock().unwrap_or_else(PoisonError::into_inner).clone()
}

/// The notes of chat `c1`'s records in the stream, as a third reader sees them.
fn notes(settings: &Settings) -> Vec<String> {
    let log = EventLog::open_jetstream_as(settings, Some("reader"))
        .unwrap_or_else(|e| panic!("the log: {e}"));
    log.records("c1")
        .unwrap_or_else(|e| panic!("c1: {e}"))
        .filter_map(|entry| match entry.ok()?.record.ok()?.event {
            Event::Said { text } => Some(text),
            _ => None,
        })
        .collect()
}

fn said(text: &str) -> Event {
    Event::Said {
        text: text.to_string(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_whose_chat_was_taken_over_is_fenced_and_stores_nothing() {
    let Some(nats) = NatsServer::start().unwrap_or_else(|e| panic!("nats-server: {e}")) else {
        return;
    };
    let settings = Settings {
        url: nats.url(),
        stream: "fence1".to_string(),
        replicas: 1,
    };
    let (dir_a, dir_b) = (
        tempfile::tempdir().unwrap_or_else(|e| panic!("{e}")),
        tempfile::tempdir().unwrap_or_else(|e| panic!("{e}")),
    );
    let (told_a, told_b) = (Told::default(), Told::default());
    let a = node("a", &settings, dir_a.path(), &told_a).await;
    let b = node("b", &settings, dir_b.path(), &told_b).await;

    a.open_chat("c1", Mode::Auto, Company::Alone)
        .await
        .unwrap_or_else(|e| panic!("a opens c1: {e}"));
    a.record("c1", said("one, by a"))
        .await
        .unwrap_or_else(|e| panic!("a writes c1: {e}"));
    // `b` takes c1 over (it holds the lease now, in a cluster) and writes it.
    b.take_over(vec!["c1".to_string()])
        .await
        .unwrap_or_else(|e| panic!("b takes c1 over: {e}"));
    b.record("c1", said("two, by b"))
        .await
        .unwrap_or_else(|e| panic!("b writes c1: {e}"));
    assert_eq!(
        b.state("c1").await.unwrap_or_else(|e| panic!("{e}")).mode,
        Mode::Auto,
        "b's state is the chat as a left it"
    );
    // `a` still holds c1 as it wrote it: its write from there is refused by its fence.
    let refused = a.record("c1", said("three, by a, refused")).await;
    match &refused {
        Err(RuntimeError::Write(WriteError::Fenced { chat, .. })) => assert_eq!(chat, "c1"),
        other => panic!("a's write after b's takeover: {other:?}"),
    }
    let message = refused.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message.contains("another warden node"), "{message}");
    assert_eq!(told(&told_a), ["c1"], "the cluster told before the answer");
    assert!(told(&told_b).is_empty());
    assert_eq!(
        notes(&settings),
        ["one, by a", "two, by b"],
        "nothing of it stored"
    );
    // The chat was let go: `a`'s next write reads it again from the log (b's write included)
    // and is fenced from there.
    a.record("c1", said("four, by a"))
        .await
        .unwrap_or_else(|e| panic!("a writes c1 again: {e}"));
    let state = a.state("c1").await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(state.said.len(), 3, "{:?}", state.said);
    // Now `b` is the one behind.
    let refused = b.record("c1", said("five, by b, refused")).await;
    assert!(
        matches!(refused, Err(RuntimeError::Write(WriteError::Fenced { .. }))),
        "{refused:?}"
    );
    assert_eq!(told(&told_b), ["c1"]);
    assert_eq!(
        notes(&settings),
        ["one, by a", "two, by b", "four, by a"],
        "every acknowledged write once, no refused one"
    );
    for runtime in [a, b] {
        runtime
            .shutdown()
            .await
            .unwrap_or_else(|e| panic!("shutdown: {e}"));
    }
}
