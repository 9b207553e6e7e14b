//! `warden hook` end to end: recorded Claude Code hook inputs (`tests/hook/*.json`) through the
//! real binary, against a stub daemon on loopback that records what it is sent and answers
//! canned JSON, garbage, an error, half an answer, or nothing at all.

use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The real `warden serve`, for the tests that need the daemon's own side.
use crate::common;

const SESSION: &str = "9f1c2b7e-4d3a-4e8b-a1f0-6c2d8e9b7a15";
const AGENT: &str = "a7c41e9d";
const TOKEN: &str = "5f2a9c0e4b7d1f8a3c6e9b2d5f8a1c4e7b0d3f6a9c2e5b8d1f4a7c0e3b6d9f2a";

/// The hook's own bound (4 s) and a margin for a loaded machine.
const ANSWERS_WITHIN: Duration = Duration::from_secs(6);

// ---------------------------------------------------------------------------------------
// The stub daemon.

/// One request the stub received.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    path: String,
    authorization: Option<String>,
    body: Value,
}

impl Seen {
    fn route(&self) -> String {
        format!("{} {}", self.method, self.path)
    }
}

/// What the stub does with a request.
#[derive(Clone)]
enum Behaviour {
    /// A small fake of the daemon: chats with a mode, tasks, events, the token, and this
    /// answer to every judge request.
    Daemon(Value),
    /// This status and body to everything.
    Status(u16, &'static str),
    /// These bytes, then close.
    Raw(&'static [u8]),
    /// Read the request, then hold the connection open and say nothing.
    Silent,
}

/// One chat of the fake daemon: its mode, its marks and its waiting questions.
#[derive(Debug, Clone, Default)]
struct FakeChat {
    mode: String,
    marks: Vec<Value>,
    /// `{"id", "tool", "steps"}`, as `GET /v1/chats/{chat}` shows them.
    pending: Vec<Value>,
}

/// The fake daemon's state.
#[derive(Debug, Default)]
struct Fake {
    chats: HashMap<String, FakeChat>,
    /// The next question's id.
    next_question: u64,
    /// A daemon older than the judge route's `?mode=`: it ignores the precondition.
    ignores_mode: bool,
}

struct Stub {
    addr: SocketAddr,
    seen: Arc<Mutex<Vec<Seen>>>,
    fake: Arc<Mutex<Fake>>,
}

impl Stub {
    fn start(behaviour: Behaviour) -> Stub {
        let listener =
            TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("bind the stub: {e}"));
        Stub::serve(listener, behaviour)
    }

    fn serve(listener: TcpListener, behaviour: Behaviour) -> Stub {
        let addr = listener
            .local_addr()
            .unwrap_or_else(|e| panic!("stub address: {e}"));
        let stub = Stub {
            addr,
            seen: Arc::new(Mutex::new(Vec::new())),
            fake: Arc::new(Mutex::new(Fake {
                next_question: 7,
                ..Fake::default()
            })),
        };
        let (seen, fake) = (stub.seen.clone(), stub.fake.clone());
        // The thread lives as long as the test process: nothing waits for it.
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (seen, fake, behaviour) = (seen.clone(), fake.clone(), behaviour.clone());
                std::thread::spawn(move || answer(stream, &behaviour, &seen, &fake));
            }
        });
        stub
    }

    fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().map(|s| s.clone()).unwrap_or_default()
    }

    fn routes(&self) -> Vec<String> {
        self.seen().iter().map(Seen::route).collect()
    }

    /// Opens a chat in the fake daemon, as if an earlier hook had.
    fn open(&self, chat: &str, mode: &str) {
        if let Ok(mut fake) = self.fake.lock() {
            fake.chats.insert(
                chat.to_string(),
                FakeChat {
                    mode: mode.to_string(),
                    ..FakeChat::default()
                },
            );
        }
    }

    /// Behaves as a daemon older than the judge route's `?mode=`.
    fn ignore_mode(&self) {
        if let Ok(mut fake) = self.fake.lock() {
            fake.ignores_mode = true;
        }
    }

    fn mode(&self, chat: &str) -> Option<String> {
        self.fake
            .lock()
            .ok()
            .and_then(|f| f.chats.get(chat).map(|c| c.mode.clone()))
    }

    /// A mark the chat carries already, as if an earlier hook had posted it.
    fn marked(&self, chat: &str, name: &str, provenance: &str) {
        if let Ok(mut fake) = self.fake.lock()
            && let Some(chat) = fake.chats.get_mut(chat)
        {
            chat.marks
                .push(json!({"name": name, "provenance": provenance}));
        }
    }

    /// A question waiting in the chat about the step with this id, as if an earlier hook's
    /// judge request had asked it; its id.
    fn asked(&self, chat: &str, tool: &str, step: &str) -> u64 {
        let Ok(mut fake) = self.fake.lock() else {
            panic!("poisoned")
        };
        let question = fake.next_question;
        fake.next_question += 1;
        if let Some(chat) = fake.chats.get_mut(chat) {
            chat.pending
                .push(json!({"id": question, "tool": tool, "steps": [step]}));
        }
        question
    }

    /// The ids of the questions waiting in the chat.
    fn pending(&self, chat: &str) -> Vec<u64> {
        self.fake
            .lock()
            .ok()
            .and_then(|f| {
                f.chats
                    .get(chat)
                    .map(|c| c.pending.iter().filter_map(|p| p["id"].as_u64()).collect())
            })
            .unwrap_or_default()
    }
}

/// Reads one request: method, path, headers, body.
fn read_request(stream: &mut TcpStream) -> Option<Seen> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).to_string();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let (method, path) = (first.next()?.to_string(), first.next()?.to_string());
    let mut length = 0;
    let mut authorization = None;
    for line in lines {
        let (name, value) = line.split_once(':')?;
        if name.eq_ignore_ascii_case("content-length") {
            length = value.trim().parse().ok()?;
        } else if name.eq_ignore_ascii_case("authorization") {
            authorization = Some(value.trim().to_string());
        }
    }
    let mut body = buffer[head_end + 4..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    let body = if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&body).unwrap_or(Value::String("<not JSON>".to_string()))
    };
    Some(Seen {
        method,
        path,
        authorization,
        body,
    })
}

fn answer(
    mut stream: TcpStream,
    behaviour: &Behaviour,
    seen: &Mutex<Vec<Seen>>,
    fake: &Mutex<Fake>,
) {
    let Some(request) = read_request(&mut stream) else {
        return;
    };
    if let Ok(mut seen) = seen.lock() {
        seen.push(request.clone());
    }
    let (status, body) = match behaviour {
        Behaviour::Silent => {
            std::thread::sleep(Duration::from_secs(30));
            return;
        }
        Behaviour::Raw(bytes) => {
            let _ = stream.write_all(bytes);
            return;
        }
        Behaviour::Status(status, body) => (*status, body.to_string()),
        Behaviour::Daemon(judged) => daemon(&request, judged, fake),
    };
    let reply = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(reply.as_bytes());
}

/// The fake daemon: the routes of `docs/protocol.md` the hook uses.
fn daemon(request: &Seen, judged: &Value, fake: &Mutex<Fake>) -> (u16, String) {
    let error = |status: u16, text: &str| (status, json!({ "error": text }).to_string());
    let (path, query) = request
        .path
        .split_once('?')
        .unwrap_or((request.path.as_str(), ""));
    let Some(rest) = path.strip_prefix("/v1/chats/") else {
        return error(404, "no such route");
    };
    // The judge route's precondition: the mode the chat must be in.
    let expected = query
        .split('&')
        .find_map(|pair| pair.strip_prefix("mode="))
        .map(str::to_string);
    let (chat, tail) = match rest.split_once('/') {
        Some((chat, tail)) => (chat.to_string(), tail.to_string()),
        None => (rest.to_string(), String::new()),
    };
    let Ok(mut fake) = fake.lock() else {
        return error(500, "poisoned");
    };
    let expected = expected.filter(|_| !fake.ignores_mode);
    let needs_token = match (request.method.as_str(), tail.as_str()) {
        ("POST", "") | ("POST", "tasks") => true,
        ("POST", tail) if tail.starts_with("questions/") => true,
        ("POST", "events") => {
            let kind = request.body.get("kind").and_then(Value::as_str);
            matches!(kind, Some("said" | "turn" | "mode" | "stopped"))
        }
        _ => false,
    };
    if needs_token {
        match request.authorization.as_deref() {
            None => return error(401, "the token is missing"),
            Some(value) if value != format!("Bearer {TOKEN}") => {
                return error(403, "the token is wrong");
            }
            Some(_) => {}
        }
    }
    let ok = || (200, json!({"ok": true}).to_string());
    match (request.method.as_str(), tail.as_str()) {
        ("GET", "") => match fake.chats.get(&chat) {
            Some(state) => (
                200,
                json!({"mode": state.mode, "company": "alone", "marks": state.marks,
                       "pending": state.pending, "turn": 1, "stopped": false})
                .to_string(),
            ),
            None => error(404, "no such chat"),
        },
        ("POST", "") => {
            let mode = request.body["mode"].as_str().unwrap_or("auto").to_string();
            fake.chats.entry(chat).or_insert(FakeChat {
                mode,
                ..FakeChat::default()
            });
            ok()
        }
        ("POST", "tasks") => {
            let Some(mode) = fake.chats.get(&chat).map(|c| c.mode.clone()) else {
                return error(404, "no such chat");
            };
            let task = request.body["task"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            fake.chats.insert(
                task,
                FakeChat {
                    mode,
                    ..FakeChat::default()
                },
            );
            ok()
        }
        ("POST", "events") => {
            let Some(state) = fake.chats.get_mut(&chat) else {
                return error(404, "no such chat");
            };
            if let Some(mode) = request.body.get("mode").and_then(Value::as_str) {
                state.mode = mode.to_string();
            }
            if request.body["kind"] == "read" {
                let mark =
                    json!({"name": request.body["name"], "provenance": request.body["provenance"]});
                if !state.marks.contains(&mark) {
                    state.marks.push(mark);
                }
            }
            ok()
        }
        // The judge route, and its look that records nothing (PermissionRequest's).
        ("POST", route @ ("judge" | "peek")) => {
            if let Some(mode) = &expected {
                match fake.chats.get(&chat) {
                    None if request.authorization.is_none() => {
                        return error(404, "nothing was recorded in the chat");
                    }
                    None if request.authorization != Some(format!("Bearer {TOKEN}")) => {
                        return error(403, "the token is wrong");
                    }
                    None => {
                        fake.chats.insert(
                            chat.clone(),
                            FakeChat {
                                mode: mode.clone(),
                                ..FakeChat::default()
                            },
                        );
                    }
                    Some(state) if &state.mode != mode => {
                        return error(409, "the chat is in another mode");
                    }
                    Some(_) => {}
                }
            }
            for field in ["said", "read", "others", "mode", "permission_mode"] {
                if request.body.get(field).is_some() {
                    return error(
                        400,
                        &format!("`{field}` is an event, not part of a judge request"),
                    );
                }
            }
            let mut answer = judged.clone();
            answer["id"] = request.body.get("id").cloned().unwrap_or(Value::Null);
            if let Some(mode) = &expected {
                answer["mode"] = json!(mode);
            }
            if answer["decision"] == "ask" && route == "judge" {
                // The question is kept with the step's id, as the daemon keeps it.
                let question = fake.next_question;
                fake.next_question += 1;
                let steps: Vec<Value> = request.body.get("id").into_iter().cloned().collect();
                if let Some(state) = fake.chats.get_mut(&chat) {
                    state.pending.push(
                        json!({"id": question, "tool": request.body["tool_name"], "steps": steps}),
                    );
                }
                answer["question"] = json!(question);
            } else {
                answer["question"] = Value::Null;
            }
            (200, answer.to_string())
        }
        ("POST", tail) if tail.starts_with("questions/") => {
            let question: Option<u64> =
                tail.strip_prefix("questions/").and_then(|q| q.parse().ok());
            let Some(state) = fake.chats.get_mut(&chat) else {
                return error(404, "no such chat");
            };
            let before = state.pending.len();
            state.pending.retain(|p| p["id"].as_u64() != question);
            if state.pending.len() == before {
                return error(404, "no such question is waiting");
            }
            ok()
        }
        _ => error(404, "no such route"),
    }
}

fn judged(decision: &str, reason: &str) -> Value {
    json!({
        "id": null, "decision": decision, "score": 3, "reason": reason, "risks": [],
        "question": if decision == "ask" { json!(7) } else { Value::Null },
        "offers": {"always": false, "everywhere": false, "rule": null},
    })
}

// ---------------------------------------------------------------------------------------
// Running the hook.

/// A data folder with the person's token, and a home with no configuration.
struct Place {
    dir: tempfile::TempDir,
}

impl Place {
    fn new() -> Place {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        std::fs::create_dir_all(dir.path().join("data")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.path().join("data/token"), format!("{TOKEN}\n"))
            .unwrap_or_else(|e| panic!("write the token: {e}"));
        Place { dir }
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// `warden hook`, with the daemon at `url` and nothing started when it doesn't answer.
    fn hook(&self, url: &str) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_warden"));
        command
            .arg("hook")
            .env("WARDEN_URL", url)
            .env("WARDEN_DATA", self.data())
            .env("WARDEN_NO_AUTOSTART", "1")
            .env("HOME", self.dir.path())
            .env_remove("WARDEN_CONFIG")
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("WARDEN_HOOK_SERVE")
            .env_remove("WARDEN_HOOK_TEST_PANIC");
        command
    }
}

/// What one run of the hook gave.
struct Run {
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

impl Run {
    /// Stdout as JSON: exactly one line holding one object.
    fn json(&self) -> Value {
        let lines: Vec<&str> = self.stdout.lines().collect();
        assert_eq!(lines.len(), 1, "one answer line, got {:?}", self.stdout);
        serde_json::from_str(lines[0])
            .unwrap_or_else(|e| panic!("the answer is not JSON ({e}): {}", self.stdout))
    }

    /// Asserts the answer is `ask` with a reason naming `why`.
    fn asks_because(&self, why: &str) {
        let answer = self.json();
        let output = &answer["hookSpecificOutput"];
        assert_eq!(output["hookEventName"], "PreToolUse", "{answer}");
        assert_eq!(output["permissionDecision"], "ask", "{answer}");
        let reason = output["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default();
        assert!(
            reason.starts_with("warden could not judge this step: "),
            "{reason}"
        );
        assert!(
            reason.contains(why),
            "the reason should name `{why}`: {reason}"
        );
        assert_eq!(
            answer.as_object().map(|o| o.len()),
            Some(1),
            "nothing but hookSpecificOutput: {answer}"
        );
        assert!(self.elapsed < ANSWERS_WITHIN, "took {:?}", self.elapsed);
    }
}

fn run(mut command: Command, input: &[u8]) -> Run {
    let started = Instant::now();
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn warden hook: {e}"));
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
    stdin
        .write_all(input)
        .unwrap_or_else(|e| panic!("write stdin: {e}"));
    drop(stdin);
    let output = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("wait: {e}"));
    let run = Run {
        stdout: String::from_utf8_lossy(&output.stdout).to_string(),
        stderr: String::from_utf8_lossy(&output.stderr).to_string(),
        elapsed: started.elapsed(),
    };
    assert_eq!(
        output.status.code(),
        Some(0),
        "warden hook must exit 0; stdout {:?} stderr {:?}",
        run.stdout,
        run.stderr
    );
    run
}

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/hook")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A fixture with some fields changed.
fn fixture_with(name: &str, changes: Value) -> Vec<u8> {
    let mut input: Value = serde_json::from_slice(&fixture(name))
        .unwrap_or_else(|e| panic!("{name} is not JSON: {e}"));
    if let (Some(input), Some(changes)) = (input.as_object_mut(), changes.as_object()) {
        for (key, value) in changes {
            input.insert(key.clone(), value.clone());
        }
    }
    input.to_string().into_bytes()
}

fn bearer() -> Option<String> {
    Some(format!("Bearer {TOKEN}"))
}

// ---------------------------------------------------------------------------------------
// The answers, in Claude Code's format.

#[test]
fn pre_tool_use_answers_allow_ask_and_deny_in_claude_code_s_format() {
    let cases = [
        ("allow", "Pushing main, which you asked for."),
        ("ask", "Force-push over main, which others share."),
        (
            "deny",
            "The data folder is warden's own. Ask the person to do it themselves.",
        ),
    ];
    for (decision, reason) in cases {
        let place = Place::new();
        let stub = Stub::start(Behaviour::Daemon(judged(decision, reason)));
        stub.open(SESSION, "auto");
        let answer = run(place.hook(&stub.url()), &fixture("pre_tool_use.json")).json();
        assert_eq!(
            answer,
            json!({"hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": decision,
                "permissionDecisionReason": reason,
            }}),
            "{decision}"
        );
    }
}

#[test]
fn pre_tool_use_opens_the_chat_then_judges_without_the_person_s_words() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("ask", "Force-push over main.")));
    let out = run(place.hook(&stub.url()), &fixture("pre_tool_use.json"));
    assert_eq!(
        out.json()["hookSpecificOutput"]["permissionDecision"],
        "ask"
    );
    let chat = format!("/v1/chats/{SESSION}");
    // One round trip: the judge request names the mode (Claude Code's `default` is Auto)
    // and carries the token, with which the daemon opens a chat nothing was recorded in.
    assert_eq!(stub.routes(), vec![format!("POST {chat}/judge?mode=auto")]);
    assert_eq!(stub.mode(SESSION).as_deref(), Some("auto"));
    let seen = stub.seen();
    assert_eq!(seen[0].authorization, bearer());
    assert_eq!(
        seen[0].body,
        json!({
            "tool_name": "Bash",
            "tool_input": {
                "command": "git push --force origin main",
                "description": "Force-push the rebased branch to main",
            },
            "cwd": "/home/dev/project",
            "id": "toolu_01HxQ7b3V9mYk2R4sLpT8wNe",
        })
    );
}

#[test]
fn pre_tool_use_brings_the_chat_s_mode_in_line_with_claude_code_s_only_when_it_changed() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged(
        "deny",
        "Plan only changes nothing.",
    )));
    stub.open(SESSION, "auto");
    let chat = format!("/v1/chats/{SESSION}");
    let first = run(place.hook(&stub.url()), &fixture("pre_tool_use_plan.json"));
    assert_eq!(
        first.json()["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
    assert_eq!(
        stub.routes(),
        vec![
            // The judge request names the mode; the chat is in another (409): the mode
            // event, then the step.
            format!("POST {chat}/judge?mode=plan_only"),
            format!("POST {chat}/events"),
            format!("POST {chat}/judge"),
        ]
    );
    let seen = stub.seen();
    assert_eq!(seen[1].body, json!({"kind": "mode", "mode": "plan_only"}));
    assert_eq!(seen[1].authorization, bearer());
    assert_eq!(stub.mode(SESSION).as_deref(), Some("plan_only"));
    // The same mode again: read, not written.
    run(place.hook(&stub.url()), &fixture("pre_tool_use_plan.json"));
    assert_eq!(
        stub.routes()[3..],
        [format!("POST {chat}/judge?mode=plan_only")]
    );
}

#[test]
fn a_daemon_older_than_the_mode_precondition_still_judges_in_claude_code_s_mode() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("deny", "Plan only.")));
    stub.ignore_mode();
    stub.open(SESSION, "auto");
    let chat = format!("/v1/chats/{SESSION}");
    let out = run(place.hook(&stub.url()), &fixture("pre_tool_use_plan.json"));
    assert_eq!(
        out.json()["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
    // No mode in the answer: the chat is read, and was in another mode, so the step is
    // judged again once the mode event is in.
    assert_eq!(
        stub.routes(),
        vec![
            format!("POST {chat}/judge?mode=plan_only"),
            format!("GET {chat}"),
            format!("POST {chat}/events"),
            format!("POST {chat}/judge"),
        ]
    );
    assert_eq!(stub.mode(SESSION).as_deref(), Some("plan_only"));
    // In the same mode, the first verdict stands.
    run(place.hook(&stub.url()), &fixture("pre_tool_use_plan.json"));
    assert_eq!(
        stub.routes()[4..],
        [
            format!("POST {chat}/judge?mode=plan_only"),
            format!("GET {chat}")
        ]
    );
}

#[test]
fn claude_code_s_default_mode_follows_the_configured_default_mode() {
    let place = Place::new();
    let config = place.dir.path().join("config.toml");
    std::fs::write(&config, "default_mode = \"ask_first\"\n").unwrap_or_else(|e| panic!("{e}"));
    let stub = Stub::start(Behaviour::Daemon(judged("ask", "Every change asks.")));
    stub.open(SESSION, "auto");
    let mut hook = place.hook(&stub.url());
    hook.env("WARDEN_CONFIG", &config);
    run(hook, &fixture("pre_tool_use.json"));
    let seen = stub.seen();
    assert_eq!(seen[1].body, json!({"kind": "mode", "mode": "ask_first"}));
}

#[test]
fn a_subagent_s_call_belongs_to_its_task_created_from_the_chat() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "Reading a page.")));
    stub.open(SESSION, "edit_freely");
    let out = run(
        place.hook(&stub.url()),
        &fixture("pre_tool_use_subagent.json"),
    );
    assert_eq!(
        out.json()["hookSpecificOutput"]["permissionDecision"],
        "allow"
    );
    let chat = format!("/v1/chats/{SESSION}");
    let task = format!("/v1/chats/{SESSION}.{AGENT}");
    assert_eq!(
        stub.routes(),
        vec![
            // A task is created from its chat, never opened: no token, so a 404.
            format!("POST {task}/judge?mode=edit_freely"),
            format!("GET {task}"),
            format!("GET {chat}"),
            format!("POST {chat}/tasks"),
            format!("GET {task}"),
            format!("POST {task}/judge"),
        ]
    );
    let seen = stub.seen();
    assert_eq!(seen[0].authorization, None);
    assert_eq!(
        seen[3].body,
        json!({"task": format!("{SESSION}.{AGENT}"), "scoped": false})
    );
    assert_eq!(seen[3].authorization, bearer());
    assert_eq!(seen[5].body["id"], "toolu_01Ps9Lm4Tz6Rb8Cv2Nq5Wx1E");
    // The task exists now: one round trip.
    run(
        place.hook(&stub.url()),
        &fixture("pre_tool_use_subagent.json"),
    );
    assert_eq!(
        stub.routes()[6..],
        [format!("POST {task}/judge?mode=edit_freely")]
    );
}

#[test]
fn subagent_start_creates_the_task_from_the_chat() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    stub.open(SESSION, "auto");
    let out = run(place.hook(&stub.url()), &fixture("subagent_start.json"));
    assert_eq!(out.json(), json!({}));
    let chat = format!("/v1/chats/{SESSION}");
    assert_eq!(
        stub.routes(),
        vec![format!("GET {chat}"), format!("POST {chat}/tasks")]
    );
    let seen = stub.seen();
    assert_eq!(
        seen[1].body,
        json!({"task": format!("{SESSION}.{AGENT}"), "scoped": false})
    );
    assert_eq!(seen[1].authorization, bearer());
    assert_eq!(
        stub.mode(&format!("{SESSION}.{AGENT}")).as_deref(),
        Some("auto")
    );
}

#[test]
fn user_prompt_submit_records_the_person_s_words_and_lets_the_prompt_go_on() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    let out = run(place.hook(&stub.url()), &fixture("user_prompt_submit.json"));
    assert_eq!(out.json(), json!({}));
    let chat = format!("/v1/chats/{SESSION}");
    // A chat the daemon doesn't know is opened first.
    assert_eq!(
        stub.routes(),
        vec![
            format!("GET {chat}"),
            format!("POST {chat}"),
            format!("POST {chat}/events"),
        ]
    );
    let seen = stub.seen();
    assert_eq!(seen[0].authorization, None);
    assert!(
        seen[1..].iter().all(|s| s.authorization == bearer()),
        "{seen:?}"
    );
    assert_eq!(seen[1].body, json!({"mode": "auto", "company": "alone"}));
    // The new turn and the words in one request, recorded as one batch.
    assert_eq!(
        seen[2].body,
        json!({"kind": "said", "text": "Rebase on main, run the tests, and force-push main when they pass.", "turn": true})
    );
    // An open chat is not opened again: the turn and the words, and nothing else.
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    stub.open(SESSION, "auto");
    run(place.hook(&stub.url()), &fixture("user_prompt_submit.json"));
    assert_eq!(
        stub.routes(),
        vec![format!("GET {chat}"), format!("POST {chat}/events")]
    );
}

#[test]
fn post_tool_use_marks_the_chat_with_what_came_from_outside() {
    let cases = [
        (
            "post_tool_use_web_fetch.json",
            json!({"kind": "read", "name": "a web page", "provenance": "https://github.com/serde-rs/json/issues/1000"}),
        ),
        (
            "post_tool_use_mcp.json",
            json!({"kind": "read", "name": "github content", "provenance": "github/get_issue"}),
        ),
        (
            "post_tool_use_bash_curl.json",
            json!({"kind": "read", "name": "a web page", "provenance": "https://raw.githubusercontent.com/o/r/main/install.md"}),
        ),
    ];
    for (name, want) in cases {
        let place = Place::new();
        let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
        stub.open(SESSION, "auto");
        let out = run(place.hook(&stub.url()), &fixture(name));
        assert_eq!(out.json(), json!({}), "{name}");
        let seen = stub.seen();
        // The chat's state (its marks, its questions), then the mark.
        assert_eq!(
            stub.routes(),
            vec![
                format!("GET /v1/chats/{SESSION}"),
                format!("POST /v1/chats/{SESSION}/events"),
            ],
            "{name}"
        );
        assert_eq!(seen[1].body, want, "{name}");
        // Marks only add caution: they need no token, and get none.
        assert_eq!(seen[1].authorization, None, "{name}");
    }
}

#[test]
fn post_tool_use_of_what_is_inside_the_work_folder_marks_nothing() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    let out = run(
        place.hook(&stub.url()),
        &fixture("post_tool_use_read_inside.json"),
    );
    assert_eq!(out.json(), json!({}));
    // No mark; only the look for a waiting question (the stub knows no such chat).
    assert_eq!(
        stub.routes(),
        vec![format!("GET /v1/chats/{SESSION}")],
        "{:?}",
        stub.routes()
    );
}

#[test]
fn post_tool_use_in_a_subagent_marks_its_task_and_the_chat_it_answers_to() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    stub.open(SESSION, "auto");
    stub.open(&format!("{SESSION}.{AGENT}"), "auto");
    let out = run(
        place.hook(&stub.url()),
        &fixture("post_tool_use_read_outside_subagent.json"),
    );
    assert_eq!(out.json(), json!({}));
    assert_eq!(
        stub.routes(),
        vec![
            format!("GET /v1/chats/{SESSION}.{AGENT}"),
            format!("POST /v1/chats/{SESSION}.{AGENT}/events"),
            format!("POST /v1/chats/{SESSION}/events"),
        ]
    );
    let want = json!({"kind": "read", "name": "a file outside the work folder", "provenance": "/tmp/downloads/README.md"});
    assert!(
        stub.seen()
            .iter()
            .filter(|s| s.method == "POST")
            .all(|s| s.body == want),
        "{:?}",
        stub.seen()
    );
}

#[test]
fn permission_request_answers_warden_s_clear_verdicts_and_leaves_questions_to_the_person() {
    let cases = [
        (
            "allow",
            json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}),
        ),
        (
            "deny",
            json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "warden's reason."}}}),
        ),
        ("ask", json!({})),
    ];
    for (decision, want) in cases {
        let place = Place::new();
        let stub = Stub::start(Behaviour::Daemon(judged(decision, "warden's reason.")));
        stub.open(SESSION, "auto");
        let out = run(place.hook(&stub.url()), &fixture("permission_request.json"));
        assert_eq!(out.json(), want, "{decision}");
        let seen = stub.seen();
        // Claude Code asks the person itself, after a PreToolUse that already recorded the
        // step: the hook only peeks, so one step never leaves two questions.
        assert!(seen.iter().all(|s| !s.path.contains("/judge")), "{seen:?}");
        let judge = seen
            .iter()
            .find(|s| s.path.ends_with("/peek?mode=auto"))
            .unwrap_or_else(|| panic!("no peek request: {seen:?}"));
        assert_eq!(
            judge.body,
            json!({"tool_name": "Bash", "tool_input": {"command": "npm test", "description": "Run the test suite"}, "cwd": "/home/dev/project"})
        );
    }
}

#[test]
fn the_person_s_own_dialogs_are_left_to_claude_code() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    for event in ["PreToolUse", "PermissionRequest"] {
        let input = fixture_with(
            "pre_tool_use_exit_plan_mode.json",
            json!({ "hook_event_name": event }),
        );
        let out = run(place.hook(&stub.url()), &input);
        assert_eq!(out.json(), json!({}), "{event}");
    }
    assert!(stub.routes().is_empty(), "{:?}", stub.routes());
}

#[test]
fn an_event_the_hook_has_nothing_to_say_about_answers_nothing() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    for event in [
        "Stop",
        "SubagentStop",
        "Notification",
        "PreCompact",
        "SessionEnd",
    ] {
        let input = fixture_with("session_start.json", json!({ "hook_event_name": event }));
        let out = run(place.hook(&stub.url()), &input);
        assert_eq!(out.json(), json!({}), "{event}");
    }
    assert!(stub.routes().is_empty(), "{:?}", stub.routes());
}

// ---------------------------------------------------------------------------------------
// Every failure answers, and a step asks.

/// A port nothing listens on.
fn closed_port() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("bind: {e}"));
    listener
        .local_addr()
        .unwrap_or_else(|e| panic!("address: {e}"))
}

#[test]
fn no_daemon_listening_asks() {
    let place = Place::new();
    let url = format!("http://{}", closed_port());
    let out = run(place.hook(&url), &fixture("pre_tool_use.json"));
    out.asks_because("no warden daemon answers at");
    assert!(out.stderr.is_empty() || out.stderr.contains("warden hook"));
}

#[test]
fn a_daemon_that_never_answers_asks_within_the_bound() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Silent);
    let out = run(place.hook(&stub.url()), &fixture("pre_tool_use.json"));
    out.asks_because("did not answer within 4 s");
    assert!(
        out.elapsed >= Duration::from_millis(3_900),
        "it waited its bound: {:?}",
        out.elapsed
    );
}

#[test]
fn an_error_status_asks() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Status(500, r#"{"error":"the log failed"}"#));
    run(place.hook(&stub.url()), &fixture("pre_tool_use.json"))
        .asks_because("answered 500: the log failed");
}

#[test]
fn garbage_asks() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Raw(b"SSH-2.0-OpenSSH_9.6\r\n"));
    run(place.hook(&stub.url()), &fixture("pre_tool_use.json")).asks_because("not valid HTTP");
    let stub = Stub::start(Behaviour::Raw(
        b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nnot json!",
    ));
    run(place.hook(&stub.url()), &fixture("pre_tool_use.json")).asks_because("not JSON");
}

#[test]
fn a_truncated_answer_asks() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Raw(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 120\r\n\r\n{\"mode\":\"auto\",\"comp",
    ));
    run(place.hook(&stub.url()), &fixture("pre_tool_use.json"))
        .asks_because("closed before the answer was complete");
}

#[test]
fn a_judge_answer_without_a_decision_asks() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(json!({"id": null, "reason": "?"})));
    stub.open(SESSION, "auto");
    run(place.hook(&stub.url()), &fixture("pre_tool_use.json")).asks_because("no decision");
    let stub = Stub::start(Behaviour::Daemon(judged("maybe", "?")));
    stub.open(SESSION, "auto");
    run(place.hook(&stub.url()), &fixture("pre_tool_use.json")).asks_because("`maybe`");
}

#[test]
fn unreadable_input_asks() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    run(place.hook(&stub.url()), b"").asks_because("the hook input is empty");
    run(place.hook(&stub.url()), b"this is not json").asks_because("not JSON");
    run(place.hook(&stub.url()), b"[1, 2]").asks_because("not a JSON object");
    run(
        place.hook(&stub.url()),
        &fixture("pre_tool_use_no_tool_name.json"),
    )
    .asks_because("no `tool_name`");
    run(
        place.hook(&stub.url()),
        &fixture_with("pre_tool_use.json", json!({"session_id": null})),
    )
    .asks_because("no `session_id`");
    // None of these reached the daemon with a step to judge.
    assert!(
        stub.routes().iter().all(|r| !r.ends_with("/judge")),
        "{:?}",
        stub.routes()
    );
}

#[test]
fn a_missing_or_wrong_token_asks() {
    let place = Place::new();
    std::fs::remove_file(place.data().join("token")).unwrap_or_else(|e| panic!("{e}"));
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    run(place.hook(&stub.url()), &fixture("pre_tool_use.json"))
        .asks_because("the person's token could not be read");
    std::fs::write(place.data().join("token"), "0000\n").unwrap_or_else(|e| panic!("{e}"));
    run(place.hook(&stub.url()), &fixture("pre_tool_use.json"))
        .asks_because("answered 403: the token is wrong");
}

#[test]
fn a_bad_warden_url_asks() {
    let place = Place::new();
    for url in [
        "https://127.0.0.1:7411",
        "http://192.0.2.1:7411",
        "nonsense",
    ] {
        run(place.hook(url), &fixture("pre_tool_use.json"))
            .asks_because("is not a plain http:// address on this machine");
    }
}

#[test]
fn a_panic_still_asks() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    let mut hook = place.hook(&stub.url());
    hook.env("WARDEN_HOOK_TEST_PANIC", "1");
    let out = run(hook, &fixture("pre_tool_use.json"));
    out.asks_because("warden hit an internal error");
    assert!(
        out.stderr.contains("WARDEN_HOOK_TEST_PANIC"),
        "{}",
        out.stderr
    );
}

#[test]
fn other_events_fail_quietly_with_a_line_on_stderr() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Status(500, r#"{"error":"the log failed"}"#));
    for name in [
        "post_tool_use_web_fetch.json",
        "post_tool_use_failure.json",
        "post_tool_batch.json",
        "session_start.json",
        "subagent_start.json",
        "permission_request.json",
    ] {
        let out = run(place.hook(&stub.url()), &fixture(name));
        assert_eq!(out.json(), json!({}), "{name}");
        assert!(
            out.stderr
                .contains("warden hook: the warden daemon answered 500"),
            "{name}: {}",
            out.stderr
        );
    }
    let mut hook = place.hook(&stub.url());
    hook.env("WARDEN_HOOK_TEST_PANIC", "1");
    let out = run(hook, &fixture("permission_request.json"));
    assert_eq!(out.json(), json!({}));
}

// ---------------------------------------------------------------------------------------
// Starting the daemon.

/// A stand-in for `warden serve`: writes its arguments where the test can see them, then
/// runs `then` (`exec sleep 5`: a daemon that stays; `exit 3`: one that fails at once).
fn fake_serve(place: &Place, then: &str) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let marker = place.dir.path().join("started");
    let script = place.dir.path().join("fake-serve");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"$@\" > '{0}.tmp'\nmv '{0}.tmp' '{0}'\n{then}\n",
            marker.display()
        ),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .unwrap_or_else(|e| panic!("{e}"));
    (script, marker)
}

/// `warden hook` with autostart on, starting `script`.
fn autostarting(place: &Place, url: &str, script: &Path) -> Command {
    let mut hook = place.hook(url);
    hook.env_remove("WARDEN_NO_AUTOSTART")
        .env("WARDEN_HOOK_SERVE", script);
    hook
}

#[test]
fn when_no_daemon_answers_one_is_started_and_the_hook_waits_for_it() {
    let place = Place::new();
    let addr = closed_port();
    let (script, marker) = fake_serve(&place, "exec sleep 5");
    // When the stand-in says it started, a daemon comes up on the port the hook tries.
    let watched = marker.clone();
    let daemon = std::thread::spawn(move || {
        let until = Instant::now() + ANSWERS_WITHIN;
        while !watched.exists() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        let listener = TcpListener::bind(addr).unwrap_or_else(|e| panic!("rebind {addr}: {e}"));
        let stub = Stub::serve(listener, Behaviour::Daemon(judged("allow", "Fine.")));
        stub.open(SESSION, "auto");
        stub
    });
    let out = run(
        autostarting(&place, &format!("http://{addr}"), &script),
        &fixture("pre_tool_use.json"),
    );
    let stub = daemon
        .join()
        .unwrap_or_else(|_| panic!("the daemon thread"));
    assert_eq!(
        out.json()["hookSpecificOutput"]["permissionDecision"],
        "allow",
        "{} {}",
        out.stdout,
        out.stderr
    );
    assert!(out.elapsed < ANSWERS_WITHIN, "took {:?}", out.elapsed);
    let args = std::fs::read_to_string(&marker).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        args.trim(),
        format!("serve --data {} --listen {addr}", place.data().display())
    );
    assert!(!stub.routes().is_empty());
}

#[test]
fn a_daemon_that_does_not_come_up_asks_within_the_bound() {
    let place = Place::new();
    let (script, marker) = fake_serve(&place, "exec sleep 6");
    let url = format!("http://{}", closed_port());
    let out = run(
        autostarting(&place, &url, &script),
        &fixture("pre_tool_use.json"),
    );
    out.asks_because("a daemon was started but did not answer in time");
    assert!(marker.exists(), "the start was attempted");
    // Its output goes to the data folder's log.
    assert!(place.data().join("serve.log").exists());
}

#[test]
fn a_daemon_that_exits_at_once_asks_at_once_and_points_at_its_log() {
    let place = Place::new();
    let (script, marker) = fake_serve(
        &place,
        "echo 'warden: the configuration is not valid' >&2; exit 3",
    );
    let url = format!("http://{}", closed_port());
    let out = run(
        autostarting(&place, &url, &script),
        &fixture("pre_tool_use.json"),
    );
    out.asks_because("exited at once (exit status: 3), see ");
    assert!(
        out.elapsed < Duration::from_secs(2),
        "took {:?}",
        out.elapsed
    );
    assert!(marker.exists(), "the start was attempted");
    let log = std::fs::read_to_string(place.data().join("serve.log")).unwrap_or_default();
    assert!(log.contains("the configuration is not valid"), "{log}");
    // A second hook moments later doesn't start another one: it waits for the first.
    std::fs::remove_file(&marker).unwrap_or_else(|e| panic!("{e}"));
    let out = run(
        autostarting(&place, &url, &script),
        &fixture("subagent_start.json"),
    );
    assert_eq!(out.json(), json!({}));
    assert!(!marker.exists(), "no second start within 5 s");
}

// ---------------------------------------------------------------------------------------
// The person's words, and words that aren't theirs.

#[test]
fn the_first_prompt_on_a_fresh_data_folder_is_recorded_by_the_daemon_the_hook_starts() {
    let place = Place::new();
    // A fresh data folder: no token until the daemon the hook starts makes one.
    std::fs::remove_dir_all(place.data()).unwrap_or_else(|e| panic!("{e}"));
    let addr = closed_port();
    let (script, marker) = fake_serve(&place, "exec sleep 5");
    let (watched, data) = (marker.clone(), place.data());
    let daemon = std::thread::spawn(move || {
        let until = Instant::now() + ANSWERS_WITHIN;
        while !watched.exists() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        // As `warden serve` does: the token first, then the port.
        std::fs::write(data.join("token"), TOKEN).unwrap_or_else(|e| panic!("token: {e}"));
        let listener = TcpListener::bind(addr).unwrap_or_else(|e| panic!("rebind {addr}: {e}"));
        Stub::serve(listener, Behaviour::Daemon(judged("allow", "")))
    });
    let input = fixture_with(
        "user_prompt_submit.json",
        json!({"prompt": "don't push yet"}),
    );
    let out = run(
        autostarting(&place, &format!("http://{addr}"), &script),
        &input,
    );
    let stub = daemon
        .join()
        .unwrap_or_else(|_| panic!("the daemon thread"));
    assert_eq!(out.json(), json!({}), "{}", out.stderr);
    let said: Vec<Seen> = stub
        .seen()
        .into_iter()
        .filter(|s| s.body["kind"] == "said")
        .collect();
    assert_eq!(said.len(), 1, "{:?}", stub.routes());
    assert_eq!(said[0].body["text"], "don't push yet");
    assert_eq!(said[0].authorization, bearer());
}

#[test]
fn a_subagent_s_result_handed_back_as_a_prompt_marks_the_chat_and_is_never_said() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    stub.open(SESSION, "auto");
    let out = run(
        place.hook(&stub.url()),
        &fixture("user_prompt_submit_task_notification.json"),
    );
    assert_eq!(out.json(), json!({}));
    let chat = format!("/v1/chats/{SESSION}");
    assert_eq!(
        stub.routes(),
        vec![format!("GET {chat}"), format!("POST {chat}/events")]
    );
    let seen = stub.seen();
    assert_eq!(
        seen[1].body,
        json!({"kind": "read", "name": "a subagent's result", "provenance": "task-notification a4caf0e9f4337a749"})
    );
    // Neither a turn nor the person's words: no token is sent at all.
    assert!(seen.iter().all(|s| s.authorization.is_none()), "{seen:?}");
    // The envelope after whitespace, or with a `source` that says user, is the same.
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    stub.open(SESSION, "auto");
    let input = fixture_with(
        "user_prompt_submit_task_notification.json",
        json!({"prompt": "\n  <task-notification><result>push now</result></task-notification>", "source": "user"}),
    );
    run(place.hook(&stub.url()), &input);
    assert!(
        stub.seen()
            .iter()
            .all(|s| s.body["kind"] != "said" && s.body["kind"] != "turn"),
        "{:?}",
        stub.seen()
    );
}

#[test]
fn a_prompt_from_any_source_but_the_person_is_not_their_words() {
    for (source, said) in [
        ("user", true),
        ("sdk", true),
        ("system", false),
        ("loop_wakeup", false),
        ("schedule_wakeup", false),
        ("poll_event", false),
    ] {
        let place = Place::new();
        let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
        stub.open(SESSION, "auto");
        let input = fixture_with(
            "user_prompt_submit.json",
            json!({"prompt": "push it to main", "source": source}),
        );
        assert_eq!(run(place.hook(&stub.url()), &input).json(), json!({}));
        let kinds: Vec<Value> = stub
            .seen()
            .iter()
            .filter(|s| s.method == "POST")
            .map(|s| s.body["kind"].clone())
            .collect();
        if said {
            assert_eq!(kinds, vec![json!("said")], "{source}");
        } else {
            assert_eq!(kinds, vec![json!("read")], "{source}");
            let read = &stub.seen()[1].body;
            assert_eq!(read["name"], "a prompt the person did not type", "{source}");
            assert_eq!(
                read["provenance"],
                format!("UserPromptSubmit from `{source}`"),
                "{source}"
            );
        }
    }
}

#[test]
fn a_prompt_whose_words_cannot_be_recorded_is_blocked_with_the_way_to_start_warden() {
    let place = Place::new();
    let url = format!("http://{}", closed_port());
    let out = run(place.hook(&url), &fixture("user_prompt_submit.json"));
    let answer = out.json();
    assert_eq!(answer["decision"], "block", "{answer}");
    let reason = answer["reason"].as_str().unwrap_or_default();
    for needed in [
        "warden could not record your message",
        "no warden daemon answers at",
        "don't push yet",
        "warden serve",
        "send the message again",
    ] {
        assert!(reason.contains(needed), "`{needed}` in {reason}");
    }
    assert!(out.stderr.contains("warden hook: "), "{}", out.stderr);
    // A daemon that fails, and a subagent's result that can't be marked, block too.
    let stub = Stub::start(Behaviour::Status(500, r#"{"error":"the log failed"}"#));
    let out = run(place.hook(&stub.url()), &fixture("user_prompt_submit.json"));
    assert_eq!(out.json()["decision"], "block");
    let out = run(
        place.hook(&stub.url()),
        &fixture("user_prompt_submit_task_notification.json"),
    );
    let answer = out.json();
    assert_eq!(answer["decision"], "block");
    assert!(
        answer["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("warden could not mark what this message brings")),
        "{answer}"
    );
}

// ---------------------------------------------------------------------------------------
// Tools that failed, batches, and the questions a call answers.

#[test]
fn a_failed_tool_marks_the_chat_and_answers_the_question_about_it() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    stub.open(SESSION, "auto");
    let question = stub.asked(SESSION, "Bash", "toolu_01Ta4Ub6Vc8Wd1Xe3Yf5Zg7H");
    let out = run(
        place.hook(&stub.url()),
        &fixture("post_tool_use_failure.json"),
    );
    assert_eq!(out.json(), json!({}));
    let chat = format!("/v1/chats/{SESSION}");
    assert_eq!(
        stub.routes(),
        vec![
            format!("GET {chat}"),
            format!("POST {chat}/events"),
            format!("POST {chat}/questions/{question}"),
        ]
    );
    let seen = stub.seen();
    assert_eq!(
        seen[1].body,
        json!({"kind": "read", "name": "a web page", "provenance": "https://raw.githubusercontent.com/o/r/main/INSTALL.md"})
    );
    // The step that ran answers its own question, and says it was the step.
    assert_eq!(
        seen[2].body,
        json!({"answer": "once", "ran": "toolu_01Ta4Ub6Vc8Wd1Xe3Yf5Zg7H"})
    );
    assert_eq!(seen[2].authorization, bearer());
    assert!(stub.pending(SESSION).is_empty());
}

#[test]
fn a_batch_marks_what_its_calls_brought_in_once_and_answers_no_question() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    stub.open(SESSION, "auto");
    // The batch lists the push that was refused: its question waits.
    let question = stub.asked(SESSION, "Bash", "toolu_01HxQ7b3V9mYk2R4sLpT8wNe");
    let out = run(place.hook(&stub.url()), &fixture("post_tool_batch.json"));
    assert_eq!(out.json(), json!({}));
    let chat = format!("/v1/chats/{SESSION}");
    assert_eq!(
        stub.routes(),
        vec![format!("GET {chat}"), format!("POST {chat}/events")]
    );
    assert_eq!(
        stub.seen()[1].body,
        json!({"kind": "read", "name": "a web page", "provenance": "https://github.com/serde-rs/json/issues/1000"})
    );
    assert_eq!(stub.pending(SESSION), vec![question]);
    // PostToolUse marked the same call already: the batch adds nothing.
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    stub.open(SESSION, "auto");
    stub.marked(
        SESSION,
        "a web page",
        "https://github.com/serde-rs/json/issues/1000",
    );
    run(place.hook(&stub.url()), &fixture("post_tool_batch.json"));
    assert_eq!(stub.routes(), vec![format!("GET {chat}")]);
}

#[test]
fn a_question_is_answered_only_by_the_step_it_asks_about() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("ask", "Force-push over main.")));
    stub.open(SESSION, "auto");
    // PreToolUse asks; the judge request carries the call's id, kept with the question.
    let pre = fixture("pre_tool_use.json");
    let out = run(place.hook(&stub.url()), &pre);
    assert_eq!(
        out.json()["hookSpecificOutput"]["permissionDecision"],
        "ask"
    );
    let waiting = stub.pending(SESSION);
    assert_eq!(waiting.len(), 1);
    // In -p the ask became a denial and the call never ran; a later run of the same tool,
    // another call, answers nothing.
    let other = json!({
        "session_id": SESSION, "cwd": "/home/dev/project", "permission_mode": "default",
        "hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_input": {"command": "git status"}, "tool_response": {"stdout": ""},
        "tool_use_id": "toolu_01Zz9Yy8Xx7Ww6Vv5Uu4Tt3S",
    });
    run(place.hook(&stub.url()), other.to_string().as_bytes());
    assert_eq!(stub.pending(SESSION), waiting, "answered by another call");
    // A call with no id answers nothing either.
    let mut no_id = other.clone();
    no_id.as_object_mut().map(|o| o.remove("tool_use_id"));
    run(place.hook(&stub.url()), no_id.to_string().as_bytes());
    assert_eq!(stub.pending(SESSION), waiting);
    // The call itself ran: its question is answered once.
    let mut ran = other.clone();
    ran["tool_input"] = json!({"command": "git push --force origin main"});
    ran["tool_use_id"] = json!("toolu_01HxQ7b3V9mYk2R4sLpT8wNe");
    run(place.hook(&stub.url()), ran.to_string().as_bytes());
    assert!(stub.pending(SESSION).is_empty());
    let answers: Vec<Seen> = stub
        .seen()
        .into_iter()
        .filter(|s| s.path.contains("/questions/"))
        .collect();
    assert_eq!(answers.len(), 1, "{:?}", stub.routes());
    assert_eq!(
        answers[0].path,
        format!("/v1/chats/{SESSION}/questions/{}", waiting[0])
    );
}

#[test]
fn the_daemon_keeps_a_question_with_its_step_through_a_restart() {
    let place = common::Place::new();
    let serve = place.serve();
    let work = place.work();
    let push = |event: &str, id: &str| {
        common::fixture(
            "pre_tool_use_push.json",
            &json!({"cwd": work, "hook_event_name": event, "tool_use_id": id,
                    "tool_input": {"command": "git push --force origin main"},
                    "tool_response": {"stdout": ""}}),
        )
    };
    let asked = common::hook(&place, &serve.url(), &push("PreToolUse", "toolu_asked"));
    assert_eq!(asked.decision().0, "ask");
    let session = push("PreToolUse", "")["session_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let pending = common::chat(&serve, &session)["pending"].clone();
    assert_eq!(pending[0]["steps"], json!(["toolu_asked"]), "{pending}");
    // A kill -9 and a new daemon: the log's replay keeps the step with its question.
    serve.kill_9();
    let serve = place.serve();
    let pending = common::chat(&serve, &session)["pending"].clone();
    assert_eq!(pending[0]["steps"], json!(["toolu_asked"]), "{pending}");
    common::hook(&place, &serve.url(), &push("PostToolUse", "toolu_other")).recorded();
    assert_eq!(common::chat(&serve, &session)["pending"], pending);
    common::hook(&place, &serve.url(), &push("PostToolUse", "toolu_asked")).recorded();
    assert_eq!(common::chat(&serve, &session)["pending"], json!([]));
}

// ---------------------------------------------------------------------------------------
// What warden knows of Claude Code's tools, through the real daemon.

#[test]
fn claude_code_s_current_tools_are_judged_by_what_they_do() {
    let place = common::Place::new();
    let serve = place.serve();
    let work = place.work();
    let step = |tool: &str, input: Value| {
        let input = common::fixture(
            "pre_tool_use_push.json",
            &json!({"cwd": work, "tool_name": tool, "tool_input": input}),
        );
        common::hook(&place, &serve.url(), &input).decision()
    };
    for (tool, input) in [
        ("ToolSearch", json!({"query": "select:WebFetch"})),
        ("ListAgents", json!({})),
        ("TaskList", json!({})),
        (
            "TaskCreate",
            json!({"subject": "Fix it", "description": "The test"}),
        ),
        ("TaskStop", json!({"task_id": "b1"})),
        ("TaskOutput", json!({"task_id": "b1"})),
        (
            "LSP",
            json!({"operation": "hover", "filePath": "src/main.rs", "line": 1, "character": 1}),
        ),
        (
            "Agent",
            json!({"description": "d", "prompt": "look", "subagent_type": "Explore"}),
        ),
        ("Workflow", json!({"name": "review"})),
        ("ReportFindings", json!({"findings": []})),
        ("EnterWorktree", json!({"name": "fix"})),
        (
            "ScheduleWakeup",
            json!({"delaySeconds": 60, "reason": "CI", "prompt": "/loop check"}),
        ),
        (
            "SendMessage",
            json!({"to": "researcher", "message": "look at the login test"}),
        ),
        (
            "MultiEdit",
            json!({"file_path": format!("{work}/a.rs"), "edits": []}),
        ),
    ] {
        let (decision, reason) = step(tool, input);
        assert_eq!(decision, "allow", "{tool}: {reason}");
    }
    // A tool warden doesn't know still asks.
    let (decision, reason) = step("Config", json!({"setting": "x"}));
    assert_eq!(decision, "ask");
    assert!(reason.contains("not judged yet"), "{reason}");
    // warden's own variables name warden itself, in the shell and in file tools.
    for (tool, input) in [
        ("Bash", json!({"command": "cat $WARDEN_DATA/token"})),
        ("Bash", json!({"command": "cat \"${WARDEN_DATA}/token\""})),
        (
            "Bash",
            json!({"command": "curl -s \"$WARDEN_URL/v1/preferences\""}),
        ),
        ("Read", json!({"file_path": "$WARDEN_DATA/token"})),
        (
            "Write",
            json!({"file_path": "${WARDEN_CONFIG}", "content": "x"}),
        ),
    ] {
        let (decision, reason) = step(tool, input.clone());
        assert_eq!(decision, "deny", "{tool} {input}: {reason}");
        assert!(reason.contains("warden's own setting $WARDEN_"), "{reason}");
    }
}

// ---------------------------------------------------------------------------------------
// A failure answers in the shape of its event.

#[test]
fn a_failure_answers_in_the_shape_of_the_event_it_handles() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Status(500, r#"{"error":"the log failed"}"#));
    for (name, shape) in [
        ("pre_tool_use.json", "PreToolUse"),
        ("user_prompt_submit.json", "block"),
        ("session_start.json", "{}"),
        ("permission_request.json", "{}"),
        ("post_tool_use_web_fetch.json", "{}"),
        ("post_tool_use_failure.json", "{}"),
        ("post_tool_batch.json", "{}"),
        ("subagent_start.json", "{}"),
    ] {
        let whole = fixture(name);
        // The whole input, and the same cut short (its last bytes gone: not JSON).
        for input in [&whole[..], &whole[..whole.len() - 4]] {
            let out = run(place.hook(&stub.url()), input);
            let answer = out.json();
            match shape {
                "PreToolUse" => assert_eq!(
                    answer["hookSpecificOutput"]["hookEventName"], "PreToolUse",
                    "{name}: {answer}"
                ),
                "block" => assert_eq!(answer["decision"], "block", "{name}: {answer}"),
                _ => assert_eq!(answer, json!({}), "{name}: {answer}"),
            }
        }
    }
    // An input whose event can't be read at all could be a step about to run: it asks.
    run(
        place.hook(&stub.url()),
        b"{\"session_id\": \"s\", \"tool_na",
    )
    .asks_because("not JSON");
}

// ---------------------------------------------------------------------------------------
// SessionStart and the modes.

#[test]
fn session_start_opens_the_chat_so_its_first_step_costs_fewer_round_trips() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "Fine.")));
    let out = run(place.hook(&stub.url()), &fixture("session_start.json"));
    assert_eq!(out.json(), json!({}));
    let chat = format!("/v1/chats/{SESSION}");
    assert_eq!(
        stub.routes(),
        vec![format!("GET {chat}"), format!("POST {chat}")]
    );
    // No `permission_mode` in SessionStart: Claude Code's default, here Auto.
    assert_eq!(
        stub.seen()[1].body,
        json!({"mode": "auto", "company": "alone"})
    );
    assert_eq!(stub.seen()[1].authorization, bearer());
    run(place.hook(&stub.url()), &fixture("pre_tool_use.json"));
    // The chat is open, in the mode the step names: one round trip.
    assert_eq!(stub.routes()[2..], [format!("POST {chat}/judge?mode=auto")]);
}

#[test]
fn session_start_brings_a_resumed_chat_to_claude_code_s_mode() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    stub.open(SESSION, "auto");
    for (source, mode, want) in [
        ("resume", "plan", Some("plan_only")),
        ("compact", "plan", None),
        ("clear", "acceptEdits", Some("edit_freely")),
        ("resume", "bypassPermissions", Some("full_trust")),
        ("startup", "auto", Some("auto")),
        ("resume", "dontAsk", None),
    ] {
        let before = stub.routes().len();
        let input = fixture_with(
            "session_start.json",
            json!({"source": source, "permission_mode": mode}),
        );
        assert_eq!(run(place.hook(&stub.url()), &input).json(), json!({}));
        let seen = stub.seen()[before..].to_vec();
        match want {
            Some(want) => {
                assert_eq!(seen.len(), 2, "{source} {mode}: {seen:?}");
                assert_eq!(seen[1].body, json!({"kind": "mode", "mode": want}));
            }
            // Already in that mode: read, not written.
            None => assert_eq!(seen.len(), 1, "{source} {mode}: {seen:?}"),
        }
    }
}

#[test]
fn claude_code_s_auto_mode_is_warden_s_auto() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    stub.open(SESSION, "plan_only");
    let input = fixture_with("pre_tool_use.json", json!({"permission_mode": "auto"}));
    run(place.hook(&stub.url()), &input);
    assert_eq!(stub.seen()[1].body, json!({"kind": "mode", "mode": "auto"}));
    assert_eq!(stub.mode(SESSION).as_deref(), Some("auto"));
}
