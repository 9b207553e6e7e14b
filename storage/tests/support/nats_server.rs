//! A `nats-server -js` for the tests that run on JetStream, the storage crate's and the
//! actors' alike (each includes this file): started on a free loopback port with its store in
//! a temporary folder, killed when dropped. Without the binary such a test skips with the
//! reason printed, unless `WARDEN_REQUIRE_NATS=1` (CI), which fails it.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use warden_storage::jetstream;

/// Set to `1`, a JetStream test without `nats-server` fails instead of skipping.
pub const REQUIRE: &str = "WARDEN_REQUIRE_NATS";

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
    /// More arguments: a name and the cluster's routes, for a server of a [`NatsCluster`].
    extra: Vec<String>,
}

impl NatsServer {
    /// Starts one on a free loopback port, or says why not: `None` (skip, the reason
    /// printed) when the binary is absent and [`REQUIRE`] is not set.
    pub fn start() -> std::io::Result<Option<NatsServer>> {
        let Some(binary) = found()? else {
            return Ok(None);
        };
        let port = free_port()?;
        let mut server = NatsServer {
            child: None,
            binary,
            port,
            store: tempfile::tempdir()?,
            extra: Vec::new(),
        };
        server.run()?;
        Ok(Some(server))
    }
}

/// A free loopback port.
fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// The binary, or `None` (skip, the reason printed) when it is absent and [`REQUIRE`] is not
/// set.
fn found() -> std::io::Result<Option<PathBuf>> {
    {
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
        Ok(Some(binary))
    }
}

/// Three (or more) `nats-server -js` with cluster routes between them, each with its store
/// in a temporary folder, killed when dropped: JetStream with replicas over them.
#[allow(
    dead_code,
    reason = "the actors' tests use it, the storage crate's don't"
)]
pub struct NatsCluster {
    pub servers: Vec<NatsServer>,
}

#[allow(
    dead_code,
    reason = "the actors' tests use it, the storage crate's don't"
)]
impl NatsCluster {
    /// Starts `n` servers on free loopback ports, routed to each other: `None` as
    /// [`NatsServer::start`].
    pub fn start(n: usize) -> std::io::Result<Option<NatsCluster>> {
        let Some(binary) = found()? else {
            return Ok(None);
        };
        // Every port picked while the others are still held, so no two are the same (a
        // port let go is often the next one given: two servers on one port made a cluster
        // of two, where three replicas find no place).
        let held = (0..2 * n)
            .map(|_| TcpListener::bind("127.0.0.1:0"))
            .collect::<std::io::Result<Vec<_>>>()?;
        let picked = held
            .iter()
            .map(|listener| Ok(listener.local_addr()?.port()))
            .collect::<std::io::Result<Vec<u16>>>()?;
        drop(held);
        let ports: Vec<(u16, u16)> = picked
            .chunks(2)
            .filter_map(|pair| match pair {
                [port, route] => Some((*port, *route)),
                _ => None,
            })
            .collect();
        let routes = ports
            .iter()
            .map(|(_, route)| format!("nats://127.0.0.1:{route}"))
            .collect::<Vec<_>>()
            .join(",");
        let mut servers = Vec::new();
        for (at, (port, route)) in ports.iter().enumerate() {
            let mut server = NatsServer {
                child: None,
                binary: binary.clone(),
                port: *port,
                store: tempfile::tempdir()?,
                extra: vec![
                    "-n".into(),
                    format!("n{at}"),
                    "--cluster_name".into(),
                    "warden".into(),
                    "--cluster".into(),
                    format!("nats://127.0.0.1:{route}"),
                    "--routes".into(),
                    routes.clone(),
                ],
            };
            server.run()?;
            servers.push(server);
        }
        Ok(Some(NatsCluster { servers }))
    }

    /// The index of the server that leads `stream` now, asked of server `via` in NATS's own
    /// protocol (`$JS.API.STREAM.INFO.<stream>`, whose answer names the leader `n<index>`):
    /// `None` when no answer names one within a second.
    pub fn leader(&self, stream: &str, via: usize) -> Option<usize> {
        use std::io::{Read, Write};
        let server = self.servers.get(via)?;
        let mut conn = std::net::TcpStream::connect(("127.0.0.1", server.port)).ok()?;
        conn.set_read_timeout(Some(Duration::from_millis(200)))
            .ok()?;
        let ask = format!(
            "CONNECT {{\"verbose\":false}}\r\nSUB _INBOX.leader 1\r\nPUB $JS.API.STREAM.INFO.{stream} _INBOX.leader 0\r\n\r\n"
        );
        conn.write_all(ask.as_bytes()).ok()?;
        let deadline = Instant::now() + Duration::from_secs(1);
        let mut heard = String::new();
        let mut buf = [0u8; 16 * 1024];
        let key = "\"leader\":\"n";
        while Instant::now() < deadline {
            if let Ok(n @ 1..) = conn.read(&mut buf) {
                heard.push_str(&String::from_utf8_lossy(buf.get(..n)?));
            }
            if let Some(at) = heard.find(key) {
                let digits: String = heard
                    .get(at + key.len()..)?
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                return digits.parse().ok();
            }
        }
        None
    }
}

impl NatsServer {
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
            .args(&self.extra)
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
    #[allow(
        dead_code,
        reason = "the storage crate's tests use it, the actors' don't"
    )]
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

impl NatsServer {
    /// The `[log]` table of a warden configuration whose log is the stream `stream` here.
    #[allow(
        dead_code,
        reason = "the actors' tests use it, the storage crate's don't"
    )]
    pub fn log_table(&self, stream: &str) -> String {
        format!(
            "[log]\nengine = \"jetstream\"\nurl = \"{}\"\nstream = \"{stream}\"\n",
            self.url()
        )
    }
}
