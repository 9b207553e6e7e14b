//! What the end-to-end tests (`e2e.rs`, `itself.rs`) share: the real `warden serve` binary
//! on a port of its own, an HTTP client for it, and the real `warden hook` binary fed a
//! recorded Claude Code input. Each test binary uses part of it.

pub mod loopback;
pub mod nats;

use serde_json::Value;
use std::io::{BufRead as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a starting daemon may take to print where it listens (sled opens the log first).
const PRINTS_WITHIN: Duration = Duration::from_secs(30);

/// How long `/healthz` is polled before a daemon counts as down.
const HEALTHY_WITHIN: Duration = Duration::from_secs(10);

pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"))
}

/// A place for one test: a home folder with no configuration, warden's data folder, and a
/// work folder that is a git repository whose `origin` is the person's own remote.
pub struct Place {
    pub dir: tempfile::TempDir,
}

impl Place {
    pub fn new() -> Place {
        let dir = tempdir();
        for folder in ["home", "work"] {
            std::fs::create_dir_all(dir.path().join(folder))
                .unwrap_or_else(|e| panic!("create {folder}: {e}"));
        }
        let work = dir.path().join("work");
        for args in [
            &["init", "-q", "-b", "main"][..],
            &["remote", "add", "origin", "git@github.com:acme/app.git"],
        ] {
            let status = Command::new("git")
                .arg("-C")
                .arg(&work)
                .args(args)
                .env("HOME", dir.path().join("home"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .unwrap_or_else(|e| panic!("git: {e}"));
            assert!(status.success(), "git {args:?}");
        }
        Place { dir }
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// warden's data folder (`--data`, `WARDEN_DATA`): the log and the person's token.
    pub fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// The work folder, as the hook input's `cwd` and the judge request's.
    pub fn work(&self) -> String {
        self.dir.path().join("work").display().to_string()
    }

    /// The person's token, as `warden serve` made it.
    pub fn token(&self) -> String {
        std::fs::read_to_string(self.data().join("token"))
            .unwrap_or_else(|e| panic!("the token: {e}"))
            .trim()
            .to_string()
    }

    /// Starts the real `warden serve --data DATA --listen 127.0.0.1:0` and waits until it
    /// answers `/healthz`.
    pub fn serve(&self) -> Serve {
        let child = Command::new(env!("CARGO_BIN_EXE_warden"))
            .args(["serve", "--listen", "127.0.0.1:0", "--data"])
            .arg(self.data())
            .current_dir(self.dir.path())
            .env("HOME", self.home())
            .env_remove("WARDEN_DATA")
            .env_remove("WARDEN_CONFIG")
            .env_remove("XDG_CONFIG_HOME")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn warden serve: {e}"));
        let mut serve = Serve {
            child,
            addr: None,
            started: String::new(),
        };
        let line = first_line(&mut serve.child, PRINTS_WITHIN)
            .unwrap_or_else(|| panic!("warden serve printed nothing in {PRINTS_WITHIN:?}"));
        // `warden: listening on http://127.0.0.1:PORT, log in DATA/log`
        let addr = line
            .strip_prefix("warden: listening on http://")
            .and_then(|rest| rest.split(',').next())
            .unwrap_or_else(|| panic!("not the listening line: {line:?}"))
            .to_string();
        serve.addr = Some(addr);
        serve.started = line.trim_end().to_string();
        serve.wait_healthy();
        serve
    }
}

/// A running `warden serve`. Dropping it kills it, so a failing test leaves no daemon.
pub struct Serve {
    child: Child,
    addr: Option<String>,
    started: String,
}

impl Serve {
    /// The line it printed when it started listening.
    pub fn started(&self) -> &str {
        &self.started
    }

    /// `127.0.0.1:PORT`.
    pub fn addr(&self) -> &str {
        self.addr.as_deref().unwrap_or_default()
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.addr()
            .rsplit_once(':')
            .and_then(|(_, port)| port.parse().ok())
            .unwrap_or_else(|| panic!("no port in {}", self.addr()))
    }

    /// `http://127.0.0.1:PORT`, as `WARDEN_URL` takes it.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr())
    }

    fn wait_healthy(&mut self) {
        let deadline = Instant::now() + HEALTHY_WITHIN;
        loop {
            if let Some(status) = self.child.try_wait().unwrap_or_else(|e| panic!("{e}")) {
                panic!("warden serve exited before it was healthy: {status}");
            }
            let (status, _) = call(self, "GET", "/healthz", None, None);
            if status == 200 {
                return;
            }
            if Instant::now() > deadline {
                panic!(
                    "warden serve at {} not healthy in {HEALTHY_WITHIN:?}",
                    self.url()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// `kill -9`: SIGKILL (what `Child::kill` sends on Unix), then reaped. Nothing is
    /// flushed or stopped gracefully.
    pub fn kill_9(mut self) {
        self.child
            .kill()
            .unwrap_or_else(|e| panic!("kill warden serve: {e}"));
        let status = self.child.wait().unwrap_or_else(|e| panic!("{e}"));
        use std::os::unix::process::ExitStatusExt as _;
        assert_eq!(status.signal(), Some(9), "killed by SIGKILL: {status}");
    }

    /// SIGTERM, then waits for it to exit: it must flush its log and exit 0.
    pub fn terminate(mut self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap_or_else(|e| panic!("kill -TERM: {e}"));
        assert!(status.success(), "kill -TERM failed");
        let status = self.child.wait().unwrap_or_else(|e| panic!("{e}"));
        assert!(status.success(), "SIGTERM exits 0, not {status}");
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// One request to the daemon: the status and the answer as JSON (`Null` when it is not JSON,
/// or when nothing answers: status 0). With `token`, `Authorization: Bearer <token>`.
pub fn call(
    serve: &Serve,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> (u16, Value) {
    let bearer = token.map(|token| format!("Bearer {token}"));
    let headers: Vec<(&str, &str)> = bearer
        .iter()
        .map(|bearer| ("Authorization", bearer.as_str()))
        .collect();
    send(
        &serve.url(),
        method,
        path,
        &headers,
        body,
        Duration::from_secs(10),
    )
}

/// One request to `base` (`http://HOST:PORT`) with `headers`, a JSON body when there is one,
/// answered within `timeout`: the status and the answer as JSON (`Null` when it is not JSON,
/// or when nothing answers: status 0).
pub fn send(
    base: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
    timeout: Duration,
) -> (u16, Value) {
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(timeout))
        .build()
        .new_agent();
    let mut request = ureq::http::Request::builder()
        .method(method)
        .uri(format!("{base}{path}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = match body {
        Some(body) => request
            .header("Content-Type", "application/json")
            .body(body.to_string())
            .map(|r| agent.run(r)),
        None => request.body(()).map(|r| agent.run(r)),
    }
    .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let Ok(mut response) = response else {
        return (0, Value::Null);
    };
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A request that must answer 200; its JSON.
pub fn ok(serve: &Serve, method: &str, path: &str, token: Option<&str>, body: &Value) -> Value {
    let (status, answer) = call(serve, method, path, token, Some(body));
    assert_eq!(status, 200, "{method} {path} {body}: {answer}");
    answer
}

/// A chat's state (`GET /v1/chats/{chat}`), which must exist.
pub fn chat(serve: &Serve, chat: &str) -> Value {
    let (status, state) = call(serve, "GET", &format!("/v1/chats/{chat}"), None, None);
    assert_eq!(status, 200, "the chat {chat}: {state}");
    state
}

/// A recorded Claude Code hook input from `tests/e2e/`, with some fields replaced.
pub fn fixture(name: &str, changes: &Value) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/e2e")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut input: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
    if let (Some(input), Some(changes)) = (input.as_object_mut(), changes.as_object()) {
        for (key, value) in changes {
            input.insert(key.clone(), value.clone());
        }
    }
    input
}

/// What one run of `warden hook` printed.
#[derive(Debug)]
pub struct Run {
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Stdout as JSON: exactly one line holding one object.
    pub fn json(&self) -> Value {
        let lines: Vec<&str> = self.stdout.lines().collect();
        assert_eq!(lines.len(), 1, "one answer line: {self:?}");
        serde_json::from_str(lines[0])
            .unwrap_or_else(|e| panic!("the answer is not JSON ({e}): {self:?}"))
    }

    /// A `PreToolUse` answer: the decision and warden's reason, which must be warden's
    /// verdict (not the hook failing and asking).
    pub fn decision(&self) -> (String, String) {
        let answer = self.json();
        let output = &answer["hookSpecificOutput"];
        assert_eq!(output["hookEventName"], "PreToolUse", "{self:?}");
        let decision = output["permissionDecision"].as_str().unwrap_or_default();
        let reason = output["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default();
        assert!(
            !reason.starts_with("warden could not judge"),
            "the hook failed: {self:?}"
        );
        assert!(self.stderr.is_empty(), "{self:?}");
        (decision.to_string(), reason.to_string())
    }

    /// An event the hook only records: `{}` on stdout, and nothing on stderr (a failure
    /// would say why there, and answer `{}` too).
    pub fn recorded(&self) {
        assert_eq!(self.json(), serde_json::json!({}), "{self:?}");
        assert!(self.stderr.is_empty(), "the hook failed quietly: {self:?}");
    }
}

/// Runs the real `warden hook` with `input` on stdin, talking to the daemon at `url`, with
/// `WARDEN_DATA` the place's data folder and nothing started when it doesn't answer.
pub fn hook(place: &Place, url: &str, input: &Value) -> Run {
    hook_as(place, url, input, &[])
}

/// [`hook`] with more arguments after `hook` (`--host codex`).
pub fn hook_as(place: &Place, url: &str, input: &Value, args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_warden"))
        .arg("hook")
        .args(args)
        .env("WARDEN_URL", url)
        .env("WARDEN_DATA", place.data())
        .env("WARDEN_NO_AUTOSTART", "1")
        .env("HOME", place.home())
        .env_remove("WARDEN_CONFIG")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("WARDEN_HOOK_SERVE")
        .env_remove("WARDEN_HOOK_TEST_PANIC")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn warden hook: {e}"));
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
    stdin
        .write_all(input.to_string().as_bytes())
        .unwrap_or_else(|e| panic!("write stdin: {e}"));
    drop(stdin);
    // The hook answers within 4.5 s on its own (its watchdog): this wait is bounded by it.
    let output = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("wait: {e}"));
    let run = Run {
        stdout: String::from_utf8_lossy(&output.stdout).to_string(),
        stderr: String::from_utf8_lossy(&output.stderr).to_string(),
    };
    assert_eq!(
        output.status.code(),
        Some(0),
        "warden hook exits 0: {run:?}"
    );
    run
}

/// The first line a child prints on its stdout (piped), read on a thread of its own so that
/// the wait is bounded: `None` when no line came within `within` (the caller kills the child
/// and says why).
pub fn first_line(child: &mut Child, within: Duration) -> Option<String> {
    let stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(stdout).read_line(&mut line);
        let _ = sender.send(line);
    });
    receiver.recv_timeout(within).ok()
}
