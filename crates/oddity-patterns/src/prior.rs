//! Tree priors from the learned weights: each action's strength (the
//! product of its features' gammas) over the strongest action's, so the
//! most promising action has prior 1.

use oddity_rules::{Action, Cell, Game, Topology};

use super::features::FeatureBoard;
use super::weights::Weights;

/// Fills `out` with one prior in `0..=1` per action of `actions` (legal in
/// `game`). `last` are the last stones placed, newest first; `board` keeps
/// the feature board between calls.
pub fn priors<G: Game>(
    game: &G,
    weights: &Weights,
    last: &[Option<Cell>; 2],
    actions: &[Action],
    board: &mut Option<FeatureBoard>,
    out: &mut Vec<f32>,
) {
    out.clear();
    let last: Vec<Cell> = last.iter().flatten().copied().collect();
    let fits = |b: &FeatureBoard| std::ptr::eq::<Topology>(b.topology(), game.topology());
    let b = match board {
        Some(b) if fits(b) => {
            b.load(game, &last);
            b
        }
        _ => board.insert(FeatureBoard::new(game, &last)),
    };
    let mover = game.to_move();
    let mut best = 0.0f64;
    for &a in actions {
        let s = weights.strength(&b.features(a, mover));
        best = best.max(s);
        out.push(s as f32);
    }
    if best > 0.0 {
        let scale = (1.0 / best) as f32;
        for p in out.iter_mut() {
            *p = (*p * scale).clamp(0.0, 1.0);
        }
    }
}
