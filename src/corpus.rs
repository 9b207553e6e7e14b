//! Corpus cases as data: what a case says, and running one through the law. Reading the
//! files is the caller's (the test harness and `warden corpus`); this module is pure.

use crate::facts::FakeFacts;
use crate::law::judge;
use crate::mode::Mode;
use crate::step::{Context, Step};
use crate::verdict::{Decision, Verdict};
use serde::Deserialize;
use serde_json::{Map, Value};

/// The mark every case's `after` run carries.
pub const AFTER_READING: &str = "a web page";

/// The default world a case runs in (`corpus/world.json`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct World {
    pub cwd: String,
    pub facts: Map<String, Value>,
}

/// One shell case (see `corpus/README.md`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub case: String,
    pub command: String,
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
    let mode = match case.mode.as_deref().map(Mode::parse).transpose() {
        Ok(mode) => mode.unwrap_or_default(),
        Err(e) => {
            failures.push(e.to_string());
            Mode::Auto
        }
    };
    let mut ctx = Context {
        mode,
        cwd: case.cwd.clone().unwrap_or_else(|| world.cwd.clone()),
        said: case.said.clone(),
        read: Vec::new(),
        others: case.others,
    };
    let step = Step::Command {
        command: case.command.clone(),
    };
    let before = judge(&step, &ctx, &facts);
    ctx.read = vec![AFTER_READING.to_string()];
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
        .map(|s| s.risk.rule)
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
