//! The one place the log's writer writes a group: where, in a cluster, a node's writes of a
//! chat are to be fenced, so that a node that was only slow (paused past its time to live,
//! its chats taken over) cannot write after another took them (`docs/cluster.md`).
//!
//! Today this is the plain group append. What stands between two nodes writing one chat is
//! the lease: a node brings a chat into memory only under its root's lease (the supervisor's
//! gate), lets it go (its actor drained, so nothing more of it is written) before it releases
//! the lease, and stops judging once it is not standing, a third of the time to live before
//! any other node can take its chats. What it does not cover is a node paused *between* that
//! check and its write: the log's fence does, and `JetStreamLog::append_after` is one record
//! where a group here is many chats' records. The storage work on fenced groups (a fence per
//! chat in a group, cut groups a node's own) is meant to be called here, with each chat's last
//! sequence as its actor knows it, and nowhere else.

use warden::chat::Record;
use warden_storage::{EventLog, LogError};

/// Writes a group of records, whole or absent, and answers their sequence numbers.
pub(crate) fn append(log: &EventLog, items: &[(&str, &Record)]) -> Result<Vec<u64>, LogError> {
    log.append_batch(items)
}
