//! The event log on sled, in one folder (the default engine): keys
//! `[u16 BE chat id length][chat id][u64 BE sequence]` in one `events` tree, snapshots in
//! another; see the crate's documentation for the layout and [`crate::EventLog`] for the
//! contract every engine keeps.

use crate::codec::{self, Skip};
use crate::{Entry, LOCK_WAIT, LogError, Replayed, key, witness};
use std::collections::BTreeSet;
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError, RwLock, RwLockReadGuard};
use std::time::{Duration, Instant};
use warden::chat::{ChatState, Record};

/// sled's engine on the log's folder, and its trees.
#[derive(Clone)]
pub(crate) struct Trees {
    pub(crate) db: sled::Db,
    pub(crate) events: sled::Tree,
    pub(crate) snapshots: sled::Tree,
}

/// The tree [`SledLog::probe`] writes to: no event, no snapshot, only a proof of writing.
const PROBE: &str = "probe";

/// How much [`SledLog::probe`] writes: room for a few hundred events. A few bytes could fit
/// in a page sled's file already holds on a disk that is still full, and a log that wrote
/// again on that would fail again at its next group.
pub const PROBE_BYTES: usize = 64 * 1024;

/// The event log on sled, in one folder: what [`crate::EventLog`] opens by default.
pub struct SledLog {
    /// `None` between dropping a failed engine and opening it again ([`SledLog::reopen`]).
    engine: RwLock<Option<Trees>>,
    /// sled's cache, in bytes, kept for a reopen.
    cache_bytes: u64,
    path: PathBuf,
    pub(crate) shown: String,
    /// Chats whose replay skipped a record: a state built without it must not become a
    /// snapshot, or a newer warden that can read the record would never apply it.
    partial: Mutex<BTreeSet<String>>,
    /// Events appended since the log was made: the log's own count at opening, plus every
    /// append since. What the last flush made durable of it is kept in the witness.
    appended: AtomicU64,
}

impl std::fmt::Debug for SledLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SledLog")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// What is missing from a folder that was a log: its data file gone while its settings
/// file (`conf`) is there. Opening it anyway would make a fresh, empty log in its place and
/// every event would be silently gone.
fn missing_part(dir: &Path) -> Option<String> {
    (dir.join("conf").is_file() && !dir.join("db").exists())
        .then(|| "its data file `db` is missing (its `conf` is there)".to_string())
}

impl SledLog {
    /// Opens the log in `dir`, creating the folder and an empty log if there is none. Fails
    /// when another process has it open (after waiting [`LOCK_WAIT`] for it to let go).
    pub fn open(dir: impl AsRef<Path>) -> Result<SledLog, LogError> {
        Self::open_with(dir, crate::CACHE_BYTES)
    }

    /// [`SledLog::open`], with sled's cache held to `cache_bytes` (sled's own default is
    /// 1 GiB, which a long-running daemon fills: resident memory then grows with the log).
    pub fn open_with(dir: impl AsRef<Path>, cache_bytes: u64) -> Result<SledLog, LogError> {
        let path = dir.as_ref().to_path_buf();
        let shown = path.display().to_string();
        let (engine, held) = Self::open_engine(&path, &shown, cache_bytes)?;
        Ok(SledLog {
            engine: RwLock::new(Some(engine)),
            cache_bytes,
            path,
            shown,
            partial: Mutex::new(BTreeSet::new()),
            appended: AtomicU64::new(held),
        })
    }

    /// Opens sled on `path` and checks it against its witness: the engine, and how many
    /// events it holds.
    fn open_engine(path: &Path, shown: &str, cache_bytes: u64) -> Result<(Trees, u64), LogError> {
        let opening = |e: sled::Error| match e {
            sled::Error::Io(io) if io.to_string().contains("could not acquire lock") => {
                LogError::Locked {
                    path: shown.to_string(),
                }
            }
            sled::Error::Corruption { at, .. } => LogError::Damaged {
                path: shown.to_string(),
                what: match at {
                    Some(at) => format!("sled found corrupted data in its files at {at}"),
                    None => "sled found corrupted data in its files".to_string(),
                },
            },
            e => LogError::Open {
                path: shown.to_string(),
                cause: e.to_string(),
            },
        };
        if let Some(what) = missing_part(path) {
            return Err(LogError::Damaged {
                path: shown.to_string(),
                what,
            });
        }
        let db = Self::open_db(path, cache_bytes).map_err(opening)?;
        let events = db.open_tree("events").map_err(opening)?;
        let snapshots = db.open_tree("snapshots").map_err(opening)?;
        let held = events.len() as u64;
        if let Some(witnessed) = witness::read(path)
            && witnessed > held
        {
            // INVARIANT: a log that went back in time is never served as if it were whole:
            // a lost "don't push yet" would let the push go.
            return Err(LogError::Damaged {
                path: shown.to_string(),
                what: format!(
                    "it holds {held} events, but {witnessed} were written and flushed (its witness, `{}`, says so): {} are lost, as when sled reads a cut or overwritten `db` back to an earlier point; to serve the {held} that are left instead, remove `{}`",
                    witness::FILE,
                    witnessed - held,
                    path.join(witness::FILE).display()
                ),
            });
        }
        Ok((
            Trees {
                db,
                events,
                snapshots,
            },
            held,
        ))
    }

    /// Drops sled's engine and opens the folder again, as a restart of the process would:
    /// sled fails every write after its first I/O error (a full disk) until then. What was
    /// flushed is read back; what was appended and not flushed may be there or not, each
    /// group whole. The witness is checked again, so a log that lost flushed events is
    /// refused as damaged. Until it succeeds, every call fails with [`LogError::Closed`].
    ///
    /// sled lets go of its folder only when every handle on the old engine is gone (an
    /// iterator of [`SledLog::records`] holds one): opening waits up to [`LOCK_WAIT`].
    pub fn reopen(&self) -> Result<(), LogError> {
        let mut engine = self.engine.write().unwrap_or_else(PoisonError::into_inner);
        // The old engine first: sled's lock on the folder goes with it.
        *engine = None;
        let (opened, held) = Self::open_engine(&self.path, &self.shown, self.cache_bytes)?;
        // No append runs meanwhile: each holds the engine's read lock.
        self.appended.store(held, Ordering::SeqCst);
        *engine = Some(opened);
        Ok(())
    }

    /// Whether the disk takes a write now: writes [`PROBE_BYTES`] outside the events and
    /// snapshots (over the last probe, in a tree of its own) and flushes them. After
    /// [`SledLog::reopen`], this says whether the cause of the failure (a full disk) is gone.
    pub fn probe(&self) -> Result<(), LogError> {
        let guard = self.read();
        let engine = self.engine(&guard)?;
        let probe = engine.db.open_tree(PROBE).map_err(self.store())?;
        let id = engine.db.generate_id().map_err(self.store())?;
        let mut value = vec![0x5a; PROBE_BYTES];
        value[..8].copy_from_slice(&id.to_be_bytes());
        probe.insert(PROBE, value).map_err(self.store())?;
        self.flushed(engine)
    }

    fn read(&self) -> RwLockReadGuard<'_, Option<Trees>> {
        self.engine.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// The engine in `guard`, or the error of a log closed after a failure.
    fn engine<'a>(
        &self,
        guard: &'a RwLockReadGuard<'_, Option<Trees>>,
    ) -> Result<&'a Trees, LogError> {
        guard.as_ref().ok_or_else(|| LogError::Closed {
            path: self.shown.clone(),
        })
    }

    /// A handle on the engine for a walk that outlives the lock (it keeps the old engine, and
    /// its folder, while it lives).
    pub(crate) fn engine_now(&self) -> Result<Trees, LogError> {
        self.engine(&self.read()).cloned()
    }

    /// Opens sled's folder, waiting up to [`LOCK_WAIT`] while it is locked: a log this
    /// process has just dropped lets go of its lock only when sled's background writes end.
    fn open_db(path: &Path, cache_bytes: u64) -> Result<sled::Db, sled::Error> {
        let started = Instant::now();
        let mut pause = Duration::from_millis(2);
        loop {
            match sled::Config::new()
                .path(path)
                .cache_capacity(cache_bytes)
                .open()
            {
                Err(sled::Error::Io(io))
                    if io.to_string().contains("could not acquire lock")
                        && started.elapsed() < LOCK_WAIT =>
                {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(50));
                }
                opened => return opened,
            }
        }
    }

    /// The folder the log lives in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn store(&self) -> impl Fn(sled::Error) -> LogError + '_ {
        |e| LogError::store(&self.shown, &e)
    }

    /// A new sequence number: sled's global, increasing id, plus one so that 0 means none.
    fn next_seq(&self, engine: &Trees) -> Result<u64, LogError> {
        Ok(engine
            .db
            .generate_id()
            .map_err(self.store())?
            .saturating_add(1))
    }

    fn encoded(chat: &str, record: &Record) -> Result<Vec<u8>, LogError> {
        codec::write_record(record).map_err(|e| LogError::Encode {
            chat: chat.to_string(),
            cause: e.to_string(),
        })
    }

    /// Appends one event to a chat and returns its sequence number. It is written but not yet
    /// durable: call [`SledLog::flush`] before acknowledging it.
    pub fn append(&self, chat: &str, record: &Record) -> Result<u64, LogError> {
        let prefix = key::prefix(chat)?;
        let value = Self::encoded(chat, record)?;
        let guard = self.read();
        let engine = self.engine(&guard)?;
        let seq = self.next_seq(engine)?;
        engine
            .events
            .insert(key::key(&prefix, seq), value)
            .map_err(self.store())?;
        self.appended.fetch_add(1, Ordering::SeqCst);
        Ok(seq)
    }

    /// Appends events to any streams at once (chats, tasks, the preferences), and returns
    /// their sequence numbers in order. The group is written atomically (after a crash all of
    /// it is there or none of it: every stream is in the one `events` tree, and a sled batch
    /// on one tree is recovered whole) but is not yet durable: call [`SledLog::flush`] before
    /// acknowledging it. Nothing is written if one of them can't be encoded or keyed.
    ///
    /// A failure of the engine itself ([`LogError::Store`]) may leave part of the group in
    /// this process's view of the log, never on disk as a part: the caller then opens the
    /// log again ([`SledLog::reopen`]), which reads back what the disk holds.
    pub fn append_batch<R: std::borrow::Borrow<Record>>(
        &self,
        items: &[(&str, R)],
    ) -> Result<Vec<u64>, LogError> {
        let mut keyed = Vec::with_capacity(items.len());
        for (chat, record) in items {
            keyed.push((key::prefix(chat)?, Self::encoded(chat, record.borrow())?));
        }
        let guard = self.read();
        let engine = self.engine(&guard)?;
        let mut seqs = Vec::with_capacity(items.len());
        if let [(prefix, value)] = keyed.as_slice() {
            // One record is atomic by itself, and a plain insert spares sled the batch's
            // manifest, which it writes out at once (two writes to the file per record).
            let seq = self.next_seq(engine)?;
            engine
                .events
                .insert(key::key(prefix, seq), value.as_slice())
                .map_err(self.store())?;
            seqs.push(seq);
        } else {
            let mut batch = sled::Batch::default();
            for (prefix, value) in keyed {
                let seq = self.next_seq(engine)?;
                batch.insert(key::key(&prefix, seq), value);
                seqs.push(seq);
            }
            engine.events.apply_batch(batch).map_err(self.store())?;
        }
        self.appended.fetch_add(seqs.len() as u64, Ordering::SeqCst);
        Ok(seqs)
    }

    /// Writes every event appended before this call to disk and waits for it: once it
    /// returns, they survive a crash of the process or the machine.
    pub fn flush(&self) -> Result<(), LogError> {
        let guard = self.read();
        self.flushed(self.engine(&guard)?)
    }

    fn flushed(&self, engine: &Trees) -> Result<(), LogError> {
        // Counted before the flush: every event it counts was appended before the flush
        // began, so is durable once it ends. A crash before the witness is written leaves it
        // behind the log, never ahead.
        let durable = self.appended.load(Ordering::SeqCst);
        engine.db.flush().map_err(self.store())?;
        witness::write(&self.path, durable);
        Ok(())
    }

    /// A chat brought back: its latest snapshot, then the records after it, in order. Records
    /// this warden can't read are skipped and counted. A chat with nothing logged comes back
    /// as `ChatState::default()` with `last_seq` 0.
    pub fn chat(&self, chat: &str) -> Result<Replayed, LogError> {
        let prefix = key::prefix(chat)?;
        let guard = self.read();
        let engine = self.engine(&guard)?;
        let mut replayed = Replayed::default();
        let mut from = prefix.clone();
        if let Some((seq, state)) = self.snapshot_of(engine, chat)? {
            replayed.state = state;
            replayed.last_seq = seq;
            replayed.snapshot = Some(seq);
            from = key::key(&prefix, seq.saturating_add(1));
        }
        let to = key::key(&prefix, u64::MAX);
        for item in engine.events.range(from..=to) {
            let (key, value) = item.map_err(self.store())?;
            let (_, seq) = key::split(&key);
            let record = match seq {
                Some(_) => codec::read_record(&value),
                None => Err(Skip::Key),
            };
            replayed.take(seq.unwrap_or(0), record);
        }
        if replayed.skipped > 0 {
            self.partial
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(chat.to_string());
        }
        Ok(replayed)
    }

    /// The chat's latest snapshot, if there is one this warden can read.
    fn snapshot_of(
        &self,
        engine: &Trees,
        chat: &str,
    ) -> Result<Option<(u64, ChatState)>, LogError> {
        let value = engine
            .snapshots
            .get(chat.as_bytes())
            .map_err(self.store())?;
        Ok(value.and_then(|v| codec::read_snapshot(&v)))
    }

    /// Keeps `state` as the chat's state after every one of its events up to and including
    /// `seq` (the `seq` of the last record folded into it: from [`SledLog::append`] or
    /// [`Replayed::last_seq`]), so that [`SledLog::chat`] starts from it. The log is flushed
    /// first, so a snapshot never holds an event the log could lose.
    ///
    /// Returns `false`, writing nothing, when this process replayed the chat and skipped a
    /// record it couldn't read: a snapshot of that state would hide the record from a newer
    /// warden for good. A snapshot is a cache: losing one costs a longer replay, never an event.
    pub fn snapshot(&self, chat: &str, seq: u64, state: &ChatState) -> Result<bool, LogError> {
        if self
            .partial
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(chat)
        {
            return Ok(false);
        }
        key::prefix(chat)?;
        let value = codec::write_snapshot(seq, state).map_err(|e| LogError::Encode {
            chat: chat.to_string(),
            cause: e.to_string(),
        })?;
        let guard = self.read();
        let engine = self.engine(&guard)?;
        // INVARIANT: a snapshot is written after every event it covers is on disk, so it
        // never holds an event the log could lose. One sync per SNAPSHOT_EVERY events.
        self.flushed(engine)?;
        engine
            .snapshots
            .insert(chat.as_bytes(), value)
            .map_err(self.store())?;
        Ok(true)
    }

    /// Every chat with an event in the log, once each, in key order (shorter ids first). Each
    /// chat costs one seek: the walk jumps past the chat's keys instead of reading them.
    pub fn chats(&self) -> impl Iterator<Item = Result<String, LogError>> + '_ {
        let (events, mut closed) = match self.engine_now() {
            Ok(engine) => (Some(engine.events), None),
            Err(e) => (None, Some(e)),
        };
        // `None` once the walk is over (past the last chat, or after an error).
        let mut from: Option<Bound<Vec<u8>>> = Some(Bound::Unbounded);
        std::iter::from_fn(move || {
            if let Some(closed) = closed.take() {
                return Some(Err(closed));
            }
            let start = from.take()?;
            let first = events
                .as_ref()?
                .range::<Vec<u8>, _>((start, Bound::Unbounded))
                .next()?;
            let key = match first {
                Ok((key, _)) => key,
                Err(e) => return Some(Err(LogError::store(&self.shown, &e))),
            };
            let (chat, seq) = key::split(&key);
            if seq.is_none() {
                from = Some(Bound::Excluded(key.to_vec()));
                return Some(Err(self.bad_key(&key)));
            }
            from = key::after_prefix(&key[..2 + chat.len()]).map(Bound::Included);
            Some(match std::str::from_utf8(chat) {
                Ok(chat) => Ok(chat.to_string()),
                Err(_) => Err(self.bad_key(&key)),
            })
        })
    }

    /// The key prefix of every stream in the log, in key order, one seek each (the walk
    /// jumps past a stream's keys instead of reading them). A key too short to name a stream
    /// is passed over.
    fn prefixes(events: &sled::Tree) -> impl Iterator<Item = Result<Vec<u8>, sled::Error>> + '_ {
        let mut from: Option<Bound<Vec<u8>>> = Some(Bound::Unbounded);
        std::iter::from_fn(move || {
            loop {
                let start = from.take()?;
                let key = match events
                    .range::<Vec<u8>, _>((start, Bound::Unbounded))
                    .next()?
                {
                    Ok((key, _)) => key,
                    Err(e) => return Some(Err(e)),
                };
                let (chat, seq) = key::split(&key);
                if seq.is_none() {
                    from = Some(Bound::Excluded(key.to_vec()));
                    continue;
                }
                let prefix = key[..2 + chat.len()].to_vec();
                from = key::after_prefix(&prefix).map(Bound::Included);
                return Some(Ok(prefix));
            }
        })
    }

    /// The records of every stream (chats, tasks, the preferences) whose sequence number is
    /// greater than `after`, oldest first, at most `limit` of them: what a client that saw
    /// everything up to `after` has missed. Sequence numbers are sled's global increasing
    /// ids, so "after" is the same point in every stream. Bounded: each stream costs one seek
    /// and at most `limit` reads, whatever the log holds before `after`. Call again from the
    /// last one's `seq` for the next page; fewer than `limit` means there is no more now.
    /// A record this warden can't read is there, with the reason it is skipped.
    pub fn after(&self, after: u64, limit: usize) -> Result<Vec<(String, Entry)>, LogError> {
        let events = self.engine_now()?.events;
        // The `limit` smallest sequence numbers seen, the largest on top.
        let mut kept: std::collections::BinaryHeap<(u64, String, Vec<u8>)> =
            std::collections::BinaryHeap::new();
        if limit == 0 {
            return Ok(Vec::new());
        }
        for prefix in Self::prefixes(&events) {
            let prefix = prefix.map_err(self.store())?;
            let chat = String::from_utf8_lossy(&prefix[2..]).into_owned();
            let from = key::key(&prefix, after.saturating_add(1));
            let to = key::key(&prefix, u64::MAX);
            for item in events.range(from..=to).take(limit) {
                let (key, value) = item.map_err(self.store())?;
                let Some(seq) = key::split(&key).1 else {
                    continue;
                };
                if kept.len() == limit {
                    match kept.peek() {
                        // This stream's later records are later still.
                        Some((top, _, _)) if *top < seq => break,
                        _ => {
                            kept.pop();
                        }
                    }
                }
                kept.push((seq, chat.clone(), value.to_vec()));
            }
        }
        Ok(kept
            .into_sorted_vec()
            .into_iter()
            .map(|(seq, chat, value)| {
                let record = codec::read_record(&value);
                (chat, Entry { seq, record })
            })
            .collect())
    }

    /// Every stream in the log with the sequence number of its newest record, in key order:
    /// one seek to each stream's first key and one to its last.
    pub fn latest(&self) -> Result<Vec<(String, u64)>, LogError> {
        let events = self.engine_now()?.events;
        let mut latest = Vec::new();
        for prefix in Self::prefixes(&events) {
            let prefix = prefix.map_err(self.store())?;
            let from = key::key(&prefix, 0);
            let to = key::key(&prefix, u64::MAX);
            let newest = events
                .range(from..=to)
                .next_back()
                .transpose()
                .map_err(self.store())?
                .and_then(|(key, _)| key::split(&key).1);
            if let Some(seq) = newest {
                latest.push((String::from_utf8_lossy(&prefix[2..]).into_owned(), seq));
            }
        }
        Ok(latest)
    }

    fn bad_key(&self, key: &[u8]) -> LogError {
        LogError::BadKey {
            path: self.shown.clone(),
            key: key::shown(key),
        }
    }

    /// Every record of one chat, oldest first, each read or with the reason it was skipped.
    /// Ignores snapshots.
    pub fn records(
        &self,
        chat: &str,
    ) -> Result<impl Iterator<Item = Result<Entry, LogError>> + '_, LogError> {
        let prefix = key::prefix(chat)?;
        let events = self.engine_now()?.events;
        Ok(events.scan_prefix(prefix).map(move |item| {
            let (key, value) = item.map_err(self.store())?;
            Ok(entry(&key, &value))
        }))
    }

    /// The records of one chat after sequence `after`, oldest first, each read or with the
    /// reason it was skipped: one seek into the chat's keys.
    pub fn records_after(&self, chat: &str, after: u64) -> Result<Vec<Entry>, LogError> {
        let prefix = key::prefix(chat)?;
        let events = self.engine_now()?.events;
        let from = key::key(&prefix, after.saturating_add(1));
        let to = key::key(&prefix, u64::MAX);
        events
            .range(from..=to)
            .map(|item| {
                let (key, value) = item.map_err(self.store())?;
                Ok(entry(&key, &value))
            })
            .collect()
    }

    /// The sequence number of the chat's newest record (0: none): one seek to its last key.
    pub fn end_of(&self, chat: &str) -> Result<u64, LogError> {
        let prefix = key::prefix(chat)?;
        let events = self.engine_now()?.events;
        let from = key::key(&prefix, 0);
        let to = key::key(&prefix, u64::MAX);
        Ok(events
            .range(from..=to)
            .next_back()
            .transpose()
            .map_err(self.store())?
            .and_then(|(key, _)| key::split(&key).1)
            .unwrap_or(0))
    }

    /// The chat brought back: sled has one writer by construction (its folder is locked),
    /// so there is nothing to take over from.
    pub fn take_over(&self, chat: &str) -> Result<Replayed, LogError> {
        self.chat(chat)
    }

    /// Every chat replayed from its first event, ignoring snapshots, in one pass over the
    /// whole log: what `warden replay --check` and the replay bench walk. A key that names no
    /// chat is counted as skipped in the chat it sorts into.
    pub fn replay_all(&self) -> impl Iterator<Item = Result<(String, Replayed), LogError>> + '_ {
        let (iter, closed) = match self.engine_now() {
            Ok(engine) => (Some(engine.events.iter()), None),
            Err(e) => (None, Some(e)),
        };
        ReplayAll {
            log: self,
            iter,
            closed,
            next: None,
        }
    }

    /// How many records the log holds, readable or not. Walks every key. 0 while the log is
    /// closed after a failure.
    pub fn len(&self) -> usize {
        self.read().as_ref().map_or(0, |engine| engine.events.len())
    }

    /// Whether the log holds no record (or is closed after a failure).
    pub fn is_empty(&self) -> bool {
        self.read()
            .as_ref()
            .is_none_or(|engine| engine.events.is_empty())
    }

    /// How many chats have a snapshot. Walks every snapshot key.
    pub fn snapshots(&self) -> usize {
        self.read()
            .as_ref()
            .map_or(0, |engine| engine.snapshots.len())
    }

    /// The bytes the log takes on disk (sled keeps several times the data it holds).
    pub fn size_on_disk(&self) -> Result<u64, LogError> {
        let guard = self.read();
        self.engine(&guard)?.db.size_on_disk().map_err(self.store())
    }
}

/// A stored key and value as an [`Entry`].
pub(crate) fn entry(key: &[u8], value: &[u8]) -> Entry {
    match key::split(key) {
        (_, Some(seq)) => Entry {
            seq,
            record: codec::read_record(value),
        },
        (_, None) => Entry {
            seq: 0,
            record: Err(Skip::Key),
        },
    }
}

/// The pass behind [`SledLog::replay_all`]: consecutive keys with the same chat id bytes are
/// one chat.
struct ReplayAll<'a> {
    log: &'a SledLog,
    /// The walk; `None` when the log was closed, with the error said once.
    iter: Option<sled::Iter>,
    closed: Option<LogError>,
    /// The first key and value of the next chat, read while finishing the previous one.
    next: Option<(sled::IVec, sled::IVec)>,
}

impl Iterator for ReplayAll<'_> {
    type Item = Result<(String, Replayed), LogError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(closed) = self.closed.take() {
            return Some(Err(closed));
        }
        let iter = self.iter.as_mut()?;
        let (key, value) = match self.next.take() {
            Some(pair) => pair,
            None => match iter.next()? {
                Ok(pair) => pair,
                Err(e) => return Some(Err(LogError::store(&self.log.shown, &e))),
            },
        };
        let chat = key::split(&key).0.to_vec();
        let mut replayed = Replayed::default();
        let first = entry(&key, &value);
        replayed.take(first.seq, first.record);
        loop {
            match iter.next() {
                None => break,
                Some(Err(e)) => return Some(Err(LogError::store(&self.log.shown, &e))),
                Some(Ok((key, value))) => {
                    if key::split(&key).0 != chat.as_slice() {
                        self.next = Some((key, value));
                        break;
                    }
                    let found = entry(&key, &value);
                    replayed.take(found.seq, found.record);
                }
            }
        }
        Some(match String::from_utf8(chat) {
            Ok(chat) => Ok((chat, replayed)),
            Err(e) => Err(self.log.bad_key(e.as_bytes())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::should_snapshot;
    use warden::chat::Event;

    fn said(at_ms: i64, text: &str) -> Record {
        Record {
            at_ms,
            event: Event::Said { text: text.into() },
        }
    }

    #[test]
    fn the_log_is_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<SledLog>();
    }

    #[test]
    fn snapshots_are_taken_every_thousand_events() {
        for (since, yes) in [(0, false), (999, false), (1_000, true), (5_000, true)] {
            assert_eq!(should_snapshot(since), yes, "{since}");
        }
    }

    #[test]
    fn a_second_open_of_the_same_folder_is_refused_by_name()
    -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let _log = SledLog::open(dir.path())?;
        let Err(e) = SledLog::open(dir.path()) else {
            panic!("opened twice")
        };
        assert_eq!(
            e.to_string(),
            format!(
                "the event log in `{}` is in use by another process: only one may open it",
                dir.path().display()
            )
        );
        Ok(())
    }

    #[test]
    fn a_chat_replayed_with_skips_is_not_snapshotted() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let log = SledLog::open(dir.path())?;
        log.append("c1", &said(1, "push it"))?;
        let prefix = key::prefix("c1")?;
        log.engine_now()?
            .events
            .insert(key::key(&prefix, u64::MAX - 1), vec![200, 1, 2])?;
        let replayed = log.chat("c1")?;
        assert_eq!((replayed.events, replayed.skipped), (1, 1));
        assert_eq!(replayed.last_seq, u64::MAX - 1);
        assert!(!log.snapshot("c1", replayed.last_seq, &replayed.state)?);
        assert_eq!(log.snapshots(), 0);
        Ok(())
    }
}
