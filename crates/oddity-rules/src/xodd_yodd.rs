//! Xodd (square board) and Yodd (hex-hex board): one implementation.
//!
//! Groups are kept incrementally in a union-find over cells, with the group
//! count per colour. A stone of colour c that touches k distinct c-groups
//! changes the total by 1 - k, so it flips the parity exactly when k is even.
//! Cells next to no c-stone (k = 0) are found with one bitboard operation:
//! `near[c]` holds every cell adjacent to a c-stone, and since nothing is ever
//! captured it only grows.
//!
//! Actions: a turn of two stones is played as two actions, the lower cell
//! first; a one-stone turn is the stone then [`Action::END_TURN`]. A first
//! stone is legal when the turn can be completed: it leaves the total odd, or
//! some higher cell takes a second stone that makes it odd.

use crate::bitboard::Bitboard;
use crate::drawn::{DrawnBoard, StoneDraw};
use crate::forest::Forest;
use crate::game::{Game, GameSpec, Inconsistency, PlayError, SetupError, TurnState};
use crate::kind::GameKind;
use crate::moves::{Action, Colour, Stone};
use crate::random::{Rng, random_bit};
use crate::tables::{BoardTables, RING_CELLS};
use crate::topology::{Cell, Topology};

/// Most cells of any board (bits of the widest bitboard).
const MAX_CELLS: usize = 640;

/// A number below `n` (as [`below`]: multiply-shift on the high half of a
/// random word) and a random colour (the word's lowest bit) from one word.
#[inline(always)]
fn draw(rng: &mut Rng, n: usize) -> (usize, Colour) {
    let r = rng.next_u64();
    let k = (((r >> 32) * n as u64) >> 32) as usize;
    let c = if r & 1 == 0 {
        Colour::Black
    } else {
        Colour::White
    };
    (k, c)
}

#[inline(always)]
fn random_colour(rng: &mut Rng) -> Colour {
    if rng.next_u64() & 1 == 0 {
        Colour::Black
    } else {
        Colour::White
    }
}

#[derive(Clone)]
/// An Xodd or Yodd position with its rules (the two games differ only in
/// the board). `W` is the bitboard width in 64-bit words; it must hold
/// every cell of the board (see [`crate::width_for`]).
pub struct XoddYoddGame<const W: usize> {
    spec: GameSpec,
    tables: &'static BoardTables<W>,
    stones: [Bitboard<W>; 2],
    /// Cells adjacent to at least one stone of each colour.
    near: [Bitboard<W>; 2],
    /// Per colour and cell: bit `j` set when ring slot `j` of the cell (see
    /// [`BoardTables::ring`]) holds a stone of that colour. Kept for every
    /// cell; only those of empty cells are read.
    ring_stones: [[[u8; 64]; W]; 2],
    /// The groups: a union-find over the occupied cells.
    forest: Forest<W>,
    groups: [u32; 2],
    to_move: Colour,
    /// The first stone of the turn in progress.
    first: Option<Action>,
    turns: u32,
    consecutive_passes: u8,
}

impl<const W: usize> XoddYoddGame<W> {
    #[inline(always)]
    /// The empty cells of the board.
    pub fn empty(&self) -> Bitboard<W> {
        self.tables.on_board & !(self.stones[0] | self.stones[1])
    }

    /// The ring slots (see [`BoardTables::ring`]) of `cell` that start a
    /// connected run of `c`-stones: each run lies in one `c`-group, so the
    /// groups next to `cell` are those of these slots. `cell` must be empty.
    #[inline(always)]
    fn piece_starts(&self, cell: usize, c: Colour) -> u32 {
        let m = u32::from(self.ring_stones[c.index()].as_flattened()[cell % (64 * W)]);
        let links = u32::from(self.tables.ring_links);
        // Bit j of `joined`: slot j continues the run of slot j - 1.
        let joined = m & ((m << 1 | m >> 5) & (links << 1 | links >> 5));
        let starts = m & !joined;
        // A closed ring of stones has no start: one piece.
        if starts == 0 {
            m & m.wrapping_neg()
        } else {
            starts
        }
    }

    /// Number of distinct `c`-groups adjacent to the empty `cell`.
    #[inline(always)]
    fn adjacent_groups(&self, cell: usize, c: Colour) -> u32 {
        let mut starts = self.piece_starts(cell, c);
        if starts & starts.wrapping_sub(1) == 0 {
            return starts.count_ones();
        }
        let ring = &self.tables.ring[cell % RING_CELLS];
        let mut roots = [usize::MAX; 4];
        let mut k = 0;
        while starts != 0 {
            let r = self
                .forest
                .find(ring[starts.trailing_zeros() as usize] as usize);
            starts &= starts - 1;
            if !roots[..k].contains(&r) {
                roots[k] = r;
                k += 1;
            }
        }
        k as u32
    }

    #[inline(always)]
    fn total_is_odd(&self) -> bool {
        (self.groups[0] + self.groups[1]) & 1 == 1
    }

    /// Whether placing `c` on `cell` flips the parity of the total.
    #[inline(always)]
    fn flips(&self, cell: usize, c: Colour) -> bool {
        self.adjacent_groups(cell, c) & 1 == 0
    }

    /// Empty cells where a stone of some colour touches no group of its
    /// colour: such a stone always flips the parity.
    #[inline(always)]
    fn free_cells(&self) -> Bitboard<W> {
        self.empty() & !(self.near[0] & self.near[1])
    }

    /// Places a stone: union-find, counts and `near` only. The stone joins
    /// the root of its first neighbouring group and any other neighbouring
    /// group's root hangs under that root, so trees stay shallow.
    #[inline(always)]
    fn place(&mut self, cell: usize, c: Colour) {
        let ci = c.index();
        let mut starts = self.piece_starts(cell, c);
        if starts == 0 {
            self.forest.set_parent(cell, cell);
            self.groups[ci] += 1;
        } else {
            let ring = &self.tables.ring[cell % RING_CELLS];
            let root = self
                .forest
                .find_compress(ring[starts.trailing_zeros() as usize] as usize);
            self.forest.set_parent(cell, root);
            starts &= starts - 1;
            while starts != 0 {
                let r = self
                    .forest
                    .find_compress(ring[starts.trailing_zeros() as usize] as usize);
                starts &= starts - 1;
                if r != root {
                    self.forest.set_parent(r, root);
                    self.groups[ci] -= 1;
                }
            }
        }
        self.stones[ci].set(cell);
        self.near[ci] |= self.tables.neighbours[cell];
        let ring = &self.tables.ring[cell % RING_CELLS];
        let seen = self.ring_stones[ci].as_flattened_mut();
        for (&q, &bit) in ring.iter().zip(&self.tables.ring_back_bit) {
            seen[q as usize % (64 * W)] |= bit;
        }
    }

    fn end_turn(&mut self) {
        self.first = None;
        self.turns += 1;
        self.to_move = self.to_move.opposite();
    }

    /// Whether some cell in `candidates` takes a stone that flips the parity
    /// once `first` has been placed.
    fn has_flipper_after(&self, first: Action, candidates: Bitboard<W>) -> bool {
        let cell = first.cell().index();
        // Cells not adjacent to `first` keep k = 0 for a colour they touch no stone of.
        let mut quick = self.free_cells() & candidates & !self.tables.neighbours[cell];
        quick.clear(cell);
        if quick.any() {
            return true;
        }
        let mut next = self.clone();
        next.place(cell, first.colour());
        (candidates & next.empty())
            .iter()
            .any(|b| next.flips(b, Colour::Black) || next.flips(b, Colour::White))
    }

    /// Whether `a` is legal as the first stone of a turn.
    fn first_stone_legal(&self, a: Action) -> bool {
        let cell = a.cell().index();
        if self.turns == 0 {
            return true;
        }
        let odd_after = self.total_is_odd() != self.flips(cell, a.colour());
        odd_after || self.has_flipper_after(a, self.tables.above[cell])
    }

    /// Writes the empty cells to `cells`; returns how many.
    fn fill_empty_list(&self, cells: &mut [u16; MAX_CELLS]) -> usize {
        let mut n = 0;
        for cell in self.empty().iter() {
            cells[n] = cell as u16;
            n += 1;
        }
        n
    }

    fn winner_by_groups(&self) -> Colour {
        if self.groups[0] < self.groups[1] {
            Colour::Black
        } else {
            Colour::White
        }
    }

    /// A random second stone that leaves the total odd, after `first` was
    /// placed; rejection sampling first, then an exact search.
    fn random_completion(&self, rng: &mut Rng) -> Option<(usize, Colour)> {
        let empty = self.empty();
        let need_flip = !self.total_is_odd();
        for _ in 0..8 {
            let cell = random_bit(&empty, rng)?;
            let c = random_colour(rng);
            if self.flips(cell, c) == need_flip {
                return Some((cell, c));
            }
        }
        if need_flip {
            let free = self.free_cells();
            if let Some(cell) = random_bit(&free, rng) {
                let c = if self.near[0].get(cell) {
                    Colour::White
                } else {
                    Colour::Black
                };
                return Some((cell, c));
            }
        }
        // Every (cell, colour) that completes the turn, uniformly: count
        // them, then walk to the chosen one (no allocation).
        let completes = |cell: usize, c: Colour| self.flips(cell, c) == need_flip;
        let mut options = 0u32;
        for cell in empty.iter() {
            for c in Colour::BOTH {
                options += u32::from(completes(cell, c));
            }
        }
        if options == 0 {
            return None;
        }
        let mut pick = rng.below(options);
        for cell in empty.iter() {
            for c in Colour::BOTH {
                if completes(cell, c) {
                    if pick == 0 {
                        return Some((cell, c));
                    }
                    pick -= 1;
                }
            }
        }
        unreachable!("the pick is below the count")
    }

    /// One random turn chosen exactly (slow: used when the fast path of
    /// `playout` finds no completion); false when no stone can be placed.
    fn random_turn_exact(&mut self, rng: &mut Rng) -> bool {
        let mut dead = [Bitboard::<W>::EMPTY; 2];
        loop {
            let alive = [self.empty() & !dead[0], self.empty() & !dead[1]];
            let (nb, nw) = (alive[0].count(), alive[1].count());
            if nb + nw == 0 {
                return false;
            }
            let r = rng.below(nb + nw);
            let (c, cell) = if r < nb {
                (Colour::Black, alive[0].nth(r))
            } else {
                (Colour::White, alive[1].nth(r - nb))
            };
            let cell = cell.expect("r is below the count");
            if self.turns == 0 || !self.flips(cell, c) {
                self.place(cell, c);
                self.end_turn();
                return true;
            }
            let a = Action::stone(Cell(cell as u16), c);
            if !self.has_flipper_after(a, self.tables.on_board) {
                dead[c.index()].set(cell);
                continue;
            }
            self.place(cell, c);
            let (cell2, c2) = self
                .random_completion(rng)
                .expect("has_flipper_after found one");
            self.place(cell2, c2);
            self.end_turn();
            return true;
        }
    }

    /// Random turns to the end, as [`Game::playout`], except that `choose`
    /// picks each stone's colour: it gets the mover, the colour drawn at
    /// random and, per stone colour, the change a stone of that colour
    /// would make to its colour's group count (`1 - k`), and returns the
    /// colour to try. The parity rule still decides whether the stone makes
    /// a turn alone or needs a second one. Returns the winner.
    #[inline]
    pub fn playout_choosing(
        &mut self,
        rng: &mut Rng,
        choose: &mut dyn FnMut(ColourChoice) -> Colour,
    ) -> Colour {
        self.playout_with::<true>(rng, choose)
    }

    /// Random turns to the end: the empty cells are drawn in random order
    /// (a lazy Fisher-Yates shuffle) with a colour each, drawn at random and
    /// then, when `PREFER`, passed through `prefer`. A stone that leaves the total odd
    /// is a turn by itself; one that makes it even is followed by the next
    /// drawn cell that takes a parity-flipping stone (of the preferred
    /// colour when both flip).
    #[inline(always)]
    fn playout_with<const PREFER: bool>(
        &mut self,
        rng: &mut Rng,
        prefer: &mut dyn FnMut(ColourChoice) -> Colour,
    ) -> Colour {
        if self.is_over() {
            return self.winner_by_groups();
        }
        if self.first.is_some() {
            if !self.total_is_odd() {
                let (cell, c) = self
                    .random_completion(rng)
                    .expect("a legal first stone has a completion");
                self.place(cell, c);
            }
            self.end_turn();
        }
        let mut cells = [0u16; MAX_CELLS];
        let mut n = self.fill_empty_list(&mut cells);
        let mut i = 0;
        while i < n {
            let (j, c) = draw(rng, n - i);
            cells.swap(i, i + j);
            let e = cells[i] as usize;
            // With a preference, both colours' neighbouring groups are
            // counted once and serve the choice and the parity test.
            let (c, flips) = if PREFER {
                let groups = Colour::BOTH.map(|k| self.adjacent_groups(e, k));
                let c = self.preferred(groups, c, prefer);
                (c, groups[c.index()] & 1 == 0)
            } else {
                (c, self.flips(e, c))
            };
            if self.turns == 0 || !flips {
                self.place(e, c);
                self.end_turn();
                i += 1;
                continue;
            }
            let mut guaranteed = self.free_cells() & !self.tables.neighbours[e];
            guaranteed.clear(e);
            let backup = guaranteed.is_empty().then(|| self.clone());
            self.place(e, c);
            let mut completed = false;
            for k in i + 1..n {
                let (j, c2) = draw(rng, n - k);
                cells.swap(k, k + j);
                let f = cells[k] as usize;
                let groups = Colour::BOTH.map(|k| self.adjacent_groups(f, k));
                let flips = |k: Colour| groups[k.index()] & 1 == 0;
                let c2 = match (flips(c2), flips(c2.opposite())) {
                    (true, true) if PREFER => self.preferred(groups, c2, prefer),
                    (true, _) => c2,
                    (false, true) => c2.opposite(),
                    (false, false) => continue,
                };
                self.place(f, c2);
                cells.swap(k, i + 1);
                completed = true;
                break;
            }
            if completed {
                self.end_turn();
                i += 2;
                continue;
            }
            *self = backup.expect("a free cell away from the first stone completes the turn");
            if !self.random_turn_exact(rng) {
                break;
            }
            // The cells not drawn yet, less those just filled, stay in the
            // list (their order does not matter: draws are uniform).
            let empty = self.empty();
            let mut kept = 0;
            for k in i..n {
                let cell = cells[k];
                if empty.get(cell as usize) {
                    cells[kept] = cell;
                    kept += 1;
                }
            }
            n = kept;
            i = 0;
        }
        self.winner_by_groups()
    }

    /// The colour `prefer` picks for a stone on an empty cell next to
    /// `groups[c]` groups of each colour `c`.
    #[inline(always)]
    fn preferred(
        &self,
        groups: [u32; 2],
        drawn: Colour,
        prefer: &mut dyn FnMut(ColourChoice) -> Colour,
    ) -> Colour {
        prefer(ColourChoice {
            mover: self.to_move,
            drawn,
            change: groups.map(|g| 1 - g as i32),
        })
    }
    /// Turns to the end with every stone drawn by `policy`, as
    /// [`StoneDraw`] says; returns the winner. A turn is one stone when it
    /// leaves the total odd, else that stone and a parity-flipping second
    /// one (as in [`Game::playout`], a turn never takes a second stone it
    /// does not need). Each stone is drawn in proportion to the policy's
    /// weight among the stones legal at that point: a first stone that
    /// leaves the total even must have a completion, a second stone must
    /// flip the parity. The playout ends when no stone is legal.
    pub fn playout_drawing<P: StoneDraw<Self>>(&mut self, rng: &mut Rng, policy: &mut P) -> Colour {
        if self.is_over() {
            return self.winner_by_groups();
        }
        policy.start(self);
        if self.first.is_some() {
            if !self.total_is_odd() {
                let (cell, c) = self
                    .drawn_stone(rng, policy, Self::flips)
                    .expect("a legal first stone has a completion");
                self.place_drawn(cell, c, policy);
            }
            self.end_turn();
        }
        while let Some((cell, c)) = self.drawn_stone(rng, policy, Self::first_stone_completes) {
            let alone = self.turns == 0 || !self.flips(cell, c);
            self.place_drawn(cell, c, policy);
            if !alone {
                let (cell, c) = self
                    .drawn_stone(rng, policy, Self::flips)
                    .expect("the first stone has a completion");
                self.place_drawn(cell, c, policy);
            }
            self.end_turn();
        }
        self.winner_by_groups()
    }

    /// Whether a stone of `c` on the empty `cell` can start a turn: it
    /// leaves the total odd, or some other cell then takes a stone that
    /// makes it odd (the two stones make a turn in either order).
    fn first_stone_completes(&self, cell: usize, c: Colour) -> bool {
        self.turns == 0
            || !self.flips(cell, c)
            || self.has_flipper_after(Action::stone(Cell(cell as u16), c), self.tables.on_board)
    }

    fn place_drawn<P: StoneDraw<Self>>(&mut self, cell: usize, c: Colour, policy: &mut P) {
        self.place(cell, c);
        policy.placed(self, cell, c);
    }

    /// A stone for which `legal` holds, drawn in proportion to `policy`'s
    /// weights among those stones: a few draws from all stones, rejecting
    /// the others, then an exact draw over the legal ones (together exactly
    /// the weights' distribution over the legal stones). `None` when no
    /// legal stone has weight.
    fn drawn_stone<P: StoneDraw<Self>>(
        &self,
        rng: &mut Rng,
        policy: &P,
        legal: impl Fn(&Self, usize, Colour) -> bool,
    ) -> Option<(usize, Colour)> {
        for _ in 0..DRAW_TRIES {
            let (cell, c) = policy.draw(self, rng)?;
            if legal(self, cell, c) {
                return Some((cell, c));
            }
        }
        let empty = self.empty();
        let stones = || {
            empty
                .iter()
                .flat_map(|cell| Colour::BOTH.map(|c| (cell, c)))
                .filter(|&(cell, c)| legal(self, cell, c))
        };
        let total: f64 = stones().map(|(cell, c)| policy.weight(self, cell, c)).sum();
        if total <= 0.0 {
            return None;
        }
        let mut r = unit_interval(rng) * total;
        let mut last = None;
        for (cell, c) in stones() {
            let w = policy.weight(self, cell, c);
            if w > 0.0 {
                if r < w {
                    return Some((cell, c));
                }
                r -= w;
                last = Some((cell, c));
            }
        }
        // Rounding left `r` past the last weight.
        last
    }
}

/// Draws of [`StoneDraw::draw`] tried before an exact draw over the legal
/// stones.
const DRAW_TRIES: usize = 8;

/// A number in `[0, 1)` from the top 53 bits of one draw.
#[inline(always)]
fn unit_interval(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// What [`XoddYoddGame::playout_choosing`] tells its colour chooser about a
/// stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColourChoice {
    /// The seat whose turn it is.
    pub mover: Colour,
    /// The colour drawn at random.
    pub drawn: Colour,
    /// Per stone colour (indexed by [`Colour::index`]): the change to that
    /// colour's group count if the stone has that colour.
    pub change: [i32; 2],
}

/// Xodd and Yodd keep their groups: a drawing policy reads them.
impl<const W: usize> DrawnBoard for XoddYoddGame<W> {
    type Game = Self;

    fn game(&self) -> &Self {
        self
    }

    /// A stone of `colour` on `cell` joins these groups (and flips the
    /// parity of the total exactly when their number is even).
    #[inline]
    fn groups_next_to(&self, cell: usize, colour: Colour) -> u32 {
        self.adjacent_groups(cell, colour)
    }
}

impl<const W: usize> Game for XoddYoddGame<W> {
    fn new(spec: &GameSpec) -> Self {
        assert!(matches!(spec.kind, GameKind::Xodd | GameKind::Yodd));
        let tables = BoardTables::<W>::get(spec.topology());
        XoddYoddGame {
            spec: *spec,
            tables,
            stones: [Bitboard::EMPTY; 2],
            near: [Bitboard::EMPTY; 2],
            ring_stones: [[[0; 64]; W]; 2],
            forest: Forest::new(),
            groups: [0; 2],
            to_move: Colour::Black,
            first: None,
            turns: 0,
            consecutive_passes: 0,
        }
    }

    fn from_setup(spec: &GameSpec, stones: &[Stone], to_move: Colour) -> Result<Self, SetupError> {
        let mut g = Self::new(spec);
        for s in stones {
            if !g.tables.topo.is_on_board(s.cell) {
                return Err(SetupError::Forbidden(s.cell));
            }
            if g.stone_at(s.cell).is_some() {
                return Err(SetupError::Duplicate(s.cell));
            }
            g.place(s.cell.index(), s.colour);
        }
        g.to_move = to_move;
        g.turns = u32::from(!stones.is_empty());
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

    fn mid_turn(&self) -> bool {
        self.first.is_some()
    }

    fn set_to_move(&mut self, seat: Colour) {
        debug_assert!(!self.mid_turn());
        self.to_move = seat;
    }

    fn is_over(&self) -> bool {
        self.consecutive_passes >= 2
    }

    fn winner(&self) -> Option<Colour> {
        self.is_over().then(|| self.winner_by_groups())
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.is_over() {
            return;
        }
        match self.first {
            None => {
                if self.turns > 0 && self.total_is_odd() {
                    out.push(Action::PASS);
                }
                for cell in self.empty().iter() {
                    for c in Colour::BOTH {
                        let a = Action::stone(Cell(cell as u16), c);
                        if self.first_stone_legal(a) {
                            out.push(a);
                        }
                    }
                }
            }
            Some(first) => {
                let odd = self.total_is_odd();
                if odd {
                    out.push(Action::END_TURN);
                }
                let later = self.empty() & self.tables.above[first.cell().index()];
                for cell in later.iter() {
                    for c in Colour::BOTH {
                        if self.flips(cell, c) != odd {
                            out.push(Action::stone(Cell(cell as u16), c));
                        }
                    }
                }
            }
        }
    }

    fn is_legal(&self, a: Action) -> bool {
        if self.is_over() {
            return false;
        }
        match (a, self.first) {
            (Action::PASS, None) => self.turns > 0 && self.total_is_odd(),
            (Action::END_TURN, Some(_)) => self.total_is_odd(),
            (a, first) if a.is_stone() => {
                let cell = a.cell().index();
                if !self.empty().get(cell) {
                    return false;
                }
                match first {
                    None => self.first_stone_legal(a),
                    Some(f) => {
                        cell > f.cell().index()
                            && self.flips(cell, a.colour()) != self.total_is_odd()
                    }
                }
            }
            _ => false,
        }
    }

    fn illegal_reason(&self, a: Action) -> Option<PlayError> {
        if self.is_over() {
            return Some(PlayError::GameOver);
        }
        if a.is_stone() && !self.empty().get(a.cell().index()) {
            return Some(PlayError::Occupied(a.cell()));
        }
        if self.is_legal(a) {
            return None;
        }
        Some(PlayError::Illegal(match (a, self.first) {
            (Action::PASS, None) if self.turns == 0 => "Black's first turn cannot pass",
            (a, Some(_)) if a.is_stone() => "these two stones leave an even number of groups",
            _ => "not a legal move here",
        }))
    }

    fn apply(&mut self, a: Action) {
        debug_assert!(self.is_legal(a), "illegal action {a:?}");
        match a {
            Action::PASS => {
                self.consecutive_passes += 1;
                self.end_turn();
            }
            Action::END_TURN => {
                self.consecutive_passes = 0;
                self.end_turn();
            }
            a => {
                self.place(a.cell().index(), a.colour());
                if self.first.is_some() || self.turns == 0 {
                    self.consecutive_passes = 0;
                    self.end_turn();
                } else {
                    self.first = Some(a);
                }
            }
        }
        #[cfg(debug_assertions)]
        if let Err(e) = self.check_consistency() {
            panic!("inconsistent state after {a:?}: {e}");
        }
    }

    fn playout(&mut self, rng: &mut Rng) -> Colour {
        self.playout_with::<false>(rng, &mut |choice| choice.drawn)
    }

    fn stone_at(&self, cell: Cell) -> Option<Colour> {
        Colour::BOTH
            .into_iter()
            .find(|c| self.stones[c.index()].get(cell.index()))
    }

    fn stone_words(&self, colour: Colour) -> &[u64] {
        &self.stones[colour.index()].0
    }

    fn turn_state(&self) -> TurnState {
        TurnState {
            flags: u8::from(self.turns == 0) | u8::from(self.consecutive_passes > 0) << 1,
            anchor: self.first.map(|a| a.cell()),
        }
    }

    fn group_counts(&self) -> [u32; 2] {
        self.groups
    }

    fn group_change(&self, action: Action) -> Option<i32> {
        let cell = action.cell().index();
        (action.is_stone() && self.empty().get(cell))
            .then(|| 1 - self.adjacent_groups(cell, action.colour()) as i32)
    }

    fn check_consistency(&self) -> Result<(), Inconsistency> {
        if self.stones[0].intersects(&self.stones[1]) {
            return Err(Inconsistency("a cell holds two stones".into()));
        }
        if (self.stones[0] | self.stones[1])
            .and_not(&self.tables.on_board)
            .any()
        {
            return Err(Inconsistency("a stone lies off the board".into()));
        }
        for c in Colour::BOTH {
            let own = self.stones[c.index()];
            let mut near = Bitboard::EMPTY;
            for cell in own.iter() {
                near |= self.tables.neighbours[cell];
            }
            if near != self.near[c.index()] {
                return Err(Inconsistency(format!("near[{c:?}] differs from a recount")));
            }
            for cell in self.empty().iter() {
                let ring = &self.tables.ring[cell % RING_CELLS];
                let mask = (0..6)
                    .filter(|&j| ring[j] as usize != cell && own.get(ring[j] as usize))
                    .fold(0u8, |m, j| m | 1 << j);
                if mask != self.ring_stones[c.index()][cell >> 6][cell & 63] {
                    return Err(Inconsistency(format!(
                        "{c:?} ring stones of cell {cell} differ"
                    )));
                }
            }
            let mut rest = own;
            let mut count = 0;
            while let Some(seed) = rest.lowest() {
                let group = self.tables.flood(rest.lowest_bit(), &own);
                let root = self.forest.find(seed);
                for cell in group.iter() {
                    if self.forest.find(cell) != root {
                        return Err(Inconsistency(format!(
                            "union-find splits the group of cell {seed}"
                        )));
                    }
                }
                rest = rest.and_not(&group);
                count += 1;
            }
            let roots = own.iter().filter(|&i| self.forest.find(i) == i).count() as u32;
            if roots != count || count != self.groups[c.index()] {
                return Err(Inconsistency(format!(
                    "{c:?}: {count} groups by flood fill, {roots} roots, {} counted",
                    self.groups[c.index()]
                )));
            }
        }
        Ok(())
    }

    fn turns_played(&self) -> u32 {
        self.turns
    }
}
