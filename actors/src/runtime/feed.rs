//! The log's feed: every record, once it is durable, to whoever listens (`GET /v1/events`),
//! and the log read from a sequence number for whoever missed some (a client that
//! reconnects, or one too slow for the live feed).
//!
//! The log's writer publishes each group's records here after the flush that made them
//! durable, in the log's order, and only then answers the appends; so a listener never hears
//! of an event a crash could take back. Publishing and subscribing share one lock with the
//! newest durable sequence number, which makes "subscribe, then read the log up to that
//! number, then follow the live feed past it" miss nothing and repeat nothing:
//!
//! ```text
//!   writer: flush ─► lock { durable = newest; send each record }
//!   reader: lock { receiver, durable = D } ─► log (after, D] ─► live records past D
//! ```
//!
//! Records nobody waits for (a judged step that counted nothing) are not published: they
//! change no state, and a reader of the log finds them there.

use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::broadcast;
use warden::chat::Record;
use warden_storage::{EventLog, LogError, Skip};

/// How many records the live feed holds for its slowest listener; one that falls further
/// behind is told so ([`broadcast::error::RecvError::Lagged`]) and reads the log instead.
pub const FEED_CAPACITY: usize = 1_024;

/// One durable record, as the feed hands it on.
#[derive(Debug, Clone, PartialEq)]
pub struct Published {
    /// Its sequence number in the log: what `Last-Event-ID` names.
    pub seq: u64,
    /// The stream it belongs to: a chat, a task, or the preferences.
    pub stream: String,
    pub record: Record,
}

/// A read of the log: the records, and those this warden can't read (their sequence
/// numbers and why), left out.
pub type Read = (Vec<Published>, Vec<(u64, Skip)>);

/// The live feed and the log behind it.
pub struct Feed {
    log: Arc<EventLog>,
    live: Mutex<Live>,
}

struct Live {
    /// The newest sequence number published (or in the log when it was opened): every
    /// record up to it that anyone waited for is durable.
    durable: u64,
    sender: broadcast::Sender<Arc<Published>>,
}

impl Feed {
    /// The feed of a log just opened: what it holds is durable already.
    pub fn new(log: Arc<EventLog>) -> Result<Feed, LogError> {
        let durable = log
            .latest()?
            .into_iter()
            .map(|(_, seq)| seq)
            .max()
            .unwrap_or(0);
        let (sender, _) = broadcast::channel(FEED_CAPACITY);
        Ok(Feed {
            log,
            live: Mutex::new(Live { durable, sender }),
        })
    }

    /// Hands on records just made durable, in the log's order: `(stream, seq, record)`.
    /// Called by the log's writer after the flush, before it answers the appends (and by
    /// the stream's own tests, in this crate only).
    pub(crate) fn publish<'a>(
        &self,
        records: impl IntoIterator<Item = (&'a str, u64, &'a Record)>,
    ) {
        let mut live = self.live.lock().unwrap_or_else(PoisonError::into_inner);
        for (stream, seq, record) in records {
            // INVARIANT: `durable` moves before the record is sent, under the lock a
            // subscriber takes: a record past a subscriber's `durable` reaches its receiver.
            live.durable = live.durable.max(seq);
            // No listener is no error: the log keeps it.
            let _ = live.sender.send(Arc::new(Published {
                seq,
                stream: stream.to_string(),
                record: record.clone(),
            }));
        }
    }

    /// A receiver of every record published from now on, and the newest durable sequence
    /// number: read the log up to it ([`Feed::after`]), then take from the receiver only
    /// what is past it.
    pub fn subscribe(&self) -> (broadcast::Receiver<Arc<Published>>, u64) {
        let live = self.live.lock().unwrap_or_else(PoisonError::into_inner);
        (live.sender.subscribe(), live.durable)
    }

    /// The newest durable sequence number.
    pub fn durable(&self) -> u64 {
        self.live
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .durable
    }

    /// The records after `after` up to `upto` (a [`Feed::subscribe`]'s durable number),
    /// oldest first, at most `limit`; with the records this warden can't read left out
    /// and counted. Blocking: reads the log.
    pub fn after(&self, after: u64, upto: u64, limit: usize) -> Result<Read, LogError> {
        let mut read = Vec::new();
        let mut skipped = Vec::new();
        for (stream, entry) in self.log.after(after, limit)? {
            if entry.seq > upto {
                break;
            }
            match entry.record {
                Ok(record) => read.push(Published {
                    seq: entry.seq,
                    stream,
                    record,
                }),
                Err(skip) => skipped.push((entry.seq, skip)),
            }
        }
        Ok((read, skipped))
    }

    /// The newest sequence number in the whole log, other nodes' writes included (in a
    /// cluster, more than [`Feed::durable`] when another node wrote last). Blocking: asks
    /// the log.
    pub fn newest(&self) -> Result<u64, LogError> {
        self.log.newest()
    }

    /// Every stream in the log with its newest sequence number. Blocking: reads the log.
    pub fn streams(&self) -> Result<Vec<(String, u64)>, LogError> {
        self.log.latest()
    }
}
