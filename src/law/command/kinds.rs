//! Rules that follow from what the catalogue says a program is, whatever its words: an
//! offensive tool turned on another host (or a program nobody lists told to attack one),
//! another AI agent started from this chat, a
//! database session elsewhere, and a disk written at block level.
//!
//! A script named for an offensive tool the catalogue knows is that tool: `perl nikto.pl`,
//! `python3 sqlmap.py`, `./sqlmap.py` are nikto and sqlmap.

use super::Scan;
use super::net::{is_local, url_host};
use crate::catalogue::{self, Class};
use crate::law::rule::RuleId;
use crate::shell::Command;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    let written = catalogue::program(cmd.program());
    let script = script_run(cmd, written);
    let (cmd, found) = match &script {
        Some(run) => (run, catalogue::program(run.program())),
        None => (cmd, written),
    };
    let program = cmd.program();
    let Some(found) = found else {
        unknown_on_a_disk(cmd, program, scan);
        // A program nobody lists told to attack (`vegeta attack`, `tool bruteforce HOST`):
        // its own word says what it is, aimed where its input or arguments say.
        if says_attack(cmd) {
            attack(cmd, program, false, scan);
        }
        return;
    };
    if found.is(Class::Disk) {
        disk_tool(cmd, program, scan);
    }
    if found.is(Class::Database) {
        remote_database(cmd, program, scan);
    }
    if found.is(Class::Attack) {
        attack(
            cmd,
            program,
            found.is(Class::Secrets) || dumps_credentials(cmd),
            scan,
        );
    }
    if found.is(Class::Flood) {
        flood(cmd, program, scan);
    }
    if found.is(Class::Uploads) && !asks_help(cmd) && !only_manages(cmd) && !fetches(cmd) {
        scan.network = true;
        scan.add(
            Risk::new(
                RuleId::EgressService,
                Harm::Moderate,
                true,
                format!("{program} sends what it is given to its hosted service"),
            )
            .way_out()
            .wish(Wish::new(Act::Send).naming(Name::one(program))),
        );
        // `pastebinit .env`, `ipfs add .env`: a secrets file given to it leaves with it.
        for file in super::positional(cmd.args()) {
            super::net::file_leaves(scan, file, program);
        }
    }
    // Its output is the credential: whoever reads the chat can act as the person. Help or a
    // version asked for anywhere on the line prints none (`oauth2c ISSUER --help`).
    if found.is(Class::Tokens)
        && !cmd.args().iter().any(|arg| {
            matches!(
                arg.as_str(),
                "--help" | "-h" | "--version" | "-V" | "help" | "version"
            )
        })
    {
        scan.add(
            Risk::new(
                RuleId::WordsSecret,
                Harm::Severe,
                false,
                format!("{program} prints a token that acts as you where the chat can read it"),
            )
            .way_out()
            .wish(Wish::new(Act::Secrets).naming(Name::one(program))),
        );
    }
    // A name two programs share (`copilot`: GitHub's agent, and AWS Copilot, whose `app
    // delete` destroys an app): words that destroy are the program's own words, read by the
    // words reader, not a prompt for an agent.
    let destroys = super::positional(cmd.args())
        .iter()
        .take(2)
        .any(|w| super::words::has(super::words::DESTROYS, &w.to_ascii_lowercase()));
    if found.is(Class::Agent) && !asks_help(cmd) && !only_manages(cmd) && !destroys {
        // With its own approvals turned off, whatever it does runs unasked, unseen.
        if let Some(flag) = unsupervised(program, cmd.args()) {
            scan.add(
                Risk::new(
                    RuleId::AgentUnsupervised,
                    Harm::Severe,
                    true,
                    format!("start another AI agent ({program}) with its own approvals turned off ({flag}): whatever it does runs unasked, and warden doesn't see it"),
                )
                .way_out()
                .wish(Wish::new(Act::Run).naming(Name::one(program))),
            );
            return;
        }
        scan.add(
            Risk::new(
                RuleId::AgentRun,
                Harm::Moderate,
                true,
                format!("start another AI agent ({program}), whose own steps warden doesn't see"),
            )
            .way_out()
            .wish(Wish::new(Act::Run).naming(Name::one(program))),
        );
    }
}

/// The options that turn an agent's own approvals off: every tool call it makes runs
/// without asking anyone (`claude --dangerously-skip-permissions`, `--permission-mode
/// bypassPermissions`, `codex --dangerously-bypass-approvals-and-sandbox`, `--yolo`,
/// `gemini -y`, `aider --yes-always`, `cursor-agent --force`, `copilot --allow-all-tools`,
/// `amp --dangerously-allow-all`, `qchat --trust-all-tools`).
fn unsupervised<'a>(program: &str, args: &'a [String]) -> Option<&'a str> {
    args.iter().enumerate().find_map(|(at, arg)| {
        let arg_s = arg.as_str();
        let off = match arg_s {
            "--dangerously-skip-permissions"
            | "--dangerously-bypass-approvals-and-sandbox"
            | "--allow-dangerously-skip-permissions"
            | "--yolo"
            | "--yes-always"
            // GitHub Copilot's CLI, Amp, Amazon Q's chat: every tool allowed or trusted.
            | "--allow-all-tools"
            | "--dangerously-allow-all"
            | "--trust-all-tools"
            | "--approval-mode=yolo"
            | "--permission-mode=bypassPermissions" => true,
            "--permission-mode" | "--approval-mode" => args
                .get(at + 1)
                .is_some_and(|v| matches!(v.as_str(), "bypassPermissions" | "yolo")),
            "-y" => matches!(program, "gemini" | "qwen"),
            "--force" | "-f" => program == "cursor-agent",
            _ => false,
        };
        off.then_some(arg_s)
    })
}

/// An agent's own housekeeping, not a run: help, a list, its status or doctor
/// (`openclaw channels list`, `opencode web -h`): any word the words reader calls a read or
/// help.
fn only_manages(cmd: &Command) -> bool {
    // What the agent keeps, named alone (`opencode models --refresh`, `llm models`,
    // `crush sessions`): a listing, no prompt.
    // Its first word, so an option's value (`claude -p models`) is no such name.
    let listing = cmd.args().first().is_some_and(|first| {
        matches!(
            first.to_ascii_lowercase().as_str(),
            "agents" | "models" | "providers" | "sessions"
        )
    }) && super::positional(cmd.args()).len() == 1;
    // Its own diagnostics, whatever they are asked about (`opencode debug paths`, `opencode
    // debug config`): where it keeps things, what it loaded; no prompt.
    let debugs = cmd.args().first().is_some_and(|first| first == "debug");
    listing
        || debugs
        || cmd.args().iter().any(|arg| {
            let word = arg.to_ascii_lowercase();
            super::words::is_read_word(&word) || super::words::is_help_option(&word)
        })
}

/// A service's copy brought here (`ipfs get CID`, `ipfs cat CID`): its first word a showing
/// verb, which sends nothing of this machine's.
/// A long option that reads says so too (`tarsnap --list-archives`).
fn fetches(cmd: &Command) -> bool {
    let first = super::positional(cmd.args())
        .first()
        .is_some_and(|first| super::words::has(super::words::REVEALS, &first.to_ascii_lowercase()));
    let lists = cmd.args().iter().any(|arg| {
        arg.strip_prefix("--")
            .and_then(|name| name.split(['-', '=']).next())
            .is_some_and(|head| super::words::is_read_word(&head.to_ascii_lowercase()))
    });
    first || lists
}

/// A database client connected to another host (`mysql -h db.example.com`, `psql
/// postgres://u@db.example.com/app`): what it changes there, Undo can't take back.
/// Moderate and lasting: it asks after reading.
fn remote_database(cmd: &Command, program: &str, scan: &mut Scan<'_>) {
    let args = cmd.args();
    let by_option = args.iter().enumerate().find_map(|(at, arg)| {
        let value = match arg.split_once('=') {
            Some(("--host" | "--server" | "host", value)) => value,
            // `-host` as Go's flags write it (`influx -host db.example.com`).
            // `-S` names the server only for SQL Server's clients; PostgreSQL's tools take it
            // for a schema (`reindexdb -S public`), psql for single-line mode.
            _ if matches!(arg.as_str(), "-h" | "--host" | "-host" | "-H" | "--server")
                || (arg == "-S" && matches!(program, "bcp" | "mssql-cli" | "sqlcmd")) =>
            {
                args.get(at + 1).map(String::as_str)?
            }
            _ => return None,
        };
        let host = value.split([':', ',']).next().unwrap_or(value);
        (!host.is_empty()).then(|| host.to_ascii_lowercase())
    });
    let host = by_option.or_else(|| {
        args.iter()
            .filter(|arg| arg.contains("://"))
            .find_map(|arg| url_host(arg))
    });
    let Some(host) = host.filter(|h| !is_local(h) && !h.starts_with('/')) else {
        return;
    };
    scan.network = true;
    scan.add(
        Risk::new(
            RuleId::DbRemote,
            Harm::Moderate,
            true,
            format!("open a {program} session on the database at {host}"),
        )
        .way_out()
        .wish(Wish::new(Act::Run).naming(Name::AnyOf(super::host_names(&host)))),
    );
}

/// The command a script runs as the program it is named for, when the catalogue knows that
/// program: an interpreter's first operand (`perl nikto.pl -h host`, `python3 sqlmap.py -u
/// URL`, `python mssqlclient.py …`) or the script run itself (`./sqlmap.py -u URL`), its
/// name as a line (`nikto.pl`, `secretsdump.py`) or without its extension (`sqlmap.py` →
/// sqlmap). Only the interpreter's first operand, and only before any code given inline
/// (`python -c …` runs no script).
fn script_run(cmd: &Command, found: Option<&'static catalogue::Program>) -> Option<Command> {
    let (script, rest) = match found {
        Some(found) if found.is(Class::Interpreter) => {
            let inline = found.code.map_or(&[][..], |code| code.inline);
            if inline.contains(&"") {
                // awk's first operand is its program.
                return None;
            }
            let args = cmd.args();
            let at = args.iter().position(|a| !a.starts_with('-'))?;
            if args
                .get(..at)?
                .iter()
                .any(|a| inline.contains(&a.as_str()) || a == "-m")
            {
                return None;
            }
            (args.get(at)?, args.get(at + 1..)?)
        }
        Some(_) => return None,
        None => (cmd.words.first()?, cmd.args()),
    };
    let known = script_program(script)?;
    let mut words = vec![known.name.to_string()];
    words.extend(rest.iter().cloned());
    Some(cmd.with_words(words))
}

/// The program a script's name stands for, when it is an offensive tool (they ship as
/// scripts: `nikto.pl`, `sqlmap.py`, impacket's `secretsdump.py`): its own line
/// (`nikto.pl`), or the name without a script's extension (`sqlmap.py` → `sqlmap`). A
/// script named for any other program (`install.sh`, `claude.py`, `mysql.py`) is the
/// project's own.
fn script_program(word: &str) -> Option<&'static catalogue::Program> {
    let name = catalogue::name(word);
    let found = catalogue::program(&name).or_else(|| {
        let (stem, ext) = name.rsplit_once('.')?;
        ["js", "php", "pl", "py", "rb", "sh"]
            .contains(&ext)
            .then(|| catalogue::program(stem))
            .flatten()
    })?;
    found.is(Class::Attack).then_some(found)
}

/// A disk device handed to a program nobody lists (`zerofree /dev/sdb1`, `nwipe /dev/sdb`):
/// it may write the disk under every file system on it, which no Undo brings back. Severe
/// and lasting, so it asks before reading: the disk tools that only report are the
/// catalogue's (`dumpe2fs`, `smartctl`, `blkid`), and what the circuit breaker judges
/// (`mkfs`, `wipefs`) isn't doubled.
fn unknown_on_a_disk(cmd: &Command, program: &str, scan: &mut Scan<'_>) {
    let args = cmd.args();
    if program.is_empty()
        || super::system::disk_reads(program, args)
        || super::system::critical_disk(program, args)
    {
        return;
    }
    let Some(device) = args
        .iter()
        .find(|arg| arg.starts_with("/dev/") && super::paths::is_disk(arg))
    else {
        return;
    };
    scan.add(
        Risk::new(
            RuleId::SystemDisk,
            Harm::Severe,
            true,
            format!("hand the disk {device} to {program}, which may write it at block level"),
        )
        .wish(Wish::new(Act::Update).naming(Name::one(device.trim_start_matches("/dev/")))),
    );
}

/// A disk tool's change (`grub-install`, `pvremove /dev/sdb`, `sgdisk -Z`, `debugfs -w`,
/// `sg_raw /dev/sg0 …`): it writes a disk's partitions, file systems, volumes or boot
/// record, which no Undo brings back. Severe and lasting. An invocation that only reads or
/// lists (`fdisk -l`, `debugfs /dev/sdb1`, `cryptsetup status`) or keeps a snapshot is
/// routine, one that maps (`cryptsetup open`, `mdadm --stop`) is a system change
/// ([`disk_mapping`]), and what the circuit breaker judges isn't doubled.
fn disk_tool(cmd: &Command, program: &str, scan: &mut Scan<'_>) {
    use super::system::DiskUse;
    let args = cmd.args();
    if super::system::defragments_inside(cmd, scan.place) {
        return;
    }
    match super::system::disk_use(program, args) {
        DiskUse::Reads | DiskUse::Keeps => return,
        DiskUse::Maps => {
            disk_mapping(program, scan);
            return;
        }
        DiskUse::Writes if super::system::critical_disk(program, args) => return,
        DiskUse::Writes => {}
    }
    let device = args
        .iter()
        .find(|arg| arg.starts_with("/dev/") && super::paths::is_disk(arg));
    let (what, name) = match device {
        Some(device) => (
            format!("the disk {device}"),
            device.trim_start_matches("/dev/").to_string(),
        ),
        None => ("a disk".to_string(), program.to_string()),
    };
    scan.add(
        Risk::new(
            RuleId::SystemDisk,
            Harm::Severe,
            true,
            format!("{program} writes {what} at block level (its partitions, file systems, volumes or boot record)"),
        )
        .wish(Wish::new(Act::Update).naming(Name::one(&name))),
    );
}

/// A disk tool that changes what the machine maps, not what a disk holds (`cryptsetup close
/// vault`, `zfs set mountpoint=/srv tank/data`, `zpool export tank`, `mdadm --stop /dev/md0`,
/// `btrfs subvolume snapshot / /snap`): nothing is lost, but what every program on the
/// machine sees changes, outside the work folder where Undo can't take it back. Moderate
/// and lasting, as a mount is: it asks after reading.
fn disk_mapping(program: &str, scan: &mut Scan<'_>) {
    scan.add(
        Risk::new(
            RuleId::WordsSystem,
            Harm::Moderate,
            true,
            format!(
                "{program} changes what the machine maps from its disks, which Undo can't take back"
            ),
        )
        .wish(Wish::new(Act::Update).naming(Name::one(program))),
    );
}

/// `--help`, `-h`, `--version` alone: the program says what it is, and does nothing
/// (`nikto -h HOST` names a host).
fn asks_help(cmd: &Command) -> bool {
    matches!(
        cmd.args(),
        [only] if matches!(only.as_str(), "--help" | "-h" | "--version" | "-V" | "-v" | "help")
    )
}

/// Options with which an offensive tool harvests credentials rather than probes
/// (NetExec's and CrackMapExec's `--asreproast`, `--kerberoasting`, `--sam`, `--lsa`,
/// `--ntds`): what it gathers is hashes and secrets, a key read.
const DUMPS: &[&str] = &[
    "--asreproast",
    "--dpapi",
    "--gmsa",
    "--kerberoasting",
    "--laps",
    "--lsa",
    "--ntds",
    "--sam",
];

fn dumps_credentials(cmd: &Command) -> bool {
    cmd.args()
        .iter()
        .any(|a| DUMPS.contains(&a.split('=').next().unwrap_or(a)))
}

/// Words with which a program says it attacks what it is aimed at: its first word.
#[rustfmt::skip]
const ATTACKS: &[&str] = &["attack", "bruteforce", "ddos", "flood", "spray"];

/// Is the command's first word one of [`ATTACKS`] (`vegeta attack -duration=30s`)?
fn says_attack(cmd: &Command) -> bool {
    cmd.args()
        .iter()
        .find(|a| !a.starts_with('-'))
        .is_some_and(|first| ATTACKS.contains(&first.to_ascii_lowercase().as_str()))
}

/// An offensive tool aimed at a host that isn't this machine: severe; a harvest of
/// credentials is a key read, which no words lift.
fn attack(cmd: &Command, program: &str, harvests: bool, scan: &mut Scan<'_>) {
    if asks_help(cmd) {
        return;
    }
    // Another host anywhere among its arguments is the target: a local one may be its proxy
    // (`wfuzz -p 127.0.0.1:8080:HTTP http://example.com/FUZZ`).
    let hosts: Vec<String> = cmd.args().iter().filter_map(|arg| host_of(arg)).collect();
    let Some(host) = hosts.iter().find(|h| !is_local(h)).cloned() else {
        if !hosts.is_empty() {
            // Aimed at this machine only: the person's own lab.
            return;
        }
        if harvests {
            scan.add(harvest(program, "a domain or host it names"));
            return;
        }
        // No host it can read (`evil-winrm -i "$TARGET"`, a name only the network knows):
        // it is aimed somewhere all the same.
        scan.network = true;
        scan.add(attack_risk(
            format!("turn {program}, an offensive tool, on a target the command doesn't name"),
            Name::one(program),
        ));
        return;
    };
    scan.network = true;
    if harvests {
        scan.add(harvest(program, &host));
        return;
    }
    scan.add(attack_risk(
        format!("turn {program}, an offensive tool, on {host}"),
        Name::AnyOf(super::host_names(&host)),
    ));
}

/// A flood of requests (`Class::Flood`) sent to another host's address: as an offensive tool
/// turned on it (`net.attack`), lifted by naming the host. At this machine, or with no
/// address on the line (`siege -f urls.txt`: the person's list), it is their own load test;
/// so is `ab` told no count or time, which sends one request.
fn flood(cmd: &Command, program: &str, scan: &mut Scan<'_>) {
    // ab sends one request unless told how many (`-n`) or for how long (`-t`).
    let one = program == "ab"
        && !cmd
            .args()
            .iter()
            .any(|arg| arg.starts_with("-n") || arg.starts_with("-t"));
    if asks_help(cmd) || one {
        return;
    }
    // Its target is an address (`https://host/`): a word like `bench.lua` is its script.
    let Some(host) = cmd
        .args()
        .iter()
        .filter(|arg| arg.contains("://"))
        .filter_map(|arg| url_host(arg))
        .find(|host| !is_local(host))
    else {
        return;
    };
    scan.network = true;
    scan.add(attack_risk(
        format!("send a flood of requests ({program}) to {host}"),
        Name::AnyOf(super::host_names(&host)),
    ));
}

/// `net.attack`: severe, not lasting, a way out, lifted by running it on what `names`.
fn attack_risk(reason: String, names: Name) -> Risk {
    Risk::new(RuleId::NetAttack, Harm::Severe, false, reason)
        .way_out()
        .wish(Wish::new(Act::Run).naming(names))
}

fn harvest(program: &str, from: &str) -> Risk {
    Risk::new(
        RuleId::SecretsKeyRead,
        Harm::Severe,
        true,
        format!("harvest credentials from {from} with {program}"),
    )
    .never()
    .way_out()
}

/// The host an argument names: a URL's, `user@host`, a domain, an IPv4 address or range
/// (`192.168.0.0/24`), `domain/user:pass@host`.
fn host_of(arg: &str) -> Option<String> {
    if arg.starts_with('-') {
        return None;
    }
    if arg.contains("://") {
        return url_host(arg);
    }
    let after_at = arg.rsplit_once('@').map_or(arg, |(_, host)| host);
    let host = after_at.split(['/', ':']).next().unwrap_or("");
    let is_ip = host.split('.').count() == 4
        && host
            .split('.')
            .all(|n| !n.is_empty() && n.len() <= 3 && n.bytes().all(|b| b.is_ascii_digit()));
    let is_domain = host.contains('.')
        && !host.starts_with('.')
        && !host.ends_with('.')
        && host
            .rsplit('.')
            .next()
            .is_some_and(|tld| tld.len() >= 2 && tld.bytes().all(|b| b.is_ascii_alphabetic()))
        && !looks_like_file(host);
    // `domain/alice@dc01`, `alice@target`: what follows an `@` is a host, named or not.
    let is_named = arg.contains('@')
        && !host.is_empty()
        && host.starts_with(|c: char| c.is_ascii_alphabetic())
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
        && !looks_like_file(host);
    (is_ip || is_domain || is_named).then(|| host.to_ascii_lowercase())
}

/// `passwords.txt`, `users.lst`: a word list, not a host.
fn looks_like_file(word: &str) -> bool {
    let ext = word.rsplit('.').next().unwrap_or("");
    matches!(
        ext,
        "txt"
            | "lst"
            | "list"
            | "csv"
            | "json"
            | "xml"
            | "yaml"
            | "yml"
            | "conf"
            | "log"
            | "py"
            | "sh"
            | "out"
            | "dic"
            | "db"
    )
}

#[cfg(test)]
mod tests {
    use super::host_of;

    #[test]
    fn hosts_are_read_from_what_attack_tools_take() {
        for (arg, host) in [
            ("192.168.178.2", Some("192.168.178.2")),
            ("192.168.178.0/24", Some("192.168.178.0")),
            ("https://example.com/wp", Some("example.com")),
            (
                "domain/alice:secret@dc.corp.example",
                Some("dc.corp.example"),
            ),
            ("domain/alice@target", Some("target")),
            ("alice:secret@dc01", Some("dc01")),
            ("alice@", None),
            ("path/to/passwords.txt", None),
            ("users.lst", None),
            ("-u", None),
            ("alice", None),
        ] {
            assert_eq!(host_of(arg).as_deref(), host, "{arg}");
        }
    }
}
