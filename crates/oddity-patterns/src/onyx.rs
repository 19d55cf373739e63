//! Onyx features, read from a position from scratch: captures remove
//! stones and can split groups, so nothing is kept from one position to the
//! next (the search reads the board at each expansion anyway).
//!
//! The `shape` of a point is a ring of 8 places around it plus the point's
//! kind as a ninth digit (the weights file says `ring 9`):
//! - a corner point: its four orthogonal neighbours and, in each diagonal
//!   quadrant, the square's midpoint or, across a split cell, the diagonal
//!   corner point (a neighbour when the cell's diagonal runs through the
//!   point). Its kind says which diagonal runs through it (`/` or `\`); the
//!   ring is turned half a turn where that diagonal lies on the other side,
//!   so the places of one kind always mean the same geometry;
//! - a midpoint: the 8 corner points just outside its square (its four
//!   corners are empty whenever it is playable). Its kind is the parity of
//!   the square's row (which sets the diagonals of the split cells beside
//!   it); the half turn, a symmetry of every midpoint's surroundings, is
//!   reduced away.
//!
//! The ring is read from the candidate's side: as it is for Black, and for
//! White on the transposed board with the colours swapped (the symmetry
//! that the swap move uses), so that the candidate's goal edges are always
//! the top and bottom rows and an off-board place says which edge it is.
//!
//! The other groups: `joins` and `touches` (groups of the mover's and the
//! other colour next to the point, before any capture), `distance` (steps
//! on the corner-point grid, a midpoint half a step inside its square, to
//! the nearer of the last two stones), `capture` (squares the stone
//! captures in, 0..2, times two plus whether a stone of the other colour
//! there would capture: the stone prevents it), `bridge` (how many new
//! bridges the stone makes: own stones not next to it, outside the groups
//! it joins, with two or more empty common neighbours, 0..2+; times three
//! plus how it links two stones of its colour: 0 not, 1 as one of two or
//! more playable common neighbours (a bridge), 2 as the only one (the last
//! link, as when the opponent took the other point of a bridge)), `cut`
//! (the same for two stones of the other colour: 0, 1 intrudes into a
//! bridge, 2 cuts) and `edges` (the mover's goal edges the group the stone
//! makes touches: 0, 1 or both). The linked stones are of one colour, not
//! neighbours and in different groups.

use oddity_rules::{Action, Cell, Colour, Game, Topology, internals::built_once};

use super::groups::{DISTANCE, Features, GROUPS, NONE};
use super::shape::{BLACK, EMPTY, KING_DIRECTIONS, OFF, OFF_BOARD, WHITE};

/// Places of the ring (the kind is a ninth digit).
pub(super) const PLACES: usize = 8;
/// Digits of the shape code: the ring and the kind.
pub const ONYX_RING: usize = PLACES + 1;

/// The rings of one Onyx board, seen from each colour.
pub struct OnyxLayout {
    /// `ring[(colour * bits + point) * PLACES + i]`: the point at place `i`
    /// of the ring of `point` seen from `colour` (0 Black, 1 White), or
    /// [`OFF`].
    ring: Vec<u16>,
    /// `kind[colour * bits + point]`: 0 and 1 corner points (the diagonal
    /// through them `/` or `\`), 2 and 3 midpoints (square row odd or
    /// even); from `colour`'s side.
    kind: Vec<u8>,
    /// Per point: (x, y) on the grid of half steps (corner points even).
    half: Vec<(isize, isize)>,
    /// Per point and colour: that colour's goal edges it lies on (bit 0
    /// the first row or column, bit 1 the last).
    edges: Vec<[u8; 2]>,
    bits: usize,
}

impl OnyxLayout {
    pub fn get(topo: &'static Topology) -> &'static OnyxLayout {
        debug_assert!(topo.kind.has_squares());
        built_once(topo, || OnyxLayout::build(topo))
    }

    fn build(topo: &Topology) -> OnyxLayout {
        let n = topo.size as isize;
        let bits = topo.bits;
        // The 1-based corner point (c, r), or OFF.
        let point = |c: isize, r: isize| {
            if (1..=n).contains(&c) && (1..=n).contains(&r) {
                ((r - 1) * n + (c - 1)) as u16
            } else {
                OFF
            }
        };
        // The lower-left corner (c, r) of every midpoint's square.
        let mut square_at = vec![None; bits];
        for sq in topo.squares() {
            let (x, y) = topo.coords(sq.corners[0]);
            square_at[sq.midpoint.index()] = Some((x as isize + 1, y as isize + 1));
        }
        // Black's rings, then White's.
        let mut ring = vec![OFF; 2 * bits * PLACES];
        let mut kind = vec![0u8; 2 * bits];
        let mut half = vec![(0, 0); bits];
        let mut edges = vec![[0u8; 2]; bits];
        for &p in topo.cells() {
            let ring = &mut ring[p.index() * PLACES..(p.index() + 1) * PLACES];
            if let Some((c, r)) = square_at[p.index()] {
                half[p.index()] = (2 * c - 1, 2 * r - 1);
                kind[p.index()] = 2 + (r % 2) as u8;
                let outside = [
                    (c + 2, r),
                    (c + 2, r + 1),
                    (c + 1, r + 2),
                    (c, r + 2),
                    (c - 1, r + 1),
                    (c - 1, r),
                    (c, r - 1),
                    (c + 1, r - 1),
                ];
                for (slot, (x, y)) in ring.iter_mut().zip(outside) {
                    *slot = point(x, y);
                }
                continue;
            }
            let (x, y) = topo.coords(p);
            let (c, r) = (x as isize + 1, y as isize + 1);
            half[p.index()] = (2 * c - 2, 2 * r - 2);
            let flags = |first: bool, last: bool| u8::from(first) | u8::from(last) << 1;
            edges[p.index()] = [flags(r == 1, r == n), flags(c == 1, c == n)];
            // The diagonal through (c, r) is `/` when c + r is even, `\`
            // when odd; it lies north-east or south-east of the point when
            // r is odd, on the other side when r is even (rules.md).
            kind[p.index()] = ((c + r) % 2) as u8;
            let turn = if r % 2 == 0 { PLACES / 2 } else { 0 };
            for (i, slot) in ring.iter_mut().enumerate() {
                let (dx, dy) = KING_DIRECTIONS[(i + turn) % PLACES];
                *slot = if dx == 0 || dy == 0 {
                    point(c + dx, r + dy)
                } else {
                    // The cell in this quadrant, by its lower-left corner.
                    let (cc, cr) = (c + dx.min(0), r + dy.min(0));
                    if !(1..n).contains(&cc) || !(1..n).contains(&cr) {
                        OFF
                    } else if (cc + cr) % 2 == 1 {
                        topo.squares()
                            .iter()
                            .find(|sq| sq.corners[0].0 == point(cc, cr))
                            .map_or(OFF, |sq| sq.midpoint.0)
                    } else {
                        point(c + dx, r + dy)
                    }
                };
            }
        }
        // White sees the transposed board: its ring of p is Black's ring of
        // transpose(p), transposed back.
        for &p in topo.cells() {
            let t = topo.transpose(p).index();
            for i in 0..PLACES {
                let q = ring[t * PLACES + i];
                ring[(bits + p.index()) * PLACES + i] = if q == OFF {
                    OFF
                } else {
                    topo.transpose(Cell(q)).0
                };
            }
            kind[bits + p.index()] = kind[t];
        }
        OnyxLayout {
            ring,
            kind,
            half,
            edges,
            bits,
        }
    }

    /// The ring of `p` seen from `colour`.
    pub(super) fn ring(&self, colour: Colour, p: Cell) -> &[u16] {
        let at = (colour.index() * self.bits + p.index()) * PLACES;
        &self.ring[at..at + PLACES]
    }

    /// The kind of `p` seen from `colour`: 0 and 1 corner points, 2 and 3
    /// midpoints.
    pub(super) fn kind(&self, colour: Colour, p: Cell) -> u8 {
        self.kind[colour.index() * self.bits + p.index()]
    }
}

/// The canonical shape code of a ring `code` (relative colours) of a
/// point of `kind`: midpoints are reduced by the half turn.
pub(super) fn canonical(code: u32, kind: u8) -> u32 {
    let code = if kind >= 2 {
        // Half a turn moves the ring by 4 places, 8 bits.
        let turned = code >> 8 | (code & 0xff) << 8;
        code.min(turned)
    } else {
        code
    };
    u32::from(kind) << (2 * PLACES) | code
}

/// No group: an empty point.
const NO_GROUP: u16 = u16::MAX;

/// An Onyx position read for feature extraction.
#[derive(Clone)]
pub struct OnyxBoard {
    layout: &'static OnyxLayout,
    topo: &'static Topology,
    /// Per point: [`EMPTY`], [`BLACK`] or [`WHITE`].
    stones: Vec<u8>,
    /// Per point: its group, numbered from 0, or [`NO_GROUP`].
    group: Vec<u16>,
    /// Per group: the goal edges of its colour it touches.
    group_edges: Vec<u8>,
    /// Per point: whether a stone may be placed there (an empty corner
    /// point, or a midpoint of an empty square).
    playable: Vec<bool>,
    /// Per point and colour: the stones a stone of that colour there
    /// captures (the rules' [`Game::captures`]).
    captures: Vec<[u8; 2]>,
    /// Per point and colour: 2 when the point is the only playable common
    /// neighbour of two stones of that colour (not neighbours, different
    /// groups), else 1 when it is one of several, else 0.
    link: Vec<[u8; 2]>,
    last: [Option<Cell>; 2],
}

fn digit(colour: Colour) -> u8 {
    match colour {
        Colour::Black => BLACK as u8,
        Colour::White => WHITE as u8,
    }
}

impl OnyxBoard {
    /// The board of `game` from scratch; `last` are the last stones placed,
    /// newest first (at most two are kept).
    pub fn new<G: Game>(game: &G, last: &[Cell]) -> OnyxBoard {
        let topo = game.topology();
        let mut board = OnyxBoard {
            layout: OnyxLayout::get(topo),
            topo,
            stones: Vec::new(),
            group: Vec::new(),
            group_edges: Vec::new(),
            playable: Vec::new(),
            captures: Vec::new(),
            link: Vec::new(),
            last: [None; 2],
        };
        board.load(game, last);
        board
    }

    /// The board this is a feature board of.
    pub fn topology(&self) -> &'static Topology {
        self.topo
    }

    /// Reads `game` (of this board) from scratch, reusing the buffers.
    pub fn load<G: Game>(&mut self, game: &G, last: &[Cell]) {
        let topo = self.topo;
        let bits = topo.bits;
        self.stones.clear();
        self.stones
            .extend((0..bits).map(|i| game.stone_at(Cell(i as u16)).map_or(EMPTY as u8, digit)));
        self.read_groups();
        self.playable.clear();
        self.playable.extend((0..bits).map(|i| {
            let p = Cell(i as u16);
            self.stones[i] == EMPTY as u8
                && topo.square_of_midpoint(p).is_none_or(|sq| {
                    sq.corners
                        .iter()
                        .all(|c| self.stones[c.index()] == EMPTY as u8)
                })
        }));
        self.captures.clear();
        self.captures.extend(
            (0..bits).map(|i| Colour::BOTH.map(|c| game.captures(Cell(i as u16), c) as u8)),
        );
        self.read_links();
        self.last = [last.first().copied(), last.get(1).copied()];
    }

    /// Numbers the groups by flood fill and notes their goal edges.
    fn read_groups(&mut self) {
        let topo = self.topo;
        self.group.clear();
        self.group.resize(topo.bits, NO_GROUP);
        self.group_edges.clear();
        let mut stack = Vec::new();
        for seed in 0..topo.bits {
            let s = self.stones[seed];
            if s == EMPTY as u8 || self.group[seed] != NO_GROUP {
                continue;
            }
            let id = self.group_edges.len() as u16;
            let colour = usize::from(s == WHITE as u8);
            let mut edges = 0;
            self.group[seed] = id;
            stack.push(seed);
            while let Some(p) = stack.pop() {
                edges |= self.layout.edges[p][colour];
                for n in topo.neighbours(Cell(p as u16)) {
                    if self.stones[n.index()] == s && self.group[n.index()] == NO_GROUP {
                        self.group[n.index()] = id;
                        stack.push(n.index());
                    }
                }
            }
            self.group_edges.push(edges);
        }
    }

    /// Marks the playable common neighbours of every pair of stones of one
    /// colour that are not neighbours and lie in different groups.
    fn read_links(&mut self) {
        let topo = self.topo;
        self.link.clear();
        self.link.resize(topo.bits, [0; 2]);
        for x in topo.cells() {
            let s = self.stones[x.index()];
            if s == EMPTY as u8 {
                continue;
            }
            let colour = usize::from(s == WHITE as u8);
            let near_x = topo.neighbours(*x);
            for q in near_x.iter().filter(|q| self.playable[q.index()]) {
                for y in topo.neighbours(*q) {
                    if y <= x
                        || self.stones[y.index()] != s
                        || self.group[y.index()] == self.group[x.index()]
                        || near_x.contains(y)
                    {
                        continue;
                    }
                    let near_y = topo.neighbours(*y);
                    let common = || {
                        near_x
                            .iter()
                            .filter(|c| self.playable[c.index()] && near_y.contains(c))
                    };
                    let value = if common().count() == 1 { 2 } else { 1 };
                    for c in common() {
                        let l = &mut self.link[c.index()][colour];
                        *l = (*l).max(value);
                    }
                }
            }
        }
    }

    /// The features of `action` (legal here) for `mover`, in the order of
    /// [`super::GROUP_NAMES`]; `specials` is the first special `shape`
    /// value (pass, end of turn, swap follow it).
    pub fn features(&self, action: Action, mover: Colour, specials: u32) -> Features {
        if !action.is_stone() {
            let k = match action {
                Action::PASS => 0,
                Action::END_TURN => 1,
                _ => 2,
            };
            let mut f = [NONE; GROUPS];
            f[0] = specials + k;
            return f;
        }
        let (p, colour) = (action.cell(), action.colour());
        let (me, c) = (digit(colour), colour.index());
        let mine = u32::from(colour == mover);
        let code = self
            .layout
            .ring(colour, p)
            .iter()
            .enumerate()
            .fold(0, |code, (i, &q)| {
                let d = match q {
                    OFF => OFF_BOARD,
                    q if self.stones[q as usize] == EMPTY as u8 => EMPTY,
                    q if self.stones[q as usize] == me => BLACK,
                    _ => WHITE,
                };
                code | d << (2 * i)
            });
        let kind = self.layout.kind[c * self.layout.bits + p.index()];
        let shape = canonical(code, kind) * 2 + mine;
        let near = self.topo.neighbours(p);
        let mut own = [NO_GROUP; 8];
        let mut other = [NO_GROUP; 8];
        let (mut joined, mut touched) = (0, 0);
        let mut edges = self.layout.edges[p.index()][c];
        for n in near {
            let g = self.group[n.index()];
            if g == NO_GROUP {
                continue;
            }
            if self.stones[n.index()] == me {
                if !own[..joined].contains(&g) {
                    own[joined] = g;
                    joined += 1;
                    edges |= self.group_edges[usize::from(g)];
                }
            } else if !other[..touched].contains(&g) {
                other[touched] = g;
                touched += 1;
            }
        }
        let joins = (joined.min(3) as u32) * 2 + mine;
        let touches = (touched.min(3) as u32) * 2 + mine;
        let distance = self
            .last
            .iter()
            .flatten()
            .map(|&l| self.steps(p, l))
            .min()
            .map_or(DISTANCE - 1, |d| (d.clamp(1, 4) - 1) as u32);
        let [by_me, by_them] = [c, 1 - c].map(|k| u32::from(self.captures[p.index()][k]));
        let capture = (by_me / 2).min(2) * 2 + u32::from(by_them > 0);
        let bridge =
            self.new_bridges(p, me, &own[..joined]) * 3 + u32::from(self.link[p.index()][c]);
        let cut = u32::from(self.link[p.index()][1 - c]);
        let edges = edges.count_ones();
        [
            shape, joins, touches, NONE, NONE, distance, capture, bridge, cut, edges,
        ]
    }

    /// Groups (0, 1, 2 or more) other than `joined` that a stone `me` on
    /// `p` would make a bridge to: a stone of its colour, not its
    /// neighbour, with two or more playable common neighbours.
    fn new_bridges(&self, p: Cell, me: u8, joined: &[u16]) -> u32 {
        let near_p = self.topo.neighbours(p);
        let mut found = [NO_GROUP; 2];
        let mut count = 0;
        for q in near_p.iter().filter(|q| self.playable[q.index()]) {
            for y in self.topo.neighbours(*q) {
                let g = self.group[y.index()];
                if *y == p
                    || self.stones[y.index()] != me
                    || joined.contains(&g)
                    || found[..count].contains(&g)
                    || near_p.contains(y)
                {
                    continue;
                }
                let near_y = self.topo.neighbours(*y);
                let links = near_p
                    .iter()
                    .filter(|c| self.playable[c.index()] && near_y.contains(c))
                    .count();
                if links >= 2 {
                    found[count] = g;
                    count += 1;
                    if count == found.len() {
                        return count as u32;
                    }
                }
            }
        }
        count as u32
    }

    /// Steps on the corner-point grid (king steps; a midpoint counts half
    /// a step from its corners, rounded up).
    fn steps(&self, a: Cell, b: Cell) -> usize {
        let ((ax, ay), (bx, by)) = (self.layout.half[a.index()], self.layout.half[b.index()]);
        let d = (ax - bx).unsigned_abs().max((ay - by).unsigned_abs());
        d.div_ceil(2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::FeatureBoard;
    use crate::groups::group_sizes;
    use oddity_rules::{AnyGame, GameKind, GameSpec, Rng, Rules, Stone, with_game};

    fn spec(n: usize) -> GameSpec {
        GameSpec::new(GameKind::Onyx, n, Rules::default()).unwrap()
    }

    /// The features of a stone of `colour` on `point` (names) with
    /// `stones` on the board, `colour` to move, `last` the last stones.
    fn features_at(
        stones: &[(&str, Colour)],
        colour: Colour,
        point: &str,
        last: &[&str],
    ) -> Features {
        let spec = spec(8);
        let topo = spec.topology();
        let cell = |name: &str| topo.parse_cell(name).unwrap();
        let stones: Vec<Stone> = stones
            .iter()
            .map(|&(name, colour)| Stone {
                cell: cell(name),
                colour,
            })
            .collect();
        let last: Vec<Cell> = last.iter().map(|n| cell(n)).collect();
        let game = AnyGame::from_setup(&spec, &stones, colour).unwrap();
        with_game!(&game, g => FeatureBoard::new(g, &last).features(Action::stone(cell(point), colour), colour))
    }

    const B: Colour = Colour::Black;
    const W: Colour = Colour::White;
    /// Group indices.
    const JOINS: usize = 1;
    const TOUCHES: usize = 2;
    const DIST: usize = 5;
    const CAPTURE_G: usize = 6;
    const BRIDGE_G: usize = 7;
    const CUT_G: usize = 8;
    const EDGES_G: usize = 9;

    #[test]
    fn a_ring_has_the_places_the_rules_define() {
        let topo = spec(8).topology();
        let layout = OnyxLayout::get(topo);
        let names = |p: &str, colour: Colour| -> Vec<String> {
            layout
                .ring(colour, topo.parse_cell(p).unwrap())
                .iter()
                .map(|&q| {
                    if q == OFF {
                        "-".into()
                    } else {
                        topo.name(Cell(q)).to_string()
                    }
                })
                .collect()
        };
        // D4: `/` through it to the south-west (row even: turned).
        assert_eq!(
            names("D4", B),
            ["C4", "C3", "D3", "DE34", "E4", "E5", "D5", "CD45"]
        );
        // E5: `/` to the north-east, not turned.
        assert_eq!(
            names("E5", B),
            ["F5", "F6", "E6", "DE56", "D5", "D4", "E4", "EF45"]
        );
        // A midpoint: the 8 corner points just outside its square.
        assert_eq!(
            names("DE56", B),
            ["F5", "F6", "E7", "D7", "C6", "C5", "D4", "E4"]
        );
        // A corner of the board: the places off it are off.
        assert_eq!(names("A1", B).iter().filter(|n| *n == "-").count(), 5);
        // In every interior corner point's ring, seen by either colour, one
        // place of its kind is not a neighbour: the far corner of the split
        // cell whose diagonal misses it.
        for &p in topo.cells().iter().filter(|&&p| !topo.is_midpoint(p)) {
            let (x, y) = topo.coords(p);
            if x == 0 || y == 0 || x == 7 || y == 7 {
                continue;
            }
            for colour in Colour::BOTH {
                let kind = layout.kind[colour.index() * layout.bits + p.index()];
                let far: Vec<usize> = (0..PLACES)
                    .filter(|&i| {
                        !topo
                            .neighbours(p)
                            .contains(&Cell(layout.ring(colour, p)[i]))
                    })
                    .collect();
                assert_eq!(far, [if kind == 0 { 5 } else { 3 }], "{}", topo.name(p));
            }
        }
    }

    #[test]
    fn captures_and_their_prevention() {
        // Square C4-D4-D5-C5 (midpoint CD45): White on D4 and C5, Black on
        // D5: Black on C4 captures them; White there prevents it.
        let stones = [("D4", W), ("C5", W), ("D5", B)];
        assert_eq!(features_at(&stones, B, "C4", &[])[CAPTURE_G], 2);
        assert_eq!(features_at(&stones, W, "C4", &[])[CAPTURE_G], 1);
        // With the same around the square B3-C3-C4-B4 (White on C3 and
        // B4, Black on B3), Black on C4 captures in both squares.
        let both = [
            ("D4", W),
            ("C5", W),
            ("D5", B),
            ("C3", W),
            ("B4", W),
            ("B3", B),
        ];
        assert_eq!(features_at(&both, B, "C4", &[])[CAPTURE_G], 4);
        assert_eq!(features_at(&stones, B, "F6", &[])[CAPTURE_G], 0);
    }

    #[test]
    fn bridges_links_and_cuts() {
        // Black on E5 and D4 are not neighbours (the split cell's diagonal
        // misses them) and share D5 and E4: a bridge.
        let stones = [("E5", B), ("D4", B)];
        let f = features_at(&stones, B, "D5", &[]);
        assert_eq!((f[BRIDGE_G] % 3, f[JOINS]), (1, 2 * 2 + 1));
        assert_eq!(features_at(&stones, W, "D5", &[])[CUT_G], 1);
        // White took E4: D5 is Black's last link, and White's cut.
        let cut = [("E5", B), ("D4", B), ("E4", W)];
        assert_eq!(features_at(&cut, B, "D5", &[])[BRIDGE_G] % 3, 2);
        let f = features_at(&cut, W, "D5", &[]);
        assert_eq!((f[CUT_G], f[TOUCHES]), (2, 2 * 2 + 1));
        // A lone Black stone on E5 and one on D6, across the square
        // D5-E6: they share D5 and E6, a new bridge.
        let f = features_at(&[("E5", B)], B, "D6", &[]);
        assert_eq!((f[BRIDGE_G], f[JOINS]), (3, 1));
        // Next to it, no bridge: E5 joins it.
        let f = features_at(&[("F5", B)], B, "E5", &[]);
        assert_eq!((f[BRIDGE_G], f[JOINS]), (0, 2 + 1));
    }

    #[test]
    fn goal_edges_and_distance() {
        // A Black chain from row 1 to D7: D8 touches both goal edges.
        let chain: Vec<(&str, Colour)> = ["D1", "D2", "D3", "D4", "D5", "D6", "D7"]
            .iter()
            .map(|&n| (n, B))
            .collect();
        assert_eq!(features_at(&chain, B, "D8", &["D7"])[EDGES_G], 2);
        assert_eq!(features_at(&chain, B, "F7", &[])[EDGES_G], 0);
        // White's goals are the columns: A4 touches one.
        let f = features_at(&[], W, "A4", &["C4", "H8"]);
        assert_eq!((f[EDGES_G], f[DIST]), (1, 1));
        // Distance: D8 is 1 step from D7; the midpoint of E6-F7, 2.
        assert_eq!(features_at(&chain, B, "D8", &["D7"])[DIST], 0);
        assert_eq!(features_at(&chain, B, "EF67", &["D7"])[DIST], 1);
    }

    /// The features of a stone are those of its image under each board
    /// symmetry, with the colours swapped where the symmetry swaps the
    /// goal directions, in random positions.
    #[test]
    fn symmetric_positions_have_the_same_features() {
        let spec = spec(8);
        let topo = spec.topology();
        let mut seen_captures = 0;
        for seed in 0..30 {
            let mut rng = Rng::seeded(seed);
            let mut game = AnyGame::new(&spec);
            let plies = 10 + rng.below(40);
            let mut actions = Vec::new();
            let mut last: Vec<Cell> = Vec::new();
            for _ in 0..plies {
                actions.clear();
                with_game!(&game, g => g.legal_actions(&mut actions));
                if with_game!(&game, g => g.is_over()) {
                    break;
                }
                let a = actions[rng.below(actions.len() as u32) as usize];
                with_game!(&mut game, g => g.apply(a));
                if a.is_stone() {
                    last.insert(0, a.cell());
                    last.truncate(2);
                }
            }
            if with_game!(&game, g => g.is_over()) {
                continue;
            }
            let mover = with_game!(&game, g => g.to_move());
            let board = with_game!(&game, g => FeatureBoard::new(g, &last));
            let stones: Vec<Stone> = topo
                .cells()
                .iter()
                .filter_map(|&c| {
                    with_game!(&game, g => g.stone_at(c)).map(|colour| Stone { cell: c, colour })
                })
                .collect();
            for perm in &topo.symmetries()[1..] {
                // B1 stays on a row edge unless the goals turn.
                let (_, y) = topo.coords(perm[1]);
                let swap = !(y == 0 || y == 7);
                let paint = |c: Colour| if swap { c.opposite() } else { c };
                let image: Vec<Stone> = stones
                    .iter()
                    .map(|s| Stone {
                        cell: perm[s.cell.index()],
                        colour: paint(s.colour),
                    })
                    .collect();
                let other = AnyGame::from_setup(&spec, &image, paint(mover)).unwrap();
                let other_last: Vec<Cell> = last.iter().map(|c| perm[c.index()]).collect();
                let other_board = with_game!(&other, g => FeatureBoard::new(g, &other_last));
                actions.clear();
                with_game!(&game, g => g.legal_actions(&mut actions));
                for &a in actions.iter().filter(|a| a.is_stone()) {
                    let f = board.features(a, mover);
                    seen_captures += usize::from(f[CAPTURE_G] > 0);
                    let b = Action::stone(perm[a.cell().index()], paint(a.colour()));
                    assert_eq!(f, other_board.features(b, paint(mover)), "{a:?}");
                }
            }
        }
        assert!(seen_captures > 10, "{seen_captures}");
    }

    #[test]
    fn swap_is_a_special_action() {
        let spec = spec(8);
        let mut game = AnyGame::new(&spec);
        let topo = spec.topology();
        let first = Action::stone(topo.parse_cell("C3").unwrap(), B);
        with_game!(&mut game, g => g.apply(first));
        let f =
            with_game!(&game, g => FeatureBoard::new(g, &[first.cell()]).features(Action::SWAP, W));
        assert_eq!(f[0], group_sizes(ONYX_RING)[0] - 3 + 2);
        assert!(f[1..].iter().all(|&v| v == NONE));
    }
}
