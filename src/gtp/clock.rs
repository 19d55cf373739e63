//! Clock settings from `time_settings`, `kgs-time_settings` and `time_left`,
//! and the thinking time of one move.

use std::time::Duration;

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

    /// Thinking time for `seat` (0 black, 1 white) when about `turns_left`
    /// of its own turns may still come; `None` when no clock is set.
    pub fn budget(&self, seat: usize, turns_left: u32) -> Option<Duration> {
        if !self.enabled {
            return None;
        }
        let (remaining, stones) = match self.left[seat] {
            Some(l) => l,
            None if self.main > 0.0 => (self.main, 0),
            None => (self.byo, self.stones),
        };
        // Keep a margin for the controller and the pipes.
        let margin = 0.1 + 0.05 * remaining.min(20.0);
        let secs = if stones > 0 {
            (remaining - margin) / stones as f64
        } else {
            let mut t = remaining / turns_left.max(10) as f64;
            if self.byo > 0.0 && self.stones > 0 {
                t += 0.5 * self.byo / self.stones as f64;
            }
            let cap = if self.byo > 0.0 && self.stones > 0 {
                remaining + 0.5 * self.byo / self.stones as f64 - margin
            } else {
                0.4 * remaining - margin
            };
            t.min(cap)
        };
        Some(Duration::from_secs_f64(secs.max(0.01)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_never_exceed_what_is_left() {
        let c = Clock::settings(0.0, 1.0, 0);
        assert_eq!(c.budget(0, 30), None);
        let mut c = Clock::settings(60.0, 0.0, 0);
        assert!(c.budget(0, 30).unwrap() <= Duration::from_secs(6));
        c.left[1] = Some((0.5, 0));
        assert!(c.budget(1, 30).unwrap() < Duration::from_millis(500));
        let mut c = Clock::settings(0.0, 10.0, 5);
        assert!(c.budget(0, 30).unwrap() < Duration::from_secs(2));
        c.left[0] = Some((3.0, 1));
        assert!(c.budget(0, 30).unwrap() < Duration::from_secs(3));
    }
}
