//! The batch protocol every way in shares: one JSON request in, one JSON answer out.
//! Documented in `docs/protocol.md`.

use crate::facts::Facts;
use crate::law::judge;
use crate::mode::Mode;
use crate::step::{Context, Step};
use crate::verdict::{Decision, Harm, Scored, Verdict};
use crate::wish::{Name, Wish};
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    pub tool_name: String,
    #[serde(default)]
    pub tool_input: Value,
}

/// What the host fills in where a request is silent.
#[derive(Debug, Clone)]
pub struct Defaults {
    /// The work folder when a request names none.
    pub cwd: String,
    /// What Claude Code's `default` mode means here.
    pub default_mode: Mode,
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
    let step = match request.tool_name.as_str() {
        "Bash" | "bash" | "shell" | "PowerShell" => {
            let command = request.tool_input.get("command").and_then(Value::as_str);
            let Some(command) = command else {
                return Err(RequestError::MissingInput {
                    tool: request.tool_name.clone(),
                    field: "command",
                });
            };
            Step::Command {
                command: command.to_string(),
            }
        }
        other => Step::Unjudged {
            tool: other.to_string(),
        },
    };
    let cwd = request
        .cwd
        .clone()
        .filter(|cwd| !cwd.is_empty())
        .unwrap_or_else(|| defaults.cwd.clone());
    let ctx = Context {
        mode,
        cwd,
        said: request.said.clone(),
        read: request.read.clone(),
        others: request.others,
    };
    Ok((step, ctx))
}

/// The answer for a verdict.
pub fn answer(id: Value, verdict: &Verdict) -> Answer {
    Answer {
        id,
        decision: verdict.decision,
        score: verdict.score,
        reason: verdict.reason.clone(),
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
        reason: risk.reason.clone(),
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

/// Judges one JSON line into an answer, or the id and the error.
pub fn judge_value(
    line: &str,
    defaults: &Defaults,
    facts: &dyn Facts,
) -> Result<Answer, (Value, RequestError)> {
    let value: Value = serde_json::from_str(line)
        .map_err(|e| (Value::Null, RequestError::NotJson(e.to_string())))?;
    let id = value.get("id").cloned().unwrap_or(Value::Null);
    if !value.is_object() {
        return Err((Value::Null, RequestError::NotObject));
    }
    let request: Request = serde_json::from_value(value)
        .map_err(|e| (id.clone(), RequestError::Invalid(e.to_string())))?;
    let (step, ctx) = read_request(&request, defaults).map_err(|e| (id.clone(), e))?;
    let verdict = judge(&step, &ctx, facts);
    Ok(answer(id, &verdict))
}

fn to_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| {
        // Serialising our own types cannot fail; if it ever does, the answer still asks.
        format!(r#"{{"id":null,"decision":"ask","score":0,"reason":"warden could not write its answer ({e}), so it asks.","risks":[]}}"#)
    })
}
