//! One position's analysis: the search's candidates, principal variations
//! and proofs, in a form made for people and for JSON.

use serde::Serialize;

use oddity_render::heat::cell_heat;
use oddity_rules::{Colour, GameRecord, Turn};
use oddity_search::{
    Engine, EngineConfig, Limits, Progress, Report, SearchParams, StopFlag, Visits,
};

/// How long and how to search.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The engine's configuration: how it searches and how long per
    /// position (visits `auto`: [`DEFAULT_VISITS`] unless a time is given;
    /// with both a time and visits, whichever comes first).
    pub engine: EngineConfig,
    /// Candidates kept in [`Analysis::move_infos`].
    pub top: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            engine: EngineConfig {
                params: SearchParams {
                    threads: 1,
                    seed: 0,
                    ..SearchParams::default()
                },
                time: None,
                visits: Visits::Auto,
            },
            top: 5,
        }
    }
}

/// Visits when neither visits nor time are given.
pub const DEFAULT_VISITS: u64 = 10_000;

impl Settings {
    /// A search engine with these settings.
    pub fn engine(&self) -> Engine {
        Engine::new(self.engine.params.clone())
    }

    /// The limits of one position's search.
    pub fn limits(&self) -> Limits {
        let auto = self.engine.time.is_none().then_some(DEFAULT_VISITS);
        self.engine.limits(auto)
    }
}

/// Rounds a probability for output: six decimals are plenty.
pub fn rate(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

/// Stone groups per colour, as the game counts them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Groups {
    pub b: u32,
    pub w: u32,
}

/// The position as a whole.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RootInfo {
    pub visits: u64,
    /// Win probability of the side to move.
    pub winrate: f64,
    /// Batch answers: the win rate's lower confidence bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lcb: Option<f64>,
    /// Batch answers with ownership, Xodd and Yodd: the mean lead in groups
    /// at the end of the playouts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_selfplay: Option<f64>,
    /// The seat that wins with best play, when the solver proved it.
    pub proven: Option<&'static str>,
}

/// One candidate turn.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveInfo {
    /// The turn's token.
    #[serde(rename = "move")]
    pub token: String,
    /// 0 for the best candidate.
    pub order: usize,
    pub visits: u64,
    /// Win probability of the side to move after this turn.
    pub winrate: f64,
    /// Batch answers: the win rate's lower confidence bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lcb: Option<f64>,
    /// Batch answers with ownership, Xodd and Yodd: the mean lead in groups
    /// at the end of the playouts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_selfplay: Option<f64>,
    /// The knowledge prior, in games that have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prior: Option<f64>,
    /// Principal variation, starting with this turn.
    pub pv: Vec<String>,
    /// Batch answers with `includePVVisits`: the visits of each turn of `pv`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv_visits: Option<Vec<u64>>,
    /// Batch answers with `includeMovesOwnership`: the final boards of the
    /// playouts through this turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ownership: Option<Vec<Ownership>>,
    /// The seat that wins after this turn with best play, when proven.
    pub proven: Option<&'static str>,
    #[serde(skip)]
    pub turn: Turn,
    #[serde(skip)]
    pub pv_turns: Vec<Turn>,
}

/// Per cell, how the playouts' final boards held it (batch answers'
/// `includeOwnership`, `includeMovesOwnership`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ownership {
    pub cell: String,
    pub black: f64,
    pub white: f64,
    pub empty: f64,
    /// Odd: the share of playouts that ended with the cell in a group that
    /// counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counted: Option<f64>,
}

/// The candidates' search effort per cell: what a heat map shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CellInfo {
    pub cell: String,
    /// Visits of all candidate turns that put a stone here.
    pub visits: u64,
    /// The win rate of the most visited of those turns.
    pub winrate: f64,
}

/// The analysis of one position.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Analysis {
    pub game: &'static str,
    pub size: usize,
    /// Turns played before this position.
    pub turn_number: usize,
    /// The seat to move.
    pub to_move: &'static str,
    pub game_over: bool,
    /// When the game is over: the winner's seat.
    pub winner: Option<&'static str>,
    pub groups: Groups,
    pub root_info: RootInfo,
    /// The best candidates, best first (at most `top`).
    pub move_infos: Vec<MoveInfo>,
    /// Per cell, every candidate counted (not only the best `top`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cells: Option<Vec<CellInfo>>,
}

/// Searches the position of `record` and describes what was found.
/// `engine` keeps its tree between calls on the same game (see
/// [`Engine::set_position`]).
pub fn analyse(
    engine: &mut Engine,
    record: &GameRecord,
    settings: &Settings,
    progress: Progress<'_>,
) -> Analysis {
    engine.set_position(record);
    let report = engine.search(&settings.limits(), &StopFlag::new(), progress);
    describe(record, &report, settings.top)
}

/// The analysis of `record`'s position from a search report.
pub fn describe(record: &GameRecord, report: &Report, top: usize) -> Analysis {
    let position = record.position();
    let topo = position.topology();
    let [b, w] = position.group_counts();
    let over = record.is_over();
    let move_infos = if over {
        Vec::new()
    } else {
        report
            .candidates
            .iter()
            .take(top)
            .enumerate()
            .map(|(order, c)| {
                let pv = if c.pv.is_empty() {
                    vec![c.turn]
                } else {
                    c.pv.clone()
                };
                MoveInfo {
                    token: position.token(&c.turn),
                    order,
                    visits: c.visits,
                    winrate: rate(c.value),
                    lcb: None,
                    score_selfplay: None,
                    prior: c.prior.map(rate),
                    pv: pv.iter().map(|t| position.token(t)).collect(),
                    pv_visits: None,
                    ownership: None,
                    proven: c.proven.map(Colour::seat),
                    turn: c.turn,
                    pv_turns: pv,
                }
            })
            .collect()
    };
    let candidates = report.candidates.iter().filter(|_| !over);
    let cells = cell_heat(candidates.map(|c| (c.turn, c.visits, c.value)))
        .into_iter()
        .map(|h| CellInfo {
            cell: topo.name(h.cell).to_string(),
            visits: h.visits,
            winrate: rate(h.winrate),
        })
        .collect();
    Analysis {
        game: position.kind().name(),
        size: topo.size,
        turn_number: record.moves().len(),
        to_move: position.to_move().seat(),
        game_over: over,
        winner: record.outcome().map(|o| o.winner.seat()),
        groups: Groups { b, w },
        root_info: RootInfo {
            visits: if over { 0 } else { report.root_visits },
            winrate: if over {
                let mover = position.to_move();
                f64::from(record.outcome().is_some_and(|o| o.winner == mover))
            } else {
                rate(report.root_value)
            },
            lcb: None,
            score_selfplay: None,
            proven: if over {
                None
            } else {
                report.proven.map(Colour::seat)
            },
        },
        move_infos,
        cells: Some(cells),
    }
}
