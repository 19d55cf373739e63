//! Depth-first proof-number search (df-pn) over the actions of one game.
//!
//! Every node has a proof number (how many leaves at least must still be
//! proven to show that the attacker wins) and a disproof number (the same
//! for showing that it does not). At a node where the attacker moves (an OR
//! node) the proof number is the least of its children's and the disproof
//! number their sum; where the defender moves (an AND node) the other way
//! round. The search descends into the child with the least of the numbers
//! the node minimises, with thresholds that bring it back once that child
//! stops being the most promising (the "1 + epsilon" variant: a child is
//! followed until its number exceeds the second-best one by a quarter,
//! which saves most of the re-expansions of plain df-pn). Results live in
//! the shared [`Table`]; the recursion keeps only the children of the path.
//!
//! Who moves is read from the position, never from the depth: the two
//! stones of an Xodd or Yodd turn are two actions by the same seat.
//!
//! # Repetitions (Onyx)
//! Captures let Onyx positions repeat, and the rules have no repetition
//! rule, so an endless game is won by nobody. A child that repeats a
//! position of the current path counts as a disproof (the attacker does not
//! win by going round). Such disproofs hold only for the path they were
//! found on: they are marked path-dependent and are not taken from the table
//! by other paths. Proofs never rest on a disproof, so every proof is
//! independent of the path.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::keys::{Hashes, Keys};
use crate::order::Ordering as MoveOrdering;
use crate::table::{Entry, NUMBER_MAX, Table};
use oddity_rules::{Action, Colour, Game, Rng};

/// An infinite proof or disproof number (the largest the table holds).
pub const INF: u32 = NUMBER_MAX;
/// The largest finite number: sums saturate here.
const FINITE_MAX: u32 = INF - 1;

/// Proof and disproof numbers of a node, for the search's attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbers {
    /// The proof number: how many more leaves at least must be proven to prove
    /// the attacker's win (0: proven).
    pub pn: u32,
    /// The disproof number: the same for disproving it (0: disproven).
    pub dn: u32,
}

impl Numbers {
    /// A proven win for the attacker.
    pub const PROVEN: Numbers = Numbers { pn: 0, dn: INF };
    /// A proven failure of the attacker's win.
    pub const DISPROVEN: Numbers = Numbers { pn: INF, dn: 0 };
    const FRESH: Numbers = Numbers { pn: 1, dn: 1 };

    /// Whether the node is proven or disproven.
    pub fn is_solved(self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// What a search of a node returned.
#[derive(Clone, Copy, Debug)]
struct Found {
    numbers: Numbers,
    /// A disproof that rests on a repetition of the current path.
    path_dependent: bool,
}

/// A node that [`Dfpn::mid`] searches: its position, hashes and key, the
/// work its table entry records, and its depth on the current path.
struct Node<'a, G> {
    game: &'a G,
    h: &'a Hashes,
    key: u64,
    old_work: u64,
    depth: usize,
}

/// A child of a node on the current path.
struct Child {
    action: Action,
    key: u64,
    /// Known without search: the game ended, or the child repeats the path.
    fixed: Option<Found>,
    /// What the last search of this child returned in this visit of the
    /// parent.
    last: Option<Found>,
    /// Its numbers and work as last summarised.
    now: Found,
    work: u64,
    /// `now` and `work` are up to date.
    known: bool,
}

/// Settings of one df-pn search.
#[derive(Clone, Copy, Debug)]
pub struct DfpnConfig {
    /// Order children by the game knowledge of the `order` module.
    pub ordering: bool,
    /// Positions can repeat (Onyx): check the path for repetitions.
    pub cyclic: bool,
    /// Random games played from a new child for its first numbers (0: none).
    pub playouts: u32,
    /// The largest first number the playouts give.
    pub playout_scale: f64,
    /// A child is searched until its number exceeds the second-best
    /// child's by this factor (the "1 + epsilon" rule).
    pub epsilon: u32,
    /// Other threads search the same table: mark the positions being
    /// searched, steer round the ones others are in, and read siblings
    /// again at every step.
    pub parallel: bool,
}

/// One thread's df-pn search for one attacker.
pub struct Dfpn<'a, G: Game> {
    table: &'a Table,
    keys: &'a Keys,
    attacker: Colour,
    stop: &'a AtomicBool,
    /// Expansions of all threads, added in batches.
    shared_nodes: &'a AtomicU64,
    config: DfpnConfig,
    order: MoveOrdering,
    /// Expansions of this search not yet added to `shared_nodes`.
    unflushed: u64,
    /// Called at every flush: where no other thread watches the limits,
    /// it checks them and sets the stop flag.
    watch: Option<&'a dyn Fn()>,
    /// Expansions of this search.
    pub nodes: u64,
    /// Keys of the positions on the current path (cyclic games only).
    path: Vec<u64>,
    /// Child lists, one per depth, kept for reuse.
    frames: Vec<Vec<Child>>,
    actions: Vec<Action>,
    rng: Rng,
    _game: std::marker::PhantomData<G>,
}

const FLUSH_EVERY: u64 = 1024;

impl<'a, G: Game> Dfpn<'a, G> {
    /// A search for `attacker`'s win that shares `table`, with the position
    /// keys of `keys`.
    pub fn new(
        table: &'a Table,
        keys: &'a Keys,
        attacker: Colour,
        stop: &'a AtomicBool,
        shared_nodes: &'a AtomicU64,
        config: DfpnConfig,
    ) -> Self {
        Dfpn {
            table,
            keys,
            attacker,
            stop,
            shared_nodes,
            config,
            order: MoveOrdering::default(),
            unflushed: 0,
            watch: None,
            nodes: 0,
            path: Vec::new(),
            frames: Vec::new(),
            actions: Vec::new(),
            rng: Rng::seeded(0x5EED_0DD5 ^ u64::from(attacker == Colour::White)),
            _game: std::marker::PhantomData,
        }
    }

    /// Has `watch` called at every flush of the node count (see
    /// [`Dfpn::new`]'s `shared_nodes`), for a search that no other thread
    /// watches.
    pub fn watch(&mut self, watch: &'a dyn Fn()) {
        self.watch = Some(watch);
    }

    /// The side whose win is searched.
    pub fn attacker(&self) -> Colour {
        self.attacker
    }

    /// The key of `game` for this search's attacker.
    pub fn key_of(&self, game: &G, h: &Hashes) -> u64 {
        self.keys.key(game, h, self.attacker)
    }

    /// Positions (by key) that the search treats as repetitions of its
    /// path, in games that can repeat: a proof found then avoids them.
    pub fn avoid(&mut self, keys: &[u64]) {
        self.path.extend_from_slice(keys);
    }

    /// Searches `game` until it is proven or disproven, or the stop flag is
    /// set; returns its numbers.
    pub fn solve(&mut self, game: &G) -> Numbers {
        let h = self.keys.hashes(game);
        let key = self.key_of(game, &h);
        let old_work = self.table.get(key).map_or(0, |e| e.work);
        let root = Node {
            game,
            h: &h,
            key,
            old_work,
            depth: 0,
        };
        let found = self.mid(root, Numbers { pn: INF, dn: INF });
        self.flush();
        found.numbers
    }

    fn flush(&mut self) {
        self.shared_nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
        if let Some(watch) = self.watch {
            watch();
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The numbers of a finished game, or `None` while it goes on.
    fn terminal(&self, game: &G) -> Option<Numbers> {
        game.winner().map(|w| {
            if w == self.attacker {
                Numbers::PROVEN
            } else {
                Numbers::DISPROVEN
            }
        })
    }

    /// The numbers of a child never searched: with playout estimates on,
    /// a few random games from it, so that a child whose games the attacker
    /// mostly wins starts with a small proof number and a large disproof
    /// number; else one and one.
    fn first_numbers(&mut self, game: &G, action: Action) -> Numbers {
        let n = self.config.playouts;
        if n == 0 {
            return Numbers::FRESH;
        }
        let mut wins = 0;
        for _ in 0..n {
            let mut g = game.clone();
            g.apply(action);
            if g.playout(&mut self.rng) == self.attacker {
                wins += 1;
            }
        }
        let scale = self.config.playout_scale;
        let p = (f64::from(wins) + 0.5) / (f64::from(n) + 1.0);
        Numbers {
            pn: 1 + (scale * (1.0 - p)) as u32,
            dn: 1 + (scale * p) as u32,
        }
    }

    /// The numbers the table holds for `key`, if any that apply here.
    fn lookup(&self, key: u64) -> Option<(Numbers, u64)> {
        self.table
            .get(key)
            .and_then(|e| (!e.path_dependent).then_some((Numbers { pn: e.pn, dn: e.dn }, e.work)))
    }

    /// Lists the children of `game` into `kids`.
    fn expand(&mut self, game: &G, h: &Hashes, kids: &mut Vec<Child>) {
        kids.clear();
        let mut actions = std::mem::take(&mut self.actions);
        actions.clear();
        game.legal_actions(&mut actions);
        if self.config.ordering {
            self.order.sort(game, &mut actions);
        }
        // Children of a symmetric position come in images of each other:
        // one of each is enough.
        let symmetric = self.keys.is_symmetric(game, h);
        for &action in &actions {
            let mut child = game.clone();
            child.apply(action);
            let ch = self.keys.after(h, action, &child);
            let key = self.key_of(&child, &ch);
            if symmetric && kids.iter().any(|k| k.key == key) {
                continue;
            }
            self.table.prefetch(key);
            let fixed = match self.terminal(&child) {
                Some(numbers) => Some(Found {
                    numbers,
                    path_dependent: false,
                }),
                None if self.config.cyclic && self.path.contains(&key) => Some(Found {
                    numbers: Numbers::DISPROVEN,
                    path_dependent: true,
                }),
                None => None,
            };
            kids.push(Child {
                action,
                key,
                fixed,
                last: None,
                now: Found {
                    numbers: Numbers::FRESH,
                    path_dependent: false,
                },
                work: 0,
                known: false,
            });
        }
        self.actions = actions;
    }

    /// The multiple-iterative-deepening step of df-pn: searches `at` until
    /// its proof number reaches `limits.pn` or its disproof number
    /// `limits.dn`.
    fn mid(&mut self, at: Node<'_, G>, limits: Numbers) -> Found {
        let start = self.nodes;
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= FLUSH_EVERY {
            self.flush();
        }
        if let Some(numbers) = self.terminal(at.game) {
            return Found {
                numbers,
                path_dependent: false,
            };
        }
        if self.config.parallel {
            self.table.enter(at.key);
        }
        let key = at.key;
        let found = self.mid_expanded(at, limits, start);
        if self.config.parallel {
            self.table.leave(key);
        }
        found
    }

    /// [`Self::mid`] past its start: expands the node and searches its
    /// children.
    fn mid_expanded(&mut self, at: Node<'_, G>, limits: Numbers, start: u64) -> Found {
        let Node {
            game,
            h,
            key,
            old_work,
            depth,
        } = at;
        let Numbers { pn: thpn, dn: thdn } = limits;
        if self.frames.len() <= depth {
            self.frames.resize_with(depth + 1, Vec::new);
        }
        let mut kids = std::mem::take(&mut self.frames[depth]);
        if self.config.cyclic {
            self.path.push(key);
        }
        self.expand(game, h, &mut kids);
        let or = game.to_move() == self.attacker;
        if kids.is_empty() {
            // No legal move in a game that goes on: nobody wins.
            if self.config.cyclic {
                self.path.pop();
            }
            let found = Found {
                numbers: Numbers::DISPROVEN,
                path_dependent: false,
            };
            self.store(key, found, old_work, start);
            self.frames[depth] = kids;
            return found;
        }
        let found = loop {
            let s = self.summarise(game, &mut kids, or);
            if s.found.numbers.pn >= thpn || s.found.numbers.dn >= thdn || self.stopped() {
                break s.found;
            }
            // Thresholds in terms of the number this node minimises (phi)
            // and the one it sums (delta).
            let (th_phi, th_delta) = if or { (thpn, thdn) } else { (thdn, thpn) };
            // Another thread's child is left to it while another child is
            // within the threshold.
            let (best, second, best_delta) = if s.pick != s.best && s.pick_phi < th_phi {
                (s.pick, s.pick_second, s.pick_delta)
            } else {
                (s.best, s.second_phi, s.best_delta)
            };
            let child_phi = th_phi
                .min(second.saturating_add(second.saturating_mul(self.config.epsilon).max(1)));
            let child_delta = if th_delta == INF {
                INF
            } else {
                (u64::from(th_delta) - (s.delta_sum - u64::from(best_delta))) as u32
            };
            let (cpn, cdn) = if or {
                (child_phi, child_delta)
            } else {
                (child_delta, child_phi)
            };
            let c = &kids[best];
            let (action, child_key) = (c.action, c.key);
            let mut child = game.clone();
            child.apply(action);
            let ch = self.keys.after(h, action, &child);
            let old_work = kids[best].work;
            let before = self.nodes;
            let below = Node {
                game: &child,
                h: &ch,
                key: child_key,
                old_work,
                depth: depth + 1,
            };
            let result = self.mid(below, Numbers { pn: cpn, dn: cdn });
            let c = &mut kids[best];
            c.last = Some(result);
            c.now = result;
            c.work += self.nodes - before;
            // In Onyx a search can reach a sibling's position: look again.
            c.known = !self.config.cyclic || result.path_dependent;
            if self.config.parallel {
                // Other threads change the siblings: read them all again.
                for k in kids.iter_mut() {
                    k.known = k.known && k.now.path_dependent;
                }
            }
        };
        if self.config.cyclic {
            self.path.pop();
        }
        self.store(key, found, old_work, start);
        self.frames[depth] = kids;
        found
    }

    fn store(&self, key: u64, found: Found, old_work: u64, start: u64) {
        self.table.put(
            key,
            Entry {
                pn: found.numbers.pn,
                dn: found.numbers.dn,
                work: old_work + (self.nodes - start),
                path_dependent: found.path_dependent,
            },
        );
    }

    /// The numbers of a node from its children's; notes each child's
    /// current numbers and work in it.
    fn summarise(&mut self, game: &G, kids: &mut [Child], or: bool) -> Summary {
        let mut best = 0;
        let mut best_phi = INF;
        let mut best_delta = 0;
        let mut second_phi = INF;
        let mut delta_sum: u64 = 0;
        let mut delta_inf = false;
        // Path dependence of a disproof: an OR node's needs every child's,
        // an AND node's only that of its best disproven child.
        let mut any_dependent = false;
        let mut independent_zero = false;
        let (mut pick, mut pick_steer, mut pick_second, mut pick_phi, mut pick_delta) =
            (0, INF, INF, INF, 0);
        for (i, c) in kids.iter_mut().enumerate() {
            if !c.known {
                // First look at this child in this visit of the node; from
                // then on only the child searched last changes (stones are
                // never taken back outside Onyx, so no sibling lies below
                // another, and other threads' findings are read at the
                // next visit).
                let (found, work) = match (c.fixed, c.last) {
                    (Some(f), _) => (f, 0),
                    (None, Some(f)) if f.path_dependent => (f, 0),
                    (None, last) => match self.lookup(c.key) {
                        Some((numbers, work)) => (
                            Found {
                                numbers,
                                path_dependent: false,
                            },
                            work.max(c.work),
                        ),
                        None => (
                            last.unwrap_or_else(|| Found {
                                numbers: self.first_numbers(game, c.action),
                                path_dependent: false,
                            }),
                            c.work,
                        ),
                    },
                };
                c.now = found;
                c.work = work;
                c.known = true;
            }
            let found = c.now;
            let n = found.numbers;
            let (phi, delta) = if or { (n.pn, n.dn) } else { (n.dn, n.pn) };
            if self.config.parallel {
                // A child other threads are in looks twice as hard per
                // thread.
                let busy = self.table.busy(c.key);
                let steer = if phi == 0 || phi >= INF {
                    phi
                } else {
                    phi.saturating_add(busy.saturating_mul(phi.saturating_add(1)))
                        .min(FINITE_MAX)
                };
                if steer < pick_steer {
                    pick_second = pick_steer;
                    pick_steer = steer;
                    pick = i;
                    pick_phi = phi;
                    pick_delta = delta;
                } else if steer < pick_second {
                    pick_second = steer;
                }
            }
            if phi < best_phi {
                second_phi = best_phi;
                best_phi = phi;
                best = i;
                best_delta = delta;
            } else if phi < second_phi {
                second_phi = phi;
            }
            if delta == INF {
                delta_inf = true;
            } else {
                delta_sum += u64::from(delta);
            }
            if n.dn == 0 {
                if found.path_dependent {
                    any_dependent = true;
                } else {
                    independent_zero = true;
                }
            }
        }
        let delta = if delta_inf {
            INF
        } else {
            delta_sum.min(u64::from(FINITE_MAX)) as u32
        };
        let numbers = if or {
            Numbers {
                pn: best_phi,
                dn: delta,
            }
        } else {
            Numbers {
                pn: delta,
                dn: best_phi,
            }
        };
        let path_dependent = numbers.dn == 0 && if or { any_dependent } else { !independent_zero };
        Summary {
            found: Found {
                numbers,
                path_dependent,
            },
            best,
            best_delta: if best_delta == INF { 0 } else { best_delta },
            second_phi,
            delta_sum,
            pick: if self.config.parallel { pick } else { best },
            pick_phi,
            pick_second,
            pick_delta: if pick_delta == INF { 0 } else { pick_delta },
        }
    }
}

struct Summary {
    found: Found,
    /// The child to search next.
    best: usize,
    best_delta: u32,
    second_phi: u32,
    /// The finite deltas' sum.
    delta_sum: u64,
    /// With other threads: the child to search when other threads' children
    /// count as harder, its numbers, and the second-best such number.
    pick: usize,
    pick_phi: u32,
    pick_second: u32,
    pick_delta: u32,
}
