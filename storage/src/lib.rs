//! warden's event log on sled. One [`EventLog`] type owns sled; no other code sees a sled
//! type. Keys are big-endian sequence numbers, so byte order is time order; values are
//! versioned records. The runtime issue builds chat, task and watch events on top of this.

use serde::{Serialize, de::DeserializeOwned};
use std::path::Path;

/// The version written in front of every record; a reader skips versions it doesn't know.
pub const RECORD_VERSION: u8 = 1;

/// What can go wrong with the log.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("the event log at `{path}` could not be opened: {source}")]
    Open { path: String, source: sled::Error },
    #[error("the event log failed: {0}")]
    Sled(#[from] sled::Error),
    #[error("an event could not be encoded: {0}")]
    Encode(postcard::Error),
    #[error("the event at sequence {seq} could not be read: {reason}")]
    Decode { seq: u64, reason: String },
}

/// An append-only log of events, durable once [`EventLog::append`] returns.
pub struct EventLog {
    db: sled::Db,
    events: sled::Tree,
}

impl EventLog {
    /// Opens (or creates) the log in a folder.
    pub fn open(path: &Path) -> Result<EventLog, LogError> {
        let db = sled::open(path).map_err(|source| LogError::Open {
            path: path.display().to_string(),
            source,
        })?;
        let events = db.open_tree("events")?;
        Ok(EventLog { db, events })
    }

    /// Appends one event and flushes it to disk before returning its sequence number: an
    /// event whose append returned survives a crash.
    pub fn append<E: Serialize>(&self, event: &E) -> Result<u64, LogError> {
        let mut bytes = vec![RECORD_VERSION];
        bytes.extend(postcard::to_stdvec(event).map_err(LogError::Encode)?);
        let seq = self.db.generate_id()?;
        self.events.insert(seq.to_be_bytes(), bytes)?;
        self.events.flush()?;
        Ok(seq)
    }

    /// Every event in order, as `(sequence, event)`.
    pub fn replay<E: DeserializeOwned>(
        &self,
    ) -> impl Iterator<Item = Result<(u64, E), LogError>> + '_ {
        self.events.iter().map(|entry| {
            let (key, value) = entry?;
            let seq = key
                .as_ref()
                .try_into()
                .map(u64::from_be_bytes)
                .unwrap_or(u64::MAX);
            match value.split_first() {
                Some((&RECORD_VERSION, body)) => postcard::from_bytes(body)
                    .map(|event| (seq, event))
                    .map_err(|e| LogError::Decode {
                        seq,
                        reason: e.to_string(),
                    }),
                Some((version, _)) => Err(LogError::Decode {
                    seq,
                    reason: format!("unknown record version {version}"),
                }),
                None => Err(LogError::Decode {
                    seq,
                    reason: "empty record".to_string(),
                }),
            }
        })
    }

    /// How many events the log holds.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    enum Event {
        Said { chat: String, text: String },
        Read { chat: String, source: String },
    }

    #[test]
    fn events_come_back_in_order_after_reopening() -> Result<(), LogError> {
        let dir = tempfile::tempdir().map_err(|e| LogError::Decode {
            seq: 0,
            reason: e.to_string(),
        })?;
        let events = vec![
            Event::Said {
                chat: "c1".into(),
                text: "push it".into(),
            },
            Event::Read {
                chat: "c1".into(),
                source: "a web page".into(),
            },
        ];
        {
            let log = EventLog::open(dir.path())?;
            for event in &events {
                log.append(event)?;
            }
        }
        let log = EventLog::open(dir.path())?;
        let back: Vec<Event> = log
            .replay::<Event>()
            .map(|r| r.map(|(_, e)| e))
            .collect::<Result<_, _>>()?;
        assert_eq!(back, events);
        assert_eq!(log.len(), 2);
        Ok(())
    }
}
