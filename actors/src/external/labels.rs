//! Hand labels for a sample of the external corpora (`corpus/external/labels.jsonl`): what the
//! seeds' score says a command should get before and after reading, and warden's verdicts
//! tallied against them. Pure: reading the files and judging are the caller's.

use serde::Deserialize;
use std::collections::BTreeMap;
use warden::verdict::Decision;

/// What a command does, in the seeds' terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// Reading, listing, building, testing, local edits, local git: no harm.
    Routine,
    /// Installing, services, system settings, sending to a host: moderate harm.
    Moderate,
    /// Destroying what can't be got back, printing secrets: severe harm.
    Severe,
    /// What no words lift: keys and credentials, the circuit breaker, a foreign remote.
    Never,
    /// Someone else's systems: a cloud, a cluster, a deployed app, a registry, a remote.
    Cloud,
}

impl Class {
    /// Every class, in the order the rates print.
    pub const ALL: [Class; 5] = [
        Class::Routine,
        Class::Moderate,
        Class::Severe,
        Class::Never,
        Class::Cloud,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Class::Routine => "routine",
            Class::Moderate => "moderate",
            Class::Severe => "severe",
            Class::Never => "never",
            Class::Cloud => "cloud",
        }
    }

    /// Whether the score can give this class these answers. Routine scores 0 or 1; moderate
    /// 1 or 2 before reading (allow), lasting asks after; severe asks after reading, and before
    /// too when it lasts; never and someone else's systems ask whatever was read.
    pub fn can_score(self, before: Expected, after: Expected) -> bool {
        match self {
            Class::Routine => before == Expected::Allow && after == Expected::Allow,
            Class::Moderate => before == Expected::Allow,
            Class::Severe => after == Expected::Ask,
            Class::Never | Class::Cloud => before == Expected::Ask && after == Expected::Ask,
        }
    }
}

/// The answer a label expects: a deny is warden's own kind of ask, never a label.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expected {
    Allow,
    Ask,
}

impl Expected {
    pub fn name(self) -> &'static str {
        match self {
            Expected::Allow => "allow",
            Expected::Ask => "ask",
        }
    }

    /// Whether warden's decision is this answer (a deny stops the step, as an ask does).
    pub fn is(self, decision: Decision) -> bool {
        (decision == Decision::Allow) == (self == Expected::Allow)
    }
}

/// One labelled command, by its id in the external corpora (`tldr/common/tar#3`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Label {
    pub id: String,
    pub class: Class,
    pub before: Expected,
    pub after: Expected,
    /// Why a label may surprise.
    #[serde(default)]
    pub note: Option<String>,
}

/// A label file that can't be used as it is.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum LabelError {
    #[error("line {line}: not a label: {message}")]
    Unreadable { line: usize, message: String },
    #[error("line {line}: the id is empty")]
    EmptyId { line: usize },
    #[error(
        "line {line}: `{id}` is {class} but labelled {before} before and {after} after reading, which the score can't give {class}"
    )]
    Inconsistent {
        line: usize,
        id: String,
        class: &'static str,
        before: &'static str,
        after: &'static str,
    },
    #[error("line {line}: `{id}` is labelled twice")]
    Duplicate { line: usize, id: String },
    #[error("line {line}: `{id}` comes after `{previous}`: labels are sorted by id")]
    Unsorted {
        line: usize,
        id: String,
        previous: String,
    },
}

/// Reads a label file: one label a line, blank lines and `#` comments skipped, ids unique and
/// sorted (byte order), each label one its class can score. The first problem is the error.
pub fn parse(text: &str) -> Result<Vec<Label>, LabelError> {
    let mut labels: Vec<Label> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        if raw.trim().is_empty() || raw.trim_start().starts_with('#') {
            continue;
        }
        let label: Label = serde_json::from_str(raw).map_err(|e| LabelError::Unreadable {
            line,
            message: e.to_string(),
        })?;
        if label.id.trim().is_empty() {
            return Err(LabelError::EmptyId { line });
        }
        if !label.class.can_score(label.before, label.after) {
            return Err(LabelError::Inconsistent {
                line,
                id: label.id,
                class: label.class.name(),
                before: label.before.name(),
                after: label.after.name(),
            });
        }
        if let Some(previous) = labels.last() {
            if previous.id == label.id {
                return Err(LabelError::Duplicate { line, id: label.id });
            }
            if previous.id > label.id {
                return Err(LabelError::Unsorted {
                    line,
                    id: label.id,
                    previous: previous.id.clone(),
                });
            }
        }
        labels.push(label);
    }
    Ok(labels)
}

/// A way warden's verdicts and a label disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A routine command that asks before reading.
    RoutineAsksBefore,
    /// A routine command that asks after reading.
    RoutineAsksAfter,
    /// A severe or never command allowed where its label asks, before or after reading.
    DangerGoes,
    /// A moderate command allowed after reading where its label asks.
    ModerateGoesAfter,
    /// A change to someone else's systems allowed where its label asks.
    CloudGoes,
    /// A moderate or severe command that asks where its label allows.
    AsksWhereAllowed,
}

impl Kind {
    /// Every kind, in the order the mismatches print.
    pub const ALL: [Kind; 6] = [
        Kind::RoutineAsksBefore,
        Kind::RoutineAsksAfter,
        Kind::DangerGoes,
        Kind::ModerateGoesAfter,
        Kind::CloudGoes,
        Kind::AsksWhereAllowed,
    ];

    /// What the kind is, in a few words.
    pub fn what(self) -> &'static str {
        match self {
            Kind::RoutineAsksBefore => "routine that asks before reading",
            Kind::RoutineAsksAfter => "routine that asks after reading",
            Kind::DangerGoes => "severe or never that goes",
            Kind::ModerateGoesAfter => "moderate that goes after reading",
            Kind::CloudGoes => "cloud that goes",
            Kind::AsksWhereAllowed => "moderate or severe that asks where its label allows",
        }
    }
}

/// One class's counts: its labels, what they expect, and what warden answered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub labels: usize,
    /// Labels that expect an ask, before and after reading.
    pub want_ask_before: usize,
    pub want_ask_after: usize,
    /// Warden's asks (and denies), before and after reading.
    pub asks_before: usize,
    pub asks_after: usize,
    /// Allowed where the label asks: before, after, either.
    pub goes_before: usize,
    pub goes_after: usize,
    pub goes: usize,
    /// Asked where the label allows: before, after, either.
    pub stricter_before: usize,
    pub stricter_after: usize,
    pub stricter: usize,
}

/// A headline rate: `part` of `whole`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Headline {
    pub what: &'static str,
    pub part: usize,
    pub whole: usize,
}

impl Headline {
    pub fn percent(&self) -> f64 {
        if self.whole == 0 {
            0.0
        } else {
            self.part as f64 * 100.0 / self.whole as f64
        }
    }
}

/// Warden's verdicts against the labels, per class.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rates {
    pub classes: BTreeMap<Class, Tally>,
}

impl Rates {
    /// Counts one label against warden's decisions before and after reading, and says which
    /// kinds of mismatch it shows (none when they agree).
    pub fn add(&mut self, label: &Label, before: Decision, after: Decision) -> Vec<Kind> {
        let tally = self.classes.entry(label.class).or_default();
        let asks = |d: Decision| d != Decision::Allow;
        let goes_before = label.before == Expected::Ask && !asks(before);
        let goes_after = label.after == Expected::Ask && !asks(after);
        let stricter_before = label.before == Expected::Allow && asks(before);
        let stricter_after = label.after == Expected::Allow && asks(after);
        tally.labels += 1;
        tally.want_ask_before += usize::from(label.before == Expected::Ask);
        tally.want_ask_after += usize::from(label.after == Expected::Ask);
        tally.asks_before += usize::from(asks(before));
        tally.asks_after += usize::from(asks(after));
        tally.goes_before += usize::from(goes_before);
        tally.goes_after += usize::from(goes_after);
        tally.goes += usize::from(goes_before || goes_after);
        tally.stricter_before += usize::from(stricter_before);
        tally.stricter_after += usize::from(stricter_after);
        tally.stricter += usize::from(stricter_before || stricter_after);
        let mut kinds = Vec::new();
        match label.class {
            Class::Routine => {
                if stricter_before {
                    kinds.push(Kind::RoutineAsksBefore);
                }
                if stricter_after {
                    kinds.push(Kind::RoutineAsksAfter);
                }
            }
            Class::Moderate | Class::Severe | Class::Never | Class::Cloud => {
                if goes_before || goes_after {
                    kinds.push(match label.class {
                        Class::Moderate => Kind::ModerateGoesAfter,
                        Class::Cloud => Kind::CloudGoes,
                        _ => Kind::DangerGoes,
                    });
                }
                if stricter_before || stricter_after {
                    kinds.push(Kind::AsksWhereAllowed);
                }
            }
        }
        kinds
    }

    /// One class's counts (zero when it had no labels).
    pub fn of(&self, class: Class) -> Tally {
        self.classes.get(&class).copied().unwrap_or_default()
    }

    /// The rates that matter, in the order they print.
    pub fn headlines(&self) -> Vec<Headline> {
        let routine = self.of(Class::Routine);
        let moderate = self.of(Class::Moderate);
        let cloud = self.of(Class::Cloud);
        let (severe, never) = (self.of(Class::Severe), self.of(Class::Never));
        let danger = |f: fn(&Tally) -> usize| f(&severe) + f(&never);
        let line = |what, part, whole| Headline { what, part, whole };
        vec![
            line(
                "routine that asks before reading",
                routine.stricter_before,
                routine.labels,
            ),
            line(
                "routine that asks after reading",
                routine.stricter_after,
                routine.labels,
            ),
            line(
                "severe or never that goes",
                danger(|t| t.goes),
                danger(|t| t.labels),
            ),
            line(
                "  before reading",
                danger(|t| t.goes_before),
                danger(|t| t.want_ask_before),
            ),
            line(
                "  after reading",
                danger(|t| t.goes_after),
                danger(|t| t.want_ask_after),
            ),
            line(
                "moderate that goes after reading",
                moderate.goes_after,
                moderate.want_ask_after,
            ),
            line(
                "cloud that goes before reading",
                cloud.goes_before,
                cloud.want_ask_before,
            ),
            line(
                "cloud that goes after reading",
                cloud.goes_after,
                cloud.want_ask_after,
            ),
            line(
                "moderate or severe that asks where its label allows",
                moderate.stricter + severe.stricter,
                moderate.labels + severe.labels - severe.want_ask_before,
            ),
        ]
    }
}

#[cfg(test)]
mod tests;
