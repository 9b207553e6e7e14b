//! The log's writer: one thread owns the writes. Chats and the judge hand it their appends
//! through a [`LogHandle`]; it takes every append waiting, writes them, flushes once, and only
//! then acknowledges them all (group commit). No async thread ever waits on the disk, and an
//! append costs one hand-over to the writer and one wake-up back, not an actor's mailbox in
//! between.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;
use warden::chat::{ChatState, Record};
use warden_storage::EventLog;

/// The most appends one flush acknowledges; more wait for the next.
pub const GROUP_MAX: usize = 4_096;

/// What the writer does.
enum Job {
    /// Append a chat's records; the reply (the last sequence number) comes once they are
    /// durable, or once they are written when `wait` is false.
    Append {
        chat: String,
        records: Vec<Record>,
        wait: bool,
        reply: oneshot::Sender<Appended>,
    },
    /// Keep a snapshot of a chat's state at a sequence number (best effort).
    Snapshot {
        chat: String,
        seq: u64,
        state: Box<ChatState>,
    },
    /// Flush now and say when done.
    Flush(oneshot::Sender<Result<(), String>>),
    /// Flush, answer, and stop: the log closes once the writer's thread ends.
    Close(oneshot::Sender<Result<(), String>>),
}

/// What an append answers: the last sequence number and the records, handed back so the
/// caller applies them without having kept a copy.
pub type Appended = Result<(u64, Vec<Record>), String>;

/// The way to the writer: cheap to clone, one per chat, task and judge.
#[derive(Clone)]
pub struct LogHandle {
    jobs: Sender<Job>,
}

const STOPPED: &str = "the event log's writer stopped, so nothing more can be made durable";

impl LogHandle {
    /// Appends a chat's records; returns the last sequence number once they are durable.
    pub async fn append(&self, chat: String, records: Vec<Record>) -> Result<u64, String> {
        self.send(chat, records, true).await.map(|(seq, _)| seq)
    }

    /// Appends a chat's records and hands them back once they are durable. With `wait`
    /// false (records that change no later decision: a judged step that counted nothing),
    /// once they are written: the same group's flush, or one within [`FLUSH_BOUND`], makes
    /// them durable. A `kill -9` in that window loses the log's line about the step, never a
    /// chat's state.
    pub async fn append_returning(
        &self,
        chat: String,
        records: Vec<Record>,
        wait: bool,
    ) -> Appended {
        self.send(chat, records, wait).await
    }

    async fn send(&self, chat: String, records: Vec<Record>, wait: bool) -> Appended {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job::Append {
                chat,
                records,
                wait,
                reply,
            })
            .map_err(|_| STOPPED.to_string())?;
        answer.await.map_err(|_| STOPPED.to_string())?
    }

    /// Keeps a snapshot of a chat's state (best effort: replay reads the events without it).
    pub fn snapshot(&self, chat: String, seq: u64, state: Box<ChatState>) {
        let _ = self.jobs.send(Job::Snapshot { chat, seq, state });
    }

    /// Flushes whatever was written.
    pub async fn flush(&self) -> Result<(), String> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job::Flush(reply))
            .map_err(|_| STOPPED.to_string())?;
        answer.await.map_err(|_| STOPPED.to_string())?
    }
}

/// The writer's thread, owned by the supervisor.
pub struct LogWriter {
    handle: LogHandle,
    thread: Option<JoinHandle<()>>,
}

impl LogWriter {
    /// Starts the writer's thread on an open log.
    pub fn start(log: Arc<EventLog>) -> std::io::Result<LogWriter> {
        let (jobs, receiver) = channel();
        let thread = std::thread::Builder::new()
            .name("warden-log".to_string())
            .spawn(move || write(&log, &receiver))?;
        Ok(LogWriter {
            handle: LogHandle { jobs },
            thread: Some(thread),
        })
    }

    /// A handle for a chat, a task or the judge.
    pub fn handle(&self) -> LogHandle {
        self.handle.clone()
    }

    /// Flushes, stops the writer and waits for its thread: whatever was acknowledged is on
    /// disk, and the writer no longer holds the log. Appends after this are refused.
    pub async fn close(&mut self) -> Result<(), String> {
        let (reply, answer) = oneshot::channel();
        let closed = match self.handle.jobs.send(Job::Close(reply)) {
            Ok(()) => answer.await.map_err(|_| STOPPED.to_string())?,
            Err(_) => Err(STOPPED.to_string()),
        };
        if let Some(thread) = self.thread.take() {
            let _ = tokio::task::spawn_blocking(move || thread.join()).await;
        }
        closed
    }
}

/// How long a record that nobody waits for may stay unflushed: the writer flushes it by then
/// even when no waiting append comes to carry it.
pub const FLUSH_BOUND: Duration = Duration::from_millis(20);

/// An append taken from the channel, waiting for its group to be written.
struct Append {
    chat: String,
    records: Vec<Record>,
    wait: bool,
    reply: oneshot::Sender<Appended>,
}

/// The writer's loop: group commit. Every append waiting is written in one batch; the group is
/// flushed once if anyone waits for durability, and records nobody waits for are flushed
/// within [`FLUSH_BOUND`] (sled's own flusher is the last resort).
fn write(log: &EventLog, jobs: &Receiver<Job>) {
    let mut unflushed = false;
    let mut since = Instant::now();
    loop {
        let first = if unflushed {
            match jobs.recv_timeout(FLUSH_BOUND.saturating_sub(since.elapsed())) {
                Ok(job) => job,
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = log.flush() {
                        tracing::error!(error = %e, "the event log could not be flushed");
                    }
                    unflushed = false;
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        } else {
            match jobs.recv() {
                Ok(job) => job,
                Err(_) => break,
            }
        };
        let mut appends = Vec::new();
        let mut flushes = Vec::new();
        let mut close = None;
        let mut next = Some(first);
        let mut taken = 0;
        while let Some(job) = next.take() {
            taken += 1;
            match job {
                Job::Append {
                    chat,
                    records,
                    wait,
                    reply,
                } => appends.push(Append {
                    chat,
                    records,
                    wait,
                    reply,
                }),
                Job::Snapshot { chat, seq, state } => {
                    if let Err(e) = log.snapshot(&chat, seq, &state) {
                        tracing::warn!(chat, seq, error = %e, "a snapshot could not be written; replay reads the events instead");
                    }
                }
                Job::Flush(reply) => flushes.push(reply),
                // Whatever came before it is still written and acknowledged; nothing after.
                Job::Close(reply) => {
                    close = Some(reply);
                    break;
                }
            }
            if taken < GROUP_MAX {
                next = jobs.try_recv().ok();
            }
        }
        let waiting = written(log, appends);
        let must = !waiting.is_empty() || !flushes.is_empty() || close.is_some();
        if !must {
            // Only records nobody waits for: flushed within FLUSH_BOUND of the first of them.
            if !unflushed {
                unflushed = true;
                since = Instant::now();
            }
            if since.elapsed() < FLUSH_BOUND {
                continue;
            }
        }
        tracing::trace!(waiting = waiting.len(), "group commit");
        let flushed = log.flush().map_err(|e| e.to_string());
        unflushed = false;
        if let Err(e) = &flushed {
            tracing::error!(error = %e, "the event log could not be flushed; appends waiting on it were refused");
        }
        for (reply, seq, records) in waiting {
            let _ = reply.send(flushed.clone().map(|()| (seq, records)));
        }
        for reply in flushes {
            let _ = reply.send(flushed.clone());
        }
        if let Some(reply) = close {
            // Appends still queued behind the close are refused when their senders see the
            // channel closed (their reply ports drop with the receiver).
            let _ = reply.send(flushed);
            return;
        }
    }
    // Every handle is gone: whatever was written is flushed before the thread ends.
    let _ = log.flush();
}

/// Writes a group's appends, in one batch when it can (one bad append then fails alone):
/// answers those nobody waits for at once, and returns those waiting for the flush.
fn written(
    log: &EventLog,
    appends: Vec<Append>,
) -> Vec<(oneshot::Sender<Appended>, u64, Vec<Record>)> {
    let mut waiting = Vec::new();
    if appends.is_empty() {
        return waiting;
    }
    let items: Vec<(&str, &Record)> = appends
        .iter()
        .flat_map(|a| a.records.iter().map(|r| (a.chat.as_str(), r)))
        .collect();
    let outcomes: Vec<Result<u64, String>> = match log.append_batch(&items) {
        Ok(seqs) => {
            let mut seqs = seqs.into_iter();
            appends
                .iter()
                .map(|a| {
                    let last = seqs.by_ref().take(a.records.len()).last();
                    Ok(last.unwrap_or(0))
                })
                .collect()
        }
        Err(_) => appends
            .iter()
            .map(|a| {
                let items: Vec<(&str, &Record)> =
                    a.records.iter().map(|r| (a.chat.as_str(), r)).collect();
                log.append_batch(&items)
                    .map(|seqs| seqs.last().copied().unwrap_or(0))
                    .map_err(|e| e.to_string())
            })
            .collect(),
    };
    for (append, outcome) in appends.into_iter().zip(outcomes) {
        match outcome {
            Ok(seq) if append.wait => waiting.push((append.reply, seq, append.records)),
            Ok(seq) => {
                let _ = append.reply.send(Ok((seq, append.records)));
            }
            Err(e) => {
                let _ = append.reply.send(Err(e));
            }
        }
    }
    waiting
}
