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
    }
    found
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
