//! `warden hook`, the whole process: spawn the release binary, hand it a Claude Code input on
//! stdin, read its answer. Against the real daemon (`warden serve` on loopback, started here
//! over a fresh data folder): a `PreToolUse` in a chat that exists (target: a median under
//! 3 ms), a `git push` in a repository with a remote (the daemon's cached remotes), a new
//! session (`SessionStart`, then its first `PreToolUse`) and a `PreToolUse` in a chat nothing
//! was recorded in; against a stub daemon that answers at once, the hook alone. Beside them,
//! the floor any process costs on this machine (`true`, and `warden --version`), measured in
//! the same run so the figures can be quoted with it taken off, and, when `DCG_BIN` names a
//! dcg binary (built by hand; nothing here builds it), dcg on the same commands.
//!
//! The machine this runs on is shared: every case is timed in rounds, one run of each case per
//! round, so a burst of load falls on all of them alike; medians are printed beside
//! criterion's means.
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

/// One process fed `input` on stdin, start to exit; its stdout. Panics unless it exits 0.
fn fed(command: &mut Command, input: &str) -> Vec<u8> {
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {command:?}: {e}"));
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(input.as_bytes())
            .unwrap_or_else(|e| panic!("stdin: {e}"));
    }
    let output = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("wait: {e}"));
    assert!(output.status.success(), "{command:?}: {}", output.status);
    output.stdout
}

/// One hook process for a `PreToolUse`; panics unless it decided (allow, ask or deny).
fn decides(command: &mut Command, input: &str) {
    let out = fed(command, input);
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.contains("\"permissionDecision\"") && !text.contains("could not judge"),
        "the hook did not judge: {text}"
    );
}

/// One hook process, start to exit; panics unless it allowed.
fn hook(command: &mut Command) {
    let out = fed(command, INPUT);
    assert!(
        out.windows(7).any(|w| w == b"\"allow\""),
        "the hook did not allow: {}",
        String::from_utf8_lossy(&out)
    );
}

/// One process that must exit 0.
fn exits(command: &mut Command) {
    let status = command
        .status()
        .unwrap_or_else(|e| panic!("spawn {command:?}: {e}"));
    assert!(status.success(), "{command:?}: {status}");
}

/// A `PreToolUse` input for `command` run in `cwd`, in the session `session`.
fn pre_tool_use(session: &str, cwd: &str, command: &str) -> String {
    serde_json::json!({
        "session_id": session,
        "transcript_path": format!("/home/dev/.claude/projects/p/{session}.jsonl"),
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "a step"},
        "tool_use_id": "toolu_01HxQ7b3V9mYk2R4sLpT8wNe",
    })
    .to_string()
}

/// A `SessionStart` input (Claude Code 2.1 sends no `permission_mode` with it).
fn session_start(session: &str, cwd: &str) -> String {
    serde_json::json!({
        "session_id": session,
        "transcript_path": format!("/home/dev/.claude/projects/p/{session}.jsonl"),
        "cwd": cwd,
        "hook_event_name": "SessionStart",
        "source": "startup",
    })
    .to_string()
}

/// `warden serve` over `data`, on a free loopback port; its URL once it answers.
struct Serve {
    child: std::process::Child,
    url: String,
}

impl Serve {
    fn start(binary: &std::path::Path, data: &std::path::Path) -> Serve {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap_or_else(|e| panic!("a free port: {e}"));
        let listen = format!("127.0.0.1:{port}");
        let child = Command::new(binary)
            .args(["serve", "--data"])
            .arg(data)
            .args(["--listen", &listen])
            .env("HOME", data)
            .env_remove("WARDEN_CONFIG")
            .env_remove("XDG_CONFIG_HOME")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn warden serve: {e}"));
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(&listen).is_err() || !data.join("token").exists() {
            assert!(Instant::now() < deadline, "warden serve did not come up");
            std::thread::sleep(Duration::from_millis(20));
        }
        Serve {
            child,
            url: format!("http://{listen}"),
        }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A repository with one commit and a remote: where `git push` is judged.
fn repository(home: &std::path::Path) -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let git = |args: &[&str]| {
        let status = Command::new("git")
            .arg("-C")
            .arg(repo.path())
            .args([
                "-c",
                "user.name=x",
                "-c",
                "user.email=x@x",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .env("HOME", home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        assert!(status.is_ok_and(|s| s.success()), "git {args:?}");
    };
    git(&["init", "-q", "-b", "feature"]);
    std::fs::write(repo.path().join("README"), "hello\n").unwrap_or_else(|e| panic!("{e}"));
    git(&["add", "README"]);
    git(&["commit", "-q", "-m", "first"]);
    git(&["remote", "add", "origin", "https://github.com/acme/app.git"]);
    repo
}

/// A case: its name, and one run of it.
type Case<'a> = (&'static str, Box<dyn FnMut() + 'a>);

/// Runs every case `rounds` times, one run of each per round; each case's times, sorted.
fn rounds(cases: &mut [Case<'_>], rounds: usize) -> Vec<Vec<Duration>> {
    let mut times = vec![Vec::with_capacity(rounds); cases.len()];
    for _ in 0..rounds {
        for (case, (_, run)) in times.iter_mut().zip(cases.iter_mut()) {
            let started = Instant::now();
            run();
            case.push(started.elapsed());
        }
    }
    for case in &mut times {
        case.sort();
    }
    times
}

fn median_ms(times: &[Duration]) -> f64 {
    times
        .get(times.len() / 2)
        .map_or(0.0, |t| t.as_secs_f64() * 1e3)
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

/// The commands the comparison feeds both hooks: everyday steps, and a push.
const COMMANDS: [&str; 6] = [
    "cargo test --workspace",
    "ls -la src",
    "git status",
    "grep -rn TODO src | head -20",
    "git push origin feature",
    "rm -rf target",
];

fn hook_process(c: &mut Criterion) {
    let binary = binary();
    let home = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let data = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let repo = repository(home.path());
    let cwd = repo
        .path()
        .to_str()
        .unwrap_or_else(|| panic!("a UTF-8 path"))
        .to_string();
    let stub_url = stub();
    let serve = Serve::start(&binary, data.path());
    let warden = |url: &str| {
        let mut command = Command::new(&binary);
        command
            .arg("hook")
            .env("WARDEN_URL", url)
            .env("WARDEN_DATA", data.path())
            .env("WARDEN_NO_AUTOSTART", "1")
            .env("HOME", home.path())
            .env_remove("WARDEN_CONFIG")
            .env_remove("XDG_CONFIG_HOME")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        command
    };
    let mut stubbed = warden(&stub_url);
    let mut real = warden(&serve.url);
    let version_of = |binary: &std::path::Path| {
        let mut version = Command::new(binary);
        version
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        version
    };
    let mut version = version_of(&binary);
    let mut floor = Command::new("true");
    let dcg_bin = std::env::var_os("DCG_BIN").map(PathBuf::from);
    let mut dcg = dcg_bin.as_ref().map(|bin| {
        let mut command = Command::new(bin);
        command
            .env("HOME", home.path())
            .env_remove("XDG_CONFIG_HOME")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        command
    });

    const EXISTING: &str = "9f1c2b7e-4d3a-4e8b-a1f0-6c2d8e9b7a15";
    fed(&mut real, &session_start(EXISTING, &cwd));
    let inputs: Vec<String> = COMMANDS
        .iter()
        .map(|command| pre_tool_use(EXISTING, &cwd, command))
        .collect();
    let push = pre_tool_use(EXISTING, &cwd, "git push origin feature");
    for input in &inputs {
        decides(&mut real, input);
    }
    for _ in 0..20 {
        hook(&mut stubbed);
    }
    let fresh = std::cell::Cell::new(0u64);
    let new_session = || {
        fresh.set(fresh.get() + 1);
        format!("00000000-0000-4000-8000-{:012}", fresh.get())
    };

    let mut at = 0usize;
    let mut at_dcg = 0usize;
    let (inputs_, push_, cwd_) = (&inputs, &push, cwd.as_str());
    let (mut real_a, mut real_b, mut real_c, mut real_d) = (
        warden(&serve.url),
        warden(&serve.url),
        warden(&serve.url),
        warden(&serve.url),
    );
    let mut cases: Vec<Case<'_>> = vec![
        (
            "true (the floor)",
            Box::new(|| exits(&mut Command::new("true"))),
        ),
        (
            "warden --version",
            Box::new(|| exits(&mut version_of(&binary))),
        ),
        (
            "hook, stub daemon",
            Box::new(|| hook(&mut warden(&stub_url))),
        ),
        (
            "hook PreToolUse, existing chat, the 6 commands",
            Box::new(move || {
                at = (at + 1) % inputs_.len();
                decides(&mut real_a, &inputs_[at]);
            }),
        ),
        (
            "hook PreToolUse git push, existing chat",
            Box::new(move || decides(&mut real_b, push_)),
        ),
        (
            "hook SessionStart + first PreToolUse, new session",
            Box::new(|| {
                let session = new_session();
                fed(&mut real_c, &session_start(&session, cwd_));
                decides(&mut real_c, &pre_tool_use(&session, cwd_, COMMANDS[0]));
            }),
        ),
        (
            "hook PreToolUse, new session without SessionStart",
            Box::new(|| {
                let session = new_session();
                decides(&mut real_d, &pre_tool_use(&session, cwd_, COMMANDS[0]));
            }),
        ),
    ];
    if let Some(dcg) = dcg.as_mut() {
        cases.push((
            "dcg, the 6 commands",
            Box::new(move || {
                at_dcg = (at_dcg + 1) % COMMANDS.len();
                let input = pre_tool_use(EXISTING, "/tmp", COMMANDS[at_dcg]);
                fed(dcg, &input);
            }),
        ));
    }
    let times = rounds(&mut cases, 300);
    let names: Vec<&str> = cases.iter().map(|(name, _)| *name).collect();
    drop(cases);
    let floor_ms = median_ms(&times[0]);
    println!(
        "300 rounds, one run of each case per round ({}):",
        binary.display()
    );
    for (name, times) in names.iter().zip(&times) {
        println!(
            "  {name}: {} (median less the floor: {:.2} ms)",
            quantiles(times),
            median_ms(times) - floor_ms
        );
    }
    if let (Some(dcg_times), Some(bin)) = (times.get(7), &dcg_bin) {
        let warden_ms = median_ms(&times[3]) - floor_ms;
        let dcg_ms = median_ms(dcg_times) - floor_ms;
        println!(
            "  dcg ({}) / warden, the floor taken off: {:.2}x ({dcg_ms:.2} ms / {warden_ms:.2} ms); whole processes: {:.2}x",
            bin.display(),
            dcg_ms / warden_ms,
            median_ms(dcg_times) / median_ms(&times[3]),
        );
    }

    let mut group = c.benchmark_group("hook");
    group.sample_size(50);
    group.bench_function("PreToolUse, whole process, stub daemon", |b| {
        b.iter(|| hook(&mut stubbed));
    });
    group.bench_function("PreToolUse, whole process, existing chat", |b| {
        b.iter(|| decides(&mut real, &inputs[0]));
    });
    group.bench_function("PreToolUse git push, whole process, existing chat", |b| {
        b.iter(|| decides(&mut real, &push));
    });
    group.bench_function("SessionStart + PreToolUse, new session", |b| {
        b.iter(|| {
            let session = new_session();
            fed(&mut real, &session_start(&session, &cwd));
            decides(&mut real, &pre_tool_use(&session, &cwd, COMMANDS[0]));
        });
    });
    // The floor: the same binary starting and exiting, nothing read or sent; and `true`.
    group.bench_function("warden --version, whole process", |b| {
        b.iter(|| exits(&mut version));
    });
    group.bench_function("true, whole process", |b| {
        b.iter(|| exits(&mut floor));
    });
    group.finish();
    drop(serve);
}

criterion_group!(benches, hook_process);
criterion_main!(benches);
