//! The log against an in-memory model, on every engine: random appends to a few chats, group
//! appends, flushes, snapshots, reopenings (flushed, then dropped) and crashes (dropped with
//! nothing flushed: for JetStream, the client gone without a flush); after every reopening
//! each chat is exactly the model's fold, and every sequence number the log answered is there.

use crate::engines::NatsServer;
use crate::said;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::collections::BTreeMap;
use warden::chat::{Answer, ChatState, Company, Event, Kept, Mark, Record};
use warden::mode::Mode;
use warden::verdict::Decision;
use warden_storage::{EventLog, LogError, jetstream};

const CHATS: [&str; 4] = ["c1", "c2", "a task of c1", ""];

#[derive(Debug, Clone)]
enum Op {
    Append(usize, Box<Record>),
    Batch(Vec<(usize, Record)>),
    Flush,
    Snapshot(usize),
    /// Flushed, dropped, opened again.
    Reopen,
    /// Dropped without a flush, opened again.
    Crash,
}

/// No look, a look with no answer, or a look that answered one of the kinds.
fn looked(n: u8) -> Option<warden::second_look::Looked> {
    use warden::second_look::{Kind, Looked, Purpose};
    match n {
        0 => None,
        1 => Some(Looked {
            purpose: Purpose::Add,
            answer: None,
        }),
        n => Some(Looked {
            purpose: Purpose::Lift,
            answer: Kind::ALL.get(usize::from(n - 2)).copied(),
        }),
    }
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![
        Just(Mode::PlanOnly),
        Just(Mode::AskFirst),
        Just(Mode::EditFreely),
        Just(Mode::Auto),
        Just(Mode::FullTrust)
    ]
}

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("push".to_string()),
        Just("a web page".to_string()),
        "[a-z ]{0,12}"
    ]
}

fn kept() -> impl Strategy<Value = Kept> {
    (word(), word()).prop_map(|(tool, class)| Kept { tool, class })
}

fn mark() -> impl Strategy<Value = Mark> {
    (word(), proptest::option::of(word())).prop_map(|(name, provenance)| Mark { name, provenance })
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        (mode(), any::<bool>()).prop_map(|(mode, scoped)| Event::Opened {
            mode,
            company: if scoped {
                Company::Task
            } else {
                Company::Alone
            },
            parent: scoped.then(|| "c1".to_string()),
            scoped,
        }),
        mode().prop_map(|mode| Event::ModeChanged { mode }),
        word().prop_map(|text| Event::Said { text }),
        word().prop_map(|source| Event::Others { source }),
        mark().prop_map(|mark| Event::Read { mark }),
        Just(Event::Turn),
        (word(), 0..30u32, 0..8u8).prop_map(|(tool, n, look)| Event::Judged {
            tool,
            decision: Decision::Ask,
            score: 3,
            rules: vec!["git.push".into()],
            counts: vec![("messages".into(), n)],
            look: looked(look),
            // Now and then a file fetched, from a host or from a blob: the appended field
            // goes through every engine and every reopen as the rest does.
            fetched: match n % 3 {
                0 => Vec::new(),
                1 => vec![warden::chat::Fetched {
                    path: format!("/tmp/{n}.sh"),
                    from: Some("get.example.sh".into()),
                }],
                _ => vec![warden::chat::Fetched {
                    path: format!("/tmp/{n}.sh"),
                    from: None,
                }],
            },
            // And a file written with text that asks if run, now and then the same path again.
            written: match n % 4 {
                0 => vec![warden::chat::Written {
                    path: format!("/tmp/{n}"),
                    rule: "critical.wipe".into(),
                    reason: "delete everything in your home folder".into(),
                }],
                1 => vec![warden::chat::Written {
                    path: format!("/tmp/{}", n - 1),
                    rule: "download.pipe_shell".into(),
                    reason: "run code downloaded from evil.example".into(),
                }],
                _ => Vec::new(),
            },
        }),
        (0..4u64, word()).prop_map(|(question, tool)| Event::Asked {
            question,
            tool,
            class: "git.push".into(),
            offers: warden::chat::Offers::default(),
            counts: Vec::new(),
            lookup: false,
            reason: String::new(),
            shown: None,
        }),
        (0..4u64, proptest::option::of(kept())).prop_map(|(question, kept)| Event::Answered {
            question,
            answer: Answer::Always,
            kept,
            ran: None,
        }),
        word().prop_map(|task| Event::TaskCreated {
            task,
            scoped: false
        }),
        (
            prop::collection::vec(word(), 0..3),
            prop::collection::vec(mark(), 0..2),
            prop::collection::vec(kept(), 0..2)
        )
            .prop_map(|(words, marks, kept)| Event::Inherited {
                words,
                marks,
                kept,
                fetched: Vec::new(),
                written: Vec::new(),
            }),
    ]
}

fn record() -> impl Strategy<Value = Record> {
    // Times over three days, so the behaviour watch's day window drops some counts.
    (0..3 * warden::chat::DAY_MS, event()).prop_map(|(at_ms, event)| Record { at_ms, event })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (0..CHATS.len(), record()).prop_map(|(chat, record)| Op::Append(chat, Box::new(record))),
        2 => prop::collection::vec((0..CHATS.len(), record()), 0..20).prop_map(Op::Batch),
        1 => Just(Op::Flush),
        2 => (0..CHATS.len()).prop_map(Op::Snapshot),
        1 => Just(Op::Reopen),
        1 => Just(Op::Crash),
    ]
}

/// What the log should hold: every chat's records, and the sequence number of its last one.
#[derive(Default)]
struct Model {
    records: BTreeMap<&'static str, Vec<Record>>,
    last_seq: BTreeMap<&'static str, u64>,
}

impl Model {
    /// The records the model holds for a chat, oldest first (none for one it never saw).
    fn of(&self, chat: &str) -> &[Record] {
        self.records
            .get(chat)
            .map(Vec::as_slice)
            .unwrap_or_default()
    }
}

fn fail(e: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

fn agrees(log: &EventLog, model: &Model) -> Result<(), TestCaseError> {
    for chat in CHATS {
        let replayed = log.chat(chat).map_err(fail)?;
        let records = model.of(chat);
        prop_assert_eq!(
            &replayed.state,
            &ChatState::replay(records),
            "chat {:?}",
            chat
        );
        prop_assert_eq!(replayed.skipped, 0);
        prop_assert_eq!(
            replayed.last_seq,
            model.last_seq.get(chat).copied().unwrap_or(0)
        );
        let stored: Vec<Record> = log
            .records(chat)
            .map_err(fail)?
            .map(|e| e.map_err(fail).and_then(|e| e.record.map_err(fail)))
            .collect::<Result<_, _>>()?;
        prop_assert_eq!(stored.as_slice(), records);
    }
    let mut listed: Vec<String> = log.chats().collect::<Result<_, _>>().map_err(fail)?;
    listed.sort();
    let expected: Vec<String> = model.records.keys().map(|c| c.to_string()).collect();
    prop_assert_eq!(listed, expected);
    // Every record once, however it was grouped: counted, paged through three at a time
    // (a page's edge falls inside a group), and folded by the one pass over the log.
    let total: usize = model.records.values().map(Vec::len).sum();
    prop_assert_eq!(log.len(), total);
    let mut paged: BTreeMap<String, Vec<Record>> = BTreeMap::new();
    let mut last = 0;
    loop {
        let page = log.after(last, 3).map_err(fail)?;
        for (chat, entry) in &page {
            prop_assert!(entry.seq > last, "{} after {}", entry.seq, last);
            last = entry.seq;
            paged
                .entry(chat.clone())
                .or_default()
                .push(entry.record.clone().map_err(fail)?);
        }
        if page.len() < 3 {
            break;
        }
    }
    let modelled: BTreeMap<String, Vec<Record>> = model
        .records
        .iter()
        .map(|(chat, records)| (chat.to_string(), records.clone()))
        .collect();
    prop_assert_eq!(&paged, &modelled);
    for replayed in log.replay_all() {
        let (chat, replayed) = replayed.map_err(fail)?;
        let records = model.of(&chat);
        prop_assert_eq!(
            &replayed.state,
            &ChatState::replay(records),
            "chat {:?}",
            chat
        );
    }
    Ok(())
}

/// Runs `ops` on a log `open` opens (and opens again at each reopening or crash), against
/// the model.
fn run(open: &dyn Fn() -> Result<EventLog, LogError>, ops: Vec<Op>) -> Result<(), TestCaseError> {
    let mut log = Some(open().map_err(fail)?);
    let mut model = Model::default();
    for op in ops {
        let Some(current) = log.as_ref() else { break };
        match op {
            Op::Append(chat, record) => {
                let seq = current.append(CHATS[chat], &record).map_err(fail)?;
                model.records.entry(CHATS[chat]).or_default().push(*record);
                model.last_seq.insert(CHATS[chat], seq);
            }
            Op::Batch(items) => {
                let group: Vec<(&str, Record)> =
                    items.iter().map(|(c, r)| (CHATS[*c], r.clone())).collect();
                let seqs = current.append_batch(&group).map_err(fail)?;
                prop_assert_eq!(seqs.len(), items.len());
                prop_assert!(seqs.windows(2).all(|w| w[0] < w[1]));
                for ((chat, record), seq) in items.into_iter().zip(seqs) {
                    model.records.entry(CHATS[chat]).or_default().push(record);
                    model.last_seq.insert(CHATS[chat], seq);
                }
            }
            Op::Flush => current.flush().map_err(fail)?,
            Op::Snapshot(chat) => {
                if let Some(&seq) = model.last_seq.get(CHATS[chat]) {
                    let state = ChatState::replay(&model.records[CHATS[chat]]);
                    prop_assert!(current.snapshot(CHATS[chat], seq, &state).map_err(fail)?);
                }
            }
            Op::Reopen | Op::Crash => {
                if matches!(op, Op::Reopen) {
                    current.flush().map_err(fail)?;
                }
                drop(log.take()); // dropped, and its folder's lock released, before opening again
                let reopened = open().map_err(fail)?;
                agrees(&reopened, &model)?;
                log = Some(reopened);
            }
        }
    }
    if let Some(current) = log.as_ref() {
        agrees(current, &model)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_sled_log_agrees_with_its_model_across_reopenings(ops in prop::collection::vec(op(), 1..60)) {
        let dir = tempfile::tempdir().map_err(fail)?;
        run(&|| EventLog::open(dir.path()), ops)?;
    }
}

/// The same model, the same operations, on JetStream: one server for the run, a stream of
/// its own for each case.
#[test]
fn the_jetstream_log_agrees_with_its_model_across_reopenings_and_crashes() -> crate::Outcome {
    let Some(server) = NatsServer::start()? else {
        return Ok(());
    };
    let mut runner = TestRunner::new(Config::with_cases(24));
    let case = std::cell::Cell::new(0u32);
    let outcome = runner.run(&prop::collection::vec(op(), 1..60), |ops| {
        case.set(case.get() + 1);
        let settings = jetstream::Settings {
            stream: format!("model{}", case.get()),
            ..server.settings()
        };
        run(&|| EventLog::open_jetstream(&settings), ops)
    });
    outcome.map_err(|e| e.to_string().into())
}

#[test]
fn an_empty_group_writes_nothing() -> crate::Outcome {
    let dir = tempfile::tempdir()?;
    let log = EventLog::open(dir.path())?;
    assert_eq!(log.append_batch::<Record>(&[])?, Vec::<u64>::new());
    log.append("c1", &said(1, "push it"))?;
    assert_eq!(log.len(), 1);
    Ok(())
}
