//! The running supervisor: one actor per chat and per task holding its state, spawned on
//! demand from the log; a small pool of judge actors serving the law's decisions; and the
//! log's writer thread, which group-commits every event before it is acknowledged.
//!
//! ```text
//!   Supervisor ──┬── ChatActor "c1" ── WatchActor (from its first app step)
//!                ├── ChatActor "t7"
//!                ├── JudgeActor ×cores (they read the preferences)
//!                └── LogWriter thread ── EventLog (sled); keeps the preferences
//! ```
//!
//! Actors are thin: they decode a message, ask the law, append to the log, and reply. An
//! event is applied to a chat's state only after the log acknowledged it durable. A step
//! goes from the caller straight to its chat, found by name in ractor's registry
//! ([`names`]); the supervisor is asked only to bring a chat into memory. Nothing on a
//! step's way is shared behind a lock: the preferences are a snapshot the log's writer
//! publishes.
//!
//! An operation that writes several events (a task created, an answer that keeps a class or
//! a rule, several rules forgotten) hands them to the writer as one append, written as one
//! batch: whole or not at all. A chat whose append failed fails, and comes back from the
//! log. The writer's [`Standing`] says whether the log is written; while it isn't, every
//! judge request fails (the hook asks).
//!
//! Every call fails with a [`RuntimeError`] naming what failed; `serve/` maps each kind to
//! an HTTP status in one place.

mod chat;
mod error;
mod feed;
mod fence;
mod judge;
mod log;
mod names;
mod supervisor;
mod watch;

pub use chat::{ChatMsg, Judged};
pub use error::{Part, Reading, RuntimeError, StartCause, WriteError};
pub use feed::{FEED_CAPACITY, Feed, Published};
pub use fence::Fenced;
pub use log::{Fault, Standing};
pub use supervisor::{
    ChatRead, Gate, InMemory, LOAD_WAIT, LOADS, Replay, Supervisor, SupervisorArgs, SupervisorMsg,
    Unread,
};

use judge::Judges;
use log::{LogHandle, LogWriter};
use ractor::{Actor, ActorRef, RpcReplyPort};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use warden::chat::{Answer, ChatState, Company, Event, Record};
use warden::facts::Facts;
use warden::mode::Mode;
use warden::preferences::{Preferences, STREAM};
use warden::step::Step;
use warden_storage::EventLog;

/// How long a call into the runtime may take before it is an error (the caller asks).
pub const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a chat with no message keeps its actor, by default: the pauses of a turn (a
/// model thinking, a tool running) are shorter, and a chat idle longer is held as its state
/// alone, a few hundred bytes where an actor takes about eight KiB; its next message starts
/// an actor from that state, without reading the log.
pub const ACTIVE: Duration = Duration::from_secs(30);

/// A handle on the running supervisor.
#[derive(Clone)]
pub struct Runtime {
    supervisor: ActorRef<SupervisorMsg>,
    names: names::Names,
    judges: Judges,
    log: LogHandle,
    /// The log itself, for what is asked of it without a chat in memory and the cluster's
    /// reads that are no chat's (a chat's end, a stream's first record, the chains of nodes
    /// gone); every write goes through the writer.
    events: Arc<EventLog>,
    feed: Arc<Feed>,
    preferences_seq: tokio::sync::watch::Receiver<u64>,
}

/// What creating a task did. An id that is something else's (a chat of its own, a task of
/// another chat or scope) is [`RuntimeError::Taken`], and nothing is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Made {
    /// The task is new: its opening, what it inherits and its chat's `TaskCreated` were
    /// written as one batch.
    Created,
    /// It was a task of this chat with this scope already (a retry whose first attempt
    /// completed): nothing written, or only what a creation cut short by an older warden
    /// lacked (what it inherits, its chat's `TaskCreated`).
    Already,
}

/// What opening a runtime needs.
pub struct Options {
    /// Paths refused to the agent, from the configuration.
    pub protected: Vec<String>,
    /// A chat with no message for this long leaves memory; its log brings it back.
    pub idle: Duration,
    /// A chat with no message for this long stops its actor, and only its state stays in
    /// memory until `idle` (at most `idle`; default [`ACTIVE`]).
    pub active: Duration,
    /// The second look (`docs/second-look.md`), when one is configured.
    pub look: Option<crate::second_look::SecondLook>,
    /// The port `warden serve` listens on, when not the default: steps naming it are refused.
    pub listen_port: Option<u16>,
    /// The person's thresholds for the behaviour watch (checked by `watch::thresholds`).
    pub thresholds: warden::watch::Thresholds,
    /// sled's cache, in bytes (`[log] cache_mb`; default [`warden_storage::CACHE_BYTES`]).
    pub log_cache_bytes: u64,
    /// The log's engine (`[log] engine`; default sled, in `dir`).
    pub log_engine: warden_storage::Engine,
    /// In a cluster, whether this node may bring a chat into memory ([`Gate`]).
    pub gate: Option<Gate>,
    /// In a cluster, the node's id: the JetStream log is opened as this node, so its groups
    /// name it and opening aborts only its own groups left open (`docs/cluster.md`). None:
    /// the stream's one writer.
    pub log_node: Option<String>,
    /// In a cluster, what is told of a chat whose write another node's takeover refused
    /// ([`Fenced`]), before the write is answered.
    pub fenced: Option<Fenced>,
    /// How long a request waits for its chat to be read from the log before it is answered
    /// [`RuntimeError::Loading`] (default [`LOAD_WAIT`]).
    pub load_wait: Duration,
    /// How a chat is read from the log, for tests of what a slow read does ([`Replay`]);
    /// None: `EventLog::chat`.
    #[doc(hidden)]
    pub replay: Option<Replay>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            protected: Vec::new(),
            idle: Duration::from_secs(600),
            active: ACTIVE,
            look: None,
            listen_port: None,
            thresholds: warden::watch::Thresholds::new(),
            log_cache_bytes: warden_storage::CACHE_BYTES,
            log_engine: warden_storage::Engine::Sled,
            gate: None,
            log_node: None,
            fenced: None,
            load_wait: LOAD_WAIT,
            replay: None,
        }
    }
}

impl Runtime {
    /// Opens the event log in `dir` and starts the supervisor.
    pub async fn open(
        dir: &Path,
        facts: Arc<dyn Facts + Send + Sync>,
        options: Options,
    ) -> Result<Runtime, RuntimeError> {
        let log = Arc::new(
            EventLog::open_on_as(
                &options.log_engine,
                dir,
                options.log_cache_bytes,
                options.log_node.as_deref(),
            )
            .map_err(RuntimeError::Open)?,
        );
        let names = names::Names::new();
        let feed = Arc::new(
            Feed::new(Arc::clone(&log)).map_err(|cause| RuntimeError::Read {
                what: Reading::Log,
                cause,
            })?,
        );
        // INVARIANT: in a cluster every chat's write is fenced at what this node knows of it.
        let fences = options
            .log_node
            .is_some()
            .then(|| fence::Fences::new(options.fenced.clone()));
        let writer = LogWriter::start_with(Arc::clone(&log), Arc::clone(&feed), fences)?;
        let judges = Judges::per_core(&names, writer.preferences(), Arc::clone(&facts));
        let handle = writer.handle();
        let preferences_seq = writer.preferences_seq();
        let events = Arc::clone(&log);
        let args = SupervisorArgs {
            log,
            writer,
            facts,
            protected: options.protected,
            idle: options.idle,
            active: options.active,
            names: names.clone(),
            judges: judges.clone(),
            look: options.look,
            listen_port: options.listen_port,
            thresholds: Arc::new(options.thresholds),
            gate: options.gate,
            replay: options.replay,
            load_wait: options.load_wait,
        };
        let (supervisor, _handle) =
            Actor::spawn(None, Supervisor, args)
                .await
                .map_err(|e| RuntimeError::Start {
                    part: Part::Supervisor,
                    cause: e.into(),
                })?;
        Ok(Runtime {
            supervisor,
            names,
            judges,
            log: handle,
            events,
            feed,
            preferences_seq,
        })
    }

    /// The supervisor's answer to `build`; a supervisor that is gone is a runtime that isn't
    /// running.
    async fn ask_supervisor<R: Send + 'static>(
        &self,
        build: impl FnOnce(RpcReplyPort<R>) -> SupervisorMsg,
    ) -> Result<R, RuntimeError> {
        match call(&self.supervisor, || Part::Supervisor, build).await {
            Err(RuntimeError::Gone { .. }) => Err(RuntimeError::NotRunning),
            answered => answered,
        }
    }

    /// Sends a chat a message and waits for its reply ([`send_to_chat`]).
    async fn on_chat<R: Send + 'static>(
        &self,
        chat: &str,
        build: impl FnMut(RpcReplyPort<R>) -> ChatMsg,
    ) -> Result<R, RuntimeError> {
        match send_to_chat(&self.names, &self.supervisor, chat, build).await {
            Err(RuntimeError::Gone {
                part: Part::Supervisor,
                ..
            }) => Err(RuntimeError::NotRunning),
            answered => answered,
        }
    }

    /// Records an event in a chat: durable in the log before this returns.
    pub async fn record(&self, chat: &str, event: Event) -> Result<(), RuntimeError> {
        self.on_chat(chat, |reply| ChatMsg::Record(event.clone(), reply))
            .await?
    }

    /// Records several events of one chat as one batch: all durable, or none.
    pub async fn record_all(&self, chat: &str, events: Vec<Event>) -> Result<(), RuntimeError> {
        self.on_chat(chat, |reply| ChatMsg::RecordAll(events.clone(), reply))
            .await?
    }

    /// Opens a chat (or changes nothing if it is open): its mode and who is in it.
    pub async fn open_chat(
        &self,
        chat: &str,
        mode: Mode,
        company: Company,
    ) -> Result<(), RuntimeError> {
        self.record(
            chat,
            Event::Opened {
                mode,
                company,
                parent: None,
                scoped: false,
            },
        )
        .await
    }

    /// Judges a step in a chat's state; a question that asks is recorded and gets an id.
    pub async fn judge(&self, chat: &str, step: Step, cwd: &str) -> Result<Judged, RuntimeError> {
        self.judging(chat, step, cwd, true, None).await
    }

    /// [`Runtime::judge`], with the host's id for the step (Claude Code's `tool_use_id`): a
    /// question it asks is kept with that id (`ChatState::question_about`), so the host can
    /// answer it when that very step runs.
    pub async fn judge_step(
        &self,
        chat: &str,
        step: Step,
        cwd: &str,
        id: Option<String>,
    ) -> Result<Judged, RuntimeError> {
        self.judging(chat, step, cwd, true, id).await
    }

    /// Judges a step in a chat's state and records nothing: no question, no count. For a
    /// host that asks the person itself (Claude Code's `PermissionRequest`), so one step
    /// doesn't leave two questions.
    pub async fn peek(&self, chat: &str, step: Step, cwd: &str) -> Result<Judged, RuntimeError> {
        self.judging(chat, step, cwd, false, None).await
    }

    async fn judging(
        &self,
        chat: &str,
        step: Step,
        cwd: &str,
        record: bool,
        id: Option<String>,
    ) -> Result<Judged, RuntimeError> {
        // INVARIANT: no verdict while the log can't be written: the caller asks.
        self.writable()?;
        self.on_chat(chat, |reply| ChatMsg::Judge {
            step: step.clone(),
            cwd: cwd.to_string(),
            record,
            id: id.clone(),
            reply,
        })
        .await?
    }

    /// The person's answer to a question: [`RuntimeError::Answer`] when it isn't waiting.
    pub async fn answer(
        &self,
        chat: &str,
        question: u64,
        answer: Answer,
    ) -> Result<(), RuntimeError> {
        self.answering(chat, question, answer, None).await
    }

    /// The step with the host's id `step` ran (the person let it through in the host's own
    /// dialog): their yes answers the question about it, once, recorded as the step's.
    pub async fn ran(&self, chat: &str, question: u64, step: &str) -> Result<(), RuntimeError> {
        self.answering(chat, question, Answer::Once, Some(step.to_string()))
            .await
    }

    async fn answering(
        &self,
        chat: &str,
        question: u64,
        answer: Answer,
        ran: Option<String>,
    ) -> Result<(), RuntimeError> {
        self.on_chat(chat, |reply| ChatMsg::Answer {
            question,
            answer,
            ran: ran.clone(),
            reply,
        })
        .await?
    }

    /// The log's feed: every durable record as it comes, and the log read from a sequence
    /// number (`GET /v1/events`).
    pub fn feed(&self) -> &Arc<Feed> {
        &self.feed
    }

    /// Creates a task from a chat: a frozen copy of what the chat hands on, written with the
    /// chat's `TaskCreated` as one batch. A retry finds the task made ([`Made::Already`]);
    /// an id that is something else's is [`RuntimeError::Taken`], and nothing is written.
    pub async fn create_task(
        &self,
        chat: &str,
        task: &str,
        scoped: bool,
    ) -> Result<Made, RuntimeError> {
        if chat == task {
            return Err(RuntimeError::OwnId {
                chat: chat.to_string(),
            });
        }
        let parent = chat.to_string();
        self.on_chat(task, |reply| ChatMsg::OpenTask {
            parent: parent.clone(),
            scoped,
            reply,
        })
        .await?
    }

    /// A chat's state as it stands.
    pub async fn state(&self, chat: &str) -> Result<ChatState, RuntimeError> {
        self.on_chat(chat, ChatMsg::State).await
    }

    /// The person's preferences.
    pub async fn preferences(&self) -> Result<Preferences, RuntimeError> {
        Ok(Preferences::clone(&self.judges.current()))
    }

    /// Changes the preferences: only the settings API (a person) or a person's answer does.
    pub async fn prefer(&self, event: Event) -> Result<(), RuntimeError> {
        self.prefer_all(vec![event]).await
    }

    /// Changes the preferences by several events, written as one batch (all or none); the
    /// log's writer applies them once they are durable.
    pub async fn prefer_all(&self, events: Vec<Event>) -> Result<(), RuntimeError> {
        let at_ms = chat::now_ms();
        let records = events
            .into_iter()
            .map(|event| Record { at_ms, event })
            .collect();
        self.log.append(STREAM.to_string(), records).await?;
        Ok(())
    }

    /// The log sequence of the newest preferences record this node's preferences hold,
    /// changing as they do: what a node in a cluster signals to the others.
    pub fn preferences_seq(&self) -> tokio::sync::watch::Receiver<u64> {
        self.preferences_seq.clone()
    }

    /// Folds the preferences again from the log, every node's records of them included (a
    /// reader sees the stream to its end), and publishes them; answers the newest preferences
    /// record's sequence.
    pub async fn fold_preferences(&self) -> Result<u64, RuntimeError> {
        Ok(self.log.refold().await?)
    }

    /// Takes chats over from the node that served them before (this node holds their root's
    /// lease now, and has let go whatever it held of them): each chat the log holds is taken
    /// over (`EventLog::take_over`: a marker fenced at its end, so the old writer's late
    /// writes are refused, and the old writer's groups not whole yet aborted) and held in
    /// memory as the takeover read it, so its next message starts from there. A chat with
    /// nothing in the log is left as it is: nothing of it can become whole behind this node's
    /// writes, and its first write is fenced at 0.
    pub async fn take_over(&self, chats: Vec<String>) -> Result<(), RuntimeError> {
        self.ask_supervisor(|reply| SupervisorMsg::TakeOver(chats, reply))
            .await?
    }

    /// The first record of a stream the log holds (a chat's or a task's opening), `None`
    /// when it has none: where a task made before the cluster's roots bucket finds its parent.
    pub async fn first_record(&self, id: &str) -> Result<Option<Record>, RuntimeError> {
        let (log, id) = (Arc::clone(&self.events), id.to_string());
        tokio::task::block_in_place(|| log.first(&id))
            .map(|first| first.and_then(|entry| entry.record.ok()))
            .map_err(|cause| RuntimeError::Read {
                what: Reading::Chat(id.clone()),
                cause,
            })
    }

    /// Aborts what each node not in `live` left open on its chain (`EventLog::abort_departed`),
    /// so that a group of a node gone for good no longer holds the event feed back; answers
    /// the nodes aborted.
    pub async fn abort_departed(&self, live: Vec<String>) -> Result<Vec<String>, RuntimeError> {
        let log = Arc::clone(&self.events);
        let live: Vec<&str> = live.iter().map(String::as_str).collect();
        tokio::task::block_in_place(|| log.abort_departed(&live)).map_err(|cause| {
            RuntimeError::Read {
                what: Reading::Chains,
                cause,
            }
        })
    }

    /// Lets chats go from memory, once they are served by another node: each actor answers
    /// what it took and stops (no write of it after this returns), and nothing of them is
    /// held; if one comes back here, it comes back from the log.
    pub async fn let_go(&self, chats: Vec<String>) -> Result<(), RuntimeError> {
        let stopping = self
            .ask_supervisor(|reply| SupervisorMsg::LetGo(chats, reply))
            .await?;
        for actor in stopping {
            let id = actor.get_name().unwrap_or_default();
            actor
                .wait(Some(CALL_TIMEOUT))
                .await
                .map_err(|_| RuntimeError::Timeout {
                    part: Part::Chat(self.names.chat_id(&id).unwrap_or(&id).to_string()),
                    after: CALL_TIMEOUT,
                })?;
        }
        Ok(())
    }

    /// Whether the log holds anything of `chat` (its newest message as the log's server has
    /// it, seen or not), without bringing it into memory: a chat only looked at, with nothing
    /// recorded, needs no actor (and in a cluster, no lease).
    pub async fn is_recorded(&self, chat: &str) -> Result<bool, RuntimeError> {
        let log = Arc::clone(&self.events);
        tokio::task::block_in_place(|| log.end_of(chat))
            .map(|end| end > 0)
            .map_err(|cause| RuntimeError::Read {
                what: Reading::Chat(chat.to_string()),
                cause,
            })
    }

    /// The ids of the chats in memory.
    pub async fn chat_ids(&self) -> Result<Vec<String>, RuntimeError> {
        self.ask_supervisor(SupervisorMsg::Ids).await
    }

    /// Whether the event log is written, as it stands.
    pub fn log_standing(&self) -> Standing {
        self.log.standing()
    }

    /// Why the event log can't be written now (a write failed, or its writer stopped), if
    /// it can't.
    pub fn log_trouble(&self) -> Option<String> {
        self.log.standing().trouble().map(str::to_string)
    }

    /// Whether the event log can be written now: [`RuntimeError::Unwritable`] with the
    /// reason when it can't (nothing is judged then).
    pub fn writable(&self) -> Result<(), RuntimeError> {
        match self.log_trouble() {
            None => Ok(()),
            Some(reason) => Err(RuntimeError::Unwritable { reason }),
        }
    }

    /// Waits until the log's writer has stopped for good (its thread ended unclosed), and
    /// says why: what `warden serve` exits on.
    pub async fn writer_stopped(&self) -> String {
        self.log.stopped_for_good().await
    }

    /// Gives the log's writer a fault, for tests of what its failures do. Not reachable from
    /// the HTTP API.
    #[doc(hidden)]
    pub fn inject(&self, fault: Fault) {
        self.log.inject(fault);
    }

    /// How many chats are in memory.
    pub async fn in_memory(&self) -> Result<usize, RuntimeError> {
        Ok(self.chats_in_memory().await?.total())
    }

    /// How many chats are in memory, with an actor and idle (their state alone).
    pub async fn chats_in_memory(&self) -> Result<InMemory, RuntimeError> {
        self.ask_supervisor(SupervisorMsg::InMemory).await
    }

    /// The bytes the event log takes on disk (sled keeps several times what it holds).
    pub async fn log_bytes(&self) -> Result<u64, RuntimeError> {
        self.ask_supervisor(SupervisorMsg::LogBytes).await?
    }

    /// Closes the log (a last flush), then stops every actor. An error says what failed:
    /// the last flush (what was acknowledged had been flushed before, and stays), or the
    /// stop; never claimed as done.
    pub async fn shutdown(&self) -> Result<(), RuntimeError> {
        let closed = self.ask_supervisor(SupervisorMsg::Close).await;
        // Wait for every actor to stop, so the log is let go when this returns.
        self.supervisor
            .stop_and_wait(Some("shutdown".to_string()), Some(CALL_TIMEOUT))
            .await
            .map_err(|_| RuntimeError::Timeout {
                part: Part::Supervisor,
                after: CALL_TIMEOUT,
            })?;
        closed?.map_err(RuntimeError::LastFlush)
    }
}

/// Calls an actor and waits for its reply (within [`CALL_TIMEOUT`]); an error names the
/// part called, made by `part` only when it is needed.
/// Sends a chat a message and waits for its reply, the chat brought into memory if it is not.
/// A chat that let itself go (idle) between the lookup and the send never read the message,
/// so it is sent once more to the chat the supervisor brings back. Used by the runtime's
/// handle and by a task reaching its parent alike.
pub(crate) async fn send_to_chat<R: Send + 'static>(
    names: &names::Names,
    supervisor: &ActorRef<SupervisorMsg>,
    chat: &str,
    mut build: impl FnMut(RpcReplyPort<R>) -> ChatMsg,
) -> Result<R, RuntimeError> {
    if let Some(actor) = names.alive_chat(chat) {
        match actor.call(&mut build, Some(CALL_TIMEOUT)).await {
            Ok(ractor::rpc::CallResult::Success(value)) => return Ok(value),
            Ok(ractor::rpc::CallResult::Timeout) => {
                return Err(RuntimeError::Timeout {
                    part: Part::Chat(chat.to_string()),
                    after: CALL_TIMEOUT,
                });
            }
            // Gone before it read the message: bring it back and send again.
            Ok(ractor::rpc::CallResult::SenderError) | Err(_) => {}
        }
    }
    let id = chat.to_string();
    let actor = call(
        supervisor,
        || Part::Supervisor,
        |reply| SupervisorMsg::Chat(id, reply),
    )
    .await??;
    call(&actor, || Part::Chat(chat.to_string()), build).await
}

/// A panic's message, when it has one.
pub(crate) fn panic_text(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message")
}

pub(crate) async fn call<M, R>(
    actor: &ActorRef<M>,
    part: impl FnOnce() -> Part,
    build: impl FnOnce(ractor::RpcReplyPort<R>) -> M,
) -> Result<R, RuntimeError>
where
    M: ractor::Message,
    R: Send + 'static,
{
    RuntimeError::unanswered(
        part,
        CALL_TIMEOUT,
        actor.call(build, Some(CALL_TIMEOUT)).await,
    )
}
