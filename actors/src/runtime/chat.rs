//! The chat actor: one per chat and per task. It holds the chat's state, appends every
//! event to the log before applying it, and asks the judge with a read-only view of it.
//! What a step and an answer come to is the chat law's (`warden::chat::law`); the actor
//! gathers what the law needs, runs the second look and appends what the law says.

use super::error::{Part, RuntimeError};
use super::judge::{JudgeMsg, Judges};
use super::log::{Appended, Later, LogHandle};
use super::names::Names;
use super::supervisor::SupervisorMsg;
use super::watch::{WatchActor, WatchMsg};
use super::{Made, call, send_to_chat};
use crate::second_look::SecondLook;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use warden::chat::law::{self, Decided, Look, Recording, Situation, Watched};
use warden::chat::{Answer, ChatState, Company, Event, Offers, Record};
use warden::mode::Mode;
use warden::preferences::STREAM;
use warden::second_look::{Looked, Purpose};
use warden::step::{Context, Step};
use warden::verdict::Verdict;
use warden_storage::{Replayed, should_snapshot};

/// A verdict in a chat, with the question it put to the person if it asks.
#[derive(Debug, Clone)]
pub struct Judged {
    pub verdict: Verdict,
    /// The question's id, when the verdict asks: the person answers it by this id.
    pub question: Option<u64>,
    /// What the question's card offers besides allowing once and denying.
    pub offers: Offers,
}

/// What a chat actor does.
pub enum ChatMsg {
    /// Record an event (durable before the reply).
    Record(Event, RpcReplyPort<Result<(), RuntimeError>>),
    /// Record events as one batch (all durable before the reply, or none written).
    RecordAll(Vec<Event>, RpcReplyPort<Result<(), RuntimeError>>),
    /// Judge a step in this chat. `record` false: a look that records nothing (no
    /// question, no count), for a host that asks the person itself.
    Judge {
        step: Step,
        cwd: String,
        record: bool,
        /// The host's id for the step (Claude Code's `tool_use_id`): a question it asks is
        /// kept with it, so the step's running answers that question and no other.
        id: Option<String>,
        reply: RpcReplyPort<Result<Judged, RuntimeError>>,
    },
    /// The person's answer to one of this chat's questions.
    Answer {
        question: u64,
        answer: Answer,
        /// The host's id of the step whose running answered it; none: the person did.
        ran: Option<String>,
        reply: RpcReplyPort<Result<(), RuntimeError>>,
    },
    /// Become a task of `parent` (this chat is the task): the parent writes the task's
    /// opening, what it inherits and its own `TaskCreated` as one batch ([`ChatMsg::HandOn`]).
    /// A chat that is a task of `parent` with this scope already is [`Made::Already`] (a
    /// retry whose first attempt completed); one that is something else is
    /// [`RuntimeError::Taken`].
    OpenTask {
        parent: String,
        scoped: bool,
        reply: RpcReplyPort<Result<Made, RuntimeError>>,
    },
    /// From a task of this chat, becoming one ([`ChatMsg::OpenTask`]): write what it starts
    /// from (its `Opened` when `open`, and what it inherits) with this chat's `TaskCreated`
    /// (unless the chat lists the task already), as one batch; answer the task's records
    /// once durable, or `None` when nothing was missing. Only a task sends this to its
    /// chat, never a chat to its task, so the two never wait on each other.
    HandOn {
        task: String,
        scoped: bool,
        open: bool,
        reply: RpcReplyPort<Result<Option<Handed>, RuntimeError>>,
    },
    /// The chat's state.
    State(RpcReplyPort<ChatState>),
    /// The chat's mode and whether it is stopped, for its tasks (they never run above it).
    Mode(RpcReplyPort<(Mode, bool)>),
    /// Time passes (the supervisor's sweep): a chat with no message for long enough stops its
    /// actor, and the supervisor holds its state alone ([`Held`]) until it leaves memory.
    Tick,
}

/// A task's records as its chat wrote them: the last one's sequence number, and the records.
pub type Handed = (u64, Vec<Record>);

/// The chat actor.
pub struct ChatActor;

/// What a chat actor starts from.
pub struct ChatArgs {
    pub id: String,
    /// Its state: read from the log, or held by the supervisor while it was idle.
    pub held: Held,
    pub log: LogHandle,
    pub judges: Judges,
    pub supervisor: ActorRef<SupervisorMsg>,
    pub names: Names,
    pub protected: Arc<[String]>,
    /// With no message for this long, the actor stops and hands its state back ([`Held`]).
    pub active: Duration,
    /// The second look, when one is configured.
    pub look: Option<SecondLook>,
    pub listen_port: Option<u16>,
    pub thresholds: Arc<warden::watch::Thresholds>,
}

/// A chat's state and where it stands in the log: what its actor starts from, and all an
/// idle chat keeps in memory once its actor has stopped (a few hundred bytes and its words,
/// where an actor with its mailboxes and task takes about eight KiB). The supervisor holds
/// it until the chat leaves memory, and starts the chat's next actor from it.
///
/// INVARIANT: it is the state of the chat's last actor as it stopped, which had applied
/// every record of the chat the log acknowledged, so starting from it is starting from the
/// log; a chat whose actor failed is read from the log again.
pub struct Held {
    pub state: Arc<ChatState>,
    /// The sequence number of the chat's newest record (0: none).
    pub last_seq: u64,
    /// Records applied since the chat's latest snapshot ([`should_snapshot`]).
    pub since_snapshot: u64,
    /// When the chat last had a message.
    pub touched: Instant,
}

impl From<Replayed> for Held {
    fn from(replayed: Replayed) -> Held {
        Held {
            state: Arc::new(replayed.state),
            last_seq: replayed.last_seq,
            since_snapshot: replayed.events,
            touched: Instant::now(),
        }
    }
}

/// A chat actor's state.
pub struct ChatRun {
    id: String,
    /// Shared read-only with the judge for a step's call, and changed in place after it.
    state: Arc<ChatState>,
    last_seq: u64,
    since_snapshot: u64,
    log: LogHandle,
    judges: Judges,
    supervisor: ActorRef<SupervisorMsg>,
    names: Names,
    protected: Arc<[String]>,
    look: Option<SecondLook>,
    listen_port: Option<u16>,
    thresholds: Arc<warden::watch::Thresholds>,
    active: Duration,
    touched: Instant,
    /// The behaviour watch, spawned on the chat's first app step.
    watch: Option<ActorRef<WatchMsg>>,
    myself: ActorRef<ChatMsg>,
    /// The chat's latest looks, by what the model read ([`look_key`]), newest last: a peek
    /// at a step its judge already looked at reuses that look instead of asking again.
    looks: VecDeque<(String, Looked)>,
    /// An append of this chat failed: the log may hold records its state lacks, so the chat
    /// fails once it has answered and comes back from the log.
    unsure: bool,
    /// Records nobody waits for, handed to the log's writer and not applied yet, oldest
    /// first: each is applied once the writer says it is written.
    later: VecDeque<Later>,
}

/// How many looks a chat remembers for its peeks: Claude Code's `PermissionRequest` follows
/// its `PreToolUse` at once, and a turn's parallel calls are a handful.
const LOOKS_KEPT: usize = 16;

/// What the model reads for a look, without the nonce: two looks with the same key would
/// read the same prompt, so the one answer stands for both.
fn look_key(step: &Step, ctx: &Context, note: &str, purpose: Purpose) -> String {
    warden::second_look::prompt(step, ctx, note, purpose, 0)
        .into_iter()
        .map(|message| message.content)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The host's clock, in milliseconds since the epoch.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl ChatRun {
    /// What the chat keeps once its actor has stopped: its state, with no room to spare. The
    /// watch (linked, so stopped with it) is spawned again from the state's counts, and the
    /// looks kept for a peek are let go: a peek follows its judge at once.
    pub fn into_held(mut self) -> Held {
        if let Some(state) = Arc::get_mut(&mut self.state) {
            state.shrink_to_fit();
        }
        Held {
            state: self.state,
            last_seq: self.last_seq,
            since_snapshot: self.since_snapshot,
            touched: self.touched,
        }
    }

    /// Appends events and applies them once the log says they are durable.
    async fn append(&mut self, events: Vec<Event>) -> Result<(), RuntimeError> {
        let at_ms = now_ms();
        let records: Vec<Record> = events
            .into_iter()
            .map(|event| Record { at_ms, event })
            .collect();
        // A step judged that counted nothing changes no later decision: it is handed to the
        // writer, which writes it after everything handed before and makes it durable by the
        // same group's flush; nobody waits for either, and it is applied once written.
        if records.iter().all(|r| r.event.is_record_only()) {
            let behind = self.log.is_behind();
            let later = self
                .log
                .hand(self.id.clone(), records)
                .inspect_err(|_| self.unsure = true)?;
            if !behind {
                self.later.push_back(later);
                return Ok(());
            }
            // The writer is far behind the chats: this step waits until its record is
            // written (not flushed), so the writer's channel stays bounded.
            let written = later.wait(&self.log).await;
            self.take_written();
            let (seq, records) = written.inspect_err(|_| self.unsure = true)?;
            self.applied(seq, records);
            return Ok(());
        }
        let (seq, records) = self
            .log
            .append_returning(self.id.clone(), records)
            .await
            .inspect_err(|_| self.unsure = true)?;
        // The writer answers in the order it was handed appends: what this chat handed
        // before is answered by now, and applied first.
        self.take_written();
        self.applied(seq, records);
        Ok(())
    }

    /// Applies what the writer has answered of the records handed to it, oldest first,
    /// without waiting.
    fn take_written(&mut self) {
        while let Some(later) = self.later.front_mut() {
            let Some(answer) = later.answered(&self.log) else {
                return;
            };
            self.later.pop_front();
            self.applied_later(answer);
        }
    }

    /// Waits for the writer's answer to every record handed to it, and applies them: what
    /// reads or writes more than a step's judging sees the chat as the log holds it.
    async fn catch_up(&mut self) {
        while let Some(later) = self.later.pop_front() {
            let answer = later.wait(&self.log).await;
            self.applied_later(answer);
        }
    }

    fn applied_later(&mut self, answer: Appended) {
        match answer {
            Ok((seq, records)) => self.applied(seq, records),
            Err(e) => {
                tracing::warn!(chat = %self.id, error = %e, "a judged step's record was not written");
                self.unsure = true;
            }
        }
    }

    /// Applies records the log acknowledged, `seq` the last one's sequence number.
    fn applied(&mut self, seq: u64, records: Vec<Record>) {
        if records.is_empty() {
            return;
        }
        for record in &records {
            Arc::make_mut(&mut self.state).apply(record);
        }
        if let Some(watch) = &self.watch {
            let _ = watch.send_message(WatchMsg::Sync {
                counts: self.state.counts.clone(),
                turn_started_ms: self.state.turn_started_ms,
            });
        }
        self.last_seq = self.last_seq.max(seq);
        self.since_snapshot += records.len() as u64;
        // INVARIANT: a snapshot at `seq` holds every event of the chat up to it: none is
        // taken while records handed before are not applied.
        if should_snapshot(self.since_snapshot) && self.later.is_empty() {
            self.since_snapshot = 0;
            self.log
                .snapshot(self.id.clone(), seq, Box::new((*self.state).clone()));
        }
    }

    /// The chat's watch, spawned (linked to the chat) on its first app step.
    async fn watch(&mut self) -> Result<ActorRef<WatchMsg>, RuntimeError> {
        if let Some(watch) = &self.watch {
            return Ok(watch.clone());
        }
        let args = (
            self.state.counts.clone(),
            self.state.turn_started_ms,
            Arc::clone(&self.thresholds),
        );
        let (watch, _) = Actor::spawn_linked(None, WatchActor, args, self.myself.get_cell())
            .await
            .map_err(|e| RuntimeError::Start {
                part: Part::Watch(self.id.clone()),
                cause: e.into(),
            })?;
        self.watch = Some(watch.clone());
        Ok(watch)
    }

    /// A task's ceiling: its parent chat's live mode, and whether the parent was stopped.
    async fn ceiling(&self) -> (Option<Mode>, bool) {
        let Some(parent) = self
            .state
            .parent
            .clone()
            .filter(|_| self.state.company == Company::Task)
        else {
            return (None, false);
        };
        match send_to_chat(&self.names, &self.supervisor, &parent, ChatMsg::Mode).await {
            Ok((mode, stopped)) => (Some(mode), stopped),
            // A parent that can't be reached can't vouch for anything: the task asks first.
            Err(_) => (Some(Mode::AskFirst), false),
        }
    }

    async fn judge(
        &mut self,
        step: Step,
        cwd: String,
        record: bool,
        id: Option<String>,
    ) -> Result<Judged, RuntimeError> {
        let (ceiling, parent_stopped) = self.ceiling().await;
        let situation = Situation {
            cwd,
            ceiling,
            parent_stopped,
            protected: Arc::clone(&self.protected),
            listen_port: self.listen_port,
            // A model that hasn't passed its calibration isn't used: the law asks as it
            // would with no look configured.
            second_look: self.look.as_ref().is_some_and(SecondLook::is_usable),
        };
        // A chat that takes no step needs no watch and no judge.
        let decided = match law::stopped(&self.state, &step, &situation) {
            Some(decided) => decided,
            None => self.decide(step, situation).await?,
        };
        let looked = match decided.look() {
            Some(wanted) => self.second_look(wanted, record).await,
            None => None,
        };
        let recording = record.then(|| Recording {
            now_ms: now_ms(),
            next_seq: self.last_seq + 1,
            step: id,
        });
        let judgement = law::settle(&self.state, decided, looked, recording);
        if !judgement.events.is_empty() {
            self.append(judgement.events).await?;
        }
        Ok(Judged {
            verdict: judgement.verdict,
            question: judgement.question,
            offers: judgement.offers,
        })
    }

    /// Asks the behaviour watch about an app step, then a judge from the pool for the law's
    /// decision.
    async fn decide(&mut self, step: Step, situation: Situation) -> Result<Decided, RuntimeError> {
        let watched = match &step {
            Step::App(app) => {
                let watch = self.watch().await?;
                let app = Box::new(app.clone());
                let id = &self.id;
                call(
                    &watch,
                    || Part::Watch(id.clone()),
                    |reply| WatchMsg::Look {
                        app,
                        now_ms: now_ms(),
                        reply,
                    },
                )
                .await?
            }
            _ => Watched::default(),
        };
        if let Some(decided) = self
            .judges
            .decide_here(&self.state, &step, &situation, &watched)
        {
            return decided;
        }
        let judge = self.judges.pick().ok_or(RuntimeError::NoJudge)?;
        let state = Arc::clone(&self.state);
        let decided = call(
            &judge,
            || Part::Judge,
            |reply| JudgeMsg::Judge {
                state,
                step: Box::new(step),
                situation: Box::new(situation),
                watched,
                reply,
            },
        )
        .await?;
        Ok(*decided)
    }

    /// The second look the law wants, asked of the model (a peek reuses its judge's look
    /// instead): what it answered, or `None` when no look was taken (none configured, or
    /// not usable).
    async fn second_look(&mut self, wanted: Look<'_>, record: bool) -> Option<Looked> {
        let look = self.look.as_ref()?;
        if !look.is_usable() {
            // A peek would not have looked either: one count a step.
            if record {
                look.refused();
            }
            return None;
        }
        let Look { purpose, step, ctx } = wanted;
        let note = self.judges.current().note.clone();
        let key = look_key(step, ctx, &note, purpose);
        let seen = self
            .looks
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, looked)| looked.answer);
        let answer = match seen {
            // One look per step: a peek reuses its judge's look, whatever it was.
            Some(answer) if !record => answer,
            Some(Some(kind)) => Some(kind),
            // A peek whose step no judge looked at doesn't look: the question stands.
            None if !record => None,
            _ => match look.ask(step, ctx, &note, purpose).await {
                Ok(kind) => Some(kind),
                Err(e) => {
                    tracing::warn!(chat = %self.id, error = %e, "the second look gave no answer; the question stands");
                    None
                }
            },
        };
        let this = Looked { purpose, answer };
        if record {
            self.looks.retain(|(k, _)| *k != key);
            if self.looks.len() >= LOOKS_KEPT {
                self.looks.pop_front();
            }
            self.looks.push_back((key, this));
        }
        Some(this)
    }

    async fn answer(
        &mut self,
        question: u64,
        answer: Answer,
        ran: Option<String>,
    ) -> Result<(), RuntimeError> {
        // INVARIANT: checked against the state the answer is recorded in, here in the
        // chat's own actor: an answer the card didn't offer is refused, never recorded.
        let answering = match ran {
            Some(step) => law::ran(&self.state, question, &step),
            None => law::offered(&self.state, question, answer),
        }
        .map_err(|cause| RuntimeError::Answer {
            chat: self.id.clone(),
            cause,
        })?;
        let Some(preference) = answering.preference else {
            return self.append(vec![answering.answered]).await;
        };
        // INVARIANT: the answer and what it keeps are one batch: after a crash both are in
        // the log or neither (never a rule in force while its question still waits). The
        // writer applies the preference once durable; this chat applies its answer.
        let at_ms = now_ms();
        let record = |event| Record { at_ms, event };
        let mut written = self
            .log
            .append_streams(vec![
                (STREAM.to_string(), vec![record(preference)]),
                (self.id.clone(), vec![record(answering.answered)]),
            ])
            .await
            .inspect_err(|_| self.unsure = true)?;
        if let Some((seq, records)) = written.pop() {
            self.applied(seq, records);
        }
        Ok(())
    }

    /// This chat becomes a task of `parent` ([`ChatMsg::OpenTask`]).
    async fn open_task(&mut self, parent: String, scoped: bool) -> Result<Made, RuntimeError> {
        let open = law::task_opening(&self.state, &parent, scoped).map_err(|taken| {
            RuntimeError::Taken {
                task: self.id.clone(),
                what: taken.to_string(),
            }
        })?;
        let task = self.id.clone();
        let handed = send_to_chat(&self.names, &self.supervisor, &parent, |reply| {
            ChatMsg::HandOn {
                task: task.clone(),
                scoped,
                open,
                reply,
            }
        })
        .await
        .flatten()
        // The parent may have written them: this task's state can't say.
        .inspect_err(|_| self.unsure = true)?;
        match handed {
            Some((seq, records)) => {
                self.applied(seq, records);
                Ok(if open { Made::Created } else { Made::Already })
            }
            None => Ok(Made::Already),
        }
    }

    /// Hands a task of this chat what it starts from ([`ChatMsg::HandOn`]).
    async fn hand_on(
        &mut self,
        task: String,
        scoped: bool,
        open: bool,
    ) -> Result<Option<Handed>, RuntimeError> {
        let Some(handing) = law::hand_on(&self.state, &self.id, &task, scoped, open) else {
            return Ok(None);
        };
        let at_ms = now_ms();
        let record = |event| Record { at_ms, event };
        let listed = handing.chat.is_none();
        let mut streams = vec![(task, handing.task.into_iter().map(record).collect())];
        if let Some(created) = handing.chat {
            streams.push((self.id.clone(), vec![record(created)]));
        }
        // INVARIANT: a task's opening, what it inherits and its chat's TaskCreated are one
        // batch: after a crash the task is there whole, with its chat's marks, or not at all.
        let mut written = self
            .log
            .append_streams(streams)
            .await
            .inspect_err(|_| self.unsure = true)?;
        if !listed && let Some((seq, records)) = written.pop() {
            self.applied(seq, records);
        }
        Ok(written.pop())
    }
}

impl Actor for ChatActor {
    type Msg = ChatMsg;
    type State = ChatRun;
    type Arguments = ChatArgs;

    async fn pre_start(
        &self,
        myself: ActorRef<ChatMsg>,
        args: ChatArgs,
    ) -> Result<ChatRun, ActorProcessingErr> {
        Ok(ChatRun {
            id: args.id,
            last_seq: args.held.last_seq,
            since_snapshot: args.held.since_snapshot,
            state: args.held.state,
            log: args.log,
            judges: args.judges,
            supervisor: args.supervisor,
            names: args.names,
            protected: args.protected,
            look: args.look,
            listen_port: args.listen_port,
            thresholds: args.thresholds,
            active: args.active,
            touched: Instant::now(),
            watch: None,
            myself,
            looks: VecDeque::new(),
            unsure: false,
            later: VecDeque::new(),
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<ChatMsg>,
        message: ChatMsg,
        run: &mut ChatRun,
    ) -> Result<(), ActorProcessingErr> {
        if !matches!(message, ChatMsg::Tick) {
            run.touched = Instant::now();
        }
        match message {
            // A step's judging reads nothing a record nobody waits for changes.
            ChatMsg::Judge { .. } | ChatMsg::Mode(_) | ChatMsg::Tick => run.take_written(),
            _ => run.catch_up().await,
        }
        match message {
            // The work is boxed: an idle chat's task then holds only a small future, and the
            // judging one takes its room only while it runs.
            // INVARIANT: opening an open chat with its own settings records nothing (a host
            // that opens its chat at every start doesn't grow the log).
            ChatMsg::Record(event, reply) if run.state.is_opened_as(&event) => {
                let _ = reply.send(Ok(()));
            }
            ChatMsg::Record(event, reply) => {
                let _ = reply.send(Box::pin(run.append(vec![event])).await);
            }
            ChatMsg::RecordAll(events, reply) => {
                let _ = reply.send(Box::pin(run.append(events)).await);
            }
            ChatMsg::Judge {
                step,
                cwd,
                record,
                id,
                reply,
            } => {
                let _ = reply.send(Box::pin(run.judge(step, cwd, record, id)).await);
            }
            ChatMsg::Answer {
                question,
                answer,
                ran,
                reply,
            } => {
                let _ = reply.send(Box::pin(run.answer(question, answer, ran)).await);
            }
            ChatMsg::OpenTask {
                parent,
                scoped,
                reply,
            } => {
                let _ = reply.send(Box::pin(run.open_task(parent, scoped)).await);
            }
            ChatMsg::HandOn {
                task,
                scoped,
                open,
                reply,
            } => {
                let _ = reply.send(Box::pin(run.hand_on(task, scoped, open)).await);
            }
            ChatMsg::State(reply) => {
                let _ = reply.send(ChatState::clone(&run.state));
            }
            ChatMsg::Mode(reply) => {
                let _ = reply.send((run.state.mode, run.state.stopped));
            }
            ChatMsg::Tick => {
                if run.touched.elapsed() >= run.active {
                    // INVARIANT: no message is lost as the actor stops: draining, it answers
                    // every message it took before it stops, and refuses the rest unread,
                    // which the caller sends again to the next actor. The supervisor starts
                    // that one from the state this one hands back ([`Held`]).
                    let _ = myself.drain();
                }
            }
        }
        if run.unsure {
            // The supervisor lets it go; its next message brings it back from the log.
            return Err(format!(
                "an append of the chat `{}` failed, so its state may be behind the log",
                run.id
            )
            .into());
        }
        Ok(())
    }
}
