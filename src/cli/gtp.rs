//! `oddity gtp` (and `oddity` with no subcommand): the GTP engine on
//! stdin/stdout.

use std::io::IsTerminal;

use clap::Args;

use crate::game::{GameKind, GameSpec, Rules};
use crate::gtp::{Params, Session, session::set_param};

/// Options of the GTP engine. The engine parameters take the names of
/// `oddity-param`.
#[derive(Args, Debug, Clone, Default)]
pub struct GtpArgs {
    /// Game to start with: xodd, yodd, odd or onyx (default odd).
    #[arg(long, value_parser = super::parse_game_kind)]
    pub game: Option<GameKind>,
    /// Board size: square side (Xodd), hex-hex side (Yodd, Odd), points per side (Onyx).
    #[arg(long)]
    pub size: Option<usize>,
    /// Odd: the smallest group that counts (default: the board side).
    #[arg(long)]
    pub min_group: Option<usize>,
    /// Onyx: start from the empty board.
    #[arg(long)]
    pub open: bool,
    /// Onyx: no swap (pie) move.
    #[arg(long)]
    pub no_pie: bool,
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
}

impl GtpArgs {
    pub fn session(&self) -> Result<Session, String> {
        let kind = self.game.unwrap_or(GameKind::Odd);
        let rules = Rules {
            min_group: self.min_group,
            open_start: self.open,
            swap: !self.no_pie,
        };
        let spec = GameSpec::new(kind, self.size.unwrap_or(kind.default_size()), rules)
            .map_err(|e| e.to_string())?;
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
        Session::new(spec, params)
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
