//! `warden load`: starts the real `warden serve` on loopback, opens N chats, and sends judge
//! requests from C clients for T seconds; prints judge requests a second, p50/p99 latency and
//! the daemon's resident memory (`VmRSS` and its peak `VmHWM` from `/proc/PID/status`).
//!
//! The clients run in this process, on the same machine: what is measured is the daemon and
//! loopback with a client beside it, not the daemon alone.

use crate::torture::{CWD, Client, Reply, Rng, Server, clock_seed, token};
use anyhow::{Context as _, Result, bail};
use serde_json::{Value, json};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// `warden load`'s arguments.
#[derive(clap::Args)]
pub struct LoadArgs {
    /// How many chats the requests spread over.
    #[arg(long, default_value_t = 100)]
    chats: usize,
    /// How long to send, in seconds.
    #[arg(long, default_value_t = 20.0)]
    seconds: f64,
    /// Clients sending at the same time, each on one kept-alive connection.
    #[arg(long, default_value_t = 4)]
    connections: usize,
    /// The data folder (default: a new folder under the system's temporary folder, removed
    /// afterwards).
    #[arg(long)]
    data: Option<PathBuf>,
    /// The seed of the mix (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
}

/// The judged steps: mostly routine ones that go (records nobody waits for), some that ask
/// (a question, durable before its answer), some messages the watch counts (durable too).
fn step(rng: &mut Rng) -> Value {
    let roll = rng.below(100);
    if roll < 70 {
        let command = ["cargo test", "git status", "ls -la", "cat README.md"][rng.below(4)];
        json!({"tool_name": "Bash", "tool_input": {"command": command}, "cwd": CWD})
    } else if roll < 80 {
        json!({"tool_name": "Read", "tool_input": {"file_path": "/torture/app/src/lib.rs"}, "cwd": CWD})
    } else if roll < 90 {
        json!({"tool_name": "App", "app": {"origin": "own"}, "cwd": CWD,
               "tool_input": {"app": "Mail", "tool": "send_message",
                              "arguments": {"to": "a@example.com", "body": "report"}}})
    } else {
        json!({"tool_name": "Bash", "tool_input": {"command": "git push --force origin main"}, "cwd": CWD})
    }
}

/// The daemon's memory in KiB: (`VmRSS`, `VmHWM`).
fn memory(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|kib| kib.parse::<u64>().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// A folder of our own under the temporary folder, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `warden load`.
pub fn main(args: LoadArgs) -> Result<std::process::ExitCode> {
    if args.chats == 0 || args.connections == 0 || args.seconds <= 0.0 {
        bail!("--chats, --connections and --seconds must be more than 0");
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    let mut scratch = None;
    let data = match &args.data {
        Some(data) => data.clone(),
        None => {
            let dir = std::env::temp_dir().join(format!(
                "warden-load-{}-{}",
                std::process::id(),
                seed % 1_000_000
            ));
            scratch = Some(Scratch(dir.clone()));
            dir
        }
    };
    std::fs::create_dir_all(&data).with_context(|| format!("creating {}", data.display()))?;
    let figures = run(&args, &data, seed);
    drop(scratch);
    let figures = figures?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{figures}")?;
    Ok(std::process::ExitCode::SUCCESS)
}

fn run(args: &LoadArgs, data: &Path, seed: u64) -> Result<String> {
    let server = Server::start(data)?;
    let token = token(data)?;
    let setup = Client::new(&server.addr, token.clone());
    for n in 0..args.chats {
        let chat = format!("l{n}");
        for (path, body) in [
            (
                format!("/v1/chats/{chat}"),
                json!({"mode": "auto", "company": "alone"}),
            ),
            (
                format!("/v1/chats/{chat}/events"),
                json!({"kind": "said", "text": "run the tests and send the report"}),
            ),
        ] {
            match setup.call("POST", &path, true, Some(&body)) {
                Reply::Answered(200, _) => {}
                other => bail!("setting up {chat}: {other:?}"),
            }
        }
    }
    let (rss_before, _) = memory(server.pid()).unwrap_or((0, 0));
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let mut clients = Vec::new();
    for n in 0..args.connections {
        let client = Client::new(&server.addr, token.clone());
        let stop = Arc::clone(&stop);
        let chats = args.chats;
        let mut rng = Rng::new(seed ^ n as u64);
        clients.push(std::thread::spawn(move || {
            let (mut took, mut failed) = (Vec::new(), 0u64);
            while !stop.load(Ordering::Relaxed) {
                let path = format!("/v1/chats/l{}/judge", rng.below(chats));
                let body = step(&mut rng);
                let sent = Instant::now();
                match client.call("POST", &path, false, Some(&body)) {
                    Reply::Answered(200, _) => took.push(sent.elapsed()),
                    _ => failed += 1,
                }
            }
            (took, failed)
        }));
    }
    std::thread::sleep(Duration::from_secs_f64(args.seconds));
    stop.store(true, Ordering::Relaxed);
    let mut took = Vec::new();
    let mut failed = 0;
    for client in clients {
        let (t, f) = client
            .join()
            .map_err(|_| anyhow::anyhow!("a client thread panicked"))?;
        took.extend(t);
        failed += f;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let (rss, peak) = memory(server.pid()).unwrap_or((0, 0));
    server.kill_9()?;
    took.sort();
    let at = |q: f64| {
        let n = ((took.len() as f64 * q) as usize).min(took.len().saturating_sub(1));
        took.get(n).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    let mib = |kib: u64| kib as f64 / 1024.0;
    Ok(format!(
        "warden load: {} chats, {} connections, {elapsed:.1} s: {} judge requests, {:.0} requests/s, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, failed {failed}; server resident {:.1} MiB (peak {:.1} MiB, {:.1} MiB before the load)",
        args.chats,
        args.connections,
        took.len(),
        took.len() as f64 / elapsed,
        at(0.50),
        at(0.99),
        at(1.0),
        mib(rss),
        mib(peak),
        mib(rss_before)
    ))
}
