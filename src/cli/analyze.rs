//! `oddity analyze`: analyse one position (or, with `--each-turn`, every
//! position of a game) and print it for a person, or as JSON.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::args::EngineArgs;
use crate::cli::position::PositionArgs;
use crate::cli::render::{caption, check_picture_options, last_turn, write_picture};
use oddity_analysis::blunders::{GameCheck, check_game};
use oddity_analysis::result::{Analysis, CellInfo, Settings, analyse};
use oddity_gtp::board;
use oddity_render::{HeatMap, Picture, Style};
use oddity_rules::{AnyGame, GameRecord};
use oddity_search::{Limits, Report, every_core};

/// What the heat map shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HeatKind {
    /// The visits of all candidate turns that put a stone on the cell.
    Visits,
    /// The win rate, for the side to move, of the most visited candidate
    /// turn that puts a stone on the cell (the `cells[].winrate` of --json).
    Winrate,
}

#[derive(Args, Debug)]
#[command(
    mut_arg("time", |a| a.help("Seconds per position")),
    mut_arg("visits", |a| a.help("Search iterations per position (default 10000 unless --time is given; with both, whichever comes first)")),
    mut_arg("threads", |a| a.help("Search threads (default: every core). One thread and a fixed seed give the same analysis every time")),
    mut_arg("seed", |a| a.help("Random seed (default 0)"))
)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Candidate turns to list.
    #[arg(long, default_value_t = 5)]
    pub top: usize,
    /// Print one JSON object instead of text (schema: docs/analysis.md).
    #[arg(long)]
    pub json: bool,
    /// Write a picture with the heat map and the best line as SVG.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// ... and as PNG.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// What the picture's heat map shows, coloured from its lowest value
    /// over the cells (blue, faint) to its highest (red); the legend gives
    /// both.
    #[arg(long, value_enum, default_value = "visits")]
    pub heat: HeatKind,
    /// Pixels per board unit in pictures.
    #[arg(long, default_value_t = 40.0)]
    pub scale: f64,
    /// Analyse every position of the game and list the turns that lowered
    /// their mover's win rate most (a blunder check).
    #[arg(long, conflicts_with_all = ["svg", "png"])]
    pub each_turn: bool,
    /// With --each-turn: how many of the worst turns to list.
    #[arg(long, default_value_t = 5, requires = "each_turn")]
    pub blunders: usize,
    /// With --each-turn: the smallest drop in win rate that counts (0..1).
    #[arg(long, default_value_t = 0.1, requires = "each_turn")]
    pub threshold: f64,
    /// With --each-turn: write Black's win rate over the game as a graph
    /// (SVG, or PNG when FILE ends in .png).
    #[arg(long, value_name = "FILE", requires = "each_turn")]
    pub graph: Option<PathBuf>,
}

impl AnalyzeArgs {
    fn settings(&self) -> Result<Settings, String> {
        if !(0.0..=1.0).contains(&self.threshold) {
            return Err("--threshold is a win-rate drop between 0 and 1".into());
        }
        check_picture_options(self.scale, self.png.as_deref())?;
        let mut defaults = Settings::default().engine;
        defaults.params.threads = every_core();
        let settings = Settings {
            engine: self.engine.config(defaults)?,
            top: self.top,
        };
        if settings.limits() == Limits::default() {
            return Err("--visits 0 (no cap) needs --time".into());
        }
        Ok(settings)
    }
}

/// A progress bar on stderr, only when stderr is a terminal.
fn progress_bar(length: u64, unit: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(length);
    let template = format!("{{spinner}} [{{bar:40}}] {{pos}}/{{len}} {unit} {{msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    Some(bar)
}

pub fn run(args: &AnalyzeArgs) -> Result<(), String> {
    let settings = args.settings()?;
    let record = args.position.record()?;
    if args.each_turn {
        return run_each_turn(args, &settings, &record);
    }
    let analysis = analyse_with_bar(&record, &settings);
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&analysis).map_err(|e| e.to_string())?
        );
    } else {
        print!("{}", text(&record, &analysis));
    }
    if args.svg.is_some() || args.png.is_some() {
        let style = Style {
            scale: args.scale,
            ..Style::default()
        };
        let svg = oddity_render::svg(&picture(&record, &analysis, args.heat), &style);
        if let Some(path) = &args.svg {
            write_picture(&svg, Some(path))?;
        }
        if let Some(path) = &args.png {
            if !path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("png"))
            {
                return Err(format!(
                    "--png {}: give a file name ending in .png",
                    path.display()
                ));
            }
            write_picture(&svg, Some(path))?;
        }
    }
    Ok(())
}

fn analyse_with_bar(record: &GameRecord, settings: &Settings) -> Analysis {
    let mut engine = settings.engine();
    let limits = settings.limits();
    let by_time = limits.visits.is_none();
    let bar = match (limits.visits, limits.time) {
        (Some(v), _) => progress_bar(v, "visits"),
        (None, Some(t)) => progress_bar(t.as_millis() as u64, "ms"),
        (None, None) => None,
    };
    let Some(bar) = bar else {
        return analyse(&mut engine, record, settings, None);
    };
    let mut update = |r: &Report| {
        bar.set_position(if by_time {
            r.elapsed.as_millis() as u64
        } else {
            r.iterations
        });
    };
    let analysis = analyse(
        &mut engine,
        record,
        settings,
        Some((&mut update, Duration::from_millis(100))),
    );
    bar.finish_and_clear();
    analysis
}

fn percent(v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

/// The text for a person: the `showboard` diagram and status, then the
/// candidates.
pub fn text(record: &GameRecord, a: &Analysis) -> String {
    let mut out = board::draw(record);
    if a.game_over {
        return out;
    }
    let _ = writeln!(
        out,
        "\nAnalysis: {} visits; {} to move, win rate {}",
        a.root_info.visits,
        a.to_move,
        percent(a.root_info.winrate)
    );
    if let Some(winner) = a.root_info.proven {
        let _ = writeln!(out, "Proven: {winner} wins with best play");
    }
    let width = a
        .move_infos
        .iter()
        .map(|m| m.token.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        out,
        "  # {:<width$} {:>8} {:>7}  principal variation",
        "move", "visits", "win"
    );
    for m in &a.move_infos {
        let proof = match m.proven {
            Some(w) => format!("  (proven: {w} wins)"),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "{:>3} {:<width$} {:>8} {:>7}  {}{proof}",
            m.order + 1,
            m.token,
            m.visits,
            percent(m.winrate),
            m.pv.join(" ")
        );
    }
    out
}

/// The heat map of an analysis over its position.
pub fn heat_map(position: &AnyGame, a: &Analysis, kind: HeatKind) -> HeatMap {
    let topo = position.topology();
    // A cell whose turns no visit reached has no win rate to show.
    let cells: Vec<&CellInfo> = a
        .cells
        .iter()
        .flatten()
        .filter(|c| kind == HeatKind::Visits || c.visits > 0)
        .collect();
    // Values are spread from the lowest to the highest, for contrast.
    let value = |c: &&CellInfo| match kind {
        HeatKind::Visits => c.visits as f64,
        HeatKind::Winrate => c.winrate,
    };
    let lo = cells.iter().map(value).fold(f64::INFINITY, f64::min);
    let hi = cells.iter().map(value).fold(f64::NEG_INFINITY, f64::max);
    let span = if hi > lo { hi - lo } else { 1.0 };
    let values = cells
        .iter()
        .filter_map(|c| Some((topo.parse_cell(&c.cell)?, (value(c) - lo) / span)))
        .collect();
    let (lo, hi) = if cells.is_empty() {
        (0.0, 0.0)
    } else {
        (lo, hi)
    };
    match kind {
        HeatKind::Visits => HeatMap {
            title: "visits per cell".into(),
            values,
            low: format!("{lo}"),
            high: format!("{hi}"),
        },
        HeatKind::Winrate => HeatMap {
            title: format!("win rate for {} (most visited turn per cell)", a.to_move),
            values,
            low: percent(lo),
            high: percent(hi),
        },
    }
}

/// The position with its heat map and the best line numbered.
pub fn picture<'a>(record: &'a GameRecord, a: &Analysis, kind: HeatKind) -> Picture<'a> {
    let position = record.position();
    let mut text = caption(record);
    if let Some(best) = a.move_infos.first() {
        let _ = write!(text, " · best {} ({})", best.token, percent(best.winrate));
    }
    Picture {
        last_turn: last_turn(record),
        heat: (!a.game_over).then(|| heat_map(position, a, kind)),
        best_line: a
            .move_infos
            .first()
            .map(|m| m.pv_turns.iter().take(9).copied().collect())
            .unwrap_or_default(),
        caption: Some(text),
        ..Picture::new(position)
    }
}

fn run_each_turn(
    args: &AnalyzeArgs,
    settings: &Settings,
    record: &GameRecord,
) -> Result<(), String> {
    let total = record.moves().len() as u64 + 1;
    let bar = progress_bar(total, "positions");
    let mut tick = |done: usize, _total: usize| {
        if let Some(bar) = &bar {
            bar.set_position(done as u64);
        }
    };
    let check = check_game(record, settings, args.threshold, args.blunders, &mut tick);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&check).map_err(|e| e.to_string())?
        );
    } else {
        print!("{}", blunder_text(&check, args.threshold));
    }
    if let Some(path) = &args.graph {
        let marked: Vec<usize> = check.blunders.iter().map(|t| t.turn).collect();
        let title = format!(
            "{} {}: Black's win rate, {} turns",
            check.game,
            check.size,
            check.turns.len()
        );
        let svg = oddity_render::win_rate_graph(
            &check.black_winrates,
            &marked,
            &title,
            &Style::default(),
        );
        write_picture(&svg, Some(path))?;
    }
    Ok(())
}

fn blunder_text(check: &GameCheck, threshold: f64) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {}: {} turns checked",
        check.game,
        check.size,
        check.turns.len()
    );
    let _ = writeln!(
        out,
        "{:>5} {:>4} {:<14} {:>7} {:>7} {:>7}  engine's choice",
        "turn", "seat", "move", "before", "after", "drop"
    );
    for t in &check.turns {
        let mark = if check.blunders.iter().any(|b| b.turn == t.turn) {
            " <-"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{:>5} {:>4} {:<14} {:>7} {:>7} {:>7}  {}{mark}",
            t.turn,
            t.seat,
            t.token,
            percent(t.winrate_before),
            percent(t.winrate_after),
            percent(t.drop),
            t.best.as_deref().unwrap_or("-")
        );
    }
    if check.blunders.is_empty() {
        let _ = writeln!(out, "\nNo turn lost {} or more.", percent(threshold));
    } else {
        let _ = writeln!(
            out,
            "\nWorst turns (drop of {} or more):",
            percent(threshold)
        );
        for t in &check.blunders {
            let _ = writeln!(
                out,
                "  turn {} by {}: {} dropped {} -> {} ({}); engine's choice {}",
                t.turn,
                t.seat,
                t.token,
                percent(t.winrate_before),
                percent(t.winrate_after),
                percent(t.drop),
                t.best.as_deref().unwrap_or("-")
            );
        }
    }
    out
}
