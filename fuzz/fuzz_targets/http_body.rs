//! Any bytes as the body of every route of a real `warden serve` (with the person's token,
//! over loopback): each is answered, and bad input is a 4xx naming what was wrong, never a
//! 5xx or a dropped connection; the daemon keeps serving.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::time::Duration;

const ROUTES: &[(&str, &str)] = &[
    ("POST", "/v1/chats/c1"),
    ("POST", "/v1/chats/c1/judge"),
    ("POST", "/v1/chats/c1/peek"),
    ("POST", "/v1/chats/c1/events"),
    ("POST", "/v1/chats/c1/tasks"),
    ("POST", "/v1/chats/c1/questions/1"),
    ("DELETE", "/v1/preferences/everywhere"),
    ("DELETE", "/v1/preferences/rules"),
    ("PUT", "/v1/preferences/note"),
    ("PUT", "/v1/preferences/settings"),
];

struct Daemon {
    addr: SocketAddr,
    token: String,
}

fn daemon() -> &'static Daemon {
    static DAEMON: OnceLock<Daemon> = OnceLock::new();
    DAEMON.get_or_init(|| {
        // Kept for the process's life: the runtime, the folder and the server.
        let dir = Box::leak(Box::new(tempfile::tempdir().expect("a folder")));
        let rt = Box::leak(Box::new(
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("a runtime"),
        ));
        let config = warden_actors::config::Config::default();
        let settings = warden_actors::serve::Settings::new(
            &config,
            Some("127.0.0.1:0"),
            Some(dir.path()),
            "/home/user",
        )
        .expect("settings");
        let server = rt
            .block_on(warden_actors::serve::start(settings))
            .expect("serve starts");
        let addr = server.addr();
        let token = std::fs::read_to_string(dir.path().join("token"))
            .expect("the token")
            .trim()
            .to_string();
        Box::leak(Box::new(server));
        Daemon { addr, token }
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else { return };
    let (method, path) = ROUTES[usize::from(pick) % ROUTES.len()];
    let daemon = daemon();
    let mut stream = TcpStream::connect(daemon.addr).expect("warden answers");
    stream.set_read_timeout(Some(Duration::from_secs(20))).ok();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        daemon.token,
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("the head is sent");
    stream.write_all(body).expect("the body is sent");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("an answer");
    let text = String::from_utf8_lossy(&answer);
    let status: u16 = text
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {text:?}"));
    assert!(status < 500, "{method} {path}: {text}");
});
