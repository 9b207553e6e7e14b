//! Taking wrappers off the front of a command (`sudo -u root env A=1 nohup …`) and seeing
//! which commands hold other commands (`bash -c`, `su -c`, `eval`, `xargs`, `find -exec`).
//!
//! Whether a program is a wrapper is the catalogue's (`Class::Wrapper`); how its options are
//! read is here. A wrapper whose command is not simply written after it (`xargs`, `parallel`,
//! `systemd-run` with a timer) is left in place and read by a holder (`runs.rs`).

use super::Via;
use super::lex::Word;
use super::runs;
use crate::catalogue::{self, Class};

/// At most this many wrappers are taken off one command (`sudo sudo sudo …`).
const MAX_WRAPPERS: usize = 32;

/// The program name a word stands for: its basename, lower case.
pub(super) fn base(word: &str) -> String {
    basename(word).to_ascii_lowercase()
}

/// What follows a word's last `/` (a byte search: words are a few bytes).
pub(super) fn basename(word: &str) -> &str {
    match word.bytes().rposition(|b| b == b'/') {
        Some(at) => word.get(at + 1..).unwrap_or(word),
        None => word,
    }
}

/// A command after its wrappers are taken off.
pub(super) struct Stripped {
    pub words: Vec<Word>,
    pub wrappers: Vec<String>,
    pub assignments: Vec<(String, String)>,
    /// `sudo`, `doas`, `pkexec` or `run0` was taken off.
    pub sudo: bool,
    /// Text the remaining program (`watch`) runs through `sh -c`: `watch 'a | b'`.
    pub reparse: Option<String>,
    /// More wrappers than [`MAX_WRAPPERS`].
    pub too_many: bool,
}

/// What one wrapper took: the index where the rest starts, and what it gave.
struct Step {
    next: usize,
    assignments: Vec<(String, String)>,
    /// `env -S` rewrote the rest of the words.
    replace: Option<Vec<Word>>,
}

impl Step {
    fn at(next: usize) -> Option<Step> {
        Some(Step {
            next,
            assignments: Vec::new(),
            replace: None,
        })
    }
}

/// How a wrapper's options are read.
struct Spec {
    /// Short options that take an argument (attached or the next word).
    short_arg: &'static [u8],
    /// Long options that take an argument (`--name value`; `--name=value` is always one word).
    long_arg: &'static [&'static str],
}

/// Reads options from `i`: returns where they end and the short flags seen (a bit per ASCII byte).
fn options(words: &[Word], mut i: usize, spec: &Spec) -> (usize, u128) {
    let mut seen: u128 = 0;
    loop {
        match one_option(words, i, spec, &mut seen) {
            Some((next, true)) => i = next,
            Some((next, false)) => return (next, seen),
            None => return (i, seen),
        }
    }
}

/// The option at `i`, if it is one: where the next word starts and whether more options may
/// follow (false after `--`).
fn one_option(words: &[Word], i: usize, spec: &Spec, seen: &mut u128) -> Option<(usize, bool)> {
    let w = words.get(i)?;
    let t = w.text.as_str();
    if t == "--" {
        return Some((i + 1, false));
    }
    if w.dynamic {
        return None;
    }
    if let Some(long) = t.strip_prefix("--") {
        let takes = !long.contains('=') && spec.long_arg.contains(&long);
        return Some((i + if takes { 2 } else { 1 }, true));
    }
    let bytes = t.as_bytes();
    if bytes.len() < 2 || bytes.first() != Some(&b'-') {
        return None;
    }
    let rest = bytes.get(1..).unwrap_or(&[]);
    let mut take = 1;
    for (k, &ch) in rest.iter().enumerate() {
        if ch < 128 {
            *seen |= 1u128 << ch;
        }
        if spec.short_arg.contains(&ch) {
            if k + 1 == rest.len() {
                take = 2;
            }
            break;
        }
    }
    Some((i + take, true))
}

fn has(seen: u128, ch: u8) -> bool {
    ch < 128 && seen & (1u128 << ch) != 0
}

/// `NAME=value` as `env` and `sudo` read it (any name without `=`, not an option).
fn env_assignment(t: &str) -> Option<(String, String)> {
    let (name, value) = t.split_once('=')?;
    if name.is_empty() || name.starts_with('-') {
        return None;
    }
    Some((name.to_string(), value.to_string()))
}

/// Leading `NAME=value` words from `i`.
fn take_assignments(words: &[Word], mut i: usize) -> (usize, Vec<(String, String)>) {
    let mut out = Vec::new();
    while let Some(a) = words.get(i).and_then(|w| env_assignment(&w.text)) {
        out.push(a);
        i += 1;
    }
    (i, out)
}

const SUDO: Spec = Spec {
    short_arg: b"ugCDhprtTUR",
    long_arg: &[
        "user",
        "group",
        "close-from",
        "chdir",
        "host",
        "prompt",
        "role",
        "type",
        "other-user",
        "command-timeout",
        "chroot",
    ],
};
const DOAS: Spec = Spec {
    short_arg: b"uC",
    long_arg: &[],
};
const PKEXEC: Spec = Spec {
    short_arg: b"",
    long_arg: &["user"],
};
const RUN0: Spec = Spec {
    short_arg: b"uDg",
    long_arg: &[
        "user",
        "group",
        "chdir",
        "setenv",
        "nice",
        "unit",
        "property",
        "description",
        "slice",
        "machine",
        "background",
    ],
};
const TIMEOUT: Spec = Spec {
    short_arg: b"ks",
    long_arg: &["kill-after", "signal"],
};
const NICE: Spec = Spec {
    short_arg: b"n",
    long_arg: &["adjustment"],
};
const IONICE: Spec = Spec {
    short_arg: b"cnpPu",
    long_arg: &["class", "classdata", "pid", "pgid", "uid"],
};
const TIME: Spec = Spec {
    short_arg: b"fo",
    long_arg: &["format", "output"],
};
const COMMAND: Spec = Spec {
    short_arg: b"",
    long_arg: &[],
};
const EXEC: Spec = Spec {
    short_arg: b"a",
    long_arg: &[],
};
const STDBUF: Spec = Spec {
    short_arg: b"ioe",
    long_arg: &["input", "output", "error"],
};
const WATCH: Spec = Spec {
    short_arg: b"nq",
    long_arg: &["interval", "equexit"],
};
const CAFFEINATE: Spec = Spec {
    short_arg: b"tw",
    long_arg: &[],
};
const FLOCK: Spec = Spec {
    short_arg: b"wEc",
    long_arg: &["timeout", "wait", "conflict-exit-code", "command"],
};
const NO_ARGS: Spec = Spec {
    short_arg: b"",
    long_arg: &[],
};
const XARGS: Spec = Spec {
    short_arg: b"adEILnPs",
    long_arg: &[
        "arg-file",
        "delimiter",
        "max-args",
        "max-procs",
        "max-lines",
        "max-chars",
        "process-slot-var",
    ],
};

const TORSOCKS: Spec = Spec {
    short_arg: b"upaP",
    long_arg: &["user", "pass", "address", "port"],
};
const WATCHEXEC: Spec = Spec {
    short_arg: b"wWeEfFidso",
    long_arg: &[
        "watch",
        "watch-non-recursive",
        "exts",
        "env",
        "filter",
        "filter-file",
        "ignore",
        "ignore-file",
        "debounce",
        "signal",
        "stop-signal",
        "stop-timeout",
        "shell",
        "project-origin",
        "workdir",
        "on-busy-update",
        "delay-run",
        "poll",
        "emit-events-to",
        "filter-prog",
        "wrap-process",
        "log-file",
        "color",
        "timeout",
    ],
};
const STRACE: Spec = Spec {
    short_arg: b"abeEIoOpPsSuUX",
    long_arg: &[
        "attach",
        "env",
        "output",
        "string-limit",
        "user",
        "summary-columns",
        "summary-sort-by",
        "trace",
        "trace-path",
        "signal",
        "status",
        "inject",
        "fault",
        "quiet",
        "decode-fds",
    ],
};
const LTRACE: Spec = Spec {
    short_arg: b"aAeEFlnopsuwx",
    long_arg: &["align", "output", "library"],
};
const SYSTEMD_RUN: Spec = Spec {
    short_arg: b"upEMH",
    long_arg: &[
        "unit",
        "property",
        "description",
        "slice",
        "setenv",
        "machine",
        "host",
        "uid",
        "gid",
        "nice",
        "working-directory",
        "service-type",
        "path-property",
        "socket-property",
        "timer-property",
        "on-active",
        "on-boot",
        "on-startup",
        "on-unit-active",
        "on-unit-inactive",
        "on-calendar",
        "expand-environment",
    ],
};
/// Whether systemd-run's long option `long` takes a value.
pub(super) fn systemd_takes(long: &str) -> bool {
    SYSTEMD_RUN.long_arg.contains(&long)
}

/// systemd-run's options that make a timer: the command runs later, not now.
const SYSTEMD_TIMERS: &[&str] = &[
    "on-active",
    "on-boot",
    "on-calendar",
    "on-clock-change",
    "on-startup",
    "on-timezone-change",
    "on-unit-active",
    "on-unit-inactive",
    "timer-property",
];
const NSENTER: Spec = Spec {
    short_arg: b"tSGwW",
    long_arg: &["target", "setuid", "setgid", "wd", "wdns", "env"],
};
const CHROOT: Spec = Spec {
    short_arg: b"",
    long_arg: &["userspec", "groups"],
};
const UNSHARE: Spec = Spec {
    short_arg: b"SGRw",
    long_arg: &[
        "setuid",
        "setgid",
        "root",
        "wd",
        "propagation",
        "setgroups",
        "map-user",
        "map-group",
        "map-users",
        "map-groups",
        "monotonic",
        "boottime",
    ],
};
const RUNUSER: Spec = Spec {
    short_arg: b"ugGw",
    long_arg: &["user", "group", "supp-group", "whitelist-environment"],
};
const SSHPASS: Spec = Spec {
    short_arg: b"pfdPe",
    long_arg: &[],
};
/// waypipe: `waypipe [options] ssh HOST [CMD]` runs ssh (forwarding Wayland through it),
/// `waypipe [options] server -- CMD` runs CMD; `client` runs nothing of its own.
const WAYPIPE: Spec = Spec {
    short_arg: b"cs",
    long_arg: &[
        "compress",
        "control",
        "display",
        "drm-node",
        "remote-bin",
        "remote-node",
        "secctx",
        "socket",
        "test-loop",
        "threads",
        "title-prefix",
        "video",
    ],
};
const PERF: Spec = Spec {
    short_arg: b"CDFGMcejkmoprtux",
    long_arg: &[
        "affinity",
        "branch-filter",
        "call-graph",
        "cgroup",
        "clockid",
        "control",
        "count",
        "cpu",
        "delay",
        "event",
        "field-separator",
        "filter",
        "freq",
        "interval-print",
        "max-size",
        "metrics",
        "mmap-pages",
        "output",
        "pid",
        "post",
        "pre",
        "realtime",
        "repeat",
        "switch-output",
        "tid",
        "uid",
        "user-regs",
    ],
};
const TRACE_CMD: Spec = Spec {
    short_arg: b"ABCMNOPRbeflgmnoprs",
    long_arg: &[
        "cmdlines-size",
        "compression",
        "file-version",
        "max-graph-depth",
        "module",
        "name",
        "proxy",
        "temp",
        "ts-offset",
        "user",
    ],
};
const CHRT: Spec = Spec {
    short_arg: b"T",
    long_arg: &["sched-runtime", "sched-deadline", "sched-period"],
};

/// Takes the wrappers off `words`.
pub(super) fn strip(mut words: Vec<Word>) -> Stripped {
    let mut out = Stripped {
        words: Vec::new(),
        wrappers: Vec::new(),
        assignments: Vec::new(),
        sudo: false,
        reparse: None,
        too_many: false,
    };
    let mut i = 0;
    for _ in 0..=MAX_WRAPPERS {
        let Some(first) = words.get(i) else { break };
        if first.dynamic && !super::program::known(&first.text) {
            break;
        }
        // INVARIANT: whether a word is a wrapper is the catalogue's: only its `Wrapper`
        // programs are taken off (checked by `shell::tests::every_wrapper_is_read`).
        let Some(program) = catalogue::program(&first.text).filter(|p| p.is(Class::Wrapper)) else {
            break;
        };
        let name = program.name.to_string();
        super::options::split_clusters(&name, &mut words, i);
        if let Some(here) = words.get_mut(i..) {
            super::options::write_out(&name, here);
        }
        let Some(step) = wrapper_step(&name, &words, i + 1) else {
            break;
        };
        let rest_len = match &step.replace {
            Some(r) => r.len(),
            None => words.len().saturating_sub(step.next),
        };
        if rest_len == 0 {
            // `sudo -i`, `env`, `exec 3>&1`: the wrapper is the program.
            break;
        }
        if out.wrappers.len() == MAX_WRAPPERS {
            out.too_many = true;
            break;
        }
        if let Some(text) = shell_text(&name, &words, i + 1, step.next) {
            // `watch`, `watchexec` and `entr -s` give their words to `sh -c`: when they hold
            // shell syntax (`watch 'a | b'`), the wrapper stays the program and the joined
            // words are read as its text.
            out.reparse = Some(text);
            break;
        }
        out.sudo |= runs_as_root(&name, &words, i + 1);
        if let Some(dir) = chdir(&name, &words, i + 1, step.next) {
            // `sudo -D / rm -rf *`, `env -C ~ rm -rf *`: the program runs in that folder, as
            // after a `cd` there. The wrapper stays the program and what it runs is read as
            // `cd DIR && …`, so the folder is where every rule reads it.
            let rest = match &step.replace {
                Some(r) => r.as_slice(),
                None => words.get(step.next..).unwrap_or(&[]),
            };
            let mut text = format!("cd {} && ", shell_word(&dir));
            for (name, value) in &step.assignments {
                text.push_str(&format!("{name}={} ", super::quote_word(value)));
            }
            text.push_str(&shell_words(rest));
            out.reparse = Some(text);
            break;
        }
        out.assignments.extend(step.assignments);
        out.wrappers.push(name);
        match step.replace {
            Some(r) => {
                words = r;
                i = 0;
            }
            None => i = step.next,
        }
    }
    out.words = if i == 0 {
        words
    } else {
        words.split_off(i.min(words.len()))
    };
    out
}

/// The text a wrapper hands to `sh -c` (its joined words), when they hold shell syntax or it
/// always runs them through a shell (`entr -s`).
fn shell_text(name: &str, words: &[Word], start: usize, next: usize) -> Option<String> {
    let rest = words.get(next..).unwrap_or(&[]);
    let through_shell = match name {
        "watch" => !has(options(words, start, &WATCH).1, b'x'),
        "watchexec" => !words
            .get(start..next)
            .unwrap_or(&[])
            .iter()
            .any(|w| matches!(w.text.as_str(), "-n" | "--shell=none")),
        "entr" => {
            let (_, seen) = options(words, start, &NO_ARGS);
            if has(seen, b's') {
                return Some(joined(rest));
            }
            false
        }
        _ => false,
    };
    (through_shell && rest.iter().any(|w| w.text.bytes().any(is_shell_meta))).then(|| joined(rest))
}

/// The folder a wrapper runs its program in: `sudo -D DIR`, `run0 -D DIR`, `env -C DIR`,
/// `--chdir DIR` or `--chdir=DIR` (written out whole before: `--chd` is one), among the
/// wrapper's own words `start..next`.
fn chdir(name: &str, words: &[Word], start: usize, next: usize) -> Option<Word> {
    let short = match name {
        "sudo" | "dzdo" | "run0" => "-D",
        "env" => "-C",
        _ => return None,
    };
    let own = words.get(start..next.min(words.len()))?;
    for (at, word) in own.iter().enumerate() {
        let text = word.text.as_str();
        if text == short || text == "--chdir" {
            return own.get(at + 1).cloned();
        }
        let attached = text
            .strip_prefix("--chdir=")
            .or_else(|| text.strip_prefix(short).filter(|d| !d.is_empty()));
        if let Some(dir) = attached {
            return Some(Word {
                text: dir.to_string(),
                ..word.clone()
            });
        }
    }
    None
}

/// A word written back for the shell as it was read: a plain or globbing word as it is
/// (`*` still expands), one holding an expansion in double quotes (`"$HOME"` is still the
/// home folder), anything else quoted.
fn shell_word(word: &Word) -> String {
    let text = word.text.as_str();
    if !word.quoted {
        text.to_string()
    } else if word.dynamic {
        format!("\"{}\"", text.replace(['"', '\\'], ""))
    } else {
        super::quote_word(text)
    }
}

fn shell_words(words: &[Word]) -> String {
    let texts: Vec<String> = words.iter().map(shell_word).collect();
    texts.join(" ")
}

fn joined(words: &[Word]) -> String {
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    texts.join(" ")
}

/// A wrapper that runs its command as the administrator (or needs to be one to run it):
/// `sudo` (and Centrify's `dzdo`, its copy), `doas`, `pkexec`, `run0`, `chroot`, `nsenter`,
/// `gosu`, and `systemd-run` for the
/// system's manager (without `--user` or `--scope`).
fn runs_as_root(name: &str, words: &[Word], start: usize) -> bool {
    match name {
        "sudo" | "dzdo" | "doas" | "pkexec" | "run0" | "chroot" | "nsenter" | "gosu"
        | "su-exec" => true,
        "systemd-run" => !words
            .get(start..)
            .unwrap_or(&[])
            .iter()
            .take_while(|w| w.text != "--" && w.text.starts_with('-'))
            .any(|w| matches!(w.text.as_str(), "--user" | "--scope")),
        _ => false,
    }
}

fn is_shell_meta(c: u8) -> bool {
    matches!(
        c,
        b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'$' | b'`' | b'(' | b')'
    )
}

/// If `name` is a wrapper, what it takes of `words` from `start` (its first argument).
fn wrapper_step(name: &str, words: &[Word], start: usize) -> Option<Step> {
    match name {
        // Centrify's `dzdo` takes sudo's options.
        "sudo" | "dzdo" => {
            let (next, seen) = options(words, start, &SUDO);
            // `sudo -e` edits files; `-l`, `-v`, `-k` run nothing.
            if has(seen, b'e') || has(seen, b'l') {
                return None;
            }
            let (next, assignments) = take_assignments(words, next);
            Some(Step {
                next,
                assignments,
                replace: None,
            })
        }
        "doas" => {
            let (next, seen) = options(words, start, &DOAS);
            if has(seen, b'C') {
                return None;
            }
            Step::at(next)
        }
        "pkexec" => Step::at(options(words, start, &PKEXEC).0),
        "run0" => Step::at(options(words, start, &RUN0).0),
        "env" => env_step(words, start),
        "nohup" | "builtin" | "noglob" | "nocorrect" | "chronic" | "unbuffer" | "setsid"
        | "fakeroot" | "proxychains" | "busybox" | "toybox" | "lvm" => {
            Step::at(options(words, start, &NO_ARGS).0)
        }
        // GNU's single binary: `coreutils --coreutils-prog=rm -rf x` runs `rm -rf x`; uutils'
        // `coreutils rm -rf x` names it as a word.
        "coreutils" => {
            let first = words.get(start)?;
            match first.text.strip_prefix("--coreutils-prog=") {
                Some(program) if !program.is_empty() => {
                    let mut named = first.clone();
                    named.text = program.to_string();
                    let mut rest = vec![named];
                    rest.extend(words.get(start + 1..).unwrap_or(&[]).iter().cloned());
                    Some(Step {
                        next: 0,
                        assignments: Vec::new(),
                        replace: Some(rest),
                    })
                }
                _ if first.text.starts_with('-') => None,
                _ => Step::at(start),
            }
        }
        "caffeinate" => Step::at(options(words, start, &CAFFEINATE).0),
        "torsocks" => Step::at(options(words, start, &TORSOCKS).0),
        "entr" => Step::at(options(words, start, &NO_ARGS).0),
        "watchexec" => Step::at(options(words, start, &WATCHEXEC).0),
        "firejail" | "valgrind" => Step::at(options(words, start, &NO_ARGS).0),
        "sshpass" => Step::at(options(words, start, &SSHPASS).0),
        "waypipe" => {
            let next = options(words, start, &WAYPIPE).0;
            match words.get(next).map(|w| w.text.as_str()) {
                // `ssh` is the program run; `server` runs what follows it (after `--`).
                Some("ssh") => Step::at(next),
                Some("server") => {
                    let after = next + 1;
                    let skip = usize::from(words.get(after).is_some_and(|w| w.text == "--"));
                    Step::at(after + skip)
                }
                _ => None,
            }
        }
        "strace" | "ltrace" => {
            let spec = if name == "strace" { &STRACE } else { &LTRACE };
            // `strace -p PID` alone follows a process already running: with nothing after its
            // options, the tracer is the program. A command after them runs (`strace -p 1 rm
            // -rf ~` runs it and follows both).
            Step::at(options(words, start, spec).0)
        }
        // `perf record [OPTIONS] CMD`, `perf stat …`, `perf c2c record …`: the command it
        // measures; its other subcommands run none (`perf top`, `perf report`).
        "perf" => {
            let word = |at: usize| words.get(at).map(|w| w.text.as_str());
            let at = match word(start) {
                Some("record" | "stat" | "trace" | "ftrace") => start + 1,
                Some("c2c" | "kmem" | "kwork" | "lock" | "mem" | "sched" | "timechart")
                    if word(start + 1) == Some("record") =>
                {
                    start + 2
                }
                _ => return None,
            };
            Step::at(options(words, at, &PERF).0)
        }
        // `trace-cmd record [OPTIONS] CMD` (and `profile`, `set`, `start`, `stream`): the
        // command it traces.
        "trace-cmd" => match words.get(start).map(|w| w.text.as_str()) {
            Some("record" | "profile" | "set" | "start" | "stream") => {
                Step::at(options(words, start + 1, &TRACE_CMD).0)
            }
            _ => None,
        },
        "taskset" => {
            let (next, seen) = options(words, start, &NO_ARGS);
            // `taskset -p MASK PID` changes a running process; otherwise the mask (or list).
            if has(seen, b'p') {
                return None;
            }
            Step::at(next + 1)
        }
        "chrt" => {
            let (next, seen) = options(words, start, &CHRT);
            if has(seen, b'p') {
                return None;
            }
            Step::at(next + 1)
        }
        // The new root, the user, the fake time.
        "chroot" => Step::at(options(words, start, &CHROOT).0 + 1),
        "gosu" | "su-exec" | "faketime" => Step::at(options(words, start, &NO_ARGS).0 + 1),
        "nsenter" => Step::at(options(words, start, &NSENTER).0),
        "unshare" => Step::at(options(words, start, &UNSHARE).0),
        "runuser" => {
            // `runuser -u USER [--] cmd`; `runuser USER -c TEXT` is su's shape (a holder).
            let (next, seen) = options(words, start, &RUNUSER);
            if !has(seen, b'u') || has(seen, b'c') {
                return None;
            }
            Step::at(next)
        }
        "systemd-run" => {
            let head = words.get(start..).unwrap_or(&[]);
            let timer = head
                .iter()
                .take_while(|w| w.text != "--")
                .filter_map(|w| w.text.strip_prefix("--"))
                .any(|long| SYSTEMD_TIMERS.contains(&long.split('=').next().unwrap_or(long)));
            // A timer runs the command later: it stays the program, its command is held.
            if timer {
                return None;
            }
            Step::at(options(words, start, &SYSTEMD_RUN).0)
        }
        "timeout" => {
            let (next, _) = options(words, start, &TIMEOUT);
            // The duration.
            Step::at(next + 1)
        }
        "nice" => Step::at(options(words, start, &NICE).0),
        "ionice" => {
            let (next, seen) = options(words, start, &IONICE);
            if has(seen, b'p') || has(seen, b'P') || has(seen, b'u') {
                return None;
            }
            Step::at(next)
        }
        "time" => Step::at(options(words, start, &TIME).0),
        "command" => {
            let (next, seen) = options(words, start, &COMMAND);
            if has(seen, b'v') || has(seen, b'V') {
                return None;
            }
            Step::at(next)
        }
        "exec" => Step::at(options(words, start, &EXEC).0),
        "stdbuf" => Step::at(options(words, start, &STDBUF).0),
        "watch" => Step::at(options(words, start, &WATCH).0),
        "flock" => {
            if flock_command(words).is_some() {
                return None;
            }
            let (next, _) = options(words, start, &FLOCK);
            // The lock file (or descriptor).
            Step::at(next + 1)
        }
        _ => None,
    }
}

/// `env [options] [NAME=value…] command…`, with `-S` splitting its string into words.
fn env_step(words: &[Word], start: usize) -> Option<Step> {
    let mut rest: Vec<Word> = words.get(start..).unwrap_or(&[]).to_vec();
    let mut k = 0;
    let mut split_any = false;
    let mut assignments = Vec::new();
    let mut splits = 0;
    while let Some(w) = rest.get(k) {
        let t = w.text.clone();
        if w.dynamic {
            break;
        }
        let split = if t == "-S" || t == "--split-string" {
            Some((
                2,
                rest.get(k + 1).map(|w| w.text.clone()).unwrap_or_default(),
            ))
        } else if let Some(s) = t.strip_prefix("--split-string=") {
            Some((1, s.to_string()))
        } else if t.starts_with("-S") {
            Some((1, t.get(2..).unwrap_or("").to_string()))
        } else {
            None
        };
        if let Some((n, s)) = split {
            splits += 1;
            if splits > MAX_WRAPPERS {
                return None;
            }
            let end = (k + n).min(rest.len());
            rest.splice(k..end, s.split_whitespace().map(Word::plain));
            split_any = true;
            continue;
        }
        if t == "--" {
            k += 1;
            break;
        }
        if t == "-" {
            k += 1;
            continue;
        }
        if let Some(long) = t.strip_prefix("--") {
            let takes = matches!(
                long,
                "unset" | "chdir" | "default-signal" | "ignore-signal" | "block-signal"
            );
            k += if takes { 2 } else { 1 };
            continue;
        }
        if t.len() > 1 && t.starts_with('-') {
            // `-u NAME`, `-C DIR`, `-P PATH` take the next word unless attached (`-uNAME`).
            let arg_at = t
                .bytes()
                .skip(1)
                .position(|c| matches!(c, b'u' | b'C' | b'P'));
            k += match arg_at {
                Some(p) if p + 2 == t.len() => 2,
                _ => 1,
            };
            continue;
        }
        break;
    }
    let (k, a) = take_assignments(&rest, k.min(rest.len()));
    assignments.extend(a);
    if split_any {
        Some(Step {
            next: 0,
            assignments,
            replace: Some(rest.split_off(k.min(rest.len()))),
        })
    } else {
        Some(Step {
            next: start + k,
            assignments,
            replace: None,
        })
    }
}

/// `flock [options] FILE -c TEXT` (or `-c TEXT` among the options): the text.
fn flock_command(words: &[Word]) -> Option<String> {
    let mut j = 1;
    let mut file_seen = false;
    while let Some(w) = words.get(j) {
        let t = w.text.as_str();
        if t == "-c" || t == "--command" {
            return Some(words.get(j + 1).map(|w| w.text.clone()).unwrap_or_default());
        }
        if let Some(s) = t.strip_prefix("--command=") {
            return Some(s.to_string());
        }
        if file_seen {
            return None;
        }
        match one_option(words, j, &FLOCK, &mut 0) {
            Some((next, _)) => j = next,
            None => {
                file_seen = true;
                j += 1;
            }
        }
    }
    None
}

/// What a command holds: texts and commands it runs, and whether it reads commands from its
/// standard input.
#[derive(Default)]
pub(super) struct Holder {
    pub held: Vec<Held>,
    /// It reads commands from its standard input: here-documents, here-strings and what
    /// `echo` or `printf` pipes into it are read as commands.
    pub stdin: Option<Stdin>,
    /// Why what it holds can't be fully read (too many inputs to `parallel`).
    pub unread: Option<&'static str>,
}

impl Holder {
    pub fn text(&mut self, text: String, via: Via) {
        self.held.push(Held::Text(text, via));
    }
}

/// One thing a command holds.
pub(super) enum Held {
    /// Text read as commands (`bash -c`, `su -c`, `eval`, `flock -c`, `PAGER=…`).
    Text(String, Via),
    /// A command given as words (`xargs cmd`, `find -exec cmd ;`).
    Words(Vec<Word>, Via),
}

/// What a program that reads commands from its standard input makes of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stdin {
    /// A shell: the input is shell text.
    Shell,
    /// `at`, `batch`: shell text, run later.
    Later,
    /// `crontab -`: a crontab, whose lines' commands run later.
    Crontab,
    /// `expect`: a Tcl script, whose `spawn`, `exec` and `system` run commands.
    Expect,
    /// `ex`, `vim -es`: Ex commands, whose `!` runs the shell.
    Editor,
}

impl Stdin {
    pub fn via(self) -> Via {
        match self {
            Stdin::Shell => Via::HereDoc,
            Stdin::Later | Stdin::Crontab => Via::Later,
            Stdin::Expect => Via::Runs,
            Stdin::Editor => Via::Editor,
        }
    }

    /// The shell text that `input` makes it run.
    pub fn commands(self, input: &str) -> String {
        match self {
            Stdin::Shell | Stdin::Later => input.to_string(),
            Stdin::Crontab => runs::crontab_commands(input),
            Stdin::Expect => runs::tcl_commands(input),
            Stdin::Editor => input
                .lines()
                .flat_map(runs::ex_escapes)
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
}

/// A shell whose `-c` text, here-document or here-string is read as POSIX commands: the
/// catalogue's shells, less PowerShell (read by its own reader) and what runs a program
/// rather than text (`su`, `tmux`, `screen`).
fn is_posix_shell(word: &str) -> bool {
    use crate::catalogue::{self, Class};
    catalogue::program(word).is_some_and(|p| {
        p.is(Class::Shell) && !p.is(Class::Runs) && p.code.is_none() && p.name != "cmd"
    })
}

/// The shell at the front of `words`: the index of its name.
fn shell_at(words: &[Word]) -> Option<usize> {
    is_posix_shell(&base(&words.first()?.text)).then_some(0)
}

/// Sees what the (already stripped) command holds, with the assignments written before it.
pub(super) fn holder(words: &[Word], assignments: &[(String, String)]) -> Holder {
    let mut out = Holder::default();
    runs::settings(assignments, words, &mut out);
    let Some(first) = words.first() else {
        return out;
    };
    if first.dynamic && !super::program::known(&first.text) {
        return out;
    }
    if let Some(s) = shell_at(words) {
        shell_holder(words, s, &mut out);
        return out;
    }
    let prog = catalogue::name(&first.text);
    match prog.as_str() {
        // `source /dev/stdin <<< TEXT`: the shell runs what its input holds.
        "source" | "." if words.get(1).is_some_and(|w| is_stdin_path(&w.text)) => {
            out.stdin = Some(Stdin::Shell);
        }
        "su" | "runuser" => su_holder(words, &mut out),
        "eval" => {
            let args: Vec<&str> = words.iter().skip(1).map(|w| w.text.as_str()).collect();
            if !args.is_empty() {
                out.text(args.join(" "), Via::Eval);
            }
        }
        // `trap 'TEXT' EXIT`: the shell runs TEXT when the signal comes (`-` resets it, `-p`
        // and `-l` print).
        "trap" => {
            let args: Vec<&str> = words.iter().skip(1).map(|w| w.text.as_str()).collect();
            let args = match args.first() {
                Some(&"--") => &args[1..],
                _ => &args[..],
            };
            if let [text, _signal, ..] = args
                && !text.is_empty()
                && *text != "-"
                && !text.starts_with('-')
            {
                out.text((*text).to_string(), Via::Eval);
            }
        }
        "flock" => {
            if let Some(t) = flock_command(words) {
                out.text(t, Via::ShellC);
            }
        }
        "xargs" => {
            let (next, _) = options(words, 1, &XARGS);
            let rest = words.get(next..).unwrap_or(&[]);
            if !rest.is_empty() {
                out.held.push(Held::Words(rest.to_vec(), Via::Xargs));
            }
        }
        "find" | "gfind" => find_holder(
            words,
            &["-exec", "-execdir", "-ok", "-okdir"],
            true,
            &mut out,
        ),
        "fd" | "fdfind" => {
            find_holder(
                words,
                &["-x", "--exec", "-X", "--exec-batch"],
                false,
                &mut out,
            );
            // fd gives the command each path after its words when none of them holds a
            // placeholder (`{}`, `{/}`, `{//}`, `{.}`, `{/.}`): `fd . ~ -x rm -rf` is
            // `rm -rf {}` on every path found, as find's `-exec rm -rf {} \;` is.
            for held in &mut out.held {
                if let Held::Words(cmd, Via::FindExec) = held
                    && !cmd
                        .iter()
                        .skip(1)
                        .any(|w| ["{}", "{/", "{."].iter().any(|mark| w.text.contains(mark)))
                {
                    cmd.push(Word::plain("{}"));
                }
            }
        }
        _ => runs::holder(&prog, words, &mut out),
    }
    out
}

/// `bash [options] -c TEXT`, `bash -s`, `bash` (stdin) or `bash script`.
fn shell_holder(words: &[Word], s: usize, out: &mut Holder) {
    let mut c_flag = false;
    let mut s_flag = false;
    let mut j = s + 1;
    while let Some(w) = words.get(j) {
        let t = w.text.as_str();
        if w.dynamic {
            break;
        }
        if t == "--" || t == "-" {
            j += 1;
            break;
        }
        if let Some(long) = t.strip_prefix("--") {
            j += if matches!(long, "rcfile" | "init-file") {
                2
            } else {
                1
            };
            continue;
        }
        let bytes = t.as_bytes();
        if bytes.len() > 1 && matches!(bytes.first(), Some(b'-' | b'+')) {
            let mut take = 1;
            for &ch in bytes.iter().skip(1) {
                match ch {
                    b'c' => c_flag = true,
                    b's' => s_flag = true,
                    b'o' | b'O' => take = 2,
                    _ => {}
                }
            }
            j += take;
            continue;
        }
        break;
    }
    if c_flag {
        if let Some(w) = words.get(j) {
            // The words after the text (`$0`, then `$1`…) stand for what it names of them.
            let given: Vec<String> = words.iter().skip(j + 1).map(given_word).collect();
            let zero = given.first().map(String::as_str);
            let args: Vec<&str> = given.iter().skip(1).map(String::as_str).collect();
            let text = super::positional::bind_from(&w.text, zero, &args)
                .unwrap_or_else(|| w.text.clone());
            out.text(text, Via::ShellC);
        }
        return;
    }
    if s_flag || j >= words.len() || words.get(j).is_some_and(|w| is_stdin_path(&w.text)) {
        out.stdin = Some(Stdin::Shell);
    }
}

/// A path that is the reader's own standard input (`bash /dev/stdin`, `. /dev/fd/0`).
fn is_stdin_path(path: &str) -> bool {
    matches!(path, "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0")
}

/// `su [options] [user] -c TEXT`.
fn su_holder(words: &[Word], out: &mut Holder) {
    let mut j = 1;
    while let Some(w) = words.get(j) {
        let t = w.text.as_str();
        let next = || words.get(j + 1).map(|w| w.text.clone()).unwrap_or_default();
        match t {
            "-c" | "--command" | "--session-command" => return out.text(next(), Via::ShellC),
            "-s"
            | "--shell"
            | "-g"
            | "--group"
            | "-G"
            | "--supp-group"
            | "-w"
            | "--whitelist-environment" => {
                j += 2;
                continue;
            }
            _ => {}
        }
        if let Some(s) = t
            .strip_prefix("--command=")
            .or_else(|| t.strip_prefix("--session-command="))
        {
            return out.text(s.to_string(), Via::ShellC);
        }
        if t.len() > 1
            && t.starts_with('-')
            && !t.starts_with("--")
            && let Some(p) = t.find('c')
        {
            let attached = t.get(p + 1..).unwrap_or("");
            let text = if attached.is_empty() {
                next()
            } else {
                attached.to_string()
            };
            return out.text(text, Via::ShellC);
        }
        j += 1;
    }
}

/// `find … -exec cmd args ;` (or `+` after `{}`), several times; `fd -x cmd args`.
fn find_holder(words: &[Word], actions: &[&str], plus_ends: bool, out: &mut Holder) {
    let mut j = 1;
    while j < words.len() {
        let is_action = words
            .get(j)
            .is_some_and(|w| !w.dynamic && actions.contains(&w.text.as_str()));
        j += 1;
        if !is_action {
            continue;
        }
        let start = j;
        let mut end = None;
        while let Some(w) = words.get(j) {
            let t = w.text.as_str();
            let prev_braces = j > start && words.get(j - 1).is_some_and(|p| p.text == "{}");
            if t == ";" || (plus_ends && t == "+" && prev_braces) {
                end = Some(j);
                break;
            }
            j += 1;
        }
        // Without its terminator find refuses to start ("missing argument to `-exec'") and
        // runs nothing; what it names is still judged, as a reading proves danger, never
        // safety.
        let stop = end.unwrap_or(words.len());
        let cmd = words.get(start..stop).unwrap_or(&[]).to_vec();
        if !cmd.is_empty() {
            out.held.push(Held::Words(cmd, Via::FindExec));
        }
        j = stop + 1;
    }
}

/// What a word given to a shell's `-c` text stands for inside it: the home folder, as
/// `$HOME`, for an unquoted `~` or `~/x` (the outer shell expands it) and for `$HOME`
/// itself, so `bash -c 'rm -rf "$1"' _ ~` is the circuit breaker; `$` for any other
/// expansion (only known when it runs); else its text.
fn given_word(w: &super::lex::Word) -> String {
    let text = w.text.as_str();
    if !w.quoted && (text == "~" || text.starts_with("~/")) {
        return format!("$HOME{}", &text[1..]);
    }
    if w.dynamic {
        for home in ["$HOME", "${HOME}"] {
            if let Some(rest) = text.strip_prefix(home)
                && (rest.is_empty() || rest.starts_with('/'))
                && !rest.contains(['$', '`'])
            {
                return format!("$HOME{rest}");
            }
        }
        return "$".to_string();
    }
    text.to_string()
}
