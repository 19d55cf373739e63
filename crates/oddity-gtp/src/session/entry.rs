//! GoGui mode in Odd, Xodd and Yodd: turns entered one stone at a time.
//!
//! GoGui moves are one stone of the mover's colour or a pass, and GoGui
//! sends every move, a click or the engine's own, to its ruler as the same
//! `play`; the ruler is a second engine process that GoGui replays from
//! `clear_board` whenever it redraws. So how a move is taken depends only
//! on the moves before it and on the command line (`--gogui-wait`, which
//! the ruler shares). The stones of the turn being entered **wait** (the
//! side to move stays) until the turn is complete:
//! - a stone on a waiting stone's point changes that stone's colour (a
//!   second click on it): this is how a person puts a stone of the other
//!   colour, since a GoGui click always has the mover's colour;
//! - a pass ends the turn with the waiting stones (a pass where none
//!   waits);
//! - with `--gogui-wait` every stone waits, so every turn is its stones
//!   (each clicked once, or twice for the other colour) and a pass;
//! - without it a stone ends the turn at once where the stones with it make
//!   a legal turn, and waits only where they do not;
//! - a stone is refused (and changes nothing) where no legal turn has
//!   stones, of some colours, on the waiting stones' points and on its own;
//! - a move of the other seat (gogui-twogtp sends whole turns, the seats
//!   taking turns) ends the waiting stones' turn first, where they make a
//!   legal turn; where they do not, a stone of the other colour is one of
//!   the turn's stones (typed in GoGui's shell).
//!
//! `undo` takes back one such move, as GoGui counts them.

use oddity_rules::{AnyGame, Cell, Colour, GameRecord, Stone, Turn};

/// One move as GoGui counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Click {
    Stone(Stone),
    Pass,
    Resign,
}

/// The stones of the turn being entered, and the seat entering it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Held {
    seat: Colour,
    stones: Vec<Stone>,
}

impl Held {
    /// The turn these stones make.
    fn turn(&self) -> Turn {
        Turn::stones(self.stones[0], self.stones.get(1).copied())
    }
}

/// The turn being entered, and the moves entered, for `undo`.
#[derive(Clone, Debug, Default)]
pub(super) struct Entry {
    /// The waiting stones of the turn being entered.
    held: Option<Held>,
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
        let mut held = self.held.clone();
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

    /// Before `seat` moves: waiting stones of the other seat that make a
    /// legal turn become that turn (what the next move of `seat` would do).
    pub fn settle(&mut self, record: &mut GameRecord, seat: Colour) {
        settle(record, &mut self.held, seat);
    }

    /// The waiting stones of `seat`, if any.
    pub fn held_by(&self, seat: Colour) -> Option<&[Stone]> {
        self.held
            .as_ref()
            .filter(|h| h.seat == seat)
            .map(|h| h.stones.as_slice())
    }

    /// The waiting stones, of either seat.
    pub fn waiting(&self) -> Option<&[Stone]> {
        self.held.as_ref().map(|h| h.stones.as_slice())
    }
}

fn settle(record: &mut GameRecord, held: &mut Option<Held>, seat: Colour) {
    if let Some(h) = held
        && h.seat != seat
        && record.play(h.seat, h.turn()).is_ok()
    {
        *held = None;
    }
}

/// Takes one move into `record` and `held`; on an error either may have
/// changed (callers work on copies).
fn take(
    record: &mut GameRecord,
    held: &mut Option<Held>,
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
    settle(record, held, colour);
    let pos = record.position();
    let mover = pos.to_move();
    let turn = match (held.as_mut(), click) {
        (_, Click::Resign) => Turn::Resign,
        (None, Click::Pass) => Turn::Pass,
        (Some(h), Click::Pass) => h.turn(),
        (Some(h), Click::Stone(s)) if h.stones.iter().any(|w| w.cell == s.cell) => {
            for w in h.stones.iter_mut().filter(|w| w.cell == s.cell) {
                w.colour = w.colour.opposite();
            }
            return Ok(());
        }
        (h, Click::Stone(s)) => {
            let mut stones = h.map_or_else(Vec::new, |h| h.stones.clone());
            stones.push(s);
            let cells: Vec<Cell> = stones.iter().map(|w| w.cell).collect();
            if pos.stone_at(s.cell).is_some() || !viable(pos, &cells) {
                return Err(format!(
                    "no legal turn has stones on {}",
                    cells
                        .iter()
                        .map(|&c| pos.topology().name(c))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ));
            }
            let whole = Held {
                seat: mover,
                stones,
            };
            if wait_always || pos.clone().play_turn(&whole.turn()).is_err() {
                *held = Some(whole);
                return Ok(());
            }
            whole.turn()
        }
    };
    let topo = record.position().topology();
    record
        .play(mover, turn)
        .map_err(|e| e.describe(topo).to_string())?;
    *held = None;
    Ok(())
}

/// Whether some legal turn of the mover puts stones, of some colours, on
/// exactly these cells, or on these and one more.
pub(super) fn viable(pos: &AnyGame, cells: &[Cell]) -> bool {
    let legal = |stones: &[Stone]| {
        let turn = Turn::stones(stones[0], stones.get(1).copied());
        pos.clone().play_turn(&turn).is_ok()
    };
    let stone = |cell, colour| Stone { cell, colour };
    match *cells {
        [a] => Colour::BOTH.into_iter().any(|ca| {
            legal(&[stone(a, ca)])
                || pos
                    .topology()
                    .cells()
                    .iter()
                    .filter(|&&b| b != a && pos.stone_at(b).is_none())
                    .any(|&b| {
                        Colour::BOTH
                            .into_iter()
                            .any(|cb| legal(&[stone(a, ca), stone(b, cb)]))
                    })
        }),
        [a, b] => Colour::BOTH.into_iter().any(|ca| {
            Colour::BOTH
                .into_iter()
                .any(|cb| legal(&[stone(a, ca), stone(b, cb)]))
        }),
        _ => false,
    }
}
