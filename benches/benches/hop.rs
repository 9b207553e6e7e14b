//! What one call to a judge costs through a hand-made round-robin pool of actors (what the
//! runtime's `Judges` is) and through `ractor::factory` (round-robin routing, and its queue),
//! with a judge that answers at once: 10,000 callers at once, ten calls each, on two workers
//! like the daemon's. The hops alone, without the law; why the judges are not a factory
//! (`docs/ARCHITECTURE.md`, `runtime/`). Measure again when ractor changes.
//!
//! Run with `cargo bench -p warden-benches --bench hop -- --warm-up-time 1 --measurement-time 5`.
#![expect(clippy::panic, reason = "a bench whose fixture is wrong stops at once")]
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ractor::factory::{
    Factory, FactoryArguments, FactoryMessage, Job, Worker, WorkerId,
    queues::DefaultQueue,
    routing::{QueuerRouting, RoundRobinRouting},
    worker_builder,
};
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

enum Msg {
    Ask(u64, RpcReplyPort<u64>),
}

struct Echo;
impl Actor for Echo {
    type Msg = Msg;
    type State = ();
    type Arguments = ();
    async fn pre_start(&self, _: ActorRef<Msg>, _: ()) -> Result<(), ActorProcessingErr> {
        Ok(())
    }
    async fn handle(&self, _: ActorRef<Msg>, m: Msg, _: &mut ()) -> Result<(), ActorProcessingErr> {
        let Msg::Ask(n, reply) = m;
        let _ = reply.send(n + 1);
        Ok(())
    }
}

struct EchoWorker;
impl Worker for EchoWorker {
    type Key = ();
    type Message = Msg;
    type State = ();
    type Arguments = ();
    async fn pre_start(
        &self,
        _: WorkerId,
        _: &ActorRef<FactoryMessage<(), Msg>>,
        _: (),
    ) -> Result<(), ActorProcessingErr> {
        Ok(())
    }
    async fn handle(
        &self,
        _: WorkerId,
        _: &ActorRef<FactoryMessage<(), Msg>>,
        Job { msg, key, .. }: Job<(), Msg>,
        _: &mut (),
    ) -> Result<(), ActorProcessingErr> {
        let Msg::Ask(n, reply) = msg;
        let _ = reply.send(n + 1);
        Ok(key)
    }
}

const CALLERS: usize = 10_000;
const CALLS: usize = 10;

fn hops(c: &mut Criterion) {
    let rt = warden_benches::tokio();
    let pool: Arc<Vec<ActorRef<Msg>>> = Arc::new(rt.block_on(async {
        let mut v = Vec::new();
        for _ in 0..2 {
            v.push(
                Actor::spawn(None, Echo, ())
                    .await
                    .unwrap_or_else(|e| panic!("{e}"))
                    .0,
            );
        }
        v
    }));
    let next = Arc::new(AtomicUsize::new(0));
    let round = rt.block_on(async {
        let args = FactoryArguments::builder()
            .worker_builder(Box::new(worker_builder(|_| (EchoWorker, ()))))
            .queue(Default::default())
            .router(Default::default())
            .num_initial_workers(2)
            .build();
        Actor::spawn(
            None,
            Factory::<(), Msg, (), EchoWorker, RoundRobinRouting<(), Msg>, DefaultQueue<(), Msg>>::default(),
            args,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .0
    });
    let queuer = rt.block_on(async {
        let args = FactoryArguments::builder()
            .worker_builder(Box::new(worker_builder(|_| (EchoWorker, ()))))
            .queue(Default::default())
            .router(Default::default())
            .num_initial_workers(2)
            .build();
        Actor::spawn(
            None,
            Factory::<(), Msg, (), EchoWorker, QueuerRouting<(), Msg>, DefaultQueue<(), Msg>>::default(),
            args,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .0
    });
    let mut group = c.benchmark_group("hop");
    group.sample_size(20);
    group.throughput(Throughput::Elements((CALLERS * CALLS) as u64));
    group.bench_function("pool (round robin over actors)", |b| {
        b.iter(|| {
            rt.block_on(async {
                let mut tasks = Vec::with_capacity(CALLERS);
                for _ in 0..CALLERS {
                    let pool = Arc::clone(&pool);
                    let next = Arc::clone(&next);
                    tasks.push(tokio::spawn(async move {
                        for n in 0..CALLS as u64 {
                            let at = next.fetch_add(1, Ordering::Relaxed) % pool.len();
                            let judge = pool.get(at).unwrap_or_else(|| panic!("none"));
                            let r = judge.call(|reply| Msg::Ask(n, reply), None).await;
                            assert!(matches!(r, Ok(ractor::rpc::CallResult::Success(_))));
                        }
                    }));
                }
                for t in tasks {
                    t.await.unwrap_or_else(|e| panic!("{e}"));
                }
            })
        })
    });
    for (name, factory) in [
        ("factory (round robin)", &round),
        ("factory (queuer)", &queuer),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                rt.block_on(async {
                    let mut tasks = Vec::with_capacity(CALLERS);
                    for _ in 0..CALLERS {
                        let factory = factory.clone();
                        tasks.push(tokio::spawn(async move {
                            for n in 0..CALLS as u64 {
                                let r =
                                    factory.call_job((), |reply| Msg::Ask(n, reply), None).await;
                                assert!(matches!(r, Ok(ractor::rpc::CallResult::Success(_))));
                            }
                        }));
                    }
                    for t in tasks {
                        t.await.unwrap_or_else(|e| panic!("{e}"));
                    }
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, hops);
criterion_main!(benches);
