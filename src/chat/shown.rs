//! A step as a question's card shows it to the person: what they read before they answer.
//! Kept with the question in the log (`Event::Asked`), so the card is the same after a
//! restart and on every screen that shows it.
//!
//! It is the step as the law judged it, never someone's description of it: the command as it
//! will run, the file, the address, the app's tool and its arguments. What is longer than
//! [`SHOWN_MAX`] is cut, and the card says how much was left out, so a person never reads
//! a shortened command as the whole of it.

use crate::step::{BrowserAction, Step};
use serde::{Deserialize, Serialize};

/// The most characters of a step's text, and of its detail, a card keeps.
pub const SHOWN_MAX: usize = 4_000;

/// A step as its card shows it.
///
/// Kept in the log inside `Option` at the end of `Event::Asked` and `Event::AskedAbout`, so
/// it may grow only by fields at its own end (their zero value read for older records).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Shown {
    /// What kind of step it is, one of [`KINDS`]: a word, so that an older warden reads a
    /// kind it doesn't know yet as text instead of refusing the record.
    pub kind: String,
    /// The command, the path, the address or query, the app's tool, the site, the prompt.
    pub text: String,
    /// What else the step carries: an app's arguments (JSON), a patch's other files, what a
    /// browser step clicks or types, how a schedule runs. Empty when there is nothing.
    pub detail: String,
    /// Characters of `text` and `detail` left out past [`SHOWN_MAX`].
    pub cut: u64,
}

/// The kinds a [`Shown`] names, and what its `text` holds for each.
pub const KINDS: [(&str, &str); 10] = [
    ("command", "the shell command as it will run"),
    ("powershell", "the PowerShell command as it will run"),
    ("read", "the file or folder read"),
    ("write", "the file written"),
    ("patch", "the first file the patch changes"),
    ("app", "the app's tool"),
    ("fetch", "the address fetched"),
    ("search", "the query searched"),
    ("browser", "the site"),
    ("schedule", "what will run later"),
];

/// The kind of a tool the law doesn't read further (bookkeeping, or not judged yet).
pub const TOOL: &str = "tool";

impl Shown {
    /// The step as its card shows it.
    pub fn of(step: &Step) -> Shown {
        let (kind, text, detail) = match step {
            Step::Command { command } => ("command", command.clone(), String::new()),
            Step::PowerShell { command } => ("powershell", command.clone(), String::new()),
            Step::File(file) => (
                match file.access {
                    crate::step::Access::Read => "read",
                    crate::step::Access::Write => "write",
                },
                file.path.clone(),
                String::new(),
            ),
            Step::Patch { files, .. } => (
                "patch",
                files.first().map(|f| f.path.clone()).unwrap_or_default(),
                files
                    .iter()
                    .skip(1)
                    .map(|f| f.path.as_str())
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            Step::App(app) => (
                "app",
                format!("{}:{}", app.app, app.tool),
                serde_json::to_string_pretty(&app.arguments).unwrap_or_default(),
            ),
            Step::Fetch(fetch) => (
                if fetch.search { "search" } else { "fetch" },
                fetch.target.clone(),
                String::new(),
            ),
            Step::Browser(browser) => {
                let action = match browser.action {
                    BrowserAction::Open => "open",
                    BrowserAction::Click => "click",
                    BrowserAction::Choose => "choose",
                    BrowserAction::Type => "type",
                    BrowserAction::Upload => "upload",
                    BrowserAction::Download => "download",
                };
                let mut detail = action.to_string();
                if !browser.label.is_empty() {
                    detail.push_str(&format!("\nlabel: {}", browser.label));
                }
                if !browser.text.is_empty() {
                    detail.push_str(&format!("\ntext: {}", browser.text));
                }
                if browser.own_browser {
                    detail.push_str("\nin the person's own signed-in browser");
                }
                ("browser", browser.site.clone(), detail)
            }
            Step::Schedule(schedule) => (
                "schedule",
                schedule.prompt.clone(),
                match (schedule.lasting, schedule.remote) {
                    (true, true) => "kept, and run in the cloud",
                    (true, false) => "kept after this session",
                    (false, true) => "run in the cloud",
                    (false, false) => "for this session",
                }
                .to_string(),
            ),
            Step::Bookkeeping { tool } | Step::Unjudged { tool } => {
                (TOOL, tool.clone(), String::new())
            }
        };
        let (text, cut_text) = head(&text);
        let (detail, cut_detail) = head(&detail);
        Shown {
            kind: kind.to_string(),
            text,
            detail,
            cut: cut_text + cut_detail,
        }
    }
}

/// The first [`SHOWN_MAX`] characters of `text`, and how many were left out.
fn head(text: &str) -> (String, u64) {
    let total = text.chars().count();
    if total <= SHOWN_MAX {
        return (text.to_string(), 0);
    }
    (
        text.chars().take(SHOWN_MAX).collect(),
        (total - SHOWN_MAX) as u64,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::step::{Access, AppStep, FetchStep, FileStep, Origin};

    #[test]
    fn a_card_shows_the_step_as_it_will_run() {
        let cases = [
            (
                Step::Command {
                    command: "git push origin feature/login".into(),
                },
                ("command", "git push origin feature/login", ""),
            ),
            (
                Step::File(FileStep {
                    tool: "Write".into(),
                    access: Access::Write,
                    path: "/w/src/main.rs".into(),
                    text: String::new(),
                }),
                ("write", "/w/src/main.rs", ""),
            ),
            (
                Step::App(AppStep {
                    app: "GitHub".into(),
                    tool: "create_issue".into(),
                    access: None,
                    origin: Origin::Mcp,
                    setting: None,
                    sites: vec![],
                    arguments: serde_json::json!({"title": "x"}),
                }),
                ("app", "GitHub:create_issue", "{\n  \"title\": \"x\"\n}"),
            ),
            (
                Step::Fetch(FetchStep {
                    tool: "WebSearch".into(),
                    target: "rust sled".into(),
                    search: true,
                }),
                ("search", "rust sled", ""),
            ),
            (
                Step::Unjudged {
                    tool: "REPL".into(),
                },
                (TOOL, "REPL", ""),
            ),
        ];
        for (step, (kind, text, detail)) in cases {
            let shown = Shown::of(&step);
            assert_eq!(
                (
                    shown.kind.as_str(),
                    shown.text.as_str(),
                    shown.detail.as_str()
                ),
                (kind, text, detail),
                "{step:?}"
            );
            assert_eq!(shown.cut, 0, "{step:?}");
            assert!(
                KINDS.iter().any(|(k, _)| *k == shown.kind) || shown.kind == TOOL,
                "{kind} is listed"
            );
        }
    }

    #[test]
    fn a_long_step_is_cut_and_says_how_much() {
        let command = format!("echo {}", "é".repeat(SHOWN_MAX));
        let shown = Shown::of(&Step::Command { command });
        assert_eq!(shown.text.chars().count(), SHOWN_MAX);
        assert_eq!(shown.cut, 5, "`echo ` and the rest: 5 characters left out");
    }
}
