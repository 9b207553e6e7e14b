//! Variables the line sets to a value written out, read where it uses them: `d=/; rm -rf
//! $d`, `export D=~ && rm -rf "$D"`, `cfg=~/.bashrc; echo x >> $cfg`. Without this, each was
//! a place only known when it runs, and the circuit breaker and the startup files were one
//! assignment away.
//!
//! A value is known when it is written out: no substitution, and no variable but `$HOME`
//! (which the law reads as the home folder). `$(echo WORDS)` and `` `echo WORDS` `` are read as
//! their words too (`rm -rf "$(echo ~)"`).
//!
//! What it reads can only add to a line, never take away: each command that uses such a
//! variable is kept as written, and a copy with the value in its place is added beside it.
//! Whether the assignment ran before the command (`true || d=build; rm -rf "$d"/*` runs with
//! `$d` empty) is not read, so the copy is no proof of safety; it only shows what the line
//! does when the assignment ran. Bounded: at most [`MAX_VALUES`] values a variable and
//! [`MAX_COPIES`] copies a line.

use super::Command;
use super::loops::{is_name, put};
use super::parse::Out;

/// The most values one variable is read with.
const MAX_VALUES: usize = 4;
/// The most copies a line gets.
const MAX_COPIES: usize = 16;

/// Adds, after the line's commands, a copy of each command that uses a variable the line
/// set to a value written out, with the value in its place.
pub(super) fn bind(out: &mut Out) {
    let echoed = out.commands.iter().any(mentions_echo);
    let assigned = out.commands.iter().any(|c| !bindings(c).is_empty());
    if !echoed && !assigned {
        return;
    }
    // Each variable's known values, with the command after which it holds them.
    let mut vars: Vec<(String, usize, String)> = Vec::new();
    for (at, cmd) in out.commands.iter().enumerate() {
        for (name, value) in bindings(cmd) {
            let values = vars.iter().filter(|(n, _, _)| n == name).count();
            if values < MAX_VALUES && known(value) {
                vars.push((name.to_string(), at, value.to_string()));
            }
        }
    }
    let mut copies: Vec<Command> = Vec::new();
    for (at, cmd) in out.commands.iter().enumerate() {
        if copies.len() >= MAX_COPIES {
            break;
        }
        if !cmd.dynamic && cmd.redirects.iter().all(|r| !r.target.contains(['$', '`'])) {
            continue;
        }
        // A program named by a variable is read again by `written::values`, words and all.
        for (name, set_at, value) in vars.iter().filter(|_| !cmd.dynamic_program) {
            if at <= *set_at || copies.len() >= MAX_COPIES {
                continue;
            }
            if let Some(copy) = with_value(cmd, name, value) {
                copies.push(copy);
            }
        }
        if let Some(copy) = echoes_read(cmd) {
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
    if matches!(
        cmd.program(),
        "export" | "local" | "declare" | "readonly" | "typeset"
    ) {
        return cmd
            .args()
            .iter()
            .filter_map(|a| a.split_once('='))
            .filter(|(n, _)| is_name(n))
            .collect();
    }
    Vec::new()
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
/// uses it.
fn with_value(cmd: &Command, name: &str, value: &str) -> Option<Command> {
    let words = cmd
        .words
        .iter()
        .map(|w| put(w, name, value))
        .collect::<Option<Vec<_>>>()?;
    let targets = cmd
        .redirects
        .iter()
        .map(|r| put(&r.target, name, value))
        .collect::<Option<Vec<_>>>()?;
    let changed = words != cmd.words
        || targets
            .iter()
            .zip(&cmd.redirects)
            .any(|(t, r)| *t != r.target);
    changed.then(|| rebuilt(cmd, words, targets))
}

/// Does any word or target hold `$(echo` or `` `echo ``?
fn mentions_echo(cmd: &Command) -> bool {
    let has = |t: &str| t.contains("$(echo ") || t.contains("`echo ");
    cmd.words.iter().any(|w| has(w)) || cmd.redirects.iter().any(|r| has(&r.target))
}

/// `cmd` with each `$(echo WORDS)` or `` `echo WORDS` `` read as its words, when every one
/// of them is written out.
fn echoes_read(cmd: &Command) -> Option<Command> {
    if !mentions_echo(cmd) {
        return None;
    }
    let words = cmd
        .words
        .iter()
        .map(|w| echoed(w))
        .collect::<Option<Vec<_>>>()?;
    let targets = cmd
        .redirects
        .iter()
        .map(|r| echoed(&r.target))
        .collect::<Option<Vec<_>>>()?;
    Some(rebuilt(cmd, words, targets))
}

/// `text` with its `$(echo WORDS)` and `` `echo WORDS` `` as their words; `None` when one
/// of them echoes anything not written out (an option, a variable, a substitution).
fn echoed(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let open = [("$(echo ", ')'), ("`echo ", '`')]
            .into_iter()
            .filter_map(|(open, close)| rest.find(open).map(|at| (at, open, close)))
            .min_by_key(|(at, _, _)| *at);
        let Some((at, open, close)) = open else {
            out.push_str(rest);
            return Some(out);
        };
        out.push_str(&rest[..at]);
        let inner = &rest[at + open.len()..];
        let end = inner.find(close)?;
        let said = inner[..end].trim();
        if said.starts_with('-')
            || !known(said)
            || said.contains([
                '|', ';', '&', '<', '>', '(', ')', '{', '}', '#', '\n', '\'', '"', '\\',
            ])
        {
            return None;
        }
        out.push_str(&said.split_whitespace().collect::<Vec<_>>().join(" "));
        rest = &inner[end + 1..];
    }
}

/// A copy of `cmd` with other words and redirect targets, its program resolved again.
fn rebuilt(cmd: &Command, words: Vec<String>, targets: Vec<String>) -> Command {
    let mut copy = cmd.with_words(words);
    for (r, target) in copy.redirects.iter_mut().zip(targets) {
        r.target = target;
    }
    copy.dynamic_program = copy.words.first().is_some_and(|w| w.contains(['$', '`']));
    copy.dynamic = copy.dynamic_program
        || copy.words.iter().any(|w| w.contains(['$', '`']))
        || copy.redirects.iter().any(|r| r.target.contains(['$', '`']));
    copy
}

#[cfg(test)]
mod tests {
    use super::{echoed, known};

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
        assert_eq!(echoed("$(echo -e x)"), None);
        assert_eq!(echoed("$(echo $X)"), None);
        assert_eq!(echoed("$(echo $(id))"), None);
        assert_eq!(echoed("$(echo x"), None);
        assert_eq!(echoed("$(echo cm0g | base64 -d)"), None);
    }
}
