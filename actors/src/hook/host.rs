//! Which agent runs the hook, and the answer in the shape that agent obeys.
//!
//! Claude Code reads `permissionDecision` `allow`, `ask` and `deny`. Codex CLI (0.171.0,
//! `codex-rs/hooks/src/engine/output_parser.rs`) can only block a step: `allow` (without
//! `updatedInput`) and `ask` are "unsupported", the hook counts as failed, and the tool runs.
//! So for Codex warden's allow is `{}`, and its question, its refusal and every failure to
//! judge are a block (`permissionDecision: "deny"` with a reason in warden's words).

use super::Answer;

/// The agent that runs the hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Host {
    /// Claude Code: allow, ask and deny are its own decisions.
    ClaudeCode,
    /// Codex CLI: a hook can only block a step.
    Codex,
}

impl Host {
    /// The host an input's shape says: Codex sends `turn_id` and `model` with every event
    /// (its schemas require both), Claude Code neither.
    pub fn of_input(input: &serde_json::Value) -> Host {
        let has = |field: &str| input.get(field).is_some_and(|v| v.is_string());
        if has("turn_id") && has("model") {
            Host::Codex
        } else {
            Host::ClaudeCode
        }
    }

    /// The host an input's first bytes say, for an input that can't be parsed: a `"turn_id"`
    /// key among them is Codex's (it writes the common fields first).
    pub fn of_prefix(head: &[u8]) -> Option<Host> {
        const KEY: &[u8] = b"\"turn_id\"";
        head.windows(KEY.len())
            .any(|w| w == KEY)
            .then_some(Host::Codex)
    }

    /// The host to answer: the one `--host` names; without it, the input's shape. When both
    /// are known and differ, the stricter shape wins (Codex's: anything but allow blocks),
    /// since an answer Codex doesn't read lets its step run.
    pub fn decide(named: Option<Host>, shape: Host) -> Host {
        match (named, shape) {
            (_, Host::Codex) | (Some(Host::Codex), _) => Host::Codex,
            _ => Host::ClaudeCode,
        }
    }
}

/// What warden's answer to a `PreToolUse` becomes for Codex: allow is `{}` (Codex's own
/// flow goes on), ask and deny are a block whose reason says, in warden's words, what warden
/// asks or refuses and how the person answers. Other answers are the same for both hosts.
pub fn for_codex(answer: Answer, question: &Question) -> Answer {
    match answer {
        Answer::Pre {
            decision: "allow", ..
        } => Answer::Nothing,
        Answer::Pre {
            decision: "deny",
            reason,
        } => Answer::Pre {
            decision: "deny",
            reason: format!(
                "warden refuses this step: {reason} Do not look for another way to do it: stop and tell the person what you wanted to do."
            ),
        },
        Answer::Pre { reason, .. } => Answer::Pre {
            decision: "deny",
            reason: asks(&reason, question),
        },
        other => other,
    }
}

/// What is known of warden's question, to say how the person answers it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Question {
    /// The daemon's address.
    pub url: String,
    /// The chat the question waits in.
    pub chat: String,
    /// The question's id (none when it failed to judge: nothing waits).
    pub id: Option<u64>,
}

/// The block's reason when warden asks: its question, and how the person answers it.
fn asks(reason: &str, question: &Question) -> String {
    let how = match question.id {
        Some(id) => format!(
            "The person answers warden's question {id} through warden's API (`POST {}/v1/chats/{}/questions/{id}` with their token, `{{\"answer\": \"always\"}}` or `\"command\"`), or says so in their next message; then the step may be tried again.",
            question.url.trim_end_matches('/'),
            super::daemon::segment(&question.chat),
        ),
        None => "The person answers in their next message; then the step may be tried again."
            .to_string(),
    };
    format!(
        "warden blocked this step until the person says yes: {reason} {how} Stop here and tell the person what you wanted to do and why; do not look for another way to do it."
    )
}

/// A failure to judge, as Codex reads it: a block with the reason (never a failed hook,
/// which Codex would let through).
pub fn failed_for_codex(why: &str) -> Answer {
    Answer::Pre {
        decision: "deny",
        reason: format!(
            "warden could not judge this step ({why}), so it blocked it. Stop here and tell the person: warden must be running (`warden serve`) for steps to go on; do not look for another way to do it."
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_host_is_read_from_the_flag_and_the_input_s_shape() {
        let codex = json!({"session_id": "s", "turn_id": "t", "model": "gpt", "hook_event_name": "PreToolUse"});
        let claude = json!({"session_id": "s", "hook_event_name": "PreToolUse", "permission_mode": "default"});
        let half = json!({"session_id": "s", "turn_id": "t"});
        assert_eq!(Host::of_input(&codex), Host::Codex);
        assert_eq!(Host::of_input(&claude), Host::ClaudeCode);
        assert_eq!(Host::of_input(&half), Host::ClaudeCode);
        let table = [
            (None, Host::ClaudeCode, Host::ClaudeCode),
            (None, Host::Codex, Host::Codex),
            (Some(Host::Codex), Host::ClaudeCode, Host::Codex),
            (Some(Host::ClaudeCode), Host::ClaudeCode, Host::ClaudeCode),
            // Codex's shape under a Claude Code flag: the stricter answer.
            (Some(Host::ClaudeCode), Host::Codex, Host::Codex),
        ];
        for (named, shape, want) in table {
            assert_eq!(Host::decide(named, shape), want, "{named:?} {shape:?}");
        }
        assert_eq!(
            Host::of_prefix(br#"{"session_id":"s","turn_id":"t","cwd":"/"#),
            Some(Host::Codex)
        );
        assert_eq!(Host::of_prefix(br#"{"session_id":"s","cwd":"/"#), None);
    }

    #[test]
    fn codex_gets_a_block_for_everything_but_allow() {
        let question = Question {
            url: "http://127.0.0.1:7411".into(),
            chat: "s 1".into(),
            id: Some(4),
        };
        let allow = Answer::Pre {
            decision: "allow",
            reason: "Fine.".into(),
        };
        assert_eq!(for_codex(allow, &question), Answer::Nothing);
        let ask = Answer::Pre {
            decision: "ask",
            reason: "You said not to push yet.".into(),
        };
        let Answer::Pre { decision, reason } = for_codex(ask, &question) else {
            panic!("ask is not a block for Codex");
        };
        assert_eq!(decision, "deny");
        for part in [
            "You said not to push yet.",
            "question 4",
            "POST http://127.0.0.1:7411/v1/chats/s%201/questions/4",
            "tell the person",
            "do not look for another way",
        ] {
            assert!(reason.contains(part), "{part:?} not in {reason:?}");
        }
        let deny = Answer::Pre {
            decision: "deny",
            reason: "The key.".into(),
        };
        let Answer::Pre { decision, reason } = for_codex(deny, &question) else {
            panic!("deny is not a block for Codex");
        };
        assert_eq!(decision, "deny");
        assert!(reason.starts_with("warden refuses this step: The key."));
        // The rest is Claude Code's and Codex's alike.
        let block = Answer::Block { reason: "x".into() };
        assert_eq!(for_codex(block.clone(), &question), block);
        let Answer::Pre { decision, reason } = failed_for_codex("no daemon") else {
            panic!("a failure is not a block for Codex");
        };
        assert_eq!(decision, "deny");
        assert!(reason.contains("no daemon") && reason.contains("blocked"));
    }
}
