//! Criterion benches of the exact solver: whole solves of fixed small
//! positions with a fresh table, so that node counts and speed are kept,
//! and retrograde tables of whole small boards.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use oddity_rules::{AnyGame, GameKind, GameRecord, GameSpec, Rules};
use oddity_solver::{SolveLimits, Solver, SolverParams, solve_retrograde};

fn position(kind: GameKind, size: usize, moves: &[&str]) -> oddity_rules::AnyGame {
    let spec = GameSpec::new(kind, size, Rules::default()).unwrap();
    GameRecord::replay(AnyGame::new(&spec), moves)
        .unwrap()
        .position()
        .clone()
}

fn solves(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    let cases = [
        ("xodd3-start", position(GameKind::Xodd, 3, &[])),
        ("yodd2-start", position(GameKind::Yodd, 2, &[])),
        (
            "odd3-8-turns",
            position(
                GameKind::Odd,
                3,
                &[
                    "B:C3", "W:B1", "B:D4", "W:E5", "B:A1", "W:C1", "B:E3", "W:A2",
                ],
            ),
        ),
        ("onyx4-standard", position(GameKind::Onyx, 4, &[])),
    ];
    for (name, game) in cases {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut solver = Solver::new(SolverParams {
                    memory_mb: 16,
                    ..SolverParams::default()
                });
                let s = solver.solve(
                    &game,
                    false,
                    &SolveLimits::default(),
                    &AtomicBool::new(false),
                    None,
                );
                black_box(s.value)
            })
        });
    }
}

/// Retrograde tables of whole boards: every position valued.
fn tables(c: &mut Criterion) {
    let mut group = c.benchmark_group("retrograde");
    group.sample_size(10);
    for (name, kind, size) in [
        ("xodd3", GameKind::Xodd, 3),
        ("yodd2", GameKind::Yodd, 2),
        ("xodd4", GameKind::Xodd, 4),
    ] {
        let game = position(kind, size, &[]);
        group.bench_function(name, |b| {
            b.iter(|| black_box(solve_retrograde(&game, 64).unwrap().0.value))
        });
    }
}

criterion_group!(benches, solves, tables);
criterion_main!(benches);
