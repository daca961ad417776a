//! Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its deviation
//! (how sure we are of it) and its volatility (how much it is expected to move). Pure arithmetic;
//! the steps are numbered as in the paper.

use std::f64::consts::PI;

/// Glicko-2's scale factor between the displayed scale (1500-centred) and its own.
const SCALE: f64 = 173.7178;
/// Convergence tolerance of the volatility iteration (step 5).
const EPSILON: f64 = 0.000_001;

/// A player's rating on the displayed scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// One result against one opponent in a rating period: 1 won, 0.5 drawn, 0 lost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub opponent: Rating,
    pub score: f64,
}

/// `g(φ)`: how much an opponent's deviation discounts a result against them.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// `E(μ, μj, φj)`: the expected score against an opponent.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    fn mu(&self) -> f64 {
        (self.rating - 1500.0) / SCALE
    }

    fn phi(&self) -> f64 {
        self.deviation / SCALE
    }

    /// Step 6 alone, for `periods` rating periods without games: the deviation grows (up to
    /// `max_deviation`), the rating stays.
    pub fn after_idle(self, periods: f64, max_deviation: f64) -> Rating {
        if periods <= 0.0 {
            return self;
        }
        let phi = (self.phi().powi(2) + periods * self.volatility.powi(2)).sqrt();
        Rating {
            deviation: (phi * SCALE).min(max_deviation),
            ..self
        }
    }

    /// The rating after one rating period with these results (steps 2 to 8), with the system
    /// constant `tau`. No results: only the deviation grows (step 6).
    pub fn after(self, outcomes: &[Outcome], tau: f64) -> Rating {
        if outcomes.is_empty() {
            return self.after_idle(1.0, f64::INFINITY);
        }
        let (mu, phi, sigma) = (self.mu(), self.phi(), self.volatility);
        // Step 3: the estimated variance from the results alone.
        let v = 1.0
            / outcomes
                .iter()
                .map(|o| {
                    let (mu_j, phi_j) = (o.opponent.mu(), o.opponent.phi());
                    let e = expected(mu, mu_j, phi_j);
                    g(phi_j).powi(2) * e * (1.0 - e)
                })
                .sum::<f64>();
        // Step 4: the estimated improvement.
        let improvement: f64 = outcomes
            .iter()
            .map(|o| {
                let (mu_j, phi_j) = (o.opponent.mu(), o.opponent.phi());
                g(phi_j) * (o.score - expected(mu, mu_j, phi_j))
            })
            .sum();
        let delta = v * improvement;
        // Step 5: the new volatility (the Illinois algorithm).
        let sigma = new_volatility(sigma, phi, v, delta, tau);
        // Steps 6 and 7.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = mu + phi * phi * improvement;
        // Step 8: back to the displayed scale.
        Rating {
            rating: SCALE * mu + 1500.0,
            deviation: SCALE * phi,
            volatility: sigma,
        }
    }
}

/// Step 5 of the paper: the volatility `σ'` that solves `f(x) = 0` for `x = ln σ'²`.
fn new_volatility(sigma: f64, phi: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    // Bounded: the iteration converges in a handful of steps on any real input.
    for _ in 0..100 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// The worked example of Glickman's paper (section "Example of the Glicko-2 system").
    #[test]
    fn glickman_worked_example() {
        let player = r(1500.0, 200.0);
        let outcomes = [
            Outcome {
                opponent: r(1400.0, 30.0),
                score: 1.0,
            },
            Outcome {
                opponent: r(1550.0, 100.0),
                score: 0.0,
            },
            Outcome {
                opponent: r(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let after = player.after(&outcomes, 0.5);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    proptest::proptest! {
        /// Two players of equal deviation who play each other: what one gains the other loses.
        #[test]
        fn equal_deviations_are_zero_sum(
            a in 800.0..2400.0f64,
            b in 800.0..2400.0f64,
            deviation in 30.0..350.0f64,
            score in proptest::sample::select(vec![0.0, 0.5, 1.0]),
        ) {
            let (pa, pb) = (r(a, deviation), r(b, deviation));
            let na = pa.after(&[Outcome { opponent: pb, score }], 0.5);
            let nb = pb.after(&[Outcome { opponent: pa, score: 1.0 - score }], 0.5);
            proptest::prop_assert!(((na.rating - a) + (nb.rating - b)).abs() < 1e-6);
            proptest::prop_assert!((na.deviation - nb.deviation).abs() < 1e-6);
        }

        /// A game against an opponent rated about as surely shrinks an unsure deviation, and
        /// time away widens any deviation, up to the cap, leaving the rating.
        #[test]
        fn deviation_shrinks_with_a_game_and_grows_with_time_away(
            rating in 1000.0..2000.0f64,
            gap in -400.0..400.0f64,
            deviation in 100.0..350.0f64,
            opponent_deviation in 30.0..150.0f64,
            score in proptest::sample::select(vec![0.0, 0.5, 1.0]),
            periods in 0.1..500.0f64,
        ) {
            let player = r(rating, deviation);
            let opponent = r(rating + gap, opponent_deviation);
            let after = player.after(&[Outcome { opponent, score }], 0.5);
            proptest::prop_assert!(after.deviation < player.deviation);
            let idle = after.after_idle(periods, 350.0);
            proptest::prop_assert!(idle.deviation > after.deviation || idle.deviation == 350.0);
            proptest::prop_assert!(idle.deviation <= 350.0);
            proptest::prop_assert_eq!(idle.rating, after.rating);
        }
    }

    /// The deviation shrinks as games are played, and grows again with time away.
    #[test]
    fn deviation_shrinks_with_games_and_grows_with_inactivity() {
        let mut player = r(1500.0, 350.0);
        let opponent = r(1500.0, 80.0);
        let mut last = player.deviation;
        for game in 0..30 {
            player = player.after(
                &[Outcome {
                    opponent,
                    score: if game % 2 == 0 { 1.0 } else { 0.0 },
                }],
                0.5,
            );
            assert!(player.deviation < last, "game {game}: {player:?}");
            last = player.deviation;
        }
        assert!(player.deviation < 110.0, "{player:?}");
        let idle = player.after_idle(52.0, 350.0);
        assert!(idle.deviation > player.deviation);
        assert_eq!(idle.rating, player.rating);
        assert_eq!(player.after_idle(100_000.0, 350.0).deviation, 350.0);
        assert_eq!(player.after_idle(0.0, 350.0), player);
    }

    /// Winning raises a rating, losing lowers it, a draw against an equal leaves it.
    #[test]
    fn results_move_the_rating_their_way() {
        let p = r(1500.0, 200.0);
        let o = r(1500.0, 200.0);
        let won = p.after(
            &[Outcome {
                opponent: o,
                score: 1.0,
            }],
            0.5,
        );
        let lost = p.after(
            &[Outcome {
                opponent: o,
                score: 0.0,
            }],
            0.5,
        );
        let drawn = p.after(
            &[Outcome {
                opponent: o,
                score: 0.5,
            }],
            0.5,
        );
        assert!(won.rating > 1500.0 && lost.rating < 1500.0);
        assert!((drawn.rating - 1500.0).abs() < 1e-9);
    }
}
