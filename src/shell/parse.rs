//! The reader of one text: cuts it into pipelines and simple commands, walks through the
//! compound commands (`if`, `for`, `while`, `case`, `( … )`, `{ …; }`), and hands every
//! simple command to [`emit`], which takes its wrappers off and reads what it holds.
//!
//! Only nested texts recurse (substitutions, `bash -c`, `eval`…), at most
//! [`MAX_DEPTH`] deep and within a total budget of bytes, so no input can make the reader
//! slow or blow the stack.

use super::lex::{Lexer, Nested, Op, RedirTok, Tok, Word, collect_subs};
use super::wrap::{self, Held, Stdin};
use super::{Command, Redirect, RedirectOp, Via};

/// How deep texts may nest (`$(bash -c "$(…)")`…) before the line is unknown.
pub(super) const MAX_DEPTH: usize = 8;

/// How many redirects written after compound commands may be copied onto their commands, in
/// all (`{ a; b; …; } >x >y …` would otherwise grow as the product).
const MAX_REDIRECT_COPIES: usize = 4096;

/// How many compound commands may be open at once in one text.
const MAX_FRAMES: usize = 256;
/// The most functions of one line read again where they are called.
const MAX_FUNCTIONS: usize = 16;

/// The reserved words read in command position.
const RESERVED: [&str; 19] = [
    "!", "then", "else", "elif", "do", "coproc", "if", "while", "until", "for", "select", "case",
    "fi", "done", "esac", "{", "}", "function", "[[",
];

/// What all the texts of one line write to.
pub(super) struct Out {
    pub commands: Vec<Command>,
    pub unknown: Option<String>,
    /// The `for` loops read, innermost first: each one's variable, its items when they are
    /// literal words, and the commands of its body (`loops.rs`).
    pub loops: Vec<super::loops::Loop>,
    /// The functions defined, with the commands of their bodies (`functions.rs`).
    pub functions: Vec<super::functions::Function>,
    /// Commands that surely ran, in reading order, before every command after them up to
    /// the second index (`usize::MAX` for the line's end): each alone in its pipeline,
    /// ended by `;`, a newline, `&&` or `||`, and not itself after a `&&` or `||` in its
    /// list. One at the line's top reaches to its end; one in a loop's body, a `{ …; }` or a
    /// `( … )` reaches to the end of that body (an `if`'s or a `case`'s branches are none:
    /// another branch runs instead), and one at the top of a text read inside a command (a
    /// `sh -c` text, a substitution) to the end of that text (`vars.rs`).
    pub certain: Vec<(usize, usize)>,
    /// The commands of each loop's body and condition, which run again after the body's
    /// last: a variable set there holds, in the next round, before where it is set
    /// (`vars.rs`).
    pub repeats: Vec<std::ops::Range<usize>>,
    next_pipeline: usize,
    /// Bytes of nested text still allowed to be read.
    budget: usize,
    /// Redirects that may still be copied onto the commands of a compound command.
    copies: usize,
}

impl Out {
    pub fn new(len: usize) -> Out {
        Out {
            commands: Vec::new(),
            unknown: None,
            loops: Vec::new(),
            functions: Vec::new(),
            certain: Vec::new(),
            repeats: Vec::new(),
            next_pipeline: 0,
            budget: len.saturating_mul(16).saturating_add(1 << 16),
            copies: MAX_REDIRECT_COPIES,
        }
    }

    fn flag(&mut self, reason: &str) {
        if self.unknown.is_none() {
            self.unknown = Some(reason.to_string());
        }
    }

    fn new_pipeline(&mut self) -> usize {
        let p = self.next_pipeline;
        self.next_pipeline += 1;
        p
    }
}

/// Where a text was found.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scope {
    pub via: Via,
    pub parent: Option<usize>,
    pub sudo: bool,
    pub depth: usize,
}

/// Reads `text` as commands, appending them to `out`.
pub(super) fn parse_text(out: &mut Out, text: &str, scope: Scope) {
    if scope.depth > MAX_DEPTH {
        out.flag("nesting too deep");
        return;
    }
    if text.len() > out.budget {
        out.flag("too much nested text");
        return;
    }
    out.budget -= text.len();
    let mut p = Parser {
        lx: Lexer::new(text),
        pipe_start: out.commands.len(),
        out,
        scope,
        cur: Builder::default(),
        frames: Vec::new(),
        groups: 0,
        mode: Mode::Cmd,
        pipeline: None,
        stage: 0,
        closed: None,
        joined: false,
        members: Vec::new(),
        slots: Vec::new(),
        conditional: false,
        function: None,
        sure: Vec::new(),
    };
    p.run();
    let end = p.out.commands.len();
    let sure = std::mem::take(&mut p.sure);
    p.out.certain.extend(sure.into_iter().map(|at| (at, end)));
}

/// A simple command being read.
#[derive(Debug, Default)]
pub(super) struct Builder {
    words: Vec<Word>,
    assignments: Vec<(String, String)>,
    redirects: Vec<Redirect>,
    /// Here-documents: (index in `redirects`, index in the lexer's list).
    heredocs: Vec<(usize, usize)>,
    /// Substitutions in assignments and redirect targets.
    subs: Vec<Nested>,
}

impl Builder {
    fn is_empty(&self) -> bool {
        self.words.is_empty() && self.assignments.is_empty() && self.redirects.is_empty()
    }

    fn redirect(&mut self, r: RedirTok) {
        let mut target = r.target;
        self.subs.append(&mut target.nested);
        if let Some(h) = r.heredoc {
            self.heredocs.push((self.redirects.len(), h));
        }
        self.redirects.push(Redirect {
            fd: r.fd,
            op: r.op,
            target: target.text,
        });
    }
}

/// Where the command goes in the line.
#[derive(Debug, Clone, Copy)]
struct Meta {
    via: Via,
    parent: Option<usize>,
    sudo: bool,
    depth: usize,
    pipeline: usize,
    stage: usize,
}

/// Builds the command from `b`, appends it, then reads everything it holds. Returns its index
/// and what it makes of commands on its input, if it reads them.
fn emit(out: &mut Out, b: Builder, meta: Meta) -> (usize, Option<Stdin>) {
    let Builder {
        words: b_words,
        mut assignments,
        redirects,
        subs: mut all_subs,
        ..
    } = b;
    let mut words = Vec::with_capacity(b_words.len());
    for mut w in b_words {
        all_subs.append(&mut w.nested);
        match w.brace.take() {
            Some(items) => words.extend(items.iter().map(|i| Word::plain(i))),
            None => words.push(w),
        }
    }
    let stripped = wrap::strip(words);
    if stripped.too_many {
        out.flag("too many wrappers");
    }
    assignments.extend(stripped.assignments);
    let mut words = stripped.words;
    // `$(which python3) -c …` runs python3, as `python3 -c …` would.
    if let Some(first) = words.first_mut()
        && let Some(name) = super::program::located(&first.text)
    {
        first.text = name.to_string();
        first.dynamic = false;
    }
    let resolved = crate::catalogue::resolved(words.first().map_or("", |w| w.text.as_str()));
    // A program the option tables know (most commands are of none): its words written out
    // as it reads them.
    if crate::catalogue::options::known(&resolved).is_some() {
        super::options::write_out_subcommands(&resolved, &mut words);
        super::options::split_clusters(&resolved, &mut words, 0);
        super::options::write_out(&resolved, &mut words);
    }
    super::options::write_out_console(&resolved, &mut words);
    let holder = wrap::holder(&words, &assignments);
    // The program's basename in any case, compared without a lower-case copy.
    let program = words.first().map_or("", |w| wrap::basename(&w.text));
    let runs_as_other = [
        "sudo",
        "dzdo",
        "doas",
        "su",
        "runuser",
        "sudoedit",
        "pkexec",
        "run0",
        "newrole",
        // The desktops' front ends to su and sudo, and their look-alikes elsewhere.
        "gksu",
        "gksudo",
        "kdesu",
        "kdesudo",
        "beesu",
        "lxsudo",
        "lxqt-sudo",
        "xdg-su",
        "pfexec",
        "please",
    ]
    .iter()
    .any(|name| program.eq_ignore_ascii_case(name));
    let sudo = meta.sudo || stripped.sudo || runs_as_other;
    // A program word with an expansion may still name its program (`$PWD/build.sh`), or a
    // folder, which runs nothing (`$(dirname "$0")`): `program::known`.
    let dynamic_program = words
        .first()
        .is_some_and(|w| (w.dynamic && !super::program::known(&w.text)) || w.glob);
    let dynamic = dynamic_program || words.iter().any(|w| w.dynamic);
    let stdin = holder.stdin;
    let words: Vec<String> = words.into_iter().map(|w| w.text).collect();
    let cmd = Command {
        // Writing words out whole never changes the first.
        program: resolved,
        words,
        assignments,
        wrappers: stripped.wrappers,
        sudo,
        redirects,
        pipeline: meta.pipeline,
        stage: meta.stage,
        via: meta.via,
        parent: meta.parent,
        dynamic,
        dynamic_program,
        background: false,
    };
    let here_strings: Vec<String> = if stdin.is_some() {
        cmd.redirects
            .iter()
            .filter(|r| r.op == RedirectOp::HereString)
            .map(|r| r.target.clone())
            .collect()
    } else {
        Vec::new()
    };
    let idx = out.commands.len();
    out.commands.push(cmd);
    let inner = |via| Scope {
        via,
        parent: Some(idx),
        sudo,
        depth: meta.depth + 1,
    };
    for s in all_subs {
        parse_text(out, &s.text, inner(s.via));
    }
    if let Some(reason) = holder.unread {
        out.flag(reason);
    }
    for held in holder.held {
        match held {
            Held::Text(t, via) => parse_text(out, &t, inner(via)),
            Held::Words(words, via) => {
                if meta.depth + 1 > MAX_DEPTH {
                    out.flag("nesting too deep");
                    break;
                }
                let pipeline = out.new_pipeline();
                let b = Builder {
                    words,
                    ..Builder::default()
                };
                let m = Meta {
                    via,
                    parent: Some(idx),
                    sudo,
                    depth: meta.depth + 1,
                    pipeline,
                    stage: 0,
                };
                emit(out, b, m);
            }
        }
    }
    if let Some(t) = stripped.reparse {
        parse_text(out, &t, inner(Via::ShellC));
    }
    if let Some(kind) = stdin {
        for t in here_strings {
            parse_text(out, &kind.commands(&t), inner(kind.via()));
        }
    }
    (idx, stdin)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Paren,
    Brace,
    If,
    Loop,
    Case,
}

/// An open compound command.
#[derive(Debug)]
struct Frame {
    kind: Kind,
    /// The first command inside it.
    start: usize,
    /// The enclosing pipeline's state.
    saved: (Option<usize>, usize, usize),
    /// A `for` loop's variable and its items, `None` once an item is only known when it
    /// runs (`$(ls)`, `"$@"`) or there is no `in` list.
    binds: Option<(String, Option<Vec<String>>)>,
    /// A `while` loop: its condition may `read` lines from the stage before it.
    reads: bool,
    /// The body of the function of this name (`f() { …; }`, `function f { …; }`).
    function: Option<String>,
    /// Its commands that surely ran before the ones after them in it ([`Out::certain`]),
    /// noted when the body ends.
    sure: Vec<usize>,
    /// Whether what was before it was after a `&&` or `||`: its own list starts afresh.
    conditional: bool,
}

/// What the next words are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Cmd,
    ForHead { named: bool },
    ForIn,
    CaseSubject,
    CaseIn,
    CasePattern,
    FuncName,
}

/// A here-document redirect waiting for its body.
#[derive(Debug)]
struct Slot {
    heredoc: usize,
    cmd: usize,
    redirect: usize,
    /// What the command makes of a here-document's body, when it reads commands from it.
    stdin: Option<Stdin>,
    /// Read the body's substitutions (once per here-document, not per command of a group).
    collect: bool,
}

struct Parser<'o, 'a> {
    out: &'o mut Out,
    lx: Lexer<'a>,
    scope: Scope,
    cur: Builder,
    frames: Vec<Frame>,
    /// How many of `frames` are `( … )` or `{ …; }`.
    groups: usize,
    mode: Mode,
    pipeline: Option<usize>,
    stage: usize,
    /// The first command of the current pipeline.
    pipe_start: usize,
    /// Just after a compound command closed: its first command (its redirects apply to it all).
    closed: Option<usize>,
    /// The compound command just closed already joined the pipeline it is a stage of.
    joined: bool,
    /// The commands this text appended itself (not those nested in them), in order.
    members: Vec<usize>,
    slots: Vec<Slot>,
    /// After a `&&` or `||`: the commands up to the next `;` or newline may not run.
    conditional: bool,
    /// A function's name just read, waiting for its body.
    function: Option<String>,
    /// Commands at the top of a text read inside a command that surely ran before the ones
    /// after them in it ([`Out::certain`]), noted when the text ends.
    sure: Vec<usize>,
}

impl Parser<'_, '_> {
    fn run(&mut self) {
        loop {
            let cmd_start = self.cur.is_empty()
                && matches!(self.mode, Mode::Cmd | Mode::ForHead { named: false });
            let tok = self.lx.next(cmd_start);
            if let Some(r) = self.lx.unknown.take() {
                self.out.flag(r);
            }
            if let Tok::Eof = tok {
                break;
            }
            self.step(tok);
        }
        self.end_pipeline();
        if self.mode != Mode::Cmd {
            self.out.flag("unfinished for or case");
        }
        self.lx.read_bodies();
        if let Some(r) = self.lx.unknown.take() {
            self.out.flag(r);
        }
        self.resolve_heredocs();
        if let Some(f) = self.frames.last() {
            let reason = match f.kind {
                Kind::Paren => "unbalanced (",
                Kind::Brace => "unclosed {",
                Kind::If => "unclosed if",
                Kind::Loop => "unclosed loop",
                Kind::Case => "unclosed case",
            };
            self.out.flag(reason);
        }
    }

    fn step(&mut self, tok: Tok) {
        match self.mode {
            Mode::Cmd => self.command_token(tok),
            Mode::ForHead { named } => match tok {
                Tok::Word(w) if named && w.is_literal("in") => {
                    self.bind_items(Some(Vec::new()));
                    self.mode = Mode::ForIn;
                }
                Tok::Word(w) if named && w.is_literal("do") => self.mode = Mode::Cmd,
                Tok::Word(w) if !named => {
                    if !w.quoted && !w.dynamic && super::loops::is_name(&w.text) {
                        self.bind_name(&w.text);
                    }
                    self.orphans(w.nested);
                    self.mode = Mode::ForHead { named: true };
                }
                Tok::Arith(t) if !named => {
                    self.arith(&t);
                    self.mode = Mode::ForHead { named: true };
                }
                Tok::Op(Op::Semi) if named => {}
                Tok::Op(Op::Newline) if named => self.resolve_heredocs(),
                other => self.unexpected(other, "unreadable for"),
            },
            Mode::ForIn => match tok {
                Tok::Word(w) => {
                    self.bind_item(&w);
                    self.orphans(w.nested);
                }
                Tok::Op(Op::Semi) => self.mode = Mode::Cmd,
                Tok::Op(Op::Newline) => {
                    self.mode = Mode::Cmd;
                    self.resolve_heredocs();
                }
                other => self.unexpected(other, "unreadable for"),
            },
            Mode::CaseSubject => match tok {
                Tok::Word(w) => {
                    self.orphans(w.nested);
                    self.mode = Mode::CaseIn;
                }
                other => self.unexpected(other, "unreadable case"),
            },
            Mode::CaseIn => match tok {
                Tok::Word(w) if w.is_literal("in") => self.mode = Mode::CasePattern,
                Tok::Op(Op::Newline) => self.resolve_heredocs(),
                other => self.unexpected(other, "unreadable case"),
            },
            Mode::CasePattern => match tok {
                Tok::Word(w) if w.is_literal("esac") => {
                    self.mode = Mode::Cmd;
                    self.close(Kind::Case);
                }
                Tok::Word(w) => self.orphans(w.nested),
                Tok::Op(Op::Newline) => self.resolve_heredocs(),
                Tok::Op(Op::Semi | Op::LParen | Op::Pipe) => {}
                Tok::Op(Op::RParen) => self.mode = Mode::Cmd,
                other => self.unexpected(other, "unreadable case"),
            },
            Mode::FuncName => match tok {
                Tok::Word(w) => {
                    self.function = Some(w.text.clone());
                    self.lx.eat_empty_parens();
                    self.mode = Mode::Cmd;
                }
                other => self.unexpected(other, "unreadable function"),
            },
        }
    }

    /// The variable of the `for` loop just opened.
    fn bind_name(&mut self, name: &str) {
        if let Some(f) = self.frames.last_mut()
            && f.kind == Kind::Loop
        {
            f.binds = Some((name.to_string(), None));
        }
    }

    /// The loop's list starts (`in`): empty, filled by [`Parser::bind_item`].
    fn bind_items(&mut self, items: Option<Vec<String>>) {
        if let Some(Frame {
            kind: Kind::Loop,
            binds: Some((_, list)),
            ..
        }) = self.frames.last_mut()
        {
            *list = items;
        }
    }

    /// One word of the loop's list: kept when it is literal (a glob or a brace list is, as
    /// bash expands it); anything only known when it runs makes the list unknown.
    fn bind_item(&mut self, w: &Word) {
        if let Some(Frame {
            kind: Kind::Loop,
            binds: Some((_, list)),
            ..
        }) = self.frames.last_mut()
        {
            let known = !w.dynamic && w.nested.is_empty() && !w.text.contains(['$', '`']);
            // `$(echo WORDS)` written out is the words it prints, split as an unquoted use
            // splits them (`for d in $(echo ~ build)`): each a word of the list.
            let printed = (!known && super::vars::mentions_printing(&w.text))
                .then(|| super::vars::echoed(&w.text))
                .flatten()
                .filter(|text| {
                    text.split_whitespace().all(|item| {
                        !item
                            .strip_prefix("$HOME")
                            .unwrap_or(item)
                            .contains(['$', '`'])
                    })
                });
            match (list.as_mut(), known, &w.brace, printed) {
                (Some(items), true, Some(brace), _) => items.extend(brace.iter().cloned()),
                (Some(items), true, None, _) => items.push(w.text.clone()),
                (Some(items), false, _, Some(text)) => {
                    items.extend(text.split_whitespace().map(str::to_string));
                }
                _ => *list = None,
            }
        }
    }

    /// A token the current mode did not expect: flag, then read it as a command's.
    fn unexpected(&mut self, tok: Tok, reason: &str) {
        self.out.flag(reason);
        self.mode = Mode::Cmd;
        self.command_token(tok);
    }

    fn command_token(&mut self, tok: Tok) {
        match tok {
            Tok::Eof => {}
            Tok::Op(Op::Newline) => {
                self.end_noting(false);
                self.resolve_heredocs();
            }
            Tok::Op(Op::Semi) => self.end_noting(false),
            Tok::Op(Op::AndAnd | Op::OrOr) => self.end_noting(true),
            Tok::Op(Op::CaseEnd) => {
                self.end_pipeline();
                if self.frames.last().is_some_and(|f| f.kind == Kind::Case) {
                    self.mode = Mode::CasePattern;
                } else {
                    self.out.flag("unexpected ;;");
                }
            }
            Tok::Op(Op::Amp) => {
                self.finish();
                for i in self.members_from(self.pipe_start) {
                    if let Some(c) = self.out.commands.get_mut(i) {
                        c.background = true;
                    }
                }
                self.end_pipeline();
            }
            Tok::Op(Op::Pipe) => {
                self.join_closed();
                self.finish();
                self.closed = None;
                self.stage += 1;
            }
            Tok::Op(Op::PipeAmp) => {
                self.join_closed();
                if let Some(i) = self.finish()
                    && let Some(c) = self.out.commands.get_mut(i)
                {
                    c.redirects.push(Redirect {
                        fd: Some(2),
                        op: RedirectOp::Dup,
                        target: "1".into(),
                    });
                }
                self.closed = None;
                self.stage += 1;
            }
            Tok::Op(Op::LParen) => {
                if self.at_command_start() {
                    self.open(Kind::Paren);
                } else if self.cur.words.len() == 1
                    && self.cur.assignments.is_empty()
                    && self.cur.redirects.is_empty()
                    && self.lx.eat_close_paren()
                {
                    // `name () body`: a function definition; its body is read as commands,
                    // and again where it is called (`functions.rs`).
                    self.function = self.cur.words.first().map(|w| w.text.clone());
                    self.cur = Builder::default();
                } else {
                    self.out.flag("unexpected (");
                    self.finish();
                    self.open(Kind::Paren);
                }
            }
            Tok::Op(Op::RParen) => {
                if self.frames.last().is_some_and(|f| f.kind == Kind::Paren) {
                    self.close(Kind::Paren);
                } else {
                    self.end_pipeline();
                    self.out.flag("unbalanced )");
                }
            }
            Tok::Redir(r) => {
                if self.cur.is_empty()
                    && let Some(start) = self.closed
                {
                    self.group_redirect(start, r);
                } else {
                    self.cur.redirect(r);
                }
            }
            Tok::Arith(t) => self.arith(&t),
            Tok::Word(w) => self.word(w),
        }
    }

    fn word(&mut self, w: Word) {
        if !w.quoted && !w.dynamic && RESERVED.contains(&w.text.as_str()) && self.at_command_start()
        {
            match w.text.as_str() {
                "!" | "then" | "else" | "elif" | "do" | "coproc" => {
                    self.closed = None;
                    // A loop's condition, or a branch, ends: what surely ran there reaches
                    // no further.
                    self.note_sure();
                    return;
                }
                "if" => return self.open(Kind::If),
                "while" => {
                    self.open(Kind::Loop);
                    if let Some(f) = self.frames.last_mut() {
                        f.reads = true;
                    }
                    return;
                }
                "until" => return self.open(Kind::Loop),
                "for" | "select" => {
                    self.open(Kind::Loop);
                    self.mode = Mode::ForHead { named: false };
                    return;
                }
                "case" => {
                    self.open(Kind::Case);
                    self.mode = Mode::CaseSubject;
                    return;
                }
                "fi" => return self.close(Kind::If),
                "done" => return self.close(Kind::Loop),
                "esac" => return self.close(Kind::Case),
                "{" => return self.open(Kind::Brace),
                "}" => return self.close(Kind::Brace),
                "function" => {
                    self.mode = Mode::FuncName;
                    return;
                }
                "[[" => return self.conditional(w),
                _ => {}
            }
        }
        if self.cur.is_empty() && self.closed.take().is_some() {
            self.out.flag("word after a compound command");
        }
        if self.cur.words.is_empty()
            && let Some((name_end, value_start)) = w.assign
        {
            let mut w = w;
            let name = w.text.get(..name_end).unwrap_or("").to_string();
            let value = w.text.get(value_start..).unwrap_or("").to_string();
            self.cur.subs.append(&mut w.nested);
            self.cur.assignments.push((name, value));
            return;
        }
        self.cur.words.push(w);
    }

    /// `[[ … ]]`: its operators are words, not cuts or redirects.
    fn conditional(&mut self, first: Word) {
        self.cur.words.push(first);
        loop {
            match self.lx.cond_word() {
                Some(w) => {
                    let end = w.is_literal("]]");
                    self.cur.words.push(w);
                    if end {
                        return;
                    }
                }
                None => {
                    self.out.flag("unterminated [[");
                    return;
                }
            }
        }
    }

    /// `(( … ))`: nothing runs but its substitutions.
    fn arith(&mut self, t: &str) {
        let (subs, bad) = collect_subs(t.as_bytes());
        if bad {
            self.out.flag("unbalanced $(");
        }
        self.orphans(subs);
    }

    /// Substitutions outside any simple command (`for x in $(ls)`, `case $(…) in`).
    fn orphans(&mut self, subs: Vec<Nested>) {
        let scope = self.scope;
        for s in subs {
            let inner = Scope {
                via: s.via,
                parent: scope.parent,
                sudo: scope.sudo,
                depth: scope.depth + 1,
            };
            parse_text(self.out, &s.text, inner);
        }
    }

    /// Redirects written after `)`, `}`, `done`, `fi` or `esac` apply to every command inside.
    fn group_redirect(&mut self, start: usize, r: RedirTok) {
        let mut target = r.target;
        let subs = std::mem::take(&mut target.nested);
        // `while read d; do …; done < <(echo ~)`: a compound that reads a line into a
        // variable first, fed by a process substitution, is a loop over what it prints.
        let body_end = self.out.commands.len();
        let fed = r.op == RedirectOp::Read
            && matches!(r.fd, None | Some(0))
            && target.text.starts_with("<(");
        let reads_into = fed
            .then(|| super::loops::read_into(self.out.commands.get(start)?))
            .flatten();
        let mut first = None;
        for i in self.members_from(start) {
            let Some(c) = self.out.commands.get_mut(i) else {
                continue;
            };
            first.get_or_insert(i);
            if self.out.copies == 0 {
                self.out
                    .unknown
                    .get_or_insert_with(|| "too many redirects".to_string());
                break;
            }
            self.out.copies -= 1;
            if let Some(h) = r.heredoc {
                self.slots.push(Slot {
                    heredoc: h,
                    cmd: i,
                    redirect: c.redirects.len(),
                    stdin: None,
                    collect: first == Some(i),
                });
            }
            c.redirects.push(Redirect {
                fd: r.fd,
                op: r.op,
                target: target.text.clone(),
            });
        }
        let scope = self.scope;
        for s in subs {
            let inner = Scope {
                via: s.via,
                parent: first.or(scope.parent),
                sudo: scope.sudo,
                depth: scope.depth + 1,
            };
            let from = self.out.commands.len();
            parse_text(self.out, &s.text, inner);
            if let Some(name) = &reads_into
                && s.via == Via::ProcessSubstitution
                && let Some(items) = self
                    .out
                    .commands
                    .get(from..)
                    .and_then(|made| {
                        made.iter()
                            .filter(|c| c.parent == inner.parent && c.via == s.via)
                            .max_by_key(|c| c.stage)
                    })
                    .and_then(super::loops::lines_of)
            {
                self.out.loops.push(super::loops::Loop {
                    name: name.clone(),
                    items,
                    body: start + 1..body_end,
                });
            }
        }
    }

    /// Whether a reserved word or `(` would start a command here: nothing read yet, or only
    /// the `time` keyword (`time { a; b; }`, `time ( … )`), which is then dropped.
    fn at_command_start(&mut self) -> bool {
        if self.cur.is_empty() {
            return true;
        }
        let time_only = self.cur.assignments.is_empty()
            && self.cur.redirects.is_empty()
            && self.cur.words.first().is_some_and(|w| w.is_literal("time"))
            && self.cur.words.iter().skip(1).all(|w| w.is_literal("-p"));
        if time_only {
            self.cur = Builder::default();
        }
        time_only
    }

    fn open(&mut self, kind: Kind) {
        self.finish();
        if self.frames.len() >= MAX_FRAMES {
            self.out.flag("nesting too deep");
            return;
        }
        let start = self.out.commands.len();
        self.frames.push(Frame {
            kind,
            start,
            saved: (self.pipeline, self.stage, self.pipe_start),
            binds: None,
            reads: false,
            function: if matches!(kind, Kind::Paren | Kind::Brace) {
                self.function.take()
            } else {
                None
            },
            sure: Vec::new(),
            conditional: std::mem::take(&mut self.conditional),
        });
        if matches!(kind, Kind::Paren | Kind::Brace) {
            self.groups += 1;
        }
        self.pipeline = None;
        self.stage = 0;
        self.pipe_start = start;
        self.closed = None;
    }

    fn close(&mut self, kind: Kind) {
        self.end_pipeline();
        let Some(at) = self.frames.iter().rposition(|f| f.kind == kind) else {
            self.out.flag(match kind {
                Kind::Paren => "unbalanced )",
                Kind::Brace => "unbalanced }",
                _ => "unbalanced keyword",
            });
            return;
        };
        if at + 1 != self.frames.len() {
            self.out.flag("unbalanced keyword");
        }
        let mut last = None;
        while self.frames.len() > at {
            self.note_sure();
            if let Some(f) = self.frames.pop() {
                if matches!(f.kind, Kind::Paren | Kind::Brace) {
                    self.groups = self.groups.saturating_sub(1);
                }
                self.conditional = f.conditional;
                last = Some(f);
            }
        }
        if let Some(f) = last {
            if f.kind == Kind::Loop {
                self.out.repeats.push(f.start..self.out.commands.len());
            }
            if let Some(name) = &f.function
                && self.out.functions.len() < MAX_FUNCTIONS
            {
                self.out.functions.push(super::functions::Function {
                    name: name.clone(),
                    body: f.start..self.out.commands.len(),
                });
            }
            if let Some((name, Some(items))) = &f.binds {
                self.out.loops.push(super::loops::Loop {
                    name: name.clone(),
                    items: items.clone(),
                    body: f.start..self.out.commands.len(),
                });
            }
            if f.reads
                && let Some(lp) = self.read_loop(&f)
            {
                self.out.loops.push(lp);
            }
            (self.pipeline, self.stage, self.pipe_start) = f.saved;
            self.closed = Some(f.start);
            self.joined = false;
            if self.stage > 0 {
                // `a | { b; c; }`: the compound command is a stage of the pipeline.
                self.join_closed();
            }
        }
        if kind == Kind::Case {
            self.mode = Mode::Cmd;
        }
    }

    /// `CMD | while read -r f; do …; done`: the loop's variable is each line `CMD` writes,
    /// when it writes names of files (`loops::lines_of`).
    fn read_loop(&self, f: &Frame) -> Option<super::loops::Loop> {
        let (Some(pipeline), stage, _) = f.saved else {
            return None;
        };
        let name = super::loops::read_into(self.out.commands.get(f.start)?)?;
        let producer = self
            .members
            .iter()
            .rev()
            .filter(|&&i| i < f.start)
            .filter_map(|&i| self.out.commands.get(i))
            .find(|c| c.pipeline == pipeline && c.stage + 1 == stage)?;
        Some(super::loops::Loop {
            name,
            items: super::loops::lines_of(producer)?,
            body: f.start + 1..self.out.commands.len(),
        })
    }

    /// The commands this text appended from index `start` on.
    fn members_from(&self, start: usize) -> Vec<usize> {
        let at = self.members.partition_point(|&i| i < start);
        self.members.get(at..).unwrap_or(&[]).to_vec()
    }

    /// When the compound command just closed is a stage of a pipeline (`{ curl x; } | sh`),
    /// its commands join that pipeline: their stages are offset by the compound's stage, and
    /// the stages after it come after all of theirs.
    fn join_closed(&mut self) {
        let Some(start) = self.closed else { return };
        if !self.cur.is_empty() || self.joined {
            return;
        }
        self.joined = true;
        let members = self.members_from(start);
        let first = members.first().and_then(|&i| self.out.commands.get(i));
        let pipeline = match (self.pipeline, first) {
            (Some(p), _) => p,
            // The compound command is the first stage: its first pipeline becomes the outer one.
            (None, Some(c)) => c.pipeline,
            (None, None) => self.out.new_pipeline(),
        };
        self.pipeline = Some(pipeline);
        let base = self.stage;
        let mut last = base;
        for i in members {
            if let Some(c) = self.out.commands.get_mut(i) {
                c.pipeline = pipeline;
                c.stage += base;
                last = last.max(c.stage);
            }
        }
        self.stage = last;
    }

    /// Appends the command being read, if any.
    fn finish(&mut self) -> Option<usize> {
        if self.cur.is_empty() {
            return None;
        }
        let b = std::mem::take(&mut self.cur);
        self.closed = None;
        let pipeline = match self.pipeline {
            Some(p) => p,
            None => {
                let p = self.out.new_pipeline();
                self.pipeline = Some(p);
                p
            }
        };
        let via = if self.groups > 0 {
            Via::Group
        } else {
            self.scope.via
        };
        let meta = Meta {
            via,
            parent: self.scope.parent,
            sudo: self.scope.sudo,
            depth: self.scope.depth,
            pipeline,
            stage: self.stage,
        };
        let heredocs = b.heredocs.clone();
        let (idx, stdin) = emit(self.out, b, meta);
        if let Some(kind) = stdin {
            self.piped_text(idx, kind, meta);
        }
        self.members.push(idx);
        for (redirect, heredoc) in heredocs {
            self.slots.push(Slot {
                heredoc,
                cmd: idx,
                redirect,
                stdin,
                collect: true,
            });
        }
        Some(idx)
    }

    /// `echo 'rm -rf ~' | sh`, `printf … | at now`: what the stage before a command that reads
    /// commands from its input writes, when it is a literal `echo` or `printf`, is read as
    /// commands of that command.
    fn piped_text(&mut self, idx: usize, kind: Stdin, meta: Meta) {
        if meta.stage == 0 {
            return;
        }
        // The stage before is the last command this text appended (nested ones are not members).
        // A stage that passes its input on unchanged (`cat`, `cat -`, `tee FILE`) is looked
        // through: `printf 'rm -rf ~' | tee log | sh` runs the printed text.
        let mut stage = meta.stage;
        let mut before = None;
        for &i in self.members.iter().rev().take(8) {
            let Some(c) = self.out.commands.get(i) else {
                break;
            };
            if c.pipeline != meta.pipeline || c.stage + 1 != stage {
                break;
            }
            if passes_input_on(c) {
                stage = c.stage;
                continue;
            }
            before = Some(c);
            break;
        }
        // A literal text, or a line made of each line it reads (`sed 's/^/rm /'`): what
        // runs for each one, with the line only known when it runs.
        let Some(text) =
            before.and_then(|c| super::runs::echoed(c).or_else(|| super::runs::templated(c)))
        else {
            return;
        };
        let sudo = self.out.commands.get(idx).is_some_and(|c| c.sudo);
        let scope = Scope {
            via: kind.via(),
            parent: Some(idx),
            sudo,
            depth: meta.depth + 1,
        };
        parse_text(self.out, &kind.commands(&text), scope);
    }

    /// Ends the pipeline at a `;`, a newline (`and_or` false), `&&` or `||` (true), noting
    /// its command as surely run when it is one of [`Out::certain`].
    fn end_noting(&mut self, and_or: bool) {
        let start = self.pipe_start;
        let alone = self.closed.is_none() && self.stage == 0 && !self.conditional;
        let top = self.scope.depth == 0
            && self.scope.parent.is_none()
            && matches!(self.scope.via, Via::Top)
            && self.frames.is_empty();
        self.end_pipeline();
        let at = self.members.partition_point(|&i| i < start);
        if alone && let Some(&[only]) = self.members.get(at..) {
            match self.frames.last_mut() {
                None if top => self.out.certain.push((only, usize::MAX)),
                None => self.sure.push(only),
                Some(frame) if matches!(frame.kind, Kind::Loop | Kind::Brace | Kind::Paren) => {
                    frame.sure.push(only);
                }
                Some(_) => {}
            }
        }
        self.conditional = and_or;
    }

    /// The innermost body's commands that surely ran reach to here.
    fn note_sure(&mut self) {
        let end = self.out.commands.len();
        if let Some(frame) = self.frames.last_mut() {
            let sure = std::mem::take(&mut frame.sure);
            self.out
                .certain
                .extend(sure.into_iter().map(|at| (at, end)));
        }
    }

    fn end_pipeline(&mut self) {
        self.finish();
        self.pipeline = None;
        self.stage = 0;
        self.pipe_start = self.out.commands.len();
        self.closed = None;
    }

    /// Fills the here-documents whose bodies have been read, and reads what they hold.
    fn resolve_heredocs(&mut self) {
        let mut waiting = Vec::new();
        for slot in std::mem::take(&mut self.slots) {
            let Some(hd) = self.lx.heredocs.get(slot.heredoc) else {
                continue;
            };
            let Some(body) = hd.body.clone() else {
                waiting.push(slot);
                continue;
            };
            let quoted = hd.quoted;
            let Some(cmd) = self.out.commands.get_mut(slot.cmd) else {
                continue;
            };
            if let Some(r) = cmd.redirects.get_mut(slot.redirect) {
                r.target.clone_from(&body);
            }
            let (sudo, depth) = (cmd.sudo, self.scope.depth + 1);
            let inner = |via| Scope {
                via,
                parent: Some(slot.cmd),
                sudo,
                depth,
            };
            if let Some(kind) = slot.stdin {
                let scope = inner(kind.via());
                parse_text(self.out, &kind.commands(&body), scope);
            } else if !quoted && slot.collect {
                let scope = inner(Via::Substitution);
                let (subs, bad) = collect_subs(body.as_bytes());
                if bad {
                    self.out.flag("unbalanced $(");
                }
                for s in subs {
                    parse_text(
                        self.out,
                        &s.text,
                        Scope {
                            via: s.via,
                            ..scope
                        },
                    );
                }
            }
        }
        self.slots = waiting;
    }
}

/// A stage that writes its input to its output unchanged: `cat` with no file but `-`, `tee`
/// (whatever files it also writes).
pub(crate) fn passes_input_on(cmd: &super::Command) -> bool {
    let args = cmd.args();
    let passes = match cmd.program() {
        "cat" => args.iter().all(|a| a == "-" || a == "-u"),
        "tee" => args
            .iter()
            .all(|a| !matches!(a.as_str(), "--help" | "--version")),
        _ => false,
    };
    passes && cmd.redirects.is_empty()
}
