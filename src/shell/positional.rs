//! The words a shell's `-c` text is given: `bash -c 'mv "$1" "$2"' _ a.txt b.txt` runs
//! `mv "a.txt" "b.txt"`, and `find . -exec sh -c 'mv "$1" "${1%.txt}.md"' _ {} \;` moves each
//! file found to a name beside it. Where the words are plain, the text is read with them in
//! place of `$1`…`$9`, so a rule sees the paths they are, not a place only known
//! when it runs.
//!
//! Only what keeps a path where it was stands for the word:
//! - `$N`, `${N}`: the word itself;
//! - `${N/PAT/REP}`, `${N//PAT/REP}`, with PAT and REP plain names (no `/`, no `.`, REP not
//!   empty): the word with a name changed, in the same folder;
//! - `${N%SUFFIX}`, `${N%%SUFFIX}` with a plain suffix (`.txt`, no `/`): the word with its end
//!   cut, in the same folder;
//! - `$(dirname "$N")`, `$(basename "$N" [SUFFIX])`, and their cuts `${N%/*}`, `${N##*/}`
//!   (and `${N%%/*}`, `${N#*/}`) for a relative word without `..` (or find's `{}`): a place
//!   inside the word's own, for which the word stands.
//!
//! Anything else (`"$@"`, which is several words, `${1#.}`, which can make a relative path absolute, a replacement holding
//! `/` or `..`, a word with quotes or `$`) is left as written: only known when it runs.

/// The most words bound (`$1`…`$9`).
const MAX: usize = 9;

/// `text` with the positional parameters it names bound to `args` (`$1` is `args[0]`), or
/// `None` when there is nothing to bind.
#[cfg(test)]
pub(super) fn bind(text: &str, args: &[&str]) -> Option<String> {
    bind_from(text, None, args)
}

/// The same, with `$0` bound to `zero` too: `find . -exec bash -c 'rm "$0"' {} \;` gives
/// each path found as `$0`. A `zero` that isn't plain leaves `$0` as written, and binds the
/// others still.
pub(super) fn bind_from(text: &str, zero: Option<&str>, args: &[&str]) -> Option<String> {
    let zero = zero.filter(|z| plain(z));
    if (args.is_empty() && zero.is_none()) || !args.iter().all(|a| plain(a)) || !text.contains('$')
    {
        return None;
    }
    let args = &args[..args.len().min(MAX)];
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut bound = false;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        match expansion(after, zero, args) {
            Some((len, value)) => {
                out.push_str(&value);
                rest = &after[len..];
                bound = true;
            }
            None => {
                out.push('$');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    bound.then_some(out)
}

/// A word that means the same bare and inside double quotes: no quote, space, `$` (but
/// the `$HOME` the caller made of `~`), backtick, backslash, glob or operator. A bare `~` is
/// left out (the outer shell made it the home folder; inside quotes it would be a name),
/// and so are braces but find's `{}`.
pub(super) fn plain(word: &str) -> bool {
    word == "{}"
        || word
            .strip_prefix("$HOME")
            .is_some_and(|rest| rest.is_empty() || (rest.starts_with('/') && plain(rest)))
        || (!word.is_empty()
            && word.bytes().all(|b| {
                b.is_ascii_alphanumeric()
                    || matches!(
                        b,
                        b'/' | b'.' | b'_' | b'-' | b'+' | b',' | b':' | b'@' | b'%' | b'='
                    )
            }))
}

/// A relative word that can't climb out of the folder it names (or find's `{}`).
fn stays_inside(word: &str) -> bool {
    word == "{}"
        || (!word.starts_with(['/', '~', '$']) && !word.split('/').any(|part| part == ".."))
}

/// A name with no folder in it and no dot: `foo`, `Bar_2`.
fn plain_name(text: &str) -> bool {
    text.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The positional parameter `$…` at the start of `text` names, and its length: `$1`,
/// `${1}`, `${1//a/b}`, `${1%.x}`, `"$@"`, `$(dirname "$1")`.
fn expansion(text: &str, zero: Option<&str>, args: &[&str]) -> Option<(usize, String)> {
    let bytes = text.as_bytes();
    let arg = |digit: u8| -> Option<&str> {
        let n = usize::from(digit.checked_sub(b'0')?);
        if n == 0 {
            return zero;
        }
        (1..=MAX)
            .contains(&n)
            .then(|| args.get(n - 1).copied())
            .flatten()
    };
    match bytes.get(1)? {
        b'0'..=b'9' => {
            // `$12` is `$1` then `2`, as the shell reads it.
            Some((2, arg(bytes[1])?.to_string()))
        }
        b'{' => {
            let close = text.find('}')?;
            let inner = &text[2..close];
            let digit = *inner.as_bytes().first()?;
            let word = arg(digit)?;
            let op = &inner[1..];
            let value = if op.is_empty() {
                word.to_string()
            } else if let Some(sub) = op.strip_prefix("//").or_else(|| op.strip_prefix('/')) {
                let (pat, rep) = sub.split_once('/')?;
                (plain_name(pat) && !pat.is_empty() && plain_name(rep) && !rep.is_empty())
                    .then(|| word.to_string())?
            } else if matches!(op, "%/*" | "%%/*" | "#*/" | "##*/") {
                // Its folder (`${1%/*}`), its name (`${1##*/}`), or what follows its first
                // folder: a place inside the word's own, for a word that stays inside.
                stays_inside(word).then(|| word.to_string())?
            } else if let Some(suffix) = op.strip_prefix("%%").or_else(|| op.strip_prefix('%')) {
                (!suffix.contains('/') && !suffix.is_empty() && plain(suffix))
                    .then(|| word.to_string())?
            } else {
                return None;
            };
            Some((close + 1, value))
        }
        b'(' => {
            // `$(dirname "$1")`, `$(basename "$1" .txt)`: a place inside the word's own.
            let close = text.find(')')?;
            let inner = text[2..close].trim();
            let (tool, operand) = inner.split_once(' ')?;
            if !matches!(tool, "dirname" | "basename") {
                return None;
            }
            let mut parts = operand.split_whitespace();
            let first = parts.next()?.trim_matches('"');
            let digit = match first.as_bytes() {
                [b'$', d] => *d,
                [b'$', b'{', d, b'}'] => *d,
                _ => return None,
            };
            let word = arg(digit)?;
            let suffix_ok = match (tool, parts.next()) {
                (_, None) => true,
                ("basename", Some(suffix)) => plain(suffix) && !suffix.contains('/'),
                _ => false,
            };
            (stays_inside(word) && suffix_ok && parts.next().is_none())
                .then(|| (close + 1, word.to_string()))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{bind, bind_from};

    #[test]
    fn words_stand_for_their_parameters() {
        for (text, args, want) in [
            (
                "mv \"$1\" \"$2\"",
                &["a.txt", "b.txt"][..],
                "mv \"a.txt\" \"b.txt\"",
            ),
            (
                "mv \"$1\" \"${1//foo/Bar}\"",
                &["{}"][..],
                "mv \"{}\" \"{}\"",
            ),
            (
                "mv \"$1\" \"${1%.abc}.edefg\"",
                &["{}"][..],
                "mv \"{}\" \"{}.edefg\"",
            ),
            (
                "mv \"$1\" \"$(dirname \"$1\")/$(basename \"$1\" .abc).edefg\"",
                &["{}"][..],
                "mv \"{}\" \"{}/{}.edefg\"",
            ),
            ("echo ${1}x", &["src/x"][..], "echo src/xx"),
            (
                "d=\"${1%/*}\"; mv \"$1\" \"$d/x-${1##*/}\"",
                &["{}"][..],
                "d=\"{}\"; mv \"{}\" \"$d/x-{}\"",
            ),
        ] {
            assert_eq!(bind(text, args).as_deref(), Some(want), "{text}");
        }
    }

    #[test]
    fn what_could_move_a_path_elsewhere_stays_unknown() {
        for (text, args) in [
            // A prefix cut can make `./x` absolute; a replacement can add folders or `..`.
            ("mv \"$1\" \"${1#.}\"", &["{}"][..]),
            ("mv \"$1\" \"${1//foo/..}\"", &["{}"][..]),
            ("mv \"$1\" \"${1//foo/a\\/b}\"", &["{}"][..]),
            ("mv \"$1\" \"${1//./}\"", &["{}"][..]),
            // The folder of an absolute word, or one that climbs, is not inside it.
            ("mv x \"$(dirname \"$1\")\"", &["/home/user/app"][..]),
            ("mv x \"$(dirname \"$1\")\"", &["../up"][..]),
            ("mv x \"${1%/*}\"", &["/etc/passwd"][..]),
            ("mv x \"${1##*/}\"", &["../up/x"][..]),
            ("mv x \"${1%/x*}\"", &["{}"][..]),
            ("mv x \"$(rm -rf \"$1\")\"", &["a"][..]),
            ("mv x \"$3\"", &["a"][..]),
        ] {
            let got = bind(text, args).unwrap_or_else(|| text.to_string());
            assert!(got.contains('$'), "{text} -> {got}");
        }
        // A word that is not plain binds nothing at all.
        assert_eq!(bind("rm \"$1\"", &["$(id)"]), None);
        assert_eq!(bind("rm \"$1\"", &["a b"]), None);
        assert_eq!(bind("rm \"$1\"", &["~"]), None);
        assert_eq!(bind("rm \"$1\"", &["{a,b}"]), None);
        assert_eq!(bind("ls", &["a"]), None);
    }

    #[test]
    fn zero_is_bound_when_given() {
        assert_eq!(
            bind_from("rm \"$0\"", Some("{}"), &[]).as_deref(),
            Some("rm \"{}\"")
        );
        assert_eq!(
            bind_from("rm -rf \"$1\"", Some("_"), &["$HOME"]).as_deref(),
            Some("rm -rf \"$HOME\"")
        );
        // A `$0` only known when it runs is left as written; `$1` is still bound.
        assert_eq!(
            bind_from("mv \"$0\" \"$1\"", Some("$"), &["b"]).as_deref(),
            Some("mv \"$0\" \"b\"")
        );
        // `$HOME` is no place inside the work folder: `dirname` of it stays a substitution,
        // only known when it runs, with `$HOME` written in it.
        assert_eq!(
            bind("mv x \"$(dirname \"$1\")\"", &["$HOME/a"]).as_deref(),
            Some("mv x \"$(dirname \"$HOME/a\")\"")
        );
    }
}
