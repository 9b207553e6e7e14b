//! `warden setup claude-code`: writes warden's hooks and Claude Code's sandbox settings into
//! a Claude Code settings file, merged into what is there, after a preview and with a
//! backup; `--check` says what is set and what is missing (`docs/hook.md`, "Setup").

pub mod codex;
pub mod diff;
pub mod json;
pub mod merge;

use crate::config::{Config, LISTEN, data_dir, settings_dir};
use anyhow::{Context as _, Result, bail};
use json::Json;
use merge::{Plan, Step};
use std::io::{BufRead as _, IsTerminal as _, Write as _};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `warden setup`: what to set warden up in.
#[derive(Debug, clap::Args)]
pub struct SetupArgs {
    /// The assistant.
    #[command(subcommand)]
    pub target: Target,
}

/// The assistants `warden setup` knows.
#[derive(Debug, clap::Subcommand)]
pub enum Target {
    /// Claude Code: warden's hooks for every event it handles, and Claude Code's sandbox
    /// keeping warden's data folder, configuration and port out of the sandboxed Bash's
    /// reach. Shows what changes and asks first (or --yes); keeps a backup of the file.
    ClaudeCode(ClaudeCodeArgs),
    /// Codex CLI: warden's hooks in hooks.json (`--host codex`, so its answers are blocks
    /// Codex obeys), each marked trusted in $CODEX_HOME/config.toml as Codex stores trust.
    /// Shows what changes and asks first (or --yes); keeps a backup of each file.
    Codex(codex::CodexArgs),
}

/// `warden setup claude-code`.
#[derive(Debug, clap::Args)]
pub struct ClaudeCodeArgs {
    /// The project whose .claude/settings.json to write (default: the current folder).
    #[arg(long, value_name = "DIR", conflicts_with = "user")]
    pub project: Option<PathBuf>,
    /// Write the person's own ~/.claude/settings.json ($CLAUDE_CONFIG_DIR/settings.json
    /// when set), for every project.
    #[arg(long)]
    pub user: bool,
    /// Write without asking.
    #[arg(long, short = 'y', conflicts_with_all = ["dry_run", "check"])]
    pub yes: bool,
    /// Print what would change, and write nothing.
    #[arg(long, conflicts_with = "check")]
    pub dry_run: bool,
    /// Say what is set and what is missing, and write nothing: exit 0 when all is set,
    /// 1 otherwise.
    #[arg(long)]
    pub check: bool,
    /// Also `sandbox.failIfUnavailable: true`: Claude Code refuses to start when its
    /// sandbox can't (bubblewrap or socat missing, say) instead of running Bash without it.
    #[arg(long)]
    pub strict: bool,
}

/// Runs `warden setup`.
pub fn main(args: SetupArgs) -> Result<ExitCode> {
    match args.target {
        Target::ClaudeCode(args) => claude_code(&args),
        Target::Codex(args) => codex::main(&args),
    }
}

/// Something the sandbox needs on this machine, and whether it is there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tool {
    /// What it is, in words (`bubblewrap (bwrap)`).
    pub what: String,
    /// None: there and working; else what is wrong and how to put it right.
    pub problem: Option<String>,
}

fn claude_code(args: &ClaudeCodeArgs) -> Result<ExitCode> {
    let home = std::env::var("HOME")
        .ok()
        .filter(|home| !home.is_empty())
        .context("HOME is not set: warden's folders and ~/.claude are found from it")?;
    let file = settings_file(args, &home)?;
    let config = Config::load(None, &home).context(
        "warden's configuration can't be read, so its data folder and port aren't known",
    )?;
    let (plan, folders) = plan(&config, &home, args.strict)?;
    let read = read(&file)?;
    let before = read.as_ref().map(|(text, _)| text.clone());
    let existing = read
        .map(|(_, value)| value)
        .unwrap_or_else(|| Json::Object(Default::default()));
    let (merged, steps) = merge::steps(existing, &plan)
        .with_context(|| format!("{}: nothing was written", file.display()))?;
    let notes = merge::notes(&merged);
    let tools = tools();
    let mut out = std::io::stdout().lock();
    if args.check {
        return check(&mut out, &file, before.is_some(), &steps, &notes, &tools);
    }
    let changes: Vec<&merge::Change> = steps.iter().flat_map(|s| &s.changes).collect();
    if changes.is_empty() {
        writeln!(
            out,
            "{} already has warden's hooks and sandbox settings: nothing to change.",
            file.display()
        )?;
        report(&mut out, &notes, &tools, args.strict)?;
        return Ok(ExitCode::SUCCESS);
    }
    let after = format!("{}\n", merged.pretty());
    match &before {
        Some(_) => writeln!(out, "warden setup would change {}:", file.display())?,
        None => writeln!(out, "warden setup would create {}:", file.display())?,
    }
    for change in &changes {
        writeln!(out, "  {change}")?;
    }
    writeln!(out)?;
    write!(
        out,
        "{}",
        diff::diff(before.as_deref().unwrap_or(""), &after)
    )?;
    writeln!(out)?;
    if let Some(note) = build_folder(&plan.program) {
        writeln!(out, "note: {note}")?;
    }
    if args.dry_run {
        writeln!(out, "Dry run: nothing was written.")?;
        report(&mut out, &notes, &tools, args.strict)?;
        return Ok(ExitCode::SUCCESS);
    }
    if !args.yes {
        if !std::io::stdin().is_terminal() {
            bail!(
                "nothing was written: run `warden setup claude-code` again with --yes to write {} (stdin is not a terminal to ask on), or --dry-run to only look",
                file.display()
            );
        }
        write!(out, "Write these changes to {}? [y/N] ", file.display())?;
        out.flush()?;
        let mut answer = String::new();
        std::io::stdin().lock().read_line(&mut answer)?;
        if !matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
            writeln!(out, "Nothing was written.")?;
            return Ok(ExitCode::FAILURE);
        }
    }
    let backup = write(&file, before.as_deref(), &after)?;
    match backup {
        Some(backup) => writeln!(
            out,
            "Wrote {} (the file as it was: {}).",
            file.display(),
            backup.display()
        )?,
        None => writeln!(out, "Wrote {} (a new file).", file.display())?,
    }
    for folder in made_folders(&folders)? {
        writeln!(
            out,
            "Made {} (mode 0700), so the sandbox has a folder to hide from the start.",
            folder.display()
        )?;
    }
    report(&mut out, &notes, &tools, args.strict)?;
    Ok(ExitCode::SUCCESS)
}

/// The settings file `--project DIR` or `--user` names.
fn settings_file(args: &ClaudeCodeArgs, home: &str) -> Result<PathBuf> {
    if args.user {
        let dir = match std::env::var_os("CLAUDE_CONFIG_DIR") {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir),
            _ => Path::new(home).join(".claude"),
        };
        return Ok(absolute(&dir)?.join("settings.json"));
    }
    let project = match &args.project {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().context("the current folder can't be read")?,
    };
    if !project.is_dir() {
        bail!("{} is not a folder", project.display());
    }
    Ok(absolute(&project)?.join(".claude").join("settings.json"))
}

fn absolute(path: &Path) -> Result<PathBuf> {
    std::path::absolute(path).with_context(|| format!("{} has no absolute path", path.display()))
}

/// What setup writes on this machine: this binary, warden's folders as the hook finds them
/// (`$WARDEN_DATA`, else `data` in the configuration, else `~/.local/share/warden`; the
/// settings folder; `$WARDEN_CONFIG` when elsewhere), and warden's port; and warden's two
/// folders.
fn plan(config: &Config, home: &str, strict: bool) -> Result<(Plan, Vec<PathBuf>)> {
    let program = std::env::current_exe().context("this warden binary's path can't be read")?;
    let program = std::fs::canonicalize(&program).unwrap_or(program);
    let program = program
        .to_str()
        .context("this warden binary's path is not UTF-8, so it can't be written in JSON")?
        .to_string();
    let data = match std::env::var_os("WARDEN_DATA") {
        Some(dir) if !dir.is_empty() => data_dir(home),
        _ => config.data_dir(home),
    };
    let folders = vec![absolute(&data)?, absolute(&settings_dir(home))?];
    let mut hidden = folders.clone();
    if let Some(file) = std::env::var_os("WARDEN_CONFIG").filter(|f| !f.is_empty()) {
        let file = absolute(Path::new(&file))?;
        if !hidden.iter().any(|dir| file.starts_with(dir)) {
            hidden.push(file);
        }
    }
    let mut hidden_text = Vec::new();
    for path in hidden {
        let text = path
            .to_str()
            .with_context(|| format!("{} is not UTF-8", path.display()))?
            .trim_end_matches('/')
            .to_string();
        if !hidden_text.contains(&text) {
            hidden_text.push(text);
        }
    }
    let plan = Plan {
        program,
        hidden: hidden_text,
        denied: denied(config),
        strict,
        home: home.to_string(),
        host: None,
    };
    Ok((plan, folders))
}

/// `sandbox.network.deniedDomains` entries for warden's address: its port (`listen` in the
/// configuration, else 7411, and `$WARDEN_URL`'s) under every loopback name. The sandbox's
/// proxy writes a host in its usual form before it matches (`127.1` and
/// `[::ffff:127.0.0.1]` are `127.0.0.1`), and each entry's `:port` keeps the person's other
/// local servers reachable where they allowed them.
fn denied(config: &Config) -> Vec<String> {
    let listen: Option<SocketAddr> = config
        .listen
        .as_deref()
        .unwrap_or(LISTEN)
        .parse()
        .ok()
        .or_else(|| LISTEN.parse().ok());
    let mut addresses: Vec<(String, u16)> = Vec::new();
    let mut add = |host: String, port: u16| {
        if port != 0 && !addresses.contains(&(host.clone(), port)) {
            addresses.push((host, port));
        }
    };
    let mut ports = Vec::new();
    let mut hosts = Vec::new();
    if let Some(listen) = listen {
        ports.push(listen.port());
        hosts.push(listen.ip());
    }
    if let Some((host, port)) = std::env::var("WARDEN_URL")
        .ok()
        .and_then(|url| url_host_port(&url))
    {
        ports.push(port);
        if let Ok(ip) = host.trim_matches(['[', ']']).parse::<IpAddr>() {
            hosts.push(ip);
        }
    }
    for port in ports {
        for name in ["localhost", "127.0.0.1", "[::1]", "0.0.0.0"] {
            add(name.to_string(), port);
        }
        for ip in &hosts {
            let name = match ip {
                IpAddr::V4(v4) => v4.to_string(),
                IpAddr::V6(v6) => format!("[{v6}]"),
            };
            add(name, port);
        }
    }
    addresses
        .into_iter()
        .map(|(host, port)| format!("{host}:{port}"))
        .collect()
}

/// The host and port of an `http://host:port/…` address.
fn url_host_port(url: &str) -> Option<(String, u16)> {
    let rest = url.strip_prefix("http://")?;
    let authority = rest.split('/').next()?;
    let (host, port) = authority.rsplit_once(':')?;
    Some((host.to_string(), port.parse().ok()?))
}

/// The settings file's text and JSON; None when there is no file. A file that isn't a JSON
/// object is an error naming the file and the place, and is never overwritten.
fn read(file: &Path) -> Result<Option<(String, Json)>> {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", file.display())),
    };
    if text.trim().is_empty() {
        return Ok(Some((text, Json::Object(Default::default()))));
    }
    let value = Json::parse(&text).map_err(|e| {
        let message = e.to_string();
        let place = format!(" at line {} column {}", e.line(), e.column());
        let message = message.strip_suffix(&place).unwrap_or(&message);
        anyhow::anyhow!(
            "{}:{}:{}: not valid JSON ({message}), so warden setup leaves it as it is",
            file.display(),
            e.line(),
            e.column()
        )
    })?;
    if value.as_object().is_none() {
        let kind = value.kind();
        bail!(
            "{} holds {kind}, not a JSON object of settings, so warden setup leaves it as it is",
            file.display()
        );
    }
    Ok(Some((text, value)))
}

/// Writes `after` in place of the file, through a new file renamed over it (a symbolic
/// link is followed, so the file it points to is the one changed). The file as it was is
/// kept first as `settings.json.warden-backup-<time>` beside it; its path is returned.
fn write(file: &Path, before: Option<&str>, after: &str) -> Result<Option<PathBuf>> {
    let target = match std::fs::symlink_metadata(file) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(file)
            .with_context(|| format!("following the link {}", file.display()))?,
        _ => file.to_path_buf(),
    };
    let dir = target
        .parent()
        .with_context(|| format!("{} has no folder", target.display()))?;
    std::fs::create_dir_all(dir).with_context(|| format!("making {}", dir.display()))?;
    let permissions = std::fs::metadata(&target).ok().map(|m| m.permissions());
    let backup = match before {
        Some(before) => Some(backup(file, before, permissions.clone())?),
        None => None,
    };
    let name = target
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("settings.json");
    let temporary = dir.join(format!(".{name}.warden-{}", std::process::id()));
    let written = (|| -> std::io::Result<()> {
        let mut out = std::fs::File::create(&temporary)?;
        // The old file's permissions before its text goes in (a 0600 file stays 0600).
        if let Some(permissions) = permissions {
            out.set_permissions(permissions)?;
        }
        out.write_all(after.as_bytes())?;
        out.sync_all()?;
        std::fs::rename(&temporary, &target)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(e).with_context(|| format!("writing {}", target.display()));
    }
    Ok(backup)
}

/// Keeps `text` as `FILE.warden-backup-<local time>` (a number after it when one exists
/// already), with the file's own permissions.
fn backup(file: &Path, text: &str, permissions: Option<std::fs::Permissions>) -> Result<PathBuf> {
    let stamp = chrono::Local::now().format("%Y%m%d-%H%M%S").to_string();
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("settings.json");
    for n in 0..100 {
        let suffix = if n == 0 {
            String::new()
        } else {
            format!("-{n}")
        };
        let path = file.with_file_name(format!("{name}.warden-backup-{stamp}{suffix}"));
        let mut out = match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(out) => out,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e).with_context(|| format!("writing {}", path.display())),
        };
        if let Some(permissions) = permissions {
            std::fs::set_permissions(&path, permissions)
                .with_context(|| format!("writing {}", path.display()))?;
        }
        out.write_all(text.as_bytes())
            .and_then(|()| out.sync_all())
            .with_context(|| format!("writing {}", path.display()))?;
        return Ok(path);
    }
    bail!("{}: too many backups made this second", file.display())
}

/// Makes warden's folders that don't exist yet (mode 0700), so the sandbox hides a folder
/// from its first command on; returns those it made.
fn made_folders(folders: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut made = Vec::new();
    for path in folders {
        if path.exists() {
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("making {}", parent.display()))?;
        }
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder
            .create(path)
            .with_context(|| format!("making {}", path.display()))?;
        made.push(path.clone());
    }
    Ok(made)
}

/// A note when this binary lives in a build folder (`cargo run`), which `cargo clean`
/// empties: the hooks would then run nothing.
fn build_folder(program: &str) -> Option<String> {
    let in_target = ["/target/debug/", "/target/release/"]
        .iter()
        .any(|part| program.contains(part));
    in_target.then(|| {
        format!(
            "the hooks run {program}, a build folder's binary: after `cargo clean` they run nothing. `cargo install --path actors` and run setup again from the installed warden to point them there"
        )
    })
}

/// What the sandbox needs on this machine. Linux: bubblewrap and socat, and a bubblewrap
/// that can make a sandbox here; macOS: Seatbelt, part of the system.
pub fn tools() -> Vec<Tool> {
    if cfg!(target_os = "macos") {
        return vec![Tool {
            what: "Seatbelt (sandbox-exec), part of macOS".into(),
            problem: None,
        }];
    }
    if !cfg!(target_os = "linux") {
        return vec![Tool {
            what: "Claude Code's sandbox on this system".into(),
            problem: Some("not checked by warden here (it checks Linux and macOS)".into()),
        }];
    }
    let install = "install it: `sudo apt-get install bubblewrap socat` (Debian, Ubuntu), `sudo dnf install bubblewrap socat` (Fedora), `sudo pacman -S bubblewrap socat` (Arch)";
    let bwrap = find("bwrap");
    let bwrap_problem = match &bwrap {
        None => Some(format!("bwrap is not on the PATH: {install}")),
        Some(bwrap) => works(bwrap).err().map(|why| {
            format!(
                "{} is there but can't make a sandbox here ({why}); where unprivileged user namespaces are turned off (Ubuntu 24.04's AppArmor, kernel.unprivileged_userns_clone=0), Claude Code's sandbox can't start either",
                bwrap.display()
            )
        }),
    };
    let socat_problem = find("socat")
        .is_none()
        .then(|| format!("socat is not on the PATH: {install}"));
    vec![
        Tool {
            what: "bubblewrap (bwrap)".into(),
            problem: bwrap_problem,
        },
        Tool {
            what: "socat".into(),
            problem: socat_problem,
        },
    ]
}

/// A program on the PATH.
fn find(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// Whether bubblewrap makes a sandbox with a network of its own here: `bwrap --ro-bind / /
/// --unshare-net true`, given 5 s.
fn works(bwrap: &Path) -> Result<(), String> {
    let mut child = std::process::Command::new(bwrap)
        .args([
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--unshare-net",
            "true",
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(()),
            Ok(Some(status)) => {
                let mut stderr = String::new();
                if let Some(mut pipe) = child.stderr.take() {
                    let _ = std::io::Read::read_to_string(&mut pipe, &mut stderr);
                }
                let why = stderr.lines().next().unwrap_or_default().trim().to_string();
                return Err(if why.is_empty() {
                    status.to_string()
                } else {
                    why
                });
            }
            Ok(None) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err("it did not finish within 5 s".into());
            }
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// `--check`: each requirement set or missing, the notes and the tools; exit 0 when all is
/// set and nothing stops the sandbox, 1 otherwise.
fn check(
    out: &mut impl std::io::Write,
    file: &Path,
    exists: bool,
    steps: &[Step],
    notes: &[(bool, String)],
    tools: &[Tool],
) -> Result<ExitCode> {
    writeln!(
        out,
        "{}{}",
        file.display(),
        if exists { "" } else { " (no such file yet)" }
    )?;
    let mut missing = 0;
    for step in steps {
        if step.changes.is_empty() {
            writeln!(out, "  set      {}", step.what)?;
        } else {
            missing += 1;
            writeln!(out, "  missing  {}", step.what)?;
        }
    }
    for (blocking, note) in notes {
        if *blocking {
            missing += 1;
            writeln!(out, "  problem  {note}")?;
        } else {
            writeln!(out, "  note     {note}")?;
        }
    }
    for tool in tools {
        match &tool.problem {
            None => writeln!(out, "  ok       {}", tool.what)?,
            Some(problem) => {
                missing += 1;
                writeln!(out, "  missing  {}: {problem}", tool.what)?;
            }
        }
    }
    if missing == 0 {
        writeln!(out, "All set.")?;
        Ok(ExitCode::SUCCESS)
    } else {
        writeln!(
            out,
            "{missing} missing: `warden setup claude-code` writes the settings; the tools are installed apart."
        )?;
        Ok(ExitCode::FAILURE)
    }
}

/// After writing (or not): the notes, and what the sandbox still needs on this machine.
fn report(
    out: &mut impl std::io::Write,
    notes: &[(bool, String)],
    tools: &[Tool],
    strict: bool,
) -> Result<()> {
    for (_, note) in notes {
        writeln!(out, "note: {note}")?;
    }
    let problems: Vec<&Tool> = tools.iter().filter(|t| t.problem.is_some()).collect();
    if problems.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "The settings are written, but Claude Code's sandbox can't run on this machine yet:"
    )?;
    for tool in problems {
        if let Some(problem) = &tool.problem {
            writeln!(out, "  {}: {problem}", tool.what)?;
        }
    }
    if strict {
        writeln!(
            out,
            "Until then Claude Code refuses to start (sandbox.failIfUnavailable is true)."
        )?;
    } else {
        writeln!(
            out,
            "Until then Claude Code warns and runs Bash without the sandbox (`--strict` makes it refuse to start instead)."
        )?;
    }
    Ok(())
}
