//! The protocol's view of the search: one call that thinks about a game
//! record within limits, can be stopped, and reports progress.
//!
//! Values here are always the win probability (0..1) of the seat to move.

use std::time::Duration;

use crate::moves::{Colour, Turn};
use crate::record::GameRecord;
use crate::search::{self, Engine, Policy, SearchParams};

pub use crate::search::StopFlag;

/// Engine parameters settable by `oddity-param` and on the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub threads: usize,
    /// Visit cap per search; 0 = none.
    pub visits: u64,
    /// Seconds per move when no clock is set; 0 = no time limit.
    pub time: f64,
    pub memory_mb: usize,
    pub seed: u64,
    pub ponder: bool,
    /// Win rate below which `genmove` resigns; 0 = only when the loss is proven.
    pub resign: f64,
    pub policy: Policy,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            visits: 200_000,
            time: 5.0,
            memory_mb: 1024,
            seed: 1,
            ponder: false,
            resign: 0.0,
            policy: Policy::Default,
        }
    }
}

/// A progress callback and how often to call it.
pub type Progress<'a> = Option<(&'a mut dyn FnMut(&Report), Duration)>;

/// Limits of one search; `None` = no limit of that kind.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub visits: Option<u64>,
    /// Hard time limit.
    pub time: Option<Duration>,
    /// Stop here already when the best move is clear.
    pub soft_time: Option<Duration>,
}

#[derive(Clone, Debug)]
pub struct Candidate {
    pub turn: Turn,
    pub visits: u64,
    /// Win probability of the seat to move after this turn.
    pub winrate: f64,
    pub prior: Option<f64>,
    pub pv: Vec<Turn>,
    /// The winner when the search has proven the result.
    pub proven: Option<Colour>,
}

#[derive(Clone, Debug, Default)]
pub struct Report {
    pub best: Option<Turn>,
    pub root_visits: u64,
    pub winrate: f64,
    /// Best first.
    pub candidates: Vec<Candidate>,
    pub elapsed: Duration,
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
        ..SearchParams::default()
    }
}

fn convert(r: &search::Report) -> Report {
    Report {
        best: r.best,
        root_visits: r.root_visits,
        winrate: r.root_value,
        candidates: r
            .candidates
            .iter()
            .map(|c| Candidate {
                turn: c.turn,
                visits: c.visits,
                winrate: c.value,
                prior: c.prior,
                pv: c.pv.clone(),
                proven: c.proven,
            })
            .collect(),
        elapsed: r.elapsed,
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
        let limits = search::Limits {
            visits: limits.visits,
            time: limits.time,
            soft_time: limits.soft_time,
        };
        let report = match progress {
            Some((f, every)) => {
                let mut g = |r: &search::Report| f(&convert(r));
                self.engine.search(&limits, stop, Some((&mut g, every)))
            }
            None => self.engine.search(&limits, stop, None),
        };
        convert(&report)
    }
}
