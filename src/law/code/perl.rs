//! Perl's names: `system`, `exec`, backticks and `qx`, `open` with a pipe, `unlink` and
//! `rmtree`, `LWP`, `HTTP::Tiny`, `IO::Socket::INET`, `socket`/`connect`, `$ENV{HOME}`.

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
    single: Single::Raw,
    double: Interp::Dollar,
    backtick: Backtick::Runs,
    triple: false,
    prefixes: false,
    quote_like: QuoteLike::Perl,
    sigils: "$@%",
    dollar_names: false,
    regex: true,
    concat: &["."],
    dot_member: false,
    colon_method: false,
    colon_named: false,
    percent_format: false,
    slash_join: false,
    juxtapose: false,
    bare_calls: true,
    arrow_assign: false,
    bang_names: false,
    tilde: false,
    pipe_open: true,
    kept_escapes: false,
};

const COPY: Access = Access::Copy(Arg::At(0), Arg::At(1));
const BY_NAME: Net = Net::Request(Verb::ByName);

/// Calls that run a process.
#[rustfmt::skip]
const RUNS: &[(&str, Shape)] = &[
    ("exec", Shape::Words), ("ipc.open2.open2", Shape::WordsAfter(2)), ("ipc.open3.open3", Shape::WordsAfter(3)),
    ("open2", Shape::WordsAfter(2)), ("open3", Shape::WordsAfter(3)), ("readpipe", Shape::Line),
    ("system", Shape::Words),
];

/// Calls that delete the paths they are given.
#[rustfmt::skip]
const DELETES: &[(&str, Delete)] = &[
    ("file.path.remove_tree", Delete::Tree), ("file.path.rmtree", Delete::Tree), ("remove_tree", Delete::Tree),
    ("rmdir", Delete::File), ("rmtree", Delete::Tree), ("unlink", Delete::File),
];

/// Calls that read, write or copy files.
#[rustfmt::skip]
const FILES: &[(&str, Access)] = &[
    ("chmod", Access::Write(Arg::At(1))), ("chown", Access::Write(Arg::At(2))), ("copy", COPY),
    ("file.copy.copy", COPY), ("file.copy.move", COPY), ("file.slurp.read_file", Access::Read(Arg::At(0))),
    ("file.slurp.write_file", Access::Write(Arg::At(0))), ("move", COPY), ("open", Access::PerlOpen),
    ("read_file", Access::Read(Arg::At(0))), ("symlink", Access::Write(Arg::At(1))),
    ("sysopen", Access::Read(Arg::At(1))), ("truncate", Access::Write(Arg::At(0))),
    ("write_file", Access::Write(Arg::At(0))),
];

/// Calls that reach the network; an entry ending in `.` covers every call under it.
#[rustfmt::skip]
const NET: &[(&str, Net)] = &[
    ("connect", Net::Connect), ("get", Net::Request(Verb::Get)), ("getprint", Net::Request(Verb::Get)),
    ("getstore", Net::Download(Arg::At(1))), ("head", Net::Request(Verb::Get)), ("http.tiny.", BY_NAME),
    ("io.socket.inet", Net::Connect), ("io.socket.inet.new", Net::Connect), ("io.socket.ip", Net::Connect),
    ("io.socket.ip.new", Net::Connect), ("io.socket.ssl", Net::Connect), ("io.socket.ssl.new", Net::Connect),
    ("lwp.simple.get", Net::Request(Verb::Get)), ("lwp.simple.getstore", Net::Download(Arg::At(1))),
    ("lwp.useragent.", BY_NAME), ("mirror", Net::Download(Arg::At(1))), ("mojo.useragent.", BY_NAME),
    ("socket", Net::Socket),
];

/// The home folder.
#[rustfmt::skip]
const HOME: &[&str] = &["env.home", "file.homedir.home", "file.homedir.my_home"];

/// Calls that build a text from their arguments.
#[rustfmt::skip]
const BUILDS: &[(&str, Build)] = &[
    ("file.temp.tempdir", Build::Temp), ("glob", Build::Expand), ("inet_aton", Build::Same(Arg::At(0))),
    ("join", Build::JoinList { sep: 0, list: 1 }), ("lc", Build::Same(Arg::At(0))), ("pack_sockaddr_in", Build::List),
    ("quotemeta", Build::Same(Arg::At(0))), ("sockaddr_in", Build::List), ("sprintf", Build::Format),
    ("tempdir", Build::Temp), ("uc", Build::Same(Arg::At(0))),
];

/// Calls that run code.
#[rustfmt::skip]
const EVALS: &[(&str, Eval)] = &[("do", Eval::File), ("eval", Eval::Code)];

/// Calls that wire a handle to another (a socket).
#[rustfmt::skip]
const WIRES: &[&str] = &[".fdopen", "dup2", "posix.dup2"];

pub(super) const LEXICON: Lexicon = Lexicon {
    language: Language::Perl,
    syntax: SYNTAX,
    runs: RUNS,
    deletes: DELETES,
    files: FILES,
    net: NET,
    home: HOME,
    builds: BUILDS,
    evals: EVALS,
    wires: WIRES,
    methods: &[],
    itself: (&["^x"], "perl"),
    stdin: &["stdin"],
    send_marks: &[],
};
