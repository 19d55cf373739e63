//! The engine as a session holds it: its parameters (set from text here),
//! the search with the tree it keeps between moves, and the flag that stops
//! a search.

use std::sync::Arc;

use crate::clock::Clock;
use crate::io::{Reader, StopOn};
use crate::think::{AUTO_VISITS, Limits, Params, Progress, Report, StopFlag, Thinker, TurnChoice};
use crate::values;
use oddity_rules::{AnyGame, Colour, GameRecord, Turn};
use oddity_search::MoveFilter;
use oddity_search::config::{self, BadValue, ConfigError};
use oddity_solver::{Solution, SolveLimits};

pub(super) struct Engine {
    params: Params,
    thinker: Thinker,
    stop: StopFlag,
}

impl Engine {
    pub(super) fn new(params: Params) -> Engine {
        Engine {
            thinker: Thinker::new(&params.engine.params),
            params,
            stop: StopFlag::new(),
        }
    }

    pub(super) fn params(&self) -> &Params {
        &self.params
    }

    /// Sets one parameter from text (`oddity-param`).
    pub(super) fn set_param(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        set_param(&mut self.params, name, value)?;
        self.thinker.set_params(&self.params.engine.params);
        Ok(())
    }

    /// Whether the engine thinks on the opponent's time.
    pub(super) fn ponders(&self) -> bool {
        self.params.ponder
    }

    /// Forgets the tree (a new game or position).
    pub(super) fn clear(&mut self) {
        self.thinker.clear();
    }

    /// The limits of a search for `seat` in `pos`: the clock's budget when
    /// a clock is set, else the `time` parameter; the `visits` parameter,
    /// or without it a cap on moves without a clock.
    pub(super) fn limits(&self, clock: &Clock, pos: &AnyGame, seat: Colour) -> Limits {
        let cells = pos.topology().cell_count() as u32;
        let (soft_time, time) = match clock.budget(
            seat.index(),
            pos.turns_played(),
            cells,
            self.params.time_use,
        ) {
            Some((soft, hard)) => (Some(soft), Some(hard)),
            None => (None, self.params.engine.time),
        };
        let auto = (!clock.is_set()).then_some(AUTO_VISITS);
        Limits {
            visits: self.params.engine.visits.cap_or(auto),
            time,
            soft_time,
        }
    }

    /// Whether the engine's turns are limited to those GoGui can show
    /// (the `turns` parameter), in GoGui mode or not.
    pub(super) fn shows_gogui_turns(&self, gogui: bool) -> bool {
        match self.params.turns {
            TurnChoice::Auto => gogui,
            TurnChoice::Gogui => true,
            TurnChoice::All => false,
        }
    }

    /// Searches `record` for the side to move, until `limits`, or until
    /// `reader` sees what `on` names; the root's turns limited by `filter`.
    pub(super) fn think(
        &mut self,
        record: &GameRecord,
        limits: &Limits,
        reader: &Reader,
        on: StopOn,
        progress: Progress,
        filter: Option<Arc<MoveFilter>>,
    ) -> Report {
        reader.watch(&self.stop, on);
        let report = self
            .thinker
            .think_filtered(record, limits, &self.stop, progress, filter);
        reader.unwatch();
        report
    }

    /// Solves `record` exactly within `limits`, until an interrupt.
    pub(super) fn solve(
        &mut self,
        record: &GameRecord,
        limits: &SolveLimits,
        reader: &Reader,
    ) -> Option<Solution> {
        reader.watch(&self.stop, StopOn::Interrupt);
        let solution = self.thinker.solve(record, limits, &self.stop);
        reader.unwatch();
        solution
    }

    /// The turn to play from a finished search. With the `resign`
    /// parameter above 0: `resign` when the loss is proven or the win rate
    /// is under it. At 0 the engine never resigns: a proven loss is played
    /// on with the turn the search found hardest to answer.
    pub(super) fn choose(&self, seat: Colour, report: &Report) -> Option<Turn> {
        let best = report.best?;
        let lost = report.proven == Some(seat.opposite())
            || report
                .candidates
                .first()
                .is_some_and(|c| c.proven == Some(seat.opposite()));
        let hopeless = self.params.resign > 0.0
            && (lost || (report.root_visits >= 100 && report.root_value < self.params.resign));
        Some(if hopeless { Turn::Resign } else { best })
    }
}

/// Why an engine parameter was refused (the protocol's words).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    #[error("unknown parameter")]
    Unknown,
    #[error("syntax error")]
    BadValue,
    /// A weights file that cannot be read, and why.
    #[error("{0}")]
    Weights(String),
}

impl From<BadValue> for ParamError {
    fn from(_: BadValue) -> ParamError {
        ParamError::BadValue
    }
}

impl From<ConfigError> for ParamError {
    fn from(e: ConfigError) -> ParamError {
        match e {
            ConfigError::Unknown(_) => ParamError::Unknown,
            ConfigError::BadValue(..) => ParamError::BadValue,
            ConfigError::Weights(why) => ParamError::Weights(why),
        }
    }
}

/// The parameters `oddity-param` lists, in its order; each either the
/// protocol's own or the engine configuration's ([`oddity_search::EngineConfig::set`]),
/// then the policy's tuning ([`oddity_search::tuning::NAMES`]).
pub const PARAM_NAMES: [&str; 11] = [
    "threads",
    "visits",
    "time",
    "time_use",
    "memory",
    "seed",
    "ponder",
    "resign",
    "turns",
    "policy",
    "exploration",
];

/// Sets one engine parameter from text.
pub fn set_param(p: &mut Params, name: &str, value: &str) -> Result<(), ParamError> {
    match name {
        "time_use" => p.time_use = values::time_use(value)?,
        "ponder" => p.ponder = config::switch(value)?,
        "resign" => p.resign = values::resign(value)?,
        "turns" => p.turns = TurnChoice::parse(value).ok_or(ParamError::BadValue)?,
        _ => p.engine.set(name, value)?,
    }
    Ok(())
}

/// The value of one engine parameter as [`set_param`] reads it.
pub fn param_value(p: &Params, name: &str) -> Option<String> {
    Some(match name {
        "time_use" => values::time_use_name(p.time_use).to_string(),
        "ponder" => if p.ponder { "on" } else { "off" }.to_string(),
        "resign" => p.resign.to_string(),
        "turns" => p.turns.name().to_string(),
        _ => return p.engine.get(name),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::{GameKind, GameSpec};
    use oddity_search::Visits;

    fn visit_cap(visits: Visits, clock: Clock) -> Option<u64> {
        let mut params = Params::default();
        params.engine.visits = visits;
        let pos = AnyGame::new(&GameSpec::default_for(GameKind::Odd));
        Engine::new(params)
            .limits(&clock, &pos, Colour::Black)
            .visits
    }

    #[test]
    fn auto_visits_cap_only_moves_without_a_clock() {
        let per_move = Clock::settings(0.0, 5.0, 1);
        assert_eq!(visit_cap(Visits::Auto, Clock::none()), Some(AUTO_VISITS));
        assert_eq!(visit_cap(Visits::Auto, per_move.clone()), None);
        assert_eq!(visit_cap(Visits::Cap(300), per_move.clone()), Some(300));
        assert_eq!(visit_cap(Visits::Cap(300), Clock::none()), Some(300));
        assert_eq!(visit_cap(Visits::Unlimited, Clock::none()), None);
    }

    #[test]
    fn a_set_parameter_is_kept_and_a_bad_one_changes_nothing() {
        let mut engine = Engine::new(Params::default());
        engine.set_param("resign", "0.1").unwrap();
        assert_eq!(engine.params().resign, 0.1);
        assert_eq!(engine.set_param("resign", "x"), Err(ParamError::BadValue));
        assert_eq!(engine.set_param("nonsense", "1"), Err(ParamError::Unknown));
        assert_eq!(engine.params().resign, 0.1);
    }

    #[test]
    fn gogui_turns_follow_the_mode_unless_chosen() {
        let mut engine = Engine::new(Params::default());
        assert!(engine.shows_gogui_turns(true));
        assert!(!engine.shows_gogui_turns(false));
        engine.set_param("turns", "all").unwrap();
        assert!(!engine.shows_gogui_turns(true));
    }
}
