//! Records written by an older or a newer warden: what postcard and the version byte can do,
//! and the one thing they can't (a type inside a list must never grow).

use crate::{Outcome, key, put_raw, said};
use serde::{Deserialize, Serialize};
use warden::chat::Record;
use warden_storage::codec::{RECORD_VERSION, decode, encode, write_record};
use warden_storage::{EventLog, Skip};

/// The events as an older warden knew them.
mod v1 {
    use super::*;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Record {
        pub at_ms: i64,
        pub event: Event,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub enum Event {
        Said { text: String },
        Turn,
        Read { marks: Vec<Mark> },
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Mark {
        pub name: String,
    }
}

/// The same events a release later: a field appended to `Said`, a variant appended to the
/// enum, and (against the rule) a field added to `Mark`, which sits inside a list.
mod v2 {
    use super::*;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Record {
        pub at_ms: i64,
        pub event: Event,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub enum Event {
        Said {
            text: String,
            language: Option<String>,
            words: u32,
        },
        Turn,
        Read {
            marks: Vec<Mark>,
        },
        Paused {
            minutes: u32,
        },
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Mark {
        pub name: String,
        pub provenance: Option<String>,
    }
}

/// The bytes a record's value holds after its version byte.
fn body<T: Serialize>(value: &T) -> Result<Vec<u8>, postcard::Error> {
    let mut bytes = encode(RECORD_VERSION, value)?;
    assert_eq!(bytes.remove(0), RECORD_VERSION);
    Ok(bytes)
}

#[test]
fn an_older_reader_ignores_fields_appended_to_a_variant() -> Outcome {
    let newer = v2::Record {
        at_ms: 7,
        event: v2::Event::Said {
            text: "push it".into(),
            language: Some("en".into()),
            words: 2,
        },
    };
    let read: v1::Record = decode(&body(&newer)?)?;
    assert_eq!(
        read,
        v1::Record {
            at_ms: 7,
            event: v1::Event::Said {
                text: "push it".into()
            }
        }
    );
    Ok(())
}

#[test]
fn a_newer_reader_reads_fields_added_since_as_their_zero_value() -> Outcome {
    let older = v1::Record {
        at_ms: 7,
        event: v1::Event::Said {
            text: "push it".into(),
        },
    };
    let read: v2::Record = decode(&body(&older)?)?;
    assert_eq!(
        read,
        v2::Record {
            at_ms: 7,
            event: v2::Event::Said {
                text: "push it".into(),
                language: None,
                words: 0
            }
        }
    );
    // Nothing was missing: read exactly, the zero fill never used.
    let turn: v2::Record = decode(&body(&v1::Record {
        at_ms: 1,
        event: v1::Event::Turn,
    })?)?;
    assert_eq!(
        turn,
        v2::Record {
            at_ms: 1,
            event: v2::Event::Turn
        }
    );
    Ok(())
}

#[test]
fn an_older_reader_cannot_read_a_variant_appended_since() -> Outcome {
    let newer = v2::Record {
        at_ms: 7,
        event: v2::Event::Paused { minutes: 5 },
    };
    assert!(
        decode::<v1::Record>(&body(&newer)?).is_err(),
        "the log skips and counts it"
    );
    Ok(())
}

/// What postcard can't do: a type that sits inside a list, or anywhere but last, must never
/// grow. Its new bytes land in the middle, and an older reader takes them for the next item.
#[test]
fn a_type_inside_a_list_must_never_grow() -> Outcome {
    let newer = v2::Record {
        at_ms: 7,
        event: v2::Event::Read {
            marks: vec![
                v2::Mark {
                    name: "a web page".into(),
                    provenance: None,
                },
                v2::Mark {
                    name: "an email".into(),
                    provenance: None,
                },
            ],
        },
    };
    let read = decode::<v1::Record>(&body(&newer)?);
    let right = v1::Record {
        at_ms: 7,
        event: v1::Event::Read {
            marks: vec![
                v1::Mark {
                    name: "a web page".into(),
                },
                v1::Mark {
                    name: "an email".into(),
                },
            ],
        },
    };
    assert_ne!(
        read.ok(),
        Some(right),
        "read wrongly (the second mark is the first one's `None`), not refused"
    );
    Ok(())
}

/// A change that is not append-only gets a new version byte, and the reader keeps a decoder
/// for each older version: the version byte selects the migration.
#[test]
fn the_version_byte_selects_a_migration() -> Outcome {
    fn read(value: &[u8]) -> Result<v2::Record, Skip> {
        match value.split_first() {
            Some((2, body)) => decode(body).map_err(Skip::Undecodable),
            Some((1, body)) => decode::<v1::Record>(body)
                .map(migrate)
                .map_err(Skip::Undecodable),
            Some((v, _)) => Err(Skip::Version(*v)),
            None => Err(Skip::Empty),
        }
    }
    fn migrate(old: v1::Record) -> v2::Record {
        let event = match old.event {
            v1::Event::Said { text } => {
                let words = text.split_whitespace().count() as u32;
                v2::Event::Said {
                    text,
                    language: None,
                    words,
                }
            }
            v1::Event::Turn => v2::Event::Turn,
            v1::Event::Read { marks } => v2::Event::Read {
                marks: marks
                    .into_iter()
                    .map(|m| v2::Mark {
                        name: m.name,
                        provenance: None,
                    })
                    .collect(),
            },
        };
        v2::Record {
            at_ms: old.at_ms,
            event,
        }
    }
    let old = encode(
        1,
        &v1::Record {
            at_ms: 3,
            event: v1::Event::Read {
                marks: vec![v1::Mark {
                    name: "a web page".into(),
                }],
            },
        },
    )?;
    assert_eq!(
        read(&old),
        Ok(v2::Record {
            at_ms: 3,
            event: v2::Event::Read {
                marks: vec![v2::Mark {
                    name: "a web page".into(),
                    provenance: None
                }]
            }
        })
    );
    let old = encode(
        1,
        &v1::Record {
            at_ms: 3,
            event: v1::Event::Said {
                text: "push it now".into(),
            },
        },
    )?;
    assert!(matches!(
        read(&old),
        Ok(v2::Record {
            event: v2::Event::Said { words: 3, .. },
            ..
        })
    ));
    assert_eq!(read(b"\x03"), Err(Skip::Version(3)));
    Ok(())
}

/// A new field's zero value is what old records get: an enum reads as its first variant. So a
/// new field holding a mode is an `Option<Mode>`, never a bare `Mode` (variant 0 is PlanOnly).
#[test]
fn a_missing_enum_field_reads_as_its_first_variant() -> Outcome {
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Before {
        text: String,
    }
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct After {
        text: String,
        mode: warden::mode::Mode,
        was: Option<warden::mode::Mode>,
    }
    let read: After = decode(&body(&Before { text: "x".into() })?)?;
    assert_eq!(read.mode, warden::mode::Mode::PlanOnly);
    assert_eq!(read.was, None);
    Ok(())
}

/// A real record from a newer warden, whose `Said` grew a field: this warden reads it whole,
/// through the log.
#[test]
fn the_log_reads_a_record_with_fields_it_does_not_know() -> Outcome {
    let dir = tempfile::tempdir()?;
    {
        EventLog::open(dir.path())?.append_durable("c1", &said(1, "push it"))?;
    }
    let mut value = write_record(&said(2, "then tag it"))?;
    value.extend_from_slice(b"\x01\x02de"); // `language: Some("de")`
    put_raw(dir.path(), "events", &key("c1", u64::MAX), &value)?;
    let log = EventLog::open(dir.path())?;
    let replayed = log.chat("c1")?;
    assert_eq!((replayed.events, replayed.skipped), (2, 0));
    assert_eq!(replayed.state.said, ["push it", "then tag it"]);
    let last = log.records("c1")?.last().transpose()?.map(|e| e.record);
    assert_eq!(last, Some(Ok::<Record, Skip>(said(2, "then tag it"))));
    Ok(())
}
