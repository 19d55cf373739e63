//! Playouts whose stones a policy draws (Xodd and Yodd:
//! [`XoddYoddGame::playout_drawing`], Odd: [`OddGame::playout_drawing`]):
//! they end in legal, finished games with the winner an independent
//! recount gives, each stone is drawn in proportion to the policy's
//! weights among the legal stones, and the groups the policy reads agree
//! with a recount.

use oddity_rules::{
    Action, AnyGame, Cell, Colour, DrawnBoard, Game, GameKind, GameSpec, GroupedOdd, OddGame, Rng,
    Rules, Stone, StoneDraw, Topology, XoddYoddGame, with_xodd_yodd,
};

/// A test policy: a weight per (cell, colour, mover) from a fixed rule,
/// drawn by a linear scan; it logs every stone placed with the turn it
/// belongs to.
struct Logged {
    weigh: fn(usize, Colour, Colour) -> f64,
    log: Vec<(usize, Colour, u32)>,
}

impl<B: DrawnBoard> StoneDraw<B> for Logged {
    fn start(&mut self, _: &B) {
        self.log.clear();
    }

    fn placed(&mut self, board: &B, cell: usize, colour: Colour) {
        self.log.push((cell, colour, board.game().turns_played()));
    }

    fn draw(&self, board: &B, rng: &mut Rng) -> Option<(usize, Colour)> {
        let game = board.game();
        let stones: Vec<(usize, Colour)> = game
            .topology()
            .cells()
            .iter()
            .filter(|&&cell| game.stone_at(cell).is_none())
            .flat_map(|cell| Colour::BOTH.map(|c| (cell.index(), c)))
            .collect();
        let total: f64 = stones.iter().map(|&(e, c)| self.weight(board, e, c)).sum();
        let mut r = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for &(e, c) in &stones {
            let w = self.weight(board, e, c);
            if r < w {
                return Some((e, c));
            }
            r -= w;
        }
        stones
            .iter()
            .rev()
            .copied()
            .find(|&(e, c)| self.weight(board, e, c) > 0.0)
    }

    fn weight(&self, board: &B, cell: usize, colour: Colour) -> f64 {
        (self.weigh)(cell, colour, board.game().to_move())
    }
}

fn uniform(_: usize, _: Colour, _: Colour) -> f64 {
    1.0
}

/// Uneven weights that depend on the cell, the colour and the mover.
fn skewed(cell: usize, colour: Colour, mover: Colour) -> f64 {
    let base = (cell % 5 + 1) as f64;
    if colour == mover { base * 3.0 } else { base }
}

fn spec(kind: GameKind, size: usize) -> GameSpec {
    GameSpec::new(kind, size, Rules::default()).unwrap()
}

/// The position after `turns` random turns from the start (fewer if the
/// game ends first).
fn random_position(spec: &GameSpec, turns: usize, rng: &mut Rng) -> AnyGame {
    let mut game = AnyGame::new(spec);
    let mut actions = Vec::new();
    let mut played = 0;
    while played < turns && !game.is_over() {
        with_xodd_yodd!(&mut game, g => {
            actions.clear();
            g.legal_actions(&mut actions);
            let a = actions[rng.below(actions.len() as u32) as usize];
            g.apply(a);
            if !g.mid_turn() {
                played += 1;
            }
        });
    }
    game
}

/// Groups of `colour`, by a flood fill ([`count_large_groups`]).
fn count_groups(topo: &Topology, stones: &[Stone], colour: Colour) -> u32 {
    count_large_groups(topo, stones, colour, 1)
}

fn stones_of<G: Game>(game: &G) -> Vec<Stone> {
    game.topology()
        .cells()
        .iter()
        .filter_map(|&cell| game.stone_at(cell).map(|colour| Stone { cell, colour }))
        .collect()
}

/// Total groups of both colours with `extra` stones added, by recount.
fn total_with(topo: &Topology, stones: &[Stone], extra: &[Stone]) -> u32 {
    let all: Vec<Stone> = stones.iter().chain(extra).copied().collect();
    count_groups(topo, &all, Colour::Black) + count_groups(topo, &all, Colour::White)
}

/// The stones that can start a turn in `game` (at a turn's start, not the
/// first turn), by recount: the stone leaves the total odd, or some other
/// stone then makes it odd.
fn legal_first_stones<G: Game>(game: &G) -> Vec<Stone> {
    let topo = game.topology();
    let stones = stones_of(game);
    let empty: Vec<Cell> = topo
        .cells()
        .iter()
        .copied()
        .filter(|&c| game.stone_at(c).is_none())
        .collect();
    let mut legal = Vec::new();
    for &cell in &empty {
        for colour in Colour::BOTH {
            let s = Stone { cell, colour };
            let ok = total_with(topo, &stones, &[s]) % 2 == 1
                || empty.iter().filter(|&&e| e != cell).any(|&e| {
                    Colour::BOTH.into_iter().any(|c2| {
                        let t = Stone {
                            cell: e,
                            colour: c2,
                        };
                        total_with(topo, &stones, &[s, t]) % 2 == 1
                    })
                });
            if ok {
                legal.push(s);
            }
        }
    }
    legal
}

/// Plays the logged stones of a playout from `start` (at a turn's start)
/// through the rules' actions, each turn's stones in cell order, and
/// checks every action is legal, no stone is legal at the end, and the
/// finished game's winner is `winner` and agrees with a recount.
fn replay<const W: usize>(start: &XoddYoddGame<W>, log: &[(usize, Colour, u32)], winner: Colour) {
    let mut game = start.clone();
    let mut k = 0;
    while k < log.len() {
        let turn = log[k].2;
        let mut stones: Vec<(usize, Colour)> = log[k..]
            .iter()
            .take_while(|s| s.2 == turn)
            .map(|s| (s.0, s.1))
            .collect();
        k += stones.len();
        assert!(stones.len() <= 2, "a turn of {} stones", stones.len());
        assert_eq!(game.turns_played(), turn);
        stones.sort();
        for (cell, colour) in stones {
            let a = Action::stone(Cell(cell as u16), colour);
            assert!(game.is_legal(a), "{a:?} in turn {turn}");
            game.apply(a);
        }
        if game.mid_turn() {
            assert!(game.is_legal(Action::END_TURN), "turn {turn} ends odd");
            game.apply(Action::END_TURN);
        }
    }
    let mut actions = Vec::new();
    game.legal_actions(&mut actions);
    assert!(
        actions.iter().all(|a| !a.is_stone()),
        "a stone is still legal"
    );
    game.check_consistency().unwrap();
    let stones = stones_of(&game);
    let topo = game.topology();
    let (black, white) = (
        count_groups(topo, &stones, Colour::Black),
        count_groups(topo, &stones, Colour::White),
    );
    assert_eq!(game.group_counts(), [black, white]);
    let recount = if black < white {
        Colour::Black
    } else {
        Colour::White
    };
    game.apply(Action::PASS);
    game.apply(Action::PASS);
    assert_eq!(game.winner(), Some(winner));
    assert_eq!(winner, recount);
}

#[test]
fn drawn_playouts_end_in_legal_finished_games_with_the_recounted_winner() {
    for (kind, size, games) in [
        (GameKind::Xodd, 3, 60),
        (GameKind::Xodd, 5, 60),
        (GameKind::Xodd, 12, 10),
        (GameKind::Yodd, 3, 60),
        (GameKind::Yodd, 8, 10),
    ] {
        let spec = spec(kind, size);
        let cells = spec.topology().cell_count();
        for seed in 0..games {
            let mut rng = Rng::seeded(seed);
            let turns = rng.below(cells as u32 / 2) as usize;
            let start = random_position(&spec, turns, &mut rng);
            if start.is_over() {
                continue;
            }
            for weigh in [uniform, skewed] {
                let mut policy = Logged {
                    weigh,
                    log: Vec::new(),
                };
                with_xodd_yodd!(&start, g => {
                    let mut end = g.clone();
                    let winner = end.playout_drawing(&mut rng, &mut policy);
                    end.check_consistency().unwrap();
                    replay(g, &policy.log, winner);
                });
            }
        }
    }
}

/// Draws the first stone of `samples` playouts from `start` and checks
/// that only legal stones come and each as often as its share of the legal
/// stones' weight says (within 6 standard deviations: a fixed seed, and a
/// margin no correct draw comes near).
fn first_stones_follow_the_weights<const W: usize>(
    start: &XoddYoddGame<W>,
    weigh: fn(usize, Colour, Colour) -> f64,
    samples: u32,
    seed: u64,
) {
    let legal = legal_first_stones(start);
    let mover = start.to_move();
    let mut counts = vec![0u32; legal.len()];
    let mut rng = Rng::seeded(seed);
    let mut policy = Logged {
        weigh,
        log: Vec::new(),
    };
    for _ in 0..samples {
        start.clone().playout_drawing(&mut rng, &mut policy);
        let (cell, colour, _) = policy.log[0];
        let k = legal
            .iter()
            .position(|s| s.cell.index() == cell && s.colour == colour)
            .unwrap_or_else(|| panic!("illegal first stone {cell} {colour:?}"));
        counts[k] += 1;
    }
    counts_follow_the_weights(&legal, &counts, |s| weigh(s.cell.index(), s.colour, mover));
}

/// Each of `stones` was drawn `counts` times as often as its share of the
/// total weight says: within 6 standard deviations (a fixed seed, and a
/// margin no correct draw comes near).
fn counts_follow_the_weights(stones: &[Stone], counts: &[u32], weight: impl Fn(&Stone) -> f64) {
    let total: f64 = stones.iter().map(&weight).sum();
    let samples: u32 = counts.iter().sum();
    for (s, &n) in stones.iter().zip(counts) {
        let p = weight(s) / total;
        let expected = p * f64::from(samples);
        let sd = (expected * (1.0 - p)).sqrt();
        assert!(
            (f64::from(n) - expected).abs() <= 6.0 * sd + 1.0,
            "{s:?}: {n} draws, {expected:.1} expected"
        );
    }
}

#[test]
fn first_stones_are_drawn_by_weight_among_the_legal_ones() {
    let mut checked_with_illegal = 0;
    for (kind, size) in [
        (GameKind::Xodd, 3),
        (GameKind::Yodd, 2),
        (GameKind::Xodd, 4),
    ] {
        let spec = spec(kind, size);
        let cells = spec.topology().cell_count();
        for seed in 0..40u64 {
            let mut rng = Rng::seeded(seed);
            // Late positions, where some stones cannot start a turn.
            let turns = cells / 2 + rng.below(cells as u32 / 2) as usize;
            let start = random_position(&spec, turns, &mut rng);
            if start.is_over() || start.turns_played() == 0 {
                continue;
            }
            with_xodd_yodd!(&start, g => {
                let legal = legal_first_stones(g);
                let empty = cells - stones_of(g).len();
                if legal.is_empty() {
                    continue;
                }
                if legal.len() < 2 * empty {
                    checked_with_illegal += 1;
                }
                for weigh in [uniform, skewed] {
                    first_stones_follow_the_weights(g, weigh, 3000, seed);
                }
            });
        }
    }
    assert!(
        checked_with_illegal >= 3,
        "{checked_with_illegal} positions with illegal stones"
    );
}

/// Groups of `colour` with at least `min` stones, by a flood fill over
/// the neighbour lists.
fn count_large_groups(topo: &Topology, stones: &[Stone], colour: Colour, min: usize) -> u32 {
    let mut own = vec![false; topo.bits];
    for s in stones.iter().filter(|s| s.colour == colour) {
        own[s.cell.index()] = true;
    }
    let mut large = 0;
    for &c in topo.cells() {
        if !own[c.index()] {
            continue;
        }
        let (mut size, mut stack) = (0, vec![c]);
        own[c.index()] = false;
        while let Some(x) = stack.pop() {
            size += 1;
            for &n in topo.neighbours(x) {
                if own[n.index()] {
                    own[n.index()] = false;
                    stack.push(n);
                }
            }
        }
        large += u32::from(size >= min);
    }
    large
}

/// An Odd position after `stones` random stones from the start.
fn random_odd<const W: usize>(spec: &GameSpec, stones: usize, rng: &mut Rng) -> OddGame<W> {
    let mut game = OddGame::<W>::new(spec);
    let mut actions = Vec::new();
    for _ in 0..stones {
        actions.clear();
        game.legal_actions(&mut actions);
        game.apply(actions[rng.below(actions.len() as u32) as usize]);
    }
    game
}

/// Odd drawn playouts from random positions: every logged stone goes on a
/// distinct cell that was empty, the board ends full with exactly the
/// start's stones and the logged ones, and the winner is the recount's.
fn odd_playouts_end_full_with_the_recounted_winner<const W: usize>(spec: &GameSpec, games: u64) {
    let cells = spec.topology().cell_count();
    for seed in 0..games {
        let mut rng = Rng::seeded(seed);
        let placed = rng.below(cells as u32) as usize;
        let start = random_odd::<W>(spec, placed, &mut rng);
        for weigh in [uniform, skewed] {
            let mut policy = Logged {
                weigh,
                log: Vec::new(),
            };
            let mut end = start.clone();
            let winner = end.playout_drawing(&mut rng, &mut policy);
            end.check_consistency().unwrap();
            assert!(end.is_over());
            assert_eq!(policy.log.len(), cells - placed);
            let mut expected = stones_of(&start);
            for &(cell, colour, _) in &policy.log {
                assert!(start.stone_at(Cell(cell as u16)).is_none(), "cell {cell}");
                expected.push(Stone {
                    cell: Cell(cell as u16),
                    colour,
                });
            }
            let mut stones = stones_of(&end);
            stones.sort_by_key(|s| s.cell);
            expected.sort_by_key(|s| s.cell);
            assert_eq!(stones, expected);
            let min = spec.min_group();
            let topo = spec.topology();
            let large = count_large_groups(topo, &stones, Colour::Black, min)
                + count_large_groups(topo, &stones, Colour::White, min);
            let recount = if large % 2 == 1 {
                Colour::Black
            } else {
                Colour::White
            };
            assert_eq!(winner, recount);
            assert_eq!(end.winner(), Some(recount));
        }
    }
}

#[test]
fn odd_drawn_playouts_fill_the_board_with_the_recounted_winner() {
    odd_playouts_end_full_with_the_recounted_winner::<2>(&spec(GameKind::Odd, 3), 60);
    odd_playouts_end_full_with_the_recounted_winner::<2>(&spec(GameKind::Odd, 5), 30);
    odd_playouts_end_full_with_the_recounted_winner::<4>(&spec(GameKind::Odd, 7), 10);
}

/// In Odd every stone on an empty cell is legal: a playout's first stone
/// comes as often as its share of the weight of all of them says (within
/// 6 standard deviations, a fixed seed), and its second with the other
/// seat's weights.
fn odd_stones_follow_the_weights<const W: usize>(start: &OddGame<W>, samples: u32, seed: u64) {
    let empty: Vec<Stone> = start
        .topology()
        .cells()
        .iter()
        .filter(|&&cell| start.stone_at(cell).is_none())
        .flat_map(|&cell| Colour::BOTH.map(|colour| Stone { cell, colour }))
        .collect();
    let mut rng = Rng::seeded(seed);
    let mut policy = Logged {
        weigh: skewed,
        log: Vec::new(),
    };
    let mut counts = vec![0u32; empty.len()];
    for _ in 0..samples {
        start.clone().playout_drawing(&mut rng, &mut policy);
        let (cell, colour, _) = policy.log[0];
        let k = empty
            .iter()
            .position(|s| s.cell.index() == cell && s.colour == colour)
            .expect("the first stone on an empty cell");
        counts[k] += 1;
    }
    let mover = start.to_move();
    counts_follow_the_weights(&empty, &counts, |s| skewed(s.cell.index(), s.colour, mover));
}

#[test]
fn odd_stones_are_drawn_by_weight() {
    let spec = spec(GameKind::Odd, 3);
    for seed in 0..8u64 {
        let mut rng = Rng::seeded(seed);
        let placed = rng.below(15) as usize;
        let start = random_odd::<2>(&spec, placed, &mut rng);
        odd_stones_follow_the_weights(&start, 3000, seed);
    }
}

/// Places random stones on a [`GroupedOdd`] started from a random
/// position; after each, the groups it reports next to every empty cell
/// are those a recount joins: a stone touching `k` groups of its colour
/// changes their number by `1 - k`.
fn grouped_odd_agrees_with_recounts<const W: usize>(spec: &GameSpec, games: u64) {
    let topo = spec.topology();
    let cells = topo.cell_count();
    for seed in 0..games {
        let mut rng = Rng::seeded(seed);
        let placed = rng.below(cells as u32) as usize;
        let mut board = GroupedOdd::new(random_odd::<W>(spec, placed, &mut rng));
        loop {
            let stones = stones_of(board.game());
            for &cell in topo.cells() {
                if board.game().stone_at(cell).is_some() {
                    continue;
                }
                for colour in Colour::BOTH {
                    let before = count_groups(topo, &stones, colour);
                    let after = count_groups(
                        topo,
                        &[&stones[..], &[Stone { cell, colour }]].concat(),
                        colour,
                    );
                    assert_eq!(
                        board.groups_next_to(cell.index(), colour),
                        before + 1 - after
                    );
                }
            }
            let empty: Vec<Cell> = topo
                .cells()
                .iter()
                .copied()
                .filter(|&c| board.game().stone_at(c).is_none())
                .collect();
            if empty.is_empty() {
                break;
            }
            let cell = empty[rng.below(empty.len() as u32) as usize];
            let colour = Colour::BOTH[rng.below(2) as usize];
            board.place(cell.index(), colour);
        }
    }
}

#[test]
fn grouped_odd_positions_count_the_groups_next_to_each_cell_as_a_recount_does() {
    grouped_odd_agrees_with_recounts::<2>(&spec(GameKind::Odd, 3), 40);
    grouped_odd_agrees_with_recounts::<2>(&spec(GameKind::Odd, 5), 10);
    grouped_odd_agrees_with_recounts::<4>(&spec(GameKind::Odd, 7), 2);
}
