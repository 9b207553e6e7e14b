//! A step an agent wants to take, and the chat it comes from.

use crate::mode::Mode;
use serde::{Deserialize, Serialize};

/// One step, normalised once at the edge from a tool call.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// A shell command (`Bash`).
    Command { command: String },
    /// A PowerShell command (`PowerShell`), read by its own reader (`law::powershell`).
    PowerShell { command: String },
    /// A file tool: `Read`, `Glob`, `Grep` read; `Write`, `Edit`, `MultiEdit`, `NotebookEdit` write.
    File(FileStep),
    /// Codex's `apply_patch`: every file the patch adds, updates, deletes or moves, each a
    /// write judged as a file tool's (`crate::patch`). Never empty.
    Patch { tool: String, files: Vec<FileStep> },
    /// A call to an app's tool: a Conch-style app, or a connected app over MCP (`mcp__server__tool`).
    App(AppStep),
    /// `WebFetch` (an address) or `WebSearch` (a query).
    Fetch(FetchStep),
    /// A browser action.
    Browser(BrowserStep),
    /// The agent's own bookkeeping (its to-do list, leaving plan mode, reading a running
    /// command's output, starting a subagent whose steps are each judged): nothing leaves.
    Bookkeeping { tool: String },
    /// Something set to run later by itself, by the agent's host (Claude Code's `CronCreate`,
    /// `ScheduleWakeup`, `RemoteTrigger`): persistence, judged as a schedule is.
    Schedule(ScheduleStep),
    /// A tool the law does not judge: it asks (fail closed).
    Unjudged { tool: String },
}

/// Something an agent's host runs later by itself: a prompt on a timer, a trigger in the
/// cloud.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleStep {
    /// The tool's name as the agent called it (`CronCreate`).
    pub tool: String,
    /// What will run: the prompt, or a trigger's body as text.
    pub prompt: String,
    /// It outlives the session: a durable cron, a trigger kept in the cloud.
    pub lasting: bool,
    /// It runs elsewhere (a remote trigger in the cloud), so it reaches the network.
    pub remote: bool,
}

impl Step {
    /// The tool's name as the agent called it (`Bash`, `Write`, `mcp__github__create_issue`).
    pub fn tool(&self) -> String {
        match self {
            Step::Command { .. } => "Bash".to_string(),
            Step::PowerShell { .. } => "PowerShell".to_string(),
            Step::File(file) => file.tool.clone(),
            Step::Patch { tool, .. } => tool.clone(),
            Step::App(app) => format!("{}:{}", app.app, app.tool),
            Step::Fetch(fetch) => fetch.tool.clone(),
            Step::Browser(_) => "browser".to_string(),
            Step::Schedule(schedule) => schedule.tool.clone(),
            Step::Bookkeeping { tool } | Step::Unjudged { tool } => tool.clone(),
        }
    }
}

/// Reading or changing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// A lookup.
    Read,
    /// A change.
    Write,
}

/// A file tool's step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileStep {
    /// The tool's name as the agent called it (`Write`).
    pub tool: String,
    pub access: Access,
    /// The path it reads or writes (for `Glob`/`Grep`, the folder searched).
    pub path: String,
    /// What a write puts in, as far as the tool says (`Write`'s content, `Edit`'s new
    /// string, `MultiEdit`'s new strings): empty when it doesn't.
    pub text: String,
}

/// Where an app comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// Made by the person in this installation (ownedHere), whatever its chat had read.
    Own,
    /// Added from a file, a link or a repository, or changed from someone else's (basedOn).
    Stranger,
    /// Connected over MCP (GitHub, Notion…).
    #[default]
    Mcp,
}

/// The person's per-tool setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Setting {
    /// Their answer is yes: only the rules judge it.
    Allow,
    /// Keeps asking, in Auto too.
    Ask,
    /// Refused.
    Off,
}

/// A call to an app's tool.
#[derive(Debug, Clone, PartialEq)]
pub struct AppStep {
    /// The app (for MCP, the server's name).
    pub app: String,
    pub tool: String,
    /// Declared lookup or change; `None`: read from the tool's name.
    pub access: Option<Access>,
    pub origin: Origin,
    /// The person's setting for this tool, if they set one.
    pub setting: Option<Setting>,
    /// The sites the app reaches.
    pub sites: Vec<String>,
    /// The arguments, as sent.
    pub arguments: serde_json::Value,
}

/// `WebFetch` or `WebSearch`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchStep {
    pub tool: String,
    /// The address fetched, or the query searched.
    pub target: String,
    /// True for a search query, false for an address.
    pub search: bool,
}

/// What a browser step does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BrowserAction {
    /// Open a page.
    Open,
    Click,
    /// Choose an option.
    Choose,
    /// Type text.
    Type,
    Upload,
    Download,
}

/// A browser step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrowserStep {
    pub action: BrowserAction,
    /// The site (host or address).
    pub site: String,
    /// The visible label clicked or chosen ("Jetzt kaufen").
    pub label: String,
    /// The text typed, for `Type`.
    pub text: String,
    /// The person's own signed-in browser.
    pub own_browser: bool,
}

/// A file an earlier step of the chat saved from a download, or decoded from a blob, where
/// it landed (`curl -o /tmp/i.sh URL`, `… | base64 -d > x.sh`): a later step that runs it
/// runs what was fetched, as a pipe into a shell would have (seed 002: a download run asks
/// unless the person named its host; code from a blob is never theirs to ask for).
///
/// Stored inside a `Vec` in the log (`chat::Event::Judged`): it never grows a field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fetched {
    /// Where it landed, absolute.
    pub path: String,
    /// The host it came from; none: decoded from a blob.
    pub from: Option<String>,
}

/// A file an earlier step of the chat wrote with text that line spelled out, text that asks
/// in any chat were it run (`echo 'rm -rf ~' > /tmp/x`, `cat > run <<EOF … EOF`): a later
/// step that runs it (`sh /tmp/x`, `. /tmp/x`, `chmod +x run && ./run`) runs that text, as the
/// same line writing and running it would. Only a file whose text nothing judged at the write
/// (no program's extension, no `#!` line: those are judged as their interpreter reads them
/// there). Text that asks nothing forgets nothing: a step is judged before it runs, and may
/// not run.
///
/// Stored inside a `Vec` in the log (`chat::Event::Judged`): it never grows a field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Written {
    /// Where it was written, absolute.
    pub path: String,
    /// The rule its text found, as its id (`critical.wipe`).
    pub rule: String,
    /// Why, in warden's words (the risk's reason for the text run as a line).
    pub reason: String,
}

impl Written {
    /// How far no words lift what the text found: the circuit breaker, then what no words
    /// lift, then the rest.
    fn strength(&self) -> u8 {
        use crate::law::rule::{Lift, RuleId};
        match RuleId::parse(&self.rule).map(|rule| rule.rule().lift) {
            Some(Lift::Critical) => 2,
            Some(Lift::Never | Lift::Refused) | None => 1,
            Some(_) => 0,
        }
    }

    /// Whether `other`, kept for the same path, asks more firmly than this: a later write
    /// of a milder text may not have run (`set -C`, the person said no), so the firmer stays.
    pub fn weaker_than(&self, other: &Written) -> bool {
        self.strength() < other.strength()
    }
}

/// What the law knows about the chat a step comes from.
#[derive(Debug, Clone, Default)]
pub struct Context {
    pub mode: Mode,
    /// The work folder.
    pub cwd: String,
    /// The person's own messages, oldest first. Empty when someone else's words are in
    /// the chat: [`Context::owner_words`] enforces it.
    pub said: Vec<String>,
    /// The marks: names of the untrusted sources the chat has read ("a web page",
    /// "GitHub content", "Yazio content"). Empty: nothing read.
    pub read: Vec<String>,
    /// Someone else's words are in the chat.
    pub others: bool,
    /// A skill's list of steps drives the chat.
    pub skill: bool,
    /// Paths refused to the agent's tools in every mode, read and write (warden's own
    /// settings, token and data, and any path the configuration names). Absolute.
    pub protected: std::sync::Arc<[String]>,
    /// A second look (`crate::second_look`) is configured and will see someone else's app
    /// steps after reading; without one, the law asks about them itself (fail closed).
    pub second_look: bool,
    /// The port `warden serve` listens on, when not the default (`law::itself`): a step
    /// naming warden's address is refused.
    pub listen_port: Option<u16>,
    /// Files earlier steps of the chat fetched ([`Fetched`]): running one asks as running a
    /// download does.
    pub fetched: Vec<Fetched>,
    /// Files earlier steps of the chat wrote with text that asks if run ([`Written`]).
    pub written: Vec<Written>,
}

impl Context {
    /// The person's words as the law may count them: none when someone else's words are in
    /// the chat.
    pub fn owner_words(&self) -> &[String] {
        // INVARIANT: someone else's words in the chat make the person's words count for nothing.
        if self.others { &[] } else { &self.said }
    }

    /// Whether the chat counts as having read something untrusted.
    pub fn has_read(&self) -> bool {
        !self.read.is_empty() || self.others
    }

    /// The same chat with the marks an app's own answers left taken out (besides): an app
    /// the person made isn't held back by what it itself answered.
    pub fn besides(&self, app: &str) -> Context {
        let own = app.to_lowercase();
        let mut ctx = self.clone();
        ctx.read.retain(|mark| {
            let mark = mark.to_lowercase();
            !(mark == format!("{own} content")
                || mark == own
                || mark.starts_with(&format!("{own} (")))
        });
        ctx
    }
}
