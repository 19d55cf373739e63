//! [`OnyxGame`] as a [`Game`]: the interface every game implements.

use crate::game::{Game, GameSpec, Inconsistency, PlayError, SetupError, SpecError, TurnState};
use crate::moves::{Action, Colour, Stone};
use crate::random::Rng;
use crate::topology::{Cell, Topology};

use super::game::{BOTH_EDGES, OnyxGame};

impl<const W: usize> Game for OnyxGame<W> {
    fn new(spec: &GameSpec) -> Self {
        let topo = spec.topology();
        let stones = if spec.standard_start() {
            Self::standard_stones(spec.size)
        } else {
            Vec::new()
        };
        let mut game = Self::with_stones(spec, topo, &stones, Colour::Black)
            .expect("the start position is valid");
        game.pie_pending = spec.rules.swap;
        game
    }

    fn from_setup(spec: &GameSpec, stones: &[Stone], to_move: Colour) -> Result<Self, SetupError> {
        let topo = Topology::get(spec.kind.board(), spec.size)
            .map_err(|e| SetupError::Spec(SpecError::Size(e)))?;
        Self::with_stones(spec, topo, stones, to_move)
    }

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn topology(&self) -> &'static Topology {
        self.topo()
    }

    fn captures(&self, cell: Cell, colour: Colour) -> u32 {
        OnyxGame::captures(self, cell, colour)
    }

    fn to_move(&self) -> Colour {
        self.to_move
    }

    /// Playing out of turn gives up the swap privilege.
    fn set_to_move(&mut self, seat: Colour) {
        if seat != self.to_move {
            self.to_move = seat;
            self.pie_pending = false;
            self.swap_from = None;
        }
    }

    fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    fn winner(&self) -> Option<Colour> {
        self.winner
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.is_over() {
            return;
        }
        out.extend(
            self.playable
                .iter()
                .map(|i| Action::stone(Cell(i as u16), self.to_move)),
        );
        if self.swap_from.is_some() {
            out.push(Action::SWAP);
        }
    }

    fn is_legal(&self, action: Action) -> bool {
        self.illegal_reason(action).is_none()
    }

    fn illegal_reason(&self, action: Action) -> Option<PlayError> {
        if self.is_over() {
            return Some(PlayError::GameOver);
        }
        if action == Action::SWAP {
            return match self.swap_from {
                Some(_) => None,
                None if !self.spec.rules.swap => Some(PlayError::Illegal("the swap rule is off")),
                None => Some(PlayError::Illegal(
                    "swap is legal only as White's first move",
                )),
            };
        }
        if !action.is_stone() {
            return Some(PlayError::Illegal("Onyx has no pass"));
        }
        let cell = action.cell();
        if cell.index() >= self.topo().bits {
            return Some(PlayError::Illegal("not a point of this board"));
        }
        if action.colour() != self.to_move {
            return Some(PlayError::Illegal(
                "a player places stones of its own colour",
            ));
        }
        if self.occupied(cell.index()) {
            return Some(PlayError::Occupied(cell));
        }
        if !self.playable.get(cell.index()) {
            return Some(PlayError::Illegal(
                "a midpoint may be played only when its square's four corners are empty",
            ));
        }
        None
    }

    fn apply(&mut self, action: Action) {
        debug_assert!(self.is_legal(action), "illegal action {action:?}");
        if action == Action::SWAP {
            self.play_swap();
        } else {
            self.play_stone(action.cell().index());
        }
    }

    /// Plays uniformly random legal moves (the swap included while legal)
    /// until someone wins, and returns the winner.
    ///
    /// Captures re-open points, so a random game could in principle go on
    /// for ever: the playout stops after 4 plies per board point. That cap is
    /// not part of the rules of Onyx; when it is hit, or when a set-up
    /// position leaves no legal move, the winner is a fair coin flip from
    /// `rng`, and the position is left unfinished.
    fn playout(&mut self, rng: &mut Rng) -> Colour {
        self.playout_answering(rng, |_, _, _| None)
    }

    fn stone_words(&self, colour: Colour) -> &[u64] {
        &self.stones[colour.index()].0
    }

    fn turn_state(&self) -> TurnState {
        TurnState {
            flags: u8::from(self.pie_pending),
            anchor: self.swap_from,
        }
    }

    fn stone_at(&self, cell: Cell) -> Option<Colour> {
        let i = cell.index();
        if i >= self.topo().bits {
            None
        } else if self.stones[0].get(i) {
            Some(Colour::Black)
        } else if self.stones[1].get(i) {
            Some(Colour::White)
        } else {
            None
        }
    }

    fn group_counts(&self) -> [u32; 2] {
        self.group_count
    }

    fn check_consistency(&self) -> Result<(), Inconsistency> {
        let topo = self.topo();
        let [black, white] = self.stones;
        if (black & white).any() {
            return Err(Inconsistency(format!(
                "points with both colours: {:?}",
                black & white
            )));
        }
        let off_board = (black | white).and_not(&self.tables.board.on_board);
        if off_board.any() {
            return Err(Inconsistency(format!(
                "stones off the board: {off_board:?}"
            )));
        }
        for (i, &code) in self.colours.iter().enumerate() {
            let expected = (0..2)
                .find(|&c| i < topo.bits && self.stones[c].get(i))
                .map_or(0, |c| c as u8 + 1);
            if code != expected {
                return Err(Inconsistency(format!(
                    "colour byte of point {i} is {code}, expected {expected}"
                )));
            }
        }
        for (me, near) in self.own_near.iter().enumerate() {
            for (p, &mask) in near.iter().enumerate() {
                let expected = if p < topo.bits {
                    let point = &self.tables.points[p];
                    (0..topo.neighbours(Cell(p as u16)).len())
                        .filter(|&j| self.stones[me].get(usize::from(point.neighbours[j])))
                        .fold(0u8, |acc, j| acc | 1 << j)
                } else {
                    0
                };
                if mask != expected {
                    return Err(Inconsistency(format!(
                        "neighbour mask of point {p} is {mask:#b}, expected {expected:#b}"
                    )));
                }
            }
        }
        let playable = self.playable_from_scratch();
        if self.playable.0.map(u64::count_ones) != self.playable_counts {
            return Err(Inconsistency(
                "playable counts differ from a recount".into(),
            ));
        }
        if playable != self.playable {
            return Err(Inconsistency(format!(
                "playable points {:?}, expected {playable:?}",
                self.playable
            )));
        }
        let mut winners = Vec::new();
        for colour in Colour::BOTH {
            let me = colour.index();
            let groups = self.groups_from_scratch(colour);
            let mut roots = Vec::new();
            for group in &groups {
                let edges = group
                    .iter()
                    .fold(0, |acc, c| acc | self.tables.points[c].edges[me]);
                if edges == BOTH_EDGES {
                    winners.push(colour);
                }
                let root = self
                    .groups
                    .root(group.lowest().expect("groups are not empty"));
                let name = topo.name(Cell(root as u16));
                if group.iter().any(|c| self.groups.root(c) != root) {
                    return Err(Inconsistency(format!(
                        "{colour:?} group of {name} is split in the forest"
                    )));
                }
                if roots.contains(&root) {
                    return Err(Inconsistency(format!(
                        "{colour:?} groups share the root {name}"
                    )));
                }
                if self.groups.edges.as_flattened()[root] != edges {
                    return Err(Inconsistency(format!(
                        "{colour:?} group of {name}: wrong edge flags"
                    )));
                }
                roots.push(root);
            }
            if self.group_count[me] as usize != groups.len() {
                return Err(Inconsistency(format!(
                    "{colour:?} has {} groups, counted {}",
                    groups.len(),
                    self.group_count[me]
                )));
            }
        }
        if winners.len() > 1 || winners.first().copied() != self.winner {
            return Err(Inconsistency(format!(
                "winner {:?}, but winning chains for {winners:?}",
                self.winner
            )));
        }
        if let Some(p) = self.swap_from
            && (self.turns != 1 || self.to_move != Colour::White || !black.get(p.index()))
        {
            return Err(Inconsistency(format!(
                "swap offered for {} out of turn",
                topo.name(p)
            )));
        }
        Ok(())
    }

    fn turns_played(&self) -> u32 {
        self.turns
    }
}
