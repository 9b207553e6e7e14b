//! The log actor and its writer thread: appends are handed to one thread that owns the
//! writes, takes every append waiting, writes them, flushes once, and only then acknowledges
//! them all (group commit). No async thread ever waits on the disk.

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use warden::chat::{ChatState, Record};
use warden_storage::EventLog;

/// The most appends one flush acknowledges; more wait for the next.
pub const GROUP_MAX: usize = 4_096;

/// What the log actor does.
pub enum LogMsg {
    /// Append a chat's records; the reply (the last sequence number) comes once they are
    /// durable.
    Append {
        chat: String,
        records: Vec<Record>,
        reply: RpcReplyPort<Result<u64, String>>,
    },
    /// Keep a snapshot of a chat's state at a sequence number (best effort).
    Snapshot {
        chat: String,
        seq: u64,
        state: Box<ChatState>,
    },
    /// Flush now and say when done.
    FlushNow(RpcReplyPort<Result<(), String>>),
}

/// The log actor.
pub struct LogActor;

/// Its state: the way to the writer thread.
pub struct LogState {
    jobs: Option<Sender<LogMsg>>,
    writer: Option<JoinHandle<()>>,
}

/// The writer thread: group commit.
fn write(log: Arc<EventLog>, jobs: Receiver<LogMsg>) {
    while let Ok(first) = jobs.recv() {
        let mut group = vec![first];
        while group.len() < GROUP_MAX {
            match jobs.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        let mut waiting: Vec<(RpcReplyPort<Result<u64, String>>, u64)> = Vec::new();
        let mut flushes = Vec::new();
        for job in group {
            match job {
                LogMsg::Append {
                    chat,
                    records,
                    reply,
                } => {
                    let items: Vec<(&str, Record)> = records
                        .into_iter()
                        .map(|record| (chat.as_str(), record))
                        .collect();
                    match log.append_batch(&items) {
                        Ok(seqs) => waiting.push((reply, seqs.last().copied().unwrap_or(0))),
                        Err(e) => {
                            let _ = reply.send(Err(e.to_string()));
                        }
                    }
                }
                LogMsg::Snapshot { chat, seq, state } => {
                    if let Err(e) = log.snapshot(&chat, seq, &state) {
                        tracing::warn!(chat, seq, error = %e, "a snapshot could not be written; replay reads the events instead");
                    }
                }
                LogMsg::FlushNow(reply) => flushes.push(reply),
            }
        }
        tracing::trace!(waiting = waiting.len(), "group commit");
        let flushed = log.flush().map_err(|e| e.to_string());
        if let Err(e) = &flushed {
            tracing::error!(error = %e, "the event log could not be flushed; appends waiting on it were refused");
        }
        for (reply, seq) in waiting {
            let _ = reply.send(flushed.clone().map(|()| seq));
        }
        for reply in flushes {
            let _ = reply.send(flushed.clone());
        }
    }
    // Every sender is gone: whatever was written is flushed before the thread ends.
    let _ = log.flush();
}

impl Actor for LogActor {
    type Msg = LogMsg;
    type State = LogState;
    type Arguments = Arc<EventLog>;

    async fn pre_start(
        &self,
        _myself: ActorRef<LogMsg>,
        log: Arc<EventLog>,
    ) -> Result<LogState, ActorProcessingErr> {
        let (jobs, receiver) = channel();
        let writer = std::thread::Builder::new()
            .name("warden-log".to_string())
            .spawn(move || write(log, receiver))?;
        Ok(LogState {
            jobs: Some(jobs),
            writer: Some(writer),
        })
    }

    async fn handle(
        &self,
        _myself: ActorRef<LogMsg>,
        message: LogMsg,
        state: &mut LogState,
    ) -> Result<(), ActorProcessingErr> {
        match &state.jobs {
            Some(jobs) => {
                if let Err(returned) = jobs.send(message) {
                    // The writer is gone: nothing can be made durable, so nothing is acknowledged.
                    refuse(returned.0);
                }
            }
            None => refuse(message),
        }
        Ok(())
    }

    async fn post_stop(
        &self,
        _myself: ActorRef<LogMsg>,
        state: &mut LogState,
    ) -> Result<(), ActorProcessingErr> {
        // Closing the channel lets the writer finish what it holds, flush, and end.
        state.jobs = None;
        if let Some(writer) = state.writer.take() {
            let _ = tokio::task::spawn_blocking(move || writer.join()).await;
        }
        Ok(())
    }
}

fn refuse(message: LogMsg) {
    let why = "the event log's writer stopped".to_string();
    match message {
        LogMsg::Append { reply, .. } => {
            let _ = reply.send(Err(why));
        }
        LogMsg::FlushNow(reply) => {
            let _ = reply.send(Err(why));
        }
        LogMsg::Snapshot { .. } => {}
    }
}
