//! Programs that run another program by an option, a subcommand, a setting or their input:
//! editors and debuggers (`vim -c ':!…'`, `gdb -ex 'shell …'`), settings (`PAGER=…`,
//! `man -P …`, `ssh -o ProxyCommand=…`, `tar --to-command=…`), runners (`parallel`,
//! `script -c`, `tmux`, `screen`, `expect`, `hyperfine`) and what runs later (`at`,
//! `crontab`, `systemd-run --on-calendar`). What each holds is handed back as text or words
//! and read as commands of its own, with a [`Via`] that says how it was reached.
//!
//! Whether a program runs others is the catalogue's (`Class::Runs`, `Class::Wrapper`); this
//! file knows how each one's options say what it runs. Containers, clusters and git's
//! settings need the law's knowledge (mounts, where a pod runs, git's keys): the law reads
//! those (`law::command::runs`, `law::command::git`).
//!
//! Every reader here walks its words once; texts built from arguments (`parallel`) are
//! capped, and the parser's own depth and budget bound what is read from them.

use super::Command;
use super::Via;
use super::lex::Word;
use super::wrap::{Held, Holder, Stdin};

/// Variables whose value a program runs as a command (a pager, an editor, a proxy, a hook, a
/// backup tool's password command):
/// `PAGER='sh -c "…"' man ls` runs the text. Sorted, checked by a test.
#[rustfmt::skip]
pub(super) const COMMAND_VARIABLES: &[&str] = &[
    "BASH_ENV", "BORG_PASSCOMMAND", "BORG_RSH", "BROWSER", "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER",
    "CARGO_BUILD_RUSTC_WRAPPER", "CC", "CVS_RSH", "CXX", "EDITOR", "ENV", "FCEDIT",
    "GH_PAGER", "GIT_ASKPASS", "GIT_EDITOR", "GIT_EXTERNAL_DIFF", "GIT_PAGER", "GIT_PROXY_COMMAND",
    "GIT_SEQUENCE_EDITOR", "GIT_SSH", "GIT_SSH_COMMAND", "HGEDITOR", "KUBE_EDITOR", "LESSCLOSE",
    "LESSOPEN", "MANPAGER", "NPM_CONFIG_SCRIPT_SHELL", "P4DIFF", "P4EDITOR", "P4MERGE", "PAGER",
    "PROMPT_COMMAND", "PSQL_PAGER", "RESTIC_PASSWORD_COMMAND", "RSYNC_CONNECT_PROG", "RSYNC_RSH",
    "RUSTC_WORKSPACE_WRAPPER", "RUSTC_WRAPPER", "SSH_ASKPASS", "SUDO_ASKPASS", "SUDO_EDITOR",
    "SVN_EDITOR", "SYSTEMD_EDITOR", "SYSTEMD_PAGER", "VISUAL",
];

/// ssh's options (`-o Key=value`) whose value runs on this machine. Lower case, sorted.
#[rustfmt::skip]
pub(super) const SSH_COMMAND_KEYS: &[&str] = &["knownhostscommand", "localcommand", "proxycommand"];

/// apt's settings (`-o APT::Update::Pre-Invoke::=…`) whose value runs, by how the key ends.
/// Lower case, sorted.
#[rustfmt::skip]
pub(super) const APT_COMMAND_KEYS: &[&str] = &[
    "post-invoke", "post-invoke-success", "pre-install-pkgs", "pre-invoke",
];

/// At most this many inputs of `parallel` are read, each with its command.
const MAX_INPUTS: usize = 64;

/// At most this many bytes of text are built from one `parallel` (the parser's budget bounds
/// the rest).
const MAX_BUILT: usize = 1 << 16;

/// At most this many commands of an editor's or a Tcl script's text are looked at.
const MAX_PARTS: usize = 256;

/// Variables set before the program (or by `export`) that a program runs as a command.
pub(super) fn settings(assignments: &[(String, String)], words: &[Word], out: &mut Holder) {
    let exported = words
        .first()
        .filter(|w| !w.dynamic && super::vars::is_setter(&w.text))
        .map(|_| words.get(1..).unwrap_or(&[]))
        .unwrap_or(&[]);
    let pairs = assignments
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()))
        .chain(
            exported
                .iter()
                .filter_map(|w| w.text.split_once('=').filter(|_| !w.text.starts_with('-'))),
        );
    for (name, value) in pairs {
        let name = name.trim_end_matches('+');
        // `NODE_OPTIONS="--import=data:text/javascript,CODE"`: code every node runs first.
        if name == "NODE_OPTIONS"
            && let Some((_, code)) = value.split_once("data:text/javascript,")
        {
            out.text(
                format!("node -e {}", super::quote_word(code.trim())),
                Via::Setting,
            );
            continue;
        }
        // npm's settings are read in any case (`npm_config_script_shell`).
        let upper;
        let name = if name.starts_with("npm_config_") {
            upper = name.to_ascii_uppercase();
            upper.as_str()
        } else {
            name
        };
        if COMMAND_VARIABLES.binary_search(&name).is_err() {
            continue;
        }
        // LESSOPEN='|cmd %s', '||cmd %s', '|-cmd %s': the bars say how its output is read.
        let value = value.trim_start_matches(['|', '-']).trim();
        if !value.is_empty() {
            out.text(value.to_string(), Via::Setting);
        }
    }
}

/// Reads what one program holds from its words.
pub(super) type Reader = fn(&[Word], &mut Holder);

/// How each program that runs others says what it runs: its family name in the catalogue
/// (each one `Class::Runs` or `Class::Wrapper`, checked by a test) and its reader. Sorted.
#[rustfmt::skip]
pub(super) const READERS: &[(&str, Reader)] = &[
    ("apt", apt), ("apt-get", apt), ("aria2c", aria2c), ("at", at), ("batch", at), ("busctl", dbus), ("cmd", cmd), ("crontab", crontab),
    ("dbus-send", dbus), ("ed", editor), ("expect", expect), ("flatpak", flatpak), ("gdb", gdb), ("gdbus", dbus), ("herbstclient", window_manager),
    ("hyperfine", hyperfine), ("hyprctl", window_manager), ("i3-msg", window_manager), ("ip", ip), ("less", less), ("man", man),
    ("niri", window_manager), ("parallel", parallel), ("pee", pee), ("qdbus", dbus), ("riverctl", window_manager), ("rsync", rsync),
    ("ruby", ruby_un), ("scp", ssh), ("screen", screen), ("script", script), ("sftp", ssh), ("ssh", ssh), ("swaymsg", window_manager),
    ("systemd-run", systemd_timer), ("tar", tar), ("tmux", tmux), ("vim", editor), ("zip", zip),
];

/// What a program of the catalogue (by its family name) holds, read by its own options.
pub(super) fn holder(program: &str, words: &[Word], out: &mut Holder) {
    if let Ok(at) =
        READERS.binary_search_by(|(name, _)| crate::intent::words::cmp_word(name, program))
        && let Some((_, read)) = READERS.get(at)
    {
        read(words, out);
    } else if RUNNERS
        .binary_search_by(|r| crate::intent::words::cmp_word(r.name, program))
        .is_ok()
    {
        runner_reader(words, out);
    } else if crate::catalogue::program(program).is_none() {
        unknown_runner(words, out);
    }
}

/// `ip netns exec NAME CMD…` and `ip vrf exec NAME CMD…` (`ip n e`, `ip vrf e` written out
/// whole before), or `ip -all netns exec CMD…` in every namespace: the command, run there.
fn ip(words: &[Word], out: &mut Holder) {
    let Some(object) = super::options::subcommand_at("ip", words) else {
        return;
    };
    let text = |at: usize| words.get(at).map_or("", |w| w.text.as_str());
    if !matches!(text(object), "netns" | "vrf") || text(object + 1) != "exec" {
        return;
    }
    let every = words
        .get(1..object)
        .unwrap_or(&[])
        .iter()
        .any(|w| matches!(w.text.as_str(), "-a" | "-all"));
    let from = object + if every { 2 } else { 3 };
    let rest = words.get(from..).unwrap_or(&[]);
    if !rest.is_empty() {
        out.held.push(Held::Words(rest.to_vec(), Via::Runs));
    }
}

/// A program the catalogue doesn't know, given among its arguments a program that deletes,
/// changes files, runs code or fetches (`tsp rm -rf ~`, `pdsh -w web rm -rf ~`, `cgexec -g
/// cpu:x rm -rf ~`, `tini -- python -c …`): it may run it, with what follows, as the
/// runners do, so what it would run is judged (the seeds: a reading proves danger, never
/// safety). Only those classes: a tool's subcommand that shares a program's name (`jekyll
/// serve`, `cf ssh`, `khal at`, `searchsploit sudo`) is the tool's own word, which its words
/// reader reads. Never an option, nor what only runs when it runs.
fn unknown_runner(words: &[Word], out: &mut Holder) {
    use crate::catalogue::Class;
    // A project's own program (`./app`, `bin/dev`) says what its words mean, and a word
    // that isn't a name (`[[`) names no program.
    let named = words.first().is_some_and(|w| {
        !w.text.starts_with('.')
            && (w.text.starts_with('/') || !w.text.contains('/'))
            && w.text
                .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '/')
    });
    if !named {
        return;
    }
    const RUN: &[Class] = &[
        Class::Remover,
        Class::Files,
        Class::Shell,
        Class::Interpreter,
        Class::Downloader,
        Class::Disk,
    ];
    let start = words.iter().enumerate().skip(1).find(|(_, w)| {
        !w.dynamic
            && !w.glob
            && !w.text.starts_with('-')
            && crate::catalogue::program(&w.text).is_some_and(|found| {
                // `login` takes no text to run: it signs a person in, and a tool's `login`
                // is its own word (`semanage login -l`, `vercel login`).
                found.name != "login"
                    && (found.name == "dd" || RUN.iter().any(|class| found.is(*class)))
            })
    });
    if let Some((at, _)) = start {
        out.held.push(Held::Words(
            words.get(at..).unwrap_or(&[]).to_vec(),
            Via::Runs,
        ));
    }
}

/// A method called over D-Bus (`dbus-send`, `busctl call`, `gdbus call`, `qdbus`): what
/// systemd's and logind's methods do, written as the `systemctl` line that does the same
/// (`StartUnit "evil.service"` is `systemctl start evil.service`, `PowerOff` is `systemctl
/// poweroff`), and a method that runs a command or code it is given (systemd's
/// `StartTransientUnit`, GNOME Shell's `Eval`, KDE's `exec`) as a program only known when it
/// runs: the call's own words name no program the rules know.
fn dbus(words: &[Word], out: &mut Holder) {
    let program = words
        .first()
        .map(|w| crate::catalogue::name(&w.text))
        .unwrap_or_default();
    let texts: Vec<&str> = words.iter().skip(1).map(|w| w.text.as_str()).collect();
    // Where each operand stands: the method is the `n`th operand (after the options before
    // it), and every word after it is an argument, `-c` among them.
    let nth_operand = |n: usize| {
        texts
            .iter()
            .enumerate()
            .filter(|(_, t)| !t.starts_with('-'))
            .nth(n)
            .map(|(at, t)| (*t, at))
    };
    let (method, at) = match program.as_str() {
        "dbus-send" => match nth_operand(1) {
            Some(found) => found,
            None => return,
        },
        "busctl" => {
            let call = texts.iter().position(|t| *t == "call");
            let method = call.and_then(|call| {
                texts
                    .iter()
                    .enumerate()
                    .skip(call + 1)
                    .filter(|(_, t)| !t.starts_with('-'))
                    .nth(3)
                    .map(|(at, t)| (*t, at))
            });
            match method {
                Some(found) => found,
                None => return,
            }
        }
        "gdbus" => {
            let method = texts
                .iter()
                .enumerate()
                .find_map(|(at, t)| match t.split_once('=') {
                    Some(("--method", value)) => Some((value, at)),
                    _ if *t == "--method" || *t == "-m" => {
                        texts.get(at + 1).map(|value| (*value, at + 1))
                    }
                    _ => None,
                });
            match method {
                Some(found) => found,
                None => return,
            }
        }
        _ => match nth_operand(2) {
            Some(found) => found,
            None => return,
        },
    };
    let args: Vec<&str> = texts.get(at + 1..).unwrap_or(&[]).to_vec();
    let name = method
        .rsplit('.')
        .next()
        .unwrap_or(method)
        .to_ascii_lowercase();
    // `string:evil.service`, `"evil.service"`: a unit the call names.
    let unit = args.iter().find_map(|a| {
        let value = a
            .rsplit(':')
            .next()
            .unwrap_or(a)
            .trim_matches(['"', '\'', '(', ')', ',']);
        let kinds = [
            ".service", ".target", ".timer", ".socket", ".mount", ".path", ".slice", ".scope",
        ];
        kinds.iter().any(|k| value.ends_with(k)).then_some(value)
    });
    let verb = match name.as_str() {
        "startunit" => Some("start"),
        "stopunit" => Some("stop"),
        "restartunit" | "tryrestartunit" | "reloadorrestartunit" | "reloadortryrestartunit" => {
            Some("restart")
        }
        "reloadunit" => Some("reload"),
        "killunit" => Some("kill"),
        "enableunitfiles" => Some("enable"),
        "disableunitfiles" => Some("disable"),
        "maskunitfiles" => Some("mask"),
        "poweroff" | "reboot" | "halt" | "suspend" | "hibernate" | "kexec" => {
            out.text(format!("systemctl {name}"), Via::Runs);
            return;
        }
        "starttransientunit" | "eval" | "exec" | "exec_blind" | "execute" | "spawn"
        | "runcommand" | "start_executable" => {
            let argv = if name == "starttransientunit" {
                transient_argv(&args)
            } else if name == "eval" {
                Vec::new()
            } else {
                flat_arguments(&args)
            };
            let text = if argv.is_empty() {
                "sh -c \"$DBUS_CALL\"".to_string()
            } else {
                argv.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ")
            };
            out.text(text, Via::Runs);
            return;
        }
        _ => None,
    };
    if let Some(verb) = verb {
        out.text(
            format!("systemctl {verb} {}", quote(unit.unwrap_or("unit.service"))),
            Via::Runs,
        );
    }
}

/// The command a transient unit runs, as busctl writes its `ExecStart` property: the
/// signature, the count, the path, the number of words, then the words (`ExecStart
/// 'a(sasb)' 1 /bin/sh 3 /bin/sh -c 'rm -rf ~' false`).
fn transient_argv(args: &[&str]) -> Vec<String> {
    let Some(at) = args
        .iter()
        .position(|a| a.trim_matches(['"', '\'']) == "ExecStart")
    else {
        return Vec::new();
    };
    let count = args
        .get(at + 4)
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(0)
        .min(MAX_PARTS);
    args.get(at + 5..at + 5 + count)
        .unwrap_or(&[])
        .iter()
        .map(|w| (*w).to_string())
        .collect()
}

/// A method's arguments as the words of a command: each one's D-Bus type taken off
/// (`string:/bin/sh`, `array:string:-c,rm -rf ~`), and a list's items (qdbus's `( … )`,
/// gdbus's `['-c', 'rm -rf ~']`) as words of their own.
fn flat_arguments(args: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for arg in args.iter().take(MAX_PARTS) {
        let mut value = *arg;
        for prefix in ["array:", "string:", "objpath:", "variant:"] {
            while let Some(rest) = value.strip_prefix(prefix) {
                value = rest;
            }
        }
        let listed = arg.starts_with("array:") || value.starts_with('[');
        let value = value.trim_matches(['(', ')', '[', ']']);
        let items: Vec<&str> = if listed {
            value.split(',').collect()
        } else {
            vec![value]
        };
        out.extend(
            items
                .into_iter()
                .map(|item| item.trim().trim_matches(['"', '\'']).to_string())
                .filter(|item| !item.is_empty()),
        );
    }
    out
}

/// `flatpak run --command=sh APP -c 'LINE'`: the program `--command` names, run inside the
/// app's sandbox (which often holds the home folder) with the words after the app's id.
fn flatpak(words: &[Word], out: &mut Holder) {
    let Some(run) = words.iter().position(|w| w.text == "run") else {
        return;
    };
    let rest = words.get(run + 1..).unwrap_or(&[]);
    let mut command = None;
    let mut i = 0;
    while let Some(w) = rest.get(i) {
        let t = w.text.as_str();
        if let Some(value) = t.strip_prefix("--command=") {
            command = Some(value.to_string());
        } else if t == "--command" {
            command = rest.get(i + 1).map(|w| w.text.clone());
            i += 1;
        } else if !t.starts_with('-') {
            break;
        }
        i += 1;
    }
    let Some(command) = command.filter(|c| !c.is_empty()) else {
        return;
    };
    // The app's id, then the command's own words.
    let args = rest.get(i + 1..).unwrap_or(&[]);
    let mut text = quote(&command);
    for arg in args {
        text.push(' ');
        text.push_str(&quote(&arg.text));
    }
    out.text(text, Via::Runs);
}

/// moreutils' `pee CMD…`: each operand is a shell line (run by `popen`), fed the input.
fn pee(words: &[Word], out: &mut Holder) {
    for word in words.iter().skip(1).filter(|w| !w.text.starts_with("--")) {
        out.text(word.text.clone(), Via::Runs);
    }
}

/// A command sent to a running window manager that starts a program: i3's and sway's `exec`
/// (`i3-msg 'exec kitty'`, `swaymsg exec -- foot`, several joined by `;` or `,`, after
/// `[criteria]`), Hyprland's `dispatch exec` (`hyprctl dispatch exec kitty`, `hyprctl
/// --batch 'dispatch exec a; dispatch exec b'`), river's `spawn` and niri's `spawn-sh`, all
/// run by `sh -c`; herbstluftwm's `spawn` and niri's `spawn` start their words directly.
/// What the window manager runs, it runs as the person, out of sight of the agent.
fn window_manager(words: &[Word], out: &mut Holder) {
    let program = words
        .first()
        .map(|w| crate::catalogue::name(&w.text))
        .unwrap_or_default();
    let mut i = 1;
    let mut batch = None;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        match t {
            "--" => {
                i += 1;
                break;
            }
            // i3's and sway's message type: only a command runs anything.
            "-t" | "--type" if matches!(program.as_str(), "i3-msg" | "swaymsg") => {
                let kind = next_text(words, i).unwrap_or_default();
                if !matches!(kind.as_str(), "command" | "run_command") {
                    return;
                }
                i += 2;
            }
            "-s" | "--socket" | "-i" | "--instance" => i += 2,
            "--batch" if program == "hyprctl" => {
                batch = next_text(words, i);
                break;
            }
            _ if t.starts_with('-') && t.len() > 1 => i += 1,
            _ => break,
        }
    }
    let rest = words.get(i..).unwrap_or(&[]);
    let texts: Vec<&str> = rest.iter().map(|w| w.text.as_str()).collect();
    match program.as_str() {
        "i3-msg" | "swaymsg" => {
            for command in i3_commands(&texts.join(" ")) {
                let command = strip_criteria(&command);
                if let Some(run) = command.strip_prefix("exec ") {
                    let run = run.trim_start();
                    let run = run.strip_prefix("--no-startup-id").unwrap_or(run);
                    out.text(unquoted(run.trim()), Via::Runs);
                }
            }
        }
        "hyprctl" => {
            let line = batch.unwrap_or_else(|| texts.join(" "));
            for command in line.split(';') {
                let mut parts = command.split_whitespace();
                if parts.next() == Some("dispatch") && parts.next() == Some("exec") {
                    let run: Vec<&str> = parts.collect();
                    out.text(strip_criteria(&run.join(" ")).to_string(), Via::Runs);
                }
            }
        }
        "riverctl" if texts.first() == Some(&"spawn") => {
            if let Some(run) = texts.get(1) {
                out.text((*run).to_string(), Via::Runs);
            }
        }
        "niri" => {
            let at = texts.iter().position(|t| *t == "spawn" || *t == "spawn-sh");
            let Some(at) = at.filter(|_| texts.starts_with(&["msg"])) else {
                return;
            };
            let after = rest.get(at + 1..).unwrap_or(&[]);
            let after = match after.first() {
                Some(w) if w.text == "--" => after.get(1..).unwrap_or(&[]),
                _ => after,
            };
            if texts.get(at) == Some(&"spawn-sh") {
                out.text(joined(after), Via::Runs);
            } else if !after.is_empty() {
                out.held.push(Held::Words(after.to_vec(), Via::Runs));
            }
        }
        "herbstclient" if texts.first() == Some(&"spawn") => {
            let after = rest.get(1..).unwrap_or(&[]);
            if !after.is_empty() {
                out.held.push(Held::Words(after.to_vec(), Via::Runs));
            }
        }
        _ => {}
    }
}

/// i3's commands in one message: split at `;` and `,` outside double quotes.
fn i3_commands(text: &str) -> Vec<String> {
    let mut commands = vec![String::new()];
    let mut quoted = false;
    let mut escaped = false;
    for c in text.chars() {
        if let Some(last) = commands.last_mut() {
            match c {
                _ if escaped => {
                    escaped = false;
                    last.push(c);
                }
                '\\' => {
                    escaped = true;
                    last.push(c);
                }
                '"' => {
                    quoted = !quoted;
                    last.push(c);
                }
                ';' | ',' if !quoted => {
                    commands.push(String::new());
                    continue;
                }
                _ => last.push(c),
            }
        }
        if commands.len() > MAX_PARTS {
            break;
        }
    }
    commands.into_iter().map(|c| c.trim().to_string()).collect()
}

/// A window manager's command without the `[class="x"]` criteria before it.
fn strip_criteria(command: &str) -> &str {
    let command = command.trim_start();
    match command
        .strip_prefix('[')
        .and_then(|rest| rest.split_once(']'))
    {
        Some((_, after)) => after.trim_start(),
        None => command,
    }
}

/// i3's quoted string (`"notify-send \"hi\""`) as the text it stands for.
fn unquoted(text: &str) -> String {
    match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(inner) => inner.replace("\\\"", "\""),
        None => text.to_string(),
    }
}

/// `cmd /c LINE` (`/k`, Git Bash's `//c`): the line, read as cmd.exe reads it and written as
/// the POSIX line that means the same (`super::cmd`).
fn cmd(words: &[Word], out: &mut Holder) {
    let Some(at) = words.iter().skip(1).position(|w| {
        let t = w.text.to_ascii_lowercase();
        matches!(t.trim_start_matches('/'), "c" | "k") && t.starts_with('/')
    }) else {
        return;
    };
    let rest = words.get(at + 2..).unwrap_or(&[]);
    if rest.is_empty() {
        return;
    }
    out.text(super::cmd::posix(&joined(rest)), Via::ShellC);
}

/// The text of the word after `i`, if any.
fn next_text(words: &[Word], i: usize) -> Option<String> {
    words.get(i + 1).map(|w| w.text.clone())
}

/// `--name=value` or `--name value` at `i`: the value and the index after it.
fn long_value(words: &[Word], i: usize, names: &[&str]) -> Option<(String, usize)> {
    let t = words.get(i)?.text.as_str();
    let long = t.strip_prefix("--")?;
    match long.split_once('=') {
        Some((name, value)) if names.contains(&name) => Some((value.to_string(), i + 1)),
        None if names.contains(&long) => Some((next_text(words, i)?, i + 2)),
        _ => None,
    }
}

/// A short option `-x value`, `-xvalue` or a cluster ending in it (`-qc value`): the value.
fn short_value(words: &[Word], i: usize, flag: u8, clusters: bool) -> Option<String> {
    let t = words.get(i)?.text.as_bytes();
    if t.len() < 2 || t.first() != Some(&b'-') || t.get(1) == Some(&b'-') {
        return None;
    }
    if t.get(1) == Some(&flag) {
        return match t.get(2..) {
            Some(rest) if !rest.is_empty() => Some(String::from_utf8_lossy(rest).into_owned()),
            _ => next_text(words, i),
        };
    }
    let letters = t.get(1..).unwrap_or(&[]);
    (clusters && letters.last() == Some(&flag) && letters.iter().all(u8::is_ascii_alphabetic))
        .then(|| next_text(words, i))
        .flatten()
}

// Editors, pagers and debuggers.

/// `vim -c CMD`, `vim +CMD`, `vim --cmd CMD` (and `nvim`, `vi`, `ex`): the Ex commands; `ex`,
/// `ed` (whose `!cmd` is ex's) and `vim -e` (`-es`, `-E`) read Ex commands from their input.
fn editor(words: &[Word], out: &mut Holder) {
    let ex_mode = words
        .first()
        .is_some_and(|w| matches!(super::wrap::base(&w.text).as_ref(), "ex" | "ed"))
        || words
            .iter()
            .skip(1)
            .take_while(|w| w.text != "--")
            .any(|w| matches!(w.text.as_str(), "-e" | "-E" | "-es" | "-Es" | "-se" | "-sE"));
    if ex_mode {
        out.stdin = Some(Stdin::Editor);
    }
    let mut i = 1;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        if t == "--" {
            break;
        }
        let command = match t {
            "-c" | "--cmd" => {
                i += 1;
                words.get(i).map(|w| w.text.as_str())
            }
            _ => t.strip_prefix('+').filter(|c| !c.is_empty()),
        };
        if let Some(command) = command {
            for text in ex_escapes(command) {
                out.text(text, Via::Editor);
            }
        }
        i += 1;
    }
}

/// `less '+!cmd' file`: an initial command; `!` runs the shell.
fn less(words: &[Word], out: &mut Holder) {
    for w in words.iter().skip(1) {
        if w.text == "--" {
            break;
        }
        let command = w.text.trim_start_matches('+');
        if w.text.starts_with('+')
            && let Some(shell) = command.strip_prefix('!').filter(|s| !s.is_empty())
        {
            out.text(shell.to_string(), Via::Editor);
        }
    }
}

/// `man -P PAGER`, `man --pager=PAGER`, `man -HBROWSER`, `man --html=BROWSER`.
fn man(words: &[Word], out: &mut Holder) {
    for i in 1..words.len() {
        let t = words.get(i).map(|w| w.text.as_str()).unwrap_or("");
        let value = short_value(words, i, b'P', false)
            .or_else(|| long_value(words, i, &["pager"]).map(|(v, _)| v))
            .or_else(|| {
                // The browser is only ever written onto the option.
                t.strip_prefix("--html=")
                    .or_else(|| t.strip_prefix("-H"))
                    .filter(|b| !b.is_empty())
                    .map(str::to_string)
            });
        if let Some(value) = value.filter(|v| !v.is_empty()) {
            out.text(value, Via::Setting);
        }
    }
}

/// `gdb -ex CMD` (`--ex`, `-eval-command`, `-iex`…): shell escapes in gdb's commands;
/// `gdb --args PROGRAM ARGS`: the program it runs.
fn gdb(words: &[Word], out: &mut Holder) {
    const EX: &[&str] = &[
        "-ex",
        "--ex",
        "-eval-command",
        "--eval-command",
        "-iex",
        "--iex",
        "-init-eval-command",
        "--init-eval-command",
    ];
    let mut i = 1;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        if t == "--args" || t == "-args" {
            let rest = words.get(i + 1..).unwrap_or(&[]);
            if !rest.is_empty() {
                out.held.push(Held::Words(rest.to_vec(), Via::Runs));
            }
            return;
        }
        let (name, attached) = t.split_once('=').map_or((t, None), |(n, v)| (n, Some(v)));
        if EX.contains(&name) {
            let command = match attached {
                Some(v) => v.to_string(),
                None => {
                    i += 1;
                    words.get(i).map(|w| w.text.clone()).unwrap_or_default()
                }
            };
            if let Some(text) = gdb_escape(&command) {
                out.text(text, Via::Editor);
            }
        }
        i += 1;
    }
}

/// `ruby -run -e rm -- -rf DIR`: Ruby's `un` library runs its file commands (`cp`, `ln`,
/// `mv`, `rm`, `mkdir`, `rmdir`, `install`, `chmod`, `touch`) with the words after `--` as
/// their own, so that is the command run (`httpd` is the serving rule's).
fn ruby_un(words: &[Word], out: &mut Holder) {
    const UN: &[&str] = &[
        "chmod", "cp", "install", "ln", "mkdir", "mv", "rm", "rmdir", "touch",
    ];
    let text = |at: usize| words.get(at).map_or("", |w| w.text.as_str());
    let loads_un =
        (1..words.len()).any(|at| text(at) == "-run" || (text(at) == "-r" && text(at + 1) == "un"));
    let Some(e) = (1..words.len()).find(|&at| text(at) == "-e") else {
        return;
    };
    let Some(name) = words.get(e + 1).filter(|w| UN.contains(&w.text.as_str())) else {
        return;
    };
    if !loads_un {
        return;
    }
    let rest = words.get(e + 2..).unwrap_or(&[]);
    let rest = match rest.first() {
        Some(w) if w.text == "--" => rest.get(1..).unwrap_or(&[]),
        _ => rest,
    };
    let mut run = vec![name.clone()];
    run.extend(rest.iter().cloned());
    out.held.push(Held::Words(run, Via::Runs));
}

/// The shell text one gdb command runs: `shell CMD`, `!CMD`, `pipe GDBCMD | CMD`,
/// `| GDBCMD | CMD`, or a `system(…)` in its Python.
fn gdb_escape(command: &str) -> Option<String> {
    let c = command.trim_start();
    if let Some(rest) = c.strip_prefix('!') {
        return Some(rest.to_string());
    }
    if let Some(rest) = c.strip_prefix('|') {
        return rest.split_once('|').map(|(_, shell)| shell.to_string());
    }
    let (word, rest) = c.split_once(char::is_whitespace).unwrap_or((c, ""));
    match word {
        "she" | "shel" | "shell" => Some(rest.to_string()),
        "pipe" => rest.split_once('|').map(|(_, shell)| shell.to_string()),
        _ => called_text(c),
    }
}

/// The shell commands in an Ex command line (vim's `:` commands, joined by `|`): `!cmd`,
/// `:silent !cmd`, `:%!cmd`, `:r !cmd`, `:w !cmd`, `:terminal cmd`, `system('cmd')`, and the
/// same inside `:execute "…"`.
pub(crate) fn ex_escapes(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    ex_line(line, &mut out, 0);
    out
}

fn ex_line(line: &str, out: &mut Vec<String>, depth: usize) {
    let mut rest = line;
    for _ in 0..MAX_PARTS {
        let cmd = skip_range(strip_modifiers(
            rest.trim_start_matches(|c: char| c == ':' || c.is_whitespace()),
        ));
        if cmd.is_empty() {
            return;
        }
        // `!cmd` takes the rest of the line, `|` included.
        if let Some(shell) = cmd.strip_prefix('!') {
            out.push(shell.to_string());
            return;
        }
        let (name, after) = ex_name(cmd);
        match name {
            "r" | "re" | "rea" | "read" => {
                if let Some(shell) = after.trim_start().strip_prefix('!') {
                    out.push(shell.to_string());
                    return;
                }
            }
            "w" | "wr" | "wri" | "writ" | "write" | "up" | "upd" | "upda" | "updat" | "update" => {
                // `:w !cmd` pipes to cmd; `:w!file` forces a write.
                if after.starts_with(char::is_whitespace)
                    && let Some(shell) = after.trim_start().strip_prefix('!')
                {
                    out.push(shell.to_string());
                    return;
                }
            }
            "ter" | "term" | "termi" | "termin" | "termina" | "terminal" => {
                let shell: Vec<&str> = after
                    .split_whitespace()
                    .skip_while(|w| w.starts_with("++"))
                    .collect();
                if !shell.is_empty() {
                    out.push(shell.join(" "));
                }
                return;
            }
            "exe" | "exec" | "execu" | "execut" | "execute" if depth == 0 => {
                let inner = literals(after).join(" ");
                ex_line(&inner, out, depth + 1);
            }
            _ => {}
        }
        if let Some(text) = called_text(cmd) {
            out.push(text);
        }
        match next_bar(cmd) {
            Some(at) => rest = cmd.get(at + 1..).unwrap_or(""),
            None => return,
        }
    }
}

/// `silent`, `silent!`, `sil`, `noautocmd`… before an Ex command.
fn strip_modifiers(cmd: &str) -> &str {
    let mut cmd = cmd;
    for _ in 0..8 {
        let (name, after) = ex_name(cmd);
        let modifier = matches!(
            name,
            "sil"
                | "sile"
                | "silen"
                | "silent"
                | "noa"
                | "noautocmd"
                | "keepa"
                | "keepalt"
                | "unsilent"
                | "uns"
                | "verb"
                | "verbose"
                | "vert"
                | "vertical"
        );
        if !modifier || name.is_empty() {
            return cmd;
        }
        cmd = after.trim_start_matches('!').trim_start();
    }
    cmd
}

/// An Ex range before a command: `%`, `.`, `$`, `1,5`, `'a,'b`.
fn skip_range(cmd: &str) -> &str {
    let mut chars = cmd.char_indices().peekable();
    let mut end = 0;
    while let Some((at, c)) = chars.next() {
        match c {
            '%' | '.' | '$' | ',' | ';' | '+' | '-' | '0'..='9' => end = at + 1,
            '\'' => {
                chars.next();
                end = at + 2;
            }
            _ => break,
        }
    }
    cmd.get(end..).unwrap_or("").trim_start()
}

/// The command's name (its leading letters) and what follows.
fn ex_name(cmd: &str) -> (&str, &str) {
    let end = cmd
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(cmd.len());
    (cmd.get(..end).unwrap_or(""), cmd.get(end..).unwrap_or(""))
}

/// Where the next unquoted, unescaped `|` is.
fn next_bar(cmd: &str) -> Option<usize> {
    let mut quote = None;
    let mut escaped = false;
    for (at, c) in cmd.char_indices() {
        match (quote, c) {
            _ if escaped => escaped = false,
            (_, '\\') => escaped = true,
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if q == c => quote = None,
            (None, '|') => return Some(at),
            _ => {}
        }
    }
    None
}

/// The string given to a call that runs it: `system('…')`, `systemlist("…")`,
/// `os.execute("…")`, `popen('…')`.
fn called_text(code: &str) -> Option<String> {
    for call in ["system(", "systemlist(", "os.execute(", "popen("] {
        if let Some(at) = code.find(call) {
            let words = literals(code.get(at + call.len()..).unwrap_or(""));
            if !words.is_empty() {
                return Some(words.join(" "));
            }
        }
    }
    None
}

/// The string literals at the start of `code`: one (`("rm -rf x")`) or a list
/// (`(['rm', '-rf', 'x'])`), up to the first thing that is neither a literal, a comma, a
/// bracket nor a space.
fn literals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            ' ' | '\t' | '[' | ',' | '(' | '.' => {
                chars.next();
            }
            '\'' | '"' => {
                chars.next();
                let mut text = String::new();
                let mut escaped = false;
                for ch in chars.by_ref() {
                    if escaped {
                        text.push(ch);
                        escaped = false;
                    } else if ch == '\\' && c == '"' {
                        escaped = true;
                    } else if ch == c {
                        break;
                    } else {
                        text.push(ch);
                    }
                }
                out.push(text);
            }
            _ => break,
        }
    }
    out
}

// Runners.

/// `script -c CMD`, `script --command=CMD`, `script -qc CMD`.
fn script(words: &[Word], out: &mut Holder) {
    for i in 1..words.len() {
        let value = short_value(words, i, b'c', true)
            .or_else(|| long_value(words, i, &["command"]).map(|(v, _)| v));
        if let Some(text) = value {
            out.text(text, Via::ShellC);
        }
    }
}

/// tmux's commands that run a shell command (the short options that take a value before it),
/// and whether it is typed keys or an `if-shell` test rather than the last words.
#[rustfmt::skip]
const TMUX: &[(&[&str], &[u8], Tmux)] = &[
    (&["display-popup", "popup"], b"bcdehsStTwxy", Tmux::Rest),
    (&["if-shell", "if"], b"t", Tmux::First),
    (&["new-session", "new"], b"cefFnstxy", Tmux::Rest),
    (&["new-window", "neww"], b"ceFnt", Tmux::Rest),
    (&["pipe-pane", "pipep"], b"t", Tmux::Rest),
    (&["respawn-pane", "respawnp", "respawn-window", "respawnw"], b"cet", Tmux::Rest),
    (&["run-shell", "run"], b"cdt", Tmux::Rest),
    (&["send-keys", "send"], b"cNt", Tmux::Keys),
    (&["split-window", "splitw"], b"celtF", Tmux::Rest),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tmux {
    /// The words after the options are a shell command.
    Rest,
    /// The first word after the options is a shell command (`if-shell`).
    First,
    /// The words are keys typed into a pane (`send-keys`), whose shell reads them.
    Keys,
}

/// `tmux [-c CMD] COMMAND … [\; COMMAND …]`.
fn tmux(words: &[Word], out: &mut Holder) {
    let mut i = 1;
    while let Some(w) = words.get(i) {
        match w.text.as_str() {
            "-c" => {
                if let Some(text) = next_text(words, i) {
                    out.text(text, Via::ShellC);
                }
                i += 2;
            }
            "-L" | "-S" | "-f" | "-T" => i += 2,
            t if t.starts_with('-') && t.len() > 1 => i += 1,
            _ => break,
        }
    }
    let rest = words.get(i..).unwrap_or(&[]);
    for command in rest.split(|w| w.text == ";") {
        let Some((name, args)) = command.split_first() else {
            continue;
        };
        let Some((_, spec, kind)) = TMUX
            .iter()
            .find(|(names, _, _)| names.contains(&name.text.as_str()))
        else {
            continue;
        };
        let mut j = 0;
        let mut literal = false;
        let mut flags_off = false;
        while let Some(a) = args.get(j) {
            let t = a.text.as_bytes();
            if t == b"--" {
                j += 1;
                break;
            }
            if t.len() < 2 || t.first() != Some(&b'-') {
                break;
            }
            literal |= t.contains(&b'l');
            // `run-shell -C` and `if-shell -F` take a tmux command or a format, not shell text.
            flags_off |= (*kind == Tmux::Rest && t.contains(&b'C'))
                || (*kind == Tmux::First && t.contains(&b'F'));
            let takes = t.last().is_some_and(|c| spec.contains(c));
            j += if takes { 2 } else { 1 };
        }
        if flags_off {
            continue;
        }
        let operands = args.get(j..).unwrap_or(&[]);
        match kind {
            Tmux::Rest if !operands.is_empty() => out.text(joined(operands), Via::ShellC),
            Tmux::First => {
                if let Some(test) = operands.first() {
                    out.text(test.text.clone(), Via::ShellC);
                }
            }
            Tmux::Keys => {
                let typed = typed_keys(operands, literal);
                if !typed.trim().is_empty() {
                    out.text(typed, Via::Runs);
                }
            }
            Tmux::Rest => {}
        }
    }
}

/// What tmux's `send-keys` types: literal words as they are, `Enter` and `C-m` as the end of a
/// line, `Space` as a blank; other key names (`C-c`, `Up`, `Escape`…) type no text.
fn typed_keys(keys: &[Word], literal: bool) -> String {
    let mut out = String::new();
    for key in keys {
        let t = key.text.as_str();
        if literal {
            out.push_str(t);
            continue;
        }
        match t {
            "Enter" | "C-m" | "C-j" | "KPEnter" => out.push('\n'),
            "Space" => out.push(' '),
            _ if is_key_name(t) => {}
            _ => out.push_str(t),
        }
    }
    out
}

/// A tmux key name rather than text: `C-c`, `M-x`, `S-Up`, `Escape`, `F5`, `BSpace`…
fn is_key_name(t: &str) -> bool {
    const NAMES: &[&str] = &[
        "BSpace", "BTab", "DC", "Down", "End", "Escape", "Home", "IC", "Left", "NPage", "PPage",
        "PageDown", "PageUp", "Right", "Tab", "Up",
    ];
    let modified = t.len() >= 3 && matches!(t.get(..2), Some("C-" | "M-" | "S-"));
    let function = t.len() <= 3
        && t.starts_with('F')
        && t.len() > 1
        && t.bytes().skip(1).all(|b| b.is_ascii_digit());
    modified || function || NAMES.contains(&t)
}

/// `screen [options] CMD ARGS` runs CMD; `screen -X stuff TEXT` types into a session,
/// `screen -X exec CMD` and `screen -X screen CMD` run one.
fn screen(words: &[Word], out: &mut Holder) {
    const TAKES: &[u8] = b"cehpsStT";
    let mut i = 1;
    while let Some(w) = words.get(i) {
        let t = w.text.as_bytes();
        if t == b"--" {
            i += 1;
            break;
        }
        if t.len() < 2 || t.first() != Some(&b'-') {
            break;
        }
        if t == b"-X" {
            screen_command(words.get(i + 1..).unwrap_or(&[]), out);
            return;
        }
        if t == b"-Logfile" {
            i += 2;
            continue;
        }
        let takes = t.len() > 1 && t.last().is_some_and(|c| TAKES.contains(c));
        i += if takes { 2 } else { 1 };
    }
    let rest = words.get(i..).unwrap_or(&[]);
    if !rest.is_empty() {
        out.held.push(Held::Words(rest.to_vec(), Via::Runs));
    }
}

fn screen_command(words: &[Word], out: &mut Holder) {
    let Some((name, args)) = words.split_first() else {
        return;
    };
    match name.text.as_str() {
        "stuff" => {
            let typed = joined(args)
                .replace("^M", "\n")
                .replace("\\r", "\n")
                .replace("\\n", "\n")
                .replace("\\015", "\n");
            if !typed.trim().is_empty() {
                out.text(typed, Via::Runs);
            }
        }
        "exec" | "screen" => {
            let rest: Vec<Word> = args
                .iter()
                .skip_while(|w| w.text.starts_with('-') || w.text.starts_with('.'))
                .cloned()
                .collect();
            if !rest.is_empty() {
                out.held.push(Held::Words(rest, Via::Runs));
            }
        }
        _ => {}
    }
}

/// `expect -c SCRIPT`: what its `spawn`, `exec`, `system` and `send` run; `expect` with no
/// script file reads its script from its input.
fn expect(words: &[Word], out: &mut Holder) {
    let mut file = false;
    let mut i = 1;
    while let Some(w) = words.get(i) {
        match w.text.as_str() {
            "-c" => {
                if let Some(script) = next_text(words, i) {
                    out.text(tcl_commands(&script), Via::Runs);
                }
                i += 2;
            }
            "-f" => {
                file = true;
                i += 2;
            }
            "-D" => i += 2,
            "--" => {
                file |= words.len() > i + 1;
                break;
            }
            t if t.starts_with('-') => i += 1,
            _ => {
                file = true;
                break;
            }
        }
    }
    let inline = words.iter().any(|w| w.text == "-c");
    if !file && !inline {
        out.stdin = Some(Stdin::Expect);
    }
}

/// The shell text a Tcl script's commands run: `spawn CMD ARGS` and `exec CMD ARGS` as
/// words, `system TEXT` and what `send` types as shell text, and the same inside `[…]`.
pub(super) fn tcl_commands(script: &str) -> String {
    let mut out = Vec::new();
    tcl_script(script, &mut out, 0);
    out.join("\n")
}

fn tcl_script(script: &str, out: &mut Vec<String>, depth: usize) {
    let mut nested = Vec::new();
    for command in tcl_split(script, &mut nested).into_iter().take(MAX_PARTS) {
        let Some((name, args)) = command.split_first() else {
            continue;
        };
        match name.as_str() {
            "spawn" | "exec" => {
                let rest: Vec<&String> = args
                    .iter()
                    .skip_while(|a| a.starts_with('-') && a.len() > 1)
                    .collect();
                let mut text = String::new();
                for word in rest {
                    if !text.is_empty() {
                        text.push(' ');
                    }
                    let operator = matches!(
                        word.as_str(),
                        "|" | "|&" | "<" | ">" | ">>" | "2>" | "2>>" | ">&" | "<<" | "&"
                    );
                    if operator {
                        text.push_str(word);
                    } else {
                        text.push_str(&quote(word));
                    }
                }
                if !text.is_empty() {
                    out.push(text);
                }
            }
            "system" => out.push(args.join(" ")),
            "send" => {
                let typed: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
                if let Some(text) = typed.last() {
                    out.push(text.replace("\\r", "\n").replace("\\n", "\n"));
                }
            }
            _ => {}
        }
    }
    if depth < 4 {
        for inner in nested.into_iter().take(MAX_PARTS) {
            tcl_script(&inner, out, depth + 1);
        }
    }
}

/// A Tcl script cut into commands (at `;` and line ends) and words (braces and double quotes
/// group; `\` escapes). The text of every `[…]` outside braces goes to `nested`.
fn tcl_split(script: &str, nested: &mut Vec<String>) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = script.chars().peekable();
    let mut braces = 0usize;
    let mut quoted = false;
    while let Some(c) = chars.next() {
        if braces > 0 {
            match c {
                '{' => braces += 1,
                '}' => braces -= 1,
                _ => {}
            }
            if braces > 0 {
                word.push(c);
            }
            continue;
        }
        match c {
            '\\' => {
                if let Some(next) = chars.next() {
                    match next {
                        'n' | 'r' => {
                            word.push('\\');
                            word.push(next);
                        }
                        '\n' => {}
                        _ => word.push(next),
                    }
                    in_word = true;
                }
            }
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            '{' if !quoted && !in_word => {
                braces = 1;
                in_word = true;
            }
            '[' => {
                let mut depth = 1usize;
                let mut inner = String::new();
                for ch in chars.by_ref() {
                    match ch {
                        '[' => depth += 1,
                        ']' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                    inner.push(ch);
                }
                nested.push(inner);
                in_word = true;
            }
            ' ' | '\t' if !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            ';' | '\n' if !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
                if !words.is_empty() {
                    commands.push(std::mem::take(&mut words));
                }
            }
            _ => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if !words.is_empty() {
        commands.push(words);
    }
    commands
}

/// A word quoted for the shell, so that it is read back as one word.
pub(crate) fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%~^{}".contains(&b));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

fn joined(words: &[Word]) -> String {
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    texts.join(" ")
}

/// GNU parallel's options that take a value.
const PARALLEL_SHORT: &[u8] = b"aBCdEIjLnNPSs";
#[rustfmt::skip]
const PARALLEL_LONG: &[&str] = &[
    "arg-file", "arg-file-sep", "arg-sep", "basefile", "block", "colsep", "delay", "delimiter", "env",
    "eof", "halt", "header", "jobs", "joblog", "limit", "load", "max-args", "max-chars", "max-lines",
    "max-replace-args", "memfree", "nice", "replace", "res", "results", "retries", "return", "sshlogin",
    "sshloginfile", "ssh", "tagstring", "termseq", "timeout", "tmpdir", "transferfile", "wd", "workdir",
];

/// `parallel CMD ::: ARGS`: CMD with each argument (in `{}` or after it), run by the shell;
/// `parallel ::: CMDS`: each argument is a command; `parallel CMD` alone: CMD with its input.
fn parallel(words: &[Word], out: &mut Holder) {
    let mut i = 1;
    // Where the jobs run (`-S host1,host2`, `--sshlogin=host`; `:` is this machine): each
    // command is run there over ssh, and read as `ssh HOST CMD`.
    let mut hosts: Vec<String> = Vec::new();
    let mut logins = |value: Option<&Word>| {
        for host in value.map_or("", |w| w.text.as_str()).split(',') {
            // `2/host`: a count of jobs before the host.
            let host = host.split_once('/').map_or(host, |(_, h)| h).trim();
            if !host.is_empty() && host != ":" && hosts.len() < MAX_INPUTS {
                hosts.push(host.to_string());
            }
        }
    };
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        if t == "--" {
            i += 1;
            break;
        }
        if t.starts_with(":::") || !t.starts_with('-') || t.len() < 2 {
            break;
        }
        if let Some(long) = t.strip_prefix("--") {
            let takes = !long.contains('=') && PARALLEL_LONG.contains(&long);
            match long.split_once('=') {
                Some(("sshlogin", value)) => logins(Some(&Word::plain(value))),
                None if long == "sshlogin" => logins(words.get(i + 1)),
                _ => {}
            }
            i += if takes { 2 } else { 1 };
            continue;
        }
        let takes = t.len() == 2
            && t.as_bytes()
                .get(1)
                .copied()
                .is_some_and(|c| PARALLEL_SHORT.contains(&c));
        if t == "-S" {
            logins(words.get(i + 1));
        } else if let Some(value) = t.strip_prefix("-S").filter(|v| !v.is_empty()) {
            logins(Some(&Word::plain(value)));
        }
        i += if takes { 2 } else { 1 };
    }

    let rest = words.get(i..).unwrap_or(&[]);
    let split = rest
        .iter()
        .position(|w| w.text.starts_with(":::"))
        .unwrap_or(rest.len());
    let command = joined(rest.get(..split).unwrap_or(&[]));
    let mut inputs = Vec::new();
    let mut from_file = false;
    for w in rest.get(split..).unwrap_or(&[]) {
        match w.text.as_str() {
            ":::" | ":::+" => from_file = false,
            "::::" | "::::+" => from_file = true,
            _ if !from_file => inputs.push(w.text.as_str()),
            _ => {}
        }
    }
    if inputs.is_empty() {
        if !command.is_empty() {
            out.text(on_hosts(command, &hosts), Via::ShellC);
        }
        return;
    }
    let mut text = String::new();
    for input in inputs.iter().take(MAX_INPUTS) {
        let line = if command.is_empty() {
            (*input).to_string()
        } else if command.contains('{') {
            with_input(&command, &quote(input))
        } else {
            format!("{command} {}", quote(input))
        };
        if text.len() + line.len() > MAX_BUILT {
            out.unread = Some("too many inputs to parallel");
            break;
        }
        text.push_str(&line);
        text.push('\n');
    }
    if inputs.len() > MAX_INPUTS {
        out.unread = Some("too many inputs to parallel");
    }
    out.text(on_hosts(text, &hosts), Via::ShellC);
}

/// `text`'s lines as run over ssh on each host, when the jobs run on any (`ssh HOST LINE`).
fn on_hosts(text: String, hosts: &[String]) -> String {
    if hosts.is_empty() {
        return text;
    }
    let mut remote = String::new();
    for host in hosts {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            remote.push_str(&format!("ssh {} {}\n", quote(host), quote(line)));
        }
    }
    remote
}

/// parallel's replacement strings (`{}`, `{.}`, `{/}`, `{1}`…) in `command`, filled with `input`.
fn with_input(command: &str, input: &str) -> String {
    let mut out = String::with_capacity(command.len() + input.len());
    let mut rest = command;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest.get(open..).and_then(|r| r.find('}')) else {
            break;
        };
        let inside = rest.get(open + 1..open + close).unwrap_or("");
        out.push_str(rest.get(..open).unwrap_or(""));
        let replacement = inside.len() <= 4
            && inside
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | '/' | '#' | '%'));
        if replacement {
            out.push_str(input);
        } else {
            out.push_str(rest.get(open..=open + close).unwrap_or(""));
        }
        rest = rest.get(open + close + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// `hyperfine CMD…`: each command it times, and its `--prepare`, `--setup`, `--cleanup` and
/// `--conclude` commands, run by the shell.
fn hyperfine(words: &[Word], out: &mut Holder) {
    const RUN: &[&str] = &["prepare", "cleanup", "setup", "conclude"];
    const TAKES: &[&str] = &[
        "-w",
        "--warmup",
        "-r",
        "--runs",
        "-m",
        "--min-runs",
        "-M",
        "--max-runs",
        "-D",
        "--parameter-step-size",
        "-S",
        "--shell",
        "-u",
        "--time-unit",
        "-n",
        "--command-name",
        "--style",
        "--sort",
        "--export-asciidoc",
        "--export-csv",
        "--export-json",
        "--export-markdown",
        "--export-orgmode",
        "--output",
        "--input",
    ];
    let mut i = 1;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        if let Some((value, next)) = long_value(words, i, RUN) {
            out.text(value, Via::ShellC);
            i = next;
            continue;
        }
        match t {
            "-p" | "-c" | "-s" => {
                if let Some(value) = next_text(words, i) {
                    out.text(value, Via::ShellC);
                }
                i += 2;
            }
            "-P" | "--parameter-scan" => i += 4,
            "-L" | "--parameter-list" => i += 3,
            _ if TAKES.contains(&t) => i += 2,
            _ if t.starts_with('-') && t.len() > 1 => i += 1,
            _ => {
                out.text(t.to_string(), Via::ShellC);
                i += 1;
            }
        }
    }
}

// What runs later.

/// `systemd-run --on-calendar=… CMD`: with a timer, its command runs later (without one the
/// reader takes systemd-run off as a wrapper).
fn systemd_timer(words: &[Word], out: &mut Holder) {
    let mut i = 1;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        if t == "--" {
            i += 1;
            break;
        }
        if !t.starts_with('-') {
            break;
        }
        let takes = match t.strip_prefix("--") {
            Some(long) => !long.contains('=') && super::wrap::systemd_takes(long),
            None => {
                t.len() == 2
                    && t.as_bytes()
                        .get(1)
                        .copied()
                        .is_some_and(|c| b"upEMH".contains(&c))
            }
        };
        i += if takes { 2 } else { 1 };
    }
    let rest = words.get(i..).unwrap_or(&[]);
    if !rest.is_empty() {
        out.held.push(Held::Words(rest.to_vec(), Via::Later));
    }
}

/// `at TIME`, `batch`: the commands come on its input, unless `-f FILE` (or it lists,
/// removes or shows jobs).
fn at(words: &[Word], out: &mut Holder) {
    let other = words.iter().skip(1).any(|w| {
        let t = w.text.as_bytes();
        t.first() == Some(&b'-') && t.iter().skip(1).any(|c| b"fldrc".contains(c))
    });
    if !other {
        out.stdin = Some(Stdin::Later);
    }
}

/// aria2c's event hooks (`--on-download-complete=CMD`, `--on-bt-download-complete`, and the
/// start, pause, stop and error ones): a program it runs, given the download's id and path.
fn aria2c(words: &[Word], out: &mut Holder) {
    let mut rest = words.iter().skip(1);
    while let Some(word) = rest.next() {
        let Some(option) = word.text.strip_prefix("--on-") else {
            continue;
        };
        let (name, value) = match option.split_once('=') {
            Some((name, value)) => (name, Some(value.to_string())),
            None => (option, rest.next().map(|w| w.text.clone())),
        };
        if (name.starts_with("download-") || name.starts_with("bt-download-"))
            && let Some(value) = value.filter(|v| !v.is_empty())
        {
            out.text(value, Via::Setting);
        }
    }
}

/// `crontab -` or `crontab` with no file: the new crontab comes on its input.
fn crontab(words: &[Word], out: &mut Holder) {
    let mut operand = None;
    let mut i = 1;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        match t {
            "-u" => i += 2,
            "-" => {
                operand = Some("-");
                i += 1;
            }
            _ if t.starts_with('-') => {
                // `-l`, `-r`, `-e`, `-i`, `-T`: list, remove, edit, ask, test a file.
                return;
            }
            _ => {
                operand = Some(t);
                i += 1;
            }
        }
    }
    if operand.is_none_or(|o| o == "-") {
        out.stdin = Some(Stdin::Crontab);
    }
}

/// The commands of a crontab's lines: each line less its five time fields (or `@reboot`…),
/// up to its first unescaped `%` (the rest is the command's input). Comments and
/// `NAME=value` lines are left out.
pub(crate) fn crontab_commands(table: &str) -> String {
    let mut out = Vec::new();
    for line in table.lines().take(MAX_PARTS) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let name_end = line
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(line.len());
        if name_end > 0
            && line
                .get(name_end..)
                .is_some_and(|r| r.trim_start().starts_with('='))
        {
            continue;
        }
        let fields = if line.starts_with('@') { 1 } else { 5 };
        let mut rest = line;
        for _ in 0..fields {
            rest = rest
                .trim_start()
                .split_once(char::is_whitespace)
                .map_or("", |(_, r)| r);
        }
        let mut command = String::new();
        let mut chars = rest.trim().chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some('%') => command.push('%'),
                    Some(other) => {
                        command.push('\\');
                        command.push(other);
                    }
                    None => command.push('\\'),
                },
                '%' => break,
                _ => command.push(c),
            }
        }
        if !command.is_empty() {
            out.push(command);
        }
    }
    out.join("\n")
}

// Settings given as options.

/// `ssh -o ProxyCommand=CMD`, `-o 'LocalCommand CMD'`, `-oKnownHostsCommand=CMD`; `scp -S
/// PROGRAM`, `sftp -S PROGRAM`.
fn ssh(words: &[Word], out: &mut Holder) {
    let program = words
        .first()
        .map(|w| crate::catalogue::name(&w.text))
        .unwrap_or_default();
    for i in 1..words.len() {
        if let Some(setting) = short_value(words, i, b'o', false)
            && let Some(command) = ssh_command(&setting)
        {
            out.text(command, Via::Setting);
        }
        if program != "ssh"
            && let Some(command) = short_value(words, i, b'S', false)
        {
            out.text(command, Via::Setting);
        }
    }
}

/// The command an ssh setting (`Key=value` or `Key value`) runs on this machine, if it is one.
fn ssh_command(setting: &str) -> Option<String> {
    let setting = setting.trim();
    let at = setting.find(|c: char| c == '=' || c.is_whitespace())?;
    let key = setting.get(..at)?.to_ascii_lowercase();
    let value = setting
        .get(at..)?
        .trim_start_matches(|c: char| c == '=' || c.is_whitespace());
    (SSH_COMMAND_KEYS.binary_search(&key.as_str()).is_ok()
        && !value.is_empty()
        && !value.eq_ignore_ascii_case("none"))
    .then(|| value.to_string())
}

/// `rsync -e CMD`, `rsync --rsh=CMD`: the remote shell it runs here.
fn rsync(words: &[Word], out: &mut Holder) {
    for i in 1..words.len() {
        let value = short_value(words, i, b'e', true)
            .or_else(|| long_value(words, i, &["rsh"]).map(|(v, _)| v));
        if let Some(command) = value {
            out.text(command, Via::Setting);
        }
    }
}

/// tar's options that run a program: `--to-command`, `--use-compress-program` (`-I`),
/// `--info-script` / `--new-volume-script` (`-F`), `--checkpoint-action=exec=…`.
fn tar(words: &[Word], out: &mut Holder) {
    const RUN: &[&str] = &[
        "to-command",
        "use-compress-program",
        "info-script",
        "new-volume-script",
        "checkpoint-action",
    ];
    for i in 1..words.len() {
        let value = long_value(words, i, RUN).map(|(v, _)| v).or_else(|| {
            let t = words.get(i).map(|w| w.text.as_str())?;
            matches!(t, "-I" | "-F")
                .then(|| next_text(words, i))
                .flatten()
        });
        let Some(value) = value else { continue };
        let is_action = words
            .get(i)
            .is_some_and(|w| w.text.starts_with("--checkpoint-action"));
        let command = if is_action {
            match value.strip_prefix("exec=") {
                Some(command) => command.to_string(),
                None => continue,
            }
        } else {
            value
        };
        if !command.is_empty() {
            out.text(command, Via::Setting);
        }
    }
}

/// `zip -TT CMD`, `zip --unzip-command CMD`: the command that tests the archive.
fn zip(words: &[Word], out: &mut Holder) {
    for i in 1..words.len() {
        let value = long_value(words, i, &["unzip-command"])
            .map(|(v, _)| v)
            .or_else(|| {
                let t = words.get(i).map(|w| w.text.as_str())?;
                match t.strip_prefix("-TT") {
                    Some("") => next_text(words, i),
                    Some(attached) => Some(attached.trim_start_matches('=').to_string()),
                    None => None,
                }
            });
        if let Some(command) = value.filter(|c| !c.is_empty()) {
            out.text(command, Via::Setting);
        }
    }
}

/// `apt-get -o APT::Update::Pre-Invoke::=CMD`, `apt -o Dpkg::Post-Invoke=CMD`.
fn apt(words: &[Word], out: &mut Holder) {
    for i in 1..words.len() {
        let setting = short_value(words, i, b'o', false)
            .or_else(|| long_value(words, i, &["option"]).map(|(v, _)| v));
        let Some((key, value)) = setting.as_deref().and_then(|s| s.split_once('=')) else {
            continue;
        };
        let key = key.trim_end_matches(':').to_ascii_lowercase();
        let runs = APT_COMMAND_KEYS
            .iter()
            .any(|end| key.rsplit("::").next() == Some(*end));
        if runs && !value.trim().is_empty() {
            out.text(value.to_string(), Via::Setting);
        }
    }
}

// Pipes.

/// What a literal `echo` or `printf` writes to the next stage of its pipeline, when that is
/// all it does (its output not sent to a file, `printf -v` not used).
pub(crate) fn echoed(cmd: &Command) -> Option<String> {
    if writes_output_to_file(cmd) {
        return None;
    }
    printed_text(cmd)
}

/// Its standard output goes to a file, not down the pipe.
fn writes_output_to_file(cmd: &Command) -> bool {
    cmd.redirects.iter().any(|r| {
        matches!(r.op, super::RedirectOp::Write | super::RedirectOp::Append)
            && r.fd.is_none_or(|fd| fd == 1)
    })
}

/// What a stage that makes a line of each line it reads writes, when it is a template around
/// that line, with the line as `$LINE`, a value only known when it runs: sed's one `s`
/// command that puts text before or after the line or around all of it (`s/^/rm -rf /`,
/// `s|$| \&|`, `s/.*/cp & bak/`, `s/\(.*\)/mv \1 old/`), awk's `{print "rm " $1}`, and
/// xargs's `echo` (`xargs -I{} echo rm {}`, `xargs -n1 echo rm`), and `date +FORMAT`, its
/// fields values no shell reads as syntax. `ls ~ | sed 's|^|rm -rf ~/|'
/// | sh` runs `rm -rf ~/$LINE` for each name. Anything else: `None`.
pub(crate) fn templated(cmd: &Command) -> Option<String> {
    if writes_output_to_file(cmd) {
        return None;
    }
    match cmd.program() {
        "sed" | "gsed" => sed_template(cmd.args()),
        "awk" | "gawk" | "mawk" | "nawk" => awk_template(cmd.args()),
        "xargs" => xargs_template(cmd.args()),
        "date" | "gdate" => date_template(cmd.args()),
        _ => None,
    }
}

/// The line a template stands for, where the line read goes.
const LINE: &str = "$LINE";

fn sed_template(args: &[String]) -> Option<String> {
    let mut script = None;
    let mut extended = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "-E" | "-r" | "--regexp-extended" => extended = true,
            "-u" | "--unbuffered" | "--posix" => {}
            "-e" => script = Some(rest.next()?.clone()),
            a if a.starts_with("--expression=") => {
                script = Some(a.trim_start_matches("--expression=").to_string());
            }
            a if a.starts_with('-') => return None,
            a if script.is_none() => script = Some(a.to_string()),
            // Files it reads instead of its input: each line is still made the same way.
            _ => {}
        }
    }
    let script = script?;
    let body = script.trim().strip_prefix('s')?;
    let delimiter = body.chars().next()?;
    if delimiter.is_alphanumeric() || matches!(delimiter, '\\' | '\n' | ' ') {
        return None;
    }
    // The pattern, the replacement and the flags, each up to a delimiter not escaped.
    let mut parts: Vec<String> = vec![String::new()];
    let mut chars = body.chars().skip(1);
    while let Some(c) = chars.next() {
        if c == '\\' {
            let next = chars.next()?;
            let part = parts.last_mut()?;
            if next == delimiter {
                part.push(next);
            } else {
                part.push('\\');
                part.push(next);
            }
        } else if c == delimiter {
            parts.push(String::new());
        } else {
            parts.last_mut()?.push(c);
        }
    }
    let [pattern, replacement, flags] = parts.as_slice() else {
        return None;
    };
    if !flags.chars().all(|f| matches!(f, 'g' | '1')) {
        return None;
    }
    let whole = [".*", "^.*", ".*$", "^.*$"];
    let grouped = if extended {
        ["(.*)", "^(.*)", "(.*)$", "^(.*)$"]
    } else {
        ["\\(.*\\)", "^\\(.*\\)", "\\(.*\\)$", "^\\(.*\\)$"]
    };
    // What `&` and `\1` stand for: nothing for an anchor alone, the line for the whole.
    let (matched, before, after) = match pattern.as_str() {
        "^" => ("", "", LINE),
        "$" => ("", LINE, ""),
        p if whole.contains(&p) || grouped.contains(&p) => (LINE, "", ""),
        _ => return None,
    };
    let mut made = String::from(before);
    let mut chars = replacement.chars();
    while let Some(c) = chars.next() {
        match c {
            '&' => made.push_str(matched),
            '\\' => match chars.next()? {
                '1' if grouped.contains(&pattern.as_str()) => made.push_str(LINE),
                'n' => made.push('\n'),
                't' => made.push('\t'),
                d if d.is_ascii_digit() => return None,
                other => made.push(other),
            },
            other => made.push(other),
        }
    }
    made.push_str(after);
    Some(made)
}

fn awk_template(args: &[String]) -> Option<String> {
    let mut program = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "-F" => {
                rest.next()?;
            }
            a if a.starts_with("-F") => {}
            a if a.starts_with('-') => return None,
            a if program.is_none() => program = Some(a.to_string()),
            _ => {}
        }
    }
    let program = program?;
    let inner = program.trim().strip_prefix('{')?.strip_suffix('}')?.trim();
    let statement = inner.trim_end_matches(';').trim();
    if let Some(items) = statement.strip_prefix("printf") {
        return awk_printf(items);
    }
    let items = statement.strip_prefix("print")?;
    if !items.starts_with([' ', '\t']) {
        return None;
    }
    let mut made = String::new();
    for item in awk_items(items)? {
        match item {
            AwkItem::Text(text) => made.push_str(&text),
            AwkItem::Comma => made.push(' '),
        }
    }
    Some(made)
}

/// What awk's `print` or `printf` is given: texts (literals and fields, a field as the line)
/// and the commas between arguments.
enum AwkItem {
    Text(String),
    Comma,
}

fn awk_items(items: &str) -> Option<Vec<AwkItem>> {
    let mut out: Vec<AwkItem> = Vec::new();
    let mut text = String::new();
    let mut chars = items.trim().chars().peekable();
    let made = &mut text;
    while let Some(c) = chars.next() {
        match c {
            '"' => loop {
                match chars.next()? {
                    '"' => break,
                    '\\' => match chars.next()? {
                        'n' => made.push('\n'),
                        't' => made.push('\t'),
                        other => made.push(other),
                    },
                    other => made.push(other),
                }
            },
            '$' => {
                // `$0`, `$1`, `$NF`: a field of the line, or all of it.
                let field: String =
                    std::iter::from_fn(|| chars.next_if(|c| c.is_ascii_alphanumeric())).collect();
                if field.is_empty() {
                    return None;
                }
                made.push_str(LINE);
            }
            ',' => {
                out.push(AwkItem::Text(std::mem::take(made)));
                out.push(AwkItem::Comma);
            }
            ' ' | '\t' => {}
            _ => return None,
        }
    }
    out.push(AwkItem::Text(text));
    Some(out)
}

/// awk's `printf "sox %s %s\n", $0, $0 ".wav"`: the format with each `%s` (or `%d`) its
/// argument.
fn awk_printf(items: &str) -> Option<String> {
    let items = awk_items(items.trim_start_matches(['(', ' ']).trim_end_matches(')'))?;
    let mut args = items.into_iter().filter_map(|item| match item {
        AwkItem::Text(text) => Some(text),
        AwkItem::Comma => None,
    });
    let format = args.next()?;
    let mut made = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            made.push(c);
            continue;
        }
        match chars.next()? {
            '%' => made.push('%'),
            's' | 'd' | 'i' => made.push_str(&args.next()?),
            _ => return None,
        }
    }
    Some(made)
}

/// `date +FORMAT`: its format, each field (`%Y`, `%s`, `%c`) a value of digits and names,
/// which no shell reads as syntax; only with `-u` (`--utc`, `--universal`) and a date to
/// show (`-d X`, `--date=X`) beside it.
fn date_template(args: &[String]) -> Option<String> {
    let mut format = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "-u" | "--utc" | "--universal" => {}
            "-d" | "--date" => {
                rest.next()?;
            }
            a if a.starts_with("--date=") => {}
            a if a.starts_with('+') && format.is_none() => format = Some(a.get(1..)?),
            _ => return None,
        }
    }
    let mut made = String::new();
    let mut chars = format?.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            made.push(c);
            continue;
        }
        // GNU's flags and width (`%-d`, `%_H`, `%03N`) before the field's letter.
        let mut field = chars.next()?;
        while matches!(field, '-' | '_' | '0' | '^' | '#' | ':') || field.is_ascii_digit() {
            field = chars.next()?;
        }
        match field {
            '%' => made.push('%'),
            'n' => made.push('\n'),
            't' => made.push('\t'),
            f if f.is_ascii_alphabetic() => made.push('0'),
            _ => return None,
        }
    }
    Some(made)
}

fn xargs_template(args: &[String]) -> Option<String> {
    let mut replace: Option<String> = None;
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        match arg.as_str() {
            "-I" => {
                replace = Some(args.get(at + 1)?.clone());
                at += 2;
                continue;
            }
            "-i" | "--replace" => replace = Some("{}".to_string()),
            "-n" | "-L" | "-d" | "-P" | "-s" | "-E" => {
                at += 2;
                continue;
            }
            a if a.starts_with("-I") => replace = Some(a.trim_start_matches("-I").to_string()),
            a if a.starts_with("--replace=") => {
                replace = Some(a.trim_start_matches("--replace=").to_string());
            }
            a if a.starts_with('-') => {}
            _ => break,
        }
        at += 1;
    }
    let words = args.get(at..)?;
    let (program, rest) = words.split_first()?;
    if program != "echo" || rest.first().is_some_and(|a| a.starts_with('-')) {
        return None;
    }
    let text = rest.join(" ");
    Some(match replace {
        Some(r) if !r.is_empty() => text.replace(r.as_str(), LINE),
        _ if text.is_empty() => LINE.to_string(),
        _ => format!("{text} {LINE}"),
    })
}

/// What a literal `echo` or `printf` prints, wherever its output goes.
pub(super) fn printed_text(cmd: &Command) -> Option<String> {
    let args = cmd.args();
    let text = match cmd.program() {
        "echo" => {
            let words: Vec<&str> = args
                .iter()
                .map(String::as_str)
                .skip_while(|a| {
                    a.len() > 1
                        && a.starts_with('-')
                        && a.bytes().skip(1).all(|c| matches!(c, b'n' | b'e' | b'E'))
                })
                .collect();
            words.join(" ")
        }
        "printf" => printed(args)?,
        _ => return interpreter_printed(cmd),
    };
    Some(unescaped(&text))
}

/// What an interpreter's inline code prints when the code is one statement that prints a
/// literal text (`python3 -c 'print("rm -rf ~")'`, `node -e 'console.log("…")'`, `ruby -e
/// 'puts "…"'`, `perl -e 'print "…"'`, `php -r 'echo "…";'`, `awk 'BEGIN{print "…"}'`): the
/// text, as `echo` would print it. Anything else in the code, or a text with an
/// interpolation, is not read here (the code reader reads code).
fn interpreter_printed(cmd: &Command) -> Option<String> {
    let program = crate::catalogue::program(cmd.program())?;
    let code = program.code?;
    let args = cmd.args();
    let text = if code.inline.contains(&"") {
        // awk's program is its first operand.
        args.iter().find(|a| !a.starts_with('-'))?
    } else {
        let at = args
            .iter()
            .position(|a| code.inline.contains(&a.as_str()))?;
        args.get(at + 1)?
    };
    let body = text.trim();
    let body = body
        .strip_prefix("BEGIN")
        .map(|rest| {
            rest.trim_start()
                .trim_start_matches('{')
                .trim_end()
                .trim_end_matches('}')
        })
        .unwrap_or(body)
        .trim()
        .trim_end_matches(';')
        .trim();
    let call = [
        "console.log",
        "process.stdout.write",
        "print",
        "puts",
        "say",
        "echo",
    ]
    .iter()
    .find_map(|name| body.strip_prefix(name))?
    .trim();
    let inner = call
        .strip_prefix('(')
        .and_then(|c| c.strip_suffix(')'))
        .unwrap_or(call)
        .trim();
    let quote = inner.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let literal = inner.strip_prefix(quote)?.strip_suffix(quote)?;
    // One literal, no interpolation and no second string (`print("a", x)`).
    let interpolates = literal.contains(quote)
        || (quote == '"' && (literal.contains('$') || literal.contains("#{")))
        || literal.contains("${");
    if interpolates {
        return None;
    }
    Some(unescaped(literal))
}

/// What `printf FORMAT ARGS…` prints: `%s`-like directives filled with the arguments in
/// order, the format used again while arguments remain (as printf does), up to
/// [`MAX_BUILT`] bytes.
fn printed(args: &[String]) -> Option<String> {
    let mut args = args.iter().map(String::as_str).peekable();
    if args.peek() == Some(&"--") {
        args.next();
    }
    let format = args.next()?;
    if format == "-v" {
        return None;
    }
    let rest: Vec<&str> = args.collect();
    let mut out = String::new();
    let mut used = 0;
    loop {
        let mut chars = format.chars().peekable();
        let mut directives = 0;
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            if chars.peek() == Some(&'%') {
                chars.next();
                out.push('%');
                continue;
            }
            // Flags, width, precision, then the conversion.
            while chars
                .peek()
                .is_some_and(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | ' ' | '#' | '.'))
            {
                chars.next();
            }
            chars.next();
            directives += 1;
            if let Some(arg) = rest.get(used) {
                out.push_str(arg);
            }
            used += 1;
        }
        if directives == 0 || used >= rest.len() || out.len() > MAX_BUILT {
            return Some(out);
        }
    }
}

/// `\n` and `\t` as the characters they stand for (echo -e, dash's echo, printf).
fn unescaped(text: &str) -> String {
    text.replace("\\n", "\n").replace("\\t", "\t")
}

// Runners that run the command written after them.

/// How a runner says what it runs: its subcommand (`exec`, `run`, `add`; none for most),
/// its options (those in `valued` take the next word, `valued2` the next two), `operands`
/// words of its own (a profile, a group, a folder), then the command as words, or after a
/// `--` wherever it stands. A command given as one word with a space in it is shell text
/// (`sg wheel 'rm -rf x'`), and so is the value of an option in `text` (`nix-shell --run
/// 'make'`); `joins` says the runner joins its words into one shell line (`pueue add`).
pub(super) struct Runner {
    pub(super) name: &'static str,
    sub: &'static [&'static str],
    valued: &'static [&'static str],
    valued2: &'static [&'static str],
    operands: usize,
    text: &'static [&'static str],
    /// Options after which every word is the command (`nix develop -c make test`).
    rest_after: &'static [&'static str],
    joins: bool,
}

const fn runner(name: &'static str, sub: &'static [&'static str], operands: usize) -> Runner {
    Runner {
        name,
        sub,
        valued: &[],
        valued2: &[],
        operands,
        text: &[],
        rest_after: &[],
        joins: false,
    }
}

const fn valued(r: Runner, valued: &'static [&'static str]) -> Runner {
    Runner { valued, ..r }
}

const fn texts(r: Runner, text: &'static [&'static str]) -> Runner {
    Runner { text, ..r }
}

const fn rest_after(r: Runner, rest_after: &'static [&'static str]) -> Runner {
    Runner { rest_after, ..r }
}

/// Runners by their family name, sorted (checked by a test). Each is `Class::Runs`.
#[rustfmt::skip]
pub(super) const RUNNERS: &[Runner] = &[
    valued(runner("abduco", &[], 1), &["-e"]),
    valued(runner("arch", &[], 0), &["-d", "-e"]),
    runner("asdf", &["exec"], 0),
    valued(runner("aws-vault", &["exec"], 1), &["--duration", "-d", "--region", "--mfa-token", "-t", "--prompt", "--server-type"]),
    texts(runner("beesu", &[], 0), &["-c"]),
    runner("berglas", &["exec"], 0),
    runner("bundle", &["exec"], 0),
    valued(runner("bunx", &[], 0), &["--package", "-p"]),
    Runner { valued2: &["--bind", "--bind-try", "--dev-bind", "--dev-bind-try", "--ro-bind", "--ro-bind-try", "--setenv", "--symlink", "--file", "--bind-data", "--ro-bind-data"], ..valued(runner("bwrap", &[], 0), &["--args", "--cap-add", "--cap-drop", "--chdir", "--chmod", "--dev", "--dir", "--exec-label", "--file-label", "--gid", "--hostname", "--lock-file", "--mqueue", "--perms", "--proc", "--remount-ro", "--seccomp", "--size", "--sync-fd", "--tmpfs", "--uid", "--unsetenv", "--userns", "--userns2", "--pidns", "--info-fd", "--json-status-fd", "--block-fd", "--userns-block-fd", "--add-seccomp-fd", "--argv0"]) },
    texts(runner("capsh", &[], 0), &["-c"]),
    texts(runner("cargo", &["watch"], 0), &["-s", "--shell"]),
    runner("catchsegv", &[], 0),
    valued(runner("chamber", &["exec"], 1), &["--pristine", "-b", "--backend"]),
    valued(runner("conda", &["run"], 0), &["-n", "--name", "-p", "--prefix", "--cwd"]),
    valued(runner("daemonize", &[], 0), &["-a", "-c", "-e", "-E", "-l", "-o", "-p", "-u"]),
    valued(runner("dbus-launch", &[], 0), &["--config-file", "--autolaunch"]),
    runner("direnv", &["exec"], 1),
    valued(runner("distrobox", &["enter"], 1), &["--name", "-n", "--additional-flags", "-a"]),
    valued(runner("dotenv", &[], 0), &["-e", "-v", "-c"]),
    valued(runner("dotenvx", &["run"], 0), &["-f", "--env-file", "-e", "--env", "--convention", "--env-keys-file", "-fk"]),
    valued(runner("dtach", &[], 1), &["-e", "-r"]),
    runner("envchain", &[], 1),
    valued(runner("fakechroot", &[], 0), &["-c", "--config-dir", "-e", "--environment", "-l", "--lib", "-s", "--use-system-libs"]),
    runner("flatpak-spawn", &[], 0),
    valued(runner("gksu", &[], 0), &["-u", "--user", "-m", "--message", "-D", "--description"]),
    valued(runner("gksudo", &[], 0), &["-u", "--user", "-m", "--message", "-D", "--description"]),
    texts(valued(runner("infisical", &["run"], 0), &["--env", "--path", "--projectId", "--token", "--tags", "--domain"]), &["--command"]),
    Runner { text: &["-c"], ..valued(runner("kdesu", &[], 0), &["-u", "-p", "-i", "--attach"]) },
    Runner { text: &["-c"], ..valued(runner("kdesudo", &[], 0), &["-u", "-p", "-i", "-d", "--attach", "--comment"]) },
    // `launchctl submit -l LABEL -- CMD`: a job that runs CMD, and again whenever it exits.
    valued(runner("launchctl", &["submit"], 0), &["-l", "-p", "-o", "-e"]),
    runner("lxqt-sudo", &[], 0),
    runner("lxsudo", &[], 0),
    valued(runner("mise", &["exec", "x"], 0), &["-C", "--cd", "-j", "--jobs"]),
    valued(runner("mpirun", &[], 0), &["-n", "-np", "-c", "-H", "--host", "--hostfile", "--machinefile", "-x", "--map-by", "--bind-to", "-wdir", "--wdir"]),
    valued(runner("niceload", &[], 0), &["-l", "-L", "--load", "-t", "--recheck", "-s", "--suspend", "-H", "--hard", "-M", "--mem", "--noswap", "--io", "--run-io", "--run-load", "--run-mem", "--start-io", "--start-load", "--start-mem"]),
    rest_after(runner("nix", &["develop", "shell"], 0), &["-c", "--command"]),
    texts(runner("nix-shell", &[], 0), &["--run", "--command"]),
    texts(runner("nodemon", &[], 0), &["--exec", "-x"]),
    texts(valued(runner("npm", &["exec", "x"], 0), &["--package", "-p", "-w", "--workspace"]), &["-c", "--call"]),
    texts(valued(runner("npx", &[], 0), &["--package", "-p", "-w", "--workspace", "--cache", "--registry", "--userconfig"]), &["-c", "--call"]),
    runner("nq", &[], 0),
    runner("pdm", &["run"], 0),
    runner("pfexec", &[], 0),
    runner("pipenv", &["run"], 0),
    valued(runner("please", &[], 0), &["-u", "--user", "-g", "--group", "-d", "--dir", "-t", "--target"]),
    valued(runner("pnpm", &["dlx", "exec"], 0), &["--package", "-C", "--dir", "--filter", "-F"]),
    valued(runner("pnpx", &[], 0), &["--package"]),
    runner("poetry", &["run"], 0),
    valued(runner("proot", &[], 0), &["-b", "-m", "--bind", "--mount", "-r", "--rootfs", "-w", "--pwd", "--cwd", "-q", "--qemu", "-k", "--kernel-release"]),
    Runner { joins: true, ..valued(runner("pueue", &["add"], 0), &["-w", "--working-directory", "-d", "--delay", "-g", "--group", "-a", "--after", "-o", "--priority", "-l", "--label"]) },
    runner("pyenv", &["exec"], 0),
    runner("rbenv", &["exec"], 0),
    valued(runner("retry", &[], 0), &["-t", "--tries", "-d", "--delay", "-u", "--until", "-w", "--while", "-m", "--min", "-x", "--max"]),
    valued(runner("rlwrap", &[], 0), &["-a", "-b", "-C", "-D", "-e", "-f", "-g", "-H", "-l", "-M", "-O", "-p", "-P", "-s", "-S", "-w", "-z"]),
    texts(runner("sbatch", &[], 0), &["--wrap"]),
    valued(runner("schroot", &[], 0), &["-c", "--chroot", "-u", "--user", "-d", "--directory", "-o", "--option"]),
    valued(runner("sem", &[], 0), &["-j", "--jobs", "--id", "--semaphoretimeout", "--st"]),
    runner("sg", &[], 1),
    runner("sops", &["exec-env", "exec-file"], 1),
    valued(runner("srun", &[], 0), &["-A", "--account", "-c", "--cpus-per-task", "-J", "--job-name", "-n", "--ntasks", "-N", "--nodes", "-p", "--partition", "-t", "--time", "-w", "--nodelist", "--mem", "--gres", "-G", "--gpus", "-o", "--output", "-e", "--error", "-D", "--chdir"]),
    valued(runner("summon", &[], 0), &["-p", "--provider", "-f", "-D", "--environment", "--yaml"]),
    valued(runner("systemd-inhibit", &[], 0), &["--what", "--who", "--why", "--mode"]),
    runner("teller", &["run"], 0),
    valued(runner("toolbox", &["run"], 0), &["-c", "--container", "-d", "--distro", "-r", "--release"]),
    valued(runner("uv", &["run"], 0), &["--with", "-w", "--python", "-p", "--project", "--directory", "--package", "--from", "--env-file", "--index", "--extra", "--group", "--only-group", "--with-requirements", "--with-editable"]),
    valued(runner("volta", &["run"], 0), &["--node", "--npm", "--pnpm", "--yarn", "--env"]),
    texts(runner("watchman-make", &[], 0), &["-r", "--run"]),
    runner("with-contenv", &[], 0),
    Runner { text: &["-c"], ..valued(runner("xdg-su", &[], 0), &["-u"]) },
    valued(runner("xvfb-run", &[], 0), &["-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file", "-p", "--xauth-protocol", "-w", "--wait"]),
    valued(runner("yarn", &["dlx", "exec"], 0), &["--package", "-p"]),
    texts(runner("youtube-dl", &[], 0), &["--exec"]),
    texts(runner("yt-dlp", &[], 0), &["--exec", "--exec-before-download"]),
    valued(runner("zellij", &["run"], 0), &["--cwd", "-d", "--direction", "-n", "--name", "--width", "--height", "-x", "-y"]),
];

/// What a runner of [`RUNNERS`] runs.
fn runner_reader(words: &[Word], out: &mut Holder) {
    let Some(name) = words.first().map(|w| crate::catalogue::name(&w.text)) else {
        return;
    };
    let Ok(at) = RUNNERS.binary_search_by(|r| r.name.cmp(name.as_str())) else {
        return;
    };
    let Some(spec) = RUNNERS.get(at) else {
        return;
    };
    // Its subcommand first (`sops exec-env`), after any options it takes before it.
    let mut i = 1;
    if !spec.sub.is_empty() {
        while words.get(i).is_some_and(|w| w.text.starts_with('-')) {
            i += 1;
        }
        let is_sub = words
            .get(i)
            .is_some_and(|w| spec.sub.contains(&w.text.as_str()));
        if !is_sub {
            return;
        }
        i += 1;
    }
    // An option whose value is the shell line, wherever it stands (`nix-shell -p hello
    // --run 'make'`).
    if !spec.text.is_empty() {
        for at in i..words.len() {
            let value = long_value(
                words,
                at,
                &spec
                    .text
                    .iter()
                    .filter_map(|t| t.strip_prefix("--"))
                    .collect::<Vec<_>>(),
            )
            .map(|(value, _)| value)
            .or_else(|| {
                let t = words.get(at)?.text.as_str();
                (!t.starts_with("--") && spec.text.contains(&t))
                    .then(|| next_text(words, at))
                    .flatten()
            });
            if let Some(value) = value {
                out.text(value, Via::ShellC);
                return;
            }
        }
    }
    let mut operands = spec.operands;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        if t == "--" {
            i += 1;
            break;
        }
        if spec.rest_after.contains(&t) {
            let rest = words.get(i + 1..).unwrap_or(&[]);
            if !rest.is_empty() {
                out.held.push(Held::Words(rest.to_vec(), Via::Runs));
            }
            return;
        }
        if let Some(long) = t.strip_prefix("--").filter(|_| t.len() > 2) {
            let attached = long.contains('=');
            i += if attached {
                1
            } else if spec.valued2.contains(&t) {
                3
            } else if spec.valued.contains(&t) {
                2
            } else {
                1
            };
            continue;
        }
        if t.len() > 1 && t.starts_with('-') {
            i += if spec.valued.contains(&t) { 2 } else { 1 };
            continue;
        }
        if operands > 0 {
            operands -= 1;
            i += 1;
            continue;
        }
        break;
    }
    let rest = words.get(i..).unwrap_or(&[]);
    match rest {
        [] => {}
        [one] if one.text.contains(' ') => out.text(one.text.clone(), Via::ShellC),
        _ if spec.joins => out.text(joined(rest), Via::ShellC),
        _ => out.held.push(Held::Words(rest.to_vec(), Via::Runs)),
    }
}
