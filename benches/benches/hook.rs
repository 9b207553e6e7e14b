//! `warden hook`, the whole process: spawn the release binary, hand it a Claude Code
//! `PreToolUse` input, read its answer, against a stub daemon on loopback that answers at once
//! (the chat's state, then the judge's answer). Target: a median under 3 ms.
//!
//! The binary is `target/release/warden` beside this bench's own executable
//! (`target/release/deps/hook-…`); the bench first runs `cargo build --release -p
//! warden-actors --bin warden` into that same target folder (nothing to do when it is fresh),
//! because `cargo bench -p warden-benches` builds only the libraries it depends on.
//! `WARDEN_BIN=/path/to/warden` measures another binary instead.
#![expect(clippy::panic, reason = "a bench whose fixture is wrong stops at once")]

use criterion::{Criterion, criterion_group, criterion_main};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const INPUT: &str = r#"{"session_id":"9f1c2b7e-4d3a-4e8b-a1f0-6c2d8e9b7a15","transcript_path":"/home/dev/.claude/projects/-home-dev-project/9f1c2b7e-4d3a-4e8b-a1f0-6c2d8e9b7a15.jsonl","cwd":"/home/dev/project","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cargo test --workspace","description":"Run the tests"},"tool_use_id":"toolu_01HxQ7b3V9mYk2R4sLpT8wNe"}"#;

const STATE: &str = r#"{"mode":"auto","company":"alone","parent":null,"marks":[],"others":false,"kept":[],"counts":[],"pending":[],"turn":3,"stopped":false}"#;

const JUDGED: &str = r#"{"id":"toolu_01HxQ7b3V9mYk2R4sLpT8wNe","decision":"allow","score":0,"reason":"Runs the tests.","risks":[],"question":null,"offers":{"always":false,"everywhere":false,"rule":null}}"#;

/// The warden binary to measure, built if need be.
fn binary() -> PathBuf {
    if let Some(path) = std::env::var_os("WARDEN_BIN") {
        return PathBuf::from(path);
    }
    let exe = std::env::current_exe().unwrap_or_else(|e| panic!("this bench's path: {e}"));
    // target/<profile>/deps/hook-… → target/<profile>
    let profile = exe
        .parent()
        .and_then(|deps| deps.parent())
        .unwrap_or_else(|| panic!("no target folder above {}", exe.display()))
        .to_path_buf();
    let target = profile
        .parent()
        .unwrap_or_else(|| panic!("no target folder above {}", profile.display()));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let built = Command::new(cargo)
        .args([
            "build",
            "--release",
            "-p",
            "warden-actors",
            "--bin",
            "warden",
        ])
        .arg("--target-dir")
        .arg(target)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status();
    let binary = profile.join("warden");
    match built {
        Ok(status) if status.success() => {}
        other => eprintln!(
            "building warden failed ({other:?}); measuring {} as it is",
            binary.display()
        ),
    }
    assert!(
        binary.exists(),
        "{} is missing: run `cargo build --release -p warden-actors` first, or set WARDEN_BIN",
        binary.display()
    );
    binary
}

/// A daemon that answers at once: the chat's state for a GET, the judge's answer for a POST.
fn stub() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("bind: {e}"));
    let addr = listener
        .local_addr()
        .unwrap_or_else(|e| panic!("address: {e}"));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            answer(stream);
        }
    });
    format!("http://{addr}")
}

fn answer(mut stream: TcpStream) {
    let _ = stream.set_nodelay(true);
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buffer[..end]).to_ascii_lowercase();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            if buffer.len() >= end + 4 + length {
                let body = if head.starts_with("get ") {
                    STATE
                } else {
                    JUDGED
                };
                let reply = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(reply.as_bytes());
                return;
            }
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(n) => buffer.extend_from_slice(&chunk[..n]),
        }
    }
}

/// One hook process, start to exit; panics unless it allowed.
fn hook(command: &mut Command) {
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("spawn warden hook: {e}"));
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(INPUT.as_bytes())
            .unwrap_or_else(|e| panic!("stdin: {e}"));
    }
    let output = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("wait: {e}"));
    assert!(
        output.status.success() && output.stdout.windows(7).any(|w| w == b"\"allow\""),
        "the hook did not allow: {}",
        String::from_utf8_lossy(&output.stdout)
    );
}

/// One process that must exit 0.
fn exits(command: &mut Command) {
    let status = command
        .status()
        .unwrap_or_else(|e| panic!("spawn {command:?}: {e}"));
    assert!(status.success(), "{command:?}: {status}");
}

/// 300 runs of `f`, each timed, sorted.
fn times(mut f: impl FnMut()) -> Vec<Duration> {
    let mut times: Vec<Duration> = (0..300)
        .map(|_| {
            let started = Instant::now();
            f();
            started.elapsed()
        })
        .collect();
    times.sort();
    times
}

/// `median 1.23 ms, p90 …, p99 …` of sorted times.
fn quantiles(times: &[Duration]) -> String {
    let at = |q: f64| {
        let index = ((times.len().saturating_sub(1)) as f64 * q) as usize;
        times.get(index).map_or(0.0, |t| t.as_secs_f64() * 1e3)
    };
    format!(
        "median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms",
        at(0.5),
        at(0.9),
        at(0.99)
    )
}

fn hook_process(c: &mut Criterion) {
    let binary = binary();
    let home = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let url = stub();
    let mut command = Command::new(&binary);
    command
        .arg("hook")
        .env("WARDEN_URL", &url)
        .env("WARDEN_DATA", home.path())
        .env("WARDEN_NO_AUTOSTART", "1")
        .env("HOME", home.path())
        .env_remove("WARDEN_CONFIG")
        .env_remove("XDG_CONFIG_HOME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());

    // Criterion reports means; the target is a median, so it is printed here too, beside
    // the floor this machine puts under any process: `true`, and warden doing nothing.
    let mut version = Command::new(&binary);
    version
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut floor = Command::new("true");
    for _ in 0..20 {
        hook(&mut command);
    }
    let hook_times = times(|| hook(&mut command));
    let version_times = times(|| exits(&mut version));
    let floor_times = times(|| exits(&mut floor));
    println!(
        "300 processes each: warden hook (PreToolUse, 2 requests to a stub daemon) {}; warden --version {}; true {} ({})",
        quantiles(&hook_times),
        quantiles(&version_times),
        quantiles(&floor_times),
        binary.display()
    );

    let mut group = c.benchmark_group("hook");
    group.sample_size(50);
    group.bench_function("PreToolUse, whole process", |b| {
        b.iter(|| hook(&mut command));
    });
    // The floor: the same binary starting and exiting, nothing read or sent.
    group.bench_function("warden --version, whole process", |b| {
        b.iter(|| exits(&mut version));
    });
    group.finish();
}

criterion_group!(benches, hook_process);
criterion_main!(benches);
