//! What a language's names mean: the shape of one language's code (its comments, strings
//! and operators) and one table per concept (running a process, deleting, files, the
//! network, the home folder, text built from parts, code run from text, a socket wired to
//! a shell, methods on a text). Names are written lower case, as dotted paths after the
//! reader resolved imports and aliases (`require('child_process').execSync` →
//! `child_process.execsync`, `File::Path::rmtree` → `file.path.rmtree`); an entry that starts
//! with `.` is a method on any object (`.rmsync`). Every table is sorted and unique (tested).

use crate::catalogue::Language;

/// How a language writes its code: what the tokenizer needs to know.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Syntax {
    /// `#` starts a comment to the end of the line.
    pub hash_comment: bool,
    /// `//` and `/* … */` are comments.
    pub slash_comment: bool,
    /// `--` starts a comment (Lua); with `long_brackets`, `--[[ … ]]` too.
    pub dash_comment: bool,
    /// Lua's `[[ … ]]` and `[==[ … ]==]` strings.
    pub long_brackets: bool,
    /// Julia's `#= … =#` comments.
    pub hash_equals_comment: bool,
    /// How `'…'` reads.
    pub single: Single,
    /// What `"…"` interpolates.
    pub double: Interp,
    /// What `` `…` `` is.
    pub backtick: Backtick,
    /// `'''…'''` and `"""…"""`.
    pub triple: bool,
    /// Python's string prefixes (`r`, `b`, `f`, `rb`…); `f` interpolates `{…}`.
    pub prefixes: bool,
    /// Perl's `q qq qw qx m s tr y qr` or Ruby's `%w %x %q …`.
    pub quote_like: QuoteLike,
    /// Sigils that make a variable: `$x` (Perl, PHP, Ruby's globals), `@x`, `%x`.
    pub sigils: &'static str,
    /// `$` is a letter of names (JavaScript).
    pub dollar_names: bool,
    /// `/…/` is a regular expression where an operand is expected.
    pub regex: bool,
    /// Operators that join two texts (`+`, `.`, `..`, `&`, `*`).
    pub concat: &'static [&'static str],
    /// Members are reached with `.` (not Perl's and PHP's, whose `.` joins texts).
    pub dot_member: bool,
    /// `a:method()` calls a method (Lua).
    pub colon_method: bool,
    /// `name: value` inside a call's parentheses is a named argument (Ruby, PHP).
    pub colon_named: bool,
    /// `"a %s" % x` formats (Python, Ruby).
    pub percent_format: bool,
    /// `path / "name"` joins paths (Python's pathlib).
    pub slash_join: bool,
    /// Two values written side by side are joined (awk).
    pub juxtapose: bool,
    /// A call may leave out its parentheses (`system "ls"` in Perl and Ruby).
    pub bare_calls: bool,
    /// `x <- value` assigns (R).
    pub arrow_assign: bool,
    /// Names may end with `!` or `?` (Ruby, Julia).
    pub bang_names: bool,
    /// A file name's leading `~` is the home folder (R's and Tcl's file functions expand it).
    pub tilde: bool,
    /// Opening `"|cmd"` or `"cmd|"` runs `cmd` (Perl, Ruby, Tcl).
    pub pipe_open: bool,
    /// A backslash before a character that is no escape stays (Python's and PHP's
    /// `"\windows\system32"` is what it says; JavaScript's, Ruby's and Perl's drop it).
    pub kept_escapes: bool,
}

/// How a language reads `'…'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Single {
    /// Backslash escapes as in double quotes (Python, JavaScript, Lua, R).
    Escaped,
    /// Only `\\` and `\'` are escapes (Perl, Ruby, PHP).
    Raw,
    /// A character (Julia) or a transpose after a value.
    Char,
    /// Not a quote (awk, whose programs sit inside the shell's single quotes).
    None,
}

/// What a double-quoted string interpolates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Interp {
    None,
    /// `$name`, `${name}`, `$name{key}`, `$name[i]`, `$name->{k}`, PHP's `{$expr}`.
    Dollar,
    /// Ruby's `#{expr}`.
    Hash,
    /// Julia's `$name` and `$(expr)`.
    Julia,
    /// `${expr}` (Groovy's GStrings, Kotlin's and Scala's templates).
    DollarBrace,
}

/// What `` `…` `` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Backtick {
    /// Not a quote in this language.
    None,
    /// A shell line run where it stands (Perl, Ruby, PHP).
    Runs,
    /// A command value, run by `run(…)` (Julia).
    Command,
    /// A template string with `${…}` (JavaScript).
    Template,
    /// A quoted name (R).
    Name,
}

/// Quote-like operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum QuoteLike {
    None,
    Perl,
    Ruby,
}

/// How a call's arguments make the command it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// The first argument is a command line, or a list of the program and its words.
    Line,
    /// Every argument is a word; one argument alone is a command line (Perl's and Ruby's
    /// `system`).
    Words,
    /// The first argument is the program, the second a list of its words (or a map whose
    /// `args` is).
    ProgramList,
    /// Every argument after this many is a word (Perl's `open2($out, $in, cmd…)`).
    WordsAfter(u8),
    /// After this many leading arguments: the program, then its argv whose first word
    /// (argv[0]) is its own name, as words or as a list (`os.execl`, `os.execv`).
    Exec(u8),
    /// A map's `cmd` (Deno.run) is the program and its words.
    Options,
}

/// What a call deletes: the file or folder named by its first argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Delete {
    /// One file, or an empty folder.
    File,
    /// A folder with everything in it.
    Tree,
    /// A folder with everything in it when the named option is true (`{recursive: true}`).
    TreeIf(&'static str),
}

/// Which argument: by position, by name, or by position unless named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Arg {
    At(u8),
    Key(&'static str),
    AtOrKey(u8, &'static str),
}

/// What a call does to files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    Read(Arg),
    Write(Arg),
    /// Opens the file at the first for reading or writing as the mode at the second says.
    Open(Arg, Arg),
    /// Copies the first to the second.
    Copy(Arg, Arg),
    /// Perl's `open(FH, MODE, PATH)` and `open(FH, "MODEPATH")`, with pipes and dups.
    PerlOpen,
}

/// What a call does on the network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Net {
    /// An HTTP request; its verb as given.
    Request(Verb),
    /// A request whose answer is saved to the file at the argument.
    Download(Arg),
    /// A client for the host in its arguments, whose methods make the requests
    /// (`http.client.HTTPConnection(host)`, `Net::HTTP.start(host)`).
    Client,
    /// A socket made, not yet connected.
    Socket,
    /// A connection to the host in its arguments.
    Connect,
    /// Listens for connections.
    Listen,
}

/// The HTTP verb of a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verb {
    Get,
    Send,
    /// The call's own name (`requests.post`), a verb among its arguments (`HTTP.request("POST",
    /// …)`) or a `method` option; a body option sends.
    ByName,
    /// A GET unless an argument is given at this position (`urlopen(url, data)`).
    DataAt(u8),
    /// A request only when an argument is an address (PHP's `curl_setopt`).
    IfAddress,
}

/// Text a call builds from its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Build {
    /// The argument itself (`Path(x)`, `URI(x)`, `escapeshellarg(x)`).
    Same(Arg),
    /// The first argument with a leading `~` or `$HOME` read as the home folder.
    Expand,
    /// The arguments joined as a path (`os.path.join`).
    PathJoin,
    /// The arguments joined (`paste0`, `string`).
    Concat,
    /// The arguments joined by a space, or by the `sep` named (`paste`).
    Paste,
    /// The words of a list (at `list`, or every argument from there) joined by the text at
    /// `sep` (`join(' ', @words)`, `implode(' ', $a)`, `table.concat(t, ' ')`).
    JoinList { sep: u8, list: u8 },
    /// A format and what fills it (`sprintf`, `.format`, `%`).
    Format,
    /// Its arguments as a list (R's `c(…)`, PHP's `array(…)`).
    List,
    /// The module its first argument names (`require('fs')`, `__import__('os')`).
    Import,
    /// The member of the first argument named by the second (`getattr(os, 'system')`).
    Attr,
    /// Calls the function the first argument names with the rest (`call_user_func('system',
    /// …)`, Ruby's `send(:system, …)`, R's `do.call("system", list(…))`).
    Dispatch,
    /// Calls the function at the first argument once for each item of the list at the second
    /// (`map(os.system, cmds)`, `array_map('unlink', $files)`).
    Each,
    /// A new folder or file made in the system's temporary folder, its name only known when
    /// it runs (`tempfile.mkdtemp()`, `fs.mkdtempSync(…)`, `Dir.mktmpdir`): what is deleted
    /// there was made there.
    Temp,
    /// The system's temporary folder itself (`tempfile.gettempdir()`, `os.tmpdir()`).
    TempFolder,
}

/// Code a call runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Eval {
    /// Its first argument is code in the same language.
    Code,
    /// Its last argument is code (`new Function('a', 'b', 'code')`).
    Body,
    /// Runs the file (or the address) its first argument names.
    File,
}

/// A method called on a text or a list: the text is its first argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    Build(Build),
    Delete(Delete),
    Access(Access),
    Run(Shape),
}

/// One language's shape and words.
pub(crate) struct Lexicon {
    pub language: Language,
    pub syntax: Syntax,
    pub runs: &'static [(&'static str, Shape)],
    pub deletes: &'static [(&'static str, Delete)],
    pub files: &'static [(&'static str, Access)],
    pub net: &'static [(&'static str, Net)],
    pub home: &'static [&'static str],
    pub builds: &'static [(&'static str, Build)],
    pub evals: &'static [(&'static str, Eval)],
    pub wires: &'static [&'static str],
    pub methods: &'static [(&'static str, Method)],
    /// Names whose presence anywhere makes the program's requests send (`CURLOPT_POSTFIELDS`).
    pub send_marks: &'static [&'static str],
    /// Names of the interpreter running the code (`sys.executable`, `process.execPath`), and
    /// the program they name.
    pub itself: (&'static [&'static str], &'static str),
    /// Names that read standard input (`sys.stdin`, `process.stdin`, `STDIN`).
    pub stdin: &'static [&'static str],
}

/// The entry named exactly `key`.
pub(crate) fn exact<T: Copy>(table: &[(&'static str, T)], key: &str) -> Option<T> {
    table
        .binary_search_by(|(name, _)| crate::intent::words::cmp_word(name, key))
        .ok()
        .and_then(|at| table.get(at))
        .map(|(_, value)| *value)
}

/// What a name means, from the first table that names it (runs, deletes, files, the network,
/// code run, text built).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Meaning {
    Run(Shape),
    Delete(Delete),
    File(Access),
    Net(Net),
    Eval(Eval),
    Build(Build),
}

/// The hash of the map an index is made in (the intent lexicon's); it is read as a table.
use crate::intent::lexicon::WordHasher as NameHasher;

type Map<V> = std::collections::HashMap<&'static str, V, std::hash::BuildHasherDefault<NameHasher>>;

/// What the index knows of one name or path, from every table at once.
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    meaning: Option<Meaning>,
    /// A network prefix entry (`requests.`): the key ends with `.`.
    prefix: Option<Net>,
    special: Option<Special>,
    /// The path before `(` in one of the home folder's calls (`os.getenv`).
    home_call: bool,
    wires: bool,
}

/// A lexicon's tables as one index, built once per language: a call's path is looked up
/// once, not once per table.
pub(crate) struct Index {
    /// Every name of every table, with what each table says of it: the names that mean
    /// something, the network's prefix entries (`requests.`), the paths and calls that are
    /// the home folder (`dir.home`, `os.getenv(home)`), read standard input or name the
    /// interpreter itself, the home folder's calls, and what wires descriptors. One lookup
    /// answers all of them for a path, and one more for its last name (`.rmsync`).
    /// Made as a map, then kept as a table only read ([`crate::catalogue::Names`]).
    entries: crate::catalogue::Names<Entry>,
    /// The first names of the prefix entries (`requests` for `requests.`, `http` for
    /// `http.client.`): a path whose first name is none of them has none (most languages
    /// have no prefix entry at all).
    prefix_heads: Vec<&'static str>,
    /// The last names of what runs, deletes, reaches the network or runs code (three bytes
    /// or more), found in any case: what code that can't be read to its end must name to be
    /// a danger (`code::names_danger`). Made once per language, not once per program.
    danger: Option<aho_corasick::AhoCorasick>,
    /// The modules and objects whose members run, delete or run code (`os` of `os.system`,
    /// `child_process` of `child_process.exec`): a member of one picked by a name only known
    /// when it runs (`getattr(os, name)`) may be any of those.
    acting: Vec<&'static str>,
}

/// Where the last `.` of a path is: a plain loop, for paths of a few bytes (the searcher
/// `rfind` calls is made for long texts).
pub(crate) fn last_dot(path: &str) -> Option<usize> {
    path.bytes().rposition(|b| b == b'.')
}

/// What calling a path means ([`Index::called`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Called {
    /// It may give the home folder (`os.getenv`).
    pub home_call: bool,
    /// It reads standard input.
    pub stdin: bool,
    pub meaning: Option<Meaning>,
    /// A prefix entry covers it (`requests.`)…
    pub prefix: Option<Net>,
    /// … and a name after its first is a verb or a request's (`requests.session.post`).
    pub named_request: bool,
    pub wires: bool,
}

/// A name that stands for something of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Special {
    Home,
    Stdin,
    /// The interpreter running the code, as this program.
    Itself(&'static str),
}

impl Index {
    fn new(lexicon: &'static Lexicon) -> Index {
        let mut entries: Map<Entry> = Map::default();
        let mut prefix_heads: Vec<&'static str> = Vec::new();
        let mean = |entries: &mut Map<Entry>, name: &'static str, meaning: Meaning| {
            let entry = entries.entry(name).or_default();
            entry.meaning.get_or_insert(meaning);
        };
        for (name, shape) in lexicon.runs {
            mean(&mut entries, name, Meaning::Run(*shape));
        }
        for (name, delete) in lexicon.deletes {
            mean(&mut entries, name, Meaning::Delete(*delete));
        }
        for (name, access) in lexicon.files {
            mean(&mut entries, name, Meaning::File(*access));
        }
        for (name, net) in lexicon.net {
            if name.ends_with('.') {
                entries.entry(*name).or_default().prefix = Some(*net);
                let head = name.split('.').next().unwrap_or(name);
                if !prefix_heads.contains(&head) {
                    prefix_heads.push(head);
                }
            } else {
                mean(&mut entries, name, Meaning::Net(*net));
            }
        }
        for (name, eval) in lexicon.evals {
            mean(&mut entries, name, Meaning::Eval(*eval));
        }
        for (name, build) in lexicon.builds {
            mean(&mut entries, name, Meaning::Build(*build));
        }
        for name in lexicon.home {
            entries.entry(*name).or_default().special = Some(Special::Home);
        }
        for name in lexicon.stdin {
            entries
                .entry(*name)
                .or_default()
                .special
                .get_or_insert(Special::Stdin);
        }
        for name in lexicon.itself.0 {
            entries
                .entry(*name)
                .or_default()
                .special
                .get_or_insert(Special::Itself(lexicon.itself.1));
        }
        for entry in lexicon.home {
            if let Some((head, _)) = entry.split_once('(') {
                entries.entry(head).or_default().home_call = true;
            }
        }
        for name in lexicon.wires {
            entries.entry(*name).or_default().wires = true;
        }
        let mut acting: Vec<&'static str> = lexicon
            .runs
            .iter()
            .map(|(n, _)| *n)
            .chain(lexicon.deletes.iter().map(|(n, _)| *n))
            .chain(lexicon.evals.iter().map(|(n, _)| *n))
            .filter_map(|name| name.get(..last_dot(name)?))
            .filter(|owner| !owner.is_empty())
            .collect();
        acting.sort_unstable();
        acting.dedup();
        let last =
            |name: &str| -> String { name.rsplit(['.', ' ']).next().unwrap_or(name).to_string() };
        let mut words: Vec<String> = Vec::new();
        words.extend(lexicon.runs.iter().map(|(n, _)| last(n)));
        words.extend(lexicon.deletes.iter().map(|(n, _)| last(n)));
        words.extend(lexicon.net.iter().map(|(n, _)| last(n)));
        words.extend(lexicon.evals.iter().map(|(n, _)| last(n)));
        words.retain(|w| w.len() >= 3);
        words.sort();
        words.dedup();
        // The names are lower case (tested): found in any case, as in the code lower-cased.
        let danger = aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(&words)
            .ok();
        Index {
            entries: crate::catalogue::Names::new(entries.into_iter()),
            prefix_heads,
            danger,
            acting,
        }
    }

    /// Whether some member of `path` runs, deletes or runs code ([`Index::acting`]).
    pub(crate) fn has_acting_members(&self, path: &str) -> bool {
        self.acting.binary_search(&path).is_ok()
    }

    fn entry(&self, key: &str) -> Option<&Entry> {
        self.entries.get(key)
    }

    /// The entry of `path`'s last name as a method on any object (`.rmsync`), if it has one.
    fn last_entry(&self, path: &str) -> Option<&Entry> {
        let dot = last_dot(path)?;
        self.entry(path.get(dot..)?)
    }

    /// The meaning of a path, else of its last name as a method on any object (`.rmsync`).
    pub(crate) fn meaning(&self, path: &str) -> Option<Meaning> {
        self.entry(path)
            .and_then(|entry| entry.meaning)
            .or_else(|| self.last_entry(path).and_then(|entry| entry.meaning))
    }

    /// A prefix entry covering `path` (`requests.` for `requests.session.post`).
    pub(crate) fn prefix(&self, path: &str) -> Option<Net> {
        // A prefix entry covering the path begins with the path's first name and a dot.
        let head = path.get(..path.bytes().position(|b| b == b'.')?)?;
        if !self.prefix_heads.contains(&head) {
            return None;
        }
        let mut end = path.len();
        while let Some(dot) = path.get(..end).and_then(last_dot) {
            if let Some(found) = path
                .get(..=dot)
                .and_then(|p| self.entry(p))
                .and_then(|entry| entry.prefix)
            {
                return Some(found);
            }
            end = dot;
        }
        None
    }

    /// The finder of the names that make code a danger, if it could be made.
    pub(crate) fn danger(&self) -> Option<&aho_corasick::AhoCorasick> {
        self.danger.as_ref()
    }

    /// What a name stands for of its own, if anything.
    pub(crate) fn special(&self, key: &str) -> Option<Special> {
        self.entry(key).and_then(|entry| entry.special)
    }

    pub(crate) fn is_home(&self, key: &str) -> bool {
        self.special(key) == Some(Special::Home)
    }

    /// What calling `path` means, all of it looked up at once: kept with the path
    /// (`code::Path`), so a call read again is not looked up again.
    pub(crate) fn called(&self, path: &str) -> Called {
        let prefix = self.prefix(path);
        let entry = self.entry(path).copied().unwrap_or_default();
        let last = || self.last_entry(path).copied().unwrap_or_default();
        let (meaning, wires) = match (entry.meaning, entry.wires) {
            (Some(meaning), true) => (Some(meaning), true),
            (meaning, wires) => {
                let last = last();
                (meaning.or(last.meaning), wires || last.wires)
            }
        };
        Called {
            home_call: entry.home_call,
            stdin: entry.special == Some(Special::Stdin),
            meaning,
            prefix,
            // Under a client library, only a call named for a request is one
            // (`requests.session().post`, not `requests.Session()`).
            named_request: prefix.is_some()
                && path.split('.').skip(1).any(|seg| {
                    super::read::verb_of(seg).is_some() || super::read::REQUESTS.contains(&seg)
                }),
            wires,
        }
    }

    pub(crate) fn wires(&self, path: &str) -> bool {
        self.entry(path).is_some_and(|entry| entry.wires)
            || self.last_entry(path).is_some_and(|entry| entry.wires)
    }
}

static INDEXES: [std::sync::OnceLock<Index>; 18] = [const { std::sync::OnceLock::new() }; 18];

impl Lexicon {
    /// This lexicon's index, built the first time it is asked for.
    pub(crate) fn index(&'static self) -> &'static Index {
        let slot = match self.language {
            Language::AppleScript => 0,
            Language::Awk => 1,
            Language::Elixir => 2,
            Language::Groovy => 3,
            Language::Java => 4,
            Language::JavaScript => 5,
            Language::Julia => 6,
            Language::Lua => 7,
            Language::Perl => 8,
            Language::Php => 9,
            Language::PowerShell => 10,
            Language::Python => 11,
            Language::R => 12,
            Language::Ruby => 13,
            Language::Tcl => 14,
            Language::Kotlin => 15,
            Language::Scala => 16,
            Language::Swift => 17,
        };
        match INDEXES.get(slot) {
            Some(cell) => cell.get_or_init(|| Index::new(self)),
            None => {
                // Never reached: every language has a slot.
                static EMPTY: std::sync::OnceLock<Index> = std::sync::OnceLock::new();
                EMPTY.get_or_init(|| Index::new(self))
            }
        }
    }
}
