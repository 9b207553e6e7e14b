//! The corpus harness: every case in `corpus/` is data, read here by one harness that names
//! the file and the case on failure.

#![expect(
    clippy::panic,
    reason = "a test fails by panicking, naming the file and the case"
)]
mod intent;
mod shell;
