//! The engine parameter commands: the table, setting one, and the
//! engine's description.

use std::fmt::Write as _;

use super::engine::{PARAM_NAMES, param_value};
use super::reply::{Ctx, Reply, arity, err, ok, syntax};
use super::state::GtpSession;
use oddity_search::tuning;

pub(super) fn params_list(session: &GtpSession) -> String {
    let p = session.engine().params();
    let mut lines = Vec::new();
    for name in PARAM_NAMES.into_iter().chain(tuning::NAMES) {
        let value = param_value(p, name).unwrap_or_default();
        lines.push(format!("{name} {value}"));
    }
    lines.join("\n")
}

pub(super) fn param(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    let [name, value] = args else {
        return if args.is_empty() {
            ok(params_list(session))
        } else {
            syntax()
        };
    };
    match session.engine_mut().set_param(name, value) {
        Ok(()) => ok(""),
        Err(e) => err(e.to_string()),
    }
}

pub(super) fn describe(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    arity(args, 0, || {
        let spec = session.spec();
        let mut s = format!(
            "oddity {} (Xodd, Yodd, Odd and Onyx)\ngame {} size {}\n",
            env!("CARGO_PKG_VERSION"),
            spec.kind,
            spec.size
        );
        for line in params_list(session).lines() {
            let _ = writeln!(s, "param {line}");
        }
        ok(s)
    })
}
