//! A full disk, for real: a small tmpfs (2 MiB) mounted for the test and filled up under the
//! log. sled fails, and keeps failing after the space is back, until the log is opened again
//! ([`EventLog::reopen`]); nothing flushed is lost, and the log opens again whole.
//!
//! Mounting needs root. Where it is refused the test says so and passes, unless
//! `WARDEN_REQUIRE_TMPFS=1` (CI sets it), where it fails.

use crate::{Outcome, said};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use warden_storage::{EventLog, LogError};

/// A tmpfs mounted for one test, unmounted when dropped.
pub struct Tmpfs {
    _dir: tempfile::TempDir,
    mount: PathBuf,
}

impl Tmpfs {
    /// Mounts a tmpfs of `size` (as `mount -o size=` takes it), or says why it can't.
    pub fn mount(size: &str) -> Result<Option<Tmpfs>, Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let mount = dir.path().join("mnt");
        std::fs::create_dir(&mount)?;
        let output = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&mount)
            .output();
        let refused = match output {
            Ok(output) if output.status.success() => None,
            Ok(output) => Some(String::from_utf8_lossy(&output.stderr).trim().to_string()),
            Err(e) => Some(e.to_string()),
        };
        match refused {
            None => Ok(Some(Tmpfs { _dir: dir, mount })),
            Some(why) if std::env::var_os("WARDEN_REQUIRE_TMPFS").is_some_and(|v| v == "1") => Err(
                format!("a tmpfs could not be mounted ({why}), and WARDEN_REQUIRE_TMPFS=1").into(),
            ),
            Some(why) => {
                eprintln!(
                    "not tested: a tmpfs could not be mounted ({why}); run as root, or set WARDEN_REQUIRE_TMPFS=1 to make this a failure"
                );
                Ok(None)
            }
        }
    }

    pub fn path(&self) -> &Path {
        &self.mount
    }

    /// Writes a file until the file system is full; its path.
    pub fn fill(&self) -> Result<PathBuf, Box<dyn std::error::Error>> {
        let filler = self.mount.join("filler");
        let mut file = std::fs::File::create(&filler)?;
        let chunk = vec![0xa5_u8; 4096];
        for _ in 0..100_000 {
            if let Err(e) = file.write_all(&chunk) {
                if e.raw_os_error() == Some(28) {
                    return Ok(filler);
                }
                return Err(e.into());
            }
        }
        Err("the tmpfs never filled up".into())
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.mount).status();
    }
}

/// Appends and flushes one message to `c1`; whether both went through.
fn written(log: &EventLog, n: usize) -> Result<(), LogError> {
    log.append(
        "c1",
        &said(n as i64, &format!("message {n:05} {}", "x".repeat(200))),
    )?;
    log.flush()
}

#[test]
fn a_full_disk_fails_the_log_until_it_is_opened_again_and_loses_nothing_flushed() -> Outcome {
    let Some(tmpfs) = Tmpfs::mount("2m")? else {
        return Ok(());
    };
    let dir = tmpfs.path().join("log");
    let log = EventLog::open(&dir)?;
    let mut flushed = 0;
    for _ in 0..20 {
        written(&log, flushed)?;
        flushed += 1;
    }
    let filler = tmpfs.fill()?;
    let failure = loop {
        match written(&log, flushed) {
            Ok(()) => flushed += 1,
            Err(e) => break e,
        }
        assert!(flushed < 10_000, "the log never noticed the disk was full");
    };
    assert!(
        failure.to_string().contains("No space left on device"),
        "the error names the cause: {failure}"
    );
    std::fs::remove_file(&filler)?;
    // sled keeps its first I/O error: the space is back, and the log still can't write.
    let Err(still) = written(&log, flushed) else {
        panic!(
            "sled wrote again without being opened again: the writer's reopen is not needed any more"
        )
    };
    assert!(
        still.to_string().contains("No space left on device"),
        "{still}"
    );
    // Opened again while the disk is full, it doesn't take a real write.
    let filler = tmpfs.fill()?;
    let full = log.reopen().and_then(|()| log.probe());
    let Err(full) = full else {
        panic!("opened again and probed on a full disk")
    };
    eprintln!("opened again on a full disk: {full}");
    std::fs::remove_file(&filler)?;
    log.reopen()?;
    log.probe()?;
    for _ in 0..5 {
        written(&log, flushed)?;
        flushed += 1;
    }
    let said = log.chat("c1")?.state.said;
    // A message whose flush failed was never acknowledged: it may be there, and then its
    // number comes twice (its retry took the same one). Every flushed one is there, in order.
    let mut numbers: Vec<usize> = said
        .iter()
        .map(|text| {
            text.get(8..13)
                .and_then(|n| n.parse().ok())
                .unwrap_or(usize::MAX)
        })
        .collect();
    numbers.dedup();
    assert_eq!(
        numbers,
        (0..flushed).collect::<Vec<_>>(),
        "every flushed message, once, in order"
    );
    drop(log);
    // Opened again from nothing, as after a restart: the witness agrees with what is there.
    let log = EventLog::open(&dir)?;
    assert_eq!(log.chat("c1")?.state.said, said);
    Ok(())
}

#[test]
fn a_log_that_cant_be_opened_again_says_it_is_closed_and_comes_back_when_it_can() -> Outcome {
    let dir = tempfile::tempdir()?;
    let log = EventLog::open(dir.path())?;
    log.append_durable("c1", &said(1, "push it"))?;
    // A walk in progress holds sled's engine, and with it the folder's lock.
    let walk = log.records("c1")?;
    let Err(e) = log.reopen() else {
        panic!("opened again while the old engine held the folder")
    };
    assert!(matches!(e, LogError::Locked { .. }), "{e}");
    let Err(closed) = log.append("c1", &said(2, "then tag it")) else {
        panic!("appended to a closed log")
    };
    assert_eq!(
        closed.to_string(),
        format!(
            "the event log in `{}` is closed after a failure, until it can be opened again",
            dir.path().display()
        )
    );
    assert!(log.flush().is_err() && log.chat("c1").is_err() && log.is_empty());
    assert!(log.chats().next().is_some_and(|c| c.is_err()));
    assert_eq!(walk.count(), 1, "the walk goes on over the old engine");
    log.reopen()?;
    log.probe()?;
    log.append_durable("c1", &said(3, "then tag it"))?;
    assert_eq!(log.chat("c1")?.state.said, ["push it", "then tag it"]);
    Ok(())
}
