//! What a finished tool call brought in from outside: the marks it puts on its chat, each
//! with where it came from. The host decodes its own shape of a call into a [`Call`]
//! (Claude Code's and Codex's `PostToolUse`: `warden_actors::hook::mark`); this says what
//! counts as read.
//!
//! Only ever adds caution, so it errs towards marking: a command it can't read fully is
//! still searched for the programs below.

use super::Mark;
use crate::shell::Line;
use std::path::{Component, Path, PathBuf};

/// A finished tool call, as the host decoded it: what it reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call<'a> {
    /// A page fetched (`WebFetch`): its address.
    Fetch { url: &'a str },
    /// A web search (`WebSearch`): its query.
    Search { query: &'a str },
    /// A resource an app over MCP holds, or a folder of them (`ReadMcpResourceTool`).
    Resource { server: &'a str, uri: &'a str },
    /// A file tool's read (`Read`, `Grep`, `Glob`, `LS`, `LSP`…): the path it read; empty
    /// for the work folder itself.
    File { path: &'a str },
    /// A shell command (`Bash`).
    Command { command: &'a str },
    /// A command or a socket watched (`Monitor`): what it printed came in as events.
    Monitor {
        command: &'a str,
        socket: Option<&'a str>,
    },
    /// A tool of an app over MCP (`mcp__server__tool`): what it answered.
    App { server: &'a str, tool: &'a str },
    /// Anything else (a write, the agent's bookkeeping): nothing from outside.
    Other,
}

/// The most marks one call adds (a shell line with many downloads).
pub const MOST: usize = 4;

/// The longest provenance a command's mark keeps, in characters.
const PROVENANCE_MAX: usize = 200;

/// Programs whose output is what a URL held. Not the catalogue's `Class::Downloader`: that
/// class lacks the text browsers and holds `curlie` and `deno`, so reading it instead would
/// change which commands mark a chat.
#[rustfmt::skip]
const DOWNLOADERS: &[&str] = &[
    "aria2c", "curl", "elinks", "fetch", "http", "https", "links", "lynx", "w3m", "wget", "xh",
];

/// `git` subcommands that bring in someone else's commits.
const GIT_FETCHES: &[&str] = &["clone", "fetch", "pull"];

/// `gh` subcommands that show what others wrote on GitHub.
#[rustfmt::skip]
const GH_READS: &[&str] = &["api", "gist", "issue", "pr", "release", "repo", "run", "search"];

/// The marks a finished call puts on its chat, run in the work folder `cwd` by a person
/// whose home is `home`: none for a call that read nothing from outside.
pub fn marks_of(call: &Call, cwd: &str, home: &str) -> Vec<Mark> {
    match *call {
        Call::Fetch { url } => vec![mark("a web page", url)],
        Call::Search { query } => vec![mark("web search results", query)],
        // A resource an MCP server holds (or a folder of them): that app's content.
        Call::Resource { server, uri } if !server.is_empty() => {
            vec![mark(&format!("{server} content"), uri)]
        }
        Call::File { path } => outside(path, cwd, home),
        Call::Command { command } => fetches(command),
        // What a watched command or socket printed came in as the watch's events.
        Call::Monitor {
            command: "",
            socket: Some(url),
        } => vec![mark("a web page", url)],
        Call::Monitor { command, .. } => fetches(command),
        Call::App { server, tool } if !server.is_empty() => {
            vec![mark(
                &format!("{server} content"),
                &format!("{server}/{tool}"),
            )]
        }
        Call::Resource { .. } | Call::App { .. } | Call::Other => Vec::new(),
    }
}

fn mark(name: &str, provenance: &str) -> Mark {
    Mark {
        name: name.to_string(),
        provenance: Some(provenance.to_string()),
    }
}

/// A read of a path outside the work folder (a relative path is inside it; an absent one is
/// the work folder itself). Lexical: `..` is resolved, symbolic links are not followed.
fn outside(path: &str, cwd: &str, home: &str) -> Vec<Mark> {
    if path.is_empty() {
        return Vec::new();
    }
    let expanded = match path.strip_prefix("~/") {
        Some(rest) => Path::new(home).join(rest),
        None if path == "~" => PathBuf::from(home),
        None => Path::new(cwd).join(path),
    };
    if normal(&expanded).starts_with(normal(Path::new(cwd))) {
        Vec::new()
    } else {
        vec![mark("a file outside the work folder", path)]
    }
}

/// `a/./b/../c` → `a/c`, lexically.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The downloads in a shell line: a downloader, `git clone|fetch|pull`, `gh api|issue|pr…`.
fn fetches(command: &str) -> Vec<Mark> {
    let line = Line::parse(command);
    let mut marks: Vec<Mark> = Vec::new();
    for cmd in &line.commands {
        let program = cmd.program();
        let args = cmd.args();
        let found = if DOWNLOADERS.contains(&program) {
            Some((
                "a web page",
                source(args).unwrap_or_else(|| cmd.words.join(" ")),
            ))
        } else if program == "git" && subcommand(args).is_some_and(|s| GIT_FETCHES.contains(&s)) {
            Some((
                "a git repository",
                source(args).unwrap_or_else(|| cmd.words.join(" ")),
            ))
        } else if program == "gh" && subcommand(args).is_some_and(|s| GH_READS.contains(&s)) {
            Some(("GitHub content", cmd.words.join(" ")))
        } else {
            None
        };
        if let Some((name, provenance)) = found {
            let provenance: String = provenance.chars().take(PROVENANCE_MAX).collect();
            let found = mark(name, &provenance);
            if !marks.contains(&found) {
                marks.push(found);
            }
        }
        if marks.len() >= MOST {
            break;
        }
    }
    marks
}

/// The first word that names a remote place: a URL or `user@host:path`.
fn source(args: &[String]) -> Option<String> {
    args.iter()
        .find(|a| a.contains("://") || (a.contains('@') && a.contains(':') && !a.starts_with('-')))
        .cloned()
}

/// The first word that is not an option (skipping the values of `git -C DIR`, `-c KEY=V`).
fn subcommand(args: &[String]) -> Option<&str> {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word == "-C" || word == "-c" || word == "-R" || word == "--repo" {
            words.next();
        } else if !word.starts_with('-') {
            return Some(word.as_str());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call, and the marks (name, provenance) it adds in `/repo` for a person at `/home/u`.
    type Case = (Call<'static>, &'static [(&'static str, &'static str)]);

    #[test]
    fn what_each_call_brings_in() {
        let table: &[Case] = &[
            (
                Call::Fetch {
                    url: "https://example.com/a",
                },
                &[("a web page", "https://example.com/a")],
            ),
            (
                Call::Search {
                    query: "rust http client",
                },
                &[("web search results", "rust http client")],
            ),
            (
                Call::Resource {
                    server: "github",
                    uri: "repo://acme/app/README.md",
                },
                &[("github content", "repo://acme/app/README.md")],
            ),
            // A resource of no server names no app: nothing to mark it with.
            (
                Call::Resource {
                    server: "",
                    uri: "repo://x",
                },
                &[],
            ),
            (
                Call::App {
                    server: "my_app",
                    tool: "list__all",
                },
                &[("my_app content", "my_app/list__all")],
            ),
            (
                Call::App {
                    server: "",
                    tool: "x",
                },
                &[],
            ),
            // Files: inside the work folder reads nothing from outside.
            (
                Call::File {
                    path: "/repo/src/main.rs",
                },
                &[],
            ),
            (
                Call::File {
                    path: "src/main.rs",
                },
                &[],
            ),
            (Call::File { path: "" }, &[]),
            (Call::File { path: "./a/../b" }, &[]),
            (
                Call::File {
                    path: "/repo/../etc/passwd",
                },
                &[("a file outside the work folder", "/repo/../etc/passwd")],
            ),
            (
                Call::File { path: "../other/x" },
                &[("a file outside the work folder", "../other/x")],
            ),
            (
                Call::File {
                    path: "/repository/x",
                },
                &[("a file outside the work folder", "/repository/x")],
            ),
            (
                Call::File { path: "~/notes.md" },
                &[("a file outside the work folder", "~/notes.md")],
            ),
            (
                Call::File { path: "~" },
                &[("a file outside the work folder", "~")],
            ),
            // Commands: what they download, clone or show of GitHub.
            (
                Call::Command {
                    command: "cargo test",
                },
                &[],
            ),
            (
                Call::Command {
                    command: "cd /repo && curl -sL https://get.example.sh | head",
                },
                &[("a web page", "https://get.example.sh")],
            ),
            (
                Call::Command {
                    command: "w3m -dump x.test",
                },
                &[("a web page", "w3m -dump x.test")],
            ),
            (
                Call::Command {
                    command: "git -C /repo clone git@github.com:o/r.git",
                },
                &[("a git repository", "git@github.com:o/r.git")],
            ),
            (
                Call::Command {
                    command: "git pull",
                },
                &[("a git repository", "git pull")],
            ),
            (
                Call::Command {
                    command: "git commit -m pull",
                },
                &[],
            ),
            (
                Call::Command {
                    command: "gh --repo o/r issue view 3",
                },
                &[("GitHub content", "gh --repo o/r issue view 3")],
            ),
            (
                Call::Command {
                    command: "gh auth status",
                },
                &[],
            ),
            (
                Call::Command {
                    command: "curl https://a.test/x; curl https://a.test/x",
                },
                &[("a web page", "https://a.test/x")],
            ),
            // Watched: a socket alone is a page; a command is read as a command.
            (
                Call::Monitor {
                    command: "",
                    socket: Some("wss://ci.test/ws"),
                },
                &[("a web page", "wss://ci.test/ws")],
            ),
            (
                Call::Monitor {
                    command: "curl -sN https://ci.test/events",
                    socket: Some("wss://ci.test/ws"),
                },
                &[("a web page", "https://ci.test/events")],
            ),
            (
                Call::Monitor {
                    command: "tail -f log",
                    socket: None,
                },
                &[],
            ),
            (Call::Other, &[]),
        ];
        for (call, want) in table {
            let got = marks_of(call, "/repo", "/home/u");
            let want: Vec<Mark> = want.iter().map(|(n, p)| mark(n, p)).collect();
            assert_eq!(got, want, "{call:?}");
        }
    }

    #[test]
    fn a_commands_provenance_is_bounded() {
        let command = format!("curl https://x.test/{}", "a".repeat(500));
        let marks = marks_of(&Call::Command { command: &command }, "/repo", "/home/u");
        let provenance = marks
            .first()
            .and_then(|m| m.provenance.as_deref())
            .unwrap_or_default();
        assert_eq!(provenance.chars().count(), PROVENANCE_MAX, "{marks:?}");
    }

    #[test]
    fn a_line_full_of_downloads_adds_a_bounded_number_of_marks() {
        let command = (0..20)
            .map(|i| format!("curl https://h{i}.test/"))
            .collect::<Vec<_>>()
            .join("; ");
        let marks = marks_of(&Call::Command { command: &command }, "/repo", "/home/u");
        assert_eq!(marks.len(), MOST);
    }
}
