//! Tournaments by example: given results, when the rules run, then these standings and rounds;
//! and, over random events, the properties the pairing promises.

mod ladder;
mod round_robin;
mod standings;
mod swiss_tables;
mod swiss_two;

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::history::{histories, History};
use super::swiss::next_round;
use super::{Bye, Entrant, Played, Points, Round, Scoring};

/// A game of two: `first` moved first; `result` is the first's points (1, ½ or 0).
fn duel(round: u32, first: Entrant, second: Entrant, result: f64) -> Played {
    let places = match result {
        r if r > 0.75 => vec![1, 2],
        r if r < 0.25 => vec![2, 1],
        _ => vec![1, 1],
    };
    Played {
        round,
        seats: vec![first, second],
        places,
    }
}

/// A Swiss played out by chance: `rounds` rounds of `n` entrants at tables of `size`, each
/// game's places drawn from `seed`; after each round's pairing, `check` sees the histories it
/// was made from and the round.
fn play_swiss(
    n: usize,
    size: u8,
    rounds: u32,
    seed: u64,
    mut check: impl FnMut(&[History], &[Entrant], &Round),
) -> (Vec<Played>, Vec<Bye>) {
    let entrants: Vec<Entrant> = (1..=n as i64).collect();
    let scoring = Scoring::standard(size);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut played, mut byes) = (vec![], vec![]);
    for round in 1..=rounds {
        let players = histories(&entrants, &played, &byes, &scoring);
        let standing = standing_order(&entrants, &played, &byes, &scoring, size);
        let next = next_round(&players, &standing, size, seed);
        check(&players, &standing, &next);
        for table in &next.tables {
            let places = random_places(&mut rng, table.len());
            played.push(Played {
                round,
                seats: table.clone(),
                places,
            });
        }
        for &entrant in &next.byes {
            byes.push(Bye {
                round,
                entrant,
                points: scoring.bye,
                full: true,
            });
        }
    }
    (played, byes)
}

/// The entrants in the standings' order, the leader first.
fn standing_order(
    entrants: &[Entrant],
    played: &[Played],
    byes: &[Bye],
    scoring: &Scoring,
    size: u8,
) -> Vec<Entrant> {
    crate::tournaments::standings::standings(entrants, played, byes, scoring, size)
        .into_iter()
        .map(|s| s.entrant)
        .collect()
}

/// Places for a table of `n` in a random order, now and then two sharing one.
fn random_places(rng: &mut ChaCha8Rng, n: usize) -> Vec<u8> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.next_u32() as usize % (i + 1));
    }
    let mut places = vec![0u8; n];
    for (k, &seat) in order.iter().enumerate() {
        places[seat] = if k > 0 && rng.next_u32().is_multiple_of(5) {
            places[order[k - 1]]
        } else {
            k as u8 + 1
        };
    }
    places
}

/// Everyone is dealt once: at one table or with a bye.
fn assert_everyone_once(players: &[History], round: &Round) {
    let mut dealt: Vec<Entrant> = round.tables.iter().flatten().copied().collect();
    dealt.extend(&round.byes);
    dealt.sort();
    let mut all: Vec<Entrant> = players.iter().map(|p| p.entrant).collect();
    all.sort();
    assert_eq!(dealt, all, "{round:?}");
}

fn points(value: f64) -> Points {
    Points::from_f64(value)
}
