//! The options that name a position: a game and move tokens, or a turn of
//! a game record.

use std::path::PathBuf;

use clap::Args;

use crate::cli::args::GameArgs;
use oddity_analysis::setup::{self, Variation};
use oddity_rules::{AnyGame, GameRecord, internals::quoted};

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
    /// With --position on a file of several games (as `oddity match`
    /// writes): which game, 1 for the first (the default). Which game of
    /// how many is said on stderr.
    #[arg(long, value_name = "N", requires = "position", value_parser = game_number)]
    pub game_index: Option<usize>,
    /// With --position on a record with variations: which one, by number
    /// (1, the main line and the default, then the others in the file's
    /// order) or by the name (SGF `N`) of a turn on it. How many there are
    /// is said on stderr.
    #[arg(long, value_name = "K|NAME", requires = "position")]
    pub variation: Option<String>,
}

fn game_number(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("give the game's number in the file, 1 for the first".into()),
    }
}

impl PositionArgs {
    /// The game up to the chosen position.
    pub fn record(&self) -> Result<GameRecord, String> {
        match &self.position {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let game = self.game_index.unwrap_or(1);
                let which = self
                    .variation
                    .as_deref()
                    .map_or(Variation::Number(1), Variation::parse);
                let setup::SgfPosition {
                    record,
                    games,
                    variations,
                    cuts,
                } = setup::from_sgf_game(&text, game, &which, self.turn)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                for cut in &cuts {
                    eprintln!("{}: {cut}", path.display());
                }
                if games > 1 {
                    eprintln!("{}: game {game} of {games}", path.display());
                }
                if variations > 1 {
                    let which = match &which {
                        Variation::Number(1) => "the main line".to_string(),
                        Variation::Number(k) => format!("variation {k}"),
                        Variation::Named(name) => format!("the variation through {}", quoted(name)),
                    };
                    eprintln!("{}: {which} of {variations} variations", path.display());
                }
                Ok(record)
            }
            None => {
                if self.turn.is_some() || self.game_index.is_some() || self.variation.is_some() {
                    return Err(
                        "--turn, --game-index and --variation go with --position FILE.sgf".into(),
                    );
                }
                let spec = self.game.spec()?;
                let tokens: Vec<&str> = self.moves.split_whitespace().collect();
                GameRecord::replay(AnyGame::new(&spec), &tokens).map_err(|e| e.to_string())
            }
        }
    }
}
