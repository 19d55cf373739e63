//! `oddity perft`: counts legal turn sequences after optional opening turns.

use clap::Args;

use crate::cli::args::GameArgs;
use oddity_rules::AnyGame;

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Largest depth; one line `D COUNT` is printed per depth 1..=D.
    #[arg(long)]
    pub depth: u32,
    /// Turns played from the start before counting, as space-separated tokens.
    #[arg(long, default_value = "")]
    pub moves: String,
}

/// Runs perft and prints its lines; `Err` is a one-line message for stderr.
pub fn run(args: &PerftArgs) -> Result<(), String> {
    let spec = args.game.spec()?;
    let mut game = AnyGame::new(&spec);
    for token in args.moves.split_whitespace() {
        let turn = game.parse_turn(token).map_err(|e| e.to_string())?;
        game.play_turn(&turn)
            .map_err(|e| format!("illegal move '{token}': {}", e.describe(game.topology())))?;
    }
    for depth in 1..=args.depth {
        println!("{depth} {}", game.perft(depth));
    }
    Ok(())
}
