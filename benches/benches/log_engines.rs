//! The event log's two engines side by side, in the same run: sled in a temporary folder and
//! NATS JetStream on a `nats-server -js` this bench starts on a free loopback port (skipped,
//! said so, when the binary is absent). Appends as the runtime's writer makes them (one
//! record acknowledged; a group of 64 over 8 chats, then one flush), one chat of 10,000 events
//! read back by its subject or prefix, every chat's newest sequence number (what the event feed
//! asks at start), 110,000 events in 101 chats replayed in one walk, and a chat of 1,000
//! events in groups read by its writer and by another node (JetStream).
//! Run with `cargo bench -j 1 -p warden-benches --bench log_engines -- --warm-up-time 1 --measurement-time 5`.
#![expect(clippy::panic, reason = "a bench whose fixture is wrong stops at once")]

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use warden::chat::{Event, Record};
use warden_storage::{EventLog, jetstream};

fn fail(what: &str, e: impl std::fmt::Display) -> ! {
    panic!("{what}: {e}")
}

/// A said record of about the size of a judged step's (120 bytes).
fn record(i: u64) -> Record {
    Record {
        at_ms: 1_770_000_000_000 + i as i64,
        event: Event::Said {
            text: format!("fix the failing test and push it, then tag the release ({i:08})"),
        },
    }
}

/// A `nats-server -js` on a free port with its store in a temporary folder, killed on drop.
struct Server {
    child: Child,
    port: u16,
    _store: tempfile::TempDir,
}

impl Server {
    fn start() -> Option<Server> {
        let binary = ["/usr/sbin/nats-server", "/usr/bin/nats-server"]
            .into_iter()
            .find(|p| std::path::Path::new(p).is_file());
        let Some(binary) = binary else {
            eprintln!("JetStream skipped: no nats-server (apt-get install nats-server)");
            return None;
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap_or_else(|e| fail("a free port", e));
        let store = tempfile::tempdir().unwrap_or_else(|e| fail("tempdir", e));
        let child = Command::new(binary)
            .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
            .arg(store.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| fail("nats-server", e));
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline {
                fail("nats-server", "not listening after 20 s");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(Server {
            child,
            port,
            _store: store,
        })
    }

    fn open(&self, stream: &str) -> EventLog {
        EventLog::open_jetstream(&jetstream::Settings {
            url: format!("nats://127.0.0.1:{}", self.port),
            stream: stream.to_string(),
            replicas: 1,
        })
        .unwrap_or_else(|e| fail("open", e))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Both engines, fresh, each with a name; the folder lives as long as the bench.
fn engines(
    server: Option<&Server>,
    stream: &str,
) -> (Vec<(&'static str, EventLog)>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| fail("tempdir", e));
    let mut logs = vec![(
        "sled",
        EventLog::open(dir.path()).unwrap_or_else(|e| fail("open", e)),
    )];
    if let Some(server) = server {
        logs.push(("jetstream", server.open(stream)));
    }
    (logs, dir)
}

fn append(c: &mut Criterion) {
    let server = Server::start();
    let (logs, _dir) = engines(server.as_ref(), "append");
    let chats: Vec<String> = (0..8).map(|i| format!("chat-{i}")).collect();
    let mut group = c.benchmark_group("log append, acknowledged");
    group.sample_size(20);
    for (name, log) in &logs {
        let mut i = 0;
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("{name}: 1 record"), |b| {
            b.iter(|| {
                i += 1;
                black_box(
                    log.append_durable("chat-0", &record(i))
                        .unwrap_or_else(|e| fail("append", e)),
                )
            })
        });
        group.throughput(Throughput::Elements(64));
        group.bench_function(format!("{name}: a group of 64 over 8 chats"), |b| {
            b.iter_batched(
                || {
                    (0..64u64)
                        .map(|n| (chats[(n % 8) as usize].as_str(), record(n)))
                        .collect::<Vec<_>>()
                },
                |items| {
                    log.append_batch(&items)
                        .unwrap_or_else(|e| fail("append", e));
                    log.flush().unwrap_or_else(|e| fail("flush", e));
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

/// Writes `per_chat` records to each chat, round-robin, in groups of 256.
fn fill(log: &EventLog, chats: &[String], per_chat: u64) {
    let mut group: Vec<(&str, Record)> = Vec::with_capacity(256);
    for i in 0..per_chat {
        for chat in chats {
            group.push((chat.as_str(), record(i)));
            if group.len() == 256 {
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

fn replay(c: &mut Criterion) {
    let server = Server::start();
    let (logs, _dir) = engines(server.as_ref(), "replay");
    let chats: Vec<String> = (0..100).map(|i| format!("chat-{i:03}")).collect();
    for (_, log) in &logs {
        fill(log, &chats, 1_000);
        fill(log, &["big".to_string()], 10_000);
    }
    let mut group = c.benchmark_group("log replay");
    group.sample_size(10);
    for (name, log) in &logs {
        group.throughput(Throughput::Elements(10_000));
        group.bench_function(
            format!("{name}: one chat of 10,000 events among 100,000"),
            |b| {
                b.iter(|| {
                    let replayed = log.chat("big").unwrap_or_else(|e| fail("chat", e));
                    assert_eq!(replayed.events, 10_000);
                    black_box(replayed)
                })
            },
        );
        group.throughput(Throughput::Elements(101));
        group.bench_function(
            format!("{name}: the newest sequence of each of 101 chats"),
            |b| {
                b.iter(|| {
                    let latest = log.latest().unwrap_or_else(|e| fail("latest", e));
                    assert_eq!(latest.len(), 101);
                    black_box(latest)
                })
            },
        );
        group.throughput(Throughput::Elements(110_000));
        group.bench_function(
            format!("{name}: 110,000 events in 101 chats, one walk"),
            |b| {
                b.iter(|| {
                    let mut events = 0;
                    for chat in log.replay_all() {
                        events += chat.unwrap_or_else(|e| fail("replay", e)).1.events;
                    }
                    assert_eq!(events, 110_000);
                })
            },
        );
    }
    group.finish();
}

/// What a node pays to read a chat another node wrote (a takeover's replay): 8 chats of
/// 1,000 events written as the runtime's writer writes them, in groups of 64 over the 8, so
/// the chat read has 125 groups; read by its writer (each group's fate known), and by a node
/// that opens the stream afresh before each read (each group's fate asked of the writer's
/// chain). JetStream only: sled has one writer.
fn other_node(c: &mut Criterion) {
    let Some(server) = Server::start() else {
        return;
    };
    let settings = jetstream::Settings {
        url: format!("nats://127.0.0.1:{}", server.port),
        stream: "nodes".to_string(),
        replicas: 1,
    };
    let open = |node: &str| {
        EventLog::open_jetstream_as(&settings, Some(node)).unwrap_or_else(|e| fail("open", e))
    };
    let writer = open("writer");
    let chats: Vec<String> = (0..8).map(|i| format!("chat-{i}")).collect();
    for g in 0..125u64 {
        let items: Vec<(&str, Record)> = (0..64u64)
            .map(|n| (chats[(n % 8) as usize].as_str(), record(g * 64 + n)))
            .collect();
        writer
            .append_batch(&items)
            .unwrap_or_else(|e| fail("append", e));
    }
    let mut group = c.benchmark_group("log read across nodes");
    group.sample_size(10);
    group.throughput(Throughput::Elements(1_000));
    group.bench_function(
        "jetstream: one chat of 1,000 events in 125 groups, by its writer",
        |b| {
            b.iter(|| {
                let replayed = writer.chat("chat-0").unwrap_or_else(|e| fail("chat", e));
                assert_eq!(replayed.events, 1_000);
                black_box(replayed)
            })
        },
    );
    let mut n = 0;
    group.bench_function(
        "jetstream: the same chat, by another node that just opened",
        |b| {
            b.iter_batched(
                || {
                    n += 1;
                    open(&format!("reader-{n}"))
                },
                |reader| {
                    let replayed = reader.chat("chat-0").unwrap_or_else(|e| fail("chat", e));
                    assert_eq!(replayed.events, 1_000);
                    black_box(replayed)
                },
                BatchSize::PerIteration,
            )
        },
    );
    group.finish();
}

criterion_group!(benches, append, replay, other_node);
criterion_main!(benches);
