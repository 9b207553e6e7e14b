//! Julia's names: `run` of a command literal (`` `rm -rf $dir` ``), `read`/`success` of one,
//! `rm(…; recursive=true)`, `open`, `download`, `HTTP.jl`, `Sockets.connect`, `homedir()`,
//! `ENV["HOME"]`.

use super::lexicon::{
    Access, Arg, Backtick, Build, Delete, Eval, Interp, Lexicon, Net, QuoteLike, Shape, Single,
    Syntax, Verb,
};
use crate::catalogue::Language;

const SYNTAX: Syntax = Syntax {
    hash_comment: true,
    slash_comment: false,
    dash_comment: false,
    long_brackets: false,
    hash_equals_comment: true,
    single: Single::Char,
    double: Interp::Julia,
    backtick: Backtick::Command,
    triple: true,
    prefixes: false,
    quote_like: QuoteLike::None,
    sigils: "",
    dollar_names: false,
    regex: false,
    concat: &["*"],
    dot_member: true,
    colon_method: false,
    colon_named: false,
    percent_format: false,
    slash_join: false,
    juxtapose: false,
    bare_calls: false,
    arrow_assign: false,
    bang_names: true,
    tilde: false,
    pipe_open: false,
    kept_escapes: false,
};

const RECURSIVE: Delete = Delete::TreeIf("recursive");
const READ: Access = Access::Read(Arg::At(0));
const COPY: Access = Access::Copy(Arg::At(0), Arg::At(1));

/// Calls that run a process (a command literal given to `read` or `open` runs too).
#[rustfmt::skip]
const RUNS: &[(&str, Shape)] = &[
    ("base.run", Shape::Line), ("run", Shape::Line), ("success", Shape::Line),
];

/// Calls that delete the path they are given.
#[rustfmt::skip]
const DELETES: &[(&str, Delete)] = &[
    ("base.filesystem.rm", RECURSIVE), ("filesystem.rm", RECURSIVE), ("rm", RECURSIVE),
];

/// Calls that read, write or copy files.
#[rustfmt::skip]
const FILES: &[(&str, Access)] = &[
    ("cp", COPY), ("eachline", READ), ("mv", COPY), ("open", Access::Open(Arg::At(0), Arg::At(1))), ("read", READ),
    ("readchomp", READ), ("readline", READ), ("readlines", READ), ("write", Access::Write(Arg::At(0))),
];

/// Calls that reach the network; an entry ending in `.` covers every call under it.
#[rustfmt::skip]
const NET: &[(&str, Net)] = &[
    ("connect", Net::Connect), ("download", Net::Download(Arg::At(1))),
    ("downloads.download", Net::Download(Arg::At(1))), ("http.", Net::Request(Verb::ByName)), ("listen", Net::Listen),
    ("sockets.connect", Net::Connect), ("sockets.listen", Net::Listen),
];

/// The home folder.
#[rustfmt::skip]
const HOME: &[&str] = &["env.home", "homedir()"];

/// Calls that build a text from their arguments.
#[rustfmt::skip]
const BUILDS: &[(&str, Build)] = &[
    ("abspath", Build::Same(Arg::At(0))), ("cmd", Build::Same(Arg::At(0))), ("expanduser", Build::Expand),
    ("getfield", Build::Attr), ("join", Build::JoinList { sep: 1, list: 0 }), ("joinpath", Build::PathJoin),
    ("meta.parse", Build::Same(Arg::At(0))), ("normpath", Build::Same(Arg::At(0))),
    ("pipeline", Build::Same(Arg::At(0))), ("string", Build::Concat),
];

/// Calls that run code.
#[rustfmt::skip]
const EVALS: &[(&str, Eval)] = &[("eval", Eval::Code), ("include", Eval::File)];

pub(super) const LEXICON: Lexicon = Lexicon {
    language: Language::Julia,
    syntax: SYNTAX,
    runs: RUNS,
    deletes: DELETES,
    files: FILES,
    net: NET,
    home: HOME,
    builds: BUILDS,
    evals: EVALS,
    wires: &[],
    methods: &[],
    itself: (&["base.julia_cmd"], "julia"),
    stdin: &["readline", "stdin"],
    send_marks: &[],
};
