//! Runs the regression files `tests/regress/*.tst` against the binary.
//!
//! Format (after GNU Go's and gogui-regress's): every line is sent to the
//! engine; a numbered command is checked by the `#? [...]` line after it:
//! `[a|b]` the answer is one of the alternatives, `[!a]` anything else,
//! `[?message]` a failure with that message, `[]` an empty success.

#[path = "support/gtp.rs"]
mod util;

use util::Engine;

fn matches(expected: &str, got: &Result<String, String>) -> bool {
    if let Some(message) = expected.strip_prefix('?') {
        return got.as_ref().err().map(|s| s.as_str()) == Some(message);
    }
    let Ok(answer) = got else { return false };
    if let Some(not) = expected.strip_prefix('!') {
        return answer != not;
    }
    expected.split('|').any(|alt| alt == answer)
}

fn run_file(name: &str) -> Vec<String> {
    let path = format!("{}/tests/regress/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut e = Engine::start(&[]);
    let mut failures = Vec::new();
    let mut last: Option<(String, Result<String, String>)> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("#?") {
            let (cmd, got) = last.take().expect("#? without a numbered command");
            let expected = rest.trim().trim_start_matches('[').trim_end_matches(']');
            if !matches(expected, &got) {
                failures.push(format!("{name}: {cmd}: expected [{expected}], got {got:?}"));
            }
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let got = e.cmd(trimmed);
        if trimmed.starts_with(|c: char| c.is_ascii_digit()) {
            last = Some((trimmed.to_string(), got));
        }
    }
    failures
}

#[test]
fn regression_files() {
    let mut failures = Vec::new();
    for file in ["xodd.tst", "yodd.tst", "odd.tst", "onyx.tst"] {
        failures.extend(run_file(file));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
