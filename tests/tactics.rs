//! Tactics: positions whose right turn is known, which the default policy
//! finds within a stated number of visits and the plain policy does not.
//!
//! Each right turn is checked to be a proven win with a deep search (the
//! solver). The default policy must choose it with each of five seeds; the
//! plain policy, with the same visits, with at most [`PLAIN_MAX`] of them,
//! and none of its other choices may be a proven win. Single thread, fixed
//! seeds: the searches are deterministic.

use oddity::rules::game::{GameSpec, Rules};
use oddity::rules::kind::GameKind;
use oddity::rules::moves::{Colour, Stone, Turn};
use oddity::rules::position::AnyGame;
use oddity::rules::record::GameRecord;
use oddity::search::{Engine, Limits, Policy, Report, SearchParams, StopFlag};

/// Seeds of the searches.
const SEEDS: [u64; 5] = [1, 2, 3, 4, 5];
/// Seeds with which the plain policy may find the right turn.
const PLAIN_MAX: usize = 2;
/// Visits of the search that proves a turn's result.
const PROOF_VISITS: u64 = 20_000;

struct Tactic {
    kind: GameKind,
    size: usize,
    to_move: Colour,
    /// `B:A1 W:C1 ...`
    stones: &'static str,
    /// The winning turn.
    right: &'static str,
    /// Visits the default policy gets (and the plain policy with it).
    visits: u64,
}

fn position(t: &Tactic) -> AnyGame {
    let spec = GameSpec::new(t.kind, t.size, Rules::default()).unwrap();
    let topo = spec.topology();
    let stones: Vec<Stone> = t
        .stones
        .split_whitespace()
        .map(|s| {
            let (c, cell) = s.split_once(':').unwrap();
            Stone {
                colour: Colour::parse(c).unwrap(),
                cell: topo.parse_cell(cell).unwrap(),
            }
        })
        .collect();
    AnyGame::from_setup(&spec, &stones, t.to_move).unwrap()
}

fn search(pos: &AnyGame, policy: Policy, visits: u64, seed: u64) -> Report {
    let mut engine = Engine::new(SearchParams {
        threads: 1,
        seed,
        policy,
        memory_mb: 256,
        ..SearchParams::default()
    });
    engine.set_position(&GameRecord::new(pos.clone()));
    let limits = Limits {
        visits: Some(visits),
        ..Limits::default()
    };
    engine.search(&limits, &StopFlag::new(), None)
}

/// The proven winner after `turn` (None when the deep search cannot tell).
fn proven_after(pos: &AnyGame, turn: &Turn) -> Option<Colour> {
    let mut next = pos.clone();
    next.play_turn(turn).unwrap();
    if let Some(w) = next.winner() {
        return Some(w);
    }
    search(&next, Policy::Default, PROOF_VISITS, 1).proven
}

fn check(t: &Tactic) {
    let pos = position(t);
    let right = pos.parse_turn(t.right).unwrap();
    assert_eq!(
        proven_after(&pos, &right),
        Some(t.to_move),
        "{} is not a proven win",
        t.right
    );
    for seed in SEEDS {
        let best = search(&pos, Policy::Default, t.visits, seed).best.unwrap();
        assert_eq!(
            pos.token(&best),
            t.right,
            "default, seed {seed}, {} visits",
            t.visits
        );
    }
    let mut found = 0;
    for seed in SEEDS {
        let plain = search(&pos, Policy::Plain, t.visits, seed).best.unwrap();
        if pos.token(&plain) == t.right {
            found += 1;
        } else {
            assert_ne!(
                proven_after(&pos, &plain),
                Some(t.to_move),
                "plain's {} wins as well",
                pos.token(&plain)
            );
        }
    }
    assert!(found <= PLAIN_MAX, "plain found it with {found} seeds of 5");
}

#[test]
fn onyx_white_connects_with_a2() {
    check(&Tactic {
        kind: GameKind::Onyx,
        size: 8,
        to_move: Colour::White,
        stones: "B:A1 W:C1 W:D1 W:E1 W:F1 W:G1 W:B2 B:A3 B:A4 B:B4 B:C4 B:H4 B:A5 B:E5 \
                 B:H5 B:A7 W:D8 W:E8 B:H8 W:BC12 W:EF23 B:GH23 W:FG34 W:BC56 B:DE56 \
                 W:GH67 B:BC78",
        right: "A2",
        visits: 200,
    });
}
