//! Criterion benches of the search: the hot paths of an iteration in a
//! grown tree (selection, the leaf's playouts with their AMAF recording, the
//! AMAF update along the path), and a full one-thread search of a fixed
//! number of iterations.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use oddity_rules::{Game, GameKind, GameSpec, OddGame, OnyxGame, XoddYoddGame, width_for};
use oddity_search::{Knowledge, Limits, SearchParams, Searcher, StopFlag};

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

fn grown<G: Knowledge>(game: G, n: u64) -> Searcher<G> {
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
        XoddYoddGame::<4>::new(&GameSpec::default_for(GameKind::Xodd)),
        20_000,
    );
    c.bench_function("select/xodd12-20k", |b| {
        b.iter(|| black_box(xodd12.selection_walk()))
    });
}

/// The leaf's playouts inside the search (an Odd leaf plays eight) and the
/// AMAF update that follows them, on the same grown trees as `selection`.
fn iteration_parts(c: &mut Criterion) {
    let odd5 = grown(
        OddGame::<2>::new(&GameSpec::default_for(GameKind::Odd)),
        200_000,
    );
    let spec = GameSpec::default_for(GameKind::Onyx);
    assert_eq!(width_for(spec.topology().bits), 4);
    let onyx12 = grown(OnyxGame::<4>::new(&spec), 20_000);
    let mut w = odd5.bench_worker(1);
    c.bench_function("leaf-playouts/odd5-200k", |b| {
        b.iter(|| black_box(odd5.leaf_walk(&mut w)))
    });
    c.bench_function("amaf-update/odd5-200k", |b| {
        b.iter(|| odd5.amaf_walk(black_box(&mut w)))
    });
    let mut w = onyx12.bench_worker(1);
    c.bench_function("leaf-playouts/onyx12-20k", |b| {
        b.iter(|| black_box(onyx12.leaf_walk(&mut w)))
    });
    onyx12.leaf_walk(&mut w);
    c.bench_function("amaf-update/onyx12-20k", |b| {
        b.iter(|| onyx12.amaf_walk(black_box(&mut w)))
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
            let game = XoddYoddGame::<4>::new(&GameSpec::default_for(GameKind::Xodd));
            let mut s = Searcher::new(game, &p);
            black_box(s.search(&p, &visits(2_000), &StopFlag::new()).best)
        })
    });
    group.finish();
}

criterion_group!(benches, selection, iteration_parts, full_search);
criterion_main!(benches);
