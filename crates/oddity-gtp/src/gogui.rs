//! GoGui mode (`oddity gtp --gogui`): the boards as GoGui draws them.
//!
//! GoGui draws a grid of points named like Go vertices (columns `A`..`Z`
//! without `I`, then two letters), either square or in its `hex` geometry.
//! Every board maps onto such a grid:
//! - a square board of side n is the n x n grid itself;
//! - a hex-hex board of side n is a (2n-1) x (2n-1) `hex` grid with two
//!   corners cut off (GoGui's hex rows shift as the engine's do, so the cells
//!   keep their names);
//! - an Onyx board of n points a side is a (2n-1) x (2n-1) square grid: the
//!   corner point (c, r) sits at (2c, 2r) and the midpoint of the square with
//!   lower-left corner (c, r) at (2c+1, 2r+1); the other grid points are not
//!   on the board. Onyx cells therefore have other names in GoGui mode.

use std::collections::HashMap;

use oddity_rules::{AnyGame, BoardKind, Cell, Stone, Topology, Turn};
use oddity_search::{MoveFilter, MoveRule};

/// Column letters of GoGui vertices: `I` is skipped.
const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The grid GoGui draws for one board.
pub struct Grid {
    /// Points per side.
    pub side: usize,
    /// GoGui's `hex` geometry (hex-hex boards) rather than a square grid.
    pub hex: bool,
    /// The cell at each grid point, row by row from the bottom.
    at: Vec<Option<Cell>>,
    /// The grid point (index into `at`) of each cell.
    of: HashMap<Cell, usize>,
}

impl Grid {
    pub fn new(topo: &Topology) -> Grid {
        let n = topo.size;
        let (side, hex) = match topo.kind {
            BoardKind::Square => (n, false),
            BoardKind::HexHex => (2 * n - 1, true),
            BoardKind::Onyx => (2 * n - 1, false),
        };
        let mut at = vec![None; side * side];
        match topo.kind {
            BoardKind::Square | BoardKind::HexHex => {
                for &c in topo.cells() {
                    let (x, y) = topo.coords(c);
                    at[y * side + x] = Some(c);
                }
            }
            BoardKind::Onyx => {
                for &c in topo.cells() {
                    if !topo.is_midpoint(c) {
                        let (x, y) = topo.coords(c);
                        at[2 * y * side + 2 * x] = Some(c);
                    }
                }
                for sq in topo.squares() {
                    let (x, y) = topo.coords(sq.corners[0]);
                    at[(2 * y + 1) * side + 2 * x + 1] = Some(sq.midpoint);
                }
            }
        }
        let of = at
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|c| (c, i)))
            .collect();
        Grid { side, hex, at, of }
    }

    /// The board size (the engine's n) whose grid has `side` points a side,
    /// as GoGui's `boardsize` gives it.
    pub fn size_for_side(kind: BoardKind, side: usize) -> Option<usize> {
        match kind {
            BoardKind::Square => Some(side),
            BoardKind::HexHex | BoardKind::Onyx => (side % 2 == 1).then_some(side.div_ceil(2)),
        }
    }

    /// The answer to `gogui-rules_board_size`: `side`, or `side hex`.
    pub fn board_size(&self) -> String {
        if self.hex {
            format!("{} hex", self.side)
        } else {
            self.side.to_string()
        }
    }

    /// The cell at grid point (x, y), counted from the lower left.
    pub fn cell(&self, x: usize, y: usize) -> Option<Cell> {
        self.at[y * self.side + x]
    }

    /// GoGui's name of a cell.
    pub fn name(&self, c: Cell) -> String {
        let i = self.of[&c];
        format!("{}{}", column_name(i % self.side), i / self.side + 1)
    }

    /// The cell a GoGui vertex names, if it is one (any case).
    pub fn parse(&self, text: &str) -> Option<Cell> {
        let text = text.to_ascii_uppercase();
        let letters = text.bytes().take_while(u8::is_ascii_alphabetic).count();
        let (col, row) = text.split_at(letters);
        let x = parse_column(col)?;
        if row.starts_with('0') || !row.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let y = row.parse::<usize>().ok()?.checked_sub(1)?;
        if x >= self.side || y >= self.side {
            return None;
        }
        self.cell(x, y)
    }
}

/// The search filter that keeps the root's turns to those GoGui can show:
/// one stone of the mover's colour, or a pass. `None` where stones take
/// the mover's colour (Onyx), since GoGui shows every turn there (the swap
/// is its `pass`).
pub fn shown_turns(pos: &AnyGame) -> Option<MoveFilter> {
    if !pos.kind().colour_is_chosen() {
        return None;
    }
    let topo = pos.topology();
    let seat = pos.to_move();
    let mut cells = vec![false; topo.cells().iter().map(|c| c.index() + 1).max()?];
    for &cell in topo.cells() {
        let turn = Turn::Stones(Stone { cell, colour: seat }, None);
        cells[cell.index()] = pos.clone().play_turn(&turn).is_ok();
    }
    Some(MoveFilter {
        rules: vec![MoveRule {
            seat,
            allow: true,
            cells,
            pass: true,
            swap: true,
            until_depth: 1,
            colour: Some(seat),
            second_stone: false,
        }],
    })
}

/// GoGui's column name: `A`..`Z` without `I`, then `AA`, `AB`, ...
fn column_name(x: usize) -> String {
    if x < LETTERS.len() {
        (LETTERS[x] as char).to_string()
    } else {
        let (a, b) = (x / LETTERS.len() - 1, x % LETTERS.len());
        format!("{}{}", LETTERS[a] as char, LETTERS[b] as char)
    }
}

fn parse_column(text: &str) -> Option<usize> {
    let index = |b: u8| LETTERS.iter().position(|&l| l == b);
    match text.as_bytes() {
        [a] => index(*a),
        [a, b] => Some((index(*a)? + 1) * LETTERS.len() + index(*b)?),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::{Action, Colour, Game, GameKind, GameSpec};

    /// The root actions the filter leaves, and those it leaves after `first`.
    fn filtered(pos: &AnyGame, first: Option<Action>) -> Vec<Action> {
        let filter = shown_turns(pos).unwrap();
        let mut actions = Vec::new();
        oddity_rules::with_game!(pos, g => {
            let mut g = g.clone();
            if let Some(a) = first {
                g.apply(a);
            }
            g.legal_actions(&mut actions);
            filter.retain(&mut actions, g.to_move(), g.turns_played() - pos.turns_played());
        });
        actions
    }

    #[test]
    fn shown_turns_are_one_own_stone_or_a_pass() {
        let spec = GameSpec::new(GameKind::Xodd, 4, Default::default()).unwrap();
        let mut pos = AnyGame::new(&spec);
        let topo = pos.topology();
        let stone = |name: &str, colour| Stone {
            cell: topo.parse_cell(name).unwrap(),
            colour,
        };
        let (a1, a2) = (stone("A1", Colour::Black), stone("A2", Colour::Black));
        pos.play_turn(&Turn::Stones(a1, None)).unwrap();
        // White's first turn: a lone white stone leaves an even total, and
        // GoGui cannot show Black's A2 for White: only the pass is left.
        assert_eq!(filtered(&pos, None), [Action::PASS]);
        pos.play_turn(&Turn::Pass).unwrap();
        // Black may join A1 (A2, B1) and end the turn there.
        let mut root = filtered(&pos, None);
        root.sort_by_key(|a| a.bits());
        let b1 = stone("B1", Colour::Black);
        let mut want = vec![a2.action(), b1.action(), Action::PASS];
        want.sort_by_key(|a| a.bits());
        assert_eq!(root, want);
        assert_eq!(filtered(&pos, Some(a2.action())), [Action::END_TURN]);
        // Onyx needs no filter; Odd keeps the mover's colour.
        let onyx = AnyGame::new(&GameSpec::default_for(GameKind::Onyx));
        assert!(shown_turns(&onyx).is_none());
        let odd = AnyGame::new(&GameSpec::new(GameKind::Odd, 3, Default::default()).unwrap());
        let root = filtered(&odd, None);
        assert_eq!(root.len(), odd.topology().cell_count());
        assert!(root.iter().all(|a| a.colour() == Colour::Black));
    }

    #[test]
    fn column_names_round_trip() {
        for x in 0..60 {
            assert_eq!(parse_column(&column_name(x)), Some(x), "{x}");
        }
        assert_eq!(column_name(8), "J");
        assert_eq!(column_name(25), "AA");
        assert_eq!(parse_column("I"), None);
    }

    #[test]
    fn square_and_hex_cells_keep_their_names() {
        for (kind, size) in [(BoardKind::Square, 19), (BoardKind::HexHex, 5)] {
            let topo = Topology::get(kind, size).unwrap();
            let grid = Grid::new(topo);
            for &c in topo.cells() {
                assert_eq!(grid.name(c), topo.name(c));
                assert_eq!(grid.parse(topo.name(c)), Some(c));
            }
        }
        let hex = Grid::new(Topology::get(BoardKind::HexHex, 5).unwrap());
        assert_eq!((hex.side, hex.board_size().as_str()), (9, "9 hex"));
        // The cut-off corners are not cells.
        assert_eq!(hex.parse("A9"), None);
        assert_eq!(hex.parse("J1"), None);
        assert!(hex.parse("E5").is_some());
    }

    #[test]
    fn onyx_points_and_midpoints_on_the_double_grid() {
        let topo = Topology::get(BoardKind::Onyx, 12).unwrap();
        let grid = Grid::new(topo);
        assert_eq!(grid.board_size(), "23");
        let cell = |name: &str| topo.parse_cell(name).unwrap();
        // I1 of Onyx is the 9th column: grid column 16, GoGui's R.
        assert_eq!(grid.name(cell("I1")), "R1");
        assert_eq!(grid.name(cell("A1")), "A1");
        assert_eq!(grid.name(cell("L12")), "X23");
        assert_eq!(grid.name(cell("DE910")), "H18");
        assert_eq!(grid.parse("h18"), Some(cell("DE910")));
        // Between two corner points, and a square without a midpoint.
        assert_eq!(grid.parse("B1"), None);
        assert_eq!(grid.parse("B2"), None);
        let on_board = (0..23)
            .flat_map(|y| (0..23).map(move |x| (x, y)))
            .filter(|&(x, y)| grid.cell(x, y).is_some())
            .count();
        assert_eq!(on_board, topo.cell_count());
        for &c in topo.cells() {
            assert_eq!(grid.parse(&grid.name(c)), Some(c));
        }
        assert_eq!(Grid::size_for_side(BoardKind::Onyx, 23), Some(12));
        assert_eq!(Grid::size_for_side(BoardKind::Onyx, 12), None);
    }
}
