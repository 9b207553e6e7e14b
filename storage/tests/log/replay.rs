//! Chats come back from the log: in their own order, each once, past records they can't read,
//! from snapshots; and `check` says what a log holds.

use crate::{Outcome, key, put_raw, said};
use proptest::prelude::*;
use std::collections::BTreeSet;
use warden::chat::{ChatState, Event, Record};
use warden_storage::{EventLog, LogError, Skip, check};

#[test]
fn a_hundred_interleaved_chats_keep_their_own_order() -> Outcome {
    let dir = tempfile::tempdir()?;
    let chats: Vec<String> = (0..100).map(|i| format!("chat-{i}")).collect();
    {
        let log = EventLog::open(dir.path())?;
        for round in 0..20 {
            // Half the rounds one by one, half as one group.
            if round % 2 == 0 {
                for chat in &chats {
                    log.append(chat, &said(round, &format!("{chat} {round}")))?;
                }
            } else {
                let group: Vec<(&str, Record)> = chats
                    .iter()
                    .rev()
                    .map(|chat| (chat.as_str(), said(round, &format!("{chat} {round}"))))
                    .collect();
                log.append_batch(&group)?;
            }
        }
        log.flush()?;
    }
    let log = EventLog::open(dir.path())?;
    assert_eq!(log.len(), 2_000);
    for chat in &chats {
        let replayed = log.chat(chat)?;
        let expected: Vec<String> = (0..20).map(|round| format!("{chat} {round}")).collect();
        assert_eq!(replayed.state.said, expected, "{chat}");
        assert_eq!((replayed.events, replayed.skipped), (20, 0));
        let seqs: Vec<u64> = log
            .records(chat)?
            .map(|e| e.map(|e| e.seq))
            .collect::<Result<_, _>>()?;
        assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{chat}: {seqs:?}");
        assert_eq!(replayed.last_seq, seqs[19]);
    }
    let listed: Vec<String> = log.chats().collect::<Result<_, _>>()?;
    assert_eq!(listed.len(), 100, "each chat once");
    assert_eq!(
        listed.iter().collect::<BTreeSet<_>>(),
        chats.iter().collect::<BTreeSet<_>>()
    );
    let all: Vec<(String, u64)> = log
        .replay_all()
        .map(|r| r.map(|(chat, replayed)| (chat, replayed.events)))
        .collect::<Result<_, _>>()?;
    assert_eq!(all.len(), 100);
    assert!(all.iter().all(|(_, events)| *events == 20));
    Ok(())
}

#[test]
fn a_chat_with_nothing_logged_comes_back_empty() -> Outcome {
    let dir = tempfile::tempdir()?;
    let log = EventLog::open(dir.path())?;
    log.append("c1", &said(1, "push it"))?;
    let replayed = log.chat("c")?;
    assert_eq!(replayed.state, ChatState::default());
    assert_eq!(
        (replayed.last_seq, replayed.events, replayed.snapshot),
        (0, 0, None)
    );
    assert_eq!(log.chats().count(), 1);
    Ok(())
}

#[test]
fn chat_ids_that_share_a_beginning_stay_apart() -> Outcome {
    let dir = tempfile::tempdir()?;
    let log = EventLog::open(dir.path())?;
    for chat in ["a", "ab", "a\u{0}", "b", ""] {
        log.append(chat, &said(1, chat))?;
    }
    for chat in ["a", "ab", "a\u{0}", "b", ""] {
        assert_eq!(
            log.chat(chat)?.state.said,
            vec![chat.to_string()],
            "{chat:?}"
        );
    }
    assert_eq!(log.chats().count(), 5);
    Ok(())
}

#[test]
fn an_unknown_record_version_is_skipped_and_counted() -> Outcome {
    let dir = tempfile::tempdir()?;
    let seq = {
        let log = EventLog::open(dir.path())?;
        log.append("c1", &said(1, "push it"))?;
        log.append_durable("c1", &said(2, "then tag it"))?
    };
    put_raw(
        dir.path(),
        "events",
        &key("c1", seq + 1),
        b"\x09from a newer warden",
    )?;
    let log = EventLog::open(dir.path())?;
    log.append("c1", &said(3, "and release"))?;
    let replayed = log.chat("c1")?;
    assert_eq!(
        replayed.state.said,
        ["push it", "then tag it", "and release"]
    );
    assert_eq!((replayed.events, replayed.skipped), (3, 1));
    let skips: Vec<Skip> = log
        .records("c1")?
        .filter_map(|e| e.ok().and_then(|e| e.record.err()))
        .collect();
    assert_eq!(skips, [Skip::Version(9)]);
    drop(log);
    let report = check(dir.path())?;
    assert_eq!((report.events, report.skipped), (3, 1));
    assert_eq!(
        report.skips,
        [format!(
            "chat `c1`, sequence {}: record version 9, this warden reads 1",
            seq + 1
        )]
    );
    assert!(!report.is_clean());
    Ok(())
}

#[test]
fn a_variant_from_a_newer_warden_is_skipped_and_counted() -> Outcome {
    let dir = tempfile::tempdir()?;
    {
        let log = EventLog::open(dir.path())?;
        log.append_durable("c1", &said(1, "push it"))?;
    }
    // Version 1, at_ms 5 (zigzag 10), then variant 200 (varint c8 01): no warden has it yet.
    put_raw(
        dir.path(),
        "events",
        &key("c1", u64::MAX / 2),
        b"\x01\x0a\xc8\x01\x03abc",
    )?;
    let log = EventLog::open(dir.path())?;
    let replayed = log.chat("c1")?;
    assert_eq!((replayed.events, replayed.skipped), (1, 1));
    assert_eq!(replayed.state.said, ["push it"]);
    Ok(())
}

#[test]
fn a_key_that_names_no_chat_is_reported_not_fatal() -> Outcome {
    let dir = tempfile::tempdir()?;
    {
        let log = EventLog::open(dir.path())?;
        log.append("c1", &said(1, "push it"))?;
        log.append("c2", &said(1, "push it"))?;
        log.flush()?;
    }
    // One sorts before every chat; one sits among c1's keys, too short for a sequence number.
    put_raw(dir.path(), "events", b"\x00\x01", b"\x01\x00\x02")?;
    put_raw(dir.path(), "events", b"\x00\x02c1\x01", b"\x01\x00\x02")?;
    let log = EventLog::open(dir.path())?;
    let listed: Vec<Result<String, LogError>> = log.chats().collect();
    assert_eq!(listed.len(), 3, "{listed:?}");
    assert!(
        matches!(&listed[0], Err(LogError::BadKey { key, .. }) if key == "\\x00\\x01"),
        "{listed:?}"
    );
    assert_eq!(listed[1].as_ref().ok().map(String::as_str), Some("c1"));
    assert_eq!(listed[2].as_ref().ok().map(String::as_str), Some("c2"));
    let replayed = log.chat("c1")?;
    assert_eq!((replayed.events, replayed.skipped), (1, 1));
    drop(log);
    let report = check(dir.path())?;
    assert_eq!((report.chats, report.events, report.skipped), (2, 2, 2));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random bytes where a record should be: never a panic, never a failed replay; each is
    /// either read or skipped and counted.
    #[test]
    fn corrupt_values_are_skipped_and_counted(values in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..40), 1..8)) {
        let dir = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let log = EventLog::open(dir.path()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        log.append_durable("c1", &said(1, "push it")).map_err(|e| TestCaseError::fail(e.to_string()))?;
        drop(log);
        for (i, value) in values.iter().enumerate() {
            put_raw(dir.path(), "events", &key("c1", u64::MAX - i as u64), value)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
        let log = EventLog::open(dir.path()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let replayed = log.chat("c1").map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(replayed.events + replayed.skipped, 1 + values.len() as u64);
        prop_assert_eq!(replayed.state.said.first().map(String::as_str), Some("push it"));
        drop(log);
        let report = check(dir.path()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!((report.events, report.skipped), (replayed.events, replayed.skipped));
    }
}

#[test]
fn a_value_of_random_bytes_that_fails_to_decode_is_skipped() -> Outcome {
    let dir = tempfile::tempdir()?;
    {
        EventLog::open(dir.path())?.append_durable("c1", &said(1, "push it"))?;
    }
    // An overlong varint where the time should be: no reading makes an event of it.
    put_raw(
        dir.path(),
        "events",
        &key("c1", u64::MAX),
        &[
            1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        ],
    )?;
    put_raw(dir.path(), "events", &key("c1", u64::MAX - 1), &[])?;
    let log = EventLog::open(dir.path())?;
    let replayed = log.chat("c1")?;
    assert_eq!((replayed.events, replayed.skipped), (1, 2));
    let skips: Vec<Skip> = log
        .records("c1")?
        .filter_map(|e| e.ok().and_then(|e| e.record.err()))
        .collect();
    assert_eq!(skips.len(), 2);
    assert_eq!(skips[0], Skip::Empty);
    assert!(matches!(skips[1], Skip::Undecodable(_)), "{skips:?}");
    Ok(())
}

#[test]
fn a_chat_comes_back_from_its_snapshot_and_the_records_after_it() -> Outcome {
    let dir = tempfile::tempdir()?;
    let mut records = Vec::new();
    {
        let log = EventLog::open(dir.path())?;
        let mut last = 0;
        for i in 0..2_500 {
            let record = said(i, &format!("message {i}"));
            last = log.append("c1", &record)?;
            records.push(record);
            if i == 1_999 {
                let state = ChatState::replay(&records);
                assert!(log.snapshot("c1", last, &state)?);
            }
        }
        assert!(last > 0);
        log.flush()?;
    }
    let log = EventLog::open(dir.path())?;
    let replayed = log.chat("c1")?;
    assert_eq!(replayed.state, ChatState::replay(&records));
    assert_eq!(replayed.events, 500, "only the records after the snapshot");
    assert!(replayed.snapshot.is_some_and(|s| s < replayed.last_seq));
    drop(log);
    let report = check(dir.path())?;
    assert!(report.is_clean(), "{report}");
    assert_eq!((report.events, report.snapshots), (2_500, 1));
    Ok(())
}

#[test]
fn a_snapshot_that_disagrees_with_its_events_is_reported() -> Outcome {
    let dir = tempfile::tempdir()?;
    {
        let log = EventLog::open(dir.path())?;
        let seq = log.append("c1", &said(1, "push it"))?;
        let wrong = ChatState {
            said: vec!["delete everything".into()],
            events: 1,
            ..ChatState::default()
        };
        assert!(log.snapshot("c1", seq, &wrong)?);
        log.append_durable("c1", &said(2, "then tag it"))?;
    }
    let report = check(dir.path())?;
    assert_eq!(report.wrong_snapshots, ["c1"]);
    assert!(
        report
            .to_string()
            .contains("1 snapshot disagrees with its chat's events: `c1`"),
        "{report}"
    );
    Ok(())
}

#[test]
fn a_snapshot_of_another_version_is_ignored() -> Outcome {
    let dir = tempfile::tempdir()?;
    {
        let log = EventLog::open(dir.path())?;
        log.append_durable("c1", &said(1, "push it"))?;
    }
    put_raw(
        dir.path(),
        "snapshots",
        b"c1",
        b"\x63\x00\x00\x00\x00\x00\x00\x00\x09state",
    )?;
    let log = EventLog::open(dir.path())?;
    let replayed = log.chat("c1")?;
    assert_eq!(replayed.snapshot, None);
    assert_eq!(replayed.state.said, ["push it"]);
    drop(log);
    let report = check(dir.path())?;
    assert_eq!((report.snapshots, report.stale_snapshots), (1, 1));
    assert!(report.is_clean(), "a stale snapshot costs time, not events");
    Ok(())
}

#[test]
fn check_refuses_a_folder_without_a_log() -> Outcome {
    let dir = tempfile::tempdir()?;
    let missing = dir.path().join("nowhere");
    for path in [dir.path(), missing.as_path()] {
        let Err(e) = check(path) else {
            panic!("{} checked", path.display())
        };
        assert_eq!(
            e.to_string(),
            format!(
                "no event log in `{}`: the folder has no `db` file (a data folder holds its log in `log/`)",
                path.display()
            )
        );
    }
    assert!(!missing.exists(), "check creates nothing");
    Ok(())
}

#[test]
fn check_reads_what_the_log_holds() -> Outcome {
    let dir = tempfile::tempdir()?;
    {
        let log = EventLog::open(dir.path())?;
        let group: Vec<(&str, Record)> = (0..30)
            .map(|i| {
                (
                    ["c1", "c2", "c3"][i % 3],
                    Record {
                        at_ms: 1_700_000_000_000 + i as i64 * 1_000,
                        event: Event::Turn,
                    },
                )
            })
            .collect();
        log.append_batch(&group)?;
        log.flush()?;
    }
    let report = check(dir.path())?;
    assert_eq!(
        (
            report.chats,
            report.events,
            report.skipped,
            report.snapshots
        ),
        (3, 30, 0, 0)
    );
    assert_eq!(
        (report.oldest_ms, report.newest_ms),
        (Some(1_700_000_000_000), Some(1_700_000_029_000))
    );
    assert!(report.bytes > 0);
    let text = report.to_string();
    assert!(text.contains("3 chats, 30 events, 0 snapshots"), "{text}");
    assert!(
        text.contains("events from 2023-11-14 22:13:20 UTC to 2023-11-14 22:13:49 UTC"),
        "{text}"
    );
    Ok(())
}

#[test]
fn an_overlong_chat_id_is_refused_before_anything_is_written() -> Outcome {
    let dir = tempfile::tempdir()?;
    let log = EventLog::open(dir.path())?;
    let long = "x".repeat(70_000);
    let group = [
        ("c1", said(1, "push it")),
        (long.as_str(), said(2, "push it")),
    ];
    assert!(matches!(
        log.append_batch(&group),
        Err(LogError::ChatTooLong { len: 70_000, .. })
    ));
    assert!(matches!(
        log.append(&long, &said(1, "x")),
        Err(LogError::ChatTooLong { .. })
    ));
    assert!(log.is_empty(), "a group is written whole or not at all");
    Ok(())
}
