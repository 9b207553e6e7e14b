//! awk's names: `system()`, `"cmd" | getline`, `print | "cmd"`, `print > "file"`,
//! `getline < "file"`, gawk's `/inet/tcp/…` connections, `ENVIRON["HOME"]`. Two values
//! written side by side are joined (`"rm -rf " ENVIRON["HOME"]`).

use super::lexicon::{Backtick, Build, Interp, Lexicon, QuoteLike, Shape, Single, Syntax};
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
    sigils: "",
    dollar_names: false,
    regex: true,
    concat: &[],
    dot_member: false,
    colon_method: false,
    colon_named: false,
    percent_format: false,
    slash_join: false,
    juxtapose: true,
    bare_calls: false,
    arrow_assign: false,
    bang_names: false,
    tilde: false,
    pipe_open: false,
    kept_escapes: false,
};

/// Calls that run a process (pipes to and from commands are read as operators).
#[rustfmt::skip]
const RUNS: &[(&str, Shape)] = &[("system", Shape::Line)];

/// The home folder.
#[rustfmt::skip]
const HOME: &[&str] = &["environ.home"];

/// Calls that build a text from their arguments.
#[rustfmt::skip]
const BUILDS: &[(&str, Build)] = &[("sprintf", Build::Format)];

pub(super) const LEXICON: Lexicon = Lexicon {
    language: Language::Awk,
    syntax: SYNTAX,
    runs: RUNS,
    deletes: &[],
    files: &[],
    net: &[],
    home: HOME,
    builds: BUILDS,
    evals: &[],
    wires: &[],
    methods: &[],
    itself: (&[], "awk"),
    stdin: &[],
    send_marks: &[],
};
