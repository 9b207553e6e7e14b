//! A version manager's choices. The version every new shell starts with, and every project
//! that names none, is written in the home folder (`pyenv global 3.12` in `~/.pyenv/version`,
//! `rustup default nightly`, `sdk default java 17`, `rvm use 3.2 --default`): outside the
//! work folder, where Undo can't take it back, so the path rules judge it as a write there.
//! The choices that hold for this shell only (`pyenv shell 3.12`, `nvm use 20`, `sdk use
//! java 17`, `perlbrew use`, `perlbrew off`, `rvm use 3.2`) reach nothing past it: a
//! program of this table is not read by its words for a setting (`off` is no switch kept
//! thrown), only for what it installs or removes.

use super::positional;
use super::table::{ByProgram, Row, row};
use crate::shell::Command;
use std::sync::LazyLock;

/// What makes a choice for every new shell, and where it is kept.
pub(super) struct Choice {
    /// How many operands follow the row's words at least (the version; `nvm alias NAME
    /// VERSION`): fewer shows the choice (`pyenv global`, `rustup default`).
    operands: usize,
    /// One of these options must be given too, when any (`mise use -g`): without, the
    /// choice is the work folder's or this shell's.
    options: &'static [&'static str],
    /// The file written: `{program}` is the program, `{1}` the first operand.
    file: &'static str,
}

const fn choice(operands: usize, options: &'static [&'static str], file: &'static str) -> Choice {
    Choice {
        operands,
        options,
        file,
    }
}

/// The `*env` family's `global VERSION`, in `~/.PROGRAM/version`.
const GLOBAL: Choice = choice(1, &[], "~/.{program}/version");

/// The version managers' choices for every new shell, by program and subcommand words.
#[rustfmt::skip]
pub(super) const CHOICES: &[Row<Choice>] = &[
    row("asdf", &["global"], choice(2, &[], "~/.tool-versions"),
        &["asdf global nodejs 20.11.0"],
        &["asdf global", "asdf local nodejs 20.11.0", "asdf shell nodejs 20.11.0"]),
    row("asdf", &["set"], choice(2, &["-u", "--home"], "~/.tool-versions"),
        &["asdf set -u nodejs 20.11.0", "asdf set --home python 3.12.1"],
        &["asdf set nodejs 20.11.0"]),
    row("fnm", &["default"], choice(1, &[], "~/.local/share/fnm/aliases/default"),
        &["fnm default 20"],
        &["fnm use 20", "fnm default"]),
    row("ghcup", &["set"], choice(2, &[], "~/.ghcup/bin/{1}"),
        &["ghcup set ghc 9.4.8"],
        &["ghcup list", "ghcup set ghc"]),
    row("goenv", &["global"], GLOBAL,
        &["goenv global 1.22.0"],
        &["goenv global", "goenv local 1.22.0"]),
    row("gvm", &["use"], choice(1, &["--default"], "~/.gvm/environments/default"),
        &["gvm use go1.22 --default"],
        &["gvm use go1.22"]),
    row("jabba", &["alias", "default"], choice(1, &[], "~/.jabba/default.alias"),
        &["jabba alias default openjdk@1.17.0"],
        &["jabba use openjdk@1.17.0", "jabba ls"]),
    row("jenv", &["global"], GLOBAL,
        &["jenv global 17"],
        &["jenv global", "jenv shell 17", "jenv local 17"]),
    row("juliaup", &["default"], choice(1, &[], "~/.julia/juliaup/juliaup.json"),
        &["juliaup default 1.10"],
        &["juliaup default", "juliaup status"]),
    row("luaenv", &["global"], GLOBAL,
        &["luaenv global 5.4.6"],
        &["luaenv global", "luaenv local 5.4.6"]),
    row("mise", &["use"], choice(1, &["-g", "--global"], "~/.config/mise/config.toml"),
        &["mise use -g node@20", "mise use --global python@3.12", "rtx use -g node@20"],
        &["mise use node@20", "mise ls"]),
    row("nodenv", &["global"], GLOBAL,
        &["nodenv global 20.11.0"],
        &["nodenv global", "nodenv shell 20.11.0"]),
    row("nvm", &["alias"], choice(2, &[], "~/.nvm/alias/{1}"),
        &["nvm alias default 20"],
        &["nvm use 20", "nvm alias default"]),
    row("perlbrew", &["switch"], choice(1, &[], "~/.perlbrew/init"),
        &["perlbrew switch perl-5.38.0"],
        &["perlbrew use perl-5.38.0", "perlbrew switch"]),
    row("perlbrew", &["switch-off"], choice(0, &[], "~/.perlbrew/init"),
        &["perlbrew switch-off"],
        &["perlbrew off"]),
    row("phpenv", &["global"], GLOBAL,
        &["phpenv global 8.3.2"],
        &["phpenv global", "phpenv local 8.3.2"]),
    row("plenv", &["global"], GLOBAL,
        &["plenv global 5.38.0"],
        &["plenv global", "plenv shell 5.38.0"]),
    row("pyenv", &["global"], GLOBAL,
        &["pyenv global 3.12.1", "pyenv global 3.12.1 3.11.7"],
        &["pyenv global", "pyenv shell 3.12.1", "pyenv local 3.12.1"]),
    row("rbenv", &["global"], GLOBAL,
        &["rbenv global 3.3.0"],
        &["rbenv global", "rbenv shell 3.3.0", "rbenv local 3.3.0"]),
    row("rustup", &["default"], choice(1, &[], "~/.rustup/settings.toml"),
        &["rustup default nightly", "rustup default stable-x86_64-unknown-linux-gnu"],
        &["rustup default", "rustup override set nightly", "rustup show"]),
    row("rvm", &["alias", "create", "default"], choice(1, &[], "~/.rvm/config/alias"),
        &["rvm alias create default 3.3.0"],
        &["rvm alias list"]),
    row("rvm", &["use"], choice(1, &["--default"], "~/.rvm/config/alias"),
        &["rvm use 3.3.0 --default", "rvm --default use 3.3.0"],
        &["rvm use 3.3.0", "rvm list"]),
    row("scalaenv", &["global"], GLOBAL,
        &["scalaenv global scala-3.3.1"],
        &["scalaenv global", "scalaenv local scala-3.3.1"]),
    row("sdk", &["default"], choice(2, &[], "~/.sdkman/candidates/{1}/current"),
        &["sdk default java 17.0.9-tem"],
        &["sdk use java 17.0.9-tem", "sdk default java", "sdk current java"]),
    row("swiftenv", &["global"], GLOBAL,
        &["swiftenv global 5.9"],
        &["swiftenv global", "swiftenv local 5.9"]),
    // `tfenv use` with no version takes the one the work folder names, and still keeps it.
    row("tfenv", &["use"], choice(0, &[], "~/.tfenv/version"),
        &["tfenv use 1.7.2", "tfenv use"],
        &["tfenv list", "tfenv install 1.7.2"]),
    row("uv", &["python", "pin"], choice(1, &["--global"], "~/.config/uv/.python-version"),
        &["uv python pin --global 3.12"],
        &["uv python pin 3.12", "uv python list"]),
    row("vfox", &["use"], choice(1, &["-g", "--global"], "~/.version-fox/.tool-versions"),
        &["vfox use -g nodejs@20", "vfox use --global python@3.12"],
        &["vfox use nodejs@20", "vfox use -p nodejs@20"]),
];

static BY_PROGRAM: LazyLock<ByProgram> = LazyLock::new(|| {
    let programs: Vec<&'static str> = CHOICES.iter().map(|row| row.program).collect();
    ByProgram::new(&programs)
});

/// Is the program a version manager whose choices the table reads?
pub(super) fn knows(program: &str) -> bool {
    BY_PROGRAM.knows(program)
}

/// The row for this command, if it makes a choice for every new shell, and the file it
/// writes.
fn row_of(cmd: &Command) -> Option<(usize, String)> {
    let program = cmd.program();
    // Asked of every command of every line: the words are read only for a program of the
    // table.
    if !BY_PROGRAM.knows(program) {
        return None;
    }
    let args = cmd.args();
    let words = positional(args);
    BY_PROGRAM.rows(program).find_map(|at| {
        let row = CHOICES.get(at)?;
        let operands = words.strip_prefix(row.words)?;
        let optioned = row.then.options.is_empty()
            || args.iter().any(|a| {
                let name = a.split_once('=').map_or(a.as_str(), |(name, _)| name);
                row.then.options.contains(&name)
            });
        (operands.len() >= row.then.operands && optioned).then(|| {
            let file = row.then.file.replace("{program}", program);
            (
                at,
                file.replace("{1}", operands.first().copied().unwrap_or("")),
            )
        })
    })
}

/// The file a version manager's choice for every new shell writes, if the command makes one.
pub(super) fn written(cmd: &Command) -> Option<String> {
    row_of(cmd).map(|(_, file)| file)
}

#[cfg(test)]
pub(super) fn walked() -> Vec<super::rows::Walked> {
    super::rows::rows_of("versions::CHOICES", CHOICES, judges).collect()
}

/// Does row `at` judge the line: it is the row for one of the line's commands, and the line
/// writes outside the work folder?
#[cfg(test)]
fn judges(at: usize, line: &crate::shell::Line, found: &super::Assessment) -> bool {
    use crate::law::rule::RuleId;
    line.commands
        .iter()
        .any(|cmd| row_of(cmd).is_some_and(|(index, _)| index == at))
        && found.risks.iter().any(|r| r.rule == RuleId::WriteOutside)
}
