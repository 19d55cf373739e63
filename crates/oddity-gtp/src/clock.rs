//! Clock settings from `time_settings`, `kgs-time_settings` and `time_left`,
//! and the thinking time of one move.

use std::time::Duration;

use oddity_search::time;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    /// False: no clock set (the `time` parameter applies).
    pub enabled: bool,
    /// Main time, seconds.
    pub main: f64,
    /// Byo-yomi period, seconds, for `stones` moves (0 stones: none).
    pub byo: f64,
    pub stones: u32,
    /// Per seat: seconds and stones left, from `time_left`.
    pub left: [Option<(f64, u32)>; 2],
}

impl Clock {
    /// `time_settings main byo stones` (GTP 2): byo > 0 with 0 stones means
    /// no time limit.
    pub fn settings(main: f64, byo: f64, stones: u32) -> Clock {
        let enabled = !(byo > 0.0 && stones == 0);
        Clock {
            enabled,
            main,
            byo: if stones == 0 { 0.0 } else { byo },
            stones,
            left: [None, None],
        }
    }

    pub fn none() -> Clock {
        Clock::default()
    }

    /// Whether a clock is set (else the `time` parameter applies).
    pub fn is_set(&self) -> bool {
        self.enabled
    }

    /// `time_left`: the seconds and stones left to `seat` (0 black, 1
    /// white).
    pub fn set_left(&mut self, seat: usize, secs: f64, stones: u32) {
        self.left[seat] = Some((secs.max(0.0), stones));
    }

    /// Forgets what `time_left` said (a new game).
    pub fn forget_left(&mut self) {
        self.left = [None, None];
    }

    /// Thinking time of `seat` (0 black, 1 white) as (target, hard limit),
    /// planned by [`oddity_search::time::plan`]; `None` when no clock is set.
    pub fn budget(
        &self,
        seat: usize,
        moves_played: u32,
        board_cells: u32,
        style: time::TimeUse,
    ) -> Option<(Duration, Duration)> {
        if !self.enabled {
            return None;
        }
        let secs = |x: f64| Duration::from_secs_f64(x.max(0.0));
        let settings = time::TimeSettings {
            main: secs(self.main),
            overtime: if self.stones > 0 && self.byo > 0.0 {
                time::Overtime::Canadian {
                    period: secs(self.byo),
                    stones: self.stones,
                }
            } else {
                time::Overtime::None
            },
            per_move: None,
        };
        let (remaining, stones) = match self.left[seat] {
            Some(l) => l,
            None if self.main > 0.0 => (self.main, 0),
            None => (self.byo, self.stones),
        };
        let plan = time::plan(
            &settings,
            secs(remaining),
            stones,
            moves_played,
            board_cells,
            style,
        );
        let floor = Duration::from_millis(10);
        Some((plan.target.max(floor), plan.max.max(floor)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_never_exceed_what_is_left() {
        let c = Clock::settings(0.0, 1.0, 0);
        assert_eq!(c.budget(0, 0, 61, time::TimeUse::Full), None);
        let mut c = Clock::settings(60.0, 0.0, 0);
        assert!(c.budget(0, 0, 61, time::TimeUse::Full).unwrap().1 <= Duration::from_secs(20));
        c.set_left(1, 0.5, 0);
        assert!(c.budget(1, 0, 61, time::TimeUse::Full).unwrap().1 < Duration::from_millis(500));
        let mut c = Clock::settings(0.0, 10.0, 5);
        assert!(c.budget(0, 0, 61, time::TimeUse::Full).unwrap().1 <= Duration::from_secs(2));
        c.set_left(0, 3.0, 1);
        assert!(c.budget(0, 0, 61, time::TimeUse::Full).unwrap().1 < Duration::from_secs(3));
        c.forget_left();
        assert!(c.budget(0, 0, 61, time::TimeUse::Full).unwrap().1 <= Duration::from_secs(2));
    }
}
