//! What only JetStream's log has to show: every acknowledged append is there after the server
//! is killed with SIGKILL and started again on its store (once each, though the client sent
//! some again), a group cut short at the stream's end is never seen, every id the API
//! accepts is a subject of its own, a url of several servers opens on one that answers, and
//! a stream written before groups had chains is read and written on.

use crate::engines::NatsServer;
use crate::{Outcome, said};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use warden::chat::{Event, Record};
use warden_storage::{EventLog, jetstream};

const CHATS: [&str; 3] = ["c0", "a task of c0", "~preferences"];

/// A record's text back, or why it isn't one.
fn text(record: &Result<Record, warden_storage::Skip>) -> Result<String, String> {
    match record {
        Ok(Record {
            event: Event::Said { text },
            ..
        }) => Ok(text.clone()),
        other => Err(format!("not a said record: {other:?}")),
    }
}

/// Appends from a thread of its own while the server is killed with SIGKILL and started again
/// three times: an append that failed makes the writer open the log again (as the runtime's
/// writer does) and go on. Afterwards every append that was acknowledged is in the log with
/// the sequence number it was given, and no record is there twice.
#[test]
fn every_acknowledged_append_survives_sigkill_of_the_server() -> Outcome {
    let Some(mut server) = NatsServer::start()? else {
        return Ok(());
    };
    let settings = server.settings();
    let log = Arc::new(EventLog::open_jetstream(&settings)?);
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (log, stop) = (Arc::clone(&log), Arc::clone(&stop));
        std::thread::spawn(move || {
            // Every acknowledged record: its text, its stream, its sequence number.
            let mut acknowledged: Vec<(String, &str, u64)> = Vec::new();
            let mut failures = 0;
            let mut n = 0u64;
            while !stop.load(Ordering::SeqCst) {
                let chat = CHATS[(n % 3) as usize];
                let group: Vec<(&str, Record)> = if n.is_multiple_of(5) {
                    CHATS
                        .iter()
                        .map(|c| (*c, said(n as i64, &format!("{n} {c}"))))
                        .collect()
                } else {
                    vec![(chat, said(n as i64, &format!("{n} {chat}")))]
                };
                match log.append_batch(&group) {
                    Ok(seqs) => {
                        for ((chat, record), seq) in group.into_iter().zip(seqs) {
                            if let Event::Said { text } = record.event {
                                acknowledged.push((text, chat, seq));
                            }
                        }
                    }
                    Err(_) => {
                        failures += 1;
                        while !stop.load(Ordering::SeqCst) && log.reopen().is_err() {
                            std::thread::sleep(Duration::from_millis(50));
                        }
                    }
                }
                n += 1;
            }
            (acknowledged, failures)
        })
    };
    let mut seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(7, |d| d.as_nanos() as u64)
        | 1;
    for _ in 0..3 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        std::thread::sleep(Duration::from_millis(200 + seed % 400));
        server.kill();
        std::thread::sleep(Duration::from_millis(100));
        server.restart()?;
    }
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, Ordering::SeqCst);
    let (acknowledged, failures) = writer.join().map_err(|_| "the writer thread panicked")?;
    drop(log);
    assert!(
        acknowledged.len() > 100,
        "only {} appends acknowledged",
        acknowledged.len()
    );

    let log = EventLog::open_jetstream(&settings)?;
    let mut stored: BTreeMap<String, (String, u64)> = BTreeMap::new();
    for chat in CHATS {
        for entry in log.records(chat)? {
            let entry = entry?;
            let text = text(&entry.record)?;
            let twice = stored.insert(text.clone(), (chat.to_string(), entry.seq));
            assert!(twice.is_none(), "`{text}` is in the log twice");
        }
    }
    for (text, chat, seq) in &acknowledged {
        assert_eq!(
            stored.get(text),
            Some(&(chat.to_string(), *seq)),
            "`{text}` was acknowledged at {seq} and is not there ({} acknowledged, {failures} failed appends)",
            acknowledged.len()
        );
    }
    eprintln!(
        "{} acknowledged appends, all there after 3 SIGKILLs of the server; {failures} appends failed and were not acknowledged",
        acknowledged.len()
    );
    Ok(())
}

/// The parts of a group whose commit never came (a writer killed between them), written at
/// the stream's end as this log writes them: the next opening deletes them, no read ever
/// sees them, and appends go on after them.
#[test]
fn a_group_cut_short_is_never_seen() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let settings = server.settings();
    let whole = {
        let log = EventLog::open_jetstream(&settings)?;
        log.append_batch(&[("c1", said(1, "whole")), ("c2", said(2, "whole too"))])?
    };
    // Two parts of a three-record group, and no commit.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let client = async_nats::connect(server.url()).await?;
        let js = async_nats::jetstream::new(client);
        for (n, chat) in ["c1", "c2"].into_iter().enumerate() {
            let mut headers = async_nats::HeaderMap::new();
            headers.insert("Warden-Batch", "a-writer-g7");
            headers.insert("Nats-Msg-Id", format!("a-writer-{n}").as_str());
            let value = warden_storage::codec::write_record(&said(3, "cut"))?;
            js.publish_with_headers(
                format!("warden.chat.{}", jetstream::token(chat)),
                headers,
                value.into(),
            )
            .await?
            .await?;
        }
        Ok::<_, Box<dyn std::error::Error>>(())
    })?;
    let log = EventLog::open_jetstream(&settings)?;
    assert_eq!(log.chat("c1")?.state.said, ["whole"]);
    assert_eq!(log.chat("c2")?.state.said, ["whole too"]);
    assert_eq!(log.len(), 2, "the cut parts are deleted");
    assert_eq!(log.after(0, 10)?.len(), 2);
    let seq = log.append("c1", &said(4, "after"))?;
    assert!(
        seq > whole[1] + 2,
        "appends go on after the deleted parts, at {seq}"
    );
    assert_eq!(
        log.latest()?,
        [("c1".to_string(), seq), ("c2".to_string(), whole[1])]
    );
    Ok(())
}

/// Ids with spaces, dots, NATS wildcards, `~`, accents and emoji: each its own subject, its
/// records only its own, listed back as written.
#[test]
fn every_id_the_api_accepts_is_a_subject_of_its_own() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let log = EventLog::open_jetstream(&server.settings())?;
    let ids = [
        "c1",
        "c1.task",
        "a chat",
        "*",
        ">",
        "a.>",
        "~preferences",
        "_20",
        "héllo 🦀",
        &"x".repeat(256),
    ];
    for (n, id) in ids.iter().enumerate() {
        log.append(id, &said(n as i64, id))?;
    }
    for id in ids {
        assert_eq!(log.chat(id)?.state.said, [id], "{id}");
    }
    let mut listed: Vec<String> = log.chats().collect::<Result<_, _>>()?;
    listed.sort();
    let mut expected: Vec<String> = ids.iter().map(|id| id.to_string()).collect();
    expected.sort();
    assert_eq!(listed, expected);
    Ok(())
}

/// A server that isn't there is an error of opening, which names it, within the step's bound.
#[test]
fn no_server_is_an_error_that_names_it() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("no free port: {e}"));
    let started = Instant::now();
    let settings = jetstream::Settings {
        url: format!("nats://127.0.0.1:{port}"),
        ..jetstream::Settings::default()
    };
    let Err(e) = EventLog::open_jetstream(&settings) else {
        panic!("opened a log on a port nobody listens on")
    };
    let said = e.to_string();
    assert!(
        said.starts_with(&format!(
            "the event log in `nats://127.0.0.1:{port}, stream `warden`` could not be opened: connecting"
        )),
        "{said}"
    );
    assert!(started.elapsed() < jetstream::STEP_TIMEOUT + Duration::from_secs(5));
}

/// A `url` naming several servers: the log opens on the one that answers, the first
/// (nobody listening on it) passed over, and a bad address among them is refused by name.
#[test]
fn a_url_of_several_servers_opens_on_one_that_answers() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let nobody = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let live = server.settings();
    let settings = jetstream::Settings {
        url: format!("nats://127.0.0.1:{nobody}, {}", live.url),
        ..live.clone()
    };
    let log = EventLog::open_jetstream(&settings)?;
    log.append("c1", &said(1, "through the second server"))?;
    assert_eq!(log.chat("c1")?.state.said, ["through the second server"]);
    let bad = jetstream::Settings {
        url: format!("{},http://127.0.0.1:{nobody}", live.url),
        ..live
    };
    let Err(e) = EventLog::open_jetstream(&bad) else {
        panic!("opened a log on a url with an http:// server in it")
    };
    assert!(
        e.to_string().contains(&format!(
            "`http://127.0.0.1:{nobody}` must start with `nats://`"
        )),
        "{e}"
    );
    Ok(())
}

/// A stream made by the warden before groups had chains (subjects `warden.chat.>` only, a
/// group's last record carrying `Warden-Commit`): opening adds the chains' subjects to it,
/// its old groups are read whole, and new groups are written and read beside them.
#[test]
fn a_stream_made_before_chains_is_read_and_written() -> Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let js = async_nats::jetstream::new(async_nats::connect(server.url()).await?);
        js.create_stream(async_nats::jetstream::stream::Config {
            name: "warden".to_string(),
            subjects: vec!["warden.chat.>".to_string()],
            allow_direct: true,
            ..Default::default()
        })
        .await?;
        for (n, chat) in ["c1", "c2"].into_iter().enumerate() {
            let mut headers = async_nats::HeaderMap::new();
            headers.insert("Warden-Batch", "an-old-writer-g0");
            headers.insert("Nats-Msg-Id", format!("an-old-writer-{n}").as_str());
            if n == 1 {
                headers.insert("Warden-Commit", "2");
            }
            let value = warden_storage::codec::write_record(&said(n as i64, "old"))?;
            js.publish_with_headers(
                format!("warden.chat.{}", jetstream::token(chat)),
                headers,
                value.into(),
            )
            .await?
            .await?;
        }
        Ok::<_, Box<dyn std::error::Error>>(())
    })?;
    let log = EventLog::open_jetstream(&server.settings())?;
    assert_eq!(log.chat("c1")?.state.said, ["old"]);
    assert_eq!(log.chat("c2")?.state.said, ["old"]);
    log.append_batch(&[("c1", said(3, "new")), ("c2", said(4, "new too"))])?;
    let reader = EventLog::open_jetstream_as(&server.settings(), Some("another"))?;
    assert_eq!(reader.chat("c1")?.state.said, ["old", "new"]);
    assert_eq!(reader.chat("c2")?.state.said, ["old", "new too"]);
    assert_eq!(reader.after(0, 10)?.len(), 4);
    Ok(())
}
