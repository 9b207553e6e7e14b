//! The judge actor: serves the law's decisions, with the person's global preferences beside
//! it (classes allowed in every chat, Always-allow-one-command rules, per-tool settings, the
//! note). The law is pure; the facts it asks for (git status, remotes, manifests) come from
//! the host and may block, so the actor runs them off the async threads.

use super::call;
use super::log::LogMsg;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use std::sync::Arc;
use warden::chat::{Event, Kept, Record};
use warden::facts::Facts;
use warden::preferences::{Preferences, STREAM};
use warden::step::{Context, Step};
use warden::verdict::{Decision, Risk, Verdict};

/// A verdict and what the preferences had to say about it.
#[derive(Debug, Clone)]
pub struct Ruled {
    pub verdict: Verdict,
    /// Another chat lifted this class with Always allow: the card may offer "in every chat".
    pub lifted_elsewhere: bool,
}

/// What the judge does.
pub enum JudgeMsg {
    /// Judge a step in a chat's context.
    Judge {
        step: Box<Step>,
        ctx: Box<Context>,
        /// What the chat's behaviour watch found.
        watched: Vec<Risk>,
        reply: RpcReplyPort<Ruled>,
    },
    /// Change the preferences (only a person's answer or the settings API sends this):
    /// durable in the log before the reply.
    Prefer {
        event: Event,
        reply: RpcReplyPort<Result<(), String>>,
    },
    /// The preferences as they stand.
    Preferences(RpcReplyPort<Preferences>),
}

/// The judge actor.
pub struct JudgeActor;

/// What the judge starts from.
pub struct JudgeArgs {
    pub facts: Arc<dyn Facts + Send + Sync>,
    pub log: ActorRef<LogMsg>,
    pub preferences: Preferences,
}

/// The judge's state.
pub struct JudgeState {
    facts: Arc<dyn Facts + Send + Sync>,
    log: ActorRef<LogMsg>,
    preferences: Preferences,
}

/// A question a lift may answer: nothing critical, NEVER, refused or held.
pub fn liftable(verdict: &Verdict) -> bool {
    !verdict.risks.iter().any(|s| {
        s.risk.never
            || s.risk.critical
            || s.risk.refused
            || s.wanted == warden::intent::Wanted::Held
    })
}

/// The class a question is about: its strongest rule.
pub fn class_of(verdict: &Verdict) -> String {
    verdict
        .risks
        .first()
        .map_or_else(|| "unjudged".to_string(), |s| s.risk.rule.to_string())
}

impl JudgeState {
    fn rule(&self, mut step: Step, ctx: &Context, watched: Vec<Risk>) -> Ruled {
        if let Step::App(app) = &mut step
            && app.setting.is_none()
        {
            app.setting = self
                .preferences
                .settings
                .get(&format!("{}:{}", app.app, app.tool))
                .copied();
        }
        let facts = Arc::clone(&self.facts);
        // The law is quick; only the host's facts may wait on git (3 s at most, cached per
        // turn), and those are rare: judging inline keeps the judge's mailbox moving.
        let mut verdict = warden::watch::judge(&step, ctx, facts.as_ref(), watched);
        let kept = Kept {
            tool: step.tool(),
            class: class_of(&verdict),
        };
        let lifted_elsewhere = self.preferences.lifted.contains(&kept);
        if verdict.decision == Decision::Ask && liftable(&verdict) {
            if self.preferences.auto_allowed.contains(&kept) {
                verdict.decision = Decision::Allow;
                verdict.reason = format!("{} You always allow this in every chat.", verdict.reason);
            } else if let Step::Command { command } = &step
                && let Some(rule) =
                    warden::rules::lifted_by(&self.preferences.auto_rules, command, &verdict, ctx)
            {
                verdict.decision = Decision::Allow;
                verdict.reason = format!("{} You always allow `{rule}` here.", verdict.reason);
            }
        }
        Ruled {
            verdict,
            lifted_elsewhere,
        }
    }
}

impl Actor for JudgeActor {
    type Msg = JudgeMsg;
    type State = JudgeState;
    type Arguments = JudgeArgs;

    async fn pre_start(
        &self,
        _myself: ActorRef<JudgeMsg>,
        args: JudgeArgs,
    ) -> Result<JudgeState, ActorProcessingErr> {
        Ok(JudgeState {
            facts: args.facts,
            log: args.log,
            preferences: args.preferences,
        })
    }

    async fn handle(
        &self,
        _myself: ActorRef<JudgeMsg>,
        message: JudgeMsg,
        state: &mut JudgeState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            JudgeMsg::Judge {
                step,
                ctx,
                watched,
                reply,
            } => {
                let _ = reply.send(state.rule(*step, &ctx, watched));
            }
            JudgeMsg::Prefer { event, reply } => {
                let record = Record {
                    at_ms: super::chat::now_ms(),
                    event,
                };
                let sent = record.clone();
                let appended = call(&state.log, |reply| LogMsg::Append {
                    chat: STREAM.to_string(),
                    records: vec![sent],
                    reply,
                })
                .await
                .map_err(|e| e.to_string())
                .and_then(|r| r);
                if appended.is_ok() {
                    state.preferences.apply(&record);
                }
                let _ = reply.send(appended.map(|_| ()));
            }
            JudgeMsg::Preferences(reply) => {
                let _ = reply.send(state.preferences.clone());
            }
        }
        Ok(())
    }
}
