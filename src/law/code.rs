//! Code inside interpreters, read for what it does.
//!
//! An interpreter's code (`python3 -c`, `node -e`, `perl -E`, `ruby -e`, `php -r`, `lua -e`,
//! `Rscript -e`, `julia -e`, `deno eval`, awk's program, `osascript -e`, a here-document or
//! here-string fed to one, a literal piped into one, or code `echo` writes to a file) is read
//! by a small reader of its language and summed up as a [`Reading`]: the command lines it runs,
//! the paths it deletes, the files it reads and writes, the requests and connections it
//! makes, and code it fetches and runs. `law::command::code` turns a reading into risks:
//! each command line is judged as a shell line of its own by every rule, a delete as
//! `rm -r -f PATH`, a request, a file sent and a socket wired to a shell by the network's
//! rules. What is only known when the code runs (a variable, a concatenation with one) is
//! kept as a placeholder (`${cmd}`), so the shell's rules see it as dynamic.
//!
//! The parts:
//! - `lexicon.rs`: the shape of a language's code ([`lexicon::Syntax`]) and the tables of what
//!   its names mean; one file per language (`python.rs`, `javascript.rs`, `perl.rs`,
//!   `ruby.rs`, `php.rs`, `lua.rs`, `r.rs`, `julia.rs`, `awk.rs`, `tcl.rs`, `applescript.rs`)
//!   holds its lexicon, and `other.rs` the few names read in languages with no reader of their
//!   own (Groovy, Java, Elixir) and in code of no known language.
//! - `lex.rs`: tokens (strings with their interpolations, commands written as literals).
//! - `read.rs`: statements and expressions, imports and aliases, loops, values, and calls
//!   judged by the lexicon; `read/functions.rs`: the program's own functions, read where they
//!   are called. Tcl and AppleScript, whose code is words rather than expressions, have
//!   readers of their own (`tcl.rs`, `applescript.rs`) over the same calls.
//!
//! PowerShell is left to its own reader. Reading is linear in the code's length and bounded
//! (see `read.rs`); code that can't be read to its end is unknown, and unknown never lowers
//! a score.

mod applescript;
mod awk;
mod javascript;
mod julia;
mod lex;
pub(crate) mod lexicon;
mod lua;
mod other;
mod perl;
mod php;
mod python;
mod r;
mod read;
mod ruby;
mod tcl;
#[cfg(test)]
mod tests;

use crate::catalogue::{self, Language};
use crate::shell::{Command, Line, RedirectOp};
use lexicon::Lexicon;
use std::rc::Rc;

/// A piece of text a program builds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    Lit(String),
    /// The home folder (`os.homedir()`, `$ENV{HOME}`, `Path.home()`).
    Home,
    /// Something only known when the code runs, by a name for it.
    Unknown(String),
}

/// What the reader knows of a value. What a value holds is shared (`Rc`): a name read,
/// an argument bound or a value kept is a count, not a copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Value {
    Text(Rc<Vec<Piece>>),
    /// Julia's command literal: run by `run`, `read`, `success`.
    Command(Rc<Vec<Piece>>),
    List(Rc<Vec<Value>>),
    /// Keys lower case; items without a key under `""`.
    Map(Rc<Vec<(String, Value)>>),
    /// A module, an object or what a call gave, by its path (`child_process`,
    /// `socket.socket`); as text, only known when it runs.
    Object(Rc<Path>),
    /// What a request answered, from the host when it is known.
    Fetched(Option<String>),
    /// Each of these in turn: a loop's name over a list (`for c in ['a', 'b']`).
    Each(Rc<Vec<Value>>),
    /// What a file holds (as a path, unquoted), or standard input (`None`): followed into
    /// what is sent.
    Data(Option<String>),
    Bool(bool),
    Other,
}

impl Value {
    pub(crate) fn text(pieces: Vec<Piece>) -> Value {
        Value::Text(Rc::new(pieces))
    }

    pub(crate) fn command(pieces: Vec<Piece>) -> Value {
        Value::Command(Rc::new(pieces))
    }

    pub(crate) fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(items))
    }

    pub(crate) fn map(entries: Vec<(String, Value)>) -> Value {
        Value::Map(Rc::new(entries))
    }

    pub(crate) fn each(items: Vec<Value>) -> Value {
        Value::Each(Rc::new(items))
    }

    pub(crate) fn object(path: &str) -> Value {
        Value::Object(Rc::new(Path::new(Rc::from(path))))
    }

    pub(crate) fn path(path: String) -> Value {
        Value::Object(Rc::new(Path::new(Rc::from(path))))
    }
}

/// A path a program names (`os.system`, `subprocess.run`), with what its lexicon says of it,
/// looked up the first time it is asked for: a path read again (a function's body read at
/// each of its calls) is not looked up again. Paths are equal when their texts are.
#[derive(Debug)]
pub(crate) struct Path {
    /// Shared with the key the reading finds it by.
    text: Rc<str>,
    special: std::cell::OnceCell<Option<lexicon::Special>>,
    call: std::cell::OnceCell<lexicon::Called>,
}

impl Path {
    pub(crate) fn new(text: Rc<str>) -> Path {
        Path {
            text,
            special: std::cell::OnceCell::new(),
            call: std::cell::OnceCell::new(),
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    /// What the path stands for of its own, if anything ([`lexicon::Index::special`]).
    pub(crate) fn special(&self, lexicon: &'static Lexicon) -> Option<lexicon::Special> {
        *self
            .special
            .get_or_init(|| lexicon.index().special(&self.text))
    }

    /// What calling the path means ([`lexicon::Index::called`]).
    pub(crate) fn called(&self, lexicon: &'static Lexicon) -> &lexicon::Called {
        self.call.get_or_init(|| lexicon.index().called(&self.text))
    }
}

impl std::ops::Deref for Path {
    type Target = str;

    fn deref(&self) -> &str {
        &self.text
    }
}

impl std::fmt::Display for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl PartialEq for Path {
    fn eq(&self, other: &Path) -> bool {
        self.text == other.text
    }
}

impl Eq for Path {}

/// A command line a program runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Run {
    /// As shell text: placeholders (`${cmd}`) where it is only known when it runs.
    pub line: String,
    /// All of it is known.
    pub known: bool,
    /// Its program, when known.
    pub program: Option<String>,
}

/// A path a program deletes, as one shell word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Removal {
    pub path: String,
    /// With everything in it.
    pub tree: bool,
}

/// What a request sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sent {
    /// Asks for a page.
    Get,
    /// Sends a body.
    Send,
    /// Deletes what its address names.
    Delete,
}

/// An HTTP request a program makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Request {
    pub url: String,
    /// The host, when the address is known that far.
    pub host: Option<String>,
    pub sent: Sent,
    /// The files it sends, followed from where they were read (`None`: standard input).
    pub files: Vec<Option<String>>,
    /// The headers it is given, `Name: value` as a shell word would spell them
    /// (`Authorization: token ${github_token}`).
    pub headers: Vec<String>,
}

/// What a program does, as far as its code says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Reading {
    pub runs: Vec<Run>,
    pub deletes: Vec<Removal>,
    /// Files it reads, as shell words.
    pub reads: Vec<String>,
    /// Files it writes, as shell words.
    pub writes: Vec<String>,
    pub requests: Vec<Request>,
    /// Hosts it connects to over a raw socket (`None`: only known when it runs).
    pub connects: Vec<Option<String>>,
    /// It makes a socket.
    pub socket: bool,
    /// It listens for connections.
    pub listens: bool,
    /// It wires descriptors to a socket or a terminal (`os.dup2`, `pty.spawn`, `fdopen`).
    pub wires: bool,
    /// A name that makes its requests send (`CURLOPT_POSTFIELDS`).
    pub marked: bool,
    /// Files it saves a download to, with the host.
    pub downloads: Vec<(String, Option<String>)>,
    /// Code it fetched and runs, by the host.
    pub fetched_runs: Vec<Option<String>>,
    /// Files it runs as code (`include`, `source`, `dofile`).
    pub ran_files: Vec<String>,
    /// Code it runs that is only known when it runs (`eval(d)`, `exec(sys.argv[1])`), as
    /// its text with placeholders.
    pub unknown_evals: Vec<String>,
    /// It runs what it reads on its standard input as code (`exec(sys.stdin.read())`).
    pub runs_stdin: bool,
    /// Why part of it could not be read, if so.
    pub unknown: Option<String>,
    /// The code could not be read to its end (an unterminated string or comment).
    pub broken: bool,
    /// The reader gave up on code that names what runs, deletes or reaches the network (too
    /// long, too deep, too many calls): no syntax error the interpreter refuses too, so
    /// what was left unread may run and be what does harm.
    pub gave_up: bool,
    /// It reads its standard input.
    pub stdin: bool,
}

impl Reading {
    pub(crate) fn merge(&mut self, other: Reading) {
        self.runs.extend(other.runs);
        self.deletes.extend(other.deletes);
        self.reads.extend(other.reads);
        self.writes.extend(other.writes);
        self.requests.extend(other.requests);
        self.connects.extend(other.connects);
        self.socket |= other.socket;
        self.listens |= other.listens;
        self.wires |= other.wires;
        self.marked |= other.marked;
        self.downloads.extend(other.downloads);
        self.fetched_runs.extend(other.fetched_runs);
        self.ran_files.extend(other.ran_files);
        self.unknown_evals.extend(other.unknown_evals);
        self.runs_stdin |= other.runs_stdin;
        if self.unknown.is_none() {
            self.unknown = other.unknown;
        }
        self.broken |= other.broken;
        self.gave_up |= other.gave_up;
        self.stdin |= other.stdin;
    }
}

/// The lexicon of a language warden reads (`None`: PowerShell, read by its own reader).
pub(crate) fn lexicon(language: Option<Language>) -> Option<&'static Lexicon> {
    Some(match language {
        Some(Language::Python) => &python::LEXICON,
        Some(Language::JavaScript) => &javascript::LEXICON,
        Some(Language::Perl) => &perl::LEXICON,
        Some(Language::Ruby) => &ruby::LEXICON,
        Some(Language::Php) => &php::LEXICON,
        Some(Language::Lua) => &lua::LEXICON,
        Some(Language::R) => &r::LEXICON,
        Some(Language::Julia) => &julia::LEXICON,
        Some(Language::Awk) => &awk::LEXICON,
        Some(Language::Tcl) => &tcl::LEXICON,
        Some(Language::AppleScript) => &applescript::LEXICON,
        Some(Language::PowerShell) => return None,
        Some(
            Language::Elixir
            | Language::Groovy
            | Language::Java
            | Language::Kotlin
            | Language::Scala
            | Language::Swift,
        )
        | None => &other::LEXICON,
    })
}

/// Reads a program with a lexicon.
pub(crate) fn read(lexicon: &'static Lexicon, code: &str) -> Reading {
    let lexed = match lexicon.language {
        Language::Tcl | Language::AppleScript => None,
        _ => Some(lex::lex(code, &lexicon.syntax)),
    };
    let mut state = read::State::new(lexicon, 0);
    match (lexicon.language, &lexed) {
        (Language::Tcl, _) => tcl::read(&mut state, code),
        (Language::AppleScript, _) => applescript::read(&mut state, code),
        (_, Some(lexed)) => state.program(lexed),
        (_, None) => {}
    }
    let mut reading = state.reading;
    if reading.unknown.is_some() {
        let danger = names_danger(lexicon, code);
        // Past the bound of what is read, code is cut, not broken: it may be valid and run,
        // and what it does there is unread (a write as much as a delete).
        let cut = code.len() > lex::MAX_CODE;
        let refused = reading.broken && !cut;
        if refused && !danger {
            // Code that can't be read to its end and names nothing that runs, deletes or
            // reaches the network is not a danger of its own.
            reading.unknown = None;
        } else if danger && !refused {
            reading.gave_up = true;
        }
    }
    reading
}

/// Does the code name anything in its lexicon that runs, deletes, or reaches the network?
fn names_danger(lexicon: &'static Lexicon, code: &str) -> bool {
    let Some(finder) = lexicon.index().danger() else {
        return true;
    };
    finder.is_match(code) || code.contains('`')
}

/// Where a program's code came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// Given to the interpreter to run: an inline flag, standard input, a here-document.
    Runs,
    /// Written to a file by `echo` or `printf`: it runs when the file does.
    Dropped,
}

/// A program found in a command.
pub(crate) struct Source {
    pub lexicon: &'static Lexicon,
    pub code: String,
    pub origin: Origin,
    /// The code is a variable of the shell's (`python3 -c "$CODE"`): only known when it runs.
    pub dynamic: bool,
    /// The words the line gives the code as its arguments (`python3 -c CODE ~`): what it
    /// reads of `sys.argv`, `process.argv`, `@ARGV` and the like is one of them.
    pub arguments: Vec<String>,
}

/// `$NAME` or `${NAME}`, whole.
fn is_variable(word: &str) -> bool {
    let Some(rest) = word.trim().strip_prefix('$') else {
        return false;
    };
    let name = rest
        .strip_prefix('{')
        .and_then(|r| r.strip_suffix('}'))
        .unwrap_or(rest);
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Options of interpreters that take a value as the next word.
const VALUED: &[&str] = &[
    "--import",
    "--include",
    "--load",
    "--loader",
    "--project",
    "--require",
    "--sysimage",
    "-C",
    "-I",
    "-J",
    "-L",
    "-M",
    "-W",
    "-X",
    "-d",
    "-r",
];

/// A framework's console: its language's interpreter inside the application, taking code
/// on its command line or its input (`python manage.py shell -c CODE`, `php artisan tinker
/// --execute=CODE`, `rails console <<< CODE`): the tool (a program, or the script an
/// interpreter runs, by its name without its extension), its console's subcommands, and how
/// it takes code.
const CONSOLES: &[(&str, &[&str], catalogue::Code)] = &[
    (
        "artisan",
        &["tinker"],
        console(Language::Php, &["--execute"]),
    ),
    (
        "django-admin",
        &["shell"],
        console(Language::Python, &["--command", "-c"]),
    ),
    ("flask", &["shell"], console(Language::Python, &[])),
    (
        "manage",
        &["shell"],
        console(Language::Python, &["--command", "-c"]),
    ),
    ("rails", &["c", "console"], console(Language::Ruby, &[])),
];

const fn console(language: Language, inline: &'static [&'static str]) -> catalogue::Code {
    catalogue::Code {
        language,
        inline,
        stdin: true,
    }
}

/// A name without its folder and its extension (`./manage.py` is `manage`).
fn stem(word: &str) -> &str {
    let name = crate::law::paths::basename(word);
    name.split('.').next().unwrap_or(name)
}

/// The console a command opens ([`CONSOLES`]), and the words after its subcommand.
fn console_of(cmd: &Command) -> Option<(catalogue::Code, &[String])> {
    let args = cmd.args();
    // The program as the catalogue resolved it: `python3.12` is `python`.
    let (tool, rest) = if matches!(cmd.program(), "python" | "php") {
        let at = args.iter().position(|a| !a.starts_with('-'))?;
        (stem(args.get(at)?), args.get(at + 1..)?)
    } else {
        (stem(cmd.program()), args)
    };
    let (_, subcommands, code) = CONSOLES
        .iter()
        .find(|(name, _, _)| name.eq_ignore_ascii_case(tool))?;
    let at = rest.iter().position(|a| !a.starts_with('-'))?;
    subcommands
        .contains(&rest.get(at)?.as_str())
        .then(|| (*code, rest.get(at + 1..).unwrap_or(&[])))
}

/// A framework's console given no code on its command line: it runs what comes on its
/// input (`curl … | python manage.py shell`, `… | rails console`).
pub(crate) fn console_reads_input(cmd: &Command) -> bool {
    console_of(cmd).is_some_and(|(code, rest)| inline_code(rest, code.inline, "").code.is_empty())
}

/// The programs a command runs (or writes to a file), with their language's lexicon.
pub(crate) fn sources(cmd: &Command, line: &Line) -> Vec<Source> {
    let program = cmd.program();
    if matches!(program, "echo" | "printf" | "cat" | "tee") {
        return dropped(cmd, line);
    }
    let console = console_of(cmd);
    let (code, args) = match console {
        Some((code, rest)) => (code, rest),
        None => {
            let Some(code) = catalogue::program(program).and_then(|found| found.code) else {
                return Vec::new();
            };
            (code, cmd.args())
        }
    };
    let mut language = code.language;
    if language == Language::AppleScript
        && args.windows(2).any(|pair| {
            matches!(pair, [flag, value] if flag == "-l" && value.eq_ignore_ascii_case("javascript"))
        })
    {
        language = Language::JavaScript;
    }
    let Some(lexicon) = lexicon(Some(language)) else {
        return Vec::new();
    };
    let Given {
        code: inline,
        script,
        arguments,
    } = inline_code(args, code.inline, program);
    let arguments: Vec<String> = arguments
        .and_then(|from| args.get(from..))
        .unwrap_or(&[])
        .iter()
        .take(MAX_ARGUMENTS)
        .cloned()
        .collect();
    // Several `-e` are the lines of one program.
    let mut out: Vec<Source> = Vec::new();
    if !inline.is_empty() {
        out.push(Source {
            lexicon,
            dynamic: cmd.dynamic && inline.iter().any(|code| is_variable(code)),
            code: inline.join("\n"),
            origin: Origin::Runs,
            arguments: arguments.clone(),
        });
    }
    if out.is_empty() && code.stdin && !script {
        for body in stdin_code(cmd, line) {
            // PHP's own input is a file, code after `<?php`; a console's is code.
            let body = if language == Language::Php && console.is_none() {
                match body.split_once("<?php") {
                    Some((_, code)) => code.to_string(),
                    None => continue,
                }
            } else {
                body
            };
            out.push(Source {
                lexicon,
                code: body,
                origin: Origin::Runs,
                dynamic: false,
                arguments: arguments.clone(),
            });
        }
    }
    out
}

/// The most words after the code read as its arguments.
const MAX_ARGUMENTS: usize = 8;

/// What an interpreter's command line gives it.
struct Given {
    /// The code given on the line.
    code: Vec<String>,
    /// It runs a script file (or a module) instead of reading code from its input.
    script: bool,
    /// Where the words its code reads as its arguments start (`sys.argv`, `process.argv`,
    /// `@ARGV`, `ARGV`, `$argv`): after the code, or after `-` for code on its input.
    arguments: Option<usize>,
}

/// The code given on an interpreter's command line, and what else the line gives it.
fn inline_code(args: &[String], inline: &[&str], program: &str) -> Given {
    let given = |code, script, arguments| Given {
        code,
        script,
        arguments,
    };
    let mut out = Vec::new();
    let awk = inline.contains(&"");
    // A subcommand whose operands are code (`deno eval CODE`, `rails runner CODE`).
    let subcommand = |arg: &str| {
        inline
            .iter()
            .any(|flag| !flag.is_empty() && !flag.starts_with('-') && arg == *flag)
    };
    let mut index = 0;
    let mut options_done = false;
    let mut program_file = false;
    while let Some(arg) = args.get(index) {
        index += 1;
        if options_done || !arg.starts_with('-') || arg == "-" {
            // The first operand: awk's program, deno's `eval`, or a script.
            if !out.is_empty() || program_file {
                let arguments = (!out.is_empty()).then_some(index - 1);
                return given(out, program_file, arguments);
            }
            if awk {
                out.push(arg.clone());
                return given(out, program_file, Some(index));
            }
            if subcommand(arg) {
                // Every operand after it, read as code: an option's value among them
                // (`rails runner -e production CODE`) reads as a name, and the code is never
                // missed for taking it.
                out.extend(
                    args.iter()
                        .skip(index)
                        .filter(|a| !a.starts_with('-'))
                        .cloned(),
                );
                break;
            }
            let stdin = arg == "-" || arg == "/dev/stdin";
            return given(out, !stdin, stdin.then_some(index));
        }
        if arg == "--" {
            options_done = true;
            continue;
        }
        if awk {
            match arg.as_str() {
                "-f" | "--file" | "-E" | "--exec" => {
                    program_file = true;
                    index += 1;
                }
                "-e" | "--source" => {
                    out.extend(args.get(index).cloned());
                    index += 1;
                }
                "-F" | "-v" | "-i" | "-l" | "--field-separator" | "--assign" | "--include"
                | "--load" => index += 1,
                other => {
                    if let Some(code) = other.strip_prefix("--source=") {
                        out.push(code.to_string());
                    }
                }
            }
            continue;
        }
        if program == "osascript" && arg == "-l" {
            index += 1;
            continue;
        }
        // `-c CODE`, `--eval CODE`, `--eval=CODE`.
        if inline.contains(&arg.as_str()) {
            out.extend(args.get(index).cloned());
            index += 1;
            continue;
        }
        if let Some((flag, value)) = arg.split_once('=')
            && flag.starts_with("--")
            && inline.contains(&flag)
        {
            out.push(value.to_string());
            continue;
        }
        // A cluster ending in the flag (`-ne`, `-lE`), or the flag glued to its code
        // (`-e'print 1'` → `-eprint 1`).
        if !arg.starts_with("--") && arg.len() > 2 {
            let letters = arg.get(1..).unwrap_or("");
            let mut taken = false;
            for flag in inline.iter().filter(|f| f.len() == 2 && f.starts_with('-')) {
                let Some(letter) = flag.chars().nth(1) else {
                    continue;
                };
                let cluster = letters.chars().all(|c| c.is_ascii_alphabetic());
                if cluster && letters.ends_with(letter) {
                    out.extend(args.get(index).cloned());
                    index += 1;
                    taken = true;
                    break;
                }
                if !cluster && let Some(code) = letters.strip_prefix(letter) {
                    out.push(code.to_string());
                    taken = true;
                    break;
                }
            }
            if taken {
                continue;
            }
        }
        if arg == "-m" && program == "python" {
            // A module runs, with the rest as its arguments.
            return given(out, true, None);
        }
        if VALUED.contains(&arg.as_str()) {
            index += 1;
        }
    }
    given(out, program_file, None)
}

/// Code an interpreter reads on its standard input: a here-document or here-string, or a
/// literal `echo`, `printf` or `cat <<EOF` pipes into it.
/// The texts a command is given on its standard input, when the line writes them out (a
/// here-document or here-string, a literal `echo` or `printf`, `cat <<EOF`, piped in).
pub(crate) fn stdin_text(cmd: &Command, line: &Line) -> Vec<String> {
    stdin_code(cmd, line)
}

fn stdin_code(cmd: &Command, line: &Line) -> Vec<String> {
    let mut out: Vec<String> = cmd
        .redirects
        .iter()
        .filter(|r| matches!(r.op, RedirectOp::HereDoc | RedirectOp::HereString))
        .map(|r| r.target.clone())
        .collect();
    if !out.is_empty() || cmd.stage == 0 {
        return out;
    }
    let Some(before) = line
        .commands
        .iter()
        .find(|c| c.pipeline == cmd.pipeline && c.stage + 1 == cmd.stage && c.parent == cmd.parent)
    else {
        return out;
    };
    let args = before.args();
    match before.program() {
        "echo" => out.push(echo_text(args)),
        "printf" => {
            if let Some((template, fill)) = args.split_first() {
                out.push(printf(template, fill));
            }
        }
        "cat" if crate::law::command::positional(args).is_empty() => {
            out.extend(
                before
                    .redirects
                    .iter()
                    .filter(|r| matches!(r.op, RedirectOp::HereDoc | RedirectOp::HereString))
                    .map(|r| r.target.clone()),
            );
        }
        _ => {}
    }
    out
}

/// `\n`, `\t`, `\\` as echo -e and printf read them.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// What `printf FORMAT ARGS…` prints, near enough: `%s` and `%b` filled in order.
fn printf(template: &str, fill: &[String]) -> String {
    let mut out = String::new();
    let mut values = fill.iter();
    let mut rest = template;
    while let Some(at) = rest.find('%') {
        out.push_str(rest.get(..at).unwrap_or(""));
        let tail = rest.get(at + 1..).unwrap_or("");
        if let Some(after) = tail.strip_prefix('%') {
            out.push('%');
            rest = after;
        } else if let Some(after) = tail.strip_prefix('s').or_else(|| tail.strip_prefix('b')) {
            out.push_str(values.next().map(String::as_str).unwrap_or(""));
            rest = after;
        } else {
            out.push('%');
            rest = tail;
        }
    }
    out.push_str(rest);
    let mut text = unescape(&out);
    // printf reuses its format for arguments left over; the rest is code too.
    for value in values {
        text.push(' ');
        text.push_str(value);
    }
    text
}

/// Code `echo`, `printf`, `cat` or `tee` writes to a file (not a sink), in the language of
/// its name: it runs when the file does (a file of no known language is read with the
/// reader of calls common to C-like languages, `other.rs`).
fn dropped(cmd: &Command, line: &Line) -> Vec<Source> {
    let Some((target, code)) = written_code(cmd, line) else {
        return Vec::new();
    };
    let language = language_of_file(&target);
    let Some(lexicon) = lexicon(language) else {
        return Vec::new();
    };
    let code = if language == Some(Language::Php) {
        code.split_once("<?php")
            .map_or(code.clone(), |(_, rest)| rest.to_string())
    } else {
        code
    };
    vec![Source {
        lexicon,
        code,
        origin: Origin::Dropped,
        dynamic: false,
        arguments: Vec::new(),
    }]
}

/// The language a file's name says its code is in, by its extension (`None`: none known).
fn language_of_file(path: &str) -> Option<Language> {
    match extension_of(path).as_str() {
        "py" => Some(Language::Python),
        "js" | "mjs" | "cjs" | "ts" => Some(Language::JavaScript),
        "pl" | "pm" => Some(Language::Perl),
        "rb" => Some(Language::Ruby),
        "php" => Some(Language::Php),
        "lua" => Some(Language::Lua),
        "r" => Some(Language::R),
        "jl" => Some(Language::Julia),
        "awk" => Some(Language::Awk),
        "tcl" | "exp" => Some(Language::Tcl),
        "applescript" => Some(Language::AppleScript),
        "java" => Some(Language::Java),
        "groovy" | "gradle" => Some(Language::Groovy),
        "kt" | "kts" => Some(Language::Kotlin),
        "scala" | "sc" => Some(Language::Scala),
        "swift" => Some(Language::Swift),
        "ex" | "exs" => Some(Language::Elixir),
        _ => None,
    }
}

/// Is the code of a file of this name read where the shell writes it with its text
/// ([`sources`]: a language with a reader of its own, or a source file of one read by the
/// C-like reader)? Any other program file (a shell script, a file whose `#!` line names
/// its interpreter) is judged as a file tool's write of it is (`file::program_run`).
pub(crate) fn read_where_written(path: &str) -> bool {
    language_of_file(path).is_some() || is_unread_source(path)
}

/// The file `echo`, `printf`, `cat` or `tee` writes (not a sink) and the text it writes
/// there, when the line spells the text out: `echo`'s and `printf`'s words, `cat`'s and
/// `tee`'s input (a here-document, a here-string, a literal piped in).
pub(crate) fn written_code(cmd: &Command, line: &Line) -> Option<(String, String)> {
    let program = cmd.program();
    if !matches!(program, "echo" | "printf" | "cat" | "tee") {
        return None;
    }
    let redirected = cmd
        .redirects
        .iter()
        .find(|r| {
            matches!(r.op, RedirectOp::Write | RedirectOp::Append)
                && !crate::law::paths::is_sink(&r.target)
        })
        .map(|r| r.target.clone());
    let args = cmd.args();
    let target = match program {
        // tee writes the files it is given (and its output, which a redirect may write).
        "tee" => args
            .iter()
            .find(|a| !a.starts_with('-') && !crate::law::paths::is_sink(a))
            .cloned()
            .or(redirected),
        "echo" | "printf" | "cat" => redirected,
        _ => None,
    }?;
    let code = text_written(cmd, line)?;
    Some((target, code))
}

/// What `echo` prints of its words: its options taken off, and with `-e` its backslash
/// escapes read (`\n` a line break).
fn echo_text(args: &[String]) -> String {
    let escapes = args
        .iter()
        .any(|a| matches!(a.as_str(), "-e" | "-ne" | "-en"));
    let text = args
        .iter()
        .map(String::as_str)
        .skip_while(|a| matches!(*a, "-n" | "-e" | "-E" | "-ne" | "-en"))
        .collect::<Vec<_>>()
        .join(" ");
    if escapes { unescape(&text) } else { text }
}

/// The text `echo`, `printf`, `cat` or `tee` writes, when the line spells it out: `echo`'s
/// words (its options taken off), `printf`'s format filled, `cat`'s and `tee`'s input (a
/// here-document, a here-string, a literal piped in); `None` for any other command, for
/// `cat` given files of its own, and for a text that is only blanks.
pub(crate) fn text_written(cmd: &Command, line: &Line) -> Option<String> {
    let args = cmd.args();
    let text = match cmd.program() {
        "printf" => {
            let (template, fill) = args.split_first()?;
            printf(template, fill)
        }
        "echo" => echo_text(args),
        // cat given files of its own writes them, not its input.
        "cat" if args.iter().any(|a| a != "-") => return None,
        "cat" | "tee" => stdin_code(cmd, line).join("\n"),
        _ => return None,
    };
    (!text.trim().is_empty()).then_some(text)
}

/// A file name's extension, lower case (`""` when it has none).
fn extension_of(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default()
}

/// Source files of languages that no reader of warden's reads by their own grammar (C, C++,
/// C#, Go, Rust, Swift, Kotlin, Scala, Java, Groovy, Elixir, Zig, Nim, Dart, Haskell, OCaml,
/// Erlang, Clojure, Objective-C): their literal command lines are judged too, severe risks
/// only (`file::severe_only`), beside what the C-like reader finds in their calls.
const UNREAD_SOURCES: &[&str] = &[
    "c", "cc", "clj", "cljs", "cpp", "cs", "cxx", "dart", "erl", "ex", "exs", "go", "gradle",
    "groovy", "h", "hpp", "hs", "java", "kt", "kts", "m", "ml", "mm", "nim", "rs", "sc", "scala",
    "swift", "zig",
];

/// Is `path` a source file of a language no reader of warden's reads by its own grammar?
pub(crate) fn is_unread_source(path: &str) -> bool {
    UNREAD_SOURCES.contains(&extension_of(path).as_str())
}

/// Does warden have a reader of `language`'s own grammar (not only the C-like reader of the
/// calls such languages share)?
pub(crate) fn has_own_reader(language: Language) -> bool {
    !matches!(
        language,
        Language::Elixir
            | Language::Groovy
            | Language::Java
            | Language::Kotlin
            | Language::Scala
            | Language::Swift
    )
}

// ---------------------------------------------------------------------------------------
// Values as shell text
// ---------------------------------------------------------------------------------------

/// A value as a command line (its text is shell text), and whether all of it is known.
pub(crate) fn line_of(value: &Value) -> (String, bool) {
    match value {
        Value::Each(items) => match items.first() {
            Some(first) => line_of(first),
            None => ("${value}".to_string(), false),
        },
        Value::Text(pieces) | Value::Command(pieces) => {
            let mut out = String::new();
            let mut known = true;
            for piece in pieces.iter() {
                match piece {
                    Piece::Lit(text) => out.push_str(text),
                    Piece::Home => out.push_str("${HOME}"),
                    Piece::Unknown(name) => {
                        known = false;
                        push_placeholder(&mut out, name);
                    }
                }
            }
            (out, known)
        }
        Value::List(items) => {
            let mut out = String::new();
            let mut known = true;
            for (n, item) in items.iter().enumerate() {
                if n > 0 {
                    out.push(' ');
                }
                known &= word_into(&mut out, item, false, false);
            }
            (out, known)
        }
        Value::Object(path) => {
            let mut out = String::new();
            push_placeholder(&mut out, &read::placeholder(path));
            (out, false)
        }
        Value::Fetched(_) => ("${download}".to_string(), false),
        Value::Data(_) => ("${data}".to_string(), false),
        _ => ("${value}".to_string(), false),
    }
}

/// A value as one shell word, quoted; for a path, a leading `~` that the language doesn't
/// expand is a folder named `~` (`./~`).
pub(crate) fn word_of(value: &Value, path: bool, tilde: bool) -> (String, bool) {
    let mut out = String::new();
    let known = word_into(&mut out, value, path, tilde);
    (out, known)
}

/// [`word_of`], written at the end of `out` (a line of words is one text, not one a word);
/// whether all of it is known.
pub(crate) fn word_into(out: &mut String, value: &Value, path: bool, tilde: bool) -> bool {
    if let Value::Each(items) = value
        && let Some(first) = items.first()
    {
        return word_into(out, first, path, tilde);
    }
    let pieces = match value {
        Value::Text(pieces) | Value::Command(pieces) => pieces,
        other => {
            let (line, known) = line_of(other);
            if known {
                quote_into(out, &line);
            } else {
                out.push_str(&line);
            }
            return known;
        }
    };
    let start = out.len();
    let mut known = true;
    for (n, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Lit(text) => {
                if n == 0 && path && text.starts_with('~') {
                    if tilde && (text == "~" || text.starts_with("~/")) {
                        out.push_str("${HOME}");
                        quote_into(out, text.get(1..).unwrap_or(""));
                        continue;
                    }
                    out.push_str("./");
                }
                quote_into(out, text);
            }
            Piece::Home => out.push_str("${HOME}"),
            Piece::Unknown(name) => {
                known = false;
                push_placeholder(out, name);
            }
        }
    }
    if out.len() == start {
        out.push_str("''");
    }
    known
}

/// `${name}`, a placeholder, added to `out` (pushed in parts: `format!` would be a formatter's
/// machinery for three pieces of text).
fn push_placeholder(out: &mut String, name: &str) {
    out.push_str("${");
    out.push_str(name);
    out.push('}');
}

/// A value as a path, unquoted: the home folder as `${HOME}`, what is only known when it
/// runs as `${name}`; a leading `~` the language doesn't expand is a folder named `~`.
pub(crate) fn path_of(value: &Value, tilde: bool) -> String {
    if let Value::Each(items) = value
        && let Some(first) = items.first()
    {
        return path_of(first, tilde);
    }
    let pieces = match value {
        Value::Text(pieces) | Value::Command(pieces) => pieces,
        other => return line_of(other).0,
    };
    let mut out = String::new();
    for (n, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Lit(text) if n == 0 && text.starts_with('~') => {
                if tilde && (text == "~" || text.starts_with("~/")) {
                    out.push_str("${HOME}");
                    out.push_str(text.get(1..).unwrap_or(""));
                } else {
                    out.push_str("./");
                    out.push_str(text);
                }
            }
            Piece::Lit(text) => out.push_str(text),
            Piece::Home => out.push_str("${HOME}"),
            Piece::Unknown(name) => push_placeholder(&mut out, name),
        }
    }
    out
}

/// Text as one shell word: bare when it is plain, else in single quotes (the words of a
/// value are written with [`quote_into`]; this is the test's view of one).
#[cfg(test)]
fn quote(text: &str) -> String {
    let mut out = String::new();
    quote_into(&mut out, text);
    out
}

/// [`quote`], written at the end of `out`.
fn quote_into(out: &mut String, text: &str) {
    if text.is_empty() {
        return;
    }
    if text.bytes().all(|b| {
        b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'_' | b'@' | b'%' | b'+' | b'=' | b':' | b',' | b'.' | b'/' | b'-'
            )
    }) {
        out.push_str(text);
        return;
    }
    out.reserve(text.len() + 2);
    out.push('\'');
    for (n, part) in text.split('\'').enumerate() {
        if n > 0 {
            out.push_str("'\\''");
        }
        out.push_str(part);
    }
    out.push('\'');
}

/// The program a value runs: its first word, when known.
pub(crate) fn first_word(value: &Value) -> Option<String> {
    match value {
        Value::Each(items) => items.first().and_then(first_word),
        Value::Text(pieces) | Value::Command(pieces) => match pieces.first() {
            Some(Piece::Lit(text)) => {
                let trimmed = text.trim_start();
                let word = trimmed.split_whitespace().next()?;
                // The word must end inside the literal.
                (trimmed.len() > word.len() || pieces.len() == 1).then(|| word.to_string())
            }
            _ => None,
        },
        Value::List(items) => items
            .first()
            .and_then(read::literal)
            .map(std::borrow::Cow::into_owned),
        _ => None,
    }
}
