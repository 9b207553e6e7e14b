//! The program's own functions: a definition is kept (its parameters and where its body is),
//! and its body is read where the function is called, with the call's arguments bound to the
//! parameters, so `def run(cmd): subprocess.run(cmd)` then `run(['git', 'status'])` runs
//! `git status`, not a command only known when it runs. A function never called is read once
//! at the end, its parameters unknown. Python (`def`, `lambda`), JavaScript (`function`,
//! arrows), PHP (`function`, `fn`), R (`function`) and Lua (`function … end`).
//!
//! The program is lexed once: a body is a run of its tokens, read in place at each call. A
//! body whose tokens would read otherwise than its text lexed on its own (one inside brackets,
//! where line breaks are no tokens) keeps its text, lexed where it is read, as does a function
//! defined in code lexed on its own (an interpolation).
//!
//! Bounded: 32 functions, calls read 3 deep, and at most 256 KB of bodies read in all; past
//! that, the program is unknown.

use super::{Args, MAX_CALLS, State, is_op, partner, tok};
use crate::catalogue::Language;
use crate::law::code::Value;
use crate::law::code::lex::{Lexed, Tok, lex};
use crate::law::code::lexicon::last_dot;
use std::rc::Rc;

const MAX_FUNCTIONS: usize = 32;
const MAX_INLINE_DEPTH: usize = 3;
const MAX_INLINED_BYTES: usize = 256 * 1024;

/// Where a function's body is.
#[derive(Debug, Clone)]
enum Body {
    /// Tokens `from..to` of the program; `returns`: one expression, whose value the
    /// function returns (a lambda's, an arrow's).
    Tokens {
        from: usize,
        to: usize,
        returns: bool,
    },
    /// Text, lexed where it is read.
    Text(Rc<str>),
}

/// A function the program defines.
#[derive(Debug, Clone)]
pub(crate) struct Function {
    /// Lower case.
    name: Rc<str>,
    params: Rc<[String]>,
    body: Body,
    /// The length of its body's text, as the bound on bodies read counts it.
    len: usize,
    /// The arguments it was read with, and what it gave: a call with the same ones adds
    /// nothing new.
    seen: Vec<(Vec<Value>, Value)>,
    /// Defined with `self` or `cls` first: called as a method.
    method: bool,
    called: bool,
}

/// A name's bit among 64, from its length and its first and last bytes: a name whose bit
/// isn't among the functions' bits is none of their names.
fn sieve_bit(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let first = usize::from(bytes.first().copied().unwrap_or(0));
    let last = usize::from(bytes.last().copied().unwrap_or(0));
    1 << ((bytes.len() ^ (first * 7) ^ (last * 13)) % 64)
}

/// The names of a parameter list between `open` and `close` (defaults and annotations
/// skipped), and whether its first is `self` or `cls`.
fn params(t: &Lexed<'_>, open: usize, close: usize) -> (Vec<String>, bool) {
    let mut out: Vec<String> = Vec::new();
    let mut expect = true;
    let mut rest = false;
    let mut at = open;
    while at < close {
        match tok(t, at) {
            Some(Tok::Op("(" | "[" | "{")) => {
                at = partner(t, at, close) + 1;
                continue;
            }
            Some(Tok::Op(",")) => expect = true,
            // `*args`, `...args`: the rest of the arguments, as a list.
            Some(Tok::Op("*" | "...")) if expect => rest = true,
            Some(Tok::Name(name) | Tok::Var(name)) if expect => {
                out.push(if rest {
                    format!("*{name}")
                } else {
                    (*name).to_string()
                });
                expect = false;
                rest = false;
            }
            _ => {}
        }
        at += 1;
    }
    let method = out
        .first()
        .is_some_and(|first| first == "self" || first == "cls");
    if method {
        out.remove(0);
    }
    (out, method)
}

/// The text of tokens `from..to`.
fn source<'a>(t: &Lexed<'a>, from: usize, to: usize) -> &'a str {
    let len = t.src.len();
    let start = t.pos(from).unwrap_or(len).min(len);
    let end = t.pos(to).unwrap_or(len).clamp(start, len);
    t.src.get(start..end).unwrap_or("")
}

/// The end of an expression body: the next line break or `;` outside brackets.
fn statement_end(t: &Lexed<'_>, mut at: usize, end: usize) -> usize {
    while at < end {
        match tok(t, at) {
            Some(Tok::Newline | Tok::Op(";")) => return at,
            Some(Tok::Op("(" | "[" | "{")) => at = partner(t, at, end) + 1,
            _ => at += 1,
        }
    }
    at.min(end)
}

/// Lua's `… end` after `function`: blocks opened by `function`, `if` and `do` close there.
fn lua_end(t: &Lexed<'_>, mut at: usize, end: usize) -> usize {
    let mut depth = 1usize;
    while at < end {
        match tok(t, at) {
            Some(Tok::Name("function" | "if" | "do")) => depth += 1,
            Some(Tok::Name("end")) => {
                depth -= 1;
                if depth == 0 {
                    return at;
                }
            }
            _ => {}
        }
        at += 1;
    }
    end
}

impl<'s> State<'s> {
    /// The body of tokens `from..to` of `t`: in place when `t` is the program and the tokens
    /// start outside brackets, so they are the ones its text lexed on its own gives (a body
    /// that `returns` reads as `return TEXT`); else its text.
    fn body(&self, t: &Lexed<'_>, from: usize, to: usize, returns: bool) -> (Body, usize) {
        let text = source(t, from, to);
        let len = text.len() + if returns { "return ".len() } else { 0 };
        if self.is_program(t) && t.is_top(from) {
            return (Body::Tokens { from, to, returns }, len);
        }
        let text: Rc<str> = if returns {
            format!("return {text}").into()
        } else {
            text.into()
        };
        (Body::Text(text), len)
    }

    /// Are these the program's own tokens?
    pub(super) fn is_program(&self, t: &Lexed<'_>) -> bool {
        self.program
            .is_some_and(|program| std::ptr::eq::<Lexed<'_>>(program, t))
    }

    fn define(
        &mut self,
        name: &str,
        params: Vec<String>,
        method: bool,
        (body, len): (Body, usize),
    ) {
        let name = super::lowered(name);
        if let Some(slot) = self.functions.iter_mut().find(|f| *f.name == *name) {
            slot.params = params.into();
            slot.body = body;
            slot.len = len;
            slot.method = method;
            slot.seen.clear();
            return;
        }
        if self.functions.len() >= MAX_FUNCTIONS {
            self.unknown("it defines more functions than warden reads");
            return;
        }
        self.function_bits |= sieve_bit(&name);
        self.functions.push(Function {
            name: Rc::from(name.as_ref()),
            params: params.into(),
            body,
            len,
            seen: Vec::new(),
            method,
            called: false,
        });
    }

    /// A function's definition at `i` (`def`, `function`, `async def`…): kept, not read
    /// here; where the statement ends.
    pub(super) fn definition(&mut self, t: &Lexed<'_>, i: usize, end: usize) -> Option<usize> {
        let language = self.language();
        let (keyword, name_at) = match (language, tok(t, i)?) {
            (Language::Python, Tok::Name("async"))
                if matches!(tok(t, i + 1), Some(Tok::Name("def"))) =>
            {
                (i, i + 2)
            }
            (Language::Python, Tok::Name("def")) => (i, i + 1),
            (Language::JavaScript, Tok::Name("async"))
                if matches!(tok(t, i + 1), Some(Tok::Name("function"))) =>
            {
                (i, i + 2)
            }
            (Language::JavaScript | Language::Php | Language::Lua, Tok::Name("function")) => {
                (i, i + 1)
            }
            _ => return None,
        };
        let Some(Tok::Name(name)) = tok(t, name_at) else {
            return None;
        };
        // `function a.b.c()` (Lua) and `function* gen()` (JavaScript): the last name.
        let mut name = *name;
        let mut open = name_at + 1;
        while matches!(tok(t, open), Some(Tok::Op("." | ":"))) {
            if let Some(Tok::Name(next)) = tok(t, open + 1) {
                name = next;
                open += 2;
            } else {
                break;
            }
        }
        if !is_op(t, open, "(") {
            return None;
        }
        let close = partner(t, open, end);
        let (params, method) = params(t, open + 1, close);
        match language {
            Language::Python => {
                let mut colon = close + 1;
                while colon < end
                    && !is_op(t, colon, ":")
                    && !matches!(tok(t, colon), Some(Tok::Newline))
                {
                    colon += 1;
                }
                if !is_op(t, colon, ":") {
                    return Some(colon);
                }
                // The indentation of the line it starts; the first token of a body read in
                // place has none, as in the body's text lexed on its own.
                let first = self.body_from == Some(keyword) && self.is_program(t);
                let indent = match keyword.checked_sub(1).and_then(|before| tok(t, before)) {
                    Some(Tok::Newline) if !first => t.indent(keyword - 1).unwrap_or(0),
                    _ => 0,
                };
                let (from, to) = if matches!(tok(t, colon + 1), Some(Tok::Newline)) {
                    let mut at = colon + 2;
                    while at < end {
                        if matches!(tok(t, at), Some(Tok::Newline))
                            && t.indent(at).unwrap_or(0) <= indent
                        {
                            break;
                        }
                        at += 1;
                    }
                    (colon + 2, at)
                } else {
                    (colon + 1, statement_end(t, colon + 1, end))
                };
                let body = self.body(t, from, to, false);
                self.define(name, params, method, body);
                Some(to)
            }
            Language::Lua => {
                let to = lua_end(t, close + 1, end);
                let body = self.body(t, close + 1, to, false);
                self.define(name, params, method, body);
                Some(to + 1)
            }
            _ => {
                // A braced body, after a return type perhaps (`function f(): string {`).
                let mut open_body = close + 1;
                while open_body < end && open_body < close + 6 && !is_op(t, open_body, "{") {
                    open_body += 1;
                }
                if !is_op(t, open_body, "{") {
                    return Some(close + 1);
                }
                let to = partner(t, open_body, end);
                let body = self.body(t, open_body + 1, to, false);
                self.define(name, params, method, body);
                Some(to + 1)
            }
        }
    }

    /// `name = lambda x: …`, `const name = (x) => …`, `name <- function(x) {…}`, `local
    /// name = function(x) … end`, `$name = fn($x) => …`: kept as a function named `name`.
    pub(super) fn function_value(
        &mut self,
        t: &Lexed<'_>,
        name: &str,
        i: usize,
        end: usize,
    ) -> Option<usize> {
        let language = self.language();
        let mut at = i;
        if matches!(tok(t, at), Some(Tok::Name("async"))) {
            at += 1;
        }
        match (language, tok(t, at)?) {
            (Language::Python, Tok::Name("lambda")) => {
                let mut colon = at + 1;
                while colon < end && !is_op(t, colon, ":") {
                    colon += 1;
                }
                let (params, _) = params(t, at + 1, colon);
                let to = statement_end(t, colon + 1, end);
                let body = self.body(t, colon + 1, to, true);
                self.define(name, params, false, body);
                Some(to)
            }
            (Language::JavaScript, Tok::Op("(")) => {
                let close = partner(t, at, end);
                if !is_op(t, close + 1, "=>") {
                    return None;
                }
                let (params, _) = params(t, at + 1, close);
                Some(self.arrow_body(t, name, params, close + 2, end))
            }
            (Language::JavaScript, Tok::Name(param)) if is_op(t, at + 1, "=>") => {
                let params = vec![(*param).to_string()];
                Some(self.arrow_body(t, name, params, at + 2, end))
            }
            (
                Language::JavaScript | Language::Php | Language::R | Language::Lua,
                Tok::Name("function"),
            )
            | (Language::Php, Tok::Name("fn")) => {
                let open = at + 1;
                if !is_op(t, open, "(") {
                    return None;
                }
                let close = partner(t, open, end);
                let (params, _) = params(t, open + 1, close);
                if language == Language::Lua {
                    let to = lua_end(t, close + 1, end);
                    let body = self.body(t, close + 1, to, false);
                    self.define(name, params, false, body);
                    return Some(to + 1);
                }
                // PHP's `use (…)` and `fn (…) =>`.
                let mut next = close + 1;
                if matches!(tok(t, next), Some(Tok::Name("use"))) && is_op(t, next + 1, "(") {
                    next = partner(t, next + 1, end) + 1;
                }
                Some(self.arrow_body(t, name, params, next, end))
            }
            _ => None,
        }
    }

    /// A body that is a block (`{…}`) or one expression (after `=>`), kept.
    fn arrow_body(
        &mut self,
        t: &Lexed<'_>,
        name: &str,
        params: Vec<String>,
        mut at: usize,
        end: usize,
    ) -> usize {
        if is_op(t, at, "=>") {
            at += 1;
        }
        if is_op(t, at, "{") {
            let to = partner(t, at, end);
            let body = self.body(t, at + 1, to, false);
            self.define(name, params, false, body);
            return to + 1;
        }
        let to = statement_end(t, at, end);
        let body = self.body(t, at, to, true);
        self.define(name, params, false, body);
        to
    }

    /// A call of one of the program's own functions: its body read with the arguments bound.
    pub(super) fn user_call(&mut self, path: &str, args: &Args) -> Option<Value> {
        if self.functions.is_empty() {
            return None;
        }
        let (head, last) = match last_dot(path) {
            Some(dot) => (
                path.get(..dot).unwrap_or(""),
                path.get(dot + 1..).unwrap_or(""),
            ),
            None => ("", path),
        };
        if self.function_bits & (sieve_bit(path) | sieve_bit(last)) == 0 {
            return None;
        }
        let receiver = last_dot(head).map_or(head, |dot| head.get(dot + 1..).unwrap_or(""));
        let index = self.functions.iter().position(|f| {
            *f.name == *path
                || (*f.name == *last
                    && (f.method || matches!(receiver, "self" | "this" | "cls" | "$this")))
        })?;
        Some(self.inline(index, args))
    }

    fn inline(&mut self, index: usize, args: &Args) -> Value {
        let Some(function) = self.functions.get_mut(index) else {
            return Value::Other;
        };
        function.called = true;
        if args.named.is_empty()
            && let Some((_, value)) = function
                .seen
                .iter()
                .find(|(seen, _)| *seen == args.positional)
        {
            return value.clone();
        }
        let params = Rc::clone(&function.params);
        let body = function.body.clone();
        let len = function.len;
        if self.inlined >= MAX_INLINE_DEPTH {
            return self.function_path(index);
        }
        if self.inlined_bytes + len > MAX_INLINED_BYTES {
            self.unknown("it calls its own functions more than warden reads");
            return self.function_path(index);
        }
        self.inlined_bytes += len;
        // What the parameters' names were bound to, taken out while the body is read (their
        // slots hold the arguments then) and put back after, last first, so a name written
        // twice gets its first value back.
        let saved: Vec<(&str, Option<Value>)> = params
            .iter()
            .map(|p| {
                let p = p.trim_start_matches('*');
                (p, self.take_binding(p))
            })
            .collect();
        for (n, param) in params.iter().enumerate() {
            let name = param.trim_start_matches('*');
            let value = if param.starts_with('*') {
                Value::list(args.positional.iter().skip(n).cloned().collect())
            } else {
                // Named arguments' keys are lower case: the name found in any case of it.
                match args.positional.get(n).or_else(|| {
                    args.named
                        .iter()
                        .find(|(key, _)| key.eq_ignore_ascii_case(name))
                        .map(|(_, v)| v)
                }) {
                    Some(value) => value.clone(),
                    None => self.object(&super::lowered(name)),
                }
            };
            self.bind(name, value);
        }
        let returned = self.returned.take();
        self.inlined += 1;
        match body {
            Body::Tokens { from, to, returns } => {
                if let Some(program) = self.program {
                    self.read_body(program, from, to, returns);
                }
            }
            Body::Text(text) => {
                let lexed = lex(&text, &self.lex.syntax);
                self.statements(&lexed, 0, lexed.len());
            }
        }
        self.inlined -= 1;
        let value = std::mem::replace(&mut self.returned, returned);
        for (param, old) in saved.into_iter().rev() {
            match old {
                Some(value) => self.bind(param, value),
                None => self.unbind(param),
            }
        }
        let value = match value {
            Some(value) => value,
            None => self.function_path(index),
        };
        if let Some(slot) = self.functions.get_mut(index)
            && slot.seen.len() < 8
        {
            slot.seen.push((args.positional.clone(), value.clone()));
        }
        value
    }

    /// What calling function `index` gives when its body doesn't say: the object its name
    /// names (made only then: most bodies read return a value).
    fn function_path(&mut self, index: usize) -> Value {
        let Some(function) = self.functions.get(index) else {
            return Value::Other;
        };
        let name = Rc::clone(&function.name);
        self.object(&name)
    }

    /// A body of the program's tokens, read as its text lexed on its own reads: no line break
    /// before its first token, and one that `returns` as `return EXPRESSION`.
    fn read_body(&mut self, t: &'s Lexed<'s>, mut from: usize, to: usize, returns: bool) {
        while from < to && matches!(tok(t, from), Some(Tok::Newline)) {
            from += 1;
        }
        let outer = self.body_from.replace(from);
        if !returns {
            self.statements(t, from, to);
        } else if self.calls > MAX_CALLS {
            self.unknown("it makes more calls than warden reads");
        } else {
            let next = self.returns(t, from, to).max(from);
            self.statements(t, next, to);
        }
        self.body_from = outer;
    }

    /// Functions never called: read once, their parameters unknown, the last defined first
    /// (a `main` defined last calls the rest, which are then read through it).
    pub(super) fn uncalled(&mut self) {
        let mut index = self.functions.len();
        while index > 0 {
            index -= 1;
            if !self.functions.get(index).is_some_and(|f| f.called) {
                self.inline(index, &Args::default());
            }
        }
    }
}
