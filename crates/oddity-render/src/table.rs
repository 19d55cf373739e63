//! A table of balance cells as SVG. A measured cell is filled by the study
//! rule's verdict (the first player's red, the second player's blue, white
//! where the rule has not decided) and shows the first player's share, its
//! games and a bar of its 95% interval against the one-half mark; a proven
//! board shows its proof in a strip beside the measurement, never over it;
//! a board not played at this level is grey, or pale in the verdict's
//! colour where a weaker level decided it. A legend explains each mark.

use std::fmt::Write;

use super::palette::{Rgb, Style};
use super::primitives::{escape, open_chart};
use oddity_fairness::Verdict;

/// One level of play of one board, as measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The first player's share of the games the rule read, and its 95%
    /// interval.
    pub share: f64,
    /// The 95% interval's low end.
    pub low: f64,
    /// Its high end.
    pub high: f64,
    /// Games read.
    pub games: u64,
    /// What the study decided.
    pub verdict: Verdict,
    /// Read to the rule's most games (or decided): the cell is finished.
    pub finished: bool,
}

/// What a cell shows beside its proof.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// The first player's share, measured.
    Measured(Measured),
    /// Not played at this level, where a weaker level (`level`, seconds
    /// per move) decided for the first player (`true`) or the second.
    DecidedBelow {
        /// Whether the first player is favoured.
        first: bool,
        /// How strongly, in words.
        level: String,
    },
    /// Not played.
    NotPlayed,
}

/// One cell of a [`ShareGrid`].
#[derive(Clone, Debug, PartialEq)]
pub struct ShareCell {
    /// The proven winner: `Some(true)` the first player.
    pub proof: Option<bool>,
    /// What it shows.
    pub body: Body,
}

/// Rows by columns of cells, with their labels.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareGrid {
    /// The table's title.
    pub title: String,
    /// What the rows are.
    pub row_title: String,
    /// What the columns are.
    pub column_title: String,
    /// The rows' titles.
    pub rows: Vec<String>,
    /// The columns' titles.
    pub columns: Vec<String>,
    /// `cells[row][column]`; `None`: no such board (left blank).
    pub cells: Vec<Vec<Option<ShareCell>>>,
}

/// The first player's colour.
pub const FIRST: Rgb = Rgb(0xb2, 0x18, 0x2b);
/// The second player's colour.
pub const SECOND: Rgb = Rgb(0x21, 0x66, 0xac);
/// Not decided.
const OPEN: Rgb = Rgb(0xff, 0xff, 0xff);
const NOT_PLAYED: Rgb = Rgb(0xd9, 0xd9, 0xd9);
const INK: &str = "#1c1c1c";

const CELL_W: f64 = 84.0;
const CELL_H: f64 = 60.0;
/// The proof's strip at the left of a cell.
const STRIP_W: f64 = 20.0;

fn verdict_colour(first: bool) -> Rgb {
    if first { FIRST } else { SECOND }
}

/// The pale fill of a board decided at a weaker level.
fn pale(first: bool) -> Rgb {
    Rgb(0xff, 0xff, 0xff).mix(verdict_colour(first), 0.25)
}

fn text(out: &mut String, x: f64, y: f64, size: u32, weight: &str, fill: &str, words: &str) {
    let _ = writeln!(
        out,
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" font-weight="{weight}" fill="{fill}">{}</text>"#,
        escape(words)
    );
}

/// The bar of a 95% interval over a track of 0-100%, with the one-half
/// mark and a dot at the share.
fn interval_bar(out: &mut String, left: f64, width: f64, y: f64, m: &Measured, ink: &str) {
    let at = |v: f64| left + width * v.clamp(0.0, 1.0);
    let _ = writeln!(
        out,
        r#"<g class="interval"><line x1="{left:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{ink}" stroke-width="0.6" opacity="0.6"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{ink}" stroke-width="1"/><line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{ink}" stroke-width="3"/><circle cx="{:.1}" cy="{y:.1}" r="2.6" fill="{ink}"/></g>"#,
        left + width,
        at(0.5),
        y - 4.5,
        at(0.5),
        y + 4.5,
        at(m.low),
        at(m.high),
        at(m.share),
    );
}

/// Black or white text, whichever reads on the fill.
fn ink_on(fill: Rgb) -> &'static str {
    let light = 0.299 * f64::from(fill.0) + 0.587 * f64::from(fill.1) + 0.114 * f64::from(fill.2);
    if light > 140.0 { INK } else { "#ffffff" }
}

fn draw_cell(out: &mut String, x: f64, y: f64, cell: &ShareCell, style: &Style) {
    let border = style.background.hex();
    out.push_str(r#"<g class="cell">"#);
    let body_x = x + STRIP_W;
    let body_w = CELL_W - STRIP_W;
    let middle = body_x + body_w / 2.0;
    match cell.proof {
        Some(first) => {
            let fill = verdict_colour(first);
            let _ = writeln!(
                out,
                r#"<rect class="proof" x="{x}" y="{y}" width="{STRIP_W}" height="{CELL_H}" fill="{}" stroke="{border}"/>"#,
                fill.hex()
            );
            let (label, who) = ("P", if first { "1st" } else { "2nd" });
            text(
                out,
                x + STRIP_W / 2.0,
                y + 26.0,
                11,
                "bold",
                "#ffffff",
                label,
            );
            text(out, x + STRIP_W / 2.0, y + 40.0, 8, "bold", "#ffffff", who);
        }
        None => {
            let _ = writeln!(
                out,
                r#"<rect x="{x}" y="{y}" width="{STRIP_W}" height="{CELL_H}" fill="{}" stroke="{border}"/>"#,
                style.background.hex()
            );
        }
    }
    match &cell.body {
        Body::Measured(m) => {
            let fill = match m.verdict {
                Verdict::First => FIRST,
                Verdict::Second => SECOND,
                Verdict::Undecided => OPEN,
            };
            let ink = ink_on(fill);
            let _ = writeln!(
                out,
                r#"<rect class="measured" x="{body_x}" y="{y}" width="{body_w}" height="{CELL_H}" fill="{}" stroke="{border}"/>"#,
                fill.hex()
            );
            let verdict = match (m.verdict, m.finished) {
                (Verdict::First, _) => "1st wins",
                (Verdict::Second, _) => "2nd wins",
                (Verdict::Undecided, true) => "not decided",
                (Verdict::Undecided, false) => "open",
            };
            text(
                out,
                middle,
                y + 17.0,
                14,
                "bold",
                ink,
                &format!("{:.0}%", 100.0 * m.share),
            );
            text(
                out,
                middle,
                y + 29.0,
                9,
                "normal",
                ink,
                &format!("{} games", m.games),
            );
            text(out, middle, y + 40.0, 9, "bold", ink, verdict);
            interval_bar(out, body_x + 4.0, body_w - 8.0, y + 50.0, m, ink);
        }
        Body::DecidedBelow { first, level } => {
            let _ = writeln!(
                out,
                r#"<rect class="decided-below" x="{body_x}" y="{y}" width="{body_w}" height="{CELL_H}" fill="{}" stroke="{border}" stroke-dasharray="3 2"/>"#,
                pale(*first).hex()
            );
            let who = if *first { "1st wins" } else { "2nd wins" };
            text(out, middle, y + 22.0, 10, "bold", INK, who);
            text(
                out,
                middle,
                y + 34.0,
                9,
                "normal",
                INK,
                &format!("at {level} s"),
            );
            text(out, middle, y + 46.0, 9, "normal", INK, "not played");
        }
        Body::NotPlayed => {
            let _ = writeln!(
                out,
                r#"<rect class="not-played" x="{body_x}" y="{y}" width="{body_w}" height="{CELL_H}" fill="{}" stroke="{border}"/>"#,
                NOT_PLAYED.hex()
            );
            text(out, middle, y + 34.0, 9, "normal", INK, "not played");
        }
    }
    out.push_str("</g>\n");
}

/// The legend: what each fill, strip and bar means.
fn legend(out: &mut String, left: f64, top: f64, ink: &str) {
    let swatch = |out: &mut String, x: f64, y: f64, fill: Rgb, dashed: bool, words: &str| {
        let _ = writeln!(
            out,
            r##"<rect x="{x}" y="{y}" width="16" height="12" fill="{}" stroke="#777777" stroke-width="0.6"{}/>"##,
            fill.hex(),
            if dashed {
                r#" stroke-dasharray="3 2""#
            } else {
                ""
            }
        );
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="11" text-anchor="start" fill="{ink}">{}</text>"#,
            x + 22.0,
            y + 10.0,
            escape(words)
        );
    };
    swatch(out, left, top, FIRST, false, "decided for the first player");
    swatch(
        out,
        left + 210.0,
        top,
        SECOND,
        false,
        "decided for the second player",
    );
    swatch(
        out,
        left + 430.0,
        top,
        OPEN,
        false,
        "not decided (open: more games may decide it)",
    );
    swatch(
        out,
        left,
        top + 20.0,
        pale(true),
        true,
        "decided at a weaker level, not played",
    );
    swatch(
        out,
        left + 260.0,
        top + 20.0,
        NOT_PLAYED,
        false,
        "not played",
    );
    let _ = writeln!(
        out,
        r#"<rect x="{}" y="{}" width="10" height="12" fill="{}"/><text x="{}" y="{}" font-size="11" text-anchor="start" fill="{ink}">P: proven (docs/solved.md), beside the games</text>"#,
        left + 380.0,
        top + 20.0,
        FIRST.hex(),
        left + 396.0,
        top + 30.0
    );
    let bar = Measured {
        share: 0.58,
        low: 0.48,
        high: 0.67,
        games: 100,
        verdict: Verdict::Undecided,
        finished: false,
    };
    interval_bar(out, left, 60.0, top + 46.0, &bar, ink);
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" font-size="11" text-anchor="start" fill="{ink}">dot: the first player's share; bar: its 95% interval, on 0-100%; tick: 50%. Verdicts: docs/balance.md</text>"#,
        left + 70.0,
        top + 50.0
    );
}

/// Draws the grid.
pub fn share_grid_svg(grid: &ShareGrid, style: &Style) -> String {
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
    let legend_top = top + CELL_H * grid.rows.len() as f64 + 24.0;
    let height = legend_top + 64.0;
    let width = (left + CELL_W * grid.columns.len().max(1) as f64 + 20.0).max(820.0);
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
        left + CELL_W * grid.columns.len() as f64 / 2.0,
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
            left + CELL_W * (j as f64 + 0.5),
            top - 8.0,
            escape(c)
        );
    }
    for (i, r) in grid.rows.iter().enumerate() {
        let y = top + CELL_H * i as f64;
        let _ = writeln!(
            out,
            r#"<text x="8" y="{}" text-anchor="start" fill="{ink}" font-weight="bold">{}</text>"#,
            y + CELL_H / 2.0 + 5.0,
            escape(r)
        );
        for (j, cell) in grid.cells.get(i).into_iter().flatten().enumerate() {
            if let Some(cell) = cell {
                draw_cell(&mut out, left + CELL_W * j as f64, y, cell, style);
            }
        }
    }
    legend(&mut out, 12.0, legend_top, &ink);
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(share: f64, verdict: Verdict, finished: bool) -> Body {
        Body::Measured(Measured {
            share,
            low: share - 0.1,
            high: share + 0.1,
            games: 40,
            verdict,
            finished,
        })
    }

    #[test]
    fn every_cell_shows_its_verdict_and_a_proof_beside_its_games() {
        let grid = ShareGrid {
            title: "Odd <test>".into(),
            row_title: "board".into(),
            column_title: "m".into(),
            rows: vec!["side 3".into(), "side 4".into()],
            columns: vec!["2".into(), "3".into(), "4".into()],
            cells: vec![
                vec![
                    Some(ShareCell {
                        proof: Some(true),
                        body: measured(0.51, Verdict::Undecided, false),
                    }),
                    Some(ShareCell {
                        proof: None,
                        body: measured(0.25, Verdict::Second, true),
                    }),
                    Some(ShareCell {
                        proof: Some(false),
                        body: Body::NotPlayed,
                    }),
                ],
                vec![
                    None,
                    Some(ShareCell {
                        proof: None,
                        body: Body::DecidedBelow {
                            first: true,
                            level: "0.2".into(),
                        },
                    }),
                    Some(ShareCell {
                        proof: None,
                        body: measured(0.58, Verdict::Undecided, true),
                    }),
                ],
            ],
        };
        let svg = share_grid_svg(&grid, &Style::default());
        assert_eq!(svg.matches(r#"<g class="cell">"#).count(), 5);
        assert!(svg.contains("Odd &lt;test&gt;"));
        // The proven first-player win and its 51% of games, side by side.
        assert_eq!(svg.matches(r#"class="proof""#).count(), 2);
        assert!(svg.contains(">51%<") && svg.contains(">open<"));
        assert!(svg.contains(">25%<") && svg.contains(">2nd wins<"));
        assert!(svg.contains(">not decided<"));
        // Intervals on every measured cell and one in the legend.
        assert_eq!(svg.matches(r#"class="interval""#).count(), 4);
        // Not played and decided below are told apart.
        assert!(svg.contains(r#"class="not-played""#));
        assert!(svg.contains(r#"class="decided-below""#) && svg.contains(">at 0.2 s<"));
        // A verdict fills its cell; an undecided share does not tint it.
        let fills: Vec<&str> = svg
            .split(r#"class="measured""#)
            .skip(1)
            .filter_map(|rest| rest.split("fill=\"").nth(1))
            .filter_map(|rest| rest.split('"').next())
            .collect();
        let (open, second) = (OPEN.hex(), SECOND.hex());
        assert_eq!(fills, [open.as_str(), second.as_str(), open.as_str()]);
    }
}
