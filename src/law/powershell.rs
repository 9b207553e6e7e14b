//! The law for PowerShell: Claude Code's `PowerShell` tool, and `pwsh -c`/`-EncodedCommand`
//! inside a POSIX line, read as PowerShell, never as POSIX.
//!
//! # How it reads
//!
//! - `lex.rs` reads the text into statements (cut at `;`, newlines, `&&`, `||`, a trailing
//!   `&`; pipelines at `|`; never inside quotes), with single-quoted (`''` is a quote),
//!   double-quoted (backtick escapes, `$var`, `$( … )`) and here-strings, the backtick
//!   outside quotes (``Re`move-Item`` is `Remove-Item`), comments (`#`, `<# … #>`), and every
//!   group (`( … )`, `$( … )`, `@( … )`, script blocks `{ … }`, hashtables `@{ … }`) read as
//!   statements of its own. Nesting is bounded; what it can't read makes the text unknown.
//! - `cmdlets.rs` resolves a command's name as PowerShell does (any case, an alias, a module
//!   before `\`, an alias the script defines with `Set-Alias`) and binds its arguments to
//!   its parameters by unambiguous prefix or alias (`-r`, `-fo`, `-LP`).
//! - `translate.rs` writes each statement as the POSIX command line that means the same
//!   (`Remove-Item -Recurse -Force ~` → `rm -r -f ~`, `Get-Content ~/.ssh/id_rsa` →
//!   `cat ~/.ssh/id_rsa`, `iwr URL | iex` → `curl URL | sh`, `iex (New-Object
//!   Net.WebClient).DownloadString(URL)` → `eval "$(curl URL)"`, `Invoke-RestMethod -Method
//!   Post -InFile F -Uri URL` → `curl -X POST -T F URL`, `Set-Content $PROFILE` → a startup
//!   file), so the command law judges it with every rule it has; `Invoke-Expression` of
//!   literal text, an encoded command and a decoded literal blob are read as PowerShell in
//!   their place. What has no POSIX word is a risk of its own (`pwsh.*`, and the shared
//!   `persist.schedule`, `shell.reverse`, `critical.mkfs`…).
//!   `Set-Location` moves where relative paths point; Windows paths, a Windows work folder
//!   and home are read in POSIX form (`C:\x` → `/x`).
//! - A variable assigned once is read twice: as only known when it runs, and as its value;
//!   the risks of both count, so a value in place can only add.
//! - Linear: one pass to read; text read out of text, and values read in a variable's place,
//!   are charged against a budget of the text's own size.

use crate::law::rule::RuleId;
mod cmdlets;
mod decode;
mod lex;
#[cfg(test)]
mod tests;
mod translate;

use super::Assessment;
use crate::facts::{Facts, Remote};
use crate::shell::{Command, RedirectOp};
use crate::step::Context;
use crate::verdict::{Harm, Risk};

/// Assesses PowerShell text in the work folder `cwd`.
pub fn assess(text: &str, cwd: &str, facts: &dyn Facts) -> Assessment {
    read(text, cwd, facts, 0).0
}

/// What the law finds in a `PowerShell` tool call: every rule, protected paths and warden
/// itself, read through the POSIX lines it means as well as its own text.
pub fn judged(text: &str, ctx: &Context, facts: &dyn Facts) -> Assessment {
    let (mut found, posix) = read(text, &ctx.cwd, facts, 0);
    let mut posix_ctx = ctx.clone();
    posix_ctx.cwd = translate::posix_folder(&ctx.cwd);
    let facts = PosixFacts::new(facts, &ctx.cwd);
    found
        .risks
        .extend(super::paths::protected_in_line(&posix, &posix_ctx, &facts));
    found.risks.extend(super::itself::in_line(&posix, ctx));
    found.risks.extend(super::itself::in_text(text, ctx));
    // A file an earlier step fetched, run now (`& $env:TEMP\x.ps1`), as the POSIX line reads.
    let posix_line = crate::shell::Line::parse(&posix);
    found.risks.extend(super::command::runs_fetched(
        &posix_line,
        &ctx.fetched,
        &posix_ctx.cwd,
        &facts,
    ));
    // A file an earlier step wrote with text that asks if run (`& /tmp/x`).
    found.risks.extend(super::command::runs_written(
        &posix_line,
        &ctx.written,
        &posix_ctx.cwd,
        &facts,
    ));
    found
}

/// What PowerShell text leaves a chat to keep, as its POSIX lines read (`command::kept_by`):
/// its downloads (`Invoke-WebRequest URL -OutFile x.ps1`), its writes of text that asks if
/// run (`Set-Content C:/x 'rm -rf ~'`), and the kept files it copies or moves (`Move-Item`).
pub fn kept_by(
    text: &str,
    cwd: &str,
    fetched: &[crate::step::Fetched],
    written: &[crate::step::Written],
    facts: &dyn Facts,
) -> (Vec<crate::step::Fetched>, Vec<crate::step::Written>) {
    let posix_cwd = translate::posix_folder(cwd);
    let facts = PosixFacts::new(facts, cwd);
    let declared = facts.declared(&posix_cwd);
    let plain = translate::meaning(text, false, declared.as_deref());
    super::command::kept_by(&plain.posix, &posix_cwd, fetched, written, &facts)
}

/// Reads PowerShell text found `depth` texts deep: the assessment, and the POSIX lines.
pub(crate) fn read(text: &str, cwd: &str, facts: &dyn Facts, depth: usize) -> (Assessment, String) {
    let posix_cwd = translate::posix_folder(cwd);
    let facts = PosixFacts::new(facts, cwd);
    let declared = facts.declared(&posix_cwd);
    let plain = translate::meaning(text, false, declared.as_deref());
    let mut risks = Vec::new();
    if let Some(why) = &plain.unknown {
        risks.push(Risk::new(
            RuleId::ShellUnknown,
            Harm::Moderate,
            true,
            format!("the PowerShell text could not be read fully ({why})"),
        ));
    }
    risks.extend(plain.risks);
    let mut found = super::command::assess_at(&plain.posix, &posix_cwd, &facts, depth);
    let mut posix = plain.posix;
    if plain.substitutes {
        let second = translate::meaning(text, true, declared.as_deref());
        let more = super::command::assess_at(&second.posix, &posix_cwd, &facts, depth);
        risks.extend(second.risks);
        found.risks.extend(more.risks);
        found.changes |= more.changes;
        found.network |= more.network;
        posix.push('\n');
        posix.push_str(&second.posix);
    }
    found.changes |= !risks.is_empty();
    risks.append(&mut found.risks);
    found.risks = strongest(risks);
    (found, posix)
}

/// One risk per rule and wish, the strongest, in the order first found.
fn strongest(risks: Vec<Risk>) -> Vec<Risk> {
    let mut out: Vec<Risk> = Vec::with_capacity(risks.len());
    for risk in risks {
        match out
            .iter_mut()
            .find(|kept| kept.rule == risk.rule && kept.wish == risk.wish)
        {
            Some(kept) if (risk.never, risk.base()) > (kept.never, kept.base()) => *kept = risk,
            Some(_) => {}
            None => out.push(risk),
        }
    }
    out
}

/// What the options of `pwsh`/`powershell` that take a value are called (any prefix of
/// one of these, as PowerShell reads them).
#[rustfmt::skip]
const VALUED: &[&str] = &[
    "configurationfile", "configurationname", "custompipename", "encodedarguments", "executionpolicy",
    "inputformat", "outputformat", "psconsolefile", "settingsfile", "version", "windowstyle", "workingdirectory",
];

/// The PowerShell text a POSIX command runs: `pwsh -c TEXT`, `powershell -EncodedCommand
/// BLOB` (decoded), a script fed on standard input. A script file (`pwsh -File x.ps1`) is
/// judged as `bash x.sh` is.
pub(crate) fn texts_of(cmd: &Command) -> Vec<String> {
    let is_powershell = crate::catalogue::program(cmd.program())
        .and_then(|p| p.code)
        .is_some_and(|code| code.language == crate::catalogue::Language::PowerShell);
    if !is_powershell {
        return Vec::new();
    }
    let args = cmd.args();
    let mut out = Vec::new();
    let mut i = 0;
    let mut reads_stdin = true;
    while let Some(arg) = args.get(i) {
        let option = arg
            .strip_prefix('-')
            .or_else(|| arg.strip_prefix('/').filter(|rest| !rest.contains('/')))
            .map(str::to_ascii_lowercase);
        let Some(option) = option.filter(|o| !o.is_empty()) else {
            // `powershell Get-Process`: the rest is the command. `pwsh x.ps1` runs a file.
            if !arg.to_ascii_lowercase().ends_with(".ps1") {
                out.push(args.get(i..).unwrap_or(&[]).join(" "));
            }
            reads_stdin = false;
            break;
        };
        let is = |name: &str, shortest: usize| {
            option.len() >= shortest && name.starts_with(option.as_str())
        };
        if is("command", 1) || option == "cwa" || is("commandwithargs", 8) {
            let rest = args.get(i + 1..).unwrap_or(&[]);
            if rest.first().is_some_and(|r| r == "-") {
                break;
            }
            out.push(rest.join(" "));
            reads_stdin = false;
            break;
        }
        if is("encodedcommand", 1) || option == "ec" {
            if let Some(text) = args
                .get(i + 1)
                .and_then(|blob| decode::encoded_command(blob))
            {
                out.push(text);
            }
            reads_stdin = false;
            i += 2;
            continue;
        }
        if is("file", 1) {
            reads_stdin = false;
            break;
        }
        if VALUED.iter().any(|name| is(name, 2))
            || matches!(
                option.as_str(),
                "ep" | "ex" | "w" | "wd" | "v" | "of" | "if"
            )
        {
            i += 1;
        }
        i += 1;
    }
    if reads_stdin {
        for redirect in &cmd.redirects {
            if matches!(redirect.op, RedirectOp::HereDoc | RedirectOp::HereString) {
                out.push(redirect.target.clone());
            }
        }
    }
    out.retain(|text| !text.trim().is_empty());
    out
}

/// The host's facts, with a Windows home folder and work folder in the POSIX form the
/// command law reads (`C:\Users\me` → `/Users/me`); the folder asked about is handed back
/// as the host knows it.
struct PosixFacts<'a> {
    inner: &'a dyn Facts,
    cwd: String,
    posix_cwd: String,
}

impl<'a> PosixFacts<'a> {
    fn new(inner: &'a dyn Facts, cwd: &str) -> PosixFacts<'a> {
        PosixFacts {
            inner,
            cwd: cwd.to_string(),
            posix_cwd: translate::posix_folder(cwd),
        }
    }

    fn host_dir<'d>(&'d self, dir: &'d str) -> &'d str {
        if dir == self.posix_cwd {
            &self.cwd
        } else {
            dir
        }
    }
}

impl Facts for PosixFacts<'_> {
    fn tree_clean(&self, dir: &str) -> Option<bool> {
        self.inner.tree_clean(self.host_dir(dir))
    }

    fn remotes(&self, dir: &str) -> Option<Vec<Remote>> {
        self.inner.remotes(self.host_dir(dir))
    }

    fn declared(&self, dir: &str) -> Option<Vec<String>> {
        self.inner.declared(self.host_dir(dir))
    }

    fn installed_bin(&self, dir: &str, program: &str) -> Option<bool> {
        self.inner.installed_bin(self.host_dir(dir), program)
    }

    fn home(&self) -> Option<String> {
        self.inner.home().map(|home| translate::posix_folder(&home))
    }

    fn may_wait(&self) -> bool {
        self.inner.may_wait()
    }
}
