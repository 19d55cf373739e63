//! The board network's priors for a mid-game position (half the board
//! filled at random): the features, the evaluation and the softmax over
//! the legal stones, what one node's priors cost with `board_net`, at the
//! shapes `oddity train-net` fits; beside one uniformly random playout
//! from the same position.

use criterion::{Criterion, criterion_group, criterion_main};

use oddity_patterns::{BoardGraph, BoardNet, BoardTrace, board_priors};
use oddity_rules::{AnyGame, Game, GameKind, GameSpec, Rng, Rules, with_game};

fn board_net(c: &mut Criterion) {
    for (kind, size) in [(GameKind::Odd, 5), (GameKind::Onyx, 12)] {
        let spec = GameSpec::new(kind, size, Rules::default()).unwrap();
        let start = AnyGame::new(&spec);
        let mut rng = Rng::seeded(1);
        with_game!(&start, g => {
            let mut game = g.clone();
            let cells = game.topology().cell_count();
            let mut actions = Vec::new();
            while !game.is_over() && (game.turns_played() as usize) < cells / 2 {
                actions.clear();
                game.legal_actions(&mut actions);
                game.apply(actions[rng.below(actions.len() as u32) as usize]);
            }
            actions.clear();
            game.legal_actions(&mut actions);
            let graph = BoardGraph::new(game.topology());
            for (channels, blocks) in [(16, 3), (32, 4)] {
                let net = BoardNet::random(
                    kind,
                    size,
                    &spec.rules_text(),
                    cells,
                    channels,
                    blocks,
                    &mut Rng::seeded(2),
                );
                let (mut x, mut trace, mut out) = (Vec::new(), BoardTrace::default(), Vec::new());
                c.bench_function(
                    &format!("board net priors {kind} {size} channels {channels} blocks {blocks}"),
                    |b| {
                        b.iter(|| {
                            board_priors(&net, &graph, &game, &actions, &mut x, &mut trace, &mut out)
                        })
                    },
                );
            }
            c.bench_function(&format!("playout from mid-game {kind} {size}"), |b| {
                b.iter(|| game.clone().playout(&mut rng))
            });
        });
    }
}

criterion_group!(benches, board_net);
criterion_main!(benches);
