//! The judges: the chat law's decisions (`warden::chat::law::decide`), with the person's
//! global preferences beside it (classes allowed in every chat, Always-allow-one-command
//! rules, per-tool settings, the note). The law is pure; the facts it asks for (git status,
//! remotes, manifests) come from the host and may block. A step whose facts are at hand (the
//! host's caches answer, as for most steps) is decided where its chat runs, with no hop
//! ([`Judges::decide_here`]); one that needs `git` goes to a judge actor of the pool, which
//! runs it off the async threads.

use super::error::{Part, RuntimeError};
use super::names::Names;
use super::panic_text;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::watch;
use warden::chat::ChatState;
use warden::chat::law::{Decided, Situation, Watched};
use warden::facts::Facts;
use warden::preferences::Preferences;
use warden::step::Step;

/// What the judge does.
pub enum JudgeMsg {
    /// Decide a step in a chat: the chat's state, shared read-only for the call.
    Judge {
        state: Arc<ChatState>,
        step: Box<Step>,
        situation: Box<Situation>,
        /// What the chat's behaviour watch found.
        watched: Watched,
        reply: RpcReplyPort<Box<Decided>>,
    },
}

/// The judge actor.
pub struct JudgeActor;

/// What a judge starts from.
pub struct JudgeArgs {
    pub facts: Arc<dyn Facts + Send + Sync>,
    pub preferences: Published,
}

/// The person's preferences as the log's writer publishes them: a read-only snapshot,
/// replaced whole when a change is durable. A reader clones the latest `Arc` and lets the
/// borrow go at once, so the writer never waits on a judge that is deciding.
pub type Published = watch::Receiver<Arc<Preferences>>;

/// A judge's state.
pub struct JudgeState {
    facts: Arc<dyn Facts + Send + Sync>,
    preferences: Published,
}

/// The judges: a small pool, one per core, so one mailbox never holds every chat's step.
/// Steps go round the pool. They read the preferences; only the log's writer changes them,
/// once they are durable, so they are applied in the order the log holds them.
///
/// The pool holds no list of actors: each place has a name, the supervisor spawns (and
/// spawns again, after a failure) the judge of a place under its name, and a chat finds it
/// by name ([`Names`]).
#[derive(Clone)]
pub struct Judges {
    inner: Arc<Pool>,
}

struct Pool {
    /// Each place's name, in order.
    places: Box<[String]>,
    next: AtomicUsize,
    preferences: Published,
    /// The host's facts, for the steps decided where their chat runs.
    facts: Arc<dyn Facts + Send + Sync>,
}

impl Judges {
    /// A pool of `size` places (at least one), empty until the supervisor starts them, whose
    /// judges read the preferences `preferences` publishes; `facts` the host's, for the steps
    /// decided where their chat runs.
    pub fn new(
        names: &Names,
        size: usize,
        preferences: Published,
        facts: Arc<dyn Facts + Send + Sync>,
    ) -> Judges {
        Judges {
            inner: Arc::new(Pool {
                places: (0..size.max(1)).map(|at| names.judge(at)).collect(),
                next: AtomicUsize::new(0),
                preferences,
                facts,
            }),
        }
    }

    /// One judge per core the machine offers, up to four.
    pub fn per_core(
        names: &Names,
        preferences: Published,
        facts: Arc<dyn Facts + Send + Sync>,
    ) -> Judges {
        Judges::new(
            names,
            std::thread::available_parallelism().map_or(1, |n| n.get().min(4)),
            preferences,
            facts,
        )
    }

    /// Decides a step where its chat runs, when it needs no fact that may wait: the host's
    /// facts answer from what they hold (`facts::at_hand`), or never wait. `None` when it
    /// needed one (it would have run `git`): a judge of the pool decides it then, off the
    /// async threads ([`Judges::pick`]). This saves the common step two hops, to a judge
    /// and back.
    pub fn decide_here(
        &self,
        state: &ChatState,
        step: &Step,
        situation: &Situation,
        watched: &Watched,
    ) -> Option<Result<Decided, RuntimeError>> {
        let facts = self.inner.facts.as_ref();
        let preferences = self.current();
        let rule = || {
            warden::chat::law::decide(
                state,
                &preferences,
                step.clone(),
                facts,
                situation,
                watched.clone(),
            )
        };
        let decided = if facts.may_wait() {
            std::panic::catch_unwind(AssertUnwindSafe(|| crate::facts::at_hand(rule)))
                .transpose()?
        } else {
            std::panic::catch_unwind(AssertUnwindSafe(rule))
        };
        // INVARIANT: a step whose judging panicked gets no verdict: its caller fails and
        // asks, as with a judge of the pool.
        Some(decided.map_err(|panic| {
            tracing::error!(
                panic = panic_text(panic.as_ref()),
                "judging a step panicked; the step is not judged (its caller asks)"
            );
            RuntimeError::Gone { part: Part::Judge }
        }))
    }

    pub fn size(&self) -> usize {
        self.inner.places.len()
    }

    /// The name of the judge in the place `at`.
    pub fn name(&self, at: usize) -> &str {
        self.inner.places.get(at).map_or("", String::as_str)
    }

    /// The next judge round the pool; one whose judge is starting again after a failure is
    /// passed over.
    pub fn pick(&self) -> Option<ActorRef<JudgeMsg>> {
        let places = &self.inner.places;
        let first = self.inner.next.fetch_add(1, Ordering::Relaxed);
        (0..places.len()).find_map(|i| {
            let at = first.wrapping_add(i) % places.len();
            places.get(at).and_then(|name| Names::alive_judge(name))
        })
    }

    /// The preferences every judge reads.
    pub fn preferences(&self) -> Published {
        self.inner.preferences.clone()
    }

    /// The preferences as they stand.
    pub fn current(&self) -> Arc<Preferences> {
        Arc::clone(&self.inner.preferences.borrow())
    }
}

impl JudgeState {
    fn rule(
        &self,
        state: &ChatState,
        step: Step,
        situation: &Situation,
        watched: Watched,
    ) -> Decided {
        let preferences = Arc::clone(&self.preferences.borrow());
        warden::chat::law::decide(
            state,
            &preferences,
            step,
            self.facts.as_ref(),
            situation,
            watched,
        )
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
                state: chat,
                step,
                situation,
                watched,
                reply,
            } => {
                // First with the facts at hand (no git): most steps need none that isn't
                // cached, and block_in_place costs a hand-over of this thread's work. git
                // may take a few seconds: a judge that may wait does it off the async
                // threads, so the other judges and chats go on meanwhile.
                let quick = if state.facts.may_wait() {
                    std::panic::catch_unwind(AssertUnwindSafe(|| {
                        crate::facts::at_hand(|| {
                            state.rule(&chat, (*step).clone(), &situation, watched.clone())
                        })
                    }))
                    .transpose()
                } else {
                    None
                };
                let judging = || {
                    std::panic::catch_unwind(AssertUnwindSafe(|| {
                        state.rule(&chat, *step, &situation, watched)
                    }))
                };
                let decided = match quick {
                    Some(decided) => decided,
                    None if state.facts.may_wait() => tokio::task::block_in_place(judging),
                    None => judging(),
                };
                // The chat's state is let go before the reply: the chat then changes it in
                // place, without a copy.
                drop(chat);
                match decided {
                    Ok(decided) => {
                        let _ = reply.send(Box::new(decided));
                    }
                    // INVARIANT: a step whose judging panicked (a fact the host gathers, say)
                    // gets no verdict: its reply is dropped, so its caller fails and asks. The
                    // judge holds nothing a panic could leave half-changed, so it goes on: had
                    // it stopped, steps sent to it meanwhile would be lost with its mailbox.
                    Err(panic) => {
                        drop(reply);
                        tracing::error!(
                            panic = panic_text(panic.as_ref()),
                            "judging a step panicked; the step is not judged (its caller asks)"
                        );
                    }
                }
            }
        }
        Ok(())
    }
}
