//! The players' clocks: the seconds spent on each turn played, and the
//! clock of the turn being played, which runs only while the player to
//! move can play; and the clocks as kept across a reload of the page.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use web_time::Instant;

use oddity_rules::{Colour, GameTree, NodeId};

/// The time of each turn, and of the turn being played.
#[derive(Default)]
pub(crate) struct Clocks {
    /// Seconds the player of the turn that led to each node spent on it.
    times: HashMap<NodeId, f64>,
    /// Seconds spent on the turn being played, before `since`.
    spent: f64,
    /// When the clock of the turn being played last started, while it runs.
    since: Option<Instant>,
}

impl Clocks {
    /// Starts (`on`) or stops the clock of the turn being played; one
    /// already so is left as it is.
    pub(crate) fn run(&mut self, on: bool) {
        match (self.since, on) {
            (Some(t), false) => {
                self.spent += t.elapsed().as_secs_f64();
                self.since = None;
            }
            (None, true) => self.since = Some(Instant::now()),
            _ => {}
        }
    }

    /// Whether the clock of the turn being played runs.
    pub(crate) fn running(&self) -> bool {
        self.since.is_some()
    }

    /// Seconds spent on the turn being played so far.
    pub(crate) fn spent_now(&self) -> f64 {
        self.spent + self.since.map_or(0.0, |t| t.elapsed().as_secs_f64())
    }

    /// The turn being played has just been added as `node`: its time is
    /// kept, and the next turn's clock starts from nothing, stopped.
    pub(crate) fn turn_done(&mut self, node: NodeId) {
        self.times.insert(node, self.spent_now());
        self.restart_turn();
    }

    /// The turn being played starts again from nothing, its clock stopped
    /// (another position is to be played).
    pub(crate) fn restart_turn(&mut self) {
        self.spent = 0.0;
        self.since = None;
    }

    /// Forgets every turn's time (a new game).
    pub(crate) fn clear(&mut self) {
        self.times.clear();
        self.restart_turn();
    }

    /// Keeps the times of the nodes `keep` holds for.
    pub(crate) fn retain(&mut self, keep: impl Fn(NodeId) -> bool) {
        self.times.retain(|node, _| keep(*node));
    }

    /// Sets the seconds spent on the turn being played, its clock running
    /// on from there if it runs.
    pub(crate) fn set_spent(&mut self, seconds: f64) {
        self.spent = seconds;
        if self.since.is_some() {
            self.since = Some(Instant::now());
        }
    }

    /// Sets the seconds the turn that led to `node` took.
    pub(crate) fn set_time(&mut self, node: NodeId, seconds: f64) {
        self.times.insert(node, seconds);
    }

    /// The clocks as they stand, for `tree`, to be set again by
    /// [`Clocks::restore`] on the same tree read back from its SGF.
    pub(crate) fn keep(&self, tree: &GameTree) -> KeptClocks {
        let mut turns: Vec<(Vec<usize>, f64)> = self
            .times
            .iter()
            .filter_map(|(&node, &seconds)| Some((places(tree, node)?, seconds)))
            .collect();
        turns.sort_by(|a, b| a.0.cmp(&b.0));
        KeptClocks {
            turns,
            playing: self.spent_now(),
        }
    }

    /// Sets the times `kept` gives to the turns `tree` has at their places
    /// (a place the tree lacks, or a time that is not a number of seconds,
    /// is passed over), and the time of the turn being played.
    pub(crate) fn restore(&mut self, tree: &GameTree, kept: &KeptClocks) {
        let seconds = |s: f64| (s.is_finite() && s >= 0.0).then_some(s);
        for (places, time) in &kept.turns {
            if let (Some(node), Some(time)) = (node_at(tree, places), seconds(*time)) {
                self.set_time(node, time);
            }
        }
        if let Some(playing) = seconds(kept.playing) {
            self.set_spent(playing);
        }
    }

    /// Seconds each seat used, black first: over `turns` (who played each,
    /// and its node), and on the turn being played by `to_move`, if any.
    pub(crate) fn used(
        &self,
        turns: impl Iterator<Item = (Colour, NodeId)>,
        to_move: Option<Colour>,
    ) -> [f64; 2] {
        let mut used = [0.0; 2];
        for (seat, node) in turns {
            used[seat.index()] += self.times.get(&node).copied().unwrap_or(0.0);
        }
        if let Some(seat) = to_move {
            used[seat.index()] += self.spent_now();
        }
        used
    }
}

/// The clocks of a game as kept across a reload of the page: the time of
/// each turn, by its place in the tree, and the time spent on the turn
/// being played. Places are the same in the tree read back from the
/// game's SGF (node numbers need not be).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KeptClocks {
    /// Seconds of each turn, by its place: the index among its siblings
    /// of each node from the first turn down to it.
    turns: Vec<(Vec<usize>, f64)>,
    /// Seconds spent on the turn being played.
    playing: f64,
}

/// The place of `node` in `tree`: its index among its siblings, and its
/// ancestors', from the first turn down (none for the root).
fn places(tree: &GameTree, node: NodeId) -> Option<Vec<usize>> {
    let path = tree.path(node);
    if path.len() < 2 {
        return None;
    }
    path.windows(2)
        .map(|w| tree.children(w[0]).iter().position(|&c| c == w[1]))
        .collect()
}

/// The node at `places` in `tree`, if it has one there.
fn node_at(tree: &GameTree, places: &[usize]) -> Option<NodeId> {
    let mut at = GameTree::ROOT;
    for &i in places {
        at = *tree.children(at).get(i)?;
    }
    (at != GameTree::ROOT).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Waits until the running clock has counted some time.
    fn wait_for_time(c: &Clocks) {
        while c.spent_now() == 0.0 {
            std::thread::yield_now();
        }
    }

    /// A stopped clock counts nothing, however long it waits; a running
    /// one counts on from what it had.
    #[test]
    fn a_stopped_clock_does_not_run() {
        let mut c = Clocks::default();
        c.run(false);
        assert!(!c.running());
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert_eq!(c.spent_now(), 0.0);
        c.run(true);
        assert!(c.running());
        wait_for_time(&c);
        c.run(false);
        let spent = c.spent_now();
        assert!(spent > 0.0);
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert_eq!(c.spent_now(), spent);
        c.run(true);
        assert!(c.spent_now() >= spent);
    }

    /// A turn's time goes to its node and its seat; the next turn starts
    /// from nothing; times of nodes gone are dropped.
    #[test]
    fn turns_keep_their_time_per_seat() {
        let mut c = Clocks::default();
        c.run(true);
        wait_for_time(&c);
        c.turn_done(1);
        assert!(!c.running());
        assert_eq!(c.spent_now(), 0.0);
        c.run(true);
        wait_for_time(&c);
        c.turn_done(2);
        let turns = || [(Colour::Black, 1), (Colour::White, 2)].into_iter();
        let used = c.used(turns(), None);
        assert!(used[0] > 0.0 && used[1] > 0.0, "{used:?}");
        c.retain(|node| node != 2);
        assert_eq!(c.used(turns(), Some(Colour::White)), [used[0], 0.0]);
        c.clear();
        assert_eq!(c.used(turns(), Some(Colour::Black)), [0.0, 0.0]);
    }

    /// The clocks kept from one tree are set again, turn by turn, on the
    /// same tree with other node numbers; the turn being played keeps its
    /// time and runs on from it when its clock runs.
    #[test]
    fn clocks_kept_are_restored_by_place() {
        use oddity_rules::{AnyGame, GameKind, GameSpec};

        let start = AnyGame::new(&GameSpec::default_for(GameKind::Odd));
        let play = |tree: &mut GameTree, parent, seat, token: &str| {
            let turn = tree.start().parse_turn(token).unwrap();
            tree.play(parent, seat, turn).unwrap()
        };
        let mut tree = GameTree::new(start.clone());
        let a1 = play(&mut tree, GameTree::ROOT, Colour::Black, "B:A1");
        let b1 = play(&mut tree, GameTree::ROOT, Colour::Black, "B:B1");
        let c1 = play(&mut tree, b1, Colour::White, "W:C1");
        let nodes = [a1, b1];
        let deeper = c1;
        let mut c = Clocks::default();
        c.set_time(nodes[0], 1.5);
        c.set_time(nodes[1], 2.0);
        c.set_time(deeper, 3.0);
        c.set_spent(4.0);
        let kept = c.keep(&tree);
        assert_eq!(kept.playing, 4.0);
        assert_eq!(
            kept.turns,
            [(vec![0], 1.5), (vec![1], 2.0), (vec![1, 0], 3.0)]
        );
        let text = serde_json::to_string(&kept).unwrap();
        let kept: KeptClocks = serde_json::from_str(&text).unwrap();

        // The same tree, its nodes numbered otherwise.
        let mut other = GameTree::new(start);
        let gone = play(&mut other, GameTree::ROOT, Colour::Black, "B:D1");
        other.remove(gone);
        let a1 = play(&mut other, GameTree::ROOT, Colour::Black, "B:A1");
        let b1 = play(&mut other, GameTree::ROOT, Colour::Black, "B:B1");
        let c1 = play(&mut other, b1, Colour::White, "W:C1");
        assert_ne!(c1, deeper);
        let mut d = Clocks::default();
        d.run(true);
        d.restore(&other, &kept);
        let turns = || [(Colour::Black, b1), (Colour::White, c1)].into_iter();
        let used = d.used(turns(), Some(Colour::Black));
        assert_eq!(used[1], 3.0);
        assert!(used[0] >= 2.0 + 4.0, "{used:?}");
        assert!(d.running());
        assert_eq!(d.used([(Colour::Black, a1)].into_iter(), None), [1.5, 0.0]);

        // Places the tree lacks and times that are no times are passed over.
        let bad: KeptClocks =
            serde_json::from_str(r#"{"turns":[[[5],1.0],[[0],-1.0],[[],2.0]],"playing":-3.0}"#)
                .unwrap();
        let mut e = Clocks::default();
        e.restore(&other, &bad);
        assert_eq!(e.keep(&other), KeptClocks::default());
    }
}
