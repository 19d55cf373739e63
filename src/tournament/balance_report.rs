//! The balance study's tables and pictures, made from its results files:
//! one markdown table and one picture per game and level, with the boards
//! that `docs/solved.md` proves in the same table, and the study's planned
//! cells that have no games yet marked as not run.

use std::collections::BTreeMap;

use super::balance::{CellKey, CellStats};
use crate::fairness::{self, Finding};
use crate::render::Style;
use crate::render::table::{ShareCell, ShareGrid, share_grid_svg};
use crate::rules::game::{GameSpec, Rules};
use crate::rules::kind::GameKind;

/// The games in the order the report shows them.
pub const GAMES: [GameKind; 4] = [
    GameKind::Xodd,
    GameKind::Yodd,
    GameKind::Odd,
    GameKind::Onyx,
];

/// A game's name as people write it: `Odd`.
fn capitalised(game: &str) -> String {
    let mut name = game.to_string();
    if let Some(first) = name.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    name
}

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
        let game = GAMES
            .iter()
            .position(|g| g.name() == self.game)
            .unwrap_or(GAMES.len());
        let onyx = format!(
            "{}{}",
            self.rule("start").unwrap_or(""),
            self.rule("swap").unwrap_or("")
        );
        (game, self.size, self.min_group().unwrap_or(0), onyx)
    }

    /// The board as people write it: `Odd 5`.
    pub fn title(&self) -> String {
        format!("{} {}", capitalised(&self.game), self.size)
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
    let mut add = |kind: GameKind, size: usize, rules: Rules| {
        if let Ok(spec) = GameSpec::new(kind, size, rules) {
            out.push(Board::of_spec(&spec));
        }
    };
    for size in 5..=14 {
        add(GameKind::Xodd, size, Rules::default());
    }
    for size in 3..=10 {
        add(GameKind::Yodd, size, Rules::default());
    }
    for side in 3..=8usize {
        for m in side.div_ceil(2)..=2 * side {
            let rules = Rules {
                min_group: Some(m),
                ..Rules::default()
            };
            add(GameKind::Odd, side, rules);
        }
    }
    for size in [8, 12, 16] {
        for open_start in [false, true] {
            for swap in [true, false] {
                let rules = Rules {
                    open_start,
                    swap,
                    ..Rules::default()
                };
                add(GameKind::Onyx, size, rules);
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
    /// Seconds per move; `None` for a proven row.
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
    for s in solved.iter().filter(|s| s.board.game == kind.name()) {
        rows.push(Row {
            board: s.board.clone(),
            level: None,
            level_text: "proven".into(),
            stats: None,
            solved: Some(s.first_wins),
        });
    }
    for (key, stats) in cells.iter().filter(|(k, _)| k.game == kind.name()) {
        rows.push(Row {
            board: Board::of_cell(key),
            level: Some(key.seconds()),
            level_text: format!("{} s", key.level),
            stats: Some(stats.clone()),
            solved: None,
        });
    }
    for board in plan.iter().filter(|b| b.game == kind.name()) {
        let played = cells.keys().any(|k| Board::of_cell(k) == *board);
        let proven = solved.iter().any(|s| s.board == *board);
        if !played && !proven {
            rows.push(Row {
                board: board.clone(),
                level: Some(f64::INFINITY),
                level_text: "not run yet".into(),
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

/// Who wins a cell, in words: by the 95% interval.
pub fn verdict(stats: &CellStats) -> &'static str {
    let (lo, hi) = stats.interval();
    match stats.share() {
        None => "no games",
        Some(_) if lo > 0.5 => "first",
        Some(_) if hi < 0.5 => "second",
        Some(_) => "unclear",
    }
}

/// The study's table of one game as markdown.
pub fn markdown_table(
    kind: GameKind,
    cells: &BTreeMap<CellKey, CellStats>,
    solved: &[Solved],
    plan: &[Board],
) -> String {
    let mut out = String::from(
        "| board | variant | level | winner | first player's share (95%) | first-second | games (distinct) | turns/game | think s (ms/turn) |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for row in rows_of(kind, cells, solved, plan) {
        let (board, variant) = (row.board.title(), row.board.variant());
        let line = match (&row.stats, row.solved) {
            (_, Some(first)) => format!(
                "| {board} | {variant} | proven | **{}** | {} | | | | |",
                if first { "first" } else { "second" },
                if first { "100%" } else { "0%" }
            ),
            (Some(s), None) => {
                let (lo, hi) = s.interval();
                let share = s.share().map_or_else(
                    || "-".to_string(),
                    |p| format!("{} ({}-{})", percent(p), percent(lo), percent(hi)),
                );
                let mut void = String::new();
                if s.no_result > 0 {
                    void.push_str(&format!(", {} void", s.no_result));
                }
                if s.faults > 0 {
                    void.push_str(&format!(", {} by fault", s.faults));
                }
                format!(
                    "| {board} | {variant} | {} | {} | {share} | {}-{}{void} | {} ({}) | {:.0} | {:.0} ({:.0}) |",
                    row.level_text,
                    verdict(s),
                    s.first_wins,
                    s.second_wins,
                    s.games,
                    s.distinct,
                    s.turns as f64 / s.games.max(1) as f64,
                    s.seconds,
                    1000.0 * s.seconds / s.turns.max(1) as f64
                )
            }
            (None, None) => format!("| {board} | {variant} | {} | | | | | | |", row.level_text),
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
        .filter(|k| k.game == kind.name())
        .map(|k| (k.seconds(), k.level.clone()))
        .collect();
    levels.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    levels.dedup();
    levels.into_iter().map(|(_, l)| l).collect()
}

/// The picture of one game at one level: Odd as sides by smallest groups,
/// Onyx as variants by sizes, Xodd and Yodd as one row of sizes. Proven
/// boards show their proof, planned boards without games show as not run.
pub fn grid(
    kind: GameKind,
    level: &str,
    cells: &BTreeMap<CellKey, CellStats>,
    solved: &[Solved],
    plan: &[Board],
) -> ShareGrid {
    let mut boards: Vec<Board> = plan
        .iter()
        .filter(|b| b.game == kind.name())
        .cloned()
        .chain(solved.iter().map(|s| s.board.clone()))
        .chain(cells.keys().map(Board::of_cell))
        .filter(|b| b.game == kind.name())
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
        let proof = solved.iter().find(|s| s.board == *b);
        let stats = cells
            .iter()
            .find(|(k, _)| k.level == level && Board::of_cell(k) == *b);
        grid[i][j] = Some(match (proof, stats) {
            (Some(p), _) => ShareCell::proven(p.first_wins),
            (None, Some((_, s))) => match s.share() {
                Some(p) => ShareCell::played(p, s.decided()),
                None => ShareCell::not_run(),
            },
            (None, None) => ShareCell::not_run(),
        });
    }
    let (column_title, row_title) = match kind {
        GameKind::Odd => ("smallest group m", "board"),
        GameKind::Onyx => ("board size", "variant"),
        GameKind::Xodd | GameKind::Yodd => ("board size", ""),
    };
    let mut title = format!(
        "{}: first player's share at {level} s per move",
        capitalised(kind.name())
    );
    if solved.iter().any(|s| s.board.game == kind.name()) {
        title.push_str(" (P: proven)");
    }
    ShareGrid {
        title,
        column_title: column_title.into(),
        row_title: row_title.into(),
        rows,
        columns,
        cells: grid,
    }
}

/// Every picture of the report: a file stem (`balance-odd-0.05`) and its SVG.
pub fn pictures(
    cells: &BTreeMap<CellKey, CellStats>,
    solved: &[Solved],
    plan: &[Board],
    style: &Style,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for kind in GAMES {
        for level in levels(kind, cells) {
            let g = grid(kind, &level, cells, solved, plan);
            out.push((
                format!("balance-{}-{level}", kind.name()),
                share_grid_svg(&g, style),
            ));
        }
    }
    out
}

/// The whole report: per game a heading, its table and its pictures
/// (linked as `PICTURES/STEM.png`).
pub fn markdown(
    cells: &BTreeMap<CellKey, CellStats>,
    solved: &[Solved],
    plan: &[Board],
    pictures_dir: &str,
) -> String {
    let mut out = String::new();
    for kind in GAMES {
        let table = markdown_table(kind, cells, solved, plan);
        let title = capitalised(kind.name());
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
    out
}

/// The study's summary for the engine (`crate::fairness`): a line per
/// proven board and per level of play of each board, in the tables' order.
pub fn summary(cells: &BTreeMap<CellKey, CellStats>, solved: &[Solved]) -> String {
    let mut out = String::from(fairness::HEADER);
    out.push('\n');
    for kind in GAMES {
        for row in rows_of(kind, cells, solved, &[]) {
            let board = row.board;
            let finding = match (row.solved, &row.stats) {
                (Some(first), _) => {
                    let share = if first { 1.0 } else { 0.0 };
                    Finding {
                        game: board.game,
                        size: board.size,
                        rules: board.rules,
                        level: "proven".into(),
                        first_wins: 0,
                        second_wins: 0,
                        share,
                        low: share,
                        high: share,
                    }
                }
                (None, Some(s)) => {
                    let Some(share) = s.share() else { continue };
                    let (low, high) = s.interval();
                    Finding {
                        game: board.game,
                        size: board.size,
                        rules: board.rules,
                        level: row.level_text.trim_end_matches(" s").to_string(),
                        first_wins: s.first_wins,
                        second_wins: s.second_wins,
                        share,
                        low,
                        high,
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
        let count = |g: &str| plan.iter().filter(|b| b.game == g).count();
        assert_eq!(count("xodd"), 10);
        assert_eq!(count("yodd"), 8);
        // Sides 3..8: m from ceil(side/2) to 2 side.
        assert_eq!(count("odd"), 5 + 7 + 8 + 10 + 11 + 13);
        assert_eq!(count("onyx"), 12);
        let odd5: Vec<String> = plan
            .iter()
            .filter(|b| b.game == "odd" && b.size == 5)
            .map(Board::variant)
            .collect();
        assert_eq!(odd5.first().map(String::as_str), Some("m = 3"));
        assert_eq!(odd5.last().map(String::as_str), Some("m = 10"));
    }
}
