//! perft: the number of distinct legal turn sequences of a given length
//! (`docs/rules.md` section 6). Finished games are not extended.

#[cfg(feature = "parallel")]
use rayon::prelude::*;

use crate::game::Game;

/// perft(depth) from `game`, counting through the action tree: a turn of two
/// stones is two actions but one ply.
///
/// ```
/// use oddity_rules::{AnyGame, GameKind, GameSpec, Rules};
///
/// let spec = GameSpec::new(GameKind::Xodd, 3, Rules::default()).unwrap();
/// let start = AnyGame::new(&spec);
/// assert_eq!(start.perft(1), 18);
/// assert_eq!(start.perft(2), 1338);
/// ```
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_over() {
        return 0;
    }
    let mut actions = Vec::new();
    game.legal_actions(&mut actions);
    let mut total = 0;
    for a in actions {
        let mut next = game.clone();
        next.apply(a);
        total += if next.mid_turn() {
            perft(&next, depth)
        } else if depth == 1 {
            1
        } else {
            perft(&next, depth - 1)
        };
    }
    total
}

/// [`perft`] with the subtrees of the first actions counted in parallel.
#[cfg(feature = "parallel")]
pub fn perft_parallel<G: Game>(game: &G, depth: u32) -> u64 {
    if depth <= 1 || game.is_over() {
        return perft(game, depth);
    }
    let mut actions = Vec::new();
    game.legal_actions(&mut actions);
    actions
        .par_iter()
        .map(|&a| {
            let mut next = game.clone();
            next.apply(a);
            if next.mid_turn() {
                perft(&next, depth)
            } else {
                perft(&next, depth - 1)
            }
        })
        .sum()
}

/// perft through whole turns (`legal_turns` and `play_turn`): slower, and an
/// independent check of the action-level count.
pub fn perft_by_turns<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_over() {
        return 0;
    }
    let turns = game.legal_turns();
    if depth == 1 {
        return turns.len() as u64;
    }
    turns
        .iter()
        .map(|t| {
            let mut next = game.clone();
            next.play_turn(t).expect("legal_turns are legal");
            perft_by_turns(&next, depth - 1)
        })
        .sum()
}
