//! The memory a chat holds (issue 12: an idle chat at most 4 KiB): 10,000 chats brought into
//! memory with one mark each (a web page read), held first by their actors, then, once they
//! have had nothing to do for `active`, as their state alone (idle), then let go.
//!
//! What is counted: every byte the process's heap holds for the chats, whatever holds it
//! (their actors' mailboxes, tasks and registry names, the supervisor's map, the states),
//! measured as what the heap gives back when the chats leave memory: the live bytes at each
//! stage less the live bytes once they have gone, over the number of chats. What is not: the
//! log's cache (sled's, bounded by `[log] cache_mb`), which stays when the chats go, and
//! anything outside the heap (thread stacks). An idle chat's state stays in the supervisor's
//! map on the heap, so it is counted. Last, what the chats left behind once they had gone:
//! the live bytes then less those before they came (the log's new records, and the part of
//! its cache they filled, among it), which says whether a chat that comes and goes leaks.
//!
//! Run with `cargo bench -p warden-benches --bench runtime_memory`.
#![expect(clippy::panic, reason = "a bench whose fixture is wrong stops at once")]

use cap::Cap;
use std::alloc::System;
use std::sync::Arc;
use std::time::{Duration, Instant};
use warden::facts::FakeFacts;
use warden_actors::runtime::{InMemory, Options, Runtime};
use warden_benches::{mark_all, tokio};

/// The system's allocator, counting the bytes live.
#[global_allocator]
static ALLOCATOR: Cap<System> = Cap::new(System, usize::MAX);

fn live() -> isize {
    isize::try_from(ALLOCATOR.allocated()).unwrap_or(isize::MAX)
}

const CHATS: usize = 10_000;
/// Long enough for the marks to be written before any chat stops its actor.
const ACTIVE: Duration = Duration::from_secs(4);
/// Long enough for every chat to be held idle before the first leaves memory.
const IDLE: Duration = Duration::from_secs(12);

fn main() {
    // `cargo bench` passes `--bench`; a filter that doesn't name this bench skips it.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    if filter.is_some_and(|f| !"runtime_memory".contains(&f) && !"memory".contains(&f)) {
        return;
    }
    let rt = tokio();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let warden = rt.block_on(async {
        Runtime::open(
            dir.path(),
            Arc::new(FakeFacts::unknown()),
            Options {
                idle: IDLE,
                active: ACTIVE,
                ..Options::default()
            },
        )
        .await
        .unwrap_or_else(|e| panic!("{e:#}"))
    });
    let in_memory = || {
        rt.block_on(warden.chats_in_memory())
            .unwrap_or_else(|e| panic!("{e:#}"))
    };
    let before = live();
    let started = Instant::now();
    mark_all(&rt, &warden, CHATS);
    let with_actors = live();
    let held = in_memory();
    if held
        != (InMemory {
            actors: CHATS,
            idle: 0,
        })
    {
        panic!(
            "{held:?} after {:?}: the marks took longer than `active`",
            started.elapsed()
        );
    }
    let until = |what: &str, done: &dyn Fn(InMemory) -> bool| {
        let started = Instant::now();
        while !done(in_memory()) {
            if started.elapsed() > Duration::from_secs(60) {
                panic!("{what} did not happen within a minute");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        // Let the stopped actors' tasks finish dropping what they held.
        std::thread::sleep(Duration::from_millis(500));
    };
    until("every chat stopping its actor", &|n| n.actors == 0);
    let idle = live();
    let held = in_memory();
    if held
        != (InMemory {
            actors: 0,
            idle: CHATS,
        })
    {
        panic!("{held:?}: a chat left memory before every chat was idle");
    }
    until("every chat leaving memory", &|n| n.total() == 0);
    let gone = live();
    let per_chat = |bytes: isize| bytes as f64 / 1024.0 / CHATS as f64;
    println!(
        "memory: {CHATS} chats with one mark each, the heap they gave back when they left (the log's cache not counted):"
    );
    println!(
        "memory:   with their actors {} KiB, {:.2} KiB a chat",
        (with_actors - gone) / 1024,
        per_chat(with_actors - gone)
    );
    println!(
        "memory:   idle (their state alone) {} KiB, {:.2} KiB a chat",
        (idle - gone) / 1024,
        per_chat(idle - gone)
    );
    println!(
        "memory:   left behind once they had gone (the log's records among it) {} KiB, {:.2} KiB a chat",
        (gone - before) / 1024,
        per_chat(gone - before)
    );
    rt.block_on(async { warden.shutdown().await.unwrap_or_else(|e| panic!("{e:#}")) });
}
