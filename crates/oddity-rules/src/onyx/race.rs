//! The connection race: for each colour, the fewest stones it still needs
//! to join its two goal edges, and for each point the shortest such
//! connection through it.
//!
//! A path runs over the colour's own stones (free) and playable points
//! (one stone each); opponent stones and midpoints that cannot be played
//! now block it. Captures and the midpoint restriction between the stones
//! a path adds are ignored: the distance is that of the position as it
//! stands, the measure Hex programs call the shortest-path resistance.

use crate::moves::Colour;
use crate::topology::Cell;

use super::game::{COLOUR_SLOTS, OnyxGame, colour_code};

/// The connection race of one position, both colours.
#[derive(Clone)]
pub struct Race {
    /// Per colour: the fewest stones that join its two goal edges
    /// ([`Race::NO_PATH`] when none can). 0: the colour is connected (has won).
    pub distance: [u16; 2],
    /// Per colour and point: the fewest stones of a connection of the two
    /// edges that runs through the point, the point's own stone included
    /// when it is empty ([`Race::NO_PATH`] for a blocked point).
    through: [[u16; COLOUR_SLOTS]; 2],
}

impl Race {
    /// No path: the point is blocked, or the edges cannot be joined.
    pub const NO_PATH: u16 = u16::MAX;

    /// The fewest stones of `colour` in a connection through point `p`.
    pub fn through(&self, colour: Colour, p: usize) -> u16 {
        self.through[colour.index()][p & (COLOUR_SLOTS - 1)]
    }

    /// How many stones longer than `colour`'s shortest connection the
    /// shortest one through `p` is (0: `p` lies on a shortest connection);
    /// `None` when no connection runs through `p`.
    pub fn slack(&self, colour: Colour, p: usize) -> Option<u16> {
        let through = self.through(colour, p);
        (through != Race::NO_PATH).then(|| through - self.distance[colour.index()])
    }
}

impl<const W: usize> OnyxGame<W> {
    /// The connection race of this position, computed from scratch: two
    /// breadth-first searches per colour, one from each goal edge.
    pub fn race(&self) -> Race {
        let mut race = Race {
            distance: [Race::NO_PATH; 2],
            through: [[Race::NO_PATH; COLOUR_SLOTS]; 2],
        };
        let bits = self.topo().bits;
        for colour in Colour::BOTH {
            let c = colour.index();
            let from_first = self.edge_distances(colour, 0);
            let from_last = self.edge_distances(colour, 1);
            let mut best = Race::NO_PATH;
            for p in 0..bits {
                let (a, b) = (from_first[p], from_last[p]);
                if a == Race::NO_PATH || b == Race::NO_PATH {
                    continue;
                }
                // Both sides count the point's own cost.
                let through = a + b - self.stone_cost(colour, p).unwrap_or(0);
                race.through[c][p] = through;
                best = best.min(through);
            }
            race.distance[c] = best;
        }
        race
    }

    /// The fewest stones `colour` needs to join its two goal edges
    /// ([`Race::NO_PATH`]: it cannot), computed from scratch.
    pub fn connection_distance(&self, colour: Colour) -> u16 {
        let d = self.edge_distances(colour, 0);
        (0..self.topo().bits)
            .filter(|&p| self.tables.points[p].edges[colour.index()] & 0b10 != 0)
            .map(|p| d[p])
            .min()
            .unwrap_or(Race::NO_PATH)
    }

    /// The stones a stone of `colour` on the empty `cell` would capture
    /// (as many as [`Self::captures`] counts).
    pub fn capture_victims(&self, cell: Cell, colour: Colour) -> impl Iterator<Item = Cell> + '_ {
        let p = cell.index();
        let (me, them) = (colour_code(colour), colour_code(colour.opposite()));
        let open = p < self.tables.corner_count && !self.occupied(p);
        self.tables.points[p & (COLOUR_SLOTS - 1)]
            .squares
            .iter()
            .filter(move |sq| {
                open && self.colour_at(sq.midpoint) == 0
                    && self.colour_at(sq.opposite) == me
                    && sq.sides.iter().all(|&q| self.colour_at(q) == them)
            })
            .flat_map(|sq| sq.sides.map(Cell))
    }

    /// Whether a capture at `cell` (by a stone of either colour) is part of
    /// the race: some stone it would take lies on a connection of its
    /// colour at most `slack` stones longer than that colour's shortest.
    pub fn capture_in_race(&self, race: &Race, cell: Cell, slack: u16) -> bool {
        Colour::BOTH.into_iter().any(|colour| {
            let victim = colour.opposite();
            self.capture_victims(cell, colour)
                .any(|q| race.slack(victim, q.index()).is_some_and(|s| s <= slack))
        })
    }

    /// What a path of `colour` pays to pass point `p`: 0 for its own stone,
    /// 1 for a playable point, `None` when it cannot pass.
    fn stone_cost(&self, colour: Colour, p: usize) -> Option<u16> {
        let code = self.colour_at(p as u16);
        if code == colour_code(colour) {
            Some(0)
        } else if code == 0 && self.playable.get(p) {
            Some(1)
        } else {
            None
        }
    }

    /// Per point: the fewest stones of `colour` on a path from its goal edge
    /// `edge` (0 or 1) to the point, the point's own cost included. Points
    /// cost 0 or 1, so the search goes one distance at a time, each point
    /// reached first at its least distance.
    fn edge_distances(&self, colour: Colour, edge: u8) -> [u16; COLOUR_SLOTS] {
        let mut dist = [Race::NO_PATH; COLOUR_SLOTS];
        let bits = self.topo().bits;
        // Points reached at the distance being worked on, and at the next.
        let mut now: Vec<u16> = Vec::with_capacity(bits);
        let mut next: Vec<u16> = Vec::with_capacity(bits);
        let on_edge = |p: &usize| self.tables.points[*p].edges[colour.index()] >> edge & 1 != 0;
        for p in (0..bits).filter(on_edge) {
            match self.stone_cost(colour, p) {
                Some(0) => {
                    dist[p] = 0;
                    now.push(p as u16);
                }
                Some(_) => next.push(p as u16),
                None => {}
            }
        }
        let mut level = 0u16;
        loop {
            while let Some(p) = now.pop() {
                let point = &self.tables.points[usize::from(p)];
                for &q in &point.neighbours {
                    let q = usize::from(q);
                    if dist[q] != Race::NO_PATH {
                        // Reached already (the padding, `p` itself, too).
                        continue;
                    }
                    match self.stone_cost(colour, q) {
                        Some(0) => {
                            dist[q] = level;
                            now.push(q as u16);
                        }
                        Some(_) => next.push(q as u16),
                        None => {}
                    }
                }
            }
            level += 1;
            // A point can be in `next` twice; the first sets its distance.
            for p in next.drain(..) {
                if dist[usize::from(p)] == Race::NO_PATH {
                    dist[usize::from(p)] = level;
                    now.push(p);
                }
            }
            if now.is_empty() {
                return dist;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, GameSpec, Rules};
    use crate::kind::GameKind;
    use crate::random::Rng;

    type Onyx = OnyxGame<2>;

    /// An open Onyx game of `size` after up to `plies` uniformly random
    /// moves (fewer when it ends first).
    fn random_game(size: usize, plies: u32, rng: &mut Rng) -> Onyx {
        let spec = GameSpec::new(GameKind::Onyx, size, Rules::default()).unwrap();
        let mut game = Onyx::new(&spec);
        let mut actions = Vec::new();
        for _ in 0..plies {
            actions.clear();
            game.legal_actions(&mut actions);
            if game.is_over() || actions.is_empty() {
                break;
            }
            game.apply(actions[rng.below_precise(actions.len() as u32) as usize]);
        }
        game
    }

    /// Whether `colour`'s stones plus stones of `colour` on `added` (put
    /// down without captures or the midpoint restriction) join its edges,
    /// by the rules' own groups.
    fn joins(game: &Onyx, colour: Colour, added: &[usize]) -> bool {
        let mut g = game.clone();
        added
            .iter()
            .any(|&p| g.put_stone(p, colour) == super::super::game::BOTH_EDGES)
    }

    /// Whether some `k` of the playable points, added as stones of
    /// `colour`, join its edges (every such set is tried).
    fn joins_with(game: &Onyx, colour: Colour, k: usize) -> bool {
        let free: Vec<usize> = (0..game.topo().bits)
            .filter(|&p| game.playable.get(p))
            .collect();
        fn choose(
            game: &Onyx,
            colour: Colour,
            free: &[usize],
            k: usize,
            chosen: &mut Vec<usize>,
        ) -> bool {
            if chosen.len() == k {
                return joins(game, colour, chosen);
            }
            (0..free.len()).any(|i| {
                chosen.push(free[i]);
                let found = choose(game, colour, &free[i + 1..], k, chosen);
                chosen.pop();
                found
            })
        }
        choose(game, colour, &free, k, &mut Vec::new())
    }

    /// On Onyx 4 to 6, the distance is the fewest playable points whose
    /// stones join the colour's edges, found by trying every set of points
    /// (positions where it is at most 3, so the sets stay few).
    #[test]
    fn distance_is_the_fewest_stones_that_connect() {
        let mut rng = Rng::seeded(54);
        let mut checked = [0u32; 4];
        for round in 0..240 {
            let size = 4 + round % 3;
            let plies = rng.below_precise((size * size) as u32);
            let game = random_game(size, plies, &mut rng);
            if game.is_over() {
                continue;
            }
            for colour in Colour::BOTH {
                let d = game.connection_distance(colour);
                assert_eq!(d, game.race().distance[colour.index()]);
                if d > 3 {
                    continue;
                }
                let d = usize::from(d);
                assert!(joins_with(&game, colour, d), "{d} stones do not join");
                if d > 0 {
                    assert!(!joins_with(&game, colour, d - 1), "{} stones join", d - 1);
                }
                checked[d] += 1;
            }
        }
        assert!(
            checked[1..].iter().all(|&n| n > 5),
            "too few cases: {checked:?}"
        );
    }

    /// Every point's `through`, less the stone the point costs, is the
    /// colour's distance once the point is free for it, unless a connection
    /// elsewhere is shorter still.
    #[test]
    fn through_is_the_distance_with_the_point_taken() {
        let mut rng = Rng::seeded(4);
        for round in 0..120 {
            let size = 4 + round % 5;
            let plies = rng.below_precise((size * size) as u32);
            let game = random_game(size, plies, &mut rng);
            let race = game.race();
            for colour in Colour::BOTH {
                for p in (0..game.topo().bits).filter(|&p| game.playable.get(p)) {
                    // Only the point's cost changes: the playable points stay.
                    let mut g = game.clone();
                    g.colours[p] = colour_code(colour);
                    let taken = g.connection_distance(colour);
                    match race.slack(colour, p) {
                        Some(_) => {
                            let best = race.distance[colour.index()];
                            assert_eq!(taken, best.min(race.through(colour, p) - 1));
                        }
                        None => assert_eq!(taken, race.distance[colour.index()]),
                    }
                }
            }
        }
    }

    /// `capture_victims` names the stones a stone of that colour on that
    /// point removes when it is played, for every playable point of random
    /// positions.
    #[test]
    fn capture_victims_are_the_stones_removed() {
        let mut rng = Rng::seeded(9);
        let mut seen = 0;
        for _ in 0..200 {
            let plies = 10 + rng.below_precise(50);
            let game = random_game(8, plies, &mut rng);
            if game.is_over() {
                continue;
            }
            for p in (0..game.topo().bits).filter(|&p| game.playable.get(p)) {
                for colour in Colour::BOTH {
                    let mut victims: Vec<usize> = game
                        .capture_victims(Cell(p as u16), colour)
                        .map(Cell::index)
                        .collect();
                    victims.sort_unstable();
                    let mut after = game.clone();
                    after.to_move = colour;
                    after.play_stone(p);
                    let removed: Vec<usize> = (0..game.topo().bits)
                        .filter(|&q| game.occupied(q) && !after.occupied(q))
                        .collect();
                    assert_eq!(victims, removed);
                    assert_eq!(victims.len() as u32, game.captures(Cell(p as u16), colour));
                    seen += victims.len();
                }
            }
        }
        assert!(seen > 50, "only {seen} captured stones");
    }

    /// Distance 0 means the colour has a chain between its edges: along
    /// random games played to the end, a colour's distance is 0 exactly
    /// when the rules name it the winner.
    #[test]
    fn distance_zero_is_the_rules_winner() {
        let mut rng = Rng::seeded(12);
        let mut wins = 0;
        for round in 0..60 {
            let size = 4 + round % 9;
            let spec = GameSpec::new(GameKind::Onyx, size, Rules::default()).unwrap();
            let mut game = OnyxGame::<4>::new(&spec);
            let mut actions = Vec::new();
            loop {
                for colour in Colour::BOTH {
                    let connected = game.race().distance[colour.index()] == 0;
                    assert_eq!(connected, game.winner() == Some(colour));
                }
                if game.is_over() {
                    wins += 1;
                    break;
                }
                actions.clear();
                game.legal_actions(&mut actions);
                game.apply(actions[rng.below_precise(actions.len() as u32) as usize]);
            }
        }
        assert_eq!(wins, 60);
    }
}
