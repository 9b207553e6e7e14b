//! `warden page`: a one-time sign-in link to the person's page, asked of the running daemon
//! with the person's token, printed, and opened in a browser where there is one. The link
//! works once, for two minutes; the page then holds its own session, and the token never
//! goes near the browser (`docs/threat-model.md`, "The page").

use anyhow::{Context as _, Result, bail};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;
use warden_actors::config::{Config, data_dir};

/// Where the daemon listens when neither `--url`, `WARDEN_URL` nor the configuration says.
const DEFAULT_URL: &str = "http://127.0.0.1:7411";

/// `warden page`'s flags.
#[derive(Debug, clap::Args)]
pub struct PageArgs {
    /// The daemon's address (default: $WARDEN_URL, else `listen` in the configuration, else
    /// http://127.0.0.1:7411).
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// warden's data folder, where the person's token is (default: `data` in the
    /// configuration, else $WARDEN_DATA, else ~/.local/share/warden).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// The configuration file (default: $WARDEN_CONFIG, else config.toml in warden's settings
    /// folder if there is one).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Print the link only; don't open a browser.
    #[arg(long)]
    pub no_open: bool,
}

/// Asks for the link, prints it, and opens it unless told not to (or no browser is there).
pub fn main(args: PageArgs) -> Result<std::process::ExitCode> {
    let home = std::env::var("HOME").unwrap_or_else(|_| "/".to_string());
    let config = Config::load(args.config.as_deref(), &home)?;
    let url = args
        .url
        .or_else(|| std::env::var("WARDEN_URL").ok().filter(|u| !u.is_empty()))
        .or_else(|| config.listen.as_ref().map(|l| format!("http://{l}")))
        .unwrap_or_else(|| DEFAULT_URL.to_string());
    let url = url.trim_end_matches('/').to_string();
    if !url.starts_with("http://") {
        bail!("`{url}` is not warden's http:// address on this machine");
    }
    let data = match args.data {
        Some(data) => data,
        None if std::env::var_os("WARDEN_DATA").is_some_and(|d| !d.is_empty()) => data_dir(&home),
        None => config.data_dir(&home),
    };
    let token_path = data.join("token");
    let token = std::fs::read_to_string(&token_path)
        .with_context(|| {
            format!(
                "reading the person's token in {} (`warden serve` makes it when it first starts)",
                token_path.display()
            )
        })?
        .trim()
        .to_string();
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(10)))
        .build()
        .new_agent();
    let mut response = agent
        .post(&format!("{url}/v1/page/links"))
        .header("Authorization", &format!("Bearer {token}"))
        .send_empty()
        .with_context(|| {
            format!("asking warden at {url} for a sign-in link (is `warden serve` running?)")
        })?;
    let status = response.status().as_u16();
    let text = response
        .body_mut()
        .read_to_string()
        .with_context(|| format!("reading warden's answer ({status})"))?;
    let body: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("warden's answer ({status}) is not JSON: {text}"))?;
    let Some(link) = body
        .get("link")
        .and_then(|l| l.as_str())
        .filter(|_| status == 200)
    else {
        let why = body
            .get("error")
            .and_then(|e| e.as_str())
            .unwrap_or("no reason given");
        bail!("warden at {url} gave no sign-in link ({status}): {why}");
    };
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{link}")?;
        writeln!(
            out,
            "Open it in your browser to sign in to warden's page: it works once, for {} s.",
            body.get("expires_in_s")
                .and_then(|s| s.as_u64())
                .unwrap_or(120)
        )?;
        out.flush()?;
    }
    if !args.no_open {
        open(link);
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// Opens the link in the person's browser, where a desktop is there to show one; says
/// nothing when there is none (the printed link is enough).
fn open(link: &str) {
    let opener = if cfg!(target_os = "macos") {
        Some("open")
    } else if std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some()
    {
        Some("xdg-open")
    } else {
        None
    };
    if let Some(opener) = opener {
        let _ = Command::new(opener)
            .arg(link)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
    }
}
