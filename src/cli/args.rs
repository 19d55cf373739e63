//! Options shared by several commands: the game and its variant, and
//! `--param` overrides of the default policy.

use clap::Args;

use crate::rules::game::{GameSpec, Rules};
use crate::rules::kind::GameKind;
use crate::search::tuning::Tuning;

/// Options that choose a game, its board and its rule variant (shared by
/// every command that plays or counts a game).
#[derive(Args, Debug, Clone, Default)]
pub struct GameArgs {
    /// xodd, yodd, odd or onyx.
    #[arg(long, value_parser = parse_game_kind)]
    pub game: Option<GameKind>,
    /// Board size: square side (Xodd), hex-hex side (Yodd, Odd), points per side (Onyx).
    /// Default: the game's standard size.
    #[arg(long)]
    pub size: Option<usize>,
    /// Onyx: start from the empty board instead of the standard position.
    #[arg(long)]
    pub open: bool,
    /// Onyx: no swap (pie) move.
    #[arg(long)]
    pub no_pie: bool,
    /// Odd: the smallest group that counts (default: the board side).
    #[arg(long, long_help = crate::fairness::min_group_help(crate::fairness::findings()))]
    pub min_group: Option<usize>,
}

impl GameArgs {
    /// The chosen game; `--game` is required.
    pub fn spec(&self) -> Result<GameSpec, String> {
        let kind = self
            .game
            .ok_or("--game is required (xodd, yodd, odd or onyx)")?;
        self.spec_of(kind)
    }

    /// The chosen game, or `default` when `--game` is not given.
    pub fn spec_or(&self, default: GameKind) -> Result<GameSpec, String> {
        self.spec_of(self.game.unwrap_or(default))
    }

    fn spec_of(&self, kind: GameKind) -> Result<GameSpec, String> {
        let rules = Rules {
            min_group: self.min_group,
            open_start: self.open,
            swap: !self.no_pie,
        };
        GameSpec::from_options(kind, self.size, rules).map_err(|e| e.to_string())
    }
}

/// The `--param NAME=VALUE` overrides of the default policy.
pub fn parse_tuning(items: &[String]) -> Result<Tuning, String> {
    let mut tuning = Tuning::default();
    for item in items {
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| format!("--param '{item}' is not NAME=VALUE"))?;
        tuning
            .set(name, value)
            .map_err(|e| format!("--param {name}={value}: {e}"))?;
    }
    Ok(tuning)
}

pub fn parse_game_kind(text: &str) -> Result<GameKind, String> {
    text.parse::<GameKind>().map_err(|e| e.to_string())
}
