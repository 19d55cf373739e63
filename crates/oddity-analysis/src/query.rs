//! The JSON of batch analysis: queries as read, and every kind of line
//! written back (results, errors, acknowledgements).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::result::{Analysis, Ownership, Settings};
use oddity_rules::{Colour, internals::escaped};

/// Rule options of a query; each applies to one game.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QueryRules {
    /// Odd: the smallest group that counts.
    pub min_group: Option<usize>,
    /// Onyx: `standard` or `open`.
    pub start: Option<String>,
    /// Onyx: the swap (pie) move.
    pub swap: Option<bool>,
}

/// One turn of `moves`: a token for the side to move, or KataGo's
/// `[player, move]` pair, where the player must be the side to move and a
/// bare cell (`["B","C3"]`) is a stone of the player's colour.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum QueryMove {
    Token(String),
    Pair(String, String),
}

/// One entry of `avoidMoves` or `allowMoves`.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QueryFilter {
    pub player: String,
    /// Cell names, `pass` or `swap`.
    pub moves: Vec<String>,
    pub until_depth: u32,
}

/// One query line.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Query {
    pub id: Value,
    /// `query_version`, `clear_cache`, `terminate` or `terminate_all`
    /// instead of an analysis.
    pub action: Option<String>,
    pub game: Option<String>,
    pub size: Option<usize>,
    #[serde(default)]
    pub rules: QueryRules,
    #[serde(default)]
    pub moves: Vec<QueryMove>,
    /// `[colour, cell]` pairs: a start position without a history.
    pub initial_stones: Option<Vec<(String, String)>>,
    /// The seat to move at the start.
    pub initial_player: Option<String>,
    /// Positions to analyse, as numbers of turns played (default: the last).
    pub analyze_turns: Option<Vec<usize>>,
    pub max_visits: Option<u64>,
    /// Seconds per position.
    pub max_time: Option<f64>,
    /// Candidates per result (default: the command's `--top`).
    pub top_k: Option<usize>,
    pub seed: Option<u64>,
    /// Add `cells`: visits and best win rate per cell (heat-map data).
    #[serde(default)]
    pub include_cells: bool,
    #[serde(default, rename = "includePVVisits")]
    pub include_pv_visits: bool,
    #[serde(default)]
    pub include_ownership: bool,
    #[serde(default)]
    pub include_moves_ownership: bool,
    #[serde(default)]
    pub include_policy: bool,
    /// `SIDETOMOVE`, `BLACK` or `WHITE`.
    pub report_analysis_winrates_as: Option<String>,
    pub avoid_moves: Option<Vec<QueryFilter>>,
    pub allow_moves: Option<Vec<QueryFilter>>,
    /// Search parameters by the names `--param` takes.
    pub override_settings: Option<BTreeMap<String, Value>>,
    /// Seconds between interim answers.
    pub report_during_search_every: Option<f64>,
    pub priority: Option<i64>,
    /// One priority per entry of `analyzeTurns`.
    pub priorities: Option<Vec<i64>>,
    /// Add `proof`: the exact solver's value of the position and of each
    /// turn, proven within this many seconds.
    pub proof_time: Option<f64>,
    /// ... or within this many solver expansions (with `proofTime`,
    /// whichever comes first).
    pub proof_nodes: Option<u64>,
    /// `terminate`: the id of the queries to stop.
    pub terminate_id: Option<Value>,
    /// `terminate`, `terminate_all`: only these turns.
    pub turn_numbers: Option<Vec<usize>>,
    /// Fields this engine does not know; named in `warnings`.
    #[serde(flatten)]
    pub unknown: BTreeMap<String, Value>,
}

/// A failed query.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QueryError {
    pub id: Value,
    pub error: String,
    /// The query field at fault, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// The answer to `{"action": "query_version"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Version {
    pub id: Value,
    pub action: &'static str,
    pub version: &'static str,
}

/// The acknowledgement of `clear_cache`, `terminate` and `terminate_all`:
/// the query's own fields.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Acknowledged {
    pub id: Value,
    pub action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminate_id: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_numbers: Option<Vec<usize>>,
}

/// The final answer for a position whose search was terminated before it
/// began.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NoResults {
    pub id: Value,
    pub is_during_search: bool,
    pub turn_number: usize,
    pub no_results: bool,
}

/// A turn's proven value, for the side to move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProofTurn {
    #[serde(rename = "move")]
    pub token: String,
    /// `win`, `loss`, `neither` or `unknown` (not proven in the budget).
    pub value: &'static str,
}

/// What the exact solver proved about a position (`proofTime`,
/// `proofNodes`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Proof {
    /// For the side to move: `win`, `loss`, `neither` (Onyx: play can go on
    /// for ever) or `unknown`.
    pub value: &'static str,
    /// Every legal turn.
    pub turns: Vec<ProofTurn>,
    /// Best play: the winner's winning turns, the loser's longest defence.
    pub pv: Vec<String>,
    pub nodes: u64,
    pub seconds: f64,
}

/// A root action's knowledge prior (`includePolicy`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PolicyEntry {
    #[serde(rename = "move")]
    pub token: String,
    pub prior: f64,
}

/// The answer to a query for one of its positions.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueryResult {
    pub id: Value,
    pub is_during_search: bool,
    #[serde(flatten)]
    pub analysis: Analysis,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ownership: Option<Vec<Ownership>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<Vec<PolicyEntry>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<Proof>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Whose win rates answers give.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Viewpoint {
    #[default]
    SideToMove,
    Seat(Colour),
}

impl Viewpoint {
    /// `SIDETOMOVE`, `BLACK` or `WHITE`, any case (also `b`, `w`).
    pub fn parse(text: &str) -> Option<Viewpoint> {
        match text.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
            "sidetomove" => Some(Viewpoint::SideToMove),
            other => Colour::parse(other).map(Viewpoint::Seat),
        }
    }
}

/// Defaults for what a query leaves out, from the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Defaults {
    pub settings: Settings,
    pub viewpoint: Viewpoint,
}

/// A refused query or line. The reason is kept on one line: whatever of
/// the input it quotes has its control characters written as escapes.
pub(crate) fn fail(id: &Value, field: Option<&str>, error: impl Into<String>) -> QueryError {
    QueryError {
        id: id.clone(),
        error: escaped(&error.into()),
        field: field.map(str::to_string),
    }
}
