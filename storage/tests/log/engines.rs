//! The engines the contract tests run on: sled in a temporary folder, and JetStream on a
//! `nats-server` this test starts on a free loopback port with its store in a temporary
//! folder. Without the `nats-server` binary the JetStream runs are skipped with the reason
//! printed, unless `WARDEN_REQUIRE_NATS=1` (CI), which fails them instead.

use std::path::Path;
use warden_storage::{EventLog, LogError, jetstream};

#[path = "../support/nats_server.rs"]
mod nats_server;
pub use nats_server::{NatsCluster, NatsServer};

/// Set to a server's URL, a writer run by a crash test writes to JetStream there (its folder
/// variable then only says that it is a writer).
pub const WRITER_NATS: &str = "WARDEN_STORAGE_WRITER_NATS";

/// Where a test's log is: a sled folder, or a JetStream server (and a folder for what the
/// test keeps beside it).
pub enum Place {
    Sled(tempfile::TempDir),
    JetStream(NatsServer, tempfile::TempDir),
}

impl Place {
    /// A fresh sled log's folder.
    pub fn sled() -> std::io::Result<Place> {
        Ok(Place::Sled(tempfile::tempdir()?))
    }

    /// A fresh JetStream server, or `None` when it is skipped.
    pub fn jetstream() -> std::io::Result<Option<Place>> {
        let Some(server) = NatsServer::start()? else {
            return Ok(None);
        };
        Ok(Some(Place::JetStream(server, tempfile::tempdir()?)))
    }

    /// Both engines (JetStream when it isn't skipped).
    pub fn all() -> std::io::Result<Vec<Place>> {
        Ok(std::iter::once(Place::sled()?)
            .chain(Place::jetstream()?)
            .collect())
    }

    /// The engine's name, for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Place::Sled(_) => "sled",
            Place::JetStream(..) => "jetstream",
        }
    }

    /// Opens the log there.
    pub fn open(&self) -> Result<EventLog, LogError> {
        match self {
            Place::Sled(dir) => EventLog::open(dir.path()),
            Place::JetStream(server, _) => EventLog::open_jetstream(&server.settings()),
        }
    }

    /// A folder of the test's own.
    pub fn dir(&self) -> &Path {
        match self {
            Place::Sled(dir) | Place::JetStream(_, dir) => dir.path(),
        }
    }

    /// The environment a writer process opens this log with: its folder variable, and the
    /// server's URL for JetStream.
    pub fn writer_env(&self, folder_var: &str) -> Vec<(String, String)> {
        let mut env = vec![(folder_var.to_string(), self.dir().display().to_string())];
        if let Place::JetStream(server, _) = self {
            env.push((WRITER_NATS.to_string(), server.url()));
        }
        env
    }
}

/// The log a writer process opens: JetStream when [`WRITER_NATS`] says where, else sled in
/// `dir`.
pub fn open_for_writer(dir: &Path) -> Result<EventLog, LogError> {
    match std::env::var(WRITER_NATS) {
        Ok(url) => EventLog::open_jetstream(&jetstream::Settings {
            url,
            ..jetstream::Settings::default()
        }),
        Err(_) => EventLog::open(dir),
    }
}
