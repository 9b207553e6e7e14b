//! The person's mode: how much goes without asking.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How much the agent may do without asking, from least to most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Nothing that changes the world; reading only.
    PlanOnly,
    /// Ask for every change.
    AskFirst,
    /// Edits inside the work folder go; commands that change things ask.
    EditFreely,
    /// Ask only about what matters: the risk policy decides.
    #[default]
    Auto,
    /// Only the irreducible list asks.
    FullTrust,
}

/// A mode name that is neither warden's nor Claude Code's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown mode `{0}`: expected ask_first, edit_freely, plan_only, auto or full_trust (or Claude Code's default, plan, acceptEdits, auto, dontAsk, bypassPermissions)"
)]
pub struct UnknownMode(pub String);

impl Mode {
    /// Reads warden's own names and Claude Code's permission modes. Claude Code's `default`
    /// maps to `default_mode` (warden's Auto unless configured otherwise).
    pub fn parse_with_default(raw: &str, default_mode: Mode) -> Result<Mode, UnknownMode> {
        Ok(match raw {
            "ask_first" => Mode::AskFirst,
            "edit_freely" | "acceptEdits" => Mode::EditFreely,
            "plan_only" | "plan" => Mode::PlanOnly,
            "auto" | "dontAsk" => Mode::Auto,
            "full_trust" | "bypassPermissions" => Mode::FullTrust,
            "default" => default_mode,
            other => return Err(UnknownMode(other.to_string())),
        })
    }

    /// [`Mode::parse_with_default`] with Claude Code's `default` read as Auto.
    pub fn parse(raw: &str) -> Result<Mode, UnknownMode> {
        Mode::parse_with_default(raw, Mode::Auto)
    }

    pub fn name(self) -> &'static str {
        match self {
            Mode::PlanOnly => "plan_only",
            Mode::AskFirst => "ask_first",
            Mode::EditFreely => "edit_freely",
            Mode::Auto => "auto",
            Mode::FullTrust => "full_trust",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_names_map_to_warden_modes() {
        let table = [
            ("plan", Mode::PlanOnly),
            ("acceptEdits", Mode::EditFreely),
            ("bypassPermissions", Mode::FullTrust),
            ("auto", Mode::Auto),
            ("dontAsk", Mode::Auto),
            ("default", Mode::Auto),
            ("ask_first", Mode::AskFirst),
        ];
        for (raw, want) in table {
            assert_eq!(Mode::parse(raw), Ok(want), "{raw}");
        }
        assert_eq!(
            Mode::parse_with_default("default", Mode::AskFirst),
            Ok(Mode::AskFirst)
        );
        assert!(Mode::parse("yolo").is_err());
    }
}
