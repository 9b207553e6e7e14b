//! The actors' integration tests, one binary with a module per area: the runtime over the
//! log, the HTTP API, the hook as Claude Code and Codex run it (and the real binaries of
//! both), the second look on a real model, setup, crashes and torture. `common` holds what
//! several areas share: the real `warden serve` on a port of its own, a client for it, and
//! the real `warden hook` fed a recorded input.
#![allow(clippy::panic, reason = "a test fails by panicking")]

mod claude_code;
mod cluster;
mod codex;
mod codex_hook;
mod common;
mod crash;
mod e2e;
mod hook;
mod itself;
mod jetstream;
mod judge;
mod page;
mod runtime;
mod scenarios;
mod second_look;
mod serve;
mod setup;
mod torture;
