//! warden's event log: every change to a chat is a [`Record`] appended here before it is
//! acknowledged, and a chat's state comes back as a fold over its records, from its latest
//! snapshot on.
//!
//! [`EventLog`] is the boundary: one contract, two engines behind it, chosen in the
//! configuration ([`Engine`]; `[log] engine`). No engine's type appears in a public signature.
//!
//! - **sled** (`sledlog`, the default, one machine): one folder, two trees:
//!   - `events`: every record once, in the record area, key `[FF FF FF][u64 BE sequence]`, so
//!     the writer appends at the tree's end; value `[u16 BE chat id length][chat id][record
//!     version][postcard(Record)]` (see [`codec`] for what older and newer readers do with the
//!     record); a group of several records is one **bundle** under its first record's key,
//!     value `[FF FF FF]` then each record as `[u64 BE sequence][u32 BE length][its value]`
//!     (one insert a group: `key::BUNDLE`). A chat's records are found through its index runs, key
//!     `[u16 BE chat id length][chat id][u64 BE first sequence]['I']`, value the sequence
//!     numbers of the chat's records in one stretch of the log (written every
//!     `sledlog::INDEX_EVERY` records, one run a chat, in one batch with the mark
//!     `[FF FF FE]` of the newest sequence they cover; the records after the mark are indexed
//!     in memory, read back from the record area at opening). A log an older warden wrote
//!     holds each record under `[u16 BE chat id length][chat id][u64 BE sequence]`, which is
//!     still read, beside the runs.
//!   - `snapshots`: key the chat id; value `[snapshot version][u64 BE sequence][postcard(ChatState)]`,
//!     the state after every event of the chat up to that sequence.
//! - **NATS JetStream** (`jetstream`, `docs/cluster.md`): one subject per stream
//!   (`<stream>.chat.<id as one token>`), one message per record with the same value bytes,
//!   the sequence number is the JetStream stream's; snapshots in a second stream that keeps
//!   the last message of each subject.
//!
//! Every stream lives in the one log, the chats' and tasks' as well as the person's
//! preferences (`warden::preferences::STREAM`), so one [`EventLog::append_batch`] is atomic
//! whichever streams it touches: after a crash all of it is there or none of it.
//!
//! Durability (`docs/durability.md`): an event is durable once [`EventLog::flush`] (or
//! [`EventLog::append_durable`]) has returned after its append. The runtime appends a group,
//! flushes once, then acknowledges the group. (On JetStream every append is acknowledged by
//! the server before it returns; the flush has nothing left to do.)
//!
//! An engine that fails (sled keeps the first I/O error it meets, a full disk say, and fails
//! every write after it; a JetStream append that was not acknowledged) fails every call until
//! it is opened again: [`EventLog::reopen`] does that, and [`EventLog::probe`] says whether a
//! write goes through now.

pub mod cluster;
pub mod codec;
mod error;
pub mod jetstream;
mod key;
mod report;
mod sledlog;
mod witness;

pub use codec::Skip;
pub use error::LogError;
pub use report::{Report, check, check_stream};

pub use sledlog::PROBE_BYTES;

use jetstream::JetStreamLog;
use sledlog::SledLog;
use std::path::Path;
use std::time::Duration;
use warden::chat::{ChatState, Record};

/// sled's cache unless the configuration says otherwise (`[log] cache_mb`): 8 MiB. sled
/// counts its cache in its pages' sizes on disk, and holds about four times that in memory:
/// at 32 MiB it held 125 MiB of heap once full (a million records of 10,000 chats), at 8 MiB
/// 40–50 MiB, appending as fast; at 1 MiB appends took twice as long.
pub const CACHE_BYTES: u64 = 8 << 20;

/// How long [`EventLog::open`] waits for a locked folder before it gives up.
pub const LOCK_WAIT: Duration = Duration::from_secs(1);

/// Events a chat gathers after its latest snapshot before the runtime takes another: a chat
/// then comes back from its snapshot and at most 999 events (about 3 ms for a chat of 100,000
/// events, against about 200 ms from its first), and a snapshot costs one flush and one write
/// of the state per thousand events.
pub const SNAPSHOT_EVERY: u64 = 1_000;

/// Whether a chat that has gathered `events_since` events after its latest snapshot (or since
/// it began) should be snapshotted now. Start from [`Replayed::events`] and count each append.
pub fn should_snapshot(events_since: u64) -> bool {
    events_since >= SNAPSHOT_EVERY
}

/// One stored event as this warden read it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Its sequence number (0 when its key has none).
    pub seq: u64,
    /// The record, or why it was skipped.
    pub record: Result<Record, Skip>,
}

/// A chat brought back from the log.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Replayed {
    /// The chat's state: its snapshot, then every readable record after it.
    pub state: ChatState,
    /// The sequence number of the newest record read (or of the snapshot, when no record
    /// follows it); 0 for a chat with nothing logged. A snapshot of `state` is taken at it.
    pub last_seq: u64,
    /// Records applied in this replay, after the snapshot: the count [`should_snapshot`]
    /// starts from.
    pub events: u64,
    /// Records this warden could not read, skipped and not applied.
    pub skipped: u64,
    /// The sequence number of the snapshot the replay started from, if one was used.
    pub snapshot: Option<u64>,
}

impl Replayed {
    fn take(&mut self, seq: u64, record: Result<Record, Skip>) {
        self.last_seq = self.last_seq.max(seq);
        match record {
            Ok(record) => {
                self.state.apply(&record);
                self.events += 1;
            }
            Err(_) => self.skipped += 1,
        }
    }
}

/// Which engine holds the log (`[log] engine` in the configuration).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Engine {
    /// sled, in the data folder's `log/` (one machine; the default).
    #[default]
    Sled,
    /// A NATS JetStream stream (`docs/cluster.md`).
    JetStream(jetstream::Settings),
}

/// The engine an [`EventLog`] runs on.
enum Inner {
    Sled(SledLog),
    /// Boxed: its runtime makes it ten times sled's size.
    JetStream(Box<JetStreamLog>),
}

/// The append-only log of every chat's events, on whichever engine the configuration chose.
/// Every engine keeps the same contract, and one model test runs them all through it
/// (`storage/tests/log/model.rs`).
pub struct EventLog {
    inner: Inner,
}

impl std::fmt::Debug for EventLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.inner {
            Inner::Sled(log) => log.fmt(f),
            Inner::JetStream(log) => log.fmt(f),
        }
    }
}

/// The same call on whichever engine the log runs on.
macro_rules! either {
    ($self:ident, $log:ident => $call:expr) => {
        match &$self.inner {
            Inner::Sled($log) => $call,
            Inner::JetStream($log) => $call,
        }
    };
}

impl EventLog {
    /// Opens the sled log in `dir`, creating the folder and an empty log if there is none.
    /// Fails when another process has it open (after waiting [`LOCK_WAIT`] for it to let go).
    pub fn open(dir: impl AsRef<Path>) -> Result<EventLog, LogError> {
        Self::open_with(dir, CACHE_BYTES)
    }

    /// [`EventLog::open`], with sled's cache held to `cache_bytes` (sled's own default is
    /// 1 GiB, which a long-running daemon fills: resident memory then grows with the log).
    pub fn open_with(dir: impl AsRef<Path>, cache_bytes: u64) -> Result<EventLog, LogError> {
        Ok(EventLog {
            inner: Inner::Sled(SledLog::open_with(dir, cache_bytes)?),
        })
    }

    /// Opens the log on `engine`: sled in `dir` with a cache of `cache_bytes`, or the
    /// JetStream stream its settings name (`dir` and `cache_bytes` are then unused: nothing
    /// of the log is kept on this machine).
    pub fn open_on(
        engine: &Engine,
        dir: impl AsRef<Path>,
        cache_bytes: u64,
    ) -> Result<EventLog, LogError> {
        match engine {
            Engine::Sled => Self::open_with(dir, cache_bytes),
            Engine::JetStream(settings) => Self::open_jetstream(settings),
        }
    }

    /// [`EventLog::open_on`], as the cluster's node `node` on JetStream (`None`: a node of its
    /// own, the stream's one writer, as [`EventLog::open_on`]). sled has one writer by
    /// construction and ignores `node`.
    pub fn open_on_as(
        engine: &Engine,
        dir: impl AsRef<Path>,
        cache_bytes: u64,
        node: Option<&str>,
    ) -> Result<EventLog, LogError> {
        match engine {
            Engine::Sled => Self::open_with(dir, cache_bytes),
            Engine::JetStream(settings) => Self::open_jetstream_as(settings, node),
        }
    }

    /// Opens the log on a JetStream stream, creating the stream (and its snapshots' stream)
    /// when there is none, as the stream's one writer.
    pub fn open_jetstream(settings: &jetstream::Settings) -> Result<EventLog, LogError> {
        Self::open_jetstream_as(settings, None)
    }

    /// Opens the log on a JetStream stream as node `node`, one of several writing it
    /// (`docs/cluster.md`): opening aborts only this node's own groups left open, and reads
    /// see every node's appends, each group once it is whole. `None`: a node of its own, the
    /// stream's one writer, as [`EventLog::open_jetstream`]. A node id is 1 to 256 bytes
    /// with no control characters ([`jetstream::JetStreamLog::is_node_id`]).
    pub fn open_jetstream_as(
        settings: &jetstream::Settings,
        node: Option<&str>,
    ) -> Result<EventLog, LogError> {
        Ok(EventLog {
            inner: Inner::JetStream(Box::new(JetStreamLog::open_as(settings, node)?)),
        })
    }

    /// The node this log writes as on JetStream (given at opening, or made there); `None` on
    /// sled.
    pub fn node(&self) -> Option<&str> {
        match &self.inner {
            Inner::Sled(_) => None,
            Inner::JetStream(log) => Some(log.node()),
        }
    }

    /// The engine's name, as the configuration spells it: `sled` or `jetstream`.
    pub fn engine(&self) -> &'static str {
        match &self.inner {
            Inner::Sled(_) => "sled",
            Inner::JetStream(_) => "jetstream",
        }
    }

    /// Drops the engine and opens it again, as a restart of the process would: sled fails
    /// every write after its first I/O error (a full disk), and a JetStream log every call
    /// after an append it could not get acknowledged, until then. What was acknowledged
    /// (flushed, on sled) is read back; what was appended and not acknowledged may be there or
    /// not, each group whole. Until it succeeds, every call fails with [`LogError::Closed`].
    pub fn reopen(&self) -> Result<(), LogError> {
        either!(self, log => log.reopen())
    }

    /// Whether a write goes through now (after [`EventLog::reopen`], whether the cause of the
    /// failure is gone): sled writes [`PROBE_BYTES`] outside the events and flushes them;
    /// JetStream asks the server for the stream's state.
    pub fn probe(&self) -> Result<(), LogError> {
        either!(self, log => log.probe())
    }

    /// The folder the log lives in (sled), or the server's URL as a path (JetStream).
    pub fn path(&self) -> &Path {
        either!(self, log => log.path())
    }

    /// Appends one event to a chat and returns its sequence number. It is written but not yet
    /// durable: call [`EventLog::flush`] before acknowledging it.
    pub fn append(&self, chat: &str, record: &Record) -> Result<u64, LogError> {
        either!(self, log => log.append(chat, record))
    }

    /// Appends events to any streams at once (chats, tasks, the preferences), and returns
    /// their sequence numbers in order, increasing. The group is written atomically (after a
    /// crash all of it is there or none of it) but is not yet durable: call
    /// [`EventLog::flush`] before acknowledging it. Nothing is written if one of them can't be
    /// encoded or keyed.
    ///
    /// A failure of the engine itself ([`LogError::Store`]) may leave part of the group in
    /// this process's view of the log (sled) or in the stream, unseen (JetStream), never as a
    /// part after the log is opened again: the caller then calls [`EventLog::reopen`], which
    /// reads back what the engine holds.
    pub fn append_batch<R: std::borrow::Borrow<Record>>(
        &self,
        items: &[(&str, R)],
    ) -> Result<Vec<u64>, LogError> {
        either!(self, log => log.append_batch(items))
    }

    /// [`EventLog::append_batch`] by a chat's writer that may not be its only one: each chat
    /// of `fences` carries the end its writer knows of it (the `last_seq` of its replay or
    /// takeover, then the last sequence number each append gave it; 0 for a chat new to the
    /// log). When another node has written one of them since (a takeover), nothing of the
    /// group is ever seen and the call is [`LogError::Fenced`], naming the chat and the end
    /// its writer knew; the log stays open. Chats without a fence (the preferences, which
    /// every node writes) are appended to as they are. Returns the records' sequence numbers
    /// in order, as [`EventLog::append_batch`]: a chat's new end is its last one here.
    ///
    /// sled has one writer by construction (its folder is locked): every fence holds.
    pub fn append_batch_fenced<R: std::borrow::Borrow<Record>>(
        &self,
        items: &[(&str, R)],
        fences: &[(&str, u64)],
    ) -> Result<Vec<u64>, LogError> {
        match &self.inner {
            Inner::Sled(log) => log.append_batch(items),
            Inner::JetStream(log) => log.append_batch_fenced(items, fences),
        }
    }

    /// Takes `chat` over for this node, once the chat's lease is its (`cluster`): on
    /// JetStream a marker is appended to the chat, fenced at its end, so that every later
    /// fenced write of the chat's old writer is refused, and every group with a part in the
    /// chat that is not whole yet is aborted, so it never becomes whole behind this node's
    /// writes. Answers the chat brought back (as [`EventLog::chat`]); its `last_seq` is the
    /// end this node's first [`EventLog::append_batch_fenced`] carries for it.
    /// [`LogError::Fenced`] when another node keeps writing it.
    ///
    /// sled: the chat brought back (one writer by construction).
    pub fn take_over(&self, chat: &str) -> Result<Replayed, LogError> {
        either!(self, log => log.take_over(chat))
    }

    /// The records of one chat whose sequence number is greater than `after`, oldest first:
    /// what a node that knows the chat up to `after` has not read (another node's appends
    /// included, each group once it is whole). One walk of the chat from `after`.
    pub fn records_after(&self, chat: &str, after: u64) -> Result<Vec<Entry>, LogError> {
        either!(self, log => log.records_after(chat, after))
    }

    /// The sequence number of the chat's newest message as the engine holds it now (0:
    /// none), on JetStream whoever wrote it and whether it is seen or not (a takeover's
    /// marker, a part of a group not whole). What a fence carries for a chat its writer has
    /// not replayed.
    pub fn end_of(&self, chat: &str) -> Result<u64, LogError> {
        either!(self, log => log.end_of(chat))
    }

    /// The first record of a chat a reader sees (its opening, for a chat or a task), `None`
    /// when it has none: what places a task made before the cluster's roots bucket, whose
    /// opening names its parent.
    pub fn first(&self, chat: &str) -> Result<Option<Entry>, LogError> {
        match &self.inner {
            Inner::Sled(log) => log.records(chat)?.next().transpose(),
            Inner::JetStream(log) => log.first(chat),
        }
    }

    /// On JetStream, aborts whatever group each node not in `live` left open on its chain
    /// (this node's aside), so that the event feed goes on past it; answers the nodes whose
    /// chains were aborted. Safe whenever it runs: of the abort and the node's own commit,
    /// fenced at the same base, exactly one is stored (`docs/cluster.md`). sled has one
    /// writer: nothing to do.
    pub fn abort_departed(&self, live: &[&str]) -> Result<Vec<String>, LogError> {
        match &self.inner {
            Inner::Sled(_) => Ok(Vec::new()),
            Inner::JetStream(log) => log.abort_departed(live),
        }
    }

    /// Makes every event appended before this call durable, and waits for it: once it
    /// returns, they survive a crash of the process or the machine (on JetStream: as far as
    /// the server's acknowledgement goes, `docs/cluster.md`).
    pub fn flush(&self) -> Result<(), LogError> {
        either!(self, log => log.flush())
    }

    /// Appends one event and flushes it: durable when this returns. One disk sync per event
    /// on sled; a caller with many events appends them all, then flushes once.
    pub fn append_durable(&self, chat: &str, record: &Record) -> Result<u64, LogError> {
        let seq = self.append(chat, record)?;
        self.flush()?;
        Ok(seq)
    }

    /// A chat brought back: its latest snapshot, then the records after it, in order. Records
    /// this warden can't read are skipped and counted. A chat with nothing logged comes back
    /// as `ChatState::default()` with `last_seq` 0.
    pub fn chat(&self, chat: &str) -> Result<Replayed, LogError> {
        either!(self, log => log.chat(chat))
    }

    /// Keeps `state` as the chat's state after every one of its events up to and including
    /// `seq` (the `seq` of the last record folded into it: from [`EventLog::append`] or
    /// [`Replayed::last_seq`]), so that [`EventLog::chat`] starts from it. The log is flushed
    /// first, so a snapshot never holds an event the log could lose.
    ///
    /// Returns `false`, writing nothing, when this process replayed the chat and skipped a
    /// record it couldn't read: a snapshot of that state would hide the record from a newer
    /// warden for good. A snapshot is a cache: losing one costs a longer replay, never an event.
    pub fn snapshot(&self, chat: &str, seq: u64, state: &ChatState) -> Result<bool, LogError> {
        either!(self, log => log.snapshot(chat, seq, state))
    }

    /// Every chat with an event in the log, once each, in key order (shorter ids first).
    pub fn chats(&self) -> Box<dyn Iterator<Item = Result<String, LogError>> + '_> {
        match &self.inner {
            Inner::Sled(log) => Box::new(log.chats()),
            Inner::JetStream(log) => Box::new(log.chats()),
        }
    }

    /// The records of every stream (chats, tasks, the preferences) whose sequence number is
    /// greater than `after`, oldest first, at most `limit` of them: what a client that saw
    /// everything up to `after` has missed. Sequence numbers are global and increasing, so
    /// "after" is the same point in every stream. Call again from the last one's `seq` for
    /// the next page; fewer than `limit` means there is no more now. A record this warden
    /// can't read is there, with the reason it is skipped.
    pub fn after(&self, after: u64, limit: usize) -> Result<Vec<(String, Entry)>, LogError> {
        either!(self, log => log.after(after, limit))
    }

    /// The newest sequence number in the whole log, every node's writes included: where a
    /// reader that wants only what comes next starts.
    pub fn newest(&self) -> Result<u64, LogError> {
        either!(self, log => log.newest())
    }

    /// Every stream in the log with the sequence number of its newest record, in key order.
    pub fn latest(&self) -> Result<Vec<(String, u64)>, LogError> {
        either!(self, log => log.latest())
    }

    /// Every record of one chat, oldest first, each read or with the reason it was skipped.
    /// Ignores snapshots.
    pub fn records(
        &self,
        chat: &str,
    ) -> Result<Box<dyn Iterator<Item = Result<Entry, LogError>> + '_>, LogError> {
        Ok(match &self.inner {
            Inner::Sled(log) => Box::new(log.records(chat)?),
            Inner::JetStream(log) => Box::new(log.records(chat)?.into_iter().map(Ok)),
        })
    }

    /// Every chat replayed from its first event, ignoring snapshots, in one pass over the
    /// whole log: what `warden replay --check` and the replay bench walk.
    pub fn replay_all(
        &self,
    ) -> Box<dyn Iterator<Item = Result<(String, Replayed), LogError>> + '_> {
        match &self.inner {
            Inner::Sled(log) => Box::new(log.replay_all()),
            Inner::JetStream(log) => Box::new(log.replay_all()),
        }
    }

    /// How many records the log holds, readable or not. 0 while the log is closed after a
    /// failure.
    pub fn len(&self) -> usize {
        either!(self, log => log.len())
    }

    /// Whether the log holds no record (or is closed after a failure).
    pub fn is_empty(&self) -> bool {
        either!(self, log => log.is_empty())
    }

    /// How many chats have a snapshot.
    pub fn snapshots(&self) -> usize {
        either!(self, log => log.snapshots())
    }

    /// The bytes the log takes on disk (sled keeps several times the data it holds; for
    /// JetStream, the bytes the server reports for both streams).
    pub fn size_on_disk(&self) -> Result<u64, LogError> {
        either!(self, log => log.size_on_disk())
    }

    /// Walks every record and snapshot: what [`check`] (sled) and [`check_stream`]
    /// (JetStream) report.
    pub fn report(&self) -> Result<Report, LogError> {
        either!(self, log => log.report())
    }
}
