//! The event log's integration tests: one binary, one module per area.

mod after;
mod atomic;
mod cluster;
mod damaged;
mod durability;
mod engines;
mod full;
mod model;
mod nats;
mod replay;
mod replicas;
mod versions;
mod writers;

use std::path::Path;
use warden::chat::{Event, Record};

type Outcome = Result<(), Box<dyn std::error::Error>>;

/// The person said `text` at `at_ms`.
fn said(at_ms: i64, text: &str) -> Record {
    Record {
        at_ms,
        event: Event::Said { text: text.into() },
    }
}

/// What a said record says, or what it is instead.
fn text(record: &Result<Record, warden_storage::Skip>) -> String {
    match record {
        Ok(Record {
            event: Event::Said { text },
            ..
        }) => text.clone(),
        other => format!("not a said record: {other:?}"),
    }
}

/// The key the log gives `chat`'s event `seq`: `[u16 BE length][chat id][u64 BE sequence]`.
fn key(chat: &str, seq: u64) -> Vec<u8> {
    let mut key = (chat.len() as u16).to_be_bytes().to_vec();
    key.extend_from_slice(chat.as_bytes());
    key.extend_from_slice(&seq.to_be_bytes());
    key
}

/// Writes raw bytes into a tree of a closed log, as another warden (or damage) would.
fn put_raw(dir: &Path, tree: &str, key: &[u8], value: &[u8]) -> Outcome {
    // A log dropped a moment ago may still hold its lock while sled's threads wind down.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let db = loop {
        match sled::open(dir) {
            Ok(db) => break db,
            Err(_) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(10))
            }
            Err(e) => return Err(e.into()),
        }
    };
    db.open_tree(tree)?.insert(key, value)?;
    db.flush()?;
    Ok(())
}
