//! The game of a session: its record, the rules of the next game, and in
//! GoGui mode the turn entered stone by stone and the engine's turn being
//! played over several GoGui moves.

use std::panic::catch_unwind;

use super::entry::{Click, Entry};
use oddity_rules::{
    AnyGame, Cell, Colour, GameKind, GameRecord, GameSpec, RuleError, Rules, Stone, Turn,
};

/// A game this build cannot play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0} is not available")]
pub struct Unavailable(pub GameKind);

/// Builds a start position; `Err` when this build cannot play that game.
fn make_game(spec: &GameSpec) -> Result<AnyGame, Unavailable> {
    catch_unwind(|| AnyGame::new(spec)).map_err(|_| Unavailable(spec.kind))
}

pub(super) struct Game {
    /// The game being played.
    record: GameRecord,
    /// Rules for the next game (`oddity-rules`); the game and size come from
    /// the current game unless `boardsize` / `oddity-game` change them.
    next_rules: Rules,
    /// GoGui mode, Odd/Xodd/Yodd: the turn being entered one stone at a
    /// time.
    entry: Entry,
    /// GoGui mode with `--gogui-wait`: the engine's turn being played over
    /// several GoGui moves, and its seat.
    plan: Option<(Colour, Turn)>,
}

impl Game {
    pub(super) fn new(spec: GameSpec) -> Result<Game, Unavailable> {
        let start = make_game(&spec)?;
        Ok(Game {
            record: GameRecord::new(start),
            next_rules: spec.rules,
            entry: Entry::default(),
            plan: None,
        })
    }

    pub(super) fn record(&self) -> &GameRecord {
        &self.record
    }

    pub(super) fn pos(&self) -> &AnyGame {
        self.record.position()
    }

    pub(super) fn spec(&self) -> GameSpec {
        *self.record.position().spec()
    }

    pub(super) fn is_over(&self) -> bool {
        self.record.is_over()
    }

    pub(super) fn next_rules(&self) -> Rules {
        self.next_rules
    }

    /// Sets one rule of the next game (`oddity-rules`).
    pub(super) fn set_rule(&mut self, name: &str, value: &str) -> Result<(), RuleError> {
        self.next_rules.set(name, value)
    }

    /// Starts a new game of `spec`, dropping half-entered turns.
    pub(super) fn restart(&mut self, spec: GameSpec) -> Result<(), Unavailable> {
        let start = make_game(&spec)?;
        self.record = GameRecord::new(start);
        self.recover();
        Ok(())
    }

    /// Takes a loaded game, whose rules become the next game's.
    pub(super) fn load(&mut self, record: GameRecord) {
        self.next_rules = record.position().spec().rules;
        self.record = record;
        self.entry = Entry::default();
    }

    /// Starts from a set-up position.
    pub(super) fn set_position(&mut self, pos: AnyGame) {
        self.record = GameRecord::new(pos);
        self.entry = Entry::default();
    }

    /// After an internal error or a new game: drops half-done turns.
    pub(super) fn recover(&mut self) {
        self.entry = Entry::default();
        self.plan = None;
    }

    /// Plays a whole turn, or changes nothing and says why not.
    pub(super) fn play(&mut self, seat: Colour, turn: Turn) -> Result<(), String> {
        let topo = self.record.position().topology();
        self.record
            .play(seat, turn)
            .map_err(|e| e.describe(topo).to_string())
    }

    /// Takes back the last GoGui move entered, or else the last turn.
    pub(super) fn undo(&mut self, wait_always: bool) -> bool {
        self.entry.undo(&mut self.record, wait_always) || self.record.undo()
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

    /// Enters one GoGui move of `colour` (see [`entry`](super::entry)).
    pub(super) fn enter(
        &mut self,
        colour: Colour,
        click: Click,
        wait_always: bool,
    ) -> Result<(), String> {
        self.entry
            .enter(&mut self.record, colour, click, wait_always)
    }

    /// Whether a pass of `seat` would be taken; taken when `commit`.
    pub(super) fn pass(
        &mut self,
        seat: Colour,
        wait_always: bool,
        commit: bool,
    ) -> Result<(), String> {
        let mut record = self.record.clone();
        let mut entry = self.entry.clone();
        entry.enter(&mut record, seat, Click::Pass, wait_always)?;
        if commit {
            (self.record, self.entry) = (record, entry);
        }
        Ok(())
    }

    /// Before `seat` moves: waiting stones of the other seat that make a
    /// legal turn become that turn.
    pub(super) fn settle(&mut self, seat: Colour) {
        self.entry.settle(&mut self.record, seat);
    }

    /// The waiting stones of `seat`, if any.
    pub(super) fn held_by(&self, seat: Colour) -> Option<&[Stone]> {
        self.entry.held_by(seat)
    }

    /// The waiting stones of the turn being entered, of either seat.
    pub(super) fn waiting(&self) -> Option<&[Stone]> {
        self.entry.waiting()
    }

    /// Plays the engine's `turn` for `seat` over several GoGui moves, or
    /// with `None` forgets such a plan.
    pub(super) fn set_plan(&mut self, plan: Option<(Colour, Turn)>) {
        self.plan = plan;
    }

    /// The next GoGui move of the turn the engine chose (`genmove` with
    /// --gogui-wait), with `held` of it placed: a waiting stone of the
    /// wrong colour (a click on it changes the colour), else a stone still
    /// to place; `None` when the stones are all placed (the pass ends the
    /// turn) or they are not that turn's.
    pub(super) fn planned_step(&self, seat: Colour, held: &[Stone]) -> Option<Cell> {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn odd() -> Game {
        Game::new(GameSpec::default_for(GameKind::Odd)).unwrap()
    }

    fn stone(game: &Game, name: &str, colour: Colour) -> Stone {
        let cell = game.pos().topology().parse_cell(name).unwrap();
        Stone { cell, colour }
    }

    #[test]
    fn a_tried_pass_changes_nothing_until_committed() {
        let mut game = odd();
        let s = stone(&game, "a1", Colour::Black);
        game.enter(Colour::Black, Click::Stone(s), true).unwrap();
        assert_eq!(game.waiting(), Some(&[s][..]));
        game.pass(Colour::Black, true, false).unwrap();
        assert_eq!(game.waiting(), Some(&[s][..]));
        assert_eq!(game.record().moves().len(), 0);
        game.pass(Colour::Black, true, true).unwrap();
        assert_eq!(game.waiting(), None);
        assert_eq!(game.record().moves().len(), 1);
        assert!(game.undo(true));
        assert_eq!(game.waiting(), Some(&[s][..]));
    }

    #[test]
    fn a_new_game_forgets_waiting_stones_and_the_plan() {
        let mut game = odd();
        let s = stone(&game, "a1", Colour::Black);
        game.set_plan(Some((Colour::Black, Turn::Stones(s, None))));
        assert_eq!(game.planned_step(Colour::Black, &[]), Some(s.cell));
        game.enter(Colour::Black, Click::Stone(s), true).unwrap();
        game.restart(game.spec()).unwrap();
        assert_eq!(game.waiting(), None);
        assert_eq!(game.planned_step(Colour::Black, &[]), None);
    }
}
