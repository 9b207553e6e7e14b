//! Tcl's names and its reader (tclsh, wish, expect): commands are words, `[…]` substitutes
//! a command, `$name` and `$env(HOME)` a variable, `{…}` is literal (and the body of `if`,
//! `while`, `proc`… is read as a script). `exec` and expect's `spawn` run a process,
//! `open "|cmd"` too; `file delete -force` deletes; `socket` connects, `http::geturl` asks.
//! Tcl's file commands read a leading `~` as the home folder.

use super::lexicon::{
    Access, Arg, Backtick, Build, Delete, Eval, Interp, Lexicon, Net, QuoteLike, Shape, Single,
    Syntax, Verb,
};
use super::read::{Args, State};
use super::{Piece, Value};
use crate::catalogue::Language;

const SYNTAX: Syntax = Syntax {
    hash_comment: true,
    slash_comment: false,
    dash_comment: false,
    long_brackets: false,
    hash_equals_comment: false,
    single: Single::None,
    double: Interp::None,
    backtick: Backtick::None,
    triple: false,
    prefixes: false,
    quote_like: QuoteLike::None,
    sigils: "$",
    dollar_names: false,
    regex: false,
    concat: &[],
    dot_member: false,
    colon_method: false,
    colon_named: false,
    percent_format: false,
    slash_join: false,
    juxtapose: false,
    bare_calls: false,
    arrow_assign: false,
    bang_names: false,
    tilde: true,
    pipe_open: true,
    kept_escapes: false,
};

/// Commands that run a process; their words are joined as a shell line (`exec` reads `|`
/// and `>` as a pipeline and redirects).
#[rustfmt::skip]
const RUNS: &[(&str, Shape)] = &[("exec", Shape::Line), ("spawn", Shape::Line)];

/// Commands that delete the paths they are given.
#[rustfmt::skip]
const DELETES: &[(&str, Delete)] = &[("file.delete", Delete::TreeIf("force"))];

/// Commands that read, write or copy files (`open "|cmd"` runs one).
#[rustfmt::skip]
const FILES: &[(&str, Access)] = &[
    ("file.copy", Access::Copy(Arg::At(0), Arg::At(1))), ("file.rename", Access::Copy(Arg::At(0), Arg::At(1))),
    ("open", Access::Open(Arg::At(0), Arg::At(1))),
];

/// Commands that reach the network.
#[rustfmt::skip]
const NET: &[(&str, Net)] = &[
    ("http.geturl", Net::Request(Verb::ByName)), ("socket", Net::Connect), ("socket.server", Net::Listen),
];

/// The home folder.
#[rustfmt::skip]
const HOME: &[&str] = &["env.home"];

/// Commands that build a text from their arguments.
#[rustfmt::skip]
const BUILDS: &[(&str, Build)] = &[
    ("concat", Build::Concat), ("file.join", Build::PathJoin), ("file.nativename", Build::Same(Arg::At(0))),
    ("file.normalize", Build::Expand), ("format", Build::Format), ("glob", Build::Same(Arg::At(0))),
    ("join", Build::JoinList { sep: 1, list: 0 }), ("list", Build::List), ("read", Build::Same(Arg::At(0))),
    ("string.trim", Build::Same(Arg::At(0))),
];

/// Commands that run code.
#[rustfmt::skip]
const EVALS: &[(&str, Eval)] = &[
    ("eval", Eval::Code), ("source", Eval::File), ("uplevel", Eval::Code),
];

/// Commands whose braced words are scripts.
#[rustfmt::skip]
const SCRIPTS: &[&str] = &[
    "after", "catch", "else", "elseif", "expect", "for", "foreach", "if", "interact", "lmap", "namespace", "proc",
    "switch", "time", "try", "while",
];

/// Commands with a subcommand (`file delete`, `string map`).
#[rustfmt::skip]
const ENSEMBLES: &[&str] = &[
    "array", "chan", "dict", "file", "info", "namespace", "string",
];

/// Options that take the next word as their value.
#[rustfmt::skip]
const VALUED: &[&str] = &[
    "-binary", "-channel", "-headers", "-method", "-query", "-server", "-timeout", "-type",
];

pub(super) const LEXICON: Lexicon = Lexicon {
    language: Language::Tcl,
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
    itself: (&["info.nameofexecutable"], "tclsh"),
    stdin: &["stdin"],
    send_marks: &[],
};

/// How deep scripts nest inside scripts before the reader stops.
const MAX_SCRIPT_DEPTH: usize = 8;

/// One word of a command, and its text when it was braced (a script, perhaps).
struct Word {
    value: Value,
    braced: Option<String>,
}

/// Reads a Tcl script.
pub(super) fn read(state: &mut State, code: &str) {
    script(state, code, 0);
}

fn script(state: &mut State, code: &str, depth: usize) -> Value {
    if depth > MAX_SCRIPT_DEPTH {
        state.unknown("its scripts nest too deep to read");
        return Value::Other;
    }
    let b = code.as_bytes();
    let mut i = 0;
    let mut last = Value::Other;
    while i < b.len() {
        while b
            .get(i)
            .is_some_and(|c| c.is_ascii_whitespace() || *c == b';')
        {
            i += 1;
        }
        if b.get(i) == Some(&b'#') {
            while b.get(i).is_some_and(|c| *c != b'\n') {
                i += 1;
            }
            continue;
        }
        let (words, next) = command_words(state, code, i, depth, None);
        if next <= i {
            break;
        }
        i = next;
        if !words.is_empty() {
            last = command(state, words, depth);
        }
    }
    last
}

/// The words of one command from `i`, up to a line break or `;` (or `close` inside `[…]`).
fn command_words(
    state: &mut State,
    code: &str,
    mut i: usize,
    depth: usize,
    close: Option<u8>,
) -> (Vec<Word>, usize) {
    let b = code.as_bytes();
    let mut words = Vec::new();
    loop {
        while b
            .get(i)
            .is_some_and(|c| *c == b' ' || *c == b'\t' || *c == b'\r')
        {
            i += 1;
        }
        if b.get(i..i + 2) == Some(b"\\\n") {
            i += 2;
            continue;
        }
        match b.get(i) {
            None => return (words, i),
            Some(b'\n' | b';') if close.is_none() => return (words, i + 1),
            Some(b'\n' | b';') => {
                i += 1;
                continue;
            }
            Some(c) if Some(*c) == close => return (words, i + 1),
            _ => {}
        }
        let (word, next) = word(state, code, i, depth, close);
        if next <= i {
            return (words, i + 1);
        }
        if words.len() < 64 {
            words.push(word);
        }
        i = next;
    }
}

fn word(state: &mut State, code: &str, i: usize, depth: usize, close: Option<u8>) -> (Word, usize) {
    let b = code.as_bytes();
    let mut i = i;
    if b.get(i..i + 3) == Some(b"{*}") {
        i += 3;
    }
    match b.get(i) {
        Some(b'{') => {
            let end = braces(b, i);
            let text = code
                .get(i + 1..end.saturating_sub(1))
                .unwrap_or("")
                .to_string();
            let value = Value::text(vec![Piece::Lit(text.clone())]);
            (
                Word {
                    value,
                    braced: Some(text),
                },
                end,
            )
        }
        Some(b'"') => {
            let (pieces, end) = substituted(state, code, i + 1, depth, Some(b'"'));
            (
                Word {
                    value: Value::text(pieces),
                    braced: None,
                },
                end,
            )
        }
        _ => {
            // A word that is one substitution, `[cmd …]` or `$name`, is its value (a file's
            // data, a socket) rather than text.
            let ends = |at: usize| {
                b.get(at)
                    .is_none_or(|c| c.is_ascii_whitespace() || *c == b';' || Some(*c) == close)
            };
            if b.get(i) == Some(&b'[') {
                let close_at = brackets(b, i);
                if ends(close_at) {
                    let (words, next) = command_words(state, code, i + 1, depth, Some(b']'));
                    let value = if words.is_empty() {
                        Value::Other
                    } else {
                        command(state, words, depth)
                    };
                    return (
                        Word {
                            value,
                            braced: None,
                        },
                        next.max(close_at),
                    );
                }
            }
            if b.get(i) == Some(&b'$') {
                let (value, next) = variable(state, code, i + 1, depth);
                if next > i + 1 && ends(next) {
                    let value = match value {
                        Value::Object(path) => {
                            Value::text(vec![Piece::Unknown(super::read::placeholder(&path))])
                        }
                        other => other,
                    };
                    return (
                        Word {
                            value,
                            braced: None,
                        },
                        next,
                    );
                }
            }
            let (pieces, end) = substituted(state, code, i, depth, close);
            (
                Word {
                    value: Value::text(pieces),
                    braced: None,
                },
                end,
            )
        }
    }
}

/// The index past the `]` matching the `[` at `open` (braces and quotes inside skipped).
fn brackets(b: &[u8], open: usize) -> usize {
    let mut level = 0usize;
    let mut at = open;
    while let Some(&c) = b.get(at) {
        match c {
            b'\\' => at += 1,
            b'{' => {
                at = braces(b, at);
                continue;
            }
            b'[' => level += 1,
            b']' => {
                level = level.saturating_sub(1);
                if level == 0 {
                    return at + 1;
                }
            }
            _ => {}
        }
        at += 1;
    }
    at
}

/// The index past the `}` matching the `{` at `open`.
fn braces(b: &[u8], open: usize) -> usize {
    let mut level = 0usize;
    let mut at = open;
    while let Some(&c) = b.get(at) {
        match c {
            b'\\' => at += 1,
            b'{' => level += 1,
            b'}' => {
                level = level.saturating_sub(1);
                if level == 0 {
                    return at + 1;
                }
            }
            _ => {}
        }
        at += 1;
    }
    at
}

/// A word with `$var`, `[cmd]` and backslashes substituted; it ends at `quote` (a `"`), or,
/// bare, at white space, `;`, a line break or `close`.
fn substituted(
    state: &mut State,
    code: &str,
    mut i: usize,
    depth: usize,
    quote: Option<u8>,
) -> (Vec<Piece>, usize) {
    let b = code.as_bytes();
    let bare = quote != Some(b'"');
    let mut pieces: Vec<Piece> = Vec::new();
    let mut text = String::new();
    let flush = |pieces: &mut Vec<Piece>, text: &mut String| {
        if !text.is_empty() {
            pieces.push(Piece::Lit(std::mem::take(text)));
        }
    };
    while let Some(&c) = b.get(i) {
        if !bare && c == b'"' {
            i += 1;
            break;
        }
        if bare && (c.is_ascii_whitespace() || c == b';' || Some(c) == quote) {
            break;
        }
        match c {
            b'\\' => {
                match b.get(i + 1) {
                    Some(b'n') => text.push('\n'),
                    Some(b't') => text.push('\t'),
                    Some(&other) if other.is_ascii() => text.push(other as char),
                    _ => {}
                }
                i += 2;
            }
            b'[' => {
                flush(&mut pieces, &mut text);
                let (words, next) = command_words(state, code, i + 1, depth, Some(b']'));
                let value = if words.is_empty() {
                    Value::Other
                } else {
                    command(state, words, depth)
                };
                pieces.extend(super_pieces(value));
                i = next.max(i + 1);
            }
            b'$' => {
                let (value, next) = variable(state, code, i + 1, depth);
                if next == i + 1 {
                    text.push('$');
                    i += 1;
                } else {
                    flush(&mut pieces, &mut text);
                    pieces.extend(super_pieces(value));
                    i = next;
                }
            }
            _ => {
                let rest = code.get(i..).unwrap_or("");
                match rest.chars().next() {
                    Some(ch) => {
                        text.push(ch);
                        i += ch.len_utf8();
                    }
                    None => i += 1,
                }
            }
        }
    }
    flush(&mut pieces, &mut text);
    (pieces, i)
}

fn super_pieces(value: Value) -> Vec<Piece> {
    match value {
        Value::Text(pieces) => std::rc::Rc::unwrap_or_clone(pieces),
        Value::Object(path) => vec![Piece::Unknown(super::read::placeholder(&path))],
        Value::Fetched(_) => vec![Piece::Unknown("download".to_string())],
        Value::Data(_) => vec![Piece::Unknown("data".to_string())],
        _ => vec![Piece::Unknown("value".to_string())],
    }
}

/// `$name`, `${name}`, `$name(index)`, `$::env(HOME)` from `i` (after the `$`).
fn variable(state: &mut State, code: &str, mut i: usize, depth: usize) -> (Value, usize) {
    let b = code.as_bytes();
    let start = i;
    if b.get(i) == Some(&b'{') {
        let end = braces(b, i);
        let name = code.get(i + 1..end.saturating_sub(1)).unwrap_or("");
        return (lookup(state, name), end);
    }
    while b
        .get(i)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b':')
    {
        i += 1;
    }
    if i == start {
        return (Value::Other, start);
    }
    let name = code.get(start..i).unwrap_or("").trim_start_matches(':');
    if b.get(i) == Some(&b'(') {
        let mut end = i + 1;
        while b.get(end).is_some_and(|c| *c != b')') {
            end += 1;
        }
        let (key, _) = substituted(
            state,
            code.get(..end).unwrap_or(""),
            i + 1,
            depth,
            Some(b')'),
        );
        let array = Value::object(&name.to_ascii_lowercase());
        let value = match super::read::literal(&Value::text(key)) {
            Some(key) => state.member(array, &key),
            None => Value::object(&format!("{name}()")),
        };
        return (value, end + 1);
    }
    (lookup(state, name), i)
}

fn lookup(state: &State, name: &str) -> Value {
    state
        .binding(name)
        .unwrap_or_else(|| Value::object(&name.to_ascii_lowercase()))
}

/// What one command does and gives.
fn command(state: &mut State, words: Vec<Word>, depth: usize) -> Value {
    let Some(first) = words.first().and_then(|w| super::read::literal(&w.value)) else {
        return Value::Other;
    };
    let name = first.trim_start_matches("::").to_ascii_lowercase();
    if SCRIPTS.contains(&name.as_str()) {
        let mut last = Value::Other;
        for word in words.iter().skip(1) {
            if let Some(body) = &word.braced {
                last = script(state, body, depth + 1);
            }
        }
        return last;
    }
    let mut rest: Vec<Word> = words.into_iter().skip(1).collect();
    let path = if name == "set" {
        let Some(target) = rest.first().and_then(|w| super::read::literal(&w.value)) else {
            return Value::Other;
        };
        return match rest.get(1) {
            Some(word) => {
                state.bind(&target, word.value.clone());
                word.value.clone()
            }
            None => lookup(state, &target),
        };
    } else if ENSEMBLES.contains(&name.as_str()) && !rest.is_empty() {
        let first = rest.remove(0);
        let sub = super::read::literal(&first.value).unwrap_or_default();
        format!("{name}.{}", sub.to_ascii_lowercase())
    } else if name == "socket" && rest.first().is_some_and(|w| is_literal(w, "-server")) {
        "socket.server".to_string()
    } else {
        name.replace("::", ".")
    };
    if matches!(path.as_str(), "exec" | "spawn") {
        // The words as the line they spell: each word quoted, but exec's own `|`, `<`, `>`
        // and `&` are a shell's pipes and redirects.
        let mut line: Vec<Piece> = Vec::new();
        for (n, word) in rest.iter().enumerate() {
            if n > 0 {
                line.push(Piece::Lit(" ".to_string()));
            }
            let text = super::read::literal(&word.value);
            match (text.as_deref(), &word.value) {
                (Some(op), _) if is_exec_operator(op) => line.push(Piece::Lit(op.to_string())),
                (Some(_), value) => line.push(Piece::Lit(super::word_of(value, false, false).0)),
                // What is only known when it runs stays so: `exec $c`.
                (None, Value::Text(pieces)) => line.extend(pieces.iter().cloned()),
                (None, other) => line.push(Piece::Unknown(super::read::placeholder(
                    &super::line_of(other).0,
                ))),
            }
        }
        state.run_value(&Value::text(line));
        return Value::path(path);
    }
    let mut args = Args::default();
    let mut options = true;
    let mut index = 0;
    while let Some(word) = rest.get(index) {
        index += 1;
        let text = super::read::literal(&word.value);
        match text.as_deref() {
            Some("--") if options => options = false,
            Some(flag) if options && flag.starts_with('-') && flag.len() > 1 => {
                let key = flag.trim_start_matches('-').to_ascii_lowercase();
                if VALUED.contains(&flag) {
                    let value = rest.get(index).map_or(Value::Other, |w| w.value.clone());
                    index += 1;
                    args.named.push((key, value));
                } else {
                    args.named.push((key, Value::Bool(true)));
                }
            }
            _ => {
                if path != "http.geturl" {
                    options = false;
                }
                args.positional.push(word.value.clone());
            }
        }
    }
    // `gets stdin line`, `read stdin`: the standard input channel.
    if args
        .positional
        .iter()
        .any(|v| super::read::literal(v).is_some_and(|t| t == "stdin"))
    {
        state.reading.stdin = true;
    }
    match super::lexicon::exact(EVALS, &path) {
        Some(Eval::Code) => {
            // `eval $a $b`: the words joined are the script.
            let code = args
                .positional
                .iter()
                .cloned()
                .reduce(|a, b| {
                    super::read::concat(
                        super::read::concat(a, Value::text(vec![Piece::Lit(" ".to_string())])),
                        b,
                    )
                })
                .unwrap_or(Value::Other);
            let (text, _) = super::line_of(&code);
            return script(state, &text, depth + 1);
        }
        Some(Eval::File | Eval::Body) | None => {}
    }
    state.call(&path, &args)
}

fn is_literal(word: &Word, text: &str) -> bool {
    super::read::literal(&word.value).is_some_and(|t| t == text)
}

/// exec's own pipes and redirects (`|`, `|&`, `<`, `>`, `>>`, `2>`, `2>&1`, `&`…).
fn is_exec_operator(word: &str) -> bool {
    !word.is_empty()
        && word.len() <= 4
        && word
            .chars()
            .all(|c| matches!(c, '|' | '&' | '<' | '>' | '@' | '2' | '1'))
        && word.chars().any(|c| matches!(c, '|' | '&' | '<' | '>'))
}
