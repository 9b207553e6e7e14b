//! Variables the line sets to a value written out, read where it uses them: `d=/; rm -rf
//! $d`, `export D=~ && rm -rf "$D"`, `cfg=~/.bashrc; echo x >> $cfg`. Without this, each was
//! a place only known when it runs, and the circuit breaker and the startup files were one
//! assignment away.
//!
//! A value is known when it is written out: no substitution, and no variable but `$HOME`
//! (which the law reads as the home folder). `$(echo WORDS)` and `` `echo WORDS` `` are read as
//! their words too (`rm -rf "$(echo ~)"`).
//!
//! Where the value is sure, it takes the variable's place: the line sets the variable once,
//! to a value with no blank in it, in a command that surely ran before the ones after it
//! (alone in its pipeline, at the top of the line, outside any compound command and not after
//! a `&&` or `||`: `OUT=target/log.txt; cargo test > "$OUT"`), and nothing else in the line
//! may set it (`read`, `unset`, a loop, `${d:=…}`, `IFS`). Elsewhere what it reads can only
//! add to a line, never take away: each command that uses such a variable is kept as
//! written, and a copy with the value in its place is added beside it. Whether the
//! assignment ran before the command (`true || d=build; rm -rf "$d"/*` runs with `$d`
//! empty) is not known there, so the copy is no proof of safety; it only shows what the line
//! does when the assignment ran. Bounded: at most [`MAX_VALUES`] values a variable and
//! [`MAX_COPIES`] copies a line.

use super::loops::{is_name, put};
use super::parse::{Out, Scope, parse_text};
use super::{Command, Via};

/// The most values one variable is read with.
const MAX_VALUES: usize = 4;
/// The most copies a line gets.
const MAX_COPIES: usize = 16;

/// Puts in the place of each `$(dirname PATH)` and `$(basename PATH [SUFFIX])` (or its
/// backquoted form) what it prints, where the path is written out: `mv "$f"
/// "$(dirname "$f")/old-$(basename "$f")"` in a loop over `src/*.ts` writes `src/old-*.ts`,
/// and `d=$(dirname ~/.bashrc/x)` holds the home folder's startup file's place. Both tools
/// only cut text, so what they print is known exactly; anything else substituted stays only
/// known when it runs. Called before [`bind`], so a variable set to one is a value written
/// out.
pub(super) fn cut_paths(out: &mut Out) {
    for cmd in &mut out.commands {
        let mentions = |w: &str| w.contains("dirname") || w.contains("basename");
        if !cmd.words.iter().any(|w| mentions(w))
            && !cmd.redirects.iter().any(|r| mentions(&r.target))
            && !cmd.assignments.iter().any(|(_, v)| mentions(v))
        {
            continue;
        }
        let Some((words, targets)) = cmd.texts_read(is_place, |w| Some(path_cuts(w))) else {
            continue;
        };
        let mut read = rebuilt(cmd, words, targets);
        for (_, value) in &mut read.assignments {
            *value = path_cuts(value);
        }
        *cmd = read;
    }
}

/// `text` with each `$(dirname PATH)`, `$(basename PATH [SUFFIX])` and backquoted one
/// whose path is written out replaced by what it prints.
fn path_cuts(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let next = [rest.find("$("), rest.find('`')]
            .into_iter()
            .flatten()
            .min();
        let Some(at) = next else {
            break;
        };
        let (open, close) = if rest[at..].starts_with("$(") {
            ("$(", ')')
        } else {
            ("`", '`')
        };
        let inner_start = at + open.len();
        let Some(len) = rest[inner_start..].find(close) else {
            break;
        };
        let inner = &rest[inner_start..inner_start + len];
        out.push_str(&rest[..at]);
        match cut_path(inner) {
            Some(printed) => out.push_str(&printed),
            None => out.push_str(&rest[at..inner_start + len + 1]),
        }
        rest = &rest[inner_start + len + 1..];
    }
    out.push_str(rest);
    out
}

/// What `dirname PATH` or `basename PATH [SUFFIX]` (`--` allowed before the path) prints,
/// when the path is written out: no blank, quote inside, `\`, `~` or substitution, and no
/// variable but `$HOME` at its start.
fn cut_path(command: &str) -> Option<String> {
    let mut words = command.split_whitespace();
    let tool = words.next()?;
    let mut path = words.next()?;
    if path == "--" {
        path = words.next()?;
    }
    let suffix = words.next();
    if words.next().is_some() {
        return None;
    }
    let unquote = |w: &'_ str| -> Option<String> {
        // A `~` bare at the start is the home folder, as the shell expands it there.
        let tilde = (w == "~" || w.starts_with("~/")).then(|| format!("$HOME{}", &w[1..]));
        let bare = tilde.as_deref().unwrap_or_else(|| {
            w.strip_prefix('"')
                .and_then(|w| w.strip_suffix('"'))
                .or_else(|| w.strip_prefix('\'').and_then(|w| w.strip_suffix('\'')))
                .unwrap_or(w)
        });
        let home = bare.strip_prefix("$HOME").unwrap_or(bare);
        (!bare.is_empty()
            && !home.contains([
                '"', '\'', '\\', '`', '$', '~', '(', ')', ';', '&', '|', '<', '>',
            ]))
        .then(|| bare.to_string())
    };
    let path = unquote(path)?;
    match (tool, suffix) {
        ("dirname", None) => Some(dirname(&path)),
        ("basename", None) => Some(basename(&path, "")),
        ("basename", Some(suffix)) if !suffix.starts_with('-') => {
            let suffix = unquote(suffix)?;
            (!suffix.contains(['/', '$'])).then(|| basename(&path, &suffix))
        }
        _ => None,
    }
}

/// What POSIX `dirname` prints for `path`.
fn dirname(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.is_empty() { "." } else { "/" }.to_string();
    }
    match trimmed.rfind('/') {
        None => ".".to_string(),
        Some(slash) => {
            let folder = trimmed[..slash].trim_end_matches('/');
            if folder.is_empty() { "/" } else { folder }.to_string()
        }
    }
}

/// What POSIX `basename` prints for `path`, with `suffix` cut off its end unless that is
/// all of it.
fn basename(path: &str, suffix: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.is_empty() { "" } else { "/" }.to_string();
    }
    let name = trimmed.rsplit('/').next().unwrap_or(trimmed);
    match name.strip_suffix(suffix) {
        Some(cut) if !suffix.is_empty() && !cut.is_empty() => cut.to_string(),
        _ => name.to_string(),
    }
}

/// Adds, after the line's commands, a copy of each command that uses a variable the line
/// set to a value written out, with the value in its place.
pub(super) fn bind(out: &mut Out) {
    let echoed = out.commands.iter().any(mentions_echo);
    let assigned = out.commands.iter().any(|c| !bindings(c).is_empty());
    if !echoed && !assigned {
        return;
    }
    // Each variable's known values, with the command after which it holds them: a value
    // that echoes what is written out is what it prints (`d=$(echo ~)` is the home folder;
    // an assignment's value is not split, so a blank in it stays).
    let mut vars: Vec<(String, usize, String)> = Vec::new();
    for (at, cmd) in out.commands.iter().enumerate() {
        for (name, value) in bindings(cmd) {
            let values = vars.iter().filter(|(n, _, _)| n == name).count();
            let printed = mentions_printing(value)
                .then(|| self::echoed(value))
                .flatten();
            let value = printed.as_deref().unwrap_or(value);
            if values < MAX_VALUES && known(value) {
                vars.push((name.to_string(), at, value.to_string()));
            }
        }
    }
    // What an echo of words written out prints is known exactly: with no blank in it, it
    // takes the substitution's place (`$(echo ls)` runs `ls`).
    if echoed {
        for cmd in &mut out.commands {
            if let Some((read, false)) = echoes_read(cmd) {
                *cmd = read;
            }
        }
    }
    // The variables whose value is sure after the command that set it, up to where.
    let sure: Vec<(String, usize, String, usize)> = vars
        .iter()
        .filter_map(|(name, at, value)| {
            let (_, until) = out.certain.iter().find(|(sure, _)| sure == at)?;
            (vars.iter().filter(|(n, _, _)| n == name).count() == 1
                && !value.contains(char::is_whitespace)
                && !set_otherwise(out, name))
            .then(|| (name.clone(), *at, value.clone(), *until))
        })
        .collect();
    for (name, set_at, value, until) in &sure {
        let reach = until.saturating_sub(set_at + 1);
        for cmd in out.commands.iter_mut().skip(set_at + 1).take(reach) {
            if cmd.dynamic_program {
                continue;
            }
            if let Some(read) = with_value(cmd, name, value) {
                *cmd = read;
            }
        }
    }
    // One sure only inside a body still holds after it, where it is read as a copy.
    vars.retain(|(name, at, value)| {
        !sure.iter().any(|(n, sure_at, v, until)| {
            *until == usize::MAX && n == name && sure_at == at && v == value
        })
    });
    let mut copies: Vec<Command> = Vec::new();
    for (at, cmd) in out.commands.iter().enumerate() {
        if copies.len() >= MAX_COPIES {
            break;
        }
        if !cmd.dynamic
            && cmd
                .redirects
                .iter()
                .all(|r| !is_place(r) || !r.target.contains(['$', '`']))
        {
            continue;
        }
        // A program named by a variable is read again by `written::values`, words and all.
        for (name, set_at, value) in vars.iter().filter(|_| !cmd.dynamic_program) {
            // Before where it is set, only in a loop that holds both: the next round reads
            // what the last one set (`for f in a b; do rm -rf $d; d=~; done`).
            let again = || {
                out.repeats
                    .iter()
                    .any(|body| body.contains(&at) && body.contains(set_at))
            };
            if (at <= *set_at && !again()) || copies.len() >= MAX_COPIES {
                continue;
            }
            if let Some(copy) = with_value(cmd, name, value) {
                copies.push(copy);
            }
        }
        if let Some((copy, true)) = echoes_read(cmd) {
            copies.push(copy);
        }
    }
    copies.truncate(MAX_COPIES);
    out.commands.extend(copies);
}

/// The variables a command sets with their values: a line of only assignments, and
/// `export`'s, `local`'s, `declare`'s, `readonly`'s and `typeset`'s `NAME=value` words. An
/// assignment before a program is that program's alone.
fn bindings(cmd: &Command) -> Vec<(&str, &str)> {
    if cmd.words.is_empty() {
        return cmd
            .assignments
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
    }
    if is_setter(cmd.program()) {
        return declared(cmd);
    }
    Vec::new()
}

/// The builtins whose `NAME=value` arguments set variables.
pub(super) fn is_setter(program: &str) -> bool {
    matches!(
        program,
        "export" | "local" | "declare" | "readonly" | "typeset"
    )
}

/// The `NAME=value` arguments of a setter builtin ([`is_setter`]). A name reference
/// (`declare -n r=x`, `local -rn r=x`) names the variable `x`, whatever it holds when `$r`
/// is read, not the text `x`: its value is `$`, one only known when it runs.
pub(super) fn declared(cmd: &Command) -> Vec<(&str, &str)> {
    let nameref = cmd.args().iter().any(|a| {
        a.strip_prefix('-')
            .is_some_and(|cluster| !cluster.starts_with('-') && cluster.contains('n'))
    });
    cmd.args()
        .iter()
        .filter_map(|a| a.split_once('='))
        .filter(|(n, _)| is_name(n))
        .map(|(n, v)| (n, if nameref { "$" } else { v }))
        .collect()
}

/// Could anything in the line but its one assignment set `name`: a command given the name
/// (`read d`, `unset d`, `printf -v d`, `declare d`, `mapfile d`) or `name=…` (`let d=1`), a
/// loop over it, a `${d:=…}` or `${d=…}`, or a separator changed (`IFS=…`)?
fn set_otherwise(out: &Out, name: &str) -> bool {
    let assigning = [
        format!("${{{name}:="),
        format!("${{{name}="),
        format!("{name}="),
    ];
    // A command whose words hold a text read as commands of its own (`sh -c 'd=x; …'`) sets
    // nothing by those words: what the text sets is among the line's commands.
    let mut holders = vec![false; out.commands.len()];
    for parent in out.commands.iter().filter_map(|c| c.parent) {
        if let Some(holds) = holders.get_mut(parent) {
            *holds = true;
        }
    }
    out.loops.iter().any(|l| l.name == name)
        || out.commands.iter().enumerate().any(|(at, cmd)| {
            let holds = holders.get(at).copied().unwrap_or(false);
            let binds = cmd.words.is_empty() || is_setter(cmd.program()) || holds;
            cmd.assignments.iter().any(|(n, _)| n == "IFS")
                || cmd.words.iter().any(|w| {
                    w.contains(&assigning[0]) || w.contains(&assigning[1]) || w.starts_with("IFS=")
                })
                || (!binds
                    && cmd
                        .args()
                        .iter()
                        .any(|a| a == name || a.starts_with(&assigning[2])))
        })
}

/// A value written out: no substitution, and no variable but the home folder's.
fn known(value: &str) -> bool {
    !value.is_empty()
        && !value.contains('`')
        && !value.contains("$(")
        && value
            .replace("${HOME}", "")
            .replace("$HOME", "")
            .find('$')
            .is_none()
}

/// `cmd` with `value` in the place of `$name` in its words and redirect targets, when it
/// uses it. A value with blanks is split where it stands, as an unquoted use would be (`d="build
/// /"; rm -rf $d` deletes `/` too): a copy reads the worse of the two.
fn with_value(cmd: &Command, name: &str, value: &str) -> Option<Command> {
    let (words, targets) = cmd.texts_read(is_place, |w| put(w, name, value))?;
    let words = if value.contains(char::is_whitespace) {
        split_changed(words, &cmd.words)
    } else {
        words
    };
    let changed = words != cmd.words
        || targets
            .iter()
            .zip(&cmd.redirects)
            .any(|(t, r)| *t != r.target);
    changed.then(|| rebuilt(cmd, words, targets))
}

/// `words` with each one that differs from the word it was read from split at its blanks,
/// as the shell splits what an unquoted expansion gives.
fn split_changed(words: Vec<String>, from: &[String]) -> Vec<String> {
    words
        .into_iter()
        .zip(from)
        .flat_map(|(new, old)| {
            if new == *old {
                vec![new]
            } else {
                new.split_whitespace().map(str::to_string).collect()
            }
        })
        .collect()
}

/// A redirect's target that names a place, not a here-document's text (which, fed to a
/// shell, is read as commands of its own).
pub(super) fn is_place(r: &super::Redirect) -> bool {
    r.op != super::RedirectOp::HereDoc
}

/// Does any word or target hold an echo or a printf substituted?
fn mentions_echo(cmd: &Command) -> bool {
    cmd.words.iter().any(|w| mentions_printing(w))
        || cmd
            .redirects
            .iter()
            .any(|r| is_place(r) && mentions_printing(&r.target))
}

/// `cmd` with each `$(echo WORDS)` or `` `echo WORDS` `` read as what it prints, when every
/// one of them is written out, and whether what they print holds a blank (then whether the
/// shell splits it depends on quotes the command's words no longer show).
fn echoes_read(cmd: &Command) -> Option<(Command, bool)> {
    if !mentions_echo(cmd) {
        return None;
    }
    let mut blank = false;
    let mut read = |text: &str| {
        echoed_blank(text).map(|(text, b)| {
            blank |= b;
            text
        })
    };
    let (words, targets) = cmd.texts_read(is_place, &mut read)?;
    // A copy reads a blank as the split an unquoted use makes: the worse of the two.
    let words = if blank {
        split_changed(words, &cmd.words)
    } else {
        words
    };
    Some((rebuilt(cmd, words, targets), blank))
}

/// `text` with its `$(echo WORDS)`, `$(printf FORMAT ARGS)` and their backtick forms as what
/// they print; `None` when one of them prints anything not written out (an option, a
/// variable, a substitution, a pipe).
pub(super) fn echoed(text: &str) -> Option<String> {
    echoed_blank(text).map(|(text, _)| text)
}

/// [`echoed`], and whether anything printed holds a blank (which an unquoted use splits
/// into words, and a quoted one doesn't).
fn echoed_blank(text: &str) -> Option<(String, bool)> {
    let mut blank = false;
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let open = [
            ("$(echo ", ')'),
            ("`echo ", '`'),
            ("$(printf ", ')'),
            ("`printf ", '`'),
        ]
        .into_iter()
        .filter_map(|(open, close)| rest.find(open).map(|at| (at, open, close)))
        .min_by_key(|(at, _, _)| *at);
        let Some((at, open, close)) = open else {
            out.push_str(rest);
            return Some((out, blank));
        };
        out.push_str(&rest[..at]);
        let inner = &rest[at + open.len()..];
        let (words, end) = literal_words(inner, close)?;
        let printed = if open.contains("printf") {
            printf(&words)?
        } else {
            // `-n` (the newline a substitution drops anyway) and `-e`/`-E` (escapes, when
            // no word holds a backslash) print the same words; any other option may not.
            let options = words
                .iter()
                .take_while(|w| {
                    w.len() > 1
                        && w.starts_with('-')
                        && w.bytes().skip(1).all(|b| matches!(b, b'n' | b'e' | b'E'))
                })
                .count();
            let words = &words[options..];
            if words.first().is_some_and(|w| w.starts_with('-'))
                || (options > 0 && words.iter().any(|w| w.contains('\\')))
            {
                return None;
            }
            words.join(" ")
        };
        blank |= printed.contains(char::is_whitespace);
        out.push_str(&printed);
        rest = &inner[end + 1..];
    }
}

/// The words written out before `close`, as the shell reads them (quotes taken off), and
/// where `close` stands; `None` for anything else in the way (`$`, a backtick, an escape, a
/// pipe, a redirect, a comment, a nested substitution). A glob stays as written.
fn literal_words(text: &str, close: char) -> Option<(Vec<String>, usize)> {
    let mut words: Vec<String> = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.char_indices();
    // `$HOME` or `${HOME}` at `at`: the home folder, which the law reads; its length.
    let home = |at: usize| {
        let rest = &text[at..];
        if rest.starts_with("${HOME}") {
            Some(7)
        } else {
            rest.strip_prefix("$HOME")
                .filter(|tail| !tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
                .map(|_| 5)
        }
    };
    while let Some((at, c)) = chars.next() {
        if c == '$'
            && let Some(len) = home(at)
        {
            word.get_or_insert_with(String::new).push_str("$HOME");
            for _ in 1..len {
                chars.next();
            }
            continue;
        }
        match c {
            c if c == close => {
                words.extend(word);
                return Some((words, at));
            }
            ' ' | '\t' => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        (_, '\'') => break,
                        (_, c) => w.push(c),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        (_, '"') => break,
                        (_, '$' | '`' | '\\') => return None,
                        (_, c) => w.push(c),
                    }
                }
            }
            '$' | '`' | '\\' | '|' | ';' | '&' | '<' | '>' | '(' | ')' | '#' | '\n' => return None,
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    None
}

/// What `printf FORMAT ARGS` prints, for a format of text, `%s`, `%%` and `\n`: each `%s` takes
/// the next argument (none left: nothing); any other directive is not read.
fn printf(words: &[String]) -> Option<String> {
    let (format, args) = words.split_first()?;
    if format.starts_with('-') {
        return None;
    }
    let mut args = args.iter();
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        match c {
            '%' => match chars.next()? {
                's' => out.push_str(args.next().map_or("", String::as_str)),
                '%' => out.push('%'),
                _ => return None,
            },
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                '\\' => out.push('\\'),
                _ => return None,
            },
            c => out.push(c),
        }
    }
    Some(out)
}

/// The texts a line runs as shell code that `$(echo …)` or `$(printf …)` spelled (`eval
/// "$(echo 'rm -rf ~')"`, `sh -c "$(printf 'r%s -rf ~' m)"`), read as commands of the
/// command that runs them. Before this, such a text was only known when it ran.
pub(super) fn printed_texts(out: &mut Out) {
    let mut found: Vec<(usize, String)> = Vec::new();
    for (at, cmd) in out.commands.iter().enumerate() {
        if !cmd.words.iter().any(|w| mentions_printing(w)) {
            continue;
        }
        let text = if cmd.program() == "eval" {
            cmd.args().join(" ")
        } else if crate::catalogue::is(cmd.program(), crate::catalogue::Class::Shell) {
            match cmd.args().iter().position(|a| a == "-c") {
                Some(c) => cmd.args().get(c + 1).cloned().unwrap_or_default(),
                None => continue,
            }
        } else {
            continue;
        };
        if !mentions_printing(&text) {
            continue;
        }
        if let Some(read) = echoed(&text).filter(|t| !t.contains(['$', '`'])) {
            found.push((at, read));
        }
    }
    // `sh <(echo 'rm -rf ~')`, `source <(printf …)`: a shell's script is what the
    // substitution prints.
    for cmd in &out.commands {
        let Some(holder) = cmd.parent.and_then(|p| out.commands.get(p).map(|h| (p, h))) else {
            continue;
        };
        let (at, holder) = holder;
        let runs_it = crate::catalogue::is(holder.program(), crate::catalogue::Class::Shell)
            || crate::catalogue::is(holder.program(), crate::catalogue::Class::Source);
        if cmd.via != Via::ProcessSubstitution || !runs_it || cmd.dynamic {
            continue;
        }
        let args = cmd.args();
        let text = match cmd.program() {
            "echo" if args.first().is_none_or(|a| !a.starts_with('-')) => args.join(" "),
            "printf" => match printf(args) {
                Some(text) => text,
                None => continue,
            },
            _ => continue,
        };
        if !text.contains(['$', '`']) {
            found.push((at, text));
        }
    }
    for (at, text) in found {
        let sudo = out.commands.get(at).is_some_and(|c| c.sudo);
        let scope = Scope {
            via: Via::Eval,
            parent: Some(at),
            sudo,
            depth: 1,
        };
        parse_text(out, &text, scope);
    }
}

/// Does a text hold an echo or a printf substituted?
pub(super) fn mentions_printing(text: &str) -> bool {
    // Nearly every word holds neither `$` nor a backtick: one pass says so.
    text.contains(['$', '`'])
        && ["$(echo ", "`echo ", "$(printf ", "`printf "]
            .iter()
            .any(|open| text.contains(open))
}

/// A copy of `cmd` with other words and redirect targets, its program resolved again.
pub(super) fn rebuilt(cmd: &Command, words: Vec<String>, targets: Vec<String>) -> Command {
    let mut copy = cmd.with_words(words);
    for (r, target) in copy.redirects.iter_mut().zip(targets) {
        r.target = target;
    }
    copy.dynamic_program = copy
        .words
        .first()
        .is_some_and(|w| super::unknown_program(w));
    copy.dynamic = copy.dynamic_program
        || copy.words.iter().any(|w| w.contains(['$', '`']))
        || copy
            .redirects
            .iter()
            .any(|r| is_place(r) && r.target.contains(['$', '`']));
    copy
}

#[cfg(test)]
mod tests {
    use super::{basename, dirname, echoed, known, path_cuts};

    #[test]
    fn dirname_and_basename_print_what_posix_says() {
        for (path, folder, name) in [
            ("src/a.ts", "src", "a.ts"),
            ("a.ts", ".", "a.ts"),
            ("./x/*.jpg", "./x", "*.jpg"),
            ("/etc/passwd", "/etc", "passwd"),
            ("/etc", "/", "etc"),
            ("a/b/", "a", "b"),
            ("a//b//", "a", "b"),
            ("/", "/", "/"),
            ("//", "/", "/"),
            ("$HOME/.bashrc", "$HOME", ".bashrc"),
        ] {
            assert_eq!(dirname(path), folder, "dirname {path}");
            assert_eq!(basename(path, ""), name, "basename {path}");
        }
        assert_eq!(basename("src/a.ts", ".ts"), "a");
        assert_eq!(basename("src/.ts", ".ts"), ".ts");
        assert_eq!(basename("src/a.ts", ".md"), "a.ts");
    }

    #[test]
    fn only_a_path_written_out_is_cut() {
        for (text, want) in [
            (
                "$(dirname \"src/*.ts\")/x-$(basename \"src/*.ts\")",
                "src/x-*.ts",
            ),
            ("`dirname src/a.ts`/b", "src/b"),
            ("$(basename -- 'a/b.md' .md).html", "b.html"),
            ("$(dirname \"$HOME/.bashrc\")/.profile", "$HOME/.profile"),
            ("out/$(dirname /etc/passwd)", "out//etc"),
            // What isn't written out, or isn't a cut, is left as it is.
            ("$(dirname \"$f\")/x", "$(dirname \"$f\")/x"),
            ("$(dirname ~/.ssh/x)", "$HOME/.ssh"),
            // Quoted, `~` is a name, not the home folder.
            ("$(dirname \"~/x\")", "$(dirname \"~/x\")"),
            ("$(dirname ~user/x)", "$(dirname ~user/x)"),
            ("$(dirname a b)", "$(dirname a b)"),
            ("$(dirname $(pwd))", "$(dirname $(pwd))"),
            ("$(realpath a)/b", "$(realpath a)/b"),
            ("$(basename a -s)", "$(basename a -s)"),
            ("$(dirname \"a;rm\")", "$(dirname \"a;rm\")"),
        ] {
            assert_eq!(path_cuts(text), want, "{text}");
        }
    }
    use crate::shell::Via;
    use crate::shell::parse::{Out, Scope, parse_text};

    /// The words of the commands that surely ran before the ones after them, each with how
    /// many commands after it it reaches (`None`: to the line's end).
    fn certain(line: &str) -> Vec<(String, Option<usize>)> {
        let mut out = Out::new(line.len());
        let scope = Scope {
            via: Via::Top,
            parent: None,
            sudo: false,
            depth: 0,
        };
        parse_text(&mut out, line, scope);
        let mut certain = out.certain.clone();
        certain.sort_unstable();
        certain
            .iter()
            .map(|&(at, until)| {
                let cmd = &out.commands[at];
                let mut text: Vec<String> = cmd
                    .assignments
                    .iter()
                    .map(|(n, v)| format!("{n}={v}"))
                    .collect();
                text.extend(cmd.words.iter().cloned());
                let reach = (until != usize::MAX).then(|| until - at - 1);
                (text.join(" "), reach)
            })
            .collect()
    }

    #[test]
    fn only_commands_alone_and_in_order_surely_ran() {
        let line = |text: &str| (text.to_string(), None);
        let body = |text: &str, reach: usize| (text.to_string(), Some(reach));
        for (text, want) in [
            ("a=1; b=2\nc=3", vec![line("a=1"), line("b=2")]),
            ("a=1 && b=2; c", vec![line("a=1")]),
            ("x || a=1; b=2; c", vec![line("x"), line("b=2")]),
            ("a=1 | cat; b=2; c", vec![line("b=2")]),
            ("a=1 & b=2; c", vec![line("b=2")]),
            ("( a=1 ); b=2; c", vec![line("b=2")]),
            ("( a=1; b ); c", vec![body("a=1", 1)]),
            (
                "{ a=1; }; if x; then b=2; c; fi; c=3; d",
                vec![body("a=1", 0), line("c=3")],
            ),
            (
                "for i in 1; do a=1; b; done; b=2; c",
                vec![body("a=1", 1), body("b", 0), line("b=2")],
            ),
            // The loop's condition reaches no further than itself.
            (
                "while read f; do d=x; mv $f $d; done",
                vec![body("read f", 0), body("d=x", 1), body("mv $f $d", 0)],
            ),
            // A body's list starts afresh after the `&&` before it.
            (
                "true && { a=1; b; }",
                vec![line("true"), body("a=1", 1), body("b", 0)],
            ),
            (
                "true && { a=1 && b; c; }",
                vec![line("true"), body("a=1", 2), body("c", 0)],
            ),
            // Another branch runs instead of what a branch holds.
            ("if x; then a=1; b; else c; fi", vec![]),
            ("case x in y) a=1; b;; z) c;; esac", vec![]),
            // A text read inside a command: to its own end.
            (
                "echo $(a=1; b=2); c=3; d",
                vec![line("echo $(a=1; b=2)"), body("a=1", 1), line("c=3")],
            ),
            ("sh -c 'a=1; b'", vec![body("a=1", 1)]),
        ] {
            assert_eq!(certain(text), want, "{text}");
        }
    }

    #[test]
    fn only_values_written_out_are_known() {
        for (value, want) in [
            ("/", true),
            ("~", true),
            ("~/.bashrc", true),
            ("$HOME/x", true),
            ("${HOME}", true),
            ("build", true),
            ("$(mktemp)", false),
            ("`pwd`", false),
            ("$OTHER/x", false),
            ("${X:-/}", false),
            ("", false),
        ] {
            assert_eq!(known(value), want, "{value}");
        }
    }

    #[test]
    fn an_echo_substituted_is_its_words() {
        assert_eq!(echoed("$(echo ~)").as_deref(), Some("~"));
        assert_eq!(echoed("`echo $HOME`/x").as_deref(), Some("$HOME/x"));
        assert_eq!(echoed("a$(echo  b   c)d").as_deref(), Some("ab cd"));
        // Options that print the same words: `-n` (a substitution drops the newline
        // anyway), `-e`/`-E` with no backslash; with one, or another option, not read.
        assert_eq!(echoed("$(echo -e x)").as_deref(), Some("x"));
        assert_eq!(echoed("$(echo -n ~)").as_deref(), Some("~"));
        assert_eq!(echoed("$(echo -ne ~ x)").as_deref(), Some("~ x"));
        assert_eq!(echoed("$(echo -e '\\x7e')"), None);
        assert_eq!(echoed("$(echo -x y)"), None);
        assert_eq!(echoed("$(echo -n -x y)"), None);
        assert_eq!(echoed("$(echo $X)"), None);
        assert_eq!(echoed("$(echo $(id))"), None);
        assert_eq!(echoed("$(echo x"), None);
        assert_eq!(echoed("$(echo cm0g | base64 -d)"), None);
        assert_eq!(echoed("$(echo 'rm -rf ~')").as_deref(), Some("rm -rf ~"));
        assert_eq!(echoed("$(echo \"a  b\")").as_deref(), Some("a  b"));
        assert_eq!(
            echoed("$(printf 'r%s -rf %s' m ~)").as_deref(),
            Some("rm -rf ~")
        );
        assert_eq!(echoed("$(printf '%s%%\\n' 5)").as_deref(), Some("5%\n"));
        assert_eq!(echoed("$(printf '%d' 5)"), None);
        assert_eq!(echoed("$(echo \"$X\")"), None);
        assert_eq!(echoed("$(echo ~/*)").as_deref(), Some("~/*"));
    }
}
