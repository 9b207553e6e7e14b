//! The running supervisor: the host's facts, the runtime, and the ways in (`serve`).

pub mod config;
pub mod facts;
pub mod runtime;
pub mod serve;
