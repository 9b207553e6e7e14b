//! What survives: flushed events across a drop and a reopening, and across SIGKILL of a
//! writing process (this binary again, run as a writer by an environment variable).

use crate::{Outcome, said};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use warden::chat::Record;
use warden_storage::EventLog;

/// Set to a folder, it turns [`writer`] into the crash test's writer for the log there.
const WRITER_DIR: &str = "WARDEN_STORAGE_CRASH_WRITER";
/// Chats the writer writes to, each group one record to each.
const CHATS: [&str; 4] = ["c0", "c1", "c2", "c3"];
/// Groups per flush.
const GROUPS: usize = 8;

#[test]
fn flushed_events_survive_drop_and_reopen() -> Outcome {
    let dir = tempfile::tempdir()?;
    {
        let log = EventLog::open(dir.path())?;
        log.append("c1", &said(1, "push it"))?;
        log.append_batch(&[("c1", said(2, "then tag it")), ("c2", said(3, "hello"))])?;
        log.flush()?;
        log.append_durable("c2", &said(4, "bye"))?;
    }
    let log = EventLog::open(dir.path())?;
    assert_eq!(log.chat("c1")?.state.said, ["push it", "then tag it"]);
    assert_eq!(log.chat("c2")?.state.said, ["hello", "bye"]);
    assert_eq!(log.len(), 4);
    Ok(())
}

/// Not a test on its own: with [`WRITER_DIR`] set it appends groups to the log there forever,
/// flushing after every [`GROUPS`] groups and then printing `flushed N` (N records in all), until
/// it is killed.
#[test]
fn writer() -> Outcome {
    let Some(dir) = std::env::var_os(WRITER_DIR) else {
        return Ok(());
    };
    let log = EventLog::open(&dir)?;
    // Go on from what earlier writers left: each chat's records are numbered 0, 1, 2…
    let mut next = log.chat(CHATS[0])?.state.said.len();
    let mut total = log.len();
    loop {
        for _ in 0..GROUPS {
            let group: Vec<(&str, Record)> = CHATS
                .iter()
                .map(|chat| (*chat, said(next as i64, &format!("{chat} {next}"))))
                .collect();
            log.append_batch(&group)?;
            next += 1;
            total += CHATS.len();
        }
        log.flush()?;
        println!("flushed {total}");
    }
}

/// A few pseudo-random numbers from the clock: where each round kills its writer.
fn kill_points(n: usize) -> Vec<usize> {
    let mut x = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            1 + (x % 40) as usize
        })
        .collect()
}

/// Kill a writer with SIGKILL after its k-th `flushed N`, three times over on the same log:
/// every flushed record is there, each chat is numbered without a gap, and every record reads
/// whole (a group is all there or not at all).
#[test]
fn flushed_events_survive_sigkill() -> Outcome {
    let dir = tempfile::tempdir()?;
    let exe = std::env::current_exe()?;
    let started = Instant::now();
    let mut flushed = 0;
    for k in kill_points(3) {
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "durability::writer",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(WRITER_DIR, dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let Some(stdout) = child.stdout.take() else {
            panic!("no stdout from the writer")
        };
        let mut seen = 0;
        for line in BufReader::new(stdout).lines() {
            let line = line?;
            if let Some(n) = line.strip_prefix("flushed ") {
                flushed = n.parse()?;
                seen += 1;
                if seen == k {
                    break;
                }
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the writer is too slow"
            );
        }
        assert_eq!(seen, k, "the writer stopped before its {k}th flush");
        child.kill()?; // SIGKILL
        child.wait()?;

        let log = EventLog::open(dir.path())?;
        let mut lengths = Vec::new();
        for chat in CHATS {
            let replayed = log.chat(chat)?;
            assert_eq!(replayed.skipped, 0, "{chat}: a record half-written");
            let expected: Vec<String> = (0..replayed.state.said.len())
                .map(|i| format!("{chat} {i}"))
                .collect();
            assert_eq!(replayed.state.said, expected, "{chat}: a gap or a stranger");
            lengths.push(replayed.state.said.len());
        }
        assert!(
            lengths.windows(2).all(|w| w[0] == w[1]),
            "a group came back in part: {lengths:?}"
        );
        let total = log.len();
        assert!(
            total >= flushed,
            "{total} records after a kill, {flushed} flushed before it"
        );
    }
    Ok(())
}
