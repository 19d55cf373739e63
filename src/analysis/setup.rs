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
    from_sgf_game(text, 1, turn).map(|(record, _)| record)
}

/// Game `game` (1 for the first) of the SGF collection `text`, cut after
/// `turn` turns (all turns when `None`), and how many games the collection
/// holds.
pub fn from_sgf_game(
    text: &str,
    game: usize,
    turn: Option<usize>,
) -> Result<(GameRecord, usize), String> {
    if game == 0 {
        return Err("games are numbered from 1".into());
    }
    let (record, count) =
        sgf::read_game(text, game - 1).map_err(|e| format!("cannot read the record: {e}"))?;
    let Some(record) = record else {
        return Err(format!(
            "there is no game {game}: the file holds {count} game{}",
            if count == 1 { "" } else { "s" }
        ));
    };
    match turn {
        None => Ok((record, count)),
        Some(k) if k <= record.moves().len() => Ok((record.truncated(k), count)),
        Some(k) => Err(format!(
            "the record has {} turns; there is no turn {k}",
            record.moves().len()
        )),
    }
}
