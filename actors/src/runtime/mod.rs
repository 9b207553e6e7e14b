//! The running supervisor: one actor per chat and per task holding its state, spawned on
//! demand from the log; a small pool of judge actors serving the law's decisions; and the
//! log's writer thread, which group-commits every event before it is acknowledged.
//!
//! ```text
//!   Supervisor ──┬── ChatActor "c1" ── WatchActor (from its first app step)
//!                ├── ChatActor "t7"
//!                ├── JudgeActor ×cores (place 0 keeps the preferences)
//!                └── LogWriter thread ── EventLog (sled)
//! ```
//!
//! Actors are thin: they decode a message, ask the law, append to the log, and reply. An
//! event is applied to a chat's state only after the log acknowledged it durable. A step
//! goes from the caller straight to its chat (the chats in memory are in a shared map); the
//! supervisor is asked only to bring a chat into memory.

mod chat;
mod judge;
mod log;
mod supervisor;
mod watch;

pub use chat::{ChatMsg, Judged};
pub use supervisor::{Supervisor, SupervisorArgs, SupervisorMsg};

use anyhow::{Context as _, Result, anyhow};
use judge::{JudgeMsg, Judges};
use ractor::{Actor, ActorRef, RpcReplyPort};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use warden::chat::{Answer, ChatState, Company, Event};
use warden::facts::Facts;
use warden::mode::Mode;
use warden::preferences::Preferences;
use warden::step::Step;
use warden_storage::EventLog;

/// How long a call into the runtime may take before it is an error (the caller asks).
pub const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// A handle on the running supervisor.
#[derive(Clone)]
pub struct Runtime {
    supervisor: ActorRef<SupervisorMsg>,
    chats: supervisor::Chats,
    judges: Judges,
}

/// What opening a runtime needs.
pub struct Options {
    /// Paths refused to the agent, from the configuration.
    pub protected: Vec<String>,
    /// A chat with no message for this long leaves memory; its log brings it back.
    pub idle: Duration,
    /// The second look (`docs/second-look.md`), when one is configured.
    pub look: Option<crate::second_look::SecondLook>,
    /// The port `warden serve` listens on, when not the default: steps naming it are refused.
    pub listen_port: Option<u16>,
    /// The person's thresholds for the behaviour watch (checked by `watch::thresholds`).
    pub thresholds: warden::watch::Thresholds,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            protected: Vec::new(),
            idle: Duration::from_secs(600),
            look: None,
            listen_port: None,
            thresholds: warden::watch::Thresholds::new(),
        }
    }
}

impl Runtime {
    /// Opens the event log in `dir` and starts the supervisor.
    pub async fn open(
        dir: &Path,
        facts: Arc<dyn Facts + Send + Sync>,
        options: Options,
    ) -> Result<Runtime> {
        let log = EventLog::open(dir)
            .with_context(|| format!("opening the event log in {}", dir.display()))?;
        let chats = supervisor::Chats::default();
        let judges = Judges::per_core();
        let args = SupervisorArgs {
            log: Arc::new(log),
            facts,
            protected: options.protected,
            idle: options.idle,
            chats: Arc::clone(&chats),
            judges: judges.clone(),
            look: options.look,
            listen_port: options.listen_port,
            thresholds: Arc::new(options.thresholds),
        };
        let (supervisor, _handle) = Actor::spawn(None, Supervisor, args)
            .await
            .map_err(|e| anyhow!("starting the supervisor: {e}"))?;
        Ok(Runtime {
            supervisor,
            chats,
            judges,
        })
    }

    /// A chat's actor: the one in memory, or one the supervisor brings back from the log.
    async fn chat(&self, chat: &str) -> Result<ActorRef<ChatMsg>> {
        if let Some(actor) = supervisor::alive(&self.chats, chat) {
            return Ok(actor);
        }
        self.spawned(chat).await
    }

    async fn spawned(&self, chat: &str) -> Result<ActorRef<ChatMsg>> {
        let id = chat.to_string();
        match self
            .supervisor
            .call(|reply| SupervisorMsg::Chat(id, reply), Some(CALL_TIMEOUT))
            .await
        {
            Ok(ractor::rpc::CallResult::Success(result)) => result.map_err(|e| anyhow!(e)),
            Ok(_) => Err(anyhow!("the supervisor did not answer in time")),
            Err(e) => Err(anyhow!("the supervisor is gone: {e}")),
        }
    }

    /// Sends a chat a message and waits for its reply. A chat that let itself go (idle)
    /// between the lookup and the send never saw the message, so it is sent once more to the
    /// chat the supervisor brings back.
    async fn on_chat<R: Send + 'static>(
        &self,
        chat: &str,
        mut build: impl FnMut(RpcReplyPort<R>) -> ChatMsg,
    ) -> Result<R> {
        if let Some(actor) = supervisor::alive(&self.chats, chat) {
            match actor.call(&mut build, Some(CALL_TIMEOUT)).await {
                Ok(ractor::rpc::CallResult::Success(value)) => return Ok(value),
                Ok(ractor::rpc::CallResult::Timeout) => {
                    return Err(anyhow!("the chat did not answer within {CALL_TIMEOUT:?}"));
                }
                // Gone before it read the message: bring it back and send again.
                Ok(ractor::rpc::CallResult::SenderError) | Err(_) => {}
            }
        }
        let actor = self.spawned(chat).await?;
        call(&actor, build).await
    }

    /// Records an event in a chat: durable in the log before this returns.
    pub async fn record(&self, chat: &str, event: Event) -> Result<()> {
        self.on_chat(chat, |reply| ChatMsg::Record(event.clone(), reply))
            .await?
            .map_err(|e| anyhow!(e))
    }

    /// Opens a chat (or changes nothing if it is open): its mode and who is in it.
    pub async fn open_chat(&self, chat: &str, mode: Mode, company: Company) -> Result<()> {
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
    pub async fn judge(&self, chat: &str, step: Step, cwd: &str) -> Result<Judged> {
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
    ) -> Result<Judged> {
        self.judging(chat, step, cwd, true, id).await
    }

    /// Judges a step in a chat's state and records nothing: no question, no count. For a
    /// host that asks the person itself (Claude Code's `PermissionRequest`), so one step
    /// doesn't leave two questions.
    pub async fn peek(&self, chat: &str, step: Step, cwd: &str) -> Result<Judged> {
        self.judging(chat, step, cwd, false, None).await
    }

    async fn judging(
        &self,
        chat: &str,
        step: Step,
        cwd: &str,
        record: bool,
        id: Option<String>,
    ) -> Result<Judged> {
        self.on_chat(chat, |reply| ChatMsg::Judge {
            step: step.clone(),
            cwd: cwd.to_string(),
            record,
            id: id.clone(),
            reply,
        })
        .await?
        .map_err(|e| anyhow!(e))
    }

    /// The person's answer to a question.
    pub async fn answer(&self, chat: &str, question: u64, answer: Answer) -> Result<()> {
        self.on_chat(chat, |reply| ChatMsg::Answer {
            question,
            answer,
            reply,
        })
        .await?
        .map_err(|e| anyhow!(e))
    }

    /// Creates a task from a chat: a frozen copy of what the chat hands on.
    pub async fn create_task(&self, chat: &str, task: &str, scoped: bool) -> Result<()> {
        let parent = self.chat(chat).await?;
        let state = self.state(chat).await?;
        let child = self.chat(task).await?;
        let opened = Event::Opened {
            mode: state.mode,
            company: Company::Task,
            parent: Some(chat.to_string()),
            scoped,
        };
        for event in [opened, state.inheritance(scoped)] {
            call(&child, |reply| ChatMsg::Record(event, reply))
                .await?
                .map_err(|e| anyhow!(e))?;
        }
        let created = Event::TaskCreated {
            task: task.to_string(),
            scoped,
        };
        call(&parent, |reply| ChatMsg::Record(created, reply))
            .await?
            .map_err(|e| anyhow!(e))
    }

    /// A chat's state as it stands.
    pub async fn state(&self, chat: &str) -> Result<ChatState> {
        self.on_chat(chat, ChatMsg::State).await
    }

    /// The person's preferences.
    pub async fn preferences(&self) -> Result<Preferences> {
        Ok(Preferences::clone(&self.judges.current()))
    }

    /// Changes the preferences: only the settings API (a person) or a person's answer does.
    pub async fn prefer(&self, event: Event) -> Result<()> {
        let keeper = self
            .judges
            .keeper()
            .ok_or_else(|| anyhow!("no judge is running to keep the preference"))?;
        call(&keeper, |reply| JudgeMsg::Prefer { event, reply })
            .await?
            .map_err(|e| anyhow!(e))
    }

    /// How many chats are in memory.
    pub async fn in_memory(&self) -> Result<usize> {
        match self
            .supervisor
            .call(SupervisorMsg::InMemory, Some(CALL_TIMEOUT))
            .await
        {
            Ok(ractor::rpc::CallResult::Success(n)) => Ok(n),
            _ => Err(anyhow!("the supervisor did not answer")),
        }
    }

    /// The bytes the event log takes on disk (sled keeps several times what it holds).
    pub async fn log_bytes(&self) -> Result<u64> {
        call(&self.supervisor, SupervisorMsg::LogBytes)
            .await?
            .map_err(|e| anyhow!("reading the log's size: {e}"))
    }

    /// Stops every actor after the log is flushed.
    pub async fn shutdown(&self) -> Result<()> {
        let _ = self
            .supervisor
            .call(SupervisorMsg::Flush, Some(CALL_TIMEOUT))
            .await;
        // Wait for every actor to stop, so the log is closed when this returns.
        self.supervisor
            .stop_and_wait(Some("shutdown".to_string()), Some(CALL_TIMEOUT))
            .await
            .map_err(|e| anyhow!("the runtime did not stop in time: {e}"))
    }
}

/// Calls an actor and waits for its reply, or fails with a reason.
pub(crate) async fn call<M, R>(
    actor: &ActorRef<M>,
    build: impl FnOnce(ractor::RpcReplyPort<R>) -> M,
) -> Result<R>
where
    M: ractor::Message,
    R: Send + 'static,
{
    match actor.call(build, Some(CALL_TIMEOUT)).await {
        Ok(ractor::rpc::CallResult::Success(value)) => Ok(value),
        Ok(ractor::rpc::CallResult::Timeout) => {
            Err(anyhow!("an actor did not answer within {CALL_TIMEOUT:?}"))
        }
        Ok(ractor::rpc::CallResult::SenderError) => Err(anyhow!("an actor dropped the question")),
        Err(e) => Err(anyhow!("an actor is gone: {e}")),
    }
}
