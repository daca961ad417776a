//! Round robins: groups by rating, every game of a group, first moves balanced.

use std::collections::BTreeMap;

use proptest::prelude::*;

use crate::tournaments::round_robin::{games, groups};

use super::*;

/// Ten entrants in groups of about four: three groups (4, 3, 3), the best rated together.
#[test]
fn groups_are_formed_by_rating() {
    let by_rating: Vec<Entrant> = (1..=10).collect();
    assert_eq!(
        groups(&by_rating, 4, 3),
        vec![vec![1, 2, 3, 4], vec![5, 6, 7], vec![8, 9, 10]]
    );
    // Five in groups of four, at least three: one group of five rather than a group of one.
    assert_eq!(groups(&by_rating[..5], 4, 3), vec![vec![1, 2, 3, 4, 5]]);
}

/// A group of four at tables of three plays every three of them once; a group of exactly three
/// plays three games, each moving first once.
#[test]
fn groups_at_larger_tables() {
    let four = games(&[1, 2, 3, 4], 3);
    assert_eq!(four.len(), 4);
    let three = games(&[1, 2, 3], 3);
    assert_eq!(three, vec![vec![1, 2, 3], vec![2, 3, 1], vec![3, 1, 2]]);
}

proptest! {
    /// Two seats: every pair of a group meets exactly once, and nobody's first moves and later
    /// moves differ by more than one.
    #[test]
    fn every_pair_meets_once_with_first_moves_balanced(n in 2usize..=12) {
        let group: Vec<Entrant> = (1..=n as i64).collect();
        let all = games(&group, 2);
        prop_assert_eq!(all.len(), n * (n - 1) / 2);
        let mut met = std::collections::BTreeSet::new();
        let mut balance: BTreeMap<Entrant, i64> = BTreeMap::new();
        for game in &all {
            let pair = (game[0].min(game[1]), game[0].max(game[1]));
            prop_assert!(met.insert(pair), "{:?} twice", pair);
            *balance.entry(game[0]).or_default() += 1;
            *balance.entry(game[1]).or_default() -= 1;
        }
        prop_assert!(balance.values().all(|b| b.abs() <= 1), "{:?}", balance);
    }
}
