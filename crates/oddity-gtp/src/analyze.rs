//! Analysis output in the formats GUIs read: Leela Zero's `lz-analyze`
//! (win rate and prior as integers x 10000), KataGo's `kata-analyze` and
//! Sabaki's `analyze` (floats 0..1), and a GoGui `gfx` heat map.

use std::fmt::Write as _;
use std::time::Duration;

use super::think::{Candidate, Report};
use oddity_render::heat::{cell_heat, most_visits};
use oddity_rules::{AnyGame, Cell, Colour, Turn};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// `lz-analyze`: integers x 10000.
    Lz,
    /// `kata-analyze` and `analyze`: floats 0..1.
    Kata,
}

/// Arguments of an analysis command: `[colour] [interval]` and the
/// key-value pairs `interval N`, `maxmoves N`, `minmoves N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalyzeArgs {
    pub seat: Option<Colour>,
    /// Centiseconds between lines.
    pub interval: u64,
    pub max_moves: Option<usize>,
}

impl AnalyzeArgs {
    /// The time between lines (at least a centisecond).
    pub fn every(&self) -> Duration {
        Duration::from_millis(self.interval.max(1) * 10)
    }
}

/// KataGo options that are accepted and have no effect here.
const IGNORED_KEYS: &[&str] = &[
    "minmoves",
    "ownership",
    "ownershipStdev",
    "movesOwnership",
    "pvVisits",
    "pvEdgeVisits",
    "rootInfo",
];

pub fn parse_args(args: &[String]) -> Option<AnalyzeArgs> {
    let mut a = AnalyzeArgs {
        seat: None,
        interval: 100,
        max_moves: None,
    };
    let mut i = 0;
    if let Some(seat) = args.first().and_then(|s| Colour::parse(s)) {
        a.seat = Some(seat);
        i = 1;
    }
    if let Some(n) = args.get(i).and_then(|s| s.parse::<u64>().ok()) {
        a.interval = n;
        i += 1;
    }
    while i < args.len() {
        let key = args[i].as_str();
        let value = args.get(i + 1)?;
        match key {
            "interval" => a.interval = value.parse().ok()?,
            "maxmoves" => a.max_moves = Some(value.parse().ok()?),
            k if IGNORED_KEYS.contains(&k) => {}
            _ => return None,
        }
        i += 2;
    }
    Some(a)
}

fn lcb(c: &Candidate) -> f64 {
    let w = c.value;
    (w - 1.96 * (w * (1.0 - w) / c.visits.max(1) as f64).sqrt()).max(0.0)
}

/// One `info ...` line with every candidate (at most `max_moves`).
pub fn info_line(pos: &AnyGame, report: &Report, format: Format, max: Option<usize>) -> String {
    let mut out = String::new();
    let n = max.unwrap_or(usize::MAX);
    for (order, c) in report.candidates.iter().take(n).enumerate() {
        if c.visits == 0 {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        let tok = pos.token(&c.turn);
        let prior = c.prior.unwrap_or(0.0);
        match format {
            Format::Lz => {
                let i = |x: f64| (x * 10000.0).round() as i64;
                let _ = write!(
                    out,
                    "info move {tok} visits {} winrate {} prior {} lcb {} order {order} pv",
                    c.visits,
                    i(c.value),
                    i(prior),
                    i(lcb(c))
                );
            }
            Format::Kata => {
                let _ = write!(
                    out,
                    "info move {tok} visits {} winrate {:.6} prior {:.6} lcb {:.6} order {order} pv",
                    c.visits,
                    c.value,
                    prior,
                    lcb(c)
                );
            }
        }
        let pv: &[Turn] = if c.pv.is_empty() {
            std::slice::from_ref(&c.turn)
        } else {
            &c.pv
        };
        for t in pv {
            let _ = write!(out, " {}", pos.token(t));
        }
    }
    out
}

/// The fewest visits of a candidate whose win rate the heat map writes on
/// its point: with 100 visits a win rate is known to within about 10
/// percentage points (95% confidence).
pub const LABEL_VISITS: u64 = 100;

/// GoGui `gfx` heat map: every point that a candidate puts a stone on is
/// shaded by its share of the visits (positive where most of those visits
/// put a black stone, negative for white), and labelled with the win rate of
/// the most visited candidate there ([`cell_heat`]) when that candidate has
/// at least [`LABEL_VISITS`] visits. `name` names the points and `token` the
/// best turn.
pub fn heat_map(
    report: &Report,
    name: &dyn Fn(Cell) -> String,
    token: &dyn Fn(&Turn) -> String,
) -> String {
    let cells = cell_heat(
        report
            .candidates
            .iter()
            .map(|c| (c.turn, c.visits, c.value)),
    );
    let most = most_visits(&cells) as f64;
    let mut influence = String::from("INFLUENCE");
    let mut label = String::from("LABEL");
    for h in &cells {
        let v = h.visits as f64 / most;
        let v = if h.colour() == Colour::Black { v } else { -v };
        let name = name(h.cell);
        let _ = write!(influence, " {name} {v:.2}");
        if h.top_visits >= LABEL_VISITS {
            let _ = write!(label, " {name} {}", (h.winrate * 100.0).round() as i64);
        }
    }
    let mut out = String::new();
    if !cells.is_empty() {
        out.push_str(&influence);
        out.push('\n');
    }
    if label != "LABEL" {
        out.push_str(&label);
        out.push('\n');
    }
    let best = report
        .best
        .map(|t| token(&t))
        .unwrap_or_else(|| "none".into());
    let _ = write!(
        out,
        "TEXT best {best}, win rate {:.1}%, {} visits",
        report.root_value * 100.0,
        report.root_visits
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn analyze_arguments() {
        let a = parse_args(&s(&["b", "50"])).unwrap();
        assert_eq!((a.seat, a.interval), (Some(Colour::Black), 50));
        let a = parse_args(&s(&["interval", "20", "maxmoves", "3"])).unwrap();
        assert_eq!((a.seat, a.interval, a.max_moves), (None, 20, Some(3)));
        let a = parse_args(&s(&["w", "interval", "10", "ownership", "true"])).unwrap();
        assert_eq!((a.seat, a.interval), (Some(Colour::White), 10));
        assert!(parse_args(&s(&["b", "frobnicate", "1"])).is_none());
        assert!(parse_args(&s(&["interval"])).is_none());
    }
}
