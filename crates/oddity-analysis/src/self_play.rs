//! Self-play training data: the default search plays itself from the start
//! position, and every position it searched is kept with the action it
//! chose, its root visits and the root's value (`docs/patterns.md`).
//!
//! Each game gets its own search seed, drawn from the plan's seed; the
//! first `sample_turns` turns of a game are drawn among the root
//! candidates in proportion to their visits, so the games spread out
//! (the recorded choice is still the search's). Each position is written
//! once its game is over, with the game's winner. With one thread and a
//! visit limit the data repeat exactly. Positions whose value the search
//! or the endgame solver proved are played but not kept: their choice is
//! the proof's, not the visits'.

use std::io::Write;
use std::time::Duration;

use crate::train_data::{
    Header, SELF_PLAY, Sample, action_token, first_action, moves_text, write_line,
};
use oddity_rules::{AnyGame, Colour, GameRecord, GameSpec, Rng, Turn};
use oddity_search::{Engine, Limits, Report, SearchParams, StopFlag};

/// How long each search runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Level {
    /// Iterations per search (repeatable with one thread).
    Visits(u64),
    /// Seconds per search.
    Seconds(f64),
}

impl Level {
    /// The level as the header's `level` says it.
    pub fn text(&self, threads: usize) -> String {
        match self {
            Level::Visits(n) => format!("visits={n} threads={threads}"),
            Level::Seconds(s) => format!("st={s} threads={threads}"),
        }
    }

    fn limits(&self) -> Limits {
        match *self {
            Level::Visits(n) => Limits {
                visits: Some(n),
                ..Limits::default()
            },
            Level::Seconds(s) => Limits {
                time: Some(Duration::from_secs_f64(s)),
                ..Limits::default()
            },
        }
    }
}

/// What to play.
#[derive(Clone, Debug)]
pub struct Plan {
    pub spec: GameSpec,
    pub level: Level,
    pub games: usize,
    /// Turns at the start of each game drawn in proportion to visits.
    pub sample_turns: usize,
    /// The engines' settings; each game's engine is seeded from a random
    /// number sequence started by `params.seed`.
    pub params: SearchParams,
}

/// Counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Played {
    pub games: usize,
    /// Positions written.
    pub positions: usize,
}

/// Plays the games, writing the header and one line per searched position
/// to `out`; `progress` is told after each position.
pub fn write(
    plan: &Plan,
    command: &str,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(Played),
) -> Result<Played, String> {
    let level = Some(plan.level.text(plan.params.threads));
    write_line(out, &Header::new(&plan.spec, SELF_PLAY, level, command))?;
    let mut rng = Rng::seeded(plan.params.seed);
    let mut counts = Played::default();
    let max_turns = 4 * plan.spec.topology().cells().len();
    for _ in 0..plan.games {
        let mut engine = Engine::new(SearchParams {
            seed: rng.next_u64(),
            ..plan.params.clone()
        });
        let mut record = GameRecord::new(AnyGame::new(&plan.spec));
        // Written once the game's winner is known.
        let mut samples = Vec::new();
        while !record.is_over() && record.moves().len() < max_turns {
            engine.set_position(&record);
            let report = engine.search(&plan.level.limits(), &StopFlag::new(), None);
            let Some(best) = report.best else { break };
            if let Some(sample) = sample_of(&record, &report, best) {
                samples.push(sample);
            }
            let turn = if record.moves().len() < plan.sample_turns {
                drawn_turn(&report, &mut rng).unwrap_or(best)
            } else {
                best
            };
            let seat = record.position().to_move();
            record
                .play(seat, turn)
                .map_err(|e| format!("the search chose an illegal turn: {e:?}"))?;
        }
        let winner = record.position().winner().map(|c| c.seat().to_string());
        for mut sample in samples {
            sample.winner.clone_from(&winner);
            write_line(out, &sample)?;
            counts.positions += 1;
        }
        counts.games += 1;
        progress(counts);
    }
    Ok(counts)
}

/// The line of a searched position: the search's choice and the visits of
/// each root candidate that has some; `None` when the position is proven
/// or the search made no visits.
fn sample_of(record: &GameRecord, report: &Report, best: Turn) -> Option<Sample> {
    if report.proven.is_some() {
        return None;
    }
    let position = record.position();
    let visits: Vec<(String, u64)> = report
        .candidates
        .iter()
        .filter(|c| c.visits > 0)
        .filter_map(|c| Some((action_token(position, first_action(&c.turn)?), c.visits)))
        .collect();
    if visits.is_empty() {
        return None;
    }
    let mover = report.root_value;
    let black = if position.to_move() == Colour::Black {
        mover
    } else {
        1.0 - mover
    };
    Some(Sample {
        moves: moves_text(record),
        wins: None,
        chosen: Some(action_token(position, first_action(&best)?)),
        visits: Some(visits),
        // Four decimals: finer than a search of a million visits tells.
        value: Some((black * 1e4).round() / 1e4),
        winner: None,
    })
}

/// A root candidate drawn in proportion to its visits.
fn drawn_turn(report: &Report, rng: &mut Rng) -> Option<Turn> {
    let total: u64 = report.candidates.iter().map(|c| c.visits).sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.next_u64() % total;
    for c in &report.candidates {
        if pick < c.visits {
            return Some(c.turn);
        }
        pick -= c.visits;
    }
    None
}
