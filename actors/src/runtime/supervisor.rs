//! The supervisor: owns the log and judge actors and every chat actor, spawns a chat on
//! demand by id from the log, lets an idle chat go, and brings a crashed one back from the
//! log on its next message. A panic in one chat never touches another chat's state, and
//! nothing a chat acknowledged is lost: it is in the log.

use super::call;
use super::chat::{ChatActor, ChatArgs, ChatMsg};
use super::judge::{JudgeActor, JudgeArgs, JudgeMsg};
use super::log::{LogActor, LogMsg};
use ractor::{Actor, ActorId, ActorProcessingErr, ActorRef, RpcReplyPort, SupervisionEvent};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use warden::facts::Facts;
use warden::preferences::{Preferences, STREAM};
use warden_storage::EventLog;

/// What the supervisor does.
pub enum SupervisorMsg {
    /// The actor of a chat, spawned from the log if it isn't in memory.
    Chat(String, RpcReplyPort<Result<ActorRef<ChatMsg>, String>>),
    /// How many chats are in memory.
    InMemory(RpcReplyPort<usize>),
    /// Time passes: every chat in memory is told, and an idle one lets itself go. One timer
    /// for all chats, rather than one per chat, keeps an idle chat small.
    Sweep,
    /// Flush the log.
    Flush(RpcReplyPort<Result<(), String>>),
    /// The judge, for preferences.
    Judge(RpcReplyPort<ActorRef<JudgeMsg>>),
    /// The bytes the event log takes on disk.
    LogBytes(RpcReplyPort<Result<u64, String>>),
}

/// The supervisor actor.
pub struct Supervisor;

/// What the supervisor starts from.
pub struct SupervisorArgs {
    pub log: Arc<EventLog>,
    pub facts: Arc<dyn Facts + Send + Sync>,
    pub protected: Vec<String>,
    pub idle: Duration,
}

/// The supervisor's state.
pub struct SupervisorState {
    log: Arc<EventLog>,
    facts: Arc<dyn Facts + Send + Sync>,
    log_actor: ActorRef<LogMsg>,
    judge: ActorRef<JudgeMsg>,
    chats: HashMap<String, ActorRef<ChatMsg>>,
    ids: HashMap<ActorId, String>,
    protected: Vec<String>,
    idle: Duration,
}

impl SupervisorState {
    async fn chat(
        &mut self,
        myself: &ActorRef<SupervisorMsg>,
        id: String,
    ) -> Result<ActorRef<ChatMsg>, String> {
        if let Some(actor) = self.chats.get(&id) {
            return Ok(actor.clone());
        }
        let log = Arc::clone(&self.log);
        let key = id.clone();
        let replayed = tokio::task::block_in_place(|| log.chat(&key)).map_err(|e| e.to_string())?;
        let args = ChatArgs {
            id: id.clone(),
            replayed,
            log: self.log_actor.clone(),
            judge: self.judge.clone(),
            supervisor: myself.clone(),
            protected: self.protected.clone(),
            idle: self.idle,
        };
        let (actor, _) = Actor::spawn_linked(None, ChatActor, args, myself.get_cell())
            .await
            .map_err(|e| format!("the chat `{id}` could not start: {e}"))?;
        self.ids.insert(actor.get_id(), id.clone());
        self.chats.insert(id, actor.clone());
        Ok(actor)
    }
}

/// The person's preferences, folded from their stream in the log.
fn preferences(log: &EventLog) -> Result<Preferences, ActorProcessingErr> {
    let mut preferences = Preferences::default();
    for entry in log.records(STREAM)? {
        if let Ok(record) = entry?.record {
            preferences.apply(&record);
        }
    }
    Ok(preferences)
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
        let (log_actor, _) =
            Actor::spawn_linked(None, LogActor, Arc::clone(&args.log), myself.get_cell()).await?;
        let preferences = preferences(&args.log)?;
        let judge_args = JudgeArgs {
            facts: Arc::clone(&args.facts),
            log: log_actor.clone(),
            preferences,
        };
        let (judge, _) =
            Actor::spawn_linked(None, JudgeActor, judge_args, myself.get_cell()).await?;
        Ok(SupervisorState {
            log: args.log,
            facts: args.facts,
            log_actor,
            judge,
            chats: HashMap::new(),
            ids: HashMap::new(),
            protected: args.protected,
            idle: args.idle,
        })
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
            SupervisorMsg::Judge(reply) => {
                let _ = reply.send(state.judge.clone());
            }
            SupervisorMsg::Sweep => {
                for chat in state.chats.values() {
                    let _ = chat.send_message(ChatMsg::Tick);
                }
            }
            SupervisorMsg::InMemory(reply) => {
                let _ = reply.send(state.chats.len());
            }
            SupervisorMsg::LogBytes(reply) => {
                let log = Arc::clone(&state.log);
                let size = tokio::task::block_in_place(|| log.size_on_disk());
                let _ = reply.send(size.map_err(|e| e.to_string()));
            }
            SupervisorMsg::Flush(reply) => {
                let flushed = call(&state.log_actor, LogMsg::FlushNow)
                    .await
                    .map_err(|e| e.to_string())
                    .and_then(|r| r);
                let _ = reply.send(flushed);
            }
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
        if let Some(chat) = state.ids.remove(&id) {
            // Its state is in the log: the next message about it brings it back.
            state.chats.remove(&chat);
            if let Some(error) = failure {
                tracing::error!(
                    chat,
                    error,
                    "a chat failed; it comes back from the log on its next message"
                );
            }
        } else if id == state.judge.get_id() {
            tracing::error!(error = ?failure, "the judge stopped; starting another from the log");
            let preferences = preferences(&state.log)?;
            let judge_args = JudgeArgs {
                facts: Arc::clone(&state.facts),
                log: state.log_actor.clone(),
                preferences,
            };
            let (judge, _) =
                Actor::spawn_linked(None, JudgeActor, judge_args, myself.get_cell()).await?;
            state.judge = judge;
        } else if id == state.log_actor.get_id() {
            // Without the log nothing can be acknowledged: stop rather than pretend.
            tracing::error!(error = ?failure, "the log actor stopped; the supervisor stops too");
            myself.stop(Some("the event log stopped".to_string()));
        }
        Ok(())
    }
}
