//! Apps and MCP tools (to be written): fail closed until then.

use super::Assessment;
use crate::step::{AppStep, Context};
use crate::verdict::{Harm, Risk};

/// The chat as the app's step sees it.
pub fn context(step: &AppStep, ctx: &Context) -> Context {
    let _ = step;
    ctx.clone()
}

/// What an app's step risks.
pub fn assess(step: &AppStep, ctx: &Context) -> Assessment {
    let _ = ctx;
    Assessment {
        risks: vec![Risk::new(
            "app.unjudged",
            Harm::Severe,
            true,
            format!(
                "the tool {} of {} is not judged yet, so warden asks",
                step.tool, step.app
            ),
        )],
        changes: true,
        network: true,
        edit_in_work: false,
    }
}
