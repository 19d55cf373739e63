//! Analysis for GUIs: the heat map, the exact solver, and streamed analysis.

use std::fmt::Write as _;
use std::time::Duration;

use super::play::{gogui_text, search, think_limits};
use super::reply::{Ctx, Reply, err, ok, parse_seat, syntax};
use super::state::GtpSession;
use crate::analyze::{self, Format};
use crate::gogui::Grid;
use crate::io::StopOn;
use crate::think::{Limits, Report};
use oddity_rules::Turn;
use oddity_search::config;
use oddity_solver::{SolveLimits, Value};

pub(super) fn heatmap(session: &mut GtpSession, args: &[String], ctx: &mut Ctx) -> Reply {
    let seat = match args {
        [] => session.pos().to_move(),
        [s] => match parse_seat(s) {
            Some(s) => s,
            None => return syntax(),
        },
        _ => return syntax(),
    };
    if session.game().is_over() {
        return ok("");
    }
    let limits = think_limits(session, seat);
    let report = search(session, seat, limits, ctx, None);
    let topo = session.pos().topology();
    let grid = session.mode().is_on().then(|| Grid::new(topo));
    let name = |c| match &grid {
        Some(g) => g.name(c),
        None => topo.name(c).to_string(),
    };
    let token = |t: &Turn| {
        if session.mode().is_on() {
            gogui_text(session, seat, t)
        } else {
            session.pos().token(t)
        }
    };
    ok(analyze::heat_map(&report, &name, &token))
}

/// The time `oddity-solve` takes unless told.
const SOLVE_TIME: Duration = Duration::from_secs(10);

/// `oddity-solve [seat] [seconds]`: the exact value of the position for
/// the seat (default: the side to move) and every turn's, within the
/// seconds (default 10).
pub(super) fn solve(session: &mut GtpSession, args: &[String], ctx: &mut Ctx) -> Reply {
    let seconds = |s: &str| config::seconds(s).ok();
    let (seat, time) = match args {
        [] => (session.pos().to_move(), SOLVE_TIME),
        [a] => match (parse_seat(a), seconds(a)) {
            (Some(seat), _) => (seat, SOLVE_TIME),
            (None, Some(t)) => (session.pos().to_move(), t),
            _ => return syntax(),
        },
        [a, b] => match (parse_seat(a), seconds(b)) {
            (Some(seat), Some(t)) => (seat, t),
            _ => return syntax(),
        },
        _ => return syntax(),
    };
    if session.game().is_over() {
        return err("game is over");
    }
    let record = session.game().record_for(seat);
    let limits = SolveLimits {
        time: Some(time),
        nodes: None,
    };
    let solution = session.engine_mut().solve(&record, &limits, ctx.reader);
    let Some(s) = solution else {
        return err("game is over");
    };
    let pos = record.position();
    let list = |v: Option<Value>| -> Vec<String> {
        s.turns
            .iter()
            .filter(|t| t.value == v)
            .map(|t| pos.token(&t.turn))
            .collect()
    };
    let mut text = s.value.map_or("unknown", Value::name).to_string();
    for (label, v) in [
        ("winning", Some(Value::Win)),
        ("losing", Some(Value::Loss)),
        ("neither", Some(Value::Neither)),
        ("unproven", None),
    ] {
        let tokens = list(v);
        if !tokens.is_empty() || label == "winning" || label == "losing" {
            let _ = write!(text, "\n{label}");
            for t in tokens {
                let _ = write!(text, " {t}");
            }
        }
    }
    let pv: Vec<String> = s.pv.iter().map(|t| pos.token(t)).collect();
    let _ = write!(
        text,
        "\npv {}\nnodes {} seconds {:.3}",
        pv.join(" "),
        s.nodes,
        s.elapsed.as_secs_f64()
    );
    ok(text)
}

pub(super) fn analyze(
    session: &mut GtpSession,
    args: &[String],
    ctx: &mut Ctx,
    format: Format,
) -> Reply {
    let Some(a) = analyze::parse_args(args) else {
        return syntax();
    };
    let seat = a.seat.unwrap_or(session.pos().to_move());
    ctx.out.stream_start(ctx.id);
    if !session.game().is_over() {
        let record = session.game().record_for(seat);
        let pos = record.position().clone();
        let every = a.every();
        let out = &mut *ctx.out;
        let mut f = |r: &Report| out.stream_line(&analyze::info_line(&pos, r, format, a.max_moves));
        let limits = Limits::default();
        session.engine_mut().think(
            &record,
            &limits,
            ctx.reader,
            StopOn::AnyLine,
            Some((&mut f, every)),
            None,
        );
    }
    ctx.out.stream_end();
    Reply::Done
}

pub(super) fn genmove_analyze(
    session: &mut GtpSession,
    args: &[String],
    ctx: &mut Ctx,
    format: Format,
) -> Reply {
    let Some(a) = analyze::parse_args(args) else {
        return syntax();
    };
    let seat = a.seat.unwrap_or(session.pos().to_move());
    if session.game().is_over() {
        return err("game is over");
    }
    ctx.out.stream_start(ctx.id);
    let limits = think_limits(session, seat);
    let every = a.every();
    let report = search(session, seat, limits, ctx, Some((format, every)));
    let pos = session.game().record_for(seat).position().clone();
    ctx.out
        .stream_line(&analyze::info_line(&pos, &report, format, a.max_moves));
    if let Some(turn) = session.engine().choose(seat, &report)
        && session.game_mut().play(seat, turn).is_ok()
    {
        ctx.out.stream_line(&format!("play {}", pos.token(&turn)));
    }
    ctx.out.stream_end();
    Reply::Done
}
