//! The interface every game implements, game specs and rule options.

use std::fmt;

use crate::kind::GameKind;
use crate::moves::{Action, Colour, Stone, Turn};
use crate::random::Rng;
use crate::topology::{Cell, SizeError, Topology};

/// Variant options. Each applies to one game and is ignored by the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Odd: the smallest group that counts; `None` means the board side.
    pub min_group: Option<usize>,
    /// Onyx: start from the empty board. The standard start exists only when
    /// n is a multiple of 4; on other sizes the start is always open.
    pub open_start: bool,
    /// Onyx: White may `swap` as its first move.
    pub swap: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            min_group: None,
            open_start: false,
            swap: true,
        }
    }
}

/// Why a rule option could not be set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleError {
    /// No rule option has this name.
    UnknownRule,
    /// The option does not take this value.
    BadValue,
}

impl Rules {
    /// Sets one option by the protocol's name and value: `min_group N` (or
    /// `default`), `start standard|open`, `swap on|off`.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RuleError> {
        let value = value.to_ascii_lowercase();
        match (name, value.as_str()) {
            ("min_group", "default") => self.min_group = None,
            ("min_group", n) => match n.parse::<usize>() {
                Ok(m) if m >= 1 => self.min_group = Some(m),
                _ => return Err(RuleError::BadValue),
            },
            ("start", "standard") => self.open_start = false,
            ("start", "open") => self.open_start = true,
            ("swap", "on") => self.swap = true,
            ("swap", "off") => self.swap = false,
            ("start" | "swap", _) => return Err(RuleError::BadValue),
            _ => return Err(RuleError::UnknownRule),
        }
        Ok(())
    }
}

/// A game, a board size and rule options: everything that defines a start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// The game.
    pub kind: GameKind,
    /// The board size: the side of a square board (Xodd), the side of a
    /// hex-hex board (Yodd, Odd), or points per side (Onyx).
    pub size: usize,
    /// Rule options (each applies to one game).
    pub rules: Rules,
}

#[derive(Clone, Debug, PartialEq, Eq)]
/// Why a game spec is refused.
pub enum SpecError {
    /// The board size is out of the game's range.
    Size(SizeError),
    /// Odd: a smallest counting group of 0, or larger than the board.
    MinGroup {
        /// The smallest counting group asked for.
        min_group: usize,
        /// The cells of the board.
        cells: usize,
    },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Size(e) => e.fmt(f),
            SpecError::MinGroup { min_group, cells } => write!(
                f,
                "minimum group size {min_group} must be between 1 and {cells}, the cells of the board"
            ),
        }
    }
}

impl std::error::Error for SpecError {}

impl GameSpec {
    /// The spec of `kind` on a board of `size` with `rules`, or why there is
    /// none: a size out of range, or an Odd smallest group of 0 or larger than
    /// the board.
    pub fn new(kind: GameKind, size: usize, rules: Rules) -> Result<GameSpec, SpecError> {
        let topo = Topology::get(kind.board(), size).map_err(SpecError::Size)?;
        let cells = topo.cell_count();
        if let Some(min_group) = rules.min_group
            && (min_group == 0 || (kind == GameKind::Odd && min_group > cells))
        {
            return Err(SpecError::MinGroup { min_group, cells });
        }
        Ok(GameSpec { kind, size, rules })
    }

    /// As [`GameSpec::new`], at the game's standard size when `size` is
    /// `None`: the game a front end's options name.
    pub fn from_options(
        kind: GameKind,
        size: Option<usize>,
        rules: Rules,
    ) -> Result<GameSpec, SpecError> {
        GameSpec::new(kind, size.unwrap_or(kind.default_size()), rules)
    }

    /// The game at its standard size with the default rules.
    pub fn default_for(kind: GameKind) -> GameSpec {
        GameSpec {
            kind,
            size: kind.default_size(),
            rules: Rules::default(),
        }
    }

    /// The board of this spec.
    pub fn topology(&self) -> &'static Topology {
        Topology::get(self.kind.board(), self.size).expect("GameSpec::new checked the size")
    }

    /// Odd: the effective minimum group size.
    pub fn min_group(&self) -> usize {
        self.rules.min_group.unwrap_or(self.size)
    }

    /// The rule options that apply to this game, as `(name, value)` in the
    /// spelling of the protocol's `oddity-rules NAME VALUE`.
    pub fn rule_options(&self) -> Vec<(&'static str, String)> {
        match self.kind {
            GameKind::Odd => vec![("min_group", self.min_group().to_string())],
            GameKind::Onyx => vec![
                (
                    "start",
                    if self.standard_start() {
                        "standard"
                    } else {
                        "open"
                    }
                    .to_string(),
                ),
                (
                    "swap",
                    if self.rules.swap { "on" } else { "off" }.to_string(),
                ),
            ],
            GameKind::Xodd | GameKind::Yodd => Vec::new(),
        }
    }

    /// The rule options as `name=value` items joined by commas, e.g.
    /// `start=open,swap=on` (empty for Xodd and Yodd).
    pub fn rules_text(&self) -> String {
        let items: Vec<String> = self
            .rule_options()
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        items.join(",")
    }

    /// The game, size and rule options for people: `odd 3 (min_group=3)`,
    /// `xodd 12`.
    pub fn title(&self) -> String {
        match self.rules_text() {
            rules if rules.is_empty() => format!("{} {}", self.kind, self.size),
            rules => format!("{} {} ({rules})", self.kind, self.size),
        }
    }

    /// Onyx: whether the game starts from the standard position.
    pub fn standard_start(&self) -> bool {
        !self.rules.open_start && self.size.is_multiple_of(4)
    }
}

/// Why a turn cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game is over.
    GameOver,
    /// The cell already holds a stone.
    Occupied(Cell),
    /// Illegal for a rule-specific reason, described in words.
    Illegal(&'static str),
}

impl PlayError {
    /// The reason in words, with the cells named on `topo`.
    pub fn describe(&self, topo: &Topology) -> String {
        match self {
            PlayError::GameOver => "the game is over".into(),
            PlayError::Occupied(c) => format!("{} is not empty", topo.name(*c)),
            PlayError::Illegal(why) => (*why).into(),
        }
    }
}

/// Why a set-up position cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The spec itself is refused.
    Spec(SpecError),
    /// Two stones on one cell.
    Duplicate(Cell),
    /// A stone on a cell that is not a point of the board.
    Forbidden(Cell),
}

impl SetupError {
    /// The reason in words, with the cells named on `topo`.
    pub fn describe(&self, topo: &Topology) -> String {
        match self {
            SetupError::Spec(e) => e.to_string(),
            SetupError::Duplicate(c) => format!("two stones on {}", topo.name(*c)),
            SetupError::Forbidden(c) => {
                format!("cell {} is not a point of this board", c.0)
            }
        }
    }
}

/// What a position's future depends on besides its stones and the side to
/// move: the part of its history the rules remember. Two positions with the
/// same stones, side to move and turn state are the same position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TurnState {
    /// Facts that every symmetry of the board keeps. Xodd/Yodd: bit 0 is
    /// Black's restricted first turn, bit 1 a pass as the last turn. Onyx:
    /// bit 0 is Black's first stone still to come with the swap rule on.
    pub flags: u8,
    /// A point the rules remember. Xodd/Yodd: the first stone of the turn
    /// in progress (the second goes on a higher cell). Onyx: Black's first
    /// stone while White may swap it.
    pub anchor: Option<Cell>,
}

/// A game position with its rules. Implementations are plain data (cheap to
/// copy) that refer to shared, immutable board tables.
pub trait Game: Clone + Send + Sync + 'static {
    /// The start position of `spec`.
    fn new(spec: &GameSpec) -> Self;
    /// A position with the given stones and `to_move` to play, for analysis.
    /// It counts as a game in progress: no first-turn or swap privileges.
    fn from_setup(spec: &GameSpec, stones: &[Stone], to_move: Colour) -> Result<Self, SetupError>;

    /// The game, board size and rule options of this position.
    fn spec(&self) -> &GameSpec;
    /// The board.
    fn topology(&self) -> &'static Topology;
    /// The seat that takes the next action.
    fn to_move(&self) -> Colour;
    /// Gives the next turn to `seat` (GTP lets either seat play at any time).
    /// Only between turns.
    fn set_to_move(&mut self, seat: Colour);
    /// Xodd/Yodd: true after the first stone of a turn, before it ends.
    fn mid_turn(&self) -> bool {
        false
    }
    /// Whether the game has ended.
    fn is_over(&self) -> bool;
    /// The winner once the game is over.
    fn winner(&self) -> Option<Colour>;
    /// Legal actions of the current position, appended to `out`.
    fn legal_actions(&self, out: &mut Vec<Action>);
    /// Whether `action` is legal in the current position.
    fn is_legal(&self, action: Action) -> bool;
    /// Plays a legal action (checked in debug builds only).
    fn apply(&mut self, action: Action);
    /// Plays random legal turns to the end of the game; returns the winner.
    fn playout(&mut self, rng: &mut Rng) -> Colour;
    /// The colour of the stone on `cell`, if any.
    fn stone_at(&self, cell: Cell) -> Option<Colour>;
    /// The stones of one colour as bitboard words (bit `i` of the words is
    /// the cell with index `i`).
    fn stone_words(&self, colour: Colour) -> &[u64];
    /// See [`TurnState`]; the default is for games whose history never
    /// matters (Odd).
    fn turn_state(&self) -> TurnState {
        TurnState::default()
    }
    /// Groups per stone colour, as the game counts them (Odd: only groups of
    /// at least the minimum size).
    fn group_counts(&self) -> [u32; 2];
    /// How a stone action would change the group count of its colour, for
    /// games that count every group (Xodd, Yodd: `1 - k` for a stone next
    /// to `k` groups of its colour); `None` in the others or for a special
    /// action. `action` must be legal.
    fn group_change(&self, action: Action) -> Option<i32> {
        let _ = action;
        None
    }
    /// Onyx: the stones a stone of `colour` on the empty `cell` would
    /// capture (0, 2 or 4); 0 in the other games.
    fn captures(&self, cell: Cell, colour: Colour) -> u32 {
        let _ = (cell, colour);
        0
    }
    /// Recounts everything from scratch and compares with the incremental
    /// state; `Err` describes the first difference.
    fn check_consistency(&self) -> Result<(), Inconsistency>;
    /// Number of turns played so far.
    fn turns_played(&self) -> u32;

    /// Why `action` is illegal here, when it is.
    fn illegal_reason(&self, action: Action) -> Option<PlayError> {
        if self.is_over() {
            return Some(PlayError::GameOver);
        }
        if action.is_stone() && self.stone_at(action.cell()).is_some() {
            return Some(PlayError::Occupied(action.cell()));
        }
        (!self.is_legal(action)).then_some(PlayError::Illegal("not a legal move here"))
    }

    /// Plays a whole turn, or changes nothing and says why not.
    /// `Turn::Resign` is not a board move and is refused here.
    fn play_turn(&mut self, turn: &Turn) -> Result<(), PlayError> {
        let mut next = self.clone();
        next.play_turn_in_place(turn)?;
        *self = next;
        Ok(())
    }

    /// Plays a turn on `self`; on error `self` may be half-changed.
    #[doc(hidden)]
    fn play_turn_in_place(&mut self, turn: &Turn) -> Result<(), PlayError> {
        if self.mid_turn() {
            return Err(PlayError::Illegal("a turn is in progress"));
        }
        let step = |g: &mut Self, a: Action| match g.illegal_reason(a) {
            Some(e) => Err(e),
            None => {
                g.apply(a);
                Ok(())
            }
        };
        match turn {
            Turn::Resign => return Err(PlayError::Illegal("resign is not a board move")),
            Turn::Pass => step(self, Action::PASS)?,
            Turn::Swap => step(self, Action::SWAP)?,
            Turn::Stones(a, b) => {
                step(self, a.action())?;
                if let Some(b) = b {
                    if !self.mid_turn() {
                        return Err(PlayError::Illegal("only one stone may be placed this turn"));
                    }
                    step(self, b.action())?;
                } else if self.mid_turn() {
                    step(self, Action::END_TURN).map_err(|_| {
                        PlayError::Illegal("one stone here leaves an even number of groups")
                    })?;
                }
            }
        }
        debug_assert!(!self.mid_turn());
        Ok(())
    }

    /// All legal turns, each once, in canonical form.
    fn legal_turns(&self) -> Vec<Turn> {
        let mut turns = Vec::new();
        let mut firsts = Vec::new();
        self.legal_actions(&mut firsts);
        let mut seconds = Vec::new();
        for &a in &firsts {
            let mut next = self.clone();
            next.apply(a);
            if !next.mid_turn() {
                turns.push(turn_of(a, None));
                continue;
            }
            seconds.clear();
            next.legal_actions(&mut seconds);
            for &b in &seconds {
                if b == Action::END_TURN {
                    turns.push(turn_of(a, None));
                } else {
                    turns.push(turn_of(a, Some(b)));
                }
            }
        }
        turns
    }
}

/// A difference between a game's incremental state and a recount from
/// scratch ([`Game::check_consistency`]): a bug in the rules, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Inconsistency(pub String);

/// The turn made of one action, or of a first and a second stone.
pub fn turn_of(a: Action, b: Option<Action>) -> Turn {
    let stone = |x: Action| Stone {
        cell: x.cell(),
        colour: x.colour(),
    };
    match a {
        Action::PASS => Turn::Pass,
        Action::SWAP => Turn::Swap,
        _ => Turn::stones(stone(a), b.map(stone)),
    }
}

/// Number of 64-bit words a bitboard needs for a board of `bits` cells:
/// boards are grouped in three widths so each game is compiled three times.
pub fn width_for(bits: usize) -> usize {
    match bits {
        0..=128 => 2,
        129..=256 => 4,
        _ => 10,
    }
}
