//! The features of a candidate action on any board ([`FeatureBoard`]):
//! Xodd, Yodd and Odd boards kept up to date as stones are placed
//! ([`super::grid`]), Onyx boards read from scratch ([`super::onyx`]:
//! captures remove stones). The groups and their values are
//! [`super::groups`]'s.

use oddity_rules::{Action, Cell, Colour, Game, Topology};

use super::grid::GridBoard;
use super::groups::{Features, group_sizes};
use super::onyx::{ONYX_RING, OnyxBoard};

/// A board's features: Onyx's read from scratch, the other games' kept up
/// to date as stones are placed.
#[derive(Clone)]
pub enum FeatureBoard {
    /// Xodd, Yodd and Odd: the board kept up to date as stones are placed.
    Grid(GridBoard),
    /// Onyx: the board read from scratch.
    Onyx(OnyxBoard),
}

impl FeatureBoard {
    /// The board of `game` from scratch; `last` are the last stones placed,
    /// newest first (at most two are kept).
    pub fn new<G: Game>(game: &G, last: &[Cell]) -> FeatureBoard {
        match GridBoard::new(game, last) {
            Some(b) => FeatureBoard::Grid(b),
            None => FeatureBoard::Onyx(OnyxBoard::new(game, last)),
        }
    }

    /// Reads `game` (of this board) from scratch, reusing the buffers.
    pub fn load<G: Game>(&mut self, game: &G, last: &[Cell]) {
        match self {
            FeatureBoard::Grid(b) => b.load(game, last),
            FeatureBoard::Onyx(b) => b.load(game, last),
        }
    }

    /// The board this is a feature board of.
    pub fn topology(&self) -> &'static Topology {
        match self {
            FeatureBoard::Grid(b) => b.topo,
            FeatureBoard::Onyx(b) => b.topology(),
        }
    }

    /// Digits of a `shape` code, as the weights file's `ring` says: the
    /// ring's points, and for Onyx the point's kind.
    pub fn ring(&self) -> usize {
        match self {
            FeatureBoard::Grid(b) => b.layout.len,
            FeatureBoard::Onyx(_) => ONYX_RING,
        }
    }

    /// The features of `action` (legal here) for `mover`.
    pub fn features(&self, action: Action, mover: Colour) -> Features {
        let specials = group_sizes(self.ring())[0] - 3;
        match self {
            FeatureBoard::Grid(b) => b.features(action, mover, specials),
            FeatureBoard::Onyx(b) => b.features(action, mover, specials),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::{DISTANCE, NONE};
    use oddity_rules::{AnyGame, GameKind, GameSpec, Rules, with_game};

    #[test]
    fn a_stone_that_joins_two_groups_says_so() {
        // Odd 3 (smallest counted group 3): two Black stones around the
        // centre that are not neighbours of each other, two groups of one.
        let spec = GameSpec::new(GameKind::Odd, 3, Rules::default()).unwrap();
        let game = AnyGame::new(&spec);
        let topo = game.topology();
        let centre = topo.cells()[topo.cell_count() / 2];
        let ring = topo.neighbours(centre);
        let (a, b) = (ring[0], ring[1]);
        let b = if topo.neighbours(a).contains(&b) {
            *ring
                .iter()
                .find(|&&n| n != a && !topo.neighbours(a).contains(&n))
                .unwrap()
        } else {
            b
        };
        let stones = [
            oddity_rules::Stone {
                cell: a,
                colour: Colour::Black,
            },
            oddity_rules::Stone {
                cell: b,
                colour: Colour::Black,
            },
        ];
        let game = AnyGame::from_setup(&spec, &stones, Colour::Black).unwrap();
        let f = with_game!(&game, g => FeatureBoard::new(g, &[b])
            .features(Action::stone(centre, Colour::Black), Colour::Black));
        // Joins 2 groups (mover's colour), touches none, makes a group of 3
        // (the smallest counted size), one step from the last stone.
        // The count goes from 0 to 1 (+1, value 3): odd, which Black wins.
        assert_eq!(f[1..6], [2 * 2 + 1, 1, 2 + 1, 3 * 2 + 1, 0]);
        let f = with_game!(&game, g => FeatureBoard::new(g, &[])
            .features(Action::stone(centre, Colour::White), Colour::Black));
        assert_eq!(f[1..6], [0, 2 * 2, 0, 2 * 2, DISTANCE - 1]);
        assert_eq!(f[6..], [NONE; 4]);
    }
}
