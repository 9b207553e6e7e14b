//! The cluster tests' fixture: `nats-server -js` (one, or three routed to each other) and
//! several real `warden serve` nodes on loopback ports, each with its own data folder, the
//! same person's token, `[log] engine = "jetstream"` on one stream and `[cluster]` with the
//! node's id. Dropping it kills every process.

use crate::common::Place;
use crate::common::nats::{NatsCluster, NatsServer};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The person's token every node of a test shares (a forwarded request carries it as sent).
const TOKEN: &str = "5f0c6d1e2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5";

/// How long a node may take to print where it listens.
const PRINTS_WITHIN: Duration = Duration::from_secs(30);

/// One `warden serve` node.
pub struct Warden {
    /// Its node id, `n0`, `n1`…
    pub id: String,
    place: Place,
    child: Child,
    addr: String,
}

/// The servers and the nodes of one test.
/// Has the `ready` event come whole (its blank line; a chunk's end may follow)?
pub fn ready_whole(text: &str) -> bool {
    text.split_once("event: ready")
        .is_some_and(|(_, rest)| rest.contains("\n\n"))
}

/// A node's event stream, read raw as it comes.
pub struct EventStream {
    stream: std::net::TcpStream,
    read: Vec<u8>,
}

impl EventStream {
    /// Everything read so far once `done` says so of it, or when `within` has passed (the
    /// caller checks what came).
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool, within: Duration) -> String {
        use std::io::Read as _;
        let end = std::time::Instant::now() + within;
        let mut chunk = [0u8; 4096];
        while !done(&String::from_utf8_lossy(&self.read)) {
            let left = end.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                break;
            }
            self.stream
                .set_read_timeout(Some(left))
                .unwrap_or_else(|e| panic!("{e}"));
            match self.stream.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => self.read.extend_from_slice(&chunk[..n]),
            }
        }
        String::from_utf8_lossy(&self.read).into_owned()
    }
}

pub struct Nodes {
    pub nats: NatsCluster,
    pub wardens: Vec<Warden>,
    stream: String,
    replicas: usize,
}

impl Nodes {
    /// One `nats-server -js` and `n` nodes on the stream `stream`; `None` without the binary
    /// (the test skips, as every JetStream test does).
    pub fn start(stream: &str, n: usize, ttl_ms: u64) -> Option<Nodes> {
        let server = NatsServer::start().unwrap_or_else(|e| panic!("nats-server: {e}"))?;
        Some(Nodes::on(
            NatsCluster {
                servers: vec![server],
            },
            stream,
            n,
            ttl_ms,
            1,
        ))
    }

    /// Three `nats-server -js` routed to each other, replicas 3, and `n` nodes, the `k`th
    /// connected to server `k % 3`.
    pub fn start_replicated(stream: &str, n: usize, ttl_ms: u64) -> Option<Nodes> {
        let nats = NatsCluster::start(3).unwrap_or_else(|e| panic!("nats-server: {e}"))?;
        // The servers elect JetStream's meta leader a few seconds after they route to each
        // other: until then no stream can be made. Waited for by making the log's stream.
        let settings = warden_storage::jetstream::Settings {
            url: nats.servers[0].url(),
            stream: stream.to_string(),
            replicas: 3,
        };
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while let Err(e) = warden_storage::EventLog::open_jetstream(&settings) {
            assert!(
                std::time::Instant::now() < deadline,
                "the three servers hold no stream in 60 s: {e}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        Some(Nodes::on(nats, stream, n, ttl_ms, 3))
    }

    fn on(nats: NatsCluster, stream: &str, n: usize, ttl_ms: u64, replicas: usize) -> Nodes {
        let urls: Vec<String> = (0..n)
            .map(|k| nats.servers[k % nats.servers.len()].url())
            .collect();
        Nodes::with_urls(nats, stream, &urls, ttl_ms, replicas)
    }

    /// The nodes on `nats`, the `k`th with `[log] url = urls[k]`.
    pub fn with_urls(
        nats: NatsCluster,
        stream: &str,
        urls: &[String],
        ttl_ms: u64,
        replicas: usize,
    ) -> Nodes {
        let mut nodes = Nodes {
            nats,
            wardens: Vec::new(),
            stream: stream.to_string(),
            replicas,
        };
        for (k, url) in urls.iter().enumerate() {
            let config = format!(
                "[log]\nengine = \"jetstream\"\nurl = \"{url}\"\nstream = \"{stream}\"\nreplicas = {replicas}\n[cluster]\nnode = \"n{k}\"\nttl_ms = {ttl_ms}\n"
            );
            nodes.wardens.push(Warden::start(&format!("n{k}"), &config));
        }
        nodes
    }

    /// The work folder the steps are judged in (the first node's; a git repository).
    pub fn work(&self) -> String {
        self.wardens[0].place.work()
    }

    /// The person's token, the same on every node.
    pub fn token(&self) -> String {
        TOKEN.to_string()
    }

    /// The log's settings, on the first server.
    pub fn settings(&self) -> warden_storage::jetstream::Settings {
        warden_storage::jetstream::Settings {
            url: self.nats.servers[0].url(),
            stream: self.stream.clone(),
            replicas: self.replicas,
        }
    }

    /// The tail of every node's log, for a failure's message.
    pub fn logs(&self) -> String {
        self.wardens
            .iter()
            .map(|warden| {
                let text = warden.log_text();
                let lines: Vec<&str> = text.lines().collect();
                let tail = lines[lines.len().saturating_sub(40)..].join("\n");
                format!("--- node {}:\n{tail}", warden.id)
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Every node stopped with SIGTERM (each must exit 0: its log flushed, the cluster left).
    pub fn stop(&mut self) {
        for warden in self.wardens.drain(..) {
            warden.terminate();
        }
    }
}

impl Warden {
    fn start(id: &str, config: &str) -> Warden {
        let place = Place::new();
        let data = place.data();
        {
            use std::os::unix::fs::{DirBuilderExt as _, PermissionsExt as _};
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(&data)
                .unwrap_or_else(|e| panic!("the data folder: {e}"));
            let token = data.join("token");
            std::fs::write(&token, format!("{TOKEN}\n"))
                .and_then(|()| {
                    std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o600))
                })
                .unwrap_or_else(|e| panic!("the token: {e}"));
        }
        let config_path = place.dir.path().join("config.toml");
        std::fs::write(&config_path, config).unwrap_or_else(|e| panic!("the configuration: {e}"));
        let log = std::fs::File::create(place.dir.path().join("serve.log"))
            .unwrap_or_else(|e| panic!("the node's log: {e}"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_warden"))
            .args(["serve", "--listen", "127.0.0.1:0", "--data"])
            .arg(&data)
            .arg("--config")
            .arg(&config_path)
            .current_dir(place.dir.path())
            .env("HOME", place.home())
            .env("RUST_LOG", "info,warden_actors::serve::cluster=debug")
            .env_remove("WARDEN_DATA")
            .env_remove("WARDEN_CONFIG")
            .env_remove("XDG_CONFIG_HOME")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("spawn warden serve: {e}"));
        let line = crate::common::first_line(&mut child, PRINTS_WITHIN).unwrap_or_default();
        let Some(addr) = line
            .strip_prefix("warden: listening on http://")
            .and_then(|rest| rest.split(',').next())
        else {
            let _ = child.kill();
            let log =
                std::fs::read_to_string(place.dir.path().join("serve.log")).unwrap_or_default();
            panic!("node {id} did not start: {line:?}\n{log}");
        };
        Warden {
            id: id.to_string(),
            addr: addr.to_string(),
            place,
            child,
        }
    }

    /// The start of the node's event stream (`GET /v1/events` with `token`), read raw up to
    /// its first event: the answer's head and that event, as text.
    pub fn events_head(&self, token: &str) -> String {
        let mut stream = self.events(token, "");
        stream.read_until(ready_whole, Duration::from_secs(10))
    }

    /// The node's event stream (`GET /v1/events{query}` with `token`), opened.
    pub fn events(&self, token: &str, query: &str) -> EventStream {
        use std::io::Write as _;
        let mut stream =
            std::net::TcpStream::connect(&self.addr).unwrap_or_else(|e| panic!("{}: {e}", self.id));
        write!(
            stream,
            "GET /v1/events{query} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n",
            self.addr
        )
        .unwrap_or_else(|e| panic!("{e}"));
        EventStream {
            stream,
            read: Vec::new(),
        }
    }

    /// What the node logged on stderr so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(self.log_path()).unwrap_or_default()
    }

    fn log_path(&self) -> PathBuf {
        self.place.dir.path().join("serve.log")
    }

    /// One request: its status and its answer as JSON (`Null` when it is not JSON; status 0
    /// when nothing answered).
    pub fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let mut headers = Vec::new();
        let bearer;
        if let Some(token) = token {
            bearer = format!("Bearer {token}");
            headers.push(("Authorization", bearer.as_str()));
        }
        self.send(method, path, &headers, body)
    }

    /// [`Warden::call`] with more headers and no body.
    pub fn call_with(&self, method: &str, path: &str, headers: &[(&str, &str)]) -> (u16, Value) {
        self.send(method, path, headers, None)
    }

    fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&Value>,
    ) -> (u16, Value) {
        let base = format!("http://{}", self.addr);
        crate::common::send(&base, method, path, headers, body, Duration::from_secs(20))
    }

    /// A request that must answer 200; its JSON.
    pub fn ok(&self, method: &str, path: &str, token: Option<&str>, body: &Value) -> Value {
        let (status, answer) = self.call(method, path, token, Some(body));
        assert_eq!(
            status,
            200,
            "{method} {path} {body} on {}: {answer}\n{}",
            self.id,
            self.log_text()
        );
        answer
    }

    /// Opens `chat` in auto mode, alone (the person's token).
    pub fn open_auto(&self, chat: &str, token: &str) {
        self.ok(
            "POST",
            &format!("/v1/chats/{chat}"),
            Some(token),
            &json!({"mode": "auto", "company": "alone"}),
        );
    }

    /// The person says `text` in `chat` (their token).
    pub fn say(&self, chat: &str, token: &str, text: &str) {
        self.ok(
            "POST",
            &format!("/v1/chats/{chat}/events"),
            Some(token),
            &json!({"kind": "said", "text": text}),
        );
    }

    /// Sends the process `signal` (`STOP`: it stops where it is, its connections open, as in
    /// a long pause of the machine; `CONT`: it goes on from there).
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .unwrap_or_else(|e| panic!("kill -{signal}: {e}"));
        assert!(status.success(), "kill -{signal} failed");
    }

    /// SIGKILL, then reaped: nothing flushed, the cluster not left.
    pub fn kill_9(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM; it must exit 0.
    fn terminate(mut self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap_or_else(|e| panic!("kill -TERM: {e}"));
        assert!(status.success(), "kill -TERM failed");
        let status = self.child.wait().unwrap_or_else(|e| panic!("{e}"));
        assert!(
            status.success(),
            "node {} exits 0 on SIGTERM, not {status}\n{}",
            self.id,
            self.log_text()
        );
    }
}

impl Drop for Warden {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
