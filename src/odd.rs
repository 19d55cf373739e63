//! Odd: one stone of either colour per turn until the hex-hex board is full;
//! Black wins if the number of groups of at least `min_group` stones is odd.
//!
//! The result depends only on the final colouring, and every (cell, colour)
//! is always legal, so a uniformly random playout is an independent fair coin
//! per empty cell: a few random words and one bitboard group count.

use crate::bitboard::Bitboard;
use crate::game::{Game, GameKind, GameSpec, SetupError};
use crate::moves::{Action, Colour, Stone};
use crate::random::{Rng, next_u64};
use crate::tables::BoardTables;
use crate::topology::{Cell, Topology};

#[derive(Clone)]
pub struct OddGame<const W: usize> {
    spec: GameSpec,
    tables: &'static BoardTables<W>,
    stones: [Bitboard<W>; 2],
    empty: Bitboard<W>,
    min_group: u32,
    to_move: Colour,
    turns: u32,
}

impl<const W: usize> OddGame<W> {
    /// Number of groups of `stones` with at least `min` stones.
    #[inline]
    fn count_large_groups(&self, stones: &Bitboard<W>) -> u32 {
        let t = self.tables;
        // A stone with no neighbour of its colour is a group of one.
        let mut rest = if self.min_group > 1 {
            *stones & t.expand(stones)
        } else {
            *stones
        };
        let mut count = 0;
        while rest.any() {
            let group = t.flood(rest.lowest_bit(), stones);
            if group.count() >= self.min_group {
                count += 1;
            }
            rest = rest.and_not(&group);
        }
        count
    }

    /// Black wins on a full board: labels the groups with a union-find in
    /// one pass over the cells (each cell joins its same-coloured neighbours
    /// of lower index), counting groups as they reach the minimum size. On a
    /// random colouring this is cheaper than flood fills.
    fn black_wins_full_board(&self) -> bool {
        // Padding entries of `earlier_neighbours` point at `NO_CELL`, whose
        // colour matches nothing.
        const NONE: u8 = 2;
        let mut colour = [NONE; LABELS];
        let mut parent = [0u16; LABELS];
        let mut size = [0u16; LABELS];
        let black = &self.stones[0];
        let cells = self.tables.topo.cells();
        for &cell in cells {
            let i = cell.index();
            colour[i & LABEL_MASK] = u8::from(!black.get(i));
        }
        let min = self.min_group as u16;
        let mut large = 0i32;
        for &cell in cells {
            let i = cell.index();
            let own = colour[i & LABEL_MASK];
            let mut root = usize::MAX;
            for &nb in &self.tables.earlier_neighbours[i] {
                let nb = nb as usize;
                if colour[nb & LABEL_MASK] != own {
                    continue;
                }
                let r = find(&mut parent, nb);
                if root == usize::MAX {
                    // Join the first group found: the trees stay shallow.
                    root = r;
                    parent[i & LABEL_MASK] = r as u16;
                    size[r & LABEL_MASK] += 1;
                    large += i32::from(size[r & LABEL_MASK] == min);
                } else if r != root {
                    let (big, small) = if size[r & LABEL_MASK] > size[root & LABEL_MASK] {
                        (r & LABEL_MASK, root & LABEL_MASK)
                    } else {
                        (root & LABEL_MASK, r & LABEL_MASK)
                    };
                    let (sb, ss) = (size[big], size[small]);
                    large +=
                        i32::from(sb + ss >= min) - i32::from(sb >= min) - i32::from(ss >= min);
                    parent[small] = big as u16;
                    size[big] = sb + ss;
                    root = big;
                }
            }
            if root == usize::MAX {
                parent[i & LABEL_MASK] = i as u16;
                size[i & LABEL_MASK] = 1;
                large += i32::from(min <= 1);
            }
        }
        large % 2 == 1
    }

    fn black_wins(&self) -> bool {
        (self.count_large_groups(&self.stones[0]) + self.count_large_groups(&self.stones[1])) & 1
            == 1
    }
}

/// Size of the labelling arrays: a power of two above every cell index, so
/// that masking an index proves it in bounds.
const LABELS: usize = 1024;
const LABEL_MASK: usize = LABELS - 1;

/// Union-find root with path halving.
#[inline(always)]
fn find(parent: &mut [u16; LABELS], mut i: usize) -> usize {
    loop {
        let p = parent[i & LABEL_MASK] as usize;
        if p == i {
            return i;
        }
        let gp = parent[p & LABEL_MASK];
        parent[i & LABEL_MASK] = gp;
        i = gp as usize;
    }
}

impl<const W: usize> Game for OddGame<W> {
    fn new(spec: &GameSpec) -> Self {
        assert_eq!(spec.kind, GameKind::Odd);
        let tables = BoardTables::<W>::get(spec.topology());
        OddGame {
            spec: *spec,
            tables,
            stones: [Bitboard::EMPTY; 2],
            empty: tables.on_board,
            min_group: spec.min_group() as u32,
            to_move: Colour::Black,
            turns: 0,
        }
    }

    fn from_setup(spec: &GameSpec, stones: &[Stone], to_move: Colour) -> Result<Self, SetupError> {
        let mut g = Self::new(spec);
        for s in stones {
            if !g.tables.topo.is_on_board(s.cell) {
                return Err(SetupError::Forbidden(s.cell));
            }
            if !g.empty.get(s.cell.index()) {
                return Err(SetupError::Duplicate(s.cell));
            }
            g.apply(s.action());
        }
        g.to_move = to_move;
        Ok(g)
    }

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn topology(&self) -> &'static Topology {
        self.tables.topo
    }

    fn to_move(&self) -> Colour {
        self.to_move
    }

    fn set_to_move(&mut self, seat: Colour) {
        debug_assert!(!self.mid_turn());
        self.to_move = seat;
    }

    fn is_over(&self) -> bool {
        self.empty.is_empty()
    }

    fn winner(&self) -> Option<Colour> {
        self.is_over().then(|| {
            if self.black_wins() {
                Colour::Black
            } else {
                Colour::White
            }
        })
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        for cell in self.empty.iter() {
            for c in Colour::BOTH {
                out.push(Action::stone(Cell(cell as u16), c));
            }
        }
    }

    fn is_legal(&self, a: Action) -> bool {
        a.is_stone() && self.empty.get(a.cell().index())
    }

    fn apply(&mut self, a: Action) {
        debug_assert!(self.is_legal(a), "illegal action {a:?}");
        let cell = a.cell().index();
        self.stones[a.colour().index()].set(cell);
        self.empty.clear(cell);
        self.turns += 1;
        self.to_move = self.to_move.opposite();
    }

    fn playout(&mut self, rng: &mut Rng) -> Colour {
        for k in 0..W {
            let coin = next_u64(rng);
            self.stones[0].0[k] |= self.empty.0[k] & coin;
            self.stones[1].0[k] |= self.empty.0[k] & !coin;
        }
        self.turns += self.empty.count();
        if self.empty.count() % 2 == 1 {
            self.to_move = self.to_move.opposite();
        }
        self.empty = Bitboard::EMPTY;
        if self.black_wins_full_board() {
            Colour::Black
        } else {
            Colour::White
        }
    }

    fn stone_at(&self, cell: Cell) -> Option<Colour> {
        Colour::BOTH
            .into_iter()
            .find(|c| self.stones[c.index()].get(cell.index()))
    }

    fn group_counts(&self) -> [u32; 2] {
        [
            self.count_large_groups(&self.stones[0]),
            self.count_large_groups(&self.stones[1]),
        ]
    }

    fn check_consistency(&self) -> Result<(), String> {
        let occupied = self.stones[0] | self.stones[1];
        if self.stones[0].intersects(&self.stones[1]) {
            return Err("a cell holds two stones".into());
        }
        if self.empty != self.tables.on_board.and_not(&occupied) {
            return Err("the empty set differs from a recount".into());
        }
        Ok(())
    }

    fn turns_played(&self) -> u32 {
        self.turns
    }
}
