//! A replica behind the others (its server killed, the stream written on without it, then
//! started again): what the log answers through that server right after the restart is the
//! stream as its leader holds it, never a shorter one. Three `nats-server -js` routed to
//! each other, replicas 3, real SIGKILLs.

use crate::engines::NatsCluster;
use crate::{Outcome, said, text};
use std::time::{Duration, Instant};
use warden::chat::Record;
use warden_storage::jetstream::Settings;
use warden_storage::{EventLog, LogError};

fn settings(urls: &[String]) -> Settings {
    Settings {
        url: urls.join(","),
        stream: "warden".to_string(),
        replicas: 3,
    }
}

/// Opens the log as `node` and reads the stream's state through it, again until the cluster
/// answers (a stream of three replicas is made once the servers have elected a leader, and
/// served by a server once it knows of it), at most `within`.
fn open_when_ready(settings: &Settings, node: &str, within: Duration) -> Result<EventLog, String> {
    let deadline = Instant::now() + within;
    loop {
        let opened = EventLog::open_jetstream_as(settings, Some(node))
            .and_then(|log| log.probe().map(|()| log));
        match opened {
            Ok(log) => return Ok(log),
            Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => return Err(format!("not open within {within:?}: {e}")),
        }
    }
}

/// Appends through `log`, opening it again after a failure, until one goes through (the
/// stream just made may not be served yet where the log is connected), at most `within`.
fn first_append(log: &EventLog, within: Duration) -> Result<(), String> {
    let deadline = Instant::now() + within;
    loop {
        match log.append("warm", &said(0, "warm")) {
            Ok(_) => return Ok(()),
            Err(_) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(100));
                let _ = log.reopen();
            }
            Err(e) => return Err(format!("no append within {within:?}: {e}")),
        }
    }
}

/// What `log` reads of the two chats in every way a takeover, a fence or the feed depends
/// on: each chat's records, its replay's count and end, its end as the server has it, the
/// newest record of every stream, and the feed's first page.
fn read_all(log: &EventLog, chats: &[&str]) -> Result<Vec<String>, LogError> {
    let mut read = Vec::new();
    for chat in chats {
        let records: Vec<String> = log
            .records(chat)?
            .map(|entry| entry.map(|entry| text(&entry.record)))
            .collect::<Result<_, _>>()?;
        read.push(format!("{chat} records {}", records.len()));
        read.push(format!("{chat} last {:?}", records.last()));
        let replayed = log.chat(chat)?;
        read.push(format!(
            "{chat} replayed {} to {}",
            replayed.events, replayed.last_seq
        ));
        read.push(format!("{chat} end {}", log.end_of(chat)?));
    }
    read.push(format!("latest {:?}", log.latest()?));
    let page = log.after(0, 100_000)?;
    read.push(format!(
        "after {} to {:?}",
        page.len(),
        page.last().map(|(_, entry)| entry.seq)
    ));
    read.push(format!("replay_all {}", log.replay_all().count()));
    Ok(read)
}

/// Server `n2` killed with SIGKILL, 2,000 records written (groups of 64 over two chats, and
/// records alone) through the other two, `n2` started again: a log connected to `n2` alone
/// (from before the kill) reads, from the first moment it answers, exactly what the writer's
/// side reads once the writing is done. A read that fails (the server not back in the
/// cluster yet) is allowed: it is an error, never less data. Ten reads in a row.
#[test]
fn a_replica_just_restarted_never_answers_short() -> Outcome {
    let Some(mut cluster) = NatsCluster::start(3)? else {
        return Ok(());
    };
    let urls: Vec<String> = cluster.servers.iter().map(|s| s.url()).collect();
    let writer = open_when_ready(&settings(&urls[..2]), "a", Duration::from_secs(30))?;
    first_append(&writer, Duration::from_secs(30))?;
    let chats = ["c1", "c2"];
    let mut n = 0u64;
    // A write that fails (a new leader being elected once n2 is gone) is not acknowledged:
    // the log is opened again and the writing goes on, as the runtime's writer does. What the
    // reader must read is what the writer reads afterwards, not a count.
    let mut write = |writer: &EventLog, records: u64| -> Result<(), String> {
        let end = n + records;
        while n < end {
            let written = if n.is_multiple_of(3) {
                let chat = chats[(n % 2) as usize];
                n += 1;
                writer
                    .append(chat, &said(n as i64, &format!("{n}")))
                    .map(drop)
            } else {
                let group: Vec<(&str, Record)> = (0..64u64)
                    .map(|i| {
                        (
                            chats[(i % 2) as usize],
                            said((n + i) as i64, &format!("{}", n + i)),
                        )
                    })
                    .collect();
                n += 64;
                writer.append_batch(&group).map(drop)
            };
            if written.is_err() {
                first_append(writer, Duration::from_secs(30))?;
            }
        }
        Ok(())
    };
    // The reader is connected to n2 alone from before the kill: its client connects again
    // as soon as n2 listens, and reads from the first moment n2 answers.
    let reader = open_when_ready(&settings(&urls[2..]), "r", Duration::from_secs(30))?;
    write(&writer, 200)?;
    cluster.servers[2].kill();
    write(&writer, 2000)?;
    cluster.servers[2].restart()?;
    let (mut reads, mut failed) = (Vec::new(), 0);
    let deadline = Instant::now() + Duration::from_secs(60);
    while reads.len() < 10 {
        match read_all(&reader, &chats) {
            Ok(read) => reads.push(read),
            Err(e) => {
                failed += 1;
                assert!(
                    Instant::now() < deadline,
                    "no whole read within 60 s ({failed} failed): {e}"
                );
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
    // What the writer's side reads, now that nothing more is written.
    let deadline = Instant::now() + Duration::from_secs(60);
    let expected = loop {
        match read_all(&writer, &chats) {
            Ok(read) => break read,
            Err(e) if Instant::now() < deadline => {
                eprintln!("the writer's read failed, again: {e}");
            }
            Err(e) => return Err(e.into()),
        }
    };
    for (at, read) in reads.iter().enumerate() {
        assert_eq!(
            read, &expected,
            "read {at} through the restarted server ({failed} failed before)"
        );
    }
    eprintln!("10 reads through the restarted server, all whole; {failed} failed before");
    Ok(())
}

/// The server that leads the stream killed with SIGKILL while a node writes through another:
/// the other two elect a new leader, and until then nobody takes a publish ("no stream found
/// for given subject") or answers a question about the stream. An append sent meanwhile is
/// sent again with its message id until its budget ends, so it is acknowledged once the
/// election is over (seen 4.7 to 6.3 s after the kill, where it used to fail after 1.4 s and
/// the log open again after 10 to 20 s); one whose election outlasts it fails, and the log
/// opens again at the first question answered after the election, not after a whole step.
/// Either way, every acknowledged record is in the stream once: an append sent again is
/// stored once.
#[test]
fn an_append_rides_out_its_stream_leader_killed() -> Outcome {
    let Some(mut cluster) = NatsCluster::start(3)? else {
        return Ok(());
    };
    let urls: Vec<String> = cluster.servers.iter().map(|s| s.url()).collect();
    let writer = open_when_ready(&settings(&urls), "a", Duration::from_secs(30))?;
    first_append(&writer, Duration::from_secs(30))?;
    let mut acknowledged = Vec::new();
    for n in 0..20 {
        writer.append("c1", &said(n, &format!("before {n}")))?;
        acknowledged.push(format!("before {n}"));
    }
    let leader = (0..3)
        .find_map(|via| cluster.leader("warden", via))
        .ok_or("no server named the stream's leader")?;
    cluster.servers[leader].kill();
    let killed = Instant::now();
    let mut failed = 0;
    for n in 0..20 {
        let text = format!("after {n}");
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            match writer.append("c1", &said(100 + n, &text)) {
                Ok(_) => break,
                Err(e) => {
                    failed += 1;
                    eprintln!("{:?} after the kill: {e}", killed.elapsed());
                    assert!(Instant::now() < deadline, "not written again in 60 s: {e}");
                    std::thread::sleep(Duration::from_millis(50));
                    let _ = writer.reopen();
                }
            }
        }
        if n == 0 {
            eprintln!(
                "leader n{leader} killed: the first append acknowledged {:?} after it, {failed} failed before",
                killed.elapsed()
            );
        }
        acknowledged.push(text);
    }
    // Read until the stream answers whole (the log's reads take the leader's word).
    let stored: Vec<String> = writer
        .records("c1")?
        .map(|entry| entry.map(|entry| text(&entry.record)))
        .collect::<Result<_, _>>()?;
    if failed == 0 {
        // Every append acknowledged at its first call: each is stored once, in order (the
        // publishes sent again during the election were taken once).
        assert_eq!(
            stored, acknowledged,
            "every acknowledged record once, in order"
        );
    } else {
        // An append that failed may have been stored before its acknowledgement was lost,
        // and then sent again as a new one: each acknowledged record at least once.
        let missing: Vec<&String> = acknowledged
            .iter()
            .filter(|want| !stored.contains(want))
            .collect();
        assert!(missing.is_empty(), "acknowledged and lost: {missing:?}");
    }
    Ok(())
}

/// The membership's bucket is a stream of its own: when the server that leads it dies, no
/// node's heartbeat goes through while the others elect a new leader (2.5 to 8 s seen), so
/// every member stops counting itself in (`is_standing`) meanwhile. Three members, each on
/// its own connection, with a time to live of 2 s (shorter than the elections): each counts
/// itself in again once the bucket answers, and no member's live set ever misses a node that
/// lives, so no chat moves for it (`docs/cluster.md`, "Not built yet").
#[test]
fn the_live_set_rides_out_its_bucket_s_leader_killed() -> Outcome {
    use warden_storage::cluster::Cluster;
    use warden_storage::cluster::members::Member;
    let Some(mut cluster) = NatsCluster::start(3)? else {
        return Ok(());
    };
    let urls: Vec<String> = cluster.servers.iter().map(|s| s.url()).collect();
    let settings = settings(&urls);
    let ttl = Duration::from_secs(2);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let nodes = ["node-a", "node-b", "node-c"];
    let members: Vec<Member> = runtime.block_on(async {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut members = Vec::new();
        for node in nodes {
            let member = loop {
                let joined = match Cluster::connect(&settings, ttl).await {
                    Ok(cluster) => Member::join(&cluster, node, &format!("http://{node}")).await,
                    Err(e) => Err(e),
                };
                match joined {
                    Ok(member) => break member,
                    Err(_) if Instant::now() < deadline => {
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                    Err(e) => return Err(format!("{node} did not join within 30 s: {e}")),
                }
            };
            members.push(member);
        }
        // Every member sees all three, and has heartbeated a whole time to live.
        while members.iter().any(|m| m.live().len() < 3) {
            if Instant::now() > deadline {
                return Err("the members never saw each other".to_string());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        tokio::time::sleep(ttl * 2).await;
        Ok(members)
    })?;
    let leader = (0..3)
        .find_map(|via| cluster.leader("KV_warden-nodes", via))
        .ok_or("no server named the membership bucket's leader")?;
    let (standing_again, missed) = runtime.block_on(async {
        // Every change of every member's live set, from the kill on.
        let watch = crate::cluster::LiveSets::watch(&members, 3);
        cluster.servers[leader].kill();
        let killed = Instant::now();
        // Until every member counts itself in again (its heartbeat through the new leader),
        // then a time to live and a half more, when a dropped node would have shown.
        let mut standing_again = None;
        while killed.elapsed() < Duration::from_secs(40) {
            if standing_again.is_none()
                && killed.elapsed() > ttl
                && members.iter().all(Member::is_standing)
            {
                standing_again = Some(killed.elapsed());
            }
            if standing_again.is_some_and(|at| killed.elapsed() > at + ttl * 3 / 2) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // Stop watching before the members leave (their keys deleted: sets that shrink).
        let missed = watch.stop();
        for member in &members {
            let _ = member.leave().await;
        }
        (standing_again, missed)
    });
    drop(members);
    eprintln!(
        "the membership bucket's leader n{leader} killed: every member standing again after {standing_again:?}; live sets missing a node: {missed:?}"
    );
    assert!(
        standing_again.is_some(),
        "a member never counted itself in again within 40 s of the kill"
    );
    assert!(missed.is_empty(), "a live node left a live set: {missed:?}");
    Ok(())
}
