//! The game tree and the position viewed: every turn tried, the line
//! being played and the turn looked at, with the changes the rules check.
//!
//! The game is a tree of variations ([`GameTree`]); the *line* is the game
//! being played in it, from the start to the turn where play goes on. A
//! turn tried in a position looked back at starts a variation there (or
//! follows the one that already has that turn), and that variation becomes
//! the line; nothing is thrown away but what is deleted or taken back.

use oddity_rules::{
    AnyGame, Colour, GameRecord, GameTree, NodeId, Turn,
    internals::is_one_line,
    sgf::{self, RecordInfo},
};

use crate::error::{MAX_NAME, SessionError};

/// The game tree, the line played in it and the turn viewed.
pub(crate) struct Game {
    /// Every turn tried, with its variations.
    tree: GameTree,
    /// The game being played: the nodes of the tree from the root to the
    /// last turn (`line[k]` after k turns).
    line: Vec<NodeId>,
    /// The game along `line`.
    record: GameRecord,
    /// Turns shown on the board (the record's length unless reviewing).
    view: usize,
}

/// How a turn played in the position viewed went into the tree.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Played {
    /// It was the line's own next turn: the view stepped forward.
    Stepped,
    /// A variation had it already: that variation is now the line.
    Followed,
    /// It is new, added as this node at the end of the line.
    Added(NodeId),
}

impl Game {
    /// `tree` played along its main line, its last turn viewed.
    pub(crate) fn new(tree: GameTree) -> Game {
        let line = tree.main_line();
        let record = tree.record(*line.last().expect("the root"));
        Game {
            view: line.len() - 1,
            tree,
            line,
            record,
        }
    }

    /// Every turn tried.
    pub(crate) fn tree(&self) -> &GameTree {
        &self.tree
    }

    /// The nodes of the line, from the root.
    pub(crate) fn line(&self) -> &[NodeId] {
        &self.line
    }

    /// The game along the line.
    pub(crate) fn record(&self) -> &GameRecord {
        &self.record
    }

    /// The turn viewed: the position after that many turns of the line.
    pub(crate) fn view(&self) -> usize {
        self.view
    }

    /// Whether the last turn of the line is viewed.
    pub(crate) fn at_end(&self) -> bool {
        self.view == self.record.moves().len()
    }

    /// The node of the position viewed.
    pub(crate) fn viewed_node(&self) -> NodeId {
        self.line[self.view]
    }

    /// The position viewed.
    pub(crate) fn viewed_position(&self) -> AnyGame {
        if self.at_end() {
            self.record.position().clone()
        } else {
            self.record.position_after(self.view)
        }
    }

    /// Each turn of the line: who played it and its node.
    pub(crate) fn turns(&self) -> impl Iterator<Item = (Colour, NodeId)> + '_ {
        self.record
            .moves()
            .iter()
            .zip(&self.line[1..])
            .map(|((seat, _), &node)| (*seat, node))
    }

    /// The seat to move in the position viewed, unless the game is over
    /// there (or over at all, when its end is viewed).
    pub(crate) fn viewed_to_move(&self) -> Result<Colour, SessionError> {
        let pos = self.viewed_position();
        if pos.is_over() || (self.at_end() && self.record.is_over()) {
            return Err(SessionError::GameOver);
        }
        Ok(pos.to_move())
    }

    /// The seat to move at the end of the line, where a game that goes
    /// on may be resigned: refused while reviewing, or when it is over.
    pub(crate) fn resignable(&self) -> Result<Colour, SessionError> {
        if self.record.is_over() {
            return Err(SessionError::GameOver);
        }
        if !self.at_end() {
            return Err(SessionError::NotAtEnd {
                view: self.view,
                turns: self.record.moves().len(),
            });
        }
        Ok(self.record.position().to_move())
    }

    /// Shows the position after `turn` turns of the line.
    pub(crate) fn set_view(&mut self, turn: usize) -> Result<(), SessionError> {
        let turns = self.record.moves().len();
        if turn > turns {
            return Err(SessionError::NoSuchTurn { turn, turns });
        }
        self.view = turn;
        Ok(())
    }

    /// Shows the last turn of the line.
    pub(crate) fn view_end(&mut self) {
        self.view = self.line.len() - 1;
    }

    /// Plays `turn` for `seat` in the position viewed. At the end of the
    /// line it goes on with the game; earlier, the game's own next turn
    /// steps forward, and any other starts a variation there (or follows
    /// the one that has that turn already), which becomes the line.
    pub(crate) fn play(&mut self, seat: Colour, turn: Turn) -> Result<Played, SessionError> {
        let parent = self.viewed_node();
        let known = self.tree.child_with(parent, seat, turn);
        if known.is_some() && known == self.line.get(self.view + 1).copied() {
            self.view += 1;
            return Ok(Played::Stepped);
        }
        let topo = self.record.start().topology();
        let node = self
            .tree
            .play(parent, seat, turn)
            .map_err(|e| SessionError::Illegal(e.describe(topo)))?;
        let mut line = self.line[..=self.view].to_vec();
        line.push(node);
        self.set_line(line);
        self.view = self.line.len() - 1;
        Ok(match known {
            Some(_) => Played::Followed,
            None => Played::Added(node),
        })
    }

    /// Takes back the line's last turn, and the turns before it until
    /// `stop` holds for the seat to move (or the start is reached), then
    /// views the new end. The turns taken back are forgotten, unless a
    /// variation branches from them: then they stay in the tree.
    pub(crate) fn undo(&mut self, stop: impl Fn(Colour) -> bool) -> Result<(), SessionError> {
        let last = self.line.len() - 1;
        if last == 0 {
            return Err(SessionError::NothingToUndo);
        }
        let mut end = last;
        loop {
            end -= 1;
            if end == 0 || stop(self.record.position_after(end).to_move()) {
                break;
            }
        }
        let first_gone = self.line[end + 1];
        if self.tree.subtree_len(first_gone) == last - end {
            self.tree.remove(first_gone);
        }
        self.set_line(self.line[..=end].to_vec());
        self.view = end;
        Ok(())
    }

    /// Shows node `node` of the tree: the line becomes the variation
    /// through it, on to its end by first variations. Says whether the
    /// line changed.
    pub(crate) fn go_to(&mut self, node: NodeId) -> Result<bool, SessionError> {
        if !self.tree.contains(node) {
            return Err(SessionError::NoSuchNode(node));
        }
        let mut line = self.tree.path(node);
        self.view = line.len() - 1;
        line.extend(self.tree.line_from(node).into_iter().skip(1));
        let changed = line != self.line;
        if changed {
            self.set_line(line);
        }
        Ok(changed)
    }

    /// Plays on from the position viewed: the line ends there, and the
    /// turns after it stay in the tree as a variation. Says whether the
    /// line changed (not when its end was viewed).
    pub(crate) fn branch_here(&mut self) -> bool {
        if self.at_end() {
            return false;
        }
        self.set_line(self.line[..=self.view].to_vec());
        true
    }

    /// Names the variation that starts at `node` (an empty name removes
    /// it).
    pub(crate) fn name(&mut self, node: NodeId, name: &str) -> Result<(), SessionError> {
        if !self.tree.contains(node) {
            return Err(SessionError::NoSuchNode(node));
        }
        let name = name.trim();
        if name.chars().count() > MAX_NAME || !is_one_line(name) {
            return Err(SessionError::BadName);
        }
        self.tree.set_name(node, Some(name.to_string()));
        Ok(())
    }

    /// Deletes `node` and every turn after it. When the line ran through
    /// it, play goes on from the turn before it; says whether it did.
    pub(crate) fn delete(&mut self, node: NodeId) -> Result<bool, SessionError> {
        if node == GameTree::ROOT {
            return Err(SessionError::DeleteStart);
        }
        let parent = self
            .tree
            .parent(node)
            .ok_or(SessionError::NoSuchNode(node))?;
        self.tree.remove(node);
        let Some(k) = self.line.iter().position(|&n| n == node) else {
            return Ok(false);
        };
        self.set_line(self.tree.path(parent));
        self.view = self.view.min(k - 1);
        Ok(true)
    }

    /// The game as SGF, as `printsgf` writes it, with its variations and
    /// the names of its players, black first; the result is the main
    /// line's.
    pub(crate) fn sgf(&self, players: [String; 2]) -> String {
        let main = self.tree.main_line();
        let result = self
            .tree
            .record(*main.last().expect("the root"))
            .outcome()
            .map(|o| o.score());
        let [black, white] = players;
        let info = RecordInfo {
            black: Some(black),
            white: Some(white),
            result,
            ..Default::default()
        };
        sgf::write_tree(&self.tree, &info)
    }

    /// Plays on along `line` (nodes of the tree from the root).
    fn set_line(&mut self, line: Vec<NodeId>) {
        self.record = self.tree.record(*line.last().expect("the root"));
        self.line = line;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::{GameKind, GameSpec, Rules};

    /// Odd on the board of side 3, no turn played.
    fn odd3() -> Game {
        let spec = GameSpec::new(GameKind::Odd, 3, Rules::default()).unwrap();
        Game::new(GameTree::new(AnyGame::new(&spec)))
    }

    /// Plays `token` for the seat to move in the position viewed.
    fn play(g: &mut Game, token: &str) -> Played {
        let pos = g.viewed_position();
        let turn = pos.parse_turn(token).unwrap();
        g.play(pos.to_move(), turn).unwrap()
    }

    fn tokens(g: &Game) -> Vec<String> {
        let start = g.record().start();
        g.record()
            .moves()
            .iter()
            .map(|(_, t)| start.token(t))
            .collect()
    }

    /// The line's next turn steps forward; another starts a variation that
    /// becomes the line; the first turn again follows the main line back.
    #[test]
    fn a_turn_in_review_steps_branches_or_follows() {
        let mut g = odd3();
        for t in ["B:A1", "W:B1", "B:C1"] {
            assert!(matches!(play(&mut g, t), Played::Added(_)));
        }
        let main = g.line().to_vec();
        g.set_view(1).unwrap();
        assert_eq!(play(&mut g, "W:B1"), Played::Stepped);
        assert_eq!((g.view(), g.line()), (2, &main[..]));
        g.set_view(1).unwrap();
        let Played::Added(branch) = play(&mut g, "W:C3") else {
            panic!("a new turn is added")
        };
        assert_eq!(tokens(&g), ["B:A1", "W:C3"]);
        assert!(g.at_end() && g.viewed_node() == branch);
        g.set_view(1).unwrap();
        assert_eq!(play(&mut g, "W:B1"), Played::Followed);
        assert_eq!(tokens(&g), ["B:A1", "W:B1"]);
        assert_eq!(g.tree().len(), 5);
        assert!(g.set_view(3).is_err());
    }

    /// Undo stops where `stop` says, at the start at the latest, and
    /// forgets only turns no variation hangs from.
    #[test]
    fn undo_stops_where_asked_and_keeps_variations() {
        let mut g = odd3();
        assert_eq!(g.undo(|_| true), Err(SessionError::NothingToUndo));
        for t in ["B:A1", "W:B1", "B:C1", "W:B2"] {
            play(&mut g, t);
        }
        // Back to Black's turn: two turns go.
        g.undo(|seat| seat == Colour::Black).unwrap();
        assert_eq!((tokens(&g).len(), g.view(), g.tree().len()), (2, 2, 3));
        // A variation from the first turn keeps it in the tree.
        g.set_view(1).unwrap();
        play(&mut g, "W:C3");
        g.undo(|_| false).unwrap();
        assert_eq!((tokens(&g).len(), g.tree().len()), (0, 4));
        assert_eq!(g.undo(|_| true), Err(SessionError::NothingToUndo));
    }

    /// Deleting a node of the line goes on before it; the start cannot
    /// be deleted; going to a node follows first variations to the end.
    #[test]
    fn delete_and_go_to_nodes() {
        let mut g = odd3();
        for t in ["B:A1", "W:B1", "B:C1"] {
            play(&mut g, t);
        }
        let main = g.line().to_vec();
        g.set_view(1).unwrap();
        play(&mut g, "W:C3");
        let branch = g.viewed_node();
        assert_eq!(g.go_to(main[1]), Ok(true));
        assert_eq!((g.view(), g.line()), (1, &main[..]));
        assert_eq!(g.go_to(main[1]), Ok(false));
        assert_eq!(g.go_to(99), Err(SessionError::NoSuchNode(99)));
        // Not on the line: the line stays.
        assert_eq!(g.delete(branch), Ok(false));
        assert_eq!(g.line(), &main[..]);
        g.set_view(3).unwrap();
        assert_eq!(g.delete(main[2]), Ok(true));
        assert_eq!((tokens(&g), g.view()), (vec!["B:A1".to_string()], 1));
        assert_eq!(g.delete(GameTree::ROOT), Err(SessionError::DeleteStart));
        assert_eq!(g.delete(main[2]), Err(SessionError::NoSuchNode(main[2])));
    }

    /// Play from here cuts the line at the turn viewed and keeps the rest.
    #[test]
    fn branch_here_keeps_the_turns_after() {
        let mut g = odd3();
        for t in ["B:A1", "W:B1"] {
            play(&mut g, t);
        }
        assert!(!g.branch_here());
        g.set_view(1).unwrap();
        assert!(g.branch_here());
        assert_eq!((tokens(&g).len(), g.tree().len()), (1, 3));
    }

    /// A name is trimmed, one line, not too long, and written to SGF.
    #[test]
    fn variations_are_named_and_saved() {
        let mut g = odd3();
        play(&mut g, "B:A1");
        let node = g.viewed_node();
        g.name(node, "  first ").unwrap();
        assert_eq!(g.tree().name(node), Some("first"));
        assert_eq!(g.name(node, "a\nb"), Err(SessionError::BadName));
        assert_eq!(g.name(node, &"x".repeat(101)), Err(SessionError::BadName));
        assert_eq!(g.name(7, "x"), Err(SessionError::NoSuchNode(7)));
        let text = g.sgf(["ann".into(), "bob".into()]);
        assert!(
            text.contains("PB[ann]") && text.contains("PW[bob]"),
            "{text}"
        );
        assert!(text.contains("N[first]"), "{text}");
    }
}
