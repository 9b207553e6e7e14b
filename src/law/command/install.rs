//! Installs and publishing. A package the project's manifests declare installs without a
//! word; a look-alike of a popular or declared package is NEVER; publishing is for others to
//! pull and scores three.

use super::{Scan, has_flag};
use crate::law::rule::RuleId;
use crate::shell::Command;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// (program, subcommand words): what installs named packages. The packages are the
/// positional words after the subcommand.
#[rustfmt::skip]
const INSTALLERS: &[(&str, &[&str])] = &[
    ("npm", &["install"]), ("npm", &["i"]), ("npm", &["add"]), ("npm", &["isntall"]),
    ("pnpm", &["add"]), ("pnpm", &["install"]), ("pnpm", &["i"]),
    ("yarn", &["add"]), ("yarn", &["global", "add"]),
    ("bun", &["add"]), ("bun", &["install"]), ("bun", &["i"]),
    ("pip", &["install"]), ("pipx", &["install"]),
    ("uv", &["pip", "install"]), ("uv", &["add"]), ("uv", &["tool", "install"]),
    ("poetry", &["add"]), ("pdm", &["add"]), ("conda", &["install"]), ("mamba", &["install"]),
    ("cargo", &["add"]), ("cargo", &["install"]),
    ("go", &["get"]), ("go", &["install"]),
    ("gem", &["install"]), ("bundle", &["add"]),
    ("brew", &["install"]), ("brew", &["reinstall"]),
    ("apt", &["install"]), ("apt-get", &["install"]), ("yum", &["install"]), ("dnf", &["install"]),
    ("apk", &["add"]), ("pacman", &["-S"]), ("zypper", &["install"]), ("snap", &["install"]),
    ("port", &["install"]), ("nix-env", &["-i"]), ("composer", &["require"]), ("dotnet", &["add", "*", "package"]),
];

/// Options whose value is a separate word, per installer family.
const VALUED: &[&str] = &[
    "-r",
    "--requirement",
    "-c",
    "--constraint",
    "-e",
    "--editable",
    "-i",
    "--index-url",
    "--extra-index-url",
    "-t",
    "--target",
    "--prefix",
    "--root",
    "-f",
    "--find-links",
    "--registry",
    "--tag",
    "--python",
    "-p",
    "--version",
    "--features",
    "-F",
    "--git",
    "--branch",
    "--rev",
    "--path",
    "--source",
    "--group",
    "-G",
];

/// (program, subcommand words, rule, what it publishes).
#[rustfmt::skip]
const PUBLISHERS: &[(&str, &[&str], RuleId, &str)] = &[
    ("npm", &["publish"], RuleId::PublishPackage, "publish the package to npm"),
    ("pnpm", &["publish"], RuleId::PublishPackage, "publish the package to npm"),
    ("yarn", &["publish"], RuleId::PublishPackage, "publish the package to npm"),
    ("yarn", &["npm", "publish"], RuleId::PublishPackage, "publish the package to npm"),
    ("bun", &["publish"], RuleId::PublishPackage, "publish the package to npm"),
    ("cargo", &["publish"], RuleId::PublishPackage, "publish the crate to crates.io"),
    ("twine", &["upload"], RuleId::PublishPackage, "upload the package to PyPI"),
    ("poetry", &["publish"], RuleId::PublishPackage, "publish the package to PyPI"),
    ("uv", &["publish"], RuleId::PublishPackage, "publish the package to PyPI"),
    ("flit", &["publish"], RuleId::PublishPackage, "publish the package to PyPI"),
    ("hatch", &["publish"], RuleId::PublishPackage, "publish the package to PyPI"),
    ("gem", &["push"], RuleId::PublishPackage, "publish the gem to RubyGems"),
    ("dotnet", &["nuget", "push"], RuleId::PublishPackage, "publish the package to NuGet"),
    ("mvn", &["deploy"], RuleId::PublishPackage, "deploy the artifact to a Maven repository"),
    ("docker", &["push"], RuleId::PublishImage, "push an image to a registry, for others to pull"),
    ("podman", &["push"], RuleId::PublishImage, "push an image to a registry, for others to pull"),
    ("docker", &["image", "push"], RuleId::PublishImage, "push an image to a registry, for others to pull"),
    ("docker", &["buildx", "build", "--push"], RuleId::PublishImage, "push an image to a registry, for others to pull"),
    ("gh", &["release", "create"], RuleId::PublishRelease, "create a public release"),
    ("gh", &["release", "upload"], RuleId::PublishRelease, "upload files to a public release"),
    ("gh", &["repo", "create"], RuleId::PublishRelease, "create a repository on GitHub"),
    ("gh", &["gist", "create"], RuleId::PublishRelease, "publish a gist"),
    ("gh", &["gist", "new"], RuleId::PublishRelease, "publish a gist"),
];

/// Steps on a forge that speak for the person or merge their work: moderate and lasting,
/// so they go before reading and ask after it (words to other people after reading are
/// shown each time). (program, subcommand words, rule, act, what it does.)
#[rustfmt::skip]
const SPEAKERS: &[(&str, &[&str], RuleId, Act, &str)] = &[
    ("gh", &["pr", "create"], RuleId::ForgeSpeaks, Act::Send, "open a pull request in the person's name"),
    ("gh", &["pr", "comment"], RuleId::ForgeSpeaks, Act::Send, "comment on a pull request in the person's name"),
    ("gh", &["pr", "review"], RuleId::ForgeSpeaks, Act::Send, "review a pull request in the person's name"),
    ("gh", &["issue", "create"], RuleId::ForgeSpeaks, Act::Send, "open an issue in the person's name"),
    ("gh", &["issue", "comment"], RuleId::ForgeSpeaks, Act::Send, "comment on an issue in the person's name"),
    ("gh", &["pr", "merge"], RuleId::ForgeMerge, Act::Merge, "merge a pull request into a branch others share"),
    ("glab", &["mr", "create"], RuleId::ForgeSpeaks, Act::Send, "open a merge request in the person's name"),
    ("glab", &["mr", "merge"], RuleId::ForgeMerge, Act::Merge, "merge a merge request into a branch others share"),
    ("glab", &["issue", "create"], RuleId::ForgeSpeaks, Act::Send, "open an issue in the person's name"),
];

/// Do these rules judge this command (an installer, a publisher or a forge's line matches
/// it)? Then the program's own words leave it to them: `npm install` with nothing named
/// installs what the manifests declare.
pub(super) fn reads(cmd: &Command) -> bool {
    let program = cmd.program();
    let args = cmd.args();
    let (program, args) = match (program.as_str(), args.first(), args.get(1)) {
        ("python", Some(m), Some(module)) if m == "-m" => {
            (module.clone(), args.get(2..).unwrap_or(&[]))
        }
        _ => (program, args),
    };
    let lines = INSTALLERS
        .iter()
        .map(|(name, pattern)| (*name, *pattern))
        .chain(
            PUBLISHERS
                .iter()
                .map(|(name, pattern, ..)| (*name, *pattern)),
        )
        .chain(SPEAKERS.iter().map(|(name, pattern, ..)| (*name, *pattern)));
    lines
        .filter(|(name, _)| *name == program)
        .any(|(_, pattern)| starts_with(args, pattern))
}

/// Is this program one these rules install with (`npm`, `pip`, `brew`, `cargo`…)? Its
/// install words are theirs: what they don't flag installs what the manifests declare or
/// what is already there (`poetry install`, `cargo update -p serde`, `brew upgrade`).
/// Do the forge's rules (`gh pr create`, `glab mr merge`) read this program?
pub(super) fn is_forge(program: &str) -> bool {
    SPEAKERS.iter().any(|(name, ..)| *name == program)
}

pub(super) fn is_installer(program: &str) -> bool {
    INSTALLERS.iter().any(|(name, _)| *name == program)
}

fn forge(program: &str, args: &[String], scan: &mut Scan<'_>) {
    let words: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|w| !w.starts_with('-'))
        .collect();
    // `gh pr create --web`, `glab mr create -w`: the form opens in the person's browser, and
    // they are the ones who send it.
    let in_browser = args.iter().any(|a| a == "--web" || a == "-w");
    for (name, pattern, rule, act, reason) in SPEAKERS {
        if *name == program
            && pattern.len() <= words.len()
            && pattern.iter().zip(&words).all(|(want, got)| want == got)
        {
            if in_browser && pattern.last() == Some(&"create") {
                return;
            }
            scan.network = true;
            scan.add(
                Risk::new(*rule, Harm::Moderate, true, (*reason).to_string())
                    .way_out()
                    .wish(Wish::new(*act)),
            );
            return;
        }
    }
}

pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    let program = cmd.program();
    let args = cmd.args();
    forge(&program, args, scan);
    let program = match program.as_str() {
        // `python -m pip install x`
        "python" | "python3" if args.first().is_some_and(|a| a == "-m") => match args.get(1) {
            Some(module) => module.clone(),
            None => return,
        },
        _ => program,
    };
    let args = if cmd.program().starts_with("python") {
        args.get(2..).unwrap_or(&[])
    } else {
        args
    };
    publish(&program, cmd, args, scan);
    let Some(pattern) = INSTALLERS
        .iter()
        .filter(|(name, _)| *name == program)
        .map(|(_, pattern)| *pattern)
        .find(|pattern| starts_with(args, pattern))
    else {
        return;
    };
    scan.network = true;
    let global = has_flag(args, Some('g'), &["global", "user"])
        || matches!(
            program.as_str(),
            "brew"
                | "apt"
                | "apt-get"
                | "yum"
                | "dnf"
                | "apk"
                | "pacman"
                | "zypper"
                | "snap"
                | "port"
                | "pipx"
        );
    let declared = scan.facts.declared(scan.place.cwd);
    for spec in packages(args.get(pattern.len()..).unwrap_or(&[])) {
        if let Some(reason) = not_a_name(spec) {
            let host = super::net::url_host(spec);
            let mut wish = Wish::new(Act::Install);
            if let Some(host) = &host {
                wish = wish.naming(Name::AnyOf(super::host_names(host)));
            }
            scan.add(
                Risk::new(
                    RuleId::InstallUndeclared,
                    Harm::Moderate,
                    true,
                    format!("install {reason} {spec}"),
                )
                .wish(wish),
            );
            continue;
        }
        let name = package_name(spec);
        let known = declared.as_deref().unwrap_or(&[]);
        if known.iter().any(|d| d.eq_ignore_ascii_case(&name)) {
            continue;
        }
        let found = match ecosystem(&program) {
            Some(ecosystem) => crate::lookalike::lookalike_in(ecosystem, &name, known),
            None => None,
        };
        if let Some(real) = found {
            scan.add(
                Risk::new(
                    RuleId::InstallLookalike,
                    Harm::Severe,
                    true,
                    format!("install {name}, a look-alike of the package {real}"),
                )
                .never(),
            );
            continue;
        }
        let where_ = if global { " system-wide" } else { "" };
        scan.add(
            Risk::new(
                RuleId::InstallUndeclared,
                Harm::Moderate,
                true,
                format!("install {name}{where_}, which the project's manifests don't list"),
            )
            .wish(Wish::new(Act::Install).naming(Name::one(&name))),
        );
    }
}

/// The registry an installer draws from, for look-alike names.
fn ecosystem(program: &str) -> Option<crate::lookalike::Ecosystem> {
    use crate::lookalike::Ecosystem;
    Some(match program {
        "npm" | "pnpm" | "yarn" | "bun" => Ecosystem::Npm,
        "pip" | "pip3" | "pipx" | "uv" | "poetry" | "pdm" => Ecosystem::Pypi,
        "cargo" => Ecosystem::Crates,
        "go" => Ecosystem::Go,
        "gem" | "bundle" => Ecosystem::Gem,
        "brew" => Ecosystem::Brew,
        _ => return None,
    })
}

fn publish(program: &str, cmd: &Command, args: &[String], scan: &mut Scan<'_>) {
    let words: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|w| !w.starts_with('-') || *w == "--push")
        .collect();
    for (name, pattern, rule, reason) in PUBLISHERS {
        if *name != program {
            continue;
        }
        let matches = if pattern.contains(&"--push") {
            args.iter().any(|a| a == "--push") && words.first() == pattern.first()
        } else {
            pattern.len() <= words.len()
                && pattern.iter().zip(&words).all(|(want, got)| want == got)
        };
        if matches && !has_flag(args, None, &["dry-run"]) {
            let _ = cmd;
            scan.network = true;
            scan.add(
                Risk::new(*rule, Harm::Severe, true, (*reason).to_string())
                    .way_out()
                    .wish(Wish::new(Act::Publish)),
            );
            return;
        }
    }
}

fn starts_with(args: &[String], pattern: &[&str]) -> bool {
    let words: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|w| !w.starts_with('-') || pattern.contains(w))
        .collect();
    pattern.len() <= words.len()
        && pattern
            .iter()
            .zip(&words)
            .all(|(want, got)| *want == "*" || want == got)
}

/// The package specs after the subcommand, without options and their values.
fn packages(args: &[String]) -> Vec<&str> {
    let mut out = Vec::new();
    let mut skip = false;
    for arg in args {
        if skip {
            skip = false;
            continue;
        }
        if VALUED.contains(&arg.as_str()) {
            skip = true;
        } else if !arg.starts_with('-') && !arg.is_empty() {
            out.push(arg.as_str());
        }
    }
    out
}

/// A spec that is a path, a URL or a file rather than a registry name.
fn not_a_name(spec: &str) -> Option<&'static str> {
    if spec.contains("://") || spec.starts_with("git+") || spec.starts_with("git@") {
        Some("from the address")
    } else if spec.starts_with('.')
        || spec.starts_with('/')
        || spec.starts_with("file:")
        || spec.ends_with(".whl")
        || spec.ends_with(".tgz")
        || spec.ends_with(".tar.gz")
    {
        Some("from the local file")
    } else {
        None
    }
}

/// `lodash@4`, `requests>=2`, `serde@1.0`, `@scope/pkg@1` → the bare, lower-case name.
fn package_name(spec: &str) -> String {
    let (scope, rest) = match spec.strip_prefix('@') {
        Some(rest) => match rest.split_once('/') {
            Some((scope, name)) => (format!("@{scope}/"), name),
            None => (String::new(), spec),
        },
        None => (String::new(), spec),
    };
    let end = rest
        .find(['@', '=', '<', '>', '~', '!', '[', ';', ' '])
        .unwrap_or(rest.len());
    let name = rest.get(..end).unwrap_or(rest);
    // go modules carry a path; keep it whole.
    format!("{scope}{name}").to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_specs_reduce_to_names() {
        for (spec, want) in [
            ("lodash@4.17.21", "lodash"),
            ("requests>=2.31", "requests"),
            ("@types/node@20", "@types/node"),
            ("Flask[async]", "flask"),
            ("github.com/spf13/cobra@latest", "github.com/spf13/cobra"),
        ] {
            assert_eq!(package_name(spec), want, "{spec}");
        }
    }
}
