//! `warden corpus --external DIR`: the corpora other people wrote, read at run time (never
//! copied into the repository), judged before and after reading, with rates per set and label.

use anyhow::{Context as _, Result};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use warden::facts::{Facts, FakeFacts};
use warden::law::judge;
use warden::step::{Context, Step};
use warden::verdict::Decision;

/// One set: which files, which field holds the command, and how a record's label is read.
struct Set {
    name: &'static str,
    files: &'static [&'static str],
    label: fn(&Value) -> Option<String>,
}

fn field(record: &Value, name: &str) -> Option<String> {
    record.get(name).and_then(Value::as_str).map(str::to_string)
}

const SETS: &[Set] = &[
    Set {
        name: "tldr",
        files: &["tldr/common.jsonl", "tldr/linux.jsonl", "tldr/osx.jsonl"],
        label: |r| field(r, "platform"),
    },
    Set {
        name: "nl2bash",
        files: &["nl2bash/nl2bash.jsonl"],
        label: |_| Some("all".into()),
    },
    Set {
        name: "gtfobins",
        files: &["gtfobins/gtfobins.jsonl"],
        label: |r| field(r, "function"),
    },
    Set {
        name: "revshells",
        files: &["revshells/revshells.jsonl"],
        // A program's text is no one-liner, and a payload the generator builds in the browser
        // (`PowerShell #3 (Base64)`) is only its name: neither is a command.
        label: |r| {
            let source = r.get("is_source_code").and_then(Value::as_bool) == Some(true);
            let named_only = field(r, "command").is_some_and(|c| Some(c) == field(r, "name"));
            if source || named_only {
                None
            } else {
                field(r, "kind")
            }
        },
    },
    Set {
        name: "dcg",
        files: &["dcg/dcg.jsonl"],
        label: |r| field(r, "expected"),
    },
    Set {
        name: "safe-os",
        files: &["safe-os/safe_os.jsonl"],
        label: |r| field(r, "subset").filter(|_| r.get("example_command").is_some()),
    },
    Set {
        name: "allthethings",
        files: &["allthethings/commands.jsonl"],
        label: |r| field(r, "lang"),
    },
];

#[derive(Default)]
struct Tally {
    total: usize,
    before_ask: usize,
    after_ask: usize,
    samples_ask: Vec<String>,
    samples_allow: Vec<String>,
}

/// The world external commands run in: a work folder, a home, the repository's origin.
fn world() -> FakeFacts {
    FakeFacts {
        clean: None,
        remotes: Some(BTreeMap::from([(
            "origin".to_string(),
            "git@github.com:acme/app.git".to_string(),
        )])),
        declared: Some(Vec::new()),
        home: Some("/home/user".to_string()),
    }
}

/// Runs every set found under `dir` and prints rates; `show` prints that many sample
/// commands per label and verdict, for reading by hand.
pub fn run(dir: &Path, show: usize) -> Result<()> {
    let facts = world();
    let mut found_any = false;
    for set in SETS {
        let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
        for file in set.files {
            let path = dir.join(file);
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            found_any = true;
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let record: Value = serde_json::from_str(line)
                    .with_context(|| format!("{}: a line is not JSON", path.display()))?;
                let command = record
                    .get("command")
                    .or_else(|| record.get("example_command"))
                    .and_then(Value::as_str);
                let (Some(command), Some(label)) = (command, (set.label)(&record)) else {
                    continue;
                };
                let tally = tallies.entry(label).or_default();
                judge_one(command, &facts, tally, show);
            }
        }
        if tallies.is_empty() {
            continue;
        }
        outln!("{}", set.name);
        for (label, tally) in &tallies {
            outln!(
                "  {label:<24} {:>6} commands   asks before reading {:>5.1}%   after {:>5.1}%",
                tally.total,
                percent(tally.before_ask, tally.total),
                percent(tally.after_ask, tally.total)
            );
            for sample in &tally.samples_ask {
                outln!("      ask   {sample}");
            }
            for sample in &tally.samples_allow {
                outln!("      allow {sample}");
            }
        }
    }
    if !found_any {
        anyhow::bail!(
            "no external corpus found under {} (expected e.g. tldr/common.jsonl)",
            dir.display()
        );
    }
    Ok(())
}

fn judge_one(command: &str, facts: &dyn Facts, tally: &mut Tally, show: usize) {
    let step = Step::Command {
        command: command.to_string(),
    };
    let mut ctx = Context {
        cwd: "/home/user/app".to_string(),
        ..Context::default()
    };
    let before = judge(&step, &ctx, facts);
    ctx.read = vec!["a web page".to_string()];
    let after = judge(&step, &ctx, facts);
    tally.total += 1;
    let asks = |d: Decision| d != Decision::Allow;
    tally.before_ask += usize::from(asks(before.decision));
    tally.after_ask += usize::from(asks(after.decision));
    let one_line: String = command
        .chars()
        .take(140)
        .map(|c| if c == '\n' { ' ' } else { c })
        .collect();
    if asks(before.decision) && tally.samples_ask.len() < show {
        tally
            .samples_ask
            .push(format!("{one_line}  — {}", before.reason));
    } else if !asks(after.decision) && tally.samples_allow.len() < show {
        tally.samples_allow.push(one_line);
    }
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}
