//! A program word written with an expansion that still names its program when read:
//!
//! - a path whose last part is a plain name and whose other parts are plain text or a folder
//!   the environment names (`$PWD/build.sh`, `$(git rev-parse --show-toplevel)/scripts/
//!   check.sh`, `"$(npm bin)"/eslint`, `$HOME/.cargo/bin/cargo`): the program is that name,
//!   as `/some/folder/build.sh` would be. Any other expansion may split into words when it
//!   runs (`cat${IFS}~/.ssh/id_rsa` is `cat ~/.ssh/id_rsa`), so its program stays only known
//!   when it runs;
//! - one that is only a folder's name (`$(dirname "$0")`, `` `dirname $0` ``, `$(readlink -f
//!   $(dirname "$0"))`, `$(pwd)`): a folder can't be run (bash answers "Is a directory"), so
//!   it runs nothing. Only folders that exist when it runs count: the folder of the running
//!   script (`$0`, `$BASH_SOURCE`), of a path made canonical (`readlink -f`/`-e`, `realpath`,
//!   which need every folder above it to exist), the working folder, and these again.
//!   `dirname` of any other text is only that text cut short (`$(dirname /bin/rm/x)` is
//!   `/bin/rm`), so it stays a program only known when it runs.
//!
//! - one that asks the shell where a name is (`$(which python3)`, `$(command -v node)`):
//!   that name, as the shell would run it (`located`).
//!
//! Reading is bounded: a word is walked once for its tail, and a folder's substitutions are
//! followed at most [`MAX_NEST`] deep.

const MAX_NEST: usize = 4;

/// Is the program of a word holding an expansion known when the line is read?
pub(crate) fn known(text: &str) -> bool {
    plain_tail(text) || folder(text, 0)
}

/// The program a word names by asking the shell where it is (`$(which python3)`, `` `which
/// cc` ``, `$(command -v node)`, `$(type -P git)`): the path printed is the one the shell
/// would run for the name itself, so the word runs that program. `None` for any other word,
/// and for a name that is itself only known when it runs.
pub(crate) fn located(text: &str) -> Option<&str> {
    let inner = substitution(text)?.trim();
    let name = ["which ", "command -v ", "type -P ", "type -p "]
        .iter()
        .find_map(|ask| inner.strip_prefix(ask))?
        .trim();
    let plain = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'+'));
    (plain && !name.starts_with('-')).then_some(name)
}

/// Variables whose value is a folder the person's environment sets (the working folder, the
/// home folder, a toolchain's or a virtual environment's), never text to split into words.
const FOLDER_VARIABLES: &[&str] = &[
    "ANDROID_HOME",
    "CARGO_HOME",
    "CONDA_PREFIX",
    "GOBIN",
    "GOPATH",
    "GOROOT",
    "HOME",
    "JAVA_HOME",
    "NVM_DIR",
    "PWD",
    "PYENV_ROOT",
    "RUSTUP_HOME",
    "TMPDIR",
    "VIRTUAL_ENV",
];

/// Commands that print a folder: the working folder, the repository's top, a toolchain's.
const FOLDER_COMMANDS: &[&str] = &[
    "brew --prefix",
    "git rev-parse --show-toplevel",
    "go env GOBIN",
    "go env GOPATH",
    "go env GOROOT",
    "npm bin",
    "npm prefix",
    "npm root",
    "pwd",
    "pwd -L",
    "pwd -P",
    "pyenv root",
    "rustc --print sysroot",
    "yarn bin",
];

/// One part of a path between slashes: plain text, or an expansion that is a folder.
fn folder_part(part: &str, nest: usize) -> bool {
    if !part.contains(['$', '`']) {
        return !part.contains([
            '*', '?', '[', '{', '(', ')', ' ', '\t', ';', '|', '&', '<', '>',
        ]);
    }
    let variable = part
        .strip_prefix("${")
        .and_then(|p| p.strip_suffix('}'))
        .or_else(|| part.strip_prefix('$'));
    if variable.is_some_and(|name| FOLDER_VARIABLES.contains(&name)) {
        return true;
    }
    substitution(part).is_some_and(|inner| {
        let words: Vec<&str> = inner.split_whitespace().collect();
        FOLDER_COMMANDS.contains(&words.join(" ").as_str())
    }) || folder(part, nest)
}

/// The parts of a word between the slashes outside every expansion, or `None` when an
/// expansion isn't closed.
fn parts(text: &str) -> Option<Vec<&str>> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut backtick = false;
    let mut out = Vec::new();
    let mut from = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'`' => backtick = !backtick,
            b'$' if matches!(bytes.get(i + 1), Some(b'(' | b'{')) => {
                depth += 1;
                i += 1;
            }
            b'(' | b'{' if depth > 0 => depth += 1,
            b')' | b'}' if depth > 0 => depth -= 1,
            b'/' if depth == 0 && !backtick => {
                out.push(text.get(from..i)?);
                from = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if depth > 0 || backtick {
        return None;
    }
    out.push(text.get(from..)?);
    Some(out)
}

/// A path whose last part is a plain name after at least one slash, and every part before
/// it plain text or a folder's expansion.
fn plain_tail(text: &str) -> bool {
    let Some(parts) = parts(text) else {
        return false;
    };
    let Some((tail, folders)) = parts.split_last() else {
        return false;
    };
    !folders.is_empty()
        && !tail.is_empty()
        && !tail.contains(['$', '`'])
        && folder_part(tail, 0)
        && folders.iter().all(|part| folder_part(part, 0))
}

/// The text inside a word that is one substitution and nothing else: `$(…)` or `` `…` ``.
fn substitution(text: &str) -> Option<&str> {
    let inner = if let Some(rest) = text.strip_prefix("$(") {
        rest.strip_suffix(')')?
    } else {
        text.strip_prefix('`')?.strip_suffix('`')?
    };
    // `$(a) $(b)` is two: the inner text's brackets must balance.
    let mut depth = 0i32;
    for b in inner.bytes() {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            b'`' if text.starts_with('`') => return None,
            _ => {}
        }
    }
    (depth == 0).then_some(inner.trim())
}

/// Quotes around a whole word taken off.
fn unquoted(text: &str) -> &str {
    let text = text.trim();
    for q in ['"', '\''] {
        if let Some(inner) = text.strip_prefix(q).and_then(|t| t.strip_suffix(q)) {
            return inner;
        }
    }
    text
}

/// A substitution's program, its options and the rest of it (its one operand).
fn call(text: &str) -> Option<(&str, Vec<&str>, &str)> {
    let inner = substitution(unquoted(text))?;
    let (program, mut rest) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
    let mut options = Vec::new();
    loop {
        rest = rest.trim_start();
        match rest.split_once(char::is_whitespace) {
            Some((option, after)) if option.starts_with('-') => {
                options.push(option);
                rest = after;
            }
            None if rest.starts_with('-') => {
                options.push(rest);
                rest = "";
            }
            _ => break,
        }
    }
    Some((program, options, unquoted(rest)))
}

/// The path of the script that runs: it exists.
fn script(text: &str) -> bool {
    matches!(
        unquoted(text),
        "$0" | "${0}" | "$BASH_SOURCE" | "${BASH_SOURCE}" | "${BASH_SOURCE[0]}"
    )
}

/// A path made canonical: every folder above it exists (`readlink -f`/`-e`, `realpath`
/// without `-m`).
fn canonical(program: &str, options: &[&str]) -> bool {
    match program {
        "readlink" => options.iter().any(|o| matches!(*o, "-f" | "-e")),
        "realpath" => !options.iter().any(|o| o.contains('m')),
        _ => false,
    }
}

/// Is the text a substitution that prints the name of a folder that exists?
fn folder(text: &str, nest: usize) -> bool {
    if nest > MAX_NEST {
        return false;
    }
    let Some((program, options, operand)) = call(text) else {
        return false;
    };
    match program {
        "pwd" => operand.is_empty() && options.iter().all(|o| matches!(*o, "-P" | "-L")),
        "dirname" => options.is_empty() && exists(operand, nest + 1),
        _ if canonical(program, &options) => folder(operand, nest + 1),
        _ => false,
    }
}

/// Does the path a text names exist when it runs, so that its `dirname` is a folder?
fn exists(text: &str, nest: usize) -> bool {
    if nest > MAX_NEST {
        return false;
    }
    script(text)
        || folder(text, nest)
        || call(text).is_some_and(|(program, options, _)| canonical(program, &options))
}

#[cfg(test)]
mod tests {
    use super::known;

    #[test]
    fn a_plain_name_in_a_folder_the_environment_names_is_the_program() {
        for word in [
            "$PWD/build.sh",
            "${PWD}/scripts/test.sh",
            "$(pwd)/gradlew",
            "$(git rev-parse --show-toplevel)/scripts/check.sh",
            "$(npm bin)/eslint",
            "$(go env GOPATH)/bin/golangci-lint",
            "$HOME/.local/bin/tool",
            "${VIRTUAL_ENV}/bin/python",
            "`pwd`/run",
            "$(dirname \"$0\")/run.sh",
            "$(dirname $(readlink -f $BASH_SOURCE))/lib/x.sh",
        ] {
            assert!(known(word), "{word}");
        }
        for word in [
            "$CMD",
            "$(cat /etc/cmd)",
            "$(echo /bin/rm)",
            // Any other variable may split into words: its program is only known then.
            "$DIR/rm",
            "cat${IFS}~/.ssh/id_rsa",
            "$HOME$X/tool",
            "${HOME:-/x}/tool",
            "$(npm bin; rm -rf ~)/eslint",
            "$PWD/$NAME",
            "$PWD/",
            "$PWD/*",
            "$PWD/run-$VERSION",
            "$PWD/`x`",
            "$PWD/a b",
            "$(dirname $0",
            "`echo /bin/sh`",
            "$(dirname $X)/run.sh",
        ] {
            assert!(!known(word), "{word}");
        }
    }

    #[test]
    fn only_a_folder_that_exists_runs_nothing() {
        for word in [
            "$(dirname $0)",
            "$(dirname \"$0\")",
            "`dirname $0`",
            "$(dirname ${BASH_SOURCE[0]})",
            "$(dirname $(readlink -f $BASH_SOURCE))",
            "$(readlink -f $(dirname \"$0\"))",
            "$(dirname $(readlink -e ../../../../etc/passwd))",
            "$(dirname $(realpath x))",
            "$(dirname $(dirname $0))",
            "$(pwd)",
            "$(pwd -P)",
        ] {
            assert!(known(word), "{word}");
        }
        for word in [
            // `dirname` only cuts text: `/bin/rm/x` gives `/bin/rm`.
            "$(dirname /bin/rm/x)",
            "$(dirname $X)",
            "$(dirname $(readlink -m $X))",
            "$(dirname $(realpath -m $X))",
            "$(readlink $X)",
            "$(readlink -f $X)",
            "$(dirname $0) $(dirname $0)",
            "$(dirname $0)$X",
            "$(pwd) x",
            "$(basename $0)",
            "$(dirname $(dirname $(dirname $(dirname $(dirname $(dirname $0))))))",
        ] {
            assert!(!known(word), "{word}");
        }
    }
}
