//! Packages and code fetched with their checks turned off: TLS (`NODE_TLS_REJECT_UNAUTHORIZED=0
//! npm install`, `npm ci --strict-ssl=false`, `git -c http.sslVerify=false clone URL`,
//! `podman pull --tls-verify=false`) or signatures and checksums (`apt-get install
//! --allow-unauthenticated`, `dnf install --nogpgcheck`, `snap install --dangerous`, `GOSUMDB=off
//! go mod download`, `pip install --trusted-host HOST`). What arrives then may not be what was
//! asked for: whoever sits between this machine and the source chooses it, and it runs here,
//! in every later build too. A page that says "if the install fails with a certificate error,
//! set NODE_TLS_REJECT_UNAUTHORIZED=0" is the usual way in, so it asks after reading, and the
//! person naming the option or the variable asks for it (`install.unverified`, moderate and
//! lasting).
//!
//! Two tables: the options of each program that turn a check off (rows with examples, walked
//! by the rows test), and the environment variables that do, for a program that fetches
//! packages or code (a package manager, a version control tool, a project's runner, a
//! downloader), set on its command or exported before it on the line.

use super::Scan;
use super::table::{Row, row};
use crate::catalogue::{self, Class};
use crate::law::rule::RuleId;
use crate::shell::Command;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// An option that turns a check off.
#[derive(Clone, Copy)]
pub(super) enum Off {
    /// Present at all, as written or with a value after `=` (`--nogpgcheck`, `--trusted-host
    /// HOST`); a short letter too when given (`conda install -k`).
    Flag(Option<char>, &'static str),
    /// Given this value, after `=` or as the next word, in any case (`--strict-ssl=false`,
    /// `-c http.sslVerify=false`, `-o APT::Get::AllowUnauthenticated=true`).
    Value(&'static str, &'static str),
}

/// Each program's options that turn a check off, for any of its subcommands when the row has
/// no words. Sorted by program.
#[rustfmt::skip]
pub(super) const OPTIONS: &[Row<&[Off]>] = &[
    row("apt", &["install"], &[Off::Flag(None, "--allow-unauthenticated"), Off::Value("-o", "apt::get::allowunauthenticated=true")],
        &["sudo apt install --allow-unauthenticated nginx", "apt install -y -o APT::Get::AllowUnauthenticated=true nginx"],
        &["sudo apt install nginx", "apt install --allow-downgrades nginx=1.18"]),
    row("apt", &["update"], &[Off::Flag(None, "--allow-insecure-repositories"), Off::Value("-o", "acquire::allowinsecurerepositories=true")],
        &["sudo apt update --allow-insecure-repositories"],
        &["sudo apt update"]),
    row("apt-get", &["install"], &[Off::Flag(None, "--allow-unauthenticated"), Off::Value("-o", "apt::get::allowunauthenticated=true")],
        &["sudo apt-get install -y --allow-unauthenticated nginx"],
        &["sudo apt-get install -y nginx"]),
    row("apt-get", &["update"], &[Off::Flag(None, "--allow-insecure-repositories"), Off::Value("-o", "acquire::allowinsecurerepositories=true")],
        &["sudo apt-get -o Acquire::AllowInsecureRepositories=true update"],
        &["sudo apt-get update"]),
    row("conda", &["install"], &[Off::Flag(Some('k'), "--insecure")],
        &["conda install -k numpy", "conda install --insecure -c conda-forge numpy"],
        &["conda install -c conda-forge numpy"]),
    row("dnf", &[], &[Off::Flag(None, "--nogpgcheck"), Off::Value("--setopt", "gpgcheck=0"), Off::Value("--setopt", "sslverify=0"), Off::Value("--setopt", "sslverify=false")],
        &["sudo dnf install --nogpgcheck ./x.rpm", "sudo dnf --setopt=sslverify=0 install nginx"],
        &["sudo dnf install nginx", "sudo dnf --setopt=install_weak_deps=False install nginx"]),
    row("git", &[], &[Off::Value("-c", "http.sslverify=false")],
        &["git -c http.sslVerify=false clone https://git.example.com/x.git"],
        &["git -c http.postBuffer=524288000 clone https://git.example.com/x.git", "git clone https://git.example.com/x.git"]),
    row("npm", &[], &[Off::Value("--strict-ssl", "false")],
        &["npm install --strict-ssl=false", "npm ci --strict-ssl false"],
        &["npm install --strict-ssl=true", "npm ci"]),
    row("pip", &["download"], &[Off::Flag(None, "--trusted-host")],
        &["pip download --trusted-host pypi.example.com -d wheels requests"],
        &["pip download -d wheels requests"]),
    row("pip", &["install"], &[Off::Flag(None, "--trusted-host")],
        &["pip install --trusted-host pypi.example.com -r requirements.txt", "pip install -r requirements.txt --trusted-host=evil.example"],
        &["pip install -r requirements.txt", "pip install --index-url https://pypi.org/simple -r requirements.txt"]),
    row("pnpm", &[], &[Off::Value("--strict-ssl", "false")],
        &["pnpm install --strict-ssl=false"],
        &["pnpm install --frozen-lockfile"]),
    row("podman", &[], &[Off::Value("--tls-verify", "false")],
        &["podman pull --tls-verify=false registry.example.com/app:1"],
        &["podman pull registry.example.com/app:1", "podman pull --tls-verify=true registry.example.com/app:1"]),
    row("rpm", &[], &[Off::Flag(None, "--nosignature"), Off::Flag(None, "--nodigest")],
        &["sudo rpm -ivh --nosignature x.rpm"],
        &["sudo rpm -ivh x.rpm", "rpm -qa"]),
    row("skopeo", &[], &[Off::Value("--src-tls-verify", "false"), Off::Value("--tls-verify", "false")],
        &["skopeo copy --src-tls-verify=false docker://registry.example.com/app:1 dir:app"],
        &["skopeo copy docker://registry.example.com/app:1 dir:app"]),
    row("snap", &["install"], &[Off::Flag(None, "--dangerous")],
        &["sudo snap install --dangerous ./x.snap"],
        &["sudo snap install hello", "sudo snap install --classic code"]),
    row("uv", &["pip", "install"], &[Off::Flag(None, "--allow-insecure-host")],
        &["uv pip install --allow-insecure-host pypi.example.com -r requirements.txt"],
        &["uv pip install -r requirements.txt"]),
    row("yarn", &[], &[Off::Value("--strict-ssl", "false")],
        &["yarn install --strict-ssl false"],
        &["yarn install --frozen-lockfile"]),
    row("yum", &[], &[Off::Flag(None, "--nogpgcheck"), Off::Value("--setopt", "gpgcheck=0"), Off::Value("--setopt", "sslverify=0"), Off::Value("--setopt", "sslverify=false")],
        &["sudo yum install --nogpgcheck ./x.rpm"],
        &["sudo yum install nginx"]),
    row("zypper", &[], &[Off::Flag(None, "--no-gpg-checks"), Off::Flag(None, "--gpg-auto-import-keys")],
        &["sudo zypper --no-gpg-checks install nginx", "sudo zypper --gpg-auto-import-keys refresh"],
        &["sudo zypper install nginx"]),
];

/// Whether a variable's value turns its check off.
type TurnsOff = fn(&str) -> bool;

/// What turns a check off when it is in a fetching program's environment: its name, and
/// whether a value does (`GIT_SSL_NO_VERIFY=1`, `GOSUMDB=off`). Names in lower case.
const VARIABLES: &[(&str, TurnsOff)] = &[
    ("conda_ssl_verify", falsy),
    ("git_ssl_no_verify", truthy),
    ("goflags", |v| {
        v.split_whitespace().any(|f| f == "-insecure")
    }),
    ("goinsecure", |v| !v.is_empty()),
    ("gonosumcheck", truthy),
    ("gonosumdb", |v| v.split(',').any(|p| p.trim() == "*")),
    ("gosumdb", |v| v.eq_ignore_ascii_case("off")),
    ("node_tls_reject_unauthorized", |v| v == "0"),
    ("npm_config_strict_ssl", falsy),
    ("pip_trusted_host", |v| !v.is_empty()),
    ("uv_insecure_host", |v| !v.is_empty()),
    ("yarn_enable_strict_ssl", falsy),
];

fn falsy(value: &str) -> bool {
    matches!(
        value.to_ascii_lowercase().as_str(),
        "0" | "false" | "no" | "off"
    )
}

fn truthy(value: &str) -> bool {
    !value.is_empty() && !falsy(value)
}

/// The row that reads this command: among its program's rows whose words start its
/// positional words, the longest.
fn row_of(cmd: &Command) -> Option<(usize, &'static Row<&'static [Off]>)> {
    let program = cmd.program();
    let rows = || OPTIONS.iter().filter(move |row| row.program == program);
    // The values of the program's own options these rows read are no words (`apt-get -o
    // Acquire::AllowInsecureRepositories=true update`).
    let valued: Vec<&str> = rows()
        .flat_map(|row| row.then.iter())
        .filter_map(|off| match off {
            Off::Value(option, _) => Some(*option),
            Off::Flag(..) => None,
        })
        .collect();
    let mut words = Vec::new();
    let mut skip = false;
    for arg in cmd.args() {
        if std::mem::take(&mut skip) {
            continue;
        }
        if valued.contains(&arg.as_str()) || super::infra::VALUED.contains(&arg.as_str()) {
            skip = true;
        } else if !arg.starts_with('-') {
            words.push(arg.as_str());
        }
    }
    OPTIONS
        .iter()
        .enumerate()
        .filter(|(_, row)| {
            row.program == program
                && row.words.len() <= words.len()
                && words.iter().zip(row.words).all(|(w, want)| w == want)
        })
        .max_by_key(|(_, row)| row.words.len())
}

/// What of `offs` that `args` give, by its name: the option (`--nogpgcheck`,
/// `--strict-ssl`), or the setting an option's value names (`http.sslVerify` of `-c
/// http.sslVerify=false`).
fn given(offs: &[Off], args: &[String]) -> Option<String> {
    for (at, arg) in args.iter().enumerate() {
        if arg == "--" {
            return None;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value)),
            _ => (arg.as_str(), None),
        };
        for off in offs {
            match *off {
                Off::Flag(short, long) => {
                    let letter = short.is_some_and(|c| {
                        arg.len() > 1
                            && arg.starts_with('-')
                            && !arg.starts_with("--")
                            && arg[1..].contains(c)
                    });
                    if name == long || letter {
                        return Some(name.to_string());
                    }
                }
                Off::Value(option, off_value) => {
                    let value = inline.or_else(|| {
                        (name == option)
                            .then(|| args.get(at + 1).map(String::as_str))
                            .flatten()
                    });
                    if let Some(value) = value.filter(|v| v.eq_ignore_ascii_case(off_value))
                        && name == option
                    {
                        let setting = value.split_once('=').map(|(key, _)| key);
                        return Some(setting.unwrap_or(name).to_string());
                    }
                }
            }
        }
    }
    None
}

/// Does the program fetch packages or code: a package manager, a version control tool, a
/// project's runner, a downloader?
fn fetches(program: &str) -> bool {
    catalogue::program(program).is_some_and(|found| {
        [
            Class::Packages,
            Class::VersionControl,
            Class::ProjectRunner,
            Class::Downloader,
        ]
        .iter()
        .any(|class| found.is(*class))
    })
}

/// The variable that turns a check off in the command's environment: set on it, or exported
/// before it on the line (`export GOSUMDB=off && go mod download`).
fn variable<'a>(cmd: &'a Command, scan: &'a Scan<'_>) -> Option<&'a str> {
    let off = |(name, value): &(String, String)| {
        let lower = name.to_ascii_lowercase();
        VARIABLES
            .iter()
            .any(|(variable, turns_off)| *variable == lower && turns_off(value))
    };
    if let Some((name, _)) = cmd.assignments.iter().find(|pair| off(pair)) {
        return Some(name);
    }
    scan.line
        .commands
        .iter()
        .take_while(|other| !std::ptr::eq(*other, cmd))
        .filter(|other| other.program() == "export")
        .flat_map(|export| export.args())
        .find_map(|arg| {
            let (name, value) = arg.split_once('=')?;
            off(&(name.to_string(), value.to_string())).then_some(name)
        })
}

pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    let program = cmd.program();
    // Most commands have no row and set no variable: nothing is read for them.
    let by_option = OPTIONS
        .iter()
        .any(|row| row.program == program)
        .then(|| row_of(cmd).and_then(|(_, row)| given(row.then, cmd.args())))
        .flatten();
    // Only for a program that fetches is the line walked for an `export`.
    let may_set = || {
        !cmd.assignments.is_empty() || scan.line.commands.iter().any(|c| c.program() == "export")
    };
    let found = by_option.or_else(|| {
        (fetches(program) && may_set())
            .then(|| variable(cmd, scan))
            .flatten()
            .map(str::to_string)
    });
    let Some(name) = found else {
        return;
    };
    scan.network = true;
    scan.add(
        Risk::new(
            RuleId::InstallUnverified,
            Harm::Moderate,
            true,
            format!(
                "{program} fetches with a check turned off ({name}): what arrives may not be what was asked for, and it runs here"
            ),
        )
        .wish(Wish::new(Act::Install).naming(Name::one(&name))),
    );
}

#[cfg(test)]
pub(super) fn walked() -> Vec<super::rows::Walked> {
    super::rows::rows_of("unverified::OPTIONS", OPTIONS, judges).collect()
}

/// Does row `at` judge the line: it is the row for one of the line's commands, and the line
/// fetches with a check turned off?
#[cfg(test)]
fn judges(at: usize, line: &crate::shell::Line, found: &super::Assessment) -> bool {
    let picked = line
        .commands
        .iter()
        .any(|cmd| row_of(cmd).is_some_and(|(index, _)| index == at));
    picked
        && found
            .risks
            .iter()
            .any(|r| r.rule == RuleId::InstallUnverified)
}
