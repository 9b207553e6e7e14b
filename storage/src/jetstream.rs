//! The event log on NATS JetStream: the engine for warden on several machines
//! (`docs/cluster.md`), behind the same contract as sled's.
//!
//! Layout, for a stream named `warden` (the configuration's `[log] stream`):
//!
//! - Stream `warden`, subjects `warden.chat.>`: one message per record, on the subject
//!   `warden.chat.<token>` of its stream (chat, task, the preferences), where `<token>` is the
//!   stream's id written as one NATS token ([`token`]). The payload is the record's value as
//!   sled holds it (`[record version][postcard(Record)]`, [`crate::codec`]); the record's
//!   sequence number is the message's stream sequence, global and increasing.
//! - Stream `warden-snapshots`, subjects `warden.snap.>`, one message kept per subject: a
//!   chat's latest snapshot (`[snapshot version][u64 BE sequence][postcard(ChatState)]`).
//!
//! **Acknowledged before it returns.** Every append publishes and waits for JetStream's
//! acknowledgement (its `PubAck`); each message carries a `Nats-Msg-Id`, so a publish this
//! engine tries again after a lost acknowledgement is stored once (the server's duplicate
//! window, two minutes). [`JetStreamLog::flush`] has nothing left to do.
//!
//! **A group is whole or absent.** nats-server 2.9 (Debian's) has no atomic batch publish, and
//! one message per group would cut a chat's records out of its subject. So a group of more
//! than one record is written as one message per record, each with a `Warden-Batch` header,
//! the last one alone with `Warden-Commit` too, published only once every other one is
//! acknowledged. While it is in flight no reader of this process sees any of it (reads stop
//! at the *horizon*, the last sequence this process knows to be whole); a group cut short (a
//! publish that failed, a crash) leaves its parts at the stream's end, after the last commit,
//! and opening the log deletes them before anything is read: they were never acknowledged.
//! This rests on one writer per stream at a time, which is warden's today (one node); leases
//! for several are not built yet (`docs/cluster.md`).
//!
//! **Sync over async.** The storage API is synchronous and the client is async: the log owns
//! a small tokio runtime (one worker thread, `warden-nats`), and each call spawns its work
//! there and waits for the answer on a std channel. Waiting on a channel is allowed on any
//! thread, a tokio worker's included (it blocks that worker as a sled read would), where a
//! `block_on` would panic; the runtime's writer is a thread of its own anyway
//! (`actors/src/runtime/log.rs`).

use crate::codec::{self, Skip};
use crate::{Entry, LogError, Replayed};
use async_nats::HeaderMap;
use async_nats::jetstream::{self, stream};
use futures_util::StreamExt;
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::future::IntoFuture;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError, RwLock};
use std::time::Duration;
use warden::chat::{ChatState, Record};

/// Where the server is unless the configuration says otherwise.
pub const URL: &str = "nats://127.0.0.1:4222";

/// The stream's name unless the configuration says otherwise.
pub const STREAM: &str = "warden";

/// The longest a stream id may be once written as a token: NATS reads a publish's subject in
/// its control line (4 KiB by default). The API's ids (at most 256 bytes) take at most 768.
pub const TOKEN_MAX: usize = 1024;

/// How long one step (a publish's acknowledgement, a message of a replay, a request to the
/// server) may take before the call fails.
pub const STEP_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a publish waits for its acknowledgement before it is sent again, with the same
/// message id (stored once). Short, so that every try of an append ([`PUBLISH_TRIES`] ×
/// this, 8 s) ends before the runtime stops waiting for the chat that appends (10 s): a
/// server back after a restart gets the append sent again in time, and a server gone for
/// good fails it with the log's reason rather than the chat's timeout.
const ACK_WAIT: Duration = Duration::from_secs(2);

/// How many times a publish is sent in all, the first included.
const PUBLISH_TRIES: u32 = 4;

/// How many subjects' last messages [`JetStreamLog::latest`] asks for at once.
const LOOKUPS: usize = 64;

/// The header every record of a group of several carries: the group's id.
const BATCH: &str = "Warden-Batch";

/// The header of a group's last record: the group is whole once it is stored.
const COMMIT: &str = "Warden-Commit";

/// Where the log is: the configuration's `[log]` for `engine = "jetstream"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The server, `nats://host:port`.
    pub url: String,
    /// The stream's name; its subjects start with it.
    pub stream: String,
    /// How many servers keep each message (1, or 3 for a cluster of three).
    pub replicas: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            url: URL.to_string(),
            stream: STREAM.to_string(),
            replicas: 1,
        }
    }
}

impl Settings {
    /// Whether a stream name can be one: letters, digits, `-` and `_` (it is also the first
    /// token of every subject).
    pub fn is_stream_name(name: &str) -> bool {
        !name.is_empty()
            && name.len() <= 200
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    }
}

/// A stream id as one NATS token: ASCII letters, digits and `-` as they are, every other byte
/// as `_` and two hex digits, the empty id as `_` alone. Reversible ([`id_of`]), and every id
/// has its own token.
pub fn token(id: &str) -> String {
    if id.is_empty() {
        return "_".to_string();
    }
    let mut token = String::with_capacity(id.len());
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' {
            token.push(char::from(b));
        } else {
            token.push_str(&format!("_{b:02X}"));
        }
    }
    token
}

/// The id a token was written from, or `None` when it is no token of [`token`]'s.
pub fn id_of(token: &str) -> Option<String> {
    if token == "_" {
        return Some(String::new());
    }
    let bytes = token.as_bytes();
    let mut id = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'_' => {
                let hex = token.get(i + 1..i + 3)?;
                id.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b if b.is_ascii_alphanumeric() || b == b'-' => {
                id.push(b);
                i += 1;
            }
            _ => return None,
        }
    }
    String::from_utf8(id).ok()
}

/// The client and the two streams, while the log is open.
#[derive(Clone)]
struct Conn {
    js: jetstream::Context,
    events: stream::Stream,
    snapshots: stream::Stream,
}

/// The event log on a JetStream stream.
pub struct JetStreamLog {
    /// The runtime the client lives on; `None` only while dropping.
    runtime: Option<tokio::runtime::Runtime>,
    settings: Settings,
    /// `nats://…, stream `…``: what errors name.
    shown: String,
    /// `None` after an append that failed, until [`JetStreamLog::reopen`].
    conn: RwLock<Option<Conn>>,
    /// The last stream sequence this process knows to be whole: reads stop there.
    horizon: AtomicU64,
    /// Chats whose replay skipped a record (see the sled log's field of the same name).
    partial: Mutex<BTreeSet<String>>,
    /// This log's own part of every message id: the process and the time it opened.
    writer: String,
    /// Messages published, for their ids.
    published: AtomicU64,
    /// Groups of several records written, for their ids.
    groups: AtomicU64,
}

impl std::fmt::Debug for JetStreamLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JetStreamLog")
            .field("url", &self.settings.url)
            .field("stream", &self.settings.stream)
            .finish_non_exhaustive()
    }
}

impl Drop for JetStreamLog {
    fn drop(&mut self) {
        // Dropping a runtime waits for its threads, which panics inside another runtime.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// What a step's error becomes: the server's or the client's message as text.
fn store(shown: &str, cause: impl std::fmt::Display) -> LogError {
    LogError::Store {
        path: shown.to_string(),
        cause: cause.to_string(),
    }
}

/// `future`, failed with `what` when it takes longer than [`STEP_TIMEOUT`].
async fn step<T, E: std::fmt::Display>(
    shown: &str,
    what: &str,
    future: impl Future<Output = Result<T, E>>,
) -> Result<T, LogError> {
    match tokio::time::timeout(STEP_TIMEOUT, future).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) => Err(store(shown, format!("{what}: {e}"))),
        Err(_) => Err(store(
            shown,
            format!("{what}: no answer within {STEP_TIMEOUT:?}"),
        )),
    }
}

/// One stored message as the log reads it.
struct Stored {
    seq: u64,
    subject: String,
    payload: Vec<u8>,
    batch: Option<String>,
    commit: bool,
}

fn header(headers: Option<&HeaderMap>, name: &str) -> Option<String> {
    headers
        .and_then(|h| h.get(name))
        .map(|v| v.as_str().to_string())
}

impl Stored {
    fn from_direct(message: jetstream::message::StreamMessage) -> Stored {
        Stored {
            seq: message.sequence,
            subject: message.subject.to_string(),
            batch: header(Some(&message.headers), BATCH),
            commit: message.headers.get(COMMIT).is_some(),
            payload: message.payload.to_vec(),
        }
    }
}

impl JetStreamLog {
    /// Connects to the server, makes the two streams when they aren't there, deletes the parts
    /// of a group cut short at the stream's end, and sets the horizon at the stream's last
    /// message.
    pub fn open(settings: &Settings) -> Result<JetStreamLog, LogError> {
        let shown = format!("{}, stream `{}`", settings.url, settings.stream);
        if !Settings::is_stream_name(&settings.stream) {
            return Err(LogError::Open {
                path: shown,
                cause: "a stream's name is letters, digits, `-` and `_`".to_string(),
            });
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("warden-nats")
            .enable_all()
            .build()
            .map_err(|e| LogError::Open {
                path: shown.clone(),
                cause: format!("starting the client's runtime: {e}"),
            })?;
        let writer = format!(
            "{:x}-{:x}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        );
        let log = JetStreamLog {
            runtime: Some(runtime),
            settings: settings.clone(),
            shown,
            conn: RwLock::new(None),
            horizon: AtomicU64::new(0),
            partial: Mutex::new(BTreeSet::new()),
            writer,
            published: AtomicU64::new(0),
            groups: AtomicU64::new(0),
        };
        log.connect().map_err(|e| match e {
            LogError::Store { path, cause } => LogError::Open { path, cause },
            e => e,
        })?;
        Ok(log)
    }

    /// Runs `future` on the log's runtime and waits for it on this thread.
    fn run<T: Send + 'static>(
        &self,
        future: impl Future<Output = Result<T, LogError>> + Send + 'static,
    ) -> Result<T, LogError> {
        let Some(runtime) = self.runtime.as_ref() else {
            return Err(self.closed());
        };
        let (answer, answered) = std::sync::mpsc::sync_channel(1);
        runtime.spawn(async move {
            let _ = answer.send(future.await);
        });
        answered
            .recv()
            .map_err(|_| store(&self.shown, "the client's runtime stopped"))?
    }

    fn closed(&self) -> LogError {
        LogError::Closed {
            path: self.shown.clone(),
        }
    }

    /// The connection, or the error of a log closed after a failure.
    fn conn(&self) -> Result<Conn, LogError> {
        self.conn
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
            .ok_or_else(|| self.closed())
    }

    /// The log can't be trusted to be whole in this process's view any more: closed until
    /// [`JetStreamLog::reopen`].
    fn close_after(&self, error: LogError) -> LogError {
        self.let_go();
        error
    }

    /// Drops the connection, after waiting (a bounded while) for the server to have read
    /// everything sent on it: a part of a group still on its way must land before the next
    /// opening looks for a cut group at the stream's end, not after it. A connection the
    /// server no longer reads takes what it still held with it.
    fn let_go(&self) {
        let old = self
            .conn
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(old) = old {
            let _ = self.run(async move {
                let _ = tokio::time::timeout(STEP_TIMEOUT, old.js.client().flush()).await;
                Ok(())
            });
        }
    }

    /// Connects, makes the streams, cleans a cut group off the end, sets the horizon.
    fn connect(&self) -> Result<(), LogError> {
        let settings = self.settings.clone();
        let shown = self.shown.clone();
        let (conn, horizon) = self.run(async move {
            let client = step(
                &shown,
                "connecting",
                async_nats::ConnectOptions::new()
                    .connection_timeout(STEP_TIMEOUT)
                    .name("warden")
                    .connect(settings.url.as_str()),
            )
            .await?;
            let mut js = jetstream::new(client);
            js.set_timeout(STEP_TIMEOUT);
            let name = &settings.stream;
            let events = stream::Config {
                name: name.clone(),
                subjects: vec![format!("{name}.chat.>")],
                num_replicas: settings.replicas,
                storage: stream::StorageType::File,
                allow_direct: true,
                duplicate_window: Duration::from_secs(120),
                ..Default::default()
            };
            let snapshots = stream::Config {
                name: format!("{name}-snapshots"),
                subjects: vec![format!("{name}.snap.>")],
                num_replicas: settings.replicas,
                storage: stream::StorageType::File,
                max_messages_per_subject: 1,
                allow_direct: true,
                ..Default::default()
            };
            let mut events = step(
                &shown,
                "opening the stream",
                js.get_or_create_stream(events),
            )
            .await?;
            let snapshots = step(
                &shown,
                "opening the snapshots' stream",
                js.get_or_create_stream(snapshots),
            )
            .await?;
            let last = step(&shown, "reading the stream's state", events.info())
                .await?
                .state
                .last_sequence;
            let horizon = cut_tail(&shown, &events, last).await?;
            let conn = Conn {
                js,
                events,
                snapshots,
            };
            Ok((conn, horizon))
        })?;
        self.horizon.store(horizon, Ordering::SeqCst);
        *self.conn.write().unwrap_or_else(PoisonError::into_inner) = Some(conn);
        Ok(())
    }

    /// Drops the client and connects again, as a restart would: a group cut short is deleted,
    /// and reads see the stream as the server holds it.
    pub fn reopen(&self) -> Result<(), LogError> {
        self.let_go();
        self.connect()
    }

    /// Whether the server answers for the stream now.
    pub fn probe(&self) -> Result<(), LogError> {
        let conn = self.conn()?;
        let shown = self.shown.clone();
        self.run(async move {
            step(
                &shown,
                "asking for the stream's state",
                conn.events.get_info(),
            )
            .await
            .map(drop)
        })
    }

    /// The data folder is not where this log is: it has none.
    pub fn path(&self) -> &Path {
        Path::new(&self.settings.url)
    }

    /// What errors name: the server and the stream.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    fn subject(&self, id: &str) -> Result<String, LogError> {
        self.subject_of("chat", id)
    }

    fn snapshot_subject(&self, id: &str) -> Result<String, LogError> {
        self.subject_of("snap", id)
    }

    /// `<stream>.<kind>.<token>`, refused when the id's token is too long for a subject.
    fn subject_of(&self, kind: &str, id: &str) -> Result<String, LogError> {
        let token = token(id);
        if token.len() > TOKEN_MAX {
            return Err(LogError::SubjectTooLong {
                chat: LogError::shortened(id),
                len: token.len(),
            });
        }
        Ok(format!("{}.{kind}.{token}", self.settings.stream))
    }

    /// The stream id of one of the log's subjects.
    fn id_of_subject(&self, subject: &str) -> Option<String> {
        let rest = subject.strip_prefix(&self.settings.stream)?;
        id_of(rest.strip_prefix(".chat.")?)
    }

    /// Appends one event: acknowledged by the server when this returns.
    pub fn append(&self, chat: &str, record: &Record) -> Result<u64, LogError> {
        let seqs = self.append_batch(&[(chat, record)])?;
        seqs.first()
            .copied()
            .ok_or_else(|| store(&self.shown, "the server acknowledged nothing"))
    }

    /// Appends a group, whole or absent (see the module's documentation): every record of it
    /// acknowledged when this returns. A failure closes the log until
    /// [`JetStreamLog::reopen`], which deletes what the group left.
    pub fn append_batch<R: std::borrow::Borrow<Record>>(
        &self,
        items: &[(&str, R)],
    ) -> Result<Vec<u64>, LogError> {
        let mut messages = Vec::with_capacity(items.len());
        for (chat, record) in items {
            let value = codec::write_record(record.borrow()).map_err(|e| LogError::Encode {
                chat: chat.to_string(),
                cause: e.to_string(),
            })?;
            messages.push((self.subject(chat)?, value));
        }
        if messages.is_empty() {
            return Ok(Vec::new());
        }
        let conn = self.conn()?;
        let first = self
            .published
            .fetch_add(messages.len() as u64, Ordering::SeqCst);
        let ids: Vec<String> = (0..messages.len() as u64)
            .map(|n| format!("{}-{}", self.writer, first + n))
            .collect();
        let group = (messages.len() > 1).then(|| {
            format!(
                "{}-g{}",
                self.writer,
                self.groups.fetch_add(1, Ordering::SeqCst)
            )
        });
        let shown = self.shown.clone();
        let written = self.run(async move {
            let n = messages.len();
            let mut messages: Vec<(String, Vec<u8>, HeaderMap)> = messages
                .into_iter()
                .zip(ids)
                .map(|((subject, value), id)| {
                    let mut headers = HeaderMap::new();
                    headers.insert(async_nats::header::NATS_MESSAGE_ID, id.as_str());
                    if let Some(group) = &group {
                        headers.insert(BATCH, group.as_str());
                    }
                    (subject, value, headers)
                })
                .collect();
            if let Some((_, _, headers)) = messages.last_mut()
                && group.is_some()
            {
                headers.insert(COMMIT, n.to_string().as_str());
            }
            let last = messages.pop();
            // Every record but the last, pipelined; then the last, which commits the group.
            let mut seqs = publish_all(&shown, &conn.js, messages).await?;
            if let Some(last) = last {
                seqs.extend(publish_all(&shown, &conn.js, vec![last]).await?);
            }
            Ok(seqs)
        });
        match written {
            Ok(seqs) => {
                if let Some(&last) = seqs.last() {
                    self.horizon.fetch_max(last, Ordering::SeqCst);
                }
                Ok(seqs)
            }
            Err(e) => Err(self.close_after(e)),
        }
    }

    /// Appends one event to `chat` only if the chat's newest record is still the one at
    /// sequence `last` (0: the chat has none), as the chat's writer knows it: the server checks
    /// (`Nats-Expected-Last-Subject-Sequence`) and refuses the append, storing nothing, when
    /// another writer appended to the chat since. That refusal is [`LogError::Fenced`], and it
    /// leaves the log open (nothing was cut); any other failure closes it as
    /// [`JetStreamLog::append_batch`]'s does. A publish sent again after a lost acknowledgement
    /// keeps its message id, and the server answers a duplicate before it checks the fence.
    pub fn append_after(&self, chat: &str, record: &Record, last: u64) -> Result<u64, LogError> {
        let value = codec::write_record(record).map_err(|e| LogError::Encode {
            chat: chat.to_string(),
            cause: e.to_string(),
        })?;
        let subject = self.subject(chat)?;
        let conn = self.conn()?;
        let id = format!(
            "{}-{}",
            self.writer,
            self.published.fetch_add(1, Ordering::SeqCst)
        );
        let shown = self.shown.clone();
        let written = self.run(async move {
            let mut headers = HeaderMap::new();
            headers.insert(async_nats::header::NATS_MESSAGE_ID, id.as_str());
            headers.insert(
                async_nats::header::NATS_EXPECTED_LAST_SUBJECT_SEQUENCE,
                last.to_string().as_str(),
            );
            publish_fenced(&shown, &conn.js, subject, value, headers).await
        });
        match written {
            Ok(Some(seq)) => {
                self.horizon.fetch_max(seq, Ordering::SeqCst);
                Ok(seq)
            }
            Ok(None) => Err(LogError::Fenced {
                chat: LogError::shortened(chat),
                expected: last,
            }),
            Err(e) => Err(self.close_after(e)),
        }
    }

    /// The sequence of `chat`'s newest record as the server holds it now (0: none), past this
    /// process's horizon: another node's appends included. What a node taking a chat over
    /// fences its first [`JetStreamLog::append_after`] with. (Reads still stop at the
    /// horizon, which only this process's own appends and openings move: `docs/cluster.md`.)
    pub fn end_of(&self, chat: &str) -> Result<u64, LogError> {
        let subject = self.subject(chat)?;
        let conn = self.conn()?;
        let shown = self.shown.clone();
        self.run(async move {
            match tokio::time::timeout(
                STEP_TIMEOUT,
                conn.events.direct_get_last_for_subject(&subject),
            )
            .await
            {
                Ok(Ok(last)) => Ok(last.sequence),
                // None, or (nats-server 2.9) its last message deleted: walked instead.
                Ok(Err(e)) if e.kind() == stream::DirectGetErrorKind::NotFound => {
                    walked_last(&shown, &conn.events, &subject, u64::MAX).await
                }
                Ok(Err(e)) => Err(store(
                    &shown,
                    format!("reading a subject's last message: {e}"),
                )),
                Err(_) => Err(store(
                    &shown,
                    format!("reading a subject's last message: no answer within {STEP_TIMEOUT:?}"),
                )),
            }
        })
    }

    /// Nothing to do: every append was acknowledged before it returned. Fails while closed.
    pub fn flush(&self) -> Result<(), LogError> {
        self.conn().map(drop)
    }

    /// A chat brought back: its snapshot, then its records after it by its subject.
    pub fn chat(&self, chat: &str) -> Result<Replayed, LogError> {
        let subject = self.subject(chat)?;
        let snapshot_subject = self.snapshot_subject(chat)?;
        let conn = self.conn()?;
        let shown = self.shown.clone();
        let horizon = self.horizon.load(Ordering::SeqCst);
        let replayed = self.run(async move {
            let mut replayed = Replayed::default();
            let mut from = 1;
            if let Some((seq, state)) = snapshot_of(&shown, &conn, &snapshot_subject).await? {
                replayed.state = state;
                replayed.last_seq = seq;
                replayed.snapshot = Some(seq);
                from = seq.saturating_add(1);
            }
            for stored in read(&shown, &conn.events, &subject, from, horizon, usize::MAX).await? {
                replayed.take(stored.seq, codec::read_record(&stored.payload));
            }
            Ok(replayed)
        })?;
        if replayed.skipped > 0 {
            self.partial
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(chat.to_string());
        }
        Ok(replayed)
    }

    /// Keeps a chat's snapshot (see [`crate::EventLog::snapshot`]): acknowledged when this
    /// returns.
    pub fn snapshot(&self, chat: &str, seq: u64, state: &ChatState) -> Result<bool, LogError> {
        if self
            .partial
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(chat)
        {
            return Ok(false);
        }
        let subject = self.snapshot_subject(chat)?;
        let value = codec::write_snapshot(seq, state).map_err(|e| LogError::Encode {
            chat: chat.to_string(),
            cause: e.to_string(),
        })?;
        let conn = self.conn()?;
        let shown = self.shown.clone();
        self.run(async move {
            let ack = step(
                &shown,
                "publishing a snapshot",
                conn.js.publish(subject, value.into()),
            )
            .await?;
            step(&shown, "the snapshot's acknowledgement", ack.into_future()).await?;
            Ok(true)
        })
    }

    /// Every subject of the stream, as ids, in sled's key order (shorter ids first).
    fn ids(&self) -> Result<Vec<String>, LogError> {
        let conn = self.conn()?;
        let shown = self.shown.clone();
        let filter = format!("{}.chat.>", self.settings.stream);
        let subjects = self.run(async move {
            let mut info = step(
                &shown,
                "listing the stream's subjects",
                conn.events.info_with_subjects(filter),
            )
            .await?;
            let mut subjects = Vec::new();
            while let Some(next) = step(&shown, "listing the stream's subjects", async {
                Ok::<_, String>(info.next().await)
            })
            .await?
            {
                let (subject, _count) = next.map_err(|e| store(&shown, e))?;
                subjects.push(subject);
            }
            Ok(subjects)
        })?;
        let mut ids = Vec::with_capacity(subjects.len());
        for subject in subjects {
            match self.id_of_subject(&subject) {
                Some(id) => ids.push(id),
                None => {
                    return Err(LogError::BadKey {
                        path: self.shown.clone(),
                        key: subject,
                    });
                }
            }
        }
        ids.sort_by(|a, b| (a.len(), a.as_bytes()).cmp(&(b.len(), b.as_bytes())));
        Ok(ids)
    }

    /// Every chat with an event in the log, once each, in key order.
    pub fn chats(&self) -> impl Iterator<Item = Result<String, LogError>> + '_ {
        let listed: Vec<Result<String, LogError>> = match self.ids() {
            Ok(ids) => ids.into_iter().map(Ok).collect(),
            Err(e) => vec![Err(e)],
        };
        listed.into_iter()
    }

    /// The records of every stream after `after`, oldest first, at most `limit`: one walk of
    /// the stream from `after + 1`.
    pub fn after(&self, after: u64, limit: usize) -> Result<Vec<(String, Entry)>, LogError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let conn = self.conn()?;
        let shown = self.shown.clone();
        let filter = format!("{}.chat.>", self.settings.stream);
        let horizon = self.horizon.load(Ordering::SeqCst);
        let stored = self.run(async move {
            read(
                &shown,
                &conn.events,
                &filter,
                after.saturating_add(1),
                horizon,
                limit,
            )
            .await
        })?;
        Ok(stored
            .into_iter()
            .map(|stored| {
                let chat = self.id_of_subject(&stored.subject).unwrap_or_default();
                let record = codec::read_record(&stored.payload);
                (
                    chat,
                    Entry {
                        seq: stored.seq,
                        record,
                    },
                )
            })
            .collect())
    }

    /// Every stream with the sequence number of its newest record, in key order: one direct
    /// get of each subject's last message.
    pub fn latest(&self) -> Result<Vec<(String, u64)>, LogError> {
        let ids = self.ids()?;
        let subjects: Vec<String> = ids
            .iter()
            .map(|id| self.subject(id))
            .collect::<Result<_, _>>()?;
        let conn = self.conn()?;
        let shown = self.shown.clone();
        let horizon = self.horizon.load(Ordering::SeqCst);
        let seqs = self.run(async move {
            let (shown, events) = (&shown, &conn.events);
            futures_util::stream::iter(subjects)
                .map(|subject| async move { last_of(shown, events, &subject, horizon).await })
                .buffered(LOOKUPS)
                .collect::<Vec<_>>()
                .await
                .into_iter()
                .collect::<Result<Vec<u64>, LogError>>()
        })?;
        Ok(ids
            .into_iter()
            .zip(seqs)
            .filter(|(_, seq)| *seq > 0)
            .collect())
    }

    /// Every record of one chat, oldest first.
    pub fn records(&self, chat: &str) -> Result<Vec<Entry>, LogError> {
        let subject = self.subject(chat)?;
        let conn = self.conn()?;
        let shown = self.shown.clone();
        let horizon = self.horizon.load(Ordering::SeqCst);
        let stored =
            self.run(
                async move { read(&shown, &conn.events, &subject, 1, horizon, usize::MAX).await },
            )?;
        Ok(stored
            .into_iter()
            .map(|stored| Entry {
                seq: stored.seq,
                record: codec::read_record(&stored.payload),
            })
            .collect())
    }

    /// Every chat replayed from its first event, ignoring snapshots, in one walk of the
    /// stream, in key order.
    pub fn replay_all(&self) -> impl Iterator<Item = Result<(String, Replayed), LogError>> + '_ {
        let walked = self.conn().and_then(|conn| {
            let shown = self.shown.clone();
            let filter = format!("{}.chat.>", self.settings.stream);
            let horizon = self.horizon.load(Ordering::SeqCst);
            self.run(
                async move { read(&shown, &conn.events, &filter, 1, horizon, usize::MAX).await },
            )
        });
        let chats: Vec<Result<(String, Replayed), LogError>> = match walked {
            Err(e) => vec![Err(e)],
            Ok(stored) => {
                let mut chats: BTreeMap<(usize, Vec<u8>), Replayed> = BTreeMap::new();
                for stored in stored {
                    let (chat, record) = match self.id_of_subject(&stored.subject) {
                        Some(chat) => (chat, codec::read_record(&stored.payload)),
                        None => (String::new(), Err(Skip::Key)),
                    };
                    chats
                        .entry((chat.len(), chat.into_bytes()))
                        .or_default()
                        .take(stored.seq, record);
                }
                chats
                    .into_iter()
                    .map(|((_, chat), replayed)| {
                        Ok((String::from_utf8_lossy(&chat).into_owned(), replayed))
                    })
                    .collect()
            }
        };
        chats.into_iter()
    }

    fn state(&self, snapshots: bool) -> Result<stream::State, LogError> {
        let conn = self.conn()?;
        let shown = self.shown.clone();
        self.run(async move {
            let stream = if snapshots {
                conn.snapshots
            } else {
                conn.events
            };
            step(&shown, "reading the stream's state", stream.get_info())
                .await
                .map(|info| info.state)
        })
    }

    /// How many records the stream holds. 0 while the log is closed.
    pub fn len(&self) -> usize {
        self.state(false)
            .map_or(0, |s| usize::try_from(s.messages).unwrap_or(usize::MAX))
    }

    /// Whether the stream holds no record (or the log is closed).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many chats have a snapshot.
    pub fn snapshots(&self) -> usize {
        self.state(true)
            .map_or(0, |s| usize::try_from(s.messages).unwrap_or(usize::MAX))
    }

    /// The bytes the server reports for both streams.
    pub fn size_on_disk(&self) -> Result<u64, LogError> {
        Ok(self.state(false)?.bytes + self.state(true)?.bytes)
    }
}

/// Publishes `messages` pipelined (each sent, then every acknowledgement awaited) and answers
/// their sequence numbers in order. A publish whose acknowledgement did not come is sent again
/// with the same message id, which the server stores once.
async fn publish_all(
    shown: &str,
    js: &jetstream::Context,
    messages: Vec<(String, Vec<u8>, HeaderMap)>,
) -> Result<Vec<u64>, LogError> {
    let mut pending = Vec::with_capacity(messages.len());
    for (subject, value, headers) in &messages {
        let ack = step(
            shown,
            "publishing",
            js.publish_with_headers(subject.clone(), headers.clone(), value.clone().into()),
        )
        .await?;
        pending.push(ack);
    }
    let mut seqs = Vec::with_capacity(messages.len());
    for ((subject, value, headers), ack) in messages.into_iter().zip(pending) {
        let mut answer = tokio::time::timeout(ACK_WAIT, ack).await;
        let mut tries = 1;
        loop {
            match answer {
                Ok(Ok(ack)) => {
                    seqs.push(ack.sequence);
                    break;
                }
                // Lost, or refused for a moment (a server restarting): the same id again.
                _ if tries < PUBLISH_TRIES => {
                    tries += 1;
                    let resent = step(
                        shown,
                        "publishing again",
                        js.publish_with_headers(
                            subject.clone(),
                            headers.clone(),
                            value.clone().into(),
                        ),
                    )
                    .await?;
                    answer = tokio::time::timeout(ACK_WAIT, resent).await;
                }
                Ok(Err(e)) => {
                    return Err(store(shown, format!("the server's acknowledgement: {e}")));
                }
                Err(_) => {
                    return Err(store(
                        shown,
                        format!("no acknowledgement in {PUBLISH_TRIES} tries of {ACK_WAIT:?}"),
                    ));
                }
            }
        }
    }
    Ok(seqs)
}

/// Publishes one message with a fence in its headers and answers its sequence number, or
/// `None` when the server refused it for the fence (nothing stored). Sent again with the same
/// message id when its acknowledgement did not come, as [`publish_all`] does.
async fn publish_fenced(
    shown: &str,
    js: &jetstream::Context,
    subject: String,
    value: Vec<u8>,
    headers: HeaderMap,
) -> Result<Option<u64>, LogError> {
    let mut tries = 0;
    loop {
        tries += 1;
        let ack = step(
            shown,
            "publishing",
            js.publish_with_headers(subject.clone(), headers.clone(), value.clone().into()),
        )
        .await?;
        match tokio::time::timeout(ACK_WAIT, ack).await {
            Ok(Ok(ack)) => return Ok(Some(ack.sequence)),
            Ok(Err(e)) if e.kind() == jetstream::context::PublishErrorKind::WrongLastSequence => {
                return Ok(None);
            }
            _ if tries < PUBLISH_TRIES => {}
            Ok(Err(e)) => {
                return Err(store(shown, format!("the server's acknowledgement: {e}")));
            }
            Err(_) => {
                return Err(store(
                    shown,
                    format!("no acknowledgement in {PUBLISH_TRIES} tries of {ACK_WAIT:?}"),
                ));
            }
        }
    }
}

/// The messages of `filter` from stream sequence `from` up to `horizon`, at most `limit`, in
/// order, through an ordered consumer.
async fn read(
    shown: &str,
    events: &stream::Stream,
    filter: &str,
    from: u64,
    horizon: u64,
    limit: usize,
) -> Result<Vec<Stored>, LogError> {
    if from > horizon || limit == 0 {
        return Ok(Vec::new());
    }
    // The first one, by a direct get: none means nothing to walk (an ordered consumer would
    // wait for one).
    let first = match events
        .direct_get_builder()
        .next_by_subject(filter)
        .sequence(from)
        .send()
        .await
    {
        Ok(message) => message,
        Err(e) if e.kind() == stream::DirectGetErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(store(shown, format!("reading the first message: {e}"))),
    };
    let first = Stored::from_direct(first);
    if first.seq > horizon {
        return Ok(Vec::new());
    }
    let mut stored = vec![first];
    if stored.len() >= limit {
        return Ok(stored);
    }
    let start = stored[0].seq + 1;
    if start > horizon {
        return Ok(stored);
    }
    // Whether any message follows: an ordered consumer would wait for one that never comes.
    match events
        .direct_get_builder()
        .next_by_subject(filter)
        .sequence(start)
        .send()
        .await
    {
        Ok(next) if next.sequence <= horizon => {}
        Ok(_) => return Ok(stored),
        Err(e) if e.kind() == stream::DirectGetErrorKind::NotFound => return Ok(stored),
        Err(e) => return Err(store(shown, format!("reading the next message: {e}"))),
    }
    let consumer = step(
        shown,
        "starting a replay",
        events.create_consumer(jetstream::consumer::pull::OrderedConfig {
            filter_subject: filter.to_string(),
            deliver_policy: jetstream::consumer::DeliverPolicy::ByStartSequence {
                start_sequence: start,
            },
            ..Default::default()
        }),
    )
    .await?;
    let mut messages = step(shown, "starting a replay", consumer.messages()).await?;
    loop {
        let Some(message) = step(shown, "replaying", async {
            Ok::<_, String>(messages.next().await)
        })
        .await?
        else {
            break;
        };
        let message = message.map_err(|e| store(shown, format!("replaying: {e}")))?;
        let info = message
            .info()
            .map_err(|e| store(shown, format!("replaying: {e}")))?;
        let (seq, left) = (info.stream_sequence, info.pending);
        if seq > horizon {
            break;
        }
        stored.push(Stored {
            seq,
            subject: message.subject.to_string(),
            batch: header(message.headers.as_ref(), BATCH),
            commit: message
                .headers
                .as_ref()
                .is_some_and(|h| h.get(COMMIT).is_some()),
            payload: message.payload.to_vec(),
        });
        if left == 0 || seq == horizon || stored.len() >= limit {
            break;
        }
    }
    Ok(stored)
}

/// The sequence number of a subject's newest record up to `horizon` (0 when it has none):
/// one direct get of its last message.
async fn last_of(
    shown: &str,
    events: &stream::Stream,
    subject: &str,
    horizon: u64,
) -> Result<u64, LogError> {
    let last = tokio::time::timeout(STEP_TIMEOUT, events.direct_get_last_for_subject(subject))
        .await
        .map_err(|_| {
            store(
                shown,
                format!("reading a subject's last message: no answer within {STEP_TIMEOUT:?}"),
            )
        })?;
    match last {
        Ok(last) if last.sequence <= horizon => Ok(last.sequence),
        // Past the horizon (a group in flight), or not found where the server's count of the
        // subject says it is (nats-server 2.9 after the subject's last message was deleted):
        // the subject walked instead.
        Ok(_) => walked_last(shown, events, subject, horizon).await,
        Err(e) if e.kind() == stream::DirectGetErrorKind::NotFound => {
            walked_last(shown, events, subject, horizon).await
        }
        Err(e) => Err(store(
            shown,
            format!("reading a subject's last message: {e}"),
        )),
    }
}

async fn walked_last(
    shown: &str,
    events: &stream::Stream,
    subject: &str,
    horizon: u64,
) -> Result<u64, LogError> {
    Ok(read(shown, events, subject, 1, horizon, usize::MAX)
        .await?
        .last()
        .map_or(0, |stored| stored.seq))
}

/// A chat's latest snapshot, if there is one this warden can read.
async fn snapshot_of(
    shown: &str,
    conn: &Conn,
    subject: &str,
) -> Result<Option<(u64, ChatState)>, LogError> {
    match conn.snapshots.direct_get_last_for_subject(subject).await {
        Ok(message) => Ok(codec::read_snapshot(&message.payload)),
        Err(e) if e.kind() == stream::DirectGetErrorKind::NotFound => Ok(None),
        Err(e) => Err(store(shown, format!("reading a snapshot: {e}"))),
    }
}

/// Deletes the parts of a group cut short at the stream's end (after `last`, walking back while
/// they belong to one group with no commit), and answers the new horizon: the last sequence
/// of a whole message.
async fn cut_tail(shown: &str, events: &stream::Stream, last: u64) -> Result<u64, LogError> {
    let mut seq = last;
    let mut group: Option<String> = None;
    let mut cut = Vec::new();
    while seq > 0 {
        let message = match events.direct_get(seq).await {
            Ok(message) => Stored::from_direct(message),
            // Deleted before (a cut of an earlier opening), or never there.
            Err(e) if e.kind() == stream::DirectGetErrorKind::NotFound => {
                seq -= 1;
                continue;
            }
            Err(e) => return Err(store(shown, format!("reading the stream's end: {e}"))),
        };
        let open_part = message.batch.is_some() && !message.commit;
        if !open_part || (group.is_some() && group != message.batch) {
            break;
        }
        group.clone_from(&message.batch);
        cut.push(message.seq);
        seq -= 1;
    }
    for seq in &cut {
        step(
            shown,
            "deleting a group cut short",
            events.delete_message(*seq),
        )
        .await?;
    }
    Ok(if cut.is_empty() { last } else { seq })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_is_one_token_and_comes_back() {
        let ids = [
            "",
            "_",
            "c1",
            "a task of c1",
            "~preferences",
            "a.b*c>d",
            "émoji 🦀",
            "_5F",
            "tab\there",
        ];
        let mut tokens = BTreeSet::new();
        for id in ids {
            let token = token(id);
            assert!(
                !token.is_empty()
                    && token
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
                "{id:?} → {token:?}"
            );
            assert_eq!(id_of(&token).as_deref(), Some(id), "{id:?} → {token:?}");
            assert!(tokens.insert(token), "{id:?} shares its token");
        }
        assert_eq!(token("a task"), "a_20task");
        assert_eq!(token(""), "_");
    }

    #[test]
    fn what_is_no_token_has_no_id() {
        for token in ["a.b", "_4", "_ZZ", "a b", "_FF"] {
            assert_eq!(id_of(token), None, "{token:?}");
        }
    }

    #[test]
    fn the_longest_api_id_fits_in_a_subject() {
        // Every byte escaped: three per byte, 256 bytes at most (actors' ID_MAX).
        assert!(token(&"~".repeat(256)).len() <= TOKEN_MAX);
    }
}
