//! The tokens of interpreter code: names, variables, strings with their interpolated parts,
//! shell lines written as literals (backticks, `qx`, `%x`), word lists (`qw`, `%w`),
//! operators, and line breaks outside parentheses and brackets. One pass over the bytes,
//! no backtracking beyond one token: linear in the code's length. A string or comment that
//! doesn't end stops the tokens there and says so (`Lexed::broken`).

use super::lexicon::{Backtick, Interp, QuoteLike, Single, Syntax};
use std::borrow::Cow;

/// A piece of a string: text as written (escapes decoded; borrowed from the code when it
/// has none), or the source of an interpolated expression (`$ENV{HOME}`, `{path}`, `#{dir}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Part<'a> {
    Text(Cow<'a, str>),
    Interp(&'a str),
}

/// A string's parts: `Lexed::parts(span)`. Tokens hold no text of their own, so lexing
/// allocates nothing for a token (only for a text whose escapes are decoded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    from: u32,
    to: u32,
}

/// One token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tok<'a> {
    Name(&'a str),
    /// A variable written with its sigil (`$cmd`, `@ARGV`, `$_SERVER`), the sigil taken off.
    Var(&'a str),
    Str(Span),
    /// A JavaScript template (`` `…${x}…` ``): a string that a name before it may tag.
    Template(Span),
    /// A shell line run where it stands (Perl's, Ruby's and PHP's backticks, `qx`, `%x`), or
    /// Julia's command literal.
    Cmd(Span),
    /// A list of words (`qw(a b)`, `%w(a b)`): the text they are split from.
    Words(&'a str),
    Num,
    Op(&'static str),
    /// A line break outside parentheses and brackets: the end of a statement.
    Newline,
    Regex,
}

/// A token with where it stands: 32 bytes, so a program's tokens take a fifth less memory
/// to write and read again than with a field for each (what lexing costs most is the stores).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token<'a> {
    pub tok: Tok<'a>,
    /// Where it starts in `src`, and in the top bit whether a parenthesis or bracket is open
    /// there (line breaks inside them are no tokens): a run of tokens starting outside them
    /// reads as its text lexed on its own would.
    at: u32,
    /// The index of its matching bracket (`NO_PARTNER` if none); for a line break, which
    /// has none, the indentation of the line after it.
    partner: u32,
}

/// The bit of [`Token::at`] that says a bracket is open; the rest is the position.
const NESTED: u32 = 1 << 31;

const NO_PARTNER: u32 = u32::MAX;

/// The tokens of one program.
#[derive(Debug, Default)]
pub(crate) struct Lexed<'a> {
    /// The code read.
    pub src: &'a str,
    toks: Vec<Token<'a>>,
    /// The parts of every string, in order; a string token holds its span.
    parts: Vec<Part<'a>>,
    /// Why the code could not be read to its end, if so.
    pub broken: Option<&'static str>,
}

impl<'a> Lexed<'a> {
    /// The token at `i`.
    #[inline]
    pub(crate) fn tok(&self, i: usize) -> Option<&Tok<'a>> {
        self.toks.get(i).map(|t| &t.tok)
    }

    /// How many tokens there are.
    pub(crate) fn len(&self) -> usize {
        self.toks.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.toks.is_empty()
    }

    /// A string's parts.
    pub(crate) fn parts(&self, span: Span) -> &[Part<'a>] {
        self.parts
            .get(span.from as usize..span.to as usize)
            .unwrap_or(&[])
    }

    /// Where token `i` starts in `src`.
    pub(crate) fn pos(&self, i: usize) -> Option<usize> {
        self.toks.get(i).map(|t| (t.at & !NESTED) as usize)
    }

    /// The index of the bracket matching the one at `i`.
    #[inline]
    pub(crate) fn partner(&self, i: usize) -> Option<usize> {
        match self.toks.get(i) {
            Some(t) if t.partner != NO_PARTNER && !matches!(t.tok, Tok::Newline) => {
                Some(t.partner as usize)
            }
            _ => None,
        }
    }

    /// For a line break, the indentation of the line after it (0 for other tokens).
    pub(crate) fn indent(&self, i: usize) -> Option<u16> {
        self.toks.get(i).map(|t| match t.tok {
            Tok::Newline => u16::try_from(t.partner).unwrap_or(u16::MAX),
            _ => 0,
        })
    }

    /// Does token `i` start outside parentheses and brackets?
    pub(crate) fn is_top(&self, i: usize) -> bool {
        self.toks.get(i).is_some_and(|t| t.at & NESTED == 0)
    }
}

/// Code longer than this is read this far, and what follows is unknown.
pub(crate) const MAX_CODE: usize = 64 * 1024;

/// The operator of more than one character starting with these bytes, longest first
/// (`<-` and `<<-` only where they assign, in R).
fn longer_op(c0: u8, c1: u8, c2: u8, arrow: bool) -> Option<&'static str> {
    // INVARIANT: every operator of `longer_op_of` has one of these second (tested): most bytes
    // after an operator (a name, a space, a bracket) end it at once.
    if !may_continue_op(c1) {
        return None;
    }
    longer_op_of(c0, c1, c2, arrow)
}

pub(super) fn may_continue_op(c: u8) -> bool {
    matches!(
        c,
        b'.' | b'=' | b'*' | b'/' | b'<' | b'>' | b'&' | b'|' | b'?' | b':' | b'-' | b'~'
    )
}

pub(super) fn longer_op_of(c0: u8, c1: u8, c2: u8, arrow: bool) -> Option<&'static str> {
    let three = match (c0, c1, c2) {
        (b'.', b'.', b'.') => Some("..."),
        (b'=', b'=', b'=') => Some("==="),
        (b'!', b'=', b'=') => Some("!=="),
        (b'*', b'*', b'=') => Some("**="),
        (b'/', b'/', b'=') => Some("//="),
        (b'<', b'<', b'=') => Some("<<="),
        (b'>', b'>', b'=') => Some(">>="),
        (b'<', b'=', b'>') => Some("<=>"),
        (b'&', b'&', b'=') => Some("&&="),
        (b'|', b'|', b'=') => Some("||="),
        (b'?', b'?', b'=') => Some("??="),
        (b'<', b'<', b'-') if arrow => Some("<<-"),
        _ => None,
    };
    if three.is_some() {
        return three;
    }
    Some(match (c0, c1) {
        (b'-', b'>') => "->",
        (b'=', b'>') => "=>",
        (b':', b':') => "::",
        (b'=', b'=') => "==",
        (b'!', b'=') => "!=",
        (b'<', b'=') => "<=",
        (b'>', b'=') => ">=",
        (b'<', b'-') if arrow => "<-",
        (b'<', b'<') => "<<",
        (b'>', b'>') => ">>",
        (b'&', b'&') => "&&",
        (b'|', b'|') => "||",
        (b'*', b'*') => "**",
        (b'+', b'=') => "+=",
        (b'-', b'=') => "-=",
        (b'*', b'=') => "*=",
        (b'/', b'=') => "/=",
        (b'%', b'=') => "%=",
        (b'.', b'=') => ".=",
        (b':', b'=') => ":=",
        (b'=', b'~') => "=~",
        (b'!', b'~') => "!~",
        (b'|', b'&') => "|&",
        (b'.', b'.') => "..",
        (b'?', b'.') => "?.",
        (b'?', b'?') => "??",
        (b'~', b'=') => "~=",
        (b'|', b'>') => "|>",
        (b'&', b'.') => "&.",
        _ => return None,
    })
}

/// Every ASCII punctuation character, each its own operator.
#[cfg(test)]
pub(super) const SINGLE: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/// `SINGLE`'s characters, each its own text (an operator is one of these, not a slice of
/// `SINGLE` cut for each: a test keeps the two the same).
#[rustfmt::skip]
const SINGLES: [&str; 32] = [
    "!", "\"", "#", "$", "%", "&", "'", "(", ")", "*", "+", ",", "-", ".", "/",
    ":", ";", "<", "=", ">", "?", "@",
    "[", "\\", "]", "^", "_", "`",
    "{", "|", "}", "~",
];

/// An ASCII punctuation character as its operator: its place in `SINGLE`, which holds the
/// four runs of them in order (`!`…`/`, `:`…`@`, `[`…`` ` ``, `{`…`~`).
pub(super) fn single(c: u8) -> Option<&'static str> {
    let at = match c {
        b'!'..=b'/' => c - b'!',
        b':'..=b'@' => c - b':' + 15,
        b'['..=b'`' => c - b'[' + 22,
        b'{'..=b'~' => c - b'{' + 28,
        _ => return None,
    };
    SINGLES.get(usize::from(at)).copied()
}

/// The bytes of a name: a letter, a digit, `_`, or any byte of a character past ASCII; with
/// `dollar`, `$` too (the syntax's `dollar_names`).
const fn name_bytes(dollar: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        table[c] = b == b'_' || b.is_ascii_alphanumeric() || b >= 0x80 || (dollar && b == b'$');
        c += 1;
    }
    table
}

/// The bytes a name starts with: a letter, `_`, or a byte of a character past ASCII.
const NAME_START: [bool; 256] = {
    let mut table = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        table[c] = b == b'_' || b.is_ascii_alphabetic() || b >= 0x80;
        c += 1;
    }
    table
};

/// The bytes of a name ([`name_bytes`]) where `$` is none.
const NAME_BYTE: [bool; 256] = name_bytes(false);
/// The bytes of a name where `$` is one (`dollar_names`).
const NAME_BYTE_DOLLAR: [bool; 256] = name_bytes(true);

/// Is `c` one of the syntax's sigils? (A loop over its few bytes, not a call: it is asked of
/// every operator's byte.)
#[inline]
fn is_sigil_of(syntax: &Syntax, c: u8) -> bool {
    syntax.sigils.bytes().any(|s| s == c)
}

/// Names after which `/` starts a regular expression rather than divides.
const REGEX_AFTER: &[&str] = &[
    "and", "case", "elsif", "grep", "if", "in", "join", "map", "not", "or", "print", "push",
    "return", "split", "typeof", "unless", "until", "when", "while",
];

/// Reads `code` into tokens.
pub(crate) fn lex<'a>(code: &'a str, syntax: &Syntax) -> Lexed<'a> {
    let (code, cut) = match code.get(..MAX_CODE) {
        Some(head) if code.len() > MAX_CODE => (head, true),
        _ => (code, false),
    };
    let mut lexer = Lexer {
        src: code,
        b: code.as_bytes(),
        i: 0,
        syntax,
        toks: Vec::with_capacity(code.len() / 3 + 8),
        // About one string every 32 bytes of code, made once: a long program's parts are not
        // copied at each doubling.
        parts: Vec::with_capacity(code.len() / 32 + 4),
        start: 0,
        depth: 0,
        broken: None,
        open: Vec::new(),
        unpaired: None,
        name_byte: if syntax.dollar_names {
            &NAME_BYTE_DOLLAR
        } else {
            &NAME_BYTE
        },
    };
    lexer.run();
    let mut broken = lexer.broken;
    if cut {
        // A string or a bracket cut at the bound ends past it: the length is the reason.
        broken = Some("the code is too long to read whole");
    }
    if !lexer.open.is_empty() {
        lexer.unpaired.get_or_insert("a bracket is never closed");
    }
    if let Some(why) = lexer.unpaired {
        broken.get_or_insert(why);
    }
    Lexed {
        src: code,
        toks: lexer.toks,
        parts: lexer.parts,
        broken,
    }
}

/// How a string body's backslashes read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Esc {
    /// `\n`, `\x41`, `\u0041`, `\101`…
    Full,
    /// Only `\\` and the closing quote.
    QuoteOnly,
    /// A backslash is itself (Python's raw strings).
    None,
}

/// What a string body interpolates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holes {
    None,
    Dollar,
    Hash,
    /// Python's f-strings: `{expr}`, `{{` is a brace.
    Brace,
    /// JavaScript's templates: `${expr}`.
    DollarBrace,
    Julia,
}

struct Lexer<'a, 's> {
    src: &'a str,
    b: &'a [u8],
    i: usize,
    syntax: &'s Syntax,
    toks: Vec<Token<'a>>,
    parts: Vec<Part<'a>>,
    /// Where the token being read starts.
    start: usize,
    /// Parentheses and brackets open (braces hold statements, so line breaks count there).
    depth: usize,
    broken: Option<&'static str>,
    /// The brackets open, braces too, by their token's index: each is paired with its
    /// partner as the partner is read.
    open: Vec<(u32, u8)>,
    /// Why the brackets don't pair, if they don't (said after any other reason).
    unpaired: Option<&'static str>,
    /// The bytes of a name in this syntax: `NAME_BYTE`, or `NAME_BYTE_DOLLAR`.
    name_byte: &'static [bool; 256],
}

impl<'a> Lexer<'a, '_> {
    fn at(&self, offset: usize) -> u8 {
        self.b.get(self.i + offset).copied().unwrap_or(0)
    }

    /// Adds a token; the brackets open are those where it starts (an operator changes them
    /// after it is pushed).
    #[inline]
    fn push(&mut self, tok: Tok<'a>) {
        // INVARIANT: code is at most `MAX_CODE` bytes, so a position fits below `NESTED`.
        let pos = u32::try_from(self.start).unwrap_or(u32::MAX) & !NESTED;
        self.toks.push(Token {
            tok,
            at: if self.depth > 0 { pos | NESTED } else { pos },
            partner: NO_PARTNER,
        });
    }

    /// A string's parts, kept: the span the token holds.
    fn keep(&mut self, parts: impl IntoIterator<Item = Part<'a>>) -> Span {
        let from = u32::try_from(self.parts.len()).unwrap_or(u32::MAX);
        self.parts.extend(parts);
        let to = u32::try_from(self.parts.len()).unwrap_or(u32::MAX);
        Span { from, to }
    }

    /// The last token.
    fn last(&self) -> Option<&Tok<'a>> {
        self.toks.last().map(|t| &t.tok)
    }

    /// The indentation of the line starting at the cursor, and where it ends.
    fn indentation(&self) -> (u16, usize) {
        let mut width = 0u16;
        let mut at = self.i;
        while let Some(c) = self.b.get(at) {
            match c {
                b' ' => width = width.saturating_add(1),
                b'\t' => width = width.saturating_add(8),
                _ => break,
            }
            at += 1;
        }
        (width, at)
    }

    fn stop(&mut self, why: &'static str) {
        self.broken.get_or_insert(why);
        self.i = self.b.len();
    }

    fn run(&mut self) {
        while self.i < self.b.len() {
            let c = self.at(0);
            // A name's first byte, the commonest, before the rest (and only here: the match
            // below has no arm for a letter, `_` or a byte past ASCII, asked of every other).
            if NAME_START[usize::from(c)] {
                self.start = self.i;
                self.name();
                continue;
            }
            // Then a space between tokens: the blanks' own arm below, without the match.
            if c == b' ' {
                self.i += 1;
                while self.b.get(self.i) == Some(&b' ') {
                    self.i += 1;
                }
                continue;
            }
            let next = self.at(1);
            let syntax = self.syntax;
            self.start = self.i;
            match c {
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    self.i += 1;
                    while matches!(self.b.get(self.i), Some(b' ' | b'\t' | b'\r' | 0x0b | 0x0c)) {
                        self.i += 1;
                    }
                }
                b'\n' => {
                    self.i += 1;
                    let (indent, end) = self.indentation();
                    if self.depth == 0 && !self.toks.is_empty() {
                        if !matches!(self.last(), Some(Tok::Newline)) {
                            self.push(Tok::Newline);
                        }
                        // Blank lines and comments between: the next line with code counts.
                        if let Some(last) = self.toks.last_mut() {
                            last.partner = u32::from(indent);
                        }
                    }
                    // The indentation is blanks: passed over here, not read again.
                    self.i = end;
                }
                b'\\' if next == b'\n' => self.i += 2,
                b'#' if syntax.hash_equals_comment && next == b'=' => self.block_comment(b"=#"),
                b'#' if syntax.hash_comment => self.line_comment(),
                b'/' if syntax.slash_comment && next == b'/' => self.line_comment(),
                b'/' if syntax.slash_comment && next == b'*' => self.block_comment(b"*/"),
                b'-' if syntax.dash_comment && next == b'-' => {
                    self.i += 2;
                    if syntax.long_brackets && self.at(0) == b'[' && self.long_level().is_some() {
                        let _ = self.long_string();
                    } else {
                        self.line_comment();
                    }
                }
                b'[' if syntax.long_brackets && self.long_level().is_some() => {
                    if let Some(text) = self.long_string() {
                        let span = self.keep([Part::Text(Cow::Borrowed(text))]);
                        self.push(Tok::Str(span));
                    }
                }
                b'\'' => self.single_quote(),
                b'"' => {
                    let holes = match syntax.double {
                        Interp::None => Holes::None,
                        Interp::Dollar => Holes::Dollar,
                        Interp::Hash => Holes::Hash,
                        Interp::Julia => Holes::Julia,
                        Interp::DollarBrace => Holes::DollarBrace,
                    };
                    self.string(b'"', Esc::Full, holes, Kind::Str);
                }
                b'`' => match syntax.backtick {
                    Backtick::None => self.op(),
                    Backtick::Runs => {
                        let holes = match syntax.double {
                            Interp::Hash => Holes::Hash,
                            Interp::Julia => Holes::Julia,
                            Interp::Dollar => Holes::Dollar,
                            Interp::DollarBrace => Holes::DollarBrace,
                            Interp::None => Holes::None,
                        };
                        self.string(b'`', Esc::Full, holes, Kind::Cmd);
                    }
                    Backtick::Command => self.string(b'`', Esc::Full, Holes::Julia, Kind::Cmd),
                    Backtick::Template => {
                        self.string(b'`', Esc::Full, Holes::DollarBrace, Kind::Template)
                    }
                    Backtick::Name => self.string(b'`', Esc::None, Holes::None, Kind::Str),
                },
                b'0'..=b'9' => self.number(),
                b'$' if syntax.dollar_names => self.name(),
                c if is_sigil_of(syntax, c) && self.is_sigil(c) => self.var(),
                b'/' if syntax.regex && self.operand_expected() => self.regex(),
                b'%' if syntax.quote_like == QuoteLike::Ruby && self.operand_expected() => {
                    self.percent()
                }
                _ => self.op(),
            }
        }
    }

    fn line_comment(&mut self) {
        while self.i < self.b.len() && self.at(0) != b'\n' {
            self.i += 1;
        }
    }

    fn block_comment(&mut self, end: &[u8]) {
        self.i += 2;
        match self
            .src
            .get(self.i..)
            .and_then(|rest| find(rest.as_bytes(), end))
        {
            Some(at) => self.i += at + end.len(),
            None => self.stop("a comment never ends"),
        }
    }

    /// `[[`, `[=[`, `[==[`…: the number of `=`.
    fn long_level(&self) -> Option<usize> {
        let mut level = 0;
        while self.at(1 + level) == b'=' {
            level += 1;
        }
        (self.at(1 + level) == b'[').then_some(level)
    }

    fn long_string(&mut self) -> Option<&'a str> {
        let level = self.long_level()?;
        let start = self.i + level + 2;
        let mut close = vec![b']'];
        close.extend(std::iter::repeat_n(b'=', level));
        close.push(b']');
        let src = self.src;
        match src
            .get(start..)
            .and_then(|rest| find(rest.as_bytes(), &close))
        {
            Some(at) => {
                let text = src.get(start..start + at).unwrap_or("");
                self.i = start + at + close.len();
                Some(text)
            }
            None => {
                self.stop("a long string never ends");
                None
            }
        }
    }

    fn operand_expected(&self) -> bool {
        match self.last() {
            None | Some(Tok::Newline) => true,
            Some(Tok::Op(op)) => !matches!(*op, ")" | "]" | "}"),
            Some(Tok::Name(name)) => REGEX_AFTER.contains(name),
            _ => false,
        }
    }

    fn single_quote(&mut self) {
        match self.syntax.single {
            Single::None => self.op(),
            Single::Escaped => {
                if self.syntax.triple && self.at(1) == b'\'' && self.at(2) == b'\'' {
                    self.triple(b'\'', Esc::Full, Holes::None);
                } else {
                    self.string(b'\'', Esc::Full, Holes::None, Kind::Str);
                }
            }
            Single::Raw => self.string(b'\'', Esc::QuoteOnly, Holes::None, Kind::Str),
            Single::Char => {
                // A transpose after a value (`a'`), else a character literal.
                let after_value = matches!(
                    self.last(),
                    Some(Tok::Name(_) | Tok::Var(_) | Tok::Num | Tok::Op(")" | "]" | "}"))
                );
                if after_value {
                    self.op();
                } else {
                    self.string(b'\'', Esc::Full, Holes::None, Kind::Str);
                }
            }
        }
    }

    fn number(&mut self) {
        while self.i < self.b.len() {
            let c = self.at(0);
            if c.is_ascii_alphanumeric() || c == b'_' || (c == b'.' && self.at(1) != b'.') {
                self.i += 1;
            } else {
                break;
            }
        }
        self.push(Tok::Num);
    }

    fn name_char(&self, c: u8) -> bool {
        self.name_byte[usize::from(c)]
    }

    /// How many bytes from `at` are a name's (one table look-up a byte).
    fn name_len(&self, at: usize) -> usize {
        let rest = self.b.get(at..).unwrap_or(&[]);
        let table = self.name_byte;
        rest.iter()
            .position(|&c| !table[usize::from(c)])
            .unwrap_or(rest.len())
    }

    fn name(&mut self) {
        let start = self.i;
        self.i += self.name_len(self.i);
        if self.syntax.bang_names && matches!(self.at(0), b'!' | b'?') && self.at(1) != b'=' {
            self.i += 1;
        }
        let text = self.src.get(start..self.i).unwrap_or("");
        let quote = self.at(0);
        if self.syntax.prefixes
            && matches!(quote, b'\'' | b'"')
            && text.len() <= 2
            && text.bytes().all(|c| b"rRbBuUfF".contains(&c))
        {
            let raw = text.bytes().any(|c| c == b'r' || c == b'R');
            let f = text.bytes().any(|c| c == b'f' || c == b'F');
            let esc = if raw { Esc::None } else { Esc::Full };
            let holes = if f { Holes::Brace } else { Holes::None };
            if self.at(1) == quote && self.at(2) == quote {
                self.triple(quote, esc, holes);
            } else {
                self.string(quote, esc, holes, Kind::Str);
            }
            return;
        }
        if self.syntax.quote_like == QuoteLike::Perl && self.perl_quote(text) {
            return;
        }
        self.push(Tok::Name(text));
    }

    fn is_sigil(&self, c: u8) -> bool {
        let next = self.at(1);
        let starts_name =
            next == b'_' || next.is_ascii_alphabetic() || next == b'{' || next >= 0x80;
        match c {
            b'$' => {
                starts_name
                    || next == b':'
                    || (self.syntax.quote_like == QuoteLike::Perl
                        && (next.is_ascii_digit() || b"#@!$/\\;,.0&`'+".contains(&next)))
            }
            b'@' => starts_name || next == b'@' || next == b'$',
            b'%' => starts_name && self.operand_expected(),
            _ => starts_name,
        }
    }

    fn var(&mut self) {
        self.i += 1;
        // Perl's and Ruby's doubled sigils and `$#array`: `@@x`, `$#x`.
        if matches!(self.at(0), b'@' | b'#') && self.name_char(self.at(1)) {
            self.i += 1;
        }
        if self.at(0) == b'{' {
            // `${name}`: the name inside, when it is one.
            let start = self.i + 1;
            let mut end = start;
            while end < self.b.len() && self.name_char(self.b.get(end).copied().unwrap_or(0)) {
                end += 1;
            }
            if self.b.get(end) == Some(&b'}') && end > start {
                self.i = end + 1;
                self.push(Tok::Var(self.src.get(start..end).unwrap_or("")));
            } else {
                self.push(Tok::Op("$"));
            }
            return;
        }
        let start = self.i;
        if self.name_char(self.at(0)) {
            self.i += self.name_len(self.i);
        } else {
            // A punctuation variable: `$_` is a name, `$!`, `$0`, `$@`.
            self.i += 1;
        }
        self.push(Tok::Var(self.src.get(start..self.i).unwrap_or("")));
    }

    fn op(&mut self) {
        let c = self.at(0);
        let op: &'static str = match longer_op(c, self.at(1), self.at(2), self.syntax.arrow_assign)
        {
            Some(op) => op,
            None => match single(c) {
                Some(op) => op,
                None => {
                    self.i += 1;
                    return;
                }
            },
        };
        self.i += op.len();
        // INVARIANT: code is at most `MAX_CODE` bytes, so a token's index fits.
        let at = u32::try_from(self.toks.len()).unwrap_or(NO_PARTNER);
        self.push(Tok::Op(op));
        match op.as_bytes() {
            [open @ (b'(' | b'[' | b'{')] => {
                if *open != b'{' {
                    self.depth += 1;
                }
                self.open.push((at, *open));
            }
            [close @ (b')' | b']' | b'}')] => {
                if *close != b'}' {
                    self.depth = self.depth.saturating_sub(1);
                }
                let want = match close {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                match self.open.last().copied() {
                    Some((start, kind)) if kind == want => {
                        self.open.pop();
                        if let Some(slot) = self.toks.get_mut(start as usize) {
                            slot.partner = at;
                        }
                        if let Some(slot) = self.toks.last_mut() {
                            slot.partner = start;
                        }
                    }
                    _ => {
                        self.unpaired.get_or_insert("its brackets don't match");
                    }
                }
            }
            _ => {}
        }
    }

    fn regex(&mut self) {
        let start = self.i;
        self.i += 1;
        let mut class = false;
        loop {
            match self.at(0) {
                0 | b'\n' => {
                    // Not a regular expression after all: a division.
                    self.i = start;
                    self.op();
                    return;
                }
                b'\\' => self.i += 2,
                b'[' => {
                    class = true;
                    self.i += 1;
                }
                b']' => {
                    class = false;
                    self.i += 1;
                }
                b'/' if !class => {
                    self.i += 1;
                    break;
                }
                _ => self.i += 1,
            }
        }
        while self.at(0).is_ascii_alphabetic() {
            self.i += 1;
        }
        self.push(Tok::Regex);
    }

    /// Perl's quote-like operators; true when `word` was one.
    fn perl_quote(&mut self, word: &str) -> bool {
        let parts = match word {
            "q" | "qq" | "qw" | "qx" | "m" | "qr" => 1,
            "s" | "tr" | "y" => 2,
            _ => return false,
        };
        let open = self.at(0);
        // `.` is Perl's concatenation, not a member: `"…" . qx(cat .env)` runs it.
        let after_member = matches!(self.last(), Some(Tok::Op("->" | "::")));
        if after_member
            || open == 0
            || open.is_ascii_alphanumeric()
            || open.is_ascii_whitespace()
            || b"=,;)}]>".contains(&open)
            || open == b'_'
        {
            return false;
        }
        let Some(body) = self.delimited(open) else {
            self.stop("a quoted text never ends");
            return true;
        };
        let mut replacement = None;
        if parts == 2 {
            // `s{a}{b}`: a bracketed second part may follow spaces; `s/a/b/` shares the middle.
            let close = closer(open);
            let second = if close != open {
                while self.at(0).is_ascii_whitespace() {
                    self.i += 1;
                }
                let second = self.at(0);
                self.delimited(second)
            } else {
                self.i -= 1;
                self.delimited(open)
            };
            let Some(second) = second else {
                self.stop("a quoted text never ends");
                return true;
            };
            replacement = Some(second);
        }
        let flags = self.i;
        while self.at(0).is_ascii_alphabetic() {
            self.i += 1;
        }
        // `s/…/CODE/e`: the replacement is code, run for each match, as `eval("CODE")` runs it.
        let runs_code = word == "s"
            && self
                .b
                .get(flags..self.i)
                .is_some_and(|letters| letters.contains(&b'e'));
        if let Some(code) = replacement.filter(|_| runs_code) {
            self.push(Tok::Name("eval"));
            // INVARIANT: code is at most `MAX_CODE` bytes, so a token's index fits.
            let open_at = u32::try_from(self.toks.len()).unwrap_or(NO_PARTNER);
            self.push(Tok::Op("("));
            let text = self.parts_of(code, Esc::QuoteOnly, Holes::None);
            self.push(Tok::Str(text));
            let close_at = u32::try_from(self.toks.len()).unwrap_or(NO_PARTNER);
            self.push(Tok::Op(")"));
            // The two brackets are each other's, as `op` pairs written ones.
            if let Some(slot) = self.toks.get_mut(open_at as usize) {
                slot.partner = close_at;
            }
            if let Some(slot) = self.toks.get_mut(close_at as usize) {
                slot.partner = open_at;
            }
            return true;
        }
        let tok = match word {
            "q" => Tok::Str(self.parts_of(body, Esc::QuoteOnly, Holes::None)),
            "qq" => Tok::Str(self.parts_of(body, Esc::Full, Holes::Dollar)),
            "qw" => Tok::Words(body),
            "qx" if open == b'\'' => Tok::Cmd(self.parts_of(body, Esc::QuoteOnly, Holes::None)),
            "qx" => Tok::Cmd(self.parts_of(body, Esc::Full, Holes::Dollar)),
            _ => Tok::Regex,
        };
        self.push(tok);
        true
    }

    /// Ruby's `%w(…)`, `%x(…)`, `%q(…)`, `%(…)`…
    fn percent(&mut self) {
        let kind = self.at(1);
        let (letter, open) = if kind.is_ascii_alphabetic() {
            (kind, self.at(2))
        } else {
            (b'Q', kind)
        };
        let valid = b"qQwWiIxrs".contains(&letter)
            && !open.is_ascii_alphanumeric()
            && !open.is_ascii_whitespace()
            && open != 0
            && open != b'=';
        if !valid {
            self.op();
            return;
        }
        self.i += if kind.is_ascii_alphabetic() { 2 } else { 1 };
        let Some(body) = self.delimited(open) else {
            self.stop("a quoted text never ends");
            return;
        };
        let tok = match letter {
            b'q' | b's' => Tok::Str(self.parts_of(body, Esc::QuoteOnly, Holes::None)),
            b'Q' => Tok::Str(self.parts_of(body, Esc::Full, Holes::Hash)),
            b'w' | b'W' | b'i' | b'I' => Tok::Words(body),
            b'x' => Tok::Cmd(self.parts_of(body, Esc::Full, Holes::Hash)),
            _ => Tok::Regex,
        };
        if letter == b'r' {
            while self.at(0).is_ascii_alphabetic() {
                self.i += 1;
            }
        }
        self.push(tok);
    }

    /// The body between `open` (at the cursor) and its closer; brackets nest.
    fn delimited(&mut self, open: u8) -> Option<&'a str> {
        let close = closer(open);
        let start = self.i + 1;
        let mut at = start;
        let mut level = 0usize;
        while let Some(&c) = self.b.get(at) {
            if c == b'\\' {
                at += 2;
                continue;
            }
            if c == close && open != close && level > 0 {
                level -= 1;
            } else if c == close {
                let body = self.src.get(start..at)?;
                self.i = at + 1;
                return Some(body);
            } else if c == open && open != close {
                level += 1;
            }
            at += 1;
        }
        None
    }

    fn triple(&mut self, quote: u8, esc: Esc, holes: Holes) {
        let start = self.i + 3;
        let close = [quote, quote, quote];
        let mut at = start;
        loop {
            match self.b.get(at) {
                None => break,
                Some(b'\\') if esc != Esc::None || self.b.get(at + 1) == Some(&quote) => at += 2,
                Some(_) if self.b.get(at..at + 3) == Some(&close[..]) => {
                    let body = self.src.get(start..at).unwrap_or("");
                    self.i = at + 3;
                    let span = self.parts_of(body, esc, holes);
                    self.push(Tok::Str(span));
                    return;
                }
                Some(_) => at += 1,
            }
        }
        self.stop("a string never ends");
    }

    fn string(&mut self, quote: u8, esc: Esc, holes: Holes, kind: Kind) {
        if self.syntax.triple && quote == b'"' && self.at(1) == b'"' && self.at(2) == b'"' {
            self.triple(quote, esc, holes);
            return;
        }
        let start = self.i + 1;
        let mut at = start;
        loop {
            match self.b.get(at).copied() {
                None => {
                    self.stop("a string never ends");
                    return;
                }
                Some(b'\\') if esc != Esc::None || self.b.get(at + 1) == Some(&quote) => at += 2,
                Some(c) if c == quote => break,
                // `#{…}` and `${…}` may hold quotes of their own.
                Some(b'#') if holes == Holes::Hash && self.b.get(at + 1) == Some(&b'{') => {
                    at = skip_braces(self.b, at + 1);
                }
                Some(b'$') if holes == Holes::DollarBrace && self.b.get(at + 1) == Some(&b'{') => {
                    at = skip_braces(self.b, at + 1);
                }
                Some(_) => at += 1,
            }
        }
        let body = self.src.get(start..at).unwrap_or("");
        self.i = at + 1;
        let parts = self.parts_of(body, esc, holes);
        self.push(match kind {
            Kind::Str => Tok::Str(parts),
            Kind::Cmd => Tok::Cmd(parts),
            Kind::Template => Tok::Template(parts),
        });
    }
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    Str,
    Cmd,
    Template,
}

fn closer(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        b'{' => b'}',
        b'<' => b'>',
        other => other,
    }
}

/// Where `needle` starts in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let first = *needle.first()?;
    let mut at = 0;
    while let Some(pos) = hay.get(at..)?.iter().position(|&c| c == first) {
        let start = at + pos;
        if hay.get(start..start + needle.len()) == Some(needle) {
            return Some(start);
        }
        at = start + 1;
    }
    None
}

/// The index just past the `}` matching the `{` at `open` (or the end).
fn skip_braces(b: &[u8], open: usize) -> usize {
    let mut level = 0usize;
    let mut at = open;
    while let Some(&c) = b.get(at) {
        match c {
            b'{' => level += 1,
            b'}' => {
                level = level.saturating_sub(1);
                if level == 0 {
                    return at + 1;
                }
            }
            b'\\' => at += 1,
            _ => {}
        }
        at += 1;
    }
    at
}

/// Text gathered for one part: a slice of the body until something is decoded into it.
struct Gathered<'a> {
    text: Cow<'a, str>,
}

impl<'a> Gathered<'a> {
    fn new() -> Gathered<'a> {
        Gathered {
            text: Cow::Borrowed(""),
        }
    }

    fn add(&mut self, piece: &'a str) {
        if piece.is_empty() {
            return;
        }
        if self.text.is_empty() {
            self.text = Cow::Borrowed(piece);
        } else {
            self.text.to_mut().push_str(piece);
        }
    }

    fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    fn take(&mut self) -> Cow<'a, str> {
        std::mem::replace(&mut self.text, Cow::Borrowed(""))
    }
}

impl<'a> Lexer<'a, '_> {
    /// A string's body as its parts (text with escapes decoded, and interpolated sources),
    /// kept: the span the token holds.
    fn parts_of(&mut self, body: &'a str, esc: Esc, holes: Holes) -> Span {
        let kept = self.syntax.kept_escapes;
        let b = body.as_bytes();
        let from = self.parts.len();
        let parts = &mut self.parts;
        let mut text = Gathered::new();
        let mut run = 0;
        let mut at = 0;
        let flush = |text: &mut Gathered<'a>, run: usize, at: usize| {
            text.add(body.get(run..at).unwrap_or(""));
        };
        // The bytes that may start an escape or a hole; the rest is taken in runs.
        let special = |c: u8| match c {
            b'\\' => esc != Esc::None,
            b'$' => matches!(holes, Holes::Dollar | Holes::DollarBrace | Holes::Julia),
            b'@' => holes == Holes::Dollar,
            b'{' => matches!(holes, Holes::Dollar | Holes::Brace),
            b'}' => holes == Holes::Brace,
            b'#' => holes == Holes::Hash,
            _ => false,
        };
        // Most bodies hold no escape and no hole: one text, borrowed, as the loop below would
        // make it.
        if !b.iter().any(|&c| special(c)) {
            parts.push(Part::Text(Cow::Borrowed(body)));
            let from = u32::try_from(from).unwrap_or(u32::MAX);
            let to = u32::try_from(parts.len()).unwrap_or(u32::MAX);
            return Span { from, to };
        }
        while let Some(&c) = b.get(at) {
            match c {
                b'\\' if esc != Esc::None => {
                    flush(&mut text, run, at);
                    let used = escape(body, at, esc, kept, text.text.to_mut());
                    at += used;
                    run = at;
                }
                b'$' | b'@' if holes == Holes::Dollar => {
                    let end = dollar_end(b, at);
                    if end > at + 1 {
                        flush(&mut text, run, at);
                        let source = body.get(at..end).unwrap_or("");
                        hole(parts, &mut text, source);
                        at = end;
                        run = at;
                    } else {
                        at += 1;
                    }
                }
                b'{' if holes == Holes::Dollar && b.get(at + 1) == Some(&b'$') => {
                    // PHP's `{$expr}`.
                    flush(&mut text, run, at);
                    let end = skip_braces(b, at);
                    let source = body.get(at + 1..end.saturating_sub(1)).unwrap_or("");
                    hole(parts, &mut text, source);
                    at = end;
                    run = at;
                }
                // Ruby's `#{expr}`, JavaScript's and Groovy's `${expr}`.
                c @ (b'#' | b'$')
                    if matches!((c, holes), (b'#', Holes::Hash) | (b'$', Holes::DollarBrace))
                        && b.get(at + 1) == Some(&b'{') =>
                {
                    flush(&mut text, run, at);
                    let end = skip_braces(b, at + 1);
                    let source = body.get(at + 2..end.saturating_sub(1)).unwrap_or("");
                    hole(parts, &mut text, source);
                    at = end;
                    run = at;
                }
                b'{' | b'}' if holes == Holes::Brace => {
                    flush(&mut text, run, at);
                    if b.get(at + 1) == Some(&c) {
                        text.text.to_mut().push(c as char);
                        at += 2;
                    } else if c == b'{' {
                        let end = skip_braces(b, at);
                        let source = body.get(at + 1..end.saturating_sub(1)).unwrap_or("");
                        hole(parts, &mut text, source);
                        at = end;
                    } else {
                        at += 1;
                    }
                    run = at;
                }
                b'$' if holes == Holes::Julia => {
                    let next = b.get(at + 1).copied().unwrap_or(0);
                    if next == b'(' {
                        flush(&mut text, run, at);
                        let end = skip_parens(b, at + 1);
                        let source = body.get(at + 2..end.saturating_sub(1)).unwrap_or("");
                        hole(parts, &mut text, source);
                        at = end;
                        run = at;
                    } else if next == b'_' || next.is_ascii_alphabetic() {
                        flush(&mut text, run, at);
                        let mut end = at + 1;
                        while b
                            .get(end)
                            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                        {
                            end += 1;
                        }
                        let source = body.get(at + 1..end).unwrap_or("");
                        hole(parts, &mut text, source);
                        at = end;
                        run = at;
                    } else {
                        at += 1;
                    }
                }
                _ => {
                    at += 1;
                    at += b
                        .get(at..)
                        .and_then(|rest| rest.iter().position(|&c| special(c)))
                        .unwrap_or_else(|| b.len().saturating_sub(at));
                }
            }
        }
        flush(&mut text, run, at.min(b.len()));
        if !text.is_empty() || parts.len() == from {
            parts.push(Part::Text(text.take()));
        }
        let from = u32::try_from(from).unwrap_or(u32::MAX);
        let to = u32::try_from(parts.len()).unwrap_or(u32::MAX);
        Span { from, to }
    }
}

fn hole<'a>(parts: &mut Vec<Part<'a>>, text: &mut Gathered<'a>, source: &'a str) {
    if !text.is_empty() {
        parts.push(Part::Text(text.take()));
    }
    parts.push(Part::Interp(source));
}

fn skip_parens(b: &[u8], open: usize) -> usize {
    let mut level = 0usize;
    let mut at = open;
    while let Some(&c) = b.get(at) {
        match c {
            b'(' => level += 1,
            b')' => {
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

/// Where a `$name…` (or `@name…`) interpolation ends: the name, `::` parts, and subscripts
/// (`{key}`, `[i]`, `->{key}`, `->[i]`, PHP's `->name`).
fn dollar_end(b: &[u8], start: usize) -> usize {
    let is_name = |c: u8| c == b'_' || c.is_ascii_alphanumeric() || c >= 0x80;
    let mut at = start + 1;
    if b.get(at) == Some(&b'{') {
        let end = skip_braces(b, at);
        return end;
    }
    if !b
        .get(at)
        .is_some_and(|c| is_name(*c) && !c.is_ascii_digit())
    {
        return start;
    }
    loop {
        while b.get(at).is_some_and(|c| is_name(*c)) {
            at += 1;
        }
        if b.get(at..at + 2) == Some(b"::") && b.get(at + 2).is_some_and(|c| is_name(*c)) {
            at += 2;
            continue;
        }
        break;
    }
    loop {
        let arrow = b.get(at..at + 2) == Some(b"->");
        let from = if arrow { at + 2 } else { at };
        match b.get(from) {
            Some(b'{') => at = skip_braces(b, from),
            Some(b'[') => {
                let mut end = from;
                while b.get(end).is_some_and(|c| *c != b']') {
                    end += 1;
                }
                at = end + 1;
            }
            Some(c) if arrow && is_name(*c) => {
                at = from;
                while b.get(at).is_some_and(|c| is_name(*c)) {
                    at += 1;
                }
            }
            _ => break,
        }
    }
    at.min(b.len())
}

/// Decodes the escape at `at` (a backslash) into `text`; the bytes it used.
fn escape(body: &str, at: usize, esc: Esc, kept: bool, text: &mut String) -> usize {
    let b = body.as_bytes();
    let Some(&c) = b.get(at + 1) else {
        text.push('\\');
        return 1;
    };
    // No escape where a language keeps the backslash (Python's `"\w"`): the backslash is
    // itself, and what follows is read as the text it is.
    let escapes = matches!(
        c,
        b'\\' | b'\'' | b'"' | b'$' | b'\n' | b'0'
            ..=b'7'
                | b'N'
                | b'U'
                | b'a'
                | b'b'
                | b'e'
                | b'f'
                | b'n'
                | b'r'
                | b't'
                | b'u'
                | b'v'
                | b'x'
    );
    if kept && !escapes && esc == Esc::Full {
        text.push('\\');
        return 1;
    }
    if esc == Esc::QuoteOnly {
        if c == b'\\' || c == b'\'' || c == b'"' || c == b'`' {
            text.push(c as char);
        } else {
            text.push('\\');
            return 1;
        }
        return 2;
    }
    let hex = |from: usize, max: usize| -> (u32, usize) {
        let mut value = 0u32;
        let mut used = 0;
        while used < max {
            match b.get(from + used).and_then(|c| (*c as char).to_digit(16)) {
                Some(d) => {
                    value = value.saturating_mul(16).saturating_add(d);
                    used += 1;
                }
                None => break,
            }
        }
        (value, used)
    };
    let push_code = |text: &mut String, code: u32| {
        if let Some(ch) = char::from_u32(code) {
            text.push(ch);
        }
    };
    match c {
        b'n' => text.push('\n'),
        b't' => text.push('\t'),
        b'r' => text.push('\r'),
        b'a' => text.push('\u{7}'),
        b'b' => text.push('\u{8}'),
        b'f' => text.push('\u{c}'),
        b'v' => text.push('\u{b}'),
        b'e' => text.push('\u{1b}'),
        b'\n' => {}
        b'0'..=b'7' => {
            let mut value = 0u32;
            let mut used = 0;
            while used < 3 {
                match b.get(at + 1 + used) {
                    Some(d @ b'0'..=b'7') => {
                        value = value * 8 + u32::from(d - b'0');
                        used += 1;
                    }
                    _ => break,
                }
            }
            push_code(text, value);
            return 1 + used;
        }
        b'x' | b'u' | b'U' => {
            if b.get(at + 2) == Some(&b'{') {
                let (value, used) = hex(at + 3, 8);
                push_code(text, value);
                let close = usize::from(b.get(at + 3 + used) == Some(&b'}'));
                return 3 + used + close;
            }
            let max = match c {
                b'x' => 2,
                b'u' => 4,
                _ => 8,
            };
            let (value, used) = hex(at + 2, max);
            if used == 0 {
                text.push(c as char);
                return 2;
            }
            push_code(text, value);
            return 2 + used;
        }
        _ => {
            // `\"`, `\\`, `\$`, and any other character as itself (a multi-byte one whole).
            let rest = body.get(at + 1..).unwrap_or("");
            if let Some(ch) = rest.chars().next() {
                text.push(ch);
                return 1 + ch.len_utf8();
            }
        }
    }
    2
}
