//! Helpers for the `oddity match` tests: the fake engine binary
//! (`examples/fake_engine.rs`), scratch directories, running the runner.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use oddity_tournament::results::{GameResult, read_results};

pub fn oddity() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_oddity"))
}

static BUILD: Mutex<bool> = Mutex::new(false);

/// The fake engine, built (or brought up to date) once per test binary:
/// `cargo test --test NAME` does not build examples.
pub fn fake_engine() -> PathBuf {
    let bin = oddity();
    let profile_dir = bin.parent().expect("binary dir");
    let path = profile_dir.join("examples").join("fake_engine");
    let mut built = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    if !*built {
        let target = profile_dir.parent().expect("target dir");
        let mut cmd = Command::new(env!("CARGO"));
        cmd.args(["build", "--workspace", "--example", "fake_engine"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("CARGO_TARGET_DIR", target);
        // The packages (`--workspace`, which decides the dependencies'
        // features) and the profile that `cargo test --workspace` builds
        // with, so that the libraries it has built already are reused, not
        // built again.
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        } else {
            cmd.args(["--profile", "test"]);
        }
        let status = cmd.status().expect("cargo runs");
        assert!(status.success(), "building the fake engine failed");
        *built = true;
    }
    path
}

/// An engine argument `NAME=FAKE --mode MODE ...`.
pub fn engine(name: &str, extra: &str) -> String {
    format!("{name}={} {extra}", fake_engine().display())
}

/// A fresh scratch directory for one test.
pub fn scratch(test: &str) -> Scratch {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "oddity-match-{test}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A test's scratch folder, removed when the test is done with it.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `oddity match ARGS` and returns its output.
pub fn run_match(args: &[&str]) -> Output {
    Command::new(oddity())
        .arg("match")
        .arg("--quiet")
        .args(args)
        .output()
        .expect("oddity runs")
}

pub fn ok(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "oddity match failed: {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    stdout.into_owned()
}

pub fn results(path: &Path) -> Vec<GameResult> {
    read_results(path).expect("results file reads")
}

pub fn path_str(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}
