//! `showboard`: a diagram for people. Stones are `B` and `W`, empty points
//! `.`; the stones of the last turn are drawn in parentheses.

use std::fmt::Write as _;

use crate::game::GameKind;
use crate::moves::{Colour, Turn};
use crate::position::AnyGame;
use crate::record::GameRecord;
use crate::topology::{BoardKind, Cell, Topology};

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

fn glyph(pos: &AnyGame, c: Cell) -> char {
    match pos.stone_at(c) {
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
    let rules = match spec.kind {
        GameKind::Odd => format!(", groups count from {} stones", spec.min_group()),
        GameKind::Onyx => format!(
            ", {} start, swap {}",
            if spec.standard_start() {
                "standard"
            } else {
                "open"
            },
            if spec.rules.swap { "on" } else { "off" }
        ),
        _ => String::new(),
    };
    let _ = writeln!(out, "{} size {}{}", spec.kind, spec.size, rules);
    match topo.kind {
        BoardKind::Square => draw_square(&mut out, pos, topo, &marked),
        BoardKind::HexHex => draw_hex(&mut out, pos, topo, &marked),
        BoardKind::Onyx => draw_onyx(&mut out, pos, topo, &marked),
    }
    out.push_str(&status(record));
    out
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
            let _ = writeln!(
                out,
                "Game over: {} wins{}",
                seat_name(o.winner),
                if o.by_resignation {
                    " by resignation"
                } else {
                    ""
                }
            );
        }
        None => {
            let _ = writeln!(out, "To move: {}", seat_name(pos.to_move()));
        }
    }
    out
}

fn cell_text(pos: &AnyGame, c: Cell, marked: &[Cell]) -> String {
    let g = glyph(pos, c);
    if marked.contains(&c) {
        format!("({g})")
    } else {
        format!(" {g} ")
    }
}

fn draw_square(out: &mut String, pos: &AnyGame, topo: &Topology, marked: &[Cell]) {
    let n = topo.size;
    let letters: String = (0..n)
        .map(|x| format!(" {} ", GTP_LETTERS[x] as char))
        .collect();
    let _ = writeln!(out, "    {letters}");
    for y in (0..n).rev() {
        let row: String = (0..n)
            .map(|x| cell_text(pos, Cell((y * topo.stride + x) as u16), marked))
            .collect();
        let _ = writeln!(out, "{:>3} {row} {}", y + 1, y + 1);
    }
    let _ = writeln!(out, "    {letters}");
}

fn draw_hex(out: &mut String, pos: &AnyGame, topo: &Topology, marked: &[Cell]) {
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
                let text = cell_text(pos, Cell((y * topo.stride + x) as u16), marked);
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

fn draw_onyx(out: &mut String, pos: &AnyGame, topo: &Topology, marked: &[Cell]) {
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
            line[k] = glyph(pos, p) as u8;
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
                        let g = match pos.stone_at(m) {
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
