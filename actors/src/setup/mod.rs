//! `warden setup claude-code`: writes warden's hooks and Claude Code's sandbox settings into
//! a Claude Code settings file, merged into what is there, after a preview and with a
//! backup; `--check` says what is set and what is missing (`docs/hook.md`, "Setup").

pub mod diff;
pub mod json;
pub mod merge;
