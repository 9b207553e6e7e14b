//! The PowerShell reader: text into statements, pipelines and tokens, with every nested
//! text (`( … )`, `$( … )`, `@( … )`, `{ … }`, `@{ … }`, `$( … )` inside a double-quoted
//! string) read as statements of its own.
//!
//! Hand-written, one pass over the characters: nesting is at most [`MAX_DEPTH`] deep, and
//! anything it can't read (a quote, bracket or comment never closed, a closer with no opener,
//! the reserved `<`, nesting too deep) makes the text `unknown` while every token read so
//! far is kept. It never panics.

/// How deep groups and strings may nest before the rest of the text is left unread.
pub(super) const MAX_DEPTH: usize = 32;

/// Statements, cut at `;`, newlines, `&&`, `||` and a trailing `&`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Script {
    pub statements: Vec<Statement>,
}

/// One pipeline: its elements, cut at `|`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Statement {
    pub elements: Vec<Element>,
}

/// One element of a pipeline: a command and its arguments, or an expression.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Element {
    pub tokens: Vec<Tok>,
}

/// A token and whether blanks came before it (`$a.b` is one value, `$a .b` two).
#[derive(Debug, Clone, PartialEq)]
pub struct Tok {
    pub token: Token,
    pub spaced: bool,
}

/// Which kind of bracket a group is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// `( … )`
    Paren,
    /// `$( … )`
    Sub,
    /// `@( … )`
    Array,
    /// `{ … }`: a script block.
    Block,
    /// `@{ … }`: a hashtable.
    Hash,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    /// A bare word (a command's name, an argument) or a string: its parts, escapes applied.
    Word(Word),
    /// A lone variable, its name as written without `$` (`HOME`, `env:USERPROFILE`, `_`).
    Var(String),
    /// `@name`: a variable splatted into a command's parameters.
    Splat(String),
    /// `-Name`, or `-Name:` when a value follows the colon.
    Param {
        name: String,
        colon: bool,
    },
    Group(Group, Script),
    /// `[Net.WebClient]`: a type, a cast or an attribute, as written inside the brackets.
    Type(String),
    /// `.Name` glued to the value before it.
    Member(String),
    /// `::Name` glued to the value before it.
    Static(String),
    Redirect(Redirect),
    /// `&` (call), `.` (dot-source), `,`, `=`, `+=`, `+`, `!`…
    Op(String),
    /// Everything after `--%` up to the end of the line, passed as it is.
    Raw(String),
}

/// A word or a string.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Word {
    pub parts: Vec<Part>,
    /// It starts with a quote: a string, never a command's name.
    pub quoted: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    Text(String),
    /// `$name` inside a word or a double-quoted string.
    Var(String),
    /// `$( … )` inside a word or a double-quoted string.
    Sub(Script),
}

/// `> f`, `>> f`, `2> f`, `2>&1`, `*> f`.
#[derive(Debug, Clone, PartialEq)]
pub struct Redirect {
    pub append: bool,
    /// The file, or `None` when one stream is merged into another (`2>&1`).
    pub target: Option<Box<Token>>,
}

impl Word {
    /// The word's text when it has no variables and no subexpressions.
    pub fn literal(&self) -> Option<String> {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Text(text) => out.push_str(text),
                Part::Var(_) | Part::Sub(_) => return None,
            }
        }
        Some(out)
    }
}

/// Reads PowerShell text: the statements, and why it could not all be read, if so.
pub fn read(text: &str) -> (Script, Option<String>) {
    let mut reader = Reader {
        chars: text.chars().collect(),
        at: 0,
        depth: 0,
        unknown: None,
    };
    let script = reader.script(None);
    (script, reader.unknown)
}

struct Reader {
    chars: Vec<char>,
    at: usize,
    depth: usize,
    unknown: Option<String>,
}

fn is_single_quote(c: char) -> bool {
    matches!(c, '\'' | '\u{2018}' | '\u{2019}' | '\u{201a}' | '\u{201b}')
}

fn is_double_quote(c: char) -> bool {
    matches!(c, '"' | '\u{201c}' | '\u{201d}' | '\u{201e}')
}

/// PowerShell reads an en dash, an em dash and a horizontal bar as `-`.
fn is_dash(c: char) -> bool {
    matches!(c, '-' | '\u{2013}' | '\u{2014}' | '\u{2015}')
}

fn is_blank(c: char) -> bool {
    c.is_whitespace() && c != '\n'
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// What a backtick makes of the character after it, in a word or a double-quoted string.
/// `` `e`` is the escape character in PowerShell 7 but a plain `e` in Windows PowerShell
/// 5.1, where ``Remove-It`em`` is `Remove-Item`: it reads as `e`, the side that finds a
/// command.
fn escaped(c: char) -> char {
    match c {
        '0' => '\0',
        'a' => '\u{7}',
        'b' => '\u{8}',
        'f' => '\u{c}',
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        'v' => '\u{b}',
        other => other,
    }
}

/// Characters that end a bare word.
fn ends_word(c: char) -> bool {
    c.is_whitespace() || matches!(c, ';' | '|' | '&' | '(' | ')' | '{' | '}' | ',' | '>' | '<')
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek();
        if c.is_some() {
            self.at += 1;
        }
        c
    }

    fn fail(&mut self, why: &str) {
        if self.unknown.is_none() {
            self.unknown = Some(why.to_string());
        }
    }

    /// Statements up to `close` (taken) or the end of the text.
    fn script(&mut self, close: Option<char>) -> Script {
        let mut statements: Vec<Statement> = Vec::new();
        let mut elements: Vec<Element> = Vec::new();
        let mut element = Element::default();
        let mut spaced = true;
        // A `|` was the last thing read: the pipeline goes on past a newline.
        let mut piped = false;
        loop {
            let Some(c) = self.peek() else {
                if let Some(close) = close {
                    self.fail(&format!("a group is never closed with `{close}`"));
                }
                break;
            };
            let next = self.peek_at(1);
            match c {
                '\n' => {
                    self.bump();
                    spaced = true;
                    if !piped {
                        end_statement(&mut statements, &mut elements, &mut element);
                    }
                }
                c if is_blank(c) => {
                    self.bump();
                    spaced = true;
                }
                ';' => {
                    self.bump();
                    spaced = true;
                    piped = false;
                    end_statement(&mut statements, &mut elements, &mut element);
                }
                '|' if next == Some('|') => {
                    self.at += 2;
                    spaced = true;
                    piped = false;
                    end_statement(&mut statements, &mut elements, &mut element);
                }
                '|' => {
                    self.bump();
                    spaced = true;
                    if element.tokens.is_empty() {
                        // A pipe that starts a line carries on the pipeline above it.
                        match (elements.is_empty(), statements.pop()) {
                            (true, Some(previous)) if !piped => elements = previous.elements,
                            (_, previous) => {
                                statements.extend(previous);
                                self.fail("a pipe with no command before it");
                            }
                        }
                    } else {
                        elements.push(std::mem::take(&mut element));
                    }
                    piped = true;
                }
                '&' if next == Some('&') => {
                    self.at += 2;
                    spaced = true;
                    piped = false;
                    end_statement(&mut statements, &mut elements, &mut element);
                }
                '&' if !element.tokens.is_empty() => {
                    // Run in the background: the statement ends here.
                    self.bump();
                    spaced = true;
                    piped = false;
                    end_statement(&mut statements, &mut elements, &mut element);
                }
                '#' => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                '<' if next == Some('#') => {
                    self.at += 2;
                    let mut closed = false;
                    while let Some(c) = self.bump() {
                        if c == '#' && self.peek() == Some('>') {
                            self.bump();
                            closed = true;
                            break;
                        }
                    }
                    if !closed {
                        self.fail("a `<#` comment is never closed");
                    }
                    spaced = true;
                }
                '`' if next == Some('\n')
                    || next == Some('\r') && self.peek_at(2) == Some('\n') =>
                {
                    // A line continued.
                    self.bump();
                    if self.peek() == Some('\r') {
                        self.bump();
                    }
                    self.bump();
                    spaced = true;
                }
                ')' | '}' => {
                    self.bump();
                    if Some(c) == close {
                        break;
                    }
                    self.fail(&format!("a `{c}` with nothing open before it"));
                }
                _ => {
                    let glued = !spaced && !element.tokens.is_empty();
                    let before = self.at;
                    let token = self.token(glued, element.tokens.is_empty());
                    if self.at == before {
                        // Never loop on a character nothing took.
                        self.bump();
                        self.fail(&format!("`{c}` where it can't be read"));
                        continue;
                    }
                    element.tokens.push(Tok { token, spaced });
                    spaced = false;
                    piped = false;
                }
            }
        }
        end_statement(&mut statements, &mut elements, &mut element);
        Script { statements }
    }

    /// A group's statements, up to its closer.
    fn nested(&mut self, close: char) -> Script {
        if self.depth >= MAX_DEPTH {
            self.fail("nesting too deep");
            self.at = self.chars.len();
            return Script::default();
        }
        self.depth += 1;
        let script = self.script(Some(close));
        self.depth -= 1;
        script
    }

    /// One token at the reader's place (which is not a blank, a separator or a comment).
    fn token(&mut self, glued: bool, first: bool) -> Token {
        let c = self.peek().unwrap_or(' ');
        let next = self.peek_at(1);
        if glued {
            if c == '.' && next.is_some_and(|n| n.is_alphabetic() || n == '_') {
                self.bump();
                return Token::Member(self.name());
            }
            if c == ':' && next == Some(':') {
                self.at += 2;
                return Token::Static(self.name());
            }
        }
        match c {
            '(' => {
                self.bump();
                Token::Group(Group::Paren, self.nested(')'))
            }
            '{' => {
                self.bump();
                Token::Group(Group::Block, self.nested('}'))
            }
            '$' if next == Some('(') => {
                self.at += 2;
                Token::Group(Group::Sub, self.nested(')'))
            }
            '@' if next == Some('(') => {
                self.at += 2;
                Token::Group(Group::Array, self.nested(')'))
            }
            '@' if next == Some('{') => {
                self.at += 2;
                Token::Group(Group::Hash, self.nested('}'))
            }
            '@' if next.is_some_and(|n| is_single_quote(n) || is_double_quote(n)) => {
                self.here_string()
            }
            '@' if next.is_some_and(is_name_char) => {
                self.bump();
                Token::Splat(self.name())
            }
            '[' => self.type_literal(),
            c if is_dash(c) && next == Some('-') && self.peek_at(2) == Some('%') => {
                self.at += 3;
                let mut rest = String::new();
                while let Some(c) = self.peek().filter(|&c| c != '\n' && c != '|') {
                    rest.push(c);
                    self.bump();
                }
                Token::Raw(rest.trim().to_string())
            }
            c if is_dash(c) && next.is_some_and(|n| n.is_alphabetic() || n == '_' || n == '?') => {
                self.param()
            }
            '>' => self.redirect(),
            '1'..='6' | '*' if next == Some('>') => {
                self.bump();
                self.redirect()
            }
            '<' => {
                self.bump();
                self.fail("the `<` operator is reserved");
                Token::Op("<".to_string())
            }
            ',' => {
                self.bump();
                Token::Op(",".to_string())
            }
            '=' | '!' => {
                self.bump();
                Token::Op(c.to_string())
            }
            '+' | '-' | '*' | '/' | '%' if next == Some('=') => {
                self.at += 2;
                Token::Op(format!("{c}="))
            }
            // `%` and `?` first in an element are ForEach-Object and Where-Object.
            '+' | '*' | '/' | '%' if glued || !first && next.is_none_or(char::is_whitespace) => {
                self.bump();
                Token::Op(c.to_string())
            }
            '.' if first && next.is_none_or(char::is_whitespace) => {
                self.bump();
                Token::Op(".".to_string())
            }
            '&' => {
                self.bump();
                Token::Op("&".to_string())
            }
            _ => self.word(),
        }
    }

    /// A name after `.`, `::` or `@`: letters, digits and `_`.
    fn name(&mut self) -> String {
        let mut name = String::new();
        while let Some(c) = self.peek().filter(|&c| is_name_char(c)) {
            name.push(c);
            self.bump();
        }
        name
    }

    /// The character a backtick escapes (the backtick already taken): `` `n``, `` `u{1F600}``.
    fn escape(&mut self) -> char {
        let c = self.bump().unwrap_or('`');
        if c == 'u' && self.peek() == Some('{') {
            let mut hex = String::new();
            let mut ahead = 1;
            while let Some(h) = self.peek_at(ahead).filter(char::is_ascii_hexdigit) {
                hex.push(h);
                ahead += 1;
            }
            if self.peek_at(ahead) == Some('}')
                && let Some(code) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32)
            {
                self.at += ahead + 1;
                return code;
            }
        }
        escaped(c)
    }

    /// `-Name` or `-Name:`; a dash word that isn't a parameter (`-Dkey=value`) is a word.
    fn param(&mut self) -> Token {
        let start = self.at;
        self.bump();
        let mut name = String::new();
        while let Some(c) = self.peek().filter(|&c| is_name_char(c) || c == '?') {
            name.push(c);
            self.bump();
        }
        let colon = self.peek() == Some(':') && self.peek_at(1) != Some(':');
        if colon {
            self.bump();
            return Token::Param { name, colon };
        }
        if self.peek().is_none_or(ends_word) {
            return Token::Param { name, colon };
        }
        self.at = start;
        self.word()
    }

    /// `[Type]`, with nested brackets (`[byte[]]`, `[List[string]]`).
    fn type_literal(&mut self) -> Token {
        self.bump();
        let mut depth = 1usize;
        let mut text = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            self.bump();
            match c {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        return Token::Type(text);
                    }
                }
                _ => {}
            }
            text.push(c);
        }
        self.fail("a `[` is never closed");
        Token::Type(text)
    }

    /// `>`, `>>`, `>&1` after any stream number, and its target.
    fn redirect(&mut self) -> Token {
        self.bump();
        let append = self.peek() == Some('>');
        if append {
            self.bump();
        }
        if self.peek() == Some('&') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            self.at += 2;
            return Token::Redirect(Redirect {
                append,
                target: None,
            });
        }
        while self.peek().is_some_and(is_blank) {
            self.bump();
        }
        let target = match self.peek() {
            None => None,
            Some(c) if ends_word(c) => None,
            Some(_) => Some(Box::new(self.token(false, false))),
        };
        if target.is_none() {
            self.fail("a redirect with no file after it");
        }
        Token::Redirect(Redirect { append, target })
    }

    /// A variable's name after `$`: `{any text}`, `$`, `^`, `?`, or letters, digits and `_`
    /// with one scope or drive before a colon (`env:HOME`). `None` when no name follows.
    fn var_name(&mut self) -> Option<String> {
        match self.peek()? {
            '{' => {
                self.bump();
                let mut name = String::new();
                while let Some(c) = self.bump() {
                    match c {
                        '}' => return Some(name),
                        '`' => name.extend(self.bump()),
                        c => name.push(c),
                    }
                }
                self.fail("a `${` is never closed");
                Some(name)
            }
            c @ ('$' | '^' | '?') => {
                self.bump();
                Some(c.to_string())
            }
            c if is_name_char(c) => {
                let mut name = self.name();
                if self.peek() == Some(':')
                    && self
                        .peek_at(1)
                        .is_some_and(|c| c.is_alphabetic() || c == '_')
                {
                    self.bump();
                    name.push(':');
                    name.push_str(&self.name());
                }
                Some(name)
            }
            _ => None,
        }
    }

    /// A bare word, with any strings, variables and subexpressions glued into it.
    fn word(&mut self) -> Token {
        let mut parts: Vec<Part> = Vec::new();
        let mut text = String::new();
        let quoted = self
            .peek()
            .is_some_and(|c| is_single_quote(c) || is_double_quote(c));
        // What the last part was: a quote's end or a variable stop some glued characters.
        let mut after_quote = false;
        let mut after_var = false;
        while let Some(c) = self.peek() {
            let next = self.peek_at(1);
            if ends_word(c) {
                break;
            }
            if (after_quote || after_var)
                && (c == '.' && next.is_some_and(|n| n.is_alphabetic() || n == '_')
                    || c == ':' && next == Some(':'))
            {
                break;
            }
            if after_quote && c == '+' || after_var && c == '[' {
                break;
            }
            // `$p='~'`, `$n+=1`: a word that is one variable ends at an assignment's operator,
            // as PowerShell reads it, so the assignment is one.
            if after_var
                && parts.len() == 1
                && text.is_empty()
                && (c == '=' || matches!(c, '+' | '-' | '*' | '/' | '%') && next == Some('='))
            {
                break;
            }
            after_quote = false;
            after_var = false;
            match c {
                c if is_single_quote(c) => {
                    self.bump();
                    self.single_quoted(&mut text);
                    after_quote = true;
                }
                c if is_double_quote(c) => {
                    self.bump();
                    self.double_quoted(&mut parts, &mut text, None);
                    after_quote = true;
                }
                '`' => {
                    self.bump();
                    match self.peek() {
                        Some('\n') | None => {
                            self.bump();
                            break;
                        }
                        Some('\r') if self.peek_at(1) == Some('\n') => {
                            self.at += 2;
                            break;
                        }
                        Some(_) => text.push(self.escape()),
                    }
                }
                '$' if next == Some('(') => {
                    self.at += 2;
                    flush(&mut parts, &mut text);
                    parts.push(Part::Sub(self.nested(')')));
                }
                '$' => {
                    self.bump();
                    match self.var_name() {
                        Some(name) => {
                            flush(&mut parts, &mut text);
                            parts.push(Part::Var(name));
                            after_var = true;
                        }
                        None => text.push('$'),
                    }
                }
                c => {
                    self.bump();
                    text.push(c);
                }
            }
        }
        flush(&mut parts, &mut text);
        if !quoted && let [Part::Var(name)] = parts.as_slice() {
            return Token::Var(name.clone());
        }
        Token::Word(Word { parts, quoted })
    }

    /// The rest of a single-quoted string: literal, `''` is one quote.
    fn single_quoted(&mut self, text: &mut String) {
        while let Some(c) = self.bump() {
            if is_single_quote(c) {
                if self.peek().is_some_and(is_single_quote) {
                    self.bump();
                    text.push('\'');
                    continue;
                }
                return;
            }
            text.push(c);
        }
        self.fail("a single quote is never closed");
    }

    /// The rest of a double-quoted string (or, with `here`, of an `@" … "@` here-string whose
    /// end is at that character index): backtick escapes, `""`, variables and `$( … )`.
    fn double_quoted(&mut self, parts: &mut Vec<Part>, text: &mut String, here: Option<usize>) {
        loop {
            if here.is_some_and(|end| self.at >= end) {
                return;
            }
            let Some(c) = self.bump() else { break };
            match c {
                c if here.is_none() && is_double_quote(c) => {
                    if self.peek().is_some_and(is_double_quote) {
                        self.bump();
                        text.push('"');
                        continue;
                    }
                    return;
                }
                '`' if self.peek().is_some() => text.push(self.escape()),
                '$' if self.peek() == Some('(') => {
                    self.bump();
                    flush(parts, text);
                    parts.push(Part::Sub(self.nested(')')));
                }
                '$' => match self.var_name() {
                    Some(name) => {
                        flush(parts, text);
                        parts.push(Part::Var(name));
                    }
                    None => text.push('$'),
                },
                c => text.push(c),
            }
        }
        if here.is_none() {
            self.fail("a double quote is never closed");
        }
    }

    /// `@' … '@` (literal) or `@" … "@` (expandable): the text between the line after the
    /// opener and the line that starts with the closer.
    fn here_string(&mut self) -> Token {
        let quote = self.peek_at(1).unwrap_or('\'');
        let expands = is_double_quote(quote);
        self.at += 2;
        while self.peek().is_some_and(is_blank) {
            self.bump();
        }
        if self.peek() != Some('\n') {
            self.fail("a here-string's text must start on the next line");
        }
        self.bump();
        let start = self.at;
        // The closer: a line that starts with the quote and `@`.
        let mut end = None;
        let mut line_start = start;
        // Only blanks so far on this line.
        let mut blank = true;
        let mut i = start;
        while let Some(&c) = self.chars.get(i) {
            if c == '\n' {
                line_start = i + 1;
                blank = true;
            } else if blank {
                let closes = if expands {
                    is_double_quote(c)
                } else {
                    is_single_quote(c)
                };
                if closes && self.chars.get(i + 1) == Some(&'@') {
                    end = Some((line_start, i + 2));
                    break;
                }
                blank = is_blank(c);
            }
            i += 1;
        }
        let Some((body_end, after)) = end else {
            self.fail("a here-string is never closed");
            let text: String = self.chars.get(start..).unwrap_or(&[]).iter().collect();
            self.at = self.chars.len();
            return Token::Word(Word {
                parts: vec![Part::Text(text)],
                quoted: true,
            });
        };
        // The newline before the closer is not part of the text.
        let body_end = body_end.saturating_sub(1).max(start);
        let mut parts = Vec::new();
        let mut text = String::new();
        if expands {
            self.double_quoted(&mut parts, &mut text, Some(body_end));
        } else {
            text = self
                .chars
                .get(start..body_end)
                .unwrap_or(&[])
                .iter()
                .collect();
        }
        flush(&mut parts, &mut text);
        self.at = after;
        Token::Word(Word {
            parts,
            quoted: true,
        })
    }
}

fn flush(parts: &mut Vec<Part>, text: &mut String) {
    if !text.is_empty() {
        parts.push(Part::Text(std::mem::take(text)));
    }
}

fn end_statement(
    statements: &mut Vec<Statement>,
    elements: &mut Vec<Element>,
    element: &mut Element,
) {
    if !element.tokens.is_empty() {
        elements.push(std::mem::take(element));
    }
    if !elements.is_empty() {
        statements.push(Statement {
            elements: std::mem::take(elements),
        });
    }
}
