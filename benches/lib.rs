//! Shared fixtures for the benches in `benches/`: a two-worker tokio runtime like the
//! daemon's, a runtime over a log in a folder, and chats brought into memory.
#![expect(clippy::panic, reason = "a bench whose fixture is wrong stops at once")]

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use warden::chat::{Event, Mark};
use warden::facts::FakeFacts;
use warden_actors::runtime::{Options, Runtime};

/// A tokio runtime with two workers, as on the machines measured.
pub fn tokio() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// warden's runtime over a log in `dir`, facts unknown, chats idle after `idle`.
pub fn open(rt: &tokio::runtime::Runtime, dir: &Path, idle: Duration) -> Runtime {
    rt.block_on(async {
        Runtime::open(
            dir,
            Arc::new(FakeFacts::unknown()),
            Options {
                idle,
                ..Options::default()
            },
        )
        .await
        .unwrap_or_else(|e| panic!("{e:#}"))
    })
}

/// Brings chats `c0`…`c{chats-1}` into memory with one mark each (a web page read), all at
/// once.
pub fn mark_all(rt: &tokio::runtime::Runtime, warden: &Runtime, chats: usize) {
    rt.block_on(async {
        let mut writers = Vec::new();
        for chat in 0..chats {
            let warden = warden.clone();
            writers.push(tokio::spawn(async move {
                let mark = Mark {
                    name: "a web page".into(),
                    provenance: None,
                };
                warden
                    .record(&format!("c{chat}"), Event::Read { mark })
                    .await
                    .unwrap_or_else(|e| panic!("{e:#}"));
            }));
        }
        for writer in writers {
            writer.await.unwrap_or_else(|e| panic!("{e}"));
        }
    });
}
