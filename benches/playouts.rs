//! Uniformly random playouts from the start, one per iteration.

use criterion::{Criterion, criterion_group, criterion_main};

use oddity_rules::{AnyGame, Game, GameKind, GameSpec, Rng, Rules, with_game};

fn playouts(c: &mut Criterion) {
    let boards = [
        (GameKind::Xodd, 12),
        (GameKind::Yodd, 8),
        (GameKind::Odd, 5),
        (GameKind::Odd, 7),
        (GameKind::Onyx, 12),
    ];
    for (kind, size) in boards {
        let spec = GameSpec::new(kind, size, Rules::default()).unwrap();
        let start = AnyGame::new(&spec);
        let mut rng = Rng::seeded(1);
        with_game!(&start, g => {
            c.bench_function(&format!("playout {kind} {size}"), |b| {
                b.iter(|| g.clone().playout(&mut rng))
            });
        });
    }
}

criterion_group!(benches, playouts);
criterion_main!(benches);
