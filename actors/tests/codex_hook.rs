//! `warden hook` fed Codex's hook inputs (in the shape Codex 0.171.0 sends them), against the
//! real `warden serve`: what Codex gets back is a block or nothing, never an `ask` or an
//! `allow` it would count as a failed hook and let through (`docs/hook.md`, "Codex").

use crate::common::{Place, chat, hook, hook_as};
use serde_json::{Value, json};

const SESSION: &str = "01a232ee-9a74-75b3-a08a-6e9020763840";

/// A Codex input for `event`, with `fields` added.
fn codex(place: &Place, event: &str, fields: Value) -> Value {
    let mut input = json!({
        "session_id": SESSION,
        "turn_id": "01a232ee-9a90-7b02-a37c-4a66c276b9ac",
        "transcript_path": null,
        "cwd": place.work(),
        "hook_event_name": event,
        "model": "gpt-5.5",
        "permission_mode": "bypassPermissions",
    });
    if let (Some(input), Some(fields)) = (input.as_object_mut(), fields.as_object()) {
        for (key, value) in fields {
            input.insert(key.clone(), value.clone());
        }
    }
    input
}

fn bash(place: &Place, event: &str, command: &str, id: &str) -> Value {
    codex(
        place,
        event,
        json!({"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": id}),
    )
}

/// The block Codex obeys: `permissionDecision: "deny"` with a reason.
fn block_reason(answer: &Value) -> String {
    let output = &answer["hookSpecificOutput"];
    assert_eq!(output["hookEventName"], "PreToolUse", "{answer}");
    assert_eq!(
        output["permissionDecision"], "deny",
        "not a block: {answer}"
    );
    output["permissionDecisionReason"]
        .as_str()
        .filter(|r| !r.trim().is_empty())
        .unwrap_or_else(|| panic!("a block needs a reason: {answer}"))
        .to_string()
}

#[test]
fn codex_gets_nothing_for_allow_and_a_block_for_a_question() {
    let place = Place::new();
    let serve = place.serve();
    let url = serve.url();
    let prompt = codex(
        &place,
        "UserPromptSubmit",
        json!({"prompt": "Tidy up, but don't push yet."}),
    );
    hook(&place, &url, &prompt).recorded();
    // A routine step: no answer, so Codex's own flow goes on (an `allow` would be a failed hook).
    let ls = hook(
        &place,
        &url,
        &bash(&place, "PreToolUse", "ls -la", "call_1"),
    );
    ls.recorded();
    // The held push: a block, in warden's words, saying how the person answers.
    let push = hook(
        &place,
        &url,
        &bash(&place, "PreToolUse", "git push origin main", "call_2"),
    );
    let reason = block_reason(&push.json());
    for part in [
        "you said not to",
        "/questions/",
        "tell the person",
        "another way",
    ] {
        assert!(reason.contains(part), "{part:?} not in {reason:?}");
    }
    // `bypassPermissions` is Codex's approval policy `never`: the chat is in Auto.
    let state = chat(&serve, SESSION);
    assert_eq!(state["mode"], "auto", "{state}");
    // The same under --host codex, and a key read is a block too.
    let key = hook_as(
        &place,
        &url,
        &bash(&place, "PreToolUse", "cat ~/.ssh/id_rsa", "call_3"),
        &["--host", "codex"],
    );
    block_reason(&key.json());
}

#[test]
fn a_call_codex_ran_although_warden_blocked_it_is_no_approval() {
    let place = Place::new();
    let serve = place.serve();
    let url = serve.url();
    let prompt = codex(
        &place,
        "UserPromptSubmit",
        json!({"prompt": "Don't push yet."}),
    );
    hook(&place, &url, &prompt).recorded();
    let push = bash(&place, "PreToolUse", "git push origin main", "call_9");
    block_reason(&hook(&place, &url, &push).json());
    // Codex ran it all the same (a failed hook, an older Codex): its PostToolUse.
    let mut ran = bash(&place, "PostToolUse", "git push origin main", "call_9");
    ran["tool_response"] = json!("main -> main");
    let after = hook(&place, &url, &ran);
    assert_eq!(after.json(), json!({}), "{after:?}");
    assert!(
        after.stderr.contains("although warden blocked it"),
        "{after:?}"
    );
    let state = chat(&serve, SESSION);
    let waiting = state["pending"].as_array().into_iter().flatten().any(|q| {
        q["steps"]
            .as_array()
            .is_some_and(|s| s.iter().any(|s| s == "call_9"))
    });
    assert!(waiting, "the question must still wait, unanswered: {state}");
    let marked = state["marks"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|m| m["name"] == "a step warden blocked ran anyway");
    assert!(marked, "the chat records the step that ran anyway: {state}");
    // The same call from Claude Code (no turn_id, no model) would have answered it: the
    // Claude Code path is unchanged (`actors/tests/hook.rs`).
}

#[test]
fn with_no_daemon_codex_gets_a_block_never_a_failed_hook() {
    let place = Place::new();
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap_or_else(|e| panic!("a port: {e}"));
    let url = format!("http://{closed}");
    let push = bash(&place, "PreToolUse", "git push origin main", "call_1");
    let run = hook(&place, &url, &push);
    let reason = block_reason(&run.json());
    assert!(reason.contains("could not judge"), "{reason}");
    // A Claude Code shaped input under --host codex: a block too.
    let mut claude = push.clone();
    if let Some(input) = claude.as_object_mut() {
        input.remove("turn_id");
        input.remove("model");
    }
    let run = hook_as(&place, &url, &claude, &["--host", "codex"]);
    block_reason(&run.json());
    // Without --host, Claude Code's shape asks as before.
    let run = hook(&place, &url, &claude);
    assert_eq!(
        run.json()["hookSpecificOutput"]["permissionDecision"],
        "ask",
        "{run:?}"
    );
    // A bad apply_patch is a block, never a failed hook.
    let serve = place.serve();
    let patch = codex(
        &place,
        "PreToolUse",
        json!({"tool_name": "apply_patch", "tool_input": {"command": "not a patch"}, "tool_use_id": "call_2"}),
    );
    let reason = block_reason(&hook(&place, &serve.url(), &patch).json());
    assert!(reason.contains("Begin Patch"), "{reason}");
}
