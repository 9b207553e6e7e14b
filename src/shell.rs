//! Reading a command line as the shell would: where it is cut, what each simple command is,
//! and what runs inside substitutions, `bash -c`, `eval`, `xargs` and `find -exec`.
//!
//! Parsing proves danger, never safety: a construct the reader does not understand makes
//! the line `unknown`, and the law never lowers a score for an unknown line.

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
    /// The wrappers taken off, in order (`sudo`, `env`, `nohup`, `timeout`, `nice`, `time`,
    /// `command`, `exec`, `doas`, `stdbuf`, `ionice`, `watch`, …).
    pub wrappers: Vec<String>,
    /// True when `sudo` or `doas` (or `su -c`) was among the wrappers, here or in any enclosing command.
    pub sudo: bool,
    pub redirects: Vec<Redirect>,
    /// Which pipeline of the line this command belongs to (commands cut by `;`, `&&`, `||`,
    /// `&` or a newline are in different pipelines; `|` keeps them in one). Nested commands
    /// get pipeline numbers of their own.
    pub pipeline: usize,
    /// Position inside its pipeline: 0 for the first command, 1 after the first `|`, …
    pub stage: usize,
    /// How the command was reached.
    pub via: Via,
    /// The index (in [`Line::commands`]) of the command whose text held this one, if nested.
    pub parent: Option<usize>,
    /// True when a word is not fully known before running: an unquoted or double-quoted
    /// `$VAR`, `${…}`, `$(…)`, backticks, or an unquoted glob in the program position.
    pub dynamic: bool,
    /// True when the program itself is dynamic (`$CMD args`, `$(…) args`).
    pub dynamic_program: bool,
    /// True when the command ran in the background (`&`).
    pub background: bool,
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

impl Command {
    /// The program's basename, lower case (`/usr/bin/Git` → `git`), or "" when there is none.
    pub fn program(&self) -> String {
        let first = self.words.first().map(String::as_str).unwrap_or("");
        first.rsplit('/').next().unwrap_or(first).to_ascii_lowercase()
    }

    /// The words after the program.
    pub fn args(&self) -> &[String] {
        self.words.get(1..).unwrap_or(&[])
    }
}

impl Line {
    /// Reads a command line. Total: never panics; what it cannot read it marks `unknown`.
    pub fn parse(text: &str) -> Line {
        let _ = text;
        Line {
            commands: Vec::new(),
            unknown: Some("the shell reader is not written yet".into()),
        }
    }
}
