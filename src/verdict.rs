//! What the law answers: a decision, its score, the reason, and every risk that fired.

use crate::intent::Wanted;
use crate::law::rule::RuleId;
use crate::wish::Wish;
use serde::{Deserialize, Serialize};

/// allow < ask < deny: combining decisions takes the strictest (`max`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    Allow,
    Ask,
    Deny,
}

impl Decision {
    pub fn name(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Deny => "deny",
        }
    }

    pub fn parse(raw: &str) -> Option<Decision> {
        match raw {
            "allow" => Some(Decision::Allow),
            "ask" => Some(Decision::Ask),
            "deny" => Some(Decision::Deny),
            _ => None,
        }
    }
}

/// How much harm a step can do: none 0, moderate 1, severe 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Harm {
    None,
    Moderate,
    Severe,
}

impl Harm {
    pub fn points(self) -> u8 {
        match self {
            Harm::None => 0,
            Harm::Moderate => 1,
            Harm::Severe => 2,
        }
    }
}

/// What one rule found in a step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Risk {
    /// The rule that found it (its name is `area.name`: `git.force_push`).
    pub rule: RuleId,
    pub harm: Harm,
    /// Cannot be undone from the work folder (one point).
    pub lasting: bool,
    /// No words lift it: the person's asking does not lower its score.
    pub never: bool,
    /// The circuit breaker: asks in every mode, Full trust too.
    pub critical: bool,
    /// On Full trust's irreducible list: asks even there.
    #[serde(skip)]
    pub irreducible: bool,
    /// Refused in every mode (a protected path, a tool turned off); the reason ends with
    /// the one next step.
    #[serde(skip)]
    pub refused: bool,
    /// Data can leave, or the step acts for the person, through it: outside Auto, after
    /// reading, it asks.
    #[serde(skip)]
    pub way_out: bool,
    /// The words and names that ask for this step, if any do.
    pub wish: Option<Wish>,
    /// One plain sentence a person understands.
    pub reason: String,
}

impl Risk {
    /// A risk with no flags; rules set what applies.
    pub fn new(rule: RuleId, harm: Harm, lasting: bool, reason: impl Into<String>) -> Risk {
        Risk {
            rule,
            harm,
            lasting,
            never: false,
            critical: false,
            irreducible: false,
            refused: false,
            way_out: false,
            wish: None,
            reason: reason.into(),
        }
    }

    pub fn never(mut self) -> Risk {
        self.never = true;
        self
    }

    /// The circuit breaker: critical, never, irreducible.
    pub fn critical(mut self) -> Risk {
        self.critical = true;
        self.never = true;
        self.irreducible = true;
        self
    }

    /// Refused in every mode: no words, no mode lift it.
    pub fn refused(mut self) -> Risk {
        self.refused = true;
        self.never = true;
        self.irreducible = true;
        self
    }

    pub fn irreducible(mut self) -> Risk {
        self.irreducible = true;
        self
    }

    pub fn way_out(mut self) -> Risk {
        self.way_out = true;
        self
    }

    pub fn wish(mut self, wish: Wish) -> Risk {
        self.wish = Some(wish);
        self
    }

    /// Harm plus lasting: the points before what the chat read and what the person said.
    pub fn base(&self) -> u8 {
        self.harm.points() + u8::from(self.lasting)
    }
}

/// One risk as the answer reports it, with how the person's words read for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Scored {
    #[serde(flatten)]
    pub risk: Risk,
    /// This risk's own score.
    pub score: u8,
    /// What the person's words said about it.
    pub wanted: Wanted,
    /// Why, in a phrase ("you said not to"), and the words that decided, when a message did.
    pub because: Option<(&'static str, String)>,
}

/// The law's answer for one step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub decision: Decision,
    /// The highest risk's score (0 when nothing fired).
    pub score: u8,
    /// One plain sentence: why, and for a deny, the one next step.
    pub reason: String,
    pub risks: Vec<Scored>,
}
