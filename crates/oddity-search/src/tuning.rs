//! Tuning constants and knowledge switches of [`crate::Policy::Default`],
//! settable by name at run time (`--param name=value`, `oddity-param name
//! value`) so that matches can tune and ablate without rebuilding.
//!
//! Every field is `None` until set: the per-game default applies
//! ([`Tuning::resolve`] gives the settings in force). [`crate::Policy::Plain`]
//! ignores all of them (it is the fixed yardstick); the exploration
//! constant, a separate parameter, applies to both policies.

use std::fmt;

use oddity_patterns::{BoardNet, BoardNetFile, NetFile, ValueNet, Weights, WeightsFile};
use oddity_rules::{Game, GameKind};

use crate::knowledge::{self, EXPAND_DIVISOR, Resolved};
use crate::policy::Policy;

/// Overrides of the default policy's settings; `None` = the game's default.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tuning {
    /// AMAF statistics keyed by (cell, stone colour) blended into selection.
    pub rave: Option<bool>,
    /// RAVE equivalence: the visits at which a child's own win rate and its
    /// AMAF rate weigh the same.
    pub rave_equiv: Option<f32>,
    /// AMAF statistics are kept for the children of the first this many
    /// nodes of each iteration's path (the root is the first).
    pub rave_depth: Option<u32>,
    /// GRAVE: a node with fewer visits than this takes its children's AMAF
    /// statistics from the nearest node above it with at least this many
    /// visits and the same side to move; 0: off (each child's own).
    pub grave: Option<u32>,
    /// Onyx with RAVE: the swap is judged by its parent's win rate for the
    /// first player until its own visits count.
    pub swap_mirror: Option<bool>,
    /// Priors from game knowledge (move ordering and progressive bias).
    pub priors: Option<bool>,
    /// Progressive-bias weight, in playouts won by a child with prior 1.
    pub prior_weight: Option<f32>,
    /// Priors from the learned pattern weights built into the program
    /// (Xodd, Yodd, Odd) instead of the hand-written ones.
    pub patterns: Option<bool>,
    /// The weights the patterns use, read from a file, instead of those
    /// built into the program (for the file's game only).
    pub weights: Option<WeightsFile>,
    /// The per-game playout policy instead of uniformly random playouts.
    pub playouts: Option<bool>,
    /// Xodd/Yodd playouts draw every stone by the learned pattern weights
    /// (a softmax policy) instead of the per-game playout policy.
    pub pattern_playouts: Option<bool>,
    /// The pattern playouts raise each gamma to `1 / pattern_temperature`.
    pub pattern_temperature: Option<f32>,
    /// Onyx playouts: percent of moves that answer a capture pattern next
    /// to the last stone (0: none).
    pub replies: Option<u32>,
    /// Onyx playout replies also answer cuts of two-point bridges.
    pub bridges: Option<bool>,
    /// Onyx priors: the weight (0..=1) of the connection race; 0: off.
    pub race: Option<f32>,
    /// Onyx priors: the prior (0..=1) of a capture point off the race; 1:
    /// as any capture point.
    pub capture_grade: Option<f32>,
    /// Onyx priors: prior 1 for the points that block a one-stone
    /// connection of the opponent.
    pub race_block: Option<bool>,
    /// Odd playouts play their last this many cells perfectly.
    pub exact_ending: Option<u32>,
    /// A leaf with `k` siblings is expanded after `k / expand` visits.
    pub expand: Option<u32>,
    /// Playouts from each leaf an iteration reaches (each counts as a visit).
    pub leaf_playouts: Option<u32>,
    /// Before searching a position with at most `endgame_empty` empty
    /// points, try the exact solver.
    pub endgame: Option<bool>,
    /// The share of a search's time (or visits) the solver may take.
    pub endgame_share: Option<f32>,
    /// The most empty points for which the solver is tried.
    pub endgame_empty: Option<u32>,
    /// The most empty points for which the solver values every position
    /// that can follow instead of searching (retrograde analysis; Xodd,
    /// Yodd and Odd, where the empty points and the groups next to them are
    /// at most 64).
    pub endgame_table: Option<u32>,
    /// Leaves of the tree with at most this many empty points are valued
    /// exactly by a table (Odd); 0: none.
    pub tree_solve: Option<u32>,
    /// The tree keeps one move on Odd's settled cells instead of all.
    pub settled_moves: Option<bool>,
    /// Odd leaves whose empty cells are all settled are proven.
    pub settled_leaves: Option<bool>,
    /// The share of a leaf's value taken from the value network instead of
    /// its playout (0: off), where a network fits the game.
    pub value_net: Option<f32>,
    /// The network values only leaves with at most this many empty points
    /// (unset: every leaf).
    pub value_net_empty: Option<u32>,
    /// The value network, read from a file.
    pub net: Option<NetFile>,
    /// A board network whose policy gives the priors of the root's
    /// children and of every node's children once the node has
    /// `board_net_visits` visits.
    pub board_net: Option<BoardNetFile>,
    /// The visits at which a node's children take the board network's
    /// priors.
    pub board_net_visits: Option<u32>,
    /// Whether the board network's policy gives the priors (on unless
    /// set off: off uses the network for its value alone).
    pub board_net_priors: Option<bool>,
    /// The board network's share of a child's prior, the rest the game's
    /// own (1, unless set: the network's alone).
    pub board_net_mix: Option<f32>,
    /// The visits the board network's value counts for at each node it
    /// evaluates (0, unless set: none).
    pub board_net_value: Option<u32>,
}

/// A board network in the tree: evaluated at the root when it is
/// expanded, and at any other node once its visits reach `visits`, so
/// that it is evaluated only on the lines the search takes. Its policy
/// gives the node's children their priors (where `priors`); its value
/// counts at the node as `value_visits` visits of that result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardNetUse {
    /// The network, read for the game searched.
    pub net: &'static BoardNet,
    /// The visits at which a node is evaluated.
    pub visits: u32,
    /// Whether its policy gives the priors.
    pub priors: bool,
    /// The policy's share of a child's prior; the rest is the prior the
    /// game's own knowledge gives it (0 where it gives none).
    pub mix: f32,
    /// The visits its value counts for (0: the value is not used).
    pub value_visits: u32,
}

impl BoardNetUse {
    /// A child's prior from the policy's `net` and the game's `own`.
    pub fn mixed(&self, net: f32, own: f32) -> f32 {
        self.mix * net + (1.0 - self.mix) * own
    }
}

/// The visits at which a node's children take the board network's priors
/// when `board_net_visits` is unset.
pub const BOARD_NET_VISITS: u32 = 256;

/// A value network and how the search mixes it into its leaves' values:
/// `share` of the playouts of each leaf with at most `most_empty` empty
/// points is not played, and the network's chance of a win is counted for
/// them instead, so the expected result is `(1 - share) * playouts +
/// share * network`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeafNet {
    /// The network, read for the game searched.
    pub net: &'static ValueNet,
    /// The share of a leaf's playouts it replaces (above 0).
    pub share: f32,
    /// The most empty points of a leaf it values.
    pub most_empty: u32,
}

/// The names [`Tuning::set`] accepts, in listing order.
pub const NAMES: [&str; 35] = [
    "rave",
    "rave_equiv",
    "rave_depth",
    "grave",
    "swap_mirror",
    "priors",
    "prior_weight",
    "patterns",
    "weights",
    "playouts",
    "pattern_playouts",
    "pattern_temperature",
    "replies",
    "bridges",
    "race",
    "capture_grade",
    "race_block",
    "exact_ending",
    "expand",
    "leaf_playouts",
    "endgame",
    "endgame_share",
    "endgame_empty",
    "endgame_table",
    "tree_solve",
    "settled_moves",
    "settled_leaves",
    "value_net",
    "value_net_empty",
    "net",
    "board_net",
    "board_net_visits",
    "board_net_priors",
    "board_net_mix",
    "board_net_value",
];

/// Why a tuning parameter was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TuningError {
    /// No parameter has this name.
    UnknownName,
    /// The parameter does not take this value.
    BadValue,
    /// A weights or network file that cannot be read, and why.
    Weights(String),
}

impl fmt::Display for TuningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TuningError::UnknownName => "unknown parameter",
            TuningError::BadValue => "syntax error",
            TuningError::Weights(why) => why,
        })
    }
}

fn parse_switch(value: &str) -> Result<Option<bool>, TuningError> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" => Ok(Some(true)),
        "off" | "false" | "0" => Ok(Some(false)),
        "auto" | "default" => Ok(None),
        _ => Err(TuningError::BadValue),
    }
}

/// A finite number in `lo..=hi`, or `auto`/`default` for `None`.
fn parse_number(value: &str, lo: f32, hi: f32) -> Result<Option<f32>, TuningError> {
    if matches!(value.to_ascii_lowercase().as_str(), "auto" | "default") {
        return Ok(None);
    }
    match value.parse::<f32>() {
        Ok(x) if x.is_finite() && (lo..=hi).contains(&x) => Ok(Some(x)),
        _ => Err(TuningError::BadValue),
    }
}

fn show<T: fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "auto".to_string(), |x| x.to_string())
}

fn show_switch(v: Option<bool>) -> String {
    v.map_or_else(
        || "auto".to_string(),
        |on| if on { "on" } else { "off" }.to_string(),
    )
}

impl Tuning {
    /// Sets one parameter by name; on error nothing changes.
    /// Switches take `on`/`off`, numbers a value; `auto` restores the
    /// game's default.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), TuningError> {
        match name {
            "rave" => self.rave = parse_switch(value)?,
            "rave_equiv" => self.rave_equiv = parse_number(value, 1.0, 1e9)?,
            "rave_depth" => {
                self.rave_depth = parse_number(value, 1.0, 1e6)?.map(|x| x.round() as u32);
            }
            "grave" => self.grave = parse_number(value, 0.0, 1e9)?.map(|x| x.round() as u32),
            "swap_mirror" => self.swap_mirror = parse_switch(value)?,
            "priors" => self.priors = parse_switch(value)?,
            "prior_weight" => self.prior_weight = parse_number(value, 0.0, 1e6)?,
            "patterns" => self.patterns = parse_switch(value)?,
            "weights" => {
                self.weights = match value.to_ascii_lowercase().as_str() {
                    "auto" | "default" | "builtin" => None,
                    _ => Some(WeightsFile::load(value).map_err(TuningError::Weights)?),
                }
            }
            "playouts" => self.playouts = parse_switch(value)?,
            "pattern_playouts" => self.pattern_playouts = parse_switch(value)?,
            "pattern_temperature" => {
                self.pattern_temperature = parse_number(value, 0.01, 100.0)?;
            }
            "replies" => {
                self.replies = parse_number(value, 0.0, 100.0)?.map(|x| x.round() as u32);
            }
            "bridges" => self.bridges = parse_switch(value)?,
            "race" => self.race = parse_number(value, 0.0, 1.0)?,
            "capture_grade" => self.capture_grade = parse_number(value, 0.0, 1.0)?,
            "race_block" => self.race_block = parse_switch(value)?,
            "exact_ending" => {
                let most = oddity_rules::MAX_EXACT_ENDING as f32;
                self.exact_ending = parse_number(value, 0.0, most)?.map(|x| x.round() as u32);
            }
            "expand" => {
                self.expand = parse_number(value, 1.0, 1024.0)?.map(|x| x.round() as u32);
            }
            "leaf_playouts" => {
                self.leaf_playouts = parse_number(value, 1.0, 64.0)?.map(|x| x.round() as u32);
            }
            "endgame" => self.endgame = parse_switch(value)?,
            "endgame_share" => self.endgame_share = parse_number(value, 0.0, 1.0)?,
            "endgame_empty" => {
                self.endgame_empty = parse_number(value, 0.0, 4096.0)?.map(|x| x.round() as u32);
            }
            "endgame_table" => {
                let most = oddity_solver::retrograde::MAX_EMPTY as f32;
                self.endgame_table = parse_number(value, 0.0, most)?.map(|x| x.round() as u32);
            }
            "tree_solve" => {
                self.tree_solve = parse_number(value, 0.0, 16.0)?.map(|x| x.round() as u32);
            }
            "settled_moves" => self.settled_moves = parse_switch(value)?,
            "settled_leaves" => self.settled_leaves = parse_switch(value)?,
            "value_net" => self.value_net = parse_number(value, 0.0, 1.0)?,
            "value_net_empty" => {
                self.value_net_empty = parse_number(value, 0.0, 1000.0)?.map(|x| x.round() as u32);
            }
            "net" => {
                self.net = match value.to_ascii_lowercase().as_str() {
                    "auto" | "default" | "none" => None,
                    _ => Some(NetFile::load(value).map_err(TuningError::Weights)?),
                }
            }
            "board_net" => {
                self.board_net = match value.to_ascii_lowercase().as_str() {
                    "auto" | "default" | "none" => None,
                    _ => Some(BoardNetFile::load(value).map_err(TuningError::Weights)?),
                }
            }
            "board_net_visits" => {
                self.board_net_visits = parse_number(value, 1.0, 1e9)?.map(|x| x.round() as u32);
            }
            "board_net_priors" => self.board_net_priors = parse_switch(value)?,
            "board_net_mix" => self.board_net_mix = parse_number(value, 0.0, 1.0)?,
            "board_net_value" => {
                self.board_net_value = parse_number(value, 0.0, 1e6)?.map(|x| x.round() as u32);
            }
            _ => return Err(TuningError::UnknownName),
        }
        Ok(())
    }

    /// The value of parameter `name` as text (`auto` when unset).
    pub fn get(&self, name: &str) -> Option<String> {
        Some(match name {
            "rave" => show_switch(self.rave),
            "rave_equiv" => show(self.rave_equiv),
            "rave_depth" => show(self.rave_depth),
            "grave" => show(self.grave),
            "swap_mirror" => show_switch(self.swap_mirror),
            "priors" => show_switch(self.priors),
            "prior_weight" => show(self.prior_weight),
            "patterns" => show_switch(self.patterns),
            "weights" => self
                .weights
                .map_or_else(|| "builtin".to_string(), |f| f.path.to_string()),
            "playouts" => show_switch(self.playouts),
            "pattern_playouts" => show_switch(self.pattern_playouts),
            "pattern_temperature" => show(self.pattern_temperature),
            "replies" => show(self.replies),
            "bridges" => show_switch(self.bridges),
            "race" => show(self.race),
            "capture_grade" => show(self.capture_grade),
            "race_block" => show_switch(self.race_block),
            "exact_ending" => show(self.exact_ending),
            "expand" => show(self.expand),
            "leaf_playouts" => show(self.leaf_playouts),
            "endgame" => show_switch(self.endgame),
            "endgame_share" => show(self.endgame_share),
            "endgame_empty" => show(self.endgame_empty),
            "endgame_table" => show(self.endgame_table),
            "tree_solve" => show(self.tree_solve),
            "settled_moves" => show_switch(self.settled_moves),
            "settled_leaves" => show_switch(self.settled_leaves),
            "value_net" => show(self.value_net),
            "value_net_empty" => show(self.value_net_empty),
            "net" => self
                .net
                .map_or_else(|| "none".to_string(), |f| f.path.to_string()),
            "board_net" => self
                .board_net
                .map_or_else(|| "none".to_string(), |f| f.path.to_string()),
            "board_net_visits" => show(self.board_net_visits),
            "board_net_priors" => show_switch(self.board_net_priors),
            "board_net_mix" => show(self.board_net_mix),
            "board_net_value" => show(self.board_net_value),
            _ => return None,
        })
    }

    /// The weights the patterns use in `kind`: the file's when it was made
    /// for that game, else the built-in ones (`None` without patterns).
    pub fn weights_for(&self, kind: GameKind) -> Option<&'static Weights> {
        let builtin = Weights::builtin(kind)?;
        Some(match self.weights {
            Some(f) if f.weights.game == kind && f.weights.ring == builtin.ring => f.weights,
            _ => builtin,
        })
    }

    /// The value network as `game`'s search under `policy` uses it:
    /// `None` when `value_net` is 0 or unset, the policy is plain, or no
    /// network was read for this game, size and rules (the leaves are then
    /// valued by their playouts alone).
    pub fn value_net_for<G: Game>(&self, game: &G, policy: Policy) -> Option<LeafNet> {
        let share = self.value_net.filter(|&x| x > 0.0)?;
        let net = self.net.map(|f| f.net).filter(|n| n.fits(game))?;
        (policy == Policy::Default).then_some(LeafNet {
            net,
            share,
            most_empty: self.value_net_empty.unwrap_or(u32::MAX),
        })
    }

    /// The board network as `game`'s search under `policy` uses it:
    /// `None` when no network was read for this game, size and rules, the
    /// policy is plain, or neither its priors nor its value are used.
    pub fn board_net_for<G: Game>(&self, game: &G, policy: Policy) -> Option<BoardNetUse> {
        let net = self.board_net.map(|f| f.net).filter(|n| n.fits(game))?;
        let used = BoardNetUse {
            net,
            visits: self.board_net_visits.unwrap_or(BOARD_NET_VISITS),
            priors: self.board_net_priors.unwrap_or(true),
            mix: self.board_net_mix.unwrap_or(1.0),
            value_visits: self.board_net_value.unwrap_or(0),
        };
        (policy == Policy::Default && (used.priors || used.value_visits > 0)).then_some(used)
    }

    /// The settings for `kind` under `policy` (plain: no knowledge at all).
    pub fn resolve(&self, kind: GameKind, policy: Policy) -> Resolved {
        let d = knowledge::defaults(kind);
        let patterns = self.patterns.unwrap_or(d.patterns) && Weights::builtin(kind).is_some();
        // Every game with built-in weights has a pattern playout policy.
        let pattern_playouts =
            self.pattern_playouts.unwrap_or(d.pattern_playouts) && Weights::builtin(kind).is_some();
        match policy {
            Policy::Plain => Resolved {
                rave: false,
                swap_mirror: false,
                priors: false,
                patterns: false,
                playouts: false,
                pattern_playouts: false,
                expand: EXPAND_DIVISOR,
                leaf_playouts: 1,
                endgame: false,
                tree_solve: 0,
                exact_ending: 0,
                settled_moves: false,
                settled_leaves: false,
                ..d
            },
            Policy::Default => Resolved {
                rave: self.rave.unwrap_or(d.rave),
                rave_equiv: self.rave_equiv.unwrap_or(d.rave_equiv),
                rave_depth: self.rave_depth.unwrap_or(d.rave_depth),
                grave: self.grave.unwrap_or(d.grave),
                swap_mirror: self.swap_mirror.unwrap_or(d.swap_mirror),
                // The learned priors go through the same hook.
                priors: patterns || self.priors.unwrap_or(d.priors) && knowledge::has_priors(kind),
                patterns,
                prior_weight: self.prior_weight.unwrap_or(d.prior_weight),
                playouts: self.playouts.unwrap_or(d.playouts),
                pattern_playouts,
                pattern_temperature: self.pattern_temperature.unwrap_or(d.pattern_temperature),
                replies: self.replies.unwrap_or(d.replies),
                bridges: self.bridges.unwrap_or(d.bridges),
                race: self.race.unwrap_or(d.race),
                capture_grade: self.capture_grade.unwrap_or(d.capture_grade),
                race_block: self.race_block.unwrap_or(d.race_block),
                exact_ending: self.exact_ending.unwrap_or(d.exact_ending),
                expand: self.expand.unwrap_or(d.expand),
                leaf_playouts: self.leaf_playouts.unwrap_or(d.leaf_playouts),
                endgame: self.endgame.unwrap_or(d.endgame),
                endgame_share: self.endgame_share.unwrap_or(d.endgame_share),
                endgame_empty: self.endgame_empty.unwrap_or(d.endgame_empty),
                endgame_table: self.endgame_table.unwrap_or(d.endgame_table),
                tree_solve: self.tree_solve.unwrap_or(d.tree_solve),
                settled_moves: self.settled_moves.unwrap_or(d.settled_moves),
                settled_leaves: self.settled_leaves.unwrap_or(d.settled_leaves),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_and_reset() {
        let mut t = Tuning::default();
        t.set("rave", "off").unwrap();
        t.set("rave_equiv", "500").unwrap();
        assert_eq!(t.get("rave").unwrap(), "off");
        assert_eq!(t.get("rave_equiv").unwrap(), "500");
        t.set("grave", "400").unwrap();
        assert_eq!(t.get("grave").unwrap(), "400");
        assert_eq!(t.resolve(GameKind::Odd, Policy::Default).grave, 400);
        assert_eq!(t.resolve(GameKind::Odd, Policy::Plain).grave, 0);
        assert_eq!(t.set("grave", "-1"), Err(TuningError::BadValue));
        t.set("grave", "auto").unwrap();
        assert_eq!(t.resolve(GameKind::Onyx, Policy::Default).grave, 0);
        t.set("rave", "auto").unwrap();
        assert_eq!(t.get("rave").unwrap(), "auto");
        assert!(t.get("nonsense").is_none());
    }

    #[test]
    fn bad_input_changes_nothing() {
        let mut t = Tuning::default();
        t.set("expand", "8").unwrap();
        let before = t;
        assert_eq!(t.set("expand", "0"), Err(TuningError::BadValue));
        assert_eq!(t.set("rave", "maybe"), Err(TuningError::BadValue));
        assert_eq!(t.set("rave_equiv", "nan"), Err(TuningError::BadValue));
        assert_eq!(t.set("bogus", "1"), Err(TuningError::UnknownName));
        let missing = t.set("weights", "/nonexistent/odd.txt").unwrap_err();
        assert!(
            missing
                .to_string()
                .contains("cannot read /nonexistent/odd.txt")
        );
        assert_eq!(t, before);
        for name in NAMES {
            assert!(t.get(name).is_some(), "{name} has no value");
        }
    }

    #[test]
    fn patterns_give_the_priors_where_weights_exist() {
        let auto = Tuning::default();
        for kind in [GameKind::Xodd, GameKind::Yodd] {
            let r = auto.resolve(kind, Policy::Default);
            assert!(r.patterns && r.priors);
        }
        assert!(!auto.resolve(GameKind::Odd, Policy::Default).patterns);
        let on = Tuning {
            patterns: Some(true),
            ..Tuning::default()
        };
        let odd = on.resolve(GameKind::Odd, Policy::Default);
        assert!(odd.patterns && odd.priors);
        // Onyx: off by default, on when asked.
        assert!(!auto.resolve(GameKind::Onyx, Policy::Default).patterns);
        let onyx = on.resolve(GameKind::Onyx, Policy::Default);
        assert!(onyx.patterns && onyx.priors);
        let off = Tuning {
            patterns: Some(false),
            ..Tuning::default()
        };
        assert!(!off.resolve(GameKind::Xodd, Policy::Default).priors);
    }

    #[test]
    fn pattern_playouts_are_off_by_default_and_only_in_games_with_weights() {
        for kind in GameKind::ALL {
            assert!(
                !Tuning::default()
                    .resolve(kind, Policy::Default)
                    .pattern_playouts
            );
        }
        let mut on = Tuning::default();
        on.set("pattern_playouts", "on").unwrap();
        on.set("pattern_temperature", "2").unwrap();
        for kind in GameKind::ALL {
            let r = on.resolve(kind, Policy::Default);
            assert_eq!(
                r.pattern_playouts,
                Weights::builtin(kind).is_some(),
                "{kind}"
            );
            assert_eq!(r.pattern_temperature, 2.0);
            assert!(!on.resolve(kind, Policy::Plain).pattern_playouts);
        }
        assert_eq!(
            on.set("pattern_temperature", "0"),
            Err(TuningError::BadValue)
        );
    }

    #[test]
    fn the_board_net_applies_only_where_it_fits() {
        use oddity_rules::{GameSpec, OddGame, Rules};
        let spec = |size| GameSpec::new(GameKind::Odd, size, Rules::default()).unwrap();
        let odd3 = OddGame::<1>::new(&spec(3));
        let odd4 = OddGame::<1>::new(&spec(4));
        let net = BoardNet::random(
            GameKind::Odd,
            3,
            &spec(3).rules_text(),
            odd3.topology().cell_count(),
            4,
            2,
            &mut oddity_rules::Rng::seeded(1),
        );
        let dir = std::env::temp_dir().join(format!("oddity-tuning-board-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("odd3.txt");
        std::fs::write(&path, net.to_text(&[])).unwrap();
        let mut t = Tuning::default();
        assert!(t.board_net_for(&odd3, Policy::Default).is_none());
        assert_eq!(t.get("board_net").unwrap(), "none");
        t.set("board_net", path.to_str().unwrap()).unwrap();
        assert_eq!(t.get("board_net").unwrap(), path.to_str().unwrap());
        let used = t.board_net_for(&odd3, Policy::Default).unwrap();
        assert_eq!((used.net, used.visits), (&net, BOARD_NET_VISITS));
        t.set("board_net_visits", "40").unwrap();
        assert_eq!(t.board_net_for(&odd3, Policy::Default).unwrap().visits, 40);
        assert_eq!(t.set("board_net_visits", "0"), Err(TuningError::BadValue));
        assert!(t.board_net_for(&odd4, Policy::Default).is_none());
        assert!(t.board_net_for(&odd3, Policy::Plain).is_none());
        // Priors and value each by their switch; neither: not used.
        assert!((used.priors, used.value_visits, used.mix) == (true, 0, 1.0));
        t.set("board_net_mix", "0.25").unwrap();
        let mixed = t.board_net_for(&odd3, Policy::Default).unwrap();
        assert_eq!((mixed.mix, mixed.mixed(1.0, 0.5)), (0.25, 0.625));
        assert_eq!(t.get("board_net_mix").unwrap(), "0.25");
        assert_eq!(t.set("board_net_mix", "1.5"), Err(TuningError::BadValue));
        t.set("board_net_mix", "auto").unwrap();
        t.set("board_net_value", "32").unwrap();
        t.set("board_net_priors", "off").unwrap();
        let value_only = t.board_net_for(&odd3, Policy::Default).unwrap();
        assert_eq!((value_only.priors, value_only.value_visits), (false, 32));
        assert_eq!(t.get("board_net_value").unwrap(), "32");
        assert_eq!(t.set("board_net_value", "-1"), Err(TuningError::BadValue));
        t.set("board_net_value", "0").unwrap();
        assert!(t.board_net_for(&odd3, Policy::Default).is_none());
        t.set("board_net_priors", "on").unwrap();
        // A corrupt file is refused with its line, and nothing changes.
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "oddity-board-net 1\ngame odd\nsize x\n").unwrap();
        let e = t.set("board_net", bad.to_str().unwrap()).unwrap_err();
        assert!(e.to_string().contains("board net file, line 3"), "{e}");
        assert_eq!(t.get("board_net").unwrap(), path.to_str().unwrap());
        t.set("board_net", "none").unwrap();
        assert!(t.board_net_for(&odd3, Policy::Default).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_value_net_applies_only_where_it_fits() {
        use oddity_rules::{GameSpec, OddGame, Rules};
        let spec = |size| GameSpec::new(GameKind::Odd, size, Rules::default()).unwrap();
        let odd3 = OddGame::<1>::new(&spec(3));
        let odd4 = OddGame::<1>::new(&spec(4));
        let net = ValueNet::random(
            GameKind::Odd,
            3,
            &spec(3).rules_text(),
            oddity_patterns::cell_slots(odd3.topology()),
            4,
            &mut oddity_rules::Rng::seeded(1),
        );
        let dir = std::env::temp_dir().join(format!("oddity-tuning-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("odd3.txt");
        std::fs::write(&path, net.to_text(&[])).unwrap();
        let mut t = Tuning::default();
        assert!(t.value_net_for(&odd3, Policy::Default).is_none());
        t.set("value_net", "0.5").unwrap();
        // No network read: the playouts alone.
        assert!(t.value_net_for(&odd3, Policy::Default).is_none());
        t.set("net", path.to_str().unwrap()).unwrap();
        assert_eq!(t.get("net").unwrap(), path.to_str().unwrap());
        let used = t.value_net_for(&odd3, Policy::Default).unwrap();
        assert_eq!(
            (used.net, used.share, used.most_empty),
            (&net, 0.5, u32::MAX)
        );
        t.set("value_net_empty", "12").unwrap();
        assert_eq!(
            t.value_net_for(&odd3, Policy::Default).unwrap().most_empty,
            12
        );
        assert_eq!(t.set("value_net_empty", "-1"), Err(TuningError::BadValue));
        assert!(t.value_net_for(&odd4, Policy::Default).is_none());
        assert!(t.value_net_for(&odd3, Policy::Plain).is_none());
        t.set("value_net", "0").unwrap();
        assert!(t.value_net_for(&odd3, Policy::Default).is_none());
        let before = t;
        assert_eq!(t.set("value_net", "1.5"), Err(TuningError::BadValue));
        std::fs::write(&path, "oddity-value-net 1\ngame odd\n").unwrap();
        let e = t
            .set("net", path.to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("odd3.txt: value net file, line 3"), "{e}");
        assert_eq!(t, before);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn plain_ignores_knowledge() {
        let t = Tuning {
            rave: Some(true),
            priors: Some(true),
            playouts: Some(true),
            ..Tuning::default()
        };
        for kind in [
            GameKind::Odd,
            GameKind::Xodd,
            GameKind::Yodd,
            GameKind::Onyx,
        ] {
            let r = t.resolve(kind, Policy::Plain);
            assert!(!r.rave && !r.priors && !r.playouts);
            assert!(t.resolve(kind, Policy::Default).rave);
        }
    }
}
