//! The supervisor: owns the log's writer, the judges and every chat actor, spawns a chat on
//! demand by id from the log, lets an idle chat go, and brings a crashed one back from the
//! log on its next message. A panic in one chat never touches another chat's state, and
//! nothing a chat acknowledged is lost: it is in the log. The chats it spawns are found by
//! name ([`Names`]); what it knows of them is its own.

use super::chat::{ChatActor, ChatArgs, ChatMsg};
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

/// How long the supervisor waits for a chat that is stopping to be gone before it spawns
/// the chat again (it only has its `post_stop`, which does nothing, left to run).
const STOPPING_WAIT: Duration = Duration::from_secs(1);

/// What the supervisor does.
pub enum SupervisorMsg {
    /// The actor of a chat, spawned from the log if it isn't in memory.
    Chat(
        String,
        RpcReplyPort<Result<ActorRef<ChatMsg>, RuntimeError>>,
    ),
    /// How many chats are in memory.
    InMemory(RpcReplyPort<usize>),
    /// Time passes: every chat in memory is told, and an idle one lets itself go. One timer
    /// for all chats, rather than one per chat, keeps an idle chat small.
    Sweep,
    /// Close the log's writer: flush it and stop it. An error says the flush failed.
    Close(RpcReplyPort<Result<(), WriteError>>),
    /// The bytes the event log takes on disk.
    LogBytes(RpcReplyPort<Result<u64, RuntimeError>>),
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
    pub idle: Duration,
    pub names: Names,
    pub judges: Judges,
    pub look: Option<SecondLook>,
    pub listen_port: Option<u16>,
    pub thresholds: Arc<warden::watch::Thresholds>,
}

/// The supervisor's state.
pub struct SupervisorState {
    log: Arc<EventLog>,
    facts: Arc<dyn Facts + Send + Sync>,
    writer: LogWriter,
    judges: Judges,
    names: Names,
    /// The chats in memory, by their actors' ids: the supervisor's own, for the sweep and
    /// the count, never shared.
    chats: HashMap<ActorId, (String, ActorRef<ChatMsg>)>,
    /// The judges' places in the pool, by their actors' ids.
    judge_places: HashMap<ActorId, usize>,
    protected: Arc<[String]>,
    look: Option<SecondLook>,
    listen_port: Option<u16>,
    thresholds: Arc<warden::watch::Thresholds>,
    idle: Duration,
}

impl SupervisorState {
    async fn chat(
        &mut self,
        myself: &ActorRef<SupervisorMsg>,
        id: String,
    ) -> Result<ActorRef<ChatMsg>, RuntimeError> {
        let name = self.names.chat(&id);
        if let Some(actor) = ActorRef::<ChatMsg>::where_is(&name) {
            if is_alive(&actor) {
                return Ok(actor);
            }
            // It is stopping (idle, or failed), and lets its name go as it stops: another is
            // spawned under that name once it has.
            let _ = actor.wait(Some(STOPPING_WAIT)).await;
        }
        let log = Arc::clone(&self.log);
        let key = id.clone();
        let replayed =
            tokio::task::block_in_place(|| log.chat(&key)).map_err(|cause| RuntimeError::Read {
                what: Reading::Chat(id.clone()),
                cause,
            })?;
        let args = ChatArgs {
            id: id.clone(),
            replayed,
            log: self.writer.handle(),
            judges: self.judges.clone(),
            supervisor: myself.clone(),
            names: self.names.clone(),
            protected: Arc::clone(&self.protected),
            look: self.look.clone(),
            listen_port: self.listen_port,
            thresholds: Arc::clone(&self.thresholds),
            idle: self.idle,
        };
        let (actor, _) = Actor::spawn_linked(Some(name), ChatActor, args, myself.get_cell())
            .await
            .map_err(|e| RuntimeError::Start {
                part: Part::Chat(id.clone()),
                cause: e.to_string(),
            })?;
        self.chats.insert(actor.get_id(), (id, actor.clone()));
        Ok(actor)
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
        let period = (args.idle / 2).max(std::time::Duration::from_millis(50));
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
            SupervisorMsg::Chat(id, reply) => {
                let _ = reply.send(state.chat(&myself, id).await);
            }
            SupervisorMsg::Sweep => {
                for (_, chat) in state.chats.values() {
                    let _ = chat.send_message(ChatMsg::Tick);
                }
            }
            SupervisorMsg::InMemory(reply) => {
                let _ = reply.send(state.chats.len());
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
        let (cell, failure) = match event {
            SupervisionEvent::ActorTerminated(cell, _, _) => (cell, None),
            SupervisionEvent::ActorFailed(cell, error) => (cell, Some(error.to_string())),
            _ => return Ok(()),
        };
        let id = cell.get_id();
        if let Some((chat, _)) = state.chats.remove(&id) {
            // Its state is in the log, and its name is let go: the next message about it
            // brings it back.
            if let Some(error) = failure {
                tracing::error!(
                    chat,
                    error,
                    "a chat failed; it comes back from the log on its next message"
                );
            }
        } else if let Some(at) = state.judge_places.remove(&id) {
            tracing::error!(error = ?failure, "a judge stopped; starting another");
            state.start_judge(&myself, at).await?;
        }
        Ok(())
    }
}
