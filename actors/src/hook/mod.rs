//! `warden hook`: the drop-in Claude Code hook. One hook input on stdin, one answer on stdout
//! in Claude Code's format, exit 0 always. Documented in `docs/hook.md`.
//!
//! Claude Code lets a call through when a hook times out, crashes or exits with an unexpected
//! code, so this never does any of those: every failure (no daemon, a timeout, an error status,
//! an unreadable answer or input, a panic) still answers, and for a step about to run the
//! answer is `ask`, never `allow`.

mod daemon;
mod host;
mod mark;

use daemon::{Autostart, Daemon, segment};
pub use host::Host;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::{Duration, Instant};
use warden::mode::Mode;
use warden_actors::config::{Config, data_dir};

/// The time the hook gives the daemon, from its own start: reading the input, starting a
/// daemon if none answers, and every request. Well under Claude Code's own hook timeout.
pub const BOUND: Duration = Duration::from_secs(4);

/// The last resort: whatever is still running then, the hook answers (as a failure) and exits.
const WATCHDOG: Duration = Duration::from_millis(4_500);

/// The most of the hook input read (a `PostToolUse` carries the tool's whole response).
const MAX_INPUT: u64 = 64 << 20;

/// Claude Code's tools whose permission dialog is the person's own act, not a question about
/// risk: approving the plan that ends plan mode, answering the agent's question. The hook
/// leaves these to Claude Code (`{}`): an `allow` would approve the plan in the person's place.
const THE_PERSON_S_DIALOGS: &[&str] = &["AskUserQuestion", "ExitPlanMode"];

/// Set once the answer is on stdout: nothing else is written after it.
static ANSWERED: AtomicBool = AtomicBool::new(false);

/// The host answered is Codex (`--host codex`, or an input in Codex's shape): its answers
/// are blocks or nothing (`host.rs`).
static CODEX: AtomicBool = AtomicBool::new(false);

/// Whether the host is Codex.
fn codex() -> bool {
    CODEX.load(Ordering::SeqCst)
}

/// What a failure answers, by the event being handled: Claude Code refuses an answer in
/// another event's shape ("Hook returned incorrect event name").
static FAILS_AS: AtomicU8 = AtomicU8::new(FAILS_ASKING);
/// A `PreToolUse`, or an input whose event can't be told at all: a failure asks.
const FAILS_ASKING: u8 = 0;
/// An event that carries no decision (or `PermissionRequest`, whose dialog is the person's):
/// a failure says nothing (`{}`) and writes a line on stderr.
const FAILS_QUIETLY: u8 = 1;
/// `UserPromptSubmit`: words that can't be recorded don't go on as if they were; a failure
/// blocks the prompt and says why.
const FAILS_BLOCKING: u8 = 2;

/// The prompt being handled is someone else's words (a subagent's result), not the person's:
/// a failure to mark it says so.
static SOMEONE_ELSES: AtomicBool = AtomicBool::new(false);

/// How much of an input is searched for its event's name when the input can't be read as
/// JSON (cut short, or garbled): the common fields come first, before any tool's input.
const EVENT_NAME_WITHIN: usize = 16 << 10;

/// Why the hook could not do what the event asked.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    #[error("the hook input could not be read ({0})")]
    Stdin(String),
    #[error("the hook input is empty")]
    Empty,
    #[error("the hook input is not JSON ({0})")]
    NotJson(String),
    #[error("the hook input is not a JSON object")]
    NotObject,
    #[error("the hook input has no `{0}`")]
    Missing(&'static str),
    #[error("`WARDEN_URL` (`{0}`) is not a plain http:// address on this machine")]
    Url(String),
    #[error("no warden daemon answers at {url} ({why})")]
    Unreachable { url: String, why: String },
    #[error("the warden daemon did not answer within {} s", BOUND.as_secs())]
    Timeout,
    #[error("the connection to the warden daemon failed: {0}")]
    Http(String),
    #[error("the warden daemon answered {status}: {message}")]
    Status { status: u16, message: String },
    #[error("the warden daemon's answer could not be read: {0}")]
    Unreadable(String),
    #[error("the person's token could not be read from {path}: {reason}")]
    Token { path: String, reason: String },
    #[error("warden hit an internal error ({0})")]
    Panic(String),
    #[error("warden did not finish within {} s", WATCHDOG.as_secs_f32())]
    Watchdog,
}

/// What the hook prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Nothing decisive: `{}`.
    Nothing,
    /// `PreToolUse`: allow, ask or deny, with warden's reason.
    Pre {
        decision: &'static str,
        reason: String,
    },
    /// `PermissionRequest`: warden's clear answer for Claude Code's question.
    Permission { allow: bool, message: String },
    /// `UserPromptSubmit`: the prompt doesn't go on, and the person reads why.
    Block { reason: String },
}

impl Answer {
    /// Claude Code's JSON for this answer.
    pub fn render(&self) -> String {
        match self {
            Answer::Nothing => "{}".to_string(),
            Answer::Pre { decision, reason } => json!({
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": decision,
                    "permissionDecisionReason": reason,
                }
            })
            .to_string(),
            Answer::Permission { allow: true, .. } => json!({
                "hookSpecificOutput": {
                    "hookEventName": "PermissionRequest",
                    "decision": {"behavior": "allow"},
                }
            })
            .to_string(),
            Answer::Permission {
                allow: false,
                message,
            } => json!({
                "hookSpecificOutput": {
                    "hookEventName": "PermissionRequest",
                    "decision": {"behavior": "deny", "message": message},
                }
            })
            .to_string(),
            Answer::Block { reason } => json!({"decision": "block", "reason": reason}).to_string(),
        }
    }
}

/// The answer when something failed, in the shape of the event being handled: `ask` with the
/// reason for a step (or an input whose event can't be told), a block with the reason for a
/// prompt, `{}` and a line on stderr for anything else.
fn failed(failure: &Failure) -> Answer {
    match FAILS_AS.load(Ordering::SeqCst) {
        FAILS_ASKING if codex() => {
            note(&failure.to_string());
            host::failed_for_codex(&failure.to_string())
        }
        FAILS_ASKING => Answer::Pre {
            decision: "ask",
            reason: format!("warden could not judge this step: {failure}, so it asks."),
        },
        FAILS_BLOCKING => {
            note(&failure.to_string());
            let lost = if SOMEONE_ELSES.load(Ordering::SeqCst) {
                "warden could not mark what this message brings into the chat"
            } else {
                "warden could not record your message"
            };
            Answer::Block {
                reason: format!(
                    "{lost} ({failure}), so it stopped it here: the agent would otherwise go on without warden knowing it (a boundary such as \"don't push yet\" would be lost). Start warden (`warden serve`, or `systemctl --user start warden` where it runs as a service), then send the message again."
                ),
            }
        }
        _ => {
            note(&failure.to_string());
            Answer::Nothing
        }
    }
}

/// What a failure of this event answers.
fn fails_as(event: &str) -> u8 {
    match event {
        "PreToolUse" => FAILS_ASKING,
        "UserPromptSubmit" => FAILS_BLOCKING,
        _ => FAILS_QUIETLY,
    }
}

/// The event an input names in its first bytes (`"hook_event_name": "PreToolUse"`), read
/// without parsing it: for an input cut short or garbled, so that even its failure answers in
/// the event's own shape. Bounded: only the first [`EVENT_NAME_WITHIN`] bytes are searched.
fn event_in_prefix(raw: &[u8]) -> Option<&str> {
    const KEY: &[u8] = b"\"hook_event_name\"";
    let head = raw.get(..raw.len().min(EVENT_NAME_WITHIN))?;
    let at = head.windows(KEY.len()).position(|w| w == KEY)? + KEY.len();
    let rest = head.get(at..)?;
    let rest = rest.get(rest.iter().position(|b| !b.is_ascii_whitespace())?..)?;
    let rest = rest.strip_prefix(b":")?;
    let rest = rest.get(rest.iter().position(|b| !b.is_ascii_whitespace())?..)?;
    let rest = rest.strip_prefix(b"\"")?;
    let end = rest.iter().take(64).position(|b| *b == b'"')?;
    let name = rest.get(..end)?;
    if name.is_empty() || !name.iter().all(u8::is_ascii_alphanumeric) {
        return None;
    }
    std::str::from_utf8(name).ok()
}

/// A line on stderr, `warden hook: …` (never a panic, even when stderr is closed).
fn note(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "warden hook: {line}");
}

/// Writes the answer, once: a panic or the watchdog racing the real answer can't add another.
fn answer_once(answer: &Answer) {
    if ANSWERED.swap(true, Ordering::SeqCst) {
        return;
    }
    let mut out = std::io::stdout().lock();
    // Nobody is left to tell if stdout is closed.
    let _ = writeln!(out, "{}", answer.render());
    let _ = out.flush();
}

/// Runs the hook: reads stdin, answers on stdout, in the shape `host` obeys (when it is
/// not named, the input's shape says). Always exits 0.
pub fn run(host: Option<Host>) -> std::process::ExitCode {
    let started = Instant::now();
    CODEX.store(host == Some(Host::Codex), Ordering::SeqCst);
    std::panic::set_hook(Box::new(|info| {
        let what = info.to_string().replace('\n', " ");
        note(&what);
        answer_once(&failed(&Failure::Panic(what)));
        // Whatever the panic strategy, Claude Code gets the answer above and a 0.
        std::process::exit(0);
    }));
    let deadline = started + BOUND;
    let (tx, rx) = std::sync::mpsc::channel();
    let job = move || {
        let _ = tx.send(work_inline(deadline));
    };
    let answer = match std::thread::Builder::new().spawn(job) {
        Ok(_) => rx
            .recv_timeout(WATCHDOG.saturating_sub(started.elapsed()))
            .unwrap_or_else(|_| failed(&Failure::Watchdog)),
        Err(e) => {
            note(&format!(
                "no thread for the work ({e}); working without the watchdog"
            ));
            work_inline(deadline)
        }
    };
    answer_once(&answer);
    std::process::ExitCode::SUCCESS
}

fn work_inline(deadline: Instant) -> Answer {
    std::panic::catch_unwind(|| work(deadline))
        .unwrap_or_else(|_| failed(&Failure::Panic("a panic was caught".to_string())))
}

/// The hook's work: read the input, do what its event asks, and say what to answer.
fn work(deadline: Instant) -> Answer {
    let input = match read_input() {
        Ok(input) => input,
        Err(failure) => return failed(&failure),
    };
    let event = text(&input, "hook_event_name").unwrap_or_default();
    FAILS_AS.store(fails_as(event), Ordering::SeqCst);
    let named = codex().then_some(Host::Codex);
    if Host::decide(named, Host::of_input(&input)) == Host::Codex {
        CODEX.store(true, Ordering::SeqCst);
    }
    if std::env::var_os("WARDEN_HOOK_TEST_PANIC").is_some_and(|v| v == "1") {
        test_panic();
    }
    let tool = text(&input, "tool_name").unwrap_or_default();
    let outcome = match event {
        "PreToolUse" | "PermissionRequest" if THE_PERSON_S_DIALOGS.contains(&tool) => {
            Ok(Answer::Nothing)
        }
        "PreToolUse" => Call::new(&input, deadline).and_then(|mut call| {
            let (decision, reason, question) = call.judge()?;
            let answer = Answer::Pre { decision, reason };
            Ok(if codex() {
                let question = host::Question {
                    url: call.daemon.url.clone(),
                    chat: call.chat(),
                    id: question,
                };
                host::for_codex(answer, &question)
            } else {
                answer
            })
        }),
        "PermissionRequest" => Call::new(&input, deadline)
            .and_then(|mut call| call.judge_at("/peek"))
            .map(|(decision, reason, _)| match decision {
                "allow" => Answer::Permission {
                    allow: true,
                    message: reason,
                },
                "deny" => Answer::Permission {
                    allow: false,
                    message: reason,
                },
                // Warden asks: Claude Code shows its own dialog to the person.
                _ => Answer::Nothing,
            }),
        "SessionStart" => Call::new(&input, deadline)
            .and_then(|mut call| call.session())
            .map(|()| Answer::Nothing),
        "UserPromptSubmit" => Call::new(&input, deadline)
            .and_then(|mut call| call.said())
            .map(|()| Answer::Nothing),
        "PostToolUse" | "PostToolUseFailure" => Call::new(&input, deadline)
            .and_then(|mut call| call.read())
            .map(|()| Answer::Nothing),
        "PostToolBatch" => Call::new(&input, deadline)
            .and_then(|mut call| call.batch())
            .map(|()| Answer::Nothing),
        "SubagentStart" => Call::new(&input, deadline)
            .and_then(|mut call| call.task())
            .map(|()| Answer::Nothing),
        _ => Ok(Answer::Nothing),
    };
    outcome.unwrap_or_else(|failure| failed(&failure))
}

/// Test-only (documented in `docs/hook.md`): proves that a panic still answers.
#[expect(clippy::panic, reason = "the test of the panic path needs a panic")]
fn test_panic() {
    panic!("WARDEN_HOOK_TEST_PANIC is set");
}

/// Reads the hook input: one JSON object. Before it is parsed, the event its first bytes name
/// decides what a failure answers, so an input cut short still fails in its own event's shape.
fn read_input() -> Result<Value, Failure> {
    let mut raw = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_INPUT)
        .read_to_end(&mut raw)
        .map_err(|e| Failure::Stdin(e.to_string()))?;
    if raw.iter().all(u8::is_ascii_whitespace) {
        return Err(Failure::Empty);
    }
    if let Some(event) = event_in_prefix(&raw) {
        FAILS_AS.store(fails_as(event), Ordering::SeqCst);
    }
    if let Some(Host::Codex) = raw
        .get(..raw.len().min(EVENT_NAME_WITHIN))
        .and_then(Host::of_prefix)
    {
        CODEX.store(true, Ordering::SeqCst);
    }
    let input: Value = serde_json::from_slice(&raw).map_err(|e| Failure::NotJson(e.to_string()))?;
    if !input.is_object() {
        return Err(Failure::NotObject);
    }
    Ok(input)
}

/// A string field of the input, if it is one and isn't empty.
fn text<'a>(input: &'a Value, field: &str) -> Option<&'a str> {
    input
        .get(field)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// One hook call: its input, its chat, and the daemon.
struct Call<'a> {
    input: &'a Value,
    /// `session_id`: the chat.
    session: &'a str,
    /// `agent_id`, in a subagent: the call belongs to the task `{session}.{agent}`.
    agent: Option<&'a str>,
    home: String,
    daemon: Daemon,
}

impl<'a> Call<'a> {
    fn new(input: &'a Value, deadline: Instant) -> Result<Call<'a>, Failure> {
        let session = text(input, "session_id").ok_or(Failure::Missing("session_id"))?;
        let home = std::env::var("HOME").unwrap_or_else(|_| "/".to_string());
        // The configuration's `data` and `listen` are the daemon's: the hook finds the token
        // and the address where `warden serve` put them (WARDEN_DATA and WARDEN_URL win).
        let config = Config::load(None, &home).ok();
        let url = std::env::var("WARDEN_URL")
            .ok()
            .filter(|url| !url.is_empty())
            .or_else(|| {
                config
                    .as_ref()
                    .and_then(|c| c.listen.as_ref())
                    .map(|listen| format!("http://{listen}"))
            })
            .unwrap_or_else(|| daemon::DEFAULT_URL.to_string());
        let data = match (&config, std::env::var_os("WARDEN_DATA")) {
            (_, Some(dir)) if !dir.is_empty() => data_dir(&home),
            (Some(config), _) => config.data_dir(&home),
            (None, _) => data_dir(&home),
        };
        let autostart = if std::env::var_os("WARDEN_NO_AUTOSTART").is_some_and(|v| v == "1") {
            Autostart::Off
        } else if let Some(program) =
            std::env::var_os("WARDEN_HOOK_SERVE").filter(|p| !p.is_empty())
        {
            // Test-only (documented in docs/hook.md): what to start instead of `warden serve`.
            Autostart::Run(program.into())
        } else {
            match std::env::current_exe() {
                Ok(exe) => Autostart::Run(exe),
                Err(_) => Autostart::Off,
            }
        };
        let daemon = Daemon::new(&url, data, autostart, deadline)?;
        Ok(Call {
            input,
            session,
            agent: text(input, "agent_id"),
            home,
            daemon,
        })
    }

    /// The chat this call belongs to.
    fn chat(&self) -> String {
        match self.agent {
            Some(agent) => format!("{}.{agent}", self.session),
            None => self.session.to_string(),
        }
    }

    /// The mode Claude Code's `permission_mode` names, if it names one warden knows.
    fn mode(&self) -> Option<Mode> {
        let raw = text(self.input, "permission_mode")?;
        // Codex sends `bypassPermissions` whenever its approval policy is `never` (which
        // `codex exec` always is): Codex asking nobody, not the person's Full trust. It is
        // read as Codex's `default`, the configured default mode (docs/hook.md, "Codex").
        let raw = if codex() && raw == "bypassPermissions" {
            "default"
        } else {
            raw
        };
        let default_mode = if raw == "default" {
            match Config::load(None, &self.home) {
                Ok(config) => config.defaults(String::new(), &self.home).default_mode,
                Err(e) => {
                    note(&format!("{e:#}; Claude Code's `default` is read as auto"));
                    Mode::Auto
                }
            }
        } else {
            Mode::Auto
        };
        match Mode::parse_with_default(raw, default_mode) {
            Ok(mode) => Some(mode),
            Err(e) => {
                note(&format!("{e}; the chat keeps its mode"));
                None
            }
        }
    }

    /// The mode a chat opens in: Claude Code's, or what its `default` means here when the
    /// input names none (`SessionStart` carries no `permission_mode`).
    fn opening_mode(&self) -> Mode {
        self.mode().unwrap_or_else(|| {
            Config::load(None, &self.home)
                .map(|config| config.defaults(String::new(), &self.home).default_mode)
                .unwrap_or(Mode::Auto)
        })
    }

    /// The chat's state, or `None` when the daemon has recorded nothing in it (`404`).
    fn state_of(&mut self, chat: &str) -> Result<Option<Value>, Failure> {
        let reply = self.daemon.send("GET", &chat_path(chat, ""), None, false)?;
        if reply.status == 404 {
            return Ok(None);
        }
        reply.ok().map(Some)
    }

    /// The chat's state when the daemon knows the chat; when it doesn't, the chat is opened
    /// (or the task created from its chat) and `None` says it is new, in the opening mode.
    fn ready(&mut self, chat: &str) -> Result<Option<Value>, Failure> {
        if let Some(state) = self.state_of(chat)? {
            return Ok(Some(state));
        }
        if chat == self.session {
            self.open(chat)?;
        } else {
            self.ensure(chat)?;
        }
        Ok(None)
    }

    /// Brings the chat's mode in line with Claude Code's, posting a `mode` event only when it
    /// changed (the log gets one event per change, not one per call).
    fn follow_mode(&mut self, chat: &str, state: &Value) -> Result<(), Failure> {
        if let Some(mode) = self.mode()
            && state.get("mode").and_then(Value::as_str) != Some(mode.name())
        {
            self.event(chat, &json!({"kind": "mode", "mode": mode.name()}), true)?;
        }
        Ok(())
    }

    /// Opens a chat with the person alone in it.
    fn open(&mut self, chat: &str) -> Result<(), Failure> {
        let mode = self.opening_mode();
        let body = json!({"mode": mode.name(), "company": "alone"});
        self.daemon
            .send("POST", &chat_path(chat, ""), Some(&body), true)?
            .ok()
            .map(drop)
    }

    /// The chat's state, opening the chat (or creating the task from its chat) when the
    /// daemon doesn't know it.
    fn ensure(&mut self, chat: &str) -> Result<Value, Failure> {
        let reply = self.daemon.send("GET", &chat_path(chat, ""), None, false)?;
        if reply.status != 404 {
            return reply.ok();
        }
        if chat == self.session {
            self.open(chat)?;
        } else {
            let session = self.session;
            self.ensure(session)?;
            let body = json!({"task": chat, "scoped": false});
            self.daemon
                .send("POST", &chat_path(session, "/tasks"), Some(&body), true)?
                .ok()?;
        }
        self.daemon
            .send("GET", &chat_path(chat, ""), None, false)?
            .ok()
    }

    /// Posts an event; a chat the daemon doesn't know is opened first.
    fn event(&mut self, chat: &str, body: &Value, authorized: bool) -> Result<(), Failure> {
        let path = chat_path(chat, "/events");
        let reply = self.daemon.send("POST", &path, Some(body), authorized)?;
        if reply.status == 404 {
            self.ensure(chat)?;
            self.daemon
                .send("POST", &path, Some(body), authorized)?
                .ok()?;
            return Ok(());
        }
        reply.ok().map(drop)
    }

    /// `PreToolUse` and `PermissionRequest`: the chat's mode brought in line with Claude
    /// Code's, then the step judged in the chat. The decision and warden's reason.
    fn judge(&mut self) -> Result<Judged, Failure> {
        self.judge_at("/judge")
    }

    /// The same, through `route`: `/judge` records the step and any question; `/peek`
    /// records nothing (Claude Code's `PermissionRequest` comes after a `PreToolUse` that
    /// already recorded the step, and Claude Code asks the person itself).
    fn judge_at(&mut self, route: &str) -> Result<Judged, Failure> {
        let tool = text(self.input, "tool_name").ok_or(Failure::Missing("tool_name"))?;
        let chat = self.chat();
        let cwd = text(self.input, "cwd")
            .map(str::to_string)
            .unwrap_or_else(|| {
                std::env::current_dir()
                    .map(|dir| dir.display().to_string())
                    .unwrap_or_else(|_| "/".to_string())
            });
        let mut body = json!({
            "tool_name": tool,
            "tool_input": self.input.get("tool_input").cloned().unwrap_or_else(|| json!({})),
            "cwd": cwd,
        });
        if let (Some(id), Some(body)) = (self.input.get("tool_use_id"), body.as_object_mut()) {
            body.insert("id".to_string(), id.clone());
        }
        let path = chat_path(&chat, route);
        match self.mode() {
            // The common case, one round trip: the judge request names the mode Claude Code
            // is in, and the daemon judges only if the chat is in it (opening the session's
            // chat, with the token, when nothing was recorded in it).
            Some(mode) => {
                let authorized = chat == self.session && self.daemon.has_token();
                let expecting = format!("{path}?mode={}", mode.name());
                let reply = self
                    .daemon
                    .send("POST", &expecting, Some(&body), authorized)?;
                match reply.status {
                    // Another mode: the mode event (one per change), then the step.
                    409 => {
                        let event = json!({"kind": "mode", "mode": mode.name()});
                        self.event(&chat, &event, true)?;
                    }
                    // A task nothing was recorded in (or no token to open the chat with):
                    // made as before, then the step.
                    404 => {
                        let state = self.ensure(&chat)?;
                        self.follow_mode(&chat, &state)?;
                    }
                    _ => {
                        let answer = reply.ok()?;
                        if answer.get("mode").and_then(Value::as_str) == Some(mode.name()) {
                            return verdict(answer);
                        }
                        // A daemon older than the precondition judged in the chat's mode as
                        // it stood: that verdict holds only if the chat was in Claude Code's.
                        let state = self.ensure(&chat)?;
                        if state.get("mode").and_then(Value::as_str) == Some(mode.name()) {
                            return verdict(answer);
                        }
                        self.follow_mode(&chat, &state)?;
                    }
                }
            }
            // No mode to follow: the chat as it is (opened when the daemon doesn't know it).
            None => {
                self.ensure(&chat)?;
            }
        }
        verdict(self.daemon.send("POST", &path, Some(&body), false)?.ok()?)
    }

    /// `SessionStart` (a session started, resumed, cleared or compacted): its chat opened, or
    /// brought to Claude Code's mode, so that its first step finds it ready.
    fn session(&mut self) -> Result<(), Failure> {
        let chat = self.chat();
        match self.ready(&chat)? {
            Some(state) => self.follow_mode(&chat, &state),
            None => Ok(()),
        }
    }

    /// `UserPromptSubmit`: the person's own words, in a new turn of their chat. A prompt that
    /// is someone else's words (a finished subagent's result, handed back as a prompt; any
    /// `source` but the person's) is never said: what it brings in marks the chat instead.
    fn said(&mut self) -> Result<(), Failure> {
        let prompt = text(self.input, "prompt").ok_or(Failure::Missing("prompt"))?;
        let theirs = someone_elses(self.input, prompt);
        SOMEONE_ELSES.store(theirs.is_some(), Ordering::SeqCst);
        let chat = self.chat();
        let state = self.ready(&chat)?;
        if let Some(found) = theirs {
            let body = json!({"kind": "read", "name": found.name, "provenance": found.provenance});
            return self.event(&chat, &body, false);
        }
        if let Some(state) = state {
            self.follow_mode(&chat, &state)?;
        }
        // The new turn and the person's words, one batch: no crash leaves one without the
        // other.
        self.event(
            &chat,
            &json!({"kind": "said", "text": prompt, "turn": true}),
            true,
        )
    }

    /// `PostToolUse` and `PostToolUseFailure`: what the call brought in from outside marks
    /// its chat (a failed call too: its input says what it reached), and the call ran, so a
    /// question warden asked about that very call is answered.
    fn read(&mut self) -> Result<(), Failure> {
        let tool = text(self.input, "tool_name").ok_or(Failure::Missing("tool_name"))?;
        let cwd = text(self.input, "cwd").unwrap_or("/");
        let tool_input = self.input.get("tool_input").cloned().unwrap_or_default();
        let marks = mark::marks_of(tool, &tool_input, cwd, &self.home);
        let chat = self.chat();
        // A chat that gets a mark is made first (opened, or created from its chat), so that
        // the mark lands in a chat with the person's mode and company.
        let state = if marks.is_empty() {
            self.state_of(&chat)?
        } else {
            self.ready(&chat)?
        };
        self.mark(&chat, state.as_ref(), marks)?;
        match (state, text(self.input, "tool_use_id")) {
            // Codex has no dialog warden's question reaches: a question about this call was
            // a block, so a call that ran anyway (a failed hook, an older Codex) ran without
            // the person's yes. It is recorded as such, never as their answer.
            (Some(state), Some(id)) if codex() => self.ran_though_blocked(&chat, &state, id),
            (Some(state), Some(id)) => self.ran(&chat, &state, id),
            _ => Ok(()),
        }
    }

    /// `PostToolBatch`: every call of the batch marks the chat as `PostToolUse` does. It
    /// answers no question: a batch lists the calls that were refused too, and only a call
    /// that ran (`PostToolUse`, `PostToolUseFailure`) is one the person let through.
    fn batch(&mut self) -> Result<(), Failure> {
        let calls = self
            .input
            .get("tool_calls")
            .and_then(Value::as_array)
            .ok_or(Failure::Missing("tool_calls"))?;
        let cwd = text(self.input, "cwd").unwrap_or("/");
        let mut marks: Vec<mark::Mark> = Vec::new();
        for call in calls {
            let Some(tool) = call.get("tool_name").and_then(Value::as_str) else {
                continue;
            };
            let tool_input = call.get("tool_input").cloned().unwrap_or_default();
            for found in mark::marks_of(tool, &tool_input, cwd, &self.home) {
                if !marks.contains(&found) && marks.len() < BATCH_MARKS {
                    marks.push(found);
                }
            }
        }
        if marks.is_empty() {
            return Ok(());
        }
        let chat = self.chat();
        let state = self.ready(&chat)?;
        self.mark(&chat, state.as_ref(), marks)
    }

    /// Posts the marks the chat doesn't carry yet (`PostToolUse` and `PostToolBatch` name the
    /// same calls): to its chat, and in a subagent to the session's chat too, which gets the
    /// subagent's answer.
    fn mark(
        &mut self,
        chat: &str,
        state: Option<&Value>,
        marks: Vec<mark::Mark>,
    ) -> Result<(), Failure> {
        let carried = |found: &mark::Mark| {
            state
                .and_then(|state| state.get("marks"))
                .and_then(Value::as_array)
                .is_some_and(|marks| {
                    marks.iter().any(|m| {
                        m.get("name").and_then(Value::as_str) == Some(found.name.as_str())
                            && m.get("provenance").and_then(Value::as_str)
                                == Some(found.provenance.as_str())
                    })
                })
        };
        let mut chats = vec![chat.to_string()];
        if self.agent.is_some() {
            chats.push(self.session.to_string());
        }
        for found in marks.iter().filter(|found| !carried(found)) {
            let body = json!({"kind": "read", "name": found.name, "provenance": found.provenance});
            for chat in &chats {
                self.event(chat, &body, false)?;
            }
        }
        Ok(())
    }

    /// The call ran: if warden had asked about it, the person let it through in Claude Code's
    /// dialog, and their yes answers warden's question about that call (by its
    /// `tool_use_id`, which the judge request sent as `id`), once: the question is no longer
    /// pending, and the behaviour watch counts what the step did. Never a question about
    /// another call, nor "the newest of this tool": a question whose call never ran (refused
    /// in the dialog, or denied without one in `-p` and the SDK) waits.
    fn ran(&mut self, chat: &str, state: &Value, id: &str) -> Result<(), Failure> {
        if let Some(question) = question_about(state, id) {
            let path = chat_path(chat, &format!("/questions/{question}"));
            let reply = self.daemon.send(
                "POST",
                &path,
                Some(&json!({"answer": "once", "ran": id})),
                true,
            )?;
            // Answered meanwhile (409) or gone (404): nothing is left to do.
            if !matches!(reply.status, 404 | 409) {
                reply.ok()?;
            }
        }
        Ok(())
    }

    /// Codex ran a call warden had blocked (its question about the call waits): the chat is
    /// marked with it (no token: a mark only adds caution), and the question keeps waiting.
    fn ran_though_blocked(&mut self, chat: &str, state: &Value, id: &str) -> Result<(), Failure> {
        let Some(question) = question_about(state, id) else {
            return Ok(());
        };
        note(&format!(
            "Codex ran the call `{id}` although warden blocked it (question {question}); recorded as a step that ran without the person's yes"
        ));
        let body = json!({
            "kind": "read",
            "name": BLOCKED_BUT_RAN,
            "provenance": format!("Codex call {} (question {question})", id.chars().take(128).collect::<String>()),
        });
        self.event(chat, &body, false)
    }

    /// `SubagentStart`: the task `{session}.{agent}`, created from the session's chat.
    fn task(&mut self) -> Result<(), Failure> {
        let agent = self.agent.ok_or(Failure::Missing("agent_id"))?;
        let session = self.session;
        self.ensure(session)?;
        let body = json!({"task": format!("{session}.{agent}"), "scoped": false});
        self.daemon
            .send("POST", &chat_path(session, "/tasks"), Some(&body), true)?
            .ok()
            .map(drop)
    }
}

/// The mark a chat gets when Codex ran a call warden had blocked.
pub const BLOCKED_BUT_RAN: &str = "a step warden blocked ran anyway";

/// The newest question waiting about the call `id` (its `tool_use_id`), if any.
fn question_about(state: &Value, id: &str) -> Option<u64> {
    state
        .get("pending")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|pending| {
            pending
                .get("steps")
                .and_then(Value::as_array)
                .is_some_and(|steps| steps.iter().any(|s| s.as_str() == Some(id)))
        })
        .filter_map(|pending| pending.get("id").and_then(Value::as_u64))
        .max()
}

/// A judged step: the decision, warden's reason, and the question it asks (when it does).
type Judged = (&'static str, String, Option<u64>);

/// The decision of the judge route's answer, warden's reason, and the question's id.
fn verdict(answer: Value) -> Result<Judged, Failure> {
    let decision = match answer.get("decision").and_then(Value::as_str) {
        Some("allow") => "allow",
        Some("ask") => "ask",
        Some("deny") => "deny",
        Some(other) => {
            return Err(Failure::Unreadable(format!(
                "its decision is `{other}`, not allow, ask or deny"
            )));
        }
        None => {
            return Err(Failure::Unreadable("it has no decision".to_string()));
        }
    };
    let reason = answer
        .get("reason")
        .and_then(Value::as_str)
        .filter(|r| !r.is_empty())
        .map(str::to_string)
        .unwrap_or_else(|| format!("warden's decision: {decision}."));
    let question = answer.get("question").and_then(Value::as_u64);
    Ok((decision, reason, question))
}

/// The most marks one `PostToolBatch` adds.
const BATCH_MARKS: usize = 16;

/// What a prompt brings in when it is someone else's words, not the person's: a finished
/// subagent's result (`<task-notification>…<result>…</result>…</task-notification>`, which
/// Claude Code hands back as a prompt), or any prompt whose `source` is not the person's
/// (`user`, typed; `sdk`, sent with `-p` or the Agent SDK). None for the person's own words.
fn someone_elses(input: &Value, prompt: &str) -> Option<mark::Mark> {
    let body = prompt.trim_start();
    if body.starts_with("<task-notification>") || body.starts_with("<task-notification ") {
        let task = body
            .get(..body.len().min(4096))
            .and_then(|head| head.split_once("<task-id>"))
            .and_then(|(_, rest)| rest.split_once("</task-id>"))
            .map(|(id, _)| id.trim())
            .filter(|id| !id.is_empty() && id.len() <= 128 && !id.contains(char::is_control));
        return Some(mark::Mark {
            name: "a subagent's result".to_string(),
            provenance: match task {
                Some(task) => format!("task-notification {task}"),
                None => "task-notification".to_string(),
            },
        });
    }
    match text(input, "source") {
        None | Some("user" | "sdk") => None,
        Some(source) => Some(mark::Mark {
            name: "a prompt the person did not type".to_string(),
            provenance: format!(
                "UserPromptSubmit from `{}`",
                source.chars().take(64).collect::<String>()
            ),
        }),
    }
}

/// `/v1/chats/{chat}{rest}`.
fn chat_path(chat: &str, rest: &str) -> String {
    format!("/v1/chats/{}{rest}", segment(chat))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_claude_code_s_shapes() {
        let table = [
            (Answer::Nothing, json!({})),
            (
                Answer::Pre {
                    decision: "deny",
                    reason: "No.".into(),
                },
                json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                    "permissionDecision": "deny", "permissionDecisionReason": "No."}}),
            ),
            (
                Answer::Permission {
                    allow: true,
                    message: "fine".into(),
                },
                json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                    "decision": {"behavior": "allow"}}}),
            ),
            (
                Answer::Permission {
                    allow: false,
                    message: "No.".into(),
                },
                json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                    "decision": {"behavior": "deny", "message": "No."}}}),
            ),
            (
                Answer::Block {
                    reason: "Start warden.".into(),
                },
                json!({"decision": "block", "reason": "Start warden."}),
            ),
        ];
        for (answer, want) in table {
            let got: Value = serde_json::from_str(&answer.render())
                .unwrap_or_else(|e| panic!("{answer:?}: {e}"));
            assert_eq!(got, want, "{answer:?}");
        }
    }

    #[test]
    fn the_event_is_read_from_the_first_bytes_of_an_input_cut_short() {
        let long = format!(
            r#"{{"cwd": "{}", "hook_event_name": "PreToolUse"}}"#,
            "x".repeat(EVENT_NAME_WITHIN)
        );
        let table: [(&[u8], Option<&str>); 8] = [
            (
                br#"{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"don't pu"#,
                Some("UserPromptSubmit"),
            ),
            (
                b"{\"hook_event_name\" :\n \"PostToolUse\", \"tool_response\": {\"a\": [1, 2",
                Some("PostToolUse"),
            ),
            (br#"{"hook_event_name":"PermissionRequest"#, None),
            (br#"{"hook_event_name": 5}"#, None),
            (br#"{"hook_event_name": "Pre Tool"}"#, None),
            (b"not json at all", None),
            (b"", None),
            (long.as_bytes(), None),
        ];
        for (raw, want) in table {
            assert_eq!(
                event_in_prefix(raw),
                want,
                "{}",
                String::from_utf8_lossy(raw)
            );
        }
    }

    #[test]
    fn only_the_person_s_own_prompts_are_theirs() {
        let notification = "\n <task-notification>\n<task-id>a4caf0e9</task-id>\n<status>completed</status>\n<result>push to main now</result>\n</task-notification>";
        let table = [
            (json!({}), "don't push yet", None),
            (json!({"source": "user"}), "don't push yet", None),
            (json!({"source": "sdk"}), "don't push yet", None),
            (
                json!({}),
                notification,
                Some(("a subagent's result", "task-notification a4caf0e9")),
            ),
            (
                json!({"source": "user"}),
                notification,
                Some(("a subagent's result", "task-notification a4caf0e9")),
            ),
            (
                json!({}),
                "<task-notification><result>x</result></task-notification>",
                Some(("a subagent's result", "task-notification")),
            ),
            (
                json!({"source": "system"}),
                "push it",
                Some((
                    "a prompt the person did not type",
                    "UserPromptSubmit from `system`",
                )),
            ),
            (
                json!({"source": "schedule_wakeup"}),
                "push it",
                Some((
                    "a prompt the person did not type",
                    "UserPromptSubmit from `schedule_wakeup`",
                )),
            ),
            // A prompt that only mentions the envelope is the person's.
            (json!({}), "what does <task-notification> mean?", None),
        ];
        for (input, prompt, want) in table {
            let got = someone_elses(&input, prompt);
            assert_eq!(
                got.as_ref()
                    .map(|m| (m.name.as_str(), m.provenance.as_str())),
                want,
                "{input} {prompt:?}"
            );
        }
    }
}
