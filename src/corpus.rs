//! Corpus cases as data: what a case says, and running one through the law. Reading the
//! files is the caller's (the test harness and `warden corpus`); this module is pure.

use crate::facts::FakeFacts;
use crate::law::judge;
use crate::protocol::{Defaults, Request, read_request};
use crate::step::{Context, Step};
use crate::verdict::{Decision, Verdict};
use serde::Deserialize;
use serde_json::{Map, Value};

/// The folders under `corpus/` that hold step cases, one per kind of step.
pub const AREAS: &[&str] = &["shell", "files", "apps", "web", "browser"];

/// The mark every case's `after` run carries.
pub const AFTER_READING: &str = "a web page";

/// The default world a case runs in (`corpus/world.json`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct World {
    pub cwd: String,
    pub facts: Map<String, Value>,
}

/// One case (see `corpus/README.md`): a shell command, or any tool call.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub case: String,
    /// A shell command (the same as `tool_name: Bash` with this command).
    #[serde(default)]
    pub command: Option<String>,
    /// Any other tool call, in Claude Code's names and shapes.
    #[serde(default)]
    pub tool_name: Option<String>,
    #[serde(default)]
    pub tool_input: Option<Value>,
    /// What the request declares about the tool's app.
    #[serde(default)]
    pub app: Option<Value>,
    /// The app registry for this case (`apps` in the configuration).
    #[serde(default)]
    pub apps: Option<Value>,
    /// Paths refused to the agent (absolute).
    #[serde(default)]
    pub protected: Vec<String>,
    /// A skill's list drives the chat.
    #[serde(default)]
    pub skill: bool,
    /// The marks the `after` run carries (default: one web page).
    #[serde(default)]
    pub read: Option<Vec<String>>,
    pub before: String,
    pub after: String,
    #[serde(default)]
    pub said: Vec<String>,
    #[serde(default)]
    pub others: bool,
    #[serde(default)]
    pub mode: Option<String>,
    #[serde(default)]
    pub cwd: Option<String>,
    #[serde(default)]
    pub facts: Option<Map<String, Value>>,
    #[serde(default)]
    pub rules: Vec<String>,
    #[serde(default)]
    pub not_rules: Vec<String>,
}

impl Case {
    /// The case as a request line, carrying the marks `read`.
    pub fn request(&self, world: &World, read: &[String]) -> Value {
        let mut request = serde_json::json!({
            "id": self.case,
            "mode": self.mode.clone().unwrap_or_else(|| "auto".to_string()),
            "cwd": self.cwd.clone().unwrap_or_else(|| world.cwd.clone()),
            "said": self.said,
            "read": read,
            "others": self.others,
            "skill": self.skill,
            "tool_name": self.tool_name.clone().unwrap_or_else(|| "Bash".to_string()),
            "tool_input": self.tool_input.clone().unwrap_or_else(|| serde_json::json!({"command": self.command.clone().unwrap_or_default()})),
        });
        if let (Some(app), Some(object)) = (&self.app, request.as_object_mut()) {
            object.insert("app".to_string(), app.clone());
        }
        request
    }

    /// The marks the `after` run carries.
    pub fn marks_after(&self) -> Vec<String> {
        self.read
            .clone()
            .unwrap_or_else(|| vec![AFTER_READING.to_string()])
    }

    /// The step, as a person reads it in a failure: the command, or the tool and its input.
    pub fn shown(&self) -> String {
        match (&self.command, &self.tool_name) {
            (Some(command), _) => command.clone(),
            (None, Some(tool)) => format!(
                "{tool} {}",
                self.tool_input
                    .as_ref()
                    .map(Value::to_string)
                    .unwrap_or_default()
            ),
            (None, None) => String::new(),
        }
    }
}

/// What running a case gave.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub before: Verdict,
    pub after: Verdict,
    /// Empty when the case holds.
    pub failures: Vec<String>,
}

/// Reads the cases of one JSON-lines file: `(line number, case or error)`, skipping blank
/// lines and `#` comments.
pub fn parse_cases(text: &str) -> Vec<(usize, Result<Case, String>)> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|(index, line)| {
            (
                index + 1,
                serde_json::from_str::<Case>(line).map_err(|e| e.to_string()),
            )
        })
        .collect()
}

/// Runs one case in a world: before reading and after.
pub fn run(case: &Case, world: &World) -> Outcome {
    let mut failures = Vec::new();
    let mut facts_map = world.facts.clone();
    if let Some(overrides) = &case.facts {
        for (key, value) in overrides {
            facts_map.insert(key.clone(), value.clone());
        }
    }
    let facts: FakeFacts = serde_json::from_value(Value::Object(facts_map)).unwrap_or_else(|e| {
        failures.push(format!("the case's facts are invalid: {e}"));
        FakeFacts::unknown()
    });
    let request = case.request(world, &[]);
    let mut defaults = Defaults::new(world.cwd.clone());
    defaults.protected = case.protected.clone();
    if let Some(apps) = &case.apps {
        match serde_json::from_value(apps.clone()) {
            Ok(apps) => defaults.apps = apps,
            Err(e) => failures.push(format!("the case's apps are invalid: {e}")),
        }
    }
    if case.command.is_some() == case.tool_name.is_some() {
        failures
            .push("a case has either `command` or `tool_name`, not both or neither".to_string());
    }
    let parsed = serde_json::from_value::<Request>(request)
        .map_err(|e| e.to_string())
        .and_then(|request| read_request(&request, &defaults).map_err(|e| e.to_string()));
    let (step, mut ctx) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            failures.push(format!("the case is not a valid request: {e}"));
            (
                Step::Unjudged {
                    tool: "invalid case".to_string(),
                },
                Context::default(),
            )
        }
    };
    let before = judge(&step, &ctx, &facts);
    ctx.read = case.marks_after();
    let after = judge(&step, &ctx, &facts);
    for (when, want, got) in [
        ("before", &case.before, &before),
        ("after", &case.after, &after),
    ] {
        match Decision::parse(want) {
            Some(want) if want == got.decision => {}
            Some(want) => failures.push(format!(
                "{when} reading: want {}, got {} (score {}: {})",
                want.name(),
                got.decision.name(),
                got.score,
                got.reason
            )),
            None => failures.push(format!("`{want}` is not a decision (allow, ask, deny)")),
        }
    }
    let fired: Vec<&str> = after
        .risks
        .iter()
        .chain(&before.risks)
        .map(|s| s.risk.rule.name())
        .collect();
    for rule in &case.rules {
        if !fired.contains(&rule.as_str()) {
            failures.push(format!(
                "rule {rule} did not fire (fired: {})",
                fired.join(", ")
            ));
        }
    }
    for rule in &case.not_rules {
        if fired.contains(&rule.as_str()) {
            failures.push(format!("rule {rule} fired and must not"));
        }
    }
    Outcome {
        before,
        after,
        failures,
    }
}
