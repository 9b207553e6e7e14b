//! `warden torture`: runs the real `warden serve` under a realistic mix of requests over many
//! chats, kills it with SIGKILL at random moments, restarts it on the same data folder, and
//! checks after each restart that every acknowledged event is there and that the same probe
//! steps get the same verdicts. The daemon, its client and the pseudo-random numbers are
//! shared with `warden load` (`load.rs`).
//!
//! What counts as acknowledged is what `docs/durability.md` promises: an event answered 2xx
//! that changes a chat's state (the person's words, a mark, a mode, a turn, a task, a question
//! given out, an answer kept, a step the watch counted). A judged step that counted nothing is
//! a record nobody waits for, and is not held against the log.

use anyhow::{Context as _, Result, bail};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::io::{BufRead as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a starting daemon may take to say where it listens (sled opens the log first).
const PRINTS_WITHIN: Duration = Duration::from_secs(30);

/// How long `/healthz` is polled before a started daemon counts as down.
const HEALTHY_WITHIN: Duration = Duration::from_secs(10);

/// The work folder every step names: not a repository, so the host's facts are unknown and
/// a verdict depends only on the step and the chat.
pub(crate) const CWD: &str = "/torture/app";

/// `warden torture`'s arguments.
#[derive(clap::Args)]
pub struct TortureArgs {
    /// The data folder `warden serve` runs on (created if missing; kept afterwards).
    #[arg(long)]
    data: PathBuf,
    /// How many times the daemon is killed with SIGKILL.
    #[arg(long, default_value_t = 10)]
    kills: u32,
    /// The whole run's time under load, shared among the rounds.
    #[arg(long, default_value_t = 30.0)]
    seconds: f64,
    /// How many chats the mix spreads over.
    #[arg(long, default_value_t = 24)]
    chats: usize,
    /// Clients sending at the same time (each drives its own chats, one request at a time).
    #[arg(long, default_value_t = 4)]
    connections: usize,
    /// The seed of the mix and of the kill moments (default: from the clock; printed).
    #[arg(long)]
    seed: Option<u64>,
}

/// A small, fast pseudo-random generator (SplitMix64): the same seed, the same mix.
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    /// A number in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
}

/// The seed when none is given: the clock's nanoseconds.
pub(crate) fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(7411)
}

/// A `warden serve` this process started: the current executable on a free loopback port.
/// Dropping it kills it, so an error leaves no daemon behind.
pub(crate) struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub(crate) addr: String,
}

impl Server {
    /// Starts `warden serve --listen 127.0.0.1:0 --data DATA` and waits until `/healthz`
    /// answers. A daemon that exits at once (the previous one's lock not yet let go) is
    /// started again, a few times.
    pub(crate) fn start(data: &Path) -> Result<Server> {
        let mut last = None;
        for _ in 0..10 {
            match Server::start_once(data) {
                Ok(server) => return Ok(server),
                Err(e) => last = Some(e),
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        Err(last.unwrap_or_else(|| anyhow::anyhow!("warden serve did not start")))
    }

    fn start_once(data: &Path) -> Result<Server> {
        let exe = std::env::current_exe().context("finding the warden executable")?;
        let mut child = Command::new(exe)
            .args(["serve", "--listen", "127.0.0.1:0", "--data"])
            .arg(data)
            // Its warnings and errors only, unless the person asked for more.
            .env(
                "RUST_LOG",
                std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".into()),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .context("starting warden serve")?;
        let stdout = child.stdout.take().context("warden serve has no stdout")?;
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = std::io::BufReader::new(stdout).lines();
            if let Some(Ok(line)) = lines.next() {
                let _ = sender.send(line);
            }
            // Keep reading, so the daemon never writes into a closed pipe.
            for _ in lines {}
        });
        let mut server = Server {
            child,
            addr: String::new(),
        };
        let line = receiver
            .recv_timeout(PRINTS_WITHIN)
            .map_err(|_| anyhow::anyhow!("warden serve said nothing in {PRINTS_WITHIN:?}"))?;
        // `warden: listening on http://127.0.0.1:PORT, log in DATA/log`
        server.addr = line
            .strip_prefix("warden: listening on http://")
            .and_then(|rest| rest.split(',').next())
            .with_context(|| format!("not the listening line: `{line}`"))?
            .to_string();
        let client = Client::new(&server.addr, String::new());
        let deadline = Instant::now() + HEALTHY_WITHIN;
        loop {
            if let Some(status) = server.child.try_wait()? {
                bail!("warden serve exited before it was healthy: {status}");
            }
            if matches!(
                client.call("GET", "/healthz", false, None),
                Reply::Answered(200, _)
            ) {
                return Ok(server);
            }
            if Instant::now() > deadline {
                bail!(
                    "warden serve at {} not healthy in {HEALTHY_WITHIN:?}",
                    server.addr
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The daemon's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `kill -9` (what `Child::kill` sends on Unix), then reaped: nothing flushed, nothing
    /// stopped gracefully.
    pub(crate) fn kill_9(mut self) -> Result<()> {
        self.child.kill().context("SIGKILL warden serve")?;
        self.child.wait().context("reaping warden serve")?;
        Ok(())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The person's token, as `warden serve` made it in the data folder.
pub(crate) fn token(data: &Path) -> Result<String> {
    let path = data.join("token");
    Ok(std::fs::read_to_string(&path)
        .with_context(|| format!("reading {}", path.display()))?
        .trim()
        .to_string())
}

/// What one request got.
#[derive(Debug)]
pub(crate) enum Reply {
    /// A status and the answer as JSON (`Null` when it isn't).
    Answered(u16, Value),
    /// No answer: the connection failed (the daemon was killed, say).
    Failed,
}

/// An HTTP client for the daemon: one kept-alive connection, the person's token at hand.
pub(crate) struct Client {
    agent: ureq::Agent,
    base: String,
    token: String,
}

impl Client {
    pub(crate) fn new(addr: &str, token: String) -> Client {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_idle_connections(1)
            .timeout_global(Some(Duration::from_secs(10)))
            .build()
            .new_agent();
        Client {
            agent,
            base: format!("http://{addr}"),
            token,
        }
    }

    /// One request; with `person`, `Authorization: Bearer <token>`.
    pub(crate) fn call(
        &self,
        method: &str,
        path: &str,
        person: bool,
        body: Option<&Value>,
    ) -> Reply {
        let mut request = ureq::http::Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base));
        if person {
            request = request.header("Authorization", format!("Bearer {}", self.token));
        }
        let response = match body {
            Some(body) => request
                .header("Content-Type", "application/json")
                .body(body.to_string())
                .map(|r| self.agent.run(r)),
            None => request.body(()).map(|r| self.agent.run(r)),
        };
        let Ok(Ok(mut response)) = response else {
            return Reply::Failed;
        };
        let status = response.status().as_u16();
        let Ok(text) = response.body_mut().read_to_string() else {
            return Reply::Failed;
        };
        Reply::Answered(status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }
}

/// A step the mix judges: the judge route's body, and whether the watch counts it when it
/// goes ahead (an app's message).
struct Mixed {
    body: fn() -> Value,
    counted: bool,
}

fn bash(command: &str) -> Value {
    json!({"tool_name": "Bash", "tool_input": {"command": command}, "cwd": CWD})
}

fn send(to: &str) -> Value {
    json!({"tool_name": "App", "app": {"origin": "own"}, "cwd": CWD,
           "tool_input": {"app": "Mail", "tool": "send_message",
                          "arguments": {"to": to, "body": "the weekly report"}}})
}

/// The steps the mix judges: routine ones that go, pushes the person's words ask for or hold,
/// messages the watch counts, and steps that ask after a read.
const STEPS: &[Mixed] = &[
    Mixed {
        body: || bash("cargo test"),
        counted: false,
    },
    Mixed {
        body: || bash("git status"),
        counted: false,
    },
    Mixed {
        body: || bash("git push origin main"),
        counted: false,
    },
    Mixed {
        body: || bash("git push origin feature"),
        counted: false,
    },
    Mixed {
        body: || bash("git push --force origin main"),
        counted: false,
    },
    Mixed {
        body: || bash("rm -rf build"),
        counted: false,
    },
    Mixed {
        body: || send("a@example.com"),
        counted: true,
    },
    Mixed {
        body: || send("b@example.com"),
        counted: true,
    },
    Mixed {
        body: || json!({"tool_name": "WebFetch", "tool_input": {"url": "https://example.com/issue/7"}, "cwd": CWD}),
        counted: false,
    },
    Mixed {
        body: || json!({"tool_name": "Write", "tool_input": {"file_path": "/torture/app/src/lib.rs"}, "cwd": CWD}),
        counted: false,
    },
];

/// The probe steps: peeked (nothing recorded) when a chat is settled, and again after each
/// restart; each must get the same verdict.
const PROBES: &[fn() -> Value] = &[
    || bash("git push origin main"),
    || bash("git push origin feature"),
    || bash("git push --force origin main"),
    || bash("rm -rf build"),
    || send("a@example.com"),
    || json!({"tool_name": "WebFetch", "tool_input": {"url": "https://example.com/issue/7"}, "cwd": CWD}),
    // An edit inside the work folder: the one probe that tells Edit freely from Ask first.
    || json!({"tool_name": "Write", "tool_input": {"file_path": "/torture/app/src/lib.rs"}, "cwd": CWD}),
];

/// The person's words: some ask for a push or a message, some hold them.
const SAID: &[&str] = &[
    "fix the login test and push it",
    "push it, but not to main",
    "don't push anything yet",
    "send the weekly report to a@example.com",
    "do not send any mail",
    "force-push main, I rebased it",
    "clean the build folder",
];

const MODES: &[&str] = &[
    "auto",
    "auto",
    "auto",
    "ask_first",
    "edit_freely",
    "full_trust",
    "plan_only",
];

/// What the client knows one chat holds: everything acknowledged, as lower bounds.
#[derive(Debug, Default, Clone)]
struct ChatModel {
    opened: bool,
    /// Acknowledged events that change the chat's state (each at least one event in the log).
    durable: u64,
    /// The last mode acknowledged.
    mode: Option<String>,
    /// A mode sent and never acknowledged (the daemon was killed): it may be in the log or
    /// not, until a restart shows which.
    mode_unsure: Option<String>,
    marks: BTreeSet<String>,
    /// Questions given out (their ids).
    given: BTreeSet<u64>,
    /// Questions whose answer was sent (acknowledged or not).
    answer_sent: BTreeSet<u64>,
    /// Questions whose answer was acknowledged.
    answered: BTreeSet<u64>,
    /// (tool, class) kept by an acknowledged Always.
    kept: BTreeSet<(String, String)>,
    tasks: BTreeSet<String>,
    tasks_tried: u64,
    /// Messages the watch counted in acknowledged steps.
    counted: u64,
    /// No request of this chat is in flight and `probes` is its state's verdicts.
    settled: bool,
    probes: Option<Vec<String>>,
}

/// What one client did in a round.
#[derive(Debug, Default)]
struct Tally {
    requests: u64,
    acknowledged: u64,
    record_only: u64,
    refused: u64,
}

/// A verdict as compared: decision, score and the rules that fired.
fn verdict_of(answer: &Value) -> String {
    let rules: Vec<&str> = answer["risks"]
        .as_array()
        .map(|risks| risks.iter().filter_map(|r| r["rule"].as_str()).collect())
        .unwrap_or_default();
    format!(
        "{} {} [{}]",
        answer["decision"].as_str().unwrap_or("?"),
        answer["score"],
        rules.join(",")
    )
}

/// Every probe peeked in `chat`; `None` when one got no good answer.
fn probe(client: &Client, chat: &str) -> Option<Vec<String>> {
    let path = format!("/v1/chats/{chat}/peek");
    PROBES
        .iter()
        .map(
            |body| match client.call("POST", &path, false, Some(&body())) {
                Reply::Answered(200, answer) => Some(verdict_of(&answer)),
                _ => None,
            },
        )
        .collect()
}

/// One client's round: until `stop`, or until a request fails, pick one of its chats, send
/// it a few events and steps, then peek its probes.
fn drive(
    client: &Client,
    chats: &mut [(String, ChatModel)],
    rng: &mut Rng,
    stop: &AtomicBool,
) -> Tally {
    let mut tally = Tally::default();
    while !stop.load(Ordering::Relaxed) {
        let n = rng.below(chats.len());
        let Some((chat, model)) = chats.get_mut(n) else {
            break;
        };
        model.settled = false;
        let mut alive = true;
        if !model.opened {
            alive = open(client, chat, model, &mut tally);
        }
        for _ in 0..1 + rng.below(4) {
            if !alive || stop.load(Ordering::Relaxed) {
                break;
            }
            alive = one(client, chat, model, rng, &mut tally);
        }
        if !alive {
            break;
        }
        tally.requests += PROBES.len() as u64;
        model.probes = probe(client, chat);
        model.settled = model.probes.is_some();
        if !model.settled {
            break;
        }
    }
    tally
}

/// Sorts a reply: `Some(answer)` for a 2xx, `None` (and the round ends) for no answer; a
/// refusal is counted and ends nothing.
fn answered(reply: Reply, tally: &mut Tally, alive: &mut bool) -> Option<Value> {
    tally.requests += 1;
    match reply {
        Reply::Answered(status, answer) if (200..300).contains(&status) => Some(answer),
        Reply::Answered(status, answer) => {
            tally.refused += 1;
            if status >= 500 {
                *alive = false;
            } else {
                eprintln!("warden torture: refused {status}: {answer}");
            }
            None
        }
        Reply::Failed => {
            *alive = false;
            None
        }
    }
}

fn open(client: &Client, chat: &str, model: &mut ChatModel, tally: &mut Tally) -> bool {
    let mut alive = true;
    let body = json!({"mode": "auto", "company": "alone"});
    let reply = client.call("POST", &format!("/v1/chats/{chat}"), true, Some(&body));
    if answered(reply, tally, &mut alive).is_some() {
        model.opened = true;
        model.mode = Some("auto".into());
        model.durable += 1;
        tally.acknowledged += 1;
    }
    alive
}

/// One request of the mix; false when the daemon gave no answer.
fn one(
    client: &Client,
    chat: &str,
    model: &mut ChatModel,
    rng: &mut Rng,
    tally: &mut Tally,
) -> bool {
    let mut alive = true;
    let events = format!("/v1/chats/{chat}/events");
    let roll = rng.below(100);
    let kept = |model: &mut ChatModel, tally: &mut Tally| {
        model.durable += 1;
        tally.acknowledged += 1;
    };
    if roll < 15 {
        let text = rng.pick(SAID).copied().unwrap_or_default();
        let body = json!({"kind": "said", "text": text});
        if answered(
            client.call("POST", &events, true, Some(&body)),
            tally,
            &mut alive,
        )
        .is_some()
        {
            kept(model, tally);
        }
    } else if roll < 25 {
        let name = format!("page-{}", rng.below(6));
        let body = json!({"kind": "read", "name": name});
        if answered(
            client.call("POST", &events, false, Some(&body)),
            tally,
            &mut alive,
        )
        .is_some()
        {
            model.marks.insert(name);
            kept(model, tally);
        }
    } else if roll < 65 {
        let Some(step) = rng.pick(STEPS) else {
            return true;
        };
        let mut body = (step.body)();
        body["id"] = json!(format!("{chat}-{}", tally.requests));
        let reply = client.call(
            "POST",
            &format!("/v1/chats/{chat}/judge"),
            false,
            Some(&body),
        );
        if let Some(answer) = answered(reply, tally, &mut alive) {
            if let Some(question) = answer["question"].as_u64() {
                model.given.insert(question);
                kept(model, tally);
            } else if step.counted && answer["decision"] == "allow" {
                model.counted += 1;
                kept(model, tally);
            } else {
                tally.record_only += 1;
            }
        }
    } else if roll < 77 {
        // A read of the chat, and then an answer to one of its questions.
        let Some(state) = answered(
            client.call("GET", &format!("/v1/chats/{chat}"), false, None),
            tally,
            &mut alive,
        ) else {
            return alive;
        };
        let pending = state["pending"].as_array().cloned().unwrap_or_default();
        let Some(question) = rng.pick(&pending) else {
            return alive;
        };
        let Some(id) = question["id"].as_u64() else {
            return alive;
        };
        let mut answers = vec!["once", "deny"];
        if question["offers"]["always"] == true {
            answers.extend(["always", "always"]);
        }
        let answer = rng.pick(&answers).copied().unwrap_or("once");
        model.answer_sent.insert(id);
        let body = json!({"answer": answer});
        let path = format!("/v1/chats/{chat}/questions/{id}");
        if answered(
            client.call("POST", &path, true, Some(&body)),
            tally,
            &mut alive,
        )
        .is_some()
        {
            model.answered.insert(id);
            if answer == "always" {
                let tool = question["tool"].as_str().unwrap_or_default().to_string();
                let class = question["class"].as_str().unwrap_or_default().to_string();
                model.kept.insert((tool, class));
            }
            kept(model, tally);
        }
    } else if roll < 83 {
        let mode = rng.pick(MODES).copied().unwrap_or("auto");
        let body = json!({"kind": "mode", "mode": mode});
        model.mode_unsure = Some(mode.to_string());
        if answered(
            client.call("POST", &events, true, Some(&body)),
            tally,
            &mut alive,
        )
        .is_some()
        {
            model.mode = model.mode_unsure.take();
            kept(model, tally);
        }
    } else if roll < 89 {
        let body = json!({"kind": "turn"});
        if answered(
            client.call("POST", &events, true, Some(&body)),
            tally,
            &mut alive,
        )
        .is_some()
        {
            kept(model, tally);
        }
    } else if roll < 92 {
        model.tasks_tried += 1;
        let task = format!("{chat}.t{}", model.tasks_tried);
        let body = json!({"task": task, "scoped": rng.below(2) == 0});
        let path = format!("/v1/chats/{chat}/tasks");
        if answered(
            client.call("POST", &path, true, Some(&body)),
            tally,
            &mut alive,
        )
        .is_some()
        {
            model.tasks.insert(task);
            kept(model, tally);
        }
    } else {
        let _ = answered(
            client.call("GET", &format!("/v1/chats/{chat}"), false, None),
            tally,
            &mut alive,
        );
    }
    alive
}

/// What a check after a restart found.
#[derive(Debug, Default)]
struct Found {
    lost: u64,
    changed: u64,
    compared: u64,
    /// One line for each loss or change, for the person reading the run.
    why: Vec<String>,
}

impl Found {
    fn lost(&mut self, n: u64, why: String) {
        if n > 0 {
            self.lost += n;
            self.why.push(why);
        }
    }
}

/// Reads every chat back and holds it against what was acknowledged.
fn check(client: &Client, chat: &str, model: &mut ChatModel, found: &mut Found) {
    if model.durable == 0 {
        return;
    }
    let state = match client.call("GET", &format!("/v1/chats/{chat}"), false, None) {
        Reply::Answered(200, state) => state,
        other => {
            found.lost(
                model.durable,
                format!("{chat}: not readable after the restart: {other:?}"),
            );
            compare(client, chat, model, found);
            return;
        }
    };
    let events = state["events"].as_u64().unwrap_or(0);
    found.lost(
        model.durable.saturating_sub(events),
        format!(
            "{chat}: {} events acknowledged, {events} in the log",
            model.durable
        ),
    );
    let names = |field: &str, key: &str| -> BTreeSet<String> {
        state[field]
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .filter_map(|i| i[key].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let marks = names("marks", "name");
    for mark in model.marks.difference(&marks) {
        found.lost(1, format!("{chat}: the mark `{mark}` is gone"));
    }
    let pending: BTreeSet<u64> = state["pending"]
        .as_array()
        .map(|items| items.iter().filter_map(|q| q["id"].as_u64()).collect())
        .unwrap_or_default();
    for question in model.given.difference(&model.answer_sent) {
        if !pending.contains(question) {
            found.lost(
                1,
                format!("{chat}: question {question} is no longer pending"),
            );
        }
    }
    for question in model.answered.intersection(&pending) {
        found.lost(
            1,
            format!("{chat}: the answer to question {question} is gone"),
        );
    }
    let kept: BTreeSet<(String, String)> = state["kept"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|k| {
                    let text = |key: &str| k[key].as_str().unwrap_or_default().to_string();
                    (text("tool"), text("class"))
                })
                .collect()
        })
        .unwrap_or_default();
    for (tool, class) in model.kept.difference(&kept) {
        found.lost(1, format!("{chat}: the kept answer {tool} {class} is gone"));
    }
    let tasks: BTreeSet<String> = state["tasks"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    for task in &model.tasks {
        let readable = matches!(
            client.call("GET", &format!("/v1/chats/{task}"), false, None),
            Reply::Answered(200, ref t) if t["parent"] == chat
        );
        if !tasks.contains(task) || !readable {
            found.lost(1, format!("{chat}: the task {task} is gone"));
        }
    }
    let messages = state["counts"]
        .as_array()
        .map(|counts| counts.iter().filter(|c| c["kind"] == "messages").count() as u64)
        .unwrap_or(0);
    found.lost(
        model.counted.saturating_sub(messages),
        format!(
            "{chat}: {} messages counted, {messages} in the watch",
            model.counted
        ),
    );
    // The restart settles a mode that was in flight: from now on, the log has it or not.
    if let Some(unsure) = model.mode_unsure.take()
        && state["mode"].as_str() == Some(unsure.as_str())
    {
        model.mode = Some(unsure);
    }
    if let Some(mode) = &model.mode
        && state["mode"].as_str() != Some(mode.as_str())
    {
        found.lost(
            1,
            format!("{chat}: mode {mode} acknowledged, {} after", state["mode"]),
        );
    }
    compare(client, chat, model, found);
}

/// A settled chat's probes peeked again: each verdict as before the kill.
fn compare(client: &Client, chat: &str, model: &ChatModel, found: &mut Found) {
    if !model.settled {
        return;
    }
    let Some(before) = &model.probes else {
        return;
    };
    let Some(after) = probe(client, chat) else {
        found.changed += 1;
        found.why.push(format!(
            "{chat}: its probes got no answer after the restart"
        ));
        return;
    };
    for ((body, before), after) in PROBES.iter().zip(before).zip(&after) {
        found.compared += 1;
        if before != after {
            found.changed += 1;
            let step = body();
            found.why.push(format!(
                "{chat}: {} {}: {before} before the kill, {after} after",
                step["tool_name"], step["tool_input"]
            ));
        }
    }
}

/// `warden torture`.
pub fn main(args: TortureArgs) -> Result<std::process::ExitCode> {
    if args.kills == 0 || args.chats == 0 || args.connections == 0 {
        bail!("--kills, --chats and --connections must be at least 1");
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    std::fs::create_dir_all(&args.data)
        .with_context(|| format!("creating {}", args.data.display()))?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "warden torture: seed {seed}, {} kills over {:.1} s, {} chats, {} connections, data in {}",
        args.kills,
        args.seconds,
        args.chats,
        args.connections,
        args.data.display()
    )?;
    let mut rng = Rng::new(seed);
    // Each client owns its chats: one request of a chat at a time.
    let mut owned: Vec<Vec<(String, ChatModel)>> =
        (0..args.connections).map(|_| Vec::new()).collect();
    for n in 0..args.chats {
        if let Some(chats) = owned.get_mut(n % args.connections) {
            chats.push((format!("t{n}"), ChatModel::default()));
        }
    }
    let mean = args.seconds / f64::from(args.kills);
    let mut server = Server::start(&args.data)?;
    let token = token(&args.data)?;
    let (mut acknowledged, mut lost, mut changed, mut record_only, mut refused) = (0, 0, 0, 0, 0);
    for round in 1..=args.kills {
        let stop = Arc::new(AtomicBool::new(false));
        let mut clients = Vec::new();
        for (n, chats) in std::mem::take(&mut owned).into_iter().enumerate() {
            let client = Client::new(&server.addr, token.clone());
            let stop = Arc::clone(&stop);
            let mut rng = Rng::new(seed ^ (u64::from(round) << 32) ^ n as u64);
            clients.push(std::thread::spawn(move || {
                let mut chats = chats;
                let tally = drive(&client, &mut chats, &mut rng, &stop);
                (chats, tally)
            }));
        }
        let under_load = Duration::from_secs_f64(mean * (0.25 + 1.5 * rng.unit()));
        std::thread::sleep(under_load);
        server.kill_9()?;
        stop.store(true, Ordering::Relaxed);
        let mut tally = Tally::default();
        for client in clients {
            let (chats, t) = client
                .join()
                .map_err(|_| anyhow::anyhow!("a client thread panicked"))?;
            owned.push(chats);
            tally.requests += t.requests;
            tally.acknowledged += t.acknowledged;
            tally.record_only += t.record_only;
            tally.refused += t.refused;
        }
        acknowledged += tally.acknowledged;
        record_only += tally.record_only;
        refused += tally.refused;
        let restarting = Instant::now();
        server = Server::start(&args.data)?;
        let restart = restarting.elapsed();
        let client = Client::new(&server.addr, token.clone());
        let mut found = Found::default();
        for (chat, model) in owned.iter_mut().flatten() {
            check(&client, chat, model, &mut found);
        }
        lost += found.lost;
        changed += found.changed;
        writeln!(
            out,
            "round {round}: killed after {:.2} s, {} requests, {} acknowledged ({acknowledged} in all), restarted in {:.2} s, lost {}, verdicts changed {} of {} compared",
            under_load.as_secs_f64(),
            tally.requests,
            tally.acknowledged,
            restart.as_secs_f64(),
            found.lost,
            found.changed,
            found.compared
        )?;
        for why in found.why.iter().take(20) {
            writeln!(out, "  {why}")?;
        }
        if found.why.len() > 20 {
            writeln!(out, "  … and {} more", found.why.len() - 20)?;
        }
        out.flush()?;
    }
    server.kill_9()?;
    writeln!(
        out,
        "kills {}, acknowledged {acknowledged}, lost {lost}, verdicts changed {changed} (also {record_only} steps recorded without waiting, {refused} refused; seed {seed})",
        args.kills
    )?;
    Ok(if lost == 0 && changed == 0 {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_numbers() {
        let (mut a, mut b) = (Rng::new(42), Rng::new(42));
        let first: Vec<u64> = (0..8).map(|_| a.next()).collect();
        let second: Vec<u64> = (0..8).map(|_| b.next()).collect();
        assert_eq!(first, second);
        assert!((0..1000).all(|_| a.below(7) < 7 && a.unit() < 1.0));
    }

    #[test]
    fn a_verdict_is_compared_by_decision_score_and_rules() {
        let answer = json!({"decision": "ask", "score": 3, "risks": [{"rule": "git.push"}]});
        assert_eq!(verdict_of(&answer), "ask 3 [git.push]");
    }

    #[test]
    fn every_probe_and_step_is_a_judge_body() {
        for body in PROBES
            .iter()
            .map(|p| p())
            .chain(STEPS.iter().map(|s| (s.body)()))
        {
            assert!(body["tool_name"].is_string(), "{body}");
        }
    }
}
