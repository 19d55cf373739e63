//! The search engine of any game: one tree for the current position, kept
//! from move to move, with the exact solver near the end.

use web_time::Instant;

use oddity_rules::{AnyGame, Colour, GameRecord, GameSpec, Turn};

use crate::endgame;
use crate::limits::{Limits, StopFlag};
use crate::params::SearchParams;
use crate::report::{Progress, Report};
use crate::searcher::{AnySearcher, Searcher};

/// The search engine: one tree for the current position, any game.
pub struct Engine {
    params: SearchParams,
    searcher: Option<Box<dyn AnySearcher>>,
    key: Option<RecordKey>,
    over: bool,
    /// The position searched.
    position: Option<AnyGame>,
    endgame: endgame::Endgame,
}

/// What identifies a record for tree reuse: its start and its moves.
#[derive(Clone, PartialEq)]
struct RecordKey {
    spec: GameSpec,
    start_to_move: Colour,
    start_turns: u32,
    start_stones: Vec<Option<Colour>>,
    moves: Vec<(Colour, Turn)>,
}

impl RecordKey {
    fn of(record: &GameRecord) -> RecordKey {
        let start = record.start();
        let topo = start.topology();
        RecordKey {
            spec: *start.spec(),
            start_to_move: start.to_move(),
            start_turns: start.turns_played(),
            start_stones: topo.cells().iter().map(|&c| start.stone_at(c)).collect(),
            moves: record.moves().to_vec(),
        }
    }

    fn same_start(&self, other: &RecordKey) -> bool {
        self.spec == other.spec
            && self.start_to_move == other.start_to_move
            && self.start_turns == other.start_turns
            && self.start_stones == other.start_stones
    }
}

impl Engine {
    /// An engine with `params` and no position yet.
    pub fn new(params: SearchParams) -> Engine {
        Engine {
            endgame: endgame::Endgame::new(params.memory_mb),
            params,
            searcher: None,
            key: None,
            over: false,
            position: None,
        }
    }

    /// The settings of the next search.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// New settings; they apply to the next search (a changed memory cap to
    /// the next tree).
    pub fn set_params(&mut self, p: SearchParams) {
        self.params = p;
    }

    /// Sets the position to search. When `record` extends the previous one
    /// (same start, previous moves as a prefix), the tree is re-rooted on the
    /// new position and keeps that subtree; otherwise it starts afresh.
    pub fn set_position(&mut self, record: &GameRecord) {
        let key = RecordKey::of(record);
        self.over = record.is_over();
        self.position = Some(record.position().clone());
        let reused = match (&self.key, &mut self.searcher) {
            (Some(old), Some(s)) if old.same_start(&key) && key.moves.starts_with(&old.moves) => {
                s.advance(&key.moves[old.moves.len()..], &self.params)
            }
            _ => false,
        };
        if !reused {
            let params = &self.params;
            let searcher: Box<dyn AnySearcher> = oddity_rules::with_game!(record.position(), g => Box::new(Searcher::new(g.clone(), params)));
            self.searcher = Some(searcher);
        }
        self.key = Some(key);
    }

    /// Searches the current position until a limit is reached or `stop` is
    /// set. `progress`, when given, is called with an interim report every
    /// interval. Returns at once (with `best` `None`) if the game is over.
    /// A small enough position goes to the exact solver first: a proven
    /// win is played from the proof, a proven loss searched as usual and
    /// reported as lost.
    pub fn search(&mut self, limits: &Limits, stop: &StopFlag, progress: Progress<'_>) -> Report {
        let (Some(s), Some(game)) = (&mut self.searcher, &self.position) else {
            return Report::default();
        };
        if self.over {
            return Report::default();
        }
        let start = Instant::now();
        let settings = self.params.tuning.resolve(game.kind(), self.params.policy);
        let solution = if self.params.filter.is_some() {
            None
        } else {
            self.endgame
                .attempt(game, &settings, limits, stop, self.params.threads)
        };
        if let Some(sol) = &solution
            && sol.value == Some(oddity_solver::Value::Win)
        {
            return endgame::won_report(game, sol, start.elapsed());
        }
        let rest = endgame::remaining(limits, start);
        let mut report = s.search(&self.params, &rest, stop, progress);
        if let Some(sol) = &solution
            && sol.value == Some(oddity_solver::Value::Loss)
            && let Some(winner) = sol.winner()
        {
            endgame::mark_lost(&mut report, winner);
        }
        report
    }

    /// Proves the value of the current position (and with `classify`,
    /// every turn's) with the exact solver, within `limits`.
    pub fn solve(
        &mut self,
        classify: bool,
        limits: &oddity_solver::SolveLimits,
        stop: &StopFlag,
    ) -> Option<oddity_solver::Solution> {
        let game = self.position.as_ref()?;
        Some(
            self.endgame
                .solve(game, self.params.threads, classify, limits, stop),
        )
    }

    /// The report of the current tree without searching (e.g. after a
    /// ponder search was stopped); `iterations` and `elapsed` are zero.
    pub fn report(&self) -> Report {
        match &self.searcher {
            Some(s) if !self.over => s.report(),
            _ => Report::default(),
        }
    }

    /// Drops the tree and what the solver proved (the position stays set).
    pub fn clear(&mut self) {
        if let Some(s) = &mut self.searcher {
            s.clear(&self.params);
        }
        self.endgame.clear();
    }

    /// Nodes in the current tree.
    pub fn nodes(&self) -> usize {
        self.searcher.as_ref().map_or(0, |s| s.nodes())
    }

    /// Visits of the current root.
    pub fn root_visits(&self) -> u64 {
        self.searcher.as_ref().map_or(0, |s| s.root_visits())
    }
}
