//! git-extras: its commands that push, delete on the remote, throw away uncommitted work,
//! rewrite history or send the repository off, read as the git commands they run
//! (`git magic -p` is a commit and `git push`, `git delete-branch x` is `git branch -D x` and
//! `git push origin --delete x`, `git sync` is `git reset --hard` and `git clean`), and so are
//! other packages' pushes (`git lfs push`, `git p4 submit`). What the
//! rest of git-extras does stays in the work folder (`git squash`, `git lock`) or only shows
//! (`git summary`, `git standup`). `git force-clone` is read as the clone it is: it resets only
//! a repository already at its destination, which is almost never where an agent clones.

use super::{Scan, discard, push, url_host};
use crate::law::command::has_flag;
use crate::law::rule::RuleId;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// Options of these commands that take a value, so it is no branch or tag.
const VALUED: &[&str] = &[
    "-m", "-r", "--remote", "-b", "--branch", "--prefix", "-a", "--alias",
];

/// The words after the subcommand that are not options or their values.
fn operands(args: &[String]) -> Vec<&str> {
    let mut out = Vec::new();
    let mut skip = false;
    for arg in args {
        if skip {
            skip = false;
        } else if VALUED.contains(&arg.as_str()) {
            skip = true;
        } else if !arg.starts_with('-') {
            out.push(arg.as_str());
        }
    }
    out
}

/// The remote `-r NAME`/`--remote NAME` names, or `origin`.
fn remote_of(args: &[String]) -> String {
    args.iter()
        .position(|arg| arg == "-r" || arg == "--remote")
        .and_then(|at| args.get(at + 1))
        .filter(|name| !name.starts_with('-'))
        .cloned()
        .unwrap_or_else(|| "origin".to_string())
}

fn owned(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| (*word).to_string()).collect()
}

/// Judges `git SUB ARGS` as git-extras' SUB, when it is one that reaches past the work folder
/// or throws work away.
pub(super) fn judge(sub: &str, args: &[String], folder: &str, scan: &mut Scan<'_>) {
    let names = operands(args);
    match sub {
        // `-p` pushes what it commits, `-f` force-pushes it.
        "magic" => {
            if has_flag(args, Some('f'), &["force"]) {
                push(&owned(&["--force"]), folder, scan);
            } else if has_flag(args, Some('p'), &["push"]) {
                push(&[], folder, scan);
            }
        }
        "delete-branch" => {
            let mut spec = owned(&["origin", "--delete"]);
            spec.extend(owned(&names));
            push(&spec, folder, scan);
        }
        "delete-tag" => {
            let mut spec = owned(&["origin"]);
            spec.extend(names.iter().map(|tag| format!(":refs/tags/{tag}")));
            push(&spec, folder, scan);
        }
        // `git rename-branch [OLD] NEW`: the old name deleted on origin, the new one pushed.
        "rename-branch" | "rename-tag" => {
            let tags = sub == "rename-tag";
            let reference = |name: &str| {
                if tags {
                    format!("refs/tags/{name}")
                } else {
                    name.to_string()
                }
            };
            match names.as_slice() {
                [old, new, ..] => {
                    let spec = vec![
                        "origin".to_string(),
                        format!(":{}", reference(old)),
                        reference(new),
                    ];
                    push(&spec, folder, scan);
                }
                [new] => scan.add(
                    Risk::new(
                        RuleId::GitDeleteBranch,
                        Harm::Severe,
                        true,
                        format!("rename the current branch to {new} on origin, deleting its old name there"),
                    )
                    .way_out()
                    .wish(Wish::new(Act::Delete).naming(Name::one(*new))),
                ),
                [] => {}
            }
        }
        // Commits, tags and pushes the release with its tags.
        "release" => push(&[remote_of(args), "--tags".to_string()], folder, scan),
        "gh-pages" => push(&owned(&["origin", "gh-pages"]), folder, scan),
        // `git publish [BRANCH]`: the branch (the current one) pushed to origin, upstream set.
        "publish" => push(
            &owned(&[&["origin"], &names[..names.len().min(1)]].concat()),
            folder,
            scan,
        ),
        // Other packages' git subcommands that push: `git lfs push REMOTE [REF…]` sends the
        // large files to the remote, `git p4 submit` the commits to Perforce.
        "lfs" if names.first() == Some(&"push") => {
            push(&owned(names.get(1..).unwrap_or(&[])), folder, scan);
        }
        "p4" if names.first() == Some(&"submit") => push(&[], folder, scan),
        // With `-r [REMOTE]`, the new branch is pushed to the remote too (origin when `-r`
        // is followed by the branch alone).
        "create-branch" | "feature" if has_flag(args, Some('r'), &["remote"]) => {
            let words: Vec<&str> = args
                .iter()
                .map(String::as_str)
                .filter(|arg| !arg.starts_with('-') && *arg != "finish")
                .collect();
            let (remote, branch) = match words.as_slice() {
                [.., remote, branch] => (remote.to_string(), *branch),
                [branch] => ("origin".to_string(), *branch),
                [] => return,
            };
            push(&[remote, branch.to_string()], folder, scan);
        }
        "obliterate" | "reauthor" => scan.add(
            Risk::new(
                RuleId::GitRewriteHistory,
                Harm::Severe,
                false,
                format!("rewrite the repository's whole history (git {sub})"),
            )
            .wish(Wish::new(Act::ForcePush)),
        ),
        // Reset to the remote branch and clean, unless `--soft`.
        "sync" if !has_flag(args, Some('s'), &["soft"]) => discard("git sync", folder, scan),
        "clear" | "clear-soft" => discard(&format!("git {sub}"), folder, scan),
        "undo" if has_flag(args, Some('h'), &["hard"]) => discard("git undo --hard", folder, scan),
        "paste" => {
            scan.network = true;
            scan.add(
                Risk::new(
                    RuleId::EgressService,
                    Harm::Moderate,
                    true,
                    "git paste sends the branch's patches to a paste site (pastebinit)",
                )
                .way_out()
                .wish(Wish::new(Act::Send).naming(Name::one("pastebin"))),
            );
        }
        // Copies the named files, or those a commit changed, to the remote's host.
        "scp" => {
            scan.network = true;
            let remote = names.first().copied().unwrap_or("origin");
            let host = scan
                .facts
                .remotes(folder)
                .unwrap_or_default()
                .into_iter()
                .find(|known| known.name == remote)
                .and_then(|known| url_host(&known.url));
            let (to, name) = match &host {
                Some(host) => (host.clone(), Name::AnyOf(super::host_names(host))),
                None => (format!("the host of {remote}"), Name::one(remote)),
            };
            scan.add(
                Risk::new(
                    RuleId::EgressSend,
                    Harm::Moderate,
                    true,
                    format!("copy files with scp to {to} (git scp)"),
                )
                .way_out()
                .wish(Wish::new(Act::Send).naming(name)),
            );
        }
        _ => {}
    }
}
