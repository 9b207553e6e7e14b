//! What the cluster layer reads of the log beside the buckets: a task's root from its opening
//! when the roots bucket has none (a task made before `[cluster]`), and the chains of nodes
//! gone aborted (`docs/cluster.md`).

use crate::runtime::Runtime;
use warden::chat::Event;
use warden_storage::cluster::Cluster;
use warden_storage::cluster::members::Member;

/// How many parents a task's opening chain may name before the walk gives up: deeper than
/// any agent nests tasks, and a cycle (which no warden writes) ends.
const DEPTH_MAX: usize = 64;

/// What the log says of an id's root.
#[derive(Debug, PartialEq, Eq)]
pub enum Lineage {
    /// A task, whose chain of openings ends at this chat (or at one the bucket roots).
    Root(String),
    /// A chat of its own: its opening names no parent.
    Own,
    /// Nothing of it in the log.
    Unrecorded,
}

/// The root of `id` as the log has it when the roots bucket names none: the opening of
/// `id` names its parent, the parent's opening its own, up to a chat with no parent (or one
/// the bucket roots).
pub async fn root_in_log(
    cluster: &Cluster,
    runtime: &Runtime,
    id: &str,
) -> Result<Lineage, String> {
    let mut at = id.to_string();
    for _ in 0..DEPTH_MAX {
        let first = runtime.first_record(&at).await.map_err(|e| e.to_string())?;
        let parent = match first.map(|record| record.event) {
            Some(Event::Opened {
                parent: Some(parent),
                ..
            }) => parent,
            found if at == id => {
                return Ok(if found.is_some() {
                    Lineage::Own
                } else {
                    Lineage::Unrecorded
                });
            }
            _ => return Ok(Lineage::Root(at)),
        };
        if let Some(root) = cluster.root_of(&parent).await.map_err(|e| e.to_string())? {
            return Ok(Lineage::Root(root));
        }
        at = parent;
    }
    Err(format!(
        "the task `{id}` names more than {DEPTH_MAX} parents in the log"
    ))
}

/// Aborts what the nodes not in `member`'s live set left open on their chains, logging what
/// came of it: a failure is tried again at the next change of the live set. Not while the
/// member is not standing: its live set may be stale, and a live node's group in flight
/// would fail for it (safely, but for nothing).
pub async fn abort_departed(runtime: &Runtime, member: &Member) {
    if !member.is_standing() {
        return;
    }
    match runtime
        .abort_departed(member.live().into_keys().collect())
        .await
    {
        Ok(aborted) if aborted.is_empty() => {}
        Ok(aborted) => {
            tracing::info!(nodes = ?aborted, "the chains of nodes gone aborted: their open groups never become whole")
        }
        Err(e) => {
            tracing::warn!(error = %e, "the chains of nodes gone could not be aborted; tried again when the live set changes")
        }
    }
}
