//! `oddity gtp` (and `oddity` with no subcommand): the GTP engine on
//! stdin/stdout.

use std::io::IsTerminal;

use clap::Args;

use crate::cli::args::{EngineArgs, GameArgs};
use oddity_gtp::values;
use oddity_gtp::{GtpSession, Params, session::set_param};
use oddity_rules::GameKind;
use oddity_search::config::switch;

/// Options of the GTP engine. The engine parameters take the names of
/// `oddity-param`.
#[derive(Args, Debug, Clone, Default)]
#[command(
    mut_arg("threads", |a| a.help("Search threads (default: every core)")),
    mut_arg("visits", |a| a.help("Most visits per move: auto (200000 without a clock, none under one), a number, or 0 for no cap")),
    mut_arg("time", |a| a.help("Seconds per move when no clock is set (default 5; 0: no time limit)")),
    mut_arg("memory", |a| a.help("Memory for the search tree, MiB (default 1024)")),
    mut_arg("seed", |a| a.help("Random seed (default 1)")),
    mut_arg("params", |a| a.help("Any engine parameter as NAME=VALUE (repeatable), e.g. `--param rave=off --param turns=all`: the names and values of `oddity-param` (protocol.md)"))
)]
pub struct GtpArgs {
    /// The game to start with (default: Odd).
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Think on the opponent's time: on or off.
    #[arg(long, value_parser = switch)]
    pub ponder: Option<bool>,
    /// Resign below this win rate (0: only lost positions).
    #[arg(long, value_parser = values::resign)]
    pub resign: Option<f64>,
    /// GoGui mode: offer the GoGui ruler commands and speak GoGui's board
    /// sizes and vertex names (see protocol.md).
    #[arg(long)]
    pub gogui: bool,
    /// With --gogui, Odd/Xodd/Yodd: every stone waits until Pass ends the
    /// turn, and a click on a waiting stone changes its colour, so that a
    /// person can click every turn (see protocol.md).
    #[arg(long, requires = "gogui")]
    pub gogui_wait: bool,
}

impl GtpArgs {
    pub fn session(&self) -> Result<GtpSession, String> {
        let spec = self.game.spec_or(GameKind::Odd)?;
        let defaults = Params::default();
        let mut params = Params {
            engine: self.engine.options(defaults.engine.clone())?,
            ponder: self.ponder.unwrap_or(defaults.ponder),
            resign: self.resign.unwrap_or(defaults.resign),
            ..defaults
        };
        // The protocol's own parameters (`turns`, `time_use`, ...) too.
        for (name, value) in self.engine.param_items()? {
            set_param(&mut params, name, value)
                .map_err(|e| format!("--param {name}={value}: {e}"))?;
        }
        Ok(GtpSession::new(spec, params)
            .map_err(|e| e.to_string())?
            .with_gogui(self.gogui)
            .with_gogui_wait(self.gogui_wait)
            .with_version(crate::version::BUILD))
    }
}

pub fn run(args: &GtpArgs) -> Result<(), String> {
    let session = args.session()?;
    if std::io::stdin().is_terminal() {
        // Only a person at a terminal sees this; controllers use pipes.
        eprintln!(
            "oddity {}: GTP engine. Try: showboard, play b B:E5, genmove w, \
             oddity-legal_moves, oddity-game xodd, list_commands, quit (see protocol.md).",
            env!("CARGO_PKG_VERSION")
        );
    }
    log::info!("GTP engine ready");
    oddity_gtp::run_stdio(session);
    Ok(())
}
