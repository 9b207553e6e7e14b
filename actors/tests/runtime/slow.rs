//! A chat slow to read from the log (on JetStream, a server gone and its streams electing a
//! leader) holds up nothing but itself: the supervisor reads it off its own handler, every
//! other chat is served meanwhile, requests for it wait on that one read for a bounded time,
//! and a read whose chat was let go meanwhile is not held. The log's read of one chat is
//! made slow by a double of the read (`Options::replay`) that waits until the test lets it
//! go: this is about ordering inside the runtime, not about the log.

use super::{CWD, bash, facts, read};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::{Duration, Instant};
use warden::verdict::Decision;
use warden_actors::runtime::{Options, Replay, Runtime, RuntimeError};

/// The chat whose read waits.
const SLOW: &str = "slow";

/// The double of the log's read: `SLOW`'s read says it began (on `began`) and waits until
/// the test sends on the gate (or a minute passes); every read is counted by chat.
struct Slow {
    began: tokio::sync::mpsc::UnboundedReceiver<()>,
    gate: mpsc::Sender<()>,
    reads: Arc<Mutex<HashMap<String, usize>>>,
    replay: Replay,
}

impl Slow {
    fn new() -> Slow {
        let (began_tx, began) = tokio::sync::mpsc::unbounded_channel();
        let (gate, gate_rx) = mpsc::channel::<()>();
        let gate_rx = Mutex::new(gate_rx);
        let reads = Arc::new(Mutex::new(HashMap::new()));
        let counted = Arc::clone(&reads);
        let replay: Replay = Arc::new(move |log, chat| {
            *counted
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .entry(chat.to_string())
                .or_insert(0) += 1;
            if chat == SLOW {
                let _ = began_tx.send(());
                let _ = gate_rx
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .recv_timeout(Duration::from_secs(60));
            }
            log.chat(chat)
        });
        Slow {
            began,
            gate,
            reads,
            replay,
        }
    }

    /// Waits until `SLOW`'s read began.
    async fn began(&mut self) {
        tokio::time::timeout(Duration::from_secs(10), self.began.recv())
            .await
            .unwrap_or_else(|_| panic!("the slow read did not begin within 10 s"));
    }

    /// Lets one read of `SLOW` go on.
    fn release(&self) {
        let _ = self.gate.send(());
    }

    fn reads(&self, chat: &str) -> usize {
        self.reads
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(chat)
            .copied()
            .unwrap_or(0)
    }
}

/// Writes a mark in `SLOW` and in `other`, then closes the runtime: nothing is in memory for
/// the next one.
async fn written(dir: &Path, other: &str) {
    let runtime = Runtime::open(dir, facts(), Options::default())
        .await
        .unwrap_or_else(|e| panic!("open: {e:#}"));
    for chat in [SLOW, other] {
        runtime
            .record(chat, read(&format!("{chat}.md")))
            .await
            .unwrap_or_else(|e| panic!("{chat}: {e:#}"));
    }
    runtime
        .shutdown()
        .await
        .unwrap_or_else(|e| panic!("shutdown: {e:#}"));
}

async fn open_slow(dir: &Path, slow: &Slow, load_wait: Duration) -> Runtime {
    Runtime::open(
        dir,
        facts(),
        Options {
            replay: Some(Arc::clone(&slow.replay)),
            load_wait,
            ..Options::default()
        },
    )
    .await
    .unwrap_or_else(|e| panic!("open: {e:#}"))
}

fn marks(state: &warden::chat::ChatState) -> Vec<&str> {
    state.marks.iter().map(|m| m.name.as_str()).collect()
}

/// Before the read went off the supervisor's handler, the supervisor waited in the slow read
/// and every chat brought into memory meanwhile waited behind it: here, until the runtime's
/// 10 s bound on a call (`the supervisor did not answer within 10s`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_slow_to_read_holds_up_no_other_chat() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    written(dir.path(), "fast").await;
    let mut slow = Slow::new();
    let runtime = open_slow(dir.path(), &slow, Duration::from_secs(30)).await;
    // Three requests for the slow chat at once: they wait on one read.
    let waiting: Vec<_> = (0..3)
        .map(|_| {
            let runtime = runtime.clone();
            tokio::spawn(async move { runtime.state(SLOW).await })
        })
        .collect();
    slow.began().await;

    // Meanwhile another chat of the log, and a new one, are read, judged and written.
    let asked = Instant::now();
    let fast = runtime
        .state("fast")
        .await
        .unwrap_or_else(|e| panic!("fast, while slow is read: {e:#}"));
    assert_eq!(marks(&fast), ["fast.md"]);
    let judged = runtime
        .judge("new", bash("ls"), CWD)
        .await
        .unwrap_or_else(|e| panic!("new, while slow is read: {e:#}"));
    assert_eq!(judged.verdict.decision, Decision::Allow);
    runtime
        .record("fast", read("more.md"))
        .await
        .unwrap_or_else(|e| panic!("fast's write: {e:#}"));
    let took = asked.elapsed();
    eprintln!("two chats served in {took:?} while another was read");
    assert!(
        took < Duration::from_secs(3),
        "the other chats waited {took:?} behind the slow read"
    );
    assert!(
        waiting.iter().all(|request| !request.is_finished()),
        "the slow chat's requests wait for its read"
    );

    slow.release();
    for request in waiting {
        let state = request
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|e| panic!("slow, once read: {e:#}"));
        assert_eq!(marks(&state), ["slow.md"]);
    }
    assert_eq!(slow.reads(SLOW), 1, "one read answered every request");
    assert_eq!(slow.reads("fast"), 1);
    // Written, and held: its next message finds it.
    runtime
        .record(SLOW, read("after.md"))
        .await
        .unwrap_or_else(|e| panic!("slow's write: {e:#}"));
    assert_eq!(slow.reads(SLOW), 1);
}

/// A request waits for its chat's read at most the bound (`Options::load_wait`), then is
/// answered why (the hook asks); the read goes on and the chat is held once read, so the
/// next request finds it without reading it again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_waits_for_its_chats_read_at_most_the_bound() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    written(dir.path(), "fast").await;
    let mut slow = Slow::new();
    let bound = Duration::from_millis(300);
    let runtime = open_slow(dir.path(), &slow, bound).await;
    let asked = Instant::now();
    let answered = runtime.judge(SLOW, bash("ls"), CWD).await;
    let took = asked.elapsed();
    match answered {
        Err(RuntimeError::Loading { chat, after }) => {
            assert_eq!((chat.as_str(), after), (SLOW, bound));
        }
        other => panic!("a read past the bound: {other:?}"),
    }
    assert!(
        took >= bound && took < Duration::from_secs(5),
        "answered after {took:?}"
    );
    slow.began().await;
    slow.release();
    let deadline = Instant::now() + Duration::from_secs(10);
    let state = loop {
        match runtime.state(SLOW).await {
            Ok(state) => break state,
            Err(RuntimeError::Loading { .. }) if Instant::now() < deadline => {}
            Err(e) => panic!("slow, once read: {e:#}"),
        }
    };
    assert_eq!(marks(&state), ["slow.md"]);
    assert_eq!(slow.reads(SLOW), 1, "the read went on and was held");
}

/// A chat let go while it is read (in a cluster: its root moved to another node) answers its
/// waiting requests that it is served elsewhere, and what the read found is not held: the
/// next request reads it again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_let_go_while_it_is_read_is_not_held() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    written(dir.path(), "fast").await;
    let mut slow = Slow::new();
    let runtime = open_slow(dir.path(), &slow, Duration::from_secs(30)).await;
    let waiting = {
        let runtime = runtime.clone();
        tokio::spawn(async move { runtime.state(SLOW).await })
    };
    slow.began().await;
    assert_eq!(
        runtime.chat_ids().await.unwrap_or_else(|e| panic!("{e:#}")),
        [SLOW],
        "a chat being read is listed, so a move lets it go"
    );
    runtime
        .let_go(vec![SLOW.to_string()])
        .await
        .unwrap_or_else(|e| panic!("let go: {e:#}"));
    match waiting.await.unwrap_or_else(|e| panic!("{e}")) {
        Err(RuntimeError::Elsewhere { chat }) => assert_eq!(chat, SLOW),
        other => panic!("a request for a chat let go while read: {other:?}"),
    }
    slow.release();
    // The second read is let through at once.
    slow.release();
    let state = runtime
        .state(SLOW)
        .await
        .unwrap_or_else(|e| panic!("slow, read again: {e:#}"));
    assert_eq!(marks(&state), ["slow.md"]);
    assert_eq!(
        slow.reads(SLOW),
        2,
        "read again, not held from the read let go"
    );
}
