//! Onyx playouts: uniformly random, answering the last stone
//! ([`OnyxGame::playout_answering`]), or drawn by a point policy
//! ([`OnyxGame::playout_drawing`], [`PointDraw`]).

use crate::bitboard::{Bitboard, select_in_word};
use crate::moves::Colour;
use crate::random::Rng;
use crate::topology::Cell;

use super::game::OnyxGame;

/// A playout that runs this many plies per board point stops (see
/// [`OnyxGame::playout`]).
const PLAYOUT_PLIES_PER_POINT: u32 = 4;

/// The point policy of [`OnyxGame::playout_drawing`]: a weight for every
/// playable point for the side to move, kept up to date as the playout
/// places and removes stones.
pub trait PointDraw<const W: usize> {
    /// Readies the weights for a playout from `game`.
    fn start(&mut self, game: &OnyxGame<W>);
    /// The stone on `point` has just changed (placed, captured or moved by
    /// the swap); `game` is the position after the whole move.
    fn changed(&mut self, game: &OnyxGame<W>, point: usize);
    /// A playable point of `game` drawn in proportion to its weight for the
    /// side to move; `None` when every weight is 0.
    fn draw(&mut self, game: &OnyxGame<W>, rng: &mut Rng) -> Option<usize>;
}

impl<const W: usize> OnyxGame<W> {
    /// The random playout of [`crate::Game::playout`], except that after each
    /// stone `answer` may choose the next point: it gets the position, the
    /// point of the last stone and the random generator, and returns a
    /// playable point or `None` for a random move.
    #[inline(always)]
    pub fn playout_answering(
        &mut self,
        rng: &mut Rng,
        mut answer: impl FnMut(&Self, Cell, &mut Rng) -> Option<Cell>,
    ) -> Colour {
        let cap = self.turns + PLAYOUT_PLIES_PER_POINT * self.topo().bits as u32;
        let mut last = None;
        while self.winner.is_none() {
            let points: u32 = self.playable_counts.iter().sum();
            let choices = points + u32::from(self.swap_from.is_some());
            if choices == 0 || self.turns >= cap {
                return Colour::BOTH[rng.below_precise(2) as usize];
            }
            let reply = last.and_then(|p| answer(self, Cell(p as u16), rng));
            let p = match reply {
                Some(p) => p.index(),
                None => {
                    let k = rng.below_precise(choices);
                    if k == points {
                        self.play_swap();
                        last = None;
                        continue;
                    }
                    select_bit_counted(&self.playable, &self.playable_counts, k)
                }
            };
            self.play_stone(p);
            last = Some(p);
        }
        self.winner.expect("the loop ends with a winner")
    }

    /// The random playout of [`crate::Game::playout`] with every stone's point
    /// drawn by `policy` instead of uniformly (uniformly where it draws
    /// none). The swap, while legal, keeps the random playout's chance: one
    /// in the playable points plus one. After each move `policy` hears of
    /// every point whose stone changed: the stone placed and the stones it
    /// captured, or the two points of the swap.
    pub fn playout_drawing(&mut self, rng: &mut Rng, policy: &mut impl PointDraw<W>) -> Colour {
        let cap = self.turns + PLAYOUT_PLIES_PER_POINT * self.topo().bits as u32;
        policy.start(self);
        while self.winner.is_none() {
            let points: u32 = self.playable_counts.iter().sum();
            let choices = points + u32::from(self.swap_from.is_some());
            if choices == 0 || self.turns >= cap {
                return Colour::BOTH[rng.below_precise(2) as usize];
            }
            if let Some(from) = self.swap_from
                && rng.below_precise(choices) == points
            {
                self.play_swap();
                policy.changed(self, from.index());
                policy.changed(self, self.topo().transpose(from).index());
                continue;
            }
            let p = match policy.draw(self, rng) {
                Some(p) => p,
                None => {
                    let k = rng.below_precise(points);
                    select_bit_counted(&self.playable, &self.playable_counts, k)
                }
            };
            debug_assert!(self.playable.get(p), "drew the unplayable point {p}");
            let them = self.to_move.opposite().index();
            let before = self.stones[them];
            self.play_stone(p);
            policy.changed(self, p);
            for q in before.and_not(&self.stones[them]).iter() {
                policy.changed(self, q);
            }
        }
        self.winner.expect("the loop ends with a winner")
    }
}

/// The index of the `k`-th set bit (0-based) of `board`, which has more than
/// `k` set bits.
#[cfg(test)]
fn select_bit<const W: usize>(board: &Bitboard<W>, k: u32) -> usize {
    select_bit_counted(board, &board.0.map(u64::count_ones), k)
}

/// The index of the `k`-th set bit (0-based) of `board`, which has more than
/// `k` set bits, given the popcount of each word of `board`. Branch-free: random playouts make every branch here a coin toss for the
/// predictor.
#[inline(always)]
fn select_bit_counted<const W: usize>(board: &Bitboard<W>, counts: &[u32; W], k: u32) -> usize {
    let (mut word, mut before, mut total) = (0, 0, 0);
    for &c in counts {
        total += c;
        let past = k >= total;
        word += usize::from(past);
        before = if past { total } else { before };
    }
    64 * word + select_in_word(board.0[word], k - before) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_matches_nth() {
        let mut rng = Rng::seeded(3);
        for _ in 0..1000 {
            let sparse = rng.next_u64() & rng.next_u64();
            let board = Bitboard::<3>([rng.next_u64(), sparse, u64::MAX]);
            for k in 0..board.count() {
                assert_eq!(Some(select_bit(&board, k)), board.nth(k));
            }
        }
    }
}
