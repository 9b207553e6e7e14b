//! `warden serve`: the runtime on the network. An HTTP/JSON daemon on loopback that judges an
//! agent's steps in their chat's state, records the chat's events, and takes the person's
//! answers and settings (those with the person's token). Routes in [`routes`], documented
//! in `docs/protocol.md` ("HTTP API").
//!
//! ```text
//!   hook / person ──HTTP──▶ axum router ──▶ Runtime (chats, judge, log actors) ──▶ sled
//!                             │ token check, body limit, loopback guard
//!                             └ metrics
//! ```
//!
//! Connections are served by hyper directly (`hold`), not `axum::serve`, for what a hostile
//! client must not get: a head read in time, a body read in time, and a cap on connections.

pub mod cluster;
pub mod events;
pub mod hold;
pub mod lineage;
pub mod metrics;
pub mod page;
pub mod routes;
pub mod settings;
pub mod token;

use crate::config::{Config, LISTEN};
use crate::facts::HostFacts;
use crate::runtime::{Options, Runtime};
use crate::second_look::{CALIBRATE_EVERY, SecondLook};
use anyhow::{Context as _, Result, anyhow, bail};
use metrics::Metrics;
use std::io::Write as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use token::Token;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use warden::facts::Facts;
use warden::protocol::Defaults;

/// How long stopping waits for requests in flight before it stops the runtime anyway.
pub const STOP_GRACE: Duration = Duration::from_secs(15);

/// `warden serve`'s flags.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The data folder: the event log (DATA/log) and the person's token (DATA/token).
    /// Default: `data` in the configuration, else $WARDEN_DATA, else ~/.local/share/warden.
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// The address to listen on (default: `listen` in the configuration, else
    /// 127.0.0.1:7411; port 0 picks a free one). Loopback only, unless the configuration says
    /// `allow_remote = true`.
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<String>,
    /// The configuration file (default: $WARDEN_CONFIG, else config.toml in warden's
    /// settings folder if there is one).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// Everything a server starts from, resolved.
pub struct Settings {
    /// Where to listen.
    pub listen: SocketAddr,
    /// Listening on an address that isn't loopback is allowed.
    pub allow_remote: bool,
    /// The data folder (absolute).
    pub data: PathBuf,
    /// What a request leaves out, and the protected paths (the data folder among them).
    pub defaults: Defaults,
    /// The largest request body, in bytes.
    pub body_bytes: usize,
    /// How long a connection may hold the server: its head, its body, how many at once.
    pub hold: hold::Hold,
    /// The facts the law reads; `None`: this machine's (git, manifests), asked again at each
    /// judge request.
    pub facts: Option<Arc<dyn Facts + Send + Sync>>,
    /// How long a chat stays in memory without a message.
    pub idle: Duration,
    /// The second look, when the configuration has one.
    pub look: Option<SecondLook>,
    /// The person's thresholds for the behaviour watch (`[limits.watch]`).
    pub thresholds: warden::watch::Thresholds,
    /// sled's cache, in bytes (`[log] cache_mb`).
    pub log_cache_bytes: u64,
    /// The log's engine (`[log] engine`).
    pub log_engine: warden_storage::Engine,
    /// This node among several (`[cluster]`), when the configuration has one.
    pub cluster: Option<crate::config::ClusterConfig>,
}

/// An address to listen on: `IP:PORT`, or `localhost:PORT`.
fn address(raw: &str) -> Result<SocketAddr> {
    if let Ok(addr) = raw.parse() {
        return Ok(addr);
    }
    match raw
        .rsplit_once(':')
        .filter(|(host, _)| host.eq_ignore_ascii_case("localhost"))
        .and_then(|(_, port)| port.parse::<u16>().ok())
    {
        Some(port) => Ok(SocketAddr::from(([127, 0, 0, 1], port))),
        None => bail!("`{raw}` is not an address and port to listen on (like {LISTEN})"),
    }
}

impl Settings {
    /// The settings from the configuration and the command line's `--listen` and `--data`
    /// (which win), for a person whose home folder is `home`.
    pub fn new(
        config: &Config,
        listen: Option<&str>,
        data: Option<&Path>,
        home: &str,
    ) -> Result<Settings> {
        let listen = address(listen.or(config.listen.as_deref()).unwrap_or(LISTEN))?;
        let data = match data {
            Some(data) => data.to_path_buf(),
            None => config.data_dir(home),
        };
        let data = std::path::absolute(&data)
            .with_context(|| format!("the data folder {}", data.display()))?;
        let cwd = std::env::current_dir()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| "/".to_string());
        let mut defaults = config.defaults(cwd, home);
        defaults.listen_port = Some(listen.port()).filter(|port| *port != 0);
        protect(&mut defaults, &data);
        let look = match &config.second_look {
            Some(look) => Some(
                SecondLook::new(look)
                    .map_err(|e| anyhow!("the configuration's [second_look]: {e}"))?,
            ),
            None => None,
        };
        Ok(Settings {
            listen,
            allow_remote: config.allow_remote,
            data,
            defaults,
            body_bytes: config.limits.body_bytes,
            hold: hold::Hold::new(&config.limits),
            facts: None,
            idle: Duration::from_millis(config.limits.chat_idle_ms),
            look,
            thresholds: config.limits.watch.clone(),
            log_cache_bytes: config.log.cache_mb << 20,
            log_engine: config.log.engine(),
            cluster: config.cluster.clone(),
        })
    }
}

/// Adds the data folder to the protected paths, as given and as the file system resolves it.
fn protect(defaults: &mut Defaults, data: &Path) {
    let mut paths = vec![data.display().to_string()];
    if let Ok(real) = data.canonicalize() {
        paths.push(real.display().to_string());
    }
    for path in paths {
        let path = path.trim_end_matches('/').to_string();
        if !path.is_empty() && !defaults.protected.contains(&path) {
            defaults.protected.push(path);
        }
    }
}

/// What every route shares.
pub struct App {
    runtime: Runtime,
    token: Token,
    defaults: Defaults,
    metrics: Metrics,
    /// This machine's facts, when the server reads them: each judge request is a new turn.
    host_facts: Option<Arc<HostFacts>>,
    /// The second look, when one is configured: its standing for `/healthz`, its figures for
    /// `/metrics`.
    look: Option<SecondLook>,
    /// The page's sign-in links and sessions.
    page: page::Page,
    /// The event streams held at once (`GET /v1/events`).
    streams: Arc<tokio::sync::Semaphore>,
    /// True once the server stops: the event streams end, so stopping doesn't wait on them.
    closing: tokio::sync::watch::Sender<bool>,
    /// This node in the cluster, when there is one: placement, forwarding, standing.
    node: Option<Arc<cluster::Node>>,
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    data: PathBuf,
    /// What the routes share: stopping tells the event streams to end.
    app: Arc<App>,
    runtime: Runtime,
    stop: Option<oneshot::Sender<()>>,
    /// The second look's calibration, at the start and every [`CALIBRATE_EVERY`].
    calibrating: Option<tokio::task::JoinHandle<()>>,
    serving: JoinHandle<std::io::Result<()>>,
}

/// Starts a server: makes the person's token if there is none, listens, and opens the log in
/// `DATA/log` with the law told the port it listens on (the one picked, for port 0). Refuses
/// an address that isn't loopback unless `allow_remote`.
pub async fn start(settings: Settings) -> Result<Server> {
    if !settings.listen.ip().is_loopback() && !settings.allow_remote {
        bail!(
            "refusing to listen on {}: it isn't a loopback address, and the judge routes are open to whoever reaches them; set `allow_remote = true` in the configuration to do it anyway",
            settings.listen
        );
    }
    create_private_dir(&settings.data)?;
    let token = Token::load_or_create(&settings.data)?;
    let (facts, host_facts): (Arc<dyn Facts + Send + Sync>, _) = match settings.facts {
        Some(facts) => (facts, None),
        None => {
            let host = Arc::new(HostFacts::new());
            (Arc::clone(&host) as _, Some(host))
        }
    };
    // Bound before the runtime opens: the law must know the port really listened on (port 0
    // picks one), or `warden.itself` would not see a step that names it.
    let listener = tokio::net::TcpListener::bind(settings.listen)
        .await
        .map_err(|e| anyhow!("listening on {}: {e}", settings.listen))?;
    let addr = listener
        .local_addr()
        .context("reading the address listened on")?;
    let mut defaults = settings.defaults;
    protect(&mut defaults, &settings.data);
    // INVARIANT: the law's `listen_port` is the port this server listens on.
    defaults.listen_port = Some(addr.port());
    let clustered = match &settings.cluster {
        Some(config) => {
            let warden_storage::Engine::JetStream(js) = &settings.log_engine else {
                bail!(
                    "`[cluster]` needs `log.engine = \"jetstream\"`: the nodes share the log on one JetStream stream"
                );
            };
            let node = cluster::node_id(config, &settings.data)?;
            let advertise = match &config.advertise {
                Some(advertise) => crate::config::advertised(advertise)
                    .map_err(|why| anyhow!("`cluster.advertise = \"{advertise}\"` {why}"))?,
                None if addr.ip().is_unspecified() => bail!(
                    "`[cluster]`: listening on {addr}, this node can't say where the others reach it: set `cluster.advertise = \"http://HOST:{}\"`",
                    addr.port()
                ),
                None => format!("http://{addr}"),
            };
            Some((
                config.clone(),
                js.clone(),
                node,
                advertise,
                cluster::Gatekeeper::default(),
            ))
        }
        None => None,
    };
    let runtime = Runtime::open(
        &settings.data.join("log"),
        facts,
        Options {
            protected: defaults.protected.clone(),
            idle: settings.idle,
            active: Options::default().active,
            look: settings.look.clone(),
            listen_port: defaults.listen_port,
            thresholds: settings.thresholds,
            log_cache_bytes: settings.log_cache_bytes,
            log_engine: settings.log_engine.clone(),
            gate: clustered.as_ref().map(|(.., gatekeeper)| gatekeeper.gate()),
            log_node: clustered.as_ref().map(|(_, _, node, ..)| node.clone()),
            fenced: clustered
                .as_ref()
                .map(|(.., gatekeeper)| gatekeeper.fenced()),
            ..Options::default()
        },
    )
    .await?;
    let node = match clustered {
        Some((config, js, node, advertise, gatekeeper)) => {
            let node = match cluster::Node::join(&js, &config, node, advertise, &gatekeeper).await {
                Ok(node) => node,
                Err(e) => {
                    let _ = runtime.shutdown().await;
                    return Err(e);
                }
            };
            node.watch(&runtime)?;
            Some(node)
        }
        None => None,
    };
    let app = Arc::new(App {
        runtime: runtime.clone(),
        token,
        defaults,
        metrics: Metrics::default(),
        host_facts,
        look: settings.look.clone(),
        page: page::Page::new(settings.allow_remote),
        streams: Arc::new(tokio::sync::Semaphore::new(events::STREAMS_MAX)),
        closing: tokio::sync::watch::channel(false).0,
        node,
    });
    // The model is calibrated before it judges anything: until then, and after a failed
    // calibration, the look is off and the questions stand. Steps are served meanwhile.
    let calibrating = settings.look.map(|look| {
        tokio::spawn(async move {
            loop {
                look.calibrate().await;
                tokio::time::sleep(CALIBRATE_EVERY).await;
            }
        })
    });
    let router = routes::router(
        Arc::clone(&app),
        settings.body_bytes,
        settings.hold.body,
        settings.allow_remote,
    );
    let (stop, stopped) = oneshot::channel::<()>();
    let serving = tokio::spawn(hold::serve(
        listener,
        router,
        settings.hold,
        Arc::clone(&app),
        async {
            let _ = stopped.await;
        },
    ));
    tracing::info!(%addr, data = %settings.data.display(), "warden serve started");
    Ok(Server {
        addr,
        data: settings.data,
        app,
        runtime,
        stop: Some(stop),
        calibrating,
        serving,
    })
}

/// Creates the data folder readable by its owner only, if it isn't there.
fn create_private_dir(dir: &Path) -> Result<()> {
    use std::os::unix::fs::DirBuilderExt as _;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("creating the data folder {}", dir.display()))
}

impl Server {
    /// The address it listens on (with the port chosen when asked for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The runtime it serves (for a host that embeds the server, and for tests).
    pub fn runtime(&self) -> &Runtime {
        &self.runtime
    }

    /// The folder of the event log.
    pub fn log_dir(&self) -> PathBuf {
        self.data.join("log")
    }

    /// Stops gracefully: no new connection, requests in flight answered (for
    /// [`STOP_GRACE`] at most), then the runtime stops after flushing the log. An error says
    /// the last flush failed (or the runtime did not stop): never claimed as done.
    pub async fn stop(mut self) -> Result<()> {
        if let Some(calibrating) = self.calibrating.take() {
            calibrating.abort();
        }
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        // An event stream never ends by itself: told to, so the connection can close.
        self.app.closing.send_replace(true);
        match tokio::time::timeout(STOP_GRACE, &mut self.serving).await {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => tracing::error!(error = %e, "the server failed"),
            Ok(Err(e)) => tracing::error!(error = %e, "the server's task failed"),
            Err(_) => {
                tracing::warn!("requests still running after {STOP_GRACE:?}; stopping anyway");
                self.serving.abort();
            }
        }
        let stopped = self.runtime.shutdown().await;
        // Left only once nothing more is served or written here: a node that took its chats
        // over at once would otherwise serve them beside it.
        if let Some(node) = &self.app.node {
            node.leave().await;
        }
        Ok(stopped?)
    }

    /// This node's id in the cluster, when there is one.
    pub fn node(&self) -> Option<&str> {
        self.app.node.as_deref().map(cluster::Node::id)
    }
}

/// Test-only (documented in `docs/durability.md`): the log's writer panics after this many
/// appends, so that a test sees the daemon stop serving judges and exit non-zero. Read by
/// `warden serve` only, never from a request.
pub const TEST_WRITER_PANIC: &str = "WARDEN_TEST_WRITER_PANIC_AFTER";

/// Why `warden serve` stops.
enum Stop {
    Signal(&'static str),
    /// The log's writer stopped for good, with why.
    Writer(String),
}

/// How many threads serve requests: one core fewer than the machine has, at least one. The
/// other core is the log's writer's, sled's and the client's (on loopback, the hook): on the
/// 2-core machines a second async thread only woke the first, one judge over a keep-alive
/// connection took 29–39 µs (median) with one and 52–54 µs with two, 44 against 67 µs of
/// the daemon's processor time, and 64 connections over 10,000 chats were answered as fast
/// (`benches/load/run.sh`, runs alternated). Nothing waits on an async thread: git, replay
/// and the log's reads run where they may block (`block_in_place`, `spawn_blocking`).
fn workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
}

/// `warden serve`: starts, prints where it listens, and runs until SIGTERM or Ctrl-C, then
/// stops gracefully (the log flushed) and exits 0. It exits 1 when the last flush failed,
/// and when the log's writer stopped for good (a panic): it stops serving and exits, so
/// that its service manager starts it again.
pub fn main(args: ServeArgs) -> Result<std::process::ExitCode> {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
    let home = std::env::var("HOME").unwrap_or_else(|_| "/".to_string());
    let config = Config::load(args.config.as_deref(), &home)?;
    let settings = Settings::new(&config, args.listen.as_deref(), args.data.as_deref(), &home)?;
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers())
        .enable_all()
        .build()
        .context("starting tokio")?;
    tokio.block_on(async {
        use tokio::signal::unix::{SignalKind, signal};
        // Listen for the signals before saying where we listen: a supervisor may send one
        // as soon as it reads the line.
        let mut terminate = signal(SignalKind::terminate()).context("listening for SIGTERM")?;
        let mut interrupt = signal(SignalKind::interrupt()).context("listening for SIGINT")?;
        // Where the log is, as the start line says it: a folder, or a stream on a server.
        let log_at = match &settings.log_engine {
            warden_storage::Engine::Sled => format!("log in {}", settings.data.join("log").display()),
            warden_storage::Engine::JetStream(js) => {
                format!("log on JetStream, the stream `{}` at {}", js.stream, js.url)
            }
        };
        let server = start(settings).await?;
        if let Some(after) = std::env::var(TEST_WRITER_PANIC)
            .ok()
            .and_then(|n| n.parse().ok())
        {
            tracing::warn!(
                after,
                "{TEST_WRITER_PANIC} is set: the event log's writer will panic (a test)"
            );
            server
                .runtime()
                .inject(crate::runtime::Fault::PanicBeforeWrite(after));
        }
        {
            let mut out = std::io::stdout().lock();
            writeln!(
                out,
                "warden: listening on http://{}, {log_at}",
                server.addr(),
            )
            .and_then(|()| out.flush())
            .context("writing stdout")?;
        }
        let runtime = server.runtime().clone();
        let why = tokio::select! {
            _ = terminate.recv() => Stop::Signal("SIGTERM"),
            _ = interrupt.recv() => Stop::Signal("SIGINT"),
            reason = runtime.writer_stopped() => Stop::Writer(reason),
        };
        let mut code = std::process::ExitCode::SUCCESS;
        match &why {
            Stop::Signal(signal) => tracing::info!(signal, "stopping"),
            Stop::Writer(reason) => {
                tracing::error!(error = %reason, "stopping: the event log's writer stopped, so no judge is served; exiting 1 so that the service manager starts warden again");
                code = std::process::ExitCode::FAILURE;
            }
        }
        match server.stop().await {
            Ok(()) => tracing::info!("stopped; the log is flushed"),
            Err(e) => {
                // Say exactly what happened: what was acknowledged had been flushed when it
                // was acknowledged; the last flush, of what wasn't, failed.
                tracing::error!(error = %format!("{e:#}"), "stopped, but the log's last flush failed: every acknowledged change had been flushed before it was acknowledged, and the records of judged steps not flushed yet may be lost");
                code = std::process::ExitCode::FAILURE;
            }
        }
        Ok(code)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_read() {
        assert_eq!(
            address("127.0.0.1:7411").ok(),
            Some(SocketAddr::from(([127, 0, 0, 1], 7411)))
        );
        assert_eq!(
            address("localhost:0").ok(),
            Some(SocketAddr::from(([127, 0, 0, 1], 0)))
        );
        assert!(address("[::1]:80").is_ok());
        assert!(address("7411").is_err());
        assert!(address("example.com:80").is_err());
    }

    #[test]
    fn a_custom_data_folder_is_protected() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let data = dir.path().join("d");
        let settings = Settings::new(&Config::default(), None, Some(&data), "/home/u")
            .unwrap_or_else(|e| panic!("{e:#}"));
        assert!(
            settings
                .defaults
                .protected
                .contains(&data.display().to_string()),
            "{:?}",
            settings.defaults.protected
        );
        assert!(
            settings
                .defaults
                .protected
                .iter()
                .any(|p| p.ends_with(".local/share/warden") || p.ends_with("warden")),
            "the default folders stay protected: {:?}",
            settings.defaults.protected
        );
        assert_eq!(settings.listen, SocketAddr::from(([127, 0, 0, 1], 7411)));
    }
}
