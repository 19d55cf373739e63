//! Odd playouts whose last cells are played perfectly
//! ([`OddGame::playout_ending_exactly`]): the perfect ending agrees with a
//! plain minimax over the rules, and a playout ends on a full board whose
//! winner is the one it returns, or is the random playout itself when no
//! cell is left to play perfectly.

use oddity_rules::{Colour, Game, GameKind, GameSpec, MAX_EXACT_ENDING, OddGame, Rng, Rules};

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
        odd(3, None),
        odd(4, None),
        odd(5, None),
        odd(5, Some(2)),
        odd(5, Some(1)),
        odd(7, None),
    ]
}

/// A position of a random game of `spec` with `empty` empty cells.
fn position(spec: &GameSpec, empty: usize, rng: &mut Rng) -> Odd {
    let mut g = Odd::new(spec);
    let mut actions = Vec::new();
    while g.topology().cell_count() - stones(&g) > empty {
        actions.clear();
        g.legal_actions(&mut actions);
        g.apply(actions[rng.below(actions.len() as u32) as usize]);
    }
    g
}

fn stones(g: &Odd) -> usize {
    Colour::BOTH
        .iter()
        .map(|&c| {
            g.stone_words(c)
                .iter()
                .map(|w| w.count_ones() as usize)
                .sum::<usize>()
        })
        .sum()
}

/// The winner with perfect play, by minimax over the rules.
fn minimax(g: &Odd) -> Colour {
    if let Some(w) = g.winner() {
        return w;
    }
    let mover = g.to_move();
    let mut actions = Vec::new();
    g.legal_actions(&mut actions);
    let wins = actions.iter().any(|&a| {
        let mut next = g.clone();
        next.apply(a);
        minimax(&next) == mover
    });
    if wins { mover } else { mover.opposite() }
}

#[test]
fn the_perfect_ending_agrees_with_minimax() {
    let mut rng = Rng::seeded(3);
    let mut winners = [0; 2];
    for spec in specs() {
        for empty in 0..=MAX_EXACT_ENDING as usize {
            for _ in 0..40 {
                let g = position(&spec, empty, &mut rng);
                let expected = minimax(&g);
                let mut played = g.clone();
                let winner = played.end_exactly();
                assert_eq!(winner, expected, "{} {empty}", spec.title());
                assert!(played.is_over());
                assert_eq!(played.winner(), Some(winner));
                winners[winner.index()] += 1;
            }
        }
    }
    assert!(winners.iter().all(|&n| n > 100), "{winners:?}");
}

#[test]
fn playouts_end_full_with_the_winner_they_return() {
    let mut rng = Rng::seeded(5);
    for spec in specs() {
        for empty in [0, 1, 2, 5, 12] {
            for k in 0..=MAX_EXACT_ENDING + 1 {
                let g = position(&spec, empty, &mut rng);
                let mut end = g.clone();
                let winner = end.playout_ending_exactly(&mut rng, k);
                assert!(end.is_over());
                assert_eq!(end.winner(), Some(winner));
                assert_eq!(
                    end.turns_played() as usize,
                    g.turns_played() as usize + empty
                );
                // The position's stones stay.
                for &c in g.topology().cells() {
                    if let Some(s) = g.stone_at(c) {
                        assert_eq!(end.stone_at(c), Some(s));
                    }
                }
            }
        }
    }
}

/// Where no cell is left to play perfectly (`k` 0, or 1 when an even
/// number of cells is empty) the playout is the random one, draw for draw.
#[test]
fn with_nothing_to_play_perfectly_the_playout_is_the_random_one() {
    let mut rng = Rng::seeded(8);
    for spec in specs() {
        for (empty, k) in [(10, 0), (10, 1), (7, 0)] {
            let g = position(&spec, empty, &mut rng);
            let (mut a, mut b) = (g.clone(), g.clone());
            let (mut ra, mut rb) = (Rng::seeded(11), Rng::seeded(11));
            assert_eq!(
                a.playout_ending_exactly(&mut ra, k),
                b.playout(&mut rb),
                "{empty} {k}"
            );
            for &c in g.topology().cells() {
                assert_eq!(a.stone_at(c), b.stone_at(c));
            }
        }
    }
}
