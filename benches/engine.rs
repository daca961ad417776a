//! Full random games per variant: setup, legal-decision listing at every step, and apply.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use keltis::engine::setup::SeedRng;
use keltis::engine::{Game, Variant};

fn play_random(variant: Variant, players: u8, seed: u64) -> u64 {
    let mut game = Game::new(variant, players, seed).expect("valid setup");
    let mut rng = SeedRng::new(seed);
    let mut legal = Vec::with_capacity(64);
    let mut n = 0;
    while let Some(seat) = game.to_act() {
        game.legal_decisions_into(&mut legal);
        let d = legal[rng.below(legal.len() as u64) as usize];
        game.apply(seat, d).expect("listed decisions apply");
        n += 1;
    }
    n
}

fn full_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("full_random_game");
    for (variant, players) in [
        (Variant::Keltis, 2),
        (Variant::Keltis, 4),
        (Variant::NeueWege, 2),
        (Variant::NeueWege, 4),
        (Variant::KeltisCard, 2),
    ] {
        // Decisions per game vary with the seed: report throughput from a fixed sample.
        let sample: u64 = (0..50)
            .map(|s| play_random(variant, players, s))
            .sum::<u64>()
            / 50;
        group.throughput(Throughput::Elements(sample));
        let mut seed = 0;
        group.bench_function(format!("{variant}-{players}p"), |b| {
            b.iter(|| {
                seed += 1;
                play_random(variant, players, seed % 50)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, full_games);
criterion_main!(benches);
