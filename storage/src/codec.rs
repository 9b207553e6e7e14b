//! How records and snapshots are written as bytes, and what a reader does with bytes written
//! by an older or a newer warden.
//!
//! A record's value is `[RECORD_VERSION][postcard(Record)]`. postcard is not self-describing:
//! no field names, no lengths around structs, a variant is its index. So compatibility rests on
//! one rule about *where* new bytes go, plus the version byte for everything else:
//!
//! - **Append only.** A new field goes at the end of an `Event` variant; a new variant goes at
//!   the end of `Event`. `Record` itself stays `{ at_ms, event }` so a variant's fields are the
//!   last bytes of the value. A type nested anywhere but last (`Mark` inside `Vec<Mark>`, a
//!   field followed by others) never grows: change it with a new variant instead.
//! - **Older reader, newer record.** [`decode`] uses `postcard::take_from_bytes`, which reads
//!   the fields it knows and leaves the rest: the fields added since are ignored. A variant it
//!   doesn't know fails to decode, and the record is skipped and counted ([`Skip`]).
//! - **Newer reader, older record.** The record ends before the fields added since. [`decode`]
//!   then reads it again followed by [`ZERO_FILL`] zero bytes, so each missing field reads as
//!   its zero value: `None`, an empty `Vec` or `String`, `false`, `0`. So a new field's type
//!   must be one whose zero value is the right default for old records (`Option<Mode>`, not
//!   `Mode`, whose variant 0 is `PlanOnly`).
//! - **Anything else** (a field removed, reordered or retyped) is a new layout: bump
//!   [`RECORD_VERSION`], and keep a decoder for each older version that turns it into today's
//!   `Record` (the version byte selects it in [`read_record`]). A reader skips, and counts,
//!   every version above its own.
//!
//! What postcard cannot do: tell a new record from a damaged one. Bytes that happen to decode
//! are read as an event; the zero fill also reads a value cut short as if it were older. sled
//! checksums what it writes, so this takes a bug or a hand edit, not a bad disk.
//!
//! A snapshot's value is `[SNAPSHOT_VERSION][u64 BE sequence][postcard(ChatState)]`. A
//! snapshot is a cache, so its decoding is strict: one that doesn't decode to the last byte
//! is ignored and the chat replays from its first event.

use serde::{Serialize, de::DeserializeOwned};
use std::fmt;
use warden::chat::{ChatState, Record};

/// The layout of records this warden writes, in front of every value. Bumped only for a change
/// that is not append-only; appended fields and variants keep it.
pub const RECORD_VERSION: u8 = 1;

/// The layout of snapshots. Bump it whenever `ChatState` or a type inside it changes: old
/// snapshots are then ignored and each chat replays once from its first event.
pub const SNAPSHOT_VERSION: u8 = 6;

/// Zero bytes read after an older record, enough for the fields added since (one byte for an
/// `Option`, a `Vec`, a `String`, a `bool` or an integer; eight for an `f64`).
pub const ZERO_FILL: usize = 64;

/// Why a stored record was skipped. Replay goes on without it, and says how many it skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skip {
    /// The value is empty: not even a version byte.
    Empty,
    /// A version this warden doesn't know (written by a newer one, or damaged).
    Version(u8),
    /// The version is known but the bytes don't decode (a variant this warden doesn't know,
    /// or damage), with postcard's reason.
    Undecodable(String),
    /// The key is not a chat id and a sequence number.
    Key,
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::Empty => f.write_str("an empty value"),
            Skip::Version(v) => write!(f, "record version {v}, this warden reads {RECORD_VERSION}"),
            Skip::Undecodable(why) => write!(f, "undecodable: {why}"),
            Skip::Key => f.write_str("a key that is not a chat id and a sequence number"),
        }
    }
}

/// `[version][postcard(value)]`.
pub fn encode<T: Serialize>(version: u8, value: &T) -> Result<Vec<u8>, postcard::Error> {
    postcard::to_extend(value, vec![version])
}

/// Reads a value from the bytes after its version byte: trailing bytes (fields added by a
/// newer warden) are ignored, and a value that ends early (written before fields were added)
/// is read with those fields at their zero value.
pub fn decode<T: DeserializeOwned>(body: &[u8]) -> Result<T, String> {
    match postcard::take_from_bytes::<T>(body) {
        Ok((value, _newer_fields)) => Ok(value),
        Err(postcard::Error::DeserializeUnexpectedEnd) => {
            let mut filled = Vec::with_capacity(body.len() + ZERO_FILL);
            filled.extend_from_slice(body);
            filled.resize(body.len() + ZERO_FILL, 0);
            postcard::take_from_bytes::<T>(&filled)
                .map(|(value, _)| value)
                .map_err(|e| e.to_string())
        }
        Err(e) => Err(e.to_string()),
    }
}

/// A record's value as this warden reads it, or why it can't.
pub fn read_record(value: &[u8]) -> Result<Record, Skip> {
    match value.split_first() {
        None => Err(Skip::Empty),
        Some((&RECORD_VERSION, body)) => decode(body).map_err(Skip::Undecodable),
        // Older layouts, once there are any, are decoded here into today's `Record`.
        Some((&version, _)) => Err(Skip::Version(version)),
    }
}

/// A record's value.
pub fn write_record(record: &Record) -> Result<Vec<u8>, postcard::Error> {
    encode(RECORD_VERSION, record)
}

/// A snapshot's value: the state after every event up to and including `seq`.
pub fn write_snapshot(seq: u64, state: &ChatState) -> Result<Vec<u8>, postcard::Error> {
    let mut value = Vec::with_capacity(256);
    value.push(SNAPSHOT_VERSION);
    value.extend_from_slice(&seq.to_be_bytes());
    postcard::to_extend(state, value)
}

/// A snapshot's sequence number and state, or `None` when this warden can't trust it (another
/// version, or bytes that don't decode exactly): the chat then replays from its first event.
pub fn read_snapshot(value: &[u8]) -> Option<(u64, ChatState)> {
    let (&SNAPSHOT_VERSION, rest) = value.split_first()? else {
        return None;
    };
    let (seq, body) = rest.split_first_chunk::<8>()?;
    match postcard::take_from_bytes::<ChatState>(body) {
        Ok((state, [])) => Some((u64::from_be_bytes(*seq), state)),
        Ok(_) | Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warden::chat::{Event, Kept, Mark};
    use warden::mode::Mode;

    fn said(text: &str) -> Record {
        Record {
            at_ms: 1_700_000_000_000,
            event: Event::Said { text: text.into() },
        }
    }

    #[test]
    fn a_record_comes_back_as_written() -> Result<(), postcard::Error> {
        let records = [
            said("push it"),
            Record {
                at_ms: -5,
                event: Event::Read {
                    mark: Mark {
                        name: "a web page".into(),
                        provenance: Some("GitHub".into()),
                    },
                },
            },
            Record {
                at_ms: 0,
                event: Event::Answered {
                    question: 7,
                    answer: warden::chat::Answer::Always,
                    kept: Some(Kept {
                        tool: "Bash".into(),
                        class: "git.push".into(),
                    }),
                    ran: None,
                },
            },
        ];
        for record in records {
            let value = write_record(&record)?;
            assert_eq!(value[0], RECORD_VERSION);
            assert_eq!(read_record(&value), Ok(record));
        }
        Ok(())
    }

    #[test]
    fn a_judged_step_written_before_the_look_was_kept_reads_as_no_look()
    -> Result<(), postcard::Error> {
        let judged = |look| Record {
            at_ms: 1_700_000_000_000,
            event: Event::Judged {
                tool: "Bash".into(),
                decision: warden::verdict::Decision::Allow,
                score: 3,
                rules: vec!["git.push".into()],
                counts: Vec::new(),
                look,
                fetched: Vec::new(),
                written: Vec::new(),
            },
        };
        // The layout before issue 18 is today's without its last three fields (`None` and an
        // empty list are one zero byte each, at the end); before what was fetched was kept,
        // without its last two; before what was written was kept, without its last one.
        let today = write_record(&judged(None))?;
        assert_eq!(today.get(today.len() - 3..), Some(&[0, 0, 0][..]));
        for cut in [1, 2, 3] {
            let before = &today[..today.len() - cut];
            assert_eq!(read_record(before), Ok(judged(None)), "{cut} fields cut");
        }
        // What a step fetched comes back as written.
        let mut fetching = judged(None);
        if let Event::Judged { fetched, .. } = &mut fetching.event {
            fetched.push(warden::chat::Fetched {
                path: "/tmp/i.sh".into(),
                from: Some("get.example.sh".into()),
            });
        }
        assert_eq!(read_record(&write_record(&fetching)?), Ok(fetching));
        // What a step wrote comes back as written.
        let mut writing = judged(None);
        if let Event::Judged { written, .. } = &mut writing.event {
            written.push(warden::chat::Written {
                path: "/tmp/x".into(),
                rule: "critical.wipe".into(),
                reason: "delete everything in your home folder".into(),
            });
        }
        assert_eq!(read_record(&write_record(&writing)?), Ok(writing));
        // A look, with or without an answer, comes back as written.
        for answer in [None, Some(warden::second_look::Kind::NotRisky)] {
            let record = judged(Some(warden::second_look::Looked {
                purpose: warden::second_look::Purpose::Lift,
                answer,
            }));
            assert_eq!(read_record(&write_record(&record)?), Ok(record));
        }
        Ok(())
    }

    #[test]
    fn a_question_and_an_answer_written_before_the_card_was_kept_read_as_none()
    -> Result<(), postcard::Error> {
        let asked = |reason: &str, shown| Record {
            at_ms: 1_700_000_000_000,
            event: Event::Asked {
                question: 4,
                tool: "Bash".into(),
                class: "git.push".into(),
                offers: warden::chat::Offers::default(),
                counts: Vec::new(),
                lookup: false,
                reason: reason.into(),
                shown,
            },
        };
        // Before issue 14 the record ended at `lookup`: today's without its last two
        // fields (an empty string and `None`, one zero byte each).
        let today = write_record(&asked("", None))?;
        assert_eq!(&today[today.len() - 2..], &[0, 0]);
        assert_eq!(read_record(&today[..today.len() - 2]), Ok(asked("", None)));
        let card = asked(
            "Push main to origin, after this chat read a web page.",
            Some(warden::chat::Shown {
                kind: "command".into(),
                text: "git push origin main".into(),
                detail: String::new(),
                cut: 0,
            }),
        );
        assert_eq!(read_record(&write_record(&card)?), Ok(card));
        let answered = |ran: Option<&str>| Record {
            at_ms: 0,
            event: Event::Answered {
                question: 4,
                answer: warden::chat::Answer::Once,
                kept: None,
                ran: ran.map(str::to_string),
            },
        };
        let today = write_record(&answered(None))?;
        assert_eq!(read_record(&today[..today.len() - 1]), Ok(answered(None)));
        let by_step = answered(Some("toolu_1"));
        assert_eq!(read_record(&write_record(&by_step)?), Ok(by_step));
        Ok(())
    }

    #[test]
    fn values_that_are_not_records_are_skipped_with_a_reason() {
        let cases: &[(&[u8], Skip)] = &[
            (b"", Skip::Empty),
            (b"\x00\x01", Skip::Version(0)),
            (b"\x09anything", Skip::Version(9)),
        ];
        for (value, skip) in cases {
            assert_eq!(read_record(value).as_ref(), Err(skip), "{value:?}");
        }
        // A variant index no warden has written yet.
        assert!(matches!(
            read_record(b"\x01\x00\x7f"),
            Err(Skip::Undecodable(_))
        ));
    }

    #[test]
    fn a_snapshot_is_read_only_when_it_decodes_exactly() -> Result<(), postcard::Error> {
        let state = ChatState {
            mode: Mode::AskFirst,
            said: vec!["push it".into()],
            events: 3,
            ..ChatState::default()
        };
        let value = write_snapshot(42, &state)?;
        assert_eq!(read_snapshot(&value), Some((42, state)));

        let mut longer = value.clone();
        longer.push(0);
        assert_eq!(
            read_snapshot(&longer),
            None,
            "a newer state: trailing bytes"
        );
        assert_eq!(
            read_snapshot(&value[..value.len() - 1]),
            None,
            "an older state: cut short"
        );
        let mut other = value;
        other[0] = SNAPSHOT_VERSION + 1;
        assert_eq!(read_snapshot(&other), None, "another version");
        assert_eq!(read_snapshot(b""), None);
        assert_eq!(read_snapshot(&[SNAPSHOT_VERSION, 0, 0]), None);
        Ok(())
    }
}
