//! One Claude Code session end to end, through the real binaries: `warden serve` on a port of
//! its own and `warden hook` fed the recorded hook inputs in `tests/e2e/`. The person asks for
//! a README fix, the agent reads a web page that tells it to push, and the push asks; the
//! daemon is killed with SIGKILL and started again on the same data folder, and the same push
//! asks for the same reason. Another session, whose person asked for the push and which read
//! nothing, is allowed it: a chat's state is its own.

use crate::common::{Place, chat, fixture, hook};
use serde_json::json;

const SESSION: &str = "3b9d6c1e-8f2a-4c7d-9e05-1a4b7c2d8e6f";
const OTHER_SESSION: &str = "c0e5a7d2-19b4-4f3e-8a6c-5d2e9b1f7a34";
const PAGE: &str = "https://www.markdownguide.org/basic-syntax/";

#[test]
fn a_session_that_read_a_page_is_asked_about_a_push_before_and_after_a_kill_9() {
    let place = Place::new();
    // The hook inputs' `cwd`: a real repository, whose `origin` the daemon reads with git.
    let cwd = json!({"cwd": place.work()});
    let input = |name: &str| fixture(name, &cwd);
    let serve = place.serve();
    let url = serve.url();

    // (a) The person's prompt: the chat is opened, a turn begins, their words are recorded.
    hook(&place, &url, &input("user_prompt_submit.json")).recorded();
    let state = chat(&serve, SESSION);
    assert_eq!(
        state["mode"], "auto",
        "Claude Code's default is auto: {state}"
    );
    assert_eq!(state["marks"], json!([]), "{state}");

    // (b) Fetching a page is allowed.
    let (decision, reason) = hook(&place, &url, &input("pre_tool_use_web_fetch.json")).decision();
    assert_eq!(decision, "allow", "{reason}");

    // (c) What the page said marks the chat.
    hook(&place, &url, &input("post_tool_use_web_fetch.json")).recorded();
    let marks = json!([{"name": "a web page", "provenance": PAGE}]);
    assert_eq!(chat(&serve, SESSION)["marks"], marks);

    // (d) The push the page asked for, which the person didn't: asked.
    let push = input("pre_tool_use_push.json");
    let (decision, reason) = hook(&place, &url, &push).decision();
    assert_eq!(decision, "ask", "{reason}");
    assert_eq!(
        reason, "Push main to origin, after this chat read a web page.",
        "the reason names the push and what the chat read"
    );
    let state = chat(&serve, SESSION);
    assert_eq!(
        state["pending"][0]["class"], "git.push",
        "the question waits for the person: {state}"
    );

    // kill -9, and a new daemon on the same data folder (on another port).
    serve.kill_9();
    let serve = place.serve();
    let url = serve.url();
    let state = chat(&serve, SESSION);
    assert_eq!(state["marks"], marks, "the mark is in the log: {state}");
    let again = hook(&place, &url, &push).decision();
    assert_eq!(
        again,
        (decision.clone(), reason.clone()),
        "the same push, the same answer after a kill -9"
    );

    // Another session: its person asked for the push, and it read nothing.
    hook(&place, &url, &input("user_prompt_submit_push.json")).recorded();
    let (decision, reason) =
        hook(&place, &url, &input("pre_tool_use_push_other_session.json")).decision();
    assert_eq!(decision, "allow", "{reason}");
    assert!(!reason.contains("web page"), "{reason}");
    let other = chat(&serve, OTHER_SESSION);
    assert_eq!(other["marks"], json!([]), "{other}");
    assert_eq!(other["pending"], json!([]), "{other}");
    assert_eq!(
        chat(&serve, SESSION)["marks"],
        marks,
        "the first session's state is untouched"
    );

    // The first session is still asked: nothing the other session said reaches it.
    assert_eq!(hook(&place, &url, &push).decision().0, "ask");

    // The person let the push through in Claude Code's dialog, and it ran: their yes
    // answers warden's newest question about it, once.
    let waiting = |state: &serde_json::Value| -> Vec<u64> {
        state["pending"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["id"].as_u64())
            .collect()
    };
    let before = waiting(&chat(&serve, SESSION));
    let newest = before.iter().max().copied();
    assert!(newest.is_some(), "questions wait: {before:?}");
    hook(&place, &url, &input("post_tool_use_push.json")).recorded();
    let after = waiting(&chat(&serve, SESSION));
    assert_eq!(after.len() + 1, before.len(), "{before:?} → {after:?}");
    assert!(newest.is_some_and(|id| !after.contains(&id)), "{after:?}");
}
