//! The watch actor: one per chat that takes app steps, spawned on the chat's first app step
//! and linked to it. It keeps the chat's counts (this turn, the last 24 hours) and says what
//! LIMITS make of the next step. The counts come from the chat's log, so a restart keeps them.

use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use std::sync::Arc;
use warden::chat::law::Watched;
use warden::step::AppStep;
use warden::watch::Thresholds;

/// What the watch does.
pub enum WatchMsg {
    /// What this step adds to the counts, and what LIMITS make of it.
    Look {
        app: Box<AppStep>,
        now_ms: i64,
        reply: RpcReplyPort<Watched>,
    },
    /// The chat's counts after it recorded an event (only a step that goes counts).
    Sync {
        counts: Vec<(i64, String, u32)>,
        turn_started_ms: i64,
    },
}

/// The watch actor.
pub struct WatchActor;

/// The counts it watches.
pub struct WatchState {
    counts: Vec<(i64, String, u32)>,
    turn_started_ms: i64,
    /// The person's thresholds, in place of LIMITS' numbers.
    thresholds: Arc<Thresholds>,
}

impl Actor for WatchActor {
    type Msg = WatchMsg;
    type State = WatchState;
    type Arguments = (Vec<(i64, String, u32)>, i64, Arc<Thresholds>);

    async fn pre_start(
        &self,
        _myself: ActorRef<WatchMsg>,
        (counts, turn_started_ms, thresholds): Self::Arguments,
    ) -> Result<WatchState, ActorProcessingErr> {
        Ok(WatchState {
            counts,
            turn_started_ms,
            thresholds,
        })
    }

    async fn handle(
        &self,
        _myself: ActorRef<WatchMsg>,
        message: WatchMsg,
        state: &mut WatchState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            WatchMsg::Look { app, now_ms, reply } => {
                let counts = warden::watch::counts(&app);
                let risks = warden::watch::watch(
                    &state.counts,
                    state.turn_started_ms,
                    now_ms,
                    &counts,
                    &state.thresholds,
                );
                let _ = reply.send(Watched { counts, risks });
            }
            WatchMsg::Sync {
                counts,
                turn_started_ms,
            } => {
                state.counts = counts;
                state.turn_started_ms = turn_started_ms;
            }
        }
        Ok(())
    }
}
