//! The game record: SGF in and out, set-up positions, the result and score,
//! legal turns.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::reply::{Ctx, Reply, arity, err, ok, parse_seat, syntax};
use super::state::GtpSession;
use oddity_rules::{AnyGame, Colour, Stone, sgf};

/// `B+3`, `W+`, `B+R`: the result in the form `final_score` gives it.
pub(super) fn score_text(session: &GtpSession) -> Option<String> {
    session.game().record().outcome().map(|o| o.score())
}

pub(super) fn final_score(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    arity(args, 0, || match score_text(session) {
        Some(s) => ok(s),
        None => err("cannot score"),
    })
}

pub(super) fn loadsgf(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    let (file, upto) = match args {
        [f] => (f, None),
        [f, n] => match n.parse::<usize>() {
            Ok(n) if n >= 1 => (f, Some(n - 1)),
            _ => return syntax(),
        },
        _ => return syntax(),
    };
    let Ok(bytes) = std::fs::read(file) else {
        return err("cannot load file");
    };
    let text = String::from_utf8_lossy(&bytes);
    let loaded = catch_unwind(AssertUnwindSafe(|| sgf::read(&text)));
    match loaded {
        Ok(Ok(record)) => {
            let record = match upto {
                Some(k) if k < record.moves().len() => record.truncated(k),
                _ => record,
            };
            session.game_mut().load(record);
            session.engine_mut().clear();
            ok("")
        }
        Ok(Err(e)) => {
            log::info!("loadsgf {file}: {e}");
            err("cannot load file")
        }
        Err(_) => err("cannot load file"),
    }
}

pub(super) fn sgf_text(session: &GtpSession) -> String {
    let info = sgf::RecordInfo {
        result: score_text(session),
        ..Default::default()
    };
    sgf::write(session.game().record(), &info)
}

pub(super) fn printsgf(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    match args {
        [] => ok(sgf_text(session).trim_end()),
        [file] => match std::fs::write(file, sgf_text(session)) {
            Ok(()) => ok(""),
            Err(_) => err("cannot save file"),
        },
        _ => syntax(),
    }
}

pub(super) fn set_position(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    let Some((seat, stones)) = args.split_first() else {
        return syntax();
    };
    let Some(seat) = parse_seat(seat) else {
        return syntax();
    };
    let topo = session.pos().topology();
    let mut list = Vec::new();
    for s in stones {
        let Some((c, name)) = s.split_once(':') else {
            return syntax();
        };
        let (Some(colour), Some(cell)) = (Colour::parse(c), topo.parse_cell(name)) else {
            return syntax();
        };
        list.push(Stone { cell, colour });
    }
    let spec = session.spec();
    match catch_unwind(|| AnyGame::from_setup(&spec, &list, seat)) {
        Ok(Ok(pos)) => {
            session.game_mut().set_position(pos);
            session.engine_mut().clear();
            ok("")
        }
        Ok(Err(e)) => {
            log::info!("oddity-set_position: {e:?}");
            err("illegal position")
        }
        Err(_) => err("illegal position"),
    }
}

pub(super) fn legal_moves(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    let pos = match args {
        [] => session.pos().clone(),
        [seat] => match parse_seat(seat) {
            Some(s) => session.game().record_for(s).position().clone(),
            None => return syntax(),
        },
        _ => return syntax(),
    };
    if session.game().is_over() {
        return ok("");
    }
    let mut tokens: Vec<String> = pos.legal_turns().iter().map(|t| pos.token(t)).collect();
    tokens.sort();
    let lines: Vec<String> = tokens.chunks(16).map(|c| c.join(" ")).collect();
    ok(lines.join("\n"))
}

pub(super) fn result(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    arity(args, 0, || match session.game().record().outcome() {
        None => ok("running"),
        Some(o) => ok(format!(
            "over {} {} {}",
            if o.winner == Colour::Black { "b" } else { "w" },
            o.rule(),
            o.score()
        )),
    })
}
