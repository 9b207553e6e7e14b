//! Any bytes as a `warden judge` request line (the HTTP judge route reads the same JSON):
//! the answer is always one JSON line, a verdict or a refusal naming what was wrong.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warden::facts::FakeFacts;
use warden::protocol::{Defaults, judge_line};

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let answer = judge_line(&line, &Defaults::new("/home/user/app"), &FakeFacts::unknown());
    assert!(!answer.contains('\n'), "{answer}");
    assert!(serde_json::from_str::<serde_json::Value>(&answer).is_ok(), "{answer}");
});
