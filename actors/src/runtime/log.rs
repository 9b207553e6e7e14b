//! The log actor: appends events and group-commits them. Every append waits for the next
//! flush; a flush is queued behind whatever appends are already waiting, so one fsync
//! acknowledges them all.

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use std::sync::Arc;
use warden::chat::{ChatState, Record};
use warden_storage::EventLog;

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
    /// Flush whatever is waiting (sent by the actor to itself).
    Flush,
    /// Flush now and say when done.
    FlushNow(RpcReplyPort<Result<(), String>>),
}

/// The log actor.
pub struct LogActor;

/// Its state: the log, and the appends waiting for the next flush.
pub struct LogState {
    log: Arc<EventLog>,
    waiting: Vec<(RpcReplyPort<Result<u64, String>>, u64)>,
    flush_queued: bool,
}

impl LogState {
    fn flush(&mut self) -> Result<(), String> {
        let log = Arc::clone(&self.log);
        tracing::trace!(waiting = self.waiting.len(), "group commit");
        let flushed = tokio::task::block_in_place(|| log.flush()).map_err(|e| e.to_string());
        for (reply, seq) in self.waiting.drain(..) {
            let _ = reply.send(flushed.clone().map(|()| seq));
        }
        flushed
    }
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
        Ok(LogState {
            log,
            waiting: Vec::new(),
            flush_queued: false,
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<LogMsg>,
        message: LogMsg,
        state: &mut LogState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            LogMsg::Append {
                chat,
                records,
                reply,
            } => {
                let items: Vec<(&str, Record)> = records
                    .into_iter()
                    .map(|record| (chat.as_str(), record))
                    .collect();
                match state.log.append_batch(&items) {
                    Ok(seqs) => {
                        state
                            .waiting
                            .push((reply, seqs.last().copied().unwrap_or(0)));
                        if !state.flush_queued {
                            state.flush_queued = true;
                            myself.send_message(LogMsg::Flush)?;
                        }
                    }
                    Err(e) => {
                        let _ = reply.send(Err(e.to_string()));
                    }
                }
            }
            LogMsg::Snapshot {
                chat,
                seq,
                state: chat_state,
            } => {
                if let Err(e) = state.log.snapshot(&chat, seq, &chat_state) {
                    tracing::warn!(chat, seq, error = %e, "a snapshot could not be written; replay reads the events instead");
                }
            }
            LogMsg::Flush => {
                state.flush_queued = false;
                if let Err(e) = state.flush() {
                    tracing::error!(error = %e, "the event log could not be flushed; appends waiting on it were refused");
                }
            }
            LogMsg::FlushNow(reply) => {
                state.flush_queued = false;
                let _ = reply.send(state.flush());
            }
        }
        Ok(())
    }

    async fn post_stop(
        &self,
        _myself: ActorRef<LogMsg>,
        state: &mut LogState,
    ) -> Result<(), ActorProcessingErr> {
        // Whatever was appended is flushed before the actor goes, and its callers told.
        let _ = state.flush();
        Ok(())
    }
}
