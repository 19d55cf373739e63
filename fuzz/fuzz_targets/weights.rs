//! The pattern weights file (`--param weights=FILE`, `oddity train
//! --compare`) on any bytes: the reader never panics, and weights it
//! accepts are written and read again as the same game and ring with every
//! gamma kept to the six digits the file holds; weights read from a
//! written file are written and read again exactly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oddity_patterns::Weights;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(weights) = Weights::parse(&text) else {
        return;
    };
    let written = weights.to_text(&[]);
    let again = match Weights::parse(&written) {
        Ok(w) => w,
        Err(e) => panic!("written weights are refused: {e}\n{written}"),
    };
    assert_eq!((&again.game, again.ring), (&weights.game, weights.ring));
    assert_eq!(again.len(), weights.len());
    for i in 0..weights.len() {
        let (a, b) = (weights.gamma(i), again.gamma(i));
        // Relative to the gamma, or to the smallest normal number for the
        // subnormal ones, whose last digits the text cannot hold.
        let tolerance = 1e-6 * a.max(f64::MIN_POSITIVE);
        assert!((a - b).abs() <= tolerance, "gamma {i}: {a} written as {b}");
    }
    let rewritten = again.to_text(&[]);
    assert_eq!(
        Weights::parse(&rewritten).as_ref(),
        Ok(&again),
        "{rewritten}"
    );
});
