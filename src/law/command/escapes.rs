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
pub(super) fn lines(cmd: &crate::shell::Command, line: &crate::shell::Line) -> Vec<String> {
    let program = cmd.program();
    match program {
        "sed" | "gsed" => return sed(cmd.args()),
        "make" | "gmake" | "just" => return recipes_from_input(cmd, line),
        "emacs" => return emacs(cmd.args()),
        _ => {}
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

/// A makefile (or a justfile) given on standard input (`make -f - <<EOF`, `make -f
/// /dev/stdin <<< …`, `printf 'all:\n\trm -rf ~' | make -f -`): its recipes' lines, each a
/// shell line (make's `@`, `-` and `+` taken off, `$$` as the shell's `$`).
fn recipes_from_input(cmd: &crate::shell::Command, line: &crate::shell::Line) -> Vec<String> {
    let args = cmd.args();
    // GNU make's `--eval=TEXT` (`-E TEXT`): makefile text read before the makefiles, its
    // rules' recipes run as a makefile's do (`make -f /dev/null --eval='x:;curl …|sh' x`).
    let mut out = Vec::new();
    if matches!(cmd.program(), "make" | "gmake") {
        for (at, a) in args.iter().enumerate() {
            let text = match a.as_str() {
                "--eval" | "-E" => args.get(at + 1).map(String::as_str),
                other => other.strip_prefix("--eval="),
            };
            if let Some(text) = text {
                out.extend(crate::law::file::make_commands(text));
            }
        }
        out.truncate(MAX_LINES);
    }
    let from_input = args.iter().enumerate().any(|(at, a)| {
        let value = match a.as_str() {
            "-f" | "--file" | "--makefile" | "--justfile" => args.get(at + 1).map(String::as_str),
            other => other
                .strip_prefix("--file=")
                .or_else(|| other.strip_prefix("--makefile="))
                .or_else(|| other.strip_prefix("--justfile="))
                .or_else(|| other.strip_prefix("-f").filter(|v| !v.is_empty())),
        };
        matches!(
            value,
            Some("-" | "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0")
        )
    });
    if !from_input {
        return out;
    }
    for text in crate::law::code::stdin_text(cmd, line) {
        for row in text.lines() {
            // A recipe's line is indented under its target; a target's or a variable's line
            // is not.
            if !row.starts_with([' ', '\t']) || out.len() >= MAX_LINES {
                continue;
            }
            let run = row.trim().trim_start_matches(['@', '-', '+']).trim();
            if !run.is_empty() && !run.starts_with('#') {
                out.push(run.replace("$$", "$"));
            }
        }
    }
    out
}

/// Emacs Lisp given to `emacs --eval` (`-eval`, `--batch --eval`): the shell lines its
/// `shell-command`, `shell-command-to-string`, `call-process-shell-command` and
/// `async-shell-command` run, the programs `call-process` and `start-process` run, and what
/// `delete-directory` (with everything in it when told) and `delete-file` delete, each given
/// as a literal string (`~` is the home folder, as Emacs expands it).
fn emacs(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for (at, a) in args.iter().enumerate() {
        let code = match a.as_str() {
            "--eval" | "-eval" => args.get(at + 1).map(String::as_str),
            other => other.strip_prefix("--eval="),
        };
        if let Some(code) = code {
            elisp_calls(code, &mut out);
        }
    }
    out
}

/// The calls of `code` that run or delete, read as shell lines (see [`emacs`]). One pass over
/// the text: a call's head and its literal arguments, up to its closing parenthesis.
fn elisp_calls(code: &str, out: &mut Vec<String>) {
    let bytes = code.as_bytes();
    let mut at = 0;
    while let Some(open) = code
        .get(at..)
        .and_then(|rest| rest.find('('))
        .map(|i| i + at)
    {
        at = open + 1;
        if out.len() >= MAX_LINES {
            return;
        }
        let head_end = code
            .get(at..)
            .and_then(|rest| rest.find(|c: char| c.is_whitespace() || c == '(' || c == ')'))
            .map_or(code.len(), |i| i + at);
        let head = code.get(at..head_end).unwrap_or("");
        // The call's arguments: literal strings and bare symbols, up to its own `)` (a nested
        // call's value is only known when it runs).
        let mut words: Vec<Option<String>> = Vec::new();
        let mut i = head_end;
        while let Some(&b) = bytes.get(i) {
            match b {
                b')' => break,
                b'"' => {
                    let mut text = String::new();
                    i += 1;
                    while let Some(&c) = bytes.get(i) {
                        match c {
                            b'\\' => {
                                if let Some(&next) = bytes.get(i + 1) {
                                    text.push(char::from(next));
                                }
                                i += 2;
                            }
                            b'"' => break,
                            _ => {
                                let ch =
                                    code.get(i..).and_then(|r| r.chars().next()).unwrap_or(' ');
                                text.push(ch);
                                i += ch.len_utf8();
                            }
                        }
                    }
                    words.push(Some(text));
                    i += 1;
                }
                b'(' => {
                    words.push(None);
                    break;
                }
                b if b.is_ascii_whitespace() => i += 1,
                _ => {
                    let end = code
                        .get(i..)
                        .and_then(|r| r.find(|c: char| c.is_whitespace() || c == '(' || c == ')'))
                        .map_or(code.len(), |e| e + i);
                    words.push(Some(code.get(i..end).unwrap_or("").to_string()));
                    i = end;
                }
            }
        }
        let text = |n: usize| words.get(n).and_then(Option::as_ref);
        let quoted = |w: &str| format!("'{}'", w.replace('\'', "'\\''"));
        // A path of plain characters as written, so that `~` stays the home folder.
        let path = |w: &str| {
            if !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "~/._-+".contains(c))
            {
                w.to_string()
            } else {
                quoted(w)
            }
        };
        match head {
            "shell-command"
            | "shell-command-to-string"
            | "call-process-shell-command"
            | "async-shell-command"
            | "process-lines-shell" => {
                if let Some(line) = text(0) {
                    out.push(line.clone());
                }
            }
            "call-process" | "process-lines" | "start-process" => {
                // (call-process PROGRAM INFILE DESTINATION DISPLAY ARGS…),
                // (process-lines PROGRAM ARGS…), (start-process NAME BUFFER PROGRAM ARGS…).
                let (program, skip) = match head {
                    "call-process" => (0, 4),
                    "process-lines" => (0, 1),
                    _ => (2, 3),
                };
                if let Some(program) = text(program) {
                    let mut line = quoted(program);
                    for word in words.iter().skip(skip).flatten() {
                        line.push(' ');
                        line.push_str(&quoted(word));
                    }
                    out.push(line);
                }
            }
            "delete-directory" => {
                if let Some(dir) = text(0) {
                    let tree = text(1).is_some_and(|t| t != "nil");
                    let flags = if tree { "-r -f" } else { "-d" };
                    out.push(format!("rm {flags} -- {}", path(dir)));
                }
            }
            "delete-file" => {
                if let Some(file) = text(0) {
                    out.push(format!("rm -f -- {}", path(file)));
                }
            }
            _ => {}
        }
    }
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
        line.commands
            .iter()
            .flat_map(|cmd| lines(cmd, &line))
            .collect()
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
            ("make -f /dev/stdin <<< $'all:\n\trm -rf ~'", &["rm -rf ~"]),
            (
                "printf 'all:\n\t@echo $$HOME\n' | make -f -",
                &["echo $HOME"],
            ),
            (
                "just --justfile /dev/stdin <<< $'x:\n  rm -rf ~'",
                &["rm -rf ~"],
            ),
            (
                "emacs --batch --eval '(shell-command \"rm -rf ~\")'",
                &["rm -rf ~"],
            ),
            (
                "emacs -Q --batch --eval '(delete-directory \"~\" t)'",
                &["rm -r -f -- ~"],
            ),
            (
                "emacs --batch --eval '(delete-file \"~/.bashrc\")'",
                &["rm -f -- ~/.bashrc"],
            ),
            (
                "emacs --batch --eval '(call-process \"rm\" nil nil nil \"-rf\" \"/etc\")'",
                &["'rm' '-rf' '/etc'"],
            ),
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
            "make -f Makefile test",
            "make -j4 <<< $'all:\n\trm -rf ~'",
            "emacs --batch --eval '(message \"rm -rf ~\")'",
            "emacs --batch -l init.el --eval '(org-babel-tangle)'",
        ] {
            assert!(lines_of(text).is_empty(), "{text}: {:?}", lines_of(text));
        }
    }
}
