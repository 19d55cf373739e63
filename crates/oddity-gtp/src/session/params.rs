//! The engine parameter commands: the table, setting one, and the
//! engine's description.

use std::fmt::Write as _;

use super::reply::{Ctx, Reply, arity, err, ok, on_off, syntax};
use super::state::Session;
use crate::values;
use oddity_search::tuning;

impl Session {
    pub(super) fn params_list(&self) -> String {
        let p = self.engine().params();
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
        match self.engine_mut().set_param(name, value) {
            Ok(()) => ok(""),
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
