//! The training data of `oddity train` (JSON lines, docs/patterns.md) on
//! any bytes, read for both targets of self-play data: the reader never
//! panics, and in what it accepts each position's labels, hand-written
//! priors and visit shares (adding up to 1) go one for one with its
//! candidates. The same bytes are read as a value network's data
//! (`oddity train-value`): no panic, and each position it accepts has a
//! game number no smaller than the one before. Read as a board network's
//! data (`oddity train-net`), the same holds, and each position's features
//! cover the board, its moves are distinct outputs of the board with
//! shares adding up to 1 (or none visited), and the search's choice, when
//! it placed a stone, is one of them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oddity_analysis::train_data::{Target, ValueLabel, read, read_outcomes, read_searches};
use oddity_patterns::FEATURES;

fuzz_target!(|data: &[u8]| {
    if let Ok(outcomes) = read_outcomes("data.jsonl", &mut &data[..], 0, ValueLabel::Search) {
        let games: Vec<usize> = outcomes.positions.iter().map(|(g, _)| *g).collect();
        assert!(games.windows(2).all(|w| w[0] <= w[1]), "{games:?}");
    }
    if let Ok(searches) = read_searches("data.jsonl", &mut &data[..], 0) {
        let games: Vec<usize> = searches.positions.iter().map(|(g, _)| *g).collect();
        assert!(games.windows(2).all(|w| w[0] <= w[1]), "{games:?}");
        let outputs = 2 * searches.graph.len();
        for (_, e) in &searches.positions {
            assert_eq!(e.features.len(), searches.graph.len() * FEATURES);
            let mut seen: Vec<u32> = e.moves.iter().map(|&(o, _)| o).collect();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), e.moves.len(), "a move twice");
            assert!(seen.iter().all(|&o| (o as usize) < outputs));
            let total: f32 = e.moves.iter().map(|&(_, s)| s).sum();
            assert!(
                total == 0.0 || (total - 1.0).abs() < 1e-4,
                "shares add up to {total}"
            );
            if let Some(c) = e.chosen {
                assert!(seen.contains(&c), "the choice {c} is not a move");
            }
            assert!((0.0..=1.0).contains(&e.value));
        }
    }
    for target in [Target::Visits, Target::Chosen] {
        let Ok(read) = read("data.jsonl", &mut &data[..], target) else {
            return;
        };
        assert_eq!(read.hand.len(), read.decisions.len());
        for (d, hand) in read.decisions.iter().zip(&read.hand) {
            let n = d.candidates.len();
            assert_eq!(d.wins.len(), n);
            if let Some(hand) = hand {
                assert_eq!(hand.len(), n);
            }
            if let Some(shares) = &d.shares {
                assert_eq!(shares.len(), n);
                let total: f64 = shares.iter().sum();
                assert!((total - 1.0).abs() < 1e-9, "shares add up to {total}");
            }
        }
    }
});
