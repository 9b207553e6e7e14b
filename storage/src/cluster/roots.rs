//! Where a task is served: with the chat at its root (a task of a task of `c1` is `c1`'s), so
//! that one operation (a task made, a task asking its parent's mode) never spans two nodes.
//! The bucket `<stream>-roots` keeps `task → root chat`, written once by the node that makes
//! the task, before the task's first record: a node that never read the task's records (they
//! may be past what its log shows it, `docs/cluster.md`) still places the task right. An id
//! with no entry is a chat of its own, or a task made before the cluster was: `warden serve`
//! then reads its root from its opening in the log (`actors/src/serve/lineage.rs`).

use super::{Cluster, ClusterError, bounded, key_of, leader_entry};

impl Cluster {
    /// The root chat the bucket names for `id`, if it names one, as the bucket's leader holds
    /// it: a replica behind would place a task by its own id, apart from its chat.
    pub async fn root_of(&self, id: &str) -> Result<Option<String>, ClusterError> {
        let entry = leader_entry(&self.roots, &key_of(id))
            .await
            .map_err(|e| self.roots_failed(e))?;
        Ok(entry
            .filter(|(_, _, put)| *put)
            .map(|(value, _, _)| String::from_utf8_lossy(&value).into_owned()))
    }

    /// Writes `task → root`, once: kept when it names `root` already,
    /// [`ClusterError::Rooted`] when it names another chat (the id is another chat's task).
    pub async fn set_root(&self, task: &str, root: &str) -> Result<(), ClusterError> {
        let created = bounded(
            "writing a task's root",
            self.roots.create(key_of(task), root.to_string().into()),
        )
        .await;
        if created.is_ok() {
            return Ok(());
        }
        match self.root_of(task).await? {
            Some(held) if held == root => Ok(()),
            Some(held) => Err(ClusterError::Rooted {
                task: task.to_string(),
                root: held,
            }),
            None => Err(self.roots_failed(created.err().unwrap_or_default())),
        }
    }
}
