//! The shape every "program + subcommand words" table row shares (install.rs's installers,
//! publishers and forge steps, runs.rs's container, pod and named runners; infra.rs keeps a
//! row of its own for its effects): the program, its words, what the row finds, and, in test
//! builds only, the examples `rows::every_row_judges_its_examples_and_leaves_its_look_alikes`
//! judges.

/// The lines of a row's examples.
pub(super) type Lines = &'static [&'static str];

/// A row's examples: the lines it must judge, and the look-alikes it must not.
#[derive(Clone, Copy)]
#[cfg_attr(
    not(test),
    expect(dead_code, reason = "the examples are read by the rows test")
)]
pub(super) struct Examples {
    pub matches: Lines,
    pub not_matches: Lines,
}

/// One line of a table: a program, its subcommand words, what the line finds, and its
/// examples (kept in test builds only).
pub(super) struct Row<T> {
    pub program: &'static str,
    pub words: &'static [&'static str],
    pub then: T,
    #[cfg(test)]
    pub examples: Examples,
}

/// A row; its examples are dropped outside test builds.
pub(super) const fn row<T>(
    program: &'static str,
    words: &'static [&'static str],
    then: T,
    matches: Lines,
    not_matches: Lines,
) -> Row<T> {
    #[cfg(not(test))]
    let _ = (matches, not_matches);
    Row {
        program,
        words,
        then,
        #[cfg(test)]
        examples: Examples {
            matches,
            not_matches,
        },
    }
}

/// A table's rows by program: their places, in the table's order, each program's a run of
/// them. Every command of every line asks the install tables for its program's rows, so it
/// is one lookup, not a walk of the whole table comparing names.
pub(super) struct ByProgram {
    /// The places of the rows, by program then place.
    order: Vec<u16>,
    /// Each program's run of `order`.
    runs: crate::catalogue::Names<(u16, u16)>,
}

impl ByProgram {
    /// The index of the rows whose programs these are, in the table's order.
    pub(super) fn new(programs: &[&'static str]) -> ByProgram {
        let mut order: Vec<u16> = (0..programs.len())
            .filter_map(|at| u16::try_from(at).ok())
            .collect();
        // Stable: a program's rows keep the table's order, which picks the first that matches.
        order.sort_by_key(|&at| programs.get(usize::from(at)).copied().unwrap_or(""));
        let mut runs: Vec<(&'static str, (u16, u16))> = Vec::new();
        for (place, &at) in order.iter().enumerate() {
            let (Some(&program), Ok(place)) = (programs.get(usize::from(at)), u16::try_from(place))
            else {
                continue;
            };
            match runs.last_mut() {
                Some((last, (_, end))) if *last == program => *end = place + 1,
                _ => runs.push((program, (place, place + 1))),
            }
        }
        ByProgram {
            order,
            runs: crate::catalogue::Names::new(runs.into_iter()),
        }
    }

    /// The places of this program's rows, in the table's order.
    pub(super) fn rows(&self, program: &str) -> impl Iterator<Item = usize> + '_ {
        let run = match self.runs.get(program) {
            Some(&(from, to)) => self
                .order
                .get(usize::from(from)..usize::from(to))
                .unwrap_or(&[]),
            None => &[],
        };
        run.iter().map(|&at| usize::from(at))
    }

    /// Has this program a row?
    pub(super) fn knows(&self, program: &str) -> bool {
        self.runs.get(program).is_some()
    }
}
