//! Positions to analyse: a game's start plus move tokens, or a turn of a
//! game record.

use crate::rules::record::{GameRecord, ReplayError};
use crate::rules::sgf::{self, SgfError};

/// Why the position asked for cannot be set up, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("games are numbered from 1")]
    GameZero,
    #[error("cannot read the record: {0}")]
    Sgf(#[source] SgfError),
    #[error("there is no game {game}: the file holds {count} game{}", plural(*.count))]
    NoSuchGame { game: usize, count: usize },
    #[error("the record has {turns} turns; there is no turn {turn}")]
    NoSuchTurn { turn: usize, turns: usize },
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The record in SGF `text` cut after `turn` turns (all turns when `None`).
pub fn from_sgf(text: &str, turn: Option<usize>) -> Result<GameRecord, PositionError> {
    from_sgf_game(text, 1, turn).map(|(record, _)| record)
}

/// Game `game` (1 for the first) of the SGF collection `text`, cut after
/// `turn` turns (all turns when `None`), and how many games the collection
/// holds.
pub fn from_sgf_game(
    text: &str,
    game: usize,
    turn: Option<usize>,
) -> Result<(GameRecord, usize), PositionError> {
    if game == 0 {
        return Err(PositionError::GameZero);
    }
    let (record, count) = sgf::read_game(text, game - 1).map_err(PositionError::Sgf)?;
    let Some(record) = record else {
        return Err(PositionError::NoSuchGame { game, count });
    };
    match turn {
        None => Ok((record, count)),
        Some(k) if k <= record.moves().len() => Ok((record.truncated(k), count)),
        Some(turn) => Err(PositionError::NoSuchTurn {
            turn,
            turns: record.moves().len(),
        }),
    }
}
