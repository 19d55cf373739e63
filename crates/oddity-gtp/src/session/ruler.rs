//! GoGui's ruler commands and its analyze-command menu.

use std::collections::BTreeSet;

use super::records::score_text;
use super::reply::{Ctx, Reply, arity, ok};
use super::state::GtpSession;
use crate::gogui::Grid;
use oddity_rules::{Colour, GameKind, Stone, Turn};

pub(super) fn analyze_commands(_: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    arity(args, 0, || {
        ok("param/Engine parameters/oddity-param\n\
            param/Rules for the next game/oddity-rules\n\
            string/Legal moves/oddity-legal_moves %m\n\
            gfx/Visit heat map/oddity-heatmap %m\n\
            string/Solve (10 s)/oddity-solve %m 10\n\
            string/Result/oddity-result\n\
            string/Describe engine/gomill-describe_engine")
    })
}

pub(super) fn rules_game_id(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    arity(args, 0, || {
        ok(match session.spec().kind {
            GameKind::Xodd => "Xodd",
            GameKind::Yodd => "Yodd",
            GameKind::Odd => "Odd",
            GameKind::Onyx => "Onyx",
        })
    })
}

pub(super) fn rules_board_size(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    arity(args, 0, || {
        ok(Grid::new(session.pos().topology()).board_size())
    })
}

/// GoGui's grid row by row from the top, one character a point: `X`
/// black, `O` white, `.` empty, `?` not on the board. The waiting
/// stones of an Odd/Xodd/Yodd turn are shown.
pub(super) fn rules_board(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    arity(args, 0, || {
        let pos = session.pos();
        let grid = Grid::new(pos.topology());
        let waiting: &[Stone] = session.game().waiting().unwrap_or(&[]);
        let lines: Vec<String> = (0..grid.side)
            .rev()
            .map(|y| {
                (0..grid.side)
                    .map(|x| match grid.cell(x, y) {
                        None => '?',
                        Some(c) => match waiting
                            .iter()
                            .find(|s| s.cell == c)
                            .map(|s| s.colour)
                            .or_else(|| pos.stone_at(c))
                        {
                            Some(Colour::Black) => 'X',
                            Some(Colour::White) => 'O',
                            None => '.',
                        },
                    })
                    .collect()
            })
            .collect();
        ok(lines.join("\n"))
    })
}

/// The points GoGui may click now (its click puts a stone of the
/// mover's colour, and a click on a waiting stone changes its colour):
/// the points of the legal turns, with stones of either colour; with
/// stones waiting, those points and the points that complete a legal
/// turn with them. `pass` where the turn may pass, end with the
/// waiting stones as they are, or White may swap (Onyx).
pub(super) fn rules_legal_moves(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    arity(args, 0, || {
        if session.game().is_over() {
            return ok("");
        }
        let pos = session.pos();
        let held = session.game().waiting();
        let mut cells = BTreeSet::new();
        let mut pass = false;
        for turn in &pos.legal_turns() {
            let stones: Vec<Stone> = match turn {
                Turn::Stones(a, b) => std::iter::once(*a).chain(*b).collect(),
                _ => Vec::new(),
            };
            match held {
                None if stones.is_empty() => pass = true,
                None => cells.extend(stones.iter().map(|s| s.cell)),
                Some(held) => {
                    // A turn with a stone on each waiting stone's point.
                    if held.iter().all(|h| stones.iter().any(|s| s.cell == h.cell)) {
                        cells.extend(stones.iter().map(|s| s.cell));
                        pass |=
                            held.len() == stones.len() && held.iter().all(|h| stones.contains(h));
                    }
                }
            }
        }
        let grid = Grid::new(pos.topology());
        let mut names: Vec<String> = cells.into_iter().map(|c| grid.name(c)).collect();
        if pass {
            names.push("pass".into());
        }
        ok(names.join(" "))
    })
}

pub(super) fn rules_side_to_move(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    arity(args, 0, || {
        ok(match session.pos().to_move() {
            Colour::Black => "black",
            Colour::White => "white",
        })
    })
}

pub(super) fn rules_final_result(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    arity(args, 0, || {
        ok(score_text(session).unwrap_or_else(|| "unknown".into()))
    })
}

/// Stones captured by Black, then by White (GoGui's order).
pub(super) fn rules_captured_count(
    session: &mut GtpSession,
    args: &[String],
    _: &mut Ctx,
) -> Reply {
    arity(args, 0, || {
        let record = session.game().record();
        let [of_black, of_white] = record.captured(record.moves().len());
        ok(format!("{of_white} {of_black}"))
    })
}
