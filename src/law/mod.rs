//! The law: a step and its chat in, a verdict out. Pure, synchronous and total.

pub mod command;

use crate::facts::Facts;
use crate::step::{Context, Step};
use crate::verdict::Verdict;

/// Judges one step. Never panics and never errors: what it cannot judge asks.
pub fn judge(step: &Step, ctx: &Context, facts: &dyn Facts) -> Verdict {
    let _ = (step, ctx, facts);
    todo_verdict()
}

fn todo_verdict() -> Verdict {
    Verdict { decision: crate::verdict::Decision::Ask, score: 0, reason: String::new(), risks: Vec::new() }
}
