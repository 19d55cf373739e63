//! The Onyx position and its rules: placing stones, captures, which points
//! are playable, the swap, and the questions a search asks of a point.

use crate::bitboard::Bitboard;
use crate::game::{Game, GameSpec, SetupError};
use crate::kind::GameKind;
use crate::moves::{Colour, Stone};
use crate::topology::{Cell, Topology};

use super::groups::Groups;
use super::tables::OnyxTables;

/// Edge flags of a group that touches both goal edges of its colour.
pub(super) const BOTH_EDGES: u8 = 0b11;

/// Entries of [`OnyxGame::colours`]: every point index of a supported
/// board is below it, and a point index masked with `COLOUR_SLOTS - 1`
/// needs no bounds check.
pub(super) const COLOUR_SLOTS: usize = 1024;

/// The code of `colour` in [`OnyxGame::colours`].
#[inline(always)]
pub(super) fn colour_code(colour: Colour) -> u8 {
    colour.index() as u8 + 1
}

/// An Onyx position with its rules. `W` is the bitboard width in 64-bit
/// words; it must hold every point of the board (see
/// [`crate::width_for`]).
#[derive(Clone)]
pub struct OnyxGame<const W: usize> {
    pub(super) spec: GameSpec,
    pub(super) tables: &'static OnyxTables<W>,
    pub(super) stones: [Bitboard<W>; 2],
    /// The same stones as one byte per point: 0 empty, 1 Black, 2 White
    /// ([`colour_code`]). The hot neighbour and capture tests read one byte
    /// here instead of picking a bit out of a bitboard word.
    pub(super) colours: [u8; COLOUR_SLOTS],
    /// Per colour and point: bit `j` set when neighbour `j` of the point
    /// (see `PointInfo::neighbours`) holds a stone of that colour.
    pub(super) own_near: [[u8; COLOUR_SLOTS]; 2],
    /// Points a stone may be placed on: empty corner points, and midpoints
    /// whose square is entirely empty.
    pub(super) playable: Bitboard<W>,
    /// The number of playable points in each word of `playable`: a random
    /// move needs no popcount of the whole set.
    pub(super) playable_counts: [u32; W],
    pub(super) groups: Groups<W>,
    pub(super) group_count: [u32; 2],
    pub(super) to_move: Colour,
    pub(super) turns: u32,
    pub(super) winner: Option<Colour>,
    /// Black's first stone still to come in a game with the pie rule.
    pub(super) pie_pending: bool,
    /// Black's first stone, while White may swap it.
    pub(super) swap_from: Option<Cell>,
}

impl<const W: usize> OnyxGame<W> {
    /// A position with `stones` and no history; builds all derived state.
    pub(super) fn with_stones(
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
            groups: Groups::new(),
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
    pub(super) fn standard_stones(n: usize) -> Vec<Stone> {
        let point = |col: usize, row: usize| Cell(((row - 1) * n + col - 1) as u16);
        let (a, b) = (n / 2, n / 2 + 1);
        let black = [point(1, a), point(1, b), point(n, a), point(n, b)];
        let white = [point(a, 1), point(b, 1), point(a, n), point(b, n)];
        let stones = |cells: [Cell; 4], colour| cells.map(|cell| Stone { cell, colour });
        [stones(black, Colour::Black), stones(white, Colour::White)].concat()
    }

    #[inline(always)]
    pub(super) fn topo(&self) -> &'static Topology {
        self.tables.board.topo
    }

    #[inline(always)]
    pub(super) fn occupied(&self, i: usize) -> bool {
        self.colour_at(i as u16) != 0
    }

    /// The code of the stone on point `p` (0: none).
    #[inline(always)]
    pub(super) fn colour_at(&self, p: u16) -> u8 {
        self.colours[usize::from(p) & (COLOUR_SLOTS - 1)]
    }

    /// Empty corner points and midpoints of entirely empty squares.
    pub(super) fn playable_from_scratch(&self) -> Bitboard<W> {
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
    pub(super) fn put_stone(&mut self, p: usize, colour: Colour) -> u8 {
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
    pub(super) fn remove_stones(&mut self, removed: Bitboard<W>, colour: Colour) {
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
    pub(super) fn unplayable(&mut self, p: usize) {
        let (word, bit) = ((p >> 6) % W, 1u64 << (p & 63));
        let w = &mut self.playable.0[word];
        self.playable_counts[word] -= u32::from(*w & bit != 0);
        *w &= !bit;
    }

    /// Adds `p` to the playable points, if it is not one yet.
    #[inline(always)]
    pub(super) fn make_playable(&mut self, p: usize) {
        let (word, bit) = ((p >> 6) % W, 1u64 << (p & 63));
        let w = &mut self.playable.0[word];
        self.playable_counts[word] += u32::from(*w & bit == 0);
        *w |= bit;
    }

    /// Updates the playable points after the stone on `p` was removed.
    pub(super) fn reopen(&mut self, p: usize) {
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
    pub(super) fn capture_around(&mut self, p: usize, mover: Colour) {
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
    pub(super) fn play_stone(&mut self, p: usize) {
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
    pub(super) fn play_swap(&mut self) {
        let from = self.swap_from.expect("swap is legal").index();
        let to = self.topo().transpose(Cell(from as u16)).index();
        self.remove_stones(Bitboard::from_indices([from]), Colour::Black);
        if self.put_stone(to, Colour::White) == BOTH_EDGES {
            self.winner = Some(Colour::White);
        }
        self.end_turn(None);
    }

    #[inline(always)]
    pub(super) fn end_turn(&mut self, placed: Option<Cell>) {
        self.swap_from = placed.filter(|_| self.pie_pending);
        self.pie_pending = false;
        self.turns += 1;
        self.to_move = self.to_move.opposite();
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
    pub(super) fn groups_from_scratch(&self, colour: Colour) -> Vec<Bitboard<W>> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Rules};
    use crate::kind::GameKind;
    use crate::moves::Action;
    use crate::onyx::tables::SquareView;
    use crate::random::Rng;

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
            game.apply(actions[rng.below_precise(actions.len() as u32) as usize]);
        }
        game
    }

    fn midgame() -> OnyxGame<2> {
        let mut rng = Rng::seeded(7);
        let game = random_game(20, &mut rng);
        game.check_consistency().unwrap();
        game
    }

    /// `capture_point_near(last)` finds a point exactly when a stone of
    /// some colour on an empty corner of a square of `last` would capture
    /// that square's stones, and the point it finds is such a corner.
    #[test]
    fn capture_points_are_where_a_stone_captures() {
        let mut rng = Rng::seeded(11);
        let mut found = 0;
        for _ in 0..300 {
            let plies = 10 + rng.below_precise(40);
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
        let mut rng = Rng::seeded(13);
        let (mut doubles, mut singles) = (0, 0);
        for _ in 0..300 {
            let plies = 10 + rng.below_precise(50);
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
        let mut rng = Rng::seeded(17);
        let mut wins = [0; 2];
        for _ in 0..300 {
            let plies = 20 + rng.below_precise(60);
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
        let mut rng = Rng::seeded(5);
        let mut found = 0;
        for _ in 0..300 {
            let plies = 10 + rng.below_precise(40);
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
