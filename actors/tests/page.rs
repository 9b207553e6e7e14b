//! The person's page and the event stream, through the real `warden serve` and `warden page`:
//! the stream resumed from the last event seen (`events`), the page's sign-in, session and
//! CSRF guard refusing what isn't the page (`session`), its settings routes (`settings`),
//! and the page itself in a real headless Chromium over the DevTools protocol (`browser`,
//! with `cdp` its client).

mod browser;
mod cdp;
mod events;
mod session;
mod settings;

use crate::common::{Place, Serve};
use serde_json::Value;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::time::Duration;

/// One event read off the stream.
#[derive(Debug, Clone, PartialEq)]
pub struct Said {
    pub id: Option<u64>,
    pub event: String,
    pub data: Value,
}

/// An event stream held open on a raw connection (HTTP/1.0, so the body is the bytes as
/// sent, with no chunks around them).
pub struct Stream {
    reader: BufReader<TcpStream>,
}

/// What opening a stream answered: its status, and the stream when it is 200.
pub fn open_stream(
    serve: &Serve,
    headers: &[(&str, &str)],
    query: &str,
) -> (u16, Option<Stream>, String) {
    let mut socket = TcpStream::connect(serve.addr()).unwrap_or_else(|e| panic!("connect: {e}"));
    socket
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut request = format!(
        "GET /v1/events{query} HTTP/1.0\r\nHost: {}\r\n",
        serve.addr()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    socket
        .write_all(request.as_bytes())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut reader = BufReader::new(socket);
    let mut status_line = String::new();
    reader
        .read_line(&mut status_line)
        .unwrap_or_else(|e| panic!("{e}"));
    let status: u16 = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a status line: {status_line:?}"));
    let mut head = String::new();
    loop {
        let mut line = String::new();
        reader
            .read_line(&mut line)
            .unwrap_or_else(|e| panic!("{e}"));
        if line.trim().is_empty() {
            break;
        }
        head.push_str(&line);
    }
    if status != 200 {
        let mut body = String::new();
        let _ = reader.read_to_string(&mut body);
        return (status, None, body);
    }
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{head}"
    );
    (status, Some(Stream { reader }), head)
}

impl Stream {
    /// The next event (comments and keep-alives passed over), or a panic after 10 s.
    pub fn next(&mut self) -> Said {
        let (mut id, mut event, mut data) = (None, String::from("message"), String::new());
        loop {
            let mut line = String::new();
            let n = self
                .reader
                .read_line(&mut line)
                .unwrap_or_else(|e| panic!("reading the stream: {e}"));
            assert!(n > 0, "the stream ended");
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if data.is_empty() {
                    continue;
                }
                let data = serde_json::from_str(&data)
                    .unwrap_or_else(|e| panic!("an event's data is not JSON ({e}): {data}"));
                return Said { id, event, data };
            }
            if line.starts_with(':') {
                continue;
            }
            let (field, value) = line.split_once(':').unwrap_or((line, ""));
            let value = value.strip_prefix(' ').unwrap_or(value);
            match field {
                "id" => id = value.parse().ok(),
                "event" => event = value.to_string(),
                "data" => data.push_str(value),
                _ => {}
            }
        }
    }

    /// Whether the stream has ended (the server closed it), reading past any keep-alive.
    pub fn ended(&mut self) -> bool {
        let mut rest = String::new();
        self.reader.read_to_string(&mut rest).is_ok()
    }

    /// The next event that is not `ready`.
    pub fn next_event(&mut self) -> Said {
        loop {
            let said = self.next();
            if said.event != "ready" {
                return said;
            }
        }
    }
}

/// The person's token as a header.
pub fn bearer(place: &Place) -> String {
    format!("Bearer {}", place.token())
}

/// Opens chat `chat` in Auto with the person alone, and marks it as having read a web page.
pub fn chat_that_read(serve: &Serve, place: &Place, chat: &str) {
    let token = place.token();
    crate::common::ok(
        serve,
        "POST",
        &format!("/v1/chats/{chat}"),
        Some(&token),
        &serde_json::json!({"mode": "auto", "company": "alone"}),
    );
    crate::common::ok(
        serve,
        "POST",
        &format!("/v1/chats/{chat}/events"),
        None,
        &serde_json::json!({"kind": "read", "name": "a web page", "provenance": "https://example.com/issue/7"}),
    );
}

/// A push the chat asks about after reading, as the hook would send it; the question's id.
pub fn push(serve: &Serve, place: &Place, chat: &str, id: &str, branch: &str) -> u64 {
    let answer = crate::common::ok(
        serve,
        "POST",
        &format!("/v1/chats/{chat}/judge"),
        None,
        &serde_json::json!({"id": id, "tool_name": "Bash",
                            "tool_input": {"command": format!("git push origin {branch}")},
                            "cwd": place.work()}),
    );
    assert_eq!(answer["decision"], "ask", "{answer}");
    answer["question"]
        .as_u64()
        .unwrap_or_else(|| panic!("no question: {answer}"))
}
