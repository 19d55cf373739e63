//! Batch analysis for scripts, modelled on KataGo's analysis engine: one
//! JSON query per line in, one JSON result per analysed turn out, each
//! carrying the query's `id`. A bad query gets one error line with its
//! `id` (null when the line is not JSON at all) and changes nothing else.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::result::{Analysis, Settings, analyse};
use super::setup;
use crate::lines::RawLine;
use crate::rules::game::{GameSpec, Rules};
use crate::rules::kind::GameKind;
use crate::rules::record::GameRecord;
use crate::search::StopFlag;
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

/// One query line.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Query {
    pub id: Value,
    /// `query_version` asks for the engine's version instead of an analysis.
    pub action: Option<String>,
    pub game: Option<String>,
    pub size: Option<usize>,
    #[serde(default)]
    pub rules: QueryRules,
    #[serde(default)]
    pub moves: Vec<String>,
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
    /// Add `proof`: the exact solver's value of the position and of each
    /// turn, proven within this many seconds.
    pub proof_time: Option<f64>,
    /// ... or within this many solver expansions (with `proofTime`,
    /// whichever comes first).
    pub proof_nodes: Option<u64>,
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
    pub field: Option<&'static str>,
}

/// The answer to `{"action": "query_version"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Version {
    pub id: Value,
    pub action: &'static str,
    pub version: &'static str,
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

/// The answer to a query for one of its positions.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueryResult {
    pub id: Value,
    pub is_during_search: bool,
    #[serde(flatten)]
    pub analysis: Analysis,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<Proof>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Defaults for what a query leaves out, from the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Defaults {
    pub settings: Settings,
}

fn fail(id: &Value, field: Option<&'static str>, error: impl Into<String>) -> QueryError {
    QueryError {
        id: id.clone(),
        error: error.into(),
        field,
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
        .find(|c: char| !(c.is_ascii_digit() || c == '-' || c == '.'))
        .unwrap_or(rest.len());
    serde_json::from_str(&rest[..end]).unwrap_or(Value::Null)
}

/// A query's game and position, checked.
struct Prepared {
    record: GameRecord,
    turns: Vec<usize>,
    settings: Settings,
    proof: Option<SolveLimits>,
}

fn prepare(query: &Query, defaults: &Defaults) -> Result<Prepared, QueryError> {
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
    let spec =
        GameSpec::new(kind, size, rules).map_err(|e| fail(id, Some("size"), e.to_string()))?;
    let record = setup::replay(&spec, &query.moves).map_err(|e| fail(id, Some("moves"), e))?;
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
    let mut settings = defaults.settings.clone();
    if query.max_visits.is_some() || query.max_time.is_some() {
        settings.visits = query.max_visits;
        settings.time = None;
    }
    if query.max_visits == Some(0) {
        return Err(fail(id, Some("maxVisits"), "maxVisits must be at least 1"));
    }
    if let Some(t) = query.max_time {
        if !(t.is_finite() && t > 0.0 && t <= 86_400.0) {
            return Err(fail(
                id,
                Some("maxTime"),
                "maxTime must be a number of seconds above 0 (at most a day)",
            ));
        }
        settings.time = Some(Duration::from_secs_f64(t));
    }
    if let Some(k) = query.top_k {
        settings.top = k;
    }
    if let Some(seed) = query.seed {
        settings.seed = seed;
    }
    if let Some(t) = query.proof_time
        && !(t.is_finite() && t > 0.0 && t <= 86_400.0)
    {
        return Err(fail(
            id,
            Some("proofTime"),
            "proofTime must be a number of seconds above 0 (at most a day)",
        ));
    }
    if query.proof_nodes == Some(0) {
        return Err(fail(
            id,
            Some("proofNodes"),
            "proofNodes must be at least 1",
        ));
    }
    let proof = (query.proof_time.is_some() || query.proof_nodes.is_some()).then(|| SolveLimits {
        time: query.proof_time.map(Duration::from_secs_f64),
        nodes: query.proof_nodes,
    });
    Ok(Prepared {
        record,
        turns,
        settings,
        proof,
    })
}

/// Answers one line as read: a line that is not text (or far too long)
/// gets one error line, with the id salvaged from what was read.
pub fn answer_raw(line: &RawLine, defaults: &Defaults) -> Vec<String> {
    match line.text() {
        Ok(text) => answer(text, defaults),
        Err(e) => {
            // An id with replaced bytes is not the one sent: better none.
            let id = match salvage_id(&line.lossy()) {
                Value::String(s) if s.contains('\u{fffd}') => Value::Null,
                id => id,
            };
            vec![to_line(&fail(&id, None, e.to_string()))]
        }
    }
}

/// Answers one query line: one JSON line per analysed position, or one
/// error line. Blank lines get no answer. A failure inside the search is
/// answered too (as an internal error), so every query gets its answer.
pub fn answer(line: &str, defaults: &Defaults) -> Vec<String> {
    match catch_unwind(AssertUnwindSafe(|| answer_query(line, defaults))) {
        Ok(lines) => lines,
        Err(_) => vec![to_line(&fail(
            &salvage_id(line),
            None,
            "internal error while answering this query",
        ))],
    }
}

fn answer_query(line: &str, defaults: &Defaults) -> Vec<String> {
    if line.trim().is_empty() {
        return Vec::new();
    }
    let value: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            let err = fail(&salvage_id(line), None, format!("malformed JSON: {e}"));
            return vec![to_line(&err)];
        }
    };
    let id = match value.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        Some(_) => {
            return vec![to_line(&fail(
                &Value::Null,
                Some("id"),
                "'id' must be a string or a number",
            ))];
        }
        None => {
            return vec![to_line(&fail(
                &Value::Null,
                Some("id"),
                "missing field 'id'",
            ))];
        }
    };
    if let Some(rules) = value.get("rules")
        && !rules.is_object()
    {
        return vec![to_line(&fail(
            &id,
            Some("rules"),
            "'rules' must be an object, like {\"minGroup\": 3}",
        ))];
    }
    let query: Query = match serde_json::from_value(value) {
        Ok(q) => q,
        Err(e) => return vec![to_line(&fail(&id, None, format!("bad query: {e}")))],
    };
    match query.action.as_deref() {
        None => {}
        Some("query_version") => {
            return vec![to_line(&Version {
                id,
                action: "query_version",
                version: env!("CARGO_PKG_VERSION"),
            })];
        }
        Some(other) => {
            return vec![to_line(&fail(
                &id,
                Some("action"),
                format!("unknown action '{other}' (query_version)"),
            ))];
        }
    }
    let prepared = match prepare(&query, defaults) {
        Ok(p) => p,
        Err(e) => return vec![to_line(&e)],
    };
    let warnings: Vec<String> = query
        .unknown
        .keys()
        .map(|k| format!("unknown field '{k}' ignored"))
        .collect();
    let moves = prepared.record.moves();
    let mut engine = prepared.settings.engine();
    let mut out = Vec::new();
    for &turn in &prepared.turns {
        let mut record = GameRecord::new(prepared.record.start().clone());
        for &(s, t) in &moves[..turn] {
            record.play(s, t).expect("the moves replayed legally once");
        }
        let mut analysis = analyse(&mut engine, &record, &prepared.settings, None);
        if !query.include_cells {
            analysis.cells = None;
        }
        let proof = prepared
            .proof
            .filter(|_| !record.is_over())
            .and_then(|limits| engine.solve(true, &limits, &StopFlag::new()))
            .map(|s| proof_of(&record, &s));
        let result = QueryResult {
            id: id.clone(),
            is_during_search: false,
            analysis,
            proof,
            warnings: warnings.clone(),
        };
        out.push(to_line(&result));
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
        };
        assert!(answer("   ", &defaults).is_empty());
        let err: Value = serde_json::from_str(&answer("{", &defaults)[0]).unwrap();
        assert_eq!(err["id"], Value::Null);
        assert!(err["error"].as_str().unwrap().starts_with("malformed JSON"));
    }
}
