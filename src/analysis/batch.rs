//! Batch analysis for scripts, modelled on KataGo's analysis engine: one
//! JSON query per line in, one JSON result per analysed turn out, each
//! carrying the query's `id`. A bad query gets one error line with its
//! `id` (null when the line is not JSON at all) and changes nothing else.
//!
//! A line becomes a [`Request`]: an action answered at once, or jobs (one
//! per analysed turn, or one error line) that [`run_job`] answers in the
//! order the queue of [`super::queue`] gives them; [`answer`] does both in
//! turn for one line.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::result::{Analysis, Ownership, Settings, describe, rate};
use crate::lines::RawLine;
use crate::rules::game::{Game, GameSpec, Rules, SpecError, turn_of};
use crate::rules::kind::GameKind;
use crate::rules::moves::{Action, Colour, Stone};
use crate::rules::position::AnyGame;
use crate::rules::record::GameRecord;
use crate::search::bounds;
use crate::search::tuning::NAMES;
use crate::search::{
    Engine, MoveFilter, MoveRule, Policy, Report, SearchParams, StopFlag, knowledge,
};
use crate::solver::{Solution, SolveLimits, Value as SolvedValue};

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

fn fail(id: &Value, field: Option<&str>, error: impl Into<String>) -> QueryError {
    QueryError {
        id: id.clone(),
        error: error.into(),
        field: field.map(str::to_string),
    }
}

/// Best effort at the `id` of a line that is not valid JSON, so that its
/// error can still name it: the string or number after `"id":`.
fn salvage_id(line: &str) -> Value {
    let Some(at) = line.find("\"id\"") else {
        return Value::Null;
    };
    let rest = line[at + 4..].trim_start();
    let Some(rest) = rest.strip_prefix(':') else {
        return Value::Null;
    };
    let rest = rest.trim_start();
    if let Some(body) = rest.strip_prefix('"') {
        let mut escaped = false;
        for (k, c) in body.char_indices() {
            match c {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => {
                    return serde_json::from_str(&rest[..k + 2]).unwrap_or(Value::Null);
                }
                _ => escaped = false,
            }
        }
        return Value::Null;
    }
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || "-+.eE".contains(c)))
        .unwrap_or(rest.len());
    serde_json::from_str(&rest[..end]).unwrap_or(Value::Null)
}

/// What a query asks of each of its positions, checked.
#[derive(Debug)]
struct Prepared {
    settings: Settings,
    params: SearchParams,
    proof: Option<SolveLimits>,
    viewpoint: Viewpoint,
    include_cells: bool,
    include_pv_visits: bool,
    include_ownership: bool,
    include_moves_ownership: bool,
    include_policy: bool,
    report_every: Option<Duration>,
    warnings: Vec<String>,
}

/// The start of a query's game: the standard start, or `initialStones`
/// and `initialPlayer`.
fn start_position(query: &Query, spec: &GameSpec) -> Result<AnyGame, QueryError> {
    let id = &query.id;
    let seat = match &query.initial_player {
        Some(p) => Some(Colour::parse(p).ok_or_else(|| {
            fail(
                id,
                Some("initialPlayer"),
                format!("initialPlayer '{p}' is not B or W"),
            )
        })?),
        None => None,
    };
    let Some(list) = &query.initial_stones else {
        let mut start = AnyGame::new(spec);
        if let Some(seat) = seat {
            start.set_to_move(seat);
        }
        return Ok(start);
    };
    let topo = AnyGame::new(spec).topology();
    let mut stones = Vec::with_capacity(list.len());
    for (k, (colour, cell)) in list.iter().enumerate() {
        let bad = |what: String| {
            fail(
                id,
                Some("initialStones"),
                format!("stone {}: {what}", k + 1),
            )
        };
        let colour =
            Colour::parse(colour).ok_or_else(|| bad(format!("colour '{colour}' is not B or W")))?;
        let cell = topo
            .parse_cell(cell)
            .ok_or_else(|| bad(format!("'{cell}' is not a point of this board")))?;
        stones.push(Stone { cell, colour });
    }
    let seat = seat.unwrap_or(Colour::Black);
    match catch_unwind(|| AnyGame::from_setup(spec, &stones, seat)) {
        Ok(Ok(start)) => Ok(start),
        Ok(Err(e)) => Err(fail(id, Some("initialStones"), e.describe(topo))),
        Err(_) => Err(fail(id, Some("initialStones"), "illegal position")),
    }
}

/// Plays the query's moves from `start`.
fn replay(query: &Query, start: AnyGame) -> Result<GameRecord, QueryError> {
    let mut record = GameRecord::new(start);
    for (k, m) in query.moves.iter().enumerate() {
        let bad = |what: String| fail(&query.id, Some("moves"), format!("move {}: {what}", k + 1));
        let position = record.position();
        let seat = position.to_move();
        let token = match m {
            QueryMove::Token(t) => t,
            QueryMove::Pair(player, t) => {
                let p = Colour::parse(player)
                    .ok_or_else(|| bad(format!("player '{player}' is not B or W")))?;
                if p != seat {
                    return Err(bad(format!(
                        "it is {}'s turn, not {}'s",
                        seat.seat(),
                        p.seat()
                    )));
                }
                t
            }
        };
        let parsed = position.parse_turn(token);
        let turn = match (&parsed, m) {
            (Err(_), QueryMove::Pair(..))
                if position.kind() != GameKind::Onyx
                    && position.topology().parse_cell(token).is_some() =>
            {
                position.parse_turn(&format!("{}:{token}", seat.letter()))
            }
            _ => parsed,
        }
        .map_err(|e| bad(e.to_string()))?;
        let topo = position.topology();
        record
            .play(seat, turn)
            .map_err(|e| bad(format!("illegal move '{token}': {}", e.describe(topo))))?;
    }
    Ok(record)
}

/// `avoidMoves` and `allowMoves` as the search's filter.
fn move_filter(query: &Query, game: &AnyGame) -> Result<Option<Arc<MoveFilter>>, QueryError> {
    let topo = game.topology();
    let mut rules = Vec::new();
    for (field, allow, list) in [
        ("avoidMoves", false, &query.avoid_moves),
        ("allowMoves", true, &query.allow_moves),
    ] {
        for (k, entry) in list.iter().flatten().enumerate() {
            let bad =
                |what: String| fail(&query.id, Some(field), format!("entry {}: {what}", k + 1));
            let seat = Colour::parse(&entry.player)
                .ok_or_else(|| bad(format!("player '{}' is not B or W", entry.player)))?;
            if entry.until_depth == 0 {
                return Err(bad("untilDepth must be at least 1".into()));
            }
            let mut rule = MoveRule {
                seat,
                allow,
                cells: vec![
                    false;
                    topo.cells()
                        .iter()
                        .map(|c| c.index() + 1)
                        .max()
                        .unwrap_or(0)
                ],
                pass: false,
                swap: false,
                until_depth: entry.until_depth,
                colour: None,
                second_stone: true,
            };
            for m in &entry.moves {
                match m.to_ascii_lowercase().as_str() {
                    "pass" => rule.pass = true,
                    "swap" => rule.swap = true,
                    _ => {
                        let cell = topo
                            .parse_cell(m)
                            .ok_or_else(|| bad(format!("'{m}' is not a point of this board")))?;
                        rule.cells[cell.index()] = true;
                    }
                }
            }
            rules.push(rule);
        }
    }
    Ok((!rules.is_empty()).then(|| Arc::new(MoveFilter { rules })))
}

/// `overrideSettings` applied to `params`.
fn override_settings(query: &Query, params: &mut SearchParams) -> Result<(), QueryError> {
    for (name, value) in query.override_settings.iter().flatten() {
        let bad = |what: &str| {
            fail(
                &query.id,
                Some("overrideSettings"),
                format!("{name}: {what}"),
            )
        };
        let text = match value {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => if *b { "on" } else { "off" }.to_string(),
            _ => return Err(bad("give a string, a number or a bool")),
        };
        match name.as_str() {
            "policy" => params.policy = text.parse::<Policy>().map_err(|e| bad(&e.to_string()))?,
            "exploration" => {
                params.exploration = match text.to_ascii_lowercase().as_str() {
                    "auto" | "default" => None,
                    _ => Some(
                        text.parse::<f64>()
                            .ok()
                            .filter(|c| c.is_finite() && *c >= 0.0)
                            .ok_or_else(|| bad("not a number of at least 0"))?,
                    ),
                };
            }
            _ => params
                .tuning
                .set(name, &text)
                .map_err(|e| bad(&format!("{e} (policy, exploration, {})", NAMES.join(", "))))?,
        }
    }
    Ok(())
}

/// A number of seconds in the range every front end takes.
fn seconds(value: Option<f64>, id: &Value, field: &str) -> Result<Option<Duration>, QueryError> {
    value
        .map(|t| bounds::seconds(field, t).map(Duration::from_secs_f64))
        .transpose()
        .map_err(|e| fail(id, Some(field), e.to_string()))
}

/// A query's game, its positions to analyse with their priorities, and
/// what to do with them.
struct Parsed {
    record: GameRecord,
    turns: Vec<(usize, i64)>,
    prepared: Prepared,
}

/// Checks a query and reads what it asks for.
fn prepare(query: &Query, defaults: &Defaults) -> Result<Parsed, QueryError> {
    let id = &query.id;
    let game = query
        .game
        .as_deref()
        .ok_or_else(|| fail(id, Some("game"), "missing field 'game'"))?;
    let kind = GameKind::parse(game).ok_or_else(|| {
        fail(
            id,
            Some("game"),
            format!("unknown game '{game}' (xodd, yodd, odd, onyx)"),
        )
    })?;
    let mut rules = Rules::default();
    let q = &query.rules;
    if let Some(m) = q.min_group {
        rules.set("min_group", &m.to_string()).map_err(|_| {
            fail(
                id,
                Some("rules"),
                format!("minGroup {m} must be at least 1"),
            )
        })?;
    }
    if let Some(start) = &q.start {
        rules.set("start", start).map_err(|_| {
            fail(
                id,
                Some("rules"),
                format!("start '{start}' is not 'standard' or 'open'"),
            )
        })?;
    }
    if let Some(swap) = q.swap {
        rules.swap = swap;
    }
    let size = query.size.unwrap_or(kind.default_size());
    let spec = GameSpec::new(kind, size, rules).map_err(|e| {
        let field = match e {
            SpecError::MinGroup { .. } => "rules",
            SpecError::Size(_) => "size",
        };
        fail(id, Some(field), e.to_string())
    })?;
    let record = replay(query, start_position(query, &spec)?)?;
    let turns = query
        .analyze_turns
        .clone()
        .unwrap_or_else(|| vec![query.moves.len()]);
    if turns.is_empty() {
        return Err(fail(
            id,
            Some("analyzeTurns"),
            "analyzeTurns is empty: list at least one turn, or leave it out for the last",
        ));
    }
    if let Some(&bad) = turns.iter().find(|&&t| t > query.moves.len()) {
        return Err(fail(
            id,
            Some("analyzeTurns"),
            format!(
                "turn {bad} is past the end of the {} moves given",
                query.moves.len()
            ),
        ));
    }
    let priorities = match &query.priorities {
        Some(p) if p.len() != turns.len() => {
            return Err(fail(
                id,
                Some("priorities"),
                format!(
                    "{} priorities for {} turns: give one per entry of analyzeTurns",
                    p.len(),
                    turns.len()
                ),
            ));
        }
        Some(p) => p.clone(),
        None => vec![query.priority.unwrap_or(0); turns.len()],
    };
    let mut settings = defaults.settings.clone();
    if query.max_visits.is_some() || query.max_time.is_some() {
        settings.visits = query.max_visits;
        settings.time = None;
    }
    if query.max_visits == Some(0) {
        return Err(fail(id, Some("maxVisits"), "maxVisits must be at least 1"));
    }
    if let Some(t) = seconds(query.max_time, id, "maxTime")? {
        settings.time = Some(t);
    }
    if let Some(k) = query.top_k {
        settings.top = k;
    }
    if let Some(seed) = query.seed {
        settings.seed = seed;
    }
    let proof_time = seconds(query.proof_time, id, "proofTime")?;
    if query.proof_nodes == Some(0) {
        return Err(fail(
            id,
            Some("proofNodes"),
            "proofNodes must be at least 1",
        ));
    }
    let report_every = seconds(
        query.report_during_search_every,
        id,
        "reportDuringSearchEvery",
    )?;
    let viewpoint = match &query.report_analysis_winrates_as {
        None => defaults.viewpoint,
        Some(v) => Viewpoint::parse(v).ok_or_else(|| {
            fail(
                id,
                Some("reportAnalysisWinratesAs"),
                format!("'{v}' is not SIDETOMOVE, BLACK or WHITE"),
            )
        })?,
    };
    let mut params = SearchParams {
        threads: settings.threads.max(1),
        seed: settings.seed,
        filter: move_filter(query, record.position())?,
        final_boards: query.include_ownership || query.include_moves_ownership,
        final_boards_per_turn: query.include_moves_ownership,
        ..SearchParams::default()
    };
    override_settings(query, &mut params)?;
    let mut warnings: Vec<String> = query
        .unknown
        .keys()
        .map(|k| format!("unknown field '{k}' ignored"))
        .collect();
    if query.include_policy && !knowledge::has_priors(kind) {
        warnings.push(format!("includePolicy: {kind} has no knowledge prior"));
    }
    let proof = (proof_time.is_some() || query.proof_nodes.is_some()).then_some(SolveLimits {
        time: proof_time,
        nodes: query.proof_nodes,
    });
    let turns = turns.into_iter().zip(priorities).collect();
    Ok(Parsed {
        record,
        turns,
        prepared: Prepared {
            settings,
            params,
            proof,
            viewpoint,
            include_cells: query.include_cells,
            include_pv_visits: query.include_pv_visits,
            include_ownership: query.include_ownership,
            include_moves_ownership: query.include_moves_ownership,
            include_policy: query.include_policy && knowledge::has_priors(kind),
            report_every,
            warnings,
        },
    })
}

/// One unit of work for the queue: a position to analyse, or an error
/// line to give in its turn.
pub struct Job {
    pub id: Value,
    /// The position's number (`None` for an error line).
    pub turn: Option<usize>,
    pub priority: i64,
    /// Set by `terminate`: the search stops (or never starts).
    pub stop: StopFlag,
    work: Work,
}

enum Work {
    Error(String),
    Analyse {
        record: Box<GameRecord>,
        query: Arc<Prepared>,
    },
}

/// What one input line asks for.
pub enum Request {
    /// Nothing (a blank line).
    Nothing,
    /// A line to write at once: `query_version`, `clear_cache`.
    Now(String),
    /// Stop the jobs of `id` (all jobs when `None`), only those of
    /// `turns` when given; then write `reply`.
    Terminate {
        id: Option<Value>,
        turns: Option<Vec<usize>>,
        reply: String,
    },
    /// Work for the queue, in this order.
    Jobs(Vec<Job>),
}

fn error_job(error: &QueryError, priority: i64) -> Request {
    Request::Jobs(vec![Job {
        id: error.id.clone(),
        turn: None,
        priority,
        stop: StopFlag::new(),
        work: Work::Error(to_line(error)),
    }])
}

/// Reads one line as read from the input: a line that is not text (or far
/// too long) becomes one error line, with the id salvaged from what was
/// read.
pub fn request_raw(line: &RawLine, defaults: &Defaults) -> Request {
    match line.text() {
        Ok(text) => request(text, defaults),
        Err(e) => {
            // An id with replaced bytes is not the one sent: better none.
            let id = match salvage_id(&line.lossy()) {
                Value::String(s) if s.contains('\u{fffd}') => Value::Null,
                id => id,
            };
            error_job(&fail(&id, None, e.to_string()), 0)
        }
    }
}

/// Reads one query line. A failure while reading it becomes an internal
/// error line, so every query gets its answer.
pub fn request(line: &str, defaults: &Defaults) -> Request {
    match catch_unwind(AssertUnwindSafe(|| read_request(line, defaults))) {
        Ok(r) => r,
        Err(_) => error_job(
            &fail(
                &salvage_id(line),
                None,
                "internal error while reading this query",
            ),
            0,
        ),
    }
}

/// The field of `object` that makes it fail to read as a query.
fn field_at_fault(id: &Value, object: &serde_json::Map<String, Value>) -> Option<(String, String)> {
    object.iter().find_map(|(key, v)| {
        let one = serde_json::json!({ "id": id, key.as_str(): v });
        serde_json::from_value::<Query>(one)
            .err()
            .map(|e| (key.clone(), e.to_string()))
    })
}

fn read_request(line: &str, defaults: &Defaults) -> Request {
    if line.trim().is_empty() {
        return Request::Nothing;
    }
    let value: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            return error_job(
                &fail(&salvage_id(line), None, format!("malformed JSON: {e}")),
                0,
            );
        }
    };
    let priority = value.get("priority").and_then(Value::as_i64).unwrap_or(0);
    let id = match value.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        Some(_) => {
            let e = fail(
                &Value::Null,
                Some("id"),
                "'id' must be a string or a number",
            );
            return error_job(&e, priority);
        }
        None => {
            return error_job(
                &fail(&Value::Null, Some("id"), "missing field 'id'"),
                priority,
            );
        }
    };
    if let Some(rules) = value.get("rules")
        && !rules.is_object()
    {
        let e = fail(
            &id,
            Some("rules"),
            "'rules' must be an object, like {\"minGroup\": 3}",
        );
        return error_job(&e, priority);
    }
    let query: Query = match serde_json::from_value(value.clone()) {
        Ok(q) => q,
        Err(e) => {
            let e = match value.as_object().and_then(|o| field_at_fault(&id, o)) {
                Some((field, why)) => fail(&id, Some(&field), format!("bad '{field}': {why}")),
                None => fail(&id, None, format!("bad query: {e}")),
            };
            return error_job(&e, priority);
        }
    };
    match query.action.as_deref() {
        None => {}
        Some("query_version") => {
            return Request::Now(to_line(&Version {
                id,
                action: "query_version",
                version: env!("CARGO_PKG_VERSION"),
            }));
        }
        Some(action @ ("clear_cache" | "terminate" | "terminate_all")) => {
            let action = match action {
                "clear_cache" => "clear_cache",
                "terminate" => "terminate",
                _ => "terminate_all",
            };
            let target = match (action, &query.terminate_id) {
                ("terminate", None) => {
                    let e = fail(&id, Some("terminateId"), "terminate needs a terminateId");
                    return error_job(&e, priority);
                }
                ("terminate", Some(t)) => Some(t.clone()),
                _ => None,
            };
            let reply = to_line(&Acknowledged {
                id,
                action,
                terminate_id: target.clone(),
                turn_numbers: query.turn_numbers.clone(),
            });
            return match action {
                "clear_cache" => Request::Now(reply),
                _ => Request::Terminate {
                    id: target,
                    turns: query.turn_numbers,
                    reply,
                },
            };
        }
        Some(other) => {
            let e = fail(
                &id,
                Some("action"),
                format!(
                    "unknown action '{other}' (query_version, clear_cache, terminate, terminate_all)"
                ),
            );
            return error_job(&e, priority);
        }
    }
    let Parsed {
        record,
        turns,
        prepared,
    } = match prepare(&query, defaults) {
        Ok(p) => p,
        Err(e) => return error_job(&e, priority),
    };
    let prepared = Arc::new(prepared);
    Request::Jobs(
        turns
            .into_iter()
            .map(|(turn, priority)| Job {
                id: id.clone(),
                turn: Some(turn),
                priority,
                stop: StopFlag::new(),
                work: Work::Analyse {
                    record: Box::new(record.truncated(turn)),
                    query: prepared.clone(),
                },
            })
            .collect(),
    )
}

/// Answers one job, giving each line to `emit`: the interim answers
/// (`reportDuringSearchEvery`) and then exactly one final line.
pub fn run_job(job: &Job, emit: &mut dyn FnMut(String)) {
    let (record, query) = match &job.work {
        Work::Error(line) => return emit(line.clone()),
        Work::Analyse { record, query } => (record, query),
    };
    if job.stop.is_stopped() {
        return emit(to_line(&NoResults {
            id: job.id.clone(),
            is_during_search: false,
            turn_number: record.moves().len(),
            no_results: true,
        }));
    }
    let mut done = false;
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let mut engine = Engine::new(query.params.clone());
        engine.set_position(record);
        let report = {
            let mut interim = |report: &Report| {
                emit(to_line(&result_of(&job.id, record, report, query, true)));
            };
            let progress = query
                .report_every
                .map(|every| (&mut interim as &mut dyn FnMut(&Report), every));
            engine.search(&query.settings.limits(), &job.stop, progress)
        };
        let mut result = result_of(&job.id, record, &report, query, false);
        result.proof = query
            .proof
            .filter(|_| !record.is_over())
            .and_then(|limits| engine.solve(true, &limits, &job.stop))
            .map(|s| proof_of(record, &s));
        done = true;
        emit(to_line(&result));
    }));
    if outcome.is_err() && !done {
        emit(to_line(&fail(
            &job.id,
            None,
            "internal error while answering this query",
        )));
    }
}

/// `p`, a win rate of the side to move `mover`, as the viewpoint sees it.
fn seen(p: f64, mover: Colour, viewpoint: Viewpoint) -> f64 {
    match viewpoint {
        Viewpoint::Seat(c) if c != mover => rate(1.0 - p),
        _ => p,
    }
}

/// The lower end of a normal 95% interval of win rate `p` over `visits`
/// playouts (as `kata-analyze` reports it), at least 0; a proven value
/// is exact.
fn lcb(p: f64, visits: u64, proven: bool) -> f64 {
    if proven {
        return p;
    }
    rate((p - 1.96 * (p * (1.0 - p) / visits.max(1) as f64).sqrt()).max(0.0))
}

/// The answer for one position from a search report.
fn result_of(
    id: &Value,
    record: &GameRecord,
    report: &Report,
    query: &Prepared,
    during: bool,
) -> QueryResult {
    let mut analysis = describe(record, report, query.settings.top);
    let position = record.position();
    let mover = position.to_move();
    let view = query.viewpoint;
    // Black's lead as the viewpoint sees it.
    let lead_seat = match view {
        Viewpoint::SideToMove => mover,
        Viewpoint::Seat(c) => c,
    };
    let lead = |black_lead: f64| {
        let l = if lead_seat == Colour::Black {
            black_lead
        } else {
            -black_lead
        };
        (l * 1e4).round() / 1e4
    };
    let root = &mut analysis.root_info;
    root.winrate = seen(root.winrate, mover, view);
    if !analysis.game_over {
        root.lcb = Some(lcb(root.winrate, root.visits, root.proven.is_some()));
    }
    let boards = report.final_boards.as_ref();
    root.score_selfplay = boards.and_then(|b| b.black_lead).map(lead);
    for (m, c) in analysis.move_infos.iter_mut().zip(&report.candidates) {
        m.winrate = seen(m.winrate, mover, view);
        m.lcb = Some(lcb(m.winrate, m.visits, m.proven.is_some()));
        m.score_selfplay = c.black_lead.map(lead);
        if query.include_pv_visits {
            m.pv_visits = Some(c.pv_visits.clone());
        }
        if query.include_moves_ownership {
            m.ownership = c
                .final_stones
                .as_ref()
                .map(|(n, stones)| ownership_of(position, *n, stones, None));
        }
    }
    analysis.cells = if query.include_cells {
        analysis.cells.map(|cells| {
            cells
                .into_iter()
                .map(|mut c| {
                    c.winrate = seen(c.winrate, mover, view);
                    c
                })
                .collect()
        })
    } else {
        None
    };
    let ownership = boards
        .filter(|_| query.include_ownership)
        .map(|b| ownership_of(position, b.playouts, &b.stones, Some(&b.counted)));
    let policy =
        (query.include_policy && !during && !record.is_over()).then(|| policy_of(position));
    QueryResult {
        id: id.clone(),
        is_during_search: during,
        analysis,
        ownership,
        policy,
        proof: None,
        warnings: query.warnings.clone(),
    }
}

/// Per cell of `position`'s board, the shares of `playouts` that ended
/// with each colour there (`stones`, by cell index) and, in Odd, in a
/// group that counts (`counted`).
fn ownership_of(
    position: &AnyGame,
    playouts: u64,
    stones: &[[u64; 2]],
    counted: Option<&[u64]>,
) -> Vec<Ownership> {
    let topo = position.topology();
    let n = playouts.max(1) as f64;
    let odd = position.kind() == GameKind::Odd;
    topo.cells()
        .iter()
        .map(|&cell| {
            let [black, white] = stones.get(cell.index()).copied().unwrap_or([0, 0]);
            let (black, white) = (rate(black as f64 / n), rate(white as f64 / n));
            Ownership {
                cell: topo.name(cell).to_string(),
                black,
                white,
                empty: rate((1.0 - black - white).max(0.0)),
                counted: counted
                    .filter(|_| odd)
                    .map(|c| rate(c.get(cell.index()).copied().unwrap_or(0) as f64 / n)),
            }
        })
        .collect()
}

/// The knowledge prior of every legal first action at `position`, highest
/// first.
fn policy_of(position: &AnyGame) -> Vec<PolicyEntry> {
    let mut actions: Vec<Action> = Vec::new();
    let mut priors = Vec::new();
    let known = crate::with_game!(position, g => {
        g.legal_actions(&mut actions);
        knowledge::priors(g, &actions, &mut priors)
    });
    if !known || priors.len() != actions.len() {
        return Vec::new();
    }
    let mut entries: Vec<PolicyEntry> = actions
        .iter()
        .zip(&priors)
        .map(|(&a, &p)| PolicyEntry {
            token: position.token(&turn_of(a, None)),
            prior: rate(f64::from(p)),
        })
        .collect();
    entries.sort_by(|a, b| b.prior.total_cmp(&a.prior));
    entries
}

/// Answers one query line at once: one JSON line per analysed position
/// (and interim ones when asked), or one error or action line. Blank lines
/// get no answer. `terminate` has nothing to stop here and is only
/// acknowledged.
pub fn answer(line: &str, defaults: &Defaults) -> Vec<String> {
    answer_request(request(line, defaults))
}

fn answer_request(request: Request) -> Vec<String> {
    let mut out = Vec::new();
    match request {
        Request::Nothing => {}
        Request::Now(line) | Request::Terminate { reply: line, .. } => out.push(line),
        Request::Jobs(jobs) => {
            for job in &jobs {
                run_job(job, &mut |line| out.push(line));
            }
        }
    }
    out
}

/// The solver's findings in the answer's terms.
fn proof_of(record: &GameRecord, s: &Solution) -> Proof {
    let position = record.position();
    Proof {
        value: s.value.map_or("unknown", SolvedValue::name),
        turns: s
            .turns
            .iter()
            .map(|t| ProofTurn {
                token: position.token(&t.turn),
                value: t.value.map_or("unknown", SolvedValue::name),
            })
            .collect(),
        pv: s.pv.iter().map(|t| position.token(t)).collect(),
        nodes: s.nodes,
        seconds: s.elapsed.as_secs_f64(),
    }
}

/// One JSON line.
fn to_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("answers always serialise")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_salvaged_from_broken_lines() {
        assert_eq!(salvage_id(r#"{"id":"a\"b", "game""#), Value::from("a\"b"));
        assert_eq!(salvage_id(r#"{"id": 42, "#), Value::from(42));
        assert_eq!(salvage_id(r#"{"id": "unterminated"#), Value::Null);
        assert_eq!(salvage_id("no id here"), Value::Null);
        assert_eq!(salvage_id(r#"{"id" 3}"#), Value::Null);
    }

    #[test]
    fn blank_lines_get_no_answer() {
        let defaults = Defaults {
            settings: Settings::default(),
            viewpoint: Viewpoint::SideToMove,
        };
        assert!(answer("   ", &defaults).is_empty());
        let err: Value = serde_json::from_str(&answer("{", &defaults)[0]).unwrap();
        assert_eq!(err["id"], Value::Null);
        assert!(err["error"].as_str().unwrap().starts_with("malformed JSON"));
    }
}
