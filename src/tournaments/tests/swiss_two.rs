//! Swiss at two seats: the first round by example, and over random events, the promises (no
//! repeat opponent while another way exists, fair byes, score groups kept) against every possible
//! pairing, counted by brute force.

use proptest::prelude::*;

use super::*;

/// Round one: the top half meets the bottom half, the first board's top seed moves first or not
/// as the event's seed says, then boards alternate.
#[test]
fn round_one_pairs_the_top_half_with_the_bottom_half() {
    let entrants: Vec<Entrant> = (1..=8).collect();
    let players = histories(&entrants, &[], &[], &Scoring::standard(2));
    let round = next_round(&players, &entrants, 2, 0);
    assert_eq!(
        round.tables,
        vec![vec![1, 5], vec![6, 2], vec![3, 7], vec![8, 4]]
    );
    assert!(round.byes.is_empty());
    let other = next_round(&players, &entrants, 2, 1);
    assert_eq!(
        other.tables[0],
        vec![5, 1],
        "the seed decides the first board"
    );
    assert_eq!(next_round(&players, &entrants, 2, 1), other, "reproducible");
}

/// An odd number: the lowest seed of the lowest score sits out; next round, the bye is not
/// given to it again, winners meet winners, and who moved later moves first.
#[test]
fn the_bye_goes_to_the_lowest_and_never_twice_while_others_had_none() {
    let entrants: Vec<Entrant> = (1..=5).collect();
    let scoring = Scoring::standard(2);
    let players = histories(&entrants, &[], &[], &scoring);
    let first = next_round(&players, &entrants, 2, 0);
    assert_eq!(first.byes, vec![5]);
    // 1 and 2 win, 5 has its bye point: three on 1 point, two on none.
    let played = [duel(1, 1, 3, 1.0), duel(1, 4, 2, 0.0)];
    let byes = [Bye {
        round: 1,
        entrant: 5,
        points: Points::ONE,
        full: true,
    }];
    let players = histories(&entrants, &played, &byes, &scoring);
    let standing = standing_order(&entrants, &played, &byes, &scoring, 2);
    let second = next_round(&players, &standing, 2, 0);
    assert_eq!(
        second.byes,
        vec![4],
        "the lowest on no points, never 5 again"
    );
    // 1 and 2 meet, 2 moving first (it moved later last time, 1 moved first); 3 meets 5.
    assert_eq!(second.tables, vec![vec![2, 1], vec![3, 5]]);
}

/// What a pairing costs by the promises, most important first: unfair byes, repeat meetings, how
/// many had a better claim to the bye than the one who got it (a lower score, or the same score
/// and a lower seed), and the sum of squared differences in points at the tables.
fn promises(players: &[History], round: &Round) -> (u32, u32, usize, i128) {
    let by_id = |e: Entrant| players.iter().find(|p| p.entrant == e).unwrap();
    let fewest = players.iter().map(|p| p.byes).min().unwrap_or(0);
    let claim = |p: &History| (p.points.0, std::cmp::Reverse(p.seed));
    let mut cost = (0, 0, 0, 0);
    for bye in &round.byes {
        let p = by_id(*bye);
        cost.0 += u32::from(p.byes > fewest);
        cost.2 += players.iter().filter(|q| claim(q) < claim(p)).count();
    }
    for table in &round.tables {
        let (a, b) = (by_id(table[0]), by_id(table[1]));
        cost.1 += a.times_met(b.entrant);
        cost.3 += i128::from(a.points.0 - b.points.0).pow(2);
    }
    cost
}

/// Every pairing of the players (with a bye when they are odd), by brute force.
fn every_pairing(left: &[Entrant], bye_taken: bool, round: &mut Round, out: &mut Vec<Round>) {
    let Some((&first, rest)) = left.split_first() else {
        out.push(round.clone());
        return;
    };
    if !bye_taken && left.len() % 2 == 1 {
        round.byes.push(first);
        every_pairing(rest, true, round, out);
        round.byes.pop();
    }
    for (i, &other) in rest.iter().enumerate() {
        let others: Vec<Entrant> = rest
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &e)| e)
            .collect();
        round.tables.push(vec![first, other]);
        every_pairing(&others, bye_taken, round, out);
        round.tables.pop();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Over random events of 3 to 11 players and up to 6 rounds, each round's pairing deals
    /// everyone once and keeps the promises as well as the best possible pairing does: the bye
    /// fair, the fewest repeat opponents, the bye to the lowest score and seed, the score groups
    /// kept.
    #[test]
    fn two_seat_rounds_keep_their_promises(n in 3usize..=11, rounds in 1u32..=6, seed in any::<u64>()) {
        play_swiss(n, 2, rounds, seed, |players, _, round| {
            assert_everyone_once(players, round);
            let ours = promises(players, round);
            let mut all = vec![];
            let ids: Vec<Entrant> = players.iter().map(|p| p.entrant).collect();
            every_pairing(&ids, false, &mut Round::default(), &mut all);
            let best = all.iter().map(|r| promises(players, r)).min().unwrap();
            assert_eq!(ours.0, 0, "a second bye while someone had none: {round:?}");
            assert_eq!(ours, best, "{round:?} for {players:?}");
        });
    }
}
