//! Balanced openings: short random openings, each searched long, and the
//! ones whose value is closest to even kept, so that the two games of a
//! seat-swapped pair start from a position neither seat is favoured in.

use serde::Serialize;

use super::schedule::random_openings;
use crate::rules::game::GameSpec;
use crate::rules::position::AnyGame;
use crate::rules::record::{GameRecord, ReplayError};
use crate::search::{Engine, Limits, SearchParams, StopFlag};

/// An opening and what the search found of it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Opening {
    pub moves: Vec<String>,
    /// Win rate of the side to move after the opening.
    pub value: f64,
    /// The seat that wins with best play, when the search proved it.
    pub proven: Option<&'static str>,
}

/// What to search for.
#[derive(Clone, Debug)]
pub struct Request {
    pub spec: GameSpec,
    /// Turns per opening.
    pub plies: usize,
    /// Random openings to search.
    pub candidates: usize,
    /// Openings to keep.
    pub keep: usize,
    pub seed: u64,
    pub params: SearchParams,
    pub limits: Limits,
}

/// Searches the request's random openings (duplicates dropped) and returns
/// the ones closest to even, closest first; openings the search proved won
/// for one side are left out. `progress` is told of each opening searched.
pub fn balanced(
    request: &Request,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<Opening>, ReplayError> {
    let Request {
        spec,
        plies,
        candidates,
        keep,
        seed,
        params,
        limits,
    } = request;
    let start = AnyGame::new(spec);
    let mut lines = random_openings(&start, *plies, *candidates, *seed);
    lines.sort();
    lines.dedup();
    let total = lines.len();
    let mut found = Vec::with_capacity(total);
    for (k, moves) in lines.into_iter().enumerate() {
        progress(k + 1, total);
        let record = GameRecord::replay(start.clone(), &moves)?;
        let mut engine = Engine::new(params.clone());
        engine.set_position(&record);
        let report = engine.search(limits, &StopFlag::new(), None);
        found.push(Opening {
            moves,
            value: report.root_value,
            proven: report.proven.map(|c| c.seat()),
        });
    }
    found.retain(|o| o.proven.is_none());
    found.sort_by(|a, b| {
        (a.value - 0.5)
            .abs()
            .total_cmp(&(b.value - 0.5).abs())
            .then_with(|| a.moves.cmp(&b.moves))
    });
    found.truncate(*keep);
    Ok(found)
}
