//! What the page draws over the board from an engine's analysis: the
//! candidates themselves, the heat map (one spot per cell the candidates
//! put a stone on) and, where a turn may be two stones, the best turns.

use serde::Serialize;

use oddity_render::heat::{cell_heat, most_visits};
use oddity_rules::{AnyGame, Colour, Turn};

/// One candidate turn of an engine's analysis.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Candidate {
    /// The turn, as a token.
    pub token: String,
    /// The search's visits of the turn.
    pub visits: u64,
    /// Win rate of the seat analysed, 0..1.
    pub winrate: f64,
    /// The line of play the engine expects, starting with the turn.
    pub pv: Vec<String>,
}

/// One cell of an analysis's heat map, as the page draws it
/// ([`cell_heat`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeatSpot {
    /// The cell's name.
    pub cell: String,
    /// The cell's visits as a share of the most visited cell's, 0..1.
    pub share: f64,
    /// `B` or `W`: the colour most of those visits put here, where a
    /// stone's colour is free (not in Onyx).
    pub colour: Option<char>,
    /// The place in the candidate list of the most visited candidate here.
    pub top: usize,
    /// That candidate's win rate for the seat analysed.
    pub winrate: f64,
}

/// The heat map of `candidates`, an analysis of `pos` for `seat`; tokens
/// that do not parse count nowhere.
pub fn heat_spots(pos: &AnyGame, seat: Colour, candidates: &[Candidate]) -> Vec<HeatSpot> {
    let topo = pos.topology();
    let turns = candidates.iter().filter_map(|c| {
        let turn = Turn::parse(&c.token, pos.kind(), topo, seat).ok()?;
        Some((turn, c.visits, c.winrate))
    });
    let heat = cell_heat(turns);
    let most = most_visits(&heat) as f64;
    let free_colour = pos.kind().colour_is_chosen();
    heat.iter()
        .map(|h| HeatSpot {
            cell: topo.name(h.cell).to_string(),
            share: h.visits as f64 / most,
            colour: free_colour.then(|| h.colour().letter()),
            top: h.top,
            winrate: h.winrate,
        })
        .collect()
}

/// One of the engine's best turns, drawn as a turn (its stones joined)
/// where a turn may be two stones.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BestTurn {
    /// The turn, as a token.
    pub token: String,
    /// Its stones: cell and colour (`B` or `W`).
    pub stones: Vec<(String, char)>,
    /// Its visits as a share of the most visited turn's, 0..1.
    pub share: f64,
    /// Its win rate for the seat analysed.
    pub winrate: f64,
}

/// Best turns drawn at most.
const BEST_TURNS: usize = 5;
/// A turn with fewer visits than this share of the best's is not drawn
/// as one of the best.
const BEST_SHARE: f64 = 0.05;

/// In games whose turns may be two stones (Xodd, Yodd): the most visited
/// candidates of `pos` for `seat`, best first, up to `BEST_TURNS`, those
/// with at least `BEST_SHARE` of the best's visits; none in other games
/// (a turn there is a cell, which the heat map shows).
pub fn best_turns(pos: &AnyGame, seat: Colour, candidates: &[Candidate]) -> Vec<BestTurn> {
    if !pos.kind().has_two_stone_turns() {
        return Vec::new();
    }
    let topo = pos.topology();
    let mut turns: Vec<(&Candidate, Turn)> = candidates
        .iter()
        .filter_map(|c| Some((c, Turn::parse(&c.token, pos.kind(), topo, seat).ok()?)))
        .filter(|(_, t)| matches!(t, Turn::Stones(..)))
        .collect();
    // Most visited first; the engine's order among equals.
    turns.sort_by_key(|(c, _)| std::cmp::Reverse(c.visits));
    let Some(most) = turns.first().map(|(c, _)| c.visits.max(1) as f64) else {
        return Vec::new();
    };
    turns
        .into_iter()
        .take(BEST_TURNS)
        .filter(|(c, _)| c.visits as f64 >= BEST_SHARE * most)
        .map(|(c, turn)| {
            let Turn::Stones(a, b) = turn else {
                unreachable!("only stones are kept")
            };
            BestTurn {
                token: c.token.clone(),
                stones: std::iter::once(a)
                    .chain(b)
                    .map(|s| (topo.name(s.cell).to_string(), s.colour.letter()))
                    .collect(),
                share: c.visits as f64 / most,
                winrate: c.winrate,
            }
        })
        .collect()
}

#[cfg(test)]
impl Candidate {
    /// A candidate with no line after it, for tests.
    pub(crate) fn bare(token: &str, visits: u64, winrate: f64) -> Candidate {
        Candidate {
            token: token.into(),
            visits,
            winrate,
            pv: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::{GameKind, GameSpec, Rules};

    /// The page draws the server's heat map: shares of the most visited
    /// cell, the majority colour where a stone's colour is free, and the
    /// most visited candidate per cell; unreadable tokens count nowhere.
    #[test]
    fn heat_spots_sum_the_candidates_per_cell() {
        let odd = AnyGame::new(&GameSpec::new(GameKind::Odd, 3, Rules::default()).unwrap());
        let candidates = [
            Candidate::bare("B:A1", 30, 0.6),
            Candidate::bare("W:A1", 20, 0.4),
            Candidate::bare("W:B2", 10, 0.7),
            Candidate::bare("Z9", 50, 0.9),
        ];
        let heat = heat_spots(&odd, Colour::Black, &candidates);
        let seen: Vec<_> = heat
            .iter()
            .map(|h| (h.cell.as_str(), h.share, h.colour, h.top, h.winrate))
            .collect();
        assert_eq!(
            seen,
            [
                ("A1", 1.0, Some('B'), 0, 0.6),
                ("B2", 0.2, Some('W'), 2, 0.7)
            ]
        );
        let onyx = AnyGame::new(&GameSpec::default_for(GameKind::Onyx));
        let heat = heat_spots(&onyx, Colour::Black, &[Candidate::bare("E5", 5, 0.5)]);
        assert_eq!(heat.len(), 1);
        assert_eq!((heat[0].share, heat[0].colour), (1.0, None));
    }

    /// Xodd's best turns are turns: both stones, most visited first, the
    /// rarely visited left out; Odd and Onyx have none (a turn is a cell).
    #[test]
    fn best_turns_are_whole_turns_most_visited_first() {
        let xodd = AnyGame::new(&GameSpec::new(GameKind::Xodd, 5, Rules::default()).unwrap());
        let candidates = [
            Candidate::bare("B:C3", 40, 0.5),
            Candidate::bare("W:A1,B:E5", 100, 0.6),
            Candidate::bare("Z99", 500, 0.9),
            Candidate::bare("B:B2", 4, 0.4),
            Candidate::bare("pass", 50, 0.3),
        ];
        let best = best_turns(&xodd, Colour::Black, &candidates);
        let seen: Vec<_> = best
            .iter()
            .map(|b| (b.token.as_str(), b.stones.clone(), b.share))
            .collect();
        assert_eq!(
            seen,
            [
                (
                    "W:A1,B:E5",
                    vec![("A1".to_string(), 'W'), ("E5".to_string(), 'B')],
                    1.0
                ),
                ("B:C3", vec![("C3".to_string(), 'B')], 0.4),
            ]
        );
        let odd = AnyGame::new(&GameSpec::new(GameKind::Odd, 3, Rules::default()).unwrap());
        assert!(best_turns(&odd, Colour::Black, &[Candidate::bare("B:A1", 5, 0.5)]).is_empty());
    }
}
