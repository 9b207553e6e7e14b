//! A folder served to the network: while the server runs, the chat's files are readable by
//! anyone who can reach this machine. Bound to loopback it is a developer's own preview, and
//! routine.

use super::marks::{Mark, Marks};
use crate::law::command::Scan;
use crate::law::rule::RuleId;
use crate::shell::Command;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Wish};

/// How one program serves files: the words that make it a server, the options whose value is
/// the address it binds, and whether it binds every interface when given none.
struct Server {
    program: &'static str,
    /// Every one of these words is among its arguments (case aside): `-m http.server`.
    marks: &'static [&'static str],
    /// Options whose value is where it listens: `--bind 0.0.0.0`, `-S host:port`, `-p [ip:]port`.
    bind: &'static [&'static str],
    /// Given no address, it listens on every interface (python's, busybox's, http-server).
    everywhere: bool,
    /// Words after which it serves nothing (`tailscale serve status`).
    unless: &'static [&'static str],
    /// What it serves, for the reason a person reads.
    what: &'static str,
    harm: Harm,
}

/// Every program that serves files, sorted by program (checked by a test); a program of the
/// catalogue's `Server` class has a row.
#[rustfmt::skip]
const SERVERS: &[Server] = &[
    Server { program: "agate", marks: &[], bind: &["--addr"], everywhere: true, unless: &["--help", "-h"], what: "a folder", harm: Harm::Moderate },
    Server { program: "airshare", marks: &[], bind: &[], everywhere: true, unless: &["--help"], what: "files", harm: Harm::Moderate },
    Server { program: "browser-sync", marks: &["start"], bind: &["--listen"], everywhere: true, unless: &["--help", "-h"], what: "a folder", harm: Harm::Moderate },
    Server { program: "caddy", marks: &["file-server"], bind: &["--listen", "-l"], everywhere: true, unless: &[], what: "a folder", harm: Harm::Moderate },
    Server { program: "darkhttpd", marks: &[], bind: &["--addr"], everywhere: true, unless: &["--help"], what: "a folder", harm: Harm::Moderate },
    Server { program: "expose", marks: &[], bind: &[], everywhere: true, unless: &["--help", "-h"], what: "a local site to the internet", harm: Harm::Moderate },
    Server { program: "filebrowser", marks: &[], bind: &["--address", "-a"], everywhere: false, unless: &["--help", "-h"], what: "a folder, and takes uploads into it,", harm: Harm::Moderate },
    Server { program: "git", marks: &["daemon"], bind: &["--listen"], everywhere: true, unless: &["--help", "-h"], what: "the repositories under it", harm: Harm::Moderate },
    // `git instaweb` starts a web server over the repository, on every interface unless told `--local`.
    Server { program: "git", marks: &["instaweb"], bind: &[], everywhere: true, unless: &["--help", "--local", "-l", "--stop", "--restart"], what: "the repository", harm: Harm::Moderate },
    Server { program: "hg", marks: &["serve"], bind: &["--address", "-a"], everywhere: true, unless: &["--help", "-h"], what: "the repository", harm: Harm::Moderate },
    Server { program: "http-server", marks: &[], bind: &["--address", "-a"], everywhere: true, unless: &["--help", "-h"], what: "a folder", harm: Harm::Moderate },
    Server { program: "http-server-upload", marks: &[], bind: &[], everywhere: true, unless: &["--help"], what: "a folder, and takes uploads into it,", harm: Harm::Moderate },
    Server { program: "httpd", marks: &[], bind: &["-p"], everywhere: true, unless: &["-V", "-t", "-v"], what: "a folder", harm: Harm::Moderate },
    Server { program: "kubectl", marks: &["port-forward"], bind: &["--address"], everywhere: false, unless: &["--help", "-h"], what: "a service of the cluster (a database, an API)", harm: Harm::Moderate },
    Server { program: "kubectl", marks: &["proxy"], bind: &["--address"], everywhere: false, unless: &[], what: "the cluster's API, in your name,", harm: Harm::Severe },
    Server { program: "live-server", marks: &[], bind: &["--host"], everywhere: true, unless: &["--help", "-h"], what: "a folder", harm: Harm::Moderate },
    Server { program: "minio", marks: &["server"], bind: &["--address"], everywhere: true, unless: &["--help", "-h"], what: "a folder as object storage", harm: Harm::Moderate },
    Server { program: "miniserve", marks: &[], bind: &["--interfaces", "-i"], everywhere: true, unless: &["--help", "-h"], what: "a folder", harm: Harm::Moderate },
    Server { program: "php", marks: &["-S"], bind: &["-S"], everywhere: true, unless: &[], what: "a folder", harm: Harm::Moderate },
    Server { program: "python", marks: &["http.server"], bind: &["--bind", "-b"], everywhere: true, unless: &["--help", "-h"], what: "a folder", harm: Harm::Moderate },
    Server { program: "python", marks: &["simplehttpserver"], bind: &[], everywhere: true, unless: &[], what: "a folder", harm: Harm::Moderate },
    Server { program: "python", marks: &["uploadserver"], bind: &["--bind", "-b"], everywhere: true, unless: &["--help", "-h"], what: "a folder, and takes uploads into it,", harm: Harm::Moderate },
    Server { program: "rclone", marks: &["serve"], bind: &["--addr"], everywhere: false, unless: &["--help", "-h"], what: "a remote or a folder", harm: Harm::Moderate },
    Server { program: "ruby", marks: &["httpd"], bind: &["--bind-address", "-b"], everywhere: true, unless: &[], what: "a folder", harm: Harm::Moderate },
    Server { program: "serve", marks: &[], bind: &["--listen", "-l"], everywhere: true, unless: &["--help", "-h"], what: "a folder", harm: Harm::Moderate },
    Server { program: "simplehttpserver", marks: &[], bind: &["-listen"], everywhere: true, unless: &["-h", "-help"], what: "a folder", harm: Harm::Moderate },
    Server { program: "smbserver.py", marks: &[], bind: &["-ip"], everywhere: true, unless: &["-h"], what: "a folder as a network share", harm: Harm::Moderate },
    Server { program: "tailscale", marks: &["set", "--ssh"], bind: &[], everywhere: true, unless: &["--help"], what: "this machine's shell, by SSH,", harm: Harm::Moderate },
    Server { program: "tailscale", marks: &["up", "--ssh"], bind: &[], everywhere: true, unless: &["--help"], what: "this machine's shell, by SSH,", harm: Harm::Moderate },
    Server { program: "tailscale", marks: &["serve"], bind: &[], everywhere: true, unless: &["--help", "off", "reset", "status"], what: "files or a port to the tailnet", harm: Harm::Moderate },
    Server { program: "twistd", marks: &["web"], bind: &["--listen"], everywhere: true, unless: &["--help"], what: "a folder", harm: Harm::Moderate },
    Server { program: "updog", marks: &[], bind: &[], everywhere: true, unless: &["--help", "-h", "--version"], what: "a folder, and takes uploads into it,", harm: Harm::Moderate },
    Server { program: "vncserver", marks: &[], bind: &["-interface"], everywhere: true, unless: &["--help", "--kill", "--list", "-help", "-kill", "-list"], what: "this desktop, to be seen and driven,", harm: Harm::Severe },
    Server { program: "webfsd", marks: &[], bind: &["-i"], everywhere: true, unless: &["-h"], what: "a folder", harm: Harm::Moderate },
    Server { program: "x0vncserver", marks: &[], bind: &["-interface"], everywhere: true, unless: &["--help", "-help"], what: "this desktop, to be seen and driven,", harm: Harm::Severe },
    Server { program: "zrok", marks: &["share"], bind: &[], everywhere: true, unless: &["--help", "-h"], what: "a folder or a port to the internet", harm: Harm::Moderate },
];

/// Addresses on this machine only: what binds there is reached from here alone.
fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host == "localhost"
        || host.ends_with(".localhost")
        || host.starts_with("127.")
        || host == "::1"
        || host == "ip6-localhost"
}

/// The host a bind option's value names: `0.0.0.0`, `127.0.0.1:8080`, `tcp://[::1]:80`;
/// none for a port alone (`8080`, `:8080` binds every interface).
fn bound_host(value: &str) -> Option<&str> {
    let value = value.split_once("://").map_or(value, |(_, rest)| rest);
    if value.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let host = if let Some(end) = value.find(']').filter(|_| value.starts_with('[')) {
        &value[..=end]
    } else if value.matches(':').count() > 1 {
        // A bare IPv6 address (`::`, `::1`) has no port.
        value
    } else {
        value.split(':').next().unwrap_or(value)
    };
    (!host.is_empty()).then_some(host)
}

/// The value of the first of these options given: `-b v`, `--bind=v`, `-p8080`.
fn bind_value<'a>(args: &'a [String], options: &[&str]) -> Option<&'a str> {
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if options.contains(&arg.as_str()) {
            return words.next().map(String::as_str);
        }
        if let Some((flag, value)) = arg.split_once('=')
            && options.contains(&flag)
        {
            return Some(value);
        }
        if let Some(short) = options.iter().find(|o| {
            o.len() == 2 && arg.len() > 2 && !arg.starts_with("--") && arg.starts_with(**o)
        }) {
            return arg.get(short.len()..);
        }
    }
    None
}

/// A command that serves files to the network.
pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    let program = cmd.program();
    if !SERVERS.iter().any(|row| row.program == program) {
        return;
    }
    let args = cmd.args();
    let lower: Vec<String> = args.iter().map(|a| a.to_ascii_lowercase()).collect();
    for row in SERVERS.iter().filter(|row| row.program == program) {
        let marked = row
            .marks
            .iter()
            .all(|mark| lower.iter().any(|a| *a == mark.to_ascii_lowercase()));
        if !marked || args.iter().any(|a| row.unless.contains(&a.as_str())) {
            continue;
        }
        let host = bind_value(args, row.bind).map(bound_host);
        // A port alone binds every interface (`--addr :8080`); no bind at all, the program's
        // own default.
        let everywhere = match host {
            Some(Some(host)) => !is_loopback(host),
            Some(None) => true,
            None => row.everywhere,
        };
        if everywhere {
            let at = match host {
                Some(Some(host)) => format!(" on {host}"),
                _ => " on every interface".to_string(),
            };
            if let Some(whole) = serves_everything(args, scan) {
                // The home folder or the whole disk served: its keys, its tokens and its
                // history go with it, to anyone who asks.
                serves(
                    scan,
                    Harm::Severe,
                    &format!(
                        "serve {whole} to the network ({program}{at}), its keys and tokens with it"
                    ),
                );
            } else {
                serves(
                    scan,
                    row.harm,
                    &format!("serve {} to the network ({program}{at})", row.what),
                );
            }
        }
        return;
    }
}

/// The home folder or `/` when a server is given one (`--directory ~`, `-d /`, `serve ~`)
/// or is given no folder and runs there (`cd ~ && python3 -m http.server`).
fn serves_everything(args: &[String], scan: &Scan<'_>) -> Option<&'static str> {
    let place = scan.place;
    let whole = |abs: &str| {
        if place.is_home(abs) {
            Some("the home folder")
        } else if crate::law::paths::is_root_like(abs) {
            Some("the whole disk")
        } else {
            None
        }
    };
    let folders: Vec<String> = args
        .iter()
        .filter_map(|arg| {
            let value = arg.split_once('=').map_or(arg.as_str(), |(_, value)| value);
            (!value.starts_with('-')
                && (value.contains('/') || value.starts_with('~') || value == "."))
                .then(|| place.resolve(value))
                .flatten()
        })
        .collect();
    match folders.iter().find_map(|abs| whole(abs)) {
        Some(found) => Some(found),
        None if folders.is_empty() => whole(place.cwd),
        None => None,
    }
}

/// Code (its marks) that serves the folder it runs in, unless bound to loopback.
fn serves_folder(marks: Marks) -> bool {
    marks.has(Mark::Serving) && !marks.has(Mark::Loopback)
}

/// Code given to an interpreter that serves the folder it runs in, unless bound to loopback.
pub(super) fn code_serves(cmd: &Command, marks: Marks, scan: &mut Scan<'_>) {
    if serves_folder(marks) {
        let program = cmd.program();
        serves(
            scan,
            Harm::Moderate,
            &format!("serve a folder to the network ({program} code)"),
        );
    }
}

fn serves(scan: &mut Scan<'_>, harm: Harm, what: &str) {
    scan.network = true;
    scan.add(
        Risk::new(
            RuleId::EgressServe,
            harm,
            true,
            format!("{what}: anyone who can reach this machine can read it while it runs"),
        )
        .way_out()
        .wish(Wish::new(Act::Public)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::{self, CATALOGUE, Class};

    #[test]
    fn servers_are_sorted_and_catalogued() {
        for pair in SERVERS.windows(2) {
            if let [a, b] = pair {
                assert!(a.program <= b.program, "{} before {}", a.program, b.program);
            }
        }
        for row in SERVERS {
            assert!(
                catalogue::program(row.program).is_some(),
                "{} is not catalogued",
                row.program
            );
        }
        for line in CATALOGUE.iter().filter(|line| line.is(Class::Server)) {
            assert!(
                SERVERS.iter().any(|row| row.program == line.name),
                "{} serves but has no row",
                line.name
            );
        }
    }

    #[test]
    fn bind_values_name_their_host() {
        for (value, want) in [
            ("0.0.0.0", Some("0.0.0.0")),
            ("127.0.0.1:8080", Some("127.0.0.1")),
            ("tcp://[::1]:80", Some("[::1]")),
            ("localhost:3000", Some("localhost")),
            ("8080", None),
            (":8080", None),
            ("::", Some("::")),
            ("::1", Some("::1")),
        ] {
            assert_eq!(bound_host(value), want, "{value}");
        }
        for (host, loopback) in [
            ("127.0.0.1", true),
            ("[::1]", true),
            ("localhost", true),
            ("0.0.0.0", false),
            ("192.168.1.4", false),
            ("::", false),
        ] {
            assert_eq!(is_loopback(host), loopback, "{host}");
        }
    }

    #[test]
    fn code_serves_a_folder() {
        for (code, serves) in [
            (
                "import http.server as s; s.httpserver(('', 8000), s.simplehttprequesthandler).serve_forever()",
                true,
            ),
            ("app.use(express.static('.')); app.listen(80)", true),
            (
                "s.httpserver(('127.0.0.1', 8000), s.simplehttprequesthandler)",
                false,
            ),
            ("import json; print(json.load(open('package.json')))", false),
        ] {
            assert_eq!(serves_folder(Marks::of(code)), serves, "{code}");
        }
    }
}
