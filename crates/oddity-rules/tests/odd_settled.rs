//! Odd's settled cells ([`OddGame::settled_cells`]) checked by brute force:
//! on small boards and late positions of Odd 5, a settled cell's colour
//! never changes the winner of any completion of the board, a settled cell
//! stays settled, and a minimax that keeps one move on settled cells
//! instead of all finds the same winner as one over every move.

use oddity_rules::{Action, Cell, Colour, Game, GameKind, GameSpec, OddGame, Rng, Rules};

type Odd = OddGame<10>;

fn specs() -> Vec<GameSpec> {
    let odd = |size, m| {
        GameSpec::new(
            GameKind::Odd,
            size,
            Rules {
                min_group: m,
                ..Rules::default()
            },
        )
        .unwrap()
    };
    vec![
        odd(2, None),
        odd(3, None),
        odd(4, None),
        odd(5, None),
        odd(5, Some(3)),
        odd(5, Some(2)),
        odd(5, Some(1)),
    ]
}

/// A position of a random game of `spec` with `empty` empty cells.
fn position(spec: &GameSpec, empty: usize, rng: &mut Rng) -> Odd {
    let mut g = Odd::new(spec);
    let mut actions = Vec::new();
    while empty_cells(&g).len() > empty {
        actions.clear();
        g.legal_actions(&mut actions);
        g.apply(actions[rng.below(actions.len() as u32) as usize]);
    }
    g
}

fn empty_cells(g: &Odd) -> Vec<Cell> {
    g.topology()
        .cells()
        .iter()
        .copied()
        .filter(|&c| g.stone_at(c).is_none())
        .collect()
}

/// The winner once `cells` are coloured by the bits of `white` (bit `j`:
/// cell `j` white).
fn complete(g: &Odd, cells: &[Cell], white: u64) -> Colour {
    let mut full = g.clone();
    for (j, &cell) in cells.iter().enumerate() {
        let colour = if white >> j & 1 == 1 {
            Colour::White
        } else {
            Colour::Black
        };
        full.apply(Action::stone(cell, colour));
    }
    full.winner().expect("a full board")
}

/// Every completion of the other empty cells when they are few, else 300
/// random ones: the settled cell's two colours give the same winner.
fn assert_settled_by_brute_force(g: &Odd, cell: Cell, rng: &mut Rng, title: &str) {
    let others: Vec<Cell> = empty_cells(g).into_iter().filter(|&c| c != cell).collect();
    let colourings: Vec<u64> = if others.len() <= 10 {
        (0..1u64 << others.len()).collect()
    } else {
        (0..300).map(|_| rng.next_u64()).collect()
    };
    for white in colourings {
        let outcomes = Colour::BOTH.map(|c| {
            let mut with = g.clone();
            with.apply(Action::stone(cell, c));
            complete(&with, &others, white)
        });
        assert_eq!(
            outcomes[0], outcomes[1],
            "{title}: cell {} settled, yet its colour decides a completion",
            cell.0
        );
    }
}

#[test]
fn a_settled_cell_never_changes_a_completion() {
    let mut rng = Rng::seeded(21);
    let mut found = 0;
    let mut all_settled = 0;
    for spec in specs() {
        let cells = Odd::new(&spec).topology().cell_count();
        for empty in 1..=cells.min(16) {
            for _ in 0..12 {
                let g = position(&spec, empty, &mut rng);
                let settled = g.settled_cells();
                assert!(settled.iter().all(|c| g.stone_at(Cell(c as u16)).is_none()));
                for c in settled.iter() {
                    assert_settled_by_brute_force(&g, Cell(c as u16), &mut rng, &spec.title());
                    found += 1;
                }
                if g.all_settled() {
                    all_settled += 1;
                }
            }
        }
    }
    // The tests must meet settled cells, and positions where all are.
    assert!(found > 500, "{found} settled cells");
    assert!(all_settled > 20, "{all_settled} positions all settled");
}

#[test]
fn a_settled_cell_stays_settled() {
    let mut rng = Rng::seeded(22);
    for spec in specs() {
        for _ in 0..20 {
            let mut g = Odd::new(&spec);
            let mut actions = Vec::new();
            while !g.is_over() {
                let before = g.settled_cells();
                actions.clear();
                g.legal_actions(&mut actions);
                let a = actions[rng.below(actions.len() as u32) as usize];
                g.apply(a);
                let mut left = before;
                left.clear(a.cell().index());
                assert_eq!(
                    g.settled_cells() & left,
                    left,
                    "{}: a settled cell became unsettled",
                    spec.title()
                );
            }
        }
    }
}

/// The winner with perfect play, by minimax over every move, or, with
/// `prune`, over the moves off settled cells and one on the lowest settled
/// cell.
fn minimax(g: &Odd, prune: bool) -> Colour {
    if let Some(w) = g.winner() {
        return w;
    }
    let mover = g.to_move();
    let mut actions = Vec::new();
    g.legal_actions(&mut actions);
    if prune {
        let settled = g.settled_cells();
        if let Some(keep) = settled.lowest() {
            actions.retain(|a| {
                !settled.get(a.cell().index())
                    || a.cell().index() == keep && a.colour() == Colour::Black
            });
        }
    }
    let wins = actions.iter().any(|&a| {
        let mut next = g.clone();
        next.apply(a);
        minimax(&next, prune) == mover
    });
    if wins { mover } else { mover.opposite() }
}

#[test]
fn one_move_on_settled_cells_keeps_the_value() {
    let mut rng = Rng::seeded(23);
    let mut pruned = 0;
    for spec in specs() {
        for empty in 1..=6 {
            for _ in 0..15 {
                let g = position(&spec, empty, &mut rng);
                if g.settled_cells().count() > 1 {
                    pruned += 1;
                }
                assert_eq!(
                    minimax(&g, true),
                    minimax(&g, false),
                    "{} with {empty} empty cells",
                    spec.title()
                );
            }
        }
    }
    assert!(pruned > 50, "{pruned} positions pruned");
}
