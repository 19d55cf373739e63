//! The protocol's view of the search: one call that thinks about a game
//! record within limits, can be stopped, and reports progress.
//!
//! Values here are always the win probability (0..1) of the seat to move.

use crate::rules::record::GameRecord;
use crate::search::tuning::Tuning;
use crate::search::{Engine, Policy, SearchParams};
use crate::solver::{Solution, SolveLimits};

pub use crate::search::{Candidate, Limits, Progress, Report, StopFlag};

/// The visit cap of `visits auto` when no clock is set.
pub const AUTO_VISITS: u64 = 200_000;

/// Engine parameters settable by `oddity-param` and on the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub threads: usize,
    /// Visit cap per search; 0 = none; `None` = auto: [`AUTO_VISITS`]
    /// without a clock, none under a clock (the clock decides).
    pub visits: Option<u64>,
    /// Seconds per move when no clock is set; 0 = no time limit.
    pub time: f64,
    pub memory_mb: usize,
    pub seed: u64,
    pub ponder: bool,
    /// Win rate below which `genmove` resigns (and it resigns a proven
    /// loss); 0 = never.
    pub resign: f64,
    pub policy: Policy,
    /// UCT exploration constant; `None` = the game's default.
    pub exploration: Option<f64>,
    /// Knowledge switches and constants of the default policy.
    pub tuning: Tuning,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            threads: crate::search::every_core(),
            visits: None,
            time: 5.0,
            memory_mb: 1024,
            seed: 1,
            ponder: false,
            resign: 0.0,
            policy: Policy::Default,
            exploration: None,
            tuning: Tuning::default(),
        }
    }
}

/// Thinks about positions: the tree search, with its tree kept between
/// moves of one game.
pub struct Thinker {
    engine: Engine,
}

fn search_params(p: &Params) -> SearchParams {
    SearchParams {
        threads: p.threads.max(1),
        seed: p.seed,
        memory_mb: p.memory_mb.max(1),
        policy: p.policy,
        exploration: p.exploration,
        tuning: p.tuning,
        ..SearchParams::default()
    }
}

impl Thinker {
    pub fn new(params: &Params) -> Thinker {
        Thinker {
            engine: Engine::new(search_params(params)),
        }
    }

    pub fn set_params(&mut self, params: &Params) {
        self.engine.set_params(search_params(params));
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.engine.clear();
    }

    /// Proves the value of the current position of `record` and of each of
    /// its turns with the exact solver, within `limits`.
    pub fn solve(
        &mut self,
        record: &GameRecord,
        limits: &SolveLimits,
        stop: &StopFlag,
    ) -> Option<Solution> {
        if record.is_over() {
            return None;
        }
        self.engine.set_position(record);
        self.engine.solve(true, limits, stop)
    }

    /// Searches the current position of `record` for the seat to move.
    pub fn think(
        &mut self,
        record: &GameRecord,
        limits: &Limits,
        stop: &StopFlag,
        progress: Progress,
    ) -> Report {
        if record.is_over() {
            return Report::default();
        }
        self.engine.set_position(record);
        self.engine.search(limits, stop, progress)
    }
}
