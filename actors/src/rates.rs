//! The rates table in the README: the share of steps allowed, asked and denied before and
//! after the chat read a web page, for each corpus file and each external set, made by
//! `warden corpus --external ../shared/corpora --rates README.md`, which writes the table
//! between its two markers and leaves the rest of the file as it is.

use anyhow::{Result, bail};
use warden::verdict::Decision;

/// Where the table starts and ends in the file it is written into.
pub const START: &str = "<!-- rates: made by `warden corpus --external ../shared/corpora --rates README.md`; not by hand -->";
pub const END: &str = "<!-- /rates -->";

/// How many steps of a set were allowed, asked and denied, before and after reading.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Shares {
    pub total: usize,
    pub before: [usize; 3],
    pub after: [usize; 3],
}

fn slot(decision: Decision) -> usize {
    match decision {
        Decision::Allow => 0,
        Decision::Ask => 1,
        Decision::Deny => 2,
    }
}

impl Shares {
    pub fn add(&mut self, before: Decision, after: Decision) {
        self.total += 1;
        self.before[slot(before)] += 1;
        self.after[slot(after)] += 1;
    }

    fn cells(counts: [usize; 3], total: usize) -> String {
        counts
            .iter()
            .map(|n| {
                if total == 0 {
                    "–".to_string()
                } else {
                    format!("{:.1}", *n as f64 * 100.0 / total as f64)
                }
            })
            .collect::<Vec<_>>()
            .join(" / ")
    }
}

/// The rows, in the order they were measured: a group (`corpus`, `tldr`, `gtfobins`…), the
/// row's name within it, and its shares.
#[derive(Debug, Default)]
pub struct Table {
    rows: Vec<(String, String, Shares)>,
}

impl Table {
    pub fn row(&mut self, group: &str, name: &str, shares: Shares) {
        self.rows
            .push((group.to_string(), name.to_string(), shares));
    }

    /// The table as Markdown, between its markers.
    pub fn markdown(&self) -> String {
        let mut out = vec![
            START.to_string(),
            "| set | steps | before reading: allow / ask / deny % | after reading: allow / ask / deny % |".to_string(),
            "| --- | ---: | --- | --- |".to_string(),
        ];
        for (group, name, shares) in &self.rows {
            out.push(format!(
                "| {group} {name} | {} | {} | {} |",
                shares.total,
                Shares::cells(shares.before, shares.total),
                Shares::cells(shares.after, shares.total)
            ));
        }
        out.push(END.to_string());
        out.join("\n")
    }
}

/// `text` with what stands between the markers (the markers included) replaced by `table`.
pub fn splice(text: &str, table: &str) -> Result<String> {
    let (Some(start), Some(end)) = (text.find(START), text.find(END)) else {
        bail!("the file has no rates markers: put `{START}` and `{END}` where the table goes");
    };
    if end < start {
        bail!("the rates markers are in the wrong order: `{END}` comes before `{START}`");
    }
    Ok(format!(
        "{}{table}{}",
        &text[..start],
        &text[end + END.len()..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_per_decision_before_and_after() {
        let mut shares = Shares::default();
        shares.add(Decision::Allow, Decision::Ask);
        shares.add(Decision::Allow, Decision::Allow);
        shares.add(Decision::Deny, Decision::Deny);
        shares.add(Decision::Ask, Decision::Ask);
        assert_eq!(shares.before, [2, 1, 1]);
        assert_eq!(shares.after, [1, 2, 1]);
        let mut table = Table::default();
        table.row("corpus", "shell/routine.jsonl", shares);
        let md = table.markdown();
        assert!(
            md.contains(
                "| corpus shell/routine.jsonl | 4 | 50.0 / 25.0 / 25.0 | 25.0 / 50.0 / 25.0 |"
            ),
            "{md}"
        );
    }

    #[test]
    fn the_table_replaces_only_what_is_between_its_markers() -> Result<()> {
        let text = format!("# title\n\nbefore\n{START}\nold\n{END}\nafter\n");
        let spliced = splice(&text, "NEW")?;
        assert_eq!(spliced, "# title\n\nbefore\nNEW\nafter\n");
        assert!(splice("no markers", "NEW").is_err());
        assert!(splice(&format!("{END} {START}"), "NEW").is_err());
        Ok(())
    }
}
