//! The runtime: decisions per second through the chat, judge and log actors with many
//! chats at once, and the memory an idle chat holds.
#![expect(clippy::panic, reason = "a bench whose fixture is wrong stops at once")]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::sync::Arc;
use std::time::Duration;
use warden::chat::{Event, Mark};
use warden::facts::FakeFacts;
use warden::step::Step;
use warden_actors::runtime::{Options, Runtime};

const COMMANDS: &[&str] = &[
    "cargo test",
    "git status --short",
    "git push origin main",
    "npm run build",
    "rg -n TODO src",
];

fn tokio() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Resident memory of this process, in KiB (Linux).
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|statm| {
            statm
                .split_whitespace()
                .nth(1)
                .and_then(|pages| pages.parse::<u64>().ok())
        })
        .map_or(0, |pages| pages * 4)
}

fn decisions(c: &mut Criterion) {
    let disk = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    run(c, "log on disk", disk.path());
    // The same on a RAM-backed folder, where there is one: what the actors cost without
    // waiting for the disk's flush (the log is disk-bound on these machines).
    if let Ok(ram) = tempfile::tempdir_in("/dev/shm") {
        run(c, "log in memory (tmpfs)", ram.path());
    }
}

fn run(c: &mut Criterion, name: &str, dir: &std::path::Path) {
    let rt = tokio();
    let warden = rt.block_on(async {
        Runtime::open(
            dir,
            Arc::new(FakeFacts::unknown()),
            Options {
                protected: vec![],
                idle: Duration::from_secs(3600),
            },
        )
        .await
        .unwrap_or_else(|e| panic!("{e:#}"))
    });
    const CHATS: usize = 10_000;
    const STEPS: usize = 10;
    // Chats judged at once: each chat is one conversation, one step at a time.
    const CALLERS: usize = 1_000;
    // Every chat in memory first, with a mark, so the bench measures decisions, not spawning.
    let before = rss_kib();
    rt.block_on(async {
        let mut writers = Vec::new();
        for caller in 0..CALLERS {
            let warden = warden.clone();
            writers.push(tokio::spawn(async move {
                for chat in (caller..CHATS).step_by(CALLERS) {
                    let mark = Mark {
                        name: "a web page".into(),
                        provenance: None,
                    };
                    warden
                        .record(&format!("c{chat}"), Event::Read { mark })
                        .await
                        .unwrap_or_else(|e| panic!("{e:#}"));
                }
            }));
        }
        for writer in writers {
            writer.await.unwrap_or_else(|e| panic!("{e}"));
        }
    });
    let after = rss_kib();
    println!(
        "memory ({name}): {CHATS} chats in memory hold {} KiB, {:.1} KiB a chat (the log's cache included)",
        after.saturating_sub(before),
        after.saturating_sub(before) as f64 / CHATS as f64
    );

    let mut group = c.benchmark_group("runtime");
    group.sample_size(10);
    group.throughput(Throughput::Elements((CHATS * STEPS) as u64));
    group.bench_function(
        format!("10,000 chats x 10 steps, 1,000 at once, {name}"),
        |b| {
            b.iter(|| {
                rt.block_on(async {
                    let mut callers = Vec::new();
                    for caller in 0..CALLERS {
                        let warden = warden.clone();
                        callers.push(tokio::spawn(async move {
                            for chat in (caller..CHATS).step_by(CALLERS) {
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
                            }
                        }));
                    }
                    for caller in callers {
                        caller.await.unwrap_or_else(|e| panic!("{e}"));
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
