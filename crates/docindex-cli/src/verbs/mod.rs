//! One module per group of verbs; each verb is one function the dispatcher calls.

pub mod documents;
pub mod eval;
pub mod index;
pub mod provenance;
pub mod query;
