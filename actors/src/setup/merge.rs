//! The pure half of `warden setup claude-code`: warden's hooks and Claude Code's sandbox
//! settings, merged into a settings file's JSON without dropping anything of the person's.
//!
//! Every key written here was read off Claude Code 2.1.328's own settings schema (its
//! bundled zod schema and the sandbox runtime it drives): `docs/hook.md`, "Setup", names
//! them and says where each was confirmed.

use super::json::{Json, Object};
use std::fmt;

/// A hook event warden handles, and whether Claude Code reads a matcher for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// The event's name, as a key of `hooks`.
    pub name: &'static str,
    /// Claude Code reads the entry's `matcher` for this event (a tool name, a session's
    /// source, a subagent's type); for the others it ignores it.
    pub matcher: bool,
}

/// Every event `warden hook` handles. In Claude Code 2.1.328 `UserPromptSubmit` and
/// `PostToolBatch` take no matcher; the others do, and `*` matches every value.
#[rustfmt::skip]
pub const EVENTS: &[Event] = &[
    Event { name: "UserPromptSubmit", matcher: false },
    Event { name: "SessionStart", matcher: true },
    Event { name: "PreToolUse", matcher: true },
    Event { name: "PermissionRequest", matcher: true },
    Event { name: "PostToolUse", matcher: true },
    Event { name: "PostToolUseFailure", matcher: true },
    Event { name: "PostToolBatch", matcher: false },
    Event { name: "SubagentStart", matcher: true },
];

/// The `timeout` (seconds) of warden's hook entries: a backstop far above the hook's own
/// 4.5 s watchdog.
pub const TIMEOUT: u64 = 10;

/// What setup writes into one settings file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The program the hooks run: this warden binary, by its absolute path.
    pub program: String,
    /// Paths the sandboxed Bash may neither read nor write: warden's data folder (the
    /// token), its settings folder, its configuration file when that lies elsewhere.
    pub hidden: Vec<String>,
    /// `host:port` entries for `sandbox.network.deniedDomains`: warden's address, under
    /// each loopback name the sandbox's proxy could be asked for.
    pub denied: Vec<String>,
    /// `--strict`: `sandbox.failIfUnavailable: true`, so Claude Code refuses to start
    /// without a working sandbox.
    pub strict: bool,
    /// The home folder, to read `~/` in the person's own entries.
    pub home: String,
    /// `--host NAME` on the hook's command line (`codex`), for a host whose answers take
    /// another shape; None for Claude Code.
    pub host: Option<&'static str>,
}

impl Plan {
    /// The hook's command line: this binary's path (quoted for the shell when it must be)
    /// and `hook`.
    pub fn command(&self) -> String {
        match self.host {
            Some(host) => format!("{} hook --host {host}", quote(&self.program)),
            None => format!("{} hook", quote(&self.program)),
        }
    }

    /// warden's own entry for one event's list.
    pub fn entry(&self, event: &Event) -> Json {
        let hook = Json::from(vec![
            ("type", Json::from("command")),
            ("command", Json::from(self.command().as_str())),
            ("timeout", Json::from(TIMEOUT)),
        ]);
        let hooks = ("hooks", Json::Array(vec![hook]));
        if event.matcher {
            Json::from(vec![("matcher", Json::from("*")), hooks])
        } else {
            Json::from(vec![hooks])
        }
    }
}

/// One thing setup changes in the file.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// warden's hook added to an event's list.
    HookAdded {
        /// The event.
        event: &'static str,
        /// The entry added.
        entry: Json,
    },
    /// An older warden hook's program replaced by this binary's path.
    HookUpdated {
        /// The event.
        event: &'static str,
        /// The command as it was.
        old: String,
        /// The command now.
        new: String,
    },
    /// A setting given a value (`old` is `None` where it was absent).
    Set {
        /// The setting's dotted key.
        key: String,
        /// Its value before.
        old: Option<Json>,
        /// Its value now.
        new: Json,
    },
    /// An entry added to a list.
    Listed {
        /// The list's dotted key.
        key: String,
        /// The entry added.
        entry: String,
    },
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::HookAdded { event, entry } => {
                let command = entry["hooks"][0]["command"].as_str().unwrap_or_default();
                match entry.get("matcher") {
                    Some(matcher) => {
                        write!(f, "hooks.{event}: add `{command}` (matcher {matcher})")
                    }
                    None => write!(f, "hooks.{event}: add `{command}`"),
                }
            }
            Change::HookUpdated { event, old, new } => {
                write!(f, "hooks.{event}: `{old}` becomes `{new}`")
            }
            Change::Set { key, old, new } => match old {
                Some(old) => write!(f, "{key}: {old} becomes {new}"),
                None => write!(f, "{key}: set to {new}"),
            },
            Change::Listed { key, entry } => write!(f, "{key}: add {}", Json::from(&**entry)),
        }
    }
}

/// One thing a file must hold for warden, and what setup changes to make it so (nothing
/// when the file already holds it).
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// What the file must hold, in words (`hooks.PreToolUse runs warden hook …`).
    pub what: String,
    /// The changes that make it so; empty when it already does.
    pub changes: Vec<Change>,
}

/// A part of the file that isn't what Claude Code reads there: setup leaves it alone.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{key}` is {found}, where Claude Code expects {expected}: fix or remove it, then run setup again"
)]
pub struct ShapeError {
    /// The dotted key.
    pub key: String,
    /// What the file holds there (`a string`).
    pub found: &'static str,
    /// What Claude Code reads there (`an object`).
    pub expected: &'static str,
}

/// Merges warden's hooks and sandbox settings into a settings file's JSON: the person's
/// keys, hooks and list entries all stay, in their order; what setup adds goes after them.
/// Running it on its own result changes nothing.
pub fn merge(existing: Json, plan: &Plan) -> Result<(Json, Vec<Change>), ShapeError> {
    let (value, steps) = steps(existing, plan)?;
    Ok((value, steps.into_iter().flat_map(|s| s.changes).collect()))
}

/// [`merge`], with every requirement the file must meet and what it took (for `--check`).
pub fn steps(existing: Json, plan: &Plan) -> Result<(Json, Vec<Step>), ShapeError> {
    let mut root = match existing {
        Json::Object(root) => root,
        other => {
            return Err(ShapeError {
                key: "the file".into(),
                found: other.kind(),
                expected: "an object",
            });
        }
    };
    let mut steps = Vec::new();
    let hooks = object(&mut root, "hooks", "hooks")?;
    for event in EVENTS {
        steps.push(hook(hooks, event, plan)?);
    }
    let sandbox = object(&mut root, "sandbox", "sandbox")?;
    steps.push(set(sandbox, "sandbox", "enabled", true));
    // Without it, a command the sandbox stopped may be retried with
    // `dangerouslyDisableSandbox`, which goes to the permission dialog, and warden's own
    // PermissionRequest hook answers that dialog.
    steps.push(set(sandbox, "sandbox", "allowUnsandboxedCommands", false));
    if plan.strict {
        steps.push(set(sandbox, "sandbox", "failIfUnavailable", true));
    }
    let filesystem = object(sandbox, "filesystem", "sandbox.filesystem")?;
    for key in ["denyRead", "denyWrite"] {
        let path = format!("sandbox.filesystem.{key}");
        for hidden in &plan.hidden {
            steps.push(listed(filesystem, &path, key, hidden, |a, b| {
                same_path(a, b, &plan.home)
            })?);
        }
    }
    // `disabled: true` drops every denyRead of the sandboxed commands.
    steps.push(not_true(filesystem, "sandbox.filesystem", "disabled"));
    let network = object(sandbox, "network", "sandbox.network")?;
    for denied in &plan.denied {
        steps.push(listed(
            network,
            "sandbox.network.deniedDomains",
            "deniedDomains",
            denied,
            |a, b| a.eq_ignore_ascii_case(b),
        )?);
    }
    // macOS: `allowLocalBinding: true` lets sandboxed commands reach every localhost port,
    // warden's among them, past the proxy. 2.1.328 reads an absent key as false; it is
    // written all the same, since older descriptions of the sandbox give true.
    steps.push(set(network, "sandbox.network", "allowLocalBinding", false));
    Ok((Json::Object(root), steps))
}

/// The person's settings that undo part of what setup writes and that setup leaves as
/// they are: each with whether it stops warden's protection (`--check` fails on those).
pub fn notes(settings: &Json) -> Vec<(bool, String)> {
    let mut notes = Vec::new();
    let at = |path: &[&str]| path.iter().try_fold(settings, |value, key| value.get(key));
    if at(&["disableAllHooks"]) == Some(&Json::Bool(true)) {
        notes.push((
            true,
            "disableAllHooks is true: Claude Code runs no hooks, so warden sees no step".into(),
        ));
    }
    if at(&["sandbox", "allowNestedUserNamespaces"]) == Some(&Json::Bool(true)) {
        notes.push((
            true,
            "sandbox.allowNestedUserNamespaces is true: Claude Code's own description says a \
             sandboxed command can then step around denyRead and denyWrite"
                .into(),
        ));
    }
    if let Some(Json::Array(excluded)) = at(&["sandbox", "excludedCommands"])
        && !excluded.is_empty()
    {
        let names: Vec<String> = excluded.iter().map(Json::to_string).collect();
        notes.push((
            false,
            format!(
                "sandbox.excludedCommands run outside the sandbox, where warden's data folder and port are reachable: {}",
                names.join(", ")
            ),
        ));
    }
    notes
}

/// warden's hook in one event's list: an older warden entry's program replaced, and
/// warden's entry added when no entry for every value of the matcher runs it.
pub fn hook(hooks: &mut Object, event: &Event, plan: &Plan) -> Result<Step, ShapeError> {
    let key = format!("hooks.{}", event.name);
    let groups = hooks.or_insert_with(event.name, || Json::Array(Vec::new()));
    let Json::Array(groups) = groups else {
        return Err(ShapeError {
            key,
            found: groups.kind(),
            expected: "a list of matchers and their hooks",
        });
    };
    let mut changes = Vec::new();
    let mut covered = false;
    for group in groups.iter_mut() {
        let Json::Object(group) = group else {
            continue;
        };
        let every = !event.matcher || matches_everything(group.get("matcher"));
        let Some(Json::Array(list)) = group.get_mut("hooks") else {
            continue;
        };
        for entry in list.iter_mut() {
            let Json::Object(entry) = entry else {
                continue;
            };
            if entry.get("type").and_then(Json::as_str) != Some("command") {
                continue;
            }
            let Some(Json::String(command)) = entry.get_mut("command") else {
                continue;
            };
            let Some(program) = warden_program(command) else {
                continue;
            };
            // A host's hook must say so (`--host codex`): its answers take that host's shape.
            let host = plan
                .host
                .filter(|host| !command.contains(&format!("--host {host}")))
                .map(|host| format!(" --host {host}"))
                .unwrap_or_default();
            if program.text != plan.program || !host.is_empty() {
                let new = format!(
                    "{}{}{}{host}",
                    &command[..program.start],
                    quote(&plan.program),
                    &command[program.end..]
                );
                changes.push(Change::HookUpdated {
                    event: event.name,
                    old: command.clone(),
                    new: new.clone(),
                });
                *command = new;
            }
            covered |= every;
        }
    }
    if !covered {
        let entry = plan.entry(event);
        groups.push(entry.clone());
        changes.push(Change::HookAdded {
            event: event.name,
            entry,
        });
    }
    let matcher = if event.matcher {
        " (matcher \"*\")"
    } else {
        ""
    };
    Ok(Step {
        what: format!("{key} runs `{}`{matcher}", plan.command()),
        changes,
    })
}

/// A matcher that every value passes: none, empty, `*` (Claude Code's "all"), `.*`.
fn matches_everything(matcher: Option<&Json>) -> bool {
    match matcher {
        None | Some(Json::Null) => true,
        Some(Json::String(m)) => matches!(m.trim(), "" | "*" | ".*"),
        Some(_) => false,
    }
}

/// `map[key]` as an object, made empty when absent.
fn object<'a>(map: &'a mut Object, key: &str, path: &str) -> Result<&'a mut Object, ShapeError> {
    let value = map.or_insert_with(key, || Json::Object(Object::new()));
    let found = value.kind();
    value.as_object_mut().ok_or_else(|| ShapeError {
        key: path.into(),
        found,
        expected: "an object",
    })
}

/// `map[key] = value`.
fn set(map: &mut Object, path: &str, key: &str, value: bool) -> Step {
    let key_path = format!("{path}.{key}");
    let what = format!("{key_path} is {value}");
    let new = Json::Bool(value);
    let old = map.get(key).cloned();
    if old.as_ref() == Some(&new) {
        return Step {
            what,
            changes: Vec::new(),
        };
    }
    map.insert(key, new.clone());
    Step {
        what,
        changes: vec![Change::Set {
            key: key_path,
            old,
            new,
        }],
    }
}

/// `map[key]` made `false` where it is `true`; absent stays absent (false is the default).
fn not_true(map: &mut Object, path: &str, key: &str) -> Step {
    let key_path = format!("{path}.{key}");
    let what = format!("{key_path} is not true");
    if map.get(key) != Some(&Json::Bool(true)) {
        return Step {
            what,
            changes: Vec::new(),
        };
    }
    map.insert(key, Json::Bool(false));
    Step {
        what,
        changes: vec![Change::Set {
            key: key_path,
            old: Some(Json::Bool(true)),
            new: Json::Bool(false),
        }],
    }
}

/// `entry` in the list `map[key]`, appended when no entry is the same (by `same`).
fn listed(
    map: &mut Object,
    path: &str,
    key: &str,
    entry: &str,
    same: impl Fn(&str, &str) -> bool,
) -> Result<Step, ShapeError> {
    let what = format!("{path} lists {}", Json::from(entry));
    let list = map.or_insert_with(key, || Json::Array(Vec::new()));
    let found = list.kind();
    let Json::Array(list) = list else {
        return Err(ShapeError {
            key: path.into(),
            found,
            expected: "a list of strings",
        });
    };
    if list
        .iter()
        .filter_map(Json::as_str)
        .any(|have| same(have, entry))
    {
        return Ok(Step {
            what,
            changes: Vec::new(),
        });
    }
    list.push(Json::from(entry));
    Ok(Step {
        what,
        changes: vec![Change::Listed {
            key: path.into(),
            entry: entry.into(),
        }],
    })
}

/// Two sandbox paths naming the same place: `~/` read as the home folder (as Claude Code
/// reads it), `//` as the root, a trailing `/` or `/**` ignored.
fn same_path(a: &str, b: &str, home: &str) -> bool {
    let norm = |p: &str| {
        let p = p.trim();
        let p = match p.strip_prefix("~/") {
            Some(rest) => format!("{}/{rest}", home.trim_end_matches('/')),
            None if p == "~" => home.to_string(),
            None => p
                .strip_prefix('/')
                .filter(|r| r.starts_with('/'))
                .unwrap_or(p)
                .to_string(),
        };
        let p = p.strip_suffix("/**").unwrap_or(&p);
        p.trim_end_matches('/').to_string()
    };
    norm(a) == norm(b)
}

/// A word of a command line: where it is in the text, and what it says once unquoted.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Word {
    start: usize,
    end: usize,
    text: String,
}

/// The program word of a command line that runs warden's hook (`warden hook`,
/// `/old/path/warden hook`, `WARDEN_NO_AUTOSTART=1 warden hook`, `env … warden hook`), if
/// it runs one.
/// Whether a hook's command line runs warden's hook.
pub fn runs_warden(command: &str) -> bool {
    warden_program(command).is_some()
}

fn warden_program(command: &str) -> Option<Word> {
    let words = words(command);
    let mut rest = words.iter();
    let mut program = rest.next()?;
    loop {
        if is_assignment(&program.text) {
            program = rest.next()?;
        } else if program.text == "env" || program.text.ends_with("/env") {
            program = rest.next()?;
            while program.text.starts_with('-') {
                program = rest.next()?;
            }
        } else {
            break;
        }
    }
    let name = program.text.rsplit(['/', '\\']).next().unwrap_or_default();
    let is_warden = name == "warden" || name.eq_ignore_ascii_case("warden.exe");
    (is_warden && rest.next().is_some_and(|w| w.text == "hook")).then(|| program.clone())
}

/// `NAME=value`, as the shell reads a leading assignment.
fn is_assignment(word: &str) -> bool {
    let Some((name, _)) = word.split_once('=') else {
        return false;
    };
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The words of a simple command line, split at blanks outside quotes, quotes and
/// backslashes taken off. It stops at the first `;`, `&`, `|`, `(` or `)` outside quotes: a
/// hook's command is one program.
fn words(line: &str) -> Vec<Word> {
    let mut words = Vec::new();
    let mut chars = line.char_indices().peekable();
    let mut current: Option<(usize, String)> = None;
    let mut end = 0;
    while let Some((i, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some((start, text)) = current.take() {
                    words.push(Word { start, end, text });
                }
                continue;
            }
            ';' | '&' | '|' | '(' | ')' => break,
            '\'' => {
                let (_, text) = current.get_or_insert_with(|| (i, String::new()));
                for (_, c) in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    text.push(c);
                }
            }
            '"' => {
                let (_, text) = current.get_or_insert_with(|| (i, String::new()));
                while let Some((_, c)) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => {
                            if let Some(&(_, next)) = chars.peek()
                                && matches!(next, '"' | '\\' | '$' | '`')
                            {
                                text.push(next);
                                chars.next();
                            } else {
                                text.push('\\');
                            }
                        }
                        c => text.push(c),
                    }
                }
            }
            '\\' => {
                let (_, text) = current.get_or_insert_with(|| (i, String::new()));
                if let Some((_, next)) = chars.next() {
                    text.push(next);
                }
            }
            c => current.get_or_insert_with(|| (i, String::new())).1.push(c),
        }
        end = chars.peek().map_or(line.len(), |&(j, _)| j);
    }
    if let Some((start, text)) = current {
        words.push(Word { start, end, text });
    }
    words
}

/// A path as one shell word: as it is when it holds only safe characters, else in single
/// quotes.
pub fn quote(path: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._+-:@%,=".contains(c);
    if !path.is_empty() && path.chars().all(safe) {
        path.to_string()
    } else {
        format!("'{}'", path.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// serde_json's `json!`, as a [`Json`] (its objects sorted by key: where the order
    /// matters, the tests read text).
    macro_rules! json {
        ($($json:tt)+) => {
            Json::from(serde_json::json!($($json)+))
        };
    }

    fn plan() -> Plan {
        Plan {
            program: "/opt/warden/bin/warden".into(),
            hidden: vec![
                "/home/u/.local/share/warden".into(),
                "/home/u/.config/warden".into(),
            ],
            denied: vec!["localhost:7411".into(), "127.0.0.1:7411".into()],
            strict: false,
            host: None,
            home: "/home/u".into(),
        }
    }

    fn merged(existing: Json) -> (Json, Vec<Change>) {
        merge(existing, &plan()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn commands(settings: &Json, event: &str) -> Vec<String> {
        settings["hooks"][event]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|group| group["hooks"].as_array().into_iter().flatten())
            .filter_map(|hook| hook["command"].as_str().map(String::from))
            .collect()
    }

    #[test]
    fn an_empty_file_gets_every_event_and_the_sandbox() {
        let (settings, changes) = merged(json!({}));
        for event in EVENTS {
            assert_eq!(
                commands(&settings, event.name),
                ["/opt/warden/bin/warden hook"],
                "{}",
                event.name
            );
            let group = &settings["hooks"][event.name][0];
            assert_eq!(
                group.get("matcher").is_some(),
                event.matcher,
                "{}",
                event.name
            );
            assert_eq!(group["hooks"][0]["timeout"], json!(10));
            assert_eq!(group["hooks"][0]["type"], json!("command"));
        }
        assert_eq!(settings["hooks"]["PreToolUse"][0]["matcher"], json!("*"));
        let sandbox = &settings["sandbox"];
        assert_eq!(sandbox["enabled"], json!(true));
        assert_eq!(sandbox["allowUnsandboxedCommands"], json!(false));
        assert_eq!(sandbox.get("failIfUnavailable"), None, "only with --strict");
        for key in ["denyRead", "denyWrite"] {
            assert_eq!(
                sandbox["filesystem"][key],
                json!(["/home/u/.local/share/warden", "/home/u/.config/warden"])
            );
        }
        assert_eq!(
            sandbox["network"]["deniedDomains"],
            json!(["localhost:7411", "127.0.0.1:7411"])
        );
        assert_eq!(sandbox["network"]["allowLocalBinding"], json!(false));
        // 8 hooks, enabled, allowUnsandboxedCommands, 2 + 2 paths, 2 domains,
        // allowLocalBinding.
        assert_eq!(changes.len(), 8 + 2 + 4 + 2 + 1, "{changes:#?}");
    }

    #[test]
    fn merging_twice_changes_nothing_the_second_time() {
        for existing in [
            json!({}),
            json!({"model": "opus", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "warden hook"}]}]}}),
            json!({"sandbox": {"enabled": false, "filesystem": {"disabled": true}, "network": {"allowLocalBinding": true}}}),
        ] {
            let (once, first) = merged(existing.clone());
            assert!(!first.is_empty(), "{existing}");
            let (twice, second) = merged(once.clone());
            assert_eq!(second, Vec::new(), "{existing}");
            assert_eq!(once, twice, "{existing}");
            let mut strict = plan();
            strict.strict = true;
            let (strict_once, _) = merge(once, &strict).unwrap_or_else(|e| panic!("{e}"));
            let (_, strict_second) = merge(strict_once, &strict).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(strict_second, Vec::new(), "{existing}");
        }
    }

    #[test]
    fn the_person_s_keys_and_hooks_survive_in_their_order() {
        let existing = Json::parse(
            r#"{
            "model": "opus",
            "permissions": {"deny": ["Read(./.env)"], "allow": ["Bash(cargo test:*)"]},
            "hooks": {
                "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint-bash", "timeout": 5}]}],
                "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
            },
            "sandbox": {
                "excludedCommands": ["docker *"],
                "filesystem": {"denyRead": ["~/.aws"], "allowWrite": ["/tmp/build"]},
                "network": {"allowedDomains": ["github.com"]}
            },
            "env": {"FOO": "1"}
        }"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let (settings, _) = merged(existing.clone());
        let keys: Vec<&str> = settings
            .as_object()
            .into_iter()
            .flat_map(Object::keys)
            .collect();
        assert_eq!(keys, ["model", "permissions", "hooks", "sandbox", "env"]);
        let permissions: Vec<&str> = settings["permissions"]
            .as_object()
            .into_iter()
            .flat_map(Object::keys)
            .collect();
        assert_eq!(permissions, ["deny", "allow"]);
        assert_eq!(settings["permissions"], existing["permissions"]);
        assert_eq!(settings["env"], existing["env"]);
        assert_eq!(settings["hooks"]["Stop"], existing["hooks"]["Stop"]);
        assert_eq!(
            commands(&settings, "PreToolUse"),
            ["lint-bash", "/opt/warden/bin/warden hook"]
        );
        assert_eq!(
            settings["hooks"]["PreToolUse"][0],
            existing["hooks"]["PreToolUse"][0]
        );
        let sandbox = &settings["sandbox"];
        assert_eq!(sandbox["excludedCommands"], json!(["docker *"]));
        assert_eq!(
            sandbox["filesystem"]["denyRead"],
            json!([
                "~/.aws",
                "/home/u/.local/share/warden",
                "/home/u/.config/warden"
            ])
        );
        assert_eq!(sandbox["filesystem"]["allowWrite"], json!(["/tmp/build"]));
        assert_eq!(sandbox["network"]["allowedDomains"], json!(["github.com"]));
        let sandbox_keys: Vec<&str> = sandbox
            .as_object()
            .into_iter()
            .flat_map(Object::keys)
            .collect();
        assert_eq!(
            sandbox_keys,
            [
                "excludedCommands",
                "filesystem",
                "network",
                "enabled",
                "allowUnsandboxedCommands"
            ]
        );
    }

    #[test]
    fn an_old_warden_path_is_replaced_and_its_words_kept() {
        let existing = json!({"hooks": {
            "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/usr/local/bin/warden hook", "timeout": 30}]}],
            "PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "WARDEN_NO_AUTOSTART=1 '/old place/warden' hook"}]}],
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "warden hook"}]}],
            "SessionStart": [{"matcher": "*", "hooks": [{"type": "command", "command": "/opt/warden/bin/warden hook"}]}]
        }});
        let (settings, changes) = merged(existing);
        assert_eq!(
            commands(&settings, "PreToolUse"),
            ["/opt/warden/bin/warden hook"]
        );
        assert_eq!(
            settings["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"],
            json!(30)
        );
        assert_eq!(
            commands(&settings, "PostToolUse"),
            ["WARDEN_NO_AUTOSTART=1 /opt/warden/bin/warden hook"]
        );
        assert_eq!(
            commands(&settings, "UserPromptSubmit"),
            ["/opt/warden/bin/warden hook"]
        );
        assert_eq!(
            commands(&settings, "SessionStart"),
            ["/opt/warden/bin/warden hook"]
        );
        let updated: Vec<&str> = changes
            .iter()
            .filter_map(|c| match c {
                Change::HookUpdated { event, .. } => Some(*event),
                _ => None,
            })
            .collect();
        assert_eq!(updated, ["UserPromptSubmit", "PreToolUse", "PostToolUse"]);
        assert!(!changes.iter().any(|c| matches!(
            c,
            Change::HookAdded {
                event: "PreToolUse" | "PostToolUse" | "UserPromptSubmit" | "SessionStart",
                ..
            }
        )));
    }

    #[test]
    fn a_warden_hook_for_one_tool_gets_one_for_every_tool_beside_it() {
        let existing = json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "/opt/warden/bin/warden hook"}]}
        ]}});
        let (settings, changes) = merged(existing);
        assert_eq!(settings["hooks"]["PreToolUse"][1]["matcher"], json!("*"));
        assert!(changes.contains(&Change::HookAdded {
            event: "PreToolUse",
            entry: plan().entry(&EVENTS[2]),
        }));
        // For an event without a matcher, any entry covers it.
        let existing = json!({"hooks": {"UserPromptSubmit": [
            {"matcher": "ignored", "hooks": [{"type": "command", "command": "/opt/warden/bin/warden hook"}]}
        ]}});
        let (settings, _) = merged(existing);
        assert_eq!(commands(&settings, "UserPromptSubmit").len(), 1);
    }

    #[test]
    fn the_person_s_paths_are_read_as_claude_code_reads_them() {
        let existing = json!({"sandbox": {"filesystem": {
            "denyRead": ["~/.local/share/warden/", "//home/u/.config/warden/**"],
            "denyWrite": ["/home/u/.local/share/warden"]
        }, "network": {"deniedDomains": ["LOCALHOST:7411"]}}});
        let (settings, changes) = merged(existing);
        let fs = &settings["sandbox"]["filesystem"];
        assert_eq!(fs["denyRead"].as_array().map(Vec::len), Some(2));
        assert_eq!(
            fs["denyWrite"],
            json!(["/home/u/.local/share/warden", "/home/u/.config/warden"])
        );
        assert_eq!(
            settings["sandbox"]["network"]["deniedDomains"],
            json!(["LOCALHOST:7411", "127.0.0.1:7411"])
        );
        assert!(changes.contains(&Change::Listed {
            key: "sandbox.filesystem.denyWrite".into(),
            entry: "/home/u/.config/warden".into()
        }));
    }

    #[test]
    fn weaker_sandbox_values_are_turned_and_strict_is_only_asked_for() {
        let existing = json!({"sandbox": {
            "enabled": false, "allowUnsandboxedCommands": true, "failIfUnavailable": false,
            "filesystem": {"disabled": true}, "network": {"allowLocalBinding": true}
        }});
        let (settings, changes) = merged(existing.clone());
        let sandbox = &settings["sandbox"];
        assert_eq!(sandbox["enabled"], json!(true));
        assert_eq!(sandbox["allowUnsandboxedCommands"], json!(false));
        assert_eq!(
            sandbox["failIfUnavailable"],
            json!(false),
            "not --strict: theirs"
        );
        assert_eq!(sandbox["filesystem"]["disabled"], json!(false));
        assert_eq!(sandbox["network"]["allowLocalBinding"], json!(false));
        assert!(changes.contains(&Change::Set {
            key: "sandbox.enabled".into(),
            old: Some(json!(false)),
            new: json!(true)
        }));
        let mut strict = plan();
        strict.strict = true;
        let (settings, _) = merge(existing, &strict).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(settings["sandbox"]["failIfUnavailable"], json!(true));
    }

    #[test]
    fn a_part_of_the_wrong_kind_is_refused_by_its_key() {
        for (existing, key) in [
            (json!([]), "the file"),
            (json!({"hooks": []}), "hooks"),
            (json!({"hooks": {"PreToolUse": {}}}), "hooks.PreToolUse"),
            (json!({"sandbox": true}), "sandbox"),
            (
                json!({"sandbox": {"filesystem": "no"}}),
                "sandbox.filesystem",
            ),
            (
                json!({"sandbox": {"filesystem": {"denyRead": "/x"}}}),
                "sandbox.filesystem.denyRead",
            ),
            (
                json!({"sandbox": {"network": {"deniedDomains": 1}}}),
                "sandbox.network.deniedDomains",
            ),
        ] {
            let error = merge(existing.clone(), &plan()).err();
            assert_eq!(error.map(|e| e.key), Some(key.to_string()), "{existing}");
        }
    }

    #[test]
    fn odd_entries_in_a_hook_list_are_left_alone() {
        let existing = json!({"hooks": {"PreToolUse": [
            "a string", {"matcher": "*"}, {"matcher": "*", "hooks": [1, {"type": "prompt", "prompt": "warden hook"}]}
        ]}});
        let (settings, _) = merged(existing.clone());
        let list = settings["hooks"]["PreToolUse"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(list.len(), 4);
        assert_eq!(
            list[..3],
            existing["hooks"]["PreToolUse"]
                .as_array()
                .cloned()
                .unwrap_or_default()[..]
        );
    }

    #[test]
    fn warden_s_hook_is_found_in_the_command_lines_people_write() {
        for (command, program) in [
            ("warden hook", Some("warden")),
            ("/usr/local/bin/warden hook", Some("/usr/local/bin/warden")),
            ("  warden   hook  ", Some("warden")),
            ("WARDEN_NO_AUTOSTART=1 warden hook", Some("warden")),
            (
                "env -i WARDEN_URL=http://127.0.0.1:7411 ~/bin/warden hook",
                Some("~/bin/warden"),
            ),
            ("'/my tools/warden' hook", Some("/my tools/warden")),
            ("\"/my tools/warden\" hook", Some("/my tools/warden")),
            ("/my\\ tools/warden hook", Some("/my tools/warden")),
            ("C:\\tools\\warden.exe hook", None),
            ("warden serve", None),
            ("warden", None),
            ("echo warden hook", None),
            ("wardenx hook", None),
            ("true; warden hook", None),
        ] {
            let found = warden_program(command);
            assert_eq!(
                found.as_ref().map(|w| w.text.as_str()),
                program,
                "{command}"
            );
            if let Some(word) = found {
                // The span is the program word as written: read again, it says the same.
                let spelled = &command[word.start..word.end];
                assert_eq!(
                    words(spelled).first().map(|w| &w.text),
                    Some(&word.text),
                    "{command}"
                );
            }
        }
    }

    #[test]
    fn a_path_is_quoted_only_when_the_shell_needs_it() {
        for (path, quoted) in [
            ("/usr/local/bin/warden", "/usr/local/bin/warden"),
            ("/home/u/.cargo/bin/warden", "/home/u/.cargo/bin/warden"),
            ("/my tools/warden", "'/my tools/warden'"),
            ("/it's/warden", r"'/it'\''s/warden'"),
            ("/a$b/warden", "'/a$b/warden'"),
        ] {
            assert_eq!(quote(path), quoted);
            let command = format!("{} hook", quote(path));
            assert_eq!(
                warden_program(&command).map(|w| w.text),
                Some(path.to_string()),
                "{command}"
            );
        }
    }

    #[test]
    fn the_notes_name_what_undoes_the_sandbox() {
        let settings = json!({"disableAllHooks": true, "sandbox": {
            "allowNestedUserNamespaces": true, "excludedCommands": ["docker *"]
        }});
        let notes = notes(&settings);
        let blocking: Vec<bool> = notes.iter().map(|(b, _)| *b).collect();
        assert_eq!(blocking, [true, true, false], "{notes:?}");
        assert!(notes[2].1.contains("\"docker *\""), "{notes:?}");
        assert_eq!(
            super::notes(&json!({"sandbox": {"excludedCommands": []}})),
            Vec::new()
        );
    }
}
