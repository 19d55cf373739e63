//! The session's state: the game, the rules for the next game, the engine
//! and its parameters, the clock and GoGui mode.

use std::panic::catch_unwind;

use super::entry::Entry;
use crate::clock::Clock;
use crate::think::{Params, StopFlag, Thinker};
use oddity_rules::game::{GameSpec, Rules};
use oddity_rules::kind::GameKind;
use oddity_rules::moves::{Colour, Turn};
use oddity_rules::position::AnyGame;
use oddity_rules::record::GameRecord;

/// A game this build cannot play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0} is not available")]
pub struct Unavailable(pub GameKind);

/// Builds a start position; `Err` when this build cannot play that game.
pub(super) fn make_game(spec: &GameSpec) -> Result<AnyGame, Unavailable> {
    catch_unwind(|| AnyGame::new(spec)).map_err(|_| Unavailable(spec.kind))
}

pub struct Session {
    /// The game being played.
    pub(super) record: GameRecord,
    /// Rules for the next game (`oddity-rules`); the game and size come from
    /// the current game unless `boardsize` / `oddity-game` change them.
    pub(super) next_rules: Rules,
    pub(super) params: Params,
    pub(super) thinker: Thinker,
    pub(super) clock: Clock,
    /// GoGui mode (`--gogui`): ruler commands, GoGui's grid and vertex names,
    /// and one stone per `play` in Odd, Xodd and Yodd.
    pub(super) gogui: bool,
    /// GoGui mode, Odd/Xodd/Yodd: the turn being entered one stone at a
    /// time.
    pub(super) entry: Entry,
    /// GoGui mode: every stone waits until a pass ends the turn
    /// (`--gogui-wait`), not only those that cannot end the turn without
    /// more stones or another colour.
    pub(super) wait_always: bool,
    /// GoGui mode with `--gogui-wait`: the engine's turn being played over
    /// several GoGui moves, and its seat.
    pub(super) plan: Option<(Colour, Turn)>,
    pub(super) quit: bool,
    pub(super) stop: StopFlag,
    /// What `version` answers: the build, as the program names it.
    pub(super) version: &'static str,
}

impl Session {
    pub fn new(spec: GameSpec, params: Params) -> Result<Session, Unavailable> {
        let start = make_game(&spec)?;
        Ok(Session {
            record: GameRecord::new(start),
            next_rules: spec.rules,
            thinker: Thinker::new(&params),
            params,
            clock: Clock::none(),
            gogui: false,
            entry: Default::default(),
            wait_always: false,
            plan: None,
            quit: false,
            stop: StopFlag::new(),
            version: env!("CARGO_PKG_VERSION"),
        })
    }

    /// Turns GoGui mode on or off; the command list depends on it, so it is
    /// chosen before the session starts.
    pub fn with_gogui(mut self, on: bool) -> Session {
        self.gogui = on;
        self
    }

    /// `--gogui-wait`: every stone waits until a pass ends the turn (see
    /// protocol.md).
    pub fn with_gogui_wait(mut self, on: bool) -> Session {
        self.wait_always = on;
        self
    }

    /// What `version` answers (the crate's version unless set): the
    /// program names its build here.
    pub fn with_version(mut self, version: &'static str) -> Session {
        self.version = version;
        self
    }

    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    pub(super) fn spec(&self) -> GameSpec {
        *self.record.position().spec()
    }

    pub(super) fn pos(&self) -> &AnyGame {
        self.record.position()
    }

    /// After an internal error: drop half-done state.
    pub fn recover(&mut self) {
        self.entry = Default::default();
        self.plan = None;
        self.thinker.clear();
    }

    /// Starts a new game of `spec`.
    pub(super) fn new_game(&mut self, spec: GameSpec) -> Result<(), Unavailable> {
        let start = make_game(&spec)?;
        self.record = GameRecord::new(start);
        self.entry = Default::default();
        self.plan = None;
        self.thinker.clear();
        self.clock.left = [None, None];
        Ok(())
    }
}
