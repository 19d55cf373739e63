//! Turns the search may not consider, or may only consider, near the root
//! (analysis queries' `avoidMoves` and `allowMoves`).

use oddity_rules::{Action, Colour};

/// Cells a seat may not play, or may only play, in the first turns of the
/// searched line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRule {
    /// The seat the rule restricts.
    pub seat: Colour,
    /// `true`: only these moves; `false`: none of them.
    pub allow: bool,
    /// Indexed by cell index: a stone of either colour there.
    pub cells: Vec<bool>,
    /// Whether the rule lists the pass.
    pub pass: bool,
    /// Whether the rule lists the swap.
    pub swap: bool,
    /// Applies to the turns numbered below this from the root (0 = the
    /// root's own turn).
    pub until_depth: u32,
    /// `Some(c)`: `cells` lists stones of colour `c` only.
    pub colour: Option<Colour>,
    /// `false`: turns of one stone; where a turn may end after its first
    /// stone, it ends there.
    pub second_stone: bool,
}

/// A set of [`MoveRule`]s, all of which a searched action must pass.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveFilter {
    /// The rules.
    pub rules: Vec<MoveRule>,
}

impl MoveRule {
    fn admits(&self, a: Action) -> bool {
        let listed = match a {
            Action::END_TURN => return true,
            Action::PASS => self.pass,
            Action::SWAP => self.swap,
            _ => {
                self.colour.is_none_or(|c| c == a.colour())
                    && self.cells.get(a.cell().index()).copied().unwrap_or(false)
            }
        };
        listed == self.allow
    }
}

impl MoveFilter {
    /// Removes from `actions` (of a position where `mover` moves, `depth`
    /// turns below the root) those a rule forbids, unless that would leave
    /// none: a filter never makes a position a dead end.
    pub fn retain(&self, actions: &mut Vec<Action>, mover: Colour, depth: u32) {
        let applies = |r: &&MoveRule| r.seat == mover && depth < r.until_depth;
        if !self.rules.iter().any(|r| applies(&r)) {
            return;
        }
        let one_stone = self.rules.iter().filter(applies).any(|r| !r.second_stone);
        if one_stone && actions.contains(&Action::END_TURN) {
            actions.retain(|&a| a == Action::END_TURN);
            return;
        }
        let admitted = |a: &Action| self.rules.iter().filter(applies).all(|r| r.admits(*a));
        if actions.iter().any(admitted) {
            actions.retain(admitted);
        }
    }
}
