//! The running supervisor: a log actor that group-commits events, a judge actor that serves
//! the law's decisions, and one actor per chat and per task holding its state, spawned on
//! demand from the log by a supervisor.
//!
//! ```text
//!   Supervisor ──┬── ChatActor "c1" ── WatchActor (from its first app step)
//!                ├── ChatActor "t7"
//!                ├── JudgeActor
//!                └── LogActor ── EventLog (sled)
//! ```
//!
//! Actors are thin: they decode a message, ask the law, append to the log, and reply. An
//! event is applied to a chat's state only after the log acknowledged it durable.

mod chat;
mod judge;
mod log;
mod supervisor;
mod watch;

pub use chat::{ChatMsg, Judged};
pub use supervisor::{Supervisor, SupervisorArgs, SupervisorMsg};

use anyhow::{Context as _, Result, anyhow};
use judge::JudgeMsg;
use ractor::{Actor, ActorRef};
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
}

/// What opening a runtime needs.
pub struct Options {
    /// Paths refused to the agent, from the configuration.
    pub protected: Vec<String>,
    /// A chat with no message for this long leaves memory; its log brings it back.
    pub idle: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            protected: Vec::new(),
            idle: Duration::from_secs(600),
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
        let args = SupervisorArgs {
            log: Arc::new(log),
            facts,
            protected: options.protected,
            idle: options.idle,
        };
        let (supervisor, _handle) = Actor::spawn(None, Supervisor, args)
            .await
            .map_err(|e| anyhow!("starting the supervisor: {e}"))?;
        Ok(Runtime { supervisor })
    }

    async fn chat(&self, chat: &str) -> Result<ActorRef<ChatMsg>> {
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

    /// Records an event in a chat: durable in the log before this returns.
    pub async fn record(&self, chat: &str, event: Event) -> Result<()> {
        let actor = self.chat(chat).await?;
        call(&actor, |reply| ChatMsg::Record(event, reply))
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
        let actor = self.chat(chat).await?;
        let cwd = cwd.to_string();
        call(&actor, |reply| ChatMsg::Judge { step, cwd, reply })
            .await?
            .map_err(|e| anyhow!(e))
    }

    /// The person's answer to a question.
    pub async fn answer(&self, chat: &str, question: u64, answer: Answer) -> Result<()> {
        let actor = self.chat(chat).await?;
        call(&actor, |reply| ChatMsg::Answer {
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
        let actor = self.chat(chat).await?;
        call(&actor, ChatMsg::State).await
    }

    /// The person's preferences.
    pub async fn preferences(&self) -> Result<Preferences> {
        let judge = call(&self.supervisor, SupervisorMsg::Judge).await?;
        call(&judge, JudgeMsg::Preferences).await
    }

    /// Changes the preferences: only the settings API (a person) or a person's answer does.
    pub async fn prefer(&self, event: Event) -> Result<()> {
        let judge = call(&self.supervisor, SupervisorMsg::Judge).await?;
        call(&judge, |reply| JudgeMsg::Prefer { event, reply })
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
