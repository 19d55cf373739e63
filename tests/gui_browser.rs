//! `oddity gui` in a real headless browser: Chromium driven over WebDriver
//! by `tests/peers/gui_drive.py` (Python selenium) plays each of the four
//! games by clicking the board, `tests/peers/gui_details.py` checks the
//! details a person meets, and `tests/peers/gui_overlays.py` what the board
//! and the panels say: analysis overlays, engine health, the end of a game
//! (see those scripts for everything they check).
//! Needs Debian's `chromium` and `chromium-driver` and Python's `selenium`
//! and `sgfmill` (`.ci/peers.sh` installs them). Skipped when they are
//! missing, unless `ODDITY_PEERS=1` is set: then it fails.
//!
//! `ODDITY_PEERS=1 cargo test --test gui_browser -- --nocapture`
//! Screenshots: `target/gui-screenshots/gui-{xodd,yodd,odd,onyx}.png`,
//! `gui-odd-end.png` and `gui-detail-*.png`.

#[path = "support/gui.rs"]
mod gui;

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use gui::{FAST_ENGINE, Gui};

fn present(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether the browser peers are installed; fails when they must be.
fn browser_ready() -> bool {
    let required = std::env::var("ODDITY_PEERS").is_ok_and(|v| v == "1");
    let ready = present("chromium", &["--version"])
        && present("chromedriver", &["--version"])
        && present("python3", &["-c", "import selenium, sgfmill"]);
    if !ready {
        assert!(
            !required,
            "chromium, chromedriver or python3 selenium/sgfmill is missing (run .ci/peers.sh)"
        );
        eprintln!("chromium, chromedriver or selenium is missing: skipped (run .ci/peers.sh)");
    }
    ready
}

/// Runs `script` against a GUI started with `engines`; returns its output
/// once it has printed `last`.
fn drive(script: &str, engines: &[&str], last: &str) -> String {
    drive_with(script, engines, &[], last)
}

/// As [`drive`], with `env` set for the script.
fn drive_with(script: &str, engines: &[&str], env: &[(&str, &str)], last: &str) -> String {
    let mut args = Vec::new();
    for e in engines {
        args.extend(["--engine", e]);
    }
    let g = Gui::start(&args);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let start = Instant::now();
    let out = Command::new("python3")
        .arg(root.join("tests/peers").join(script))
        .arg(&g.url)
        .arg(gui::binary())
        .arg(g.pid().to_string())
        .arg(screenshots())
        .envs(env.iter().copied())
        // The scripts import each other: no bytecode left in the sources.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("running python3");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    println!("{text}");
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains(last), "{text}");
    println!("{script} took {:.1} s", start.elapsed().as_secs_f64());
    text
}

fn screenshots() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/gui-screenshots")
}

/// An engine that searches for its whole time; without the endgame table,
/// which would prove the small Odd board's positions before any search and
/// leave no heat map to watch.
const SLOW_ENGINE: &str = "slow=oddity gtp --threads 1 --visits 0 --seed 4 --param endgame=off";

#[test]
fn four_games_played_by_clicking_in_chromium() {
    if !browser_ready() {
        return;
    }
    drive(
        "gui_drive.py",
        &[FAST_ENGINE, SLOW_ENGINE],
        "all games played",
    );
    for game in ["xodd", "yodd", "odd", "onyx"] {
        assert!(screenshots().join(format!("gui-{game}.png")).exists());
    }
}

#[test]
fn details_a_person_meets_in_chromium() {
    if !browser_ready() {
        return;
    }
    drive(
        "gui_details.py",
        &[FAST_ENGINE, SLOW_ENGINE],
        "all details checked",
    );
}

#[test]
fn overlays_engine_health_and_the_end_in_chromium() {
    if !browser_ready() {
        return;
    }
    // `flaky` exits and `late` waits until this file exists.
    let go_file =
        RemovedOnDrop(std::env::temp_dir().join(format!("oddity-gui-go-{}", std::process::id())));
    let _ = std::fs::remove_file(&go_file.0);
    let go = go_file.0.to_str().expect("a UTF-8 path");
    let oddity = gui::binary();
    let flaky = format!("flaky=sh -c 'test -e {go} && exec {oddity} gtp --threads 1 --visits 50'");
    let late = format!(
        "late=sh -c 'while ! test -e {go}; do sleep 0.05; done; exec {oddity} gtp --threads 1 --visits 50'"
    );
    drive_with(
        "gui_overlays.py",
        &[
            FAST_ENGINE,
            SLOW_ENGINE,
            "ghost=/nonexistent/oddity-ghost gtp",
            &flaky,
            &late,
        ],
        &[("ODDITY_GO_FILE", go)],
        "all overlays checked",
    );
}

/// A file removed when the test ends, passed or failed.
struct RemovedOnDrop(std::path::PathBuf);

impl Drop for RemovedOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
