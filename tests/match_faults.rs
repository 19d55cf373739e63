//! Misbehaving engines lose the game with the right reason, are restarted,
//! and the tournament runs to its end.

#[path = "support/match_harness.rs"]
mod fake_engines;

use fake_engines::*;
use oddity_tournament::results::GameResult;

/// Plays 4 games of Xodd 4x4 between a good engine and `bad`; returns them.
fn faulty_match(test: &str, bad: &str, extra: &[&str]) -> Vec<GameResult> {
    let dir = scratch(test);
    let res = dir.join("r.jsonl");
    let good = engine("good", "");
    let bad = engine("bad", bad);
    let mut args = vec![
        "--game",
        "xodd",
        "--size",
        "4",
        "--games",
        "4",
        "--engine",
        &good,
        "--engine",
        &bad,
        "--results",
        path_str(&res),
    ];
    args.extend_from_slice(extra);
    let stdout = ok(&run_match(&args));
    assert!(stdout.contains("good vs bad"), "{stdout}");
    let rs = results(&res);
    assert_eq!(rs.len(), 4, "{rs:?}");
    rs
}

fn all_lost(rs: &[GameResult], reason: &str) {
    for r in rs {
        assert_eq!(r.winner.as_deref(), Some("good"), "{r:?}");
        assert_eq!(r.reason, reason, "{r:?}");
        assert!(!r.detail.is_empty(), "{r:?}");
    }
}

#[test]
fn crash_mid_game() {
    let rs = faulty_match("crash", "--mode crash --after 2", &[]);
    all_lost(&rs, "crash");
    // The game went on until the crash: the bad engine made one move.
    assert!(rs.iter().all(|r| r.turns.len() >= 2), "{rs:?}");
}

#[test]
fn hang_past_the_move_timeout() {
    // The timeout bounds every answer of both engines: long enough for the
    // good one on a busy machine, while the bad one never answers.
    let rs = faulty_match("hang", "--mode hang --after 2", &["--move-timeout", "2"]);
    all_lost(&rs, "timeout");
}

#[test]
fn hang_past_the_clock_is_a_time_loss() {
    let rs = faulty_match(
        "hangclock",
        "--mode hang --after 2",
        &["--tc", "2+0.2", "--time-margin", "0.5"],
    );
    all_lost(&rs, "time forfeit");
}

#[test]
fn slow_engine_loses_on_time() {
    let rs = faulty_match(
        "slow",
        "--mode slow --delay-ms 5000",
        &["--st", "1", "--time-margin", "0.5"],
    );
    all_lost(&rs, "time forfeit");
}

#[test]
fn slow_within_the_margin_is_fine() {
    let dir = scratch("margin");
    let res = dir.join("r.jsonl");
    let a = engine("a", "--mode slow --delay-ms 20");
    let b = engine("b", "");
    ok(&run_match(&[
        "--game",
        "odd",
        "--size",
        "2",
        "--games",
        "2",
        "--engine",
        &a,
        "--engine",
        &b,
        "--tc",
        "5+0.1",
        "--results",
        path_str(&res),
    ]));
    for r in results(&res) {
        assert_eq!(r.reason, "rules", "{r:?}");
        let slow = if r.black == "a" {
            r.time_used.black
        } else {
            r.time_used.white
        };
        assert!(slow >= 0.02 * 3.0, "{r:?}");
    }
}

#[test]
fn illegal_move() {
    let rs = faulty_match("illegal", "--mode illegal --after 2", &[]);
    all_lost(&rs, "illegal move");
}

#[test]
fn malformed_move() {
    let rs = faulty_match("malformed", "--mode malformed --after 1", &[]);
    all_lost(&rs, "malformed move");
}

#[test]
fn garbage_output() {
    let rs = faulty_match("garbage", "--mode garbage --after 2", &[]);
    all_lost(&rs, "garbage output");
}

#[test]
fn exit_at_start() {
    let rs = faulty_match("exit", "--mode exit", &[]);
    all_lost(&rs, "crash");
}

#[test]
fn resignation_is_not_a_fault() {
    let rs = faulty_match("resign", "--mode resign --after 2", &[]);
    for r in &rs {
        assert_eq!(r.winner.as_deref(), Some("good"));
        assert_eq!(r.reason, "resignation");
        assert_eq!(r.turns.last().map(String::as_str), Some("resign"));
    }
}

#[test]
fn engine_restarts_after_a_crash_and_plays_on() {
    // Crashes at its 3rd genmove of each process; a restarted process
    // starts counting again, so every game has the bad engine's moves.
    let dir = scratch("restart");
    let res = dir.join("r.jsonl");
    let good = engine("good", "");
    let bad = engine("bad", "--mode crash --after 3");
    let stdout = ok(&run_match(&[
        "--game",
        "odd",
        "--size",
        "3",
        "--games",
        "6",
        "--engine",
        &good,
        "--engine",
        &bad,
        "--results",
        path_str(&res),
        "--json",
    ]));
    let rs = results(&res);
    assert_eq!(rs.len(), 6);
    for r in &rs {
        assert_eq!(r.reason, "crash", "{r:?}");
        let bad_turns = r
            .turns
            .iter()
            .enumerate()
            .filter(|(i, _)| (i % 2 == 0) == (r.black == "bad"))
            .count();
        assert_eq!(bad_turns, 2, "{r:?}");
    }
    let summary: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(summary["faults"]["bad"]["crash"], 6);
}

#[test]
fn length_cap_gives_no_result() {
    let dir = scratch("cap");
    let res = dir.join("r.jsonl");
    let (a, b) = (engine("a", ""), engine("b", ""));
    let stdout = ok(&run_match(&[
        "--game",
        "odd",
        "--size",
        "3",
        "--games",
        "2",
        "--engine",
        &a,
        "--engine",
        &b,
        "--max-turns",
        "5",
        "--results",
        path_str(&res),
        "--json",
    ]));
    for r in results(&res) {
        assert_eq!(r.reason, "length cap (not a rule)");
        assert_eq!(r.winner, None);
        assert_eq!(r.turns.len(), 5);
    }
    let summary: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(summary["no_result"], 2);
    assert_eq!(summary["pairings"][0]["wins"], 0);
    assert_eq!(summary["pairings"][0]["losses"], 0);
}

#[test]
fn refused_init_command_is_a_protocol_error() {
    let rs = faulty_match("init", "", &["--engine-init", "bad=no-such-command"]);
    all_lost(&rs, "protocol error");
    assert!(rs[0].detail.contains("no-such-command"), "{:?}", rs[0]);
}

#[test]
fn bad_engine_directory_stops_the_run() {
    let dir = scratch("baddir");
    let res = dir.join("r.jsonl");
    let (a, b) = (engine("a", ""), engine("b", ""));
    let out = run_match(&[
        "--game",
        "odd",
        "--size",
        "2",
        "--engine",
        &a,
        "--engine",
        &b,
        "--engine-dir",
        "b=/nonexistent/dir",
        "--results",
        path_str(&res),
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("engine 'b' cannot be started"), "{stderr}");
}

#[test]
fn clock_is_sent_and_engine_logs_are_kept() {
    let dir = scratch("clock");
    let res = dir.join("r.jsonl");
    let logs = dir.join("logs");
    let (a, b) = (engine("a", ""), engine("b", ""));
    ok(&run_match(&[
        "--game",
        "odd",
        "--size",
        "2",
        "--games",
        "2",
        "--engine",
        &a,
        "--engine",
        &b,
        "--engine-init",
        "a=komi 0",
        "--tc",
        "7+30",
        "--log-dir",
        path_str(&logs),
        "--results",
        path_str(&res),
    ]));
    let log = std::fs::read_to_string(logs.join("a-0.log")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines[0], "got: komi 0", "{log}");
    for expected in [
        "got: oddity-game odd",
        "got: boardsize 2",
        "got: oddity-rules min_group 2",
        "got: clear_board",
        "got: time_settings 7 0 0",
        "got: time_left b 7 0",
        "got: genmove b",
    ] {
        assert!(lines.contains(&expected), "{expected} missing in\n{log}");
    }
    // After a move the clock has its increment: 7 s minus what the move
    // took (less than 7 s, or it was lost on time), plus 30, rounded down.
    let after_a_move = lines.iter().filter_map(|l| {
        l.strip_prefix("got: time_left b ")?
            .strip_suffix(" 0")?
            .parse::<u64>()
            .ok()
    });
    assert!(
        after_a_move.into_iter().any(|s| (30..=36).contains(&s)),
        "{log}"
    );
    assert!(
        std::fs::read_to_string(logs.join("b-0.log"))
            .unwrap()
            .contains("got: genmove w")
    );
}
