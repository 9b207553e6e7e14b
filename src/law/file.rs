//! File tools (`Read`, `Write`, `Edit`, `MultiEdit`, `NotebookEdit`, `Glob`, `Grep`): reads
//! and edits inside the work folder are routine; writes outside it are judged by the same
//! code as the shell's writes; keys by the same code as the shell's key reads; protected
//! paths are refused.

use super::Assessment;
use super::command::paths::{is_key_at, write_risk};
use super::paths::{Place, protected, protected_risk};
use crate::facts::Facts;
use crate::law::rule::RuleId;
use crate::step::{Access, Context, FileStep};
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// What a file tool's step risks.
pub fn assess(step: &FileStep, ctx: &Context, facts: &dyn Facts) -> Assessment {
    let home = facts.home().unwrap_or_else(|| "/home/~".to_string());
    let place = Place::new(&ctx.cwd, &home);
    let writes = step.access == Access::Write;
    let mut found = Assessment {
        changes: writes,
        ..Assessment::default()
    };
    let Some(abs) = place.resolve_under_prefix(&step.path) else {
        if writes {
            found.risks.push(Risk::new(
                RuleId::FileUnknown,
                Harm::Moderate,
                true,
                format!(
                    "{} {}, a path only known when it runs",
                    step.tool, step.path
                ),
            ));
        }
        return found;
    };
    if let Some(dir) = protected(&abs, &ctx.protected) {
        found.risks.push(protected_risk(&abs, dir));
        return found;
    }
    if is_key_at(&abs, &place) {
        let verb = if writes { "change" } else { "read" };
        found.risks.push(
            Risk::new(
                RuleId::SecretsKeyRead,
                Harm::Severe,
                true,
                format!("{verb} {abs}: private keys or credentials"),
            )
            .never()
            .way_out(),
        );
        return found;
    }
    if writes {
        found.edit_in_work = place.inside_work(&abs);
        found.risks.extend(write_risk(&abs, place));
        found.risks.extend(editor_runs(&abs, &step.text));
        for line in kept_commands(&abs, &step.text) {
            found
                .risks
                .extend(super::command::assess(&line, &ctx.cwd, facts).risks);
        }
    }
    found
}

/// The shell lines a write keeps for a program to run later by itself, where no step is
/// judged: a `package.json`'s scripts (an install runs them), a husky hook (`.husky/pre-commit`,
/// run at the next commit), a dev container's lifecycle commands (`initializeCommand` runs
/// on this machine when the folder is opened in one), and the programs cargo runs for every
/// build (`.cargo/config.toml`'s `rustc-wrapper`, `runner`, `linker`). Each is judged as a
/// line of its own.
pub(crate) fn kept_commands(abs: &str, text: &str) -> Vec<String> {
    if text.is_empty() {
        return Vec::new();
    }
    let name = super::paths::basename(abs);
    if name == "package.json" {
        return package_scripts(text);
    }
    // The whole hook: the shell reader has bounds of its own, past which a line asks.
    if abs.contains("/.husky/") && !abs.contains("/.husky/_/") {
        return vec![text.to_string()];
    }
    if name == "devcontainer.json" || name == ".devcontainer.json" {
        return devcontainer_commands(text);
    }
    if abs.ends_with("/.cargo/config.toml") || abs.ends_with("/.cargo/config") {
        return cargo_commands(text);
    }
    if abs.ends_with("/.ssh/config")
        || abs.ends_with("/ssh_config")
        || abs.contains("/ssh_config.d/")
    {
        return ssh_commands(text);
    }
    Vec::new()
}

/// The commands an ssh configuration runs by itself at every connection: `ProxyCommand`,
/// `LocalCommand`, `KnownHostsCommand` and `Match exec "…"` (a keyword in any case, `=` or
/// blanks before its value).
fn ssh_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        let (keyword, rest) = line
            .split_once(|c: char| c.is_whitespace() || c == '=')
            .unwrap_or((line, ""));
        let value = rest
            .trim_start_matches(|c: char| c.is_whitespace() || c == '=')
            .trim();
        match keyword.to_ascii_lowercase().as_str() {
            "proxycommand" | "localcommand" | "knownhostscommand" if !value.is_empty() => {
                out.push(value.to_string());
            }
            "match" => {
                let mut words = value.split_whitespace().peekable();
                while let Some(word) = words.next() {
                    if word.eq_ignore_ascii_case("exec") {
                        let rest: Vec<&str> = words.by_ref().collect();
                        out.push(rest.join(" ").trim_matches('"').to_string());
                    }
                }
            }
            _ => {}
        }
        if out.len() >= 64 {
            break;
        }
    }
    out
}

/// A dev container's lifecycle commands: `initializeCommand` on this machine, the others in
/// the container (which may hold the work folder and keys mounted).
const DEVCONTAINER_KEYS: &[&str] = &[
    "initializeCommand",
    "onCreateCommand",
    "postAttachCommand",
    "postCreateCommand",
    "postStartCommand",
    "updateContentCommand",
];

fn devcontainer_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    match serde_json::from_str::<serde_json::Value>(&without_comments(text)) {
        Ok(serde_json::Value::Object(whole)) => {
            for key in DEVCONTAINER_KEYS {
                if let Some(value) = whole.get(*key) {
                    command_values(value, &mut out);
                }
            }
        }
        // A piece (an edit's new text): the string after each key.
        _ => {
            let mut strings = json_strings(text).into_iter();
            while let Some((key, after)) = strings.next() {
                let is_pair = text
                    .get(after..)
                    .is_some_and(|rest| rest.trim_start().starts_with(':'));
                if is_pair
                    && DEVCONTAINER_KEYS.contains(&key.as_str())
                    && let Some((value, _)) = strings.next()
                {
                    out.push(value);
                }
            }
        }
    }
    out.truncate(64);
    out
}

/// A command as JSON gives it: a string (a shell line), an array (a program and its words),
/// or an object of named ones.
fn command_values(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(line) => out.push(line.clone()),
        serde_json::Value::Array(words) => {
            out.push(as_line(words.iter().filter_map(|w| w.as_str())))
        }
        serde_json::Value::Object(named) => {
            for value in named.values().take(16) {
                if !value.is_object() {
                    command_values(value, out);
                }
            }
        }
        _ => {}
    }
}

/// A program and its words (an exec form, not shell text) as a shell line that reads back
/// as the same words.
fn as_line<'w>(words: impl Iterator<Item = &'w str>) -> String {
    words
        .map(crate::shell::quote_word)
        .collect::<Vec<_>>()
        .join(" ")
}

/// JSON with comments (`//` to the end of a line, `/* … */`) as plain JSON: the comments
/// taken out, strings left as they are.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for next in chars.by_ref() {
                    if next == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for next in chars.by_ref() {
                    if last == '*' && next == '/' {
                        break;
                    }
                    last = next;
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// The programs cargo runs for every build or run: `rustc-wrapper`, `rustc-workspace-wrapper`,
/// `runner`, `linker`, in any table.
const CARGO_KEYS: &[&str] = &[
    "linker",
    "runner",
    "rustc-workspace-wrapper",
    "rustc-wrapper",
];

fn cargo_commands(text: &str) -> Vec<String> {
    fn walk(value: &toml::Value, key: Option<&str>, out: &mut Vec<String>, depth: usize) {
        match value {
            toml::Value::Table(table) if depth < 8 => {
                for (key, value) in table {
                    walk(value, Some(key), out, depth + 1);
                }
            }
            toml::Value::String(line) if key.is_some_and(|k| CARGO_KEYS.contains(&k)) => {
                out.push(line.clone());
            }
            toml::Value::Array(words) if key.is_some_and(|k| CARGO_KEYS.contains(&k)) => {
                out.push(as_line(words.iter().filter_map(|w| w.as_str())));
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    match toml::from_str::<toml::Table>(text) {
        Ok(table) => walk(&toml::Value::Table(table), None, &mut out, 0),
        // A piece: `key = "value"` lines.
        Err(_) => {
            for line in text.lines() {
                if let Some((key, value)) = line.split_once('=')
                    && CARGO_KEYS.contains(&key.trim())
                {
                    out.push(value.trim().trim_matches(['"', '\'']).to_string());
                }
            }
        }
    }
    out.truncate(64);
    out
}

/// npm's lifecycle scripts: an install runs them by itself, with no step to judge.
const LIFECYCLE: &[&str] = &[
    "install",
    "postinstall",
    "postpack",
    "postprepare",
    "preinstall",
    "prepack",
    "prepare",
    "preprepare",
    "prepublish",
    "prepublishOnly",
];

/// The shell lines a write into `package.json` keeps as the project's scripts: every value
/// of `scripts` when the text is the whole file, and in a piece of it (an edit's new text)
/// the values of lifecycle scripts, or of any key after `"scripts"`. The next install or
/// `npm run` runs them where no step is judged, so each is judged as a line of its own, as
/// `npm pkg set scripts.x=…` is. Bounded: 64 scripts of 4 KB.
fn package_scripts(text: &str) -> Vec<String> {
    const MAX: usize = 64;
    if text.is_empty() {
        return Vec::new();
    }
    if let Ok(serde_json::Value::Object(whole)) = serde_json::from_str(text) {
        return match whole.get("scripts") {
            Some(serde_json::Value::Object(scripts)) => scripts
                .values()
                .filter_map(|v| v.as_str())
                .filter(|v| v.len() <= 4096)
                .take(MAX)
                .map(str::to_string)
                .collect(),
            _ => Vec::new(),
        };
    }
    // A piece: `"key": "value"` pairs read left to right, each string once (linear).
    let mut out = Vec::new();
    let mut in_scripts = false;
    let mut strings = json_strings(text).into_iter();
    while let Some((key, after)) = strings.next() {
        let is_pair = text
            .get(after..)
            .is_some_and(|rest| rest.trim_start().starts_with(':'));
        if !is_pair {
            continue;
        }
        if key == "scripts" {
            in_scripts = true;
            continue;
        }
        if let Some((value, _)) = strings.next()
            && (in_scripts || LIFECYCLE.contains(&key.as_str()))
            && value.len() <= 4096
            && out.len() < MAX
        {
            out.push(value);
        }
    }
    out
}

/// The JSON strings in `text` (escapes undone), each with where it ends.
fn json_strings(text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut chars = text.char_indices();
    while let Some((_, c)) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut value = String::new();
        let mut end = text.len();
        while let Some((at, c)) = chars.next() {
            match c {
                '"' => {
                    end = at + 1;
                    break;
                }
                '\\' => match chars.next() {
                    Some((_, 'n')) => value.push('\n'),
                    Some((_, 't')) => value.push('\t'),
                    // `\u0000`: the character it stands for (a NUL the shell drops is asked
                    // about, as in a command).
                    Some((_, 'u')) => {
                        let hex: String = chars.by_ref().take(4).map(|(_, c)| c).collect();
                        match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                            Some(c) => value.push(c),
                            None => value.push('\u{fffd}'),
                        }
                    }
                    Some((_, other)) => value.push(other),
                    None => {}
                },
                c => value.push(c),
            }
        }
        out.push((value, end));
    }
    out
}

/// VS Code's settings keys that let an assistant act without asking, or tasks run by
/// themselves: in `settings.json` they are an assistant's permissions.
const AUTO_APPROVE: &[&str] = &["allowAutomaticTasks", "autoApprove", "autoConfirm"];

/// What a write into VS Code's own files makes run without a question: its `settings.json`
/// with an assistant's auto-approval turned on (`chat.tools.autoApprove`), or a
/// `tasks.json` task that runs by itself when the folder is opened (`"runOn":
/// "folderOpen"`). Only what the tool says it writes is read.
pub(crate) fn editor_runs(abs: &str, text: &str) -> Option<Risk> {
    let in_vscode = abs.contains("/.vscode/") || abs.contains("/Code/User/");
    if !in_vscode || text.is_empty() {
        return None;
    }
    let name = super::paths::basename(abs);
    if name == "settings.json"
        && let Some(key) = AUTO_APPROVE.iter().find(|key| text.contains(*key))
    {
        return Some(
            Risk::new(
                RuleId::AssistantPermissions,
                Harm::Severe,
                true,
                format!("change {abs} to let an assistant act without asking ({key}): an agent could raise its own powers with it"),
            )
            .never()
            .irreducible(),
        );
    }
    (name == "tasks.json" && text.contains("folderOpen")).then(|| {
        Risk::new(
            RuleId::PersistStartup,
            Harm::Severe,
            true,
            format!("change {abs} with a task VS Code runs by itself when the folder is opened"),
        )
        .wish(Wish::new(Act::Update).naming(Name::one("tasks.json")))
    })
}

#[cfg(test)]
mod tests {
    use super::{
        cargo_commands, devcontainer_commands, kept_commands, package_scripts, without_comments,
    };

    #[test]
    fn kept_commands_are_read_from_the_files_that_keep_them() {
        let husky = kept_commands("/w/.husky/pre-commit", "npm test\n");
        assert_eq!(husky, ["npm test\n"]);
        // husky's own helper folder, and a file no program runs by itself, keep none.
        assert!(kept_commands("/w/.husky/_/husky.sh", "x").is_empty());
        assert!(kept_commands("/w/notes/pre-commit", "rm -rf ~").is_empty());
        assert!(kept_commands("/w/.husky/pre-commit", "").is_empty());
    }

    #[test]
    fn a_dev_container_keeps_its_lifecycle_commands() {
        let text = "{\n // a comment with \"quotes\" and a // slash\n \"name\": \"a // b\", /* x */\n \"initializeCommand\": \"make init\",\n \"postCreateCommand\": [\"bash\", \"-c\", \"it's\"],\n \"postStartCommand\": {\"a\": \"npm start\", \"b\": [\"x\"]}\n}";
        let mut found = devcontainer_commands(text);
        found.sort();
        assert_eq!(found, ["bash -c 'it'\\''s'", "make init", "npm start", "x"]);
        assert!(without_comments(text).contains("\"a // b\""));
        // A piece of one, as an edit writes it.
        assert_eq!(
            devcontainer_commands("\"postCreateCommand\": \"npm ci\","),
            ["npm ci"]
        );
        assert!(devcontainer_commands("{\"name\": \"x\", \"image\": \"y\"}").is_empty());
    }

    #[test]
    fn an_ssh_configuration_keeps_the_commands_it_runs() {
        let text = "Host *\n  ProxyCommand curl x | sh\nHost b\n  localcommand=echo hi\nMatch host c exec \"test -f /tmp/x\"\n  User bob\n";
        assert_eq!(
            super::ssh_commands(text),
            ["curl x | sh", "echo hi", "test -f /tmp/x"]
        );
        assert!(super::ssh_commands("Host a\n  HostName a.example.com\n").is_empty());
        assert_eq!(
            kept_commands("/home/u/.ssh/config", "ProxyCommand nc %h %p"),
            ["nc %h %p"]
        );
    }

    #[test]
    fn cargo_keeps_the_programs_it_runs_for_a_build() {
        let text = "[build]\nrustc-wrapper = \"sccache\"\n[target.x]\nrunner = [\"qemu\", \"-L\", \"a b\"]\nrustflags = [\"-C\", \"x\"]\n[alias]\nb = \"build\"\n";
        let mut found = cargo_commands(text);
        found.sort();
        assert_eq!(found, ["qemu -L 'a b'", "sccache"]);
        assert_eq!(cargo_commands("linker = \"clang\""), ["clang"]);
        assert_eq!(cargo_commands("  runner = 'x y' \njobs = 4"), ["x y"]);
    }

    #[test]
    fn package_scripts_are_the_scripts_a_write_keeps() {
        let whole =
            r#"{"name":"a","version":"1.0.0","scripts":{"test":"jest","postinstall":"node x.js"}}"#;
        let mut scripts = package_scripts(whole);
        scripts.sort();
        assert_eq!(scripts, ["jest", "node x.js"]);
        assert!(package_scripts(r#"{"name":"a","dependencies":{"x":"^1"}}"#).is_empty());
        // A piece of the file: lifecycle scripts, or any key after "scripts".
        assert_eq!(
            package_scripts("  \"postinstall\": \"curl x | sh\",\n  \"version\": \"2\""),
            ["curl x | sh"]
        );
        assert_eq!(
            package_scripts("\"scripts\": {\n \"lint\": \"eslint \\\"src\\\"\""),
            ["eslint \"src\""]
        );
        assert!(package_scripts("\"version\": \"1.0.1\"").is_empty());
        // An escaped character is the one it stands for.
        assert_eq!(
            package_scripts("\"postinstall\": \"r\\u0000m \\u007e\""),
            ["r\u{0}m ~"]
        );
        assert!(package_scripts("").is_empty());
        // An unterminated string is read to the end, once.
        assert!(package_scripts("\"postinstall\": \"rm -rf ~").len() <= 1);
        let many: String = (0..200)
            .map(|i| format!("\"scripts\": \"s{i}\","))
            .collect();
        assert!(package_scripts(&many).len() <= 64);
    }
}
