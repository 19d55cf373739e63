//! Positions to analyse: a game's start plus move tokens, or a turn of a
//! game record.

use crate::rules::game::GameSpec;
use crate::rules::moves::TokenError;
use crate::rules::position::AnyGame;
use crate::rules::record::GameRecord;
use crate::rules::sgf::{self, SgfError};

/// Why the position asked for cannot be set up, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("move {number}: {source}")]
    Malformed { number: usize, source: TokenError },
    /// `why` is the rules' reason, with the cells named on the board.
    #[error("move {number}: illegal move '{token}': {why}")]
    Illegal {
        number: usize,
        token: String,
        why: String,
    },
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

/// Plays `tokens` from the start of `spec`, each for the side to move.
/// The error names the first token that is malformed or illegal.
pub fn replay<S: AsRef<str>>(spec: &GameSpec, tokens: &[S]) -> Result<GameRecord, PositionError> {
    let mut record = GameRecord::new(AnyGame::new(spec));
    for (k, token) in tokens.iter().enumerate() {
        let token = token.as_ref();
        let position = record.position();
        let turn = position
            .parse_turn(token)
            .map_err(|source| PositionError::Malformed {
                number: k + 1,
                source,
            })?;
        let seat = position.to_move();
        let topo = position.topology();
        record
            .play(seat, turn)
            .map_err(|e| PositionError::Illegal {
                number: k + 1,
                token: token.to_string(),
                why: e.describe(topo),
            })?;
    }
    Ok(record)
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
