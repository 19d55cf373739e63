//! Odd playouts whose last cells are played perfectly.
//!
//! A uniformly random playout fills the last cells of the board at random,
//! where in play the side that places the last stones decides them: of the
//! last cells whose colour changes the parity of the count, whoever fills
//! the last one chooses the result. [`OddGame::playout_ending_exactly`]
//! fills all but a few cells at random and plays those few perfectly for
//! both sides, so that a playout's result carries who holds the last
//! decisions. The few cells are valued from the groups next to them: the
//! board with those cells empty is counted once, and each of their
//! colourings changes that count only through the groups it joins.

use crate::bitboard::Bitboard;
use crate::game::Game;
use crate::moves::{Action, Colour};
use crate::odd::OddGame;
use crate::random::Rng;
use crate::topology::Cell;

/// The most cells an Odd playout plays perfectly at its end
/// ([`OddGame::playout_ending_exactly`]).
pub const MAX_EXACT_ENDING: u32 = 4;

/// The most groups next to the last cells: each of up to [`MAX_EXACT_ENDING`]
/// cells has at most 6 neighbours.
const MAX_GROUPS: usize = 6 * MAX_EXACT_ENDING as usize;
/// The last cells and the groups next to them.
const MAX_NODES: usize = MAX_EXACT_ENDING as usize + MAX_GROUPS;

impl<const W: usize> OddGame<W> {
    /// Fills the board with fair coins, as [`Game::playout`] does, except
    /// for the last `k` cells (at most [`MAX_EXACT_ENDING`], and one fewer when
    /// the number of cells to fill and `k` differ in parity, so that the
    /// side to move now also moves first among the last cells), which both
    /// sides then play perfectly ([`Self::end_exactly`]). Returns the
    /// winner. With `k` 0 this is [`Game::playout`].
    pub fn playout_ending_exactly(&mut self, rng: &mut Rng, k: u32) -> Colour {
        let empty = self.empty.count();
        let mut k = k.min(MAX_EXACT_ENDING).min(empty);
        if k > 0 && (empty - k) % 2 == 1 {
            k -= 1;
        }
        if k == 0 {
            return self.playout(rng);
        }
        // The last cells, drawn uniformly among the empty ones.
        let mut last = Bitboard::<W>::EMPTY;
        for left in (empty - k + 1..=empty).rev() {
            let cell = (self.empty.and_not(&last))
                .nth(rng.below(left))
                .expect("a cell drawn among those left");
            last.set(cell);
        }
        let fill = self.empty.and_not(&last);
        for w in 0..W {
            let coin = rng.next_u64();
            self.stones[0].0[w] |= fill.0[w] & coin;
            self.stones[1].0[w] |= fill.0[w] & !coin;
        }
        // An even number of stones: the side to move stays.
        self.turns += fill.count();
        self.empty = last;
        self.end_exactly()
    }

    /// Plays the game to its end perfectly for both sides and returns the
    /// winner: each mover in turn takes the first stone (in cell order,
    /// black before white) that keeps a win, or the first stone when none
    /// does. At most [`MAX_EXACT_ENDING`] cells may be empty.
    pub fn end_exactly(&mut self) -> Colour {
        let k = self.empty.count() as usize;
        assert!(k <= MAX_EXACT_ENDING as usize, "{k} empty cells");
        if k == 0 {
            return self.winner().expect("a full board has a winner");
        }
        let mut cells = [0usize; MAX_EXACT_ENDING as usize];
        for (j, cell) in self.empty.iter().enumerate() {
            cells[j] = cell;
        }
        let cells = &cells[..k];
        let black_wins = self.colourings(cells);
        // Perfect play over (filled, white) masks of the last cells.
        let mover = self.to_move;
        let (winner, white) = best(&black_wins, k, 0, 0, mover);
        for (j, &cell) in cells.iter().enumerate() {
            let colour = if white >> j & 1 == 1 {
                Colour::White
            } else {
                Colour::Black
            };
            self.apply(Action::stone(Cell(cell as u16), colour));
        }
        debug_assert_eq!(self.winner(), Some(winner));
        winner
    }

    /// For each colouring of `cells` (bit `j` set: cell `j` white), whether
    /// Black wins the board they complete. The board without them is
    /// counted once; a colouring changes the count only where a cell joins
    /// groups of its colour (or its colour's other cells).
    fn colourings(&self, cells: &[usize]) -> [bool; 1 << MAX_EXACT_ENDING] {
        let t = self.tables;
        let m = self.min_group;
        let k = cells.len();
        let base_odd = self.black_wins_full_board();
        // Nodes: the cells (bits 0..k), then the groups next to them. Per
        // node, the nodes next to it; per group, its stones.
        let mut next = [0u32; MAX_NODES];
        let mut stones = [0u32; MAX_NODES];
        let mut boards = [Bitboard::<W>::EMPTY; MAX_GROUPS];
        let (mut of_colour, mut large) = ([0u32; 2], 0u32);
        let mut nodes = k;
        for (j, &cell) in cells.iter().enumerate() {
            for &n in t.topo.neighbours(Cell(cell as u16)) {
                let n = n.index();
                let node = match cells.iter().position(|&c| c == n) {
                    Some(i) => i,
                    None => {
                        let c = usize::from(self.stones[1].get(n));
                        if !self.stones[c].get(n) {
                            continue;
                        }
                        match boards[..nodes - k].iter().position(|g| g.get(n)) {
                            Some(g) => k + g,
                            None => {
                                let mut seed = Bitboard::EMPTY;
                                seed.set(n);
                                let group = t.flood(seed, &self.stones[c]);
                                boards[nodes - k] = group;
                                stones[nodes] = group.count();
                                of_colour[c] |= 1 << nodes;
                                large |= u32::from(stones[nodes] >= m) << nodes;
                                nodes += 1;
                                nodes - 1
                            }
                        }
                    }
                };
                next[j] |= 1 << node;
                next[node] |= 1 << j;
            }
        }
        let cell_bits = (1u32 << k) - 1;
        let mut black_wins = [false; 1 << MAX_EXACT_ENDING];
        for (white, wins) in black_wins.iter_mut().enumerate().take(1 << k) {
            let white = white as u32;
            // Per colour: the cells of that colour, joined with each other
            // and with the groups of that colour they touch.
            let mut change = 0i32;
            for (colour, own) in [(0, !white & cell_bits), (1, white & cell_bits)] {
                let allowed = own | of_colour[colour];
                let mut left = own;
                while left != 0 {
                    // One component, grown from its lowest cell.
                    let mut part = left & left.wrapping_neg();
                    let mut frontier = part;
                    while frontier != 0 {
                        let mut reach = 0;
                        let mut f = frontier;
                        while f != 0 {
                            reach |= next[f.trailing_zeros() as usize];
                            f &= f - 1;
                        }
                        frontier = reach & allowed & !part;
                        part |= frontier;
                    }
                    left &= !part;
                    let mut size = (part & cell_bits).count_ones();
                    let mut g = part & !cell_bits;
                    while g != 0 {
                        size += stones[g.trailing_zeros() as usize];
                        g &= g - 1;
                    }
                    change += i32::from(size >= m) - (part & large).count_ones() as i32;
                }
            }
            *wins = base_odd ^ (change & 1 == 1);
        }
        black_wins
    }
}

/// Perfect play over the last `k` cells from the state `filled`, `white`
/// (bit `j`: cell `j` placed, and white) with `mover` to move: the winner
/// and the colouring its line ends with.
fn best(black_wins: &[bool], k: usize, filled: u32, white: u32, mover: Colour) -> (Colour, u32) {
    if filled == (1 << k) - 1 {
        let winner = if black_wins[white as usize] {
            Colour::Black
        } else {
            Colour::White
        };
        return (winner, white);
    }
    let mut fallback = None;
    for j in 0..k {
        if filled >> j & 1 == 1 {
            continue;
        }
        for c in 0..2 {
            let line = best(
                black_wins,
                k,
                filled | 1 << j,
                white | c << j,
                mover.opposite(),
            );
            if line.0 == mover {
                return line;
            }
            fallback.get_or_insert(line);
        }
    }
    fallback.expect("an empty cell to fill")
}
