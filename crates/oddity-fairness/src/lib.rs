//! What the balance study found for each board and rule variant, as the
//! engine tells its users (`oddity --help`, the GUI's new-game form). The
//! study's summary, `docs/balance/summary.tsv`, is written by `oddity
//! balance --report ... --summary` from the kept games and built into the
//! binary; `tests/balance.rs` checks that it is the summary of the kept
//! games as they stand. Every verdict in it is the study's decision rule's
//! (docs/balance.md, "The decision rule"); a share that leans one way
//! without a verdict is said to lean, not to win.
//!
//! A crate of its own, on nothing else, so that every page that offers a
//! new game (`oddity gui` and the static page in the browser) says the
//! same as `oddity --help`.

#![warn(missing_docs)]

use std::sync::OnceLock;

use oddity_rules::GameKind;

/// The committed summary.
const SUMMARY: &str = include_str!("../../../docs/balance/summary.tsv");

/// Who the study's decision rule says wins a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The first player wins.
    First,
    /// The second player wins.
    Second,
    /// Neither, so far or at the rule's last game.
    Undecided,
}

/// One line of the summary: a proven board, or one level of play of a
/// board with what the rule read there.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The game.
    pub game: GameKind,
    /// The board's size.
    pub size: usize,
    /// Rule options as in results files: `min_group=5`,
    /// `start=open,swap=on`, or empty.
    pub rules: String,
    /// Seconds per move (`0.05`), or `proven`.
    pub level: String,
    /// The games the rule read (up to its verdict, else up to its most)
    /// that the first player won.
    pub first_wins: u64,
    /// Those the second player won.
    pub second_wins: u64,
    /// The first player's share of them (1 or 0 when proven).
    pub share: f64,
    /// The low end of the share's 95% interval.
    pub low: f64,
    /// Its high end.
    pub high: f64,
    /// What the decision rule says.
    pub verdict: Verdict,
    /// Decided, or read to the rule's most games without a verdict: the
    /// cell is finished. An unfinished cell may still be decided by more
    /// games.
    pub finished: bool,
}

impl Finding {
    /// Whether the board is proven (a level of `proven`).
    pub fn proven(&self) -> bool {
        self.level == "proven"
    }

    fn seconds(&self) -> f64 {
        self.level.parse().unwrap_or(f64::INFINITY)
    }

    /// The games the rule read.
    pub fn games(&self) -> u64 {
        self.first_wins + self.second_wins
    }

    /// A rule option's value (`min_group` -> `5`).
    pub fn rule(&self, name: &str) -> Option<&str> {
        self.rules
            .split(',')
            .filter_map(|item| item.split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v)
    }

    /// Odd's smallest group that counts, where the rules give one.
    pub fn min_group(&self) -> Option<usize> {
        self.rule("min_group").and_then(|m| m.parse().ok())
    }

    /// The finding in words, one sentence: `proven: the first player
    /// wins`, or `at 0.8 s per move the first player won 24 of 37 games
    /// (64.9%, 95% interval 48.8-78.2%): not decided yet; leans to the
    /// first player`.
    pub fn describe(&self) -> String {
        if self.proven() {
            let who = if self.share > 0.5 { "first" } else { "second" };
            return format!("proven: the {who} player wins");
        }
        let outcome = match (self.verdict, self.finished) {
            (Verdict::First, _) => format!("decided for the first player at game {}", self.games()),
            (Verdict::Second, _) => {
                format!("decided for the second player at game {}", self.games())
            }
            (Verdict::Undecided, true) => format!("not decided in {} games", self.games()),
            (Verdict::Undecided, false) => "not decided yet".into(),
        };
        let lean = match self.verdict {
            Verdict::Undecided if self.first_wins > self.second_wins => {
                "; leans to the first player"
            }
            Verdict::Undecided if self.first_wins < self.second_wins => {
                "; leans to the second player"
            }
            _ => "",
        };
        format!(
            "at {} s per move the first player won {} of {} games ({:.1}%, 95% interval \
             {:.1}-{:.1}%): {outcome}{lean}",
            self.level,
            self.first_wins,
            self.games(),
            100.0 * self.share,
            100.0 * self.low,
            100.0 * self.high,
        )
    }

    /// One summary line (tab-separated).
    pub fn line(&self) -> String {
        let verdict = match (self.verdict, self.finished) {
            (Verdict::First, _) => "first",
            (Verdict::Second, _) => "second",
            (Verdict::Undecided, true) => "undecided",
            (Verdict::Undecided, false) => "open",
        };
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{:.4}\t{:.4}\t{:.4}\t{verdict}",
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
        let [
            game,
            size,
            rules,
            level,
            first,
            second,
            share,
            low,
            high,
            verdict,
        ] = f[..]
        else {
            return Err(format!("'{line}': expected 10 tab-separated fields"));
        };
        let number = |s: &str| s.parse::<f64>().map_err(|_| format!("'{s}' in '{line}'"));
        let count = |s: &str| s.parse::<u64>().map_err(|_| format!("'{s}' in '{line}'"));
        let (verdict, finished) = match verdict {
            "first" => (Verdict::First, true),
            "second" => (Verdict::Second, true),
            "undecided" => (Verdict::Undecided, true),
            "open" => (Verdict::Undecided, false),
            other => return Err(format!("'{other}' in '{line}': not a verdict")),
        };
        Ok(Finding {
            game: GameKind::parse(game)
                .ok_or_else(|| format!("'{game}' in '{line}': not a game"))?,
            size: size.parse().map_err(|_| format!("'{size}' in '{line}'"))?,
            rules: if rules == "-" { "" } else { rules }.to_string(),
            level: level.to_string(),
            first_wins: count(first)?,
            second_wins: count(second)?,
            share: number(share)?,
            low: number(low)?,
            high: number(high)?,
            verdict,
            finished,
        })
    }
}

/// The header of a summary file: its columns. The verdict is `first`,
/// `second`, `undecided` (the rule's most games read without a verdict) or
/// `open` (fewer games, no verdict yet).
pub const HEADER: &str =
    "# game\tsize\trules\tlevel\tfirst wins\tsecond wins\tfirst share\t95% low\t95% high\tverdict";

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

/// A board's findings: its proof first, then its levels of play, the
/// strongest first.
pub fn of_board<'a>(
    findings: &'a [Finding],
    game: GameKind,
    size: usize,
    rules: &str,
) -> Vec<&'a Finding> {
    let mut out: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.game == game && f.size == size && f.rules == rules)
        .collect();
    out.sort_by(|a, b| {
        (!a.proven(), -a.seconds())
            .partial_cmp(&(!b.proven(), -b.seconds()))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    out
}

/// The rule variants of a game and size that the study has findings for,
/// in order (smallest group, then the rule options).
pub fn variants(findings: &[Finding], game: GameKind, size: usize) -> Vec<String> {
    let mut out: Vec<(Option<usize>, String)> = findings
        .iter()
        .filter(|f| f.game == game && f.size == size)
        .map(|f| (f.min_group(), f.rules.clone()))
        .collect();
    out.sort();
    out.dedup();
    out.into_iter().map(|(_, rules)| rules).collect()
}

/// What the study says of one board and variant, one sentence a finding:
/// `Proven: the first player wins. At 0.05 s per move ...`. `None` without
/// findings.
pub fn board_note(
    findings: &[Finding],
    game: GameKind,
    size: usize,
    rules: &str,
) -> Option<String> {
    let sentences: Vec<String> = of_board(findings, game, size, rules)
        .iter()
        .map(|f| capitalise(&f.describe()) + ".")
        .collect();
    (!sentences.is_empty()).then(|| sentences.join(" "))
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The study's strongest level of play (seconds per move), over all its
/// findings.
fn strongest_level(findings: &[Finding]) -> Option<f64> {
    findings
        .iter()
        .filter(|f| !f.proven())
        .map(Finding::seconds)
        .max_by(f64::total_cmp)
}

/// An Odd side's fair smallest group, where the study establishes one: a
/// smallest group m whose cell at the study's strongest level is finished
/// without a verdict, between m - 1 and m + 1 finished there with verdicts
/// for opposite players. Weaker levels never establish one: balance drifts
/// as play gets stronger.
pub fn fair_min_group(findings: &[Finding], side: usize) -> Option<usize> {
    let strongest = strongest_level(findings)?;
    let at = |m: usize| {
        findings.iter().find(|f| {
            f.game.has_min_group()
                && f.size == side
                && f.min_group() == Some(m)
                && !f.proven()
                && f.seconds() == strongest
                && f.finished
        })
    };
    let verdict = |m: usize| at(m).map(|f| f.verdict);
    (2..=2 * side * side).find(|&m| {
        verdict(m) == Some(Verdict::Undecided)
            && matches!(
                (verdict(m - 1), verdict(m + 1)),
                (Some(Verdict::First), Some(Verdict::Second))
                    | (Some(Verdict::Second), Some(Verdict::First))
            )
    })
}

/// For one Odd side, in words: the fair smallest group where established;
/// else its proofs where it has them; else that no fair smallest group is
/// established, and the verdicts of the side's strongest level played.
pub fn min_group_note(findings: &[Finding], side: usize) -> Option<String> {
    let cells: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.game.has_min_group() && f.size == side && !f.proven())
        .collect();
    if let Some(m) = fair_min_group(findings, side) {
        return Some(format!(
            "fair smallest group m = {m} (not decided in its games at the study's strongest \
             level, m - 1 and m + 1 decided for opposite players)"
        ));
    }
    // A side whose boards are proven is told by its proofs.
    let proven: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.game.has_min_group() && f.size == side && f.proven())
        .collect();
    if !proven.is_empty() {
        let with = |first: bool| -> Vec<usize> {
            proven
                .iter()
                .filter(|f| (f.share > 0.5) == first)
                .filter_map(|f| f.min_group())
                .collect()
        };
        return Some(format!(
            "proven: the first player wins with m = {}, the second with m = {}",
            list(&with(true)),
            list(&with(false))
        ));
    }
    let mut levels: Vec<f64> = cells.iter().map(|f| f.seconds()).collect();
    levels.sort_by(|a, b| b.total_cmp(a));
    levels.dedup();
    if levels.is_empty() {
        return None;
    }
    let by_level: Vec<String> = levels
        .iter()
        .map(|&level| {
            let at_level: Vec<&&Finding> = cells.iter().filter(|f| f.seconds() == level).collect();
            let with = |v: Verdict| -> Vec<usize> {
                let mut ms: Vec<usize> = at_level
                    .iter()
                    .filter(|f| f.verdict == v)
                    .filter_map(|f| f.min_group())
                    .collect();
                ms.sort();
                ms
            };
            let mut parts = Vec::new();
            for (v, who) in [(Verdict::First, "first"), (Verdict::Second, "second")] {
                let ms = with(v);
                if !ms.is_empty() {
                    parts.push(format!("the {who} player wins with m = {}", list(&ms)));
                }
            }
            let open = with(Verdict::Undecided);
            if !open.is_empty() {
                parts.push(format!("m = {} not decided", list(&open)));
            }
            format!("at {} s per move {}", at_level[0].level, parts.join(", "))
        })
        .collect();
    Some(format!(
        "fair smallest group not established; {}",
        by_level.join("; ")
    ))
}

/// For `--min-group`'s help: per Odd side of the study, its fair smallest
/// group or that none is established, and the verdicts behind it.
pub fn min_group_help(findings: &[Finding]) -> String {
    let mut sides: Vec<usize> = findings
        .iter()
        .filter(|f| f.game.has_min_group())
        .map(|f| f.size)
        .collect();
    sides.sort();
    sides.dedup();
    let mut out = String::from(
        "Odd: the smallest group that counts (default: the board side).\n\n\
         The balance study (docs/balance.md: the default engine against itself, each cell read \
         by the study's decision rule; a fair smallest group is established only by cells at \
         its strongest level) finds, per side:",
    );
    for side in sides {
        if let Some(note) = min_group_note(findings, side) {
            out.push_str(&format!("\n  side {side}: {note}"));
        }
    }
    out
}

/// `4`, `4 and 9`, `6, 10 and 11`, with runs of three or more as ranges:
/// `2 to 6 and 9`.
fn list(items: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &m in items {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == m => *end = m,
            _ => runs.push((m, m)),
        }
    }
    let words: Vec<String> = runs
        .into_iter()
        .flat_map(|(a, b)| match b - a {
            0 => vec![a.to_string()],
            1 => vec![a.to_string(), b.to_string()],
            _ => vec![format!("{a} to {b}")],
        })
        .collect();
    match &words[..] {
        [] => "none".into(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(size: usize, m: usize, level: &str, first: u64, second: u64, v: &str) -> Finding {
        let n = (first + second) as f64;
        let share = first as f64 / n;
        parse(&format!(
            "odd\t{size}\tmin_group={m}\t{level}\t{first}\t{second}\t{share:.4}\t{:.4}\t{:.4}\t{v}",
            (share - 0.1).max(0.0),
            (share + 0.1).min(1.0)
        ))
        .unwrap()
        .remove(0)
    }

    fn proven(size: usize, m: usize, first: bool) -> Finding {
        let share = if first { "1.0000" } else { "0.0000" };
        let verdict = if first { "first" } else { "second" };
        parse(&format!(
            "odd\t{size}\tmin_group={m}\tproven\t0\t0\t{share}\t{share}\t{share}\t{verdict}"
        ))
        .unwrap()
        .remove(0)
    }

    #[test]
    fn lists_name_runs_as_ranges() {
        assert_eq!(list(&[]), "none");
        assert_eq!(list(&[4]), "4");
        assert_eq!(list(&[4, 9]), "4 and 9");
        assert_eq!(list(&[2, 3, 4, 5, 6, 9]), "2 to 6 and 9");
        assert_eq!(list(&[6, 7, 10, 11, 12]), "6, 7 and 10 to 12");
    }

    #[test]
    fn the_built_in_summary_reads() {
        assert!(parse(SUMMARY).is_ok());
        assert!(!findings().is_empty());
    }

    #[test]
    fn lines_read_back() {
        let f = finding(5, 5, "0.8", 17, 3, "open");
        let back = parse(&f.line()).unwrap();
        assert_eq!(back[0], f);
        assert_eq!(
            (back[0].verdict, back[0].finished),
            (Verdict::Undecided, false)
        );
        assert!(parse("odd\t5\tmin_group=5\t0.8\t17").is_err());
        assert!(parse("odd\tfive\t-\t0.8\t1\t1\t0.5\t0.1\t0.9\tfirst").is_err());
        assert!(parse("odd\t5\t-\t0.8\t1\t1\t0.5\t0.1\t0.9\teven").is_err());
    }

    #[test]
    fn a_note_names_the_proof_beside_every_level_and_leans_as_leans() {
        let all = vec![
            finding(3, 3, "0.05", 51, 49, "open"),
            proven(3, 3, true),
            finding(6, 9, "0.8", 58, 42, "open"),
            finding(6, 9, "0.2", 49, 51, "undecided"),
            finding(4, 7, "0.2", 1, 19, "second"),
        ];
        let odd3 = board_note(&all, GameKind::Odd, 3, "min_group=3").unwrap();
        assert!(
            odd3.starts_with(
                "Proven: the first player wins. At 0.05 s per move the first player won 51 of \
                 100 games"
            ),
            "{odd3}"
        );
        let odd6 = board_note(&all, GameKind::Odd, 6, "min_group=9").unwrap();
        assert!(
            odd6.contains(
                "At 0.8 s per move the first player won 58 of 100 games (58.0%, 95% interval \
                 48.0-68.0%): not decided yet; leans to the first player. At 0.2 s"
            ),
            "{odd6}"
        );
        assert!(odd6.contains("not decided in 100 games; leans to the second player"));
        let odd4 = board_note(&all, GameKind::Odd, 4, "min_group=7").unwrap();
        assert!(
            odd4.ends_with("decided for the second player at game 20."),
            "{odd4}"
        );
        assert_eq!(board_note(&all, GameKind::Odd, 5, "min_group=5"), None);
    }

    #[test]
    fn a_fair_smallest_group_needs_finished_neighbours_at_the_strongest_level() {
        let mut all = vec![
            finding(6, 8, "0.8", 17, 3, "first"),
            finding(6, 9, "0.8", 110, 90, "undecided"),
            finding(6, 10, "0.8", 3, 17, "second"),
            finding(6, 11, "0.2", 50, 50, "open"),
        ];
        assert_eq!(fair_min_group(&all, 6), Some(9));
        let help = min_group_help(&all);
        assert!(help.contains("side 6: fair smallest group m = 9"), "{help}");
        // An unfinished middle, or a neighbour without a verdict, or one
        // at a weaker level, establishes nothing.
        all[1] = finding(6, 9, "0.8", 58, 42, "open");
        assert_eq!(fair_min_group(&all, 6), None);
        all[1] = finding(6, 9, "0.8", 110, 90, "undecided");
        all[2] = finding(6, 10, "0.8", 100, 100, "undecided");
        assert_eq!(fair_min_group(&all, 6), None);
        all[2] = finding(6, 10, "0.2", 3, 17, "second");
        assert_eq!(fair_min_group(&all, 6), None);
        let help = min_group_help(&all);
        assert!(
            help.contains(
                "side 6: fair smallest group not established; at 0.8 s per move the first \
                 player wins with m = 8, m = 9 not decided; at 0.2 s per move the second player \
                 wins with m = 10, m = 11 not decided"
            ),
            "{help}"
        );
    }

    #[test]
    fn a_side_is_described_at_its_own_strongest_level_or_by_its_proofs() {
        let all = vec![
            finding(4, 6, "0.05", 5, 16, "open"),
            finding(4, 7, "0.2", 1, 19, "second"),
            finding(4, 8, "0.2", 2, 19, "second"),
            finding(4, 5, "0.2", 46, 23, "open"),
            finding(8, 14, "0.8", 48, 52, "open"),
            proven(3, 2, true),
            proven(3, 4, false),
        ];
        let help = min_group_help(&all);
        assert!(
            help.contains(
                "side 4: fair smallest group not established; at 0.2 s per move the second \
                 player wins with m = 7 and 8, m = 5 not decided; at 0.05 s per move m = 6 not \
                 decided"
            ),
            "{help}"
        );
        assert!(
            help.contains(
                "side 3: proven: the first player wins with m = 2, the second with m = 4"
            ),
            "{help}"
        );
        assert!(help.contains("side 8: fair smallest group not established"));
    }
}
