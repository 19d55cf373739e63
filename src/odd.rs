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

    fn black_wins(&self) -> bool {
        (self.count_large_groups(&self.stones[0]) + self.count_large_groups(&self.stones[1])) & 1
            == 1
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
        if self.black_wins() {
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
