//! Ruby's names: `system`, `exec`, `spawn`, backticks and `%x()`, `Open3`, `IO.popen`,
//! `FileUtils` and `File`, `Net::HTTP`, `URI.open`, `TCPSocket`, `Dir.home`, `ENV['HOME']`.

use super::lexicon::{
    Access, Arg, Backtick, Build, Delete, Eval, Interp, Lexicon, Method, Net, QuoteLike, Shape,
    Single, Syntax, Verb,
};
use crate::catalogue::Language;

const SYNTAX: Syntax = Syntax {
    hash_comment: true,
    slash_comment: false,
    dash_comment: false,
    long_brackets: false,
    hash_equals_comment: false,
    single: Single::Raw,
    double: Interp::Hash,
    backtick: Backtick::Runs,
    triple: false,
    prefixes: false,
    quote_like: QuoteLike::Ruby,
    sigils: "$@",
    dollar_names: false,
    regex: true,
    concat: &["+", "<<"],
    dot_member: true,
    colon_method: false,
    colon_named: true,
    percent_format: true,
    slash_join: false,
    juxtapose: false,
    bare_calls: true,
    arrow_assign: false,
    bang_names: true,
    tilde: false,
    pipe_open: true,
    kept_escapes: false,
};

const READ: Access = Access::Read(Arg::At(0));
const WRITE: Access = Access::Write(Arg::At(0));
const COPY: Access = Access::Copy(Arg::At(0), Arg::At(1));
const OPEN: Access = Access::Open(Arg::At(0), Arg::At(1));
const BY_NAME: Net = Net::Request(Verb::ByName);

/// Calls that run a process.
#[rustfmt::skip]
const RUNS: &[(&str, Shape)] = &[
    ("exec", Shape::Words), ("io.popen", Shape::Line), ("kernel.exec", Shape::Words), ("kernel.spawn", Shape::Words),
    ("kernel.system", Shape::Words), ("open3.capture2", Shape::Words), ("open3.capture2e", Shape::Words),
    ("open3.capture3", Shape::Words), ("open3.pipeline", Shape::Words), ("open3.popen2", Shape::Words),
    ("open3.popen2e", Shape::Words), ("open3.popen3", Shape::Words), ("process.exec", Shape::Words),
    // Rake's and fastlane's own `sh 'make test'` runs a shell line, as `system` does.
    ("process.spawn", Shape::Words), ("pty.spawn", Shape::Words), ("sh", Shape::Words), ("spawn", Shape::Words),
    ("system", Shape::Words),
];

/// Calls that delete the paths they are given.
#[rustfmt::skip]
const DELETES: &[(&str, Delete)] = &[
    ("dir.delete", Delete::File), ("dir.rmdir", Delete::File), ("dir.unlink", Delete::File),
    ("file.delete", Delete::File), ("file.unlink", Delete::File), ("fileutils.remove", Delete::File),
    ("fileutils.remove_dir", Delete::Tree), ("fileutils.remove_entry", Delete::Tree),
    ("fileutils.remove_entry_secure", Delete::Tree), ("fileutils.rm", Delete::File), ("fileutils.rm_f", Delete::File),
    ("fileutils.rm_r", Delete::Tree), ("fileutils.rm_rf", Delete::Tree), ("fileutils.rmdir", Delete::File),
    ("fileutils.rmtree", Delete::Tree), ("rm_r", Delete::Tree), ("rm_rf", Delete::Tree),
];

/// Calls that read, write or copy files (and `open("|cmd")`, which runs one).
#[rustfmt::skip]
const FILES: &[(&str, Access)] = &[
    ("file.binread", READ), ("file.binwrite", WRITE), ("file.chmod", Access::Write(Arg::At(1))),
    ("file.chown", Access::Write(Arg::At(2))), ("file.foreach", READ), ("file.new", OPEN),
    ("file.open", OPEN), ("file.read", READ), ("file.readlines", READ),
    ("file.symlink", Access::Write(Arg::At(1))), ("file.truncate", WRITE), ("file.write", WRITE),
    ("fileutils.chmod", Access::Write(Arg::At(1))), ("fileutils.chmod_r", Access::Write(Arg::At(1))),
    ("fileutils.chown", Access::Write(Arg::At(2))), ("fileutils.chown_r", Access::Write(Arg::At(2))),
    ("fileutils.copy", COPY), ("fileutils.cp", COPY), ("fileutils.cp_r", COPY), ("fileutils.move", COPY),
    ("fileutils.mv", COPY), ("io.binread", READ), ("io.copy_stream", COPY), ("io.foreach", READ),
    ("io.read", READ), ("io.readlines", READ), ("io.write", WRITE), ("kernel.open", OPEN), ("open", OPEN),
];

/// Calls that reach the network; an entry ending in `.` covers every call under it.
#[rustfmt::skip]
const NET: &[(&str, Net)] = &[
    ("faraday.", BY_NAME), ("httparty.", BY_NAME), ("net.http.", BY_NAME), ("net.http.get", Net::Request(Verb::Get)),
    ("net.http.get_response", Net::Request(Verb::Get)), ("net.http.new", Net::Client),
    ("net.http.post", Net::Request(Verb::Send)), ("net.http.post_form", Net::Request(Verb::Send)),
    ("net.http.start", Net::Client), ("restclient.", BY_NAME), ("socket.tcp", Net::Connect),
    ("tcpserver.new", Net::Listen), ("tcpserver.open", Net::Listen), ("tcpsocket.new", Net::Connect),
    ("tcpsocket.open", Net::Connect), ("udpsocket.new", Net::Socket), ("uri.open", Net::Request(Verb::Get)),
];

/// The home folder.
#[rustfmt::skip]
const HOME: &[&str] = &[
    "dir.home", "dir.home()", "env.fetch(home)", "env.home", "gem.user_home",
];

/// Calls that build a text from their arguments.
#[rustfmt::skip]
const BUILDS: &[(&str, Build)] = &[
    (".__send__", Build::Dispatch), (".public_send", Build::Dispatch), (".send", Build::Dispatch),
    ("dir.glob", Build::Same(Arg::At(0))), ("dir.mktmpdir", Build::Temp), ("dir.tmpdir", Build::TempFolder),
    ("file.absolute_path", Build::Same(Arg::At(0))), ("file.expand_path", Build::Expand),
    ("file.join", Build::PathJoin), ("format", Build::Format), ("kernel.format", Build::Format),
    ("kernel.sprintf", Build::Format), ("pathname", Build::Same(Arg::At(0))), ("pathname.new", Build::Same(Arg::At(0))),
    ("shellwords.escape", Build::Same(Arg::At(0))), ("shellwords.join", Build::Same(Arg::At(0))),
    ("sprintf", Build::Format), ("string", Build::Same(Arg::At(0))), ("uri", Build::Same(Arg::At(0))),
    ("uri.parse", Build::Same(Arg::At(0))),
];

/// Calls that run code.
#[rustfmt::skip]
const EVALS: &[(&str, Eval)] = &[
    ("binding.eval", Eval::Code), ("class_eval", Eval::Code), ("eval", Eval::Code), ("instance_eval", Eval::Code),
    ("kernel.eval", Eval::Code), ("kernel.load", Eval::File), ("load", Eval::File), ("module_eval", Eval::Code),
];

/// Calls that wire a handle to another (a socket).
#[rustfmt::skip]
const WIRES: &[&str] = &[".reopen", "pty.spawn"];

/// Methods on a text, a path or a list.
#[rustfmt::skip]
const METHODS: &[(&str, Method)] = &[
    ("join", Method::Build(Build::JoinList { sep: 1, list: 0 })), ("open", Method::Access(OPEN)),
    ("read", Method::Access(READ)), ("rmdir", Method::Delete(Delete::File)), ("rmtree", Method::Delete(Delete::Tree)),
    ("shellescape", Method::Build(Build::Same(Arg::At(0)))), ("to_s", Method::Build(Build::Same(Arg::At(0)))),
    ("unlink", Method::Delete(Delete::File)),
];

pub(super) const LEXICON: Lexicon = Lexicon {
    language: Language::Ruby,
    syntax: SYNTAX,
    runs: RUNS,
    deletes: DELETES,
    files: FILES,
    net: NET,
    home: HOME,
    builds: BUILDS,
    evals: EVALS,
    wires: WIRES,
    methods: METHODS,
    itself: (&["rbconfig.ruby"], "ruby"),
    stdin: &["argf", "gets", "stdin"],
    send_marks: &[],
};
