//! The running supervisor: the host's facts, the ways in.

pub mod config;
pub mod facts;
pub mod runtime;
