//! What can go wrong in a call into the runtime: one error type, by kind, each naming what
//! failed. The log's writer has a narrower one ([`WriteError`]), which a runtime error
//! carries when a write is what failed. `serve/` maps each kind to an HTTP status in one
//! place; a caller that judges asks on any of them, never allows.
//!
//! Every message says its cause's words itself, so a cause is kept as a typed field (to
//! match on), not as `source()`: a report that walks the chain says it once.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;
use warden::chat::law::AnswerError;
use warden_storage::LogError;

/// Why the log's writer did not make an operation durable.
#[derive(Debug, Clone, thiserror::Error)]
pub enum WriteError {
    /// The log refused it: its engine failed (a full disk), at this write or its flush, or at
    /// an earlier one and the log isn't written again yet; or the records could not be
    /// encoded. While the log fails, every write is refused with the failure that started it.
    #[error(transparent)]
    Refused(Arc<LogError>),
    /// The writer stopped (it panicked, or it was closed at shutdown): nothing more is made
    /// durable.
    #[error("the event log's writer stopped, so nothing more can be made durable: {why}")]
    Stopped { why: String },
    /// The writer answered an append without its records (a fault of the writer's): what it
    /// wrote is in the log, and the caller's state can't say what.
    #[error("the event log's writer answered an append without its records")]
    Unanswered,
    /// In a cluster: another node wrote the chat since this node read it (it took the chat
    /// over), so the log refused the write by its fence. Nothing of it is stored; the chat is
    /// let go here, and taken over again and read from the log on its next request.
    #[error(
        "the chat `{chat}` was written by another warden node past sequence {expected}, the end this node knew: it took the chat over, so this write is refused and nothing of it stored; the chat is read again on its next request"
    )]
    Fenced { chat: String, expected: u64 },
}

impl From<LogError> for WriteError {
    fn from(error: LogError) -> WriteError {
        match error {
            LogError::Fenced { chat, expected } => WriteError::Fenced { chat, expected },
            error => WriteError::Refused(Arc::new(error)),
        }
    }
}

/// A part of the runtime, as an error names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// The supervisor, which brings chats into memory.
    Supervisor,
    /// The event log's writer.
    Writer,
    /// A chat's (or a task's) actor, by id.
    Chat(String),
    /// A chat's behaviour watch, by the chat's id.
    Watch(String),
    /// A judge.
    Judge,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Supervisor => f.write_str("the supervisor"),
            Part::Writer => f.write_str("the event log's writer"),
            Part::Chat(id) => write!(f, "the chat `{id}`"),
            Part::Watch(id) => write!(f, "the behaviour watch of the chat `{id}`"),
            Part::Judge => f.write_str("a judge"),
        }
    }
}

/// What the runtime was reading from the event log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// A chat's events (and its snapshot), to bring it into memory.
    Chat(String),
    /// The person's preferences, at start.
    Preferences,
    /// The log's size on disk.
    Size,
    /// The newest record of each stream, at start (for the event stream).
    Log,
    /// The chains of the nodes that left the cluster, to abort what they left open.
    Chains,
}

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reading::Chat(id) => write!(f, "the chat `{id}`"),
            Reading::Preferences => f.write_str("the preferences"),
            Reading::Size => f.write_str("its size"),
            Reading::Log => f.write_str("each stream's newest record"),
            Reading::Chains => f.write_str("the chains of the nodes gone"),
        }
    }
}

/// Every way a call into the runtime fails.
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    /// The event log could not be opened (in use, damaged, unreadable).
    #[error(transparent)]
    Open(LogError),
    /// The log refused the operation's write, or its writer stopped: nothing of it was
    /// acknowledged.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The log can't be written now (a write failed and none has gone through since, or its
    /// writer stopped), so no step is judged: no verdict the log could not record.
    #[error("the event log can't be written: {reason}")]
    Unwritable { reason: String },
    /// The log's last flush, at shutdown, failed: what was acknowledged had been flushed
    /// before, and stays.
    #[error("the event log could not be flushed at shutdown: {0}")]
    LastFlush(WriteError),
    /// Reading from the event log failed.
    #[error("reading {what} from the event log failed: {cause}")]
    Read { what: Reading, cause: LogError },
    /// A part of the runtime did not answer within the bound.
    #[error("{part} did not answer within {after:?}")]
    Timeout { part: Part, after: Duration },
    /// A part of the runtime gave no answer: it stopped before it did (it failed, or let
    /// itself go), or it dropped the question (a judge whose judging panicked).
    #[error("{part} gave no answer: it stopped or dropped the question")]
    Gone { part: Part },
    /// A part of the runtime could not start.
    #[error("{part} could not start: {cause}")]
    Start { part: Part, cause: StartCause },
    /// No judge is running to judge the step (one stopped and another is starting).
    #[error("no judge is running")]
    NoJudge,
    /// An answer to a question that isn't waiting, or that its card didn't offer.
    #[error("{}", answer_message(.chat, .cause))]
    Answer { chat: String, cause: AnswerError },
    /// The id asked for a new task is something else's: a chat of its own, or a task of
    /// another chat or scope.
    #[error("`{task}` exists already, as {what}")]
    Taken { task: String, what: String },
    /// A task asked for under its own chat's id.
    #[error("a task needs an id of its own, not its chat's `{chat}`")]
    OwnId { chat: String },
    /// The runtime was shut down (or its supervisor stopped): nothing more is served.
    #[error("warden's runtime is not running")]
    NotRunning,
    /// In a cluster: the chat is not served by this node now (its root's lease is another
    /// node's, or it moved while the request was on its way).
    #[error("the chat `{chat}` is not served by this node now (it moved to another)")]
    Elsewhere { chat: String },
    /// The chat is still being read from the event log after the bound a request waits for
    /// it (a server of a cluster gone, its streams electing a leader): the read goes on, and
    /// the chat is served once it is read. Nothing was done.
    #[error(
        "the chat `{chat}` is still being read from the event log after {after:?}: nothing was done, try again"
    )]
    Loading { chat: String, after: Duration },
}

/// Why a part of the runtime could not start.
#[derive(Debug, Clone, thiserror::Error)]
pub enum StartCause {
    /// Its actor failed to spawn (its start failed, or its name is taken).
    #[error("{0}")]
    Spawn(Arc<ractor::SpawnErr>),
    /// The system refused it a thread.
    #[error("no thread for it: {0}")]
    Thread(Arc<std::io::Error>),
    /// A chat asked to be taken over is still in memory here.
    #[error("it is still in memory here, so it can't be taken over")]
    StillHeld,
}

impl From<ractor::SpawnErr> for StartCause {
    fn from(error: ractor::SpawnErr) -> StartCause {
        StartCause::Spawn(Arc::new(error))
    }
}

fn answer_message(chat: &str, cause: &AnswerError) -> String {
    match cause {
        AnswerError::NoQuestion(question) => {
            format!("no question {question} is waiting in the chat `{chat}`")
        }
        AnswerError::NotOffered { .. } | AnswerError::NotAbout { .. } => cause.to_string(),
    }
}

impl RuntimeError {
    /// What a call to an actor comes to: its answer, or the part (made by `part` only
    /// then) that didn't answer within `after`, or stopped before it did.
    pub(crate) fn unanswered<R>(
        part: impl FnOnce() -> Part,
        after: Duration,
        result: Result<ractor::rpc::CallResult<R>, ractor::MessagingErr<impl Sized>>,
    ) -> Result<R, RuntimeError> {
        match result {
            Ok(ractor::rpc::CallResult::Success(value)) => Ok(value),
            Ok(ractor::rpc::CallResult::Timeout) => Err(RuntimeError::Timeout {
                part: part(),
                after,
            }),
            Ok(ractor::rpc::CallResult::SenderError) | Err(_) => {
                Err(RuntimeError::Gone { part: part() })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warden::chat::Answer;

    #[test]
    fn each_message_names_what_failed() {
        let full = || LogError::Store {
            path: "/d/log".into(),
            cause: "No space left on device: the disk is full".into(),
        };
        let cases = [
            (
                RuntimeError::Write(WriteError::from(full())),
                "the event log in `/d/log` failed: No space left on device: the disk is full",
            ),
            (
                RuntimeError::Write(WriteError::Stopped {
                    why: "it was closed".into(),
                }),
                "the event log's writer stopped, so nothing more can be made durable: it was closed",
            ),
            (
                RuntimeError::Unwritable {
                    reason: full().to_string(),
                },
                "the event log can't be written: the event log in `/d/log` failed: No space left on device: the disk is full",
            ),
            (
                RuntimeError::LastFlush(WriteError::from(full())),
                "the event log could not be flushed at shutdown: the event log in `/d/log` failed: No space left on device: the disk is full",
            ),
            (
                RuntimeError::Read {
                    what: Reading::Chat("c1".into()),
                    cause: full(),
                },
                "reading the chat `c1` from the event log failed: the event log in `/d/log` failed: No space left on device: the disk is full",
            ),
            (
                RuntimeError::Timeout {
                    part: Part::Chat("c1".into()),
                    after: Duration::from_secs(10),
                },
                "the chat `c1` did not answer within 10s",
            ),
            (
                RuntimeError::Gone {
                    part: Part::Watch("c1".into()),
                },
                "the behaviour watch of the chat `c1` gave no answer: it stopped or dropped the question",
            ),
            (
                RuntimeError::Answer {
                    chat: "c1".into(),
                    cause: AnswerError::NoQuestion(4),
                },
                "no question 4 is waiting in the chat `c1`",
            ),
            (
                RuntimeError::Answer {
                    chat: "c1".into(),
                    cause: AnswerError::NotOffered {
                        question: 4,
                        answer: Answer::Everywhere,
                    },
                },
                "question 4's card does not offer `everywhere`",
            ),
            (
                RuntimeError::Taken {
                    task: "t1".into(),
                    what: "a task of `c1`".into(),
                },
                "`t1` exists already, as a task of `c1`",
            ),
            (
                RuntimeError::OwnId { chat: "c1".into() },
                "a task needs an id of its own, not its chat's `c1`",
            ),
        ];
        for (error, said) in cases {
            assert_eq!(error.to_string(), said, "{error:?}");
        }
    }

    #[test]
    fn a_cause_is_said_once_when_the_chain_is_walked() {
        let error = RuntimeError::Read {
            what: Reading::Size,
            cause: LogError::Closed {
                path: "/d/log".into(),
            },
        };
        assert!(std::error::Error::source(&error).is_none(), "{error:?}");
    }

    #[test]
    fn a_call_that_went_unanswered_names_the_part() {
        type Sent = Result<ractor::rpc::CallResult<u8>, ractor::MessagingErr<()>>;
        let after = Duration::from_millis(5);
        let cases: [(Sent, Result<u8, &str>); 4] = [
            (Ok(ractor::rpc::CallResult::Success(7)), Ok(7)),
            (
                Ok(ractor::rpc::CallResult::Timeout),
                Err("a judge did not answer within 5ms"),
            ),
            (
                Ok(ractor::rpc::CallResult::SenderError),
                Err("a judge gave no answer: it stopped or dropped the question"),
            ),
            (
                Err(ractor::MessagingErr::SendErr(())),
                Err("a judge gave no answer: it stopped or dropped the question"),
            ),
        ];
        for (sent, said) in cases {
            let got = RuntimeError::unanswered(|| Part::Judge, after, sent);
            assert_eq!(got.map_err(|e| e.to_string()), said.map_err(str::to_string));
        }
    }
}
