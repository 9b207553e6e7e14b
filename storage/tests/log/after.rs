//! What a client that saw the log up to one sequence number missed: every stream's records
//! after it, oldest first, a bounded page at a time, the same after a reopen.

use crate::{Outcome, said};
use warden::chat::Record;
use warden_storage::EventLog;

/// Records as (sequence, stream, text), oldest first.
type Seen = Result<Vec<(u64, String, String)>, Box<dyn std::error::Error>>;

/// Every record of the log as (sequence, stream, text), oldest first, read stream by stream.
fn everything(log: &EventLog) -> Seen {
    let mut all = Vec::new();
    for chat in log.chats() {
        let chat = chat?;
        for entry in log.records(&chat)? {
            let entry = entry?;
            let text = match entry.record {
                Ok(Record {
                    event: warden::chat::Event::Said { text },
                    ..
                }) => text,
                other => format!("{other:?}"),
            };
            all.push((entry.seq, chat.clone(), text));
        }
    }
    all.sort();
    Ok(all)
}

/// The pages of `after`, from `from`, `limit` at a time, until one comes back short.
fn paged(log: &EventLog, from: u64, limit: usize) -> Seen {
    let mut seen = Vec::new();
    let mut last = from;
    loop {
        let page = log.after(last, limit)?;
        assert!(page.len() <= limit, "a page holds at most {limit}");
        let n = page.len();
        for (chat, entry) in page {
            assert!(entry.seq > last, "{} after {last}", entry.seq);
            last = entry.seq;
            let text = match entry.record {
                Ok(Record {
                    event: warden::chat::Event::Said { text },
                    ..
                }) => text,
                other => format!("{other:?}"),
            };
            seen.push((entry.seq, chat, text));
        }
        if n < limit {
            return Ok(seen);
        }
    }
}

#[test]
fn the_records_after_a_sequence_come_oldest_first_from_every_stream() -> Outcome {
    let dir = tempfile::tempdir()?;
    let chats = ["a", "bb", "c1", "~preferences", "a chat with spaces"];
    {
        let log = EventLog::open(dir.path())?;
        for round in 0..30 {
            // Interleaved one at a time, and as batches over every stream.
            if round % 3 == 0 {
                let group: Vec<(&str, Record)> = chats
                    .iter()
                    .rev()
                    .map(|chat| (*chat, said(round, &format!("{chat} {round}"))))
                    .collect();
                log.append_batch(&group)?;
            } else {
                let chat = chats[round as usize % chats.len()];
                log.append(chat, &said(round, &format!("{chat} {round}")))?;
            }
        }
        log.flush()?;
        let all = everything(&log)?;
        assert_eq!(all.len(), 10 * chats.len() + 20);
        // From the start, from every point, at every page size: exactly what follows.
        for limit in [1, 2, 7, 1_000] {
            assert_eq!(paged(&log, 0, limit)?, all, "from 0, {limit} a page");
        }
        for (i, (seq, _, _)) in all.iter().enumerate().step_by(5) {
            assert_eq!(paged(&log, *seq, 4)?, all[i + 1..].to_vec(), "after {seq}");
        }
        let last = all.last().map_or(0, |(seq, _, _)| *seq);
        assert!(log.after(last, 10)?.is_empty(), "nothing after the newest");
        assert!(log.after(0, 0)?.is_empty(), "a page of none");
        // The first page is the oldest, whichever stream holds it.
        let first = log.after(0, 3)?;
        let seqs: Vec<u64> = first.iter().map(|(_, e)| e.seq).collect();
        assert_eq!(
            seqs,
            all[..3].iter().map(|(s, _, _)| *s).collect::<Vec<_>>()
        );
    }
    // The same after the log is opened again, and newer records follow the older ones.
    let log = EventLog::open(dir.path())?;
    let before = everything(&log)?;
    let newest = before.last().map_or(0, |(seq, _, _)| *seq);
    log.append("bb", &said(99, "bb after reopening"))?;
    log.flush()?;
    let after = log.after(newest, 10)?;
    assert_eq!(after.len(), 1);
    assert_eq!(after[0].0, "bb");
    assert!(after[0].1.seq > newest);
    assert_eq!(paged(&log, 0, 16)?.len(), before.len() + 1);
    Ok(())
}

#[test]
fn each_stream_names_its_newest_record() -> Outcome {
    let dir = tempfile::tempdir()?;
    let log = EventLog::open(dir.path())?;
    assert!(log.latest()?.is_empty());
    assert_eq!(log.newest()?, 0);
    let a1 = log.append("a", &said(1, "one"))?;
    let b1 = log.append("b", &said(2, "two"))?;
    let a2 = log.append("a", &said(3, "three"))?;
    assert!(a1 < b1 && b1 < a2);
    assert_eq!(
        log.latest()?,
        vec![("a".to_string(), a2), ("b".to_string(), b1)]
    );
    // The whole log's newest, whichever stream holds it.
    assert_eq!(log.newest()?, a2);
    let b2 = log.append("b", &said(4, "four"))?;
    assert_eq!(log.newest()?, b2);
    Ok(())
}
