//! Several nodes writing one JetStream stream (`docs/cluster.md`, "Several writers on one
//! stream"): each sees the others' acknowledged appends and groups without opening again; a
//! group in flight when another node takes its chats over never becomes whole behind the
//! taker's writes, whatever of it arrives late; a late write of the old writer is refused by
//! name and leaves its log open; a node opening again cuts its own open groups and no one
//! else's. The races are driven by hand: a group's parts and commit published with the raw
//! client, headers as the log writes them, at the moments the test chooses.

use crate::engines::NatsServer;
use crate::{Outcome, said, text};
use async_nats::jetstream::{self, context::PublishErrorKind};
use std::sync::atomic::{AtomicU64, Ordering};
use warden::chat::{Event, Record};
use warden_storage::jetstream::token;
use warden_storage::{EventLog, LogError, codec};

fn open(server: &NatsServer, node: &str) -> Result<EventLog, LogError> {
    EventLog::open_jetstream_as(&server.settings(), Some(node))
}

/// The texts of a chat's records as `log` reads them.
fn texts(log: &EventLog, chat: &str) -> Result<Vec<String>, LogError> {
    log.records(chat)?
        .map(|entry| entry.map(|entry| text(&entry.record)))
        .collect()
}

/// Every text a page of `after(0, …)` holds, in order.
fn paged(log: &EventLog) -> Result<Vec<String>, LogError> {
    Ok(log
        .after(0, 1000)?
        .iter()
        .map(|(_, entry)| text(&entry.record))
        .collect())
}

/// A writer of node `node` made by hand, on the raw client: a group's parts and its commit,
/// with the headers the log writes, each published when the test says.
struct Hand {
    runtime: tokio::runtime::Runtime,
    js: jetstream::Context,
    node: String,
    sent: AtomicU64,
}

impl Hand {
    fn new(server: &NatsServer, node: &str) -> Result<Hand, Box<dyn std::error::Error>> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let js = runtime
            .block_on(async { async_nats::connect(server.url()).await.map(jetstream::new) })?;
        Ok(Hand {
            runtime,
            js,
            node: node.to_string(),
            sent: AtomicU64::new(0),
        })
    }

    fn chain(&self) -> String {
        format!("warden.node.{}", token(&self.node))
    }

    /// The newest message on the node's chain: a group begun now waits on it.
    fn base(&self) -> Result<u64, Box<dyn std::error::Error>> {
        self.runtime.block_on(async {
            let stream = self.js.get_stream("warden").await?;
            match stream.direct_get_last_for_subject(self.chain()).await {
                Ok(last) => Ok(last.sequence),
                Err(e) if e.kind() == jetstream::stream::DirectGetErrorKind::NotFound => Ok(0),
                Err(e) => Err(e.into()),
            }
        })
    }

    /// Publishes with `headers` (and a message id of its own), fenced at `fence` when given:
    /// the sequence stored, or `None` when the fence refused it.
    fn publish(
        &self,
        subject: String,
        mut headers: async_nats::HeaderMap,
        payload: Vec<u8>,
        fence: Option<u64>,
    ) -> Result<Option<u64>, Box<dyn std::error::Error>> {
        let n = self.sent.fetch_add(1, Ordering::SeqCst);
        headers.insert("Nats-Msg-Id", format!("hand-{}-{n}", self.node).as_str());
        if let Some(fence) = fence {
            headers.insert(
                "Nats-Expected-Last-Subject-Sequence",
                fence.to_string().as_str(),
            );
        }
        self.runtime.block_on(async {
            let ack = self
                .js
                .publish_with_headers(subject, headers, payload.into())
                .await?;
            match ack.await {
                Ok(ack) => Ok(Some(ack.sequence)),
                Err(e) if e.kind() == PublishErrorKind::WrongLastSequence => Ok(None),
                Err(e) => Err(e.into()),
            }
        })
    }

    /// A part of group `group` (begun on `base`; its id names the node before its last `~`)
    /// with the record `text` in `chat`.
    fn part(
        &self,
        group: &str,
        base: u64,
        chat: &str,
        text: &str,
        fence: Option<u64>,
    ) -> Result<Option<u64>, Box<dyn std::error::Error>> {
        let mut headers = async_nats::HeaderMap::new();
        headers.insert("Warden-Batch", format!("{base} {group}").as_str());
        let value = codec::write_record(&said(0, text))?;
        self.publish(
            format!("warden.chat.{}", token(chat)),
            headers,
            value,
            fence,
        )
    }

    /// Group `group`'s commit on the node's chain, fenced at `fence` (its base, as the log
    /// fences it) or not at all (a writer that breaks the rule).
    fn commit(
        &self,
        group: &str,
        fence: Option<u64>,
    ) -> Result<Option<u64>, Box<dyn std::error::Error>> {
        let mut headers = async_nats::HeaderMap::new();
        headers.insert("Warden-Commit", group);
        self.publish(self.chain(), headers, Vec::new(), fence)
    }
}

/// Node B reads what node A appends, alone and in groups over chats and the preferences,
/// through every reader, without opening again; both write the preferences, unfenced, in
/// turn, and both see all of it.
#[test]
fn another_nodes_appends_and_groups_are_seen_without_opening_again() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let a = open(&server, "node-a")?;
    let b = open(&server, "node-b")?;
    assert_eq!((a.node(), b.node()), (Some("node-a"), Some("node-b")));
    assert_eq!(b.latest()?, []);
    let one = a.append("c1", &said(1, "a one"))?;
    let group = a.append_batch(&[
        ("c1", said(2, "a two")),
        ("c2", said(3, "a three")),
        ("~preferences", said(4, "a's preference")),
    ])?;
    b.append("~preferences", &said(5, "b's preference"))?;
    let fenced = a.append_batch_fenced(
        &[
            ("c2", said(6, "a four")),
            ("~preferences", said(7, "a's again")),
        ],
        &[("c2", group[1])],
    )?;

    assert_eq!(texts(&b, "c1")?, ["a one", "a two"]);
    let c2 = b.chat("c2")?;
    assert_eq!(c2.state.said, ["a three", "a four"]);
    assert_eq!(c2.last_seq, fenced[0]);
    assert_eq!(
        texts(&b, "~preferences")?,
        ["a's preference", "b's preference", "a's again"]
    );
    assert_eq!(
        texts(&a, "~preferences")?,
        ["a's preference", "b's preference", "a's again"]
    );
    let records_after: Vec<String> = b
        .records_after("c1", one)?
        .iter()
        .map(|entry| text(&entry.record))
        .collect();
    assert_eq!(records_after, ["a two"]);
    assert_eq!(
        b.latest()?,
        [
            ("c1".to_string(), group[0]),
            ("c2".to_string(), fenced[0]),
            ("~preferences".to_string(), fenced[1]),
        ]
    );
    assert_eq!(
        paged(&b)?,
        [
            "a one",
            "a two",
            "a three",
            "a's preference",
            "b's preference",
            "a four",
            "a's again"
        ]
    );
    let replayed: Vec<(String, u64)> = b
        .replay_all()
        .map(|chat| chat.map(|(chat, replayed)| (chat, replayed.events)))
        .collect::<Result<_, _>>()?;
    assert_eq!(
        replayed,
        [
            ("c1".to_string(), 2),
            ("c2".to_string(), 2),
            ("~preferences".to_string(), 3)
        ]
    );
    assert_eq!(b.end_of("c2")?, fenced[0]);
    Ok(())
}

/// The takeover race, step by step. Node A has a group in flight over c1 and c2: both parts
/// stored, its commit not yet. Node B takes both chats over (a marker on each, A's group
/// aborted on A's chain), reads them (no part of the group) and writes. Then everything of
/// A's arrives late: its commit, fenced as the log fences it, is refused; a commit that
/// breaks the rule and is stored anyway makes nothing seen (the chain's first word after the
/// group's base was B's abort); a part fenced at A's old end is refused; A's own log, writing
/// on what it knew, is refused by name and stays open. No reader, B's or a third node's,
/// ever sees a record B did not see before its writes.
#[test]
fn a_group_in_flight_at_a_takeover_never_becomes_whole_behind_the_takers_writes() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let a = open(&server, "node-a")?;
    let ends = a.append_batch_fenced(
        &[
            ("c1", said(1, "a's first")),
            ("c2", said(2, "a's first too")),
        ],
        &[("c1", 0), ("c2", 0)],
    )?;
    let hand = Hand::new(&server, "node-a")?;
    let base = hand.base()?;
    let g = "node-a~by-hand-g1";
    let p1 = hand
        .part(g, base, "c1", "in flight", Some(ends[0]))?
        .ok_or("A's part refused")?;
    hand.part(g, base, "c2", "in flight too", Some(ends[1]))?
        .ok_or("A's part refused")?;

    let b = open(&server, "node-b")?;
    // In flight: nobody sees it, and a page in stream order stops before it.
    assert_eq!(texts(&b, "c1")?, ["a's first"]);
    assert_eq!(paged(&b)?, ["a's first", "a's first too"]);
    assert!(b.after(0, 1000)?.iter().all(|(_, entry)| entry.seq < p1));

    let c1 = b.take_over("c1")?;
    let c2 = b.take_over("c2")?;
    assert_eq!(c1.state.said, ["a's first"]);
    assert_eq!(c2.state.said, ["a's first too"]);
    assert!(c1.last_seq > p1, "the marker comes after what A left");
    let written = b.append_batch_fenced(
        &[("c1", said(3, "b's")), ("c2", said(4, "b's too"))],
        &[("c1", c1.last_seq), ("c2", c2.last_seq)],
    )?;

    // A wakes: its commit, fenced at the group's base, is refused.
    assert_eq!(
        hand.commit(g, Some(base))?,
        None,
        "A's late commit was stored"
    );
    // Stored without its fence, it commits nothing: B's abort came first after the base.
    assert!(hand.commit(g, None)?.is_some());
    // A late part fenced at the end A knew is refused by the marker.
    assert_eq!(
        hand.part("node-a~by-hand-g2", base, "c1", "later", Some(ends[0]))?,
        None
    );
    // A's log, on what it knew, is refused by name, and stays open.
    match a.append_batch_fenced(
        &[("c1", said(5, "a, woken")), ("c2", said(6, "a, woken too"))],
        &[("c1", ends[0]), ("c2", ends[1])],
    ) {
        Err(LogError::Fenced { chat, expected }) => {
            assert_eq!((chat.as_str(), expected), ("c1", ends[0]));
        }
        other => panic!("A's late group was not refused: {other:?}"),
    }
    a.append("elsewhere", &said(7, "a is still open"))?;

    let c = open(&server, "node-c")?;
    for reader in [&b, &c, &a] {
        assert_eq!(texts(reader, "c1")?, ["a's first", "b's"]);
        assert_eq!(texts(reader, "c2")?, ["a's first too", "b's too"]);
        assert_eq!(
            paged(reader)?,
            [
                "a's first",
                "a's first too",
                "b's",
                "b's too",
                "a is still open"
            ]
        );
    }
    assert_eq!(b.chat("c1")?.last_seq, written[0]);
    Ok(())
}

/// A group whose commit was stored before the takeover is whole: the taker's abort is
/// refused by A's chain, and the taker serves the chat with it.
#[test]
fn a_group_committed_before_a_takeover_is_kept_by_the_taker() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let a = open(&server, "node-a")?;
    let first = a.append_batch_fenced(&[("c1", said(1, "a's first"))], &[("c1", 0)])?[0];
    let hand = Hand::new(&server, "node-a")?;
    let base = hand.base()?;
    let g = "node-a~by-hand-g1";
    hand.part(g, base, "c1", "whole", Some(first))?
        .ok_or("A's part refused")?;
    hand.part(g, base, "~preferences", "whole too", None)?
        .ok_or("A's part refused")?;
    hand.commit(g, Some(base))?.ok_or("A's commit refused")?;
    let b = open(&server, "node-b")?;
    let c1 = b.take_over("c1")?;
    assert_eq!(c1.state.said, ["a's first", "whole"]);
    assert_eq!(texts(&b, "~preferences")?, ["whole too"]);
    Ok(())
}

/// A's group in flight whose first part in c1 came before B's marker and whose second came
/// after it (a second part carries no fence): the group is aborted by the takeover, both
/// parts are never seen, and B's next fenced write goes through, past the stray part.
#[test]
fn a_stray_part_after_a_takeover_neither_shows_nor_fences_the_taker() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let a = open(&server, "node-a")?;
    let first = a.append_batch_fenced(&[("c1", said(1, "a's first"))], &[("c1", 0)])?[0];
    let hand = Hand::new(&server, "node-a")?;
    let base = hand.base()?;
    let g = "node-a~by-hand-g1";
    hand.part(g, base, "c1", "stray one", Some(first))?
        .ok_or("A's part refused")?;
    let b = open(&server, "node-b")?;
    let c1 = b.take_over("c1")?;
    let stray = hand
        .part(g, base, "c1", "stray two", None)?
        .ok_or("a part without a fence refused")?;
    assert!(stray > c1.last_seq);
    let seq = b.append_batch_fenced(&[("c1", said(2, "b's"))], &[("c1", c1.last_seq)])?;
    assert!(seq[0] > stray);
    assert_eq!(texts(&b, "c1")?, ["a's first", "b's"]);
    assert_eq!(hand.commit(g, Some(base))?, None);
    // A record of another node past the fence does refuse.
    a.append("c1", &said(3, "a, unfenced"))?;
    assert!(matches!(
        b.append_batch_fenced(&[("c1", said(4, "b's again"))], &[("c1", seq[0])]),
        Err(LogError::Fenced { .. })
    ));
    Ok(())
}

/// Node A opening again aborts its own group left open (its commit, late, is refused) and
/// no one else's: node B's group in flight meanwhile commits after A's opening and is seen
/// whole, its parts still there.
#[test]
fn a_node_opening_again_cuts_its_own_groups_and_no_one_elses() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let a = open(&server, "node-a")?;
    let b = open(&server, "node-b")?;
    let (hand_a, hand_b) = (Hand::new(&server, "node-a")?, Hand::new(&server, "node-b")?);
    let (base_a, base_b) = (hand_a.base()?, hand_b.base()?);
    hand_a.part("node-a~old-g1", base_a, "c1", "a's, cut", None)?;
    hand_a.part("node-a~old-g1", base_a, "c3", "a's, cut too", None)?;
    hand_b.part("node-b~now-g1", base_b, "c2", "b's, in flight", None)?;
    hand_b.part("node-b~now-g1", base_b, "c4", "b's, in flight too", None)?;
    let held = a.len();

    // A process of node A opening again (after a crash, say), and the same log reopened.
    drop(a);
    let a = open(&server, "node-a")?;
    a.reopen()?;
    assert_eq!(hand_a.commit("node-a~old-g1", Some(base_a))?, None);
    assert!(hand_b.commit("node-b~now-g1", Some(base_b))?.is_some());
    for reader in [&a, &b] {
        assert_eq!(texts(reader, "c1")?, Vec::<String>::new());
        assert_eq!(texts(reader, "c2")?, ["b's, in flight"]);
        assert_eq!(texts(reader, "c4")?, ["b's, in flight too"]);
        assert_eq!(paged(reader)?, ["b's, in flight", "b's, in flight too"]);
    }
    assert_eq!(
        a.len(),
        held,
        "a node with an id deletes nothing at opening"
    );
    // A's groups go on from its chain's new end.
    a.append_batch(&[("c1", said(1, "a's")), ("c3", said(2, "a's too"))])?;
    assert_eq!(texts(&b, "c1")?, ["a's"]);
    Ok(())
}

/// A node id that is none is refused by name at opening.
#[test]
fn a_node_id_that_is_none_is_refused() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    for node in ["", "a\nb", &"x".repeat(257)] {
        let Err(e) = open(&server, node) else {
            panic!("opened as {node:?}")
        };
        assert!(e.to_string().contains("is not one"), "{node:?}: {e}");
    }
    Ok(())
}

/// Node A opened the log, then died for good with a group of the preferences alone in
/// flight (its part stored, no commit): the feed stops before it on every other node until
/// one of them aborts the chains of the nodes not live; then the feed goes on past it, the
/// group is dead for every reader, A's commit fenced at its base is refused, and the chain
/// of node C, live, with a group of its own in flight, is not touched: C's commit goes
/// through. Asked again, nothing more is aborted.
#[test]
fn a_departed_nodes_open_group_is_aborted_and_the_feed_goes_on() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    drop(open(&server, "node-a")?);
    let b = open(&server, "node-b")?;
    drop(open(&server, "node-c")?);
    let (a, c) = (Hand::new(&server, "node-a")?, Hand::new(&server, "node-c")?);
    b.append("c1", &said(1, "before"))?;
    let a_base = a.base()?;
    assert!(a_base > 0, "node a's opening left its chain an abort");
    a.part(
        "node-a~dead-g0",
        a_base,
        "~preferences",
        "a's open preference",
        None,
    )?;
    let c_base = c.base()?;
    c.part("node-c~live-g0", c_base, "c2", "c's group", None)?;
    b.append("c1", &said(2, "after"))?;
    assert_eq!(
        paged(&b)?,
        ["before"],
        "the feed waits before a's open group"
    );

    assert_eq!(b.abort_departed(&["node-b", "node-c"])?, ["node-a"]);
    assert_eq!(
        a.commit("node-a~dead-g0", Some(a_base))?,
        None,
        "a's late commit is refused"
    );
    assert!(c.commit("node-c~live-g0", Some(c_base))?.is_some());
    assert_eq!(paged(&b)?, ["before", "c's group", "after"]);
    assert_eq!(texts(&b, "~preferences")?, Vec::<String>::new());
    assert_eq!(
        b.abort_departed(&["node-b", "node-c"])?,
        Vec::<String>::new()
    );
    let d = open(&server, "node-d")?;
    assert_eq!(paged(&d)?, ["before", "c's group", "after"]);
    Ok(())
}

/// A stream's first record a reader sees: a task's opening, written in one group with its
/// chat's record, naming its parent; nothing for a chat with nothing, nor for a task whose
/// only group is not whole yet; the first record alone when the stream has several.
#[test]
fn the_first_record_of_a_stream_is_its_opening() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let a = open(&server, "node-a")?;
    let opened = Record {
        at_ms: 1,
        event: Event::Opened {
            mode: Default::default(),
            company: Default::default(),
            parent: Some("c1".to_string()),
            scoped: false,
        },
    };
    let seqs = a.append_batch(&[("t1", opened.clone()), ("c1", said(2, "a task made"))])?;
    a.append("t1", &said(3, "in the task"))?;
    let b = open(&server, "node-b")?;
    let first = b.first("t1")?.ok_or("t1 has a first record")?;
    assert_eq!((first.seq, first.record), (seqs[0], Ok(opened)));
    assert_eq!(b.first("nothing")?.map(|entry| entry.seq), None);
    let hand = Hand::new(&server, "node-h")?;
    hand.part("node-h~s-g0", hand.base()?, "t2", "not whole yet", None)?;
    assert_eq!(b.first("t2")?.map(|entry| entry.seq), None);
    Ok(())
}
