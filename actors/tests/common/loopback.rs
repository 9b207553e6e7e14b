//! A scripted HTTP/1.1 server on loopback, for the tests that drive a real agent
//! (`claude_code/api.rs`, `codex/api.rs`): an accept loop that stops when the server is
//! dropped (and after [`LIFETIME`] in any case), one thread a connection with read and write
//! timeouts, and a reader of one request (`Content-Length` or chunked body).

use serde_json::Value;
use std::io::{BufRead as _, BufReader, Read as _};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest the server lives, whatever the test does.
pub const LIFETIME: Duration = Duration::from_secs(300);

/// The largest request body read.
const MAX_BODY: usize = 16 << 20;

/// One request the agent sent.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    /// The body as sent.
    pub raw: String,
    /// The body as JSON (`Null` when it isn't).
    pub body: Value,
}

/// The running server. Dropping it stops it.
pub struct Loopback {
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

impl Loopback {
    /// Listens on a free loopback port; `answer` answers each request of a connection and
    /// says whether the connection stays open.
    pub fn start(
        answer: impl Fn(&Request, &mut TcpStream) -> bool + Send + Sync + 'static,
    ) -> Loopback {
        let listener =
            TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("bind the API: {e}"));
        let addr = listener
            .local_addr()
            .unwrap_or_else(|e| panic!("the API's address: {e}"));
        listener
            .set_nonblocking(true)
            .unwrap_or_else(|e| panic!("nonblocking: {e}"));
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let answer = Arc::new(answer);
        let accept = std::thread::spawn(move || {
            let until = Instant::now() + LIFETIME;
            while !stopped.load(Ordering::SeqCst) && Instant::now() < until {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let answer = answer.clone();
                        std::thread::spawn(move || connection(stream, &*answer));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Loopback {
            addr,
            stop,
            accept: Some(accept),
        }
    }
}

impl Drop for Loopback {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }
}

/// Serves one connection: requests until the client closes it or `answer` says to.
fn connection(stream: TcpStream, answer: &dyn Fn(&Request, &mut TcpStream) -> bool) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
    let Ok(mut writer) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    while let Some(request) = read_request(&mut reader) {
        if !answer(&request, &mut writer) {
            return;
        }
    }
}

/// Reads one HTTP/1.1 request (`Content-Length` or chunked body).
fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Request> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut first = line.split_whitespace();
    let (method, path) = (first.next()?.to_string(), first.next()?.to_string());
    let (mut length, mut chunked) = (0usize, false);
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 {
            return None;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok()?;
            } else if name.eq_ignore_ascii_case("transfer-encoding")
                && value.to_ascii_lowercase().contains("chunked")
            {
                chunked = true;
            }
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).ok()?;
            let size = usize::from_str_radix(size.trim().split(';').next()?, 16).ok()?;
            if size == 0 {
                let mut end = String::new();
                reader.read_line(&mut end).ok()?;
                break;
            }
            if body.len() + size > MAX_BODY {
                return None;
            }
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).ok()?;
            body.extend_from_slice(&chunk[..size]);
        }
    } else {
        if length > MAX_BODY {
            return None;
        }
        body.resize(length, 0);
        reader.read_exact(&mut body).ok()?;
    }
    let raw = String::from_utf8_lossy(&body).to_string();
    let body = serde_json::from_str(&raw).unwrap_or(Value::Null);
    Some(Request {
        method,
        path,
        raw,
        body,
    })
}
