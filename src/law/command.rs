//! The law for shell commands.
