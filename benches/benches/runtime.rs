//! The runtime: decisions per second through the chat, judge and log actors, 10,000 chats at
//! once (target ≥ 100,000 decisions/s on 2 cores, issue 12). The memory an idle chat holds is measured
//! by `runtime_memory`, whose counting allocator would tax this one.
//!
//! Each sample is every one of 10,000 chats taking 10 steps, one at a time (each chat is a
//! conversation), all chats at once; ten samples make the 10,000 chats × 100 steps.
//! One step in five is a push after reading, which asks: a question is durable before it is
//! answered, so those steps wait for the disk's flush.
//!
//! Run with `cargo bench -p warden-benches --bench runtime -- --warm-up-time 1 --measurement-time 5`.
#![expect(clippy::panic, reason = "a bench whose fixture is wrong stops at once")]

/// The binary's allocator (`actors/src/main.rs`), so the bench measures what runs.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::time::Duration;
use warden::step::Step;
use warden_benches::{mark_all, open, tokio};

const COMMANDS: &[&str] = &[
    "cargo test",
    "git status --short",
    "git push origin main",
    "npm run build",
    "rg -n TODO src",
];

const CHATS: usize = 10_000;
const STEPS: usize = 10;

fn decisions(c: &mut Criterion) {
    let disk = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    run(c, "log on disk", disk.path());
    // The same on a RAM-backed folder, where there is one: what the actors cost when the
    // disk's flush costs nothing.
    if let Ok(ram) = tempfile::tempdir_in("/dev/shm") {
        run(c, "log in memory (tmpfs)", ram.path());
    }
}

fn run(c: &mut Criterion, name: &str, dir: &std::path::Path) {
    let rt = tokio();
    let warden = open(&rt, dir, Duration::from_secs(3600));
    // Every chat in memory first, with a mark, so the bench measures decisions, not spawning.
    mark_all(&rt, &warden, CHATS);
    let mut group = c.benchmark_group("runtime");
    group.sample_size(10);
    group.throughput(Throughput::Elements((CHATS * STEPS) as u64));
    group.bench_function(
        format!("10,000 chats x 10 steps, all at once, {name}"),
        |b| {
            b.iter(|| {
                rt.block_on(async {
                    let mut chats = Vec::with_capacity(CHATS);
                    for chat in 0..CHATS {
                        let warden = warden.clone();
                        chats.push(tokio::spawn(async move {
                            let id = format!("c{chat}");
                            for step in 0..STEPS {
                                let command = COMMANDS[(chat + step) % COMMANDS.len()];
                                let step = Step::Command {
                                    command: command.to_string(),
                                };
                                warden
                                    .judge(&id, step, "/home/user/app")
                                    .await
                                    .unwrap_or_else(|e| panic!("{e:#}"));
                            }
                        }));
                    }
                    for chat in chats {
                        chat.await.unwrap_or_else(|e| panic!("{e}"));
                    }
                })
            })
        },
    );
    group.finish();
    rt.block_on(async { warden.shutdown().await.unwrap_or_else(|e| panic!("{e:#}")) });
}

criterion_group!(benches, decisions);
criterion_main!(benches);
