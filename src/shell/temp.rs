//! Temporary places a line names by a variable: `$TMPDIR`, and a variable the line set to
//! what `mktemp` makes (`out=$(mktemp) && cargo test > "$out"`, `d=$(mktemp -d); cp -r src
//! "$d"`). Both are a temporary folder's, whose contents are thrown away anyway; without
//! this they were places only known when they run, and a test's log written there asked
//! like a write anywhere.
//!
//! A variable is read so only when the line never sets it otherwise: `TMPDIR=/etc; cp x
//! "$TMPDIR/passwd"` keeps `$TMPDIR` only known when it runs. `mktemp` counts only as it makes
//! a name in the temporary folder (`-d`, `-q`, `-u`, `-t`, `--suffix`, a template with no
//! `/`); `mktemp -p ~/x` or `mktemp /etc/x.XXX` does not.

use super::loops::put;
use super::parse::Out;
use super::{Command, RedirectOp};

/// What a temporary name is read as.
const TEMP_FILE: &str = "/tmp/tmp.XXXXXXXXXX";
/// What `$TMPDIR` is read as: a folder of its own in the temporary folder (the agent's, as
/// Claude Code's sandbox sets it), not the temporary folder every program shares.
const TEMP_DIR: &str = "/tmp/tmpdir";

/// Puts the temporary folder in the place of `$TMPDIR` and of the variables the line set to
/// `$(mktemp …)`, in the commands after them.
pub(super) fn bind(out: &mut Out) {
    if !out.commands.iter().any(mentions_temp) {
        return;
    }
    // Each variable's bindings in the line: where it was set to a temporary name, and
    // whether it was ever set to anything else.
    let mut temps: Vec<(String, usize)> = Vec::new();
    let mut other: Vec<String> = Vec::new();
    for (at, cmd) in out.commands.iter().enumerate() {
        for (name, value) in bindings(cmd) {
            if is_mktemp(value) {
                temps.push((name.to_string(), at));
            } else {
                other.push(name.to_string());
            }
        }
        // `read d`, `declare d`, `printf -v d`: set from elsewhere.
        if !cmd.words.is_empty() && !super::vars::is_setter(cmd.program()) {
            for word in cmd.args() {
                if super::loops::is_name(word) {
                    other.push(word.clone());
                }
            }
        }
    }
    let mut vars: Vec<(&str, usize, &str)> = Vec::new();
    if !other.iter().any(|n| n == "TMPDIR") && !temps.iter().any(|(n, _)| n == "TMPDIR") {
        vars.push(("TMPDIR", 0, TEMP_DIR));
    }
    for (name, at) in &temps {
        let once = temps.iter().filter(|(n, _)| n == name).count() == 1;
        if once && !other.contains(name) {
            vars.push((name, *at + 1, TEMP_FILE));
        }
    }
    if vars.is_empty() {
        return;
    }
    for (at, cmd) in out.commands.iter_mut().enumerate() {
        for (name, from, value) in &vars {
            if at < *from {
                continue;
            }
            // A `..` after it climbs out of a folder whose depth is only known when it runs
            // (`$TMPDIR/../etc` is `/etc` when TMPDIR is `/tmp`): left as it was.
            let temp = |w: &str| {
                if w.contains("..") {
                    None
                } else {
                    put(w, name, value)
                }
            };
            let Some((words, targets)) = cmd.texts_read(is_path, temp) else {
                continue;
            };
            if words != cmd.words {
                let dynamic_program =
                    cmd.dynamic_program && words.first().is_some_and(|w| super::unknown_program(w));
                *cmd = cmd.with_words(words);
                cmd.dynamic_program = dynamic_program;
                cmd.dynamic = dynamic_program || cmd.words.iter().any(|w| w.contains(['$', '`']));
            }
            for (r, target) in cmd.redirects.iter_mut().zip(targets) {
                r.target = target;
            }
        }
    }
}

/// Does any text of the command name `TMPDIR` or `mktemp`? (Most lines name neither.)
fn mentions_temp(cmd: &Command) -> bool {
    let has = |t: &str| t.contains("TMPDIR") || t.contains("mktemp");
    cmd.words.iter().any(|w| has(w))
        || cmd.redirects.iter().any(|r| is_path(r) && has(&r.target))
        || cmd.assignments.iter().any(|(_, v)| has(v))
}

/// A redirect whose target is a path, not a here-document's or here-string's text (what
/// those run is read as commands of their own).
fn is_path(r: &super::Redirect) -> bool {
    !matches!(r.op, RedirectOp::HereDoc | RedirectOp::HereString)
}

/// The variables a command sets, with their values: its assignments, and `export`'s,
/// `local`'s and `declare`'s `NAME=value` words.
fn bindings(cmd: &Command) -> Vec<(&str, &str)> {
    let mut found: Vec<(&str, &str)> = cmd
        .assignments
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    if super::vars::is_setter(cmd.program()) {
        found.extend(super::vars::declared(cmd));
        found.extend(
            cmd.args()
                .iter()
                .filter(|a| super::loops::is_name(a))
                .map(|a| (a.as_str(), "")),
        );
    }
    found
}

/// `$(mktemp …)` (or in backticks) that makes a name in the temporary folder.
fn is_mktemp(value: &str) -> bool {
    let inner = value
        .strip_prefix("$(")
        .and_then(|v| v.strip_suffix(')'))
        .or_else(|| value.strip_prefix('`').and_then(|v| v.strip_suffix('`')));
    let Some(inner) = inner else {
        return false;
    };
    let mut words = inner.split_whitespace();
    words.next() == Some("mktemp")
        && words.all(|w| {
            matches!(
                w,
                "-d" | "-q" | "-u" | "-t" | "-dt" | "-td" | "--directory" | "--quiet" | "--dry-run"
            ) || w.starts_with("--suffix=")
                || (!w.starts_with('-') && !w.contains(['/', '$', '`', '~']))
        })
}

#[cfg(test)]
mod tests {
    use super::is_mktemp;

    #[test]
    fn mktemp_in_the_temporary_folder_only() {
        for (value, want) in [
            ("$(mktemp)", true),
            ("$(mktemp -d)", true),
            ("`mktemp -t build.XXXXXX`", true),
            ("$(mktemp --suffix=.log)", true),
            ("$(mktemp -p ~/x)", false),
            ("$(mktemp /etc/x.XXXX)", false),
            ("$(mktemp --tmpdir=/etc)", false),
            ("$(mktemp $DIR/x)", false),
            ("mktemp", false),
            ("$(mktemp); rm -rf ~", false),
        ] {
            assert_eq!(is_mktemp(value), want, "{value}");
        }
    }
}
