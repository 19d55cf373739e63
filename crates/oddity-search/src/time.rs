//! Time management: how long to think about one move.
//!
//! The clock is described as GTP describes it: [`TimeSettings`] (main time
//! and an overtime system, or a fixed time per move) and, for each move,
//! the time `remaining` and `stones_left` of `time_left` (`stones_left` 0 =
//! still in main time; otherwise the time and stones left in the current
//! overtime period).
//!
//! [`hard_limit`] is the most one move may take without losing on time (or,
//! in Japanese byo-yomi, a period). [`plan`] returns a target and a maximum;
//! the maximum is never above `hard_limit - margin(hard_limit)` (zero when
//! less is left). The [`margin`] covers the search's stopping latency (a
//! few milliseconds), building the report and protocol I/O.
//!
//! Time that cannot be kept for a later move (a fixed time per move, the
//! last stone of a Canadian overtime period, a Japanese byo-yomi period) is
//! spent whole: the target is the maximum. Main time and the other stones
//! of a Canadian period are shared out, and a move whose best turn is clear
//! early leaves the rest to the moves after it.

use std::time::Duration;

use crate::limits::Limits;

/// The most time kept back from a move's hard limit (see [`margin`]).
pub const SAFETY_MARGIN: Duration = Duration::from_millis(100);

/// The least time kept back from a move's hard limit (see [`margin`]).
pub const MIN_MARGIN: Duration = Duration::from_millis(20);

/// The time kept back from a move's hard limit `hard`: a quarter of it,
/// within [`MIN_MARGIN`]..=[`SAFETY_MARGIN`]. A search stops within a few
/// milliseconds of its limit and the report takes less, but on a busy
/// machine the answer can wait tens of milliseconds for a core, so a short
/// move keeps a quarter (50 ms of 0.2 s) and a long one 100 ms.
/// [`TimeUse::Cautious`] keeps [`SAFETY_MARGIN`] whatever the move.
pub fn margin(hard: Duration, style: TimeUse) -> Duration {
    match style {
        TimeUse::Full => (hard / 4).clamp(MIN_MARGIN, SAFETY_MARGIN),
        TimeUse::Cautious => SAFETY_MARGIN,
    }
}

/// How [`plan`] uses the time a move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimeUse {
    /// A margin that scales with the move's time ([`margin`]), and time
    /// that cannot be kept for a later move spent whole.
    #[default]
    Full,
    /// The plan before [`TimeUse::Full`], kept for measuring it: a fixed
    /// 100 ms margin, and in overtime a target of half the move's time
    /// (the search stops there once its best turn is clear).
    Cautious,
}

/// Our turns assumed to be left at least, when dividing main time.
pub const MIN_MOVES_LEFT: u32 = 12;

/// How long the search may go on past its target when the best move is
/// unclear: `max = MAX_STRETCH * target` (within the hard limit).
pub const MAX_STRETCH: u32 = 3;

/// An overtime system after main time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Overtime {
    /// Sudden death.
    #[default]
    None,
    /// Japanese byo-yomi: `periods` periods of `period` each; every move must
    /// be made within one period (or a period is lost).
    ByoYomi {
        /// The time of one period.
        period: Duration,
        /// The periods.
        periods: u32,
    },
    /// Canadian: `stones` stones within each `period`.
    Canadian {
        /// The time of one period.
        period: Duration,
        /// The stones to play in each period.
        stones: u32,
    },
}

/// The time control of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimeSettings {
    /// Main time.
    pub main: Duration,
    /// What follows main time.
    pub overtime: Overtime,
    /// A fixed time per move instead of a clock (overrides the rest).
    pub per_move: Option<Duration>,
}

impl TimeSettings {
    /// No clock at all (search by other limits).
    pub fn is_unlimited(&self) -> bool {
        self.per_move.is_none() && self.main.is_zero() && self.overtime == Overtime::None
    }
}

/// The most this move may take without losing on time.
pub fn hard_limit(settings: &TimeSettings, remaining: Duration, stones_left: u32) -> Duration {
    if let Some(t) = settings.per_move {
        return t;
    }
    if stones_left == 0 {
        return remaining
            + match settings.overtime {
                Overtime::None => Duration::ZERO,
                Overtime::ByoYomi { period, .. } => period,
                Overtime::Canadian { period, stones } => period / stones.max(1),
            };
    }
    match settings.overtime {
        Overtime::Canadian { .. } => remaining / stones_left,
        _ => remaining,
    }
}

/// A move's thinking time: stop at `target` when the best move is clear,
/// go on to `max` otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Stop here when the best move is clear.
    pub target: Duration,
    /// Stop here at the latest.
    pub max: Duration,
}

impl Plan {
    /// The search limits of this plan.
    pub fn limits(&self) -> Limits {
        Limits {
            visits: None,
            time: Some(self.max),
            soft_time: Some(self.target),
        }
    }
}

/// Plans the thinking time of one move. `moves_played` are the turns of the
/// game so far and `board_cells` the board's points: our turns left are
/// estimated as half the empty points, at least [`MIN_MOVES_LEFT`].
/// Settings without any clock ([`TimeSettings::is_unlimited`], GTP
/// `time_settings 0 0 0`) have no budget: check that first and search by
/// visits instead.
pub fn plan(
    settings: &TimeSettings,
    remaining: Duration,
    stones_left: u32,
    moves_played: u32,
    board_cells: u32,
    style: TimeUse,
) -> Plan {
    let hard = hard_limit(settings, remaining, stones_left);
    let available = hard.saturating_sub(margin(hard, style));
    // Time this move leaves unused is lost, not kept for the next.
    let use_or_lose = settings.per_move.is_some()
        || stones_left > 0
            && style == TimeUse::Full
            && match settings.overtime {
                Overtime::None => false,
                Overtime::ByoYomi { .. } => true,
                Overtime::Canadian { .. } => stones_left == 1,
            };
    if use_or_lose {
        return Plan {
            target: available,
            max: available,
        };
    }
    let target = if stones_left == 0 {
        let moves_left = (board_cells.saturating_sub(moves_played) / 2).max(MIN_MOVES_LEFT);
        let overtime_share = match settings.overtime {
            Overtime::None => Duration::ZERO,
            Overtime::ByoYomi { period, .. } => period / 2,
            Overtime::Canadian { period, stones } => period / (2 * stones.max(1)),
        };
        remaining / moves_left + overtime_share
    } else {
        available / 2
    };
    let max = (target * MAX_STRETCH).min(available);
    Plan {
        target: target.min(max),
        max,
    }
}

/// The maximum thinking time of this move (see [`plan`]).
pub fn budget(
    settings: &TimeSettings,
    remaining: Duration,
    stones_left: u32,
    moves_played: u32,
    board_cells: u32,
    style: TimeUse,
) -> Duration {
    plan(
        settings,
        remaining,
        stones_left,
        moves_played,
        board_cells,
        style,
    )
    .max
}

/// A player's clock, for keeping time when the controller does not send
/// `time_left` (and for simulating games in tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The time control.
    pub settings: TimeSettings,
    /// Main time left.
    pub main_left: Duration,
    in_overtime: bool,
    period_left: Duration,
    /// Byo-yomi: periods left. Canadian: stones left in this period.
    count_left: u32,
}

impl Clock {
    /// A clock at the start of a game under `settings`.
    pub fn new(settings: TimeSettings) -> Clock {
        Clock {
            settings,
            main_left: settings.main,
            in_overtime: false,
            period_left: Duration::ZERO,
            count_left: 0,
        }
    }

    /// `(remaining, stones_left)` as GTP `time_left` gives them.
    pub fn time_left(&self) -> (Duration, u32) {
        if !self.in_overtime {
            return (self.main_left, 0);
        }
        match self.settings.overtime {
            Overtime::ByoYomi { .. } => (self.period_left, 1),
            _ => (self.period_left, self.count_left),
        }
    }

    /// Charges one move that took `spent`; false when it lost on time.
    pub fn spend(&mut self, mut spent: Duration) -> bool {
        if let Some(t) = self.settings.per_move {
            return spent <= t;
        }
        if !self.in_overtime {
            if spent <= self.main_left {
                self.main_left -= spent;
                return true;
            }
            spent -= self.main_left;
            self.main_left = Duration::ZERO;
            match self.settings.overtime {
                Overtime::None => return false,
                Overtime::ByoYomi { period, periods } => {
                    self.period_left = period;
                    self.count_left = periods;
                }
                Overtime::Canadian { period, stones } => {
                    self.period_left = period;
                    self.count_left = stones.max(1);
                }
            }
            self.in_overtime = true;
        }
        match self.settings.overtime {
            Overtime::None => false,
            Overtime::ByoYomi { period, .. } => {
                // Overrunning a period loses the game here (conservative).
                self.period_left = period;
                spent <= period
            }
            Overtime::Canadian { period, stones } => {
                if spent > self.period_left {
                    return false;
                }
                self.period_left -= spent;
                self.count_left -= 1;
                if self.count_left == 0 {
                    self.period_left = period;
                    self.count_left = stones.max(1);
                }
                true
            }
        }
    }
}
