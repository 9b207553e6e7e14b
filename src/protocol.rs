//! The batch protocol every way in shares: one JSON request in, one JSON answer out.
//! Documented in `docs/protocol.md`.

use crate::facts::Facts;
use crate::law::judge;
use crate::mode::Mode;
use crate::second_look::for_person;
use crate::step::{
    Access, AppStep, BrowserAction, BrowserStep, Context, FetchStep, FileStep, Origin,
    ScheduleStep, Setting, Step,
};
use crate::verdict::{Decision, Harm, Scored, Verdict};
use crate::wish::{Name, Wish};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// One request: a tool call and the chat it comes from. Unknown fields are ignored, so a
/// Claude Code hook input can be sent as it is.
#[derive(Debug, Clone, Deserialize)]
pub struct Request {
    #[serde(default)]
    pub id: Value,
    /// warden's or Claude Code's mode name (`permission_mode` is read too).
    #[serde(default, alias = "permission_mode")]
    pub mode: Option<String>,
    #[serde(default)]
    pub cwd: Option<String>,
    #[serde(default)]
    pub said: Vec<String>,
    #[serde(default)]
    pub read: Vec<String>,
    #[serde(default)]
    pub others: bool,
    /// A skill's list of steps drives the chat.
    #[serde(default)]
    pub skill: bool,
    /// Files earlier steps of the chat saved from a download or decoded from a blob, for a
    /// host that keeps the chat's state itself (`warden serve` keeps its own).
    #[serde(default)]
    pub fetched: Vec<crate::step::Fetched>,
    /// Files earlier steps of the chat wrote with text that asks if run, for such a host too.
    #[serde(default)]
    pub written: Vec<crate::step::Written>,
    /// What the request declares about the app a tool belongs to (over the registry's).
    #[serde(default)]
    pub app: Option<AppDeclaration>,
    pub tool_name: String,
    #[serde(default)]
    pub tool_input: Value,
}

/// What a request or the registry says about an app.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AppDeclaration {
    #[serde(default)]
    pub origin: Option<Origin>,
    /// Declared lookup (`read`) or change (`write`) for this call.
    #[serde(default)]
    pub access: Option<Access>,
    /// The person's setting for this tool.
    #[serde(default)]
    pub setting: Option<Setting>,
    #[serde(default)]
    pub sites: Vec<String>,
}

/// One app in warden's registry (`apps` in the configuration).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AppEntry {
    /// The app's name; for an MCP server, the server's name in `mcp__server__tool`.
    pub name: String,
    #[serde(default)]
    pub origin: Origin,
    #[serde(default)]
    pub sites: Vec<String>,
    /// The person's setting per tool.
    #[serde(default)]
    pub tools: BTreeMap<String, Setting>,
}

/// What the host fills in where a request is silent.
#[derive(Debug, Clone)]
pub struct Defaults {
    /// The work folder when a request names none.
    pub cwd: String,
    /// What Claude Code's `default` mode means here.
    pub default_mode: Mode,
    /// Paths refused to the agent's tools in every mode (absolute).
    pub protected: Vec<String>,
    /// The app registry.
    pub apps: Vec<AppEntry>,
    /// The port `warden serve` listens on, when not the default (steps naming it are refused).
    pub listen_port: Option<u16>,
}

impl Defaults {
    /// Defaults with a work folder and nothing else configured.
    pub fn new(cwd: impl Into<String>) -> Defaults {
        Defaults {
            cwd: cwd.into(),
            default_mode: Mode::Auto,
            listen_port: None,
            protected: Vec::new(),
            apps: Vec::new(),
        }
    }
}

/// One risk as the answer shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RiskOut {
    pub rule: String,
    pub harm: Harm,
    pub lasting: bool,
    pub never: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub critical: bool,
    pub score: u8,
    /// What the person's words say about it: asked, held or neither.
    pub wanted: crate::intent::Wanted,
    /// The act and the names that ask for it (`force_push: main`), if any words do.
    pub wish: Option<String>,
    pub reason: String,
}

/// The answer to one request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Answer {
    pub id: Value,
    pub decision: Decision,
    pub score: u8,
    pub reason: String,
    pub risks: Vec<RiskOut>,
}

/// A request that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refusal {
    pub id: Value,
    pub error: String,
}

/// Why a request could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    #[error("the line is not JSON: {0}")]
    NotJson(String),
    #[error("the request is not a JSON object")]
    NotObject,
    #[error("invalid request: {0}")]
    Invalid(String),
    #[error("{0}")]
    Mode(#[from] crate::mode::UnknownMode),
    #[error("`tool_input.{field}` is missing or not a string, which the tool `{tool}` needs")]
    MissingInput { tool: String, field: &'static str },
    #[error("`tool_input.{field}` of the tool `{tool}` is not valid: {reason}")]
    BadInput {
        tool: String,
        field: &'static str,
        reason: String,
    },
}

/// Reads a request into a step and its chat.
pub fn read_request(
    request: &Request,
    defaults: &Defaults,
) -> Result<(Step, Context), RequestError> {
    let mode = match request.mode.as_deref() {
        Some(raw) => Mode::parse_with_default(raw, defaults.default_mode)?,
        None => Mode::Auto,
    };
    let cwd = request
        .cwd
        .clone()
        .filter(|cwd| !cwd.is_empty())
        .unwrap_or_else(|| defaults.cwd.clone());
    let step = read_step(request, defaults, &cwd)?;
    let ctx = Context {
        mode,
        cwd,
        said: request.said.clone(),
        read: request.read.clone(),
        others: request.others,
        skill: request.skill,
        protected: defaults.protected.as_slice().into(),
        // `warden judge` has no second look: someone else's app steps ask after reading.
        second_look: false,
        listen_port: defaults.listen_port,
        fetched: request.fetched.clone(),
        written: request.written.clone(),
    };
    Ok((step, ctx))
}

/// A string field of `tool_input`.
fn input<'a>(request: &'a Request, field: &'static str) -> Result<&'a str, RequestError> {
    request
        .tool_input
        .get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| RequestError::MissingInput {
            tool: request.tool_name.clone(),
            field,
        })
}

/// An optional string field of `tool_input`.
fn optional<'a>(request: &'a Request, field: &str) -> Option<&'a str> {
    request.tool_input.get(field).and_then(Value::as_str)
}

/// The app Claude Code's own tools that speak belong to (`SendMessage`, `SendFeedback`).
pub const CLAUDE_CODE: &str = "Claude Code";

/// The app claude.ai's services belong to (`Artifact`, `Projects`).
pub const CLAUDE_AI: &str = "claude.ai";

/// What a file tool's write puts in: `Write`'s `content`, `Edit`'s `new_string`,
/// `MultiEdit`'s `edits[].new_string`, `NotebookEdit`'s `new_source`, joined by line breaks.
fn written_text(request: &Request) -> String {
    let input = &request.tool_input;
    let mut parts: Vec<&str> = ["content", "new_string", "new_source"]
        .iter()
        .filter_map(|field| input.get(*field).and_then(Value::as_str))
        .collect();
    if let Some(edits) = input.get("edits").and_then(Value::as_array) {
        parts.extend(
            edits
                .iter()
                .filter_map(|edit| edit.get("new_string").and_then(Value::as_str)),
        );
    }
    parts.join("\n")
}

/// A path as one shell word.
fn quoted(path: &str) -> String {
    format!("'{}'", path.replace('\'', "'\\''"))
}

/// Normalises a tool call into a step: Claude Code's tool names and input shapes.
fn read_step(request: &Request, defaults: &Defaults, cwd: &str) -> Result<Step, RequestError> {
    let tool = request.tool_name.as_str();
    let file = |access: Access, path: &str| {
        Step::File(FileStep {
            tool: tool.to_string(),
            access,
            path: path.to_string(),
            text: String::new(),
        })
    };
    let write = |path: &str| {
        Step::File(FileStep {
            tool: tool.to_string(),
            access: Access::Write,
            path: path.to_string(),
            text: written_text(request),
        })
    };
    Ok(match tool {
        "Bash" | "bash" | "shell" => Step::Command {
            command: match request.tool_input.get("command") {
                // An argument vector (`["bash", "-lc", "cargo test"]`, as Codex's exec keeps
                // one): each word quoted, so the line runs what the vector would.
                Some(Value::Array(words)) if !words.is_empty() => words
                    .iter()
                    .map(|word| word.as_str().map(quoted))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| RequestError::BadInput {
                        tool: tool.to_string(),
                        field: "command",
                        reason: "an argument vector holds only strings".to_string(),
                    })?
                    .join(" "),
                _ => input(request, "command")?.to_string(),
            },
        },
        "PowerShell" => Step::PowerShell {
            command: input(request, "command")?.to_string(),
        },
        "Read" => file(Access::Read, input(request, "file_path")?),
        "Write" | "Edit" | "MultiEdit" => write(input(request, "file_path")?),
        "NotebookEdit" => write(input(request, "notebook_path")?),
        // Codex's file edits: every path of the patch, each a write.
        "apply_patch" => {
            let text = ["command", "patch", "input"]
                .iter()
                .find_map(|field| optional(request, field))
                .ok_or_else(|| RequestError::MissingInput {
                    tool: tool.to_string(),
                    field: "command",
                })?;
            let patch = crate::patch::Patch::parse(text).map_err(|e| RequestError::BadInput {
                tool: tool.to_string(),
                field: "command",
                reason: format!("the patch can't be read: {e}"),
            })?;
            Step::Patch {
                tool: tool.to_string(),
                files: patch
                    .files
                    .into_iter()
                    .zip(patch.added)
                    .map(|((_, path), text)| FileStep {
                        tool: tool.to_string(),
                        access: Access::Write,
                        path,
                        text,
                    })
                    .collect(),
            }
        }
        // Anthropic's text editor tool (the API's `str_replace_based_edit_tool`, earlier
        // `str_replace_editor`): a view reads, every other command writes what it puts in.
        "str_replace_based_edit_tool" | "str_replace_editor" => {
            let path = input(request, "path")?;
            let text = |fields: &[&str]| {
                fields
                    .iter()
                    .find_map(|field| optional(request, field))
                    .unwrap_or_default()
                    .to_string()
            };
            let edit = |text: String| {
                Step::File(FileStep {
                    tool: tool.to_string(),
                    access: Access::Write,
                    path: path.to_string(),
                    text,
                })
            };
            match input(request, "command")? {
                "view" => file(Access::Read, path),
                "create" => edit(text(&["file_text"])),
                "str_replace" => edit(text(&["new_str"])),
                "insert" => edit(text(&["insert_text", "new_str"])),
                "undo_edit" => edit(String::new()),
                other => {
                    return Err(RequestError::BadInput {
                        tool: tool.to_string(),
                        field: "command",
                        reason: format!(
                            "`{other}` is not one of view, create, str_replace, insert, undo_edit"
                        ),
                    });
                }
            }
        }
        // Codex's picture of a file: a read of it.
        "view_image" => file(Access::Read, input(request, "path")?),
        "NotebookRead" => file(Access::Read, input(request, "notebook_path")?),
        "Glob" | "Grep" | "LS" => file(Access::Read, optional(request, "path").unwrap_or(cwd)),
        // A language server's lookup of code (a definition, references, a symbol): a read of
        // the file it names.
        "LSP" => file(Access::Read, optional(request, "filePath").unwrap_or(cwd)),
        "WebFetch" => Step::Fetch(FetchStep {
            tool: tool.to_string(),
            target: input(request, "url")?.to_string(),
            search: false,
        }),
        "WebSearch" => Step::Fetch(FetchStep {
            tool: tool.to_string(),
            target: input(request, "query")?.to_string(),
            search: true,
        }),
        "browser" | "Browser" => Step::Browser(read_browser(request)?),
        // Watching a command's output runs the command, as `Bash` would; watching a socket
        // opens its address, as a fetch does.
        "Monitor" => match (
            optional(request, "command"),
            request
                .tool_input
                .pointer("/ws/url")
                .and_then(Value::as_str),
        ) {
            (Some(command), _) => Step::Command {
                command: command.to_string(),
            },
            // A WebSocket opens with an HTTP request (ws: is http:, wss: is https:).
            (None, Some(url)) => Step::Fetch(FetchStep {
                tool: tool.to_string(),
                target: match url.get(..4).map(str::to_ascii_lowercase).as_deref() {
                    Some("wss:") => format!("https:{}", &url[4..]),
                    Some("ws:/") => format!("http:{}", &url[3..]),
                    _ => url.to_string(),
                },
                search: false,
            }),
            (None, None) => {
                return Err(RequestError::MissingInput {
                    tool: tool.to_string(),
                    field: "command",
                });
            }
        },
        // A new worktree is a folder written in the repository (`<repo>/.claude/worktrees/`);
        // switching into one that exists changes nothing but where the agent works.
        "EnterWorktree" => match optional(request, "path") {
            Some(path) => file(Access::Read, path),
            None => file(
                Access::Write,
                &format!(
                    "{}/.claude/worktrees/{}",
                    cwd.trim_end_matches('/'),
                    optional(request, "name").unwrap_or_default()
                ),
            ),
        },
        // Leaving it: kept, nothing changes; removed, the worktree (the work folder) goes, and
        // with `discard_changes` its uncommitted work too, as `git worktree remove --force`.
        "ExitWorktree" => match optional(request, "action") {
            Some("remove")
                if request
                    .tool_input
                    .get("discard_changes")
                    .and_then(Value::as_bool)
                    == Some(true) =>
            {
                Step::Command {
                    command: format!("git worktree remove --force {}", quoted(cwd)),
                }
            }
            Some("remove") => file(Access::Write, cwd),
            _ => Step::Bookkeeping {
                tool: tool.to_string(),
            },
        },
        // Something set to run later by itself: persistence, judged as a schedule.
        "CronCreate" => Step::Schedule(ScheduleStep {
            tool: tool.to_string(),
            prompt: optional(request, "prompt").unwrap_or_default().to_string(),
            // `durable`: kept in .claude/scheduled_tasks.json, it survives restarts.
            lasting: request.tool_input.get("durable").and_then(Value::as_bool) == Some(true),
            remote: false,
        }),
        "ScheduleWakeup"
            if request.tool_input.get("stop").and_then(Value::as_bool) != Some(true) =>
        {
            Step::Schedule(ScheduleStep {
                tool: tool.to_string(),
                prompt: optional(request, "prompt").unwrap_or_default().to_string(),
                // At most an hour away, in this session.
                lasting: false,
                remote: false,
            })
        }
        // A trigger kept in the cloud (made, changed or run) runs there by itself; listing
        // them and reading their runs is a lookup.
        "RemoteTrigger"
            if !matches!(
                optional(request, "action"),
                Some("list" | "get" | "list_runs" | "get_run_log")
            ) =>
        {
            Step::Schedule(ScheduleStep {
                tool: tool.to_string(),
                prompt: request
                    .tool_input
                    .get("body")
                    .map(Value::to_string)
                    .unwrap_or_default(),
                lasting: true,
                remote: true,
            })
        }
        // Words to another agent (a teammate, a background agent, another session) or to
        // Anthropic (feedback): speaking, judged as an app's tool that sends.
        "SendMessage" | "SendFeedback" => Step::App(read_app(
            request,
            defaults,
            CLAUDE_CODE,
            tool,
            request.tool_input.clone(),
            Origin::Own,
            Some(Access::Write),
        )),
        // claude.ai's own services: an artifact (a page others may open), a project's
        // documents, Claude Design. Someone else's systems, as a connected app's are.
        "Artifact" => {
            let mut arguments = request.tool_input.clone();
            let action = optional(request, "action").unwrap_or("publish").to_string();
            if let Some(object) = arguments.as_object_mut() {
                object.insert("action".to_string(), Value::String(action.clone()));
            }
            let looks = matches!(
                action.as_str(),
                "list" | "read" | "list_types" | "status" | "list_assets" | "read_asset"
            );
            Step::App(read_app(
                request,
                defaults,
                CLAUDE_AI,
                tool,
                arguments,
                Origin::Mcp,
                Some(if looks { Access::Read } else { Access::Write }),
            ))
        }
        "Projects" => {
            let changes = matches!(
                optional(request, "method"),
                Some("project_write" | "project_delete") | None
            );
            Step::App(read_app(
                request,
                defaults,
                CLAUDE_AI,
                tool,
                request.tool_input.clone(),
                Origin::Mcp,
                Some(if changes { Access::Write } else { Access::Read }),
            ))
        }
        "ClaudeDesign" => Step::App(read_app(
            request,
            defaults,
            "Claude Design",
            optional(request, "operation").unwrap_or(tool),
            request
                .tool_input
                .get("arguments")
                .cloned()
                .unwrap_or(Value::Null),
            Origin::Mcp,
            None,
        )),
        // The agent's own bookkeeping: its lists and tasks, leaving or entering plan mode, a
        // running command's output or its end, a subagent or a workflow of them (each of their
        // steps judged in its turn), a skill's instructions, finding its own tools, a
        // language server, other agents' names, findings and notices for the person.
        // (`Agent` is Claude Code's newer name for `Task`.)
        "TodoWrite"
        | "TodoRead"
        | "ExitPlanMode"
        | "EnterPlanMode"
        | "BashOutput"
        | "KillShell"
        | "KillBash"
        | "Task"
        | "Agent"
        | "Workflow"
        | "Skill"
        | "AskUserQuestion"
        | "ToolSearch"
        | "ListAgents"
        | "TaskCreate"
        | "TaskGet"
        | "TaskList"
        | "TaskUpdate"
        | "TaskOutput"
        | "TaskStop"
        | "CronList"
        | "CronDelete"
        | "ScheduleWakeup"
        | "RemoteTrigger"
        | "ReportFindings"
        | "RefreshMcpTools"
        | "SubagentHandback"
        | "StructuredOutput"
        | "PushNotification"
        | "ReadNotifications"
        | "ProposeSkills"
        | "ProposeGoal"
        | "ShowOnboardingRolePicker"
        | "OfferChromeSetup"
        // Claude Code 2.1.328's session tools: ending the conversation, its goal, a guide
        // shown to the person, waiting for MCP servers, a skill proposed, and a message to
        // the person themselves (the brief view's checkpoint).
        | "EndConversation"
        | "SetGoal"
        | "ShareOnboardingGuide"
        | "WaitForMcpServers"
        | "propose_skills"
        | "SendUserMessage"
        | "Sleep"
        // Codex's own: its plan, its goal, a question to the person, and its subagents
        // (`spawn_agent` starts one, a task of the chat whose every step is judged in its
        // turn; the others talk to it, wait for it or close it).
        | "update_plan"
        | "get_goal"
        | "create_goal"
        | "update_goal"
        | "request_user_input"
        | "spawn_agent"
        | "send_input"
        | "send_message"
        | "wait_agent"
        | "close_agent"
        | "resume_agent"
        | "list_agents" => Step::Bookkeeping {
            tool: tool.to_string(),
        },
        // Claude Code's reads of an MCP server's resources: a lookup in that app.
        "ListMcpResourcesTool" | "ReadMcpResourceTool" | "ReadMcpResourceDirTool" => {
            let server = request
                .tool_input
                .get("server")
                .and_then(Value::as_str)
                .filter(|server| !server.is_empty())
                .unwrap_or("mcp");
            let mut app = read_app(
                request,
                defaults,
                server,
                tool,
                request.tool_input.clone(),
                Origin::Mcp,
                None,
            );
            app.access = Some(Access::Read);
            Step::App(app)
        }
        "App" | "app" => {
            let app = input(request, "app")?;
            let name = input(request, "tool")?;
            let arguments = request
                .tool_input
                .get("arguments")
                .cloned()
                .unwrap_or(Value::Null);
            Step::App(read_app(
                request,
                defaults,
                app,
                name,
                arguments,
                Origin::Stranger,
                declared_access(request),
            ))
        }
        other => match other
            .strip_prefix("mcp__")
            .and_then(|rest| rest.split_once("__"))
        {
            Some((server, name)) if !server.is_empty() && !name.is_empty() => Step::App(read_app(
                request,
                defaults,
                server,
                name,
                request.tool_input.clone(),
                Origin::Mcp,
                // An MCP tool's input is its arguments, written by the agent: an `access`
                // there declares nothing.
                None,
            )),
            _ => Step::Unjudged {
                tool: other.to_string(),
            },
        },
    })
}

fn read_app(
    request: &Request,
    defaults: &Defaults,
    app: &str,
    tool: &str,
    arguments: Value,
    origin: Origin,
    input_access: Option<Access>,
) -> AppStep {
    let entry = defaults
        .apps
        .iter()
        .find(|entry| entry.name.eq_ignore_ascii_case(app));
    let declared = request.app.clone().unwrap_or_default();
    let sites = if declared.sites.is_empty() {
        entry.map(|e| e.sites.clone()).unwrap_or_default()
    } else {
        declared.sites.clone()
    };
    AppStep {
        app: app.to_string(),
        tool: tool.to_string(),
        access: declared.access.or(input_access),
        origin: declared
            .origin
            .or(entry.map(|e| e.origin))
            .unwrap_or(origin),
        setting: declared
            .setting
            .or_else(|| entry.and_then(|e| e.tools.get(tool).copied())),
        sites,
        arguments,
    }
}

/// The `App` shape's own declaration of access (beside `app`, `tool` and `arguments`).
fn declared_access(request: &Request) -> Option<Access> {
    match request.tool_input.get("access").and_then(Value::as_str) {
        Some("read") => Some(Access::Read),
        Some("write") => Some(Access::Write),
        _ => None,
    }
}

fn read_browser(request: &Request) -> Result<BrowserStep, RequestError> {
    let raw = input(request, "action")?;
    let action: BrowserAction =
        serde_json::from_value(Value::String(raw.to_string())).map_err(|_| {
            RequestError::BadInput {
                tool: request.tool_name.clone(),
                field: "action",
                reason: format!(
                    "`{raw}` is not one of open, click, choose, type, upload, download"
                ),
            }
        })?;
    Ok(BrowserStep {
        action,
        site: input(request, "site")?.to_string(),
        label: optional(request, "label").unwrap_or("").to_string(),
        text: optional(request, "text").unwrap_or("").to_string(),
        own_browser: request
            .tool_input
            .get("own_browser")
            .and_then(Value::as_bool)
            .unwrap_or(false),
    })
}

/// The answer for a verdict.
pub fn answer(id: Value, verdict: &Verdict) -> Answer {
    Answer {
        id,
        decision: verdict.decision,
        score: verdict.score,
        // INVARIANT: a name that isn't warden's (a mark's, an app's, a tool's) reaches the
        // person only neutralised: no control character, newline or forged fence.
        reason: for_person(&verdict.reason),
        risks: verdict.risks.iter().map(risk_out).collect(),
    }
}

fn risk_out(scored: &Scored) -> RiskOut {
    let risk = &scored.risk;
    RiskOut {
        rule: risk.rule.to_string(),
        harm: risk.harm,
        lasting: risk.lasting,
        never: risk.never,
        critical: risk.critical,
        score: scored.score,
        wanted: scored.wanted,
        wish: risk.wish.as_ref().filter(|_| !risk.never).map(wish_text),
        reason: for_person(&risk.reason),
    }
}

/// `force_push: main`, `deploy: production`, `push`.
pub fn wish_text(wish: &Wish) -> String {
    let names: Vec<String> = wish
        .names
        .iter()
        .map(|name| match name {
            Name::AnyOf(options) => options.join(" or "),
            Name::Production => "production".to_string(),
        })
        .collect();
    if names.is_empty() {
        wish.act.name().to_string()
    } else {
        format!("{}: {}", wish.act.name(), names.join(", "))
    }
}

/// Judges one JSON line: the answer line, or an error line naming what was wrong. Total.
pub fn judge_line(line: &str, defaults: &Defaults, facts: &dyn Facts) -> String {
    match judge_value(line, defaults, facts) {
        Ok(answer) => to_line(&answer),
        Err((id, error)) => to_line(&Refusal {
            id,
            error: error.to_string(),
        }),
    }
}

/// Reads one JSON request (a line, or an HTTP body) without judging it: the JSON object as
/// sent, for a host that checks more of it, and the request; or the id and the error. A field
/// of the wrong type is named (`cwd`: invalid type…).
pub fn parse(line: &str) -> Result<(Value, Request), (Value, RequestError)> {
    let value: Value = serde_json::from_str(line)
        .map_err(|e| (Value::Null, RequestError::NotJson(e.to_string())))?;
    let id = value.get("id").cloned().unwrap_or(Value::Null);
    if !value.is_object() {
        return Err((Value::Null, RequestError::NotObject));
    }
    let request: Request = serde_path_to_error::deserialize(&value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let error = if path == "." {
            inner.to_string()
        } else {
            format!("`{path}`: {inner}")
        };
        (id.clone(), RequestError::Invalid(error))
    })?;
    Ok((value, request))
}

/// Judges one JSON line into an answer, or the id and the error.
pub fn judge_value(
    line: &str,
    defaults: &Defaults,
    facts: &dyn Facts,
) -> Result<Answer, (Value, RequestError)> {
    let (_, request) = parse(line)?;
    let (step, ctx) = read_request(&request, defaults).map_err(|e| (request.id.clone(), e))?;
    let verdict = judge(&step, &ctx, facts);
    Ok(answer(request.id, &verdict))
}

fn to_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| {
        // Serialising our own types cannot fail; if it ever does, the answer still asks.
        format!(r#"{{"id":null,"decision":"ask","score":0,"reason":"warden could not write its answer ({e}), so it asks.","risks":[]}}"#)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(tool: &str, input: Value) -> Result<Step, RequestError> {
        let request: Request = serde_json::from_value(serde_json::json!({
            "cwd": "/w",
            "tool_name": tool,
            "tool_input": input,
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        read_request(&request, &Defaults::new("/w")).map(|(step, _)| step)
    }

    #[test]
    fn the_text_editor_tool_views_and_writes_files() {
        use serde_json::json;
        let file = |access: Access, path: &str, text: &str| {
            Step::File(FileStep {
                tool: "str_replace_based_edit_tool".to_string(),
                access,
                path: path.to_string(),
                text: text.to_string(),
            })
        };
        let tool = "str_replace_based_edit_tool";
        assert_eq!(
            step(tool, json!({"command": "view", "path": "/w/a"})).ok(),
            Some(file(Access::Read, "/w/a", ""))
        );
        assert_eq!(
            step(
                tool,
                json!({"command": "create", "path": "/w/a", "file_text": "x"})
            )
            .ok(),
            Some(file(Access::Write, "/w/a", "x"))
        );
        assert_eq!(
            step(
                tool,
                json!({"command": "str_replace", "path": "/w/a", "old_str": "x", "new_str": "y"})
            )
            .ok(),
            Some(file(Access::Write, "/w/a", "y"))
        );
        assert_eq!(
            step(
                tool,
                json!({"command": "insert", "path": "/w/a", "insert_line": 1, "insert_text": "z"})
            )
            .ok(),
            Some(file(Access::Write, "/w/a", "z"))
        );
        // A command it doesn't have, or no path: an error naming the field.
        let wrong = step(tool, json!({"command": "delete", "path": "/w/a"}))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            wrong.contains("tool_input.command") && wrong.contains("`delete`"),
            "{wrong}"
        );
        let missing = step(tool, json!({"command": "view"}))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(missing.contains("tool_input.path"), "{missing}");
    }
}
