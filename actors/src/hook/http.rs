//! A minimal HTTP/1.1 client for the daemon on loopback: one request per connection
//! (`Connection: close`), plain HTTP, every step bounded by one deadline.
//!
//! Hand-written rather than a crate: the hook talks only to `127.0.0.1`, sends a few small
//! JSON bodies and reads a few small answers, and its process start is what Claude Code waits
//! for on every tool call. This costs no dependency, no TLS stack, no connection pool and no
//! runtime, and every timeout (connect, write, each read) is cut from the same deadline.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The most of an answer read; the daemon's answers are a few KiB.
const MAX_ANSWER: usize = 4 << 20;

/// A request: method, path (already percent-encoded) and an optional JSON body.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub method: &'a str,
    pub path: &'a str,
    /// The person's token, sent as `Authorization: Bearer …` when given.
    pub token: Option<&'a str>,
    pub body: Option<&'a [u8]>,
}

/// An answer: its status and its body (chunked bodies decoded).
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub body: Vec<u8>,
}

/// Why a request got no answer.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Nothing accepted the connection (refused, unreachable): the daemon may not be running.
    #[error("{}", if .0.kind() == io::ErrorKind::ConnectionRefused {
        "the connection was refused".to_string()
    } else {
        format!("the connection failed: {}", .0)
    })]
    Connect(io::Error),
    /// The deadline passed.
    #[error("it did not answer in time")]
    Timeout,
    #[error("the connection failed ({0})")]
    Io(io::Error),
    /// The bytes that came back are not an HTTP answer, or it was cut short.
    #[error("its answer is not valid HTTP ({0})")]
    Malformed(String),
}

fn remaining(deadline: Instant) -> Result<Duration, Error> {
    let left = deadline.saturating_duration_since(Instant::now());
    // A zero timeout means "block forever" to the socket API: never hand it one.
    if left < Duration::from_millis(1) {
        Err(Error::Timeout)
    } else {
        Ok(left)
    }
}

fn io_error(e: io::Error) -> Error {
    match e.kind() {
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => Error::Timeout,
        _ => Error::Io(e),
    }
}

/// Connects to `addr` before the deadline.
pub fn connect(addr: SocketAddr, deadline: Instant) -> Result<TcpStream, Error> {
    let stream = TcpStream::connect_timeout(&addr, remaining(deadline)?).map_err(|e| {
        if e.kind() == io::ErrorKind::TimedOut {
            Error::Timeout
        } else {
            Error::Connect(e)
        }
    })?;
    // One write per request; don't let Nagle hold it back waiting for an ACK.
    let _ = stream.set_nodelay(true);
    Ok(stream)
}

/// Sends one request on a connected stream and reads its answer, before the deadline.
pub fn exchange(
    mut stream: TcpStream,
    host: &str,
    request: &Request<'_>,
    deadline: Instant,
) -> Result<Response, Error> {
    let mut head = format!(
        "{} {} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nAccept: application/json\r\nUser-Agent: warden-hook\r\n",
        request.method, request.path
    );
    if let Some(token) = request.token {
        head.push_str("Authorization: Bearer ");
        head.push_str(token);
        head.push_str("\r\n");
    }
    let body = request.body.unwrap_or_default();
    if request.body.is_some() {
        head.push_str("Content-Type: application/json\r\n");
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    stream
        .set_write_timeout(Some(remaining(deadline)?))
        .map_err(Error::Io)?;
    stream.write_all(&bytes).map_err(io_error)?;

    let mut buffer = Vec::with_capacity(1024);
    let mut chunk = [0u8; 8192];
    loop {
        if let Some(response) = parse(&buffer, false)? {
            return Ok(response);
        }
        stream
            .set_read_timeout(Some(remaining(deadline)?))
            .map_err(Error::Io)?;
        let n = match stream.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_error(e)),
        };
        if n == 0 {
            return parse(&buffer, true)?.ok_or_else(|| {
                Error::Malformed(if buffer.is_empty() {
                    "the connection closed with no answer".to_string()
                } else {
                    "the connection closed before the answer was complete".to_string()
                })
            });
        }
        if buffer.len() + n > MAX_ANSWER {
            return Err(Error::Malformed(format!(
                "the answer is longer than {MAX_ANSWER} bytes"
            )));
        }
        buffer.extend_from_slice(chunk.get(..n).unwrap_or_default());
    }
}

/// Reads an answer from what arrived so far: `None` while it is incomplete (or, when `closed`,
/// an answer with no declared length ends here).
pub fn parse(buffer: &[u8], closed: bool) -> Result<Option<Response>, Error> {
    let Some(end) = find(buffer, b"\r\n\r\n") else {
        return Ok(None);
    };
    let head = std::str::from_utf8(buffer.get(..end).unwrap_or_default())
        .map_err(|_| Error::Malformed("the header is not text".to_string()))?;
    let body = buffer.get(end + 4..).unwrap_or_default();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let mut parts = status_line.splitn(3, ' ');
    let (version, code) = (parts.next().unwrap_or_default(), parts.next());
    if !version.starts_with("HTTP/1.") {
        return Err(Error::Malformed(format!(
            "the status line is `{}`",
            shorten(status_line)
        )));
    }
    let status = code
        .and_then(|c| c.parse::<u16>().ok())
        .filter(|c| (100..600).contains(c))
        .ok_or_else(|| {
            Error::Malformed(format!("the status line is `{}`", shorten(status_line)))
        })?;
    let mut length = None;
    let mut chunked = false;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            return Err(Error::Malformed(format!(
                "a header line is `{}`",
                shorten(line)
            )));
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            length = Some(value.parse::<usize>().map_err(|_| {
                Error::Malformed(format!("Content-Length is `{}`", shorten(value)))
            })?);
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.to_ascii_lowercase().contains("chunked");
        }
    }
    if chunked {
        return dechunk(body, closed).map(|body| body.map(|body| Response { status, body }));
    }
    match length {
        Some(length) if body.len() >= length => Ok(Some(Response {
            status,
            body: body.get(..length).unwrap_or_default().to_vec(),
        })),
        Some(length) if closed => Err(Error::Malformed(format!(
            "the body is cut short: {} of {length} bytes",
            body.len()
        ))),
        Some(_) => Ok(None),
        None if closed || status == 204 || status == 304 => Ok(Some(Response {
            status,
            body: body.to_vec(),
        })),
        None => Ok(None),
    }
}

/// Decodes a chunked body: `None` while incomplete.
fn dechunk(mut rest: &[u8], closed: bool) -> Result<Option<Vec<u8>>, Error> {
    let mut body = Vec::new();
    loop {
        let Some(line_end) = find(rest, b"\r\n") else {
            return incomplete(closed);
        };
        let size_text = std::str::from_utf8(rest.get(..line_end).unwrap_or_default())
            .unwrap_or_default()
            .split(';')
            .next()
            .unwrap_or_default()
            .trim();
        let size = usize::from_str_radix(size_text, 16)
            .map_err(|_| Error::Malformed(format!("a chunk size is `{}`", shorten(size_text))))?;
        let data = rest.get(line_end + 2..).unwrap_or_default();
        if size == 0 {
            return Ok(Some(body));
        }
        if data.len() < size + 2 {
            return incomplete(closed);
        }
        body.extend_from_slice(data.get(..size).unwrap_or_default());
        rest = data.get(size + 2..).unwrap_or_default();
    }
}

fn incomplete<T>(closed: bool) -> Result<Option<T>, Error> {
    if closed {
        Err(Error::Malformed(
            "the chunked body is cut short".to_string(),
        ))
    } else {
        Ok(None)
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// At most 60 characters of what came back, for an error message.
fn shorten(text: &str) -> String {
    let mut short: String = text.chars().take(60).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes that arrived, whether the connection closed, and the answer read (if complete).
    type Case = (&'static [u8], bool, Option<(u16, &'static str)>);

    #[test]
    fn answers_are_read_by_length_by_chunks_or_to_the_end() {
        let table: &[Case] = &[
            (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", false, Some((200, "{}"))),
            (b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n{}", false, None),
            (b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}extra", false, Some((200, "{}"))),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n3\r\n[1]\r\n0\r\n\r\n",
                false,
                Some((200, "{}[1]")),
            ),
            (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{", false, None),
            (b"HTTP/1.0 404 Not Found\r\n\r\nnope", true, Some((404, "nope"))),
            (b"HTTP/1.0 404 Not Found\r\n\r\nnope", false, None),
            (b"HTTP/1.1 200 OK\r\nContent-", false, None),
        ];
        for (bytes, closed, want) in table {
            let got = parse(bytes, *closed)
                .unwrap_or_else(|e| panic!("{}: {e}", String::from_utf8_lossy(bytes)))
                .map(|r| (r.status, String::from_utf8_lossy(&r.body).to_string()));
            let want = want.map(|(s, b)| (s, b.to_string()));
            assert_eq!(got, want, "{}", String::from_utf8_lossy(bytes));
        }
    }

    #[test]
    fn garbage_and_cut_answers_are_errors() {
        let table: &[&[u8]] = &[
            b"SSH-2.0-OpenSSH_9.6\r\n\r\n",
            b"HTTP/1.1 abc OK\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{\"a\":",
            b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{}",
        ];
        for bytes in table {
            assert!(
                parse(bytes, true).is_err(),
                "{}",
                String::from_utf8_lossy(bytes)
            );
        }
    }
}
