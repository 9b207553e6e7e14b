//! A line diff of a settings file before and after setup, for the preview: the lines
//! removed (`-`) and added (`+`), with a few unchanged lines around each change.

/// Unchanged lines shown on each side of a change.
const CONTEXT: usize = 2;

/// Past this many line pairs the diff isn't worked out line by line: the whole old text
/// is shown removed and the new one added (settings files are far smaller).
const MOST_PAIRS: usize = 4_000_000;

/// One line of the diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line<'a> {
    Same(&'a str),
    Gone(&'a str),
    New(&'a str),
}

/// The diff from `before` to `after`, one line each, `  ` unchanged, `- ` removed, `+ `
/// added, and `  …` where unchanged lines are left out. Empty when they are the same.
pub fn diff(before: &str, after: &str) -> String {
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = after.lines().collect();
    let lines = lines(&old, &new);
    let near_change = |i: usize| {
        let from = i.saturating_sub(CONTEXT);
        let to = (i + CONTEXT + 1).min(lines.len());
        lines[from..to]
            .iter()
            .any(|line| !matches!(line, Line::Same(_)))
    };
    let mut out = String::new();
    let mut skipped = false;
    for (i, line) in lines.iter().enumerate() {
        match line {
            Line::Same(text) if near_change(i) => {
                out.push_str(&format!("  {text}\n"));
                skipped = false;
            }
            Line::Same(_) => {
                if !skipped {
                    out.push_str("  …\n");
                    skipped = true;
                }
            }
            Line::Gone(text) => out.push_str(&format!("- {text}\n")),
            Line::New(text) => out.push_str(&format!("+ {text}\n")),
        }
    }
    if lines.iter().all(|line| matches!(line, Line::Same(_))) {
        return String::new();
    }
    out
}

/// The lines of both texts in order, by their longest common subsequence.
fn lines<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<Line<'a>> {
    if old.len().saturating_mul(new.len()) > MOST_PAIRS {
        let gone = old.iter().map(|l| Line::Gone(l));
        return gone.chain(new.iter().map(|l| Line::New(l))).collect();
    }
    // common[i][j]: the longest common subsequence of old[i..] and new[j..].
    let width = new.len() + 1;
    let mut common = vec![0u32; (old.len() + 1) * width];
    for i in (0..old.len()).rev() {
        for j in (0..new.len()).rev() {
            common[i * width + j] = if old[i] == new[j] {
                common[(i + 1) * width + j + 1] + 1
            } else {
                common[(i + 1) * width + j].max(common[i * width + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut lines = Vec::with_capacity(old.len() + new.len());
    while i < old.len() || j < new.len() {
        if i < old.len() && j < new.len() && old[i] == new[j] {
            lines.push(Line::Same(old[i]));
            i += 1;
            j += 1;
        } else if i < old.len()
            && (j == new.len() || common[(i + 1) * width + j] >= common[i * width + j + 1])
        {
            lines.push(Line::Gone(old[i]));
            i += 1;
        } else {
            lines.push(Line::New(new[j]));
            j += 1;
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diff_shows_what_changed_and_a_little_around_it() {
        let before =
            "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3,\n  \"d\": 4,\n  \"e\": 5,\n  \"f\": 6\n}\n";
        let after =
            "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3,\n  \"d\": 4,\n  \"e\": 5,\n  \"f\": 7\n}\n";
        assert_eq!(
            diff(before, after),
            "  …\n    \"d\": 4,\n    \"e\": 5,\n-   \"f\": 6\n+   \"f\": 7\n  }\n"
        );
    }

    #[test]
    fn the_same_text_has_no_diff_and_a_new_file_is_all_added() {
        assert_eq!(diff("{}\n", "{}\n"), "");
        assert_eq!(diff("", "{\n}\n"), "+ {\n+ }\n");
    }

    #[test]
    fn lines_added_inside_are_shown_between_the_kept_ones() {
        let before = "[\n  1,\n  2\n]";
        let after = "[\n  1,\n  2,\n  3\n]";
        assert_eq!(
            diff(before, after),
            "  [\n    1,\n-   2\n+   2,\n+   3\n  ]\n"
        );
    }
}
