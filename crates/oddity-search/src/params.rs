//! The engine's settings: the exploration constant and the parameters a
//! search is made with.

use std::sync::Arc;

use oddity_rules::GameKind;

use crate::filter::MoveFilter;
use crate::policy::Policy;
use crate::tree::{MAX_CAPACITY, NODE_BYTES};
use crate::tuning;

/// The exploration constant used when [`crate::SearchParams::exploration`] is
/// `None`. Plain: `sqrt(2)` for every game. Default: Xodd/Yodd 0.5
/// (measured against 1.0 and 2.0), Odd and Onyx 0, where RAVE explores
/// (measured against 0.05-1.0 at equal time; see STRENGTH.md).
pub fn default_exploration(kind: GameKind, policy: Policy) -> f64 {
    match policy {
        Policy::Plain => std::f64::consts::SQRT_2,
        Policy::Default => match kind {
            // With RAVE the AMAF rates keep every child's estimate moving,
            // and matches at 0.2 s per move favoured no UCT term at all.
            GameKind::Odd | GameKind::Onyx => 0.0,
            GameKind::Xodd | GameKind::Yodd => 0.5,
        },
    }
}

/// Settings of the engine.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Search threads (at least 1).
    pub threads: usize,
    /// The seed of the threads' random numbers (with the thread index and the
    /// turns played): one thread and a fixed seed search the same way every
    /// time.
    pub seed: u64,
    /// What the search knows beyond the rules.
    pub policy: Policy,
    /// Memory for the tree in MiB.
    pub memory_mb: usize,
    /// UCT exploration constant; `None` = [`default_exploration`].
    pub exploration: Option<f64>,
    /// A cap on tree nodes besides `memory_mb`.
    pub max_nodes: Option<usize>,
    /// Knowledge switches and constants of [`Policy::Default`].
    pub tuning: tuning::Tuning,
    /// Turns the search may not consider (analysis); the endgame solver
    /// is not tried while one is set.
    pub filter: Option<Arc<MoveFilter>>,
    /// Count what the playouts' final boards hold ([`crate::Report::final_boards`]).
    pub final_boards: bool,
    /// With `final_boards`, also per root turn ([`crate::Candidate::final_stones`]).
    pub final_boards_per_turn: bool,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            threads: every_core(),
            seed: 0,
            policy: Policy::Default,
            memory_mb: 1024,
            exploration: None,
            max_nodes: None,
            tuning: tuning::Tuning::default(),
            filter: None,
            final_boards: false,
            final_boards_per_turn: false,
        }
    }
}

impl SearchParams {
    /// Nodes the arena may hold.
    pub fn node_capacity(&self) -> usize {
        let by_memory = self.memory_mb.saturating_mul(1 << 20) / NODE_BYTES;
        by_memory
            .min(self.max_nodes.unwrap_or(usize::MAX))
            .clamp(1, MAX_CAPACITY)
    }
}

/// The number of threads "every core" means: the cores the system lets this
/// process use, at least 1.
pub fn every_core() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
