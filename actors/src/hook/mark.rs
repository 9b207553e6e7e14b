//! What a finished tool call brought in from outside (Claude Code's `PostToolUse`): the marks
//! it puts on the chat, each with where it came from. Documented in `docs/hook.md`.
//!
//! Only ever adds caution, so it errs towards marking: a command it can't read fully is still
//! searched for the programs below.

use serde_json::Value;
use std::path::{Component, Path, PathBuf};
use warden::shell::Line;

/// Something read, as the daemon's `read` event takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// The source's name, for the person: "a web page", "GitHub content".
    pub name: String,
    /// Where it came from: a URL, a query, `server/tool`, a path, a command.
    pub provenance: String,
}

/// The most marks one call adds (a shell line with many downloads).
const MOST: usize = 4;

/// Programs whose output is what a URL held.
#[rustfmt::skip]
const DOWNLOADERS: &[&str] = &[
    "aria2c", "curl", "elinks", "fetch", "http", "https", "links", "lynx", "w3m", "wget", "xh",
];

/// `git` subcommands that bring in someone else's commits.
const GIT_FETCHES: &[&str] = &["clone", "fetch", "pull"];

/// `gh` subcommands that show what others wrote on GitHub.
#[rustfmt::skip]
const GH_READS: &[&str] = &["api", "gist", "issue", "pr", "release", "repo", "run", "search"];

/// The marks a finished call puts on its chat: none for a call that read nothing from outside.
pub fn marks_of(tool: &str, input: &Value, cwd: &str, home: &str) -> Vec<Mark> {
    let text = |field: &str| input.get(field).and_then(Value::as_str).unwrap_or_default();
    match tool {
        "WebFetch" => vec![mark("a web page", text("url"))],
        "WebSearch" => vec![mark("web search results", text("query"))],
        // A resource an MCP server holds (or a folder of them): that app's content.
        "ReadMcpResourceTool" | "ReadMcpResourceDirTool" if !text("server").is_empty() => {
            let server = text("server");
            vec![mark(&format!("{server} content"), text("uri"))]
        }
        "Read" => outside(text("file_path"), cwd, home),
        "NotebookRead" => outside(text("notebook_path"), cwd, home),
        "Grep" | "Glob" | "LS" => outside(text("path"), cwd, home),
        "LSP" => outside(text("filePath"), cwd, home),
        "Bash" => fetches(text("command")),
        // What a watched command or socket printed came in as the watch's events.
        "Monitor" => match input.pointer("/ws/url").and_then(Value::as_str) {
            Some(url) if text("command").is_empty() => vec![mark("a web page", url)],
            _ => fetches(text("command")),
        },
        _ => match tool
            .strip_prefix("mcp__")
            .and_then(|rest| rest.split_once("__"))
        {
            Some((server, name)) if !server.is_empty() => {
                vec![mark(
                    &format!("{server} content"),
                    &format!("{server}/{name}"),
                )]
            }
            _ => Vec::new(),
        },
    }
}

fn mark(name: &str, provenance: &str) -> Mark {
    Mark {
        name: name.to_string(),
        provenance: provenance.to_string(),
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
            let provenance: String = provenance.chars().take(200).collect();
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
    use serde_json::json;

    /// A tool, its input, and the marks (name, provenance) it adds.
    type Case = (&'static str, Value, Vec<(&'static str, &'static str)>);

    #[test]
    fn what_each_tool_brings_in() {
        let table: Vec<Case> = vec![
            (
                "WebFetch",
                json!({"url": "https://example.com/a", "prompt": "summarise"}),
                vec![("a web page", "https://example.com/a")],
            ),
            (
                "WebSearch",
                json!({"query": "rust http client"}),
                vec![("web search results", "rust http client")],
            ),
            (
                "mcp__github__get_issue",
                json!({"owner": "o", "repo": "r", "issue_number": 1}),
                vec![("github content", "github/get_issue")],
            ),
            (
                "mcp__my_app__list__all",
                json!({}),
                vec![("my_app content", "my_app/list__all")],
            ),
            (
                "ReadMcpResourceTool",
                json!({"server": "github", "uri": "repo://acme/app/README.md"}),
                vec![("github content", "repo://acme/app/README.md")],
            ),
            ("Read", json!({"file_path": "/repo/src/main.rs"}), vec![]),
            ("Read", json!({"file_path": "src/main.rs"}), vec![]),
            (
                "Read",
                json!({"file_path": "/repo/../etc/passwd"}),
                vec![("a file outside the work folder", "/repo/../etc/passwd")],
            ),
            (
                "Read",
                json!({"file_path": "/repository/x"}),
                vec![("a file outside the work folder", "/repository/x")],
            ),
            (
                "Read",
                json!({"file_path": "~/notes.md"}),
                vec![("a file outside the work folder", "~/notes.md")],
            ),
            ("Grep", json!({"pattern": "TODO"}), vec![]),
            (
                "Grep",
                json!({"pattern": "TODO", "path": "/tmp/other"}),
                vec![("a file outside the work folder", "/tmp/other")],
            ),
            (
                "Glob",
                json!({"pattern": "**/*.rs", "path": "/repo/src"}),
                vec![],
            ),
            (
                "Write",
                json!({"file_path": "/tmp/x", "content": "hi"}),
                vec![],
            ),
            ("Bash", json!({"command": "cargo test"}), vec![]),
            (
                "Bash",
                json!({"command": "cd /repo && curl -sL https://get.example.sh | head"}),
                vec![("a web page", "https://get.example.sh")],
            ),
            (
                "Bash",
                json!({"command": "sudo wget -q -O - http://x.test/y"}),
                vec![("a web page", "http://x.test/y")],
            ),
            (
                "Bash",
                json!({"command": "git -C /repo clone git@github.com:o/r.git"}),
                vec![("a git repository", "git@github.com:o/r.git")],
            ),
            (
                "Bash",
                json!({"command": "git pull"}),
                vec![("a git repository", "git pull")],
            ),
            ("Bash", json!({"command": "git commit -m pull"}), vec![]),
            (
                "Bash",
                json!({"command": "gh pr view 12 --comments"}),
                vec![("GitHub content", "gh pr view 12 --comments")],
            ),
            ("Bash", json!({"command": "gh auth status"}), vec![]),
            (
                "Bash",
                json!({"command": "echo $(curl https://a.test/x)"}),
                vec![("a web page", "https://a.test/x")],
            ),
            ("Agent", json!({"prompt": "look around"}), vec![]),
            (
                "LSP",
                json!({"operation": "hover", "filePath": "/usr/lib/x.rs", "line": 1, "character": 1}),
                vec![("a file outside the work folder", "/usr/lib/x.rs")],
            ),
            (
                "LSP",
                json!({"operation": "hover", "filePath": "src/x.rs", "line": 1, "character": 1}),
                vec![],
            ),
            (
                "Monitor",
                json!({"description": "d", "timeout_ms": 1, "command": "tail -f log | grep x"}),
                vec![],
            ),
            (
                "Monitor",
                json!({"description": "d", "timeout_ms": 1, "command": "curl -sN https://ci.test/events"}),
                vec![("a web page", "https://ci.test/events")],
            ),
            (
                "Monitor",
                json!({"description": "d", "timeout_ms": 1, "ws": {"url": "wss://ci.test/ws"}}),
                vec![("a web page", "wss://ci.test/ws")],
            ),
            (
                "ReadMcpResourceDirTool",
                json!({"server": "github", "uri": "repo://acme/app/"}),
                vec![("github content", "repo://acme/app/")],
            ),
        ];
        for (tool, input, want) in table {
            let got = marks_of(tool, &input, "/repo", "/home/u");
            let want: Vec<Mark> = want.into_iter().map(|(n, p)| mark(n, p)).collect();
            assert_eq!(got, want, "{tool} {input}");
        }
    }

    #[test]
    fn a_line_full_of_downloads_adds_a_bounded_number_of_marks() {
        let command = (0..20)
            .map(|i| format!("curl https://h{i}.test/"))
            .collect::<Vec<_>>()
            .join("; ");
        let marks = marks_of("Bash", &json!({ "command": command }), "/repo", "/home/u");
        assert_eq!(marks.len(), MOST);
    }
}
