//! The engines the contract tests run on: sled in a temporary folder, and JetStream on a
//! `nats-server` this test starts on a free loopback port with its store in a temporary
//! folder. Without the `nats-server` binary the JetStream runs are skipped with the reason
//! printed, unless `WARDEN_REQUIRE_NATS=1` (CI), which fails them instead.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use warden_storage::{EventLog, LogError, jetstream};

/// Set to `1`, a JetStream test without `nats-server` fails instead of skipping.
pub const REQUIRE: &str = "WARDEN_REQUIRE_NATS";

/// Set to a server's URL, a writer run by a crash test writes to JetStream there (its folder
/// variable then only says that it is a writer).
pub const WRITER_NATS: &str = "WARDEN_STORAGE_WRITER_NATS";

/// The `nats-server` binary: `$PATH` first, then Debian's place for it.
fn binary() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").into_iter().flat_map(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("nats-server"))
            .collect::<Vec<_>>()
    });
    on_path
        .chain([PathBuf::from("/usr/sbin/nats-server")])
        .find(|p| p.is_file())
}

/// A `nats-server -js` of this test's, killed when dropped.
pub struct NatsServer {
    child: Option<Child>,
    binary: PathBuf,
    port: u16,
    store: tempfile::TempDir,
}

impl NatsServer {
    /// Starts one on a free loopback port, or says why not: `None` (skip, the reason
    /// printed) when the binary is absent and [`REQUIRE`] is not set.
    pub fn start() -> std::io::Result<Option<NatsServer>> {
        let Some(binary) = binary() else {
            assert!(
                std::env::var(REQUIRE).as_deref() != Ok("1"),
                "{REQUIRE}=1 and no nats-server on PATH or in /usr/sbin (apt-get install nats-server)"
            );
            eprintln!(
                "skipped: no nats-server on PATH or in /usr/sbin (apt-get install nats-server)"
            );
            return Ok(None);
        };
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let store = tempfile::tempdir()?;
        let mut server = NatsServer {
            child: None,
            binary,
            port,
            store,
        };
        server.run()?;
        Ok(Some(server))
    }

    /// Starts the process on the port and store, and waits until it takes connections.
    fn run(&mut self) -> std::io::Result<()> {
        let child = Command::new(&self.binary)
            .args([
                "-js",
                "-a",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-sd",
            ])
            .arg(self.store.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "nats-server did not listen in 20 s"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }

    /// `nats://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// The log's settings on this server, one replica, stream `warden`.
    pub fn settings(&self) -> jetstream::Settings {
        jetstream::Settings {
            url: self.url(),
            ..jetstream::Settings::default()
        }
    }

    /// SIGKILL, and wait for it to be gone.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Started again on the same port and store.
    pub fn restart(&mut self) -> std::io::Result<()> {
        self.kill();
        self.run()
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        self.kill();
    }
}

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
