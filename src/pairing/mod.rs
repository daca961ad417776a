//! Automatic pairing: which waiting requests sit down together. Pure, like the engine and the
//! ratings: the service reads the requests and the blocks, this module only decides.
//!
//! The rule, in the words players will read once requests are served (issue 46):
//!
//! 1. Requests are served oldest first (by when they were filed, then by id).
//! 2. The oldest request not yet seated looks for a table among the requests still waiting: of the
//!    sizes it accepts, the largest that can be filled now (so that nobody who could play is left
//!    waiting), with table-mates chosen by closest rating to it (then the older request first).
//! 3. Everyone at a table accepts every other: the same variant, time control and rated or casual
//!    game; that table size; each one's rating inside the others' ranges; no two requests of one
//!    player; no block between any two of them; a bot's request only with requests that allow
//!    bots.
//! 4. A request that finds no table waits, and the next oldest is served.
//!
//! So when the rule has run, no set of waiting requests could form a table together. A request
//! whose player allows a bot, once the wait they chose has passed, sits down with the waiting
//! requests that allow bots too, and bots take the seats left ([`with_bots`]).

use crate::engine::Variant;

/// A waiting request, as the rule sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub id: i64,
    pub player: i64,
    pub variant: Variant,
    /// The table sizes it accepts (2, 3, 4).
    pub seats: Seats,
    /// The time control, as one comparable key (the service writes it).
    pub time_control: String,
    pub rated: bool,
    /// The player's rating in the variant.
    pub rating: f64,
    /// How far below and above its own rating the others' may be; `None`: anyone.
    pub range: Option<(f64, f64)>,
    /// When it was filed (milliseconds since the Unix epoch).
    pub filed_at: i64,
    /// After how long a bot may take the seats left (milliseconds); `None`: never.
    pub bot_after_ms: Option<i64>,
    /// Filed by an outside bot: it sits only with requests that allow bots.
    pub by_bot: bool,
}

impl Request {
    /// Whether bots may sit with this request (a bot's own request allows them).
    pub fn allows_bots(&self) -> bool {
        self.bot_after_ms.is_some() || self.by_bot
    }

    fn age_key(&self) -> (i64, i64) {
        (self.filed_at, self.id)
    }

    fn rating_fits(&self, other: f64) -> bool {
        self.range.is_none_or(|(below, above)| {
            other >= self.rating - below && other <= self.rating + above
        })
    }
}

/// A set of table sizes (2 to 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seats(u8);

impl Seats {
    /// The sizes given; `None` when one is not 2, 3 or 4, or none is given.
    pub fn of(sizes: &[u8]) -> Option<Seats> {
        let mut bits = 0u8;
        for &n in sizes {
            if !(2..=4).contains(&n) {
                return None;
            }
            bits |= 1 << n;
        }
        (bits != 0).then_some(Seats(bits))
    }

    pub fn accepts(self, n: u8) -> bool {
        n < 8 && self.0 & (1 << n) != 0
    }

    /// The sizes, smallest first.
    pub fn sizes(self) -> Vec<u8> {
        (2..=4).filter(|&n| self.accepts(n)).collect()
    }
}

/// A table the rule formed: its requests (the one served first leads) and how many bots join.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub requests: Vec<i64>,
    pub bots: u8,
}

impl Table {
    pub fn size(&self) -> u8 {
        self.requests.len() as u8 + self.bots
    }
}

/// Whether `a` and `b` may sit at one table of `size`; `blocked` says whether either player
/// blocked the other.
pub fn compatible(a: &Request, b: &Request, size: u8, blocked: &dyn Fn(i64, i64) -> bool) -> bool {
    a.id != b.id
        && a.player != b.player
        && a.variant == b.variant
        && a.time_control == b.time_control
        && a.rated == b.rated
        && a.seats.accepts(size)
        && b.seats.accepts(size)
        && a.rating_fits(b.rating)
        && b.rating_fits(a.rating)
        && (!a.by_bot || b.allows_bots())
        && (!b.by_bot || a.allows_bots())
        && !blocked(a.player, b.player)
}

/// The most candidates one search looks through: enough for any real queue, and a bound on the
/// work of a pathological one.
const SEARCH_LIMIT: usize = 200;

/// The tables the rule forms from `waiting` (see the module's comment).
pub fn tables(waiting: &[Request], blocked: &dyn Fn(i64, i64) -> bool) -> Vec<Table> {
    let mut order: Vec<&Request> = waiting.iter().collect();
    order.sort_by_key(|r| r.age_key());
    let mut seated = vec![false; order.len()];
    let mut formed = Vec::new();
    for i in 0..order.len() {
        if seated[i] {
            continue;
        }
        let anchor = order[i];
        for size in anchor.seats.sizes().into_iter().rev() {
            let open: Vec<usize> = (0..order.len())
                .filter(|&j| j != i && !seated[j] && compatible(anchor, order[j], size, blocked))
                .collect();
            if let Some(mates) = choose(anchor, &order, open, size - 1, size, blocked) {
                formed.push(seat(&order, &mut seated, i, &mates, 0));
                break;
            }
        }
    }
    formed
}

/// Once their wait for a bot has passed by `now`: each such request (oldest first) sits down at
/// the smallest size it accepts with the waiting requests that would sit with it and allow bots
/// (closest ratings first), bots in the seats left. Run after [`tables`], on what still waits.
pub fn with_bots(waiting: &[Request], now: i64, blocked: &dyn Fn(i64, i64) -> bool) -> Vec<Table> {
    let mut order: Vec<&Request> = waiting.iter().collect();
    order.sort_by_key(|r| r.age_key());
    let mut seated = vec![false; order.len()];
    let mut formed = Vec::new();
    for i in 0..order.len() {
        let anchor = order[i];
        let due = anchor
            .bot_after_ms
            .is_some_and(|wait| anchor.filed_at.saturating_add(wait) <= now);
        if seated[i] || !due || anchor.by_bot {
            continue;
        }
        let Some(&size) = anchor.seats.sizes().first() else {
            continue;
        };
        let open: Vec<usize> = (0..order.len())
            .filter(|&j| {
                j != i
                    && !seated[j]
                    && order[j].allows_bots()
                    && compatible(anchor, order[j], size, blocked)
            })
            .collect();
        // As many people as will fit and get on together, the rest bots.
        let mut mates = Vec::new();
        for want in (0..size).rev() {
            if let Some(found) = choose(anchor, &order, open.clone(), want, size, blocked) {
                mates = found;
                break;
            }
        }
        let bots = size - 1 - mates.len() as u8;
        formed.push(seat(&order, &mut seated, i, &mates, bots));
    }
    formed
}

/// The table of `order[lead]` and its `mates` (indexes into `order`), all marked seated.
fn seat(order: &[&Request], seated: &mut [bool], lead: usize, mates: &[usize], bots: u8) -> Table {
    seated[lead] = true;
    for &j in mates {
        seated[j] = true;
    }
    Table {
        requests: std::iter::once(lead)
            .chain(mates.iter().copied())
            .map(|j| order[j].id)
            .collect(),
        bots,
    }
}

/// `want` of the `open` candidates (indexes into `order`) that get on with each other at a table
/// of `size`: the first such set in order of preference (closest rating to the anchor, then the
/// older request), or `None`.
fn choose(
    anchor: &Request,
    order: &[&Request],
    mut open: Vec<usize>,
    want: u8,
    size: u8,
    blocked: &dyn Fn(i64, i64) -> bool,
) -> Option<Vec<usize>> {
    open.sort_by(|&a, &b| {
        let (da, db) = (
            (order[a].rating - anchor.rating).abs(),
            (order[b].rating - anchor.rating).abs(),
        );
        da.total_cmp(&db)
            .then_with(|| order[a].age_key().cmp(&order[b].age_key()))
    });
    open.truncate(SEARCH_LIMIT);
    let mut picked = Vec::with_capacity(want as usize);
    pick(order, &open, 0, want as usize, size, blocked, &mut picked).then_some(picked)
}

/// Depth-first, in order of preference: the first set of `want` that get on pairwise.
fn pick(
    order: &[&Request],
    open: &[usize],
    from: usize,
    want: usize,
    size: u8,
    blocked: &dyn Fn(i64, i64) -> bool,
    picked: &mut Vec<usize>,
) -> bool {
    if picked.len() == want {
        return true;
    }
    for k in from..open.len() {
        if open.len() - k < want - picked.len() {
            return false;
        }
        let candidate = order[open[k]];
        if picked
            .iter()
            .all(|&p| compatible(order[p], candidate, size, blocked))
        {
            picked.push(open[k]);
            if pick(order, open, k + 1, want, size, blocked, picked) {
                return true;
            }
            picked.pop();
        }
    }
    false
}

#[cfg(test)]
mod tests;
