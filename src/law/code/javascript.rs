//! JavaScript's names, for node, deno and bun (and JXA, `osascript -l JavaScript`):
//! `child_process` however it is reached, `Deno.Command`, `Bun.spawn` and `$`, JXA's
//! `doShellScript` and C's `system` and `popen` through its bridge (`$.system`), `fs`'s
//! deletes, reads and writes, `fetch`, `http(s)`, `net`, axios, the home folder.

use super::lexicon::{
    Access, Arg, Backtick, Build, Delete, Eval, Interp, Lexicon, Method, Net, QuoteLike, Shape,
    Single, Syntax, Verb,
};
use crate::catalogue::Language;

const SYNTAX: Syntax = Syntax {
    hash_comment: false,
    slash_comment: true,
    dash_comment: false,
    long_brackets: false,
    hash_equals_comment: false,
    single: Single::Escaped,
    double: Interp::None,
    backtick: Backtick::Template,
    triple: false,
    prefixes: false,
    quote_like: QuoteLike::None,
    sigils: "",
    dollar_names: true,
    regex: true,
    concat: &["+"],
    dot_member: true,
    colon_method: false,
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

const RECURSIVE: Delete = Delete::TreeIf("recursive");
const READ: Access = Access::Read(Arg::At(0));
const WRITE: Access = Access::Write(Arg::At(0));
const COPY: Access = Access::Copy(Arg::At(0), Arg::At(1));
const OPEN: Access = Access::Open(Arg::At(0), Arg::At(1));
const BY_NAME: Net = Net::Request(Verb::ByName);

/// Calls that run a process.
#[rustfmt::skip]
const RUNS: &[(&str, Shape)] = &[
    ("$", Shape::Line), ("$.popen", Shape::Line), ("$.system", Shape::Line), (".doshellscript", Shape::Line), (".execfilesync", Shape::ProgramList),
    (".execsync", Shape::Line), (".spawnsync", Shape::ProgramList), ("bun.$", Shape::Line),
    ("bun.spawn", Shape::Line), ("bun.spawnsync", Shape::Line), ("child_process.exec", Shape::Line),
    ("child_process.execfile", Shape::ProgramList), ("child_process.execfilesync", Shape::ProgramList),
    ("child_process.execsync", Shape::Line), ("child_process.spawn", Shape::ProgramList),
    ("child_process.spawnsync", Shape::ProgramList), ("deno.command", Shape::ProgramList),
    ("deno.run", Shape::Options), ("exec", Shape::Line), ("execa", Shape::ProgramList),
    ("execa.command", Shape::Line), ("execa.commandsync", Shape::Line), ("execa.execa", Shape::ProgramList),
    ("execa.execacommand", Shape::Line), ("execa.execacommandsync", Shape::Line),
    ("execa.execasync", Shape::ProgramList), ("execa.sync", Shape::ProgramList), ("execacommand", Shape::Line),
    ("execacommandsync", Shape::Line), ("execasync", Shape::ProgramList), ("process.binding.spawn", Shape::Options),
    ("shelljs.exec", Shape::Line), ("zx.$", Shape::Line),
];

/// Calls that delete the path they are given.
#[rustfmt::skip]
const DELETES: &[(&str, Delete)] = &[
    (".rmdirsync", RECURSIVE), (".rmsync", RECURSIVE), (".unlinksync", Delete::File), ("deno.remove", RECURSIVE),
    ("deno.removesync", RECURSIVE), ("fs-extra.remove", Delete::Tree), ("fs-extra.removesync", Delete::Tree),
    ("fs.promises.rm", RECURSIVE), ("fs.promises.rmdir", RECURSIVE), ("fs.promises.unlink", Delete::File),
    ("fs.rm", RECURSIVE), ("fs.rmdir", RECURSIVE), ("fs.unlink", Delete::File), ("fs/promises.rm", RECURSIVE),
    ("fs/promises.rmdir", RECURSIVE), ("fs/promises.unlink", Delete::File), ("rimraf", Delete::Tree),
    ("rimraf.rimraf", Delete::Tree), ("rimraf.rimrafsync", Delete::Tree), ("rimraf.sync", Delete::Tree),
];

/// Calls that read, write or copy files.
#[rustfmt::skip]
const FILES: &[(&str, Access)] = &[
    (".createreadstream", READ), (".createwritestream", WRITE), (".readfilesync", READ),
    (".writefilesync", WRITE), ("bun.file", READ), ("bun.write", WRITE), ("deno.readfile", READ),
    ("deno.readfilesync", READ), ("deno.readtextfile", READ), ("deno.readtextfilesync", READ),
    ("deno.writefile", WRITE), ("deno.writefilesync", WRITE), ("deno.writetextfile", WRITE),
    ("deno.writetextfilesync", WRITE), ("fs.appendfile", WRITE), ("fs.appendfilesync", WRITE),
    ("fs.chmod", WRITE), ("fs.chmodsync", WRITE), ("fs.chown", WRITE), ("fs.chownsync", WRITE),
    ("fs.copyfile", COPY), ("fs.copyfilesync", COPY), ("fs.cp", COPY), ("fs.cpsync", COPY),
    ("fs.lchown", WRITE), ("fs.lchownsync", WRITE), ("fs.open", OPEN), ("fs.opensync", OPEN),
    ("fs.promises.appendfile", WRITE), ("fs.promises.chmod", WRITE), ("fs.promises.chown", WRITE),
    ("fs.promises.readfile", READ), ("fs.promises.truncate", WRITE), ("fs.promises.writefile", WRITE),
    ("fs.readfile", READ), ("fs.rename", COPY), ("fs.renamesync", COPY),
    ("fs.symlink", Access::Write(Arg::At(1))), ("fs.symlinksync", Access::Write(Arg::At(1))),
    ("fs.truncate", WRITE), ("fs.truncatesync", WRITE), ("fs.writefile", WRITE),
    ("fs/promises.appendfile", WRITE), ("fs/promises.readfile", READ), ("fs/promises.writefile", WRITE),
];

/// Calls that reach the network; an entry ending in `.` covers every call under it.
#[rustfmt::skip]
const NET: &[(&str, Net)] = &[
    ("axios", BY_NAME), ("axios.", BY_NAME), ("bun.connect", Net::Connect), ("bun.listen", Net::Listen),
    ("deno.connect", Net::Connect), ("deno.connecttls", Net::Connect), ("deno.listen", Net::Listen),
    ("dgram.createsocket", Net::Socket),
    ("dns.lookup", Net::Request(Verb::Get)),
    ("dns.promises.lookup", Net::Request(Verb::Get)),
    ("dns.promises.resolve", Net::Request(Verb::Get)),
    ("dns.resolve", Net::Request(Verb::Get)),
    ("dns.resolve4", Net::Request(Verb::Get)),
    ("dns.resolve6", Net::Request(Verb::Get)),
    ("dns.resolvetxt", Net::Request(Verb::Get)),
    ("fetch", BY_NAME), ("globalthis.fetch", BY_NAME), ("got", BY_NAME),
    ("got.", BY_NAME), ("http.createserver", Net::Listen), ("http.get", Net::Request(Verb::Get)),
    ("http.request", BY_NAME), ("https.createserver", Net::Listen), ("https.get", Net::Request(Verb::Get)),
    ("https.request", BY_NAME), ("net.connect", Net::Connect), ("net.createconnection", Net::Connect),
    ("net.createserver", Net::Listen), ("net.socket", Net::Socket), ("net.socket.connect", Net::Connect),
    ("node-fetch", BY_NAME), ("superagent.", BY_NAME), ("tls.connect", Net::Connect), ("undici.", BY_NAME),
    ("websocket", Net::Connect), ("xmlhttprequest.open", BY_NAME),
];

/// The home folder.
#[rustfmt::skip]
const HOME: &[&str] = &[
    "bun.env.home", "deno.env.get(home)", "os.homedir()", "process.env.home", "process.env.userprofile",
];

/// Calls that build a text (or a module) from their arguments.
#[rustfmt::skip]
const BUILDS: &[(&str, Build)] = &[
    (".require", Build::Import), ("fs.mkdtempsync", Build::Temp), ("fs.promises.mkdtemp", Build::Temp),
    ("glob.globsync", Build::Same(Arg::At(0))), ("glob.sync", Build::Same(Arg::At(0))), ("import", Build::Import),
    ("os.tmpdir", Build::TempFolder), ("path.join", Build::PathJoin), ("path.normalize", Build::Same(Arg::At(0))),
    ("path.resolve", Build::PathJoin), ("reflect.get", Build::Attr), ("require", Build::Import),
    ("string", Build::Same(Arg::At(0))), ("string.raw", Build::Same(Arg::At(0))), ("util.format", Build::Format),
];

/// Calls that run code.
#[rustfmt::skip]
const EVALS: &[(&str, Eval)] = &[
    ("eval", Eval::Code), ("function", Eval::Body), ("vm.runinnewcontext", Eval::Code),
    ("vm.runinthiscontext", Eval::Code), ("vm.script", Eval::Code),
];

/// Methods on a text or a list.
#[rustfmt::skip]
const METHODS: &[(&str, Method)] = &[
    ("concat", Method::Build(Build::Concat)), ("join", Method::Build(Build::JoinList { sep: 1, list: 0 })),
    ("tostring", Method::Build(Build::Same(Arg::At(0)))),
];

pub(super) const LEXICON: Lexicon = Lexicon {
    language: Language::JavaScript,
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
    itself: (&["process.argv0", "process.execpath"], "node"),
    stdin: &["process.stdin"],
    send_marks: &[],
};
