//! A win-rate graph over a whole game, as SVG: Black's win rate after each
//! turn, with chosen turns (the blunders) marked and numbered.

use std::fmt::Write;

use super::svg::{Style, escape, num};

/// `black[k]` is Black's win rate (0..=1) after `k` turns; `marked` are turn
/// numbers (1-based) to ring, with the seat that played them.
pub fn win_rate_graph(black: &[f64], marked: &[usize], title: &str, style: &Style) -> String {
    // Plot area in user units; the picture is 800 x 400 at scale 40.
    let (left, top, width, height) = (60.0, 40.0, 700.0, 300.0);
    let (total_w, total_h) = (800.0, 400.0);
    let factor = style.scale / 40.0;
    let turns = black.len().saturating_sub(1).max(1) as f64;
    let x = |k: usize| left + width * k as f64 / turns;
    let y = |v: f64| top + height * (1.0 - v.clamp(0.0, 1.0));
    let ink = style.label.hex();
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="oddity-graph" viewBox="0 0 {total_w} {total_h}" width="{}" height="{}" font-family="{}" font-size="14" text-anchor="middle">"#,
        (total_w * factor).ceil(),
        (total_h * factor).ceil(),
        escape(&style.font_family)
    );
    let _ = writeln!(
        out,
        r#"<rect x="0" y="0" width="{total_w}" height="{total_h}" fill="{}"/>"#,
        style.background.hex()
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="24" font-size="16" fill="{ink}">{}</text>"#,
        left + width / 2.0,
        escape(title)
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
    for &turn in marked {
        let Some(&v) = black.get(turn) else { continue };
        let _ = writeln!(
            out,
            r#"<g class="blunder" data-turn="{turn}"><circle cx="{}" cy="{}" r="7" fill="none" stroke="{}" stroke-width="2.5"/><text x="{}" y="{}" fill="{}" font-weight="bold">{turn}</text></g>"#,
            num(x(turn)),
            num(y(v)),
            style.last_turn.hex(),
            num(x(turn)),
            num(if v > 0.85 { y(v) + 24.0 } else { y(v) - 12.0 }),
            style.last_turn.hex()
        );
    }
    out.push_str("</svg>\n");
    out
}
