//! Onyx (`rules.md` section 4): a connection game on the Onyx board with
//! square captures, the midpoint restriction and the swap-pieces pie rule.
//!
//! Win detection is incremental. A disjoint-set forest over the cells links
//! every stone to its group, and each root records which of its colour's goal
//! edges the group touches. A placement only ever joins groups of the mover,
//! so the mover's forest stays exact; a capture removes opponent stones and
//! may split opponent groups, so the opponent's forest is marked stale and
//! rebuilt just before that colour next places a stone.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use rand_xoshiro::rand_core::Rng as _;

use crate::bitboard::Bitboard;
use crate::game::{Game, GameKind, GameSpec, PlayError, Rng, SetupError, SpecError};
use crate::moves::{Action, Colour, Stone};
use crate::tables::BoardTables;
use crate::topology::{Cell, Topology};

/// Edge flags of a group that touches both goal edges of its colour.
const BOTH_EDGES: u8 = 0b11;

/// A playout that runs this many plies per board point stops (see
/// [`OnyxGame::playout`]).
const PLAYOUT_PLIES_PER_POINT: u32 = 4;

/// One square as seen from one of its corners: what a stone placed on that
/// corner needs for a capture, and which points it blocks.
#[derive(Clone, Copy, Default)]
struct SquareView {
    midpoint: u16,
    /// The corner diagonally opposite the viewing corner.
    opposite: u16,
    /// The two corners a capture removes.
    sides: [u16; 2],
}

/// Rule tables of one Onyx board, shared by all games of that size and width.
struct OnyxTables<const W: usize> {
    board: &'static BoardTables<W>,
    /// Corner points are the cells `0..corner_count`; midpoints follow them.
    corner_count: usize,
    /// Per cell, per colour: the goal edges the cell lies on (bit 0: row 1 for
    /// Black, column A for White; bit 1: row n / column n). Midpoints: none.
    edges: Vec<[u8; 2]>,
    /// Per corner point, the squares it is a corner of: the first
    /// `square_count[p]` entries (0, 1 or 2) are valid.
    squares_at: Vec<[SquareView; 2]>,
    square_count: Vec<u8>,
}

impl<const W: usize> OnyxTables<W> {
    fn get(topo: &'static Topology) -> &'static Self {
        type Cache = HashMap<(usize, usize), &'static (dyn Any + Send + Sync)>;
        static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
        let mut cache = CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let entry = cache
            .entry((topo.size, W))
            .or_insert_with(|| Box::leak(Box::new(Self::build(topo))));
        entry.downcast_ref::<Self>().expect("cache keyed by width")
    }

    fn build(topo: &'static Topology) -> Self {
        let n = topo.size;
        let corner_count = n * n;
        let edges = (0..topo.bits)
            .map(|i| {
                if i >= corner_count {
                    return [0, 0];
                }
                let (col, row) = (i % n, i / n);
                let flags = |first: bool, last: bool| u8::from(first) | u8::from(last) << 1;
                [flags(row == 0, row == n - 1), flags(col == 0, col == n - 1)]
            })
            .collect();
        let mut squares_at = vec![[SquareView::default(); 2]; corner_count];
        let mut square_count = vec![0u8; corner_count];
        for sq in topo.squares() {
            for k in 0..4 {
                let p = sq.corners[k].index();
                squares_at[p][square_count[p] as usize] = SquareView {
                    midpoint: sq.midpoint.0,
                    opposite: sq.corners[(k + 2) % 4].0,
                    sides: [sq.corners[(k + 1) % 4].0, sq.corners[(k + 3) % 4].0],
                };
                square_count[p] += 1;
            }
        }
        OnyxTables {
            board: BoardTables::get(topo),
            corner_count,
            edges,
            squares_at,
            square_count,
        }
    }

    #[inline(always)]
    fn squares_at(&self, corner: usize) -> &[SquareView] {
        &self.squares_at[corner][..self.square_count[corner] as usize]
    }
}

/// Stone groups of both colours as one disjoint-set forest over the cells.
/// A group never mixes colours, so one colour's part can be rebuilt without
/// touching the other's. Entries of empty cells are meaningless.
#[derive(Clone)]
struct Groups<const W: usize> {
    parent: [[u16; 64]; W],
    /// At a root: the goal edges its group touches.
    edges: [[u8; 64]; W],
}

impl<const W: usize> Groups<W> {
    const EMPTY: Self = Groups {
        parent: [[0; 64]; W],
        edges: [[0; 64]; W],
    };

    #[inline(always)]
    fn make_set(&mut self, x: usize, edges: u8) {
        self.parent.as_flattened_mut()[x] = x as u16;
        self.edges.as_flattened_mut()[x] = edges;
    }

    /// The root of `x`, halving the path on the way.
    #[inline(always)]
    fn find(&mut self, mut x: usize) -> usize {
        let parent = self.parent.as_flattened_mut();
        while parent[x] as usize != x {
            let grandparent = parent[parent[x] as usize];
            parent[x] = grandparent;
            x = grandparent as usize;
        }
        x
    }

    /// The root of `x`, leaving the forest as it is.
    fn root(&self, mut x: usize) -> usize {
        let parent = self.parent.as_flattened();
        while parent[x] as usize != x {
            x = parent[x] as usize;
        }
        x
    }

    /// Joins the groups of `a` and `b`; false when they were one group already.
    #[inline(always)]
    fn union(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        self.parent.as_flattened_mut()[ra] = rb as u16;
        let edges = self.edges.as_flattened_mut();
        edges[rb] |= edges[ra];
        true
    }

    #[inline(always)]
    fn edges_of(&mut self, x: usize) -> u8 {
        let root = self.find(x);
        self.edges.as_flattened()[root]
    }
}

/// An Onyx position with its rules. `W` is the bitboard width in 64-bit
/// words; it must hold every point of the board (see
/// [`crate::game::width_for`]).
#[derive(Clone)]
pub struct OnyxGame<const W: usize> {
    spec: GameSpec,
    tables: &'static OnyxTables<W>,
    stones: [Bitboard<W>; 2],
    /// Points a stone may be placed on: empty corner points, and midpoints
    /// whose square is entirely empty.
    playable: Bitboard<W>,
    groups: Groups<W>,
    group_count: [u32; 2],
    /// Per colour: stones were removed since its groups were last rebuilt, so
    /// its part of `groups` and its `group_count` are out of date.
    stale: [bool; 2],
    to_move: Colour,
    turns: u32,
    winner: Option<Colour>,
    /// Black's first stone still to come in a game with the pie rule.
    pie_pending: bool,
    /// Black's first stone, while White may swap it.
    swap_from: Option<Cell>,
}

impl<const W: usize> OnyxGame<W> {
    /// A position with `stones` and no history; builds all derived state.
    fn with_stones(
        spec: &GameSpec,
        topo: &'static Topology,
        stones: &[Stone],
        to_move: Colour,
    ) -> Result<Self, SetupError> {
        assert_eq!(spec.kind, GameKind::Onyx, "OnyxGame needs an Onyx spec");
        let mut game = OnyxGame {
            spec: spec.clone(),
            tables: OnyxTables::get(topo),
            stones: [Bitboard::EMPTY; 2],
            playable: Bitboard::EMPTY,
            groups: Groups::EMPTY,
            group_count: [0; 2],
            stale: [true; 2],
            to_move,
            turns: 0,
            winner: None,
            pie_pending: false,
            swap_from: None,
        };
        for stone in stones {
            let i = stone.cell.index();
            if i >= topo.bits {
                return Err(SetupError::Forbidden(stone.cell));
            }
            if game.stone_at(stone.cell).is_some() {
                return Err(SetupError::Duplicate(stone.cell));
            }
            game.stones[stone.colour.index()].set(i);
        }
        game.playable = game.playable_from_scratch();
        for colour in Colour::BOTH {
            game.rebuild_groups(colour);
            let me = colour.index();
            if game.stones[me]
                .iter()
                .any(|s| game.groups.edges_of(s) == BOTH_EDGES)
            {
                game.winner = Some(colour);
            }
        }
        Ok(game)
    }

    /// The stones of the standard start (`rules.md` section 4).
    fn standard_stones(n: usize) -> Vec<Stone> {
        let point = |col: usize, row: usize| Cell(((row - 1) * n + col - 1) as u16);
        let (a, b) = (n / 2, n / 2 + 1);
        let black = [point(1, a), point(1, b), point(n, a), point(n, b)];
        let white = [point(a, 1), point(b, 1), point(a, n), point(b, n)];
        let stones = |cells: [Cell; 4], colour| cells.map(|cell| Stone { cell, colour });
        [stones(black, Colour::Black), stones(white, Colour::White)].concat()
    }

    #[inline(always)]
    fn topo(&self) -> &'static Topology {
        self.tables.board.topo
    }

    #[inline(always)]
    fn occupied(&self, i: usize) -> bool {
        self.stones[0].get(i) || self.stones[1].get(i)
    }

    /// Empty corner points and midpoints of entirely empty squares.
    fn playable_from_scratch(&self) -> Bitboard<W> {
        let empty = self.tables.board.on_board & !(self.stones[0] | self.stones[1]);
        let mut playable = empty & Bitboard::from_indices(0..self.tables.corner_count);
        for sq in self.topo().squares() {
            if sq
                .corners
                .iter()
                .chain([&sq.midpoint])
                .all(|c| empty.get(c.index()))
            {
                playable.set(sq.midpoint.index());
            }
        }
        playable
    }

    /// Rebuilds the groups of `colour` from its stones.
    fn rebuild_groups(&mut self, colour: Colour) {
        let me = colour.index();
        let own = self.stones[me];
        for s in own.iter() {
            self.groups.make_set(s, self.tables.edges[s][me]);
        }
        let mut count = own.count();
        for s in own.iter() {
            count -= self.join_neighbours(s, me);
        }
        self.group_count[me] = count;
        self.stale[me] = false;
    }

    /// Joins the group of the stone at `p` with those of its same-coloured
    /// neighbours; returns how many groups were merged away.
    #[inline(always)]
    fn join_neighbours(&mut self, p: usize, me: usize) -> u32 {
        let mut merged = 0;
        for &q in self.tables.board.topo.neighbours(Cell(p as u16)) {
            let q = q.index();
            if self.stones[me].get(q) && self.groups.union(p, q) {
                merged += 1;
            }
        }
        merged
    }

    /// Puts a stone of `colour` on the empty point `p` and links it into its
    /// groups, without captures or a win test.
    #[inline(always)]
    fn put_stone(&mut self, p: usize, colour: Colour) {
        let me = colour.index();
        if self.stale[me] {
            self.rebuild_groups(colour);
        }
        let tables = self.tables;
        self.stones[me].set(p);
        self.playable.clear(p);
        if p < tables.corner_count {
            for sq in tables.squares_at(p) {
                self.playable.clear(sq.midpoint as usize);
            }
        }
        self.groups.make_set(p, tables.edges[p][me]);
        self.group_count[me] += 1;
        self.group_count[me] -= self.join_neighbours(p, me);
    }

    /// Removes the stone of `colour` on the corner point `p`.
    #[inline(always)]
    fn remove_corner_stone(&mut self, p: usize, colour: Colour) {
        self.stones[colour.index()].clear(p);
        self.stale[colour.index()] = true;
        self.playable.set(p);
        for sq in self.tables.squares_at(p) {
            let square_empty = [sq.midpoint, sq.opposite, sq.sides[0], sq.sides[1]]
                .iter()
                .all(|&c| !self.occupied(c as usize));
            if square_empty {
                self.playable.set(sq.midpoint as usize);
            }
        }
    }

    /// Removes the stone of `colour` on any point (used by the swap).
    fn remove_stone(&mut self, p: usize, colour: Colour) {
        if p < self.tables.corner_count {
            return self.remove_corner_stone(p, colour);
        }
        self.stones[colour.index()].clear(p);
        self.stale[colour.index()] = true;
        let sq = self
            .topo()
            .square_of_midpoint(Cell(p as u16))
            .expect("a point past the corner points is a midpoint");
        if sq.corners.iter().all(|c| !self.occupied(c.index())) {
            self.playable.set(p);
        }
    }

    /// The captures of a stone of `mover` just placed on the corner point `p`.
    #[inline(always)]
    fn capture_around(&mut self, p: usize, mover: Colour) {
        let tables = self.tables;
        // Both squares are judged on the position right after the placement.
        let [own, opponent] = match mover {
            Colour::Black => self.stones,
            Colour::White => [self.stones[1], self.stones[0]],
        };
        for sq in tables.squares_at(p) {
            let midpoint = sq.midpoint as usize;
            if !own.get(midpoint)
                && !opponent.get(midpoint)
                && own.get(sq.opposite as usize)
                && opponent.get(sq.sides[0] as usize)
                && opponent.get(sq.sides[1] as usize)
            {
                for side in sq.sides {
                    self.remove_corner_stone(side as usize, mover.opposite());
                }
            }
        }
    }

    /// Records `colour` as the winner if the group at `p` joins its edges.
    #[inline(always)]
    fn check_win(&mut self, p: usize, colour: Colour) {
        if self.groups.edges_of(p) == BOTH_EDGES {
            self.winner = Some(colour);
        }
    }

    /// A stone of the mover on the playable point `p`, with its captures.
    #[inline(always)]
    fn play_stone(&mut self, p: usize) {
        let mover = self.to_move;
        self.put_stone(p, mover);
        if p < self.tables.corner_count {
            self.capture_around(p, mover);
        }
        self.check_win(p, mover);
        self.end_turn(Some(Cell(p as u16)));
    }

    /// White's swap: Black's first stone at p becomes a white stone on
    /// transpose(p).
    fn play_swap(&mut self) {
        let from = self.swap_from.expect("swap is legal").index();
        let to = self.topo().transpose(Cell(from as u16)).index();
        self.remove_stone(from, Colour::Black);
        self.put_stone(to, Colour::White);
        self.check_win(to, Colour::White);
        self.end_turn(None);
    }

    #[inline(always)]
    fn end_turn(&mut self, placed: Option<Cell>) {
        self.swap_from = placed.filter(|_| self.pie_pending);
        self.pie_pending = false;
        self.turns += 1;
        self.to_move = self.to_move.opposite();
    }

    /// The cells of each group of `colour`, found by flood fill.
    fn groups_from_scratch(&self, colour: Colour) -> Vec<Bitboard<W>> {
        let mut rest = self.stones[colour.index()];
        let mut found = Vec::new();
        while let Some(seed) = rest.lowest() {
            let mut group = Bitboard::EMPTY;
            let mut frontier = Bitboard::from_indices([seed]);
            while frontier.any() {
                group |= frontier;
                let mut next = Bitboard::EMPTY;
                for c in frontier.iter() {
                    next |= self.tables.board.neighbours[c];
                }
                frontier = (next & rest).and_not(&group);
            }
            rest = rest.and_not(&group);
            found.push(group);
        }
        found
    }
}

/// A uniform random number below `bound` (multiply-shift; the bias is below
/// `bound / 2^64`, far too small to matter).
#[inline(always)]
fn random_below(rng: &mut Rng, bound: u32) -> u32 {
    ((u128::from(rng.next_u64()) * u128::from(bound)) >> 64) as u32
}

impl<const W: usize> Game for OnyxGame<W> {
    fn new(spec: &GameSpec) -> Self {
        let topo = spec.topology();
        let stones = if spec.standard_start() {
            Self::standard_stones(spec.size)
        } else {
            Vec::new()
        };
        let mut game = Self::with_stones(spec, topo, &stones, Colour::Black)
            .expect("the start position is valid");
        game.pie_pending = spec.rules.swap;
        game
    }

    fn from_setup(spec: &GameSpec, stones: &[Stone], to_move: Colour) -> Result<Self, SetupError> {
        let topo = Topology::get(spec.kind.board(), spec.size)
            .map_err(|e| SetupError::Spec(SpecError::Size(e)))?;
        Self::with_stones(spec, topo, stones, to_move)
    }

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn topology(&self) -> &'static Topology {
        self.topo()
    }

    fn to_move(&self) -> Colour {
        self.to_move
    }

    fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    fn winner(&self) -> Option<Colour> {
        self.winner
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.is_over() {
            return;
        }
        out.extend(
            self.playable
                .iter()
                .map(|i| Action::stone(Cell(i as u16), self.to_move)),
        );
        if self.swap_from.is_some() {
            out.push(Action::SWAP);
        }
    }

    fn is_legal(&self, action: Action) -> bool {
        self.illegal_reason(action).is_none()
    }

    fn illegal_reason(&self, action: Action) -> Option<PlayError> {
        if self.is_over() {
            return Some(PlayError::GameOver);
        }
        if action == Action::SWAP {
            return match self.swap_from {
                Some(_) => None,
                None if !self.spec.rules.swap => Some(PlayError::Illegal("the swap rule is off")),
                None => Some(PlayError::Illegal(
                    "swap is legal only as White's first move",
                )),
            };
        }
        if !action.is_stone() {
            return Some(PlayError::Illegal("Onyx has no pass"));
        }
        let cell = action.cell();
        if cell.index() >= self.topo().bits {
            return Some(PlayError::Illegal("not a point of this board"));
        }
        if action.colour() != self.to_move {
            return Some(PlayError::Illegal(
                "a player places stones of its own colour",
            ));
        }
        if self.occupied(cell.index()) {
            return Some(PlayError::Occupied(cell));
        }
        if !self.playable.get(cell.index()) {
            return Some(PlayError::Illegal(
                "a midpoint may be played only when its square's four corners are empty",
            ));
        }
        None
    }

    fn apply(&mut self, action: Action) {
        debug_assert!(self.is_legal(action), "illegal action {action:?}");
        if action == Action::SWAP {
            self.play_swap();
        } else {
            self.play_stone(action.cell().index());
        }
    }

    /// Plays uniformly random legal moves (the swap included while legal)
    /// until someone wins, and returns the winner.
    ///
    /// Captures re-open points, so a random game could in principle go on
    /// for ever: the playout stops after 4 plies per board point. That cap is
    /// not part of the rules of Onyx; when it is hit, or when a set-up
    /// position leaves no legal move, the winner is a fair coin flip from
    /// `rng`, and the position is left unfinished.
    fn playout(&mut self, rng: &mut Rng) -> Colour {
        let cap = self.turns + PLAYOUT_PLIES_PER_POINT * self.topo().bits as u32;
        while self.winner.is_none() {
            let points = self.playable.count();
            let choices = points + u32::from(self.swap_from.is_some());
            if choices == 0 || self.turns >= cap {
                return Colour::BOTH[random_below(rng, 2) as usize];
            }
            let k = random_below(rng, choices);
            if k == points {
                self.play_swap();
            } else {
                let p = self.playable.nth(k).expect("k is below the count");
                self.play_stone(p);
            }
        }
        self.winner.expect("the loop ends with a winner")
    }

    fn stone_at(&self, cell: Cell) -> Option<Colour> {
        let i = cell.index();
        if i >= self.topo().bits {
            None
        } else if self.stones[0].get(i) {
            Some(Colour::Black)
        } else if self.stones[1].get(i) {
            Some(Colour::White)
        } else {
            None
        }
    }

    fn group_counts(&self) -> [u32; 2] {
        Colour::BOTH.map(|colour| {
            if self.stale[colour.index()] {
                let mut fresh = self.clone();
                fresh.rebuild_groups(colour);
                fresh.group_count[colour.index()]
            } else {
                self.group_count[colour.index()]
            }
        })
    }

    fn check_consistency(&self) -> Result<(), String> {
        let topo = self.topo();
        let [black, white] = self.stones;
        if (black & white).any() {
            return Err(format!("points with both colours: {:?}", black & white));
        }
        let off_board = (black | white).and_not(&self.tables.board.on_board);
        if off_board.any() {
            return Err(format!("stones off the board: {off_board:?}"));
        }
        let playable = self.playable_from_scratch();
        if playable != self.playable {
            return Err(format!(
                "playable points {:?}, expected {playable:?}",
                self.playable
            ));
        }
        let mut winners = Vec::new();
        for colour in Colour::BOTH {
            let me = colour.index();
            let groups = self.groups_from_scratch(colour);
            let mut roots = Vec::new();
            for group in &groups {
                let edges = group
                    .iter()
                    .fold(0, |acc, c| acc | self.tables.edges[c][me]);
                if edges == BOTH_EDGES {
                    winners.push(colour);
                }
                if self.stale[me] {
                    continue;
                }
                let root = self
                    .groups
                    .root(group.lowest().expect("groups are not empty"));
                let name = topo.name(Cell(root as u16));
                if group.iter().any(|c| self.groups.root(c) != root) {
                    return Err(format!("{colour:?} group of {name} is split in the forest"));
                }
                if roots.contains(&root) {
                    return Err(format!("{colour:?} groups share the root {name}"));
                }
                if self.groups.edges.as_flattened()[root] != edges {
                    return Err(format!("{colour:?} group of {name}: wrong edge flags"));
                }
                roots.push(root);
            }
            if !self.stale[me] && self.group_count[me] as usize != groups.len() {
                return Err(format!(
                    "{colour:?} has {} groups, counted {}",
                    groups.len(),
                    self.group_count[me]
                ));
            }
        }
        if winners.len() > 1 || winners.first().copied() != self.winner {
            return Err(format!(
                "winner {:?}, but winning chains for {winners:?}",
                self.winner
            ));
        }
        if let Some(p) = self.swap_from
            && (self.turns != 1 || self.to_move != Colour::White || !black.get(p.index()))
        {
            return Err(format!("swap offered for {} out of turn", topo.name(p)));
        }
        Ok(())
    }

    fn turns_played(&self) -> u32 {
        self.turns
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    fn midgame() -> OnyxGame<2> {
        let spec = GameSpec::new(GameKind::Onyx, 8, Rules::default()).unwrap();
        let mut game = OnyxGame::<2>::new(&spec);
        let mut rng = <Rng as rand_xoshiro::rand_core::SeedableRng>::seed_from_u64(7);
        for _ in 0..20 {
            let mut actions = Vec::new();
            game.legal_actions(&mut actions);
            game.apply(actions[random_below(&mut rng, actions.len() as u32) as usize]);
        }
        game.check_consistency().unwrap();
        game
    }

    #[test]
    fn consistency_check_detects_corruption() {
        let game = midgame();
        let stone = game.stones[game.to_move.index()].lowest().unwrap();

        let mut bad = game.clone();
        bad.playable.set(stone);
        assert!(bad.check_consistency().is_err(), "playable occupied point");

        let mut bad = game.clone();
        bad.group_count[game.to_move.index()] += 1;
        assert!(bad.check_consistency().is_err(), "group count");

        let mut bad = game.clone();
        let root = bad.groups.find(stone);
        bad.groups.edges.as_flattened_mut()[root] ^= 1;
        assert!(bad.check_consistency().is_err(), "edge flags");

        let mut bad = game.clone();
        bad.stones[game.to_move.index()].clear(stone);
        assert!(bad.check_consistency().is_err(), "stone vanished");
    }
}
