//! Engine parameters: the table, setting one from text, and the engine's
//! description.

use std::fmt::Write as _;

use super::{Ctx, Reply, Session, arity, err, ok, on_off, parse_bool, syntax};
use crate::gtp::think::Params;
use crate::search::{bounds, tuning};

impl Session {
    pub(super) fn params_list(&self) -> String {
        let p = &self.params;
        let mut text = format!(
            "threads {}\nvisits {}\ntime {}\nmemory {}\nseed {}\nponder {}\nresign {}\npolicy {}\nexploration {}",
            p.threads,
            p.visits,
            p.time,
            p.memory_mb,
            p.seed,
            on_off(p.ponder),
            p.resign,
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
            Err(e) => err(e),
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

/// Sets one engine parameter from text.
pub fn set_param(p: &mut Params, name: &str, value: &str) -> Result<(), String> {
    let bad = || "syntax error".to_string();
    match name {
        "threads" => match value.parse::<usize>() {
            Ok(n) if bounds::threads(name, n).is_ok() => p.threads = n,
            _ => return Err(bad()),
        },
        "visits" => p.visits = value.parse().map_err(|_| bad())?,
        // 0: no time limit.
        "time" => match value.parse::<f64>() {
            Ok(t) if t == 0.0 || bounds::seconds(name, t).is_ok() => p.time = t,
            _ => return Err(bad()),
        },
        "memory" => match value.parse::<usize>() {
            Ok(m) if m >= 1 => p.memory_mb = m,
            _ => return Err(bad()),
        },
        "seed" => p.seed = value.parse().map_err(|_| bad())?,
        "ponder" => p.ponder = parse_bool(value).ok_or_else(bad)?,
        "resign" => match value.parse::<f64>() {
            Ok(r) if (0.0..=1.0).contains(&r) => p.resign = r,
            _ => return Err(bad()),
        },
        "policy" => p.policy = value.parse().map_err(|_| bad())?,
        "exploration" => match value.parse::<f64>() {
            _ if value.eq_ignore_ascii_case("auto") => p.exploration = None,
            Ok(c) if c >= 0.0 && c.is_finite() => p.exploration = Some(c),
            _ => return Err(bad()),
        },
        _ => return p.tuning.set(name, value).map_err(|e| e.to_string()),
    }
    Ok(())
}
