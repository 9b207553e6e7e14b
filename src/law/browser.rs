//! Browser steps (to be written): fail closed until then.

use super::Assessment;
use crate::step::{BrowserStep, Context};
use crate::verdict::{Harm, Risk};

/// What a browser step risks.
pub fn assess(step: &BrowserStep, ctx: &Context) -> Assessment {
    let _ = ctx;
    Assessment {
        risks: vec![Risk::new(
            "browser.unjudged",
            Harm::Severe,
            true,
            format!(
                "the browser step on {} is not judged yet, so warden asks",
                step.site
            ),
        )],
        changes: true,
        network: true,
        edit_in_work: false,
    }
}
