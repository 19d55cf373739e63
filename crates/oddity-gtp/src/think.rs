//! The protocol's view of the search: one call that thinks about a game
//! record within limits, can be stopped, and reports progress.
//!
//! Values here are always the win probability (0..1) of the seat to move.

use std::sync::Arc;
use std::time::Duration;

use oddity_rules::GameRecord;
use oddity_search::time::TimeUse;
use oddity_search::{Engine, EngineConfig, MoveFilter, SearchParams, Visits};
use oddity_solver::{Solution, SolveLimits};

pub use oddity_search::{Candidate, Limits, Progress, Report, StopFlag};

/// The visit cap of `visits auto` when no clock is set.
pub const AUTO_VISITS: u64 = 200_000;

/// Engine parameters settable by `oddity-param` and on the command line:
/// the engine's configuration and what only the protocol decides.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// How the engine searches, and how long without a clock: the time per
    /// move and the visit cap, whose `auto` is [`AUTO_VISITS`] without a
    /// clock and none under a clock (the clock decides).
    pub engine: EngineConfig,
    /// Think on the opponent's time.
    pub ponder: bool,
    /// Win rate below which `genmove` resigns (and it resigns a proven
    /// loss); 0 = never.
    pub resign: f64,
    /// Which turns `genmove` chooses among.
    pub turns: TurnChoice,
    /// How a clock's time is planned ([`oddity_search::time::TimeUse`]).
    pub time_use: TimeUse,
}

/// The `turns` parameter: the turns `genmove`, `reg_genmove`,
/// `genmove_analyze` and the heat map choose among.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TurnChoice {
    /// `gogui` in GoGui mode, `all` otherwise.
    #[default]
    Auto,
    /// Every legal turn.
    All,
    /// The turns GoGui can show: one stone of the mover's colour, a pass
    /// or the swap.
    Gogui,
}

impl TurnChoice {
    pub fn parse(text: &str) -> Option<TurnChoice> {
        match text.to_ascii_lowercase().as_str() {
            "auto" => Some(TurnChoice::Auto),
            "all" => Some(TurnChoice::All),
            "gogui" => Some(TurnChoice::Gogui),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TurnChoice::Auto => "auto",
            TurnChoice::All => "all",
            TurnChoice::Gogui => "gogui",
        }
    }
}

impl Default for Params {
    fn default() -> Self {
        Params {
            engine: EngineConfig {
                params: SearchParams {
                    seed: 1,
                    ..SearchParams::default()
                },
                time: Some(Duration::from_secs(5)),
                visits: Visits::Auto,
            },
            ponder: false,
            resign: 0.0,
            turns: TurnChoice::Auto,
            time_use: TimeUse::Full,
        }
    }
}

/// Thinks about positions: the tree search, with its tree kept between
/// moves of one game.
pub struct Thinker {
    engine: Engine,
    params: SearchParams,
    /// The tree was grown under a filter, which only shapes the nodes it
    /// expands: it cannot be reused by a search with another filter.
    filtered: bool,
}

impl Thinker {
    pub fn new(params: &SearchParams) -> Thinker {
        let params = params.clone();
        Thinker {
            engine: Engine::new(params.clone()),
            params,
            filtered: false,
        }
    }

    pub fn set_params(&mut self, params: &SearchParams) {
        self.params = params.clone();
        self.engine.set_params(self.params.clone());
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
        self.think_filtered(record, limits, stop, progress, None)
    }

    /// As [`Thinker::think`], with the root's turns limited by `filter`.
    /// A filtered search starts from a fresh tree, and so does the first
    /// search after one.
    pub fn think_filtered(
        &mut self,
        record: &GameRecord,
        limits: &Limits,
        stop: &StopFlag,
        progress: Progress,
        filter: Option<Arc<MoveFilter>>,
    ) -> Report {
        if record.is_over() {
            return Report::default();
        }
        if filter.is_some() || self.filtered {
            self.engine.clear();
        }
        self.filtered = filter.is_some();
        self.engine.set_params(SearchParams {
            filter,
            ..self.params.clone()
        });
        self.engine.set_position(record);
        let report = self.engine.search(limits, stop, progress);
        self.engine.set_params(self.params.clone());
        report
    }
}
