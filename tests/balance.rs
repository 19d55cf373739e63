//! `oddity balance`: a cell plays self-play games with seeds, stops by its
//! rule, resumes, shards and merges; the report's tables are the committed
//! sample's and docs/balance.md's.

#[path = "support/match_harness.rs"]
mod harness;

use std::path::Path;
use std::process::{Command, Output};

use harness::{oddity, path_str, results, scratch};

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

#[test]
fn a_clear_cell_stops_after_its_least_games_and_resumes_with_none() {
    let dir = scratch("balance-stop");
    let file = dir.join("odd2.jsonl");
    let mut args = ODD2_M5.to_vec();
    args.extend(["--max-games", "60", "--results", path_str(&file)]);
    let out = ok(&balance(&args));
    assert!(out.contains("decided (stopped early)"), "{out}");
    let games = results(&file);
    // The second player wins every game, so the rule stops at 20 games;
    // the one worker may have begun one more, which finishes.
    assert!((20..=21).contains(&games.len()), "{out}");
    assert!(games.iter().all(|g| g.winner_seat.as_deref() == Some("w")));
    assert!(games.iter().all(|g| g.black.ends_with("@0.05")));
    // Run again: the cell is decided, nothing is played.
    let again = ok(&balance(&args));
    assert!(again.contains(" 0 played now"), "{again}");
    assert_eq!(results(&file).len(), games.len());
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
        args.extend(["--max-games", "8", "--min-games", "100"]);
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
        let png = std::fs::read(dir.join(format!("{stem}.png"))).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "{stem}");
    }
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
    args.extend(["--solved", "docs/solved.md", "--link", "balance"]);
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
