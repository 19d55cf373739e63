//! Position keys for the transposition table: Zobrist hashes that are the
//! same for every image of a position under the game's symmetries.
//!
//! A symmetry is a permutation of the cells, possibly with the stone
//! colours exchanged and possibly with the seats exchanged:
//! - Xodd, Yodd: every board symmetry, alone or with both colours and seats
//!   exchanged (the game is the same with the players' roles swapped);
//! - Odd: every board symmetry, alone or with the colours exchanged (the
//!   count of groups ignores colour; the seats keep their goals);
//! - Onyx: the identity and the 180 degree turn (on even sizes) as they are,
//!   and the transpose and the anti-transpose with colours and seats
//!   exchanged (they exchange Black's goal with White's).
//!
//! The hash of a position under one symmetry is kept per symmetry and
//! updated by one XOR per symmetry when a stone is added; its key is the
//! least of those hashes. While a position remembers a point (the first
//! stone of a turn in progress, a stone White may swap), only the identity
//! applies.

use oddity_rules::{Action, Colour, Game, GameKind, Topology, TurnState};

/// The most symmetries any board has: 12 of the hex-hex board, each alone
/// or with the colours exchanged.
pub const MAX_SYMMETRIES: usize = 24;

/// One symmetry: where each cell's stone goes, and its key material.
struct Symmetry {
    /// Per cell index and stone colour: the Zobrist number of the image.
    stone: Vec<[u64; 2]>,
    /// Whether the seats are exchanged (the side to move's image is the
    /// other seat).
    seats: bool,
}

/// The Zobrist tables of one board and game.
pub struct Keys {
    symmetries: Vec<Symmetry>,
    /// Per seat to move.
    side: [u64; 2],
    flags: [u64; 8],
    anchor: Vec<u64>,
    /// Set when the side to move is the attacker of the search.
    attacker: u64,
}

/// The hashes of one position under every symmetry, kept up to date as
/// stones are added.
#[derive(Clone, Copy)]
pub struct Hashes {
    per_symmetry: [u64; MAX_SYMMETRIES],
    stones: u32,
}

/// A fixed sequence of well-mixed numbers (splitmix64), so that keys are the
/// same in every run and every process.
struct Mixer(u64);

impl Mixer {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Keys {
    /// The keys of `kind` on `topo`; with `symmetric` false only the
    /// identity is used (an ablation switch).
    pub fn new(kind: GameKind, topo: &Topology, symmetric: bool) -> Keys {
        let mut mix = Mixer(0x0DD1_7E55_5017_0E12);
        let bits = topo.bits;
        let base: Vec<[u64; 2]> = (0..bits).map(|_| [mix.next(), mix.next()]).collect();
        let perms = topo.symmetries();
        // (permutation index, colours exchanged, seats exchanged)
        let mut list: Vec<(usize, bool, bool)> = Vec::new();
        for (k, _) in perms.iter().enumerate() {
            if !kind.board_symmetries_keep_values() {
                // Onyx: index 1 and 3 are the transpose and anti-transpose,
                // which exchange the edges each side joins, so the colours
                // and the seats with them.
                let exchange = k % 2 == 1;
                list.push((k, exchange, exchange));
            } else if kind.colour_exchange_keeps_values() {
                list.push((k, false, false));
                list.push((k, true, false));
            } else {
                list.push((k, false, false));
                list.push((k, true, true));
            }
        }
        if !symmetric {
            list.truncate(1);
        }
        debug_assert!(list.len() <= MAX_SYMMETRIES);
        let symmetries = list
            .into_iter()
            .map(|(k, colours, seats)| Symmetry {
                stone: (0..bits)
                    .map(|i| {
                        let image = perms[k][i].index();
                        let z = base[image];
                        if colours { [z[1], z[0]] } else { z }
                    })
                    .collect(),
                seats,
            })
            .collect();
        Keys {
            symmetries,
            side: [mix.next(), mix.next()],
            flags: std::array::from_fn(|_| mix.next()),
            anchor: (0..bits).map(|_| mix.next()).collect(),
            attacker: mix.next(),
        }
    }

    /// Number of symmetries in use.
    pub fn symmetry_count(&self) -> usize {
        self.symmetries.len()
    }

    /// The hashes of `game`'s stones, from scratch.
    pub fn hashes<G: Game>(&self, game: &G) -> Hashes {
        let mut h = Hashes {
            per_symmetry: [0; MAX_SYMMETRIES],
            stones: 0,
        };
        for colour in Colour::BOTH {
            for (w, &word) in game.stone_words(colour).iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    self.add(&mut h, i, colour);
                }
            }
        }
        h
    }

    #[inline(always)]
    fn add(&self, h: &mut Hashes, cell: usize, colour: Colour) {
        for (slot, s) in h.per_symmetry.iter_mut().zip(&self.symmetries) {
            *slot ^= s.stone[cell][colour.index()];
        }
        h.stones += 1;
    }

    /// The hashes after `action` took a position with hashes `h` to
    /// `after`: unchanged by a pass or the end of a turn, one XOR per
    /// symmetry when the action added one stone, a recount otherwise (Onyx
    /// captures and swaps).
    pub fn after<G: Game>(&self, h: &Hashes, action: Action, after: &G) -> Hashes {
        if action == Action::PASS || action == Action::END_TURN {
            return *h;
        }
        let count: u32 = Colour::BOTH
            .iter()
            .flat_map(|&c| after.stone_words(c))
            .map(|w| w.count_ones())
            .sum();
        if action.is_stone() && count == h.stones + 1 {
            let mut next = *h;
            self.add(&mut next, action.cell().index(), action.colour());
            next
        } else {
            self.hashes(after)
        }
    }

    /// Whether a symmetry other than the identity maps the position with
    /// hashes `h` onto itself, so that some of its children are images of
    /// each other.
    pub fn is_symmetric<G: Game>(&self, game: &G, h: &Hashes) -> bool {
        if game.turn_state().anchor.is_some() {
            return false;
        }
        let mover = game.to_move();
        let own = h.per_symmetry[0] ^ self.side[mover.index()];
        self.symmetries
            .iter()
            .zip(&h.per_symmetry)
            .skip(1)
            .any(|(s, &hash)| {
                let seat = if s.seats { mover.opposite() } else { mover };
                hash ^ self.side[seat.index()] == own
            })
    }

    /// The key of a position with hashes `h`: the same for every symmetric
    /// image of it. `attacker` is the seat whose win the search proves.
    pub fn key<G: Game>(&self, game: &G, h: &Hashes, attacker: Colour) -> u64 {
        let TurnState { flags, anchor } = game.turn_state();
        let mover = game.to_move();
        let mut key = self.flags[usize::from(flags) & 7];
        key ^= match anchor {
            Some(cell) => self.anchor[cell.index()] ^ h.per_symmetry[0] ^ self.side[mover.index()],
            None => self
                .symmetries
                .iter()
                .zip(&h.per_symmetry)
                .map(|(s, &hash)| {
                    let seat = if s.seats { mover.opposite() } else { mover };
                    hash ^ self.side[seat.index()]
                })
                .min()
                .unwrap_or(0),
        };
        if mover == attacker {
            key ^= self.attacker;
        }
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::{Cell, GameSpec, OddGame, OnyxGame, Stone, XoddYoddGame};

    /// The key of `stones` set up on `spec`, with `to_move` to play, for
    /// a search whose attacker is the side to move.
    fn key_of<G: Game>(spec: &GameSpec, keys: &Keys, stones: &[Stone], to_move: Colour) -> u64 {
        let g = G::from_setup(spec, stones, to_move).unwrap();
        keys.key(&g, &keys.hashes(&g), to_move)
    }

    fn stones(spec: &GameSpec, list: &[(&str, Colour)]) -> Vec<Stone> {
        let topo = spec.topology();
        list.iter()
            .map(|&(name, colour)| Stone {
                cell: topo.parse_cell(name).unwrap(),
                colour,
            })
            .collect()
    }

    /// The image of `list` under board symmetry `k`, colours exchanged when
    /// asked.
    fn image(spec: &GameSpec, list: &[Stone], k: usize, exchange: bool) -> Vec<Stone> {
        let perm = &spec.topology().symmetries()[k];
        list.iter()
            .map(|s| Stone {
                cell: perm[s.cell.index()],
                colour: if exchange {
                    s.colour.opposite()
                } else {
                    s.colour
                },
            })
            .collect()
    }

    #[test]
    fn odd_keys_agree_on_every_board_symmetry_and_colour_exchange() {
        let spec = GameSpec::new(GameKind::Odd, 3, Default::default()).unwrap();
        let keys = Keys::new(GameKind::Odd, spec.topology(), true);
        assert_eq!(keys.symmetry_count(), 24);
        let list = stones(
            &spec,
            &[
                ("A1", Colour::Black),
                ("B1", Colour::White),
                ("C4", Colour::Black),
            ],
        );
        let key = key_of::<OddGame<2>>(&spec, &keys, &list, Colour::White);
        for k in 0..12 {
            for exchange in [false, true] {
                let other = image(&spec, &list, k, exchange);
                assert_eq!(
                    key_of::<OddGame<2>>(&spec, &keys, &other, Colour::White),
                    key
                );
            }
        }
        // The side to move is part of the position.
        assert_ne!(
            key_of::<OddGame<2>>(&spec, &keys, &list, Colour::Black),
            key
        );
        // A different position has a different key.
        let moved = stones(&spec, &[("A1", Colour::Black), ("B1", Colour::White)]);
        assert_ne!(
            key_of::<OddGame<2>>(&spec, &keys, &moved, Colour::White),
            key
        );
    }

    #[test]
    fn xodd_keys_exchange_colours_only_with_seats() {
        let spec = GameSpec::new(GameKind::Xodd, 4, Default::default()).unwrap();
        let keys = Keys::new(GameKind::Xodd, spec.topology(), true);
        assert_eq!(keys.symmetry_count(), 16);
        let list = stones(&spec, &[("A1", Colour::Black), ("B3", Colour::White)]);
        let key = key_of::<XoddYoddGame<2>>(&spec, &keys, &list, Colour::Black);
        for k in 0..8 {
            let same = image(&spec, &list, k, false);
            assert_eq!(
                key_of::<XoddYoddGame<2>>(&spec, &keys, &same, Colour::Black),
                key
            );
            let exchanged = image(&spec, &list, k, true);
            assert_eq!(
                key_of::<XoddYoddGame<2>>(&spec, &keys, &exchanged, Colour::White),
                key
            );
            assert_ne!(
                key_of::<XoddYoddGame<2>>(&spec, &keys, &exchanged, Colour::Black),
                key
            );
        }
    }

    #[test]
    fn onyx_transpose_exchanges_colours_and_seats() {
        let spec = GameSpec::new(GameKind::Onyx, 6, Default::default()).unwrap();
        let keys = Keys::new(GameKind::Onyx, spec.topology(), true);
        assert_eq!(keys.symmetry_count(), 4);
        let list = stones(&spec, &[("B2", Colour::Black), ("C5", Colour::White)]);
        let key = key_of::<OnyxGame<2>>(&spec, &keys, &list, Colour::Black);
        for k in 0..4 {
            let exchange = k % 2 == 1;
            let other = image(&spec, &list, k, exchange);
            let seat = if exchange {
                Colour::White
            } else {
                Colour::Black
            };
            assert_eq!(key_of::<OnyxGame<2>>(&spec, &keys, &other, seat), key);
        }
        // The plain transpose without the exchange is another position.
        let plain = image(&spec, &list, 1, false);
        assert_ne!(
            key_of::<OnyxGame<2>>(&spec, &keys, &plain, Colour::Black),
            key
        );
    }

    #[test]
    fn incremental_hashes_match_a_recount() {
        let spec = GameSpec::new(GameKind::Xodd, 3, Default::default()).unwrap();
        let keys = Keys::new(GameKind::Xodd, spec.topology(), true);
        let mut g = XoddYoddGame::<2>::new(&spec);
        let mut h = keys.hashes(&g);
        for a in [
            Action::stone(Cell(4), Colour::Black),
            Action::stone(Cell(0), Colour::White),
            Action::stone(Cell(8), Colour::White),
        ] {
            let mut acts = Vec::new();
            g.legal_actions(&mut acts);
            let a = if acts.contains(&a) { a } else { acts[0] };
            g.apply(a);
            h = keys.after(&h, a, &g);
            let fresh = keys.hashes(&g);
            assert_eq!(h.per_symmetry, fresh.per_symmetry);
        }
    }
}
