//! The shared search tree: compact nodes in one preallocated arena, the
//! lock-free iteration (selection, expansion, playout, backup, solver) and
//! the subtree copy used for tree reuse.
//!
//! Modules, lowest first: `node` (nodes and the arena), `config` (the
//! settings of the hot path), `tally` (final boards counted for reports),
//! `worker` (a thread's own state), `select` (selection's scores), `amaf`
//! (RAVE's statistics), `search_tree` (the tree and one iteration), then
//! `reuse` (re-rooting for the next move) and `walks` (benchmarks).

mod amaf;
mod config;
mod node;
mod reuse;
mod search_tree;
mod select;
mod tally;
mod walks;
mod worker;

pub(crate) use config::TreeConfig;
pub use node::NODE_BYTES;
pub(crate) use node::{MAX_CAPACITY, ROOT, VISIT_CAP};
pub(crate) use search_tree::Tree;
pub(crate) use tally::Tally;
pub(crate) use worker::Worker;
