//! Game knowledge for [`super::Policy::Default`]: the prior hook.
//!
//! [`priors`] may give each legal action of a position a prior in `0..=1`
//! (how promising it looks before any playout). The tree stores it in one
//! byte per node and uses it twice: children are tried in decreasing prior
//! order before any has been visited, and UCT gets a progressive-bias term
//! `prior_weight * prior / n` that fades as a child's visits `n` grow.
//! [`super::Policy::Plain`] never calls it.
//!
//! [`defaults`] holds each game's settings of the default policy (which
//! knowledge is on, and its constants); [`super::tuning`] overrides them at
//! run time.
//!
//! [`playout`] is the playout of the default policy: the place for smarter
//! per-game playout policies. It is the rules core's uniformly random
//! [`Game::playout`] for every game so far.
//!
//! No game has priors yet: every game returns `false` and searches exactly
//! as the plain policy's tree does (with its own exploration constant).
//! Knowledge is added here one game at a time, measured by the match runner
//! against `--policy plain`.

use crate::rules::game::Game;
use crate::rules::kind::GameKind;
use crate::rules::moves::{Action, Colour};
use crate::rules::random::Rng;

use super::tuning::Resolved;

/// The default policy's settings for `kind`, before any override.
pub fn defaults(kind: GameKind) -> Resolved {
    let base = Resolved {
        rave: true,
        rave_equiv: 1000.0,
        priors: true,
        prior_weight: 4.0,
        playouts: true,
        expand: super::EXPAND_DIVISOR,
    };
    match kind {
        GameKind::Odd | GameKind::Xodd | GameKind::Yodd | GameKind::Onyx => base,
    }
}

/// Whether [`priors`] can give priors in this game (when false, the
/// selection loop is compiled without the bias term).
pub fn has_priors(kind: GameKind) -> bool {
    match kind {
        GameKind::Odd | GameKind::Xodd | GameKind::Yodd | GameKind::Onyx => false,
    }
}

/// Fills `out` with one prior in `0..=1` per action of `actions` (legal in
/// `game`) and returns true, or returns false when the game has no
/// knowledge for this position (`out` is then ignored).
pub fn priors<G: Game>(game: &G, actions: &[Action], out: &mut Vec<f32>) -> bool {
    out.clear();
    match game.spec().kind {
        GameKind::Odd | GameKind::Xodd | GameKind::Yodd | GameKind::Onyx => {
            let _ = actions;
            false
        }
    }
}

/// Plays `game` out to the end with the default policy's playout policy;
/// returns the winner.
#[inline]
pub fn playout<G: Game>(game: &mut G, rng: &mut Rng) -> Colour {
    game.playout(rng)
}
