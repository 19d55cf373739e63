//! Accuracy against perfect play: how often the engine's choice in a
//! position that has a winning turn is a winning turn.
//!
//! Positions come from uniformly random games cut when a drawn number of
//! points is still empty, so that every stage of the game is sampled. The
//! exact solver proves each position's value; positions it cannot solve
//! within its budget, and positions whose mover has no winning turn, are
//! left out (and counted). Each engine configuration then searches the
//! position within the same limits, and the solver proves whether the
//! position after its choice is still won. A position with few enough
//! empty points is judged by a retrograde table of everything that can
//! follow it instead ([`oddity_solver::retrograde`]): exact, and for
//! positions past df-pn's reach, faster.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::Serialize;

use oddity_rules::{AnyGame, GameRecord, GameSpec, Rng, Turn, with_game};
use oddity_search::{Engine, Limits, SearchParams, StopFlag};
use oddity_solver::AnyTable;
use oddity_solver::retrograde::ExactTable;
use oddity_solver::{SolveLimits, Solver, SolverParams, Value};

/// A stage of the game: positions with `min..=max` empty points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Stage {
    pub min: usize,
    pub max: usize,
}

/// An engine configuration under test.
#[derive(Clone, Debug, PartialEq)]
pub struct Contender {
    pub name: String,
    pub params: SearchParams,
}

/// The positions to draw and how to judge them.
#[derive(Clone, Debug)]
pub struct Plan {
    pub spec: GameSpec,
    pub stages: Vec<Stage>,
    /// Positions drawn per stage (solved or not).
    pub positions: usize,
    /// The engines' limit per position.
    pub limits: Limits,
    /// The solver's budget per position.
    pub solve: SolveLimits,
    pub solver_memory_mb: usize,
    /// Positions with at most this many empty points are judged by a
    /// retrograde table (within `solver_memory_mb`); 0 for none.
    pub table_empty: usize,
    /// Keep only positions where the choice matters: some legal turn
    /// loses as well (judged by the position's retrograde table, so every
    /// stage must lie within `table_empty`).
    pub contested: bool,
    pub seed: u64,
}

/// One stage's figures for one contender.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Score {
    pub contender: String,
    /// Positions with a winning turn that the contender was asked about.
    pub positions: usize,
    /// How many times it chose a winning turn.
    pub correct: usize,
    pub share: f64,
    /// The 95% Wilson interval of the share.
    pub low: f64,
    pub high: f64,
}

/// A position where a contender chose a losing turn although a winning
/// one existed: enough to set it up again (`--moves`) and see the choice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Miss {
    pub contender: String,
    /// The turns from the start, as move tokens separated by spaces.
    pub moves: String,
    pub empty: usize,
    /// The losing turn chosen (`resign` when it gave up).
    pub choice: String,
}

impl Score {
    /// `correct` of `positions`, with the share's 95% Wilson interval.
    fn new(contender: &str, positions: usize, correct: usize) -> Score {
        let (low, high) = wilson(correct, positions);
        Score {
            contender: contender.to_string(),
            positions,
            correct,
            share: if positions > 0 {
                correct as f64 / positions as f64
            } else {
                0.0
            },
            low,
            high,
        }
    }
}

/// One stage's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StageResult {
    pub stage: Stage,
    /// Positions drawn.
    pub drawn: usize,
    /// Of those, not solved within the budget.
    pub unsolved: usize,
    /// Of those, solved as lost for the mover (no winning turn to find).
    pub lost: usize,
    /// Of those, won by every legal turn (left out when the plan keeps
    /// only contested positions).
    pub uncontested: usize,
    /// Won positions whose every contender's choice was judged.
    pub judged: usize,
    pub scores: Vec<Score>,
    /// Every judged choice that lost a won position.
    pub misses: Vec<Miss>,
}

/// The 95% Wilson score interval of `k` successes in `n`.
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (k as f64, n as f64);
    let z = 1.959_964;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    // At 0 and n the bound is exactly 0 or 1; rounding would leave a hair.
    let low = if k == 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if k == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// A position of `spec` from a random game, with about `empty` empty
/// points; `None` when the game ended first.
pub(crate) fn draw_position(spec: &GameSpec, empty: usize, rng: &mut Rng) -> Option<GameRecord> {
    let mut record = GameRecord::new(AnyGame::new(spec));
    while record.position().empty_points() > empty {
        let turns = record.position().legal_turns();
        if turns.is_empty() {
            return None;
        }
        let turn = turns[rng.below(turns.len() as u32) as usize];
        let mover = record.position().to_move();
        record.play(mover, turn).ok()?;
        if record.is_over() {
            return None;
        }
    }
    Some(record)
}

/// Runs the plan: `report` is told of every position judged (stage index,
/// the position's number in its stage).
pub fn measure(
    plan: &Plan,
    contenders: &[Contender],
    report: &mut dyn FnMut(usize, usize),
) -> Vec<StageResult> {
    let mut rng = Rng::seeded(plan.seed);
    let mut solver = Solver::new(SolverParams {
        memory_mb: plan.solver_memory_mb,
        ..SolverParams::default()
    });
    let mut results = Vec::new();
    for (k, stage) in plan.stages.iter().enumerate() {
        let mut scores: Vec<(usize, usize)> = vec![(0, 0); contenders.len()];
        let (mut unsolved, mut lost, mut uncontested, mut drawn) = (0, 0, 0, 0);
        let mut judged = 0;
        let mut misses = Vec::new();
        let mut attempts = 0;
        // Games that end before the stage (Onyx) are drawn again, within
        // reason.
        while drawn < plan.positions && attempts < 100 * plan.positions {
            attempts += 1;
            let span = stage.max - stage.min + 1;
            let empty = stage.min + rng.below(span as u32) as usize;
            let Some(record) = draw_position(&plan.spec, empty, &mut rng) else {
                continue;
            };
            drawn += 1;
            report(k, drawn);
            // Each position is solved afresh; the engines get no help from
            // this solver's table.
            solver.clear();
            let position = record.position();
            let table = (empty <= plan.table_empty)
                .then(|| {
                    with_game!(position, g => AnyTable::build(g, plan.solver_memory_mb, true)).ok()
                })
                .flatten();
            let value = match &table {
                Some(t) => Some(Value::of_win(
                    with_game!(position, g => t.wins(g, position.to_move())),
                )),
                None => {
                    let limits = &plan.solve;
                    solver
                        .solve(position, false, limits, &AtomicBool::new(false), None)
                        .value
                }
            };
            match value {
                None => {
                    unsolved += 1;
                    continue;
                }
                Some(Value::Win) => {}
                Some(_) => {
                    lost += 1;
                    continue;
                }
            }
            if plan.contested {
                match &table {
                    Some(t) if every_turn_wins(t, &record) => {
                        uncontested += 1;
                        continue;
                    }
                    Some(_) => {}
                    None => {
                        unsolved += 1;
                        continue;
                    }
                }
            }
            // Each choice is judged by solving the position after it.
            let mut verdicts: Vec<(Option<bool>, Option<Turn>)> = Vec::new();
            for contender in contenders {
                let mut engine = Engine::new(contender.params.clone());
                engine.set_position(&record);
                let choice = engine.search(&plan.limits, &StopFlag::new(), None).best;
                let verdict = match choice {
                    None | Some(Turn::Resign) => Some(false),
                    Some(turn) => judge(&mut solver, table.as_ref(), &record, turn, plan),
                };
                verdicts.push((verdict, choice));
            }
            if verdicts.iter().any(|(v, _)| v.is_none()) {
                unsolved += 1;
                continue;
            }
            judged += 1;
            for (c, (v, choice)) in verdicts.into_iter().enumerate() {
                scores[c].0 += 1;
                scores[c].1 += usize::from(v == Some(true));
                if v == Some(false) {
                    misses.push(miss(&contenders[c], &record, choice));
                }
            }
        }
        results.push(StageResult {
            stage: *stage,
            drawn,
            unsolved,
            lost,
            uncontested,
            judged,
            scores: contenders
                .iter()
                .zip(scores)
                .map(|(c, (n, k))| Score::new(&c.name, n, k))
                .collect(),
            misses,
        });
    }
    results
}

/// The record of a losing `choice` in `record`'s position.
fn miss(contender: &Contender, record: &GameRecord, choice: Option<Turn>) -> Miss {
    let game = record.start();
    let moves = record
        .moves()
        .iter()
        .map(|(_, t)| game.token(t))
        .collect::<Vec<_>>()
        .join(" ");
    Miss {
        contender: contender.name.clone(),
        moves,
        empty: record.position().empty_points(),
        choice: choice.map_or(String::from("resign"), |t| record.position().token(&t)),
    }
}

/// The stages taken together: every count summed, the shares and
/// intervals of the sums (the stages' positions are independent draws).
/// `None` without stages.
pub fn pooled(results: &[StageResult]) -> Option<StageResult> {
    let first = results.first()?;
    let stage = Stage {
        min: results.iter().map(|r| r.stage.min).min()?,
        max: results.iter().map(|r| r.stage.max).max()?,
    };
    let sum = |f: fn(&StageResult) -> usize| results.iter().map(f).sum::<usize>();
    let scores = first
        .scores
        .iter()
        .enumerate()
        .map(|(c, s)| {
            let n: usize = results.iter().map(|r| r.scores[c].positions).sum();
            let k: usize = results.iter().map(|r| r.scores[c].correct).sum();
            Score::new(&s.contender, n, k)
        })
        .collect();
    Some(StageResult {
        stage,
        drawn: sum(|r| r.drawn),
        unsolved: sum(|r| r.unsolved),
        lost: sum(|r| r.lost),
        uncontested: sum(|r| r.uncontested),
        judged: sum(|r| r.judged),
        scores,
        misses: results.iter().flat_map(|r| r.misses.clone()).collect(),
    })
}

/// Whether `turn` keeps the win in `record`'s position, from the
/// position's table or by solving the position after it; `None` when not
/// proven in the budget.
fn judge(
    solver: &mut Solver,
    table: Option<&AnyTable>,
    record: &GameRecord,
    turn: Turn,
    plan: &Plan,
) -> Option<bool> {
    let mover = record.position().to_move();
    let mut after = record.position().clone();
    after.play_turn(&turn).ok()?;
    if let Some(w) = after.winner() {
        return Some(w == mover);
    }
    if let Some(t) = table {
        return Some(with_game!(&after, g => t.wins(g, mover)));
    }
    let s = solver.solve(&after, false, &plan.solve, &AtomicBool::new(false), None);
    s.winner().map(|w| w == mover)
}

/// Whether every legal turn of `record`'s position keeps the mover's win,
/// by the position's retrograde table.
fn every_turn_wins(table: &AnyTable, record: &GameRecord) -> bool {
    let position = record.position();
    let mover = position.to_move();
    position.legal_turns().iter().all(|turn| {
        let mut after = position.clone();
        after.play_turn(turn).is_ok()
            && match after.winner() {
                Some(w) => w == mover,
                None => with_game!(&after, g => table.wins(g, mover)),
            }
    })
}

/// A solver budget that fits a command line's seconds.
pub fn solve_limits(seconds: f64) -> SolveLimits {
    SolveLimits {
        time: Some(Duration::from_secs_f64(seconds)),
        nodes: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_brackets_the_share() {
        let (lo, hi) = wilson(95, 100);
        assert!(lo < 0.95 && 0.95 < hi);
        assert!((lo - 0.888).abs() < 0.005 && (hi - 0.978).abs() < 0.005);
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson(10, 10);
        assert!(hi == 1.0 && lo > 0.65);
        assert_eq!(wilson(0, 10).0, 0.0);
    }

    #[test]
    fn pooled_stages_sum_their_counts() {
        let stage = |min, max, judged, correct| StageResult {
            stage: Stage { min, max },
            drawn: judged + 6,
            unsolved: 1,
            lost: 2,
            uncontested: 3,
            judged,
            scores: vec![Score {
                contender: "default".into(),
                positions: judged,
                correct,
                share: correct as f64 / judged as f64,
                low: 0.0,
                high: 1.0,
            }],
            misses: Vec::new(),
        };
        let all = pooled(&[stage(4, 8, 10, 9), stage(9, 12, 30, 30)]).unwrap();
        assert_eq!(all.stage, Stage { min: 4, max: 12 });
        assert_eq!(
            (
                all.drawn,
                all.unsolved,
                all.lost,
                all.uncontested,
                all.judged
            ),
            (52, 2, 4, 6, 40)
        );
        let s = &all.scores[0];
        assert_eq!((s.positions, s.correct), (40, 39));
        assert_eq!((s.low, s.high), wilson(39, 40));
        assert!(pooled(&[]).is_none());
    }
}
