//! Onyx (`docs/rules.md` section 4): a connection game on the Onyx board with
//! square captures, the midpoint restriction and the swap-pieces pie rule.
//!
//! Win detection is incremental. A disjoint-set forest over the cells links
//! every stone to its group, and each root records which of its colour's goal
//! edges the group touches. A placement only ever joins groups. A capture
//! removes opponent stones and may split the groups they were in; only those
//! groups are repaired, by flood fills from the captured stones' neighbours.

use crate::bitboard::{Bitboard, select_in_word};
use crate::game::{
    Game, GameSpec, Inconsistency, PlayError, Rng, SetupError, SpecError, TurnState,
};
use crate::kind::GameKind;
use crate::moves::{Action, Colour, Stone};
use crate::random::random_below;
use crate::tables::{BoardTables, built_once};
use crate::topology::{Cell, Topology};

/// Edge flags of a group that touches both goal edges of its colour.
const BOTH_EDGES: u8 = 0b11;

/// A playout that runs this many plies per board point stops (see
/// [`OnyxGame::playout`]).
const PLAYOUT_PLIES_PER_POINT: u32 = 4;

/// Entries of [`OnyxGame::colours`]: every point index of a supported
/// board is below it, and a point index masked with `COLOUR_SLOTS - 1`
/// needs no bounds check.
const COLOUR_SLOTS: usize = 1024;

/// The code of `colour` in [`OnyxGame::colours`].
#[inline(always)]
fn colour_code(colour: Colour) -> u8 {
    colour.index() as u8 + 1
}

/// Room for the neighbours of an Onyx point (7 for an interior corner point).
const MAX_NEIGHBOURS: usize = 8;

/// One square as seen from one of its corners: what a stone placed on that
/// corner needs for a capture, and which points it blocks.
#[derive(Clone, Copy)]
struct SquareView {
    midpoint: u16,
    /// The corner diagonally opposite the viewing corner.
    opposite: u16,
    /// The two corners a capture removes.
    sides: [u16; 2],
}

/// What a placement on one point needs to know, kept together so that a
/// move touches one small record.
#[derive(Clone, Copy)]
struct PointInfo {
    /// The neighbours, padded with the point itself.
    neighbours: [u16; MAX_NEIGHBOURS],
    /// The squares the point is a corner of (0, 1 or 2), padded to two with
    /// views in which every point is the point itself. Such a view never
    /// captures (its midpoint, the point, is occupied when it is judged) and
    /// never makes playable anything but the point, so the hot paths can
    /// always look at two squares without branching on how many there are.
    squares: [SquareView; 2],
    /// `back[j]`: the bit of this point in the neighbour mask
    /// ([`OnyxGame::own_near`]) of `neighbours[j]`; 0 for padding.
    back: [u8; MAX_NEIGHBOURS],
    /// Per colour: the goal edges the point lies on (bit 0: row 1 for Black,
    /// column A for White; bit 1: row n / column n). Midpoints: none.
    edges: [u8; 2],
}

/// Rule tables of one Onyx board, shared by all games of that size and width.
struct OnyxTables<const W: usize> {
    board: &'static BoardTables<W>,
    /// Corner points are the cells `0..corner_count`; midpoints follow them.
    corner_count: usize,
    points: Vec<PointInfo>,
    /// Per colour, its two goal edges as point sets.
    edge_masks: [[Bitboard<W>; 2]; 2],
}

impl<const W: usize> OnyxTables<W> {
    fn get(topo: &'static Topology) -> &'static Self {
        built_once(topo, || Self::build(topo))
    }

    fn build(topo: &'static Topology) -> Self {
        let n = topo.size;
        let corner_count = n * n;
        let edges: Vec<[u8; 2]> = (0..topo.bits)
            .map(|i| {
                if i >= corner_count {
                    return [0, 0];
                }
                let (col, row) = (i % n, i / n);
                let flags = |first: bool, last: bool| u8::from(first) | u8::from(last) << 1;
                [flags(row == 0, row == n - 1), flags(col == 0, col == n - 1)]
            })
            .collect();
        let edge_masks = [0, 1].map(|colour| {
            [0, 1].map(|edge| {
                Bitboard::from_indices(
                    (0..topo.bits).filter(|&i| edges[i][colour] >> edge & 1 != 0),
                )
            })
        });
        let points = (0..topo.bits)
            .map(|p| {
                let me = p as u16;
                assert!(topo.neighbours(Cell(me)).len() <= MAX_NEIGHBOURS);
                let mut neighbours = [me; MAX_NEIGHBOURS];
                for (slot, q) in neighbours.iter_mut().zip(topo.neighbours(Cell(me))) {
                    *slot = q.0;
                }
                let mut squares = [SquareView {
                    midpoint: me,
                    opposite: me,
                    sides: [me, me],
                }; 2];
                for (view, &k) in squares.iter_mut().zip(topo.squares_of(Cell(me))) {
                    let sq = &topo.squares()[k as usize];
                    let at = sq
                        .corners
                        .iter()
                        .position(|&c| c.0 == me)
                        .expect("a corner");
                    *view = SquareView {
                        midpoint: sq.midpoint.0,
                        opposite: sq.corners[(at + 2) % 4].0,
                        sides: [sq.corners[(at + 1) % 4].0, sq.corners[(at + 3) % 4].0],
                    };
                }
                let mut back = [0u8; MAX_NEIGHBOURS];
                for (slot, q) in back.iter_mut().zip(topo.neighbours(Cell(me))) {
                    let at = topo
                        .neighbours(*q)
                        .iter()
                        .position(|r| r.0 == me)
                        .expect("neighbourhood is symmetric");
                    *slot = 1 << at;
                }
                PointInfo {
                    neighbours,
                    back,
                    squares,
                    edges: edges[p],
                }
            })
            .collect();
        OnyxTables {
            board: BoardTables::get(topo),
            corner_count,
            points,
            edge_masks,
        }
    }

    /// The connected part of `within` that contains `seed`.
    #[inline(always)]
    fn flood(&self, seed: usize, within: &Bitboard<W>) -> Bitboard<W> {
        let mut group = Bitboard::EMPTY;
        let mut frontier = Bitboard::EMPTY;
        frontier.set(seed);
        while frontier.any() {
            group |= frontier;
            let mut next = Bitboard::EMPTY;
            for c in frontier.iter() {
                next |= self.board.neighbours[c];
            }
            frontier = (next & *within).and_not(&group);
        }
        group
    }

    /// The goal edges of `colour` that the points of `group` touch.
    #[inline(always)]
    fn edges_of(&self, group: &Bitboard<W>, colour: Colour) -> u8 {
        let [first, last] = &self.edge_masks[colour.index()];
        u8::from(group.intersects(first)) | u8::from(group.intersects(last)) << 1
    }
}

/// Stone groups of both colours as one disjoint-set forest over the cells (a
/// group never mixes colours). Entries of empty cells are meaningless.
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

    /// Makes the connected part of `within` that holds `root` one group
    /// with that root, linking each stone as the flood fill reaches it;
    /// returns the group.
    fn make_group_from(
        &mut self,
        tables: &OnyxTables<W>,
        root: usize,
        within: &Bitboard<W>,
    ) -> Bitboard<W> {
        let parent = self.parent.as_flattened_mut();
        let mut group = Bitboard::EMPTY;
        let mut frontier = Bitboard::EMPTY;
        frontier.set(root);
        while frontier.any() {
            group |= frontier;
            let mut next = Bitboard::EMPTY;
            for c in frontier.iter() {
                next |= tables.board.neighbours[c];
                parent[c] = root as u16;
            }
            frontier = (next & *within).and_not(&group);
        }
        group
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

    /// Adds the stone `x` to a group made of it and the groups of its
    /// same-coloured neighbours: `neighbours[j]` for each bit j of `linked`.
    /// Returns the goal edges of that group, given those of `x`, and how
    /// many groups merged into it.
    #[inline(always)]
    fn add_stone(
        &mut self,
        x: usize,
        mut edges: u8,
        neighbours: &[u16; MAX_NEIGHBOURS],
        mut linked: u32,
    ) -> (u8, u32) {
        self.parent.as_flattened_mut()[x] = x as u16;
        let mut root = x;
        let mut merged = 0;
        while linked != 0 {
            let q = neighbours[linked.trailing_zeros() as usize] as usize;
            linked &= linked - 1;
            let other = self.find(q);
            if other != root {
                // The first neighbouring group takes `x` in, so a growing
                // chain keeps its root; later groups hang under that root.
                let (child, parent) = if root == x { (x, other) } else { (other, root) };
                self.parent.as_flattened_mut()[child] = parent as u16;
                edges |= self.edges.as_flattened()[other];
                root = parent;
                merged += 1;
            }
        }
        self.edges.as_flattened_mut()[root] = edges;
        (edges, merged)
    }
}

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

/// An Onyx position with its rules. `W` is the bitboard width in 64-bit
/// words; it must hold every point of the board (see
/// [`crate::game::width_for`]).
#[derive(Clone)]
pub struct OnyxGame<const W: usize> {
    spec: GameSpec,
    tables: &'static OnyxTables<W>,
    stones: [Bitboard<W>; 2],
    /// The same stones as one byte per point: 0 empty, 1 Black, 2 White
    /// ([`colour_code`]). The hot neighbour and capture tests read one byte
    /// here instead of picking a bit out of a bitboard word.
    colours: [u8; COLOUR_SLOTS],
    /// Per colour and point: bit `j` set when neighbour `j` of the point
    /// (see `PointInfo::neighbours`) holds a stone of that colour.
    own_near: [[u8; COLOUR_SLOTS]; 2],
    /// Points a stone may be placed on: empty corner points, and midpoints
    /// whose square is entirely empty.
    playable: Bitboard<W>,
    /// The number of playable points in each word of `playable`: a random
    /// move needs no popcount of the whole set.
    playable_counts: [u32; W],
    groups: Groups<W>,
    group_count: [u32; 2],
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
        assert!(topo.bits <= COLOUR_SLOTS, "board too large for OnyxGame");
        let mut game = OnyxGame {
            spec: *spec,
            tables: OnyxTables::get(topo),
            stones: [Bitboard::EMPTY; 2],
            colours: [0; COLOUR_SLOTS],
            own_near: [[0; COLOUR_SLOTS]; 2],
            playable: OnyxTables::<W>::get(topo).board.on_board,
            playable_counts: OnyxTables::<W>::get(topo)
                .board
                .on_board
                .0
                .map(u64::count_ones),
            groups: Groups::EMPTY,
            group_count: [0; 2],
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
            if game.put_stone(i, stone.colour) == BOTH_EDGES {
                game.winner = Some(stone.colour);
            }
        }
        Ok(game)
    }

    /// The stones of the standard start (`docs/rules.md` section 4).
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
        self.colour_at(i as u16) != 0
    }

    /// The code of the stone on point `p` (0: none).
    #[inline(always)]
    fn colour_at(&self, p: u16) -> u8 {
        self.colours[usize::from(p) & (COLOUR_SLOTS - 1)]
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

    /// Puts a stone of `colour` on the empty point `p` and links it into its
    /// groups, without captures; returns the goal edges its group touches.
    #[inline(always)]
    fn put_stone(&mut self, p: usize, colour: Colour) -> u8 {
        let me = colour.index();
        let point = &self.tables.points[p];
        // Which neighbours hold own stones, as bits of a small mask: cheaper
        // than a bitboard intersection and free of unpredictable branches.
        // The padding entries (`p` itself) read as empty: `p` is not set yet.
        let code = colour_code(colour);
        let linked = u32::from(self.own_near[me][p & (COLOUR_SLOTS - 1)]);
        let near = &mut self.own_near[me];
        for (&q, &bit) in point.neighbours.iter().zip(&point.back) {
            near[usize::from(q) & (COLOUR_SLOTS - 1)] |= bit;
        }
        self.stones[me].set(p);
        self.colours[p & (COLOUR_SLOTS - 1)] = code;
        self.unplayable(p);
        for sq in &point.squares {
            self.unplayable(sq.midpoint as usize);
        }
        let (edges, merged) = self
            .groups
            .add_stone(p, point.edges[me], &point.neighbours, linked);
        self.group_count[me] = self.group_count[me] + 1 - merged;
        edges
    }

    /// Takes the stones `removed`, all of `colour`, off the board and repairs
    /// that colour's groups. Only the groups that held them can split, and
    /// every remaining part of such a group touches a removed stone, so flood
    /// fills from the removed stones' neighbours find all the new groups.
    fn remove_stones(&mut self, removed: Bitboard<W>, colour: Colour) {
        let me = colour.index();
        let tables = self.tables;
        let mut old_roots = [usize::MAX; 4];
        let mut old_groups = 0;
        let mut seeds = Bitboard::EMPTY;
        for s in removed.iter() {
            let root = self.groups.find(s);
            if !old_roots[..old_groups].contains(&root) {
                old_roots[old_groups] = root;
                old_groups += 1;
            }
            seeds |= tables.board.neighbours[s];
        }
        self.stones[me] = self.stones[me].and_not(&removed);
        let own = self.stones[me];
        seeds &= own;
        let mut count = self.group_count[me] - old_groups as u32;
        while let Some(seed) = seeds.lowest() {
            let group = self.groups.make_group_from(tables, seed, &own);
            seeds = seeds.and_not(&group);
            self.groups.edges.as_flattened_mut()[seed] = tables.edges_of(&group, colour);
            count += 1;
        }
        self.group_count[me] = count;
        for p in removed.iter() {
            self.colours[p & (COLOUR_SLOTS - 1)] = 0;
            let point = &tables.points[p];
            let near = &mut self.own_near[me];
            for (&q, &bit) in point.neighbours.iter().zip(&point.back) {
                near[usize::from(q) & (COLOUR_SLOTS - 1)] &= !bit;
            }
        }
        for p in removed.iter() {
            self.reopen(p);
        }
    }

    /// Takes `p` out of the playable points, if it is one.
    #[inline(always)]
    fn unplayable(&mut self, p: usize) {
        let (word, bit) = ((p >> 6) % W, 1u64 << (p & 63));
        let w = &mut self.playable.0[word];
        self.playable_counts[word] -= u32::from(*w & bit != 0);
        *w &= !bit;
    }

    /// Adds `p` to the playable points, if it is not one yet.
    #[inline(always)]
    fn make_playable(&mut self, p: usize) {
        let (word, bit) = ((p >> 6) % W, 1u64 << (p & 63));
        let w = &mut self.playable.0[word];
        self.playable_counts[word] += u32::from(*w & bit == 0);
        *w |= bit;
    }

    /// Updates the playable points after the stone on `p` was removed.
    fn reopen(&mut self, p: usize) {
        let tables = self.tables;
        if p >= tables.corner_count {
            let sq = self
                .topo()
                .square_of_midpoint(Cell(p as u16))
                .expect("a point past the corner points is a midpoint");
            if sq.corners.iter().all(|c| !self.occupied(c.index())) {
                self.make_playable(p);
            }
            return;
        }
        self.make_playable(p);
        for sq in &tables.points[p].squares {
            let square_empty = [sq.midpoint, sq.opposite, sq.sides[0], sq.sides[1]]
                .iter()
                .all(|&c| !self.occupied(c as usize));
            if square_empty {
                self.make_playable(sq.midpoint as usize);
            }
        }
    }

    /// The captures of a stone of `mover` just placed on `p` (none when `p`
    /// is a midpoint: it is no square's corner).
    #[inline(always)]
    fn capture_around(&mut self, p: usize, mover: Colour) {
        let squares = &self.tables.points[p].squares;
        let own = colour_code(mover);
        let opponent = colour_code(mover.opposite());
        // Both squares are judged on the position right after the placement.
        // `&`, not `&&`: evaluating every test is cheaper than branching.
        let captures = squares.map(|sq| {
            (self.colour_at(sq.midpoint) == 0)
                & (self.colour_at(sq.opposite) == own)
                & (self.colour_at(sq.sides[0]) == opponent)
                & (self.colour_at(sq.sides[1]) == opponent)
        });
        if captures[0] | captures[1] {
            let mut captured = Bitboard::EMPTY;
            for (sq, _) in squares.iter().zip(captures).filter(|&(_, hit)| hit) {
                for side in sq.sides {
                    captured.set(side as usize);
                }
            }
            self.remove_stones(captured, mover.opposite());
        }
    }

    /// A stone of the mover on the playable point `p`, with its captures.
    #[inline(always)]
    fn play_stone(&mut self, p: usize) {
        let mover = self.to_move;
        let edges = self.put_stone(p, mover);
        self.capture_around(p, mover);
        // Captures remove only opponent stones: the mover's groups stand.
        if edges == BOTH_EDGES {
            self.winner = Some(mover);
        }
        self.end_turn(Some(Cell(p as u16)));
    }

    /// White's swap: Black's first stone at p becomes a white stone on
    /// transpose(p).
    fn play_swap(&mut self) {
        let from = self.swap_from.expect("swap is legal").index();
        let to = self.topo().transpose(Cell(from as u16)).index();
        self.remove_stones(Bitboard::from_indices([from]), Colour::Black);
        if self.put_stone(to, Colour::White) == BOTH_EDGES {
            self.winner = Some(Colour::White);
        }
        self.end_turn(None);
    }

    #[inline(always)]
    fn end_turn(&mut self, placed: Option<Cell>) {
        self.swap_from = placed.filter(|_| self.pie_pending);
        self.pie_pending = false;
        self.turns += 1;
        self.to_move = self.to_move.opposite();
    }

    /// The random playout of [`Game::playout`], except that after each
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
                return Colour::BOTH[random_below(rng, 2) as usize];
            }
            let reply = last.and_then(|p| answer(self, Cell(p as u16), rng));
            let p = match reply {
                Some(p) => p.index(),
                None => {
                    let k = random_below(rng, choices);
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

    /// The random playout of [`Game::playout`] with every stone's point
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
                return Colour::BOTH[random_below(rng, 2) as usize];
            }
            if let Some(from) = self.swap_from
                && random_below(rng, choices) == points
            {
                self.play_swap();
                policy.changed(self, from.index());
                policy.changed(self, self.topo().transpose(from).index());
                continue;
            }
            let p = match policy.draw(self, rng) {
                Some(p) => p,
                None => {
                    let k = random_below(rng, points);
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

    /// Whether a stone may be placed on `cell`: an empty corner point, or
    /// the midpoint of an entirely empty square.
    #[inline]
    pub fn is_playable(&self, cell: Cell) -> bool {
        cell.index() < self.topo().bits && self.playable.get(cell.index())
    }

    /// Whether the mover's stone on the empty point `cell` wins at once:
    /// with its same-coloured neighbours' groups it touches both of the
    /// mover's goal edges (its captures remove only opponent stones, so
    /// they cannot undo that). False for an occupied point or a finished
    /// game.
    pub fn stone_wins(&self, cell: Cell) -> bool {
        let p = cell.index();
        if self.winner.is_some() || self.occupied(p) {
            return false;
        }
        let me = self.to_move.index();
        let point = &self.tables.points[p];
        let mut edges = point.edges[me];
        let mut linked = u32::from(self.own_near[me][p & (COLOUR_SLOTS - 1)]);
        while linked != 0 {
            let q = usize::from(point.neighbours[linked.trailing_zeros() as usize]);
            linked &= linked - 1;
            edges |= self.groups.edges.as_flattened()[self.groups.root(q)];
        }
        edges == BOTH_EDGES
    }

    /// Whether a stone on `cell` would capture, so that the mover's stone
    /// there captures or prevents a capture: a stone of one colour or the
    /// other would capture there ([`Self::captures`]).
    #[inline]
    pub fn is_capture_point(&self, cell: Cell) -> bool {
        Colour::BOTH.iter().any(|&c| self.captures(cell, c) > 0)
    }

    /// The stones a stone of `colour` on the empty `cell` would capture:
    /// two for each square of `cell` with an empty midpoint, `colour` on the
    /// corner opposite `cell` and the other colour on its two other
    /// corners. 0 for an occupied point or a midpoint.
    pub fn captures(&self, cell: Cell, colour: Colour) -> u32 {
        let p = cell.index();
        if p >= self.tables.corner_count || self.occupied(p) {
            return 0;
        }
        let (me, them) = (colour_code(colour), colour_code(colour.opposite()));
        // Padding views have the empty `p` as every corner: never a match.
        let squares = self.tables.points[p].squares.iter().filter(|sq| {
            self.colour_at(sq.midpoint) == 0
                && self.colour_at(sq.opposite) == me
                && sq.sides.iter().all(|&q| self.colour_at(q) == them)
        });
        2 * squares.count() as u32
    }

    /// The empty corner of a square of the stone on `last` where a stone
    /// captures or prevents a capture, whoever places it: the midpoint is
    /// empty, the other three corners are filled, and the empty corner's
    /// two neighbours in the square hold one colour while the corner
    /// opposite it holds the other. Only squares of `last` are looked at:
    /// a placement changes no other square.
    ///
    /// Whether a square matches depends on the stones, so the test is
    /// written without branches (both squares are always judged, the first
    /// match kept): a branch per square was mispredicted about once a move.
    #[inline(always)]
    pub fn capture_point_near(&self, last: Cell) -> Option<Cell> {
        let last = last.index();
        let me = self.colour_at(last as u16);
        let them = 3 - me;
        // The point found plus one; 0 for none.
        let mut found = 0u32;
        // The second square first, so that a match in the first one wins.
        for sq in self.tables.points[last].squares.iter().rev() {
            // Padding views have `last` as their midpoint: never empty here.
            let open = self.colour_at(sq.midpoint) == 0;
            let opposite = self.colour_at(sq.opposite);
            let [s0, s1] = sq.sides.map(|q| self.colour_at(q));
            // At most one of the three holds: the empty corner is the
            // opposite one, or one of the two sides.
            let far = (opposite == 0) & (s0 == them) & (s1 == them);
            let first = (opposite == me) & (s0 == 0) & (s1 == them);
            let second = (opposite == me) & (s1 == 0) & (s0 == them);
            let point = u32::from(far) * (u32::from(sq.opposite) + 1)
                + u32::from(first) * (u32::from(sq.sides[0]) + 1)
                + u32::from(second) * (u32::from(sq.sides[1]) + 1);
            let hit = u32::from(open) * point;
            found = hit + u32::from(hit == 0) * found;
        }
        (found != 0).then(|| Cell((found - 1) as u16))
    }

    /// The mover's reply to a cut at `last`: two stones of the mover next
    /// to `last`, in different groups and not neighbours, that now share
    /// exactly one playable neighbour (a bridge of which `last` took one
    /// point). Returns that point.
    #[inline(always)]
    pub fn bridge_point_near(&self, last: Cell) -> Option<Cell> {
        let neighbours = &self.tables.board.neighbours;
        let near = neighbours[last.index()] & self.stones[self.to_move.index()];
        let mut rest = near;
        while let Some(x) = rest.lowest() {
            rest.clear(x);
            for y in rest.iter() {
                let common = neighbours[x] & neighbours[y] & self.playable;
                if common.count() == 1
                    && !neighbours[x].get(y)
                    && self.groups.root(x) != self.groups.root(y)
                {
                    return common.lowest().map(|p| Cell(p as u16));
                }
            }
        }
        None
    }

    /// The cells of each group of `colour`, found by flood fill.
    fn groups_from_scratch(&self, colour: Colour) -> Vec<Bitboard<W>> {
        let mut rest = self.stones[colour.index()];
        let mut found = Vec::new();
        while let Some(seed) = rest.lowest() {
            let group = self.tables.flood(seed, &rest);
            rest = rest.and_not(&group);
            found.push(group);
        }
        found
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

    fn captures(&self, cell: Cell, colour: Colour) -> u32 {
        OnyxGame::captures(self, cell, colour)
    }

    fn to_move(&self) -> Colour {
        self.to_move
    }

    /// Playing out of turn gives up the swap privilege.
    fn set_to_move(&mut self, seat: Colour) {
        if seat != self.to_move {
            self.to_move = seat;
            self.pie_pending = false;
            self.swap_from = None;
        }
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
        self.playout_answering(rng, |_, _, _| None)
    }

    fn stone_words(&self, colour: Colour) -> &[u64] {
        &self.stones[colour.index()].0
    }

    fn turn_state(&self) -> TurnState {
        TurnState {
            flags: u8::from(self.pie_pending),
            anchor: self.swap_from,
        }
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
        self.group_count
    }

    fn check_consistency(&self) -> Result<(), Inconsistency> {
        let topo = self.topo();
        let [black, white] = self.stones;
        if (black & white).any() {
            return Err(Inconsistency(format!(
                "points with both colours: {:?}",
                black & white
            )));
        }
        let off_board = (black | white).and_not(&self.tables.board.on_board);
        if off_board.any() {
            return Err(Inconsistency(format!(
                "stones off the board: {off_board:?}"
            )));
        }
        for (i, &code) in self.colours.iter().enumerate() {
            let expected = (0..2)
                .find(|&c| i < topo.bits && self.stones[c].get(i))
                .map_or(0, |c| c as u8 + 1);
            if code != expected {
                return Err(Inconsistency(format!(
                    "colour byte of point {i} is {code}, expected {expected}"
                )));
            }
        }
        for (me, near) in self.own_near.iter().enumerate() {
            for (p, &mask) in near.iter().enumerate() {
                let expected = if p < topo.bits {
                    let point = &self.tables.points[p];
                    (0..topo.neighbours(Cell(p as u16)).len())
                        .filter(|&j| self.stones[me].get(usize::from(point.neighbours[j])))
                        .fold(0u8, |acc, j| acc | 1 << j)
                } else {
                    0
                };
                if mask != expected {
                    return Err(Inconsistency(format!(
                        "neighbour mask of point {p} is {mask:#b}, expected {expected:#b}"
                    )));
                }
            }
        }
        let playable = self.playable_from_scratch();
        if self.playable.0.map(u64::count_ones) != self.playable_counts {
            return Err(Inconsistency(
                "playable counts differ from a recount".into(),
            ));
        }
        if playable != self.playable {
            return Err(Inconsistency(format!(
                "playable points {:?}, expected {playable:?}",
                self.playable
            )));
        }
        let mut winners = Vec::new();
        for colour in Colour::BOTH {
            let me = colour.index();
            let groups = self.groups_from_scratch(colour);
            let mut roots = Vec::new();
            for group in &groups {
                let edges = group
                    .iter()
                    .fold(0, |acc, c| acc | self.tables.points[c].edges[me]);
                if edges == BOTH_EDGES {
                    winners.push(colour);
                }
                let root = self
                    .groups
                    .root(group.lowest().expect("groups are not empty"));
                let name = topo.name(Cell(root as u16));
                if group.iter().any(|c| self.groups.root(c) != root) {
                    return Err(Inconsistency(format!(
                        "{colour:?} group of {name} is split in the forest"
                    )));
                }
                if roots.contains(&root) {
                    return Err(Inconsistency(format!(
                        "{colour:?} groups share the root {name}"
                    )));
                }
                if self.groups.edges.as_flattened()[root] != edges {
                    return Err(Inconsistency(format!(
                        "{colour:?} group of {name}: wrong edge flags"
                    )));
                }
                roots.push(root);
            }
            if self.group_count[me] as usize != groups.len() {
                return Err(Inconsistency(format!(
                    "{colour:?} has {} groups, counted {}",
                    groups.len(),
                    self.group_count[me]
                )));
            }
        }
        if winners.len() > 1 || winners.first().copied() != self.winner {
            return Err(Inconsistency(format!(
                "winner {:?}, but winning chains for {winners:?}",
                self.winner
            )));
        }
        if let Some(p) = self.swap_from
            && (self.turns != 1 || self.to_move != Colour::White || !black.get(p.index()))
        {
            return Err(Inconsistency(format!(
                "swap offered for {} out of turn",
                topo.name(p)
            )));
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
    use rand_xoshiro::rand_core::Rng as _;

    /// An Onyx 8 game after up to `plies` uniformly random moves (fewer
    /// when it ends first).
    fn random_game(plies: u32, rng: &mut Rng) -> OnyxGame<2> {
        let spec = GameSpec::new(GameKind::Onyx, 8, Rules::default()).unwrap();
        let mut game = OnyxGame::<2>::new(&spec);
        let mut actions = Vec::new();
        for _ in 0..plies {
            actions.clear();
            game.legal_actions(&mut actions);
            if game.is_over() || actions.is_empty() {
                break;
            }
            game.apply(actions[random_below(rng, actions.len() as u32) as usize]);
        }
        game
    }

    fn midgame() -> OnyxGame<2> {
        let mut rng = <Rng as rand_xoshiro::rand_core::SeedableRng>::seed_from_u64(7);
        let game = random_game(20, &mut rng);
        game.check_consistency().unwrap();
        game
    }

    #[test]
    fn select_matches_nth() {
        let mut rng = <Rng as rand_xoshiro::rand_core::SeedableRng>::seed_from_u64(3);
        for _ in 0..1000 {
            let sparse = rng.next_u64() & rng.next_u64();
            let board = Bitboard::<3>([rng.next_u64(), sparse, u64::MAX]);
            for k in 0..board.count() {
                assert_eq!(Some(select_bit(&board, k)), board.nth(k));
            }
        }
    }

    /// `capture_point_near(last)` finds a point exactly when a stone of
    /// some colour on an empty corner of a square of `last` would capture
    /// that square's stones, and the point it finds is such a corner.
    #[test]
    fn capture_points_are_where_a_stone_captures() {
        let mut rng = <Rng as rand_xoshiro::rand_core::SeedableRng>::seed_from_u64(11);
        let mut found = 0;
        for _ in 0..300 {
            let plies = 10 + random_below(&mut rng, 40);
            let game = random_game(plies, &mut rng);
            let corners = game.tables.corner_count;
            for last in (0..corners).filter(|&p| game.occupied(p)) {
                let captures_at = |p: usize, square: &SquareView| {
                    Colour::BOTH.into_iter().any(|colour| {
                        let mut after = game.clone();
                        after.winner = None;
                        after.to_move = colour;
                        after.play_stone(p);
                        let corners = [square.opposite, square.sides[0], square.sides[1]];
                        corners
                            .iter()
                            .any(|&q| game.occupied(q.into()) && !after.occupied(q.into()))
                    })
                };
                let mut expected = Vec::new();
                for sq in game.tables.points[last].squares {
                    if game.occupied(sq.midpoint.into()) {
                        continue;
                    }
                    for q in [sq.opposite, sq.sides[0], sq.sides[1]] {
                        let q = usize::from(q);
                        if !game.occupied(q) && captures_at(q, &sq) {
                            expected.push(q);
                        }
                    }
                }
                match game.capture_point_near(Cell(last as u16)).map(Cell::index) {
                    Some(p) => {
                        assert!(expected.contains(&p), "{p} is no capture point");
                        found += 1;
                    }
                    None => assert!(expected.is_empty(), "missed {expected:?} near {last}"),
                }
            }
        }
        assert!(found > 50, "only {found} capture points in the sample");
    }

    /// `captures(p, colour)` is the number of stones a stone of `colour`
    /// placed on `p` removes, for every playable point of random positions.
    #[test]
    fn captures_count_the_stones_a_stone_removes() {
        let mut rng = <Rng as rand_xoshiro::rand_core::SeedableRng>::seed_from_u64(13);
        let (mut doubles, mut singles) = (0, 0);
        for _ in 0..300 {
            let plies = 10 + random_below(&mut rng, 50);
            let game = random_game(plies, &mut rng);
            for p in game.playable.iter() {
                for colour in Colour::BOTH {
                    let mut after = game.clone();
                    after.winner = None;
                    after.to_move = colour;
                    after.play_stone(p);
                    let them = colour.opposite().index();
                    let removed = game.stones[them].count() - after.stones[them].count();
                    let counted = game.captures(Cell(p as u16), colour);
                    assert_eq!(counted, removed, "{colour:?} on {p}");
                    match counted {
                        2 => singles += 1,
                        4 => doubles += 1,
                        _ => {}
                    }
                }
            }
        }
        assert!(
            singles > 50 && doubles > 0,
            "{singles} single, {doubles} double captures"
        );
    }

    /// `stone_wins(p)` is true exactly when the mover's stone on `p` ends
    /// the game with the mover winning, for every playable point of random
    /// positions near the end (either colour to move).
    #[test]
    fn stone_wins_is_the_game_ending_on_that_stone() {
        let mut rng = <Rng as rand_xoshiro::rand_core::SeedableRng>::seed_from_u64(17);
        let mut wins = [0; 2];
        for _ in 0..300 {
            let plies = 20 + random_below(&mut rng, 60);
            let game = random_game(plies, &mut rng);
            if game.is_over() {
                continue;
            }
            for p in game.playable.iter() {
                let mut after = game.clone();
                after.apply(Action::stone(Cell(p as u16), game.to_move));
                let won = after.winner == Some(game.to_move);
                assert_eq!(game.stone_wins(Cell(p as u16)), won, "{p}");
                wins[game.to_move.index()] += usize::from(won);
            }
        }
        assert!(wins[0] > 10 && wins[1] > 10, "{wins:?} winning stones");
    }

    /// `bridge_point_near(last)` answers only a cut: the point it finds is
    /// playable, next to two stones of the mover that touch `last`, and a
    /// stone of the mover there joins groups.
    #[test]
    fn bridge_points_reconnect_cut_groups() {
        let mut rng = <Rng as rand_xoshiro::rand_core::SeedableRng>::seed_from_u64(5);
        let mut found = 0;
        for _ in 0..300 {
            let plies = 10 + random_below(&mut rng, 40);
            let game = random_game(plies, &mut rng);
            let neighbours = &game.tables.board.neighbours;
            for last in (0..game.tables.board.topo.bits).filter(|&p| game.occupied(p)) {
                let mover = game.to_move;
                let own_near = neighbours[last] & game.stones[mover.index()];
                let Some(p) = game.bridge_point_near(Cell(last as u16)).map(Cell::index) else {
                    continue;
                };
                found += 1;
                assert!(game.playable.get(p), "{p} is not playable");
                assert!(
                    (neighbours[p] & own_near).count() >= 2,
                    "{p} joins no cut pair"
                );
                let mut after = game.clone();
                after.winner = None;
                let before = after.group_count[mover.index()];
                after.put_stone(p, mover);
                assert!(
                    after.group_count[mover.index()] < before,
                    "{p} joins no groups"
                );
            }
        }
        assert!(found > 50, "only {found} bridge points in the sample");
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
