//! The law: a step and its chat in, a verdict out. Pure, synchronous and total.
//!
//! score = harm + lasting + what the chat read + a boundary the person stated; Auto asks
//! at three. A step the person asked for in their latest message, with every name it needs,
//! scores two at most; NEVER and critical steps keep their score whatever was said.

pub mod app;
pub mod browser;
pub(crate) mod code;
pub mod command;
pub mod file;
pub mod itself;
pub mod paths;
pub mod powershell;
pub mod rule;
pub mod schedule;
#[cfg(test)]
mod tests;
pub mod web;

use crate::facts::Facts;
use crate::intent::{Wanted, wanted};
use crate::mode::Mode;
use crate::step::{AppStep, Context, Step};
use crate::verdict::{Decision, Harm, Risk, Scored, Verdict};

/// What the law found in one step.
#[derive(Debug, Clone, Default)]
pub struct Assessment {
    pub risks: Vec<Risk>,
    /// The step changes the world (a file, a process, a remote, a cluster, an app's data).
    pub changes: bool,
    /// The step reaches the network: outside Auto, after reading, it asks.
    pub network: bool,
    /// An edit inside the work folder: Edit freely lets it go.
    pub edit_in_work: bool,
}

/// Auto asks at this score.
pub const ASKS_AT: u8 = 3;

/// What the person's asking caps a score at.
pub const ASKED_CAP: u8 = 2;

/// Judges one step. Never panics and never errors: what it cannot judge asks.
pub fn judge(step: &Step, ctx: &Context, facts: &dyn Facts) -> Verdict {
    match step {
        Step::Command { command } => {
            if command.trim().is_empty() {
                return ask_plain("an empty command: nothing to judge");
            }
            let line = crate::shell::Line::parse(command);
            let mut found = command::assess_read(command, &line, &ctx.cwd, facts);
            found
                .risks
                .extend(paths::protected_in_read_line(command, &line, ctx, facts));
            found
                .risks
                .extend(itself::in_read_line(command, &line, ctx));
            // A file an earlier step downloaded or decoded, run now: what a pipe into a
            // shell would have run, a step later.
            found
                .risks
                .extend(command::runs_fetched(&line, &ctx.fetched, &ctx.cwd, facts));
            // A file an earlier step wrote with text that asks if run, run now.
            found
                .risks
                .extend(command::runs_written(&line, &ctx.written, &ctx.cwd, facts));
            decide(quoting(found, command), ctx)
        }
        Step::PowerShell { command } => {
            if command.trim().is_empty() {
                return ask_plain("an empty command: nothing to judge");
            }
            decide(
                quoting(powershell::judged(command, ctx, facts), command),
                ctx,
            )
        }
        Step::File(file) => {
            let mut found = file::assess(file, ctx, facts);
            found.risks.extend(itself::in_text(&file.path, ctx));
            decide(found, ctx)
        }
        // The strictest of its files' verdicts: a patch is as risky as the worst write in it.
        Step::Patch { tool, files } => files
            .iter()
            .map(|file| judge(&Step::File(file.clone()), ctx, facts))
            .max_by_key(|verdict| (verdict.decision, verdict.score))
            .unwrap_or_else(|| ask_plain(&format!("{tool} names no file: nothing to judge"))),
        Step::App(app) => {
            let (found, ctx) = assess_app(app, ctx, facts);
            decide(found, &ctx)
        }
        Step::Fetch(fetch) => {
            let mut found = web::assess(fetch, ctx);
            found.risks.extend(itself::in_text(&fetch.target, ctx));
            decide(found, ctx)
        }
        Step::Browser(browser) => {
            let mut found = browser::assess(browser, ctx);
            found.risks.extend(itself::in_text(&browser.site, ctx));
            decide(found, ctx)
        }
        Step::Schedule(schedule) => {
            let mut found = schedule::assess(schedule);
            found.risks.extend(itself::in_text(&schedule.prompt, ctx));
            decide(found, ctx)
        }
        Step::Bookkeeping { tool } => Verdict {
            decision: Decision::Allow,
            score: 0,
            reason: sentence(&format!(
                "{tool} is the agent's own bookkeeping: nothing leaves and nothing changes"
            )),
            risks: Vec::new(),
        },
        Step::Unjudged { tool } => ask_plain(&format!(
            "the tool {tool} is not judged yet, so warden asks"
        )),
    }
}

/// What the rules find in an app's step, and the chat as the app sees it
/// ([`app::context`]). Every way an app step is judged goes through here (the behaviour
/// watch adds its counts to what this finds), so none misses a rule.
pub fn assess_app(app: &AppStep, ctx: &Context, facts: &dyn Facts) -> (Assessment, Context) {
    let ctx = app::context(app, ctx);
    let mut found = app::assess(app, &ctx);
    found
        .risks
        .extend(itself::in_text(&app.arguments.to_string(), &ctx));
    // A tool that runs a command line it is given runs it on a machine as the shell would:
    // the line is judged by the shell's law too (`rm -rf ~` through `execute_command`).
    // So does a tool that runs a program it is given (`execute_python_code`): its program is
    // read as the interpreter's, handed to it on a shell line.
    // A tool that is a command of a program warden knows, its arguments as that command's
    // options (a container run with its mounts, a push with its force), comes first: a
    // command it is given runs inside what it makes, not here. Then a command line, then a
    // program; each is read only when the one before gave none.
    let line = app::equivalent_line(app)
        .map(|line| (line, false))
        .or_else(|| {
            app::command_line(app).map(|(line, powershell)| (line.into_owned(), powershell))
        })
        .or_else(|| {
            app::program_code(app)
                .or_else(|| app::process_input(app))
                .map(|(language, code)| {
                    (
                        app::code_line(language, code),
                        language == app::CodeLanguage::PowerShell,
                    )
                })
        });
    if let Some((line, powershell)) = line {
        let line = line.as_str();
        let ran = if powershell {
            powershell::judged(line, &ctx, facts)
        } else {
            let parsed = crate::shell::Line::parse(line);
            let mut ran = command::assess_read(line, &parsed, &ctx.cwd, facts);
            ran.risks
                .extend(paths::protected_in_read_line(line, &parsed, &ctx, facts));
            ran.risks.extend(itself::in_read_line(line, &parsed, &ctx));
            ran
        };
        found.risks.extend(ran.risks);
        found.changes |= ran.changes;
    }
    // A statement an app's database tool runs, judged as the shell's database clients'.
    let who = format!("the tool {} in {}", app.tool, app.app);
    for statement in app::database_statements(app) {
        found
            .risks
            .extend(command::system::sql_wipe(statement, &who));
    }
    // What an app's browser tool does in its browser, judged as a browser step is.
    for step in app::browser_steps(app) {
        found.risks.extend(browser::assess(&step, &ctx).risks);
    }
    // A CI pipeline an app's file tool writes (a hosted repository's workflow): its steps,
    // as the file tools' write of one is judged, keeping what no CI run makes ordinary.
    for (path, text) in app::written_texts(app) {
        let abs = if path.starts_with('/') {
            path.to_string()
        } else {
            format!("/{}", path.trim_start_matches("./"))
        };
        for line in file::ci_commands(&abs, text) {
            found
                .risks
                .extend(file::ci_only(command::assess(&line, &ctx.cwd, facts).risks));
        }
    }
    // A file an app's file tool writes on this machine, judged as the file tools' writes.
    if let Some(path) = app::written_path(app) {
        let home = facts.home().unwrap_or_else(|| "/home/~".to_string());
        let place = paths::Place::new(&ctx.cwd, &home);
        if let Some(abs) = place.resolve_under_prefix(path) {
            found.risks.extend(command::paths::write_risk(&abs, place));
        }
    }
    (found, ctx)
}

/// Every wish of a command line's risks, asked for by a message that quotes the line whole.
fn quoting(mut found: Assessment, command: &str) -> Assessment {
    for risk in &mut found.risks {
        if let Some(wish) = risk.wish.as_mut() {
            wish.literal = Some(command.trim().to_string());
        }
    }
    found
}

fn ask_plain(reason: &str) -> Verdict {
    Verdict {
        decision: Decision::Ask,
        score: 0,
        reason: sentence(reason),
        risks: Vec::new(),
    }
}

/// Scores one risk for this chat.
pub fn score(risk: &Risk, ctx: &Context) -> Scored {
    let read = risk.wish.as_ref().map(|wish| {
        let own = wanted(wish, ctx.owner_words());
        // A hold on the broader act, said no earlier than what decided this one, holds it.
        let broader = wish
            .act
            .broader()
            .map(|act| wanted(&crate::wish::Wish::new(act), ctx.owner_words()));
        match broader {
            Some(wide) if wide.wanted == Wanted::Held && wide.message >= own.message => wide,
            _ => own,
        }
    });
    let reading = read.as_ref().map_or(Wanted::Neither, |r| r.wanted);
    let because = read
        .filter(|r| r.message.is_some() && r.wanted != Wanted::Neither)
        .map(|r| (r.cue.reason(), r.words));
    let held = reading == Wanted::Held;
    let mut score = risk.base() + u8::from(ctx.has_read()) + u8::from(held);
    if reading == Wanted::Asked && !risk.never && !risk.critical {
        score = score.min(ASKED_CAP);
    }
    Scored {
        risk: risk.clone(),
        score,
        wanted: reading,
        because,
    }
}

/// Turns what the rules found into a decision for the chat's mode.
pub fn decide(found: Assessment, ctx: &Context) -> Verdict {
    let mut risks: Vec<Scored> = found.risks.iter().map(|risk| score(risk, ctx)).collect();
    // Strongest first: the reason speaks for it.
    risks.sort_by_key(|s| std::cmp::Reverse((s.risk.critical, s.score, s.risk.never)));
    let top = risks.first();
    let score = top.map_or(0, |scored| scored.score);
    let read = ctx.has_read();

    let critical = risks.iter().find(|s| s.risk.critical);
    let held = risks.iter().find(|s| s.wanted == Wanted::Held);
    let irreducible = risks.iter().find(|s| s.risk.irreducible);
    let over = risks.iter().find(|s| s.score >= ASKS_AT);
    let way_out = risks.iter().find(|s| s.risk.way_out);

    let refused = risks.iter().find(|s| s.risk.refused);
    let (decision, reason) = if let Some(s) = refused {
        (Decision::Deny, sentence_body(&s.risk.reason))
    } else if ctx.mode == Mode::PlanOnly && found.changes {
        let why = top.map_or_else(
            || "this step changes things".to_string(),
            |s| s.risk.reason.clone(),
        );
        (
            Decision::Deny,
            format!(
                "{}: Plan only runs nothing that changes the world; switch to another mode to run it",
                sentence_body(&why)
            ),
        )
    } else if let Some(s) = critical {
        (
            Decision::Ask,
            explain(s, ctx, "warden asks about this in every mode"),
        )
    } else if let Some(s) = held {
        (Decision::Ask, explain(s, ctx, ""))
    } else if ctx.mode == Mode::FullTrust {
        match irreducible {
            Some(s) => (
                Decision::Ask,
                explain(s, ctx, "Full trust does not lift this"),
            ),
            None => (Decision::Allow, allowed(top, ctx)),
        }
    } else if (ctx.mode == Mode::AskFirst || ctx.mode == Mode::EditFreely && !found.edit_in_work)
        && found.changes
    {
        let why = top.map_or_else(
            || "this step changes things".to_string(),
            |s| s.risk.reason.clone(),
        );
        let mode = if ctx.mode == Mode::AskFirst {
            "Ask first"
        } else {
            "Edit freely"
        };
        (
            Decision::Ask,
            format!(
                "{}; {mode} asks before steps that change things",
                sentence_body(&why)
            ),
        )
    } else if matches!(ctx.mode, Mode::AskFirst | Mode::EditFreely | Mode::PlanOnly)
        && read
        && (found.network || way_out.is_some())
    {
        let why = way_out.map_or_else(
            || "this step reaches the network".to_string(),
            |s| s.risk.reason.clone(),
        );
        (
            Decision::Ask,
            format!(
                "{} after this chat read {}; outside Auto every way out asks after reading",
                sentence_body(&why),
                sources(ctx)
            ),
        )
    } else if let Some(s) = over {
        (Decision::Ask, explain(s, ctx, ""))
    } else {
        (Decision::Allow, allowed(top, ctx))
    };
    Verdict {
        decision,
        score,
        reason: sentence(&reason),
        risks,
    }
}

fn sources(ctx: &Context) -> String {
    if ctx.read.is_empty() {
        return "someone else's words".to_string();
    }
    let mut names: Vec<&str> = ctx.read.iter().map(String::as_str).take(2).collect();
    let more = ctx.read.len().saturating_sub(2);
    let tail = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    if names.len() == 2 {
        let second = names.pop().unwrap_or_default();
        format!("{} and {second}{tail}", names.join(", "))
    } else {
        format!("{}{tail}", names.join(", "))
    }
}

/// Why a risk asks, in one sentence.
fn explain(scored: &Scored, ctx: &Context, note: &str) -> String {
    let risk = &scored.risk;
    let mut out = sentence_body(&risk.reason);
    if let (Wanted::Held, Some((why, words))) = (scored.wanted, &scored.because) {
        out.push_str(&format!(", and {why} (“{words}”)"));
    } else if scored.wanted == Wanted::Held {
        out.push_str(", and you said to hold it");
    } else if risk.never && scored.wanted == Wanted::Asked {
        out.push_str("; no words lift this one");
    } else if ctx.has_read()
        && risk.base() + u8::from(scored.wanted == Wanted::Held) < ASKS_AT
        && !risk.never
    {
        out.push_str(&format!(", after this chat read {}", sources(ctx)));
    }
    if !note.is_empty() {
        out.push_str("; ");
        out.push_str(note);
    }
    out
}

fn allowed(top: Option<&Scored>, ctx: &Context) -> String {
    match top {
        None => "nothing here needs asking".to_string(),
        Some(s) if s.wanted == Wanted::Asked => {
            format!("{}, which you asked for", sentence_body(&s.risk.reason))
        }
        Some(s) if ctx.mode == Mode::FullTrust => {
            format!("{}; Full trust lets it go", sentence_body(&s.risk.reason))
        }
        Some(s) if s.risk.harm == Harm::None => "nothing here needs asking".to_string(),
        Some(s) => format!(
            "{}, which Auto lets go at this score",
            sentence_body(&s.risk.reason)
        ),
    }
}

fn sentence_body(text: &str) -> String {
    let mut chars = text.trim().trim_end_matches('.').chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn sentence(text: &str) -> String {
    let body = sentence_body(text);
    if body.is_empty() {
        body
    } else {
        format!("{body}.")
    }
}
