//! Reading code for what it does: statements and expressions over the tokens, with the
//! values the reader can know (texts, lists, maps, modules by their path, the home folder,
//! what a request answered) and, for every call, what the language's lexicon says it does.
//!
//! Each token is read once: an expression's parts are evaluated where they stand and a call
//! is judged when its arguments are known, so reading is linear in the tokens. Nesting is
//! bounded (expressions 48 deep, code run from text 2 deep), and so are the calls read (4,096)
//! and the things found (64): past a bound the program is unknown, which never lowers a score.

use super::lex::{Lexed, Part, Span, Tok, lex};
use super::lexicon::{
    Access, Arg, Build, Delete, Eval, Lexicon, Meaning, Method, Net, Shape, Special, Verb, exact,
};
use super::{Path, Piece, Reading, Removal, Request, Run, Sent, Value};
use crate::catalogue::Language;
use std::borrow::Cow;
use std::rc::Rc;

mod functions;

/// How deep expressions nest before the reader gives up on them.
const MAX_DEPTH: usize = 48;
/// Calls read in one program.
const MAX_CALLS: usize = 4096;
/// Things found in one program (processes, deletes, requests, connections…).
const MAX_FINDINGS: usize = 64;
/// Names a program binds that the reader remembers.
const MAX_BINDINGS: usize = 64;
/// How deep code run from text (`exec("…")`, `eval "…"`) is read.
pub(crate) const MAX_NEST: usize = 2;
/// The longest text a value holds; what is longer is cut and unknown.
const MAX_TEXT: usize = 8 * 1024;
/// The most items a list holds.
const MAX_ITEMS: usize = 64;
/// The bytes a command line run from its words is given at first (most fit).
const LINE_ROOM: usize = 128;

/// A call's arguments: by position, and by name (lower case).
#[derive(Debug, Default, Clone)]
pub(crate) struct Args {
    pub positional: Vec<Value>,
    pub named: Vec<(String, Value)>,
}

impl Args {
    pub(crate) fn named(&self, key: &str) -> Option<&Value> {
        self.named.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub(crate) fn get(&self, arg: Arg) -> Option<&Value> {
        match arg {
            Arg::At(n) => self.positional.get(usize::from(n)),
            Arg::Key(key) => self.named(key),
            Arg::AtOrKey(n, key) => self
                .named(key)
                .or_else(|| self.positional.get(usize::from(n))),
        }
    }
}

/// The reader's state while it reads one program (and the code it runs from text).
pub(crate) struct State<'s> {
    pub lex: &'static Lexicon,
    /// Every name and path read so far, by its text lower case: what a name is bound to,
    /// and the path it names (made once: a name read again is the same path, looked up once).
    names: Names,
    /// For each token of the program, the slot of the name it is (`NO_SLOT` until it is
    /// read): a name read again, in a function's body read at each call, is not hashed again.
    token_slots: Vec<u32>,
    /// How many names are bound.
    bound: usize,
    /// Where a path is put together before it is looked up.
    scratch: String,
    stars: Vec<String>,
    pub reading: Reading,
    calls: usize,
    findings: usize,
    depth: usize,
    nest: usize,
    /// Functions the program defines, read where they are called (`functions.rs`).
    functions: Vec<functions::Function>,
    /// A bit for each function's name (`functions::sieve_bit`): a call whose path and last
    /// name have no bit here calls none of them, and the functions are not searched.
    function_bits: u64,
    /// How deep calls of the program's own functions are read.
    inlined: usize,
    /// Bytes of function bodies read at their calls, in all.
    inlined_bytes: usize,
    /// What the function being read returns.
    returned: Option<Value>,
    /// The program's tokens, where the bodies of its functions are read.
    program: Option<&'s Lexed<'s>>,
    /// Where the body of a function read in place starts.
    body_from: Option<usize>,
    /// Lists of arguments done with, empty, for the calls read next ([`State::spare`]).
    spare: Vec<Vec<Value>>,
}

/// Lists of arguments kept for the calls read next: as deep as calls nest, near enough.
const MAX_SPARE: usize = 16;

#[inline]
fn tok<'t, 'a>(t: &'t Lexed<'a>, i: usize) -> Option<&'t Tok<'a>> {
    t.tok(i)
}

fn partner(t: &Lexed<'_>, i: usize, end: usize) -> usize {
    match t.partner(i) {
        Some(at) if at < end.max(i + 1) => at,
        _ => end,
    }
}

fn is_op(t: &Lexed<'_>, i: usize, op: &str) -> bool {
    matches!(tok(t, i), Some(Tok::Op(o)) if *o == op)
}

/// Keywords that end a call written without parentheses, or never start an argument.
const NOT_ARGUMENTS: &[&str] = &[
    "and", "do", "else", "elsif", "end", "ensure", "for", "if", "in", "not", "or", "rescue",
    "then", "unless", "until", "when", "while",
];

/// Perl's word operators: names of their own in every other language (`x = 1` in Ruby).
const PERL_OPERATORS: &[&str] = &["cmp", "eq", "ge", "gt", "le", "lt", "ne", "x", "xor"];

/// Keywords used as binary operators.
const WORD_OPERATORS: &[&str] = &["and", "else", "if", "in", "instanceof", "is", "or"];

/// Binary operators (`is_operator` reads them; a test keeps the two the same).
#[cfg(test)]
const OPERATORS: &[&str] = &[
    "!=", "!==", "!~", "%", "&", "&&", "*", "**", "+", "-", ".", "..", "/", "//", "<", "<<", "<=",
    "<=>", "==", "===", "=~", ">", ">=", ">>", "?", "??", "^", "|", "|&", "|>", "||",
];

/// Is this one of `OPERATORS`? (A match on bytes: it runs for every operand read.)
fn is_operator(op: &str) -> bool {
    match op.as_bytes() {
        // A match, not `contains`: a slice's `contains` is a call to memchr.
        [c] => matches!(
            c,
            b'%' | b'&' | b'*' | b'+' | b'-' | b'.' | b'/' | b'<' | b'>' | b'?' | b'^' | b'|'
        ),
        [a, b] => matches!(
            (a, b),
            (b'!', b'=')
                | (b'!', b'~')
                | (b'&', b'&')
                | (b'*', b'*')
                | (b'.', b'.')
                | (b'/', b'/')
                | (b'<', b'<')
                | (b'<', b'=')
                | (b'=', b'=')
                | (b'=', b'~')
                | (b'>', b'=')
                | (b'>', b'>')
                | (b'?', b'?')
                | (b'|', b'&')
                | (b'|', b'>')
                | (b'|', b'|')
        ),
        b"!==" | b"<=>" | b"===" => true,
        _ => false,
    }
}

fn is_word_operator(word: &str, perl: bool) -> bool {
    (1..=10).contains(&word.len())
        && (WORD_OPERATORS.contains(&word) || (perl && PERL_OPERATORS.contains(&word)))
}

/// The last name in a path, as a placeholder's name (`sys.argv[]` → `argv`).
pub(crate) fn placeholder(path: &str) -> String {
    // What the program's arguments give however it is cut or joined (`process.argv.slice(2)
    // .join(' ')`, `sys.argv[1:]`) is still their words: named for them, so the words the
    // line gives stand there (`command/code.rs`).
    if path
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|part| part.eq_ignore_ascii_case("argv"))
    {
        return "argv".to_string();
    }
    let name: String = path
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|part| !part.is_empty())
        .unwrap_or("value")
        .chars()
        .take(32)
        .collect();
    if name.eq_ignore_ascii_case("home") || name.chars().all(|c| c.is_ascii_digit()) {
        format!("{name}_value")
    } else {
        name
    }
}

fn lower(text: &str) -> String {
    text.to_ascii_lowercase()
}

/// A path with one more name (`os` + `system` → `os.system`), bounded in length.
fn join_path(path: &str, name: &str) -> String {
    if path.len() > 160 {
        return path.to_string();
    }
    let mut out = String::with_capacity(path.len() + 1 + name.len());
    out.push_str(path);
    if !path.is_empty() {
        out.push('.');
    }
    out.push_str(name);
    out
}

/// A value's literal text, when all of it is known: borrowed when it is one piece (most are:
/// a key, a name, an argument read as it was written), so asking copies nothing.
pub(crate) fn literal(value: &Value) -> Option<Cow<'_, str>> {
    match value {
        Value::Text(pieces) => match pieces.as_slice() {
            [] => Some(Cow::Borrowed("")),
            [Piece::Lit(text)] => Some(Cow::Borrowed(text)),
            pieces => {
                let mut out = String::new();
                for piece in pieces {
                    match piece {
                        Piece::Lit(text) => out.push_str(text),
                        _ => return None,
                    }
                }
                Some(Cow::Owned(out))
            }
        },
        _ => None,
    }
}

/// The pieces a value stands for inside a text.
fn pieces_of(value: Value) -> Vec<Piece> {
    match value {
        Value::Text(pieces) | Value::Command(pieces) => Rc::unwrap_or_clone(pieces),
        other => pieces_ref(&other).into_owned(),
    }
}

/// [`pieces_of`] without taking the value: a text's own pieces, borrowed.
fn pieces_ref(value: &Value) -> Cow<'_, [Piece]> {
    match value {
        Value::Each(items) => match items.first() {
            Some(first) => pieces_ref(first),
            None => Cow::Owned(vec![Piece::Unknown("value".to_string())]),
        },
        Value::Text(pieces) | Value::Command(pieces) => Cow::Borrowed(pieces.as_slice()),
        Value::Object(path) => Cow::Owned(vec![Piece::Unknown(placeholder(path))]),
        Value::List(items) => {
            let mut out = Pieces::default();
            for (n, item) in items.iter().enumerate() {
                if n > 0 {
                    out.lit(" ");
                }
                for piece in pieces_ref(item).iter() {
                    out.push_ref(piece);
                }
            }
            Cow::Owned(out.done())
        }
        Value::Fetched(_) => Cow::Owned(vec![Piece::Unknown("download".to_string())]),
        // Data written into a text keeps what it came from, as `concat` does: an address
        // it is put into sends it.
        Value::Data(Some(file)) => Cow::Owned(vec![Piece::Unknown(format!("{DATA_OF}{file}"))]),
        Value::Data(None) => Cow::Owned(vec![Piece::Unknown("data".to_string())]),
        _ => Cow::Owned(vec![Piece::Unknown("value".to_string())]),
    }
}

/// A piece's length in its text (the home folder and a placeholder as `${HOME}`, `${name}`).
fn piece_len(piece: &Piece) -> usize {
    match piece {
        Piece::Lit(text) => text.len(),
        Piece::Home => 7,
        Piece::Unknown(name) => name.len() + 3,
    }
}

/// A text's pieces as they are put together: next literals join, and past `MAX_TEXT` the rest
/// is unknown. The length is kept as pieces come, so a text of many pieces is built in one
/// pass, not summed again for each.
#[derive(Default)]
struct Pieces {
    out: Vec<Piece>,
    len: usize,
}

impl Pieces {
    fn from(out: Vec<Piece>) -> Pieces {
        let len = out.iter().map(piece_len).sum();
        Pieces { out, len }
    }

    fn lit(&mut self, text: &str) {
        if self.len <= MAX_TEXT
            && let Some(Piece::Lit(last)) = self.out.last_mut()
        {
            last.push_str(text);
            self.len += text.len();
            return;
        }
        self.push(Piece::Lit(text.to_string()));
    }

    /// Past `MAX_TEXT`: the rest is unknown (once). True when the text is that long.
    fn full(&mut self) -> bool {
        if self.len > MAX_TEXT {
            if !matches!(self.out.last(), Some(Piece::Unknown(_))) {
                let rest = Piece::Unknown("rest".to_string());
                self.len += piece_len(&rest);
                self.out.push(rest);
            }
            return true;
        }
        false
    }

    /// [`Pieces::push`] of a piece borrowed: copied only when it is kept as it is.
    fn push_ref(&mut self, piece: &Piece) {
        if self.full() {
            return;
        }
        match (self.out.last_mut(), piece) {
            (Some(Piece::Lit(last)), Piece::Lit(text)) => {
                self.len += text.len();
                last.push_str(text);
            }
            (_, Piece::Lit(text)) if text.is_empty() => {}
            (_, piece) => {
                self.len += piece_len(piece);
                self.out.push(piece.clone());
            }
        }
    }

    /// The pieces a value stands for, pushed in turn.
    fn push_value(&mut self, value: &Value) {
        for piece in pieces_ref(value).iter() {
            self.push_ref(piece);
        }
    }

    fn push(&mut self, piece: Piece) {
        if self.full() {
            return;
        }
        match (self.out.last_mut(), piece) {
            (Some(Piece::Lit(last)), Piece::Lit(text)) => {
                self.len += text.len();
                last.push_str(&text);
            }
            (_, Piece::Lit(text)) if text.is_empty() => {}
            (_, piece) => {
                self.len += piece_len(&piece);
                self.out.push(piece);
            }
        }
    }

    fn clear(&mut self) {
        self.out.clear();
        self.len = 0;
    }

    fn done(self) -> Vec<Piece> {
        self.out
    }
}

/// Two values joined as text (or lists joined as a list).
/// How data put into an address is named in it: `data of FILE`.
const DATA_OF: &str = "data of ";

pub(crate) fn concat(left: Value, right: Value) -> Value {
    match (left, right) {
        (Value::Fetched(host), _) | (_, Value::Fetched(host)) => Value::Fetched(host),
        // An address with data put into it (`"https://x/?d=" . $data`) stays an address,
        // what follows its host only known when it runs: a request that carries the data.
        (left, Value::Data(file)) if address(&left).is_some() => {
            let mut out = Pieces::from(pieces_of(left));
            let name = match file {
                Some(file) => format!("{DATA_OF}{file}"),
                None => "data".to_string(),
            };
            out.push_value(&Value::text(vec![Piece::Unknown(name)]));
            Value::text(out.done())
        }
        (Value::Data(file), _) | (_, Value::Data(file)) => Value::Data(file),
        (Value::Each(items), right) => Value::each(
            items
                .iter()
                .take(8)
                .map(|item| concat(item.clone(), right.clone()))
                .collect(),
        ),
        (left, Value::Each(items)) => Value::each(
            items
                .iter()
                .take(8)
                .map(|item| concat(left.clone(), item.clone()))
                .collect(),
        ),
        (Value::List(a), Value::List(b)) => {
            let mut a = Rc::unwrap_or_clone(a);
            a.extend(b.iter().take(MAX_ITEMS.saturating_sub(a.len())).cloned());
            a.truncate(MAX_ITEMS);
            Value::list(a)
        }
        // A list joined with one only known when it runs (`['rm', '-rf'] + sys.argv[1:]`,
        // `['mypy'] + paths`): its words, then what the other holds, a word of its own.
        (Value::List(a), other @ Value::Object(_)) => {
            let mut a = Rc::unwrap_or_clone(a);
            a.truncate(MAX_ITEMS.saturating_sub(1));
            a.push(other);
            Value::list(a)
        }
        (other @ Value::Object(_), Value::List(b)) => {
            let mut items = vec![other];
            items.extend(b.iter().take(MAX_ITEMS.saturating_sub(1)).cloned());
            Value::list(items)
        }
        (left, right) => {
            let command = matches!(left, Value::Command(_)) || matches!(right, Value::Command(_));
            let mut out = Pieces::from(pieces_of(left));
            out.push_value(&right);
            if command {
                Value::command(out.done())
            } else {
                Value::text(out.done())
            }
        }
    }
}

fn home() -> Value {
    Value::text(vec![Piece::Home])
}

/// `~`, `~/x`, `$HOME/x`, `${HOME}/x` read as the home folder.
pub(crate) fn expand(value: Value) -> Value {
    let Value::Text(pieces) = value else {
        return value;
    };
    if let Some(Piece::Lit(first)) = pieces.first() {
        let rest = if first == "~" || first.starts_with("~/") {
            Some(first.get(1..).unwrap_or("").to_string())
        } else {
            ["$HOME", "${HOME}"].iter().find_map(|var| {
                first
                    .strip_prefix(var)
                    .filter(|rest| rest.is_empty() || rest.starts_with('/'))
                    .map(str::to_string)
            })
        };
        if let Some(rest) = rest {
            let mut out = Pieces::from(vec![Piece::Home]);
            out.lit(&rest);
            for piece in pieces.iter().skip(1) {
                out.push_ref(piece);
            }
            return Value::text(out.done());
        }
    }
    Value::Text(pieces)
}

/// Parts joined as a path; an absolute part starts it again (`os.path.join`).
fn path_join(parts: &[Value]) -> Value {
    let mut out = Pieces::default();
    for part in parts {
        let pieces = pieces_ref(part);
        let absolute = match pieces.first() {
            Some(Piece::Lit(text)) => text.starts_with('/'),
            Some(Piece::Home) => true,
            _ => false,
        };
        if absolute {
            out.clear();
        } else if !out.out.is_empty()
            && !matches!(out.out.last(), Some(Piece::Lit(text)) if text.ends_with('/'))
        {
            out.lit("/");
        }
        for piece in pieces.iter() {
            out.push_ref(piece);
        }
    }
    Value::text(out.done())
}

/// `%s`, `%d`, `{}`, `{0}`, `{name}` in a format filled in order.
fn format(template: &Value, fill: &[Value]) -> Value {
    if let Some(data) = fill
        .iter()
        .chain(std::iter::once(template))
        .find(|v| matches!(v, Value::Data(_)))
    {
        return data.clone();
    }
    let Value::Text(pieces) = template else {
        return Value::text(vec![Piece::Unknown("value".to_string())]);
    };
    let mut values = fill.iter();
    let mut out = Pieces::default();
    for piece in pieces.iter() {
        let Piece::Lit(text) = piece else {
            out.push_ref(piece);
            continue;
        };
        let mut rest = text.as_str();
        while let Some(at) = rest.find(['%', '{']) {
            out.lit(rest.get(..at).unwrap_or(""));
            let tail = rest.get(at..).unwrap_or("");
            let hole = if tail.starts_with("%%") {
                out.lit("%");
                2
            } else if tail.starts_with("{{") {
                out.lit("{");
                2
            } else if let Some(spec) = tail.strip_prefix('%') {
                // `%s`, `%-10s`, `%05d`: flags and width, then the letter.
                let skip = spec
                    .find(|c: char| c.is_ascii_alphabetic())
                    .filter(|n| *n <= 6)
                    .map(|n| n + 2);
                match skip {
                    Some(n) => {
                        out.push_value(values.next().unwrap_or(&Value::Other));
                        n
                    }
                    None => {
                        out.lit("%");
                        1
                    }
                }
            } else {
                match tail.find('}').filter(|n| *n <= 32) {
                    Some(close) => {
                        out.push_value(values.next().unwrap_or(&Value::Other));
                        close + 1
                    }
                    None => {
                        out.lit("{");
                        1
                    }
                }
            };
            rest = tail.get(hole..).unwrap_or("");
        }
        out.lit(rest);
    }
    Value::text(out.done())
}

/// The words of a list, or every value from `from`, as one flat list.
fn words_of(values: &[Value], from: usize) -> Vec<Value> {
    match values.get(from) {
        Some(Value::List(items)) if values.len() == from + 1 => items.to_vec(),
        _ => values.iter().skip(from).cloned().collect(),
    }
}

/// Is the option `key` true: a named argument, or a key of a map argument?
fn option_true(args: &Args, key: &str) -> bool {
    let truthy = |v: &Value| match v {
        Value::Bool(b) => *b,
        Value::Text(_) => literal(v).is_some_and(|t| t.eq_ignore_ascii_case("true")),
        Value::Other => false,
        _ => true,
    };
    args.named(key).is_some_and(truthy)
        || args.positional.iter().any(|v| match v {
            Value::Map(entries) => entries.iter().any(|(k, v)| k == key && truthy(v)),
            _ => false,
        })
}

/// Keys whose presence in a request's options means it sends a body.
const BODY_KEYS: &[&str] = &[
    "body",
    "content",
    "data",
    "files",
    "form",
    "json",
    "multipart",
    "payload",
    "postfields",
    "query",
    "source",
    "upload",
];

/// Names of calls that make a request, under a client library.
pub(super) const REQUESTS: &[&str] = &[
    "fetch", "geturl", "open", "request", "send", "stream", "urlopen",
];

/// HTTP verbs, as a request's own name or an argument.
pub(super) fn verb_of(word: &str) -> Option<Sent> {
    match word.to_ascii_lowercase().as_str() {
        "get" | "head" | "options" | "getstore" | "getprint" | "mirror" | "get_response" => {
            Some(Sent::Get)
        }
        "post" | "put" | "patch" | "post_form" | "postform" | "upload" => Some(Sent::Send),
        "delete" | "del" => Some(Sent::Delete),
        _ => None,
    }
}

/// The hash of names (the intent lexicon's: short keys, in tables no one else picks).
type NameHash = std::hash::BuildHasherDefault<crate::intent::lexicon::WordHasher>;

/// What the reading knows of a name or a path.
struct Slot {
    /// Its text (the key it is found by).
    text: Rc<str>,
    /// What the name is bound to.
    value: Option<Value>,
    /// The path it names.
    path: Option<Rc<Path>>,
}

/// Every name and path read so far: found by its text in `index`, kept in `slots`. A slot is
/// never taken away, so its place stays its own for the whole reading (a token of the
/// program remembers the slot it names: [`State::token_slots`]).
#[derive(Default)]
struct Names {
    index: std::collections::HashMap<Rc<str>, u32, NameHash>,
    slots: Vec<Slot>,
}

impl Names {
    fn with_capacity(n: usize) -> Names {
        Names {
            index: std::collections::HashMap::with_capacity_and_hasher(n, NameHash::default()),
            slots: Vec::with_capacity(n),
        }
    }

    fn reserve(&mut self, n: usize) {
        self.index.reserve(n);
        self.slots.reserve(n);
    }

    /// The place of the slot whose text is `key`.
    fn find(&self, key: &str) -> Option<u32> {
        self.index.get(key).copied()
    }

    fn get_mut(&mut self, key: &str) -> Option<&mut Slot> {
        let at = self.find(key)?;
        self.slots.get_mut(at as usize)
    }

    fn get(&self, key: &str) -> Option<&Slot> {
        self.slots.get(self.find(key)? as usize)
    }

    /// Keeps a slot for a text not kept yet; its place.
    fn insert(&mut self, slot: Slot) -> u32 {
        let at = u32::try_from(self.slots.len()).unwrap_or(u32::MAX);
        self.index.insert(Rc::clone(&slot.text), at);
        self.slots.push(slot);
        at
    }
}

/// No slot: a token of the program whose name is not looked up yet.
const NO_SLOT: u32 = u32::MAX;

/// `name` lower case: borrowed when it is already.
pub(super) fn lowered(name: &str) -> Cow<'_, str> {
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(name.to_ascii_lowercase())
    } else {
        Cow::Borrowed(name)
    }
}

impl<'s> State<'s> {
    pub(crate) fn new(lex: &'static Lexicon, nest: usize) -> State<'s> {
        State {
            lex,
            names: Names::with_capacity(32),
            token_slots: Vec::new(),
            bound: 0,
            scratch: String::new(),
            stars: Vec::new(),
            reading: Reading::default(),
            calls: 0,
            findings: 0,
            depth: 0,
            nest,
            functions: Vec::new(),
            function_bits: 0,
            inlined: 0,
            inlined_bytes: 0,
            returned: None,
            program: None,
            body_from: None,
            spare: Vec::new(),
        }
    }

    fn language(&self) -> Language {
        self.lex.language
    }

    pub(crate) fn unknown(&mut self, why: &str) {
        self.reading.unknown.get_or_insert_with(|| why.to_string());
    }

    /// Counts one thing found; false past the bound.
    fn finding(&mut self) -> bool {
        self.findings += 1;
        if self.findings > MAX_FINDINGS {
            self.unknown(
                "it does more things that run, delete or reach the network than warden reads",
            );
            false
        } else {
            true
        }
    }

    /// Binds a name (its key lower case: one is found again by any case of it); past
    /// `MAX_BINDINGS` names, a new one is not remembered.
    pub(crate) fn bind(&mut self, name: &str, value: Value) {
        let key = lowered(name);
        match self.names.get_mut(key.as_ref()) {
            Some(Slot {
                value: slot @ Some(_),
                ..
            }) => *slot = Some(value),
            Some(slot) if self.bound < MAX_BINDINGS => {
                slot.value = Some(value);
                self.bound += 1;
            }
            Some(_) => {}
            None if self.bound < MAX_BINDINGS => {
                self.names.insert(Slot {
                    text: Rc::from(key.as_ref()),
                    value: Some(value),
                    path: None,
                });
                self.bound += 1;
            }
            None => {}
        }
    }

    /// A name's value, taken out of its slot (which holds no value of its own until it is
    /// bound again).
    fn take_binding(&mut self, name: &str) -> Option<Value> {
        self.names
            .get_mut(lowered(name).as_ref())
            .and_then(|slot| slot.value.as_mut())
            .map(|v| std::mem::replace(v, Value::Other))
    }

    fn unbind(&mut self, name: &str) {
        if let Some(slot) = self.names.get_mut(lowered(name).as_ref())
            && slot.value.take().is_some()
        {
            self.bound -= 1;
        }
    }

    pub(crate) fn binding(&self, name: &str) -> Option<Value> {
        if self.bound == 0 {
            return None;
        }
        self.names
            .get(lowered(name).as_ref())
            .and_then(|slot| slot.value.clone())
    }

    /// The object `text` names (its path interned: made once however often it is named).
    pub(super) fn object(&mut self, text: &str) -> Value {
        Value::Object(self.intern(text))
    }

    /// The path `text` names, interned.
    fn intern(&mut self, text: &str) -> Rc<Path> {
        if let Some(slot) = self.names.get_mut(text) {
            let text = &slot.text;
            return Rc::clone(
                slot.path
                    .get_or_insert_with(|| Rc::new(Path::new(Rc::clone(text)))),
            );
        }
        self.new_path(text)
    }

    /// A path named for the first time, kept with its name (one text for both).
    fn new_path(&mut self, text: &str) -> Rc<Path> {
        let key: Rc<str> = Rc::from(text);
        let path = Rc::new(Path::new(Rc::clone(&key)));
        self.names.insert(Slot {
            text: key,
            value: None,
            path: Some(Rc::clone(&path)),
        });
        path
    }

    /// What a name read stands for: the value it is bound to, else what
    /// [`State::special_of`] makes of the path it names (lower case). One lookup.
    fn named(&mut self, name: &str) -> Value {
        let at = self.slot_of(name);
        self.named_in(at)
    }

    /// [`State::named`] for the name token `i` of `t`: a token of the program looks its name
    /// up once, and after that goes to its slot.
    fn named_token(&mut self, t: &Lexed<'_>, i: usize, name: &str) -> Value {
        if !self.is_program(t) {
            return self.named(name);
        }
        let at = match self.token_slots.get(i) {
            Some(&at) if at != NO_SLOT => at,
            _ => {
                let at = self.slot_of(name);
                if let Some(slot) = self.token_slots.get_mut(i) {
                    *slot = at;
                }
                at
            }
        };
        self.named_in(at)
    }

    /// The place of the slot of `name` (lower case), kept empty if there is none yet.
    fn slot_of(&mut self, name: &str) -> u32 {
        let key = lowered(name);
        match self.names.find(&key) {
            Some(at) => at,
            None => self.names.insert(Slot {
                text: Rc::from(key.as_ref()),
                value: None,
                path: None,
            }),
        }
    }

    /// What the name of slot `at` stands for ([`State::named`]).
    fn named_in(&mut self, at: u32) -> Value {
        let path = match self.names.slots.get_mut(at as usize) {
            Some(Slot {
                value: Some(value), ..
            }) => return value.clone(),
            Some(slot) => {
                let text = &slot.text;
                Rc::clone(
                    slot.path
                        .get_or_insert_with(|| Rc::new(Path::new(Rc::clone(text)))),
                )
            }
            None => return Value::Other,
        };
        self.special_of(path)
    }

    /// Reads a program in this state's language, lexed once: its functions' bodies are read
    /// from its tokens.
    pub(crate) fn program(&mut self, lexed: &'s Lexed<'s>) {
        self.program = Some(lexed);
        // Room for about one name or path every eight tokens, made once: a long program's
        // table is not grown (and every name in it moved) while it is read.
        self.names.reserve((lexed.len() / 8).min(1024));
        self.token_slots.clear();
        self.token_slots.resize(lexed.len(), NO_SLOT);
        if let Some(why) = lexed.broken {
            self.unknown(why);
            self.reading.broken = true;
        }
        self.statements(lexed, 0, lexed.len());
        self.uncalled();
    }

    /// Reads code run from text (`exec("…")`), one level deeper, with what is bound so far.
    fn nested(&mut self, code: &str) {
        if self.nest >= MAX_NEST {
            self.unknown("it runs code from text, nested too deep to read");
            return;
        }
        let lexed = (self.language() != Language::Tcl).then(|| lex(code, &self.lex.syntax));
        let mut inner = State::new(self.lex, self.nest + 1);
        for slot in &self.names.slots {
            if let Some(value) = &slot.value {
                inner.names.insert(Slot {
                    text: Rc::clone(&slot.text),
                    value: Some(value.clone()),
                    path: None,
                });
            }
        }
        inner.bound = self.bound;
        inner.findings = self.findings;
        match &lexed {
            Some(lexed) => inner.program(lexed),
            None => super::tcl::read(&mut inner, code),
        }
        self.findings = inner.findings;
        self.calls += inner.calls;
        self.reading.merge(inner.reading);
    }

    /// A string's parts as pieces, interpolations read as expressions.
    pub(crate) fn text(&mut self, parts: &[Part]) -> Vec<Piece> {
        // Most strings are one text: its piece, as `Pieces` would make it, made at once.
        if let [Part::Text(text)] = parts {
            return if text.is_empty() {
                Vec::new()
            } else {
                vec![Piece::Lit(text.to_string())]
            };
        }
        let mut out = Pieces::default();
        for part in parts {
            match part {
                Part::Text(text) => out.lit(text),
                Part::Interp(source) => {
                    let value = self.interpolated(source);
                    out.push_value(&value);
                }
            }
        }
        out.done()
    }

    /// A string token as a text.
    fn string(&mut self, t: &Lexed<'_>, span: Span) -> Value {
        Value::text(self.text(t.parts(span)))
    }

    fn interpolated(&mut self, source: &str) -> Value {
        if self.depth >= MAX_DEPTH {
            return Value::Other;
        }
        let lexed = lex(source, &self.lex.syntax);
        if lexed.is_empty() {
            return Value::Other;
        }
        self.depth += 1;
        let (value, _) = self.expr(&lexed, 0, lexed.len());
        self.depth -= 1;
        value
    }

    fn statements(&mut self, t: &Lexed<'_>, from: usize, to: usize) {
        let mut i = from;
        while i < to {
            if self.calls > MAX_CALLS {
                self.unknown("it makes more calls than warden reads");
                return;
            }
            let next = self.statement(t, i, to);
            i = if next > i { next } else { i + 1 };
        }
    }

    fn statement(&mut self, t: &Lexed<'_>, i: usize, end: usize) -> usize {
        let language = self.language();
        match tok(t, i) {
            Some(Tok::Name(word)) => {
                let word = *word;
                match (language, word) {
                    (Language::Python, "import") => return self.py_import(t, i + 1, end),
                    (Language::Python, "from") => return self.py_from(t, i + 1, end),
                    (Language::JavaScript, "import") if !is_op(t, i + 1, "(") => {
                        return self.js_import(t, i + 1, end);
                    }
                    (Language::JavaScript, "const" | "let" | "var")
                    | (Language::Perl, "my" | "our" | "local")
                    | (Language::Lua, "local")
                    | (Language::Julia, "const" | "global" | "local") => {
                        return self.declare(t, i + 1, end);
                    }
                    (Language::Perl, "use" | "no") | (Language::Julia, "using" | "import") => {
                        return skip_statement(t, i, end);
                    }
                    (Language::Awk, "print" | "printf") => return self.awk_print(t, i + 1, end),
                    (_, "for" | "foreach") => return self.for_loop(t, i + 1, end),
                    (_, "return") => return self.returns(t, i + 1, end).max(i + 1),
                    _ => {
                        if let Some(next) = self.definition(t, i, end) {
                            return next;
                        }
                    }
                }
                if let Some(next) = self.assignment(t, i, end) {
                    return next;
                }
            }
            Some(Tok::Var(_)) => {
                if let Some(next) = self.assignment(t, i, end) {
                    return next;
                }
            }
            _ => {}
        }
        let (value, j) = self.expr(t, i, end);
        // `with open(f) as fh`, `except E as e`, `import x as y` already taken.
        if language == Language::Python
            && matches!(tok(t, j), Some(Tok::Name("as")))
            && let Some(Tok::Name(name)) = tok(t, j + 1)
        {
            self.bind(name, value);
            return j + 2;
        }
        j
    }

    /// What follows `return`: the value the function being read returns.
    fn returns(&mut self, t: &Lexed<'_>, i: usize, end: usize) -> usize {
        let (value, next) = self.expr(t, i, end);
        if self.inlined > 0 && self.returned.is_none() {
            self.returned = Some(value);
        }
        next
    }

    /// `name = value` (and `<-`, `:=`, `+=`, `.=`): the value bound to the name.
    fn assignment(&mut self, t: &Lexed<'_>, i: usize, end: usize) -> Option<usize> {
        let name = match tok(t, i)? {
            Tok::Name(n) | Tok::Var(n) => *n,
            _ => return None,
        };
        let Some(Tok::Op(op)) = tok(t, i + 1) else {
            return None;
        };
        let op = *op;
        if op == "," {
            return self.declare_many(t, i, end);
        }
        if !matches!(op, "=" | ":=" | "<-" | "<<-" | "+=" | ".=" | "..=" | "||=") {
            return None;
        }
        if (op == "=" || op == "<-")
            && let Some(next) = self.function_value(t, name, i + 2, end)
        {
            return Some(next);
        }
        let (value, j) = self.expr(t, i + 2, end);
        let value = match op {
            "+=" | ".=" => concat(self.binding(name).unwrap_or(Value::Other), value),
            "||=" => self.binding(name).unwrap_or(value),
            _ => value,
        };
        self.bind(name, value);
        Some(j.max(i + 2))
    }

    /// Go's `h, err := f()`: the first name is what the call gives (its value; the others are
    /// its error or its flag), the others unknown. Only `:=`, which no other language read
    /// here spells so after a list of names.
    fn declare_many(&mut self, t: &Lexed<'_>, i: usize, end: usize) -> Option<usize> {
        let mut at = i + 1;
        let mut names = vec![];
        while is_op(t, at, ",") {
            match tok(t, at + 1) {
                Some(Tok::Name(name)) => names.push(*name),
                _ => return None,
            }
            at += 2;
        }
        if !is_op(t, at, ":=") {
            return None;
        }
        let (value, j) = self.expr(t, at + 1, end);
        let Some(Tok::Name(first)) = tok(t, i) else {
            return None;
        };
        self.bind(first, value);
        for name in names {
            if name != "_" {
                self.bind(name, Value::Other);
            }
        }
        Some(j.max(at + 1))
    }

    /// After `const`, `let`, `my`, `local`: a name, or JavaScript's `{a, b: c} = …`.
    fn declare(&mut self, t: &Lexed<'_>, i: usize, end: usize) -> usize {
        if is_op(t, i, "{") {
            let close = partner(t, i, end);
            if !is_op(t, close + 1, "=") {
                return close + 1;
            }
            let (value, j) = self.expr(t, close + 2, end);
            let mut at = i + 1;
            while at < close {
                let Some(Tok::Name(key)) = tok(t, at) else {
                    at += 1;
                    continue;
                };
                let (local, next) = if is_op(t, at + 1, ":") {
                    match tok(t, at + 2) {
                        Some(Tok::Name(local)) => (*local, at + 3),
                        _ => (*key, at + 2),
                    }
                } else {
                    (*key, at + 1)
                };
                let member = self.member(value.clone(), key);
                self.bind(local, member);
                at = next;
                // Skip a default (`= x`) up to the next comma.
                while at < close && !is_op(t, at, ",") {
                    at += 1;
                }
            }
            return j;
        }
        match self.assignment(t, i, end) {
            Some(next) => next,
            None => i,
        }
    }

    /// `for x in LIST`, `for (const x of LIST)`, `for my $x (LIST)`, `for _, x in
    /// ipairs(LIST)`: the name stands for the list, so what is done with it is done with
    /// every item (a delete of each path, a command spelled by each).
    fn for_loop(&mut self, t: &Lexed<'_>, i: usize, end: usize) -> usize {
        let parens = is_op(t, i, "(");
        let start = if parens { i + 1 } else { i };
        let stop = if parens { partner(t, i, end) } else { end };
        let mut at = start;
        let mut name: Option<&str> = None;
        // Every name before the last (`for root, dirs, files in os.walk('build')`).
        let mut before: Vec<&str> = Vec::new();
        // The loop's names, up to `in` or `of` (a few tokens at most).
        while at < stop && at < start + 8 {
            match tok(t, at) {
                Some(Tok::Name("in" | "of")) => break,
                Some(Tok::Name("const" | "let" | "var" | "my" | "our" | "local")) => {}
                Some(Tok::Name(n) | Tok::Var(n)) => {
                    before.extend(name.replace(n));
                }
                Some(Tok::Op(",")) => {}
                Some(Tok::Op("(")) if self.language() == Language::Perl => {
                    // `for my $x (LIST)`
                    let close = partner(t, at, end);
                    let list = self.list(t, at + 1, close);
                    if let Some(name) = name {
                        self.bind(name, each(list));
                    }
                    return close + 1;
                }
                _ => return at,
            }
            at += 1;
        }
        let Some(name) = name else { return at };
        if !matches!(tok(t, at), Some(Tok::Name("in" | "of"))) {
            return at;
        }
        let (value, next) = self.expr(t, at + 1, stop);
        let item = each(value);
        // Several names take a tuple's items by place; from a text, each is a place under it
        // (os.walk's folder and the names in it: `os.path.join(root, d)` is under `build`).
        for (place, earlier) in before.iter().enumerate() {
            let value = match &item {
                Value::List(items) => items.get(place).cloned().unwrap_or(Value::Other),
                other => other.clone(),
            };
            self.bind(earlier, value);
        }
        let value = match &item {
            Value::List(items) if !before.is_empty() => {
                items.get(before.len()).cloned().unwrap_or(Value::Other)
            }
            _ => item,
        };
        self.bind(name, value);
        if parens { stop + 1 } else { next }
    }

    /// `import a.b as c, d`
    fn py_import(&mut self, t: &Lexed<'_>, mut i: usize, end: usize) -> usize {
        loop {
            let (module, next) = dotted(t, i, end);
            if module.is_empty() {
                return next.max(i);
            }
            i = next;
            if matches!(tok(t, i), Some(Tok::Name("as")))
                && let Some(Tok::Name(alias)) = tok(t, i + 1)
            {
                self.bind(alias, Value::path(module));
                i += 2;
            }
            if is_op(t, i, ",") {
                i += 1;
            } else {
                return i;
            }
        }
    }

    /// `from a.b import c as d, e` and `from os import *`
    fn py_from(&mut self, t: &Lexed<'_>, i: usize, end: usize) -> usize {
        let (module, mut i) = dotted(t, i, end);
        if !matches!(tok(t, i), Some(Tok::Name("import"))) {
            return i;
        }
        i += 1;
        let parens = is_op(t, i, "(");
        let stop = if parens { partner(t, i, end) } else { end };
        if parens {
            i += 1;
        }
        while i < stop {
            match tok(t, i) {
                Some(Tok::Op("*")) => {
                    if self.stars.len() < 4 {
                        self.stars.push(module.clone());
                    }
                    i += 1;
                }
                Some(Tok::Name(name)) => {
                    let path = join_path(&module, &lower(name));
                    if matches!(tok(t, i + 1), Some(Tok::Name("as")))
                        && let Some(Tok::Name(alias)) = tok(t, i + 2)
                    {
                        self.bind(alias, Value::path(path));
                        i += 3;
                    } else {
                        self.bind(name, Value::path(path));
                        i += 1;
                    }
                }
                Some(Tok::Op(",")) => i += 1,
                Some(Tok::Newline) if parens => i += 1,
                _ => break,
            }
        }
        if parens { stop + 1 } else { i }
    }

    /// `import x from 'm'`, `import * as x from 'm'`, `import {a as b} from 'm'`.
    fn js_import(&mut self, t: &Lexed<'_>, mut i: usize, end: usize) -> usize {
        let mut names: Vec<(String, Option<String>)> = Vec::new();
        while i < end {
            match tok(t, i) {
                Some(Tok::Name("from")) => {
                    i += 1;
                    break;
                }
                Some(Tok::Str(_)) | Some(Tok::Newline) | Some(Tok::Op(";")) => break,
                Some(Tok::Op("*")) => {
                    if matches!(tok(t, i + 1), Some(Tok::Name("as")))
                        && let Some(Tok::Name(alias)) = tok(t, i + 2)
                    {
                        names.push(((*alias).to_string(), None));
                        i += 3;
                    } else {
                        i += 1;
                    }
                }
                Some(Tok::Op("{")) => {
                    let close = partner(t, i, end);
                    let mut at = i + 1;
                    while at < close {
                        if let Some(Tok::Name(name)) = tok(t, at) {
                            if matches!(tok(t, at + 1), Some(Tok::Name("as")))
                                && let Some(Tok::Name(alias)) = tok(t, at + 2)
                            {
                                names.push(((*alias).to_string(), Some(lower(name))));
                                at += 3;
                                continue;
                            }
                            names.push(((*name).to_string(), Some(lower(name))));
                        }
                        at += 1;
                    }
                    i = close + 1;
                }
                Some(Tok::Name(name)) => {
                    names.push(((*name).to_string(), None));
                    i += 1;
                }
                _ => i += 1,
            }
        }
        if let Some(Tok::Str(parts)) = tok(t, i) {
            let pieces = self.text(t.parts(*parts));
            let module = module_name(&Value::text(pieces));
            for (local, member) in names {
                let path = match member {
                    Some(member) => join_path(&module, &member),
                    None => module.clone(),
                };
                self.bind(&local, Value::path(path));
            }
            return i + 1;
        }
        i
    }

    /// awk's `print … > "file"`, `print … | "cmd"`.
    fn awk_print(&mut self, t: &Lexed<'_>, mut i: usize, end: usize) -> usize {
        let mut printed: Option<Value> = None;
        loop {
            let (value, next) = self.expr_in(t, i, end, true);
            if next > i {
                printed = Some(match printed {
                    None => value,
                    Some(done) => concat(
                        concat(done, Value::text(vec![Piece::Lit(" ".into())])),
                        value,
                    ),
                });
            }
            i = next.max(i);
            if is_op(t, i, ",") {
                i += 1;
                continue;
            }
            break;
        }
        match tok(t, i) {
            Some(Tok::Op(">" | ">>")) => {
                let (target, next) = self.unary(t, i + 1, end);
                self.write_value(&target, None);
                next
            }
            Some(Tok::Op("|" | "|&")) => {
                let (command, next) = self.unary(t, i + 1, end);
                self.run_value(&command);
                // What is printed into a shell runs as its input.
                let shell = super::first_word(&command)
                    .is_some_and(|p| crate::catalogue::is(&p, crate::catalogue::Class::Shell));
                if shell && let Some(printed) = printed {
                    self.run_value(&printed);
                }
                next
            }
            _ => i,
        }
    }

    #[inline]
    pub(crate) fn expr(&mut self, t: &Lexed<'_>, i: usize, end: usize) -> (Value, usize) {
        self.expr_in(t, i, end, false)
    }

    fn expr_in(&mut self, t: &Lexed<'_>, i: usize, end: usize, print: bool) -> (Value, usize) {
        if self.depth >= MAX_DEPTH {
            self.unknown("its expressions nest too deep to read");
            return (Value::Other, skip_statement(t, i, end));
        }
        self.depth += 1;
        let (mut left, mut j) = self.operand(t, i, end);
        let mut ternary = false;
        // A compound assignment inside an expression (`c => d += c`, `(s .= $x)`): the name
        // takes the joined value, as the statement `d += c` gives it.
        if j == i + 1
            && let Some(Tok::Name(name) | Tok::Var(name)) = tok(t, i)
            && let Some(Tok::Op(op @ ("+=" | ".=" | "..=" | "||=" | "??="))) = tok(t, j)
        {
            let (name, op) = (*name, *op);
            let (right, next) = self.expr_in(t, j + 1, end, print);
            let value = match op {
                "||=" | "??=" => self.binding(name).unwrap_or(right),
                _ => concat(self.binding(name).unwrap_or(Value::Other), right),
            };
            self.bind(name, value.clone());
            self.depth -= 1;
            return (value, next.max(j + 1));
        }
        while j < end && j > i {
            let op = match tok(t, j) {
                Some(Tok::Op(op)) if is_operator(op) || (*op == ":" && ternary) => *op,
                Some(Tok::Name(word))
                    if is_word_operator(word, self.language() == Language::Perl) =>
                {
                    *word
                }
                _ => {
                    // awk joins two values written side by side.
                    if self.lex.syntax.juxtapose && starts_operand(t, j) {
                        let (right, next) = self.operand(t, j, end);
                        if next == j {
                            break;
                        }
                        left = concat(left, right);
                        j = next;
                        continue;
                    }
                    break;
                }
            };
            if print && matches!(op, ">" | ">>" | "|" | "|&") {
                break;
            }
            if op == "?" {
                ternary = true;
            }
            let mut k = j + 1;
            while matches!(tok(t, k), Some(Tok::Newline)) {
                k += 1;
            }
            let (right, next) = self.operand(t, k, end);
            if next == k {
                break;
            }
            left = self.combine(op, left, right);
            j = next;
        }
        self.depth -= 1;
        (left, j)
    }

    fn combine(&mut self, op: &str, left: Value, right: Value) -> Value {
        let syntax = &self.lex.syntax;
        if syntax.concat.contains(&op) {
            return concat(left, right);
        }
        match op {
            "%" if syntax.percent_format && matches!(left, Value::Text(_)) => {
                let fill = match right {
                    Value::List(items) => Rc::unwrap_or_clone(items),
                    other => vec![other],
                };
                format(&left, &fill)
            }
            "/" if syntax.slash_join && matches!(left, Value::Text(_)) => path_join(&[left, right]),
            "|" | "|&" if self.language() == Language::Awk => {
                // `"cmd" | getline`: the text before the bar runs.
                self.run_value(&left);
                self.object("getline")
            }
            "?" | ":" | "if" | "else" | "or" | "||" | "??" | "and" | "&&" => match left {
                Value::Other | Value::Bool(_) => right,
                left => left,
            },
            _ => match (left, right) {
                (Value::Fetched(host), _) | (_, Value::Fetched(host)) => Value::Fetched(host),
                (Value::Data(file), _) | (_, Value::Data(file)) => Value::Data(file),
                _ => Value::Other,
            },
        }
    }

    /// An operand: [`State::unary`] when a prefix starts it, else [`State::primary`] at once
    /// (most operands have none: one call less for each).
    #[inline]
    fn operand(&mut self, t: &Lexed<'_>, i: usize, end: usize) -> (Value, usize) {
        if starts_unary(tok(t, i)) {
            self.unary(t, i, end)
        } else {
            self.primary(t, i, end)
        }
    }

    fn unary(&mut self, t: &Lexed<'_>, i: usize, end: usize) -> (Value, usize) {
        if i >= end {
            return (Value::Other, i);
        }
        match tok(t, i) {
            Some(Tok::Op("*" | "**" | "..." | "\\" | "&" | "@" | "%")) => {
                let (value, next) = self.unary(t, i + 1, end);
                (value, next)
            }
            Some(Tok::Op("!" | "-" | "+" | "~")) => {
                let (value, next) = self.unary(t, i + 1, end);
                let value = match value {
                    Value::Fetched(host) => Value::Fetched(host),
                    Value::Data(file) => Value::Data(file),
                    _ => Value::Other,
                };
                (value, next)
            }
            Some(Tok::Name(
                "new" | "await" | "return" | "yield" | "throw" | "defined" | "do" | "eval" | "not"
                | "typeof" | "void" | "my" | "our",
            )) if !is_op(t, i + 1, "(") || matches!(tok(t, i), Some(Tok::Name("new"))) => {
                let keep = matches!(
                    tok(t, i),
                    Some(Tok::Name(
                        "new" | "await" | "return" | "yield" | "do" | "eval" | "my" | "our"
                    ))
                );
                // An array made with its items (Java's and C#'s `new String[]{"sh", "-c", x}`,
                // `new String[] {…}`): the list of them.
                if matches!(tok(t, i), Some(Tok::Name("new")))
                    && matches!(tok(t, i + 1), Some(Tok::Name(_)))
                    && is_op(t, i + 2, "[")
                    && is_op(t, i + 3, "]")
                    && is_op(t, i + 4, "{")
                {
                    let close = partner(t, i + 4, end);
                    let value = self.brace(t, i + 4, close);
                    return self.postfix(t, value, close + 1, end, false);
                }
                let evals = matches!(tok(t, i), Some(Tok::Name("eval" | "do")));
                if evals && exact(self.lex.evals, "eval").is_some() && !is_op(t, i + 1, "{") {
                    // Perl's and Ruby's `eval "code"` without parentheses.
                    return self.primary(t, i, end);
                }
                let (value, next) = self.unary(t, i + 1, end);
                (if keep { value } else { Value::Other }, next)
            }
            Some(Tok::Name("lambda")) if self.language() == Language::Python => {
                let mut at = i + 1;
                while at < end && !is_op(t, at, ":") {
                    at += 1;
                }
                self.unary(t, at + 1, end)
            }
            _ => self.primary(t, i, end),
        }
    }

    fn primary(&mut self, t: &Lexed<'_>, i: usize, end: usize) -> (Value, usize) {
        let Some(token) = tok(t, i).filter(|_| i < end) else {
            return (Value::Other, i);
        };
        let mut callable = false;
        let value = match token {
            Tok::Str(parts) | Tok::Template(parts) => {
                let value = self.string(t, *parts);
                if self.language() == Language::Awk {
                    self.awk_socket(&value);
                }
                value
            }
            Tok::Cmd(parts) => {
                let pieces = self.text(t.parts(*parts));
                if self.language() == Language::Julia {
                    Value::command(pieces)
                } else {
                    let before = self.reading.runs.len();
                    self.run_value(&Value::text(pieces));
                    self.output_of(before)
                        .unwrap_or_else(|| self.object("command output"))
                }
            }
            Tok::Words(words) => Value::list(
                words
                    .split_whitespace()
                    .take(MAX_ITEMS)
                    .map(|w| Value::text(vec![Piece::Lit(w.to_string())]))
                    .collect(),
            ),
            Tok::Num | Tok::Regex => Value::Other,
            Tok::Var(name) => {
                callable = self.language() == Language::Php;
                self.named_token(t, i, name)
            }
            Tok::Name(name) => match *name {
                "true" | "True" | "TRUE" => Value::Bool(true),
                "T" if self.language() == Language::R => Value::Bool(true),
                "F" if self.language() == Language::R => Value::Other,
                "false" | "False" | "FALSE" | "None" | "nil" | "null" | "undefined" | "NULL"
                | "nothing" => Value::Other,
                "getline" if self.language() == Language::Awk => {
                    return self.awk_getline(t, i + 1, end);
                }
                name => {
                    callable = true;
                    if !self.lex.send_marks.is_empty()
                        && self
                            .lex
                            .send_marks
                            .iter()
                            .any(|mark| mark.eq_ignore_ascii_case(name))
                    {
                        self.reading.marked = true;
                    }
                    self.named_token(t, i, name)
                }
            },
            Tok::Op("(") => {
                let close = partner(t, i, end);
                if let Some(at) = comprehension(t, i + 1, close) {
                    let value = self.comprehension(t, i + 1, at, close);
                    return self.postfix(t, value, close + 1, end, false);
                }
                let (items, trailing) = self.items(t, i + 1, close);
                let value = if items.len() == 1 && !trailing {
                    items.into_iter().next().unwrap_or(Value::Other)
                } else {
                    Value::list(items)
                };
                return self.postfix(t, value, close + 1, end, false);
            }
            Tok::Op("[") => {
                let close = partner(t, i, end);
                let value = self.list(t, i + 1, close);
                return self.postfix(t, value, close + 1, end, false);
            }
            Tok::Op("{") => {
                let close = partner(t, i, end);
                let value = self.brace(t, i, close);
                return (value, close + 1);
            }
            // Perl's `<$fh>`, `<FH>`, `<STDIN>`: a line of what the handle holds.
            Tok::Op("<")
                if self.language() == Language::Perl
                    && matches!(tok(t, i + 1), Some(Tok::Var(_) | Tok::Name(_)))
                    && is_op(t, i + 2, ">") =>
            {
                let handle = match tok(t, i + 1) {
                    Some(Tok::Var(name) | Tok::Name(name)) => *name,
                    _ => "",
                };
                let value = self.named(handle);
                return (value, i + 3);
            }
            Tok::Op("$") if self.language() == Language::Awk => {
                let (_, next) = self.primary(t, i + 1, end);
                return (self.object("field"), next.max(i + 1));
            }
            _ => return (Value::Other, i),
        };
        self.postfix(t, value, i + 1, end, callable)
    }

    /// Values separated by commas up to `close`; whether a comma ends them (a tuple).
    fn items(&mut self, t: &Lexed<'_>, mut i: usize, close: usize) -> (Vec<Value>, bool) {
        let mut items = Vec::new();
        let mut trailing = false;
        while i < close {
            match tok(t, i) {
                Some(Tok::Newline) => {
                    i += 1;
                    continue;
                }
                Some(Tok::Op("," | ";")) => {
                    trailing = true;
                    i += 1;
                    continue;
                }
                _ => {}
            }
            trailing = false;
            let (value, next) = self.expr(t, i, close);
            if next == i {
                i = self.statement(t, i, close).max(i + 1);
                continue;
            }
            if items.len() < MAX_ITEMS {
                items.push(value);
            }
            i = next;
        }
        (items, trailing)
    }

    /// `[a, b]`, or PHP's `['k' => v]`.
    fn list(&mut self, t: &Lexed<'_>, i: usize, close: usize) -> Value {
        if let Some(at) = comprehension(t, i, close) {
            return self.comprehension(t, i, at, close);
        }
        let args = self.args_between(t, i, close);
        if args.named.is_empty() {
            Value::list(args.positional)
        } else {
            let mut entries = args.named;
            entries.extend(args.positional.into_iter().map(|v| (String::new(), v)));
            Value::map(entries)
        }
    }

    /// A brace: a map (`{k: v}`, `{'k' => v}`, Lua's `{"a", k = v}`) or a block of statements.
    fn brace(&mut self, t: &Lexed<'_>, open: usize, close: usize) -> Value {
        let first = tok(t, open + 1);
        let second = tok(t, open + 2);
        let lua = self.language() == Language::Lua;
        // Go's `{ h, err := f(); … }` is a block whose first statement names several.
        let names_declared = {
            let mut at = open + 1;
            while matches!(tok(t, at), Some(Tok::Name(_))) && is_op(t, at + 1, ",") {
                at += 2;
            }
            at > open + 1 && matches!(tok(t, at), Some(Tok::Name(_))) && is_op(t, at + 1, ":=")
        };
        let map = open + 1 == close
            || !names_declared
                && matches!(
                    (first, second),
                    (
                        Some(Tok::Name(_) | Tok::Str(_) | Tok::Num | Tok::Var(_)),
                        Some(Tok::Op(":" | "=>" | "," | "}"))
                    )
                )
            || (lua
                && matches!(
                    (first, second),
                    (Some(Tok::Name(_)), Some(Tok::Op("=")))
                        | (Some(Tok::Op("[")), _)
                        | (Some(Tok::Str(_)), _)
                ));
        if !map {
            self.statements(t, open + 1, close);
            return Value::Other;
        }
        let mut entries: Vec<(String, Value)> = Vec::new();
        let mut items: Vec<Value> = Vec::new();
        let mut i = open + 1;
        while i < close {
            if let Some(Tok::Newline | Tok::Op("," | ";")) = tok(t, i) {
                i += 1;
                continue;
            }
            let key = match tok(t, i) {
                Some(Tok::Name(k) | Tok::Var(k)) => Some(lower(k)),
                Some(Tok::Str(parts)) => {
                    let pieces = self.text(t.parts(*parts));
                    literal(&Value::text(pieces)).map(|k| lower(&k))
                }
                _ => None,
            };
            let sep = matches!(tok(t, i + 1), Some(Tok::Op(":" | "=>")))
                || (lua && is_op(t, i + 1, "=") && !is_op(t, i + 2, "="));
            match key {
                Some(key) if sep => {
                    let (value, next) = self.expr(t, i + 2, close);
                    if entries.len() < MAX_ITEMS {
                        entries.push((key, value));
                    }
                    i = next.max(i + 2);
                }
                _ => {
                    let (value, next) = self.expr(t, i, close);
                    if next == i {
                        i = self.statement(t, i, close).max(i + 1);
                        continue;
                    }
                    if items.len() < MAX_ITEMS {
                        items.push(value);
                    }
                    i = next;
                }
            }
        }
        if entries.is_empty() {
            Value::list(items)
        } else {
            entries.extend(items.into_iter().map(|v| (String::new(), v)));
            Value::map(entries)
        }
    }

    /// Arguments between `(` and `)`: by position, and by name (`k=v`, `k: v`, `k => v`).
    /// A call's arguments, done with: their list is kept, empty, for the next call's
    /// (most calls have arguments, and each list was one allocation made and freed).
    fn spare(&mut self, args: Args) {
        let mut positional = args.positional;
        if self.spare.len() < MAX_SPARE && positional.capacity() <= MAX_ITEMS {
            positional.clear();
            self.spare.push(positional);
        }
    }

    fn args_between(&mut self, t: &Lexed<'_>, mut i: usize, close: usize) -> Args {
        let mut args = Args {
            positional: self.spare.pop().unwrap_or_default(),
            named: Vec::new(),
        };
        while i < close {
            if let Some(Tok::Newline | Tok::Op("," | ";")) = tok(t, i) {
                i += 1;
                continue;
            }
            if let Some((key, at)) = self.named_at(t, i) {
                let (value, next) = self.expr(t, at, close);
                if args.named.len() < MAX_ITEMS {
                    args.named.push((key, value));
                }
                i = next.max(at);
                continue;
            }
            let (value, next) = self.expr(t, i, close);
            if next == i {
                i = self.statement(t, i, close).max(i + 1);
                continue;
            }
            if args.positional.len() < MAX_ITEMS {
                args.positional.push(value);
            }
            i = next;
        }
        args
    }

    /// `key=`, `key =>`, and (Ruby, PHP) `key:` starting an argument.
    fn named_at(&mut self, t: &Lexed<'_>, i: usize) -> Option<(String, usize)> {
        match tok(t, i)? {
            Tok::Name(k) => {
                let named = match tok(t, i + 1)? {
                    Tok::Op("=" | "=>") => true,
                    Tok::Op(":") => self.lex.syntax.colon_named && !is_op(t, i + 2, ":"),
                    _ => false,
                };
                named.then(|| (lower(k), i + 2))
            }
            Tok::Str(parts) if is_op(t, i + 1, "=>") => {
                let pieces = self.text(t.parts(*parts));
                Some((lower(&literal(&Value::text(pieces))?), i + 2))
            }
            _ => None,
        }
    }

    /// Arguments of a call written without parentheses, up to the statement's end.
    fn bare_args(&mut self, t: &Lexed<'_>, mut i: usize, end: usize) -> (Args, usize) {
        let mut args = Args::default();
        while i < end {
            if let Some(Tok::Name(word)) = tok(t, i)
                && (NOT_ARGUMENTS.contains(word)
                    || is_word_operator(word, self.language() == Language::Perl))
            {
                break;
            }
            if matches!(
                tok(t, i),
                Some(Tok::Newline | Tok::Op(";" | "}" | ")" | "]" | "{"))
            ) {
                break;
            }
            if let Some((key, at)) = self.named_at(t, i) {
                let (value, next) = self.expr(t, at, end);
                args.named.push((key, value));
                i = next.max(at);
            } else {
                let (value, next) = self.expr(t, i, end);
                if next == i {
                    break;
                }
                if args.positional.len() < MAX_ITEMS {
                    args.positional.push(value);
                }
                i = next;
            }
            if is_op(t, i, ",") {
                i += 1;
            } else {
                break;
            }
        }
        (args, i)
    }

    fn postfix(
        &mut self,
        t: &Lexed<'_>,
        mut value: Value,
        mut i: usize,
        end: usize,
        mut callable: bool,
    ) -> (Value, usize) {
        let syntax = self.lex.syntax;
        let perl = self.language() == Language::Perl;
        let lua = self.language() == Language::Lua;
        while i < end {
            match tok(t, i) {
                Some(Tok::Op(sep))
                    if matches!(*sep, "->" | "::" | "?." | "&.")
                        || (*sep == "." && syntax.dot_member)
                        || (*sep == ":" && syntax.colon_method && lua) =>
                {
                    let Some(Tok::Name(name)) = tok(t, i + 1) else {
                        if *sep == "->" && matches!(tok(t, i + 1), Some(Tok::Op("(" | "[" | "{"))) {
                            i += 1;
                            continue;
                        }
                        break;
                    };
                    let name = *name;
                    i += 2;
                    let receiver = (self.language() == Language::Ruby).then(|| value.clone());
                    if is_op(t, i, "(") {
                        let close = partner(t, i, end);
                        let args = self.args_between(t, i + 1, close);
                        value = self.method(value, name, args);
                        i = close + 1;
                        callable = false;
                    } else if lua && matches!(tok(t, i), Some(Tok::Str(_))) {
                        let (arg, next) = self.primary_only(t, i, end);
                        value = self.method(value, name, one(arg));
                        i = next;
                        callable = false;
                    } else if syntax.bare_calls && starts_bare_argument(t, i, perl) {
                        let (args, next) = self.bare_args(t, i, end);
                        value = self.method(value, name, args);
                        i = next;
                        callable = false;
                    } else {
                        value = self.member(value, name);
                        callable = true;
                    }
                    if let Some(receiver) = receiver {
                        self.block_params(t, i, receiver);
                    }
                }
                Some(Tok::Op("(")) => {
                    let close = partner(t, i, end);
                    let args = self.args_between(t, i + 1, close);
                    value = self.apply(value, args);
                    i = close + 1;
                    callable = false;
                }
                Some(Tok::Op("[")) => {
                    let close = partner(t, i, end);
                    let (key, _) = self.expr(t, i + 1, close);
                    value = self.index(value, key);
                    i = close + 1;
                    callable = false;
                }
                Some(Tok::Op("{"))
                    if perl
                        && i > 0
                        && matches!(tok(t, i - 1), Some(Tok::Var(_) | Tok::Op("->" | "}"))) =>
                {
                    // Perl's hash subscript: `$ENV{HOME}`, `$h->{key}`.
                    let close = partner(t, i, end);
                    let key = match (tok(t, i + 1), i + 2 == close) {
                        (Some(Tok::Name(word)), true) => {
                            Value::text(vec![Piece::Lit((*word).to_string())])
                        }
                        _ => self.expr(t, i + 1, close).0,
                    };
                    value = self.index(value, key);
                    i = close + 1;
                    callable = false;
                }
                Some(Tok::Template(_)) if callable => {
                    // A tagged template: `` $`rm -rf ${dir}` ``.
                    let (arg, next) = self.primary_only(t, i, end);
                    value = self.apply(value, one(arg));
                    i = next;
                    callable = false;
                }
                Some(Tok::Str(_)) if callable && lua => {
                    let (arg, next) = self.primary_only(t, i, end);
                    value = self.apply(value, one(arg));
                    i = next;
                    callable = false;
                }
                Some(Tok::Op("{")) if callable && lua => {
                    let close = partner(t, i, end);
                    let arg = self.brace(t, i, close);
                    value = self.apply(value, one(arg));
                    i = close + 1;
                    callable = false;
                }
                _ if callable
                    && matches!(value, Value::Object(_))
                    && starts_bare_argument(t, i, perl)
                    && (syntax.bare_calls || self.evaluates(&value)) =>
                {
                    let (args, next) = self.bare_args(t, i, end);
                    value = self.apply(value, args);
                    i = next;
                    break;
                }
                _ => break,
            }
        }
        (value, i)
    }

    /// `[f(x) for x in xs if g(x)]`: the names stand for what they walk (as a `for` loop's
    /// do), then the item is read, then the conditions; its items are only known when it runs.
    fn comprehension(&mut self, t: &Lexed<'_>, from: usize, at: usize, close: usize) -> Value {
        let mut names: Vec<&str> = Vec::new();
        let mut i = at + 1;
        while i < close && i < at + 8 {
            match tok(t, i) {
                Some(Tok::Name("in")) => break,
                Some(Tok::Name(name)) => names.push(name),
                _ => {}
            }
            i += 1;
        }
        // The walked value ends at the next `if` or `for` outside brackets.
        let mut stop = i + 1;
        while stop < close {
            match tok(t, stop) {
                Some(Tok::Name("if" | "for")) => break,
                Some(Tok::Op("(" | "[" | "{")) => stop = partner(t, stop, close) + 1,
                _ => stop += 1,
            }
        }
        let (walked, _) = self.expr(t, i + 1, stop);
        let walked = each(walked);
        for name in names {
            self.bind(name, walked.clone());
        }
        self.items(t, from, at);
        if stop < close {
            self.statements(t, stop + 1, close);
        }
        self.object("items")
    }

    /// Ruby's block after a method (`xs.each { |x| … }`, `do |x| … end`): its parameters
    /// stand for what the method walks, so what is done with them is done with its items.
    fn block_params(&mut self, t: &Lexed<'_>, i: usize, receiver: Value) {
        let opens = is_op(t, i, "{") || matches!(tok(t, i), Some(Tok::Name("do")));
        if !opens || !is_op(t, i + 1, "|") {
            return;
        }
        let mut at = i + 2;
        while at < i + 8 && !is_op(t, at, "|") {
            if let Some(Tok::Name(name)) = tok(t, at) {
                self.bind(name, each(receiver.clone()));
            }
            at += 1;
        }
    }

    /// A literal alone (a string after a name), without a postfix of its own.
    fn primary_only(&mut self, t: &Lexed<'_>, i: usize, _end: usize) -> (Value, usize) {
        match tok(t, i) {
            Some(Tok::Str(parts) | Tok::Template(parts)) => {
                let pieces = self.text(t.parts(*parts));
                (Value::text(pieces), i + 1)
            }
            _ => (Value::Other, i + 1),
        }
    }

    /// Is this a name that runs code, which PHP calls without parentheses (`include "x"`)?
    fn evaluates(&self, value: &Value) -> bool {
        matches!(value, Value::Object(path) if matches!(path.called(self.lex).meaning, Some(Meaning::Eval(_))))
    }

    /// Calling a value: a name's path, or PHP's `$f = "system"; $f("ls")`.
    fn apply(&mut self, value: Value, args: Args) -> Value {
        match value {
            Value::Object(path) => {
                let value = self.call_owned(path, &args);
                self.spare(args);
                value
            }
            Value::Text(_) => match literal(&value) {
                Some(name)
                    if !name.is_empty()
                        && name.len() < 64
                        && name
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':')) =>
                {
                    self.call(&lower(&name).replace("::", "."), &args)
                }
                _ => Value::Other,
            },
            Value::Fetched(host) => Value::Fetched(host),
            Value::Data(file) => Value::Data(file),
            _ => Value::Other,
        }
    }

    pub(crate) fn member(&mut self, value: Value, name: &str) -> Value {
        match value {
            Value::Object(path) => {
                let path = self.joined(&path, name);
                self.special_of(path)
            }
            Value::Fetched(host) => Value::Fetched(host),
            Value::Data(file) => Value::Data(file),
            Value::Map(entries) => {
                let key = lower(name);
                entries
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map_or(Value::Other, |(_, v)| v.clone())
            }
            _ => Value::Other,
        }
    }

    fn index(&mut self, value: Value, key: Value) -> Value {
        match value {
            Value::Object(path) => match literal(&key) {
                Some(name)
                    if !name.is_empty()
                        && name.len() < 64
                        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
                {
                    self.member(Value::Object(path), &name)
                }
                // `child_process[process.argv[1]]`: a member picked when it runs, as
                // `getattr(os, name)` (`Build::Attr`).
                None if self.lex.index().has_acting_members(&path.to_string()) => {
                    self.member_picked_when_it_runs(&path)
                }
                _ => {
                    let mut text = std::mem::take(&mut self.scratch);
                    text.clear();
                    text.push_str(&path);
                    text.push_str("[]");
                    let value = self.object(&text);
                    self.scratch = text;
                    value
                }
            },
            Value::Map(entries) => match literal(&key) {
                Some(name) => {
                    let name = lower(&name);
                    entries
                        .iter()
                        .find(|(k, _)| *k == name)
                        .map_or(Value::Other, |(_, v)| v.clone())
                }
                None => Value::Other,
            },
            Value::Fetched(host) => Value::Fetched(host),
            Value::Data(file) => Value::Data(file),
            _ => Value::Other,
        }
    }

    /// A member of `path` (a module whose members run, delete or evaluate) picked by a name
    /// only known when the code runs: code only known then, whatever it is called with.
    fn member_picked_when_it_runs(&mut self, path: &Path) -> Value {
        if self.finding() {
            self.reading
                .unknown_evals
                .push(format!("a member of {path} picked when it runs"));
        }
        Value::Other
    }

    /// `path.name`, the name lower-cased as it is added, interned (a path of more than 160
    /// bytes is not made longer).
    fn joined(&mut self, path: &Rc<Path>, name: &str) -> Rc<Path> {
        if path.len() > 160 {
            return Rc::clone(path);
        }
        let mut text = std::mem::take(&mut self.scratch);
        text.clear();
        text.push_str(path);
        if !text.is_empty() {
            text.push('.');
        }
        let start = text.len();
        text.push_str(name);
        if let Some(added) = text.get_mut(start..) {
            added.make_ascii_lowercase();
        }
        let joined = self.intern(&text);
        self.scratch = text;
        joined
    }

    /// A name or path not bound: the home folder, the interpreter itself, standard input
    /// (noted), else the object it names.
    fn special_of(&mut self, path: Rc<Path>) -> Value {
        match path.special(self.lex) {
            Some(Special::Home) => home(),
            Some(Special::Itself(program)) => Value::text(vec![Piece::Lit(program.to_string())]),
            Some(Special::Stdin) => {
                self.reading.stdin = true;
                Value::Data(None)
            }
            None => Value::Object(path),
        }
    }

    /// A method on a value: on a module or object, a call by its path; on a text or list,
    /// the language's method with the text as its first argument.
    fn method(&mut self, receiver: Value, name: &str, args: Args) -> Value {
        if let Value::Each(items) = receiver {
            let results = items
                .iter()
                .take(8)
                .map(|item| self.method(item.clone(), name, args.clone()))
                .collect();
            return Value::each(results);
        }
        if let Value::Object(path) = receiver {
            let path = self.joined(&path, name);
            let value = self.call_owned(path, &args);
            self.spare(args);
            return value;
        }
        let name = lower(name);
        match receiver {
            Value::Data(file) => {
                // `STDIN->fdopen($c, 'r')`, `$stdin.reopen(sock)`: standard input wired.
                let mut dotted = String::with_capacity(name.len() + 1);
                dotted.push('.');
                dotted.push_str(&name);
                if self.lex.index().wires(&dotted) {
                    self.reading.wires = true;
                }
                // `fs.createReadStream(f).pipe(http.request(u))`: the file goes where the
                // request does.
                for value in &args.positional {
                    if let Value::Fetched(host) = value {
                        self.data_sent(host.clone(), vec![file.clone()]);
                    }
                }
                Value::Data(file)
            }
            Value::Fetched(host) => {
                // `r.end(data)`, `r.write(data)`: a request's body.
                let files = data_in(&args, self.language());
                if !files.is_empty() {
                    self.data_sent(host.clone(), files);
                }
                // `fetch(u).then(r => r.text()).then(eval)`: what was fetched, run.
                let runs = args.positional.iter().any(|v| {
                    matches!(v, Value::Object(p) if matches!(self.lex.index().meaning(p), Some(Meaning::Eval(Eval::Code | Eval::Body))))
                });
                if runs && self.finding() {
                    self.reading.fetched_runs.push(host.clone());
                }
                Value::Fetched(host)
            }
            Value::Text(_) | Value::List(_) | Value::Command(_) | Value::Map(_) => {
                match exact(self.lex.methods, &name) {
                    Some(meaning) => {
                        let mut args = args;
                        args.positional.insert(0, receiver);
                        self.meaning(meaning, &args, &name)
                    }
                    // `.strip()`, `.trim()`, `.decode()`: the text, near enough.
                    None => receiver,
                }
            }
            _ => Value::Other,
        }
    }

    fn meaning(&mut self, meaning: Method, args: &Args, path: &str) -> Value {
        match meaning {
            Method::Build(build) => self.build(build, args),
            Method::Delete(delete) => {
                self.delete(delete, args);
                Value::Other
            }
            Method::Access(access) => self.access(access, args),
            Method::Run(shape) => {
                self.run(shape, args);
                Value::object(path)
            }
        }
    }

    /// What calling `path` does and gives, the path given away (no copy when it names
    /// nothing).
    fn call_owned(&mut self, path: Rc<Path>, args: &Args) -> Value {
        match self.called(&path, args) {
            Some(Value::Object(given)) if given == path => Value::Object(path),
            Some(other) => other,
            None => self.derived(path, args),
        }
    }

    /// What a call nobody lists gives: data it is handed stays the same data, changed
    /// (`base64.b64encode(open('.env').read())`, `json.dumps(dict(os.environ))`,
    /// `JSON.stringify(process.env)`, `os.environ.copy()`), so it is followed into what is
    /// sent; else the object it names.
    fn derived(&self, path: Rc<Path>, args: &Args) -> Value {
        let language = self.language();
        let handed = args
            .positional
            .iter()
            .chain(args.named.iter().map(|(_, v)| v))
            .find_map(|value| match value {
                Value::Data(file) => Some(Value::Data(file.clone())),
                Value::Object(named) if is_environment(language, named.as_str()) => {
                    Some(environment())
                }
                _ => None,
            });
        if let Some(data) = handed {
            return data;
        }
        // A method of the environment itself (`os.environ.copy()`, `ENV.to_h`).
        if let Some((receiver, _)) = path.as_str().rsplit_once('.')
            && is_environment(language, receiver)
        {
            return environment();
        }
        Value::Object(path)
    }

    /// What calling `path` does and gives.
    pub(crate) fn call(&mut self, path: &str, args: &Args) -> Value {
        let path = self.intern(path);
        self.call_owned(path, args)
    }

    /// What calling `path` does and gives: `None` when it gives the object `path` names.
    fn called(&mut self, path: &Path, args: &Args) -> Option<Value> {
        self.calls += 1;
        if self.calls > MAX_CALLS {
            self.unknown("it makes more calls than warden reads");
            return Some(Value::Other);
        }
        let called = *path.called(self.lex);
        let path = path.as_str();
        if called.home_call {
            if self.is_home_call(path, args) {
                return Some(home());
            }
            // Another variable of the environment (`getenv("STRIPE_SECRET_KEY")`): a value only
            // known when it runs, named as the variable is, as `$_ENV["…"]` already is.
            if let [only] = args.positional.as_slice()
                && let Some(name) = literal(only)
                && !name.is_empty()
                && name.len() <= 64
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                return Some(self.object(&format!("{path}.{}", lower(&name))));
            }
        }
        if called.stdin {
            self.reading.stdin = true;
        }
        match called.meaning {
            Some(Meaning::Run(shape)) => {
                let before = self.reading.runs.len();
                self.run(shape, args);
                return self.output_of(before);
            }
            Some(Meaning::Delete(delete)) => {
                self.delete(delete, args);
                return Some(Value::Other);
            }
            Some(Meaning::File(access)) => return Some(self.access(access, args)),
            Some(Meaning::Net(net)) => return Some(self.net(net, path, args)),
            Some(Meaning::Eval(eval)) => {
                self.eval(eval, args);
                return Some(Value::Other);
            }
            Some(Meaning::Build(build)) => {
                if called.wires {
                    self.reading.wires = true;
                }
                return Some(self.build(build, args));
            }
            None => {}
        }
        if let Some(net) = called.prefix {
            if called.named_request {
                return Some(self.net(net, path, args));
            }
            return None;
        }
        if called.wires {
            self.reading.wires = true;
        }
        if let Some(value) = self.user_call(path, args) {
            return Some(value);
        }
        if !path.contains('.') && !self.stars.is_empty() {
            let index = self.lex.index();
            let stars = self.stars.clone();
            for module in stars {
                let full = join_path(&module, path);
                if index.meaning(&full).is_some() {
                    return Some(self.call(&full, args));
                }
            }
        }
        None
    }

    /// `os.homedir()`, `os.getenv('HOME')`, `Sys.getenv("HOME")`.
    fn is_home_call(&mut self, path: &str, args: &Args) -> bool {
        let index = self.lex.index();
        let key = match args.positional.as_slice() {
            [] => format!("{path}()"),
            [only] => match literal(only) {
                Some(text) if text.len() < 16 => format!("{path}({})", lower(&text)),
                _ => return false,
            },
            _ => return false,
        };
        index.is_home(&key)
    }

    fn build(&mut self, build: Build, args: &Args) -> Value {
        let positional = &args.positional;
        match build {
            Build::Same(arg) => args.get(arg).cloned().unwrap_or(Value::Other),
            Build::Temp => Value::text(vec![
                Piece::Lit("/tmp/".to_string()),
                Piece::Unknown("temp".to_string()),
            ]),
            Build::TempFolder => Value::text(vec![Piece::Lit("/tmp".to_string())]),
            Build::Expand => expand(positional.first().cloned().unwrap_or(Value::Other)),
            Build::PathJoin => {
                if positional.is_empty() {
                    Value::Other
                } else {
                    path_join(positional)
                }
            }
            Build::Concat => positional
                .iter()
                .cloned()
                .reduce(concat)
                .unwrap_or(Value::Other),
            Build::Paste => {
                let sep = args
                    .named("sep")
                    .cloned()
                    .unwrap_or_else(|| Value::text(vec![Piece::Lit(" ".to_string())]));
                join_with(positional, &sep)
            }
            Build::JoinList { sep, list } => {
                let sep = positional
                    .get(usize::from(sep))
                    .cloned()
                    .unwrap_or_else(|| Value::text(vec![Piece::Lit(" ".to_string())]));
                let words = words_of(positional, usize::from(list));
                join_with(&words, &sep)
            }
            Build::Format => match positional.split_first() {
                Some((template, fill)) => format(template, fill),
                None => Value::Other,
            },
            Build::List => {
                if positional.is_empty() && !args.named.is_empty() {
                    Value::map(args.named.clone())
                } else {
                    Value::list(positional.clone())
                }
            }
            Build::Import => match positional.first() {
                Some(name) => Value::path(module_name(name)),
                None => Value::Other,
            },
            Build::Attr => match (positional.first(), positional.get(1).and_then(literal)) {
                (Some(object), Some(name)) => self.member(object.clone(), &name),
                // A member of `os` picked by a name only known when it runs (`getattr(os,
                // input())`): `os.system` as much as `os.getcwd`, so calling it runs what
                // is only known when it runs.
                (Some(Value::Object(path)), None)
                    if positional.len() > 1
                        && self.lex.index().has_acting_members(&path.to_string()) =>
                {
                    self.member_picked_when_it_runs(path)
                }
                _ => Value::Other,
            },
            Build::Each => {
                let (Some(callee), Some(list)) = (positional.first(), positional.get(1)) else {
                    return Value::Other;
                };
                let name = match callee {
                    Value::Object(path) => path.to_string(),
                    other => match literal(other) {
                        Some(name) => lower(&name).replace("::", "."),
                        None => return Value::Other,
                    },
                };
                let items = match list {
                    Value::List(items) => items.to_vec(),
                    other => vec![other.clone()],
                };
                if self.depth >= MAX_DEPTH {
                    return Value::Other;
                }
                self.depth += 1;
                for item in items.into_iter().take(8) {
                    self.call(&name, &one(item));
                }
                self.depth -= 1;
                self.object("items")
            }
            Build::Dispatch => {
                let Some((callee, rest)) = positional.split_first() else {
                    return Value::Other;
                };
                let name = match callee {
                    Value::Object(path) => path.to_string(),
                    other => match literal(other) {
                        Some(name) => lower(&name).replace("::", "."),
                        None => return Value::Other,
                    },
                };
                // `do.call("f", list(a, b))`, `call_user_func_array('f', [a, b])`: the list
                // is the arguments.
                let positional = match rest {
                    [Value::List(items)] => items.to_vec(),
                    rest => rest.to_vec(),
                };
                let args = Args {
                    positional,
                    named: args.named.clone(),
                };
                if self.depth >= MAX_DEPTH {
                    return Value::Other;
                }
                self.depth += 1;
                let value = self.call(&name, &args);
                self.depth -= 1;
                value
            }
        }
    }

    // -----------------------------------------------------------------------------------
    // What a program does
    // -----------------------------------------------------------------------------------

    /// A process run with these arguments.
    pub(crate) fn run(&mut self, shape: Shape, args: &Args) {
        let positional = &args.positional;
        match shape {
            Shape::Line => {
                let value = positional
                    .first()
                    .or_else(|| args.named("args"))
                    .or_else(|| args.named("cmd"))
                    .or_else(|| args.named("command"));
                if let Some(value) = value {
                    self.run_value(value);
                }
            }
            Shape::Words => {
                let options = positional
                    .iter()
                    .take_while(|v| matches!(v, Value::Map(_)))
                    .count();
                match positional.get(options..).unwrap_or(&[]) {
                    [] => {}
                    [only] => self.run_value(only),
                    many => self.run_words(many),
                }
            }
            Shape::ProgramList => {
                let Some(program) = positional.first() else {
                    return;
                };
                let rest = match positional.get(1) {
                    Some(Value::List(items)) => Some(items.to_vec()),
                    Some(Value::Map(entries)) => entries
                        .iter()
                        .find(|(k, _)| k == "args")
                        .map(|(_, v)| words_of(std::slice::from_ref(v), 0)),
                    Some(text @ Value::Text(_)) => {
                        // R's `system2("cmd", "args as one line")`.
                        let line = concat(
                            concat(program.clone(), Value::text(vec![Piece::Lit(" ".into())])),
                            text.clone(),
                        );
                        self.run_value(&line);
                        return;
                    }
                    _ => None,
                };
                match rest {
                    Some(rest) => {
                        let mut words = vec![program.clone()];
                        words.extend(rest);
                        self.run_words(&words);
                    }
                    None => self.run_value(program),
                }
            }
            Shape::WordsAfter(skip) => {
                let words = positional.get(usize::from(skip)..).unwrap_or(&[]);
                match words {
                    [] => {}
                    [only] => self.run_value(only),
                    many => self.run_words(many),
                }
            }
            Shape::Exec(skip) => {
                let rest = positional.get(usize::from(skip)..).unwrap_or(&[]);
                let Some(program) = rest.first() else {
                    return;
                };
                let argv: Vec<Value> = match rest.get(1) {
                    Some(Value::List(items)) => items.iter().skip(1).cloned().collect(),
                    _ => rest.iter().skip(2).cloned().collect(),
                };
                let mut words = vec![program.clone()];
                words.extend(argv);
                self.run_words(&words);
            }
            Shape::Options => {
                let command = positional.iter().find_map(|v| match v {
                    Value::Map(entries) => entries
                        .iter()
                        .find(|(k, _)| k == "cmd" || k == "args")
                        .map(|(_, v)| v.clone()),
                    _ => None,
                });
                if let Some(command) = command {
                    self.run_value(&command);
                }
            }
        }
    }

    /// What a command line run since `before` runs printed, as data the program holds
    /// (`` `cat .env` ``, `subprocess.check_output([...])`, `execSync('…')`), named
    /// `$(LINE)` so that a request it reaches sends what that line prints; `None` when no
    /// known line ran.
    fn output_of(&self, before: usize) -> Option<Value> {
        let run = self.reading.runs.get(before..)?.last()?;
        (run.known && run.program.is_some()).then(|| Value::Data(Some(format!("$({})", run.line))))
    }

    /// Runs a value: a command line, or a list of words.
    pub(crate) fn run_value(&mut self, value: &Value) {
        match value {
            Value::List(items) => self.run_words(items),
            Value::Each(items) => {
                for item in items.iter().take(8) {
                    self.run_value(item);
                }
            }
            Value::Fetched(host) => {
                if self.finding() {
                    self.reading.fetched_runs.push(host.clone());
                }
            }
            value => {
                if !self.finding() {
                    return;
                }
                let (line, known) = super::line_of(value);
                let program = super::first_word(value);
                self.reading.runs.push(Run {
                    line,
                    known,
                    program,
                });
            }
        }
    }

    /// Runs a program and its words (no shell between).
    pub(crate) fn run_words(&mut self, words: &[Value]) {
        if words.is_empty() {
            return;
        }
        if let Some(Value::Fetched(host)) = words.iter().find(|w| matches!(w, Value::Fetched(_))) {
            let host = host.clone();
            if self.finding() {
                self.reading.fetched_runs.push(host);
            }
            return;
        }
        if !self.finding() {
            return;
        }
        // Room for most lines at once: a line grown word by word was copied at each doubling.
        let mut line = String::with_capacity(LINE_ROOM);
        let mut known = true;
        for (n, word) in words.iter().take(MAX_ITEMS).enumerate() {
            if n > 0 {
                line.push(' ');
            }
            known &= super::word_into(&mut line, word, false, false);
        }
        let program = words.first().and_then(literal).map(Cow::into_owned);
        // Perl's `system("rm -rf ", $ENV{HOME})`: words whose program holds spaces read as
        // the line they spell when joined.
        if let Some(first) = &program
            && first.contains(char::is_whitespace)
        {
            let joined = words.iter().cloned().reduce(concat).unwrap_or(Value::Other);
            let (raw, raw_known) = super::line_of(&joined);
            self.reading.runs.push(Run {
                line: raw,
                known: raw_known,
                program: super::first_word(&joined),
            });
        }
        self.reading.runs.push(Run {
            line,
            known,
            program,
        });
    }

    /// A delete a reader of its own finds (AppleScript's Finder): `value` is the path.
    pub(crate) fn delete_value(&mut self, value: &Value, tree: bool) {
        let (path, _) = super::word_of(value, true, self.lex.syntax.tilde);
        if !path.is_empty() && self.finding() {
            self.reading.deletes.push(Removal { path, tree });
        }
    }

    fn delete(&mut self, delete: Delete, args: &Args) {
        let tree = match delete {
            Delete::File => false,
            Delete::Tree => true,
            Delete::TreeIf(key) => option_true(args, key),
        };
        let mut paths: Vec<&Value> = Vec::new();
        if let Some(first) = args
            .positional
            .first()
            .or_else(|| args.named("path"))
            .or_else(|| args.named("x"))
        {
            paths.push(first);
        }
        paths.extend(
            args.positional
                .iter()
                .skip(1)
                .filter(|v| matches!(v, Value::Text(_) | Value::List(_))),
        );
        let tilde = self.lex.syntax.tilde;
        let mut words: Vec<String> = Vec::new();
        for path in paths {
            match path {
                Value::List(items) | Value::Each(items) => {
                    for item in items.iter() {
                        words.push(super::word_of(item, true, tilde).0);
                    }
                }
                Value::Bool(_) | Value::Other | Value::Map(_) => {}
                other => words.push(super::word_of(other, true, tilde).0),
            }
        }
        for path in words.into_iter().take(8) {
            if self.finding() {
                self.reading.deletes.push(Removal { path, tree });
            }
        }
    }

    fn access(&mut self, access: Access, args: &Args) -> Value {
        match access {
            Access::Read(arg) => match args.get(arg).cloned() {
                Some(path) => self.read_with(&path, args),
                None => Value::Other,
            },
            Access::Write(arg) => {
                if let Some(path) = args.get(arg).cloned() {
                    let fetched = args.positional.iter().find_map(|v| match v {
                        Value::Fetched(host) => Some(host.clone()),
                        _ => None,
                    });
                    self.write_value(&path, fetched);
                }
                Value::Other
            }
            Access::Open(path, mode) => {
                let Some(path) = args.get(path).cloned() else {
                    return Value::Other;
                };
                let mode = args.get(mode).and_then(literal).unwrap_or_default();
                let writes = mode.contains(['w', 'a', 'x', '+', 'c']) && mode.len() <= 8;
                if writes {
                    self.write_value(&path, None);
                    self.object("file")
                } else {
                    self.read_value(&path)
                }
            }
            Access::Copy(from, to) => {
                let source = args.get(from).cloned();
                let target = args.get(to).cloned();
                let fetched = match &source {
                    Some(Value::Fetched(host)) => Some(host.clone()),
                    Some(source) => match self.read_value(source) {
                        Value::Fetched(host) => Some(host),
                        _ => None,
                    },
                    None => None,
                };
                if let Some(target) = target {
                    self.write_value(&target, fetched);
                }
                Value::Other
            }
            Access::PerlOpen => self.perl_open(args),
        }
    }

    /// Reads the file a value names: an address is a request, a pipe or a command runs.
    fn read_value(&mut self, path: &Value) -> Value {
        if let Value::Each(items) = path {
            for item in items.iter().take(8) {
                self.read_value(item);
            }
            return self.object("file");
        }
        match path {
            Value::Command(_) => {
                self.run_value(path);
                return self.object("command output");
            }
            Value::Fetched(host) => return Value::Fetched(host.clone()),
            _ => {}
        }
        if let Some(piped) = self.piped(path) {
            self.run_value(&piped);
            return self.object("command output");
        }
        if let Some(url) = address(path) {
            return self.request_to(&url, Sent::Get);
        }
        self.read_path(path)
    }

    /// A file read (an address asked for, sending what its options carry).
    fn read_with(&mut self, path: &Value, args: &Args) -> Value {
        if let Some(url) = address(path) {
            let sent = if sends_body(args) {
                Sent::Send
            } else {
                Sent::Get
            };
            return self.request_with(&url, sent, data_in(args, self.language()));
        }
        self.read_value(path)
    }

    fn read_path(&mut self, path: &Value) -> Value {
        if let Some(text) = literal(path)
            && matches!(
                text.as_ref(),
                "/dev/stdin" | "php://stdin" | "stdin" | "-" | "/dev/fd/0"
            )
        {
            self.reading.stdin = true;
            return Value::Data(None);
        }
        let tilde = self.lex.syntax.tilde;
        let word = super::path_of(path, tilde);
        if matches!(path, Value::Text(_)) && self.finding() {
            self.reading.reads.push(word.clone());
        }
        Value::Data(Some(word))
    }

    fn write_value(&mut self, path: &Value, fetched: Option<Option<String>>) {
        if let Value::Each(items) = path {
            for item in items.iter().take(8) {
                self.write_value(item, fetched.clone());
            }
            return;
        }
        if let Some(piped) = self.piped(path) {
            self.run_value(&piped);
            return;
        }
        if !matches!(path, Value::Text(_) | Value::Object(_)) || !self.finding() {
            return;
        }
        let tilde = self.lex.syntax.tilde;
        let word = super::path_of(path, tilde);
        if let Some(host) = fetched {
            self.reading.downloads.push((word.clone(), host));
        }
        self.reading.writes.push(word);
    }

    /// `"|cmd"` or `"cmd|"` opened where that runs `cmd` (Perl, Ruby, Tcl).
    fn piped(&self, path: &Value) -> Option<Value> {
        if !self.lex.syntax.pipe_open {
            return None;
        }
        let Value::Text(pieces) = path else {
            return None;
        };
        let first = match pieces.first() {
            Some(Piece::Lit(text)) => text.trim_start(),
            _ => "",
        };
        if let Some(rest) = first.strip_prefix('|') {
            let mut out = vec![Piece::Lit(rest.to_string())];
            out.extend(pieces.iter().skip(1).cloned());
            return Some(Value::text(out));
        }
        if let Some(Piece::Lit(last)) = pieces.last()
            && let Some(head) = last.trim_end().strip_suffix('|')
        {
            let mut out: Vec<Piece> = pieces.iter().take(pieces.len() - 1).cloned().collect();
            out.push(Piece::Lit(head.to_string()));
            return Some(Value::text(out));
        }
        None
    }

    /// Perl's `open(FH, MODE, PATH…)` and `open(FH, "MODEPATH")`.
    fn perl_open(&mut self, args: &Args) -> Value {
        let value = self.perl_open_mode(args);
        // `open(my $f, …)`, `open(F, …)`: the handle is what was opened.
        if let Some(Value::Object(handle)) = args.positional.first()
            && !handle.contains('.')
            && matches!(value, Value::Data(_))
        {
            self.bind(handle, value.clone());
        }
        value
    }

    fn perl_open_mode(&mut self, args: &Args) -> Value {
        let positional = &args.positional;
        if positional.len() >= 3 {
            let mode = positional.get(1).and_then(literal).unwrap_or_default();
            let mode = mode.trim();
            let rest = positional.get(2..).unwrap_or(&[]);
            let target = rest.first().cloned().unwrap_or(Value::Other);
            if mode == "-|" || mode == "|-" {
                match rest {
                    [only] => self.run_value(only),
                    many => self.run_words(many),
                }
                return self.object("command output");
            }
            if mode.contains('&') {
                self.reading.wires = true;
                return Value::Other;
            }
            if mode.contains('>') || mode.starts_with("+<") {
                self.write_value(&target, None);
                return Value::Other;
            }
            return self.read_value(&target);
        }
        let Some(spec) = positional.get(1) else {
            return Value::Other;
        };
        if let Some(piped) = self.piped(spec) {
            self.run_value(&piped);
            return self.object("command output");
        }
        let Value::Text(pieces) = spec else {
            return Value::Other;
        };
        let head = match pieces.first() {
            Some(Piece::Lit(text)) => text.trim_start().to_string(),
            _ => String::new(),
        };
        if head.starts_with(">&") || head.starts_with("<&") || head.starts_with("+<&") {
            self.reading.wires = true;
            return Value::Other;
        }
        let (writes, skip) = if let Some(rest) = head.strip_prefix(">>") {
            (true, head.len() - rest.len())
        } else if let Some(rest) = head.strip_prefix("+<").or_else(|| head.strip_prefix("+>")) {
            (true, head.len() - rest.len())
        } else if let Some(rest) = head.strip_prefix('>') {
            (true, head.len() - rest.len())
        } else if let Some(rest) = head.strip_prefix('<') {
            (false, head.len() - rest.len())
        } else {
            (false, 0)
        };
        let mut path = pieces.to_vec();
        if let Some(Piece::Lit(first)) = path.first_mut() {
            *first = head.get(skip..).unwrap_or("").trim_start().to_string();
        }
        let path = Value::text(path);
        if writes {
            self.write_value(&path, None);
            Value::Other
        } else {
            self.read_value(&path)
        }
    }

    fn net(&mut self, net: Net, path: &str, args: &Args) -> Value {
        match net {
            Net::Request(verb) => {
                let mut sent = match verb {
                    Verb::Get => Sent::Get,
                    Verb::Send => Sent::Send,
                    Verb::DataAt(n) => {
                        if args.positional.len() > usize::from(n) || args.named("data").is_some() {
                            Sent::Send
                        } else {
                            Sent::Get
                        }
                    }
                    Verb::ByName => self.verb(path, args),
                    Verb::IfAddress => {
                        if !args.positional.iter().any(|v| address(v).is_some()) {
                            // `curl_setopt($c, CURLOPT_POSTFIELDS, $data)`: data for the
                            // program's request.
                            let files = data_in(args, self.language());
                            if !files.is_empty() {
                                self.data_sent(None, files);
                            }
                            return Value::Other;
                        }
                        Sent::Get
                    }
                };
                if sent == Sent::Get && sends_body(args) {
                    sent = Sent::Send;
                }
                let files = data_in(args, self.language());
                let url = url_in(args).unwrap_or_else(|| self.object("address"));
                let fetched = self.request_with(&url, sent, files);
                let headers = headers_in(args);
                if let Some(request) = self
                    .reading
                    .requests
                    .last_mut()
                    .filter(|_| !headers.is_empty())
                {
                    request.headers = headers;
                }
                fetched
            }
            Net::Download(arg) => {
                let url = url_in(args).unwrap_or_else(|| self.object("address"));
                let fetched = self.request_to(&url, Sent::Get);
                if let (Some(target), Value::Fetched(host)) = (args.get(arg).cloned(), &fetched) {
                    self.write_value(&target, Some(host.clone()));
                }
                fetched
            }
            Net::Client => {
                let url = url_in(args).unwrap_or_else(|| self.object("address"));
                self.request_to(&url, Sent::Get);
                Value::object(path)
            }
            Net::Socket => {
                self.reading.socket = true;
                Value::object(path)
            }
            Net::Connect => {
                self.reading.socket = true;
                let host = url_in(args).and_then(|v| host_of(&v));
                if self.finding() {
                    self.reading.connects.push(host.clone());
                }
                // Known where it goes, the connection is that host's: what it is handed
                // (`s.send(data)`) is sent there, and what it gives came from there.
                match host {
                    Some(host) => Value::Fetched(Some(host)),
                    None => Value::object(path),
                }
            }
            Net::Listen => {
                self.reading.socket = true;
                self.reading.listens = true;
                Value::object(path)
            }
        }
    }

    /// The verb of a request named by its call (`requests.post`), an argument (`"POST"`) or
    /// a `method` option.
    fn verb(&self, path: &str, args: &Args) -> Sent {
        if let Some(sent) = path.rsplit('.').find_map(verb_of) {
            return sent;
        }
        let named = args.named("method").or_else(|| args.named("type"));
        let from_maps = args.positional.iter().find_map(|v| match v {
            Value::Map(entries) => entries
                .iter()
                .find(|(k, _)| k == "method" || k == "type")
                .and_then(|(_, v)| literal(v)),
            _ => None,
        });
        let spoken = named.and_then(literal).or(from_maps).or_else(|| {
            args.positional
                .iter()
                .filter_map(literal)
                .find(|t| verb_of(t).is_some())
        });
        spoken.and_then(|word| verb_of(&word)).unwrap_or(Sent::Get)
    }

    fn request_to(&mut self, url: &Value, sent: Sent) -> Value {
        self.request_with(url, sent, Vec::new())
    }

    fn request_with(&mut self, url: &Value, sent: Sent, mut files: Vec<Option<String>>) -> Value {
        if !self.finding() {
            return Value::Fetched(None);
        }
        // Data put into the address (`concat`): what it came from is sent.
        if let Value::Text(pieces) = url {
            for piece in pieces.iter() {
                if let Piece::Unknown(name) = piece {
                    let file = match name.strip_prefix(DATA_OF) {
                        Some(file) => Some(file.to_string()),
                        None if name == "data" => None,
                        None => continue,
                    };
                    if !files.contains(&file) && files.len() < 8 {
                        files.push(file);
                    }
                }
            }
        }
        let (text, _) = super::line_of(url);
        let host = host_of(url);
        self.reading.requests.push(Request {
            url: text,
            host: host.clone(),
            sent,
            files,
            headers: Vec::new(),
        });
        Value::Fetched(host)
    }

    /// Files sent to a request already made (`r.end(data)`, `stream.pipe(request)`).
    fn data_sent(&mut self, host: Option<String>, files: Vec<Option<String>>) {
        if self.finding() {
            self.reading.requests.push(Request {
                url: String::new(),
                host,
                sent: Sent::Send,
                files,
                headers: Vec::new(),
            });
        }
    }

    fn eval(&mut self, eval: Eval, args: &Args) {
        let code = match eval {
            Eval::Body => args.positional.last(),
            _ => args.positional.first(),
        };
        let Some(code) = code.cloned() else {
            return;
        };
        match (eval, &code) {
            (_, Value::Fetched(host)) if self.finding() => {
                self.reading.fetched_runs.push(host.clone());
            }
            (_, Value::Fetched(_)) => {}
            (Eval::Code | Eval::Body, Value::Text(_)) => {
                let (text, _) = super::line_of(&code);
                // Code put together at run time (`d += chunk; eval(d)`): what is known of it
                // is read, and the rest is code only known when it runs.
                // An empty text is one filled where the reader doesn't follow (`let d = '';
                // r.on('data', c => d += c); … eval(d)`): nobody evaluates nothing.
                let empty = literal(&code).is_some_and(|code| code.trim().is_empty());
                if (empty || literal(&code).is_none()) && self.finding() {
                    self.reading.unknown_evals.push(if empty {
                        "${…}".to_string()
                    } else {
                        text.clone()
                    });
                }
                self.nested(&text);
            }
            // `exec(open('setup.py').read())`: that file run as code.
            (Eval::Code | Eval::Body, Value::Data(Some(file))) => {
                self.reading.ran_files.push(file.clone());
            }
            // `eval(process.argv[1])`, `exec(d)`, `exec(sys.stdin.read())`: code only known
            // when it runs.
            (Eval::Code | Eval::Body, Value::Other | Value::Object(_) | Value::Data(None))
                if self.finding() =>
            {
                self.reading.runs_stdin |= matches!(code, Value::Data(None));
                let (text, _) = super::line_of(&code);
                self.reading.unknown_evals.push(text);
            }
            (Eval::File, Value::Text(_)) => {
                if let Some(url) = address(&code) {
                    let host = host_of(&url);
                    if self.finding() {
                        self.reading.fetched_runs.push(host);
                    }
                } else {
                    let tilde = self.lex.syntax.tilde;
                    let word = super::path_of(&code, tilde);
                    self.reading.ran_files.push(word);
                }
            }
            _ => {}
        }
    }

    /// gawk's `/inet/tcp/0/host/port`: a connection (or a listener when the host is 0).
    fn awk_socket(&mut self, value: &Value) {
        let Some(text) = literal(value) else { return };
        let Some(rest) = text
            .strip_prefix("/inet/")
            .or_else(|| text.strip_prefix("/inet4/"))
            .or_else(|| text.strip_prefix("/inet6/"))
        else {
            return;
        };
        let parts: Vec<&str> = rest.split('/').collect();
        self.reading.socket = true;
        match parts.get(2) {
            Some(&"0") | None => self.reading.listens = true,
            Some(host) => {
                if self.finding() {
                    self.reading.connects.push(Some(host.to_ascii_lowercase()));
                }
            }
        }
    }

    /// awk's `getline [var] < file`.
    fn awk_getline(&mut self, t: &Lexed<'_>, mut i: usize, end: usize) -> (Value, usize) {
        if matches!(tok(t, i), Some(Tok::Name(_) | Tok::Var(_))) && !is_op(t, i, "<") {
            i += 1;
        }
        if is_op(t, i, "<") {
            let (file, next) = self.primary(t, i + 1, end);
            self.read_value(&file);
            return (self.object("getline"), next);
        }
        (self.object("getline"), i)
    }
}

/// What a loop's name stands for: each item of a list, else the value walked.
fn each(value: Value) -> Value {
    match value {
        Value::List(items) if !items.is_empty() => {
            Value::each(items.iter().take(8).cloned().collect())
        }
        other => other,
    }
}

fn one(value: Value) -> Args {
    Args {
        positional: vec![value],
        named: Vec::new(),
    }
}

/// Values joined by a separator.
fn join_with(values: &[Value], sep: &Value) -> Value {
    if let Some(data) = values.iter().find(|v| matches!(v, Value::Data(_))) {
        return data.clone();
    }
    let mut out: Option<Value> = None;
    for value in values.iter().take(MAX_ITEMS) {
        let value = match value {
            Value::List(items) => join_with(items, sep),
            other => other.clone(),
        };
        out = Some(match out {
            None => value,
            Some(done) => concat(concat(done, sep.clone()), value),
        });
    }
    out.unwrap_or_else(|| Value::text(Vec::new()))
}

/// A dotted name (`a.b.c`) from `i`, lower case, and where it ends.
fn dotted(t: &Lexed<'_>, mut i: usize, end: usize) -> (String, usize) {
    let mut out = String::new();
    while i < end {
        match tok(t, i) {
            Some(Tok::Name(name)) => {
                out = join_path(&out, &lower(name));
                i += 1;
                if is_op(t, i, ".") && matches!(tok(t, i + 1), Some(Tok::Name(_))) {
                    i += 1;
                } else {
                    break;
                }
            }
            Some(Tok::Op(".")) => i += 1,
            _ => break,
        }
    }
    (out, i)
}

/// A comprehension between `from` and `close` (`x for x in xs`): where its `for` is,
/// outside inner brackets.
fn comprehension(t: &Lexed<'_>, from: usize, close: usize) -> Option<usize> {
    let mut at = from;
    while at < close {
        match tok(t, at) {
            Some(Tok::Name("for")) => return (at > from).then_some(at),
            Some(Tok::Op("(" | "[" | "{")) => at = partner(t, at, close) + 1,
            _ => at += 1,
        }
    }
    None
}

/// The end of the statement at `i`: the next line break or `;` outside brackets.
fn skip_statement(t: &Lexed<'_>, mut i: usize, end: usize) -> usize {
    while i < end {
        match tok(t, i) {
            Some(Tok::Newline | Tok::Op(";")) => return i + 1,
            Some(Tok::Op("(" | "[" | "{")) => i = partner(t, i, end) + 1,
            _ => i += 1,
        }
    }
    i
}

/// Does this token start one of [`State::unary`]'s own arms? (Its other tokens go to
/// [`State::primary`], which gives `(Other, i)` past the end as `unary` does.)
fn starts_unary(token: Option<&Tok<'_>>) -> bool {
    matches!(
        token,
        Some(
            Tok::Op("*" | "**" | "..." | "\\" | "&" | "@" | "%" | "!" | "-" | "+" | "~")
                | Tok::Name(
                    "new"
                        | "await"
                        | "return"
                        | "yield"
                        | "throw"
                        | "defined"
                        | "do"
                        | "eval"
                        | "not"
                        | "typeof"
                        | "void"
                        | "my"
                        | "our"
                        | "lambda"
                )
        )
    )
}

fn starts_operand(t: &Lexed<'_>, i: usize) -> bool {
    match tok(t, i) {
        Some(Tok::Str(_) | Tok::Var(_) | Tok::Num | Tok::Op("(" | "$")) => true,
        Some(Tok::Name(word)) => {
            !is_word_operator(word, false) && !NOT_ARGUMENTS.contains(word) && *word != "getline"
        }
        _ => false,
    }
}

fn starts_bare_argument(t: &Lexed<'_>, i: usize, perl: bool) -> bool {
    match tok(t, i) {
        Some(Tok::Str(_) | Tok::Cmd(_) | Tok::Words(_) | Tok::Var(_) | Tok::Template(_)) => true,
        // `chmod 0777, "/etc/sudoers"`: Perl's list operators may take a number first.
        Some(Tok::Num) => perl,
        Some(Tok::Name(word)) => {
            !NOT_ARGUMENTS.contains(word)
                && !is_word_operator(word, perl)
                && !matches!(tok(t, i + 1), Some(Tok::Op("=" | "=>")))
        }
        _ => false,
    }
}

/// The module a `require`/`import` names: lower case, without `node:` or `npm:`.
fn module_name(value: &Value) -> String {
    let Some(name) = literal(value) else {
        return "module".to_string();
    };
    let name = name.trim();
    let name = ["node:", "npm:", "jsr:"]
        .iter()
        .find_map(|prefix| name.strip_prefix(prefix))
        .unwrap_or(name);
    lower(name).replace("::", ".")
}

/// Names of the whole environment, every variable of it, by language (lower case, as paths
/// are): sent anywhere, every secret it holds leaves, as `env | curl -d @-` sends them.
fn is_environment(language: Language, path: &str) -> bool {
    match language {
        Language::Python => path == "os.environ",
        Language::JavaScript => matches!(path, "process.env" | "deno.env.toobject()" | "bun.env"),
        Language::Ruby | Language::Julia => path == "env",
        Language::Perl => matches!(path, "%env" | "\\%env" | "env"),
        Language::Php => matches!(path, "$_env" | "$_server" | "getenv"),
        Language::R => path == "sys.getenv",
        Language::Awk => path == "environ",
        _ => false,
    }
}

/// A member of the environment that is all of it again (`ENV.to_h`, `ENV.to_a`,
/// `os.environ.copy`): read without a call, as Ruby does.
fn environment_member(language: Language, path: &str) -> bool {
    path.rsplit_once('.').is_some_and(|(receiver, member)| {
        is_environment(language, receiver)
            && matches!(
                member,
                "copy"
                    | "items"
                    | "values"
                    | "to_h"
                    | "to_a"
                    | "to_hash"
                    | "to_s"
                    | "inspect"
                    | "entries"
                    | "dup"
            )
    })
}

/// The whole environment as data: what `env` prints.
fn environment() -> Value {
    Value::Data(Some("$(env)".to_string()))
}

/// The files whose contents are among a call's arguments (in lists and maps too).
fn data_in(args: &Args, language: Language) -> Vec<Option<String>> {
    fn walk(value: &Value, depth: usize, language: Language, out: &mut Vec<Option<String>>) {
        if out.len() >= 8 || depth > 3 {
            return;
        }
        match value {
            Value::Data(file) if !out.contains(file) => out.push(file.clone()),
            Value::Data(_) => {}
            Value::Object(path)
                if is_environment(language, path.as_str())
                    || environment_member(language, path.as_str()) =>
            {
                let env = Some("$(env)".to_string());
                if !out.contains(&env) {
                    out.push(env);
                }
            }
            Value::List(items) | Value::Each(items) => {
                for item in items.iter() {
                    walk(item, depth + 1, language, out);
                }
            }
            Value::Map(entries) => {
                for (_, item) in entries.iter() {
                    walk(item, depth + 1, language, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for value in args
        .positional
        .iter()
        .chain(args.named.iter().map(|(_, v)| v))
    {
        walk(value, 0, language, &mut out);
    }
    out
}

/// Does a request carry a body (`data=`, `{body: …}`, `json=`)?
fn sends_body(args: &Args) -> bool {
    fn keyed(entries: &[(String, Value)], depth: usize) -> bool {
        entries.iter().any(|(k, v)| {
            BODY_KEYS.contains(&k.as_str())
                || (k == "method" || k == "type")
                    && literal(v).and_then(|w| verb_of(&w)) == Some(Sent::Send)
                || (depth < 3 && matches!(v, Value::Map(inner) if keyed(inner, depth + 1)))
        })
    }
    keyed(&args.named, 0)
        || args.positional.iter().any(|v| match v {
            Value::Map(entries) => keyed(entries, 1),
            _ => false,
        })
}

/// The first argument that names a host (a URL, a host name, an address), searching lists
/// The headers a request is given: a `headers` argument (`requests.get(u, headers={…})`)
/// or a `headers` entry of an options map (`fetch(u, {headers: {…}})`), each `Name: value`
/// as the value's text spells it. Eight at most.
fn headers_in(args: &Args) -> Vec<String> {
    let in_options = || {
        args.positional.iter().find_map(|v| match v {
            Value::Map(entries) => entries.iter().find(|(k, _)| k == "headers").map(|(_, v)| v),
            _ => None,
        })
    };
    match args.named("headers").or_else(in_options) {
        Some(Value::Map(entries)) => entries
            .iter()
            .take(8)
            .map(|(name, value)| format!("{name}: {}", super::line_of(value).0))
            .collect(),
        _ => Vec::new(),
    }
}

/// and maps one level down; else the first text.
fn url_in(args: &Args) -> Option<Value> {
    let mut candidates: Vec<&Value> = Vec::new();
    for key in [
        "url", "uri", "host", "hostname", "peeraddr", "peerhost", "address",
    ] {
        if let Some(value) = args.named(key) {
            candidates.push(value);
        }
    }
    for value in &args.positional {
        match value {
            Value::List(items) => candidates.extend(items.iter()),
            Value::Map(entries) => {
                for key in [
                    "url", "uri", "host", "hostname", "peeraddr", "peerhost", "address",
                ] {
                    if let Some((_, v)) = entries.iter().find(|(k, _)| k == key) {
                        candidates.push(v);
                    }
                }
            }
            other => candidates.push(other),
        }
    }
    candidates
        .iter()
        .find(|v| host_of(v).is_some())
        .or_else(|| candidates.iter().find(|v| matches!(v, Value::Text(_))))
        .map(|v| (*v).clone())
}

/// The host a value names, when its text is known that far.
pub(crate) fn host_of(value: &Value) -> Option<String> {
    let Value::Text(pieces) = value else {
        return None;
    };
    let Some(Piece::Lit(first)) = pieces.first() else {
        return None;
    };
    let host = crate::law::command::net::url_host(first.trim())?;
    // The host must end before anything only known when it runs.
    let whole = pieces.len() == 1
        || first
            .split_once("://")
            .map_or(first.as_str(), |(_, rest)| rest)
            .contains(['/', ':', '?']);
    (whole && !host.is_empty()).then_some(host)
}

/// An address (`http://…`, `https://…`, `ftp://…`) a file function is given.
fn address(value: &Value) -> Option<Value> {
    let Value::Text(pieces) = value else {
        return None;
    };
    let Some(Piece::Lit(first)) = pieces.first() else {
        return None;
    };
    let lower = first.trim_start().to_ascii_lowercase();
    ["http://", "https://", "ftp://", "ftps://"]
        .iter()
        .any(|scheme| lower.starts_with(scheme))
        .then(|| value.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_token_unary_reads_is_one_it_is_given() {
        // `State::operand` gives `unary` only the tokens `starts_unary` names: these are the
        // ones `unary`'s own arms take.
        let ops = ["*", "**", "...", "\\", "&", "@", "%", "!", "-", "+", "~"];
        let names = [
            "new", "await", "return", "yield", "throw", "defined", "do", "eval", "not", "typeof",
            "void", "my", "our", "lambda",
        ];
        for op in ops {
            assert!(starts_unary(Some(&Tok::Op(op))), "{op}");
        }
        for name in names {
            assert!(starts_unary(Some(&Tok::Name(name))), "{name}");
        }
        for other in ["(", "[", "{", "=", "."] {
            assert!(!starts_unary(Some(&Tok::Op(other))), "{other}");
        }
        assert!(!starts_unary(Some(&Tok::Name("os"))));
    }

    #[test]
    fn the_operator_match_is_the_operator_table() {
        let candidates = [
            "!", "%", "&", "*", "+", "-", ".", "/", "<", ">", "?", "^", "|", "=", ":", ",", "~",
            "!=", "!~", "&&", "**", "..", "//", "<<", "<=", "==", "=~", ">=", ">>", "??", "|&",
            "|>", "||", "->", "=>", "::", "+=", "!==", "<=>", "===", "...", "**=",
        ];
        for op in candidates {
            assert_eq!(is_operator(op), OPERATORS.contains(&op), "{op}");
        }
        for op in OPERATORS {
            assert!(is_operator(op), "{op}");
        }
    }
}
