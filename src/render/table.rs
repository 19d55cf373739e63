//! A table of shares as SVG: each cell coloured from the second player's
//! colour (share 0) through white (one half) to the first player's colour
//! (share 1), with its percentage and number of games, and a legend.

use std::fmt::Write;

use super::palette::{Rgb, Style};
use super::primitives::{escape, open_chart};

/// One cell of a [`ShareGrid`].
#[derive(Clone, Debug, PartialEq)]
pub struct ShareCell {
    /// The first player's share, 0..=1; `None`: no games yet.
    pub share: Option<f64>,
    /// The big line (`73%`, `P 1st`) and the small one (`60 games`).
    pub text: String,
    pub note: String,
}

impl ShareCell {
    pub fn played(share: f64, games: u64) -> ShareCell {
        ShareCell {
            share: Some(share),
            text: format!("{:.0}%", 100.0 * share),
            note: format!("{games} games"),
        }
    }

    /// A board whose winner is proven.
    pub fn proven(first_wins: bool) -> ShareCell {
        ShareCell {
            share: Some(if first_wins { 1.0 } else { 0.0 }),
            text: if first_wins { "P 1st" } else { "P 2nd" }.into(),
            note: "proven".into(),
        }
    }

    pub fn not_run() -> ShareCell {
        ShareCell {
            share: None,
            text: "-".into(),
            note: "not run".into(),
        }
    }
}

/// Rows by columns of cells, with their labels.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareGrid {
    pub title: String,
    pub row_title: String,
    pub column_title: String,
    pub rows: Vec<String>,
    pub columns: Vec<String>,
    /// `cells[row][column]`; `None`: no such board (left blank).
    pub cells: Vec<Vec<Option<ShareCell>>>,
}

/// The first player's colour (share 1).
pub const FIRST: Rgb = Rgb(0xb2, 0x18, 0x2b);
/// The second player's colour (share 0).
pub const SECOND: Rgb = Rgb(0x21, 0x66, 0xac);
const EVEN: Rgb = Rgb(0xf7, 0xf7, 0xf7);
const NOT_RUN: Rgb = Rgb(0xd9, 0xd9, 0xd9);

/// The fill of a share.
pub fn share_colour(share: f64) -> Rgb {
    let s = share.clamp(0.0, 1.0);
    if s >= 0.5 {
        EVEN.mix(FIRST, 2.0 * (s - 0.5))
    } else {
        EVEN.mix(SECOND, 2.0 * (0.5 - s))
    }
}

/// Black or white text, whichever reads on the fill.
fn ink_on(fill: Rgb) -> &'static str {
    let light = 0.299 * f64::from(fill.0) + 0.587 * f64::from(fill.1) + 0.114 * f64::from(fill.2);
    if light > 140.0 { "#1c1c1c" } else { "#ffffff" }
}

/// Draws the grid.
pub fn share_grid_svg(grid: &ShareGrid, style: &Style) -> String {
    let (cell_w, cell_h) = (64.0, 44.0);
    let label_w = grid
        .rows
        .iter()
        .chain(std::iter::once(&grid.row_title))
        .map(|r| r.chars().count())
        .max()
        .unwrap_or(0) as f64
        * 8.0
        + 16.0;
    let (left, top) = (label_w.max(60.0), 76.0);
    let width = left + cell_w * grid.columns.len().max(1) as f64 + 20.0;
    let legend_top = top + cell_h * grid.rows.len() as f64 + 24.0;
    let height = legend_top + 56.0;
    let width = width.max(440.0);
    let ink = style.label.hex();
    let mut out = String::new();
    open_chart(
        &mut out,
        "oddity-balance",
        (width, height),
        13,
        (&grid.title, width / 2.0),
        style,
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="48" fill="{ink}">{}</text>"#,
        left + cell_w * grid.columns.len() as f64 / 2.0,
        escape(&grid.column_title)
    );
    let _ = writeln!(
        out,
        r#"<text x="8" y="{}" text-anchor="start" fill="{ink}" font-style="italic">{}</text>"#,
        top - 8.0,
        escape(&grid.row_title)
    );
    for (j, c) in grid.columns.iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" fill="{ink}" font-weight="bold">{}</text>"#,
            left + cell_w * (j as f64 + 0.5),
            top - 8.0,
            escape(c)
        );
    }
    for (i, r) in grid.rows.iter().enumerate() {
        let y = top + cell_h * i as f64;
        let _ = writeln!(
            out,
            r#"<text x="8" y="{}" text-anchor="start" fill="{ink}" font-weight="bold">{}</text>"#,
            y + cell_h / 2.0 + 5.0,
            escape(r)
        );
        for (j, cell) in grid.cells.get(i).into_iter().flatten().enumerate() {
            let Some(cell) = cell else { continue };
            let x = left + cell_w * j as f64;
            let fill = cell.share.map_or(NOT_RUN, share_colour);
            let text_ink = ink_on(fill);
            let _ = writeln!(
                out,
                r#"<g class="cell"><rect x="{x}" y="{y}" width="{cell_w}" height="{cell_h}" fill="{}" stroke="{}" stroke-width="1"/><text x="{}" y="{}" font-size="15" font-weight="bold" fill="{text_ink}">{}</text><text x="{}" y="{}" font-size="10" fill="{text_ink}">{}</text></g>"#,
                fill.hex(),
                style.background.hex(),
                x + cell_w / 2.0,
                y + 21.0,
                escape(&cell.text),
                x + cell_w / 2.0,
                y + 36.0,
                escape(&cell.note)
            );
        }
    }
    // Legend: a bar from the second player's colour to the first's.
    let (bar_left, bar_w) = (width / 2.0 - 150.0, 300.0);
    let steps = 20;
    for k in 0..steps {
        let share = (k as f64 + 0.5) / steps as f64;
        let _ = writeln!(
            out,
            r#"<rect x="{}" y="{legend_top}" width="{}" height="12" fill="{}"/>"#,
            bar_left + bar_w * k as f64 / steps as f64,
            bar_w / steps as f64 + 0.5,
            share_colour(share).hex()
        );
    }
    for (share, label, anchor) in [
        (0.0, "0%: second player wins", "start"),
        (0.5, "50%", "middle"),
        (1.0, "100%: first player wins", "end"),
    ] {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="11" text-anchor="{anchor}" fill="{ink}">{label}</text>"#,
            bar_left + bar_w * share,
            legend_top + 28.0
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_run_from_the_second_player_through_white_to_the_first() {
        assert_eq!(share_colour(1.0), FIRST);
        assert_eq!(share_colour(0.0), SECOND);
        assert_eq!(share_colour(0.5), EVEN);
        let warm = share_colour(0.75);
        assert!(warm.0 > warm.2, "a first-player lean is red: {warm:?}");
    }

    #[test]
    fn every_cell_is_drawn_with_its_text() {
        let grid = ShareGrid {
            title: "Odd <test>".into(),
            row_title: "board".into(),
            column_title: "m".into(),
            rows: vec!["side 3".into(), "side 4".into()],
            columns: vec!["2".into(), "3".into()],
            cells: vec![
                vec![
                    Some(ShareCell::proven(true)),
                    Some(ShareCell::played(0.25, 40)),
                ],
                vec![None, Some(ShareCell::not_run())],
            ],
        };
        let svg = share_grid_svg(&grid, &Style::default());
        assert_eq!(svg.matches(r#"class="cell""#).count(), 3);
        assert!(svg.contains("Odd &lt;test&gt;"));
        assert!(svg.contains(">25%<") && svg.contains(">40 games<"));
        assert!(svg.contains(">P 1st<") && svg.contains(">not run<"));
        assert!(svg.contains(&FIRST.hex()));
    }
}
