//! The `warden` binary: judge steps (one, or a JSON-lines batch), serve the HTTP API, answer
//! Claude Code's hooks, run the corpus, read the person's words.

/// `println!` that returns an error instead of panicking when stdout is closed
/// (`warden judge … | head`).
macro_rules! outln {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout().lock(), $($arg)*)?
    };
}

/// jemalloc, not the system's allocator: the runtime allocates in the async workers and
/// frees in the log's writer thread (records, replies), which glibc's per-thread arenas pay
/// for dearly; in-process decisions went about 1.5× faster with it
/// (`benches/benches/runtime.rs`), at the resident memory glibc has (mimalloc was as fast
/// but held about 1.7× the memory).
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

mod external;
mod hook;
mod load;
mod rates;
mod sign_in;
mod torture;

use anyhow::{Context as _, Result, bail};
use clap::{Parser, Subcommand};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use warden::corpus::{World, parse_cases, run};
use warden::mode::Mode;
use warden::protocol::{Defaults, judge_line, wish_text};
use warden::step::{Context, Step};
use warden::verdict::Decision;
use warden::wish::{Act, Name, Wish};
use warden_actors::config::Config;
use warden_actors::facts::HostFacts;

/// warden: a supervisor between AI agents and the world. It answers allow, ask or deny.
#[derive(Parser)]
#[command(name = "warden", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Judge steps: JSON lines on stdin (one answer line per request line), or one command
    /// given with --command.
    Judge(JudgeArgs),
    /// Serve the HTTP/JSON API on loopback: chats judged in their state, their events, the
    /// person's answers and settings. Runs until SIGTERM or Ctrl-C.
    Serve(warden_actors::serve::ServeArgs),
    /// Sign in to the person's page: a one-time link from the running `warden serve`,
    /// printed and opened in a browser (questions, chats, settings; see docs/protocol.md).
    Page(sign_in::PageArgs),
    /// Run the corpus and print the rates per file.
    Corpus {
        /// The corpus folder.
        #[arg(long, default_value = "corpus")]
        dir: PathBuf,
        /// Also run the external corpora under this folder (tldr, nl2bash, gtfobins, …), and
        /// the sample labelled by hand in the corpus folder's external/labels.jsonl.
        #[arg(long)]
        external: Option<PathBuf>,
        /// Print this many sample commands per set, label and verdict, and this many
        /// mismatches against the hand labels per kind.
        #[arg(long, default_value_t = 0)]
        show: usize,
        /// Write the rates table (allow / ask / deny before and after reading, per file and
        /// per set) into this file, between its markers (the README's).
        #[arg(long, value_name = "FILE")]
        rates: Option<PathBuf>,
    },
    /// Check an event log: every record read, what it holds, what could not be read.
    Replay {
        /// Verify the log (and change nothing): the sled log in DIR, or without DIR the log
        /// the configuration names (its data folder's, or its JetStream stream, read only).
        #[arg(long, value_name = "DIR")]
        check: Option<Option<PathBuf>>,
        /// The configuration file (default: $WARDEN_CONFIG, else config.toml in warden's
        /// settings folder if there is one).
        #[arg(long)]
        config: Option<PathBuf>,
    },
    /// Read the person's words for one act: asked, held or neither, and which words decided.
    Intent {
        /// The act: push, force_push, deploy, install, delete, send, publish, …
        #[arg(long)]
        act: String,
        /// A name the message must carry to ask (a branch, package, host…); repeatable.
        #[arg(long = "name")]
        names: Vec<String>,
        /// The message must name production.
        #[arg(long)]
        production: bool,
        /// The person's messages, oldest first.
        #[arg(required = true)]
        said: Vec<String>,
    },
    /// The hook for Claude Code or Codex: one hook input on stdin, the host's answer on
    /// stdout, exit 0 always (see docs/hook.md).
    Hook {
        /// The agent that runs the hook (`warden setup` writes it); without it, the input's
        /// shape says.
        #[arg(long, value_enum)]
        host: Option<hook::Host>,
    },
    /// Set warden up in an assistant: `warden setup claude-code` writes warden's hooks and
    /// Claude Code's sandbox settings (see docs/hook.md, "Setup").
    Setup(warden_actors::setup::SetupArgs),
    /// Kill `warden serve` with SIGKILL at random moments under a mix of requests, restart it,
    /// and check that every acknowledged event and every verdict survived (exit 1 if not).
    Torture(torture::TortureArgs),
    /// Load `warden serve` on loopback with judge requests over many chats: requests a
    /// second, p50/p99 latency and the daemon's resident memory.
    Load(load::LoadArgs),
    /// The second look: `warden look --check` puts the calibration set to the configured
    /// model and says whether the look would be on (exit 0) or off, and why (exit 1).
    Look {
        /// Calibrate the model now (the only action so far).
        #[arg(long)]
        check: bool,
        /// The configuration file (default: $WARDEN_CONFIG, else config.toml in warden's
        /// settings folder if there is one).
        #[arg(long)]
        config: Option<PathBuf>,
    },
}

#[derive(clap::Args)]
struct JudgeArgs {
    /// Judge this one shell command instead of reading JSON lines.
    #[arg(long)]
    command: Option<String>,
    /// One of the person's own messages, oldest first; repeatable.
    #[arg(long)]
    said: Vec<String>,
    /// A source the chat has read (a mark); repeatable.
    #[arg(long)]
    read: Vec<String>,
    /// Someone else's words are in the chat.
    #[arg(long)]
    others: bool,
    /// The mode: ask_first, edit_freely, plan_only, auto, full_trust (or Claude Code's names).
    #[arg(long, default_value = "auto")]
    mode: String,
    /// The work folder (default: the current folder).
    #[arg(long)]
    cwd: Option<String>,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
    /// The configuration file (default: $WARDEN_CONFIG, else config.toml in warden's
    /// settings folder if there is one).
    #[arg(long)]
    config: Option<PathBuf>,
}

fn main() -> std::process::ExitCode {
    match run_cli(Cli::parse()) {
        Ok(code) => code,
        // The reader went away (`| head`): nothing more to say.
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("warden: {e:#}");
            std::process::ExitCode::from(2)
        }
    }
}

fn run_cli(cli: Cli) -> Result<std::process::ExitCode> {
    match cli.command {
        Command::Judge(args) => judge(args),
        Command::Serve(args) => warden_actors::serve::main(args),
        Command::Page(args) => sign_in::main(args),
        Command::Corpus {
            dir,
            external,
            show,
            rates,
        } => corpus(&dir, external.as_deref(), show, rates.as_deref()),
        Command::Replay { check, config } => replay_check(check, config.as_deref()),
        Command::Intent {
            act,
            names,
            production,
            said,
        } => intent(&act, names, production, &said),
        Command::Hook { host } => Ok(hook::run(host)),
        Command::Setup(args) => warden_actors::setup::main(args),
        Command::Look { check, config } => look(check, config.as_deref()),
        Command::Torture(args) => torture::main(args),
        Command::Load(args) => load::main(args),
    }
}

fn current_dir() -> String {
    std::env::current_dir()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "/".to_string())
}

/// The host's facts about the world: git and the manifests, read on this machine.
fn host_facts() -> HostFacts {
    HostFacts::new()
}

fn judge(args: JudgeArgs) -> Result<std::process::ExitCode> {
    let facts = host_facts();
    let home = std::env::var("HOME").unwrap_or_else(|_| "/".to_string());
    let config = Config::load(args.config.as_deref(), &home)?;
    let defaults = config.defaults(args.cwd.clone().unwrap_or_else(current_dir), &home);
    let Some(command) = args.command else {
        return batch(&defaults, &facts);
    };
    let mode = Mode::parse_with_default(&args.mode, defaults.default_mode)?;
    let ctx = Context {
        skill: false,
        protected: defaults.protected.as_slice().into(),
        mode,
        cwd: defaults.cwd.clone(),
        said: args.said,
        read: args.read,
        others: args.others,
        second_look: false,
        listen_port: defaults.listen_port,
        fetched: Vec::new(),
        written: Vec::new(),
    };
    let verdict = warden::judge(&Step::Command { command }, &ctx, &facts);
    if args.json {
        let answer = warden::protocol::answer(serde_json::Value::Null, &verdict);
        outln!("{}", serde_json::to_string(&answer)?);
    } else {
        outln!("{}  (score {})", verdict.decision.name(), verdict.score);
        outln!("{}", verdict.reason);
        for scored in &verdict.risks {
            let wish = scored
                .risk
                .wish
                .as_ref()
                .filter(|_| !scored.risk.never)
                .map(wish_text)
                .unwrap_or_else(|| "no words lift it".into());
            outln!(
                "  - {} (score {}, {:?}): {} [asks with: {wish}]",
                scored.risk.rule,
                scored.score,
                scored.wanted,
                scored.risk.reason
            );
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// Reads JSON lines on stdin and writes one answer line for each, in order. Exits 0 unless
/// stdin itself fails.
fn batch(defaults: &Defaults, facts: &HostFacts) -> Result<std::process::ExitCode> {
    let stdin = std::io::stdin();
    let mut input = std::io::BufReader::with_capacity(1 << 16, stdin.lock());
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        let read = input
            .read_until(b'\n', &mut buffer)
            .context("reading stdin")?;
        if read == 0 {
            break;
        }
        let line = String::from_utf8_lossy(&buffer);
        let line = line.trim_end_matches(['\n', '\r']);
        // Each request is its own turn: git is asked again, at most once per folder.
        facts.new_turn();
        let answer = if line.trim().is_empty() {
            r#"{"id":null,"error":"the line is empty: expected one JSON request"}"#.to_string()
        } else {
            judge_line(line, defaults, facts)
        };
        writeln!(out, "{answer}").context("writing stdout")?;
        // An orchestrator waits for each answer: hand it over as soon as no more input waits.
        if input.buffer().is_empty() {
            out.flush().context("writing stdout")?;
        }
    }
    out.flush().context("writing stdout")?;
    Ok(std::process::ExitCode::SUCCESS)
}

fn corpus(
    dir: &Path,
    external: Option<&Path>,
    show: usize,
    rates: Option<&Path>,
) -> Result<std::process::ExitCode> {
    let mut table = rates::Table::default();
    let world_path = dir.join("world.json");
    let world: World = serde_json::from_str(
        &std::fs::read_to_string(&world_path)
            .with_context(|| format!("reading {}", world_path.display()))?,
    )
    .with_context(|| format!("{} is not a valid world", world_path.display()))?;
    let mut files: Vec<PathBuf> = Vec::new();
    for area in warden::corpus::AREAS {
        let folder = dir.join(area);
        let Ok(read) = std::fs::read_dir(&folder) else {
            continue;
        };
        files.extend(
            read.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "jsonl")),
        );
    }
    files.sort();
    if files.is_empty() {
        bail!("no cases under {}", dir.display());
    }
    let mut failed = 0;
    outln!(
        "{:<28} {:>6} {:>7}   {:>16} {:>16}",
        "file",
        "cases",
        "failed",
        "asks before",
        "asks after"
    );
    for path in &files {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let (mut total, mut failures, mut before, mut after) = (0usize, Vec::new(), 0usize, 0usize);
        let mut shares = rates::Shares::default();
        for (line, case) in parse_cases(&text) {
            total += 1;
            match case {
                Ok(case) => {
                    let outcome = run(&case, &world);
                    shares.add(outcome.before.decision, outcome.after.decision);
                    before += usize::from(outcome.before.decision != Decision::Allow);
                    after += usize::from(outcome.after.decision != Decision::Allow);
                    for failure in outcome.failures {
                        failures.push(format!(
                            "  line {line} [{}] `{}`: {failure}",
                            case.case,
                            case.shown()
                        ));
                    }
                }
                Err(e) => failures.push(format!("  line {line}: unreadable case: {e}")),
            }
        }
        let name = path.strip_prefix(dir).unwrap_or(path).display().to_string();
        table.row("corpus", &name, shares);
        let pct = |n: usize| {
            if total == 0 {
                0.0
            } else {
                n as f64 * 100.0 / total as f64
            }
        };
        outln!(
            "{name:<28} {total:>6} {:>7}   {:>15.1}% {:>15.1}%",
            failures.len(),
            pct(before),
            pct(after)
        );
        for failure in &failures {
            outln!("{failure}");
        }
        failed += failures.len();
    }
    if let Some(external) = external {
        outln!();
        let ours = dir.join("external");
        external::run(
            external,
            &ours.join("labels.jsonl"),
            &ours.join("agents.jsonl"),
            show,
            &mut table,
        )?;
    }
    if let Some(file) = rates {
        let text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let written = rates::splice(&text, &table.markdown())
            .with_context(|| format!("writing the rates into {}", file.display()))?;
        std::fs::write(file, written).with_context(|| format!("writing {}", file.display()))?;
        outln!();
        outln!("rates written into {}", file.display());
    }
    Ok(if failed == 0 {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    })
}

/// `warden look --check`: the configured model's calibration, one line per step, then
/// whether the look is on.
fn look(check: bool, config: Option<&Path>) -> Result<std::process::ExitCode> {
    if !check {
        bail!("say what to do with the second look: `warden look --check` calibrates its model");
    }
    let home = std::env::var("HOME").unwrap_or_else(|_| "/".to_string());
    let config = Config::load(config, &home)?;
    let Some(table) = &config.second_look else {
        bail!("the configuration has no [second_look]: no model to check (docs/second-look.md)");
    };
    let look = warden_actors::second_look::SecondLook::new(table)
        .map_err(|e| anyhow::anyhow!("the configuration's [second_look]: {e}"))?;
    // Why a step got no answer, on stderr (RUST_LOG changes it).
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warden_actors=debug")),
        )
        .with_writer(std::io::stderr)
        .without_time()
        .try_init();
    let tokio = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting tokio")?;
    let started = std::time::Instant::now();
    let calibration = tokio.block_on(look.calibrate());
    let took = started.elapsed();
    outln!(
        "warden: the second look at {} (model {}, structured output {:?}), {} calibration steps in {:.1} s:",
        look.endpoint(),
        table.model,
        look.format(),
        calibration.outcomes.len(),
        took.as_secs_f64()
    );
    for outcome in &calibration.outcomes {
        let answered = outcome.answer.map_or("no answer", |kind| kind.name());
        let right = if outcome.risky {
            "any kind but not_risky"
        } else {
            "not_risky"
        };
        let verdict = if outcome.is_right() { "right" } else { "wrong" };
        outln!(
            "  {verdict:5}  {}: {answered} ({right} is right)",
            outcome.name
        );
    }
    match look.standing().why_off() {
        None => {
            outln!(
                "warden: the second look is on: its model answered every calibration step right"
            );
            Ok(std::process::ExitCode::SUCCESS)
        }
        Some(why) => {
            outln!("warden: {why}");
            Ok(std::process::ExitCode::from(1))
        }
    }
}

fn replay_check(
    check: Option<Option<PathBuf>>,
    config: Option<&Path>,
) -> Result<std::process::ExitCode> {
    let Some(dir) = check else {
        bail!("say what to do with the log: `warden replay --check [DIR]` verifies it");
    };
    let report = match dir {
        Some(dir) => warden_storage::check(&dir)
            .with_context(|| format!("checking the event log in {}", dir.display()))?,
        None => {
            let home = std::env::var("HOME").unwrap_or_else(|_| "/".to_string());
            let config = Config::load(config, &home)?;
            match config.log.engine() {
                warden_storage::Engine::Sled => {
                    let dir = config.data_dir(&home);
                    warden_storage::check(&dir)
                        .with_context(|| format!("checking the event log in {}", dir.display()))?
                }
                warden_storage::Engine::JetStream(settings) => {
                    warden_storage::check_stream(&settings).with_context(|| {
                        format!(
                            "checking the event log in the stream `{}` at {}",
                            settings.stream, settings.url
                        )
                    })?
                }
            }
        }
    };
    outln!("{report}");
    Ok(if report.is_clean() {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    })
}

fn intent(
    act: &str,
    names: Vec<String>,
    production: bool,
    said: &[String],
) -> Result<std::process::ExitCode> {
    let Some(act) = Act::parse(act) else {
        let known: Vec<&str> = Act::ALL.iter().map(|a| a.name()).collect();
        bail!("unknown act `{act}`: expected one of {}", known.join(", "));
    };
    let mut wish = Wish::new(act);
    for name in names {
        wish = wish.naming(Name::one(name));
    }
    if production {
        wish = wish.naming(Name::Production);
    }
    let reading = warden::intent::wanted(&wish, said);
    let wanted = match reading.wanted {
        warden::intent::Wanted::Asked => "asked",
        warden::intent::Wanted::Held => "held",
        warden::intent::Wanted::Neither => "neither",
    };
    outln!("{wanted}: {}", reading.cue.reason());
    if let Some(index) = reading.message {
        outln!(
            "decided by message {} of {}: “{}”",
            index + 1,
            said.len(),
            reading.words
        );
    } else {
        outln!("no message names the act {}", act.name());
    }
    Ok(std::process::ExitCode::SUCCESS)
}
