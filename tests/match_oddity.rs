//! `oddity match` between two low-visit `oddity gtp` configurations on every
//! game.

#[path = "support/match_harness.rs"]
mod fake_engines;

use fake_engines::*;

fn oddity_vs_oddity(game: &str, size: &str, extra: &[&str]) {
    let dir = scratch(&format!("oddity-{game}"));
    let res = dir.join("r.jsonl");
    let mut args = vec![
        "--game",
        game,
        "--size",
        size,
        "--games",
        "4",
        "--concurrency",
        "2",
        "--engine",
        "low=oddity gtp --threads 1 --visits 20 --seed 1",
        "--engine",
        "high=oddity gtp --threads 1 --visits 80 --seed 2",
        "--results",
        path_str(&res),
        "--json",
    ];
    args.extend_from_slice(extra);
    let stdout = ok(&run_match(&args));
    let rs = results(&res);
    assert_eq!(rs.len(), 4);
    for r in &rs {
        assert!(
            matches!(
                r.reason.as_str(),
                "rules" | "resignation" | "length cap (not a rule)"
            ),
            "oddity misbehaved: {r:?}"
        );
    }
    let summary: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(summary["games"], 4);
}

#[test]
fn oddity_xodd() {
    oddity_vs_oddity("xodd", "5", &[]);
}

#[test]
fn oddity_yodd() {
    oddity_vs_oddity("yodd", "4", &[]);
}

#[test]
fn oddity_odd() {
    oddity_vs_oddity("odd", "4", &[]);
}

#[test]
fn oddity_onyx() {
    oddity_vs_oddity("onyx", "8", &["--open"]);
}
