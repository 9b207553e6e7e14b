//! `warden replay --check DIR`: walk every record and snapshot of a log and say what it holds,
//! what this warden can't read, and whether each snapshot agrees with its chat's events.

use crate::jetstream::{JetStreamLog, Settings};
use crate::sledlog::{SledLog, prefix_of};
use crate::{LogError, Replayed, Skip, codec};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use warden::chat::{ChatState, Record};

/// How many skipped records a report describes one by one.
const SKIPS_SHOWN: usize = 5;

/// What a log holds, as [`check`] found it. `Display` writes it for a person.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Report {
    /// The log's folder.
    pub path: String,
    /// Chats with at least one record.
    pub chats: u64,
    /// Records read.
    pub events: u64,
    /// Records this warden can't read: replay skips them.
    pub skipped: u64,
    /// The first few skipped records: the chat, the sequence number and why.
    pub skips: Vec<String>,
    /// Snapshots kept.
    pub snapshots: u64,
    /// Snapshots this warden ignores (another version, or bytes that don't decode): those
    /// chats replay from their first event.
    pub stale_snapshots: u64,
    /// Chats whose snapshot is not the fold of their events up to it.
    pub wrong_snapshots: Vec<String>,
    /// Bytes on disk.
    pub bytes: u64,
    /// The time of the oldest and the newest record read, in milliseconds since the epoch.
    pub oldest_ms: Option<i64>,
    pub newest_ms: Option<i64>,
    /// Steps a second look was asked about, by what for and what it answered (`lift
    /// not_risky`: a question the look lifted; `add none`: no answer, so a question).
    pub looks: BTreeMap<String, u64>,
}

impl Report {
    /// Whether every record was read and every snapshot agrees with its events (a stale
    /// snapshot is only ignored, so it doesn't count against the log).
    pub fn is_clean(&self) -> bool {
        self.skipped == 0 && self.wrong_snapshots.is_empty()
    }
}

/// Opens the log in `dir` and walks all of it: [`EventLog::report`]. Refuses a folder that
/// holds no log rather than creating one. sled writes a little on opening (its recovery), so
/// this is read-only in what it means, not in the bytes; and it can't run beside a warden that
/// has the log open.
pub fn check(dir: impl AsRef<Path>) -> Result<Report, LogError> {
    let dir = dir.as_ref();
    // A data folder holds its log in `log/`.
    let nested = dir.join("log");
    let dir =
        if !dir.join("db").exists() && !dir.join("conf").exists() && nested.join("db").is_file() {
            nested.as_path()
        } else {
            dir
        };
    if dir.join("conf").is_file() && !dir.join("db").exists() {
        // Damaged, not absent: said as `EventLog::open` says it.
        return SledLog::open(dir)?.report();
    }
    if !dir.join("db").is_file() {
        return Err(LogError::Missing {
            path: dir.display().to_string(),
        });
    }
    SledLog::open(dir)?.report()
}

/// Opens the JetStream stream `settings` names to read only and walks all of it:
/// [`JetStreamLog::report`]. Nothing is written to the stream, and a stream that is not
/// there is refused rather than made; it runs beside the warden nodes that write it.
pub fn check_stream(settings: &Settings) -> Result<Report, LogError> {
    JetStreamLog::open_to_read(settings)?.report()
}

/// One chat's walk: its replay so far, and the snapshot still to compare with it.
struct Walk {
    chat: Vec<u8>,
    replayed: Replayed,
    snapshot: Option<(u64, ChatState)>,
    /// Whether the chat has been counted (on its first key of the right shape).
    counted: bool,
}

impl SledLog {
    /// Walks every record and snapshot: what [`check`] reports.
    pub fn report(&self) -> Result<Report, LogError> {
        let mut report = Report {
            path: self.shown.clone(),
            bytes: self.size_on_disk()?,
            ..Report::default()
        };
        let engine = self.engine_now()?;
        for item in engine.snapshots.iter() {
            let (_, value) = item.map_err(|e| LogError::store(&self.shown, &e))?;
            report.snapshots += 1;
            if codec::read_snapshot(&value).is_none() {
                report.stale_snapshots += 1;
            }
        }
        // Every chat at once, in one pass over the log in the order sled keeps it.
        let mut walks: BTreeMap<Vec<u8>, Walk> = BTreeMap::new();
        let mut failed = None;
        self.fold_all(|chat, found| {
            let walk = walks.entry(prefix_of(chat)).or_insert_with(|| {
                let snapshot = match engine.snapshots.get(chat) {
                    Ok(value) => value.and_then(|v| codec::read_snapshot(&v)),
                    Err(e) => {
                        failed.get_or_insert(LogError::store(&self.shown, &e));
                        None
                    }
                };
                Walk {
                    chat: chat.to_vec(),
                    replayed: Replayed::default(),
                    snapshot,
                    counted: false,
                }
            });
            walk.take(&mut report, found);
        })?;
        if let Some(e) = failed {
            return Err(e);
        }
        for walk in walks.values_mut() {
            settle(&mut report, walk);
        }
        Ok(report)
    }
}

impl Walk {
    /// Counts one of the chat's records, oldest first, and compares its snapshot once past it.
    fn take(&mut self, report: &mut Report, found: crate::Entry) {
        let current = self;
        {
            if !current.counted && found.record != Err(Skip::Key) {
                // A chat is a group of keys with at least one of the right shape.
                current.counted = true;
                report.chats += 1;
            }
            count(
                report,
                &String::from_utf8_lossy(&current.chat),
                found.seq,
                &found.record,
            );
            if current
                .snapshot
                .as_ref()
                .is_some_and(|(seq, _)| found.seq > *seq)
            {
                settle(report, current);
            }
            current.replayed.take(found.seq, found.record);
        }
    }
}

/// Compares a chat's snapshot with its replay so far (every record up to the snapshot's
/// sequence), then lets the snapshot go. A replay that skipped a record is not compared: a
/// newer warden's snapshot may hold what this one can't read.
fn settle(report: &mut Report, walk: &mut Walk) {
    let Some((_, state)) = walk.snapshot.take() else {
        return;
    };
    if walk.replayed.skipped == 0 && walk.replayed.state != state {
        report
            .wrong_snapshots
            .push(String::from_utf8_lossy(&walk.chat).into_owned());
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "event log in `{}`", self.path)?;
        writeln!(
            f,
            "  {} {}, {} {}, {} {}, {} on disk",
            grouped(self.chats),
            plural(self.chats, "chat", "chats"),
            grouped(self.events),
            plural(self.events, "event", "events"),
            grouped(self.snapshots),
            plural(self.snapshots, "snapshot", "snapshots"),
            size(self.bytes),
        )?;
        match (self.oldest_ms, self.newest_ms) {
            (Some(oldest), Some(newest)) => {
                writeln!(f, "  events from {} to {}", utc(oldest), utc(newest))?;
            }
            _ => writeln!(f, "  no events")?,
        }
        if !self.looks.is_empty() {
            let looks: Vec<String> = self
                .looks
                .iter()
                .map(|(what, n)| format!("{what} {}", grouped(*n)))
                .collect();
            writeln!(f, "  second looks: {}", looks.join(", "))?;
        }
        if self.skipped > 0 {
            writeln!(
                f,
                "  {} {} skipped: this warden can't read {}, and replay goes on without {}",
                grouped(self.skipped),
                plural(self.skipped, "record", "records"),
                plural(self.skipped, "it", "them"),
                plural(self.skipped, "it", "them"),
            )?;
            for skip in &self.skips {
                writeln!(f, "    {skip}")?;
            }
            if self.skipped > self.skips.len() as u64 {
                writeln!(
                    f,
                    "    and {} more",
                    grouped(self.skipped - self.skips.len() as u64)
                )?;
            }
        }
        if self.stale_snapshots > 0 {
            writeln!(
                f,
                "  {} {} ignored (another version, or unreadable): {} from the first event",
                grouped(self.stale_snapshots),
                plural(self.stale_snapshots, "snapshot", "snapshots"),
                plural(
                    self.stale_snapshots,
                    "its chat replays",
                    "their chats replay"
                ),
            )?;
        }
        if !self.wrong_snapshots.is_empty() {
            let n = self.wrong_snapshots.len() as u64;
            let chats: Vec<String> = self
                .wrong_snapshots
                .iter()
                .take(SKIPS_SHOWN)
                .map(|c| format!("`{c}`"))
                .collect();
            let more = if n > SKIPS_SHOWN as u64 {
                format!(" and {} more", grouped(n - SKIPS_SHOWN as u64))
            } else {
                String::new()
            };
            writeln!(
                f,
                "  {} {} with its chat's events: {}{more}",
                grouped(n),
                plural(n, "snapshot disagrees", "snapshots disagree"),
                chats.join(", "),
            )?;
        }
        if self.is_clean() {
            write!(
                f,
                "  every record read; every snapshot agrees with its chat's events"
            )?;
        } else {
            write!(f, "  not clean")?;
        }
        Ok(())
    }
}

fn plural<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Bytes in the largest unit that keeps a number of at least 1.
fn size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Milliseconds since the epoch as `YYYY-MM-DD hh:mm:ss UTC` (the proleptic Gregorian
/// calendar, by Howard Hinnant's `civil_from_days`).
fn utc(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, of_day) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        of_day / 3_600,
        of_day % 3_600 / 60,
        of_day % 60
    )
}

impl JetStreamLog {
    /// Walks every chat of the stream and its snapshot, each chat's records to the end the
    /// stream's leader holds, each group's parts once it is whole: what
    /// [`crate::check_stream`] reports.
    pub fn report(&self) -> Result<Report, LogError> {
        let mut report = Report {
            path: self.shown().to_string(),
            bytes: self.size_on_disk()?,
            ..Report::default()
        };
        let chats: Vec<String> = self.chats().collect::<Result<_, _>>()?;
        for chat in chats {
            let records = self.records(&chat)?;
            if !records.is_empty() {
                report.chats += 1;
            }
            let snapshot = match self.snapshot_bytes(&chat)? {
                Some(bytes) => {
                    report.snapshots += 1;
                    let read = codec::read_snapshot(&bytes);
                    if read.is_none() {
                        report.stale_snapshots += 1;
                    }
                    read
                }
                None => None,
            };
            let mut walk = Walk {
                chat: chat.clone().into_bytes(),
                replayed: Replayed::default(),
                snapshot,
                counted: true,
            };
            for found in records {
                count(&mut report, &chat, found.seq, &found.record);
                if walk
                    .snapshot
                    .as_ref()
                    .is_some_and(|(seq, _)| found.seq > *seq)
                {
                    settle(&mut report, &mut walk);
                }
                walk.replayed.take(found.seq, found.record);
            }
            settle(&mut report, &mut walk);
        }
        Ok(report)
    }
}

/// Counts one record of `chat` into the report: read (its time, its second look) or skipped.
fn count(report: &mut Report, chat: &str, seq: u64, record: &Result<Record, Skip>) {
    match record {
        Ok(record) => {
            report.events += 1;
            if let warden::chat::Event::Judged {
                look: Some(look), ..
            } = &record.event
            {
                let purpose = match look.purpose {
                    warden::second_look::Purpose::Lift => "lift",
                    warden::second_look::Purpose::Add => "add",
                };
                let answer = look.answer.map_or("none", |kind| kind.name());
                *report
                    .looks
                    .entry(format!("{purpose} {answer}"))
                    .or_default() += 1;
            }
            report.oldest_ms = Some(
                report
                    .oldest_ms
                    .map_or(record.at_ms, |t| t.min(record.at_ms)),
            );
            report.newest_ms = Some(
                report
                    .newest_ms
                    .map_or(record.at_ms, |t| t.max(record.at_ms)),
            );
        }
        Err(skip) => {
            report.skipped += 1;
            if report.skips.len() < SKIPS_SHOWN {
                report
                    .skips
                    .push(format!("chat `{chat}`, sequence {seq}: {skip}"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_dates() {
        let cases = [
            (0, "1970-01-01 00:00:00 UTC"),
            (1_700_000_000_000, "2023-11-14 22:13:20 UTC"),
            (951_782_400_000, "2000-02-29 00:00:00 UTC"),
            (-1, "1969-12-31 23:59:59 UTC"),
        ];
        for (ms, text) in cases {
            assert_eq!(utc(ms), text, "{ms}");
        }
    }

    #[test]
    fn numbers_read_easily() {
        for (n, text) in [
            (0, "0"),
            (999, "999"),
            (1_000, "1,000"),
            (1_234_567, "1,234,567"),
        ] {
            assert_eq!(grouped(n), text);
        }
        for (n, text) in [
            (5, "5 bytes"),
            (2_048, "2.0 KiB"),
            (3 * 1024 * 1024 + 512 * 1024, "3.5 MiB"),
        ] {
            assert_eq!(size(n), text);
        }
    }

    #[test]
    fn a_clean_report_says_so() {
        let report = Report {
            path: "/var/warden/log".into(),
            chats: 1_000,
            events: 1_000_000,
            snapshots: 1,
            bytes: 400 * 1024 * 1024,
            oldest_ms: Some(0),
            newest_ms: Some(1_700_000_000_000),
            ..Report::default()
        };
        assert_eq!(
            report.to_string(),
            "event log in `/var/warden/log`\n  \
             1,000 chats, 1,000,000 events, 1 snapshot, 400.0 MiB on disk\n  \
             events from 1970-01-01 00:00:00 UTC to 2023-11-14 22:13:20 UTC\n  \
             every record read; every snapshot agrees with its chat's events"
        );
    }

    #[test]
    fn a_report_with_problems_names_them() {
        let report = Report {
            path: "/l".into(),
            chats: 1,
            events: 2,
            skipped: 7,
            skips: vec!["chat `c1`, sequence 42: record version 9, this warden reads 1".into()],
            snapshots: 3,
            stale_snapshots: 1,
            wrong_snapshots: vec!["c2".into()],
            bytes: 10,
            oldest_ms: Some(0),
            newest_ms: Some(0),
            looks: [
                ("lift not_risky".to_string(), 2),
                ("add none".to_string(), 1),
            ]
            .into_iter()
            .collect(),
        };
        assert!(!report.is_clean());
        assert_eq!(
            report.to_string(),
            "event log in `/l`\n  \
             1 chat, 2 events, 3 snapshots, 10 bytes on disk\n  \
             events from 1970-01-01 00:00:00 UTC to 1970-01-01 00:00:00 UTC\n  \
             second looks: add none 1, lift not_risky 2\n  \
             7 records skipped: this warden can't read them, and replay goes on without them\n    \
             chat `c1`, sequence 42: record version 9, this warden reads 1\n    \
             and 6 more\n  \
             1 snapshot ignored (another version, or unreadable): its chat replays from the first event\n  \
             1 snapshot disagrees with its chat's events: `c2`\n  \
             not clean"
        );
    }
}
