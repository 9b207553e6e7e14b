//! PHP's names: `system`, `exec`, `shell_exec`, `passthru`, `proc_open`, `popen`, backticks,
//! `unlink`, `file_get_contents` and `fopen` (of a URL too), `curl_*`, `fsockopen`,
//! `getenv('HOME')`, `$_SERVER['HOME']`.

use super::lexicon::{
    Access, Arg, Backtick, Build, Delete, Eval, Interp, Lexicon, Net, QuoteLike, Shape, Single,
    Syntax, Verb,
};
use crate::catalogue::Language;

const SYNTAX: Syntax = Syntax {
    hash_comment: true,
    slash_comment: true,
    dash_comment: false,
    long_brackets: false,
    hash_equals_comment: false,
    single: Single::Raw,
    double: Interp::Dollar,
    backtick: Backtick::Runs,
    triple: false,
    prefixes: false,
    quote_like: QuoteLike::None,
    sigils: "$",
    dollar_names: false,
    regex: false,
    concat: &["."],
    dot_member: false,
    colon_method: false,
    colon_named: true,
    percent_format: false,
    slash_join: false,
    juxtapose: false,
    bare_calls: false,
    arrow_assign: false,
    bang_names: false,
    tilde: false,
    pipe_open: false,
    kept_escapes: true,
};

const READ: Access = Access::Read(Arg::At(0));
const COPY: Access = Access::Copy(Arg::At(0), Arg::At(1));

/// Calls that run a process.
#[rustfmt::skip]
const RUNS: &[(&str, Shape)] = &[
    ("exec", Shape::Line), ("expect_popen", Shape::Line), ("passthru", Shape::Line),
    ("pcntl_exec", Shape::ProgramList), ("popen", Shape::Line), ("proc_open", Shape::Line),
    ("shell_exec", Shape::Line), ("system", Shape::Line),
];

/// Calls that delete the path they are given.
#[rustfmt::skip]
const DELETES: &[(&str, Delete)] = &[
    ("rmdir", Delete::File), ("unlink", Delete::File),
];

/// Calls that read, write or copy files (an address is a request).
#[rustfmt::skip]
const FILES: &[(&str, Access)] = &[
    ("chgrp", Access::Write(Arg::At(0))), ("chmod", Access::Write(Arg::At(0))),
    ("chown", Access::Write(Arg::At(0))), ("copy", COPY), ("file", READ), ("file_get_contents", READ),
    ("file_put_contents", Access::Write(Arg::At(0))), ("highlight_file", READ), ("move_uploaded_file", COPY),
    ("parse_ini_file", READ), ("readfile", READ), ("rename", COPY), ("show_source", READ),
    ("symlink", Access::Write(Arg::At(1))),
];

/// Calls that reach the network.
#[rustfmt::skip]
const NET: &[(&str, Net)] = &[
    ("curl_init", Net::Request(Verb::IfAddress)), ("curl_setopt", Net::Request(Verb::IfAddress)),
    ("fsockopen", Net::Connect), ("ftp_connect", Net::Connect), ("pfsockopen", Net::Connect),
    ("socket_bind", Net::Listen), ("socket_connect", Net::Connect), ("socket_create", Net::Socket),
    ("socket_listen", Net::Listen), ("stream_socket_client", Net::Connect), ("stream_socket_server", Net::Listen),
];

/// The home folder.
#[rustfmt::skip]
const HOME: &[&str] = &[
    "_env.home", "_server.home", "getenv(home)", "posix_getpwuid.dir",
];

/// Calls that build a text from their arguments.
#[rustfmt::skip]
const BUILDS: &[(&str, Build)] = &[
    ("array", Build::List), ("array_map", Build::Each), ("call_user_func", Build::Dispatch),
    ("call_user_func_array", Build::Dispatch), ("escapeshellarg", Build::Same(Arg::At(0))),
    ("escapeshellcmd", Build::Same(Arg::At(0))), ("glob", Build::Same(Arg::At(0))),
    ("implode", Build::JoinList { sep: 0, list: 1 }), ("join", Build::JoinList { sep: 0, list: 1 }),
    ("realpath", Build::Same(Arg::At(0))), ("sprintf", Build::Format),
    ("stream_context_create", Build::Same(Arg::At(0))), ("strval", Build::Same(Arg::At(0))),
    ("trim", Build::Same(Arg::At(0))), ("vsprintf", Build::Format),
];

/// Calls that run code (`include` and `require` need no parentheses).
#[rustfmt::skip]
const EVALS: &[(&str, Eval)] = &[
    ("assert", Eval::Code), ("eval", Eval::Code), ("include", Eval::File), ("include_once", Eval::File),
    ("require", Eval::File), ("require_once", Eval::File),
];

/// Names that make a program's requests send a body.
#[rustfmt::skip]
const SEND_MARKS: &[&str] = &[
    "curlopt_infile", "curlopt_post", "curlopt_postfields", "curlopt_put", "curlopt_upload",
];

pub(super) const LEXICON: Lexicon = Lexicon {
    language: Language::Php,
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
    itself: (&["php_binary"], "php"),
    stdin: &["stdin"],
    send_marks: SEND_MARKS,
};
