//! Hostile HTTP: clients that send half a request, a body shorter than its length, nothing
//! at all, too many connections, or a `Host` that isn't this machine. Each is closed or
//! refused within its limit (plus a generous margin; never a measure of speed), and the
//! server answers everyone else meanwhile.

use super::*;
use std::io::{ErrorKind, Read as _, Write as _};
use std::net::TcpStream;

/// The limits these tests run with: short, so that a test waits little.
const HEADER_MS: u64 = 500;
const BODY_MS: u64 = 500;
const CONNECTIONS: usize = 8;

/// How much later than its limit a connection may close: the machine may be busy.
const MARGIN: Duration = Duration::from_secs(3);

fn hostile_warden(dir: &Path) -> Warden {
    let config: Config = toml::from_str(&format!(
        "[limits]\nheader_timeout_ms = {HEADER_MS}\nbody_timeout_ms = {BODY_MS}\nconnections = {CONNECTIONS}\n"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    Warden::start_with(dir, config)
}

impl Warden {
    /// A raw TCP connection to the server, which has sent `text`.
    fn connect(&self, text: &str) -> TcpStream {
        let addr = self.base.trim_start_matches("http://");
        let mut stream = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect: {e}"));
        stream
            .set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap_or_else(|e| panic!("{e}"));
        if !text.is_empty() {
            stream
                .write_all(text.as_bytes())
                .unwrap_or_else(|e| panic!("write: {e}"));
        }
        stream
    }

    /// The status of `text` (which asks `Connection: close`) sent on a connection of its
    /// own, and the answer's text.
    fn exchange(&self, text: &str) -> (Option<u16>, String) {
        let mut stream = self.connect(text);
        let answer = until_closed(&mut stream, Duration::from_secs(30));
        (status_of(&answer), answer)
    }
}

/// Reads until the server closes the connection, which it must within `within`; what it sent.
fn until_closed(stream: &mut TcpStream, within: Duration) -> String {
    let started = Instant::now();
    let mut got = Vec::new();
    let mut buffer = [0; 4096];
    loop {
        assert!(
            started.elapsed() <= within,
            "still open after {within:?}; it sent {:?}",
            String::from_utf8_lossy(&got)
        );
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buffer[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            // Closed with unread bytes still in its buffer: a reset is a close too.
            Err(_) => break,
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}

/// The status of an HTTP answer's text.
fn status_of(answer: &str) -> Option<u16> {
    answer
        .strip_prefix("HTTP/1.1 ")
        .or_else(|| answer.strip_prefix("HTTP/1.0 "))
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok())
}

#[test]
fn half_a_request_is_closed_within_the_header_timeout_while_others_are_served() {
    let dir = tempdir();
    let warden = hostile_warden(dir.path());
    let halves = [
        "",
        "GET /healthz HT",
        "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n",
        "POST /v1/chats/c1/judge HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-",
    ];
    let mut held: Vec<_> = halves.iter().map(|half| warden.connect(half)).collect();
    // Others are answered while those are held.
    warden.healthy();
    warden.open("c1");
    let within = Duration::from_millis(HEADER_MS) + MARGIN;
    for (half, stream) in halves.iter().zip(&mut held) {
        let answer = until_closed(stream, within);
        assert!(
            answer.is_empty() || status_of(&answer).is_some_and(|s| s >= 400),
            "{half:?}: {answer}"
        );
    }
    // A head sent a byte at a time is closed too: the timeout counts from its first byte.
    let mut stream = warden.connect("");
    let started = Instant::now();
    let head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
        .iter()
        .chain([b'x'; 4096].iter());
    let mut closed = false;
    for byte in head {
        assert!(started.elapsed() <= within, "a trickled head is still open");
        if stream.write_all(&[*byte]).is_err() {
            closed = true;
            break;
        }
        let mut buffer = [0; 512];
        match stream.read(&mut buffer) {
            Ok(0) => {
                closed = true;
                break;
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            _ => {}
        }
    }
    assert!(
        closed,
        "a head trickled for its whole length was never closed"
    );
    warden.healthy();
    let (_, text) = warden.raw("GET", "/metrics", Auth::Nobody, &[], None);
    let timed_out = metric(&text, "warden_http_connections_timed_out_total");
    assert!(timed_out.is_some_and(|n| n >= 1.0), "{text}");
    warden.stop();
}

#[test]
fn an_idle_kept_alive_connection_is_closed_within_the_header_timeout() {
    let dir = tempdir();
    let warden = hostile_warden(dir.path());
    let mut stream = warden.connect("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    let answer = until_closed(&mut stream, Duration::from_millis(HEADER_MS) + MARGIN);
    assert_eq!(status_of(&answer), Some(200), "{answer}");
    assert!(
        answer.ends_with("{\"ok\":true}"),
        "answered, then closed: {answer}"
    );
    warden.stop();
}

#[test]
fn a_body_shorter_than_its_length_is_answered_408_within_the_body_timeout() {
    let dir = tempdir();
    let warden = hostile_warden(dir.path());
    let mut stream = warden.connect(
        "POST /v1/chats/c1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"kind\": \"read\",",
    );
    warden.healthy();
    let answer = until_closed(&mut stream, Duration::from_millis(BODY_MS) + MARGIN);
    assert_eq!(status_of(&answer), Some(408), "{answer}");
    assert!(answer.contains("limits.body_timeout_ms"), "{answer}");
    let (status, answer) = warden.call("GET", "/v1/chats/c1", Auth::Nobody, None);
    assert_eq!(status, 404, "nothing was recorded: {answer}");
    warden.stop();
}

#[test]
fn connections_past_the_cap_are_refused_at_once_and_served_once_the_held_ones_close() {
    let dir = tempdir();
    let warden = hostile_warden(dir.path());
    let mut held: Vec<_> = (0..CONNECTIONS).map(|_| warden.connect("")).collect();
    // The held ones are taken in the order they came, so one more is past the cap once the
    // server has taken them all. It sends nothing, so the answer can't be lost to a reset.
    let past_the_cap = || {
        let mut stream = warden.connect("");
        until_closed(&mut stream, Duration::from_millis(HEADER_MS) + MARGIN)
    };
    let started = Instant::now();
    let answer = loop {
        let answer = past_the_cap();
        if status_of(&answer) == Some(503) || started.elapsed() > MARGIN {
            break answer;
        }
    };
    assert_eq!(status_of(&answer), Some(503), "past the cap: {answer}");
    assert!(answer.contains("limits.connections"), "{answer}");
    // More of them change nothing: each is refused at once.
    for _ in 0..3 * CONNECTIONS {
        let started = Instant::now();
        let answer = past_the_cap();
        assert_eq!(status_of(&answer), Some(503), "{answer}");
        assert!(started.elapsed() < MARGIN, "refused at once");
    }
    for stream in &mut held {
        until_closed(stream, Duration::from_millis(HEADER_MS) + MARGIN);
    }
    let (status, answer) =
        warden.exchange("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    assert_eq!(status, Some(200), "the held ones closed: {answer}");
    let (_, text) = warden.raw("GET", "/metrics", Auth::Nobody, &[], None);
    let refused = metric(&text, "warden_http_connections_refused_total");
    assert!(
        refused.is_some_and(|n| n >= 1.0 + 3.0 * CONNECTIONS as f64),
        "{text}"
    );
    warden.stop();
}

#[test]
fn clients_that_take_no_answer_are_closed_within_the_body_timeout() {
    let dir = tempdir();
    let warden = hostile_warden(dir.path());
    // Each pipelines more answers than the sockets' buffers hold, and reads none of them:
    // the server's writes wait, and without a limit the connection is held for ever.
    let request = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".repeat(20_000);
    let mut held = Vec::new();
    for _ in 0..CONNECTIONS {
        let addr = warden.base.trim_start_matches("http://");
        let mut stream = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect: {e}"));
        stream
            .set_write_timeout(Some(Duration::from_secs(1)))
            .unwrap_or_else(|e| panic!("{e}"));
        // The server stops reading once it can't write: what it hasn't read waits.
        let _ = stream.write_all(request.as_bytes());
        held.push(stream);
    }
    // Once their writes have waited past the limit they are closed, and the server takes
    // others again (it holds no more than CONNECTIONS).
    let within = Duration::from_secs(20);
    let started = Instant::now();
    loop {
        let (status, answer) = warden
            .exchange("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        if status == Some(200) {
            break;
        }
        assert!(
            started.elapsed() <= within,
            "still refused after {within:?}: {status:?} {answer}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let (_, text) = warden.raw("GET", "/metrics", Auth::Nobody, &[], None);
    let timed_out = metric(&text, "warden_http_connections_timed_out_total");
    assert!(timed_out.is_some_and(|n| n >= 1.0), "{text}");
    drop(held);
    warden.stop();
}

#[test]
fn the_host_must_be_a_loopback_authority() {
    let dir = tempdir();
    let warden = hostile_warden(dir.path());
    let port = warden
        .base
        .rsplit(':')
        .next()
        .unwrap_or_default()
        .to_string();
    let request = |version: &str, host: Option<&str>| {
        let host = host.map(|h| format!("Host: {h}\r\n")).unwrap_or_default();
        format!("GET /v1/preferences {version}\r\n{host}Connection: close\r\n\r\n")
    };
    for host in [
        "localhost".to_string(),
        format!("localhost:{port}"),
        "LOCALHOST".to_string(),
        "127.0.0.1".to_string(),
        format!("127.0.0.1:{port}"),
        "[::1]".to_string(),
        format!("[::1]:{port}"),
    ] {
        let (status, answer) = warden.exchange(&request("HTTP/1.1", Some(&host)));
        assert_eq!(status, Some(200), "{host}: {answer}");
    }
    for host in [
        "127.0.0.1:1@evil",
        "127.0.0.1:1@evil.example",
        "user@127.0.0.1",
        "evil.example",
        "localhost.evil.example",
        "127.0.0.1.nip.io",
        "[::1]@evil",
    ] {
        let (status, answer) = warden.exchange(&request("HTTP/1.1", Some(host)));
        assert_eq!(status, Some(403), "{host}: {answer}");
        assert!(answer.contains("loopback"), "{host}: {answer}");
    }
    // Without a Host: HTTP/1.1 requires one, and warden asks it of HTTP/1.0 too.
    for version in ["HTTP/1.1", "HTTP/1.0"] {
        let (status, answer) = warden.exchange(&request(version, None));
        assert_eq!(status, Some(400), "{version}: {answer}");
        assert!(answer.contains("no `Host`"), "{version}: {answer}");
    }
    // An absolute target names its host too.
    let (status, answer) = warden.exchange(
        "GET http://evil.example/v1/preferences HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, Some(403), "{answer}");
    warden.healthy();
    warden.stop();
}
