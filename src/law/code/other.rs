//! Names read in languages with no reader of their own (Groovy, Java, Elixir) and in code
//! `echo` writes to a file of no known language: the calls that run a shell line or delete a
//! path in the languages agents reach for, read with a C-like syntax.

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
};

const RECURSIVE: Delete = Delete::TreeIf("recursive");

/// Calls that run a process.
#[rustfmt::skip]
const RUNS: &[(&str, Shape)] = &[
    (".execsync", Shape::Line), ("child_process.execsync", Shape::Line), ("exec", Shape::Line),
    ("io.popen", Shape::Line), ("os.cmd", Shape::Line), ("os.execute", Shape::Line), ("os.popen", Shape::Line),
    ("os.system", Shape::Line), ("passthru", Shape::Line), ("popen", Shape::Line), ("proc_open", Shape::Line),
    ("processbuilder", Shape::Words), ("runtime.getruntime.exec", Shape::Line), ("shell_exec", Shape::Line),
    ("spawnsync", Shape::ProgramList), ("subprocess.call", Shape::Line), ("subprocess.check_call", Shape::Line),
    ("subprocess.check_output", Shape::Line), ("subprocess.popen", Shape::Line), ("subprocess.run", Shape::Line),
    ("system", Shape::Line), ("system.cmd", Shape::ProgramList), ("system.shell", Shape::Line),
];

/// Calls that delete the path they are given.
#[rustfmt::skip]
const DELETES: &[(&str, Delete)] = &[
    (".rmsync", RECURSIVE), ("file.delete", Delete::File), ("file.rm", Delete::File), ("file.rm!", Delete::File),
    ("file.rm_rf", Delete::Tree), ("file.rm_rf!", Delete::Tree),
    ("fileutils.deletedirectory", Delete::Tree), ("fileutils.rm_rf", Delete::Tree), ("os.remove", Delete::File),
    ("remove_dir_all", Delete::Tree), ("rmdir", Delete::File), ("shutil.rmtree", Delete::Tree),
    ("unlink", Delete::File),
];

/// The home folder: Java's and Groovy's `System.getenv("HOME")` and `user.home` property,
/// Elixir's `System.user_home()` and `System.get_env("HOME")`.
#[rustfmt::skip]
const HOME: &[&str] = &[
    "system.get_env(home)", "system.getenv(home)", "system.getproperty(user.home)", "system.user_home!()",
    "system.user_home()",
];

/// Calls that build a text from their arguments.
#[rustfmt::skip]
const BUILDS: &[(&str, Build)] = &[
    ("require", Build::Import), ("string.format", Build::Format),
];

/// Methods on a text: Groovy's `"cmd".execute()`.
#[rustfmt::skip]
const METHODS: &[(&str, Method)] = &[
    ("execute", Method::Run(Shape::Line)), ("tostring", Method::Build(Build::Same(Arg::At(0)))),
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
