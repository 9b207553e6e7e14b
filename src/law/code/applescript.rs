//! AppleScript's names and its reader (`osascript -e`): `do shell script EXPR` runs a shell
//! line (as the administrator `with administrator privileges`), Terminal's `do script` too;
//! an expression is texts joined by `&`, `quoted form of …`, `POSIX path of …`, the home
//! folder (`path to home folder`, `system attribute "HOME"`) and names bound by
//! `set NAME to …`. JavaScript for Automation (`osascript -l JavaScript`) is read as
//! JavaScript.

use super::lexicon::{Backtick, Interp, Lexicon, QuoteLike, Shape, Single, Syntax};
use super::read::State;
use super::{Piece, Value};
use crate::catalogue::Language;

const SYNTAX: Syntax = Syntax {
    hash_comment: true,
    slash_comment: false,
    dash_comment: true,
    long_brackets: false,
    hash_equals_comment: false,
    single: Single::None,
    double: Interp::None,
    backtick: Backtick::None,
    triple: false,
    prefixes: false,
    quote_like: QuoteLike::None,
    sigils: "",
    dollar_names: false,
    regex: false,
    concat: &["&"],
    dot_member: false,
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

/// Phrases that run a shell line, word by word.
#[rustfmt::skip]
const RUNS: &[(&str, Shape)] = &[
    ("do script", Shape::Line), ("do shell script", Shape::Line),
];

/// Phrases for the home folder (`"home"` is the text after `system attribute`).
#[rustfmt::skip]
const HOME: &[&str] = &["path to home folder", "system attribute home"];

pub(super) const LEXICON: Lexicon = Lexicon {
    language: Language::AppleScript,
    syntax: SYNTAX,
    runs: RUNS,
    deletes: &[],
    files: &[],
    net: &[],
    home: HOME,
    builds: &[],
    evals: &[],
    wires: &[],
    methods: &[],
    itself: (&[], "osascript"),
    stdin: &[],
    send_marks: &[],
};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Word(String),
    Str(String),
    Amp,
    Open,
    Close,
    Newline,
    Other,
}

fn tokens(code: &str) -> Vec<Tok> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'\n' | b'\r' => {
                out.push(Tok::Newline);
                i += 1;
            }
            b'-' if b.get(i + 1) == Some(&b'-') => {
                while b.get(i).is_some_and(|c| *c != b'\n') {
                    i += 1;
                }
            }
            b'#' => {
                while b.get(i).is_some_and(|c| *c != b'\n') {
                    i += 1;
                }
            }
            b'(' if b.get(i + 1) == Some(&b'*') => {
                let rest = code.get(i + 2..).unwrap_or("");
                i = rest.find("*)").map_or(b.len(), |at| i + 2 + at + 2);
            }
            b'"' => {
                let mut text = String::new();
                i += 1;
                while let Some(&c) = b.get(i) {
                    match c {
                        b'"' => break,
                        b'\\' => {
                            match b.get(i + 1) {
                                Some(b'n') => text.push('\n'),
                                Some(b't') => text.push('\t'),
                                Some(&other) if other.is_ascii() => text.push(other as char),
                                _ => {}
                            }
                            i += 2;
                            continue;
                        }
                        _ => {
                            let rest = code.get(i..).unwrap_or("");
                            if let Some(ch) = rest.chars().next() {
                                text.push(ch);
                                i += ch.len_utf8();
                                continue;
                            }
                        }
                    }
                    i += 1;
                }
                i += 1;
                out.push(Tok::Str(text));
            }
            b'&' => {
                out.push(Tok::Amp);
                i += 1;
            }
            b'(' => {
                out.push(Tok::Open);
                i += 1;
            }
            b')' => {
                out.push(Tok::Close);
                i += 1;
            }
            // `¬` continues a line.
            0xc2 if b.get(i + 1) == Some(&0xac) => {
                i += 2;
                while b.get(i).is_some_and(|c| *c == b' ' || *c == b'\t') {
                    i += 1;
                }
                if matches!(b.get(i), Some(b'\n' | b'\r')) {
                    i += 1;
                }
            }
            c if c.is_ascii_alphanumeric() || c == b'_' || c == b'|' => {
                let start = i;
                while b
                    .get(i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'|')
                {
                    i += 1;
                }
                let word = code.get(start..i).unwrap_or("").trim_matches('|');
                out.push(Tok::Word(word.to_ascii_lowercase()));
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                out.push(Tok::Other);
                i += 1;
            }
        }
    }
    out
}

/// Does the phrase (words, the last may be a text) start at `i`? Where it ends.
fn phrase(toks: &[Tok], i: usize, phrase: &str) -> Option<usize> {
    let mut at = i;
    for word in phrase.split(' ') {
        match toks.get(at)? {
            Tok::Word(w) if w == word => {}
            Tok::Str(s) if s.eq_ignore_ascii_case(word) => {}
            _ => return None,
        }
        at += 1;
    }
    Some(at)
}

/// Reads AppleScript.
pub(super) fn read(state: &mut State, code: &str) {
    let toks = tokens(code);
    let mut i = 0;
    while i < toks.len() {
        if let Some(at) = phrase(&toks, i, "set")
            && let Some(Tok::Word(name)) = toks.get(at)
            && phrase(&toks, at + 1, "to").is_some()
        {
            let name = name.clone();
            let (value, next) = expr(state, &toks, at + 2);
            state.bind(&name, value);
            i = next.max(at + 2);
            continue;
        }
        if let Some(next) = finder(state, &toks, i) {
            i = next;
            continue;
        }
        let runs = RUNS
            .iter()
            .rev()
            .find_map(|(words, _)| phrase(&toks, i, words));
        if let Some(at) = runs {
            let (value, next) = expr(state, &toks, at);
            let admin = phrase(&toks, next, "with administrator privileges").is_some();
            let value = if admin {
                super::read::concat(Value::text(vec![Piece::Lit("sudo ".to_string())]), value)
            } else {
                value
            };
            state.run_value(&value);
            i = next.max(at);
            continue;
        }
        i += 1;
    }
}

/// Finder's deletes at `i`, where they end: `delete ITEM` moves it to the Trash, `move ITEM
/// to (the) trash` too, and `empty (the) trash` deletes what the Trash holds for good. An
/// item is a Finder reference (`folder "Documents" of home`, `every item of home`, `file "x"
/// of desktop`, `startup disk`) or any expression (`POSIX file "/x"`). The whole home folder
/// moved to the Trash is as gone as deleted to the person: read as a delete.
fn finder(state: &mut State, toks: &[Tok], i: usize) -> Option<usize> {
    if let Some(at) = phrase(toks, i, "empty the trash").or_else(|| phrase(toks, i, "empty trash"))
    {
        let trash = Value::text(vec![Piece::Home, Piece::Lit("/.Trash/*".to_string())]);
        state.delete_value(&trash, true);
        return Some(at);
    }
    let (at, to_trash) = match phrase(toks, i, "delete") {
        Some(at) => (at, false),
        None => (phrase(toks, i, "move")?, true),
    };
    let (path, tree, next) = reference(state, toks, at)?;
    let next = if to_trash {
        phrase(toks, next, "to the trash").or_else(|| phrase(toks, next, "to trash"))?
    } else {
        next
    };
    state.delete_value(&path, tree);
    Some(next)
}

/// A Finder reference at `i`: its path, whether it is a folder or everything in one, and where
/// it ends. `every item of X`, `items of X`, `entire contents of X`: everything in X.
fn reference(state: &mut State, toks: &[Tok], i: usize) -> Option<(Value, bool, usize)> {
    const EVERY: &[&str] = &[
        "every item of",
        "every file of",
        "every folder of",
        "items of",
        "files of",
        "folders of",
        "entire contents of",
        "contents of",
    ];
    if let Some(at) = EVERY.iter().find_map(|every| phrase(toks, i, every)) {
        let (folder, _, next) = reference(state, toks, at)?;
        let all = super::read::concat(folder, Value::text(vec![Piece::Lit("/*".to_string())]));
        return Some((all, true, next));
    }
    let kind = match toks.get(i) {
        Some(Tok::Word(word)) => word.as_str(),
        _ => "",
    };
    match kind {
        "folder" | "file" | "item" | "disk" | "alias" => {
            let Some(Tok::Str(name)) = toks.get(i + 1) else {
                let (value, next) = expr(state, toks, i + 1);
                return (next > i + 1).then_some((value, kind != "file", next));
            };
            let name = name.clone();
            let tree = kind != "file";
            let Some(at) = phrase(toks, i + 2, "of") else {
                // A name with no container: a path of its own (`folder "Macintosh HD:x"`).
                let path = name.replace(':', "/");
                return Some((Value::text(vec![Piece::Lit(path)]), tree, i + 2));
            };
            let (folder, _, next) = reference(state, toks, at)?;
            let path =
                super::read::concat(folder, Value::text(vec![Piece::Lit(format!("/{name}"))]));
            Some((path, tree, next))
        }
        "home" => Some((Value::text(vec![Piece::Home]), true, i + 1)),
        "desktop" => Some((
            Value::text(vec![Piece::Home, Piece::Lit("/Desktop".to_string())]),
            true,
            i + 1,
        )),
        "startup" if phrase(toks, i, "startup disk").is_some() => {
            Some((Value::text(vec![Piece::Lit("/".to_string())]), true, i + 2))
        }
        // Any other expression names a path when it is a text, a bound name or a path's
        // phrase (`POSIX file "/x"`, `path to home folder`); an unknown word is something
        // else's (`delete login item "x"` of System Events).
        _ => {
            if let Some(Tok::Word(word)) = toks.get(i)
                && state.binding(word).is_none()
                && !matches!(word.as_str(), "posix" | "path" | "system")
            {
                return None;
            }
            let (value, next) = expr(state, toks, i);
            (next > i).then_some((value, true, next))
        }
    }
}

/// Terms joined by `&`.
fn expr(state: &mut State, toks: &[Tok], i: usize) -> (Value, usize) {
    let (mut value, mut at) = term(state, toks, i);
    while matches!(toks.get(at), Some(Tok::Amp)) {
        let (right, next) = term(state, toks, at + 1);
        if next == at + 1 {
            break;
        }
        value = super::read::concat(value, right);
        at = next;
    }
    (value, at)
}

fn term(state: &mut State, toks: &[Tok], i: usize) -> (Value, usize) {
    for home in HOME {
        if let Some(at) = phrase(toks, i, home) {
            return (Value::text(vec![Piece::Home]), at);
        }
    }
    if let Some(at) = phrase(toks, i, "quoted form of") {
        let (value, next) = term(state, toks, at);
        return (quoted(value), next);
    }
    if let Some(at) = phrase(toks, i, "posix path of")
        .or_else(|| phrase(toks, i, "posix file"))
        .or_else(|| phrase(toks, i, "text returned of"))
    {
        if phrase(toks, i, "text returned of").is_some() {
            let (_, next) = term(state, toks, at);
            return (Value::object("answer"), next);
        }
        return term(state, toks, at);
    }
    match toks.get(i) {
        Some(Tok::Str(text)) => (Value::text(vec![Piece::Lit(text.clone())]), i + 1),
        Some(Tok::Open) => {
            let (value, at) = expr(state, toks, i + 1);
            let at = if matches!(toks.get(at), Some(Tok::Close)) {
                at + 1
            } else {
                at
            };
            (value, at)
        }
        Some(Tok::Word(name))
            if !matches!(
                name.as_str(),
                "with" | "given" | "user" | "password" | "altering" | "end" | "then" | "to"
            ) =>
        {
            let value = state.binding(name).unwrap_or_else(|| Value::object(name));
            (value, i + 1)
        }
        _ => (Value::Other, i),
    }
}

/// `quoted form of`: the text in single quotes for the shell.
fn quoted(value: Value) -> Value {
    let Value::Text(pieces) = value else {
        return value;
    };
    let mut out = vec![Piece::Lit("'".to_string())];
    for piece in pieces.iter() {
        match piece {
            Piece::Lit(text) => out.push(Piece::Lit(text.replace('\'', "'\\''"))),
            other => out.push(other.clone()),
        }
    }
    out.push(Piece::Lit("'".to_string()));
    Value::text(out)
}
