//! Crash test: a runtime under load is killed with SIGKILL at random points; after replay,
//! every event it acknowledged is there, and nothing unacknowledged is half-written.
//!
//! The test binary runs itself again as the writer (`WARDEN_CRASH_WRITER` set), which
//! acknowledges each event on stdout once the runtime returned from recording it.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use warden::chat::Event;
use warden::facts::FakeFacts;
use warden::step::Step;
use warden_actors::runtime::{Options, Runtime};
use warden_storage::EventLog;

mod ops;

const CHATS: usize = 4;
const WRITER: &str = "WARDEN_CRASH_WRITER";

/// The writer: records messages in a few chats as fast as acknowledgements come back.
#[test]
fn writer() {
    let Some(dir) = std::env::var_os(WRITER) else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    runtime.block_on(async move {
        let warden = Runtime::open(
            std::path::Path::new(&dir),
            Arc::new(FakeFacts::unknown()),
            Options::default(),
        )
        .await
        .unwrap_or_else(|e| panic!("open: {e:#}"));
        let mut tasks = Vec::new();
        for chat in 0..CHATS {
            let warden = warden.clone();
            tasks.push(tokio::spawn(async move {
                for i in 0u64.. {
                    let id = format!("c{chat}");
                    warden
                        .record(
                            &id,
                            Event::Said {
                                text: format!("m{i}"),
                            },
                        )
                        .await
                        .unwrap_or_else(|e| panic!("record: {e:#}"));
                    println!("acked {id} {i}");
                    // Steps judged in between: an allow (a record nobody waits for) and, now
                    // and then, a question, which is durable before its id is given.
                    let step = |command: &str| Step::Command {
                        command: command.to_string(),
                    };
                    let allowed = warden
                        .judge(&id, step("cargo test"), "/w")
                        .await
                        .unwrap_or_else(|e| panic!("judge: {e:#}"));
                    assert!(allowed.question.is_none());
                    if i % 5 == 4 {
                        let asked = warden
                            .judge(&id, step("git push --force origin main"), "/w")
                            .await
                            .unwrap_or_else(|e| panic!("judge: {e:#}"));
                        let question = asked
                            .question
                            .unwrap_or_else(|| panic!("a force-push over main asks"));
                        println!("asked {id} {question}");
                    }
                }
            }));
        }
        for task in tasks {
            let _ = task.await;
        }
    });
}

#[test]
fn acknowledged_events_survive_sigkill() {
    if std::env::var_os(WRITER).is_some() {
        return;
    }
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut acked: BTreeMap<String, u64> = BTreeMap::new();
    let mut asked: Vec<(String, u64)> = Vec::new();
    for round in 0..3u64 {
        let mut child = Command::new(std::env::current_exe().unwrap_or_else(|e| panic!("{e}")))
            .args([
                "--exact",
                "crash::writer",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env(WRITER, dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn the writer: {e}"));
        let stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
        let mut lines = BufReader::new(stdout).lines();
        // Kill it after a pseudo-random number of acknowledgements (different each round).
        let kill_after = 200 + (round * 7919 + u64::from(std::process::id())) % 800;
        let started = Instant::now();
        let mut seen = 0;
        while let Some(Ok(line)) = lines.next() {
            let mut parts = line.split_whitespace();
            let kind = parts.next();
            if let (Some("asked"), Some(chat), Some(question)) = (kind, parts.next(), parts.next())
            {
                let question: u64 = question.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
                asked.push((chat.to_string(), question));
                continue;
            }
            let mut parts = line.split_whitespace().skip(1);
            if let (Some("acked"), Some(chat), Some(n)) = (kind, parts.next(), parts.next()) {
                let n: u64 = n.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
                // A new round starts each chat again at m0: count what this round acknowledged.
                let entry = acked.entry(format!("{round}:{chat}")).or_insert(0);
                *entry = (*entry).max(n + 1);
                seen += 1;
            }
            if seen >= kill_after || started.elapsed() > Duration::from_secs(20) {
                break;
            }
        }
        child.kill().unwrap_or_else(|e| panic!("SIGKILL: {e}"));
        let _ = child.wait();
        assert!(seen > 0, "round {round}: the writer acknowledged nothing");
        verify(dir.path(), round, &acked, &asked);
    }
}

/// Every acknowledged message of every round is in the log, in order, every question given
/// out is waiting there, and every record reads.
fn verify(
    dir: &std::path::Path,
    last_round: u64,
    acked: &BTreeMap<String, u64>,
    asked: &[(String, u64)],
) {
    let log = open_after_crash(dir);
    assert!(!asked.is_empty(), "the writer asked nothing");
    for (id, question) in asked {
        let replayed = log.chat(id).unwrap_or_else(|e| panic!("replay {id}: {e}"));
        assert!(
            replayed.state.pending.contains_key(question),
            "{id}: question {question} was given to the caller but is not in the log"
        );
    }
    for chat in 0..CHATS {
        let id = format!("c{chat}");
        let replayed = log.chat(&id).unwrap_or_else(|e| panic!("replay {id}: {e}"));
        assert_eq!(replayed.skipped, 0, "{id}: a record is half-written");
        // Each round writes m0, m1, … again: cut the log's messages into one run per round.
        let mut runs: Vec<Vec<&str>> = Vec::new();
        for message in &replayed.state.said {
            if message == "m0" || runs.is_empty() {
                runs.push(Vec::new());
            }
            if let Some(run) = runs.last_mut() {
                run.push(message);
            }
        }
        for (round, run) in runs.iter().enumerate() {
            for (n, message) in run.iter().enumerate() {
                assert_eq!(
                    *message,
                    format!("m{n}"),
                    "{id}, round {round}: messages out of order or torn"
                );
            }
        }
        for round in 0..=last_round {
            let want = acked.get(&format!("{round}:{id}")).copied().unwrap_or(0);
            let got = runs
                .get(usize::try_from(round).unwrap_or(usize::MAX))
                .map_or(0, Vec::len) as u64;
            assert!(
                got >= want,
                "{id}, round {round}: {want} acknowledged but only {got} in the log"
            );
        }
    }
}

fn open_after_crash(dir: &std::path::Path) -> EventLog {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match EventLog::open(dir) {
            Ok(log) => return log,
            Err(e) if Instant::now() < deadline => {
                let _ = e;
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => panic!("reopen after the crash: {e}"),
        }
    }
}
