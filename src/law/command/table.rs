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
