//! Batch analysis for scripts, modelled on KataGo's analysis engine: one
//! JSON query per line in, one JSON result per analysed turn out, each
//! carrying the query's `id`. A bad query gets one error line with its
//! `id` (null when the line is not JSON at all) and changes nothing else.
//!
//! A line becomes a [`Request`]: an action answered at once, or jobs (one
//! per analysed turn, or one error line) that [`run_job`] answers in the
//! order the queue of [`super::queue`] gives them; [`answer`] does both in
//! turn for one line.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::prepare::{Parsed, Prepared, prepare};
use crate::query::{
    Acknowledged, Defaults, NoResults, PolicyEntry, Proof, ProofTurn, Query, QueryError,
    QueryResult, Version, Viewpoint, fail,
};
use crate::result::{Ownership, describe, rate};
use oddity_lines::RawLine;
use oddity_rules::{Action, AnyGame, Colour, Game, GameRecord, turn_of};
use oddity_search::{Engine, Report, StopFlag, default_priors};
use oddity_solver::{Solution, Value as SolvedValue};

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
    let odd = position.kind().has_min_group();
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

/// The default search's prior of every legal first action at `position`
/// (learned or hand-written, as the search has them), highest first.
fn policy_of(position: &AnyGame) -> Vec<PolicyEntry> {
    let mut actions: Vec<Action> = Vec::new();
    let mut priors = Vec::new();
    let known = oddity_rules::with_game!(position, g => {
        g.legal_actions(&mut actions);
        default_priors(g, &actions, &mut priors)
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
    use crate::result::Settings;

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
