//! What a PowerShell script means, as POSIX command lines the command law already judges
//! (`Remove-Item -Recurse -Force ~` → `rm -r -f ~`, `iwr URL | iex` → `curl URL | sh`,
//! `iex (New-Object Net.WebClient).DownloadString(URL)` → `eval "$(curl URL)"`), and the
//! risks that have no POSIX word (the execution policy, Defender, a Run key…), built here.
//!
//! Every value is read for what runs inside it: a group, a subexpression in a string, a
//! script block, a hashtable's values, an argument no rule looks at. A value only known when
//! it runs is written as a POSIX variable (`"$x"`), so the command law sees it as dynamic.

use super::cmdlets::{self, Arg, Does};
use super::decode;
use super::lex::{self, Group, Part, Redirect, Script, Tok, Token, Word};
use crate::law::rule::RuleId;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};
use std::collections::BTreeMap;

mod does;
mod value;

pub(super) use value::posix_folder;
use value::{Kind, Piece, Value, posix_path, program_word, quote, split_command_line, type_name};

/// How deep text read out of text (`Invoke-Expression '…'`, a decoded blob) is read.
pub(super) const TEXT_DEPTH: usize = 8;

/// How many times a variable's value may be read into another's.
const SUBSTITUTION_DEPTH: usize = 4;

/// What a script means.
#[derive(Debug, Default)]
pub(super) struct Meaning {
    /// POSIX lines, one command line each, for the command law.
    pub posix: String,
    /// Risks built here, with no POSIX word.
    pub risks: Vec<Risk>,
    /// Why part of the text could not be read, if so.
    pub unknown: Option<String>,
    /// A variable is assigned once: a second reading with its value in place says more.
    pub substitutes: bool,
}

/// Reads `text`; with `substitute`, a variable assigned once (`$u = 'https://…'`) reads as
/// its value, as well as the plain reading (which reads it as only known when it runs).
pub(super) fn meaning(text: &str, substitute: bool, declared: Option<&[String]>) -> Meaning {
    let (script, unknown) = lex::read(text);
    let mut known = Known::default();
    learn(&script, &mut known);
    let substitutes = known
        .vars
        .values()
        .any(|rhs| matches!(rhs.as_slice(), [Some(_)]));
    let mut reading = Reading {
        substitute,
        known,
        declared: declared.map(<[String]>::to_vec),
        risks: Vec::new(),
        unknown,
        socket: false,
        runs_text: false,
        assigning: false,
        depth: 0,
        budget: text.len().saturating_mul(8).saturating_add(1 << 16),
        pending: Vec::new(),
        input: None,
        location: None,
        resolving: 0,
        logon_trigger: false,
    };
    let lines = reading.lines(&script);
    if reading.socket && reading.runs_text {
        reading.risks.push(
            Risk::new(
                RuleId::ShellReverse,
                Harm::Severe,
                true,
                "PowerShell code that runs what a network socket sends, which hands control of this machine to someone else",
            )
            .never()
            .way_out(),
        );
    }
    let mut posix = lines.join("\n");
    if reading.unknown.is_some() {
        // What couldn't be read reaches the command law as a program only known when it
        // runs, holding the text, so its checks for key files and secrets still see it.
        posix.push('\n');
        posix.push_str(&format!("\"$unread\" {}", quote(&text.replace('\\', "/"))));
    }
    Meaning {
        posix,
        risks: reading.risks,
        unknown: reading.unknown,
        substitutes,
    }
}

/// What a first pass learns: each variable's assignments (the right-hand side, or `None` when
/// set some other way) and each alias defined (`None`: to something only known when it runs).
#[derive(Debug, Clone, Default)]
struct Known {
    vars: BTreeMap<String, Vec<Option<Assigned>>>,
    aliases: BTreeMap<String, Option<String>>,
}

/// An assignment's right-hand side, and its [`weight`], weighed once.
type Assigned = (Vec<Tok>, usize);

/// Parameters whose value names a variable the command sets.
#[rustfmt::skip]
const SETS_VARIABLE: &[&str] = &[
    "errorvariable", "ev", "informationvariable", "iv", "outvariable", "ov", "pipelinevariable", "pv",
    "sessionvariable", "sv", "variable", "warningvariable", "wv",
];

const ASSIGNS: &[&str] = &["=", "+=", "-=", "*=", "/=", "%="];

/// Where an assignment's operator is, when the tokens start with one (`$x = …`, `[int]$x = …`).
fn assignment(toks: &[Tok]) -> Option<usize> {
    if !matches!(toks.first()?.token, Token::Var(_) | Token::Type(_)) {
        return None;
    }
    for (i, tok) in toks.iter().enumerate() {
        match &tok.token {
            Token::Op(op) if ASSIGNS.contains(&op.as_str()) => return Some(i),
            Token::Var(_) | Token::Type(_) | Token::Member(_) | Token::Static(_) => {}
            Token::Group(Group::Paren, _) if !tok.spaced => {}
            _ => return None,
        }
    }
    None
}

fn learn(script: &Script, known: &mut Known) {
    for statement in &script.statements {
        for element in &statement.elements {
            learn_element(&element.tokens, known);
        }
    }
}

fn learn_element(toks: &[Tok], known: &mut Known) {
    if let Some(op) = assignment(toks) {
        let plain = toks
            .get(op)
            .is_some_and(|t| t.token == Token::Op("=".to_string()));
        let target = toks
            .iter()
            .take(op)
            .position(|t| matches!(t.token, Token::Var(_)));
        if let Some(at) = target
            && let Some(Token::Var(name)) = toks.get(at).map(|t| &t.token)
        {
            let whole = at + 1 == op;
            let rhs = (plain && whole).then(|| {
                let rhs = toks.get(op + 1..).unwrap_or(&[]);
                (rhs.to_vec(), weight(rhs))
            });
            known.vars.entry(name.to_lowercase()).or_default().push(rhs);
        }
    }
    // `foreach ($x in …)` sets `$x` once for each item.
    if let (Some(Token::Word(word)), Some(Token::Group(Group::Paren, inner))) = (
        toks.first().map(|t| &t.token),
        toks.get(1).map(|t| &t.token),
    ) && word
        .literal()
        .is_some_and(|w| w.eq_ignore_ascii_case("foreach"))
        && let Some(Token::Var(name)) = inner
            .statements
            .first()
            .and_then(|s| s.elements.first())
            .and_then(|e| e.tokens.first())
            .map(|t| &t.token)
    {
        known
            .vars
            .entry(name.to_lowercase())
            .or_default()
            .push(None);
    }
    // `Set-Alias`, `Set-Variable` and their kin.
    if let Some(Token::Word(word)) = toks.first().map(|t| &t.token)
        && !word.quoted
        && let Some(name) = word.literal()
        && let Some((_, _, does @ (Does::Alias | Does::Variable), params)) = cmdlets::cmdlet(&name)
    {
        let args = args_of(toks.get(1..).unwrap_or(&[]));
        let bound = cmdlets::bind(params, &args);
        let at = |param: &str, position: usize| {
            bound.get(param).or(bound.positional.get(position).copied())
        };
        let name = at("name", 0).and_then(|i| literal_arg(args.get(i)?));
        let value = at("value", 1).and_then(|i| args.get(i));
        if let Some(name) = name {
            let name = name.to_lowercase();
            match does {
                Does::Alias => {
                    let target = value.and_then(literal_arg).map(|v| v.to_lowercase());
                    known.aliases.insert(name, target);
                }
                _ => {
                    let rhs = match value {
                        Some(Arg::Value(items)) if items.len() == 1 => items.first().map(|item| {
                            let rhs: Vec<Tok> = item
                                .iter()
                                .map(|t| Tok {
                                    token: (*t).clone(),
                                    spaced: false,
                                })
                                .collect();
                            let cost = weight(&rhs);
                            (rhs, cost)
                        }),
                        _ => None,
                    };
                    known.vars.entry(name).or_default().push(rhs);
                }
            }
        }
    }
    for (i, tok) in toks.iter().enumerate() {
        if let Token::Param { name, .. } = &tok.token
            && SETS_VARIABLE.contains(&name.to_lowercase().as_str())
            && let Some(Token::Word(word)) = toks.get(i + 1).map(|t| &t.token)
            && let Some(var) = word.literal()
        {
            known.vars.entry(var.to_lowercase()).or_default().push(None);
        }
        learn_token(&tok.token, known);
    }
}

fn learn_token(token: &Token, known: &mut Known) {
    match token {
        Token::Group(_, script) => learn(script, known),
        Token::Word(word) => {
            for part in &word.parts {
                if let Part::Sub(script) = part {
                    learn(script, known);
                }
            }
        }
        Token::Redirect(Redirect {
            target: Some(target),
            ..
        }) => learn_token(target, known),
        _ => {}
    }
}

/// One argument's text, when it is one literal item.
fn literal_arg(arg: &Arg<'_>) -> Option<String> {
    match arg {
        Arg::Value(items) => match items.as_slice() {
            [item] => match item.as_slice() {
                [Token::Word(word)] => word.literal(),
                _ => None,
            },
            _ => None,
        },
        Arg::Raw(text) => Some(text.clone()),
        Arg::Param { .. } => None,
    }
}

/// A command's arguments: parameters, values (commas make lists, glued tokens one item) and
/// `--%` text. Redirects are left to the stage.
fn args_of(toks: &[Tok]) -> Vec<Arg<'_>> {
    let mut args: Vec<Arg<'_>> = Vec::new();
    // A comma was the last thing: the next token is the list's next item.
    let mut listing = false;
    let mut after_param = false;
    for tok in toks {
        match &tok.token {
            Token::Redirect(_) => continue,
            Token::Param { name, colon } => {
                args.push(Arg::Param {
                    name: name.clone(),
                    colon: *colon,
                });
                listing = false;
                after_param = true;
                continue;
            }
            Token::Op(op) if op == "," => {
                listing = true;
                if !matches!(args.last(), Some(Arg::Value(_))) {
                    args.push(Arg::Value(Vec::new()));
                }
                continue;
            }
            Token::Raw(text) => {
                args.push(Arg::Raw(text.clone()));
                continue;
            }
            _ => {}
        }
        let glued = !tok.spaced && !after_param;
        match args.last_mut() {
            Some(Arg::Value(items)) if listing => items.push(vec![&tok.token]),
            Some(Arg::Value(items)) if glued => match items.last_mut() {
                Some(item) => item.push(&tok.token),
                None => items.push(vec![&tok.token]),
            },
            _ => args.push(Arg::Value(vec![vec![&tok.token]])),
        }
        listing = false;
        after_param = false;
    }
    args
}

use crate::law::command::windows::is_autostart;

/// One pipeline element as POSIX: the command, and the value it hands on.
struct Stage {
    posix: String,
    value: Value,
}

impl Stage {
    fn nothing() -> Stage {
        Stage {
            posix: "true".to_string(),
            value: Value::default(),
        }
    }
}

/// The state of one reading.
struct Reading {
    substitute: bool,
    known: Known,
    declared: Option<Vec<String>>,
    risks: Vec<Risk>,
    unknown: Option<String>,
    /// A network socket is opened somewhere in the script.
    socket: bool,
    /// Text only known when it runs is run as code somewhere in the script.
    runs_text: bool,
    depth: usize,
    /// Characters left for text read out of text and for values read into variables.
    budget: usize,
    /// Lines for what runs while the current statement is read (a script block's
    /// statements, a method that deletes, a download to a file), written before it.
    pending: Vec<String>,
    /// What `$_` stands for inside a block fed by a pipeline.
    input: Option<Value>,
    /// The folder the last `Set-Location` read moved to, which relative paths are in from
    /// then on; `None`: the work folder.
    location: Option<Value>,
    resolving: usize,
    /// A scheduled task's trigger at sign-in or start was made (`New-ScheduledTaskTrigger
    /// -AtLogOn`): a task registered then runs at every one.
    logon_trigger: bool,
    /// An assignment's right side is being read: its value is kept, not written out.
    assigning: bool,
}

impl Reading {
    fn fail(&mut self, why: &str) {
        if self.unknown.is_none() {
            self.unknown = Some(why.to_string());
        }
    }

    fn risk(&mut self, risk: Risk) {
        self.risks.push(risk);
    }

    /// A script's statements as POSIX lines.
    fn lines(&mut self, script: &Script) -> Vec<String> {
        let outer = std::mem::take(&mut self.pending);
        let mut lines = Vec::new();
        for statement in &script.statements {
            let mut stages = Vec::new();
            let mut previous: Option<Value> = None;
            for (i, element) in statement.elements.iter().enumerate() {
                let stage = self.stage(&element.tokens, previous.as_ref(), i == 0);
                stages.push(stage.posix);
                previous = Some(stage.value);
            }
            lines.append(&mut self.pending);
            if stages.iter().any(|s| s != "true") {
                lines.push(stages.join(" | "));
            }
        }
        self.pending = outer;
        lines
    }

    /// Text found in text, read as PowerShell in its place.
    fn read_text(&mut self, text: &str) {
        let size = text.len();
        if self.depth >= TEXT_DEPTH || size > self.budget {
            self.fail("PowerShell text inside text, too deep or too long to read");
            return;
        }
        self.budget -= size;
        self.depth += 1;
        let (script, unknown) = lex::read(text);
        if let Some(why) = unknown {
            self.fail(&why);
        }
        // What it assigns and aliases holds in the caller's scope too, as in PowerShell.
        learn(&script, &mut self.known);
        let lines = self.lines(&script);
        self.depth -= 1;
        self.pending.extend(lines);
    }

    /// A file a value names, as a POSIX word, relative to where `Set-Location` moved.
    fn path(&self, value: &Value) -> Option<String> {
        match (&self.location, value.pieces.first()) {
            (Some(folder), Some(Piece::Lit(first)))
                if posix_path(first).is_some_and(|p| !p.starts_with('/')) =>
            {
                let mut joined = folder.clone();
                joined.push(Value::lit("/"));
                joined.push(value.clone());
                joined.path()
            }
            _ => value.path(),
        }
    }

    /// What runs inside a value that nothing else writes out.
    fn spend(&mut self, value: &Value) {
        self.pending.extend(value.sources());
    }

    /// One pipeline element.
    fn stage(&mut self, toks: &[Tok], input: Option<&Value>, first: bool) -> Stage {
        let mut stage = self.element(toks, input, first);
        let redirected = toks
            .iter()
            .any(|t| matches!(&t.token, Token::Redirect(r) if r.target.is_some()));
        if redirected && stage.posix == "true" && !stage.value.pieces.is_empty() {
            // `'text' > file`: the value is what is written.
            stage.posix = format!("echo {}", stage.value.word());
        }
        for tok in toks {
            if let Token::Redirect(redirect) = &tok.token
                && let Some(target) = &redirect.target
            {
                let value = self.atom(target);
                let path = match target.as_ref() {
                    Token::Var(name) if name.eq_ignore_ascii_case("null") => {
                        "/dev/null".to_string()
                    }
                    _ => match self.written(&value) {
                        Some(path) => path,
                        None => continue,
                    },
                };
                let op = if redirect.append { ">>" } else { ">" };
                stage.posix = format!("{} {op} {path}", stage.posix);
            }
        }
        stage
    }

    fn element(&mut self, toks: &[Tok], input: Option<&Value>, first: bool) -> Stage {
        let Some(head) = toks.first() else {
            return Stage::nothing();
        };
        if let Some(op) = assignment(toks) {
            for tok in toks.iter().take(op) {
                if let Token::Group(_, script) = &tok.token {
                    let value = self.group(Group::Paren, script);
                    self.spend(&value);
                }
            }
            let outer = std::mem::replace(&mut self.assigning, true);
            let stage = self.element(toks.get(op + 1..).unwrap_or(&[]), input, first);
            self.assigning = outer;
            return stage;
        }
        let rest = toks.get(1..).unwrap_or(&[]);
        match &head.token {
            Token::Word(word) if !word.quoted && !is_number(word) => match word.literal() {
                Some(name) => {
                    let lower = name.to_lowercase();
                    if first && cmdlets::KEYWORDS.contains(&lower.as_str()) {
                        return self.keyword(&lower, toks, input);
                    }
                    self.command(&name, rest, input)
                }
                None => {
                    let program = self.word(word);
                    self.native(program, rest)
                }
            },
            Token::Op(op) if op == "&" || op == "." => {
                let Some(target) = rest.first() else {
                    self.fail("a call operator with nothing to call");
                    return Stage::nothing();
                };
                let args = rest.get(1..).unwrap_or(&[]);
                match &target.token {
                    Token::Word(word) if op == "&" && word.literal().is_some() => {
                        let name = word.literal().unwrap_or_default();
                        self.command(&name, args, input)
                    }
                    Token::Group(Group::Block, script) => {
                        let lines = self.lines(script);
                        self.pending.extend(lines);
                        self.spend_all(args);
                        Stage::nothing()
                    }
                    token if op == "." => {
                        let file = self.atom(token);
                        let file = self.path(&file).unwrap_or_else(|| file.word());
                        self.spend_all(args);
                        Stage {
                            posix: format!(". {file}"),
                            value: Value::default(),
                        }
                    }
                    // `$c = 'Remove-Item'; & $c -Recurse ~`: a value known before running
                    // names the command as the word itself would, cmdlet or alias included.
                    token => {
                        let program = self.atom(token);
                        match program.literal() {
                            Some(name) if op == "&" && !name.trim().is_empty() => {
                                self.command(name.trim(), args, input)
                            }
                            _ => self.native(program, args),
                        }
                    }
                }
            }
            _ => {
                let value = self.expression(toks);
                // A variable alone is written out, as `echo` writes it: `$env:GITHUB_TOKEN`
                // prints the token where the chat reads it.
                let posix = match value.pieces.as_slice() {
                    [Piece::Var(_)]
                        if !self.assigning && toks.len() == 1 && value.sources().is_empty() =>
                    {
                        format!("echo {}", value.word())
                    }
                    _ => show(&value),
                };
                Stage { posix, value }
            }
        }
    }

    /// A statement that starts with a keyword: what its groups hold runs.
    fn keyword(&mut self, keyword: &str, toks: &[Tok], input: Option<&Value>) -> Stage {
        if matches!(keyword, "return" | "throw" | "exit") {
            return self.element(toks.get(1..).unwrap_or(&[]), input, true);
        }
        for tok in toks {
            match &tok.token {
                Token::Group(Group::Hash, script) => self.hash(script),
                Token::Group(_, script) => {
                    let lines = self.lines(script);
                    self.pending.extend(lines);
                }
                _ => {}
            }
        }
        Stage::nothing()
    }

    fn hash(&mut self, script: &Script) {
        for statement in &script.statements {
            for element in &statement.elements {
                let toks = &element.tokens;
                let at = toks
                    .iter()
                    .position(|t| t.token == Token::Op("=".to_string()))
                    .map_or(0, |at| at + 1);
                let value = self.expression(toks.get(at..).unwrap_or(&[]));
                self.spend(&value);
            }
        }
    }

    /// A hashtable given whole as an argument (`@{Authorization = "token $t"; Accept =
    /// 'x'}`): each entry's name, as written, and its value. `None` for any other argument.
    pub(super) fn hash_entries(&mut self, arg: &Arg<'_>) -> Option<Vec<(String, Value)>> {
        let Arg::Value(items) = arg else {
            return None;
        };
        let [item] = items.as_slice() else {
            return None;
        };
        let [Token::Group(Group::Hash, script)] = item.as_slice() else {
            return None;
        };
        let mut out = Vec::new();
        for statement in &script.statements {
            for element in &statement.elements {
                let toks = &element.tokens;
                let Some(at) = toks
                    .iter()
                    .position(|t| t.token == Token::Op("=".to_string()))
                else {
                    // `Authorization="token $t"` with no space around `=` is one word.
                    if let Some(entry) = self.expression(toks).split_name() {
                        out.push(entry);
                    }
                    continue;
                };
                let name = toks
                    .get(..at)
                    .unwrap_or(&[])
                    .iter()
                    .filter_map(|t| self.atom(&t.token).literal())
                    .collect::<String>();
                let value = self.expression(toks.get(at + 1..).unwrap_or(&[]));
                out.push((name.trim().to_string(), value));
            }
        }
        Some(out)
    }

    fn spend_all(&mut self, toks: &[Tok]) {
        let args = args_of(toks);
        for arg in &args {
            for value in self.values(arg) {
                self.spend(&value);
            }
        }
    }

    /// An expression: operands joined by operators. Only `+` and `,` keep literal text
    /// literal; any other operator makes a value only known when it runs.
    fn expression(&mut self, toks: &[Tok]) -> Value {
        let mut value = Value::default();
        let mut operands = 0;
        let mut plain = true;
        let mut i = 0;
        while let Some(tok) = toks.get(i) {
            match &tok.token {
                Token::Redirect(_) => i += 1,
                Token::Op(op) => {
                    plain &= op == "+" || op == ",";
                    i += 1;
                }
                Token::Param { .. } => {
                    plain = false;
                    i += 1;
                }
                _ => {
                    let mut end = i + 1;
                    while toks.get(end).is_some_and(|t| {
                        !t.spaced
                            && !matches!(
                                t.token,
                                Token::Op(_) | Token::Redirect(_) | Token::Param { .. }
                            )
                    }) {
                        end += 1;
                    }
                    let item: Vec<&Token> = toks
                        .get(i..end)
                        .unwrap_or(&[])
                        .iter()
                        .map(|t| &t.token)
                        .collect();
                    let operand = self.item(&item);
                    if operands == 0 {
                        value = operand;
                    } else {
                        value.kind = Kind::Plain;
                        value.push(operand);
                    }
                    operands += 1;
                    i = end;
                }
            }
        }
        if !plain {
            value = value.derived();
        }
        value
    }

    /// Tokens glued into one value: an atom, then members, static members and calls.
    fn item(&mut self, toks: &[&Token]) -> Value {
        let Some(first) = toks.first() else {
            return Value::default();
        };
        let mut value = self.atom(first);
        let mut i = 1;
        while let Some(tok) = toks.get(i) {
            match tok {
                Token::Member(name) | Token::Static(name) => {
                    let call = match toks.get(i + 1) {
                        Some(Token::Group(Group::Paren, script)) => {
                            i += 1;
                            Some(script)
                        }
                        _ => None,
                    };
                    let is_static = matches!(tok, Token::Static(_));
                    value = self.method(value, name, is_static, call);
                }
                Token::Type(_) => value = value.derived(),
                Token::Group(Group::Paren, script) => {
                    let inner = self.group(Group::Paren, script);
                    value = value.derived();
                    self.spend(&inner);
                }
                other => {
                    let more = self.atom(other);
                    value.kind = Kind::Plain;
                    value.push(more);
                }
            }
            i += 1;
        }
        value
    }

    fn atom(&mut self, token: &Token) -> Value {
        match token {
            Token::Word(word) => self.word(word),
            Token::Var(name) => self.variable(name),
            Token::Splat(name) => Value::var(name),
            Token::Group(kind, script) => self.group(*kind, script),
            Token::Type(text) => Value {
                pieces: vec![Piece::Var("type".to_string())],
                kind: Kind::Type(type_name(text)),
                ..Value::default()
            },
            Token::Param { name, colon } => {
                Value::lit(format!("-{name}{}", if *colon { ":" } else { "" }))
            }
            Token::Op(op) => Value::lit(op.clone()),
            Token::Raw(text) => Value::lit(text.clone()),
            Token::Member(_) | Token::Static(_) | Token::Redirect(_) => Value::default(),
        }
    }

    fn word(&mut self, word: &Word) -> Value {
        let mut value = Value::default();
        for (i, part) in word.parts.iter().enumerate() {
            match part {
                Part::Text(text) => {
                    let home = i == 0
                        && (text == "~" || text.starts_with("~/") || text.starts_with("~\\"));
                    if home {
                        value.push(Value {
                            pieces: vec![Piece::Home],
                            ..Value::default()
                        });
                        let rest = text.get(1..).unwrap_or("");
                        if !rest.is_empty() {
                            value.push(Value::lit(rest));
                        }
                    } else {
                        value.push(Value::lit(text.clone()));
                    }
                }
                Part::Var(name) => {
                    let mut var = self.variable(name);
                    // `$env:HOMEDRIVE$env:HOMEPATH` is the home folder.
                    if name.eq_ignore_ascii_case("env:homedrive")
                        && matches!(word.parts.get(i + 1), Some(Part::Var(next)) if next.eq_ignore_ascii_case("env:homepath"))
                    {
                        var = Value::default();
                    }
                    if word.parts.len() == 1 {
                        return var;
                    }
                    value.push(var);
                }
                Part::Sub(script) => {
                    let sub = self.group(Group::Sub, script);
                    value.push(sub);
                }
            }
        }
        if value.pieces.is_empty() {
            value.pieces.push(Piece::Lit(String::new()));
        }
        value
    }

    fn variable(&mut self, name: &str) -> Value {
        let lower = name.to_lowercase();
        if self.substitute
            && self.resolving < SUBSTITUTION_DEPTH
            && let Some(assigned) = self.known.vars.get(&lower)
            && let [Some((rhs, cost))] = assigned.as_slice()
        {
            // Charged before the work: reading a value in its place costs its size each time.
            let cost = *cost;
            if cost <= self.budget {
                self.budget -= cost;
                let rhs = rhs.clone();
                self.resolving += 1;
                let value = self.element(&rhs, None, true).value;
                self.resolving -= 1;
                return value;
            }
            self.fail("a variable's value is too long to read in its place each time");
        }
        match lower.as_str() {
            "home" | "env:home" | "env:userprofile" | "env:homepath" => Value {
                pieces: vec![Piece::Home],
                ..Value::default()
            },
            // The person's application data, as cmd's `%APPDATA%` reads (a browser's saved
            // passwords are under it: `$env:LOCALAPPDATA\Google\Chrome\User Data`).
            "env:appdata" | "env:localappdata" if !self.known.vars.contains_key(&lower) => Value {
                pieces: vec![
                    Piece::Home,
                    Piece::Lit(
                        if lower == "env:appdata" {
                            "/AppData/Roaming"
                        } else {
                            "/AppData/Local"
                        }
                        .to_string(),
                    ),
                ],
                ..Value::default()
            },
            // The temp folder, unless the script points it somewhere else.
            "env:temp" | "env:tmp" if !self.known.vars.contains_key(&lower) => Value::lit("/tmp"),
            "pwd" if !self.known.vars.contains_key(&lower) => Value::lit("."),
            "null" => Value::lit(""),
            "true" => Value::lit("True"),
            "false" => Value::lit("False"),
            "_" | "psitem" | "input" => self.input.clone().unwrap_or_else(|| Value::var(name)),
            profile if profile == "profile" || profile.starts_with("profile.") => Value {
                pieces: vec![Piece::Var("PROFILE".to_string())],
                kind: Kind::Profile,
                ..Value::default()
            },
            _ => Value::var(name),
        }
    }

    /// What a group's statements give: the value of its one expression or command, or the
    /// output of all its lines.
    fn group(&mut self, kind: Group, script: &Script) -> Value {
        match kind {
            Group::Block => {
                let lines = self.lines(script);
                self.pending.extend(lines);
                Value::var("block")
            }
            Group::Hash => {
                self.hash(script);
                Value::var("table")
            }
            Group::Paren | Group::Sub | Group::Array => {
                if let [statement] = script.statements.as_slice()
                    && let [element] = statement.elements.as_slice()
                {
                    let outer = std::mem::take(&mut self.pending);
                    let stage = self.stage(&element.tokens, None, true);
                    let inside = std::mem::replace(&mut self.pending, outer);
                    let mut value = if stage.value.pieces.is_empty() && stage.posix != "true" {
                        Value::cmd(stage.posix.clone())
                    } else {
                        stage.value
                    };
                    if !inside.is_empty() {
                        // What ran while it was read runs inside the group, first.
                        let mut lines = inside;
                        lines.extend(value.sources());
                        value.pieces.retain(|p| !matches!(p, Piece::Cmd(_)));
                        value.pieces.insert(0, Piece::Cmd(lines.join("; ")));
                    }
                    return value;
                }
                let lines = self.lines(script);
                if lines.is_empty() {
                    Value::lit("")
                } else {
                    Value::cmd(lines.join("; "))
                }
            }
        }
    }

    /// The items of a call's arguments (`(a, b)`).
    fn list(&mut self, script: &Script) -> Vec<Value> {
        if let [statement] = script.statements.as_slice()
            && let [element] = statement.elements.as_slice()
        {
            return element
                .tokens
                .split(|t| t.token == Token::Op(",".to_string()))
                .map(|part| self.expression(part))
                .collect();
        }
        if script.statements.is_empty() {
            return Vec::new();
        }
        vec![self.group(Group::Paren, script)]
    }

    /// A member or static member, called or not, on a value.
    fn method(
        &mut self,
        receiver: Value,
        name: &str,
        is_static: bool,
        call: Option<&Script>,
    ) -> Value {
        let method = name.to_lowercase();
        let args = call.map(|script| self.list(script)).unwrap_or_default();
        let arg = |i: usize| args.get(i).cloned().unwrap_or_default();
        let on = match (&receiver.kind, is_static) {
            (Kind::Type(name), true) => name.clone(),
            _ => String::new(),
        };
        let result = match (on.as_str(), method.as_str()) {
            ("convert", "frombase64string") => {
                let blob = arg(0);
                let decoded = blob
                    .literal()
                    .and_then(|b| decode::base64(&b))
                    .and_then(|bytes| decode::text(&bytes));
                let mut value = Value::cmd("base64 -d");
                value.decoded = decoded.or(blob.decoded);
                value
            }
            (_, "new") if !on.is_empty() => self.object(&on, &args),
            (
                "io.file",
                "readalltext" | "readallbytes" | "readalllines" | "readlines" | "opentext"
                | "openread",
            ) => Value::cmd(format!("cat {}", self.file(&arg(0)))),
            (
                "io.file",
                "writealltext" | "writeallbytes" | "writealllines" | "create" | "createtext"
                | "openwrite",
            ) => {
                self.write_file(&arg(0), Some(&arg(1)), false);
                Value::default()
            }
            ("io.file", "appendalltext" | "appendalllines" | "appendtext") => {
                self.write_file(&arg(0), Some(&arg(1)), true);
                Value::default()
            }
            ("io.file" | "io.directory", "delete") => {
                let recursive = on == "io.directory"
                    && arg(1)
                        .literal()
                        .is_some_and(|l| l.eq_ignore_ascii_case("true"));
                let flags = if recursive { "-r -f" } else { "-f" };
                self.pending
                    .push(format!("rm {flags} {}", self.file(&arg(0))));
                Value::default()
            }
            ("io.file" | "io.directory", "copy" | "move") => {
                let program = if method == "copy" { "cp" } else { "mv" };
                self.pending.push(format!(
                    "{program} {} {}",
                    self.file(&arg(0)),
                    self.file(&arg(1))
                ));
                Value::default()
            }
            ("diagnostics.process", "start") => {
                let mut words = vec![program_word(&arg(0))];
                if let Some(line) = arg(1).literal() {
                    words.extend(split_command_line(&line).iter().map(|w| quote(w)));
                } else if args.len() > 1 {
                    words.push(arg(1).word());
                }
                self.pending.push(words.join(" "));
                Value::default()
            }
            ("scriptblock" | "management.automation.scriptblock", "create")
            | ("reflection.assembly", "load")
            | (_, "invokescript" | "addscript" | "newscriptblock") => {
                let posix = self.eval(&arg(0), false);
                if posix != "true" {
                    self.pending.push(posix);
                }
                Value::var("block")
            }
            ("environment", "getenvironmentvariables") => Value::cmd("env"),
            // `[EnvironmentVariableTarget]::Machine`: the scope by its name.
            ("environmentvariabletarget", scope) if call.is_none() => Value::lit(scope),
            // Kept for the person or the machine (not only this process): cmd's `setx`.
            ("environment", "setenvironmentvariable") => {
                let scope = arg(2)
                    .literal()
                    .unwrap_or_else(|| arg(2).word())
                    .to_ascii_lowercase();
                let scope = scope.trim_matches(['"', '\'', ')', ' ']);
                let scope = scope
                    .rsplit(['.', ':'])
                    .next()
                    .unwrap_or_default()
                    .to_string();
                if matches!(scope.as_str(), "user" | "machine") {
                    let machine = if scope == "machine" { " /M" } else { "" };
                    self.pending
                        .push(format!("setx {} {}{machine}", arg(0).word(), arg(1).word()));
                }
                Value::default()
            }
            ("environment", "getfolderpath")
                if arg(0)
                    .literal()
                    .is_some_and(|l| l.eq_ignore_ascii_case("userprofile")) =>
            {
                Value {
                    pieces: vec![Piece::Home],
                    ..Value::default()
                }
            }
            ("net.webrequest" | "net.httpwebrequest", "create") => {
                Value::cmd(format!("curl {}", arg(0).word()))
            }
            ("text.encoding", _) if call.is_none() => receiver.clone(),
            (
                _,
                "downloadstring"
                | "downloaddata"
                | "openread"
                | "downloadstringtaskasync"
                | "downloaddatataskasync"
                | "getstringasync"
                | "getbytearrayasync"
                | "getstreamasync"
                | "getasync",
            ) => Value::cmd(format!("curl {}", arg(0).word())),
            (_, "downloadfile" | "downloadfileasync" | "downloadfiletaskasync") => {
                let file = self.written(&arg(1)).unwrap_or_else(|| arg(1).word());
                self.pending
                    .push(format!("curl -o {file} {}", arg(0).word()));
                Value::default()
            }
            (
                _,
                "uploadstring"
                | "uploaddata"
                | "uploadvalues"
                | "uploadstringasync"
                | "uploaddataasync"
                | "uploadvaluesasync"
                | "uploadstringtaskasync"
                | "uploaddatataskasync",
            ) => {
                let data = args.last().cloned().unwrap_or_default();
                self.pending
                    .push(format!("curl -d {} {}", data.word(), arg(0).word()));
                Value::default()
            }
            (_, "uploadfile" | "uploadfileasync" | "uploadfiletaskasync") => {
                let file = args.last().cloned().unwrap_or_default();
                self.pending
                    .push(format!("curl -T {} {}", self.file(&file), arg(0).word()));
                Value::default()
            }
            (_, "postasync" | "putasync" | "sendasync" | "patchasync") => {
                self.pending.push(format!("curl -d @- {}", arg(0).word()));
                Value::default()
            }
            (_, "getstring" | "getchars") if call.is_some() => arg(0),
            (_, "run" | "exec" | "shellexecute") if call.is_some() => {
                match arg(0).literal() {
                    Some(line) => self.read_text(&line),
                    None => {
                        let posix = self.eval(&arg(0), false);
                        self.pending.push(posix);
                    }
                }
                Value::default()
            }
            (_, "getstream" | "content" | "rawcontent" | "tostring" | "result") => receiver.clone(),
            _ => receiver.clone().derived(),
        };
        // What ran in the receiver and the arguments runs, whether or not the result keeps it.
        for value in std::iter::once(&receiver).chain(&args) {
            for source in value.sources() {
                if !result.sources().contains(&source) {
                    self.pending.push(source);
                }
            }
        }
        result
    }

    /// A .NET object made: a socket is a raw connection, a listener opens this machine.
    fn object(&mut self, type_name: &str, args: &[Value]) -> Value {
        match type_name {
            "net.sockets.tcpclient" | "net.sockets.udpclient" | "net.sockets.socket" => {
                self.socket = true;
                let words: Vec<String> = args.iter().map(Value::word).collect();
                if words.len() >= 2 {
                    self.pending.push(format!("nc {}", words.join(" ")));
                }
                Value::var("socket")
            }
            "net.sockets.tcplistener" | "net.httplistener" => {
                let port = args
                    .last()
                    .map_or_else(|| "\"$port\"".to_string(), Value::word);
                self.pending.push(format!("nc -l {port}"));
                Value::var("listener")
            }
            _ => Value::var("object"),
        }
    }

    /// A file a value names, as a POSIX word (`"$x"` when not a file).
    fn file(&self, value: &Value) -> String {
        self.path(value).unwrap_or_else(|| value.word())
    }

    /// A file written: the checks POSIX has no word for (the PowerShell profile, a Run key or
    /// a startup folder), and its POSIX path.
    fn written(&mut self, target: &Value) -> Option<String> {
        let shape = target.shape();
        if target.kind == Kind::Profile || shape.ends_with("profile.ps1") {
            self.risk(
                Risk::new(
                    RuleId::PersistStartup,
                    Harm::Severe,
                    true,
                    "change the PowerShell profile, which every new PowerShell runs",
                )
                .wish(Wish::new(Act::Update).naming(Name::AnyOf(vec![
                    "profile".to_string(),
                    "$profile".to_string(),
                ]))),
            );
        }
        if is_autostart(&shape) {
            self.autostart(&shape);
        }
        self.path(target)
    }

    fn autostart(&mut self, shape: &str) {
        self.risk(
            Risk::new(
                RuleId::PwshAutostart,
                Harm::Severe,
                true,
                format!("change {shape}, which runs a program at every sign-in"),
            )
            .wish(Wish::new(Act::Update).naming(Name::AnyOf(vec![
                "autostart".to_string(),
                "startup".to_string(),
            ]))),
        );
    }

    fn write_file(&mut self, target: &Value, data: Option<&Value>, append: bool) {
        let Some(path) = self.written(target) else {
            return;
        };
        let op = if append { ">>" } else { ">" };
        // What a command makes (`[Convert]::FromBase64String(…)`, a download), saved: that
        // command's output goes to the file, as the POSIX reader follows a pipe into one.
        if let Some([Piece::Cmd(made)]) = data.map(|d| d.pieces.as_slice()) {
            self.pending.push(format!("{made} {op} {path}"));
            return;
        }
        let data = data.map_or_else(|| "''".to_string(), Value::word);
        self.pending.push(format!("echo {data} {op} {path}"));
    }

    /// Running a value as PowerShell code: literal text is read in its place; anything else
    /// runs as a shell runs its input (`eval "$(curl …)"`, `… | sh`).
    fn eval(&mut self, code: &Value, piped: bool) -> String {
        if let Some(text) = code.literal() {
            self.read_text(&text);
            return "true".to_string();
        }
        // Text written out but for the home folder (`iex "Remove-Item -Recurse $HOME"`): read
        // as PowerShell with the home folder in it, as it runs.
        if !code.pieces.is_empty()
            && code
                .pieces
                .iter()
                .all(|p| matches!(p, Piece::Lit(_) | Piece::Home))
        {
            let text: String = code
                .pieces
                .iter()
                .map(|p| match p {
                    Piece::Lit(text) => text.as_str(),
                    _ => "$HOME",
                })
                .collect();
            self.read_text(&text);
            return "true".to_string();
        }
        if let Some(text) = code.decoded.clone() {
            self.read_text(&text);
        }
        self.runs_text = true;
        if piped {
            if code.sources().is_empty() {
                self.risk(Risk::new(
                    RuleId::ShellUnknown,
                    Harm::Moderate,
                    true,
                    "it runs PowerShell text that is only known when it runs (Invoke-Expression)",
                ));
            }
            return "sh".to_string();
        }
        format!("eval {}", code.word())
    }

    /// The values of one argument: one, or a list's items.
    fn values(&mut self, arg: &Arg<'_>) -> Vec<Value> {
        match arg {
            Arg::Value(items) => items.iter().map(|item| self.item(item)).collect(),
            Arg::Raw(text) => vec![Value::lit(text.clone())],
            Arg::Param { name, colon } => vec![Value::lit(format!(
                "-{name}{}",
                if *colon { ":" } else { "" }
            ))],
        }
    }

    /// A command by name: a cmdlet, an alias, a function or a program.
    fn command(&mut self, written: &str, rest: &[Tok], input: Option<&Value>) -> Stage {
        let mut name = written.to_lowercase();
        for _ in 0..4 {
            match self.known.aliases.get(cmdlets::unqualified(&name)) {
                Some(Some(target)) => name = target.clone(),
                Some(None) => {
                    let program = Value::var("alias");
                    return self.native(program, rest);
                }
                None => break,
            }
        }
        if let Some(cmdlet) = cmdlets::cmdlet(&name) {
            return self.cmdlet(cmdlet, &name, rest, input);
        }
        if cmdlets::reads_by_verb(&name) {
            return self.routine(rest);
        }
        self.native(Value::lit(written), rest)
    }

    /// A cmdlet that only reads: `true`, its arguments read for what runs in them.
    fn routine(&mut self, rest: &[Tok]) -> Stage {
        let args = args_of(rest);
        let mut words = vec!["true".to_string()];
        for arg in &args {
            for value in self.values(arg) {
                if !value.sources().is_empty() {
                    words.push(value.word());
                }
            }
        }
        Stage {
            posix: words.join(" "),
            value: Value::var("output"),
        }
    }
}

/// How much reading tokens costs: one for each token, groups and strings included.
fn weight(toks: &[Tok]) -> usize {
    toks.iter().map(|tok| token_weight(&tok.token)).sum()
}

fn token_weight(token: &Token) -> usize {
    let script_weight = |script: &Script| -> usize {
        script
            .statements
            .iter()
            .flat_map(|s| &s.elements)
            .map(|e| weight(&e.tokens))
            .sum()
    };
    1 + match token {
        Token::Group(_, script) => script_weight(script),
        Token::Word(word) => word
            .parts
            .iter()
            .map(|part| match part {
                Part::Text(text) => text.len(),
                Part::Var(_) => 1,
                Part::Sub(script) => script_weight(script),
            })
            .sum(),
        Token::Redirect(Redirect {
            target: Some(target),
            ..
        }) => token_weight(target),
        _ => 0,
    }
}

/// A value written as a stage of its own: what runs to make it.
fn show(value: &Value) -> String {
    let sources = value.sources();
    match sources.as_slice() {
        [] => "true".to_string(),
        [one] => one.clone(),
        many => format!("{{ {}; }}", many.join("; ")),
    }
}

/// A number (`0`, `0..65535`, `0x1F`, `1.5`) starts an expression, not a command.
fn is_number(word: &Word) -> bool {
    word.literal().is_some_and(|text| {
        let text = text.to_ascii_lowercase();
        let hex = text
            .strip_prefix("0x")
            .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()));
        hex || text.starts_with(|c: char| c.is_ascii_digit())
            && text.chars().all(|c| c.is_ascii_digit() || c == '.')
    })
}
