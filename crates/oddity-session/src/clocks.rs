//! The players' clocks: the seconds spent on each turn played, and the
//! clock of the turn being played, which runs only while the player to
//! move can play.

use std::collections::HashMap;

use web_time::Instant;

use oddity_rules::{Colour, NodeId};

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
}
