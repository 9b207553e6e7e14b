//! A `for` loop's variable read with its items: `for f in *.txt; do mv "$f" "${f%.txt}.md";
//! done` renames files of the work folder, and `for f in ~/.bashrc ~/.profile; do echo x >>
//! "$f"; done` writes two startup files. Without its items `$f` is a place only known when it
//! runs, and a rename in the work folder would ask like a write anywhere.
//!
//! When every item of the list is literal (words, globs, brace lists: what bash expands them
//! to is read as written), each command of the body that names the variable is read once for
//! each item, with the item in the variable's place, the first in the command itself and the
//! others as copies of it. Only plain uses are put in (`$f`, `${f}`, `${f:-x}`), what bash
//! cuts off an item by a pattern that can be followed exactly (`${f%.txt}`, `${f%.*}`,
//! `${f##*/}`) or replaces in it by a literal one (`${f/.bak/.txt}`), and a cut off the end
//! that can't be followed as a name where the item is (`${f%.keep.$1}`: whatever it cuts, a
//! start of `./a/x.keep.1` is `.`, `./a` or a name); any other use of the variable, or a command of the body that could set it
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

/// `read -r f` (`IFS= read -rd '' f`): the one variable a `while` loop's `read` sets from
/// each line of its input. `None` for an array (`-a`), several variables, or no `read`.
pub(super) fn read_into(cmd: &super::Command) -> Option<String> {
    if cmd.program() != "read" {
        return None;
    }
    let mut names = Vec::new();
    let mut args = cmd.args().iter();
    while let Some(arg) = args.next() {
        match arg.strip_prefix('-') {
            Some(flags) if !flags.is_empty() => {
                if flags.contains('a') {
                    return None;
                }
                // An option that takes a value takes the next word when nothing follows it.
                let last = flags.chars().last();
                if matches!(last, Some('d' | 'p' | 'n' | 'N' | 't' | 'u' | 'i'))
                    && flags.len() == flags.find(['d', 'p', 'n', 'N', 't', 'u', 'i'])? + 1
                {
                    args.next();
                }
            }
            _ => names.push(arg),
        }
    }
    match names.as_slice() {
        [name] if is_name(name) => Some((*name).clone()),
        _ => None,
    }
}

/// `find` narrows what it matches: it doesn't take everything under its start. Only a test
/// that leaves some files out narrows: a name, path or pattern with something besides
/// wildcards (`-name '*.o'`, not `-name '*'` or `-regex '.*'`), an inode, a time, a size,
/// an owner or a mode. A kind (`-type f`: every file), a depth, or a test under `!`/`-not`
/// (all but one) leaves nearly everything; with `-o`, every alternative must narrow.
pub(crate) fn find_narrows(args: &[String]) -> bool {
    let expression: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .skip_while(|a| !a.starts_with('-') && !a.starts_with('(') && *a != "!")
        .collect();
    expression
        .split(|a| matches!(*a, "-o" | "-or"))
        .all(|branch| {
            branch.iter().enumerate().any(|(at, test)| {
                let negated = at
                    .checked_sub(1)
                    .and_then(|before| branch.get(before))
                    .is_some_and(|before| matches!(*before, "!" | "-not"));
                let value = branch.get(at + 1).copied().unwrap_or("");
                !negated && narrows(test, value)
            })
        })
}

/// Does one `find` test, given its value, leave files out?
fn narrows(test: &str, value: &str) -> bool {
    let pattern = |wild: &[char]| {
        value
            .trim_matches(['\'', '"'])
            .chars()
            .any(|c| !wild.contains(&c))
    };
    match test {
        "-name" | "-iname" | "-path" | "-ipath" | "-wholename" | "-iwholename" | "-lname"
        | "-ilname" => pattern(&['*', '?', '/', '\\']),
        "-regex" | "-iregex" => pattern(&['.', '*', '^', '$', '(', ')', '|', '\\', '/']),
        "-inum" | "-samefile" | "-links" | "-mtime" | "-mmin" | "-atime" | "-amin" | "-ctime"
        | "-cmin" | "-newer" | "-anewer" | "-cnewer" | "-size" | "-empty" | "-user" | "-group"
        | "-uid" | "-gid" | "-nouser" | "-nogroup" | "-perm" | "-fstype" | "-used"
        | "-executable" | "-context" => true,
        newer => newer.starts_with("-newer"),
    }
}

/// What each line a command writes is, when it writes names of files it was given:
/// `echo WORDS` and `printf '%s\n' WORDS` (each word),
/// `find START -name PAT` (`START/PAT`; `START/…` for other tests; `START/*` for none),
/// `ls [PATHS]`, `git ls-files [PATHSPEC]`, `git diff --name-only`, `fd`, and `grep -l`,
/// `rg -l` or `rg --files` over the paths given. `None` for anything else, or a path only
/// known when it runs (a variable, a substitution).
pub(crate) fn lines_of(cmd: &super::Command) -> Option<Vec<String>> {
    // A path written out is read where it points, inside the work folder or not (`find ~
    // -name id_rsa` names key files); only one known when it runs is not.
    let local = |p: &str| !p.contains(['$', '`']);
    let under = |start: &str, name: &str| {
        if start == "." {
            format!("./{name}")
        } else {
            format!("{}/{name}", start.trim_end_matches('/'))
        }
    };
    let args = cmd.args();
    let operands = || args.iter().filter(|a| !a.starts_with('-'));
    let items: Vec<String> = match cmd.program() {
        "find" | "gfind" => {
            let search = super::search(cmd.program(), args)?;
            let mut names = Vec::new();
            let mut words = args.iter();
            while let Some(t) = words.next() {
                if matches!(t.as_str(), "-name" | "-iname") {
                    names.push(words.next()?.to_string());
                }
            }
            let filtered = search.narrows;
            let starts = search.starts;
            let mut items = Vec::new();
            for start in starts {
                if !local(start) {
                    return None;
                }
                if names.iter().any(|n| n.contains('/')) {
                    return None;
                }
                match (names.is_empty(), filtered) {
                    // A name only known when it runs (`-name "*.keep.$1"`) is still a
                    // name: `-name` matches no `/`.
                    (false, _) => items.extend(
                        names
                            .iter()
                            .map(|n| under(start, if local(n) { n } else { "…" })),
                    ),
                    (true, true) => items.push(under(start, "…")),
                    (true, false) => items.push(under(start, "*")),
                }
            }
            items
        }
        // What `echo` prints, each word as a line of its own: a line of several words is read
        // as each of them, which names every place the line could.
        "echo" => {
            let words: Vec<&String> = args
                .iter()
                .skip_while(|a| matches!(a.as_str(), "-n" | "-e" | "-E" | "-ne" | "-en"))
                .collect();
            if words.iter().any(|w| w.contains('\\')) {
                return None;
            }
            words
                .iter()
                .flat_map(|w| w.split_whitespace())
                .map(str::to_string)
                .collect()
        }
        // `printf '%s\n' A B`: each word given, a line of its own.
        "printf" => match args.split_first() {
            Some((format, given)) if matches!(format.as_str(), "%s\\n" | "%s\\0") => given.to_vec(),
            _ => return None,
        },
        "ls" => {
            let paths: Vec<String> = operands().cloned().collect();
            if paths.is_empty() {
                vec!["*".to_string()]
            } else {
                paths
            }
        }
        "git" => match args.first().map(String::as_str) {
            Some("ls-files") => {
                let specs: Vec<String> = operands().skip(1).cloned().collect();
                if specs.is_empty() {
                    vec!["*".to_string()]
                } else {
                    specs
                }
            }
            Some("diff" | "show") if args.iter().any(|a| a == "--name-only") => {
                vec!["…".to_string()]
            }
            _ => return None,
        },
        "fd" | "fdfind" => {
            let search = super::search(cmd.program(), args)?;
            let every = if search.narrows { "…" } else { "*" };
            search.starts.iter().map(|p| under(p, every)).collect()
        }
        "grep" | "egrep" | "rg" | "ag" => {
            let lists = args.iter().any(|a| {
                matches!(
                    a.as_str(),
                    "--files-with-matches" | "--files-without-match" | "--files"
                ) || (a.starts_with('-') && !a.starts_with("--") && a.contains(['l', 'L']))
            });
            if !lists {
                return None;
            }
            let patterned = !args
                .iter()
                .any(|a| matches!(a.as_str(), "-e" | "--regexp" | "-f" | "--file" | "--files"));
            let paths: Vec<String> = operands()
                .skip(usize::from(patterned))
                .map(|p| under(p, "…"))
                .collect();
            if paths.is_empty() {
                vec!["…".to_string()]
            } else {
                paths
            }
        }
        _ => return None,
    };
    (!items.is_empty() && items.len() <= MAX_ITEMS && items.iter().all(|i| local(i)))
        .then_some(items)
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
    copy.dynamic_program = program.is_some_and(|w| super::unknown_program(w))
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
        // `${!name}`: the variable whose name the value is (`h=HOME; rm -rf "${!h}"`).
        if let Some(tail) = after
            .strip_prefix("{!")
            .and_then(|inner| inner.strip_prefix(name))
            .and_then(|tail| tail.strip_prefix('}'))
            && is_name(item)
        {
            out.push_str("${");
            out.push_str(item);
            out.push('}');
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
    let wild = |s: &str| s.contains(['*', '?', '[', '\\', '$', '`']);
    if let Some(op) = op.strip_prefix('/') {
        return replaced(item, op, wild);
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
    let followed = pattern
        .strip_suffix('*')
        .is_some_and(|mark| !mark.is_empty() && !wild(mark));
    if suffix && wild(pattern) && !followed {
        // A cut off the end that can't be followed (`${f%.keep.$1}`, `${f%[0-9]}`) still
        // leaves a start of the item: in the folder the item is in, or one above it inside
        // the folder the command runs in.
        return prefix_of(item);
    }
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

/// What a start of `item` is, as a word: `…` (a name in the folder the command runs in) or
/// `.` (that folder) when every start of it is one of those, which a relative item whose
/// first part doesn't begin with `..` makes sure of (a start of `./a/b` is `.`, `./a` or a
/// name; of `a/..x/b`, `a/..` at most). `None` for any other item.
fn prefix_of(item: &str) -> Option<String> {
    let first = item.split('/').next().unwrap_or("");
    let plain = !item.is_empty()
        && !item.starts_with(['/', '~', '-'])
        && !item.contains(['$', '`'])
        && !first.starts_with("..");
    if !plain {
        return None;
    }
    Some(if item.starts_with('.') { "." } else { "…" }.to_string())
}

/// `${f/P/S}`, `${f//P/S}`, `${f/#P/S}`, `${f/%P/S}` with a literal pattern and text: the
/// item with the pattern replaced, as bash does. Only a pattern and a text with no `/`, the
/// text with a character other than `.`: then no part of the path is added or taken away,
/// and no part the text lands in can become `.` or `..`, whatever name the item stands for
/// (a glob's).
fn replaced(item: &str, op: &str, wild: impl Fn(&str) -> bool) -> Option<String> {
    let (all, anchor, rest) = if let Some(r) = op.strip_prefix('/') {
        (true, None, r)
    } else if let Some(r) = op.strip_prefix('#') {
        (false, Some(false), r)
    } else if let Some(r) = op.strip_prefix('%') {
        (false, Some(true), r)
    } else {
        (false, None, op)
    };
    let (pattern, text) = rest.split_once('/')?;
    let safe = !pattern.is_empty()
        && !wild(pattern)
        && !wild(text)
        && !text.contains('/')
        && text.chars().any(|c| c != '.');
    if !safe {
        return None;
    }
    Some(match anchor {
        Some(false) => match item.strip_prefix(pattern) {
            Some(tail) => [text, tail].concat(),
            None => item.to_string(),
        },
        Some(true) => match item.strip_suffix(pattern) {
            Some(head) => [head, text].concat(),
            None => item.to_string(),
        },
        None if all => item.replace(pattern, text),
        None => item.replacen(pattern, text, 1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::Line;

    #[test]
    fn a_find_narrows_only_with_a_test_that_leaves_files_out() {
        let words = |line: &str| line.split(' ').map(String::from).collect::<Vec<_>>();
        for (args, narrows) in [
            (". -name *.o", true),
            (". -inum 7", true),
            (". -newermt 2024-01-01", true),
            ("src -type d -empty", true),
            (". -name *.o -o -size +1M", true),
            (". -name *", false),
            (". -regex .*", false),
            (". -type f", false),
            (". -maxdepth 1 -print", false),
            (". ! -name keep", false),
            (". -not -name keep", false),
            (". -name *.o -o -type f", false),
            ("~", false),
        ] {
            assert_eq!(find_narrows(&words(args)), narrows, "find {args}");
        }
    }

    #[test]
    fn lines_are_the_names_a_command_lists() {
        for (producer, want) in [
            ("find . -name '*.orig'", Some(vec!["./*.orig"])),
            ("find src -type f", Some(vec!["src/*"])),
            ("find src -mtime -1", Some(vec!["src/…"])),
            ("find .", Some(vec!["./*"])),
            (
                "find -L . -name .env -o -name '*.pem'",
                Some(vec!["./.env", "./*.pem"]),
            ),
            ("find / -name '*.log'", Some(vec!["/*.log"])),
            ("find ~ -name id_rsa", Some(vec!["~/id_rsa"])),
            ("find ../other -type f -size +1M", Some(vec!["../other/…"])),
            ("find $DIR -type f", None),
            ("ls *.md", Some(vec!["*.md"])),
            ("ls", Some(vec!["*"])),
            ("ls /etc", Some(vec!["/etc"])),
            ("git ls-files '*.py'", Some(vec!["*.py"])),
            ("git diff --name-only origin/main", Some(vec!["…"])),
            ("git log", None),
            ("grep -rl TODO src", Some(vec!["src/…"])),
            ("grep -rl TODO $DIR", None),
            ("find . -name \"*.keep.$1\"", Some(vec!["./…"])),
            ("find $D -name \"*.keep\"", None),
            ("grep TODO src", None),
            ("rg --files tests", Some(vec!["tests/…"])),
            ("cat list.txt", None),
        ] {
            let line = Line::parse(producer);
            let got = line.commands.first().and_then(lines_of);
            let want = want.map(|w| w.iter().map(|s| s.to_string()).collect::<Vec<_>>());
            assert_eq!(got, want, "{producer}");
        }
    }

    #[test]
    fn read_sets_one_variable() {
        for (text, want) in [
            ("read f", Some("f")),
            ("read -r f", Some("f")),
            ("IFS= read -r -d '' f", Some("f")),
            ("read -rd '' f", Some("f")),
            ("read -p 'name? ' f", Some("f")),
            ("read a b", None),
            ("read -a files", None),
            ("echo f", None),
        ] {
            let line = Line::parse(text);
            let got = line.commands.first().and_then(read_into);
            assert_eq!(got.as_deref(), want, "{text}");
        }
    }

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
            ("a.bak", "/.bak/.txt", Some("a.txt")),
            ("a.b.a", "//a/x", Some("x.b.x")),
            ("a.a", "/#a/x", Some("x.a")),
            ("a.a", "/%a/x", Some("a.x")),
            ("a", "/a/..", None),
            ("a", "/a/", None),
            ("a", "/a/b/c", None),
            ("a", "/[a]/b", None),
            ("a", ":1", None),
            ("a", "%[a]", Some("…")),
            ("./a.keep.x", "%.keep.$1", Some(".")),
            ("..a", "%$x", None),
            ("/etc/a", "%$x", None),
            ("a", "%%.*[0-9]", Some("…")),
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
            ("${f/a/b}", Some("b.txt")),
            ("${f/a/$x}", None),
            ("${f", None),
        ] {
            assert_eq!(put(text, "f", "a.txt").as_deref(), want, "{text}");
        }
    }
}
