//! Perfect endgames: before searching a position with few empty points, the
//! engine asks the exact solver ([`oddity_solver`]) for its value, within a
//! share of the search's time or visits.
//!
//! - Won: the search is skipped and the cheapest winning turn is played
//!   (its proof is the smallest, so the win comes soon), every later
//!   position of the game is proven again at once from the solver's table,
//!   and the win is converted.
//! - Lost: the tree search chooses among the turns with the rest of the
//!   time, as usual, so that the engine plays the turn its model of the
//!   opponent finds hardest to answer instead of giving up; the report says
//!   the loss is proven.
//! - Not proven within the share: the tree search takes the rest.
//!
//! With at most `endgame_table` empty points (Xodd, Yodd and Odd, where the
//! empty points and the groups next to them are at most 64) the solver values every position that can follow
//! instead of searching ([`oddity_solver::retrograde`]): 3^empty positions,
//! a cost known in advance (Odd: about 20 ms for 16 empty points, 65 ms for
//! 17) that df-pn cannot promise, taken when it fits in most of the move's
//! time.

use std::time::Duration;

use web_time::Instant;

use crate::knowledge::Resolved;
use crate::limits::{Limits, StopFlag};
use crate::report::{Candidate, Report};
use oddity_rules::{AnyGame, Colour, GameKind};
use oddity_solver::{Solution, SolveLimits, Solver, SolverParams, Value, solve_retrograde};

/// Solver expansions per visit of the search, for searches limited by
/// visits alone: an expansion costs about as much as an iteration.
const NODES_PER_VISIT: u64 = 2;
/// The share of a move's time a retrograde table may take: it answers
/// exactly, so a won position needs no search at all, and a lost one is
/// searched with the rest.
const TABLE_SHARE: f64 = 0.8;
/// Expansions for a search without limits (pondering, analysis until
/// stopped).
const UNLIMITED_NODES: u64 = 2_000_000;

/// The solver of one engine, with its table kept for the whole game.
pub struct Endgame {
    solver: Solver,
    /// Threads for the retrograde tables, made when first needed (in a
    /// browser the page's pool is used).
    #[cfg(not(target_family = "wasm"))]
    pool: Option<(usize, rayon::ThreadPool)>,
    /// The most memory a retrograde table may take (the engine's).
    memory_mb: usize,
}

impl Endgame {
    pub fn new(memory_mb: usize) -> Endgame {
        Endgame {
            solver: Solver::new(SolverParams {
                memory_mb: (memory_mb / 4).clamp(1, 256),
                ..SolverParams::default()
            }),
            #[cfg(not(target_family = "wasm"))]
            pool: None,
            memory_mb,
        }
    }

    /// Forgets what was proven (a new game).
    pub fn clear(&mut self) {
        self.solver.clear();
    }

    /// Solves `game` with `threads` threads within `limits` (see
    /// [`Solver::solve`]), with the table kept for the game.
    pub fn solve(
        &mut self,
        game: &AnyGame,
        threads: usize,
        classify: bool,
        limits: &SolveLimits,
        stop: &StopFlag,
    ) -> Solution {
        let params = SolverParams {
            threads: threads.max(1),
            ..*self.solver.params()
        };
        self.solver.set_params(params);
        let solution = self.solver.solve(game, classify, limits, stop.flag(), None);
        self.solver.set_params(SolverParams {
            threads: 1,
            ..params
        });
        solution
    }

    /// The solution of `game` when the solver proves its value within its
    /// share of `limits` (or by a retrograde table, with `threads`
    /// threads); `None` when the position is too large or it is not proven
    /// in time.
    pub fn attempt(
        &mut self,
        game: &AnyGame,
        settings: &Resolved,
        limits: &Limits,
        stop: &StopFlag,
        threads: usize,
    ) -> Option<Solution> {
        let empty = game.empty_points();
        if !settings.endgame || empty > settings.endgame_empty.max(settings.endgame_table) as usize
        {
            return None;
        }
        let time = limits.soft_time.or(limits.time);
        if empty <= settings.endgame_table as usize
            && time.is_none_or(|t| table_cost(game.kind(), empty) <= t.mul_f64(TABLE_SHARE))
            && let Some(solution) = self.table(game, threads)
        {
            return Some(solution);
        }
        if empty > settings.endgame_empty as usize {
            return None;
        }
        let share = f64::from(settings.endgame_share);
        let budget = SolveLimits {
            time: time.map(|t| t.mul_f64(share)),
            nodes: match (time, limits.visits) {
                (_, Some(v)) => Some(((v as f64 * share) as u64).max(1) * NODES_PER_VISIT),
                (None, None) => Some(UNLIMITED_NODES),
                (Some(_), None) => None,
            },
        };
        let solution = self.solver.solve(game, false, &budget, stop.flag(), None);
        solution.value.map(|_| solution)
    }

    /// The exact solution of `game` from a retrograde table, when the
    /// position is one a table can hold.
    #[cfg(not(target_family = "wasm"))]
    fn table(&mut self, game: &AnyGame, threads: usize) -> Option<Solution> {
        let threads = threads.max(1);
        if self.pool.as_ref().is_none_or(|(n, _)| *n != threads) {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()?;
            self.pool = Some((threads, pool));
        }
        let (_, pool) = self.pool.as_ref()?;
        pool.install(|| solve_retrograde(game, self.memory_mb))
            .ok()
            .map(|(solution, _)| solution)
    }

    /// [`Self::table`] in a browser: on rayon's global pool, the Web
    /// Workers the page started (or the calling thread alone).
    #[cfg(target_family = "wasm")]
    fn table(&mut self, game: &AnyGame, _threads: usize) -> Option<Solution> {
        solve_retrograde(game, self.memory_mb)
            .ok()
            .map(|(solution, _)| solution)
    }
}

/// About what a retrograde table of a position with `empty` empty points
/// takes on one thread (measured on Odd 4 and 5 positions, whose one-bit
/// table values 27 positions at a time, and on the whole Xodd 4 board,
/// where counting groups costs more): a table is built only where this
/// fits in [`TABLE_SHARE`] of the move's time.
fn table_cost(kind: GameKind, empty: usize) -> Duration {
    let picos_per_position: u64 = match kind {
        GameKind::Odd => 500,
        GameKind::Xodd | GameKind::Yodd | GameKind::Onyx => 80_000,
    };
    let positions = 3u64.saturating_pow(empty as u32);
    Duration::from_nanos(picos_per_position.saturating_mul(positions) / 1000)
}

/// The search's report for a position the solver proved won: the winning
/// turns first (cheapest proof first), then the others with their proven
/// values.
pub fn won_report(game: &AnyGame, s: &Solution, elapsed: Duration) -> Report {
    let mover = s.to_move;
    let winner = s.winner();
    let best = s.best_turn();
    let mut turns: Vec<_> = s.turns.iter().filter(|t| t.value.is_some()).collect();
    turns.sort_by_key(|t| (t.value != Some(Value::Win), t.work));
    let candidates = turns
        .into_iter()
        .map(|t| {
            let value = t.value.expect("kept only proven turns");
            let pv = if Some(t.turn) == best && s.pv.first() == Some(&t.turn) {
                s.pv.clone()
            } else {
                vec![t.turn]
            };
            Candidate {
                turn: t.turn,
                visits: 0,
                value: match value {
                    Value::Win => 1.0,
                    Value::Loss => 0.0,
                    Value::Neither => 0.5,
                },
                prior: None,
                pv_visits: vec![0; pv.len()],
                pv,
                proven: match value {
                    Value::Win => Some(mover),
                    Value::Loss => Some(mover.opposite()),
                    Value::Neither => None,
                },
                black_lead: None,
                final_stones: None,
            }
        })
        .collect();
    let _ = game;
    Report {
        best,
        root_visits: 0,
        root_value: 1.0,
        candidates,
        iterations: 0,
        nodes: 0,
        tree_full: false,
        elapsed,
        proven: winner,
        final_boards: None,
    }
}

/// Marks a search's report with a loss the solver proved: the root and
/// every turn are lost (the turns' order and visits stay the search's).
pub fn mark_lost(report: &mut Report, winner: Colour) {
    report.proven = Some(winner);
    report.root_value = 0.0;
    for c in &mut report.candidates {
        c.proven = Some(winner);
        c.value = 0.0;
    }
}

/// The limits left after `spent` of them went to the solver.
pub fn remaining(limits: &Limits, spent: Instant) -> Limits {
    let used = spent.elapsed();
    Limits {
        visits: limits.visits,
        time: limits.time.map(|t| t.saturating_sub(used)),
        soft_time: limits.soft_time.map(|t| t.saturating_sub(used)),
    }
}
