//! What a finished tool call brought in from outside (Claude Code's `PostToolUse`): the host's
//! JSON decoded into the call it was (`warden::chat::read::Call`), whose marks the chat law
//! says (`warden::chat::read::marks_of`), each with where it came from. Documented in
//! `docs/hook.md`.

use serde_json::Value;
use warden::chat::read::{self, Call};

/// Something read, as the daemon's `read` event takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// The source's name, for the person: "a web page", "GitHub content".
    pub name: String,
    /// Where it came from: a URL, a query, `server/tool`, a path, a command.
    pub provenance: String,
}

/// The marks a finished call puts on its chat: none for a call that read nothing from outside.
pub fn marks_of(tool: &str, input: &Value, cwd: &str, home: &str) -> Vec<Mark> {
    read::marks_of(&call(tool, input), cwd, home)
        .into_iter()
        .map(|mark| Mark {
            name: mark.name,
            provenance: mark.provenance.unwrap_or_default(),
        })
        .collect()
}

/// The call a Claude Code tool and its input stand for.
fn call<'a>(tool: &'a str, input: &'a Value) -> Call<'a> {
    let text = |field: &str| input.get(field).and_then(Value::as_str).unwrap_or_default();
    match tool {
        "WebFetch" => Call::Fetch { url: text("url") },
        "WebSearch" => Call::Search {
            query: text("query"),
        },
        "ReadMcpResourceTool" | "ReadMcpResourceDirTool" => Call::Resource {
            server: text("server"),
            uri: text("uri"),
        },
        "Read" => Call::File {
            path: text("file_path"),
        },
        "NotebookRead" => Call::File {
            path: text("notebook_path"),
        },
        "Grep" | "Glob" | "LS" => Call::File { path: text("path") },
        "LSP" => Call::File {
            path: text("filePath"),
        },
        "Bash" => Call::Command {
            command: text("command"),
        },
        "Monitor" => Call::Monitor {
            command: text("command"),
            socket: input.pointer("/ws/url").and_then(Value::as_str),
        },
        _ => match tool
            .strip_prefix("mcp__")
            .and_then(|rest| rest.split_once("__"))
        {
            Some((server, name)) => Call::App { server, tool: name },
            None => Call::Other,
        },
    }
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
            let want: Vec<Mark> = want
                .into_iter()
                .map(|(n, p)| Mark {
                    name: n.to_string(),
                    provenance: p.to_string(),
                })
                .collect();
            assert_eq!(got, want, "{tool} {input}");
        }
    }
}
