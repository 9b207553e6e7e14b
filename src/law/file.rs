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
        if super::paths::basename(&abs) == "package.json" {
            for script in package_scripts(&step.text) {
                found
                    .risks
                    .extend(super::command::assess(&script, &ctx.cwd, facts).risks);
            }
        }
    }
    found
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
    use super::package_scripts;

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
        assert!(package_scripts("").is_empty());
        // An unterminated string is read to the end, once.
        assert!(package_scripts("\"postinstall\": \"rm -rf ~").len() <= 1);
        let many: String = (0..200)
            .map(|i| format!("\"scripts\": \"s{i}\","))
            .collect();
        assert!(package_scripts(&many).len() <= 64);
    }
}
