//! The one place the log's writer writes a group, and, in a cluster, where each chat's write
//! is fenced: a node that was only slow (paused past its time to live, its chats taken over)
//! cannot write a chat after another node took it (`docs/cluster.md`).
//!
//! Each chat of a group is fenced at the last sequence this node knows for it
//! ([`EventLog::append_batch_fenced`]): the end of the replay or takeover its state was read
//! from, then each of this node's acknowledged appends to it. The person's preferences, which
//! every node writes, carry no fence. A chat this node knows nothing of is fenced at 0 ("the
//! log holds nothing of it"), never at the chat's end as the server has it now: a fence says
//! what the state written from was read at, and the end now may hold another node's writes
//! that state never saw. Every chat comes into memory by a replay whose end is told to the
//! writer first ([`Fences::know`]), so 0 is a new chat's fence, and for a chat the log does
//! hold it refuses, which fails closed.
//!
//! A refusal ([`LogError::Fenced`]) means another node wrote the chat since this node read
//! it: nothing of the group is ever seen, the chat's fence is dropped, and the cluster is told
//! ([`Fenced`]) before the append is answered, so the chat is let go and its next request
//! takes it over again (lease, takeover, replay).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use warden::chat::Record;
use warden::preferences::STREAM;
use warden_storage::{EventLog, LogError};

/// What the cluster is told, in the log's writer, of a chat whose write was refused by its
/// fence, before the write is answered: the chat's id.
pub type Fenced = Arc<dyn Fn(&str) + Send + Sync>;

/// The last sequence this node knows for each chat it writes, in a cluster.
pub(crate) struct Fences {
    known: HashMap<String, u64>,
    told: Option<Fenced>,
}

impl Fences {
    pub(crate) fn new(told: Option<Fenced>) -> Fences {
        Fences {
            known: HashMap::new(),
            told,
        }
    }

    /// A chat was read at `seq` (its replay's or takeover's end), or written up to it by this
    /// node: its fence from now on. Set, never raised to what it was: a fence past what the
    /// state was read at (a replay from a replica behind the others) would let a write from
    /// a state that lacks records through, where this one is refused.
    pub(crate) fn know(&mut self, chat: String, seq: u64) {
        self.known.insert(chat, seq);
    }

    /// A chat left memory: whatever brings it back reads it again, and tells its end.
    pub(crate) fn forget(&mut self, chat: &str) {
        self.known.remove(chat);
    }

    /// The fence a chat's next write carries, if it has one (the preferences have none).
    pub(crate) fn fence_of(&self, chat: &str) -> Option<u64> {
        (chat != STREAM).then(|| self.known.get(chat).copied().unwrap_or(0))
    }

    /// Writes a group, each chat fenced at what this node knows of it; the fences move to
    /// the group's sequence numbers once it is acknowledged, and a chat refused loses its own.
    fn append(&mut self, log: &EventLog, items: &[(&str, &Record)]) -> Result<Vec<u64>, LogError> {
        let mut seen: HashSet<&str> = HashSet::new();
        let mut fences: Vec<(&str, u64)> = Vec::new();
        for (chat, _) in items {
            if seen.insert(chat)
                && let Some(fence) = self.fence_of(chat)
            {
                fences.push((chat, fence));
            }
        }
        match log.append_batch_fenced(items, &fences) {
            Ok(seqs) => {
                for ((chat, _), seq) in items.iter().zip(&seqs) {
                    if *chat == STREAM {
                        continue;
                    }
                    match self.known.get_mut(*chat) {
                        Some(known) => *known = *seq,
                        None => {
                            self.known.insert((*chat).to_string(), *seq);
                        }
                    }
                }
                Ok(seqs)
            }
            Err(LogError::Fenced { chat, expected }) => {
                // The error names the chat shortened (40 characters and an ellipsis).
                for (id, _) in &fences {
                    // Told once: written again alone (the writer's retry of a group's appends
                    // one by one), it is refused at a fence it no longer has.
                    if names(&chat, id) && self.known.remove(*id).is_some() {
                        tracing::warn!(chat = %id, expected, "a write refused by its fence: another node took the chat over; let go, it is taken over again on its next request");
                        if let Some(told) = &self.told {
                            told(id);
                        }
                    }
                }
                Err(LogError::Fenced { chat, expected })
            }
            Err(e) => Err(e),
        }
    }
}

/// Whether the chat named in a refusal (shortened to 40 characters and an ellipsis) is `id`.
fn names(named: &str, id: &str) -> bool {
    if named == id {
        return true;
    }
    named
        .strip_suffix('…')
        .is_some_and(|start| start.chars().count() == 40 && id.starts_with(start))
}

/// Writes a group of records, whole or absent, and answers their sequence numbers: fenced
/// per chat when `fences` is the cluster's, the plain group append on one node.
pub(crate) fn append(
    log: &EventLog,
    fences: Option<&mut Fences>,
    items: &[(&str, &Record)],
) -> Result<Vec<u64>, LogError> {
    match fences {
        Some(fences) => fences.append(log, items),
        None => log.append_batch(items),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_its_chat_shortened() {
        let long = "a".repeat(50);
        let shown = format!("{}…", "a".repeat(40));
        for (named, id, is) in [
            ("c1", "c1", true),
            ("c1", "c2", false),
            ("c1", "c10", false),
            (shown.as_str(), long.as_str(), true),
            (shown.as_str(), "a", false),
        ] {
            assert_eq!(names(named, id), is, "{named} for {id}");
        }
    }

    #[test]
    fn a_chat_is_fenced_at_what_is_known_and_the_preferences_never() {
        let mut fences = Fences::new(None);
        assert_eq!(fences.fence_of("c1"), Some(0), "nothing known: a new chat");
        fences.know("c1".into(), 7);
        assert_eq!(fences.fence_of("c1"), Some(7));
        fences.know("c1".into(), 5);
        assert_eq!(fences.fence_of("c1"), Some(5), "what the state was read at");
        assert_eq!(fences.fence_of(STREAM), None);
        fences.forget("c1");
        assert_eq!(fences.fence_of("c1"), Some(0));
    }
}
