//! The corpus harness: every case in `corpus/` is data, read here by one harness that names
//! the file and the case on failure.

mod intent;
mod shell;
