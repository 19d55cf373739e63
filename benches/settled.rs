//! Odd's settled cells ([`OddGame::settled_cells`]) on positions of Odd 5
//! drawn by random play, with 40, 30 and 20 empty points.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use oddity_rules::{Game, GameKind, GameSpec, OddGame, Rng};

fn settled(c: &mut Criterion) {
    let spec = GameSpec::default_for(GameKind::Odd);
    let mut rng = Rng::seeded(1);
    for empty in [40, 30, 20] {
        let positions: Vec<OddGame<2>> = (0..64)
            .map(|_| {
                let mut g = OddGame::<2>::new(&spec);
                let mut actions = Vec::new();
                while g.topology().cell_count() - g.turns_played() as usize > empty {
                    actions.clear();
                    g.legal_actions(&mut actions);
                    g.apply(actions[rng.below(actions.len() as u32) as usize]);
                }
                g
            })
            .collect();
        let mut k = 0;
        c.bench_function(&format!("settled_cells/odd5-{empty}-empty"), |b| {
            b.iter(|| {
                k = (k + 1) % positions.len();
                black_box(positions[k].settled_cells())
            })
        });
    }
}

criterion_group!(benches, settled);
criterion_main!(benches);
