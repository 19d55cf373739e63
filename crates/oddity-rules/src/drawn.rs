//! Playouts whose stones a policy draws: Xodd and Yodd
//! ([`crate::XoddYoddGame::playout_drawing`]) and Odd
//! ([`crate::OddGame::playout_drawing`]). The policy keeps a weight
//! for every stone (empty cell, colour) for the side to move, reads the
//! position through [`DrawnBoard`] and is told of every stone placed.

use crate::game::Game;
use crate::moves::Colour;
use crate::random::Rng;

/// What a drawing policy reads of the position: the game, and the groups
/// next to each empty cell (kept by the game in Xodd and Yodd, by the
/// playout in Odd).
pub trait DrawnBoard {
    /// The game the board is a position of.
    type Game: Game;
    /// The position.
    fn game(&self) -> &Self::Game;
    /// How many distinct groups of `colour` touch the empty `cell`.
    fn groups_next_to(&self, cell: usize, colour: Colour) -> u32;
}

/// The stone policy of a drawn playout on boards of type `B`.
pub trait StoneDraw<B: DrawnBoard> {
    /// Readies the weights for a playout from `board`.
    fn start(&mut self, board: &B);
    /// `board` has just had a stone of `colour` placed on `cell`.
    fn placed(&mut self, board: &B, cell: usize, colour: Colour);
    /// A stone drawn among all empty cells and both colours in proportion
    /// to [`StoneDraw::weight`] for the side to move; `None` when every
    /// weight is 0.
    fn draw(&self, board: &B, rng: &mut Rng) -> Option<(usize, Colour)>;
    /// The weight (at least 0) of a stone of `colour` on the empty `cell`
    /// for the side to move.
    fn weight(&self, board: &B, cell: usize, colour: Colour) -> f64;
}
