//! `warden hook` end to end: recorded Claude Code hook inputs (`tests/hook/*.json`) through the
//! real binary, against a stub daemon on loopback that records what it is sent and answers
//! canned JSON, garbage, an error, half an answer, or nothing at all.
#![expect(clippy::panic, reason = "a test fails by panicking")]

use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

struct Stub {
    addr: SocketAddr,
    seen: Arc<Mutex<Vec<Seen>>>,
    /// Open chats and their modes (the fake daemon's state).
    chats: Arc<Mutex<HashMap<String, String>>>,
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
            chats: Arc::new(Mutex::new(HashMap::new())),
        };
        let (seen, chats) = (stub.seen.clone(), stub.chats.clone());
        // The thread lives as long as the test process: nothing waits for it.
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (seen, chats, behaviour) = (seen.clone(), chats.clone(), behaviour.clone());
                std::thread::spawn(move || answer(stream, &behaviour, &seen, &chats));
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
        if let Ok(mut chats) = self.chats.lock() {
            chats.insert(chat.to_string(), mode.to_string());
        }
    }

    fn mode(&self, chat: &str) -> Option<String> {
        self.chats.lock().ok().and_then(|c| c.get(chat).cloned())
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
    chats: &Mutex<HashMap<String, String>>,
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
        Behaviour::Daemon(judged) => daemon(&request, judged, chats),
    };
    let reply = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(reply.as_bytes());
}

/// The fake daemon: the routes of `/work/api-spec.md` the hook uses.
fn daemon(request: &Seen, judged: &Value, chats: &Mutex<HashMap<String, String>>) -> (u16, String) {
    let error = |status: u16, text: &str| (status, json!({ "error": text }).to_string());
    let Some(rest) = request.path.strip_prefix("/v1/chats/") else {
        return error(404, "no such route");
    };
    let (chat, tail) = match rest.split_once('/') {
        Some((chat, tail)) => (chat.to_string(), tail.to_string()),
        None => (rest.to_string(), String::new()),
    };
    let Ok(mut chats) = chats.lock() else {
        return error(500, "poisoned");
    };
    let needs_token = match (request.method.as_str(), tail.as_str()) {
        ("POST", "") | ("POST", "tasks") => true,
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
    match (request.method.as_str(), tail.as_str()) {
        ("GET", "") => match chats.get(&chat) {
            Some(mode) => (
                200,
                json!({"mode": mode, "company": "alone", "marks": [], "turn": 1, "stopped": false})
                    .to_string(),
            ),
            None => error(404, "no such chat"),
        },
        ("POST", "") => {
            let mode = request.body["mode"].as_str().unwrap_or("auto").to_string();
            chats.entry(chat).or_insert(mode);
            (200, json!({"ok": true}).to_string())
        }
        ("POST", "tasks") => {
            let Some(mode) = chats.get(&chat).cloned() else {
                return error(404, "no such chat");
            };
            let task = request.body["task"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            chats.insert(task, mode);
            (200, json!({"ok": true}).to_string())
        }
        ("POST", "events") => {
            if !chats.contains_key(&chat) {
                return error(404, "no such chat");
            }
            if let Some(mode) = request.body.get("mode").and_then(Value::as_str) {
                chats.insert(chat, mode.to_string());
            }
            (200, json!({"ok": true}).to_string())
        }
        // The judge route, and its look that records nothing (PermissionRequest's).
        ("POST", "judge" | "peek") => {
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
            (200, answer.to_string())
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
    assert_eq!(
        stub.routes(),
        vec![
            format!("GET {chat}"),
            format!("POST {chat}"),
            format!("GET {chat}"),
            format!("POST {chat}/judge"),
        ]
    );
    let seen = stub.seen();
    // Opening the chat is the person's: with the token. Claude Code's `default` is Auto.
    assert_eq!(seen[1].authorization, bearer());
    assert_eq!(seen[1].body, json!({"mode": "auto", "company": "alone"}));
    // Reading and judging need no token, and the hook doesn't send it where it isn't needed.
    assert_eq!(seen[0].authorization, None);
    assert_eq!(seen[3].authorization, None);
    assert_eq!(
        seen[3].body,
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
            format!("GET {chat}"),
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
        [format!("GET {chat}"), format!("POST {chat}/judge")]
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
            format!("GET {task}"),
            format!("GET {chat}"),
            format!("POST {chat}/tasks"),
            format!("GET {task}"),
            format!("POST {task}/judge"),
        ]
    );
    let seen = stub.seen();
    assert_eq!(
        seen[2].body,
        json!({"task": format!("{SESSION}.{AGENT}"), "scoped": false})
    );
    assert_eq!(seen[2].authorization, bearer());
    assert_eq!(seen[4].body["id"], "toolu_01Ps9Lm4Tz6Rb8Cv2Nq5Wx1E");
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
fn user_prompt_submit_records_the_person_s_words_and_never_blocks() {
    let place = Place::new();
    let stub = Stub::start(Behaviour::Daemon(judged("allow", "")));
    let out = run(place.hook(&stub.url()), &fixture("user_prompt_submit.json"));
    assert_eq!(out.json(), json!({}));
    let chat = format!("/v1/chats/{SESSION}");
    assert_eq!(
        stub.routes(),
        vec![
            format!("POST {chat}"),
            format!("POST {chat}/events"),
            format!("POST {chat}/events"),
        ]
    );
    let seen = stub.seen();
    assert!(seen.iter().all(|s| s.authorization == bearer()), "{seen:?}");
    assert_eq!(seen[0].body, json!({"mode": "auto", "company": "alone"}));
    assert_eq!(seen[1].body, json!({"kind": "turn"}));
    assert_eq!(
        seen[2].body,
        json!({"kind": "said", "text": "Rebase on main, run the tests, and force-push main when they pass."})
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
        // The mark, then a look for a question of warden's the tool's running answered.
        assert_eq!(
            stub.routes(),
            vec![
                format!("POST /v1/chats/{SESSION}/events"),
                format!("GET /v1/chats/{SESSION}"),
            ],
            "{name}"
        );
        assert_eq!(seen[0].body, want, "{name}");
        // Marks only add caution: they need no token, and get none.
        assert_eq!(seen[0].authorization, None, "{name}");
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
            format!("POST /v1/chats/{SESSION}.{AGENT}/events"),
            format!("POST /v1/chats/{SESSION}/events"),
            format!("GET /v1/chats/{SESSION}.{AGENT}"),
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
        assert!(seen.iter().all(|s| !s.path.ends_with("/judge")), "{seen:?}");
        let judge = seen
            .iter()
            .find(|s| s.path.ends_with("/peek"))
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
    let out = run(place.hook(&stub.url()), &fixture("session_start.json"));
    assert_eq!(out.json(), json!({}));
    assert!(stub.routes().is_empty());
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
    run(place.hook(&stub.url()), &fixture("pre_tool_use.json")).asks_because("cut short");
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
        "user_prompt_submit.json",
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
