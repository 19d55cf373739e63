//! The session's state, in parts: the game, the engine, the clock and
//! GoGui mode.

use super::engine::Engine;
use super::game::{Game, Unavailable};
use super::mode::GoguiMode;
use crate::clock::Clock;
use crate::io::{Reader, StopOn};
use crate::think::{Limits, Params};
use oddity_rules::{AnyGame, GameRecord, GameSpec};

pub struct GtpSession {
    game: Game,
    engine: Engine,
    clock: Clock,
    mode: GoguiMode,
    quit: bool,
    /// What `version` answers: the build, as the program names it.
    version: &'static str,
}

impl GtpSession {
    pub fn new(spec: GameSpec, params: Params) -> Result<GtpSession, Unavailable> {
        Ok(GtpSession {
            game: Game::new(spec)?,
            engine: Engine::new(params),
            clock: Clock::none(),
            mode: GoguiMode::default(),
            quit: false,
            version: env!("CARGO_PKG_VERSION"),
        })
    }

    /// Turns GoGui mode on or off; the command list depends on it, so it is
    /// chosen before the session starts.
    pub fn with_gogui(mut self, on: bool) -> GtpSession {
        self.mode.set_on(on);
        self
    }

    /// `--gogui-wait`: every stone waits until a pass ends the turn (see
    /// protocol.md).
    pub fn with_gogui_wait(mut self, on: bool) -> GtpSession {
        self.mode.set_wait_always(on);
        self
    }

    /// What `version` answers (the crate's version unless set): the
    /// program names its build here.
    pub fn with_version(mut self, version: &'static str) -> GtpSession {
        self.version = version;
        self
    }

    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    pub(super) fn request_quit(&mut self) {
        self.quit = true;
    }

    pub(super) fn version(&self) -> &'static str {
        self.version
    }

    pub fn record(&self) -> &GameRecord {
        self.game.record()
    }

    pub(super) fn game(&self) -> &Game {
        &self.game
    }

    pub(super) fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    pub(super) fn engine(&self) -> &Engine {
        &self.engine
    }

    pub(super) fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    pub(super) fn clock(&self) -> &Clock {
        &self.clock
    }

    pub(super) fn clock_mut(&mut self) -> &mut Clock {
        &mut self.clock
    }

    pub(super) fn mode(&self) -> GoguiMode {
        self.mode
    }

    /// Thinks on the opponent's time until a line arrives, when pondering
    /// is on.
    pub fn ponder(&mut self, reader: &Reader) {
        if !self.engine.ponders() || self.game.is_over() || reader.line_waiting() || reader.at_eof()
        {
            return;
        }
        let limits = Limits::default();
        self.engine.think(
            self.game.record(),
            &limits,
            reader,
            StopOn::AnyLine,
            None,
            None,
        );
    }

    pub(super) fn spec(&self) -> GameSpec {
        self.game.spec()
    }

    pub(super) fn pos(&self) -> &AnyGame {
        self.game.pos()
    }

    /// After an internal error: drop half-done state.
    pub fn recover(&mut self) {
        self.game.recover();
        self.engine.clear();
    }

    /// Starts a new game of `spec`.
    pub(super) fn new_game(&mut self, spec: GameSpec) -> Result<(), Unavailable> {
        self.game.restart(spec)?;
        self.engine.clear();
        self.clock.forget_left();
        Ok(())
    }
}
