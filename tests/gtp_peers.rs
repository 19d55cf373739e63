//! Tests against real peers: GNU Go (generic GTP framing), @sabaki/gtp (an
//! independent controller) and sgfmill (SGF syntax). Install them with
//! `.ci/peers.sh`. A test whose peer is missing is skipped, unless
//! `ODDITY_PEERS=1` is set: then it fails.
//!
//! `ODDITY_PEERS=1 cargo test --test gtp_peers`

#[path = "support/gtp.rs"]
mod util;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use util::Engine;

const GNUGO: &str = "/usr/games/gnugo";

fn required() -> bool {
    std::env::var("ODDITY_PEERS").is_ok_and(|v| v == "1")
}

/// Whether the peer is usable; panics when it is missing and required.
fn have(peer: &str, present: bool) -> bool {
    if !present {
        assert!(!required(), "{peer} is missing (run .ci/peers.sh)");
        eprintln!("{peer} is missing: skipped (run .ci/peers.sh)");
    }
    present
}

fn peers_dir() -> PathBuf {
    std::env::var_os("ODDITY_PEERS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/peers"))
}

/// The generic script: ids, comments, tabs, CRLF, blank lines, unknown
/// commands, known_command, list_commands, quit. (`known_command` without
/// its argument is left out: GNU Go answers `false`, oddity `syntax error`.)
const SCRIPT: &[u8] = b"protocol_version\n\
1 protocol_version\n\
\n\
   \n\
# a comment line\n\
2 name # a trailing comment\n\
3\tknown_command\tplay\r\n\
known_command frobnicate\n\
4 frobnicate\n\
frobnicate with arguments\r\n\
\t\n\
5 list_commands\n\
6 known_command list_commands\n\
7 known_command quit\n\
8 quit\n\
protocol_version\n";

/// Splits output into responses: (status, id, body lines).
fn responses(out: &str) -> Vec<(char, String, Vec<String>)> {
    assert!(out.ends_with("\n\n"), "{out:?}");
    out.trim_end_matches('\n')
        .split("\n\n")
        .map(|r| {
            let status = r.chars().next().unwrap();
            let rest = &r[1..];
            let id: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            let body = rest[id.len()..]
                .strip_prefix(' ')
                .unwrap_or(&rest[id.len()..]);
            (status, id, body.lines().map(str::to_string).collect())
        })
        .collect()
}

fn run_script(mut e: Engine) -> (Vec<(char, String, Vec<String>)>, i32) {
    e.send_bytes(SCRIPT);
    let out = e.rest();
    let code = e.wait();
    (responses(&out), code)
}

#[test]
fn framing_matches_gnu_go() {
    if !have("GNU Go", Path::new(GNUGO).exists()) {
        return;
    }
    let (ours, our_code) = run_script(Engine::start(&[]));
    let (theirs, their_code) =
        run_script(Engine::spawn(Command::new(GNUGO).args(["--mode", "gtp"])));
    assert_eq!(our_code, 0);
    assert_eq!(their_code, 0);
    assert_eq!(ours.len(), theirs.len(), "{ours:?}\n{theirs:?}");
    assert_eq!(ours.len(), 11, "{ours:?}");
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        // Same status and id everywhere.
        assert_eq!((a.0, &a.1), (b.0, &b.1), "response {i}: {a:?} vs {b:?}");
        // Same text except for name and the command list.
        if ![2, 7].contains(&i) {
            assert_eq!(a.2, b.2, "response {i}");
        }
    }
    // list_commands: one command per line, both contain the required ones.
    for list in [&ours[7].2, &theirs[7].2] {
        for c in ["protocol_version", "known_command", "list_commands", "quit"] {
            assert!(list.iter().any(|l| l == c), "{c}");
        }
    }
}

#[test]
fn sabaki_controller_plays_every_game_and_stops_analysis() {
    let modules = peers_dir().join("node/node_modules");
    let present = modules.join("@sabaki/gtp").exists()
        && Command::new("node").arg("--version").output().is_ok();
    if !have("@sabaki/gtp", present) {
        return;
    }
    let text = run_peer_script(
        "node",
        "sabaki_drive.js",
        &[OsStr::new(util::binary()), modules.as_os_str()],
    );
    assert!(text.contains("OK lz-analyze"), "{text}");
}

#[test]
fn sgfmill_parses_every_record() {
    let present = Command::new("python3")
        .args(["-c", "import sgfmill"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have("sgfmill", present) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("oddity-sgfmill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for (game, size) in [("xodd", "4"), ("yodd", "3"), ("odd", "3"), ("onyx", "8")] {
        let mut e = Engine::start(&["--game", game, "--size", size]);
        util::self_play(&mut e, 500);
        for (name, text) in [
            ("full", e.ok("printsgf")),
            ("empty", {
                e.ok("clear_board");
                e.ok("printsgf")
            }),
            ("resigned", {
                e.ok("genmove b");
                e.ok("play w resign");
                e.ok("printsgf")
            }),
        ] {
            let f = dir.join(format!("{game}-{name}.sgf"));
            std::fs::write(&f, text).unwrap();
            files.push(f);
        }
        {
            e.ok("oddity-set_position w B:A1 W:B1");
            e.ok("genmove w");
            let f = dir.join(format!("{game}-setup.sgf"));
            e.ok(&format!("printsgf {}", f.display()));
            files.push(f);
        }
    }
    let args: Vec<&OsStr> = files.iter().map(|f| f.as_os_str()).collect();
    let text = run_peer_script("python3", "check_sgf.py", &args);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("OK ")).count(),
        files.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `tests/peers/SCRIPT` with `program`, asserts that it succeeded, and
/// returns its standard output.
fn run_peer_script(program: &str, script: &str, args: &[&OsStr]) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/peers")
        .join(script);
    let out = Command::new(program)
        .arg(path)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("running {program}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    println!("{text}");
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}
