//! A chat's state, rebuilt from its events by a pure fold: what the runtime keeps in memory
//! and what replay brings back after a restart is the same `ChatState::apply` over the same
//! records. What a chat makes of a step and of an answer is [`law`]; what a tool call read
//! is [`read`].

pub mod law;
pub mod read;
pub mod shown;

pub use shown::Shown;

use crate::mode::Mode;
use crate::rules::AutoRule;
use crate::step::{Context, Setting};
pub use crate::step::{Fetched, Written};
use crate::verdict::Decision;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// More of the person's messages than this hands nothing on to a task: a review that can't
/// read them whole could miss the one where the person said stop (seed 004, OWNER_WORDS_MAX).
pub const OWNER_WORDS_MAX: usize = 200;

/// Who is in a chat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Company {
    /// The person alone.
    #[default]
    Alone,
    /// A guest is in the chat: their words are someone else's.
    Guest,
    /// A routine runs it: nobody is there.
    Routine,
    /// Another app's chat.
    App,
    /// A task or a helper spawned from a chat.
    Task,
}

/// A class of step the person lifted with Always allow: the tool, and the reason it asked.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Kept {
    pub tool: String,
    /// The rule or reason that asked (`git.push`, `read:WebFetch`).
    pub class: String,
}

/// How the person answered a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// Allow this once.
    Once,
    /// Always allow this class in this chat.
    Always,
    /// Always allow this class in every chat.
    Everywhere,
    /// Always allow this one command (the rule the card offered).
    Command,
    Deny,
}

impl Answer {
    /// The answer as the API names it (its serde name).
    pub fn name(self) -> &'static str {
        match self {
            Answer::Once => "once",
            Answer::Always => "always",
            Answer::Everywhere => "everywhere",
            Answer::Command => "command",
            Answer::Deny => "deny",
        }
    }
}

/// Something read, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// The source's name ("a web page", "Yazio content").
    pub name: String,
    /// Where it came from, when it came through something else ("Yazio (from a chat that
    /// read GitHub content)").
    pub provenance: Option<String>,
}

/// What a chat records.
///
/// Versioning rules (see `docs/durability.md`): `Record` stays `{ at_ms, event }`; fields are
/// only ever appended to the end of a variant and variants to the end of the enum, so an
/// older warden ignores what it doesn't know; a new field's zero value must be a correct
/// default (`Option<…>`, empty, false); a type used inside a `Vec` or not in last position
/// (`Mark`, `Kept`) never grows. Changing `ChatState` bumps the snapshot version.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// The chat (or task) began.
    Opened {
        mode: Mode,
        company: Company,
        parent: Option<String>,
        scoped: bool,
    },
    ModeChanged {
        mode: Mode,
    },
    /// The person said something.
    Said {
        text: String,
    },
    /// Someone else's words arrived.
    Others {
        source: String,
    },
    /// Something untrusted was read.
    Read {
        mark: Mark,
    },
    /// A new turn started.
    Turn,
    /// A step was judged.
    Judged {
        tool: String,
        decision: Decision,
        score: u8,
        rules: Vec<String>,
        counts: Vec<(String, u32)>,
        /// The second look at this step, if one was asked: what for, and the kind it
        /// answered (none: no answer). So replay shows why a step went or asked. Appended
        /// (issue 18); a record written before it reads as no look.
        look: Option<crate::second_look::Looked>,
        /// The files the step saves from a download or decodes from a blob, where they land:
        /// a later step that runs one asks as running a download does. Appended; a record
        /// written before it reads as none.
        fetched: Vec<Fetched>,
        /// The files the step writes with text that asks if run ([`Written`]): a later step
        /// that runs one is judged by that text. Appended; a record written before it reads
        /// as none.
        written: Vec<Written>,
    },
    /// A question was put to the person, with what its card offers.
    Asked {
        question: u64,
        tool: String,
        class: String,
        offers: Offers,
        /// What the step adds to the behaviour watch's counts if the person says yes.
        counts: Vec<(String, u32)>,
        /// A lookup by an app's tool: lookups asked at once for the same reason share it.
        lookup: bool,
        /// The verdict's reason, in warden's words, as the card shows it. Appended (issue 14);
        /// empty for a question asked before it.
        reason: String,
        /// The step as the card shows it. Appended (issue 14); none before it.
        shown: Option<Shown>,
    },
    /// The person answered it.
    Answered {
        question: u64,
        answer: Answer,
        kept: Option<Kept>,
        /// The host's id of the step whose running answered it (the person's yes in the
        /// host's own dialog, `warden hook` after the call ran); none: the person answered
        /// warden's card. Appended (issue 14); none before it.
        ran: Option<String>,
    },
    /// A task was created from this chat.
    TaskCreated {
        task: String,
        scoped: bool,
    },
    /// A task's frozen copy of its parent chat's owner words, marks and kept answers.
    Inherited {
        words: Vec<String>,
        marks: Vec<Mark>,
        kept: Vec<Kept>,
        /// The files the chat fetched ([`Fetched`]): a task runs them as the chat would.
        /// Appended; a record written before it reads as none.
        fetched: Vec<Fetched>,
        /// The files the chat wrote with text that asks if run ([`Written`]). Appended; a
        /// record written before it reads as none.
        written: Vec<Written>,
    },
    // The preferences stream (`crate::preferences::STREAM`); a chat ignores these.
    /// A class was lifted with Always allow in some chat (noted, so other chats can offer
    /// "in every chat").
    Lifted {
        kept: Kept,
    },
    /// The person allowed a class in every chat (autoAllowed), or took it back.
    AllowedEverywhere {
        kept: Kept,
        allowed: bool,
    },
    /// The person kept an Always-allow-one-command rule, or forgot it.
    RuleKept {
        rule: AutoRule,
        kept: bool,
    },
    /// The person's setting for an app's tool (none: back to the default).
    SettingChanged {
        app: String,
        tool: String,
        setting: Option<Setting>,
    },
    /// The person's note about where they work (context for a reviewer, never a rule).
    NoteChanged {
        note: String,
    },
    /// The person stopped the chat (or started it again): a stopped chat and its tasks take
    /// no step.
    Stopped {
        stopped: bool,
    },
    /// The step a waiting question asks about, by the host's id for it (Claude Code's
    /// `tool_use_id`, the judge request's `id`): when that step runs, the person let it
    /// through. A question lookups share gets one for each step.
    AskedAbout {
        question: u64,
        step: String,
        /// A lookup that joined a question asked a moment ago: the step as its card shows
        /// it, beside the first (none for the question's own first step). Appended (issue
        /// 14); none before it.
        shown: Option<Shown>,
    },
    /// The person forgot an answer this chat kept (Always allow in this chat): the class
    /// asks again here. An older warden skips the record (it doesn't know the variant).
    Forgotten {
        kept: Kept,
    },
}

impl Event {
    /// Whether the event changes nothing any later decision reads: a judged step that
    /// counted nothing (the log keeps it as a record). Every other event changes the state a
    /// chat decides from, so it is durable before anyone hears of it.
    pub fn is_record_only(&self) -> bool {
        matches!(self, Event::Judged { counts, fetched, written, .. } if counts.is_empty() && fetched.is_empty() && written.is_empty())
    }
}

/// What a question's card offers the person, besides allowing once and denying.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Offers {
    /// Always allow this class in this chat.
    pub always: bool,
    /// Always allow this class in every chat.
    pub everywhere: bool,
    /// Always allow this one command.
    pub rule: Option<AutoRule>,
}

/// One event with the time the host's clock gave it (milliseconds since the epoch).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub at_ms: i64,
    pub event: Event,
}

/// A question waiting for the person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub tool: String,
    pub class: String,
    pub offers: Offers,
    /// Counted for the behaviour watch once the person says yes.
    pub counts: Vec<(String, u32)>,
    /// A lookup by an app's tool (lookups asked at once share one question).
    pub lookup: bool,
    /// When it was asked.
    pub at_ms: i64,
    /// The ids of the steps it asks about (`Event::AskedAbout`).
    pub steps: Vec<String>,
    /// The verdict's reason, in warden's words (empty for a question asked before it was
    /// kept).
    pub reason: String,
    /// The steps it asks about as its card shows them: the first, then each lookup that
    /// joined it.
    pub shown: Vec<Shown>,
}

/// Everything a chat remembers.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ChatState {
    pub mode: Mode,
    pub company: Company,
    pub parent: Option<String>,
    pub scoped: bool,
    /// The person's own messages in this chat, oldest first.
    pub said: Vec<String>,
    /// A task's frozen copy of its parent chat's owner words (FROM_PARENT_CHAT).
    pub inherited: Vec<String>,
    pub marks: Vec<Mark>,
    /// Someone else's words are in the chat.
    pub others: bool,
    pub kept: Vec<Kept>,
    pub turn: u64,
    /// When the current turn started (milliseconds since the epoch).
    pub turn_started_ms: i64,
    /// Questions asked in the current turn.
    pub asked_this_turn: u32,
    pub pending: BTreeMap<u64, Pending>,
    /// Counted kinds of app steps, with their times, for the behaviour watch.
    pub counts: Vec<(i64, String, u32)>,
    /// Tasks created from this chat.
    pub tasks: Vec<String>,
    /// The person stopped the chat: it and its tasks take no step.
    pub stopped: bool,
    /// How many events made this state.
    pub events: u64,
    /// Files the chat's steps fetched, the latest [`FETCHED_MAX`], one per path.
    pub fetched: Vec<Fetched>,
    /// Files the chat's steps wrote with text that asks if run, the latest [`FETCHED_MAX`],
    /// one per path.
    pub written: Vec<Written>,
}

/// The most fetched files a chat remembers: past it the oldest is forgotten (a chat that
/// downloads a hundred files runs the last ones, if any).
pub const FETCHED_MAX: usize = 64;

/// Questions from one app's lookup tool asked within this long of each other, for the same
/// reason, share one question and its answer (seed 000). Changes are never joined.
pub const SAME_MOMENT_MS: i64 = 2_000;

impl ChatState {
    /// A question still waiting that a lookup asked now, by this tool for this reason, joins.
    pub fn shared_question(&self, tool: &str, class: &str, now_ms: i64) -> Option<u64> {
        self.pending
            .iter()
            .find(|(_, p)| {
                p.lookup && p.tool == tool && p.class == class && now_ms - p.at_ms <= SAME_MOMENT_MS
            })
            .map(|(question, _)| *question)
    }

    /// Whether `event` opens a chat that is open already with the very same settings (mode,
    /// company, parent, scope): applying it would change nothing but the count of events.
    pub fn is_opened_as(&self, event: &Event) -> bool {
        match event {
            Event::Opened {
                mode,
                company,
                parent,
                scoped,
            } => {
                self.events > 0
                    && self.mode == *mode
                    && self.company == *company
                    && self.parent == *parent
                    && self.scoped == *scoped
            }
            _ => false,
        }
    }

    /// Applies one event. Total: an event that makes no sense here changes nothing.
    pub fn apply(&mut self, record: &Record) {
        self.events += 1;
        match &record.event {
            Event::Opened {
                mode,
                company,
                parent,
                scoped,
            } => {
                self.mode = *mode;
                self.company = *company;
                self.parent = parent.clone();
                self.scoped = *scoped;
            }
            Event::ModeChanged { mode } => self.mode = *mode,
            Event::Said { text } => self.said.push(text.clone()),
            Event::Others { .. } => {
                self.others = true;
                // INVARIANT: a task that reads someone else's words loses its parent's.
                self.inherited.clear();
            }
            Event::Read { mark } => {
                if !self.marks.contains(mark) {
                    self.marks.push(mark.clone());
                }
            }
            Event::Turn => {
                self.turn += 1;
                self.turn_started_ms = record.at_ms;
                self.asked_this_turn = 0;
            }
            Event::Judged {
                counts,
                fetched,
                written,
                ..
            } => {
                for file in fetched {
                    self.fetch(file);
                }
                for file in written {
                    self.write(file);
                }
                for (kind, n) in counts {
                    self.counts.push((record.at_ms, kind.clone(), *n));
                }
                // Only the last day counts; older entries are dropped as time moves on (only
                // when something is counted, so a long chat folds in linear time).
                if !counts.is_empty() {
                    let horizon = record.at_ms - DAY_MS;
                    self.counts.retain(|(at, _, _)| *at >= horizon);
                }
            }
            Event::Asked {
                question,
                tool,
                class,
                offers,
                counts,
                lookup,
                reason,
                shown,
            } => {
                self.asked_this_turn += 1;
                self.pending.insert(
                    *question,
                    Pending {
                        tool: tool.clone(),
                        class: class.clone(),
                        offers: offers.clone(),
                        counts: counts.clone(),
                        lookup: *lookup,
                        at_ms: record.at_ms,
                        steps: Vec::new(),
                        reason: reason.clone(),
                        shown: shown.iter().cloned().collect(),
                    },
                );
            }
            Event::Answered {
                question,
                answer,
                kept,
                ..
            } => {
                // A yes lets the step go: what it adds to the watch's counts counts now.
                if let Some(pending) = self.pending.remove(question)
                    && *answer != Answer::Deny
                {
                    for (kind, n) in pending.counts {
                        self.counts.push((record.at_ms, kind, n));
                    }
                }
                if let Some(kept) = kept
                    && !self.kept.contains(kept)
                {
                    self.kept.push(kept.clone());
                }
            }
            Event::TaskCreated { task, .. } => self.tasks.push(task.clone()),
            Event::Forgotten { kept } => self.kept.retain(|k| k != kept),
            Event::Lifted { .. }
            | Event::AllowedEverywhere { .. }
            | Event::RuleKept { .. }
            | Event::SettingChanged { .. }
            | Event::NoteChanged { .. } => {}
            Event::Stopped { stopped } => self.stopped = *stopped,
            Event::AskedAbout {
                question,
                step,
                shown,
            } => {
                if let Some(pending) = self.pending.get_mut(question) {
                    if !pending.steps.contains(step) {
                        pending.steps.push(step.clone());
                    }
                    if let Some(shown) = shown
                        && !pending.shown.contains(shown)
                    {
                        pending.shown.push(shown.clone());
                    }
                }
            }
            Event::Inherited {
                words,
                marks,
                kept,
                fetched,
                written,
            } => {
                for file in fetched {
                    self.fetch(file);
                }
                for file in written {
                    self.write(file);
                }
                self.inherited = words.clone();
                for mark in marks {
                    if !self.marks.contains(mark) {
                        self.marks.push(mark.clone());
                    }
                }
                for k in kept {
                    if !self.kept.contains(k) {
                        self.kept.push(k.clone());
                    }
                }
            }
        }
    }

    /// Remembers a fetched file: the latest one fetched to a path stands for it.
    fn fetch(&mut self, file: &Fetched) {
        self.fetched.retain(|f| f.path != file.path);
        if self.fetched.len() >= FETCHED_MAX {
            self.fetched.remove(0);
        }
        self.fetched.push(file.clone());
    }

    /// Remembers a file written with text that asks if run: the latest such text written to
    /// a path stands for it, unless what the path held asks more firmly (the later write
    /// may not have run).
    fn write(&mut self, file: &Written) {
        if self
            .written
            .iter()
            .any(|f| f.path == file.path && file.weaker_than(f))
        {
            return;
        }
        self.written.retain(|f| f.path != file.path);
        if self.written.len() >= FETCHED_MAX {
            self.written.remove(0);
        }
        self.written.push(file.clone());
    }

    /// Gives back the room its lists keep to grow: what an idle chat holds is its state and
    /// no more (a list that grew by one has room for about twice what it holds).
    pub fn shrink_to_fit(&mut self) {
        self.said.shrink_to_fit();
        self.inherited.shrink_to_fit();
        self.marks.shrink_to_fit();
        self.kept.shrink_to_fit();
        self.counts.shrink_to_fit();
        self.tasks.shrink_to_fit();
        self.fetched.shrink_to_fit();
        self.written.shrink_to_fit();
        for pending in self.pending.values_mut() {
            pending.steps.shrink_to_fit();
            pending.shown.shrink_to_fit();
        }
    }

    /// The newest waiting question that asks about the step with this id (the host's id for
    /// it). Never a question about another step.
    pub fn question_about(&self, step: &str) -> Option<u64> {
        self.pending
            .iter()
            .rev()
            .find(|(_, p)| p.steps.iter().any(|s| s == step))
            .map(|(question, _)| *question)
    }

    /// A state rebuilt from records, oldest first.
    pub fn replay<'a>(records: impl IntoIterator<Item = &'a Record>) -> ChatState {
        let mut state = ChatState::default();
        for record in records {
            state.apply(record);
        }
        state
    }

    /// The owner's words the law may count: the chat's own when the person is alone in
    /// it, a task's frozen copy from its parent, none otherwise.
    pub fn owner_words(&self) -> Vec<String> {
        if self.others {
            return Vec::new();
        }
        match self.company {
            Company::Alone => self.said.clone(),
            Company::Task => self.inherited.clone(),
            Company::Guest | Company::Routine | Company::App => Vec::new(),
        }
    }

    /// What a task created from this chat inherits: a frozen copy of the owner words (only
    /// from a chat with the person alone, none for a scoped task, none past
    /// OWNER_WORDS_MAX), the marks and the kept answers — never more than the chat has.
    pub fn inheritance(&self, scoped: bool) -> Event {
        let hands_on = self.company == Company::Alone
            && !self.others
            && !scoped
            && self.said.len() <= OWNER_WORDS_MAX;
        Event::Inherited {
            words: if hands_on {
                self.said.clone()
            } else {
                Vec::new()
            },
            marks: self.marks.clone(),
            kept: if scoped {
                Vec::new()
            } else {
                self.kept.clone()
            },
            // What the chat fetched or wrote is still there for the task to run: never less
            // caution.
            fetched: self.fetched.clone(),
            written: self.written.clone(),
        }
    }

    /// The law's view of this chat, in the work folder `cwd`, its mode no more than `ceiling`
    /// (a task follows its chat's live mode, never above it).
    pub fn context(&self, cwd: &str, ceiling: Option<Mode>) -> Context {
        let mode = match ceiling {
            Some(ceiling) => no_more_than(self.mode, ceiling),
            None => self.mode,
        };
        Context {
            mode,
            cwd: cwd.to_string(),
            said: self.owner_words(),
            read: self.marks.iter().map(|m| m.name.clone()).collect(),
            others: self.others || matches!(self.company, Company::Guest),
            skill: false,
            protected: std::sync::Arc::default(),
            second_look: false,
            listen_port: None,
            fetched: self.fetched.clone(),
            written: self.written.clone(),
        }
    }

    /// How many of a kind were counted since `since_ms`.
    pub fn counted(&self, kind: &str, since_ms: i64) -> u32 {
        self.counts
            .iter()
            .filter(|(at, k, _)| *at >= since_ms && k == kind)
            .map(|(_, _, n)| n)
            .sum()
    }
}

/// A day in milliseconds: the behaviour watch's longest window.
pub const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// How much a mode lets go without asking, least first.
pub fn power(mode: Mode) -> u8 {
    match mode {
        Mode::PlanOnly => 0,
        Mode::AskFirst => 1,
        Mode::EditFreely => 2,
        Mode::Auto => 3,
        Mode::FullTrust => 4,
    }
}

/// The lesser of two modes (noMoreThan).
pub fn no_more_than(mode: Mode, ceiling: Mode) -> Mode {
    if power(mode) <= power(ceiling) {
        mode
    } else {
        ceiling
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: i64, event: Event) -> Record {
        Record { at_ms: ms, event }
    }

    #[test]
    fn only_an_opening_that_changes_nothing_is_the_same_opening() {
        let opened = |mode, company| Event::Opened {
            mode,
            company,
            parent: None,
            scoped: false,
        };
        let fresh = ChatState::default();
        assert!(
            !fresh.is_opened_as(&opened(fresh.mode, fresh.company)),
            "a chat with no events is not open"
        );
        let state = ChatState::replay(&[at(0, opened(Mode::Auto, Company::Alone))]);
        for (event, same) in [
            (opened(Mode::Auto, Company::Alone), true),
            (opened(Mode::AskFirst, Company::Alone), false),
            (opened(Mode::Auto, Company::Guest), false),
            (
                Event::Opened {
                    mode: Mode::Auto,
                    company: Company::Alone,
                    parent: Some("c0".into()),
                    scoped: false,
                },
                false,
            ),
            (Event::Turn, false),
        ] {
            assert_eq!(state.is_opened_as(&event), same, "{event:?}");
        }
    }

    #[test]
    fn replay_rebuilds_what_the_chat_knew() {
        let records = vec![
            at(
                0,
                Event::Opened {
                    mode: Mode::Auto,
                    company: Company::Alone,
                    parent: None,
                    scoped: false,
                },
            ),
            at(
                1,
                Event::Said {
                    text: "push it".into(),
                },
            ),
            at(
                2,
                Event::Read {
                    mark: Mark {
                        name: "a web page".into(),
                        provenance: None,
                    },
                },
            ),
            at(
                3,
                Event::Asked {
                    question: 7,
                    tool: "Bash".into(),
                    class: "git.push".into(),
                    offers: Offers::default(),
                    counts: Vec::new(),
                    lookup: false,
                    reason: String::new(),
                    shown: None,
                },
            ),
            at(
                4,
                Event::Answered {
                    question: 7,
                    answer: Answer::Always,
                    kept: Some(Kept {
                        tool: "Bash".into(),
                        class: "git.push".into(),
                    }),
                    ran: None,
                },
            ),
        ];
        let state = ChatState::replay(&records);
        assert_eq!(state.said, vec!["push it".to_string()]);
        assert_eq!(state.kept.len(), 1);
        assert!(state.pending.is_empty());
        assert_eq!(state.events, 5);
        let ctx = state.context("/w", None);
        assert_eq!(ctx.read, vec!["a web page".to_string()]);
        assert_eq!(ctx.said, vec!["push it".to_string()]);
    }

    #[test]
    fn a_question_keeps_the_ids_of_the_steps_it_asks_about() {
        let asked = |question: u64| Event::Asked {
            question,
            tool: "Bash".into(),
            class: "git.push".into(),
            offers: Offers::default(),
            counts: Vec::new(),
            lookup: false,
            reason: String::new(),
            shown: None,
        };
        let about = |question: u64, step: &str| Event::AskedAbout {
            question,
            step: step.into(),
            shown: None,
        };
        let records = vec![
            at(0, asked(3)),
            at(0, about(3, "toolu_a")),
            at(1, asked(5)),
            at(1, about(5, "toolu_b")),
            // A lookup that joined question 5, and a step for a question gone.
            at(2, about(5, "toolu_c")),
            at(3, about(9, "toolu_d")),
            // The same step judged again: its newest question.
            at(4, asked(8)),
            at(4, about(8, "toolu_e")),
            at(5, asked(11)),
            at(5, about(11, "toolu_e")),
        ];
        let state = ChatState::replay(&records);
        assert_eq!(state.question_about("toolu_a"), Some(3));
        assert_eq!(state.question_about("toolu_b"), Some(5));
        assert_eq!(state.question_about("toolu_c"), Some(5));
        // No question is answered by another step's id, nor by the newest of its tool.
        assert_eq!(state.question_about("toolu_d"), None);
        assert_eq!(state.question_about("toolu_z"), None);
        assert_eq!(state.question_about("toolu_e"), Some(11));
        let answered = ChatState::replay(
            records
                .iter()
                .chain(&[at(
                    6,
                    Event::Answered {
                        question: 3,
                        answer: Answer::Once,
                        kept: None,
                        ran: None,
                    },
                )])
                .collect::<Vec<_>>(),
        );
        assert_eq!(answered.question_about("toolu_a"), None);
        assert_eq!(answered.question_about("toolu_b"), Some(5));
    }

    #[test]
    fn only_a_chat_with_the_person_alone_hands_words_on() {
        let mut chat = ChatState {
            said: vec!["force-push feature/x".into()],
            ..ChatState::default()
        };
        let Event::Inherited { words, .. } = chat.inheritance(false) else {
            panic!("not an inheritance")
        };
        assert_eq!(words.len(), 1);
        let Event::Inherited { words, kept, .. } = chat.inheritance(true) else {
            panic!("not an inheritance")
        };
        assert!(
            words.is_empty() && kept.is_empty(),
            "a scoped task takes no grants"
        );
        chat.others = true;
        let Event::Inherited { words, .. } = chat.inheritance(false) else {
            panic!("not an inheritance")
        };
        assert!(
            words.is_empty(),
            "someone else's words in the chat hand nothing on"
        );
        let crowded = ChatState {
            said: vec!["x".into(); OWNER_WORDS_MAX + 1],
            ..ChatState::default()
        };
        let Event::Inherited { words, .. } = crowded.inheritance(false) else {
            panic!("not an inheritance")
        };
        assert!(
            words.is_empty(),
            "more than OWNER_WORDS_MAX hands nothing on"
        );
        for company in [
            Company::Guest,
            Company::Routine,
            Company::App,
            Company::Task,
        ] {
            let chat = ChatState {
                company,
                said: vec!["push".into()],
                ..ChatState::default()
            };
            let Event::Inherited { words, .. } = chat.inheritance(false) else {
                panic!("not an inheritance")
            };
            assert!(words.is_empty(), "{company:?} hands nothing on");
        }
    }

    #[test]
    fn a_task_keeps_its_frozen_words_until_someone_else_speaks() {
        let mut task = ChatState::replay(&[
            at(
                0,
                Event::Opened {
                    mode: Mode::Auto,
                    company: Company::Task,
                    parent: Some("c1".into()),
                    scoped: false,
                },
            ),
            at(
                1,
                Event::Inherited {
                    words: vec!["push it".into()],
                    marks: vec![],
                    kept: vec![],
                    fetched: vec![],
                    written: vec![],
                },
            ),
            at(
                2,
                Event::Said {
                    text: "the task's own prompt".into(),
                },
            ),
        ]);
        assert_eq!(
            task.owner_words(),
            vec!["push it".to_string()],
            "the task's prompt never counts"
        );
        task.apply(&at(
            3,
            Event::Others {
                source: "an email".into(),
            },
        ));
        assert!(task.owner_words().is_empty());
    }

    #[test]
    fn a_kept_answer_forgotten_asks_again() {
        let push = Kept {
            tool: "Bash".into(),
            class: "git.push".into(),
        };
        let fetch = Kept {
            tool: "WebFetch".into(),
            class: "read:WebFetch".into(),
        };
        let state = ChatState::replay(&[
            at(
                0,
                Event::Inherited {
                    words: vec![],
                    marks: vec![],
                    kept: vec![push.clone(), fetch.clone()],
                    fetched: vec![],
                    written: vec![],
                },
            ),
            at(1, Event::Forgotten { kept: push.clone() }),
        ]);
        assert_eq!(state.kept, vec![fetch], "only the one forgotten goes");
    }

    #[test]
    fn a_task_never_runs_above_its_chat() {
        let task = ChatState {
            mode: Mode::FullTrust,
            company: Company::Task,
            ..ChatState::default()
        };
        assert_eq!(
            task.context("/w", Some(Mode::AskFirst)).mode,
            Mode::AskFirst
        );
        let task = ChatState {
            mode: Mode::PlanOnly,
            company: Company::Task,
            ..ChatState::default()
        };
        assert_eq!(task.context("/w", Some(Mode::Auto)).mode, Mode::PlanOnly);
    }

    #[test]
    fn counts_keep_only_the_last_day() {
        let mut chat = ChatState::default();
        chat.apply(&at(
            0,
            Event::Judged {
                tool: "gmail".into(),
                decision: Decision::Allow,
                score: 0,
                rules: vec![],
                counts: vec![("messages".into(), 30)],
                look: None,
                fetched: vec![],
                written: vec![],
            },
        ));
        chat.apply(&at(
            DAY_MS + 1,
            Event::Judged {
                tool: "gmail".into(),
                decision: Decision::Allow,
                score: 0,
                rules: vec![],
                counts: vec![("messages".into(), 5)],
                look: None,
                fetched: vec![],
                written: vec![],
            },
        ));
        assert_eq!(chat.counted("messages", 0), 5);
    }

    /// A judged step's fetched files are the chat's: one per path, the latest winning, no
    /// more than FETCHED_MAX; a task inherits them whatever its scope; and such a step is no
    /// record only (a later decision reads it, so it is durable before it is answered).
    #[test]
    fn what_a_chat_fetched_is_kept_bounded_and_handed_to_its_tasks() {
        let judged = |fetched: Vec<Fetched>| Event::Judged {
            tool: "Bash".into(),
            decision: Decision::Allow,
            score: 0,
            rules: vec![],
            counts: vec![],
            look: None,
            fetched,
            written: vec![],
        };
        let file = |n: usize, host: &str| Fetched {
            path: format!("/tmp/f{n}.sh"),
            from: Some(host.to_string()),
        };
        assert!(judged(vec![]).is_record_only());
        assert!(!judged(vec![file(0, "a.example")]).is_record_only());
        let mut chat = ChatState::default();
        chat.apply(&at(0, judged(vec![file(0, "a.example")])));
        chat.apply(&at(1, judged(vec![file(0, "b.example")])));
        assert_eq!(
            chat.fetched,
            vec![file(0, "b.example")],
            "the latest download of a path"
        );
        for n in 1..=FETCHED_MAX {
            chat.apply(&at(2, judged(vec![file(n, "a.example")])));
        }
        assert_eq!(chat.fetched.len(), FETCHED_MAX);
        assert_eq!(
            chat.fetched.first(),
            Some(&file(1, "a.example")),
            "the oldest forgotten"
        );
        assert_eq!(chat.context("/w", None).fetched, chat.fetched);
        for scoped in [false, true] {
            let mut task = ChatState {
                company: Company::Task,
                ..ChatState::default()
            };
            task.apply(&at(3, chat.inheritance(scoped)));
            assert_eq!(task.fetched, chat.fetched, "scoped: {scoped}");
        }
    }

    /// A judged step's written files are the chat's: one per path, the latest winning, no
    /// more than FETCHED_MAX; a task inherits them; such a step is no record only.
    #[test]
    fn what_a_chat_wrote_that_asks_if_run_is_kept_and_handed_to_its_tasks() {
        let judged = |written: Vec<Written>| Event::Judged {
            tool: "Bash".into(),
            decision: Decision::Allow,
            score: 0,
            rules: vec![],
            counts: vec![],
            look: None,
            fetched: vec![],
            written,
        };
        let file = |n: usize, rule: &str| Written {
            path: format!("/tmp/w{n}"),
            rule: rule.to_string(),
            reason: "delete everything in your home folder".to_string(),
        };
        assert!(!judged(vec![file(0, "critical.wipe")]).is_record_only());
        let mut chat = ChatState::default();
        chat.apply(&at(0, judged(vec![file(0, "secrets.key_read")])));
        chat.apply(&at(1, judged(vec![file(0, "blob.decode_run")])));
        assert_eq!(
            chat.written,
            vec![file(0, "blob.decode_run")],
            "the latest text, as firm as the one before"
        );
        chat.apply(&at(1, judged(vec![file(0, "critical.wipe")])));
        chat.apply(&at(1, judged(vec![file(0, "secrets.key_read")])));
        assert_eq!(
            chat.written,
            vec![file(0, "critical.wipe")],
            "a milder text later may not have been written"
        );
        for n in 0..=FETCHED_MAX {
            chat.apply(&at(3, judged(vec![file(n, "critical.wipe")])));
        }
        assert_eq!(chat.written.len(), FETCHED_MAX);
        assert_eq!(chat.written.first(), Some(&file(1, "critical.wipe")));
        assert_eq!(chat.context("/w", None).written, chat.written);
        for scoped in [false, true] {
            let mut task = ChatState {
                company: Company::Task,
                ..ChatState::default()
            };
            task.apply(&at(4, chat.inheritance(scoped)));
            assert_eq!(task.written, chat.written, "scoped: {scoped}");
        }
    }
}
