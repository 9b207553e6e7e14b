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
    // Every fork bomb defines a function: no `()` then `{` (blanks aside), no bomb. One pass
    // over the bytes, before anything is copied.
    if !defines_function(text) {
        return;
    }
    let text = unquoted(text);
    let bytes = text.as_bytes();
    let skip_blanks = |mut at: usize| {
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        at
    };
    let is_name = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b':' | b'.');
    for (open, _) in text.match_indices('(') {
        let close = skip_blanks(open + 1);
        let brace = skip_blanks(close + 1);
        if bytes.get(close) != Some(&b')') || bytes.get(brace) != Some(&b'{') {
            continue;
        }
        // The name just before `(` (blanks between them allowed), read back to the first
        // character no name holds: a line break or `;` before it is no part of it.
        let mut end = open;
        while end > 0 && bytes[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        let mut start = end;
        while start > 0 && is_name(bytes[start - 1]) {
            start -= 1;
        }
        let name = text.get(start..end).unwrap_or("");
        if name.is_empty() {
            continue;
        }
        let body: String = text
            .get(brace + 1..)
            .unwrap_or("")
            .split('}')
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
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
}

/// Does the text hold `(`, `)` and `{` in that order with only blanks between them? Found
/// from each `{` (a search for one byte, the rarest of the three in code), the blanks back
/// to a `)` and on back to a `(`.
fn defines_function(text: &str) -> bool {
    let bytes = text.as_bytes();
    let before_blanks = |mut at: usize| {
        while at > 0 && bytes.get(at - 1).is_some_and(u8::is_ascii_whitespace) {
            at -= 1;
        }
        at.checked_sub(1)
    };
    text.match_indices('{').any(|(brace, _)| {
        before_blanks(brace).is_some_and(|close| {
            bytes.get(close) == Some(&b')')
                && before_blanks(close).is_some_and(|open| bytes.get(open) == Some(&b'('))
        })
    })
}

/// `date -s`/`--set` or an operand of digits (`MMDDhhmm[[CC]YY][.ss]`); `hostname` given a
/// name, `-F`/`--file` or `-b`/`--boot`. `date +%F`, `date -d x`, `hostname -f` only show.
pub(super) fn sets_what_it_shows(program: &str, args: &[String]) -> bool {
    let operands = positional(args);
    match program {
        // BSD's `-j` only converts what it is given.
        "date" if args.iter().any(|a| a == "-j") => false,
        "date" => {
            // The value of `-d`, `-f` or `-r` is a date or a file to show, not one to set
            // (`date -d 20131220 +%j`).
            let shown: Vec<&str> = args
                .windows(2)
                .filter(|pair| {
                    matches!(
                        pair[0].as_str(),
                        "-d" | "--date" | "-f" | "--file" | "-r" | "--reference"
                    )
                })
                .map(|pair| pair[1].as_str())
                .collect();
            // `-s` alone: `-Is`, `-Iseconds` ask for a format.
            args.iter()
                .any(|a| a == "-s" || a == "--set" || a.starts_with("--set="))
                || operands.iter().filter(|w| !shown.contains(w)).any(|w| {
                    let digits = w.split('.').next().unwrap_or(w);
                    digits.len() >= 8 && digits.bytes().all(|b| b.is_ascii_digit())
                })
        }
        "hostname" => {
            !operands.is_empty()
                || args.iter().any(|a| {
                    matches!(a.as_str(), "-F" | "-b" | "--file" | "--boot")
                        || a.starts_with("--file=")
                })
        }
        _ => false,
    }
}

/// The line with single-quoted text taken out (a string that mentions a fork bomb is not one).
fn unquoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut single = false;
    let mut double = false;
    let mut escaped = false;
    for c in text.chars() {
        if single {
            single = c != '\'';
            continue;
        }
        if escaped {
            escaped = false;
            out.push(c);
            continue;
        }
        match c {
            '\\' => escaped = true,
            // Inside double quotes an apostrophe is a letter (`"don't"`), and the text stays:
            // `bash -c ":(){ :|:& };:"` runs it.
            '\'' if !double => single = true,
            '"' => double = !double,
            c => out.push(c),
        }
    }
    out
}

/// Do a command's words (the program's, and the subcommands and options before a statement)
/// say it runs SQL: `sql` among their parts (`doctrine:query:sql`, `dbal:run-sql`,
/// `sql:query`), or a database's noun with a query's verb (`wp db query`)? A program whose
/// own class is a database client is read by its own rule.
fn runs_sql(cmd: &Command) -> bool {
    if crate::catalogue::is(cmd.program(), crate::catalogue::Class::Database) {
        return false;
    }
    let parts = cmd
        .words
        .iter()
        .filter(|w| !w.contains(' '))
        .flat_map(|w| w.split([':', '-', '_', '/', '.']));
    let is = |part: &str, names: &[&str]| names.iter().any(|n| part.eq_ignore_ascii_case(n));
    let (mut sql, mut noun, mut verb) = (false, false, false);
    for part in parts {
        sql |= is(part, &["sql", "sqlq", "dql"]);
        noun |= is(part, &["db", "database", "dbal"]);
        verb |= is(part, &["query", "execute", "exec"]);
    }
    sql || (noun && verb)
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

/// `who` runs this SQL (an app's database tool): when it drops or empties what a database
/// holds, the risk the shell's database clients get for it (`psql -c 'DROP TABLE users'`).
pub(crate) fn sql_wipe(sql: &str, who: &str) -> Option<Risk> {
    destroys_data(sql).then(|| db(&format!("{who} drops or empties data"), ""))
}

fn delete_without_where(words: &[&str]) -> bool {
    words
        .windows(2)
        .enumerate()
        .any(|(i, pair)| pair == ["DELETE", "FROM"] && !words.iter().skip(i).any(|w| *w == "WHERE"))
}

/// Services that keep the machine's defences: a firewall, mandatory access control, audit.
#[rustfmt::skip]
const DEFENCES: &[&str] = &[
    "apparmor", "auditd", "fail2ban", "firewalld", "iptables", "ip6tables", "netfilter-persistent",
    "nftables", "selinux", "ufw",
];

/// The machine's defences turned off whole (`ufw disable`, `iptables -F`, `setenforce 0`,
/// `systemctl stop firewalld`): what they kept out comes in. A rule opened or changed
/// (`ufw allow 5432`, `iptables -A …`) is the system's own change, judged elsewhere.
fn defences_off(program: &str, args: &[String]) -> Option<String> {
    let words = positional(args);
    let has = |word: &str| args.iter().any(|a| a == word);
    let off = match program {
        "ufw" => matches!(words.first(), Some(&("disable" | "reset"))),
        // A flush with no chain named empties every chain; `-F INPUT` only one.
        "iptables" | "ip6tables" => (has("-F") || has("--flush")) && words.is_empty(),
        "nft" => words.starts_with(&["flush", "ruleset"]),
        "setenforce" => matches!(words.first(), Some(&("0" | "permissive" | "Permissive"))),
        // Its help changes nothing.
        "aa-teardown" => !args.iter().any(|a| matches!(a.as_str(), "-h" | "--help")),
        "auditctl" => args.windows(2).any(|w| w[0] == "-e" && w[1] == "0"),
        "systemctl" | "service" => {
            let stops = words
                .iter()
                .any(|w| matches!(*w, "stop" | "disable" | "mask" | "kill"));
            stops
                && words.iter().any(|w| {
                    let unit = w.strip_suffix(".service").unwrap_or(w);
                    DEFENCES.contains(&unit)
                })
        }
        _ => false,
    };
    off.then(|| format!("{program} {}", args.join(" ")).trim().to_string())
}

pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    let program = cmd.program();
    let args = cmd.args();
    let place = scan.place;
    if let Some(what) = defences_off(program, args) {
        scan.add(
            Risk::new(
                RuleId::SystemDefences,
                Harm::Severe,
                true,
                format!("turn off the machine's defences ({what}): what they kept out comes in"),
            )
            .wish(
                Wish::new(Act::Safety).naming(Name::AnyOf(
                    ["firewall", "selinux", "apparmor", "audit", program]
                        .iter()
                        .map(|name| (*name).to_string())
                        .collect(),
                )),
            ),
        );
    }
    match program {
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
        // `chattr -R +i ~`: nothing under it may be changed (or deleted) any more.
        "chmod" | "chown" | "chgrp" | "chattr" => {
            // chattr only when it adds or sets attributes (`-i` takes one off again).
            let recursive = has_flag(args, Some('R'), &["recursive"])
                && (program != "chattr" || args.iter().any(|a| a.starts_with(['+', '='])));
            let words = positional(args);
            let targets: Vec<&str> = if program == "chattr" {
                words
                    .into_iter()
                    .filter(|w| !w.starts_with(['+', '=']))
                    .collect()
            } else {
                words.into_iter().skip(1).collect()
            };
            for target in targets {
                if let Some(abs) = place.resolve(target.strip_suffix("/*").unwrap_or(target))
                    && recursive
                    && (place::is_root_like(&abs) || place.is_home(&abs))
                {
                    scan.add(Risk::new(RuleId::CriticalPermsRoot, Harm::Severe, true, format!("{program} -R on {abs} changes who owns or may touch every file under it")).critical());
                    return;
                }
            }
            if program != "chattr"
                && let Some(owner) = given_owner(program, args)
            {
                scan.add(
                    Risk::new(
                        RuleId::FilesOwner,
                        Harm::Moderate,
                        true,
                        format!("{program} gives files to {owner}: Undo brings back what they hold, not who owns them"),
                    )
                    .wish(Wish::new(Act::Update).naming(Name::one(owner))),
                );
            }
        }
        // A display tool's form that sets what it shows: `date -s '…'`, `date 010100002020`,
        // `hostname box2`, `hostname -F /etc/hostname`.
        "date" | "hostname" if sets_what_it_shows(program, args) => {
            let what = if program == "date" {
                "the machine's clock"
            } else {
                "the machine's name"
            };
            scan.add(
                Risk::new(
                    RuleId::WordsSystem,
                    Harm::Moderate,
                    true,
                    format!("{program} sets {what}, which Undo can't take back"),
                )
                .wish(Wish::new(Act::Update).naming(Name::one(program))),
            );
        }
        // A declarative system's configuration made the running one (`nixos-rebuild switch`,
        // `home-manager switch`, `darwin-rebuild switch`, `nh os switch .`), or its old
        // generations deleted (`nix-collect-garbage -d`, `nh clean all`).
        _ if generations(program, args).is_some() => {
            scan.add(generations_risk(program, args));
        }
        // `fuser -k`: every process using the file, the folder or the port is killed.
        "fuser" if has_flag(args, Some('k'), &["kill"]) => {
            scan.add(
                Risk::new(
                    RuleId::WordsSystem,
                    Harm::Moderate,
                    true,
                    format!("{program} -k kills every process using what it names"),
                )
                .wish(Wish::new(Act::Restart).naming(Name::one(program))),
            );
        }
        "shutdown" | "reboot" | "halt" | "poweroff" => {
            let (lasting, how) = forced_power(program, args);
            scan.add(
                Risk::new(
                    RuleId::SystemPower,
                    Harm::Severe,
                    lasting,
                    format!("{program} the machine{how}"),
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
                let (lasting, how) = forced_power(program, args);
                scan.add(
                    Risk::new(
                        RuleId::SystemPower,
                        Harm::Severe,
                        lasting,
                        format!("stop or restart the machine{how}"),
                    )
                    .wish(Wish::new(Act::Restart)),
                );
            }
            Some("enable" | "link" | "mask" | "reenable") => scan.add(schedule(
                "make a service start by itself (systemctl enable)",
            )),
            // A preset enables or disables units as the system's presets say.
            Some("preset" | "preset-all") => scan.add(schedule(
                "set which services start by themselves, as the system's presets say (systemctl preset)",
            )),
            // Into another kernel, or down to a mode where the services stop: the machine
            // as it ran is gone, as a reboot's.
            Some(sub @ ("emergency" | "exit" | "kexec" | "rescue" | "switch-root")) => {
                scan.add(
                    Risk::new(
                        RuleId::SystemPower,
                        Harm::Severe,
                        false,
                        format!("stop the machine's services or restart it (systemctl {sub})"),
                    )
                    .wish(Wish::new(Act::Restart)),
                );
            }
            Some(sub) if systemctl_changes(sub, &positional(args)) => scan.add(
                Risk::new(
                    RuleId::WordsSystem,
                    Harm::Moderate,
                    true,
                    format!("systemctl {sub} changes a setting of the machine itself, which Undo can't take back"),
                )
                .wish(Wish::new(Act::Update).naming(Name::one("systemctl"))),
            ),
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
        // `at -l` lists the jobs and `at -c 12` prints one: neither schedules anything.
        "at" | "batch" if !has_flag(args, Some('l'), &[]) && !has_flag(args, Some('c'), &[]) => {
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
        // Compose's standalone programs (`docker-compose down -v`, `podman-compose down -v`)
        // are `docker compose`.
        "docker-compose" | "podman-compose" => {
            let mut composed = vec!["compose".to_string()];
            composed.extend(args.iter().cloned());
            docker(&composed, scan);
        }
        "lxc" | "incus" => system_containers(args, scan),
        "dropdb" | "dropuser" => {
            let name = positional(args).last().copied().unwrap_or("the database");
            scan.add(db(&format!("drop {name}"), name));
        }
        // A framework's or a project's tool that runs the SQL it is given
        // (`bin/console doctrine:query:sql 'DROP TABLE users'`, `bin/console dbal:run-sql …`,
        // `wp db query 'TRUNCATE wp_posts'`, `drush sql:query …`): its words name SQL, or a
        // database and a query, and one argument is a statement that destroys data.
        // A statement is words: only a command with an argument of several is looked at.
        _ if args.iter().any(|a| a.contains(' '))
            && runs_sql(cmd)
            && args.iter().any(|a| a.contains(' ') && destroys_data(a)) =>
        {
            scan.add(db(&format!("{program} drops or empties data"), ""));
        }
        // A hosted database's own CLI given a statement (`wrangler d1 execute db --remote
        // --command 'DROP TABLE users'`, `turso db shell acme "TRUNCATE t"`): one argument
        // that is SQL, words and all, not a name.
        p if crate::catalogue::is(p, crate::catalogue::Class::Cloud)
            && args.iter().any(|a| a.contains(' ') && destroys_data(a)) =>
        {
            scan.add(db(&format!("{program} drops or empties hosted data"), ""));
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
                    c.stage < cmd.stage && matches!(c.program(), "echo" | "printf")
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
        // The journal's old entries deleted (`--vacuum-time=1s` leaves none).
        "journalctl" if args.iter().any(|a| a.starts_with("--vacuum")) => {
            scan.add(Risk::new(
                RuleId::SystemEvidence,
                Harm::Moderate,
                true,
                "delete the system journal's entries",
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
        _ => own_change(cmd, program, scan),
    }
}

/// A system tool's own words for a change that the words reader's verbs don't hold (it
/// knows `set`, `add`, `enable`, `disable`…, not a tool's vocabulary): (program, its
/// subcommand or option, "" for any invocation but help, what it does, the act a wish
/// names). Moderate and lasting, as a setting read from its words is.
#[rustfmt::skip]
const OWN_CHANGES: &[(&str, &str, &str, Act)] = &[
    ("certutil", "-addstore", "adds a certificate to a store Windows trusts", Act::Update),
    ("security", "add-trusted-cert", "changes which certificate authorities the Mac trusts", Act::Update),
    ("spctl", "--global-disable", "turns Gatekeeper off, so any program may run", Act::Safety),
    ("spctl", "--master-disable", "turns Gatekeeper off, so any program may run", Act::Safety),
    ("trust", "anchor", "changes which certificate authorities the whole system trusts", Act::Update),
    ("trust", "extract-compat", "rewrites the system's bundles of trusted certificate authorities", Act::Update),
    ("update-ca-certificates", "", "changes which certificate authorities the whole system trusts", Act::Update),
    ("update-ca-trust", "", "changes which certificate authorities the whole system trusts", Act::Update),
];

fn own_change(cmd: &Command, program: &str, scan: &mut Scan<'_>) {
    let args = cmd.args();
    if args
        .iter()
        .any(|a| super::words::is_help_option(&a.to_ascii_lowercase()))
    {
        return;
    }
    let first = positional(args).first().copied();
    let Some((_, word, does, act)) = OWN_CHANGES.iter().find(|(name, word, _, _)| {
        *name == program
            && (word.is_empty() || first == Some(*word) || args.iter().any(|a| a == word))
    }) else {
        return;
    };
    let shown = if word.is_empty() {
        program.to_string()
    } else {
        format!("{program} {word}")
    };
    scan.add(
        Risk::new(
            RuleId::WordsSystem,
            Harm::Moderate,
            true,
            format!("{shown} {does}, which Undo can't take back"),
        )
        .wish(Wish::new(*act).naming(Name::one(program))),
    );
}

/// `systemd-run --user CMD`: the reader took systemd-run off and judged CMD, which runs as
/// a transient service of its own, on after the command returns. A scope (`--scope`) runs
/// in the foreground as the caller's own process; for the system's manager the command
/// runs as the administrator (`sudo.run`); a timer is `persist.schedule`. The reader keeps
/// only the wrapper's name, so its options are read from the line's words: those after
/// `systemd-run` up to the program.
pub(super) fn transient_service(cmd: &Command, text: &str) -> Option<Risk> {
    if cmd.sudo || !cmd.wrappers.iter().any(|w| w == "systemd-run") {
        return None;
    }
    let program = cmd.words.first()?;
    let mut scope = false;
    let mut after = false;
    for word in text.split_whitespace() {
        if after && word == program {
            break;
        }
        if crate::catalogue::name(word) == "systemd-run" {
            after = true;
            scope = false;
        } else if after && word == "--scope" {
            scope = true;
        }
    }
    if scope {
        return None;
    }
    let name = cmd.program();
    Some(
        Risk::new(
            RuleId::WordsSystem,
            Harm::Moderate,
            true,
            format!("start {name} as a service of its own (systemd-run), which goes on running after the command returns"),
        )
        .wish(Wish::new(Act::Run).naming(Name::one(name))),
    )
}

/// How a disk tool's invocation only reads or lists.
enum Reads {
    /// It reads unless given one of these short options (in a cluster too) or long ones
    /// (`debugfs -w`, `e2image -I`, `badblocks -w`).
    Unless(&'static str, &'static [&'static str]),
    /// It reads given these options and no other (`fdisk -l`, `sgdisk -p`, `hdparm -I`), or
    /// nothing at all.
    Only(&'static str, &'static [&'static str]),
    /// It reads with one of these subcommands, or none (`cryptsetup status`, `bootctl list`).
    Subcommands(&'static [&'static str]),
}

/// The disk tools some of whose invocations only read. Any other disk tool (`grub-install`,
/// `pvremove`, `sg_raw`, `cfdisk`) writes whenever it runs, help aside.
#[rustfmt::skip]
const DISK_READS: &[(&str, Reads)] = &[
    ("badblocks", Reads::Unless("nw", &["--non-destructive", "--write"])),
    ("bmaptool", Reads::Subcommands(&["create"])),
    ("bootctl", Reads::Subcommands(&["is-installed", "list", "status"])),
    ("caligula", Reads::Subcommands(&[])),
    ("cryptsetup", Reads::Subcommands(&["benchmark", "bitlkdump", "isluks", "luksdump", "luksuuid", "status", "tcryptdump"])),
    ("debugfs", Reads::Unless("w", &["--writable"])),
    ("e2image", Reads::Unless("I", &[])),
    ("efibootmgr", Reads::Only("quv", &["--quiet", "--unicode", "--verbose"])),
    ("fastboot", Reads::Subcommands(&["devices", "getvar", "help"])),
    ("fdisk", Reads::Only("lx", &["--list", "--list-details"])),
    ("gdisk", Reads::Only("l", &[])),
    ("hdparm", Reads::Only("CHIgiTt", &[])),
    ("ioping", Reads::Unless("W", &[])),
    ("mdadm", Reads::Only("DEQbsv", &["--brief", "--detail", "--detail-platform", "--examine", "--query", "--scan", "--verbose"])),
    // A chip programmer: `-w` writes a chip, `-E` erases it; the rest lists, reads or verifies.
    ("minipro", Reads::Unless("Ew", &["--erase", "--write"])),
    ("nvme", Reads::Subcommands(&["error-log", "fw-log", "get-feature", "get-log", "help", "id-ctrl", "id-ns", "list", "list-ns", "list-subsys", "show-regs", "smart-log", "version"])),
    ("parted", Reads::Only("l", &["--list"])),
    ("sfdisk", Reads::Only("FJTVdgls", &["--dump", "--json", "--list", "--list-free", "--list-types", "--show-geometry", "--show-size", "--verify"])),
    ("sgdisk", Reads::Only("LOPbipv", &["--backup", "--info", "--list-types", "--pretend", "--print", "--print-mbr", "--verify"])),
    ("swaplabel", Reads::Unless("LU", &["--label", "--uuid"])),
    ("ventoy", Reads::Only("l", &[])),
    ("zfs", Reads::Subcommands(&["diff", "get", "groupspace", "help", "holds", "list", "projectspace", "userspace", "version", "wait"])),
    ("zpool", Reads::Subcommands(&["events", "get", "help", "history", "iostat", "list", "status", "version", "wait"])),
    ("zramctl", Reads::Unless("afrst", &["--algorithm", "--find", "--reset", "--size", "--streams"])),
];

/// Does this disk tool's invocation only read or list (help, a version and a dry run
/// included)? Any other program answers no but for help.
pub(super) fn disk_reads(program: &str, args: &[String]) -> bool {
    // Help, a version, a dry run (`--dry-run`, `--noop`); `-h` only alone (`dumpe2fs -h`
    // shows the superblock).
    let help = args
        .iter()
        .any(|a| a != "-h" && super::words::is_help_option(a))
        || matches!(args, [only] if matches!(only.as_str(), "-h" | "-V" | "-?" | "--usage"));
    if help {
        return true;
    }
    if program == "btrfs" {
        return btrfs(args) == DiskUse::Reads;
    }
    let Some((_, reads)) = DISK_READS.iter().find(|(name, _)| *name == program) else {
        return reads_by_words(args);
    };
    let options: Vec<&str> = args
        .iter()
        .take_while(|a| *a != "--")
        .map(String::as_str)
        .filter(|a| a.starts_with('-') && *a != "-")
        .collect();
    let named = |short: &str, long: &[&str], option: &str| match option.strip_prefix("--") {
        Some(name) => {
            long.contains(&format!("--{}", name.split('=').next().unwrap_or(name)).as_str())
        }
        None => {
            let cluster = option.trim_start_matches('-');
            !cluster.is_empty() && cluster.chars().all(|c| short.contains(c))
        }
    };
    match reads {
        Reads::Unless(short, long) => {
            !options
                .iter()
                .any(|option| match option.strip_prefix("--") {
                    Some(_) => named("", long, option),
                    None => option
                        .trim_start_matches('-')
                        .chars()
                        .any(|c| short.contains(c)),
                })
        }
        Reads::Only(short, long) => {
            args.is_empty()
                || (!options.is_empty() && options.iter().all(|option| named(short, long, option)))
        }
        Reads::Subcommands(subs) => {
            subcommand(args).is_none_or(|sub| subs.contains(&sub.to_ascii_lowercase().as_str()))
        }
    }
}

/// btrfs's command groups: each one's actions, and those of them that only read. btrfs
/// takes any unambiguous prefix of both (`btrfs f u` is `filesystem usage`).
#[rustfmt::skip]
const BTRFS: &[(&str, &[&str], &[&str])] = &[
    ("balance", &["cancel", "pause", "resume", "start", "status"], &["status"]),
    ("check", &[], &[]),
    ("device", &["add", "delete", "ready", "remove", "scan", "stats", "usage"], &["ready", "scan", "stats", "usage"]),
    ("filesystem", &["defragment", "df", "du", "label", "mkswapfile", "resize", "show", "sync", "usage"], &["df", "du", "show", "usage"]),
    ("help", &[], &[]),
    ("inspect-internal", &[], &[]),
    ("property", &["get", "list", "set"], &["get", "list"]),
    ("qgroup", &["assign", "clear-stale", "create", "destroy", "limit", "remove", "show"], &["show"]),
    ("quota", &["disable", "enable", "rescan", "status"], &["status"]),
    ("receive", &[], &[]),
    ("replace", &["cancel", "start", "status"], &["status"]),
    ("rescue", &[], &[]),
    ("restore", &[], &[]),
    ("scrub", &["cancel", "limit", "resume", "start", "status"], &["status"]),
    ("send", &[], &[]),
    ("subvolume", &["create", "delete", "find-new", "get-default", "list", "set-default", "show", "snapshot", "sync"], &["find-new", "get-default", "list", "show"]),
    ("version", &[], &[]),
];

/// `btrfs filesystem defragment PATH…` (`btrfs f de -r src`) with every path inside the work
/// folder: the files are rewritten where they are, each holding what it held; what the
/// machine maps from its disks is unchanged. Outside the work folder (`-r /`) it reaches
/// every program's files and their snapshots' shared space.
pub(super) fn defragments_inside(cmd: &Command, here: place::Place<'_>) -> bool {
    if cmd.program() != "btrfs" {
        return false;
    }
    let words = positional(cmd.args());
    let group = words
        .first()
        .and_then(|w| by_prefix(w, BTRFS.iter().map(|(name, ..)| *name)));
    let Some((_, actions, _)) = BTRFS.iter().find(|(name, ..)| Some(*name) == group) else {
        return false;
    };
    let action = words
        .get(1)
        .and_then(|w| by_prefix(w, actions.iter().copied()));
    let paths = words.get(2..).unwrap_or(&[]);
    group == Some("filesystem")
        && action == Some("defragment")
        && !paths.is_empty()
        && paths
            .iter()
            .all(|path| super::surely_inside_work(here, path, true))
}

/// A database server controlled by the data directory it is told, inside the work folder
/// (`pg_ctl -D data start`, `pg_ctl stop --pgdata=./pgdata`): the project's own server, run
/// as the person, which its opposite stops, as a dev server is. Not the machine's clusters
/// (`pg_ctl -D /var/lib/postgresql/16/main restart`), nor one only known when it runs, nor
/// `kill`, which signals any process.
pub(super) fn serves_work_folder(cmd: &Command, here: place::Place<'_>) -> bool {
    let args = cmd.args();
    // `pg_ctl kill SIGNAL PID` signals whatever process it is given.
    if cmd.program() != "pg_ctl" || args.iter().any(|a| a == "kill") {
        return false;
    }
    super::option_values(args, &["-D", "--pgdata"])
        .first()
        .is_some_and(|data| super::surely_inside_work(here, data, false))
}

/// The one name of `names` that `word` is a prefix of, if exactly one.
fn by_prefix<'a>(word: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let mut found = names.filter(|name| name.starts_with(word));
    match (found.next(), found.next()) {
        (Some(name), None) => Some(name),
        (Some(name), Some(_)) if name == word => Some(name),
        _ => None,
    }
}

/// What a btrfs command does to the disk under it: a subvolume snapshot, a balance or a
/// label maps (nothing is lost); a delete, a device removed, a rescue, a repair, a replace
/// or a resize writes.
fn btrfs(args: &[String]) -> DiskUse {
    let words: Vec<&str> = positional(args);
    let Some(group) = words
        .first()
        .and_then(|w| by_prefix(w, BTRFS.iter().map(|(name, ..)| *name)))
    else {
        // An unknown group, or none: it may be anything.
        return if words.is_empty() {
            DiskUse::Reads
        } else {
            DiskUse::Writes
        };
    };
    let (_, actions, reading) = BTRFS
        .iter()
        .find(|(name, ..)| *name == group)
        .copied()
        .unwrap_or(("", &[], &[]));
    let repairs = args
        .iter()
        .any(|a| a == "--repair" || a.starts_with("--init-"));
    match group {
        "help" | "version" | "inspect-internal" | "restore" | "send" => DiskUse::Reads,
        "check" if repairs => DiskUse::Writes,
        "check" => DiskUse::Reads,
        "rescue" => DiskUse::Writes,
        _ => {
            let action = words
                .get(1)
                .and_then(|w| by_prefix(w, actions.iter().copied()));
            match action {
                Some(action) if reading.contains(&action) => DiskUse::Reads,
                // `filesystem label DEV NEW` sets it.
                _ if group == "filesystem" && action == Some("label") => DiskUse::Maps,
                Some("delete" | "remove") if matches!(group, "subvolume" | "device") => {
                    DiskUse::Writes
                }
                Some("start") if group == "replace" => DiskUse::Writes,
                Some("resize") if group == "filesystem" => DiskUse::Writes,
                Some("snapshot") => DiskUse::Keeps,
                _ => DiskUse::Maps,
            }
        }
    }
}

/// Options with which a disk tool the table doesn't know only lists or shows (`minipro -l`,
/// `cdrecord --devices`, and cdrecord's and wodim's drive and disc queries: `-scanbus`,
/// `-checkdrive`, `-atip`, `-toc`…). Not `-L`, which sets a label (`swaplabel -L`).
const LISTING_OPTIONS: &[&str] = &[
    "--devices",
    "--info",
    "--list",
    "--print",
    "--query",
    "--scan",
    "--show",
    "--status",
    "-atip",
    "-checkdrive",
    "-inq",
    "-l",
    "-minfo",
    "-msinfo",
    "-prcap",
    "-scanbus",
    "-toc",
];

/// A disk tool [`DISK_READS`] doesn't know reads by its words: a reading subcommand among
/// its first two (`nvme list`, `mt status`, `btrfs filesystem show`, `st-flash read`) with
/// no destroying one, or only listing options (`minipro -l`). `check` isn't one: a disk
/// check repairs with an option (`btrfs check --repair`). Anything else writes.
fn reads_by_words(args: &[String]) -> bool {
    use super::words::{DESTROYS, READS, has};
    let words: Vec<String> = positional(args)
        .into_iter()
        .filter(|word| !word.contains('/'))
        .take(2)
        .map(str::to_ascii_lowercase)
        .collect();
    let shows = |word: &str| {
        word != "check"
            && (has(READS, word)
                || matches!(
                    word,
                    "df" | "dump" | "get" | "print" | "query" | "read" | "show" | "usage"
                ))
    };
    if !words.is_empty() {
        return words.iter().any(|w| shows(w)) && !words.iter().any(|w| has(DESTROYS, w));
    }
    let options: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| a.starts_with('-'))
        .collect();
    !options.is_empty() && options.iter().all(|o| LISTING_OPTIONS.contains(o))
}

/// A disk tool's subcommand or mode that changes what the machine maps, not what a disk
/// holds: a mapping opened or closed (`cryptsetup open`), an array assembled or stopped
/// (`mdadm --stop`). Not a disk write: a system change, moderate and lasting, as a mount.
#[rustfmt::skip]
const DISK_MAPS: &[(&str, &[&str])] = &[
    ("cryptsetup", &["close", "create", "luksclose", "luksopen", "open", "refresh", "remove", "resize"]),
    ("mdadm", &["--assemble", "--readonly", "--readwrite", "--run", "--stop", "-A", "-R", "-S", "-o", "-w"]),
    // ZFS keeps its data in a pool: a dataset made, snapshotted, set, mounted, cloned, sent or
    // received loses nothing. `destroy`, `rollback` (what changed since the snapshot) and
    // `redact` do, as a pool made, destroyed, added to or cleared of its labels does.
    ("zfs", &["allow", "bookmark", "change-key", "clone", "create", "hold", "inherit", "load-key", "mount", "promote", "receive", "recv", "release", "rename", "send", "set", "share", "snapshot", "unallow", "unload-key", "unmount", "unshare", "upgrade"]),
    ("zpool", &["checkpoint", "clear", "export", "import", "offline", "online", "reguid", "reopen", "resilver", "scrub", "set", "sync", "trim", "upgrade"]),
];

/// What a tool of a declarative system (NixOS, nix-darwin, Home Manager, and `nh`, which
/// runs them) does to its generations: each build of the configuration is one, kept so the
/// machine can go back to it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Generation {
    /// A generation built and made the running one, now or at the next boot (`switch`,
    /// `boot`, `test`, `rollback`, `activate`): every program on the machine (or in the
    /// home, for Home Manager) runs with it. Moderate and lasting: Undo can't take it back,
    /// though an older generation can.
    Switched,
    /// Old generations deleted (`nix-collect-garbage -d`, `--delete-older-than 30d`, `nh
    /// clean all`): the points the machine could go back to are gone. Severe and lasting,
    /// as any delete outside the work folder is. A plain `nix-collect-garbage` frees only
    /// what no generation holds, rebuildable, and is routine.
    Deleted,
}

/// Reads a declarative system's tool for what it does to its generations (see
/// [`Generation`]); `build`, `build-vm`, `repl`, `search`, `list-generations`, `--help` and
/// `--dry-run` do nothing to them.
fn generations(program: &str, args: &[String]) -> Option<Generation> {
    const SWITCHES: &[&str] = &["activate", "boot", "rollback", "switch", "test"];
    let words = positional(args);
    if args
        .iter()
        .any(|a| a == "--dry-run" || super::words::is_help_option(a))
    {
        return None;
    }
    let switches = |word: Option<&&str>| word.is_some_and(|w| SWITCHES.contains(w));
    match program {
        "nixos-rebuild" | "darwin-rebuild" | "home-manager" if switches(words.first()) => {
            Some(Generation::Switched)
        }
        "nh" => match words.first().copied() {
            Some("os" | "home" | "darwin") if switches(words.get(1)) => Some(Generation::Switched),
            Some("clean") => Some(Generation::Deleted),
            _ => None,
        },
        "nix-collect-garbage"
            if args.iter().any(|a| {
                a == "-d" || a == "--delete-old" || a.starts_with("--delete-older-than")
            }) =>
        {
            Some(Generation::Deleted)
        }
        _ => None,
    }
}

fn generations_risk(program: &str, args: &[String]) -> Risk {
    match generations(program, args) {
        Some(Generation::Deleted) => Risk::new(
            RuleId::WordsDestroy,
            Harm::Severe,
            true,
            format!("{program} deletes old generations, the points the machine could go back to, which Undo can't bring back"),
        )
        .wish(Wish::new(Act::Delete).naming(Name::AnyOf(vec![program.to_string(), "generations".to_string()]))),
        _ => Risk::new(
            RuleId::WordsSystem,
            Harm::Moderate,
            true,
            format!("{program} makes a new generation of the system's configuration the running one, which Undo can't take back"),
        )
        .wish(Wish::new(Act::Update).naming(Name::one(program))),
    }
}

/// What a disk tool's invocation does with the disks it reaches.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum DiskUse {
    /// Reads, lists, asks for help or tries a dry run.
    Reads,
    /// Keeps a copy of what is there, losing and changing nothing anyone sees: a snapshot,
    /// a bookmark, a hold, a checkpoint (`zfs snapshot tank/home@today`, `btrfs subvolume
    /// snapshot / /snap`, `zpool checkpoint tank`). The safe side of a change to come.
    Keeps,
    /// Changes what the machine maps: a mapping opened or closed, an array assembled, a
    /// pool imported, a dataset set or snapshotted (see [`DISK_MAPS`]).
    Maps,
    /// Writes a disk's partitions, file systems, volumes or boot record.
    Writes,
}

/// Reads what a disk tool's invocation does (see [`DiskUse`]).
pub(super) fn disk_use(program: &str, args: &[String]) -> DiskUse {
    if disk_reads(program, args) {
        return DiskUse::Reads;
    }
    if program == "btrfs" {
        return btrfs(args);
    }
    let maps = DISK_MAPS
        .iter()
        .find(|(name, _)| *name == program)
        .is_some_and(|(_, modes)| {
            let first_option = args.iter().find(|a| a.starts_with('-'));
            subcommand(args)
                .map(str::to_ascii_lowercase)
                .is_some_and(|sub| modes.contains(&sub.as_str()))
                || first_option.is_some_and(|option| modes.contains(&option.as_str()))
        });
    let keeps = subcommand(args).is_some_and(|sub| {
        matches!(
            sub.to_ascii_lowercase().as_str(),
            "bookmark" | "checkpoint" | "hold" | "snapshot"
        )
    });
    match (maps, keeps) {
        (true, true) => DiskUse::Keeps,
        (true, false) => DiskUse::Maps,
        (false, _) => DiskUse::Writes,
    }
}

/// A tool's subcommand: its first operand that is a word (`status`, `luksFormat`), not a
/// path or an option's value that names one (`--esp-path /efi`).
fn subcommand(args: &[String]) -> Option<&str> {
    positional(args)
        .into_iter()
        .find(|word| word.starts_with(|c: char| c.is_ascii_alphabetic()) && !word.contains('/'))
}

/// A disk write the circuit breaker already judges: a file system or partition table
/// written onto a device (`critical.mkfs`), a whole disk discarded (`critical.disk_write`).
pub(super) fn critical_disk(program: &str, args: &[String]) -> bool {
    formats_disk(program, args)
        || (program == "blkdiscard"
            && args
                .iter()
                .any(|a| a.starts_with("/dev/") && super::paths::is_disk(a)))
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
    tool && !lists && device && !disk_reads(program, args)
}

/// systemctl's changes that no word of theirs says (`systemctl service-watchdogs no`,
/// `systemctl log-level debug`, `systemctl freeze app`, `systemctl daemon-reexec`): the
/// words reader reads the rest (`restart`, `set-property`, `isolate`). What sets a value
/// with one given only shows it without (`systemctl log-level`).
fn systemctl_changes(sub: &str, words: &[&str]) -> bool {
    let given = words.len().saturating_sub(1);
    match sub {
        "daemon-reexec"
        | "default"
        | "freeze"
        | "thaw"
        | "clean"
        | "revert"
        | "hybrid-sleep"
        | "sleep"
        | "suspend-then-hibernate" => true,
        "log-level" | "log-target" | "service-watchdogs" => given >= 1,
        "service-log-level" | "service-log-target" => given >= 2,
        _ => false,
    }
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

/// docker's and podman's global options that take a value (`docker --context prod compose
/// down -v`, `podman --connection box rm -f web`): the value is not a subcommand.
const DOCKER_VALUED: &[&str] = &[
    "--config",
    "--connection",
    "--context",
    "--host",
    "--log-level",
    "--remote",
    "--root",
    "--runroot",
    "--tlscacert",
    "--tlscert",
    "--tlskey",
    "--url",
    "-H",
    "-c",
    "-l",
];

/// The operands of a docker or podman line, the values of its global options skipped.
fn docker_words(args: &[String]) -> Vec<&str> {
    let mut out = Vec::new();
    let mut skip = false;
    for arg in args {
        if skip {
            skip = false;
        } else if arg == "--" {
            continue;
        } else if arg.starts_with('-') {
            skip = out.is_empty() && DOCKER_VALUED.contains(&arg.as_str());
        } else {
            out.push(arg.as_str());
        }
    }
    out
}

fn docker(args: &[String], scan: &mut Scan<'_>) {
    let words = docker_words(args);
    let volumes_gone = match words.as_slice() {
        ["volume", "rm" | "prune", ..] => true,
        ["system", "prune", ..] => args.iter().any(|a| a == "--volumes"),
        ["compose", "down", ..] => has_flag(args, Some('v'), &["volumes"]),
        // `podman system reset`: every container, image and volume it keeps.
        ["system", "reset", ..] => true,
        _ => false,
    };
    if volumes_gone {
        scan.add(db("delete docker volumes and the data in them", ""));
        return;
    }
    // Containers deleted: what each one wrote inside it is gone with it; `rm` takes the
    // stopped ones it names, `rm -f` stops a running one first, as `docker stop` does, and
    // a prune takes every stopped one. Images
    // and build caches are not here: they are pulled or built again.
    let containers = match words.as_slice() {
        ["container" | "system", "prune", ..] => {
            Some("delete every stopped container and what each wrote inside it")
        }
        ["rm", ..] | ["container", "rm", ..] if has_flag(args, Some('f'), &["force"]) => {
            Some("delete containers and what they wrote inside them, running ones stopped first")
        }
        // A stopped container named: what it wrote inside it goes with it, as a prune's.
        ["rm", _, ..] | ["container", "rm", _, ..] => {
            Some("delete containers and what they wrote inside them")
        }
        _ => None,
    };
    if let Some(what) = containers {
        scan.add(
            Risk::new(RuleId::WordsSystem, Harm::Moderate, true, what).wish(Wish::new(Act::Delete)),
        );
    }
}

/// LXD's and Incus's containers and machines are whole systems: `lxc delete x` (`rm`) takes
/// its disk with it, stopped first with `--force`; a snapshot deleted is gone. Any image or
/// network deleted is pulled or made again, so only instances and snapshots are here.
fn system_containers(args: &[String], scan: &mut Scan<'_>) {
    let words = positional(args);
    let what = match words.as_slice() {
        ["delete" | "rm", _, ..] => {
            "delete a system container or machine and everything on its disk"
        }
        ["snapshot", "delete" | "rm", _, ..] => "delete a system container's snapshot",
        _ => return,
    };
    if !args.iter().any(|a| super::words::is_help_option(a)) {
        scan.add(
            Risk::new(RuleId::WordsSystem, Harm::Moderate, true, what).wish(Wish::new(Act::Delete)),
        );
    }
}

/// The owner or group `chown` or `chgrp` gives files to, unless it is the person's own
/// (`$USER`, `$(whoami)`, `$(id -u)`…) or copied from another file (`--reference`).
fn given_owner<'a>(program: &str, args: &'a [String]) -> Option<&'a str> {
    if program == "chmod" || args.iter().any(|a| a.starts_with("--reference")) {
        return None;
    }
    let owner = positional(args).into_iter().next()?;
    let own = [
        "$USER",
        "${USER}",
        "$LOGNAME",
        "$(whoami)",
        "`whoami`",
        "$(id -u",
        "$(id -g",
        "$UID",
    ];
    let parts = owner.split([':', '.']).filter(|part| !part.is_empty());
    let mine = parts
        .clone()
        .all(|part| own.iter().any(|o| part.starts_with(o)));
    (parts.count() > 0 && !mine).then_some(owner)
}

/// A power-off, reboot or halt forced past the service manager (`reboot -f`, `systemctl
/// poweroff --force`): services are not stopped, so what they had not written yet is lost,
/// which no Undo brings back. `shutdown -f` is not one (it skips a disk check).
fn forced_power(program: &str, args: &[String]) -> (bool, &'static str) {
    if program != "shutdown" && has_flag(args, Some('f'), &["force"]) {
        (
            true,
            ", forced: services are not stopped, and what they had not written is lost",
        )
    } else {
        (false, "")
    }
}

#[cfg(test)]
mod tests {
    use super::{DiskUse, disk_reads, disk_use};

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn disk_tools_read_list_map_or_write() {
        // (program, arguments, reads, writes)
        for (program, line, reads, writes) in [
            ("debugfs", "/dev/sdb1", true, false),
            ("debugfs", "-w /dev/sdb1", false, true),
            ("badblocks", "-sv /dev/sdb", true, false),
            ("badblocks", "-svw /dev/sdb", false, true),
            ("e2image", "/dev/sdb1 out.e2i", true, false),
            ("e2image", "-I /dev/sdb1 out.e2i", false, true),
            ("efibootmgr", "", true, false),
            ("efibootmgr", "-v", true, false),
            ("efibootmgr", "-o 0001,0002", false, true),
            ("fdisk", "-l /dev/sda", true, false),
            ("fdisk", "/dev/sda", false, true),
            ("hdparm", "-tT /dev/sda", true, false),
            ("hdparm", "-B 1 /dev/sda", false, true),
            ("sgdisk", "-p /dev/sda", true, false),
            ("sgdisk", "-l backup.gpt /dev/sda", false, true),
            ("bootctl", "--esp-path /efi", true, false),
            ("bootctl", "install", false, true),
            ("cryptsetup", "luksDump /dev/sdb1", true, false),
            ("cryptsetup", "open /dev/sdb1 secret", false, false),
            ("cryptsetup", "luksFormat /dev/sdb1", false, true),
            ("mdadm", "--detail /dev/md0", true, false),
            ("mdadm", "--stop /dev/md0", false, false),
            ("mdadm", "--zero-superblock /dev/sdb1", false, true),
            ("grub-install", "--help", true, false),
            ("grub-install", "/dev/sda", false, true),
            ("pvremove", "/dev/sdb1", false, true),
            ("caligula", "burn image.iso", false, true),
            ("zfs", "list -t snapshot", true, false),
            ("zfs", "snapshot tank/home@today", false, false),
            ("zfs", "destroy tank/home", false, true),
            ("zfs", "rollback tank/home@yesterday", false, true),
            ("zpool", "status tank", true, false),
            ("zpool", "scrub tank", false, false),
            ("zpool", "destroy tank", false, true),
            ("frobnicate", "--dry-run /dev/sdb", true, false),
            // A disk tool the table doesn't know, read by its words.
            // btrfs, by its groups and actions or their prefixes.
            ("btrfs", "filesystem show /dev/sda1", true, false),
            ("btrfs", "f u /mnt", true, false),
            ("btrfs", "su l /mnt", true, false),
            ("btrfs", "v", true, false),
            ("btrfs", "device stats /mnt", true, false),
            ("btrfs", "c /dev/sdb", true, false),
            ("btrfs", "su snapshot /mnt /mnt/snap", false, false),
            ("btrfs", "b start /mnt", false, false),
            ("btrfs", "su delete /mnt/sub", false, true),
            ("btrfs", "device remove /dev/sdb /mnt", false, true),
            ("btrfs", "check --repair /dev/sdb", false, true),
            ("btrfs", "resc zero-log /dev/sdb", false, true),
            ("btrfs", "replace start /dev/sdb /dev/sdc /mnt", false, true),
            ("bcachefs", "device evacuate /dev/sdb", false, true),
            ("lvm", "version", true, false),
            ("blocktool", "--list", true, false),
            ("blocktool", "-l --force /dev/sdb", false, true),
            ("nvme", "list", true, false),
            ("nvme", "format /dev/nvme0n1", false, true),
            ("fastboot", "devices", true, false),
            ("fastboot", "oem unlock", false, true),
            ("swaplabel", "/dev/sda2", true, false),
            ("swaplabel", "-L swap /dev/sda2", false, true),
            ("nwipe", "", false, true),
        ] {
            let args = args(line);
            assert_eq!(disk_reads(program, &args), reads, "{program} {line}: reads");
            assert_eq!(
                disk_use(program, &args) == DiskUse::Writes,
                writes,
                "{program} {line}: writes"
            );
        }
    }
}
