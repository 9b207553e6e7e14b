//! The machine itself: the circuit breaker (wipes, disks, fork bombs, permissions on the
//! root), power, what starts by itself later, and databases emptied.

use super::{Scan, has_flag, positional};
use crate::law::paths as place;
use crate::law::rule::RuleId;
use crate::shell::Command;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// A shell function that calls itself twice in the background: `:(){ :|:& };:` and its kin.
pub(super) fn fork_bomb(text: &str, scan: &mut Scan<'_>) {
    let squeezed: String = unquoted(text)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut from = 0;
    while let Some(found) = squeezed.get(from..).and_then(|rest| rest.find("(){")) {
        let at = from + found;
        let name_start = squeezed.get(..at).map_or(0, |head| {
            head.rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '.'))
                .map_or(0, |i| i + 1)
        });
        let name = squeezed.get(name_start..at).unwrap_or("");
        if !name.is_empty() {
            let body = squeezed.get(at + 3..).unwrap_or("");
            let body = body
                .get(..body.find('}').unwrap_or(body.len()))
                .unwrap_or("");
            if body.contains(&format!("{name}|{name}&"))
                || body.contains(&format!("{name}&{name}&"))
                || body.contains(&format!("{name}|{name};"))
            {
                scan.add(
                    Risk::new(
                        RuleId::CriticalForkBomb,
                        Harm::Severe,
                        true,
                        "a fork bomb, which takes the machine down",
                    )
                    .critical(),
                );
                return;
            }
        }
        from = at + 3;
    }
}

/// The line with single-quoted text taken out (a string that mentions a fork bomb is not one).
fn unquoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quoted = false;
    let mut escaped = false;
    for c in text.chars() {
        match (quoted, escaped, c) {
            (false, false, '\\') => escaped = true,
            (false, _, '\'') if !escaped => quoted = true,
            (true, _, '\'') => quoted = false,
            (false, _, c) => {
                escaped = false;
                out.push(c);
            }
            _ => {}
        }
    }
    out
}

/// SQL that empties or drops what a database holds.
fn destroys_data(sql: &str) -> bool {
    let upper = sql.to_uppercase();
    let words: Vec<&str> = upper
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(2).any(|pair| {
        matches!(
            pair,
            [
                "DROP",
                "TABLE" | "DATABASE" | "SCHEMA" | "COLLECTION" | "KEYSPACE" | "USER" | "ROLE"
            ] | ["TRUNCATE", _]
                | ["FLUSHALL" | "FLUSHDB", _]
        )
    }) || words
        .last()
        .is_some_and(|w| matches!(*w, "FLUSHALL" | "FLUSHDB"))
        || delete_without_where(&words)
        || upper.contains("DROPDATABASE(")
        || upper.contains(".DROP()")
        || upper.contains("DELETEMANY({})")
}

fn delete_without_where(words: &[&str]) -> bool {
    words
        .windows(2)
        .enumerate()
        .any(|(i, pair)| pair == ["DELETE", "FROM"] && !words.iter().skip(i).any(|w| *w == "WHERE"))
}

pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    let program = cmd.program();
    let args = cmd.args();
    let place = scan.place;
    match program.as_str() {
        p if formats_disk(p, args) => {
            scan.add(
                Risk::new(
                    RuleId::CriticalMkfs,
                    Harm::Severe,
                    true,
                    format!("{program} rewrites a disk's file system, erasing it"),
                )
                .critical(),
            );
        }
        "dd" => {
            if let Some(dev) = args
                .iter()
                .find_map(|a| a.strip_prefix("of="))
                .filter(|dev| dev.starts_with("/dev/") && super::paths::is_disk(dev))
            {
                scan.add(
                    Risk::new(
                        RuleId::CriticalDiskWrite,
                        Harm::Severe,
                        true,
                        format!("write straight onto the disk {dev}"),
                    )
                    .critical(),
                );
            }
        }
        "shred" | "blkdiscard"
            if args
                .iter()
                .any(|a| a.starts_with("/dev/") && super::paths::is_disk(a)) =>
        {
            scan.add(
                Risk::new(
                    RuleId::CriticalDiskWrite,
                    Harm::Severe,
                    true,
                    format!("{program} erases a whole disk"),
                )
                .critical(),
            );
        }
        "chmod" | "chown" | "chgrp" => {
            let recursive = has_flag(args, Some('R'), &["recursive"]);
            let targets = positional(args).into_iter().skip(1);
            for target in targets {
                if let Some(abs) = place.resolve(target.strip_suffix("/*").unwrap_or(target))
                    && recursive
                    && (place::is_root_like(&abs) || place.is_home(&abs))
                {
                    scan.add(Risk::new(RuleId::CriticalPermsRoot, Harm::Severe, true, format!("{program} -R on {abs} changes who owns or may touch every file under it")).critical());
                    break;
                }
            }
        }
        "shutdown" | "reboot" | "halt" | "poweroff" => {
            scan.add(
                Risk::new(
                    RuleId::SystemPower,
                    Harm::Severe,
                    false,
                    format!("{program} the machine"),
                )
                .wish(Wish::new(Act::Restart)),
            );
        }
        "init" | "telinit" if matches!(args.first().map(String::as_str), Some("0" | "6")) => {
            scan.add(
                Risk::new(
                    RuleId::SystemPower,
                    Harm::Severe,
                    false,
                    "stop or restart the machine",
                )
                .wish(Wish::new(Act::Restart)),
            );
        }
        "systemctl" => match positional(args).first().copied() {
            Some("reboot" | "poweroff" | "halt") => {
                scan.add(
                    Risk::new(
                        RuleId::SystemPower,
                        Harm::Severe,
                        false,
                        "stop or restart the machine",
                    )
                    .wish(Wish::new(Act::Restart)),
                );
            }
            Some("enable" | "link" | "mask") => scan.add(schedule(
                "make a service start by itself (systemctl enable)",
            )),
            _ => {}
        },
        "crontab" if !has_flag(args, Some('l'), &[]) => {
            if has_flag(args, Some('r'), &[]) {
                scan.add(
                    Risk::new(
                        RuleId::PersistSchedule,
                        Harm::Moderate,
                        true,
                        "remove every scheduled job (crontab -r)",
                    )
                    .wish(Wish::new(Act::Schedule)),
                );
            } else {
                scan.add(schedule("change what runs on a schedule (crontab)"));
            }
        }
        "launchctl"
            if matches!(
                positional(args).first().copied(),
                Some("load" | "bootstrap" | "enable" | "submit")
            ) =>
        {
            scan.add(schedule("make a job start by itself (launchctl)"));
        }
        "at" | "batch" if !has_flag(args, Some('l'), &[]) => {
            scan.add(schedule("schedule a command to run later (at)"))
        }
        // Without a timer, the reader takes systemd-run off as a wrapper.
        "systemd-run"
            if args
                .iter()
                .any(|a| a.starts_with("--on-") || a.starts_with("--timer-property")) =>
        {
            scan.add(schedule(
                "schedule a command to run later (systemd-run timer)",
            ))
        }
        "kill" | "pkill" | "killall"
            if args.iter().any(|a| a == "1" || a == "-1") && program == "kill" =>
        {
            scan.add(
                Risk::new(
                    RuleId::SystemPower,
                    Harm::Severe,
                    false,
                    "kill every process, or init itself",
                )
                .wish(Wish::new(Act::Restart)),
            );
        }
        "docker" | "podman" => docker(args, scan),
        "dropdb" | "dropuser" => {
            let name = positional(args).last().copied().unwrap_or("the database");
            scan.add(db(&format!("drop {name}"), name));
        }
        p if crate::catalogue::is(p, crate::catalogue::Class::Database) => {
            let texts = args
                .iter()
                .map(String::as_str)
                .chain(cmd.redirects.iter().map(|r| r.target.as_str()));
            let mut sql = String::new();
            for text in texts {
                sql.push_str(text);
                sql.push(' ');
            }
            let piped_sql = scan
                .pipeline(cmd.pipeline)
                .filter(|c| {
                    c.stage < cmd.stage && matches!(c.program().as_str(), "echo" | "printf")
                })
                .flat_map(|c| c.args().iter())
                .any(|a| destroys_data(a));
            if destroys_data(&sql) || piped_sql {
                scan.add(db(&format!("{program} drops or empties data"), ""));
            }
        }
        // The agent's shell isn't interactive: `history -c` empties only its own list, which
        // nothing keeps. `history -w` writes that list over the history file, and that is
        // what erases it.
        "history" if has_flag(args, Some('w'), &[]) => {
            scan.add(Risk::new(
                RuleId::SystemEvidence,
                Harm::Moderate,
                true,
                "write over the shell's history file, erasing it",
            ));
        }
        "history" if has_flag(args, Some('c'), &[]) => {
            scan.add(Risk::new(
                RuleId::SystemEvidence,
                Harm::Moderate,
                false,
                "clear the shell's history",
            ));
        }
        _ => {}
    }
}

/// A tool that writes a file system or a partition table onto a device.
fn formats_disk(program: &str, args: &[String]) -> bool {
    let lists = matches!(
        args.first().map(String::as_str),
        Some("list" | "info" | "-l" | "--list" | "print")
    );
    // A device named, or one only known when it runs; `mkfs.erofs image.erofs root/` writes a file.
    let device = args
        .iter()
        .any(|a| a.starts_with("/dev/") || a.starts_with('$'));
    if program == "diskutil" {
        let erases = [
            "erase",
            "partitionDisk",
            "zeroDisk",
            "randomDisk",
            "secureErase",
            "reformat",
        ];
        return args
            .iter()
            .any(|a| erases.iter().any(|verb| a.starts_with(verb)));
    }
    let tool = program.starts_with("mkfs")
        || matches!(
            program,
            "mke2fs" | "mkswap" | "newfs" | "wipefs" | "fdisk" | "sfdisk" | "parted" | "sgdisk"
        );
    tool && !lists && device
}

fn schedule(reason: &str) -> Risk {
    Risk::new(
        RuleId::PersistSchedule,
        Harm::Moderate,
        true,
        reason.to_string(),
    )
    .wish(Wish::new(Act::Schedule))
}

fn db(reason: &str, name: &str) -> Risk {
    let mut wish = Wish::new(Act::Delete);
    if !name.is_empty() && name != "the database" {
        wish = wish.naming(Name::one(name));
    }
    Risk::new(
        RuleId::DbDestroy,
        Harm::Severe,
        true,
        format!("{reason}, which can't be taken back"),
    )
    .wish(wish)
}

fn docker(args: &[String], scan: &mut Scan<'_>) {
    let words = positional(args);
    let volumes_gone = match words.as_slice() {
        ["volume", "rm" | "prune", ..] => true,
        ["system", "prune", ..] => args.iter().any(|a| a == "--volumes"),
        ["compose", "down", ..] => has_flag(args, Some('v'), &["volumes"]),
        _ => false,
    };
    if volumes_gone {
        scan.add(db("delete docker volumes and the data in them", ""));
    }
}
