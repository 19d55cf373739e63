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
//! The decision rule ([`DecisionRule`], docs/balance.md "The decision
//! rule") reads a cell's games in schedule order and says who wins, if
//! anyone: the cell's runner stops where it decides, and the report applies
//! the same rule to every cell.

use std::collections::{BTreeMap, HashSet};

use super::results::GameResult;
use oddity_fairness::Verdict;
use oddity_rules::GameKind;

/// z of a two-sided 95% interval.
pub const Z95: f64 = 1.959_964;
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

/// The study's decision rule: after n games with a result (20 <= n <=
/// 200), of which the first player won W and lost L, the first player wins
/// the cell as soon as W - L >= c sqrt(n), the second as soon as L - W >= c
/// sqrt(n); a cell that reaches neither by its 200th game is not decided.
/// c = 3.31 is the least constant, in hundredths, whose chance of a verdict
/// on a cell whose true share is one half is at most 1% ([`Self::chances`]
/// computes it exactly: 0.98%).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecisionRule {
    /// Games with a result read before the rule may decide.
    pub min_games: u64,
    /// Games with a result read at most; the rule reads none after them.
    pub max_games: u64,
    /// The boundary's constant c, in hundredths.
    pub c_hundredths: u64,
}

/// What the rule reads in a cell's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    pub verdict: Verdict,
    /// Games read: up to and including the one that decided, else every
    /// game with a result up to the rule's most.
    pub first: u64,
    pub second: u64,
}

impl Reading {
    pub fn games(&self) -> u64 {
        self.first + self.second
    }
}

/// The exact chances of the rule's outcomes when every game is a
/// first-player win with the same chance, independently.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chances {
    pub first: f64,
    pub second: f64,
    /// The expected number of games read.
    pub games: f64,
}

impl DecisionRule {
    /// The study's rule.
    pub const STUDY: DecisionRule = DecisionRule {
        min_games: 20,
        max_games: 200,
        c_hundredths: 331,
    };

    /// The verdict reached after `n` games of which the first player won
    /// `first_wins`, if any. Exact: (W - L)^2 against c^2 n in integers.
    pub fn at(&self, first_wins: u64, n: u64) -> Option<Verdict> {
        if n < self.min_games || n > self.max_games || first_wins > n {
            return None;
        }
        let lead = 2 * first_wins as i128 - n as i128;
        let reached = 10_000 * lead * lead >= (self.c_hundredths as i128).pow(2) * n as i128;
        match (reached, lead.signum()) {
            (true, 1) => Some(Verdict::First),
            (true, -1) => Some(Verdict::Second),
            _ => None,
        }
    }

    /// The least first-player wins of `n` games that decide for the first
    /// player (by symmetry, `n` minus it is the most that decide for the
    /// second); `None` where the rule does not decide after `n` games.
    pub fn threshold(&self, n: u64) -> Option<u64> {
        (0..=n).find(|&w| self.at(w, n) == Some(Verdict::First))
    }

    /// Reads a cell's games with a result in schedule order (`true`: a
    /// first-player win) up to the first verdict or the rule's most games.
    pub fn read(&self, outcomes: impl IntoIterator<Item = bool>) -> Reading {
        let (mut first, mut second) = (0, 0);
        for won in outcomes.into_iter().take(self.max_games as usize) {
            if won {
                first += 1;
            } else {
                second += 1;
            }
            if let Some(verdict) = self.at(first, first + second) {
                return Reading {
                    verdict,
                    first,
                    second,
                };
            }
        }
        Reading {
            verdict: Verdict::Undecided,
            first,
            second,
        }
    }

    /// The rule's outcomes, exactly, when each game is a first-player win
    /// with chance `p`: the distribution of wins is carried game by game and
    /// the part that reaches a verdict taken out.
    pub fn chances(&self, p: f64) -> Chances {
        let mut open = vec![1.0];
        let (mut first, mut second, mut games) = (0.0, 0.0, 0.0);
        for n in 1..=self.max_games {
            let mut next = vec![0.0; open.len() + 1];
            for (w, &q) in open.iter().enumerate() {
                next[w] += q * (1.0 - p);
                next[w + 1] += q * p;
            }
            for (w, q) in next.iter_mut().enumerate() {
                match self.at(w as u64, n) {
                    Some(Verdict::First) => first += *q,
                    Some(Verdict::Second) => second += *q,
                    _ => continue,
                }
                games += n as f64 * *q;
                *q = 0.0;
            }
            open = next;
        }
        games += self.max_games as f64 * open.iter().sum::<f64>();
        Chances {
            first,
            second,
            games,
        }
    }
}

/// Whether a game counts for the rule: it has a result, and no engine lost
/// it by a fault (a time forfeit, a crash ...), which says nothing of who
/// wins the position. `Some(true)`: a first-player win.
pub fn counted_outcome(r: &GameResult) -> Option<bool> {
    if super::results::FAULTS.contains(&r.reason.as_str()) {
        return None;
    }
    match r.winner_seat.as_deref() {
        Some("b") => Some(true),
        Some("w") => Some(false),
        _ => None,
    }
}

/// The schedule order of a cell's games: by pair, the pair's `a` game
/// first. The rule reads games in this order, whatever order they were
/// written in.
pub fn schedule_order(a: &GameResult, b: &GameResult) -> std::cmp::Ordering {
    (a.pair, &a.id).cmp(&(b.pair, &b.id))
}

/// Reads a cell's games: sorted into schedule order, faults and games
/// without a result left out.
pub fn read_cell(rule: &DecisionRule, results: &[&GameResult]) -> Reading {
    let mut games: Vec<&GameResult> = results.to_vec();
    games.sort_by(|a, b| schedule_order(a, b));
    rule.read(games.iter().filter_map(|r| counted_outcome(r)))
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
            game: r.game.name().to_string(),
            size: r.size,
            rules: r.rules.clone(),
            level: lb,
        })
    }

    /// The cell's game (`None` for a name that is none of the games).
    pub fn kind(&self) -> Option<GameKind> {
        GameKind::parse(&self.game)
    }

    /// The level as a number, for ordering (unparsable levels last).
    pub fn seconds(&self) -> f64 {
        self.level.parse().unwrap_or(f64::INFINITY)
    }
}

/// The build of a game's engines as its record names them: the one build
/// of both seats, both when they differ, `unrecorded` without one.
pub fn game_build(r: &GameResult) -> String {
    match (&r.black_build, &r.white_build) {
        (Some(b), Some(w)) if b == w => b.clone(),
        (None, None) => "unrecorded".into(),
        (b, w) => format!(
            "{} against {}",
            b.as_deref().unwrap_or("unrecorded"),
            w.as_deref().unwrap_or("unrecorded")
        ),
    }
}

/// What a cell's games add up to, and what the rule reads in them.
#[derive(Clone, Debug, PartialEq)]
pub struct CellStats {
    /// Games in the results, with and without a result.
    pub games: u64,
    /// Games stopped by the runner's length cap (no result).
    pub no_result: u64,
    /// Games lost by an engine's fault, by reason (`time forfeit` ...):
    /// left out of the rule and the shares.
    pub faults: BTreeMap<String, u64>,
    /// The rule's reading of the other games, in schedule order.
    pub reading: Reading,
    /// Games the rule counts but did not read: played after its verdict
    /// or past its most games.
    pub unread: u64,
    /// Games whose whole list of turns no other game of the cell has.
    pub distinct: u64,
    /// Turns played over all games.
    pub turns: u64,
    /// Thinking seconds of both seats over all games.
    pub seconds: f64,
    /// Games by the build that played them ([`game_build`]).
    pub builds: BTreeMap<String, u64>,
}

impl CellStats {
    /// Adds up a cell's games and reads them by `rule`.
    pub fn of(rule: &DecisionRule, results: &[&GameResult]) -> CellStats {
        let mut s = CellStats {
            games: 0,
            no_result: 0,
            faults: BTreeMap::new(),
            reading: read_cell(rule, results),
            unread: 0,
            distinct: 0,
            turns: 0,
            seconds: 0.0,
            builds: BTreeMap::new(),
        };
        let mut seen: HashSet<&[String]> = HashSet::new();
        let mut counted = 0;
        for r in results {
            s.games += 1;
            if super::results::FAULTS.contains(&r.reason.as_str()) {
                *s.faults.entry(r.reason.clone()).or_default() += 1;
            } else if r.winner_seat.is_none() {
                s.no_result += 1;
            } else {
                counted += 1;
            }
            if seen.insert(r.turns.as_slice()) {
                s.distinct += 1;
            }
            s.turns += r.turns.len() as u64;
            s.seconds += r.time_used.black + r.time_used.white;
            *s.builds.entry(game_build(r)).or_default() += 1;
        }
        s.unread = counted - s.reading.games();
        s
    }

    /// Games lost by a fault.
    pub fn fault_count(&self) -> u64 {
        self.faults.values().sum()
    }

    /// The first player's share of the games the rule read.
    pub fn share(&self) -> Option<f64> {
        let n = self.reading.games();
        (n > 0).then(|| self.reading.first as f64 / n as f64)
    }

    /// Its 95% Wilson interval (not widened for the rule's looks: the
    /// verdict is the rule's, the interval describes the games read).
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.reading.first, self.reading.games(), Z95)
    }
}

/// The cells of a set of results, each with its stats read by `rule`;
/// games that are not balance self-play are left out.
pub fn cells(rule: &DecisionRule, results: &[GameResult]) -> BTreeMap<CellKey, CellStats> {
    let mut by: BTreeMap<CellKey, Vec<&GameResult>> = BTreeMap::new();
    for r in results {
        if let Some(k) = CellKey::of(r) {
            by.entry(k).or_default().push(r);
        }
    }
    by.into_iter()
        .map(|(k, rs)| (k, CellStats::of(rule, &rs)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::TimeUsed;

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
            game: GameKind::Odd,
            size: 3,
            rules: "min_group=3".into(),
            opening: Vec::new(),
            turns: turns.iter().map(|t| t.to_string()).collect(),
            time_used: TimeUsed {
                black: 1.0,
                white: 0.5,
            },
            finished: 0,
            black_build: None,
            white_build: None,
            command: None,
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
    fn the_rule_decides_where_the_lead_reaches_c_sqrt_n() {
        let rule = DecisionRule::STUDY;
        // Before 20 games nothing decides; at 20, 18-2 (lead 16 >= 3.31 x
        // 4.47 = 14.8) does and 17-3 (lead 14) does not.
        assert_eq!(rule.at(19, 19), None);
        assert_eq!(rule.threshold(19), None);
        assert_eq!(rule.at(18, 20), Some(Verdict::First));
        assert_eq!(rule.at(2, 20), Some(Verdict::Second));
        assert_eq!(rule.at(17, 20), None);
        assert_eq!(rule.threshold(20), Some(18));
        assert_eq!(rule.threshold(100), Some(67));
        // 124-76 of 200: lead 48 >= 46.8; 123-77 (46) is not enough.
        assert_eq!(rule.threshold(200), Some(124));
        assert_eq!(rule.at(124, 201), None);
    }

    #[test]
    fn a_reading_stops_at_the_first_verdict_or_the_most_games() {
        let rule = DecisionRule::STUDY;
        // 20 first-player wins decide at the 20th; the games after are
        // not read.
        let r = rule.read(std::iter::repeat_n(true, 25));
        assert_eq!((r.verdict, r.first, r.second), (Verdict::First, 20, 0));
        // Alternating wins never decide; 200 games are read of 300.
        let r = rule.read((0..300).map(|i| i % 2 == 0));
        assert_eq!((r.verdict, r.games()), (Verdict::Undecided, 200));
        // A second-player lead that comes late: 30-30, then 15 second wins.
        let late = (0..60)
            .map(|i| i % 2 == 0)
            .chain(std::iter::repeat_n(false, 40));
        let r = rule.read(late);
        assert_eq!(r.verdict, Verdict::Second);
        assert_eq!(rule.at(r.first, r.games()), Some(Verdict::Second));
        assert_eq!(rule.at(r.first, r.games() - 1), None);
    }

    #[test]
    fn the_chances_are_those_of_every_sequence_of_games() {
        // A small rule, checked against all 2^12 sequences of 12 games.
        let rule = DecisionRule {
            min_games: 4,
            max_games: 12,
            c_hundredths: 150,
        };
        for p in [0.5f64, 0.7] {
            let (mut first, mut second, mut games) = (0.0, 0.0, 0.0);
            for bits in 0u32..1 << 12 {
                let outcomes = (0..12).map(|i| bits >> i & 1 == 1);
                let wins = bits.count_ones() as i32;
                let chance = p.powi(wins) * (1.0 - p).powi(12 - wins);
                let r = rule.read(outcomes);
                match r.verdict {
                    Verdict::First => first += chance,
                    Verdict::Second => second += chance,
                    Verdict::Undecided => {}
                }
                games += chance * r.games() as f64;
            }
            let c = rule.chances(p);
            assert!((c.first - first).abs() < 1e-12, "{p}: {c:?} vs {first}");
            assert!((c.second - second).abs() < 1e-12, "{p}: {c:?} vs {second}");
            assert!((c.games - games).abs() < 1e-9, "{p}: {c:?} vs {games}");
        }
    }

    #[test]
    fn the_studys_rule_errs_on_at_most_one_even_cell_in_a_hundred() {
        let even = DecisionRule::STUDY.chances(0.5);
        assert!((even.first - even.second).abs() < 1e-12);
        let error = even.first + even.second;
        assert!((error - 0.009_840).abs() < 1e-5, "{error}");
        // 3.31 is the least c in hundredths that keeps it at most 1%.
        let looser = DecisionRule {
            c_hundredths: 330,
            ..DecisionRule::STUDY
        };
        let c = looser.chances(0.5);
        assert!(c.first + c.second > 0.01);
        // The chance of a first-player verdict grows with the true share,
        // so a cell that leans to the second player is given to the first
        // less often than an even one.
        assert!(DecisionRule::STUDY.chances(0.45).first < even.first);
        assert!(DecisionRule::STUDY.chances(0.7).first > 0.99);
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
    fn cells_count_wins_faults_repeats_turns_and_time() {
        let mut rs = vec![
            result("p1.r1.a", "0.05", Some("b"), &["B:A1", "W:B2"]),
            result("p0.r0.b", "0.05", Some("w"), &["B:A1", "W:C2"]),
            result("p0.r0.a", "0.05", Some("b"), &["B:A1", "W:B2"]),
            result("p1.r1.b", "0.05", None, &["B:A1"]),
            result("p2.r2.a", "0.05", Some("w"), &["B:D4"]),
            result("p0.r0.a", "0.2", Some("b"), &["B:C3"]),
        ];
        rs[0].pair = 1;
        rs[3].pair = 1;
        rs[4].pair = 2;
        // A time forfeit: counted, named, left out of the reading.
        rs[4].reason = "time forfeit".into();
        let cells = cells(&DecisionRule::STUDY, &rs);
        assert_eq!(cells.len(), 2);
        let (key, quick) = cells.iter().next().unwrap();
        assert_eq!(key.level, "0.05");
        assert_eq!(quick.games, 5);
        let r = quick.reading;
        assert_eq!((r.first, r.second, r.verdict), (2, 1, Verdict::Undecided));
        assert_eq!(quick.no_result, 1);
        assert_eq!(quick.faults.get("time forfeit"), Some(&1));
        assert_eq!((quick.distinct, quick.turns, quick.unread), (4, 8, 0));
        assert_eq!(quick.seconds, 7.5);
        assert_eq!(quick.share(), Some(2.0 / 3.0));
        assert_eq!(quick.builds.get("unrecorded"), Some(&5));
        // A match between other engines is not a cell.
        let mut other = result("p0.r0.a", "0.05", Some("b"), &[]);
        other.black = "fast".into();
        assert!(CellKey::of(&other).is_none());
    }

    #[test]
    fn a_cell_is_read_in_schedule_order() {
        // 20 first-player wins in pairs 0-9, then 5 second-player wins in
        // pairs 10-12, written in reverse: the rule decides at the 20th
        // game of the schedule and leaves the later 5 unread.
        let mut rs = Vec::new();
        for k in 0..25u32 {
            let seat = if k < 20 { "b" } else { "w" };
            let id = format!("p0.r{}.{}", k / 2, if k % 2 == 0 { 'a' } else { 'b' });
            let mut r = result(&id, "0.2", Some(seat), &[]);
            r.pair = (k / 2) as usize;
            r.turns = vec![format!("B:{k}")];
            rs.push(r);
        }
        rs.reverse();
        let cell = cells(&DecisionRule::STUDY, &rs)
            .into_values()
            .next()
            .unwrap();
        assert_eq!(cell.reading.verdict, Verdict::First);
        assert_eq!(
            (cell.reading.first, cell.reading.second, cell.unread),
            (20, 0, 5)
        );
    }

    #[test]
    fn a_games_build_names_both_seats_where_they_differ() {
        let mut r = result("p0.r0.a", "0.2", Some("b"), &[]);
        assert_eq!(game_build(&r), "unrecorded");
        r.black_build = Some("oddity 0.1.0 (abc1234)".into());
        r.white_build = r.black_build.clone();
        assert_eq!(game_build(&r), "oddity 0.1.0 (abc1234)");
        r.white_build = None;
        assert_eq!(game_build(&r), "oddity 0.1.0 (abc1234) against unrecorded");
    }

    #[test]
    fn levels_are_written_without_trailing_zeros() {
        assert_eq!(level_text(0.05), "0.05");
        assert_eq!(level_text(0.2), "0.2");
        assert_eq!(level_text(1.0), "1");
        assert_eq!(engine_names("0.2"), ["a@0.2", "b@0.2"]);
    }
}
