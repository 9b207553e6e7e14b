//! What can go wrong with the event log: one error type whose messages name the folder or the
//! input at fault. The storage engine's own errors arrive as text, so no engine type leaks out.

/// Everything the event log can fail at. An unreadable record is not an error: replay skips it
/// and counts it (see [`crate::Skip`]). Clone, so that one read's failure can answer every
/// request that waited for it.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LogError {
    /// `check` was pointed at a folder that holds no event log.
    #[error(
        "no event log in `{path}`: the folder has no `db` file (a data folder holds its log in `log/`)"
    )]
    Missing { path: String },
    /// Another process (or another `EventLog` in this one) has the log open.
    #[error("the event log in `{path}` is in use by another process: only one may open it")]
    Locked { path: String },
    /// The folder could not be opened as an event log.
    #[error("the event log in `{path}` could not be opened: {cause}")]
    Open { path: String, cause: String },
    /// The log's files are damaged: what is wrong, and what the person can do.
    #[error(
        "the event log in `{path}` is damaged: {what}. Next: restore the folder from a copy, or move it aside and start a fresh log (warden makes one where there is none)"
    )]
    Damaged { path: String, what: String },
    /// Reading, writing or flushing failed.
    #[error("the event log in `{path}` failed: {cause}")]
    Store { path: String, cause: String },
    /// The log's engine failed and was dropped; it has not been opened again yet.
    #[error("the event log in `{path}` is closed after a failure, until it can be opened again")]
    Closed { path: String },
    /// A chat id too long for a key (the key holds its length in two bytes).
    #[error("the chat id `{chat}` is {len} bytes long: at most 65535 fit in a key")]
    ChatTooLong { chat: String, len: usize },
    /// A chat id too long for a NATS subject (JetStream's log).
    #[error("the chat id `{chat}` takes {len} bytes as a NATS subject's token: at most 1024 fit")]
    SubjectTooLong { chat: String, len: usize },
    /// A key in the log that is not a chat id and a sequence number.
    #[error("the event log in `{path}` holds a key that names no chat: `{key}`")]
    BadKey { path: String, key: String },
    /// A fenced append (`append_batch_fenced`, JetStream's `append_after`) refused: the chat
    /// holds a record or a takeover's marker past the end its writer knew, so another node
    /// wrote it or took it over since. Nothing of the append is ever seen (a group's parts
    /// already stored are aborted with it); the log stays open.
    #[error(
        "chat `{chat}` was written past sequence {expected} by another writer: this append is refused and nothing of it stored"
    )]
    Fenced { chat: String, expected: u64 },
    /// An event or a state could not be encoded.
    #[error("an event for chat `{chat}` could not be encoded: {cause}")]
    Encode { chat: String, cause: String },
}

impl LogError {
    /// A failure of the storage engine in the log at `path`.
    pub(crate) fn store(path: &str, error: &sled::Error) -> LogError {
        let cause = match error {
            // sled fails every write after its first I/O error with a copy of it, written
            // in Rust's debug form (`Os { code: 28, kind: StorageFull, … }`): said plainly.
            sled::Error::Io(io) if io.kind() == std::io::ErrorKind::StorageFull => {
                "No space left on device: the disk is full".to_string()
            }
            e => e.to_string(),
        };
        LogError::Store {
            path: path.to_string(),
            cause,
        }
    }

    /// A chat id for a message: the first 40 characters, then an ellipsis.
    pub(crate) fn too_long(chat: &str) -> LogError {
        LogError::ChatTooLong {
            chat: Self::shortened(chat),
            len: chat.len(),
        }
    }

    /// A chat id for a message: the first 40 characters, then an ellipsis.
    pub(crate) fn shortened(chat: &str) -> String {
        let shown: String = chat.chars().take(40).collect();
        if shown.len() < chat.len() {
            format!("{shown}…")
        } else {
            shown
        }
    }
}
