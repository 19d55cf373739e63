//! Where every cell, line and label of a board lies, in board units.
//!
//! One board unit is the distance between neighbouring cell centres on the
//! square and hex-hex boards and between neighbouring corner points on Onyx.
//! The y axis points down, as in SVG: row 1 is at the bottom. The whole
//! description is `serde::Serialize`, so a web page can fetch it as JSON and
//! draw or hit-test the board itself.

use serde::Serialize;

use oddity_rules::{BoardKind, Cell, Topology};

/// A point in board units.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Point {
    /// Across, from the left.
    pub x: f64,
    /// Down, from the top.
    pub y: f64,
}

impl Point {
    /// The point at `(x, y)`.
    pub fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    fn shifted(self, dx: f64, dy: f64) -> Point {
        Point::new(self.x + dx, self.y + dy)
    }
}

/// What a playable cell looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CellKind {
    /// A square tile (Xodd).
    Square,
    /// A hexagonal tile (Yodd, Odd).
    Hex,
    /// An Onyx corner point, where grid lines cross.
    Corner,
    /// An Onyx square's midpoint.
    Midpoint,
}

/// One playable cell or point.
#[derive(Clone, Debug, Serialize)]
pub struct CellGeometry {
    /// The cell's bit index in the rules.
    #[serde(skip)]
    pub cell: Cell,
    /// The protocol's name of the cell (`C3`, `DE910`).
    pub name: String,
    /// What is drawn there.
    pub kind: CellKind,
    /// Its centre.
    pub centre: Point,
    /// Radius of a stone on this cell, and of its clickable disc on Onyx.
    pub radius: f64,
    /// Tiles: the outline, corner by corner. Onyx points: empty.
    pub outline: Vec<Point>,
}

/// The kinds of Onyx lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineKind {
    /// An orthogonal line between neighbouring corner points.
    Grid,
    /// The one diagonal of a split cell.
    Diagonal,
    /// Half of a square's diagonal: a corner to the midpoint.
    HalfDiagonal,
}

/// A line of the Onyx lattice joining two adjacent points.
#[derive(Clone, Debug, Serialize)]
pub struct Segment {
    /// What kind of line.
    pub kind: LineKind,
    /// One end.
    pub from: Point,
    /// The other end.
    pub to: Point,
}

/// An Onyx square: its midpoint's name and its corners.
#[derive(Clone, Debug, Serialize)]
pub struct SquareGeometry {
    /// The name of its midpoint (Onyx).
    pub midpoint: String,
    /// Lower-left, lower-right, upper-right, upper-left.
    pub corners: [Point; 4],
}

/// A coordinate label on an edge of the board.
#[derive(Clone, Debug, Serialize)]
pub struct Label {
    /// The text.
    pub text: String,
    /// The centre of the text.
    pub at: Point,
}

/// Everything needed to draw a board and to find the cell under a point.
#[derive(Clone, Debug, Serialize)]
pub struct Geometry {
    /// `square`, `hexhex` or `onyx`.
    pub board: &'static str,
    /// The board's size.
    pub size: usize,
    /// `[x, y, width, height]` of the area holding board and labels.
    pub view_box: [f64; 4],
    /// The board's own area, drawn under the cells.
    pub outline: Vec<Point>,
    /// Every playable cell, in the rules' cell order.
    pub cells: Vec<CellGeometry>,
    /// Onyx: every line between adjacent points. Other boards: empty.
    pub lines: Vec<Segment>,
    /// Onyx: the squares. Other boards: empty.
    pub squares: Vec<SquareGeometry>,
    /// The coordinates written around the board.
    pub labels: Vec<Label>,
    /// Font size of the labels, in board units.
    pub label_size: f64,
}

/// Room around the board for the labels, in board units.
const MARGIN: f64 = 1.0;
const TILE_STONE_RADIUS: f64 = 0.42;
/// Onyx stones on a corner and on a midpoint next to it never overlap:
/// twice this is less than half a square's diagonal (0.707).
const ONYX_STONE_RADIUS: f64 = 0.33;
const LABEL_SIZE: f64 = 0.42;

impl Geometry {
    /// The geometry of `topo`'s board.
    pub fn of(topo: &Topology) -> Geometry {
        match topo.kind {
            BoardKind::Square => square(topo),
            BoardKind::HexHex => hexhex(topo),
            BoardKind::Onyx => onyx(topo),
        }
    }

    /// The geometry of `cell`, if it is on this board.
    pub fn cell(&self, cell: Cell) -> Option<&CellGeometry> {
        self.cells
            .binary_search_by_key(&cell, |c| c.cell)
            .ok()
            .map(|i| &self.cells[i])
    }

    /// The cell whose shape holds `p` (tiles), or whose disc does (Onyx).
    pub fn cell_at(&self, p: Point) -> Option<&CellGeometry> {
        self.cells.iter().find(|c| {
            if c.outline.is_empty() {
                (p.x - c.centre.x).hypot(p.y - c.centre.y) <= c.radius
            } else {
                inside_convex(&c.outline, p)
            }
        })
    }
}

/// Whether `p` lies inside (or on) the convex polygon `outline`.
fn inside_convex(outline: &[Point], p: Point) -> bool {
    let mut sign = 0.0f64;
    for (i, a) in outline.iter().enumerate() {
        let b = outline[(i + 1) % outline.len()];
        let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
        if cross.abs() > 1e-12 {
            if sign != 0.0 && cross.signum() != sign {
                return false;
            }
            sign = cross.signum();
        }
    }
    true
}

/// The letters of a cell name (its column) and its digits (its row).
fn split_name(name: &str) -> (&str, &str) {
    let digits = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    name.split_at(digits)
}

fn square(topo: &Topology) -> Geometry {
    let n = topo.size;
    let centre =
        |x: usize, y: usize| Point::new(MARGIN + x as f64 + 0.5, MARGIN + (n - 1 - y) as f64 + 0.5);
    let cells = topo
        .cells()
        .iter()
        .map(|&cell| {
            let (x, y) = topo.coords(cell);
            let c = centre(x, y);
            CellGeometry {
                cell,
                name: topo.name(cell).to_string(),
                kind: CellKind::Square,
                centre: c,
                radius: TILE_STONE_RADIUS,
                outline: vec![
                    c.shifted(-0.5, -0.5),
                    c.shifted(0.5, -0.5),
                    c.shifted(0.5, 0.5),
                    c.shifted(-0.5, 0.5),
                ],
            }
        })
        .collect::<Vec<_>>();
    let name_at = |x: usize, y: usize| topo.name(Cell((y * topo.stride + x) as u16));
    let far = MARGIN + n as f64 + 0.45;
    let near = MARGIN - 0.45;
    let mut labels = Vec::new();
    for i in 0..n {
        let letter = split_name(name_at(i, 0)).0;
        let number = split_name(name_at(0, i)).1;
        let x = centre(i, 0).x;
        let y = centre(0, i).y;
        for (text, at) in [
            (letter, Point::new(x, near)),
            (letter, Point::new(x, far)),
            (number, Point::new(near, y)),
            (number, Point::new(far, y)),
        ] {
            labels.push(Label {
                text: text.to_string(),
                at,
            });
        }
    }
    let side = n as f64;
    Geometry {
        board: "square",
        size: n,
        view_box: [0.0, 0.0, side + 2.0 * MARGIN, side + 2.0 * MARGIN],
        outline: vec![
            Point::new(MARGIN, MARGIN),
            Point::new(MARGIN + side, MARGIN),
            Point::new(MARGIN + side, MARGIN + side),
            Point::new(MARGIN, MARGIN + side),
        ],
        cells,
        lines: Vec::new(),
        squares: Vec::new(),
        labels,
        label_size: LABEL_SIZE,
    }
}

/// Hex-hex boards: pointy-top hexagons one unit wide, each row one unit
/// apart along the slant, each lower row shifted half a cell to the right.
fn hexhex(topo: &Topology) -> Geometry {
    let n = topo.size as isize;
    let s = 2 * n - 1;
    let row_height = 3f64.sqrt() / 2.0;
    // Circumradius of a hexagon one unit wide.
    let r = 1.0 / 3f64.sqrt();
    // Array position (x, y) to a centre, before the margin is added; also
    // used for off-board positions, where the edge labels go.
    let raw = |x: isize, y: isize| {
        Point::new(
            x as f64 + 0.5 * (s - 1 - y) as f64,
            (s - 1 - y) as f64 * row_height,
        )
    };
    let on = |x: isize, y: isize| (0..s).contains(&x) && (0..s).contains(&y) && (x - y).abs() < n;
    let name_at = |x: isize, y: isize| topo.name(Cell((y * s + x) as u16));
    // Columns are labelled past their lower end, rows past their left end;
    // columns reaching the top edge and rows reaching the upper-right edge
    // get a second label there. No two labels share a place.
    let mut raw_labels = Vec::new();
    for i in 0..s {
        let letter = split_name(name_at(i, (i - n + 1).max(0))).0;
        let low = (i - n + 1).max(0);
        raw_labels.push((letter, raw(i, low - 1)));
        if i >= n - 1 {
            raw_labels.push((letter, raw(i, s)));
        }
        let number = split_name(name_at((i - n + 1).max(0), i)).1;
        let left = (i - n + 1).max(0);
        raw_labels.push((number, raw(left - 1, i)));
        if i >= n - 1 {
            raw_labels.push((number, raw(s, i)));
        }
    }
    let raw_cells: Vec<(Cell, Point)> = topo
        .cells()
        .iter()
        .map(|&cell| {
            let (x, y) = topo.coords(cell);
            debug_assert!(on(x as isize, y as isize));
            (cell, raw(x as isize, y as isize))
        })
        .collect();
    // Everything drawn lies within half a unit of a cell or label centre.
    let points = raw_cells
        .iter()
        .map(|c| c.1)
        .chain(raw_labels.iter().map(|l| l.1));
    let (mut min_x, mut min_y, mut max_x, mut max_y) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for p in points {
        min_x = min_x.min(p.x);
        min_y = min_y.min(p.y);
        max_x = max_x.max(p.x);
        max_y = max_y.max(p.y);
    }
    let pad = 0.6;
    let (dx, dy) = (pad - min_x, pad - min_y);
    let cells = raw_cells
        .into_iter()
        .map(|(cell, p)| {
            let c = p.shifted(dx, dy);
            CellGeometry {
                cell,
                name: topo.name(cell).to_string(),
                kind: CellKind::Hex,
                centre: c,
                radius: TILE_STONE_RADIUS,
                outline: vec![
                    c.shifted(0.0, -r),
                    c.shifted(0.5, -r / 2.0),
                    c.shifted(0.5, r / 2.0),
                    c.shifted(0.0, r),
                    c.shifted(-0.5, r / 2.0),
                    c.shifted(-0.5, -r / 2.0),
                ],
            }
        })
        .collect();
    let labels = raw_labels
        .into_iter()
        .map(|(text, p)| Label {
            text: text.to_string(),
            at: p.shifted(dx, dy),
        })
        .collect();
    // The board: a hexagon through the six corner cells, pushed out so that
    // it holds every tile.
    let middle = raw(n - 1, n - 1).shifted(dx, dy);
    let grow = (n - 1) as f64 + 0.7;
    let outline = [
        (0, 0),
        (n - 1, 0),
        (s - 1, n - 1),
        (s - 1, s - 1),
        (n - 1, s - 1),
        (0, n - 1),
    ]
    .iter()
    .map(|&(x, y)| {
        let p = raw(x, y).shifted(dx, dy);
        let f = grow / (n - 1) as f64;
        Point::new(
            middle.x + (p.x - middle.x) * f,
            middle.y + (p.y - middle.y) * f,
        )
    })
    .collect();
    Geometry {
        board: "hexhex",
        size: topo.size,
        view_box: [
            0.0,
            0.0,
            max_x - min_x + 2.0 * pad,
            max_y - min_y + 2.0 * pad,
        ],
        outline,
        cells,
        lines: Vec::new(),
        squares: Vec::new(),
        labels,
        label_size: LABEL_SIZE,
    }
}

fn onyx(topo: &Topology) -> Geometry {
    let n = topo.size;
    // Points lie a unit apart, so the labels need a little more room.
    const MARGIN: f64 = 1.2;
    // Corner point (c - 1, r - 1) as array coordinates.
    let corner = |x: usize, y: usize| Point::new(MARGIN + x as f64, MARGIN + (n - 1 - y) as f64);
    let centre_of = |cell: Cell| match topo.square_of_midpoint(cell) {
        Some(sq) => {
            let (a, b) = (topo.coords(sq.corners[0]), topo.coords(sq.corners[2]));
            let (p, q) = (corner(a.0, a.1), corner(b.0, b.1));
            Point::new((p.x + q.x) / 2.0, (p.y + q.y) / 2.0)
        }
        None => {
            let (x, y) = topo.coords(cell);
            corner(x, y)
        }
    };
    let cells = topo
        .cells()
        .iter()
        .map(|&cell| CellGeometry {
            cell,
            name: topo.name(cell).to_string(),
            kind: if topo.is_midpoint(cell) {
                CellKind::Midpoint
            } else {
                CellKind::Corner
            },
            centre: centre_of(cell),
            radius: ONYX_STONE_RADIUS,
            outline: Vec::new(),
        })
        .collect();
    // The lines are the board's adjacencies, so the picture cannot disagree
    // with the rules.
    let mut lines = Vec::new();
    for &a in topo.cells() {
        for &b in topo.neighbours(a) {
            if b <= a {
                continue;
            }
            let kind = if topo.is_midpoint(a) || topo.is_midpoint(b) {
                LineKind::HalfDiagonal
            } else {
                let ((ax, ay), (bx, by)) = (topo.coords(a), topo.coords(b));
                if ax == bx || ay == by {
                    LineKind::Grid
                } else {
                    LineKind::Diagonal
                }
            };
            lines.push(Segment {
                kind,
                from: centre_of(a),
                to: centre_of(b),
            });
        }
    }
    let squares = topo
        .squares()
        .iter()
        .map(|sq| SquareGeometry {
            midpoint: topo.name(sq.midpoint).to_string(),
            corners: sq.corners.map(centre_of),
        })
        .collect();
    let name_at = |x: usize, y: usize| topo.name(Cell((y * n + x) as u16));
    let span = (n - 1) as f64;
    let (near, far) = (MARGIN - 0.78, MARGIN + span + 0.78);
    let mut labels = Vec::new();
    for i in 0..n {
        let letter = split_name(name_at(i, 0)).0;
        let number = split_name(name_at(0, i)).1;
        let p = corner(i, i);
        for (text, at) in [
            (letter, Point::new(p.x, near)),
            (letter, Point::new(p.x, far)),
            (number, Point::new(near, p.y)),
            (number, Point::new(far, p.y)),
        ] {
            labels.push(Label {
                text: text.to_string(),
                at,
            });
        }
    }
    let edge = 0.4;
    Geometry {
        board: "onyx",
        size: n,
        view_box: [0.0, 0.0, span + 2.0 * MARGIN, span + 2.0 * MARGIN],
        outline: vec![
            Point::new(MARGIN - edge, MARGIN - edge),
            Point::new(MARGIN + span + edge, MARGIN - edge),
            Point::new(MARGIN + span + edge, MARGIN + span + edge),
            Point::new(MARGIN - edge, MARGIN + span + edge),
        ],
        cells,
        lines,
        squares,
        labels,
        label_size: LABEL_SIZE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry(kind: BoardKind, n: usize) -> Geometry {
        Geometry::of(Topology::get(kind, n).unwrap())
    }

    #[test]
    fn every_cell_is_found_at_its_centre() {
        for (kind, n) in [
            (BoardKind::Square, 3),
            (BoardKind::Square, 12),
            (BoardKind::HexHex, 2),
            (BoardKind::HexHex, 8),
            (BoardKind::Onyx, 4),
            (BoardKind::Onyx, 12),
        ] {
            let g = geometry(kind, n);
            let topo = Topology::get(kind, n).unwrap();
            assert_eq!(g.cells.len(), topo.cell_count());
            for c in &g.cells {
                assert_eq!(g.cell_at(c.centre).map(|f| f.cell), Some(c.cell));
                assert_eq!(g.cell(c.cell).map(|f| &f.name), Some(&c.name));
                let [x, y, w, h] = g.view_box;
                assert!(
                    c.centre.x > x && c.centre.x < x + w && c.centre.y > y && c.centre.y < y + h
                );
            }
        }
    }

    #[test]
    fn hex_neighbours_are_one_unit_apart() {
        let topo = Topology::get(BoardKind::HexHex, 5).unwrap();
        let g = Geometry::of(topo);
        for &a in topo.cells() {
            for &b in topo.neighbours(a) {
                let (p, q) = (g.cell(a).unwrap().centre, g.cell(b).unwrap().centre);
                assert!(((p.x - q.x).hypot(p.y - q.y) - 1.0).abs() < 1e-9);
            }
        }
        // Side 2: row 3 is B3 C3 above A2 B2 C2, row 1 is A1 B1 (rules.md).
        let g = geometry(BoardKind::HexHex, 2);
        let at = |name: &str| g.cells.iter().find(|c| c.name == name).unwrap().centre;
        assert!((at("B3").x - at("A1").x).abs() < 1e-9);
        assert!((at("A2").x - at("B3").x + 0.5).abs() < 1e-9);
        assert!(at("B3").y < at("B2").y && at("B2").y < at("B1").y);
    }

    #[test]
    fn labels_never_overlap_and_name_columns_as_the_protocol_does() {
        for (kind, n) in [
            (BoardKind::Square, 9),
            (BoardKind::HexHex, 2),
            (BoardKind::HexHex, 12),
            (BoardKind::Onyx, 12),
        ] {
            let g = geometry(kind, n);
            for (i, a) in g.labels.iter().enumerate() {
                for b in &g.labels[i + 1..] {
                    assert!(
                        (a.at.x - b.at.x).hypot(a.at.y - b.at.y) > 0.5,
                        "{kind:?} {n}"
                    );
                }
                for c in &g.cells {
                    assert!((a.at.x - c.centre.x).hypot(a.at.y - c.centre.y) > 0.5);
                }
            }
        }
        let letters = |g: &Geometry| {
            let mut l: Vec<String> = g
                .labels
                .iter()
                .filter(|l| l.text.chars().all(|c| c.is_ascii_alphabetic()))
                .map(|l| l.text.clone())
                .collect();
            l.sort();
            l.dedup();
            l.concat()
        };
        assert_eq!(letters(&geometry(BoardKind::Square, 9)), "ABCDEFGHJ");
        assert_eq!(letters(&geometry(BoardKind::HexHex, 5)), "ABCDEFGHJ");
        assert_eq!(letters(&geometry(BoardKind::Onyx, 9)), "ABCDEFGHI");
    }

    #[test]
    fn onyx_lines_are_the_board_adjacencies() {
        let topo = Topology::get(BoardKind::Onyx, 12).unwrap();
        let g = Geometry::of(topo);
        assert_eq!(g.lines.len(), 565);
        assert_eq!(g.squares.len(), 60);
        let count = |k| g.lines.iter().filter(|l| l.kind == k).count();
        assert_eq!(count(LineKind::Grid), 2 * 12 * 11);
        assert_eq!(count(LineKind::HalfDiagonal), 4 * 60);
        assert_eq!(count(LineKind::Diagonal), 121 - 60);
        let mid = g.cells.iter().find(|c| c.name == "DE910").unwrap();
        assert_eq!(mid.kind, CellKind::Midpoint);
        let d9 = g.cells.iter().find(|c| c.name == "D9").unwrap().centre;
        let e10 = g.cells.iter().find(|c| c.name == "E10").unwrap().centre;
        assert!((mid.centre.x - (d9.x + e10.x) / 2.0).abs() < 1e-9);
        assert!((mid.centre.y - (d9.y + e10.y) / 2.0).abs() < 1e-9);
        assert!(e10.y < d9.y, "higher rows are drawn higher");
    }
}
