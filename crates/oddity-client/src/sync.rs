//! Bringing an engine's game up to date with a game record: a new game
//! (game, size, rules, set-up stones, time) when the engine's game is not
//! the start of the record, then only the turns it has not been told.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::process::{EngineProcess, Fault};
use oddity_rules::{
    Colour, GameRecord, GameSpec, Turn,
    sgf::{self, RecordInfo},
};

/// The thinking time an engine is given when its game starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSetting {
    /// No time command: the engine's own settings apply.
    None,
    /// The same time for every move (`time_settings 0 T 1`).
    PerMove(Duration),
    /// Main time for the whole game, no overtime (`time_settings M 0 0`).
    Main(Duration),
}

/// What an engine process has been told of its game, so that bringing it
/// up to date sends only what it lacks.
#[derive(Default)]
pub struct EngineGame {
    told: Option<Told>,
}

struct Told {
    /// The start and rules, as an SGF root.
    start: String,
    moves: Vec<(Colour, Turn)>,
    time: TimeSetting,
}

impl EngineGame {
    /// Brings the engine's game to `record` with `time`: only the missing
    /// turns when it already has the start of the record, else a new game
    /// from the record's start. Each command may take `timeout`. After a
    /// failure the engine's game is unknown, and the next call starts anew.
    pub fn sync_to(
        &mut self,
        engine: &mut EngineProcess,
        record: &GameRecord,
        time: TimeSetting,
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<(), Fault> {
        let start = sgf::write(
            &GameRecord::new(record.start().clone()),
            &RecordInfo::default(),
        );
        let moves = record.moves();
        let known = match self.told.take() {
            Some(t) if t.start == start && t.time == time && moves.starts_with(&t.moves) => {
                t.moves.len()
            }
            _ => {
                for cmd in new_game_commands(record, time) {
                    engine.command(&cmd, timeout, stop)?;
                }
                0
            }
        };
        for (seat, turn) in &moves[known..] {
            let cmd = format!("play {} {}", seat.seat(), record.start().token(turn));
            engine.command(&cmd, timeout, stop)?;
        }
        self.told = Some(Told {
            start,
            moves: moves.to_vec(),
            time,
        });
        Ok(())
    }

    /// The engine played `turn` for `seat` in its own game (`genmove`).
    pub fn played(&mut self, seat: Colour, turn: Turn) {
        if let Some(t) = &mut self.told {
            t.moves.push((seat, turn));
        }
    }

    /// The engine's game is no longer known (it answered something the
    /// rules refuse, or was restarted).
    pub fn forget(&mut self) {
        self.told = None;
    }
}

/// The commands that start the record's start position in an engine.
fn new_game_commands(record: &GameRecord, time: TimeSetting) -> Vec<String> {
    let start = record.start();
    let mut cmds = setup_commands(start.spec());
    if start.turns_played() > 0 || !start.looks_like_start() {
        let topo = start.topology();
        let stones: Vec<String> = topo
            .cells()
            .iter()
            .filter_map(|&c| {
                let colour = start.stone_at(c)?;
                Some(format!("{}:{}", colour.letter(), topo.name(c)))
            })
            .collect();
        cmds.push(format!(
            "oddity-set_position {} {}",
            start.to_move().seat(),
            stones.join(" ")
        ));
    }
    match time {
        TimeSetting::None => {}
        TimeSetting::PerMove(t) => cmds.push(format!("time_settings 0 {} 1", secs(t))),
        TimeSetting::Main(main) => cmds.push(format!("time_settings {} 0 0", secs(main))),
    }
    cmds
}

/// The GTP commands that set up a new game of `spec` in an engine.
fn setup_commands(spec: &GameSpec) -> Vec<String> {
    let mut cmds = vec![
        format!("oddity-game {}", spec.kind),
        format!("boardsize {}", spec.size),
    ];
    for (name, value) in spec.rule_options() {
        cmds.push(format!("oddity-rules {name} {value}"));
    }
    cmds.push("clear_board".into());
    cmds
}

/// Seconds as GTP time commands carry them: whole seconds as an integer,
/// a fraction (e.g. `--st 0.2`) in decimals, to the millisecond.
pub fn secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        format!("{:.3}", d.as_secs_f64())
            .trim_end_matches('0')
            .to_string()
    }
}
