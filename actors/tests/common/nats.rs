//! The `nats-server -js` of the tests that run warden on JetStream: the storage crate's
//! fixture, one file for both crates' tests.

#[path = "../../../storage/tests/support/nats_server.rs"]
mod server;
pub use server::{NatsCluster, NatsServer};
