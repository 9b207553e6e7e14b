//! `warden setup codex`: warden's hooks in a Codex `hooks.json` (the person's
//! `$CODEX_HOME/hooks.json`, or a project's `.codex/hooks.json`), and each marked trusted in
//! `$CODEX_HOME/config.toml` the way Codex 0.171.0 stores trust, since Codex skips an
//! untrusted hook without a word (`docs/hook.md`, "Codex").
//!
//! Codex's trust (`codex-rs/hooks/src/engine/discovery.rs`, `codex-rs/config/src/fingerprint.rs`):
//! each handler has the key `<hooks.json path>:<event label>:<group>:<handler>` and a hash,
//! `sha256:` and the hex SHA-256 of the compact JSON, keys sorted, of
//! `{"event_name": <label>, "matcher": <matcher>, "hooks": [<the handler, normalized>]}`
//! (the handler's `timeout` written, 600 when absent; `async` false when absent; absent
//! fields left out; no matcher for the events that take none). Codex runs it only when
//! `[hooks.state."<key>"] trusted_hash` in a user config.toml is that hash.

use super::json::{Json, Object};
use super::merge::{self, Event, Plan, Step};
use anyhow::{Context as _, Result, bail};
use sha2::{Digest as _, Sha256};
use std::io::{BufRead as _, IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `warden setup codex`.
#[derive(Debug, clap::Args)]
pub struct CodexArgs {
    /// The project whose .codex/hooks.json to write (default: the current folder).
    #[arg(long, value_name = "DIR", conflicts_with = "user")]
    pub project: Option<PathBuf>,
    /// Write the person's own $CODEX_HOME/hooks.json (~/.codex/hooks.json), for every
    /// project.
    #[arg(long)]
    pub user: bool,
    /// Write without asking.
    #[arg(long, short = 'y', conflicts_with_all = ["dry_run", "check"])]
    pub yes: bool,
    /// Print what would change, and write nothing.
    #[arg(long, conflicts_with = "check")]
    pub dry_run: bool,
    /// Say what is set, missing or untrusted, and write nothing: exit 0 when all is set,
    /// 1 otherwise.
    #[arg(long)]
    pub check: bool,
}

/// Every event `warden hook --host codex` handles, as Codex 0.171.0 names them.
/// `UserPromptSubmit` takes no matcher; the others do, and `*` matches every value.
#[rustfmt::skip]
pub const EVENTS: &[Event] = &[
    Event { name: "SessionStart", matcher: true },
    Event { name: "UserPromptSubmit", matcher: false },
    Event { name: "PreToolUse", matcher: true },
    Event { name: "PermissionRequest", matcher: true },
    Event { name: "PostToolUse", matcher: true },
    Event { name: "SubagentStart", matcher: true },
];

/// The label Codex keys an event's trust with.
fn label(event: &str) -> Option<&'static str> {
    Some(match event {
        "SessionStart" => "session_start",
        "UserPromptSubmit" => "user_prompt_submit",
        "PreToolUse" => "pre_tool_use",
        "PermissionRequest" => "permission_request",
        "PostToolUse" => "post_tool_use",
        "SubagentStart" => "subagent_start",
        _ => return None,
    })
}

/// One of warden's handlers in the hooks file, as Codex keys and hashes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trust {
    /// `<hooks.json>:<label>:<group>:<handler>`.
    pub key: String,
    /// `sha256:<hex>`.
    pub hash: String,
    /// The event, for the person.
    pub event: &'static str,
}

/// Every warden handler in `hooks` (the file's `hooks` object) with its trust key and hash.
pub fn trusts(hooks_file: &str, root: &Json) -> Vec<Trust> {
    let mut found = Vec::new();
    for event in EVENTS {
        let Some(label) = label(event.name) else {
            continue;
        };
        let Some(groups) = root
            .get("hooks")
            .and_then(|h| h.get(event.name))
            .and_then(Json::as_array)
        else {
            continue;
        };
        for (g, group) in groups.iter().enumerate() {
            let Some(handlers) = group.get("hooks").and_then(Json::as_array) else {
                continue;
            };
            for (h, handler) in handlers.iter().enumerate() {
                if handler.get("type").and_then(Json::as_str) != Some("command") {
                    continue;
                }
                let Some(command) = handler.get("command").and_then(Json::as_str) else {
                    continue;
                };
                if !merge::runs_warden(command) {
                    continue;
                }
                let matcher = if event.matcher {
                    group.get("matcher").and_then(Json::as_str)
                } else {
                    None
                };
                found.push(Trust {
                    key: format!("{hooks_file}:{label}:{g}:{h}"),
                    hash: hash(label, matcher, handler),
                    event: event.name,
                });
            }
        }
    }
    found
}

/// Codex's hash of one handler (the module's comment says how).
pub fn hash(label: &str, matcher: Option<&str>, handler: &Json) -> String {
    let timeout = match handler.get("timeout") {
        Some(Json::Number(n)) => n.as_u64().unwrap_or(600).max(1),
        _ => 600,
    };
    let mut hook = serde_json::Map::new();
    hook.insert("type".into(), "command".into());
    let command = handler.get("command").and_then(Json::as_str).unwrap_or("");
    hook.insert("command".into(), command.into());
    hook.insert("timeout".into(), timeout.into());
    let asynchronous = matches!(handler.get("async"), Some(Json::Bool(true)));
    hook.insert("async".into(), asynchronous.into());
    if let Some(message) = handler.get("statusMessage").and_then(Json::as_str) {
        hook.insert("statusMessage".into(), message.into());
    }
    let mut identity = serde_json::Map::new();
    identity.insert("event_name".into(), label.into());
    if let Some(matcher) = matcher {
        identity.insert("matcher".into(), matcher.into());
    }
    identity.insert(
        "hooks".into(),
        serde_json::Value::Array(vec![serde_json::Value::Object(hook)]),
    );
    // serde_json's map is sorted by key (no `preserve_order` in this build), and `to_string`
    // is compact: Codex's canonical form.
    let text = serde_json::Value::Object(identity).to_string();
    let digest = Sha256::digest(text.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// What `config.toml` says of one handler.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trusted {
    /// `trusted_hash` is the handler's hash.
    Yes,
    /// No `trusted_hash`: Codex skips the hook.
    No,
    /// Another hash: the handler changed since it was trusted; Codex skips it.
    Modified,
    /// `enabled = false`: the person turned it off.
    Disabled,
}

/// What `config` (the text of `$CODEX_HOME/config.toml`) says of `trust`.
pub fn trusted(config: &toml::Table, trust: &Trust) -> Trusted {
    let state = config
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(|s| s.get(trust.key.as_str()));
    if state
        .and_then(|s| s.get("enabled"))
        .and_then(toml::Value::as_bool)
        == Some(false)
    {
        return Trusted::Disabled;
    }
    match state
        .and_then(|s| s.get("trusted_hash"))
        .and_then(toml::Value::as_str)
    {
        Some(hash) if hash == trust.hash => Trusted::Yes,
        Some(_) => Trusted::Modified,
        None => Trusted::No,
    }
}

/// `config` with `trusted_hash` set for each of `trusts`, edited as text so that the
/// person's comments and order stay: a `[hooks.state."<key>"]` table appended where there is
/// none, its `trusted_hash` line replaced or added where there is one. Anything else (the
/// state written inline, say) is an error that says what to do in Codex's `/hooks`.
pub fn trust_text(config: &str, trusts: &[Trust]) -> Result<String> {
    let mut text = config.to_string();
    for trust in trusts {
        let quoted = toml::Value::String(trust.key.clone()).to_string();
        let header = format!("[hooks.state.{quoted}]");
        let line = format!("trusted_hash = \"{}\"", trust.hash);
        let lines: Vec<&str> = text.lines().collect();
        match lines.iter().position(|l| l.trim() == header) {
            None => {
                if !text.is_empty() && !text.ends_with('\n') {
                    text.push('\n');
                }
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&format!("{header}\n{line}\n"));
            }
            Some(at) => {
                let end = lines
                    .iter()
                    .skip(at + 1)
                    .position(|l| l.trim_start().starts_with('['))
                    .map_or(lines.len(), |n| at + 1 + n);
                let mut out: Vec<String> = lines.iter().map(|l| (*l).to_string()).collect();
                match (at + 1..end).find(|i| {
                    out[*i]
                        .trim_start()
                        .strip_prefix("trusted_hash")
                        .is_some_and(|rest| rest.trim_start().starts_with('='))
                }) {
                    Some(i) => out[i] = line,
                    None => out.insert(at + 1, line),
                }
                text = out.join("\n");
                text.push('\n');
            }
        }
    }
    let table: toml::Table = text.parse().map_err(|e| {
        anyhow::anyhow!(
            "warden could not add the trust of its hooks to this config.toml without breaking it ({e}); trust them in Codex instead: run `codex`, type /hooks, and trust each warden hook"
        )
    })?;
    if let Some(trust) = trusts
        .iter()
        .find(|t| !matches!(trusted(&table, t), Trusted::Yes | Trusted::Disabled))
    {
        bail!(
            "this config.toml holds the trust of `{}` in a form warden does not edit (inline, say); trust warden's hooks in Codex instead: run `codex`, type /hooks, and trust each warden hook",
            trust.key
        );
    }
    Ok(text)
}

/// `$CODEX_HOME`, else `~/.codex`.
fn codex_home(home: &str) -> Result<PathBuf> {
    let dir = match std::env::var_os("CODEX_HOME") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(home).join(".codex"),
    };
    std::path::absolute(&dir).with_context(|| format!("{} has no absolute path", dir.display()))
}

/// Runs `warden setup codex`.
pub fn main(args: &CodexArgs) -> Result<ExitCode> {
    let home = std::env::var("HOME")
        .ok()
        .filter(|home| !home.is_empty())
        .context("HOME is not set: ~/.codex is found from it")?;
    let codex_home = codex_home(&home)?;
    let (hooks_file, project) = if args.user {
        (codex_home.join("hooks.json"), None)
    } else {
        let dir = match &args.project {
            Some(dir) => dir.clone(),
            None => std::env::current_dir().context("the current folder can't be read")?,
        };
        if !dir.is_dir() {
            bail!("{} is not a folder", dir.display());
        }
        let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
        (dir.join(".codex").join("hooks.json"), Some(dir))
    };
    let config_file = codex_home.join("config.toml");
    let plan = plan(&home)?;
    let read = super::read(&hooks_file)?;
    let before = read.as_ref().map(|(text, _)| text.clone());
    let mut root = match read.map(|(_, value)| value) {
        Some(Json::Object(root)) => root,
        _ => Object::new(),
    };
    let hooks = match root.or_insert_with("hooks", || Json::Object(Object::new())) {
        Json::Object(hooks) => hooks,
        other => bail!(
            "{}: `hooks` is {}, where Codex expects an object: fix or remove it, then run setup again",
            hooks_file.display(),
            other.kind()
        ),
    };
    let mut steps: Vec<Step> = Vec::new();
    for event in EVENTS {
        steps.push(
            merge::hook(hooks, event, &plan)
                .with_context(|| format!("{}: nothing was written", hooks_file.display()))?,
        );
    }
    let merged = Json::Object(root);
    let hooks_text = format!("{}\n", merged.pretty());
    let path_text = hooks_file
        .to_str()
        .context("the hooks file's path is not UTF-8")?
        .to_string();
    let trusts = trusts(&path_text, &merged);
    let config_before = match std::fs::read_to_string(&config_file) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("reading {}", config_file.display())),
    };
    let config: toml::Table = config_before
        .as_deref()
        .unwrap_or("")
        .parse()
        .map_err(|e| {
            anyhow::anyhow!(
                "{}: not valid TOML ({e}), so warden setup leaves it as it is",
                config_file.display()
            )
        })?;
    let mut out = std::io::stdout().lock();
    if args.check {
        return check(
            &mut out,
            &hooks_file,
            &steps,
            &trusts,
            &config,
            project.as_deref(),
        );
    }
    let untrusted: Vec<Trust> = trusts
        .iter()
        .filter(|t| matches!(trusted(&config, t), Trusted::No | Trusted::Modified))
        .cloned()
        .collect();
    let changes: Vec<&merge::Change> = steps.iter().flat_map(|s| &s.changes).collect();
    if changes.is_empty() && untrusted.is_empty() {
        writeln!(
            out,
            "{} already has warden's hooks, trusted in {}: nothing to change.",
            hooks_file.display(),
            config_file.display()
        )?;
        project_note(&mut out, &config, project.as_deref())?;
        return Ok(ExitCode::SUCCESS);
    }
    let config_after = trust_text(config_before.as_deref().unwrap_or(""), &untrusted)?;
    if !changes.is_empty() {
        writeln!(out, "warden setup would change {}:", hooks_file.display())?;
        for change in &changes {
            writeln!(out, "  {change}")?;
        }
        writeln!(out)?;
        write!(
            out,
            "{}",
            super::diff::diff(before.as_deref().unwrap_or(""), &hooks_text)
        )?;
        writeln!(out)?;
    }
    if !untrusted.is_empty() {
        writeln!(
            out,
            "warden setup would mark {} of warden's hooks trusted in {} (Codex skips an untrusted hook without a word):",
            untrusted.len(),
            config_file.display()
        )?;
        for trust in &untrusted {
            writeln!(
                out,
                "  hooks.state.\"{}\".trusted_hash = {}",
                trust.key, trust.hash
            )?;
        }
        writeln!(out)?;
    }
    if args.dry_run {
        writeln!(out, "Dry run: nothing was written.")?;
        return Ok(ExitCode::SUCCESS);
    }
    if !args.yes {
        if !std::io::stdin().is_terminal() {
            bail!(
                "nothing was written: run `warden setup codex` again with --yes to write {} and {} (stdin is not a terminal to ask on), or --dry-run to only look",
                hooks_file.display(),
                config_file.display()
            );
        }
        write!(out, "Write these changes? [y/N] ")?;
        out.flush()?;
        let mut answer = String::new();
        std::io::stdin().lock().read_line(&mut answer)?;
        if !matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
            writeln!(out, "Nothing was written.")?;
            return Ok(ExitCode::FAILURE);
        }
    }
    if !changes.is_empty() {
        let backup = super::write(&hooks_file, before.as_deref(), &hooks_text)?;
        wrote(&mut out, &hooks_file, backup)?;
    }
    if !untrusted.is_empty() {
        let backup = super::write(&config_file, config_before.as_deref(), &config_after)?;
        wrote(&mut out, &config_file, backup)?;
    }
    if let Some(note) = super::build_folder(&plan.program) {
        writeln!(out, "note: {note}")?;
    }
    project_note(&mut out, &config, project.as_deref())?;
    Ok(ExitCode::SUCCESS)
}

fn wrote(out: &mut impl std::io::Write, file: &Path, backup: Option<PathBuf>) -> Result<()> {
    match backup {
        Some(backup) => writeln!(
            out,
            "Wrote {} (the file as it was: {}).",
            file.display(),
            backup.display()
        )?,
        None => writeln!(out, "Wrote {} (a new file).", file.display())?,
    }
    Ok(())
}

/// What the hooks run: this binary, `hook --host codex`.
fn plan(home: &str) -> Result<Plan> {
    let program = std::env::current_exe().context("this warden binary's path can't be read")?;
    let program = std::fs::canonicalize(&program).unwrap_or(program);
    let program = program
        .to_str()
        .context("this warden binary's path is not UTF-8, so it can't be written in JSON")?
        .to_string();
    Ok(Plan {
        program,
        hidden: Vec::new(),
        denied: Vec::new(),
        strict: false,
        home: home.to_string(),
        host: Some("codex"),
    })
}

/// Whether Codex trusts the project: it reads a project's `.codex/` only then.
fn project_trusted(config: &toml::Table, project: &Path) -> bool {
    let key = project.to_string_lossy();
    config
        .get("projects")
        .and_then(|p| p.get(key.as_ref()))
        .and_then(|p| p.get("trust_level"))
        .and_then(toml::Value::as_str)
        == Some("trusted")
}

/// For `--project`: a line when Codex doesn't trust the project, whose hooks it then skips.
fn project_note(
    out: &mut impl std::io::Write,
    config: &toml::Table,
    project: Option<&Path>,
) -> Result<()> {
    if let Some(project) = project
        && !project_trusted(config, project)
    {
        writeln!(
            out,
            "note: Codex reads {}/.codex/ only once you trust the project (Codex asks when it first starts there, or `[projects.\"{}\"] trust_level = \"trusted\"` in config.toml): until then these hooks don't run.",
            project.display(),
            project.display()
        )?;
    }
    Ok(())
}

/// `--check`: each hook set or missing, each trusted or not, and the project's trust.
fn check(
    out: &mut impl std::io::Write,
    hooks_file: &Path,
    steps: &[Step],
    trusts: &[Trust],
    config: &toml::Table,
    project: Option<&Path>,
) -> Result<ExitCode> {
    writeln!(out, "{}", hooks_file.display())?;
    let mut missing = 0;
    for step in steps {
        if step.changes.is_empty() {
            writeln!(out, "  set        {}", step.what)?;
        } else {
            missing += 1;
            writeln!(out, "  missing    {}", step.what)?;
        }
    }
    for trust in trusts {
        let (word, why) = match trusted(config, trust) {
            Trusted::Yes => ("trusted", ""),
            Trusted::No => (
                "UNTRUSTED",
                ": Codex skips it without a word, so this guard isn't there",
            ),
            Trusted::Modified => (
                "UNTRUSTED",
                ": changed since it was trusted, so Codex skips it and this guard isn't there",
            ),
            Trusted::Disabled => (
                "DISABLED",
                ": turned off in config.toml (enabled = false), so this guard isn't there",
            ),
        };
        if word != "trusted" {
            missing += 1;
        }
        writeln!(out, "  {word:<10} {} ({}){why}", trust.event, trust.key)?;
    }
    if let Some(project) = project
        && !project_trusted(config, project)
    {
        missing += 1;
        writeln!(
            out,
            "  problem    Codex does not trust {}: it reads the project's .codex/ (these hooks) only in a trusted project",
            project.display()
        )?;
    }
    if missing == 0 {
        writeln!(out, "All set.")?;
        Ok(ExitCode::SUCCESS)
    } else {
        writeln!(
            out,
            "{missing} missing or untrusted: `warden setup codex` writes and trusts the hooks (or trust them in Codex: /hooks)."
        )?;
        Ok(ExitCode::FAILURE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handler(command: &str, timeout: u64) -> Json {
        Json::from(serde_json::json!({"type": "command", "command": command, "timeout": timeout}))
    }

    #[test]
    fn the_hash_is_codex_s() {
        // Codex 0.171.0 ran this very hook with this hash as its trusted_hash (checked by
        // hand; `actors/tests/codex.rs` checks warden's own through the real Codex).
        assert_eq!(
            hash("pre_tool_use", Some("*"), &handler("/tmp/cx/hook.sh", 10)),
            "sha256:ea6fdeea47c84a7ce9511d588086520ba141f45dc9fa360a83597a72f55ea4e8"
        );
        // Another matcher, timeout or command is another hash.
        let base = hash("pre_tool_use", Some("*"), &handler("warden hook", 10));
        for other in [
            hash("pre_tool_use", None, &handler("warden hook", 10)),
            hash("pre_tool_use", Some("*"), &handler("warden hook", 11)),
            hash("post_tool_use", Some("*"), &handler("warden hook", 10)),
            hash(
                "pre_tool_use",
                Some("*"),
                &handler("warden hook --host codex", 10),
            ),
        ] {
            assert_ne!(base, other);
        }
        // No timeout is Codex's 600.
        let none = Json::from(serde_json::json!({"type": "command", "command": "warden hook"}));
        assert_eq!(
            hash("stop", None, &none),
            hash("stop", None, &handler("warden hook", 600))
        );
    }

    #[test]
    fn trust_is_added_and_replaced_as_text() {
        let trust = Trust {
            key: "/h/.codex/hooks.json:pre_tool_use:0:0".into(),
            hash: "sha256:aa".into(),
            event: "PreToolUse",
        };
        let person = "# mine\nmodel = \"o3\"\n\n[projects.\"/w\"]\ntrust_level = \"trusted\"\n";
        let added =
            trust_text(person, std::slice::from_ref(&trust)).unwrap_or_else(|e| panic!("{e}"));
        assert!(added.starts_with(person), "{added}");
        assert!(added.ends_with("[hooks.state.\"/h/.codex/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:aa\"\n"), "{added}");
        let table: toml::Table = added.parse().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(trusted(&table, &trust), Trusted::Yes);
        // Run again with a new hash: the line is replaced, nothing added.
        let newer = Trust {
            hash: "sha256:bb".into(),
            ..trust.clone()
        };
        assert_eq!(trusted(&table, &newer), Trusted::Modified);
        let replaced =
            trust_text(&added, std::slice::from_ref(&newer)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(replaced.matches("[hooks.state.").count(), 1, "{replaced}");
        assert!(replaced.contains("trusted_hash = \"sha256:bb\""));
        // A state table with only `enabled` gets the line.
        let enabled = "[hooks.state.\"/h/.codex/hooks.json:pre_tool_use:0:0\"]\nenabled = true\n";
        let got =
            trust_text(enabled, std::slice::from_ref(&trust)).unwrap_or_else(|e| panic!("{e}"));
        let table: toml::Table = got.parse().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(trusted(&table, &trust), Trusted::Yes);
        // Inline state is not edited: the error says what to do.
        let inline = "hooks = { state = { \"/h/.codex/hooks.json:pre_tool_use:0:0\" = { trusted_hash = \"sha256:old\" } } }\n";
        let err = trust_text(inline, &[trust])
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(err.contains("/hooks"), "{err}");
    }

    #[test]
    fn only_warden_s_handlers_are_trusted() {
        let root = Json::from(serde_json::json!({"hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-linter"}]},
                {"matcher": "*", "hooks": [{"type": "command", "command": "/usr/bin/warden hook --host codex", "timeout": 10}]}
            ],
            "UserPromptSubmit": [
                {"matcher": "ignored", "hooks": [{"type": "command", "command": "/usr/bin/warden hook --host codex", "timeout": 10}]}
            ]
        }}));
        let found = trusts("/h/hooks.json", &root);
        let keys: Vec<&str> = found.iter().map(|t| t.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "/h/hooks.json:user_prompt_submit:0:0",
                "/h/hooks.json:pre_tool_use:1:0"
            ]
        );
        // UserPromptSubmit takes no matcher: its hash leaves the matcher out.
        assert_eq!(
            found[0].hash,
            hash(
                "user_prompt_submit",
                None,
                &handler("/usr/bin/warden hook --host codex", 10)
            )
        );
    }
}
