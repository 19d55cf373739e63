//! Balanced openings, so that the two games of a seat-swapped pair start
//! from a position neither seat is favoured in. Two ways to find them:
//! [`balanced`] searches short random openings long and keeps the ones whose
//! value is closest to even; [`searched_lines`] builds candidates turn by
//! turn with search, for [`super::opening_games`] to keep by how self-play
//! games from them end (the search's value can say even where the games do
//! not: Odd 5).

use serde::Serialize;

use super::schedule::{opening_rng, random_openings, random_stone_turn};
use oddity_rules::{AnyGame, GameRecord, GameSpec, ReplayError, Turn};
use oddity_search::{Engine, Limits, SearchParams, StopFlag};

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

/// Candidate openings of `plies` turns (duplicates dropped, sorted), built
/// turn by turn: each turn of the first player (the seat to move at the
/// start) is a legal turn drawn at random, each turn of the second player
/// is the search's choice after `limits` (one thread, so the lines are the
/// same on every run). The first player's edge, which the second player's
/// best answers leave to it, is thus spent on unchosen turns by differing
/// amounts, and self-play from the candidates finds the ones that are fair.
/// Only stone turns are played (no swap); a line ends early where the game
/// would end. `progress` is told of each line built.
pub fn searched_lines(
    spec: &GameSpec,
    plies: usize,
    count: usize,
    seed: u64,
    params: &SearchParams,
    limits: &Limits,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<Vec<String>>, ReplayError> {
    let start = AnyGame::new(spec);
    let first = start.to_move();
    let params = SearchParams {
        threads: 1,
        ..params.clone()
    };
    let mut lines = Vec::with_capacity(count);
    for k in 0..count {
        progress(k + 1, count);
        let mut rng = opening_rng(seed, k);
        let mut tokens: Vec<String> = Vec::new();
        let mut game = start.clone();
        for _ in 0..plies {
            let turn = if game.to_move() == first {
                let Some(turn) = random_stone_turn(&game, &mut rng) else {
                    break;
                };
                turn
            } else {
                let record = GameRecord::replay(start.clone(), &tokens)?;
                let mut engine = Engine::new(SearchParams {
                    seed: seed.wrapping_add(k as u64),
                    ..params.clone()
                });
                engine.set_position(&record);
                let report = engine.search(limits, &StopFlag::new(), None);
                match report
                    .candidates
                    .into_iter()
                    .map(|c| c.turn)
                    .find(|t| matches!(t, Turn::Stones(..)))
                {
                    Some(turn) => turn,
                    None => break,
                }
            };
            let mut next = game.clone();
            if next.play_turn(&turn).is_err() || next.is_over() {
                break;
            }
            tokens.push(game.token(&turn));
            game = next;
        }
        if !tokens.is_empty() {
            lines.push(tokens);
        }
    }
    lines.sort();
    lines.dedup();
    Ok(lines)
}
