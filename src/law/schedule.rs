//! Something the agent's host runs later by itself (Claude Code's `CronCreate`,
//! `ScheduleWakeup`, `RemoteTrigger`): persistence, judged as `crontab` is
//! (`persist.schedule`). Moderate; lasting when it outlives the session (a durable cron, a
//! trigger kept in the cloud), so it asks after reading, and before reading too when the
//! person held it; Plan only refuses it, Ask first asks. What it will run is read for
//! warden's own address (`warden.itself`), as every text a step carries is.

use super::Assessment;
use crate::law::rule::RuleId;
use crate::step::ScheduleStep;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Wish};

/// What a schedule risks.
pub fn assess(step: &ScheduleStep) -> Assessment {
    let when = if step.remote {
        "in the cloud, by itself"
    } else if step.lasting {
        "by itself on a schedule that outlives this session"
    } else {
        "by itself later in this session"
    };
    let risk = Risk::new(
        RuleId::PersistSchedule,
        Harm::Moderate,
        step.lasting,
        format!("{} sets a prompt to run {when}", step.tool),
    )
    .wish(Wish::new(Act::Schedule));
    Assessment {
        risks: vec![risk],
        changes: true,
        network: step.remote,
        edit_in_work: false,
    }
}
