//! What a thread's playouts ended with, counted when a report asks for
//! final boards.

use oddity_rules::{Cell, Colour, Game};

/// What a thread's playouts ended with (see [`crate::report::FinalBoards`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    pub(crate) playouts: u64,
    /// Indexed by cell index: final boards with a black, a white stone there.
    pub(crate) stones: Vec<[u64; 2]>,
    /// Sum of Black's leads in groups (White's groups minus Black's).
    pub(crate) lead: i64,
    /// The same and the playouts, per root child (in child order).
    pub(crate) child_leads: Vec<(i64, u64)>,
    /// Odd, indexed by cell index: final boards with that cell in a group
    /// that counts.
    pub(crate) counted: Vec<u64>,
    /// Count `stones` per root child too, in `child_stones`.
    pub(crate) per_child: bool,
    pub(crate) child_stones: Vec<Vec<[u64; 2]>>,
    /// The current iteration's lead and playouts, not yet given to a child.
    pub(crate) iteration: (i64, u64),
    /// Odd: cells already in a group and a group being gathered.
    pub(crate) seen: Vec<bool>,
    pub(crate) group: Vec<Cell>,
}

/// Adds one per stone of `end` to `stones` (indexed by cell index, black
/// and white).
fn count_stones<G: Game>(stones: &mut Vec<[u64; 2]>, end: &G) {
    for c in Colour::BOTH {
        for (k, &word) in end.stone_words(c).iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = k * 64 + bits.trailing_zeros() as usize;
                if i >= stones.len() {
                    stones.resize(i + 1, [0; 2]);
                }
                stones[i][c.index()] += 1;
                bits &= bits - 1;
            }
        }
    }
}

/// Adds the stone counts `theirs` to `mine`.
fn add_counts(mine: &mut Vec<[u64; 2]>, theirs: &[[u64; 2]]) {
    if mine.len() < theirs.len() {
        mine.resize(theirs.len(), [0; 2]);
    }
    for (m, t) in mine.iter_mut().zip(theirs) {
        m[0] += t[0];
        m[1] += t[1];
    }
}

impl Tally {
    /// Counts per root child too when `per_child`.
    pub(crate) fn new(per_child: bool) -> Tally {
        Tally {
            per_child,
            ..Tally::default()
        }
    }

    /// Counts the final board `end` of a playout below root child `child`.
    pub(crate) fn record<G: Game>(&mut self, end: &G, child: Option<usize>) {
        self.playouts += 1;
        count_stones(&mut self.stones, end);
        if let Some(k) = child.filter(|_| self.per_child) {
            if self.child_stones.len() <= k {
                self.child_stones.resize(k + 1, Vec::new());
            }
            count_stones(&mut self.child_stones[k], end);
        }
        if end.spec().kind.has_min_group() {
            self.count_groups(end);
        }
        let [b, w] = end.group_counts();
        let lead = i64::from(w) - i64::from(b);
        self.lead += lead;
        self.iteration.0 += lead;
        self.iteration.1 += 1;
    }

    /// Adds one to every cell of `end` in a group of at least the minimum
    /// size (a flood fill: only when ownership is asked for).
    fn count_groups<G: Game>(&mut self, end: &G) {
        let topo = end.topology();
        let min = end.spec().min_group();
        let size = topo
            .cells()
            .iter()
            .map(|c| c.index() + 1)
            .max()
            .unwrap_or(0);
        self.seen.clear();
        self.seen.resize(size, false);
        if self.counted.len() < size {
            self.counted.resize(size, 0);
        }
        for &start in topo.cells() {
            let Some(colour) = end.stone_at(start) else {
                continue;
            };
            if self.seen[start.index()] {
                continue;
            }
            self.seen[start.index()] = true;
            self.group.clear();
            self.group.push(start);
            let mut next = 0;
            while next < self.group.len() {
                let c = self.group[next];
                next += 1;
                for &n in topo.neighbours(c) {
                    if !self.seen[n.index()] && end.stone_at(n) == Some(colour) {
                        self.seen[n.index()] = true;
                        self.group.push(n);
                    }
                }
            }
            if self.group.len() >= min {
                for c in &self.group {
                    self.counted[c.index()] += 1;
                }
            }
        }
    }

    /// Gives the iteration's playouts to root child `k`.
    pub(crate) fn end_iteration(&mut self, k: Option<usize>) {
        let (lead, n) = std::mem::take(&mut self.iteration);
        if let Some(k) = k.filter(|_| n > 0) {
            if self.child_leads.len() <= k {
                self.child_leads.resize(k + 1, (0, 0));
            }
            self.child_leads[k].0 += lead;
            self.child_leads[k].1 += n;
        }
    }

    /// Adds another thread's counts.
    pub(crate) fn add(&mut self, other: &Tally) {
        self.playouts += other.playouts;
        self.lead += other.lead;
        add_counts(&mut self.stones, &other.stones);
        if self.child_leads.len() < other.child_leads.len() {
            self.child_leads.resize(other.child_leads.len(), (0, 0));
        }
        for (mine, theirs) in self.child_leads.iter_mut().zip(&other.child_leads) {
            mine.0 += theirs.0;
            mine.1 += theirs.1;
        }
        if self.counted.len() < other.counted.len() {
            self.counted.resize(other.counted.len(), 0);
        }
        for (mine, theirs) in self.counted.iter_mut().zip(&other.counted) {
            *mine += theirs;
        }
        if self.child_stones.len() < other.child_stones.len() {
            self.child_stones
                .resize(other.child_stones.len(), Vec::new());
        }
        for (mine, theirs) in self.child_stones.iter_mut().zip(&other.child_stones) {
            add_counts(mine, theirs);
        }
    }
}
