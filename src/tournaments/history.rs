//! What each entrant has done so far in an event, read off its decided games and byes: the
//! points, whom it has sat with, how often it moved first, its byes. Pairing and standings start
//! here.

use std::collections::BTreeMap;

use super::{Bye, Entrant, Played, Points, Scoring};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    pub entrant: Entrant,
    /// Seed order: 0 is the top seed (the best rated at registration, then the first to enter).
    pub seed: u32,
    pub points: Points,
    /// Everyone it has sat at a table with, and how many times.
    pub met: BTreeMap<Entrant, u32>,
    pub games: u32,
    /// Games in which it moved first.
    pub first_moves: u32,
    /// Whether it moved first in its latest game (None before its first game).
    pub last_moved_first: Option<bool>,
    /// Full byes (a late entrant's half byes are not counted: they are not a round given away).
    pub byes: u32,
    /// How many games it finished in each place (index 0: first places).
    pub placings: Vec<u32>,
}

impl History {
    pub fn times_met(&self, other: Entrant) -> u32 {
        self.met.get(&other).copied().unwrap_or(0)
    }

    /// Moved first minus moved later: above 0 it is due to move later, below 0 to move first.
    pub fn first_move_balance(&self) -> i64 {
        i64::from(self.first_moves) * 2 - i64::from(self.games)
    }
}

/// Every entrant's history, in seed order (`entrants` is in seed order). Games and byes of
/// entrants not listed are ignored, as are places of entrants who are.
pub fn histories(
    entrants: &[Entrant],
    played: &[Played],
    byes: &[Bye],
    scoring: &Scoring,
) -> Vec<History> {
    let mut by_entrant: BTreeMap<Entrant, History> = entrants
        .iter()
        .enumerate()
        .map(|(seed, &entrant)| {
            let history = History {
                entrant,
                seed: seed as u32,
                ..History::default()
            };
            (entrant, history)
        })
        .collect();
    let mut games: Vec<&Played> = played.iter().collect();
    games.sort_by_key(|g| g.round);
    for game in games {
        let points = scoring.points(&game.places);
        for (seat, &entrant) in game.seats.iter().enumerate() {
            let Some(h) = by_entrant.get_mut(&entrant) else {
                continue;
            };
            h.points += points[seat];
            h.games += 1;
            h.first_moves += u32::from(seat == 0);
            h.last_moved_first = Some(seat == 0);
            let place = usize::from(game.places[seat].max(1)) - 1;
            if h.placings.len() <= place {
                h.placings.resize(place + 1, 0);
            }
            h.placings[place] += 1;
            for &other in game.seats.iter().filter(|&&o| o != entrant) {
                *h.met.entry(other).or_default() += 1;
            }
        }
    }
    for bye in byes {
        if let Some(h) = by_entrant.get_mut(&bye.entrant) {
            h.points += bye.points;
            h.byes += u32::from(bye.full);
        }
    }
    entrants
        .iter()
        .filter_map(|e| by_entrant.remove(e))
        .collect()
}
