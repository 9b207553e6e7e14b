//! Which nodes are alive: each node puts its id (→ its HTTP address) in the `<stream>-nodes`
//! bucket every third of the time to live, and the bucket's `max_age` drops a key that was
//! not put again within it. The live set is the keys present.
//!
//! Every member sees joins at once through a watch of the bucket. A key that *expires* by
//! `max_age` produces no event on nats-server 2.9 (measured: `storage/tests/log/cluster.rs`;
//! only a delete or a purge does), so each member also lists the bucket's keys every
//! [`relist`] period and drops a node the listing no longer has, unless the watch saw it put
//! since the listing began. A node that stops (crashed, partitioned, paused) is out of every
//! live set within `ttl + ttl/4` plus the server's expiry timer; one that leaves with
//! [`Member::leave`] is out at once.
//!
//! While the bucket does not answer (its server gone, its stream electing a leader) no key is
//! put again, so every key may expire meanwhile, live nodes' too, and the first listings once
//! it answers again hold only the nodes whose heartbeat has landed since. A member therefore
//! drops a node for its absence only once the bucket has answered it for [`settled`] (two
//! times to live) since it last failed to: every node that lives has put its key again by
//! then. A node that stopped during such an outage is dropped that much later. A member can also step out for a while and back in
//! ([`Member::step_out`], [`Member::step_in`]): a node whose log can't be written, so that
//! the others serve its chats meanwhile.

use super::{Cluster, ClusterError, bounded, id_of_key, key_of, leader_entry};
use async_nats::jetstream::kv;
use futures_util::StreamExt;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// The live nodes as one member sees them: node id → HTTP address.
pub type Live = BTreeMap<String, String>;

/// How often a member lists the bucket again: a quarter of the time to live.
pub fn relist(ttl: Duration) -> Duration {
    ttl / 4
}

/// How often a member puts its key again: a third of the time to live.
pub fn heartbeat(ttl: Duration) -> Duration {
    ttl / 3
}

/// What a member knows of each node: its address and when it was last seen put.
type Seen = BTreeMap<String, (String, Instant)>;

/// How long the bucket must have answered a member, since it last failed to, before a node's
/// absence from a listing drops it: two times to live. After an outage every node that lives
/// puts its key within a heartbeat of reaching the bucket again (its last put may have hung
/// for a heartbeat more), and its client may reconnect a little later than this member's.
pub fn settled(ttl: Duration) -> Duration {
    ttl * 2
}

/// Whether a listing begun at `started` may drop the nodes it lacks: the bucket last failed to
/// answer this member at `trouble` (never: `None`), at least [`settled`] before it.
fn may_drop(trouble: Option<Instant>, started: Instant, ttl: Duration) -> bool {
    trouble.is_none_or(|failed| {
        started
            .checked_duration_since(failed)
            .is_some_and(|calm| calm >= settled(ttl))
    })
}

/// How long after its last acknowledged heartbeat a node still counts itself in: two
/// heartbeats missed. The others drop it no sooner than a whole time to live after that put,
/// so a node that stops serving when this runs out has stopped a third of the time to live
/// before any other takes its chats over.
pub fn standing(ttl: Duration) -> Duration {
    ttl - heartbeat(ttl)
}

/// One node in the live set, heartbeating and watching while it lives. Dropping it stops both
/// at once, as a crash would: its key then expires (use [`Member::leave`] to leave at once).
#[derive(Debug)]
pub struct Member {
    node: String,
    cluster: Cluster,
    live: watch::Receiver<Live>,
    /// When the server last acknowledged this node's put.
    beat: Arc<Mutex<Instant>>,
    /// Whether the node stepped out: no heartbeat is put while it is, and it does not count
    /// itself in.
    out: Arc<AtomicBool>,
    /// Held to step out or in, and for each heartbeat's put, so that no put in flight lands
    /// after a step out's delete.
    turn: Arc<tokio::sync::Mutex<()>>,
    address: String,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for Member {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl Member {
    /// Puts `node` → `address` in the bucket, lists the live set, and starts heartbeating and
    /// watching on the current tokio runtime.
    pub async fn join(
        cluster: &Cluster,
        node: &str,
        address: &str,
    ) -> Result<Member, ClusterError> {
        let store = cluster.nodes.clone();
        let key = key_of(node);
        // The watch first, so that nothing put after the first listing is missed.
        let watched = bounded("watching the bucket", store.watch_all())
            .await
            .map_err(|e| cluster.nodes_failed(e))?;
        let sent = Instant::now();
        bounded("joining", store.put(&key, address.to_string().into()))
            .await
            .map_err(|e| cluster.nodes_failed(e))?;
        let beat = Arc::new(Mutex::new(sent));
        // When the bucket last failed to answer this member: a put or a listing that failed.
        let trouble: Arc<Mutex<Option<Instant>>> = Arc::new(Mutex::new(None));
        let out = Arc::new(AtomicBool::new(false));
        let turn = Arc::new(tokio::sync::Mutex::new(()));
        let seen = Arc::new(Mutex::new(Seen::new()));
        let started = Instant::now();
        let listed = list(&store).await.map_err(|e| cluster.nodes_failed(e))?;
        let (tell, live) = watch::channel(Live::new());
        apply_listing(&seen, &tell, listed, started, true);
        let ttl = cluster.ttl;
        let heartbeat_task = {
            let (store, key, address) = (store.clone(), key.clone(), address.to_string());
            let (beat, trouble) = (Arc::clone(&beat), Arc::clone(&trouble));
            let (out, turn) = (Arc::clone(&out), Arc::clone(&turn));
            tokio::spawn(async move {
                let mut every = tokio::time::interval(heartbeat(ttl));
                every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                every.tick().await;
                loop {
                    every.tick().await;
                    let _turn = turn.lock().await;
                    if out.load(Ordering::SeqCst) {
                        continue;
                    }
                    // A put that fails is tried again at the next tick; the key expires if
                    // none goes through within the time to live, as it should. The time
                    // counted is when the put was sent: its expiry runs from no earlier.
                    let sent = Instant::now();
                    let put = tokio::time::timeout(
                        heartbeat(ttl),
                        store.put(&key, address.clone().into()),
                    );
                    if let Ok(Ok(_)) = put.await {
                        *beat.lock().unwrap_or_else(PoisonError::into_inner) = sent;
                    } else {
                        *trouble.lock().unwrap_or_else(PoisonError::into_inner) =
                            Some(Instant::now());
                    }
                }
            })
        };
        let watch_task = {
            let (seen, tell) = (Arc::clone(&seen), tell.clone());
            tokio::spawn(async move {
                let mut watched = watched;
                while let Some(entry) = watched.next().await {
                    let Ok(entry) = entry else { continue };
                    let Some(node) = id_of_key(&entry.key) else {
                        continue;
                    };
                    let mut seen = seen.lock().unwrap_or_else(PoisonError::into_inner);
                    match entry.operation {
                        kv::Operation::Put => {
                            let address = String::from_utf8_lossy(&entry.value).into_owned();
                            seen.insert(node, (address, Instant::now()));
                        }
                        kv::Operation::Delete | kv::Operation::Purge => {
                            seen.remove(&node);
                        }
                    }
                    publish(&seen, &tell);
                }
            })
        };
        let relist_task = {
            let store = store.clone();
            tokio::spawn(async move {
                let mut every = tokio::time::interval(relist(ttl));
                every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                every.tick().await;
                loop {
                    every.tick().await;
                    let started = Instant::now();
                    match list(&store).await {
                        Ok(listed) => {
                            let failed = *trouble.lock().unwrap_or_else(PoisonError::into_inner);
                            let dropping = may_drop(failed, started, ttl);
                            apply_listing(&seen, &tell, listed, started, dropping);
                        }
                        Err(_) => {
                            *trouble.lock().unwrap_or_else(PoisonError::into_inner) =
                                Some(Instant::now());
                        }
                    }
                }
            })
        };
        Ok(Member {
            node: node.to_string(),
            cluster: cluster.clone(),
            live,
            beat,
            out,
            turn,
            address: address.to_string(),
            tasks: vec![heartbeat_task, watch_task, relist_task],
        })
    }

    /// This member's node id.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// Whether this node still counts itself in the live set: its last heartbeat the server
    /// acknowledged is younger than [`standing`]. A node for which this is false must stop
    /// serving chats (and writing them) before the others take them over.
    pub fn is_standing(&self) -> bool {
        !self.is_out()
            && self
                .beat
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .elapsed()
                < standing(self.cluster.ttl)
    }

    /// Whether this node stepped out of the live set ([`Member::step_out`]) and is not back.
    pub fn is_out(&self) -> bool {
        self.out.load(Ordering::SeqCst)
    }

    /// Steps out of the live set until [`Member::step_in`]: no heartbeat is put any more,
    /// this node no longer counts itself in, and its key is deleted, so every other member
    /// sees it leave at once. It keeps watching the live set. When the delete fails (the
    /// server can't be reached) the key expires by the time to live instead.
    pub async fn step_out(&self) -> Result<(), ClusterError> {
        let _turn = self.turn.lock().await;
        self.out.store(true, Ordering::SeqCst);
        bounded(
            "stepping out",
            self.cluster.nodes.delete(key_of(&self.node)),
        )
        .await
        .map_err(|e| self.cluster.nodes_failed(e))
    }

    /// Back in the live set after [`Member::step_out`]: its key put again (every other
    /// member sees it join at once), then heartbeating again. Still out when the put fails.
    pub async fn step_in(&self) -> Result<(), ClusterError> {
        let _turn = self.turn.lock().await;
        let sent = Instant::now();
        bounded(
            "stepping in",
            self.cluster
                .nodes
                .put(key_of(&self.node), self.address.clone().into()),
        )
        .await
        .map_err(|e| self.cluster.nodes_failed(e))?;
        *self.beat.lock().unwrap_or_else(PoisonError::into_inner) = sent;
        self.out.store(false, Ordering::SeqCst);
        Ok(())
    }

    /// The live set as this member sees it now.
    pub fn live(&self) -> Live {
        self.live.borrow().clone()
    }

    /// The node that serves `chat` in the live set as this member sees it now, and its HTTP
    /// address ([`super::place::owner`]): where a request for the chat goes.
    pub fn placed(&self, chat: &str) -> Option<(String, String)> {
        let live = self.live.borrow();
        let node = super::place::owner(chat, live.keys().map(String::as_str))?;
        live.get(node)
            .map(|address| (node.to_string(), address.clone()))
    }

    /// Waits for the live set to change, and answers it. `None` once the member has stopped.
    pub async fn changed(&mut self) -> Option<Live> {
        self.live.changed().await.ok()?;
        Some(self.live.borrow_and_update().clone())
    }

    /// The live set as it changes, for a watcher of its own (as [`Member::changed`], for a
    /// member shared with others that only read it).
    pub fn watch(&self) -> watch::Receiver<Live> {
        self.live.clone()
    }

    /// Stops heartbeating and watching, and deletes this node's key: every other member sees
    /// it leave at once.
    pub async fn leave(&self) -> Result<(), ClusterError> {
        for task in &self.tasks {
            task.abort();
        }
        bounded("leaving", self.cluster.nodes.delete(key_of(&self.node)))
            .await
            .map_err(|e| self.cluster.nodes_failed(e))
    }
}

/// Every key of the bucket with its address: the subjects the bucket's stream holds, then
/// each one's value. (Not the client's `keys()`: its consumer counts the messages left when it
/// starts, and when one of them expires by `max_age` meanwhile it waits for it forever,
/// measured on nats-server 2.9.)
async fn list(store: &kv::Store) -> Result<Vec<(String, String)>, String> {
    let prefix = format!("$KV.{}.", store.name);
    let mut info = bounded(
        "listing the nodes",
        store.stream.info_with_subjects(format!("{prefix}>")),
    )
    .await?;
    let mut keys = Vec::new();
    while let Some(subject) = bounded("listing the nodes", async {
        Ok::<_, String>(info.next().await)
    })
    .await?
    {
        let (subject, _count) = subject.map_err(|e| format!("listing the nodes: {e}"))?;
        if let Some(key) = subject.strip_prefix(&prefix) {
            keys.push(key.to_string());
        }
    }
    let mut listed = Vec::with_capacity(keys.len());
    for key in keys {
        let Some(node) = id_of_key(&key) else {
            continue;
        };
        // Gone between the listing and the get (expired, deleted): not listed. The leader's
        // answer: a replica behind may not hold a node that joined a moment ago, and a
        // live node missing from a live set would have its leases taken over.
        if let Some((value, _, true)) = leader_entry(store, &key).await? {
            listed.push((node, String::from_utf8_lossy(&value).into_owned()));
        }
    }
    Ok(listed)
}

/// The listing begun at `started` replaces what is known, but a node the watch saw put after
/// `started` stays even when the listing missed it, and when `dropping` is false (the bucket
/// failed to answer too lately, [`may_drop`]) the listing only adds.
fn apply_listing(
    seen: &Mutex<Seen>,
    tell: &watch::Sender<Live>,
    listed: Vec<(String, String)>,
    started: Instant,
    dropping: bool,
) {
    let mut seen = seen.lock().unwrap_or_else(PoisonError::into_inner);
    let listed: BTreeMap<String, String> = listed.into_iter().collect();
    if dropping {
        seen.retain(|node, (_, at)| listed.contains_key(node) || *at > started);
    }
    for (node, address) in listed {
        let entry = seen.entry(node).or_insert((String::new(), started));
        entry.0 = address;
        entry.1 = entry.1.max(started);
    }
    publish(&seen, tell);
}

/// Tells the watchers the live set, when it changed.
fn publish(seen: &Seen, tell: &watch::Sender<Live>) {
    let live: Live = seen
        .iter()
        .map(|(node, (address, _))| (node.clone(), address.clone()))
        .collect();
    tell.send_if_modified(|old| {
        if *old == live {
            false
        } else {
            *old = live;
            true
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_drops_only_after_the_bucket_has_answered_for_two_times_to_live() {
        let ttl = Duration::from_secs(3);
        let now = Instant::now();
        let at = |secs: u64| now + Duration::from_secs(secs);
        assert!(may_drop(None, at(10), ttl), "never failed");
        assert!(
            may_drop(Some(at(1)), at(7), ttl),
            "answered for exactly 2 ttl"
        );
        assert!(!may_drop(Some(at(2)), at(7), ttl), "answered for 5 s only");
        assert!(
            !may_drop(Some(at(8)), at(7), ttl),
            "failed after the listing began"
        );
    }

    #[test]
    fn a_listing_that_may_not_drop_still_adds() {
        let now = Instant::now();
        let seen = Mutex::new(Seen::from([(
            "node-a".to_string(),
            ("http://a".to_string(), now),
        )]));
        let (tell, live) = watch::channel(Live::new());
        let later = now + Duration::from_millis(1);
        let listed = vec![("node-b".to_string(), "http://b".to_string())];
        apply_listing(&seen, &tell, listed.clone(), later, false);
        assert_eq!(
            live.borrow().keys().collect::<Vec<_>>(),
            ["node-a", "node-b"]
        );
        apply_listing(&seen, &tell, listed, later, true);
        assert_eq!(live.borrow().keys().collect::<Vec<_>>(), ["node-b"]);
    }
}
