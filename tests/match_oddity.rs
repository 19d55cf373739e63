//! `oddity match` between two low-visit `oddity gtp` configurations on every
//! game. Needs the GTP engine: when `oddity gtp` does not answer
//! `protocol_version`, the test prints a notice and passes without playing.

#[path = "fake_engines/mod.rs"]
mod fake_engines;

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fake_engines::*;

/// Whether `oddity gtp` speaks GTP (answers `protocol_version` with 2).
fn gtp_available() -> bool {
    let Ok(mut child) = Command::new(oddity())
        .arg("gtp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"1 protocol_version\nquit\n");
    }
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return false;
            }
        }
    }
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        let _ = stdout.read_to_string(&mut out);
    }
    out.lines().any(|l| l.trim() == "=1 2")
}

fn oddity_vs_oddity(game: &str, size: &str, extra: &[&str]) {
    let kind = oddity::game::GameKind::parse(game).unwrap();
    if !supported(kind) {
        eprintln!("notice: {game} is not in this build's rules core yet; test skipped");
        return;
    }
    if !gtp_available() {
        eprintln!("notice: `oddity gtp` is not available in this build; {game} test skipped");
        return;
    }
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
