//! A hook input of every event, in Claude Code's and Codex's shapes, with any tool name and
//! any input: read as a request, it is judged or refused, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warden::facts::FakeFacts;
use warden::protocol::{Defaults, judge_line};

const EVENTS: &[&str] = &[
    "SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse",
    "PostToolUseFailure", "PostToolBatch", "SubagentStart", "SubagentStop", "Stop",
];

const TOOLS: &[&str] = &[
    "Bash", "PowerShell", "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "WebFetch",
    "WebSearch", "Agent", "apply_patch", "spawn_agent", "view_image", "mcp__slack__send",
    "CronCreate", "SendMessage",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest).into_owned();
    let input: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|_| serde_json::json!({ "command": text }));
    let event = EVENTS[usize::from(pick) % EVENTS.len()];
    let tool = TOOLS[usize::from(pick / 16) % TOOLS.len()];
    let request = serde_json::json!({
        "session_id": "s",
        "turn_id": "t",
        "hook_event_name": event,
        "permission_mode": "bypassPermissions",
        "cwd": "/home/user/app",
        "tool_name": tool,
        "tool_input": input,
        "tool_use_id": "call_1",
    });
    let answer = judge_line(&request.to_string(), &Defaults::new("/home/user/app"), &FakeFacts::unknown());
    assert!(serde_json::from_str::<serde_json::Value>(&answer).is_ok(), "{answer}");
});
