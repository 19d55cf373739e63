//! What a solve found: the values of a position and of its turns.

use std::time::Duration;

use oddity_rules::{Colour, Turn};

use crate::dfpn::Numbers;

/// The game-theoretic value of a position or turn for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
    /// Neither side can force a win: play can go on for ever (Onyx).
    Neither,
}

impl Value {
    /// `Win` when `wins`, else `Loss`.
    pub fn of_win(wins: bool) -> Value {
        if wins { Value::Win } else { Value::Loss }
    }

    /// `win`, `loss` or `neither`.
    pub fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Loss => "loss",
            Value::Neither => "neither",
        }
    }
}

/// A legal turn of the root and its value, when proven.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnValue {
    /// The turn.
    pub turn: Turn,
    /// For the side to move at the root, after this turn.
    pub value: Option<Value>,
    /// Expansions spent proving it (the harder, the longer a losing side
    /// can resist with it).
    pub work: u64,
}

/// What a solve found.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The side to move at the root.
    pub to_move: Colour,
    /// The root's value for the side to move; `None` when not proven
    /// within the limits.
    pub value: Option<Value>,
    /// Every legal turn (in the order of `legal_turns`), with its value
    /// where proven.
    pub turns: Vec<TurnValue>,
    /// A line of best play from the root: the winner's winning turns and
    /// the loser's longest resistance, as far as the table knows it.
    pub pv: Vec<Turn>,
    /// Expansions of all threads.
    pub nodes: u64,
    /// Positions in the transposition table at the end.
    pub table_entries: usize,
    /// Positions the transposition table holds.
    pub table_capacity: usize,
    /// How long the solve took.
    pub elapsed: Duration,
    /// The root's proof and disproof numbers for the side to move's win,
    /// as last stored.
    pub root: Option<Numbers>,
}

impl Solution {
    /// The winner at the root, when proven.
    pub fn winner(&self) -> Option<Colour> {
        match self.value? {
            Value::Win => Some(self.to_move),
            Value::Loss => Some(self.to_move.opposite()),
            Value::Neither => None,
        }
    }

    /// The turn to play: a winning one when the root is won (the cheapest
    /// proof, so that the win comes soon), else the one whose proof took
    /// the most work (the longest resistance); `None` when no turn is
    /// proven.
    pub fn best_turn(&self) -> Option<Turn> {
        let pick = |v: Value, most: bool| {
            let mut of: Vec<&TurnValue> =
                self.turns.iter().filter(|t| t.value == Some(v)).collect();
            of.sort_by_key(|t| t.work);
            if most { of.last() } else { of.first() }.map(|t| t.turn)
        };
        match self.value? {
            Value::Win => pick(Value::Win, false),
            Value::Neither => pick(Value::Neither, true),
            Value::Loss => pick(Value::Loss, true),
        }
    }

    /// Whether every turn's value is known.
    pub fn complete(&self) -> bool {
        self.turns.iter().all(|t| t.value.is_some())
    }
}

/// A snapshot for a progress display.
#[derive(Clone, Copy, Debug)]
pub struct SolveProgress {
    /// Expansions so far, of all threads.
    pub nodes: u64,
    /// Time since the solve began.
    pub elapsed: Duration,
    /// The root's proof and disproof numbers for the side to move's win, as
    /// last stored.
    pub root: Option<Numbers>,
    /// Turns whose value is known, of all.
    pub turns_done: usize,
    /// Turns of the root.
    pub turns: usize,
    /// Positions in the transposition table.
    pub table_entries: usize,
}

/// A progress callback and its interval.
pub type ProgressFn<'a> = Option<(&'a mut dyn FnMut(&SolveProgress), Duration)>;
