//! Options shared by several commands: the game and its variant, the
//! engine's configuration, and the command line as results files keep it.

use clap::Args;

use oddity_rules::{GameKind, GameSpec, Rules};
use oddity_search::EngineConfig;
use oddity_search::config::ConfigError;

/// Options that choose a game, its board and its rule variant (shared by
/// every command that plays or counts a game).
#[derive(Args, Debug, Clone, Default)]
pub struct GameArgs {
    #[arg(long, value_parser = parse_game_kind, help = game_names())]
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

/// The engine's options, shared by every command that searches with the
/// engine: each sets the value of the same name of the engine's
/// configuration ([`EngineConfig::set`], which reads and checks them all,
/// as `oddity-param` does). Each command starts from its own defaults and
/// says them in its help.
#[derive(Args, Debug, Clone, Default)]
pub struct EngineArgs {
    /// Search threads.
    #[arg(long, value_name = "N", value_parser = checked("threads"))]
    pub threads: Option<String>,
    /// Most visits per search: a number, 0 for no cap, or auto.
    #[arg(long, value_name = "N", value_parser = checked("visits"))]
    pub visits: Option<String>,
    /// Seconds per search (0: no time limit).
    #[arg(long, value_name = "S", value_parser = checked("time"))]
    pub time: Option<String>,
    /// Memory for the search tree, MiB.
    #[arg(long, value_name = "MIB", value_parser = checked("memory"))]
    pub memory: Option<String>,
    /// Random seed.
    #[arg(long, value_name = "N", value_parser = checked("seed"))]
    pub seed: Option<String>,
    /// Search policy: default, or plain (textbook UCT, the baseline).
    #[arg(long, value_parser = checked("policy"))]
    pub policy: Option<String>,
    /// UCT exploration constant: a number of at least 0, or auto (the
    /// game's and policy's own).
    #[arg(long, value_name = "C", value_parser = checked("exploration"))]
    pub exploration: Option<String>,
    /// Any engine parameter as NAME=VALUE (repeatable), e.g.
    /// `--param rave=off`: the names and values of `oddity-param`
    /// (protocol.md).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
}

/// A clap value parser for the option `name`: the value as text once
/// [`EngineConfig::set`] takes it, so that clap refuses a bad one with
/// the value quoted and the configuration's words.
fn checked(name: &'static str) -> impl Fn(&str) -> Result<String, String> + Clone {
    move |value| {
        EngineConfig::default()
            .set(name, value)
            .map(|()| value.to_string())
            .map_err(|e| match e {
                ConfigError::BadValue(_, why) => why.to_string(),
                e => e.to_string(),
            })
    }
}

impl EngineArgs {
    /// `defaults` with the options given set on it, in the order above,
    /// then each `--param`.
    pub fn config(&self, defaults: EngineConfig) -> Result<EngineConfig, String> {
        let mut config = self.options(defaults)?;
        for (name, value) in self.param_items()? {
            config
                .set(name, value)
                .map_err(|e| format!("--param {name}={value}: {e}"))?;
        }
        Ok(config)
    }

    /// `defaults` with the named options set on it (not `--param`).
    pub fn options(&self, defaults: EngineConfig) -> Result<EngineConfig, String> {
        let mut config = defaults;
        let options = [
            ("threads", &self.threads),
            ("visits", &self.visits),
            ("time", &self.time),
            ("memory", &self.memory),
            ("seed", &self.seed),
            ("policy", &self.policy),
            ("exploration", &self.exploration),
        ];
        for (name, value) in options {
            if let Some(value) = value {
                config.set(name, value).map_err(|e| format!("--{e}"))?;
            }
        }
        Ok(config)
    }

    /// Each `--param` as its name and value.
    pub fn param_items(&self) -> Result<Vec<(&str, &str)>, String> {
        self.params
            .iter()
            .map(|item| {
                item.split_once('=')
                    .ok_or_else(|| format!("--param '{item}' is not NAME=VALUE"))
            })
            .collect()
    }

    /// Whether any option was given.
    pub fn any_given(&self) -> bool {
        self.threads.is_some()
            || self.visits.is_some()
            || self.time.is_some()
            || self.memory.is_some()
            || self.seed.is_some()
            || self.policy.is_some()
            || self.exploration.is_some()
            || !self.params.is_empty()
    }
}

impl GameArgs {
    /// The chosen game; `--game` is required.
    pub fn spec(&self) -> Result<GameSpec, String> {
        let kind = self
            .game
            .ok_or_else(|| format!("--game is required ({})", game_names()))?;
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

/// The games' names as `--game` takes them: "xodd, yodd, odd or onyx".
fn game_names() -> String {
    let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

pub fn parse_game_kind(text: &str) -> Result<GameKind, String> {
    text.parse::<GameKind>().map_err(|e| e.to_string())
}

/// The command line as typed, with the program named `oddity`: what a
/// file made by a command keeps as the command that made it.
pub fn typed_command() -> String {
    let mut words: Vec<String> = std::env::args().skip(1).collect();
    words.insert(0, "oddity".into());
    words.join(" ")
}

/// This process's command line, quoted as a shell reads it: what results
/// files keep as the command that played each game.
pub fn command_line() -> String {
    let args: Vec<String> = std::env::args().collect();
    shlex::try_join(args.iter().map(String::as_str)).unwrap_or_else(|_| args.join(" "))
}
