//! R's names: `system`, `system2`, `shell`, `unlink(…, recursive = TRUE)`, `file.remove`,
//! `readLines`, `writeLines`, `download.file`, `url()`, `httr`, `socketConnection`,
//! `Sys.getenv("HOME")`, `path.expand("~")`. R's file functions read a leading `~` as home.

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
    hash_equals_comment: false,
    single: Single::Escaped,
    double: Interp::None,
    backtick: Backtick::Name,
    triple: false,
    prefixes: false,
    quote_like: QuoteLike::None,
    sigils: "",
    dollar_names: false,
    regex: false,
    concat: &[],
    dot_member: true,
    colon_method: false,
    colon_named: false,
    percent_format: false,
    slash_join: false,
    juxtapose: false,
    bare_calls: false,
    arrow_assign: true,
    bang_names: false,
    tilde: true,
    pipe_open: false,
    kept_escapes: false,
};

const RECURSIVE: Delete = Delete::TreeIf("recursive");
const READ: Access = Access::Read(Arg::AtOrKey(0, "file"));
const COPY: Access = Access::Copy(Arg::At(0), Arg::At(1));

/// Calls that run a process (`base::system` reads as `base.system`).
#[rustfmt::skip]
const RUNS: &[(&str, Shape)] = &[
    ("base.system", Shape::Line), ("base.system2", Shape::ProgramList), ("pipe", Shape::Line),
    ("processx.run", Shape::ProgramList), ("shell", Shape::Line), ("shell.exec", Shape::Line),
    ("sys.exec_internal", Shape::ProgramList), ("sys.exec_wait", Shape::ProgramList), ("system", Shape::Line),
    ("system2", Shape::ProgramList),
];

/// Calls that delete the paths they are given.
#[rustfmt::skip]
const DELETES: &[(&str, Delete)] = &[
    ("base.file.remove", Delete::File), ("base.unlink", RECURSIVE), ("file.remove", Delete::File),
    ("fs.dir_delete", Delete::Tree), ("fs.file_delete", Delete::File), ("unlink", RECURSIVE),
];

/// Calls that read, write or copy files (an address is a request).
#[rustfmt::skip]
const FILES: &[(&str, Access)] = &[
    ("file", Access::Open(Arg::AtOrKey(0, "description"), Arg::AtOrKey(1, "open"))), ("file.copy", COPY),
    ("file.rename", COPY), ("read.csv", READ), ("read.delim", READ), ("read.table", READ),
    ("readlines", Access::Read(Arg::AtOrKey(0, "con"))), ("readrds", READ),
    ("saverds", Access::Write(Arg::AtOrKey(1, "file"))), ("scan", READ),
    ("sink", Access::Write(Arg::AtOrKey(0, "file"))), ("write", Access::Write(Arg::AtOrKey(1, "file"))),
    ("write.csv", Access::Write(Arg::AtOrKey(1, "file"))), ("write.table", Access::Write(Arg::AtOrKey(1, "file"))),
    ("writelines", Access::Write(Arg::AtOrKey(1, "con"))),
];

/// Calls that reach the network; an entry ending in `.` covers every call under it.
#[rustfmt::skip]
const NET: &[(&str, Net)] = &[
    ("curl.curl", Net::Request(Verb::Get)), ("curl.curl_download", Net::Download(Arg::At(1))),
    ("curl.curl_fetch_memory", Net::Request(Verb::Get)),
    ("download.file", Net::Download(Arg::AtOrKey(1, "destfile"))), ("httr.", Net::Request(Verb::ByName)),
    ("httr2.request", Net::Request(Verb::Get)), ("make.socket", Net::Connect), ("socketconnection", Net::Connect),
    ("url", Net::Request(Verb::Get)), ("utils.download.file", Net::Download(Arg::AtOrKey(1, "destfile"))),
];

/// The home folder.
#[rustfmt::skip]
const HOME: &[&str] = &["fs.path_home()", "sys.getenv(home)"];

/// Calls that build a text from their arguments.
#[rustfmt::skip]
const BUILDS: &[(&str, Build)] = &[
    ("c", Build::List), ("do.call", Build::Dispatch), ("file.path", Build::PathJoin), ("list", Build::List),
    ("normalizepath", Build::Expand), ("parse", Build::Same(Arg::Key("text"))), ("paste", Build::Paste),
    ("paste0", Build::Concat), ("path.expand", Build::Expand), ("shquote", Build::Same(Arg::At(0))),
    ("sprintf", Build::Format), ("str2expression", Build::Same(Arg::At(0))), ("str2lang", Build::Same(Arg::At(0))),
    ("sys.glob", Build::Same(Arg::At(0))),
];

/// Calls that run code.
#[rustfmt::skip]
const EVALS: &[(&str, Eval)] = &[
    ("eval", Eval::Code), ("evalq", Eval::Code), ("source", Eval::File), ("sys.source", Eval::File),
];

pub(super) const LEXICON: Lexicon = Lexicon {
    language: Language::R,
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
    itself: (&[], "R"),
    stdin: &["stdin"],
    send_marks: &[],
};
