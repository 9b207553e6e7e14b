//! The person's preferences, global to every chat: classes allowed everywhere (autoAllowed),
//! Always-allow-one-command rules (autoRules), per-tool settings, and the note about where
//! they work. Kept as events in their own stream of the log, folded like a chat. Only a
//! person's answer or the settings API writes them; nothing is learned by itself.

pub mod backup;

use crate::chat::{Event, Kept, Record};
use crate::rules::{AutoRule, validate};
use crate::step::Setting;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The log stream that holds the preferences (no chat id starts with `~`).
pub const STREAM: &str = "~preferences";

/// The longest note about where the person works.
pub const NOTE_MAX: usize = 2000;

/// Everything the person set for every chat.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Preferences {
    /// Classes Auto never asks about again, in any chat.
    pub auto_allowed: Vec<Kept>,
    /// Commands Auto never asks about again (validated again when read back).
    pub auto_rules: Vec<AutoRule>,
    /// Per-tool settings, by `app:tool`.
    pub settings: BTreeMap<String, Setting>,
    /// Context for a reviewer, never a rule.
    pub note: String,
    /// Every class some chat lifted with Always allow: another chat offers "in every chat".
    pub lifted: Vec<Kept>,
}

impl Preferences {
    /// Applies one event of the preferences stream; others change nothing.
    pub fn apply(&mut self, record: &Record) {
        match &record.event {
            Event::Lifted { kept } => push_once(&mut self.lifted, kept),
            Event::AllowedEverywhere {
                kept,
                allowed: true,
            } => push_once(&mut self.auto_allowed, kept),
            Event::AllowedEverywhere {
                kept,
                allowed: false,
            } => self.auto_allowed.retain(|k| k != kept),
            // INVARIANT: a rule read back is validated again; one warden would refuse is ignored.
            Event::RuleKept { rule, kept: true }
                if validate(rule).is_ok() && !self.auto_rules.contains(rule) =>
            {
                self.auto_rules.push(rule.clone());
            }
            Event::RuleKept { rule, kept: false } => self.auto_rules.retain(|r| r != rule),
            Event::SettingChanged { app, tool, setting } => {
                let key = format!("{app}:{tool}");
                match setting {
                    Some(setting) => {
                        self.settings.insert(key, *setting);
                    }
                    None => {
                        self.settings.remove(&key);
                    }
                }
            }
            Event::NoteChanged { note } => self.note = note.chars().take(NOTE_MAX).collect(),
            _ => {}
        }
    }

    /// Preferences rebuilt from their stream.
    pub fn replay<'a>(records: impl IntoIterator<Item = &'a Record>) -> Preferences {
        let mut preferences = Preferences::default();
        for record in records {
            preferences.apply(record);
        }
        preferences
    }
}

fn push_once(list: &mut Vec<Kept>, kept: &Kept) {
    if !list.contains(kept) {
        list.push(kept.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(event: Event) -> Record {
        Record { at_ms: 0, event }
    }

    #[test]
    fn preferences_fold_from_their_events() {
        let push = Kept {
            tool: "Bash".into(),
            class: "git.push".into(),
        };
        let good = AutoRule {
            tool: "Bash".into(),
            words: vec!["git".into(), "push".into(), "origin".into(), "main".into()],
            cwd: Some("/w".into()),
        };
        let broad = AutoRule {
            tool: "Bash".into(),
            words: vec!["bash".into(), "-c".into(), "x".into()],
            cwd: None,
        };
        let prefs = Preferences::replay(&[
            record(Event::AllowedEverywhere {
                kept: push.clone(),
                allowed: true,
            }),
            record(Event::RuleKept {
                rule: good.clone(),
                kept: true,
            }),
            record(Event::RuleKept {
                rule: broad,
                kept: true,
            }),
            record(Event::NoteChanged {
                note: "x".repeat(3000),
            }),
            record(Event::SettingChanged {
                app: "Yazio".into(),
                tool: "add_food".into(),
                setting: Some(Setting::Allow),
            }),
        ]);
        assert_eq!(prefs.auto_allowed, vec![push.clone()]);
        assert_eq!(
            prefs.auto_rules,
            vec![good],
            "a broad rule read back is ignored"
        );
        assert_eq!(prefs.note.len(), NOTE_MAX);
        assert_eq!(prefs.settings.get("Yazio:add_food"), Some(&Setting::Allow));
        let mut prefs = prefs;
        prefs.apply(&record(Event::AllowedEverywhere {
            kept: push,
            allowed: false,
        }));
        assert!(prefs.auto_allowed.is_empty(), "a lift can be removed");
    }
}
