//! The balance study: self-play of one engine against itself from the
//! rules' start position, counting how often the first player wins.
//!
//! A study cell is one game, board size, rule variant and level of play
//! (seconds per move). Its games are an ordinary tournament of two copies
//! of the engine, named `a@LEVEL` and `b@LEVEL`, so the level travels with
//! every game in the results file and shards merge like any match. Variety
//! comes from the engines' seeds: before each game each engine gets its own
//! seed ([`game_seed`]).
//!
//! Stop rule ([`IntervalStop`]): after at least `min_games` games with a
//! result, a cell stops as soon as the 99% Wilson interval of the first
//! player's share lies wholly above or wholly below one half; otherwise it
//! plays on to its most games.

use std::collections::{BTreeMap, HashSet};

use super::results::GameResult;

/// z of a two-sided 95% interval.
pub const Z95: f64 = 1.959_964;
/// z of a two-sided 99% interval.
pub const Z99: f64 = 2.575_829;

/// The seed of one seat's engine in one game: a SplitMix64 mix of the base
/// seed, the game's index in the schedule and the seat (0: first player).
pub fn game_seed(base: u64, game_index: usize, seat: usize) -> u64 {
    let mut z = base
        .wrapping_add(
            (game_index as u64)
                .wrapping_mul(2)
                .wrapping_add(seat as u64 + 1),
        )
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The Wilson score interval of `wins` successes in `n` trials at `z`;
/// (0, 1) without trials.
pub fn wilson(wins: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = wins as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Stop a cell once its first player's share is clearly away from one half.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntervalStop {
    /// Games with a result before the rule may stop the cell.
    pub min_games: u64,
    /// z of the interval that must leave one half out (e.g. [`Z99`]).
    pub z: f64,
}

impl IntervalStop {
    /// The study's rule: at least 20 games, then the 99% interval.
    pub const STUDY: IntervalStop = IntervalStop {
        min_games: 20,
        z: Z99,
    };

    /// Whether these first-player wins out of `n` games decide the cell.
    pub fn decided_by(&self, first_wins: u64, n: u64) -> bool {
        if n < self.min_games {
            return false;
        }
        let (lo, hi) = wilson(first_wins, n, self.z);
        lo > 0.5 || hi < 0.5
    }

    /// Whether these games decide the cell.
    pub fn decided(&self, results: &[GameResult]) -> bool {
        let (first, second) = first_player_record(results);
        self.decided_by(first, first + second)
    }
}

/// Wins of the first player (seat `b`) and of the second, over the games
/// with a result.
pub fn first_player_record(results: &[GameResult]) -> (u64, u64) {
    let mut first = 0;
    let mut second = 0;
    for r in results {
        match r.winner_seat.as_deref() {
            Some("b") => first += 1,
            Some("w") => second += 1,
            _ => {}
        }
    }
    (first, second)
}

/// The engine names of a cell's two copies: `a@LEVEL`, `b@LEVEL`.
pub fn engine_names(level: &str) -> [String; 2] {
    [format!("a@{level}"), format!("b@{level}")]
}

/// A level of play as written in names: seconds per move without trailing
/// zeros (`0.05`, `0.2`, `1`).
pub fn level_text(seconds: f64) -> String {
    let s = format!("{seconds:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// What identifies a cell.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CellKey {
    pub game: String,
    pub size: usize,
    /// The rule options as in results files (`min_group=5`, `start=open,swap=on`).
    pub rules: String,
    /// Seconds per move, as written in the engines' names.
    pub level: String,
}

impl CellKey {
    /// The cell of one game; `None` for a game that is not balance
    /// self-play (its engines are not `a@LEVEL` and `b@LEVEL`).
    pub fn of(r: &GameResult) -> Option<CellKey> {
        let level = |name: &str| name.split_once('@').map(|(_, l)| l.to_string());
        let (lb, lw) = (level(&r.black)?, level(&r.white)?);
        (lb == lw).then(|| CellKey {
            game: r.game.clone(),
            size: r.size,
            rules: r.rules.clone(),
            level: lb,
        })
    }

    /// The level as a number, for ordering (unparsable levels last).
    pub fn seconds(&self) -> f64 {
        self.level.parse().unwrap_or(f64::INFINITY)
    }
}

/// What a cell's games add up to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CellStats {
    /// Games in the results, with and without a result.
    pub games: u64,
    pub first_wins: u64,
    pub second_wins: u64,
    /// Games stopped by the runner's length cap (no result).
    pub no_result: u64,
    /// Games lost by an engine's fault (crash, time forfeit, ...).
    pub faults: u64,
    /// Games whose whole list of turns no other game of the cell has.
    pub distinct: u64,
    /// Turns played over all games.
    pub turns: u64,
    /// Thinking seconds of both seats over all games.
    pub seconds: f64,
}

impl CellStats {
    /// Adds up a cell's games.
    pub fn of(results: &[&GameResult]) -> CellStats {
        let mut s = CellStats::default();
        let mut seen: HashSet<&[String]> = HashSet::new();
        for r in results {
            s.games += 1;
            match r.winner_seat.as_deref() {
                Some("b") => s.first_wins += 1,
                Some("w") => s.second_wins += 1,
                _ => s.no_result += 1,
            }
            if super::results::FAULTS.contains(&r.reason.as_str()) {
                s.faults += 1;
            }
            if seen.insert(r.turns.as_slice()) {
                s.distinct += 1;
            }
            s.turns += r.turns.len() as u64;
            s.seconds += r.time_used.black + r.time_used.white;
        }
        s
    }

    /// Games with a result.
    pub fn decided(&self) -> u64 {
        self.first_wins + self.second_wins
    }

    /// The first player's share of the games with a result.
    pub fn share(&self) -> Option<f64> {
        let n = self.decided();
        (n > 0).then(|| self.first_wins as f64 / n as f64)
    }

    /// Its 95% Wilson interval.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.first_wins, self.decided(), Z95)
    }
}

/// The cells of a set of results, each with its stats; games that are not
/// balance self-play are left out.
pub fn cells(results: &[GameResult]) -> BTreeMap<CellKey, CellStats> {
    let mut by: BTreeMap<CellKey, Vec<&GameResult>> = BTreeMap::new();
    for r in results {
        if let Some(k) = CellKey::of(r) {
            by.entry(k).or_default().push(r);
        }
    }
    by.into_iter()
        .map(|(k, rs)| (k, CellStats::of(&rs)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::results::TimeUsed;

    fn result(id: &str, level: &str, seat: Option<&str>, turns: &[&str]) -> GameResult {
        let [a, b] = engine_names(level);
        GameResult {
            id: id.into(),
            pair: 0,
            black: a.clone(),
            white: b,
            winner: seat.map(|_| a.clone()),
            winner_seat: seat.map(String::from),
            reason: if seat.is_some() {
                "rules"
            } else {
                "length cap (not a rule)"
            }
            .into(),
            detail: String::new(),
            game: "odd".into(),
            size: 3,
            rules: "min_group=3".into(),
            opening: Vec::new(),
            turns: turns.iter().map(|t| t.to_string()).collect(),
            time_used: TimeUsed {
                black: 1.0,
                white: 0.5,
            },
            finished: 0,
        }
    }

    #[test]
    fn wilson_matches_the_textbook_values() {
        // 8 of 10 at 95%: 0.4902 .. 0.9433.
        let (lo, hi) = wilson(8, 10, Z95);
        assert!((lo - 0.4902).abs() < 1e-3 && (hi - 0.9433).abs() < 1e-3);
        assert_eq!(wilson(0, 0, Z95), (0.0, 1.0));
        let (lo, hi) = wilson(0, 20, Z95);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.1 && hi < 0.2);
    }

    #[test]
    fn the_stop_rule_waits_for_its_games_and_a_clear_interval() {
        let rule = IntervalStop::STUDY;
        // 19 of 19 is clear but too few games.
        assert!(!rule.decided_by(19, 19));
        assert!(rule.decided_by(20, 20));
        assert!(rule.decided_by(0, 20));
        // 15 of 20 (75%): the 99% interval reaches below one half.
        assert!(!rule.decided_by(15, 20));
        // 30 of 40 (75%): it does not.
        assert!(rule.decided_by(30, 40));
        assert!(rule.decided_by(10, 40));
        assert!(!rule.decided_by(100, 200));
    }

    #[test]
    fn seeds_differ_by_game_and_seat() {
        let mut seen = HashSet::new();
        for game in 0..100 {
            for seat in 0..2 {
                assert!(seen.insert(game_seed(1, game, seat)));
            }
        }
        assert_ne!(game_seed(1, 0, 0), game_seed(2, 0, 0));
        assert_eq!(game_seed(7, 3, 1), game_seed(7, 3, 1));
    }

    #[test]
    fn cells_count_wins_repeats_turns_and_time() {
        let rs = vec![
            result("p0.r0.a", "0.05", Some("b"), &["B:A1", "W:B2"]),
            result("p0.r0.b", "0.05", Some("w"), &["B:A1", "W:C2"]),
            result("p0.r1.a", "0.05", Some("b"), &["B:A1", "W:B2"]),
            result("p0.r1.b", "0.05", None, &["B:A1"]),
            result("p0.r0.a", "0.2", Some("b"), &["B:C3"]),
        ];
        let cells = cells(&rs);
        assert_eq!(cells.len(), 2);
        let (key, quick) = cells.iter().next().unwrap();
        assert_eq!(key.level, "0.05");
        assert_eq!(
            (quick.games, quick.first_wins, quick.second_wins),
            (4, 2, 1)
        );
        assert_eq!((quick.no_result, quick.distinct, quick.turns), (1, 3, 7));
        assert_eq!(quick.seconds, 6.0);
        assert_eq!(quick.share(), Some(2.0 / 3.0));
        // A match between other engines is not a cell.
        let mut other = result("p0.r0.a", "0.05", Some("b"), &[]);
        other.black = "fast".into();
        assert!(CellKey::of(&other).is_none());
    }

    #[test]
    fn levels_are_written_without_trailing_zeros() {
        assert_eq!(level_text(0.05), "0.05");
        assert_eq!(level_text(0.2), "0.2");
        assert_eq!(level_text(1.0), "1");
        assert_eq!(engine_names("0.2"), ["a@0.2", "b@0.2"]);
    }
}
