//! The chat's law: what a chat makes of a step around the law's verdict, and of the person's
//! answer to a question. [`crate::law`] judges one step in one context; this adds what the
//! person and the chat already said: the person's setting for an app's tool, the classes
//! they allowed in every chat, their Always-allow-one-command rules, the answers this chat
//! kept, a stopped chat or a stopped parent; then whether the second look should look, the
//! question's class, what its card offers, and the events the chat records.
//!
//! Pure: the chat's state, the preferences, the facts, the clock and the chat's next
//! sequence number come in as values. The runtime's actors gather them, ask the behaviour
//! watch, run the second look (a model call), append what this returns and reply.
//!
//! A step is judged in two pure steps, since the second look is asked in between:
//!
//! ```text
//!   decide(state, preferences, step, facts, situation, watched) ─► Decided
//!            │  Decided::look(): the look it wants (purpose, step, context), if any
//!            ▼  the host looks, or doesn't: Option<Looked>
//!   settle(state, decided, looked, recording) ─► Judgement { verdict, question, offers, events }
//! ```
//!
//! [`stopped`] is the first step's shortcut: a chat that takes no step needs no watch, no
//! judge and no look. [`answer`] is what an answer writes, and [`offered`] the check the API
//! makes before it is recorded. [`task_opening`] and [`hand_on`] are a task's creation: what
//! its id may become, and what it and its chat record.

#[cfg(test)]
mod tests;

use super::{Answer, ChatState, Company, Event, Kept, Offers, Pending, Shown};
use crate::facts::Facts;
use crate::intent::Wanted;
use crate::law::ASKS_AT;
use crate::mode::Mode;
use crate::preferences::Preferences;
use crate::second_look::{Looked, Purpose};
use crate::step::{Context, Step};
use crate::verdict::{Decision, Risk, Verdict};
use std::sync::Arc;

/// What the host knows of a step besides the chat's state.
#[derive(Debug, Clone, Default)]
pub struct Situation {
    /// The work folder the step was asked in.
    pub cwd: String,
    /// A task's ceiling: its parent chat's live mode (`None`: not a task). A task whose
    /// parent can't be reached has Ask first as its ceiling.
    pub ceiling: Option<Mode>,
    /// The chat this task came from was stopped.
    pub parent_stopped: bool,
    /// Paths refused to the agent in every mode, from the configuration.
    pub protected: Arc<[String]>,
    /// The port `warden serve` listens on, when not the default.
    pub listen_port: Option<u16>,
    /// A second look is configured and passed its calibration: the law leaves someone
    /// else's app steps to it.
    pub second_look: bool,
}

/// What the behaviour watch said of a step (nothing, for a step that isn't an app's).
#[derive(Debug, Clone, Default)]
pub struct Watched {
    /// What the step adds to the chat's counts if it goes (`watch::counts`).
    pub counts: Vec<(String, u32)>,
    /// What LIMITS make of it (`watch::watch`): a question at each multiple, a stop.
    pub risks: Vec<Risk>,
}

/// A step decided, before the second look: [`settle`] finishes it.
#[derive(Debug, Clone)]
pub struct Decided {
    verdict: Verdict,
    /// The step as judged, the person's setting for an app's tool filled in.
    step: Step,
    /// The context it was judged in.
    ctx: Context,
    tool: String,
    /// The class a question is about, as the verdict stood before any look.
    class: String,
    /// Another chat lifted this class with Always allow.
    lifted_elsewhere: bool,
    /// What the second look is wanted for, if it is.
    purpose: Option<Purpose>,
    /// What the step adds to the counts if it goes.
    counts: Vec<(String, u32)>,
    /// An app's lookup: lookups asked at once for the same reason share one question.
    lookup: bool,
    /// The files the step downloads or decodes (`law::command::kept_by`).
    fetched: Vec<crate::step::Fetched>,
    /// The files the step writes with text that asks if run (`law::command::kept_by`).
    written: Vec<crate::step::Written>,
}

/// The second look a decision wants: what for, and what the model reads.
#[derive(Debug, Clone, Copy)]
pub struct Look<'a> {
    pub purpose: Purpose,
    /// The step as judged.
    pub step: &'a Step,
    /// The context it was judged in.
    pub ctx: &'a Context,
}

impl Decided {
    /// The verdict as it stands before any look.
    pub fn verdict(&self) -> &Verdict {
        &self.verdict
    }

    /// The second look this decision wants, if any (`second_look::purpose`).
    pub fn look(&self) -> Option<Look<'_>> {
        self.purpose.map(|purpose| Look {
            purpose,
            step: &self.step,
            ctx: &self.ctx,
        })
    }
}

/// What the chat records a judgement with. A peek has none: it records nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recording {
    /// The host's clock, in milliseconds since the epoch (lookups asked within
    /// `SAME_MOMENT_MS` of each other share a question).
    pub now_ms: i64,
    /// The chat's next sequence number: the id a new question takes.
    pub next_seq: u64,
    /// The host's id for the step (Claude Code's `tool_use_id`): the question is kept with
    /// it, so that step's running answers it.
    pub step: Option<String>,
}

/// A step judged in a chat: the verdict, the question it asks and its card's offers, and
/// what the chat records.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    pub verdict: Verdict,
    /// The question's id, when the verdict asks and the judgement is recorded.
    pub question: Option<u64>,
    /// What the question's card offers besides allowing once and denying.
    pub offers: Offers,
    /// The events to append, in order: `Judged`, then `Asked` (unless the question is a
    /// lookup's shared one) and `AskedAbout`. None for a peek.
    pub events: Vec<Event>,
}

/// A question a lift may answer: nothing critical, NEVER, refused or held.
pub fn liftable(verdict: &Verdict) -> bool {
    !verdict
        .risks
        .iter()
        .any(|s| s.risk.never || s.risk.critical || s.risk.refused || s.wanted == Wanted::Held)
}

/// The class a question is about: its strongest rule.
pub fn class_of(verdict: &Verdict) -> String {
    verdict
        .risks
        .first()
        .map_or_else(|| "unjudged".to_string(), |s| s.risk.rule.to_string())
}

/// The law's view of the chat for this step: its state in the work folder, never above its
/// parent's mode, with what the host adds.
fn context(state: &ChatState, situation: &Situation) -> Context {
    let mut ctx = state.context(&situation.cwd, situation.ceiling);
    ctx.protected = Arc::clone(&situation.protected);
    ctx.second_look = situation.second_look;
    ctx.listen_port = situation.listen_port;
    ctx
}

/// Whether a step is an app's lookup.
fn is_lookup(step: &Step) -> bool {
    matches!(step, Step::App(app) if crate::law::app::is_lookup(app))
}

/// A stopped chat, or a task whose chat was stopped, takes no step: it is refused, asks
/// nothing and wants no look, so the host needs no watch and no judge. `None` for a chat
/// that takes steps.
pub fn stopped(state: &ChatState, step: &Step, situation: &Situation) -> Option<Decided> {
    let reason = if state.stopped {
        "This chat was stopped, so it takes no step; start it again to go on."
    } else if situation.parent_stopped {
        "The chat this task came from was stopped, so the task takes no step; start that chat again to go on."
    } else {
        return None;
    };
    let verdict = Verdict {
        decision: Decision::Deny,
        score: 0,
        reason: reason.to_string(),
        risks: Vec::new(),
    };
    Some(Decided {
        class: class_of(&verdict),
        verdict,
        ctx: context(state, situation),
        tool: step.tool(),
        lifted_elsewhere: false,
        purpose: None,
        counts: Vec::new(),
        lookup: is_lookup(step),
        step: step.clone(),
        fetched: Vec::new(),
        written: Vec::new(),
    })
}

/// Judges `step` in the chat: the law's verdict with the watch's risks joined in
/// (`watch::judge`), for an app step after the person's setting for its tool; then a
/// question the person already answered is lifted, in this order: a class allowed in every
/// chat, an Always-allow-one-command rule (`rules::lifted_by`), a class kept in this chat.
/// None lifts anything critical, NEVER, refused or held ([`liftable`]). Last, whether the
/// second look should look (`second_look::purpose`).
pub fn decide(
    state: &ChatState,
    preferences: &Preferences,
    mut step: Step,
    facts: &dyn Facts,
    situation: &Situation,
    watched: Watched,
) -> Decided {
    if let Some(decided) = stopped(state, &step, situation) {
        return decided;
    }
    let ctx = context(state, situation);
    let lookup = is_lookup(&step);
    if let Step::App(app) = &mut step
        && app.setting.is_none()
    {
        app.setting = preferences
            .settings
            .get(&format!("{}:{}", app.app, app.tool))
            .copied();
    }
    let mut verdict = crate::watch::judge(&step, &ctx, facts, watched.risks);
    let tool = step.tool();
    let class = class_of(&verdict);
    let kept = Kept {
        tool: tool.clone(),
        class: class.clone(),
    };
    let lifted_elsewhere = preferences.lifted.contains(&kept);
    if verdict.decision == Decision::Ask && liftable(&verdict) {
        if preferences.auto_allowed.contains(&kept) {
            lift(&mut verdict, "You always allow this in every chat.");
        } else if let Step::Command { command } = &step
            && let Some(rule) =
                crate::rules::lifted_by(&preferences.auto_rules, command, &verdict, &ctx)
        {
            lift(&mut verdict, &format!("You always allow `{rule}` here."));
        }
    }
    if verdict.decision == Decision::Ask && liftable(&verdict) && state.kept.contains(&kept) {
        lift(&mut verdict, "You always allow this in this chat.");
    }
    let purpose = crate::second_look::purpose(&step, &ctx, &verdict);
    // What the step downloads or decodes, or writes with text that asks if run, and where it
    // copies, moves or links such a file: a later step that runs one asks. The line is read
    // once for all three.
    let (fetched, written) = match &step {
        Step::Command { command } => {
            crate::law::command::kept_by(command, &ctx.cwd, &ctx.fetched, &ctx.written, facts)
        }
        Step::PowerShell { command } => {
            crate::law::powershell::kept_by(command, &ctx.cwd, &ctx.fetched, &ctx.written, facts)
        }
        Step::File(file) if file.access == crate::step::Access::Write => (
            Vec::new(),
            crate::law::command::written_by_tool(&file.path, &file.text, &ctx.cwd, facts),
        ),
        Step::Patch { files, .. } => (
            Vec::new(),
            files
                .iter()
                .flat_map(|file| {
                    crate::law::command::written_by_tool(&file.path, &file.text, &ctx.cwd, facts)
                })
                .collect(),
        ),
        _ => (Vec::new(), Vec::new()),
    };
    Decided {
        verdict,
        step,
        ctx,
        tool,
        class,
        lifted_elsewhere,
        purpose,
        counts: watched.counts,
        lookup,
        fetched,
        written,
    }
}

/// A question the person already answered goes, and the reason says which answer let it.
fn lift(verdict: &mut Verdict, because: &str) {
    verdict.decision = Decision::Allow;
    verdict.reason = format!("{} {because}", verdict.reason);
}

/// Finishes a decision: the second look's answer applied (`second_look::apply`; a look for
/// a purpose the decision didn't want is no look), the card's offers when it asks, and,
/// unless it is a peek (`recording` none), what the chat records. Only a step that goes
/// counts; an asked one counts when the person says yes. A lookup that asks joins a
/// question a lookup of the same tool asked for the same reason a moment ago (seed 000).
pub fn settle(
    state: &ChatState,
    decided: Decided,
    looked: Option<Looked>,
    recording: Option<Recording>,
) -> Judgement {
    // INVARIANT: a look counts only for the purpose the law wanted it for.
    let looked = looked.filter(|looked| Some(looked.purpose) == decided.purpose);
    let mut verdict = decided.verdict;
    if let Some(looked) = looked {
        verdict = crate::second_look::apply(verdict, looked.purpose, looked.answer);
    }
    let asks = verdict.decision == Decision::Ask;
    let offers = if asks {
        let command = match &decided.step {
            Step::Command { command } => Some(command.as_str()),
            _ => None,
        };
        offers(
            &verdict,
            &decided.ctx,
            command,
            decided.lifted_elsewhere,
            state.asked_this_turn,
        )
    } else {
        Offers::default()
    };
    let Some(recording) = recording else {
        return Judgement {
            verdict,
            question: None,
            offers,
            events: Vec::new(),
        };
    };
    let mut events = vec![Event::Judged {
        tool: decided.tool.clone(),
        decision: verdict.decision,
        score: verdict.score,
        rules: verdict
            .risks
            .iter()
            .map(|s| s.risk.rule.to_string())
            .collect(),
        counts: if verdict.decision == Decision::Allow {
            decided.counts.clone()
        } else {
            Vec::new()
        },
        look: looked,
        fetched: decided.fetched.clone(),
        written: decided.written.clone(),
    }];
    let shared = (asks && decided.lookup)
        .then(|| state.shared_question(&decided.tool, &decided.class, recording.now_ms))
        .flatten();
    let question = asks.then(|| shared.unwrap_or(recording.next_seq));
    // The card shows the step as the law judged it, and the verdict's reason.
    let shown = question.map(|_| Shown::of(&decided.step));
    if let Some(question) = question.filter(|_| shared.is_none()) {
        events.push(Event::Asked {
            question,
            tool: decided.tool,
            class: decided.class,
            offers: offers.clone(),
            counts: decided.counts,
            lookup: decided.lookup,
            reason: verdict.reason.clone(),
            shown: shown.clone(),
        });
    }
    if let (Some(question), Some(step)) = (question, recording.step) {
        events.push(Event::AskedAbout {
            question,
            step,
            // A lookup that joins a question shows its own arguments on the shared card.
            shown: shown.filter(|_| shared.is_some()),
        });
    }
    Judgement {
        verdict,
        question,
        offers,
        events,
    }
}

/// What a question's card offers. No "always" for a step that asks whatever was read (seed
/// 004: a step serious enough to ask before reading is answered each time, or named in the
/// person's words); "in every chat" once another chat lifted the class, or on the third
/// question of a turn; "this one command" where `rules::offer` allows it.
fn offers(
    verdict: &Verdict,
    ctx: &Context,
    command: Option<&str>,
    lifted_elsewhere: bool,
    asked_this_turn: u32,
) -> Offers {
    let because_read =
        ctx.has_read() && liftable(verdict) && verdict.risks.iter().all(|s| s.score <= ASKS_AT);
    Offers {
        always: because_read,
        everywhere: because_read && (lifted_elsewhere || asked_this_turn >= 2),
        rule: command.and_then(|command| crate::rules::offer(command, verdict, ctx)),
    }
}

/// What the person's answer to a question writes: what it keeps for every chat, to the
/// preferences' stream, first; then the chat's `Answered`, with what it keeps in this chat.
#[derive(Debug, Clone, PartialEq)]
pub struct Answering {
    /// `Lifted` (Always allow), `AllowedEverywhere` (in every chat) or `RuleKept` (this one
    /// command), when the answer keeps one.
    pub preference: Option<Event>,
    /// The chat's `Answered`.
    pub answered: Event,
}

/// Why an answer can't be recorded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    #[error("no question `{0}` is waiting in this chat")]
    NoQuestion(u64),
    #[error("question {question}'s card does not offer `{}`", .answer.name())]
    NotOffered { question: u64, answer: Answer },
    #[error("question {question} does not ask about the step `{}`", .step.escape_default())]
    NotAbout { question: u64, step: String },
}

/// Whether a card offers an answer: allowing once and denying always; the others as its
/// offers say.
fn is_offered(offers: &Offers, answer: Answer) -> bool {
    match answer {
        Answer::Always => offers.always,
        Answer::Everywhere => offers.everywhere,
        Answer::Command => offers.rule.is_some(),
        Answer::Once | Answer::Deny => true,
    }
}

fn waiting(state: &ChatState, question: u64) -> Result<&Pending, AnswerError> {
    state
        .pending
        .get(&question)
        .ok_or(AnswerError::NoQuestion(question))
}

/// What the person's answer to a waiting question writes. Always allow keeps the class in
/// this chat and notes it for the others; in every chat keeps it in the preferences; this
/// one command keeps the rule the card offered. An answer the card didn't offer still
/// answers the question, and keeps nothing (seed 004); the runtime records only what
/// [`offered`] accepts, checked in the chat's own actor.
pub fn answer(state: &ChatState, question: u64, answer: Answer) -> Result<Answering, AnswerError> {
    answered(state, question, answer, None)
}

/// The step with the host's id `step` ran: the person let it through in the host's own
/// dialog, so their yes answers the question about that step, once, and says so (`ran`).
/// Never a question about another step.
pub fn ran(state: &ChatState, question: u64, step: &str) -> Result<Answering, AnswerError> {
    // INVARIANT: a step's running answers only a question that asks about that very step.
    if !waiting(state, question)?.steps.iter().any(|s| s == step) {
        return Err(AnswerError::NotAbout {
            question,
            step: step.to_string(),
        });
    }
    answered(state, question, Answer::Once, Some(step.to_string()))
}

fn answered(
    state: &ChatState,
    question: u64,
    answer: Answer,
    ran: Option<String>,
) -> Result<Answering, AnswerError> {
    let pending = waiting(state, question)?;
    let class = Kept {
        tool: pending.tool.clone(),
        class: pending.class.clone(),
    };
    // INVARIANT: only what the card offered is kept; any other answer keeps nothing.
    let (kept, preference) = match answer {
        _ if !is_offered(&pending.offers, answer) => (None, None),
        Answer::Always => (Some(class.clone()), Some(Event::Lifted { kept: class })),
        Answer::Everywhere => (
            Some(class.clone()),
            Some(Event::AllowedEverywhere {
                kept: class,
                allowed: true,
            }),
        ),
        Answer::Command => (
            None,
            pending
                .offers
                .rule
                .clone()
                .map(|rule| Event::RuleKept { rule, kept: true }),
        ),
        Answer::Once | Answer::Deny => (None, None),
    };
    Ok(Answering {
        preference,
        answered: Event::Answered {
            question,
            answer,
            kept,
            ran,
        },
    })
}

/// [`answer`], only for an answer the card offered: the API refuses any other before it is
/// recorded, so a person is told their press kept nothing.
pub fn offered(state: &ChatState, question: u64, answer: Answer) -> Result<Answering, AnswerError> {
    if !is_offered(&waiting(state, question)?.offers, answer) {
        return Err(AnswerError::NotOffered { question, answer });
    }
    self::answer(state, question, answer)
}

/// Why an id can't become a task of a chat.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Taken {
    /// It is a chat of its own.
    #[error("a chat of its own")]
    Chat,
    /// It is a task of another chat, or of the same chat with another scope.
    #[error("a {}task of `{parent}`", if *.scoped { "scoped " } else { "" })]
    Task { parent: String, scoped: bool },
}

/// Whether the chat `state` (the id asked for as a task) may become a task of `parent`:
/// `Ok(true)` when nothing is recorded under the id (it opens now), `Ok(false)` when it is
/// that very task already (a retry: nothing to open, what it inherits completed if missing),
/// and what it is otherwise.
pub fn task_opening(state: &ChatState, parent: &str, scoped: bool) -> Result<bool, Taken> {
    if state.events == 0 {
        return Ok(true);
    }
    match (&state.parent, state.company) {
        (Some(other), Company::Task) if other == parent && state.scoped == scoped => Ok(false),
        (Some(other), Company::Task) => Err(Taken::Task {
            parent: other.clone(),
            scoped: state.scoped,
        }),
        _ => Err(Taken::Chat),
    }
}

/// What a task's creation records, as one batch: the task's opening (when it opens now) and
/// what it inherits from its chat, and the chat's `TaskCreated` (unless the chat lists it).
#[derive(Debug, Clone, PartialEq)]
pub struct HandOn {
    /// The task's events.
    pub task: Vec<Event>,
    /// The chat's, when it doesn't list the task yet.
    pub chat: Option<Event>,
}

/// What the chat `state` (whose id is `chat`) hands its task `task` ([`task_opening`] said
/// whether it `open`s now): `None` when the task is there and listed, so nothing is written.
/// A task that is there without what it inherits was cut short by an older warden, which
/// wrote its three records one at a time: the retry completes it.
pub fn hand_on(
    state: &ChatState,
    chat: &str,
    task: &str,
    scoped: bool,
    open: bool,
) -> Option<HandOn> {
    let listed = state.tasks.iter().any(|t| t == task);
    if !open && listed {
        return None;
    }
    let mut events = Vec::new();
    if open {
        events.push(Event::Opened {
            mode: state.mode,
            company: Company::Task,
            parent: Some(chat.to_string()),
            scoped,
        });
    }
    events.push(state.inheritance(scoped));
    Some(HandOn {
        task: events,
        chat: (!listed).then(|| Event::TaskCreated {
            task: task.to_string(),
            scoped,
        }),
    })
}
