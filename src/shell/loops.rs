//! A `for` loop's variable read with its items: `for f in *.txt; do mv "$f" "${f%.txt}.md";
//! done` renames files of the work folder, and `for f in ~/.bashrc ~/.profile; do echo x >>
//! "$f"; done` writes two startup files. Without its items `$f` is a place only known when it
//! runs, and a rename in the work folder would ask like a write anywhere.
//!
//! When every item of the list is literal (words, globs, brace lists: what bash expands them
//! to is read as written), each command of the body that names the variable is read once for
//! each item, with the item in the variable's place, the first in the command itself and the
//! others as copies of it. Only plain uses are put in (`$f`, `${f}`, `${f:-x}`) and what bash
//! cuts off an item by a pattern that can be followed exactly (`${f%.txt}`, `${f%.*}`,
//! `${f##*/}`); any other use of the variable, or a command of the body that could set it
//! again (`f=…`, `read f`, `export f=…`), leaves the whole body as it was: only known when it
//! runs, which never lowers a score. Bounded: 8 items, 64 commands made.

use super::parse::Out;
use std::ops::Range;

/// The most items a loop is read with.
const MAX_ITEMS: usize = 8;
/// The most commands a line's loops may add.
const MAX_MADE: usize = 64;

/// A `for` loop whose items are known.
#[derive(Debug, Clone)]
pub(crate) struct Loop {
    pub name: String,
    pub items: Vec<String>,
    /// The commands of its body, by index in the line (nested ones included).
    pub body: Range<usize>,
}

/// A shell variable's name.
pub(super) fn is_name(word: &str) -> bool {
    let mut chars = word.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Puts each loop's items in its variable's place in the commands of its body.
pub(super) fn bind(out: &mut Out) {
    let loops = std::mem::take(&mut out.loops);
    let mut made = 0;
    for lp in loops {
        if lp.items.is_empty() || lp.items.len() > MAX_ITEMS {
            continue;
        }
        let body = lp.body.start..lp.body.end.min(out.commands.len());
        let Some(commands) = out.commands.get(body.clone()) else {
            continue;
        };
        if commands.iter().any(|cmd| sets(cmd, &lp.name)) {
            continue;
        }
        // Every command that names the variable, with its words for each item; none at all
        // when one use can't be followed.
        let mut found: Vec<(usize, Vec<super::Command>)> = Vec::new();
        let mut followed = true;
        for at in body {
            let Some(cmd) = out.commands.get(at) else {
                break;
            };
            if !names(cmd, &lp.name) {
                continue;
            }
            let copies: Option<Vec<super::Command>> = lp
                .items
                .iter()
                .map(|item| with_item(cmd, &lp.name, item))
                .collect();
            match copies {
                Some(copies) => found.push((at, copies)),
                None => {
                    followed = false;
                    break;
                }
            }
        }
        let adds = found.iter().map(|(_, c)| c.len() - 1).sum::<usize>();
        if !followed || made + adds > MAX_MADE {
            continue;
        }
        made += adds;
        for (at, copies) in found {
            let mut copies = copies.into_iter();
            if let (Some(first), Some(slot)) = (copies.next(), out.commands.get_mut(at)) {
                *slot = first;
            }
            out.commands.extend(copies);
        }
    }
}

/// Could the command set the variable: an assignment to it, or its name as a word
/// (`read f`, `export f=x`, `printf -v f`, `declare f`).
fn sets(cmd: &super::Command, name: &str) -> bool {
    cmd.assignments.iter().any(|(n, _)| n == name)
        || cmd.words.iter().any(|w| {
            w.strip_prefix(name)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['=', '+', '[']))
        })
}

/// Does any text of the command use the variable?
fn names(cmd: &super::Command, name: &str) -> bool {
    let uses = |text: &str| {
        let mut rest = text;
        while let Some(at) = rest.find('$') {
            let after = &rest[at + 1..];
            let inner = after.strip_prefix('{').unwrap_or(after);
            if inner.strip_prefix(name).is_some_and(|tail| {
                !tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            }) {
                return true;
            }
            rest = after;
        }
        false
    };
    cmd.words.iter().any(|w| uses(w))
        || cmd.redirects.iter().any(|r| uses(&r.target))
        || cmd.assignments.iter().any(|(_, v)| uses(v))
}

/// The command with `item` in the variable's place, or `None` when a use can't be followed.
fn with_item(cmd: &super::Command, name: &str, item: &str) -> Option<super::Command> {
    let words = cmd
        .words
        .iter()
        .map(|w| put(w, name, item))
        .collect::<Option<Vec<String>>>()?;
    let mut copy = cmd.with_words(words);
    for r in &mut copy.redirects {
        r.target = put(&r.target, name, item)?;
    }
    for (_, value) in &mut copy.assignments {
        *value = put(value, name, item)?;
    }
    // The program is known unless something in it still is not, or the item put in it is
    // a glob (`[[` stays a program).
    let program = copy.words.first();
    copy.dynamic_program = program.is_some_and(|w| w.contains(['$', '`']))
        || (program != cmd.words.first() && program.is_some_and(|w| w.contains(['*', '?', '['])));
    copy.dynamic = copy.dynamic_program || copy.words.iter().any(|w| w.contains(['$', '`']));
    Some(copy)
}

/// `text` with every use of the variable replaced by what it is for `item`.
pub(super) fn put(text: &str, name: &str, item: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len() + item.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(tail) = after.strip_prefix(name)
            && !tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        {
            out.push_str(item);
            rest = tail;
            continue;
        }
        if let Some(inner) = after.strip_prefix('{')
            && let Some(tail) = inner.strip_prefix(name)
            && !tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        {
            let end = tail.find('}')?;
            out.push_str(&expand(item, &tail[..end])?);
            rest = &tail[end + 1..];
            continue;
        }
        out.push('$');
        rest = after;
    }
    out.push_str(rest);
    Some(out)
}

/// What `${name<op>}` is for a set variable whose value is `item`: nothing (the value), a
/// default that a set variable doesn't use, or a pattern cut off its end or start.
fn expand(item: &str, op: &str) -> Option<String> {
    if op.is_empty() || op.starts_with(":-") || op.starts_with('-') && !op.starts_with("-=") {
        return Some(item.to_string());
    }
    let (longest, suffix, pattern) = if let Some(p) = op.strip_prefix("%%") {
        (true, true, p)
    } else if let Some(p) = op.strip_prefix('%') {
        (false, true, p)
    } else if let Some(p) = op.strip_prefix("##") {
        (true, false, p)
    } else if let Some(p) = op.strip_prefix('#') {
        (false, false, p)
    } else {
        return None;
    };
    let wild = |s: &str| s.contains(['*', '?', '[', '\\', '$', '`']);
    if !wild(pattern) {
        // A literal pattern: cut only where it stands.
        let cut = if suffix {
            item.strip_suffix(pattern)
        } else {
            item.strip_prefix(pattern)
        };
        return Some(cut.unwrap_or(item).to_string());
    }
    if suffix {
        // `X*`: from the last X (`%`) or the first (`%%`) to the end.
        let mark = pattern
            .strip_suffix('*')
            .filter(|m| !m.is_empty() && !wild(m))?;
        let at = if longest {
            item.find(mark)
        } else {
            item.rfind(mark)
        };
        Some(at.map_or(item, |at| &item[..at]).to_string())
    } else {
        // `*X`: up to the first X (`#`) or the last (`##`), X included.
        let mark = pattern
            .strip_prefix('*')
            .filter(|m| !m.is_empty() && !wild(m))?;
        let at = if longest {
            item.rfind(mark)
        } else {
            item.find(mark)
        };
        Some(at.map_or(item, |at| &item[at + mark.len()..]).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansions_follow_bash() {
        for (item, op, want) in [
            ("a.txt", "", Some("a.txt")),
            ("a.txt", "%.txt", Some("a")),
            ("a.txt", "%.md", Some("a.txt")),
            ("a.tar.gz", "%.*", Some("a.tar")),
            ("a.tar.gz", "%%.*", Some("a")),
            ("src/x/a.rs", "##*/", Some("a.rs")),
            ("src/x/a.rs", "#*/", Some("x/a.rs")),
            ("src/x/a.rs", "%/*", Some("src/x")),
            ("src/a", "#src", Some("/a")),
            ("a", ":-b", Some("a")),
            ("a", "/a/b", None),
            ("a", ":1", None),
            ("a", "%[a]", None),
            ("a", "^^", None),
            ("a", "=b", None),
        ] {
            assert_eq!(
                expand(item, op).as_deref(),
                want,
                "${{f{op}}} with f={item}"
            );
        }
    }

    #[test]
    fn uses_are_put_in_or_refused() {
        for (text, want) in [
            ("$f", Some("a.txt")),
            ("${f%.txt}.md", Some("a.md")),
            ("$f.tmp", Some("a.txt.tmp")),
            ("$fx", Some("$fx")),
            ("${fx}", Some("${fx}")),
            ("$g/$f", Some("$g/a.txt")),
            ("${f/a/b}", None),
            ("${f", None),
        ] {
            assert_eq!(put(text, "f", "a.txt").as_deref(), want, "{text}");
        }
    }
}
