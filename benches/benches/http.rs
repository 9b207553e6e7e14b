//! `warden serve`: one judge request over loopback on a kept-alive connection, end to end
//! (HTTP, the chat and judge actors, the law, the log's durable append). Criterion gives the
//! median; a sample of our own gives the tail (p50, p99, max), printed beside it.
#![expect(clippy::panic, reason = "a bench whose fixture is wrong stops at once")]

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use warden::facts::FakeFacts;
use warden_actors::config::Config;
use warden_actors::serve::{Settings, start};

/// Requests in the tail sample.
const SAMPLE: usize = 10_000;

const BODY: &str =
    r#"{"tool_name":"Bash","tool_input":{"command":"cargo test"},"cwd":"/home/user/app"}"#;

fn judge(agent: &ureq::Agent, url: &str) {
    let mut response = agent
        .post(url)
        .content_type("application/json")
        .send(BODY)
        .unwrap_or_else(|e| panic!("judge: {e}"));
    let text = response
        .body_mut()
        .read_to_string()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        response.status() == 200 && text.contains(r#""decision":"allow""#),
        "{text}"
    );
}

fn run(c: &mut Criterion, name: &str, dir: &Path) {
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut settings = Settings::new(
        &Config::default(),
        Some("127.0.0.1:0"),
        Some(&dir.join("data")),
        "/home/user",
    )
    .unwrap_or_else(|e| panic!("{e:#}"));
    settings.facts = Some(Arc::new(FakeFacts::unknown()));
    let server = tokio
        .block_on(start(settings))
        .unwrap_or_else(|e| panic!("{e:#}"));
    let url = format!("http://{}/v1/chats/c1/judge", server.addr());
    // One connection, kept alive: the hook's case once it holds its agent.
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .max_idle_connections(1)
        .max_idle_age(Duration::from_secs(3600))
        .build()
        .new_agent();
    for _ in 0..200 {
        judge(&agent, &url);
    }
    let mut took: Vec<Duration> = (0..SAMPLE)
        .map(|_| {
            let started = Instant::now();
            judge(&agent, &url);
            started.elapsed()
        })
        .collect();
    took.sort();
    let at = |q: f64| took[((took.len() as f64 * q) as usize).min(took.len() - 1)];
    println!(
        "http judge, {name}: {SAMPLE} requests on one kept-alive connection: p50 {:?}, p90 {:?}, p99 {:?}, max {:?}",
        at(0.50),
        at(0.90),
        at(0.99),
        took[took.len() - 1]
    );
    c.bench_function(&format!("http judge, {name}"), |b| {
        b.iter(|| judge(&agent, &url))
    });
    tokio
        .block_on(server.stop())
        .unwrap_or_else(|e| panic!("{e:#}"));
}

fn http(c: &mut Criterion) {
    let disk = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    run(c, "log on disk", disk.path());
    // The same on a RAM-backed folder, where there is one: what HTTP and the actors cost
    // without waiting for the disk's flush.
    if let Ok(ram) = tempfile::tempdir_in("/dev/shm") {
        run(c, "log in memory (tmpfs)", ram.path());
    }
}

criterion_group!(benches, http);
criterion_main!(benches);
