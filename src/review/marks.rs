//! From margins to what a player reads: winning chances, the chances a choice gave away, the
//! marks, the accuracy figure.
//!
//! A choice's winning chance is the share of the sampled games it won (a shared win counts a
//! half; where the end was searched exactly, the search's chance over the draws to come). It
//! was once a normal curve over the margin's mean and spread, which called a win certain on
//! every sample a 0.85 chance when the margin was one point, and marked the choice that made it
//! certain: the share tells the truth a curve can only approximate. So a loss of a few points
//! weighs much in a close game, where it turns samples from won to lost, and nothing where the
//! game is decided whatever the choice (Lichess's reason for judging by winning chances).
//!
//! The accuracy is in points instead, measured against random play (see [`accuracy`]): marks
//! say where a game was turned, the accuracy how well a player chose throughout.

use serde::{Deserialize, Serialize};

/// Drops in winning chance that mark a decision, as on Lichess: a choice that turns a tenth of the
/// samples from won to lost is an inaccuracy, a fifth a mistake, three tenths a blunder.
pub const INACCURACY: f64 = 0.1;
pub const MISTAKE: f64 = 0.2;
pub const BLUNDER: f64 = 0.3;
/// A decision whose first samples give away this much winning chance or more is judged again on
/// more samples before it is marked (a fifth of [`INACCURACY`]: on the first 100 samples a drop
/// measured at 0.02 was often one of 0.1 or more on others).
pub const LOOK_AGAIN: f64 = 0.02;

/// What a decision is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// The mean and the (sample) standard deviation.
pub fn mean_and_spread(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, 0.0);
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

/// The standard error of the mean paired difference between `best` and `played`.
pub fn standard_error(best: &[f64], played: &[f64]) -> f64 {
    let diffs: Vec<f64> = best.iter().zip(played).map(|(b, p)| b - p).collect();
    mean_and_spread(&diffs).1 / (diffs.len().max(1) as f64).sqrt()
}

/// Whether the best choice beat the played one clearly on the same samples: the mean of the
/// paired differences more than two standard errors above zero. A drop inside the noise of the
/// sampling is not marked, however large it looks.
pub fn clearly_worse(best: &[f64], played: &[f64]) -> bool {
    let mean = best.iter().zip(played).map(|(b, p)| b - p).sum::<f64>() / best.len().max(1) as f64;
    mean > 0.0 && mean > 2.0 * standard_error(best, played)
}

/// How much better than the choice `played` the best choice is, in points, without the winner's
/// curse: the highest of many means on the same samples is too high (the noise that lifted it is
/// counted as worth), so that even the best play would seem to give points away. Each half of the
/// samples picks its best, which the other half values against `played` (cross-fitting); the
/// two are averaged. Negative where the played choice did better on the held-out half.
pub fn held_out_loss(margins: &[Vec<f64>], played: usize) -> f64 {
    let mut total = 0.0;
    for (pick, value) in [(0, 1), (1, 0)] {
        let best = (0..margins.len()).fold(played, |b, i| {
            if half_mean(&margins[i], pick) > half_mean(&margins[b], pick) {
                i
            } else {
                b
            }
        });
        total += half_mean(&margins[best], value) - half_mean(&margins[played], value);
    }
    total / 2.0
}

/// The mean of every second sample from `parity` (0 or 1) on: one half of the samples, as
/// cross-fitting splits them.
pub fn half_mean(values: &[f64], parity: usize) -> f64 {
    let half: Vec<f64> = values.iter().skip(parity).step_by(2).copied().collect();
    mean_and_spread(&half).0
}

/// A decision's winning chances: after the played choice, after the best, the chance given away
/// (measured on held-out samples, as the points are), and whether the choice with the best winning
/// chance beat the played one clearly on the same samples ([`clearly_worse`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chances {
    pub played: f64,
    pub best: f64,
    pub lost: f64,
    /// The standard error of the paired difference between the best and the played choice.
    pub error: f64,
    pub clear: bool,
}

impl Chances {
    /// From `wins[choice][sample]`, `played` the index of the played choice.
    pub fn of(wins: &[Vec<f64>], played: usize) -> Chances {
        let means: Vec<f64> = wins.iter().map(|w| mean_and_spread(w).0).collect();
        let chance = means[played];
        let best = (chance + held_out_loss(wins, played).max(0.0)).min(1.0);
        let most = (0..wins.len()).fold(played, |b, i| if means[i] > means[b] { i } else { b });
        Chances {
            played: chance,
            best,
            lost: (best - chance).max(0.0),
            error: standard_error(&wins[most], &wins[played]),
            clear: most != played && clearly_worse(&wins[most], &wins[played]),
        }
    }

    /// The mark, where the drop was clear: by the drop less one standard error, so that a drop
    /// near a threshold is marked the lesser way (the same decision reviewed with other samples
    /// is then marked alike more often).
    pub fn mark(&self) -> Option<Mark> {
        if self.clear {
            mark(self.lost - self.error)
        } else {
            None
        }
    }
}

/// The mark for a drop in winning chance.
pub fn mark(chance_lost: f64) -> Option<Mark> {
    if chance_lost >= BLUNDER {
        Some(Mark::Blunder)
    } else if chance_lost >= MISTAKE {
        Some(Mark::Mistake)
    } else if chance_lost >= INACCURACY {
        Some(Mark::Inaccuracy)
    } else {
        None
    }
}

/// What a player choosing uniformly at random among `of` choices would have given away at one
/// decision: the mean, over every choice, of [`held_out_loss`] (each at least 0, as a played
/// choice's loss is), on the same samples and by the same estimate as the played choice's. Where
/// not every choice was valued (the hybrid judge's second look), the last `stand_ins` of
/// `margins` were drawn at random from those that were not chosen for their worth, and their mean
/// loss stands for each of those (an unbiased estimate: the same scale as the played choice's).
pub fn random_loss(margins: &[Vec<f64>], stand_ins: usize, of: usize) -> f64 {
    if margins.is_empty() || of == 0 {
        return 0.0;
    }
    let losses: Vec<f64> = (0..margins.len())
        .map(|c| held_out_loss(margins, c).max(0.0))
        .collect();
    let chosen = margins.len() - stand_ins.min(margins.len());
    let (worth, drawn) = losses.split_at(chosen);
    let unvalued = of.saturating_sub(chosen) as f64;
    let rest = if drawn.is_empty() {
        0.0
    } else {
        unvalued * drawn.iter().sum::<f64>() / drawn.len() as f64
    };
    (worth.iter().sum::<f64>() + rest) / of as f64
}

/// A player's accuracy over their decisions, 0..100: the share of what random choices would have
/// given away that the player kept, `100 (1 - lost / random)` with both summed over the decisions
/// (`lost`: points given away; `random`: [`random_loss`]). 100 is the best choice every time; a
/// player choosing at random is expected to score 0, in any game, close or decided, since both sums
/// come from the same samples by the same estimate; below 0 is shown as 0. Measured in points, not
/// winning chances: a player far behind still loses accuracy for poor choices (with chances, every
/// choice of a decided game lost nothing, and random play was told it played at 94%). Decisions
/// where the choices differ little weigh little. With nothing at stake, 100. Straight in the
/// points lost: of the concave curves tried on calibration games (a large loss counted as less),
/// none told players of known strength apart better in every variant (docs/performance.md, "An
/// accuracy curve fitted to the data").
pub fn accuracy(lost: f64, random: f64) -> f64 {
    if random <= 0.0 {
        return 100.0;
    }
    (100.0 * (1.0 - lost / random)).clamp(0.0, 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_thresholds() {
        assert_eq!(mark(0.05), None);
        assert_eq!(mark(0.1), Some(Mark::Inaccuracy));
        assert_eq!(mark(0.25), Some(Mark::Mistake));
        assert_eq!(mark(0.3), Some(Mark::Blunder));
    }

    /// Decisions with choices of known, different worth, valued on noisy samples: a player who
    /// picks uniformly at random is told about 0 (not a figure near 90, as the winning-chance
    /// curve gave in decided games), one who always picks the truly best near 100, and one who
    /// picks the second best in between; the same whether the game is close or decided (the
    /// margins shifted by 40 points change nothing).
    #[test]
    fn random_choices_score_about_zero_and_the_best_about_100() {
        let mut rng = crate::engine::setup::SeedRng::new(11);
        for shift in [0.0, -40.0] {
            let (mut random, mut best, mut second) = ([0.0; 2], [0.0; 2], [0.0; 2]);
            for _ in 0..300 {
                let worth: Vec<f64> = (0..6).map(|c| -(c as f64) * 1.5).collect();
                let deals: Vec<f64> = (0..60)
                    .map(|_| shift + (rng.below(2001) as f64 - 1000.0) / 100.0)
                    .collect();
                let margins: Vec<Vec<f64>> = worth
                    .iter()
                    .map(|w| {
                        let noise = |r: &mut crate::engine::setup::SeedRng| {
                            (r.below(2001) as f64 - 1000.0) / 250.0
                        };
                        deals.iter().map(|d| d + w + noise(&mut rng)).collect()
                    })
                    .collect();
                let at_random = rng.below(6) as usize;
                let r = random_loss(&margins, 0, margins.len());
                for (sum, played) in [(&mut random, at_random), (&mut best, 0), (&mut second, 1)] {
                    sum[0] += held_out_loss(&margins, played).max(0.0);
                    sum[1] += r;
                }
            }
            let (random, best, second) = (
                accuracy(random[0], random[1]),
                accuracy(best[0], best[1]),
                accuracy(second[0], second[1]),
            );
            assert!(random < 10.0, "random play: {random}");
            assert!(best > 85.0, "the best: {best}");
            assert!(second > random + 20.0 && second < best - 20.0, "{second}");
        }
        assert_eq!(accuracy(0.0, 0.0), 100.0);
        assert_eq!(accuracy(5.0, 2.0), 0.0);
    }

    /// Ten choices of equal worth, on noisy samples: the best mean beats the played one's by
    /// the noise alone (the winner's curse), the held-out loss by nothing on average; a choice
    /// 3 points worse is found 3 points worse.
    #[test]
    fn the_loss_is_measured_where_the_best_was_not_picked() {
        let mut rng = crate::engine::setup::SeedRng::new(7);
        let mut noise = || (rng.below(2001) as f64 - 1000.0) / 50.0;
        let (mut naive, mut held_out, mut worse) = (0.0, 0.0, 0.0);
        let rounds = 200;
        for _ in 0..rounds {
            // The same deal under every choice (common random numbers), and noise of its own.
            let deals: Vec<f64> = (0..40).map(|_| noise()).collect();
            let margins: Vec<Vec<f64>> = (0..10)
                .map(|c| {
                    deals
                        .iter()
                        .map(|d| d + noise() - if c == 9 { 3.0 } else { 0.0 })
                        .collect()
                })
                .collect();
            let means: Vec<f64> = margins.iter().map(|m| mean_and_spread(m).0).collect();
            let top = means[..9].iter().copied().fold(f64::MIN, f64::max);
            naive += top - means[0];
            held_out += held_out_loss(&margins[..9], 0);
            worse += held_out_loss(&margins, 9);
        }
        let n = f64::from(rounds);
        assert!(naive / n > 2.0, "the winner's curse: {}", naive / n);
        assert!((held_out / n).abs() < 0.5, "{}", held_out / n);
        assert!((worse / n - 3.0).abs() < 1.5, "{}", worse / n);
    }

    /// Twelve choices of known, different worth: the best four valued, and two of the other
    /// eight drawn at random standing for them, give on average what all twelve valued give (the
    /// hybrid judge's estimate of random play is unbiased), and every one of them alike when the
    /// choices are all valued.
    #[test]
    fn stand_ins_tell_what_random_play_gives_away() {
        let mut rng = crate::engine::setup::SeedRng::new(5);
        let (mut all, mut estimated, rounds) = (0.0, 0.0, 2_000);
        for _ in 0..rounds {
            let deals: Vec<f64> = (0..40).map(|_| rng.below(201) as f64 / 10.0).collect();
            let margins: Vec<Vec<f64>> = (0..12)
                .map(|c| {
                    let worth = -(c as f64) * (c as f64) / 4.0;
                    deals
                        .iter()
                        .map(|d| d + worth + rng.below(101) as f64 / 50.0)
                        .collect()
                })
                .collect();
            all += random_loss(&margins, 0, 12);
            let mut rest: Vec<usize> = (4..12).collect();
            let mut valued: Vec<Vec<f64>> = margins[..4].to_vec();
            for _ in 0..2 {
                let at = rng.below(rest.len() as u64) as usize;
                valued.push(margins[rest.swap_remove(at)].clone());
            }
            estimated += random_loss(&valued, 2, 12);
        }
        let (all, estimated) = (all / f64::from(rounds), estimated / f64::from(rounds));
        assert!(all > 8.0, "{all}");
        assert!(
            (estimated - all).abs() < 0.03 * all,
            "{estimated} against {all}"
        );
        let margins = vec![vec![1.0, 2.0], vec![0.0, 0.0], vec![-3.0, -1.0]];
        assert_eq!(random_loss(&margins, 0, 3), random_loss(&margins, 1, 3));
    }

    #[test]
    fn only_a_drop_clear_of_the_noise_counts() {
        // The same small drop on every sample: clear.
        assert!(clearly_worse(&[5.0, 6.0, 7.0], &[4.0, 5.0, 6.0]));
        // A large mean drop from one wild sample among even ones: not clear.
        assert!(!clearly_worse(
            &[0.0, 0.0, 0.0, 30.0],
            &[1.0, -1.0, 0.0, 0.0]
        ));
        assert!(!clearly_worse(&[1.0, 2.0], &[1.0, 2.0]));
    }
}
