//! The files `oddity match` and `oddity balance` read, on any bytes: a
//! results file (`--resume`, the balance study's records) when the first
//! byte is even, else an openings file (`--openings`) for the game and
//! size the next two bytes choose. Reading never panics and a refusal is
//! one line; results it accepts, written and read again, are the same
//! games (their seconds to within an ulp or two), and so are openings it
//! accepts.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use oddity_rules::{AnyGame, GameKind, GameSpec, Rules, internals::is_one_line};
use oddity_tournament::results::parse_results;
use oddity_tournament::schedule::read_openings;

fuzz_target!(|data: &[u8]| {
    let [mode, game, size, rest @ ..] = data else {
        return;
    };
    if mode % 2 == 0 {
        results(rest);
    } else {
        openings(*game, *size, rest);
    }
});

fn results(bytes: &[u8]) {
    let path = Path::new("results.jsonl");
    let (games, unfinished) = match parse_results(bytes, path) {
        Ok(read) => read,
        Err(e) => {
            assert!(is_one_line(&e.to_string()), "{e}");
            return;
        }
    };
    if let Some(why) = unfinished {
        assert!(is_one_line(&why), "{why}");
    }
    let mut written = String::new();
    for game in &games {
        written.push_str(&serde_json::to_string(game).expect("a game writes as JSON"));
        written.push('\n');
    }
    let again = match parse_results(written.as_bytes(), path) {
        Ok((again, None)) => again,
        other => panic!("written results read as {other:?}:\n{written}"),
    };
    assert_eq!(again.len(), games.len(), "{written}");
    for (a, g) in again.iter().zip(&games) {
        // serde_json reads a number of many digits to within an ulp or
        // two, so the seconds are compared as closely as that.
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-12 * x.abs().max(1.0);
        assert!(close(a.time_used.black, g.time_used.black), "{written}");
        assert!(close(a.time_used.white, g.time_used.white), "{written}");
        let mut a = a.clone();
        a.time_used = g.time_used;
        assert_eq!(&a, g, "{written}");
    }
}

fn openings(game: u8, size: u8, bytes: &[u8]) {
    let kind = GameKind::ALL[usize::from(game) % 4];
    let (lo, hi) = kind.board().size_range();
    let size = lo + usize::from(size) % (hi - lo + 1);
    let Ok(spec) = GameSpec::new(kind, size, Rules::default()) else {
        return;
    };
    let start = AnyGame::new(&spec);
    let openings = match read_openings(bytes, &start) {
        Ok(openings) => openings,
        Err(e) => {
            assert!(is_one_line(&e.to_string()), "{e}");
            return;
        }
    };
    let written: String = openings.iter().map(|o| o.join(" ") + "\n").collect();
    match read_openings(written.as_bytes(), &start) {
        Ok(again) => assert_eq!(again, openings, "{written}"),
        Err(e) => panic!("written openings are refused: {e}\n{written}"),
    }
}
