//! The event log: replaying 1,000,000 events (target ≥ 500,000 events/s), bringing back a chat
//! of 100,000 events from its snapshot (target < 50 ms), and appending with group commit.
//! Run with `cargo bench -p warden-benches --bench replay -- --warm-up-time 1 --measurement-time 5`;
//! setup writes the logs once, in a few seconds.
#![expect(clippy::panic, reason = "a bench whose fixture is wrong stops at once")]

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use warden::chat::{Answer, Event, Mark, Record};
use warden::mode::Mode;
use warden::verdict::Decision;
use warden_storage::{EventLog, SNAPSHOT_EVERY};

const BASE_MS: i64 = 1_770_000_000_000;

/// The `i`th event of a working chat, two seconds apart: steps judged (some counted by the
/// behaviour watch), the person's messages, pages read, questions and answers, turns.
fn record(i: u64) -> Record {
    let event = match i % 10 {
        _ if i == 0 => Event::Opened {
            mode: Mode::Auto,
            company: warden::chat::Company::Alone,
            parent: None,
            scoped: false,
        },
        0 if i.is_multiple_of(50) => Event::Turn,
        1 => Event::Said {
            text: format!("fix the failing test and push it ({i})"),
        },
        2 => Event::Read {
            mark: Mark {
                name: ["a web page", "an email", "GitHub content"][(i % 3) as usize].to_string(),
                provenance: None,
            },
        },
        3 => Event::Asked {
            question: i,
            tool: "Bash".into(),
            class: "git.push".into(),
            offers: warden::chat::Offers::default(),
            counts: Vec::new(),
            lookup: false,
            reason: String::new(),
            shown: None,
        },
        4 => Event::Answered {
            question: i - 1,
            answer: Answer::Once,
            kept: None,
            ran: None,
        },
        n => Event::Judged {
            tool: "Bash".into(),
            decision: Decision::Allow,
            score: 1,
            rules: vec!["git.status".into()],
            counts: if n % 5 == 0 {
                vec![("messages".into(), 1)]
            } else {
                Vec::new()
            },
            look: None,
            fetched: Vec::new(),
            written: Vec::new(),
        },
    };
    Record {
        at_ms: BASE_MS + i as i64 * 2_000,
        event,
    }
}

fn fail(what: &str, e: impl std::fmt::Display) -> ! {
    panic!("{what}: {e}")
}

/// Writes `per_chat` events to each of `chats` chats, round-robin, in groups of 1,024.
fn fill(log: &EventLog, chats: &[String], per_chat: u64) {
    let mut group: Vec<(&str, Record)> = Vec::with_capacity(1_024);
    for i in 0..per_chat {
        for chat in chats {
            group.push((chat.as_str(), record(i)));
            if group.len() == 1_024 {
                log.append_batch(&group)
                    .unwrap_or_else(|e| fail("append", e));
                group.clear();
            }
        }
    }
    log.append_batch(&group)
        .unwrap_or_else(|e| fail("append", e));
    log.flush().unwrap_or_else(|e| fail("flush", e));
}

fn replay_everything(c: &mut Criterion) {
    const CHATS: usize = 1_000;
    const PER_CHAT: u64 = 1_000;
    let dir = tempfile::tempdir().unwrap_or_else(|e| fail("tempdir", e));
    let log = EventLog::open(dir.path()).unwrap_or_else(|e| fail("open", e));
    let chats: Vec<String> = (0..CHATS).map(|i| format!("chat-{i:05}")).collect();
    fill(&log, &chats, PER_CHAT);
    let total = CHATS as u64 * PER_CHAT;

    let mut group = c.benchmark_group("replay");
    group.sample_size(10);
    group.throughput(Throughput::Elements(total));
    group.bench_function("1,000,000 events in 1,000 chats, walked and folded", |b| {
        b.iter(|| {
            let mut events = 0;
            for chat in log.replay_all() {
                let (_, replayed) = chat.unwrap_or_else(|e| fail("replay", e));
                events += replayed.events;
                black_box(&replayed.state);
            }
            assert_eq!(events, total);
        })
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("list 1,000 chats", |b| {
        b.iter(|| assert_eq!(log.chats().count(), CHATS));
    });
    group.finish();
}

fn one_big_chat(c: &mut Criterion) {
    const EVENTS: u64 = 100_000;
    let dir = tempfile::tempdir().unwrap_or_else(|e| fail("tempdir", e));
    let log = EventLog::open(dir.path()).unwrap_or_else(|e| fail("open", e));
    let big = ["big".to_string()];
    let small = ["small".to_string()];
    fill(&log, &big, EVENTS);
    fill(&log, &small, 100);
    // The snapshot policy's worst case: SNAPSHOT_EVERY - 1 events after the latest snapshot.
    let mut state = warden::chat::ChatState::default();
    let mut last = 0;
    for (n, entry) in log
        .records("big")
        .unwrap_or_else(|e| fail("records", e))
        .enumerate()
    {
        let entry = entry.unwrap_or_else(|e| fail("records", e));
        let record = entry.record.unwrap_or_else(|e| fail("a record", e));
        state.apply(&record);
        last = entry.seq;
        if n as u64 == EVENTS - SNAPSHOT_EVERY {
            break;
        }
    }
    if !log
        .snapshot("big", last, &state)
        .unwrap_or_else(|e| fail("snapshot", e))
    {
        fail("snapshot", "not taken");
    }
    let back = log.chat("big").unwrap_or_else(|e| fail("chat", e));
    assert_eq!(
        (back.state.events, back.events),
        (EVENTS, SNAPSHOT_EVERY - 1)
    );

    let mut group = c.benchmark_group("one chat");
    group.sample_size(10);
    group.bench_function("100,000 events, from a snapshot and 999 events", |b| {
        b.iter(|| black_box(log.chat("big").unwrap_or_else(|e| fail("chat", e))))
    });
    group.bench_function("100 events, no snapshot", |b| {
        b.iter(|| black_box(log.chat("small").unwrap_or_else(|e| fail("chat", e))))
    });
    group.bench_function("100,000 events, read without folding", |b| {
        b.iter(|| {
            let mut read = 0;
            for entry in log.records("big").unwrap_or_else(|e| fail("records", e)) {
                read += u64::from(entry.unwrap_or_else(|e| fail("records", e)).record.is_ok());
            }
            assert_eq!(read, EVENTS);
        })
    });
    group.bench_function("100,000 events, no snapshot", |b| {
        b.iter(|| {
            let mut state = warden::chat::ChatState::default();
            for entry in log.records("big").unwrap_or_else(|e| fail("records", e)) {
                if let Ok(record) = entry.unwrap_or_else(|e| fail("records", e)).record {
                    state.apply(&record);
                }
            }
            black_box(state)
        })
    });
    group.finish();
}

fn append(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| fail("tempdir", e));
    let log = EventLog::open(dir.path()).unwrap_or_else(|e| fail("open", e));
    let chats: Vec<String> = (0..64).map(|i| format!("chat-{i}")).collect();
    let mut group = c.benchmark_group("append, one flush per group");
    group.sample_size(20);
    for size in [1usize, 64, 1_024] {
        group.throughput(Throughput::Elements(size as u64));
        group.bench_function(format!("{size} per flush"), |b| {
            b.iter_batched(
                || {
                    (0..size)
                        .map(|i| (chats[i % chats.len()].as_str(), record(i as u64 + 5)))
                        .collect::<Vec<_>>()
                },
                |group| {
                    log.append_batch(&group)
                        .unwrap_or_else(|e| fail("append", e));
                    log.flush().unwrap_or_else(|e| fail("flush", e));
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, replay_everything, one_big_chat, append);
criterion_main!(benches);
