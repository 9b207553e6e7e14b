//! One operation, one batch, across streams: a task's opening and inheritance, its chat's
//! `TaskCreated`, the chat's answer and the preference it keeps are appended together
//! (`append_batch`), and after a SIGKILL at any moment each operation is all there or not at
//! all, in every stream it touched. On sled every stream is a key range of the one `events`
//! tree, so this is sled's batch on one tree; on JetStream it is a group's parts and its
//! commit (`storage/src/jetstream.rs`), the writer killed between any two of them. The test
//! holds both to it.

use crate::Outcome;
use crate::engines::{Place, open_for_writer};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use warden::chat::{Event, Record};
use warden::preferences::STREAM;
use warden_storage::EventLog;

/// Set to a folder, it turns [`operations_writer`] into the writer for the log there.
const WRITER_DIR: &str = "WARDEN_STORAGE_ATOMIC_WRITER";
/// The streams an operation touches: a chat, its task, the preferences.
const STREAMS: [&str; 3] = ["c1", "c1.task", STREAM];
/// Records each operation writes to each stream, each with its operation's number.
const PER_STREAM: [usize; 3] = [2, 3, 1];

/// Operation `op`'s records: messages in the chat and the task (long ones, so an operation
/// spans more than one of sled's writes), a note in the preferences.
fn operation(op: usize) -> Vec<(&'static str, Record)> {
    let mut items = Vec::new();
    for (stream, n) in STREAMS.iter().zip(PER_STREAM) {
        for part in 0..n {
            let text = format!("op {op} part {part} {}", "x".repeat(600));
            let event = if *stream == STREAM {
                Event::NoteChanged { note: text }
            } else {
                Event::Said { text }
            };
            items.push((
                *stream,
                Record {
                    at_ms: op as i64,
                    event,
                },
            ));
        }
    }
    items
}

/// The operation number each record of `stream` carries.
fn operations_in(log: &EventLog, stream: &str) -> Result<Vec<usize>, Box<dyn std::error::Error>> {
    let mut ops = Vec::new();
    for entry in log.records(stream)? {
        let record = entry?.record.map_err(|skip| format!("{stream}: {skip}"))?;
        let text = match record.event {
            Event::Said { text } | Event::NoteChanged { note: text } => text,
            other => return Err(format!("{stream}: a stranger {other:?}").into()),
        };
        let op = text
            .split_whitespace()
            .nth(1)
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("{stream}: not an operation's record: {text}"))?;
        ops.push(op);
    }
    Ok(ops)
}

/// Not a test on its own: with [`WRITER_DIR`] set it appends operations to the log there as
/// fast as it can, flushing after every 64th and then printing `flushed N` (operations
/// 0..N are durable), until it is killed. Between flushes sled writes on its own, so a kill
/// finds operations on disk that no flush covered.
#[test]
fn operations_writer() -> Outcome {
    let Some(dir) = std::env::var_os(WRITER_DIR) else {
        return Ok(());
    };
    let log = open_for_writer(std::path::Path::new(&dir))?;
    let mut op = operations_in(&log, STREAMS[0])?
        .last()
        .map_or(0, |last| last + 1);
    loop {
        log.append_batch(&operation(op))?;
        op += 1;
        if op % 64 == 0 {
            log.flush()?;
            println!("flushed {op}");
        }
    }
}

/// Kill the writer with SIGKILL at a pseudo-random moment (after a number of flushes, then up
/// to 0.7 s more of writing, past sled's own flush every 0.5 s), six times over on the same
/// log: every operation in
/// the log is whole in all three streams, each stream holds the operations in order, and
/// every flushed one is there.
#[test]
fn an_operation_over_several_streams_survives_sigkill_whole_or_not_at_all() -> Outcome {
    for place in Place::all()? {
        survives_sigkill(&place).map_err(|e| format!("{}: {e}", place.name()))?;
    }
    Ok(())
}

fn survives_sigkill(place: &Place) -> Outcome {
    let exe = std::env::current_exe()?;
    let mut seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(7, |d| d.as_nanos() as u64)
        | 1;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let started = Instant::now();
    let mut flushed = 0;
    for round in 0..6 {
        let flushes = 1 + next() % 4;
        let more = Duration::from_millis(next() % 700);
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "atomic::operations_writer",
                "--nocapture",
                "--test-threads=1",
            ])
            .envs(place.writer_env(WRITER_DIR))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let Some(stdout) = child.stdout.take() else {
            return Err("no stdout from the writer".into());
        };
        let mut lines = BufReader::new(stdout).lines();
        let mut seen = 0;
        while seen < flushes {
            let Some(line) = lines.next() else { break };
            if let Some(n) = line?.strip_prefix("flushed ") {
                flushed = n.parse()?;
                seen += 1;
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "the writer is too slow"
            );
        }
        assert_eq!(seen, flushes, "round {round}: the writer stopped early");
        std::thread::sleep(more);
        child.kill()?; // SIGKILL
        child.wait()?;

        let log = place.open()?;
        let mut counts: Vec<BTreeMap<usize, usize>> = Vec::new();
        for stream in STREAMS {
            let ops = operations_in(&log, stream)?;
            assert!(
                ops.windows(2).all(|w| w[0] <= w[1]),
                "round {round}, {stream}: out of order"
            );
            let mut count = BTreeMap::new();
            for op in ops {
                *count.entry(op).or_insert(0) += 1;
            }
            counts.push(count);
        }
        let ops: Vec<usize> = counts[0].keys().copied().collect();
        for (stream, (count, n)) in STREAMS.iter().zip(counts.iter().zip(PER_STREAM)) {
            let here: Vec<usize> = count.keys().copied().collect();
            assert_eq!(
                here, ops,
                "round {round}: {stream} holds other operations than c1"
            );
            for (op, got) in count {
                assert_eq!(*got, n, "round {round}: operation {op} is torn in {stream}");
            }
        }
        assert!(
            ops.len() >= flushed,
            "round {round}: {} operations in the log, {flushed} flushed",
            ops.len()
        );
        assert_eq!(
            ops,
            (0..ops.len()).collect::<Vec<_>>(),
            "round {round}: an operation is missing between others"
        );
    }
    Ok(())
}
