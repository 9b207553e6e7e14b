//! `warden corpus --external DIR`: the corpora other people wrote, read at run time (never
//! copied into the repository), judged before and after reading, with rates per set and label,
//! and against the hand labels of a sample of them (`corpus/external/labels.jsonl`).

pub mod agents;
pub mod labels;

use anyhow::{Context as _, Result};
use labels::{Class, Kind, Label, Rates};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use warden::facts::{Facts, FakeFacts};
use warden::law::judge;
use warden::step::{Context, Step};
use warden::verdict::{Decision, Verdict};

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
    shares: crate::rates::Shares,
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
        bins: None,
    }
}

/// Runs every set found under `dir` and prints rates, then the rates against the labels in
/// `labels` when that file exists; `show` prints that many sample commands per label and
/// verdict, and that many mismatches per kind, for reading by hand.
pub fn run(
    dir: &Path,
    labels: &Path,
    agents: &Path,
    show: usize,
    table: &mut crate::rates::Table,
) -> Result<()> {
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
            table.row(set.name, label, tally.shares);
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
    outln!();
    agents::run(dir, agents, show)?;
    if labels.exists() {
        outln!();
        against_labels(dir, labels, &facts, show)?;
    } else {
        outln!();
        outln!("labels: none at {}", labels.display());
    }
    Ok(())
}

/// A command judged before and after reading, in the world external commands run in.
fn verdicts(command: &str, facts: &dyn Facts) -> (Verdict, Verdict) {
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
    (before, after)
}

fn judge_one(command: &str, facts: &dyn Facts, tally: &mut Tally, show: usize) {
    let (before, after) = verdicts(command, facts);
    tally.shares.add(before.decision, after.decision);
    tally.total += 1;
    let asks = |d: Decision| d != Decision::Allow;
    tally.before_ask += usize::from(asks(before.decision));
    tally.after_ask += usize::from(asks(after.decision));
    let one_line = one_line(command);
    if asks(before.decision) && tally.samples_ask.len() < show {
        tally
            .samples_ask
            .push(format!("{one_line}  — {}", before.reason));
    } else if !asks(after.decision) && tally.samples_allow.len() < show {
        tally.samples_allow.push(one_line);
    }
}

/// A command on one line, cut at 140 characters.
fn one_line(command: &str) -> String {
    command
        .chars()
        .take(140)
        .map(|c| if c == '\n' { ' ' } else { c })
        .collect()
}

/// The command of every record under `dir` whose id is among `ids`. Only the sets an id names
/// (its first part: `tldr/…`, `nl2bash/…`) are read; a set's missing file is skipped.
pub fn commands(dir: &Path, ids: &BTreeSet<&str>) -> Result<BTreeMap<String, String>> {
    let named: BTreeSet<&str> = ids.iter().filter_map(|id| id.split('/').next()).collect();
    let mut found = BTreeMap::new();
    for set in SETS.iter().filter(|set| named.contains(set.name)) {
        for file in set.files {
            let path = dir.join(file);
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            for (index, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let record: Value = serde_json::from_str(line).with_context(|| {
                    format!("{}:{}: a line is not JSON", path.display(), index + 1)
                })?;
                let (Some(id), Some(command)) = (
                    record.get("id").and_then(Value::as_str),
                    record.get("command").and_then(Value::as_str),
                ) else {
                    continue;
                };
                if ids.contains(id) {
                    found.insert(id.to_string(), command.to_string());
                }
            }
        }
    }
    Ok(found)
}

/// Reads the labels in `path`: every problem names the file and the line.
pub fn read_labels(path: &Path) -> Result<Vec<Label>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    labels::parse(&text).with_context(|| format!("{}", path.display()))
}

/// How many missing ids are named before the rest are only counted.
const MISSING_NAMED: usize = 20;

/// The labels judged: the rates, the ids not found, and the mismatches kept for showing.
struct Judged {
    labels: usize,
    rates: Rates,
    missing: Vec<String>,
    shown: BTreeMap<Kind, Vec<String>>,
}

/// Judges every labelled command found under `dir`, keeping `show` mismatches per kind.
fn judge_labels(dir: &Path, path: &Path, facts: &dyn Facts, show: usize) -> Result<Judged> {
    let labels = read_labels(path)?;
    let ids: BTreeSet<&str> = labels.iter().map(|l| l.id.as_str()).collect();
    let commands = commands(dir, &ids)?;
    let mut judged = Judged {
        labels: labels.len(),
        rates: Rates::default(),
        missing: Vec::new(),
        shown: BTreeMap::new(),
    };
    for label in &labels {
        let Some(command) = commands.get(&label.id) else {
            judged.missing.push(label.id.clone());
            continue;
        };
        let (before, after) = verdicts(command, facts);
        for kind in judged.rates.add(label, before.decision, after.decision) {
            let samples = judged.shown.entry(kind).or_default();
            if samples.len() < show {
                samples.push(mismatch(label, kind, command, &before, &after));
            }
        }
    }
    Ok(judged)
}

/// Prints warden's rates against the labels in `path`: per class, the headlines, the ids not
/// found under `dir`, and with `show`, that many mismatches per kind.
fn against_labels(dir: &Path, path: &Path, facts: &dyn Facts, show: usize) -> Result<()> {
    let Judged {
        labels,
        rates,
        missing,
        shown,
    } = judge_labels(dir, path, facts, show)?;
    outln!(
        "labels ({}: {} labels, {} judged, {} missing)",
        path.display(),
        labels,
        labels - missing.len(),
        missing.len()
    );
    outln!(
        "  {:<10} {:>6}   {:>16}   {:>16}",
        "class",
        "labels",
        "asks before",
        "asks after"
    );
    for class in Class::ALL {
        let tally = rates.of(class);
        outln!(
            "  {:<10} {:>6}   {:>6} ({:>5.1}%)   {:>6} ({:>5.1}%)",
            class.name(),
            tally.labels,
            tally.asks_before,
            percent(tally.asks_before, tally.labels),
            tally.asks_after,
            percent(tally.asks_after, tally.labels)
        );
    }
    for headline in rates.headlines() {
        outln!(
            "  {:<54} {:>5} of {:<5} {:>5.1}%",
            headline.what,
            headline.part,
            headline.whole,
            headline.percent()
        );
    }
    if !missing.is_empty() {
        let named: Vec<&str> = missing
            .iter()
            .take(MISSING_NAMED)
            .map(String::as_str)
            .collect();
        let more = missing.len().saturating_sub(MISSING_NAMED);
        outln!(
            "  missing (no record with a command under {}): {}{}",
            dir.display(),
            named.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        );
    }
    for kind in Kind::ALL {
        let Some(samples) = shown.get(&kind).filter(|s| !s.is_empty()) else {
            continue;
        };
        outln!("  {}:", kind.what());
        for sample in samples {
            outln!("    {sample}");
        }
    }
    Ok(())
}

/// One mismatch, for reading by hand: the id, the label, warden's answers, the command, and the
/// reason warden gave at the moment that shows the kind (after reading when before agrees).
fn mismatch(label: &Label, kind: Kind, command: &str, before: &Verdict, after: &Verdict) -> String {
    let shows_after = match kind {
        Kind::RoutineAsksBefore => false,
        Kind::RoutineAsksAfter | Kind::ModerateGoesAfter => true,
        Kind::DangerGoes | Kind::CloudGoes | Kind::AsksWhereAllowed => {
            label.before.is(before.decision)
        }
    };
    let (when, verdict) = if shows_after {
        ("after", after)
    } else {
        ("before", before)
    };
    let note = label
        .note
        .as_deref()
        .map(|n| format!(" ({n})"))
        .unwrap_or_default();
    format!(
        "{}  [{} {}/{}{note}]  warden {}/{}  `{}`  — {when}: {}",
        label.id,
        label.class.name(),
        label.before.name(),
        label.after.name(),
        before.decision.name(),
        after.decision.name(),
        one_line(command),
        if verdict.reason.is_empty() {
            "(no reason given)"
        } else {
            &verdict.reason
        }
    )
}

pub(crate) fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    //! The hand labels as committed: well formed, many enough, and every id found in the
    //! external corpora when they are here; and ids not found are named, not fatal.

    use super::*;
    use std::path::PathBuf;

    fn repository() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    fn label_file() -> PathBuf {
        repository().join("corpus/external/labels.jsonl")
    }

    #[test]
    fn the_label_file_is_well_formed_and_holds_a_thousand_labels() {
        let path = label_file();
        let labels = read_labels(&path).unwrap_or_else(|e| panic!("{e:#}"));
        assert!(
            labels.len() >= 1000,
            "{}: {} labels, want at least 1,000",
            path.display(),
            labels.len()
        );
        for class in Class::ALL {
            assert!(
                labels.iter().any(|label| label.class == class),
                "{}: no {} label",
                path.display(),
                class.name()
            );
        }
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            text.starts_with("# "),
            "{}: opens with a `#` line saying what it is",
            path.display()
        );
    }

    #[test]
    fn every_label_names_a_command_in_the_external_corpora() {
        let dir = repository().join("../shared/corpora");
        if !dir.is_dir() {
            println!(
                "skipped: no external corpora at {}, so the ids can't be looked up",
                dir.display()
            );
            return;
        }
        let labels = read_labels(&label_file()).unwrap_or_else(|e| panic!("{e:#}"));
        let ids: BTreeSet<&str> = labels.iter().map(|l| l.id.as_str()).collect();
        let found = commands(&dir, &ids).unwrap_or_else(|e| panic!("{e:#}"));
        let missing: Vec<&str> = ids
            .iter()
            .filter(|id| !found.contains_key(**id))
            .copied()
            .collect();
        assert!(
            missing.is_empty(),
            "{} labelled ids have no record with a command under {}: {}",
            missing.len(),
            dir.display(),
            missing.join(", ")
        );
    }

    #[test]
    fn an_id_the_corpora_lack_is_counted_not_fatal() {
        let place = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let corpora = place.path().join("corpora");
        std::fs::create_dir_all(corpora.join("tldr")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(
            corpora.join("tldr/common.jsonl"),
            concat!(
                r#"{"id":"tldr/common/ls#1","platform":"common","command":"ls -la"}"#,
                "\n",
                r#"{"id":"tldr/common/rm#1","platform":"common"}"#,
                "\n"
            ),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let labels = place.path().join("labels.jsonl");
        std::fs::write(
            &labels,
            concat!(
                "# a test\n",
                r#"{"id":"nl2bash/1","class":"routine","before":"allow","after":"allow"}"#,
                "\n",
                r#"{"id":"tldr/common/ls#1","class":"routine","before":"allow","after":"allow"}"#,
                "\n",
                r#"{"id":"tldr/common/rm#1","class":"routine","before":"allow","after":"allow"}"#,
                "\n"
            ),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let read = read_labels(&labels).unwrap_or_else(|e| panic!("{e:#}"));
        let ids: BTreeSet<&str> = read.iter().map(|l| l.id.as_str()).collect();
        let found = commands(&corpora, &ids).unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(
            found,
            BTreeMap::from([("tldr/common/ls#1".to_string(), "ls -la".to_string())]),
            "a record without a command is not found, nor is a set whose file is absent"
        );
        let judged =
            judge_labels(&corpora, &labels, &world(), 1).unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(judged.labels, 3);
        assert_eq!(judged.missing, ["nl2bash/1", "tldr/common/rm#1"]);
        assert_eq!(judged.rates.of(Class::Routine).labels, 1);
    }

    #[test]
    fn a_bad_label_file_names_the_file_and_the_line() {
        let place = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let path = place.path().join("labels.jsonl");
        std::fs::write(
            &path,
            "# x\n{\"id\":\"a\",\"class\":\"routine\",\"before\":\"ask\",\"after\":\"ask\"}\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let error = match read_labels(&path) {
            Ok(labels) => panic!("read {} labels, want an error", labels.len()),
            Err(e) => format!("{e:#}"),
        };
        assert!(
            error.starts_with(&format!("{}: line 2: `a` is routine", path.display())),
            "{error}"
        );
    }
}
