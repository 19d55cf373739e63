//! Criterion benches of the search: selection in a grown tree, and a full
//! one-thread search of a fixed number of iterations.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use oddity::rules::game::{Game, GameSpec};
use oddity::rules::kind::GameKind;
use oddity::rules::odd::OddGame;
use oddity::rules::parity::ParityGame;
use oddity::search::{Limits, SearchParams, Searcher, StopFlag};

fn params() -> SearchParams {
    SearchParams {
        threads: 1,
        seed: 1,
        memory_mb: 256,
        ..SearchParams::default()
    }
}

fn visits(n: u64) -> Limits {
    Limits {
        visits: Some(n),
        ..Limits::default()
    }
}

fn grown<G: Game>(game: G, n: u64) -> Searcher<G> {
    let p = params();
    let mut s = Searcher::new(game, &p);
    s.search(&p, &visits(n), &StopFlag::new());
    s
}

fn selection(c: &mut Criterion) {
    let odd5 = grown(
        OddGame::<2>::new(&GameSpec::default_for(GameKind::Odd)),
        200_000,
    );
    c.bench_function("select/odd5-200k", |b| {
        b.iter(|| black_box(odd5.selection_walk()))
    });
    let xodd12 = grown(
        ParityGame::<4>::new(&GameSpec::default_for(GameKind::Xodd)),
        20_000,
    );
    c.bench_function("select/xodd12-20k", |b| {
        b.iter(|| black_box(xodd12.selection_walk()))
    });
}

fn full_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let p = params();
    group.bench_function("odd5-20k-iterations", |b| {
        b.iter(|| {
            let game = OddGame::<2>::new(&GameSpec::default_for(GameKind::Odd));
            let mut s = Searcher::new(game, &p);
            black_box(s.search(&p, &visits(20_000), &StopFlag::new()).best)
        })
    });
    group.bench_function("xodd12-2k-iterations", |b| {
        b.iter(|| {
            let game = ParityGame::<4>::new(&GameSpec::default_for(GameKind::Xodd));
            let mut s = Searcher::new(game, &p);
            black_box(s.search(&p, &visits(2_000), &StopFlag::new()).best)
        })
    });
    group.finish();
}

criterion_group!(benches, selection, full_search);
criterion_main!(benches);
