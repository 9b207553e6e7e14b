//! Lua's names: `os.execute`, `io.popen`, `os.remove`, `io.open`, LuaSocket (`socket.tcp`,
//! `socket.http.request`), `os.getenv("HOME")`.

use super::lexicon::{
    Access, Arg, Backtick, Build, Delete, Eval, Interp, Lexicon, Method, Net, QuoteLike, Shape,
    Single, Syntax, Verb,
};
use crate::catalogue::Language;

const SYNTAX: Syntax = Syntax {
    hash_comment: false,
    slash_comment: false,
    dash_comment: true,
    long_brackets: true,
    hash_equals_comment: false,
    single: Single::Escaped,
    double: Interp::None,
    backtick: Backtick::None,
    triple: false,
    prefixes: false,
    quote_like: QuoteLike::None,
    sigils: "",
    dollar_names: false,
    regex: false,
    concat: &[".."],
    dot_member: true,
    colon_method: true,
    colon_named: false,
    percent_format: false,
    slash_join: false,
    juxtapose: false,
    bare_calls: false,
    arrow_assign: false,
    bang_names: false,
    tilde: false,
    pipe_open: false,
    kept_escapes: false,
};

/// Calls that run a process.
#[rustfmt::skip]
const RUNS: &[(&str, Shape)] = &[
    ("io.popen", Shape::Line), ("os.execute", Shape::Line),
];

/// Calls that delete the path they are given.
#[rustfmt::skip]
const DELETES: &[(&str, Delete)] = &[
    ("lfs.rmdir", Delete::File), ("os.remove", Delete::File),
];

/// Calls that read or write files.
#[rustfmt::skip]
const FILES: &[(&str, Access)] = &[
    ("io.input", Access::Read(Arg::At(0))), ("io.lines", Access::Read(Arg::At(0))),
    ("io.open", Access::Open(Arg::At(0), Arg::At(1))), ("io.output", Access::Write(Arg::At(0))),
    ("os.rename", Access::Copy(Arg::At(0), Arg::At(1))),
];

/// Calls that reach the network.
#[rustfmt::skip]
const NET: &[(&str, Net)] = &[
    ("socket.bind", Net::Listen), ("socket.connect", Net::Connect),
    ("socket.http.request", Net::Request(Verb::DataAt(1))), ("socket.tcp", Net::Socket),
    ("socket.tcp.bind", Net::Listen), ("socket.tcp.connect", Net::Connect), ("socket.tcp.listen", Net::Listen),
    ("socket.udp", Net::Socket), ("ssl.https.request", Net::Request(Verb::DataAt(1))),
];

/// The home folder.
#[rustfmt::skip]
const HOME: &[&str] = &["os.getenv(home)"];

/// Calls that build a text (or a module) from their arguments.
#[rustfmt::skip]
const BUILDS: &[(&str, Build)] = &[
    ("assert", Build::Same(Arg::At(0))), ("ipairs", Build::Same(Arg::At(0))), ("pairs", Build::Same(Arg::At(0))),
    ("require", Build::Import), ("string.format", Build::Format),
    ("table.concat", Build::JoinList { sep: 1, list: 0 }), ("tostring", Build::Same(Arg::At(0))),
];

/// Calls that run code.
#[rustfmt::skip]
const EVALS: &[(&str, Eval)] = &[
    ("dofile", Eval::File), ("load", Eval::Code), ("loadfile", Eval::File), ("loadstring", Eval::Code),
];

/// Methods on a text.
#[rustfmt::skip]
const METHODS: &[(&str, Method)] = &[("format", Method::Build(Build::Format))];

pub(super) const LEXICON: Lexicon = Lexicon {
    language: Language::Lua,
    syntax: SYNTAX,
    runs: RUNS,
    deletes: DELETES,
    files: FILES,
    net: NET,
    home: HOME,
    builds: BUILDS,
    evals: EVALS,
    wires: &[],
    methods: METHODS,
    itself: (&[], "lua"),
    stdin: &["io.read", "io.stdin"],
    send_marks: &[],
};
