//! The person's preferences on every node. Their records stay in the log (stream
//! `~preferences`), appended with whatever else their operation writes as one batch, and
//! every node folds them from there; what crosses between nodes is only a signal: the bucket
//! `<stream>-preferences` holds one key, `newest`, the log sequence of the newest preferences
//! record a node appended. Every node watches it, and folds the log again when it names a
//! record newer than what it folded. A node that dies between its append and its signal
//! sends none: [`Cluster::preferences_end`] reads the subject's last sequence in the log
//! itself, for a check every node runs now and then.

use super::{Cluster, ClusterError, STEP_TIMEOUT, bounded, leader_entry};
use async_nats::jetstream::{kv, stream};
use futures_util::StreamExt;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// The one key of the preferences' bucket.
const NEWEST: &str = "newest";

/// The signals of the preferences' bucket as one node sees them: the newest sequence named,
/// while its watch runs. Dropping it stops the watch.
#[derive(Debug)]
pub struct Signals {
    newest: watch::Receiver<u64>,
    task: JoinHandle<()>,
}

impl Drop for Signals {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Signals {
    /// Waits until a signal names a sequence newer than the last one seen, and answers it.
    /// `None` once the watch has stopped.
    pub async fn changed(&mut self) -> Option<u64> {
        self.newest.changed().await.ok()?;
        Some(*self.newest.borrow_and_update())
    }
}

impl Cluster {
    /// Tells every node that the log's newest preferences record is at `seq`.
    pub async fn signal_preferences(&self, seq: u64) -> Result<(), ClusterError> {
        bounded(
            "signalling the preferences",
            self.preferences.put(NEWEST, seq.to_string().into()),
        )
        .await
        .map(drop)
        .map_err(|e| self.preferences_failed(e))
    }

    /// Watches the signals, from the one the bucket holds now.
    pub async fn preferences_signals(&self) -> Result<Signals, ClusterError> {
        let mut watched = bounded("watching the preferences", self.preferences.watch(NEWEST))
            .await
            .map_err(|e| self.preferences_failed(e))?;
        let now = leader_entry(&self.preferences, NEWEST)
            .await
            .map_err(|e| self.preferences_failed(e))?
            .filter(|(_, _, put)| *put)
            .and_then(|(value, _, _)| String::from_utf8_lossy(&value).parse().ok())
            .unwrap_or(0);
        let (tell, newest) = watch::channel(now);
        let task = tokio::spawn(async move {
            while let Some(entry) = watched.next().await {
                let Ok(entry) = entry else { continue };
                if entry.operation != kv::Operation::Put {
                    continue;
                }
                let Ok(seq) = String::from_utf8_lossy(&entry.value).parse::<u64>() else {
                    continue;
                };
                tell.send_if_modified(|newest| {
                    let newer = seq > *newest;
                    *newest = (*newest).max(seq);
                    newer
                });
            }
        });
        Ok(Signals { newest, task })
    }

    /// The sequence of the newest preferences record in the log as the server holds it now
    /// (0: none), whoever appended it: the check that covers a signal never sent.
    pub async fn preferences_end(&self) -> Result<u64, ClusterError> {
        // The log's stream is the log's to make; here it is only read, once it is there.
        let events = self
            .events
            .get_or_try_init(|| async {
                bounded(
                    "opening the log's stream",
                    self.js.get_stream(&self.log_stream),
                )
                .await
            })
            .await
            .map_err(|e| self.preferences_failed(e))?;
        // The leader's, not a direct get: a replica behind would answer an older record,
        // and the node would fold late.
        let last = tokio::time::timeout(
            STEP_TIMEOUT,
            events.get_last_raw_message_by_subject(&self.preferences_subject),
        )
        .await
        .map_err(|_| {
            self.preferences_failed(format!(
                "reading the log's newest preferences record: no answer within {STEP_TIMEOUT:?}"
            ))
        })?;
        match last {
            Ok(message) => Ok(message.sequence),
            Err(e) if e.kind() == stream::LastRawMessageErrorKind::NoMessageFound => Ok(0),
            Err(e) => Err(self
                .preferences_failed(format!("reading the log's newest preferences record: {e}"))),
        }
    }
}
