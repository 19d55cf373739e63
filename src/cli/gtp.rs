//! `oddity gtp` (and `oddity` with no subcommand): the GTP engine on
//! stdin/stdout.

use std::io::IsTerminal;

use clap::Args;

use super::GameArgs;
use crate::gtp::{Params, Session, session::set_param};
use crate::rules::kind::GameKind;

/// Options of the GTP engine. The engine parameters take the names of
/// `oddity-param`.
#[derive(Args, Debug, Clone, Default)]
pub struct GtpArgs {
    /// The game to start with (default: Odd).
    #[command(flatten)]
    pub game: GameArgs,
    /// Search threads.
    #[arg(long)]
    pub threads: Option<String>,
    /// Most visits per move (0: no cap).
    #[arg(long)]
    pub visits: Option<String>,
    /// Seconds per move when no clock is set (0: no time limit).
    #[arg(long)]
    pub time: Option<String>,
    /// Memory for the search tree, MB.
    #[arg(long)]
    pub memory: Option<String>,
    /// Random seed.
    #[arg(long)]
    pub seed: Option<String>,
    /// Think on the opponent's time: on or off.
    #[arg(long)]
    pub ponder: Option<String>,
    /// Resign below this win rate (0: only lost positions).
    #[arg(long)]
    pub resign: Option<String>,
    /// Search policy: default, or plain (textbook UCT, the baseline).
    #[arg(long)]
    pub policy: Option<String>,
    /// GoGui mode: offer the GoGui ruler commands and speak GoGui's board
    /// sizes and vertex names (see protocol.md).
    #[arg(long)]
    pub gogui: bool,
    /// Any engine parameter as NAME=VALUE (repeatable), e.g.
    /// `--param rave=off --param exploration=0.5`: the names and values of
    /// `oddity-param` (protocol.md).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
}

impl GtpArgs {
    pub fn session(&self) -> Result<Session, String> {
        let spec = self.game.spec_or(GameKind::Odd)?;
        let mut params = Params::default();
        for (name, value) in [
            ("threads", &self.threads),
            ("visits", &self.visits),
            ("time", &self.time),
            ("memory", &self.memory),
            ("seed", &self.seed),
            ("ponder", &self.ponder),
            ("resign", &self.resign),
            ("policy", &self.policy),
        ] {
            if let Some(v) = value {
                set_param(&mut params, name, v)
                    .map_err(|_| format!("bad value '{v}' for --{name}"))?;
            }
        }
        for item in &self.params {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("--param '{item}' is not NAME=VALUE"))?;
            set_param(&mut params, name, value)
                .map_err(|e| format!("--param {name}={value}: {e}"))?;
        }
        Ok(Session::new(spec, params)
            .map_err(|e| e.to_string())?
            .with_gogui(self.gogui))
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
    crate::gtp::run_stdio(session);
    Ok(())
}
