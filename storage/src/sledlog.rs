//! The event log on sled, in one folder (the default engine): every record under its global
//! sequence number in one `events` tree (the record area, which the writer appends to at
//! one end), each chat's records found through its index runs in the same tree, snapshots in
//! another; see [`crate::key`] for the keys, the crate's documentation for the layout and
//! [`crate::EventLog`] for the contract every engine keeps.

use crate::codec::{self, Skip};
use crate::{Entry, LOCK_WAIT, LogError, Replayed, key, witness};
use std::collections::{BTreeMap, BTreeSet};
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

/// How many records appended since the last index runs the log indexes in memory before it
/// writes them as runs, one a chat, in one batch. A record costs sled one insert at the
/// tree's end; its chat's key, somewhere among every chat's, costs one insert a run, not one
/// a record: with 10,000 chats writing at once, about one for six records. Bounds what an
/// opening reads back from the record area to index again, and the memory the index holds.
pub const INDEX_EVERY: u32 = 65_536;

/// The records of the record area that no index run covers yet, by chat: what a read of a
/// chat adds to its runs. Built again from the record area after the mark at every opening.
#[derive(Default)]
struct Pending {
    /// Each chat's prefix and its records' sequence numbers, increasing.
    by_chat: BTreeMap<Vec<u8>, Vec<u64>>,
    /// How many sequence numbers `by_chat` holds.
    count: usize,
    /// The newest sequence number in it.
    newest: u64,
}

impl Pending {
    fn push(&mut self, prefix: &[u8], seq: u64) {
        match self.by_chat.get_mut(prefix) {
            Some(seqs) => seqs.push(seq),
            None => {
                self.by_chat.insert(prefix.to_vec(), vec![seq]);
            }
        }
        self.count += 1;
        self.newest = self.newest.max(seq);
    }

    /// The chat's pending sequence numbers greater than `after`.
    fn of(&self, prefix: &[u8], after: u64) -> Vec<u64> {
        self.by_chat
            .get(prefix)
            .map(|seqs| seqs.iter().copied().filter(|s| *s > after).collect())
            .unwrap_or_default()
    }
}

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
    /// The records no index run covers yet. Held across each append and each read of one
    /// chat, so a read sees a record either in a run or here.
    /// (Boxed: the engines' enum keeps its variants of a size.)
    pending: Box<Mutex<Pending>>,
    /// [`INDEX_EVERY`], smaller in tests so that they write runs.
    index_every: u32,
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
        let (engine, held, pending) = Self::open_engine(&path, &shown, cache_bytes)?;
        Ok(SledLog {
            engine: RwLock::new(Some(engine)),
            cache_bytes,
            path,
            shown,
            partial: Mutex::new(BTreeSet::new()),
            appended: AtomicU64::new(held),
            pending: Box::new(Mutex::new(pending)),
            index_every: INDEX_EVERY,
        })
    }

    /// Opens sled on `path` and checks it against its witness: the engine, how many events
    /// it holds, and the records no index run covers yet.
    fn open_engine(
        path: &Path,
        shown: &str,
        cache_bytes: u64,
    ) -> Result<(Trees, u64, Pending), LogError> {
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
        let (held, pending) = held_and_pending(&events).map_err(opening)?;
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
            pending,
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
        let (opened, held, pending) = Self::open_engine(&self.path, &self.shown, self.cache_bytes)?;
        // No append runs meanwhile: each holds the engine's read lock.
        self.appended.store(held, Ordering::SeqCst);
        *self.pending() = pending;
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

    fn pending(&self) -> std::sync::MutexGuard<'_, Pending> {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
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
        let mut seqs = self.append_batch(&[(chat, record)])?;
        seqs.pop().ok_or_else(|| LogError::Store {
            path: self.shown.clone(),
            cause: "an append of one record gave no sequence number".to_string(),
        })
    }

    /// Appends events to any streams at once (chats, tasks, the preferences), and returns
    /// their sequence numbers in order. The group is written atomically (after a crash all of
    /// it is there or none of it: it is one value, a bundle under its first record's key, and
    /// sled writes a value whole) but is not yet durable: call [`SledLog::flush`] before
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
            let prefix = key::prefix(chat)?;
            let mut value = prefix.clone();
            value.extend_from_slice(&Self::encoded(chat, record.borrow())?);
            keyed.push((prefix, value));
        }
        let guard = self.read();
        let engine = self.engine(&guard)?;
        let mut pending = self.pending();
        let mut seqs = Vec::with_capacity(items.len());
        if let [(_, value)] = keyed.as_slice() {
            // One record is atomic by itself, and a plain insert spares sled the batch's
            // manifest, which it writes out at once (two writes to the file per record).
            let seq = self.next_seq(engine)?;
            engine
                .events
                .insert(key::area(seq), value.as_slice())
                .map_err(self.store())?;
            seqs.push(seq);
        } else {
            // A group is one bundle under its first record's key: one insert, atomic by
            // itself. Its sequence numbers are taken under the pending lock, as every
            // append's are, so no other record falls between them (a bundle's records are
            // the only ones from its key to the next key).
            let mut bundle = key::BUNDLE.to_vec();
            for ((_, value), (chat, _)) in keyed.iter().zip(items) {
                let seq = self.next_seq(engine)?;
                if !key::bundle_push(&mut bundle, seq, value) {
                    return Err(LogError::Encode {
                        chat: chat.to_string(),
                        cause: format!("a record of {} bytes is too long to keep", value.len()),
                    });
                }
                seqs.push(seq);
            }
            if let Some(first) = seqs.first() {
                engine
                    .events
                    .insert(key::area(*first), bundle)
                    .map_err(self.store())?;
            }
        }
        self.appended.fetch_add(seqs.len() as u64, Ordering::SeqCst);
        for ((prefix, _), seq) in keyed.iter().zip(&seqs) {
            pending.push(prefix, *seq);
        }
        if pending.count >= self.index_every as usize {
            self.index(engine, &mut pending)?;
        }
        Ok(seqs)
    }

    /// Writes the pending records' index runs, one a chat, and the mark that they cover
    /// everything up to the newest, in one batch; then forgets them. A crash before the batch
    /// is on disk leaves the mark where it was, and the opening indexes them again from the
    /// record area: a run is derived from the records, never the other way round.
    fn index(&self, engine: &Trees, pending: &mut Pending) -> Result<(), LogError> {
        let mut batch = sled::Batch::default();
        for (prefix, seqs) in &pending.by_chat {
            let Some(first) = seqs.first() else {
                continue;
            };
            let value: Vec<u8> = seqs.iter().flat_map(|seq| seq.to_be_bytes()).collect();
            batch.insert(key::run(prefix, *first), value);
        }
        batch.insert(key::MARK, &pending.newest.to_be_bytes());
        engine.events.apply_batch(batch).map_err(self.store())?;
        *pending = Pending {
            newest: pending.newest,
            ..Pending::default()
        };
        Ok(())
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
        let mut after = 0;
        if let Some((seq, state)) = self.snapshot_of(engine, chat)? {
            replayed.state = state;
            replayed.last_seq = seq;
            replayed.snapshot = Some(seq);
            after = seq;
        }
        for found in self.stream(engine, &prefix, after)? {
            replayed.take(found.seq, found.record);
        }
        if replayed.skipped > 0 {
            self.partial
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(chat.to_string());
        }
        Ok(replayed)
    }

    /// The records of the chat whose keys start with `prefix` after sequence `after` (every
    /// one at 0), oldest first: its legacy keys, then what its index runs and the pending
    /// index name, each read from the record area.
    fn stream(&self, engine: &Trees, prefix: &[u8], after: u64) -> Result<Vec<Entry>, LogError> {
        // The pending index first: a run written meanwhile holds what it held, so a record is
        // seen in one or the other (twice at worst, once kept).
        let mut seqs = self.pending().of(prefix, after);
        let mut entries = Vec::new();
        let events = &engine.events;
        let walk = if after == 0 {
            events.scan_prefix(prefix)
        } else {
            // The run that begins at or before `after` may hold records after it.
            let before = events
                .range(prefix.to_vec()..key::key(prefix, after.saturating_add(1)))
                .next_back()
                .transpose()
                .map_err(self.store())?;
            if let Some((run, value)) = before
                && key::run_first(&run).is_some()
            {
                seqs.extend(key::run_seqs(&value).filter(|seq| *seq > after));
            }
            events.range(key::key(prefix, after.saturating_add(1))..=key::run(prefix, u64::MAX))
        };
        for item in walk {
            let (key, value) = item.map_err(self.store())?;
            if key::run_first(&key).is_some() {
                seqs.extend(key::run_seqs(&value).filter(|seq| *seq > after));
                continue;
            }
            let found = entry(&key, &value);
            if after == 0 || found.seq > after {
                entries.push(found);
            }
        }
        self.read_area(events, prefix, seqs, &mut entries)?;
        Ok(entries)
    }

    /// Reads the records `seqs` of the chat whose prefix is `prefix` from the record area
    /// into `entries`, then puts `entries` in sequence order. A record of another chat there
    /// is skipped as a key that names no record of this one.
    fn read_area(
        &self,
        events: &sled::Tree,
        prefix: &[u8],
        mut seqs: Vec<u64>,
        entries: &mut Vec<Entry>,
    ) -> Result<(), LogError> {
        seqs.sort_unstable();
        seqs.dedup();
        // The value last read, with where each of its records is: a bundle holds the next
        // records of a chat that took several steps in one group.
        type Held = Option<(sled::IVec, Vec<(u64, std::ops::Range<usize>)>)>;
        let mut held: Held = None;
        for seq in seqs {
            let inside = |held: &Held| {
                let (value, spans) = held.as_ref()?;
                let at = spans.binary_search_by_key(&seq, |(own, _)| *own).ok()?;
                let (_, span) = spans.get(at)?;
                Some(area_entry(prefix, seq, value.get(span.clone())?))
            };
            if let Some(found) = inside(&held) {
                entries.push(found);
                continue;
            }
            held = self.area_at(events, seq)?.map(|(at, value)| {
                let spans = key::area_spans(at, &value);
                (value, spans)
            });
            entries.extend(inside(&held));
        }
        entries.sort_by_key(|found| found.seq);
        Ok(())
    }

    /// The record area's value that holds `seq`: under its own key, or the bundle whose
    /// key is the last one before it. With its key's sequence number.
    fn area_at(
        &self,
        events: &sled::Tree,
        seq: u64,
    ) -> Result<Option<(u64, sled::IVec)>, LogError> {
        // One seek: the key itself, or the last one before it.
        let found = events
            .range(key::area(0)..=key::area(seq))
            .next_back()
            .transpose()
            .map_err(self.store())?;
        Ok(found.and_then(|(key, value)| {
            let at = key::area_seq(&key)?;
            (at == seq || key::is_bundle(&value)).then_some((at, value))
        }))
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
        self.listed(true).into_iter().map(|(prefix, listed)| {
            listed.map(|()| String::from_utf8_lossy(&prefix[2..]).into_owned())
        })
    }

    /// Every stream's key prefix in key order, the chats with only pending records among
    /// them, one seek each; with `bad`, each key that names no stream too, as an error in
    /// its place (a prefix of the key's own bytes).
    fn listed(&self, bad: bool) -> Vec<(Vec<u8>, Result<(), LogError>)> {
        let events = match self.engine_now() {
            Ok(engine) => engine.events,
            Err(e) => return vec![(Vec::new(), Err(e))],
        };
        let mut pending: Vec<Vec<u8>> = self.pending().by_chat.keys().cloned().collect();
        pending.reverse();
        let mut listed = Vec::new();
        let mut from: Bound<Vec<u8>> = Bound::Unbounded;
        loop {
            let first = events
                .range::<Vec<u8>, _>((from, Bound::Excluded(key::MARK.to_vec())))
                .next();
            let key = match first {
                None => break,
                Some(Ok((key, _))) => key,
                Some(Err(e)) => {
                    listed.push((Vec::new(), Err(LogError::store(&self.shown, &e))));
                    return listed;
                }
            };
            let (chat, seq) = key::split(&key);
            // Chats with only pending records that sort before this key.
            while pending
                .last()
                .is_some_and(|p| p.as_slice() < key.as_ref() && !key.starts_with(p))
            {
                if let Some(p) = pending.pop() {
                    listed.push((p, Ok(())));
                }
            }
            // A key of the wrong shape among a chat's own keys is that chat's (its replay
            // skips it); as the first key of its own, it names none.
            let names_one = seq.is_some()
                || key::run_first(&key).is_some()
                || pending.last().is_some_and(|p| key.starts_with(p));
            if !names_one {
                from = Bound::Excluded(key.to_vec());
                if bad {
                    listed.push((key.to_vec(), Err(self.bad_key(&key))));
                }
                continue;
            }
            let prefix = key[..2 + chat.len()].to_vec();
            if pending.last() == Some(&prefix) {
                pending.pop();
            }
            let ok = match std::str::from_utf8(chat) {
                Ok(_) => Ok(()),
                Err(_) => Err(self.bad_key(&key)),
            };
            if ok.is_ok() || bad {
                listed.push((prefix.clone(), ok));
            }
            match key::after_prefix(&prefix) {
                Some(next) => from = Bound::Included(next),
                None => break,
            }
        }
        listed.extend(pending.into_iter().rev().map(|p| (p, Ok(()))));
        listed
    }

    /// The key prefix of every stream in the log, in key order, one seek each (the walk
    /// jumps past a stream's keys instead of reading them). A key too short to name a stream
    /// is passed over.
    fn prefixes(&self) -> Result<Vec<Vec<u8>>, LogError> {
        self.listed(false)
            .into_iter()
            .map(|(prefix, listed)| listed.map(|()| prefix))
            .collect()
    }

    /// The records of every stream (chats, tasks, the preferences) whose sequence number is
    /// greater than `after`, oldest first, at most `limit` of them: what a client that saw
    /// everything up to `after` has missed. Sequence numbers are sled's global increasing
    /// ids, so "after" is the same point in every stream. Bounded: the record area is read
    /// from `after` on, at most `limit` records, and each stream's legacy keys cost one seek
    /// and at most `limit` reads. Call again from the last one's `seq` for the next page;
    /// fewer than `limit` means there is no more now. A record this warden can't read is
    /// there, with the reason it is skipped.
    pub fn after(&self, after: u64, limit: usize) -> Result<Vec<(String, Entry)>, LogError> {
        let events = self.engine_now()?.events;
        // The `limit` smallest sequence numbers seen, the largest on top.
        let mut kept: std::collections::BinaryHeap<(u64, String, Vec<u8>)> =
            std::collections::BinaryHeap::new();
        if limit == 0 {
            return Ok(Vec::new());
        }
        let mut keep = |seq: u64, chat: &str, value: &[u8]| -> bool {
            if kept.len() == limit {
                match kept.peek() {
                    // This stream's later records are later still.
                    Some((top, _, _)) if *top < seq => return false,
                    _ => {
                        kept.pop();
                    }
                }
            }
            kept.push((seq, chat.to_string(), value.to_vec()));
            true
        };
        // A bundle that begins at or before `after` may hold records after it.
        let from = key::area(after.saturating_add(1));
        let start = events
            .range(key::area(0)..from.clone())
            .next_back()
            .transpose()
            .map_err(self.store())?
            .filter(|(_, value)| key::is_bundle(value))
            .map_or(from, |(key, _)| key.to_vec());
        let mut taken = 0;
        for item in events.range(start..) {
            let (key, value) = item.map_err(self.store())?;
            let Some(at) = key::area_seq(&key) else {
                continue;
            };
            for (seq, value) in key::area_records(at, &value) {
                let Some((prefix, record)) = key::area_value(value).filter(|_| seq > after) else {
                    continue;
                };
                keep(seq, &String::from_utf8_lossy(&prefix[2..]), record);
                taken += 1;
            }
            if taken >= limit {
                break;
            }
        }
        // What an older warden wrote, under each stream's own keys.
        for prefix in self.prefixes()? {
            let chat = String::from_utf8_lossy(&prefix[2..]).into_owned();
            let from = key::key(&prefix, after.saturating_add(1));
            let to = key::key(&prefix, u64::MAX);
            let legacy = events
                .range(from..=to)
                .filter(|item| {
                    item.as_ref()
                        .map_or(true, |(key, _)| key::run_first(key).is_none())
                })
                .take(limit);
            for item in legacy {
                let (key, value) = item.map_err(self.store())?;
                let Some(seq) = key::split(&key).1 else {
                    continue;
                };
                if !keep(seq, &chat, &value) {
                    break;
                }
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

    /// The newest sequence number in the log (0 when it is empty).
    pub fn newest(&self) -> Result<u64, LogError> {
        Ok(self
            .latest()?
            .into_iter()
            .map(|(_, seq)| seq)
            .max()
            .unwrap_or(0))
    }

    /// Every stream in the log with the sequence number of its newest record, in key order:
    /// one seek to each stream's last key.
    pub fn latest(&self) -> Result<Vec<(String, u64)>, LogError> {
        let events = self.engine_now()?.events;
        let pending: BTreeMap<Vec<u8>, u64> = self
            .pending()
            .by_chat
            .iter()
            .filter_map(|(prefix, seqs)| Some((prefix.clone(), *seqs.last()?)))
            .collect();
        let mut latest = Vec::new();
        for prefix in self.prefixes()? {
            let newest = self
                .newest_kept(&events, &prefix)?
                .max(pending.get(&prefix).copied().unwrap_or(0));
            if newest > 0 {
                latest.push((String::from_utf8_lossy(&prefix[2..]).into_owned(), newest));
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
        let engine = self.engine_now()?;
        let entries = self.stream(&engine, &prefix, 0)?;
        // The walk holds the engine while it lives, as a walk of sled's keys would: a reopen
        // meanwhile waits for it (and sled's lock on the folder with it).
        Ok(entries.into_iter().map(move |found| {
            let _held = &engine;
            Ok(found)
        }))
    }

    /// The records of one chat after sequence `after`, oldest first, each read or with the
    /// reason it was skipped: one seek into the chat's keys, and one read a record.
    pub fn records_after(&self, chat: &str, after: u64) -> Result<Vec<Entry>, LogError> {
        let prefix = key::prefix(chat)?;
        let engine = self.engine_now()?;
        let mut entries = self.stream(&engine, &prefix, after)?;
        entries.retain(|found| found.seq > after);
        Ok(entries)
    }

    /// The sequence number of the chat's newest record (0: none): one seek to its last key.
    pub fn end_of(&self, chat: &str) -> Result<u64, LogError> {
        let prefix = key::prefix(chat)?;
        let events = self.engine_now()?.events;
        let pending = self.pending().of(&prefix, 0).last().copied().unwrap_or(0);
        Ok(self.newest_kept(&events, &prefix)?.max(pending))
    }

    /// The sequence number of the newest record the chat's keys name (its last run's last,
    /// or its last legacy key's), 0 when none does.
    fn newest_kept(&self, events: &sled::Tree, prefix: &[u8]) -> Result<u64, LogError> {
        let last = events
            .range(key::key(prefix, 0)..=key::run(prefix, u64::MAX))
            .next_back()
            .transpose()
            .map_err(self.store())?;
        Ok(match last {
            Some((key, value)) if key::run_first(&key).is_some() => {
                key::run_seqs(&value).last().unwrap_or(0)
            }
            Some((key, _)) => key::split(&key).1.unwrap_or(0),
            None => 0,
        })
    }

    /// The chat brought back: sled has one writer by construction (its folder is locked),
    /// so there is nothing to take over from.
    pub fn take_over(&self, chat: &str) -> Result<Replayed, LogError> {
        self.chat(chat)
    }

    /// Every record of the log in one pass, each with its chat's id bytes: the legacy keys
    /// in key order (chat by chat), then the record area in sequence order (every chat at
    /// once), each read in order from sled's pages. What [`SledLog::replay_all`] and the
    /// report fold. A record area's value too short to name its chat names none to count it
    /// in, and is passed over.
    pub(crate) fn fold_all(&self, mut each: impl FnMut(&[u8], Entry)) -> Result<(), LogError> {
        let events = self.engine_now()?.events;
        for item in events.range::<&[u8], _>(..key::MARK) {
            let (key, value) = item.map_err(self.store())?;
            if key::run_first(&key).is_none() {
                each(key::split(&key).0, entry(&key, &value));
            }
        }
        for item in events.range(key::AREA.to_vec()..) {
            let (key, value) = item.map_err(self.store())?;
            let Some(at) = key::area_seq(&key) else {
                continue;
            };
            for (seq, value) in key::area_records(at, &value) {
                if let Some((prefix, record)) = key::area_value(value) {
                    let record = codec::read_record(record);
                    each(prefix.get(2..).unwrap_or_default(), Entry { seq, record });
                }
            }
        }
        Ok(())
    }

    /// Every chat replayed from its first event, ignoring snapshots, in one pass over the
    /// whole log, every chat folded at once and given in key order at the end: what
    /// `warden replay --check` and the replay bench walk. A key that names no chat is
    /// counted as skipped in the chat it names the bytes of.
    pub fn replay_all(&self) -> impl Iterator<Item = Result<(String, Replayed), LogError>> + '_ {
        let mut chats: BTreeMap<Vec<u8>, Replayed> = BTreeMap::new();
        let walked = self.fold_all(|chat, found| {
            chats
                .entry(prefix_of(chat))
                .or_default()
                .take(found.seq, found.record);
        });
        let (chats, failed) = match walked {
            Ok(()) => (chats, None),
            Err(e) => (BTreeMap::new(), Some(e)),
        };
        failed
            .map(Err)
            .into_iter()
            .chain(chats.into_iter().map(move |(prefix, replayed)| {
                match String::from_utf8(prefix.get(2..).unwrap_or_default().to_vec()) {
                    Ok(chat) => Ok((chat, replayed)),
                    Err(e) => Err(self.bad_key(e.as_bytes())),
                }
            }))
    }

    /// How many records the log holds, readable or not. Walks every key. 0 while the log is
    /// closed after a failure.
    pub fn len(&self) -> usize {
        self.read().as_ref().map_or(0, |engine| {
            held_and_pending(&engine.events).map_or(0, |(held, _)| held as usize)
        })
    }

    /// Whether the log holds no record (or is closed after a failure).
    pub fn is_empty(&self) -> bool {
        self.read().as_ref().is_none_or(|engine| {
            engine.events.range(key::AREA.to_vec()..).next().is_none()
                && !engine
                    .events
                    .range::<&[u8], _>(..key::MARK)
                    .keys()
                    .any(|key| key.map_or(true, |key| key::run_first(&key).is_none()))
        })
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

/// A record area's value as an [`Entry`] of the chat whose prefix is `prefix`.
fn area_entry(prefix: &[u8], seq: u64, value: &[u8]) -> Entry {
    match key::area_value(value) {
        Some((own, record)) if own == prefix => Entry {
            seq,
            record: codec::read_record(record),
        },
        _ => Entry {
            seq,
            record: Err(Skip::Key),
        },
    }
}

/// How many records the `events` tree holds (legacy keys and the record area's, readable
/// or not; no index run, no mark), and the records no index run covers yet: those after the
/// mark, read back from the record area.
fn held_and_pending(events: &sled::Tree) -> Result<(u64, Pending), sled::Error> {
    let mut held = 0;
    for key in events.range::<&[u8], _>(..key::MARK).keys() {
        if key::run_first(&key?).is_none() {
            held += 1;
        }
    }
    let mark = events
        .get(key::MARK)?
        .and_then(|value| <[u8; 8]>::try_from(value.as_ref()).ok())
        .map_or(0, u64::from_be_bytes);
    let mut pending = Pending {
        newest: mark,
        ..Pending::default()
    };
    // Every value of the area is read: a bundle holds several records (and one written
    // after the mark holds only records after it: a group is indexed whole).
    for item in events.range(key::AREA.to_vec()..) {
        let (key, value) = item?;
        let Some(at) = key::area_seq(&key) else {
            held += 1;
            continue;
        };
        for (seq, value) in key::area_records(at, &value) {
            held += 1;
            if seq > mark
                && let Some((prefix, _)) = key::area_value(value)
            {
                pending.push(prefix, seq);
            }
        }
    }
    Ok((held, pending))
}

/// The prefix a chat id's bytes make (however long: for sorting only).
pub(crate) fn prefix_of(chat: &[u8]) -> Vec<u8> {
    let len = u16::try_from(chat.len()).unwrap_or(u16::MAX);
    let mut prefix = len.to_be_bytes().to_vec();
    prefix.extend_from_slice(chat);
    prefix
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

    /// A log that writes its index runs every `every` records.
    fn indexing_every(dir: &Path, every: u32) -> Result<SledLog, LogError> {
        let mut log = SledLog::open(dir)?;
        log.index_every = every;
        Ok(log)
    }

    fn texts(entries: &[Entry]) -> Vec<(u64, String)> {
        entries
            .iter()
            .map(|found| match &found.record {
                Ok(Record {
                    event: Event::Said { text },
                    ..
                }) => (found.seq, text.clone()),
                other => (found.seq, format!("{other:?}")),
            })
            .collect()
    }

    /// Every read of the log against a model: each chat's records in order.
    fn holds(log: &SledLog, model: &BTreeMap<String, Vec<(u64, String)>>) -> Result<(), LogError> {
        let listed: Vec<String> = log.chats().collect::<Result<_, _>>()?;
        let mut expected: Vec<&String> = model.keys().collect();
        expected.sort_by_key(|chat| (chat.len(), chat.as_bytes().to_vec()));
        assert_eq!(listed.iter().collect::<Vec<_>>(), expected, "chats");
        let mut everything = Vec::new();
        for (chat, records) in model {
            let read = texts(&log.records(chat)?.collect::<Result<Vec<_>, _>>()?);
            assert_eq!(&read, records, "records of {chat}");
            let replayed = log.chat(chat)?;
            let since = replayed.snapshot.unwrap_or(0);
            let after_snapshot = records.iter().filter(|(seq, _)| *seq > since).count();
            assert_eq!(replayed.events as usize, after_snapshot, "{chat}");
            assert_eq!(
                replayed.last_seq,
                records.last().map_or(0, |r| r.0),
                "{chat}"
            );
            assert_eq!(log.end_of(chat)?, replayed.last_seq, "end of {chat}");
            for (i, (seq, _)) in records.iter().enumerate() {
                if i % 3 == 0 {
                    let after = texts(&log.records_after(chat, *seq)?);
                    assert_eq!(after, records[i + 1..], "{chat} after {seq}");
                }
            }
            everything.extend(
                records
                    .iter()
                    .map(|(seq, text)| (*seq, chat.clone(), text.clone())),
            );
        }
        everything.sort();
        let mut paged = Vec::new();
        let mut from = 0;
        loop {
            let page = log.after(from, 5)?;
            for (chat, found) in &page {
                let (seq, text) = texts(std::slice::from_ref(found)).remove(0);
                paged.push((seq, chat.clone(), text));
                from = seq;
            }
            if page.len() < 5 {
                break;
            }
        }
        assert_eq!(paged, everything, "after");
        let latest: BTreeMap<String, u64> = log.latest()?.into_iter().collect();
        let newest: BTreeMap<String, u64> = model
            .iter()
            .map(|(chat, records)| (chat.clone(), records.last().map_or(0, |r| r.0)))
            .collect();
        assert_eq!(latest, newest, "latest");
        let replayed: Vec<(String, u64)> = log
            .replay_all()
            .map(|each| each.map(|(chat, replayed)| (chat, replayed.events)))
            .collect::<Result<_, _>>()?;
        let counted: Vec<(String, u64)> = expected
            .iter()
            .map(|chat| ((*chat).clone(), model[*chat].len() as u64))
            .collect();
        assert_eq!(replayed, counted, "replay_all");
        assert_eq!(log.len(), everything.len(), "len");
        assert_eq!(log.is_empty(), everything.is_empty(), "is_empty");
        Ok(())
    }

    #[test]
    fn index_runs_pending_records_and_reopens_read_the_same()
    -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let chats = ["c1", "c2", "c10", "a longer chat", "~preferences"];
        let mut model: BTreeMap<String, Vec<(u64, String)>> = BTreeMap::new();
        let mut log = indexing_every(dir.path(), 7)?;
        holds(&log, &model)?;
        let mut n = 0;
        for round in 0..6 {
            for step in 0..(5 + round * 3) {
                n += 1;
                let chat = chats[(step * 7 + round) % chats.len()];
                let text = format!("r{round} s{step}");
                if step % 4 == 0 {
                    let other = chats[(step + 1) % chats.len()];
                    let seqs = log.append_batch(&[
                        (chat, said(n, &text)),
                        (other, said(n, &format!("{text} too"))),
                    ])?;
                    model
                        .entry(chat.to_string())
                        .or_default()
                        .push((seqs[0], text.clone()));
                    model
                        .entry(other.to_string())
                        .or_default()
                        .push((seqs[1], format!("{text} too")));
                } else {
                    let seq = log.append(chat, &said(n, &text))?;
                    model.entry(chat.to_string()).or_default().push((seq, text));
                }
                if step % 5 == 0 {
                    holds(&log, &model)?;
                }
            }
            log.flush()?;
            holds(&log, &model)?;
            if round % 2 == 0 {
                log.reopen()?;
            } else {
                drop(log);
                log = indexing_every(dir.path(), 7)?;
            }
            holds(&log, &model)?;
        }
        // Runs were written, and records are left pending too.
        let events = log.engine_now()?.events;
        assert!(
            events
                .iter()
                .keys()
                .filter_map(Result::ok)
                .any(|k| key::run_first(&k).is_some())
        );
        assert!(log.pending().count > 0 || model.values().map(Vec::len).sum::<usize>() % 7 == 0);
        Ok(())
    }

    #[test]
    fn a_chat_comes_back_from_its_snapshot_through_its_runs()
    -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let log = indexing_every(dir.path(), 4)?;
        let mut seqs = Vec::new();
        for i in 0..10 {
            seqs.push(log.append("c1", &said(i, &format!("m{i}")))?);
            log.append("c2", &said(i, "other"))?;
        }
        let at = log.chat("c1")?;
        assert_eq!(at.events, 10);
        // A snapshot in the middle of a run: the run's later records still come back.
        let mut early = ChatState::default();
        for found in log.records("c1")?.take(5) {
            if let Ok(record) = found?.record {
                early.apply(&record);
            }
        }
        assert!(log.snapshot("c1", seqs[4], &early)?);
        let replayed = log.chat("c1")?;
        assert_eq!((replayed.snapshot, replayed.events), (Some(seqs[4]), 5));
        assert_eq!(replayed.state, at.state);
        Ok(())
    }

    /// A log an older warden wrote: each record under its chat's key. It is read as it is,
    /// beside what this warden appends to it.
    #[test]
    fn a_log_in_the_old_layout_is_read_and_appended_to() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let mut model: BTreeMap<String, Vec<(u64, String)>> = BTreeMap::new();
        {
            // What the older warden did: sled's id plus one, under the chat's key.
            let db = sled::Config::new().path(dir.path()).open()?;
            let events = db.open_tree("events")?;
            for i in 0..12_i64 {
                let chat = ["c1", "c2", "old only"][(i % 3) as usize];
                let seq = db.generate_id()? + 1;
                let text = format!("old {i}");
                events.insert(
                    key::key(&key::prefix(chat)?, seq),
                    codec::write_record(&said(i, &text))?,
                )?;
                model.entry(chat.to_string()).or_default().push((seq, text));
            }
            db.flush()?;
        }
        let mut log = indexing_every(dir.path(), 5)?;
        holds(&log, &model)?;
        let old = log.chat("c1")?;
        assert!(log.snapshot("c1", old.last_seq, &old.state)?);
        for i in 0..9_i64 {
            let chat = ["c1", "c2", "new only"][(i % 3) as usize];
            let text = format!("new {i}");
            let seq = log.append(chat, &said(i, &text))?;
            model.entry(chat.to_string()).or_default().push((seq, text));
        }
        holds(&log, &model)?;
        let replayed = log.chat("c1")?;
        assert_eq!(
            (replayed.snapshot, replayed.events),
            (Some(old.last_seq), 3)
        );
        log.flush()?;
        drop(log);
        log = indexing_every(dir.path(), 5)?;
        holds(&log, &model)?;
        let report = log.report()?;
        assert_eq!((report.chats, report.events, report.skipped), (4, 21, 0));
        assert!(report.wrong_snapshots.is_empty());
        Ok(())
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
