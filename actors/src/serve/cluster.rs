//! `warden serve` as one node of several over one JetStream stream (`[cluster]`,
//! `docs/cluster.md`). Every request that names a chat is served by the node placement gives
//! its root chat (a task goes where its root chat is: one operation never spans two nodes),
//! and forwarded there over HTTP when that is another node, once at most (a hop header).
//! The node that serves a root holds its lease first; when the live set changes, the roots
//! that moved away are let go (their chats' actors drained, nothing more of them written,
//! then the lease released), and those that moved here are taken over on their next request:
//! the lease taken, the root's chats taken over in the log (a marker each, the old node's
//! groups not whole yet aborted) and replayed, served. A node that doesn't count itself in the live set (its heartbeat no
//! longer gets through) answers 503 and serves nothing.
//!
//! The person's preferences are the log's, folded by each node's writer: a node that appends
//! one signals its sequence in the cluster's bucket; every node watches it, and checks the
//! log's newest preferences record every [`PREFERENCES_CHECK`] (for a node that died between
//! its append and its signal), and when either names a record it doesn't hold, folds them
//! again from the log.
//!
//! ```text
//!   request ─▶ guard ─▶ place ─┬─ placed here: lease held? (take it) ─▶ routes ─▶ runtime
//!                              └─ placed on B ─▶ HTTP to B, `warden-hop: A` ─▶ B's routes
//! ```

use super::App;
use super::lineage::{self, Lineage};
use super::routes::ApiError;
use crate::config::ClusterConfig;
use crate::runtime::{Fenced, Gate, Runtime};
use anyhow::{Context as _, Result, anyhow};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::task::JoinHandle;
use warden_storage::cluster::lease::Lease;
use warden_storage::cluster::members::Member;
use warden_storage::cluster::{Cluster, ClusterError, TTL};

/// The header a forwarded request carries: the id of the node that forwarded it. A request
/// that has it is never forwarded again.
pub const HOP: &str = "warden-hop";

/// The header of a cluster's event stream (`GET /v1/events`): the node whose own writes its
/// live events are.
pub const NODE: &str = "warden-node";

/// How long a forwarded request may take, the owner's answer included: longer than the
/// owner's own bound on a call into its runtime (10 s), so its error comes back, not ours.
pub const FORWARD_TIMEOUT: Duration = Duration::from_secs(12);

/// How often a node reads the log's newest preferences record, in case a node died between
/// its append and its signal: the bound on such a change reaching every node.
pub const PREFERENCES_CHECK: Duration = Duration::from_secs(2);

/// How long a request waits for the lease of a root that another live node still holds (it
/// is letting it go after a change of the live set) before it is answered 503.
pub const HANDOVER_WAIT: Duration = Duration::from_secs(2);

/// How often a node looks at its log's standing: a log that has failed for
/// [`step_out_after`] takes the node out of the live set until it is written again.
const LOG_LOOK: Duration = Duration::from_millis(100);

/// How long a node's log must have failed before the node steps out of the live set: longer
/// than the log takes to recover by itself from a server's death (the streams it led elect
/// new leaders, 2.5 to 8 s seen on loopback, and the log is open again within half a second
/// of that; `STEP_TIMEOUT` bounds it), plus the time to live. A failure of every node's log
/// at once (the stream electing a leader) is over by then, and stepping out for it would
/// only move every chat twice; a node whose log alone stays failing moves its chats.
pub fn step_out_after(ttl: Duration) -> Duration {
    warden_storage::jetstream::STEP_TIMEOUT + ttl
}

/// How long a node remembers that an id has no root of another chat (it is a chat of its
/// own): a task made meanwhile is placed right once this runs out.
const NO_ROOT_KEPT: Duration = Duration::from_secs(2);

/// This node's id, as `[cluster] node` gives it or as made once and kept in `DATA/node`.
pub fn node_id(config: &ClusterConfig, data: &Path) -> Result<String> {
    if let Some(node) = &config.node {
        return Ok(node.clone());
    }
    let path = data.join("node");
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let node = text.trim().to_string();
            if crate::config::is_node_id(&node) {
                Ok(node)
            } else {
                Err(anyhow!(
                    "{} does not hold a node id (1 to {} letters, digits, `-`, `_` or `.`): `{}`",
                    path.display(),
                    crate::config::NODE_MAX,
                    node.escape_default()
                ))
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut bytes = [0u8; 16];
            getrandom::fill(&mut bytes).map_err(|e| anyhow!("making a node id: {e}"))?;
            // A version 4 uuid: random, with its version and variant bits.
            bytes[6] = (bytes[6] & 0x0f) | 0x40;
            bytes[8] = (bytes[8] & 0x3f) | 0x80;
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            let node = format!(
                "{}-{}-{}-{}-{}",
                &hex[..8],
                &hex[8..12],
                &hex[12..16],
                &hex[16..20],
                &hex[20..]
            );
            std::fs::write(&path, format!("{node}\n"))
                .with_context(|| format!("keeping the node id in {}", path.display()))?;
            Ok(node)
        }
        Err(e) => Err(e).with_context(|| format!("reading the node id in {}", path.display())),
    }
}

/// What this node serves, shared by the request path, the watchers and the runtime's gate.
#[derive(Default)]
struct Serving {
    /// The roots whose lease this node holds, with the ids brought into memory under each.
    roots: HashMap<String, Root>,
    /// Roots let go since this node last held them: the gate refuses their chats.
    released: HashSet<String>,
    /// What is known of each id's root.
    known: HashMap<String, Known>,
    /// Roots one of whose chats' writes the log refused by its fence (another node took it
    /// over): taken over again on their next request, whoever holds the lease then.
    fenced: HashSet<String>,
}

struct Root {
    lease: Lease,
    ids: HashSet<String>,
}

/// What a node knows of an id's root.
enum Known {
    /// A task of this root chat (the bucket's, or its opening's chain in the log).
    Root(String),
    /// A chat of its own: its opening in the log names no parent. For good, as a chat never
    /// becomes a task (`Node::rooting` refuses a task by a chat's id), so it is not asked again.
    Own,
    /// Nothing in the log yet, and no root in the bucket, when it was read: placed by itself
    /// for now, and asked again after `NO_ROOT_KEPT` (a task another node is making may be
    /// rooted meanwhile).
    Unrecorded(Instant),
}

impl Known {
    fn root(&self) -> Option<&str> {
        match self {
            Known::Root(root) => Some(root),
            Known::Own | Known::Unrecorded(_) => None,
        }
    }
}

/// The shared part, locked only for map lookups (never across an await).
type Shared = Arc<Mutex<Serving>>;

fn lock(shared: &Shared) -> std::sync::MutexGuard<'_, Serving> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What the runtime is told before it opens: whether a chat may come into memory here.
#[derive(Default)]
pub struct Gatekeeper(Shared);

impl Gatekeeper {
    /// The runtime's gate: a chat of a root this node let go is refused (a request that
    /// raced the move), any other is let in (placement sent it here, or a task here asked its
    /// parent, which has its root).
    pub fn gate(&self) -> Gate {
        let shared = Arc::clone(&self.0);
        Arc::new(move |id: &str| {
            let serving = lock(&shared);
            let root = serving.known.get(id).and_then(Known::root).unwrap_or(id);
            !serving.released.contains(root)
        })
    }

    /// What the runtime's writer tells of a chat whose write was refused by its fence,
    /// before the write is answered: its root is not served from what this node holds any
    /// more (the gate refuses its chats, as for a root let go) and is taken over again on its
    /// next request (the lease, the takeover, the replay).
    pub fn fenced(&self) -> Fenced {
        let shared = Arc::clone(&self.0);
        Arc::new(move |id: &str| {
            let mut serving = lock(&shared);
            let root = serving
                .known
                .get(id)
                .and_then(Known::root)
                .unwrap_or(id)
                .to_string();
            // INVARIANT: a root whose write was fenced is read again from the log before any
            // of its chats is served here again.
            serving.released.insert(root.clone());
            serving.fenced.insert(root);
        })
    }
}

/// This node in the cluster.
pub struct Node {
    id: String,
    advertise: String,
    cluster: Cluster,
    member: Member,
    serving: Shared,
    client: Client<HttpConnector, Body>,
    tasks: Mutex<Vec<JoinHandle<()>>>,
    /// The runtime, once watched: for what the log holds of a task made before the roots.
    runtime: std::sync::OnceLock<Runtime>,
    /// Whether this node is out of the live set for its log: set before its chats are let
    /// go, cleared once it is back in. Read by every request, so an atomic, not a lock.
    log_out: AtomicBool,
    /// Why, while it is.
    log_out_reason: Mutex<String>,
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("id", &self.id)
            .field("advertise", &self.advertise)
            .finish_non_exhaustive()
    }
}

/// Why a request for a chat is not served here.
enum Elsewhere {
    /// Forward it to this node at this address.
    Forward(String, String),
    /// Answer it with this error.
    Refused(ApiError),
}

/// How a request placed here is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Served {
    /// Under the lease of its chat's root, held by this node.
    Leased,
    /// Without a lease: a peek of a chat with nothing recorded, judged in a chat's first
    /// state and let go from memory after (it records nothing, so nothing is written
    /// without the lease).
    Unleased,
}

/// What a request does to its chat, as placement reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asks {
    /// `GET /v1/chats/{chat}`: a look at its state.
    Look,
    /// `POST /v1/chats/{chat}/peek`: a judge that records nothing.
    Peek,
    /// Anything else.
    Other,
}

impl Node {
    /// Connects to the cluster's buckets on the log's server and joins the live set as `id`,
    /// reachable at `advertise`.
    pub async fn join(
        settings: &warden_storage::jetstream::Settings,
        config: &ClusterConfig,
        id: String,
        advertise: String,
        gatekeeper: &Gatekeeper,
    ) -> Result<Arc<Node>> {
        let ttl = config.ttl_ms.map_or(TTL, Duration::from_millis);
        let cluster = Cluster::connect(settings, ttl)
            .await
            .map_err(|e| anyhow!("joining the cluster: {e}"))?;
        let member = Member::join(&cluster, &id, &advertise)
            .await
            .map_err(|e| anyhow!("joining the cluster as node `{id}`: {e}"))?;
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        connector.set_connect_timeout(Some(Duration::from_secs(2)));
        let client = Client::builder(hyper_util::rt::TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(30))
            .build(connector);
        tracing::info!(node = %id, %advertise, ttl_ms = u64::try_from(cluster.ttl().as_millis()).unwrap_or(u64::MAX), "joined the cluster");
        Ok(Arc::new(Node {
            id,
            advertise,
            cluster,
            member,
            serving: Arc::clone(&gatekeeper.0),
            client,
            tasks: Mutex::new(Vec::new()),
            runtime: std::sync::OnceLock::new(),
            log_out: AtomicBool::new(false),
            log_out_reason: Mutex::new(String::new()),
        }))
    }

    /// This node's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Why this node serves nothing now, if it doesn't: its log can't be written (it stepped
    /// out of the live set), or its heartbeat no longer gets through.
    pub fn not_standing(&self) -> Option<String> {
        if let Some(reason) = self.log_out() {
            return Some(reason);
        }
        (!self.member.is_standing()).then(|| {
            format!(
                "this warden node (`{}`) is not standing in the cluster: its heartbeat has not reached the JetStream server for {:?}, so another node may serve its chats; it serves none until it is back",
                self.id,
                warden_storage::cluster::members::standing(self.cluster.ttl())
            )
        })
    }

    /// Why this node is out of the live set for its log, while it is.
    fn log_out(&self) -> Option<String> {
        self.log_out.load(Ordering::SeqCst).then(|| {
            self.log_out_reason
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone()
        })
    }

    /// Starts the watchers: the live set (chats moved away let go), the log's standing (out
    /// of the live set while it can't be written), the preferences' signals out and in, and
    /// the periodic check of the log's newest preferences record.
    pub fn watch(self: &Arc<Node>, runtime: &Runtime) -> Result<()> {
        let _ = self.runtime.set(runtime.clone());
        let mut tasks = Vec::new();
        {
            let node = Arc::clone(self);
            let runtime = runtime.clone();
            tasks.push(tokio::spawn(async move {
                let mut every = tokio::time::interval(LOG_LOOK);
                every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                let mut failing_since: Option<Instant> = None;
                loop {
                    every.tick().await;
                    match runtime.log_trouble() {
                        Some(reason) => {
                            let since = *failing_since.get_or_insert_with(Instant::now);
                            let after = step_out_after(node.cluster.ttl());
                            // A node alone in the live set has nobody to hand its chats to.
                            let others = node.member.live().keys().any(|n| *n != node.id);
                            if node.log_out().is_none() && others && since.elapsed() >= after {
                                node.step_out(&runtime, reason).await;
                            }
                        }
                        None => {
                            failing_since = None;
                            if node.log_out().is_some() {
                                node.step_in().await;
                            }
                        }
                    }
                }
            }));
        }
        {
            let node = Arc::clone(self);
            let runtime = runtime.clone();
            let mut live = self.member.watch();
            // Also every quarter of the time to live: a root taken while the live set changed
            // is let go at the next look, and a node that stopped standing lets every chat go
            // (others may take them over; it reads them again when it serves them again).
            let mut every = tokio::time::interval(self.cluster.ttl() / 4);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            tasks.push(tokio::spawn(async move {
                lineage::abort_departed(&runtime, &node.member).await;
                loop {
                    tokio::select! {
                        changed = live.changed() => {
                            if changed.is_err() {
                                return;
                            }
                            live.borrow_and_update();
                            lineage::abort_departed(&runtime, &node.member).await;
                        }
                        _ = every.tick() => {}
                    }
                    node.moved(&runtime).await;
                }
            }));
        }
        {
            let node = Arc::clone(self);
            let mut seq = runtime.preferences_seq();
            tasks.push(tokio::spawn(async move {
                let mut told = 0;
                loop {
                    let now = *seq.borrow_and_update();
                    if now > told {
                        match node.cluster.signal_preferences(now).await {
                            Ok(()) => told = now,
                            Err(e) => tracing::warn!(error = %e, "the preferences' signal was not sent; the others' check finds the change"),
                        }
                    }
                    if seq.changed().await.is_err() {
                        return;
                    }
                }
            }));
        }
        {
            let node = Arc::clone(self);
            let runtime = runtime.clone();
            tasks.push(tokio::spawn(async move {
                let mut signals = match node.cluster.preferences_signals().await {
                    Ok(signals) => signals,
                    Err(e) => {
                        tracing::error!(error = %e, "the preferences' signals can't be watched; the periodic check alone carries changes");
                        return;
                    }
                };
                while let Some(newest) = signals.changed().await {
                    node.fold_if_behind(&runtime, newest).await;
                }
            }));
        }
        {
            let node = Arc::clone(self);
            let runtime = runtime.clone();
            tasks.push(tokio::spawn(async move {
                let mut every = tokio::time::interval(PREFERENCES_CHECK);
                every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                loop {
                    every.tick().await;
                    match node.cluster.preferences_end().await {
                        Ok(newest) => node.fold_if_behind(&runtime, newest).await,
                        Err(e) => tracing::warn!(error = %e, "the log's newest preferences record could not be read"),
                    }
                }
            }));
        }
        *self.tasks.lock().unwrap_or_else(PoisonError::into_inner) = tasks;
        Ok(())
    }

    /// Folds the preferences again when the log holds a record of them newer than this node's.
    async fn fold_if_behind(&self, runtime: &Runtime, newest: u64) {
        if newest <= *runtime.preferences_seq().borrow() {
            return;
        }
        match runtime.fold_preferences().await {
            Ok(folded) => {
                tracing::debug!(newest, folded, "the preferences folded again from the log");
            }
            Err(e) => {
                tracing::warn!(error = %e, "the preferences could not be folded again; the next check tries again");
            }
        }
    }

    /// The log has failed for a heartbeat's time: this node stops serving (every chat request
    /// is forwarded to the node the others place it on, or answered 503), lets every chat
    /// go, then steps out of the live set, so that the others take its chats over (and the
    /// fence refuses whatever of them this node would still write).
    async fn step_out(&self, runtime: &Runtime, reason: String) {
        tracing::error!(node = %self.id, error = %reason, "the event log can't be written: this node steps out of the cluster's live set until it is written again, and the others serve its chats");
        // INVARIANT: a node whose log can't be written serves no chat from the moment it
        // decides to step out until it is back in the live set.
        *self
            .log_out_reason
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = format!(
            "this warden node (`{}`) is out of the cluster's live set: its event log can't be written ({reason}); another node serves its chats until it is written again",
            self.id
        );
        self.log_out.store(true, Ordering::SeqCst);
        self.moved(runtime).await;
        if let Err(e) = self.member.step_out().await {
            tracing::warn!(node = %self.id, error = %e, "stepping out of the live set failed; the others drop this node when its heartbeat expires");
        }
    }

    /// The log is written again: back in the live set, serving what placement gives it (each
    /// root taken over from the node that served it meanwhile).
    async fn step_in(&self) {
        match self.member.step_in().await {
            Ok(()) => {
                self.log_out.store(false, Ordering::SeqCst);
                tracing::warn!(node = %self.id, "the event log is written again: back in the cluster's live set");
            }
            Err(e) => {
                tracing::warn!(node = %self.id, error = %e, "stepping back into the live set failed; tried again shortly");
            }
        }
    }

    /// The live set changed: every root placed elsewhere now is let go; every root, when this
    /// node is not standing (its heartbeat lost, or out for its log).
    async fn moved(&self, runtime: &Runtime) {
        let standing = self.member.is_standing() && self.log_out().is_none();
        let away: Vec<(String, Root)> = {
            let mut serving = lock(&self.serving);
            let roots: Vec<String> = serving
                .roots
                .keys()
                .filter(|root| !standing || !self.is_mine(root))
                .cloned()
                .collect();
            roots
                .into_iter()
                .filter_map(|root| {
                    let held = serving.roots.remove(&root)?;
                    // INVARIANT: the gate refuses a root's chats from the moment it is let
                    // go until this node holds its lease again.
                    serving.released.insert(root.clone());
                    Some((root, held))
                })
                .collect()
        };
        for (root, held) in away {
            let mut ids: Vec<String> = held.ids.into_iter().collect();
            if !ids.contains(&root) {
                ids.push(root.clone());
            }
            // Also any chat in memory whose root it is (a parent a task asked for).
            if let Ok(in_memory) = runtime.chat_ids().await {
                let serving = lock(&self.serving);
                for id in in_memory {
                    let of_root =
                        serving.known.get(&id).and_then(Known::root) == Some(root.as_str());
                    if of_root && !ids.contains(&id) {
                        ids.push(id);
                    }
                }
            }
            match runtime.let_go(ids).await {
                Ok(()) => match self.cluster.release(&held.lease).await {
                    Ok(()) => {
                        tracing::info!(chat = %root, "moved to another node: let go, lease released")
                    }
                    Err(e) => {
                        tracing::warn!(chat = %root, error = %e, "let go; its lease could not be released (the next node takes it over when this one leaves)")
                    }
                },
                // Its lease stays: the node it moved to is refused it (503, the hook asks)
                // until this one leaves, rather than two nodes serving one chat.
                Err(e) => {
                    tracing::error!(chat = %root, error = %e, "a chat that moved away could not be let go; its lease is kept")
                }
            }
        }
    }

    /// Whether placement gives `root` to this node in the live set as it sees it.
    fn is_mine(&self, root: &str) -> bool {
        self.member
            .placed(root)
            .is_some_and(|(node, _)| node == self.id)
    }

    /// The root chat of `id`: the bucket's, remembered; `id` itself for a chat of its own.
    /// A chat whose opening names no parent is remembered as its own for good: asked about
    /// again every few seconds, each chat of a busy node cost a look into the bucket and a
    /// walk of the log from its start, which nats-server 2.9 pays for in the whole stream.
    async fn root_of(&self, id: &str) -> Result<String, ApiError> {
        {
            let serving = lock(&self.serving);
            match serving.known.get(id) {
                Some(Known::Root(root)) => return Ok(root.clone()),
                Some(Known::Own) => return Ok(id.to_string()),
                Some(Known::Unrecorded(at)) if at.elapsed() < NO_ROOT_KEPT => {
                    return Ok(id.to_string());
                }
                _ => {}
            }
        }
        let root = self.cluster.root_of(id).await.map_err(|e| {
            unavailable(format!(
                "warden could not find where the chat `{id}` is served: {e}"
            ))
        })?;
        let mut known = match root {
            Some(root) => Known::Root(root),
            None => Known::Unrecorded(Instant::now()),
        };
        if matches!(known, Known::Unrecorded(_))
            && let Some(runtime) = self.runtime.get()
        {
            // A task made before the roots bucket: its opening names its parent.
            match lineage::root_in_log(&self.cluster, runtime, id).await {
                Ok(Lineage::Root(root)) => known = Known::Root(root),
                Ok(Lineage::Own) => known = Known::Own,
                Ok(Lineage::Unrecorded) => {}
                Err(e) => {
                    // This node's log can't be read (it may be why the node is out of the
                    // live set): the id is placed by itself, as a chat is, and not kept, so
                    // the next request asks again. The node it goes to reads its own log;
                    // a task it roots elsewhere is a second hop there, a 503, never a
                    // verdict from the wrong chat.
                    tracing::debug!(chat = %id, error = %e, "the log could not say whether this is a task made before the roots bucket; placed by its own id");
                    return Ok(id.to_string());
                }
            }
        }
        let root = known.root().unwrap_or(id).to_string();
        lock(&self.serving).known.insert(id.to_string(), known);
        Ok(root)
    }

    /// Before a task is made from `chat` (served here): its root written to the bucket, once,
    /// so every node places it with its chat.
    pub async fn rooting(&self, chat: &str, task: &str) -> Result<(), ApiError> {
        let root = self.root_of(chat).await?;
        if root == task {
            return Err(ApiError::bad(format!(
                "`task`: `{task}` is the chat at the root of `{chat}`"
            )));
        }
        // A chat of its own is never made a task: every node remembers it as its own root.
        if let Some(runtime) = self.runtime.get()
            && let Ok(Lineage::Own) = lineage::root_in_log(&self.cluster, runtime, task).await
        {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                format!("`task`: `{task}` is a chat already"),
            ));
        }
        self.cluster
            .set_root(task, &root)
            .await
            .map_err(|e| match e {
                ClusterError::Rooted { .. } => {
                    ApiError::new(StatusCode::CONFLICT, format!("`task`: {e}"))
                }
                e => unavailable(format!("warden could not create the task: {e}")),
            })?;
        let mut serving = lock(&self.serving);
        serving
            .known
            .insert(task.to_string(), Known::Root(root.clone()));
        if let Some(held) = serving.roots.get_mut(&root) {
            held.ids.insert(task.to_string());
        }
        Ok(())
    }

    /// Where a request for `id` goes: `Ok(())` when it is served here (the lease of its root
    /// held, taken over when its last holder is gone), else where to forward it or why not.
    /// A request that only looks at the chat, when nothing is recorded in it and its root is
    /// not held here, is answered 404 as on one node, without a lease; a peek of it is served
    /// without one ([`Served::Unleased`]).
    async fn place(&self, id: &str, asks: Asks, runtime: &Runtime) -> Result<Served, Elsewhere> {
        let root = self.root_of(id).await.map_err(Elsewhere::Refused)?;
        let Some((owner, address)) = self.member.placed(&root) else {
            return Err(Elsewhere::Refused(unavailable(format!(
                "no warden node is in the cluster's live set to serve the chat `{id}`"
            ))));
        };
        if owner != self.id {
            return Err(Elsewhere::Forward(owner, address));
        }
        {
            let mut serving = lock(&self.serving);
            let fenced = serving.fenced.contains(&root);
            if !fenced && let Some(held) = serving.roots.get_mut(&root) {
                held.ids.insert(id.to_string());
                return Ok(Served::Leased);
            }
        }
        if asks != Asks::Other {
            let recorded = runtime.is_recorded(id).await.map_err(|e| {
                Elsewhere::Refused(unavailable(format!(
                    "warden could not read the chat `{id}`: {e}"
                )))
            })?;
            match (recorded, asks) {
                (false, Asks::Look) => return Err(Elsewhere::Refused(nothing_recorded(id))),
                (false, Asks::Peek) => return Ok(Served::Unleased),
                _ => {}
            }
        }
        let lease = self
            .take(&root, id, runtime)
            .await
            .map_err(Elsewhere::Refused)?;
        {
            let mut serving = lock(&self.serving);
            serving.released.remove(&root);
            // A root taken again after a fence keeps its ids, with the lease as taken now.
            let mut ids = serving
                .roots
                .remove(&root)
                .map(|held| held.ids)
                .unwrap_or_default();
            ids.insert(root.clone());
            ids.insert(id.to_string());
            serving.roots.insert(root.clone(), Root { lease, ids });
        }
        // The live set changed while the lease was taken: let go at once, not at the next look.
        if !self.is_mine(&root) {
            self.moved(runtime).await;
            return Err(Elsewhere::Refused(unavailable(format!(
                "the chat `{id}` moved to another node while this one took it; try again"
            ))));
        }
        Ok(Served::Leased)
    }

    /// After a request served without a lease: its chat let go from memory, unless a request
    /// took the lease of its root meanwhile. An actor in memory is one whose lease this node
    /// holds (a node that took a chat over reads it again only when another held it before).
    async fn unleased_done(&self, id: &str, runtime: &Runtime) {
        let Ok(root) = self.root_of(id).await else {
            return;
        };
        if lock(&self.serving).roots.contains_key(&root) {
            return;
        }
        if let Err(e) = runtime.let_go(vec![id.to_string()]).await {
            tracing::warn!(chat = id, error = %e, "a chat peeked at without its lease could not be let go");
        }
    }

    /// The node another than this one that serves `id`'s root in the live set as this node
    /// sees it, and its address; `None` when placement gives it to this node.
    async fn placed_elsewhere(&self, id: &str) -> Result<Option<(String, String)>, ApiError> {
        let root = self.root_of(id).await?;
        Ok(self
            .member
            .placed(&root)
            .filter(|(owner, _)| *owner != self.id))
    }

    /// Takes `root`'s lease (for a request about `id`, the root or one of its tasks); when
    /// another node held it, takes the root's chats over in the log before any is read here
    /// (`Runtime::take_over`), so what that node wrote is replayed and its late writes are
    /// refused.
    async fn take(&self, root: &str, id: &str, runtime: &Runtime) -> Result<Lease, ApiError> {
        let started = Instant::now();
        loop {
            let failed = |e: ClusterError| {
                unavailable(format!(
                    "warden could not take the chat `{root}`'s lease: {e}"
                ))
            };
            let before = self.cluster.holder(root).await.map_err(failed)?;
            // Held by another node before, or released by one: what it wrote is taken over.
            let fenced = lock(&self.serving).fenced.contains(root);
            let over = fenced
                || match &before {
                    Some(held) => held.node != self.id,
                    None => self.cluster.was_released(root).await.map_err(failed)?,
                };
            let live = self.member.live();
            match self
                .cluster
                .take(root, &self.id, |node| live.contains_key(node))
                .await
            {
                Ok(lease) => {
                    if over {
                        // Whatever this node held of the root's chats is older than what the
                        // other node wrote: let go, then taken over in the log and read again
                        // (the root, its tasks as this node knows them, and the chat asked
                        // about, which may be a task made by the other node).
                        let mut ids = vec![root.to_string()];
                        {
                            let serving = lock(&self.serving);
                            ids.extend(
                                serving
                                    .known
                                    .iter()
                                    .filter(|(_, known)| known.root() == Some(root))
                                    .map(|(id, _)| id.clone()),
                            );
                        }
                        if !ids.iter().any(|known| known == id) {
                            ids.push(id.to_string());
                        }
                        runtime.let_go(ids.clone()).await.map_err(|e| {
                            unavailable(format!(
                                "warden could not take the chat `{root}` over: {e}"
                            ))
                        })?;
                        runtime.take_over(ids).await.map_err(|e| {
                            unavailable(format!(
                                "warden could not take the chat `{root}` over: {e}"
                            ))
                        })?;
                        lock(&self.serving).fenced.remove(root);
                        tracing::info!(chat = %root, token = lease.token, "taken over");
                    }
                    return Ok(lease);
                }
                Err(ClusterError::Held { owner, .. }) if started.elapsed() < HANDOVER_WAIT => {
                    tracing::debug!(chat = %root, %owner, "waiting for the lease to be let go");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(e @ ClusterError::Held { .. }) => {
                    return Err(unavailable(format!(
                        "warden could not serve the chat `{root}` here yet: {e}, which is letting it go"
                    )));
                }
                Err(e) => {
                    return Err(unavailable(format!(
                        "warden could not take the chat `{root}`'s lease: {e}"
                    )));
                }
            }
        }
    }

    /// Sends the request on to `owner` at `address`, marked as forwarded by this node.
    async fn forward(&self, owner: &str, address: &str, request: Request) -> Response {
        let (mut parts, body) = request.into_parts();
        let target = format!(
            "{}{}",
            address.trim_end_matches('/'),
            parts.uri.path_and_query().map_or("/", |p| p.as_str())
        );
        let uri: Uri = match target.parse() {
            Ok(uri) => uri,
            Err(e) => {
                return unavailable(format!(
                    "the node `{owner}` has no address warden can reach (`{address}`): {e}"
                ))
                .into_response();
            }
        };
        if let Some(authority) = uri.authority()
            && let Ok(host) = HeaderValue::from_str(authority.as_str())
        {
            parts.headers.insert(header::HOST, host);
        }
        if let Ok(hop) = HeaderValue::from_str(&self.id) {
            parts.headers.insert(HOP, hop);
        }
        parts.uri = uri;
        let request = Request::from_parts(parts, body);
        match tokio::time::timeout(FORWARD_TIMEOUT, self.client.request(request)).await {
            Ok(Ok(response)) => response.map(Body::new),
            Ok(Err(e)) => unavailable(format!(
                "the chat is served by the warden node `{owner}` at {address}, which could not be reached: {e}"
            ))
            .into_response(),
            Err(_) => unavailable(format!(
                "the chat is served by the warden node `{owner}` at {address}, which did not answer within {FORWARD_TIMEOUT:?}"
            ))
            .into_response(),
        }
    }

    /// Leaves the live set (SIGTERM): the others take this node's chats at once.
    pub async fn leave(&self) {
        for task in self
            .tasks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain(..)
        {
            task.abort();
        }
        match self.member.leave().await {
            Ok(()) => tracing::info!(node = %self.id, "left the cluster"),
            Err(e) => {
                tracing::warn!(node = %self.id, error = %e, "leaving the cluster failed; the others drop this node when its heartbeat expires")
            }
        }
    }
}

/// A 503 with `message`: the hook asks.
fn unavailable(message: String) -> ApiError {
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
}

/// What a look at a chat with nothing recorded in it answers, on one node as in a cluster.
pub fn nothing_recorded(chat: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("nothing was recorded in the chat `{chat}`"),
    )
}

/// Whether a request only looks at a chat (`GET /v1/chats/{chat}`, its state): one of a chat
/// with nothing recorded needs no lease.
fn only_looks(method: &Method, path: &str) -> bool {
    *method == Method::GET
        && path
            .strip_prefix("/v1/chats/")
            .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
}

/// What a request does to its chat: a look, a peek (`POST /v1/chats/{chat}/peek`), or else.
fn asks(method: &Method, path: &str) -> Asks {
    if only_looks(method, path) {
        return Asks::Look;
    }
    let peek = *method == Method::POST
        && path
            .strip_prefix("/v1/chats/")
            .and_then(|rest| rest.strip_suffix("/peek"))
            .is_some_and(|chat| !chat.is_empty() && !chat.contains('/'));
    if peek { Asks::Peek } else { Asks::Other }
}

/// The chat a request's path names (`/v1/chats/{chat}…`), decoded, if it names one.
fn chat_in(path: &str) -> Option<String> {
    let rest = path.strip_prefix("/v1/chats/")?;
    let raw = rest.split('/').next().filter(|raw| !raw.is_empty())?;
    percent_decoded(raw)
}

/// `%XX` escapes decoded (as axum's `Path` does); `None` when they aren't UTF-8 or aren't
/// escapes.
fn percent_decoded(raw: &str) -> Option<String> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = raw.get(at + 1..at + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The placement layer: a request that names a chat is served here when its root is placed
/// here, forwarded once to its node when not; a node that isn't standing serves none.
pub async fn place(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let Some(node) = app.node.clone() else {
        return next.run(request).await;
    };
    let Some(chat) = chat_in(request.uri().path()) else {
        return next.run(request).await;
    };
    let from = request
        .headers()
        .get(HOP)
        .map(|hop| String::from_utf8_lossy(hop.as_bytes()).into_owned());
    if let Some(reason) = node.not_standing() {
        // Out for its log, a node still sees the live set without itself: a chat another
        // node serves is forwarded there (once, as any), so the hook that asks this node is
        // answered by one whose log works.
        if node.log_out().is_some()
            && from.is_none()
            && let Ok(Some((owner, address))) = node.placed_elsewhere(&chat).await
        {
            return node.forward(&owner, &address, request).await;
        }
        return unavailable(reason).into_response();
    }
    let asks = asks(request.method(), request.uri().path());
    match node.place(&chat, asks, &app.runtime).await {
        Ok(Served::Leased) => next.run(request).await,
        Ok(Served::Unleased) => {
            let response = next.run(request).await;
            node.unleased_done(&chat, &app.runtime).await;
            response
        }
        Err(Elsewhere::Refused(error)) => error.into_response(),
        Err(Elsewhere::Forward(owner, _)) if from.is_some() => unavailable(format!(
            "the chat `{chat}` was forwarded here by the warden node `{}`, but this node places it on `{owner}`: the two see different live sets (a loop, not forwarded again); try again once they agree",
            from.unwrap_or_default().escape_default()
        ))
        .into_response(),
        Err(Elsewhere::Forward(owner, address)) => node.forward(&owner, &address, request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chat_is_read_from_the_path() {
        for (path, chat) in [
            ("/v1/chats/c1", Some("c1")),
            ("/v1/chats/c1/judge", Some("c1")),
            ("/v1/chats/a%20task%2Fx/questions/3", Some("a task/x")),
            ("/v1/chats", None),
            ("/v1/chats/", None),
            ("/v1/preferences", None),
            ("/v1/chats/%ZZ/judge", None),
            ("/v1/chats/%ff/judge", None),
        ] {
            assert_eq!(chat_in(path).as_deref(), chat, "{path}");
        }
    }

    #[test]
    fn only_a_chats_state_is_a_look() {
        for (method, path, looks) in [
            (Method::GET, "/v1/chats/c1", true),
            (Method::GET, "/v1/chats/a%20task", true),
            (Method::POST, "/v1/chats/c1", false),
            (Method::GET, "/v1/chats/c1/judge", false),
            (Method::POST, "/v1/chats/c1/peek", false),
            (Method::GET, "/v1/chats/", false),
            (Method::GET, "/v1/chats", false),
        ] {
            assert_eq!(only_looks(&method, path), looks, "{method} {path}");
        }
    }

    #[test]
    fn a_peek_is_told_from_a_look_and_from_anything_else() {
        for (method, path, asked) in [
            (Method::GET, "/v1/chats/c1", Asks::Look),
            (Method::POST, "/v1/chats/c1/peek", Asks::Peek),
            (Method::POST, "/v1/chats/a%20task/peek", Asks::Peek),
            (Method::POST, "/v1/chats/c1/judge", Asks::Other),
            (Method::GET, "/v1/chats/c1/peek", Asks::Other),
            (Method::POST, "/v1/chats//peek", Asks::Other),
            (Method::POST, "/v1/chats/c1/x/peek", Asks::Other),
        ] {
            assert_eq!(asks(&method, path), asked, "{method} {path}");
        }
    }

    #[test]
    fn a_node_id_is_made_once_and_kept() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let config = ClusterConfig::default();
        let first = node_id(&config, dir.path()).unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(first.len(), 36, "{first}");
        assert_eq!(&first[14..15], "4", "a version 4 uuid: {first}");
        assert!(crate::config::is_node_id(&first), "{first}");
        let again = node_id(&config, dir.path()).unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(first, again, "kept in the data folder");
        let named = ClusterConfig {
            node: Some("n1".into()),
            ..ClusterConfig::default()
        };
        assert_eq!(node_id(&named, dir.path()).ok().as_deref(), Some("n1"));
        std::fs::write(dir.path().join("node"), "not one\n").unwrap_or_else(|e| panic!("{e}"));
        let error = node_id(&config, dir.path())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("`not one`"), "{error}");
    }
}
