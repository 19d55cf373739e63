//! `oddity gui` in a real headless browser: Chromium driven over WebDriver
//! by `tests/peers/gui_drive.py` (Python selenium) plays each of the four
//! games by clicking the board (see that script for everything it checks).
//! Needs Debian's `chromium` and `chromium-driver` and Python's `selenium`
//! and `sgfmill` (`.ci/peers.sh` installs them). Skipped when they are
//! missing, unless `ODDITY_PEERS=1` is set: then it fails.
//!
//! `ODDITY_PEERS=1 cargo test --test gui_browser -- --nocapture`
//! Screenshots: `target/gui-screenshots/gui-{xodd,yodd,odd,onyx}.png`.

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

#[test]
fn four_games_played_by_clicking_in_chromium() {
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
        return;
    }
    let g = Gui::start(&[
        "--engine",
        FAST_ENGINE,
        "--engine",
        "slow=oddity gtp --threads 1 --visits 0 --seed 4",
    ]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shots = root.join("target/gui-screenshots");
    let start = Instant::now();
    let out = Command::new("python3")
        .arg(root.join("tests/peers/gui_drive.py"))
        .arg(&g.url)
        .arg(gui::binary())
        .arg(g.pid().to_string())
        .arg(&shots)
        .output()
        .expect("running python3");
    let text = String::from_utf8_lossy(&out.stdout);
    println!("{text}");
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("all games played"), "{text}");
    for game in ["xodd", "yodd", "odd", "onyx"] {
        assert!(shots.join(format!("gui-{game}.png")).exists());
    }
    println!("browser test took {:.1} s", start.elapsed().as_secs_f64());
}
