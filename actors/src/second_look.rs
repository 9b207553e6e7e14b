//! The second look's host half. It posts the law's prompt (`warden::second_look::prompt`)
//! to a small model the person already runs, over the OpenAI-compatible chat-completions
//! API (llama.cpp's server, Ollama, vLLM), and reads back one word. What to ask, and what
//! the answer does to a verdict, are the law's: this module only carries them.
//!
//! - **Plain HTTP only.** The model runs on this machine or on the local network. An
//!   `https://` address is a configuration error, not a silent downgrade. The client has no
//!   proxy (one from the environment would carry the person's words elsewhere) and follows
//!   no redirect.
//! - **Bounded twice.** The call runs on tokio's blocking pool. ureq's own global timeout
//!   ends it on its thread, and `tokio::time::timeout` answers the caller at the same bound
//!   even if that thread is slow to notice. So no look holds a chat longer than
//!   `timeout_ms`, and no thread outlives it by much.
//! - **Fail closed.** Every failure is a [`LookError`]. The caller hands `result.ok()` to
//!   `warden::second_look::apply`, which keeps the question (see `docs/second-look.md`).
//! - **Structured output.** The request carries `response_format`, a JSON schema whose only
//!   field is an enum of the kinds (`warden::second_look::response_format`): llama.cpp's
//!   server, vLLM and Ollama then let the model write nothing else. The strict reader still
//!   reads the answer, for an endpoint that ignores the field.
//! - **Calibrated before use.** [`SecondLook::calibrate`] puts the law's calibration set
//!   (`warden::second_look::calibration`) to the model. Until a calibration has passed, and
//!   after one fails, [`SecondLook::is_usable`] is false and the runtime doesn't look: the
//!   questions stand, and [`SecondLook::standing`] says why (`/healthz`, `/metrics`, the log,
//!   `warden look --check`).
//! - **One look in flight.** A look takes the endpoint's one slot or doesn't happen
//!   ([`LookError::Busy`]): a step never waits behind another step's look, and a serial server
//!   is never handed a queue. The slot is held until the HTTP call has really ended (ureq's
//!   own timeout closes the connection at `timeout_ms`, which is how llama.cpp's server,
//!   Ollama and vLLM are told to stop working on it).
//!
//! The runtime's call, once `[second_look]` is configured (`LookConfig`, `SecondLook::new`):
//! judge the step, apply kept answers and global lifts, then ask
//! `warden::second_look::purpose`. For `Some(purpose)`, hand
//! `look.ask(step, ctx, note, purpose).await.ok()` to `warden::second_look::apply`.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;
use warden::second_look::calibration::{Calibration, canaries};
use warden::second_look::{
    Format, Kind, Message, Purpose, Unreadable, prompt, read_answer, response_format,
};
use warden::step::{Context, Step};

/// How long a look may take unless configured (`timeout_ms`). Measured on this project's
/// 2-core CPU machines with llama-cpp-python's server and SmolLM2-135M, with the grammar: a
/// look reads 560 to 700 tokens of prompt and takes 1.3 to 1.4 s for a lift and 2.5 to 2.7 s
/// for an add when the machine is otherwise idle (`docs/second-look.md`). 3 s answers all of
/// them, and fits under the Claude Code hook's own 4 s bound for a whole step
/// (`hook::BOUND`) with a second left for the rest of the round trip: a longer look would
/// only make the hook give up first. Only one look is ever in flight, so a slow look costs
/// the step it serves, never the ones after it.
pub const DEFAULT_TIMEOUT_MS: u64 = 3_000;

/// How often `warden serve` calibrates the model again: a model swapped behind the same
/// address, or a server that was down at the start, is found within this.
pub const CALIBRATE_EVERY: Duration = Duration::from_secs(600);

/// The look latency histogram's upper bounds, in seconds.
pub const BUCKETS: [f64; 10] = [0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 15.0, 30.0];

/// The longest `timeout_ms` warden accepts: a look that takes longer holds the chat's step.
pub const MOST_TIMEOUT_MS: u64 = 60_000;

/// The most tokens the model may answer with: `{"kind": "not_risky"}` is about ten, a bare
/// kind a few. No room for a preamble, which is unreadable anyway.
pub const MAX_TOKENS: u32 = 24;

/// The largest reply read, in bytes: a completion of a few tokens is well under it.
const REPLY_MAX: u64 = 64 * 1024;

/// The `[second_look]` table of the configuration.
///
/// ```toml
/// [second_look]
/// url = "http://127.0.0.1:11434"   # Ollama; with or without /v1
/// model = "qwen2.5:3b-instruct"
/// timeout_ms = 2000                 # optional, 1 to 60000
/// api_key_env = "LOOK_API_KEY"      # optional: sent as a bearer token
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LookConfig {
    /// The server's address over plain http: `http://127.0.0.1:8080` (llama.cpp),
    /// `http://127.0.0.1:11434` (Ollama), `http://gpu-box.lan:8000` (vLLM). A trailing
    /// `/v1` or `/v1/chat/completions` is allowed; warden posts to
    /// `{address}/v1/chat/completions`.
    pub url: String,
    /// The model's name as the server knows it.
    pub model: String,
    /// How long one look may take, in milliseconds (default 2000).
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
    /// The environment variable holding an API key, sent as `Authorization: Bearer …`.
    /// Read once, when the look is set up. The key itself never goes in the file.
    #[serde(default)]
    pub api_key_env: Option<String>,
}

fn default_timeout_ms() -> u64 {
    DEFAULT_TIMEOUT_MS
}

/// Why a look couldn't be set up, or gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum LookError {
    #[error(
        "second_look.url `{0}` is https: warden talks to a local model over plain http only (http://host:port)"
    )]
    Https(String),
    #[error("second_look.url `{0}` is not an http address (http://host:port, with or without /v1)")]
    Url(String),
    #[error("second_look.model is empty: name the model the server runs")]
    NoModel,
    #[error("second_look.timeout_ms `{0}` is out of range: 1 to {MOST_TIMEOUT_MS}")]
    TimeoutRange(u64),
    #[error("the environment variable `{0}` named by second_look.api_key_env is not set")]
    NoKey(String),
    #[error("no randomness for the fence nonce: {0}")]
    Nonce(String),
    #[error("the second look took longer than {0} ms")]
    Timeout(u64),
    #[error("another look is in flight at the endpoint, so this step doesn't wait for one")]
    Busy,
    #[error("the second look at `{endpoint}` could not be reached: {error}")]
    Unreachable { endpoint: String, error: String },
    #[error("the second look at `{endpoint}` answered HTTP {status}")]
    Status { endpoint: String, status: u16 },
    #[error("the second look's reply is not a chat completion: {0}")]
    Reply(String),
    #[error(transparent)]
    Unreadable(#[from] Unreadable),
}

/// Whether the model may judge, after its calibration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// Not calibrated yet: the look is off until it is.
    Unchecked,
    /// Answered every canary right: the look is on.
    Passed,
    /// Failed its calibration (the reason, in warden's words): the look is off.
    Refused(String),
}

impl Standing {
    /// Why the look is off, or `None` when it is on.
    pub fn why_off(&self) -> Option<String> {
        match self {
            Standing::Passed => None,
            Standing::Unchecked => Some("the second look's model is not calibrated yet".into()),
            Standing::Refused(why) => Some(format!(
                "the second look is off: {why}, so the questions stand"
            )),
        }
    }
}

/// What looks did, counted since the look was set up (`/metrics`).
#[derive(Debug, Default)]
struct Counters {
    /// Looks asked for a step (each took the slot).
    asked: AtomicU64,
    /// Answers, by kind, in `Kind::ALL`'s order.
    answered: [AtomicU64; 6],
    unreadable: AtomicU64,
    timed_out: AtomicU64,
    /// Steps that didn't wait because another look was in flight.
    busy: AtomicU64,
    /// Any other failure: unreachable, an HTTP error, a reply that isn't a completion.
    failed: AtomicU64,
    /// Looks not asked because the model isn't calibrated or failed its calibration.
    refused: AtomicU64,
    calibrations_passed: AtomicU64,
    calibrations_failed: AtomicU64,
    /// Looks answered or failed, per latency bucket (the last for +Inf).
    buckets: [AtomicU64; BUCKETS.len() + 1],
    sum_nanos: AtomicU64,
}

/// A snapshot of the counters, for `/metrics`.
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    pub asked: u64,
    /// By kind, in `Kind::ALL`'s order.
    pub answered: [(Kind, u64); 6],
    pub unreadable: u64,
    pub timed_out: u64,
    pub busy: u64,
    pub failed: u64,
    pub refused: u64,
    pub calibrations_passed: u64,
    pub calibrations_failed: u64,
    /// Cumulative, per [`BUCKETS`] bound, then +Inf.
    pub buckets: Vec<u64>,
    pub sum_seconds: f64,
    /// Whether the look is on (its model passed its last calibration).
    pub usable: bool,
}

/// A configured second look: cheap to clone, safe to share between chats. Clones share the
/// endpoint's one slot, the counters and the calibration.
#[derive(Clone)]
pub struct SecondLook {
    agent: ureq::Agent,
    endpoint: String,
    model: String,
    timeout: Duration,
    key: Option<String>,
    slot: Arc<Semaphore>,
    counters: Arc<Counters>,
    /// Whether the model passed its last calibration: written by the calibration alone,
    /// read by every chat as a snapshot (`borrow`, cloned, let go).
    standing: Arc<tokio::sync::watch::Sender<Standing>>,
    /// The structured output's shape this endpoint takes ([`format_of`]), learned when it
    /// refuses one, tried from the first again at each calibration.
    format: Arc<AtomicU8>,
}

/// A [`Format`] as the atomic holds it.
fn format_of(n: u8) -> Format {
    match n {
        0 => Format::JsonSchema,
        1 => Format::JsonObject,
        _ => Format::Plain,
    }
}

fn format_index(format: Format) -> u8 {
    match format {
        Format::JsonSchema => 0,
        Format::JsonObject => 1,
        Format::Plain => 2,
    }
}

impl fmt::Debug for SecondLook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SecondLook")
            .field("endpoint", &self.endpoint)
            .field("model", &self.model)
            .field("timeout", &self.timeout)
            .field("key", &self.key.as_ref().map(|_| "set"))
            .finish()
    }
}

/// The chat-completions request.
#[derive(Serialize)]
struct Request<'a> {
    model: &'a str,
    messages: &'a [Message],
    temperature: u8,
    max_tokens: u32,
    stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    response_format: Option<serde_json::Value>,
}

/// As much of a chat completion as warden reads: `choices[0].message.content`.
#[derive(Deserialize)]
struct Completion {
    choices: Vec<Choice>,
}

#[derive(Deserialize)]
struct Choice {
    message: Reply,
}

#[derive(Deserialize)]
struct Reply {
    content: Option<String>,
}

impl SecondLook {
    /// Checks the configuration and sets up the client: an http address, a model, a
    /// timeout in range, and the API key's variable set if one is named.
    pub fn new(config: &LookConfig) -> Result<SecondLook, LookError> {
        let endpoint = endpoint(&config.url)?;
        if config.model.trim().is_empty() {
            return Err(LookError::NoModel);
        }
        if !(1..=MOST_TIMEOUT_MS).contains(&config.timeout_ms) {
            return Err(LookError::TimeoutRange(config.timeout_ms));
        }
        let key = match &config.api_key_env {
            None => None,
            Some(name) => match std::env::var(name) {
                Ok(key) if !key.trim().is_empty() => Some(key.trim().to_string()),
                _ => return Err(LookError::NoKey(name.clone())),
            },
        };
        let timeout = Duration::from_millis(config.timeout_ms);
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .proxy(None)
            .max_redirects(0)
            .http_status_as_error(false)
            .user_agent("warden")
            .build()
            .into();
        Ok(SecondLook {
            agent,
            endpoint,
            model: config.model.clone(),
            timeout,
            key,
            slot: Arc::new(Semaphore::new(1)),
            counters: Arc::new(Counters::default()),
            standing: Arc::new(tokio::sync::watch::Sender::new(Standing::Unchecked)),
            format: Arc::new(AtomicU8::new(0)),
        })
    }

    /// The structured output's shape this endpoint is asked for now.
    pub fn format(&self) -> Format {
        format_of(self.format.load(Ordering::Relaxed))
    }

    /// Whether the model passed its last calibration, and why not.
    pub fn standing(&self) -> Standing {
        self.standing.borrow().clone()
    }

    /// Whether the runtime may look: the model passed its last calibration.
    pub fn is_usable(&self) -> bool {
        *self.standing.borrow() == Standing::Passed
    }

    fn stand(&self, standing: Standing) {
        self.standing.send_replace(standing);
    }

    /// Counts a look the runtime didn't ask because the model may not judge.
    pub fn refused(&self) {
        self.counters.refused.fetch_add(1, Ordering::Relaxed);
    }

    /// Puts the calibration set to the model, one canary at a time (each waits for the
    /// endpoint's slot), and stands by the result: the look is on only if every canary was
    /// answered right. Logged, and counted for `/metrics`.
    pub async fn calibrate(&self) -> Calibration {
        self.format.store(0, Ordering::Relaxed);
        let mut answers = Vec::new();
        for canary in canaries() {
            let answer = match nonce() {
                Ok(nonce) => {
                    let messages = prompt(&canary.step, &canary.ctx, "", canary.purpose, nonce);
                    self.call(&messages, true).await
                }
                Err(e) => Err(e),
            };
            if let Err(e) = &answer {
                tracing::debug!(canary = canary.name, error = %e, "a calibration step got no answer");
            }
            answers.push(answer.ok());
        }
        let calibration = Calibration::of(&answers);
        match calibration.failure() {
            None => {
                self.counters
                    .calibrations_passed
                    .fetch_add(1, Ordering::Relaxed);
                tracing::info!(endpoint = %self.endpoint, model = %self.model, "the second look's model passed its calibration; the look is on");
                self.stand(Standing::Passed);
            }
            Some(why) => {
                self.counters
                    .calibrations_failed
                    .fetch_add(1, Ordering::Relaxed);
                tracing::warn!(endpoint = %self.endpoint, model = %self.model, "the second look is off: {why}; the questions stand");
                self.stand(Standing::Refused(why));
            }
        }
        calibration
    }

    /// What looks did so far, for `/metrics`.
    pub fn figures(&self) -> Figures {
        let c = &self.counters;
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let mut answered = [(Kind::NotRisky, 0); 6];
        for (n, kind) in Kind::ALL.into_iter().enumerate() {
            answered[n] = (kind, load(&c.answered[n]));
        }
        let mut cumulative = 0;
        let buckets = c
            .buckets
            .iter()
            .map(|b| {
                cumulative += load(b);
                cumulative
            })
            .collect();
        Figures {
            asked: load(&c.asked),
            answered,
            unreadable: load(&c.unreadable),
            timed_out: load(&c.timed_out),
            busy: load(&c.busy),
            failed: load(&c.failed),
            refused: load(&c.refused),
            calibrations_passed: load(&c.calibrations_passed),
            calibrations_failed: load(&c.calibrations_failed),
            buckets,
            sum_seconds: load(&c.sum_nanos) as f64 / 1e9,
            usable: self.is_usable(),
        }
    }

    /// Where the look posts: `{url}/v1/chat/completions`.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// How long one look may take.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// One look from start to end: a fresh random nonce, the law's prompt, the answer.
    pub async fn ask(
        &self,
        step: &Step,
        ctx: &Context,
        note: &str,
        purpose: Purpose,
    ) -> Result<Kind, LookError> {
        let messages = prompt(step, ctx, note, purpose, nonce()?);
        self.look(&messages).await
    }

    /// Posts `messages` (`{"model", "messages", "temperature": 0, "max_tokens": 24,
    /// "stream": false, "response_format": …}`) and reads `choices[0].message.content` as
    /// one kind. Returns within [`SecondLook::timeout`], or at once with
    /// [`LookError::Busy`] when another look holds the endpoint's slot. Counted for
    /// `/metrics`, and a look that answered is logged at debug.
    pub async fn look(&self, messages: &[Message]) -> Result<Kind, LookError> {
        let started = Instant::now();
        let answer = self.call(messages, false).await;
        let c = &self.counters;
        match &answer {
            Err(LookError::Busy) => {
                c.busy.fetch_add(1, Ordering::Relaxed);
                return answer;
            }
            Ok(kind) => {
                if let Some(n) = Kind::ALL.iter().position(|k| k == kind) {
                    c.answered[n].fetch_add(1, Ordering::Relaxed);
                }
                tracing::debug!(
                    kind = kind.name(),
                    took_ms = millis(started.elapsed()),
                    "the second look answered"
                );
            }
            Err(LookError::Unreadable(_)) => {
                c.unreadable.fetch_add(1, Ordering::Relaxed);
            }
            Err(LookError::Timeout(_)) => {
                c.timed_out.fetch_add(1, Ordering::Relaxed);
            }
            Err(_) => {
                c.failed.fetch_add(1, Ordering::Relaxed);
            }
        }
        c.asked.fetch_add(1, Ordering::Relaxed);
        let took = started.elapsed();
        let bucket = BUCKETS
            .iter()
            .position(|le| took.as_secs_f64() <= *le)
            .unwrap_or(BUCKETS.len());
        if let Some(counter) = c.buckets.get(bucket) {
            counter.fetch_add(1, Ordering::Relaxed);
        }
        c.sum_nanos.fetch_add(
            u64::try_from(took.as_nanos()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
        answer
    }

    /// One request in the endpoint's slot: taken at once, or waited for (`wait`, for the
    /// calibration, which no step waits on).
    async fn call(&self, messages: &[Message], wait: bool) -> Result<Kind, LookError> {
        let slot = Arc::clone(&self.slot);
        let permit = if wait {
            slot.acquire_owned().await.map_err(|_| LookError::Busy)?
        } else {
            slot.try_acquire_owned().map_err(|_| LookError::Busy)?
        };
        let ms = millis(self.timeout);
        let agent = self.agent.clone();
        let endpoint = self.endpoint.clone();
        let key = self.key.clone();
        let model = self.model.clone();
        let messages = messages.to_vec();
        let format = Arc::clone(&self.format);
        // INVARIANT: the slot is held until the HTTP call has ended, not only until the
        // caller stopped waiting, so warden never has two requests at the endpoint.
        let call = tokio::task::spawn_blocking(move || {
            let reply = loop {
                let shape = format_of(format.load(Ordering::Relaxed));
                let body = serde_json::to_vec(&Request {
                    model: &model,
                    messages: &messages,
                    temperature: 0,
                    max_tokens: MAX_TOKENS,
                    stream: false,
                    response_format: response_format(shape),
                })
                .map_err(|e| LookError::Reply(e.to_string()));
                let reply =
                    body.and_then(|body| post(&agent, &endpoint, key.as_deref(), &body, ms));
                match reply {
                    // An endpoint that refuses this shape of structured output (a 400, a 422,
                    // or llama-cpp-python's 500) is asked in the next shape, and keeps it.
                    Err(LookError::Status {
                        status: 400 | 422 | 500,
                        ..
                    }) if shape != Format::Plain => {
                        let next = shape.next();
                        tracing::debug!(
                            ?shape,
                            ?next,
                            "the endpoint refused this structured output; trying the next shape"
                        );
                        format.store(format_index(next), Ordering::Relaxed);
                    }
                    other => break other,
                }
            };
            drop(permit);
            reply
        });
        let text = match tokio::time::timeout(self.timeout, call).await {
            Err(_) => return Err(LookError::Timeout(ms)),
            Ok(Err(join)) => {
                return Err(LookError::Unreachable {
                    endpoint: self.endpoint.clone(),
                    error: join.to_string(),
                });
            }
            Ok(Ok(reply)) => reply?,
        };
        let completion: Completion =
            serde_json::from_str(&text).map_err(|e| LookError::Reply(e.to_string()))?;
        let content = completion
            .choices
            .into_iter()
            .next()
            .and_then(|choice| choice.message.content)
            .ok_or_else(|| LookError::Reply("no choices[0].message.content".to_string()))?;
        Ok(read_answer(&content)?)
    }
}

/// A fresh random nonce for one prompt's fences, from the operating system.
pub fn nonce() -> Result<u64, LookError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| LookError::Nonce(e.to_string()))?;
    Ok(u64::from_le_bytes(bytes))
}

/// The chat-completions address for a configured `url`: plain http, a host, no query;
/// a trailing `/`, `/v1` or `/v1/chat/completions` taken off before
/// `/v1/chat/completions` is added.
fn endpoint(url: &str) -> Result<String, LookError> {
    let url = url.trim();
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("https://") {
        return Err(LookError::Https(url.to_string()));
    }
    let bad = || LookError::Url(url.to_string());
    if !lower.starts_with("http://")
        || url.contains(['?', '#'])
        || url.contains(char::is_whitespace)
    {
        return Err(bad());
    }
    let mut base = url.trim_end_matches('/');
    for tail in ["/v1/chat/completions", "/v1"] {
        if let Some(rest) = base.strip_suffix(tail) {
            base = rest.trim_end_matches('/');
            break;
        }
    }
    let endpoint = format!("{base}/v1/chat/completions");
    let uri: ureq::http::Uri = endpoint.parse().map_err(|_| bad())?;
    match uri.host() {
        Some(host) if !host.is_empty() => Ok(endpoint),
        _ => Err(bad()),
    }
}

/// The blocking call, on tokio's blocking pool: the reply's body, or why there is none.
fn post(
    agent: &ureq::Agent,
    endpoint: &str,
    key: Option<&str>,
    body: &[u8],
    ms: u64,
) -> Result<String, LookError> {
    let failed = |error: ureq::Error| match error {
        ureq::Error::Timeout(_) => LookError::Timeout(ms),
        other => LookError::Unreachable {
            endpoint: endpoint.to_string(),
            error: other.to_string(),
        },
    };
    let mut request = agent
        .post(endpoint)
        .header("content-type", "application/json");
    if let Some(key) = key {
        request = request.header("authorization", format!("Bearer {key}"));
    }
    let mut response = request.send(body).map_err(failed)?;
    let status = response.status();
    if !status.is_success() {
        return Err(LookError::Status {
            endpoint: endpoint.to_string(),
            status: status.as_u16(),
        });
    }
    response
        .body_mut()
        .with_config()
        .limit(REPLY_MAX)
        .read_to_string()
        .map_err(failed)
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_with_or_without_v1_posts_to_the_same_endpoint() {
        #[rustfmt::skip]
        let cases: &[(&str, &str)] = &[
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080/v1/chat/completions"),
            ("http://127.0.0.1:8080/", "http://127.0.0.1:8080/v1/chat/completions"),
            ("http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1/chat/completions"),
            ("http://127.0.0.1:8080/v1/", "http://127.0.0.1:8080/v1/chat/completions"),
            ("http://localhost:11434/v1/chat/completions", "http://localhost:11434/v1/chat/completions"),
            (" HTTP://gpu-box.lan:8000 ", "HTTP://gpu-box.lan:8000/v1/chat/completions"),
            ("http://gpu-box.lan/llm/v1", "http://gpu-box.lan/llm/v1/chat/completions"),
        ];
        for (url, want) in cases {
            assert_eq!(endpoint(url).ok().as_deref(), Some(*want), "{url}");
        }
    }

    #[test]
    fn an_address_that_is_not_plain_http_is_refused_by_name() {
        assert!(matches!(
            endpoint("https://api.example.com"),
            Err(LookError::Https(_))
        ));
        for url in [
            "",
            "127.0.0.1:8080",
            "ftp://host",
            "http://",
            "http:///v1",
            "http://host:8080/?key=x",
            "http://ho st",
        ] {
            assert!(matches!(endpoint(url), Err(LookError::Url(_))), "{url}");
        }
    }
}
