//! `GET /v1/events`: the person's token or nothing; every event after the last one seen,
//! after a reconnect, once each and in order; then the live ones.

use super::{Said, bearer, chat_that_read, open_stream, push};
use crate::common::{Place, ok};
use serde_json::json;

#[test]
fn a_stream_is_the_persons_own() {
    let place = Place::new();
    let serve = place.serve();
    let (status, _, body) = open_stream(&serve, &[], "");
    assert_eq!(status, 401, "{body}");
    let wrong = format!("Bearer {}", "0".repeat(64));
    let (status, _, body) = open_stream(&serve, &[("Authorization", &wrong)], "");
    assert_eq!(status, 403, "{body}");
    let (status, _, body) = open_stream(
        &serve,
        &[("Authorization", &bearer(&place)), ("Last-Event-ID", "x1")],
        "",
    );
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("`Last-Event-ID`: `x1`"), "{body}");
    let auth = bearer(&place);
    let (status, _, body) = open_stream(&serve, &[("Authorization", &auth)], "?nodes=one");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("nodes: `one` is not taken"), "{body}");
}

#[test]
fn on_one_node_every_node_s_stream_is_its_own() {
    let place = Place::new();
    let serve = place.serve();
    let auth = bearer(&place);
    chat_that_read(&serve, &place, "c1");
    let (status, stream, body) =
        open_stream(&serve, &[("Authorization", &auth)], "?nodes=all&after=0");
    assert_eq!(status, 200, "{body}");
    let mut stream = stream.unwrap_or_else(|| panic!("no stream"));
    let ready = stream.next();
    assert_eq!(ready.event, "ready", "{ready:?}");
    assert_eq!(ready.data["seq"], 0);
    let opened = stream.next_event();
    assert_eq!(opened.event, "opened", "{opened:?}");
    assert_eq!(opened.data["chat"], "c1");
}

#[test]
fn a_reconnecting_client_misses_nothing_and_sees_nothing_twice() {
    let place = Place::new();
    let serve = place.serve();
    let token = place.token();
    let auth = bearer(&place);
    chat_that_read(&serve, &place, "c1");

    // From the start of the log: the chat opened (what it read is not an event of the stream).
    let (_, stream, _) = open_stream(&serve, &[("Authorization", &auth)], "?after=0");
    let mut stream = stream.unwrap_or_else(|| panic!("no stream"));
    let ready = stream.next();
    assert_eq!(
        (ready.event.as_str(), ready.id),
        ("ready", None),
        "{ready:?}"
    );
    assert_eq!(ready.data["seq"], 0);
    let opened = stream.next_event();
    assert_eq!(opened.event, "opened", "{opened:?}");
    assert_eq!(opened.data["chat"], "c1");
    assert_eq!(opened.data["mode"], "auto");

    // A question asked arrives live, with its card.
    let question = push(&serve, &place, "c1", "toolu_1", "feature/login");
    let asked = stream.next_event();
    assert_eq!(asked.event, "asked", "{asked:?}");
    assert_eq!(asked.data["question"], question);
    assert_eq!(asked.data["tool"], "Bash");
    assert_eq!(asked.data["class"], "git.push");
    assert_eq!(
        asked.data["reason"],
        "Push feature/login to origin, after this chat read a web page."
    );
    assert_eq!(asked.data["offers"]["rule"], "git push origin feature/*");
    assert_eq!(asked.data["step"]["kind"], "command");
    assert_eq!(asked.data["step"]["text"], "git push origin feature/login");
    let seen = asked.id.unwrap_or_else(|| panic!("no id: {asked:?}"));
    assert!(seen > opened.id.unwrap_or(0));
    assert_eq!(asked.data["seq"], seen);
    drop(stream);

    // While nobody listens: the step runs (its running answers it), another chat opens,
    // the person keeps a note, a second chat asks, and a task is made.
    ok(
        &serve,
        "POST",
        &format!("/v1/chats/c1/questions/{question}"),
        Some(&token),
        &json!({"answer": "once", "ran": "toolu_1"}),
    );
    chat_that_read(&serve, &place, "c2");
    ok(
        &serve,
        "PUT",
        "/v1/preferences/note",
        Some(&token),
        &json!({"note": "I work on acme/app."}),
    );
    let second = push(&serve, &place, "c2", "toolu_2", "main");
    ok(
        &serve,
        "POST",
        &format!("/v1/chats/c2/questions/{second}"),
        Some(&token),
        &json!({"answer": "deny"}),
    );

    // Reconnected from the last id it saw: exactly what it missed, in order, then live.
    let last = seen.to_string();
    let (_, stream, _) = open_stream(
        &serve,
        &[("Authorization", &auth), ("Last-Event-ID", &last)],
        "",
    );
    let mut stream = stream.unwrap_or_else(|| panic!("no stream"));
    let mut missed: Vec<Said> = Vec::new();
    for _ in 0..5 {
        missed.push(stream.next_event());
    }
    let kinds: Vec<(&str, &str)> = missed
        .iter()
        .map(|s| {
            (
                s.event.as_str(),
                s.data["chat"]
                    .as_str()
                    .unwrap_or(s.data["change"].as_str().unwrap_or("")),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("answered", "c1"),
            ("opened", "c2"),
            ("preference", "note"),
            ("asked", "c2"),
            ("answered", "c2"),
        ],
        "{missed:?}"
    );
    let ids: Vec<u64> = missed.iter().map(|s| s.id.unwrap_or(0)).collect();
    assert!(
        ids[0] > seen,
        "nothing it saw comes again: {ids:?} after {seen}"
    );
    assert!(
        ids.windows(2).all(|w| w[0] < w[1]),
        "in the log's order: {ids:?}"
    );
    assert_eq!(
        missed[0].data["by"], "step",
        "the step having run answered it"
    );
    assert_eq!(missed[0].data["step"], "toolu_1");
    assert_eq!(missed[0].data["answer"], "once");
    assert_eq!(missed[2].data["note"], "I work on acme/app.");
    assert_eq!(missed[3].data["question"], second);
    assert_eq!(missed[4].data["by"], "person");
    assert_eq!(missed[4].data["answer"], "deny");

    // And then what happens next, live.
    ok(
        &serve,
        "POST",
        "/v1/chats/c2/events",
        Some(&token),
        &json!({"kind": "stopped", "stopped": true}),
    );
    let stopped = stream.next_event();
    assert_eq!(stopped.event, "stopped", "{stopped:?}");
    assert_eq!(stopped.data["chat"], "c2");
    assert!(stopped.id > missed[4].id);

    // An open stream doesn't hold warden up when it stops: SIGTERM ends it at once.
    let started = std::time::Instant::now();
    serve.terminate();
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "stopping waited {:?} on the stream",
        started.elapsed()
    );
    assert!(stream.ended(), "the stream ends with warden");
}
