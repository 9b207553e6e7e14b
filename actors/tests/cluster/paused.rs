//! The fence end to end, two real `warden serve` processes on one `nats-server`
//! (`docs/cluster.md`, "The fence"): node `n0` serves a chat under a steady stream of writes;
//! it is stopped with SIGSTOP past its lease, as a long pause would stop it, with whatever it
//! had in hand; `n1` takes the chat over and writes it; `n0` goes on with SIGCONT. Whatever
//! `n0` still tries to write of the chat is refused (503, the hook asks), nothing of it is
//! stored, nothing acknowledged is lost, and every verdict is the one before.

use super::fixture::{Nodes, Warden};
use super::{
    Sent, TTL_MS, decision, eventually, marks_in_stream, marks_served, placed_on, read, sees,
    state, verdicts_in,
};
use std::sync::atomic::{AtomicBool, Ordering};

/// How many connections write the chat through `n0` at once.
const WRITERS: usize = 4;

#[test]
fn a_node_paused_past_its_lease_cannot_write_after_another_took_its_chat() {
    let Some(mut nodes) = Nodes::start("pause1", 2, TTL_MS) else {
        return;
    };
    let work = nodes.work();
    let token = nodes.token();
    let chat = placed_on("n0", "s");
    let of_n1 = placed_on("n1", "s");
    let of_n0 = chat.clone();
    eventually("n0 and n1 see each other", || {
        (sees(&nodes.wardens[0], &of_n1) && sees(&nodes.wardens[1], &of_n0)).then_some(())
    });
    let (n0, n1) = (&nodes.wardens[0], &nodes.wardens[1]);
    n0.open_auto(&chat, &token);
    n0.say(&chat, &token, "push it");
    let verdicts = |node: &Warden| verdicts_in(node, &chat, &work);
    let before = verdicts(n1);
    assert_eq!(before[0], "allow", "the person's words decide the push");

    // n0 writes the chat steadily, on four connections, so that writes are in hand when it
    // stops; n1's writes come once it has taken the chat over.
    let writing = AtomicBool::new(true);
    let (by_n0, by_n1) = std::thread::scope(|scope| {
        let writers: Vec<_> = (0..WRITERS)
            .map(|w| {
                let (writing, chat) = (&writing, &chat);
                scope.spawn(move || {
                    let mut sent = Vec::new();
                    let mut k = 0;
                    while writing.load(Ordering::SeqCst) {
                        sent.push(read(n0, chat, &format!("slow {w}-{k}")));
                        k += 1;
                    }
                    sent
                })
            })
            .collect();
        // Some acknowledged first, then the pause, with writes in hand.
        eventually("n0 acknowledges writes", || {
            let (_, state) = n1.call("GET", &format!("/v1/chats/{chat}"), None, None);
            (state["marks"].as_array().map_or(0, Vec::len) >= 20).then_some(())
        });
        n0.signal("STOP");
        // n1 drops n0 from its live set by its time to live (asked without a forward to the
        // stopped node), then takes the chat's lease and the chat over in the log (a marker
        // past n0's end) and serves it: well within the runtime's 10 s bound on a call, so
        // what n0 has in hand is still in hand when it goes on.
        eventually("n1 drops n0 from its live set", || {
            (!sees(n1, &chat)).then_some(())
        });
        let mut by_n1 = Vec::new();
        for k in 0..10 {
            let sent = eventually(&format!("n1 writes {chat} with n0 stopped"), || {
                let sent = read(n1, &chat, &format!("taker {k}"));
                (sent.status == 200).then_some(sent)
            });
            by_n1.push(sent);
        }
        n0.signal("CONT");
        // n0 goes on with what it had in hand, then finds itself out of the live set, joins
        // again and takes the chat back (reading what n1 wrote) once the heartbeat lands.
        eventually("n0 serves the chat again after the pause", || {
            let (status, _) = n0.call("GET", "/healthz", None, None);
            (status == 200 && decision(n0, &chat, "ls", &work).is_some()).then_some(())
        });
        writing.store(false, Ordering::SeqCst);
        let by_n0: Vec<Sent> = writers
            .into_iter()
            .flat_map(|writer| {
                writer
                    .join()
                    .unwrap_or_else(|_| panic!("a writing thread panicked"))
            })
            .collect();
        (by_n0, by_n1)
    });

    // Every answer of n0's is a 200 or a 5xx that says why (or none, for a write the client
    // gave up on while n0 was stopped); a write refused by its fence or for a node not
    // standing stores nothing.
    let mut fenced = 0;
    let mut not_standing = 0;
    for sent in &by_n0 {
        if sent.status == 200 || sent.status == 0 {
            continue;
        }
        assert!(
            (500..=503).contains(&sent.status) && !sent.error.is_empty(),
            "{}: {} {}",
            sent.name,
            sent.status,
            sent.error
        );
        if sent.error.contains("refused and nothing of it stored") {
            fenced += 1;
        } else if sent.error.contains("not standing") {
            not_standing += 1;
        }
    }
    let acknowledged: Vec<&str> = by_n0
        .iter()
        .chain(&by_n1)
        .filter(|sent| sent.status == 200)
        .map(|sent| sent.name.as_str())
        .collect();
    let refused: Vec<&str> = by_n0
        .iter()
        .filter(|sent| {
            sent.status == 503
                && (sent.error.contains("refused and nothing of it stored")
                    || sent.error.contains("not standing"))
        })
        .map(|sent| sent.name.as_str())
        .collect();
    for sent in by_n0.iter().filter(|sent| sent.status != 200) {
        eprintln!(
            "n0: `{}` answered {}: {}",
            sent.name, sent.status, sent.error
        );
    }
    let count = |status: u16| by_n0.iter().filter(|sent| sent.status == status).count();
    eprintln!(
        "n0 sent {} writes: {} acknowledged, {fenced} refused by the fence, {not_standing} refused as not standing, {} other 5xx, {} unanswered",
        by_n0.len(),
        count(200),
        by_n0.len() - count(200) - count(0) - fenced - not_standing,
        count(0),
    );

    // One state whichever node answers, and it is the stream's: every acknowledged mark
    // once, no refused one, in the stream's order.
    let served: Vec<String> = marks_served(&nodes.wardens[1], &chat);
    assert_eq!(
        state(&nodes.wardens[0], &chat),
        state(&nodes.wardens[1], &chat),
        "one state"
    );
    let stream = marks_in_stream(&nodes.settings(), &chat);
    for name in &acknowledged {
        let n = stream.iter().filter(|m| m == name).count();
        assert_eq!(n, 1, "`{name}` acknowledged, {n} times in the stream");
    }
    for name in &refused {
        assert!(
            !stream.iter().any(|m| m == name),
            "`{name}` refused, and in the stream"
        );
    }
    assert_eq!(served, stream, "the state served is the stream's");
    assert_eq!(
        verdicts(&nodes.wardens[0]),
        before,
        "the same verdicts on n0"
    );
    assert_eq!(
        verdicts(&nodes.wardens[1]),
        before,
        "the same verdicts on n1"
    );
    nodes.stop();
}
