//! A `nats-server -js` for the tests that run warden on JetStream: started on a free loopback
//! port with its store in a temporary folder, killed when dropped. Without the binary such a
//! test skips with the reason printed, unless `WARDEN_REQUIRE_NATS=1` (CI), which fails it.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Set to `1`, a JetStream test without `nats-server` fails instead of skipping.
pub const REQUIRE: &str = "WARDEN_REQUIRE_NATS";

/// A running server of the test's.
pub struct NatsServer {
    child: Option<Child>,
    binary: PathBuf,
    port: u16,
    store: tempfile::TempDir,
}

impl NatsServer {
    /// Starts one, or `None` (the reason printed) when the binary is absent and [`REQUIRE`]
    /// is not set.
    pub fn start() -> Option<NatsServer> {
        let binary = std::env::var_os("PATH")
            .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .chain([PathBuf::from("/usr/sbin")])
            .map(|dir| dir.join("nats-server"))
            .find(|p| p.is_file());
        let Some(binary) = binary else {
            assert!(
                std::env::var(REQUIRE).as_deref() != Ok("1"),
                "{REQUIRE}=1 and no nats-server on PATH or in /usr/sbin (apt-get install nats-server)"
            );
            eprintln!(
                "skipped: no nats-server on PATH or in /usr/sbin (apt-get install nats-server)"
            );
            return None;
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap_or_else(|e| panic!("a free port: {e}"));
        let store = super::tempdir();
        let mut server = NatsServer {
            child: None,
            binary,
            port,
            store,
        };
        server.run();
        Some(server)
    }

    /// Starts the process on the port and store, and waits until it takes connections.
    fn run(&mut self) {
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
            .spawn()
            .unwrap_or_else(|e| panic!("starting nats-server: {e}"));
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "nats-server did not listen in 20 s"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGKILL, and reaped.
    pub fn kill_9(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Started again on the same port and store.
    pub fn restart(&mut self) {
        self.kill_9();
        self.run();
    }

    /// `nats://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// The `[log]` table of a configuration whose log is the stream `stream` on this server.
    pub fn log_table(&self, stream: &str) -> String {
        format!(
            "[log]\nengine = \"jetstream\"\nurl = \"{}\"\nstream = \"{stream}\"\n",
            self.url()
        )
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        self.kill_9();
    }
}
