//! Board topologies: which cells exist, their names, neighbours and symmetries.
//!
//! A cell is identified by its bit index ([`Cell`]). Square and hex-hex boards
//! use the row-major index `y * stride + x` of their array (hex-hex boards leave
//! the two cut-off corners of the array unused), so bitboard shifts move
//! stones between neighbours. An Onyx board numbers its corner points
//! `(r - 1) * n + (c - 1)` and its midpoints after them.

use std::collections::HashMap;
use std::fmt;

use crate::once_map::OnceMap;

/// A cell (point) of a board, as its bit index.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell(pub u16);

impl Cell {
    #[inline(always)]
    /// The cell's index in bitboards and per-cell arrays.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
/// The shape of a board.
pub enum BoardKind {
    /// n x n points, orthogonal neighbours (Xodd).
    Square,
    /// Hex-hex board of side n on a (2n-1)^2 array (Yodd, Odd).
    HexHex,
    /// Onyx board with n corner points per side plus square midpoints.
    Onyx,
}

impl BoardKind {
    /// Whether the board has squares with midpoints, the points Onyx's
    /// captures and its pattern rings are made of (the Onyx board only).
    pub fn has_squares(self) -> bool {
        match self {
            BoardKind::Onyx => true,
            BoardKind::Square | BoardKind::HexHex => false,
        }
    }

    /// Smallest and largest accepted size.
    pub fn size_range(self) -> (usize, usize) {
        match self {
            BoardKind::Square => (3, 19),
            BoardKind::HexHex => (2, 12),
            BoardKind::Onyx => (4, 20),
        }
    }
}

/// One square of an Onyx board: its midpoint and four corners.
#[derive(Clone, Copy, Debug)]
pub struct OnyxSquare {
    /// The midpoint.
    pub midpoint: Cell,
    /// Corners in the order lower-left, lower-right, upper-right, upper-left,
    /// so that corner `k` is diagonally opposite corner `(k + 2) % 4`.
    pub corners: [Cell; 4],
}

#[derive(Debug)]
/// A board: its cells, their names and neighbours, symmetries, and the
/// geometry pictures are drawn from. One per board kind and size, built
/// once ([`Topology::get`]).
pub struct Topology {
    /// The shape of the board.
    pub kind: BoardKind,
    /// n: side of a square board, side of a hex-hex board, points per side of Onyx.
    pub size: usize,
    /// Bit indices run over `0..bits`.
    pub bits: usize,
    /// Row stride of the index layout (Onyx: of the corner points).
    pub stride: usize,
    /// On-board cells, increasing.
    cells: Vec<Cell>,
    on_board: Vec<bool>,
    adjacency: Vec<Cell>,
    adjacency_start: Vec<u32>,
    names: Vec<String>,
    by_name: HashMap<String, Cell>,
    /// Onyx only: the squares, and for every point the squares it is a corner of.
    squares: Vec<OnyxSquare>,
    squares_of: Vec<Vec<u16>>,
    /// Onyx only: the square whose midpoint a cell is.
    square_of_midpoint: Vec<Option<u16>>,
    symmetries: Vec<Vec<Cell>>,
}

/// Column letters of GTP vertices: `I` is skipped.
const GTP_LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
/// Column letters of Onyx: `I` included.
const ONYX_LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";

#[derive(Clone, Debug, PartialEq, Eq)]
/// A board size out of range for its board.
pub struct SizeError {
    /// The board.
    pub kind: BoardKind,
    /// The size asked for.
    pub size: usize,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (lo, hi) = self.kind.size_range();
        write!(
            f,
            "size {} is not supported for this board (allowed {lo}..={hi})",
            self.size
        )
    }
}

impl std::error::Error for SizeError {}

impl Topology {
    /// The shared, immutable topology of a board; built once per (kind, size).
    pub fn get(kind: BoardKind, size: usize) -> Result<&'static Topology, SizeError> {
        let (lo, hi) = kind.size_range();
        if size < lo || size > hi {
            return Err(SizeError { kind, size });
        }
        static BUILT: OnceMap<(BoardKind, usize), Topology> = OnceMap::new();
        Ok(BUILT.get_or_build((kind, size), || Box::new(Topology::build(kind, size))))
    }

    fn build(kind: BoardKind, n: usize) -> Topology {
        match kind {
            BoardKind::Square => Self::build_grid(kind, n, n, |_, _| true, &SQUARE_DIRS),
            BoardKind::HexHex => {
                let s = 2 * n - 1;
                Self::build_grid(kind, n, s, |x, y| x.abs_diff(y) < n, &HEX_DIRS)
            }
            BoardKind::Onyx => Self::build_onyx(n),
        }
    }

    fn build_grid(
        kind: BoardKind,
        n: usize,
        stride: usize,
        on: impl Fn(usize, usize) -> bool,
        dirs: &[(isize, isize)],
    ) -> Topology {
        let bits = stride * stride;
        let mut adj = vec![Vec::new(); bits];
        let mut names = vec![String::new(); bits];
        let mut on_board = vec![false; bits];
        for y in 0..stride {
            for (x, &letter) in GTP_LETTERS.iter().enumerate().take(stride) {
                if !on(x, y) {
                    continue;
                }
                let i = y * stride + x;
                on_board[i] = true;
                names[i] = format!("{}{}", letter as char, y + 1);
                for &(dx, dy) in dirs {
                    let (nx, ny) = (x as isize + dx, y as isize + dy);
                    if nx >= 0
                        && ny >= 0
                        && (nx as usize) < stride
                        && (ny as usize) < stride
                        && on(nx as usize, ny as usize)
                    {
                        adj[i].push(Cell((ny as usize * stride + nx as usize) as u16));
                    }
                }
            }
        }
        let maps: Vec<GridMap> = match kind {
            BoardKind::Square => {
                let m = n as isize - 1;
                vec![
                    Box::new(|x, y| (x, y)),
                    Box::new(move |x, y| (m - y, x)),
                    Box::new(move |x, y| (m - x, m - y)),
                    Box::new(move |x, y| (y, m - x)),
                    Box::new(move |x, y| (m - x, y)),
                    Box::new(move |x, y| (x, m - y)),
                    Box::new(|x, y| (y, x)),
                    Box::new(move |x, y| (m - y, m - x)),
                ]
            }
            _ => {
                // Relative to the centre, (a, b) -> (a - b, a) turns the board by 60
                // degrees; (a, b) -> (b, a) mirrors it.
                let c = n as isize - 1;
                (0..12)
                    .map(|k| {
                        Box::new(move |x: isize, y: isize| {
                            let (mut a, mut b) = (x - c, y - c);
                            if k >= 6 {
                                (a, b) = (b, a);
                            }
                            for _ in 0..k % 6 {
                                (a, b) = (a - b, a);
                            }
                            (a + c, b + c)
                        }) as GridMap
                    })
                    .collect()
            }
        };
        let symmetries = maps
            .iter()
            .map(|f| {
                (0..bits)
                    .map(|i| {
                        if !on_board[i] {
                            return Cell(i as u16);
                        }
                        let (x, y) = f((i % stride) as isize, (i / stride) as isize);
                        Cell((y as usize * stride + x as usize) as u16)
                    })
                    .collect()
            })
            .collect();
        Self::assemble(
            kind,
            n,
            stride,
            on_board,
            adj,
            names,
            Vec::new(),
            symmetries,
        )
    }

    fn build_onyx(n: usize) -> Topology {
        let point = |c: usize, r: usize| Cell(((r - 1) * n + (c - 1)) as u16);
        let mut squares = Vec::new();
        let mut diagonals = Vec::new();
        for r in 1..n {
            for c in 1..n {
                if (c + r) % 2 == 1 {
                    let midpoint = Cell((n * n + squares.len()) as u16);
                    let corners = [
                        point(c, r),
                        point(c + 1, r),
                        point(c + 1, r + 1),
                        point(c, r + 1),
                    ];
                    squares.push(OnyxSquare { midpoint, corners });
                } else if r % 2 == 1 {
                    diagonals.push((point(c, r), point(c + 1, r + 1)));
                } else {
                    diagonals.push((point(c, r + 1), point(c + 1, r)));
                }
            }
        }
        let bits = n * n + squares.len();
        let mut adj = vec![Vec::new(); bits];
        let mut link = |a: Cell, b: Cell| {
            adj[a.index()].push(b);
            adj[b.index()].push(a);
        };
        for r in 1..=n {
            for c in 1..=n {
                if c < n {
                    link(point(c, r), point(c + 1, r));
                }
                if r < n {
                    link(point(c, r), point(c, r + 1));
                }
            }
        }
        for &(a, b) in &diagonals {
            link(a, b);
        }
        for sq in &squares {
            for &corner in &sq.corners {
                link(sq.midpoint, corner);
            }
        }
        for list in &mut adj {
            list.sort();
        }
        let mut names = vec![String::new(); bits];
        for r in 1..=n {
            for c in 1..=n {
                names[point(c, r).index()] = format!("{}{}", ONYX_LETTERS[c - 1] as char, r);
            }
        }
        for sq in &squares {
            let (c, r) = (sq.corners[0].index() % n, sq.corners[0].index() / n);
            names[sq.midpoint.index()] = format!(
                "{}{}{}{}",
                ONYX_LETTERS[c] as char,
                ONYX_LETTERS[c + 1] as char,
                r + 1,
                r + 2
            );
        }
        // Corner-point maps as (c, r) -> (c', r'), 1-based. The 180 degree turn
        // and the anti-transpose keep the diagonals only on even n.
        let m = n + 1;
        let mut maps: Vec<PointMap> = vec![Box::new(|c, r| (c, r)), Box::new(|c, r| (r, c))];
        if n.is_multiple_of(2) {
            maps.push(Box::new(move |c, r| (m - c, m - r)));
            maps.push(Box::new(move |c, r| (m - r, m - c)));
        }
        let mid_by_corners: HashMap<Vec<Cell>, Cell> = squares
            .iter()
            .map(|sq| {
                let mut k = sq.corners.to_vec();
                k.sort();
                (k, sq.midpoint)
            })
            .collect();
        let symmetries = maps
            .iter()
            .map(|f| {
                let map_point = |p: Cell| {
                    let (c, r) = f(p.index() % n + 1, p.index() / n + 1);
                    point(c, r)
                };
                let mut perm: Vec<Cell> = (0..n * n).map(|i| map_point(Cell(i as u16))).collect();
                for sq in &squares {
                    let mut k: Vec<Cell> = sq.corners.iter().map(|&p| map_point(p)).collect();
                    k.sort();
                    perm.push(mid_by_corners[&k]);
                }
                perm
            })
            .collect();
        let on_board = vec![true; bits];
        Self::assemble(
            BoardKind::Onyx,
            n,
            n,
            on_board,
            adj,
            names,
            squares,
            symmetries,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn assemble(
        kind: BoardKind,
        size: usize,
        stride: usize,
        on_board: Vec<bool>,
        adj: Vec<Vec<Cell>>,
        names: Vec<String>,
        squares: Vec<OnyxSquare>,
        symmetries: Vec<Vec<Cell>>,
    ) -> Topology {
        let bits = on_board.len();
        let cells = (0..bits)
            .filter(|&i| on_board[i])
            .map(|i| Cell(i as u16))
            .collect::<Vec<_>>();
        let mut adjacency = Vec::new();
        let mut adjacency_start = Vec::with_capacity(bits + 1);
        for list in &adj {
            adjacency_start.push(adjacency.len() as u32);
            adjacency.extend_from_slice(list);
        }
        adjacency_start.push(adjacency.len() as u32);
        let by_name = cells
            .iter()
            .map(|&c| (names[c.index()].clone(), c))
            .collect();
        let mut squares_of = vec![Vec::new(); bits];
        let mut square_of_midpoint = vec![None; bits];
        for (k, sq) in squares.iter().enumerate() {
            square_of_midpoint[sq.midpoint.index()] = Some(k as u16);
            for corner in sq.corners {
                squares_of[corner.index()].push(k as u16);
            }
        }
        Topology {
            kind,
            size,
            bits,
            stride,
            cells,
            on_board,
            adjacency,
            adjacency_start,
            names,
            by_name,
            squares,
            squares_of,
            square_of_midpoint,
            symmetries,
        }
    }

    /// On-board cells in increasing index order.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The number of cells on the board.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Whether `c` is a cell of this board.
    pub fn is_on_board(&self, c: Cell) -> bool {
        self.on_board.get(c.index()).copied().unwrap_or(false)
    }

    #[inline(always)]
    /// The cells next to `c` (joined to it by a line).
    pub fn neighbours(&self, c: Cell) -> &[Cell] {
        let i = c.index();
        &self.adjacency[self.adjacency_start[i] as usize..self.adjacency_start[i + 1] as usize]
    }

    /// Number of lines (adjacent pairs) of the board.
    pub fn line_count(&self) -> usize {
        self.adjacency.len() / 2
    }

    /// The protocol's name of `c` (`C3`, `DE910`).
    pub fn name(&self, c: Cell) -> &str {
        &self.names[c.index()]
    }

    /// Parses a cell name, case-insensitively. Onyx midpoints are accepted as
    /// `DE910` and in the `d9/e10` form.
    pub fn parse_cell(&self, text: &str) -> Option<Cell> {
        let upper = text.to_ascii_uppercase();
        if let Some(&c) = self.by_name.get(&upper) {
            return Some(c);
        }
        if self.kind == BoardKind::Onyx {
            let (a, b) = upper.split_once('/')?;
            let (a, b) = (self.by_name.get(a)?, self.by_name.get(b)?);
            let (lo, hi) = (a.min(b).index(), a.max(b).index());
            let n = self.size;
            // Opposite corners of one square: lower-left and upper-right.
            if hi == lo + n + 1 && lo % n + 1 < n {
                return self
                    .squares
                    .iter()
                    .find(|sq| sq.corners[0].index() == lo)
                    .map(|sq| sq.midpoint);
            }
        }
        None
    }

    /// (x, y) array coordinates, 0-based, of a square or hex-hex cell, or the
    /// (c - 1, r - 1) of an Onyx corner point.
    pub fn coords(&self, c: Cell) -> (usize, usize) {
        (c.index() % self.stride, c.index() / self.stride)
    }

    /// Onyx: all squares.
    pub fn squares(&self) -> &[OnyxSquare] {
        &self.squares
    }

    /// Onyx: indices into [`Self::squares`] of the squares `c` is a corner of.
    pub fn squares_of(&self, c: Cell) -> &[u16] {
        &self.squares_of[c.index()]
    }

    /// Onyx: the square whose midpoint `c` is.
    pub fn square_of_midpoint(&self, c: Cell) -> Option<&OnyxSquare> {
        self.square_of_midpoint[c.index()].map(|k| &self.squares[k as usize])
    }

    /// Whether `c` is an Onyx square's midpoint.
    pub fn is_midpoint(&self, c: Cell) -> bool {
        self.square_of_midpoint[c.index()].is_some()
    }

    /// The board's symmetries as cell permutations (`perm[i]` is the image of
    /// cell `i`); the identity comes first. Onyx: identity and transpose, plus
    /// the 180 degree turn and the anti-transpose on even n.
    pub fn symmetries(&self) -> &[Vec<Cell>] {
        &self.symmetries
    }

    /// Onyx: the transpose (c, r) -> (r, c), used by the swap move.
    pub fn transpose(&self, c: Cell) -> Cell {
        debug_assert_eq!(self.kind, BoardKind::Onyx);
        self.symmetries[1][c.index()]
    }
}

/// A symmetry of a grid board on 0-based array coordinates.
type GridMap = Box<dyn Fn(isize, isize) -> (isize, isize)>;
/// A symmetry of an Onyx board on 1-based corner-point coordinates.
type PointMap = Box<dyn Fn(usize, usize) -> (usize, usize)>;

const SQUARE_DIRS: [(isize, isize); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const HEX_DIRS: [(isize, isize); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hexhex_cell_counts() {
        for (n, count) in [(2, 7), (5, 61), (7, 127), (8, 169), (10, 271)] {
            assert_eq!(
                Topology::get(BoardKind::HexHex, n).unwrap().cell_count(),
                count
            );
        }
    }

    #[test]
    fn onyx_12_counts() {
        let t = Topology::get(BoardKind::Onyx, 12).unwrap();
        assert_eq!(t.cell_count(), 204);
        assert_eq!(t.squares().len(), 60);
        assert_eq!(t.line_count(), 565);
        for r in 1..=12 {
            for c in 1..=12 {
                let p = Cell(((r - 1) * 12 + c - 1) as u16);
                let interior = (2..12).contains(&r) && (2..12).contains(&c);
                let board_corner = (r == 1 || r == 12) && (c == 1 || c == 12);
                if interior {
                    assert_eq!(t.neighbours(p).len(), 7, "{}", t.name(p));
                    assert_eq!(t.squares_of(p).len(), 2);
                } else if board_corner {
                    assert_eq!(t.squares_of(p).len(), 0);
                } else {
                    assert_eq!(t.squares_of(p).len(), 1);
                }
            }
        }
        let m = t.parse_cell("de910").unwrap();
        assert_eq!(t.name(m), "DE910");
        assert_eq!(t.parse_cell("d9/e10"), Some(m));
        assert_eq!(t.parse_cell("e10/d9"), Some(m));
        assert_eq!(t.name(t.parse_cell("ab1011").unwrap()), "AB1011");
        assert_eq!(t.parse_cell("EF910"), None, "E9-F10 is a split cell");
    }

    #[test]
    fn cell_names_round_trip_on_every_board() {
        for kind in [BoardKind::Square, BoardKind::HexHex, BoardKind::Onyx] {
            let (lo, hi) = kind.size_range();
            for n in lo..=hi {
                let t = Topology::get(kind, n).unwrap();
                for &c in t.cells() {
                    let name = t.name(c);
                    assert_eq!(t.parse_cell(name), Some(c), "{kind:?} {n} {name}");
                    assert_eq!(t.parse_cell(&name.to_lowercase()), Some(c));
                }
            }
        }
        let sq = Topology::get(BoardKind::Square, 9).unwrap();
        assert_eq!(sq.parse_cell("I5"), None);
        assert_eq!(sq.name(sq.parse_cell("J9").unwrap()), "J9");
        assert_eq!(sq.parse_cell("K1"), None);
        let hex = Topology::get(BoardKind::HexHex, 2).unwrap();
        assert_eq!(hex.parse_cell("A3"), None, "cut-off corner");
        assert_eq!(hex.parse_cell("C1"), None, "cut-off corner");
        assert!(hex.parse_cell("B2").is_some());
        let onyx = Topology::get(BoardKind::Onyx, 12).unwrap();
        assert!(onyx.parse_cell("I5").is_some());
    }

    #[test]
    fn symmetries_preserve_adjacency() {
        for (kind, n, count) in [
            (BoardKind::Square, 5, 8),
            (BoardKind::HexHex, 4, 12),
            (BoardKind::Onyx, 8, 4),
            (BoardKind::Onyx, 7, 2),
        ] {
            let t = Topology::get(kind, n).unwrap();
            assert_eq!(t.symmetries().len(), count);
            for perm in t.symmetries() {
                let mut seen = std::collections::HashSet::new();
                for &a in t.cells() {
                    let pa = perm[a.index()];
                    assert!(t.is_on_board(pa));
                    assert!(seen.insert(pa), "not a permutation");
                    for &b in t.neighbours(a) {
                        assert!(t.neighbours(pa).contains(&perm[b.index()]));
                    }
                }
            }
        }
    }
}
