//! The commands that start games and set their rules.

use super::reply::{Ctx, Reply, err, ok, on_off, syntax};
use super::state::GtpSession;
use crate::gogui::Grid;
use oddity_rules::{GameKind, GameSpec, RuleError};

pub(super) fn boardsize(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    let [size] = args else { return syntax() };
    let Ok(mut size) = size.parse::<usize>() else {
        return syntax();
    };
    if session.mode().is_on() {
        // GoGui gives the side of the grid it draws.
        match Grid::size_for_side(session.pos().topology().kind, size) {
            Some(n) => size = n,
            None => return err("unacceptable size"),
        }
    }
    let Ok(spec) = GameSpec::new(session.spec().kind, size, session.game().next_rules()) else {
        return err("unacceptable size");
    };
    match session.new_game(spec) {
        Ok(()) => ok(""),
        Err(_) => err("unacceptable size"),
    }
}

pub(super) fn clear_board(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    if !args.is_empty() {
        return syntax();
    }
    let spec = session.spec();
    let spec = match GameSpec::new(spec.kind, spec.size, session.game().next_rules()) {
        Ok(s) => s,
        Err(e) => return err(e.to_string()),
    };
    match session.new_game(spec) {
        Ok(()) => ok(""),
        Err(e) => err(e.to_string()),
    }
}

pub(super) fn komi(_: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    let [k] = args else { return syntax() };
    match k.parse::<f64>() {
        Ok(_) => ok(""),
        Err(_) => syntax(),
    }
}

pub(super) fn choose_game(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    let (kind, size) = match args {
        [] => return ok(format!("{} {}", session.spec().kind, session.spec().size)),
        [k] => (k, None),
        [k, s] => match s.parse::<usize>() {
            Ok(s) => (k, Some(s)),
            Err(_) => return syntax(),
        },
        _ => return syntax(),
    };
    let Some(kind) = GameKind::parse(kind) else {
        return syntax();
    };
    let Ok(spec) = GameSpec::new(
        kind,
        size.unwrap_or(kind.default_size()),
        session.game().next_rules(),
    ) else {
        return err("unacceptable size");
    };
    match session.new_game(spec) {
        Ok(()) => ok(""),
        Err(e) => err(e.to_string()),
    }
}

/// The rule options and their values. In GoGui mode, in the typed
/// lines of GoGui's parameter dialog (a list, a check box, a text
/// field), whose labels are the option names; else with a word of help
/// after each value.
pub(super) fn rules_list(session: &GtpSession) -> String {
    let r = session.game().next_rules();
    let min_group = r.min_group.map_or("default".to_string(), |m| m.to_string());
    let start = if r.open_start { "open" } else { "standard" };
    if session.mode().is_on() {
        return format!(
            "[string] min_group {min_group}\n[list/standard/open] start {start}\n[bool] swap {}",
            u8::from(r.swap)
        );
    }
    format!(
        "min_group {min_group} (odd: smallest group that counts; a number or 'default' = the board side)\n\
         start {start} (onyx: standard|open)\n\
         swap {} (onyx: on|off)",
        on_off(r.swap)
    )
}

/// `oddity-rules NAME VALUE`. The value may be followed by the help
/// text the listing gives (`swap off (onyx: on|off)`, as a parameter
/// dialog sends an edited line back), and may be quoted; GoGui's check
/// box gives a swap of `1` or `0`.
pub(super) fn rules(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    let Some((name, rest)) = args.split_first() else {
        return ok(rules_list(session));
    };
    let value = rest.join(" ");
    let value = value.trim().trim_matches('"');
    let value = match value.find(" (") {
        Some(at) if value.ends_with(')') => &value[..at],
        _ => value,
    };
    let value = value.trim();
    if value.is_empty() || value.contains(' ') {
        return syntax();
    }
    let value = match (name.as_str(), value) {
        ("swap", "1") => "on",
        ("swap", "0") => "off",
        _ => value,
    };
    match session.game_mut().set_rule(name, value) {
        Ok(()) => ok(""),
        Err(RuleError::UnknownRule) => err("unknown rule"),
        Err(RuleError::BadValue) => syntax(),
    }
}
