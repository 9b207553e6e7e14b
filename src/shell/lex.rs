//! The byte-level reader: words (quotes, escapes, expansions), operators, redirects and
//! here-document bodies, plus the matcher that finds where a `$(…)`, `${…}` or backtick ends.
//!
//! Everything works on bytes: every character the shell gives a meaning to is ASCII, so
//! cutting at those bytes never splits a UTF-8 sequence. Nothing here recurses; the matcher
//! keeps its own stack, so any input is read in linear time without deep native recursion.

use super::{RedirectOp, Via};

/// Text that runs as commands of its own: the inside of `$(…)`, backticks or `<(…)`.
#[derive(Debug, Clone)]
pub(super) struct Nested {
    pub text: String,
    pub via: Via,
}

/// One word as read, before it is sorted into program, argument or assignment.
#[derive(Debug, Clone, Default)]
pub(super) struct Word {
    /// The unquoted text; expansions keep their source text (`$X`, `$(cmd)`).
    pub text: String,
    /// Holds an unquoted or double-quoted expansion.
    pub dynamic: bool,
    /// Some part of it was quoted or escaped.
    pub quoted: bool,
    /// Holds an unquoted `*`, `?` or `[`.
    pub glob: bool,
    /// For an unquoted `NAME=value` (or `NAME+=value`): where the name ends and the value starts.
    pub assign: Option<(usize, usize)>,
    /// Substitutions written in the word, in reading order.
    pub nested: Vec<Nested>,
    /// The whole word is an unquoted brace list (`{rm,-rf,/}`): its items, as bash expands it.
    pub brace: Option<Vec<String>>,
}

impl Word {
    /// A plain word with no quoting or expansion, as a reserved word must be.
    pub fn is_literal(&self, s: &str) -> bool {
        !self.quoted && !self.dynamic && self.text == s
    }

    /// A word made from already unquoted text (`env -S` splitting).
    pub fn plain(text: &str) -> Word {
        Word {
            text: text.to_string(),
            ..Word::default()
        }
    }
}

/// A control operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    Semi,
    /// `;;`, `;&` or `;;&` (the end of a `case` item).
    CaseEnd,
    Amp,
    AndAnd,
    OrOr,
    Pipe,
    PipeAmp,
    LParen,
    RParen,
    Newline,
}

/// A redirect as read: the target word keeps its substitutions for the command to collect.
#[derive(Debug, Clone)]
pub(super) struct RedirTok {
    pub fd: Option<u32>,
    pub op: RedirectOp,
    pub target: Word,
    /// For `<<`: the index of the here-document in [`Lexer::heredocs`].
    pub heredoc: Option<usize>,
}

/// One token.
#[derive(Debug, Clone)]
pub(super) enum Tok {
    Word(Word),
    Op(Op),
    Redir(RedirTok),
    /// `(( … ))` in command position: the text between the double parentheses.
    Arith(String),
    Eof,
}

/// A here-document whose delimiter has been read.
#[derive(Debug, Clone)]
pub(super) struct HereDoc {
    pub delim: String,
    pub strip_tabs: bool,
    /// The delimiter was quoted: the body is not expanded.
    pub quoted: bool,
    /// Filled when the line holding the operator ends.
    pub body: Option<String>,
}

/// The reader's position in one text.
pub(super) struct Lexer<'a> {
    /// The text, and its bytes.
    src: &'a str,
    b: &'a [u8],
    pub pos: usize,
    /// The first problem met, if any.
    pub unknown: Option<&'static str>,
    pub heredocs: Vec<HereDoc>,
    /// The first here-document whose body has not been read.
    next_body: usize,
    /// `((` that turned out not to be arithmetic.
    arith_misses: u32,
    /// How many more unbalanced constructs may be read again (see [`Lexer::may_roll_back`]).
    rollbacks_left: u8,
}

/// How many unbalanced quotes or brackets are read again as if they were not there.
const MAX_ROLLBACKS: u8 = 4;

/// How many `((` may turn out not to be arithmetic before no more are tried.
const MAX_ARITH_TRIES: u32 = 64;

/// Where the matcher starts: just after `$(` / `(`, `${`, `"` or a backtick.
#[derive(Debug, Clone, Copy)]
pub(super) enum Open {
    Paren,
    Brace,
    Backtick,
}

#[derive(Debug, Clone, Copy)]
enum Frame {
    /// Commands, closed by `)`. `cases` counts open `case … esac` (whose patterns end with `)`).
    Cmd {
        cases: u32,
        cmd_pos: bool,
    },
    /// `${…}`; `in_dq` when inside double quotes, where `'` is not special.
    Brace {
        in_dq: bool,
    },
    Quote,
    Tick,
}

/// Reserved words after which a command (and so a `case`) can start.
const LEADING_KEYWORDS: [&str; 11] = [
    "then", "do", "else", "elif", "if", "while", "until", "!", "{", "time", "in",
];

/// Finds the byte closing what was opened just before `start` (`)`, `}` or a backtick), or
/// None when the text ends first. Understands quotes, escapes, nested substitutions, comments
/// and the `)` of `case` patterns. Linear time, no recursion.
pub(super) fn find_close(b: &[u8], start: usize, open: Open) -> Option<usize> {
    let first = match open {
        Open::Paren => Frame::Cmd {
            cases: 0,
            cmd_pos: true,
        },
        Open::Brace => Frame::Brace { in_dq: false },
        Open::Backtick => Frame::Tick,
    };
    let mut stack = vec![first];
    let mut i = start;
    while let Some(&c) = b.get(i) {
        let top = stack.last().copied()?;
        match top {
            Frame::Cmd { cases, cmd_pos } => {
                let depth = stack.len();
                let mut next_cmd_pos = false;
                match c {
                    b'\\' => i += 2,
                    b'\'' => i = find_byte(b, i + 1, b'\'')? + 1,
                    b'"' => {
                        stack.push(Frame::Quote);
                        i += 1;
                    }
                    b'`' => {
                        stack.push(Frame::Tick);
                        i += 1;
                    }
                    b'$' => match b.get(i + 1) {
                        Some(b'(') => {
                            stack.push(Frame::Cmd {
                                cases: 0,
                                cmd_pos: true,
                            });
                            i += 2;
                        }
                        Some(b'{') => {
                            stack.push(Frame::Brace { in_dq: false });
                            i += 2;
                        }
                        Some(b'\'') => i = skip_ansi(b, i + 2)?,
                        _ => i += 1,
                    },
                    b'(' => {
                        stack.push(Frame::Cmd {
                            cases: 0,
                            cmd_pos: true,
                        });
                        i += 1;
                    }
                    b')' => {
                        if cases > 0 {
                            // The end of a `case` pattern.
                            next_cmd_pos = true;
                        } else {
                            stack.pop();
                            if stack.is_empty() {
                                return Some(i);
                            }
                        }
                        i += 1;
                    }
                    b'#' if at_word_start(b, i, start) => {
                        i = find_byte(b, i, b'\n').unwrap_or(b.len());
                        next_cmd_pos = cmd_pos;
                    }
                    b';' | b'&' | b'|' | b'\n' => {
                        next_cmd_pos = true;
                        i += 1;
                    }
                    b' ' | b'\t' | b'\r' => {
                        next_cmd_pos = cmd_pos;
                        i += 1;
                    }
                    c if c.is_ascii_lowercase() && at_word_start(b, i, start) => {
                        let mut j = i;
                        while b.get(j).is_some_and(u8::is_ascii_lowercase) {
                            j += 1;
                        }
                        let ends = !b.get(j).is_some_and(|&x| is_word_byte(x));
                        let word = b.get(i..j).unwrap_or(&[]);
                        let mut cases = cases;
                        if ends && cmd_pos {
                            if word == b"case" {
                                cases += 1;
                            } else if word == b"esac" && cases > 0 {
                                cases -= 1;
                            }
                            next_cmd_pos = LEADING_KEYWORDS.iter().any(|k| k.as_bytes() == word);
                        }
                        if let Some(Frame::Cmd { cases: c, .. }) = stack.last_mut() {
                            *c = cases;
                        }
                        i = j;
                    }
                    _ => i += 1,
                }
                if stack.len() == depth
                    && let Some(Frame::Cmd { cmd_pos, .. }) = stack.last_mut()
                {
                    *cmd_pos = next_cmd_pos;
                }
            }
            Frame::Quote | Frame::Brace { .. } => {
                let in_dq = matches!(top, Frame::Quote | Frame::Brace { in_dq: true });
                match c {
                    b'\\' => i += 2,
                    b'"' if matches!(top, Frame::Quote) => {
                        stack.pop();
                        if stack.is_empty() {
                            return Some(i);
                        }
                        i += 1;
                    }
                    b'"' => {
                        stack.push(Frame::Quote);
                        i += 1;
                    }
                    b'}' if matches!(top, Frame::Brace { .. }) => {
                        stack.pop();
                        if stack.is_empty() {
                            return Some(i);
                        }
                        i += 1;
                    }
                    b'\'' if !in_dq => i = find_byte(b, i + 1, b'\'')? + 1,
                    b'`' => {
                        stack.push(Frame::Tick);
                        i += 1;
                    }
                    b'$' => match b.get(i + 1) {
                        Some(b'(') => {
                            stack.push(Frame::Cmd {
                                cases: 0,
                                cmd_pos: true,
                            });
                            i += 2;
                        }
                        Some(b'{') => {
                            stack.push(Frame::Brace { in_dq });
                            i += 2;
                        }
                        _ => i += 1,
                    },
                    _ => i += 1,
                }
            }
            Frame::Tick => match c {
                b'\\' => i += 2,
                b'`' => {
                    stack.pop();
                    if stack.is_empty() {
                        return Some(i);
                    }
                    i += 1;
                }
                _ => i += 1,
            },
        }
    }
    None
}

/// True when the byte at `i` starts a word inside a command context that began at `start`.
fn at_word_start(b: &[u8], i: usize, start: usize) -> bool {
    if i <= start {
        return true;
    }
    matches!(
        i.checked_sub(1).and_then(|p| b.get(p)),
        None | Some(b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b'(' | b')')
    )
}

/// Bytes that continue a bare word (for telling `case` from `cases`).
fn is_word_byte(c: u8) -> bool {
    !matches!(
        c,
        b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>'
    )
}

fn find_byte(b: &[u8], from: usize, x: u8) -> Option<usize> {
    b.get(from..)?
        .iter()
        .position(|&c| c == x)
        .map(|p| p + from)
}

/// Skips an ANSI-C string whose body starts at `i`; returns the index after its closing quote.
fn skip_ansi(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        match b.get(i)? {
            b'\\' => i += 2,
            b'\'' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// Text of a byte range (lossy: only `$'\xff'` can make invalid UTF-8).
pub(super) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// [`text`] of bytes already owned: kept as they are when they are UTF-8 (no copy).
fn owned_text(b: Vec<u8>) -> String {
    String::from_utf8(b).unwrap_or_else(|e| text(e.as_bytes()))
}

/// The bytes `Lexer::read_word` takes in its last arm and does nothing more with: none that
/// ends a word, opens a quote, an expansion, a pattern or a brace list, or makes an
/// assignment.
const ORDINARY: [bool; 256] = {
    let mut table = [true; 256];
    let special = b" \t\r\n;&|()<>'\"\\$`*?[]={},";
    let mut i = 0;
    while i < special.len() {
        table[special[i] as usize] = false;
        i += 1;
    }
    table
};

/// Undoes the escapes a backtick substitution's body was written with.
fn unescape_backtick(inner: &[u8], in_dq: bool) -> String {
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    while let Some(&c) = inner.get(i) {
        match (c, inner.get(i + 1)) {
            (b'\\', Some(&n)) if n == b'\\' || n == b'`' || n == b'$' || (in_dq && n == b'"') => {
                out.push(n);
                i += 2;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    text(&out)
}

/// The substitutions written in `s` (a `${…}` or `$((…))` body, or a here-document body),
/// in reading order; the flag is true when one is unbalanced. Linear, no recursion:
/// arithmetic and `${` are walked through rather than jumped over.
pub(super) fn collect_subs(s: &[u8]) -> (Vec<Nested>, bool) {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = s.get(i) {
        match c {
            b'\\' => i += 2,
            b'$' if s.get(i + 1) == Some(&b'(') => {
                if s.get(i + 2) == Some(&b'(') {
                    i += 3;
                    continue;
                }
                match find_close(s, i + 2, Open::Paren) {
                    Some(end) => {
                        let inner = s.get(i + 2..end).unwrap_or(&[]);
                        out.push(Nested {
                            text: text(inner),
                            via: Via::Substitution,
                        });
                        i = end + 1;
                    }
                    None => {
                        let inner = s.get(i + 2..).unwrap_or(&[]);
                        out.push(Nested {
                            text: text(inner),
                            via: Via::Substitution,
                        });
                        return (out, true);
                    }
                }
            }
            b'`' => match find_close(s, i + 1, Open::Backtick) {
                Some(end) => {
                    let inner = s.get(i + 1..end).unwrap_or(&[]);
                    out.push(Nested {
                        text: unescape_backtick(inner, false),
                        via: Via::Substitution,
                    });
                    i = end + 1;
                }
                None => {
                    let inner = s.get(i + 1..).unwrap_or(&[]);
                    out.push(Nested {
                        text: unescape_backtick(inner, false),
                        via: Via::Substitution,
                    });
                    return (out, true);
                }
            },
            _ => i += 1,
        }
    }
    (out, false)
}

/// Decodes the body of `$'…'` starting at `i`; returns the bytes and the index after the
/// closing quote (None when there is none).
fn decode_ansi(b: &[u8], mut i: usize, out: &mut Vec<u8>) -> Option<usize> {
    loop {
        let c = *b.get(i)?;
        match c {
            b'\'' => return Some(i + 1),
            b'\\' => {
                let e = *b.get(i + 1)?;
                i += 2;
                match e {
                    b'a' => out.push(7),
                    b'b' => out.push(8),
                    b'e' | b'E' => out.push(27),
                    b'f' => out.push(12),
                    b'n' => out.push(b'\n'),
                    b'r' => out.push(b'\r'),
                    b't' => out.push(b'\t'),
                    b'v' => out.push(11),
                    b'\\' | b'\'' | b'"' | b'?' => out.push(e),
                    b'0'..=b'7' => {
                        let mut v = u32::from(e - b'0');
                        let mut n = 1;
                        while n < 3 {
                            match b.get(i) {
                                Some(&d @ b'0'..=b'7') => {
                                    v = v * 8 + u32::from(d - b'0');
                                    i += 1;
                                    n += 1;
                                }
                                _ => break,
                            }
                        }
                        out.push((v & 0xff) as u8);
                    }
                    b'x' | b'u' | b'U' => {
                        let max = match e {
                            b'x' => 2,
                            b'u' => 4,
                            _ => 8,
                        };
                        let mut v: u32 = 0;
                        let mut n = 0;
                        while n < max {
                            match b.get(i).and_then(|&d| char::from(d).to_digit(16)) {
                                Some(d) => {
                                    v = v.wrapping_mul(16).wrapping_add(d);
                                    i += 1;
                                    n += 1;
                                }
                                None => break,
                            }
                        }
                        if n == 0 {
                            out.push(b'\\');
                            out.push(e);
                        } else if e == b'x' {
                            out.push((v & 0xff) as u8);
                        } else {
                            let ch = char::from_u32(v).unwrap_or('\u{fffd}');
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                    }
                    b'c' => {
                        let x = *b.get(i)?;
                        i += 1;
                        out.push(x & 0x1f);
                    }
                    other => {
                        out.push(b'\\');
                        out.push(other);
                    }
                }
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
}

/// A word being read.
#[derive(Default)]
struct Acc {
    buf: Vec<u8>,
    w: Word,
    /// Nothing quoted or expanded yet: an `=` can still make an assignment.
    plain: bool,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Lexer<'a> {
        Lexer {
            src,
            b: src.as_bytes(),
            pos: 0,
            unknown: None,
            heredocs: Vec::new(),
            next_body: 0,
            arith_misses: 0,
            rollbacks_left: MAX_ROLLBACKS,
        }
    }

    /// Whether an unbalanced quote or bracket may be read again as if it were not there (so
    /// the commands after it are seen). Only the first few may: each retry rescans the rest,
    /// and after them an unbalanced construct takes the rest of the text, keeping reading linear.
    fn may_roll_back(&mut self) -> bool {
        if self.rollbacks_left == 0 {
            return false;
        }
        self.rollbacks_left -= 1;
        true
    }

    fn flag(&mut self, reason: &'static str) {
        if self.unknown.is_none() {
            self.unknown = Some(reason);
        }
    }

    fn peek(&self, k: usize) -> Option<u8> {
        self.b.get(self.pos + k).copied()
    }

    fn slice(&self, from: usize, to: usize) -> &'a [u8] {
        self.b.get(from..to).unwrap_or(&[])
    }

    /// Skips blanks, line continuations and comments (never a newline).
    fn skip_blanks(&mut self) {
        loop {
            match self.peek(0) {
                Some(b' ' | b'\t' | b'\r') => self.pos += 1,
                Some(b'\\') if self.peek(1) == Some(b'\n') => self.pos += 2,
                Some(b'#') => {
                    self.pos = find_byte(self.b, self.pos, b'\n').unwrap_or(self.b.len());
                }
                _ => return,
            }
        }
    }

    /// If the next bytes are `)` (after blanks), takes them: the `()` of `name ()`.
    pub fn eat_close_paren(&mut self) -> bool {
        let save = self.pos;
        self.skip_blanks();
        if self.peek(0) == Some(b')') {
            self.pos += 1;
            true
        } else {
            self.pos = save;
            false
        }
    }

    /// If the next bytes are `()` (after blanks), takes them: `function name ()`.
    pub fn eat_empty_parens(&mut self) {
        let save = self.pos;
        self.skip_blanks();
        if self.peek(0) == Some(b'(') {
            self.pos += 1;
            if self.eat_close_paren() {
                return;
            }
        }
        self.pos = save;
    }

    /// Reads the next token. `cmd_start` says a command may start here (for `((`).
    pub fn next(&mut self, cmd_start: bool) -> Tok {
        self.skip_blanks();
        let Some(c) = self.peek(0) else {
            return Tok::Eof;
        };
        let two = self.peek(1);
        match c {
            b'\n' => {
                self.pos += 1;
                self.read_bodies();
                Tok::Op(Op::Newline)
            }
            b';' => {
                if two == Some(b';') {
                    self.pos += if self.peek(2) == Some(b'&') { 3 } else { 2 };
                    Tok::Op(Op::CaseEnd)
                } else if two == Some(b'&') {
                    self.pos += 2;
                    Tok::Op(Op::CaseEnd)
                } else {
                    self.pos += 1;
                    Tok::Op(Op::Semi)
                }
            }
            b'&' => match two {
                Some(b'&') => {
                    self.pos += 2;
                    Tok::Op(Op::AndAnd)
                }
                Some(b'>') => self.redirect(None),
                _ => {
                    self.pos += 1;
                    Tok::Op(Op::Amp)
                }
            },
            b'|' => match two {
                Some(b'|') => {
                    self.pos += 2;
                    Tok::Op(Op::OrOr)
                }
                Some(b'&') => {
                    self.pos += 2;
                    Tok::Op(Op::PipeAmp)
                }
                _ => {
                    self.pos += 1;
                    Tok::Op(Op::Pipe)
                }
            },
            b'(' => {
                if cmd_start
                    && two == Some(b'(')
                    && let Some(t) = self.arith()
                {
                    return t;
                }
                self.pos += 1;
                Tok::Op(Op::LParen)
            }
            b')' => {
                self.pos += 1;
                Tok::Op(Op::RParen)
            }
            b'<' | b'>' if two != Some(b'(') => self.redirect(None),
            b'0'..=b'9' => {
                let mut j = self.pos;
                while self.b.get(j).is_some_and(u8::is_ascii_digit) {
                    j += 1;
                }
                let op = self.b.get(j).copied();
                let after = self.b.get(j + 1).copied();
                if matches!(op, Some(b'<' | b'>')) && after != Some(b'(') {
                    let fd = std::str::from_utf8(self.slice(self.pos, j))
                        .ok()
                        .and_then(|s| s.parse().ok());
                    self.pos = j;
                    self.redirect(fd)
                } else {
                    Tok::Word(self.word_at_least_one_byte())
                }
            }
            _ => Tok::Word(self.word_at_least_one_byte()),
        }
    }

    /// Reads a word; never leaves the cursor where it was (so no caller can loop forever).
    fn word_at_least_one_byte(&mut self) -> Word {
        let before = self.pos;
        let w = self.read_word();
        if self.pos == before {
            self.pos += 1;
        }
        w
    }

    /// The next word inside `[[ … ]]`, where `&&`, `||`, `<`, `>`, `(`, `)` and `|` are words
    /// too; None at the end of the line or text.
    pub fn cond_word(&mut self) -> Option<Word> {
        self.skip_blanks();
        let c = self.peek(0)?;
        match c {
            b'\n' | b';' => None,
            b'&' | b'|' if self.peek(1) == Some(c) => {
                self.pos += 2;
                Some(Word::plain(if c == b'&' { "&&" } else { "||" }))
            }
            b'&' => None,
            b'|' | b'<' | b'>' | b'(' | b')' => {
                self.pos += 1;
                Some(Word::plain(&text(&[c])))
            }
            _ => Some(self.word_at_least_one_byte()),
        }
    }

    /// `((` in command position: arithmetic when it closes with `))`. Each try scans ahead,
    /// so after [`MAX_ARITH_TRIES`] misses (or one unbalanced try) `((` is two parentheses.
    fn arith(&mut self) -> Option<Tok> {
        if self.arith_misses >= MAX_ARITH_TRIES {
            return None;
        }
        let Some(end) = find_close(self.b, self.pos + 1, Open::Paren) else {
            self.arith_misses = MAX_ARITH_TRIES;
            return None;
        };
        let before = end.checked_sub(1)?;
        if before <= self.pos + 1 || self.b.get(before) != Some(&b')') {
            self.arith_misses += 1;
            return None;
        }
        let inner = self.slice(self.pos + 2, before);
        self.pos = end + 1;
        Some(Tok::Arith(text(inner)))
    }

    /// A redirect operator at the cursor (after its descriptor), and its target.
    fn redirect(&mut self, fd: Option<u32>) -> Tok {
        let (c0, c1, c2) = (self.peek(0), self.peek(1), self.peek(2));
        let (op, len, strip) = match (c0, c1, c2) {
            (Some(b'<'), Some(b'<'), Some(b'<')) => (RedirectOp::HereString, 3, false),
            (Some(b'<'), Some(b'<'), Some(b'-')) => (RedirectOp::HereDoc, 3, true),
            (Some(b'<'), Some(b'<'), _) => (RedirectOp::HereDoc, 2, false),
            (Some(b'<'), Some(b'&'), _) => (RedirectOp::Dup, 2, false),
            (Some(b'<'), Some(b'>'), _) => (RedirectOp::Write, 2, false),
            (Some(b'<'), _, _) => (RedirectOp::Read, 1, false),
            (Some(b'>'), Some(b'>'), _) => (RedirectOp::Append, 2, false),
            (Some(b'>'), Some(b'&'), _) => (RedirectOp::Dup, 2, false),
            (Some(b'>'), Some(b'|'), _) => (RedirectOp::Write, 2, false),
            (Some(b'&'), Some(b'>'), Some(b'>')) => (RedirectOp::Append, 3, false),
            (Some(b'&'), Some(b'>'), _) => (RedirectOp::Write, 2, false),
            _ => (RedirectOp::Write, 1, false),
        };
        self.pos += len;
        while matches!(self.peek(0), Some(b' ' | b'\t' | b'\r')) {
            self.pos += 1;
        }
        let target = match self.peek(0) {
            None | Some(b'\n' | b';' | b'&' | b'|' | b')') => None,
            Some(b'(') => None,
            Some(b'<' | b'>') if self.peek(1) != Some(b'(') => None,
            _ => Some(self.read_word()),
        };
        let target = target.unwrap_or_else(|| {
            self.flag("redirect without a target");
            Word::default()
        });
        let mut heredoc = None;
        let mut target = target;
        if op == RedirectOp::HereDoc {
            heredoc = Some(self.heredocs.len());
            self.heredocs.push(HereDoc {
                delim: target.text.clone(),
                strip_tabs: strip,
                quoted: target.quoted,
                body: None,
            });
            // The delimiter is not expanded.
            target = Word::default();
        }
        Tok::Redir(RedirTok {
            fd,
            op,
            target,
            heredoc,
        })
    }

    /// Reads the bodies of the here-documents opened on the line that just ended.
    pub fn read_bodies(&mut self) {
        while self.next_body < self.heredocs.len() {
            let (delim, strip) = match self.heredocs.get(self.next_body) {
                Some(h) => (h.delim.clone(), h.strip_tabs),
                None => return,
            };
            let (body, found) = if strip {
                self.stripped_body(&delim)
            } else {
                self.plain_body(&delim)
            };
            if !found {
                self.flag("unterminated here-document");
            }
            if let Some(h) = self.heredocs.get_mut(self.next_body) {
                h.body = Some(body);
            }
            self.next_body += 1;
        }
    }

    /// A `<<-` body from the cursor: each line with its leading tabs off, up to the line that
    /// is the delimiter (a carriage return after it allowed); whether that line was found.
    fn stripped_body(&mut self, delim: &str) -> (String, bool) {
        let mut body = String::new();
        while self.pos < self.b.len() {
            // Lines end at a newline byte, so each is whole text of its own.
            let rest = self.src.get(self.pos..).unwrap_or("");
            let line = rest.split_once('\n').map_or(rest, |(line, _)| line);
            self.pos = (self.pos + line.len() + 1).min(self.b.len());
            let line = line.trim_start_matches('\t');
            if line.strip_suffix('\r').unwrap_or(line) == delim {
                return (body, true);
            }
            body.push_str(line);
            body.push('\n');
        }
        (body, false)
    }

    /// A `<<` body from the cursor: its lines as written, up to the line that is the
    /// delimiter (a carriage return after it allowed), found by searching for a line break
    /// and the delimiter rather than by reading every line; whether that line was found.
    /// The body is one copy of the text before it (with a line break after its last line
    /// when the text has none there, as each line is given one).
    fn plain_body(&mut self, delim: &str) -> (String, bool) {
        let src = self.src;
        let start = self.pos.min(src.len());
        let rest = src.get(start..).unwrap_or("");
        if rest.is_empty() {
            return (String::new(), false);
        }
        // Where the line starting at `at` ends, if it is the delimiter.
        let ends_delim = |at: usize| -> Option<usize> {
            let tail = rest.get(at..)?.strip_prefix(delim)?;
            let cr = tail.starts_with('\r');
            let after = tail.get(usize::from(cr)..)?;
            (after.is_empty() || after.starts_with('\n'))
                .then_some(at + delim.len() + usize::from(cr))
        };
        let needle = format!("\n{delim}");
        let mut line = Some(0);
        let mut from = 0;
        while let Some(at) = line {
            if at < rest.len()
                && let Some(end) = ends_delim(at)
            {
                self.pos = (start + end + 1).min(src.len());
                return (rest.get(..at).unwrap_or("").to_string(), true);
            }
            line = rest
                .get(from..)
                .and_then(|tail| tail.find(&needle))
                .map(|found| from + found + 1);
            from = line.unwrap_or(rest.len());
        }
        self.pos = src.len();
        let mut body = String::with_capacity(rest.len() + 1);
        body.push_str(rest);
        if !rest.ends_with('\n') {
            body.push('\n');
        }
        (body, false)
    }

    /// Reads one word at the cursor (the caller saw it does not start with an operator).
    pub fn read_word(&mut self) -> Word {
        let mut a = Acc {
            plain: true,
            ..Acc::default()
        };
        let start = self.pos;
        // An unquoted `{` then `,`: a `}` makes the word a brace expansion.
        let (mut brace_open, mut brace_comma) = (false, false);
        let mut bracket_open = false;
        while let Some(c) = self.peek(0) {
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b')' => break,
                b'(' => {
                    let after_eq = a.w.assign.is_some_and(|(_, v)| v == a.buf.len());
                    let extglob =
                        a.plain && matches!(a.buf.last(), Some(b'@' | b'!' | b'+' | b'*' | b'?'));
                    if !(after_eq || extglob) {
                        break;
                    }
                    // `arr=(a b)` or an extended glob `!(x)`: keep the text as it is.
                    let start = self.pos;
                    let end = match find_close(self.b, start + 1, Open::Paren) {
                        Some(e) => e + 1,
                        None => {
                            self.flag("unbalanced (");
                            if self.may_roll_back() {
                                break;
                            }
                            self.b.len()
                        }
                    };
                    a.buf.extend_from_slice(self.slice(start, end));
                    a.w.glob |= extglob;
                    let (subs, bad) = collect_subs(self.slice(start, end));
                    if bad {
                        self.flag("unbalanced $(");
                    }
                    a.w.dynamic |= !subs.is_empty();
                    a.w.nested.extend(subs);
                    self.pos = end;
                }
                b'<' | b'>' => {
                    if self.peek(1) != Some(b'(') {
                        break;
                    }
                    let start = self.pos;
                    self.substitution(
                        &mut a,
                        start,
                        start + 2,
                        Via::ProcessSubstitution,
                        "unbalanced <(",
                    );
                }
                b'\'' => {
                    a.w.quoted = true;
                    a.plain = false;
                    match find_byte(self.b, self.pos + 1, b'\'') {
                        Some(end) => {
                            a.buf.extend_from_slice(self.slice(self.pos + 1, end));
                            self.pos = end + 1;
                        }
                        None => {
                            // Best effort: the rest is read as if the quote were not there, so
                            // no command after it is hidden.
                            self.flag("unbalanced single quote");
                            if self.may_roll_back() {
                                self.pos += 1;
                            } else {
                                a.buf
                                    .extend_from_slice(self.slice(self.pos + 1, self.b.len()));
                                self.pos = self.b.len();
                            }
                        }
                    }
                }
                b'"' => {
                    self.pos += 1;
                    self.double_quoted(&mut a);
                }
                b'\\' => match self.peek(1) {
                    Some(b'\n') => self.pos += 2,
                    Some(n) => {
                        a.w.quoted = true;
                        a.plain = false;
                        a.buf.push(n);
                        self.pos += 2;
                    }
                    None => {
                        a.buf.push(b'\\');
                        self.pos += 1;
                    }
                },
                b'$' => self.dollar(&mut a, false),
                b'`' => self.backtick(&mut a, false),
                b'*' | b'?' => {
                    a.w.glob = true;
                    a.buf.push(c);
                    self.pos += 1;
                }
                b'[' | b']' => {
                    // `[` alone (the test command) is no pattern; `[ab]` is.
                    if c == b'[' {
                        bracket_open = true;
                    } else if bracket_open {
                        a.w.glob = true;
                    }
                    a.buf.push(c);
                    self.pos += 1;
                }
                b'=' => {
                    if a.plain
                        && a.w.assign.is_none()
                        && let Some(name_end) = assignment_name(&a.buf)
                    {
                        a.w.assign = Some((name_end, a.buf.len() + 1));
                    }
                    a.buf.push(c);
                    self.pos += 1;
                }
                _ => {
                    match c {
                        b'{' => brace_open = true,
                        b',' => brace_comma |= brace_open,
                        b'}' if brace_comma => a.w.glob = true,
                        _ => {}
                    }
                    // The bytes after it that this arm would take one by one and do nothing
                    // more with (letters, digits, `-`, `.`, `/`…): taken at once.
                    let rest = self.b.get(self.pos + 1..).unwrap_or(&[]);
                    let run = rest
                        .iter()
                        .position(|b| !ORDINARY[usize::from(*b)])
                        .unwrap_or(rest.len());
                    let end = self.pos + 1 + run;
                    a.buf.extend_from_slice(self.slice(self.pos, end));
                    self.pos = end;
                }
            }
        }
        a.w.text = owned_text(std::mem::take(&mut a.buf));
        a.w.brace = brace_list(self.slice(start, self.pos));
        a.w
    }

    /// The inside of double quotes, the cursor just past the opening quote.
    fn double_quoted(&mut self, a: &mut Acc) {
        a.w.quoted = true;
        a.plain = false;
        let (from, buf_len, nested_len) = (self.pos, a.buf.len(), a.w.nested.len());
        loop {
            let Some(c) = self.peek(0) else {
                // Best effort: read the rest again as if the quote were not there.
                self.flag("unbalanced double quote");
                if self.may_roll_back() {
                    a.buf.truncate(buf_len);
                    a.w.nested.truncate(nested_len);
                    self.pos = from;
                }
                return;
            };
            match c {
                b'"' => {
                    self.pos += 1;
                    return;
                }
                b'\\' => match self.peek(1) {
                    Some(b'\n') => self.pos += 2,
                    Some(n @ (b'$' | b'`' | b'"' | b'\\')) => {
                        a.buf.push(n);
                        self.pos += 2;
                    }
                    _ => {
                        a.buf.push(b'\\');
                        self.pos += 1;
                    }
                },
                b'$' => self.dollar(a, true),
                b'`' => self.backtick(a, true),
                _ => {
                    a.buf.push(c);
                    self.pos += 1;
                }
            }
        }
    }

    /// `$(…)` or `<(…)`: `start` is the first byte of the construct, `body` the first byte inside.
    fn substitution(
        &mut self,
        a: &mut Acc,
        start: usize,
        body: usize,
        via: Via,
        bad: &'static str,
    ) {
        a.w.dynamic = true;
        a.plain = false;
        let (inner, end) = match find_close(self.b, body, Open::Paren) {
            Some(e) => (self.slice(body, e), e + 1),
            None => {
                self.flag(bad);
                (self.slice(body, self.b.len()), self.b.len())
            }
        };
        a.buf.extend_from_slice(self.slice(start, end));
        a.w.nested.push(Nested {
            text: text(inner),
            via,
        });
        self.pos = end;
    }

    /// An expansion at `$`.
    fn dollar(&mut self, a: &mut Acc, in_dq: bool) {
        let start = self.pos;
        match self.peek(1) {
            Some(b'\'') if !in_dq => {
                a.w.quoted = true;
                a.plain = false;
                let buf_len = a.buf.len();
                match decode_ansi(self.b, start + 2, &mut a.buf) {
                    Some(end) => self.pos = end,
                    None => {
                        self.flag("unbalanced single quote");
                        if self.may_roll_back() {
                            a.buf.truncate(buf_len);
                            self.pos = start + 2;
                        } else {
                            self.pos = self.b.len();
                        }
                    }
                }
            }
            Some(b'"') if !in_dq => {
                self.pos += 2;
                self.double_quoted(a);
            }
            Some(b'(') => {
                if self.peek(2) == Some(b'(')
                    && let Some(end) = find_close(self.b, start + 2, Open::Paren)
                    && let inner = self.slice(start + 2, end)
                    && inner.len() >= 2
                    && inner.last() == Some(&b')')
                {
                    // `$(( … ))`: arithmetic, whose substitutions still run.
                    a.w.dynamic = true;
                    a.plain = false;
                    a.buf.extend_from_slice(self.slice(start, end + 1));
                    let (subs, bad) = collect_subs(inner);
                    if bad {
                        self.flag("unbalanced $(");
                    }
                    a.w.nested.extend(subs);
                    self.pos = end + 1;
                    return;
                }
                self.substitution(a, start, start + 2, Via::Substitution, "unbalanced $(");
            }
            Some(b'{') => {
                a.w.dynamic = true;
                a.plain = false;
                let end = match find_close(self.b, start + 2, Open::Brace) {
                    Some(e) => e + 1,
                    None => {
                        self.flag("unbalanced ${");
                        if self.may_roll_back() {
                            a.buf.push(b'$');
                            self.pos = start + 1;
                            return;
                        }
                        self.b.len()
                    }
                };
                let whole = self.slice(start, end);
                a.buf.extend_from_slice(whole);
                let (subs, bad) = collect_subs(whole.get(2..).unwrap_or(&[]));
                if bad {
                    self.flag("unbalanced $(");
                }
                a.w.nested.extend(subs);
                self.pos = end;
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                a.w.dynamic = true;
                a.plain = false;
                let mut j = start + 1;
                while self
                    .b
                    .get(j)
                    .is_some_and(|&x| x.is_ascii_alphanumeric() || x == b'_')
                {
                    j += 1;
                }
                a.buf.extend_from_slice(self.slice(start, j));
                self.pos = j;
            }
            Some(c) if c.is_ascii_digit() || b"@*#?$!-".contains(&c) => {
                a.w.dynamic = true;
                a.plain = false;
                a.buf.extend_from_slice(self.slice(start, start + 2));
                self.pos = start + 2;
            }
            _ => {
                a.buf.push(b'$');
                self.pos += 1;
            }
        }
    }

    /// A backtick substitution at the cursor.
    fn backtick(&mut self, a: &mut Acc, in_dq: bool) {
        a.w.dynamic = true;
        a.plain = false;
        let start = self.pos;
        let (inner, end) = match find_close(self.b, start + 1, Open::Backtick) {
            Some(e) => (self.slice(start + 1, e), e + 1),
            None => {
                self.flag("unbalanced backtick");
                (self.slice(start + 1, self.b.len()), self.b.len())
            }
        };
        a.buf.extend_from_slice(self.slice(start, end));
        a.w.nested.push(Nested {
            text: unescape_backtick(inner, in_dq),
            via: Via::Substitution,
        });
        self.pos = end;
    }
}

/// The most words one brace expansion is read as.
const MAX_BRACE_ITEMS: usize = 32;

/// The words bash makes of a word with a brace list in it (`{rm,-rf,/}`, `~{,}`,
/// `/{etc,usr}/x`, `a{b,c}{d,e}`): each item between what comes before and after the list,
/// lists after the first expanded in turn. `None` when the word holds no list, or quotes,
/// an expansion or nested braces bash would read otherwise, or expands past 32 words. An
/// item left empty alone is no word at all (`{,x}` is `x`).
fn brace_list(raw: &[u8]) -> Option<Vec<String>> {
    let special = |c: &u8| b"'\"\\$`".contains(c);
    if !raw.contains(&b'{') || raw.iter().any(special) {
        return None;
    }
    let mut words = vec![raw.to_vec()];
    let mut expanded = false;
    loop {
        let mut next = Vec::new();
        let mut grew = false;
        for word in &words {
            match one_list(word) {
                Some((pre, items, post)) => {
                    grew = true;
                    for item in items {
                        let mut w = pre.to_vec();
                        w.extend_from_slice(item);
                        w.extend_from_slice(post);
                        if !w.is_empty() {
                            next.push(w);
                        }
                    }
                }
                None => next.push(word.clone()),
            }
            if next.len() > MAX_BRACE_ITEMS {
                return None;
            }
        }
        words = next;
        if !grew {
            break;
        }
        expanded = true;
    }
    expanded.then(|| words.iter().map(|w| text(w)).collect())
}

/// A brace list in a word: what comes before it, its items, and what comes after.
type BraceList<'a> = (&'a [u8], Vec<&'a [u8]>, &'a [u8]);

/// The first brace list of a word. A `{` whose `}` comes before any `,` is no list (`{}`,
/// `{x}`).
fn one_list(word: &[u8]) -> Option<BraceList<'_>> {
    let mut from = 0;
    while let Some(open) = word
        .get(from..)?
        .iter()
        .position(|&c| c == b'{')
        .map(|o| o + from)
    {
        let close = word
            .get(open + 1..)?
            .iter()
            .position(|&c| c == b'}')
            .map(|c| c + open + 1)?;
        let inner = word.get(open + 1..close)?;
        if inner.contains(&b',') && !inner.contains(&b'{') {
            let items = inner.split(|&c| c == b',').collect();
            return Some((&word[..open], items, &word[close + 1..]));
        }
        from = open + 1;
    }
    None
}

/// If `buf` is a valid assignment name (`NAME`, `NAME+`, `NAME[…]`, `NAME[…]+`), where the
/// name proper ends.
fn assignment_name(buf: &[u8]) -> Option<usize> {
    let body = buf.strip_suffix(b"+").unwrap_or(buf);
    let name_end = body.iter().position(|&c| c == b'[').unwrap_or(body.len());
    let name = body.get(..name_end)?;
    let first = *name.first()?;
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    if !name.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_') {
        return None;
    }
    if name_end < body.len() && body.last() != Some(&b']') {
        return None;
    }
    Some(name_end)
}
