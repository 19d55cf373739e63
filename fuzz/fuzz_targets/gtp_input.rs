//! The GTP engine's whole input loop (`oddity_gtp::run`: preprocessing, every
//! command's reading of its arguments, the answers) on any bytes. Checked:
//! it returns; every answer starts with `=` or `?`; every `?` answer is one
//! line with no character that breaks or hides text (what it quotes of the
//! input is escaped). Lines with commands that search, read files or
//! change the engine's parameters are left out of the input (they are not
//! what is fuzzed here).
#![no_main]

use std::io::Write;
use std::sync::{Arc, Mutex};

use libfuzzer_sys::fuzz_target;
use oddity_gtp::{GtpSession, Params};
use oddity_rules::{GameKind, GameSpec, internals::is_one_line};

const LEFT_OUT: &[&str] = &[
    "genmove",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "oddity-heatmap",
    "oddity-solve",
    "lz-analyze",
    "kata-analyze",
    "analyze",
    "genmove_analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "loadsgf",
    "oddity-param",
];

/// The command a line names, as GTP preprocessing reads it (an id first
/// is skipped).
fn command(line: &[u8]) -> Option<String> {
    let cmd = oddity_gtp::io::preprocess(line)?;
    Some(cmd.name.to_ascii_lowercase())
}

/// A writer the test keeps a hold of.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fuzz_target!(|data: &[u8]| {
    let input: Vec<u8> = data
        .split(|&b| b == b'\n')
        .filter(|line| command(line).is_none_or(|c| !LEFT_OUT.contains(&c.as_str())))
        .collect::<Vec<_>>()
        .join(&b'\n');
    let mut params = Params::default();
    params.engine.set("threads", "1").expect("one thread");
    params.engine.set("visits", "10").expect("ten visits");
    let session =
        GtpSession::new(GameSpec::default_for(GameKind::Odd), params).expect("the default game");
    let out = Shared::default();
    oddity_gtp::run(session, std::io::Cursor::new(input), out.clone());
    let text = String::from_utf8(out.0.lock().unwrap().clone()).expect("answers are UTF-8");
    for answer in text.split("\n\n").filter(|a| !a.is_empty()) {
        assert!(
            answer.starts_with('=') || answer.starts_with('?'),
            "{answer:?}"
        );
        if answer.starts_with('?') {
            assert!(is_one_line(answer), "{answer:?}");
        }
    }
});
