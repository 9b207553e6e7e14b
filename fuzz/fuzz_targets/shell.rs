//! Any bytes as a shell line: the reader and every rule over it never panic, and judging
//! is the same twice.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warden::facts::FakeFacts;
use warden::step::{Context, Step};

fuzz_target!(|data: &[u8]| {
    let command = String::from_utf8_lossy(data).into_owned();
    let _ = warden::shell::Line::parse(&command);
    let ctx = Context {
        cwd: "/home/user/app".to_string(),
        read: vec!["a web page".to_string()],
        ..Context::default()
    };
    let facts = FakeFacts::repo(&["react"]);
    let step = Step::Command { command };
    let first = warden::judge(&step, &ctx, &facts);
    assert_eq!(first, warden::judge(&step, &ctx, &facts));
});
