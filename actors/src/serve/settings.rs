//! The routes the page needs beyond the API's own: every chat by its latest event, and the
//! person's settings exported as a file and imported through a preview
//! (`warden::preferences::backup`). Each takes the person's token or the page's session.

use super::App;
use super::page::Caller;
use super::routes::{ApiError, Body};
use axum::Json;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};
use std::sync::Arc;
use warden::chat::Kept;
use warden::preferences::backup::{self, Backup, FIRST_WORDS, Refused, Restore, SettingChange};

/// The most chats `GET /v1/chats` lists unless asked for fewer.
pub const CHATS_MAX: usize = 200;

/// One chat in the list.
#[derive(Debug, Serialize)]
struct ChatLine {
    chat: String,
    /// The sequence number of its newest event.
    last: u64,
}

/// `GET /v1/chats` (the token or the page): every chat and task, the most recently active
/// first, at most `?limit=` ([`CHATS_MAX`] by default and at most); `seq` is the newest
/// durable event when the list was read, so `GET /v1/events?after=seq` misses nothing.
pub async fn chats(
    State(app): State<Arc<App>>,
    _: Caller,
    RawQuery(query): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let limit = match query
        .as_deref()
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix("limit="))
    {
        None => CHATS_MAX,
        Some(raw) => raw
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=CHATS_MAX).contains(n))
            .ok_or_else(|| {
                ApiError::bad(format!(
                    "`limit`: `{}` is not a number from 1 to {CHATS_MAX}",
                    raw.escape_default()
                ))
            })?,
    };
    let feed = Arc::clone(app.runtime.feed());
    // The newest durable event before the list is read: what the list shows is at least that.
    let seq = feed.durable();
    let streams = tokio::task::spawn_blocking(move || feed.streams())
        .await
        .map_err(|e| ApiError::internal("list the chats", &e))?
        .map_err(|e| ApiError::internal("list the chats", &e))?;
    let mut chats: Vec<ChatLine> = streams
        .into_iter()
        .filter(|(chat, _)| !chat.starts_with('~'))
        .map(|(chat, last)| ChatLine { chat, last })
        .collect();
    chats.sort_by_key(|chat| std::cmp::Reverse(chat.last));
    let more = chats.len().saturating_sub(limit);
    chats.truncate(limit);
    Ok(Json(json!({"seq": seq, "chats": chats, "more": more})))
}

/// `GET /v1/preferences/export` (the token or the page): the settings as a file to keep.
pub async fn export(State(app): State<Arc<App>>, _: Caller) -> Result<Response, ApiError> {
    let preferences = app
        .runtime
        .preferences()
        .await
        .map_err(|e| ApiError::failed("read the preferences", e))?;
    let file = Backup::of(&preferences);
    let text = serde_json::to_string_pretty(&file)
        .map_err(|e| ApiError::internal("write the settings file", &e))?;
    let mut response = text.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"warden-settings.json\""),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// A restore as the preview shows it.
#[derive(Debug, Serialize)]
pub struct Preview {
    /// What the person confirms: the same file over the same settings gives the same value.
    preview: String,
    allowed_everywhere: Vec<Kept>,
    rules: Vec<RuleOut>,
    settings: Vec<SettingChange>,
    /// The note that would replace the kept one: its first words and its length.
    note: Option<NoteOut>,
    unchanged: usize,
    refused: Vec<Refused>,
    /// Nothing would change.
    empty: bool,
}

#[derive(Debug, Serialize)]
pub struct RuleOut {
    rule: String,
    tool: String,
    cwd: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct NoteOut {
    first_words: String,
    chars: usize,
}

/// The digest of a restore: what the preview showed, so that applying it applies that and
/// nothing else.
fn digest(restore: &Restore) -> String {
    let text = serde_json::to_vec(restore).unwrap_or_default();
    Sha256::digest(&text)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn preview(restore: &Restore) -> Preview {
    Preview {
        preview: digest(restore),
        allowed_everywhere: restore.allowed_everywhere.clone(),
        rules: restore
            .rules
            .iter()
            .map(|rule| RuleOut {
                rule: rule.to_string(),
                tool: rule.tool.clone(),
                cwd: rule.cwd.clone(),
            })
            .collect(),
        settings: restore.settings.clone(),
        note: restore.note.as_ref().map(|note| NoteOut {
            first_words: backup::first_words(note, FIRST_WORDS),
            chars: note.chars().count(),
        }),
        unchanged: restore.unchanged,
        refused: restore.refused.clone(),
        empty: restore.is_empty(),
    }
}

/// What restoring `file` would do now.
async fn restoring(app: &App, file: &Backup) -> Result<Restore, ApiError> {
    let now = app
        .runtime
        .preferences()
        .await
        .map_err(|e| ApiError::failed("read the preferences", e))?;
    backup::restore(&now, file).map_err(|e| ApiError::bad(e.to_string()))
}

/// `POST /v1/preferences/import` (the token or the page): the preview of a settings file,
/// every grant named; nothing takes effect.
pub async fn import_preview(
    State(app): State<Arc<App>>,
    _: Caller,
    Body(file): Body<Backup>,
) -> Result<Json<Preview>, ApiError> {
    let restore = restoring(&app, &file).await?;
    Ok(Json(preview(&restore)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApplyBody {
    file: Backup,
    /// The `preview` value the person saw.
    preview: String,
}

/// `POST /v1/preferences/import/apply` (the token or the page): does what the preview said,
/// in one batch, if it is still what the preview said (409 otherwise: the settings changed
/// meanwhile, look again).
pub async fn import_apply(
    State(app): State<Arc<App>>,
    _: Caller,
    Body(body): Body<ApplyBody>,
) -> Result<Json<Value>, ApiError> {
    let restore = restoring(&app, &body.file).await?;
    // INVARIANT: an import grants exactly what its preview named, or nothing.
    if digest(&restore) != body.preview {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "`preview`: the settings or the file changed since this preview, so nothing was imported: look at the preview again",
        ));
    }
    let events = restore.events();
    let changed = events.len();
    if changed > 0 {
        app.runtime
            .prefer_all(events)
            .await
            .map_err(|e| ApiError::failed("change the preferences", e))?;
    }
    Ok(Json(json!({"ok": true, "changed": changed})))
}
