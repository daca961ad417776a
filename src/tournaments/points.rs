//! Points, kept exact: in twelfths, so that places sharing a tie (halves, thirds, quarters) split
//! their points without rounding, and equal scores compare equal.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, Sub};

/// A number of points, in twelfths of a point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(pub i64);

impl Points {
    pub const ZERO: Points = Points(0);
    pub const ONE: Points = Points(12);
    pub const HALF: Points = Points(6);

    /// Whole points.
    pub const fn whole(n: i64) -> Points {
        Points(n * 12)
    }

    /// The nearest number of twelfths to `value` points (for points an organiser states).
    pub fn from_f64(value: f64) -> Points {
        Points((value * 12.0).round() as i64)
    }

    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 12.0
    }

    /// Exactly representable in twelfths, as stated points must be (0.5 and 1/3 are, 0.1 is not).
    pub fn is_exact(value: f64) -> bool {
        value.is_finite() && ((value * 12.0).round() - value * 12.0).abs() < 1e-9
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_f64())
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points(self.0 + other.0)
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, other: Points) {
        self.0 += other.0;
    }
}

impl Sub for Points {
    type Output = Points;
    fn sub(self, other: Points) -> Points {
        Points(self.0 - other.0)
    }
}

impl Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        Points(iter.map(|p| p.0).sum())
    }
}

/// Points times points, for Sonneborn-Berger (a game's points times the opponent's score): in
/// 144ths, then back to twelfths (exact for a win, a loss or a draw against a score of halves).
impl Mul for Points {
    type Output = Points;
    fn mul(self, other: Points) -> Points {
        Points(self.0 * other.0 / 12)
    }
}

/// How an event scores: the points of each place at a table (first place first), and what a bye
/// and a late entrant's half bye are worth. Stated per event; these are the defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scoring {
    pub by_place: Vec<Points>,
    pub bye: Points,
    pub half_bye: Points,
}

impl Scoring {
    /// Two seats: a win 1, a draw ½ each, a bye 1 (as in chess). Three seats: 2, 1, 0; four
    /// seats: 3, 2, 1, 0; a bye is worth the mean of the places (what a table would give on
    /// average). A half bye is half a bye.
    pub fn standard(table_size: u8) -> Scoring {
        let n = i64::from(table_size.max(2));
        let by_place: Vec<Points> = (0..n).rev().map(Points::whole).collect();
        let bye = if n == 2 {
            Points::ONE
        } else {
            Points(by_place.iter().map(|p| p.0).sum::<i64>() / n)
        };
        Scoring::with_places(by_place, bye)
    }

    /// Points by place as an organiser states them; a bye worth `bye`.
    pub fn with_places(by_place: Vec<Points>, bye: Points) -> Scoring {
        Scoring {
            by_place,
            bye,
            half_bye: Points(bye.0 / 2),
        }
    }

    /// Whether the stated points make sense: one per seat, never more for a worse place, none
    /// negative, the bye no more than first place.
    pub fn is_valid(&self, table_size: u8) -> bool {
        self.by_place.len() == usize::from(table_size)
            && self.by_place.windows(2).all(|w| w[0] >= w[1])
            && self.by_place.iter().all(|p| p.0 >= 0)
            && self.bye.0 >= 0
            && self
                .by_place
                .first()
                .is_some_and(|first| self.bye <= *first)
    }

    /// Each seat's points for a game's places. Seats sharing a place share the points of the
    /// places they cover: two tied first of three take (2 + 1) / 2 each.
    pub fn points(&self, places: &[u8]) -> Vec<Points> {
        places
            .iter()
            .map(|&place| {
                let tied = places.iter().filter(|&&p| p == place).count();
                let from = usize::from(place.max(1)) - 1;
                let covered: i64 = (from..from + tied)
                    .map(|i| self.by_place.get(i).copied().unwrap_or_default().0)
                    .sum();
                // Twelfths divide by 2, 3 and 4 exactly only for whole or half points; a share
                // of a third of a twelfth is rounded down, never seen with the defaults.
                Points(covered / tied as i64)
            })
            .collect()
    }
}
