//! Move ordering for the solver: which children df-pn tries first among
//! equally promising ones.
//!
//! - Xodd, Yodd: passes and turn ends first (they end or settle a turn),
//!   then stones by how much they help the mover's count: a stone of the
//!   mover's colour that joins its groups, or an opponent's stone that adds
//!   an opponent group, before the rest.
//! - Odd and Onyx: cells nearest the centre of the board first.

use oddity_rules::{Action, Game, GameKind};

#[derive(Default)]
pub struct Ordering {
    keyed: Vec<(i32, Action)>,
}

impl Ordering {
    /// Sorts `actions`, legal in `game`, best first (stable).
    pub fn sort<G: Game>(&mut self, game: &G, actions: &mut [Action]) {
        let kind = game.spec().kind;
        let topo = game.topology();
        let mover = game.to_move();
        // Distances in doubled coordinates, where every board's centre is
        // at (stride - 1, stride - 1) and an Onyx midpoint sits between
        // its square's corners.
        let centre = topo.stride as i32 - 1;
        let doubled = |cell| match topo.square_of_midpoint(cell) {
            Some(sq) => {
                let (x, y) = topo.coords(sq.corners[0]);
                (2 * x as i32 + 1, 2 * y as i32 + 1)
            }
            None => {
                let (x, y) = topo.coords(cell);
                (2 * x as i32, 2 * y as i32)
            }
        };
        self.keyed.clear();
        self.keyed.extend(actions.iter().map(|&a| {
            let score = if !a.is_stone() {
                1000
            } else {
                match kind {
                    GameKind::Xodd | GameKind::Yodd => {
                        let change = game.group_change(a).unwrap_or(0);
                        if a.colour() == mover { -change } else { change }
                    }
                    GameKind::Odd | GameKind::Onyx => {
                        let (x, y) = doubled(a.cell());
                        -((x - centre).abs() + (y - centre).abs())
                    }
                }
            };
            (score, a)
        }));
        self.keyed
            .sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        for (slot, &(_, a)) in actions.iter_mut().zip(&self.keyed) {
            *slot = a;
        }
    }
}
