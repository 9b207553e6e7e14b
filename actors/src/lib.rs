//! The running supervisor: the host's facts, the ways in, the second look's client.

pub mod config;
pub mod facts;
pub mod runtime;
pub mod second_look;
