//! `oddity solve`: proves who wins a position and which turns win.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;

use crate::cli::position::PositionArgs;
use crate::cli::render::{caption, check_picture_options, last_turn, write_picture};
use oddity_render::{Mark, Picture, Style, Verdict};
use oddity_rules::{AnyGame, Cell, GameRecord, Turn};
use oddity_search::config;
use oddity_solver::{
    Solution, SolveLimits, SolveProgress, Solver, SolverParams, Value, check_retrograde,
    solve_retrograde,
};

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Give up after this many seconds (default: no limit).
    #[arg(long, value_name = "S", value_parser = config::seconds)]
    pub time: Option<Duration>,
    /// Solver threads (they share the table and take the turns in turn).
    #[arg(long, default_value = "1", value_parser = config::threads)]
    pub threads: usize,
    /// Give up after this many expansions.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Memory for the transposition table in MiB.
    #[arg(long, value_name = "MB", default_value = "1024", value_parser = config::memory)]
    pub memory: usize,
    /// Prove only the position's value, not every turn's.
    #[arg(long)]
    pub value_only: bool,
    /// Check every proven value by walking its proof from the rules.
    #[arg(long)]
    pub check: bool,
    /// Value every position that can follow by retrograde analysis instead
    /// of searching (Xodd, Yodd and Odd with at most 21 empty cells, which
    /// with the groups next to them are at most 64 points; the table takes
    /// 3^empty bytes, within --memory).
    #[arg(long, conflicts_with_all = ["nodes", "time", "value_only", "no_ordering", "playouts", "epsilon"])]
    pub retrograde: bool,
    /// Print one JSON object (the last stdout line) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write the board with every turn marked won or lost, as SVG.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// ... and as PNG.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// Pixels per board unit in pictures.
    #[arg(long, default_value_t = 40.0)]
    pub scale: f64,
    /// Ablation: keys without the board's symmetries (and a check that
    /// walks every image of a position on its own).
    #[arg(long)]
    pub no_symmetry: bool,
    /// Ablation: children in the rules' order, without game knowledge.
    #[arg(long)]
    pub no_ordering: bool,
    /// Random games from each new child for its first proof numbers.
    #[arg(long, default_value_t = 0)]
    pub playouts: u32,
    /// The largest first proof number the random games give.
    #[arg(long, default_value_t = 10)]
    pub playout_scale: u32,
    /// df-pn stays with a child until its number exceeds the second-best
    /// child's by this factor (the "1 + epsilon" rule).
    #[arg(long, default_value_t = 16)]
    pub epsilon: u32,
}

impl SolveArgs {
    fn limits(&self) -> Result<SolveLimits, String> {
        if self.memory == 0 {
            return Err("--memory must be at least 1 MiB".into());
        }
        check_picture_options(self.scale, self.png.as_deref())?;
        Ok(SolveLimits {
            time: self.time,
            nodes: self.nodes,
        })
    }
}

pub fn run(args: &SolveArgs) -> Result<(), String> {
    let limits = args.limits()?;
    let record = args.position.record()?;
    let game = record.position().clone();
    if game.is_over() {
        return Err("the game is over: there is nothing to solve".into());
    }
    if args.retrograde {
        return run_retrograde(args, &record);
    }
    let mut solver = Solver::new(SolverParams {
        threads: args.threads,
        memory_mb: args.memory,
        symmetry: !args.no_symmetry,
        ordering: !args.no_ordering,
        playouts: args.playouts,
        playout_scale: args.playout_scale,
        epsilon: args.epsilon,
    });
    let stop = AtomicBool::new(false);
    let live = std::io::stderr().is_terminal();
    let mut show = |p: &SolveProgress| {
        let root = p.root.map_or("-".to_string(), |n| {
            format!("pn {} dn {}", number(n.pn), number(n.dn))
        });
        eprint!(
            "\r{:.1} s  {} nodes  root {root}  turns {}/{}  table {}   ",
            p.elapsed.as_secs_f64(),
            p.nodes,
            p.turns_done,
            p.turns,
            p.table_entries
        );
        let _ = std::io::stderr().flush();
    };
    let progress: oddity_solver::ProgressFn<'_> = if live {
        Some((&mut show, Duration::from_millis(250)))
    } else {
        None
    };
    let solution = solver.solve(&game, !args.value_only, &limits, &stop, progress);
    if live {
        eprint!("\r{:70}\r", "");
    }
    let checked = if args.check {
        Some(solver.check(&game, &solution).map_err(|e| e.to_string()))
    } else {
        None
    };
    report(args, &record, &solution, checked, None)
}

/// `--retrograde`: the value of every position that can follow, in a pool
/// of `--threads` threads.
fn run_retrograde(args: &SolveArgs, record: &GameRecord) -> Result<(), String> {
    let game = record.position();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| format!("cannot start the solver threads: {e}"))?;
    if std::io::stderr().is_terminal() {
        eprint!("valuing every position that can follow ...");
    }
    let solved = pool.install(|| solve_retrograde(game, args.memory));
    if std::io::stderr().is_terminal() {
        eprint!("\r{:70}\r", "");
    }
    let (solution, table) = solved.map_err(|e| e.to_string())?;
    let checked = args.check.then(|| {
        check_retrograde(game, &solution, &table, !args.no_symmetry).map_err(|e| e.to_string())
    });
    report(args, record, &solution, checked, Some(table.bytes()))
}

/// Prints the solution (text or JSON), draws it when asked, and fails when
/// its check did. `table_bytes`: the size of the table of every position
/// that can follow, when the solution was read from one.
fn report(
    args: &SolveArgs,
    record: &GameRecord,
    solution: &Solution,
    checked: Option<Result<u64, String>>,
    table_bytes: Option<u64>,
) -> Result<(), String> {
    let game = record.position();
    if args.json {
        println!("{}", json(game, solution, checked.as_ref(), table_bytes));
    } else {
        print!("{}", text(game, solution, checked.as_ref(), table_bytes));
    }
    if args.svg.is_some() || args.png.is_some() {
        let style = Style {
            scale: args.scale,
            ..Style::default()
        };
        let svg = oddity_render::svg(&picture(record, solution), &style);
        for out in [&args.svg, &args.png].into_iter().flatten() {
            write_picture(&svg, Some(out))?;
        }
    }
    match checked {
        Some(Err(e)) => Err(format!("the proof did not check: {e}")),
        _ => Ok(()),
    }
}

fn number(n: u32) -> String {
    if n == oddity_solver::dfpn::INF {
        "inf".into()
    } else {
        n.to_string()
    }
}

fn value_words(game: &AnyGame, s: &Solution) -> String {
    let mover = s.to_move.name();
    match s.value {
        Some(Value::Win) => format!("win for {mover}, the side to move"),
        Some(Value::Loss) => format!("loss for {mover}, the side to move"),
        Some(Value::Neither) => "neither side can force a win: play can go on for ever".to_string(),
        None => {
            let _ = game;
            "not proven within the limits".to_string()
        }
    }
}

/// The solution in words; `table_bytes` when every position that can
/// follow was valued, in a table of that size.
fn text(
    game: &AnyGame,
    s: &Solution,
    checked: Option<&Result<u64, String>>,
    table_bytes: Option<u64>,
) -> String {
    let mut out = String::new();
    let spec = game.spec();
    let _ = writeln!(out, "{}, {} to move", spec.title(), s.to_move.name());
    let _ = writeln!(out, "value: {}", value_words(game, s));
    let list = |v: Value| -> Vec<String> {
        s.turns
            .iter()
            .filter(|t| t.value == Some(v))
            .map(|t| game.token(&t.turn))
            .collect()
    };
    let total = s.turns.len();
    for (v, label) in [
        (Value::Win, "winning turns"),
        (Value::Neither, "turns won by neither"),
        (Value::Loss, "losing turns"),
    ] {
        let tokens = list(v);
        if !tokens.is_empty() || v == Value::Win {
            let _ = writeln!(
                out,
                "{label} ({} of {total}): {}",
                tokens.len(),
                if tokens.is_empty() {
                    "none".to_string()
                } else {
                    tokens.join(" ")
                }
            );
        }
    }
    let unknown = s.turns.iter().filter(|t| t.value.is_none()).count();
    if unknown > 0 {
        let _ = writeln!(out, "turns not proven: {unknown} of {total}");
    }
    if !s.pv.is_empty() {
        let pv: Vec<String> = s.pv.iter().map(|t| game.token(t)).collect();
        let _ = writeln!(out, "principal line: {}", pv.join(" "));
    }
    if let Some(bytes) = table_bytes {
        let _ = writeln!(
            out,
            "every position that can follow valued: {} positions, a table of {} bytes, {:.2} s",
            s.nodes,
            bytes,
            s.elapsed.as_secs_f64()
        );
    } else {
        let _ = writeln!(
            out,
            "nodes {}, table {} entries of {}, {:.2} s",
            s.nodes,
            s.table_entries,
            s.table_capacity,
            s.elapsed.as_secs_f64()
        );
    }
    match checked {
        Some(Ok(n)) => {
            let _ = writeln!(out, "checked: every proven value, {n} positions");
        }
        Some(Err(e)) => {
            let _ = writeln!(out, "check FAILED: {e}");
        }
        None => {}
    }
    out
}

fn json(
    game: &AnyGame,
    s: &Solution,
    checked: Option<&Result<u64, String>>,
    table_bytes: Option<u64>,
) -> String {
    let spec = game.spec();
    let turns: Vec<serde_json::Value> = s
        .turns
        .iter()
        .map(|t| {
            serde_json::json!({
                "turn": game.token(&t.turn),
                "value": t.value.map_or("unknown", Value::name),
            })
        })
        .collect();
    let pv: Vec<String> = s.pv.iter().map(|t| game.token(t)).collect();
    let mut object = serde_json::json!({
        "game": spec.kind.name(),
        "size": spec.size,
        "rules": spec.rules_text(),
        "to_move": s.to_move.seat(),
        "value": s.value.map_or("unknown", Value::name),
        "turns": turns,
        "pv": pv,
        "nodes": s.nodes,
        "table_entries": s.table_entries,
        "table_capacity": s.table_capacity,
        "method": if table_bytes.is_some() { "retrograde" } else { "df-pn" },
        "bytes_per_entry": match table_bytes {
            Some(bytes) => serde_json::json!(bytes as f64 / s.nodes.max(1) as f64),
            None => serde_json::json!(oddity_solver::table::ENTRY_BYTES),
        },
        "seconds": s.elapsed.as_secs_f64(),
        "nodes_per_second": s.nodes as f64 / s.elapsed.as_secs_f64().max(1e-9),
    });
    if let Some(c) = checked {
        object["checked"] = match c {
            Ok(n) => serde_json::json!({"ok": true, "positions": n}),
            Err(e) => serde_json::json!({"ok": false, "error": e}),
        };
    }
    object.to_string()
}

/// The board with each cell marked by the value of the turns played on it
/// (won, lost, or some of each), labelled with the stone colours that win
/// there (Xodd, Yodd, Odd).
fn picture<'a>(record: &'a GameRecord, s: &Solution) -> Picture<'a> {
    let game = record.position();
    let kind = game.kind();
    // Per cell: values of the turns that use it, and the winning colours.
    let mut cells: Vec<(Cell, Vec<Value>, String)> = Vec::new();
    let mut special = Vec::new();
    for t in &s.turns {
        let Some(value) = t.value else { continue };
        match t.turn {
            Turn::Stones(a, b) => {
                for stone in std::iter::once(a).chain(b) {
                    let at = match cells.iter().position(|(c, _, _)| *c == stone.cell) {
                        Some(i) => i,
                        None => {
                            cells.push((stone.cell, Vec::new(), String::new()));
                            cells.len() - 1
                        }
                    };
                    let entry = &mut cells[at];
                    entry.1.push(value);
                    let letter = stone.colour.letter();
                    if value == Value::Win && kind.colour_is_chosen() && !entry.2.contains(letter) {
                        entry.2.push(letter);
                    }
                }
            }
            other => special.push(format!("{} {}s", game.token(&other), value.name())),
        }
    }
    let marks = cells
        .into_iter()
        .map(|(cell, values, mut label)| {
            let verdict = if values.iter().all(|v| *v == Value::Win) {
                Verdict::Won
            } else if values.iter().all(|v| *v == Value::Loss) {
                Verdict::Lost
            } else {
                Verdict::Mixed
            };
            // "BW" in a fixed order.
            if label.len() == 2 {
                label = "BW".into();
            }
            Mark {
                cell,
                verdict,
                label,
            }
        })
        .collect();
    let mut text = caption(record);
    let _ = write!(
        text,
        " · {}",
        match s.winner() {
            Some(w) => format!("{} wins", w.name()),
            None if s.value == Some(Value::Neither) => "neither wins".to_string(),
            None => "unsolved".to_string(),
        }
    );
    for item in special {
        let _ = write!(text, " · {item}");
    }
    Picture {
        last_turn: last_turn(record),
        marks,
        caption: Some(text),
        ..Picture::new(game)
    }
}
