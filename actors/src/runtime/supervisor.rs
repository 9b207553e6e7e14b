//! The supervisor: owns the log's writer, the judges and every chat in memory. It spawns a
//! chat's actor on demand, from the log or from the state it holds while the chat is idle;
//! an actor with nothing to do for a while stops and hands it its state ([`Held`]), which
//! it keeps until the chat has been idle long enough to leave memory. A crashed chat comes
//! back from the log on its next message. A panic in one chat never touches another chat's
//! state, and nothing a chat acknowledged is lost: it is in the log. The chats' actors are
//! found by name ([`Names`]); what it knows of them is its own.
//!
//! Its handler reads nothing from the log: a chat not in memory is held as *loading* while
//! a task of its own reads it ([`LOADS`] at once, on tokio's blocking pool), every request
//! for it waits on that one read for [`LOAD_WAIT`] at most, and the read comes back as a
//! message ([`SupervisorMsg::Loaded`]) that holds it. On JetStream with a server gone a read
//! takes seconds; every other chat is served meanwhile.

use super::chat::{ChatActor, ChatArgs, ChatMsg, ChatRun, Held};
use super::error::{Part, Reading, RuntimeError, StartCause, WriteError};
use super::judge::{JudgeActor, JudgeArgs, Judges};
use super::log::LogWriter;
use super::names::{Names, is_alive};
use crate::second_look::SecondLook;
use ractor::{Actor, ActorId, ActorProcessingErr, ActorRef, RpcReplyPort, SupervisionEvent};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
use warden::facts::Facts;
use warden_storage::{EventLog, LogError, Replayed};

/// How long a request waits for its chat to be read from the log, counted from when it began
/// to wait, before it is answered [`RuntimeError::Loading`]: under [`super::CALL_TIMEOUT`],
/// so its caller hears why rather than that the supervisor did not answer.
pub const LOAD_WAIT: Duration = Duration::from_secs(8);

/// How many chats are read from the log at once (replays and takeovers); the others wait for
/// a place.
pub const LOADS: usize = 16;

/// How long the supervisor, stopping, waits for the reads under way to end.
const READS_AT_STOP: Duration = Duration::from_secs(3);

/// How a chat is read from the log: `EventLog::chat`, or a test's double of it
/// (`Options::replay`).
pub type Replay = Arc<dyn Fn(&EventLog, &str) -> Result<Replayed, LogError> + Send + Sync>;

/// Why a chat's read found nothing to hold.
#[derive(Debug, Clone)]
pub enum Unread {
    /// The log failed to read it.
    Log(LogError),
    /// The read panicked (a fault of warden's): its message.
    Panicked(String),
    /// Not read: a takeover stopped at an earlier chat's failure before it read this one,
    /// or the supervisor stopped.
    Skipped,
}

impl Unread {
    /// What a request for `chat` is answered.
    fn error(&self, chat: &str) -> RuntimeError {
        match self {
            Unread::Log(cause) => RuntimeError::Read {
                what: Reading::Chat(chat.to_string()),
                cause: cause.clone(),
            },
            Unread::Panicked(_) | Unread::Skipped => RuntimeError::Gone {
                part: Part::Chat(chat.to_string()),
            },
        }
    }
}

/// What a chat's read, off the supervisor's handler, found ([`SupervisorMsg::Loaded`]).
pub enum ChatRead {
    /// Its replay (`EventLog::chat`).
    Replay(Result<Replayed, Unread>),
    /// Its takeover (`EventLog::take_over`); None: nothing of it in the log, so no marker.
    TakeOver(Result<Option<Replayed>, Unread>),
}

/// How the supervisor answers for a chat's actor.
type ChatReply = RpcReplyPort<Result<ActorRef<ChatMsg>, RuntimeError>>;

/// What the supervisor does.
pub enum SupervisorMsg {
    /// The actor of a chat, spawned from the state held while it was idle, or from the log
    /// if it isn't in memory. A chat whose actor is stopping gets the next one, once the
    /// stopped one has handed its state back.
    Chat(String, ChatReply),
    /// How many chats are in memory: with an actor, and held as their state alone.
    InMemory(RpcReplyPort<InMemory>),
    /// Time passes: every chat actor is told, and one with nothing to do stops; an idle chat
    /// held long enough leaves memory. One timer for all chats, rather than one per chat,
    /// keeps an idle chat small.
    Sweep,
    /// Close the log's writer: flush it and stop it. An error says the flush failed.
    Close(RpcReplyPort<Result<(), WriteError>>),
    /// The bytes the event log takes on disk.
    LogBytes(RpcReplyPort<Result<u64, RuntimeError>>),
    /// Let these chats go from memory (they are served elsewhere now): their state held
    /// while idle dropped, their actors drained (what each took is answered) and not held
    /// once stopped. Answers the actors still stopping, to wait for.
    LetGo(Vec<String>, RpcReplyPort<Vec<ActorRef<ChatMsg>>>),
    /// The ids of the chats in memory, with an actor or idle.
    Ids(RpcReplyPort<Vec<String>>),
    /// Take these chats over from another node ([`EventLog::take_over`]) and hold each as
    /// the takeover read it; one with nothing in the log is left alone. Sent once they were
    /// let go: a chat that still has an actor here refuses them all. They are read one after
    /// the other off the handler, each coming back as [`SupervisorMsg::Loaded`]; answered
    /// once every one has (the first failure stops the reading, and is the answer).
    TakeOver(Vec<String>, RpcReplyPort<Result<(), RuntimeError>>),
    /// A chat's read came back: held, and its waiting requests answered, if the chat is still
    /// loading from this read (`token`); dropped if it was let go or read again since.
    Loaded {
        chat: String,
        token: u64,
        /// Boxed: a chat's state is large beside every other message.
        read: Box<ChatRead>,
    },
    /// A request for a chat being read (`waiter`) waited its bound: answered
    /// [`RuntimeError::Loading`] if it still waits.
    Waited { chat: String, waiter: u64 },
}

/// Whether this node may serve a chat (in a cluster: it holds the lease of the chat's root);
/// asked before a chat is brought into memory. None: every chat is served here.
pub type Gate = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// Runs `read` off the supervisor's handler: once one of the [`LOADS`] places is free, on
/// tokio's blocking pool (the log's calls block: a disk read, or JetStream's round trips).
async fn read_off<T: Send + 'static>(
    loads: Arc<Semaphore>,
    log: Arc<EventLog>,
    read: impl FnOnce(&EventLog) -> Result<T, LogError> + Send + 'static,
) -> Result<T, Unread> {
    // Closed once the supervisor stopped: nothing is read for it any more.
    let place = loads.acquire_owned().await.map_err(|_| Unread::Skipped)?;
    let read = tokio::task::spawn_blocking(move || {
        let _place = place;
        read(&log)
    })
    .await;
    match read {
        Ok(read) => read.map_err(Unread::Log),
        Err(e) => {
            let error = if e.is_panic() {
                super::panic_text(e.into_panic().as_ref()).to_string()
            } else {
                e.to_string()
            };
            tracing::error!(error, "a read of the event log panicked");
            Err(Unread::Panicked(error))
        }
    }
}

/// The supervisor actor.
pub struct Supervisor;

/// What the supervisor starts from.
pub struct SupervisorArgs {
    pub log: Arc<EventLog>,
    /// The log's writer, started on `log` (the runtime keeps a handle on it).
    pub writer: LogWriter,
    pub facts: Arc<dyn Facts + Send + Sync>,
    pub protected: Vec<String>,
    /// A chat with no message for this long leaves memory.
    pub idle: Duration,
    /// A chat with no message for this long stops its actor; its state stays in memory.
    pub active: Duration,
    pub names: Names,
    pub judges: Judges,
    pub look: Option<SecondLook>,
    pub listen_port: Option<u16>,
    pub thresholds: Arc<warden::watch::Thresholds>,
    pub gate: Option<Gate>,
    pub replay: Option<Replay>,
    pub load_wait: Duration,
}

/// How many chats are in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InMemory {
    /// Chats with an actor: running, or stopping.
    pub actors: usize,
    /// Idle chats, held as their state alone.
    pub idle: usize,
}

impl InMemory {
    /// Every chat in memory.
    pub fn total(self) -> usize {
        self.actors + self.idle
    }
}

/// A chat in memory, as the supervisor holds it.
enum Holding {
    /// Its actor, running or stopping; callers waiting for the next one, if it is stopping.
    Actor(ActorRef<ChatMsg>, Vec<ChatReply>),
    /// Idle: its state alone, until it leaves memory or its next message starts an actor.
    Idle(Held),
}

/// A request waiting for its chat's read.
struct Waiter {
    /// Its id, that its timer names ([`SupervisorMsg::Waited`]).
    id: u64,
    reply: ChatReply,
    /// Its timer, stopped once it is answered.
    timer: tokio::task::AbortHandle,
}

impl Waiter {
    fn answer(self, answer: Result<ActorRef<ChatMsg>, RuntimeError>) {
        self.timer.abort();
        let _ = self.reply.send(answer);
    }
}

/// A chat being read from the log, off the supervisor's handler.
struct Loading {
    /// The read whose result is held ([`SupervisorMsg::Loaded`]); any other is dropped.
    token: u64,
    /// The requests waiting for it: one read answers them all.
    waiting: Vec<Waiter>,
}

/// The supervisor's state.
pub struct SupervisorState {
    log: Arc<EventLog>,
    facts: Arc<dyn Facts + Send + Sync>,
    writer: LogWriter,
    judges: Judges,
    names: Names,
    /// The chats in memory, by id: the supervisor's own, never shared.
    ///
    /// INVARIANT: a chat has one actor at most, and the state held for an idle chat is its
    /// last actor's: a chat's actor is spawned only when the chat has none here, and an
    /// actor's state is taken only from the actor held for its chat.
    chats: HashMap<String, Holding>,
    /// The judges' places in the pool, by their actors' ids.
    judge_places: HashMap<ActorId, usize>,
    protected: Arc<[String]>,
    look: Option<SecondLook>,
    listen_port: Option<u16>,
    thresholds: Arc<warden::watch::Thresholds>,
    idle: Duration,
    active: Duration,
    gate: Option<Gate>,
    /// Chats let go whose actors are still stopping: what they hand back is not held.
    leaving: std::collections::HashSet<String>,
    /// The chats being read from the log, by id.
    ///
    /// INVARIANT: the handler reads nothing from the log; a chat is in `chats` or in
    /// `loading`, never both, and a read is held only while its chat is loading from it (its
    /// token), so a read of a chat let go, or read again since, is never held.
    loading: HashMap<String, Loading>,
    /// The places for reads at once ([`LOADS`]).
    loads: Arc<Semaphore>,
    /// The last token or waiter id given.
    issued: u64,
    /// How long a request waits for its chat's read ([`LOAD_WAIT`]).
    load_wait: Duration,
    replay: Option<Replay>,
}

impl SupervisorState {
    /// Answers `reply` with the chat's actor: the one it has, or one spawned from what is
    /// held; a chat whose actor is stopping is answered once it has stopped, and one not in
    /// memory once it is read from the log ([`SupervisorState::load`]).
    async fn chat(&mut self, myself: &ActorRef<SupervisorMsg>, id: String, reply: ChatReply) {
        let held = match self.chats.remove(&id) {
            Some(Holding::Actor(actor, mut waiting)) => {
                if is_alive(&actor) {
                    let _ = reply.send(Ok(actor.clone()));
                } else {
                    // It stopped taking messages (idle, or failed), and lets its name go
                    // as it stops: the next one starts from what it hands back.
                    waiting.push(reply);
                }
                self.chats.insert(id, Holding::Actor(actor, waiting));
                return;
            }
            Some(Holding::Idle(held)) => held,
            None => return self.load(myself, id, reply),
        };
        let _ = reply.send(self.spawn(myself, id, held).await);
    }

    /// Whether this node may serve the chat now.
    fn served_here(&self, id: &str) -> bool {
        // INVARIANT: in a cluster a chat is brought into memory only on the node that holds
        // its root's lease: a request that raced a move finds it refused, not served twice.
        self.gate.as_ref().is_none_or(|gate| gate(id))
    }

    /// A new token, or waiter id.
    fn issue(&mut self) -> u64 {
        self.issued += 1;
        self.issued
    }

    /// Has `reply` wait for the chat's read, at most `load_wait`; a chat not being read yet
    /// is read from the log in a task of its own, and comes back as [`SupervisorMsg::Loaded`].
    fn load(&mut self, myself: &ActorRef<SupervisorMsg>, id: String, reply: ChatReply) {
        if !self.loading.contains_key(&id) {
            if !self.served_here(&id) {
                let _ = reply.send(Err(RuntimeError::Elsewhere { chat: id }));
                return;
            }
            let token = self.issue();
            self.loading.insert(
                id.clone(),
                Loading {
                    token,
                    waiting: Vec::new(),
                },
            );
            let (log, loads, myself) = (
                Arc::clone(&self.log),
                Arc::clone(&self.loads),
                myself.clone(),
            );
            let replay = self.replay.clone();
            let chat = id.clone();
            tokio::spawn(async move {
                let key = chat.clone();
                let read = read_off(loads, log, move |log| match &replay {
                    Some(replay) => replay(log, &key),
                    None => log.chat(&key),
                })
                .await;
                // A supervisor gone (shut down) holds nothing.
                let _ = myself.send_message(SupervisorMsg::Loaded {
                    chat,
                    token,
                    read: Box::new(ChatRead::Replay(read)),
                });
            });
        }
        let waiter = self.issue();
        let timer = {
            let (myself, chat, after) = (myself.clone(), id.clone(), self.load_wait);
            tokio::spawn(async move {
                tokio::time::sleep(after).await;
                let _ = myself.send_message(SupervisorMsg::Waited { chat, waiter });
            })
            .abort_handle()
        };
        if let Some(loading) = self.loading.get_mut(&id) {
            loading.waiting.push(Waiter {
                id: waiter,
                reply,
                timer,
            });
        }
    }

    /// A chat's read came back ([`SupervisorMsg::Loaded`]): held as the old synchronous
    /// read held it (its end told to the writer's fence, then its actor spawned for the
    /// requests waiting, or its state held idle if none waits any more), if the chat is still
    /// loading from it; a failed read answers every request waiting and holds nothing.
    async fn loaded(
        &mut self,
        myself: &ActorRef<SupervisorMsg>,
        id: String,
        token: u64,
        read: ChatRead,
    ) {
        // Let go, or read again since (a takeover's read): dropped.
        if self
            .loading
            .get(&id)
            .is_none_or(|loading| loading.token != token)
        {
            return;
        }
        let Some(Loading { waiting, .. }) = self.loading.remove(&id) else {
            return;
        };
        let (replayed, taken_over) = match read {
            ChatRead::Replay(Ok(replayed)) => (replayed, false),
            ChatRead::TakeOver(Ok(Some(replayed))) => (replayed, true),
            // Nothing of it in the log, so no takeover's marker; or the takeover stopped
            // before it: the requests waiting have it read as any chat is.
            ChatRead::TakeOver(Ok(None) | Err(Unread::Skipped))
            | ChatRead::Replay(Err(Unread::Skipped)) => {
                for waiter in waiting {
                    waiter.timer.abort();
                    self.load(myself, id.clone(), waiter.reply);
                }
                return;
            }
            ChatRead::Replay(Err(unread)) | ChatRead::TakeOver(Err(unread)) => {
                for waiter in waiting {
                    waiter.answer(Err(unread.error(&id)));
                }
                return;
            }
        };
        let held: Held = replayed.into();
        if waiting.is_empty() {
            // Every request stopped waiting (the bound): held idle, so the next one finds it
            // without reading it again. A takeover's is held even with nothing replayed.
            if taken_over || held.state.events > 0 {
                self.writer.handle().know(id.clone(), held.last_seq);
                self.chats.insert(id, Holding::Idle(held));
            }
            return;
        }
        // The lease may have moved while it was read.
        if !self.served_here(&id) {
            for waiter in waiting {
                waiter.answer(Err(RuntimeError::Elsewhere { chat: id.clone() }));
            }
            return;
        }
        // Before its actor can append: its writes are fenced at the end it was read at.
        // (A chat held idle keeps the fence its last actor's appends left.)
        self.writer.handle().know(id.clone(), held.last_seq);
        match self.spawn_actor(myself, id.clone(), held).await {
            Ok(actor) => {
                for waiter in waiting {
                    waiter.answer(Ok(actor.clone()));
                }
            }
            Err(cause) => {
                for waiter in waiting {
                    waiter.answer(Err(RuntimeError::Start {
                        part: Part::Chat(id.clone()),
                        cause: cause.clone(),
                    }));
                }
            }
        }
    }

    /// A request waited its bound for its chat's read ([`SupervisorMsg::Waited`]): answered
    /// why, if it still waits. The read goes on.
    fn waited(&mut self, id: String, waiter: u64) {
        let Some(loading) = self.loading.get_mut(&id) else {
            return;
        };
        if let Some(at) = loading.waiting.iter().position(|w| w.id == waiter) {
            let after = self.load_wait;
            loading
                .waiting
                .swap_remove(at)
                .answer(Err(RuntimeError::Loading { chat: id, after }));
        }
    }

    /// Spawns the chat's actor from the state held for it.
    async fn spawn(
        &mut self,
        myself: &ActorRef<SupervisorMsg>,
        id: String,
        held: Held,
    ) -> Result<ActorRef<ChatMsg>, RuntimeError> {
        if !self.served_here(&id) {
            return Err(RuntimeError::Elsewhere { chat: id });
        }
        self.spawn_actor(myself, id.clone(), held)
            .await
            .map_err(|cause| RuntimeError::Start {
                part: Part::Chat(id),
                cause,
            })
    }

    /// Spawns the chat's actor from `held`, and holds it; an error says why it could not.
    async fn spawn_actor(
        &mut self,
        myself: &ActorRef<SupervisorMsg>,
        id: String,
        held: Held,
    ) -> Result<ActorRef<ChatMsg>, StartCause> {
        let name = self.names.chat(&id);
        let args = ChatArgs {
            id: id.clone(),
            held,
            log: self.writer.handle(),
            judges: self.judges.clone(),
            supervisor: myself.clone(),
            names: self.names.clone(),
            protected: Arc::clone(&self.protected),
            look: self.look.clone(),
            listen_port: self.listen_port,
            thresholds: Arc::clone(&self.thresholds),
            active: self.active,
        };
        let (actor, _) =
            Actor::spawn_linked(Some(name), ChatActor, args, myself.get_cell()).await?;
        self.chats
            .insert(id, Holding::Actor(actor.clone(), Vec::new()));
        Ok(actor)
    }
    /// A chat's actor stopped: what it handed back (`run`: its state, when it stopped
    /// because it had nothing to do; none when it failed) is held while the chat is idle,
    /// and callers that waited for it get the next actor.
    async fn stopped(
        &mut self,
        myself: &ActorRef<SupervisorMsg>,
        id: &str,
        actor: ActorId,
        run: Option<ChatRun>,
    ) {
        let waiting = match self.chats.remove(id) {
            Some(Holding::Actor(held, waiting)) if held.get_id() == actor => waiting,
            // Not the actor held for this chat (never so while a chat has one actor at
            // most): nothing of it is kept.
            Some(other) => {
                self.chats.insert(id.to_string(), other);
                return;
            }
            None => return,
        };
        // A failed actor's state may be behind the log, and a chat with nothing in the log
        // needs nothing held: the log brings either back. A chat let go holds nothing: if
        // it comes back here, it comes back from the log, with what other nodes wrote.
        let let_go = self.leaving.remove(id);
        let held = run
            .filter(|_| !let_go)
            .map(ChatRun::into_held)
            .filter(|held| held.state.events > 0 && held.touched.elapsed() < self.idle);
        match held {
            Some(held) => {
                self.chats.insert(id.to_string(), Holding::Idle(held));
            }
            // Out of memory: its actor stopped, so every append of it is before this; a next
            // actor reads it from the log again, and tells its end.
            None => self.writer.handle().forget(id.to_string()),
        }
        // The first spawns the next actor from what is held (or the log), the others find it.
        for reply in waiting {
            self.chat(myself, id.to_string(), reply).await;
        }
    }

    /// Takes chats over ([`SupervisorMsg::TakeOver`]): each is held as loading from the
    /// takeover (a read of it under way is dropped, its requests wait on the takeover's),
    /// and read one after the other in a task of its own; `reply` is answered once every
    /// read is sent back, so the caller's next request finds each chat held.
    fn take_over(
        &mut self,
        myself: &ActorRef<SupervisorMsg>,
        ids: Vec<String>,
        reply: RpcReplyPort<Result<(), RuntimeError>>,
    ) {
        if let Some(id) = ids
            .iter()
            .find(|id| matches!(self.chats.get(*id), Some(Holding::Actor(..))))
        {
            let _ = reply.send(Err(RuntimeError::Start {
                part: Part::Chat(id.clone()),
                cause: StartCause::StillHeld,
            }));
            return;
        }
        let mut reads: Vec<(String, u64)> = Vec::new();
        for id in ids {
            if reads.iter().any(|(read, _)| *read == id) {
                continue;
            }
            // What was held of it is older than what the other node wrote.
            if self.chats.remove(&id).is_some() {
                self.writer.handle().forget(id.clone());
            }
            let token = self.issue();
            self.loading
                .entry(id.clone())
                .or_insert_with(|| Loading {
                    token,
                    waiting: Vec::new(),
                })
                .token = token;
            reads.push((id, token));
        }
        let (log, loads, myself) = (
            Arc::clone(&self.log),
            Arc::clone(&self.loads),
            myself.clone(),
        );
        tokio::spawn(async move {
            let mut failed = None;
            for (chat, token) in reads {
                let read = if failed.is_some() {
                    Err(Unread::Skipped)
                } else {
                    let key = chat.clone();
                    read_off(Arc::clone(&loads), Arc::clone(&log), move |log| {
                        // INVARIANT: a chat with nothing in the log gets no marker: a marker
                        // alone would make it a chat of the log's (listed, with no event).
                        if log.end_of(&key)? == 0 {
                            return Ok(None);
                        }
                        log.take_over(&key).map(Some)
                    })
                    .await
                };
                if let Err(unread) = &read
                    && failed.is_none()
                {
                    failed = Some(unread.error(&chat));
                }
                let _ = myself.send_message(SupervisorMsg::Loaded {
                    chat,
                    token,
                    read: Box::new(ChatRead::TakeOver(read)),
                });
            }
            let _ = reply.send(failed.map_or(Ok(()), Err));
        });
    }
    /// Starts a judge in the pool's place `at` (at start, or after one stopped).
    async fn start_judge(
        &mut self,
        myself: &ActorRef<SupervisorMsg>,
        at: usize,
    ) -> Result<(), ActorProcessingErr> {
        let args = JudgeArgs {
            facts: Arc::clone(&self.facts),
            preferences: self.judges.preferences(),
        };
        let name = self.judges.name(at).to_string();
        let (judge, _) =
            Actor::spawn_linked(Some(name), JudgeActor, args, myself.get_cell()).await?;
        self.judge_places.insert(judge.get_id(), at);
        Ok(())
    }
}

impl Actor for Supervisor {
    type Msg = SupervisorMsg;
    type State = SupervisorState;
    type Arguments = SupervisorArgs;

    async fn pre_start(
        &self,
        myself: ActorRef<SupervisorMsg>,
        args: SupervisorArgs,
    ) -> Result<SupervisorState, ActorProcessingErr> {
        let period = (args.active.min(args.idle) / 2).max(Duration::from_millis(50));
        myself.send_interval(period, || SupervisorMsg::Sweep);
        let mut state = SupervisorState {
            log: args.log,
            facts: args.facts,
            writer: args.writer,
            judges: args.judges,
            names: args.names,
            chats: HashMap::new(),
            judge_places: HashMap::new(),
            protected: args.protected.into(),
            look: args.look,
            listen_port: args.listen_port,
            thresholds: args.thresholds,
            idle: args.idle,
            active: args.active.min(args.idle),
            gate: args.gate,
            leaving: std::collections::HashSet::new(),
            loading: HashMap::new(),
            loads: Arc::new(Semaphore::new(LOADS)),
            issued: 0,
            load_wait: args.load_wait,
            replay: args.replay,
        };
        for at in 0..state.judges.size() {
            state.start_judge(&myself, at).await?;
        }
        Ok(state)
    }

    async fn handle(
        &self,
        myself: ActorRef<SupervisorMsg>,
        message: SupervisorMsg,
        state: &mut SupervisorState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            SupervisorMsg::Chat(id, reply) => state.chat(&myself, id, reply).await,
            SupervisorMsg::Sweep => {
                let idle = state.idle;
                let log = state.writer.handle();
                state.chats.retain(|id, holding| match holding {
                    Holding::Actor(actor, _) => {
                        let _ = actor.send_message(ChatMsg::Tick);
                        true
                    }
                    Holding::Idle(held) => {
                        let kept = held.touched.elapsed() < idle;
                        if !kept {
                            log.forget(id.clone());
                        }
                        kept
                    }
                });
            }
            SupervisorMsg::InMemory(reply) => {
                let mut n = InMemory::default();
                for holding in state.chats.values() {
                    match holding {
                        Holding::Actor(..) => n.actors += 1,
                        Holding::Idle(_) => n.idle += 1,
                    }
                }
                let _ = reply.send(n);
            }
            SupervisorMsg::LogBytes(reply) => {
                // Off the handler too: on JetStream it asks the server.
                let log = Arc::clone(&state.log);
                tokio::spawn(async move {
                    let size = tokio::task::spawn_blocking(move || log.size_on_disk()).await;
                    let _ = reply.send(match size {
                        Ok(size) => size.map_err(|cause| RuntimeError::Read {
                            what: Reading::Size,
                            cause,
                        }),
                        Err(_) => Err(RuntimeError::Gone {
                            part: Part::Supervisor,
                        }),
                    });
                });
            }
            SupervisorMsg::Close(reply) => {
                let _ = reply.send(state.writer.close().await);
            }
            SupervisorMsg::Ids(reply) => {
                // A chat being read is listed too, so that a move lets it go.
                let ids = state.chats.keys().chain(state.loading.keys());
                let _ = reply.send(ids.cloned().collect());
            }
            SupervisorMsg::TakeOver(ids, reply) => state.take_over(&myself, ids, reply),
            SupervisorMsg::Loaded { chat, token, read } => {
                state.loaded(&myself, chat, token, *read).await;
            }
            SupervisorMsg::Waited { chat, waiter } => state.waited(chat, waiter),
            SupervisorMsg::LetGo(ids, reply) => {
                let mut stopping = Vec::new();
                for id in ids {
                    // Being read: its requests are answered, and the read is dropped when
                    // it comes (nothing of it was told to the writer's fence).
                    if let Some(loading) = state.loading.remove(&id) {
                        for waiter in loading.waiting {
                            waiter.answer(Err(RuntimeError::Elsewhere { chat: id.clone() }));
                        }
                    }
                    match state.chats.remove(&id) {
                        Some(Holding::Actor(actor, waiting)) => {
                            let _ = actor.drain();
                            state.leaving.insert(id.clone());
                            stopping.push(actor.clone());
                            state.chats.insert(id, Holding::Actor(actor, waiting));
                        }
                        Some(Holding::Idle(_)) => state.writer.handle().forget(id),
                        None => {}
                    }
                }
                let _ = reply.send(stopping);
            }
        }
        Ok(())
    }

    async fn post_stop(
        &self,
        _myself: ActorRef<SupervisorMsg>,
        state: &mut SupervisorState,
    ) -> Result<(), ActorProcessingErr> {
        // Nothing is acknowledged after this; what was is on disk, and the log is let go.
        // A writer closed before (`Runtime::shutdown`) said how it went there.
        if !state.writer.is_closed()
            && let Err(e) = state.writer.close().await
        {
            tracing::error!(error = %e, "the event log could not be flushed at shutdown");
        }
        // The reads under way end (each holds the log), for a while at most (under the
        // bound `Runtime::shutdown` waits for this), and none starts after this.
        let places = u32::try_from(LOADS).unwrap_or(u32::MAX);
        let _ = tokio::time::timeout(READS_AT_STOP, state.loads.acquire_many(places)).await;
        state.loads.close();
        Ok(())
    }

    async fn handle_supervisor_evt(
        &self,
        myself: ActorRef<SupervisorMsg>,
        event: SupervisionEvent,
        state: &mut SupervisorState,
    ) -> Result<(), ActorProcessingErr> {
        let (cell, run, failure) = match event {
            SupervisionEvent::ActorTerminated(cell, boxed, _) => {
                // A chat actor that stopped by itself hands back its state.
                let run = boxed.and_then(|mut boxed| boxed.take::<ChatRun>().ok());
                (cell, run, None)
            }
            SupervisionEvent::ActorFailed(cell, error) => (cell, None, Some(error.to_string())),
            _ => return Ok(()),
        };
        let id = cell.get_id();
        let chat = cell
            .get_name()
            .and_then(|name| state.names.chat_id(&name).map(str::to_string));
        if let Some(chat) = chat {
            // Its name is let go, and its state is in the log (and held, if it was idle):
            // the next message about it brings it back.
            if let Some(error) = failure {
                tracing::error!(
                    chat,
                    error,
                    "a chat failed; it comes back from the log on its next message"
                );
            }
            state.stopped(&myself, &chat, id, run).await;
        } else if let Some(at) = state.judge_places.remove(&id) {
            tracing::error!(error = ?failure, "a judge stopped; starting another");
            state.start_judge(&myself, at).await?;
        }
        Ok(())
    }
}
