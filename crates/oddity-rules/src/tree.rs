//! A game with variations: every turn tried from one start position, kept
//! as a tree (SGF keeps games so). A node stands for the position after
//! the turns on its path from the root; its first child continues the main
//! line, the others are variations. A node may carry a name (SGF's `N`).
//!
//! Nodes are numbered as they are added and keep their numbers; the number
//! of a removed node is not used again, so a number held elsewhere never
//! comes to mean another node. Every walk is a loop, never a recursion:
//! trees as deep as a record can be are fine.

use crate::game::PlayError;
use crate::moves::{Colour, Turn};
use crate::position::AnyGame;
use crate::record::GameRecord;

/// A node's number in its tree.
pub type NodeId = usize;

#[derive(Clone, Debug)]
struct Node {
    parent: Option<NodeId>,
    /// The turn that led here and the seat that played it (none at the
    /// root).
    turn: Option<(Colour, Turn)>,
    children: Vec<NodeId>,
    name: Option<String>,
}

/// A game with variations: the start position and a tree of turns below
/// it, each node a position reached by one turn from its parent. Every turn
/// in the tree was checked by the rules when it was added.
#[derive(Clone)]
pub struct GameTree {
    start: AnyGame,
    /// Indexed by node number; `None` for removed nodes.
    nodes: Vec<Option<Node>>,
}

impl GameTree {
    /// The root: the start position.
    pub const ROOT: NodeId = 0;

    /// A tree holding only the start position.
    pub fn new(start: AnyGame) -> GameTree {
        GameTree {
            start,
            nodes: vec![Some(Node {
                parent: None,
                turn: None,
                children: Vec::new(),
                name: None,
            })],
        }
    }

    /// The tree of one line: the turns of `record`.
    pub fn from_record(record: &GameRecord) -> GameTree {
        let mut tree = GameTree::new(record.start().clone());
        let mut at = GameTree::ROOT;
        for &(seat, turn) in record.moves() {
            at = tree.push(at, seat, turn);
        }
        tree
    }

    /// The start position, at the root.
    pub fn start(&self) -> &AnyGame {
        &self.start
    }

    fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id).and_then(Option::as_ref)
    }

    /// Whether `id` is a node of the tree (not removed).
    pub fn contains(&self, id: NodeId) -> bool {
        self.node(id).is_some()
    }

    /// Nodes in the tree, the root included.
    pub fn len(&self) -> usize {
        self.nodes.iter().flatten().count()
    }

    /// Never true: the root is always there.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The node one turn above `id` (none for the root or a node not in
    /// the tree).
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.node(id).and_then(|n| n.parent)
    }

    /// The node's children, the main line's continuation first (none for a
    /// node not in the tree).
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        self.node(id).map_or(&[], |n| &n.children)
    }

    /// The seat and turn that led to the node (none at the root).
    pub fn turn(&self, id: NodeId) -> Option<(Colour, Turn)> {
        self.node(id).and_then(|n| n.turn)
    }

    /// The node's name (SGF's `N`), if it has one.
    pub fn name(&self, id: NodeId) -> Option<&str> {
        self.node(id).and_then(|n| n.name.as_deref())
    }

    /// Names the node (`None` or an empty name removes its name).
    pub fn set_name(&mut self, id: NodeId, name: Option<String>) {
        if let Some(Some(n)) = self.nodes.get_mut(id) {
            n.name = name.filter(|s| !s.is_empty());
        }
    }

    /// The nodes from the root to `id`, both included (empty when `id` is
    /// not in the tree).
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        if !self.contains(id) {
            return Vec::new();
        }
        let mut path = vec![id];
        let mut at = id;
        while let Some(p) = self.parent(at) {
            path.push(p);
            at = p;
        }
        path.reverse();
        path
    }

    /// Turns from the start to the node.
    pub fn depth(&self, id: NodeId) -> usize {
        self.path(id).len().saturating_sub(1)
    }

    /// `id` and the nodes that follow it by first children, to a leaf.
    pub fn line_from(&self, id: NodeId) -> Vec<NodeId> {
        let mut line = Vec::new();
        let mut at = Some(id).filter(|&id| self.contains(id));
        while let Some(id) = at {
            line.push(id);
            at = self.children(id).first().copied();
        }
        line
    }

    /// The main line: the root and first children to a leaf.
    pub fn main_line(&self) -> Vec<NodeId> {
        self.line_from(GameTree::ROOT)
    }

    /// Every node, each before its children, children in order: the order
    /// SGF writes them.
    pub fn preorder(&self) -> Vec<NodeId> {
        let mut order = Vec::new();
        let mut stack = vec![GameTree::ROOT];
        while let Some(id) = stack.pop() {
            order.push(id);
            stack.extend(self.children(id).iter().rev());
        }
        order
    }

    /// The ends of the variations in SGF order: the main line's first.
    pub fn leaves(&self) -> Vec<NodeId> {
        self.preorder()
            .into_iter()
            .filter(|&id| self.children(id).is_empty())
            .collect()
    }

    /// Nodes in the subtree of `id`, `id` included.
    pub fn subtree_len(&self, id: NodeId) -> usize {
        let mut count = 0;
        let mut stack = vec![id];
        while let Some(id) = stack.pop() {
            if self.contains(id) {
                count += 1;
                stack.extend(self.children(id));
            }
        }
        count
    }

    /// The game along the path from the root to `id`.
    pub fn record(&self, id: NodeId) -> GameRecord {
        let mut record = GameRecord::new(self.start.clone());
        for node in self.path(id) {
            if let Some((seat, turn)) = self.turn(node) {
                record
                    .play(seat, turn)
                    .expect("the tree's turns were checked when added");
            }
        }
        record
    }

    /// The child of `parent` reached by `seat` playing `turn`, if there is
    /// one.
    pub fn child_with(&self, parent: NodeId, seat: Colour, turn: Turn) -> Option<NodeId> {
        self.children(parent)
            .iter()
            .copied()
            .find(|&c| self.turn(c) == Some((seat, turn)))
    }

    /// Plays `turn` for `seat` after node `parent`: the child that already
    /// has that turn, or a new last child once the rules allow it (a seat
    /// that is not to move takes the turn, as in [`GameRecord::play`]).
    pub fn play(&mut self, parent: NodeId, seat: Colour, turn: Turn) -> Result<NodeId, PlayError> {
        if let Some(child) = self.child_with(parent, seat, turn) {
            return Ok(child);
        }
        if !self.contains(parent) {
            return Err(PlayError::Illegal("no such node"));
        }
        self.record(parent).play(seat, turn)?;
        Ok(self.push(parent, seat, turn))
    }

    /// Adds a child without checking the rules: for turns already checked.
    pub(crate) fn push(&mut self, parent: NodeId, seat: Colour, turn: Turn) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(Some(Node {
            parent: Some(parent),
            turn: Some((seat, turn)),
            children: Vec::new(),
            name: None,
        }));
        if let Some(Some(p)) = self.nodes.get_mut(parent) {
            p.children.push(id);
        }
        id
    }

    /// Removes `id` and everything after it; false for the root or a node
    /// not in the tree.
    pub fn remove(&mut self, id: NodeId) -> bool {
        let Some(parent) = self.parent(id) else {
            return false;
        };
        if let Some(Some(p)) = self.nodes.get_mut(parent) {
            p.children.retain(|&c| c != id);
        }
        let mut stack = vec![id];
        while let Some(id) = stack.pop() {
            if let Some(node) = self.nodes.get_mut(id).and_then(Option::take) {
                stack.extend(node.children);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameSpec, Rules};
    use crate::kind::GameKind;

    fn odd3() -> GameTree {
        let spec = GameSpec::new(GameKind::Odd, 3, Rules::default()).unwrap();
        GameTree::new(AnyGame::new(&spec))
    }

    fn turn(tree: &GameTree, at: NodeId, token: &str) -> (Colour, Turn) {
        let record = tree.record(at);
        let pos = record.position();
        (pos.to_move(), pos.parse_turn(token).unwrap())
    }

    fn play(tree: &mut GameTree, at: NodeId, token: &str) -> NodeId {
        let (seat, t) = turn(tree, at, token);
        tree.play(at, seat, t).unwrap()
    }

    #[test]
    fn variations_branch_and_are_removed_whole() {
        let mut tree = odd3();
        let a = play(&mut tree, GameTree::ROOT, "B:A1");
        let b = play(&mut tree, a, "W:B1");
        let c = play(&mut tree, b, "B:C1");
        // The same turn again is the same node; another is a variation.
        assert_eq!(play(&mut tree, a, "W:B1"), b);
        let v = play(&mut tree, a, "W:C3");
        let w = play(&mut tree, v, "B:B2");
        assert_eq!(tree.children(a), [b, v]);
        assert_eq!(tree.main_line(), [GameTree::ROOT, a, b, c]);
        assert_eq!(tree.leaves(), [c, w]);
        assert_eq!(tree.preorder(), [GameTree::ROOT, a, b, c, v, w]);
        assert_eq!(tree.path(w), [GameTree::ROOT, a, v, w]);
        assert_eq!((tree.depth(w), tree.record(w).moves().len()), (3, 3));
        // An illegal turn is refused and adds nothing.
        let (seat, t) = turn(&tree, w, "W:A2");
        let taken = turn(&tree, GameTree::ROOT, "W:A1").1;
        assert!(tree.play(w, seat.opposite(), taken).is_err());
        assert!(tree.play(w, seat, t).is_ok());
        assert_eq!(tree.subtree_len(v), 3);
        assert!(tree.remove(v));
        assert!(!tree.contains(w) && !tree.contains(v));
        assert_eq!(tree.children(a), [b]);
        assert_eq!(tree.len(), 4);
        assert!(!tree.remove(GameTree::ROOT));
        // Numbers are not used again.
        let x = play(&mut tree, a, "W:C3");
        assert!(x > w);
    }

    #[test]
    fn deep_lines_are_walked_without_recursion() {
        let spec = GameSpec::new(GameKind::Xodd, 3, Rules::default()).unwrap();
        let mut tree = GameTree::new(AnyGame::new(&spec));
        let mut at = GameTree::ROOT;
        // `push` skips the rules' checks: the walks are what is tested.
        for _ in 0..200_000 {
            at = tree.push(at, Colour::Black, Turn::Pass);
        }
        assert_eq!(tree.main_line().len(), 200_001);
        assert_eq!(tree.leaves(), [at]);
        assert_eq!(tree.subtree_len(GameTree::ROOT), 200_001);
        assert!(tree.remove(tree.children(GameTree::ROOT)[0]));
        assert_eq!(tree.len(), 1);
    }
}
