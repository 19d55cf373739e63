//! Onyx rules (`rules.md` section 4) through the public `Game` interface.

use oddity_rules::{
    Action, Cell, Colour, Game, GameKind, GameSpec, OnyxGame, PlayError, Rng, Rules, Stone, Turn,
    perft, perft_by_turns, width_for,
};

/// Onyx boards up to 9 points a side.
type Small = OnyxGame<2>;
/// Onyx boards of 10 to 13 points a side.
type Medium = OnyxGame<4>;
/// Onyx boards of 14 to 20 points a side.
type Large = OnyxGame<10>;

fn spec(n: usize, open_start: bool, swap: bool) -> GameSpec {
    let rules = Rules {
        open_start,
        swap,
        ..Rules::default()
    };
    GameSpec::new(GameKind::Onyx, n, rules).unwrap()
}

fn cell<G: Game>(game: &G, name: &str) -> Cell {
    game.topology()
        .parse_cell(name)
        .unwrap_or_else(|| panic!("no point {name}"))
}

/// A set-up position on the open board of size `n`.
fn setup<G: Game>(n: usize, black: &[&str], white: &[&str], to_move: Colour) -> G {
    let topo = spec(n, true, true).topology();
    let stones: Vec<Stone> = [(black, Colour::Black), (white, Colour::White)]
        .iter()
        .flat_map(|&(names, colour)| {
            names.iter().map(move |name| Stone {
                cell: topo.parse_cell(name).unwrap(),
                colour,
            })
        })
        .collect();
    let game = G::from_setup(&spec(n, true, true), &stones, to_move).unwrap();
    game.check_consistency().unwrap();
    game
}

/// Plays one move token for the side to move.
fn play<G: Game>(game: &mut G, token: &str) -> Result<(), PlayError> {
    let turn = Turn::parse(token, GameKind::Onyx, game.topology(), game.to_move()).unwrap();
    let result = game.play_turn(&turn);
    game.check_consistency().unwrap();
    result
}

/// The stones of a position as sorted `B:A1`-style names.
fn stones<G: Game>(game: &G) -> Vec<String> {
    let topo = game.topology();
    let mut list: Vec<String> = topo
        .cells()
        .iter()
        .filter_map(|&c| {
            game.stone_at(c)
                .map(|colour| format!("{}:{}", colour.letter(), topo.name(c)))
        })
        .collect();
    list.sort();
    list
}

fn names(list: &[&str]) -> Vec<String> {
    let mut list: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    list.sort();
    list
}

fn legal<G: Game>(game: &G) -> Vec<Action> {
    let mut actions = Vec::new();
    game.legal_actions(&mut actions);
    actions
}

#[test]
fn perft_onyx_12_standard_start() {
    let game = Medium::new(&spec(12, false, true));
    assert_eq!(perft(&game, 1), 192);
    assert_eq!(perft(&game, 2), 36640);
    assert_eq!(perft_by_turns(&game, 1), 192);
    assert_eq!(perft_by_turns(&game, 2), 36640);
}

#[test]
fn perft_onyx_6_open_start() {
    let game = Small::new(&spec(6, true, true));
    assert_eq!(perft(&game, 1), 48);
    assert_eq!(perft(&game, 2), 2256);
    assert_eq!(perft(&game, 3), 99536);
    assert_eq!(perft_by_turns(&game, 2), 2256);
}

#[test]
fn perft_without_swap_has_no_swap_moves() {
    let game = Small::new(&spec(6, true, false));
    // 48 first moves; White then has the 47 other points less the midpoints
    // that Black's corner stone blocks.
    assert_eq!(perft(&game, 1), 48);
    assert_eq!(perft(&game, 2), 2256 - 48);
}

#[test]
fn standard_start_positions() {
    let game = Medium::new(&spec(12, false, true));
    assert_eq!(
        stones(&game),
        names(&[
            "B:A6", "B:A7", "B:L6", "B:L7", "W:F1", "W:G1", "W:F12", "W:G12"
        ])
    );
    assert_eq!(game.to_move(), Colour::Black);
    assert_eq!(game.turns_played(), 0);
    assert_eq!(game.group_counts(), [2, 2]);
    let game = Small::new(&spec(8, false, true));
    assert_eq!(
        stones(&game),
        names(&[
            "B:A4", "B:A5", "B:H4", "B:H5", "W:D1", "W:E1", "W:D8", "W:E8"
        ])
    );
    // The standard start needs n to be a multiple of 4.
    assert!(stones(&Small::new(&spec(6, false, true))).is_empty());
    assert!(stones(&Medium::new(&spec(12, true, true))).is_empty());
}

#[test]
fn single_capture() {
    // Square BC34: corners B3, C3, C4, B4. C4 is opposite B3.
    let mut game: Small = setup(6, &["B3"], &["C3", "B4"], Colour::Black);
    assert_eq!(game.group_counts(), [1, 2]);
    play(&mut game, "C4").unwrap();
    assert_eq!(stones(&game), names(&["B:B3", "B:C4"]));
    assert_eq!(game.group_counts(), [2, 0]);
    // The captured points are playable again; the midpoint is not.
    for point in ["C3", "B4"] {
        assert!(game.is_legal(Action::stone(cell(&game, point), Colour::White)));
    }
    assert!(!game.is_legal(Action::stone(cell(&game, "BC34"), Colour::White)));
}

#[test]
fn white_captures_too() {
    let mut game: Small = setup(6, &["C3", "B4"], &["C4"], Colour::White);
    play(&mut game, "B3").unwrap();
    assert_eq!(stones(&game), names(&["W:B3", "W:C4"]));
}

#[test]
fn double_capture_removes_four_stones() {
    // C4 is a corner of BC34 (opposite B3) and of CD45 (opposite D5).
    let mut game: Small = setup(6, &["B3", "D5"], &["C3", "B4", "D4", "C5"], Colour::Black);
    // C3 and D4 are joined by the split diagonal of cell C3.
    assert_eq!(game.group_counts(), [2, 3]);
    play(&mut game, "C4").unwrap();
    assert_eq!(stones(&game), names(&["B:B3", "B:C4", "B:D5"]));
    assert_eq!(game.group_counts(), [3, 0]);
}

#[test]
fn a_midpoint_placement_never_captures() {
    // Around the empty square BC34, White stones sit where corner moves on
    // the neighbouring squares would capture them.
    let mut game: Small = setup(
        6,
        &["D5", "A2", "D2"],
        &["D4", "C5", "A3", "B2", "C2", "D3"],
        Colour::Black,
    );
    let before = stones(&game);
    play(&mut game, "BC34").unwrap();
    let mut expected = before;
    expected.push("B:BC34".into());
    expected.sort();
    assert_eq!(stones(&game), expected);
}

#[test]
fn own_stones_are_never_captured() {
    // The mover's own stones on the two other corners.
    let mut game: Small = setup(6, &["B3", "C3", "B4"], &[], Colour::Black);
    play(&mut game, "C4").unwrap();
    assert_eq!(stones(&game).len(), 4);
    // Roles reversed: opponent opposite, own stones on the sides.
    let mut game: Small = setup(6, &["C3", "B4"], &["B3"], Colour::Black);
    play(&mut game, "C4").unwrap();
    assert_eq!(stones(&game).len(), 4);
    // One side of each colour.
    let mut game: Small = setup(6, &["B3", "C3"], &["B4"], Colour::Black);
    play(&mut game, "C4").unwrap();
    assert_eq!(stones(&game).len(), 4);
}

#[test]
fn no_capture_when_the_midpoint_is_occupied() {
    for midpoint_colour in [Colour::Black, Colour::White] {
        // The midpoint went in first, the corners after it.
        let (black, white): (&[&str], &[&str]) = match midpoint_colour {
            Colour::Black => (&["BC34", "B3"], &["C3", "B4"]),
            Colour::White => (&["B3"], &["BC34", "C3", "B4"]),
        };
        let mut game: Small = setup(6, black, white, Colour::Black);
        play(&mut game, "C4").unwrap();
        assert_eq!(stones(&game).len(), 5, "midpoint {midpoint_colour:?}");
    }
}

#[test]
fn stones_on_board_corners_and_midpoints_are_never_captured() {
    // The board corner A1 lies on no square, so no placement can capture it.
    let mut game: Small = setup(6, &["B2"], &["A1", "AB23"], Colour::Black);
    for (black, white) in [("B1", "A2"), ("C1", "F6")] {
        play(&mut game, black).unwrap();
        play(&mut game, white).unwrap();
    }
    for point in ["A1", "AB23"] {
        assert_eq!(game.stone_at(cell(&game, point)), Some(Colour::White));
    }
}

#[test]
fn midpoint_restriction() {
    for corner in ["B3", "C3", "C4", "B4"] {
        for colour in Colour::BOTH {
            let (black, white) = match colour {
                Colour::Black => (vec![corner], vec![]),
                Colour::White => (vec![], vec![corner]),
            };
            let mut game: Small = setup(6, &black, &white, Colour::Black);
            let midpoint = cell(&game, "BC34");
            assert!(!game.is_legal(Action::stone(midpoint, Colour::Black)));
            assert!(!legal(&game).contains(&Action::stone(midpoint, Colour::Black)));
            assert!(matches!(
                play(&mut game, "BC34"),
                Err(PlayError::Illegal(_))
            ));
            // Other midpoints are unaffected.
            assert!(game.is_legal(Action::stone(cell(&game, "DE34"), Colour::Black)));
        }
    }
    // Corners may be played next to an occupied midpoint.
    let mut game: Small = setup(6, &[], &[], Colour::Black);
    play(&mut game, "BC34").unwrap();
    play(&mut game, "B3").unwrap();
    play(&mut game, "C4").unwrap();
    assert_eq!(stones(&game), names(&["B:BC34", "B:C4", "W:B3"]));
}

#[test]
fn capturing_move_completes_a_chain() {
    // C4 captures D4 and C5 (square CD45, opposite D5) and joins C3 to B5
    // along the split diagonal B5-C4: C1-C2-C3-C4-B5-B6 spans the rows.
    let mut game: Small = setup(
        6,
        &["C1", "C2", "C3", "B5", "B6", "D5"],
        &["D4", "C5"],
        Colour::Black,
    );
    assert_eq!(game.winner(), None);
    play(&mut game, "C4").unwrap();
    assert_eq!(game.stone_at(cell(&game, "D4")), None);
    assert_eq!(game.stone_at(cell(&game, "C5")), None);
    assert_eq!(game.winner(), Some(Colour::Black));
    assert!(game.is_over());
    assert!(legal(&game).is_empty());
    assert_eq!(play(&mut game, "A1"), Err(PlayError::GameOver));
}

#[test]
fn board_corners_count_for_both_edges() {
    // Black down column A: A1 is on row 1.
    let mut game: Small = setup(6, &["A2", "A3", "A4", "A5", "A6"], &[], Colour::Black);
    assert_eq!(game.winner(), None);
    play(&mut game, "A1").unwrap();
    assert_eq!(game.winner(), Some(Colour::Black));
    // White along row 1: A1 is in column A, F1 in column F.
    let mut game: Small = setup(6, &[], &["B1", "C1", "D1", "E1", "F1"], Colour::White);
    assert_eq!(game.winner(), None);
    play(&mut game, "A1").unwrap();
    assert_eq!(game.winner(), Some(Colour::White));
}

#[test]
fn chains_need_both_edges_and_their_own_goal() {
    // A White chain from top to bottom wins nothing; Black's row chain neither.
    let mut game: Small = setup(6, &["A3", "B3", "C3", "D3", "E3"], &[], Colour::Black);
    play(&mut game, "F3").unwrap();
    assert_eq!(game.winner(), None);
    let game: Small = setup(6, &["A1", "A2", "A3", "A4", "A5", "A6"], &[], Colour::White);
    assert_eq!(
        game.winner(),
        Some(Colour::Black),
        "set-up positions are judged"
    );
}

#[test]
fn chains_through_midpoints_and_split_diagonals() {
    // B1-BC12-C2 through a midpoint, C2-B3 along the split diagonal of cell
    // B2, then B3-B4-B5-B6.
    let mut game: Small = setup(
        6,
        &["B1", "BC12", "B3", "B4", "B5", "B6"],
        &[],
        Colour::Black,
    );
    assert_eq!(game.group_counts(), [2, 0]);
    play(&mut game, "C2").unwrap();
    assert_eq!(game.group_counts(), [1, 0]);
    assert_eq!(game.winner(), Some(Colour::Black));
    // Opposite corners of a square are not adjacent: B3-C4 needs BC34.
    let mut game: Small = setup(6, &["B1", "B2", "B3", "C5", "C6"], &[], Colour::Black);
    play(&mut game, "C4").unwrap();
    assert_eq!(game.winner(), None);
    assert_eq!(game.group_counts(), [2, 0]);
}

#[test]
fn swap_replaces_the_first_stone_by_its_transpose() {
    for (first, swapped) in [("B3", "C2"), ("C3", "C3"), ("BC34", "CD23"), ("A1", "A1")] {
        let mut game = Small::new(&spec(6, true, true));
        assert!(!game.is_legal(Action::SWAP), "not as Black's first move");
        play(&mut game, first).unwrap();
        assert!(game.is_legal(Action::SWAP));
        assert_eq!(
            legal(&game).iter().filter(|&&a| a == Action::SWAP).count(),
            1
        );
        play(&mut game, "swap").unwrap();
        assert_eq!(stones(&game), names(&[&format!("W:{swapped}")]));
        assert_eq!(game.to_move(), Colour::Black);
        assert_eq!(game.turns_played(), 2);
        assert!(!game.is_legal(Action::SWAP));
        play(&mut game, "D4").unwrap();
        assert!(!game.is_legal(Action::SWAP), "only White's first move");
    }
}

#[test]
fn swap_on_the_standard_start() {
    let mut game = Medium::new(&spec(12, false, true));
    play(&mut game, "B5").unwrap();
    play(&mut game, "swap").unwrap();
    let mut expected = stones(&Medium::new(&spec(12, false, true)));
    expected.push("W:E2".into());
    expected.sort();
    assert_eq!(stones(&game), expected);
    assert_eq!(game.group_counts(), [2, 3]);
}

#[test]
fn swap_only_when_enabled_and_only_at_white_s_first_move() {
    let mut game = Small::new(&spec(6, true, false));
    play(&mut game, "B3").unwrap();
    assert!(!game.is_legal(Action::SWAP));
    assert!(!legal(&game).contains(&Action::SWAP));
    assert!(matches!(
        play(&mut game, "swap"),
        Err(PlayError::Illegal(_))
    ));
    // White's second move.
    let mut game = Small::new(&spec(6, true, true));
    for token in ["B3", "C3", "D3"] {
        play(&mut game, token).unwrap();
    }
    assert!(!game.is_legal(Action::SWAP));
    // A set-up position has no swap privilege.
    let game: Small = setup(6, &["B3"], &[], Colour::White);
    assert!(!game.is_legal(Action::SWAP));
}

#[test]
fn illegal_moves_change_nothing() {
    let mut game: Small = setup(6, &["B3", "D5"], &["C3", "B4"], Colour::Black);
    let c4 = cell(&game, "C4");
    let attempts = [
        Turn::Stones(
            Stone {
                cell: cell(&game, "B3"),
                colour: Colour::Black,
            },
            None,
        ),
        Turn::Stones(
            Stone {
                cell: c4,
                colour: Colour::White,
            },
            None,
        ),
        Turn::Stones(
            Stone {
                cell: cell(&game, "BC34"),
                colour: Colour::Black,
            },
            None,
        ),
        Turn::Stones(
            Stone {
                cell: c4,
                colour: Colour::Black,
            },
            Some(Stone {
                cell: cell(&game, "E5"),
                colour: Colour::Black,
            }),
        ),
        Turn::Pass,
        Turn::Swap,
        Turn::Resign,
    ];
    let before = stones(&game);
    for turn in attempts {
        assert!(game.play_turn(&turn).is_err(), "{turn:?}");
        assert_eq!(stones(&game), before);
        assert_eq!(game.to_move(), Colour::Black);
        assert_eq!(game.turns_played(), 0);
        game.check_consistency().unwrap();
    }
    assert_eq!(
        game.play_turn(&Turn::Stones(
            Stone {
                cell: cell(&game, "D5"),
                colour: Colour::Black
            },
            None
        )),
        Err(PlayError::Occupied(cell(&game, "D5")))
    );
    assert!(Turn::parse("W:C4", GameKind::Onyx, game.topology(), Colour::Black).is_err());
    play(&mut game, "B:C4").unwrap();
    assert_eq!(game.to_move(), Colour::White);
}

/// Plays random games move by move, checking the incremental state against a
/// recount after every move and the legal move list against `is_legal`.
fn random_games<const W: usize>(n: usize, games: usize, seed: u64) {
    let mut rng = Rng::seeded(seed);
    let every_action = |g: &OnyxGame<W>| {
        let topo = g.topology();
        let stones = topo
            .cells()
            .iter()
            .flat_map(|&c| Colour::BOTH.map(|colour| Action::stone(c, colour)));
        stones
            .chain([Action::SWAP, Action::PASS, Action::END_TURN])
            .collect::<Vec<_>>()
    };
    for i in 0..games {
        let mut game = OnyxGame::<W>::new(&spec(n, i % 2 == 0, i % 3 != 0));
        let cap = 4 * game.topology().cell_count();
        let mut fixed = Vec::new();
        while !game.is_over() {
            assert!(
                game.turns_played() < cap as u32,
                "size {n}: a game too long"
            );
            let actions = legal(&game);
            if i % 10 == 0 {
                let expected: Vec<Action> = every_action(&game)
                    .into_iter()
                    .filter(|&a| game.is_legal(a))
                    .collect();
                let mut listed = actions.clone();
                listed.sort();
                let mut expected_sorted = expected;
                expected_sorted.sort();
                assert_eq!(listed, expected_sorted);
            }
            let action = actions[rng.next_u64() as usize % actions.len()];
            let mover = game.to_move();
            let before = game.clone();
            game.apply(action);
            game.check_consistency()
                .unwrap_or_else(|e| panic!("size {n} game {i}: {e}"));
            // Only opponent stones on squares' side corners ever disappear.
            for &c in game.topology().cells() {
                if let Some(colour) = before.stone_at(c)
                    && game.stone_at(c).is_none()
                    && action != Action::SWAP
                {
                    assert_eq!(colour, mover.opposite());
                    assert!(!game.topology().squares_of(c).is_empty());
                }
            }
            // Stones on board corners and midpoints are permanent (but for
            // Black's first stone, which White may swap).
            if action.is_stone()
                && game.topology().squares_of(action.cell()).is_empty()
                && game.turns_played() >= 2
            {
                fixed.push(action.cell());
            }
            assert!(fixed.iter().all(|&c| game.stone_at(c).is_some()));
            if game.is_over() {
                assert_eq!(game.winner(), Some(mover));
            }
        }
    }
}

fn random_games_any_width(n: usize, games: usize, seed: u64) {
    let bits = spec(n, true, true).topology().bits;
    match width_for(bits) {
        2 => random_games::<2>(n, games, seed),
        4 => random_games::<4>(n, games, seed),
        _ => random_games::<10>(n, games, seed),
    }
}

// About 2000 games in all, split so that the test threads share them.
#[test]
fn random_games_small_boards() {
    for n in 4..=8 {
        random_games_any_width(n, 300, n as u64);
    }
}

#[test]
fn random_games_medium_boards() {
    for n in 9..=10 {
        random_games_any_width(n, 125, n as u64);
    }
}

#[test]
fn random_games_large_boards() {
    for n in 11..=13 {
        random_games_any_width(n, 80, n as u64);
    }
    random_games_any_width(20, 3, 20);
}

#[test]
fn playouts_end_with_the_winner() {
    fn check<const W: usize>(n: usize, open: bool, seed: u64) {
        let mut rng = Rng::seeded(seed);
        let start = OnyxGame::<W>::new(&spec(n, open, true));
        for _ in 0..50 {
            let mut game = start.clone();
            let winner = game.playout(&mut rng);
            game.check_consistency().unwrap();
            // The length cap is far away on these boards.
            assert_eq!(game.winner(), Some(winner));
        }
    }
    check::<2>(4, true, 1);
    check::<2>(8, false, 2);
    check::<4>(12, false, 3);
    check::<4>(13, true, 4);
    check::<10>(20, false, 5);
}

/// The stones of a position mapped by a board symmetry, with or without the
/// colour swap.
fn mapped_stones<G: Game>(game: &G, map: &[Cell], swap_colours: bool) -> Vec<Stone> {
    let topo = game.topology();
    topo.cells()
        .iter()
        .filter_map(|&c| {
            game.stone_at(c).map(|colour| Stone {
                cell: map[c.index()],
                colour: if swap_colours {
                    colour.opposite()
                } else {
                    colour
                },
            })
        })
        .collect()
}

#[test]
fn perft_is_invariant_under_goal_preserving_symmetries() {
    fn check<const W: usize>(n: usize) {
        let spec = spec(n, true, true);
        let mut rng = Rng::seeded(n as u64);
        let mut positions = 0;
        while positions < 4 {
            let mut game = OnyxGame::<W>::new(&spec);
            for _ in 0..(10 + 5 * positions) {
                if game.is_over() {
                    break;
                }
                let actions = legal(&game);
                game.apply(actions[rng.next_u64() as usize % actions.len()]);
            }
            if game.is_over() {
                continue;
            }
            positions += 1;
            let identity = &game.topology().symmetries()[0];
            let here = OnyxGame::<W>::from_setup(
                &spec,
                &mapped_stones(&game, identity, false),
                game.to_move(),
            )
            .unwrap();
            let expected = perft(&here, 2);
            // The 180 degree turn keeps both goals.
            let turned = &game.topology().symmetries()[2];
            let rotated = OnyxGame::<W>::from_setup(
                &spec,
                &mapped_stones(&game, turned, false),
                game.to_move(),
            )
            .unwrap();
            assert_eq!(perft(&rotated, 2), expected, "size {n}");
            // The transpose swaps the goals, so it goes with a colour swap.
            let transpose = &game.topology().symmetries()[1];
            let swapped = OnyxGame::<W>::from_setup(
                &spec,
                &mapped_stones(&game, transpose, true),
                game.to_move().opposite(),
            )
            .unwrap();
            assert_eq!(perft(&swapped, 2), expected, "size {n}");
        }
    }
    check::<2>(6);
    check::<2>(8);
    check::<4>(12);
}

#[test]
fn setup_rejects_duplicates_and_off_board_points() {
    let spec = spec(6, true, true);
    let a1 = Stone {
        cell: Cell(0),
        colour: Colour::Black,
    };
    let again = Stone {
        colour: Colour::White,
        ..a1
    };
    assert!(Small::from_setup(&spec, &[a1, again], Colour::White).is_err());
    let off = Stone {
        cell: Cell(1000),
        colour: Colour::Black,
    };
    assert!(Small::from_setup(&spec, &[off], Colour::White).is_err());
}

#[test]
fn large_board_games() {
    let game = Large::new(&spec(20, false, true));
    assert_eq!(game.group_counts(), [2, 2]);
    assert_eq!(perft(&game, 1), 580 - 8 - 4);
}
