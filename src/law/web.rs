//! WebFetch and WebSearch (to be written): fail closed until then.

use super::Assessment;
use crate::step::{Context, FetchStep};
use crate::verdict::{Harm, Risk};

/// What a fetch or a search risks.
pub fn assess(step: &FetchStep, ctx: &Context) -> Assessment {
    let _ = ctx;
    Assessment {
        risks: vec![Risk::new(
            "web.unjudged",
            Harm::Severe,
            true,
            format!("{} is not judged yet, so warden asks", step.tool),
        )],
        changes: false,
        network: true,
        edit_in_work: false,
    }
}
