//! Per-cell heat: what a heat map shows of an analysis. The JSON answers'
//! `cells`, GoGui's `gfx` heat map, the GUI's overlay and the pictures all
//! shade cells from these numbers.

use std::collections::BTreeMap;

use oddity_rules::{Cell, Colour, Turn};

/// The candidates' search effort on one cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellHeat {
    /// The cell.
    pub cell: Cell,
    /// Visits of all candidate turns that put a stone here.
    pub visits: u64,
    /// Those of them that put a black stone here.
    pub black_visits: u64,
    /// The most visited of those turns (the first of equally visited
    /// ones): its place in the candidate list, its visits and win rate.
    pub top: usize,
    /// Its visits.
    pub top_visits: u64,
    /// Its win rate.
    pub winrate: f64,
}

impl CellHeat {
    /// The stone colour most of the visits put here (black on a tie).
    pub fn colour(&self) -> Colour {
        if 2 * self.black_visits >= self.visits {
            Colour::Black
        } else {
            Colour::White
        }
    }
}

/// The heat of each cell that a candidate puts a stone on, in cell order.
/// `candidates` are turns with their visits and win rates, best first; the
/// first of equally visited turns on a cell gives its win rate, so a cell
/// that no visit reached shows the win rate of its best candidate.
pub fn cell_heat(candidates: impl IntoIterator<Item = (Turn, u64, f64)>) -> Vec<CellHeat> {
    let mut by_cell: BTreeMap<Cell, CellHeat> = BTreeMap::new();
    for (order, (turn, visits, winrate)) in candidates.into_iter().enumerate() {
        let Turn::Stones(a, second) = turn else {
            continue;
        };
        for s in std::iter::once(a).chain(second) {
            let e = by_cell.entry(s.cell).or_insert(CellHeat {
                cell: s.cell,
                visits: 0,
                black_visits: 0,
                top: order,
                top_visits: visits,
                winrate,
            });
            if visits > e.top_visits {
                (e.top, e.top_visits, e.winrate) = (order, visits, winrate);
            }
            e.visits += visits;
            if s.colour == Colour::Black {
                e.black_visits += visits;
            }
        }
    }
    by_cell.into_values().collect()
}

/// The most visits on one cell (at least 1): heat is shown as a share of it.
pub fn most_visits(heat: &[CellHeat]) -> u64 {
    heat.iter().map(|h| h.visits).max().unwrap_or(0).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::Stone;

    fn stone(cell: u16, colour: Colour) -> Stone {
        Stone {
            cell: Cell(cell),
            colour,
        }
    }

    #[test]
    fn cells_add_up_their_candidates() {
        let (b, w) = (Colour::Black, Colour::White);
        let heat = cell_heat([
            (Turn::stones(stone(3, b), Some(stone(5, w))), 10, 0.6),
            (Turn::Pass, 8, 0.5),
            (Turn::stones(stone(5, b), None), 7, 0.7),
            (Turn::stones(stone(3, w), None), 10, 0.2),
            (Turn::stones(stone(1, w), None), 0, 0.4),
        ]);
        let cells: Vec<u16> = heat.iter().map(|h| h.cell.0).collect();
        assert_eq!(cells, [1, 3, 5]);
        let [one, three, five] = [heat[0], heat[1], heat[2]];
        assert_eq!((one.visits, one.top, one.winrate), (0, 4, 0.4));
        // Equal visits: the first candidate gives the win rate.
        assert_eq!((three.visits, three.black_visits, three.top), (20, 10, 0));
        assert_eq!((three.winrate, three.colour()), (0.6, Colour::Black));
        assert_eq!((five.visits, five.black_visits, five.top), (17, 7, 0));
        assert_eq!(five.colour(), Colour::White);
        assert_eq!(most_visits(&heat), 20);
        assert_eq!(most_visits(&[]), 1);
    }
}
