//! The options that name a position: a game and move tokens, or a turn of
//! a game record.

use std::path::PathBuf;

use clap::Args;

use super::GameArgs;
use crate::analysis::setup;
use crate::rules::record::GameRecord;

#[derive(Args, Debug, Clone, Default)]
pub struct PositionArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Turns played from the start, as space-separated tokens ("B:E5 W:D4,B:F6").
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Start from a game record (SGF written by `printsgf` or `oddity match`);
    /// the record names its game, size and rules.
    #[arg(long, value_name = "FILE.sgf", conflicts_with_all = ["moves", "game", "size", "open", "no_pie", "min_group"])]
    pub position: Option<PathBuf>,
    /// With --position: the position after this many turns (default: the last).
    #[arg(long, value_name = "K", requires = "position")]
    pub turn: Option<usize>,
}

impl PositionArgs {
    /// The game up to the chosen position.
    pub fn record(&self) -> Result<GameRecord, String> {
        match &self.position {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                setup::from_sgf(&text, self.turn).map_err(|e| format!("{}: {e}", path.display()))
            }
            None => {
                let spec = self.game.spec()?;
                let tokens: Vec<&str> = self.moves.split_whitespace().collect();
                setup::replay(&spec, &tokens)
            }
        }
    }
}
