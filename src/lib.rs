//! warden's law and the vocabulary every layer shares: a step, a verdict, a risk, a wish,
//! the person's words, a mode. Pure and synchronous: no I/O, no clocks, no async.

pub mod catalogue;
pub mod chat;
pub mod corpus;
pub mod facts;
pub mod fold;
pub mod intent;
pub mod law;
pub mod lookalike;
pub mod manifest;
pub mod mode;
pub mod patch;
pub mod preferences;
pub mod protocol;
pub mod rules;
pub mod second_look;
pub mod secrets;
pub mod shell;
pub mod step;
pub mod verdict;
pub mod watch;
pub mod wish;

pub use facts::{Facts, FakeFacts};
pub use law::judge;
pub use mode::Mode;
pub use step::{Context, Step};
pub use verdict::{Decision, Harm, Risk, Verdict};
pub use wish::{Act, Name, Wish};
