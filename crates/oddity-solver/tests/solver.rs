//! The exact solver against plain exhaustive minimax on boards small enough
//! for it, symmetric positions, and the proof checker against corrupted
//! proofs.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;

use oddity_rules::{
    Action, AnyGame, Colour, Game, GameKind, GameSpec, Rng, Rules, Stone, Turn, with_game,
};
use oddity_solver::odd_table::OddTable;
use oddity_solver::proof::{Guide, check_win};
use oddity_solver::retrograde::{ExactTable, Retrograde, RetrogradeError};
use oddity_solver::{
    Solution, SolveLimits, Solver, SolverParams, Value, check_retrograde, solve_retrograde,
};

fn spec(kind: GameKind, size: usize) -> GameSpec {
    GameSpec::new(kind, size, Rules::default()).unwrap()
}

/// The full description of a position: stones, side to move, turn state.
type Exact = (Vec<u64>, Vec<u64>, Colour, u8, Option<u16>);

fn exact<G: Game>(g: &G) -> Exact {
    let s = g.turn_state();
    (
        g.stone_words(Colour::Black).to_vec(),
        g.stone_words(Colour::White).to_vec(),
        g.to_move(),
        s.flags,
        s.anchor.map(|c| c.0),
    )
}

/// Plain minimax over whole turns, every position once: true when the side
/// to move wins (games without repetitions).
fn minimax<G: Game>(g: &G, memo: &mut HashMap<Exact, bool>) -> bool {
    if let Some(w) = g.winner() {
        return w == g.to_move();
    }
    let key = exact(g);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mover = g.to_move();
    let win = g.legal_turns().iter().any(|t| {
        let mut next = g.clone();
        next.play_turn(t).unwrap();
        let child_mover_wins = minimax(&next, memo);
        (next.to_move() == mover) == child_mover_wins
    });
    memo.insert(key, win);
    win
}

/// Retrograde analysis of every position reachable from `root` (games with
/// repetitions): the value of each for its side to move.
fn retrograde<G: Game>(root: &G) -> HashMap<Exact, Value> {
    let mut index: HashMap<Exact, usize> = HashMap::new();
    let mut nodes: Vec<G> = Vec::new();
    let mut children: Vec<Vec<usize>> = Vec::new();
    let mut stack = vec![root.clone()];
    index.insert(exact(root), 0);
    nodes.push(root.clone());
    children.push(Vec::new());
    let mut k = 0;
    while k < nodes.len() {
        let g = nodes[k].clone();
        if !g.is_over() {
            let mut kids = Vec::new();
            for t in g.legal_turns() {
                let mut next = g.clone();
                next.play_turn(&t).unwrap();
                let key = exact(&next);
                let i = *index.entry(key).or_insert_with(|| {
                    nodes.push(next.clone());
                    children.push(Vec::new());
                    nodes.len() - 1
                });
                kids.push(i);
            }
            children[k] = kids;
        }
        k += 1;
    }
    stack.clear();
    let mut value: Vec<Option<Value>> = nodes
        .iter()
        .map(|g| {
            g.winner().map(|w| {
                if w == g.to_move() {
                    Value::Win
                } else {
                    Value::Loss
                }
            })
        })
        .collect();
    loop {
        let mut changed = false;
        for i in 0..nodes.len() {
            if value[i].is_some() || children[i].is_empty() {
                continue;
            }
            let mover = nodes[i].to_move();
            // The child's value for this node's mover.
            let for_mover = |c: usize| {
                value[c].map(|v| {
                    if nodes[c].to_move() == mover {
                        v
                    } else {
                        match v {
                            Value::Win => Value::Loss,
                            Value::Loss => Value::Win,
                            Value::Neither => Value::Neither,
                        }
                    }
                })
            };
            let vs: Vec<Option<Value>> = children[i].iter().map(|&c| for_mover(c)).collect();
            if vs.contains(&Some(Value::Win)) {
                value[i] = Some(Value::Win);
                changed = true;
            } else if vs.iter().all(|v| *v == Some(Value::Loss)) {
                value[i] = Some(Value::Loss);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    nodes
        .iter()
        .zip(value)
        .map(|(g, v)| (exact(g), v.unwrap_or(Value::Neither)))
        .collect()
}

fn solve(game: &AnyGame) -> Solution {
    let mut solver = Solver::new(SolverParams {
        memory_mb: 64,
        ..SolverParams::default()
    });
    let s = solver.solve(
        game,
        true,
        &SolveLimits::default(),
        &AtomicBool::new(false),
        None,
    );
    assert!(s.complete(), "every turn is solved");
    solver
        .check(game, &s)
        .unwrap_or_else(|e| panic!("the proof checks: {e}"));
    s
}

/// The exhaustive value of `game` and of each of its turns, for its mover.
fn exhaustive(game: &AnyGame) -> (Value, Vec<(Turn, Value)>) {
    with_game!(game, g => {
        let mover = g.to_move();
        let of_child = |next: &_, retro: &HashMap<Exact, Value>| -> Value {
            let v = retro[&exact(next)];
            if oddity_rules::Game::to_move(next) == mover {
                v
            } else {
                match v {
                    Value::Win => Value::Loss,
                    Value::Loss => Value::Win,
                    Value::Neither => Value::Neither,
                }
            }
        };
        if g.spec().kind == GameKind::Onyx {
            let retro = retrograde(g);
            let turns = g
                .legal_turns()
                .into_iter()
                .map(|t| {
                    let mut next = g.clone();
                    next.play_turn(&t).unwrap();
                    (t, of_child(&next, &retro))
                })
                .collect();
            (retro[&exact(g)], turns)
        } else {
            let mut memo = HashMap::new();
            let root = if minimax(g, &mut memo) { Value::Win } else { Value::Loss };
            let turns = g
                .legal_turns()
                .into_iter()
                .map(|t| {
                    let mut next = g.clone();
                    next.play_turn(&t).unwrap();
                    let child_wins = minimax(&next, &mut memo);
                    let mover_wins = (next.to_move() == mover) == child_wins;
                    (t, if mover_wins { Value::Win } else { Value::Loss })
                })
                .collect();
            (root, turns)
        }
    })
}

/// The retrograde table's solution of `game`, checked.
fn solve_by_table(game: &AnyGame) -> Solution {
    let (s, table) = solve_retrograde(game, 64).unwrap();
    check_retrograde(game, &s, &table, true)
        .unwrap_or_else(|e| panic!("the table's proof checks: {e}"));
    s
}

/// Both solvers (df-pn, and the retrograde table where stones stay on the
/// board) give `game` the exhaustive value and turn values.
fn assert_agrees(game: &AnyGame, label: &str) {
    let (value, turns) = exhaustive(game);
    let mut solutions = vec![("df-pn", solve(game))];
    if game.kind() != GameKind::Onyx {
        solutions.push(("retrograde", solve_by_table(game)));
    }
    for (method, s) in solutions {
        assert_eq!(s.value, Some(value), "{label}, {method}: value");
        let solved: HashMap<Turn, Value> =
            s.turns.iter().map(|t| (t.turn, t.value.unwrap())).collect();
        assert_eq!(solved.len(), turns.len(), "{label}, {method}: every turn");
        for (t, v) in &turns {
            assert_eq!(solved[t], *v, "{label}, {method}: turn {}", game.token(t));
        }
    }
}

/// `game` after `plies` random turns (or fewer, when it ends).
fn random_position(game: &AnyGame, plies: usize, seed: u64) -> AnyGame {
    let mut rng = Rng::seeded(seed);
    let mut g = game.clone();
    for _ in 0..plies {
        let turns = g.legal_turns();
        if g.is_over() || turns.is_empty() {
            break;
        }
        let t = turns[rng.below(turns.len() as u32) as usize];
        let mut next = g.clone();
        next.play_turn(&t).unwrap();
        if next.is_over() {
            break;
        }
        g = next;
    }
    g
}

#[test]
fn solver_agrees_with_exhaustive_minimax_on_the_smallest_boards() {
    let boards = [
        (spec(GameKind::Odd, 2), 5),
        (spec(GameKind::Xodd, 3), 6),
        (spec(GameKind::Yodd, 2), 5),
        (spec(GameKind::Onyx, 4), 6),
    ];
    for (spec, depth) in boards {
        let start = AnyGame::new(&spec);
        assert_agrees(&start, &format!("{} {} start", spec.kind, spec.size));
        for seed in 0..12u64 {
            let plies = 1 + seed as usize % depth;
            let g = random_position(&start, plies, seed);
            assert_agrees(&g, &format!("{} {} seed {seed}", spec.kind, spec.size));
        }
    }
}

#[test]
fn odd_with_every_smallest_group_agrees_with_minimax_on_side_2() {
    for m in 1..=7 {
        let rules = Rules {
            min_group: Some(m),
            ..Rules::default()
        };
        let spec = GameSpec::new(GameKind::Odd, 2, rules).unwrap();
        assert_agrees(&AnyGame::new(&spec), &format!("odd 2 m{m}"));
    }
}

#[test]
fn onyx_without_swap_and_open_agree_with_retrograde_analysis() {
    let no_swap = Rules {
        swap: false,
        ..Rules::default()
    };
    let open = Rules {
        open_start: true,
        ..Rules::default()
    };
    let start = AnyGame::new(&GameSpec::new(GameKind::Onyx, 4, no_swap).unwrap());
    assert_agrees(&start, "onyx 4 no swap");
    let open = AnyGame::new(&GameSpec::new(GameKind::Onyx, 4, open).unwrap());
    for seed in 0..6u64 {
        let g = random_position(&open, 8, seed);
        assert_agrees(&g, &format!("onyx 4 open seed {seed}"));
    }
}

/// The stones of a set-up position.
fn stones_of(g: &AnyGame) -> Vec<Stone> {
    g.topology()
        .cells()
        .iter()
        .filter_map(|&cell| g.stone_at(cell).map(|colour| Stone { cell, colour }))
        .collect()
}

#[test]
fn symmetric_positions_have_the_same_value() {
    let cases = [
        (spec(GameKind::Odd, 3), 13),
        (spec(GameKind::Xodd, 4), 7),
        (spec(GameKind::Yodd, 3), 8),
    ];
    for (spec, plies) in cases {
        let start = AnyGame::new(&spec);
        for seed in 0..3u64 {
            let g = random_position(&start, plies, 100 + seed);
            let stones = stones_of(&g);
            let mover = g.to_move();
            let base = AnyGame::from_setup(&spec, &stones, mover).unwrap();
            let value = solve(&base).value;
            assert!(value.is_some());
            for perm in g.topology().symmetries() {
                for exchange in [false, true] {
                    let image: Vec<Stone> = stones
                        .iter()
                        .map(|s| Stone {
                            cell: perm[s.cell.index()],
                            colour: if exchange {
                                s.colour.opposite()
                            } else {
                                s.colour
                            },
                        })
                        .collect();
                    // Odd keeps the seats when colours are exchanged; Xodd
                    // and Yodd exchange the seats too.
                    let seat = if exchange && spec.kind != GameKind::Odd {
                        mover.opposite()
                    } else {
                        mover
                    };
                    let other = AnyGame::from_setup(&spec, &image, seat).unwrap();
                    assert_eq!(
                        solve(&other).value,
                        value,
                        "{} {} seed {seed}",
                        spec.kind,
                        spec.size
                    );
                }
            }
        }
    }
}

/// A guide that plays from a table of winning actions.
struct Strategy(HashMap<Exact, Action>);

impl<G: Game> Guide<G> for Strategy {
    fn actions(&mut self, game: &G) -> Vec<Action> {
        self.0.get(&exact(game)).copied().into_iter().collect()
    }
}

/// A winning strategy for the side to move at `g`, by minimax over
/// actions: a winning action for every position reached where the winner
/// moves.
fn strategy<G: Game>(
    g: &G,
    winner: Colour,
    out: &mut HashMap<Exact, Action>,
    memo: &mut HashMap<Exact, bool>,
) {
    if g.is_over() || out.contains_key(&exact(g)) {
        return;
    }
    let mut actions = Vec::new();
    g.legal_actions(&mut actions);
    let wins = |a: Action, memo: &mut HashMap<Exact, bool>| {
        let mut next = g.clone();
        next.apply(a);
        action_winner(&next, memo) == winner
    };
    if g.to_move() == winner {
        let a = actions
            .iter()
            .copied()
            .find(|&a| wins(a, memo))
            .expect("the winner has a winning action");
        out.insert(exact(g), a);
        let mut next = g.clone();
        next.apply(a);
        strategy(&next, winner, out, memo);
    } else {
        for a in actions {
            let mut next = g.clone();
            next.apply(a);
            strategy(&next, winner, out, memo);
        }
    }
}

/// The winner of `g` with best play, by minimax over actions.
fn action_winner<G: Game>(g: &G, memo: &mut HashMap<Exact, bool>) -> Colour {
    if let Some(w) = g.winner() {
        return w;
    }
    let key = exact(g);
    let mover = g.to_move();
    let mover_wins = match memo.get(&key) {
        Some(&v) => v,
        None => {
            let mut actions = Vec::new();
            g.legal_actions(&mut actions);
            let v = actions.iter().any(|&a| {
                let mut next = g.clone();
                next.apply(a);
                action_winner(&next, memo) == mover
            });
            memo.insert(key, v);
            v
        }
    };
    if mover_wins { mover } else { mover.opposite() }
}

#[test]
fn the_checker_accepts_a_winning_strategy_and_rejects_a_corrupted_one() {
    for spec in [spec(GameKind::Odd, 2), spec(GameKind::Xodd, 3)] {
        let start = AnyGame::new(&spec);
        with_game!(&start, g => {
            let mut memo = HashMap::new();
            let winner = action_winner(g, &mut memo);
            let mut plan = HashMap::new();
            strategy(g, winner, &mut plan, &mut memo);
            let checked = check_win(g, winner, &mut Strategy(plan.clone()), false)
                .expect("a true proof");
            assert!(checked > 0);
            // With the board's symmetries the same proof needs fewer
            // positions: one of each set of images.
            let images = check_win(g, winner, &mut Strategy(plan.clone()), true)
                .expect("a true proof, by images");
            assert!(images < checked, "{images} of {checked} positions");
            // The other side has no proof.
            assert!(check_win(g, winner.opposite(), &mut Strategy(plan.clone()), false).is_err());
            assert!(check_win(g, winner.opposite(), &mut Strategy(plan.clone()), true).is_err());
            // Replace the winning action at each of a few positions by a
            // losing one: every such proof is refused. (Checked position by
            // position: by images, a corrupted position whose image the
            // strategy wins is rightly accepted.)
            let mut corrupted = 0;
            let keys: Vec<Exact> = {
                let mut k: Vec<Exact> = plan.keys().cloned().collect();
                k.sort();
                k
            };
            let mut tried = HashSet::new();
            for key in keys.iter().step_by(keys.len() / 20 + 1) {
                let position = find_position(g, key, &plan);
                let Some(position) = position else { continue };
                let mut actions = Vec::new();
                position.legal_actions(&mut actions);
                let losing = actions.into_iter().find(|&a| {
                    let mut next = position.clone();
                    next.apply(a);
                    action_winner(&next, &mut memo) != winner
                });
                let Some(losing) = losing else { continue };
                let mut bad = plan.clone();
                bad.insert(key.clone(), losing);
                tried.insert(key.clone());
                assert!(
                    check_win(g, winner, &mut Strategy(bad), false).is_err(),
                    "{} {}: a corrupted proof is refused",
                    spec.kind,
                    spec.size
                );
                corrupted += 1;
            }
            assert!(corrupted >= 3, "{} corrupted proofs tried", corrupted);
        });
    }
}

/// A position reached by `plan` from `root` whose description is `key`.
fn find_position<G: Game>(root: &G, key: &Exact, plan: &HashMap<Exact, Action>) -> Option<G> {
    let mut stack = vec![root.clone()];
    let mut seen = HashSet::new();
    while let Some(g) = stack.pop() {
        if g.is_over() || !seen.insert(exact(&g)) {
            continue;
        }
        if &exact(&g) == key {
            return Some(g);
        }
        let mut actions = Vec::new();
        match plan.get(&exact(&g)) {
            Some(&a) => actions.push(a),
            None => g.legal_actions(&mut actions),
        }
        for a in actions {
            let mut next = g.clone();
            next.apply(a);
            stack.push(next);
        }
    }
    None
}

#[test]
fn two_threads_prove_the_same_values_as_one() {
    let boards = [
        (spec(GameKind::Odd, 3), 9),
        (spec(GameKind::Xodd, 4), 4),
        (spec(GameKind::Onyx, 4), 3),
    ];
    for (spec, plies) in boards {
        let start = AnyGame::new(&spec);
        for seed in 0..3u64 {
            let g = random_position(&start, plies, 40 + seed);
            let one = solve(&g);
            let mut solver = Solver::new(SolverParams {
                threads: 2,
                memory_mb: 64,
                ..SolverParams::default()
            });
            let two = solver.solve(
                &g,
                true,
                &SolveLimits::default(),
                &AtomicBool::new(false),
                None,
            );
            solver.check(&g, &two).expect("the proofs check");
            assert_eq!(
                two.value, one.value,
                "{} {} seed {seed}",
                spec.kind, spec.size
            );
            let values = |s: &Solution| {
                s.turns
                    .iter()
                    .map(|t| (t.turn, t.value))
                    .collect::<Vec<_>>()
            };
            assert_eq!(values(&two), values(&one));
        }
    }
}

#[test]
fn the_retrograde_table_refuses_what_it_cannot_hold() {
    let onyx = AnyGame::new(&spec(GameKind::Onyx, 4));
    assert_eq!(
        solve_retrograde(&onyx, 64).err(),
        Some(RetrogradeError::Game)
    );
    let odd5 = AnyGame::new(&spec(GameKind::Odd, 5));
    assert_eq!(
        solve_retrograde(&odd5, 1 << 20).err(),
        Some(RetrogradeError::TooManyEmpty { empty: 61 })
    );
    // Yodd 3: 3^19 bytes.
    let yodd3 = AnyGame::new(&spec(GameKind::Yodd, 3));
    assert_eq!(
        solve_retrograde(&yodd3, 64).err(),
        Some(RetrogradeError::Memory {
            needed_mb: 1109,
            memory_mb: 64
        })
    );
}

#[test]
fn the_retrograde_check_refuses_a_wrong_value() {
    for (spec, moves) in [
        (spec(GameKind::Xodd, 3), "B:B2 W:A1,W:C3"),
        (spec(GameKind::Odd, 2), "B:B2"),
    ] {
        let mut game = AnyGame::new(&spec);
        for token in moves.split_whitespace() {
            let turn = game.parse_turn(token).unwrap();
            game.play_turn(&turn).unwrap();
        }
        let (mut s, table) = solve_retrograde(&game, 64).unwrap();
        check_retrograde(&game, &s, &table, true).unwrap();
        s.value = s.value.map(|v| match v {
            Value::Win => Value::Loss,
            _ => Value::Win,
        });
        assert!(
            check_retrograde(&game, &s, &table, true).is_err(),
            "{moves}: the opposite value is refused"
        );
    }
}

/// The table, built once for Xodd 4 (16 cells), gives the value df-pn
/// proves for positions along a game.
#[test]
fn the_retrograde_table_agrees_with_df_pn_on_xodd_4() {
    let start = AnyGame::new(&spec(GameKind::Xodd, 4));
    let (_, table) = solve_retrograde(&start, 64).unwrap();
    let mut seen = HashSet::new();
    for seed in 0..6u64 {
        let g = random_position(&start, 3 + seed as usize % 3, seed);
        let mut solver = Solver::new(SolverParams {
            memory_mb: 64,
            ..SolverParams::default()
        });
        let limits = SolveLimits::default();
        let s = solver.solve(&g, false, &limits, &AtomicBool::new(false), None);
        let value = s.value.expect("proven");
        with_game!(&g, g => {
            let mover = g.to_move();
            assert_eq!(value == Value::Win, table.wins(g, mover), "seed {seed}");
        });
        seen.insert(value);
    }
    assert_eq!(seen.len(), 2, "won and lost positions both compared");
}

/// Set-up positions may start a turn with an even number of groups, where
/// the rules allow no pass: the table values them as minimax does.
#[test]
fn the_retrograde_table_values_set_up_positions_as_minimax_does() {
    let mut rng = Rng::seeded(11);
    for (kind, size) in [(GameKind::Xodd, 3), (GameKind::Yodd, 2)] {
        let spec = spec(kind, size);
        let cells = AnyGame::new(&spec).topology().cells().to_vec();
        let mut parities = HashSet::new();
        for _ in 0..40 {
            let empty = 2 + rng.below(4) as usize;
            let mut order = cells.clone();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i as u32 + 1) as usize);
            }
            let stones: Vec<Stone> = order[empty..]
                .iter()
                .map(|&cell| Stone {
                    cell,
                    colour: Colour::BOTH[rng.below(2) as usize],
                })
                .collect();
            let game = AnyGame::from_setup(&spec, &stones, Colour::Black).unwrap();
            let [b, w] = game.group_counts();
            parities.insert((b + w) % 2);
            let (_, table) = solve_retrograde(&game, 64).unwrap();
            with_game!(&game, g => {
                let expected = minimax(g, &mut HashMap::new());
                assert_eq!(table.wins(g, Colour::Black), expected, "{kind} {stones:?}");
            });
        }
        assert_eq!(parities.len(), 2, "{kind}: odd and even totals both tried");
    }
}

/// A set-up position of `spec` with `empty` empty cells and the other cells
/// of random colours, Black to move.
fn random_setup(spec: &GameSpec, empty: usize, rng: &mut Rng) -> AnyGame {
    let cells = AnyGame::new(spec).topology().cells().to_vec();
    let mut order = cells.clone();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i as u32 + 1) as usize);
    }
    let stones: Vec<Stone> = order[empty..]
        .iter()
        .map(|&cell| Stone {
            cell,
            colour: Colour::BOTH[rng.below(2) as usize],
        })
        .collect();
    AnyGame::from_setup(spec, &stones, Colour::Black).unwrap()
}

/// On boards of more than 64 cells the table sees the empty cells and the
/// groups next to them; the groups closed off still count. Late positions
/// of Xodd 12, Yodd 8 and Odd 7 (and Odd 5 with a smaller counted size)
/// are valued as minimax values them, and so is every position after one
/// of their turns.
#[test]
fn the_retrograde_table_values_late_positions_of_large_boards_as_minimax_does() {
    let mut rng = Rng::seeded(5);
    let odd5_m3 = odd5_m3();
    for (spec, empty) in [
        (spec(GameKind::Xodd, 12), 6),
        (spec(GameKind::Yodd, 8), 6),
        (spec(GameKind::Odd, 7), 9),
        (odd5_m3, 9),
    ] {
        let mut values = HashSet::new();
        for _ in 0..6 {
            let game = random_setup(&spec, empty, &mut rng);
            let (_, table) = solve_retrograde(&game, 64).unwrap();
            with_game!(&game, g => {
                let mut memo = HashMap::new();
                let root = minimax(g, &mut memo);
                assert_eq!(table.wins(g, g.to_move()), root, "{}", spec.kind);
                values.insert(root);
                for t in g.legal_turns() {
                    let mut next = g.clone();
                    next.play_turn(&t).unwrap();
                    let mover = next.to_move();
                    assert_eq!(table.wins(&next, mover), minimax(&next, &mut memo), "{} {t:?}", spec.kind);
                }
            });
        }
        assert_eq!(
            values.len(),
            2,
            "{}: won and lost roots both compared",
            spec.kind
        );
    }
}

/// A position whose empty cells touch more than 64 points (empty cells and
/// open groups) is refused with the count.
#[test]
fn the_retrograde_table_refuses_a_position_of_too_many_points() {
    // Xodd 12 as a chessboard of stones: every stone is a group of its own,
    // and each empty cell away from the edge touches four of them.
    let spec = spec(GameKind::Xodd, 12);
    let topo = AnyGame::new(&spec).topology();
    let empty: Vec<_> = (0..20).map(|i| (2 + i % 5 * 2, 2 + i / 5 * 2)).collect();
    let stones: Vec<Stone> = topo
        .cells()
        .iter()
        .filter_map(|&cell| {
            let (x, y) = topo.coords(cell);
            (!empty.contains(&(x, y))).then(|| Stone {
                cell,
                colour: Colour::BOTH[(x + y) % 2],
            })
        })
        .collect();
    let game = AnyGame::from_setup(&spec, &stones, Colour::Black).unwrap();
    assert!(matches!(
        solve_retrograde(&game, 1024).err(),
        Some(RetrogradeError::TooManyPoints { points: 69 })
    ));
}

/// Odd's one-bit table holds the values of the byte table: for roots of
/// either side to move with 1 to 13 empty cells (fewer than 3 fill only
/// part of a word; from 12 on the sweep splits among threads), and for
/// random positions that follow each root, for both seats.
#[test]
fn the_odd_bit_table_agrees_with_the_byte_table() {
    let mut rng = Rng::seeded(17);
    let odd5_m3 = odd5_m3();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let mut values = HashSet::new();
    for (spec, empties) in [
        (spec(GameKind::Odd, 3), [2, 6, 13]),
        (spec(GameKind::Odd, 4), [7, 10, 12]),
        (spec(GameKind::Odd, 5), [8, 11, 13]),
        (spec(GameKind::Odd, 7), [1, 3, 11]),
        (odd5_m3, [7, 10, 12]),
    ] {
        for empty in empties {
            let setup = random_setup(&spec, empty, &mut rng);
            let mover = Colour::BOTH[rng.below(2) as usize];
            let mut game = setup.clone();
            game.set_to_move(mover);
            let bytes = with_game!(&game, g => Retrograde::build(g, 64)).unwrap();
            let bits = pool
                .install(|| with_game!(&game, g => OddTable::build(g, 64, empty >= 12)))
                .unwrap();
            assert_eq!(bits.positions(), bytes.positions());
            with_game!(&game, g => {
                values.insert(bits.wins(g, g.to_move()));
                for _ in 0..60 {
                    let mut at = g.clone();
                    let steps = rng.below(empty as u32 + 1);
                    for _ in 0..steps {
                        let turns = at.legal_turns();
                        at.play_turn(&turns[rng.below(turns.len() as u32) as usize]).unwrap();
                    }
                    for seat in Colour::BOTH {
                        assert_eq!(bits.wins(&at, seat), bytes.wins(&at, seat), "{} {empty}", spec.kind);
                    }
                }
            });
        }
    }
    assert_eq!(values.len(), 2, "won and lost roots both compared");
}

/// Odd 5 with a counted size of 3: a board of more than 64 cells whose
/// late positions have many groups to count.
fn odd5_m3() -> GameSpec {
    GameSpec::new(
        GameKind::Odd,
        5,
        Rules {
            min_group: Some(3),
            ..Rules::default()
        },
    )
    .unwrap()
}
