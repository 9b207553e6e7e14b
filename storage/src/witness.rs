//! The witness: how many events the log held at its last flush, in a small file of its own
//! beside sled's. sled reads a damaged file (cut short, a block overwritten) back to the last
//! point it can read, as if the machine had gone back in time, and anything kept inside its
//! files goes back with it; this file doesn't. A log that holds fewer events than its
//! witness says has lost them, and is refused as damaged instead of served as if whole.
//!
//! Written after each flush (a temporary file renamed over it, not synced: after a crash it
//! may be behind the log, never ahead). A failure to write it is not an error of the flush:
//! the events are durable; only the check is weaker until the next flush writes it.

use std::path::Path;

/// The witness's file name in the log's folder.
pub const FILE: &str = "witness";

/// The count the witness holds, if it is there and reads.
pub fn read(dir: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(dir.join(FILE)).ok()?;
    text.trim().parse().ok()
}

/// Keeps `count` as the witness.
pub fn write(dir: &Path, count: u64) {
    let temporary = dir.join(format!("{FILE}.new"));
    if std::fs::write(&temporary, format!("{count}\n")).is_ok() {
        let _ = std::fs::rename(&temporary, dir.join(FILE));
    }
}
