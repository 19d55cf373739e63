//! GoGui's ruler commands and its analyze-command menu.

use super::{Ctx, Reply, Session, arity, ok};
use crate::gtp::gogui::Grid;
use crate::rules::game::Game;
use crate::rules::kind::GameKind;
use crate::rules::moves::{Action, Colour};

impl Session {
    pub(super) fn analyze_commands(&mut self, args: &[String], _: &mut Ctx) -> Reply {
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

    pub(super) fn rules_game_id(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            ok(match self.spec().kind {
                GameKind::Xodd => "Xodd",
                GameKind::Yodd => "Yodd",
                GameKind::Odd => "Odd",
                GameKind::Onyx => "Onyx",
            })
        })
    }

    pub(super) fn rules_board_size(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(
            args,
            0,
            || ok(Grid::new(self.pos().topology()).board_size()),
        )
    }

    /// GoGui's grid row by row from the top, one character a point: `X`
    /// black, `O` white, `.` empty, `?` not on the board. A waiting first
    /// stone of an Xodd/Yodd turn is shown.
    pub(super) fn rules_board(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            let pos = self.pos();
            let grid = Grid::new(pos.topology());
            let waiting = self.half_turn.map(|(_, s)| s);
            let lines: Vec<String> = (0..grid.side)
                .rev()
                .map(|y| {
                    (0..grid.side)
                        .map(|x| match grid.cell(x, y) {
                            None => '?',
                            Some(c) => match waiting
                                .filter(|s| s.cell == c)
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

    /// One-stone points legal now for the stone colour of the seat to move
    /// (Onyx: the mover's colour), and `pass` where a turn may end or pass.
    pub(super) fn rules_legal_moves(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            if self.record.is_over() {
                return ok("");
            }
            let mut pos = self.pos().clone();
            let colour = pos.to_move();
            let mut actions = Vec::new();
            crate::with_game!(&mut pos, g => {
                if let Some((_, s)) = self.half_turn {
                    g.apply(s.action());
                }
                g.legal_actions(&mut actions);
            });
            let grid = Grid::new(pos.topology());
            let mut names: Vec<String> = actions
                .iter()
                .filter(|a| a.is_stone() && a.colour() == colour)
                .map(|a| grid.name(a.cell()))
                .collect();
            // GoGui's `pass`: a pass, the end of an Xodd/Yodd turn, or the swap.
            if actions
                .iter()
                .any(|a| [Action::PASS, Action::END_TURN, Action::SWAP].contains(a))
            {
                names.push("pass".into());
            }
            ok(names.join(" "))
        })
    }

    pub(super) fn rules_side_to_move(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            ok(match self.pos().to_move() {
                Colour::Black => "black",
                Colour::White => "white",
            })
        })
    }

    pub(super) fn rules_final_result(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            ok(self.score_text().unwrap_or_else(|| "unknown".into()))
        })
    }

    /// Stones captured by Black, then by White (GoGui's order).
    pub(super) fn rules_captured_count(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            let [of_black, of_white] = self.record.captured(self.record.moves().len());
            ok(format!("{of_white} {of_black}"))
        })
    }
}
