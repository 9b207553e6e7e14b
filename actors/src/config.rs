//! warden's configuration: one TOML file, every key documented in `docs/configuration.md`,
//! unknown keys refused by name.

use anyhow::{Context as _, Result, bail};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use warden::mode::Mode;
use warden::protocol::{AppEntry, Defaults};

/// The configuration file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// What Claude Code's `default` permission mode means here (default `auto`).
    #[serde(default)]
    pub default_mode: Option<String>,
    /// More paths refused to the agent's tools in every mode, besides warden's own.
    #[serde(default)]
    pub protected: Vec<String>,
    /// The app registry: each app's origin, sites and per-tool settings.
    #[serde(default)]
    pub apps: Vec<AppEntry>,
    /// Where `warden serve` listens (default [`LISTEN`]).
    #[serde(default)]
    pub listen: Option<String>,
    /// Lets `warden serve` listen on an address that isn't loopback: its judge routes are
    /// open to whoever reaches them.
    #[serde(default)]
    pub allow_remote: bool,
    /// warden's data folder (the event log, the person's token); `~/` is the home folder.
    #[serde(default)]
    pub data: Option<String>,
    /// Limits on what `warden serve` accepts.
    #[serde(default)]
    pub limits: Limits,
    /// The second look: a small model on this machine or the local network
    /// (`docs/second-look.md`). None: the rules' questions stand.
    #[serde(default)]
    pub second_look: Option<crate::second_look::LookConfig>,
    /// The event log (`[log]`).
    #[serde(default)]
    pub log: LogConfig,
    /// Several warden nodes over one JetStream (`[cluster]`, `docs/cluster.md`); only with
    /// `[log] engine = "jetstream"`. None: this node serves every chat.
    #[serde(default)]
    pub cluster: Option<ClusterConfig>,
}

/// `[cluster]`: this node among several over one JetStream stream.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterConfig {
    /// This node's id (default: a uuid made once and kept in the data folder's `node`):
    /// letters, digits, `-`, `_` and `.`, at most [`NODE_MAX`] bytes.
    #[serde(default)]
    pub node: Option<String>,
    /// The HTTP URL other nodes reach this one at, `http://HOST:PORT` (default: the address
    /// `warden serve` listens on, which must then be a specific one, not `0.0.0.0`).
    #[serde(default)]
    pub advertise: Option<String>,
    /// The membership's time to live, in ms (default 3,000, from 1,000 to 60,000): a node
    /// that stops heartbeating is out of every live set within about this long, and its chats
    /// are served by the others.
    #[serde(default)]
    pub ttl_ms: Option<u64>,
}

/// The longest node id.
pub const NODE_MAX: usize = 64;

/// The shortest and longest `[cluster] ttl_ms`.
pub const TTL_MS: std::ops::RangeInclusive<u64> = 1_000..=60_000;

impl ClusterConfig {
    /// What is wrong with it, if anything.
    fn problem(&self) -> Option<String> {
        if let Some(node) = &self.node
            && !is_node_id(node)
        {
            return Some(format!(
                "`cluster.node = \"{}\"` must be 1 to {NODE_MAX} letters, digits, `-`, `_` or `.`",
                node.escape_default()
            ));
        }
        if let Some(advertise) = &self.advertise
            && let Err(why) = advertised(advertise)
        {
            return Some(format!(
                "`cluster.advertise = \"{}\"` {why}",
                advertise.escape_default()
            ));
        }
        if let Some(ttl) = self.ttl_ms
            && !TTL_MS.contains(&ttl)
        {
            return Some(format!(
                "`cluster.ttl_ms = {ttl}` must be from {} to {}",
                TTL_MS.start(),
                TTL_MS.end()
            ));
        }
        None
    }
}

/// Whether `id` is a node id: 1 to [`NODE_MAX`] letters, digits, `-`, `_` or `.`.
pub fn is_node_id(id: &str) -> bool {
    (1..=NODE_MAX).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// An advertised URL, `http://HOST:PORT` with nothing after the port: the URL as it is, or
/// what is wrong with it.
pub fn advertised(url: &str) -> Result<String, String> {
    let Some(authority) = url.strip_prefix("http://") else {
        return Err("must start with `http://`".to_string());
    };
    let authority = authority.strip_suffix('/').unwrap_or(authority);
    let Some((host, port)) = authority.rsplit_once(':') else {
        return Err("must name a port (`http://HOST:PORT`)".to_string());
    };
    if host.is_empty()
        || host
            .bytes()
            .any(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'[' | b']' | b':')))
    {
        return Err("must name a host (`http://HOST:PORT`, nothing after the port)".to_string());
    }
    match port.parse::<u16>() {
        Ok(port) if port > 0 => Ok(format!("http://{authority}")),
        _ => Err(format!(
            "has no port 1 to 65535 (`{}`)",
            port.escape_default()
        )),
    }
}

/// The event log's settings (`[log]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogConfig {
    /// sled's cache, in MiB (default 8, [`warden_storage::CACHE_BYTES`]; sled's own
    /// default, 1 GiB, grows a long-running daemon's memory with its log).
    #[serde(default = "cache_mb")]
    pub cache_mb: u64,
    /// The engine: `sled` (the default, one machine, in the data folder) or `jetstream`
    /// (NATS JetStream, `docs/cluster.md`).
    #[serde(default)]
    pub engine: LogEngine,
    /// JetStream's server (default `nats://127.0.0.1:4222`).
    #[serde(default)]
    pub url: Option<String>,
    /// JetStream's stream (default `warden`): letters, digits, `-` and `_`.
    #[serde(default)]
    pub stream: Option<String>,
    /// How many JetStream servers keep each event (default 1; 3 for a cluster of three).
    #[serde(default)]
    pub replicas: Option<usize>,
}

/// `[log] engine`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogEngine {
    /// sled, in the data folder's `log/`.
    #[default]
    Sled,
    /// NATS JetStream.
    Jetstream,
}

/// The most `[log] replicas` may be: JetStream's own limit.
pub const REPLICAS_MAX: usize = 5;

impl LogConfig {
    /// The engine the log opens on, with its settings.
    pub fn engine(&self) -> warden_storage::Engine {
        match self.engine {
            LogEngine::Sled => warden_storage::Engine::Sled,
            LogEngine::Jetstream => {
                let default = warden_storage::jetstream::Settings::default();
                warden_storage::Engine::JetStream(warden_storage::jetstream::Settings {
                    url: self.url.clone().unwrap_or(default.url),
                    stream: self.stream.clone().unwrap_or(default.stream),
                    replicas: self.replicas.unwrap_or(default.replicas),
                })
            }
        }
    }

    /// What is wrong with the JetStream keys, if anything.
    fn problem(&self) -> Option<String> {
        if self.engine == LogEngine::Sled {
            let given: Vec<&str> = [
                ("url", self.url.is_some()),
                ("stream", self.stream.is_some()),
                ("replicas", self.replicas.is_some()),
            ]
            .into_iter()
            .filter_map(|(key, given)| given.then_some(key))
            .collect();
            return (!given.is_empty()).then(|| {
                format!(
                    "`log.{}` is JetStream's: set `log.engine = \"jetstream\"` too, or remove it",
                    given.join("`, `log.")
                )
            });
        }
        if let Some(url) = &self.url
            && let Err(why) = warden_storage::jetstream::servers(url)
        {
            return Some(format!("`log.url = \"{url}\"`: {why}"));
        }
        if let Some(stream) = &self.stream
            && !warden_storage::jetstream::Settings::is_stream_name(stream)
        {
            return Some(format!(
                "`log.stream = \"{stream}\"` must be letters, digits, `-` and `_`"
            ));
        }
        if let Some(replicas) = self.replicas
            && !(1..=REPLICAS_MAX).contains(&replicas)
        {
            return Some(format!(
                "`log.replicas = {replicas}` must be from 1 to {REPLICAS_MAX}"
            ));
        }
        None
    }
}

/// The most `[log] cache_mb` may be: 64 GiB.
pub const CACHE_MB_MAX: u64 = 64 << 10;

fn cache_mb() -> u64 {
    warden_storage::CACHE_BYTES >> 20
}

impl Default for LogConfig {
    fn default() -> LogConfig {
        LogConfig {
            cache_mb: cache_mb(),
            engine: LogEngine::Sled,
            url: None,
            stream: None,
            replicas: None,
        }
    }
}

/// Where `warden serve` listens unless told otherwise: loopback only.
pub const LISTEN: &str = "127.0.0.1:7411";

/// The largest request body `warden serve` reads unless configured: 1 MiB.
pub const BODY_BYTES: usize = 1 << 20;

/// How long a connection has to send a request's line and headers unless configured, counted
/// from when it connects or from its last answer (so also how long an idle kept-alive
/// connection stays open): 5 s. A hook on loopback sends its request in microseconds; a
/// client that sends nothing, or half a request, is closed after this.
pub const HEADER_TIMEOUT_MS: u64 = 5_000;

/// How long a request's body may take to arrive unless configured, from its headers: 5 s
/// (1 MiB on loopback takes milliseconds). Past it the request is answered 408 and closed.
/// An answer the client doesn't take for as long closes its connection too.
pub const BODY_TIMEOUT_MS: u64 = 5_000;

/// How many connections `warden serve` holds at once unless configured: 256 (a hook holds one
/// per step in flight). Past it a new connection is answered 503 and closed at once.
pub const CONNECTIONS: usize = 256;

/// The longest timeout the configuration may set: 10 minutes.
pub const TIMEOUT_MAX_MS: u64 = 600_000;

/// How long a chat with no message stays in memory by default, in ms: ten minutes.
pub const CHAT_IDLE_MS: u64 = 600_000;

/// The shortest and the longest a chat may stay in memory without a message, in ms: a second,
/// a day.
pub const CHAT_IDLE_RANGE_MS: std::ops::RangeInclusive<u64> = 1_000..=86_400_000;

/// Limits on what `warden serve` accepts (`[limits]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// The largest request body, in bytes; a larger one is refused with 413.
    #[serde(default = "body_bytes")]
    pub body_bytes: usize,
    /// How long a connection has to send a request's head ([`HEADER_TIMEOUT_MS`]), in ms.
    #[serde(default = "header_timeout_ms")]
    pub header_timeout_ms: u64,
    /// How long a request's body may take to arrive ([`BODY_TIMEOUT_MS`]), in ms.
    #[serde(default = "body_timeout_ms")]
    pub body_timeout_ms: u64,
    /// How many connections are held at once ([`CONNECTIONS`]).
    #[serde(default = "connections")]
    pub connections: usize,
    /// How long a chat with no message stays in memory ([`CHAT_IDLE_MS`]), in ms; then it
    /// leaves, and its log brings it back at its next message.
    #[serde(default = "chat_idle_ms")]
    pub chat_idle_ms: u64,
    /// The behaviour watch's thresholds the person sets, by rule (`watch.recipients = 50`);
    /// the others keep LIMITS' numbers (`docs/configuration.md`).
    #[serde(default)]
    pub watch: std::collections::BTreeMap<String, u32>,
}

fn body_bytes() -> usize {
    BODY_BYTES
}

fn header_timeout_ms() -> u64 {
    HEADER_TIMEOUT_MS
}

fn body_timeout_ms() -> u64 {
    BODY_TIMEOUT_MS
}

fn connections() -> usize {
    CONNECTIONS
}

fn chat_idle_ms() -> u64 {
    CHAT_IDLE_MS
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            body_bytes: BODY_BYTES,
            header_timeout_ms: HEADER_TIMEOUT_MS,
            body_timeout_ms: BODY_TIMEOUT_MS,
            connections: CONNECTIONS,
            chat_idle_ms: CHAT_IDLE_MS,
            watch: std::collections::BTreeMap::new(),
        }
    }
}

/// A path from the configuration: `~/` is the home folder.
fn expand(path: &str, home: &str) -> PathBuf {
    match path.strip_prefix("~/") {
        Some(rest) => Path::new(home).join(rest),
        None => PathBuf::from(path),
    }
}

/// Where warden keeps its settings (the configuration and, later, the person's token).
pub fn settings_dir(home: &str) -> PathBuf {
    match std::env::var_os("XDG_CONFIG_HOME") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir).join("warden"),
        _ => Path::new(home).join(".config/warden"),
    }
}

/// Where warden keeps its data (the event log, the task ledger).
pub fn data_dir(home: &str) -> PathBuf {
    match std::env::var_os("WARDEN_DATA") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(home).join(".local/share/warden"),
    }
}

impl Config {
    /// Reads the configuration: `path` if given (it must exist), else `$WARDEN_CONFIG`, else
    /// `config.toml` in the settings folder if there is one, else the defaults.
    pub fn load(path: Option<&Path>, home: &str) -> Result<Config> {
        let (path, required) = match path {
            Some(path) => (path.to_path_buf(), true),
            None => match std::env::var_os("WARDEN_CONFIG") {
                Some(path) if !path.is_empty() => (PathBuf::from(path), true),
                _ => (settings_dir(home).join("config.toml"), false),
            },
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Config::default());
            }
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("reading the configuration {}", path.display()));
            }
        };
        let config: Config = toml::from_str(&text).map_err(|e| {
            anyhow::anyhow!("the configuration {} is not valid: {e}", path.display())
        })?;
        if let Some(mode) = &config.default_mode
            && Mode::parse(mode).is_err()
        {
            bail!(
                "the configuration {}: `default_mode = \"{mode}\"` is not a mode (ask_first, edit_freely, plan_only, auto, full_trust)",
                path.display()
            );
        }
        if let Some(listen) = &config.listen
            && listen.parse::<std::net::SocketAddr>().is_err()
        {
            bail!(
                "the configuration {}: `listen = \"{listen}\"` is not an address and port (like \"{LISTEN}\")",
                path.display()
            );
        }
        if config.limits.body_bytes == 0 {
            bail!(
                "the configuration {}: `limits.body_bytes` must be more than 0",
                path.display()
            );
        }
        for (key, ms) in [
            ("header_timeout_ms", config.limits.header_timeout_ms),
            ("body_timeout_ms", config.limits.body_timeout_ms),
        ] {
            if ms == 0 || ms > TIMEOUT_MAX_MS {
                bail!(
                    "the configuration {}: `limits.{key} = {ms}` must be from 1 to {TIMEOUT_MAX_MS} (10 minutes)",
                    path.display()
                );
            }
        }
        if config.limits.connections == 0 {
            bail!(
                "the configuration {}: `limits.connections` must be more than 0",
                path.display()
            );
        }
        if !CHAT_IDLE_RANGE_MS.contains(&config.limits.chat_idle_ms) {
            bail!(
                "the configuration {}: `limits.chat_idle_ms = {}` must be from {} (a second) to {} (a day)",
                path.display(),
                config.limits.chat_idle_ms,
                CHAT_IDLE_RANGE_MS.start(),
                CHAT_IDLE_RANGE_MS.end()
            );
        }
        if !(1..=CACHE_MB_MAX).contains(&config.log.cache_mb) {
            bail!(
                "the configuration {}: `log.cache_mb = {}` must be from 1 to {CACHE_MB_MAX}",
                path.display(),
                config.log.cache_mb
            );
        }
        if let Some(problem) = config.log.problem() {
            bail!("the configuration {}: {problem}", path.display());
        }
        if let Some(cluster) = &config.cluster {
            if config.log.engine != LogEngine::Jetstream {
                bail!(
                    "the configuration {}: `[cluster]` needs `log.engine = \"jetstream\"`: the nodes share the log on one JetStream stream",
                    path.display()
                );
            }
            if let Some(problem) = cluster.problem() {
                bail!("the configuration {}: {problem}", path.display());
            }
        }
        if let Err(e) = warden::watch::thresholds(&config.limits.watch) {
            bail!("the configuration {}: [limits.watch] {e}", path.display());
        }
        Ok(config)
    }

    /// The data folder: `data` from the configuration, else `$WARDEN_DATA`, else
    /// `~/.local/share/warden`.
    pub fn data_dir(&self, home: &str) -> PathBuf {
        match &self.data {
            Some(data) => expand(data, home),
            None => data_dir(home),
        }
    }

    /// The defaults the law gets: the work folder, the protected paths (warden's own folders
    /// always among them), the app registry, and the port `listen` names.
    pub fn defaults(&self, cwd: String, home: &str) -> Defaults {
        let mut protected: Vec<String> = vec![
            settings_dir(home).display().to_string(),
            data_dir(home).display().to_string(),
        ];
        let data = self.data.iter();
        for path in self.protected.iter().chain(data) {
            let path = expand(path, home).display().to_string();
            let path = path.trim_end_matches('/').to_string();
            if !protected.contains(&path) {
                protected.push(path);
            }
        }
        let default_mode = self
            .default_mode
            .as_deref()
            .and_then(|m| Mode::parse(m).ok())
            .unwrap_or(Mode::Auto);
        Defaults {
            cwd,
            default_mode,
            protected,
            apps: self.apps.clone(),
            // `warden judge` knows the configured port too; `warden serve` puts the port it
            // really listens on in its place.
            listen_port: self
                .listen
                .as_deref()
                .and_then(|listen| listen.parse::<std::net::SocketAddr>().ok())
                .map(|addr| addr.port())
                .filter(|port| *port != 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_second_look_is_one_table_and_its_bad_keys_are_named() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("config.toml");
        std::fs::write(
            &path,
            "[second_look]\nurl = \"http://127.0.0.1:8080\"\nmodel = \"tiny\"\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let config = Config::load(Some(&path), "/home/u").unwrap_or_else(|e| panic!("{e:#}"));
        let look = config
            .second_look
            .unwrap_or_else(|| panic!("the table is read"));
        assert_eq!((look.model.as_str(), look.timeout_ms), ("tiny", 3000));
        std::fs::write(
            &path,
            "[second_look]\nurl = \"http://127.0.0.1:8080\"\nmodle = \"tiny\"\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let error = Config::load(Some(&path), "/home/u")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("modle"), "{error}");
    }

    #[test]
    fn the_log_s_engine_is_sled_unless_jetstream_is_named() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("config.toml");
        let engine = |text: &str| {
            std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
            Config::load(Some(&path), "/home/u")
                .unwrap_or_else(|e| panic!("{text}: {e:#}"))
                .log
                .engine()
        };
        assert_eq!(engine(""), warden_storage::Engine::Sled);
        assert_eq!(
            engine("[log]\ncache_mb = 8\n"),
            warden_storage::Engine::Sled
        );
        assert_eq!(
            engine("[log]\nengine = \"jetstream\"\n"),
            warden_storage::Engine::JetStream(warden_storage::jetstream::Settings::default())
        );
        assert_eq!(
            engine(
                "[log]\nengine = \"jetstream\"\nurl = \"nats://10.0.0.2:4222\"\nstream = \"team-a\"\nreplicas = 3\n"
            ),
            warden_storage::Engine::JetStream(warden_storage::jetstream::Settings {
                url: "nats://10.0.0.2:4222".into(),
                stream: "team-a".into(),
                replicas: 3,
            })
        );
        // Several servers of one cluster, with blanks after the commas.
        assert_eq!(
            engine(
                "[log]\nengine = \"jetstream\"\nurl = \"nats://10.0.0.2:4222, nats://10.0.0.3:4222\"\n"
            ),
            warden_storage::Engine::JetStream(warden_storage::jetstream::Settings {
                url: "nats://10.0.0.2:4222, nats://10.0.0.3:4222".into(),
                ..warden_storage::jetstream::Settings::default()
            })
        );
    }

    #[test]
    fn the_watch_s_thresholds_are_read_and_checked() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "[limits.watch]\n\"watch.recipients\" = 10\n")
            .unwrap_or_else(|e| panic!("{e}"));
        let config = Config::load(Some(&path), "/home/u").unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(config.limits.watch.get("watch.recipients"), Some(&10));
        for (text, names) in [
            (
                "[limits.watch]\n\"watch.recipient\" = 10\n",
                "watch.recipient",
            ),
            (
                "[limits.watch]\n\"watch.stop_recipients\" = 5000\n",
                "never later",
            ),
        ] {
            std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
            let error = Config::load(Some(&path), "/home/u")
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(error.contains(names), "{error}");
        }
    }

    #[test]
    fn a_bad_key_is_named() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "protectd = [\"/x\"]\n").unwrap_or_else(|e| panic!("{e}"));
        let error = Config::load(Some(&path), "/home/u")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("protectd"), "{error}");
        std::fs::write(&path, "default_mode = \"yolo\"\n").unwrap_or_else(|e| panic!("{e}"));
        let error = Config::load(Some(&path), "/home/u")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("yolo"), "{error}");
    }

    #[test]
    fn the_serve_keys_are_read_and_a_bad_one_is_named() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("config.toml");
        let load = |text: &str| {
            std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
            Config::load(Some(&path), "/home/u")
        };
        let config = load("").unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(config.limits.body_bytes, 1 << 20);
        assert_eq!(
            (
                config.limits.header_timeout_ms,
                config.limits.body_timeout_ms,
                config.limits.connections
            ),
            (5_000, 5_000, 256),
            "a slow client is held for seconds, not minutes"
        );
        assert!(!config.allow_remote);
        let config = load(
            "listen = \"127.0.0.1:9000\"\nallow_remote = true\ndata = \"~/d\"\n[limits]\nbody_bytes = 4096\nheader_timeout_ms = 700\nbody_timeout_ms = 800\nconnections = 9\n",
        )
        .unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(config.listen.as_deref(), Some("127.0.0.1:9000"));
        assert_eq!(
            config.defaults("/w".into(), "/home/u").listen_port,
            Some(9000),
            "the law knows the configured port (`warden.itself`)"
        );
        assert!(config.allow_remote);
        assert_eq!(config.limits.body_bytes, 4096);
        assert_eq!(
            (
                config.limits.header_timeout_ms,
                config.limits.body_timeout_ms,
                config.limits.connections
            ),
            (700, 800, 9)
        );
        assert_eq!(config.data_dir("/home/u"), PathBuf::from("/home/u/d"));
        assert!(
            config
                .defaults("/w".into(), "/home/u")
                .protected
                .contains(&"/home/u/d".to_string()),
            "a configured data folder is protected"
        );
        for (text, named) in [
            ("[limits]\nbody_byte = 1\n", "body_byte"),
            ("[limits]\nbody_bytes = 0\n", "limits.body_bytes"),
            (
                "[limits]\nheader_timeout_ms = 0\n",
                "limits.header_timeout_ms",
            ),
            (
                "[limits]\nbody_timeout_ms = 600001\n",
                "limits.body_timeout_ms",
            ),
            ("[limits]\nconnections = 0\n", "limits.connections"),
            (
                "[limits]\nchat_idle_ms = 999\n",
                "limits.chat_idle_ms = 999",
            ),
            (
                "[limits]\nchat_idle_ms = 86400001\n",
                "limits.chat_idle_ms = 86400001",
            ),
            ("[limits]\nidle_timeout_ms = 5\n", "idle_timeout_ms"),
            ("[log]\ncache_mb = 0\n", "log.cache_mb = 0"),
            ("[log]\ncache = 8\n", "unknown field `cache`"),
            ("[log]\nengine = \"kafka\"\n", "unknown variant `kafka`"),
            (
                "[log]\nurl = \"nats://h:4222\"\n",
                "`log.url` is JetStream's",
            ),
            (
                "[log]\nengine = \"jetstream\"\nurl = \"http://h\"\n",
                "must start with `nats://`",
            ),
            (
                "[log]\nengine = \"jetstream\"\nurl = \"nats://a:4222,http://b\"\n",
                "`http://b` must start with `nats://`",
            ),
            (
                "[log]\nengine = \"jetstream\"\nurl = \"nats://a:4222,\"\n",
                "`` must start with `nats://`",
            ),
            (
                "[log]\nengine = \"jetstream\"\nstream = \"a.b\"\n",
                "`log.stream = \"a.b\"`",
            ),
            (
                "[log]\nengine = \"jetstream\"\nreplicas = 0\n",
                "`log.replicas = 0`",
            ),
            ("listen = \"nowhere\"\n", "nowhere"),
            ("second_look = true\n", "second_look"),
        ] {
            let error = load(text).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(error.contains(named), "{text}: {error}");
        }
    }

    #[test]
    fn the_cluster_is_read_only_on_jetstream_and_a_bad_value_is_named() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("config.toml");
        let load = |text: &str| {
            std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
            Config::load(Some(&path), "/home/u")
        };
        let js = "[log]\nengine = \"jetstream\"\n";
        let config = load(&format!(
            "{js}[cluster]\nnode = \"n-1.a_b\"\nadvertise = \"http://10.0.0.2:7411\"\nttl_ms = 5000\n"
        ))
        .unwrap_or_else(|e| panic!("{e:#}"));
        let cluster = config
            .cluster
            .unwrap_or_else(|| panic!("the table is read"));
        assert_eq!(
            (
                cluster.node.as_deref(),
                cluster.advertise.as_deref(),
                cluster.ttl_ms
            ),
            (Some("n-1.a_b"), Some("http://10.0.0.2:7411"), Some(5000))
        );
        let config = load(&format!("{js}[cluster]\n")).unwrap_or_else(|e| panic!("{e:#}"));
        assert!(config.cluster.is_some(), "every key has a default");
        assert!(
            load(js)
                .unwrap_or_else(|e| panic!("{e:#}"))
                .cluster
                .is_none()
        );
        for (text, named) in [
            ("[cluster]\n".to_string(), "`[cluster]` needs `log.engine"),
            (
                format!("{js}[cluster]\nnode = \"\"\n"),
                "`cluster.node = \"\"`",
            ),
            (
                format!("{js}[cluster]\nnode = \"a b\"\n"),
                "`cluster.node = \"a b\"`",
            ),
            (
                format!("{js}[cluster]\nnode = \"{}\"\n", "n".repeat(65)),
                "must be 1 to 64",
            ),
            (
                format!("{js}[cluster]\nadvertise = \"https://h:1\"\n"),
                "must start with `http://`",
            ),
            (
                format!("{js}[cluster]\nadvertise = \"http://h\"\n"),
                "must name a port",
            ),
            (
                format!("{js}[cluster]\nadvertise = \"http://h:0\"\n"),
                "has no port",
            ),
            (
                format!("{js}[cluster]\nadvertise = \"http://h:80/x\"\n"),
                "has no port",
            ),
            (
                format!("{js}[cluster]\nttl_ms = 999\n"),
                "`cluster.ttl_ms = 999` must be from 1000 to 60000",
            ),
            (format!("{js}[cluster]\nttl = 3\n"), "unknown field `ttl`"),
        ] {
            let error = load(&text).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(error.contains(named), "{text}: {error}");
        }
    }

    #[test]
    fn warden_s_own_folders_are_always_protected() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("config.toml");
        std::fs::write(
            &path,
            "protected = [\"~/secrets\"]\n[[apps]]\nname = \"Yazio\"\norigin = \"own\"\nsites = [\"yazio.com\"]\n[apps.tools]\nadd_food = \"allow\"\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let config = Config::load(Some(&path), "/home/u").unwrap_or_else(|e| panic!("{e}"));
        let defaults = config.defaults("/w".into(), "/home/u");
        assert!(
            defaults.protected.iter().any(|p| p.ends_with("warden")),
            "{:?}",
            defaults.protected
        );
        assert!(
            defaults.protected.contains(&"/home/u/secrets".to_string()),
            "{:?}",
            defaults.protected
        );
        assert_eq!(defaults.apps.len(), 1);
        let missing = Config::load(Some(&dir.path().join("nope.toml")), "/home/u");
        assert!(
            missing.is_err(),
            "an explicit configuration that doesn't exist is an error"
        );
    }
}
