//! The log's writer: one thread owns the writes. Chats, tasks and the runtime hand it their
//! appends through a [`LogHandle`]; it takes every append waiting, writes them in one batch,
//! flushes once, and only then acknowledges them all (group commit). No async thread ever
//! waits on the disk, and an append costs one hand-over to the writer and one wake-up back,
//! not an actor's mailbox in between; a record nobody waits for (a judged step that counted
//! nothing) costs the hand-over alone ([`LogHandle::hand`]).
//!
//! An append is one operation, whole: the records of one stream or of several (a task's
//! opening with its chat's `TaskCreated`; an answer with the preference it keeps), written in
//! one batch, so that after a crash all of it is there or none of it.
//!
//! The writer keeps the person's preferences in memory too: it folds their stream at start,
//! and applies each record of it once it is durable, in the log's order, before it
//! acknowledges it. It is the only one that changes them, and it publishes each change as a
//! new read-only snapshot ([`Preferences`] in an `Arc`, on a `watch` channel): a reader
//! takes the latest with [`LogWriter::preferences`]'s receiver, and nobody waits on a lock
//! anyone else holds for longer than an `Arc`'s clone.
//!
//! Its [`Standing`] says whether it writes. A write or a flush that failed (a full disk)
//! refuses every append with the reason while the writer opens the log again and probes it,
//! until a write goes through; then it writes again by itself. A writer whose thread ended
//! without being closed (a panic) is stopped for good: the daemon stops serving judges and
//! exits, so that its service manager starts it again.

use super::error::{Reading, RuntimeError, StartCause, WriteError};
use super::feed::Feed;
use super::fence::Fences;
use super::panic_text;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, watch};
use warden::chat::{ChatState, Record};
use warden::preferences::{Preferences, STREAM};
use warden_storage::{EventLog, LogError};

/// The most appends one flush acknowledges; more wait for the next.
pub const GROUP_MAX: usize = 4_096;

/// How long a record that nobody waits for may stay unflushed: the writer flushes it by then
/// even when no waiting append comes to carry it.
pub const FLUSH_BOUND: Duration = Duration::from_millis(20);

/// How long the writer lets appends gather after a group nobody waited for (records of
/// routine steps only) before it takes the next: a chat that hands one over then doesn't
/// wake the writer's thread, and the writer takes them many at a time. An append that waits
/// comes at most this much later to its group.
pub const GATHER: Duration = Duration::from_millis(1);

/// How many appends nobody waits for may be in the writer's channel before a chat waits for
/// the writer to take its own (the old way): the channel never grows past what the writer
/// takes in a few groups, however far the chats run ahead of it.
pub const HANDED_MAX: usize = GROUP_MAX;

/// How long a failed log waits before the writer opens it again; the pause doubles after
/// each try that fails, up to [`RETRY_MAX`].
pub const RETRY_FIRST: Duration = Duration::from_millis(50);

/// The longest pause between two tries to open a failed log again.
pub const RETRY_MAX: Duration = Duration::from_secs(1);

/// How long a caller whose append the writer dropped waits for the writer to say why.
const WHY_WAIT: Duration = Duration::from_millis(500);

/// Records for one or more streams, written as one unit.
pub type Streams = Vec<(String, Vec<Record>)>;

/// What an operation's append answers: for each of its streams, in the order given, the
/// sequence number of its last record and its records, handed back so the caller applies
/// them without having kept a copy.
pub type Written = Result<Vec<(u64, Vec<Record>)>, WriteError>;

/// What a one-stream append answers: its last sequence number and its records.
pub type Appended = Result<(u64, Vec<Record>), WriteError>;

/// Whether the writer writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// Appends are written, flushed and acknowledged.
    Writing,
    /// A write or a flush failed: every append is refused with this reason until the log is
    /// opened again and a write goes through, which the writer tries by itself.
    Failing(String),
    /// The writer's thread ended without being closed (it panicked): nothing more is
    /// written, for good.
    Stopped(String),
    /// Closed at shutdown.
    Closed,
}

impl Standing {
    /// Why appends are refused, when they are for a failure (a log closed at shutdown is not
    /// one).
    pub fn trouble(&self) -> Option<&str> {
        match self {
            Standing::Failing(reason) | Standing::Stopped(reason) => Some(reason),
            Standing::Writing | Standing::Closed => None,
        }
    }
}

/// A fault the writer can be told to have, for tests of what its failures do (never
/// reachable from the HTTP API).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Write this many more appends, then panic instead of writing the group that holds the
    /// next one: a crash between two writes.
    PanicBeforeWrite(u64),
    /// Write this many more appends, then write and flush the group that holds the next one
    /// and panic before answering it: a crash that loses the acknowledgement.
    PanicBeforeAnswer(u64),
}

/// What the writer does.
enum Job {
    /// Append an operation's records; the reply comes once they are durable, or once they
    /// are written when `wait` is false.
    Append {
        streams: Streams,
        wait: bool,
        reply: oneshot::Sender<Written>,
    },
    /// Keep a snapshot of a chat's state at a sequence number (best effort).
    Snapshot {
        chat: String,
        seq: u64,
        state: Box<ChatState>,
    },
    /// Flush now and say when done.
    Flush(oneshot::Sender<Result<(), WriteError>>),
    /// Flush, answer, and stop: the log closes once the writer's thread ends.
    Close(oneshot::Sender<Result<(), WriteError>>),
    /// Have a fault (tests).
    Fault(Fault),
    /// Fold the preferences again from the log, publish them, and answer the sequence of
    /// their newest record: another node may have appended some (`docs/cluster.md`).
    Refold(oneshot::Sender<Result<u64, WriteError>>),
    /// A chat was read from the log at this sequence (its replay or takeover) and comes into
    /// memory: in a cluster, its writes are fenced there from now on ([`Fences::know`]).
    Known { chat: String, seq: u64 },
    /// A chat left memory: its fence is forgotten; what brings it back reads it again.
    Forget(String),
}

/// The way to the writer: cheap to clone, one per chat, task and the runtime.
#[derive(Clone)]
pub struct LogHandle {
    jobs: Sender<Job>,
    standing: watch::Receiver<Standing>,
    /// How many appends handed over with nobody waiting are still in the channel: the
    /// writer takes one off each it takes in.
    handed: Arc<AtomicUsize>,
}

impl LogHandle {
    /// Appends a chat's records; returns the last sequence number once they are durable.
    pub async fn append(&self, chat: String, records: Vec<Record>) -> Result<u64, WriteError> {
        self.append_returning(chat, records)
            .await
            .map(|(seq, _)| seq)
    }

    /// Appends a chat's records and hands them back once they are durable.
    pub async fn append_returning(&self, chat: String, records: Vec<Record>) -> Appended {
        let mut written = self.send(vec![(chat, records)]).await?;
        written.pop().ok_or(WriteError::Unanswered)
    }

    /// Hands the writer a chat's records that change no later decision (a judged step that
    /// counted nothing) without waiting for it: they are written after every append handed
    /// before them and before every one handed after, and made durable by the same group's
    /// flush or one within [`FLUSH_BOUND`]. What the writer answered is taken from the
    /// [`Later`] when the chat next looks; a writer already gone refuses them at once.
    pub fn hand(&self, chat: String, records: Vec<Record>) -> Result<Later, WriteError> {
        let (reply, answer) = oneshot::channel();
        // INVARIANT: a preference is applied only once it is durable, so it always waits.
        let wait = chat == STREAM;
        let job = Job::Append {
            streams: vec![(chat, records)],
            wait,
            reply,
        };
        // Counted before it is sent, so the writer never takes off one not counted yet.
        if !wait {
            self.handed.fetch_add(1, Ordering::Relaxed);
        }
        if self.jobs.send(job).is_err() {
            return Err(self.gone());
        }
        Ok(Later(answer))
    }

    /// Whether the writer is behind: [`HANDED_MAX`] appends nobody waits for are in its
    /// channel. A chat then waits for its record to be written before it answers.
    pub fn is_behind(&self) -> bool {
        self.handed.load(Ordering::Relaxed) >= HANDED_MAX
    }

    /// Why the writer is gone, as its standing says now (without waiting for it to say).
    fn gone(&self) -> WriteError {
        let why = match &*self.standing.borrow() {
            Standing::Stopped(reason) => reason.clone(),
            Standing::Closed => "it was closed".to_string(),
            _ => "it did not say why".to_string(),
        };
        WriteError::Stopped { why }
    }

    /// Appends one operation's records over several streams as one unit (all of it is in
    /// the log after a crash, or none of it); answers each stream's once they are durable.
    pub async fn append_streams(&self, streams: Streams) -> Written {
        self.send(streams).await
    }

    async fn send(&self, streams: Streams) -> Written {
        let (reply, answer) = oneshot::channel();
        let job = Job::Append {
            streams,
            wait: true,
            reply,
        };
        if self.jobs.send(job).is_err() {
            return Err(self.why_stopped().await);
        }
        match answer.await {
            Ok(written) => written,
            Err(_) => Err(self.why_stopped().await),
        }
    }

    /// Why the writer dropped a job: its standing once its thread has said (it says so as
    /// it ends, just after the jobs it held are dropped).
    async fn why_stopped(&self) -> WriteError {
        let mut standing = self.standing.clone();
        let said = tokio::time::timeout(
            WHY_WAIT,
            standing.wait_for(|s| matches!(s, Standing::Stopped(_) | Standing::Closed)),
        )
        .await;
        let why = match said {
            Ok(Ok(standing)) => match &*standing {
                Standing::Stopped(reason) => reason.clone(),
                _ => "it was closed".to_string(),
            },
            _ => "it did not say why".to_string(),
        };
        WriteError::Stopped { why }
    }

    /// Keeps a snapshot of a chat's state (best effort: replay reads the events without it).
    pub fn snapshot(&self, chat: String, seq: u64, state: Box<ChatState>) {
        let _ = self.jobs.send(Job::Snapshot { chat, seq, state });
    }

    /// Flushes whatever was written.
    pub async fn flush(&self) -> Result<(), WriteError> {
        let (reply, answer) = oneshot::channel();
        if self.jobs.send(Job::Flush(reply)).is_err() {
            return Err(self.why_stopped().await);
        }
        match answer.await {
            Ok(flushed) => flushed,
            Err(_) => Err(self.why_stopped().await),
        }
    }

    /// Whether the writer writes, as it stands.
    pub fn standing(&self) -> Standing {
        self.standing.borrow().clone()
    }

    /// Waits until the writer has stopped for good, and says why. A writer closed at
    /// shutdown never resolves it.
    pub async fn stopped_for_good(&self) -> String {
        let mut standing = self.standing.clone();
        let said = standing
            .wait_for(|s| matches!(s, Standing::Stopped(_)))
            .await
            .map(|standing| standing.trouble().map(str::to_string));
        if let Ok(Some(reason)) = said {
            return reason;
        }
        // The writer's side went with its thread, after saying how it ended: if that was a
        // stop, it is the last value seen.
        let last = self.standing();
        match last {
            Standing::Stopped(reason) => reason,
            _ => std::future::pending().await,
        }
    }

    /// Tells the writer a chat comes into memory read from the log up to `seq`: sent before
    /// its actor starts, so before any of its appends.
    pub fn know(&self, chat: String, seq: u64) {
        let _ = self.jobs.send(Job::Known { chat, seq });
    }

    /// Tells the writer a chat left memory: sent after its actor stopped, so after its
    /// appends.
    pub fn forget(&self, chat: String) {
        let _ = self.jobs.send(Job::Forget(chat));
    }

    /// Gives the writer a fault (tests).
    pub fn inject(&self, fault: Fault) {
        let _ = self.jobs.send(Job::Fault(fault));
    }

    /// Folds the preferences again from the log (what this process's log shows of it) and
    /// publishes them; answers the sequence of their newest record.
    pub async fn refold(&self) -> Result<u64, WriteError> {
        let (reply, answer) = oneshot::channel();
        if self.jobs.send(Job::Refold(reply)).is_err() {
            return Err(self.why_stopped().await);
        }
        match answer.await {
            Ok(folded) => folded,
            Err(_) => Err(self.why_stopped().await),
        }
    }
}

/// An append handed to the writer that nobody waits for ([`LogHandle::hand`]): what the
/// writer answered, once it has. The writer answers by setting it, waking nobody.
pub struct Later(oneshot::Receiver<Written>);

impl Later {
    /// What the writer answered, if it has: its last sequence number and its records, or why
    /// they were not written.
    pub fn answered(&mut self, log: &LogHandle) -> Option<Appended> {
        match self.0.try_recv() {
            Ok(written) => Some(written.and_then(|mut w| w.pop().ok_or(WriteError::Unanswered))),
            Err(oneshot::error::TryRecvError::Empty) => None,
            Err(oneshot::error::TryRecvError::Closed) => Some(Err(log.gone())),
        }
    }

    /// Waits for what the writer answers.
    pub async fn wait(self, log: &LogHandle) -> Appended {
        match self.0.await {
            Ok(written) => written.and_then(|mut w| w.pop().ok_or(WriteError::Unanswered)),
            Err(_) => Err(log.why_stopped().await),
        }
    }
}

/// The writer's thread, owned by the supervisor.
pub struct LogWriter {
    handle: LogHandle,
    thread: Option<JoinHandle<()>>,
    /// What closing answered, once it did.
    closed: Option<Result<(), WriteError>>,
    /// The preferences as the writer last published them.
    preferences: watch::Receiver<Arc<Preferences>>,
    /// The log sequence of the newest preferences record they hold.
    preferences_seq: watch::Receiver<u64>,
}

/// The person's preferences, folded from their stream in the log, and the sequence of its
/// newest record (0: none).
fn preferences_of(log: &EventLog) -> Result<(Preferences, u64), LogError> {
    let mut preferences = Preferences::default();
    let mut newest = 0;
    for entry in log.records(STREAM)? {
        let entry = entry?;
        newest = newest.max(entry.seq);
        if let Ok(record) = entry.record {
            preferences.apply(&record);
        }
    }
    Ok((preferences, newest))
}

/// Whether an error is the engine's (the disk, sled), not one append's (a record that can't
/// be encoded, a chat id too long for a key).
fn is_engine(error: &LogError) -> bool {
    matches!(error, LogError::Store { .. } | LogError::Closed { .. })
}

impl LogWriter {
    /// Starts the writer's thread on an open log, with the preferences folded from their
    /// stream first.
    pub fn start(log: Arc<EventLog>, feed: Arc<Feed>) -> Result<LogWriter, RuntimeError> {
        Self::start_with(log, feed, None)
    }

    /// [`LogWriter::start`]; with `fences`, in a cluster, every chat's write is fenced at the
    /// last sequence this node knows for it (`fence.rs`).
    pub(crate) fn start_with(
        log: Arc<EventLog>,
        feed: Arc<Feed>,
        fences: Option<Fences>,
    ) -> Result<LogWriter, RuntimeError> {
        let (folded, newest) = preferences_of(&log).map_err(|cause| RuntimeError::Read {
            what: Reading::Preferences,
            cause,
        })?;
        let (preferences, published) = watch::channel(Arc::new(folded));
        let (preferences_seq, published_seq) = watch::channel(newest);
        let (jobs, receiver) = channel();
        let (standing, watching) = watch::channel(Standing::Writing);
        let handed = Arc::new(AtomicUsize::new(0));
        let taken = Arc::clone(&handed);
        let thread = std::thread::Builder::new()
            .name("warden-log".to_string())
            .spawn(move || {
                let mut writer = Writer {
                    log,
                    preferences,
                    preferences_seq,
                    feed,
                    standing,
                    fault: None,
                    failing: None,
                    handed: taken,
                    fences,
                };
                let ended = std::panic::catch_unwind(AssertUnwindSafe(|| writer.run(&receiver)));
                let standing = match ended {
                    Ok(()) => Standing::Closed,
                    Err(panic) => {
                        let reason = format!(
                            "the event log's writer panicked ({}): nothing more is written, and warden stops so that its service manager starts it again",
                            panic_text(panic.as_ref())
                        );
                        tracing::error!(error = %reason, "the event log's writer stopped");
                        Standing::Stopped(reason)
                    }
                };
                // Said before the jobs still queued are dropped with the receiver.
                writer.standing.send_replace(standing);
                drop(receiver);
            })
            .map_err(|e| RuntimeError::Start {
                part: super::error::Part::Writer,
                cause: StartCause::Thread(Arc::new(e)),
            })?;
        Ok(LogWriter {
            handle: LogHandle {
                jobs,
                standing: watching,
                handed,
            },
            thread: Some(thread),
            closed: None,
            preferences: published,
            preferences_seq: published_seq,
        })
    }

    /// The person's preferences, as the writer publishes them: `borrow()` gives the latest
    /// snapshot (clone the `Arc` and let the borrow go; the writer waits for it to publish).
    pub fn preferences(&self) -> watch::Receiver<Arc<Preferences>> {
        self.preferences.clone()
    }

    /// The log sequence of the newest preferences record the published preferences hold:
    /// what a node tells the others it appended (`docs/cluster.md`).
    pub fn preferences_seq(&self) -> watch::Receiver<u64> {
        self.preferences_seq.clone()
    }

    /// A handle for a chat, a task or the runtime.
    pub fn handle(&self) -> LogHandle {
        self.handle.clone()
    }

    /// Whether [`LogWriter::close`] was called.
    pub fn is_closed(&self) -> bool {
        self.closed.is_some()
    }

    /// Flushes, stops the writer and waits for its thread: whatever was acknowledged is on
    /// disk, and the writer no longer holds the log. Appends after this are refused. An
    /// error says the last flush failed (or the writer was gone): never claimed as done.
    /// Called again, answers what it answered the first time.
    pub async fn close(&mut self) -> Result<(), WriteError> {
        if let Some(closed) = &self.closed {
            return closed.clone();
        }
        let (reply, answer) = oneshot::channel();
        let closed = match self.handle.jobs.send(Job::Close(reply)) {
            Ok(()) => match answer.await {
                Ok(closed) => closed,
                Err(_) => Err(self.handle.why_stopped().await),
            },
            Err(_) => Err(self.handle.why_stopped().await),
        };
        if let Some(thread) = self.thread.take() {
            let _ = tokio::task::spawn_blocking(move || thread.join()).await;
        }
        self.closed = Some(closed.clone());
        closed
    }
}

/// An append taken from the channel, waiting for its group to be written.
struct Append {
    streams: Streams,
    wait: bool,
    reply: oneshot::Sender<Written>,
}

/// An append written and waiting for the flush: its reply, and each stream's name, its
/// records' sequence numbers and its records.
type Waiting = (
    oneshot::Sender<Written>,
    Vec<(String, Vec<u64>, Vec<Record>)>,
);

/// A stream's last sequence number and its records, as an append answers them.
fn answered(streams: Vec<(String, Vec<u64>, Vec<Record>)>) -> Vec<(u64, Vec<Record>)> {
    streams
        .into_iter()
        .map(|(_, seqs, records)| (seqs.last().copied().unwrap_or(0), records))
        .collect()
}

/// The jobs taken together: written in one batch, flushed once.
#[derive(Default)]
struct Group {
    appends: Vec<Append>,
    flushes: Vec<oneshot::Sender<Result<(), WriteError>>>,
    close: Option<oneshot::Sender<Result<(), WriteError>>>,
}

impl Group {
    /// Whether it holds appends and nobody waits for any of it.
    fn is_unwaited(&self) -> bool {
        !self.appends.is_empty()
            && self.appends.iter().all(|append| !append.wait)
            && self.flushes.is_empty()
            && self.close.is_none()
    }
}

/// A log that can't be written, and when the writer tries it again.
struct Failing {
    reason: Arc<LogError>,
    since: Instant,
    pause: Duration,
    retry_at: Instant,
}

/// The writer's thread's state.
struct Writer {
    log: Arc<EventLog>,
    /// Where the preferences are published; only this writer sends on it.
    preferences: watch::Sender<Arc<Preferences>>,
    /// The sequence of the newest preferences record published.
    preferences_seq: watch::Sender<u64>,
    /// Where durable records are handed on (`GET /v1/events`).
    feed: Arc<Feed>,
    standing: watch::Sender<Standing>,
    /// An injected fault, counting down the appends still answered before it.
    fault: Option<Fault>,
    /// `Some` while the log can't be written.
    failing: Option<Failing>,
    /// The handles' count of appends handed over with nobody waiting and not taken yet.
    handed: Arc<AtomicUsize>,
    /// In a cluster, the last sequence this node knows for each chat it writes: each chat
    /// of a group is fenced there.
    fences: Option<Fences>,
}

impl Writer {
    /// The writer's loop: group commit. Every append waiting is written in one batch; the
    /// group is flushed once if anyone waits for durability, and records nobody waits for are
    /// flushed within [`FLUSH_BOUND`] (sled's own flusher is the last resort). While the log
    /// is failing, every job is answered with the reason at once, and the log is opened again
    /// at each pause's end.
    fn run(&mut self, jobs: &Receiver<Job>) {
        // Since when records nobody waits for are written and not flushed.
        let mut unflushed: Option<Instant> = None;
        loop {
            // Due whether or not jobs keep coming: a steady stream of refused requests must
            // not keep the log from being opened again.
            if self
                .failing
                .as_ref()
                .is_some_and(|failing| Instant::now() >= failing.retry_at)
            {
                self.recover();
            }
            let deadline = match (&self.failing, unflushed) {
                (Some(failing), _) => Some(failing.retry_at),
                (None, Some(since)) => Some(since + FLUSH_BOUND),
                (None, None) => None,
            };
            let first = match deadline {
                Some(at) => match jobs.recv_timeout(at.saturating_duration_since(Instant::now())) {
                    Ok(job) => job,
                    Err(RecvTimeoutError::Timeout) => {
                        if self.failing.is_some() {
                            self.recover();
                        } else if let Err(e) = self.log.flush() {
                            self.fail(e);
                        }
                        unflushed = None;
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => break,
                },
                None => match jobs.recv() {
                    Ok(job) => job,
                    Err(_) => break,
                },
            };
            let group = self.gather(first, jobs);
            let unwaited = group.is_unwaited();
            if self.commit(group, &mut unflushed) {
                return;
            }
            if unwaited && self.failing.is_none() {
                // Not in `recv` meanwhile: handing a record over wakes nobody.
                std::thread::sleep(GATHER);
            }
        }
        // Every handle is gone: whatever was written is flushed before the thread ends.
        if self.failing.is_none() {
            let _ = self.log.flush();
        }
    }

    /// Takes every job waiting, up to [`GROUP_MAX`], and up to a close.
    fn gather(&mut self, first: Job, jobs: &Receiver<Job>) -> Group {
        let mut group = Group::default();
        let mut next = Some(first);
        let mut taken = 0;
        while let Some(job) = next.take() {
            taken += 1;
            match job {
                Job::Append {
                    streams,
                    wait,
                    reply,
                } => {
                    if !wait {
                        self.handed.fetch_sub(1, Ordering::Relaxed);
                    }
                    group.appends.push(Append {
                        streams,
                        wait,
                        reply,
                    });
                }
                Job::Snapshot { chat, seq, state } => self.snapshot(&chat, seq, &state),
                Job::Flush(reply) => group.flushes.push(reply),
                Job::Fault(fault) => self.fault = Some(fault),
                // Everything acknowledged before it is in the log already: the fold holds it,
                // and this group's own preferences are applied over it once durable.
                Job::Refold(reply) => {
                    let _ = reply.send(self.refold());
                }
                Job::Known { chat, seq } => {
                    if let Some(fences) = &mut self.fences {
                        fences.know(chat, seq);
                    }
                }
                Job::Forget(chat) => {
                    if let Some(fences) = &mut self.fences {
                        fences.forget(&chat);
                    }
                }
                // Whatever came before it is still written and acknowledged; nothing after.
                Job::Close(reply) => {
                    group.close = Some(reply);
                    break;
                }
            }
            if taken < GROUP_MAX {
                next = jobs.try_recv().ok();
            }
        }
        group
    }

    fn refold(&mut self) -> Result<u64, WriteError> {
        if let Some(failing) = &self.failing {
            return Err(WriteError::Refused(Arc::clone(&failing.reason)));
        }
        let (preferences, newest) = preferences_of(&self.log)?;
        self.publish_preferences(preferences, newest);
        Ok(newest)
    }

    /// Publishes new preferences, which hold the records up to `newest`.
    fn publish_preferences(&self, preferences: Preferences, newest: u64) {
        self.preferences.send_replace(Arc::new(preferences));
        self.preferences_seq.send_if_modified(|seq| {
            let newer = newest > *seq;
            *seq = (*seq).max(newest);
            newer
        });
    }

    fn snapshot(&mut self, chat: &str, seq: u64, state: &ChatState) {
        if self.failing.is_some() {
            return;
        }
        match self.log.snapshot(chat, seq, state) {
            Ok(_) => {}
            Err(e) if is_engine(&e) => drop(self.fail(e)),
            Err(e) => {
                tracing::warn!(chat, seq, error = %e, "a snapshot could not be written; replay reads the events instead");
            }
        }
    }

    /// Writes a group, flushes it when someone waits, and answers. Whether it closed.
    fn commit(&mut self, group: Group, unflushed: &mut Option<Instant>) -> bool {
        if self.failing.is_some() && group.close.is_some() {
            // One more try at the end, so that a log writable again closes cleanly.
            self.recover();
        }
        if let Some(failing) = &self.failing {
            let refused = || WriteError::Refused(Arc::clone(&failing.reason));
            for append in group.appends {
                let _ = append.reply.send(Err(refused()));
            }
            for reply in group.flushes {
                let _ = reply.send(Err(refused()));
            }
            if let Some(reply) = group.close {
                let _ = reply.send(Err(refused()));
                return true;
            }
            return false;
        }
        let crash = self.fault_due(group.appends.len());
        if crash == Some(Crash::BeforeWrite) {
            crash_here();
        }
        let waiting = self.written(group.appends);
        let must = !waiting.is_empty() || !group.flushes.is_empty() || group.close.is_some();
        if !must && self.failing.is_none() {
            // Only records nobody waits for: flushed within FLUSH_BOUND of the first of them.
            let since = *unflushed.get_or_insert_with(Instant::now);
            if since.elapsed() < FLUSH_BOUND {
                return false;
            }
        }
        tracing::trace!(waiting = waiting.len(), "group commit");
        let flushed = match &self.failing {
            Some(failing) => Err(WriteError::Refused(Arc::clone(&failing.reason))),
            None => match self.log.flush() {
                Ok(()) => Ok(()),
                Err(e) => Err(WriteError::Refused(self.fail(e))),
            },
        };
        *unflushed = None;
        if flushed.is_ok() {
            self.keep_preferences(&waiting);
            self.feed.publish(waiting.iter().flat_map(|(_, streams)| {
                streams.iter().flat_map(|(stream, seqs, records)| {
                    seqs.iter()
                        .zip(records)
                        .map(move |(seq, record)| (stream.as_str(), *seq, record))
                })
            }));
        }
        if crash == Some(Crash::BeforeAnswer) {
            crash_here();
        }
        for (reply, streams) in waiting {
            let answer = flushed.clone().map(|()| answered(streams));
            let _ = reply.send(answer);
        }
        for reply in group.flushes {
            let _ = reply.send(flushed.clone());
        }
        if let Some(reply) = group.close {
            // Appends still queued behind the close are refused when their senders see the
            // channel closed (their reply ports drop with the receiver).
            let _ = reply.send(flushed);
            return true;
        }
        false
    }

    /// Writes a group's appends, in one batch when it can (one append that can't be encoded
    /// then fails alone, each other one still one batch of its own): answers those nobody
    /// waits for at once, and returns those waiting for the flush. A failure of the engine
    /// fails them all and the log with them.
    fn written(&mut self, appends: Vec<Append>) -> Vec<Waiting> {
        if appends.is_empty() {
            return Vec::new();
        }
        let items = |append: &Append| -> Vec<(String, usize)> {
            append
                .streams
                .iter()
                .map(|(stream, records)| (stream.clone(), records.len()))
                .collect()
        };
        let all: Vec<(&str, &Record)> = appends
            .iter()
            .flat_map(|a| {
                a.streams
                    .iter()
                    .flat_map(|(stream, records)| records.iter().map(|r| (stream.as_str(), r)))
            })
            .collect();
        // One batch for the group; when that fails for one append's sake (a record that can't
        // be encoded, a chat refused by its fence), each append is written again alone.
        let combined = super::fence::append(&self.log, self.fences.as_mut(), &all);
        let outcomes: Vec<Result<Vec<u64>, WriteError>> = match combined {
            Ok(seqs) => {
                let mut seqs = seqs.into_iter();
                appends
                    .iter()
                    .map(|a| {
                        let n = a.streams.iter().map(|(_, r)| r.len()).sum();
                        Ok(seqs.by_ref().take(n).collect())
                    })
                    .collect()
            }
            Err(e) if is_engine(&e) => {
                let failure = self.fail(e);
                appends
                    .iter()
                    .map(|_| Err(WriteError::Refused(Arc::clone(&failure))))
                    .collect()
            }
            // One append: its own failure, not written again.
            Err(e) if appends.len() == 1 => vec![Err(WriteError::from(e))],
            _ => appends
                .iter()
                .map(|a| {
                    if let Some(failing) = &self.failing {
                        return Err(WriteError::Refused(Arc::clone(&failing.reason)));
                    }
                    let own: Vec<(&str, &Record)> = a
                        .streams
                        .iter()
                        .flat_map(|(stream, records)| records.iter().map(|r| (stream.as_str(), r)))
                        .collect();
                    super::fence::append(&self.log, self.fences.as_mut(), &own).map_err(|e| {
                        if is_engine(&e) {
                            WriteError::Refused(self.fail(e))
                        } else {
                            WriteError::from(e)
                        }
                    })
                })
                .collect(),
        };
        let mut waiting = Vec::new();
        for (append, outcome) in appends.into_iter().zip(outcomes) {
            let seqs = match outcome {
                Ok(seqs) => seqs,
                Err(e) => {
                    let _ = append.reply.send(Err(e));
                    continue;
                }
            };
            let shape = items(&append);
            let mut seqs = seqs.into_iter();
            let streams: Vec<(String, Vec<u64>, Vec<Record>)> = append
                .streams
                .into_iter()
                .zip(shape)
                .map(|((stream, records), (_, n))| {
                    (stream, seqs.by_ref().take(n).collect(), records)
                })
                .collect();
            if append.wait {
                waiting.push((append.reply, streams));
            } else {
                let _ = append.reply.send(Ok(answered(streams)));
            }
        }
        waiting
    }

    /// Applies the preferences' records of a durable group, in the log's order.
    fn keep_preferences(&self, waiting: &[Waiting]) {
        let mut records = waiting
            .iter()
            .flat_map(|(_, streams)| streams)
            .filter(|(stream, _, _)| stream == STREAM)
            .flat_map(|(_, seqs, records)| seqs.iter().zip(records))
            .peekable();
        if records.peek().is_none() {
            return;
        }
        // INVARIANT: only the writer changes the preferences, once they are durable, in the
        // order the log holds them: it is the one sender of their snapshots.
        let mut changed = Preferences::clone(&self.preferences.borrow());
        let mut newest = 0;
        for (seq, record) in records {
            changed.apply(record);
            newest = newest.max(*seq);
        }
        self.publish_preferences(changed, newest);
    }

    /// The log can't be written: every append is refused with the reason until it is opened
    /// again.
    /// Answers the failure, shared with every append it refuses.
    fn fail(&mut self, error: LogError) -> Arc<LogError> {
        let reason = error.to_string();
        if self.failing.is_none() {
            tracing::error!(error = %reason, "the event log can't be written: every change is refused, and every judge request fails (the hook asks), until it is opened again and a write goes through");
        }
        let failure = Arc::new(error);
        let now = Instant::now();
        self.failing = Some(Failing {
            reason: Arc::clone(&failure),
            since: now,
            pause: RETRY_FIRST,
            retry_at: now + RETRY_FIRST,
        });
        self.standing.send_replace(Standing::Failing(reason));
        failure
    }

    /// Opens the failed log again, probes it and reads the preferences back from it (what
    /// the failure let through is there or not, as after a crash); writing again if all of
    /// that works, trying again after a longer pause if not.
    fn recover(&mut self) {
        let outcome = self
            .log
            .reopen()
            .and_then(|()| self.log.probe())
            .and_then(|()| preferences_of(&self.log));
        if self.failing.is_none() {
            return;
        }
        if let Ok((preferences, newest)) = &outcome {
            self.publish_preferences(preferences.clone(), *newest);
        }
        let Some(failing) = self.failing.as_mut() else {
            return;
        };
        match outcome {
            Ok(_) => {
                tracing::warn!(
                    after_ms =
                        u64::try_from(failing.since.elapsed().as_millis()).unwrap_or(u64::MAX),
                    "the event log is written again: opened again from its folder, and a write went through"
                );
                self.failing = None;
                self.standing.send_replace(Standing::Writing);
            }
            Err(e) => {
                let now = Standing::Failing(e.to_string());
                failing.reason = Arc::new(e);
                failing.pause = (failing.pause * 2).min(RETRY_MAX);
                failing.retry_at = Instant::now() + failing.pause;
                self.standing.send_if_modified(|standing| {
                    let changed = *standing != now;
                    *standing = now;
                    changed
                });
            }
        }
    }

    /// Whether the injected fault falls on a group of `appends` appends, and where.
    fn fault_due(&mut self, appends: usize) -> Option<Crash> {
        let appends = appends as u64;
        let (left, crash) = match self.fault? {
            Fault::PanicBeforeWrite(left) => (left, Crash::BeforeWrite),
            Fault::PanicBeforeAnswer(left) => (left, Crash::BeforeAnswer),
        };
        if appends > left {
            return Some(crash);
        }
        self.fault = Some(match crash {
            Crash::BeforeWrite => Fault::PanicBeforeWrite(left - appends),
            Crash::BeforeAnswer => Fault::PanicBeforeAnswer(left - appends),
        });
        None
    }
}

/// Where an injected fault crashes the writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Crash {
    BeforeWrite,
    BeforeAnswer,
}

/// The injected fault: the writer's thread panics here.
#[expect(
    clippy::panic,
    reason = "a fault a test asked for: what the writer's death does is what it tests"
)]
fn crash_here() {
    panic!("the writer was told to fail here (a test's fault)");
}

#[cfg(test)]
mod tests {
    use super::*;
    use warden::chat::Event;

    fn note(text: &str) -> Vec<Record> {
        vec![Record {
            at_ms: 0,
            event: Event::NoteChanged {
                note: text.to_string(),
            },
        }]
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_record_handed_over_is_written_in_order_and_counted_until_taken() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let log = Arc::new(EventLog::open(dir.path()).unwrap_or_else(|e| panic!("{e}")));
        let feed = Arc::new(Feed::new(Arc::clone(&log)).unwrap_or_else(|e| panic!("{e}")));
        let mut writer = LogWriter::start(Arc::clone(&log), feed).unwrap_or_else(|e| panic!("{e}"));
        let handle = writer.handle();
        let mut handed = Vec::new();
        for n in 0..100 {
            let later = handle
                .hand("c1".to_string(), note(&format!("n{n}")))
                .unwrap_or_else(|e| panic!("{e}"));
            handed.push(later);
        }
        // An append that waits, handed after them, is written after them.
        let last = handle
            .append("c1".to_string(), note("last"))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let mut seqs = Vec::new();
        for mut later in handed {
            let (seq, records) = later
                .answered(&handle)
                .unwrap_or_else(|| panic!("answered before the append after it"))
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(records.len(), 1);
            seqs.push(seq);
        }
        assert!(seqs.windows(2).all(|w| w[0] < w[1]), "in order: {seqs:?}");
        assert!(
            seqs.iter().all(|seq| *seq < last),
            "before the append after them"
        );
        // Every one the writer took is off the count.
        assert_eq!(handle.handed.load(Ordering::Relaxed), 0);
        assert!(!handle.is_behind());
        writer.close().await.unwrap_or_else(|e| panic!("{e}"));
        let notes: Vec<String> = log
            .records("c1")
            .unwrap_or_else(|e| panic!("{e}"))
            .filter_map(|entry| match entry.ok()?.record.ok()?.event {
                Event::NoteChanged { note } => Some(note),
                _ => None,
            })
            .collect();
        assert_eq!(notes.len(), 101, "all of them in the log");
        assert_eq!(notes.first().map(String::as_str), Some("n0"));
        assert_eq!(notes.last().map(String::as_str), Some("last"));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_preference_is_published_once_durable_and_folded_again_at_start() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let log = Arc::new(EventLog::open(dir.path()).unwrap_or_else(|e| panic!("{e}")));
        let feed = || Arc::new(Feed::new(Arc::clone(&log)).unwrap_or_else(|e| panic!("{e}")));
        let mut writer =
            LogWriter::start(Arc::clone(&log), feed()).unwrap_or_else(|e| panic!("{e}"));
        let mut published = writer.preferences();
        assert_eq!(published.borrow_and_update().note, "");
        let handle = writer.handle();
        handle
            .append(STREAM.to_string(), note("I work on acme/app."))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        // Acknowledged means published: the snapshot is there before the append returns.
        assert!(published.has_changed().unwrap_or(false), "a new snapshot");
        let seen = Arc::clone(&published.borrow_and_update());
        assert_eq!(seen.note, "I work on acme/app.");
        // A chat's records are not the preferences': nothing new is published for them.
        handle
            .append("c1".to_string(), note("not a preference"))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(!published.has_changed().unwrap_or(true), "no new snapshot");
        // A snapshot taken is never changed under its reader: the next one replaces it.
        handle
            .append(STREAM.to_string(), note("another"))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(seen.note, "I work on acme/app.");
        assert_eq!(published.borrow_and_update().note, "another");
        writer.close().await.unwrap_or_else(|e| panic!("{e}"));
        drop(handle);
        let again = LogWriter::start(Arc::clone(&log), feed()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            again.preferences().borrow().note,
            "another",
            "folded from the log"
        );
    }
}
