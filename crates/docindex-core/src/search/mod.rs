//! Hybrid node search without I/O: query expansion (stems, the dictionary of defined terms
//! and acronyms), fusion of ranked lists from the lexical and dense legs (reciprocal rank
//! fusion, or min-max score sums for comparison), aggregation of chunk scores to nodes
//! (`NodeScore = Σ chunk scores / √(N + 1)`), credit from children to parents, and excerpts
//! located as exact spans; section priors by the kind of question; file-level voting over a
//! library (seed 002). Retrieval itself (FTS5, vectors) lives in the store.

mod excerpts;
mod fusion;
mod prior;
mod query;
pub mod voting;

pub use excerpts::*;
pub use fusion::*;
pub use prior::*;
pub use query::*;
