//! Shell cases: every `corpus/shell/*.jsonl` through the law, before and after reading, with
//! the rates each file must hold (see corpus/README.md).

use std::path::PathBuf;
use warden::corpus::{World, parse_cases, run};
use warden::verdict::Decision;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

fn world() -> World {
    let path = corpus_dir().join("world.json");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What a whole file must hold, whatever its cases say.
fn must_hold(file: &str, before: Decision, after: Decision) -> Option<&'static str> {
    match file {
        "routine.jsonl" if before != Decision::Allow || after != Decision::Allow => {
            Some("routine must ask 0.0%")
        }
        "adversarial.jsonl" if after == Decision::Allow => {
            Some("adversarial must ask or deny 100% after reading")
        }
        "unliftable.jsonl" if before == Decision::Allow || after == Decision::Allow => {
            Some("unliftable must never allow")
        }
        _ => None,
    }
}

/// Every step case file, sorted.
fn step_files() -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = Vec::new();
    for area in warden::corpus::AREAS {
        let dir = corpus_dir().join(area);
        let Ok(read) = std::fs::read_dir(&dir) else {
            continue;
        };
        entries.extend(
            read.filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl")),
        );
    }
    entries.sort();
    assert!(
        !entries.is_empty(),
        "no corpus files under {}",
        corpus_dir().display()
    );
    entries
}

/// Every rule of the table fires in a case that names it (`rules`), and a case names it as
/// one that must not fire (`not_rules`): a look-alike it must leave alone. The behaviour
/// watch's counts and the second look's kinds are judged over a chat's history and by a
/// model, not by the law alone: their own tables are tested in src/watch/tests.rs and
/// src/second_look/tests.rs.
#[test]
fn every_rule_fires_in_a_case_and_is_left_alone_in_another() {
    use std::collections::BTreeSet;
    use warden::law::rule::RULES;
    let mut fires = BTreeSet::new();
    let mut spared = BTreeSet::new();
    for path in step_files() {
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        for (_, case) in parse_cases(&text) {
            let Ok(case) = case else { continue };
            fires.extend(case.rules.clone());
            spared.extend(case.not_rules.clone());
        }
    }
    let mut missing = Vec::new();
    for rule in RULES {
        if matches!(rule.id.area(), "watch" | "look") {
            continue;
        }
        if !fires.contains(rule.name) {
            missing.push(format!("`{}` fires in no case (`rules`)", rule.name));
        }
        if !spared.contains(rule.name) {
            missing.push(format!(
                "`{}` has no case it must leave alone (`not_rules`)",
                rule.name
            ));
        }
    }
    let unknown: Vec<&String> = fires
        .iter()
        .chain(&spared)
        .filter(|name| warden::law::rule::RuleId::parse(name).is_none())
        .collect();
    assert!(
        unknown.is_empty(),
        "cases name rules the table doesn't have: {unknown:?}"
    );
    assert!(
        missing.is_empty(),
        "{} gaps:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn every_shell_case_holds() {
    let world = world();
    let entries = step_files();
    let mut failures = Vec::new();
    let mut total = 0;
    for path in &entries {
        let area = path
            .parent()
            .and_then(|p| p.file_name())
            .and_then(|n| n.to_str())
            .unwrap_or("?");
        let file = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        for (line, case) in parse_cases(&text) {
            total += 1;
            let case = match case {
                Ok(case) => case,
                Err(e) => {
                    failures.push(format!("{area}/{file}:{line}: unreadable case: {e}"));
                    continue;
                }
            };
            let outcome = run(&case, &world);
            for failure in &outcome.failures {
                failures.push(format!(
                    "{area}/{file}:{line} [{}] `{}`: {failure}",
                    case.case,
                    case.shown()
                ));
            }
            if let Some(rule) = must_hold(&file, outcome.before.decision, outcome.after.decision) {
                failures.push(format!(
                    "{area}/{file}:{line} [{}] `{}`: {rule}",
                    case.case,
                    case.shown()
                ));
            }
        }
    }
    assert!(total > 0, "no cases read");
    assert!(
        failures.is_empty(),
        "{} of {total} shell cases fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
