//! Several warden nodes over one JetStream (`docs/cluster.md`): which node serves a chat
//! ([`place`]), which nodes are alive ([`members`]), and one node a chat at a time
//! ([`lease`]), the last enforced on the log itself by
//! [`crate::jetstream::JetStreamLog::append_after`].
//!
//! Two key-value buckets beside the log's streams, for `[log] stream = "warden"`:
//!
//! - `warden-nodes`: key a node's id (as a [`token`]), value its HTTP address; the bucket's
//!   `max_age` is the membership's time to live ([`TTL`]), and each node puts its key again
//!   every third of it. The live set is the keys present.
//! - `warden-leases`: key a chat's token, value the id of the node that serves it; the
//!   entry's revision is the lease's fencing token.
//! - `warden-roots`: key a task's token, value the id of the chat it belongs to at the root
//!   ([`roots`]): a task is served where its root chat is, so one operation never spans two
//!   nodes, and a node that never saw the task's records still knows where it goes.
//! - `warden-preferences`: one key, the log's sequence of the newest record of the person's
//!   preferences a node appended ([`preferences`]): the signal every node watches to fold
//!   the preferences again from the log, which stays their truth.
//!
//! Unlike the log, whose API is synchronous (it owns a runtime), this API is async: it runs
//! background tasks (a heartbeat, a watch) on the caller's tokio runtime, the daemon's.

pub mod lease;
pub mod members;
pub mod place;
pub mod preferences;
pub mod roots;

use crate::jetstream::{STEP_TIMEOUT, Settings, id_of, token};
use async_nats::jetstream::{self, kv};
use std::future::Future;
use std::time::Duration;

/// The membership's time to live unless told otherwise: a node that stops heartbeating is out
/// of every live set within about this long (`docs/cluster.md` has the bound measured).
pub const TTL: Duration = Duration::from_secs(3);

/// What the cluster's buckets can fail at.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// The server did not answer, or refused.
    #[error("the cluster's bucket `{bucket}` on `{url}` failed: {cause}")]
    Store {
        url: String,
        bucket: String,
        cause: String,
    },
    /// The chat's lease is another live node's.
    #[error("chat `{chat}` is served by node `{owner}` (lease {token})")]
    Held {
        chat: String,
        owner: String,
        token: u64,
    },
    /// The lease was taken over (or released) since this node last held it.
    #[error("node `{node}` no longer holds the lease of chat `{chat}`")]
    Lost { chat: String, node: String },
    /// The task id is a task of another root chat already.
    #[error("`{task}` is a task under the chat `{root}` already")]
    Rooted { task: String, root: String },
}

/// The buckets of one cluster, on one connection.
#[derive(Clone)]
pub struct Cluster {
    url: String,
    nodes: kv::Store,
    leases: kv::Store,
    roots: kv::Store,
    preferences: kv::Store,
    /// The client, for the log's own stream, read (never written) for the newest
    /// preferences record once the log has made it.
    js: jetstream::Context,
    log_stream: String,
    events: std::sync::Arc<tokio::sync::OnceCell<jetstream::stream::Stream>>,
    /// The log's subject of the person's preferences.
    preferences_subject: String,
    nodes_bucket: String,
    leases_bucket: String,
    roots_bucket: String,
    preferences_bucket: String,
    ttl: Duration,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("url", &self.url)
            .field("nodes", &self.nodes_bucket)
            .field("leases", &self.leases_bucket)
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}

impl Cluster {
    /// Connects to the log's server and opens (or makes) the two buckets of its stream, with
    /// the membership's time to live `ttl` (at least a second; [`TTL`] by default). A bucket
    /// that exists is used as it is: its `max_age` is the time to live then, whatever `ttl`
    /// says, so that every node heartbeats at the pace the server expires keys.
    pub async fn connect(settings: &Settings, ttl: Duration) -> Result<Cluster, ClusterError> {
        let ttl = ttl.max(Duration::from_secs(1));
        let nodes_bucket = format!("{}-nodes", settings.stream);
        let leases_bucket = format!("{}-leases", settings.stream);
        let failed = |bucket: &str, cause: String| ClusterError::Store {
            url: settings.url.clone(),
            bucket: bucket.to_string(),
            cause,
        };
        if !Settings::is_stream_name(&settings.stream) {
            return Err(failed(
                &nodes_bucket,
                "a stream's name is letters, digits, `-` and `_`".to_string(),
            ));
        }
        let client = bounded(
            "connecting",
            async_nats::ConnectOptions::new()
                .connection_timeout(STEP_TIMEOUT)
                .name("warden-cluster")
                .connect(
                    settings
                        .servers()
                        .map_err(|cause| failed(&nodes_bucket, cause))?,
                ),
        )
        .await
        .map_err(|cause| failed(&nodes_bucket, cause))?;
        let mut js = jetstream::new(client);
        js.set_timeout(STEP_TIMEOUT);
        let open = |bucket: String, max_age: Duration| {
            let js = js.clone();
            let replicas = settings.replicas;
            async move {
                if let Ok(store) = js.get_key_value(bucket.clone()).await {
                    return Ok(store);
                }
                // The stream a bucket is, made as `create_key_value` would make it: that call
                // first asks for the account's limits, whose answer from nats-server 2.9 this
                // client can't read.
                bounded(
                    "making the bucket",
                    js.get_or_create_stream(jetstream::stream::Config {
                        name: format!("KV_{bucket}"),
                        subjects: vec![format!("$KV.{bucket}.>")],
                        max_messages_per_subject: 1,
                        max_age,
                        storage: jetstream::stream::StorageType::File,
                        num_replicas: replicas,
                        allow_rollup: true,
                        deny_delete: true,
                        allow_direct: true,
                        discard: jetstream::stream::DiscardPolicy::New,
                        ..Default::default()
                    }),
                )
                .await?;
                bounded("opening the bucket", js.get_key_value(bucket)).await
            }
        };
        let nodes = open(nodes_bucket.clone(), ttl)
            .await
            .map_err(|cause| failed(&nodes_bucket, cause))?;
        let ttl = nodes.stream.cached_info().config.max_age;
        if ttl.is_zero() {
            return Err(failed(
                &nodes_bucket,
                "the bucket keeps its keys forever: membership needs a `max_age`".to_string(),
            ));
        }
        let leases = open(leases_bucket.clone(), Duration::ZERO)
            .await
            .map_err(|cause| failed(&leases_bucket, cause))?;
        let roots_bucket = format!("{}-roots", settings.stream);
        let roots = open(roots_bucket.clone(), Duration::ZERO)
            .await
            .map_err(|cause| failed(&roots_bucket, cause))?;
        let preferences_bucket = format!("{}-preferences", settings.stream);
        let preferences = open(preferences_bucket.clone(), Duration::ZERO)
            .await
            .map_err(|cause| failed(&preferences_bucket, cause))?;
        Ok(Cluster {
            url: settings.url.clone(),
            nodes,
            leases,
            roots,
            preferences,
            js,
            log_stream: settings.stream.clone(),
            events: std::sync::Arc::new(tokio::sync::OnceCell::new()),
            preferences_subject: format!(
                "{}.chat.{}",
                settings.stream,
                token(warden::preferences::STREAM)
            ),
            nodes_bucket,
            leases_bucket,
            roots_bucket,
            preferences_bucket,
            ttl,
        })
    }

    /// The membership's time to live.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    fn nodes_failed(&self, cause: impl std::fmt::Display) -> ClusterError {
        ClusterError::Store {
            url: self.url.clone(),
            bucket: self.nodes_bucket.clone(),
            cause: cause.to_string(),
        }
    }

    fn leases_failed(&self, cause: impl std::fmt::Display) -> ClusterError {
        ClusterError::Store {
            url: self.url.clone(),
            bucket: self.leases_bucket.clone(),
            cause: cause.to_string(),
        }
    }

    fn roots_failed(&self, cause: impl std::fmt::Display) -> ClusterError {
        ClusterError::Store {
            url: self.url.clone(),
            bucket: self.roots_bucket.clone(),
            cause: cause.to_string(),
        }
    }

    fn preferences_failed(&self, cause: impl std::fmt::Display) -> ClusterError {
        ClusterError::Store {
            url: self.url.clone(),
            bucket: self.preferences_bucket.clone(),
            cause: cause.to_string(),
        }
    }
}

/// `future`, failed with `what` when it takes longer than [`STEP_TIMEOUT`]; errors as text.
async fn bounded<T, E: std::fmt::Display>(
    what: &str,
    future: impl Future<Output = Result<T, E>>,
) -> Result<T, String> {
    match tokio::time::timeout(STEP_TIMEOUT, future).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) => Err(format!("{what}: {e}")),
        Err(_) => Err(format!("{what}: no answer within {STEP_TIMEOUT:?}")),
    }
}

/// A key's entry as its bucket's stream leader holds it: the value, the revision, and
/// whether it is a put (not a delete or a purge); `None` when the key has none.
///
/// Not the bucket's own `get`/`entry`: with `allow_direct` on (how the buckets are made) they
/// are direct gets, which any replica answers, one catching up after a restart included,
/// from what it holds (a root not there yet, a lease's older holder). The leader's is the
/// answer every node reads alike.
async fn leader_entry(
    store: &kv::Store,
    key: &str,
) -> Result<Option<(Vec<u8>, u64, bool)>, String> {
    let subject = format!("{}{key}", store.prefix);
    bounded("reading a key from the bucket's leader", async {
        match store.stream.get_last_raw_message_by_subject(&subject).await {
            Ok(message) => {
                let put = message
                    .headers
                    .get("KV-Operation")
                    .is_none_or(|op| op.as_str() != "DEL" && op.as_str() != "PURGE");
                Ok(Some((message.payload.to_vec(), message.sequence, put)))
            }
            Err(e) if e.kind() == jetstream::stream::LastRawMessageErrorKind::NoMessageFound => {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    })
    .await
}

/// A bucket's key for an id (a node's, a chat's): its [`token`], which KV keys accept.
fn key_of(id: &str) -> String {
    token(id)
}

/// The id a bucket's key was written from.
fn id_of_key(key: &str) -> Option<String> {
    id_of(key)
}
