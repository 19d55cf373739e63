//! Options shared by several commands: the game and its variant, how long
//! and on how many threads a command searches, `--param` overrides of the
//! default policy, and the command line as results files keep it.

use std::time::Duration;

use clap::Args;

use oddity_gtp::values;
use oddity_rules::{GameKind, GameSpec, Rules};
use oddity_search::tuning::Tuning;

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
    #[arg(long, long_help = oddity_fairness::min_group_help(oddity_fairness::findings()))]
    pub min_group: Option<usize>,
}

/// How long and on how many threads a command searches: `--time` (seconds,
/// above 0 and at most a day) and `--threads` (1 to 1024), read by clap
/// into checked values here for every command that searches by itself
/// (the engine's own options are in `crates/oddity-gtp/src/values.rs`). Each command
/// says in its help what one search is and what it does without them.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct SearchBudget {
    /// Seconds per search.
    #[arg(long, value_name = "S", value_parser = values::search_seconds)]
    pub time: Option<f64>,
    /// Search threads.
    #[arg(long, value_parser = values::threads)]
    pub threads: Option<usize>,
}

impl SearchBudget {
    /// `--time` as a duration.
    pub fn duration(&self) -> Option<Duration> {
        self.time.map(Duration::from_secs_f64)
    }

    /// `--threads`, or `default` when it is not given.
    pub fn threads_or(&self, default: usize) -> usize {
        self.threads.unwrap_or(default)
    }
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

/// This process's command line, quoted as a shell reads it: what results
/// files keep as the command that played each game.
pub fn command_line() -> String {
    let args: Vec<String> = std::env::args().collect();
    shlex::try_join(args.iter().map(String::as_str)).unwrap_or_else(|_| args.join(" "))
}
