//! The heap sled holds as the event log grows, by `[log] cache_mb` (issue 12: resident
//! memory flat over a soak): a million judged steps of 10,000 chats appended in groups of
//! fifty, as the log's writer groups them, flushed every 25,000; the heap the log holds
//! and the time taken every 200,000, for each cache size.
//!
//! What is counted: every byte of the heap the process holds past what it held once the log
//! was opened (sled's cache, its page table, its write buffers). sled counts its cache in its
//! pages' sizes on disk, so it holds several times `cache_mb` in memory once full, and a
//! little more for every page of a log that only grows.
//!
//! Run with `cargo bench -p warden-benches --bench log_memory` (`CACHE_MB=8,32` for others).
#![expect(clippy::panic, reason = "a bench whose fixture is wrong stops at once")]

use cap::Cap;
use std::alloc::System;
use std::time::Instant;
use warden::chat::{Event, Record};
use warden::verdict::Decision;
use warden_storage::EventLog;

/// The system's allocator, counting the bytes live.
#[global_allocator]
static ALLOCATOR: Cap<System> = Cap::new(System, usize::MAX);

const CHATS: usize = 10_000;
const RECORDS: usize = 1_000_000;
const GROUP: usize = 50;
const FLUSH_EVERY: usize = 25_000;
const SHOWN_EVERY: usize = 200_000;

fn main() {
    // `cargo bench` passes `--bench`; a filter that doesn't name this bench skips it.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    if filter.is_some_and(|f| !"log_memory".contains(&f) && !"memory".contains(&f)) {
        return;
    }
    let sizes: Vec<u64> = std::env::var("CACHE_MB")
        .unwrap_or_else(|_| "1,8,32".to_string())
        .split(',')
        .map(|mb| {
            mb.trim()
                .parse()
                .unwrap_or_else(|e| panic!("CACHE_MB: {e}"))
        })
        .collect();
    let record = Record {
        at_ms: 1_700_000_000_000,
        event: Event::Judged {
            tool: "Bash".into(),
            decision: Decision::Allow,
            score: 0,
            rules: Vec::new(),
            counts: Vec::new(),
            look: None,
            fetched: Vec::new(),
            written: Vec::new(),
        },
    };
    let chats: Vec<String> = (0..CHATS).map(|n| format!("c{n}")).collect();
    for cache_mb in sizes {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let log = EventLog::open_with(dir.path(), cache_mb << 20).unwrap_or_else(|e| panic!("{e}"));
        let opened = ALLOCATOR.allocated();
        let started = Instant::now();
        // The same chats in the same order for every size: a fixed linear congruential walk.
        let mut walk: u64 = 12_345;
        let mut next = || {
            walk = walk
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            usize::try_from(walk >> 33).unwrap_or(0) % CHATS
        };
        for written in (GROUP..=RECORDS).step_by(GROUP) {
            let items: Vec<(&str, &Record)> = (0..GROUP)
                .map(|_| (chats[next()].as_str(), &record))
                .collect();
            log.append_batch(&items).unwrap_or_else(|e| panic!("{e}"));
            if written % FLUSH_EVERY == 0 {
                log.flush().unwrap_or_else(|e| panic!("{e}"));
            }
            if written % SHOWN_EVERY == 0 {
                println!(
                    "log_memory: cache_mb {cache_mb:>3}: {written:>7} records, heap +{:>6} KiB, {:>6} KiB on disk, {:>5.1} s",
                    ALLOCATOR.allocated().saturating_sub(opened) / 1024,
                    log.size_on_disk().unwrap_or_else(|e| panic!("{e}")) / 1024,
                    started.elapsed().as_secs_f64()
                );
            }
        }
    }
}
