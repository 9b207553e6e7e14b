//! Always allow one command (seed 004, autoRules): the rule a question's card may offer, whether
//! a kept rule covers a command, and the checks a rule read back from settings passes again.
//!
//! A rule is one command Auto never asks about again, in any chat, in that work folder.
//!
//! - **It covers the whole command.** Its words match the command's words one for one and
//!   nothing may follow them: `git push origin feature/x main` is not covered by a rule for
//!   `git push origin feature/x`.
//! - **Only the last word may end in `*`**, and only after a name and a `/` that pin it down
//!   (`feature/*`; never `*`, `feat*`, `refs/heads/*`). The `*` stands for one name: letters,
//!   digits, `-`, `_` and `.`, never `..`, `:`, a space or another `/`, so `feature/*` covers
//!   `feature/login` but not `feature/a/b` (a deeper namespace is another kind of branch).
//!   A rule offers a `*` only for the branch a `git push` names; every other word is offered
//!   exactly as written.
//! - **One command, nothing around it.** Every word is plain: ASCII letters, digits and
//!   `- _ . / : = @ , + %` (no word starts with `=`), words cut by spaces. So no `;`, `&&`, `||`, `|`, `&`, redirects,
//!   `$(…)`, backticks, variables, globs, `~`, comments, quotes or escapes; the shell reader
//!   must then read it as one simple command at the top of the line with exactly those words,
//!   no wrapper taken off, no assignment, no redirect. Refusing quotes keeps what a rule
//!   allows exactly what the person read on the card.
//! - **Never broad.** No rule starts with a shell, an interpreter, a wrapper, a shell
//!   builtin, a remover, a network tool, a project's own script runner or a program run by
//!   its path; a program alone (`git`) is too broad. Each family is a table below.
//! - **Never for what no words lift.** A rule is offered, and a kept one used, only in Auto,
//!   for a question Auto asks because the chat read something: some risk scores three or
//!   more, and none would without the read point; nothing critical, NEVER, refused,
//!   irreducible or held; nobody else's words and no skill's list in the chat; no count,
//!   no money, no key-shaped argument (a rule would keep the key in settings).
//!
//! A rule read back (hand-written, restored, older) goes through [`validate`] again before
//! [`matches`] uses it: [`matches`] validates on every call, so a rule warden would refuse
//! covers nothing.

use crate::catalogue::Class;
use crate::intent::Wanted;
use crate::law::{ASKS_AT, score};
use crate::mode::Mode;
use crate::shell::{Line, Via};
use crate::step::Context;
use crate::verdict::{Decision, Scored, Verdict};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The only tool a rule is for: a shell command.
pub const BASH: &str = "Bash";

/// One command Auto never asks about again, in any chat, in that work folder
/// (`preferences.autoRules`; the runtime adds when it was kept).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AutoRule {
    /// The tool: always [`BASH`].
    pub tool: String,
    /// The command's words, one each; only the last may end in `*` (`feature/*`).
    pub words: Vec<String>,
    /// The work folder the rule holds in; `None` (only hand-written or older rules): any.
    // No `skip_serializing_if`: rules are kept in the event log in a format that needs every field.
    #[serde(default)]
    pub cwd: Option<String>,
}

impl fmt::Display for AutoRule {
    /// The command as the card shows it: the words, cut by spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words.join(" "))
    }
}

/// Why a command or a rule is too broad to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// `bash`, `sh`, `zsh`, `pwsh`, `source`…
    Shell,
    /// `python3`, `node`, `ruby`, `perl`, `awk`…
    Interpreter,
    /// `env`, `xargs`, `sudo`, `timeout`, `nohup`…
    Wrapper,
    /// Shell syntax and builtins that change what later commands run (`eval`, `alias`, `if`).
    Builtin,
    /// `rm`, `shred`…
    Remover,
    /// `curl`, `wget`, `ssh`, `scp`, `rsync`…
    Network,
    /// `npm run`, `npx`, `make`, `cargo run`, `crontab`…
    Runner,
    /// `./x`, `/usr/bin/x`, `bin/x`.
    Path,
}

impl Family {
    /// Why a rule may not start with it, as the end of a sentence about the word.
    pub fn why(self) -> &'static str {
        match self {
            Family::Shell => "is a shell: it runs whatever a file or its arguments say",
            Family::Interpreter => {
                "is an interpreter: it runs whatever a file or its arguments say"
            }
            Family::Wrapper => "runs another command: a rule names the command itself",
            Family::Builtin => "is shell syntax or a builtin that changes what later commands run",
            Family::Remover => "deletes files: every delete is read on its own card",
            Family::Network => {
                "sends and fetches over the network: every transfer is read on its own card"
            }
            Family::Runner => "runs what a script or a file says, and the assistant can rewrite it",
            Family::Path => "is run by its path: the file there can be rewritten",
        }
    }
}

/// Why a rule can't be kept or used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("`{0}` takes no rule: only Bash commands do")]
    Tool(String),
    #[error("a rule needs a program and what it does: it has no words")]
    Empty,
    #[error("word {0} of the rule is empty")]
    EmptyWord(usize),
    #[error("`{word}` holds `{ch}`: a rule covers one plain command, nothing around it")]
    Char { word: String, ch: String },
    #[error("`{0}` is not one plain command: {1}")]
    NotPlain(String, &'static str),
    #[error("`{word}` {why}", why = .family.why())]
    Broad { word: String, family: Family },
    #[error("`{0}` alone is too broad: a rule names what the program does")]
    Alone(String),
    #[error("`{0}`: only the last word may end in `*`")]
    StarNotLast(String),
    #[error(
        "`{0}`: a `*` ends the last word, after a name and a `/` that pin it down (`feature/*`)"
    )]
    StarUnpinned(String),
    #[error("a rule's work folder is empty: name it, or leave it out")]
    EmptyCwd,
}

// ---------------------------------------------------------------------------------------------
// The tables. Lower case, sorted, unique (checked by a test). A program's name is compared
// lower case with a trailing `.exe` taken off, since some file systems ignore case.

/// Programs whose subcommand runs a project's own scripts: any later word naming one bans the
/// command (erring wide: `npm install t` is refused too). A subcommand ending in `:` is a
/// start (`mvn exec:java`).
#[rustfmt::skip]
const RUNNER_SUBCOMMANDS: &[(&str, &[&str])] = &[
    ("bundle", &["exec"]),
    ("cabal", &["exec", "run"]),
    ("cargo", &["make", "r", "run", "script", "xtask"]),
    ("composer", &["exec", "run", "run-script"]),
    ("conda", &["run"]),
    ("go", &["generate", "run"]),
    ("hatch", &["run"]),
    ("lein", &["run"]),
    ("mamba", &["run"]),
    ("mix", &["run"]),
    ("mvn", &["exec:"]),
    ("nix", &["develop", "run", "shell"]),
    ("npm", &["exec", "explore", "restart", "rum", "run", "run-script", "start", "stop", "t", "test", "tst", "urn", "x"]),
    ("pdm", &["run"]),
    ("pipenv", &["run"]),
    ("pipx", &["run"]),
    ("poetry", &["run"]),
    ("rye", &["run"]),
    ("sbt", &["run"]),
    ("stack", &["exec", "run", "runghc"]),
    ("uv", &["run", "tool"]),
];

/// Risks no rule lifts besides the flagged ones (critical, NEVER, refused, irreducible, held):
/// an id, or an area (`money` covers `money.pay`). Counts (the behaviour watch) and money are
/// named by area so they are refused the day their rules exist; a key-shaped argument would
/// be kept in settings in clear; a line the reader can't read can't be a rule.
#[rustfmt::skip]
const NO_RULE_LIFTS: &[&str] = &[
    "secrets.in_args", "shell.unknown", "watch",
];

/// Names before a `/` that pin nothing down: `refs/heads/*`, `heads/*` and `tags/*` stand
/// for every branch or tag.
#[rustfmt::skip]
const UNPINNING: &[&str] = &[
    "heads", "refs", "remotes", "tags",
];

// ---------------------------------------------------------------------------------------------
// The API.

/// The rule a question's card may offer for `command`, or `None`.
///
/// Offered only where Auto asks because the chat read something ([`may_lift`]), for one plain
/// command that isn't broad, in the chat's work folder. A `git push` of a branch under a name
/// (`feature/login`) is offered as that name's branches (`feature/*`).
pub fn offer(command: &str, verdict: &Verdict, ctx: &Context) -> Option<AutoRule> {
    if !may_lift(verdict, ctx) || ctx.cwd.trim().is_empty() {
        return None;
    }
    let mut words = plain_words(command).ok()?;
    not_broad(&words).ok()?;
    not_alone(&words).ok()?;
    let pushes = words.len() >= 4
        && words.first().is_some_and(|w| w == "git")
        && words.get(1).is_some_and(|w| w == "push");
    if pushes
        && let Some(last) = words.last_mut()
        && let Some(kind) = branch_kind(last)
    {
        *last = kind;
    }
    let rule = AutoRule {
        tool: BASH.to_string(),
        words,
        cwd: Some(ctx.cwd.clone()),
    };
    // INVARIANT: a rule warden offers passes the checks a rule read back passes.
    validate(&rule).ok()?;
    Some(rule)
}

/// Whether `rule` covers `command` run in the work folder `cwd`: a valid rule, a plain
/// command, the same number of words, each equal, the last covered by the rule's `*` if it
/// has one, and the same folder when the rule names one (a trailing `/` aside).
pub fn matches(rule: &AutoRule, command: &str, cwd: &str) -> bool {
    if validate(rule).is_err() {
        return false;
    }
    if let Some(folder) = &rule.cwd
        && (cwd.trim().is_empty() || folder.trim_end_matches('/') != cwd.trim_end_matches('/'))
    {
        return false;
    }
    let Ok(words) = plain_words(command) else {
        return false;
    };
    if words.len() != rule.words.len() {
        return false;
    }
    let last = rule.words.len().saturating_sub(1);
    rule.words
        .iter()
        .zip(&words)
        .enumerate()
        .all(|(i, (want, got))| match want.strip_suffix('*') {
            Some(head) if i == last => got.strip_prefix(head).is_some_and(is_name),
            _ => want == got,
        })
}

/// Checks a rule as warden would have offered it: the Bash tool, plain words, a `*` only at
/// the end of the last word after a name and a `/`, one command and nothing around it, never
/// broad, and a work folder that isn't empty when it names one.
pub fn validate(rule: &AutoRule) -> Result<(), RuleError> {
    if rule.tool != BASH {
        return Err(RuleError::Tool(rule.tool.clone()));
    }
    if rule.words.is_empty() {
        return Err(RuleError::Empty);
    }
    if rule.cwd.as_ref().is_some_and(|cwd| cwd.trim().is_empty()) {
        return Err(RuleError::EmptyCwd);
    }
    let last = rule.words.len() - 1;
    // The words with the `*` standing for a name, as a command they would cover.
    let mut sample = Vec::with_capacity(rule.words.len());
    for (i, word) in rule.words.iter().enumerate() {
        if word.is_empty() {
            return Err(RuleError::EmptyWord(i + 1));
        }
        match word.strip_suffix('*') {
            Some(head) if i == last => {
                if head.contains('*') || !is_pinned(head) {
                    return Err(RuleError::StarUnpinned(word.clone()));
                }
                sample.push(format!("{head}x"));
            }
            Some(_) => return Err(RuleError::StarNotLast(word.clone())),
            None if word.contains('*') && i == last => {
                return Err(RuleError::StarUnpinned(word.clone()));
            }
            None if word.contains('*') => return Err(RuleError::StarNotLast(word.clone())),
            None => sample.push(word.clone()),
        }
    }
    not_broad(&sample)?;
    for word in &sample {
        if let Some(ch) = unplain(word) {
            return Err(RuleError::Char {
                word: word.clone(),
                ch: ch.escape_debug().to_string(),
            });
        }
    }
    not_alone(&sample)?;
    one_command(&sample.join(" "), &sample)
}

/// Whether a kept rule may lift this question: Auto asks it only because the chat read
/// something, and nothing in it is beyond every rule (see the module docs).
pub fn may_lift(verdict: &Verdict, ctx: &Context) -> bool {
    if verdict.decision != Decision::Ask
        || ctx.mode != Mode::Auto
        || ctx.others
        || ctx.skill
        || ctx.read.is_empty()
    {
        return false;
    }
    let unread = Context {
        read: Vec::new(),
        ..ctx.clone()
    };
    verdict.risks.iter().any(|s| s.score >= ASKS_AT)
        && verdict
            .risks
            .iter()
            .all(|s| is_liftable(s) && score(&s.risk, &unread).score < ASKS_AT)
}

/// The kept rule that lifts this question, if one does: the runtime's one call before a
/// question reaches the person ([`may_lift`], then [`matches`] in the chat's work folder).
pub fn lifted_by<'a>(
    rules: &'a [AutoRule],
    command: &str,
    verdict: &Verdict,
    ctx: &Context,
) -> Option<&'a AutoRule> {
    if !may_lift(verdict, ctx) {
        return None;
    }
    rules.iter().find(|rule| matches(rule, command, &ctx.cwd))
}

// ---------------------------------------------------------------------------------------------
// The checks.

/// A character a rule's word may hold.
fn is_plain(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(c, '-' | '_' | '.' | '/' | ':' | '=' | '@' | ',' | '+' | '%')
}

/// The first character that keeps a word from being plain: one [`is_plain`] refuses, or a
/// leading `=` (zsh reads `=name` as the path of a program).
fn unplain(word: &str) -> Option<char> {
    if word.starts_with('=') {
        return Some('=');
    }
    word.chars().find(|&c| !is_plain(c))
}

/// A name a `*` may stand for, or that may come before a `/`: letters, digits, `-`, `_`, `.`,
/// starting with a letter or a digit, never `..`.
fn is_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphanumeric())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !text.contains("..")
}

/// What comes before a `*`: names cut by `/`, ending in a `/`, and the first pins something.
fn is_pinned(head: &str) -> bool {
    let Some(names) = head.strip_suffix('/') else {
        return false;
    };
    let first = names.split('/').next().unwrap_or("");
    names.split('/').all(is_name) && !UNPINNING.contains(&first.to_ascii_lowercase().as_str())
}

/// A pushed branch under a name (`feature/login`) as that name's branches (`feature/*`).
fn branch_kind(word: &str) -> Option<String> {
    let (head, last) = word.rsplit_once('/')?;
    let head = format!("{head}/");
    (is_name(last) && is_pinned(&head)).then(|| format!("{head}*"))
}

/// The words of one plain command, or why it isn't one.
fn plain_words(command: &str) -> Result<Vec<String>, RuleError> {
    let words: Vec<String> = command
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    if words.is_empty() {
        return Err(RuleError::Empty);
    }
    for word in &words {
        if let Some(ch) = unplain(word) {
            return Err(RuleError::Char {
                word: word.clone(),
                ch: ch.escape_debug().to_string(),
            });
        }
    }
    one_command(&words.join(" "), &words)?;
    Ok(words)
}

/// The shell reader reads `text` as one simple command at the top of the line, with exactly
/// `words`: nothing taken off, assigned, redirected, nested or sent to the background.
fn one_command(text: &str, words: &[String]) -> Result<(), RuleError> {
    let line = Line::parse(text);
    let not_plain = |why| Err(RuleError::NotPlain(text.to_string(), why));
    if line.unknown.is_some() {
        return not_plain("the shell reader can't fully read it");
    }
    let [command] = line.commands.as_slice() else {
        return not_plain("it is more than one command");
    };
    if command.via != Via::Top || command.parent.is_some() {
        return not_plain("it runs inside another command");
    }
    if !command.wrappers.is_empty() || command.sudo {
        return not_plain("a wrapper runs it");
    }
    if !command.assignments.is_empty() {
        return not_plain("it sets a variable");
    }
    if !command.redirects.is_empty() {
        return not_plain("it redirects");
    }
    if command.dynamic || command.dynamic_program || command.background {
        return not_plain("a word is only known when it runs");
    }
    if command.words != words {
        return not_plain("the shell reads its words differently");
    }
    Ok(())
}

/// The program's name as the tables hold it: lower case, a trailing `.exe` taken off.
fn program_name(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    match lower.strip_suffix(".exe") {
        Some(stem) if !stem.is_empty() => stem.to_string(),
        _ => lower,
    }
}

/// Refuses a broad command by what it starts with.
fn not_broad(words: &[String]) -> Result<(), RuleError> {
    let Some(first) = words.first() else {
        return Err(RuleError::Empty);
    };
    let name = program_name(first);
    let broad = |family| {
        Err(RuleError::Broad {
            word: first.clone(),
            family,
        })
    };
    let known = crate::catalogue::program(&name);
    let is = |class| known.is_some_and(|p| p.is(class));
    if is(Class::Shell) || is(Class::Source) {
        return broad(Family::Shell);
    }
    if name.contains('/') || name.starts_with('.') {
        return broad(Family::Path);
    }
    if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(RuleError::NotPlain(
            first.clone(),
            "a program is named by a name",
        ));
    }
    if is(Class::Interpreter) {
        return broad(Family::Interpreter);
    }
    let classes = [
        (Class::Wrapper, Family::Wrapper),
        (Class::Builtin, Family::Builtin),
        (Class::Remover, Family::Remover),
        (Class::Network, Family::Network),
        (Class::ProjectRunner, Family::Runner),
    ];
    if let Some((_, family)) = classes.iter().find(|(class, _)| is(*class)) {
        return broad(*family);
    }
    if let Some((_, subcommands)) = RUNNER_SUBCOMMANDS
        .iter()
        .find(|(p, _)| known.is_some_and(|k| k.name == *p) || *p == name)
    {
        let runs = words.iter().skip(1).find(|word| {
            let word = word.to_ascii_lowercase();
            subcommands.iter().any(|sub| match sub.strip_suffix(':') {
                Some(_) => word.starts_with(sub),
                None => word == *sub,
            })
        });
        if let Some(sub) = runs {
            return Err(RuleError::Broad {
                word: format!("{first} {sub}"),
                family: Family::Runner,
            });
        }
    }
    Ok(())
}

/// Refuses a program alone (`git`, `terraform`): a rule names what the program does.
fn not_alone(words: &[String]) -> Result<(), RuleError> {
    match words {
        [] => Err(RuleError::Empty),
        [program] => Err(RuleError::Alone(program.clone())),
        _ => Ok(()),
    }
}

/// A risk a rule may lift: none of the flags no words lift, not held, not a count, money or
/// a key.
fn is_liftable(scored: &Scored) -> bool {
    let risk = &scored.risk;
    let unlifted = NO_RULE_LIFTS.iter().any(|entry| {
        risk.rule == *entry
            || risk
                .rule
                .name()
                .strip_prefix(entry)
                .is_some_and(|rest| rest.starts_with('.'))
    });
    !(risk.critical
        || risk.rule.rule().lift != crate::law::rule::Lift::Words
        || risk.never
        || risk.refused
        || risk.irreducible
        || scored.wanted == Wanted::Held
        || unlifted)
}

#[cfg(test)]
mod tests;
