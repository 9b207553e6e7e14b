//! Version control other than git: Mercurial, Subversion, Fossil, Bazaar and Breezy, Darcs,
//! CVS, Perforce, Pijul, Jujutsu, Sapling and RCS. The same three stops git has: what
//! publishes recorded work to a server (a push, or a commit that goes straight to one), what
//! throws away uncommitted work, and what destroys recorded history. git itself, and the
//! git-extras commands, are git.rs's.
//!
//! warden's facts know git's work tree, not these: a discard asks whatever the tree holds.

use super::table::{Row, row};
use super::{Scan, has_flag};
use crate::law::rule::RuleId;
use crate::shell::Command;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Wish};

/// What a subcommand does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Effect {
    /// Publishes recorded work to a server, where others have it.
    Push,
    /// Publishes and replaces what the server has (`bzr push --overwrite`).
    Overwrite,
    /// Throws away uncommitted work in the working copy.
    Discard,
    /// Destroys recorded history (`hg strip`, `darcs obliterate`, `p4 obliterate -y`,
    /// `rcs -o`); on a server, for everyone.
    History { server: bool },
}

/// When a row's words are not all it needs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum When {
    Always,
    /// With this short or one of these long options.
    Flag(Option<char>, &'static [&'static str]),
    /// With an option starting so (RCS's `-fREV`, `-oREV`).
    OptionStarting(&'static str),
    /// Without any of these short options (`p4 revert -n` only previews).
    NotFlags(&'static str),
    /// With an operand that is a URL: done on the server (`svn delete URL`).
    Url,
    /// With no operand after its words: the whole working copy (`fossil revert`).
    Whole,
}

type Vcs = (Effect, When);

const PUSH: Vcs = (Effect::Push, When::Always);
const ON_SERVER: Vcs = (Effect::Push, When::Url);
const DISCARD: Vcs = (Effect::Discard, When::Always);
const LOCAL_HISTORY: Vcs = (Effect::History { server: false }, When::Always);

/// Each tool's subcommands that reach a server, discard work or destroy history; the
/// longest row that matches a command's first words decides. Sorted by program.
#[rustfmt::skip]
pub(super) const TABLE: &[Row<Vcs>] = &[
    row("brz", &["push"], PUSH, &["brz push lp:~me/project/fix"], &["brz pull", "brz status"]),
    row("bzr", &["clean-tree"], DISCARD, &["bzr clean-tree --force"], &["bzr status --unknown"]),
    row("bzr", &["push"], PUSH, &["bzr push lp:~me/project/fix"], &["bzr pull", "bzr push --overwrite"]),
    row("bzr", &["push"], (Effect::Overwrite, When::Flag(None, &["overwrite"])), &["bzr push --overwrite bzr+ssh://host/srv/project"], &["bzr push bzr+ssh://host/srv/project"]),
    row("bzr", &["revert"], (Effect::Discard, When::Whole), &["bzr revert"], &["bzr revert src/main.c", "bzr diff"]),
    row("bzr", &["uncommit"], LOCAL_HISTORY, &["bzr uncommit --force"], &["bzr log -l 1"]),
    row("co", &[], (Effect::Discard, When::OptionStarting("-f")), &["co -f -l path/to/file", "co -f1.2 main.c"], &["co -l path/to/file", "co -r1.2 main.c"]),
    row("cvs", &["admin"], (Effect::History { server: true }, When::OptionStarting("-o")), &["cvs admin -o1.2:1.4 main.c"], &["cvs admin -kb logo.png", "cvs log main.c"]),
    row("cvs", &["ci"], PUSH, &["cvs ci -m 'fix' main.c"], &["cvs diff main.c"]),
    row("cvs", &["commit"], PUSH, &["cvs commit -m 'fix the build'"], &["cvs status", "cvs update"]),
    row("cvs", &["import"], PUSH, &["cvs import -m 'first' project vendor start"], &["cvs checkout project"]),
    row("cvs", &["update"], (Effect::Discard, When::Flag(Some('C'), &[])), &["cvs update -C", "cvs update -C -d main.c"], &["cvs update -d", "cvs -n update"]),
    row("darcs", &["obliterate"], LOCAL_HISTORY, &["darcs obliterate -a --patch 'fix'"], &["darcs log --last 3"]),
    row("darcs", &["push"], PUSH, &["darcs push -a user@host:repo"], &["darcs pull -a"]),
    row("darcs", &["revert"], DISCARD, &["darcs revert -a"], &["darcs whatsnew"]),
    row("darcs", &["send"], PUSH, &["darcs send --to=dev@example.com -a"], &["darcs diff"]),
    row("darcs", &["unpull"], LOCAL_HISTORY, &["darcs unpull -a"], &["darcs pull --dry-run"]),
    // Versioned data and databases: a push sends what they record to their remote.
    row("dolt", &["push"], PUSH, &["dolt push origin main"], &["dolt pull origin main", "dolt status"]),
    row("dvc", &["push"], PUSH, &["dvc push", "dvc push -r storage data/model.pkl.dvc"], &["dvc pull", "dvc status --cloud"]),
    row("fossil", &["clean"], DISCARD, &["fossil clean --force"], &["fossil extras", "fossil clean --dry-run"]),
    row("fossil", &["purge", "checkins"], LOCAL_HISTORY, &["fossil purge checkins abc123"], &["fossil purge list"]),
    row("fossil", &["push"], PUSH, &["fossil push", "fossil push https://fossil.example.com/repo"], &["fossil pull"]),
    row("fossil", &["revert"], (Effect::Discard, When::Whole), &["fossil revert"], &["fossil revert src/main.c", "fossil changes"]),
    row("fossil", &["sync"], PUSH, &["fossil sync"], &["fossil pull", "fossil status"]),
    row("hg", &["clean"], DISCARD, &["hg clean --all"], &["hg status --unknown"]),
    row("hg", &["prune"], LOCAL_HISTORY, &["hg prune -r 5"], &["hg log -r 5"]),
    row("hg", &["purge"], DISCARD, &["hg purge", "hg purge --all"], &["hg status --ignored"]),
    row("hg", &["push"], PUSH, &["hg push", "hg push -r default ssh://hg@example.com/repo"], &["hg outgoing", "hg pull -u"]),
    row("hg", &["revert"], (Effect::Discard, When::Flag(Some('a'), &["all"])), &["hg revert --all", "hg revert -a --no-backup"], &["hg revert src/main.py", "hg diff"]),
    row("hg", &["rollback"], LOCAL_HISTORY, &["hg rollback"], &["hg log -l 1"]),
    row("hg", &["strip"], LOCAL_HISTORY, &["hg strip -r 5", "hg strip --keep tip"], &["hg log -r tip"]),
    row("hg", &["up"], (Effect::Discard, When::Flag(Some('C'), &["clean"])), &["hg up -C default"], &["hg up default"]),
    row("hg", &["update"], (Effect::Discard, When::Flag(Some('C'), &["clean"])), &["hg update -C", "hg update --clean default"], &["hg update default", "hg update"]),
    row("jj", &["git", "push"], PUSH, &["jj git push", "jj git push --bookmark main"], &["jj git fetch", "jj git push --dry-run"]),
    row("p4", &["clean"], (Effect::Discard, When::NotFlags("n")), &["p4 clean //depot/project/..."], &["p4 clean -n //depot/project/...", "p4 opened"]),
    row("p4", &["obliterate"], (Effect::History { server: true }, When::Flag(Some('y'), &[])), &["p4 obliterate -y //depot/old/..."], &["p4 obliterate //depot/old/...", "p4 files //depot/old/..."]),
    row("p4", &["revert"], (Effect::Discard, When::NotFlags("an")), &["p4 revert //depot/project/...", "p4 revert -c 1234 //..."], &["p4 revert -a //...", "p4 revert -n //..."]),
    row("p4", &["submit"], PUSH, &["p4 submit -d 'fix the build'"], &["p4 changes -m 5", "p4 opened"]),
    row("p4", &["sync"], (Effect::Discard, When::Flag(Some('f'), &[])), &["p4 sync -f //depot/project/..."], &["p4 sync //depot/project/..."]),
    row("pijul", &["push"], PUSH, &["pijul push user@host:repo"], &["pijul pull"]),
    row("pijul", &["reset"], DISCARD, &["pijul reset"], &["pijul diff"]),
    row("rcs", &[], (Effect::History { server: false }, When::OptionStarting("-o")), &["rcs -o1.2 main.c", "rcs -o1.2:1.5 main.c"], &["rcs -l main.c", "rcs -u main.c"]),
    row("sl", &["goto"], (Effect::Discard, When::Flag(Some('C'), &["clean"])), &["sl goto --clean main"], &["sl goto main", "sl -l"]),
    row("sl", &["purge"], DISCARD, &["sl purge --files"], &["sl status"]),
    row("sl", &["push"], PUSH, &["sl push --to main"], &["sl pull", "sl"]),
    row("sl", &["revert"], (Effect::Discard, When::Flag(Some('a'), &["all"])), &["sl revert --all"], &["sl revert src/main.rs"]),
    row("svn", &["ci"], PUSH, &["svn ci -m 'fix'"], &["svn st"]),
    row("svn", &["cleanup"], (Effect::Discard, When::Flag(None, &["remove-unversioned", "remove-ignored"])), &["svn cleanup --remove-unversioned"], &["svn cleanup", "svn status"]),
    row("svn", &["commit"], PUSH, &["svn commit -m 'fix the build'"], &["svn status", "svn diff"]),
    row("svn", &["copy"], ON_SERVER, &["svn copy ^/trunk https://svn.example.com/repo/tags/1.0 -m 'tag 1.0'"], &["svn copy main.c main2.c"]),
    row("svn", &["cp"], ON_SERVER, &["svn cp https://svn.example.com/repo/trunk https://svn.example.com/repo/branches/x -m x"], &["svn cp a.c b.c"]),
    row("svn", &["del"], ON_SERVER, &["svn del https://svn.example.com/repo/branches/old -m 'old'"], &["svn del old.c"]),
    row("svn", &["delete"], ON_SERVER, &["svn delete https://svn.example.com/repo/trunk/x -m 'remove x'"], &["svn delete old.c", "svn log https://svn.example.com/repo"]),
    row("svn", &["import"], PUSH, &["svn import project https://svn.example.com/repo/project -m 'first'"], &["svn export https://svn.example.com/repo/project"]),
    row("svn", &["mkdir"], ON_SERVER, &["svn mkdir https://svn.example.com/repo/branches -m 'branches'"], &["svn mkdir docs"]),
    row("svn", &["move"], ON_SERVER, &["svn move https://svn.example.com/repo/a https://svn.example.com/repo/b -m mv"], &["svn move a.c b.c"]),
    row("svn", &["mv"], ON_SERVER, &["svn mv https://svn.example.com/repo/a https://svn.example.com/repo/b -m mv"], &["svn mv a.c b.c"]),
    row("svn", &["remove"], ON_SERVER, &["svn remove https://svn.example.com/repo/x -m x"], &["svn remove x.c"]),
    row("svn", &["revert"], (Effect::Discard, When::Flag(Some('R'), &["recursive", "depth"])), &["svn revert -R .", "svn revert --depth=infinity ."], &["svn revert main.c", "svn diff"]),
    row("svn", &["rm"], ON_SERVER, &["svn rm https://svn.example.com/repo/x -m x"], &["svn rm x.c"]),
];

/// Each tool's options that take a separate value, before its subcommand or after it
/// (`p4 -c client submit`, `hg -R repo push`, `cvs -d ROOT commit -m msg`): the value is no
/// subcommand word or operand. Sorted by program.
#[rustfmt::skip]
const VALUED: &[(&str, &[&str])] = &[
    ("brz", &["-d", "--directory", "-m", "--message", "-r", "--revision", "-F", "--file"]),
    ("bzr", &["-d", "--directory", "-m", "--message", "-r", "--revision", "-F", "--file"]),
    ("cvs", &["-d", "-z", "-T", "-e", "-s", "-m", "-r", "-D", "-k", "-j", "-F"]),
    ("darcs", &["-p", "--patch", "-m", "--name", "--to", "--repodir", "--author", "-A"]),
    ("fossil", &["-R", "--repository", "--chdir", "-m", "--comment", "-M", "--message-file", "--branch", "--tag", "--user", "-U"]),
    ("hg", &["-R", "--repository", "--cwd", "--config", "--encoding", "-r", "--rev", "-b", "--branch", "-m", "--message", "-e", "--ssh", "-l", "--logfile", "-u", "--user", "-d", "--date", "-B", "--bookmark"]),
    ("jj", &["-R", "--repository", "--at-op", "--at-operation", "--config", "--color", "-b", "--bookmark", "-r", "--revision", "-c", "--change", "--remote"]),
    ("p4", &["-c", "-C", "-d", "-H", "-p", "-P", "-u", "-x", "-z", "-Q", "-L", "-r", "-m", "-e"]),
    ("pijul", &["--repository", "--channel", "-m", "--message", "--from-channel", "--to-channel"]),
    ("sl", &["-R", "--repository", "--cwd", "--config", "-r", "--rev", "--to", "-d", "--dest", "-B", "--bookmark", "-m", "--message"]),
    ("svn", &["-m", "--message", "-r", "--revision", "-F", "--file", "--depth", "--username", "--password", "-c", "--change", "--targets", "--config-dir", "--config-option", "--editor-cmd", "--encoding", "--with-revprop", "--accept", "--set-depth"]),
];

/// The words of a command that are not options or their values.
fn operands<'a>(program: &str, args: &'a [String]) -> Vec<&'a str> {
    let valued = VALUED
        .binary_search_by(|(name, _)| crate::intent::words::cmp_word(name, program))
        .ok()
        .and_then(|at| VALUED.get(at))
        .map_or(&[][..], |(_, valued)| *valued);
    let mut out = Vec::new();
    let mut skip = false;
    let mut options_done = false;
    for arg in args {
        if skip {
            skip = false;
        } else if options_done || arg == "-" || !arg.starts_with('-') {
            out.push(arg.as_str());
        } else if arg == "--" {
            options_done = true;
        } else if valued.contains(&arg.as_str()) {
            skip = true;
        }
    }
    out
}

/// The row for a command, and where it is in the table: among the rows of its program whose
/// words start its positional words and whose condition holds, the longest (the last of
/// equal length, so a row with a condition follows the one without it).
pub(super) fn row_of(cmd: &Command) -> Option<(usize, &'static Row<Vcs>)> {
    let program = cmd.program();
    // The program's rows, found in the sorted table: every other command is done here.
    let from = TABLE.partition_point(|row| row.program < program);
    let to = from
        + TABLE
            .get(from..)?
            .partition_point(|row| row.program == program);
    if from == to {
        return None;
    }
    let args = cmd.args();
    if has_flag(args, None, &["dry-run", "help"]) {
        return None;
    }
    let words = operands(program, args);
    let mut best: Option<(usize, &'static Row<Vcs>)> = None;
    for (at, row) in TABLE.iter().enumerate().take(to).skip(from) {
        if row.words.len() > words.len()
            || !row.words.iter().zip(&words).all(|(want, got)| want == got)
        {
            continue;
        }
        let rest = words.get(row.words.len()..).unwrap_or(&[]);
        let holds = match row.then.1 {
            When::Always => true,
            When::Flag(short, long) => has_flag(args, short, long),
            When::OptionStarting(start) => args.iter().any(|arg| arg.starts_with(start)),
            When::NotFlags(shorts) => !shorts.chars().any(|c| has_flag(args, Some(c), &[])),
            When::Url => rest.iter().any(|word| word.contains("://")),
            When::Whole => rest.is_empty(),
        };
        if holds && best.is_none_or(|(_, kept)| row.words.len() >= kept.words.len()) {
            best = Some((at, row));
        }
    }
    best
}

pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    let Some((_, row)) = row_of(cmd) else {
        return;
    };
    let program = cmd.program();
    let what = std::iter::once(program)
        .chain(row.words.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    let risk = match row.then.0 {
        Effect::Push => {
            scan.network = true;
            Risk::new(
                RuleId::VcsPush,
                Harm::Moderate,
                true,
                if row.then.1 == When::Url {
                    format!("{what} on a URL changes the repository on its server, for everyone")
                } else {
                    format!("{what} publishes recorded work to a server, where others have it")
                },
            )
            .way_out()
            .wish(Wish::new(Act::Push))
        }
        Effect::Overwrite => {
            scan.network = true;
            Risk::new(
                RuleId::VcsOverwrite,
                Harm::Severe,
                true,
                format!("{what} --overwrite replaces what the server has with this branch"),
            )
            .way_out()
            .wish(Wish::new(Act::ForcePush))
        }
        Effect::Discard => Risk::new(
            RuleId::VcsDiscard,
            Harm::Severe,
            false,
            format!("{what} throws away whatever is uncommitted in the working copy"),
        )
        .wish(Wish::new(Act::Discard)),
        Effect::History { server } => {
            let (lasting, reason) = if server {
                scan.network = true;
                (true, "on the server, for everyone")
            } else {
                (false, "in this repository")
            };
            Risk::new(
                RuleId::VcsHistory,
                Harm::Severe,
                lasting,
                format!("{what} destroys recorded history {reason}"),
            )
            .wish(Wish::new(Act::Delete))
        }
    };
    scan.add(risk);
}

/// Every row as the rows test walks it.
#[cfg(test)]
pub(super) fn walked() -> Vec<super::rows::Walked> {
    super::rows::rows_of("vcs::TABLE", TABLE, judges).collect()
}

/// Does row `at` judge the line: it is the row for one of the line's commands, and the line
/// has the row's rule, said of its program?
#[cfg(test)]
fn judges(at: usize, line: &crate::shell::Line, found: &super::Assessment) -> bool {
    let Some(row) = TABLE.get(at) else {
        return false;
    };
    let rule = match row.then.0 {
        Effect::Push => RuleId::VcsPush,
        Effect::Overwrite => RuleId::VcsOverwrite,
        Effect::Discard => RuleId::VcsDiscard,
        Effect::History { .. } => RuleId::VcsHistory,
    };
    line.commands
        .iter()
        .any(|cmd| row_of(cmd).is_some_and(|(index, _)| index == at))
        && found
            .risks
            .iter()
            .any(|risk| risk.rule == rule && risk.reason.starts_with(row.program))
}

#[cfg(test)]
mod tests {
    use super::TABLE;

    #[test]
    fn the_valued_options_are_sorted_by_program() {
        let programs: Vec<&str> = super::VALUED.iter().map(|(name, _)| *name).collect();
        let mut sorted = programs.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(programs, sorted);
    }

    #[test]
    fn global_options_and_their_values_are_no_subcommand() {
        let args = |line: &str| -> Vec<String> { line.split(' ').map(str::to_string).collect() };
        assert_eq!(
            super::operands("p4", &args("-c myclient submit -d fix")),
            vec!["submit"]
        );
        assert_eq!(super::operands("hg", &args("-R repo push")), vec!["push"]);
        assert_eq!(
            super::operands("cvs", &args("-d :pserver:a@h:/root commit -m x file.c")),
            vec!["commit", "file.c"]
        );
        assert_eq!(super::operands("co", &args("-f -l file")), vec!["file"]);
    }

    #[test]
    fn the_table_is_sorted_by_program() {
        let programs: Vec<&str> = TABLE.iter().map(|row| row.program).collect();
        let mut sorted = programs.clone();
        sorted.sort_unstable();
        assert_eq!(programs, sorted);
    }
}
