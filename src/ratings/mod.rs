//! Ratings: Glicko-2, and how one finished game becomes rating results. Pure, like the engine:
//! the service reads and writes the figures, this module only computes them.
//!
//! A game is one rating period for each of its players. With more than two players it counts as
//! the pairwise results between every two of them (by final standing; equal standings are
//! draws), all rated at once against the ratings everyone had before the game.

pub mod glicko2;

pub use glicko2::{Outcome, Rating};

/// Milliseconds in a day.
const DAY_MILLIS: f64 = 86_400_000.0;

/// The rating system's parameters. Changing them changes every rating: recompute them from the
/// games' logs afterwards (`keltis ratings recompute`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingParameters {
    /// Glicko-2's system constant: how fast volatility may change (Glickman: 0.3 to 1.2).
    pub tau: f64,
    /// Where a newcomer starts; its deviation is also the most a deviation can grow to.
    pub initial: Rating,
    /// The length of a rating period, in days: a player's deviation grows by one period's
    /// volatility for every period without a rated game.
    pub period_days: f64,
    /// Ratings with a larger deviation are provisional (marked, and left off leaderboards).
    pub provisional_deviation: f64,
}

impl Default for RatingParameters {
    fn default() -> RatingParameters {
        RatingParameters {
            tau: 0.5,
            initial: Rating {
                rating: 1500.0,
                deviation: 350.0,
                volatility: 0.06,
            },
            period_days: 7.0,
            provisional_deviation: 110.0,
        }
    }
}

impl RatingParameters {
    /// Whether a rating with this deviation is still provisional.
    pub fn is_provisional(&self, deviation: f64) -> bool {
        deviation > self.provisional_deviation
    }
}

/// Where a seat finished: players who resigned or timed out rank below everyone still in the
/// game (a timeout or a resignation is a loss), then by total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    pub left_game: bool,
    pub total: i32,
}

impl Standing {
    /// The pairwise result of `self` against `other`: 1 ahead, 0.5 level, 0 behind.
    pub fn score_against(self, other: Standing) -> f64 {
        let key = |s: Standing| (s.left_game, -s.total);
        match key(self).cmp(&key(other)) {
            std::cmp::Ordering::Less => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Greater => 0.0,
        }
    }
}

/// One player of a rated game: the rating before it, when they last played a rated game of the
/// variant (`None`: never), and where they finished.
#[derive(Clone, Copy, Debug)]
pub struct RatedSeat {
    pub before: Rating,
    pub last_rated_at: Option<i64>,
    pub standing: Standing,
}

/// Every seat's rating after a game that ended at `ended_at` (milliseconds), in seat order.
pub fn rate_game(seats: &[RatedSeat], ended_at: i64, params: &RatingParameters) -> Vec<Rating> {
    // Time away first: each deviation as it stands when the game ends.
    let current: Vec<Rating> = seats
        .iter()
        .map(|s| {
            let idle = s
                .last_rated_at
                .map_or(0.0, |t| (ended_at - t).max(0) as f64 / DAY_MILLIS);
            s.before
                .after_idle(idle / params.period_days, params.initial.deviation)
        })
        .collect();
    seats
        .iter()
        .enumerate()
        .map(|(i, seat)| {
            let outcomes: Vec<Outcome> = seats
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(j, other)| Outcome {
                    opponent: current[j],
                    score: seat.standing.score_against(other.standing),
                })
                .collect();
            current[i].after(&outcomes, params.tau)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(total: i32, left_game: bool) -> RatedSeat {
        RatedSeat {
            before: RatingParameters::default().initial,
            last_rated_at: None,
            standing: Standing { left_game, total },
        }
    }

    #[test]
    fn pairwise_results_follow_the_standings() {
        let first = Standing {
            left_game: false,
            total: 20,
        };
        let level = Standing {
            left_game: false,
            total: 20,
        };
        let behind = Standing {
            left_game: false,
            total: 3,
        };
        let resigned = Standing {
            left_game: true,
            total: 40,
        };
        assert_eq!(first.score_against(level), 0.5);
        assert_eq!(first.score_against(behind), 1.0);
        assert_eq!(behind.score_against(first), 0.0);
        // A resignation loses, whatever the score.
        assert_eq!(resigned.score_against(behind), 0.0);
        assert_eq!(behind.score_against(resigned), 1.0);
    }

    /// A four-player game: the winner gains the most, the last loses the most, the two who
    /// share second place end level.
    #[test]
    fn four_players_are_rated_pairwise() {
        let seats = [
            seat(10, false),
            seat(25, false),
            seat(10, false),
            seat(-3, false),
        ];
        let after = rate_game(&seats, 0, &RatingParameters::default());
        assert!(after[1].rating > after[0].rating);
        assert!((after[0].rating - after[2].rating).abs() < 1e-9);
        assert!(after[3].rating < after[0].rating);
        assert!(after[1].rating > 1500.0 && after[3].rating < 1500.0);
        // The same as the winner's three wins rated at once.
        let initial = RatingParameters::default().initial;
        let wins = [Outcome {
            opponent: initial,
            score: 1.0,
        }; 3];
        assert_eq!(after[1], initial.after(&wins, 0.5));
    }

    #[test]
    fn time_away_widens_the_deviation_before_the_game() {
        let params = RatingParameters::default();
        let settled = Rating {
            rating: 1600.0,
            deviation: 60.0,
            volatility: 0.06,
        };
        let played = |last_rated_at| {
            let seats = [
                RatedSeat {
                    before: settled,
                    last_rated_at,
                    standing: Standing {
                        left_game: false,
                        total: 10,
                    },
                },
                seat(5, false),
            ];
            rate_game(&seats, 365 * 86_400_000, &params)[0]
        };
        let regular = played(Some(365 * 86_400_000 - 86_400_000));
        let returning = played(Some(0));
        assert!(returning.deviation > regular.deviation);
        // A win after a year away moves the rating more.
        assert!(returning.rating - 1600.0 > regular.rating - 1600.0);
    }
}
