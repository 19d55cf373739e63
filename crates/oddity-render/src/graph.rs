//! A win-rate graph over a whole game, as SVG: Black's win rate after each
//! turn, with chosen turns (the blunders) marked and numbered.

use std::fmt::Write;

use super::palette::Style;
use super::primitives::{num, open_chart};

/// The plot's top edge; above it, the title and two rows of turn labels
/// (their baselines).
const PLOT_TOP: f64 = 76.0;
const LABEL_ROWS: [f64; 2] = [PLOT_TOP - 10.0, PLOT_TOP - 28.0];

/// `black[k]` is Black's win rate (0..=1) after `k` turns; `marked` are turn
/// numbers (1-based) to ring. Each ring's number stands in a band above the
/// plot, joined to its ring by a faint dashed line, so that no label covers
/// the curve; numbers that would touch take a second row.
pub fn win_rate_graph(black: &[f64], marked: &[usize], title: &str, style: &Style) -> String {
    // Plot area in user units; the picture is 800 x 432 at scale 40.
    let (left, top, width, height) = (60.0, PLOT_TOP, 700.0, 300.0);
    let (total_w, total_h) = (800.0, PLOT_TOP + 300.0 + 60.0);
    let turns = black.len().saturating_sub(1).max(1) as f64;
    let x = |k: usize| left + width * k as f64 / turns;
    let y = |v: f64| top + height * (1.0 - v.clamp(0.0, 1.0));
    let ink = style.label.hex();
    let mut out = String::new();
    open_chart(
        &mut out,
        "oddity-graph",
        (total_w, total_h),
        14,
        (title, left + width / 2.0),
        style,
    );
    // Black's half of the chart is shaded: above the line Black is ahead.
    let _ = writeln!(
        out,
        r#"<rect class="plot" x="{left}" y="{top}" width="{width}" height="{height}" fill="{}" stroke="{ink}" stroke-width="1"/>"#,
        style.board.hex()
    );
    for (v, label) in [
        (1.0, "100%"),
        (0.75, "75%"),
        (0.5, "50%"),
        (0.25, "25%"),
        (0.0, "0%"),
    ] {
        let _ = writeln!(
            out,
            r#"<line x1="{left}" y1="{y}" x2="{}" y2="{y}" stroke="{ink}" stroke-width="{}" stroke-opacity="0.5"/>"#,
            left + width,
            if v == 0.5 { 1.5 } else { 0.5 },
            y = num(y(v))
        );
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="end" fill="{ink}">{label}</text>"#,
            left - 6.0,
            num(y(v) + 5.0)
        );
    }
    let step = ((turns / 10.0).ceil() as usize).max(1);
    for k in (0..black.len()).step_by(step) {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" fill="{ink}">{k}</text>"#,
            num(x(k)),
            top + height + 18.0
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" fill="{ink}">turn · Black's win rate (White's is the rest)</text>"#,
        left + width / 2.0,
        top + height + 42.0
    );
    if !black.is_empty() {
        let points: Vec<String> = black
            .iter()
            .enumerate()
            .map(|(k, &v)| format!("{},{}", num(x(k)), num(y(v))))
            .collect();
        let _ = writeln!(
            out,
            r#"<polyline class="black-winrate" points="{}" fill="none" stroke="{}" stroke-width="2.5" stroke-linejoin="round"/>"#,
            points.join(" "),
            style.black.hex()
        );
    }
    // Label rows: the lower first; a label goes up a row when it would
    // touch the previous label of its row.
    let mut shown: Vec<usize> = marked
        .iter()
        .copied()
        .filter(|&t| t < black.len())
        .collect();
    shown.sort_unstable();
    shown.dedup();
    let mut row_end = [f64::NEG_INFINITY; 2];
    for turn in shown {
        let v = black[turn];
        let (cx, cy) = (x(turn), y(v));
        let half = 4.5 * turn.to_string().len() as f64 + 3.0;
        let row = usize::from(cx - half < row_end[0]);
        row_end[row] = cx + half;
        let label_y = LABEL_ROWS[row];
        let _ = write!(out, r#"<g class="blunder" data-turn="{turn}">"#);
        // The guide from the label down to the ring, where there is room.
        if cy - 7.0 > label_y + 6.0 {
            let _ = write!(
                out,
                r#"<line x1="{cx}" y1="{}" x2="{cx}" y2="{}" stroke="{ink}" stroke-opacity="0.45" stroke-width="1" stroke-dasharray="3 3"/>"#,
                num(label_y + 4.0),
                num(cy - 7.0),
                cx = num(cx),
            );
        }
        let _ = writeln!(
            out,
            r#"<circle cx="{cx}" cy="{}" r="7" fill="none" stroke="{red}" stroke-width="2.5"/><text class="turn-label" x="{cx}" y="{label_y}" fill="{red}" font-weight="bold">{turn}</text></g>"#,
            num(cy),
            cx = num(cx),
            red = style.last_turn.hex(),
        );
    }
    out.push_str("</svg>\n");
    out
}
