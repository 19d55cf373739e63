//! The blunder check: every position of a game is analysed, and each turn
//! is judged by how much it lowered its mover's win rate.

use serde::Serialize;

use super::result::{Settings, analyse};
use oddity_rules::GameRecord;

/// One turn of the game, judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnCheck {
    /// 1 for the first turn of the game.
    pub turn: usize,
    /// The seat that played it.
    pub seat: &'static str,
    #[serde(rename = "move")]
    pub token: String,
    /// The mover's win rate before the turn (with the engine's best play).
    pub winrate_before: f64,
    /// The mover's win rate after it: 1 or 0 once the game is over.
    pub winrate_after: f64,
    /// `winrate_before - winrate_after`: what the turn gave away.
    pub drop: f64,
    /// The engine's choice in the position before the turn.
    pub best: Option<String>,
}

/// A whole game, judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameCheck {
    pub game: &'static str,
    pub size: usize,
    /// Black's win rate in every position, from the start to the end.
    pub black_winrates: Vec<f64>,
    /// Every turn, in order.
    pub turns: Vec<TurnCheck>,
    /// The turns that dropped their mover's win rate by at least the
    /// threshold, largest drop first, at most the number asked for.
    pub blunders: Vec<TurnCheck>,
}

/// Analyses every position of `record` and lists its worst turns.
/// `on_position(done, total)` is called after each position.
pub fn check_game(
    record: &GameRecord,
    settings: &Settings,
    threshold: f64,
    count: usize,
    on_position: &mut dyn FnMut(usize, usize),
) -> GameCheck {
    let start = record.start();
    let moves = record.moves();
    let mut engine = settings.engine();
    let mut prefix = GameRecord::new(start.clone());
    // For each position: the win rate of the side to move, and the best turn.
    let mut values = Vec::with_capacity(moves.len() + 1);
    let mut best = Vec::with_capacity(moves.len() + 1);
    let mut black = Vec::with_capacity(moves.len() + 1);
    for k in 0..=moves.len() {
        if k > 0 {
            let (s, turn) = moves[k - 1];
            prefix
                .play(s, turn)
                .expect("the turns of a record replay legally");
        }
        let a = analyse(&mut engine, &prefix, settings, None);
        let to_move = prefix.position().to_move();
        let v = a.root_info.winrate;
        black.push(match (prefix.outcome(), to_move) {
            (Some(o), _) => f64::from(o.winner == oddity_rules::Colour::Black),
            (None, oddity_rules::Colour::Black) => v,
            (None, _) => 1.0 - v,
        });
        values.push(v);
        best.push(a.move_infos.first().map(|m| m.token.clone()));
        on_position(k + 1, moves.len() + 1);
    }
    let mut turns = Vec::with_capacity(moves.len());
    let mut replay = GameRecord::new(start.clone());
    for (k, &(mover, turn)) in moves.iter().enumerate() {
        let token = replay.position().token(&turn);
        let before = if replay.position().to_move() == mover {
            values[k]
        } else {
            1.0 - values[k]
        };
        replay
            .play(mover, turn)
            .expect("the turns of a record replay legally");
        let after = match replay.outcome() {
            Some(o) => f64::from(o.winner == mover),
            None if replay.position().to_move() == mover => values[k + 1],
            None => 1.0 - values[k + 1],
        };
        turns.push(TurnCheck {
            turn: k + 1,
            seat: mover.seat(),
            token,
            winrate_before: round(before),
            winrate_after: round(after),
            drop: round(before - after),
            best: best[k].clone(),
        });
    }
    let mut blunders: Vec<TurnCheck> = turns
        .iter()
        .filter(|t| t.drop >= threshold)
        .cloned()
        .collect();
    blunders.sort_by(|a, b| b.drop.total_cmp(&a.drop).then(a.turn.cmp(&b.turn)));
    blunders.truncate(count);
    GameCheck {
        game: start.kind().name(),
        size: start.topology().size,
        black_winrates: black.into_iter().map(round).collect(),
        turns,
        blunders,
    }
}

fn round(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}
