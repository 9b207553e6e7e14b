//! The real `warden torture` run short (3 kills in 6 s): every acknowledged event survives
//! SIGKILL and every probe keeps its verdict; and `warden load` run for 2 s prints its
//! figures (their shape only: the machine is shared, speed is never asserted).

use crate::common;

use std::process::{Command, Output};

/// Runs the real binary with `args`, in a home with no configuration.
fn warden(home: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warden"))
        .args(args)
        .env("HOME", home)
        .env_remove("WARDEN_DATA")
        .env_remove("WARDEN_CONFIG")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("RUST_LOG")
        .output()
        .unwrap_or_else(|e| panic!("run warden {args:?}: {e}"))
}

/// The number after `name ` in the summary line.
fn figure(line: &str, name: &str) -> u64 {
    line.split(", ")
        .find_map(|part| {
            part.strip_prefix(name)?
                .trim()
                .split(' ')
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no `{name}` in `{line}`"))
}

#[test]
fn acknowledged_events_and_verdicts_survive_three_kills() {
    let dir = common::tempdir();
    let data = dir.path().join("data");
    let output = warden(
        dir.path(),
        &[
            "torture",
            "--data",
            &data.display().to_string(),
            "--kills",
            "3",
            "--seconds",
            "6",
        ],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let shown = format!("stdout:\n{stdout}\nstderr:\n{stderr}");
    let summary = stdout
        .lines()
        .find(|line| line.starts_with("kills "))
        .unwrap_or_else(|| panic!("no summary line: {shown}"));
    assert_eq!(figure(summary, "kills"), 3, "{shown}");
    assert!(
        figure(summary, "acknowledged") > 0,
        "nothing acknowledged: {shown}"
    );
    assert_eq!(figure(summary, "lost"), 0, "{shown}");
    assert_eq!(figure(summary, "verdicts changed"), 0, "{shown}");
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("round ")).count(),
        3,
        "{shown}"
    );
    assert!(output.status.success(), "{shown}");
}

#[test]
fn load_prints_its_figures() {
    let dir = common::tempdir();
    let output = warden(
        dir.path(),
        &[
            "load",
            "--chats",
            "5",
            "--seconds",
            "2",
            "--connections",
            "2",
            "--data",
            &dir.path().join("data").display().to_string(),
        ],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let shown = format!("{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{shown}");
    for part in [
        "judge requests",
        "requests/s",
        "p50 ",
        "p99 ",
        "server resident ",
    ] {
        assert!(stdout.contains(part), "no `{part}` in: {shown}");
    }
    assert!(stdout.contains("failed 0"), "{shown}");
}
