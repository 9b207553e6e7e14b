//! Intent cases: every `corpus/intent/*.jsonl` case is read by `warden::intent::wanted`,
//! and every failure is reported at once, with its file, line and case.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use warden::intent::{Wanted, wanted};
use warden::{Act, Name, Wish};

/// One case: the person's messages (oldest first), the act, the names the step needs,
/// and the reading expected.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    case: String,
    act: String,
    said: Vec<String>,
    #[serde(default)]
    names: Vec<NameCase>,
    expect: String,
}

/// A name: a list of alternatives (`Name::AnyOf`), or the word `"production"`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum NameCase {
    AnyOf(Vec<String>),
    Word(String),
}

/// The languages that must each have at least this many cases of their own.
const LANGUAGES: [&str; 7] = ["en", "de", "fr", "es", "pt", "it", "nl"];
const AT_LEAST: usize = 40;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join("intent")
}

fn wish(case: &Case) -> Result<Wish, String> {
    let act = Act::parse(&case.act).ok_or_else(|| format!("unknown act `{}`", case.act))?;
    let mut wish = Wish::new(act);
    for name in &case.names {
        wish = wish.naming(match name {
            NameCase::AnyOf(options) => {
                Name::AnyOf(options.iter().map(|o| o.to_lowercase()).collect())
            }
            NameCase::Word(word) if word == "production" => Name::Production,
            NameCase::Word(word) => {
                return Err(format!(
                    "unknown name `{word}`: write [\"{word}\"] or \"production\""
                ));
            }
        });
    }
    Ok(wish)
}

fn expected(raw: &str) -> Result<Wanted, String> {
    match raw {
        "asked" => Ok(Wanted::Asked),
        "held" => Ok(Wanted::Held),
        "neither" => Ok(Wanted::Neither),
        other => Err(format!("unknown expect `{other}`: asked, held or neither")),
    }
}

#[derive(Default)]
struct Tally {
    cases: usize,
    failed: usize,
    by_expect: BTreeMap<String, usize>,
}

#[test]
fn intent_corpus() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus())
        .map(|dir| {
            dir.filter_map(|entry| entry.ok().map(|e| e.path()))
                .collect()
        })
        .unwrap_or_default();
    files.retain(|path| path.extension().is_some_and(|ext| ext == "jsonl"));
    files.sort();
    assert!(!files.is_empty(), "no cases in {}", corpus().display());

    let mut failures = String::new();
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    for path in &files {
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tally = tallies.entry(file.clone()).or_default();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                let _ = writeln!(failures, "{file}: cannot read: {e}");
                continue;
            }
        };
        for (at, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let number = at + 1;
            let case: Case = match serde_json::from_str(line) {
                Ok(case) => case,
                Err(e) => {
                    let _ = writeln!(failures, "{file}:{number}: not a case: {e}");
                    tally.failed += 1;
                    continue;
                }
            };
            tally.cases += 1;
            *tally.by_expect.entry(case.expect.clone()).or_default() += 1;
            let (wish, want) = match (wish(&case), expected(&case.expect)) {
                (Ok(wish), Ok(want)) => (wish, want),
                (Err(e), _) | (_, Err(e)) => {
                    let _ = writeln!(failures, "{file}:{number}: {}: {e}", case.case);
                    tally.failed += 1;
                    continue;
                }
            };
            let reading = wanted(&wish, &case.said);
            if reading.wanted != want {
                tally.failed += 1;
                let _ = writeln!(
                    failures,
                    "{file}:{number}: {}\n    act {} said {:?}\n    expected {:?}, read {:?} ({:?}: {:?})",
                    case.case,
                    case.act,
                    case.said,
                    want,
                    reading.wanted,
                    reading.cue,
                    reading.words
                );
            }
        }
    }

    let mut counts = String::new();
    for (file, tally) in &tallies {
        let mix: Vec<String> = tally
            .by_expect
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(
            counts,
            "  {file}: {} cases ({}), {} failed",
            tally.cases,
            mix.join(", "),
            tally.failed
        );
    }
    for lang in LANGUAGES {
        let file = format!("{lang}.jsonl");
        let cases = tallies.get(&file).map_or(0, |t| t.cases);
        if cases < AT_LEAST {
            let _ = writeln!(
                failures,
                "{file}: {cases} cases, at least {AT_LEAST} wanted"
            );
        }
    }
    println!("intent corpus:\n{counts}");
    assert!(
        failures.is_empty(),
        "intent corpus failures:\n{failures}\ncounts:\n{counts}"
    );
}
