//! Several `warden serve` nodes over one JetStream (`[cluster]`, `docs/cluster.md`), real
//! processes on loopback: every node answers for every chat (placed on one, forwarded there
//! from the others), a task goes where its chat is, a node whose heartbeat can't get through
//! serves nothing, the person's preferences reach every node, and a node killed with SIGKILL
//! has its chats taken over with every acknowledged event and the same verdicts; then, on a
//! cluster of three `nats-server` with replicas 3, one server killed too.

mod cut;
mod fence;
mod fixture;
mod log_out;
mod paused;

use fixture::{Nodes, Warden};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The membership's time to live in these tests: a dead node's chats move within ~2.5 s.
const TTL_MS: u64 = 2_000;

/// How long a test waits for what the cluster does by itself (a takeover, a server's
/// election) before it fails.
const WITHIN: Duration = Duration::from_secs(30);

/// Polls `check` until it answers `Some`, at most [`WITHIN`].
fn eventually<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + WITHIN;
    loop {
        if let Some(value) = check() {
            return value;
        }
        assert!(Instant::now() < deadline, "{what}: not within {WITHIN:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits until every node answers `/healthz` `ok`: each sees every other, before the test
/// sends anything.
fn all_standing(nodes: &Nodes) {
    for node in &nodes.wardens {
        eventually(&format!("{} standing with every node", node.id), || {
            let (_, health) = node.call("GET", "/healthz", None, None);
            (health["ok"] == true).then_some(())
        });
    }
}

fn judge_body(command: &str, work: &str) -> Value {
    json!({"tool_name": "Bash", "tool_input": {"command": command}, "cwd": work})
}

/// The steps whose verdicts a test compares before and after what it does to the nodes.
const PROBES: [&str; 3] = ["git push origin main", "rm -rf build", "ls"];

/// The verdicts of [`PROBES`] in `chat`, asked of `node` (each waited for while it is 503).
fn verdicts_in(node: &Warden, chat: &str, work: &str) -> Vec<String> {
    PROBES
        .iter()
        .map(|probe| {
            eventually(&format!("{probe} in {chat} on {}", node.id), || {
                decision(node, chat, probe, work)
            })
        })
        .collect()
}

/// The decision for `command` in `chat`, asked of `node`; `None` while it answers 503 (the
/// chat's node is gone, or the cluster is electing).
fn decision(node: &Warden, chat: &str, command: &str, work: &str) -> Option<String> {
    let (status, answer) = node.call(
        "POST",
        &format!("/v1/chats/{chat}/peek"),
        None,
        Some(&judge_body(command, work)),
    );
    if status == 503 {
        return None;
    }
    assert_eq!(
        status, 200,
        "peek {chat} {command} on {}: {answer}",
        node.id
    );
    answer["decision"].as_str().map(str::to_string)
}

/// The chat's state as `node` answers it, once it answers 200.
fn state(node: &Warden, chat: &str) -> Value {
    eventually(&format!("the state of {chat} from {}", node.id), || {
        let (status, answer) = node.call("GET", &format!("/v1/chats/{chat}"), None, None);
        (status == 200).then_some(answer)
    })
}

#[test]
fn every_node_answers_for_every_chat_and_a_task_goes_with_its_chat() {
    let Some(mut nodes) = Nodes::start("serve1", 3, TTL_MS) else {
        return;
    };
    let work = nodes.work();
    let token = nodes.token();
    all_standing(&nodes);
    let chats: Vec<String> = (0..12).map(|n| format!("c{n}")).collect();
    for (n, chat) in chats.iter().enumerate() {
        // Each chat opened, told and read through a different node than the next step.
        let a = &nodes.wardens[n % 3];
        let b = &nodes.wardens[(n + 1) % 3];
        a.open_auto(chat, &token);
        b.ok(
            "POST",
            &format!("/v1/chats/{chat}/events"),
            None,
            &json!({"kind": "read", "name": "a web page"}),
        );
        if n % 2 == 0 {
            a.say(chat, &token, "push it");
        }
    }
    // Every node answers the same for every chat: the person's words were heard where the
    // chat is, whichever node they were sent to.
    for (n, chat) in chats.iter().enumerate() {
        let want = if n % 2 == 0 { "allow" } else { "ask" };
        for node in &nodes.wardens {
            assert_eq!(
                decision(node, chat, "git push origin main", &work).as_deref(),
                Some(want),
                "{chat} on {}",
                node.id
            );
        }
        let states: Vec<Value> = nodes.wardens.iter().map(|node| state(node, chat)).collect();
        assert!(
            states.windows(2).all(|w| w[0] == w[1]),
            "{chat}: one state whichever node answers: {states:?}"
        );
        assert_eq!(states[0]["marks"][0]["name"], "a web page", "{chat}");
    }
    // A task made through one node from a chat served by another is served with its chat:
    // it inherits the chat's mark, whichever node is asked.
    let from = &nodes.wardens[2];
    from.ok(
        "POST",
        "/v1/chats/c1/tasks",
        Some(&token),
        &json!({"task": "c1.agent-1"}),
    );
    for node in &nodes.wardens {
        let task = state(node, "c1.agent-1");
        assert_eq!(task["company"], "task", "{task}");
        assert_eq!(task["parent"], "c1", "{task}");
        assert_eq!(task["marks"][0]["name"], "a web page", "inherited: {task}");
        assert_eq!(
            decision(node, "c1.agent-1", "git push origin main", &work).as_deref(),
            Some("ask"),
            "the task on {}",
            node.id
        );
    }
    // The same id asked for under another chat is refused by name.
    let (status, answer) = nodes.wardens[0].call(
        "POST",
        "/v1/chats/c2/tasks",
        Some(&token),
        Some(&json!({"task": "c1.agent-1"})),
    );
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .is_some_and(|e| e.contains("c1.agent-1")),
        "{answer}"
    );
    // A chat's own id asked for as a task of another chat is refused, and the chat is still
    // served as its own, the same on every node (each remembers it as a chat of its own).
    let (status, answer) = nodes.wardens[1].call(
        "POST",
        "/v1/chats/c2/tasks",
        Some(&token),
        Some(&json!({"task": "c3"})),
    );
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"].as_str().is_some_and(|e| e.contains("c3")),
        "{answer}"
    );
    for node in &nodes.wardens {
        let chat = state(node, "c3");
        assert_eq!(chat["marks"][0]["name"], "a web page", "c3 on {}", node.id);
        assert!(chat["parent"].is_null(), "c3 on {}: {chat}", node.id);
    }
    // A request forwarded once is never forwarded again: a hop header on a request for a
    // chat the node places elsewhere is a loop, answered 503 by name.
    let (chat, elsewhere) = chats
        .iter()
        .find_map(|chat| {
            let (_, answer) = nodes.wardens[0].call_with(
                "GET",
                &format!("/v1/chats/{chat}"),
                &[("warden-hop", "n9")],
            );
            answer["error"]
                .as_str()
                .filter(|e| e.contains("a loop"))
                .map(|e| (chat.clone(), e.to_string()))
        })
        .unwrap_or_else(|| panic!("no chat of the twelve is placed off node n0"));
    assert!(elsewhere.contains("`n9`"), "{chat}: {elsewhere}");
    nodes.stop();
}

/// The names of the marks `chat` read, as its records in the stream hold them, in order,
/// The names of the marks in `chat`'s state as `node` serves it, in order.
fn marks_served(node: &Warden, chat: &str) -> Vec<String> {
    state(node, chat)["marks"]
        .as_array()
        .map(|marks| {
            marks
                .iter()
                .filter_map(|m| m["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// read by a log of the test's own.
fn marks_in_stream(settings: &warden_storage::jetstream::Settings, chat: &str) -> Vec<String> {
    let log = warden_storage::EventLog::open_jetstream_as(settings, Some("reader"))
        .unwrap_or_else(|e| panic!("the log: {e}"));
    log.records(chat)
        .unwrap_or_else(|e| panic!("{chat}: {e}"))
        .filter_map(|entry| match entry.ok()?.record.ok()?.event {
            warden::chat::Event::Read { mark } => Some(mark.name),
            _ => None,
        })
        .collect()
}

/// What one write sent to a node was answered.
struct Sent {
    name: String,
    status: u16,
    error: String,
}

fn read(node: &Warden, chat: &str, name: &str) -> Sent {
    let (status, answer) = node.call(
        "POST",
        &format!("/v1/chats/{chat}/events"),
        None,
        Some(&json!({"kind": "read", "name": name})),
    );
    Sent {
        name: name.to_string(),
        status,
        error: answer["error"].as_str().unwrap_or_default().to_string(),
    }
}

/// Whether `node` sees `other` in its live set: a request it places on `other`, marked as
/// forwarded already, is refused as a loop.
fn sees(node: &Warden, chat_of_other: &str) -> bool {
    let (_, answer) = node.call_with(
        "GET",
        &format!("/v1/chats/{chat_of_other}"),
        &[("warden-hop", "n9")],
    );
    answer["error"]
        .as_str()
        .is_some_and(|e| e.contains("a loop"))
}

/// The first of `<prefix>0`…`<prefix>63` that placement gives `node` when `n0` and `n1`
/// are the live set.
fn placed_on(node: &str, prefix: &str) -> String {
    (0..64)
        .map(|n| format!("{prefix}{n}"))
        .find(|chat| warden_storage::cluster::place::owner(chat, ["n0", "n1"]) == Some(node))
        .unwrap_or_else(|| panic!("no chat of 64 placed on {node}"))
}

/// The lease the cluster's bucket holds for `chat`: its holder's id, if any.
fn lease_of(nodes: &Nodes, chat: &str) -> Option<String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("a runtime: {e}"));
    runtime.block_on(async {
        let cluster = warden_storage::cluster::Cluster::connect(
            &nodes.settings(),
            Duration::from_millis(TTL_MS),
        )
        .await
        .unwrap_or_else(|e| panic!("the cluster's buckets: {e}"));
        cluster
            .holder(chat)
            .await
            .unwrap_or_else(|e| panic!("the lease of {chat}: {e}"))
            .map(|lease| lease.node)
    })
}

#[test]
fn a_look_at_a_chat_with_nothing_recorded_takes_no_lease() {
    let Some(mut nodes) = Nodes::start("look1", 2, TTL_MS) else {
        return;
    };
    for node in &nodes.wardens {
        eventually(&format!("{} standing", node.id), || {
            let (status, _) = node.call("GET", "/healthz", None, None);
            (status == 200).then_some(())
        });
    }
    // As on one node: 404, nothing was recorded, whichever node is asked; and no lease taken.
    for chat in ["never", "never.agent-1"] {
        for node in &nodes.wardens {
            let (status, answer) = node.call("GET", &format!("/v1/chats/{chat}"), None, None);
            assert_eq!(status, 404, "{chat} on {}: {answer}", node.id);
            assert_eq!(
                answer["error"],
                format!("nothing was recorded in the chat `{chat}`"),
                "{chat} on {}",
                node.id
            );
        }
        assert_eq!(
            lease_of(&nodes, chat),
            None,
            "a look at {chat} took a lease"
        );
    }
    // Once something is recorded in it, a look is served under the lease like any request.
    nodes.wardens[0].ok(
        "POST",
        "/v1/chats/never/events",
        None,
        &json!({"kind": "read", "name": "a web page"}),
    );
    let holder = lease_of(&nodes, "never");
    assert!(holder.is_some(), "a chat written is served under its lease");
    for node in &nodes.wardens {
        assert_eq!(state(node, "never")["marks"][0]["name"], "a web page");
    }
    assert_eq!(lease_of(&nodes, "never"), holder, "the same holder");
    nodes.stop();
}

#[test]
fn a_peek_at_a_chat_with_nothing_recorded_takes_no_lease() {
    let Some(mut nodes) = Nodes::start("peek1", 2, TTL_MS) else {
        return;
    };
    let work = nodes.work();
    all_standing(&nodes);
    // Judged in a first state through either node (one forwards it to the chat's node), as
    // on one node; nothing recorded, so no lease taken and nothing left in memory.
    for node in &nodes.wardens {
        for (command, expected) in [("ls", "allow"), ("git push --force origin main", "ask")] {
            assert_eq!(
                decision(node, "unseen", command, &work).as_deref(),
                Some(expected),
                "{command} through {}",
                node.id
            );
        }
    }
    assert_eq!(lease_of(&nodes, "unseen"), None, "a peek took a lease");
    for node in &nodes.wardens {
        let (status, answer) = node.call("GET", "/v1/chats/unseen", None, None);
        assert_eq!(status, 404, "the peek recorded nothing: {answer}");
    }
    // A judge records: from then on the chat is served under its lease, peeks too.
    let (status, answer) = nodes.wardens[0].call(
        "POST",
        "/v1/chats/unseen/judge",
        None,
        Some(&judge_body("ls", &work)),
    );
    assert_eq!(status, 200, "{answer}");
    let holder = lease_of(&nodes, "unseen");
    assert!(holder.is_some(), "a chat written is served under its lease");
    assert_eq!(
        decision(&nodes.wardens[1], "unseen", "ls", &work).as_deref(),
        Some("allow")
    );
    assert_eq!(lease_of(&nodes, "unseen"), holder, "the same holder");
    nodes.stop();
}

#[test]
fn the_event_feed_says_whose_it_is() {
    let Some(mut nodes) = Nodes::start("feed1", 2, TTL_MS) else {
        return;
    };
    let token = nodes.token();
    for node in &nodes.wardens {
        let head = node.events_head(&token);
        assert!(
            head.to_ascii_lowercase()
                .contains(&format!("warden-node: {}\r\n", node.id)),
            "{head}"
        );
        assert!(
            head.contains(&format!("\"node\":\"{}\"", node.id)),
            "ready names the node: {head}"
        );
    }
    nodes.stop();
}

#[test]
fn the_feed_of_every_node_carries_what_another_node_wrote() {
    let Some(mut nodes) = Nodes::start("feed2", 2, TTL_MS) else {
        return;
    };
    let token = nodes.token();
    all_standing(&nodes);
    let (n0, n1) = (&nodes.wardens[0], &nodes.wardens[1]);
    let mut all = n0.events(&token, "?nodes=all");
    let mut own = n0.events(&token, "");
    let head = all.read_until(fixture::ready_whole, Duration::from_secs(10));
    assert!(
        head.contains("\"nodes\":\"all\"") && head.contains(&format!("\"node\":\"{}\"", n0.id)),
        "ready says every node's, and which node answers: {head}"
    );
    own.read_until(fixture::ready_whole, Duration::from_secs(10));
    // A chat the other node serves, opened there: its writer, not n0's, writes the record.
    let chat = placed_on(&n1.id, "elsewhere");
    n1.open_auto(&chat, &token);
    let seen = all.read_until(|text| text.contains(&chat), Duration::from_secs(10));
    let opened = seen
        .split("\n\n")
        .find(|event| event.contains(&chat))
        .unwrap_or_else(|| panic!("n0's feed of every node never carried {chat}: {seen}"));
    assert!(opened.contains("event: opened"), "{opened}");
    assert!(
        opened.contains("\nid: "),
        "with its sequence number: {opened}"
    );
    // The node's own feed is its own writes only, as before.
    let mine = own.read_until(|text| text.contains(&chat), Duration::from_secs(1));
    assert!(
        !mine.contains(&chat),
        "n0's own feed carried n1's write: {mine}"
    );
    // A value other than `all` is refused by name.
    let (status, answer) = n0.call("GET", "/v1/events?nodes=some", Some(&token), None);
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .is_some_and(|e| e.contains("`some`")),
        "{answer}"
    );
    nodes.stop();
}

#[test]
fn a_node_that_is_not_standing_serves_nothing_and_the_hook_asks() {
    let Some(mut nodes) = Nodes::start("stand1", 1, TTL_MS) else {
        return;
    };
    let work = nodes.work();
    let node = &nodes.wardens[0];
    node.ok(
        "POST",
        "/v1/chats/c1/events",
        None,
        &json!({"kind": "read", "name": "a web page"}),
    );
    nodes.nats.servers[0].kill();
    let node = &nodes.wardens[0];
    let (status, health) = eventually("healthz says the node is not standing", || {
        let (status, health) = node.call("GET", "/healthz", None, None);
        (status == 503).then_some((status, health))
    });
    assert_eq!(status, 503);
    assert_eq!(health["cluster"]["standing"], false, "{health}");
    let (status, answer) = node.call(
        "POST",
        "/v1/chats/c1/judge",
        None,
        Some(&judge_body("ls", &work)),
    );
    assert_eq!(status, 503, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .is_some_and(|e| e.contains("not standing")),
        "{answer}"
    );
    nodes.nats.servers[0]
        .restart()
        .unwrap_or_else(|e| panic!("nats-server: {e}"));
    let node = &nodes.wardens[0];
    eventually("standing again once the server is back", || {
        let (status, _) = node.call("GET", "/healthz", None, None);
        (status == 200).then_some(())
    });
    assert_eq!(
        decision(node, "c1", "git push origin main", &work).as_deref(),
        Some("ask"),
        "the chat as it was"
    );
    nodes.stop();
}

#[test]
fn a_preference_changed_on_one_node_holds_on_every_other() {
    let Some(mut nodes) = Nodes::start("prefs1", 3, TTL_MS) else {
        return;
    };
    let token = nodes.token();
    let mut seen = Vec::new();
    for run in 0..7 {
        let note = format!("I work on acme/app, run {run}.");
        let by = &nodes.wardens[run % 3];
        by.ok(
            "PUT",
            "/v1/preferences/note",
            Some(&token),
            &json!({"note": note}),
        );
        let changed = Instant::now();
        for node in &nodes.wardens {
            eventually(&format!("the note on {}", node.id), || {
                let (_, preferences) = node.call("GET", "/v1/preferences", Some(&token), None);
                (preferences["note"] == note.as_str()).then_some(())
            });
        }
        seen.push(changed.elapsed());
    }
    // A tool's setting, changed on one node, judged on another.
    nodes.wardens[0].ok(
        "PUT",
        "/v1/preferences/settings",
        Some(&token),
        &json!({"app": "Yazio", "tool": "add_food", "setting": "off"}),
    );
    for node in &nodes.wardens {
        eventually(&format!("the setting on {}", node.id), || {
            let (_, preferences) = node.call("GET", "/v1/preferences", Some(&token), None);
            (preferences["settings"]["Yazio:add_food"] == "off").then_some(())
        });
    }
    // A node that appended and died before it signalled: the record is in the log, no signal
    // names it. Written here by a log of the test's own, the other nodes find it by their
    // periodic check of the log's newest preferences record.
    let unsignalled = "written by a node that died before its signal";
    {
        let log = warden_storage::EventLog::open_jetstream(&nodes.settings())
            .unwrap_or_else(|e| panic!("the log: {e}"));
        log.append(
            warden::preferences::STREAM,
            &warden::chat::Record {
                at_ms: 0,
                event: warden::chat::Event::NoteChanged {
                    note: unsignalled.to_string(),
                },
            },
        )
        .unwrap_or_else(|e| panic!("append: {e}"));
    }
    let appended = Instant::now();
    for node in &nodes.wardens {
        eventually(&format!("the unsignalled note on {}", node.id), || {
            let (_, preferences) = node.call("GET", "/v1/preferences", Some(&token), None);
            (preferences["note"] == unsignalled).then_some(())
        });
    }
    let unsignalled_took = appended.elapsed();
    seen.sort();
    eprintln!(
        "a preference on every node of three after (7 runs, sorted): {seen:?}; median {:?}; without its signal: {unsignalled_took:?}",
        seen[seen.len() / 2]
    );
    nodes.stop();
}

/// What a chat of the proof was told and shown, acknowledged: the marks it read.
#[derive(Default)]
struct Told {
    marks: Vec<String>,
}

#[test]
fn a_node_and_then_a_server_killed_lose_nothing_acknowledged_and_change_no_verdict() {
    let Some(mut nodes) = Nodes::start_replicated("proof1", 3, TTL_MS) else {
        return;
    };
    let work = nodes.work();
    let token = nodes.token();
    let chats: Vec<String> = (0..9).map(|n| format!("p{n}")).collect();
    let mut told: BTreeMap<String, Told> = BTreeMap::new();
    let mut mark = 0;
    // A round of acknowledged events on every chat, each sent to any node.
    let mut round = |nodes: &Nodes, told: &mut BTreeMap<String, Told>, alive: &[usize]| {
        for (n, chat) in chats.iter().enumerate() {
            let node = &nodes.wardens[alive[(n + mark) % alive.len()]];
            let name = format!("page {mark}");
            mark += 1;
            let (status, answer) = node.call(
                "POST",
                &format!("/v1/chats/{chat}/events"),
                None,
                Some(&json!({"kind": "read", "name": name})),
            );
            // Only what was acknowledged counts: a 5xx (a node gone, the log failing while
            // the servers elect a new leader) is not, and says why.
            if status == 200 {
                told.entry(chat.clone()).or_default().marks.push(name);
            } else {
                assert!(
                    (500..=503).contains(&status) && answer["error"].is_string(),
                    "{chat} on {}: {status} {answer}",
                    node.id
                );
            }
        }
    };
    let acknowledged_now =
        |told: &BTreeMap<String, Told>| -> usize { told.values().map(|t| t.marks.len()).sum() };
    for (n, chat) in chats.iter().enumerate() {
        let node = &nodes.wardens[n % 3];
        node.open_auto(chat, &token);
        if n % 2 == 0 {
            node.say(chat, &token, "push it");
        }
    }
    round(&nodes, &mut told, &[0, 1, 2]);
    round(&nodes, &mut told, &[0, 1, 2]);
    let verdicts = |nodes: &Nodes, at: usize| -> BTreeMap<(String, &str), String> {
        let mut all = BTreeMap::new();
        for chat in &chats {
            for probe in PROBES {
                let node = &nodes.wardens[at];
                let decided = eventually(&format!("{chat} {probe} on {}", node.id), || {
                    decision(node, chat, probe, &work)
                });
                all.insert((chat.clone(), probe), decided);
            }
        }
        all
    };
    let before = verdicts(&nodes, 0);
    for (n, chat) in chats.iter().enumerate() {
        let want = if n % 2 == 0 { "allow" } else { "ask" };
        assert_eq!(
            before[&(chat.clone(), "git push origin main")],
            want,
            "the person's words decide the push in {chat}"
        );
    }

    // One warden node killed with SIGKILL: its chats are taken over by the others.
    let killed = nodes.wardens.remove(2);
    let killed_id = killed.id.clone();
    killed.kill_9();
    let took = Instant::now();
    for chat in &chats {
        eventually(&format!("{chat} served after {killed_id} died"), || {
            decision(&nodes.wardens[0], chat, "ls", &work)
        });
    }
    eprintln!(
        "every chat served again {:?} after the SIGKILL",
        took.elapsed()
    );
    round(&nodes, &mut told, &[0, 1]);
    assert_eq!(
        verdicts(&nodes, 1),
        before,
        "the same verdicts after the takeover"
    );

    // Then one nats-server killed with SIGKILL: replicas 3 keep every acknowledged event,
    // and a new leader is elected for each stream the dead one led. The one the dead node
    // used: each node here names one server in its url, so a live node whose server is gone
    // would wait for it (benches/load/cluster.sh names every server in every url and kills
    // one a live node uses).
    nodes.nats.servers[2].kill();
    let killed_at = Instant::now();
    let before_kill = acknowledged_now(&told);
    // Writes fail while the streams the dead server led elect another leader; the nodes'
    // writers open the log again by themselves.
    // Generous: an append waits out the streams' election (2.5 to 8 s seen) and a replay's
    // consumer placed on the dead server is made again (2 s a try) while the servers left
    // elect new leaders. Seen from 88 ms to 71 s on the shared 2-core machine before appends
    // rode out an election (docs/cluster.md, "Not built yet"): a bound on liveness, not a
    // measure; what the test proves is below it.
    let elect_within = Duration::from_secs(240);
    let deadline = Instant::now() + elect_within;
    while acknowledged_now(&told) < before_kill + chats.len() {
        assert!(
            Instant::now() < deadline,
            "no round acknowledged again within {elect_within:?} of the server's death:\n{}",
            nodes.logs()
        );
        round(&nodes, &mut told, &[0, 1]);
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!(
        "a whole round acknowledged again {:?} after the server's SIGKILL",
        killed_at.elapsed()
    );
    round(&nodes, &mut told, &[0, 1]);
    assert_eq!(
        verdicts(&nodes, 0),
        before,
        "the same verdicts with a server gone"
    );

    // Every acknowledged mark is in each chat's state, once, in the order acknowledged.
    let mut acknowledged = 0;
    for chat in &chats {
        let state = state(&nodes.wardens[1], chat);
        let marks: Vec<&str> = state["marks"]
            .as_array()
            .map(|marks| marks.iter().filter_map(|m| m["name"].as_str()).collect())
            .unwrap_or_default();
        let want: Vec<&str> = told[chat].marks.iter().map(String::as_str).collect();
        let missing: Vec<&&str> = want.iter().filter(|m| !marks.contains(m)).collect();
        assert!(
            missing.is_empty(),
            "{chat}: acknowledged and lost: {missing:?}"
        );
        acknowledged += want.len();
    }
    // And in the stream itself, read back after every warden stopped: every acknowledged
    // record there, none twice.
    nodes.stop();
    // Read back with the dead server started again on its store (nats-server 2.9 with one
    // peer of three gone times out making the consumers of a replay, now and then). It holds
    // nothing the other two did not acknowledge and catches up from them, but until it has,
    // it answers the direct gets a replay starts with from what it had: the whole stream is
    // read again (a new log, its horizon the stream's end) until a read shows every
    // acknowledged mark once, or the bound passes and what is missing is named. A mark lost
    // is never there however often it is read.
    nodes.nats.servers[2]
        .restart()
        .unwrap_or_else(|e| panic!("nats-server: {e}"));
    let read_within = Duration::from_secs(60);
    let deadline = Instant::now() + read_within;
    let mut reads = 0;
    loop {
        reads += 1;
        let wrong = match warden_storage::EventLog::open_jetstream(&nodes.settings()) {
            Err(e) => vec![format!("the stream not opened: {e}")],
            Ok(log) => {
                let mut wrong = Vec::new();
                for chat in &chats {
                    let mut names = Vec::new();
                    let read = log.records(chat).map(|entries| {
                        for entry in entries {
                            if let Ok(Ok(warden::chat::Record {
                                event: warden::chat::Event::Read { mark },
                                ..
                            })) = entry.map(|entry| entry.record)
                            {
                                names.push(mark.name);
                            }
                        }
                    });
                    if let Err(e) = read {
                        wrong.push(format!("{chat} not read: {e}"));
                        continue;
                    }
                    for name in &told[chat].marks {
                        let n = names.iter().filter(|m| *m == name).count();
                        if n != 1 {
                            wrong.push(format!(
                                "{chat}: `{name}` acknowledged, {n} times in the stream"
                            ));
                        }
                    }
                }
                wrong
            }
        };
        if wrong.is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "after {reads} reads in {read_within:?}: {wrong:?}"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    eprintln!("the stream read back whole at read {reads}");
    eprintln!(
        "{acknowledged} acknowledged marks over {} chats, every one in the stream once",
        chats.len()
    );
}
