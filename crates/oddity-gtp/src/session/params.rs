//! Engine parameters: the table, setting one from text, and the engine's
//! description.

use std::fmt::Write as _;

use super::reply::{Ctx, Reply, arity, err, ok, on_off, syntax};
use super::state::Session;
use crate::think::{Params, TurnChoice};
use crate::values::{self, BadValue};
use oddity_search::tuning::{self, TuningError};

impl Session {
    pub(super) fn params_list(&self) -> String {
        let p = &self.params;
        let mut text = format!(
            "threads {}\nvisits {}\ntime {}\ntime_use {}\nmemory {}\nseed {}\nponder {}\nresign {}\nturns {}\npolicy {}\nexploration {}",
            p.threads,
            p.visits
                .map_or_else(|| "auto".to_string(), |v| v.to_string()),
            p.time,
            values::time_use_name(p.time_use),
            p.memory_mb,
            p.seed,
            on_off(p.ponder),
            p.resign,
            p.turns.name(),
            p.policy,
            p.exploration
                .map_or_else(|| "auto".to_string(), |c| c.to_string()),
        );
        for name in tuning::NAMES {
            let value = p.tuning.get(name).unwrap_or_default();
            let _ = write!(text, "\n{name} {value}");
        }
        text
    }

    pub(super) fn param(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let [name, value] = args else {
            return if args.is_empty() {
                ok(self.params_list())
            } else {
                syntax()
            };
        };
        match set_param(&mut self.params, name, value) {
            Ok(()) => {
                self.thinker.set_params(&self.params);
                ok("")
            }
            Err(e) => err(e.to_string()),
        }
    }

    pub(super) fn describe(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            let spec = self.spec();
            let mut s = format!(
                "oddity {} (Xodd, Yodd, Odd and Onyx)\ngame {} size {}\n",
                env!("CARGO_PKG_VERSION"),
                spec.kind,
                spec.size
            );
            for line in self.params_list().lines() {
                let _ = writeln!(s, "param {line}");
            }
            ok(s)
        })
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

impl From<TuningError> for ParamError {
    fn from(e: TuningError) -> ParamError {
        match e {
            TuningError::UnknownName => ParamError::Unknown,
            TuningError::BadValue => ParamError::BadValue,
            TuningError::Weights(why) => ParamError::Weights(why),
        }
    }
}

/// Sets one engine parameter from text.
pub fn set_param(p: &mut Params, name: &str, value: &str) -> Result<(), ParamError> {
    match name {
        "threads" => p.threads = values::threads(value)?,
        "visits" => p.visits = values::visits(value)?.0,
        "time" => p.time = values::seconds(value)?,
        "time_use" => p.time_use = values::time_use(value)?,
        "memory" => p.memory_mb = values::memory(value)?,
        "seed" => p.seed = values::seed(value)?,
        "ponder" => p.ponder = values::switch(value)?,
        "resign" => p.resign = values::resign(value)?,
        "turns" => p.turns = TurnChoice::parse(value).ok_or(ParamError::BadValue)?,
        "policy" => p.policy = values::policy(value)?,
        "exploration" => p.exploration = values::exploration(value)?,
        _ => return p.tuning.set(name, value).map_err(ParamError::from),
    }
    Ok(())
}
