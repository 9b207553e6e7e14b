//! Python's names: `os.system` and `subprocess`, `shutil.rmtree` and `pathlib`, `open`,
//! `requests` and `urllib`, `socket`, the home folder (`Path.home()`, `os.environ['HOME']`).

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
    single: Single::Escaped,
    double: Interp::None,
    backtick: Backtick::None,
    triple: true,
    prefixes: true,
    quote_like: QuoteLike::None,
    sigils: "",
    dollar_names: false,
    regex: false,
    concat: &["+"],
    dot_member: true,
    colon_method: false,
    colon_named: false,
    percent_format: true,
    slash_join: true,
    juxtapose: false,
    bare_calls: false,
    arrow_assign: false,
    bang_names: false,
    tilde: false,
    pipe_open: false,
    kept_escapes: true,
};

const OPEN: Access = Access::Open(Arg::AtOrKey(0, "file"), Arg::AtOrKey(1, "mode"));
const COPY: Access = Access::Copy(Arg::At(0), Arg::At(1));

/// Calls that run a process.
#[rustfmt::skip]
const RUNS: &[(&str, Shape)] = &[
    ("asyncio.create_subprocess_exec", Shape::Words), ("asyncio.create_subprocess_shell", Shape::Line),
    ("commands.getoutput", Shape::Line), ("commands.getstatusoutput", Shape::Line), ("os.execl", Shape::Exec(0)),
    ("os.execle", Shape::Exec(0)), ("os.execlp", Shape::Exec(0)), ("os.execlpe", Shape::Exec(0)),
    ("os.execv", Shape::Exec(0)), ("os.execve", Shape::Exec(0)), ("os.execvp", Shape::Exec(0)),
    ("os.execvpe", Shape::Exec(0)), ("os.popen", Shape::Line), ("os.posix_spawn", Shape::Exec(0)),
    ("os.posix_spawnp", Shape::Exec(0)), ("os.spawnl", Shape::Exec(1)), ("os.spawnle", Shape::Exec(1)),
    ("os.spawnlp", Shape::Exec(1)), ("os.spawnlpe", Shape::Exec(1)), ("os.spawnv", Shape::Exec(1)),
    ("os.spawnve", Shape::Exec(1)), ("os.spawnvp", Shape::Exec(1)), ("os.spawnvpe", Shape::Exec(1)),
    ("os.startfile", Shape::Line), ("os.system", Shape::Line), ("pexpect.run", Shape::Line),
    ("pexpect.spawn", Shape::Line), ("pty.spawn", Shape::Line), ("subprocess.call", Shape::Line),
    ("subprocess.check_call", Shape::Line), ("subprocess.check_output", Shape::Line),
    ("subprocess.getoutput", Shape::Line), ("subprocess.getstatusoutput", Shape::Line),
    ("subprocess.popen", Shape::Line), ("subprocess.run", Shape::Line),
];

/// Calls that delete the path they are given.
#[rustfmt::skip]
const DELETES: &[(&str, Delete)] = &[
    ("os.remove", Delete::File), ("os.removedirs", Delete::File), ("os.rmdir", Delete::File),
    ("os.unlink", Delete::File), ("shutil.rmtree", Delete::Tree),
];

/// Calls that read, write or copy files.
#[rustfmt::skip]
const FILES: &[(&str, Access)] = &[
    ("builtins.open", OPEN), ("codecs.open", OPEN), ("io.open", OPEN), ("open", OPEN),
    ("os.chmod", Access::Write(Arg::At(0))), ("os.chown", Access::Write(Arg::At(0))),
    ("os.lchown", Access::Write(Arg::At(0))), ("os.rename", COPY), ("os.replace", COPY),
    ("os.symlink", Access::Write(Arg::At(1))), ("os.truncate", Access::Write(Arg::At(0))),
    ("shutil.chown", Access::Write(Arg::At(0))), ("shutil.copy", COPY), ("shutil.copy2", COPY),
    ("shutil.copyfile", COPY), ("shutil.copytree", COPY), ("shutil.move", COPY),
];

/// Calls that reach the network; an entry ending in `.` covers every call under it.
#[rustfmt::skip]
const NET: &[(&str, Net)] = &[
    ("aiohttp.", Net::Request(Verb::ByName)),
    ("dns.resolver.query", Net::Request(Verb::Get)),
    ("dns.resolver.resolve", Net::Request(Verb::Get)),
    ("ftplib.ftp", Net::Connect), ("ftplib.ftp_tls", Net::Connect),
    ("http.client.", Net::Request(Verb::ByName)), ("http.client.httpconnection", Net::Client),
    ("http.client.httpsconnection", Net::Client), ("httplib.", Net::Request(Verb::ByName)),
    ("httpx.", Net::Request(Verb::ByName)), ("requests.", Net::Request(Verb::ByName)), ("smtplib.smtp", Net::Connect),
    ("smtplib.smtp_ssl", Net::Connect), ("socket.create_connection", Net::Connect),
    ("socket.create_server", Net::Listen),
    ("socket.getaddrinfo", Net::Request(Verb::Get)),
    ("socket.gethostbyname", Net::Request(Verb::Get)),
    ("socket.gethostbyname_ex", Net::Request(Verb::Get)),
    ("socket.socket", Net::Socket), ("socket.socket.bind", Net::Listen),
    ("socket.socket.connect", Net::Connect), ("socket.socket.connect_ex", Net::Connect),
    ("socket.socket.listen", Net::Listen), ("telnetlib.telnet", Net::Connect),
    ("urllib.request.request", Net::Request(Verb::DataAt(1))),
    ("urllib.request.urlopen", Net::Request(Verb::DataAt(1))),
    ("urllib.request.urlretrieve", Net::Download(Arg::At(1))), ("urllib.urlopen", Net::Request(Verb::DataAt(1))),
    ("urllib.urlretrieve", Net::Download(Arg::At(1))), ("urllib2.urlopen", Net::Request(Verb::DataAt(1))),
    ("urllib3.", Net::Request(Verb::ByName)), ("websocket.create_connection", Net::Connect),
];

/// The home folder.
#[rustfmt::skip]
const HOME: &[&str] = &[
    "os.environ.get(home)", "os.environ.home", "os.getenv(home)", "path.home()", "pathlib.path.home()",
];

/// Calls that build a text (or a module) from their arguments.
#[rustfmt::skip]
const BUILDS: &[(&str, Build)] = &[
    ("__builtins__.__import__", Build::Import), ("__import__", Build::Import), ("builtins.__import__", Build::Import),
    ("builtins.getattr", Build::Attr), ("compile", Build::Same(Arg::At(0))), ("getattr", Build::Attr),
    ("glob.glob", Build::Same(Arg::At(0))), ("glob.iglob", Build::Same(Arg::At(0))),
    ("importlib.import_module", Build::Import), ("list", Build::Same(Arg::At(0))), ("map", Build::Each),
    ("os.fsencode", Build::Same(Arg::At(0))), ("os.fspath", Build::Same(Arg::At(0))),
    ("os.listdir", Build::Same(Arg::At(0))),
    ("os.path.abspath", Build::Same(Arg::At(0))), ("os.path.expanduser", Build::Expand),
    ("os.path.expandvars", Build::Expand), ("os.path.join", Build::PathJoin),
    ("os.path.normpath", Build::Same(Arg::At(0))),
    ("os.path.realpath", Build::Same(Arg::At(0))), ("os.scandir", Build::Same(Arg::At(0))),
    ("os.walk", Build::Same(Arg::At(0))),
    ("path", Build::PathJoin), ("pathlib.path", Build::PathJoin), ("pathlib.posixpath", Build::PathJoin),
    ("pathlib.purepath", Build::PathJoin), ("shlex.join", Build::Same(Arg::At(0))),
    ("shlex.quote", Build::Same(Arg::At(0))), ("sorted", Build::Same(Arg::At(0))), ("str", Build::Same(Arg::At(0))),
    ("tempfile.gettempdir", Build::TempFolder), ("tempfile.mkdtemp", Build::Temp), ("tempfile.mkstemp", Build::Temp),
    ("tempfile.mktemp", Build::Temp), ("tuple", Build::Same(Arg::At(0))),
];

/// Calls that run code.
#[rustfmt::skip]
const EVALS: &[(&str, Eval)] = &[
    ("__builtins__.eval", Eval::Code), ("__builtins__.exec", Eval::Code), ("builtins.eval", Eval::Code),
    ("builtins.exec", Eval::Code), ("eval", Eval::Code), ("exec", Eval::Code), ("execfile", Eval::File),
    ("runpy.run_path", Eval::File),
];

/// Calls that wire a process's descriptors to another (a socket, a terminal).
#[rustfmt::skip]
const WIRES: &[&str] = &["os.dup2", "pty.spawn"];

/// Methods on a text, a path or a list.
#[rustfmt::skip]
const METHODS: &[(&str, Method)] = &[
    ("absolute", Method::Build(Build::Same(Arg::At(0)))), ("expanduser", Method::Build(Build::Expand)),
    ("format", Method::Build(Build::Format)), ("join", Method::Build(Build::JoinList { sep: 0, list: 1 })),
    ("joinpath", Method::Build(Build::PathJoin)),
    ("open", Method::Access(Access::Open(Arg::At(0), Arg::AtOrKey(1, "mode")))),
    ("read_bytes", Method::Access(Access::Read(Arg::At(0)))), ("read_text", Method::Access(Access::Read(Arg::At(0)))),
    ("resolve", Method::Build(Build::Same(Arg::At(0)))), ("rmdir", Method::Delete(Delete::File)),
    ("unlink", Method::Delete(Delete::File)), ("write_bytes", Method::Access(Access::Write(Arg::At(0)))),
    ("write_text", Method::Access(Access::Write(Arg::At(0)))),
];

pub(super) const LEXICON: Lexicon = Lexicon {
    language: Language::Python,
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
    itself: (&["sys.executable"], "python3"),
    stdin: &["fileinput.input", "input", "sys.stdin", "sys.stdin.buffer"],
    send_marks: &[],
};
