//! Reading a command line as the shell would: where it is cut, what each simple command is,
//! and what runs inside substitutions, `bash -c`, `eval`, `xargs` and `find -exec`.
//!
//! Parsing proves danger, never safety: a construct the reader does not understand makes
//! the line `unknown`, and the law never lowers a score for an unknown line.
//!
//! # How the reader works
//!
//! - The line is read token by token: words are unquoted as the shell would
//!   (`"r"m` → `rm`, `$'\x72'` → `r`), expansions keep their source text (`$X`, `$(cmd)`).
//! - Compound commands (`if`, `for`, `while`, `until`, `case`, `select`, `function`,
//!   `( … )`, `{ …; }`) are walked through: their keywords are skipped and the commands inside
//!   are read as commands of the same text. Commands inside `( … )` or `{ …; }` have
//!   `via: Via::Group` and the parent of the text they are in (None at the top level); those
//!   inside `if`/`for`/`while`/`case` keep the text's `via`. Every pipeline inside a compound
//!   command has a number of its own, except when the compound command is itself a stage of a
//!   pipeline (`{ curl x; } | sh`, `a | while read l; do …; done`): then the commands inside
//!   join that pipeline, their stages offset by the compound's stage, and the stages after it
//!   come after all of theirs. Redirects written after the closing `)`, `}`, `fi`, `done` or
//!   `esac`, and a `&` after it, apply to every command directly inside.
//! - `(( … ))` and `[[ … ]]`: arithmetic runs nothing but its substitutions; a
//!   conditional is a command whose words are `[[ … ]]` (its `&&`, `<`, `(`… are words).
//! - Each simple command loses its wrappers (the catalogue's `Class::Wrapper` programs), is
//!   appended, then what it holds is read and appended after it: substitutions (they run
//!   first), then `bash -c` text, `eval` text, `xargs`/`find -exec` commands, the settings it
//!   runs as commands (`PAGER=…`, `man -P`, `ssh -o ProxyCommand=…`, `tar --to-command`), an
//!   editor's or debugger's shell escapes (`vim -c ':!…'`, `gdb -ex 'shell …'`), what a runner
//!   runs (`parallel`, `script -c`, `tmux`, `screen`, `expect`), what runs later (`at`,
//!   `crontab`, `systemd-run --on-calendar`), and a here-string fed to what reads commands
//!   (`runs.rs`). Here-documents are read when their line ends, so what a here-document holds
//!   comes after the rest of that line. What a literal `echo` or `printf` pipes into a shell,
//!   `at` or `crontab -` is read as that command's.
//! - A line of only assignments or only redirects (`A=1`, `> f`) is a command with no words.
//! - A wrapper with nothing after it is the program (`sudo -i`, `env`, `exec 3>&1`, `nohup`);
//!   `command -v`/`-V`, `sudo -e`/`-l`, `ionice -p`, `strace -p`, `taskset -p`, `flock … -c`
//!   and `systemd-run` with a timer are not taken off.
//! - An unquoted brace list that is a whole word is expanded (`{rm,-rf,/}` → `rm -rf /`); any
//!   other unquoted brace or bracket pattern counts as a glob.
//! - `sudo` reaches every command nested in a sudo command, substitutions included (they
//!   really run as the caller; counting them as sudo errs on the side of danger).
//! - Not read: here-documents inside `$( … )` (their body can end the substitution early),
//!   aliases and functions (a call of a function defined on the line is just its name), the
//!   text given to `trap`, `ssh host …`, `python -c` and other interpreters, what a container
//!   or a pod runs and git's settings (the law reads those itself), and `$IFS` tricks (the
//!   word stays dynamic).
//! - Nested texts are at most 8 deep and their total size is bounded, so every line is read
//!   in time linear in its length (times that bound).

mod cmd;
mod functions;
mod lex;
mod links;
mod loops;
mod options;
mod parse;
mod positional;
mod program;
mod runs;
mod search;
mod temp;
mod vars;
mod wrap;
mod written;

pub(crate) use loops::{find_narrows, lines_of};
pub(crate) use parse::passes_input_on;
pub(crate) use runs::{crontab_commands, echoed, ex_escapes, quote as quote_word, templated};
pub(crate) use search::search;
pub(crate) use written::glob_matches;

#[cfg(test)]
mod tests;

/// How a simple command was reached from the line as typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// Written at the top level of the line.
    Top,
    /// Inside `$(…)` or backticks.
    Substitution,
    /// Inside `<(…)` or `>(…)`.
    ProcessSubstitution,
    /// The text given to `bash -c`, `sh -c`, `zsh -c`, `su -c`…
    ShellC,
    /// The words given to `eval`.
    Eval,
    /// The command `xargs` runs (its last arguments come from stdin).
    Xargs,
    /// The command `find -exec`/`-execdir`/`-ok` runs.
    FindExec,
    /// A here-document or here-string fed to a shell (`bash <<EOF`).
    HereDoc,
    /// Inside `( … )` or `{ …; }`.
    Group,
    /// A setting a program runs as a command: a variable (`PAGER=…`, `GIT_SSH_COMMAND=…`) or
    /// an option's value (`man -P …`, `ssh -o ProxyCommand=…`, `tar --to-command=…`).
    Setting,
    /// A shell escape in an editor's, pager's or debugger's own commands (`vim -c ':!…'`,
    /// `gdb -ex 'shell …'`, `less '+!…'`).
    Editor,
    /// The command another program runs, given as its words or typed into it (`parallel`,
    /// `screen`, `gdb --args`, `expect`'s `spawn`, `tmux send-keys`).
    Runs,
    /// What runs later: `at`, `batch`, a crontab's lines, `systemd-run --on-calendar`.
    Later,
}

/// What a redirect does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirectOp {
    /// `>` or `>|` or `&>`
    Write,
    /// `>>` or `&>>`
    Append,
    /// `<`
    Read,
    /// `<<` / `<<-`: the target is the here-document's body.
    HereDoc,
    /// `<<<`: the target is the string.
    HereString,
    /// `>&N`, `<&N`, `N>&M`: duplication; the target is the other descriptor (or a file for `>& file`).
    Dup,
}

/// One redirect of a simple command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The descriptor written before the operator, if any (`2>` → Some(2)).
    pub fd: Option<u32>,
    pub op: RedirectOp,
    /// The target word, unquoted (a path, a descriptor number, or a here-document's body).
    pub target: String,
}

/// One simple command: a program and its words, after wrappers are taken off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The words, unquoted, wrappers removed; `words[0]` is the program as written
    /// (`/usr/bin/git` stays a path; use [`Command::program`] for its basename).
    /// A word holding a substitution keeps its text (`"$(env)"` → `$(env)`).
    pub words: Vec<String>,
    /// `VAR=value` assignments written before the program (or given to `env`).
    pub assignments: Vec<(String, String)>,
    /// The wrappers taken off, in order, by their catalogue names (`sudo`, `env`, `nohup`,
    /// `timeout`, `nice`, `time`, `command`, `exec`, `doas`, `stdbuf`, `ionice`, `watch`, …).
    pub wrappers: Vec<String>,
    /// True when `sudo` or `doas` (or `su -c`) was among the wrappers, here or in any enclosing command.
    /// Also true for `pkexec`, `run0`, `chroot`, `nsenter`, `gosu` and `systemd-run` (for the
    /// system's manager) wrappers, and when the program itself runs as another user (`su`,
    /// `runuser`, `sudo -i`, `sudoedit`).
    pub sudo: bool,
    pub redirects: Vec<Redirect>,
    /// Which pipeline of the line this command belongs to (commands cut by `;`, `&&`, `||`,
    /// `&` or a newline are in different pipelines; `|` keeps them in one). Nested commands
    /// get pipeline numbers of their own. The commands inside a compound command that is a
    /// pipeline stage (`{ curl x; } | sh`) join that pipeline (see the module docs).
    pub pipeline: usize,
    /// Position inside its pipeline: 0 for the first command, 1 after the first `|`, …
    pub stage: usize,
    /// How the command was reached.
    pub via: Via,
    /// The index (in [`Line::commands`]) of the command whose text held this one, if nested.
    pub parent: Option<usize>,
    /// True when a word is not fully known before running: an unquoted or double-quoted
    /// `$VAR`, `${…}`, `$(…)`, backticks, or an unquoted glob (or brace pattern) in the
    /// program position.
    pub dynamic: bool,
    /// True when the program itself is dynamic (`$CMD args`, `$(…) args`).
    pub dynamic_program: bool,
    /// True when the command ran in the background (`&`).
    pub background: bool,
    /// `words[0]` as the catalogue resolves it, made once when the command is made: every
    /// rule asks for it, so it is one lookup per command, not one per rule. Private, so a
    /// command with other words is made by [`Command::with_words`], which resolves again.
    program: std::borrow::Cow<'static, str>,
}

/// A whole line, cut into simple commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Every simple command, in reading order, nested ones after the command that holds them.
    pub commands: Vec<Command>,
    /// Why the reader could not fully understand the line (unbalanced quotes, an unterminated
    /// substitution or here-document, nesting too deep, a construct it does not read…), if so.
    pub unknown: Option<String>,
}

/// Is a program word, as its command keeps it (expansions as their source text), only
/// known when it runs? One with no expansion is known; one with an expansion may still name
/// its program or a folder ([`program::known`]).
pub(crate) fn unknown_program(word: &str) -> bool {
    word.contains(['$', '`']) && !program::known(word)
}

impl Command {
    /// The program as the catalogue resolves it (`/usr/bin/Git` → `git`, `python3.12` →
    /// `python`, `gawk` → `awk`, `nc.exe` → `nc`), or "" when there is none.
    pub fn program(&self) -> &str {
        &self.program
    }

    /// The catalogue's name for a command's first word (its own line's name, not a copy,
    /// when the catalogue knows it).
    pub(crate) fn resolve(words: &[String]) -> std::borrow::Cow<'static, str> {
        crate::catalogue::resolved(words.first().map(String::as_str).unwrap_or(""))
    }

    /// Its words and redirect targets, each read by `read`; a target `place` says names no
    /// place (a here-document's text) kept as it is. `None` when `read` can't read one.
    pub(crate) fn texts_read(
        &self,
        place: fn(&Redirect) -> bool,
        mut read: impl FnMut(&str) -> Option<String>,
    ) -> Option<(Vec<String>, Vec<String>)> {
        let words = self
            .words
            .iter()
            .map(|w| read(w))
            .collect::<Option<Vec<_>>>()?;
        let targets = self
            .redirects
            .iter()
            .map(|r| {
                if place(r) {
                    read(&r.target)
                } else {
                    Some(r.target.clone())
                }
            })
            .collect::<Option<Vec<_>>>()?;
        Some((words, targets))
    }

    /// This command with other words (and the program they name), the rest as it is.
    pub fn with_words(&self, words: Vec<String>) -> Command {
        Command {
            program: Command::resolve(&words),
            words,
            ..self.clone()
        }
    }

    /// The words after the program.
    pub fn args(&self) -> &[String] {
        self.words.get(1..).unwrap_or(&[])
    }
}

impl Line {
    /// Reads a command line. Total: never panics; what it cannot read it marks `unknown`
    /// (and still returns every command it could read).
    pub fn parse(text: &str) -> Line {
        let mut out = parse::Out::new(text.len());
        let scope = parse::Scope {
            via: Via::Top,
            parent: None,
            sudo: false,
            depth: 0,
        };
        parse::parse_text(&mut out, text, scope);
        loops::bind(&mut out);
        temp::bind(&mut out);
        functions::bind(&mut out);
        vars::cut_paths(&mut out);
        vars::bind(&mut out);
        links::bind(&mut out);
        written::read(&mut out);
        written::values(&mut out);
        written::aliases(&mut out);
        vars::printed_texts(&mut out);
        written::globs(&mut out);
        Line {
            commands: out.commands,
            unknown: out.unknown,
        }
    }
}
