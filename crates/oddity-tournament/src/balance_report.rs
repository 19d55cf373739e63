//! The balance study's tables and pictures, made from its results files:
//! one markdown table per game and one picture per game and level, every
//! cell read by the study's decision rule, with the boards that
//! `docs/solved.md` proves beside them, and the study's planned boards that
//! have no games yet marked as not played.

use std::collections::BTreeMap;

use super::balance::{CellKey, CellStats, DecisionRule};
use super::stats::fisher_exact;
use oddity_fairness::{Finding, Verdict};
use oddity_render::Style;
use oddity_render::table::{Body, Measured, ShareCell, ShareGrid, share_grid_svg};
use oddity_rules::{GameKind, GameSpec, Rules};

/// A board and rule variant: a cell without its level.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Board {
    pub game: String,
    pub size: usize,
    pub rules: String,
}

impl Board {
    pub fn of_spec(spec: &GameSpec) -> Board {
        Board {
            game: spec.kind.name().to_string(),
            size: spec.size,
            rules: spec.rules_text(),
        }
    }

    pub fn of_cell(key: &CellKey) -> Board {
        Board {
            game: key.game.clone(),
            size: key.size,
            rules: key.rules.clone(),
        }
    }

    /// The board's game (`None` for a name that is none of the games).
    fn kind(&self) -> Option<GameKind> {
        GameKind::parse(&self.game)
    }

    fn rule(&self, name: &str) -> Option<&str> {
        self.rules
            .split(',')
            .filter_map(|item| item.split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v)
    }

    fn min_group(&self) -> Option<usize> {
        self.rule("min_group").and_then(|m| m.parse().ok())
    }

    /// The order of the tables: game, size, smallest group, start, swap.
    fn order(&self) -> (usize, usize, usize, String) {
        let game = GameKind::ALL
            .iter()
            .position(|&g| Some(g) == self.kind())
            .unwrap_or(GameKind::ALL.len());
        let onyx = format!(
            "{}{}",
            self.rule("start").unwrap_or(""),
            self.rule("swap").unwrap_or("")
        );
        (game, self.size, self.min_group().unwrap_or(0), onyx)
    }

    /// The board as people write it: `Odd 5`.
    pub fn title(&self) -> String {
        let game = self.kind().map_or(self.game.as_str(), |kind| kind.title());
        format!("{game} {}", self.size)
    }

    /// The rule variant for people: `m = 5`, `standard start, swap`.
    pub fn variant(&self) -> String {
        if let Some(m) = self.min_group() {
            return format!("m = {m}");
        }
        match (self.rule("start"), self.rule("swap")) {
            (Some(start), Some(swap)) => format!(
                "{start} start, {}",
                if swap == "on" { "swap" } else { "no swap" }
            ),
            _ => String::new(),
        }
    }
}

/// The boards the study plans to play at its quick level: Odd sides 3 to 8
/// with smallest groups from half the side (rounded up) to twice it; Xodd
/// 5 to 14; Yodd 3 to 10; Onyx 8, 12 and 16 with either start, with and
/// without swap.
pub fn study_plan() -> Vec<Board> {
    let mut out = Vec::new();
    for kind in GameKind::ALL {
        let mut add = |size: usize, rules: Rules| {
            if let Ok(spec) = GameSpec::new(kind, size, rules) {
                out.push(Board::of_spec(&spec));
            }
        };
        // Exhaustive: a new game is given its boards here.
        match kind {
            GameKind::Xodd => (5..=14).for_each(|size| add(size, Rules::default())),
            GameKind::Yodd => (3..=10).for_each(|size| add(size, Rules::default())),
            GameKind::Odd => {
                for side in 3..=8usize {
                    for m in side.div_ceil(2)..=2 * side {
                        let rules = Rules {
                            min_group: Some(m),
                            ..Rules::default()
                        };
                        add(side, rules);
                    }
                }
            }
            GameKind::Onyx => {
                for size in [8, 12, 16] {
                    for open_start in [false, true] {
                        for swap in [true, false] {
                            let rules = Rules {
                                open_start,
                                swap,
                                ..Rules::default()
                            };
                            add(size, rules);
                        }
                    }
                }
            }
        }
    }
    out
}

/// A board that `docs/solved.md` proves: whether the first player wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    pub board: Board,
    pub first_wins: bool,
}

/// The proven boards of `docs/solved.md`: every row of a table whose
/// second column is an `oddity solve` command and whose third names the
/// winner (`first player` or `second player`).
pub fn read_solved(text: &str) -> Result<Vec<Solved>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let columns: Vec<&str> = line.split('|').map(str::trim).collect();
        let (Some(command), Some(winner)) = (columns.get(2), columns.get(3)) else {
            continue;
        };
        let Some(args) = command
            .strip_prefix("`oddity solve ")
            .and_then(|c| c.strip_suffix('`'))
        else {
            continue;
        };
        let first_wins = match *winner {
            "first player" => true,
            "second player" => false,
            _ => continue,
        };
        let spec = solve_spec(args).map_err(|e| format!("solved table line {}: {e}", n + 1))?;
        out.push(Solved {
            board: Board::of_spec(&spec),
            first_wins,
        });
    }
    Ok(out)
}

/// The game of an `oddity solve` command line's options.
fn solve_spec(args: &str) -> Result<GameSpec, String> {
    let words: Vec<&str> = args.split_whitespace().collect();
    let mut kind = None;
    let mut size = None;
    let mut rules = Rules::default();
    let mut i = 0;
    while i < words.len() {
        let value = words.get(i + 1).copied().unwrap_or("");
        let number = || {
            value
                .parse::<usize>()
                .map_err(|_| format!("'{} {value}' is not a number", words[i]))
        };
        match words[i] {
            "--game" => kind = Some(value.parse::<GameKind>().map_err(|e| e.to_string())?),
            "--size" => size = Some(number()?),
            "--min-group" => rules.min_group = Some(number()?),
            "--open" => rules.open_start = true,
            "--no-pie" => rules.swap = false,
            // Options of the search alone (--retrograde, --time ...).
            _ => {
                i += 1;
                continue;
            }
        }
        i += if words[i].starts_with("--open") || words[i] == "--no-pie" {
            1
        } else {
            2
        };
    }
    let kind = kind.ok_or("no --game")?;
    GameSpec::from_options(kind, size, rules).map_err(|e| e.to_string())
}

/// One line of a game's table.
struct Row {
    board: Board,
    /// Seconds per move; `None` for a proven row, infinite for a planned
    /// board without games.
    level: Option<f64>,
    level_text: String,
    stats: Option<CellStats>,
    solved: Option<bool>,
}

fn rows_of(
    kind: GameKind,
    cells: &BTreeMap<CellKey, CellStats>,
    solved: &[Solved],
    plan: &[Board],
) -> Vec<Row> {
    let mut rows = Vec::new();
    for s in solved.iter().filter(|s| s.board.kind() == Some(kind)) {
        rows.push(Row {
            board: s.board.clone(),
            level: None,
            level_text: "proven".into(),
            stats: None,
            solved: Some(s.first_wins),
        });
    }
    for (key, stats) in cells.iter().filter(|(k, _)| k.kind() == Some(kind)) {
        rows.push(Row {
            board: Board::of_cell(key),
            level: Some(key.seconds()),
            level_text: format!("{} s", key.level),
            stats: Some(stats.clone()),
            solved: None,
        });
    }
    for board in plan.iter().filter(|b| b.kind() == Some(kind)) {
        let played = cells.keys().any(|k| Board::of_cell(k) == *board);
        let proven = solved.iter().any(|s| s.board == *board);
        if !played && !proven {
            rows.push(Row {
                board: board.clone(),
                level: Some(f64::INFINITY),
                level_text: "not played".into(),
                stats: None,
                solved: None,
            });
        }
    }
    rows.sort_by(|a, b| {
        (a.board.order(), a.level.unwrap_or(-1.0))
            .partial_cmp(&(b.board.order(), b.level.unwrap_or(-1.0)))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    rows
}

fn percent(v: f64) -> String {
    format!("{:.1}%", 100.0 * v)
}

/// Whether a cell is finished: decided, or read to the rule's most games.
pub fn finished(rule: &DecisionRule, stats: &CellStats) -> bool {
    stats.reading.verdict != Verdict::Undecided || stats.reading.games() >= rule.max_games
}

/// The rule's verdict on a cell, in words: `first (at game 20)`, `not
/// decided (200 games)`, `open` (fewer games, no verdict yet).
pub fn verdict_text(rule: &DecisionRule, stats: &CellStats) -> String {
    let r = &stats.reading;
    match r.verdict {
        Verdict::First => format!("**first** (at game {})", r.games()),
        Verdict::Second => format!("**second** (at game {})", r.games()),
        Verdict::Undecided if finished(rule, stats) => format!("not decided ({} games)", r.games()),
        Verdict::Undecided => "open".into(),
    }
}

/// A build as the tables name it: the commit and its marks
/// (`88c9764`, `88c9764, attributed`), or the whole name where it has none.
fn short_build(build: &str) -> &str {
    build
        .rsplit_once(" (")
        .and_then(|(_, inside)| inside.strip_suffix(')'))
        .unwrap_or(build)
}

/// The builds of a cell, with their games where there are several.
fn builds_text(stats: &CellStats) -> String {
    match stats.builds.len() {
        1 => stats.builds.keys().map(|b| short_build(b)).collect(),
        _ => stats
            .builds
            .iter()
            .map(|(b, n)| format!("{} ({n})", short_build(b)))
            .collect::<Vec<_>>()
            .join(" + "),
    }
}

/// The games a cell has that the rule did not read, and why.
fn left_out_text(stats: &CellStats) -> String {
    let mut parts = Vec::new();
    if stats.unread > 0 {
        let after = if stats.reading.verdict == Verdict::Undecided {
            "past the rule's most games"
        } else {
            "after the verdict"
        };
        parts.push(format!("{} {after}", stats.unread));
    }
    for (reason, n) in &stats.faults {
        parts.push(format!("{n} {reason}"));
    }
    if stats.no_result > 0 {
        parts.push(format!("{} without result", stats.no_result));
    }
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(", ")
    }
}

/// Refuses cells whose games were played by more than one build, unless
/// `pool` says to read them as one.
pub fn check_builds(cells: &BTreeMap<CellKey, CellStats>, pool: bool) -> Result<(), String> {
    if pool {
        return Ok(());
    }
    for (key, stats) in cells {
        if stats.builds.len() > 1 {
            let list: Vec<String> = stats
                .builds
                .iter()
                .map(|(b, n)| format!("{b}: {n} games"))
                .collect();
            return Err(format!(
                "{} {} ({}) at {} s holds games of {} builds ({}): report each build's games \
                 apart, or give --pool-builds to read them as one cell",
                key.game,
                key.size,
                key.rules,
                key.level,
                stats.builds.len(),
                list.join("; ")
            ));
        }
    }
    Ok(())
}

/// The study's table of one game as markdown: each cell's verdict by the
/// rule, the games it read, their share and 95% interval, the games left
/// out, Fisher's test against the board's level below, and the build.
pub fn markdown_table(
    rule: &DecisionRule,
    kind: GameKind,
    cells: &BTreeMap<CellKey, CellStats>,
    solved: &[Solved],
    plan: &[Board],
) -> String {
    let mut out = String::from(
        "| board | variant | level | verdict | first-second read | first player's share (95%) | games (distinct) | left out | against the level below (Fisher p) | turns/game | think s (ms/turn) | build |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let rows = rows_of(kind, cells, solved, plan);
    for (i, row) in rows.iter().enumerate() {
        let (board, variant) = (row.board.title(), row.board.variant());
        let line = match (&row.stats, row.solved) {
            (_, Some(first)) => format!(
                "| {board} | {variant} | proven | **{}** (proof) | | | | | | | | |",
                if first { "first" } else { "second" },
            ),
            (Some(s), None) => {
                let (lo, hi) = s.interval();
                let share = s.share().map_or_else(
                    || "-".to_string(),
                    |p| format!("{} ({}-{})", percent(p), percent(lo), percent(hi)),
                );
                let below = rows[..i]
                    .iter()
                    .rev()
                    .take_while(|r| r.board == row.board)
                    .find_map(|r| r.stats.as_ref());
                let fisher = below.map_or_else(String::new, |b| {
                    let p = fisher_exact(
                        s.reading.first,
                        s.reading.second,
                        b.reading.first,
                        b.reading.second,
                    );
                    if p >= 0.01 {
                        format!("{p:.2}")
                    } else if p >= 0.001 {
                        format!("{p:.3}")
                    } else {
                        "< 0.001".into()
                    }
                });
                format!(
                    "| {board} | {variant} | {} | {} | {}-{} | {share} | {} ({}) | {} | {fisher} | {:.0} | {:.0} ({:.0}) | {} |",
                    row.level_text,
                    verdict_text(rule, s),
                    s.reading.first,
                    s.reading.second,
                    s.games,
                    s.distinct,
                    left_out_text(s),
                    s.turns as f64 / s.games.max(1) as f64,
                    s.seconds,
                    1000.0 * s.seconds / s.turns.max(1) as f64,
                    builds_text(s),
                )
            }
            (None, None) => format!(
                "| {board} | {variant} | {} | | | | | | | | | |",
                row.level_text
            ),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The levels played for a game, quickest first.
fn levels(kind: GameKind, cells: &BTreeMap<CellKey, CellStats>) -> Vec<String> {
    let mut levels: Vec<(f64, String)> = cells
        .keys()
        .filter(|k| k.kind() == Some(kind))
        .map(|k| (k.seconds(), k.level.clone()))
        .collect();
    levels.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    levels.dedup();
    levels.into_iter().map(|(_, l)| l).collect()
}

/// What a board's cell at one level shows beside its proof: its games
/// there; else, where a weaker level decided it, that verdict; else not
/// played.
fn body_at(
    rule: &DecisionRule,
    board: &Board,
    level: &str,
    cells: &BTreeMap<CellKey, CellStats>,
) -> Body {
    let of_board = || cells.iter().filter(|(k, _)| Board::of_cell(k) == *board);
    if let Some((_, s)) = of_board().find(|(k, _)| k.level == level) {
        let (low, high) = s.interval();
        return Body::Measured(Measured {
            share: s.share().unwrap_or(0.5),
            low,
            high,
            games: s.reading.games(),
            verdict: s.reading.verdict,
            finished: finished(rule, s),
        });
    }
    let seconds: f64 = level.parse().unwrap_or(f64::INFINITY);
    of_board()
        .filter(|(k, s)| k.seconds() < seconds && s.reading.verdict != Verdict::Undecided)
        .max_by(|a, b| a.0.seconds().total_cmp(&b.0.seconds()))
        .map_or(Body::NotPlayed, |(k, s)| Body::DecidedBelow {
            first: s.reading.verdict == Verdict::First,
            level: k.level.clone(),
        })
}

/// The picture of one game at one level: Odd as sides by smallest groups,
/// Onyx as variants by sizes, Xodd and Yodd as one row of sizes. Proven
/// boards show their proof beside whatever was measured.
pub fn grid(
    rule: &DecisionRule,
    kind: GameKind,
    level: &str,
    cells: &BTreeMap<CellKey, CellStats>,
    solved: &[Solved],
    plan: &[Board],
) -> ShareGrid {
    let mut boards: Vec<Board> = plan
        .iter()
        .filter(|b| b.kind() == Some(kind))
        .cloned()
        .chain(solved.iter().map(|s| s.board.clone()))
        .chain(cells.keys().map(Board::of_cell))
        .filter(|b| b.kind() == Some(kind))
        .collect();
    boards.sort_by_key(Board::order);
    boards.dedup();
    // (row label, column label) of a board.
    let place = |b: &Board| -> (String, String) {
        match kind {
            GameKind::Odd => (
                format!("side {}", b.size),
                b.min_group().unwrap_or(0).to_string(),
            ),
            GameKind::Onyx => (b.variant(), b.size.to_string()),
            GameKind::Xodd | GameKind::Yodd => ("first player".into(), b.size.to_string()),
        }
    };
    let mut rows: Vec<String> = Vec::new();
    let mut columns: Vec<(usize, String)> = Vec::new();
    for b in &boards {
        let (r, c) = place(b);
        if !rows.contains(&r) {
            rows.push(r);
        }
        let key = c.parse().unwrap_or(usize::MAX);
        if !columns.iter().any(|(_, x)| *x == c) {
            columns.push((key, c));
        }
    }
    columns.sort();
    let columns: Vec<String> = columns.into_iter().map(|(_, c)| c).collect();
    let mut grid = vec![vec![None; columns.len()]; rows.len()];
    for b in &boards {
        let (r, c) = place(b);
        let (Some(i), Some(j)) = (
            rows.iter().position(|x| *x == r),
            columns.iter().position(|x| *x == c),
        ) else {
            continue;
        };
        grid[i][j] = Some(ShareCell {
            proof: solved.iter().find(|s| s.board == *b).map(|s| s.first_wins),
            body: body_at(rule, b, level, cells),
        });
    }
    let (column_title, row_title) = match kind {
        GameKind::Odd => ("smallest group m", "board"),
        GameKind::Onyx => ("board size", "variant"),
        GameKind::Xodd | GameKind::Yodd => ("board size", ""),
    };
    ShareGrid {
        title: format!(
            "{}: the first player's share and the rule's verdict at {level} s per move",
            kind.title()
        ),
        column_title: column_title.into(),
        row_title: row_title.into(),
        rows,
        columns,
        cells: grid,
    }
}

/// Every picture of the report: a file stem (`balance-odd-0.05`) and its SVG.
pub fn pictures(
    rule: &DecisionRule,
    cells: &BTreeMap<CellKey, CellStats>,
    solved: &[Solved],
    plan: &[Board],
    style: &Style,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for kind in GameKind::ALL {
        for level in levels(kind, cells) {
            let g = grid(rule, kind, &level, cells, solved, plan);
            out.push((
                format!("balance-{}-{level}", kind.name()),
                share_grid_svg(&g, style),
            ));
        }
    }
    out
}

/// The whole report: per game a heading, its pictures (linked as
/// `PICTURES/STEM.png`) and its table.
pub fn markdown(
    rule: &DecisionRule,
    cells: &BTreeMap<CellKey, CellStats>,
    solved: &[Solved],
    plan: &[Board],
    pictures_dir: &str,
) -> String {
    let mut out = String::new();
    for kind in GameKind::ALL {
        let table = markdown_table(rule, kind, cells, solved, plan);
        let title = kind.title();
        out.push_str(&format!("### {title}\n\n"));
        for level in levels(kind, cells) {
            out.push_str(&format!(
                "![{title} at {level} s per move]({pictures_dir}/balance-{}-{level}.png)\n\n",
                kind.name()
            ));
        }
        out.push_str(&table);
        out.push('\n');
    }
    out.push_str(&verdicts_text(rule, cells));
    out
}

/// The study's summary for the engine (`oddity_fairness`): a line per
/// proven board and per level of play of each board, in the tables' order.
pub fn summary(
    rule: &DecisionRule,
    cells: &BTreeMap<CellKey, CellStats>,
    solved: &[Solved],
) -> String {
    let mut out = String::from(oddity_fairness::HEADER);
    out.push('\n');
    for kind in GameKind::ALL {
        for row in rows_of(kind, cells, solved, &[]) {
            let board = row.board;
            let finding = match (row.solved, &row.stats) {
                (Some(first), _) => {
                    let share = if first { 1.0 } else { 0.0 };
                    Finding {
                        game: kind,
                        size: board.size,
                        rules: board.rules,
                        level: "proven".into(),
                        first_wins: 0,
                        second_wins: 0,
                        share,
                        low: share,
                        high: share,
                        verdict: if first {
                            Verdict::First
                        } else {
                            Verdict::Second
                        },
                        finished: true,
                    }
                }
                (None, Some(s)) => {
                    let Some(share) = s.share() else { continue };
                    let (low, high) = s.interval();
                    Finding {
                        game: kind,
                        size: board.size,
                        rules: board.rules,
                        level: row.level_text.trim_end_matches(" s").to_string(),
                        first_wins: s.reading.first,
                        second_wins: s.reading.second,
                        share,
                        low,
                        high,
                        verdict: s.reading.verdict,
                        finished: finished(rule, s),
                    }
                }
                (None, None) => continue,
            };
            out.push_str(&finding.line());
            out.push('\n');
        }
    }
    out
}

/// The rule in numbers (`oddity balance --rule`): its constants, the wins
/// that decide after each number of games, and its exact chances of each
/// verdict for true shares from 0.5 to 0.8.
pub fn rule_text(rule: &DecisionRule) -> String {
    let mut out = format!(
        "The decision rule: after n games with a result ({} <= n <= {}), of which the first \
         player won W and lost L,\nthe first player wins the cell when W - L >= {:.2} sqrt(n), \
         the second when L - W >= {:.2} sqrt(n);\na cell that reaches neither by game {} is not \
         decided. Games lost by a fault and games without result are left out.\n\n",
        rule.min_games,
        rule.max_games,
        rule.c_hundredths as f64 / 100.0,
        rule.c_hundredths as f64 / 100.0,
        rule.max_games
    );
    out.push_str("games n | first player's wins W: first-player verdict | second-player verdict\n");
    let mut n = rule.min_games;
    while n <= rule.max_games {
        if let Some(w) = rule.threshold(n) {
            out.push_str(&format!(
                "{n:>7} | {:>41} | {:>21}\n",
                format!("W >= {w}"),
                format!("W <= {}", n - w)
            ));
        }
        n += if n < 40 { 1 } else { 10 };
    }
    out.push_str(
        "\ntrue first-player share | verdict first | verdict second | not decided | expected games read\n",
    );
    for p in [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8] {
        let c = rule.chances(p);
        out.push_str(&format!(
            "{:>23} | {:>13} | {:>14} | {:>11} | {:>19.1}\n",
            format!("{:.0}%", 100.0 * p),
            format!("{:.4}%", 100.0 * c.first),
            format!("{:.4}%", 100.0 * c.second),
            format!("{:.2}%", 100.0 * (1.0 - c.first - c.second)),
            c.games
        ));
    }
    let even = rule.chances(0.5);
    out.push_str(&format!(
        "\nA verdict on a cell whose true share is 50% is false: {:.4}% of such cells get one \
         (exactly: the distribution of wins carried game by game). A cell that leans to one \
         player is given to the other less often than that: at most {:.4}%.\n",
        100.0 * (even.first + even.second),
        100.0 * even.first,
    ));
    out
}

/// The report's last paragraph: how many cells the rule read, what it
/// decided, and how many false verdicts that many cells are expected to
/// hold at most.
pub fn verdicts_text(rule: &DecisionRule, cells: &BTreeMap<CellKey, CellStats>) -> String {
    let count = |v: Verdict| cells.values().filter(|s| s.reading.verdict == v).count();
    let finished_open = cells
        .values()
        .filter(|s| s.reading.verdict == Verdict::Undecided && finished(rule, s))
        .count();
    let even = rule.chances(0.5);
    let error = even.first + even.second;
    format!(
        "The rule read {} cells: {} decided for the first player, {} for the second, {} not \
         decided in {} games and {} open. A cell whose true share is 50% gets a verdict with \
         chance {:.2}%, so over {} cells the expected number of false verdicts is at most {:.2} \
         (were every cell even).\n",
        cells.len(),
        count(Verdict::First),
        count(Verdict::Second),
        finished_open,
        rule.max_games,
        count(Verdict::Undecided) - finished_open,
        100.0 * error,
        cells.len(),
        error * cells.len() as f64
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solved_rows_are_read_from_the_table() {
        let text = "| Board | Command | Winner | x |\n|---|---|---|---|\n\
            | Odd 3, m = 4 | `oddity solve --game odd --size 3 --min-group 4` | second player | none |\n\
            | Yodd 3 | `oddity solve --game yodd --size 3 --retrograde` | first player | B:B2 |\n\
            | Onyx 4, open | `oddity solve --game onyx --size 4 --open --no-pie` | first player | A2 |\n\
            | Xodd 5 | `oddity solve --game xodd --size 5 --time 300` | 300 | 55 |\n";
        let solved = read_solved(text).unwrap();
        assert_eq!(solved.len(), 3);
        assert_eq!(solved[0].board.rules, "min_group=4");
        assert!(!solved[0].first_wins);
        assert_eq!(
            (solved[1].board.game.as_str(), solved[1].board.size),
            ("yodd", 3)
        );
        assert_eq!(solved[2].board.rules, "start=open,swap=off");
        assert!(read_solved("| a | `oddity solve --size 3` | first player |").is_err());
    }

    #[test]
    fn the_plan_covers_the_boards_of_the_study() {
        let plan = study_plan();
        let count = |g: GameKind| plan.iter().filter(|b| b.kind() == Some(g)).count();
        assert_eq!(count(GameKind::Xodd), 10);
        assert_eq!(count(GameKind::Yodd), 8);
        // Sides 3..8: m from ceil(side/2) to 2 side.
        assert_eq!(count(GameKind::Odd), 5 + 7 + 8 + 10 + 11 + 13);
        assert_eq!(count(GameKind::Onyx), 12);
        let odd5: Vec<String> = plan
            .iter()
            .filter(|b| b.kind() == Some(GameKind::Odd) && b.size == 5)
            .map(Board::variant)
            .collect();
        assert_eq!(odd5.first().map(String::as_str), Some("m = 3"));
        assert_eq!(odd5.last().map(String::as_str), Some("m = 10"));
    }
}
