//! `oddity balance`: a cell plays self-play games with seeds, stops where
//! the decision rule decides (not a game later), records the build and the
//! command of every game, resumes, shards and merges; the report applies
//! the rule to every cell, leaves out games lost by a fault, refuses to
//! pool builds unless asked, and its tables are the committed sample's and
//! docs/balance.md's.
//!
//! tests/balance/sample.jsonl holds games of the study (docs/balance/), one
//! of them, Xodd 5's game p0.r2.a, turned into a time forfeit to try the
//! forfeit rule; tests/balance/two-builds.jsonl holds the first 20 games of
//! a cell played by two builds.

#[path = "support/match_harness.rs"]
mod harness;

use std::path::Path;
use std::process::{Command, Output};

use harness::{oddity, path_str, results, scratch};
use oddity_rules::GameKind;

fn balance(args: &[&str]) -> Output {
    Command::new(oddity())
        .arg("balance")
        .arg("--quiet")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("oddity runs")
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "oddity balance failed: {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Odd 2 with smallest group 5: proven a second-player win, and small
/// enough that the engine proves every position it is asked about.
const ODD2_M5: [&str; 8] = [
    "--game",
    "odd",
    "--size",
    "2",
    "--min-group",
    "5",
    "--st",
    "0.05",
];

/// What `oddity --version` says: the build every game record names.
fn version() -> String {
    let out = Command::new(oddity()).arg("--version").output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn a_clear_cell_stops_where_the_rule_decides_and_resumes_with_none() {
    let dir = scratch("balance-stop");
    let file = dir.join("odd2.jsonl");
    let mut args = ODD2_M5.to_vec();
    args.extend(["--max-games", "60", "--results", path_str(&file)]);
    let out = ok(&balance(&args));
    assert!(out.contains("decided for the second player"), "{out}");
    assert!(out.contains("stopped there"), "{out}");
    let games = results(&file);
    // The second player wins every game, so the rule decides at the 20th
    // (0-20: 20 >= 3.31 sqrt 20), and nothing after it is kept.
    assert_eq!(games.len(), 20, "{out}");
    assert!(games.iter().all(|g| g.winner_seat.as_deref() == Some("w")));
    assert!(games.iter().all(|g| g.black.ends_with("@0.05")));
    // Each game names the build that played it and the command.
    let build = version();
    assert!(build.starts_with("oddity "), "{build}");
    for g in &games {
        assert_eq!(g.black_build.as_deref(), Some(build.as_str()));
        assert_eq!(g.white_build.as_deref(), Some(build.as_str()));
        let command = g.command.as_deref().unwrap_or("");
        assert!(
            command.contains(" balance ") && command.contains("--min-group 5"),
            "{command}"
        );
    }
    // Run again: the cell is decided, nothing is played.
    let again = ok(&balance(&args));
    assert!(again.contains(" 0 played now"), "{again}");
    assert_eq!(results(&file).len(), games.len());
}

#[test]
fn with_two_games_at_once_the_file_still_ends_where_the_rule_decides() {
    let dir = scratch("balance-stop-two");
    let file = dir.join("odd2.jsonl");
    let mut args = ODD2_M5.to_vec();
    args.extend(["--max-games", "60", "--concurrency", "2"]);
    args.extend(["--results", path_str(&file)]);
    let out = ok(&balance(&args));
    assert!(out.contains("stopped there"), "{out}");
    // Games are written in schedule order, so the file is the schedule's
    // first 20 games, whichever finished first.
    let ids: Vec<String> = results(&file).into_iter().map(|g| g.id).collect();
    let expected: Vec<String> = (0..10)
        .flat_map(|r| [format!("p0.r{r}.a"), format!("p0.r{r}.b")])
        .collect();
    assert_eq!(ids, expected);
}

#[test]
fn seeds_make_the_games_differ() {
    let dir = scratch("balance-seeds");
    let file = dir.join("odd3.jsonl");
    let args = [
        "--game",
        "odd",
        "--size",
        "3",
        "--min-group",
        "3",
        "--st",
        "0.05",
        "--max-games",
        "8",
        "--results",
        path_str(&file),
    ];
    ok(&balance(&args));
    let games = results(&file);
    assert_eq!(games.len(), 8);
    let mut firsts: Vec<&str> = games.iter().map(|g| g.turns[0].as_str()).collect();
    firsts.sort_unstable();
    firsts.dedup();
    // From the one start position, the seeds give several first turns.
    assert!(firsts.len() >= 2, "every game began {firsts:?}");
}

#[test]
fn shards_merge_into_the_whole_cell() {
    let dir = scratch("balance-shards");
    let mut files = Vec::new();
    for shard in ["1/2", "2/2"] {
        let file = dir.join(format!("s{}.jsonl", &shard[..1]));
        let mut args = ODD2_M5.to_vec();
        args.extend(["--max-games", "8"]);
        args.extend(["--shard", shard, "--results", path_str(&file)]);
        ok(&balance(&args));
        assert_eq!(results(&file).len(), 4);
        files.push(file);
    }
    let merged = dir.join("all.jsonl");
    let out = ok(&balance(&[
        "--merge",
        path_str(&files[0]),
        path_str(&files[1]),
        path_str(&files[0]),
        "--results",
        path_str(&merged),
    ]));
    assert!(out.contains("8 games (4 duplicates dropped)"), "{out}");
    let mut ids: Vec<String> = results(&merged).into_iter().map(|g| g.id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 8);
}

#[test]
fn a_results_file_of_another_cell_is_refused() {
    let dir = scratch("balance-other");
    let file = dir.join("cell.jsonl");
    let mut args = ODD2_M5.to_vec();
    args.extend(["--max-games", "2", "--results", path_str(&file)]);
    ok(&balance(&args));
    let other = balance(&[
        "--game",
        "odd",
        "--size",
        "2",
        "--min-group",
        "4",
        "--st",
        "0.05",
        "--results",
        path_str(&file),
    ]);
    assert!(!other.status.success());
    assert!(String::from_utf8_lossy(&other.stderr).contains("another cell"));
    assert_eq!(results(&file).len(), 2);
    let no_st = balance(&["--game", "odd", "--results", path_str(&file)]);
    assert!(String::from_utf8_lossy(&no_st.stderr).contains("--st"));
}

#[test]
fn the_report_of_the_sample_is_the_committed_table() {
    let dir = scratch("balance-report");
    let out = ok(&balance(&[
        "--report",
        "tests/balance/sample.jsonl",
        "--solved",
        "tests/balance/solved.md",
        "--played-only",
        "--pictures",
        path_str(&dir),
        "--link",
        "pictures",
    ]));
    let expected = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/balance/sample.md"),
    )
    .unwrap();
    assert_eq!(out, expected);
    for stem in ["balance-odd-0.05", "balance-onyx-0.05", "balance-yodd-0.8"] {
        let svg = std::fs::read_to_string(dir.join(format!("{stem}.svg"))).unwrap();
        assert!(svg.contains(r#"class="cell""#), "{stem}");
        assert!(svg.contains(r#"class="interval""#), "{stem}");
        let png = std::fs::read(dir.join(format!("{stem}.png"))).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "{stem}");
    }
}

/// The line of the sample's table for a board, variant and level.
fn row<'a>(table: &'a str, start: &str) -> &'a str {
    table
        .lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no row {start}:\n{table}"))
}

#[test]
fn the_report_reads_each_cell_by_the_rule() {
    let table = ok(&balance(&[
        "--report",
        "tests/balance/sample.jsonl",
        "--played-only",
    ]));
    // Odd 3 with m = 4: the second player won the first 20 games, which
    // decides; the 21st is not read.
    let odd3 = row(&table, "| Odd 3 | m = 4 | 0.05 s |");
    assert!(
        odd3.contains("| **second** (at game 20) | 0-20 |"),
        "{odd3}"
    );
    assert!(odd3.contains("| 1 after the verdict |"), "{odd3}");
    // Yodd 8 at 0.8: 5-6 in 11 games decides nothing yet.
    let yodd8 = row(&table, "| Yodd 8 |  | 0.8 s |");
    assert!(yodd8.contains("| open | 5-6 |"), "{yodd8}");
    // Each row names its build.
    assert!(odd3.ends_with("| 738e851, attributed |"), "{odd3}");
    assert!(
        table.contains("The rule read 4 cells: 0 decided for the first player, 1 for the second")
    );
}

#[test]
fn a_game_lost_by_a_fault_is_named_and_left_out() {
    let table = ok(&balance(&[
        "--report",
        "tests/balance/sample.jsonl",
        "--played-only",
    ]));
    // Xodd 5: 24 games, one of them a time forfeit of the first player:
    // the rule reads the other 23, and the row names the forfeit.
    let xodd5 = row(&table, "| Xodd 5 |  | 0.05 s |");
    assert!(xodd5.contains("| 24 (24) | 1 time forfeit |"), "{xodd5}");
    let counts = xodd5.split(" | ").nth(4).unwrap();
    let (first, second) = counts.split_once('-').unwrap();
    let (first, second): (u64, u64) = (first.parse().unwrap(), second.parse().unwrap());
    assert_eq!(first + second, 23, "{xodd5}");
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/balance/sample.jsonl");
    let forfeits: usize = results(&sample)
        .iter()
        .filter(|g| g.game == GameKind::Xodd && g.reason == "time forfeit")
        .count();
    assert_eq!(forfeits, 1);
}

#[test]
fn a_cell_of_two_builds_is_refused_unless_pooled() {
    let refused = balance(&["--report", "tests/balance/two-builds.jsonl"]);
    assert!(!refused.status.success());
    let why = String::from_utf8_lossy(&refused.stderr);
    assert!(why.contains("holds games of 2 builds"), "{why}");
    assert!(
        why.contains("oddity 0.1.0 (738e851, attributed): 16 games"),
        "{why}"
    );
    assert!(why.contains("unrecorded: 4 games"), "{why}");
    assert!(why.contains("--pool-builds"), "{why}");
    let pooled = ok(&balance(&[
        "--report",
        "tests/balance/two-builds.jsonl",
        "--played-only",
        "--pool-builds",
    ]));
    let onyx = row(&pooled, "| Onyx 12 | standard start, swap | 0.8 s |");
    assert!(
        onyx.ends_with("| 738e851, attributed (16) + unrecorded (4) |"),
        "{onyx}"
    );
}

/// docs/balance.md's tables and docs/balance/summary.tsv are the report of
/// docs/balance/results as it stands (regenerate them with the command the
/// doc gives).
#[test]
fn the_docs_tables_are_the_report_of_the_kept_results() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(root.join("docs/balance/results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    let mut args = vec!["--report"];
    args.extend(files.iter().map(String::as_str));
    let summary = std::env::temp_dir().join(format!("oddity-summary-{}.tsv", std::process::id()));
    let summary_arg = summary.display().to_string();
    args.extend([
        "--solved",
        "docs/solved.md",
        "--link",
        "balance",
        "--pool-builds",
    ]);
    args.extend(["--summary", summary_arg.as_str()]);
    let report = ok(&balance(&args));
    // The summary the engine builds in (`oddity --help`, the GUI) is the
    // kept games' too.
    let written = std::fs::read_to_string(&summary).unwrap();
    let _ = std::fs::remove_file(&summary);
    let committed = std::fs::read_to_string(root.join("docs/balance/summary.tsv")).unwrap();
    assert_eq!(written, committed, "docs/balance/summary.tsv is stale");
    let doc = std::fs::read_to_string(root.join("docs/balance.md")).unwrap();
    let begin = "<!-- report begin -->\n";
    let section = doc
        .split_once(begin)
        .and_then(|(_, rest)| rest.split_once("<!-- report end -->"))
        .map(|(s, _)| s)
        .expect("docs/balance.md has the report markers");
    assert_eq!(section, report);
}

/// The `--help` lines that docs/balance.md quotes ("The study in the
/// engine") are what `oddity --help` says.
#[test]
fn the_docs_quote_of_the_help_is_the_help() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/balance.md")).unwrap();
    let section = doc
        .split_once("## The study in the engine")
        .and_then(|(_, rest)| rest.split_once("```\n"))
        .and_then(|(_, rest)| rest.split_once("```"))
        .map(|(quote, _)| quote)
        .expect("docs/balance.md quotes the help");
    let out = Command::new(oddity()).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    let help_lines: Vec<&str> = help.lines().map(str::trim).collect();
    assert!(!section.trim().is_empty());
    for line in section.lines().filter(|l| !l.trim().is_empty()) {
        assert!(
            help_lines.contains(&line.trim()),
            "docs/balance.md quotes '{line}', which `oddity --help` does not say"
        );
    }
}
