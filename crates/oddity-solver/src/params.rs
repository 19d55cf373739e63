//! The solver's settings and limits.

use std::time::Duration;

use oddity_rules::GameKind;

use crate::dfpn::DfpnConfig;

/// Settings of the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverParams {
    /// Threads that take the solve's jobs (the root, then each turn).
    pub threads: usize,
    /// The transposition table's size in MiB.
    pub memory_mb: usize,
    /// Keys shared by symmetric positions (off: an ablation switch).
    pub symmetry: bool,
    /// Children ordered by game knowledge (off: an ablation switch).
    pub ordering: bool,
    /// Random games played from each new child for its first proof and
    /// disproof numbers (0: none).
    pub playouts: u32,
    /// The largest first number the playouts give.
    pub playout_scale: u32,
    /// How far a child's number may exceed the second-best child's before
    /// df-pn turns to that one, as a factor ("1 + epsilon").
    pub epsilon: u32,
}

impl Default for SolverParams {
    fn default() -> Self {
        SolverParams {
            threads: 1,
            memory_mb: 256,
            symmetry: true,
            ordering: true,
            playouts: 0,
            playout_scale: 10,
            epsilon: 16,
        }
    }
}

impl SolverParams {
    /// The df-pn settings these parameters give for a game; `parallel` when
    /// several threads share the table.
    pub(crate) fn dfpn_config(&self, kind: GameKind, parallel: bool) -> DfpnConfig {
        DfpnConfig {
            ordering: self.ordering,
            cyclic: kind.has_captures(),
            playouts: self.playouts,
            playout_scale: f64::from(self.playout_scale),
            epsilon: self.epsilon,
            parallel,
        }
    }
}

/// When a solve gives up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveLimits {
    /// Wall-clock time.
    pub time: Option<Duration>,
    /// Expansions of all threads.
    pub nodes: Option<u64>,
}
