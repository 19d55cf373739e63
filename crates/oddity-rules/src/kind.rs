//! The four games by name, and the board each is played on.

use std::fmt;

use crate::topology::BoardKind;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
/// Which of the four games: the root of each game's facts, asked by the
/// layers above instead of comparing kinds.
pub enum GameKind {
    /// Xodd: odd groups on the square board, fewer groups wins.
    Xodd,
    /// Yodd: Xodd's rules on the hex-hex board.
    Yodd,
    /// Odd: fill the hex-hex board; an odd number of large groups wins for
    /// Black.
    Odd,
    /// Onyx: connect one's edges, with square captures.
    Onyx,
}

impl GameKind {
    /// Every game, in the order the tools list them.
    pub const ALL: [GameKind; 4] = [
        GameKind::Xodd,
        GameKind::Yodd,
        GameKind::Odd,
        GameKind::Onyx,
    ];

    /// The board the game is played on.
    pub fn board(self) -> BoardKind {
        match self {
            GameKind::Xodd => BoardKind::Square,
            GameKind::Yodd | GameKind::Odd => BoardKind::HexHex,
            GameKind::Onyx => BoardKind::Onyx,
        }
    }

    /// The standard board size.
    pub fn default_size(self) -> usize {
        match self {
            GameKind::Xodd => 12,
            GameKind::Yodd => 8,
            GameKind::Odd => 5,
            GameKind::Onyx => 12,
        }
    }

    /// Whether the side to move chooses each stone's colour (Xodd, Yodd,
    /// Odd), so a stone's token names its colour; in Onyx a stone is always
    /// the mover's.
    pub fn colour_is_chosen(self) -> bool {
        match self {
            GameKind::Xodd | GameKind::Yodd | GameKind::Odd => true,
            GameKind::Onyx => false,
        }
    }

    /// Whether stones can leave the board (Onyx captures). Where none can,
    /// every turn adds stones, no position repeats, and every position that
    /// can follow another can be numbered over its empty cells.
    pub fn has_captures(self) -> bool {
        match self {
            GameKind::Xodd | GameKind::Yodd | GameKind::Odd => false,
            GameKind::Onyx => true,
        }
    }

    /// Whether the game counts only groups of at least a smallest size (Odd's
    /// `min_group`).
    pub fn has_min_group(self) -> bool {
        match self {
            GameKind::Odd => true,
            GameKind::Xodd | GameKind::Yodd | GameKind::Onyx => false,
        }
    }

    /// Whether a turn may place two stones (Xodd, Yodd); in Odd and Onyx a
    /// turn is one stone.
    pub fn has_two_stone_turns(self) -> bool {
        match self {
            GameKind::Xodd | GameKind::Yodd => true,
            GameKind::Odd | GameKind::Onyx => false,
        }
    }

    /// Whether a finished game is decided by counting groups (Xodd, Yodd,
    /// Odd); Onyx is decided by a connection.
    pub fn counts_groups(self) -> bool {
        match self {
            GameKind::Xodd | GameKind::Yodd | GameKind::Odd => true,
            GameKind::Onyx => false,
        }
    }

    /// Whether the start rules apply (Onyx's `start`, standard or open, and
    /// `swap`): the games without them start on an empty board, no swap.
    pub fn has_start_options(self) -> bool {
        match self {
            GameKind::Onyx => true,
            GameKind::Xodd | GameKind::Yodd | GameKind::Odd => false,
        }
    }

    /// Whether the side with fewer groups wins (Xodd, Yodd), so a position's
    /// group difference is a score.
    pub fn fewer_groups_wins(self) -> bool {
        match self {
            GameKind::Xodd | GameKind::Yodd => true,
            GameKind::Odd | GameKind::Onyx => false,
        }
    }

    /// Whether every symmetry of the board maps a position to one of the same
    /// value for the same side. Not in Onyx: its transpose exchanges the
    /// edges each side must join.
    pub fn board_symmetries_keep_values(self) -> bool {
        match self {
            GameKind::Xodd | GameKind::Yodd | GameKind::Odd => true,
            GameKind::Onyx => false,
        }
    }

    /// Whether exchanging every stone's colour keeps a position's value for
    /// the same side: in Odd only the number of large groups counts, of
    /// either colour.
    pub fn colour_exchange_keeps_values(self) -> bool {
        match self {
            GameKind::Odd => true,
            GameKind::Xodd | GameKind::Yodd | GameKind::Onyx => false,
        }
    }

    /// The game's name on the command line and in the protocol: `xodd`,
    /// `yodd`, `odd` or `onyx`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Xodd => "xodd",
            GameKind::Yodd => "yodd",
            GameKind::Odd => "odd",
            GameKind::Onyx => "onyx",
        }
    }

    /// The game's name as people write it: `Xodd`, `Yodd`, `Odd` or `Onyx`.
    pub fn title(self) -> &'static str {
        match self {
            GameKind::Xodd => "Xodd",
            GameKind::Yodd => "Yodd",
            GameKind::Odd => "Odd",
            GameKind::Onyx => "Onyx",
        }
    }

    /// The game of a name, in any case.
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Adding a game starts here: the match below has no wildcard, so the
    /// new variant does not compile until it is given a place, and the
    /// test fails until `ALL` lists it, once, with a name of its own that
    /// reads back as the game.
    #[test]
    fn all_lists_every_game_once() {
        let mut listed = [false; 4];
        for kind in GameKind::ALL {
            let place = match kind {
                GameKind::Xodd => 0,
                GameKind::Yodd => 1,
                GameKind::Odd => 2,
                GameKind::Onyx => 3,
            };
            assert!(!listed[place], "{kind} is listed twice");
            listed[place] = true;
            assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
            assert_eq!(GameKind::parse(kind.title()), Some(kind));
        }
        assert!(listed.iter().all(|&l| l), "GameKind::ALL leaves a game out");
    }
}
