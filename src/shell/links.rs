//! A link the line makes, then names: `ln -s /etc/passwd p && echo x >> p` writes
//! `/etc/passwd`, and `ln -s ~/.ssh k; tar czf k.tgz k` packs the keys. What the line does
//! through a link is done to what it points to, so the commands after `ln` are read with the
//! link's path put back as its target (a hard link too: writing it writes the file).
//!
//! Literal paths only: `ln [-s] [-f] [-n] TARGET LINK`, or `ln -s TARGET` (a link named as
//! the target's last part, here). A word is the link when it is its path as written, `./`
//! aside, or a path under it (`k/id_rsa`). A target only known when it runs, `ln -t DIR`, or
//! more than one target is left as it was.

use super::parse::Out;

/// The most links a line is read with.
const MAX_LINKS: usize = 8;

/// Puts each link's target in the place of its path in the commands after the `ln`.
pub(super) fn bind(out: &mut Out) {
    let links: Vec<(usize, String, String)> = out
        .commands
        .iter()
        .enumerate()
        .filter(|(_, c)| c.program() == "ln")
        .filter_map(|(at, c)| made(c.args()).map(|(target, link)| (at, target, link)))
        .take(MAX_LINKS)
        .collect();
    for (at, target, link) in links {
        for cmd in out.commands.iter_mut().skip(at + 1) {
            let words: Vec<String> = cmd
                .words
                .iter()
                .map(|w| through(w, &link, &target))
                .collect();
            if words != cmd.words {
                let (dynamic, dynamic_program) = (cmd.dynamic, cmd.dynamic_program);
                *cmd = cmd.with_words(words);
                (cmd.dynamic, cmd.dynamic_program) = (dynamic, dynamic_program);
            }
            for r in &mut cmd.redirects {
                r.target = through(&r.target, &link, &target);
            }
        }
    }
}

/// `ln`'s target and the link it makes, when both are written out.
fn made(args: &[String]) -> Option<(String, String)> {
    let mut operands = Vec::new();
    let mut ended = false;
    for arg in args {
        if !ended && arg == "--" {
            ended = true;
        } else if !ended && arg.starts_with('-') && arg.len() > 1 {
            // `-t DIR` (`--target-directory`) names the folder, not the link.
            if arg == "-t" || arg.starts_with("--target") || arg.starts_with("-t") {
                return None;
            }
        } else {
            operands.push(arg.as_str());
        }
    }
    let known = |p: &str| !p.is_empty() && !p.contains(['$', '`', '*', '?']);
    let (target, link) = match operands.as_slice() {
        [target] => (*target, base(target)),
        [target, link] => (*target, *link),
        _ => return None,
    };
    if !known(target) || !known(link) {
        return None;
    }
    let link = plain(link);
    // A relative target is relative to the link's folder.
    let target = match link.rsplit_once('/') {
        Some((dir, _)) if !target.starts_with(['/', '~']) => format!("{dir}/{target}"),
        _ => target.to_string(),
    };
    (!link.is_empty()).then(|| (target, link.to_string()))
}

/// A path as the line's commands compare it (`./x` is `x`, `x/` is `x`).
fn plain(path: &str) -> &str {
    let path = path.strip_prefix("./").unwrap_or(path);
    path.strip_suffix('/').unwrap_or(path)
}

/// The last part of a path.
fn base(path: &str) -> &str {
    let path = path.strip_suffix('/').unwrap_or(path);
    path.rsplit('/').next().unwrap_or(path)
}

/// `word` with the link's path put back as its target, when it names the link or a path
/// under it.
fn through(word: &str, link: &str, target: &str) -> String {
    let path = plain(word);
    if path == link {
        return target.to_string();
    }
    match path.strip_prefix(link) {
        Some(rest) if rest.starts_with('/') => format!("{target}{rest}"),
        _ => word.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use crate::shell::Line;

    #[test]
    fn a_link_named_after_it_is_made_is_its_target() {
        for (text, want) in [
            ("ln -s /etc/passwd p && echo x >> p", "/etc/passwd"),
            ("ln -sf /etc/passwd ./p; echo x > ./p", "/etc/passwd"),
            ("ln ~/.bashrc b; echo x >> b", "~/.bashrc"),
            ("ln -s ~/.ssh k; cat k/id_rsa", "~/.ssh/id_rsa"),
            ("ln -s /etc/hosts; echo x >> hosts", "/etc/hosts"),
            (
                "ln -s ../shared/x.json conf/x.json; echo x > conf/x.json",
                "conf/../shared/x.json",
            ),
        ] {
            let line = Line::parse(text);
            let last = line.commands.last();
            let named = last
                .map(|c| {
                    c.words
                        .iter()
                        .chain(c.redirects.iter().map(|r| &r.target))
                        .any(|w| w == want)
                })
                .unwrap_or(false);
            assert!(named, "{text}: {:?}", line.commands.last());
        }
    }

    #[test]
    fn a_link_only_known_when_it_runs_is_left() {
        for text in [
            "ln -s $T p; echo x >> p",
            "ln -s -t dir /etc/passwd; echo x >> dir/passwd",
            "echo x >> p; ln -s /etc/passwd p",
        ] {
            let line = Line::parse(text);
            let touched = line.commands.iter().any(|c| {
                c.words
                    .iter()
                    .chain(c.redirects.iter().map(|r| &r.target))
                    .any(|w| w.contains("/etc/passwd") && c.words.first().is_none_or(|p| p != "ln"))
            });
            assert!(!touched, "{text}");
        }
    }
}
