//! `oddity bench` as users meet it: one JSON line per run, for the search,
//! the bare playout kernel and the default policy's own playouts.

#[path = "support/gtp.rs"]
mod util;

use std::process::Command;

use serde_json::Value;

/// Runs `oddity bench ARGS`; the parsed last stdout line, or the stderr of a
/// refused run.
fn bench(args: &[&str]) -> Result<Value, String> {
    let out = Command::new(util::binary())
        .arg("bench")
        .args(args)
        .output()
        .expect("oddity runs");
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().last().expect("a line");
    Ok(serde_json::from_str(line).expect("one JSON object"))
}

#[test]
fn kernel_and_policy_playouts_are_timed_apart() {
    for game in ["xodd", "yodd", "odd", "onyx"] {
        let kernel = bench(&["--game", game, "--size", "4", "--playouts", "--time", "0.1"])
            .expect("the kernel is timed");
        assert!(kernel["playouts"].as_u64().unwrap() > 0, "{game}: {kernel}");
        assert!(kernel.get("policy").is_none(), "{game}: {kernel}");
        let policy = bench(&[
            "--game",
            game,
            "--size",
            "4",
            "--policy-playouts",
            "--time",
            "0.1",
        ])
        .expect("the policy's playouts are timed");
        assert!(policy["playouts"].as_u64().unwrap() > 0, "{game}: {policy}");
        assert_eq!(policy["policy"], "default", "{game}: {policy}");
    }
    let plain = bench(&[
        "--game",
        "xodd",
        "--policy-playouts",
        "--policy",
        "plain",
        "--time",
        "0.1",
    ])
    .expect("plain's playouts are timed");
    assert_eq!(plain["policy"], "plain");
}

#[test]
fn conflicting_or_bad_options_are_refused() {
    let both = bench(&["--game", "odd", "--playouts", "--policy-playouts"]).unwrap_err();
    assert!(both.contains("cannot be used with"), "{both}");
    let param = bench(&["--game", "odd", "--policy-playouts", "--param", "rave"]).unwrap_err();
    assert!(param.contains("is not NAME=VALUE"), "{param}");
}

#[test]
fn a_search_line_has_its_fields() {
    let line = bench(&[
        "--game",
        "odd",
        "--size",
        "3",
        "--threads",
        "1",
        "--visits",
        "2000",
    ])
    .expect("the search is timed");
    assert_eq!(line["threads"], 1);
    assert_eq!(line["policy"], "default");
    assert!(line["iterations"].as_u64().unwrap() >= 2000, "{line}");
    assert!(line["best"].is_string(), "{line}");
}
