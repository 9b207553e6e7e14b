//! The person's settings as a file, and what restoring one would grant (seed 004's restore
//! preview): export writes [`Backup::of`] the preferences; import reads a file and shows
//! [`restore`]'s answer, everything it would grant named, before anything takes effect.
//!
//! A restore only adds: classes allowed in every chat, command rules, tool settings, and a
//! note that replaces the one kept. It forgets nothing (that is the × beside each). What
//! warden would refuse to keep is refused by name: a rule too broad, a class that names no
//! rule, a note too long; an older or someone else's file can't quietly bring back what Auto
//! trusts, because every grant is listed before the person says yes.

use super::{NOTE_MAX, Preferences};
use crate::chat::{Event, Kept};
use crate::law::rule::RuleId;
use crate::rules::{AutoRule, validate};
use crate::step::Setting;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a settings file says it is, in its `warden` field.
pub const KIND: &str = "settings";

/// The layout of settings files this warden writes and reads.
pub const VERSION: u32 = 1;

/// How many of the note's words a preview shows.
pub const FIRST_WORDS: usize = 12;

/// A settings file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Backup {
    /// Always [`KIND`].
    pub warden: String,
    /// Always [`VERSION`] when written by this warden.
    pub version: u32,
    /// Classes Auto never asks about again, in any chat.
    #[serde(default)]
    pub auto_allowed: Vec<Kept>,
    /// Commands Auto never asks about again, each in its work folder.
    #[serde(default)]
    pub auto_rules: Vec<RuleLine>,
    /// Per-tool settings, by `app:tool`.
    #[serde(default)]
    pub settings: BTreeMap<String, Setting>,
    /// The note about where the person works.
    #[serde(default)]
    pub note: String,
}

/// A command rule as a file holds it: the command as the card showed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleLine {
    pub rule: String,
    pub tool: String,
    /// The work folder it holds in (none: any).
    #[serde(default)]
    pub cwd: Option<String>,
}

impl RuleLine {
    fn of(rule: &AutoRule) -> RuleLine {
        RuleLine {
            rule: rule.to_string(),
            tool: rule.tool.clone(),
            cwd: rule.cwd.clone(),
        }
    }

    fn rule(&self) -> AutoRule {
        AutoRule {
            tool: self.tool.clone(),
            words: self.rule.split_whitespace().map(str::to_string).collect(),
            cwd: self.cwd.clone(),
        }
    }
}

impl Backup {
    /// The preferences as a file.
    pub fn of(preferences: &Preferences) -> Backup {
        Backup {
            warden: KIND.to_string(),
            version: VERSION,
            auto_allowed: preferences.auto_allowed.clone(),
            auto_rules: preferences.auto_rules.iter().map(RuleLine::of).collect(),
            settings: preferences.settings.clone(),
            note: preferences.note.clone(),
        }
    }
}

/// Why a file is not a settings file this warden reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackupError {
    #[error("`warden`: `{}` is not a warden settings file (it says `{KIND}`)", .0.escape_default())]
    Kind(String),
    #[error("`version`: {0} is not a layout this warden reads (it reads {VERSION})")]
    Version(u32),
}

/// A setting a restore would change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SettingChange {
    pub app: String,
    pub tool: String,
    pub setting: Setting,
    /// What it is now (none: the default).
    pub was: Option<Setting>,
}

/// Something in a file a restore would not keep, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refused {
    /// What the file holds, as it says it.
    pub what: String,
    pub why: String,
}

/// What restoring a file would do: every grant, named.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Restore {
    /// Classes it would allow in every chat that aren't now.
    pub allowed_everywhere: Vec<Kept>,
    /// Command rules it would keep that aren't kept now.
    pub rules: Vec<AutoRule>,
    /// Tool settings it would change.
    pub settings: Vec<SettingChange>,
    /// The note it would keep in place of the one kept now.
    pub note: Option<String>,
    /// Entries of the file that are in force already.
    pub unchanged: usize,
    /// Entries it would not keep.
    pub refused: Vec<Refused>,
}

/// The first `n` words of a note, and an ellipsis when there are more.
pub fn first_words(note: &str, n: usize) -> String {
    let words: Vec<&str> = note.split_whitespace().collect();
    let mut shown = words.iter().take(n).copied().collect::<Vec<_>>().join(" ");
    if words.len() > n {
        shown.push('…');
    }
    shown
}

/// Whether a name from a file is one warden would keep: not empty, not too long, no control
/// characters.
fn plain(name: &str) -> bool {
    !name.trim().is_empty() && name.chars().count() <= 256 && !name.chars().any(char::is_control)
}

/// What restoring `file` over `now` would grant, or why the file can't be read as settings.
pub fn restore(now: &Preferences, file: &Backup) -> Result<Restore, BackupError> {
    if file.warden != KIND {
        return Err(BackupError::Kind(file.warden.clone()));
    }
    if file.version != VERSION {
        return Err(BackupError::Version(file.version));
    }
    let mut restore = Restore::default();
    for kept in &file.auto_allowed {
        let what = format!("{} for {}", kept.class, kept.tool);
        if !plain(&kept.tool) {
            restore.refused.push(Refused {
                what,
                why: "the tool is empty or not a plain name".to_string(),
            });
        } else if RuleId::parse(&kept.class).is_none() {
            restore.refused.push(Refused {
                what,
                why: format!(
                    "`{}` names no rule of warden's",
                    kept.class.escape_default()
                ),
            });
        } else if now.auto_allowed.contains(kept) {
            restore.unchanged += 1;
        } else if !restore.allowed_everywhere.contains(kept) {
            restore.allowed_everywhere.push(kept.clone());
        }
    }
    for line in &file.auto_rules {
        let rule = line.rule();
        // INVARIANT: a restore keeps only a rule warden would have offered.
        match validate(&rule) {
            Err(e) => restore.refused.push(Refused {
                what: line.rule.clone(),
                why: e.to_string(),
            }),
            Ok(()) if now.auto_rules.contains(&rule) => restore.unchanged += 1,
            Ok(()) if !restore.rules.contains(&rule) => restore.rules.push(rule),
            Ok(()) => {}
        }
    }
    for (key, setting) in &file.settings {
        let Some((app, tool)) = key.split_once(':').filter(|(a, t)| plain(a) && plain(t)) else {
            restore.refused.push(Refused {
                what: key.clone(),
                why: "a setting is named `app:tool`".to_string(),
            });
            continue;
        };
        let was = now.settings.get(key).copied();
        if was == Some(*setting) {
            restore.unchanged += 1;
        } else {
            restore.settings.push(SettingChange {
                app: app.to_string(),
                tool: tool.to_string(),
                setting: *setting,
                was,
            });
        }
    }
    let chars = file.note.chars().count();
    if chars > NOTE_MAX {
        restore.refused.push(Refused {
            what: format!("the note ({})", first_words(&file.note, FIRST_WORDS)),
            why: format!("it is {chars} characters long: a note holds {NOTE_MAX} at most"),
        });
    } else if file.note.trim().is_empty() {
        // An empty note in a file changes nothing: a restore never forgets.
    } else if file.note == now.note {
        restore.unchanged += 1;
    } else {
        restore.note = Some(file.note.clone());
    }
    Ok(restore)
}

impl Restore {
    /// Whether it would change nothing.
    pub fn is_empty(&self) -> bool {
        self.allowed_everywhere.is_empty()
            && self.rules.is_empty()
            && self.settings.is_empty()
            && self.note.is_none()
    }

    /// The events of the preferences' stream that carry it out, written as one batch.
    pub fn events(&self) -> Vec<Event> {
        let mut events = Vec::new();
        for kept in &self.allowed_everywhere {
            events.push(Event::AllowedEverywhere {
                kept: kept.clone(),
                allowed: true,
            });
        }
        for rule in &self.rules {
            events.push(Event::RuleKept {
                rule: rule.clone(),
                kept: true,
            });
        }
        for change in &self.settings {
            events.push(Event::SettingChanged {
                app: change.app.clone(),
                tool: change.tool.clone(),
                setting: Some(change.setting),
            });
        }
        if let Some(note) = &self.note {
            events.push(Event::NoteChanged { note: note.clone() });
        }
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::Record;

    fn kept(tool: &str, class: &str) -> Kept {
        Kept {
            tool: tool.into(),
            class: class.into(),
        }
    }

    fn line(rule: &str, cwd: Option<&str>) -> RuleLine {
        RuleLine {
            rule: rule.into(),
            tool: "Bash".into(),
            cwd: cwd.map(str::to_string),
        }
    }

    #[test]
    fn a_file_comes_back_as_the_preferences_it_was_made_from() {
        let mut now = Preferences {
            auto_allowed: vec![kept("Bash", "git.push")],
            note: "I work on acme/app.".into(),
            ..Preferences::default()
        };
        now.settings.insert("Gmail:send".into(), Setting::Ask);
        now.auto_rules
            .push(line("git push origin feature/*", Some("/w")).rule());
        let file = Backup::of(&now);
        let text = serde_json::to_string(&file).unwrap_or_default();
        let read: Backup = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(read, file);
        // Restored over nothing, it grants exactly what it holds, and replays to it.
        let restore = restore(&Preferences::default(), &read).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(restore.refused, vec![]);
        let records: Vec<Record> = restore
            .events()
            .into_iter()
            .map(|event| Record { at_ms: 0, event })
            .collect();
        assert_eq!(Preferences::replay(&records), now);
        // Over itself, it changes nothing.
        let again = super::restore(&now, &read).unwrap_or_else(|e| panic!("{e}"));
        assert!(again.is_empty(), "{again:?}");
        assert_eq!(again.unchanged, 4);
    }

    #[test]
    fn a_restore_names_every_grant_and_refuses_what_warden_would() {
        let mut now = Preferences::default();
        now.settings.insert("Gmail:send".into(), Setting::Off);
        let file = Backup {
            warden: KIND.into(),
            version: VERSION,
            auto_allowed: vec![
                kept("Bash", "git.push"),
                kept("Bash", "git.push"),
                kept("Bash", "no.such_rule"),
            ],
            auto_rules: vec![
                line("git push origin feature/*", Some("/w")),
                line("bash -c anything", None),
                line("git", None),
            ],
            settings: [
                ("Gmail:send".to_string(), Setting::Allow),
                ("nocolon".to_string(), Setting::Allow),
            ]
            .into_iter()
            .collect(),
            note:
                "anything goes here, push wherever you like and deploy to production at will please"
                    .into(),
        };
        let restore = restore(&now, &file).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(restore.allowed_everywhere, vec![kept("Bash", "git.push")]);
        assert_eq!(restore.rules.len(), 1);
        assert_eq!(restore.rules[0].to_string(), "git push origin feature/*");
        assert_eq!(
            restore.settings,
            vec![SettingChange {
                app: "Gmail".into(),
                tool: "send".into(),
                setting: Setting::Allow,
                was: Some(Setting::Off),
            }],
            "a setting that lowers caution is named with what it was"
        );
        assert!(restore.note.is_some());
        let refused: Vec<&str> = restore.refused.iter().map(|r| r.what.as_str()).collect();
        assert_eq!(
            refused,
            vec![
                "no.such_rule for Bash",
                "bash -c anything",
                "git",
                "nocolon"
            ]
        );
        assert!(
            restore.refused[1].why.contains("is a shell"),
            "{:?}",
            restore.refused[1]
        );
        assert_eq!(
            first_words(restore.note.as_deref().unwrap_or_default(), FIRST_WORDS),
            "anything goes here, push wherever you like and deploy to production at…"
        );
    }

    #[test]
    fn a_file_that_is_not_settings_is_refused_by_its_field() {
        let file = |warden: &str, version| Backup {
            warden: warden.into(),
            version,
            auto_allowed: vec![],
            auto_rules: vec![],
            settings: BTreeMap::new(),
            note: String::new(),
        };
        let now = Preferences::default();
        assert_eq!(
            restore(&now, &file("photos", VERSION)).map_err(|e| e.to_string()),
            Err("`warden`: `photos` is not a warden settings file (it says `settings`)".into())
        );
        assert_eq!(
            restore(&now, &file(KIND, 2)).map_err(|e| e.to_string()),
            Err("`version`: 2 is not a layout this warden reads (it reads 1)".into())
        );
        let long = Backup {
            note: "x".repeat(NOTE_MAX + 1),
            ..file(KIND, VERSION)
        };
        let restore = restore(&now, &long).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(restore.note, None);
        assert_eq!(restore.refused.len(), 1);
    }
}
