//! Colours, actions and turns, and the move tokens of `docs/rules.md` section 5.
//!
//! A *turn* is what a player does in one go and what a token names. An
//! *action* is one atomic step of a turn: a turn of Xodd or Yodd with two
//! stones is two actions (lower cell index first), a single stone is the stone
//! followed by [`Action::END_TURN`]; in Odd and Onyx every turn is one action.

use std::fmt;

use crate::kind::GameKind;
use crate::quote::{Escaped, quoted};
use crate::topology::{Cell, Topology};

/// A stone colour, and the seat that owns it: `b` (Black, the first player)
/// and `w` (White, the second player).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Colour {
    /// The first player's seat and stones (`b`, `B`).
    Black = 0,
    /// The second player's seat and stones (`w`, `W`).
    White = 1,
}

impl Colour {
    /// Both colours, Black first.
    pub const BOTH: [Colour; 2] = [Colour::Black, Colour::White];

    #[inline(always)]
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    #[inline(always)]
    /// 0 for Black, 1 for White: the index of per-colour arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Upper-case stone letter: `B` or `W`.
    pub fn letter(self) -> char {
        match self {
            Colour::Black => 'B',
            Colour::White => 'W',
        }
    }

    /// The GTP seat: `b` or `w`.
    pub fn seat(self) -> &'static str {
        match self {
            Colour::Black => "b",
            Colour::White => "w",
        }
    }

    /// The colour's name for people: `Black` or `White`.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Black => "Black",
            Colour::White => "White",
        }
    }

    /// Parses a seat or stone colour: `b`, `w`, `black`, `white`, any case.
    pub fn parse(text: &str) -> Option<Colour> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Colour::Black),
            "w" | "white" => Some(Colour::White),
            _ => None,
        }
    }
}

/// One atomic step of a turn, packed in 16 bits: a stone (cell index in bits
/// 0..12, colour in bit 12) or one of the special actions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action(u16);

impl Action {
    /// A pass (Xodd, Yodd).
    pub const PASS: Action = Action(0xFFFF);
    /// Ends an Xodd/Yodd turn after its first stone.
    pub const END_TURN: Action = Action(0xFFFE);
    /// Onyx: White's swap as its first move.
    pub const SWAP: Action = Action(0xFFFD);

    #[inline(always)]
    /// A stone of `colour` on `cell`.
    pub fn stone(cell: Cell, colour: Colour) -> Action {
        debug_assert!(cell.0 < 1 << 12);
        Action(cell.0 | (colour as u16) << 12)
    }

    #[inline(always)]
    /// Whether the action places a stone (not a pass, end of turn or swap).
    pub fn is_stone(self) -> bool {
        self.0 < 1 << 13
    }

    /// The cell of a stone action (meaningless for special actions).
    #[inline(always)]
    pub fn cell(self) -> Cell {
        Cell(self.0 & 0xFFF)
    }

    #[inline(always)]
    /// The colour of a stone action's stone.
    pub fn colour(self) -> Colour {
        if self.0 & 1 << 12 == 0 {
            Colour::Black
        } else {
            Colour::White
        }
    }

    /// The packed form, for compact storage.
    pub fn bits(self) -> u16 {
        self.0
    }

    /// The action of [`Action::bits`].
    pub fn from_bits(bits: u16) -> Action {
        Action(bits)
    }
}

impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::PASS => write!(f, "Pass"),
            Action::END_TURN => write!(f, "EndTurn"),
            Action::SWAP => write!(f, "Swap"),
            a => write!(f, "{}@{}", a.colour().letter(), a.cell().0),
        }
    }
}

/// A placed stone.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Stone {
    /// Where it is.
    pub cell: Cell,
    /// Its colour.
    pub colour: Colour,
}

impl Stone {
    /// The action that places this stone.
    pub fn action(self) -> Action {
        Action::stone(self.cell, self.colour)
    }
}

/// A whole turn, as a token names it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Turn {
    /// No stone this turn (Xodd, Yodd).
    Pass,
    /// Onyx's pie rule: White takes Black's first stone (see `docs/rules.md`).
    Swap,
    /// The mover gives up the game.
    Resign,
    /// One stone, or two stones on different cells with the lower cell first.
    Stones(Stone, Option<Stone>),
}

impl Turn {
    /// A one- or two-stone turn in canonical order.
    pub fn stones(a: Stone, b: Option<Stone>) -> Turn {
        match b {
            Some(b) if b.cell < a.cell => Turn::Stones(b, Some(a)),
            _ => Turn::Stones(a, b),
        }
    }

    /// The canonical token of this turn in `game` on board `topo`.
    pub fn to_token(&self, game: GameKind, topo: &Topology) -> String {
        let stone = |s: &Stone| {
            if game == GameKind::Onyx {
                topo.name(s.cell).to_string()
            } else {
                format!("{}:{}", s.colour.letter(), topo.name(s.cell))
            }
        };
        match self {
            Turn::Pass => "pass".into(),
            Turn::Swap => "swap".into(),
            Turn::Resign => "resign".into(),
            Turn::Stones(a, None) => stone(a),
            Turn::Stones(a, Some(b)) => format!("{},{}", stone(a), stone(b)),
        }
    }

    /// Parses a token strictly (`docs/rules.md` section 5). `mover` is the seat
    /// that plays the turn: an Onyx stone takes its colour, and an explicit
    /// `B:`/`W:` on an Onyx point must match it.
    pub fn parse(
        token: &str,
        game: GameKind,
        topo: &Topology,
        mover: Colour,
    ) -> Result<Turn, TokenError> {
        let err = |kind| TokenError {
            token: token.to_string(),
            kind,
        };
        if token.is_empty() {
            return Err(err(TokenErrorKind::Empty));
        }
        if token.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(err(TokenErrorKind::TrailingText));
        }
        match token.to_ascii_lowercase().as_str() {
            "resign" => return Ok(Turn::Resign),
            "pass" => {
                return match game {
                    GameKind::Xodd | GameKind::Yodd => Ok(Turn::Pass),
                    _ => Err(err(TokenErrorKind::NotInThisGame("pass"))),
                };
            }
            "swap" => {
                return match game {
                    GameKind::Onyx => Ok(Turn::Swap),
                    _ => Err(err(TokenErrorKind::NotInThisGame("swap"))),
                };
            }
            _ => {}
        }
        let parts: Vec<&str> = token.split(',').collect();
        let max = if matches!(game, GameKind::Xodd | GameKind::Yodd) {
            2
        } else {
            1
        };
        if parts.len() > max {
            return Err(err(TokenErrorKind::TooManyStones(max)));
        }
        let mut stones = Vec::with_capacity(2);
        for part in parts {
            if part.is_empty() {
                return Err(err(TokenErrorKind::EmptyStone));
            }
            let (colour, cell_text) = match part.split_once(':') {
                Some((c, rest)) => {
                    let colour = match c {
                        "B" | "b" => Colour::Black,
                        "W" | "w" => Colour::White,
                        _ => return Err(err(TokenErrorKind::BadColour(c.to_string()))),
                    };
                    (Some(colour), rest)
                }
                None => (None, part),
            };
            let cell = topo
                .parse_cell(cell_text)
                .ok_or_else(|| err(TokenErrorKind::UnknownCell(cell_text.to_string())))?;
            let colour = match (game, colour) {
                (GameKind::Onyx, None) => mover,
                (GameKind::Onyx, Some(c)) if c != mover => {
                    return Err(err(TokenErrorKind::WrongColour));
                }
                (_, Some(c)) => c,
                (_, None) => {
                    return Err(err(TokenErrorKind::MissingColour(part.to_string())));
                }
            };
            if stones.iter().any(|s: &Stone| s.cell == cell) {
                return Err(err(TokenErrorKind::DuplicateCell(topo.name(cell).into())));
            }
            stones.push(Stone { cell, colour });
        }
        Ok(Turn::stones(stones[0], stones.get(1).copied()))
    }
}

/// Why a token could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenError {
    /// The token as read.
    pub token: String,
    /// What is wrong with it.
    pub kind: TokenErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
/// What is wrong with a token (see [`TokenError`]'s message for each).
pub enum TokenErrorKind {
    /// Nothing to read.
    Empty,
    /// Text after the token.
    TrailingText,
    /// A stone with nothing in it (a stray comma).
    EmptyStone,
    /// More stones than a turn of this game has (the most it has).
    TooManyStones(usize),
    /// A stone colour other than `B` or `W`.
    BadColour(String),
    /// A stone without the colour this game asks for.
    MissingColour(String),
    /// A stone whose colour is not the mover's (Onyx).
    WrongColour,
    /// A name that is not a point of this board.
    UnknownCell(String),
    /// Two stones on one cell.
    DuplicateCell(String),
    /// A special turn (`pass`, `swap`) this game does not have.
    NotInThisGame(&'static str),
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad move token {}: ", quoted(&self.token))?;
        match &self.kind {
            TokenErrorKind::Empty => write!(f, "empty"),
            TokenErrorKind::TrailingText => {
                let c = self
                    .token
                    .chars()
                    .find(|c| c.is_whitespace() || c.is_control())
                    .unwrap_or(' ');
                let what = match c {
                    ' ' => "a space".to_string(),
                    '\n' | '\r' => "a line break".to_string(),
                    '\t' => "a tab".to_string(),
                    c if c.is_control() => {
                        format!("the control character {}", quoted(&c.to_string()))
                    }
                    c => format!("the white space {}", quoted(&c.to_string())),
                };
                write!(f, "it holds {what}; a token is one word")
            }
            TokenErrorKind::EmptyStone => write!(f, "empty stone (stray comma?)"),
            TokenErrorKind::TooManyStones(1) => write!(f, "one stone per turn in this game"),
            TokenErrorKind::TooManyStones(n) => write!(f, "at most {n} stones per turn"),
            TokenErrorKind::BadColour(c) => {
                write!(f, "{} is not a stone colour (B or W)", quoted(c))
            }
            TokenErrorKind::MissingColour(s) => {
                write!(
                    f,
                    "stone {} needs a colour, like B:{}",
                    quoted(s),
                    Escaped(s)
                )
            }
            TokenErrorKind::WrongColour => write!(f, "the stone colour is not the mover's"),
            TokenErrorKind::UnknownCell(c) => {
                write!(f, "{} is not a point of this board", quoted(c))
            }
            TokenErrorKind::DuplicateCell(c) => write!(f, "two stones on {c}"),
            TokenErrorKind::NotInThisGame(what) => write!(f, "'{what}' is not a move in this game"),
        }
    }
}

impl std::error::Error for TokenError {}
