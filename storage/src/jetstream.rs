//! The event log on NATS JetStream: the engine for warden on several machines
//! (`docs/cluster.md`), behind the same contract as sled's.
//!
//! Layout, for a stream named `warden` (the configuration's `[log] stream`):
//!
//! - Stream `warden`, subjects `warden.chat.>`: one message per record (and a takeover's
//!   marker, no record), on the subject
//!   `warden.chat.<token>` of its stream (chat, task, the preferences), where `<token>` is the
//!   stream's id written as one NATS token ([`token`]). The payload is the record's value as
//!   sled holds it (`[record version][postcard(Record)]`, [`crate::codec`]); the record's
//!   sequence number is the message's stream sequence, global and increasing.
//! - Stream `warden-snapshots`, subjects `warden.snap.>`, one message kept per subject: a
//!   chat's latest snapshot (`[snapshot version][u64 BE sequence][postcard(ChatState)]`).
//! - Subjects `warden.node.<node as a token>`, in the events' stream: each node's *chain*,
//!   the commits and aborts of its groups, no record.
//!
//! **Acknowledged before it returns.** Every append publishes and waits for JetStream's
//! acknowledgement (its `PubAck`); each message carries a `Nats-Msg-Id`, so a publish this
//! engine tries again after a lost acknowledgement is stored once (the server's duplicate
//! window, two minutes). [`JetStreamLog::flush`] has nothing left to do.
//!
//! **A group is whole or absent, for every reader, whichever node wrote it.** nats-server 2.9
//! (Debian's) has no atomic batch publish, and one message per group would cut a chat's
//! records out of its subject. So a group of more than one record is written as one message
//! per record on its chat's subject, each with the header `Warden-Batch: <base> <group id>`
//! (the base: the sequence of the newest message on the node's chain when the group began;
//! the id names the node), pipelined; then, once every part is acknowledged, its commit on
//! the node's chain, fenced at the base (`Nats-Expected-Last-Subject-Sequence`). **The rule
//! every reader keeps**: a record alone is seen once stored; a part of a group once the first
//! message on its node's chain after the group's base commits that group. A chain message
//! after the base that is anything else (an abort, another group's commit) means the group
//! will never be whole: the commit, fenced at the base, can no longer be stored. An abort is
//! that message, fenced at the base too, so of a commit and an abort exactly one is stored:
//! a node opening aborts its own group left open, a fenced part refused aborts its group, a
//! node taking a chat over aborts the open groups with parts in it. A takeover first appends
//! a marker to the chat, fenced at the chat's end, so every later write fenced at an older
//! end (the old writer's) is refused ([`LogError::Fenced`]). The argument, the race and the
//! tests are in `docs/cluster.md` ("Several writers on one stream").
//!
//! Without a node id the log is the stream's one writer (warden on one machine): opening
//! also deletes the parts of a group cut short at the stream's end, whoever wrote it. Groups
//! written before chains existed (their last record carried `Warden-Commit`) are read as they
//! were then: whole, a cut one having been deleted at an opening.
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
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::future::Future;
use std::future::IntoFuture;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
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
/// message id (stored once).
const ACK_WAIT: Duration = Duration::from_secs(2);

/// How long the publishes of one append may go on being sent again, from the first: a
/// server back after a restart, or a stream that elected a new leader after its server was
/// killed (2.5 to 5.5 s measured on loopback, `storage/tests/log/replicas.rs`), gets the
/// append in time, so the log does not fail for it; a server gone for good fails it with the
/// log's reason. The last try's wait included, it ends before the runtime stops waiting for
/// the chat that appends (10 s).
const PUBLISH_BUDGET: Duration = Duration::from_secs(7);

/// The pause before a publish is sent again after a refusal that came at once (a stream
/// electing a new leader has no one to take it: "no stream found for given subject"),
/// doubled at each try up to [`REFUSED_PAUSE_MAX`].
const REFUSED_PAUSE: Duration = Duration::from_millis(100);

const REFUSED_PAUSE_MAX: Duration = Duration::from_millis(800);

/// How often a request that can be asked again without changing anything twice (a stream's
/// state, opening or making a stream) is sent again while no answer has come, the tries
/// before it still waited for: a question sent while a stream has no leader (its server
/// killed, the others electing one) is answered by nobody, so one sent after the election is
/// what gets the answer, within this of the election rather than after a whole step waited
/// out; and a slow server's answer to the first is still taken. For [`STEP_TIMEOUT`] in all.
const ASK_AGAIN: Duration = Duration::from_millis(500);

/// How many errors heard fail such a request.
const ASK_ERRORS: u32 = 3;

/// How long a walk waits for the next message its consumer counts before it asks the
/// stream's leader whether there is one.
const STALL: Duration = Duration::from_millis(500);

/// How long a replay waits for its consumer to be made, or to deliver a message the stream's
/// leader holds, before it reads the rest from the leader, message by message (nats-server
/// 2.9 places a consumer on any server of the stream, one that is down included). A
/// consumer is made in milliseconds on loopback; one slower than this costs the walk a round
/// trip a message, never a message.
const CONSUMER_WAIT: Duration = Duration::from_millis(500);

/// How many subjects' last messages [`JetStreamLog::latest`] asks for at once.
const LOOKUPS: usize = 64;

/// The header every record of a group of several carries: `<base> <group id>`, the base the
/// sequence of its node's chain's newest message when the group began (the group is whole
/// when the chain's next message commits it), the id `<node>~<session>-g<n>` (the node is
/// what comes before its last `~`). One header, not three: a reader parses every header of
/// every message. (Before groups had chains: the group's id alone.)
const BATCH: &str = "Warden-Batch";

/// The header of a group's commit, on its node's chain: the group's id. (Before groups had
/// chains, the header of a group's last record.)
const COMMIT: &str = "Warden-Commit";

/// The header of a takeover's marker on a chat: the node that took the chat over.
const TAKEN: &str = "Warden-Taken";

/// The header of an abort on a node's chain: the node that aborted whatever group of the
/// chain's node waited on the message before it.
const ABORT: &str = "Warden-Abort";

/// Where the log is: the configuration's `[log]` for `engine = "jetstream"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The server, `nats://host:port`, or several servers of one cluster separated by commas
    /// (`nats://a:4222,nats://b:4222`): the client connects to any of them, and connects
    /// again to another when the one it has goes away.
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
    /// The servers `url` names, each `nats://` or `tls://`; an error names the one that is
    /// not a server's address.
    pub fn servers(&self) -> Result<Vec<async_nats::ServerAddr>, String> {
        servers(&self.url)
    }

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

/// The fates this log has learnt, by group id: `true` committed, `false` dead. Only final
/// fates are kept (an open group may still go either way); forgotten all at once when more
/// than [`FATES_KEPT`] are.
type Fates = Arc<Mutex<HashMap<String, bool>>>;

/// How many groups' fates a log remembers before it forgets them and asks again.
const FATES_KEPT: usize = 1 << 16;

/// How many times a fenced write is made again when all that stands past its fence are
/// parts of groups that will never be whole (a writer's stray parts after a takeover).
const FENCE_TRIES: usize = 3;

/// How many times [`JetStreamLog::take_over`] fences its marker again when the chat moves
/// under it, and opening aborts this node's chain again when it moves under it.
const MOVE_TRIES: usize = 8;

/// The event log on a JetStream stream.
pub struct JetStreamLog {
    /// The runtime the client lives on; `None` only while dropping.
    runtime: Option<tokio::runtime::Runtime>,
    settings: Settings,
    /// `nats://…, stream `…``: what errors name.
    shown: String,
    /// `None` after an append that failed, until [`JetStreamLog::reopen`].
    conn: RwLock<Option<Conn>>,
    /// Chats whose replay skipped a record (see the sled log's field of the same name).
    partial: Mutex<BTreeSet<String>>,
    /// The node this log writes as: given at opening, or made there (one writer a stream).
    node: String,
    /// Whether the node was given: the stream may have other writers, so opening cuts no
    /// one's groups but this node's own.
    named: bool,
    /// This log's own part of every message id: the node, the process, the time it opened.
    writer: String,
    /// This log's own part of every group id, `<node>~<process and time>` (without a node id
    /// given, `<node>~`: the node is made of the process and the time already).
    session: String,
    /// The newest message on this node's chain as this log knows it: the base of its next
    /// group; `None` when it must be read first. Held while a group is written, so that this
    /// log's groups are written one after another, each on the last one's decision.
    chain: Mutex<Option<u64>>,
    fates: Fates,
    /// Messages published, for their ids.
    published: AtomicU64,
    /// Groups of several records written, for their ids.
    groups: AtomicU64,
    /// Opened to read only ([`JetStreamLog::open_to_read`]): the streams are not made, no
    /// chain is written, every write is refused.
    read_only: bool,
}

impl std::fmt::Debug for JetStreamLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JetStreamLog")
            .field("url", &self.settings.url)
            .field("stream", &self.settings.stream)
            .field("node", &self.node)
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

/// A request that changes nothing, or nothing twice, asked every [`ASK_AGAIN`] while no
/// answer has come (the earlier tries still waited for, the first answer taken), at most
/// [`STEP_TIMEOUT`]; `make` makes it anew for each try. An error heard is an answer too: after
/// [`ASK_ERRORS`] of them the request fails with the last (a stream that isn't there is said
/// at once, not after the whole step).
async fn asked<T, E: std::fmt::Display, F: Future<Output = Result<T, E>>>(
    shown: &str,
    what: &str,
    mut make: impl FnMut() -> F,
) -> Result<T, LogError> {
    let start = tokio::time::Instant::now();
    let deadline = start + STEP_TIMEOUT;
    let mut tries = futures_util::stream::FuturesUnordered::new();
    let mut next = start;
    let mut errors = 0;
    let mut last = None;
    loop {
        let now = tokio::time::Instant::now();
        if now >= deadline {
            break;
        }
        if now >= next {
            tries.push(make());
            next = now + ASK_AGAIN;
        }
        match tokio::time::timeout_at(next.min(deadline), tries.next()).await {
            Ok(Some(Ok(value))) => return Ok(value),
            Ok(Some(Err(e))) => {
                last = Some(format!("{what}: {e}"));
                errors += 1;
                if errors >= ASK_ERRORS {
                    break;
                }
            }
            // Every try answered with an error: the next one at its time.
            Ok(None) => tokio::time::sleep_until(next.min(deadline)).await,
            Err(_) => {}
        }
    }
    Err(store(
        shown,
        last.unwrap_or_else(|| format!("{what}: no answer within {STEP_TIMEOUT:?}")),
    ))
}

/// The servers of a `url`: one address, or several separated by commas (blanks around each
/// allowed), each `nats://` or `tls://`.
pub fn servers(url: &str) -> Result<Vec<async_nats::ServerAddr>, String> {
    url.split(',')
        .map(str::trim)
        .map(|one| {
            if !["nats://", "tls://"].iter().any(|s| one.starts_with(s)) {
                return Err(format!("`{one}` must start with `nats://` or `tls://`"));
            }
            one.parse::<async_nats::ServerAddr>()
                .map_err(|e| format!("`{one}` is not a server's address: {e}"))
        })
        .collect()
}

/// One stored message as the log reads it.
#[derive(Debug, Clone)]
struct Stored {
    seq: u64,
    subject: String,
    payload: Vec<u8>,
    /// `Warden-Batch`: the id of the group it is a part of.
    batch: Option<String>,
    /// `Warden-Commit`: on a node's chain, the group it commits; on a chat's subject (a
    /// group written before groups had chains), its group's last record.
    commit: Option<String>,
    /// `Warden-Batch`: its group's base on its node's chain (`None`: a group written before
    /// chains).
    base: Option<u64>,
    /// `Warden-Taken`: a takeover's marker, no record.
    taken: bool,
    /// `Warden-Abort`: on a node's chain, the node that aborted.
    aborted_by: Option<String>,
}

/// A part of a group whose fate its node's chain decides.
struct Part<'a> {
    group: &'a str,
    node: &'a str,
    base: u64,
}

impl Stored {
    /// The message as read, its headers looked at in one pass (a look-up by name checks and
    /// builds the name each time, six of them a message).
    fn new(seq: u64, subject: String, headers: Option<&HeaderMap>, payload: Vec<u8>) -> Stored {
        let mut stored = Stored {
            seq,
            subject,
            payload,
            batch: None,
            commit: None,
            base: None,
            taken: false,
            aborted_by: None,
        };
        for (name, values) in headers.into_iter().flat_map(HeaderMap::iter) {
            let Some(value) = values.first() else {
                continue;
            };
            let value = value.as_str();
            match AsRef::<str>::as_ref(name) {
                BATCH => match value
                    .split_once(' ')
                    .and_then(|(base, group)| Some((base.parse::<u64>().ok()?, group)))
                {
                    Some((base, group)) => {
                        stored.base = Some(base);
                        stored.batch = Some(group.to_string());
                    }
                    None => stored.batch = Some(value.to_string()),
                },
                COMMIT => stored.commit = Some(value.to_string()),
                TAKEN => stored.taken = true,
                ABORT => stored.aborted_by = Some(value.to_string()),
                _ => {}
            }
        }
        stored
    }

    /// A message as a get of the stream answered it.
    fn from_got(message: jetstream::message::StreamMessage) -> Stored {
        Stored::new(
            message.sequence,
            message.subject.to_string(),
            Some(&message.headers),
            message.payload.to_vec(),
        )
    }

    /// The group this message is a part of, when its node's chain decides whether it is
    /// seen.
    fn part(&self) -> Option<Part<'_>> {
        match (&self.batch, self.base, &self.commit) {
            (Some(group), Some(base), None) => {
                let (node, _) = group.rsplit_once('~')?;
                Some(Part { group, node, base })
            }
            _ => None,
        }
    }

    /// A part of a group written before groups had chains (one writer a stream), not its
    /// last record: seen, as it was then (a group cut short was deleted at opening).
    fn is_unchained_part(&self) -> bool {
        self.batch.is_some() && self.base.is_none() && self.commit.is_none()
    }
}

/// A group's fate, as its node's chain has it now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// The first message on the chain after the group's base commits it: whole.
    Committed,
    /// The chain moved past its base without committing it: never whole.
    Dead,
    /// Nothing on the chain after its base yet: in flight, or its writer gone.
    Open,
}

/// What a reader makes of one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    /// A record every reader sees: stored alone, or a part of a committed group.
    Record,
    /// A takeover's marker: the chat's end moves, no record.
    Marker,
    /// A part of a group that will never be whole.
    Hidden,
    /// A part of a group not decided yet: not seen, and a reader that pages in stream order
    /// stops before it.
    Open,
}

fn seen(stored: &Stored, fates: &HashMap<String, Fate>) -> Seen {
    if stored.taken {
        return Seen::Marker;
    }
    match stored.part() {
        None => Seen::Record,
        Some(part) => match fates.get(part.group) {
            Some(Fate::Committed) => Seen::Record,
            Some(Fate::Dead) => Seen::Hidden,
            _ => Seen::Open,
        },
    }
}

/// The subject of `node`'s chain in the stream `stream`: its groups' commits and aborts.
fn chain_subject(stream: &str, node: &str) -> String {
    format!("{stream}.node.{}", token(node))
}

/// One message to publish.
struct Outgoing {
    subject: String,
    payload: Vec<u8>,
    headers: HeaderMap,
}

impl Outgoing {
    /// A message of the chain: no payload, its headers.
    fn decision(subject: &str, id: &str, expected: u64) -> Outgoing {
        let mut headers = HeaderMap::new();
        headers.insert(async_nats::header::NATS_MESSAGE_ID, id);
        headers.insert(
            async_nats::header::NATS_EXPECTED_LAST_SUBJECT_SEQUENCE,
            expected.to_string().as_str(),
        );
        Outgoing {
            subject: subject.to_string(),
            payload: Vec::new(),
            headers,
        }
    }

    /// The abort of whatever group of the chain's node waits on `expected`, by `node`.
    fn abort(subject: &str, id: &str, node: &str, expected: u64) -> Outgoing {
        let mut abort = Outgoing::decision(subject, id, expected);
        abort.headers.insert(ABORT, node);
        abort
    }
}

/// What writing a group came to.
enum Group {
    /// Every part stored, and its commit: the parts' sequence numbers, the commit's.
    Whole { seqs: Vec<u64>, commit: u64 },
    /// A part refused by its fence (the item's index); the group aborted on the chain (the
    /// abort's sequence, `None` when the chain had moved already).
    Refused { at: usize, chain: Option<u64> },
    /// Every part stored, the commit refused: another node aborted the group.
    Aborted { seqs: Vec<u64> },
}

/// Why a fenced write was refused: the chat, the end its writer knew, and whether it is
/// worth looking past the fence for parts that will never be whole.
struct Refusal {
    chat: String,
    expected: u64,
    look: bool,
}

impl JetStreamLog {
    /// Connects to the server as a node of its own, made now (one writer a stream): the
    /// streams made when they aren't there, a group cut short at the stream's end cut.
    pub fn open(settings: &Settings) -> Result<JetStreamLog, LogError> {
        Self::open_as(settings, None)
    }

    /// Whether a node id can be one: 1 to 256 bytes, no control characters (it is written in
    /// headers, and as a token in its chain's subject).
    pub fn is_node_id(node: &str) -> bool {
        !node.is_empty() && node.len() <= 256 && !node.chars().any(char::is_control)
    }

    /// Connects to the server as `node` (`None`: a node of its own, made now, as
    /// [`JetStreamLog::open`]). A node given by id may share the stream with others: opening
    /// aborts only its own groups left open (by an earlier process of the node), and reads
    /// see every node's appends as they are stored, each group once it is whole
    /// (`docs/cluster.md`). Without an id the log is the stream's one writer: opening also
    /// cuts a group left open at the stream's end, whoever wrote it.
    pub fn open_as(settings: &Settings, node: Option<&str>) -> Result<JetStreamLog, LogError> {
        Self::open_with(settings, node, false)
    }

    /// Connects to read the stream only, as `warden replay --check` does: the streams must be
    /// there (nothing is made), nothing is written (no chain, no cut, no abort: a live
    /// node's group in flight is left alone), and every write is refused.
    pub fn open_to_read(settings: &Settings) -> Result<JetStreamLog, LogError> {
        Self::open_with(settings, None, true)
    }

    fn open_with(
        settings: &Settings,
        node: Option<&str>,
        read_only: bool,
    ) -> Result<JetStreamLog, LogError> {
        let shown = format!("{}, stream `{}`", settings.url, settings.stream);
        if !Settings::is_stream_name(&settings.stream) {
            return Err(LogError::Open {
                path: shown,
                cause: "a stream's name is letters, digits, `-` and `_`".to_string(),
            });
        }
        if let Some(node) = node
            && !Self::is_node_id(node)
        {
            return Err(LogError::Open {
                path: shown,
                cause: format!(
                    "the node id `{}` is not one: 1 to 256 bytes, no control characters",
                    LogError::shortened(node)
                ),
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
        let now = format!(
            "{:x}-{:x}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        );
        let (node, named, writer, session) = match node {
            Some(node) => (
                node.to_string(),
                true,
                format!("{node}~{now}"),
                format!("{node}~{now}"),
            ),
            None => (now.clone(), false, now.clone(), format!("{now}~")),
        };
        let log = JetStreamLog {
            runtime: Some(runtime),
            settings: settings.clone(),
            shown,
            conn: RwLock::new(None),
            partial: Mutex::new(BTreeSet::new()),
            node,
            named,
            writer,
            session,
            chain: Mutex::new(None),
            fates: Arc::new(Mutex::new(HashMap::new())),
            published: AtomicU64::new(0),
            groups: AtomicU64::new(0),
            read_only,
        };
        log.connect().map_err(|e| match e {
            LogError::Store { path, cause } => LogError::Open { path, cause },
            e => e,
        })?;
        Ok(log)
    }

    /// The node this log writes as.
    pub fn node(&self) -> &str {
        &self.node
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

    fn read_only_error(&self) -> LogError {
        store(&self.shown, "the log was opened to read only")
    }

    /// A chat's snapshot as the stream holds it (its bytes, versioned), for the check.
    pub(crate) fn snapshot_bytes(&self, chat: &str) -> Result<Option<Vec<u8>>, LogError> {
        let subject = self.snapshot_subject(chat)?;
        let conn = self.conn()?;
        let shown = self.shown.clone();
        self.run(async move {
            match conn.snapshots.direct_get_last_for_subject(&subject).await {
                Ok(message) => Ok(Some(message.payload.to_vec())),
                Err(e) if e.kind() == stream::DirectGetErrorKind::NotFound => Ok(None),
                Err(e) => Err(store(&shown, format!("reading a snapshot: {e}"))),
            }
        })
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
    /// everything sent on it: a part of a group still on its way lands before the next
    /// opening aborts the group, not after it. (One that lands later is a part of a group
    /// whose chain has moved past it: dead for every reader.)
    fn let_go(&self) {
        let old = self
            .conn
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        // A client not connected now (its server killed, another being dialled) can't have
        // the server read anything before it connects again: nothing to wait for, and what it
        // sends after that is a part of a dead group, as above.
        if let Some(old) = old
            && old.js.client().connection_state() == async_nats::connection::State::Connected
        {
            let _ = self.run(async move {
                let _ = tokio::time::timeout(STEP_TIMEOUT, old.js.client().flush()).await;
                Ok(())
            });
        }
    }

    /// A message id of this log's, never used before.
    fn next_id(&self) -> String {
        format!(
            "{}-{}",
            self.writer,
            self.published.fetch_add(1, Ordering::SeqCst)
        )
    }

    /// Connects, makes the streams, cuts a group left open at the end (no node id given),
    /// and aborts whatever this node left open: the chain's newest message becomes this
    /// log's own.
    fn connect(&self) -> Result<(), LogError> {
        let settings = self.settings.clone();
        let shown = self.shown.clone();
        let (node, named, read_only) = (self.node.clone(), self.named, self.read_only);
        let fates = Arc::clone(&self.fates);
        let ids: Vec<String> = (0..2 * MOVE_TRIES + 64).map(|_| self.next_id()).collect();
        let (conn, chain) = self.run(async move {
            let mut ids = ids.into_iter();
            let client = step(
                &shown,
                "connecting",
                async_nats::ConnectOptions::new()
                    .connection_timeout(STEP_TIMEOUT)
                    .name("warden")
                    .connect(settings.servers().map_err(|e| store(&shown, e))?),
            )
            .await?;
            let mut js = jetstream::new(client);
            js.set_timeout(STEP_TIMEOUT);
            let name = &settings.stream;
            let chains = format!("{name}.node.>");
            let events = stream::Config {
                name: name.clone(),
                subjects: vec![format!("{name}.chat.>"), chains.clone()],
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
            if read_only {
                let events = asked(&shown, "opening the stream", || js.get_stream(name)).await?;
                let snapshots = asked(&shown, "opening the snapshots' stream", || {
                    js.get_stream(format!("{name}-snapshots"))
                })
                .await?;
                let conn = Conn {
                    js,
                    events,
                    snapshots,
                };
                return Ok((conn, None));
            }
            let mut events = asked(&shown, "opening the stream", || {
                js.get_or_create_stream(events.clone())
            })
            .await?;
            // A stream made before groups had chains: their subjects added.
            let config = events.cached_info().config.clone();
            if !config.subjects.contains(&chains) {
                let mut config = config;
                config.subjects.push(chains);
                asked(&shown, "adding the chains' subjects to the stream", || {
                    js.update_stream(config.clone())
                })
                .await?;
                events = asked(&shown, "opening the stream", || js.get_stream(name)).await?;
            }
            let snapshots = asked(&shown, "opening the snapshots' stream", || {
                js.get_or_create_stream(snapshots.clone())
            })
            .await?;
            let last = asked(&shown, "reading the stream's state", || events.get_info())
                .await?
                .state
                .last_sequence;
            let conn = Conn {
                js,
                events,
                snapshots,
            };
            if !named {
                cut_tail(&shown, &conn, name, &fates, &node, last, &mut ids).await?;
            }
            let own = chain_subject(name, &node);
            let mut chain = None;
            for id in ids.by_ref().take(MOVE_TRIES) {
                let end = chain_end(&shown, &conn.events, &own).await?;
                let abort = Outgoing::abort(&own, &id, &node, end);
                if let Some(seq) = publish_all(&shown, &conn.js, vec![abort]).await?[0] {
                    chain = Some(seq);
                    break;
                }
            }
            let Some(chain) = chain else {
                return Err(store(
                    &shown,
                    format!(
                        "the chain of node `{node}` moved {MOVE_TRIES} times while it opened: another process writes as the same node"
                    ),
                ));
            };
            Ok((conn, Some(chain)))
        })?;
        *self.chain.lock().unwrap_or_else(PoisonError::into_inner) = chain;
        *self.conn.write().unwrap_or_else(PoisonError::into_inner) = Some(conn);
        Ok(())
    }

    /// Drops the client and connects again, as a restart would: this node's group left open
    /// is aborted (and cut, with no node id given), and reads see the stream as the server
    /// holds it.
    pub fn reopen(&self) -> Result<(), LogError> {
        self.let_go();
        self.connect()
    }

    /// Whether the server answers for the stream now.
    pub fn probe(&self) -> Result<(), LogError> {
        let conn = self.conn()?;
        let shown = self.shown.clone();
        self.run(async move {
            asked(&shown, "asking for the stream's state", || {
                conn.events.get_info()
            })
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
    /// acknowledged when this returns. A failure of the server closes the log until
    /// [`JetStreamLog::reopen`], which aborts what the group left; a group another node
    /// aborted (it took one of the group's chats over) is [`LogError::Fenced`], the log left
    /// open.
    pub fn append_batch<R: std::borrow::Borrow<Record>>(
        &self,
        items: &[(&str, R)],
    ) -> Result<Vec<u64>, LogError> {
        self.write(items, &[])
    }

    /// [`JetStreamLog::append_batch`], each chat of `fences` fenced at the end its writer
    /// knows (the sequence of its newest record or marker, 0 for a chat with none): the
    /// server refuses the group's first record on a chat whose subject holds a newer message,
    /// and the group is then never whole, for any reader. The refusal is
    /// [`LogError::Fenced`], naming the chat; the log stays open. A chat of the group with no
    /// fence (the preferences, which every node writes) is appended to as it is. What stands
    /// past a fence and will never be seen (parts of groups aborted in a takeover) does not
    /// refuse: the group is written again fenced past them. Returns the records' sequence
    /// numbers, in order: a chat's new end is its last one.
    pub fn append_batch_fenced<R: std::borrow::Borrow<Record>>(
        &self,
        items: &[(&str, R)],
        fences: &[(&str, u64)],
    ) -> Result<Vec<u64>, LogError> {
        self.write(items, fences)
    }

    /// Appends one event to `chat` only if the chat's newest record is still the one at
    /// sequence `last` (0: the chat has none), as the chat's writer knows it: the server checks
    /// (`Nats-Expected-Last-Subject-Sequence`) and refuses the append, storing nothing, when
    /// another writer appended to the chat since. That refusal is [`LogError::Fenced`], and it
    /// leaves the log open (nothing was cut); any other failure closes it as
    /// [`JetStreamLog::append_batch`]'s does. A publish sent again after a lost acknowledgement
    /// keeps its message id, and the server answers a duplicate before it checks the fence.
    pub fn append_after(&self, chat: &str, record: &Record, last: u64) -> Result<u64, LogError> {
        let seqs = self.write(&[(chat, record)], &[(chat, last)])?;
        seqs.first()
            .copied()
            .ok_or_else(|| store(&self.shown, "the server acknowledged nothing"))
    }

    /// Writes `items`, fenced as `fences` say, again while only parts that will never be
    /// seen stand past a fence.
    fn write<R: std::borrow::Borrow<Record>>(
        &self,
        items: &[(&str, R)],
        fences: &[(&str, u64)],
    ) -> Result<Vec<u64>, LogError> {
        if self.read_only {
            return Err(self.read_only_error());
        }
        let mut encoded = Vec::with_capacity(items.len());
        for (chat, record) in items {
            let value = codec::write_record(record.borrow()).map_err(|e| LogError::Encode {
                chat: chat.to_string(),
                cause: e.to_string(),
            })?;
            encoded.push((chat.to_string(), self.subject(chat)?, value));
        }
        if encoded.is_empty() {
            return Ok(Vec::new());
        }
        let mut fences: Vec<(String, u64)> = fences
            .iter()
            .map(|(chat, end)| (chat.to_string(), *end))
            .collect();
        let mut tries = 0;
        loop {
            tries += 1;
            let refusal = match self.write_once(&encoded, &fences)? {
                Ok(seqs) => return Ok(seqs),
                Err(refusal) => refusal,
            };
            if refusal.look
                && tries < FENCE_TRIES
                && let Some(end) = self.only_dead_past(&refusal.chat, refusal.expected)?
            {
                for (chat, fence) in &mut fences {
                    if *chat == refusal.chat {
                        *fence = end;
                    }
                }
                continue;
            }
            return Err(LogError::Fenced {
                chat: LogError::shortened(&refusal.chat),
                expected: refusal.expected,
            });
        }
    }

    /// One try of [`JetStreamLog::write`]: the records' sequence numbers, or why a fence
    /// refused them. A record alone is one message; a group is its parts, pipelined, then
    /// its commit on this node's chain, fenced at the group's base.
    fn write_once(
        &self,
        encoded: &[(String, String, Vec<u8>)],
        fences: &[(String, u64)],
    ) -> Result<Result<Vec<u64>, Refusal>, LogError> {
        let conn = self.conn()?;
        let fence_of = |chat: &str| {
            fences
                .iter()
                .find(|(fenced, _)| fenced == chat)
                .map(|(_, end)| *end)
        };
        let refusal = |at: usize, look: bool| {
            let chat = &encoded[at].0;
            Refusal {
                chat: chat.clone(),
                expected: fence_of(chat).unwrap_or(0),
                look,
            }
        };
        let mut fenced = BTreeSet::new();
        let mut messages = Vec::with_capacity(encoded.len());
        for (chat, subject, value) in encoded {
            let mut headers = HeaderMap::new();
            headers.insert(async_nats::header::NATS_MESSAGE_ID, self.next_id().as_str());
            // The first record on each fenced chat carries the fence; the next ones can't know
            // the sequence before them until it is acknowledged, and need not: once the first
            // is stored, a taker's marker after it aborts the group.
            if let Some(end) = fence_of(chat)
                && fenced.insert(chat.as_str())
            {
                headers.insert(
                    async_nats::header::NATS_EXPECTED_LAST_SUBJECT_SEQUENCE,
                    end.to_string().as_str(),
                );
            }
            messages.push(Outgoing {
                subject: subject.clone(),
                payload: value.clone(),
                headers,
            });
        }
        let shown = self.shown.clone();
        if messages.len() == 1 {
            let js = conn.js.clone();
            return match self.run(async move { publish_all(&shown, &js, messages).await }) {
                Ok(seqs) => Ok(match seqs.first().copied().flatten() {
                    Some(seq) => Ok(vec![seq]),
                    None => Err(refusal(0, true)),
                }),
                Err(e) => Err(self.close_after(e)),
            };
        }
        // INVARIANT: this log's groups are written one at a time, each on its chain's newest
        // message, so a group's commit or abort is the first message after its base.
        let mut chain = self.chain.lock().unwrap_or_else(PoisonError::into_inner);
        let own = chain_subject(&self.settings.stream, &self.node);
        let base = match *chain {
            Some(base) => base,
            None => {
                let (events, own, shown) = (conn.events.clone(), own.clone(), shown.clone());
                match self.run(async move { chain_end(&shown, &events, &own).await }) {
                    Ok(base) => base,
                    Err(e) => return Err(self.close_after(e)),
                }
            }
        };
        let group = format!(
            "{}-g{}",
            self.session,
            self.groups.fetch_add(1, Ordering::SeqCst)
        );
        let batch = format!("{base} {group}");
        for message in &mut messages {
            message.headers.insert(BATCH, batch.as_str());
        }
        let mut commit = Outgoing::decision(&own, &self.next_id(), base);
        commit.headers.insert(COMMIT, group.as_str());
        let abort = Outgoing::abort(&own, &self.next_id(), &self.node, base);
        let written = self.run(async move {
            let seqs = publish_all(&shown, &conn.js, messages).await?;
            if let Some(at) = seqs.iter().position(Option::is_none) {
                // Never to be whole: its chain moves past its base, so the parts stored are
                // dead for every reader at once.
                let moved = publish_all(&shown, &conn.js, vec![abort]).await?;
                return Ok(Group::Refused {
                    at,
                    chain: moved.first().copied().flatten(),
                });
            }
            let seqs: Vec<u64> = seqs.into_iter().flatten().collect();
            Ok(
                match publish_all(&shown, &conn.js, vec![commit])
                    .await?
                    .first()
                    .copied()
                    .flatten()
                {
                    Some(commit) => Group::Whole { seqs, commit },
                    None => Group::Aborted { seqs },
                },
            )
        });
        let remember = |committed: bool| {
            let mut fates = self.fates.lock().unwrap_or_else(PoisonError::into_inner);
            if fates.len() >= FATES_KEPT {
                fates.clear();
            }
            fates.insert(group.clone(), committed);
        };
        match written {
            Ok(Group::Whole { seqs, commit }) => {
                *chain = Some(commit);
                remember(true);
                Ok(Ok(seqs))
            }
            Ok(Group::Refused { at, chain: moved }) => {
                *chain = moved;
                remember(false);
                Ok(Err(refusal(at, true)))
            }
            Ok(Group::Aborted { seqs }) => {
                *chain = None;
                remember(false);
                drop(chain);
                // The chat another node took: one whose subject moved past this group's parts.
                let mut newest: Vec<(&str, u64)> = Vec::new();
                for ((chat, _, _), seq) in encoded.iter().zip(&seqs) {
                    match newest.iter_mut().find(|(c, _)| c == chat) {
                        Some((_, last)) => *last = (*last).max(*seq),
                        None => newest.push((chat.as_str(), *seq)),
                    }
                }
                for (at, (chat, last)) in newest.iter().enumerate() {
                    if self.end_of(chat)? > *last {
                        let at = encoded.iter().position(|(c, _, _)| c == chat).unwrap_or(at);
                        return Ok(Err(refusal(at, false)));
                    }
                }
                Ok(Err(refusal(0, false)))
            }
            Err(e) => {
                *chain = None;
                Err(self.close_after(e))
            }
        }
    }

    /// The chat's end past `expected` when everything there is a part of a group that will
    /// never be whole, else `None`.
    fn only_dead_past(&self, chat: &str, expected: u64) -> Result<Option<u64>, LogError> {
        let subject = self.subject(chat)?;
        let conn = self.conn()?;
        let (shown, stream) = (self.shown.clone(), self.settings.stream.clone());
        let known = Arc::clone(&self.fates);
        self.run(async move {
            let stored = read(
                &shown,
                &conn.events,
                &subject,
                expected.saturating_add(1),
                u64::MAX,
                usize::MAX,
            )
            .await?;
            let fates = fates_of(&shown, &conn.events, &stream, &known, &stored).await?;
            let dead = !stored.is_empty() && stored.iter().all(|s| seen(s, &fates) == Seen::Hidden);
            Ok(dead.then(|| stored.last().map_or(expected, |s| s.seq)))
        })
    }

    /// Takes `chat` over from whichever node wrote it (after the chat's lease, `cluster`):
    /// appends a marker to it fenced at its end as the server has it, so that every write
    /// fenced at an older end (the old writer's, late) is refused from then on; then aborts,
    /// on its node's chain, every group with a part in the chat before the marker that is
    /// not whole yet, so that none of them becomes whole later, behind this node's writes.
    /// Answers the chat brought back, its `last_seq` the marker's (or later): the end this
    /// node's first fenced append carries. [`LogError::Fenced`] when the chat moved under the
    /// marker [`MOVE_TRIES`] times (another node writes it).
    pub fn take_over(&self, chat: &str) -> Result<Replayed, LogError> {
        if self.read_only {
            return Err(self.read_only_error());
        }
        let subject = self.subject(chat)?;
        let mut marker = None;
        let mut end = 0;
        for _ in 0..MOVE_TRIES {
            end = self.end_of(chat)?;
            let conn = self.conn()?;
            let mut headers = HeaderMap::new();
            headers.insert(async_nats::header::NATS_MESSAGE_ID, self.next_id().as_str());
            headers.insert(TAKEN, self.node.as_str());
            headers.insert(
                async_nats::header::NATS_EXPECTED_LAST_SUBJECT_SEQUENCE,
                end.to_string().as_str(),
            );
            let message = Outgoing {
                subject: subject.clone(),
                payload: Vec::new(),
                headers,
            };
            let shown = self.shown.clone();
            match self.run(async move { publish_all(&shown, &conn.js, vec![message]).await }) {
                Ok(seqs) => {
                    if let Some(seq) = seqs.first().copied().flatten() {
                        marker = Some(seq);
                        break;
                    }
                }
                Err(e) => return Err(self.close_after(e)),
            }
        }
        let Some(marker) = marker else {
            return Err(LogError::Fenced {
                chat: LogError::shortened(chat),
                expected: end,
            });
        };
        let snapshot_subject = self.snapshot_subject(chat)?;
        let conn = self.conn()?;
        let (shown, stream) = (self.shown.clone(), self.settings.stream.clone());
        let known = Arc::clone(&self.fates);
        let ids: Vec<String> = (0..LOOKUPS).map(|_| self.next_id()).collect();
        let node = self.node.clone();
        self.run(async move {
            // A part before the chat's snapshot is decided: the snapshot was taken after it.
            let from = match snapshot_of(&shown, &conn, &snapshot_subject).await? {
                Some((seq, _)) => seq.saturating_add(1),
                None => 1,
            };
            let mut ids = ids.into_iter();
            // Twice at most: an abort refused means the chain moved past the base, the group
            // decided meanwhile. (A part whose base is past its chain's end, which no log
            // writes, stays open: never seen.)
            for _ in 0..MOVE_TRIES {
                let stored = read(&shown, &conn.events, &subject, from, marker, usize::MAX).await?;
                let fates = fates_of(&shown, &conn.events, &stream, &known, &stored).await?;
                let open: BTreeSet<&str> = stored
                    .iter()
                    .filter_map(Stored::part)
                    .filter(|part| fates.get(part.group) == Some(&Fate::Open))
                    .map(|part| part.group)
                    .collect();
                if open.is_empty() {
                    return Ok(());
                }
                let bases: BTreeSet<(String, u64)> = stored
                    .iter()
                    .filter_map(Stored::part)
                    .filter(|part| open.contains(part.group))
                    .map(|part| (chain_subject(&stream, part.node), part.base))
                    .collect();
                for (chain, base) in bases {
                    let Some(id) = ids.next() else {
                        return Err(store(&shown, "too many groups open in one chat"));
                    };
                    // Refused: the chain moved past the base, the group decided meanwhile.
                    publish_all(
                        &shown,
                        &conn.js,
                        vec![Outgoing::abort(&chain, &id, &node, base)],
                    )
                    .await?;
                }
            }
            Ok(())
        })?;
        self.chat(chat)
    }

    /// The sequence of `chat`'s newest message as the server holds it now (0: none): any
    /// node's record, marker or part, whether it is seen or not. What a node fences a first
    /// write with when it has not read the chat (a chat new to the log: 0).
    pub fn end_of(&self, chat: &str) -> Result<u64, LogError> {
        let subject = self.subject(chat)?;
        let conn = self.conn()?;
        let shown = self.shown.clone();
        self.run(async move {
            match leader_last(&shown, &conn.events, &subject).await? {
                Some(last) => Ok(last.seq),
                // None, or (nats-server 2.9) its last message deleted: walked instead.
                None => Ok(
                    read(&shown, &conn.events, &subject, 1, u64::MAX, usize::MAX)
                        .await?
                        .last()
                        .map_or(0, |stored| stored.seq),
                ),
            }
        })
    }

    /// The first record of `chat` a reader sees (a chat's or a task's opening), `None` when it
    /// has none seen yet (nothing, or only the parts of a group not whole). One walk of the
    /// subject from its start, a page at a time, each group's parts once the group is whole.
    pub fn first(&self, chat: &str) -> Result<Option<Entry>, LogError> {
        const PAGE: usize = 16;
        let subject = self.subject(chat)?;
        let conn = self.conn()?;
        let (shown, stream) = (self.shown.clone(), self.settings.stream.clone());
        let known = Arc::clone(&self.fates);
        self.run(async move {
            let mut from = 1;
            loop {
                let stored = read(&shown, &conn.events, &subject, from, u64::MAX, PAGE).await?;
                let Some(last) = stored.last().map(|stored| stored.seq) else {
                    return Ok(None);
                };
                let fates = fates_of(&shown, &conn.events, &stream, &known, &stored).await?;
                for stored in stored {
                    match seen(&stored, &fates) {
                        Seen::Record => {
                            return Ok(Some(Entry {
                                seq: stored.seq,
                                record: codec::read_record(&stored.payload),
                            }));
                        }
                        Seen::Open => return Ok(None),
                        Seen::Marker | Seen::Hidden => {}
                    }
                }
                from = last.saturating_add(1);
            }
        })
    }

    /// Aborts, on the chain of every node not in `live` (this one aside), whatever group it
    /// left open: an abort fenced at the chain's newest message, so that a group waiting on
    /// it can never commit and every reader sees it dead, the event feed (`after`) going on
    /// past it. Of such an abort and the node's own commit exactly one is stored (both are
    /// fenced at the same base), so a node that was only slow hears its group refused, and
    /// no group ever changes its fate. A chain whose newest message is another node's abort
    /// already is left as it is. Answers the nodes whose chains were aborted.
    pub fn abort_departed(&self, live: &[&str]) -> Result<Vec<String>, LogError> {
        if self.read_only {
            return Err(self.read_only_error());
        }
        let conn = self.conn()?;
        let (shown, stream) = (self.shown.clone(), self.settings.stream.clone());
        let own = self.node.clone();
        let live: BTreeSet<String> = live.iter().map(|node| node.to_string()).collect();
        let (events, js) = (conn.events.clone(), conn.js.clone());
        let ends = self.run(async move {
            let prefix = format!("{stream}.node.");
            let mut info = step(
                &shown,
                "listing the chains",
                events.info_with_subjects(format!("{prefix}>")),
            )
            .await?;
            let mut chains = Vec::new();
            while let Some(next) = step(&shown, "listing the chains", async {
                Ok::<_, String>(info.next().await)
            })
            .await?
            {
                let (subject, _count) = next.map_err(|e| store(&shown, e))?;
                let Some(node) = subject.strip_prefix(&prefix).and_then(id_of) else {
                    continue;
                };
                if node != own && !live.contains(&node) {
                    chains.push((node, subject));
                }
            }
            let mut ends = Vec::new();
            for (node, chain) in chains {
                let Some(last) = leader_last(&shown, &events, &chain).await? else {
                    continue;
                };
                if last.aborted_by.as_ref().is_some_and(|by| *by != node) {
                    continue;
                }
                ends.push((node, chain, last.seq));
            }
            Ok(ends)
        })?;
        let aborts: Vec<(String, Outgoing)> = ends
            .into_iter()
            .map(|(node, chain, end)| {
                let abort = Outgoing::abort(&chain, &self.next_id(), &self.node, end);
                (node, abort)
            })
            .collect();
        if aborts.is_empty() {
            return Ok(Vec::new());
        }
        let shown = self.shown.clone();
        self.run(async move {
            let mut aborted = Vec::new();
            for (node, abort) in aborts {
                // Refused: the chain moved (the node wrote after all, or another node aborted
                // it first); either way its group waiting on that end is decided.
                if publish_all(&shown, &js, vec![abort]).await?[0].is_some() {
                    aborted.push(node);
                }
            }
            Ok(aborted)
        })
    }

    /// Nothing to do: every append was acknowledged before it returned. Fails while closed.
    pub fn flush(&self) -> Result<(), LogError> {
        self.conn().map(drop)
    }

    /// The messages of `subject` from `from` on, each with what a reader makes of it.
    fn seen_in(&self, subject: String, from: u64) -> Result<Vec<(Stored, Seen)>, LogError> {
        let conn = self.conn()?;
        let (shown, stream) = (self.shown.clone(), self.settings.stream.clone());
        let known = Arc::clone(&self.fates);
        self.run(async move {
            let stored = read(&shown, &conn.events, &subject, from, u64::MAX, usize::MAX).await?;
            let fates = fates_of(&shown, &conn.events, &stream, &known, &stored).await?;
            Ok(stored
                .into_iter()
                .map(|stored| {
                    let seen = seen(&stored, &fates);
                    (stored, seen)
                })
                .collect())
        })
    }

    /// A chat brought back: its snapshot, then its records after it by its subject, each
    /// group's part once the group is whole. `last_seq` counts a takeover's marker too: it is
    /// the end the chat's next fenced append carries.
    pub fn chat(&self, chat: &str) -> Result<Replayed, LogError> {
        let subject = self.subject(chat)?;
        let snapshot_subject = self.snapshot_subject(chat)?;
        let conn = self.conn()?;
        let shown = self.shown.clone();
        let mut replayed = Replayed::default();
        let mut from = 1;
        if let Some((seq, state)) =
            self.run(async move { snapshot_of(&shown, &conn, &snapshot_subject).await })?
        {
            replayed.state = state;
            replayed.last_seq = seq;
            replayed.snapshot = Some(seq);
            from = seq.saturating_add(1);
        }
        for (stored, seen) in self.seen_in(subject, from)? {
            match seen {
                Seen::Record => replayed.take(stored.seq, codec::read_record(&stored.payload)),
                Seen::Marker => replayed.last_seq = replayed.last_seq.max(stored.seq),
                Seen::Hidden | Seen::Open => {}
            }
        }
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
        if self.read_only {
            return Err(self.read_only_error());
        }
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

    /// The records of every stream after `after`, oldest first, at most `limit`: walks of
    /// the stream from `after + 1`, each group's parts once it is whole. The page stops
    /// before a part of a group not decided yet, so that no record is ever seen behind one
    /// a client has paged past: asked again from the page's last one, it goes on from there.
    pub fn after(&self, after: u64, limit: usize) -> Result<Vec<(String, Entry)>, LogError> {
        let mut page = Vec::new();
        let mut from = after.saturating_add(1);
        let chunk = limit.clamp(1, 1024);
        while page.len() < limit {
            let conn = self.conn()?;
            let (shown, stream) = (self.shown.clone(), self.settings.stream.clone());
            let known = Arc::clone(&self.fates);
            let filter = format!("{stream}.chat.>");
            let walked = self.run(async move {
                let stored = read(&shown, &conn.events, &filter, from, u64::MAX, chunk).await?;
                let fates = fates_of(&shown, &conn.events, &stream, &known, &stored).await?;
                Ok(stored
                    .into_iter()
                    .map(|stored| {
                        let seen = seen(&stored, &fates);
                        (stored, seen)
                    })
                    .collect::<Vec<_>>())
            })?;
            let Some(last) = walked.last().map(|(stored, _)| stored.seq) else {
                break;
            };
            let whole = walked.len() == chunk;
            for (stored, seen) in walked {
                match seen {
                    Seen::Record => {
                        let chat = self.id_of_subject(&stored.subject).unwrap_or_default();
                        let record = codec::read_record(&stored.payload);
                        page.push((
                            chat,
                            Entry {
                                seq: stored.seq,
                                record,
                            },
                        ));
                        if page.len() == limit {
                            return Ok(page);
                        }
                    }
                    Seen::Open => return Ok(page),
                    Seen::Marker | Seen::Hidden => {}
                }
            }
            if !whole {
                break;
            }
            from = last.saturating_add(1);
        }
        Ok(page)
    }

    /// The stream's newest sequence number, every node's writes included (0 when it is
    /// empty): asked of the server.
    pub fn newest(&self) -> Result<u64, LogError> {
        let conn = self.conn()?;
        let shown = self.shown.clone();
        self.run(async move {
            Ok(asked(&shown, "reading the stream's state", || {
                conn.events.get_info()
            })
            .await?
            .state
            .last_sequence)
        })
    }

    /// Every stream with the sequence number of its newest record, in key order: one direct
    /// get of each subject's last message (and the chain's word on it, when it is a part of
    /// a group this log has not seen decided), a walk of the subject when that one is not
    /// seen.
    pub fn latest(&self) -> Result<Vec<(String, u64)>, LogError> {
        let ids = self.ids()?;
        let subjects: Vec<String> = ids
            .iter()
            .map(|id| self.subject(id))
            .collect::<Result<_, _>>()?;
        let conn = self.conn()?;
        let (shown, stream) = (self.shown.clone(), self.settings.stream.clone());
        let known = Arc::clone(&self.fates);
        let seqs = self.run(async move {
            let (shown, events, stream, known) = (&shown, &conn.events, &stream, &known);
            futures_util::stream::iter(subjects)
                .map(|subject| async move { last_of(shown, events, stream, known, &subject).await })
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

    /// Every record of one chat, oldest first, each group's parts once it is whole.
    pub fn records(&self, chat: &str) -> Result<Vec<Entry>, LogError> {
        self.records_after(chat, 0)
    }

    /// The records of one chat after sequence `after`, oldest first, each group's parts once
    /// it is whole: one walk of the chat's subject from `after + 1`. What a node reads of a
    /// chat another node writes, from the last one it knows.
    pub fn records_after(&self, chat: &str, after: u64) -> Result<Vec<Entry>, LogError> {
        let subject = self.subject(chat)?;
        Ok(self
            .seen_in(subject, after.saturating_add(1))?
            .into_iter()
            .filter(|(_, seen)| *seen == Seen::Record)
            .map(|(stored, _)| Entry {
                seq: stored.seq,
                record: codec::read_record(&stored.payload),
            })
            .collect())
    }

    /// Every chat replayed from its first event, ignoring snapshots, in one walk of the
    /// stream, in key order, each group's parts once it is whole.
    pub fn replay_all(&self) -> impl Iterator<Item = Result<(String, Replayed), LogError>> + '_ {
        let filter = format!("{}.chat.>", self.settings.stream);
        let walked = self.seen_in(filter, 1);
        let chats: Vec<Result<(String, Replayed), LogError>> = match walked {
            Err(e) => vec![Err(e)],
            Ok(walked) => {
                let mut chats: BTreeMap<(usize, Vec<u8>), Replayed> = BTreeMap::new();
                for (stored, seen) in walked {
                    if seen != Seen::Record {
                        continue;
                    }
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
            asked(&shown, "reading the stream's state", || stream.get_info())
                .await
                .map(|info| info.state)
        })
    }

    /// The messages on the chats' subjects: every record, with the markers and the parts of
    /// groups never whole (the chains' messages are not counted).
    fn held(&self) -> Result<usize, LogError> {
        let all = self.state(false)?.messages;
        let conn = self.conn()?;
        let shown = self.shown.clone();
        let filter = format!("{}.node.>", self.settings.stream);
        let chains = self.run(async move {
            let mut info = step(
                &shown,
                "listing the chains",
                conn.events.info_with_subjects(filter),
            )
            .await?;
            let mut chains = 0;
            while let Some(next) = step(&shown, "listing the chains", async {
                Ok::<_, String>(info.next().await)
            })
            .await?
            {
                let (_subject, count) = next.map_err(|e| store(&shown, e))?;
                chains += count as u64;
            }
            Ok(chains)
        })?;
        Ok(usize::try_from(all.saturating_sub(chains)).unwrap_or(usize::MAX))
    }

    /// How many messages the chats' subjects hold: every record, with takeovers' markers and
    /// parts of groups never whole. 0 while the log is closed.
    pub fn len(&self) -> usize {
        self.held().unwrap_or(0)
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
/// their sequence numbers in order, `None` for one its fence refused (nothing stored). A
/// publish whose acknowledgement did not come is sent again with the same message id, which
/// the server stores once (it answers a duplicate before it checks a fence).
async fn publish_all(
    shown: &str,
    js: &jetstream::Context,
    messages: Vec<Outgoing>,
) -> Result<Vec<Option<u64>>, LogError> {
    let send = |message: &Outgoing| {
        js.publish_with_headers(
            message.subject.clone(),
            message.headers.clone(),
            message.payload.clone().into(),
        )
    };
    let mut pending = Vec::with_capacity(messages.len());
    for message in &messages {
        pending.push(step(shown, "publishing", send(message)).await?);
    }
    let mut seqs = Vec::with_capacity(messages.len());
    let budget = tokio::time::Instant::now() + PUBLISH_BUDGET;
    for (message, ack) in messages.iter().zip(pending) {
        let mut sent = tokio::time::Instant::now();
        let mut answer = tokio::time::timeout(ACK_WAIT, ack).await;
        let mut tries = 1;
        let mut pause = REFUSED_PAUSE;
        loop {
            match answer {
                Ok(Ok(ack)) => {
                    seqs.push(Some(ack.sequence));
                    break;
                }
                Ok(Err(e))
                    if e.kind() == jetstream::context::PublishErrorKind::WrongLastSequence =>
                {
                    seqs.push(None);
                    break;
                }
                // Lost, or refused for a moment (a server restarting, a stream electing a
                // leader): the same id again, after a pause when the refusal came at once,
                // for as long as the append's budget lasts.
                _ if tokio::time::Instant::now() < budget => {
                    tries += 1;
                    if answer.is_ok() {
                        tokio::time::sleep_until((sent + pause).min(budget)).await;
                        pause = (pause * 2).min(REFUSED_PAUSE_MAX);
                    }
                    sent = tokio::time::Instant::now();
                    let resent = step(shown, "publishing again", send(message)).await?;
                    answer = tokio::time::timeout(ACK_WAIT, resent).await;
                }
                Ok(Err(e)) => {
                    return Err(store(
                        shown,
                        format!("the server's acknowledgement, after {tries} tries: {e}"),
                    ));
                }
                Err(_) => {
                    return Err(store(
                        shown,
                        format!(
                            "no acknowledgement in {tries} tries of {ACK_WAIT:?} within {PUBLISH_BUDGET:?}"
                        ),
                    ));
                }
            }
        }
    }
    Ok(seqs)
}
/// The messages of `filter` from stream sequence `from` up to `horizon` (`u64::MAX`: to the
/// end), at most `limit`, in order.
///
/// INVARIANT: a walk ends where the stream's leader says `filter` ends, never where a replica
/// does. An ordered consumer is placed on any server of the stream, one catching up after a
/// restart included, and counts what is left from that server's store; so every walk starts
/// from a message the leader answered, and once the consumer has nothing left the leader is
/// asked again for the next message: none means the walk is whole; one means the consumer's
/// server was behind, and the walk goes on from it (a consumer waits for its server to
/// have a message it starts at, at most [`STEP_TIMEOUT`], then the read fails).
async fn read(
    shown: &str,
    events: &stream::Stream,
    filter: &str,
    from: u64,
    horizon: u64,
    limit: usize,
) -> Result<Vec<Stored>, LogError> {
    let mut stored: Vec<Stored> = Vec::new();
    let mut at = from;
    while at <= horizon && stored.len() < limit {
        let Some(first) = leader_next(shown, events, filter, at).await? else {
            break;
        };
        if first.seq > horizon {
            break;
        }
        let seq = first.seq;
        stored.push(first);
        if stored.len() >= limit || seq >= horizon {
            break;
        }
        // Whether any message follows: an ordered consumer would wait for one that never
        // comes.
        let Some(next) = leader_next(shown, events, filter, seq.saturating_add(1)).await? else {
            break;
        };
        if next.seq > horizon {
            break;
        }
        let Some(last) = walk(shown, events, filter, next.seq, horizon, limit, &mut stored).await?
        else {
            break;
        };
        at = last.saturating_add(1);
    }
    Ok(stored)
}

/// The messages of `filter` from `start` (a message the leader holds) through an ordered
/// consumer, pushed onto `stored` until its server has none left, `horizon` or `limit`:
/// the sequence of the last one, `None` when the walk reached `horizon` or `limit`.
async fn walk(
    shown: &str,
    events: &stream::Stream,
    filter: &str,
    start: u64,
    horizon: u64,
    limit: usize,
    stored: &mut Vec<Stored>,
) -> Result<Option<u64>, LogError> {
    // nats-server 2.9 places a replay's consumer on any server of the stream, one that is
    // down included (it checks none): one not made within [`CONSUMER_WAIT`] leaves the walk
    // to the leader, message by message.
    let config = jetstream::consumer::pull::OrderedConfig {
        filter_subject: filter.to_string(),
        deliver_policy: jetstream::consumer::DeliverPolicy::ByStartSequence {
            start_sequence: start,
        },
        ..Default::default()
    };
    let consumer = match tokio::time::timeout(CONSUMER_WAIT, events.create_consumer(config)).await {
        Ok(Ok(consumer)) => consumer,
        // Placed on a server that is down, or the stream electing a leader: the walk goes on
        // message by message from the leader, each asked again until it answers.
        _ => {
            leader_walk(shown, events, filter, (start, horizon, limit), stored).await?;
            return Ok(None);
        }
    };
    let mut messages = step(shown, "starting a replay", consumer.messages()).await?;
    let mut last = start.saturating_sub(1);
    loop {
        let mut waited = Duration::ZERO;
        let message = loop {
            match tokio::time::timeout(STALL, messages.next()).await {
                Ok(Some(message)) => break message,
                Ok(None) => return Ok(Some(last)),
                // The count of what is left is the consumer's server's, and nats-server 2.9
                // sometimes counts one more than comes: the leader says whether one does.
                Err(_) => {
                    waited += STALL;
                    match leader_next(shown, events, filter, last.saturating_add(1)).await? {
                        Some(next) if next.seq <= horizon && waited < CONSUMER_WAIT => {}
                        // The consumer's server has stopped delivering (killed, or cut off):
                        // the rest from the leader.
                        Some(next) if next.seq <= horizon => {
                            let from = last.saturating_add(1);
                            leader_walk(shown, events, filter, (from, horizon, limit), stored)
                                .await?;
                            return Ok(None);
                        }
                        _ => return Ok(Some(last)),
                    }
                }
            }
        };
        let message = message.map_err(|e| store(shown, format!("replaying: {e}")))?;
        let info = message
            .info()
            .map_err(|e| store(shown, format!("replaying: {e}")))?;
        let (seq, left) = (info.stream_sequence, info.pending);
        // INVARIANT: a walk's sequences only grow. An ordered consumer made again under the
        // client after its server restarted delivers from before where it was asked to
        // start (seen: from the subject's first message, start 1044, every one again up
        // to there): each message is taken once, in order, or a replay would apply records
        // twice.
        if seq <= last {
            continue;
        }
        if seq > horizon {
            return Ok(None);
        }
        stored.push(Stored::new(
            seq,
            message.subject.to_string(),
            message.headers.as_ref(),
            message.payload.to_vec(),
        ));
        last = seq;
        if seq == horizon || stored.len() >= limit {
            return Ok(None);
        }
        if left == 0 {
            return Ok(Some(last));
        }
    }
}

/// [`walk`] without a consumer: each message of `filter` from `start` asked of the stream's
/// leader in turn (one round trip each), up to the leader's end, `horizon` or `limit`.
async fn leader_walk(
    shown: &str,
    events: &stream::Stream,
    filter: &str,
    (start, horizon, limit): (u64, u64, usize),
    stored: &mut Vec<Stored>,
) -> Result<(), LogError> {
    let mut at = start;
    while stored.len() < limit {
        match leader_next(shown, events, filter, at).await? {
            Some(next) if next.seq <= horizon => {
                at = next.seq.saturating_add(1);
                let end = next.seq == horizon;
                stored.push(next);
                if end {
                    break;
                }
            }
            _ => break,
        }
    }
    Ok(())
}

/// The first message of `filter` at or after `from` as the stream's leader holds it (the
/// non-direct get, which only the leader answers), `None` when it has none.
async fn leader_next(
    shown: &str,
    events: &stream::Stream,
    filter: &str,
    from: u64,
) -> Result<Option<Stored>, LogError> {
    asked(
        shown,
        "reading the next message from the stream's leader",
        || async {
            match events
                .raw_message_builder()
                .sequence(from.max(1))
                .next_by_subject(filter.to_string())
                .send()
                .await
            {
                Ok(message) => Ok(Some(Stored::from_got(message))),
                Err(e) if e.kind() == stream::RawMessageErrorKind::NoMessageFound => Ok(None),
                Err(e) => Err(e),
            }
        },
    )
    .await
}

/// The last message of `subject` as the stream's leader holds it, `None` when it has none
/// (or, nats-server 2.9, when the subject's last message was deleted).
async fn leader_last(
    shown: &str,
    events: &stream::Stream,
    subject: &str,
) -> Result<Option<Stored>, LogError> {
    asked(
        shown,
        "reading a subject's last message from the stream's leader",
        || async {
            match events.get_last_raw_message_by_subject(subject).await {
                Ok(message) => Ok(Some(Stored::from_got(message))),
                Err(e) if e.kind() == stream::LastRawMessageErrorKind::NoMessageFound => Ok(None),
                Err(e) => Err(e),
            }
        },
    )
    .await
}

/// The message at `seq` as the stream's leader holds it, `None` when it has none.
async fn leader_at(
    shown: &str,
    events: &stream::Stream,
    seq: u64,
) -> Result<Option<Stored>, LogError> {
    asked(
        shown,
        "reading a message from the stream's leader",
        || async {
            match events.get_raw_message(seq).await {
                Ok(message) => Ok(Some(Stored::from_got(message))),
                Err(e) if e.kind() == stream::RawMessageErrorKind::NoMessageFound => Ok(None),
                Err(e) => Err(e),
            }
        },
    )
    .await
}

/// The sequence number of a subject's newest record seen (0 when it has none): one direct
/// get of its last message, and a walk of the subject when that one is no record seen.
async fn last_of(
    shown: &str,
    events: &stream::Stream,
    stream: &str,
    known: &Fates,
    subject: &str,
) -> Result<u64, LogError> {
    match leader_last(shown, events, subject).await? {
        Some(last) => {
            let fates = fates_of(shown, events, stream, known, std::slice::from_ref(&last)).await?;
            if seen(&last, &fates) == Seen::Record {
                return Ok(last.seq);
            }
            walked_last(shown, events, stream, known, subject).await
        }
        // Not found where the server's count of the subject says it is (nats-server 2.9
        // after the subject's last message was deleted): the subject walked instead.
        None => walked_last(shown, events, stream, known, subject).await,
    }
}

async fn walked_last(
    shown: &str,
    events: &stream::Stream,
    stream: &str,
    known: &Fates,
    subject: &str,
) -> Result<u64, LogError> {
    let stored = read(shown, events, subject, 1, u64::MAX, usize::MAX).await?;
    let fates = fates_of(shown, events, stream, known, &stored).await?;
    Ok(stored
        .iter()
        .rev()
        .find(|stored| seen(stored, &fates) == Seen::Record)
        .map_or(0, |stored| stored.seq))
}

/// The sequence of the newest message on a chain (0: none yet).
async fn chain_end(shown: &str, events: &stream::Stream, chain: &str) -> Result<u64, LogError> {
    Ok(leader_last(shown, events, chain)
        .await?
        .map_or(0, |last| last.seq))
}

/// A group's fate: the first message on its node's chain after its base commits it, or
/// not; none yet, it is open.
async fn fate_of(
    shown: &str,
    events: &stream::Stream,
    chain: &str,
    group: &str,
    base: u64,
) -> Result<Fate, LogError> {
    Ok(
        match leader_next(shown, events, chain, base.saturating_add(1)).await? {
            Some(next) if next.commit.as_deref() == Some(group) => Fate::Committed,
            Some(_) => Fate::Dead,
            None => Fate::Open,
        },
    )
}

/// The fate of every group with a part among `stored`: from what this log knows, else from
/// the chains, [`LOOKUPS`] questions at a time. Final fates are remembered.
async fn fates_of(
    shown: &str,
    events: &stream::Stream,
    stream: &str,
    known: &Fates,
    stored: &[Stored],
) -> Result<HashMap<String, Fate>, LogError> {
    let mut fates = HashMap::new();
    let mut asked = Vec::new();
    {
        let known = known.lock().unwrap_or_else(PoisonError::into_inner);
        for part in stored.iter().filter_map(Stored::part) {
            if fates.contains_key(part.group) {
                continue;
            }
            let fate = match known.get(part.group) {
                Some(true) => Fate::Committed,
                Some(false) => Fate::Dead,
                None => {
                    asked.push((
                        part.group.to_string(),
                        chain_subject(stream, part.node),
                        part.base,
                    ));
                    Fate::Open
                }
            };
            fates.insert(part.group.to_string(), fate);
        }
    }
    if asked.is_empty() {
        return Ok(fates);
    }
    let answers = futures_util::stream::iter(asked)
        .map(|(group, chain, base)| async move {
            let fate = fate_of(shown, events, &chain, &group, base).await?;
            Ok::<_, LogError>((group, fate))
        })
        .buffered(LOOKUPS)
        .collect::<Vec<_>>()
        .await;
    let mut known = known.lock().unwrap_or_else(PoisonError::into_inner);
    if known.len() >= FATES_KEPT {
        known.clear();
    }
    for answer in answers {
        let (group, fate) = answer?;
        if fate != Fate::Open {
            known.insert(group.clone(), fate == Fate::Committed);
        }
        fates.insert(group, fate);
    }
    Ok(fates)
}

/// A chat's latest snapshot, if there is one this warden can read: the one read that stays a
/// direct get, which any replica answers. A replica behind holds an older snapshot, or none,
/// never a newer one (its store is a past state of the leader's), and a snapshot is only
/// where a replay starts: the records after it are walked to the leader's end ([`read`]),
/// so an older one costs a longer walk and the same state.
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

/// The stream's one writer opening (no node id given): deletes the parts of a group cut
/// short at the stream's end, walking back from `last` while they are parts of a group not
/// whole. A group written with a chain is aborted on it first (at its base: when its commit
/// came first, it is whole and kept); one written before chains (its parts, no last record)
/// only deleted.
async fn cut_tail(
    shown: &str,
    conn: &Conn,
    stream: &str,
    known: &Fates,
    node: &str,
    last: u64,
    ids: &mut impl Iterator<Item = String>,
) -> Result<(), LogError> {
    let mut seq = last;
    let mut unchained: Option<String> = None;
    // Each part to delete, with its group when the chain must say no first.
    let mut cut: Vec<(u64, Option<String>)> = Vec::new();
    let mut open: BTreeMap<String, (String, u64)> = BTreeMap::new();
    while seq > 0 {
        let Some(message) = leader_at(shown, &conn.events, seq).await? else {
            // Deleted before (a cut of an earlier opening), or never there.
            seq -= 1;
            continue;
        };
        if let Some(part) = message.part() {
            let fates = fates_of(
                shown,
                &conn.events,
                stream,
                known,
                std::slice::from_ref(&message),
            )
            .await?;
            match fates.get(part.group) {
                Some(Fate::Committed) => break,
                Some(Fate::Dead) => cut.push((seq, None)),
                _ => {
                    open.entry(part.group.to_string())
                        .or_insert_with(|| (chain_subject(stream, part.node), part.base));
                    cut.push((seq, Some(part.group.to_string())));
                }
            }
        } else if message.is_unchained_part() {
            if unchained.is_some() && unchained != message.batch {
                break;
            }
            unchained.clone_from(&message.batch);
            cut.push((seq, None));
        } else {
            break;
        }
        seq -= 1;
    }
    let mut kept = BTreeSet::new();
    for (group, (chain, base)) in open {
        let Some(id) = ids.next() else { break };
        let abort = Outgoing::abort(&chain, &id, node, base);
        if publish_all(shown, &conn.js, vec![abort]).await?[0].is_none()
            && fate_of(shown, &conn.events, &chain, &group, base).await? != Fate::Dead
        {
            kept.insert(group);
        }
    }
    for (seq, group) in cut {
        if group.is_some_and(|group| kept.contains(&group)) {
            continue;
        }
        step(
            shown,
            "deleting a group cut short",
            conn.events.delete_message(seq),
        )
        .await?;
    }
    Ok(())
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
