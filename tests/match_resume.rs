//! A killed or interrupted tournament resumes without losing, replaying or
//! double-counting games.

#[path = "support/match_harness.rs"]
mod fake_engines;

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fake_engines::*;

const GAMES: usize = 16;

fn args<'a>(res: &'a Path, a: &'a str, b: &'a str) -> Vec<&'a str> {
    vec![
        "--game",
        "odd",
        "--size",
        "2",
        "--games",
        "16",
        "--concurrency",
        "2",
        "--engine",
        a,
        "--engine",
        b,
        "--results",
        path_str(res),
    ]
}

fn spawn(args: &[&str]) -> Child {
    Command::new(oddity())
        .arg("match")
        .arg("--quiet")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

fn wait_for_lines(path: &Path, n: usize) {
    let until = Instant::now() + Duration::from_secs(300);
    while lines(path) < n {
        assert!(Instant::now() < until, "no progress");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn check_complete(path: &Path) {
    let rs = results(path);
    assert_eq!(rs.len(), GAMES, "{rs:?}");
    let mut ids: Vec<&str> = rs.iter().map(|r| r.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), GAMES, "a game was played twice");
    assert!(rs.iter().all(|r| r.reason == "rules"), "{rs:?}");
}

#[test]
fn kill_and_resume() {
    let dir = scratch("kill");
    let res = dir.join("r.jsonl");
    // Slow enough that the run cannot end between the third result and
    // the kill.
    let a = engine("a", "--mode slow --delay-ms 40");
    let b = engine("b", "--mode slow --delay-ms 40");
    let mut child = spawn(&args(&res, &a, &b));
    wait_for_lines(&res, 3);
    child.kill().unwrap();
    child.wait().unwrap();
    let before = std::fs::read_to_string(&res).unwrap();
    let done = before.lines().count();
    assert!(done < GAMES, "the run ended before the kill");
    // A kill can leave half a line; resume must cope with it.
    let mut f = std::fs::OpenOptions::new().append(true).open(&res).unwrap();
    f.write_all(br#"{"id":"p0.r7.a","pair":7,"bla"#).unwrap();
    drop(f);

    let mut resume = args(&res, &a, &b);
    resume.push("--resume");
    let stdout = ok(&run_match(&resume));
    assert!(stdout.contains("a vs b"));
    let after = std::fs::read_to_string(&res).unwrap();
    assert!(after.starts_with(&before), "finished games were rewritten");
    check_complete(&res);

    // Resuming a finished tournament plays nothing.
    ok(&run_match(&resume));
    assert_eq!(lines(&res), GAMES);
}

#[test]
fn resume_with_other_engines_is_refused() {
    let dir = scratch("mismatch");
    let res = dir.join("r.jsonl");
    let (a, b) = (engine("a", ""), engine("b", ""));
    let mut first = args(&res, &a, &b);
    first[5] = "2";
    ok(&run_match(&first));
    let c = engine("c", "");
    let mut other = args(&res, &c, &b);
    other.push("--resume");
    let out = run_match(&other);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("resume with the arguments"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_cleanly_and_resume_finishes() {
    let dir = scratch("sigint");
    let res = dir.join("r.jsonl");
    // Slow enough that the run cannot end between the third result and
    // the kill.
    let a = engine("a", "--mode slow --delay-ms 40");
    let b = engine("b", "--mode slow --delay-ms 40");
    let child = spawn(&args(&res, &a, &b));
    wait_for_lines(&res, 2);
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("stopping: games in progress are abandoned"),
        "{stderr}"
    );
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert!(stdout.contains("a vs b"), "the table is printed: {stdout}");
    let rs = results(&res);
    assert!(rs.len() < GAMES);
    assert!(rs.iter().all(|r| r.reason == "rules"), "{rs:?}");

    let mut resume = args(&res, &a, &b);
    resume.push("--resume");
    ok(&run_match(&resume));
    check_complete(&res);
}
