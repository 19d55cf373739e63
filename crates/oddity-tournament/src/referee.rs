//! One game between two engine processes, refereed by the rules core.
//!
//! The engines' idea of the rules is never trusted: every answer to `genmove`
//! is parsed for the seat to move and played into a [`GameRecord`]; a token
//! that does not parse is a `malformed move`, one the rules refuse an
//! `illegal move`. Either, and any protocol fault, loses the game.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::results::{GameResult, LENGTH_CAP, TimeUsed};
use oddity_client::sync::{EngineGame, TimeSetting, secs};
use oddity_client::{EngineProcess, Fault};
use oddity_rules::{AnyGame, Colour, GameRecord, GameSpec, TokenPlayError, Turn};

/// How thinking time is limited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// No clock: engines think as their own options say (e.g. `--visits`);
    /// only the per-move timeout applies (reason `timeout`).
    None,
    /// A fixed time per move, sent as `time_settings 0 SECS 1`.
    PerMove(Duration),
    /// A game clock with Fischer increment. Sent as absolute time
    /// (`time_settings MAIN 0 0`) and, before every `genmove`, the mover's
    /// remaining time (increments included) with `time_left`.
    Clock { main: Duration, increment: Duration },
}

/// Limits of one game.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub time: TimeControl,
    /// Lateness forgiven before a loss on time.
    pub margin: Duration,
    /// The longest wait for any answer when no clock says otherwise.
    pub move_timeout: Duration,
    /// Turns (opening included) after which the game is stopped without
    /// result; the rules have no such limit.
    pub max_turns: usize,
}

/// How a game ended, for the worker that owns the processes.
pub struct Played {
    pub result: GameResult,
    pub record: GameRecord,
    /// The seat whose engine misbehaved and must be restarted.
    pub faulty: Option<Colour>,
}

/// One game of a tournament, as the referee needs it: its id and pair, the
/// rules, the opening played first and the engines' names in seat order.
#[derive(Clone, Copy, Debug)]
pub struct Fixture<'a> {
    pub id: &'a str,
    pub pair: usize,
    pub spec: &'a GameSpec,
    pub opening: &'a [String],
    pub names: [&'a str; 2],
}

/// How a game ended: the winner (none when stopped), the reason and its
/// detail, and the seat whose engine misbehaved.
struct Ending<'a> {
    winner: Option<Colour>,
    reason: &'a str,
    detail: String,
    faulty: Option<Colour>,
}

/// Plays one game. `engines` are in seat order (black, white).
/// `None` when the tournament stopped during the game.
pub fn play_game(
    fixture: &Fixture<'_>,
    engines: [&mut EngineProcess; 2],
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<Played> {
    let Fixture { spec, opening, .. } = *fixture;
    let mut record =
        GameRecord::replay(AnyGame::new(spec), opening).expect("openings are checked when read");
    let mut used = [Duration::ZERO; 2];
    let mut clock = match limits.time {
        TimeControl::Clock { main, .. } => [main; 2],
        _ => [Duration::ZERO; 2],
    };
    let command_timeout = limits.move_timeout;

    // Ends the game with a loss for `seat`.
    let forfeit = |record: &GameRecord, seat: Colour, reason: &str, detail: String, used| {
        let ending = Ending {
            winner: Some(seat.opposite()),
            reason,
            detail,
            faulty: Some(seat),
        };
        Some(finish(fixture, record, ending, used))
    };

    // Set-up, then the opening, in both engines.
    let time = match limits.time {
        TimeControl::None => TimeSetting::None,
        TimeControl::PerMove(t) => TimeSetting::PerMove(t),
        TimeControl::Clock { main, .. } => TimeSetting::Main(main),
    };
    let mut told = [EngineGame::default(), EngineGame::default()];
    for seat in Colour::BOTH {
        let i = seat.index();
        match told[i].sync_to(&mut *engines[i], &record, time, command_timeout, stop) {
            Ok(()) => {}
            Err(Fault::Aborted) => return None,
            Err(f) => return forfeit(&record, seat, f.reason(), f.detail(), used),
        }
    }

    loop {
        if record.is_over() {
            let outcome = record.outcome().expect("a finished game has an outcome");
            let (reason, detail) = if outcome.by_resignation {
                ("resignation", String::new())
            } else {
                ("rules", outcome.decision.counts())
            };
            let ending = Ending {
                winner: Some(outcome.winner),
                reason,
                detail,
                faulty: None,
            };
            return Some(finish(fixture, &record, ending, used));
        }
        if record.moves().len() >= limits.max_turns {
            let ending = Ending {
                winner: None,
                reason: LENGTH_CAP,
                detail: format!("stopped after {} turns", record.moves().len()),
                faulty: None,
            };
            return Some(finish(fixture, &record, ending, used));
        }
        let seat = record.position().to_move();
        let i = seat.index();
        let engine = &mut *engines[i];
        let allowed = match limits.time {
            TimeControl::None => None,
            TimeControl::PerMove(t) => {
                let cmd = format!("time_left {} {} 1", seat.seat(), secs(t));
                match engine.command(&cmd, command_timeout, stop) {
                    Ok(_) => {}
                    Err(Fault::Aborted) => return None,
                    Err(f) => return forfeit(&record, seat, f.reason(), f.detail(), used),
                }
                Some(t)
            }
            TimeControl::Clock { .. } => {
                let cmd = format!(
                    "time_left {} {} 0",
                    seat.seat(),
                    clock[i].as_secs_f64().floor() as u64
                );
                match engine.command(&cmd, command_timeout, stop) {
                    Ok(_) => {}
                    Err(Fault::Aborted) => return None,
                    Err(f) => return forfeit(&record, seat, f.reason(), f.detail(), used),
                }
                Some(clock[i])
            }
        };
        let timeout = match allowed {
            Some(t) => t + limits.margin,
            None => limits.move_timeout,
        };
        let began = Instant::now();
        let answer = engine.command(&format!("genmove {}", seat.seat()), timeout, stop);
        let elapsed = began.elapsed();
        used[i] += elapsed;
        let answer = match answer {
            Ok(a) => a,
            Err(Fault::Aborted) => return None,
            Err(Fault::Timeout(_)) if allowed.is_some() => {
                return forfeit(
                    &record,
                    seat,
                    "time forfeit",
                    format!(
                        "no move within {:.3} s (margin {:.3} s)",
                        allowed.unwrap_or_default().as_secs_f64(),
                        limits.margin.as_secs_f64()
                    ),
                    used,
                );
            }
            Err(f) => return forfeit(&record, seat, f.reason(), f.detail(), used),
        };
        if let Some(allowed) = allowed {
            if elapsed > allowed + limits.margin {
                return forfeit(
                    &record,
                    seat,
                    "time forfeit",
                    format!(
                        "{:.3} s used, {:.3} s allowed (margin {:.3} s)",
                        elapsed.as_secs_f64(),
                        allowed.as_secs_f64(),
                        limits.margin.as_secs_f64()
                    ),
                    used,
                );
            }
            if let TimeControl::Clock { increment, .. } = limits.time {
                clock[i] = clock[i].saturating_sub(elapsed) + increment;
            }
        }
        let token = answer.trim();
        let turn = match record.play_token(token) {
            Ok(turn) => turn,
            Err(TokenPlayError::Malformed(e)) => {
                return forfeit(&record, seat, "malformed move", e.to_string(), used);
            }
            Err(TokenPlayError::Illegal { why, .. }) => {
                return forfeit(
                    &record,
                    seat,
                    "illegal move",
                    format!("'{token}': {why}"),
                    used,
                );
            }
        };
        if turn == Turn::Resign {
            continue;
        }
        told[i].played(seat, turn);
        let other = seat.opposite();
        let j = other.index();
        match told[j].sync_to(&mut *engines[j], &record, time, command_timeout, stop) {
            Ok(()) => {}
            Err(Fault::Aborted) => return None,
            Err(f) => return forfeit(&record, other, f.reason(), f.detail(), used),
        }
    }
}

fn finish(
    fixture: &Fixture<'_>,
    record: &GameRecord,
    ending: Ending<'_>,
    used: [Duration; 2],
) -> Played {
    let Fixture {
        id,
        pair,
        spec,
        opening,
        names,
    } = *fixture;
    let Ending {
        winner,
        reason,
        detail,
        faulty,
    } = ending;
    let turns = record
        .moves()
        .iter()
        .map(|(_, t)| record.start().token(t))
        .collect();
    let finished = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    Played {
        result: GameResult {
            id: id.to_string(),
            pair,
            black: names[0].to_string(),
            white: names[1].to_string(),
            winner: winner.map(|w| names[w.index()].to_string()),
            winner_seat: winner.map(|w| w.seat().to_string()),
            reason: reason.to_string(),
            detail,
            game: spec.kind,
            size: spec.size,
            rules: spec.rules_text(),
            opening: opening.to_vec(),
            turns,
            time_used: TimeUsed {
                black: used[0].as_secs_f64(),
                white: used[1].as_secs_f64(),
            },
            finished,
            black_build: None,
            white_build: None,
            command: None,
        },
        record: record.clone(),
        faulty,
    }
}

/// The SGF `RE` value of a result.
pub fn sgf_result(result: &GameResult) -> String {
    let Some(seat) = result.winner_seat.as_deref() else {
        return "Void".into();
    };
    let letter = if seat == "b" { 'B' } else { 'W' };
    match result.reason.as_str() {
        "rules" => format!("{letter}+"),
        "resignation" => format!("{letter}+R"),
        "time forfeit" | "timeout" => format!("{letter}+T"),
        _ => format!("{letter}+F"),
    }
}

/// The result of a game that could not begin because an engine failed to
/// start (or to accept its init commands): that engine loses.
pub fn forfeit_at_start(fixture: &Fixture<'_>, seat_index: usize, fault: &Fault) -> Played {
    let mut record = GameRecord::new(AnyGame::new(fixture.spec));
    for token in fixture.opening {
        // Openings are checked when read; a bad one still scores the game.
        let _ = record.play_token(token);
    }
    let seat = if seat_index == 0 {
        Colour::Black
    } else {
        Colour::White
    };
    let ending = Ending {
        winner: Some(seat.opposite()),
        reason: fault.reason(),
        detail: fault.detail(),
        faulty: Some(seat),
    };
    finish(fixture, &record, ending, [Duration::ZERO; 2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_commands_carry_fractions_of_a_second() {
        assert_eq!(secs(Duration::from_secs(3)), "3");
        assert_eq!(secs(Duration::from_millis(200)), "0.2");
        assert_eq!(secs(Duration::from_millis(1250)), "1.25");
        assert_eq!(secs(Duration::ZERO), "0");
    }
}
