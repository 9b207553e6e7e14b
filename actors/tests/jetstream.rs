//! `warden serve` with its log on NATS JetStream (`[log] engine = "jetstream"`), against a
//! `nats-server` of the test's own: the server killed with SIGKILL under it and started
//! again, then warden itself killed with SIGKILL and started again, and every acknowledged
//! event is there, the same steps getting the same verdicts. (Every runtime scenario is also
//! played on JetStream: `scenarios.rs`.)

use crate::common::nats::NatsServer;
use crate::common::{Place, Serve, call};
use serde_json::{Value, json};
use std::time::Duration;

fn judged(serve: &Serve, token: &str, command: &str, work: &str) -> String {
    let (status, answer) = call(
        serve,
        "POST",
        "/v1/chats/c1/judge",
        Some(token),
        Some(&json!({"tool_name": "Bash", "tool_input": {"command": command}, "cwd": work})),
    );
    assert_eq!(status, 200, "judge {command}: {answer}");
    answer["decision"]
        .as_str()
        .unwrap_or_else(|| panic!("no decision: {answer}"))
        .to_string()
}

fn state(serve: &Serve, token: &str) -> Value {
    let (status, answer) = call(serve, "GET", "/v1/chats/c1", Some(token), None);
    assert_eq!(status, 200, "{answer}");
    answer
}

#[test]
fn nothing_acknowledged_is_lost_when_nats_or_warden_is_killed() {
    let Some(mut nats) = NatsServer::start().unwrap_or_else(|e| panic!("nats-server: {e}")) else {
        return;
    };
    let place = Place::new();
    let settings = place.home().join(".config/warden");
    std::fs::create_dir_all(&settings)
        .and_then(|()| std::fs::write(settings.join("config.toml"), nats.log_table("e2e")))
        .unwrap_or_else(|e| panic!("the configuration: {e}"));
    let work = place.work();
    let serve = place.serve();
    assert!(
        serve.started().ends_with(&format!(
            "log on JetStream, the stream `e2e` at {}",
            nats.url()
        )),
        "the start line says where the log is: {}",
        serve.started()
    );
    let token = place.token();
    let post = |serve: &Serve, path: &str, body: Value| {
        let (status, answer) = call(serve, "POST", path, Some(&token), Some(&body));
        assert_eq!(status, 200, "{path} {body}: {answer}");
    };
    post(
        &serve,
        "/v1/chats/c1",
        json!({"mode": "auto", "company": "alone"}),
    );
    post(
        &serve,
        "/v1/chats/c1/events",
        json!({"kind": "said", "text": "fix the test and push it"}),
    );
    assert_eq!(
        judged(&serve, &token, "git push origin main", &work),
        "allow"
    );

    // The server dies under warden and comes back on its store: the words said meanwhile are
    // acknowledged once it is back, and hold.
    nats.kill();
    let during = std::thread::scope(|scope| {
        let said = scope.spawn(|| {
            call(
                &serve,
                "POST",
                "/v1/chats/c1/events",
                Some(&token),
                Some(&json!({"kind": "said", "text": "don't push yet"})),
            )
        });
        std::thread::sleep(Duration::from_millis(500));
        nats.restart()
            .unwrap_or_else(|e| panic!("nats-server: {e}"));
        said.join()
            .unwrap_or_else(|_| panic!("the request's thread"))
    });
    assert_eq!(
        during.0, 200,
        "said while the server restarted: {}",
        during.1
    );
    assert_eq!(
        judged(&serve, &token, "git push origin main", &work),
        "ask",
        "the words said while the server restarted hold"
    );
    post(
        &serve,
        "/v1/chats/c1/events",
        json!({"kind": "read", "name": "a web page"}),
    );
    let before = state(&serve, &token);

    // warden dies with SIGKILL and comes back from the stream.
    serve.kill_9();
    let serve = place.serve();
    let after = state(&serve, &token);
    assert_eq!(after["events"], before["events"], "{before} / {after}");
    assert_eq!(after["marks"], before["marks"]);
    assert_eq!(
        judged(&serve, &token, "git push origin main", &work),
        "ask",
        "the held push is still held after SIGKILL"
    );
}

/// The real `warden torture` run short (3 kills in 6 s) with its daemon's log on JetStream:
/// every acknowledged event survives each SIGKILL of warden, and every probe keeps its
/// verdict.
#[test]
fn warden_torture_on_jetstream_loses_nothing() {
    let Some(nats) = NatsServer::start().unwrap_or_else(|e| panic!("nats-server: {e}")) else {
        return;
    };
    let dir = crate::common::tempdir();
    let settings = dir.path().join(".config/warden");
    std::fs::create_dir_all(&settings)
        .and_then(|()| std::fs::write(settings.join("config.toml"), nats.log_table("torture")))
        .unwrap_or_else(|e| panic!("the configuration: {e}"));
    let data = dir.path().join("data");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_warden"))
        .args(["torture", "--data"])
        .arg(&data)
        .args(["--kills", "3", "--seconds", "6"])
        .env("HOME", dir.path())
        .env_remove("WARDEN_DATA")
        .env_remove("WARDEN_CONFIG")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("RUST_LOG")
        .output()
        .unwrap_or_else(|e| panic!("run warden torture: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let shown = format!(
        "stdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{shown}");
    let summary = stdout
        .lines()
        .find(|line| line.starts_with("kills "))
        .unwrap_or_else(|| panic!("no summary line: {shown}"));
    for (name, want) in [
        ("kills 3", true),
        ("lost 0", true),
        ("verdicts changed 0", true),
    ] {
        assert_eq!(summary.contains(name), want, "`{name}` in: {shown}");
    }
    assert!(
        !summary.contains("acknowledged 0,"),
        "nothing acknowledged: {shown}"
    );
    eprintln!("{summary}");
    // The log was the stream's: nothing of it in the data folder.
    assert!(
        !data.join("log").join("db").exists(),
        "a sled log in {shown}"
    );
}

/// `warden replay --check DIR`, without DIR, on a configuration whose log is on JetStream:
/// the real binary walks the stream (read only) and reports what it holds; a stream that is
/// not there is refused by name, and is still not there after the check.
#[test]
fn replay_check_walks_the_stream_the_configuration_names() {
    let Some(nats) = NatsServer::start().unwrap_or_else(|e| panic!("nats-server: {e}")) else {
        return;
    };
    let place = Place::new();
    let settings = place.home().join(".config/warden");
    let configure = |stream: &str| {
        std::fs::create_dir_all(&settings)
            .and_then(|()| std::fs::write(settings.join("config.toml"), nats.log_table(stream)))
            .unwrap_or_else(|e| panic!("the configuration: {e}"));
    };
    configure("checked");
    let work = place.work();
    let serve = place.serve();
    let token = place.token();
    for command in ["ls", "git status", "cargo test"] {
        judged(&serve, &token, command, &work);
    }
    let check = || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_warden"))
            .args(["replay", "--check"])
            .env("HOME", place.home())
            .env_remove("WARDEN_DATA")
            .env_remove("WARDEN_CONFIG")
            .env_remove("XDG_CONFIG_HOME")
            .output()
            .unwrap_or_else(|e| panic!("warden replay: {e}"));
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, out, err) = check();
    assert!(ok, "warden replay --check failed: {out}{err}");
    assert!(
        out.contains(&format!("event log in `{}, stream `checked``", nats.url())),
        "{out}"
    );
    assert!(out.contains("1 chat, "), "{out}");
    assert!(
        out.contains("every record read; every snapshot agrees"),
        "{out}"
    );
    drop(serve);
    configure("absent");
    for _ in 0..2 {
        let (ok, out, err) = check();
        assert!(!ok, "a stream that is not there is refused: {out}");
        assert!(
            err.contains("the stream `absent`") && err.contains("stream not found"),
            "{err}"
        );
    }
}

/// Tasks made before `[cluster]` (the runtime on JetStream, no node, no roots bucket): the
/// cluster layer reads a task's root from its opening in the log, through a task of a task;
/// a task whose parent the bucket roots (made after the cluster) takes the parent's root; a
/// chat, and an id the log holds nothing of, are their own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_made_before_the_cluster_finds_its_root_in_its_opening() {
    use warden_actors::runtime::{Options, Runtime};
    use warden_actors::serve::lineage::{Lineage, root_in_log};
    use warden_storage::cluster::{Cluster, TTL};
    let Some(nats) = NatsServer::start().unwrap_or_else(|e| panic!("nats-server: {e}")) else {
        return;
    };
    let settings = warden_storage::jetstream::Settings {
        url: nats.url(),
        stream: "rooted".to_string(),
        replicas: 1,
    };
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let runtime = Runtime::open(
        dir.path(),
        std::sync::Arc::new(warden::facts::FakeFacts::unknown()),
        Options {
            log_engine: warden_storage::Engine::JetStream(settings.clone()),
            ..Options::default()
        },
    )
    .await
    .unwrap_or_else(|e| panic!("the runtime: {e:#}"));
    let said = |text: &str| warden::chat::Event::Said {
        text: text.to_string(),
    };
    for chat in ["c1", "c9"] {
        runtime
            .record(chat, said("hello"))
            .await
            .unwrap_or_else(|e| panic!("{chat}: {e}"));
    }
    for (chat, task) in [("c1", "t1"), ("t1", "t2"), ("c9", "t3"), ("t3", "t4")] {
        runtime
            .create_task(chat, task, false)
            .await
            .unwrap_or_else(|e| panic!("{task} of {chat}: {e}"));
    }
    let cluster = Cluster::connect(&settings, TTL)
        .await
        .unwrap_or_else(|e| panic!("the cluster: {e}"));
    // t3 as a node of the cluster would have rooted it; t4, made before, is not.
    cluster
        .set_root("t3", "c9")
        .await
        .unwrap_or_else(|e| panic!("t3's root: {e}"));
    for (id, lineage) in [
        ("c1", Lineage::Own),
        ("t1", Lineage::Root("c1".to_string())),
        ("t2", Lineage::Root("c1".to_string())),
        ("t4", Lineage::Root("c9".to_string())),
        ("nothing", Lineage::Unrecorded),
    ] {
        assert_eq!(
            root_in_log(&cluster, &runtime, id)
                .await
                .unwrap_or_else(|e| panic!("{id}: {e}")),
            lineage,
            "{id}"
        );
    }
    runtime
        .shutdown()
        .await
        .unwrap_or_else(|e| panic!("shutdown: {e}"));
}

/// A server of three killed with SIGKILL (replicas 3) while twenty chats are read from the
/// stream: the chats held in memory are served promptly all the while, whatever the reads
/// wait for, and every chat read has every mark written. Before the reads went off the
/// supervisor's handler, a chat brought into memory waited behind every read in progress
/// (on a server gone, a read's consumer placed on it waits 2 s a try, a leader's answer up to
/// 10 s a step): `benches/load/cluster.sh` saw a node answer nothing for minutes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_holds_up_no_chat_held_in_memory() {
    use crate::common::nats::NatsCluster;
    use std::time::Instant;
    use warden_actors::runtime::{Options, Runtime};
    let Some(mut nats) = NatsCluster::start(3).unwrap_or_else(|e| panic!("nats-server: {e}"))
    else {
        return;
    };
    let settings = warden_storage::jetstream::Settings {
        url: nats
            .servers
            .iter()
            .map(|server| server.url())
            .collect::<Vec<_>>()
            .join(","),
        stream: "slowreads".to_string(),
        replicas: 3,
    };
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // A chat's actor stops 50 ms after its last message, so each look at a held chat below
    // goes through the supervisor, which brings it back from the state it holds.
    let open = || async {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            // The servers elect JetStream's leader a few seconds after they route.
            match Runtime::open(
                dir.path(),
                std::sync::Arc::new(warden::facts::FakeFacts::unknown()),
                Options {
                    log_engine: warden_storage::Engine::JetStream(settings.clone()),
                    active: Duration::from_millis(50),
                    ..Options::default()
                },
            )
            .await
            {
                Ok(runtime) => break runtime,
                Err(e) if Instant::now() > deadline => panic!("the runtime: {e:#}"),
                Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        }
    };
    let mark = |name: &str| warden::chat::Event::Read {
        mark: warden::chat::Mark {
            name: name.to_string(),
            provenance: None,
        },
    };
    let cold: Vec<String> = (0..20).map(|n| format!("cold{n}")).collect();
    let held: Vec<String> = (0..5).map(|n| format!("held{n}")).collect();
    let writer = open().await;
    for chat in cold.iter().chain(&held) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while let Err(e) = writer.record(chat, mark(&format!("{chat}.md"))).await {
            assert!(Instant::now() < deadline, "{chat}: {e:#}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    writer
        .shutdown()
        .await
        .unwrap_or_else(|e| panic!("shutdown: {e:#}"));

    let runtime = open().await;
    for chat in &held {
        runtime
            .state(chat)
            .await
            .unwrap_or_else(|e| panic!("{chat}: {e:#}"));
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while runtime
        .chats_in_memory()
        .await
        .unwrap_or_else(|e| panic!("{e:#}"))
        .idle
        < held.len()
    {
        assert!(Instant::now() < deadline, "the held chats' actors stop");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // The server that leads the stream: the reads wait for another to be elected.
    let leader = stream_leader(&nats.servers[1].url(), "slowreads");
    let at: usize = leader
        .strip_prefix('n')
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the stream's leader: {leader:?}"));
    nats.servers[at].kill();
    let killed = Instant::now();
    let reads: Vec<_> = cold
        .iter()
        .map(|chat| {
            let (runtime, chat) = (runtime.clone(), chat.clone());
            tokio::spawn(async move {
                let deadline = Instant::now() + Duration::from_secs(120);
                let mut failed = 0;
                loop {
                    match runtime.state(&chat).await {
                        Ok(state) => break (chat, state, killed.elapsed(), failed),
                        Err(e) => {
                            assert!(Instant::now() < deadline, "{chat}: {e:#}");
                            failed += 1;
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                    }
                }
            })
        })
        .collect();
    // While they are read: each held chat looked at in turn, every 100 ms.
    let mut slowest = Duration::ZERO;
    let mut looks = 0;
    while reads.iter().any(|read| !read.is_finished()) {
        let chat = &held[looks % held.len()];
        let asked = Instant::now();
        let state = runtime
            .state(chat)
            .await
            .unwrap_or_else(|e| panic!("{chat} while the others are read: {e:#}"));
        slowest = slowest.max(asked.elapsed());
        assert!(
            state.marks.iter().any(|m| m.name == format!("{chat}.md")),
            "{chat}"
        );
        looks += 1;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut longest = Duration::ZERO;
    let mut failures = 0;
    for read in reads {
        let (chat, state, took, failed) = read.await.unwrap_or_else(|e| panic!("{e}"));
        let marks: Vec<&str> = state.marks.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(marks, [format!("{chat}.md")], "{chat}: every mark written");
        longest = longest.max(took);
        failures += failed;
    }
    eprintln!(
        "20 chats read within {longest:?} of the server's SIGKILL ({failures} reads failed and were asked again); \
         {looks} looks at the held chats meanwhile, the slowest {slowest:?}"
    );
    assert!(
        slowest < Duration::from_secs(2),
        "a chat held in memory waited {slowest:?} behind the chats being read"
    );
}

/// The name of the server that leads `stream` (`n0`, `n1`, …), asked of the server at `url`
/// in NATS's own protocol (`$JS.API.STREAM.INFO`), so the test kills the one whose death
/// makes the reads wait.
fn stream_leader(url: &str, stream: &str) -> String {
    use std::io::{BufRead, BufReader, Read, Write};
    let address = url.trim_start_matches("nats://");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let asked = (|| -> std::io::Result<Option<String>> {
            let mut conn = std::net::TcpStream::connect(address)?;
            conn.set_read_timeout(Some(Duration::from_secs(5)))?;
            let mut reader = BufReader::new(conn.try_clone()?);
            let mut line = String::new();
            reader.read_line(&mut line)?; // INFO
            write!(
                conn,
                "CONNECT {{\"verbose\":false}}\r\nSUB leader.answer 1\r\nPUB $JS.API.STREAM.INFO.{stream} leader.answer 0\r\n\r\n"
            )?;
            loop {
                line.clear();
                if reader.read_line(&mut line)? == 0 {
                    return Ok(None);
                }
                // MSG <subject> <sid> <bytes>
                if let Some(bytes) = line.strip_prefix("MSG ").and_then(|rest| {
                    rest.split_whitespace()
                        .last()
                        .and_then(|n| n.parse::<usize>().ok())
                }) {
                    let mut body = vec![0; bytes + 2];
                    reader.read_exact(&mut body)?;
                    let info: Value = serde_json::from_slice(&body[..bytes])
                        .map_err(|e| std::io::Error::other(e.to_string()))?;
                    return Ok(info["cluster"]["leader"].as_str().map(str::to_string));
                }
            }
        })();
        match asked {
            Ok(Some(leader)) => return leader,
            answer => {
                assert!(
                    std::time::Instant::now() < deadline,
                    "no leader of `{stream}` within 30 s: {answer:?}"
                );
                std::thread::sleep(Duration::from_millis(200));
            }
        }
    }
}
