//! Engine parameters: the table, setting one from text, and the engine's
//! description.

use std::fmt::Write as _;

use super::{Ctx, Reply, Session, arity, err, ok, on_off, parse_bool, syntax};
use crate::gtp::think::{Params, TurnChoice};
use crate::search::bounds;
use crate::search::tuning::{self, TuningError};

impl Session {
    pub(super) fn params_list(&self) -> String {
        let p = &self.params;
        let mut text = format!(
            "threads {}\nvisits {}\ntime {}\nmemory {}\nseed {}\nponder {}\nresign {}\nturns {}\npolicy {}\nexploration {}",
            p.threads,
            p.visits
                .map_or_else(|| "auto".to_string(), |v| v.to_string()),
            p.time,
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    #[error("unknown parameter")]
    Unknown,
    #[error("syntax error")]
    BadValue,
}

impl From<TuningError> for ParamError {
    fn from(e: TuningError) -> ParamError {
        match e {
            TuningError::UnknownName => ParamError::Unknown,
            TuningError::BadValue => ParamError::BadValue,
        }
    }
}

/// Sets one engine parameter from text.
pub fn set_param(p: &mut Params, name: &str, value: &str) -> Result<(), ParamError> {
    match name {
        "threads" => match value.parse::<usize>() {
            Ok(n) if bounds::threads(name, n).is_ok() => p.threads = n,
            _ => return Err(ParamError::BadValue),
        },
        "visits" if value == "auto" => p.visits = None,
        "visits" => p.visits = Some(value.parse().map_err(|_| ParamError::BadValue)?),
        // 0: no time limit.
        "time" => match value.parse::<f64>() {
            Ok(t) if t == 0.0 || bounds::seconds(name, t).is_ok() => p.time = t,
            _ => return Err(ParamError::BadValue),
        },
        "memory" => match value.parse::<usize>() {
            Ok(m) if m >= 1 => p.memory_mb = m,
            _ => return Err(ParamError::BadValue),
        },
        "seed" => p.seed = value.parse().map_err(|_| ParamError::BadValue)?,
        "ponder" => p.ponder = parse_bool(value).ok_or(ParamError::BadValue)?,
        "resign" => match value.parse::<f64>() {
            Ok(r) if (0.0..=1.0).contains(&r) => p.resign = r,
            _ => return Err(ParamError::BadValue),
        },
        "turns" => p.turns = TurnChoice::parse(value).ok_or(ParamError::BadValue)?,
        "policy" => p.policy = value.parse().map_err(|_| ParamError::BadValue)?,
        "exploration" => match value.parse::<f64>() {
            _ if value.eq_ignore_ascii_case("auto") => p.exploration = None,
            Ok(c) if c >= 0.0 && c.is_finite() => p.exploration = Some(c),
            _ => return Err(ParamError::BadValue),
        },
        _ => return p.tuning.set(name, value).map_err(ParamError::from),
    }
    Ok(())
}
