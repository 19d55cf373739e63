//! SVG pictures of a position, optionally with an analysis drawn over it.
//!
//! Every playable cell is one element with `data-cell="NAME"` (the
//! protocol's name) and the class `cell`; stones, marks and overlays ignore
//! the pointer, so a page that embeds the picture can put click handlers on
//! the cells.

use std::fmt::Write;

use crate::rules::moves::{Colour, Turn};
use crate::rules::position::AnyGame;
use crate::rules::topology::Cell;

use super::geometry::{CellGeometry, Geometry, LineKind, Point};

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// The colour a fraction `t` (0..=1) of the way from `self` to `other`.
    pub fn mix(self, other: Rgb, t: f64) -> Rgb {
        let t = t.clamp(0.0, 1.0);
        let m = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * t).round() as u8;
        Rgb(m(self.0, other.0), m(self.1, other.1), m(self.2, other.2))
    }
}

/// Colours and sizes of a picture.
#[derive(Clone, Debug)]
pub struct Style {
    /// Pixels per board unit: sets the picture's width and height.
    pub scale: f64,
    pub background: Rgb,
    pub board: Rgb,
    /// Onyx: the fill of the squares.
    pub square: Rgb,
    pub line: Rgb,
    /// In board units.
    pub line_width: f64,
    pub black: Rgb,
    pub white: Rgb,
    pub stone_edge: Rgb,
    pub label: Rgb,
    pub font_family: String,
    /// The dot on the stones of the last turn.
    pub last_turn: Rgb,
    /// Heat map colours for the lowest and the highest value.
    pub heat_low: Rgb,
    pub heat_high: Rgb,
    pub heat_opacity: f64,
    /// Verdict marks: a cell whose turns win, lose, or some of each.
    pub won: Rgb,
    pub lost: Rgb,
    pub mixed: Rgb,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            scale: 40.0,
            background: Rgb(0xf6, 0xf1, 0xe7),
            board: Rgb(0xe3, 0xc1, 0x6f),
            square: Rgb(0xcf, 0xa5, 0x52),
            line: Rgb(0x3b, 0x2f, 0x1e),
            line_width: 0.04,
            black: Rgb(0x1c, 0x1c, 0x1c),
            white: Rgb(0xfa, 0xfa, 0xfa),
            stone_edge: Rgb(0x10, 0x10, 0x10),
            label: Rgb(0x40, 0x36, 0x28),
            font_family: "DejaVu Sans, Liberation Sans, Arial, sans-serif".into(),
            last_turn: Rgb(0xd6, 0x27, 0x28),
            heat_low: Rgb(0x31, 0x82, 0xbd),
            heat_high: Rgb(0xde, 0x2d, 0x26),
            heat_opacity: 0.75,
            won: Rgb(0x1a, 0x98, 0x50),
            lost: Rgb(0xd7, 0x30, 0x27),
            mixed: Rgb(0xf4, 0xa5, 0x1c),
        }
    }
}

impl Style {
    pub fn stone(&self, colour: Colour) -> Rgb {
        match colour {
            Colour::Black => self.black,
            Colour::White => self.white,
        }
    }

    /// The heat map colour of a value in 0..=1.
    pub fn heat(&self, value: f64) -> Rgb {
        self.heat_low.mix(self.heat_high, value)
    }

    /// The opacity of a value's heat: low values fade, so the few cells
    /// that matter stand out.
    pub fn heat_alpha(&self, value: f64) -> f64 {
        self.heat_opacity * (0.25 + 0.75 * value.clamp(0.0, 1.0))
    }
}

/// A value per cell, drawn as a colour from `heat_low` (0) to `heat_high` (1).
#[derive(Clone, Debug, Default)]
pub struct HeatMap {
    /// What the values are, for the legend (`visits`, `win rate`).
    pub title: String,
    /// Values in 0..=1; cells not listed are not coloured.
    pub values: Vec<(Cell, f64)>,
    /// Legend text at the low and the high end of the scale.
    pub low: String,
    pub high: String,
}

/// What the turns played on a cell are worth, as proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Won,
    Lost,
    /// Some turns on the cell win and some lose (or win for neither).
    Mixed,
}

/// A verdict drawn on a cell, with a short label (say, the stone colours
/// that win there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub cell: Cell,
    pub verdict: Verdict,
    pub label: String,
}

/// What to draw.
#[derive(Clone)]
pub struct Picture<'a> {
    pub position: &'a AnyGame,
    /// The turn that led to the position: its stones get a dot.
    pub last_turn: Option<Turn>,
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

const LEGEND_HEIGHT: f64 = 1.7;
const CAPTION_HEIGHT: f64 = 0.9;

/// A number for an SVG attribute: at most three decimals, no trailing zeros.
pub(crate) fn num(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// Escapes text for XML content and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn points(outline: &[Point]) -> String {
    outline
        .iter()
        .map(|p| format!("{},{}", num(p.x), num(p.y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `<text>` centred on `at`; the baseline sits a third of the size below.
fn text(out: &mut String, class: &str, at: Point, size: f64, fill: Option<Rgb>, body: &str) {
    let _ = write!(
        out,
        r#"<text class="{class}" x="{}" y="{}" font-size="{}""#,
        num(at.x),
        num(at.y + size * 0.36),
        num(size)
    );
    if let Some(fill) = fill {
        let _ = write!(out, r#" fill="{}""#, fill.hex());
    }
    let _ = writeln!(out, ">{}</text>", escape(body));
}

/// The picture as an SVG document.
pub fn svg(picture: &Picture, style: &Style) -> String {
    let position = picture.position;
    let topo = position.topology();
    let geo = Geometry::of(topo);
    let [vx, vy, vw, board_h] = geo.view_box;
    let legend_top = vy + board_h;
    let mut vh = board_h;
    if picture.heat.is_some() || !picture.marks.is_empty() {
        vh += LEGEND_HEIGHT;
    }
    let caption_top = vy + vh;
    if picture.caption.is_some() {
        vh += CAPTION_HEIGHT;
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
        write_last_turn(&mut out, &geo, turn, style);
    }
    if !picture.best_line.is_empty() {
        write_best_line(&mut out, &geo, &picture.best_line, style);
    }
    if !picture.marks.is_empty() {
        write_marks(&mut out, &geo, &picture.marks, style);
    }
    if let Some(heat) = &picture.heat {
        write_legend(&mut out, heat, vx, vw, legend_top, style);
    } else if !picture.marks.is_empty() {
        write_mark_legend(&mut out, vx, vw, legend_top, style);
    }
    if let Some(caption) = &picture.caption {
        // Shrunk to fit the width: about 0.56 em per character.
        let size = (vw * 0.95 / (caption.chars().count() as f64 * 0.56)).min(0.45);
        text(
            &mut out,
            "caption",
            Point::new(vx + vw / 2.0, caption_top + CAPTION_HEIGHT / 2.0),
            size,
            Some(style.label),
            caption,
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

fn write_last_turn(out: &mut String, geo: &Geometry, turn: &Turn, style: &Style) {
    let Turn::Stones(a, b) = turn else { return };
    out.push_str("<g class=\"last-turn\" pointer-events=\"none\">\n");
    for s in std::iter::once(a).chain(b.as_ref()) {
        if let Some(c) = geo.cell(s.cell) {
            let _ = writeln!(
                out,
                r#"<circle class="last" cx="{}" cy="{}" r="{}" fill="{}"/>"#,
                num(c.centre.x),
                num(c.centre.y),
                num(c.radius * 0.34),
                style.last_turn.hex()
            );
        }
    }
    out.push_str("</g>\n");
}

/// The line's stones, numbered by turn (both stones of a
/// two-stone turn carry the same number).
fn write_best_line(out: &mut String, geo: &Geometry, line: &[Turn], style: &Style) {
    out.push_str("<g class=\"best-line\" pointer-events=\"none\">\n");
    for (k, turn) in line.iter().enumerate() {
        if let Turn::Stones(a, b) = turn {
            for s in std::iter::once(a).chain(b.as_ref()) {
                let Some(c) = geo.cell(s.cell) else { continue };
                let class = format!("line-stone {}", colour_class(s.colour));
                stone(out, &class, c, style.stone(s.colour), style, "");
                let ink = style.stone(s.colour.opposite());
                let size = if k + 1 >= 10 { 0.34 } else { 0.42 } * c.radius / 0.42;
                text(
                    out,
                    "line-number",
                    c.centre,
                    size,
                    Some(ink),
                    &(k + 1).to_string(),
                );
            }
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
/// that fits the board's width.
fn write_mark_legend(out: &mut String, vx: f64, vw: f64, top: f64, style: &Style) {
    let entries = [
        (Verdict::Won, "wins"),
        (Verdict::Lost, "loses"),
        (Verdict::Mixed, "mixed"),
    ];
    // A disc and a gap take 0.6 units; a character about 0.56 em.
    let chars: usize = entries.iter().map(|(_, w)| w.len()).sum();
    let gaps = 0.6 * entries.len() as f64 + 0.4 * (entries.len() - 1) as f64;
    let size = ((vw * 0.95 - gaps) / (chars as f64 * 0.56)).min(0.36);
    let width = gaps + chars as f64 * 0.56 * size;
    let mut x = vx + (vw - width) / 2.0;
    let y = top + 0.75;
    out.push_str("<g class=\"legend\">\n");
    for (verdict, words) in entries {
        let (fill, class) = verdict_fill(verdict, style);
        let _ = writeln!(
            out,
            r#"<circle class="legend-{class}" cx="{}" cy="{}" r="0.22" fill="{}" fill-opacity="0.85"/>"#,
            num(x + 0.22),
            num(y),
            fill.hex()
        );
        let _ = writeln!(
            out,
            r#"<text class="legend-{class}-text" x="{}" y="{}" font-size="{}" fill="{}" text-anchor="start">{}</text>"#,
            num(x + 0.6),
            num(y + size * 0.36),
            num(size),
            style.label.hex(),
            words
        );
        x += 0.6 + words.len() as f64 * 0.56 * size + 0.4;
    }
    out.push_str("</g>\n");
}

/// The scale: its title above a colour bar, the values at the bar's ends.
fn write_legend(out: &mut String, heat: &HeatMap, vx: f64, vw: f64, top: f64, style: &Style) {
    let width = (vw * 0.6).min(8.0);
    let left = vx + (vw - width) / 2.0;
    let size = 0.36;
    let fill = Some(style.label);
    text(
        out,
        "legend-title",
        Point::new(left + width / 2.0, top + 0.35),
        size,
        fill,
        &heat.title,
    );
    let bar_top = top + 0.7;
    let bar_h = 0.35;
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
        num(bar_h),
        num(style.heat_opacity),
        style.line.hex(),
        num(style.line_width)
    );
    let y = bar_top + bar_h + 0.35;
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
