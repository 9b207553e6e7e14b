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

#[test]
fn every_shell_case_holds() {
    let world = world();
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
