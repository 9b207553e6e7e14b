//! Shared fixtures for the benches (none yet): the benches live in `benches/`.
