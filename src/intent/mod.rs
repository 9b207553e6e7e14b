//! Reading the person's own words, in English, German, French, Spanish, Portuguese,
//! Italian and Dutch: did they ask for a step, hold it back, or neither?
//!
//! A message is folded (`crate::fold`), cut into words and marks once (`text`), and each
//! word becomes the longest phrase any word list knows there (`lexicon`, over the tables
//! in `words`). The latest message that names the act decides (`clause`):
//!
//! - held when any mention of the act is held: a "not" within seven words back in its
//!   clause (a comma, semicolon, dash, "but", "then", "so" or "and" ends the reach, except
//!   an "and" right after one negated verb), a "not" just after it, a wait word over it,
//!   the person's say anywhere in its sentence, a bare "not yet", a short sentence after
//!   it that takes it back, or a name the step needs ruled out ("not main");
//! - asked when no mention is held and the message carries every name the step needs;
//! - neither when a name is missing.
//!
//! What the deciding message said lasts until a later message names the act again: a
//! follow-up that doesn't name it revokes nothing. A question whether to act ("should we
//! push?", `words::ADVICE`) decides neither, and lifts no boundary said before it. Idioms whose "not" is about something
//! else ("don't forget", "no need to ask") are read as plain words, and a state ("I
//! haven't pushed yet") names nothing.

mod clause;
pub use clause::spaced;
pub(crate) mod lexicon;
mod text;
pub mod words;

use crate::wish::Wish;
use serde::Serialize;

/// What the person's words say about one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Wanted {
    /// Asked for in the latest message that names the act, with every name the step needs.
    Asked,
    /// Held back ("don't push yet"), and not lifted since.
    Held,
    /// Neither.
    Neither,
}

/// Why a reading came out as it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cue {
    /// No message names the act.
    Unnamed,
    /// Named with every name the step needs, and nothing holds it.
    Asked,
    /// Named, but a name the step needs is missing.
    NameMissing,
    /// A "not" before the act, in its clause.
    Not,
    /// A "not" just after the act ("push es nicht").
    NotAfter,
    /// A wait word over the act ("hold off on the deploy").
    Wait,
    /// The person comes before it ("ask me before pushing").
    BeforeThePerson,
    /// The act waits on the person's say ("until I say").
    TheirSay,
    /// A bare "not yet".
    NotYet,
    /// A short sentence after it takes it back ("No, wait.").
    TakenBack,
    /// A name the step needs is ruled out ("not main").
    NameRuledOut,
    /// Only asked whether to act ("should we push to main?"): no wish, and no boundary said
    /// before it lifted.
    Question,
}

impl Cue {
    /// One plain phrase a person understands.
    pub fn reason(self) -> &'static str {
        match self {
            Cue::Unnamed => "no message of yours names it",
            Cue::Asked => "you asked for it",
            Cue::NameMissing => "you named it, but not what it acts on",
            Cue::Not => "you said not to",
            Cue::NotAfter => "you said not to",
            Cue::Wait => "you said to wait or leave it",
            Cue::BeforeThePerson => "you want to come first",
            Cue::TheirSay => "it waits on your say",
            Cue::NotYet => "you said not yet",
            Cue::TakenBack => "you took it back",
            Cue::NameRuledOut => "you ruled out what it acts on",
            Cue::Question => "you only asked whether to",
        }
    }
}

/// A reading and the words that decided it, so a person can see why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reading {
    pub wanted: Wanted,
    /// The words that decided (folded, e.g. "don't push yet"), or empty when no message
    /// names the act.
    pub words: String,
    /// Which message (index into `said`) decided, if one did.
    pub message: Option<usize>,
    /// Why.
    pub cue: Cue,
}

/// Reads the person's messages (oldest first) for one wish: the latest message that
/// names the act decides, and what it decided lasts through later messages that don't. A
/// question whether to act ([`Cue::Question`]) decides neither, and lifts no boundary said
/// before it: "don't push yet", then "should we push now?" still holds the push.
pub fn wanted(wish: &Wish, said: &[String]) -> Reading {
    let mut question: Option<Reading> = None;
    for (index, message) in said.iter().enumerate().rev() {
        let Some(found) = clause::read(wish, message) else {
            continue;
        };
        let reading = Reading {
            wanted: found.wanted,
            words: found.words,
            message: Some(index),
            cue: found.cue,
        };
        match (found.cue, question.take()) {
            (Cue::Question, asked) => question = Some(asked.unwrap_or(reading)),
            (_, None) => return reading,
            (_, Some(_)) if reading.wanted == Wanted::Held => return reading,
            (_, Some(asked)) => return asked,
        }
    }
    question.unwrap_or(Reading {
        wanted: Wanted::Neither,
        words: String::new(),
        message: None,
        cue: Cue::Unnamed,
    })
}

#[cfg(test)]
mod tests;
