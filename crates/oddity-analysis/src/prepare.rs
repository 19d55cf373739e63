//! A query checked and read: its game, the positions to analyse and what
//! to do with each.

use std::panic::catch_unwind;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use crate::query::{Defaults, Query, QueryError, QueryMove, Viewpoint, fail};
use crate::result::Settings;
use oddity_rules::{
    AnyGame, Colour, GameKind, GameRecord, GameSpec, Rules, SpecError, Stone, TokenPlayError,
    internals::quoted,
};
use oddity_search::config::{self, ConfigError, EngineConfig};
use oddity_search::tuning::NAMES;
use oddity_search::{MoveFilter, MoveRule, SearchParams, Visits, has_priors};
use oddity_solver::SolveLimits;

/// What a query asks of each of its positions, checked.
#[derive(Debug)]
pub(crate) struct Prepared {
    pub(crate) settings: Settings,
    pub(crate) params: SearchParams,
    pub(crate) proof: Option<SolveLimits>,
    pub(crate) viewpoint: Viewpoint,
    pub(crate) include_cells: bool,
    pub(crate) include_pv_visits: bool,
    pub(crate) include_ownership: bool,
    pub(crate) include_moves_ownership: bool,
    pub(crate) include_policy: bool,
    pub(crate) report_every: Option<Duration>,
    pub(crate) warnings: Vec<String>,
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
            .ok_or_else(|| bad(format!("{} is not a point of this board", quoted(cell))))?;
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
        // A pair may name a bare point: the stone is the player's colour.
        let bare_point = matches!(m, QueryMove::Pair(..))
            && position.kind().colour_is_chosen()
            && position.parse_turn(token).is_err()
            && position.topology().parse_cell(token).is_some();
        let played = if bare_point {
            record.play_token(&format!("{}:{token}", seat.letter()))
        } else {
            record.play_token(token)
        };
        played.map_err(|e| match e {
            TokenPlayError::Malformed(e) => bad(e.to_string()),
            TokenPlayError::Illegal { why, .. } => bad(format!("illegal move '{token}': {why}")),
        })?;
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
                .ok_or_else(|| bad(format!("player {} is not B or W", quoted(&entry.player))))?;
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
                        let cell = topo.parse_cell(m).ok_or_else(|| {
                            bad(format!("{} is not a point of this board", quoted(m)))
                        })?;
                        rule.cells[cell.index()] = true;
                    }
                }
            }
            rules.push(rule);
        }
    }
    Ok((!rules.is_empty()).then(|| Arc::new(MoveFilter { rules })))
}

/// `overrideSettings` applied to `params`: the names and values of the
/// engine's configuration ([`EngineConfig::set`]) that shape a search; its
/// limits are the query's own fields.
fn override_settings(query: &Query, params: &mut SearchParams) -> Result<(), QueryError> {
    let mut config = EngineConfig {
        params: params.clone(),
        ..EngineConfig::default()
    };
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
        if config::NAMES.contains(&name.as_str()) && !SHAPES.contains(&name.as_str()) {
            return Err(bad("a limit, set by the query's own fields"));
        }
        config.set(name, &text).map_err(|e| match e {
            ConfigError::Unknown(_) => bad(&format!(
                "unknown parameter ({}, {})",
                SHAPES.join(", "),
                NAMES.join(", ")
            )),
            ConfigError::BadValue(_, why) => bad(&why.to_string()),
            ConfigError::Weights(why) => bad(&why),
        })?;
    }
    *params = config.params;
    Ok(())
}

/// The names of [`config::NAMES`] that `overrideSettings` takes.
const SHAPES: [&str; 2] = ["policy", "exploration"];

/// A number of seconds in the range every front end takes.
fn seconds(value: Option<f64>, id: &Value, field: &str) -> Result<Option<Duration>, QueryError> {
    value
        .map(|t| {
            config::check_seconds(t).map_err(|e| fail(id, Some(field), format!("{field}: {e}")))
        })
        .transpose()
}

/// A query's game, its positions to analyse with their priorities, and
/// what to do with them.
pub(crate) struct Parsed {
    pub(crate) record: GameRecord,
    pub(crate) turns: Vec<(usize, i64)>,
    pub(crate) prepared: Prepared,
}

/// Checks a query and reads what it asks for.
pub(crate) fn prepare(query: &Query, defaults: &Defaults) -> Result<Parsed, QueryError> {
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
        settings.engine.visits = query.max_visits.map_or(Visits::Unlimited, Visits::Cap);
        settings.engine.time = None;
    }
    if query.max_visits == Some(0) {
        return Err(fail(id, Some("maxVisits"), "maxVisits must be at least 1"));
    }
    if let Some(t) = seconds(query.max_time, id, "maxTime")? {
        settings.engine.time = Some(t);
    }
    if let Some(k) = query.top_k {
        settings.top = k;
    }
    if let Some(seed) = query.seed {
        settings.engine.params.seed = seed;
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
                format!("{} is not SIDETOMOVE, BLACK or WHITE", quoted(v)),
            )
        })?,
    };
    let mut params = SearchParams {
        filter: move_filter(query, record.position())?,
        final_boards: query.include_ownership || query.include_moves_ownership,
        final_boards_per_turn: query.include_moves_ownership,
        ..settings.engine.params.clone()
    };
    override_settings(query, &mut params)?;
    let mut warnings: Vec<String> = query
        .unknown
        .keys()
        .map(|k| format!("unknown field {} ignored", quoted(k)))
        .collect();
    if query.include_policy && !has_priors(kind) {
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
            include_policy: query.include_policy && has_priors(kind),
            report_every,
            warnings,
        },
    })
}
