//! One node a chat at a time: the chat's lease is an entry of the `<stream>-leases` bucket,
//! key the chat's token, value the id of the node that serves it. Its revision (the bucket
//! stream's sequence, increasing over every lease) is the fencing token.
//!
//! - **take**: `create` when the chat has no lease (refused if another node made one
//!   meanwhile); when it has one whose node is not in the taker's live set, `update` with that
//!   entry's revision (refused if anyone wrote it meanwhile). A lease of a live node is
//!   [`ClusterError::Held`].
//! - **renew**: `update` with the last revision this node holds; refused when the lease was
//!   taken over, [`ClusterError::Lost`]. A lease has no time of its own: it holds while its
//!   node is in the live set ([`super::members`]), whose heartbeat is the renewal that counts.
//! - **release**: delete with the last revision.
//!
//! The lease says who *should* write; it does not stop a node that was only slow (paused
//! past its time to live, its lease taken) from writing what it had in hand. That is the log's
//! fence: [`crate::jetstream::JetStreamLog::append_after`], which the server refuses when the
//! chat's subject has moved past what the writer knew (`docs/cluster.md`).

use super::{Cluster, ClusterError, bounded, key_of, leader_entry};

/// A chat's lease as its holder knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    /// The chat.
    pub chat: String,
    /// The node that holds it.
    pub node: String,
    /// The fencing token: the entry's revision. A later holder's is always greater.
    pub token: u64,
}

impl Cluster {
    /// Who holds `chat`'s lease now, if anyone, as the bucket's leader has it (a replica
    /// behind may hold an older holder).
    pub async fn holder(&self, chat: &str) -> Result<Option<Lease>, ClusterError> {
        let entry = leader_entry(&self.leases, &key_of(chat))
            .await
            .map_err(|e| self.leases_failed(e))?;
        Ok(entry.and_then(|(value, revision, put)| {
            put.then(|| Lease {
                chat: chat.to_string(),
                node: String::from_utf8_lossy(&value).into_owned(),
                token: revision,
            })
        }))
    }

    /// Whether `chat`'s lease was held and released (its entry a deletion): a node that
    /// takes it then takes over what its last holder wrote.
    pub async fn was_released(&self, chat: &str) -> Result<bool, ClusterError> {
        let entry = leader_entry(&self.leases, &key_of(chat))
            .await
            .map_err(|e| self.leases_failed(e))?;
        Ok(entry.is_some_and(|(_, _, put)| !put))
    }

    /// Takes `chat`'s lease for `node`: made when there is none, taken over when its holder is
    /// not `alive`, kept (same token) when it is `node`'s already.
    pub async fn take(
        &self,
        chat: &str,
        node: &str,
        alive: impl Fn(&str) -> bool,
    ) -> Result<Lease, ClusterError> {
        let key = key_of(chat);
        let lease = |token| Lease {
            chat: chat.to_string(),
            node: node.to_string(),
            token,
        };
        match self.holder(chat).await? {
            None => {
                match bounded(
                    "making a lease",
                    self.leases.create(&key, node.to_string().into()),
                )
                .await
                {
                    Ok(token) => Ok(lease(token)),
                    // Made by another node meanwhile (or a failure): say who holds it now.
                    Err(cause) => Err(self.refused(chat, cause).await),
                }
            }
            Some(held) if held.node == node => Ok(held),
            Some(held) if alive(&held.node) => Err(ClusterError::Held {
                chat: chat.to_string(),
                owner: held.node,
                token: held.token,
            }),
            Some(held) => {
                match bounded(
                    "taking a lease over",
                    self.leases
                        .update(&key, node.to_string().into(), held.token),
                )
                .await
                {
                    Ok(token) => Ok(lease(token)),
                    Err(cause) => Err(self.refused(chat, cause).await),
                }
            }
        }
    }

    /// Renews `lease`: a new token when it is still its node's, [`ClusterError::Lost`] when
    /// it was taken over or released meanwhile.
    pub async fn renew(&self, lease: &Lease) -> Result<Lease, ClusterError> {
        match bounded(
            "renewing a lease",
            self.leases
                .update(key_of(&lease.chat), lease.node.clone().into(), lease.token),
        )
        .await
        {
            Ok(token) => Ok(Lease {
                token,
                ..lease.clone()
            }),
            Err(cause) => match self.holder(&lease.chat).await? {
                Some(held) if held.token == lease.token => Err(self.leases_failed(cause)),
                _ => Err(ClusterError::Lost {
                    chat: lease.chat.clone(),
                    node: lease.node.clone(),
                }),
            },
        }
    }

    /// Gives `lease` up, unless it was taken over meanwhile ([`ClusterError::Lost`]).
    pub async fn release(&self, lease: &Lease) -> Result<(), ClusterError> {
        match bounded(
            "releasing a lease",
            self.leases
                .delete_expect_revision(key_of(&lease.chat), Some(lease.token)),
        )
        .await
        {
            Ok(()) => Ok(()),
            Err(cause) => match self.holder(&lease.chat).await? {
                Some(held) if held.token == lease.token => Err(self.leases_failed(cause)),
                _ => Err(ClusterError::Lost {
                    chat: lease.chat.clone(),
                    node: lease.node.clone(),
                }),
            },
        }
    }

    /// Why a write of `chat`'s lease was refused: another node's lease when there is one now,
    /// the store's failure otherwise.
    async fn refused(&self, chat: &str, cause: String) -> ClusterError {
        match self.holder(chat).await {
            Ok(Some(held)) => ClusterError::Held {
                chat: chat.to_string(),
                owner: held.node,
                token: held.token,
            },
            Ok(None) => self.leases_failed(cause),
            Err(e) => e,
        }
    }
}
