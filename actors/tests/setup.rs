//! `warden setup claude-code` through the real binary, on a home folder and a project of
//! its own: what it writes, what it keeps of the person's, the backup, the preview, the
//! checks, and the files it refuses to touch.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A home folder, a project in it, and a folder of programs that stands for the PATH.
struct Place {
    dir: tempfile::TempDir,
}

impl Place {
    fn new() -> Place {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        for folder in ["home", "project", "bin"] {
            std::fs::create_dir_all(dir.path().join(folder))
                .unwrap_or_else(|e| panic!("create {folder}: {e}"));
        }
        Place { dir }
    }

    /// A place whose PATH has a bubblewrap and a socat that work (stand-ins that exit 0).
    fn with_tools() -> Place {
        let place = Place::new();
        place.tool("bwrap", "exit 0");
        place.tool("socat", "exit 0");
        place
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn project(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    fn settings(&self) -> PathBuf {
        self.project().join(".claude").join("settings.json")
    }

    /// A program on the place's PATH: a shell script with this body.
    fn tool(&self, name: &str, body: &str) {
        let path = self.dir.path().join("bin").join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n"))
            .unwrap_or_else(|e| panic!("write {name}: {e}"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                .unwrap_or_else(|e| panic!("chmod {name}: {e}"));
        }
    }

    fn write_settings(&self, text: &str) {
        std::fs::create_dir_all(self.project().join(".claude"))
            .unwrap_or_else(|e| panic!("create .claude: {e}"));
        std::fs::write(self.settings(), text).unwrap_or_else(|e| panic!("write settings: {e}"));
    }

    fn read_settings(&self) -> Value {
        let text = std::fs::read_to_string(self.settings()).unwrap_or_else(|e| panic!("read: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    /// `warden setup claude-code ARGS` in the project, with this place's HOME and PATH and
    /// none of warden's or Claude Code's variables from the test's own environment.
    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_warden"));
        command
            .args(["setup", "claude-code"])
            .args(args)
            .current_dir(self.project())
            .env("HOME", self.home())
            .env("PATH", self.dir.path().join("bin"))
            .stdin(Stdio::null());
        for variable in [
            "WARDEN_DATA",
            "WARDEN_CONFIG",
            "WARDEN_URL",
            "XDG_CONFIG_HOME",
            "CLAUDE_CONFIG_DIR",
        ] {
            command.env_remove(variable);
        }
        command
    }

    fn run(&self, args: &[&str]) -> Run {
        let output = self
            .command(args)
            .output()
            .unwrap_or_else(|e| panic!("run warden setup: {e}"));
        Run::from(output)
    }

    /// The backups beside the settings file.
    fn backups(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(self.project().join(".claude")) else {
            return Vec::new();
        };
        let mut backups: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("settings.json.warden-backup-"))
            })
            .collect();
        backups.sort();
        backups
    }
}

/// What one run printed and how it ended.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl From<Output> for Run {
    fn from(output: Output) -> Run {
        Run {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {:?}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// The hook command setup writes: this binary's own path, then `hook`.
fn hook_command() -> String {
    let exe = std::fs::canonicalize(env!("CARGO_BIN_EXE_warden"))
        .unwrap_or_else(|e| panic!("canonicalize: {e}"));
    format!("{} hook", exe.display())
}

/// Every command of one event's hooks.
fn commands(settings: &Value, event: &str) -> Vec<String> {
    settings["hooks"][event]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|group| group["hooks"].as_array().into_iter().flatten())
        .filter_map(|hook| hook["command"].as_str().map(String::from))
        .collect()
}

fn path_text(path: &Path) -> String {
    path.display().to_string()
}

const EVENTS: [(&str, bool); 8] = [
    ("UserPromptSubmit", false),
    ("SessionStart", true),
    ("PreToolUse", true),
    ("PermissionRequest", true),
    ("PostToolUse", true),
    ("PostToolUseFailure", true),
    ("PostToolBatch", false),
    ("SubagentStart", true),
];

#[test]
fn a_new_project_file_gets_every_event_and_the_sandbox() {
    let place = Place::with_tools();
    let run = place.run(&["--yes"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("(a new file)"), "{run:?}");
    let settings = place.read_settings();
    for (event, matcher) in EVENTS {
        assert_eq!(commands(&settings, event), [hook_command()], "{event}");
        let group = &settings["hooks"][event][0];
        assert_eq!(
            group.get("matcher").cloned(),
            matcher.then(|| json!("*")),
            "{event}"
        );
        assert_eq!(group["hooks"][0]["type"], json!("command"), "{event}");
        assert_eq!(group["hooks"][0]["timeout"], json!(10), "{event}");
    }
    let data = path_text(&place.home().join(".local/share/warden"));
    let config = path_text(&place.home().join(".config/warden"));
    assert_eq!(
        settings["sandbox"],
        json!({
            "enabled": true,
            "allowUnsandboxedCommands": false,
            "filesystem": {"denyRead": [data, config], "denyWrite": [data, config]},
            "network": {
                "deniedDomains": ["localhost:7411", "127.0.0.1:7411", "[::1]:7411", "0.0.0.0:7411"],
                "allowLocalBinding": false
            }
        })
    );
    assert_eq!(
        place.backups(),
        Vec::<PathBuf>::new(),
        "a new file has nothing to back up"
    );
    // warden's folders exist, the person's alone, so the sandbox hides them from the start.
    #[cfg(unix)]
    for folder in [&data, &config] {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(folder)
            .unwrap_or_else(|e| panic!("{folder}: {e}"))
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700, "{folder}");
    }
}

#[test]
fn the_person_s_file_is_merged_backed_up_and_a_second_run_changes_nothing() {
    let place = Place::with_tools();
    let original = r#"{
  "model": "opus",
  "permissions": { "deny": ["Read(./.env)"], "allow": ["Bash(cargo test:*)"] },
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "lint-bash", "timeout": 5 }] }
    ],
    "Stop": [{ "hooks": [{ "type": "command", "command": "notify-send done" }] }]
  },
  "sandbox": { "excludedCommands": ["docker *"], "filesystem": { "denyRead": ["~/.aws"] } },
  "env": { "FOO": "1" }
}
"#;
    place.write_settings(original);
    let run = place.run(&["--yes"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    let settings = place.read_settings();
    let written = std::fs::read_to_string(place.settings()).unwrap_or_else(|e| panic!("{e}"));
    let at = |key: &str| {
        written
            .find(&format!("\n  \"{key}\": "))
            .unwrap_or_else(|| panic!("no top-level {key}: {written}"))
    };
    let places: Vec<usize> = ["model", "permissions", "hooks", "sandbox", "env"]
        .iter()
        .map(|key| at(key))
        .collect();
    assert!(places.is_sorted(), "the person's order: {written}");
    assert!(
        written.find("\"deny\"") < written.find("\"allow\""),
        "inside too: {written}"
    );
    assert!(
        written.find("\"PreToolUse\"") < written.find("\"Stop\""),
        "{written}"
    );
    assert_eq!(
        settings["permissions"],
        json!({"allow": ["Bash(cargo test:*)"], "deny": ["Read(./.env)"]})
    );
    assert_eq!(settings["env"], json!({"FOO": "1"}));
    assert_eq!(commands(&settings, "Stop"), ["notify-send done"]);
    assert_eq!(
        commands(&settings, "PreToolUse"),
        ["lint-bash".to_string(), hook_command()]
    );
    assert_eq!(
        settings["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"],
        json!(5)
    );
    assert_eq!(settings["sandbox"]["excludedCommands"], json!(["docker *"]));
    assert_eq!(
        settings["sandbox"]["filesystem"]["denyRead"][0],
        json!("~/.aws")
    );
    // The note says what still runs outside the sandbox.
    assert!(run.stdout.contains("excludedCommands"), "{run:?}");
    let backups = place.backups();
    assert_eq!(backups.len(), 1, "{run:?}");
    let kept = std::fs::read_to_string(&backups[0]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(kept, original, "the backup is the file as it was");
    assert!(run.stdout.contains(&path_text(&backups[0])), "{run:?}");

    let again = place.run(&["--yes"]);
    assert_eq!(again.code, Some(0), "{again:?}");
    assert!(again.stdout.contains("nothing to change"), "{again:?}");
    assert_eq!(
        std::fs::read_to_string(place.settings()).unwrap_or_else(|e| panic!("{e}")),
        written
    );
    assert_eq!(
        place.backups().len(),
        1,
        "nothing changed, nothing backed up"
    );
}

#[test]
fn an_older_warden_hook_gets_this_binary_s_path() {
    let place = Place::with_tools();
    place.write_settings(
        r#"{"hooks": {
            "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/old/bin/warden hook", "timeout": 10}]}],
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "WARDEN_NO_AUTOSTART=1 warden hook"}]}]
        }}"#,
    );
    let run = place.run(&["--yes"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stdout.contains("`/old/bin/warden hook` becomes"),
        "{run:?}"
    );
    let settings = place.read_settings();
    assert_eq!(commands(&settings, "PreToolUse"), [hook_command()]);
    assert_eq!(
        commands(&settings, "UserPromptSubmit"),
        [format!("WARDEN_NO_AUTOSTART=1 {}", hook_command())]
    );
}

#[test]
fn a_dry_run_shows_the_changes_and_the_diff_and_writes_nothing() {
    let place = Place::with_tools();
    let original = "{\n  \"model\": \"opus\"\n}\n";
    place.write_settings(original);
    let run = place.run(&["--dry-run"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    for words in [
        "warden setup would change",
        "hooks.PreToolUse: add",
        "sandbox.enabled: set to true",
        "sandbox.filesystem.denyRead: add",
        "sandbox.network.deniedDomains: add \"127.0.0.1:7411\"",
        "+   \"sandbox\": {",
        "Dry run: nothing was written.",
    ] {
        assert!(run.stdout.contains(words), "{words}: {run:?}");
    }
    assert_eq!(
        std::fs::read_to_string(place.settings()).unwrap_or_else(|e| panic!("{e}")),
        original
    );
    assert_eq!(place.backups(), Vec::<PathBuf>::new());
    assert!(
        !place.home().join(".local/share/warden").exists(),
        "a dry run makes nothing"
    );
}

#[test]
fn without_yes_and_without_a_terminal_nothing_is_written() {
    let place = Place::with_tools();
    let run = place.run(&[]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("--yes"), "{run:?}");
    assert!(
        run.stdout.contains("warden setup would create"),
        "the preview: {run:?}"
    );
    assert!(!place.settings().exists(), "{run:?}");
}

#[test]
fn check_says_what_is_missing_then_that_all_is_set_and_never_writes() {
    let place = Place::with_tools();
    place.write_settings("{\"model\": \"opus\"}");
    let before = place.run(&["--check"]);
    assert_eq!(before.code, Some(1), "{before:?}");
    assert!(
        before.stdout.contains("missing  hooks.PreToolUse"),
        "{before:?}"
    );
    assert!(
        before.stdout.contains("missing  sandbox.enabled is true"),
        "{before:?}"
    );
    assert_eq!(
        std::fs::read_to_string(place.settings()).unwrap_or_else(|e| panic!("{e}")),
        "{\"model\": \"opus\"}",
        "--check writes nothing"
    );
    assert_eq!(place.backups(), Vec::<PathBuf>::new());

    let write = place.run(&["--yes"]);
    assert_eq!(write.code, Some(0), "{write:?}");
    let after = place.run(&["--check"]);
    assert_eq!(after.code, Some(0), "{after:?}");
    assert!(after.stdout.contains("All set."), "{after:?}");
    assert!(!after.stdout.contains("missing"), "{after:?}");
    // --strict asks for one thing more.
    let strict = place.run(&["--check", "--strict"]);
    assert_eq!(strict.code, Some(1), "{strict:?}");
    assert!(
        strict
            .stdout
            .contains("missing  sandbox.failIfUnavailable is true"),
        "{strict:?}"
    );
}

#[test]
fn check_fails_on_a_setting_that_undoes_the_sandbox() {
    let place = Place::with_tools();
    let write = place.run(&["--yes"]);
    assert_eq!(write.code, Some(0), "{write:?}");
    let mut settings = place.read_settings();
    settings["sandbox"]["allowNestedUserNamespaces"] = json!(true);
    place.write_settings(&settings.to_string());
    let check = place.run(&["--check"]);
    assert_eq!(check.code, Some(1), "{check:?}");
    assert!(
        check
            .stdout
            .contains("problem  sandbox.allowNestedUserNamespaces"),
        "{check:?}"
    );
}

#[test]
fn strict_asks_claude_code_to_refuse_to_start_without_its_sandbox() {
    let place = Place::with_tools();
    let run = place.run(&["--yes", "--strict"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        place.read_settings()["sandbox"]["failIfUnavailable"],
        json!(true)
    );
    let plain = Place::with_tools();
    let run = plain.run(&["--yes"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        plain.read_settings()["sandbox"].get("failIfUnavailable"),
        None
    );
}

#[cfg(target_os = "linux")]
#[test]
fn without_bubblewrap_and_socat_it_says_how_to_install_them_and_writes_the_rest() {
    let place = Place::new();
    let run = place.run(&["--yes"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    for words in [
        "bwrap is not on the PATH",
        "socat is not on the PATH",
        "sudo apt-get install bubblewrap socat",
        "runs Bash without the sandbox",
    ] {
        assert!(run.stdout.contains(words), "{words}: {run:?}");
    }
    let settings = place.read_settings();
    assert_eq!(settings["sandbox"]["enabled"], json!(true));
    assert_eq!(commands(&settings, "PreToolUse"), [hook_command()]);
    let check = place.run(&["--check"]);
    assert_eq!(check.code, Some(1), "{check:?}");
    assert!(
        check.stdout.contains("missing  bubblewrap (bwrap)"),
        "{check:?}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_bubblewrap_that_can_t_make_a_sandbox_is_named_with_its_reason() {
    let place = Place::new();
    place.tool(
        "bwrap",
        "echo 'bwrap: setting up uid map: Permission denied' >&2; exit 1",
    );
    place.tool("socat", "exit 0");
    let run = place.run(&["--check"]);
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stdout.contains("setting up uid map: Permission denied"),
        "{run:?}"
    );
    assert!(run.stdout.contains("ok       socat"), "{run:?}");
}

#[test]
fn a_file_that_is_not_a_json_object_is_never_overwritten() {
    for (text, says) in [
        (
            "{\n  \"model\": \"opus\",\n  ,\n}\n",
            ":3:3: not valid JSON",
        ),
        ("{\"hooks\": {} // mine\n}", ":1:14: not valid JSON"),
        ("[1, 2]", "holds a list, not a JSON object"),
        ("\"hello\"", "holds a string"),
    ] {
        let place = Place::with_tools();
        place.write_settings(text);
        for args in [&["--yes"][..], &["--check"], &["--dry-run"]] {
            let run = place.run(args);
            assert_eq!(run.code, Some(2), "{text} {args:?}: {run:?}");
            assert!(
                run.stderr.contains(&path_text(&place.settings())),
                "{run:?}"
            );
            assert!(run.stderr.contains(says), "{says}: {run:?}");
            assert_eq!(
                std::fs::read_to_string(place.settings()).unwrap_or_else(|e| panic!("{e}")),
                text
            );
            assert_eq!(place.backups(), Vec::<PathBuf>::new());
        }
    }
}

#[test]
fn a_part_of_the_wrong_kind_is_named_and_left_alone() {
    let place = Place::with_tools();
    place.write_settings("{\"sandbox\": true}");
    let run = place.run(&["--yes"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("`sandbox` is a boolean"), "{run:?}");
    assert_eq!(
        std::fs::read_to_string(place.settings()).unwrap_or_else(|e| panic!("{e}")),
        "{\"sandbox\": true}"
    );
}

#[test]
fn user_writes_the_person_s_own_settings() {
    let place = Place::with_tools();
    let run = place.run(&["--user", "--yes"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    let file = place.home().join(".claude/settings.json");
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{e}: {run:?}"));
    let settings: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(commands(&settings, "PreToolUse"), [hook_command()]);
    assert!(
        !place.settings().exists(),
        "the project's file is not touched"
    );

    // Claude Code's own CLAUDE_CONFIG_DIR moves the person's settings.
    let elsewhere = place.dir.path().join("claude-config");
    let run = Run::from(
        place
            .command(&["--user", "--yes"])
            .env("CLAUDE_CONFIG_DIR", &elsewhere)
            .output()
            .unwrap_or_else(|e| panic!("{e}")),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(elsewhere.join("settings.json").is_file(), "{run:?}");
}

#[test]
fn project_names_the_project_and_must_be_a_folder() {
    let place = Place::with_tools();
    let other = place.dir.path().join("other");
    std::fs::create_dir_all(&other).unwrap_or_else(|e| panic!("{e}"));
    let run = place.run(&["--project", &path_text(&other), "--yes"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(other.join(".claude/settings.json").is_file());
    assert!(!place.settings().exists());
    let missing = place.dir.path().join("missing");
    let run = place.run(&["--project", &path_text(&missing), "--yes"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("is not a folder"), "{run:?}");
    let both = place.run(&["--project", &path_text(&other), "--user"]);
    assert_eq!(both.code, Some(2), "{both:?}");
}

#[test]
fn the_configured_data_folder_configuration_and_port_are_what_the_sandbox_keeps_out() {
    let place = Place::with_tools();
    let config_dir = place.home().join(".config/warden");
    std::fs::create_dir_all(&config_dir).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        config_dir.join("config.toml"),
        "data = \"~/warden-data\"\nlisten = \"127.0.0.1:7500\"\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let run = place.run(&["--yes"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    let settings = place.read_settings();
    let data = path_text(&place.home().join("warden-data"));
    assert_eq!(
        settings["sandbox"]["filesystem"]["denyRead"],
        json!([data, path_text(&config_dir)])
    );
    assert_eq!(
        settings["sandbox"]["network"]["deniedDomains"],
        json!([
            "localhost:7500",
            "127.0.0.1:7500",
            "[::1]:7500",
            "0.0.0.0:7500"
        ])
    );

    // $WARDEN_DATA wins over `data`, as it does for the hook; a configuration file outside
    // the settings folder is kept out too.
    let place = Place::with_tools();
    let config = place.dir.path().join("elsewhere.toml");
    std::fs::write(&config, "listen = \"127.0.0.1:7411\"\n").unwrap_or_else(|e| panic!("{e}"));
    let data = place.dir.path().join("data");
    let run = Run::from(
        place
            .command(&["--yes"])
            .env("WARDEN_CONFIG", &config)
            .env("WARDEN_DATA", &data)
            .output()
            .unwrap_or_else(|e| panic!("{e}")),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        place.read_settings()["sandbox"]["filesystem"]["denyWrite"],
        json!([
            path_text(&data),
            path_text(&place.home().join(".config/warden")),
            path_text(&config)
        ])
    );
}

#[cfg(unix)]
#[test]
fn the_file_keeps_its_permissions_and_so_does_its_backup() {
    use std::os::unix::fs::PermissionsExt as _;
    let place = Place::with_tools();
    place.write_settings("{}");
    std::fs::set_permissions(place.settings(), std::fs::Permissions::from_mode(0o600))
        .unwrap_or_else(|e| panic!("{e}"));
    let run = place.run(&["--yes"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    let backups = place.backups();
    for file in [place.settings(), backups[0].clone()] {
        let mode = std::fs::metadata(&file)
            .unwrap_or_else(|e| panic!("{e}"))
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{}", file.display());
    }
}

#[cfg(unix)]
#[test]
fn a_linked_settings_file_is_changed_where_it_lives_and_stays_a_link() {
    let place = Place::with_tools();
    let dotfiles = place.dir.path().join("dotfiles");
    std::fs::create_dir_all(&dotfiles).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dotfiles.join("settings.json"), "{\"model\": \"opus\"}")
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir_all(place.project().join(".claude")).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(dotfiles.join("settings.json"), place.settings())
        .unwrap_or_else(|e| panic!("{e}"));
    let run = place.run(&["--yes"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    let link = std::fs::symlink_metadata(place.settings()).unwrap_or_else(|e| panic!("{e}"));
    assert!(link.file_type().is_symlink(), "still a link");
    let settings = place.read_settings();
    assert_eq!(settings["model"], json!("opus"));
    assert_eq!(commands(&settings, "PreToolUse"), [hook_command()]);
}
