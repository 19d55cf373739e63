//! SVG primitives every picture is made of: numbers and escaped text for
//! attributes, `<text>` elements, text measured and set in lines, and the
//! opening of a chart (graphs and tables).

use std::fmt::Write;

use super::geometry::Point;
use super::palette::{Rgb, Style};

/// Lines of text are this many ems apart.
pub(crate) const LINE_HEIGHT: f64 = 1.25;

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

pub(crate) fn points(outline: &[Point]) -> String {
    outline
        .iter()
        .map(|p| format!("{},{}", num(p.x), num(p.y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `<text>` centred on `at`; the baseline sits a third of the size below.
pub(crate) fn text(
    out: &mut String,
    class: &str,
    at: Point,
    size: f64,
    fill: Option<Rgb>,
    body: &str,
) {
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

/// How wide `text` is at `size`: a character's advance in ems is taken
/// from DejaVu Sans, which pictures ask for first, rounded up by class;
/// narrower fonts fit in the room this leaves.
pub(crate) fn text_width(text: &str, size: f64) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | 'I' | 'J' | '\'' | ',' | '.' | ':' | ';' | '·' | '!' | '|' => 0.34,
            ' ' => 0.33,
            '(' | ')' | '[' | ']' | 'f' | 't' | 'r' | '-' => 0.42,
            'm' | 'w' | 'M' | 'W' | '%' => 1.0,
            '+' | '=' | '<' | '>' => 0.84,
            c if c.is_ascii_uppercase() => 0.78,
            _ => 0.64,
        })
        .sum();
    ems * size
}

/// Text set in lines: the font size and each line.
pub(crate) struct TextBlock {
    pub(crate) size: f64,
    pub(crate) lines: Vec<String>,
}

impl TextBlock {
    /// `text` in one line of `width` units at `max` size, shrunk as far as
    /// `min`; if it still does not fit, wrapped at `min` size: between its
    /// " · " parts first, and a part too long for a line between words.
    pub(crate) fn fit(text: &str, width: f64, max: f64, min: f64) -> TextBlock {
        let one_line = (width / text_width(text, 1.0)).min(max);
        if one_line >= min || !text.contains(' ') {
            return TextBlock {
                size: one_line.max(min),
                lines: vec![text.to_string()],
            };
        }
        let fits = |line: &str| text_width(line, min) <= width;
        let mut lines: Vec<String> = Vec::new();
        let mut line = String::new();
        // Adds `piece` to the current line after `sep` if the two fit,
        // else starts a new line with it.
        let add = |line: &mut String, lines: &mut Vec<String>, piece: &str, sep: &str| {
            if line.is_empty() {
                *line = piece.to_string();
            } else if fits(&format!("{line}{sep}{piece}")) {
                *line = format!("{line}{sep}{piece}");
            } else {
                lines.push(std::mem::replace(line, piece.to_string()));
            }
        };
        for part in text.split(" · ") {
            if fits(part) {
                add(&mut line, &mut lines, part, " · ");
                continue;
            }
            // A part too long for a line takes lines of its own.
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            for word in part.split(' ') {
                add(&mut line, &mut lines, word, " ");
            }
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            lines.push(line);
        }
        TextBlock { size: min, lines }
    }

    /// The width of its widest line.
    pub(crate) fn width(&self) -> f64 {
        self.lines
            .iter()
            .map(|l| text_width(l, self.size))
            .fold(0.0, f64::max)
    }

    pub(crate) fn height(&self) -> f64 {
        self.lines.len() as f64 * LINE_HEIGHT * self.size
    }

    /// One `<text>` centred on `centre_x`, its first line's top at `top`.
    pub(crate) fn write(&self, out: &mut String, class: &str, centre_x: f64, top: f64, fill: Rgb) {
        let _ = write!(
            out,
            r#"<text class="{class}" font-size="{}" fill="{}">"#,
            num(self.size),
            fill.hex()
        );
        for (k, line) in self.lines.iter().enumerate() {
            let middle = top + (k as f64 + 0.5) * LINE_HEIGHT * self.size;
            let _ = write!(
                out,
                r#"<tspan x="{}" y="{}">{}</tspan>"#,
                num(centre_x),
                num(middle + self.size * 0.36),
                escape(line)
            );
        }
        out.push_str("</text>\n");
    }
}

/// Opens a chart (a graph, a table) of `width` x `height` user units: the
/// `<svg>` element with its class and font size, the background and the
/// title centred at `title_x`. The caller closes it with `</svg>`.
pub fn open_chart(
    out: &mut String,
    class: &str,
    (width, height): (f64, f64),
    font_size: u32,
    (title, title_x): (&str, f64),
    style: &Style,
) {
    let factor = style.scale / 40.0;
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="{class}" viewBox="0 0 {width} {height}" width="{}" height="{}" font-family="{}" font-size="{font_size}" text-anchor="middle">"#,
        (width * factor).ceil(),
        (height * factor).ceil(),
        escape(&style.font_family)
    );
    let _ = writeln!(
        out,
        r#"<rect x="0" y="0" width="{width}" height="{height}" fill="{}"/>"#,
        style.background.hex()
    );
    let _ = writeln!(
        out,
        r#"<text x="{title_x}" y="24" font-size="16" fill="{}">{}</text>"#,
        style.label.hex(),
        escape(title)
    );
}
