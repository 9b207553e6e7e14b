//! Where one runtime's actors are found: by name, in ractor's registry. A step goes from the
//! caller straight to its chat's actor, looked up by the chat's id, without a stop at the
//! supervisor; a chat finds its parent the same way, and a chat its judge.
//!
//! Nothing of warden's is shared behind a lock for it: ractor keeps the registry itself, as
//! actors start and stop. A name is taken when its actor is spawned (before `pre_start`, so
//! a message sent meanwhile waits in its mailbox) and let go when the actor stops handling
//! messages, before its supervisor hears that it stopped: the supervisor can spawn another
//! under the same name at once, and two live actors never hold one chat's name.

use super::chat::ChatMsg;
use super::judge::JudgeMsg;
use ractor::ActorRef;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The names of one runtime's actors: the registry is the process's, so each runtime's
/// names start with a number of its own (tests run many runtimes in one process).
#[derive(Debug, Clone)]
pub struct Names {
    prefix: Arc<str>,
}

impl Names {
    /// The names of a new runtime, unlike any other runtime's in this process.
    pub fn new() -> Names {
        static RUNTIMES: AtomicU64 = AtomicU64::new(0);
        let n = RUNTIMES.fetch_add(1, Ordering::Relaxed);
        Names {
            prefix: format!("warden/{n}/").into(),
        }
    }

    fn name(&self, kind: &str, what: &str) -> String {
        let mut name = String::with_capacity(self.prefix.len() + kind.len() + what.len());
        name.push_str(&self.prefix);
        name.push_str(kind);
        name.push_str(what);
        name
    }

    /// The name of the chat (or task) `id`'s actor.
    pub fn chat(&self, id: &str) -> String {
        self.name("chat/", id)
    }

    /// The chat (or task) whose actor's name this is, if it is one of this runtime's chats.
    pub fn chat_id<'a>(&self, name: &'a str) -> Option<&'a str> {
        name.strip_prefix(&*self.prefix)?.strip_prefix("chat/")
    }

    /// The name of the judge in the pool's place `at`.
    pub fn judge(&self, at: usize) -> String {
        self.name("judge/", &at.to_string())
    }

    /// The actor of the chat `id`, if one is in memory and alive.
    pub fn alive_chat(&self, id: &str) -> Option<ActorRef<ChatMsg>> {
        ActorRef::<ChatMsg>::where_is(self.chat(id)).filter(is_alive)
    }

    /// The judge named `name`, if it is alive.
    pub fn alive_judge(name: &str) -> Option<ActorRef<JudgeMsg>> {
        ActorRef::<JudgeMsg>::where_is(name).filter(is_alive)
    }
}

/// Whether an actor takes messages (starting or running).
pub fn is_alive<M>(actor: &ActorRef<M>) -> bool {
    ractor::ACTIVE_STATES.contains(&actor.get_status())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_runtimes_never_share_a_name() {
        let (one, two) = (Names::new(), Names::new());
        assert_ne!(one.chat("c1"), two.chat("c1"));
        assert_ne!(one.judge(0), two.judge(0));
        // A chat named like a judge is still a chat.
        for id in ["0", "judge/0", "../judge/0", "/judge/0"] {
            assert_ne!(one.chat(id), one.judge(0), "{id}");
            assert_eq!(one.chat_id(&one.chat(id)), Some(id), "{id}");
            assert_eq!(two.chat_id(&one.chat(id)), None, "{id}: another runtime's");
        }
        assert_eq!(one.chat_id(&one.judge(0)), None, "a judge is no chat");
    }
}
