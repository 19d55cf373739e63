//! The four games by name, and the board each is played on.

use std::fmt;

use crate::rules::topology::BoardKind;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameKind {
    Xodd,
    Yodd,
    Odd,
    Onyx,
}

impl GameKind {
    pub const ALL: [GameKind; 4] = [
        GameKind::Xodd,
        GameKind::Yodd,
        GameKind::Odd,
        GameKind::Onyx,
    ];

    pub fn board(self) -> BoardKind {
        match self {
            GameKind::Xodd => BoardKind::Square,
            GameKind::Yodd | GameKind::Odd => BoardKind::HexHex,
            GameKind::Onyx => BoardKind::Onyx,
        }
    }

    pub fn default_size(self) -> usize {
        match self {
            GameKind::Xodd => 12,
            GameKind::Yodd => 8,
            GameKind::Odd => 5,
            GameKind::Onyx => 12,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            GameKind::Xodd => "xodd",
            GameKind::Yodd => "yodd",
            GameKind::Odd => "odd",
            GameKind::Onyx => "onyx",
        }
    }

    pub fn parse(text: &str) -> Option<GameKind> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.name().eq_ignore_ascii_case(text))
    }
}

/// A game name that is none of the four.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game '{0}' (xodd, yodd, odd, onyx)")]
pub struct UnknownGame(pub String);

impl std::str::FromStr for GameKind {
    type Err = UnknownGame;

    /// A game by name, in any letter case.
    fn from_str(text: &str) -> Result<GameKind, UnknownGame> {
        GameKind::parse(text).ok_or_else(|| UnknownGame(text.to_string()))
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
