//! Swiss rounds at tables of three or four. Nobody has a published pairing system for these (the
//! big sites seat the leaders together and allow repeats), so the rule here is:
//!
//! 1. When the players do not divide into full tables, the remainder sit out with a bye: those
//!    with the fewest byes, of them the lowest standing (points, then the event's tie-breaks,
//!    then seed: the standings' own order).
//! 2. The others sit at tables with as few repeat table-mates as possible (each pair that has met
//!    before counts once per earlier meeting), and, among the ways with that few, players of the
//!    closest standing together (the least sum of squared differences in points at each table).
//! 3. At a table, who moved first least often moves first (then the better standing).
//!
//! Up to twelve players at tables the search is exhaustive; beyond, it starts from the standings
//! in order and swaps two players of different tables while that makes the round better.

use super::history::History;
use super::swiss::standing_key;
use super::{Entrant, Round};

/// The exhaustive search's limit: 12 players make at most 15,400 ways to sit (at tables of 3).
const EXACT_UP_TO: usize = 12;
/// A repeat weighs more than any difference in points can add up to.
const REPEAT: i128 = 1_000_000_000_000;

pub(super) fn group(players: &[History], standing: &[Entrant], size: usize) -> Round {
    let mut order: Vec<&History> = players.iter().collect();
    order.sort_by_key(|p| standing_key(p));
    let sitting_out = if order.len() < size {
        order.len()
    } else {
        order.len() % size
    };
    // Where each stands (one missing from the standings counts as the lowest).
    let place = |p: &History| {
        standing
            .iter()
            .position(|&e| e == p.entrant)
            .unwrap_or(standing.len())
    };
    let mut by_bye_claim = order.clone();
    // Fewest byes first, then the lowest standing.
    by_bye_claim.sort_by_key(|p| (p.byes, std::cmp::Reverse(place(p))));
    let byes: Vec<i64> = by_bye_claim[..sitting_out]
        .iter()
        .map(|p| p.entrant)
        .collect();
    order.retain(|p| !byes.contains(&p.entrant));
    let tables = if order.len() <= EXACT_UP_TO {
        exact(&order, size)
    } else {
        improved(&order, size)
    };
    let mut tables: Vec<Vec<&History>> = tables
        .into_iter()
        .map(|t| t.into_iter().map(|i| order[i]).collect())
        .collect();
    for table in &mut tables {
        table.sort_by_key(|p| (p.first_move_balance(), standing_key(p)));
    }
    tables.sort_by_key(|t| t.iter().map(|p| standing_key(p)).min());
    Round {
        tables: tables
            .into_iter()
            .map(|t| t.into_iter().map(|p| p.entrant).collect())
            .collect(),
        byes,
    }
}

/// What sitting these players together costs (see the module's comment).
pub(super) fn table_cost(players: &[&History]) -> i128 {
    let mut cost = 0;
    for (i, a) in players.iter().enumerate() {
        for b in &players[i + 1..] {
            let apart = i128::from(a.points.0 - b.points.0);
            cost += REPEAT * i128::from(a.times_met(b.entrant)) + apart * apart;
        }
    }
    cost
}

fn cost_of(order: &[&History], table: &[usize]) -> i128 {
    let players: Vec<&History> = table.iter().map(|&i| order[i]).collect();
    table_cost(&players)
}

/// Every way to sit the players (indexes into `order`), the first best one found; the leader of
/// what is left always takes the next table, so each way is tried once.
fn exact(order: &[&History], size: usize) -> Vec<Vec<usize>> {
    struct Search<'a> {
        order: &'a [&'a History],
        size: usize,
        best: Option<(i128, Vec<Vec<usize>>)>,
    }
    impl Search<'_> {
        fn go(&mut self, left: &[usize], tables: &mut Vec<Vec<usize>>, cost: i128) {
            if self.best.as_ref().is_some_and(|(b, _)| cost >= *b) {
                return;
            }
            let Some((&lead, rest)) = left.split_first() else {
                self.best = Some((cost, tables.clone()));
                return;
            };
            for mates in combinations(rest, self.size - 1) {
                let mut table = vec![lead];
                table.extend(&mates);
                let added = cost_of(self.order, &table);
                let left: Vec<usize> = rest
                    .iter()
                    .copied()
                    .filter(|i| !mates.contains(i))
                    .collect();
                tables.push(table);
                self.go(&left, tables, cost + added);
                tables.pop();
            }
        }
    }
    let mut search = Search {
        order,
        size,
        best: None,
    };
    let all: Vec<usize> = (0..order.len()).collect();
    search.go(&all, &mut vec![], 0);
    search.best.map(|(_, t)| t).unwrap_or_default()
}

/// Every choice of `k` of `items`, in order.
pub(super) fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    let mut out = vec![];
    for (i, &first) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], k - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// From the standings in order, swap two players of different tables while the round gets better.
fn improved(order: &[&History], size: usize) -> Vec<Vec<usize>> {
    let mut tables: Vec<Vec<usize>> = (0..order.len())
        .collect::<Vec<_>>()
        .chunks(size)
        .map(<[usize]>::to_vec)
        .collect();
    for _pass in 0..100 {
        let mut better = false;
        for x in 0..tables.len() {
            for y in x + 1..tables.len() {
                for i in 0..size {
                    for j in 0..size {
                        let before = cost_of(order, &tables[x]) + cost_of(order, &tables[y]);
                        let (mut tx, mut ty) = (tables[x].clone(), tables[y].clone());
                        std::mem::swap(&mut tx[i], &mut ty[j]);
                        if cost_of(order, &tx) + cost_of(order, &ty) < before {
                            tables[x] = tx;
                            tables[y] = ty;
                            better = true;
                        }
                    }
                }
            }
        }
        if !better {
            break;
        }
    }
    tables
}
