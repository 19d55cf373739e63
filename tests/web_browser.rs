//! The static page of `web/build.sh` (`oddity gui`'s page with its session
//! compiled to WebAssembly in the tab) in a real headless browser:
//! `tests/peers/web_play.py` serves the folder from a plain static server
//! (one thread) and from one that sends COOP/COEP (WebAssembly threads),
//! has the in-tab engine play a whole game of each of the four games
//! against itself in each, has a person play Odd against it by clicks
//! (heat map while it thinks, a refused click, undo, SGF download),
//! watches that no request leaves the tab, and checks the fallback
//! messages (see that script). This test then replays
//! every game with the rules crate and checks that it is over with the
//! winner the page announced.
//!
//! `tests/peers/web_offline.py` checks the page as an installed app: a
//! plain static server gives a cross-origin isolated page on every core
//! after the service worker's reload, Chromium finds it installable, it
//! opens and plays with the server stopped, and a new version served
//! replaces the old by itself.
//!
//! `tests/peers/web_phone.py` checks the page on a phone's screen: the
//! board in view after *Start new game*, cells at least 24 CSS px apart on
//! every game's smallest, middle and largest board.
//!
//! `tests/peers/web_memory_refused.py` checks the page when the browser
//! gives the engine less memory than its setting (V8's WebAssembly memory
//! bound to 32 MiB, 256 MiB set): the search tree is cut short and the page
//! says it filled; an allocation that cannot be cut stops the engine, the
//! page says once that it ran out of memory, the game is kept and a person
//! can still play; with less memory set the engine plays on to the end.
//!
//! Needs the folder built (`ODDITY_WEB_DIR`, which `tests/run.sh` builds
//! with `web/build.sh`), Debian's `chromium` and `chromium-driver` and
//! Python's `selenium` (`.ci/peers.sh`). Skipped when they are missing,
//! unless `ODDITY_PEERS=1` is set: then it fails.
//!
//! `ODDITY_WEB_DIR=target/web-site ODDITY_PEERS=1 cargo test --test web_browser -- --nocapture`
//! Screenshots: `target/web-screenshots/web-{plain,isolated}-GAME.png`,
//! `web-thinking.png`, `web-person-end.png`, `web-offline.png`,
//! `web-phone.png`, `web-memory-refused{,-engines}.png` and one per
//! fallback message.

use std::path::{Path, PathBuf};
use std::process::Command;

use oddity_rules::{AnyGame, GameKind, GameRecord, GameSpec, Rules};

fn present(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The built folder when it and the browser are there; fails when they
/// must be.
fn site() -> Option<PathBuf> {
    let required = std::env::var("ODDITY_PEERS").is_ok_and(|v| v == "1");
    let dir = std::env::var_os("ODDITY_WEB_DIR").map(PathBuf::from);
    let built = dir
        .as_ref()
        .is_some_and(|d| d.join("index.html").is_file() && d.join("pkg-threads").is_dir());
    let ready = built
        && present("chromium", &["--version"])
        && present("chromedriver", &["--version"])
        && present("python3", &["-c", "import selenium"]);
    if !ready {
        assert!(
            !required,
            "ODDITY_WEB_DIR ({dir:?}) is not a folder of web/build.sh, or chromium, chromedriver \
             or selenium is missing (tests/run.sh builds the folder, .ci/peers.sh installs the rest)"
        );
        eprintln!("no web folder (ODDITY_WEB_DIR) or no browser: skipped");
        return None;
    }
    dir
}

/// Runs `script` of `tests/peers` on the built folder; its output.
fn peer(script: &str, args: &[&Path]) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(root.join("tests/peers").join(script))
        .args(args)
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
    text
}

#[test]
fn offline_installable_and_isolated_on_a_plain_host() {
    let Some(site) = site() else { return };
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web-screenshots");
    let text = peer("web_offline.py", &[site.as_path(), shots.as_path()]);
    assert!(text.contains("all offline checks passed"), "{text}");
}

#[test]
fn memory_the_browser_refuses_stops_the_engine_and_keeps_the_game() {
    let Some(site) = site() else { return };
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web-screenshots");
    let text = peer("web_memory_refused.py", &[site.as_path(), shots.as_path()]);
    assert!(text.contains("all memory checks passed"), "{text}");
}

#[test]
fn on_a_phone_the_board_is_in_view_with_cells_a_finger_apart() {
    let Some(site) = site() else { return };
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web-screenshots");
    let text = peer("web_phone.py", &[site.as_path(), shots.as_path()]);
    assert!(text.contains("all phone checks passed"), "{text}");
}

#[test]
fn the_engine_in_the_tab_plays_the_four_games_to_their_end() {
    let Some(site) = site() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shots = root.join("target/web-screenshots");
    let games_file = root.join("target/web-screenshots/games.json");
    peer(
        "web_play.py",
        &[site.as_path(), games_file.as_path(), shots.as_path()],
    );
    let games: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&games_file).unwrap()).unwrap();
    let games = games.as_array().unwrap();
    assert_eq!(games.len(), 8, "four games in each of two pages");
    for g in games {
        let kind = GameKind::parse(g["game"].as_str().unwrap()).unwrap();
        let size = g["size"].as_u64().unwrap() as usize;
        let spec = GameSpec::new(kind, size, Rules::default()).unwrap();
        let moves: Vec<&str> = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let record = GameRecord::replay(AnyGame::new(&spec), &moves)
            .unwrap_or_else(|e| panic!("{g}: {e:?}"));
        let outcome = record.outcome().unwrap_or_else(|| panic!("not over: {g}"));
        assert!(!outcome.by_resignation, "{g}");
        assert_eq!(
            g["winner"].as_str(),
            Some(outcome.winner.seat()),
            "{} {size} ({}): the page's winner against the rules'",
            kind.name(),
            g["mode"]
        );
    }
}
