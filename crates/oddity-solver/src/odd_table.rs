//! Odd's retrograde table: one bit per position, for its side to move,
//! valued 27 positions at a time.
//!
//! [`crate::retrograde::Retrograde`] keeps a byte per position with a bit
//! for each seat to move, as Xodd and Yodd need (their turns have states).
//! In Odd every turn is one stone, so the side to move follows from the
//! number of stones placed since the root: a position needs one bit, set
//! when its mover wins, and the mover wins when some child is lost for the
//! opponent.
//!
//! A position is one digit per empty cell of the root (0 empty, 1 black,
//! 2 white, over the same `Graph` as the byte table). The lowest
//! `LOW` (3) digits are written in base 4 inside one 64-bit word (bit
//! `l0 + 4 l1 + 16 l2`; the 37 bits with a digit 3 are unused), the others
//! in base 3 as the word's index. Every position of a word has the same
//! high digits, so a child through a high digit is the same bit of another
//! word, and the whole word takes it with one load and one OR; a child
//! through a low digit is the same word shifted. A word is valued in
//! `LOW` + 1 steps, the positions with the most low digits filled first
//! (their low children come later in no step), and the words from the
//! largest index down (every child through a high digit has a larger one).
//! The table takes `3^(empty - 3)` words: 12.75 MB for 16 empty cells,
//! where the byte table takes 43 MB.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::retrograde::{ExactTable, Graph, MAX_EMPTY, RetrogradeError, count_down};
use oddity_rules::{Colour, Game, GameKind, GameSpec};

/// Digits written inside a word.
const LOW: usize = 3;
/// High digits valued by one thread without splitting further.
const LEAF_DIGITS: usize = 8;

/// Whether the mover wins every position that can follow an Odd root.
pub struct OddTable {
    spec: GameSpec,
    graph: Graph,
    /// Digits inside a word: [`LOW`], or fewer when the root has fewer
    /// empty cells.
    low: usize,
    /// Per high digit h (digit `low + h`): 3^h, its step in word indices.
    powers: Vec<usize>,
    /// The side to move at the root.
    root_mover: Colour,
    min_group: u32,
    /// Per word index, bit `l0 + 4 l1 + 16 l2`: the mover of that
    /// position wins.
    words: Vec<AtomicU64>,
    /// The bit patterns of a word (see [`Masks`]).
    masks: Masks,
}

/// Bit patterns of a word for `low` low digits.
struct Masks {
    low: usize,
    /// Per number of low digits filled: the positions with that many.
    filled: [u64; LOW + 1],
    /// Per low digit: the positions where it is empty.
    empty: [u64; LOW],
    /// The positions whose low digits are all filled, with the stones they
    /// add (as the low digits' point bits, black and white).
    full: Vec<(u32, u64, u64)>,
}

impl Masks {
    /// Values the positions of a word with fewer than `low` low digits
    /// filled, given `value` for those with all filled and `wins_high`,
    /// the positions with a child through a high digit lost for its
    /// mover. `L` is `low` when it is [`LOW`] (the loops then unroll with
    /// constant shifts), 0 otherwise.
    #[inline(always)]
    fn fill_low<const L: usize>(&self, mut value: u64, wins_high: u64) -> u64 {
        let low = if L == 0 { self.low } else { L };
        for filled in (0..low).rev() {
            let lost = !value;
            let mut wins = wins_high;
            for j in 0..low {
                let shift = 1u32 << (2 * j);
                wins |= (lost >> shift | lost >> (2 * shift)) & self.empty[j];
            }
            value |= wins & self.filled[filled];
        }
        value
    }

    fn new(low: usize) -> Masks {
        let mut m = Masks {
            low,
            filled: [0; LOW + 1],
            empty: [0; LOW],
            full: Vec::new(),
        };
        for bit in 0..1u32 << (2 * low) {
            let digits: Vec<u32> = (0..low).map(|j| bit >> (2 * j) & 3).collect();
            if digits.contains(&3) {
                continue;
            }
            let filled = digits.iter().filter(|&&d| d != 0).count();
            m.filled[filled] |= 1 << bit;
            let (mut black, mut white) = (0u64, 0u64);
            for (j, &d) in digits.iter().enumerate() {
                match d {
                    0 => m.empty[j] |= 1 << bit,
                    1 => black |= 1 << j,
                    _ => white |= 1 << j,
                }
            }
            if filled == low {
                m.full.push((bit, black, white));
            }
        }
        m
    }
}

impl OddTable {
    /// Whether the table serves `kind`: a game of one stone per turn in
    /// which no stone is taken off (Odd).
    pub fn serves(kind: GameKind) -> bool {
        !kind.has_two_stone_turns() && !kind.has_captures()
    }

    /// Values every position that can follow the Odd position `root`,
    /// with up to `memory_mb` MiB; the sweep splits among the threads of
    /// the current rayon pool when `parallel`.
    pub fn build<G: Game>(
        root: &G,
        memory_mb: usize,
        parallel: bool,
    ) -> Result<OddTable, RetrogradeError> {
        if !Self::serves(root.spec().kind) {
            return Err(RetrogradeError::Game);
        }
        let graph = Graph::of(root)?;
        let empty = graph.free.len();
        debug_assert!(empty <= MAX_EMPTY);
        let low = empty.min(LOW);
        let words = 3usize.pow((empty - low) as u32);
        let needed_mb = (words * 8).div_ceil(1 << 20);
        if needed_mb > memory_mb {
            return Err(RetrogradeError::Memory {
                needed_mb,
                memory_mb,
            });
        }
        let table = OddTable {
            spec: *root.spec(),
            low,
            powers: (0..=empty - low).map(|i| 3usize.pow(i as u32)).collect(),
            root_mover: root.to_move(),
            min_group: root.spec().min_group() as u32,
            words: std::iter::repeat_with(|| AtomicU64::new(0))
                .take(words)
                .collect(),
            masks: Masks::new(low),
            graph,
        };
        let [black, white] = table.graph.fixed;
        table.sweep(empty - low, 0, black, white, parallel);
        Ok(table)
    }

    /// Positions valued.
    pub fn positions(&self) -> u64 {
        3u64.pow(self.graph.free.len() as u32)
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }

    /// Whether `seat` wins `game` with best play from both sides. `game`
    /// must follow this table's root: the same board, with the root's
    /// stones.
    pub fn wins<G: Game>(&self, game: &G, seat: Colour) -> bool {
        debug_assert_eq!(game.spec(), &self.spec);
        if let Some(w) = game.winner() {
            return w == seat;
        }
        let (mut word, mut bit, mut filled) = (0, 0, 0);
        for (d, &c) in self.graph.free.iter().enumerate() {
            let digit = match game.stone_at(c) {
                Some(Colour::Black) => 1,
                Some(Colour::White) => 2,
                None => continue,
            };
            filled += 1;
            if d < self.low {
                bit += digit << (2 * d);
            } else {
                word += digit * self.powers[d - self.low];
            }
        }
        let mover = game.to_move();
        debug_assert_eq!(
            mover,
            self.mover_after(filled),
            "a position that follows the root"
        );
        let mover_wins = self.words[word].load(Ordering::Relaxed) >> bit & 1 == 1;
        mover_wins == (seat == mover)
    }

    fn mover_after(&self, stones: usize) -> Colour {
        if stones.is_multiple_of(2) {
            self.root_mover
        } else {
            self.root_mover.opposite()
        }
    }

    /// Values the words `base + [0, 3^free)`, whose high digits from
    /// `free` up are fixed and give the stones `black`, `white`. Those
    /// whose digit `free - 1` is 2 and those where it is 1 never reach each
    /// other, so they are valued side by side, and those where it is 0
    /// after them.
    fn sweep(&self, free: usize, base: usize, black: u64, white: u64, parallel: bool) {
        if free <= LEAF_DIGITS {
            self.leaf(free, base, black, white);
            return;
        }
        let h = free - 1;
        let step = self.powers[h];
        let at = 1u64 << (self.low + h);
        if parallel {
            rayon::join(
                || self.sweep(h, base + 2 * step, black, white | at, true),
                || self.sweep(h, base + step, black | at, white, true),
            );
        } else {
            self.sweep(h, base + 2 * step, black, white | at, false);
            self.sweep(h, base + step, black | at, white, false);
        }
        self.sweep(h, base, black, white, parallel);
    }

    /// Values the words `base + [0, 3^free)` from the top down.
    fn leaf(&self, free: usize, base: usize, black: u64, white: u64) {
        let low = self.low;
        let points = self.graph.free.len();
        let high_free = ((1u64 << points) - 1) & !((1u64 << low) - 1);
        let m = &self.masks;
        // The full boards' mover, the same for all (every cell filled).
        let black_moves_at_full = self.mover_after(points) == Colour::Black;
        // The high digits as an odometer counting down from all 2s.
        let mut digits = [2u8; LEAF_DIGITS];
        let low_ones = ((1u64 << free) - 1) << low;
        let (mut b, mut w) = (black, white | low_ones);
        for index in (0..self.powers[free]).rev() {
            let word = base + index;
            let empty_high = high_free & !(b | w);
            // A child through a high digit: the same bit of a later word.
            let mut wins_high = 0u64;
            let mut e = empty_high;
            while e != 0 {
                let h = e.trailing_zeros() as usize - low;
                e &= e - 1;
                let step = self.powers[h];
                wins_high |= !self.words[word + step].load(Ordering::Relaxed);
                wins_high |= !self.words[word + 2 * step].load(Ordering::Relaxed);
            }
            let mut value = if empty_high == 0 {
                // The positions with every low digit filled are full boards.
                let mut full = 0u64;
                for &(bit, lb, lw) in &m.full {
                    let (fb, fw) = (b | lb, w | lw);
                    let large = self.graph.large_groups(fb, self.min_group)
                        + self.graph.large_groups(fw, self.min_group)
                        + self.graph.closed_large;
                    let black_wins = large % 2 == 1;
                    full |= u64::from(black_wins == black_moves_at_full) << bit;
                }
                full
            } else {
                wins_high & m.filled[low]
            };
            // Then the positions with fewer low digits filled: a child
            // through a low digit is the same word, shifted.
            if low == LOW {
                value = m.fill_low::<LOW>(value, wins_high);
            } else {
                value = m.fill_low::<0>(value, wins_high);
            }
            self.words[word].store(value, Ordering::Relaxed);
            count_down(&mut digits[..free], low, &mut b, &mut w);
        }
    }
}

impl ExactTable for OddTable {
    fn wins<G: Game>(&self, game: &G, seat: Colour) -> bool {
        OddTable::wins(self, game, seat)
    }

    fn positions(&self) -> u64 {
        OddTable::positions(self)
    }
}
