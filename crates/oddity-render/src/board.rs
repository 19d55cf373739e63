//! The board picture: a position as SVG, optionally with an analysis
//! drawn over it (a heat map, the best line, verdicts on cells, a caption
//! and legends).
//!
//! Every playable cell is one element with `data-cell="NAME"` (the
//! protocol's name) and the class `cell`; stones, marks and overlays ignore
//! the pointer, so a page that embeds the picture can put click handlers on
//! the cells.

use std::fmt::Write;

use oddity_rules::{AnyGame, Cell, Colour, Turn};

use super::geometry::{CellGeometry, Geometry, LineKind};
use super::palette::{Rgb, Style};
use super::primitives::{LINE_HEIGHT, TextBlock, escape, num, points, text, text_width};

/// A value per cell, drawn as a colour from `heat_low` (0) to `heat_high` (1).
#[derive(Clone, Debug, Default)]
pub struct HeatMap {
    /// What the values are, for the legend (`visits`, `win rate`).
    pub title: String,
    /// Values in 0..=1; cells not listed are not coloured.
    pub values: Vec<(Cell, f64)>,
    /// Legend text at the low and the high end of the scale.
    pub low: String,
    /// The legend at the high end.
    pub high: String,
}

/// What the turns played on a cell are worth, as proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Won for the side to move.
    Won,
    /// Lost for the side to move.
    Lost,
    /// Some turns on the cell win and some lose (or win for neither).
    Mixed,
}

/// A verdict drawn on a cell, with a short label (say, the stone colours
/// that win there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The cell marked.
    pub cell: Cell,
    /// What is known of it.
    pub verdict: Verdict,
    /// The text written on it.
    pub label: String,
}

/// What to draw.
#[derive(Clone)]
pub struct Picture<'a> {
    /// The position drawn.
    pub position: &'a AnyGame,
    /// The turn that led to the position: the stones it put down get a dot
    /// (a swap's: the white stone it put down).
    pub last_turn: Option<Turn>,
    /// The heat map over it, if any.
    pub heat: Option<HeatMap>,
    /// A line of play from the position, its stones numbered from 1.
    pub best_line: Vec<Turn>,
    /// Verdicts on cells, with a legend.
    pub marks: Vec<Mark>,
    /// One line of text under the board.
    pub caption: Option<String>,
}

impl<'a> Picture<'a> {
    /// The position alone.
    pub fn new(position: &'a AnyGame) -> Picture<'a> {
        Picture {
            position,
            last_turn: None,
            heat: None,
            best_line: Vec::new(),
            marks: Vec::new(),
            caption: None,
        }
    }
}
/// Text under the board: the caption's largest size and the legends' size
/// in board units, and the smallest size of either in pixels (the text
/// wraps and the canvas grows rather than the text shrink below it).
const CAPTION_SIZE: f64 = 0.45;
const LEGEND_SIZE: f64 = 0.36;
const MIN_TEXT_PX: f64 = 12.0;
/// Best-line stones: their radius as a share of a real stone's.
pub const LINE_STONE_SHARE: f64 = 0.68;
/// ... and their fill's opacity, so that the heat shows through.
pub const LINE_STONE_OPACITY: f64 = 0.8;

/// The verdicts' legend entries.
const MARK_LEGEND: [(Verdict, &str); 3] = [
    (Verdict::Won, "wins"),
    (Verdict::Lost, "loses"),
    (Verdict::Mixed, "mixed"),
];

/// The verdicts' legend in `width` units: its text size (at least `min`)
/// and its width. Each entry is a disc, a gap and its words, 1.67 em before
/// the words, and 1.1 em between entries.
fn mark_legend_size(width: f64, min: f64) -> (f64, f64) {
    let words: f64 = MARK_LEGEND.iter().map(|(_, w)| text_width(w, 1.0)).sum();
    let n = MARK_LEGEND.len() as f64;
    let ems = words + 1.67 * n + 1.1 * (n - 1.0);
    let size = (width / ems).min(LEGEND_SIZE).max(min);
    (size, ems * size)
}

fn mark_legend_height(size: f64) -> f64 {
    (size * 3.0).max(1.2)
}

/// The heat scale's colour bar: as wide as this, centred.
fn legend_bar_width(board_w: f64) -> f64 {
    (board_w * 0.6).min(8.0)
}

/// The heat legend: its title, the bar, the values at the bar's ends.
fn heat_legend_height(title: &TextBlock, size: f64) -> f64 {
    0.15 + title.height() + 0.1 + LEGEND_BAR_HEIGHT + 0.1 + LINE_HEIGHT * size + 0.15
}

const LEGEND_BAR_HEIGHT: f64 = 0.35;
/// Room around the caption's lines.
const CAPTION_PAD: f64 = 0.35;
/// The picture as an SVG document.
pub fn svg(picture: &Picture, style: &Style) -> String {
    let position = picture.position;
    let topo = position.topology();
    let geo = Geometry::of(topo);
    let [board_x, vy, board_w, board_h] = geo.view_box;
    // Text under the board never shrinks below MIN_TEXT_PX: it wraps, and
    // the canvas grows on both sides where the board is narrower than the
    // lines or the legends.
    let min_size = MIN_TEXT_PX / style.scale;
    // Lines at least 20 ems of the smallest size long, whatever the board.
    let room = (board_w * 0.95).max(20.0 * min_size);
    let legend_min = min_size.max(LEGEND_SIZE);
    let heat_title = picture
        .heat
        .as_ref()
        .map(|h| TextBlock::fit(&h.title, room, legend_min, legend_min));
    let caption = picture
        .caption
        .as_ref()
        .map(|c| TextBlock::fit(c, room, CAPTION_SIZE, min_size));
    let mut needed: f64 = 0.0;
    if let (Some(heat), Some(block)) = (&picture.heat, &heat_title) {
        needed = needed.max(block.width());
        // The values at the scale's ends, each centred on an end of the bar.
        let ends = text_width(&heat.low, legend_min).max(text_width(&heat.high, legend_min));
        needed = needed.max(legend_bar_width(board_w) + ends);
    } else if !picture.marks.is_empty() {
        needed = needed.max(mark_legend_size(room, min_size).1);
    }
    if let Some(block) = &caption {
        needed = needed.max(block.width());
    }
    let vw = board_w.max(needed / 0.95);
    let vx = board_x - (vw - board_w) / 2.0;
    let legend_top = vy + board_h;
    let mut vh = board_h;
    if let Some(block) = &heat_title {
        vh += heat_legend_height(block, legend_min);
    } else if !picture.marks.is_empty() {
        vh += mark_legend_height(mark_legend_size(vw * 0.95, min_size).0);
    }
    let caption_top = vy + vh;
    if let Some(block) = &caption {
        vh += block.height() + CAPTION_PAD;
    }
    let lw = num(style.line_width);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="oddity-board" data-game="{}" data-size="{}" viewBox="{} {} {} {}" width="{}" height="{}" font-family="{}" text-anchor="middle">"#,
        position.kind(),
        topo.size,
        num(vx),
        num(vy),
        num(vw),
        num(vh),
        (vw * style.scale).ceil(),
        (vh * style.scale).ceil(),
        escape(&style.font_family)
    );
    let _ = writeln!(
        out,
        r#"<rect class="background" x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
        num(vx),
        num(vy),
        num(vw),
        num(vh),
        style.background.hex()
    );
    let _ = writeln!(
        out,
        r#"<polygon class="board" points="{}" fill="{}" stroke="{}" stroke-width="{lw}"/>"#,
        points(&geo.outline),
        style.board.hex(),
        style.line.hex()
    );
    if !geo.squares.is_empty() {
        let _ = writeln!(out, r#"<g class="squares" fill="{}">"#, style.square.hex());
        for sq in &geo.squares {
            let _ = writeln!(
                out,
                r#"<polygon data-square="{}" points="{}"/>"#,
                sq.midpoint,
                points(&sq.corners)
            );
        }
        out.push_str("</g>\n");
    }
    let tiles = geo.cells.iter().any(|c| !c.outline.is_empty());
    if tiles {
        write_tiles(&mut out, &geo, style);
    }
    if let Some(heat) = &picture.heat {
        write_heat(&mut out, &geo, heat, style);
    }
    if !tiles {
        write_lattice(&mut out, &geo, style);
    }
    let _ = writeln!(out, r#"<g class="labels" fill="{}">"#, style.label.hex());
    for label in &geo.labels {
        text(
            &mut out,
            "label",
            label.at,
            geo.label_size,
            None,
            &label.text,
        );
    }
    out.push_str("</g>\n");
    write_stones(&mut out, &geo, position, style);
    if let Some(turn) = &picture.last_turn {
        write_last_turn(&mut out, &geo, position, turn, style);
    }
    if !picture.best_line.is_empty() {
        write_best_line(&mut out, &geo, position, &picture.best_line, style);
    }
    if !picture.marks.is_empty() {
        write_marks(&mut out, &geo, &picture.marks, style);
    }
    let centre_x = vx + vw / 2.0;
    if let (Some(heat), Some(title)) = (&picture.heat, &heat_title) {
        let bar = legend_bar_width(board_w);
        write_legend(
            &mut out,
            heat,
            title,
            (centre_x - bar / 2.0, bar),
            legend_top,
            legend_min,
            style,
        );
    } else if !picture.marks.is_empty() {
        let (size, width) = mark_legend_size(vw * 0.95, min_size);
        write_mark_legend(&mut out, centre_x - width / 2.0, legend_top, size, style);
    }
    if let Some(block) = &caption {
        block.write(
            &mut out,
            "caption",
            centre_x,
            caption_top + CAPTION_PAD / 2.0,
            style.label,
        );
    }
    out.push_str("</svg>\n");
    out
}

fn write_tiles(out: &mut String, geo: &Geometry, style: &Style) {
    let _ = writeln!(
        out,
        r#"<g class="cells" fill="{}" stroke="{}" stroke-width="{}">"#,
        style.board.hex(),
        style.line.hex(),
        num(style.line_width)
    );
    for c in &geo.cells {
        let kind = serde_json::to_value(c.kind).unwrap_or_default();
        let _ = writeln!(
            out,
            r#"<polygon class="cell {}" data-cell="{}" points="{}"/>"#,
            kind.as_str().unwrap_or(""),
            c.name,
            points(&c.outline)
        );
    }
    out.push_str("</g>\n");
}

/// Onyx: the lines, then an invisible disc per point to click on.
fn write_lattice(out: &mut String, geo: &Geometry, style: &Style) {
    let _ = writeln!(
        out,
        r#"<g class="lines" stroke="{}" stroke-width="{}" stroke-linecap="round" pointer-events="none">"#,
        style.line.hex(),
        num(style.line_width)
    );
    for line in &geo.lines {
        let class = match line.kind {
            LineKind::Grid => "grid",
            LineKind::Diagonal => "diagonal",
            LineKind::HalfDiagonal => "half-diagonal",
        };
        let _ = writeln!(
            out,
            r#"<line class="{class}" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            num(line.from.x),
            num(line.from.y),
            num(line.to.x),
            num(line.to.y)
        );
    }
    out.push_str("</g>\n");
    let _ = writeln!(
        out,
        r#"<g class="cells" fill="{}" fill-opacity="0">"#,
        style.board.hex()
    );
    for c in &geo.cells {
        let kind = serde_json::to_value(c.kind).unwrap_or_default();
        let _ = writeln!(
            out,
            r#"<circle class="cell {}" data-cell="{}" cx="{}" cy="{}" r="{}"/>"#,
            kind.as_str().unwrap_or(""),
            c.name,
            num(c.centre.x),
            num(c.centre.y),
            num(c.radius)
        );
    }
    out.push_str("</g>\n");
}

fn write_heat(out: &mut String, geo: &Geometry, heat: &HeatMap, style: &Style) {
    out.push_str("<g class=\"heat\" pointer-events=\"none\">\n");
    for &(cell, value) in &heat.values {
        let Some(c) = geo.cell(cell) else { continue };
        let fill = style.heat(value).hex();
        let alpha = num(style.heat_alpha(value));
        let v = num(value.clamp(0.0, 1.0));
        if c.outline.is_empty() {
            let _ = writeln!(
                out,
                r#"<circle data-heat="{}" data-value="{v}" cx="{}" cy="{}" r="{}" fill="{fill}" fill-opacity="{alpha}"/>"#,
                c.name,
                num(c.centre.x),
                num(c.centre.y),
                num(c.radius)
            );
        } else {
            let _ = writeln!(
                out,
                r#"<polygon data-heat="{}" data-value="{v}" points="{}" fill="{fill}" fill-opacity="{alpha}"/>"#,
                c.name,
                points(&c.outline)
            );
        }
    }
    out.push_str("</g>\n");
}

fn stone(out: &mut String, class: &str, c: &CellGeometry, fill: Rgb, style: &Style, extra: &str) {
    let _ = writeln!(
        out,
        r#"<circle class="{class}" cx="{}" cy="{}" r="{}" fill="{}" stroke="{}" stroke-width="{}"{extra}/>"#,
        num(c.centre.x),
        num(c.centre.y),
        num(c.radius),
        fill.hex(),
        style.stone_edge.hex(),
        num(style.line_width)
    );
}

fn colour_class(colour: Colour) -> &'static str {
    match colour {
        Colour::Black => "black",
        Colour::White => "white",
    }
}

fn write_stones(out: &mut String, geo: &Geometry, position: &AnyGame, style: &Style) {
    out.push_str("<g class=\"stones\" pointer-events=\"none\">\n");
    for c in &geo.cells {
        if let Some(colour) = position.stone_at(c.cell) {
            let class = format!("stone {}", colour_class(colour));
            stone(out, &class, c, style.stone(colour), style, "");
        }
    }
    out.push_str("</g>\n");
}
fn write_last_turn(out: &mut String, geo: &Geometry, after: &AnyGame, turn: &Turn, style: &Style) {
    let cells = after.placed_by(turn);
    if cells.is_empty() {
        return;
    }
    out.push_str("<g class=\"last-turn\" pointer-events=\"none\">\n");
    for cell in cells {
        if let Some(c) = geo.cell(cell) {
            let _ = writeln!(
                out,
                r#"<circle class="last" data-last="{}" cx="{}" cy="{}" r="{}" fill="{}"/>"#,
                c.name,
                num(c.centre.x),
                num(c.centre.y),
                num(c.radius * 0.34),
                style.last_turn.hex()
            );
        }
    }
    out.push_str("</g>\n");
}

/// The line played from `position`: each stone it puts down is a smaller,
/// translucent disc of its colour with its turn's number (both stones of a
/// two-stone turn carry the same number; a swap numbers the stone it puts
/// down; a pass only takes a number), so that real stones and the heat map
/// under the suggestion stay told apart at a glance. A cell shows the first
/// stone the line puts there.
fn write_best_line(
    out: &mut String,
    geo: &Geometry,
    position: &AnyGame,
    line: &[Turn],
    style: &Style,
) {
    out.push_str("<g class=\"best-line\" pointer-events=\"none\">\n");
    let mut game = position.clone();
    let mut shown: Vec<Cell> = Vec::new();
    for (k, turn) in line.iter().enumerate() {
        if game.play_turn(turn).is_err() {
            break;
        }
        let number = k + 1;
        for cell in game.placed_by(turn) {
            let (Some(c), Some(colour)) = (geo.cell(cell), game.stone_at(cell)) else {
                continue;
            };
            if shown.contains(&cell) {
                continue;
            }
            shown.push(cell);
            let r = c.radius * LINE_STONE_SHARE;
            let _ = writeln!(
                out,
                r#"<circle class="line-stone {}" data-line="{}" data-turn="{number}" cx="{}" cy="{}" r="{}" fill="{}" fill-opacity="{}" stroke="{}" stroke-width="{}"/>"#,
                colour_class(colour),
                c.name,
                num(c.centre.x),
                num(c.centre.y),
                num(r),
                style.stone(colour).hex(),
                num(LINE_STONE_OPACITY),
                style.stone_edge.hex(),
                num(style.line_width * 0.75)
            );
            let size = r * if number >= 10 { 1.1 } else { 1.45 };
            let _ = writeln!(
                out,
                r#"<text class="line-number" x="{}" y="{}" font-size="{}" font-weight="bold" fill="{}">{number}</text>"#,
                num(c.centre.x),
                num(c.centre.y + size * 0.36),
                num(size),
                style.stone(colour.opposite()).hex()
            );
        }
    }
    out.push_str("</g>\n");
}

fn verdict_fill(verdict: Verdict, style: &Style) -> (Rgb, &'static str) {
    match verdict {
        Verdict::Won => (style.won, "won"),
        Verdict::Lost => (style.lost, "lost"),
        Verdict::Mixed => (style.mixed, "mixed"),
    }
}

/// Each marked cell: a disc in its verdict's colour and its label.
fn write_marks(out: &mut String, geo: &Geometry, marks: &[Mark], style: &Style) {
    out.push_str("<g class=\"marks\" pointer-events=\"none\">\n");
    for m in marks {
        let Some(c) = geo.cell(m.cell) else { continue };
        let (fill, class) = verdict_fill(m.verdict, style);
        let _ = writeln!(
            out,
            r#"<circle class="mark {class}" data-mark="{}" cx="{}" cy="{}" r="{}" fill="{}" fill-opacity="0.85" stroke="{}" stroke-width="{}"/>"#,
            c.name,
            num(c.centre.x),
            num(c.centre.y),
            num(c.radius * 0.8),
            fill.hex(),
            style.stone_edge.hex(),
            num(style.line_width)
        );
        if !m.label.is_empty() {
            let size = c.radius
                * if m.label.chars().count() > 1 {
                    0.62
                } else {
                    0.8
                };
            text(
                out,
                "mark-label",
                c.centre,
                size,
                Some(style.white),
                &m.label,
            );
        }
    }
    out.push_str("</g>\n");
}

/// The verdicts' legend: a disc of each colour and its meaning, in one row
/// from `left`, at text size `size`.
fn write_mark_legend(out: &mut String, left: f64, top: f64, size: f64, style: &Style) {
    let mut x = left;
    let y = top + mark_legend_height(size) / 2.0;
    let r = 0.6 * size;
    out.push_str("<g class=\"legend\">\n");
    for (verdict, words) in MARK_LEGEND {
        let (fill, class) = verdict_fill(verdict, style);
        let _ = writeln!(
            out,
            r#"<circle class="legend-{class}" cx="{}" cy="{}" r="{}" fill="{}" fill-opacity="0.85"/>"#,
            num(x + r),
            num(y),
            num(r),
            fill.hex()
        );
        let _ = writeln!(
            out,
            r#"<text class="legend-{class}-text" x="{}" y="{}" font-size="{}" fill="{}" text-anchor="start">{}</text>"#,
            num(x + 1.67 * size),
            num(y + size * 0.36),
            num(size),
            style.label.hex(),
            words
        );
        x += (1.67 + 1.1) * size + text_width(words, size);
    }
    out.push_str("</g>\n");
}

/// The scale: its title above a colour bar (`bar`: its left end and
/// width), the values at the bar's ends.
fn write_legend(
    out: &mut String,
    heat: &HeatMap,
    title: &TextBlock,
    bar: (f64, f64),
    top: f64,
    size: f64,
    style: &Style,
) {
    let (left, width) = bar;
    title.write(
        out,
        "legend-title",
        left + width / 2.0,
        top + 0.15,
        style.label,
    );
    let bar_top = top + 0.15 + title.height() + 0.1;
    let _ = writeln!(
        out,
        r#"<g class="legend"><defs><linearGradient id="oddity-heat-scale"><stop offset="0" stop-color="{}"/><stop offset="1" stop-color="{}"/></linearGradient></defs>"#,
        style.heat_low.hex(),
        style.heat_high.hex()
    );
    let _ = writeln!(
        out,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="url(#oddity-heat-scale)" fill-opacity="{}" stroke="{}" stroke-width="{}"/>"#,
        num(left),
        num(bar_top),
        num(width),
        num(LEGEND_BAR_HEIGHT),
        num(style.heat_opacity),
        style.line.hex(),
        num(style.line_width)
    );
    let y = bar_top + LEGEND_BAR_HEIGHT + 0.1 + LINE_HEIGHT * size / 2.0;
    for (class, x, body) in [
        ("legend-low", left, &heat.low),
        ("legend-high", left + width, &heat.high),
    ] {
        let _ = writeln!(
            out,
            r#"<text class="{class}" x="{}" y="{}" font-size="{}" fill="{}">{}</text>"#,
            num(x),
            num(y + size * 0.36),
            num(size),
            style.label.hex(),
            escape(body)
        );
    }
    out.push_str("</g>\n");
}
