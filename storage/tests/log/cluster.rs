//! The cluster's pieces against a real `nats-server -js`: members that see each other join
//! and leave (and one that stops heartbeating drop out within a bound, measured here), a
//! chat's lease taken, renewed, taken over and lost, and the log's fence: an append by a
//! writer that was only slow is refused by the server once another wrote the chat.

use crate::engines::NatsServer;
use crate::{Outcome, said};
use futures_util::StreamExt;
use std::time::{Duration, Instant};
use warden::chat::{Event, Record};
use warden_storage::LogError;
use warden_storage::cluster::lease::Lease;
use warden_storage::cluster::members::{self, Member};
use warden_storage::cluster::{self, Cluster, ClusterError};
use warden_storage::jetstream::JetStreamLog;

fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
}

/// Two members over one server, each on a connection of its own (`node-a` on the first,
/// `node-b` on the second), and those connections.
async fn two_members(
    settings: &warden_storage::jetstream::Settings,
    ttl: Duration,
) -> Result<(Cluster, Cluster, Member, Member), ClusterError> {
    let (one, two) = (
        Cluster::connect(settings, ttl).await?,
        Cluster::connect(settings, ttl).await?,
    );
    let a = Member::join(&one, "node-a", "http://127.0.0.1:7001").await?;
    let b = Member::join(&two, "node-b", "http://127.0.0.1:7002").await?;
    Ok((one, two, a, b))
}

/// Every change of some members' live sets, watched from now on: each set that holds fewer
/// than `whole` nodes is kept, as "NODE saw [..]".
pub(crate) struct LiveSets {
    missed: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    watchers: Vec<tokio::task::JoinHandle<()>>,
}

impl LiveSets {
    pub(crate) fn watch<'m>(members: impl IntoIterator<Item = &'m Member>, whole: usize) -> Self {
        let missed = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
        let watchers = members
            .into_iter()
            .map(|member| {
                let mut live = member.watch();
                let (me, missed) = (member.node().to_string(), std::sync::Arc::clone(&missed));
                tokio::spawn(async move {
                    while live.changed().await.is_ok() {
                        let now: Vec<String> = live.borrow_and_update().keys().cloned().collect();
                        if now.len() < whole {
                            missed
                                .lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner)
                                .push(format!("{me} saw {now:?}"));
                        }
                    }
                })
            })
            .collect();
        LiveSets { missed, watchers }
    }

    /// Stops watching (before the members leave: their keys deleted, sets that shrink), and
    /// answers the sets that missed a node.
    pub(crate) fn stop(self) -> Vec<String> {
        for watcher in &self.watchers {
            watcher.abort();
        }
        self.missed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

/// Waits (at most `within`) until `member`'s live set satisfies `until`; answers how long.
async fn wait_for(
    member: &mut Member,
    within: Duration,
    until: impl Fn(&members::Live) -> bool,
) -> Result<Duration, String> {
    let started = Instant::now();
    let deadline = started + within;
    while !until(&member.live()) {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, member.changed()).await {
            Ok(Some(_)) => {}
            Ok(None) => return Err("the member stopped".to_string()),
            Err(_) => {
                return Err(format!(
                    "not within {within:?}: {:?} sees {:?}",
                    member.node(),
                    member.live()
                ));
            }
        }
    }
    Ok(started.elapsed())
}

/// Two members over one server see each other (and themselves) at once; one dropped without
/// a word (a crash: no more heartbeats) leaves the other's live set once its key expires,
/// not before, while the one still heartbeating stays; one that leaves is gone at once. The
/// times are printed: they are the bounds `docs/cluster.md` quotes.
#[test]
fn members_see_joins_and_departures() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let settings = server.settings();
    let ttl = cluster::TTL;
    runtime()?.block_on(async {
        let (_one, two, mut a, b) = two_members(&settings, ttl).await?;
        let joined = wait_for(&mut a, ttl, |live| live.contains_key("node-b")).await?;
        assert_eq!(
            a.live().get("node-b").map(String::as_str),
            Some("http://127.0.0.1:7002")
        );
        assert!(b.live().contains_key("node-a"), "{:?}", b.live());
        // Seeing the same live set, they send every chat to the same node, both of them used.
        let mut served = std::collections::BTreeMap::new();
        for n in 0..100 {
            let chat = format!("chat-{n}");
            let placed = a.placed(&chat).ok_or("no node for a chat")?;
            assert_eq!(b.placed(&chat).as_ref(), Some(&placed), "{chat}");
            *served.entry(placed.1).or_insert(0) += 1;
        }
        assert_eq!(served.len(), 2, "{served:?}");

        // What the bucket's watch says when a key expires by max_age (nats-server 2.9: nothing).
        let store = async_nats::jetstream::new(async_nats::connect(server.url()).await?)
            .get_key_value("warden-nodes")
            .await?;
        let mut watched = store.watch_all().await?;
        let dropped = Instant::now();
        drop(b);
        let left = wait_for(&mut a, ttl * 3, |live| !live.contains_key("node-b")).await?;
        assert!(
            left >= ttl - members::heartbeat(ttl) - Duration::from_millis(300),
            "node-b left after {left:?}, before its key could have expired"
        );
        assert!(
            a.live().contains_key("node-a"),
            "node-a dropped itself: {:?}",
            a.live()
        );
        // Still there after more than two times to live: its heartbeat holds it.
        tokio::time::sleep(ttl).await;
        assert!(a.live().contains_key("node-a") && store.get("node-a").await?.is_some());
        // What the watch was told of node-b's key, from its drop to a TTL after it expired.
        let mut expiry_events = Vec::new();
        while let Ok(Some(entry)) =
            tokio::time::timeout(Duration::from_millis(200), watched.next()).await
        {
            let entry = entry?;
            if entry.key == "node-b" {
                expiry_events.push(entry.operation);
            }
        }

        let c = Member::join(&two, "node-c", "http://127.0.0.1:7003").await?;
        wait_for(&mut a, ttl, |live| live.contains_key("node-c")).await?;
        let leaving = Instant::now();
        c.leave().await?;
        let gone = wait_for(&mut a, ttl, |live| !live.contains_key("node-c")).await?;
        eprintln!(
            "membership (ttl {ttl:?}): a join seen in {joined:?}; a silent node gone after {left:?} \
             (dropped {:?} ago); one that left gone in {gone:?} ({:?} after leave); \
             the watch's events for the expired key: {expiry_events:?}",
            dropped.elapsed(),
            leaving.elapsed()
        );
        Ok::<_, Box<dyn std::error::Error>>(())
    })
}

/// The first node makes the membership's bucket with its time to live; a node that comes
/// later with another one heartbeats at the pace of the bucket's.
#[test]
fn the_bucket_sets_the_time_to_live() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let settings = server.settings();
    runtime()?.block_on(async {
        let first = Cluster::connect(&settings, Duration::from_secs(2)).await?;
        let later = Cluster::connect(&settings, Duration::from_secs(5)).await?;
        assert_eq!(
            (first.ttl(), later.ttl()),
            (Duration::from_secs(2), Duration::from_secs(2))
        );
        Ok::<_, Box<dyn std::error::Error>>(())
    })
}

/// A lease made, refused to another node while its holder lives, renewed with a greater
/// token, taken over once its holder is dead, lost to the old holder (renew and release both
/// refused), released and made again; of two nodes racing for a fresh chat exactly one wins.
#[test]
fn a_lease_has_one_holder_and_a_growing_token() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let settings = server.settings();
    runtime()?.block_on(async {
        let (a, b) = (
            Cluster::connect(&settings, cluster::TTL).await?,
            Cluster::connect(&settings, cluster::TTL).await?,
        );
        let everyone = |_: &str| true;
        let all_but_a = |node: &str| node != "node-a";
        assert_eq!(a.holder("c1").await?, None);
        let first = a.take("c1", "node-a", everyone).await?;
        assert_eq!(b.holder("c1").await?, Some(first.clone()));
        assert_eq!(a.take("c1", "node-a", everyone).await?, first, "kept");
        match b.take("c1", "node-b", everyone).await {
            Err(ClusterError::Held { owner, token, .. }) => {
                assert_eq!((owner.as_str(), token), ("node-a", first.token));
            }
            other => panic!("node-b took a live node's lease: {other:?}"),
        }
        let renewed = a.renew(&first).await?;
        assert!(renewed.token > first.token, "{renewed:?} after {first:?}");

        let taken = b.take("c1", "node-b", all_but_a).await?;
        assert!(
            taken.token > renewed.token && taken.node == "node-b",
            "{taken:?}"
        );
        for refused in [a.renew(&renewed).await.map(drop), a.release(&renewed).await] {
            assert!(
                matches!(refused, Err(ClusterError::Lost { ref node, .. }) if node == "node-a"),
                "{refused:?}"
            );
        }
        assert_eq!(a.holder("c1").await?, Some(taken.clone()));
        b.release(&taken).await?;
        assert_eq!(a.holder("c1").await?, None);
        let again = a.take("c1", "node-a", everyone).await?;
        assert!(again.token > taken.token, "{again:?}");

        // A race for a fresh chat: one create wins, the other hears who holds it.
        let (one, two) = tokio::join!(
            a.take("race", "node-a", everyone),
            b.take("race", "node-b", everyone)
        );
        let won: Vec<&Lease> = [&one, &two].into_iter().flatten().collect();
        assert_eq!(won.len(), 1, "{one:?} {two:?}");
        let loser = if one.is_ok() { &two } else { &one };
        assert!(
            matches!(loser, Err(ClusterError::Held { owner, .. }) if *owner == won[0].node),
            "{loser:?}"
        );
        Ok::<_, Box<dyn std::error::Error>>(())
    })
}

fn texts(log: &JetStreamLog, chat: &str) -> Result<Vec<String>, LogError> {
    Ok(log
        .records(chat)?
        .into_iter()
        .filter_map(|entry| match entry.record {
            Ok(Record {
                event: Event::Said { text },
                ..
            }) => Some(text),
            _ => None,
        })
        .collect())
}

/// Two handles on one stream, both knowing the chat at sequence N: B appends after N; A's
/// append after N is refused by the server with the named error, nothing of it stored, and A's
/// log stays open (it appends once it knows the chat's new end). A new chat's fence is 0.
#[test]
fn an_append_after_another_writer_is_refused() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let settings = server.settings();
    let a = JetStreamLog::open(&settings)?;
    let b = JetStreamLog::open(&settings)?;
    a.append("c0", &said(0, "another chat"))?;
    let n = a.append("c1", &said(1, "first"))?;
    let m = b.append_after("c1", &said(2, "b's"), n)?;
    assert!(m > n);
    match a.append_after("c1", &said(3, "a's, late"), n) {
        Err(LogError::Fenced { chat, expected }) => {
            assert_eq!((chat.as_str(), expected), ("c1", n));
        }
        other => panic!("a's late append was not refused: {other:?}"),
    }
    assert_eq!(texts(&b, "c1")?, ["first", "b's"]);
    // Another chat's records don't move c1's fence, and A is still open.
    b.append("c0", &said(4, "elsewhere"))?;
    let next = a.append_after("c1", &said(5, "a's, knowing m"), m)?;
    assert!(next > m);
    let fresh = JetStreamLog::open(&settings)?;
    assert_eq!(texts(&fresh, "c1")?, ["first", "b's", "a's, knowing m"]);

    a.append_after("new", &said(6, "the first of a new chat"), 0)?;
    assert!(matches!(
        b.append_after("new", &said(7, "b thought it new too"), 0),
        Err(LogError::Fenced { .. })
    ));
    let fresh = JetStreamLog::open(&settings)?;
    assert_eq!(texts(&fresh, "new")?, ["the first of a new chat"]);
    Ok(())
}

/// The pieces together, as a takeover will run them: node A serves c1 (its lease, fenced
/// appends) and stops heartbeating but keeps its log handle (paused, not dead). B sees A
/// leave, takes the lease over with a greater token, reads c1's end from the stream and
/// appends; A's late append is then refused. Prints how long the takeover took.
#[test]
fn a_slow_node_cannot_write_after_a_takeover() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let settings = server.settings();
    let ttl = cluster::TTL;
    let (log_a, log_b) = (
        JetStreamLog::open(&settings)?,
        JetStreamLog::open(&settings)?,
    );
    runtime()?.block_on(async {
        let (one, two, a, mut b) = two_members(&settings, ttl).await?;
        wait_for(&mut b, ttl, |live| live.contains_key("node-a")).await?;
        let live = b.live();
        let lease_a = one
            .take("c1", "node-a", |node| live.contains_key(node))
            .await?;
        let mut known_a = 0;
        for n in 0..3 {
            known_a = log_a.append_after("c1", &said(n, &format!("a {n}")), known_a)?;
        }

        let paused = Instant::now();
        drop(a);
        let gone = wait_for(&mut b, ttl * 3, |live| !live.contains_key("node-a")).await?;
        let live = b.live();
        let lease_b = two
            .take("c1", "node-b", |node| live.contains_key(node))
            .await?;
        let took_over = paused.elapsed();
        assert!(lease_b.token > lease_a.token);
        // B reads what A wrote without opening again, and takes the chat over at its end.
        assert_eq!(log_b.latest()?, [("c1".to_string(), known_a)]);
        assert_eq!(log_b.end_of("c1")?, known_a, "B reads the end A wrote");
        let known_b = log_b.take_over("c1")?.last_seq;
        assert!(known_b > known_a, "the marker comes after A's records");
        assert_eq!(
            log_a.newest()?,
            known_b,
            "A asks the stream: B's marker is its newest"
        );
        log_b.append_after("c1", &said(10, "b, after the takeover"), known_b)?;
        assert!(matches!(
            log_a.append_after("c1", &said(11, "a, woken late"), known_a),
            Err(LogError::Fenced { .. })
        ));
        assert!(matches!(
            one.renew(&lease_a).await,
            Err(ClusterError::Lost { .. })
        ));
        assert_eq!(
            texts(&log_b, "c1")?,
            ["a 0", "a 1", "a 2", "b, after the takeover"]
        );
        eprintln!(
            "takeover (ttl {ttl:?}): node-a out of node-b's live set after {gone:?}, \
             lease {} → {} taken after {took_over:?}",
            lease_a.token, lease_b.token
        );
        Ok::<_, Box<dyn std::error::Error>>(())
    })
}

/// What `append_after`'s retry rests on: a fenced publish sent again with the same message id
/// (its acknowledgement lost) is answered as the duplicate it is, with the sequence it was
/// stored at, though the chat's end has moved past its fence since: the server checks the id
/// before the fence. A new id with the same fence is refused.
#[test]
fn a_fenced_publish_sent_again_is_a_duplicate_not_a_refusal() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let log = JetStreamLog::open(&server.settings())?;
    let n = log.append("c1", &said(1, "first"))?;
    let value = warden_storage::codec::write_record(&said(2, "fenced"))?;
    runtime()?.block_on(async {
        let js = async_nats::jetstream::new(async_nats::connect(server.url()).await?);
        let publish = |id: &str| {
            let mut headers = async_nats::HeaderMap::new();
            headers.insert(async_nats::header::NATS_MESSAGE_ID, id);
            headers.insert(
                async_nats::header::NATS_EXPECTED_LAST_SUBJECT_SEQUENCE,
                n.to_string().as_str(),
            );
            js.publish_with_headers("warden.chat.c1", headers, value.clone().into())
        };
        let stored = publish("once").await?.await?;
        assert!(stored.sequence > n && !stored.duplicate);
        let again = publish("once").await?.await?;
        assert_eq!((again.sequence, again.duplicate), (stored.sequence, true));
        let other = publish("another").await?.await;
        assert!(
            matches!(&other, Err(e) if e.kind() == async_nats::jetstream::context::PublishErrorKind::WrongLastSequence),
            "{other:?}"
        );
        Ok::<_, Box<dyn std::error::Error>>(())
    })
}

/// Polls `until` every 20 ms, at most `within`; answers how long it took.
async fn poll(within: Duration, until: impl Fn() -> bool) -> Result<Duration, String> {
    let started = Instant::now();
    while !until() {
        if started.elapsed() > within {
            return Err(format!("not within {within:?}"));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(started.elapsed())
}

/// A node whose heartbeats stop getting through (the server killed with SIGKILL) stops
/// counting itself in after two missed heartbeats, a third of the time to live before any
/// other could drop it; once the server is back, its heartbeat counts it in again.
#[test]
fn a_node_cut_off_from_the_server_stops_counting_itself_in() -> Outcome {
    let Some(mut server) = NatsServer::start()? else {
        return Ok(());
    };
    let settings = server.settings();
    let ttl = cluster::TTL;
    runtime()?.block_on(async {
        let one = Cluster::connect(&settings, ttl).await?;
        let a = Member::join(&one, "node-a", "http://127.0.0.1:7001").await?;
        assert!(a.is_standing());
        // Heartbeats hold it past its first put's standing.
        tokio::time::sleep(members::standing(ttl) + members::heartbeat(ttl)).await;
        assert!(a.is_standing(), "its heartbeats did not count");

        let killed = Instant::now();
        server.kill();
        let out = poll(ttl * 2, || !a.is_standing()).await?;
        assert!(
            out <= members::standing(ttl) + Duration::from_millis(100),
            "counted itself in {out:?} after the server went"
        );
        server.restart()?;
        let back = poll(ttl * 5, || a.is_standing()).await?;
        eprintln!(
            "standing (ttl {ttl:?}): out {out:?} after the server's SIGKILL (at most {:?}), \
             in again {back:?} after its restart ({:?} in all)",
            members::standing(ttl),
            killed.elapsed()
        );
        Ok::<_, Box<dyn std::error::Error>>(())
    })
}

/// The server gone for longer than the time to live and back (killed with SIGKILL, started
/// again on its store): every key expired meanwhile, so the first listings after the restart
/// hold only the nodes whose heartbeat has landed again. Neither member drops the other for
/// it: a node's absence counts only once the bucket has answered the member for two times to
/// live, long enough for every live node to have put its key again.
#[test]
fn no_live_node_is_dropped_for_an_outage_of_the_bucket() -> Outcome {
    let Some(mut server) = NatsServer::start()? else {
        return Ok(());
    };
    let settings = server.settings();
    let ttl = cluster::TTL;
    runtime()?.block_on(async {
        let (_, _, mut a, b) = two_members(&settings, ttl).await?;
        wait_for(&mut a, ttl, |live| live.len() == 2).await?;
        let watch = LiveSets::watch([&a, &b], 2);
        server.kill();
        tokio::time::sleep(ttl * 2).await;
        server.restart()?;
        let restarted = Instant::now();
        let back = poll(ttl * 5, || a.is_standing() && b.is_standing()).await?;
        // Two times to live and a half: when a drop for the outage would have shown.
        tokio::time::sleep(ttl * 5 / 2).await;
        let missed = watch.stop();
        eprintln!(
            "an outage of {:?}: both standing again {back:?} after the restart; live sets \
             missing a node: {missed:?} (watched for {:?})",
            ttl * 2,
            restarted.elapsed()
        );
        assert!(missed.is_empty(), "a live node left a live set: {missed:?}");
        assert_eq!(a.live().len(), 2, "{:?}", a.live());
        assert_eq!(b.live().len(), 2, "{:?}", b.live());
        // A node that really stopped is still dropped once the bucket answers again.
        drop(b);
        let left = wait_for(&mut a, ttl * 3, |live| !live.contains_key("node-b")).await?;
        eprintln!("a node stopped after the outage: dropped in {left:?}");
        Ok::<_, Box<dyn std::error::Error>>(())
    })
}

/// A member that steps out (a node whose log can't be written) is out of the other's live set
/// at once and stays out, its heartbeat stopped, counting itself out; stepped in, it is back
/// at once and its heartbeats hold it.
#[test]
fn a_member_that_steps_out_is_out_until_it_steps_in() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let settings = server.settings();
    let ttl = cluster::TTL;
    runtime()?.block_on(async {
        let (_, _, mut a, b) = two_members(&settings, ttl).await?;
        wait_for(&mut a, ttl, |live| live.contains_key("node-b")).await?;
        b.step_out().await?;
        assert!(!b.is_standing() && b.is_out());
        let gone = wait_for(&mut a, ttl, |live| !live.contains_key("node-b")).await?;
        // No heartbeat puts it back: still out a whole time to live later, and it still sees
        // the live set without itself.
        tokio::time::sleep(ttl + members::heartbeat(ttl)).await;
        assert!(!a.live().contains_key("node-b"), "{:?}", a.live());
        assert!(!b.live().contains_key("node-b") && b.live().contains_key("node-a"));
        b.step_in().await?;
        assert!(b.is_standing() && !b.is_out());
        let back = wait_for(&mut a, ttl, |live| live.contains_key("node-b")).await?;
        tokio::time::sleep(ttl + members::heartbeat(ttl)).await;
        assert!(
            a.live().contains_key("node-b") && b.is_standing(),
            "its heartbeats hold it"
        );
        eprintln!("a member stepping out gone in {gone:?}; back in {back:?}");
        Ok::<_, Box<dyn std::error::Error>>(())
    })
}
