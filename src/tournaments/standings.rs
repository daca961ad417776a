//! Where everyone stands: points first, then the event's named tie-breaks, then seed order (so
//! that the order is never left to chance; players tied on points and every tie-break share their
//! place).

use std::cmp::Reverse;
use std::collections::BTreeMap;

use super::history::{histories, History};
use super::{Bye, Entrant, Played, Points, Scoring};

/// The tie-breaks, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreak {
    /// Two seats: the sum of the opponents' points.
    Buchholz,
    /// Two seats: each game's points times that opponent's points, summed (beating the strong
    /// counts more).
    SonnebornBerger,
    /// Three and four seats: the sum of the table-mates' points, every game.
    OpponentsPoints,
    /// Three and four seats: more first places, then more second places, and so on.
    Placings,
}

impl TieBreak {
    /// The tie-breaks of an event with tables of `table_size`, in the order they apply.
    pub fn for_table_size(table_size: u8) -> Vec<TieBreak> {
        if table_size <= 2 {
            vec![TieBreak::Buchholz, TieBreak::SonnebornBerger]
        } else {
            vec![TieBreak::OpponentsPoints, TieBreak::Placings]
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TieBreak::Buchholz => "buchholz",
            TieBreak::SonnebornBerger => "sonneborn_berger",
            TieBreak::OpponentsPoints => "opponents_points",
            TieBreak::Placings => "placings",
        }
    }
}

/// A tie-break's value: more is better.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TieBreakValue {
    Points(Points),
    /// How many first places, second places, ... (as many counts as seats).
    Placings(Vec<u32>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub entrant: Entrant,
    /// 1 for the leader; equal for entrants tied on points and every tie-break.
    pub place: u32,
    pub points: Points,
    /// One per tie-break of the event, in its order.
    pub tie_breaks: Vec<TieBreakValue>,
    pub games: u32,
    pub byes: u32,
}

/// The standings of entrants (in seed order) after the decided games and byes so far.
pub fn standings(
    entrants: &[Entrant],
    played: &[Played],
    byes: &[Bye],
    scoring: &Scoring,
    table_size: u8,
) -> Vec<Standing> {
    let histories = histories(entrants, played, byes, scoring);
    let points: BTreeMap<Entrant, Points> =
        histories.iter().map(|h| (h.entrant, h.points)).collect();
    let breaks = TieBreak::for_table_size(table_size);
    let mut rows: Vec<(u32, Standing)> = histories
        .iter()
        .map(|h| {
            let tie_breaks = breaks
                .iter()
                .map(|&b| value(b, h, played, &points, scoring, table_size))
                .collect();
            let standing = Standing {
                entrant: h.entrant,
                place: 0,
                points: h.points,
                tie_breaks,
                games: h.games,
                byes: h.byes,
            };
            (h.seed, standing)
        })
        .collect();
    rows.sort_by(|(seed_a, a), (seed_b, b)| {
        (Reverse(a.points), Reverse(&a.tie_breaks), seed_a).cmp(&(
            Reverse(b.points),
            Reverse(&b.tie_breaks),
            seed_b,
        ))
    });
    let mut standings: Vec<Standing> = rows.into_iter().map(|(_, s)| s).collect();
    for i in 0..standings.len() {
        let tied = i > 0
            && standings[i].points == standings[i - 1].points
            && standings[i].tie_breaks == standings[i - 1].tie_breaks;
        standings[i].place = if tied {
            standings[i - 1].place
        } else {
            i as u32 + 1
        };
    }
    standings
}

fn value(
    tie_break: TieBreak,
    h: &History,
    played: &[Played],
    points: &BTreeMap<Entrant, Points>,
    scoring: &Scoring,
    table_size: u8,
) -> TieBreakValue {
    let score = |e: &Entrant| points.get(e).copied().unwrap_or_default();
    let games = played.iter().filter(|g| g.seats.contains(&h.entrant));
    match tie_break {
        TieBreak::Buchholz | TieBreak::OpponentsPoints => TieBreakValue::Points(
            games
                .flat_map(|g| g.seats.iter().filter(|&&e| e != h.entrant))
                .map(score)
                .sum(),
        ),
        TieBreak::SonnebornBerger => TieBreakValue::Points(
            games
                .map(|g| {
                    let seat = g.seats.iter().position(|&e| e == h.entrant).unwrap_or(0);
                    let won = scoring.points(&g.places)[seat];
                    g.seats
                        .iter()
                        .filter(|&&e| e != h.entrant)
                        .map(|e| won * score(e))
                        .sum::<Points>()
                })
                .sum(),
        ),
        TieBreak::Placings => {
            let mut counts = h.placings.clone();
            counts.resize(usize::from(table_size).max(counts.len()), 0);
            TieBreakValue::Placings(counts)
        }
    }
}
