//! The hook's way to the daemon: where it listens (`WARDEN_URL`), the person's token
//! (`DATA/token`), starting `warden serve` when nothing answers, and one JSON request at a
//! time, all before one deadline.
//!
//! The requests go through `ureq` (the binary links it for the second look already): plain
//! HTTP to a loopback address, no TLS, every request cut to what is left of the deadline.

use super::Failure;
use serde_json::Value;
use std::io;
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// Where the daemon listens when `WARDEN_URL` is not set.
pub const DEFAULT_URL: &str = "http://127.0.0.1:7411";

/// The most of an answer read; the daemon's answers are a few KiB.
const MAX_ANSWER: u64 = 4 << 20;

/// How often the hook tries again while a daemon it started comes up.
const RETRY_EVERY: Duration = Duration::from_millis(20);

/// A start attempted this recently (by this hook or a sibling run at the same moment) is not
/// attempted again: the hooks of parallel tool calls wait for the same daemon.
const START_GUARD: Duration = Duration::from_secs(5);

/// What to run when no daemon answers.
#[derive(Debug, Clone)]
pub enum Autostart {
    /// `WARDEN_NO_AUTOSTART=1`: report that nothing answers.
    Off,
    /// Run this program with `serve --data DATA --listen ADDR`, detached.
    Run(PathBuf),
}

/// One daemon, reached before a deadline.
pub struct Daemon {
    /// `WARDEN_URL` as given, for messages.
    pub url: String,
    /// `host:port`, for the `Host` header and `--listen`.
    authority: String,
    /// A path prefix from `WARDEN_URL` (usually empty).
    base: String,
    addrs: Vec<SocketAddr>,
    /// The address that answered last (the first one until one is seen to answer).
    live: SocketAddr,
    agent: ureq::Agent,
    data: PathBuf,
    autostart: Autostart,
    started: bool,
    /// The daemon this hook started, watched so that one that exits at once is reported
    /// at once rather than waited for.
    child: Option<Child>,
    token: Option<String>,
    pub deadline: Instant,
}

/// An answer's status and its body as JSON (`null` when empty).
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub body: Value,
}

impl Reply {
    /// The body of a 2xx answer; any other status is a failure naming the daemon's error.
    pub fn ok(self) -> Result<Value, Failure> {
        if (200..300).contains(&self.status) {
            Ok(self.body)
        } else {
            let message = self
                .body
                .get("error")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| "no reason given".to_string());
            Err(Failure::Status {
                status: self.status,
                message,
            })
        }
    }
}

impl Daemon {
    /// The daemon `url` names, its data folder, what to start if it's down, and the deadline.
    pub fn new(
        url: &str,
        data: PathBuf,
        autostart: Autostart,
        deadline: Instant,
    ) -> Result<Daemon, Failure> {
        let bad = || Failure::Url(url.to_string());
        let rest = url
            .get(..7)
            .filter(|scheme| scheme.eq_ignore_ascii_case("http://"))
            .and_then(|_| url.get(7..))
            .ok_or_else(bad)?;
        let (authority, base) = match rest.find('/') {
            Some(at) => (
                rest.get(..at).unwrap_or_default(),
                rest.get(at..).unwrap_or_default().trim_end_matches('/'),
            ),
            None => (rest, ""),
        };
        if authority.is_empty() || authority.contains('@') {
            return Err(bad());
        }
        let with_port = if authority.ends_with(']') || !authority.contains(':') {
            format!("{authority}:80")
        } else {
            authority.to_string()
        };
        let addrs: Vec<SocketAddr> = with_port
            .to_socket_addrs()
            .map_err(|_| bad())?
            .filter(|addr| addr.ip().is_loopback())
            .collect();
        let Some(&live) = addrs.first() else {
            return Err(bad());
        };
        let agent = ureq::Agent::config_builder()
            // A status is an answer (its body names the daemon's error), not a failure.
            .http_status_as_error(false)
            .max_idle_connections(1)
            .user_agent("warden-hook")
            .build()
            .new_agent();
        Ok(Daemon {
            url: url.to_string(),
            authority: with_port,
            base: base.to_string(),
            addrs,
            live,
            agent,
            data,
            autostart,
            started: false,
            child: None,
            token: None,
            deadline,
        })
    }

    /// The person's token, read once from `DATA/token`. Read only once a daemon answers: on a
    /// fresh data folder, the daemon this hook (or a sibling) started is what makes it, so a
    /// read that fails then is tried again until the deadline.
    fn token(&mut self) -> Result<String, Failure> {
        loop {
            match self.read_token() {
                Ok(token) => return Ok(token),
                Err(_) if self.started && Instant::now() + RETRY_EVERY < self.deadline => {
                    std::thread::sleep(RETRY_EVERY);
                }
                Err(failure) => return Err(failure),
            }
        }
    }

    /// Whether the person's token can be read now (without waiting for a daemon to make it).
    pub fn has_token(&mut self) -> bool {
        self.read_token().is_ok()
    }

    fn read_token(&mut self) -> Result<String, Failure> {
        if let Some(token) = &self.token {
            return Ok(token.clone());
        }
        let path = self.data.join("token");
        let token = std::fs::read_to_string(&path)
            .map_err(|e| Failure::Token {
                path: path.display().to_string(),
                reason: e.to_string(),
            })?
            .trim()
            .to_string();
        if token.is_empty() || token.chars().any(|c| !c.is_ascii_graphic()) {
            return Err(Failure::Token {
                path: path.display().to_string(),
                reason: "it is empty or not one line of text".to_string(),
            });
        }
        self.token = Some(token.clone());
        Ok(token)
    }

    /// Sends one request (with the token when `authorized`) and reads its answer as JSON.
    pub fn send(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        authorized: bool,
    ) -> Result<Reply, Failure> {
        // On a fresh data folder the daemon (this hook's or a sibling's) makes the token: a
        // token not there yet is read once something answers.
        let token = match authorized.then(|| self.read_token()) {
            None => None,
            Some(Ok(token)) => Some(token),
            Some(Err(_)) => {
                self.wait_up()?;
                Some(self.token()?)
            }
        };
        let body = body.map(Value::to_string);
        let sent = self.exchange(method, path, token.as_deref(), body.as_deref());
        let response = match sent {
            // Nothing listens: start the daemon (once) and wait for it, then send again.
            Err(Sent::Refused(_)) => {
                self.wait_up()?;
                self.exchange(method, path, token.as_deref(), body.as_deref())
            }
            other => other,
        }
        .map_err(|sent| match sent {
            Sent::Timeout => Failure::Timeout,
            Sent::Refused(why) | Sent::Failed(why) => Failure::Http(why),
        })?;
        let (status, bytes) = response;
        let body = if bytes.iter().all(u8::is_ascii_whitespace) {
            Value::Null
        } else {
            serde_json::from_slice(&bytes)
                .map_err(|e| Failure::Unreadable(format!("the body is not JSON ({e})")))?
        };
        Ok(Reply { status, body })
    }

    /// One request to the address that answers, cut to what is left of the deadline: its
    /// status and body.
    fn exchange(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> Result<(u16, Vec<u8>), Sent> {
        let left = remaining(self.deadline).ok_or(Sent::Timeout)?;
        let mut request = ureq::http::Request::builder()
            .method(method)
            .uri(format!("http://{}{}{path}", self.live, self.base))
            .header("Accept", "application/json");
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        if body.is_some() {
            request = request.header("Content-Type", "application/json");
        }
        let request = request
            .body(body.unwrap_or_default().to_string())
            .map_err(|e| Sent::Failed(e.to_string()))?;
        let request = self
            .agent
            .configure_request(request)
            .timeout_global(Some(left))
            .build();
        let mut response = self.agent.run(request).map_err(Sent::from)?;
        let status = response.status().as_u16();
        let bytes = response
            .body_mut()
            .with_config()
            .limit(MAX_ANSWER)
            .read_to_vec()
            .map_err(Sent::from)?;
        Ok((status, bytes))
    }

    /// Waits until something accepts a connection; when nothing does, starts the daemon
    /// (once) and tries again until the deadline. The address that answered is used after.
    fn wait_up(&mut self) -> Result<(), Failure> {
        loop {
            let mut last = None;
            for addr in &self.addrs {
                match probe(*addr, self.deadline) {
                    Ok(()) => {
                        self.live = *addr;
                        return Ok(());
                    }
                    Err(Sent::Timeout) if self.started => {
                        return Err(self.not_up("the deadline passed"));
                    }
                    Err(Sent::Timeout) => return Err(Failure::Timeout),
                    Err(Sent::Refused(why) | Sent::Failed(why)) => last = Some(why),
                }
            }
            let why = last.unwrap_or_default();
            match &self.autostart {
                Autostart::Off => {
                    return Err(Failure::Unreachable {
                        url: self.url.clone(),
                        why: format!("{why}; WARDEN_NO_AUTOSTART is set"),
                    });
                }
                Autostart::Run(program) if !self.started => {
                    let program = program.clone();
                    self.started = true;
                    match self.start(&program) {
                        Ok(child) => self.child = child,
                        Err(e) => {
                            return Err(Failure::Unreachable {
                                url: self.url.clone(),
                                why: format!("{why}; starting `warden serve` failed: {e}"),
                            });
                        }
                    }
                }
                Autostart::Run(_) => {}
            }
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten())
            {
                return Err(Failure::Unreachable {
                    url: self.url.clone(),
                    why: format!(
                        "{why}; the `warden serve` it started exited at once ({status}), see {}",
                        self.data.join("serve.log").display()
                    ),
                });
            }
            if Instant::now() + RETRY_EVERY >= self.deadline {
                return Err(self.not_up(&why));
            }
            std::thread::sleep(RETRY_EVERY);
        }
    }

    /// Nothing answered in time after a daemon was started.
    fn not_up(&self, why: &str) -> Failure {
        Failure::Unreachable {
            url: self.url.clone(),
            why: format!("{why}; a daemon was started but did not answer in time"),
        }
    }

    /// Starts `program serve --data DATA --listen ADDR` in its own process group, its output
    /// appended to `DATA/serve.log`, unless a start was attempted in the last few seconds
    /// (then `None`: a sibling hook's daemon is coming up).
    fn start(&self, program: &Path) -> std::io::Result<Option<Child>> {
        use std::os::unix::fs::DirBuilderExt;
        use std::os::unix::process::CommandExt;
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&self.data)?;
        if !claim_start(&self.data.join("serve.autostart"))? {
            return Ok(None);
        }
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.data.join("serve.log"));
        let (out, err) = match log.and_then(|f| Ok((f.try_clone()?, f))) {
            Ok((out, err)) => (Stdio::from(out), Stdio::from(err)),
            Err(_) => (Stdio::null(), Stdio::null()),
        };
        Command::new(program)
            .arg("serve")
            .arg("--data")
            .arg(&self.data)
            .arg("--listen")
            .arg(&self.authority)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .process_group(0)
            .spawn()
            .map(Some)
    }
}

/// Why a request or a probe got no answer.
#[derive(Debug)]
enum Sent {
    /// Nothing accepted the connection: the daemon may not be running.
    Refused(String),
    /// The deadline passed.
    Timeout,
    /// Anything else: the connection broke, or what came back is not an HTTP answer.
    Failed(String),
}

impl From<ureq::Error> for Sent {
    fn from(error: ureq::Error) -> Sent {
        match error {
            ureq::Error::Timeout(_) => Sent::Timeout,
            ureq::Error::ConnectionFailed => Sent::Refused("the connection failed".to_string()),
            ureq::Error::Io(e) => Sent::from(e),
            ureq::Error::Protocol(e) => Sent::Failed(format!("its answer is not valid HTTP ({e})")),
            ureq::Error::BodyExceedsLimit(limit) => {
                Sent::Failed(format!("the answer is longer than {limit} bytes"))
            }
            other => Sent::Failed(other.to_string()),
        }
    }
}

impl From<io::Error> for Sent {
    fn from(e: io::Error) -> Sent {
        match e.kind() {
            io::ErrorKind::ConnectionRefused => {
                Sent::Refused("the connection was refused".to_string())
            }
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => Sent::Timeout,
            io::ErrorKind::UnexpectedEof | io::ErrorKind::ConnectionReset => Sent::Failed(
                "its answer is not valid HTTP (the connection closed before the answer was complete)"
                    .to_string(),
            ),
            _ => Sent::Failed(format!("the connection failed: {e}")),
        }
    }
}

/// What is left before the deadline; none when less than a millisecond is (a zero timeout
/// means "wait forever" to the socket API).
fn remaining(deadline: Instant) -> Option<Duration> {
    Some(deadline.saturating_duration_since(Instant::now()))
        .filter(|left| *left >= Duration::from_millis(1))
}

/// Whether something accepts a connection at `addr` before the deadline.
fn probe(addr: SocketAddr, deadline: Instant) -> Result<(), Sent> {
    let left = remaining(deadline).ok_or(Sent::Timeout)?;
    TcpStream::connect_timeout(&addr, left)
        .map(drop)
        .map_err(Sent::from)
}

/// Claims the right to start the daemon: false when another hook started one moments ago.
fn claim_start(guard: &Path) -> std::io::Result<bool> {
    let fresh = std::fs::metadata(guard)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|at| SystemTime::now().duration_since(at).ok())
        .is_some_and(|age| age < START_GUARD);
    if fresh {
        return Ok(false);
    }
    let _ = std::fs::remove_file(guard);
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(guard)
    {
        Ok(_) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e),
    }
}

/// A chat id as one path segment: everything but `A-Z a-z 0-9 - . _ ~` percent-encoded.
pub fn segment(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for byte in id.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn daemon(url: &str) -> Result<Daemon, Failure> {
        Daemon::new(
            url,
            PathBuf::from("/nonexistent"),
            Autostart::Off,
            Instant::now() + Duration::from_secs(1),
        )
    }

    #[test]
    fn only_plain_http_on_this_machine() {
        for url in [
            "http://127.0.0.1:7411",
            "HTTP://127.0.0.1:7411/",
            "http://[::1]:7411",
            "http://localhost:7411",
            "http://127.0.0.1",
        ] {
            assert!(daemon(url).is_ok(), "{url}");
        }
        for url in [
            "https://127.0.0.1:7411",
            "127.0.0.1:7411",
            "http://192.0.2.1:7411",
            "http://user@127.0.0.1:7411",
            "http://",
            "",
        ] {
            assert!(daemon(url).is_err(), "{url}");
        }
        let with_base = daemon("http://127.0.0.1:7411/warden/").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(with_base.base, "/warden");
        assert_eq!(with_base.authority, "127.0.0.1:7411");
    }

    #[test]
    fn chat_ids_are_one_path_segment() {
        assert_eq!(segment("abc-123_x.y~z"), "abc-123_x.y~z");
        assert_eq!(segment("a/b c?#%"), "a%2Fb%20c%3F%23%25");
        assert_eq!(segment("é"), "%C3%A9");
    }
}
