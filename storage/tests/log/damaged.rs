//! A damaged log says what is damaged, and `serve` (which opens it) and `replay --check`
//! say the same; `replay --check` takes the data folder as well as the log's own.

use super::{Outcome, said};
use warden_storage::{EventLog, LogError, check};

fn made(dir: &std::path::Path) -> Outcome {
    let log = EventLog::open(dir)?;
    for n in 0..20 {
        log.append_durable(&format!("c{}", n % 3), &said(n, "push it"))?;
    }
    Ok(())
}

/// Opens `dir`, waiting while a log dropped a moment ago still holds its lock.
fn open(dir: &std::path::Path) -> Result<EventLog, LogError> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        match EventLog::open(dir) {
            Err(LogError::Locked { .. }) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => return other,
        }
    }
}

#[test]
fn a_log_whose_data_file_is_gone_is_damaged_not_empty() -> Outcome {
    let dir = tempfile::tempdir()?;
    let log = dir.path().join("log");
    made(&log)?;
    std::thread::sleep(std::time::Duration::from_millis(100));
    std::fs::remove_file(log.join("db"))?;
    let opened = open(&log).map(|_| ()).map_err(|e| e.to_string());
    let checked = check(&log).map(|_| ()).map_err(|e| e.to_string());
    let Err(said) = opened else {
        return Err("a log without its db opened as an empty one".into());
    };
    for part in ["is damaged", "`db` is missing", "fresh log", "restore"] {
        assert!(said.contains(part), "{part:?} not in {said}");
    }
    assert_eq!(checked, Err(said), "serve and replay --check say the same");
    // Nothing was made in its place.
    assert!(!log.join("db").exists());
    Ok(())
}

#[test]
fn replay_check_finds_the_log_in_a_data_folder() -> Outcome {
    let dir = tempfile::tempdir()?;
    made(&dir.path().join("log"))?;
    std::thread::sleep(std::time::Duration::from_millis(100));
    let report = check(dir.path())?;
    assert_eq!(report.events, 20, "{report}");
    let empty = tempfile::tempdir()?;
    let refused = check(empty.path()).map(|_| ()).map_err(|e| e.to_string());
    assert!(
        refused
            .as_ref()
            .is_err_and(|e| e.contains("no event log") && e.contains("log/")),
        "{refused:?}"
    );
    Ok(())
}

fn written(dir: &std::path::Path) -> Outcome {
    let log = EventLog::open(dir)?;
    for n in 0..200 {
        log.append_durable(&format!("c{}", n % 7), &said(n, &"words ".repeat(40)))?;
    }
    Ok(())
}

/// A closed log's data file damaged: cut in half, a block zeroed, bytes flipped here and
/// there.
fn damaged(damage: &str) -> Result<tempfile::TempDir, Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let log = dir.path().join("log");
    written(&log)?;
    let db = log.join("db");
    let mut bytes = std::fs::read(&db)?;
    let n = bytes.len();
    match damage {
        "cut" => bytes.truncate(n / 2),
        "zeroed" => bytes.iter_mut().skip(n / 3).take(4096).for_each(|b| *b = 0),
        _ => (0..n).step_by(97).for_each(|i| bytes[i] ^= 0x5a),
    }
    // The log above let go of its files when it was dropped; wait for sled's threads.
    std::thread::sleep(std::time::Duration::from_millis(200));
    std::fs::write(&db, &bytes)?;
    Ok(dir)
}

#[test]
fn events_lost_from_a_damaged_file_are_never_lost_in_silence() -> Outcome {
    for damage in ["cut", "zeroed", "flipped"] {
        let dir = damaged(damage)?;
        let log = dir.path().join("log");
        let opened = open(&log).map(|log| log.report().map(|r| r.events));
        let checked = check(&log).map(|r| r.events).map_err(|e| e.to_string());
        match opened {
            // Refused as damaged, with how many are lost and the next step; replay --check
            // says the same.
            Err(e) => {
                let said = e.to_string();
                for part in ["is damaged", "are lost", "witness", "restore", "remove"] {
                    assert!(said.contains(part), "{damage}: {part:?} not in {said}");
                }
                assert_eq!(checked, Err(said), "{damage}");
            }
            // Read: then every event is there.
            Ok(events) => assert_eq!(events?, 200, "{damage}: events lost in silence"),
        }
    }
    Ok(())
}
