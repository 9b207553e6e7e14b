//! The law for shell commands: read the line as the shell would, then let every rule look at
//! every simple command, every pipeline and the line as a whole.

use crate::law::rule::RuleId;
pub(crate) mod code;
mod escapes;
mod fetched;
pub(crate) mod git;
mod infra;
mod install;
mod kinds;
mod mirrors;
pub(crate) mod net;
pub(crate) mod paths;
#[cfg(test)]
mod rows;
mod runs;
pub(crate) mod system;
mod table;
mod unverified;
mod vcs;
mod versions;
pub(crate) mod windows;
pub(crate) mod words;

use crate::facts::Facts;
use crate::law::paths::Place;
use crate::shell::{Command, Line, RedirectOp, Via};
use crate::verdict::{Harm, Risk};

pub use super::Assessment;

/// Everything a rule may look at.
pub(crate) struct Scan<'a> {
    pub line: &'a Line,
    pub place: Place<'a>,
    pub facts: &'a dyn Facts,
    pub risks: Vec<Risk>,
    pub changes: bool,
    pub network: bool,
    /// The files the line writes with a secret in it (`net::filled_index`), gathered once.
    pub filled: Vec<(String, &'static str)>,
}

impl Scan<'_> {
    pub fn add(&mut self, risk: Risk) {
        self.risks.push(risk);
    }

    /// The commands of one pipeline, in stage order.
    pub fn pipeline(&self, pipeline: usize) -> impl Iterator<Item = &Command> {
        self.line
            .commands
            .iter()
            .filter(move |cmd| cmd.pipeline == pipeline)
    }

    /// The command that holds `cmd` (for nested commands).
    pub fn parent(&self, cmd: &Command) -> Option<&Command> {
        cmd.parent.and_then(|index| self.line.commands.get(index))
    }
}

/// Assesses one command line in the work folder `cwd`.
pub fn assess(text: &str, cwd: &str, facts: &dyn Facts) -> Assessment {
    assess_at(text, cwd, facts, 0)
}

/// [`assess`] for a line already read (`line` is `Line::parse(text)`): the step's line is
/// read once, for every rule that asks about it.
pub fn assess_read(text: &str, line: &Line, cwd: &str, facts: &dyn Facts) -> Assessment {
    assess_line(text, line, cwd, cwd, facts, 0)
}

/// The files a command line saves from a download or decodes from a blob, where they land
/// ([`crate::step::Fetched`]): what a later step of the chat may run. Read only when a word
/// of the line could be a program that downloads or decodes.
pub fn fetched_by(text: &str, cwd: &str, facts: &dyn Facts) -> Vec<crate::step::Fetched> {
    if !net::may_save(text) {
        return Vec::new();
    }
    let home = facts.home().unwrap_or_else(|| "/home/~".to_string());
    net::fetched_by(&Line::parse(text), cwd, &home)
}

/// What a command line leaves a chat to keep, the line read once: the files it downloads or
/// decodes ([`fetched_by`]), the ones it writes with text that asks if run ([`written_by`]),
/// and where it copies, moves or links those or the ones the chat keeps already (`fetched`,
/// `written`: [`carried_by`]).
pub fn kept_by(
    text: &str,
    cwd: &str,
    fetched: &[crate::step::Fetched],
    written: &[crate::step::Written],
    facts: &dyn Facts,
) -> (Vec<crate::step::Fetched>, Vec<crate::step::Written>) {
    let saves = net::may_save(text);
    let writes = may_write(text);
    let carries = may_carry(text);
    if !saves && !writes && !carries {
        return (Vec::new(), Vec::new());
    }
    let line = Line::parse(text);
    let home = facts.home().unwrap_or_else(|| "/home/~".to_string());
    let mut new_fetched = if saves {
        net::fetched_by(&line, cwd, &home)
    } else {
        Vec::new()
    };
    let mut new_written = if writes {
        written_in(&line, cwd, facts)
    } else {
        Vec::new()
    };
    if carries {
        let known_fetched = [fetched, new_fetched.as_slice()].concat();
        let known_written = [written, new_written.as_slice()].concat();
        if !(known_fetched.is_empty() && known_written.is_empty()) {
            let (more_fetched, more_written) =
                carried_in(&line, cwd, &known_fetched, &known_written, facts);
            new_fetched.extend(more_fetched);
            new_written.extend(more_written);
        }
    }
    (new_fetched, new_written)
}

/// The files a command line writes with text it spells out (`echo … > f`, `cat > f <<EOF`,
/// `tee f <<< …`) that would ask in any chat were the text run by a shell, as
/// [`crate::step::Written`]: the strongest of what is severe and lasting there or never
/// lifted, its rule and reason. A file with a program's extension or a `#!` line is left out:
/// the write itself is judged as its interpreter reads it. Text that asks nothing gives
/// nothing, and forgets nothing the chat keeps: the step is judged before it runs, and may
/// not (the person says no, a `false &&` before it, `set -C` refusing to write over a file),
/// so what the file held may still be there (one question more, never one less).
pub fn written_by(text: &str, cwd: &str, facts: &dyn Facts) -> Vec<crate::step::Written> {
    if !may_write(text) {
        return Vec::new();
    }
    written_in(&Line::parse(text), cwd, facts)
}

/// Whether the line could write a file with text: every such write has a redirect or a tee.
fn may_write(text: &str) -> bool {
    text.contains('>') || text.contains("tee")
}

/// [`written_by`] of a line already read.
fn written_in(line: &Line, cwd: &str, facts: &dyn Facts) -> Vec<crate::step::Written> {
    let home = facts.home().unwrap_or_else(|| "/home/~".to_string());
    let cwds = folders_after_cd(line, cwd, cwd, &home);
    // Each path's text as the line writes it: an append adds to what the line wrote there
    // before (`printf 'rm -rf' > x; echo ' ~' >> x` leaves `rm -rf ~`). Each text a path
    // held is read once, when a later write replaces it or at the end of the line (linear),
    // and kept when it asks: a later write of text that asks nothing forgets nothing (`set
    // -C` may refuse it).
    let mut texts: Vec<(String, String, String)> = Vec::new();
    let mut out: Vec<crate::step::Written> = Vec::new();
    let mut keep = |path: String, text: &str, here: &str| {
        if crate::law::file::program_run(&path, text).is_some() {
            return;
        }
        if let Some(risk) = text_run_anyhow(&path, text, cwd, here, facts) {
            let found = crate::step::Written {
                path,
                rule: risk.rule.to_string(),
                reason: risk.reason,
            };
            // The stronger of two texts a path held: the later write may not have run.
            if out
                .iter()
                .any(|w| w.path == found.path && found.weaker_than(w))
            {
                return;
            }
            out.retain(|w| w.path != found.path);
            out.push(found);
        }
    };
    for (index, cmd) in line.commands.iter().enumerate() {
        let here = cwds.get(index).map_or(cwd, String::as_str);
        let scan = Scan {
            line,
            place: Place {
                cwd: here,
                work: cwd,
                home: &home,
            },
            facts,
            risks: Vec::new(),
            changes: false,
            network: false,
            filled: Vec::new(),
        };
        for (target, path, written) in paths::texts_written(cmd, &scan) {
            let appends = cmd
                .redirects
                .iter()
                .any(|r| r.op == RedirectOp::Append && r.target == target)
                || (cmd.program() == "tee"
                    && cmd.args().iter().any(|a| a == "-a" || a == "--append"));
            match texts.iter_mut().find(|(p, _, _)| *p == path) {
                Some((_, text, folder)) if appends => {
                    text.push_str(&written);
                    *folder = here.to_string();
                }
                Some((_, text, folder)) => {
                    let held = std::mem::replace(text, written);
                    let held_in = std::mem::replace(folder, here.to_string());
                    keep(path, &held, &held_in);
                }
                None => texts.push((path, written, here.to_string())),
            }
        }
    }
    for (path, text, here) in texts {
        keep(path, &text, &here);
    }
    out
}

/// What a file tool's write (`Write`'s content, an edit's or a patch's added text) leaves
/// in a file that asks if run, as [`written_by`] reads a line's.
pub fn written_by_tool(
    path: &str,
    text: &str,
    cwd: &str,
    facts: &dyn Facts,
) -> Vec<crate::step::Written> {
    let home = facts.home().unwrap_or_else(|| "/home/~".to_string());
    let Some(path) = Place::new(cwd, &home).resolve(path) else {
        return Vec::new();
    };
    if text.is_empty() || crate::law::file::program_run(&path, text).is_some() {
        return Vec::new();
    }
    text_run_anyhow(&path, text, cwd, cwd, facts)
        .map(|risk| crate::step::Written {
            path,
            rule: risk.rule.to_string(),
            reason: risk.reason,
        })
        .into_iter()
        .collect()
}

/// The most text of a written file read as a shell line and as code ([`text_run_anyhow`]).
const WRITTEN_READ_MAX: usize = 8 * 1024;

/// What text written to a file with no program's extension and no `#!` line would do run
/// by whatever runs it (`sh FILE`, `python3 FILE`, `node FILE`…: the name doesn't say): the
/// strongest risk that is severe and lasting or never lifted, read as a shell line, else as
/// the code of each interpreter such a file is handed to.
fn text_run_anyhow(
    path: &str,
    text: &str,
    cwd: &str,
    here: &str,
    facts: &dyn Facts,
) -> Option<Risk> {
    // A name with an extension says what the file is (`notes.md`, `App.tsx`, `data.json`):
    // a program's extension is judged at the write already, and the rest are not read here,
    // so that every write of a source or a document isn't read as a shell script too (a
    // reading of arbitrary text as shell lines costs milliseconds a few KB). A name with none
    // (`/tmp/x`, `run`, `.hidden`) says nothing: it is read.
    let name = paths::basename_of(path);
    if name.get(1..).is_some_and(|rest| rest.contains('.')) {
        return None;
    }
    // Past what is read here, the text is kept when it names a shell, an interpreter, a
    // network client or a delete, as an unreadable line that names one asks.
    if text.len() > WRITTEN_READ_MAX {
        return dangerous_word(text).map(|word| {
            Risk::new(
                RuleId::ShellUnknown,
                Harm::Severe,
                true,
                format!("run what warden did not read (the text is longer than it reads here), which names {word}"),
            )
        });
    }
    let strongest = |risks: Vec<Risk>| {
        crate::law::file::severe_only(risks)
            .max_by_key(|risk| (risk.critical, risk.never, risk.base()))
    };
    if let Some(risk) = strongest(assess_in(text, cwd, here, facts, 1).risks) {
        return Some(risk);
    }
    // Text the shell can't run may be a program of another language; what names nothing
    // any of them runs, deletes or sends (`{"a": 1}`, a log line) is read by none.
    if !text.contains(['(', '`', '"', '\'']) {
        return None;
    }
    ["py", "js", "pl", "rb", "php"]
        .iter()
        .find_map(|extension| {
            let line = crate::law::file::program_run(&format!("{path}.{extension}"), text)?;
            strongest(assess_in(&line, cwd, here, facts, 1).risks)
        })
}

/// A file an earlier step of the chat wrote with text that asks if run ([`written_by`]), run
/// by this line: that text's risk, as the same line writing and running it would have found
/// (its rule's lift kept: the circuit breaker stays one; no words name what a file runs, so
/// none lift it).
pub fn runs_written(
    line: &Line,
    written: &[crate::step::Written],
    cwd: &str,
    facts: &dyn Facts,
) -> Vec<Risk> {
    let home = facts.home().unwrap_or_else(|| "/home/~".to_string());
    let Some((found, _)) = net::first_run(line, written, |w| &w.path, cwd, &home) else {
        return Vec::new();
    };
    let rule = RuleId::parse(&found.rule).unwrap_or(RuleId::ShellUnknown);
    let name = paths::basename_of(&found.path);
    let reason = found.reason.trim_end_matches('.');
    let risk = Risk::new(
        rule,
        Harm::Severe,
        true,
        format!("run {name}, which an earlier step wrote with text that would {reason}"),
    );
    vec![match rule.rule().lift {
        crate::law::rule::Lift::Critical => risk.critical(),
        crate::law::rule::Lift::Never | crate::law::rule::Lift::Refused => risk.never(),
        _ => risk,
    }]
}

/// Where a line copies, moves or links the files the chat keeps (`fetched`, `written`: the
/// chat's, and what this line itself saved or wrote): each destination keeps what its source
/// was (`cp /tmp/i.sh ~/bin/tool`, `mv /tmp/x ./run`, `install -m 755 x /usr/local/bin/`,
/// `ln -s /tmp/x run`), so running it there asks as running the source would. A single
/// destination may be a folder or the new name: both are kept.
pub fn carried_by(
    text: &str,
    cwd: &str,
    fetched: &[crate::step::Fetched],
    written: &[crate::step::Written],
    facts: &dyn Facts,
) -> (Vec<crate::step::Fetched>, Vec<crate::step::Written>) {
    if fetched.is_empty() && written.is_empty() || !may_carry(text) {
        return (Vec::new(), Vec::new());
    }
    carried_in(&Line::parse(text), cwd, fetched, written, facts)
}

/// Whether a word of the line could be a program that copies, moves or links.
fn may_carry(text: &str) -> bool {
    ["cp", "mv", "install", "ln"]
        .iter()
        .any(|program| text.contains(program))
}

/// [`carried_by`] of a line already read.
fn carried_in(
    line: &Line,
    cwd: &str,
    fetched: &[crate::step::Fetched],
    written: &[crate::step::Written],
    facts: &dyn Facts,
) -> (Vec<crate::step::Fetched>, Vec<crate::step::Written>) {
    let mut out = (Vec::new(), Vec::new());
    let home = facts.home().unwrap_or_else(|| "/home/~".to_string());
    let cwds = folders_after_cd(line, cwd, cwd, &home);
    for (index, cmd) in line.commands.iter().enumerate() {
        let place = Place {
            cwd: cwds.get(index).map_or(cwd, String::as_str),
            work: cwd,
            home: &home,
        };
        for (source, destinations) in copies(cmd) {
            let Some(source) = place.resolve(source) else {
                continue;
            };
            // A kept file that is the source, or lies under it (`cp -r /tmp/d .`): what is
            // under the source lands under each destination.
            let under = |path: &str| -> Option<String> {
                if path == source {
                    Some(String::new())
                } else {
                    path.strip_prefix(source.as_str())
                        .and_then(|rest| rest.strip_prefix('/'))
                        .map(|rest| format!("/{rest}"))
                }
            };
            let landed = |rest: &str| -> Vec<String> {
                destinations
                    .iter()
                    .filter_map(|destination| place.resolve(destination))
                    .map(|path| format!("{path}{rest}"))
                    .collect()
            };
            for kept in fetched {
                if let Some(rest) = under(&kept.path) {
                    out.0
                        .extend(landed(&rest).into_iter().map(|path| crate::step::Fetched {
                            path,
                            from: kept.from.clone(),
                        }));
                }
            }
            for kept in written {
                if let Some(rest) = under(&kept.path) {
                    out.1
                        .extend(landed(&rest).into_iter().map(|path| crate::step::Written {
                            path,
                            rule: kept.rule.clone(),
                            reason: kept.reason.clone(),
                        }));
                }
            }
        }
    }
    out
}

/// What `cp`, `mv`, `install` and `ln` make of each source: the paths it may land at (a
/// folder given with `-t`, or the last word: the folder, its name under it, or both when one
/// source could be renamed).
fn copies(cmd: &Command) -> Vec<(&str, Vec<String>)> {
    let program = cmd.program();
    if !matches!(program, "cp" | "mv" | "install" | "ln") {
        return Vec::new();
    }
    // Options that take the next word: a target folder, a suffix, install's mode and owner.
    let valued: &[&str] = match program {
        "install" => &[
            "-m",
            "--mode",
            "-o",
            "--owner",
            "-g",
            "--group",
            "-S",
            "--suffix",
            "-t",
            "--target-directory",
        ],
        _ => &["-S", "--suffix", "-t", "--target-directory"],
    };
    let args = cmd.args();
    let mut words: Vec<&str> = Vec::new();
    let mut folder: Option<&str> = None;
    let mut options_done = false;
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        if options_done || !arg.starts_with('-') || arg == "-" {
            words.push(arg);
        } else if arg == "--" {
            options_done = true;
        } else if let Some(dir) = arg.strip_prefix("--target-directory=") {
            folder = Some(dir);
        } else if valued.contains(&arg.as_str()) {
            let value = args.get(at).map(String::as_str);
            at += 1;
            if matches!(arg.as_str(), "-t" | "--target-directory") {
                folder = value;
            }
        }
    }
    let under = |dir: &str, source: &str| {
        format!(
            "{}/{}",
            dir.trim_end_matches('/'),
            paths::basename_of(source)
        )
    };
    if let Some(dir) = folder {
        return words
            .into_iter()
            .map(|source| (source, vec![under(dir, source)]))
            .collect();
    }
    let Some((last, sources)) = words.split_last() else {
        return Vec::new();
    };
    match sources {
        [] => Vec::new(),
        [source] => vec![(*source, vec![(*last).to_string(), under(last, source)])],
        _ => sources
            .iter()
            .map(|source| (*source, vec![under(last, source)]))
            .collect(),
    }
}

/// A file an earlier step of the chat fetched, run by this line (`net::runs_fetched`).
pub fn runs_fetched(
    line: &Line,
    fetched: &[crate::step::Fetched],
    cwd: &str,
    facts: &dyn Facts,
) -> Vec<Risk> {
    if fetched.is_empty() {
        return Vec::new();
    }
    let home = facts.home().unwrap_or_else(|| "/home/~".to_string());
    net::runs_fetched(line, fetched, cwd, &home)
}

/// The folder each command of a line runs in: the work folder, or where a `cd` (or `pushd`)
/// before it went. A `cd` counts for the commands after it written in the same text and
/// for what they hold (not for a child shell's own `bash -c 'cd …'` outside it, nor in a
/// pipeline, whose stages are subshells). `cd` alone is the home folder; a folder only known
/// when it runs (`cd "$DIR"`, `cd -`) makes every relative path after it one too. A `cd` in
/// `( … )` is taken to last past it: one more question, never one less.
fn folders_after_cd(line: &Line, start: &str, cwd: &str, home: &str) -> Vec<String> {
    let commands = &line.commands;
    let mut cwds: Vec<String> = vec![start.to_string(); commands.len()];
    for (at, cmd) in commands.iter().enumerate() {
        let program = cmd.program();
        if !matches!(program, "cd" | "pushd" | "popd" | "chdir") {
            continue;
        }
        let alone = commands
            .iter()
            .filter(|other| other.pipeline == cmd.pipeline)
            .count()
            == 1;
        if !alone {
            continue;
        }
        let here = Place {
            cwd: &cwds[at],
            work: cwd,
            home,
        };
        let target = cmd
            .args()
            .iter()
            .find(|a| !matches!(a.as_str(), "-L" | "-P" | "-e" | "-@" | "--"));
        let next = match (program, target) {
            ("popd", _) => None,
            (_, None) => Some(home.to_string()),
            (_, Some(dash)) if dash == "-" => None,
            // The repository's top: the work folder an agent is started in.
            (_, Some(word)) if is_repository_top(word) => Some(cwd.to_string()),
            (_, Some(word)) => here.resolve(word),
        };
        // A folder only known when it runs: relative paths after it can't be resolved.
        let next = next.unwrap_or_else(|| "$CDPATH".to_string());
        let scope = cmd.parent;
        for (later, folder) in cwds.iter_mut().enumerate().skip(at + 1) {
            // The command's ancestor among the cd's siblings, if it has one.
            let mut index = later;
            let mut reaches = false;
            while let Some(command) = commands.get(index) {
                if command.parent == scope {
                    reaches = index > at;
                    break;
                }
                match command.parent {
                    Some(parent) => index = parent,
                    None => break,
                }
            }
            if reaches {
                *folder = next.clone();
            }
        }
    }
    cwds
}

/// `$(git rev-parse --show-toplevel)` (or in backticks): the top of the repository the
/// command runs in, which is the folder an agent is started in.
fn is_repository_top(word: &str) -> bool {
    let inner = word
        .strip_prefix("$(")
        .and_then(|w| w.strip_suffix(')'))
        .or_else(|| word.strip_prefix('`').and_then(|w| w.strip_suffix('`')));
    inner.is_some_and(|inner| {
        inner.split_whitespace().collect::<Vec<_>>() == ["git", "rev-parse", "--show-toplevel"]
    })
}

/// How deep shell text found inside code is read (code inside code inside code…).
const EMBEDDED_DEPTH: usize = 2;

/// [`assess`] for text found `depth` texts deep (code's shell text, PowerShell's POSIX lines).
pub(crate) fn assess_at(text: &str, cwd: &str, facts: &dyn Facts, depth: usize) -> Assessment {
    assess_in(text, cwd, cwd, facts, depth)
}

/// [`assess_at`] for a line that starts in `start` (a `cd` before the text that holds it),
/// with `cwd` the work folder.
fn assess_in(text: &str, cwd: &str, start: &str, facts: &dyn Facts, depth: usize) -> Assessment {
    assess_line(text, &Line::parse(text), cwd, start, facts, depth)
}

fn assess_line(
    text: &str,
    line: &Line,
    cwd: &str,
    start: &str,
    facts: &dyn Facts,
    depth: usize,
) -> Assessment {
    let home = facts.home().unwrap_or_else(|| "/home/~".to_string());
    let cwds = folders_after_cd(line, start, cwd, &home);
    let mut scan = Scan {
        line,
        place: Place::new(cwd, &home),
        facts,
        risks: Vec::new(),
        changes: false,
        network: false,
        filled: net::filled_index(line, &cwds, cwd, &home),
    };
    if let Some(found) = control_character(text) {
        // INVARIANT: a control character in a line asks in every mode: bash drops a NUL and
        // runs `r\0m` as `rm`, so what the reader sees is not what runs.
        scan.add(
            Risk::new(
                RuleId::ShellControlChar,
                Harm::Severe,
                true,
                format!(
                    "the command holds a control character ({found}) the shell drops or reads otherwise, so it can't be read as written"
                ),
            )
            .never()
            .irreducible(),
        );
        scan.changes = true;
    }
    if let Some(why) = &line.unknown {
        // Parsing proves danger, never safety: what could be read is still judged below, and
        // a line that can't be read but names a shell, an interpreter, a network client or a
        // delete asks before reading too.
        let reason = format!("the command line could not be read fully ({why})");
        scan.add(match dangerous_word(text) {
            Some(word) => Risk::new(
                RuleId::ShellUnknown,
                Harm::Severe,
                true,
                format!("{reason}, and it names {word}"),
            ),
            // A syntax error the shell refuses too runs nothing past it, and the line names
            // nothing that could do harm: moderate, not lasting. What the reader gave up on
            // (too deep, too long) may be valid and run: lasting.
            None => Risk::new(RuleId::ShellUnknown, Harm::Moderate, gave_up(why), reason),
        });
        scan.changes = true;
    }
    system::fork_bomb(text, &mut scan);
    for (index, cmd) in line.commands.iter().enumerate() {
        // Each command in the folder it runs in: `cd ~ && rm -rf *` deletes the home folder.
        scan.place = Place {
            cwd: cwds.get(index).map_or(start, String::as_str),
            work: cwd,
            home: &home,
        };
        if !is_read_only(cmd) {
            scan.changes = true;
        }
        if cmd.dynamic_program {
            scan.add(dynamic_program(cmd, &scan.place));
        }
        let before = scan.risks.len();
        let inner = runs::named_program(cmd);
        let found = on_found_paths(cmd, line);
        for cmd in std::iter::once(cmd).chain(inner.as_ref()).chain(&found) {
            git::judge(cmd, &mut scan);
            vcs::judge(cmd, &mut scan);
            runs::judge(cmd, &mut scan);
            infra::judge(cmd, &mut scan);
            install::judge(cmd, &mut scan);
            net::judge(cmd, &mut scan);
            paths::judge(cmd, &mut scan);
            mirrors::judge(cmd, &mut scan);
            unverified::judge(cmd, &mut scan);
            words::prints_secret_variable(cmd, &mut scan);
            system::judge(cmd, &mut scan);
            kinds::judge(cmd, &mut scan);
            fetched::judge(cmd, &mut scan);
            windows::judge(cmd, &mut scan);
        }
        // A program's own words, after every other rule and only where none found anything:
        // it never doubles a known rule, and its reasons never replace a better one.
        if scan.risks.len() == before {
            // What xargs or find runs on the paths and words it reads is that program's too
            // (`cat pids | xargs kill` kills what the file lists).
            for cmd in std::iter::once(cmd).chain(inner.as_ref()).chain(&found) {
                // What the program named inside says is read only when the words outside it
                // said nothing (one reason, not the same one twice).
                if scan.risks.len() == before
                    && !install::reads(cmd)
                    && !paths::deletes_files(cmd)
                    && !system::serves_work_folder(cmd, scan.place)
                {
                    words::judge(cmd, &mut scan);
                }
                // What it printed, a secret, piped on into a way out leaves with it.
                if scan.risks[before..]
                    .iter()
                    .any(|r| r.rule == RuleId::WordsSecret)
                {
                    net::printed_secret_leaves(cmd, &mut scan);
                }
            }
        }
        // A wrapper left the program because what it runs was read as text of its own
        // (`sudo -D DIR cmd` as `cd DIR && cmd`): that command is judged as run by the
        // administrator, not the wrapper again.
        let runs_read_text = || {
            crate::catalogue::program(cmd.program())
                .is_some_and(|p| p.is(crate::catalogue::Class::Wrapper))
                && line.commands.iter().any(|c| c.parent == Some(index))
        };
        // A machine rolled back by the administrator (`sudo timeshift --restore`, `sudo
        // snapper rollback 5`): whatever changed since is lost, where no Undo reaches, beside
        // what any other rule found in its words.
        let rolls_back = cmd.sudo && rolls_back(cmd);
        if cmd.sudo
            && (scan.risks.len() == before || rolls_back)
            && !runs_read_text()
            && administers(cmd, scan.place)
        {
            let program = cmd.program();
            scan.add(
                Risk::new(
                    RuleId::SudoRun,
                    if rolls_back {
                        Harm::Severe
                    } else {
                        Harm::Moderate
                    },
                    true,
                    if opens_shell_as(program) {
                        format!("open a shell as another user or role ({program})")
                    } else if rolls_back {
                        format!(
                            "roll the machine back with {program} as the administrator: what changed since is lost"
                        )
                    } else {
                        format!("run {program} as the administrator (sudo)")
                    },
                )
                .wish(
                    crate::wish::Wish::new(crate::wish::Act::Run)
                        .naming(crate::wish::Name::one(program)),
                ),
            );
        }
        if let Some(risk) = system::transient_service(cmd, text) {
            scan.add(risk);
        }
        // What runs as the administrator acts through sudo: "no sudo", "kein sudo", "sin
        // sudo" rule it out as "not to main" rules out a push there, while asking for the
        // step needn't say it.
        if cmd.sudo {
            for risk in &mut scan.risks[before..] {
                if let Some(wish) = risk.wish.take() {
                    risk.wish =
                        Some(wish.targeting(crate::wish::Name::AnyOf(vec!["sudo".to_string()])));
                }
            }
        }
    }
    if depth < EMBEDDED_DEPTH {
        for (index, cmd) in line.commands.iter().enumerate() {
            let here = cwds.get(index).map_or(start, String::as_str);
            scan.place = Place {
                cwd: here,
                work: cwd,
                home: &home,
            };
            // Shell text in code, and in the settings git runs, is judged as a line of its own.
            let (runs, written) = code::judge(cmd, &mut scan);
            for inner in runs
                .into_iter()
                .chain(git::settings_run(cmd))
                .chain(install::scripts_set(cmd))
                .chain(paths::kept_written(cmd, &scan))
                .chain(xargs_shell_text(cmd, line))
                .chain(handed_template(cmd, line))
            {
                let found = assess_in(&inner, cwd, here, facts, depth + 1);
                scan.changes |= found.changes;
                scan.network |= found.network;
                scan.risks.extend(found.risks);
            }
            // Code written to a file by the line (`cat > x.py <<EOF`): what it runs and
            // deletes, by the same measure as a file tool's write of it.
            for inner in written {
                let found = assess_in(&inner, cwd, here, facts, depth + 1);
                scan.risks
                    .extend(crate::law::file::severe_only(found.risks));
            }
            // A CI pipeline's file written by the line: what its runners would run, by the
            // same measure as a file tool's write of it.
            for inner in paths::ci_written(cmd, &scan) {
                let found = assess_in(&inner, cwd, here, facts, depth + 1);
                scan.risks.extend(crate::law::file::ci_only(found.risks));
            }
            // A program file written with its text that no code reader reads there (a shell
            // script): as a file tool's write of it is, its severe risks only.
            for inner in paths::program_written(cmd, &scan) {
                let found = assess_in(&inner, cwd, here, facts, depth + 1);
                scan.risks
                    .extend(crate::law::file::severe_only(found.risks));
            }
            // Command lines in code no reader knows: their severe risks only.
            let (unread, past_bound) = code::unread_lines(cmd, &scan);
            for inner in unread {
                let found = assess_in(&inner, cwd, here, facts, depth + 1);
                scan.risks
                    .extend(crate::law::file::severe_only(found.risks));
            }
            if past_bound {
                scan.add(unknown(
                    "its code holds more command lines than warden reads".to_string(),
                ));
            }
            // What a scheduled task or a service runs later: PowerShell's text by its reader,
            // any other command line as a line of its own.
            if let Some(task) = windows::runs_later(cmd) {
                let texts = crate::law::powershell::texts_of(&task);
                for inner in &texts {
                    let (found, _) = crate::law::powershell::read(inner, cwd, facts, depth + 1);
                    scan.changes |= found.changes;
                    scan.network |= found.network;
                    scan.risks.extend(found.risks);
                }
                if texts.is_empty() {
                    // Each word as the program gets it: one word, whatever it holds.
                    let line: Vec<String> = task
                        .words
                        .iter()
                        .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
                        .collect();
                    let found = assess_in(&line.join(" "), cwd, here, facts, depth + 1);
                    scan.changes |= found.changes;
                    scan.network |= found.network;
                    scan.risks.extend(found.risks);
                }
            }
            // `pwsh -c TEXT`, `powershell -enc BLOB`: read as PowerShell, by its own reader.
            for inner in crate::law::powershell::texts_of(cmd) {
                let (found, _) = crate::law::powershell::read(&inner, cwd, facts, depth + 1);
                scan.changes |= found.changes;
                scan.network |= found.network;
                scan.risks.extend(found.risks);
            }
            // What a container or a pod runs, its paths seen from this machine.
            if let Some(inside) = runs::inside(cmd, scan.place) {
                let found = assess_at(&inside.text, &inside.cwd, facts, depth + 1);
                runs::found_inside(&inside, found, &mut scan);
            }
        }
    }
    scan.place = Place::new(cwd, &home);
    net::pipelines(&mut scan);
    net::download_then_run(&mut scan);
    net::made_text_run(&mut scan);
    net::handed_secrets(&mut scan);
    net::keys_in_unknown(text, &mut scan);
    paths::secrets_in_args(text, &mut scan);
    let Scan {
        risks,
        changes,
        network,
        ..
    } = scan;
    Assessment {
        risks: strongest_per_rule(risks),
        changes,
        network,
        edit_in_work: false,
    }
}

/// The commands `find START -exec` (or `fd START -x`) runs, or `xargs` runs on what `find
/// START` printed, with the paths they will get spelled under each START: `find /apps -exec
/// rm {} \;`, `find /apps -exec sh -c 'rm "$1"' _ {} \;`, `find /apps | xargs rm` and `fd .
/// /apps -x rm` delete under `/apps`, not in the work folder; `find . ~ | xargs rm -rf`
/// under the home folder too. Empty when the command is none of these, or its only START is
/// the work folder's own `.`.
fn on_found_paths(cmd: &Command, line: &Line) -> Vec<Command> {
    let parent = |c: &Command| c.parent.and_then(|at| line.commands.get(at));
    // `… | xargs -I{} sh -c 'rm -rf {}'`: the shell's own command reads what xargs reads.
    let xargs_holder = match cmd.via {
        Via::Xargs => parent(cmd),
        Via::ShellC => parent(cmd)
            .filter(|shell| shell.via == Via::Xargs)
            .and_then(parent),
        _ => None,
    };
    let finder = match cmd.via {
        Via::FindExec => parent(cmd),
        _ if xargs_holder.is_some() => {
            let Some(holder) = xargs_holder else {
                return Vec::new();
            };
            let finder = line.commands.iter().find(|c| {
                c.pipeline == holder.pipeline
                    && c.stage < holder.stage
                    && crate::shell::search(c.program(), c.args()).is_some()
            });
            match finder {
                Some(finder) => Some(finder),
                None => return on_read_words(cmd, holder, line).into_iter().collect(),
            }
        }
        // `find ROOT -exec sh -c 'rm "$1"' _ {} \;`: what the shell's text is given (or
        // find's `{}` written in it) is a path found under ROOT too.
        Via::ShellC => parent(cmd)
            .filter(|shell| shell.via == Via::FindExec)
            .and_then(parent),
        _ => None,
    };
    let Some(search) = finder.and_then(|f| crate::shell::search(f.program(), f.args())) else {
        return Vec::new();
    };
    // Under `/` this is `paths::FOUND_UNDER_ROOT`, which the path rules count as a system place.
    // With nothing to narrow what find matches (`find ~ | xargs rm -rf`, `find / -type f`),
    // it is everything under ROOT, as `rm -rf ~/*` is.
    // Narrowed by one name (`find ~ -name 'id_*'`), what it finds is named so: the path rules
    // read a key's name in it as they read `~/backup/id_*`.
    let names: Vec<&String> = finder
        .map(|f| {
            f.args()
                .windows(2)
                .filter(|pair| matches!(pair[0].as_str(), "-name" | "-iname"))
                .map(|pair| &pair[1])
                .collect()
        })
        .unwrap_or_default();
    // A grep between find and xargs that keeps only what matches narrows it too (`find . |
    // grep -E '__pycache__' | xargs rm -rf`); one that leaves out what matches (`grep -v
    // xml`) leaves nearly everything.
    let kept_by_grep = xargs_holder.is_some_and(|holder| {
        line.commands.iter().any(|c| {
            c.pipeline == holder.pipeline
                && c.stage < holder.stage
                && finder.is_some_and(|f| c.stage > f.stage)
                && matches!(c.program(), "grep" | "egrep" | "fgrep" | "rg")
                && !c.args().iter().any(|a| {
                    a == "--invert-match"
                        || (a.starts_with('-') && !a.starts_with("--") && a.contains('v'))
                })
        })
    });
    let narrows = search.narrows || kept_by_grep;
    let every = match names.as_slice() {
        [name] if narrows && !name.contains('/') && !name.is_empty() => name.as_str(),
        _ if narrows => "…",
        _ => "*",
    };
    let mut found = Vec::new();
    // The work folder narrowed is a part of it, which its path rules leave be; all of it
    // (`find . | xargs rm -rf`) is `rm -rf ./*`, everything in the work folder.
    let here_whole = every == "*";
    for root in search
        .starts
        .iter()
        .filter(|r| here_whole || !matches!(**r, "." | "./"))
    {
        // Under `/`, `/…` is what the path rules know as everything found there.
        let leaf = if root.trim_end_matches('/').is_empty() && narrows {
            "…"
        } else {
            every
        };
        let path = format!("{}/{leaf}", root.trim_end_matches('/'));
        let (mut words, placed) = spelled_in(cmd, &path, line);
        if !placed {
            if matches!(cmd.via, Via::FindExec | Via::ShellC) {
                continue;
            }
            words.push(path);
        }
        found.push(run_alone(cmd, words));
    }
    found
}

/// `cmd`'s words with `found` spelled where find's and xargs's `{}` stands, and whether it
/// stood anywhere.
fn spelled_in(cmd: &Command, found: &str, line: &Line) -> (Vec<String>, bool) {
    let parent = |c: &Command| c.parent.and_then(|at| line.commands.get(at));
    let mark = match cmd.via {
        Via::Xargs => parent(cmd).map_or_else(|| "{}".to_string(), xargs_mark),
        // The command of a shell xargs runs (`xargs -I % sh -c 'rm %'`): xargs's mark.
        Via::ShellC => parent(cmd)
            .filter(|shell| shell.via == Via::Xargs)
            .and_then(parent)
            .map_or_else(|| "{}".to_string(), xargs_mark),
        _ => "{}".to_string(),
    };
    let mut words = cmd.words.clone();
    let mut placed = false;
    for word in words.iter_mut().skip(1) {
        if word.contains(mark.as_str()) {
            *word = word.replace(mark.as_str(), found);
            placed = true;
        }
    }
    (words, placed)
}

/// What stands for each input line in the command `xargs` runs: `-I R`, `-iR`,
/// `--replace=R`, or `{}` (`-i`, `--replace`, and find's own).
/// Only xargs's own options count: they end at the command it runs.
fn xargs_mark(xargs: &Command) -> String {
    const VALUED: &[&str] = &["-I", "-n", "-P", "-L", "-l", "-s", "-a", "-d", "-E", "-e"];
    let args = xargs.args();
    let mut at = 0;
    while let Some(arg) = args.get(at).filter(|arg| arg.starts_with('-')) {
        if arg == "-I" {
            if let Some(mark) = args.get(at + 1).filter(|mark| !mark.is_empty()) {
                return mark.clone();
            }
        } else if let Some(mark) = arg.strip_prefix("--replace=").or_else(|| {
            arg.strip_prefix("-I")
                .or_else(|| arg.strip_prefix("-i"))
                .filter(|rest| !rest.is_empty())
        }) && !mark.is_empty()
        {
            return mark.to_string();
        }
        at += if VALUED.contains(&arg.as_str()) { 2 } else { 1 };
    }
    "{}".to_string()
}

/// `cmd` with these words, judged as a command of its own.
fn run_alone(cmd: &Command, words: Vec<String>) -> Command {
    let mut run = cmd.with_words(words);
    run.via = Via::Top;
    run
}

/// A command `xargs` runs on words no `find` printed: what it reads from its input is
/// spelled where its `{}` stands, or after its words. What `echo` or `printf` wrote is
/// known (`echo /etc | xargs rm -rf` deletes `/etc`); what lists the work folder's own paths
/// (`ls`, `git ls-files`, `grep -l`, `rg --files`) leaves nothing new to judge; anything
/// else (a file's lines, another program's output, the agent's own input) is a place only
/// known when it runs: `cat list.txt | xargs rm -rf` deletes whatever the list says.
fn on_read_words(cmd: &Command, holder: &Command, line: &Line) -> Option<Command> {
    let producer = arg_file_producer(holder, line).or_else(|| {
        line.commands
            .iter()
            .find(|c| {
                c.pipeline == holder.pipeline
                    && c.stage + 1 == holder.stage
                    && c.parent == holder.parent
            })
            .map(|c| passed_through(c, line))
    });
    let read: Vec<String> = match producer {
        Some(p) if matches!(p.program(), "echo" | "printf") => {
            // printf's format is what it prints when given nothing to put in it (`printf
            // 'rm -rf ~'`); given more, the words after it.
            let given = positional(p.args()).len();
            let skip = usize::from(p.program() == "printf" && given > 1);
            let words: Vec<String> = positional(p.args())
                .into_iter()
                .skip(skip)
                .flat_map(|w| w.split_whitespace())
                .map(str::to_string)
                .collect();
            if words.is_empty() {
                return None;
            }
            words
        }
        Some(p) if lists_work_paths(p) => return None,
        // `ls -d ~/* | xargs rm -rf`: the names a lister prints, as the paths it was given.
        Some(p) => crate::shell::lines_of(p)
            .filter(|items| !items.is_empty())
            .unwrap_or_else(|| vec!["${stdin}".to_string()]),
        // `xargs rm -rf <<< ~`: a here-string's words (expanded by the shell first).
        None => holder
            .redirects
            .iter()
            .rev()
            .find(|r| r.op == crate::shell::RedirectOp::HereString)
            .map(|r| {
                r.target
                    .split_whitespace()
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .filter(|words| !words.is_empty())
            .unwrap_or_else(|| vec!["${stdin}".to_string()]),
    };
    let (mut words, placed) = spelled_in(cmd, &read.join(" "), line);
    if !placed {
        words.extend(read);
    }
    Some(run_alone(cmd, words))
}

/// `printf 'rm -rf ~' | xargs -I{} sh -c {}`: a shell xargs runs whose text is what xargs
/// read (known when the line prints it) is that text, read as a line of its own.
fn xargs_shell_text(cmd: &Command, line: &Line) -> Option<String> {
    if cmd.via != Via::Xargs || !crate::catalogue::is(cmd.program(), crate::catalogue::Class::Shell)
    {
        return None;
    }
    let holder = cmd.parent.and_then(|at| line.commands.get(at))?;
    let run = on_read_words(cmd, holder, line)?;
    let args = run.args();
    let at = args
        .iter()
        .position(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('c'))?;
    let text = args.get(at + 1)?;
    (!text.contains("${stdin}") && *text != cmd.args().get(at + 1).cloned().unwrap_or_default())
        .then(|| text.clone())
}

/// A template around each line (`crate::shell::templated`: `sed 's|^|rm -rf ~/|'`) that
/// ends a `$(…)` or a `<(…)` handed to what runs its text (`eval "$(ls ~ | sed …)"`, `sh -c
/// "$(…)"`, `source <(…)`, `bash <(…)`): the line it makes, run there, as through a pipe
/// into a shell (the shell reader reads that one).
fn handed_template(cmd: &Command, line: &Line) -> Option<String> {
    let holder = cmd.parent.and_then(|at| line.commands.get(at))?;
    let handed = match cmd.via {
        Via::Substitution => net::runs_its_text(holder),
        Via::ProcessSubstitution => {
            net::is_shell(holder.program()) && !positional(holder.args()).is_empty()
        }
        _ => false,
    };
    let last = !line
        .commands
        .iter()
        .any(|c| c.pipeline == cmd.pipeline && c.stage > cmd.stage);
    if !(handed && last && cmd.stage > 0) {
        return None;
    }
    crate::shell::templated(cmd)
}

/// `xargs -a <(echo ~) rm -rf`, `xargs rm -rf < <(echo ~)`: what xargs reads from a file
/// a process substitution makes, given as its file of arguments or as its input, is what
/// its last stage prints, as from a pipe.
fn arg_file_producer<'l>(holder: &Command, line: &'l Line) -> Option<&'l Command> {
    let reads_file = holder
        .args()
        .iter()
        .take_while(|a| a.starts_with('-'))
        .any(|a| a == "-a" || a.starts_with("--arg-file") || (a.starts_with("-a") && a.len() > 2));
    if !reads_file && !reads_substitution(holder) {
        return None;
    }
    substitution_of(holder, line)
}

/// Is the command's input a process substitution (`< <(…)`)?
fn reads_substitution(cmd: &Command) -> bool {
    cmd.redirects.iter().any(|r| {
        r.op == crate::shell::RedirectOp::Read
            && matches!(r.fd, None | Some(0))
            && r.target.starts_with("<(")
    })
}

/// The last stage of the process substitution the command holds.
fn substitution_of<'l>(cmd: &Command, line: &'l Line) -> Option<&'l Command> {
    let index = line.commands.iter().position(|c| std::ptr::eq(c, cmd))?;
    line.commands
        .iter()
        .filter(|c| c.parent == Some(index) && c.via == Via::ProcessSubstitution)
        .max_by_key(|c| c.stage)
}

/// What prints into the stage after `cmd`: `cat <(echo ~) | xargs rm -rf` passes on what
/// its one process substitution prints.
fn passed_through<'l>(cmd: &'l Command, line: &'l Line) -> &'l Command {
    let operands = positional(cmd.args());
    if cmd.program() == "cat"
        && cmd.args().iter().all(|a| !a.starts_with('-'))
        && matches!(operands.as_slice(), [only] if only.starts_with("<("))
        && let Some(producer) = substitution_of(cmd, line)
    {
        return producer;
    }
    cmd
}

/// A program whose output is paths of the work folder: `ls` of its own folders, git's
/// lists, `grep -l`, `rg --files`.
fn lists_work_paths(producer: &Command) -> bool {
    let args = producer.args();
    let outside = |a: &String| a.starts_with('/') || a.starts_with('~') || a.contains("..");
    match producer.program() {
        "ls" | "git" => !args.iter().any(outside),
        "grep" | "rg" | "ag" | "ack" => {
            args.iter().any(|a| {
                matches!(
                    a.as_str(),
                    "-l" | "-L" | "--files" | "--files-with-matches" | "--files-without-match"
                ) || (a.starts_with('-') && !a.starts_with("--") && a.contains('l'))
            }) && !args.iter().any(outside)
        }
        _ => false,
    }
}

/// The reader stopped at one of its own limits, not at a syntax error: the line may be
/// valid, and run.
fn gave_up(why: &str) -> bool {
    matches!(
        why,
        "nesting too deep" | "too much nested text" | "too many wrappers"
    )
}

/// The first word of `text`, cut as loosely as the shell might (at spaces, quotes and
/// operators), that names a program able to do harm on its own: a shell, an interpreter, a
/// network client, a wrapper or a delete. A word a redirect takes (`<Enter>`, `>sh`) is a
/// file's name there, not a program.
/// The classes of program that make a line the reader gave up on severe: what runs other
/// text, reaches the network or deletes.
const DANGEROUS: [crate::catalogue::Class; 9] = [
    crate::catalogue::Class::Shell,
    crate::catalogue::Class::Source,
    crate::catalogue::Class::Interpreter,
    crate::catalogue::Class::Network,
    crate::catalogue::Class::Downloader,
    crate::catalogue::Class::Relay,
    crate::catalogue::Class::Remover,
    crate::catalogue::Class::Wrapper,
    crate::catalogue::Class::Runs,
];

/// The first program of a line read whole that is one of [`DANGEROUS`], named as the
/// catalogue names it.
fn dangerous_word_in(line: &Line) -> Option<String> {
    line.commands.iter().find_map(|cmd| {
        crate::catalogue::program(cmd.program())
            .filter(|p| DANGEROUS.iter().any(|class| p.is(*class)))
            .map(|p| format!("`{}`", p.name))
    })
}

fn dangerous_word(text: &str) -> Option<String> {
    use crate::catalogue;
    let delimiter = |c: char| c.is_whitespace() || "\"'`;|&()<>{}$=".contains(c);
    let mut words = Vec::new();
    let mut rest = text;
    let mut first = true;
    let mut previous = "";
    while !rest.is_empty() {
        let gap = rest.find(|c: char| !delimiter(c)).unwrap_or(rest.len());
        let (between, tail) = rest.split_at(gap);
        let end = tail.find(delimiter).unwrap_or(tail.len());
        let (word, after) = tail.split_at(end);
        // `.` is `source` only where a command starts (`. ./env.sh`, `x; . f`, `then . f`,
        // `exec . f`); anywhere else it is the folder a command is given (`find . -name x`,
        // `git add .`).
        let starts_command = first
            || between.contains([';', '|', '&', '(', ')', '{', '}', '\n', '`'])
            || matches!(
                previous,
                "!" | "builtin"
                    | "command"
                    | "do"
                    | "elif"
                    | "else"
                    | "exec"
                    | "if"
                    | "then"
                    | "time"
                    | "until"
                    | "while"
            );
        if !word.is_empty() && !redirects_to(between) && (word != "." || starts_command) {
            words.push(word);
        }
        first = false;
        previous = word;
        rest = after;
    }
    // `find` runs, deletes or writes only by its acting primaries (`-exec`, `-delete`,
    // `-fprint`…); a search alone, however broken its line, names nothing it runs (what an
    // `-exec` runs is a word of the line too: `rm`, `sh`).
    let find_acts = words.iter().any(|word| {
        matches!(
            *word,
            "-exec"
                | "-execdir"
                | "-ok"
                | "-okdir"
                | "-delete"
                | "-fls"
                | "-fprint"
                | "-fprint0"
                | "-fprintf"
        )
    });
    words
        .iter()
        .filter(|word| !word.starts_with('-'))
        .find(|word| {
            catalogue::program(word).is_some_and(|p| {
                (p.name != "find" || find_acts) && DANGEROUS.iter().any(|class| p.is(*class))
            })
        })
        .map(|word| format!("`{}`", catalogue::name(word)))
}

/// Whether the word after `between` (what separates it from the word before) is where a
/// redirect reads or writes (`<Ctrl e>command<Enter>`, `> bash`, `2>&1`): a file's name,
/// never a program that runs. Not after a process substitution (`<(bash …)`) nor where
/// anything but the redirect's own `&` (`>&`, `&>`) or `|` (`>|`) separates commands.
fn redirects_to(between: &str) -> bool {
    let redirect = between.contains(['<', '>']);
    let bare = between
        .replace(">&", "")
        .replace("<&", "")
        .replace("&>", "")
        .replace(">|", "");
    redirect && !bare.contains(['(', ')', '|', ';', '&', '{', '}', '`', '"', '\''])
}

/// The first control character in `text` other than a tab or a line break, named.
/// The first control character in `text` but a tab or a line break, as `U+XXXX`: what
/// `char::is_control` calls one (C0, DEL, C1). Found on the bytes, since every line passes
/// here and most are long texts without one: C0 and DEL are single bytes, and a C1 character
/// is `0xC2` then `0x80..=0x9F` in UTF-8, where no other character starts so.
fn control_character(text: &str) -> Option<String> {
    /// A byte that is, or starts, a control character but a tab or a line break.
    fn suspect(b: u8) -> bool {
        (b < 0x20 && b != b'\t' && b != b'\n' && b != b'\r') | (b == 0x7F) | (b == 0xC2)
    }
    // Blocks of 64 bytes are tested without a branch a byte (the compiler makes vector
    // compares of it); only a block holding a suspect byte is walked byte by byte.
    const BLOCK: usize = 64;
    let bytes = text.as_bytes();
    let found = bytes.chunks(BLOCK).enumerate().find_map(|(n, block)| {
        if !block.iter().fold(false, |any, &b| any | suspect(b)) {
            return None;
        }
        block.iter().enumerate().find_map(|(i, &b)| {
            let at = n * BLOCK + i;
            match b {
                0xC2 => bytes
                    .get(at + 1)
                    .filter(|next| (0x80..=0x9F).contains(*next))
                    .map(|next| u32::from(*next)),
                _ if suspect(b) => Some(u32::from(b)),
                _ => None,
            }
        })
    })?;
    Some(format!("U+{found:04X}"))
}

fn unknown(reason: String) -> Risk {
    Risk::new(RuleId::ShellUnknown, Harm::Moderate, true, reason)
}

/// A command whose program is only known when it runs (`$CMD -rf ~`). Given the whole home
/// folder, `/` or a top folder of the system, whatever it turns out to be (`rm` among them)
/// reaches everything there: severe. Anything else: the shell's unknown.
fn dynamic_program(cmd: &Command, place: &Place<'_>) -> Risk {
    let whole = cmd
        .args()
        .iter()
        .filter(|word| !word.starts_with('-'))
        .find_map(|word| {
            let abs = place.resolve(word)?;
            (crate::law::paths::is_root_like(&abs) || place.is_home(&abs)).then_some(abs)
        });
    match whole {
        Some(abs) => Risk::new(
            RuleId::ShellUnknown,
            Harm::Severe,
            true,
            format!("it runs a command that is only known when it runs, on everything under {abs}"),
        ),
        None => unknown("it runs a command that is only known when it runs".to_string()),
    }
}

/// One risk per rule and reason, keeping the strongest; order kept.
fn strongest_per_rule(risks: Vec<Risk>) -> Vec<Risk> {
    let mut out: Vec<Risk> = Vec::with_capacity(risks.len());
    for risk in risks {
        match out
            .iter_mut()
            .find(|kept| kept.rule == risk.rule && kept.wish == risk.wish)
        {
            Some(kept) => {
                if (risk.never, risk.base()) > (kept.never, kept.base()) {
                    *kept = risk;
                }
            }
            None => out.push(risk),
        }
    }
    out
}

/// Is a command run as the administrator an administrator's change (`sudo.run`)? Not when
/// it only reads (`sudo lvscan`, `sudo tcpdump -i eth0`, `sudo sfdisk -d /dev/sda > t`),
/// only refreshes what a package manager knows of packages (`sudo apt update`), or is a
/// file tool that touches nothing but the work folder (`sudo chown -R alice src`), the
/// same change the agent makes there every day (a set-user-id bit aside: a program that
/// runs as its owner), or records what the system holds into the work folder (`sudo
/// trace-cmd record -P 12`, `sudo log collect --output logs/x`, `sudo vgcfgbackup -f f`).
fn administers(cmd: &Command, place: Place<'_>) -> bool {
    // `sudo` given nothing prints its usage (`alias sudo='sudo '` lets an alias follow it).
    if cmd.words.is_empty() || (cmd.program() == "sudo" && cmd.args().is_empty()) {
        return false;
    }
    // A file run by its path outside the system's program folders (`sudo ./install.sh
    // status`, `sudo /tmp/x/ls`) is whatever its text says, not the program its name is:
    // nothing its name or its words show of it holds.
    if runs_own_file(cmd) {
        return true;
    }
    // The caller's shell, not the administrator, writes a redirect's file; the path rules
    // judge where.
    let mut run = cmd.clone();
    run.redirects = Vec::new();
    let records_here = words::records(cmd) && names_only_work_folder(cmd, place);
    // What a shell, an interpreter or a project's runner is given after its script or
    // target is the script's (`sudo python3 x.py list`, `sudo bash x.sh --help`, `sudo make
    // status`): no reading or help of the program's own.
    let own_words = !crate::catalogue::program(cmd.program()).is_some_and(|p| {
        use crate::catalogue::Class::{Interpreter, ProjectRunner, Shell, Source};
        [Shell, Source, Interpreter, ProjectRunner]
            .iter()
            .any(|class| p.is(*class))
    });
    !is_read_only(&run)
        && !refreshes_packages(cmd)
        && !files_in_work_folder(cmd, place)
        && !system::defragments_inside(cmd, place)
        && !(own_words && (words::asks_to_read(cmd) || words::changes_nothing(cmd)))
        && !lists_only(cmd)
        && !rebuilds_index(cmd)
        && !follows_only(cmd, place)
        && !named_for_showing(cmd)
        && !records_here
        && !links_in_work_folder(cmd, place)
        && !under_root_in_work_folder(cmd, place)
}

/// Does the command only rebuild an index or a cache from what the machine holds (`sudo
/// updatedb`, `sudo mandb`, `sudo fc-cache -f`), not told where to write it (`updatedb -o
/// FILE`, `--output=FILE`)?
fn rebuilds_index(cmd: &Command) -> bool {
    crate::catalogue::is(cmd.program(), crate::catalogue::Class::Index)
        && !cmd
            .args()
            .iter()
            .any(|arg| arg.starts_with("-o") || arg.starts_with("--output"))
}

/// Does a tracer only follow what runs, as the administrator (`sudo strace -p 1234`, `sudo
/// trace-cmd stop`)? A process or the kernel's events followed, nothing run, nothing injected
/// into what it follows (`strace -e inject=…` makes its calls fail), and nothing written
/// outside the work folder. strace's and ltrace's command is taken off by the shell reader
/// (`sudo strace ls` is `ls`'s); trace-cmd runs one after `record`, `start`, `profile` or
/// `stream`, so only its subcommands that run none count.
fn follows_only(cmd: &Command, place: Place<'_>) -> bool {
    use crate::catalogue::{self, Class};
    const RUN_NOTHING: &[&str] = &[
        "check-events",
        "clear",
        "extract",
        "hist",
        "list",
        "report",
        "reset",
        "show",
        "snapshot",
        "stat",
        "stop",
    ];
    let program = cmd.program();
    let args = cmd.args();
    let runs_nothing = match program {
        "strace" | "ltrace" => true,
        "trace-cmd" => positional(args)
            .first()
            .is_some_and(|word| RUN_NOTHING.contains(word)),
        _ => false,
    };
    let injects = args
        .iter()
        .any(|a| a.contains("inject") || a.contains("fault"));
    let writes_outside = option_values(args, &["-o", "--output"])
        .iter()
        .any(|file| !surely_inside_work(place, file, false));
    catalogue::is(program, Class::Tracer) && runs_nothing && !injects && !writes_outside
}

/// Is the command told to act on another root filesystem, one inside the work folder
/// (`sudo systemd-firstboot --root build/root`, `sudo dnf --installroot=./chroot install
/// bash`, `sudo pacman --root ./r -S x`)? What it changes as the administrator is that
/// folder's, as `sudo chown -R alice src` is; what its other words say (an install) is
/// judged by their own rules. Not when the root is only known when it runs.
fn under_root_in_work_folder(cmd: &Command, place: Place<'_>) -> bool {
    const ROOTS: &[&str] = &["--installroot", "--root", "--sysroot"];
    option_values(cmd.args(), ROOTS)
        .first()
        .is_some_and(|root| surely_inside_work(place, root, false))
}

/// Is the program a file run by its path, not one of the system's programs: a relative
/// path (`./install.sh`, `bin/x`), the home folder's (`~/bin/x`), one only known when it runs
/// (`$DIR/x`), or an absolute path outside the folders programs are installed in (`/tmp/x/ls`;
/// not `/usr/bin/ls`, `/usr/libexec/locate.updatedb`, `/opt/x/bin/y`).
fn runs_own_file(cmd: &Command) -> bool {
    is_own_file(cmd.words.first().map(String::as_str).unwrap_or(""))
}

/// Is a program's word a file named by its path, not one of the system's programs (see
/// [`runs_own_file`])?
pub(super) fn is_own_file(word: &str) -> bool {
    const PROGRAM_FOLDERS: &[&str] = &[
        "/Applications/",
        "/Library/",
        "/System/",
        "/bin/",
        "/nix/",
        "/opt/",
        "/sbin/",
        "/snap/",
        "/usr/",
    ];
    word.contains('/')
        && !(word.starts_with('/')
            && !word.contains("/../")
            && PROGRAM_FOLDERS
                .iter()
                .any(|folder| word.starts_with(folder)))
}

/// A word that rolls what the program keeps back to an earlier state, as a subcommand or a
/// long option (`rollback`, `--restore`, `snapshot-revert`); not a program named for it
/// (`restorecon` sets file labels again, `pg_restore` fills a database).
fn rolls_back(cmd: &Command) -> bool {
    cmd.args().iter().any(|arg| {
        let word = arg.split('=').next().unwrap_or(arg);
        let word = word.strip_prefix("--").unwrap_or(word);
        !word.starts_with('-')
            && word.split(['-', '_', ':']).any(|part| {
                matches!(
                    part.to_ascii_lowercase().as_str(),
                    "rollback" | "restore" | "revert"
                )
            })
    })
}

/// A program no line of the catalogue knows whose name says it only shows what is there
/// (`lxc-ls`, `pool-list`, `net-info`, `showkey`, `a2query`, `spectre-meltdown-checker`): run as the administrator, it shows what
/// only the administrator may see. A program the catalogue knows goes by its classes, and
/// one run by its path may be anything.
fn named_for_showing(cmd: &Command) -> bool {
    const TAILS: &[&str] = &[
        "-checker", "-info", "-list", "-ls", "-show", "-stat", "-stats", "-status", "-version",
        "query",
    ];
    let word = cmd.words.first().map(String::as_str).unwrap_or("");
    let name = cmd.program().to_ascii_lowercase();
    !word.contains('/')
        && crate::catalogue::program(&name).is_none()
        && (TAILS
            .iter()
            .any(|tail| name.len() > tail.len() && name.ends_with(tail))
            || (name.starts_with("show") && name.len() > 4))
}

/// `ldconfig -n DIR…`: the links of the libraries in the folders it names, made there, and
/// the system's cache left alone. Every folder must be in the work folder; without `-n` it
/// rebuilds the cache every program loads its libraries by.
fn links_in_work_folder(cmd: &Command, place: Place<'_>) -> bool {
    let args = cmd.args();
    cmd.program() == "ldconfig"
        && args.iter().any(|a| a == "-n")
        && args
            .iter()
            .filter(|a| a.starts_with('-'))
            .all(|a| matches!(a.as_str(), "-n" | "-v" | "--verbose" | "-N" | "-X"))
        && !positional(args).is_empty()
        && names_only_work_folder(cmd, place)
}

/// A listing asked for by an option ([`words::lists`]) of a program that runs nothing else
/// and reaches nothing: `-l` is a login shell to `bash`, `tmux` and `su`, and whatever a
/// program that runs code, sessions or another program does with it is its own.
fn lists_only(cmd: &Command) -> bool {
    words::lists(cmd) && !opens_shell_as(cmd.program()) && !runs_or_reaches(cmd.program())
}

/// A program that opens a shell as another user or role (`su -l` is a login shell, not a
/// listing).
fn opens_shell_as(program: &str) -> bool {
    matches!(program, "su" | "runuser" | "newrole" | "run0")
}

/// A program that runs code, a shell, a session or another program, or reaches another
/// machine (`bash`, `python3`, `tmux`, `doas`, `ssh`, `login`): what its options say is its
/// own, never a listing of this machine's.
fn runs_or_reaches(program: &str) -> bool {
    use crate::catalogue::Class::{
        Agent, Attack, Daemon, Downloader, Editor, Flood, Interpreter, Mail, Network,
        ProjectRunner, Relay, RemoteAccess, Runs, Secrets, Server, Session, Sessions, Shell,
        Source, Tokens, Tunnel, Wrapper,
    };
    const RUNS_OR_REACHES: [crate::catalogue::Class; 22] = [
        Agent,
        Attack,
        Daemon,
        Downloader,
        Editor,
        Flood,
        Interpreter,
        Mail,
        Network,
        ProjectRunner,
        Relay,
        RemoteAccess,
        Runs,
        Secrets,
        Server,
        Session,
        Sessions,
        Shell,
        Source,
        Tokens,
        Tunnel,
        Wrapper,
    ];
    crate::catalogue::program(program)
        .is_some_and(|p| RUNS_OR_REACHES.iter().any(|class| p.is(*class)))
}

/// Does every argument that could be a place (an operand, an option's value) name one in
/// the work folder? A relative word is there; `/var/log/x`, `~/x` and `../x` are not.
fn names_only_work_folder(cmd: &Command, place: Place<'_>) -> bool {
    let inside = |word: &str| {
        !word.contains('$')
            && !word.contains('`')
            && place
                .resolve(word)
                .is_some_and(|abs| place.inside_work(&abs))
    };
    cmd.args().iter().all(|arg| match arg.split_once('=') {
        Some((option, value)) if option.starts_with('-') => inside(value),
        _ if arg.starts_with('-') => true,
        _ => inside(arg),
    })
}

/// A package manager's subcommands that refresh what it knows of packages (its lists, its
/// metadata, its own formulae) or check them, and install or upgrade nothing: `apt update`,
/// not `yum update` (which upgrades every package).
#[rustfmt::skip]
const REFRESHES: &[(&str, &[&str])] = &[
    ("apk", &["update"]),
    ("apt", &["update"]),
    ("apt-get", &["check", "update"]),
    ("brew", &["update"]),
    ("dnf", &["check-update", "makecache"]),
    ("emerge", &["--sync"]),
    ("nix-channel", &["--update"]),
    ("pacman", &["-Sy", "-Syy"]),
    ("pkg", &["update"]),
    ("xbps-install", &["-S"]),
    ("yum", &["check-update", "makecache"]),
    ("zypper", &["ref", "refresh"]),
];

/// `apt update`, `dnf check-update`, `zypper refresh`, `pacman -Sy`: a refresh and nothing
/// else (options that aren't another subcommand aside, no package named).
fn refreshes_packages(cmd: &Command) -> bool {
    let program = cmd.program();
    let Some((_, words)) = REFRESHES.iter().find(|(name, _)| *name == program) else {
        return false;
    };
    let args = cmd.args();
    let refresh = args.iter().find(|a| words.contains(&a.as_str()));
    refresh.is_some_and(|refresh| {
        args.iter().all(|a| {
            a == refresh || (a.starts_with('-') && !a.starts_with("-S") && !a.starts_with("-U"))
        })
    })
}

/// A file tool (`chown`, `chmod`, `mkdir`, `cp`, `ln`…) every path of which, operands and
/// options' values alike, is inside the work folder, and that sets no set-user-id or
/// set-group-id bit (`chmod u+s`, `install -m 4755`).
fn files_in_work_folder(cmd: &Command, place: Place<'_>) -> bool {
    // `sudo find . -type f -exec chmod 644 {} +`: find only walks the folders it starts in;
    // what it runs on what it finds is judged as a command of its own, under sudo too.
    if cmd.program() == "find"
        && let Some(search) = crate::shell::search(cmd.program(), cmd.args())
    {
        return !search.starts.is_empty()
            && search.starts.iter().all(|start| {
                place
                    .resolve(start)
                    .is_some_and(|abs| place.inside_work(&abs))
            });
    }
    if !crate::catalogue::is(cmd.program(), crate::catalogue::Class::Files) {
        return false;
    }
    let args = cmd.args();
    let operands = positional(args);
    let modes = matches!(cmd.program(), "chmod" | "install");
    if operands.is_empty() || (modes && args.iter().any(|a| sets_id_bit(a))) {
        return false;
    }
    let inside = |word: &str| {
        place
            .resolve(word)
            .is_some_and(|abs| place.inside_work(&abs))
    };
    let values = args
        .iter()
        .filter(|a| a.starts_with('-'))
        .filter_map(|a| a.split_once('=').map(|(_, value)| value));
    operands.iter().all(|w| *w != "-" && inside(w)) && values.into_iter().all(inside)
}

/// A mode that sets the set-user-id or set-group-id bit: `u+s`, `g=s`, `+s`, `4755`, `2775`.
fn sets_id_bit(mode: &str) -> bool {
    let octal = mode.len() == 4
        && mode.bytes().all(|b| (b'0'..=b'7').contains(&b))
        && mode
            .bytes()
            .next()
            .is_some_and(|first| (first - b'0') & 0b110 != 0);
    let symbolic = mode.bytes().all(|b| b"ugoa+-=rwxXst,".contains(&b))
        && mode.split(',').any(|part| {
            part.split_once(['+', '='])
                .is_some_and(|(_, bits)| bits.contains('s'))
        });
    octal || symbolic
}

/// Docker's subcommands that only read.
const DOCKER_READS: &[&str] = &[
    "ps", "images", "logs", "inspect", "version", "info", "history", "top", "stats", "diff",
];

/// Subcommands that only read, for tools whose first word decides.
const READ_ONLY_SUBCOMMANDS: &[(&str, &[&str])] = &[
    (
        "git",
        &[
            "blame",
            "cat-file",
            "check-ignore",
            "count-objects",
            "describe",
            "diff",
            "grep",
            "log",
            "ls-files",
            "ls-remote",
            "ls-tree",
            "merge-base",
            "name-rev",
            "rev-list",
            "rev-parse",
            "shortlog",
            "show",
            "show-ref",
            "status",
            "for-each-ref",
            "whatchanged",
            "version",
            "help",
        ],
    ),
    (
        "cargo",
        &[
            "tree",
            "metadata",
            "search",
            "version",
            "--version",
            "help",
            "locate-project",
            "verify-project",
        ],
    ),
    (
        "npm",
        &[
            "ls",
            "list",
            "view",
            "info",
            "outdated",
            "search",
            "help",
            "whoami",
            "--version",
            "-v",
            "root",
            "prefix",
            "bin",
        ],
    ),
    (
        "pip",
        &[
            "list",
            "show",
            "freeze",
            "check",
            "search",
            "--version",
            "help",
        ],
    ),
    (
        "pip3",
        &[
            "list",
            "show",
            "freeze",
            "check",
            "search",
            "--version",
            "help",
        ],
    ),
    (
        "kubectl",
        &[
            "get",
            "describe",
            "logs",
            "top",
            "explain",
            "version",
            "api-resources",
            "api-versions",
            "cluster-info",
        ],
    ),
    // Docker's command line, spoken by podman and nerdctl too.
    ("docker", DOCKER_READS),
    ("podman", DOCKER_READS),
    ("nerdctl", DOCKER_READS),
    ("apachectl", &["configtest", "fullstatus", "status"]),
    (
        "helm",
        &[
            "list", "ls", "status", "get", "template", "lint", "show", "search", "version",
            "history",
        ],
    ),
    (
        "terraform",
        &[
            "plan",
            "show",
            "output",
            "validate",
            "version",
            "providers",
            "graph",
        ],
    ),
    ("gh", &["status", "browse"]),
    (
        "apt",
        &[
            "depends", "list", "policy", "rdepends", "search", "show", "showsrc",
        ],
    ),
    ("dnf", &["info", "list", "provides", "repolist", "search"]),
    ("udevadm", &["info", "monitor", "test"]),
    ("udisksctl", &["dump", "info", "monitor", "status"]),
    ("yum", &["info", "list", "provides", "repolist", "search"]),
    // Its node, its peers and the networks it joined, shown; `join`, `leave`, `set` change.
    (
        "zerotier-cli",
        &["info", "listmoons", "listnetworks", "listpeers", "peers"],
    ),
];

/// Does this command only read? Unknown programs change.
pub fn is_read_only(cmd: &Command) -> bool {
    let writes = cmd.redirects.iter().any(|r| {
        matches!(r.op, RedirectOp::Write | RedirectOp::Append)
            && !crate::law::paths::is_sink(&r.target)
    });
    if writes {
        return false;
    }
    if cmd.words.is_empty() {
        return true;
    }
    let program = cmd.program();
    let args = cmd.args();
    let first = args
        .iter()
        .find(|arg| !arg.starts_with('-'))
        .map(String::as_str)
        .unwrap_or("");
    match program {
        // `sudo -l` lists what it allows, `-v`/`-k` touch its own timestamp, `-V` its version
        // (Centrify's `dzdo` alike).
        "sudo" | "dzdo" => {
            !args.is_empty()
                && args.iter().all(|arg| {
                    matches!(
                        arg.as_str(),
                        "-l" | "-ll"
                            | "-v"
                            | "-k"
                            | "-K"
                            | "-V"
                            | "--list"
                            | "--validate"
                            | "--reset-timestamp"
                            | "--remove-timestamp"
                            | "--version"
                    )
                })
        }
        "journalctl" => !args.iter().any(|arg| {
            arg.starts_with("--vacuum")
                || matches!(
                    arg.as_str(),
                    "--rotate" | "--flush" | "--sync" | "--relinquish-var"
                )
        }),
        "dmesg" => !args.iter().any(|arg| {
            matches!(
                arg.as_str(),
                "-c" | "-C"
                    | "--clear"
                    | "--read-clear"
                    | "-D"
                    | "-E"
                    | "--console-off"
                    | "--console-on"
            ) || arg.starts_with("-n")
                || arg.starts_with("--console-level")
        }),
        "sed" => !args
            .iter()
            .any(|arg| arg.starts_with("-i") || arg == "--in-place"),
        // A display tool's setting form changes the machine (`date -s …`, `hostname box`):
        // no read, in Plan only either.
        "date" | "hostname" => !system::sets_what_it_shows(program, args),
        // Process accounting's summary, printed; `-s` merges it into the summary file and
        // empties the log.
        "sa" => !args
            .iter()
            .any(|arg| arg == "--merge" || (is_short_cluster(arg) && arg.contains('s'))),
        "find" => !args.iter().any(|arg| {
            matches!(
                arg.as_str(),
                "-delete"
                    | "-exec"
                    | "-execdir"
                    | "-ok"
                    | "-okdir"
                    | "-fprint"
                    | "-fprintf"
                    | "-fls"
            )
        }),
        "sort" => !args
            .iter()
            .any(|arg| arg == "-o" || arg.starts_with("--output")),
        "xxd" => !args.iter().any(|arg| arg == "-r" || arg == "-revert"),
        "awk" => !args
            .iter()
            .any(|arg| arg.contains("system(") || arg.contains("print >")),
        "curl" => !args.iter().any(|arg| {
            let flag = arg.split('=').next().unwrap_or(arg);
            [
                "-d",
                "--data",
                "--data-binary",
                "--data-raw",
                "--data-urlencode",
                "--json",
                "-F",
                "--form",
                "-T",
                "--upload-file",
                "-o",
                "--output",
                "-O",
                "--remote-name",
                "-X",
                "--request",
            ]
            .contains(&flag)
                || (flag.starts_with('-')
                    && !flag.starts_with("--")
                    && flag.len() > 2
                    && flag
                        .chars()
                        .skip(1)
                        .any(|c| matches!(c, 'd' | 'F' | 'T' | 'o' | 'O' | 'X')))
        }),
        "wget" => {
            args.windows(2).any(|pair| {
                matches!(pair[0].as_str(), "-O" | "--output-document") && pair[1] == "-"
            }) && !args.iter().any(|arg| {
                arg.starts_with("--post")
                    || arg.starts_with("--body")
                    || arg.starts_with("--method")
            })
        }
        "git" => {
            let sub = git::subcommand(cmd).unwrap_or("");
            let list_only = match sub {
                "branch" | "tag" | "remote" | "stash" | "config" | "worktree" | "reflog" => {
                    let rest: Vec<&str> = git::sub_args(cmd).iter().map(String::as_str).collect();
                    git::lists_only(sub, &rest)
                }
                _ => false,
            };
            list_only || subcommand_reads("git", sub)
        }
        // A capture's rotation command (`-z`) or a Lua script (`-X lua_script:…`) runs code.
        "tcpdump" | "tshark" => !args
            .iter()
            .any(|arg| arg == "-z" || arg.contains("lua_script")),
        // `--getsz`, `--report`: a device's settings shown, not set.
        "blockdev" => {
            args.iter().filter(|a| a.starts_with('-')).all(|arg| {
                arg.starts_with("--get") || matches!(arg.as_str(), "--report" | "-v" | "-q")
            }) && args.iter().any(|a| a.starts_with('-'))
        }
        // Given nothing, `mount` lists what is mounted.
        "mount" if args.is_empty() => true,
        // rpm's query and verify modes (`rpm -qa`, `rpm -qf FILE`, `rpm -V bash`) read its
        // database; a mode that installs, upgrades or erases is not one.
        "rpm" => {
            let mode = args.iter().find(|arg| arg.starts_with('-'));
            mode.is_some_and(|mode| {
                mode.starts_with("-q") || matches!(mode.as_str(), "--query" | "-V" | "--verify")
            }) && !args.iter().any(|arg| {
                matches!(
                    arg.as_str(),
                    "-i" | "--install"
                        | "-U"
                        | "--upgrade"
                        | "-F"
                        | "--freshen"
                        | "-e"
                        | "--erase"
                        | "--import"
                        | "--initdb"
                        | "--rebuilddb"
                        | "--setperms"
                        | "--setugids"
                        | "--restore"
                )
            })
        }
        other => {
            // One lookup for both classes.
            let found = crate::catalogue::program(program);
            if found.is_some_and(|p| p.is(crate::catalogue::Class::Disk)) {
                system::disk_reads(program, args)
            } else if found.is_some_and(|p| p.is(crate::catalogue::Class::ReadOnly)) {
                true
            } else {
                subcommand_reads(other, first) || options_read(other, args)
            }
        }
    }
}

/// `-s`, `-as`: one dash and letters.
fn is_short_cluster(arg: &str) -> bool {
    arg.strip_prefix('-')
        .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphabetic()))
}

/// Options that only show, for a program that acts when given none of them (`rc-service -r
/// sshd` prints where the service's script is; `rc-service sshd restart` restarts it), a
/// server's or daemon's check of its configuration among them (`sudo nginx -t`, `sudo
/// haproxy -c`, `nagios4 -v`, `sudo squid -k parse`): it reads the configuration, says what
/// is wrong and exits without serving. An option written with its value (`-k parse`) holds
/// only with that value (`squid -k shutdown` stops the server).
#[rustfmt::skip]
const READ_ONLY_OPTIONS: &[(&str, &[&str])] = &[
    // A web or ssh server told to test its configuration, list what it loads or print its
    // version exits without serving (`sudo nginx -t`, `sudo sshd -T`, `apachectl -S`).
    ("apache2", &["-M", "-S", "-V", "-t", "-v"]),
    ("apachectl", &["-M", "-S", "-V", "-t", "-v"]),
    ("chronyd", &["-Q", "-p", "-v"]),
    ("cupsd", &["-t"]),
    ("dhcpd", &["-T", "-t"]),
    ("dnsmasq", &["--test", "-v"]),
    ("dovecot", &["--version", "-a", "-n"]),
    ("exim", &["-bP", "-bV"]),
    ("exim4", &["-bP", "-bV"]),
    ("freeradius", &["-C", "-CX", "-XC", "-v"]),
    ("haproxy", &["-c", "-v", "-vv"]),
    ("httpd", &["-M", "-S", "-V", "-t", "-v"]),
    ("kamailio", &["-V", "-c"]),
    ("keepalived", &["--config-test", "--version", "-t", "-v"]),
    ("ldconfig", &["--print-cache", "-p"]),
    ("lighttpd", &["-V", "-p", "-t", "-v"]),
    ("mysqld", &["--validate-config", "--version"]),
    ("nagios", &["--verify-config", "-v"]),
    ("nagios3", &["--verify-config", "-v"]),
    ("nagios4", &["--verify-config", "-v"]),
    ("nginx", &["-T", "-V", "-q", "-t", "-v"]),
    ("php-fpm", &["--info", "--modules", "--test", "--version", "-i", "-m", "-t", "-v"]),
    ("proftpd", &["--configtest", "--version", "-t", "-v"]),
    ("radiusd", &["-C", "-CX", "-XC", "-v"]),
    ("rc-service", &["--exists", "--list", "--resolve", "-e", "-l", "-r"]),
    ("rsyslogd", &["-N1", "-N2", "-N3", "-v"]),
    // SELinux's mappings of one kind listed (`semanage login -l`, `semanage port -l -C`):
    // `-a`, `-d`, `-m` change them.
    ("semanage", &["--list", "--locallist", "--noheading", "-C", "-l", "-n"]),
    ("squid", &["-k check", "-k parse", "-v"]),
    ("sshd", &["-T", "-t"]),
    ("syslog-ng", &["--syntax-only", "--version", "-V", "-s"]),
    // The sudoers file's syntax checked (`visudo -c`, `-cf FILE`): nothing is edited.
    ("visudo", &["--check", "--quiet", "--strict", "-c", "-cf", "-cq", "-cqf", "-q", "-s"]),
    ("zabbix_agent2", &["--print", "--test", "--test-config", "--version", "-T", "-V", "-p", "-t"]),
    ("zabbix_agentd", &["--print", "--test", "--test-config", "--version", "-T", "-V", "-p", "-t"]),
    ("zabbix_proxy", &["--test-config", "--version", "-T", "-V"]),
    ("zabbix_server", &["--test-config", "--version", "-T", "-V"]),
];

/// The options naming the configuration file or folder a program of [`READ_ONLY_OPTIONS`]
/// checks, which only checks when that is the machine's own, under `/etc/`: another file may
/// load modules or code as it is read (`sudo nginx -t -c /tmp/x.conf` with `load_module`,
/// `haproxy -c -f x.cfg` with `lua-load`), which the administrator would run.
#[rustfmt::skip]
const CONFIG_OPTIONS: &[(&str, &[&str])] = &[
    ("apache2", &["-f"]),
    ("chronyd", &["-f"]),
    ("cupsd", &["-c", "-s"]),
    ("dhcpd", &["-cf"]),
    ("dnsmasq", &["--conf-file", "-C"]),
    ("dovecot", &["-c"]),
    ("freeradius", &["-d"]),
    ("haproxy", &["-f"]),
    ("httpd", &["-f"]),
    ("kamailio", &["-f"]),
    ("keepalived", &["--use-file", "-f"]),
    ("lighttpd", &["-f"]),
    ("mysqld", &["--defaults-file"]),
    ("nginx", &["-c"]),
    ("php-fpm", &["--fpm-config", "-y"]),
    ("proftpd", &["--config", "-c"]),
    ("radiusd", &["-d"]),
    ("rsyslogd", &["-f"]),
    ("squid", &["-f"]),
    ("sshd", &["-f"]),
    ("syslog-ng", &["--cfgfile", "-f"]),
    ("visudo", &["--file", "-f"]),
    ("zabbix_agent2", &["--config", "-c"]),
    ("zabbix_agentd", &["--config", "-c"]),
    ("zabbix_proxy", &["--config", "-c"]),
    ("zabbix_server", &["--config", "-c"]),
];

/// Given at least one option, all of them among its program's [`READ_ONLY_OPTIONS`] (with
/// the value written there, when one is), or naming the machine's own configuration (see
/// [`CONFIG_OPTIONS`]).
pub(super) fn options_read(program: &str, args: &[String]) -> bool {
    let table = |table: &'static [(&str, &'static [&'static str])]| {
        table
            .binary_search_by(|(name, _)| (*name).cmp(program))
            .ok()
            .and_then(|at| table.get(at))
            .map_or(&[][..], |(_, options)| *options)
    };
    let (shows, configs) = (table(READ_ONLY_OPTIONS), table(CONFIG_OPTIONS));
    if shows.is_empty() {
        return false;
    }
    let systems = |path: &str| path.starts_with("/etc/") && !path.contains("..");
    let mut shown = false;
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        let next = args.get(at + 1).map(String::as_str);
        at += 1;
        if !arg.starts_with('-') || arg == "-" {
            continue;
        }
        if shows.contains(&arg.as_str()) {
            shown = true;
            continue;
        }
        if let Some(value) = next
            && shows
                .iter()
                .any(|o| o.split_once(' ') == Some((arg.as_str(), value)))
        {
            shown = true;
            at += 1;
            continue;
        }
        let config = match arg.split_once('=') {
            Some((name, value)) if configs.contains(&name) => Some(value),
            None if configs.contains(&arg.as_str()) => {
                at += 1;
                next
            }
            _ => None,
        };
        if !config.is_some_and(systems) {
            return false;
        }
    }
    shown
}

fn subcommand_reads(program: &str, sub: &str) -> bool {
    READ_ONLY_SUBCOMMANDS
        .iter()
        .find(|(name, _)| *name == program)
        .is_some_and(|(_, subs)| subs.contains(&sub))
}

/// `-x` alone, inside a cluster of short options (`-rf`), or `--long`.
pub(crate) fn has_flag(args: &[String], short: Option<char>, long: &[&str]) -> bool {
    args.iter().any(|arg| {
        if let Some(name) = arg.strip_prefix("--") {
            let name = name.split('=').next().unwrap_or(name);
            long.contains(&name)
        } else if let Some(cluster) = arg.strip_prefix('-') {
            short.is_some_and(|c| {
                !cluster.is_empty()
                    && cluster.chars().all(|ch| ch.is_ascii_alphanumeric())
                    && cluster.contains(c)
            })
        } else {
            false
        }
    })
}

/// The values of these options: `-o v`, `--opt=v`, and a short option glued to it (`-ov`).
pub(super) fn option_values<'a>(args: &'a [String], options: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if options.contains(&arg.as_str()) {
            out.extend(words.next().map(String::as_str));
        } else if let Some((flag, value)) = arg.split_once('=')
            && flag.starts_with("--")
            && options.contains(&flag)
        {
            out.push(value);
        } else if !arg.starts_with("--")
            && let Some(short) = options.iter().find(|o| {
                o.len() == 2 && !o.starts_with("--") && arg.len() > 2 && arg.starts_with(**o)
            })
        {
            out.extend(arg.get(short.len()..));
        }
    }
    out
}

/// A path written out that resolves inside the work folder, not to the work folder itself
/// when `whole` is false, and holds nothing only known when it runs (`$D`, a backtick).
pub(super) fn surely_inside_work(place: Place<'_>, path: &str, whole: bool) -> bool {
    !path.is_empty()
        && !path.contains(['$', '`'])
        && place
            .resolve(path)
            .is_some_and(|abs| place.inside_work(&abs) && (whole || abs != place.work))
}

/// Arguments that are not options (a lone `-` counts; nothing after `--` is an option).
pub(crate) fn positional(args: &[String]) -> Vec<&str> {
    // Made for every command by several rules: room for every word at once, not grown.
    let mut out = Vec::with_capacity(args.len());
    let mut options_done = false;
    for arg in args {
        if options_done || arg == "-" || !arg.starts_with('-') {
            out.push(arg.as_str());
        } else if arg == "--" {
            options_done = true;
        }
    }
    out
}

/// A host's names a person may use for it: the host, and the domain under it
/// (`api.example.com` → `api.example.com`, `example.com`).
pub(crate) fn host_names(host: &str) -> Vec<String> {
    let host = host.to_lowercase();
    let labels: Vec<&str> = host.split('.').collect();
    let mut names = vec![host.clone()];
    if labels.len() > 2
        && let Some(tail) = labels.get(labels.len() - 2..)
    {
        names.push(tail.join("."));
    }
    names
}

#[cfg(test)]
mod control {
    use super::control_character;

    /// The byte scan finds exactly what `char::is_control` finds, for every character.
    #[test]
    fn every_character_is_found_as_chars_would_find_it() {
        let by_chars = |text: &str| {
            text.chars()
                .find(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
                .map(|c| format!("U+{:04X}", u32::from(c)))
        };
        let mut found = 0;
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let text = format!("ls {c}x\u{0085}");
            assert_eq!(
                control_character(&text),
                by_chars(&text),
                "{:04X}",
                u32::from(c)
            );
            found += usize::from(by_chars(&format!("{c}")).is_some());
        }
        // C0 but tab, LF and CR (29), DEL, and C1 (32).
        assert_eq!(found, 62);
        assert_eq!(control_character("a\u{9f}"), Some("U+009F".into()));
        assert_eq!(control_character("a\u{a0}\u{100}é\t\r\n"), None);
    }
}

#[cfg(test)]
mod checks {
    use super::{CONFIG_OPTIONS, READ_ONLY_OPTIONS, options_read};

    /// Both tables are looked up by a binary search, and a configuration option only counts
    /// beside a check of the same program.
    #[test]
    fn tables_are_sorted_and_every_configuration_has_its_check() {
        for table in [READ_ONLY_OPTIONS, CONFIG_OPTIONS] {
            for pair in table.windows(2) {
                if let [(a, _), (b, _)] = pair {
                    assert!(a < b, "{a} must come before {b}");
                }
            }
        }
        for (program, _) in CONFIG_OPTIONS {
            assert!(
                READ_ONLY_OPTIONS.iter().any(|(name, _)| name == program),
                "{program} names a configuration but no check"
            );
        }
    }

    #[test]
    fn a_check_reads_only_the_machines_own_configuration() {
        let cases: &[(&str, &str, bool)] = &[
            ("nginx", "-t", true),
            ("nginx", "-t -c /etc/nginx/nginx.conf", true),
            ("nginx", "-t -c /tmp/x.conf", false),
            ("nginx", "-t -c /etc/../tmp/x.conf", false),
            ("nginx", "-c /etc/nginx/nginx.conf", false),
            ("nginx", "-t -g daemon-off", false),
            ("haproxy", "-c -f /etc/haproxy/haproxy.cfg", true),
            ("haproxy", "-f /etc/haproxy/haproxy.cfg", false),
            ("squid", "-k parse", true),
            ("squid", "-k shutdown", false),
            ("squid", "-k", false),
            (
                "mysqld",
                "--validate-config --defaults-file=/etc/mysql/my.cnf",
                true,
            ),
            (
                "mysqld",
                "--validate-config --defaults-file=./my.cnf",
                false,
            ),
            ("nagios4", "-v /etc/nagios4/nagios.cfg", true),
            ("zabbix_agent2", "-R loglevel-increase", false),
            ("sshd", "", false),
            ("visudo", "-c", true),
            ("semanage", "login -l", true),
            ("semanage", "login -a -s user_u bob", false),
            ("visudo", "-c -f /etc/sudoers.d/dev", true),
            ("visudo", "-f /etc/sudoers.d/dev", false),
            ("unknown", "-t", false),
        ];
        for (program, args, reads) in cases {
            let args: Vec<String> = args.split_whitespace().map(String::from).collect();
            assert_eq!(
                options_read(program, &args),
                *reads,
                "{program} {}",
                args.join(" ")
            );
        }
    }
}
