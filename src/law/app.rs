//! Apps and MCP tools: a step names its app, its tool, whether it looks something up or
//! changes something, and its arguments. The person's own app (ownedHere) looks by itself
//! and is judged by the rules; someone else's (a stranger's, or one connected over MCP)
//! asks after reading unless its lookup sends no more than a lookup, since no second look
//! is configured yet. The rules read the tool's name and its arguments in seven languages:
//! paying (PAYS), speaking for the person (SPEAKS), deleting, granting access (GRANTS),
//! running code (RUNS), and keys or tokens sent (carriesSecrets).

use crate::law::rule::RuleId;
use std::borrow::Cow;
pub mod names;
mod read;
#[cfg(test)]
mod tests;
pub mod words;

pub use read::{LOOKUP_TOTAL, LOOKUP_VALUE};

use self::names::Targets;
use self::read::{BLOB, Concept, Sent, ToolName};
use super::Assessment;
use crate::fold::fold;
use crate::intent::words::wish_words;
use crate::step::{Access, AppStep, Context, Origin, Setting};
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// A lookup of the person's own app that sends more than this many characters sends pages
/// of text (HEAVY_READ): it asks after reading.
pub const HEAVY_READ: usize = 600;

/// The chat as the app's step sees it: the person's own app isn't held back by its own
/// answers, so its own mark ("Yazio content") is left out (besides). Someone else's app
/// sees every mark: its answers could steer its own way out.
pub fn context(step: &AppStep, ctx: &Context) -> Context {
    match step.origin {
        Origin::Own => ctx.besides(&step.app),
        Origin::Stranger | Origin::Mcp => ctx.clone(),
    }
}

/// One rule read from the words of a change.
struct Rule {
    concept: Concept,
    rule: RuleId,
    harm: Harm,
    /// What the step does, as the reason says it.
    does: &'static str,
    /// The act a person's words ask for it with; none for money, which no words lift.
    /// Speaking asks with publishing or sharing when its word is one of theirs.
    act: Option<Act>,
    /// Changes it must fire on, by their tool names (checked by a test).
    #[cfg_attr(not(test), expect(dead_code, reason = "examples, read by the tests"))]
    fires: &'static [&'static str],
    /// Changes it must not fire on.
    #[cfg_attr(not(test), expect(dead_code, reason = "examples, read by the tests"))]
    spares: &'static [&'static str],
}

/// The rules for any app's change, strongest first: the first to fire speaks for the step
/// when their scores tie. All are lasting.
#[rustfmt::skip]
const RULES: [Rule; 5] = [
    Rule {
        concept: Concept::Pays, rule: RuleId::AppPays, harm: Harm::Severe, does: "pays or moves money", act: None,
        fires: &["pay_invoice", "place_order", "createCheckoutSession", "send_money", "rechnung_bezahlen", "passer_commande", "betaal_factuur"],
        spares: &["add_diary_entry", "update_cart_note", "sort_products", "log_meal"],
    },
    Rule {
        concept: Concept::Deletes, rule: RuleId::AppDeletes, harm: Harm::Severe, does: "deletes", act: Some(Act::Delete),
        fires: &["delete_entry", "remove_member", "purge_cache", "ec2_terminate_instances", "unpublish_package", "eintrag_loeschen", "supprimer_note", "elimina_voce"],
        spares: &["add_entry", "archive_note", "update_entry", "describe_instances"],
    },
    Rule {
        concept: Concept::Grants, rule: RuleId::AppGrants, harm: Harm::Moderate, does: "grants access", act: Some(Act::Access),
        fires: &["add_collaborator", "create_webhook", "set_role", "create_api_token", "berechtigung_setzen", "conceder_acceso"],
        spares: &["create_issue", "add_diary_entry", "set_goal"],
    },
    Rule {
        concept: Concept::Runs, rule: RuleId::AppRuns, harm: Harm::Moderate, does: "runs code it is given", act: Some(Act::Run),
        fires: &["execute_sql", "run_script", "eval", "skript_ausfuehren", "esegui_script"],
        spares: &["create_issue", "update_page", "save_recipe"],
    },
    Rule {
        concept: Concept::Speaks, rule: RuleId::AppSpeaks, harm: Harm::Moderate, does: "speaks for you or makes something public", act: Some(Act::Send),
        fires: &["send_email", "post_message", "publish_page", "share_document", "invite_user", "nachricht_senden", "envoyer_message", "stuur_bericht"],
        spares: &["create_note", "add_diary_entry", "update_task"],
    },
];

/// What an app's step risks.
pub fn assess(step: &AppStep, ctx: &Context) -> Assessment {
    let own = step.origin == Origin::Own;
    let at = format!("the tool {} in {}", step.tool, step.app);
    if step.setting == Some(Setting::Off) {
        let off = Risk::new(
            RuleId::AppOff,
            Harm::Severe,
            true,
            format!(
                "{at} is turned off; to use it, turn it back on in {}'s settings",
                step.app
            ),
        );
        return Assessment {
            risks: vec![off.refused()],
            changes: step.access != Some(Access::Read),
            network: !own,
            edit_in_work: false,
        };
    }
    let name = ToolName::read(&step.tool);
    let sent = Sent::read(&step.arguments);
    let changes = access(step, &name, &sent) == Access::Write;

    let mut risks = Vec::new();
    if step.setting == Some(Setting::Ask) {
        let ask = Risk::new(
            RuleId::AppSettingAsk,
            Harm::Severe,
            true,
            format!("you set {at} to ask every time"),
        );
        risks.push(ask.never().irreducible());
    }
    // With someone else's words in the chat or a skill's list driving it, the rules and
    // the person's own sites no longer speak for the step: only the person's own looks go.
    if (ctx.others || ctx.skill) && (changes || !own) {
        let what = if changes {
            "changes things"
        } else {
            "sends a lookup out"
        };
        let whose = if ctx.others {
            "someone else's words are in this chat"
        } else {
            "a skill's list drives this chat"
        };
        let others = Risk::new(
            RuleId::AppOthers,
            Harm::Severe,
            true,
            format!("{at} {what}, and {whose}"),
        );
        risks.push(others.way_out());
    }
    let targets = Targets::read(&step.arguments);
    if changes {
        risks.extend(
            RULES
                .iter()
                .filter_map(|rule| ruled(rule, step, &at, &name, &sent, &targets)),
        );
    }
    // What asks for the change as a whole: the first rule's wish that words may lift, or
    // the change's own act with every name it acts on.
    let wish = risks
        .iter()
        .find(|risk| {
            RULES
                .iter()
                .any(|rule| rule.rule == risk.rule && rule.act.is_some())
        })
        .and_then(|risk| risk.wish.clone())
        .or_else(|| change_wish(&targets, &step.arguments));
    risks.extend(secret(&at, &sent));
    risks.extend(keys_and_metadata(&at, &step.arguments, changes));
    if own && !changes && sent.total > HEAVY_READ {
        let heavy = Risk::new(
            RuleId::AppHeavyRead,
            Harm::Moderate,
            true,
            format!(
                "{at} is a lookup that sends {} characters, pages of text rather than a lookup",
                sent.total
            ),
        );
        risks.push(heavy.way_out());
    }
    if !own && ctx.has_read() && step.setting != Some(Setting::Allow) && !ctx.second_look {
        risks.extend(someone_elses(
            step,
            changes,
            &sent,
            wish.filter(|_| changes),
        ));
    }
    Assessment {
        risks,
        changes,
        // The person's own app reaches only the sites they added it with.
        network: !own,
        edit_in_work: false,
    }
}

/// What an app's step does as the rules read it, for the behaviour watch (`crate::watch`):
/// `None` for a lookup; for a change, the ids of the rules its name or arguments carry
/// (`app.pays`, `app.deletes`, `app.grants`, `app.runs`, `app.speaks`), in `RULES` order.
pub(crate) fn acts(step: &AppStep) -> Option<Vec<&'static str>> {
    let name = ToolName::read(&step.tool);
    let sent = Sent::read(&step.arguments);
    if access(step, &name, &sent) == Access::Read {
        return None;
    }
    let carries =
        |rule: &&Rule| name.first(rule.concept).is_some() || sent.first(rule.concept).is_some();
    Some(
        RULES
            .iter()
            .filter(carries)
            .map(|rule| rule.rule.name())
            .collect(),
    )
}

/// The words of a tool's name that say it runs a command line (`execute_command`,
/// `run_command`, a terminal's `Execute`, `shell`): not code in another language (`sql`,
/// `python`, `eval`).
const RUNS_A_LINE: &[&str] = &[
    "bash",
    "cmd",
    "command",
    "commands",
    "exec",
    "execute",
    "execution",
    "powershell",
    "run",
    "shell",
    "terminal",
];

/// The arguments that hold the command line such a tool runs.
const LINE_ARGUMENTS: &[&str] = &[
    "bash_command",
    "bashcommand",
    "cmd",
    "command",
    "command_line",
    "commandline",
    "line",
    "shell_command",
    "shellcommand",
];

/// Arguments that hold a command line for a program, whatever the tool is called.
const CLI_ARGUMENTS: &[&str] = &[
    "cli",
    "cli_command",
    "clicommand",
    "command_line",
    "commandline",
    "shell_command",
];

/// The program `line` starts with, when the catalogue knows it and words follow (`aws s3
/// ls`; not `delete` or `FLUSHALL` alone).
fn names_a_program(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    let (Some(first), Some(_)) = (words.next(), words.next()) else {
        return None;
    };
    crate::catalogue::program(first).map(|_| first)
}

/// Is `program` a word of the tool's or the app's name (`aws` of `call_aws`)?
fn own_program(step: &AppStep, program: &str) -> bool {
    let program = program.to_ascii_lowercase();
    read::words(&step.tool)
        .iter()
        .chain(&read::words(&step.app))
        .any(|word| *word == program)
}

/// The command line an app's tool runs, as its shell would (`{"command": "rm -rf ~"}` to
/// desktop-commander's `execute_command`), and whether it is PowerShell's: for the shell's
/// law to judge as a line of its own, as an interpreter's literal command is.
pub fn command_line(step: &AppStep) -> Option<(Cow<'_, str>, bool)> {
    if !has_argument(step, LINE_ARGUMENTS) && !has_argument(step, CLI_ARGUMENTS) {
        return None;
    }
    let name = ToolName::read(&step.tool);
    let tool_words = read::words(&step.tool);
    let said = |names: &[&str]| tool_words.iter().any(|w| names.contains(&w.as_str()));
    // A process started with a command line (desktop-commander's `start_process`).
    let starts_process = said(&["process", "processes"])
        && said(&["start", "spawn", "launch", "create", "new", "run"]);
    let runs_a_line = starts_process
        || name
            .hits
            .iter()
            .any(|hit| hit.is(Concept::Runs) && RUNS_A_LINE.contains(&hit.phrase));
    let fields = step.arguments.as_object()?;
    let line = fields.iter().find_map(|(key, value)| {
        let key = key.to_ascii_lowercase();
        let line = match value {
            serde_json::Value::String(line) => Cow::Borrowed(line.as_str()),
            // An argument vector (`["rm", "-rf", "/tmp/x"]`, as mcp-shell-server takes one):
            // each word quoted, so the line runs what the vector would.
            serde_json::Value::Array(words) if !words.is_empty() => Cow::Owned(
                words
                    .iter()
                    .take(4096)
                    .map(|word| {
                        word.as_str()
                            .map(|word| format!("'{}'", word.replace('\'', r"'\''")))
                    })
                    .collect::<Option<Vec<_>>>()?
                    .join(" "),
            ),
            _ => return None,
        };
        if runs_a_line && LINE_ARGUMENTS.contains(&key.as_str()) {
            return Some(line);
        }
        // A tool that doesn't say it runs a line, given one for a program warden knows
        // (AWS's `call_aws` with `{"cli_command": "aws s3 rb s3://x --force"}`): the line is
        // what runs. An argument only named `command` or `cmd` holds one when its program
        // is the one the tool or the app is named for (`run_aws` with `aws …`): else it may
        // be a word of the app's own (`{"command": "delete"}`) or prose.
        let strong = CLI_ARGUMENTS.contains(&key.as_str());
        let plain = matches!(key.as_str(), "command" | "cmd");
        match names_a_program(&line) {
            Some(_) if strong => Some(line.clone()),
            Some(program) if plain && own_program(step, program) => Some(line.clone()),
            _ => None,
        }
    })?;
    let powershell = [step.tool.as_str(), step.app.as_str()].iter().any(|name| {
        let name = name.to_ascii_lowercase();
        name.contains("powershell") || name.contains("pwsh")
    });
    (!line.trim().is_empty()).then_some((line, powershell))
}

/// Does the step have an argument named one of `keys` (in any case)? Asked first, before
/// a tool's name is read: most steps carry none of the arguments a reading looks for.
fn has_argument(step: &AppStep, keys: &[&str]) -> bool {
    step.arguments.as_object().is_some_and(|fields| {
        fields
            .keys()
            .any(|key| keys.iter().any(|k| key.eq_ignore_ascii_case(k)))
    })
}

/// A language an app's tool runs code in, and how its code is handed to the interpreter on
/// a shell line the shell's law reads (`python3 -c '…'`, the code quoted whole).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeLanguage {
    /// A shell's: the code is a command line.
    Shell,
    PowerShell,
    /// An interpreter and its flag for a program given inline (`python3 -c`, `php -r`).
    Inline(&'static str, &'static str),
}

impl CodeLanguage {
    /// The language a word names (`python`, `js`, `rscript`…).
    fn of_word(word: &str) -> Option<CodeLanguage> {
        Some(match word {
            "python" | "py" | "python3" | "ipython" | "jupyter" | "notebook" | "pyodide" => {
                CodeLanguage::Inline("python3", "-c")
            }
            "javascript" | "js" | "node" | "nodejs" | "typescript" | "ts" | "deno" | "bun" => {
                CodeLanguage::Inline("node", "-e")
            }
            "ruby" | "rb" => CodeLanguage::Inline("ruby", "-e"),
            "perl" | "pl" => CodeLanguage::Inline("perl", "-e"),
            "php" => CodeLanguage::Inline("php", "-r"),
            "r" | "rscript" => CodeLanguage::Inline("Rscript", "-e"),
            "julia" | "jl" => CodeLanguage::Inline("julia", "-e"),
            "lua" => CodeLanguage::Inline("lua", "-e"),
            "bash" | "sh" | "shell" | "zsh" | "terminal" => CodeLanguage::Shell,
            "powershell" | "pwsh" | "ps1" => CodeLanguage::PowerShell,
            _ => return None,
        })
    }
}

/// The arguments that hold the program a code-running tool runs.
const CODE_ARGUMENTS: &[&str] = &[
    "cell",
    "code",
    "expr",
    "expression",
    "javascript",
    "js_code",
    "jscode",
    "program",
    "python",
    "python_code",
    "pythoncode",
    "script",
    "snippet",
    "source",
    "source_code",
    "sourcecode",
];

/// Words of an app's or tool's name that say its code runs in a web page (a browser's
/// `evaluate`), where the page's sandbox holds it, not on this machine.
const IN_A_PAGE: &[&str] = &[
    "browser",
    "chrome",
    "chromium",
    "dom",
    "firefox",
    "page",
    "playwright",
    "puppeteer",
    "selenium",
    "tab",
    "webview",
];

/// The program an app's tool runs on this machine (`execute_python_code` with `{"code":
/// "…"}`, a notebook's cell, `run_code` with a `language`), in its language: for the law of
/// the shell and of the interpreters to read, as they read `python3 -c`. The language is the
/// `language` (or `lang`, `kernel`, `runtime`) argument's, else the one the tool's or the
/// app's name says, else Python (what a tool that runs code without saying which runs most).
/// A command line the tool also gives ([`command_line`]) comes first: `law::assess_app`
/// reads the program only when there is none.
pub fn program_code(step: &AppStep) -> Option<(CodeLanguage, &str)> {
    if !has_argument(step, CODE_ARGUMENTS) {
        return None;
    }
    let name = ToolName::read(&step.tool);
    name.first(Concept::Runs)?;
    let mut words = read::words(&step.tool);
    words.extend(read::words(&step.app));
    if words.iter().any(|w| IN_A_PAGE.contains(&w.as_str())) {
        return None;
    }
    let fields = step.arguments.as_object()?;
    let code = fields.iter().find_map(|(key, value)| {
        CODE_ARGUMENTS
            .contains(&key.to_ascii_lowercase().as_str())
            .then(|| value.as_str())
            .flatten()
    })?;
    if code.trim().is_empty() {
        return None;
    }
    let declared = fields.iter().find_map(|(key, value)| {
        matches!(
            key.to_ascii_lowercase().as_str(),
            "language" | "lang" | "kernel" | "runtime"
        )
        .then(|| value.as_str())
        .flatten()
        .map(|v| {
            read::words(v)
                .into_iter()
                .find_map(|w| CodeLanguage::of_word(&w))
        })
    });
    let language = match declared {
        // A language declared that warden doesn't read: its code is unknown.
        Some(None) => return None,
        Some(Some(language)) => language,
        None => words
            .iter()
            .find_map(|w| CodeLanguage::of_word(w))
            .unwrap_or(CodeLanguage::Inline("python3", "-c")),
    };
    Some((language, code))
}

/// `code` given to its interpreter inline, quoted as a whole word the shell hands over as
/// written (each `'` closed, escaped and opened again): nothing in it ends the word early,
/// and the line is linear in the code's length.
pub fn code_line(language: CodeLanguage, code: &str) -> String {
    match language {
        CodeLanguage::Shell | CodeLanguage::PowerShell => code.to_string(),
        CodeLanguage::Inline(program, flag) => {
            format!("{program} {flag} '{}'", code.replace('\'', r"'\''"))
        }
    }
}

/// Words of an app's or a tool's name that say it is a database's.
const DATABASE_WORDS: &[&str] = &[
    "bigquery",
    "cassandra",
    "clickhouse",
    "cockroach",
    "cockroachdb",
    "d1",
    "database",
    "databases",
    "db",
    "duckdb",
    "dynamodb",
    "mariadb",
    "mongo",
    "mongodb",
    "mssql",
    "mysql",
    "neon",
    "oracle",
    "planetscale",
    "postgres",
    "postgresql",
    "redis",
    "snowflake",
    "sql",
    "sqlite",
    "supabase",
    "turso",
];

/// Arguments that hold a statement a database tool runs.
const STATEMENT_ARGUMENTS: &[&str] = &[
    "command",
    "query",
    "script",
    "sql",
    "sql_query",
    "statement",
    "statements",
];

/// The first words of a statement (SQL's, Redis's) or of a Mongo shell call (`db.…`): text
/// in a `query` argument that starts otherwise is a search, not a statement.
const STATEMENT_STARTS: &[&str] = &[
    "alter", "begin", "call", "create", "db", "delete", "drop", "exec", "execute", "flushall",
    "flushdb", "grant", "insert", "merge", "replace", "revoke", "select", "set", "truncate",
    "update", "upsert", "use", "with",
];

/// The statements an app's database tool runs (`execute_sql` of supabase with `{"query":
/// "drop schema public cascade"}`, postgres's `query` with `{"sql": …}`): the values of its
/// statement arguments (or the items of a list of them) that start as a statement does, for
/// the database law to judge as the shell's clients' (`db.destroy`). Only a tool whose own
/// or whose app's name says database, or an argument named `sql`.
pub fn database_statements(step: &AppStep) -> Vec<&str> {
    let Some(fields) = step.arguments.as_object() else {
        return Vec::new();
    };
    if !has_argument(step, STATEMENT_ARGUMENTS) {
        return Vec::new();
    }
    let tool = read::words(&step.tool);
    // A search of the docs or of the web runs no statement, whatever its query says.
    if tool.iter().any(|w| {
        matches!(
            w.as_str(),
            "search" | "docs" | "doc" | "documentation" | "help"
        )
    }) {
        return Vec::new();
    }
    let app = read::words(&step.app);
    let database = tool
        .iter()
        .chain(&app)
        .any(|w| DATABASE_WORDS.contains(&w.as_str()));
    let mut out = Vec::new();
    for (key, value) in fields {
        let key = key.to_ascii_lowercase();
        if !STATEMENT_ARGUMENTS.contains(&key.as_str()) || !(database || key == "sql") {
            continue;
        }
        let texts: Vec<&str> = match value {
            serde_json::Value::String(text) => vec![text.as_str()],
            serde_json::Value::Array(items) => items
                .iter()
                .take(256)
                .filter_map(serde_json::Value::as_str)
                .collect(),
            _ => Vec::new(),
        };
        out.extend(texts.into_iter().filter(|text| {
            let first = text
                .trim_start()
                .split(|c: char| !c.is_ascii_alphanumeric())
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase();
            STATEMENT_STARTS.contains(&first.as_str())
        }));
    }
    out
}

/// What a tool types into a process it started (desktop-commander's
/// `interact_with_process` with `{"pid": 7, "input": "…"}`), and whether it reads as a shell's
/// line (it starts with a program the catalogue knows) rather than a REPL's code, which
/// most such tools drive (Python's, unless the tool or the app names another language).
pub fn process_input(step: &AppStep) -> Option<(CodeLanguage, &str)> {
    const INPUTS: &[&str] = &["input", "text", "keys", "data", "command"];
    if !has_argument(step, INPUTS) {
        return None;
    }
    let tool = read::words(&step.tool);
    let said = |names: &[&str]| tool.iter().any(|w| names.contains(&w.as_str()));
    let app = read::words(&step.app);
    let where_ = |names: &[&str]| tool.iter().chain(&app).any(|w| names.contains(&w.as_str()));
    if !said(&["interact", "send", "write", "input", "type"])
        || !where_(&[
            "process", "session", "repl", "terminal", "pty", "shell", "tmux", "iterm",
        ])
    {
        return None;
    }
    let fields = step.arguments.as_object()?;
    let input = INPUTS
        .iter()
        .find_map(|key| fields.get(*key)?.as_str())
        .filter(|input| !input.trim().is_empty())?;
    if names_a_program(input).is_some() || where_(&["shell", "terminal", "bash", "tmux", "iterm"]) {
        return Some((CodeLanguage::Shell, input));
    }
    let language = tool
        .iter()
        .chain(&app)
        .find_map(|w| CodeLanguage::of_word(w))
        .unwrap_or(CodeLanguage::Inline("python3", "-c"));
    Some((language, input))
}

/// The command line an app's tool is, when it is a command of a program warden knows with
/// its arguments as that command's options: a container runtime's `run_container` (or
/// `create_container`) as `docker run` with its mounts, `--privileged`, the host's process
/// and network namespaces and added capabilities; a git server's `git_push` as `git push`
/// with its force, remote and branch. Each word quoted, so nothing in an argument is read
/// as the shell's syntax.
pub fn equivalent_line(step: &AppStep) -> Option<String> {
    if !has_argument(
        step,
        &[
            "image",
            "remote",
            "branch",
            "force",
            "repo_path",
            "manifest",
            "resourceType",
            "resource_type",
            "chart",
            "namespace",
            "replicas",
        ],
    ) {
        return None;
    }
    let tool = read::words(&step.tool);
    let app = read::words(&step.app);
    let said = |names: &[&str]| tool.iter().chain(&app).any(|w| names.contains(&w.as_str()));
    let in_tool = |names: &[&str]| tool.iter().any(|w| names.contains(&w.as_str()));
    let fields = step.arguments.as_object()?;
    let text = |key: &str| fields.get(key).and_then(serde_json::Value::as_str);
    let yes = |key: &str| fields.get(key).and_then(serde_json::Value::as_bool) == Some(true);
    let quote = |word: &str| format!("'{}'", word.replace('\'', r"'\''"));
    let strings = |key: &str| -> Vec<String> {
        match fields.get(key) {
            Some(serde_json::Value::Array(items)) => items
                .iter()
                .take(64)
                .filter_map(|item| match item {
                    serde_json::Value::String(text) => Some(text.clone()),
                    serde_json::Value::Object(bind) => {
                        let source = ["source", "host_path", "hostPath", "src"]
                            .iter()
                            .find_map(|k| bind.get(*k)?.as_str())?;
                        let target = [
                            "target",
                            "container_path",
                            "containerPath",
                            "dst",
                            "destination",
                        ]
                        .iter()
                        .find_map(|k| bind.get(*k)?.as_str())
                        .unwrap_or("/mnt");
                        Some(format!("{source}:{target}"))
                    }
                    _ => None,
                })
                .collect(),
            // Docker's API: `{"/host": {"bind": "/mnt", "mode": "ro"}}`.
            Some(serde_json::Value::Object(map)) => map
                .iter()
                .take(64)
                .map(|(source, bind)| {
                    let target = bind
                        .get("bind")
                        .and_then(serde_json::Value::as_str)
                        .unwrap_or("/mnt");
                    format!("{source}:{target}")
                })
                .collect(),
            Some(serde_json::Value::String(text)) => vec![text.clone()],
            _ => Vec::new(),
        }
    };
    if said(&["docker", "podman", "container", "containers"])
        && in_tool(&["run", "create", "start"])
        && in_tool(&["container", "containers"])
    {
        let image = text("image")?;
        let mut words = vec!["docker".to_string(), "run".to_string()];
        if yes("privileged") {
            words.push("--privileged".to_string());
        }
        for key in ["pid_mode", "pid", "network_mode", "network"] {
            if text(key).is_some_and(|mode| mode.eq_ignore_ascii_case("host")) {
                let option = if key.starts_with("pid") {
                    "--pid=host"
                } else {
                    "--network=host"
                };
                words.push(option.to_string());
            }
        }
        for key in ["volumes", "binds", "mounts"] {
            for volume in strings(key) {
                words.push("-v".to_string());
                words.push(quote(&volume));
            }
        }
        for capability in strings("cap_add") {
            words.push(format!("--cap-add={}", quote(&capability)));
        }
        words.push(quote(image));
        return Some(words.join(" "));
    }
    // A cluster's tool (`kubectl_apply` with a manifest, `kubectl_delete`, `kubectl_scale`,
    // `install_helm_chart`): kubectl's or helm's command, a change to what runs there.
    if said(&["kubernetes", "k8s", "kubectl", "helm"]) {
        const KUBECTL: &[&str] = &[
            "annotate", "apply", "cordon", "create", "delete", "drain", "label", "patch",
            "replace", "rollout", "scale", "taint", "uncordon",
        ];
        const HELM: &[&str] = &["install", "rollback", "uninstall", "upgrade"];
        let namespace = text("namespace").map(|ns| format!(" -n {}", quote(ns)));
        let namespace = namespace.unwrap_or_default();
        if in_tool(&["helm", "chart"])
            && let Some(verb) = tool.iter().find(|w| HELM.contains(&w.as_str()))
        {
            let mut words = vec!["helm".to_string(), verb.clone()];
            for key in ["name", "release", "chart"] {
                if let Some(value) = text(key) {
                    words.push(quote(value));
                }
            }
            return Some(format!("{}{namespace}", words.join(" ")));
        }
        if let Some(verb) = tool.iter().find(|w| KUBECTL.contains(&w.as_str())) {
            let mut words = vec!["kubectl".to_string(), verb.clone()];
            if fields.contains_key("manifest") || fields.contains_key("yaml") {
                words.push("-f -".to_string());
            }
            for key in ["resourceType", "resource_type", "kind", "name"] {
                if let Some(value) = text(key) {
                    words.push(quote(value));
                }
            }
            if let Some(replicas) = fields.get("replicas").and_then(serde_json::Value::as_u64) {
                words.push(format!("--replicas={replicas}"));
            }
            return Some(format!("{}{namespace}", words.join(" ")));
        }
    }
    if said(&["git"]) && in_tool(&["push"]) {
        let mut words = vec!["git".to_string()];
        if let Some(path) = text("repo_path").or_else(|| text("path")) {
            words.push("-C".to_string());
            words.push(quote(path));
        }
        words.push("push".to_string());
        if yes("force") {
            words.push("--force".to_string());
        }
        for key in ["remote", "branch"] {
            if let Some(value) = text(key) {
                words.push(quote(value));
            }
        }
        return Some(words.join(" "));
    }
    None
}

/// Whether an app's step is a lookup (declared, or read from its name), as the law reads it.
pub fn is_lookup(step: &AppStep) -> bool {
    let name = ToolName::read(&step.tool);
    let sent = Sent::read(&step.arguments);
    access(step, &name, &sent) == Access::Read
}

/// Whether an app's step sends more than a lookup needs (sendsMoreThanALookup: a value over
/// [`LOOKUP_VALUE`] characters, or over [`LOOKUP_TOTAL`] in all), as the law reads it.
pub fn sends_more_than_a_lookup(step: &AppStep) -> bool {
    Sent::read(&step.arguments).more_than_a_lookup()
}

/// Lookup or change: declared wins; else the name says it, and a lookup handed code to run
/// (an argument named `sql`, `script`, `command`…) is not a lookup.
fn access(step: &AppStep, name: &ToolName, sent: &Sent) -> Access {
    match step.access {
        Some(access) => access,
        None if name.is_lookup() && sent.first(Concept::Runs).is_none() => Access::Read,
        None => Access::Write,
    }
}

/// One rule, if the change's name or arguments carry its words.
fn ruled(
    rule: &Rule,
    step: &AppStep,
    at: &str,
    name: &ToolName,
    sent: &Sent,
    targets: &Targets,
) -> Option<Risk> {
    let (word, place) = match (name.first(rule.concept), sent.first(rule.concept)) {
        (Some(word), _) => (word, ""),
        (None, Some(word)) => (word, " in its arguments"),
        (None, None) => return None,
    };
    let risk = Risk::new(
        rule.rule,
        rule.harm,
        true,
        format!("{at} {} (“{word}”{place})", rule.does),
    )
    .way_out();
    Some(match rule.act {
        None => risk.never().irreducible(),
        Some(act) => {
            let act = match (rule.concept, place.is_empty()) {
                (Concept::Speaks, true) => speaking(word).unwrap_or(Act::Send),
                // Reaching people by an argument (`attendees`, `cc`): the person asks for
                // the tool's own act, naming them ("create an event with Sarah").
                (Concept::Speaks, false) => speaking(word).unwrap_or(Act::Change),
                _ => act,
            };
            let mut wish = Wish::new(act);
            wish.names = rule_names(rule.concept, targets, &step.app);
            // The app itself, ruled out, holds what it would do ("nothing goes to Slack
            // today", "niente Slack oggi"), though asking needn't name it.
            wish.targets.push(Name::one(step.app.as_str()));
            risk.wish(wish)
        }
    })
}

/// The names a rule's wish needs: whom it speaks or grants to, what it deletes or runs in;
/// where the arguments name neither, the app itself ("send it from Slack").
fn rule_names(concept: Concept, targets: &Targets, app: &str) -> Vec<Name> {
    let (first, then) = match concept {
        Concept::Deletes => (targets.what(), targets.whom()),
        Concept::Runs => (targets.what(), Vec::new()),
        // A message names whom it reaches and every link it sends.
        Concept::Speaks => (targets.whom_and_links(), targets.what()),
        _ => (targets.whom(), targets.what()),
    };
    [first, then]
        .into_iter()
        .find(|names| !names.is_empty())
        .unwrap_or_else(|| vec![Name::AnyOf(app_names(app))])
}

/// A change no rule reads an act in ("create_calendar_event", "append_to_file"): asked for
/// with the change's own words, naming whom it reaches and what it changes, or else every
/// value it sets. A change with free text and no target can't be asked for by name: no
/// wish, and its question stands.
fn change_wish(targets: &Targets, arguments: &serde_json::Value) -> Option<Wish> {
    let mut names = targets.whom();
    // Whom it reaches, named, is enough where the item is only an id the person can't say
    // ("add john.doe@clientcorp.com to the Introductory meeting": event 24).
    if names.is_empty() || !targets.only_an_id() {
        names.extend(targets.what());
    }
    if names.is_empty() {
        // A change dictated whole ("update my address to Dalton Street 123, New York").
        names = names::values(arguments);
    }
    if names.is_empty() {
        return None;
    }
    let mut wish = Wish::new(Act::Change);
    wish.names = names;
    Some(wish)
}

/// A key, a token or a long blob in the arguments (carriesSecrets): severe, not lasting,
/// so it asks only after reading.
fn secret(at: &str, sent: &Sent) -> Option<Risk> {
    let (key, kind) = sent.secret.as_ref()?;
    let place = if key.is_empty() {
        "in its arguments".to_string()
    } else {
        format!("in `{key}`")
    };
    let risk = Risk::new(
        RuleId::AppSecret,
        Harm::Severe,
        false,
        format!("{at} would send {kind} ({place})"),
    )
    .way_out();
    // INVARIANT: a key or token sent to an app is NEVER; a long blob is only severe.
    Some(if *kind == BLOB { risk } else { risk.never() })
}

/// Strings of the arguments looked at, at most: each costs a few comparisons.
const MOST_STRINGS: usize = 4096;

/// What the arguments' strings, however deep, name that no person's words lift: a private
/// key or credential file ([`key_file`]) and the cloud's instance metadata (a fetch tool's
/// `url`: the machine's credentials, as the shell's and the web's reach of it). One walk,
/// with an explicit stack. Bounded: arguments with more than [`MOST_STRINGS`] values are
/// not read past them, and that asks in every mode (fail closed: padding before a key's
/// path must not hide it).
fn keys_and_metadata(at: &str, arguments: &serde_json::Value, changes: bool) -> Vec<Risk> {
    let mut risks = Vec::new();
    let mut stack = vec![arguments];
    let mut seen = 0;
    while let Some(value) = stack.pop() {
        seen += 1;
        if seen > MOST_STRINGS {
            risks.push(Risk::new(
                RuleId::AppSecret,
                Harm::Severe,
                true,
                format!("{at} is given more than {MOST_STRINGS} values, past what warden reads for keys and credentials"),
            ));
            break;
        }
        match value {
            serde_json::Value::String(text) => {
                if let Some(risk) = key_file(at, text.trim(), changes) {
                    risks.push(risk);
                }
                // An address's host is at its start: a long query after it hides nothing.
                let head = text.trim_start();
                let head = head.get(..head.floor_char_boundary(4096)).unwrap_or(head);
                if let Some(risk) = crate::law::command::net::url_host(head.trim_end())
                    .filter(|_| head.contains("://"))
                    .and_then(|host| crate::law::command::net::metadata_risk(&host))
                {
                    risks.push(risk.never());
                }
            }
            serde_json::Value::Array(items) => stack.extend(items),
            serde_json::Value::Object(fields) => stack.extend(fields.values()),
            _ => {}
        }
        if risks.len() >= 2 {
            break;
        }
    }
    risks
}

/// Words of a tool's name that write a file (`write_file`, `edit_file`, `move_file`).
const WRITES_A_FILE: &[&str] = &[
    "append", "copy", "create", "edit", "move", "rename", "save", "update", "write",
];

/// The arguments that name the file such a tool writes (the destination of a move).
const WRITTEN_PATHS: &[&str] = &[
    "dest",
    "destination",
    "destination_path",
    "file",
    "file_path",
    "filename",
    "filepath",
    "path",
    "target",
    "target_path",
];

/// Does the tool's name say it writes a file (`write_file`, `create_or_update_file`), by a
/// word of [`WRITES_A_FILE`] or of `also`?
fn writes_files(step: &AppStep, also: &[&str]) -> bool {
    let tool = step.tool.to_ascii_lowercase();
    let words: Vec<&str> = tool
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().any(|w| matches!(*w, "file" | "files"))
        && words
            .iter()
            .any(|w| WRITES_A_FILE.contains(w) || also.contains(w))
}

/// The path on this machine a file tool of an app writes (`write_file` of a filesystem
/// server, `{"path": "/home/user/.bashrc"}`): for the file law to judge as a write. Only a
/// tool whose name says it writes a file, and a path written from the root or the home
/// folder: a hosted app's paths (`.github/workflows/x.yml` in a repository) are its own.
pub fn written_path(step: &AppStep) -> Option<&str> {
    if !writes_files(step, &[]) {
        return None;
    }
    let fields = step.arguments.as_object()?;
    WRITTEN_PATHS.iter().find_map(|key| {
        let path = fields.get(*key)?.as_str()?.trim();
        path.starts_with(['/', '~']).then_some(path)
    })
}

/// The arguments that hold the text a file tool writes.
const WRITTEN_TEXTS: &[&str] = &["body", "content", "contents", "file_content", "text"];

/// The files an app's file tool writes with their text, wherever they are (a hosted
/// repository's `.github/workflows/x.yml` through GitHub's `create_or_update_file`, each of
/// `push_files`'s `files`): for the law of what a written file runs later (a CI pipeline's
/// steps) to judge. Only a tool whose name says it writes or pushes a file.
pub fn written_texts(step: &AppStep) -> Vec<(&str, &str)> {
    if !has_argument(step, WRITTEN_TEXTS) && !has_argument(step, &["files"]) {
        return Vec::new();
    }
    if !writes_files(step, &["push", "commit"]) {
        return Vec::new();
    }
    fn pair(object: &serde_json::Map<String, serde_json::Value>) -> Option<(&str, &str)> {
        let path = WRITTEN_PATHS
            .iter()
            .find_map(|key| object.get(*key)?.as_str())?;
        let text = WRITTEN_TEXTS
            .iter()
            .find_map(|key| object.get(*key)?.as_str())?;
        Some((path, text))
    }
    let Some(fields) = step.arguments.as_object() else {
        return Vec::new();
    };
    let mut out: Vec<(&str, &str)> = pair(fields).into_iter().collect();
    if let Some(serde_json::Value::Array(items)) = fields.get("files") {
        out.extend(
            items
                .iter()
                .take(256)
                .filter_map(|item| item.as_object().and_then(pair)),
        );
    }
    out
}

/// Words of an app's or a tool's name that say it drives a web browser (Playwright's and
/// Puppeteer's MCP servers: `browser_click`, `puppeteer_fill`).
const BROWSER_WORDS: &[&str] = &[
    "browser",
    "chrome",
    "chromium",
    "playwright",
    "puppeteer",
    "selenium",
    "webdriver",
];

/// The browser steps an app's browser tool takes (`browser_click` of Playwright's server
/// with `{"element": "Delete account button"}`, `puppeteer_fill` with `{"value": …}`, each of
/// `browser_fill_form`'s fields), for the browser's law to judge as it judges a `browser`
/// step: a button that pays, sends or deletes, a key or a long text typed, an upload, an
/// address opened. A tool that only looks (a snapshot, a screenshot, the tabs) takes none,
/// and code run in the page (`browser_evaluate`) is the page's.
pub fn browser_steps(step: &AppStep) -> Vec<crate::step::BrowserStep> {
    use crate::step::{BrowserAction, BrowserStep};
    // Its words are among the name's letters: a name without one is read no further.
    let lower = format!("{} {}", step.tool, step.app).to_ascii_lowercase();
    if !BROWSER_WORDS.iter().any(|word| lower.contains(word)) {
        return Vec::new();
    }
    let tool = read::words(&step.tool);
    let app = read::words(&step.app);
    if !tool
        .iter()
        .chain(&app)
        .any(|w| BROWSER_WORDS.contains(&w.as_str()))
    {
        return Vec::new();
    }
    let has = |names: &[&str]| tool.iter().any(|w| names.contains(&w.as_str()));
    let action = if has(&["upload"]) {
        BrowserAction::Upload
    } else if has(&["download"]) {
        BrowserAction::Download
    } else if has(&["select", "choose"]) {
        BrowserAction::Choose
    } else if has(&["type", "fill", "input"]) {
        BrowserAction::Type
    } else if has(&["click", "tap", "press"]) && !has(&["key"]) {
        BrowserAction::Click
    } else if has(&["navigate", "goto", "open"]) {
        BrowserAction::Open
    } else {
        return Vec::new();
    };
    let Some(fields) = step.arguments.as_object() else {
        return Vec::new();
    };
    let text_of = |keys: &[&str]| {
        keys.iter().find_map(|key| match fields.get(*key)? {
            serde_json::Value::String(text) => Some(text.clone()),
            serde_json::Value::Array(items) => Some(
                items
                    .iter()
                    .take(64)
                    .filter_map(serde_json::Value::as_str)
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            _ => None,
        })
    };
    let at = |site: String, label: String, text: String| BrowserStep {
        action,
        site,
        label,
        text,
        own_browser: false,
    };
    // The page it acts on, when it says; else none: the browser's law judges the page open.
    let page = || text_of(&["url", "page", "site"]).unwrap_or_default();
    let label = || {
        text_of(&[
            "element", "label", "name", "selector", "text", "values", "value",
        ])
    };
    match action {
        BrowserAction::Open => text_of(&["url"])
            .map(|url| vec![at(url, String::new(), String::new())])
            .unwrap_or_default(),
        BrowserAction::Click | BrowserAction::Choose => {
            vec![at(page(), label().unwrap_or_default(), String::new())]
        }
        BrowserAction::Type => {
            // A form's fields, each typed in; else one field's text.
            if let Some(serde_json::Value::Array(items)) = fields.get("fields") {
                return items
                    .iter()
                    .take(64)
                    .filter_map(serde_json::Value::as_object)
                    .map(|field| {
                        let get = |key: &str| {
                            field
                                .get(key)
                                .and_then(serde_json::Value::as_str)
                                .unwrap_or_default()
                                .to_string()
                        };
                        at(page(), get("name"), get("value"))
                    })
                    .collect();
            }
            let text = text_of(&["text", "value"]).unwrap_or_default();
            vec![at(
                page(),
                text_of(&["element", "label", "selector"]).unwrap_or_default(),
                text,
            )]
        }
        BrowserAction::Upload | BrowserAction::Download => {
            vec![at(page(), label().unwrap_or_default(), String::new())]
        }
    }
}

/// A private key or credential file named by one of the arguments (an attachment of
/// `~/.ssh/id_rsa`): keys sent are NEVER, as seed 002 says of keys read or sent, and no
/// recipient the person named lifts it.
fn key_file(at: &str, path: &str, changes: bool) -> Option<Risk> {
    const HOME: &str = "/~home";
    // No path is longer than the system's 4096 bytes.
    if path.len() > 4096 {
        return None;
    }
    let abs = match path.strip_prefix('~') {
        Some(rest) => format!("{HOME}{rest}"),
        None if path.starts_with('/') => path.to_string(),
        None => return None,
    };
    let name = abs.rsplit('/').next().unwrap_or_default();
    // A project's `.env` (or Terraform's state) sent by a change (an attachment, an
    // upload): its secrets leave, as `curl -F f=@.env` has them leave (`egress.env`, NEVER).
    // A lookup that reads it (a filesystem server's `read_file`) is the Read tool's read of
    // the project's own file.
    if changes && crate::law::command::net::holds_the_environment(&abs) {
        return Some(
            Risk::new(
                RuleId::EgressEnv,
                Harm::Severe,
                true,
                format!(
                    "{at} would send the project's secrets or an environment's settings (`{path}`)"
                ),
            )
            .way_out()
            .never(),
        );
    }
    if !crate::law::command::paths::is_key_path(&abs, HOME)
        && !crate::law::command::paths::names_key_file(name)
    {
        return None;
    }
    // Lasting, as the shell's key read is: a key that left can't be called back, so it
    // asks before reading too.
    let risk = Risk::new(
        RuleId::AppSecret,
        Harm::Severe,
        true,
        format!("{at} would send a key or credential file (`{path}`)"),
    );
    // INVARIANT: a key file sent to an app is NEVER, like a key in a value.
    Some(risk.way_out().never())
}

/// Someone else's app after reading: a lookup that sends no more than a lookup goes; a
/// bigger one and every change would go to the second look, and with none configured they
/// ask (fail closed).
fn someone_elses(step: &AppStep, changes: bool, sent: &Sent, wish: Option<Wish>) -> Option<Risk> {
    let (tool, app) = (&step.tool, &step.app);
    let whose = match step.origin {
        Origin::Mcp => "an app connected over MCP",
        Origin::Stranger | Origin::Own => "someone else's app",
    };
    let what = if changes {
        format!("the tool {tool} changes things in {app}, {whose}")
    } else if sent.more_than_a_lookup() {
        format!(
            "the tool {tool} sends {} characters to {app}, {whose}, more than a lookup needs",
            sent.total
        )
    } else {
        return None;
    };
    let risk = Risk::new(
        RuleId::AppSomeoneElses,
        Harm::Moderate,
        true,
        format!("with no second look configured, {what}"),
    )
    .way_out();
    // INVARIANT: only a change is asked for by name; a bigger lookup has no act to ask with.
    Some(match wish {
        Some(wish) => risk.wish(wish),
        None => risk,
    })
}

/// The act a person asks for a speaking step with, where it is its own act in the
/// person's words: publishing, sharing and inviting, making public. Anything else is
/// sending (by the tool's name) or the tool's own change (by an argument).
fn speaking(word: &str) -> Option<Act> {
    [
        Act::Publish,
        Act::Access,
        Act::Public,
        Act::Merge,
        Act::Push,
    ]
    .into_iter()
    .find(|act| {
        wish_words(*act)
            .iter()
            .any(|(_, line)| line.contains(&word))
    })
}

/// Words too common to name an app by.
const GENERIC: &[&str] = &[
    "api", "app", "claude", "local", "mcp", "remote", "server", "tools",
];

/// The names a person's message may call an app by: its name, and the parts of a name cut
/// by `_`, `-`, `.` or spaces (`claude_ai_Notion` is "notion" too).
fn app_names(app: &str) -> Vec<String> {
    let whole = fold(app);
    let mut names = vec![whole.clone()];
    for part in whole.split(|c: char| !c.is_ascii_alphanumeric()) {
        if part.len() >= 3 && !GENERIC.contains(&part) && !names.iter().any(|n| n == part) {
            names.push(part.to_string());
        }
    }
    names
}
