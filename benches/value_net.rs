//! The value network's evaluation of a mid-game position (half the board
//! filled at random), against one uniformly random playout from the same
//! position: what a leaf costs with `value_net` and without.

use criterion::{Criterion, criterion_group, criterion_main};

use oddity_patterns::ValueNet;
use oddity_rules::{AnyGame, Game, GameKind, GameSpec, Rng, Rules, with_game};

fn value_net(c: &mut Criterion) {
    for (kind, size) in [(GameKind::Odd, 5), (GameKind::Onyx, 12)] {
        let spec = GameSpec::new(kind, size, Rules::default()).unwrap();
        let start = AnyGame::new(&spec);
        let mut rng = Rng::seeded(1);
        with_game!(&start, g => {
            let mut game = g.clone();
            let cells = oddity_patterns::cell_slots(game.topology());
            let mut actions = Vec::new();
            while !game.is_over() && (game.turns_played() as usize) < cells / 2 {
                actions.clear();
                game.legal_actions(&mut actions);
                game.apply(actions[rng.below(actions.len() as u32) as usize]);
            }
            for hidden in [16, 32, 64] {
                let net = ValueNet::random(
                    kind,
                    size,
                    &spec.rules_text(),
                    cells,
                    hidden,
                    &mut Rng::seeded(2),
                );
                c.bench_function(&format!("value net {kind} {size} hidden {hidden}"), |b| {
                    b.iter(|| net.black_wins(&game))
                });
            }
            c.bench_function(&format!("playout from mid-game {kind} {size}"), |b| {
                b.iter(|| game.clone().playout(&mut rng))
            });
        });
    }
}

criterion_group!(benches, value_net);
criterion_main!(benches);
