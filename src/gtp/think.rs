//! The protocol's view of the search: one call that thinks about a game
//! record within limits, can be stopped, and reports progress.
//!
//! Values here are always the win probability (0..1) of the seat to move.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::Game;
use crate::moves::{Colour, Turn};
use crate::random::{below, rng_from_seed};
use crate::record::GameRecord;

/// A flag that stops a running search; clones share the flag.
#[derive(Clone, Default, Debug)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst)
    }
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
    pub fn reset(&self) {
        self.0.store(false, Ordering::SeqCst)
    }
}

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
}

impl Default for Params {
    fn default() -> Self {
        Params {
            threads: 1,
            visits: 200_000,
            time: 5.0,
            memory_mb: 1024,
            seed: 1,
            ponder: false,
            resign: 0.0,
        }
    }
}

/// A progress callback and how often to call it.
pub type Progress<'a> = Option<(&'a mut dyn FnMut(&Report), Duration)>;

/// Limits of one search; `None` = no limit of that kind.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub visits: Option<u64>,
    pub time: Option<Duration>,
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

/// Thinks about positions. Until the tree search is wired in this is a flat
/// Monte Carlo evaluation of (a sample of) the legal turns.
pub struct Thinker {
    params: Params,
}

/// Most turns the flat evaluation considers.
const MAX_CANDIDATES: usize = 96;

impl Thinker {
    pub fn new(params: &Params) -> Thinker {
        Thinker {
            params: params.clone(),
        }
    }

    pub fn set_params(&mut self, params: &Params) {
        self.params = params.clone();
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {}

    /// Searches the current position of `record` for the seat to move.
    pub fn think(
        &mut self,
        record: &GameRecord,
        limits: &Limits,
        stop: &StopFlag,
        mut progress: Progress,
    ) -> Report {
        let start = Instant::now();
        let pos = record.position();
        if record.is_over() {
            return Report::default();
        }
        let mover = pos.to_move();
        let mut rng = rng_from_seed(self.params.seed ^ record.moves().len() as u64);
        let mut turns = pos.legal_turns();
        // A random sample when there are too many turns to try them all.
        for i in 0..turns.len().min(MAX_CANDIDATES) {
            let j = i + below(&mut rng, (turns.len() - i) as u32) as usize;
            turns.swap(i, j);
        }
        turns.truncate(MAX_CANDIDATES);
        let mut stats: Vec<(u64, u64)> = vec![(0, 0); turns.len()];
        let mut visits = 0u64;
        let mut last_report = Instant::now();
        let report = |stats: &[(u64, u64)], visits: u64| {
            let mut cands: Vec<Candidate> = turns
                .iter()
                .zip(stats)
                .filter(|(_, s)| s.0 > 0)
                .map(|(t, s)| Candidate {
                    turn: *t,
                    visits: s.0,
                    winrate: s.1 as f64 / s.0 as f64,
                    prior: None,
                    pv: vec![*t],
                    proven: None,
                })
                .collect();
            cands.sort_by(|a, b| {
                b.winrate
                    .total_cmp(&a.winrate)
                    .then(b.visits.cmp(&a.visits))
            });
            let wins: u64 = stats.iter().map(|s| s.1).sum();
            Report {
                best: cands.first().map(|c| c.turn).or(turns.first().copied()),
                root_visits: visits,
                winrate: if visits > 0 {
                    wins as f64 / visits as f64
                } else {
                    0.5
                },
                candidates: cands,
                elapsed: start.elapsed(),
            }
        };
        while !turns.is_empty() && !stop.is_stopped() {
            if limits.visits.is_some_and(|v| visits >= v)
                || limits.time.is_some_and(|t| start.elapsed() >= t)
            {
                break;
            }
            let i = (visits % turns.len() as u64) as usize;
            let turn = turns[i];
            let won = crate::with_game!(pos, g => {
                let mut next = g.clone();
                if next.play_turn(&turn).is_err() {
                    false
                } else if next.is_over() {
                    next.winner() == Some(mover)
                } else {
                    next.playout(&mut rng) == mover
                }
            });
            stats[i].0 += 1;
            stats[i].1 += won as u64;
            visits += 1;
            if let Some((f, every)) = progress.as_mut()
                && last_report.elapsed() >= *every
            {
                f(&report(&stats, visits));
                last_report = Instant::now();
            }
        }
        report(&stats, visits)
    }
}
