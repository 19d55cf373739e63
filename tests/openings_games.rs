//! `oddity openings --check-games`: openings are kept and dropped by how
//! the games from them end. On Odd 2 (smallest group 2) the engine plays
//! perfectly (the whole board is within its endgame solver), so the games
//! from each one-turn opening end as the exact solver says, and the kept
//! openings must be exactly the ones the solver proves for the window's side.

#[path = "support/match_harness.rs"]
mod fake_engines;

use std::collections::BTreeSet;
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use fake_engines::{oddity, path_str, results, scratch};
use oddity_rules::{AnyGame, GameKind, GameRecord, GameSpec, Rules};
use oddity_solver::{SolveLimits, Solver, SolverParams};
use oddity_tournament::opening_games::{Check, play, select};

fn odd2() -> GameSpec {
    let rules = Rules {
        min_group: Some(2),
        ..Rules::default()
    };
    GameSpec::new(GameKind::Odd, 2, rules).unwrap()
}

/// Every one-turn opening of `spec` whose winner (with best play) is the
/// first player.
fn proven_first_player_wins(spec: &GameSpec) -> (Vec<Vec<String>>, BTreeSet<Vec<String>>) {
    let start = AnyGame::new(spec);
    let first = start.to_move();
    let mut all = Vec::new();
    let mut won = BTreeSet::new();
    for turn in start.legal_turns() {
        let line = vec![start.token(&turn)];
        let record = GameRecord::replay(start.clone(), &line).expect("a legal turn");
        let solution = Solver::new(SolverParams::default()).solve(
            record.position(),
            false,
            &SolveLimits::default(),
            &AtomicBool::new(false),
            None,
        );
        let winner = solution.winner().expect("Odd 2 is solved at once");
        if winner == first {
            won.insert(line.clone());
        }
        all.push(line);
    }
    (all, won)
}

#[test]
fn the_games_decide_which_openings_are_kept() {
    let spec = odd2();
    let (lines, won) = proven_first_player_wins(&spec);
    // Both kinds occur, so keeping and dropping are both tested.
    assert!(!won.is_empty() && won.len() < lines.len(), "{won:?}");
    let dir = scratch("openings-games");
    let check = Check {
        engine: format!("{} gtp --threads 1", oddity().display()),
        games: 2,
        per_move: Duration::from_millis(50),
        share: (0.35, 0.65),
        results: dir.join("games.jsonl"),
        command: None,
        concurrency: 1,
        seed: 1,
        max_turns: 28,
        progress: false,
    };
    let checked = play(&spec, &lines, &check, Arc::new(AtomicBool::new(false))).unwrap();
    assert_eq!(checked.len(), lines.len());
    for c in &checked {
        assert_eq!(c.first + c.second, 2, "{c:?}");
        let expected = if won.contains(&c.moves) { 2 } else { 0 };
        assert_eq!(c.first, expected, "{c:?}: the games must end as proven");
    }
    // Every opening is decided, so a window around one half keeps none.
    assert!(select(&checked, (0.35, 0.65)).is_empty());
    // Windows on either side keep exactly the openings their games favour.
    let kept: BTreeSet<Vec<String>> = select(&checked, (0.9, 1.0))
        .into_iter()
        .map(|c| c.moves)
        .collect();
    assert_eq!(kept, won);
    let lost: BTreeSet<Vec<String>> = select(&checked, (0.0, 0.1))
        .into_iter()
        .map(|c| c.moves)
        .collect();
    assert_eq!(lost.len(), lines.len() - won.len());
    assert!(lost.is_disjoint(&won));
    assert_eq!(results(&check.results).len(), 2 * lines.len());
}

fn openings(args: &[&str]) -> Output {
    Command::new(oddity())
        .args([
            "openings",
            "--game",
            "odd",
            "--size",
            "2",
            "--min-group",
            "2",
        ])
        .args(args)
        .output()
        .expect("oddity runs")
}

#[test]
fn the_command_keeps_by_games_and_resumes() {
    let spec = odd2();
    let (_, won) = proven_first_player_wins(&spec);
    let dir = scratch("openings-command");
    let file = dir.join("games.jsonl");
    let args = [
        "--plies",
        "1",
        "--candidates",
        "8",
        "--visits",
        "100",
        "--check-games",
        "2",
        "--check-st",
        "0.05",
        "--keep-share",
        "0.9-1",
        "--results",
        path_str(&file),
    ];
    let out = openings(&args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = results(&file);
    assert!(!games.is_empty() && games.len().is_multiple_of(2));
    let played: BTreeSet<Vec<String>> = games.iter().map(|g| g.opening.clone()).collect();
    let kept: BTreeSet<Vec<String>> = stdout
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let moves = l.split('#').next().unwrap();
            moves.split_whitespace().map(String::from).collect()
        })
        .collect();
    let expected: BTreeSet<Vec<String>> = played.intersection(&won).cloned().collect();
    assert_eq!(kept, expected, "{stdout}");

    // The same command again plays nothing more and prints the same file.
    let again = openings(&args);
    assert!(again.status.success());
    assert_eq!(String::from_utf8_lossy(&again.stdout), stdout);
    assert_eq!(results(&file).len(), games.len());

    // Other candidates with the same results file are refused, the file kept.
    let mut other = args;
    other[1] = "2";
    let refused = openings(&other);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("not one of these candidates"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    assert_eq!(results(&file).len(), games.len());

    // Bad input: an odd number of games.
    let mut odd = args;
    odd[7] = "3";
    let bad = openings(&odd);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("even"));
}
