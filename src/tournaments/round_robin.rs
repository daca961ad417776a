//! Round robins in groups, correspondence-style: every game of a group starts at once (as on OGS).
//! Groups are formed by rating, the strongest together, sizes differing by one at most.

use super::Entrant;

/// Split entrants (best rated first) into groups of about `size` (at least `min_size`): as many
/// groups as `size` makes, the larger groups first.
pub fn groups(by_rating: &[Entrant], size: usize, min_size: usize) -> Vec<Vec<Entrant>> {
    let n = by_rating.len();
    if n == 0 || size == 0 {
        return vec![];
    }
    let mut count = n.div_ceil(size);
    while count > 1 && n / count < min_size {
        count -= 1;
    }
    let (base, larger) = (n / count, n % count);
    let mut groups = vec![];
    let mut at = 0;
    for g in 0..count {
        let len = base + usize::from(g < larger);
        groups.push(by_rating[at..at + len].to_vec());
        at += len;
    }
    groups
}

/// Every game of a group, entrants in seat order. Two seats: each pair once, who moves first
/// balanced (see `pairs`). More seats: every choice of `table_size` of the group once; a group of exactly
/// `table_size` plays that many games instead, each entrant moving first once.
pub fn games(group: &[Entrant], table_size: usize) -> Vec<Vec<Entrant>> {
    let n = group.len();
    if n < table_size || table_size < 2 {
        return vec![];
    }
    if table_size == 2 {
        return pairs(group);
    }
    if n == table_size {
        return (0..n)
            .map(|start| (0..n).map(|i| group[(start + i) % n]).collect())
            .collect();
    }
    let indexes: Vec<usize> = (0..n).collect();
    let mut firsts = vec![0u32; n];
    super::tables::combinations(&indexes, table_size)
        .into_iter()
        .map(|mut table| {
            // Who has moved first least often leads (then the one listed first).
            let lead = (0..table.len())
                .min_by_key(|&i| (firsts[table[i]], i))
                .unwrap_or(0);
            table.rotate_left(lead);
            firsts[table[0]] += 1;
            table.into_iter().map(|i| group[i]).collect()
        })
        .collect()
}

/// Each pair once. Who moves first: with an odd number of entrants, each moves first against
/// the half of the others that follow it round the circle (so exactly half its games); with an
/// even number, the last entrant is set aside, the others so, and against the last the even
/// places move first: everyone's first moves and later moves differ by one at most.
fn pairs(group: &[Entrant]) -> Vec<Vec<Entrant>> {
    let n = group.len();
    let circle = if n % 2 == 1 { n } else { n - 1 };
    let mut games = vec![];
    for i in 0..n {
        for j in i + 1..n {
            let i_first = if j == circle {
                i % 2 == 0
            } else {
                j - i <= (circle - 1) / 2
            };
            games.push(if i_first {
                vec![group[i], group[j]]
            } else {
                vec![group[j], group[i]]
            });
        }
    }
    games
}
