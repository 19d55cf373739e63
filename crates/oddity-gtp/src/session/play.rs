//! Playing: turns (with GoGui mode's one stone per `play`), the engine's
//! moves, undo and the clock commands.

use std::sync::Arc;
use std::time::Duration;

use super::entry::Click;
use super::reply::{Ctx, Reply, err, ok, parse_seat, syntax};
use super::state::Session;
use crate::analyze::{self, Format};
use crate::clock::Clock;
use crate::gogui::{self, Grid};
use crate::io::StopOn;
use crate::think::{AUTO_VISITS, Limits, Report, TurnChoice};
use oddity_rules::kind::GameKind;
use oddity_rules::moves::{Colour, Stone, TokenErrorKind, Turn};
use oddity_rules::position::AnyGame;
use oddity_rules::record::GameRecord;
use oddity_rules::topology::Cell;

impl Session {
    pub(super) fn play(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let [seat, token] = args else {
            return syntax();
        };
        let Some(seat) = parse_seat(seat) else {
            return syntax();
        };
        if self.gogui {
            // Where the mover chooses colours, GoGui enters a turn one
            // stone per `play`.
            return if self.spec().kind.colour_is_chosen() {
                self.play_one_stone(seat, token)
            } else {
                self.play_gogui_onyx(seat, token)
            };
        }
        let pos = self.pos();
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
        match self.record.play(seat, turn) {
            Ok(()) => ok(""),
            Err(e) => {
                log::info!("{}", e.describe(self.pos().topology()));
                err("illegal move")
            }
        }
    }

    /// GoGui mode, Onyx: `play <seat> <vertex>` with GoGui's grid names; `pass`
    /// is the swap, the one turn GoGui cannot name otherwise.
    pub(super) fn play_gogui_onyx(&mut self, seat: Colour, token: &str) -> Reply {
        if self.record.is_over() {
            return self.play_after_end(token);
        }
        let turn = if token.eq_ignore_ascii_case("pass") {
            Turn::Swap
        } else if token.eq_ignore_ascii_case("resign") {
            Turn::Resign
        } else {
            match Grid::new(self.pos().topology()).parse(token) {
                Some(cell) => Turn::Stones(Stone { cell, colour: seat }, None),
                None => return syntax(),
            }
        };
        match self.record.play(seat, turn) {
            Ok(()) => ok(""),
            Err(e) => {
                log::info!("{}", e.describe(self.pos().topology()));
                err("illegal move")
            }
        }
    }

    /// GoGui mode after the end of the game: gogui-twogtp stops a game only
    /// after two passes in a row, so `pass` is accepted and changes nothing.
    fn play_after_end(&self, token: &str) -> Reply {
        if token.eq_ignore_ascii_case("pass") {
            ok("")
        } else {
            err("illegal move")
        }
    }

    /// GoGui mode, Odd/Xodd/Yodd: `play <colour> <point>` puts one stone of
    /// that colour for the seat to move, `pass` passes or ends the turn
    /// after a waiting first stone (see [`entry`](super::entry)).
    pub(super) fn play_one_stone(&mut self, colour: Colour, token: &str) -> Reply {
        let click = if token.eq_ignore_ascii_case("resign") {
            Click::Resign
        } else if token.eq_ignore_ascii_case("pass") {
            Click::Pass
        } else {
            match Grid::new(self.pos().topology()).parse(token) {
                Some(cell) => Click::Stone(Stone { cell, colour }),
                None => return syntax(),
            }
        };
        match self
            .entry
            .enter(&mut self.record, colour, click, self.wait_always)
        {
            Ok(()) => ok(""),
            Err(e) => {
                log::info!("{e}");
                err("illegal move")
            }
        }
    }

    /// Whether moves are entered one stone at a time (GoGui mode, where
    /// the mover chooses the colour: Odd, Xodd, Yodd).
    fn enters_stones(&self) -> bool {
        self.gogui && self.spec().kind.colour_is_chosen()
    }

    pub(super) fn think_limits(&self, seat: Colour) -> Limits {
        let pos = self.pos();
        let cells = pos.topology().cell_count() as u32;
        let (soft_time, time) = match self.clock.budget(
            seat.index(),
            pos.turns_played(),
            cells,
            self.params.time_use,
        ) {
            Some((soft, hard)) => (Some(soft), Some(hard)),
            None if self.params.time > 0.0 => {
                (None, Some(Duration::from_secs_f64(self.params.time)))
            }
            None => (None, None),
        };
        let visits = match self.params.visits {
            Some(cap) => cap,
            None if self.clock.enabled => 0,
            None => AUTO_VISITS,
        };
        Limits {
            visits: (visits > 0).then_some(visits),
            time,
            soft_time,
        }
    }

    /// The record to search for `seat`: the game itself, or a copy of its
    /// position with `seat` to move.
    pub(super) fn record_for(&self, seat: Colour) -> GameRecord {
        if self.pos().to_move() == seat {
            self.record.clone()
        } else {
            let mut p = self.pos().clone();
            p.set_to_move(seat);
            GameRecord::new(p)
        }
    }

    /// Searches for `seat`, with progress lines when `progress` is given.
    pub(super) fn search(
        &mut self,
        seat: Colour,
        limits: Limits,
        ctx: &mut Ctx,
        progress: Option<(Format, Duration)>,
    ) -> Report {
        let record = self.record_for(seat);
        // A search that no limit ends is ended by the end of input too.
        let on = if limits == Limits::default() {
            StopOn::InterruptOrEof
        } else {
            StopOn::Interrupt
        };
        ctx.reader.watch(&self.stop, on);
        let out = &mut *ctx.out;
        let filter = self
            .shows_gogui_turns()
            .then(|| gogui::shown_turns(record.position()))
            .flatten()
            .map(Arc::new);
        let report = match progress {
            Some((format, every)) => {
                let pos = record.position().clone();
                let mut f =
                    |r: &Report| out.stream_line(&analyze::info_line(&pos, r, format, None));
                self.thinker.think_filtered(
                    &record,
                    &limits,
                    &self.stop,
                    Some((&mut f, every)),
                    filter,
                )
            }
            None => self
                .thinker
                .think_filtered(&record, &limits, &self.stop, None, filter),
        };
        ctx.reader.unwatch();
        report
    }

    /// Whether the engine's turns are limited to those GoGui can show
    /// (the `turns` parameter).
    fn shows_gogui_turns(&self) -> bool {
        match self.params.turns {
            TurnChoice::Auto => self.gogui,
            TurnChoice::Gogui => true,
            TurnChoice::All => false,
        }
    }

    /// The turn to play from a finished search. With the `resign`
    /// parameter above 0: `resign` when the loss is proven or the win rate
    /// is under it. At 0 the engine never resigns: a proven loss is played
    /// on with the turn the search found hardest to answer.
    pub(super) fn choose(&self, seat: Colour, report: &Report) -> Option<Turn> {
        let best = report.best?;
        let lost = report.proven == Some(seat.opposite())
            || report
                .candidates
                .first()
                .is_some_and(|c| c.proven == Some(seat.opposite()));
        let hopeless = self.params.resign > 0.0
            && (lost || (report.root_visits >= 100 && report.root_value < self.params.resign));
        Some(if hopeless { Turn::Resign } else { best })
    }

    pub(super) fn genmove_common(&mut self, args: &[String], ctx: &mut Ctx, commit: bool) -> Reply {
        let [seat] = args else { return syntax() };
        let Some(seat) = parse_seat(seat) else {
            return syntax();
        };
        if self.enters_stones() {
            if self.record.is_over() {
                return self.genmove_pass(seat, commit);
            }
            if let Some(held) = self.entry.held_by(seat) {
                return match self.planned_step(seat, held) {
                    Some(cell) => self.genmove_stone(seat, cell, commit),
                    None => self.genmove_pass(seat, commit),
                };
            }
            self.entry.settle(&mut self.record, seat);
        }
        if self.record.is_over() {
            // gogui-twogtp asks for moves until two passes in a row.
            return if self.gogui {
                ok("pass")
            } else {
                err("game is over")
            };
        }
        let limits = self.think_limits(seat);
        let report = self.search(seat, limits, ctx, None);
        let Some(turn) = self.choose(seat, &report) else {
            return err("game is over");
        };
        if commit {
            self.plan = None;
        }
        let token = match (self.gogui, self.gogui_vertex(seat, &turn), turn) {
            (false, ..) => self.pos().token(&turn),
            (true, Some(vertex), _) => vertex,
            // With --gogui-wait a turn GoGui has no name for is played over
            // several GoGui moves: its first stone now, then (GoGui asking
            // again, the stones waiting) a click on a stone to change its
            // colour, the second stone, and the pass that ends the turn.
            (true, None, Turn::Stones(first, _)) if self.enters_stones() && self.wait_always => {
                if commit {
                    self.plan = Some((seat, turn));
                }
                return self.genmove_stone(seat, first.cell, commit);
            }
            // GoGui would take any other answer for a malformed vertex, and
            // its game would part from the engine's: play nothing.
            (true, None, _) => {
                return err(format!("{} is not a GoGui move", self.pos().token(&turn)));
            }
        };
        let played = match (commit, self.enters_stones()) {
            (false, _) => Ok(()),
            (true, false) => self.record.play(seat, turn).map_err(|_| String::new()),
            (true, true) => {
                let click = match turn {
                    Turn::Stones(s, None) => Click::Stone(s),
                    Turn::Resign => Click::Resign,
                    _ => Click::Pass,
                };
                self.entry
                    .enter(&mut self.record, seat, click, self.wait_always)
            }
        };
        match played {
            Ok(()) => ok(token),
            Err(_) => err("internal error"),
        }
    }

    /// The next GoGui move of the turn the engine chose (`genmove` with
    /// --gogui-wait), with `held` of it placed: a waiting stone of the
    /// wrong colour (a click on it changes the colour), else a stone still
    /// to place; `None` when the stones are all placed (the pass ends the
    /// turn) or they are not that turn's.
    fn planned_step(&self, seat: Colour, held: &[Stone]) -> Option<Cell> {
        let Some((s, Turn::Stones(a, b))) = self.plan else {
            return None;
        };
        let planned: Vec<Stone> = std::iter::once(a).chain(b).collect();
        if s != seat
            || !held
                .iter()
                .all(|h| planned.iter().any(|p| p.cell == h.cell))
        {
            return None;
        }
        match held.iter().find(|h| !planned.contains(h)) {
            Some(wrong) => Some(wrong.cell),
            None => planned
                .iter()
                .find(|p| !held.iter().any(|h| h.cell == p.cell))
                .map(|p| p.cell),
        }
    }

    /// Answers a GoGui move of the engine's that puts a stone of `seat`'s
    /// colour on `cell`, or changes the colour of its waiting stone there.
    fn genmove_stone(&mut self, seat: Colour, cell: Cell, commit: bool) -> Reply {
        let click = Click::Stone(Stone { cell, colour: seat });
        if commit
            && let Err(e) = self
                .entry
                .enter(&mut self.record, seat, click, self.wait_always)
        {
            log::error!("the engine's own stone: {e}");
            return err("internal error");
        }
        ok(Grid::new(self.pos().topology()).name(cell))
    }

    /// GoGui mode, Odd/Xodd/Yodd: `genmove` answers `pass` after the end of
    /// the game (changing nothing), and with the seat's own stones waiting,
    /// where it ends the turn with them: GoGui asks its engine for a move
    /// again after such a stone (with `--gogui-wait`, after the engine's
    /// own too).
    fn genmove_pass(&mut self, seat: Colour, commit: bool) -> Reply {
        let mut record = self.record.clone();
        let mut entry = self.entry.clone();
        match entry.enter(&mut record, seat, Click::Pass, self.wait_always) {
            Ok(()) => {
                if commit {
                    (self.record, self.entry) = (record, entry);
                }
                ok("pass")
            }
            Err(e) => {
                log::info!("{e}");
                err("the waiting stones are not a legal turn")
            }
        }
    }

    /// A turn as GoGui names it, if it can: one stone of the seat's colour
    /// (every Onyx stone) is its vertex, a pass or the Onyx swap is `pass`.
    /// GoGui has no name for a stone of the other colour or two stones.
    pub(super) fn gogui_vertex(&self, seat: Colour, turn: &Turn) -> Option<String> {
        match turn {
            Turn::Stones(s, None) if s.colour == seat => {
                Some(Grid::new(self.pos().topology()).name(s.cell))
            }
            Turn::Pass | Turn::Swap => Some("pass".into()),
            Turn::Resign => Some("resign".into()),
            Turn::Stones(..) => None,
        }
    }

    /// A turn in GoGui's words: its vertex or `pass` where GoGui can name
    /// it, otherwise its stones with their colours (`White G7 + White H7`).
    pub(super) fn gogui_text(&self, seat: Colour, turn: &Turn) -> String {
        match (self.gogui_vertex(seat, turn), turn) {
            (Some(vertex), _) => vertex,
            (None, Turn::Stones(a, b)) => {
                let grid = Grid::new(self.pos().topology());
                let stone = |s: &Stone| format!("{} {}", s.colour.name(), grid.name(s.cell));
                std::iter::once(a)
                    .chain(b)
                    .map(stone)
                    .collect::<Vec<_>>()
                    .join(" + ")
            }
            (None, _) => self.pos().token(turn),
        }
    }

    pub(super) fn genmove(&mut self, args: &[String], ctx: &mut Ctx) -> Reply {
        self.genmove_common(args, ctx, true)
    }

    pub(super) fn reg_genmove(&mut self, args: &[String], ctx: &mut Ctx) -> Reply {
        self.genmove_common(args, ctx, false)
    }

    pub(super) fn undo(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        if !args.is_empty() {
            return syntax();
        }
        if self.entry.undo(&mut self.record, self.wait_always) || self.record.undo() {
            ok("")
        } else {
            err("cannot undo")
        }
    }

    pub(super) fn time_settings(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let [main, byo, stones] = args else {
            return syntax();
        };
        let (Ok(main), Ok(byo), Ok(stones)) = (
            main.parse::<f64>(),
            byo.parse::<f64>(),
            stones.parse::<u32>(),
        ) else {
            return syntax();
        };
        if main < 0.0 || byo < 0.0 || !main.is_finite() || !byo.is_finite() {
            return syntax();
        }
        self.clock = Clock::settings(main, byo, stones);
        ok("")
    }

    pub(super) fn kgs_time_settings(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let nums: Option<Vec<f64>> = args
            .iter()
            .skip(1)
            .map(|a| a.parse::<f64>().ok().filter(|x| *x >= 0.0 && x.is_finite()))
            .collect();
        let Some(nums) = nums else { return syntax() };
        let clock = match (args.first().map(|s| s.as_str()), nums.as_slice()) {
            (Some("none"), []) => Clock::none(),
            (Some("absolute"), [main]) => Clock::settings(*main, 0.0, 0),
            // Japanese byo-yomi: each period covers one move.
            (Some("byoyomi"), [main, period, _periods]) => Clock::settings(*main, *period, 1),
            (Some("canadian"), [main, byo, stones]) if *stones >= 1.0 => {
                Clock::settings(*main, *byo, *stones as u32)
            }
            _ => return syntax(),
        };
        self.clock = clock;
        ok("")
    }

    pub(super) fn time_left(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let [seat, secs, stones] = args else {
            return syntax();
        };
        let (Some(seat), Ok(secs), Ok(stones)) =
            (parse_seat(seat), secs.parse::<f64>(), stones.parse::<u32>())
        else {
            return syntax();
        };
        if !secs.is_finite() {
            return syntax();
        }
        self.clock.left[seat.index()] = Some((secs.max(0.0), stones));
        ok("")
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::think::Params;
    use oddity_rules::game::GameSpec;

    fn visit_cap(visits: Option<u64>, clock: Clock) -> Option<u64> {
        let params = Params {
            visits,
            ..Params::default()
        };
        let mut s = Session::new(GameSpec::default_for(GameKind::Odd), params).unwrap();
        s.clock = clock;
        s.think_limits(Colour::Black).visits
    }

    #[test]
    fn auto_visits_cap_only_moves_without_a_clock() {
        let per_move = Clock::settings(0.0, 5.0, 1);
        assert_eq!(visit_cap(None, Clock::none()), Some(AUTO_VISITS));
        assert_eq!(visit_cap(None, per_move.clone()), None);
        assert_eq!(visit_cap(Some(300), per_move.clone()), Some(300));
        assert_eq!(visit_cap(Some(300), Clock::none()), Some(300));
        assert_eq!(visit_cap(Some(0), Clock::none()), None);
    }
}
