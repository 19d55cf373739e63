//! Rules checks for Xodd, Yodd and Odd: the perft table of rules.md, an
//! independent brute-force move counter, symmetry and colour invariance, and
//! incremental state against from-scratch recounts over many random games.

use std::collections::HashSet;

use oddity_rules::{
    Action, AnyGame, Cell, Colour, Game, GameKind, GameSpec, Rng, Rules, Stone, TokenErrorKind,
    Topology, Turn, perft, perft_by_turns, with_game, with_xodd_yodd,
};

fn spec(kind: GameKind, size: usize) -> GameSpec {
    GameSpec::new(kind, size, Rules::default()).unwrap()
}

fn play(game: &mut AnyGame, tokens: &str) {
    for t in tokens.split_whitespace() {
        let turn = game.parse_turn(t).unwrap();
        game.play_turn(&turn)
            .unwrap_or_else(|e| panic!("{t}: {e:?}"));
    }
}

#[test]
fn perft_table_of_rules_md() {
    let rows = [
        (GameKind::Xodd, 3, vec![18, 1338, 51138]),
        (GameKind::Yodd, 2, vec![14, 470, 8786]),
        (GameKind::Odd, 2, vec![14, 168, 1680]),
    ];
    for (kind, size, counts) in rows {
        let game = AnyGame::new(&spec(kind, size));
        for (d, &expected) in counts.iter().enumerate() {
            assert_eq!(
                game.perft(d as u32 + 1),
                expected,
                "{kind} {size} d{}",
                d + 1
            );
        }
        with_game!(&game, g => {
            assert_eq!(perft_by_turns(g, 2), counts[1]);
            assert_eq!(perft(g, 3), counts[2], "sequential count");
        });
    }
}

/// Groups of one colour by breadth-first search over the neighbour lists.
fn count_groups(topo: &Topology, board: &[Option<Colour>], colour: Colour) -> u32 {
    let mut seen = vec![false; board.len()];
    let mut groups = 0;
    for &c in topo.cells() {
        if board[c.index()] != Some(colour) || seen[c.index()] {
            continue;
        }
        groups += 1;
        let mut stack = vec![c];
        seen[c.index()] = true;
        while let Some(x) = stack.pop() {
            for &n in topo.neighbours(x) {
                if board[n.index()] == Some(colour) && !seen[n.index()] {
                    seen[n.index()] = true;
                    stack.push(n);
                }
            }
        }
    }
    groups
}

/// Xodd/Yodd legal turns by trial: every pass, single stone and unordered
/// pair of stones, kept when the total number of groups is odd afterwards.
fn brute_force_turns(game: &AnyGame, first_turn: bool) -> HashSet<Turn> {
    let topo = game.topology();
    let mut board = vec![None; topo.bits];
    for &c in topo.cells() {
        board[c.index()] = game.stone_at(c);
    }
    let odd = |b: &[Option<Colour>]| {
        (count_groups(topo, b, Colour::Black) + count_groups(topo, b, Colour::White)) % 2 == 1
    };
    let mut turns = HashSet::new();
    if game.is_over() {
        return turns;
    }
    if !first_turn && odd(&board) {
        turns.insert(Turn::Pass);
    }
    let empties: Vec<Cell> = topo
        .cells()
        .iter()
        .copied()
        .filter(|c| board[c.index()].is_none())
        .collect();
    let stones: Vec<Stone> = empties
        .iter()
        .flat_map(|&cell| Colour::BOTH.map(|colour| Stone { cell, colour }))
        .collect();
    for (i, &a) in stones.iter().enumerate() {
        board[a.cell.index()] = Some(a.colour);
        if odd(&board) {
            turns.insert(Turn::stones(a, None));
        }
        if !first_turn {
            for &b in &stones[i + 1..] {
                if b.cell == a.cell {
                    continue;
                }
                board[b.cell.index()] = Some(b.colour);
                if odd(&board) {
                    turns.insert(Turn::stones(a, Some(b)));
                }
                board[b.cell.index()] = None;
            }
        }
        board[a.cell.index()] = None;
    }
    turns
}

#[test]
fn parity_move_generation_matches_brute_force() {
    let mut rng = Rng::seeded(7);
    for (kind, size) in [
        (GameKind::Xodd, 3),
        (GameKind::Xodd, 4),
        (GameKind::Yodd, 2),
        (GameKind::Yodd, 3),
    ] {
        for _ in 0..12 {
            let mut game = AnyGame::new(&spec(kind, size));
            loop {
                let generated: HashSet<Turn> = game.legal_turns().into_iter().collect();
                let expected = brute_force_turns(&game, game.turns_played() == 0);
                assert_eq!(
                    generated,
                    expected,
                    "{kind} {size} after {} turns",
                    game.turns_played()
                );
                let count = with_game!(&game, g => perft(g, 1));
                assert_eq!(count as usize, expected.len());
                if game.is_over() {
                    break;
                }
                let turns = game.legal_turns();
                let pick = turns[rng.below(turns.len() as u32) as usize];
                game.play_turn(&pick).unwrap();
            }
        }
    }
}

/// The position of `game` with a cell permutation and optionally the stone
/// colours swapped (the same side to move).
fn transformed(game: &AnyGame, perm: &[Cell], swap_colours: bool) -> AnyGame {
    let topo = game.topology();
    let stones: Vec<Stone> = topo
        .cells()
        .iter()
        .filter_map(|&c| {
            game.stone_at(c).map(|colour| Stone {
                cell: perm[c.index()],
                colour: if swap_colours {
                    colour.opposite()
                } else {
                    colour
                },
            })
        })
        .collect();
    AnyGame::from_setup(game.spec(), &stones, game.to_move()).unwrap()
}

#[test]
fn perft_is_invariant_under_symmetries_and_colour_swap() {
    let mut rng = Rng::seeded(11);
    for (kind, size, plies) in [
        (GameKind::Xodd, 4, 5),
        (GameKind::Yodd, 3, 5),
        (GameKind::Odd, 3, 8),
    ] {
        for _ in 0..3 {
            let mut game = AnyGame::new(&spec(kind, size));
            for _ in 0..plies {
                let turns = game.legal_turns();
                let pick = turns[rng.below(turns.len() as u32) as usize];
                game.play_turn(&pick).unwrap();
            }
            // Compare set-up positions with each other: a set-up has no
            // first-turn privilege, whatever was played.
            let base = transformed(&game, &game.topology().symmetries()[0], false);
            let expected = base.perft(2);
            for perm in game.topology().symmetries() {
                for swap in [false, true] {
                    let t = transformed(&game, perm, swap);
                    assert_eq!(t.perft(2), expected, "{kind} {size}");
                    assert_eq!(t.group_counts()[usize::from(swap)], base.group_counts()[0]);
                }
            }
        }
    }
}

#[test]
fn incremental_state_matches_recounts_in_random_games() {
    let mut rng = Rng::seeded(3);
    let mut actions = Vec::new();
    let boards = [
        (GameKind::Xodd, 3),
        (GameKind::Xodd, 8),
        (GameKind::Xodd, 12),
        (GameKind::Xodd, 19),
        (GameKind::Yodd, 2),
        (GameKind::Yodd, 5),
        (GameKind::Yodd, 8),
        (GameKind::Yodd, 12),
        (GameKind::Odd, 2),
        (GameKind::Odd, 5),
        (GameKind::Odd, 9),
    ];
    for (kind, size) in boards {
        let games = if size <= 5 { 300 } else { 20 };
        for _ in 0..games {
            let mut game = AnyGame::new(&spec(kind, size));
            with_game!(&mut game, g => {
                while !g.is_over() {
                    actions.clear();
                    g.legal_actions(&mut actions);
                    assert!(!actions.is_empty(), "{kind} {size}: no legal action before the end");
                    let a = actions[rng.below(actions.len() as u32) as usize];
                    g.apply(a);
                    g.check_consistency().unwrap();
                    if kind != GameKind::Odd && !g.mid_turn() {
                        let topo = g.topology();
                        let board: Vec<_> = (0..topo.bits).map(|i| g.stone_at(Cell(i as u16))).collect();
                        let recount = [Colour::Black, Colour::White].map(|c| count_groups(topo, &board, c));
                        assert_eq!(g.group_counts(), recount);
                        assert_eq!((recount[0] + recount[1]) % 2, 1, "even total after a turn");
                    }
                }
                assert!(g.winner().is_some());
            });
        }
    }
}

#[test]
fn random_playouts_are_legal_games_with_a_winner() {
    let mut rng = Rng::seeded(5);
    for (kind, size) in [
        (GameKind::Xodd, 5),
        (GameKind::Yodd, 4),
        (GameKind::Odd, 4),
        (GameKind::Xodd, 12),
    ] {
        let start = AnyGame::new(&spec(kind, size));
        with_game!(&start, g => {
            let mut blacks = 0;
            for _ in 0..300 {
                let mut p = g.clone();
                let winner = p.playout(&mut rng);
                p.check_consistency().unwrap();
                let counts = p.group_counts();
                if kind == GameKind::Odd {
                    assert_eq!(winner == Colour::Black, (counts[0] + counts[1]) % 2 == 1);
                } else {
                    assert_eq!((counts[0] + counts[1]) % 2, 1);
                    assert_eq!(winner == Colour::Black, counts[0] < counts[1]);
                    // The playout stops only when no stone can be placed.
                    let mut after = p.clone();
                    after.set_to_move(winner);
                    let mut actions = Vec::new();
                    after.legal_actions(&mut actions);
                    assert!(actions.iter().all(|&a| a == Action::PASS), "{kind}: stones still playable");
                }
                blacks += usize::from(winner == Colour::Black);
            }
            assert!(blacks > 30 && blacks < 270, "{kind} {size}: one-sided playouts ({blacks}/300)");
        });
    }
}

#[test]
fn playouts_from_the_middle_of_a_turn() {
    let mut rng = Rng::seeded(9);
    let mut game = AnyGame::new(&spec(GameKind::Xodd, 5));
    play(&mut game, "B:C3 W:A1,W:E5");
    with_game!(&game, g => {
        let mut actions = Vec::new();
        g.legal_actions(&mut actions);
        for &a in actions.iter().filter(|a| a.is_stone()) {
            let mut p = g.clone();
            p.apply(a);
            assert!(p.mid_turn());
            p.playout(&mut rng);
            p.check_consistency().unwrap();
            assert_eq!((p.group_counts()[0] + p.group_counts()[1]) % 2, 1);
        }
    });
}

#[test]
fn first_turn_and_pass_rules() {
    let mut game = AnyGame::new(&spec(GameKind::Xodd, 5));
    for bad in ["pass", "B:A1,W:C3", "B:A1,B:A2"] {
        let turn = game.parse_turn(bad).unwrap();
        assert!(
            game.play_turn(&turn).is_err(),
            "{bad} on Black's first turn"
        );
    }
    play(&mut game, "W:C3 pass");
    assert!(!game.is_over());
    assert_eq!(game.group_counts(), [0, 1]);
    // A new group alone makes the total even; with a stone joining a group too.
    for bad in ["B:A1", "B:A1,W:C4"] {
        let turn = game.parse_turn(bad).unwrap();
        assert!(game.play_turn(&turn).is_err(), "{bad}");
        assert_eq!(game.group_counts(), [0, 1], "unchanged after {bad}");
    }
    play(&mut game, "B:A1,B:E5 pass pass");
    assert!(game.is_over());
    assert_eq!(game.group_counts(), [2, 1]);
    assert_eq!(game.winner(), Some(Colour::White));
}

#[test]
fn odd_game_ends_when_full_with_the_parity_winner() {
    let mut game = AnyGame::new(&spec(GameKind::Odd, 2));
    // Seven cells: B2 in the centre. All black: one group of 7 >= 2: odd.
    play(&mut game, "B:A1 B:B1 B:A2 B:B2 B:C2 B:B3 B:C3");
    assert!(game.is_over());
    assert_eq!(game.winner(), Some(Colour::Black));
    let mut game = AnyGame::new(&spec(GameKind::Odd, 2));
    // Alternating ring colours around a white centre: groups of size >= 2
    // are the centre's group only.
    play(&mut game, "W:B2 B:A1 W:B1 B:C2 W:C3 B:B3 W:A2");
    let counts = game.group_counts();
    assert_eq!(
        game.winner(),
        Some(if (counts[0] + counts[1]) % 2 == 1 {
            Colour::Black
        } else {
            Colour::White
        })
    );
    let spec1 = GameSpec::new(
        GameKind::Odd,
        2,
        Rules {
            min_group: Some(1),
            ..Rules::default()
        },
    )
    .unwrap();
    let mut game = AnyGame::new(&spec1);
    play(&mut game, "B:A1 W:B1 B:A2 W:B2 B:C2 W:B3 B:C3");
    let counts = game.group_counts();
    assert!(counts[0] + counts[1] >= 2);
}

#[test]
fn token_errors_are_precise() {
    let topo = Topology::get(GameKind::Xodd.board(), 9).unwrap();
    let parse = |t: &str, g: GameKind| Turn::parse(t, g, topo, Colour::Black).map_err(|e| e.kind);
    assert!(matches!(
        parse("B:C3,", GameKind::Xodd),
        Err(TokenErrorKind::EmptyStone)
    ));
    assert!(matches!(
        parse("B:C3 x", GameKind::Xodd),
        Err(TokenErrorKind::TrailingText)
    ));
    assert!(matches!(
        parse("B:Z99", GameKind::Xodd),
        Err(TokenErrorKind::UnknownCell(_))
    ));
    assert!(matches!(
        parse("Z99", GameKind::Xodd),
        Err(TokenErrorKind::UnknownCell(_))
    ));
    assert!(matches!(
        parse("c3", GameKind::Xodd),
        Err(TokenErrorKind::MissingColour(_))
    ));
    assert!(matches!(
        parse("B:C3,B:C3", GameKind::Xodd),
        Err(TokenErrorKind::DuplicateCell(_))
    ));
    assert!(matches!(
        parse("B:C3,W:c3", GameKind::Xodd),
        Err(TokenErrorKind::DuplicateCell(_))
    ));
    assert!(matches!(
        parse("X:C3", GameKind::Xodd),
        Err(TokenErrorKind::BadColour(_))
    ));
    assert!(matches!(
        parse("B:A1,W:A2,B:A3", GameKind::Xodd),
        Err(TokenErrorKind::TooManyStones(2))
    ));
    assert!(matches!(
        parse("B:A1,W:A2", GameKind::Odd),
        Err(TokenErrorKind::TooManyStones(1))
    ));
    assert!(matches!(
        parse("pass", GameKind::Odd),
        Err(TokenErrorKind::NotInThisGame(_))
    ));
    assert!(matches!(
        parse("swap", GameKind::Xodd),
        Err(TokenErrorKind::NotInThisGame(_))
    ));
    assert!(matches!(
        parse("", GameKind::Xodd),
        Err(TokenErrorKind::Empty)
    ));
    assert!(matches!(
        parse("B:I3", GameKind::Xodd),
        Err(TokenErrorKind::UnknownCell(_))
    ));
    // Canonical output whatever the input order and case.
    let turn = parse("w:d4,b:c3", GameKind::Xodd).unwrap();
    assert_eq!(turn.to_token(GameKind::Xodd, topo), "B:C3,W:D4");
    assert_eq!(parse("PASS", GameKind::Xodd), Ok(Turn::Pass));
    assert_eq!(parse("Resign", GameKind::Odd), Ok(Turn::Resign));
}

#[test]
fn illegal_turns_change_nothing() {
    let mut game = AnyGame::new(&spec(GameKind::Yodd, 4));
    play(&mut game, "B:D4 W:A1,W:C1");
    let before = game.legal_turns();
    let counts = game.group_counts();
    for bad in ["B:D4", "B:C3,W:C4", "W:A2,W:E5"] {
        let turn = game.parse_turn(bad).unwrap();
        if game.play_turn(&turn).is_ok() {
            continue;
        }
        assert_eq!(game.legal_turns(), before, "{bad}");
        assert_eq!(game.group_counts(), counts);
    }
}

/// Odd's smallest counting group is between 1 and the board's cells; the
/// other games ignore it. The error names the bound.
#[test]
fn smallest_group_is_bounded_by_the_board() {
    let rules = |m| Rules {
        min_group: Some(m),
        ..Rules::default()
    };
    assert!(GameSpec::new(GameKind::Odd, 5, rules(61)).is_ok());
    for m in [0, 62, 99] {
        let e = GameSpec::new(GameKind::Odd, 5, rules(m)).unwrap_err();
        assert!(e.to_string().contains("between 1 and 61"), "{e}");
    }
    assert!(GameSpec::new(GameKind::Xodd, 3, rules(99)).is_ok());
    assert_eq!(
        GameSpec::from_options(GameKind::Odd, None, Rules::default())
            .unwrap()
            .size,
        GameKind::Odd.default_size()
    );
    let e = "chess".parse::<GameKind>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown game 'chess' (xodd, yodd, odd, onyx)"
    );
}

/// Playouts of the default policy's shape: a chooser that keeps the drawn
/// colour plays exactly the random playout, and any chooser ends in a
/// consistent game with an odd total, its chooser told group changes a
/// stone can make.
#[test]
fn choosing_playouts_agree_with_random_ones() {
    use oddity_rules::XoddYoddGame;
    fn check<const W: usize>(start: &XoddYoddGame<W>, seed: u64) {
        let (mut a, mut b) = (Rng::seeded(seed), Rng::seeded(seed));
        let mut random = start.clone();
        random.playout(&mut a);
        let mut kept = start.clone();
        kept.playout_choosing(&mut b, &mut |c| c.drawn);
        for c in Colour::BOTH {
            assert_eq!(random.stone_words(c), kept.stone_words(c), "seed {seed}");
        }
        let mut rng = Rng::seeded(seed);
        let mut other = start.clone();
        let mut told = 0;
        other.playout_choosing(&mut rng, &mut |c| {
            // A stone joins at most the groups around it: the change is 1
            // (a new group) or less.
            assert!(c.change.iter().all(|&d| (-5..=1).contains(&d)), "{c:?}");
            told += 1;
            c.drawn.opposite()
        });
        other.check_consistency().unwrap();
        let counts = other.group_counts();
        assert_eq!((counts[0] + counts[1]) % 2, 1, "seed {seed}");
        assert!(told > 0, "seed {seed}");
    }
    for (kind, size) in [
        (GameKind::Xodd, 5),
        (GameKind::Yodd, 4),
        (GameKind::Xodd, 12),
    ] {
        let mut rng = Rng::seeded(3);
        for seed in 0..40u64 {
            let mut game = AnyGame::new(&spec(kind, size));
            // Start from random positions as well as the empty board.
            for _ in 0..seed % 5 {
                let turns = game.legal_turns();
                let turn = turns[rng.below(turns.len() as u32) as usize];
                game.play_turn(&turn).unwrap();
            }
            if game.is_over() {
                continue;
            }
            with_xodd_yodd!(&game, g => check(g, seed));
        }
    }
}
