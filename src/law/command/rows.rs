//! The tables whose rules are naturally "program + subcommand + flags" are rows carrying
//! examples: full command lines each row must judge, and look-alikes it must leave alone (a
//! read-only subcommand of the same program, `--dry-run` or `--help`, the same words under
//! another program). One test walks every such table (infra.rs's `TABLE`, install.rs's
//! `INSTALLERS`, `PUBLISHERS` and `SPEAKERS`, runs.rs's `CONTAINER_RUNS`, `POD_RUNS` and
//! `RUNS_NAMED`, vcs.rs's `TABLE`, versions.rs's `CHOICES`, mirrors.rs's `MIRRORS`,
//! unverified.rs's `OPTIONS`, words.rs's `SHORT_REVEALS`), judging each example through the
//! law's own path ([`assess`]).

use super::{Assessment, assess};
use crate::catalogue;
use crate::facts::FakeFacts;
use crate::shell::Line;

use super::table::Examples;

/// One row of a table, as the walk reads it.
pub(super) struct Walked {
    pub table: &'static str,
    /// Where the row is in its table.
    pub index: usize,
    pub program: &'static str,
    pub words: &'static [&'static str],
    pub examples: Examples,
    /// Does the row judge this line: its table's own lookup picks this row for a command of
    /// the line, and what the row finds is in the line's assessment?
    pub judges: fn(usize, &Line, &Assessment) -> bool,
}

/// Every row of a table of [`table.rs`](super::table)'s shape, named `table`, as the walk
/// reads it, judged by `judges`.
pub(super) fn rows_of<T>(
    table: &'static str,
    rows: &'static [super::table::Row<T>],
    judges: fn(usize, &Line, &Assessment) -> bool,
) -> impl Iterator<Item = Walked> {
    rows.iter().enumerate().map(move |(index, row)| Walked {
        table,
        index,
        program: row.program,
        words: row.words,
        examples: row.examples,
        judges,
    })
}

/// Where every example runs: the usual test repository, nothing declared.
const CWD: &str = "/home/user/app";

/// A line read and judged as the law reads and judges it.
pub(super) fn judged(text: &str) -> (Line, Assessment) {
    let facts = FakeFacts::repo(&[]);
    (Line::parse(text), assess(text, CWD, &facts))
}

fn walk() -> Vec<Walked> {
    let mut rows = super::infra::walked();
    rows.extend(super::install::walked());
    rows.extend(super::runs::walked());
    rows.extend(super::vcs::walked());
    rows.extend(super::versions::walked());
    rows.extend(super::mirrors::walked());
    rows.extend(super::unverified::walked());
    rows.extend(super::words::walked());
    rows
}

#[test]
fn every_row_judges_its_examples_and_leaves_its_look_alikes() {
    let rows = walk();
    let mut failures = Vec::new();
    let mut examples = 0;
    for row in &rows {
        let name = format!(
            "{} row {} ({} {})",
            row.table,
            row.index,
            row.program,
            row.words.join(" ")
        );
        if row.examples.matches.is_empty() || row.examples.not_matches.is_empty() {
            failures.push(format!(
                "{name}: needs a line it judges and a look-alike it leaves"
            ));
        }
        // A row is looked up by the program's family name (`flyctl` is `fly`): any other name
        // is never matched.
        if catalogue::name(row.program) != row.program {
            failures.push(format!(
                "{name}: {} is the catalogue's {}, so the row never matches",
                row.program,
                catalogue::name(row.program)
            ));
        }
        for (want, lines) in [
            (true, row.examples.matches),
            (false, row.examples.not_matches),
        ] {
            for line in lines {
                examples += 1;
                let (read, found) = judged(line);
                if (row.judges)(row.index, &read, &found) != want {
                    let rules: Vec<&str> = found.risks.iter().map(|r| r.rule.name()).collect();
                    let must = if want { "must judge" } else { "must leave" };
                    failures.push(format!("{name}: {must} {line:?} (found {rules:?})"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {examples} examples of {} rows fail:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
    // Every table is walked.
    for table in [
        "infra::TABLE",
        "install::INSTALLERS",
        "install::PUBLISHERS",
        "install::SPEAKERS",
        "runs::CONTAINER_RUNS",
        "runs::POD_RUNS",
        "runs::RUNS_NAMED",
        "mirrors::MIRRORS",
        "unverified::OPTIONS",
        "versions::CHOICES",
    ] {
        assert!(
            rows.iter().any(|row| row.table == table),
            "{table} is not walked"
        );
    }
}
