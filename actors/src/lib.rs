//! The running supervisor: the host's facts, the runtime, the ways in (`serve`, `hook`), the
//! second look's client, and `setup` (warden's hooks and sandbox in Claude Code's settings).

pub mod config;
pub mod facts;
pub mod runtime;
pub mod second_look;
pub mod serve;
pub mod setup;
