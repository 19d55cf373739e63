//! Elo, LOS and SPRT arithmetic against known values, and an SPRT that
//! stops a tournament.

#[path = "support/match_harness.rs"]
mod fake_engines;

use fake_engines::*;
use oddity_tournament::stats::{Sprt, Verdict, elo_from_score, elo_with_error, los};

#[test]
fn elo_from_known_scores() {
    assert!((elo_from_score(0.75) - 190.85).abs() < 0.005);
    assert!((elo_from_score(0.25) + 190.85).abs() < 0.005);
    assert!(elo_from_score(0.5).abs() < 1e-12);
    assert!((elo_from_score(10.0 / 11.0) - 400.0).abs() < 1e-9);
}

#[test]
fn elo_interval() {
    // 75 wins, 25 losses: s = 0.75, se = sqrt(0.75 * 0.25 / 100) = 0.0433;
    // elo(0.75 + 1.96 se) = elo(0.8349) = 281.52 and
    // elo(0.75 - 1.96 se) = elo(0.6651) = 119.21, half width 81.15.
    let (elo, err) = elo_with_error(75, 25).unwrap();
    assert!((elo - 190.85).abs() < 0.01);
    assert!((err - 81.15).abs() < 0.01, "{err}");
    assert!(elo_with_error(0, 0).is_none());
}

#[test]
fn los_of_known_results() {
    assert!((los(60, 40) - 0.9777).abs() < 5e-4);
    assert!((los(50, 50) - 0.5).abs() < 1e-7);
    assert!((los(40, 60) - 0.0228).abs() < 5e-4);
}

#[test]
fn sprt_llr_hand_computed() {
    // Pairs scoring 0, 0.5, 1, 1.5, 2 points: 2, 3, 5, 6, 4 (N = 20).
    // Per-pair score x = points / 2: mean 11.75 / 20 = 0.5875,
    // variance 8.8125 / 20 - 0.5875^2 = 0.09546875.
    // s0 = 0.5 (elo0 = 0), s1 = 1 / (1 + 10^-0.025) = 0.5143872.
    // LLR = 20 * 0.0143872 * (1.175 - 1.0143872) / (2 * 0.09546875) = 0.24204.
    let sprt = Sprt::parse("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap();
    let llr = sprt.llr(&[2, 3, 5, 6, 4]);
    assert!((llr - 0.24204).abs() < 1e-4, "{llr}");
    assert!((sprt.upper_bound() - 2.944_439).abs() < 1e-6);
    assert!((sprt.lower_bound() + 2.944_439).abs() < 1e-6);
    assert_eq!(sprt.verdict(&[2, 3, 5, 6, 4]), Verdict::Continue);
    // Mirrored counts give the opposite evidence of the other hypothesis side.
    assert!(sprt.llr(&[4, 6, 5, 3, 2]) < 0.0);
    assert_eq!(sprt.verdict(&[0, 0, 0, 0, 40]), Verdict::AcceptH1);
    assert_eq!(sprt.verdict(&[40, 0, 0, 0, 0]), Verdict::AcceptH0);
    assert_eq!(sprt.llr(&[0; 5]), 0.0);
}

#[test]
fn sprt_settings_are_checked() {
    assert!(Sprt::parse("elo0=5 elo1=0").is_err());
    assert!(Sprt::parse("elo1=5").is_err());
    assert!(Sprt::parse("elo0=0 elo1=5 alpha=0.7").is_err());
    assert!(Sprt::parse("elo0=0,elo1=5,gamma=1").is_err());
    let s = Sprt::parse("elo0=0,elo1=5").unwrap();
    assert_eq!((s.alpha, s.beta), (0.05, 0.05));
}

#[test]
fn sprt_stops_the_tournament() {
    let dir = scratch("sprt");
    let res = dir.join("r.jsonl");
    let strong = engine("strong", "");
    let weak = engine("weak", "--mode resign --after 1");
    let out = run_match(&[
        "--game",
        "odd",
        "--size",
        "2",
        "--games",
        "200",
        "--engine",
        &strong,
        "--engine",
        &weak,
        "--sprt",
        "elo0=0 elo1=50 alpha=0.05 beta=0.05",
        "--results",
        path_str(&res),
        "--json",
    ]);
    let stdout = ok(&out);
    let summary: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(summary["sprt"]["verdict"], "H1");
    let games = results(&res).len();
    assert!((2..200).contains(&games), "{games}");
    assert_eq!(summary["games"].as_u64().unwrap() as usize, games);
}
