//! `oddity gtp` (and `oddity` with no subcommand): the GTP engine on
//! stdin/stdout.

use std::io::IsTerminal;

use clap::Args;

use crate::cli::args::GameArgs;
use oddity_gtp::values::{self, VisitCap};
use oddity_gtp::{Params, Session, session::set_param};
use oddity_rules::GameKind;
use oddity_search::Policy;

/// Options of the GTP engine. The engine parameters take the names of
/// `oddity-param`.
#[derive(Args, Debug, Clone, Default)]
pub struct GtpArgs {
    /// The game to start with (default: Odd).
    #[command(flatten)]
    pub game: GameArgs,
    /// Search threads (default: every core).
    #[arg(long, value_parser = values::threads)]
    pub threads: Option<usize>,
    /// Most visits per move: auto, or a number (0: no cap).
    #[arg(long, value_parser = values::visits)]
    pub visits: Option<VisitCap>,
    /// Seconds per move when no clock is set (0: no time limit).
    #[arg(long, value_parser = values::seconds)]
    pub time: Option<f64>,
    /// Memory for the search tree, MB.
    #[arg(long, value_parser = values::memory)]
    pub memory: Option<usize>,
    /// Random seed.
    #[arg(long, value_parser = values::seed)]
    pub seed: Option<u64>,
    /// Think on the opponent's time: on or off.
    #[arg(long, value_parser = values::switch)]
    pub ponder: Option<bool>,
    /// Resign below this win rate (0: only lost positions).
    #[arg(long, value_parser = values::resign)]
    pub resign: Option<f64>,
    /// Search policy: default, or plain (textbook UCT, the baseline).
    #[arg(long, value_parser = values::policy)]
    pub policy: Option<Policy>,
    /// GoGui mode: offer the GoGui ruler commands and speak GoGui's board
    /// sizes and vertex names (see protocol.md).
    #[arg(long)]
    pub gogui: bool,
    /// With --gogui, Odd/Xodd/Yodd: every stone waits until Pass ends the
    /// turn, and a click on a waiting stone changes its colour, so that a
    /// person can click every turn (see protocol.md).
    #[arg(long, requires = "gogui")]
    pub gogui_wait: bool,
    /// Any engine parameter as NAME=VALUE (repeatable), e.g.
    /// `--param rave=off --param exploration=0.5`: the names and values of
    /// `oddity-param` (protocol.md).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
}

impl GtpArgs {
    pub fn session(&self) -> Result<Session, String> {
        let spec = self.game.spec_or(GameKind::Odd)?;
        let defaults = Params::default();
        let mut params = Params {
            threads: self.threads.unwrap_or(defaults.threads),
            visits: self.visits.map_or(defaults.visits, |v| v.0),
            time: self.time.unwrap_or(defaults.time),
            memory_mb: self.memory.unwrap_or(defaults.memory_mb),
            seed: self.seed.unwrap_or(defaults.seed),
            ponder: self.ponder.unwrap_or(defaults.ponder),
            resign: self.resign.unwrap_or(defaults.resign),
            policy: self.policy.unwrap_or(defaults.policy),
            ..defaults
        };
        for item in &self.params {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("--param '{item}' is not NAME=VALUE"))?;
            set_param(&mut params, name, value)
                .map_err(|e| format!("--param {name}={value}: {e}"))?;
        }
        Ok(Session::new(spec, params)
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
