//! Swiss at three and four seats: tables of close standing with the fewest repeat table-mates,
//! checked against every way to sit the players (brute force) on small events, and against every
//! swap of two players on larger ones.

use proptest::prelude::*;

use super::*;

/// Repeat meetings at a round's tables (each pair once per earlier meeting), and the sum over
/// tables of the squared differences in points between table-mates.
fn repeats_and_spread(players: &[History], tables: &[Vec<Entrant>]) -> (u32, i128) {
    let by_id = |e: Entrant| players.iter().find(|p| p.entrant == e).unwrap();
    let mut cost = (0, 0);
    for table in tables {
        for (i, &a) in table.iter().enumerate() {
            for &b in &table[i + 1..] {
                cost.0 += by_id(a).times_met(b);
                cost.1 += i128::from(by_id(a).points.0 - by_id(b).points.0).pow(2);
            }
        }
    }
    cost
}

/// Every way to sit `left` at tables of `size`, by brute force.
fn every_seating(
    left: &[Entrant],
    size: usize,
    tables: &mut Vec<Vec<Entrant>>,
    out: &mut Vec<Vec<Vec<Entrant>>>,
) {
    let Some((&lead, rest)) = left.split_first() else {
        out.push(tables.clone());
        return;
    };
    let indexes: Vec<usize> = (0..rest.len()).collect();
    for chosen in crate::tournaments::tables::combinations(&indexes, size - 1) {
        let mut table = vec![lead];
        table.extend(chosen.iter().map(|&i| rest[i]));
        let others: Vec<Entrant> = (0..rest.len())
            .filter(|i| !chosen.contains(i))
            .map(|i| rest[i])
            .collect();
        tables.push(table);
        every_seating(&others, size, tables, out);
        tables.pop();
    }
}

/// The byes go to those with the fewest byes, of them the lowest standing (`standing`: the
/// standings' order, tie-breaks included).
fn assert_byes_fair(players: &[History], standing: &[Entrant], round: &Round) {
    let byes_of = |e: &Entrant| players.iter().find(|p| p.entrant == *e).unwrap().byes;
    let place = |e: &Entrant| standing.iter().position(|s| s == e).unwrap();
    for given in &round.byes {
        for seated in round.tables.iter().flatten() {
            let (b, s) = (byes_of(given), byes_of(seated));
            assert!(
                b <= s,
                "a bye to {given} with {b} while {seated} with {s} plays"
            );
            if b == s {
                assert!(
                    place(seated) < place(given),
                    "{given} sits out standing above {seated} ({standing:?})"
                );
            }
        }
    }
}

/// Nine players at tables of three, first round: three tables of neighbours in seed order.
#[test]
fn round_one_seats_neighbours_in_seed_order() {
    let entrants: Vec<Entrant> = (1..=9).collect();
    let players = histories(&entrants, &[], &[], &Scoring::standard(3));
    let round = next_round(&players, &entrants, 3, 0);
    let mut tables: Vec<Vec<Entrant>> = round.tables.clone();
    for t in &mut tables {
        t.sort();
    }
    assert_eq!(tables, vec![vec![1, 2, 3], vec![4, 5, 6], vec![7, 8, 9]]);
    assert!(round.byes.is_empty());
    // Ten at tables of four: two byes, to the two lowest seeds.
    let entrants: Vec<Entrant> = (1..=10).collect();
    let players = histories(&entrants, &[], &[], &Scoring::standard(4));
    let round = next_round(&players, &entrants, 4, 0);
    let mut byes = round.byes.clone();
    byes.sort();
    assert_eq!(byes, vec![9, 10]);
}

/// After a round, a table's first mover moves later: who moved first least leads.
#[test]
fn who_moved_first_least_leads() {
    let entrants: Vec<Entrant> = (1..=3).collect();
    let played = [Played {
        round: 1,
        seats: vec![1, 2, 3],
        places: vec![1, 2, 3],
    }];
    let players = histories(&entrants, &played, &[], &Scoring::standard(3));
    let round = next_round(&players, &entrants, 3, 0);
    assert_eq!(round.tables.len(), 1);
    assert_ne!(round.tables[0][0], 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Small events (6 to 13 players, tables of 3 or 4, up to 4 rounds): each round has no more
    /// repeat table-mates than the fewest any seating has, and among those, the closest points.
    #[test]
    fn small_rounds_have_the_fewest_repeats(n in 6usize..=13, four in any::<bool>(), rounds in 1u32..=4, seed in any::<u64>()) {
        let size: u8 = if four { 4 } else { 3 };
        play_swiss(n, size, rounds, seed, |players, standing, round| {
            assert_everyone_once(players, round);
            assert_byes_fair(players, standing, round);
            let seated: Vec<Entrant> = round.tables.iter().flatten().copied().collect();
            let mut all = vec![];
            every_seating(&seated, usize::from(size), &mut vec![], &mut all);
            let best = all.iter().map(|t| repeats_and_spread(players, t)).min().unwrap();
            assert_eq!(repeats_and_spread(players, &round.tables), best, "{round:?}");
        });
    }

    /// Larger events (14 to 22 players): no swap of two players between tables makes the round
    /// better.
    #[test]
    fn larger_rounds_cannot_be_bettered_by_one_swap(n in 14usize..=22, four in any::<bool>(), rounds in 1u32..=4, seed in any::<u64>()) {
        let size: u8 = if four { 4 } else { 3 };
        play_swiss(n, size, rounds, seed, |players, standing, round| {
            assert_everyone_once(players, round);
            assert_byes_fair(players, standing, round);
            let ours = repeats_and_spread(players, &round.tables);
            for x in 0..round.tables.len() {
                for y in x + 1..round.tables.len() {
                    for i in 0..usize::from(size) {
                        for j in 0..usize::from(size) {
                            let mut swapped = round.tables.clone();
                            let (a, b) = (swapped[x][i], swapped[y][j]);
                            swapped[x][i] = b;
                            swapped[y][j] = a;
                            assert!(repeats_and_spread(players, &swapped) >= ours);
                        }
                    }
                }
            }
        });
    }
}
