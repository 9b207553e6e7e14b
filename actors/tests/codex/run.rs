//! One `codex exec` in a scratch project (`claude_code/session.rs`'s): `CODEX_HOME` under the
//! temp home (the person's own `~/.codex` is never read), its `config.toml` naming the
//! scripted API as the model provider, warden's hooks written and trusted by
//! `warden setup codex --user --yes`, and Codex run in a process group of its own, killed
//! after [`CODEX_WITHIN`].

use crate::claude_code::session::{Project, Warden, kill_group, path, reader};
use crate::codex::api::Api;
use std::os::unix::process::CommandExt as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest one `codex exec` may run before it is killed.
pub const CODEX_WITHIN: Duration = Duration::from_secs(90);

/// The model Codex is told it talks to: one its catalogue knows, so that it offers
/// `apply_patch` (with an unknown model it offers no file tool).
const MODEL: &str = "gpt-5.5";

/// `HOME/.codex`, as `CODEX_HOME`.
pub fn codex_home(project: &Project) -> PathBuf {
    project.home().join(".codex")
}

/// Writes `CODEX_HOME/config.toml` for the scripted API at `base_url`, then runs
/// `warden setup codex --user --yes`, which must succeed.
pub fn set_up(project: &Project, base_url: &str) {
    let home = codex_home(project);
    std::fs::create_dir_all(&home).unwrap_or_else(|e| panic!("CODEX_HOME: {e}"));
    let config = format!(
        "model = \"{MODEL}\"\nmodel_provider = \"scripted\"\n\n[model_providers.scripted]\nname = \"scripted\"\nbase_url = \"{base_url}\"\nenv_key = \"SCRIPTED_API_KEY\"\nwire_api = \"responses\"\n"
    );
    std::fs::write(home.join("config.toml"), config).unwrap_or_else(|e| panic!("config: {e}"));
    let output = project
        .warden()
        .args(["setup", "codex", "--user", "--yes"])
        .env("CODEX_HOME", &home)
        .output()
        .unwrap_or_else(|e| panic!("warden setup codex: {e}"));
    assert!(
        output.status.success(),
        "warden setup codex: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// What one `codex exec` printed.
#[derive(Debug)]
pub struct Run {
    pub stdout: String,
    pub stderr: String,
}

/// Runs `codex exec -s danger-full-access PROMPT` in the work folder, with warden at
/// `warden`. Codex's own sandbox is off: what doesn't run was stopped by warden alone.
pub fn exec(project: &Project, api: &Api, warden: &Warden, prompt: &str) -> Run {
    let mut command = Command::new("codex");
    command
        .args([
            "exec",
            "-s",
            "danger-full-access",
            "--skip-git-repo-check",
            prompt,
        ])
        .current_dir(project.work())
        .env_clear()
        .env("PATH", path())
        .env("HOME", project.home())
        .env("CODEX_HOME", codex_home(project))
        .env("TMPDIR", project.root.path().join("tmp"))
        .env("SHELL", "/bin/bash")
        .env("LANG", "C.UTF-8")
        .env("SCRIPTED_API_KEY", "test")
        .env("SCRIPTED_API", api.url())
        .env("WARDEN_URL", &warden.url)
        .env("WARDEN_DATA", project.data())
        .env("WARDEN_NO_AUTOSTART", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let started = Instant::now();
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("spawn codex: {e}"));
    let group = child.id();
    let (out, err) = (reader(child.stdout.take()), reader(child.stderr.take()));
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() < CODEX_WITHIN => {
                std::thread::sleep(Duration::from_millis(20));
            }
            _ => break None,
        }
    };
    kill_group(group);
    let _ = child.wait();
    let run = Run {
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    };
    assert!(
        status.is_some(),
        "codex did not finish within {CODEX_WITHIN:?} ({:?}) and was killed: {run:?}",
        started.elapsed()
    );
    run
}
