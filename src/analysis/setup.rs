//! Positions to analyse: a game's start plus move tokens, or a turn of a
//! game record.

use crate::rules::game::GameSpec;
use crate::rules::position::AnyGame;
use crate::rules::record::GameRecord;
use crate::rules::sgf;

/// Plays `tokens` from the start of `spec`, each for the side to move.
/// The error names the first token that is malformed or illegal.
pub fn replay<S: AsRef<str>>(spec: &GameSpec, tokens: &[S]) -> Result<GameRecord, String> {
    let mut record = GameRecord::new(AnyGame::new(spec));
    for (k, token) in tokens.iter().enumerate() {
        let token = token.as_ref();
        let position = record.position();
        let turn = position
            .parse_turn(token)
            .map_err(|e| format!("move {}: {e}", k + 1))?;
        let seat = position.to_move();
        let topo = position.topology();
        record.play(seat, turn).map_err(|e| {
            format!(
                "move {}: illegal move '{token}': {}",
                k + 1,
                e.describe(topo)
            )
        })?;
    }
    Ok(record)
}

/// The record in SGF `text` cut after `turn` turns (all turns when `None`).
pub fn from_sgf(text: &str, turn: Option<usize>) -> Result<GameRecord, String> {
    let record = sgf::read(text).map_err(|e| format!("cannot read the record: {e}"))?;
    match turn {
        None => Ok(record),
        Some(k) if k <= record.moves().len() => Ok(record.truncated(k)),
        Some(k) => Err(format!(
            "the record has {} turns; there is no turn {k}",
            record.moves().len()
        )),
    }
}
