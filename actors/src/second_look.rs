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
//!
//! The runtime's call, once `[second_look]` is configured (`LookConfig`, `SecondLook::new`):
//! judge the step, apply kept answers and global lifts, then ask
//! `warden::second_look::purpose`. For `Some(purpose)`, hand
//! `look.ask(step, ctx, note, purpose).await.ok()` to `warden::second_look::apply`.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;
use warden::second_look::{Kind, Message, Purpose, Unreadable, prompt, read_answer};
use warden::step::{Context, Step};

/// How long a look may take unless configured (`timeout_ms`).
pub const DEFAULT_TIMEOUT_MS: u64 = 2_000;

/// The longest `timeout_ms` warden accepts: a look that takes longer holds the chat's step.
pub const MOST_TIMEOUT_MS: u64 = 60_000;

/// The most tokens the model may answer with: a kind is a few.
pub const MAX_TOKENS: u32 = 8;

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
    #[error("the second look at `{endpoint}` could not be reached: {error}")]
    Unreachable { endpoint: String, error: String },
    #[error("the second look at `{endpoint}` answered HTTP {status}")]
    Status { endpoint: String, status: u16 },
    #[error("the second look's reply is not a chat completion: {0}")]
    Reply(String),
    #[error(transparent)]
    Unreadable(#[from] Unreadable),
}

/// A configured second look: cheap to clone, safe to share between chats.
#[derive(Clone)]
pub struct SecondLook {
    agent: ureq::Agent,
    endpoint: String,
    model: String,
    timeout: Duration,
    key: Option<String>,
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
        })
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

    /// Posts `messages` (`{"model", "messages", "temperature": 0, "max_tokens": 8,
    /// "stream": false}`) and reads `choices[0].message.content` as one kind. Returns
    /// within [`SecondLook::timeout`].
    pub async fn look(&self, messages: &[Message]) -> Result<Kind, LookError> {
        let body = serde_json::to_vec(&Request {
            model: &self.model,
            messages,
            temperature: 0,
            max_tokens: MAX_TOKENS,
            stream: false,
        })
        .map_err(|e| LookError::Reply(e.to_string()))?;
        let ms = millis(self.timeout);
        let agent = self.agent.clone();
        let endpoint = self.endpoint.clone();
        let key = self.key.clone();
        let call =
            tokio::task::spawn_blocking(move || post(&agent, &endpoint, key.as_deref(), &body, ms));
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
