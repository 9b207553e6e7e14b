//! The memory an idle chat holds in memory (target under 8 KiB plus its words): 10,000 chats
//! brought into memory with one mark each, then let go; what their going gives back to the
//! allocator is what they held. The log's cache is not counted: it stays when they go.
//!
//! Run with `cargo bench -p warden-benches --bench runtime_memory`.
#![expect(clippy::panic, reason = "a bench whose fixture is wrong stops at once")]

use cap::Cap;
use std::alloc::System;
use std::time::{Duration, Instant};
use warden_benches::{mark_all, open, tokio};

/// The system's allocator, counting the bytes live.
#[global_allocator]
static ALLOCATOR: Cap<System> = Cap::new(System, usize::MAX);

fn live() -> isize {
    isize::try_from(ALLOCATOR.allocated()).unwrap_or(isize::MAX)
}

const CHATS: usize = 10_000;

fn main() {
    // `cargo bench` passes `--bench`; a filter that doesn't name this bench skips it.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    if filter.is_some_and(|f| !"runtime_memory".contains(&f) && !"memory".contains(&f)) {
        return;
    }
    let rt = tokio();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let warden = open(&rt, dir.path(), Duration::from_secs(4));
    mark_all(&rt, &warden, CHATS);
    let in_memory = rt
        .block_on(warden.in_memory())
        .unwrap_or_else(|e| panic!("{e:#}"));
    let held = live();
    let started = Instant::now();
    while rt
        .block_on(warden.in_memory())
        .unwrap_or_else(|e| panic!("{e:#}"))
        > 0
    {
        if started.elapsed() > Duration::from_secs(60) {
            panic!("the chats did not leave memory within a minute");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // Let the stopped actors' tasks finish dropping their state.
    std::thread::sleep(Duration::from_millis(500));
    let freed = held - live();
    println!(
        "memory: {in_memory} idle chats held {} KiB in memory, {:.2} KiB a chat (heap given back when they left; the log's cache not counted)",
        freed / 1024,
        freed as f64 / 1024.0 / in_memory.max(1) as f64
    );
    rt.block_on(async { warden.shutdown().await.unwrap_or_else(|e| panic!("{e:#}")) });
}
