//! Playing: turns (with GoGui mode's one stone per `play`), the engine's
//! moves, undo and the clock commands.

use std::sync::Arc;
use std::time::Duration;

use super::entry::Click;
use super::reply::{Ctx, Reply, err, ok, parse_seat, syntax};
use super::state::GtpSession;
use crate::analyze::{self, Format};
use crate::clock::Clock;
use crate::gogui::{self, Grid};
use crate::io::StopOn;
use crate::think::{Limits, Report};
use oddity_rules::{AnyGame, Cell, Colour, GameKind, Stone, TokenErrorKind, Turn};
use oddity_search::config;

pub(super) fn play(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    let [seat, token] = args else {
        return syntax();
    };
    let Some(seat) = parse_seat(seat) else {
        return syntax();
    };
    if session.mode().is_on() {
        // Where the mover chooses colours, GoGui enters a turn one
        // stone per `play`.
        return if session.spec().kind.colour_is_chosen() {
            play_one_stone(session, seat, token)
        } else {
            play_gogui_onyx(session, seat, token)
        };
    }
    let pos = session.pos();
    let turn = match Turn::parse(token, pos.kind(), pos.topology(), seat) {
        Ok(t) => t,
        Err(e) => {
            log::info!("{e}");
            return if well_formed_elsewhere(token, pos, seat) {
                err("illegal move")
            } else {
                syntax()
            };
        }
    };
    match session.game_mut().play(seat, turn) {
        Ok(()) => ok(""),
        Err(e) => {
            log::info!("{e}");
            err("illegal move")
        }
    }
}

/// GoGui mode, Onyx: `play <seat> <vertex>` with GoGui's grid names; `pass`
/// is the swap, the one turn GoGui cannot name otherwise.
pub(super) fn play_gogui_onyx(session: &mut GtpSession, seat: Colour, token: &str) -> Reply {
    if session.game().is_over() {
        return play_after_end(token);
    }
    let turn = if token.eq_ignore_ascii_case("pass") {
        Turn::Swap
    } else if token.eq_ignore_ascii_case("resign") {
        Turn::Resign
    } else {
        match Grid::new(session.pos().topology()).parse(token) {
            Some(cell) => Turn::Stones(Stone { cell, colour: seat }, None),
            None => return syntax(),
        }
    };
    match session.game_mut().play(seat, turn) {
        Ok(()) => ok(""),
        Err(e) => {
            log::info!("{e}");
            err("illegal move")
        }
    }
}

/// GoGui mode after the end of the game: gogui-twogtp stops a game only
/// after two passes in a row, so `pass` is accepted and changes nothing.
fn play_after_end(token: &str) -> Reply {
    if token.eq_ignore_ascii_case("pass") {
        ok("")
    } else {
        err("illegal move")
    }
}

/// GoGui mode, Odd/Xodd/Yodd: `play <colour> <point>` puts one stone of
/// that colour for the seat to move, `pass` passes or ends the turn
/// after a waiting first stone (see [`entry`](super::entry)).
pub(super) fn play_one_stone(session: &mut GtpSession, colour: Colour, token: &str) -> Reply {
    let click = if token.eq_ignore_ascii_case("resign") {
        Click::Resign
    } else if token.eq_ignore_ascii_case("pass") {
        Click::Pass
    } else {
        match Grid::new(session.pos().topology()).parse(token) {
            Some(cell) => Click::Stone(Stone { cell, colour }),
            None => return syntax(),
        }
    };
    let wait = session.mode().waits_always();
    match session.game_mut().enter(colour, click, wait) {
        Ok(()) => ok(""),
        Err(e) => {
            log::info!("{e}");
            err("illegal move")
        }
    }
}

/// Whether moves are entered one stone at a time (GoGui mode, where
/// the mover chooses the colour: Odd, Xodd, Yodd).
fn enters_stones(session: &GtpSession) -> bool {
    session.mode().enters_stones(session.spec().kind)
}

pub(super) fn think_limits(session: &GtpSession, seat: Colour) -> Limits {
    session
        .engine()
        .limits(session.clock(), session.pos(), seat)
}

/// Searches for `seat`, with progress lines when `progress` is given.
pub(super) fn search(
    session: &mut GtpSession,
    seat: Colour,
    limits: Limits,
    ctx: &mut Ctx,
    progress: Option<(Format, Duration)>,
) -> Report {
    let record = session.game().record_for(seat);
    // A search that no limit ends is ended by the end of input too.
    let on = if limits == Limits::default() {
        StopOn::InterruptOrEof
    } else {
        StopOn::Interrupt
    };
    let out = &mut *ctx.out;
    let filter = session
        .engine()
        .shows_gogui_turns(session.mode().is_on())
        .then(|| gogui::shown_turns(record.position()))
        .flatten()
        .map(Arc::new);
    match progress {
        Some((format, every)) => {
            let pos = record.position().clone();
            let mut f = |r: &Report| out.stream_line(&analyze::info_line(&pos, r, format, None));
            session.engine_mut().think(
                &record,
                &limits,
                ctx.reader,
                on,
                Some((&mut f, every)),
                filter,
            )
        }
        None => session
            .engine_mut()
            .think(&record, &limits, ctx.reader, on, None, filter),
    }
}

pub(super) fn genmove_common(
    session: &mut GtpSession,
    args: &[String],
    ctx: &mut Ctx,
    commit: bool,
) -> Reply {
    let [seat] = args else { return syntax() };
    let Some(seat) = parse_seat(seat) else {
        return syntax();
    };
    if enters_stones(session) {
        if session.game().is_over() {
            return genmove_pass(session, seat, commit);
        }
        if let Some(held) = session.game().held_by(seat) {
            return match session.game().planned_step(seat, held) {
                Some(cell) => genmove_stone(session, seat, cell, commit),
                None => genmove_pass(session, seat, commit),
            };
        }
        session.game_mut().settle(seat);
    }
    if session.game().is_over() {
        // gogui-twogtp asks for moves until two passes in a row.
        return if session.mode().is_on() {
            ok("pass")
        } else {
            err("game is over")
        };
    }
    let limits = think_limits(session, seat);
    let report = search(session, seat, limits, ctx, None);
    let Some(turn) = session.engine().choose(seat, &report) else {
        return err("game is over");
    };
    if commit {
        session.game_mut().set_plan(None);
    }
    let token = match (
        session.mode().is_on(),
        gogui_vertex(session, seat, &turn),
        turn,
    ) {
        (false, ..) => session.pos().token(&turn),
        (true, Some(vertex), _) => vertex,
        // With --gogui-wait a turn GoGui has no name for is played over
        // several GoGui moves: its first stone now, then (GoGui asking
        // again, the stones waiting) a click on a stone to change its
        // colour, the second stone, and the pass that ends the turn.
        (true, None, Turn::Stones(first, _))
            if enters_stones(session) && session.mode().waits_always() =>
        {
            if commit {
                session.game_mut().set_plan(Some((seat, turn)));
            }
            return genmove_stone(session, seat, first.cell, commit);
        }
        // GoGui would take any other answer for a malformed vertex, and
        // its game would part from the engine's: play nothing.
        (true, None, _) => {
            return err(format!(
                "{} is not a GoGui move",
                session.pos().token(&turn)
            ));
        }
    };
    let played = match (commit, enters_stones(session)) {
        (false, _) => Ok(()),
        (true, false) => session.game_mut().play(seat, turn),
        (true, true) => {
            let click = match turn {
                Turn::Stones(s, None) => Click::Stone(s),
                Turn::Resign => Click::Resign,
                _ => Click::Pass,
            };
            let wait = session.mode().waits_always();
            session.game_mut().enter(seat, click, wait)
        }
    };
    match played {
        Ok(()) => ok(token),
        Err(_) => err("internal error"),
    }
}

/// Answers a GoGui move of the engine's that puts a stone of `seat`'s
/// colour on `cell`, or changes the colour of its waiting stone there.
fn genmove_stone(session: &mut GtpSession, seat: Colour, cell: Cell, commit: bool) -> Reply {
    let click = Click::Stone(Stone { cell, colour: seat });
    let wait = session.mode().waits_always();
    if commit && let Err(e) = session.game_mut().enter(seat, click, wait) {
        log::error!("the engine's own stone: {e}");
        return err("internal error");
    }
    ok(Grid::new(session.pos().topology()).name(cell))
}

/// GoGui mode, Odd/Xodd/Yodd: `genmove` answers `pass` after the end of
/// the game (changing nothing), and with the seat's own stones waiting,
/// where it ends the turn with them: GoGui asks its engine for a move
/// again after such a stone (with `--gogui-wait`, after the engine's
/// own too).
fn genmove_pass(session: &mut GtpSession, seat: Colour, commit: bool) -> Reply {
    let wait = session.mode().waits_always();
    match session.game_mut().pass(seat, wait, commit) {
        Ok(()) => ok("pass"),
        Err(e) => {
            log::info!("{e}");
            err("the waiting stones are not a legal turn")
        }
    }
}

/// A turn as GoGui names it, if it can: one stone of the seat's colour
/// (every Onyx stone) is its vertex, a pass or the Onyx swap is `pass`.
/// GoGui has no name for a stone of the other colour or two stones.
pub(super) fn gogui_vertex(session: &GtpSession, seat: Colour, turn: &Turn) -> Option<String> {
    match turn {
        Turn::Stones(s, None) if s.colour == seat => {
            Some(Grid::new(session.pos().topology()).name(s.cell))
        }
        Turn::Pass | Turn::Swap => Some("pass".into()),
        Turn::Resign => Some("resign".into()),
        Turn::Stones(..) => None,
    }
}

/// A turn in GoGui's words: its vertex or `pass` where GoGui can name
/// it, otherwise its stones with their colours (`White G7 + White H7`).
pub(super) fn gogui_text(session: &GtpSession, seat: Colour, turn: &Turn) -> String {
    match (gogui_vertex(session, seat, turn), turn) {
        (Some(vertex), _) => vertex,
        (None, Turn::Stones(a, b)) => {
            let grid = Grid::new(session.pos().topology());
            let stone = |s: &Stone| format!("{} {}", s.colour.name(), grid.name(s.cell));
            std::iter::once(a)
                .chain(b)
                .map(stone)
                .collect::<Vec<_>>()
                .join(" + ")
        }
        (None, _) => session.pos().token(turn),
    }
}

pub(super) fn genmove(session: &mut GtpSession, args: &[String], ctx: &mut Ctx) -> Reply {
    genmove_common(session, args, ctx, true)
}

pub(super) fn reg_genmove(session: &mut GtpSession, args: &[String], ctx: &mut Ctx) -> Reply {
    genmove_common(session, args, ctx, false)
}

pub(super) fn undo(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    if !args.is_empty() {
        return syntax();
    }
    let wait = session.mode().waits_always();
    if session.game_mut().undo(wait) {
        ok("")
    } else {
        err("cannot undo")
    }
}

/// A clock's seconds as the engine's configuration reads durations (0 to a
/// day).
fn clock_seconds(text: &str) -> Option<f64> {
    config::duration(text).ok().map(|d| d.as_secs_f64())
}

pub(super) fn time_settings(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    let [main, byo, stones] = args else {
        return syntax();
    };
    let (Some(main), Some(byo), Ok(stones)) = (
        clock_seconds(main),
        clock_seconds(byo),
        stones.parse::<u32>(),
    ) else {
        return syntax();
    };
    *session.clock_mut() = Clock::settings(main, byo, stones);
    ok("")
}

pub(super) fn kgs_time_settings(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    let Some((style, rest)) = args.split_first() else {
        return syntax();
    };
    let count = |text: &str| text.parse::<u32>().ok();
    let clock = match (style.as_str(), rest) {
        ("none", []) => Some(Clock::none()),
        ("absolute", [main]) => clock_seconds(main).map(|main| Clock::settings(main, 0.0, 0)),
        // Japanese byo-yomi: each period covers one move.
        ("byoyomi", [main, period, periods]) => {
            match (clock_seconds(main), clock_seconds(period), count(periods)) {
                (Some(main), Some(period), Some(_)) => Some(Clock::settings(main, period, 1)),
                _ => None,
            }
        }
        ("canadian", [main, byo, stones]) => {
            match (clock_seconds(main), clock_seconds(byo), count(stones)) {
                (Some(main), Some(byo), Some(stones)) if stones >= 1 => {
                    Some(Clock::settings(main, byo, stones))
                }
                _ => None,
            }
        }
        _ => None,
    };
    let Some(clock) = clock else { return syntax() };
    *session.clock_mut() = clock;
    ok("")
}

pub(super) fn time_left(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    let [seat, secs, stones] = args else {
        return syntax();
    };
    // A clock past its time may say so with seconds below 0: none left.
    let left = match secs.strip_prefix('-') {
        Some(over) => clock_seconds(over).map(|_| 0.0),
        None => clock_seconds(secs),
    };
    let (Some(seat), Some(secs), Ok(stones)) = (parse_seat(seat), left, stones.parse::<u32>())
    else {
        return syntax();
    };
    session.clock_mut().set_left(seat.index(), secs, stones);
    ok("")
}

/// Whether a token that this game rejects is well formed in some game on this
/// board (`pass` in Odd, a bare point in Xodd, two stones in Onyx): such a
/// token is an illegal move here, not a syntax error.
fn well_formed_elsewhere(token: &str, pos: &AnyGame, seat: Colour) -> bool {
    let own = Turn::parse(token, pos.kind(), pos.topology(), seat);
    if matches!(&own, Err(e) if e.kind == TokenErrorKind::WrongColour) {
        return true;
    }
    GameKind::ALL
        .into_iter()
        .any(|kind| Turn::parse(token, kind, pos.topology(), seat).is_ok())
}
