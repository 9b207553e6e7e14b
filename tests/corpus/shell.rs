//! Shell cases: see corpus/README.md.
