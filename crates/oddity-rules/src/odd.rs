//! Odd: one stone of either colour per turn until the hex-hex board is full;
//! Black wins if the number of groups of at least `min_group` stones is odd.
//!
//! The result depends only on the final colouring, and every (cell, colour)
//! is always legal, so a uniformly random playout is an independent fair coin
//! per empty cell: a few random words and one bitboard group count.

use crate::bitboard::Bitboard;
use crate::drawn::{DrawnBoard, StoneDraw};
use crate::forest::Forest;
use crate::game::{Game, GameSpec, Inconsistency, SetupError};
use crate::kind::GameKind;
use crate::moves::{Action, Colour, Stone};
use crate::random::Rng;
use crate::tables::BoardTables;
use crate::topology::{Cell, Topology};

#[derive(Clone)]
/// An Odd position with its rules. `W` is the bitboard width in 64-bit
/// words; it must hold every cell of the board (see
/// [`crate::width_for`]).
pub struct OddGame<const W: usize> {
    spec: GameSpec,
    pub(crate) tables: &'static BoardTables<W>,
    pub(crate) stones: [Bitboard<W>; 2],
    pub(crate) empty: Bitboard<W>,
    pub(crate) min_group: u32,
    pub(crate) to_move: Colour,
    pub(crate) turns: u32,
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

    /// Black wins on a full board (on any board: whether the groups of at
    /// least the smallest counted size among its stones are odd in
    /// number): labels the groups row by row. Each row
    /// of the index layout splits into runs of one colour (off-board cells
    /// belong to neither), a run is one node of a union-find, and it joins
    /// the runs of its colour it touches in the row below: on the hex-hex
    /// layout cell (x, y) touches (x - 1, y - 1) and (x, y - 1), so run
    /// `x..=z` touches columns `x - 1..=z` there. Groups are counted as they
    /// reach the minimum size. A random colouring has about half as many
    /// runs as cells, and each run costs a few word operations.
    pub(crate) fn black_wins_full_board(&self) -> bool {
        let s = self.tables.topo.stride;
        debug_assert!(s < 64 && s * s <= Bitboard::<W>::CAPACITY);
        let row_mask = (1u64 << s) - 1;
        let min = self.min_group.min(u32::from(u16::MAX)) as u16;
        // There are at most as many runs as cells: fewer than 64 * W.
        // Indices are reduced modulo the length only to drop bounds checks.
        let n = 64 * W;
        let mut parent = [[0u16; 64]; W];
        let mut size = [[0u16; 64]; W];
        let (parent, size) = (parent.as_flattened_mut(), size.as_flattened_mut());
        // Per colour and row parity: the run id at the first column of each
        // run of a row. The previous row's entries are read at its starts.
        let mut ids = [[[0u16; 64]; 2]; 2];
        let mut prev = [0u64; 2];
        let mut large = 0i32;
        let mut next = 0usize;
        for y in 0..s {
            for c in 0..2 {
                let cur = row_bits(&self.stones[c], y * s) & row_mask;
                let below = prev[c];
                prev[c] = cur;
                let below_starts = below & !(below << 1);
                let [even, odd] = &mut ids[c];
                let (this_ids, below_ids) = if y & 1 == 0 {
                    (even, &*odd)
                } else {
                    (odd, &*even)
                };
                let mut starts = cur & !(cur << 1);
                while starts != 0 {
                    let start = starts & starts.wrapping_neg();
                    starts ^= start;
                    let x = start.trailing_zeros();
                    // Adding the start bit carries through the run.
                    let run = cur & !cur.wrapping_add(start);
                    let len = (!(cur >> x)).trailing_zeros() as u16;
                    let id = next % n;
                    next += 1;
                    this_ids[x as usize & 63] = id as u16;
                    parent[id] = id as u16;
                    size[id] = len;
                    large += i32::from(len >= min);
                    let touch = (run | run >> 1) & below;
                    if touch == 0 {
                        continue;
                    }
                    // The run below that holds the lowest touched cell, and
                    // every run below that starts at a higher touched cell.
                    let low = touch & touch.wrapping_neg();
                    let upto = low | (low - 1);
                    let first = 63 - (below_starts & upto).leading_zeros();
                    let mut others = below_starts & touch & !upto;
                    let mut root = id;
                    let mut q = below_ids[first as usize & 63];
                    loop {
                        let r = find(parent, q as usize % n);
                        if r != root {
                            let (big, small) = if size[r] >= size[root] {
                                (r, root)
                            } else {
                                (root, r)
                            };
                            let (sb, ss) = (size[big], size[small]);
                            large += i32::from(sb + ss >= min)
                                - i32::from(sb >= min)
                                - i32::from(ss >= min);
                            parent[small] = big as u16;
                            size[big] = sb + ss;
                            root = big;
                        }
                        if others == 0 {
                            break;
                        }
                        q = below_ids[others.trailing_zeros() as usize & 63];
                        others &= others - 1;
                    }
                }
            }
        }
        large % 2 == 1
    }

    /// Fills the board with stones drawn by `policy` ([`StoneDraw`]) and
    /// returns the winner. Every stone is legal in Odd, so each is drawn in
    /// proportion to its weight among all the empty cells' stones; should
    /// every weight be 0, the rest of the board is filled as
    /// [`Game::playout`] does.
    pub fn playout_drawing<P: StoneDraw<GroupedOdd<W>>>(
        &mut self,
        rng: &mut Rng,
        policy: &mut P,
    ) -> Colour {
        let mut board = GroupedOdd::new(self.clone());
        policy.start(&board);
        while !board.game.is_over() {
            let Some((cell, c)) = policy.draw(&board, rng) else {
                break;
            };
            board.place(cell, c);
            policy.placed(&board, cell, c);
        }
        *self = board.game;
        if !self.is_over() {
            return self.playout(rng);
        }
        if self.black_wins_full_board() {
            Colour::Black
        } else {
            Colour::White
        }
    }

    fn black_wins(&self) -> bool {
        (self.count_large_groups(&self.stones[0]) + self.count_large_groups(&self.stones[1])) & 1
            == 1
    }
}

/// Union-find root with path halving, on a forest of `parent.len()` nodes.
#[inline(always)]
fn find(parent: &mut [u16], mut i: usize) -> usize {
    let n = parent.len();
    loop {
        let p = parent[i % n] as usize % n;
        if p == i {
            return i;
        }
        let gp = parent[p] as usize % n;
        parent[i % n] = gp as u16;
        i = gp;
    }
}

/// Bits `start..start + 64` of `b` (zero past its end) as one word.
#[inline(always)]
fn row_bits<const W: usize>(b: &Bitboard<W>, start: usize) -> u64 {
    let (k, shift) = (start >> 6, start & 63);
    let mut w = b.0[k] >> shift;
    if shift != 0 && k + 1 < W {
        w |= b.0[k + 1] << (64 - shift);
    }
    w
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
            let coin = rng.next_u64();
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

    fn stone_words(&self, colour: Colour) -> &[u64] {
        &self.stones[colour.index()].0
    }

    fn group_counts(&self) -> [u32; 2] {
        [
            self.count_large_groups(&self.stones[0]),
            self.count_large_groups(&self.stones[1]),
        ]
    }

    fn check_consistency(&self) -> Result<(), Inconsistency> {
        let occupied = self.stones[0] | self.stones[1];
        if self.stones[0].intersects(&self.stones[1]) {
            return Err(Inconsistency("a cell holds two stones".into()));
        }
        if self.empty != self.tables.on_board.and_not(&occupied) {
            return Err(Inconsistency("the empty set differs from a recount".into()));
        }
        Ok(())
    }

    fn turns_played(&self) -> u32 {
        self.turns
    }
}

/// An Odd position with its groups in a union-find, as the policy of
/// [`OddGame::playout_drawing`] reads it: the game itself keeps no groups
/// (its playouts count them once, on the full board).
#[derive(Clone)]
pub struct GroupedOdd<const W: usize> {
    game: OddGame<W>,
    /// The groups: a union-find over the occupied cells.
    forest: Forest<W>,
}

impl<const W: usize> GroupedOdd<W> {
    /// `game` with its groups found: every stone's parent is the lowest
    /// cell of its group.
    pub fn new(game: OddGame<W>) -> Self {
        let mut board = GroupedOdd {
            game,
            forest: Forest::new(),
        };
        for stones in board.game.stones {
            let mut rest = stones;
            while rest.any() {
                let group = board.game.tables.flood(rest.lowest_bit(), &stones);
                let mut cells = group.iter();
                let root = cells.next().expect("a group has a stone");
                board.forest.set_parent(root, root);
                for cell in cells {
                    board.forest.set_parent(cell, root);
                }
                rest = rest.and_not(&group);
            }
        }
        board
    }

    /// Plays a stone of `colour` on the empty `cell` and joins its groups:
    /// the stone hangs under the root of its first neighbouring group and
    /// the other groups' roots under that root, so trees stay shallow.
    pub fn place(&mut self, cell: usize, colour: Colour) {
        self.game.apply(Action::stone(Cell(cell as u16), colour));
        self.forest.set_parent(cell, cell);
        let stones = self.game.stones[colour.index()];
        let mut root = None;
        for &n in self.game.tables.topo.neighbours(Cell(cell as u16)) {
            if stones.get(n.index()) {
                let r = self.forest.find_compress(n.index());
                match root {
                    None => {
                        self.forest.set_parent(cell, r);
                        root = Some(r);
                    }
                    Some(root) if r != root => self.forest.set_parent(r, root),
                    Some(_) => {}
                }
            }
        }
    }
}

impl<const W: usize> DrawnBoard for GroupedOdd<W> {
    type Game = OddGame<W>;

    fn game(&self) -> &OddGame<W> {
        &self.game
    }

    #[inline]
    fn groups_next_to(&self, cell: usize, colour: Colour) -> u32 {
        let stones = &self.game.stones[colour.index()];
        let mut roots = [usize::MAX; 6];
        let mut k = 0;
        for &n in self.game.tables.topo.neighbours(Cell(cell as u16)) {
            if stones.get(n.index()) {
                let r = self.forest.find(n.index());
                if !roots[..k].contains(&r) {
                    roots[k % 6] = r;
                    k += 1;
                }
            }
        }
        k as u32
    }
}
