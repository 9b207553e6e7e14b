//! Intent cases: see corpus/README.md.
