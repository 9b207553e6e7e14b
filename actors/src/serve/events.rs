//! `GET /v1/events`: the log's events as Server-Sent Events, for orchestrators and the page
//! (`docs/protocol.md`, "The event stream"). Each event is a record of the log, sent once
//! it is durable, with its sequence number as the SSE `id`: a question asked (or joined by
//! a lookup), a question answered (by the person, or by the step having run), a chat opened,
//! stopped or put in another mode, a preference changed.
//!
//! A client that reconnects sends `Last-Event-ID` (a browser's `EventSource` does by itself;
//! `?after=N` says the same) and gets every such event after it from the log, then the live
//! ones, none twice and none missed ([`crate::runtime::Feed`]). A client too slow for the
//! live feed is caught up from the log the same way, never skipped over. Without either, the
//! stream starts at the present.
//!
//! In a cluster the live events are the answering node's own writes; `?nodes=all` asks for
//! every node's: the stream then follows the shared log itself ([`follow_all`]), woken at
//! once by this node's writes and every [`TAIL_EVERY`] for the others'.

use super::App;
use super::page::Caller;
use super::routes::{ApiError, OffersOut};
use crate::runtime::{Feed, Published};
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event as Sse, KeepAlive};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};
use warden::chat::Event;
use warden::preferences::STREAM;
use warden::second_look::for_person;

/// How many records one read of the log takes while a client catches up.
pub const PAGE: usize = 256;

/// How many event streams are held at once; one more is answered 503.
pub const STREAMS_MAX: usize = 32;

/// How often a quiet stream sends a comment, so a client and whatever sits between know
/// it is alive.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How often a stream of every node's events (`?nodes=all`) reads the shared log for the
/// other nodes' writes: the most an event written elsewhere waits before it is sent.
pub const TAIL_EVERY: Duration = Duration::from_millis(100);

/// How many events wait for a slow client before the stream stops reading the live feed
/// (and, if that falls behind, catches up from the log).
const BUFFER: usize = 64;

/// What a record is on the stream: its event name and its data, or `None` for a record the
/// stream doesn't carry (the person's words, what was read, judged steps, task bookkeeping).
pub fn shown(published: &Published) -> Option<(&'static str, Value)> {
    let chat = &published.stream;
    let seq = published.seq;
    let at_ms = published.record.at_ms;
    let preferences = chat == STREAM;
    let data = match &published.record.event {
        Event::Asked {
            question,
            tool,
            class,
            offers,
            lookup,
            reason,
            shown,
            ..
        } if !preferences => (
            "asked",
            json!({"chat": chat, "question": question, "tool": tool, "class": class,
                   "reason": for_person(reason), "offers": OffersOut::from(offers),
                   "lookup": lookup, "step": shown}),
        ),
        Event::AskedAbout {
            question,
            step,
            shown: Some(shown),
        } if !preferences => (
            "joined",
            json!({"chat": chat, "question": question, "id": step, "step": shown}),
        ),
        Event::Answered {
            question,
            answer,
            kept,
            ran,
        } if !preferences => (
            "answered",
            json!({"chat": chat, "question": question, "answer": answer.name(),
                   "by": if ran.is_some() { "step" } else { "person" },
                   "step": ran, "kept": kept}),
        ),
        Event::Opened {
            mode,
            company,
            parent,
            scoped,
        } if !preferences => (
            "opened",
            json!({"chat": chat, "mode": mode, "company": company, "parent": parent,
                   "scoped": scoped}),
        ),
        Event::ModeChanged { mode } if !preferences => {
            ("mode", json!({"chat": chat, "mode": mode}))
        }
        Event::Stopped { stopped } if !preferences => {
            ("stopped", json!({"chat": chat, "stopped": stopped}))
        }
        Event::AllowedEverywhere { kept, allowed } if preferences => (
            "preference",
            json!({"change": "everywhere", "tool": kept.tool, "class": kept.class,
                   "allowed": allowed}),
        ),
        Event::RuleKept { rule, kept } if preferences => (
            "preference",
            json!({"change": "rule", "rule": rule.to_string(), "tool": rule.tool,
                   "cwd": rule.cwd, "kept": kept}),
        ),
        Event::SettingChanged { app, tool, setting } if preferences => (
            "preference",
            json!({"change": "setting", "app": app, "tool": tool, "setting": setting}),
        ),
        Event::NoteChanged { note } if preferences => {
            ("preference", json!({"change": "note", "note": note}))
        }
        _ => return None,
    };
    let (name, mut value) = data;
    if let Value::Object(map) = &mut value {
        map.insert("seq".to_string(), json!(seq));
        map.insert("at_ms".to_string(), json!(at_ms));
    }
    Some((name, value))
}

/// Where a stream starts: `Last-Event-ID`, else `?after=N`, else the present.
fn start(headers: &HeaderMap, query: Option<&str>) -> Result<Option<u64>, ApiError> {
    let from_header = headers
        .get("last-event-id")
        .map(|v| (v.to_str().unwrap_or("?"), "`Last-Event-ID`"));
    let from_query = query
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix("after="))
        .map(|v| (v, "`after`"));
    match from_header.or(from_query) {
        None => Ok(None),
        Some((raw, field)) => raw.trim().parse::<u64>().map(Some).map_err(|_| {
            ApiError::bad(format!(
                "{field}: `{}` is not an event's sequence number",
                raw.escape_default()
            ))
        }),
    }
}

/// Whose events a stream carries: `?nodes=all` every node's (in a cluster), else the
/// answering node's own. Any other value is refused by name.
fn every_node(query: Option<&str>) -> Result<bool, ApiError> {
    match query
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix("nodes="))
    {
        None => Ok(false),
        Some("all") => Ok(true),
        Some(other) => Err(ApiError::bad(format!(
            "nodes: `{}` is not taken: `nodes=all` streams every node's events, and without it the stream is this node's",
            other.escape_default()
        ))),
    }
}

/// `GET /v1/events` (the token, or the page's session).
pub async fn events(
    State(app): State<Arc<App>>,
    _: Caller,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let after = start(&headers, query.as_deref())?;
    // On one node its writes are every node's: the stream is the same either way.
    let all = every_node(query.as_deref())? && app.node.is_some();
    let Ok(permit) = Arc::clone(&app.streams).try_acquire_owned() else {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("warden holds {STREAMS_MAX} event streams already: close one, or try again"),
        ));
    };
    let feed = Arc::clone(app.runtime.feed());
    // In a cluster the live events are this node's own writes: `ready` and a header say
    // which node's (`docs/cluster.md`).
    let node = app.node.as_ref().map(|node| node.id().to_string());
    let header = node
        .as_deref()
        .and_then(|node| axum::http::HeaderValue::from_str(node).ok());
    let (sender, receiver) = mpsc::channel::<Sse>(BUFFER);
    let mut closing = app.closing.subscribe();
    tokio::spawn(async move {
        let _permit = permit;
        let following = async {
            if all {
                follow_all(feed, after, node, &sender).await;
            } else {
                follow(feed, after, node, &sender).await;
            }
        };
        tokio::select! {
            () = following => {}
            () = sender.closed() => {}
            _ = closing.wait_for(|closing| *closing) => {}
        }
    });
    let stream = futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver
            .recv()
            .await
            .map(|event| (Ok::<_, Infallible>(event), receiver))
    });
    let mut response = axum::response::Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response();
    if let Some(node) = header {
        response.headers_mut().insert(super::cluster::NODE, node);
    }
    Ok(response)
}

/// Sends a client every event after `after` (the present when none), then every live one,
/// until the client is gone or the feed ends. Ends when a send fails. In a cluster, `ready`
/// names the `node` whose writes the live events are.
async fn follow(
    feed: Arc<Feed>,
    after: Option<u64>,
    node: Option<String>,
    sender: &mpsc::Sender<Sse>,
) {
    let (mut live, durable) = feed.subscribe();
    let mut last = after.unwrap_or(durable);
    if sender.send(ready(last, node, false)).await.is_err() {
        return;
    }
    if !catch_up(&feed, &mut last, durable, sender).await {
        return;
    }
    loop {
        match live.recv().await {
            // INVARIANT: each sequence number goes out once, in order: what the log already
            // gave is passed over.
            Ok(published) if published.seq <= last => {}
            Ok(published) => {
                last = published.seq;
                if !send(&published, sender).await {
                    return;
                }
            }
            Err(broadcast::error::RecvError::Lagged(_)) => {
                // Too slow for the live feed: caught up from the log, never skipped.
                let (again, durable) = feed.subscribe();
                live = again;
                if !catch_up(&feed, &mut last, durable, sender).await {
                    return;
                }
            }
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

/// [`follow`] for every node's writes: every event in the shared log after `after` (the
/// log's newest when none), then whatever any node writes next, read from the log as it
/// grows. What the log holds is durable whoever wrote it (JetStream stores it before it is
/// acknowledged), and its sequence numbers are the stream's, given in order: a read past
/// the last one sent misses nothing and repeats nothing. A group of records not whole yet
/// is read once it is (`EventLog::after` stops before it). `ready` says `"nodes": "all"`.
async fn follow_all(
    feed: Arc<Feed>,
    after: Option<u64>,
    node: Option<String>,
    sender: &mpsc::Sender<Sse>,
) {
    // This node's own writes wake the stream at once; the others' are found by reading.
    let (mut live, _) = feed.subscribe();
    let mut last = match after {
        Some(after) => after,
        None => match read_log(&feed, Feed::newest).await {
            Some(newest) => newest,
            None => return,
        },
    };
    if sender.send(ready(last, node, true)).await.is_err() {
        return;
    }
    let mut tick = tokio::time::interval(TAIL_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        if !catch_up(&feed, &mut last, u64::MAX, sender).await {
            return;
        }
        tokio::select! {
            _ = tick.tick() => {}
            woke = live.recv() => match woke {
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return,
            },
        }
    }
}

/// The `ready` event a stream starts with: the sequence it starts after, the node whose
/// writes its live events are (in a cluster), and `"nodes": "all"` for every node's.
fn ready(seq: u64, node: Option<String>, all: bool) -> Sse {
    let mut ready = json!({"seq": seq});
    if let Some(node) = node {
        ready["node"] = json!(node);
    }
    if all {
        ready["nodes"] = json!("all");
    }
    Sse::default()
        .event("ready")
        .retry(Duration::from_secs(2))
        .data(ready.to_string())
}

/// A blocking read of the log off the runtime's threads; `None`, logged, when it fails (the
/// stream then ends, and the client reconnects from the last id it got).
async fn read_log<T: Send + 'static>(
    feed: &Arc<Feed>,
    read: impl FnOnce(&Feed) -> Result<T, warden_storage::LogError> + Send + 'static,
) -> Option<T> {
    let reading = Arc::clone(feed);
    match tokio::task::spawn_blocking(move || read(&reading)).await {
        Ok(Ok(value)) => Some(value),
        Ok(Err(e)) => {
            tracing::error!(error = %e, "the event stream could not read the log");
            None
        }
        Err(e) => {
            tracing::error!(error = %e, "the event stream's read of the log failed");
            None
        }
    }
}

/// Sends every event in the log after `last` up to `upto` (`u64::MAX`: as far as the log
/// goes now), a page at a time, moving `last` on. False when the client is gone or the log
/// can't be read (the stream then ends, and the client reconnects from the last id it got).
async fn catch_up(feed: &Arc<Feed>, last: &mut u64, upto: u64, sender: &mpsc::Sender<Sse>) -> bool {
    while *last < upto {
        let from = *last;
        let Some((records, skipped)) =
            read_log(feed, move |feed| feed.after(from, upto, PAGE)).await
        else {
            return false;
        };
        let next = records
            .iter()
            .map(|p| p.seq)
            .chain(skipped.iter().map(|(seq, _)| *seq))
            .max();
        for (seq, skip) in &skipped {
            tracing::warn!(seq, why = %skip, "the event stream passed over a record it can't read");
        }
        for published in &records {
            if !send(published, sender).await {
                return false;
            }
        }
        match next {
            Some(next) => *last = next,
            // Nothing more up to `upto`: the rest of the way is the live feed's. (Up to
            // no bound, nothing more yet: `last` stays where the log ends now.)
            None => {
                if upto != u64::MAX {
                    *last = upto;
                }
                break;
            }
        }
    }
    true
}

/// Sends one record as its event, if the stream carries it. False when the client is gone.
async fn send(published: &Published, sender: &mpsc::Sender<Sse>) -> bool {
    let Some((name, data)) = shown(published) else {
        return true;
    };
    let event = Sse::default()
        .id(published.seq.to_string())
        .event(name)
        .data(data.to_string());
    sender.send(event).await.is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use warden::chat::Record;
    use warden_storage::EventLog;

    /// What the stream sent: each event's id and name.
    fn drain(receiver: &mut mpsc::Receiver<Sse>) -> Vec<String> {
        let mut sent = Vec::new();
        while let Ok(event) = receiver.try_recv() {
            sent.push(format!("{event:?}"));
        }
        sent
    }

    #[tokio::test]
    async fn a_client_too_slow_for_the_live_feed_is_caught_up_from_the_log() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let log = Arc::new(EventLog::open(dir.path()).unwrap_or_else(|e| panic!("{e}")));
        let feed = Arc::new(Feed::new(Arc::clone(&log)).unwrap_or_else(|e| panic!("{e}")));
        let (sender, mut receiver) = mpsc::channel::<Sse>(BUFFER);
        let following = tokio::spawn({
            let feed = Arc::clone(&feed);
            async move { follow(feed, None, None, &sender).await }
        });
        // Wait for it to subscribe (its `ready` is the sign).
        let ready = tokio::time::timeout(Duration::from_secs(10), receiver.recv())
            .await
            .unwrap_or_else(|_| panic!("no ready"))
            .unwrap_or_else(|| panic!("the stream ended"));
        assert!(format!("{ready:?}").contains("ready"), "{ready:?}");
        // Three times the live feed's room, written and published as the writer does, while
        // the client reads nothing: the feed passes it by.
        let total = crate::runtime::FEED_CAPACITY * 3;
        let records: Vec<(&str, Record)> = (0..total)
            .map(|i| {
                (
                    "c1",
                    Record {
                        at_ms: i as i64,
                        event: Event::Stopped {
                            stopped: i % 2 == 0,
                        },
                    },
                )
            })
            .collect();
        let seqs = log.append_batch(&records).unwrap_or_else(|e| panic!("{e}"));
        log.flush().unwrap_or_else(|e| panic!("{e}"));
        feed.publish(
            seqs.iter()
                .zip(&records)
                .map(|(seq, (stream, record))| (*stream, *seq, record)),
        );
        // Now it reads: every one of them, once each, in order.
        let mut sent = Vec::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while sent.len() < total && tokio::time::Instant::now() < deadline {
            match tokio::time::timeout(Duration::from_secs(5), receiver.recv()).await {
                Ok(Some(event)) => sent.push(format!("{event:?}")),
                _ => break,
            }
            sent.extend(drain(&mut receiver));
        }
        following.abort();
        assert_eq!(
            sent.len(),
            total,
            "every event once: {} of {total}",
            sent.len()
        );
        for (event, seq) in sent.iter().zip(&seqs) {
            assert!(
                event.contains(&format!("id: {seq}\\n")),
                "in order, {seq} next: {event}"
            );
        }
    }
}
