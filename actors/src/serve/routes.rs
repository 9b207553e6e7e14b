//! The HTTP routes (`docs/protocol.md`, "HTTP API"): each decodes its request, calls the
//! runtime and answers JSON. No policy here: the law and the runtime decide; a route only
//! reads, checks the person's token where the route carries their words or settings, and
//! replies. Bad input is a 4xx `{"error": …}` naming the field; a runtime failure is
//! answered by its kind (`From<RuntimeError> for ApiError`, the one place), a 5xx with its
//! reason when the fault is warden's, never an allow.

use super::App;
use super::metrics::Gauges;
use super::page::Caller;
use super::token::Check;
use super::{events, page, settings};
use crate::runtime::{Made, RuntimeError, WriteError};
use crate::second_look::SecondLook;
use axum::body::Bytes;
use axum::extract::rejection::PathRejection;
use axum::extract::{
    DefaultBodyLimit, FromRequest, FromRequestParts, Path, RawQuery, Request, State,
};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, put};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use warden::chat::law::AnswerError;
use warden::chat::{Answer, ChatState, Company, Event, Kept, Mark, Offers, Shown};
use warden::mode::Mode;
use warden::preferences::NOTE_MAX;
use warden::protocol::{self, RiskOut};
use warden::step::Setting;
use warden::verdict::Decision;

/// The longest chat or task id.
pub const ID_MAX: usize = 256;

/// How long a request's body may take to arrive (`limits.body_timeout_ms`), for `JsonText`.
#[derive(Debug, Clone, Copy)]
struct BodyTimeout(Duration);

/// Every route, with the body limit and timeout and the loopback guard.
pub fn router(
    app: Arc<App>,
    body_bytes: usize,
    body_timeout: Duration,
    allow_remote: bool,
) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .route("/v1/chats/{chat}", get(chat_state).post(open_chat))
        .route("/v1/chats/{chat}/judge", post(judge))
        .route("/v1/chats/{chat}/peek", post(peek))
        .route("/v1/chats/{chat}/events", post(event))
        .route("/v1/chats/{chat}/tasks", post(task))
        .route("/v1/chats/{chat}/questions/{id}", post(answer))
        .route("/v1/chats/{chat}/kept", delete(forget_kept))
        .route("/v1/chats", get(settings::chats))
        .route("/v1/events", get(events::events))
        .route("/v1/preferences", get(preferences))
        .route("/v1/preferences/everywhere", delete(forget_everywhere))
        .route("/v1/preferences/rules", delete(forget_rule))
        .route("/v1/preferences/note", put(note))
        .route("/v1/preferences/settings", put(setting))
        .route("/v1/preferences/export", get(settings::export))
        .route("/v1/preferences/import", post(settings::import_preview))
        .route("/v1/preferences/import/apply", post(settings::import_apply))
        .route("/v1/page/links", post(page::new_link))
        .route("/page", get(page::index))
        .route("/page/", get(page::index))
        .route("/page/sign-in", get(page::sign_in))
        .route("/page/sign-out", post(page::sign_out))
        .route("/page/app.js", get(page::script))
        .route("/page/style.css", get(page::style))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(body_bytes))
        .layer(axum::Extension(BodyTimeout(body_timeout)))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&app),
            super::cluster::place,
        ))
        .layer(middleware::from_fn(move |request, next| {
            guard(allow_remote, request, next)
        }))
        .with_state(app)
}

// ---------------------------------------------------------------------------------------
// Errors

/// A 4xx or 5xx answer: `{"error": "…"}` (and the request's `id` on the judge route).
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    id: Option<Value>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            id: None,
        }
    }

    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// A runtime call that failed while the route tried to do `what`: the answer
    /// [`RuntimeError`]'s kind gives it, saying what warden could not do when the fault is
    /// warden's (a 5xx).
    /// Something of warden's own other than the runtime failed (a file it writes): 500.
    pub(crate) fn internal(what: &str, error: &dyn std::fmt::Display) -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("warden could not {what}: {error}"),
        )
    }

    pub(crate) fn failed(what: &str, error: RuntimeError) -> ApiError {
        let mut answer = ApiError::from(error);
        if answer.status.is_server_error() {
            answer.message = format!("warden could not {what}: {}", answer.message);
        }
        answer
    }
}

/// The one place a runtime failure becomes an HTTP answer: its status by kind, and its
/// message, naming the request's field where the request is what was wrong. A failure of
/// warden's is a 5xx (503 while the log can't be written, so nothing is judged), never an
/// allow.
impl From<RuntimeError> for ApiError {
    fn from(error: RuntimeError) -> ApiError {
        let (status, field) = match &error {
            RuntimeError::Answer {
                cause: AnswerError::NoQuestion(_),
                ..
            } => (StatusCode::NOT_FOUND, None),
            RuntimeError::Answer {
                cause: AnswerError::NotOffered { .. },
                ..
            } => (StatusCode::BAD_REQUEST, Some("answer")),
            RuntimeError::Answer {
                cause: AnswerError::NotAbout { .. },
                ..
            } => (StatusCode::BAD_REQUEST, Some("ran")),
            RuntimeError::OwnId { .. } => (StatusCode::BAD_REQUEST, Some("task")),
            RuntimeError::Taken { .. } => (StatusCode::CONFLICT, Some("task")),
            // The log can't be written, from the first write it refused on (a full disk)
            // to the one that works again: nothing is judged meanwhile, as `/healthz` says.
            RuntimeError::Unwritable { .. }
            | RuntimeError::Elsewhere { .. }
            | RuntimeError::Loading { .. }
            | RuntimeError::Write(
                WriteError::Fenced { .. } | WriteError::Refused(_) | WriteError::Stopped { .. },
            ) => (StatusCode::SERVICE_UNAVAILABLE, None),
            RuntimeError::Open(_)
            | RuntimeError::Write(WriteError::Unanswered)
            | RuntimeError::LastFlush(_)
            | RuntimeError::Read { .. }
            | RuntimeError::Timeout { .. }
            | RuntimeError::Gone { .. }
            | RuntimeError::Start { .. }
            | RuntimeError::NoJudge
            | RuntimeError::NotRunning => (StatusCode::INTERNAL_SERVER_ERROR, None),
        };
        match field {
            Some(field) => ApiError::new(status, format!("`{field}`: {error}")),
            None => ApiError::new(status, error.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.status.is_server_error() {
            tracing::error!(status = %self.status, error = %self.message, "a request failed");
        } else {
            tracing::debug!(status = %self.status, error = %self.message, "a request was refused");
        }
        let body = match self.id {
            Some(id) => json!({"id": id, "error": self.message}),
            None => json!({"error": self.message}),
        };
        let mut response = (self.status, Json(body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

type Answered<T> = Result<T, ApiError>;

/// The answer of a route that changed something.
fn ok() -> Json<Value> {
    Json(json!({"ok": true}))
}

// ---------------------------------------------------------------------------------------
// Reading requests

/// The body as JSON text: `Content-Type: application/json` (which a web page can't send
/// here without asking first), within the size limit, UTF-8.
pub struct JsonText(String);

impl<S: Send + Sync> FromRequest<S> for JsonText {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<JsonText, ApiError> {
        let is_json = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
        if !is_json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the body must be JSON, sent with `Content-Type: application/json`",
            ));
        }
        let BodyTimeout(within) = request
            .extensions()
            .get::<BodyTimeout>()
            .copied()
            .unwrap_or(BodyTimeout(Duration::from_millis(
                crate::config::BODY_TIMEOUT_MS,
            )));
        // A body shorter than its Content-Length, or sent a byte at a time, holds the
        // connection no longer than this: 408, and hyper closes the connection.
        let read = tokio::time::timeout(within, Bytes::from_request(request, state));
        let bytes = read.await.map_err(|_| {
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the body did not arrive within {} ms (`limits.body_timeout_ms` in the configuration)",
                    within.as_millis()
                ),
            )
        })?;
        let bytes = bytes.map_err(|r| {
            let status = r.status();
            if status == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    status,
                    "the body is larger than warden accepts (`limits.body_bytes` in the configuration)",
                )
            } else {
                ApiError::new(status, format!("the body could not be read: {}", r.body_text()))
            }
        })?;
        String::from_utf8(bytes.to_vec())
            .map(JsonText)
            .map_err(|_| ApiError::bad("the body is not UTF-8 text"))
    }
}

/// A JSON body read into `T`; an error names the field (`text`: invalid type…).
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Body<T>, ApiError> {
        let JsonText(text) = JsonText::from_request(request, state).await?;
        read(&text).map(Body)
    }
}

/// Reads JSON text into `T`, naming the field that was wrong.
fn read<T: DeserializeOwned>(text: &str) -> Answered<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            ApiError::bad(format!("the body is not JSON: {inner}"))
        } else if path == "." {
            ApiError::bad(format!("the body: {}", without_position(&inner)))
        } else {
            ApiError::bad(format!("`{path}`: {}", without_position(&inner)))
        }
    })?;
    de.end()
        .map_err(|e| ApiError::bad(format!("the body is not JSON: {e}")))?;
    Ok(value)
}

/// Reads a JSON value into `T`, naming the field that was wrong.
fn read_value<T: DeserializeOwned>(value: &Value) -> Answered<T> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." {
            ApiError::bad(format!("the body: {inner}"))
        } else {
            ApiError::bad(format!("`{path}`: {inner}"))
        }
    })
}

/// serde_json's message without " at line 1 column 12", which says nothing about a field.
fn without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rsplit_once(" at line ") {
        Some((message, _)) if error.line() > 0 => message.to_string(),
        _ => text,
    }
}

/// A chat or task id from the path or a body: not empty, not too long, no control
/// characters, and not `~…` (the log's own streams, like the preferences).
fn id_of(raw: &str, what: &str) -> Answered<String> {
    if raw.is_empty() {
        return Err(ApiError::bad(format!("the {what} id is empty")));
    }
    if raw.len() > ID_MAX {
        return Err(ApiError::bad(format!(
            "the {what} id is longer than {ID_MAX} bytes"
        )));
    }
    if raw.starts_with('~') || raw.chars().any(char::is_control) {
        return Err(ApiError::bad(format!(
            "the {what} id `{}` can't start with `~` or hold control characters",
            raw.escape_default()
        )));
    }
    Ok(raw.to_string())
}

/// The chat named in the path.
fn chat_of(path: Result<Path<String>, PathRejection>) -> Answered<String> {
    let Path(chat) = path.map_err(|r| ApiError::bad(format!("the path: {}", r.body_text())))?;
    id_of(&chat, "chat")
}

/// Refuses a request that doesn't carry the person's token: 401 without it, 403 with a
/// wrong one.
pub(crate) fn person(app: &App, headers: &HeaderMap) -> Answered<()> {
    let authorization = headers
        .get(header::AUTHORIZATION)
        .map(HeaderValue::as_bytes);
    match app.token.check(authorization) {
        Check::Good => Ok(()),
        Check::Missing => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "this route carries the person's own words or settings: send `Authorization: Bearer <token>` with the token in warden's data folder",
        )),
        Check::Wrong => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "the token is not the person's token",
        )),
    }
}

/// A request that carries the person's token; checked before its body is read.
pub struct Person;

impl FromRequestParts<Arc<App>> for Person {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Person, ApiError> {
        person(app, &parts.headers).map(|()| Person)
    }
}

/// A mode name (warden's or Claude Code's), naming `field` when it is none.
fn mode_of(app: &App, raw: &str, field: &str) -> Answered<Mode> {
    Mode::parse_with_default(raw, app.defaults.default_mode)
        .map_err(|e| ApiError::bad(format!("`{field}`: {e}")))
}

// ---------------------------------------------------------------------------------------
// The loopback guard and the request log

/// Whether a `Host` header is an authority that names this machine by a loopback name:
/// `localhost`, a `127.x.x.x` address or `[::1]`, each with or without a port, and nothing
/// else (no userinfo: `127.0.0.1:1@evil` names `evil`; no path, no spaces).
fn is_loopback_host(host: &str) -> bool {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        let Some((inside, after)) = rest.split_once(']') else {
            return false;
        };
        let Ok(ip) = inside.parse::<std::net::Ipv6Addr>() else {
            return false;
        };
        if !ip.is_loopback() {
            return false;
        }
        if after.is_empty() {
            return true;
        }
        match after.strip_prefix(':') {
            Some(port) => ("", port),
            None => return false,
        }
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) => (name, port),
            None => (host, ""),
        }
    };
    let port_is_good = (port.is_empty() && !host.ends_with(':'))
        || (port.bytes().all(|b| b.is_ascii_digit()) && port.parse::<u16>().is_ok());
    let name_is_good = (name.is_empty() && host.starts_with('['))
        || name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback());
    port_is_good && name_is_good
}

/// Why a request's `Host` is refused, if it is: missing (HTTP/1.1 requires it, and warden
/// asks it of HTTP/1.0 too), or, unless `allow_remote`, not a loopback authority (a web page
/// that rebinds its own name to 127.0.0.1 could otherwise read the open routes).
fn refused_host(allow_remote: bool, request: &Request) -> Option<ApiError> {
    let hosts: Vec<_> = request.headers().get_all(header::HOST).iter().collect();
    let [host] = hosts[..] else {
        return Some(ApiError::bad(if hosts.is_empty() {
            "the request has no `Host` header: send `Host: 127.0.0.1:PORT` (or `localhost`)"
        } else {
            "the request has more than one `Host` header"
        }));
    };
    let Ok(host) = host.to_str() else {
        return Some(ApiError::bad("the `Host` header is not text"));
    };
    // An absolute-form target (`GET http://evil/ HTTP/1.1`) names a host too.
    let target = request.uri().authority().map(|a| a.as_str());
    if allow_remote {
        return None;
    }
    for name in std::iter::once(host).chain(target) {
        if !is_loopback_host(name) {
            return Some(ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "warden answers only requests addressed to this machine by a loopback name (`localhost`, `127.0.0.1`, `[::1]`), not to `{}`",
                    name.escape_default()
                ),
            ));
        }
    }
    None
}

/// Refuses a request whose `Host` is missing or isn't a loopback name ([`refused_host`]);
/// logs every request at debug level (never its headers: the token is one).
async fn guard(allow_remote: bool, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let response = match refused_host(allow_remote, &request) {
        Some(refused) => refused.into_response(),
        None => next.run(request).await,
    };
    tracing::debug!(
        %method,
        path,
        status = response.status().as_u16(),
        micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
        "request"
    );
    response
}

async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no route `{method} {}`", uri.path()),
    )
}

async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("`{}` does not take {method}", uri.path()),
    )
}

// ---------------------------------------------------------------------------------------
// Open routes

/// `{"ok": true}`; with a second look configured, whether it is on, and why not: a model
/// that isn't calibrated yet, or failed its calibration, leaves the daemon degraded (it
/// judges, and every question the look would have looked at stands). A log that can't be
/// written (a full disk, a writer that stopped) is a 503 naming the reason: nothing is
/// judged until it is written again.
async fn healthz(State(app): State<Arc<App>>) -> Response {
    if let Some(reason) = app.node.as_ref().and_then(|node| node.not_standing()) {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"ok": false, "cluster": {"standing": false, "reason": reason}})),
        )
            .into_response();
    }
    if let Some(reason) = app.runtime.log_trouble() {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"ok": false, "log": {"written": false, "reason": reason}})),
        )
            .into_response();
    }
    let Some(look) = &app.look else {
        return Json(json!({"ok": true})).into_response();
    };
    match look.standing().why_off() {
        None => Json(json!({"ok": true, "look": {"on": true}})),
        Some(reason) => Json(json!({
            "ok": true,
            "degraded": true,
            "look": {"on": false, "reason": reason},
        })),
    }
    .into_response()
}

async fn metrics(State(app): State<Arc<App>>) -> Response {
    let gauges = Gauges {
        look: app.look.as_ref().map(SecondLook::figures),
        chats: app.runtime.chats_in_memory().await.ok(),
        log_bytes: match app.runtime.log_bytes().await {
            Ok(bytes) => Some(bytes),
            Err(e) => {
                tracing::warn!(error = %format!("{e:#}"), "the log's size could not be read");
                None
            }
        },
    };
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        app.metrics.render(gauges),
    )
        .into_response()
}

/// What a question's card offers, as the API shows it.
#[derive(Debug, Serialize)]
pub(crate) struct OffersOut {
    always: bool,
    everywhere: bool,
    /// The one command "Always allow" would keep, as the card shows it.
    rule: Option<String>,
}

impl From<&Offers> for OffersOut {
    fn from(offers: &Offers) -> OffersOut {
        OffersOut {
            always: offers.always,
            everywhere: offers.everywhere,
            rule: offers.rule.as_ref().map(ToString::to_string),
        }
    }
}

/// The judge route's answer: `warden judge`'s, plus the question and its offers.
#[derive(Debug, Serialize)]
struct JudgeAnswer {
    id: Value,
    decision: Decision,
    score: u8,
    reason: String,
    risks: Vec<RiskOut>,
    /// The question's id when the decision is ask: the person answers it by this id.
    question: Option<u64>,
    offers: OffersOut,
    /// The mode the request's `?mode=` precondition named (the chat's, since it was judged):
    /// a host knows from it that the daemon compared the modes.
    #[serde(skip_serializing_if = "Option::is_none")]
    mode: Option<&'static str>,
}

/// The request fields the judge route refuses, and what to send instead: the chat's state
/// supplies them, from events.
const EVENT_FIELDS: [(&str, &str); 8] = [
    (
        "said",
        "the person's words are `said` events (POST /v1/chats/{chat}/events with the token)",
    ),
    (
        "read",
        "what the chat read is a `read` event (POST /v1/chats/{chat}/events)",
    ),
    (
        "others",
        "someone else's words are an `others` event (POST /v1/chats/{chat}/events)",
    ),
    (
        "mode",
        "the chat's mode is a `mode` event (POST /v1/chats/{chat}/events with the token)",
    ),
    (
        "permission_mode",
        "the chat's mode is a `mode` event (POST /v1/chats/{chat}/events with the token)",
    ),
    (
        "skill",
        "a chat driven by a skill's list of steps can't be told over HTTP yet",
    ),
    (
        "fetched",
        "what the chat fetched is kept from its own judged steps (a download or a decode it judged)",
    ),
    (
        "written",
        "what the chat wrote is kept from its own judged steps (a file written with text it judged)",
    ),
];

async fn judge(
    state: State<Arc<App>>,
    path: Result<Path<String>, PathRejection>,
    query: RawQuery,
    headers: HeaderMap,
    text: JsonText,
) -> Answered<Json<JudgeAnswer>> {
    judging(state, path, query, headers, text, true).await
}

/// The judge route's look that records nothing (no question, no count): for a host that asks
/// the person itself, such as Claude Code's `PermissionRequest`.
async fn peek(
    state: State<Arc<App>>,
    path: Result<Path<String>, PathRejection>,
    query: RawQuery,
    headers: HeaderMap,
    text: JsonText,
) -> Answered<Json<JudgeAnswer>> {
    judging(state, path, query, headers, text, false).await
}

/// The `mode` a judge request expects its chat in (`?mode=auto`), if it names one.
fn expected_mode(app: &App, query: Option<&str>) -> Answered<Option<Mode>> {
    let raw = query
        .into_iter()
        .flat_map(|query| query.split('&'))
        .find_map(|pair| pair.strip_prefix("mode="));
    raw.map(|raw| mode_of(app, raw, "mode")).transpose()
}

/// The judge route's precondition (`?mode=…`, a round trip saved for a host that would
/// otherwise read the chat's state first): the chat is in that mode, or the request is
/// refused before anything is judged: `409` when the chat is in another mode (the host posts
/// the `mode` event, with the token, and asks again), `404` when nothing was recorded in it.
/// A request that carries the person's token opens a chat nothing was recorded in, in that
/// mode with the person alone, as `POST /v1/chats/{chat}` would: the mode is theirs to set.
async fn in_mode(app: &App, chat: &str, mode: Mode, headers: &HeaderMap) -> Answered<()> {
    let state = app
        .runtime
        .state(chat)
        .await
        .map_err(|e| ApiError::failed("read the chat", e))?;
    if state.events == 0 {
        if headers.get(header::AUTHORIZATION).is_none() {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                format!("nothing was recorded in the chat `{chat}`"),
            ));
        }
        person(app, headers)?;
        return app
            .runtime
            .open_chat(chat, mode, Company::Alone)
            .await
            .map_err(|e| ApiError::failed("open the chat", e));
    }
    if state.mode != mode {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "the chat `{chat}` is in {}, not {}: post a `mode` event first",
                state.mode.name(),
                mode.name()
            ),
        ));
    }
    Ok(())
}

async fn judging(
    State(app): State<Arc<App>>,
    path: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    JsonText(text): JsonText,
    record: bool,
) -> Answered<Json<JudgeAnswer>> {
    let started = Instant::now();
    let chat = chat_of(path)?;
    let refused = |id: &Value, message: String| ApiError {
        id: Some(id.clone()),
        ..ApiError::bad(message)
    };
    let (value, request) =
        protocol::parse(&text).map_err(|(id, error)| refused(&id, error.to_string()))?;
    if value.pointer("/app/setting").is_some() {
        // INVARIANT: only the person sets a tool's setting (the settings route, with the token).
        return Err(refused(
            &request.id,
            "`app.setting` is not taken by the judge route: the person's setting for a tool is theirs to set (PUT /v1/preferences/settings with the token)".to_string(),
        ));
    }
    if let Some((field, instead)) = EVENT_FIELDS
        .iter()
        .find(|(field, _)| value.get(field).is_some())
    {
        return Err(refused(
            &request.id,
            format!("`{field}` is not taken by the judge route: {instead}"),
        ));
    }
    let (step, ctx) = protocol::read_request(&request, &app.defaults)
        .map_err(|error| refused(&request.id, error.to_string()))?;
    let expected = expected_mode(&app, query.as_deref())
        .map_err(|error| refused(&request.id, error.message))?;
    if let Err(e) = app.runtime.writable() {
        // The step is fine to read; what it would record can't be: nothing is judged.
        app.metrics.failed();
        return Err(ApiError {
            id: Some(request.id),
            ..ApiError::failed("judge the step (so the step is not allowed)", e)
        });
    }
    if let Some(mode) = expected {
        in_mode(&app, &chat, mode, &headers)
            .await
            .map_err(|error| ApiError {
                id: Some(request.id.clone()),
                ..error
            })?;
    }
    if let Some(host) = &app.host_facts {
        // Each request is its own turn: git is asked again, at most once per folder.
        host.new_turn();
    }
    let judged = if record {
        app.runtime
            .judge_step(&chat, step, &ctx.cwd, step_id(&request.id))
            .await
    } else {
        app.runtime.peek(&chat, step, &ctx.cwd).await
    };
    let judged = match judged {
        Ok(judged) => judged,
        Err(e) => {
            app.metrics.failed();
            return Err(ApiError {
                id: Some(request.id),
                ..ApiError::failed("judge the step (so the step is not allowed)", e)
            });
        }
    };
    app.metrics.judged(&judged.verdict, started.elapsed());
    let answer = protocol::answer(request.id, &judged.verdict);
    Ok(Json(JudgeAnswer {
        id: answer.id,
        decision: answer.decision,
        score: answer.score,
        reason: answer.reason,
        risks: answer.risks,
        question: judged.question,
        offers: OffersOut::from(&judged.offers),
        mode: expected.map(Mode::name),
    }))
}

/// The request's `id` as the step's id a question is kept with: a string as it is, any
/// other JSON value as its text, none for null.
fn step_id(id: &Value) -> Option<String> {
    match id {
        Value::Null => None,
        Value::String(id) => Some(id.clone()),
        other => Some(other.to_string()),
    }
}

/// The kinds of event the events route takes: serde names them, and refuses any other kind
/// by listing these.
///
/// Decoded in two steps, this kind first and then its body as a struct of its own with
/// `deny_unknown_fields`, rather than one `#[serde(tag = "kind")]` enum: serde's internally
/// tagged enums let unknown fields through for some variants even with
/// `deny_unknown_fields` (serde-rs/serde#2123, #2294, open), and a field nobody reads must be
/// refused by name, not dropped.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Read,
    Others,
    Said,
    Turn,
    Mode,
    Stopped,
}

impl Kind {
    /// Only the person says, changes the mode or stops a chat; a host reports what was read.
    fn needs_token(self) -> bool {
        !matches!(self, Kind::Read | Kind::Others)
    }
}

/// An event body's tag, read first: it decides which body the rest must be (other fields are
/// read, and refused by name, by that body).
#[derive(Deserialize)]
struct Tagged {
    kind: Kind,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadBody {
    #[serde(rename = "kind")]
    _kind: Kind,
    name: String,
    #[serde(default)]
    provenance: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OthersBody {
    #[serde(rename = "kind")]
    _kind: Kind,
    /// Their words: required, but not kept (the law needs only that someone else spoke).
    #[serde(rename = "text")]
    _text: String,
    /// Where they came from ("an email"), if the caller knows.
    #[serde(default)]
    source: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaidBody {
    #[serde(rename = "kind")]
    _kind: Kind,
    text: String,
    /// The words open a new turn: the turn and the words are recorded as one batch, so no
    /// crash leaves a turn without its words (the hook's `UserPromptSubmit`).
    #[serde(default)]
    turn: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnBody {
    #[serde(rename = "kind")]
    _kind: Kind,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModeBody {
    #[serde(rename = "kind")]
    _kind: Kind,
    mode: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StoppedBody {
    #[serde(rename = "kind")]
    _kind: Kind,
    stopped: bool,
}

async fn event(
    State(app): State<Arc<App>>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    Body(body): Body<Value>,
) -> Answered<Json<Value>> {
    let chat = chat_of(path)?;
    let Tagged { kind } = read_value(&body)?;
    if kind.needs_token() {
        person(&app, &headers)?;
    }
    let event = match kind {
        Kind::Read => {
            let ReadBody {
                name, provenance, ..
            } = read_value(&body)?;
            if name.trim().is_empty() {
                return Err(ApiError::bad("`name` is empty: name what was read"));
            }
            Event::Read {
                mark: Mark { name, provenance },
            }
        }
        Kind::Others => {
            let OthersBody { source, .. } = read_value(&body)?;
            Event::Others {
                source: source.unwrap_or_else(|| "someone else's words".to_string()),
            }
        }
        Kind::Said => {
            let SaidBody { text, turn, .. } = read_value(&body)?;
            if turn {
                app.runtime
                    .record_all(&chat, vec![Event::Turn, Event::Said { text }])
                    .await
                    .map_err(|e| ApiError::failed("record the event", e))?;
                return Ok(ok());
            }
            Event::Said { text }
        }
        Kind::Turn => {
            let TurnBody { .. } = read_value(&body)?;
            Event::Turn
        }
        Kind::Mode => {
            let ModeBody { mode, .. } = read_value(&body)?;
            Event::ModeChanged {
                mode: mode_of(&app, &mode, "mode")?,
            }
        }
        Kind::Stopped => {
            let StoppedBody { stopped, .. } = read_value(&body)?;
            Event::Stopped { stopped }
        }
    };
    app.runtime
        .record(&chat, event)
        .await
        .map_err(|e| ApiError::failed("record the event", e))?;
    Ok(ok())
}

/// One of the watch's counts, as the API shows it.
#[derive(Debug, Serialize)]
struct CountOut {
    at_ms: i64,
    kind: String,
    n: u32,
}

/// A question waiting for the person, as the API shows it.
#[derive(Debug, Serialize)]
struct PendingOut {
    id: u64,
    tool: String,
    class: String,
    offers: OffersOut,
    at_ms: i64,
    /// The ids of the steps it asks about (the judge request's `id`).
    steps: Vec<String>,
    /// The verdict's reason, in warden's words.
    reason: String,
    /// The steps it asks about as its card shows them (the first, then each lookup that
    /// joined it).
    shown: Vec<Shown>,
}

/// A chat's state as the API shows it: never the person's words nor a task's frozen copy.
#[derive(Debug, Serialize)]
struct ChatOut {
    mode: Mode,
    company: Company,
    parent: Option<String>,
    scoped: bool,
    marks: Vec<Mark>,
    others: bool,
    kept: Vec<Kept>,
    counts: Vec<CountOut>,
    pending: Vec<PendingOut>,
    turn: u64,
    stopped: bool,
    tasks: Vec<String>,
    events: u64,
    /// Files the chat's steps saved from a download or decoded from a blob.
    fetched: Vec<warden::chat::Fetched>,
    /// Files the chat's steps wrote with text that asks if run.
    written: Vec<warden::chat::Written>,
}

impl From<ChatState> for ChatOut {
    fn from(state: ChatState) -> ChatOut {
        ChatOut {
            mode: state.mode,
            company: state.company,
            parent: state.parent,
            scoped: state.scoped,
            marks: state.marks,
            others: state.others,
            kept: state.kept,
            counts: state
                .counts
                .into_iter()
                .map(|(at_ms, kind, n)| CountOut { at_ms, kind, n })
                .collect(),
            pending: state
                .pending
                .iter()
                .map(|(id, p)| PendingOut {
                    id: *id,
                    tool: p.tool.clone(),
                    class: p.class.clone(),
                    offers: OffersOut::from(&p.offers),
                    at_ms: p.at_ms,
                    steps: p.steps.clone(),
                    reason: warden::second_look::for_person(&p.reason),
                    shown: p.shown.clone(),
                })
                .collect(),
            turn: state.turn,
            stopped: state.stopped,
            tasks: state.tasks,
            events: state.events,
            fetched: state.fetched,
            written: state.written,
        }
    }
}

async fn chat_state(
    State(app): State<Arc<App>>,
    path: Result<Path<String>, PathRejection>,
) -> Answered<Json<ChatOut>> {
    let chat = chat_of(path)?;
    let state = app
        .runtime
        .state(&chat)
        .await
        .map_err(|e| ApiError::failed("read the chat", e))?;
    if state.events == 0 {
        return Err(super::cluster::nothing_recorded(&chat));
    }
    Ok(Json(ChatOut::from(state)))
}

/// One Always-allow-one-command rule, as the API shows it.
#[derive(Debug, Serialize)]
struct RuleOut {
    /// The command as the card showed it; `DELETE /v1/preferences/rules` takes it.
    rule: String,
    tool: String,
    /// The work folder it holds in (none: any).
    cwd: Option<String>,
}

/// The person's preferences, as the API shows them.
#[derive(Debug, Serialize)]
struct PreferencesOut {
    auto_allowed: Vec<Kept>,
    auto_rules: Vec<RuleOut>,
    /// By `app:tool`.
    settings: BTreeMap<String, Setting>,
    note: String,
    /// The paths refused to the agent in every mode (from the configuration; read-only).
    protected: Vec<String>,
}

async fn preferences(State(app): State<Arc<App>>) -> Answered<Json<PreferencesOut>> {
    let preferences = app
        .runtime
        .preferences()
        .await
        .map_err(|e| ApiError::failed("read the preferences", e))?;
    Ok(Json(PreferencesOut {
        auto_allowed: preferences.auto_allowed,
        auto_rules: preferences
            .auto_rules
            .iter()
            .map(|rule| RuleOut {
                rule: rule.to_string(),
                tool: rule.tool.clone(),
                cwd: rule.cwd.clone(),
            })
            .collect(),
        settings: preferences.settings,
        note: preferences.note,
        protected: app.defaults.protected.clone(),
    }))
}

// ---------------------------------------------------------------------------------------
// The person's routes (the token)

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpenBody {
    mode: String,
    company: Company,
}

async fn open_chat(
    State(app): State<Arc<App>>,
    _: Person,
    path: Result<Path<String>, PathRejection>,
    Body(body): Body<OpenBody>,
) -> Answered<Json<Value>> {
    let chat = chat_of(path)?;
    let mode = mode_of(&app, &body.mode, "mode")?;
    if body.company == Company::Task {
        return Err(ApiError::bad(
            "`company`: a task is made with POST /v1/chats/{chat}/tasks, from its chat",
        ));
    }
    app.runtime
        .open_chat(&chat, mode, body.company)
        .await
        .map_err(|e| ApiError::failed("open the chat", e))?;
    Ok(ok())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskBody {
    task: String,
    #[serde(default)]
    scoped: bool,
}

async fn task(
    State(app): State<Arc<App>>,
    _: Person,
    path: Result<Path<String>, PathRejection>,
    Body(body): Body<TaskBody>,
) -> Answered<Json<Value>> {
    let chat = chat_of(path)?;
    let task = id_of(&body.task, "task")?;
    if task == chat {
        return Err(ApiError::bad("`task`: a task needs an id of its own"));
    }
    if let Some(node) = &app.node {
        // INVARIANT: a task's root is in the cluster's bucket before any record of it is
        // written: every node places it with its chat.
        node.rooting(&chat, &task).await?;
    }
    let made = app
        .runtime
        .create_task(&chat, &task, body.scoped)
        .await
        .map_err(|e| ApiError::failed("create the task", e))?;
    match made {
        // A retry whose first attempt completed (its answer lost) is answered as it was.
        Made::Created | Made::Already => Ok(Json(json!({"ok": true, "task": task}))),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswerBody {
    answer: Answer,
    /// The host's id of the step that ran (the person's yes in the host's own dialog):
    /// answers the question about that step, `once`.
    #[serde(default)]
    ran: Option<String>,
}

async fn answer(
    State(app): State<Arc<App>>,
    _: Caller,
    path: Result<Path<(String, String)>, PathRejection>,
    Body(body): Body<AnswerBody>,
) -> Answered<Json<Value>> {
    let Path((chat, question)) =
        path.map_err(|r| ApiError::bad(format!("the path: {}", r.body_text())))?;
    let chat = id_of(&chat, "chat")?;
    let question: u64 = question.parse().map_err(|_| {
        ApiError::bad(format!(
            "the question id `{}` is not a number",
            question.escape_default()
        ))
    })?;
    if body.ran.is_some() && body.answer != Answer::Once {
        return Err(ApiError::bad(
            "`ran`: a step that ran answers its question `once`; send `\"answer\": \"once\"` with it",
        ));
    }
    // The chat's actor checks the answer against the state it records it in: one the card
    // didn't offer is refused (400), not taken as once; a step that ran answers only the
    // question about it.
    let answered = match &body.ran {
        Some(step) => app.runtime.ran(&chat, question, step).await,
        None => app.runtime.answer(&chat, question, body.answer).await,
    };
    // Answered meanwhile by another request: no longer waiting, as any answered question.
    answered.map_err(|e| ApiError::failed("record the answer", e))?;
    Ok(ok())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EverywhereBody {
    tool: String,
    class: String,
}

async fn forget_everywhere(
    State(app): State<Arc<App>>,
    _: Caller,
    Body(body): Body<EverywhereBody>,
) -> Answered<Json<Value>> {
    let kept = Kept {
        tool: body.tool,
        class: body.class,
    };
    let preferences = app
        .runtime
        .preferences()
        .await
        .map_err(|e| ApiError::failed("read the preferences", e))?;
    if !preferences.auto_allowed.contains(&kept) {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "`{}` for `{}` is not allowed in every chat",
                kept.class, kept.tool
            ),
        ));
    }
    app.runtime
        .prefer(Event::AllowedEverywhere {
            kept,
            allowed: false,
        })
        .await
        .map_err(|e| ApiError::failed("change the preferences", e))?;
    Ok(ok())
}

/// `DELETE /v1/chats/{chat}/kept` (the token or the page): forgets an answer the chat kept
/// (Always allow in this chat), so the class asks again there; 404 if it wasn't kept.
async fn forget_kept(
    State(app): State<Arc<App>>,
    _: Caller,
    path: Result<Path<String>, PathRejection>,
    Body(body): Body<EverywhereBody>,
) -> Answered<Json<Value>> {
    let chat = chat_of(path)?;
    let kept = Kept {
        tool: body.tool,
        class: body.class,
    };
    let state = app
        .runtime
        .state(&chat)
        .await
        .map_err(|e| ApiError::failed("read the chat", e))?;
    if !state.kept.contains(&kept) {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "`{}` for `{}` is not kept in the chat `{chat}`",
                kept.class, kept.tool
            ),
        ));
    }
    app.runtime
        .record(&chat, Event::Forgotten { kept })
        .await
        .map_err(|e| ApiError::failed("record the event", e))?;
    Ok(ok())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleBody {
    rule: String,
    /// The work folder the rule holds in, as `GET /v1/preferences` shows it (`null`: a rule
    /// that holds in any folder). Required, so that forgetting one folder's rule never
    /// forgets another's; `None` when it was left out, `Some(Null)` when it is `null`.
    #[serde(default, deserialize_with = "present")]
    cwd: Option<Value>,
}

/// A field that is there, `null` or not (a plain `Option` reads `null` as left out).
fn present<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(de).map(Some)
}

async fn forget_rule(
    State(app): State<Arc<App>>,
    _: Caller,
    Body(body): Body<RuleBody>,
) -> Answered<Json<Value>> {
    let cwd = match body.cwd {
        None => {
            return Err(ApiError::bad(
                "`cwd` is missing: name the work folder the rule holds in, as GET /v1/preferences shows it (null for a rule that holds in any folder)",
            ));
        }
        Some(Value::Null) => None,
        Some(Value::String(cwd)) => Some(cwd),
        Some(other) => {
            return Err(ApiError::bad(format!(
                "`cwd`: `{other}` is not a work folder (a string, or null)"
            )));
        }
    };
    let preferences = app
        .runtime
        .preferences()
        .await
        .map_err(|e| ApiError::failed("read the preferences", e))?;
    let wanted = body.rule.split_whitespace().collect::<Vec<_>>().join(" ");
    let rules: Vec<_> = preferences
        .auto_rules
        .into_iter()
        .filter(|rule| rule.to_string() == wanted && rule.cwd == cwd)
        .collect();
    if rules.is_empty() {
        let folder = match &cwd {
            Some(cwd) => format!("in `{}`", cwd.escape_default()),
            None => "for any folder".to_string(),
        };
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("`rule`: no rule `{wanted}` is kept {folder}"),
        ));
    }
    // Every rule it names, forgotten in one batch: all of them or none.
    let forgotten = rules
        .into_iter()
        .map(|rule| Event::RuleKept { rule, kept: false })
        .collect();
    app.runtime
        .prefer_all(forgotten)
        .await
        .map_err(|e| ApiError::failed("change the preferences", e))?;
    Ok(ok())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoteBody {
    note: String,
}

async fn note(
    State(app): State<Arc<App>>,
    _: Caller,
    Body(body): Body<NoteBody>,
) -> Answered<Json<Value>> {
    if body.note.chars().count() > NOTE_MAX {
        return Err(ApiError::bad(format!(
            "`note` is longer than {NOTE_MAX} characters"
        )));
    }
    app.runtime
        .prefer(Event::NoteChanged { note: body.note })
        .await
        .map_err(|e| ApiError::failed("change the preferences", e))?;
    Ok(ok())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingBody {
    app: String,
    tool: String,
    /// `allow`, `ask`, `off`, or null (back to the default); required.
    setting: Value,
}

async fn setting(
    State(app): State<Arc<App>>,
    _: Caller,
    Body(body): Body<SettingBody>,
) -> Answered<Json<Value>> {
    for (field, value) in [("app", &body.app), ("tool", &body.tool)] {
        if value.trim().is_empty() {
            return Err(ApiError::bad(format!("`{field}` is empty")));
        }
    }
    let setting = match &body.setting {
        Value::Null => None,
        Value::String(name) if name == "null" => None,
        other => Some(
            serde_json::from_value::<Setting>(other.clone()).map_err(|_| {
                ApiError::bad(format!(
                    "`setting`: `{other}` is not one of allow, ask, off or null"
                ))
            })?,
        ),
    };
    app.runtime
        .prefer(Event::SettingChanged {
            app: body.app,
            tool: body.tool,
            setting,
        })
        .await
        .map_err(|e| ApiError::failed("change the preferences", e))?;
    Ok(ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_names_pass_the_guard() {
        for (host, loopback) in [
            ("127.0.0.1:7411", true),
            ("127.0.0.1", true),
            ("127.9.9.9:80", true),
            ("localhost:7411", true),
            ("LOCALHOST", true),
            ("[::1]:7411", true),
            ("[::1]", true),
            ("evil.example:7411", false),
            ("localhost.evil.example", false),
            ("10.0.0.1:7411", false),
            ("", false),
            // Userinfo, a port that isn't one, a path, and look-alikes.
            ("127.0.0.1:1@evil", false),
            ("127.0.0.1:1@evil.example:80", false),
            ("user@localhost", false),
            ("localhost:", false),
            ("localhost:99999", false),
            ("localhost:80x", false),
            ("localhost:80/x", false),
            ("127.0.0.1 ", false),
            ("[::1]x", false),
            ("[::1]:", false),
            ("[::2]:80", false),
            ("[::1", false),
            ("::1", false),
            ("127.0.0.1.evil", false),
            ("0x7f.0.0.1", false),
        ] {
            assert_eq!(is_loopback_host(host), loopback, "{host}");
        }
    }

    #[test]
    fn ids_are_checked() {
        for (id, good) in [
            ("c1", true),
            ("5f0c.agent-1", true),
            ("", false),
            ("~preferences", false),
            ("a\nb", false),
        ] {
            assert_eq!(id_of(id, "chat").is_ok(), good, "{id:?}");
        }
        assert!(id_of(&"x".repeat(ID_MAX + 1), "chat").is_err());
    }

    #[test]
    fn a_body_error_names_the_field() {
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        #[expect(dead_code, reason = "only the errors are read")]
        struct Two {
            text: String,
            n: u8,
        }
        for (body, want) in [
            (r#"{"text": 5, "n": 1}"#, "`text`: invalid type"),
            (r#"{"text": "x", "n": 300}"#, "`n`: invalid value"),
            (r#"{"n": 1}"#, "missing field `text`"),
            (r#"{"text": "x", "n": 1, "m": 2}"#, "unknown field `m`"),
        ] {
            let error = read::<Two>(body)
                .err()
                .map(|e| e.message)
                .unwrap_or_default();
            assert!(error.contains(want), "{body}: {error}");
            assert!(!error.contains(" at line 1"), "{body}: {error}");
        }
        for body in [r#"{"text": "x""#, r#"{"text": "x", "n": 1} {}"#, "nope"] {
            let error = read::<Two>(body)
                .err()
                .map(|e| e.message)
                .unwrap_or_default();
            assert!(
                error.starts_with("the body is not JSON: ") && error.contains("line 1"),
                "{body}: {error}"
            );
        }
        assert!(read::<Two>(r#" {"text": "x", "n": 1} "#).is_ok());
    }

    #[test]
    fn each_runtime_failure_has_its_status_and_says_what_failed() {
        use crate::runtime::{Part, WriteError};
        let full = || warden_storage::LogError::Store {
            path: "/d/log".into(),
            cause: "No space left on device: the disk is full".into(),
        };
        let cases = [
            // The first write the log refuses says what every later one says: 503.
            (
                RuntimeError::Write(WriteError::from(full())),
                503,
                "warden could not record the event: the event log in `/d/log` failed: No space left on device: the disk is full",
            ),
            // Only a writer that answered without its records is a fault of warden's own.
            (
                RuntimeError::Write(WriteError::Unanswered),
                500,
                "warden could not record the event: the event log's writer answered an append without its records",
            ),
            (
                RuntimeError::Unwritable {
                    reason: full().to_string(),
                },
                503,
                "warden could not record the event: the event log can't be written: the event log in `/d/log` failed: No space left on device: the disk is full",
            ),
            (
                RuntimeError::Timeout {
                    part: Part::Chat("c1".into()),
                    after: Duration::from_secs(10),
                },
                500,
                "warden could not record the event: the chat `c1` did not answer within 10s",
            ),
            (
                RuntimeError::NotRunning,
                500,
                "warden could not record the event: warden's runtime is not running",
            ),
            (
                RuntimeError::Answer {
                    chat: "c1".into(),
                    cause: AnswerError::NoQuestion(4),
                },
                404,
                "no question 4 is waiting in the chat `c1`",
            ),
            (
                RuntimeError::Answer {
                    chat: "c1".into(),
                    cause: AnswerError::NotOffered {
                        question: 4,
                        answer: Answer::Everywhere,
                    },
                },
                400,
                "`answer`: question 4's card does not offer `everywhere`",
            ),
            (
                RuntimeError::Taken {
                    task: "t1".into(),
                    what: "a chat of its own".into(),
                },
                409,
                "`task`: `t1` exists already, as a chat of its own",
            ),
            (
                RuntimeError::OwnId { chat: "c1".into() },
                400,
                "`task`: a task needs an id of its own, not its chat's `c1`",
            ),
            (
                RuntimeError::Write(WriteError::from(warden_storage::LogError::Fenced {
                    chat: "c1".into(),
                    expected: 7,
                })),
                503,
                "warden could not record the event: the chat `c1` was written by another warden node past sequence 7, the end this node knew: it took the chat over, so this write is refused and nothing of it stored; the chat is read again on its next request",
            ),
        ];
        for (error, status, message) in cases {
            let said = format!("{error:?}");
            let answer = ApiError::failed("record the event", error);
            assert_eq!(
                (answer.status.as_u16(), answer.message.as_str()),
                (status, message),
                "{said}"
            );
        }
    }
}
