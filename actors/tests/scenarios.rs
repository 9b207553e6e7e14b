//! Runtime scenarios as data: every `corpus/runtime/*.jsonl` file, read by this one harness
//! and played against the real `warden serve` over its HTTP API, in a work folder that is a
//! real git repository. A scenario is a list of operations (open a chat, the person's words,
//! a read, a judged step with the verdict it must get, an answer, a task, a request to any
//! route) with restarts (SIGTERM, then start again) and crashes (SIGKILL, then start again)
//! between them; `corpus/README.md` gives the format. On failure the file, the line and the
//! scenario are named. Every scenario is played twice: on the default log (sled, in the data
//! folder) and on NATS JetStream (`[log] engine = "jetstream"`, a `nats-server` of the test's
//! own, a stream per scenario), so a crash's replay is the same on both.

use crate::common::nats::NatsServer;
use crate::common::{Place, Serve, call};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One line of a scenario file.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Line {
    /// Starts a new scenario: a fresh data folder and a fresh daemon.
    Scenario(String),
    /// `POST /v1/chats/{chat}`: the chat's mode and who is in it.
    Open {
        chat: String,
        mode: String,
        #[serde(default = "alone")]
        company: String,
    },
    /// The person's own words.
    Said { chat: String, text: String },
    /// The chat read something from outside.
    Read {
        chat: String,
        name: String,
        #[serde(default)]
        provenance: Option<String>,
    },
    /// Someone else's words reached the chat.
    Others {
        chat: String,
        text: String,
        #[serde(default)]
        source: Option<String>,
    },
    /// The person's turn starts.
    Turn { chat: String },
    /// The person changes the chat's mode.
    Mode { chat: String, mode: String },
    /// The person stops (or starts again) the chat.
    Stopped { chat: String, stopped: bool },
    /// A step judged, and what it must get.
    Judge(Box<Judge>),
    /// The person's answer to a question a `judge` line named.
    Answer {
        chat: String,
        question: String,
        answer: String,
        #[serde(default = "ok")]
        status: u16,
    },
    /// A task created from a chat.
    Task {
        chat: String,
        task: String,
        #[serde(default)]
        scoped: bool,
        #[serde(default = "ok")]
        status: u16,
    },
    /// Any request (the person's token is sent), with the status it must answer and, for
    /// `expect`, values its JSON answer must hold (a subset: every key given must match).
    /// `{work}` in the body is the work folder.
    Request {
        method: String,
        path: String,
        #[serde(default)]
        body: Option<Value>,
        #[serde(default = "ok")]
        status: u16,
        #[serde(default)]
        expect: Option<Value>,
    },
    /// `warden serve` stops on SIGTERM and starts again over the same data folder.
    Restart,
    /// `warden serve` is killed with SIGKILL and starts again over the same data folder.
    Crash,
}

/// A judged step: a command (or any tool call as the judge route takes it), the decision
/// it must get, and what else must hold.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Judge {
    chat: String,
    #[serde(default)]
    command: Option<String>,
    /// A tool call instead of `command`: the judge route's `tool_name`, `tool_input`, `app`.
    #[serde(default)]
    step: Option<Value>,
    /// `allow`, `ask` or `deny`.
    expect: String,
    /// Judged this many times (default once); `{n}` in the step is replaced by 0, 1, 2…
    #[serde(default = "once")]
    times: u32,
    /// A rule id that must be among the risks.
    #[serde(default)]
    rule: Option<String>,
    /// Names the question it asks, for an `answer` line (and checks that it asks one).
    #[serde(default)]
    question: Option<String>,
    /// The card's offers, when given: `always`, `everywhere`, and `rule` (the one command's
    /// rule as shown, or null).
    #[serde(default)]
    offers: Option<Value>,
    /// Why the case is there, printed on failure.
    #[serde(default)]
    because: Option<String>,
}

fn alone() -> String {
    "alone".to_string()
}

fn ok() -> u16 {
    200
}

fn once() -> u32 {
    1
}

/// Where a line came from, for messages.
struct At<'a> {
    file: &'a str,
    line: usize,
    scenario: &'a str,
}

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{} ({})", self.file, self.line, self.scenario)
    }
}

/// A scenario being played: its folders, its daemon and the questions it named.
struct Play {
    place: Place,
    serve: Option<Serve>,
    token: String,
    questions: BTreeMap<String, (String, u64)>,
}

impl Play {
    /// A fresh place and daemon; with `log`, the configuration's `[log]` table first.
    fn new(log: Option<String>) -> Play {
        let place = Place::new();
        if let Some(log) = log {
            let settings = place.home().join(".config/warden");
            std::fs::create_dir_all(&settings)
                .and_then(|()| std::fs::write(settings.join("config.toml"), log))
                .unwrap_or_else(|e| panic!("the configuration: {e}"));
        }
        let serve = place.serve();
        let token = place.token();
        Play {
            place,
            serve: Some(serve),
            token,
            questions: BTreeMap::new(),
        }
    }

    fn serve(&self) -> &Serve {
        self.serve
            .as_ref()
            .unwrap_or_else(|| panic!("no daemon is running"))
    }

    fn request(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        call(self.serve(), method, path, Some(&self.token), body)
    }

    /// A request that must answer `status`.
    fn must(
        &self,
        at: &At<'_>,
        method: &str,
        path: &str,
        body: Option<&Value>,
        status: u16,
    ) -> Value {
        let (got, answer) = self.request(method, path, body);
        assert_eq!(
            got, status,
            "{at}: {method} {path} {body:?} answered {got}: {answer}"
        );
        answer
    }

    fn event(&self, at: &At<'_>, chat: &str, body: Value) {
        self.must(
            at,
            "POST",
            &format!("/v1/chats/{chat}/events"),
            Some(&body),
            200,
        );
    }

    fn play(&mut self, at: &At<'_>, line: Line) {
        match line {
            Line::Scenario(_) => unreachable!("a scenario line starts a new play"),
            Line::Open {
                chat,
                mode,
                company,
            } => {
                let body = json!({"mode": mode, "company": company});
                self.must(at, "POST", &format!("/v1/chats/{chat}"), Some(&body), 200);
            }
            Line::Said { chat, text } => {
                self.event(at, &chat, json!({"kind": "said", "text": text}));
            }
            Line::Read {
                chat,
                name,
                provenance,
            } => {
                let body = json!({"kind": "read", "name": name, "provenance": provenance});
                self.event(at, &chat, body);
            }
            Line::Others { chat, text, source } => {
                let body = json!({"kind": "others", "text": text, "source": source});
                self.event(at, &chat, body);
            }
            Line::Turn { chat } => self.event(at, &chat, json!({"kind": "turn"})),
            Line::Mode { chat, mode } => {
                self.event(at, &chat, json!({"kind": "mode", "mode": mode}));
            }
            Line::Stopped { chat, stopped } => {
                self.event(at, &chat, json!({"kind": "stopped", "stopped": stopped}));
            }
            Line::Judge(judge) => {
                for n in 0..judge.times {
                    self.judge(at, &judge, n);
                }
            }
            Line::Answer {
                chat,
                question,
                answer,
                status,
            } => {
                let (asked_in, id) = self.questions.get(&question).cloned().unwrap_or_else(|| {
                    panic!("{at}: no judge line named the question {question:?}")
                });
                assert_eq!(asked_in, chat, "{at}: {question:?} was asked in {asked_in}");
                let body = json!({"answer": answer});
                self.must(
                    at,
                    "POST",
                    &format!("/v1/chats/{chat}/questions/{id}"),
                    Some(&body),
                    status,
                );
            }
            Line::Task {
                chat,
                task,
                scoped,
                status,
            } => {
                let body = json!({"task": task, "scoped": scoped});
                self.must(
                    at,
                    "POST",
                    &format!("/v1/chats/{chat}/tasks"),
                    Some(&body),
                    status,
                );
            }
            Line::Request {
                method,
                path,
                body,
                status,
                expect,
            } => {
                let work = self.place.work();
                let mut body = body;
                if let Some(body) = &mut body {
                    filled(body, &[("{work}", &work)]);
                }
                let answer = self.must(at, &method, &path, body.as_ref(), status);
                if let Some(expect) = expect {
                    holds(at, &answer, &expect, "");
                }
            }
            Line::Restart => {
                let serve = self
                    .serve
                    .take()
                    .unwrap_or_else(|| panic!("{at}: no daemon"));
                serve.terminate();
                self.serve = Some(self.place.serve());
            }
            Line::Crash => {
                let serve = self
                    .serve
                    .take()
                    .unwrap_or_else(|| panic!("{at}: no daemon"));
                serve.kill_9();
                self.serve = Some(self.place.serve());
            }
        }
    }

    fn judge(&mut self, at: &At<'_>, judge: &Judge, n: u32) {
        let mut body = match (&judge.command, &judge.step) {
            (Some(command), None) => {
                json!({"tool_name": "Bash", "tool_input": {"command": command}})
            }
            (None, Some(step)) => step.clone(),
            _ => panic!("{at}: a judge line has a `command` or a `step`, one of them"),
        };
        let work = self.place.work();
        filled(&mut body, &[("{n}", &n.to_string()), ("{work}", &work)]);
        if let Some(object) = body.as_object_mut() {
            object
                .entry("cwd")
                .or_insert_with(|| Value::String(self.place.work()));
        }
        let because = judge.because.as_deref().unwrap_or_default();
        let answer = self.must(
            at,
            "POST",
            &format!("/v1/chats/{}/judge", judge.chat),
            Some(&body),
            200,
        );
        let decision = answer["decision"].as_str().unwrap_or_default();
        assert_eq!(
            decision, judge.expect,
            "{at}: {body} (#{n}) {because}: {}",
            answer["reason"]
        );
        if let Some(rule) = &judge.rule {
            let rules: Vec<&str> = answer["risks"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|risk| risk["rule"].as_str())
                .collect();
            assert!(
                rules.contains(&rule.as_str()),
                "{at}: {rule} not among {rules:?}"
            );
        }
        if let Some(offers) = &judge.offers {
            holds(at, &answer["offers"], offers, "offers");
        }
        if let Some(name) = &judge.question {
            let id = answer["question"]
                .as_u64()
                .unwrap_or_else(|| panic!("{at}: no question in {answer}"));
            self.questions
                .insert(name.clone(), (judge.chat.clone(), id));
        }
    }
}

/// Every string of a value with its placeholders filled: `{n}` (a judge line's round) and
/// `{work}` (the scenario's work folder).
fn filled(value: &mut Value, with: &[(&str, &str)]) {
    match value {
        Value::String(text) => {
            for (name, by) in with {
                *text = text.replace(name, by);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| filled(item, with)),
        Value::Object(map) => map.values_mut().for_each(|item| filled(item, with)),
        _ => {}
    }
}

/// Every key `expect` gives holds in `actual`, recursively; arrays and other values match
/// whole. A number in `expect` stands for an array's length when `actual` is an array.
fn holds(at: &At<'_>, actual: &Value, expect: &Value, path: &str) {
    match (expect, actual) {
        (Value::Object(expect), Value::Object(actual)) => {
            for (key, value) in expect {
                let inner = format!("{path}.{key}");
                let got = actual.get(key).unwrap_or(&Value::Null);
                holds(at, got, value, &inner);
            }
        }
        (Value::Number(n), Value::Array(items)) => {
            assert_eq!(
                Some(items.len() as u64),
                n.as_u64(),
                "{at}: {path} has {} items: {actual}",
                items.len()
            );
        }
        _ => assert_eq!(actual, expect, "{at}: {path}"),
    }
}

fn files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/runtime");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no scenarios in {}", dir.display());
    files
}

/// Plays every scenario of one file, each on a fresh data folder (and, on JetStream, a
/// fresh stream).
fn play_file(path: &Path, nats: Option<&NatsServer>) -> usize {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut play: Option<Play> = None;
    let mut scenario = String::new();
    let mut played = 0;
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let line: Line = serde_json::from_str(raw)
            .unwrap_or_else(|e| panic!("{name}:{}: not a scenario line ({e}): {raw}", i + 1));
        if let Line::Scenario(title) = line {
            scenario = title;
            played += 1;
            let stream = format!("{}-{played}", name.trim_end_matches(".jsonl"));
            play = Some(Play::new(nats.map(|nats| nats.log_table(&stream))));
            continue;
        }
        let at = At {
            file: &name,
            line: i + 1,
            scenario: &scenario,
        };
        play.as_mut()
            .unwrap_or_else(|| {
                panic!("{at}: the file starts with an operation, not a `scenario` line")
            })
            .play(&at, line);
    }
    played
}

#[test]
fn every_runtime_scenario_gets_its_verdicts_across_restarts_and_crashes() {
    let mut played = 0;
    for file in files() {
        played += play_file(&file, None);
    }
    assert!(played > 0, "no scenario was played");
}

/// The same scenarios with `warden serve`'s log on JetStream: every verdict the same, and
/// every crash (SIGKILL of the daemon) replayed from the stream.
#[test]
fn every_runtime_scenario_gets_its_verdicts_on_jetstream_too() {
    let Some(nats) = NatsServer::start().unwrap_or_else(|e| panic!("nats-server: {e}")) else {
        return;
    };
    let mut played = 0;
    for file in files() {
        played += play_file(&file, Some(&nats));
    }
    assert!(played > 0, "no scenario was played");
}
