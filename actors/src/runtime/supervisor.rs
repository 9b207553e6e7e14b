//! The supervisor: owns the log's writer, the judges and every chat in memory. It spawns a
//! chat's actor on demand, from the log or from the state it holds while the chat is idle;
//! an actor with nothing to do for a while stops and hands it its state ([`Held`]), which
//! it keeps until the chat has been idle long enough to leave memory. A crashed chat comes
//! back from the log on its next message. A panic in one chat never touches another chat's
//! state, and nothing a chat acknowledged is lost: it is in the log. The chats' actors are
//! found by name ([`Names`]); what it knows of them is its own.

use super::chat::{ChatActor, ChatArgs, ChatMsg, ChatRun, Held};
use super::error::{Part, Reading, RuntimeError, WriteError};
use super::judge::{JudgeActor, JudgeArgs, Judges};
use super::log::LogWriter;
use super::names::{Names, is_alive};
use crate::second_look::SecondLook;
use ractor::{Actor, ActorId, ActorProcessingErr, ActorRef, RpcReplyPort, SupervisionEvent};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use warden::facts::Facts;
use warden_storage::EventLog;

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
    /// let go: a chat that still has an actor here is refused.
    TakeOver(Vec<String>, RpcReplyPort<Result<(), RuntimeError>>),
}

/// Whether this node may serve a chat (in a cluster: it holds the lease of the chat's root);
/// asked before a chat is brought into memory. None: every chat is served here.
pub type Gate = Arc<dyn Fn(&str) -> bool + Send + Sync>;

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
}

impl SupervisorState {
    /// Answers `reply` with the chat's actor: the one it has, or one spawned from what is
    /// held or from the log; a chat whose actor is stopping is answered once it has stopped.
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
            Some(Holding::Idle(held)) => Some(held),
            None => None,
        };
        let _ = reply.send(self.spawn(myself, id, held).await);
    }

    /// Spawns the chat's actor from the state held for it, or from the log.
    async fn spawn(
        &mut self,
        myself: &ActorRef<SupervisorMsg>,
        id: String,
        held: Option<Held>,
    ) -> Result<ActorRef<ChatMsg>, RuntimeError> {
        // INVARIANT: in a cluster a chat is brought into memory only on the node that holds
        // its root's lease: a request that raced a move finds it refused, not served twice.
        if let Some(gate) = &self.gate
            && !gate(&id)
        {
            return Err(RuntimeError::Elsewhere { chat: id });
        }
        let held = match held {
            Some(held) => held,
            None => {
                let log = Arc::clone(&self.log);
                let key = id.clone();
                let replayed: Held = tokio::task::block_in_place(|| log.chat(&key))
                    .map_err(|cause| RuntimeError::Read {
                        what: Reading::Chat(id.clone()),
                        cause,
                    })?
                    .into();
                // Before its actor can append: its writes are fenced at the end it was read
                // at. (A chat held idle keeps the fence its last actor's appends left.)
                self.writer.handle().know(id.clone(), replayed.last_seq);
                replayed
            }
        };
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
        let (actor, _) = Actor::spawn_linked(Some(name), ChatActor, args, myself.get_cell())
            .await
            .map_err(|e| RuntimeError::Start {
                part: Part::Chat(id.clone()),
                cause: e.to_string(),
            })?;
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

    /// Takes chats over ([`SupervisorMsg::TakeOver`]).
    fn take_over(&mut self, ids: Vec<String>) -> Result<(), RuntimeError> {
        for id in ids {
            if let Some(Holding::Actor(..)) = self.chats.get(&id) {
                return Err(RuntimeError::Start {
                    part: Part::Chat(id),
                    cause: "it is still in memory here, so it can't be taken over".to_string(),
                });
            }
            // What was held of it is older than what the other node wrote.
            if self.chats.remove(&id).is_some() {
                self.writer.handle().forget(id.clone());
            }
            let log = Arc::clone(&self.log);
            let read = tokio::task::block_in_place(|| {
                // INVARIANT: a chat with nothing in the log gets no marker: a marker alone
                // would make it a chat of the log's (listed, with no event).
                if log.end_of(&id)? == 0 {
                    return Ok(None);
                }
                log.take_over(&id).map(Some)
            })
            .map_err(|cause| RuntimeError::Read {
                what: Reading::Chat(id.clone()),
                cause,
            })?;
            if let Some(replayed) = read {
                self.writer.handle().know(id.clone(), replayed.last_seq);
                self.chats.insert(id, Holding::Idle(replayed.into()));
            }
        }
        Ok(())
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
                let log = Arc::clone(&state.log);
                let size = tokio::task::block_in_place(|| log.size_on_disk());
                let _ = reply.send(size.map_err(|cause| RuntimeError::Read {
                    what: Reading::Size,
                    cause,
                }));
            }
            SupervisorMsg::Close(reply) => {
                let _ = reply.send(state.writer.close().await);
            }
            SupervisorMsg::Ids(reply) => {
                let _ = reply.send(state.chats.keys().cloned().collect());
            }
            SupervisorMsg::TakeOver(ids, reply) => {
                let _ = reply.send(state.take_over(ids));
            }
            SupervisorMsg::LetGo(ids, reply) => {
                let mut stopping = Vec::new();
                for id in ids {
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
