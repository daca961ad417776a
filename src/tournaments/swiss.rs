//! The next round of a Swiss. Two seats: a Dutch-style pairing, found as a maximum-weight
//! matching (rustworkx-core's, Edmonds' blossom algorithm) over every possible pair, each pair
//! weighted so that, in this order of importance:
//!
//! 1. nobody has a second bye while another has none;
//! 2. nobody meets an opponent again, unless there is no other way;
//! 3. the bye goes to the lowest score, then the lowest seed (FIDE's Dutch system: the
//!    lowest-ranked player who has not had one, as long as the others can then be paired without
//!    meeting again);
//! 4. players meet others of the same points (score groups): the sum of the squared differences
//!    in points is the least it can be;
//! 5. colours (here: who moves first) balance: two players both due to move first meet as
//!    rarely as can be;
//! 6. in a score group, the top half meets the bottom half (1 against n/2 + 1, ...).
//!
//! Each level weighs more than everything below it can add up to, so the matching settles them in
//! that order. Three and four seats: see `tables`.

use std::convert::Infallible;

use rustworkx_core::max_weight_matching::max_weight_matching;
use rustworkx_core::petgraph::graph::UnGraph;

use super::history::History;
use super::{tables, Entrant, Round};

/// The next round for the entrants still playing (their histories, in seed order), at tables of
/// `table_size`. `standing` is every one of them in the standings' order, the leader first (with
/// the event's tie-breaks: at tables of three and four the byes go to the lowest standing).
/// `seed` decides only who moves first in the first round (the event's seed, so that a pairing can
/// be made again).
pub fn next_round(players: &[History], standing: &[Entrant], table_size: u8, seed: u64) -> Round {
    if table_size <= 2 {
        pair(players, seed)
    } else {
        tables::group(players, standing, usize::from(table_size))
    }
}

// The weight of each level (see the module's comment), and the base every pair's weight is
// counted down from (pairs must weigh more than nothing for the matching to take them). The bye's
// rank counts up to the number of players (below 1,000 here), the squared differences stay far
// below a million times `SCORE`.
const FAIR_BYE: i128 = MUST * 1_000_000;
const MUST: i128 = BYE_RANK * 1_000;
const BYE_RANK: i128 = SCORE * 1_000_000;
const SCORE: i128 = 1_000_000_000;
const COLOUR: i128 = 1_000_000;
const ORDER: i128 = 1;
const BASE: i128 = FAIR_BYE * 1_000;

/// Two seats.
fn pair(players: &[History], seed: u64) -> Round {
    let n = players.len();
    if n < 2 {
        return Round {
            tables: vec![],
            byes: players.iter().map(|p| p.entrant).collect(),
        };
    }
    let bye = n % 2 == 1;
    let mut graph = UnGraph::<(), i128>::default();
    let nodes: Vec<_> = (0..n + usize::from(bye))
        .map(|_| graph.add_node(()))
        .collect();
    for i in 0..n {
        for j in i + 1..n {
            let weight = BASE - pair_cost(players, i, j);
            graph.add_edge(nodes[i], nodes[j], weight);
        }
        if bye {
            graph.add_edge(nodes[i], nodes[n], BASE - bye_cost(players, i));
        }
    }
    let matching = max_weight_matching(&graph, true, |e| Ok::<_, Infallible>(*e.weight()), false)
        .unwrap_or_else(|never| match never {});
    let mut round = Round::default();
    let mut pairs: Vec<(usize, usize)> = vec![];
    for (a, b) in matching {
        let (a, b) = (a.min(b), a.max(b));
        if b == n {
            round.byes.push(players[a].entrant);
        } else {
            pairs.push((a, b));
        }
    }
    // Boards in order of the better player's standing, as a crosstable shows them.
    pairs.sort_by_key(|&(a, b)| standing_key(&players[a]).min(standing_key(&players[b])));
    for (board, (a, b)) in pairs.into_iter().enumerate() {
        let (first, second) = who_moves_first(&players[a], &players[b], board, seed);
        round.tables.push(vec![first, second]);
    }
    round
}

/// Better standing first: more points, then the better seed.
pub(super) fn standing_key(p: &History) -> (std::cmp::Reverse<i64>, u32) {
    (std::cmp::Reverse(p.points.0), p.seed)
}

fn squared(x: i64) -> i128 {
    i128::from(x) * i128::from(x)
}

fn pair_cost(players: &[History], i: usize, j: usize) -> i128 {
    let (a, b) = (&players[i], &players[j]);
    let repeats = i128::from(a.times_met(b.entrant));
    let score = squared(a.points.0 - b.points.0);
    MUST * repeats + SCORE * score + COLOUR * colour_clash(a, b) + ORDER * order_cost(players, a, b)
}

fn bye_cost(players: &[History], i: usize) -> i128 {
    let fewest = players.iter().map(|p| p.byes).min().unwrap_or(0);
    let p = &players[i];
    FAIR_BYE * i128::from(p.byes - fewest) + BYE_RANK * bye_rank(players, p)
}

/// How many players have a better claim to the bye than `p`: a lower score, or the same score and
/// a lower seed. 0 for the lowest score's lowest seed.
pub(super) fn bye_rank(players: &[History], p: &History) -> i128 {
    let claim = |q: &History| (q.points.0, std::cmp::Reverse(q.seed));
    players.iter().filter(|q| claim(q) < claim(p)).count() as i128
}

/// Which way a player wants to move: below 0 first, above 0 later; 0 no wish. Two games more
/// first than later, or the same the last two games (approximated by the last game and the
/// balance), make a strong wish (±2).
fn wish(p: &History) -> i64 {
    let balance = p.first_move_balance();
    match (balance, p.last_moved_first) {
        (b, _) if b >= 2 => 2,
        (b, _) if b <= -2 => -2,
        (1, Some(true)) => 2,
        (-1, Some(false)) => -2,
        (b, _) if b != 0 => b.signum(),
        (_, Some(true)) => 1,
        (_, Some(false)) => -1,
        (_, None) => 0,
    }
}

/// How badly two players' wishes clash: both want the same, weighted by the weaker wish.
fn colour_clash(a: &History, b: &History) -> i128 {
    let (wa, wb) = (wish(a), wish(b));
    if wa != 0 && wa.signum() == wb.signum() {
        i128::from(wa.abs().min(wb.abs()))
    } else {
        0
    }
}

/// In one score group, how far a pair is from top half against bottom half.
fn order_cost(players: &[History], a: &History, b: &History) -> i128 {
    if a.points != b.points {
        return 0;
    }
    let group: Vec<u32> = players
        .iter()
        .filter(|p| p.points == a.points)
        .map(|p| p.seed)
        .collect();
    let position = |seed: u32| group.iter().filter(|&&s| s < seed).count() as i128;
    let half = group.len() as i128 / 2;
    ((position(a.seed) - position(b.seed)).abs() - half).abs()
}

/// Who of two paired players moves first: the one whose wish for it is stronger; at equal wishes,
/// the better standing gets its wish; in the first round (no wishes), boards alternate, the first
/// board's better player moving first or not as the event's seed says.
fn who_moves_first(a: &History, b: &History, board: usize, seed: u64) -> (Entrant, Entrant) {
    let (better, worse) = if standing_key(a) <= standing_key(b) {
        (a, b)
    } else {
        (b, a)
    };
    let (wb, ww) = (wish(better), wish(worse));
    let better_first = if wb == 0 && ww == 0 {
        (board as u64 % 2 + seed % 2).is_multiple_of(2)
    } else if wb != ww {
        // The lower number wishes more to move first.
        wb < ww
    } else {
        wb < 0
    };
    if better_first {
        (better.entrant, worse.entrant)
    } else {
        (worse.entrant, better.entrant)
    }
}
