//! Functions the line defines and then calls (`f(){ rm -rf "$1"; }; f ~`, `function f {
//! …; }; f ~`): each command of the body is read again at every call with the call's words
//! in the place of `$1`…`$9`, `"$@"` and `$*`, so a rule sees the paths the call gives, not a
//! place only known when it runs. Only what the call gives as plain words is put in (as
//! `positional.rs` binds a shell's `-c` words); the body as written stays, and the copies only
//! add. Bounded: at most [`MAX_COPIES`] commands a line.

use super::Command;
use super::parse::Out;

/// A function the line defines: its name and the commands of its body.
#[derive(Debug, Clone)]
pub(super) struct Function {
    pub name: String,
    pub body: std::ops::Range<usize>,
}

/// The most commands read again at the calls of the line's functions.
const MAX_COPIES: usize = 16;
/// The most words of a call put in.
const MAX_ARGS: usize = 9;

/// Reads each function's body as each of its calls runs it. When every call gives plain
/// words and the body neither shifts nor counts them, the body as written never runs with a
/// word only known when it runs: the first call's reading takes its place, the others are
/// added after the line's commands. Otherwise every reading is added beside the body.
pub(super) fn bind(out: &mut Out) {
    if out.functions.is_empty() {
        return;
    }
    let mut copies: Vec<Command> = Vec::new();
    let mut in_place: Vec<(usize, Command)> = Vec::new();
    for function in &out.functions {
        let calls: Vec<Vec<&str>> = out
            .commands
            .iter()
            .enumerate()
            .filter(|(at, call)| {
                *at >= function.body.end && call.words.first() == Some(&function.name)
            })
            .map(|(_, call)| call.args().iter().map(String::as_str).collect())
            .collect();
        let body = out.commands.get(function.body.clone()).unwrap_or(&[]);
        // A body that moves its words (`shift`, `set --`) gives `$1` another word than the
        // call's first: no reading of it would be the one that runs.
        if body.iter().any(|c| matches!(c.program(), "shift" | "set")) {
            continue;
        }
        let sure = !calls.is_empty()
            && calls
                .iter()
                .all(|args| args.len() <= MAX_ARGS && args.iter().all(|a| plain(a)))
            && !body.iter().any(|c| {
                c.words
                    .iter()
                    .any(|w| w.contains("$#") || w.contains("${#"))
            });
        for (n, args) in calls.iter().enumerate() {
            let args: Vec<&str> = args.iter().take(MAX_ARGS).copied().collect();
            for (k, cmd) in body.iter().enumerate() {
                if copies.len() >= MAX_COPIES {
                    break;
                }
                if let Some(copy) = called(cmd, &args) {
                    if sure && n == 0 {
                        in_place.push((function.body.start + k, copy));
                    } else {
                        copies.push(copy);
                    }
                }
            }
        }
    }
    for (at, copy) in in_place {
        if let Some(cmd) = out.commands.get_mut(at) {
            *cmd = copy;
        }
    }
    out.commands.extend(copies);
}

/// A word a call gives that is put in: a plain word, or the home folder (`f ~`: the law reads
/// `~` as the home folder).
fn plain(word: &str) -> bool {
    super::positional::plain(word)
        || word == "~"
        || word
            .strip_prefix("~/")
            .is_some_and(|rest| rest.is_empty() || super::positional::plain(rest))
}

/// `body` with `args` in the place of the positional parameters it names, when it names one
/// and a plain word stands for it.
fn called(body: &Command, args: &[&str]) -> Option<Command> {
    let all = args.iter().all(|a| plain(a)).then(|| args.join(" "));
    let put = |word: &str| {
        let mut text = word.to_string();
        for (n, arg) in args.iter().enumerate() {
            if plain(arg) {
                text = super::loops::put(&text, &(n + 1).to_string(), arg)?;
            }
        }
        if let Some(all) = &all {
            for name in ["@", "*"] {
                text = super::loops::put(&text, name, all)?;
            }
        }
        Some(text)
    };
    let (words, targets) = body.texts_read(super::vars::is_place, put)?;
    let changed = words != body.words
        || targets
            .iter()
            .zip(&body.redirects)
            .any(|(t, r)| *t != r.target);
    changed.then(|| super::vars::rebuilt(body, words, targets))
}

#[cfg(test)]
mod tests {
    use crate::shell::Line;

    fn words_of(line: &str) -> Vec<String> {
        Line::parse(line)
            .commands
            .iter()
            .map(|c| c.words.join(" "))
            .collect()
    }

    #[test]
    fn a_function_s_body_is_read_with_the_words_of_each_call() {
        let cases: &[(&str, &str)] = &[
            ("f(){ rm -rf \"$1\"; }; f ~", "rm -rf ~"),
            ("function f { rm -rf $1; }; f /etc", "rm -rf /etc"),
            ("function f() { rm -rf \"$@\"; }\nf ~ /tmp", "rm -rf ~ /tmp"),
            ("wipe() { rm -rf \"${1}\"/*; }; wipe ~", "rm -rf ~/*"),
            ("g(){ cp \"$1\" \"$2\"; }; g .env /tmp/x", "cp .env /tmp/x"),
        ];
        for (line, want) in cases {
            let read = words_of(line);
            assert!(read.iter().any(|w| w == want), "{line}: {read:?}");
        }
        // Called only with plain words: the body as written is gone, so a folder of the work
        // folder given to it asks nothing for a place only known when it runs.
        let read = words_of("clean(){ rm -rf \"$1\"; }; clean target; clean build");
        assert!(read.iter().any(|w| w == "rm -rf target"), "{read:?}");
        assert!(read.iter().any(|w| w == "rm -rf build"), "{read:?}");
        assert!(!read.iter().any(|w| w == "rm -rf $1"), "{read:?}");
        // A body that shifts is kept as written, and read with no call's words.
        let read = words_of("f(){ shift; rm -rf \"$1\"; }; f a ~");
        assert!(read.iter().any(|w| w == "rm -rf $1"), "{read:?}");
        assert!(!read.iter().any(|w| w == "rm -rf a"), "{read:?}");
        // Nothing called, or called with words only known when it runs: only the body.
        for line in [
            "f(){ rm -rf \"$1\"; }",
            "f(){ rm -rf \"$1\"; }; f \"$(cat list)\"",
        ] {
            let read = words_of(line);
            assert_eq!(
                read.iter()
                    .filter(|w| w.starts_with("rm"))
                    .collect::<Vec<_>>(),
                ["rm -rf $1"],
                "{line}: {read:?}"
            );
        }
    }
}
