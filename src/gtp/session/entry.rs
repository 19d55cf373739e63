//! GoGui mode in Odd, Xodd and Yodd: turns entered one stone at a time.
//!
//! GoGui moves are one stone of the mover's colour or a pass, and GoGui
//! sends every move, a click or the engine's own, to its ruler as the same
//! `play`; the ruler is a second engine process that GoGui replays from
//! `clear_board` whenever it redraws. So how a move is taken depends only
//! on the moves before it and on the command line (`--gogui-wait`, which
//! the ruler shares):
//! - a first stone that cannot end the turn alone waits for a second one
//!   (the side to move stays);
//! - with `--gogui-wait`, so does one that may end the turn alone where a
//!   second may follow, and a pass ends that turn with the one stone;
//! - any other first stone is a whole turn at once (every Odd turn, Black's
//!   first Xodd/Yodd turn, without `--gogui-wait` a stone that may end the
//!   turn alone);
//! - a move of the other seat (gogui-twogtp sends whole turns, the seats
//!   taking turns) ends the waiting stone's turn with it alone, where it
//!   may; where it may not, a stone of the other colour is its second stone.
//!
//! `undo` takes back one such move, as GoGui counts them.

use crate::rules::moves::{Colour, Stone, Turn};
use crate::rules::position::AnyGame;
use crate::rules::record::GameRecord;

/// One move as GoGui counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Click {
    Stone(Stone),
    Pass,
    Resign,
}

/// The turn being entered, and the moves entered, for `undo`.
#[derive(Clone, Debug, Default)]
pub(super) struct Entry {
    /// The first stone of the turn being entered, and the seat entering it.
    pub held: Option<(Colour, Stone)>,
    /// The record's turn count when `moves` began.
    base: usize,
    /// The moves entered since then, in order.
    moves: Vec<(Colour, Click)>,
}

impl Entry {
    /// Enters one move of `colour`, or changes nothing and says why not.
    pub fn enter(
        &mut self,
        record: &mut GameRecord,
        colour: Colour,
        click: Click,
        wait_always: bool,
    ) -> Result<(), String> {
        if self.moves.is_empty() {
            self.base = record.moves().len();
        }
        let mut next = record.clone();
        let mut held = self.held;
        take(&mut next, &mut held, colour, click, wait_always)?;
        *record = next;
        self.held = held;
        self.moves.push((colour, click));
        Ok(())
    }

    /// Takes back the last move entered, replaying the others; false when
    /// none was entered (since the game started or was loaded).
    pub fn undo(&mut self, record: &mut GameRecord, wait_always: bool) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        *record = record.truncated(self.base);
        self.held = None;
        for &(colour, click) in &self.moves {
            if let Err(e) = take(record, &mut self.held, colour, click, wait_always) {
                // Each of these moves was taken before, from the same start.
                log::error!("replaying an entered move: {e}");
            }
        }
        true
    }

    /// Before `seat` moves: a waiting stone of the other seat that may end
    /// its turn alone becomes that turn (what the next move of `seat` would
    /// do).
    pub fn settle(&mut self, record: &mut GameRecord, seat: Colour) {
        if let Some((mover, first)) = self.held
            && mover != seat
            && record.play(mover, Turn::Stones(first, None)).is_ok()
        {
            self.held = None;
        }
    }
}

/// Takes one move into `record` and `held`; on an error either may have
/// changed (callers work on copies).
fn take(
    record: &mut GameRecord,
    held: &mut Option<(Colour, Stone)>,
    colour: Colour,
    click: Click,
    wait_always: bool,
) -> Result<(), String> {
    if record.is_over() {
        // gogui-twogtp stops a game only after two passes in a row.
        return match click {
            Click::Pass => Ok(()),
            _ => Err("the game is over".into()),
        };
    }
    if let Some((mover, first)) = *held
        && mover != colour
        && record.play(mover, Turn::Stones(first, None)).is_ok()
    {
        *held = None;
    }
    let mover = record.position().to_move();
    let turn = match (*held, click) {
        (_, Click::Resign) => Turn::Resign,
        (None, Click::Pass) => Turn::Pass,
        (Some((_, first)), Click::Pass) => Turn::Stones(first, None),
        (Some((_, first)), Click::Stone(s)) => Turn::stones(first, Some(s)),
        (None, Click::Stone(s)) if waits(record.position(), s, wait_always) => {
            *held = Some((mover, s));
            return Ok(());
        }
        (None, Click::Stone(s)) => Turn::Stones(s, None),
    };
    let topo = record.position().topology();
    record
        .play(mover, turn)
        .map_err(|e| e.describe(topo).to_string())?;
    *held = None;
    Ok(())
}

/// Whether `first` waits for a second stone: where one may follow, and
/// the stone cannot end the turn alone or `wait_always`.
fn waits(pos: &AnyGame, first: Stone, wait_always: bool) -> bool {
    (wait_always || pos.clone().play_turn(&Turn::Stones(first, None)).is_err())
        && second_may_follow(pos, first)
}

/// Whether some legal turn of the mover has `first` and a second stone.
fn second_may_follow(pos: &AnyGame, first: Stone) -> bool {
    let topo = pos.topology();
    topo.cells()
        .iter()
        .filter(|&&cell| cell != first.cell && pos.stone_at(cell).is_none())
        .flat_map(|&cell| Colour::BOTH.map(|colour| Stone { cell, colour }))
        .any(|second| {
            pos.clone()
                .play_turn(&Turn::stones(first, Some(second)))
                .is_ok()
        })
}
