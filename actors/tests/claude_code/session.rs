//! One scratch project for the real Claude Code: a temp `HOME` (so the person's own
//! `~/.claude` is never read), a git repository with a local bare remote, the hooks in the
//! project's `.claude/settings.json`, warden's data folder and daemon, and `claude -p` run
//! with a bounded wall-clock time against the scripted API. `codex.rs` runs the real Codex in
//! the same project, with the same daemon.

use serde_json::{Value, json};
use std::io::BufRead as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The longest one `claude -p` may run before it is killed.
pub const CLAUDE_WITHIN: Duration = Duration::from_secs(90);

/// How long a starting daemon may take to print where it listens.
const PRINTS_WITHIN: Duration = Duration::from_secs(30);

/// The PATH Claude Code and its hooks run with: this machine's, nothing else of its
/// environment (no `ANTHROPIC_*`, `CLAUDE*` or `WARDEN_*` of the person running the tests).
pub fn path() -> String {
    std::env::var("PATH").unwrap_or_else(|_| "/usr/local/bin:/usr/bin:/bin".to_string())
}

/// Where warden keeps its data in a project.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Data {
    /// `ROOT/data`, named by `WARDEN_DATA`.
    Apart,
    /// The default data folder under the temp home, `~/.local/share/warden`, named by
    /// `WARDEN_DATA` too (so `$WARDEN_DATA` means something in the agent's shell).
    Default,
}

/// The scratch project.
pub struct Project {
    pub root: tempfile::TempDir,
    data: Data,
    /// Whether Claude Code's sandbox stays on.
    sandbox: bool,
}

fn git(dir: &Path, home: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("git {args:?}: {e}"));
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).to_string()
}

impl Project {
    /// A project whose work folder `work/` is a repository on `main` with one commit, a
    /// `README.md` and `origin` the bare `../remote.git`, which has nothing yet.
    pub fn new(data: Data) -> Project {
        let root = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let project = Project {
            root,
            data,
            sandbox: false,
        };
        for folder in ["home", "work", "tmp"] {
            std::fs::create_dir_all(project.root.path().join(folder))
                .unwrap_or_else(|e| panic!("create {folder}: {e}"));
        }
        let (home, work) = (project.home(), project.work());
        git(
            project.root.path(),
            &home,
            &["init", "-q", "--bare", "remote.git"],
        );
        git(&work, &home, &["init", "-q", "-b", "main"]);
        std::fs::write(work.join("README.md"), "# app\n\nA small app.\n")
            .unwrap_or_else(|e| panic!("README: {e}"));
        git(&work, &home, &["add", "README.md"]);
        git(
            &work,
            &home,
            &[
                "-c",
                "user.name=Person",
                "-c",
                "user.email=person@example.com",
                "commit",
                "-q",
                "-m",
                "Start",
            ],
        );
        git(&work, &home, &["remote", "add", "origin", "../remote.git"]);
        project
    }

    pub fn home(&self) -> PathBuf {
        self.root.path().join("home")
    }

    pub fn work(&self) -> PathBuf {
        self.root.path().join("work")
    }

    /// warden's data folder (`WARDEN_DATA`, `--data`).
    pub fn data(&self) -> PathBuf {
        match self.data {
            Data::Apart => self.root.path().join("data"),
            Data::Default => self.home().join(".local/share/warden"),
        }
    }

    /// The person's token, as `warden serve` made it.
    pub fn token(&self) -> String {
        std::fs::read_to_string(self.data().join("token"))
            .unwrap_or_else(|e| panic!("the token: {e}"))
            .trim()
            .to_string()
    }

    /// The branches the bare remote has (`refs/heads/…`): empty until something is pushed.
    pub fn pushed(&self) -> String {
        git(
            &self.root.path().join("remote.git"),
            &self.home(),
            &["for-each-ref", "--format=%(refname)", "refs/heads"],
        )
    }

    /// Claude Code's sandbox as `warden setup` writes it; without this, it is turned off in
    /// `.claude/settings.local.json`, so a step that doesn't run was stopped by warden alone.
    pub fn sandboxed(&mut self) {
        self.sandbox = true;
    }

    /// `warden setup claude-code --project WORK --yes`, for the data folder and warden's
    /// address the session has, then the person's own settings.
    fn write_settings(&self, warden: &Warden) {
        let output = self
            .warden()
            .args(["setup", "claude-code", "--project"])
            .arg(self.work())
            .arg("--yes")
            .env("WARDEN_URL", &warden.url)
            .output()
            .unwrap_or_else(|e| panic!("warden setup: {e}"));
        assert!(
            output.status.success(),
            "warden setup claude-code: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        // The person's own settings, in `.claude/settings.local.json`, which Claude Code
        // reads over `.claude/settings.json`.
        let mut local = json!({
            // WebFetch asks claude.ai whether a domain may be fetched; this machine reaches
            // nothing but loopback.
            "skipWebFetchPreflight": true,
        });
        if !self.sandbox {
            local["sandbox"] = json!({"enabled": false});
        }
        std::fs::write(
            self.work().join(".claude/settings.local.json"),
            local.to_string(),
        )
        .unwrap_or_else(|e| panic!("write the local settings: {e}"));
    }

    /// The `warden` binary with the project's environment: its home, its data folder,
    /// nothing else of this process's.
    pub fn warden(&self) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_warden"));
        command
            .current_dir(self.root.path())
            .env_clear()
            .env("PATH", path())
            .env("HOME", self.home())
            .env("WARDEN_DATA", self.data())
            .stdin(Stdio::null());
        command
    }

    /// Starts the real `warden serve --listen 127.0.0.1:0 --data DATA`, as the person would
    /// have it running, and waits until it answers.
    pub fn serve(&self) -> Warden {
        let mut child = self
            .warden()
            .args(["serve", "--listen", "127.0.0.1:0", "--data"])
            .arg(self.data())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn warden serve: {e}"));
        let line = crate::common::first_line(&mut child, PRINTS_WITHIN).unwrap_or_else(|| {
            let _ = child.kill();
            panic!("warden serve printed nothing in {PRINTS_WITHIN:?}")
        });
        // `warden: listening on http://127.0.0.1:PORT, log in DATA/log`
        let addr = line
            .strip_prefix("warden: listening on http://")
            .and_then(|rest| rest.split(',').next())
            .unwrap_or_else(|| panic!("not the listening line: {line:?}"))
            .to_string();
        let warden = Warden {
            url: format!("http://{addr}"),
            child: Some(child),
            autostart: None,
        };
        warden.wait_healthy();
        warden
    }

    /// No daemon: the hook starts one itself on a free port (`WARDEN_URL`), in this data
    /// folder. Dropping the answer stops the daemon the hook started.
    pub fn autostart(&self) -> Warden {
        Warden {
            url: format!("http://127.0.0.1:{}", free_port()),
            child: None,
            autostart: Some(self.data()),
        }
    }

    /// No daemon, and none started (`WARDEN_NO_AUTOSTART=1`): nothing listens at the URL.
    pub fn down(&self) -> Warden {
        Warden {
            url: format!("http://127.0.0.1:{}", free_port()),
            child: None,
            autostart: None,
        }
    }

    /// Runs `claude -p PROMPT --output-format stream-json --verbose` in the work folder,
    /// against the scripted API at `api`, with warden at `warden`; `env` adds variables.
    /// Killed (its whole process group) after [`CLAUDE_WITHIN`].
    pub fn claude(&self, api: &str, warden: &Warden, prompt: &str, env: &[(&str, &str)]) -> Run {
        self.write_settings(warden);
        let mut command = Command::new("claude");
        command
            .args(["-p", prompt, "--output-format", "stream-json", "--verbose"])
            .current_dir(self.work())
            .env_clear()
            .env("PATH", path())
            .env("HOME", self.home())
            .env("TMPDIR", self.root.path().join("tmp"))
            .env("SHELL", "/bin/bash")
            .env("LANG", "C.UTF-8")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("ANTHROPIC_BASE_URL", api)
            .env("ANTHROPIC_API_KEY", "test")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_TELEMETRY", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("DISABLE_ERROR_REPORTING", "1")
            .env("WARDEN_URL", &warden.url)
            .env("WARDEN_DATA", self.data())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        if warden.autostart.is_none() {
            command.env("WARDEN_NO_AUTOSTART", "1");
        }
        for (name, value) in env {
            command.env(name, value);
        }
        let started = Instant::now();
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("spawn claude: {e}"));
        let group = child.id();
        let out = reader(child.stdout.take());
        let err = reader(child.stderr.take());
        let status = loop {
            if let Some(status) = child.try_wait().unwrap_or_else(|e| panic!("wait: {e}")) {
                break Some(status);
            }
            if started.elapsed() > CLAUDE_WITHIN {
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // Whatever Claude Code left running in its group (a background command, the
        // sandbox's proxies) goes with it; the daemon a hook started has a group of its own.
        kill_group(group);
        let _ = child.wait();
        let stdout = out.join().unwrap_or_default();
        let stderr = err.join().unwrap_or_default();
        let lines = stdout
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect();
        let run = Run {
            lines,
            stderr,
            elapsed: started.elapsed(),
        };
        assert!(
            status.is_some(),
            "claude did not finish within {CLAUDE_WITHIN:?} and was killed: {run:?}"
        );
        run
    }
}

pub fn reader<R: std::io::Read + Send + 'static>(
    stream: Option<R>,
) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut stream) = stream {
            let _ = stream.read_to_string(&mut text);
        }
        text
    })
}

/// `kill -KILL -GROUP`: the process group of a child this test started (by its id).
pub fn kill_group(group: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{group}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// A port nothing listens on (bound, read and let go).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("a free port: {e}"))
}

/// What one `claude -p` printed: its stream-json lines.
pub struct Run {
    pub lines: Vec<Value>,
    pub stderr: String,
    pub elapsed: Duration,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "claude ran {:?}; stderr: {}", self.elapsed, self.stderr)?;
        for line in &self.lines {
            let text = line.to_string();
            let cut: String = text.chars().take(600).collect();
            writeln!(f, "  {cut}")?;
        }
        Ok(())
    }
}

impl Run {
    /// Claude Code's session id, which is warden's chat.
    pub fn session(&self) -> String {
        self.lines
            .iter()
            .find(|l| l["type"] == "system" && l["subtype"] == "init")
            .and_then(|l| l["session_id"].as_str())
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no init line: {self:?}"))
    }

    /// The closing `result` line's text: the model's last words, or why the turn stopped.
    pub fn result(&self) -> String {
        self.lines
            .iter()
            .rev()
            .find(|l| l["type"] == "result")
            .and_then(|l| l["result"].as_str())
            .unwrap_or_default()
            .to_string()
    }

    /// The closing `result` line must say the run ended well.
    pub fn succeeded(&self) -> &Self {
        let result = self.lines.iter().rev().find(|l| l["type"] == "result");
        assert!(
            result.is_some_and(|r| r["subtype"] == "success"),
            "claude -p did not end in success: {self:?}"
        );
        self
    }
}

/// warden, as a scenario has it: a daemon this test started, one the hook starts, or none.
pub struct Warden {
    pub url: String,
    child: Option<Child>,
    /// The data folder of the daemon the hook starts, to stop it afterwards.
    autostart: Option<PathBuf>,
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(10)))
        .build()
        .new_agent()
}

/// `GET URL/path`: the status (0 when nothing answers) and the JSON.
fn get(url: &str, path: &str) -> (u16, Value) {
    match agent().get(format!("{url}{path}")).call() {
        Ok(mut response) => {
            let status = response.status().as_u16();
            let text = response.body_mut().read_to_string().unwrap_or_default();
            (status, serde_json::from_str(&text).unwrap_or(Value::Null))
        }
        Err(_) => (0, Value::Null),
    }
}

impl Warden {
    fn wait_healthy(&self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.get("/healthz").0 != 200 {
            assert!(
                Instant::now() < deadline,
                "warden at {} not healthy",
                self.url
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// `GET path`: the status (0 when nothing answers) and the JSON.
    pub fn get(&self, path: &str) -> (u16, Value) {
        get(&self.url, path)
    }

    /// What stops this daemon, `kill -9` by its id, and waits until nothing answers: for
    /// the scripted API to run while Claude Code waits for the model.
    pub fn stopper(&self) -> impl Fn() + Send + Sync + 'static {
        let pid = self
            .child
            .as_ref()
            .map(Child::id)
            .unwrap_or_else(|| panic!("not a daemon this test started"));
        let url = self.url.clone();
        move || {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
            let deadline = Instant::now() + Duration::from_secs(5);
            while get(&url, "/healthz").0 != 0 && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }

    /// The chat's state (`GET /v1/chats/{chat}`), which must exist.
    pub fn chat(&self, chat: &str) -> Value {
        let (status, state) = self.get(&format!("/v1/chats/{chat}"));
        assert_eq!(status, 200, "the chat {chat}: {state}");
        state
    }

    /// The pids of `warden serve` processes started for this data folder (read from
    /// `/proc/*/cmdline`: `warden serve --data DATA …`, as the hook starts it).
    fn started_for(data: &Path) -> Vec<u32> {
        let data = data.display().to_string();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .filter_map(Result::ok)
            .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
            .filter(|pid| {
                let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
                    return false;
                };
                let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
                args.get(1).is_some_and(|a| *a == b"serve")
                    && args
                        .windows(2)
                        .any(|w| w[0] == b"--data" && w[1] == data.as_bytes())
            })
            .collect()
    }

    /// Whether the hook started a daemon for this data folder.
    pub fn hook_started(&self) -> bool {
        self.autostart
            .as_deref()
            .is_some_and(|data| !Warden::started_for(data).is_empty())
    }
}

impl Drop for Warden {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
        if let Some(data) = &self.autostart {
            for pid in Warden::started_for(data) {
                let _ = Command::new("kill")
                    .arg(pid.to_string())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status();
            }
        }
    }
}

/// A web page over HTTPS on loopback (WebFetch turns `http://` into `https://`):
/// `openssl s_server -WWW` with a certificate made for 127.0.0.1, which Claude Code trusts
/// through `NODE_EXTRA_CA_CERTS`.
pub struct Https {
    child: Child,
    pub port: u16,
    pub cert: PathBuf,
}

impl Https {
    /// Serves `page` as `/page.html` from a folder under `dir`; `None` when there is no
    /// `openssl` here.
    pub fn start(dir: &Path, page: &str) -> Option<Https> {
        let www = dir.join("www");
        std::fs::create_dir_all(&www).unwrap_or_else(|e| panic!("create www: {e}"));
        std::fs::write(www.join("page.html"), page).unwrap_or_else(|e| panic!("page: {e}"));
        let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
        let made = Command::new("openssl")
            .args(["req", "-x509", "-newkey", "ec", "-pkeyopt"])
            .args(["ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"])
            .args([
                "-subj",
                "/CN=127.0.0.1",
                "-addext",
                "subjectAltName=IP:127.0.0.1",
            ])
            .arg("-keyout")
            .arg(&key)
            .arg("-out")
            .arg(&cert)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .ok()?;
        assert!(made.success(), "openssl req failed");
        let mut child = Command::new("openssl")
            .args(["s_server", "-accept", "127.0.0.1:0", "-WWW", "-cert"])
            .arg(&cert)
            .arg("-key")
            .arg(&key)
            .current_dir(&www)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let stdout = child.stdout.take()?;
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                // `ACCEPT 127.0.0.1:PORT`
                if let Some(port) = line.strip_prefix("ACCEPT 127.0.0.1:") {
                    let _ = sender.send(port.trim().parse::<u16>().ok());
                    return;
                }
            }
        });
        let port = receiver
            .recv_timeout(Duration::from_secs(10))
            .ok()
            .flatten();
        let Some(port) = port else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("openssl s_server did not say where it listens");
        };
        Some(Https { child, port, cert })
    }

    /// The page's address as the model writes it (plain http: WebFetch upgrades it).
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/page.html", self.port)
    }
}

impl Drop for Https {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
