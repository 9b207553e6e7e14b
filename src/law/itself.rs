//! warden itself. The agent runs as the same user on the same machine, so it could call
//! warden's own answer and preference routes, or run `warden hook` with a prompt it wrote, and
//! so answer its own questions or put words in the person's mouth. Every step that names
//! warden (its program in a command's place, its address on loopback, in any text a step
//! carries) is refused in every mode. Its data folder and token are protected paths
//! (`paths::protected`). What this cannot see (a script written earlier, code that builds the
//! address at run time) is in `docs/threat-model.md`, with how to close it.

use crate::law::rule::RuleId;
use crate::shell::Line;
use crate::step::Context;
use crate::verdict::{Harm, Risk};
use aho_corasick::AhoCorasick;
use std::sync::LazyLock;

/// The program's name.
pub const PROGRAM: &str = "warden";

/// The port `warden serve` listens on unless told otherwise (`127.0.0.1:7411`).
pub const DEFAULT_PORT: u16 = 7411;

/// The rule's id.
pub const RULE: RuleId = RuleId::WardenItself;

/// Programs that stop or signal others by name.
const STOPPERS: &[&str] = &[
    "pkill",
    "killall",
    "kill",
    "systemctl",
    "service",
    "launchctl",
    "pidof",
    "pgrep",
];

/// Flags (and words) after which a number is a port.
const PORT_FLAGS: &[&str] = &[
    "-p",
    "--port",
    "-l",
    "--listen",
    "-L",
    "-P",
    "http.server",
    "SimpleHTTPServer",
    "-S",
];

/// Programs whose bare numbers are ports.
const LISTENERS: &[&str] = &["nc", "ncat", "netcat", "socat", "busybox"];

/// The number a run of digits spells, as a port is read (`07411` is 7411; too long is none).
fn port_of(digits: &str) -> Option<u16> {
    if digits.is_empty() || digits.len() > 10 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| u16::try_from(n).ok())
}

/// Each whole run of digits in `word` that spells `port`, by where it starts and ends.
fn port_runs(word: &str, port: u16) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = word.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() {
            if !bytes[at].is_ascii_digit() {
                at += 1;
                continue;
            }
            let start = at;
            while at < bytes.len() && bytes[at].is_ascii_digit() {
                at += 1;
            }
            if word.get(start..at).and_then(port_of) == Some(port) {
                return Some((start, at));
            }
        }
        None
    })
}

/// Whether `text` may name `port`: false when it doesn't hold the port's digits at all
/// (every run of digits that spells it ends with them, `07411` too). A short text is read
/// whole by the callers at once, so it is not searched first.
fn may_spell(text: &str, port: u16) -> bool {
    if text.len() < 64 {
        return true;
    }
    let mut digits = [0u8; 5];
    let mut at = digits.len();
    let mut rest = port;
    loop {
        at -= 1;
        // INVARIANT: a u16 has at most five digits, and `rest % 10` is one.
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 || at == 0 {
            break;
        }
    }
    let needle = digits.get(at..).unwrap_or(&[]);
    std::str::from_utf8(needle).is_ok_and(|needle| text.contains(needle))
}

/// Whether a word takes warden's port: `--port=7411`, `:7411`, `7411:80`,
/// `TCP-LISTEN:7411,fork`, or a bare `7411` after a port flag or given to a listener; the
/// port with leading zeros (`:07411`) is the port.
fn names_port(word: &str, previous: &str, program: &str, port: u16) -> bool {
    if !may_spell(word, port) {
        return false;
    }
    if port_of(word) == Some(port) {
        return PORT_FLAGS.contains(&previous) || LISTENERS.contains(&program);
    }
    port_runs(word, port).any(|(at, end)| {
        let before = word[..at].chars().next_back();
        let after = word[end..].chars().next();
        match before {
            // `--port=7411`; `:7411` or `TCP-LISTEN:7411`, not `example.com:7411` (another
            // host's port: loopback hosts are `in_text`'s).
            Some('=') => true,
            Some(':') => {
                let head = &word[..at - 1];
                let host = head.rsplit(['/', ',', '=', '@']).next().unwrap_or(head);
                !host.contains('.')
            }
            // `7411:80`: a host port bound to a container's.
            None => after == Some(':'),
            _ => false,
        }
    })
}

/// A line that kills a process it found by warden's name: `kill $(ps aux | grep '[w]arden' |
/// awk '{print $2}')`, `for p in /proc/[0-9]*; do grep -q warden $p/cmdline && kill …; done`.
/// The search reads the process list (`ps`, `/proc`) with warden's name in it, written
/// plainly or as a pattern (`[w]arden`, `ward\en`).
fn kills_found_warden(text: &str, line: &Line) -> bool {
    let kills = line.commands.iter().any(|c| {
        matches!(
            c.words.first().map(|w| w.rsplit('/').next().unwrap_or(w)),
            Some("kill" | "pkill" | "killall" | "skill")
        )
    });
    if !kills {
        return false;
    }
    let lists_processes = text.contains("/proc/")
        || line.commands.iter().any(|c| {
            c.words
                .first()
                .is_some_and(|w| w.rsplit('/').next() == Some("ps"))
        });
    lists_processes
        && line.commands.iter().any(|c| {
            c.words.iter().skip(1).any(|w| {
                let plain: String = w
                    .chars()
                    .filter(|ch| !matches!(ch, '[' | ']' | '\\' | '^' | '$' | '(' | ')' | '?'))
                    .flat_map(char::to_lowercase)
                    .collect();
                plain
                    .split(|ch: char| !ch.is_ascii_alphanumeric() && ch != '_' && ch != '-')
                    .any(|part| part == PROGRAM)
            })
        })
}

/// `fuser -k 7411/tcp`, `fuser -k -n tcp 7411`: whatever holds warden's port, killed.
fn kills_by_port(program: &str, words: &[String], port: u16) -> bool {
    program == "fuser"
        && words
            .iter()
            .skip(1)
            .any(|w| w.starts_with('-') && !w.starts_with("--") && w.contains('k') || w == "--kill")
        && words.iter().skip(1).any(|w| {
            let number = w.split('/').next().unwrap_or(w);
            port_of(number) == Some(port)
        })
}

/// Programs whose arguments are plain numbers, not ports.
const NUMBERS: &[&str] = &[
    "seq", "echo", "printf", "expr", "bc", "head", "tail", "sleep", "test", "[", "numfmt", "factor",
];

/// How far back from a `:port` a host name is read (a longer one is no loopback name).
const HOST_REACH: usize = 64;

/// The ports warden may be on: the default, and the one the host says it listens on.
/// Asked for every word of every command: made without a copy.
fn ports(ctx: &Context) -> impl Iterator<Item = u16> + Clone {
    std::iter::once(DEFAULT_PORT).chain(ctx.listen_port.filter(|port| *port != DEFAULT_PORT))
}

/// Whether `word` is `port` written plainly, as `port.to_string()` writes it.
fn is_written(word: &str, port: u16) -> bool {
    port_of(word) == Some(port) && (word.len() == 1 || !word.starts_with('0'))
}

fn risk(what: &str) -> Risk {
    Risk::new(
        RULE,
        Harm::Severe,
        true,
        format!(
            "{what}, and an agent never talks to warden itself: it could answer its own questions or speak in the person's name; the person answers in their own window"
        ),
    )
    .refused()
}

/// Risks for a shell line: warden's program in a command's place, or its address anywhere in
/// the line's text (inside quoted code too).
pub fn in_line(text: &str, ctx: &Context) -> Vec<Risk> {
    in_read_line(text, &Line::parse(text), ctx)
}

/// [`in_line`] for a line already read (`line` is `Line::parse(text)`).
pub fn in_read_line(text: &str, line: &Line, ctx: &Context) -> Vec<Risk> {
    if kills_found_warden(text, line) {
        return vec![risk("this stops warden, found among the processes")];
    }
    for command in &line.commands {
        let program = command
            .words
            .first()
            .map_or("", |word| word.rsplit('/').next().unwrap_or(word.as_str()));
        if program == PROGRAM {
            return vec![risk("this runs warden's own program")];
        }
        let args = || command.words.iter().skip(1);
        // Stopping warden, so that something else may answer on its address.
        if STOPPERS.contains(&program)
            && args().any(|w| {
                w.split_whitespace().any(|part| {
                    part.rsplit('/').next() == Some(PROGRAM) || part == "warden.service"
                })
            })
        {
            return vec![risk("this stops warden")];
        }
        if ports(ctx).any(|port| kills_by_port(program, &command.words, port)) {
            return vec![risk("this stops warden by its port")];
        }
        if changes_program(program, command) {
            return vec![risk(
                "this changes warden's own program, which the hook runs",
            )];
        }
        // warden's address in a word as the shell makes it (`74''11`, `'http://127.0.0.1:'7411`,
        // `74\11`): quotes and backslashes are gone from the words read.
        let texts = command
            .words
            .iter()
            .chain(command.redirects.iter().map(|r| &r.target))
            .chain(command.assignments.iter().map(|(_, v)| v));
        for word in texts {
            if let Some(found) = address_in(word, ctx) {
                return vec![found];
            }
        }
        // Taking warden's port: a server there could answer the hook in warden's place.
        let words = &command.words;
        if !NUMBERS.contains(&program)
            && (1..words.len()).any(|i| {
                ports(ctx).any(|port| {
                    names_port(
                        &words[i],
                        words.get(i - 1).map_or("", String::as_str),
                        program,
                        port,
                    )
                })
            })
        {
            return vec![risk("this uses warden's port")];
        }
        // `nc localhost 7411`: a loopback host and warden's port as two words.
        let loopback = command.words.iter().skip(1).any(|w| {
            (w.contains('.') || w.contains(':') || w.contains("localhost")) && is_loopback(w)
        });
        let port = command
            .words
            .iter()
            .skip(1)
            .any(|w| ports(ctx).any(|p| is_written(w, p)));
        if loopback && port {
            return vec![risk("this connects to warden's address")];
        }
    }
    in_text(text, ctx).into_iter().collect()
}

/// The forms that find warden's own program on the search path.
const FOUND_PROGRAM: &[&str] = &[
    "$(which warden)",
    "$(command -v warden)",
    "$(type -p warden)",
    "`which warden`",
    "`command -v warden`",
];

/// Does the command change, move or remove warden's installed program (`chmod -x $(which
/// warden)`, `rm ~/.cargo/bin/warden`, `cp /bin/true /usr/local/bin/warden`, `> …/bin/warden`)?
/// A hook that fails or answers otherwise lets every step through. The program is the one
/// in a `bin` folder or the one the search path finds; a build's copy elsewhere is not.
fn changes_program(program: &str, command: &crate::shell::Command) -> bool {
    let names_program = |word: &str| {
        let word = word.trim_end_matches('/');
        FOUND_PROGRAM.iter().any(|found| word.contains(found))
            || (word.rsplit('/').next() == Some(PROGRAM)
                && word
                    .rsplit('/')
                    .nth(1)
                    .is_some_and(|folder| folder == "bin" || folder == "sbin"))
    };
    let writes = command.redirects.iter().any(|r| {
        matches!(
            r.op,
            crate::shell::RedirectOp::Write | crate::shell::RedirectOp::Append
        ) && names_program(&r.target)
    });
    let changer = crate::catalogue::is(program, crate::catalogue::Class::Files)
        || crate::catalogue::is(program, crate::catalogue::Class::Remover)
        || matches!(
            program,
            "tee" | "dd" | "sed" | "perl" | "patchelf" | "strip"
        );
    // A copy's source is only read (`cp ~/.cargo/bin/warden /tmp/w`): its destination is
    // what changes. Its words are only searched for a program that changes files (most
    // commands are none).
    let changed = || {
        if matches!(program, "cp" | "install" | "rsync" | "ln" | "scp") {
            command
                .words
                .iter()
                .skip(1)
                .last()
                .is_some_and(|w| names_program(w))
        } else {
            command.words.iter().skip(1).any(|w| names_program(w))
        }
    };
    writes || (changer && changed())
}

/// The prefix of warden's own environment variables: `WARDEN_URL` (its address),
/// `WARDEN_DATA` (its data folder, the token's), `WARDEN_CONFIG` (its settings), and every
/// other `WARDEN_*` the hook or the daemon reads (`WARDEN_NO_AUTOSTART`, `WARDEN_HOOK_SERVE`…).
pub const VARIABLES: &str = "warden_";

/// The longest variable name read (a longer run of letters is no name of warden's).
const NAME_REACH: usize = 64;

/// warden's own environment variable that `text` refers to, if any (lower case): `$WARDEN_DATA`,
/// `${WARDEN_URL}`, `${WARDEN_DATA:-…}`, `%WARDEN_DATA%`, `$env:WARDEN_DATA`,
/// `process.env.WARDEN_URL`, `os.environ["WARDEN_DATA"]`, `getenv('WARDEN_DATA')`,
/// `ENV['WARDEN_DATA']`, `$ENV{WARDEN_DATA}`, `printenv WARDEN_DATA`. A name only mentioned
/// (`grep -rn WARDEN_DATA src/`, `"WARDEN_DATA"` as a value) or set (`WARDEN_DATA=/tmp/x`) is
/// not a reference.
pub fn variable_in(text: &str) -> Option<String> {
    // Most texts hold no `warden_` at all: found without a copy of the text first.
    static NAMED: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build([VARIABLES])
            .ok()
    });
    if NAMED.as_ref().is_some_and(|named| !named.is_match(text)) {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let name_char = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    for (at, _) in lower.match_indices(VARIABLES) {
        if at > 0 && name_char(bytes[at - 1]) {
            continue;
        }
        let end = bytes[at..]
            .iter()
            .take(NAME_REACH)
            .position(|b| !name_char(*b))
            .map_or((at + NAME_REACH).min(bytes.len()), |n| at + n);
        if end == at + VARIABLES.len() {
            continue;
        }
        let head = &lower[..at];
        // A quoted name handed to a lookup: `getenv("…")`, `environ['…']`, `ENV{'…'}`.
        let unquoted = head
            .strip_suffix(['"', '\'', '`'])
            .filter(|h| h.ends_with(['(', '[', '{']));
        let referred = head.ends_with(['$', '{', '%'])
            || head.ends_with("{!")
            || head.ends_with("{#")
            || head.ends_with("env:")
            || head.ends_with("env.")
            || unquoted.is_some()
            || head.trim_end().ends_with("printenv") && head.ends_with(char::is_whitespace);
        if referred {
            return Some(lower[at..end].to_string());
        }
    }
    None
}

/// A risk when `text` names warden's address (a loopback host with warden's port) or refers
/// to one of warden's own environment variables.
pub fn in_text(text: &str, ctx: &Context) -> Option<Risk> {
    if let Some(name) = variable_in(text) {
        return Some(risk(&format!(
            "this reads warden's own setting ${}",
            name.to_ascii_uppercase()
        )));
    }
    address_in(text, ctx)
}

/// A risk when `text` names warden's address: a loopback host, then `:` and warden's port
/// (leading zeros or not).
///
/// One pass over the text's colons, nothing copied: a port's digits are the same in any case,
/// and only the host before one of warden's ports is lowered to be read.
fn address_in(text: &str, ctx: &Context) -> Option<Risk> {
    // Most words hold no colon; a long text without one of the ports' digits holds no port.
    if !text.contains(':') || !ports(ctx).any(|port| may_spell(text, port)) {
        return None;
    }
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(found) = text.get(from..).and_then(|rest| rest.find(':')) {
        let colon = from + found;
        let start = colon + 1;
        let digits = bytes.get(start..).map_or(0, |rest| {
            rest.iter().take_while(|b| b.is_ascii_digit()).count()
        });
        from = start + digits;
        let names_port = text
            .get(start..from)
            .and_then(port_of)
            .is_some_and(|port| ports(ctx).any(|p| p == port));
        if names_port && is_loopback(&host_before(text, colon).to_ascii_lowercase()) {
            return Some(risk("this names warden's own address"));
        }
    }
    None
}

/// The host written just before a `:port` at byte `at`: `[::1]`, `127.0.0.1`, `localhost`.
fn host_before(text: &str, at: usize) -> &str {
    let head = &text[..at];
    if head.ends_with(']') {
        if let Some(open) = head.rfind('[')
            && head.len() - open <= HOST_REACH
        {
            return &head[open..];
        }
        return "";
    }
    let start = head
        .char_indices()
        .rev()
        .take(HOST_REACH)
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')))
        .map_or_else(
            || head.len().saturating_sub(HOST_REACH.min(head.len())),
            |(i, c)| i + c.len_utf8(),
        );
    &head[start..]
}

/// Whether a host names this machine: `localhost` (and names under it), `127.x.x.x` written
/// any way the resolver takes it, `0.0.0.0`, `::1`, `::`, a v4-mapped loopback, or nothing.
fn is_loopback(host: &str) -> bool {
    let host = host.trim_end_matches('.');
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if bare.is_empty() {
        return false;
    }
    if bare == "localhost" || bare.ends_with(".localhost") {
        return true;
    }
    if matches!(bare, "::1" | "::" | "0:0:0:0:0:0:0:1" | "0.0.0.0" | "0") {
        return true;
    }
    if let Some(v4) = bare.strip_prefix("::ffff:") {
        return is_loopback(v4);
    }
    // 127.0.0.1, 127.1, 0x7f.1, 0177.0.0.1, 2130706433: the first byte is 127.
    first_byte(bare) == Some(127)
}

/// The first byte of an IPv4 address as `inet_aton` reads it (one to four parts, each
/// decimal, octal with a leading 0, or hex with 0x).
fn first_byte(host: &str) -> Option<u64> {
    let parts: Vec<&str> = host.split('.').collect();
    if parts.is_empty() || parts.len() > 4 {
        return None;
    }
    let number = |part: &str| -> Option<u64> {
        if let Some(hex) = part.strip_prefix("0x") {
            u64::from_str_radix(hex, 16).ok()
        } else if part.len() > 1 && part.starts_with('0') {
            u64::from_str_radix(&part[1..], 8).ok()
        } else {
            part.parse().ok()
        }
    };
    let values: Vec<u64> = parts.iter().map(|p| number(p)).collect::<Option<_>>()?;
    let first = *values.first()?;
    match values.len() {
        // One number is the whole address.
        1 => Some(first >> 24),
        _ => Some(first),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warden_s_own_variables_are_read_every_way() {
        for (text, name) in [
            ("cat $WARDEN_DATA/token", "warden_data"),
            ("cat \"${WARDEN_DATA}/token\"", "warden_data"),
            ("curl \"$WARDEN_URL/v1/preferences\"", "warden_url"),
            (
                "cat ${WARDEN_CONFIG:-~/.config/warden/config.toml}",
                "warden_config",
            ),
            ("echo ${!WARDEN_DATA}", "warden_data"),
            ("type %WARDEN_DATA%\\token", "warden_data"),
            ("Get-Content $env:WARDEN_DATA/token", "warden_data"),
            ("Get-Content ${env:warden_data}/token", "warden_data"),
            ("node -e 'fetch(process.env.WARDEN_URL)'", "warden_url"),
            (
                "python3 -c 'import os; print(os.environ[\"WARDEN_DATA\"])'",
                "warden_data",
            ),
            (
                "python3 -c \"import os; os.getenv('WARDEN_DATA')\"",
                "warden_data",
            ),
            ("ruby -e 'puts ENV[\"WARDEN_DATA\"]'", "warden_data"),
            ("perl -e 'print $ENV{WARDEN_DATA}'", "warden_data"),
            ("printenv WARDEN_URL", "warden_url"),
            ("cd \"$WARDEN_DATA\" && cat token", "warden_data"),
            ("echo $WARDEN_NO_AUTOSTART", "warden_no_autostart"),
        ] {
            assert_eq!(variable_in(text).as_deref(), Some(name), "{text}");
        }
        for text in [
            "grep -rn WARDEN_DATA src/",
            "WARDEN_BLESS=1 cargo test",
            "echo $MY_WARDEN_DATA",
            "echo $WARDEN_",
            "{\"name\": \"WARDEN_DATA\"}",
            "cat ~/.config/warden.toml",
            "printenv HOME",
        ] {
            assert_eq!(variable_in(text), None, "{text}");
        }
    }

    #[test]
    fn a_port_s_digits_are_found_as_written() {
        let long = |text: &str| format!("{}{text}", "x".repeat(64));
        for (text, port, found) in [
            ("curl localhost:7411/v1", 7411, true),
            ("curl localhost:07411/v1", 7411, true),
            ("listen on 65535", 65535, true),
            ("port 0", 0, true),
            ("port 8080", 80, true),
            ("port 741", 7411, false),
            ("7 4 1 1", 7411, false),
            ("", 7411, false),
        ] {
            assert_eq!(may_spell(&long(text), port), found, "{text} {port}");
            // A short text is read whole by its callers: never left out here.
            assert!(may_spell(text, port), "{text} {port}");
        }
    }

    #[test]
    fn a_port_written_plainly_is_its_decimal() {
        for port in [0u16, 7, 80, 7411, 65535] {
            assert!(is_written(&port.to_string(), port), "{port}");
            for other in [format!("0{port}"), format!("+{port}"), format!("{port} ")] {
                assert!(!is_written(&other, port), "{other}");
            }
        }
        assert!(!is_written("7412", 7411));
    }

    #[test]
    fn a_port_is_read_by_its_value() {
        for (word, previous, program) in [
            ("--port=07411", "", "python3"),
            ("TCP-LISTEN:007411,fork", "", "socat"),
            ("07411:80", "", "docker"),
            ("07411", "-p", "ssh"),
            ("7411", "", "nc"),
        ] {
            assert!(names_port(word, previous, program, 7411), "{word}");
        }
        for (word, previous, program) in [
            ("--port=17411", "", "python3"),
            ("--port=74110", "", "python3"),
            ("example.com:07411", "", "curl"),
            ("07411", "", "cat"),
            ("99999999999999997411", "-p", "ssh"),
        ] {
            assert!(!names_port(word, previous, program, 7411), "{word}");
        }
    }

    #[test]
    fn loopback_hosts_are_read_every_way() {
        for host in [
            "localhost",
            "api.localhost",
            "127.0.0.1",
            "127.1",
            "0x7f.1",
            "0177.0.0.1",
            "2130706433",
            "[::1]",
            "::1",
            "0.0.0.0",
            "[::ffff:127.0.0.1]",
        ] {
            assert!(is_loopback(host), "{host}");
        }
        for host in [
            "",
            "example.com",
            "10.0.0.1",
            "128.0.0.1",
            "localhost.example.com",
        ] {
            assert!(!is_loopback(host), "{host}");
        }
    }
}
