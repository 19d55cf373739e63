//! The ring of points around a cell and its patterns: each point empty, a
//! stone of the candidate's colour, of the other colour, or off the board,
//! reduced by the symmetries of the ring that are symmetries of the board.
//!
//! Square boards (Xodd) use the 8 points around a cell, diagonals included:
//! groups join orthogonally, but a diagonal stone says whether two
//! orthogonal neighbours are already one group and where a cut is. The 8
//! symmetries of the square turn the ring by two places or mirror it.
//! Hex-hex boards (Yodd, Odd) use the 6 neighbours and the 12 symmetries of
//! the hexagon: turns by one place and mirrors. Onyx has rings of its own
//! (`onyx.rs`).

use oddity_rules::{BoardKind, Cell, Topology, internals::built_once};

/// A ring point off the board.
pub const OFF: u16 = u16::MAX;

/// Digit of a ring point in a pattern code: 2 bits per point, point `i`
/// at bits `2i..2i + 2`.
pub const EMPTY: u32 = 0;
pub const BLACK: u32 = 1;
pub const WHITE: u32 = 2;
pub const OFF_BOARD: u32 = 3;

/// The eight king directions `(dx, dy)` in cyclic order, from east
/// counter-clockwise: the square board's ring, and the Onyx ring's places.
pub const KING_DIRECTIONS: [(isize, isize); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The ring offsets `(dx, dy)` on the board's array, in cyclic order, and
/// how many places one turn of the board moves the ring.
fn ring_of(kind: BoardKind) -> Option<(&'static [(isize, isize)], usize)> {
    // The hex-hex array's neighbours (topology.rs) in cyclic order.
    const HEX: [(isize, isize); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];
    match kind {
        BoardKind::Square => Some((&KING_DIRECTIONS, 2)),
        BoardKind::HexHex => Some((&HEX, 1)),
        BoardKind::Onyx => None,
    }
}

/// One board's rings: for every cell its ring points, and the tables that
/// turn a ring's code into its canonical pattern.
pub struct Layout {
    /// The board these rings are on.
    pub kind: BoardKind,
    /// Points per ring.
    pub len: usize,
    /// `ring[cell * len + i]`: the cell at ring place `i`, or [`OFF`].
    ring: Vec<u16>,
    /// `canon[colour * 4^len + code]`: the canonical code of the ring
    /// `code` (absolute colours) seen from a stone of `colour` (0 Black, 1
    /// White): digit 1 is the candidate's colour, 2 the other.
    canon: Vec<u32>,
}

impl Layout {
    /// The shared layout of a board, built once; `None` for Onyx boards
    /// (`onyx.rs`).
    pub fn get(topo: &'static Topology) -> Option<&'static Layout> {
        let (offsets, step) = ring_of(topo.kind)?;
        Some(built_once(topo, || Layout::build(topo, offsets, step)))
    }

    fn build(topo: &Topology, offsets: &[(isize, isize)], step: usize) -> Layout {
        let len = offsets.len();
        let stride = topo.stride as isize;
        let mut ring = vec![OFF; topo.bits * len];
        for &c in topo.cells() {
            let (x, y) = topo.coords(c);
            for (i, &(dx, dy)) in offsets.iter().enumerate() {
                let (nx, ny) = (x as isize + dx, y as isize + dy);
                if nx < 0 || ny < 0 || nx >= stride || ny >= stride {
                    continue;
                }
                let n = Cell((ny * stride + nx) as u16);
                if topo.is_on_board(n) {
                    ring[c.index() * len + i] = n.0;
                }
            }
        }
        let codes = 1usize << (2 * len);
        let mut canon = vec![0; 2 * codes];
        for code in 0..codes as u32 {
            let relative = [code, swap_colours(code, len)];
            for colour in 0..2 {
                canon[colour * codes + code as usize] = canonical(relative[colour], len, step);
            }
        }
        Layout {
            kind: topo.kind,
            len,
            ring,
            canon,
        }
    }

    /// The ring of `cell`: `len` cells, or `u16::MAX` off the board.
    #[inline]
    pub fn ring(&self, cell: Cell) -> &[u16] {
        &self.ring[cell.index() * self.len..(cell.index() + 1) * self.len]
    }

    /// The ring place of the point opposite place `i`.
    #[inline]
    pub fn opposite(&self, i: usize) -> usize {
        (i + self.len / 2) % self.len
    }

    /// Codes a ring code can take: `4^len`.
    pub fn codes(&self) -> usize {
        1 << (2 * self.len)
    }

    /// The canonical pattern of ring `code` seen from a stone of `colour`
    /// (0 Black, 1 White).
    #[inline]
    pub fn canonical(&self, colour: usize, code: u32) -> u32 {
        self.canon[colour * self.codes() + code as usize]
    }
}

/// Exchanges Black and White digits.
fn swap_colours(code: u32, len: usize) -> u32 {
    (0..len).fold(0, |out, i| {
        let d = code >> (2 * i) & 3;
        let d = match d {
            BLACK => WHITE,
            WHITE => BLACK,
            other => other,
        };
        out | d << (2 * i)
    })
}

/// The smallest code among the ring's turns by multiples of `step` places
/// and their mirrors.
fn canonical(code: u32, len: usize, step: usize) -> u32 {
    let digit = |i: usize| code >> (2 * (i % len)) & 3;
    let mut best = u32::MAX;
    for turn in (0..len).step_by(step) {
        let turned = (0..len).fold(0, |out, i| out | digit(i + turn) << (2 * i));
        let mirrored = (0..len).fold(0, |out, i| out | digit(len - i + turn) << (2 * i));
        best = best.min(turned).min(mirrored);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_patterns_count_as_the_ring_symmetries_say() {
        // Burnside over 4 digits: hexagon 12 symmetries, square 8.
        let count = |len: usize, step: usize| {
            let mut seen: Vec<u32> = (0..1u32 << (2 * len))
                .map(|c| canonical(c, len, step))
                .collect();
            seen.sort_unstable();
            seen.dedup();
            seen.len()
        };
        // Bracelets of 6 beads in 4 colours: 430. The square ring of 8 under
        // its 8 symmetries: identity 4^8, quarter turns 2 x 4^2, half turn
        // 4^4, four mirrors (each fixes two points) 4 x 4^5.
        assert_eq!(count(6, 1), 430);
        assert_eq!(count(8, 2), (65536 + 2 * 16 + 256 + 4 * 1024) / 8);
    }

    #[test]
    fn a_corner_ring_has_its_off_board_points() {
        let topo = Topology::get(BoardKind::Square, 5).unwrap();
        let layout = Layout::get(topo).unwrap();
        let corner = topo.parse_cell("A1").unwrap();
        let off = layout.ring(corner).iter().filter(|&&c| c == OFF).count();
        assert_eq!(off, 5);
        let hex = Topology::get(BoardKind::HexHex, 3).unwrap();
        let layout = Layout::get(hex).unwrap();
        let centre = hex.cells()[hex.cell_count() / 2];
        assert!(layout.ring(centre).iter().all(|&c| c != OFF));
        for (i, &n) in layout.ring(centre).iter().enumerate() {
            // The centre is in its neighbour's ring at the opposite place.
            let back = layout.ring(Cell(n))[layout.opposite(i)];
            assert_eq!(back, centre.0);
        }
    }
}
