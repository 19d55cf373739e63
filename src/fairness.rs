//! What the balance study found for each board and rule variant, as the
//! engine tells its users (`oddity --help`, the GUI's new-game form). The
//! study's summary, `docs/balance/summary.tsv`, is written by `oddity
//! balance --report ... --summary` from the kept games and built into the
//! binary; `tests/balance.rs` checks that it is the summary of the kept
//! games as they stand.

use std::sync::OnceLock;

/// The committed summary.
const SUMMARY: &str = include_str!("../docs/balance/summary.tsv");

/// The fewest games with a result that a level must have to stand for a
/// board (the study's stop rule plays at least as many before deciding).
pub const LEAST_GAMES: u64 = 20;

/// One line of the summary: a proven board, or one level of play of a
/// board with the first player's record there.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub game: String,
    pub size: usize,
    /// Rule options as in results files: `min_group=5`,
    /// `start=open,swap=on`, or empty.
    pub rules: String,
    /// Seconds per move (`0.05`), or `proven`.
    pub level: String,
    pub first_wins: u64,
    pub second_wins: u64,
    /// The first player's share and its 95% interval (1 or 0 when proven).
    pub share: f64,
    pub low: f64,
    pub high: f64,
}

/// Who a finding says wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    First,
    Second,
    /// The 95% interval holds one half: as even as the games can tell.
    Unclear,
}

impl Finding {
    pub fn proven(&self) -> bool {
        self.level == "proven"
    }

    fn seconds(&self) -> f64 {
        self.level.parse().unwrap_or(f64::INFINITY)
    }

    pub fn games(&self) -> u64 {
        self.first_wins + self.second_wins
    }

    pub fn verdict(&self) -> Verdict {
        if self.low > 0.5 {
            Verdict::First
        } else if self.high < 0.5 {
            Verdict::Second
        } else {
            Verdict::Unclear
        }
    }

    /// A rule option's value (`min_group` -> `5`).
    pub fn rule(&self, name: &str) -> Option<&str> {
        self.rules
            .split(',')
            .filter_map(|item| item.split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v)
    }

    pub fn min_group(&self) -> Option<usize> {
        self.rule("min_group").and_then(|m| m.parse().ok())
    }

    /// The finding in words: `the first player wins 85.0% (64.0-94.8%) of
    /// 20 games at 0.8 s per move`.
    pub fn describe(&self) -> String {
        if self.proven() {
            let who = if self.share > 0.5 { "first" } else { "second" };
            return format!("proven: the {who} player wins");
        }
        let side = match self.verdict() {
            Verdict::First => "favours the first player",
            Verdict::Second => "favours the second player",
            Verdict::Unclear => "even as far as the games tell",
        };
        format!(
            "the first player wins {:.1}% ({:.1}-{:.1}%) of {} games at {} s per move: {side}",
            100.0 * self.share,
            100.0 * self.low,
            100.0 * self.high,
            self.games(),
            self.level
        )
    }

    /// One summary line (tab-separated).
    pub fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{:.4}\t{:.4}\t{:.4}",
            self.game,
            self.size,
            if self.rules.is_empty() {
                "-"
            } else {
                &self.rules
            },
            self.level,
            self.first_wins,
            self.second_wins,
            self.share,
            self.low,
            self.high
        )
    }

    fn parse(line: &str) -> Result<Finding, String> {
        let f: Vec<&str> = line.split('\t').collect();
        let [game, size, rules, level, first, second, share, low, high] = f[..] else {
            return Err(format!("'{line}': expected 9 tab-separated fields"));
        };
        let number = |s: &str| s.parse::<f64>().map_err(|_| format!("'{s}' in '{line}'"));
        let count = |s: &str| s.parse::<u64>().map_err(|_| format!("'{s}' in '{line}'"));
        Ok(Finding {
            game: game.to_string(),
            size: size.parse().map_err(|_| format!("'{size}' in '{line}'"))?,
            rules: if rules == "-" { "" } else { rules }.to_string(),
            level: level.to_string(),
            first_wins: count(first)?,
            second_wins: count(second)?,
            share: number(share)?,
            low: number(low)?,
            high: number(high)?,
        })
    }
}

/// The header of a summary file: its columns.
pub const HEADER: &str =
    "# game\tsize\trules\tlevel\tfirst wins\tsecond wins\tfirst share\t95% low\t95% high";

/// Reads a summary: one finding a line, `#` lines are comments.
pub fn parse(text: &str) -> Result<Vec<Finding>, String> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(Finding::parse)
        .collect()
}

/// The findings built into the engine.
pub fn findings() -> &'static [Finding] {
    static FINDINGS: OnceLock<Vec<Finding>> = OnceLock::new();
    // The file is checked by the tests, so a bad line cannot ship; were one
    // to, the engine would say nothing rather than something wrong.
    FINDINGS.get_or_init(|| parse(SUMMARY).unwrap_or_default())
}

/// What stands for a board: its proof, else its strongest level of play
/// with at least [`LEAST_GAMES`] games, else its strongest level.
pub fn standing<'a>(
    findings: &'a [Finding],
    game: &str,
    size: usize,
    rules: &str,
) -> Option<&'a Finding> {
    let of_board: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.game == game && f.size == size && f.rules == rules)
        .collect();
    if let Some(p) = of_board.iter().find(|f| f.proven()) {
        return Some(p);
    }
    let strongest = |enough: bool| {
        of_board
            .iter()
            .filter(|f| !enough || f.games() >= LEAST_GAMES)
            .max_by(|a, b| a.seconds().total_cmp(&b.seconds()))
            .copied()
    };
    strongest(true).or_else(|| strongest(false))
}

/// The standing of every board of a game and size, one per rule variant.
pub fn standings<'a>(findings: &'a [Finding], game: &str, size: usize) -> Vec<&'a Finding> {
    let mut variants: Vec<&str> = findings
        .iter()
        .filter(|f| f.game == game && f.size == size)
        .map(|f| f.rules.as_str())
        .collect();
    variants.sort();
    variants.dedup();
    let mut out: Vec<&Finding> = variants
        .into_iter()
        .filter_map(|rules| standing(findings, game, size, rules))
        .collect();
    out.sort_by(|a, b| (a.min_group(), &a.rules).cmp(&(b.min_group(), &b.rules)));
    out
}

/// Of a game and size, the rule variants closest to even: among those
/// whose standing is not decided for either player, the ones played at
/// the strongest level (weak play brings large boards near one half by
/// chance), and of those the ones whose first player's share is nearest
/// one half. Empty where every variant is proven or decided.
pub fn closest_to_even<'a>(findings: &'a [Finding], game: &str, size: usize) -> Vec<&'a Finding> {
    let undecided: Vec<&Finding> = standings(findings, game, size)
        .into_iter()
        .filter(|f| !f.proven() && f.verdict() == Verdict::Unclear)
        .collect();
    let Some(strongest) = undecided.iter().map(|f| f.seconds()).max_by(f64::total_cmp) else {
        return Vec::new();
    };
    let open: Vec<&Finding> = undecided
        .into_iter()
        .filter(|f| f.seconds() == strongest)
        .collect();
    let distance = |f: &Finding| (f.share - 0.5).abs();
    let Some(best) = open.iter().map(|f| distance(f)).min_by(f64::total_cmp) else {
        return Vec::new();
    };
    open.into_iter()
        .filter(|f| distance(f) <= best + 1e-9)
        .collect()
}

/// For `--min-group`'s help: per Odd side of the study, the smallest
/// groups closest to even, or how the proven or decided ones fall.
pub fn min_group_help(findings: &[Finding]) -> String {
    let mut sides: Vec<usize> = findings
        .iter()
        .filter(|f| f.game == "odd")
        .map(|f| f.size)
        .collect();
    sides.sort();
    sides.dedup();
    let mut out = String::from(
        "Odd: the smallest group that counts (default: the board side).\n\n\
         The balance study (docs/balance.md: the default engine against itself; 0.05 s per move \
         is weak play, where large boards come out near even by chance) finds, per side:",
    );
    for side in sides {
        let even = closest_to_even(findings, "odd", side);
        let text = if even.is_empty() {
            let all = standings(findings, "odd", side);
            let with = |v: Verdict| -> Vec<String> {
                all.iter()
                    .filter(|f| f.verdict() == v)
                    .filter_map(|f| f.min_group().map(|m| m.to_string()))
                    .collect()
            };
            let proven = all.iter().all(|f| f.proven());
            format!(
                "no m even{}; the first player wins with m = {}, the second with m = {}",
                if proven { " (proven)" } else { "" },
                list_or_none(&with(Verdict::First)),
                list_or_none(&with(Verdict::Second))
            )
        } else {
            let ms: Vec<String> = even
                .iter()
                .filter_map(|f| f.min_group().map(|m| m.to_string()))
                .collect();
            let f = even[0];
            let mut text = format!(
                "closest to even m = {} (first player {:.0}% of {} games at {} s per move)",
                alternatives(&ms),
                100.0 * f.share,
                f.games(),
                f.level
            );
            let default = standing(findings, "odd", side, &format!("min_group={side}"));
            if let Some(d) = default.filter(|d| !even.contains(d)) {
                text.push_str(&format!(
                    "; the default m = {side}: first player {:.0}% of {} games at {} s per move",
                    100.0 * d.share,
                    d.games(),
                    d.level
                ));
            }
            text
        };
        out.push_str(&format!("\n  side {side}: {text}"));
    }
    out
}

/// `4`, `4 or 9`, `6, 10 or 11`.
fn alternatives(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(size: usize, m: usize, level: &str, first: u64, second: u64) -> Finding {
        let n = (first + second) as f64;
        let share = first as f64 / n;
        // A rough interval, enough for the verdicts below.
        let half = 2.0 * (share * (1.0 - share) / n).sqrt().max(0.05);
        Finding {
            game: "odd".into(),
            size,
            rules: format!("min_group={m}"),
            level: level.into(),
            first_wins: first,
            second_wins: second,
            share,
            low: (share - half).max(0.0),
            high: (share + half).min(1.0),
        }
    }

    fn even_min_groups(all: &[Finding], side: usize) -> Vec<Option<usize>> {
        closest_to_even(all, "odd", side)
            .iter()
            .map(|f| f.min_group())
            .collect()
    }

    #[test]
    fn the_built_in_summary_reads() {
        assert!(parse(SUMMARY).is_ok());
        assert!(!findings().is_empty());
    }

    #[test]
    fn lines_read_back() {
        let f = finding(5, 5, "0.8", 17, 3);
        let back = parse(&f.line()).unwrap();
        assert_eq!(back[0].first_wins, 17);
        assert_eq!(back[0].rules, "min_group=5");
        assert!(parse("odd\t5\tmin_group=5\t0.8\t17").is_err());
        assert!(parse("odd\tfive\t-\t0.8\t1\t1\t0.5\t0.1\t0.9").is_err());
    }

    #[test]
    fn the_strongest_level_with_enough_games_stands() {
        let all = vec![
            finding(5, 5, "0.05", 93, 107),
            finding(5, 5, "0.2", 69, 41),
            finding(5, 5, "0.8", 10, 5),
            finding(5, 4, "0.05", 54, 46),
            finding(5, 9, "0.05", 46, 54),
            finding(5, 10, "0.05", 15, 34),
        ];
        let s = standing(&all, "odd", 5, "min_group=5").unwrap();
        assert_eq!(s.level, "0.2");
        assert_eq!(s.verdict(), Verdict::First);
        assert_eq!(even_min_groups(&all, 5), vec![Some(4), Some(9)]);
        let help = min_group_help(&all);
        assert!(
            help.contains("side 5: closest to even m = 4 or 9"),
            "{help}"
        );
        assert!(
            help.contains("the default m = 5: first player 63% of 110 games at 0.2 s"),
            "{help}"
        );
    }

    #[test]
    fn a_stronger_level_outranks_a_nearer_share_at_a_weaker_one() {
        let all = vec![
            finding(8, 6, "0.05", 50, 50),
            finding(8, 8, "0.2", 54, 46),
            finding(8, 14, "0.2", 49, 51),
            finding(8, 16, "0.05", 56, 31),
        ];
        assert_eq!(even_min_groups(&all, 8), vec![Some(14)]);
        let help = min_group_help(&all);
        assert!(
            help.contains("side 8: closest to even m = 14 (first player 49% of 100 games at 0.2 s"),
            "{help}"
        );
    }

    #[test]
    fn a_side_without_an_even_variant_says_how_it_falls() {
        let all = vec![finding(4, 5, "0.05", 58, 32), finding(4, 6, "0.05", 5, 16)];
        assert!(closest_to_even(&all, "odd", 4).is_empty());
        let help = min_group_help(&all);
        assert!(
            help.contains(
                "side 4: no m even; the first player wins with m = 5, the second with m = 6"
            ),
            "{help}"
        );
    }
}
