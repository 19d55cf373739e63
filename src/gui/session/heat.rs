//! The heat map of an engine's analysis as the page draws it: one spot per
//! cell the candidates put a stone on.

use serde::Serialize;

use crate::engine::info::Candidate;
use crate::heat::{cell_heat, most_visits};
use crate::rules::moves::{Colour, Turn};
use crate::rules::position::AnyGame;

/// One cell of an analysis's heat map, as the page draws it
/// ([`cell_heat`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeatSpot {
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
