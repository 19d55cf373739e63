//! Every example in the docs, run: the docs cannot drift from the engine.
//!
//! A fenced block right after a line `<!-- run -->` holds shell commands,
//! each on a line beginning `$ ` and followed by the stdout it prints. The
//! commands of one document run in order with `sh -c` in one scratch
//! directory (so an example may read a file an earlier one wrote), with
//! `oddity` on the PATH.
//!
//! A fenced block right after `<!-- run: COMMAND -->` is a protocol
//! transcript: command lines, each followed by its response (`=` or `?`
//! up to the next blank line). The commands are piped into COMMAND and the
//! responses compared.
//!
//! Expected text is compared line by line with trailing blanks ignored;
//! `...` inside a line matches any text and a line that is only `...`
//! matches any number of lines. A block with a `$ oddity` line that is
//! not marked fails the test unless it is marked `<!-- not run: REASON -->`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const ODDITY: &str = env!("CARGO_BIN_EXE_oddity");

/// One fenced block and what precedes it.
struct Block {
    /// Line number (1-based) of the opening fence.
    line: usize,
    marker: Marker,
    lines: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
enum Marker {
    None,
    Shell,
    Transcript(String),
    NotRun,
}

fn marker_of(line: &str) -> Option<Marker> {
    let inner = line
        .trim()
        .strip_prefix("<!--")?
        .strip_suffix("-->")?
        .trim();
    if inner == "run" {
        Some(Marker::Shell)
    } else if let Some(command) = inner.strip_prefix("run:") {
        Some(Marker::Transcript(command.trim().to_string()))
    } else if let Some(reason) = inner.strip_prefix("not run:") {
        assert!(!reason.trim().is_empty(), "`not run:` needs a reason");
        Some(Marker::NotRun)
    } else {
        None
    }
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut pending = Marker::None;
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        if let Some(block) = open.as_mut() {
            if line.trim_start().starts_with("```") {
                out.push(open.take().unwrap());
            } else {
                block.lines.push(line.to_string());
            }
        } else if line.trim_start().starts_with("```") {
            open = Some(Block {
                line: i + 1,
                marker: std::mem::replace(&mut pending, Marker::None),
                lines: Vec::new(),
            });
        } else if let Some(m) = marker_of(line) {
            pending = m;
        } else if !line.trim().is_empty() {
            pending = Marker::None;
        }
    }
    assert!(open.is_none(), "a fenced block is not closed");
    out
}

/// Does `actual` match the pattern line `expected` (`...` is any text)?
fn line_matches(expected: &str, actual: &str) -> bool {
    let expected = expected.trim_end();
    let actual = actual.trim_end();
    let parts: Vec<&str> = expected.split("...").collect();
    if parts.len() == 1 {
        return expected == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    if !actual.ends_with(last) {
        return false;
    }
    let mut rest = &actual[first.len()..actual.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Does the output match the expected lines (a line `...` is any lines)?
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    // can[i][j]: expected[i..] matches actual[j..].
    let (n, m) = (expected.len(), actual.len());
    let mut can = vec![vec![false; m + 1]; n + 1];
    can[n][m] = true;
    for i in (0..n).rev() {
        for j in (0..=m).rev() {
            can[i][j] = if expected[i].trim() == "..." {
                can[i + 1][j] || (j < m && can[i][j + 1])
            } else {
                j < m && line_matches(&expected[i], actual[j]) && can[i + 1][j + 1]
            };
        }
    }
    can[0][0]
}

fn scratch_dir(doc: &str) -> PathBuf {
    let name = doc.replace(['/', '.'], "_");
    let dir = std::env::temp_dir().join(format!("oddity-docs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path_with_oddity() -> String {
    let bin = Path::new(ODDITY).parent().unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn run_shell(command: &str, stdin: &str, dir: &Path) -> (String, String, bool) {
    use std::io::Write;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path_with_oddity())
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

/// The commands of a shell block with the output each should print.
fn shell_examples(block: &Block) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in &block.lines {
        if let Some(command) = line.strip_prefix("$ ") {
            out.push((command.to_string(), Vec::new()));
        } else {
            let (_, expected) = out.last_mut().unwrap_or_else(|| {
                panic!(
                    "block at line {}: output before any `$ ` command",
                    block.line
                )
            });
            expected.push(line.clone());
        }
    }
    out
}

/// The commands of a transcript and the responses they should get.
fn transcript(block: &Block) -> (String, Vec<String>) {
    let mut input = String::new();
    let mut expected = Vec::new();
    let mut in_response = false;
    for line in &block.lines {
        if in_response {
            if line.trim().is_empty() {
                in_response = false;
                expected.push(String::new());
            } else {
                expected.push(line.clone());
            }
        } else if line.starts_with('=') || line.starts_with('?') {
            in_response = true;
            expected.push(line.clone());
        } else if !line.trim().is_empty() {
            input.push_str(line);
            input.push('\n');
        }
    }
    if in_response {
        expected.push(String::new());
    }
    (input, expected)
}

fn check_document(doc: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(doc);
    let text = std::fs::read_to_string(&path).unwrap();
    let dir = scratch_dir(doc);
    let mut failures = Vec::new();
    for block in blocks(&text) {
        let at = format!("{doc}:{}", block.line);
        match &block.marker {
            Marker::Shell => {
                for (command, expected) in shell_examples(&block) {
                    let (stdout, stderr, ok) = run_shell(&command, "", &dir);
                    let actual: Vec<&str> = stdout.lines().collect();
                    if !ok || !lines_match(&expected, &actual) {
                        failures.push(format!(
                            "{at}: `{command}`{}\n--- documented\n{}\n--- printed\n{stdout}--- stderr\n{stderr}",
                            if ok { "" } else { " failed" },
                            expected.join("\n")
                        ));
                    }
                }
            }
            Marker::Transcript(command) => {
                let (input, expected) = transcript(&block);
                let (stdout, stderr, ok) = run_shell(command, &input, &dir);
                let actual: Vec<&str> = stdout.lines().collect();
                if !ok || !lines_match(&expected, &actual) {
                    failures.push(format!(
                        "{at}: transcript for `{command}`\n--- documented\n{}\n--- printed\n{stdout}--- stderr\n{stderr}",
                        expected.join("\n")
                    ));
                }
            }
            Marker::None => {
                if let Some(line) = block.lines.iter().find(|l| is_oddity_example(l)) {
                    failures.push(format!(
                        "{at}: `{line}` is an example but not marked `<!-- run -->` (or `<!-- not run: REASON -->`)"
                    ));
                }
            }
            Marker::NotRun => {}
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "{} example(s) differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// A line showing a command at a prompt that runs the engine.
fn is_oddity_example(line: &str) -> bool {
    line.strip_prefix("$ ")
        .is_some_and(|command| command.split_whitespace().any(|word| word == "oddity"))
}

macro_rules! documents {
    ($($test:ident => $doc:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                check_document($doc);
            }
        )*

        /// Every document is in the list above.
        #[test]
        fn every_document_is_checked() {
            let listed = [$($doc),*];
            let root = Path::new(env!("CARGO_MANIFEST_DIR"));
            let mut found = vec!["README.md".to_string(), "protocol.md".to_string()];
            for entry in std::fs::read_dir(root.join("docs")).unwrap() {
                let name = entry.unwrap().file_name().into_string().unwrap();
                if name.ends_with(".md") {
                    found.push(format!("docs/{name}"));
                }
            }
            for doc in found {
                assert!(listed.contains(&doc.as_str()), "{doc} is not checked by tests/docs_examples.rs");
            }
        }
    };
}

documents! {
    readme => "README.md",
    protocol => "protocol.md",
    analysis => "docs/analysis.md",
    architecture => "docs/architecture.md",
    balance => "docs/balance.md",
    fuzzing => "docs/fuzzing.md",
    gui => "docs/gui.md",
    r#match => "docs/match.md",
    patterns => "docs/patterns.md",
    rules => "docs/rules.md",
    soak => "docs/soak.md",
    solved => "docs/solved.md",
}

#[test]
fn patterns_match_as_documented() {
    assert!(line_matches("a ... c", "a b c"));
    assert!(line_matches("...", "anything"));
    assert!(line_matches("x...y...z", "xAyBz"));
    assert!(!line_matches("x...y...z", "xAzBy"));
    assert!(!line_matches("ab...ba", "aba"));
    assert!(line_matches("= ", "="));
    let lines = |s: &str| s.lines().map(String::from).collect::<Vec<_>>();
    assert!(lines_match(&lines("a\n...\nd"), &["a", "b", "c", "d"]));
    assert!(lines_match(&lines("a\n...\nb"), &["a", "b"]));
    assert!(!lines_match(&lines("a\nb"), &["a", "b", "c"]));
    assert!(!lines_match(&lines("a\n...\nd"), &["a", "b"]));
}

#[test]
fn transcripts_split_commands_from_responses() {
    let block = Block {
        line: 1,
        marker: Marker::Transcript(String::new()),
        lines: [
            "boardsize 3",
            "=",
            "",
            "showboard",
            "= a",
            "b",
            "",
            "quit",
            "=",
        ]
        .map(String::from)
        .to_vec(),
    };
    let (input, expected) = transcript(&block);
    assert_eq!(input, "boardsize 3\nshowboard\nquit\n");
    assert_eq!(expected, ["=", "", "= a", "b", "", "=", ""]);
}
