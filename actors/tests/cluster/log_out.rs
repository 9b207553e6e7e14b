//! A node whose log can't be written leaves the live set, and comes back once it is written
//! again (`docs/cluster.md`, "Serving"): two real `warden serve` nodes on one `nats-server`,
//! `n0` through a proxy that cuts its log's connections alone (its membership's go on, as
//! when the log's connection is broken and the membership's is not). Its chat is served by
//! `n1` meanwhile, through either node; once the log's connections go through again `n0`
//! writes again, steps back in and takes its chat back with what `n1` wrote; nothing
//! acknowledged is lost, nothing refused is stored, every verdict is the one before.

use super::cut::Cut;
use super::fixture::Nodes;
use super::{
    Sent, TTL_MS, eventually, lease_of, marks_in_stream, marks_served, placed_on, read, sees,
    verdicts_in,
};
use crate::common::nats::{NatsCluster, NatsServer};

#[test]
fn a_node_whose_log_fails_leaves_the_live_set_and_comes_back_once_it_is_written() {
    let Some(server) = NatsServer::start().unwrap_or_else(|e| panic!("nats-server: {e}")) else {
        return;
    };
    let port: u16 = server
        .url()
        .rsplit(':')
        .next()
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("no port in {}", server.url()));
    let proxy = Cut::start(port);
    let urls = [proxy.url(), server.url()];
    let mut nodes = Nodes::with_urls(
        NatsCluster {
            servers: vec![server],
        },
        "logout1",
        &urls,
        TTL_MS,
        1,
    );
    let work = nodes.work();
    let token = nodes.token();
    let (chat, of_n1) = (placed_on("n0", "l"), placed_on("n1", "l"));
    eventually("n0 and n1 see each other", || {
        (sees(&nodes.wardens[0], &of_n1) && sees(&nodes.wardens[1], &chat)).then_some(())
    });
    let (n0, n1) = (&nodes.wardens[0], &nodes.wardens[1]);
    n0.open_auto(&chat, &token);
    n0.say(&chat, &token, "push it");
    let mut sent: Vec<Sent> = (0..5)
        .map(|k| read(n0, &chat, &format!("before {k}")))
        .collect();
    assert!(
        sent.iter().all(|s| s.status == 200),
        "written before the cut"
    );
    assert_eq!(lease_of(&nodes, &chat).as_deref(), Some("n0"));
    let verdicts = |node: &super::fixture::Warden| verdicts_in(node, &chat, &work);
    let before = verdicts(n1);
    assert_eq!(before[0], "allow", "the person's words decide the push");

    // The log's connections cut: n0's writes fail (each after the log's tries), its log
    // stops being written, it steps out, and n1 takes its chat over and serves it, asked
    // through n1 or through n0 (which forwards it while it is out).
    proxy.cut();
    let mut k = 0;
    let mut next = |node: &super::fixture::Warden, sent: &mut Vec<Sent>| {
        let one = read(node, &chat, &format!("cut {k} via {}", node.id));
        k += 1;
        let ok = one.status == 200;
        sent.push(one);
        ok
    };
    // n0's writes fail after the log's tries (8 s), and it steps out once they have failed
    // for longer than a server's death takes to recover from (12 s here): well past the
    // usual bound, so waited for with a bound of its own.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
    while !next(n1, &mut sent) {
        assert!(
            std::time::Instant::now() < deadline,
            "n1 does not serve n0's chat 90 s after n0's log was cut"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let (status, health) = n0.call("GET", "/healthz", None, None);
    assert_eq!(status, 503, "{health}");
    assert!(
        health["cluster"]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("out of the cluster's live set")),
        "{health}"
    );
    assert_eq!(lease_of(&nodes, &chat).as_deref(), Some("n1"), "taken over");
    for _ in 0..3 {
        assert!(
            next(n1, &mut sent),
            "n1 serves it: {:?}",
            sent.last().map(|s| &s.error)
        );
        assert!(
            next(n0, &mut sent),
            "forwarded by n0: {:?}",
            sent.last().map(|s| &s.error)
        );
    }
    assert_eq!(verdicts(n0), before, "the same verdicts with n0 out");

    // Its log's connections go through again: n0 writes again, steps back in, and takes its
    // chat back (reading what n1 wrote) on the next request.
    proxy.mend();
    eventually("n0 standing again", || {
        let (status, _) = n0.call("GET", "/healthz", None, None);
        (status == 200).then_some(())
    });
    eventually("n0 serves its chat again", || {
        (next(n0, &mut sent) && lease_of(&nodes, &chat).as_deref() == Some("n0")).then_some(())
    });
    for _ in 0..3 {
        assert!(next(n1, &mut sent), "{:?}", sent.last().map(|s| &s.error));
    }

    // Every answer a 200 or a 5xx that says why; every acknowledged mark once in the stream
    // and in the state served, which is the stream's; the same verdicts.
    for one in &sent {
        assert!(
            one.status == 200 || ((500..=503).contains(&one.status) && !one.error.is_empty()),
            "{}: {} {}",
            one.name,
            one.status,
            one.error
        );
    }
    let stream = marks_in_stream(&nodes.settings(), &chat);
    for one in sent.iter().filter(|one| one.status == 200) {
        let n = stream.iter().filter(|m| **m == one.name).count();
        assert_eq!(n, 1, "`{}` acknowledged, {n} times in the stream", one.name);
    }
    let served: Vec<String> = marks_served(n1, &chat);
    assert_eq!(served, stream, "the state served is the stream's");
    assert_eq!(verdicts(n0), before, "the same verdicts on n0");
    assert_eq!(verdicts(n1), before, "the same verdicts on n1");
    let refused = sent.iter().filter(|one| one.status != 200).count();
    eprintln!(
        "{} writes, {refused} answered 5xx (while n0's log failed and until it stepped out, and while it took the chat back)",
        sent.len()
    );
    nodes.stop();
}
