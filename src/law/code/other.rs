//! Names read in languages with no reader of their own (Groovy, Java, Elixir, Kotlin, Scala,
//! Swift) and in code written to a file of no known language (Go, Rust, C, C#…): the calls
//! that run a shell line or delete a path in the languages agents reach for, and the names of
//! the home folder, read with a C-like syntax.

use super::lexicon::{
    Arg, Backtick, Build, Delete, Interp, Lexicon, Method, QuoteLike, Shape, Single, Syntax,
};
use crate::catalogue::Language;

const SYNTAX: Syntax = Syntax {
    hash_comment: true,
    slash_comment: true,
    dash_comment: false,
    long_brackets: false,
    hash_equals_comment: false,
    single: Single::Escaped,
    // Groovy's `"rm -rf ${System.getenv('HOME')}"`; Java's texts have no `${`.
    double: Interp::DollarBrace,
    backtick: Backtick::None,
    triple: true,
    prefixes: false,
    quote_like: QuoteLike::None,
    sigils: "",
    dollar_names: false,
    regex: false,
    concat: &["+"],
    dot_member: true,
    colon_method: false,
    colon_named: false,
    percent_format: false,
    slash_join: false,
    juxtapose: false,
    bare_calls: false,
    arrow_assign: false,
    // Elixir's `File.rm_rf!`.
    bang_names: true,
    tilde: false,
    pipe_open: false,
    kept_escapes: false,
};

const RECURSIVE: Delete = Delete::TreeIf("recursive");

/// Calls that run a process.
#[rustfmt::skip]
const RUNS: &[(&str, Shape)] = &[
    (".execsync", Shape::Line), ("child_process.execsync", Shape::Line),
    ("diagnostics.process.start", Shape::ProgramList), ("exec", Shape::Line), ("exec.command", Shape::Words),
    ("exec.commandcontext", Shape::WordsAfter(1)), ("execl", Shape::Exec(0)), ("execlp", Shape::Exec(0)),
    ("execv", Shape::Exec(0)), ("execvp", Shape::Exec(0)), ("io.popen", Shape::Line), ("os.cmd", Shape::Line),
    ("os.execute", Shape::Line), ("os.popen", Shape::Line), ("os.system", Shape::Line), ("passthru", Shape::Line),
    ("popen", Shape::Line), ("proc_open", Shape::Line), ("process", Shape::Line),
    ("process.start", Shape::ProgramList), ("processbuilder", Shape::Words), ("runtime.getruntime.exec", Shape::Line),
    ("shell_exec", Shape::Line), ("spawnsync", Shape::ProgramList), ("subprocess.call", Shape::Line),
    ("subprocess.check_call", Shape::Line), ("subprocess.check_output", Shape::Line),
    ("subprocess.popen", Shape::Line), ("subprocess.run", Shape::Line), ("sys.process.process", Shape::Line),
    ("system", Shape::Line), ("system.cmd", Shape::ProgramList),
    ("system.diagnostics.process.start", Shape::ProgramList), ("system.shell", Shape::Line),
];

/// Calls that delete the path they are given.
#[rustfmt::skip]
const DELETES: &[(&str, Delete)] = &[
    (".rmsync", RECURSIVE), ("directory.delete", Delete::Tree), ("file.delete", Delete::File),
    ("file.rm", Delete::File), ("file.rm!", Delete::File), ("file.rm_rf", Delete::Tree),
    ("file.rm_rf!", Delete::Tree), ("filemanager.default.removeitem", Delete::Tree),
    ("fileutils.deletedirectory", Delete::Tree), ("fs.remove_dir_all", Delete::Tree), ("fs.remove_file", Delete::File),
    ("os.remove", Delete::File), ("os.removeall", Delete::Tree), ("os.rmdir_all", Delete::Tree),
    ("remove_dir_all", Delete::Tree), ("removedir", Delete::Tree), ("rmdir", Delete::File),
    ("shutil.rmtree", Delete::Tree), ("std.fs.remove_dir_all", Delete::Tree), ("unlink", Delete::File),
];

/// The home folder: Java's, Groovy's, Kotlin's and Scala's `System.getenv("HOME")` and
/// `user.home` property, Elixir's `System.user_home()`, Go's `os.UserHomeDir()`, Rust's
/// `env::var("HOME")` and `dirs::home_dir()`, C's `getenv("HOME")`, Swift's
/// `NSHomeDirectory()`, C#'s `Environment.SpecialFolder.UserProfile`, Nim's `getHomeDir()`.
#[rustfmt::skip]
const HOME: &[&str] = &[
    "dirs.home_dir()", "env.home_dir()", "env.var(home)", "environment.getenvironmentvariable(home)",
    "environment.specialfolder.userprofile", "filemanager.default.homedirectoryforcurrentuser.path",
    "getenv(home)", "gethomedir()", "nshomedirectory()", "os.getenv(home)", "os.home_dir()", "os.userhomedir()",
    "std.env.home_dir()", "std.env.var(home)", "sys.props(user.home)", "system.get_env(home)",
    "system.getenv(home)", "system.getproperty(user.home)", "system.user_home!()", "system.user_home()",
];

/// Calls that build a text from their arguments.
#[rustfmt::skip]
const BUILDS: &[(&str, Build)] = &[
    ("arrayof", Build::List), ("environment.getfolderpath", Build::Same(Arg::At(0))), ("file", Build::Same(Arg::At(0))),
    ("java.io.file", Build::Same(Arg::At(0))),
    ("listof", Build::List), ("require", Build::Import), ("seq", Build::List), ("string.format", Build::Format),
];

/// Methods on a text: Groovy's `"cmd".execute()`.
#[rustfmt::skip]
const METHODS: &[(&str, Method)] = &[
    ("deleterecursively", Method::Delete(Delete::Tree)), ("execute", Method::Run(Shape::Line)),
    ("tostring", Method::Build(Build::Same(Arg::At(0)))),
];

pub(super) const LEXICON: Lexicon = Lexicon {
    language: Language::Groovy,
    syntax: SYNTAX,
    runs: RUNS,
    deletes: DELETES,
    files: &[],
    net: &[],
    home: HOME,
    builds: BUILDS,
    evals: &[],
    wires: &[],
    methods: METHODS,
    itself: (&[], ""),
    stdin: &[],
    send_marks: &[],
};
