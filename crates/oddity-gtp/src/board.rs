//! `showboard`: a diagram for people. Stones are `B` and `W`, empty points
//! `.`; the stones of the last turn are drawn in parentheses.

use std::fmt::Write as _;

use oddity_rules::{BoardKind, Cell, Colour, GameKind, GameRecord, Topology, Turn};

/// Column letters of square and hex-hex boards (`I` skipped).
const GTP_LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
/// Column letters of Onyx boards (`I` included).
const ONYX_LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";

pub fn seat_name(seat: Colour) -> &'static str {
    match seat {
        Colour::Black => "b (Black)",
        Colour::White => "w (White)",
    }
}

/// The stone on a cell.
type StoneAt<'a> = &'a dyn Fn(Cell) -> Option<Colour>;

fn glyph(at: StoneAt, c: Cell) -> char {
    match at(c) {
        Some(Colour::Black) => 'B',
        Some(Colour::White) => 'W',
        None => '.',
    }
}

fn last_cells(record: &GameRecord) -> Vec<Cell> {
    match record.moves().last() {
        Some((_, Turn::Stones(a, b))) => std::iter::once(a.cell).chain(b.map(|s| s.cell)).collect(),
        _ => Vec::new(),
    }
}

/// The whole `showboard` text.
pub fn draw(record: &GameRecord) -> String {
    let pos = record.position();
    let topo = pos.topology();
    let marked = last_cells(record);
    let spec = pos.spec();
    let mut out = String::new();
    let rules: String = spec
        .rule_options()
        .iter()
        .map(|(name, value)| format!(", {name} {value}"))
        .collect();
    let _ = writeln!(out, "{} size {}{}", spec.kind, spec.size, rules);
    draw_diagram(&mut out, &|c| pos.stone_at(c), topo, &marked);
    out.push_str(&status(record));
    out
}

/// The board diagram alone.
fn draw_diagram(out: &mut String, at: StoneAt, topo: &Topology, marked: &[Cell]) {
    match topo.kind {
        BoardKind::Square => draw_square(out, at, topo, marked),
        BoardKind::HexHex => draw_hex(out, at, topo, marked),
        BoardKind::Onyx => draw_onyx(out, at, topo, marked),
    }
}

/// Group counts, last turn and side to move (or the result).
pub fn status(record: &GameRecord) -> String {
    let pos = record.position();
    let spec = pos.spec();
    let mut out = String::new();
    let [b, w] = pos.group_counts();
    match spec.kind {
        GameKind::Xodd | GameKind::Yodd => {
            let _ = writeln!(
                out,
                "Groups: B {b}, W {w}, total {} ({}); fewer groups wins: {}",
                b + w,
                if (b + w) % 2 == 1 { "odd" } else { "even" },
                match b.cmp(&w) {
                    std::cmp::Ordering::Less => "b ahead",
                    std::cmp::Ordering::Greater => "w ahead",
                    std::cmp::Ordering::Equal => "level",
                }
            );
        }
        GameKind::Odd => {
            let _ = writeln!(
                out,
                "Groups of {}+ stones: B {b}, W {w}, total {} ({}: {} wins if it stays so)",
                spec.min_group(),
                b + w,
                if (b + w) % 2 == 1 { "odd" } else { "even" },
                if (b + w) % 2 == 1 { "b" } else { "w" },
            );
        }
        GameKind::Onyx => {
            let topo = pos.topology();
            let count = |c| {
                topo.cells()
                    .iter()
                    .filter(|&&x| pos.stone_at(x) == Some(c))
                    .count()
            };
            let _ = writeln!(
                out,
                "Stones: B {}, W {}; b joins rows 1 and {n}, w joins columns A and {}",
                count(Colour::Black),
                count(Colour::White),
                ONYX_LETTERS[spec.size - 1] as char,
                n = spec.size,
            );
        }
    }
    if let Some((seat, turn)) = record.moves().last() {
        let _ = writeln!(
            out,
            "Last turn: {} played {}",
            seat_name(*seat),
            pos.token(turn)
        );
    }
    match record.outcome() {
        Some(o) => {
            let _ = writeln!(out, "Game over: {}", o.describe(spec));
        }
        None => {
            let _ = writeln!(out, "To move: {}", seat_name(pos.to_move()));
        }
    }
    out
}

fn cell_text(at: StoneAt, c: Cell, marked: &[Cell]) -> String {
    let g = glyph(at, c);
    if marked.contains(&c) {
        format!("({g})")
    } else {
        format!(" {g} ")
    }
}

fn draw_square(out: &mut String, at: StoneAt, topo: &Topology, marked: &[Cell]) {
    let n = topo.size;
    let letters: String = (0..n)
        .map(|x| format!(" {} ", GTP_LETTERS[x] as char))
        .collect();
    let _ = writeln!(out, "    {letters}");
    for y in (0..n).rev() {
        let row: String = (0..n)
            .map(|x| cell_text(at, Cell((y * topo.stride + x) as u16), marked))
            .collect();
        let _ = writeln!(out, "{:>3} {row} {}", y + 1, y + 1);
    }
    let _ = writeln!(out, "    {letters}");
}

fn draw_hex(out: &mut String, at: StoneAt, topo: &Topology, marked: &[Cell]) {
    let n = topo.size;
    let s = 2 * n - 1;
    // Cell (x, y) is drawn at column 4x + 2(s - 1 - y): each lower row half a
    // cell further right. Columns run from bottom right to top left.
    let col = |x: usize, y: usize| 4 * x + 2 * (s - 1 - y);
    let width = col(s - 1, 0) + 4;
    let header = |y: usize, xs: std::ops::Range<usize>| {
        let mut line = vec![b' '; width];
        for x in xs {
            line[col(x, y) + 1] = GTP_LETTERS[x];
        }
        String::from_utf8(line).unwrap_or_default()
    };
    let _ = writeln!(out, "    {}", header(s - 1, n - 1..s).trim_end());
    for y in (0..s).rev() {
        let mut line = vec![b' '; width];
        for x in 0..s {
            if x.abs_diff(y) < n {
                let text = cell_text(at, Cell((y * topo.stride + x) as u16), marked);
                line[col(x, y)..col(x, y) + 3].copy_from_slice(text.as_bytes());
            }
        }
        let line = String::from_utf8(line).unwrap_or_default();
        let first = y.saturating_sub(n - 1);
        let last = (y + n - 1).min(s - 1);
        let (l, r) = (col(first, y), col(last, y) + 3);
        let _ = writeln!(
            out,
            "{:>3} {}{}{} {}",
            y + 1,
            " ".repeat(l),
            &line[l..r],
            " ".repeat(width - r),
            y + 1
        );
    }
    let _ = writeln!(out, "    {}", header(0, 0..n).trim_end());
    let _ = writeln!(
        out,
        "(hex board: neighbours are left, right, upper-left and upper-right, \
         lower-left and lower-right; a column letter runs up to the left)"
    );
}

fn draw_onyx(out: &mut String, at: StoneAt, topo: &Topology, marked: &[Cell]) {
    let n = topo.size;
    let point = |c: usize, r: usize| Cell(((r - 1) * n + (c - 1)) as u16);
    let letters: String = (0..n)
        .map(|c| format!("{}   ", ONYX_LETTERS[c] as char))
        .collect();
    let _ = writeln!(out, "      {}", letters.trim_end());
    // Midpoint of the square with lower-left corner (c, r), if that cell is one.
    let mut midpoint = vec![None; (n + 1) * (n + 1)];
    for sq in topo.squares() {
        let (c, r) = topo.coords(sq.corners[0]);
        midpoint[(r + 1) * (n + 1) + c + 1] = Some(sq.midpoint);
    }
    for r in (1..=n).rev() {
        // Point c sits at column 1 + 4(c - 1); dashes join neighbours.
        let mut line = vec![b'-'; 4 * (n - 1) + 3];
        line[0] = b' ';
        let last = line.len() - 1;
        line[last] = b' ';
        for c in 1..=n {
            let p = point(c, r);
            let k = 1 + 4 * (c - 1);
            line[k] = glyph(at, p) as u8;
            if line[k] == b'.' {
                line[k] = b'o';
            }
            if marked.contains(&p) {
                line[k - 1] = b'(';
                line[k + 1] = b')';
            }
        }
        let line = String::from_utf8(line).unwrap_or_default();
        let _ = writeln!(out, "{r:>3}  {line} {r}");
        if r > 1 {
            let lower = r - 1;
            let mut between = String::from(" |");
            for c in 1..n {
                let text = match midpoint[lower * (n + 1) + c] {
                    Some(m) => {
                        let g = match at(m) {
                            Some(Colour::Black) => 'B',
                            Some(Colour::White) => 'W',
                            None => 'X',
                        };
                        if marked.contains(&m) {
                            format!("({g})")
                        } else {
                            format!(" {g} ")
                        }
                    }
                    None if lower % 2 == 1 => " / ".into(),
                    None => " \\ ".into(),
                };
                between.push_str(&text);
                between.push('|');
            }
            let _ = writeln!(out, "     {between}");
        }
    }
    let _ = writeln!(out, "      {}", letters.trim_end());
    let _ = writeln!(
        out,
        "(X = an empty square midpoint, named by its columns and rows: DE910 is \
         the midpoint of D9-E10; / and \\ are diagonal lines)"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The diagram of `docs/rules.md` section 1: Onyx 12, standard start.
    const RULES_DIAGRAM: &str = "
      A   B   C   D   E   F   G   H   I   J   K   L
 12   o---o---o---o---o---W---W---o---o---o---o---o  12
      | / | X | / | X | / | X | / | X | / | X | / |
 11   o---o---o---o---o---o---o---o---o---o---o---o  11
      | X | \\ | X | \\ | X | \\ | X | \\ | X | \\ | X |
 10   o---o---o---o---o---o---o---o---o---o---o---o  10
      | / | X | / | X | / | X | / | X | / | X | / |
  9   o---o---o---o---o---o---o---o---o---o---o---o  9
      | X | \\ | X | \\ | X | \\ | X | \\ | X | \\ | X |
  8   o---o---o---o---o---o---o---o---o---o---o---o  8
      | / | X | / | X | / | X | / | X | / | X | / |
  7   B---o---o---o---o---o---o---o---o---o---o---B  7
      | X | \\ | X | \\ | X | \\ | X | \\ | X | \\ | X |
  6   B---o---o---o---o---o---o---o---o---o---o---B  6
      | / | X | / | X | / | X | / | X | / | X | / |
  5   o---o---o---o---o---o---o---o---o---o---o---o  5
      | X | \\ | X | \\ | X | \\ | X | \\ | X | \\ | X |
  4   o---o---o---o---o---o---o---o---o---o---o---o  4
      | / | X | / | X | / | X | / | X | / | X | / |
  3   o---o---o---o---o---o---o---o---o---o---o---o  3
      | X | \\ | X | \\ | X | \\ | X | \\ | X | \\ | X |
  2   o---o---o---o---o---o---o---o---o---o---o---o  2
      | / | X | / | X | / | X | / | X | / | X | / |
  1   o---o---o---o---o---W---W---o---o---o---o---o  1
      A   B   C   D   E   F   G   H   I   J   K   L
";

    fn normalise(text: &str) -> Vec<String> {
        text.lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|l| !l.is_empty() && !l.starts_with('('))
            .collect()
    }

    #[test]
    fn onyx_lattice_matches_the_rules() {
        let topo = Topology::get(BoardKind::Onyx, 12).unwrap();
        let stone = |name: &str| topo.parse_cell(name).unwrap();
        let black: Vec<Cell> = ["A6", "A7", "L6", "L7"].map(stone).to_vec();
        let white: Vec<Cell> = ["F1", "G1", "F12", "G12"].map(stone).to_vec();
        let at = |c: Cell| {
            if black.contains(&c) {
                Some(Colour::Black)
            } else if white.contains(&c) {
                Some(Colour::White)
            } else {
                None
            }
        };
        let mut out = String::new();
        draw_diagram(&mut out, &at, topo, &[]);
        assert_eq!(normalise(&out), normalise(RULES_DIAGRAM), "{out}");
        // Column positions agree too (only the row labels' spacing differs).
        let row = out
            .lines()
            .find(|l| l.trim_start().starts_with("12 "))
            .unwrap();
        assert_eq!(row.find("o---").unwrap(), 6, "{out}");
    }

    #[test]
    fn onyx_marks_midpoints_and_corner_points() {
        let topo = Topology::get(BoardKind::Onyx, 4).unwrap();
        let mid = topo.parse_cell("AB23").unwrap();
        let corner = topo.parse_cell("A1").unwrap();
        let at = |c: Cell| (c == mid || c == corner).then_some(Colour::White);
        let mut out = String::new();
        draw_diagram(&mut out, &at, topo, &[mid, corner]);
        assert!(out.contains("|(W)|"), "{out}");
        assert!(out.contains("(W)--o"), "{out}");
    }

    #[test]
    fn hex_rows_are_staggered_like_the_rules() {
        let topo = Topology::get(BoardKind::HexHex, 2).unwrap();
        let b2 = topo.parse_cell("B2").unwrap();
        let at = |c: Cell| (c == b2).then_some(Colour::Black);
        let mut out = String::new();
        draw_diagram(&mut out, &at, topo, &[]);
        let lines: Vec<&str> = out.lines().collect();
        // Rows 3, 2, 1 after the header: B3 is half a cell left of B2.
        let col = |line: &str, n: usize| line.match_indices(['.', 'B']).nth(n).unwrap().0;
        assert_eq!(col(lines[1], 0) + 2, col(lines[2], 1), "{out}");
        assert_eq!(col(lines[3], 0), col(lines[2], 1) - 2, "{out}");
        assert!(lines[2].contains(" B "), "{out}");
    }
}
