//! `keltis arena`: bots against each other, seats rotated, on every core.

use std::time::Instant;

use serde::Serialize;

use crate::engine::bots::{Bot, BotKind};
use crate::engine::setup::SeedRng;
use crate::engine::{Game, SetupError, Variant};

/// A game still running after this many decisions is stopped and counted as unfinished (bots
/// could in principle pass cards through the piles forever).
pub const MAX_DECISIONS: usize = 20_000;

#[derive(Debug, Serialize)]
pub struct BotReport {
    pub bot: String,
    pub games: u64,
    /// Sole highest total.
    pub wins: u64,
    /// Highest total shared with another seat.
    pub draws: u64,
    pub losses: u64,
    pub win_rate: f64,
    /// Wilson score interval, 95%.
    pub win_rate_ci95: [f64; 2],
    pub mean_score: f64,
}

#[derive(Debug, Serialize)]
pub struct ArenaReport {
    pub variant: Variant,
    pub players: u8,
    pub games: u64,
    pub unfinished: u64,
    pub seed: u64,
    pub threads: usize,
    pub seconds: f64,
    pub bots: Vec<BotReport>,
}

#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    #[error("{players} players need {players} bots, {given} given")]
    BotCount { players: u8, given: usize },
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("a bot failed: {0}")]
    Bot(String),
}

#[derive(Default, Clone)]
struct Tally {
    games: u64,
    wins: u64,
    draws: u64,
    score: i64,
}

/// Wilson score interval for `k` successes in `n` trials, 95%.
pub fn wilson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (n, p, z) = (n as f64, k as f64 / n as f64, 1.96f64);
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z * z / n;
    // Rounding can leave a bound a hair outside [0, 1] (-1e-17 for k = 0).
    [
        ((centre - spread) / denom).clamp(0.0, 1.0),
        ((centre + spread) / denom).clamp(0.0, 1.0),
    ]
}

/// One game: seat `s` is played by entry `(s + rotation) % players`.
fn play(
    variant: Variant,
    kinds: &[BotKind],
    game_seed: u64,
    rotation: usize,
    tallies: &mut [Tally],
) -> Result<bool, ArenaError> {
    let players = kinds.len() as u8;
    let mut game = Game::new(variant, players, game_seed)?;
    let entry = |seat: u8| (seat as usize + rotation) % kinds.len();
    let mut bots: Vec<Bot> = (0..players)
        .map(|s| Bot::new(kinds[entry(s)], game_seed ^ (0xB07 + s as u64)))
        .collect();
    let mut decisions = 0;
    while let Some(seat) = game.to_act() {
        let d = bots[seat as usize]
            .decide(&game.view(Some(seat)))
            .map_err(|e| ArenaError::Bot(e.to_string()))?;
        game.apply(seat, d)
            .map_err(|e| ArenaError::Bot(e.to_string()))?;
        decisions += 1;
        if decisions >= MAX_DECISIONS {
            return Ok(false);
        }
    }
    let Some(result) = game.result() else {
        return Ok(false);
    };
    for score in &result.scores {
        let t = &mut tallies[entry(score.seat)];
        t.games += 1;
        t.score += score.total as i64;
        if result.winners.contains(&score.seat) {
            if result.winners.len() == 1 {
                t.wins += 1;
            } else {
                t.draws += 1;
            }
        }
    }
    Ok(true)
}

pub fn run(
    variant: Variant,
    players: u8,
    games: u64,
    kinds: &[BotKind],
    seed: u64,
    threads: usize,
) -> Result<ArenaReport, ArenaError> {
    if kinds.len() != players as usize {
        return Err(ArenaError::BotCount {
            players,
            given: kinds.len(),
        });
    }
    // Validate the setup once before spawning.
    Game::new(variant, players, seed)?;
    let mut seeds = SeedRng::new(seed);
    let game_seeds: Vec<u64> = (0..games).map(|_| seeds.next_u64()).collect();
    let threads = threads.max(1);
    let started = Instant::now();
    let results: Vec<Result<(Vec<Tally>, u64), ArenaError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let game_seeds = &game_seeds;
                scope.spawn(move || {
                    let mut tallies = vec![Tally::default(); kinds.len()];
                    let mut unfinished = 0;
                    for (g, &s) in game_seeds.iter().enumerate().skip(t).step_by(threads) {
                        if !play(variant, kinds, s, g % kinds.len(), &mut tallies)? {
                            unfinished += 1;
                        }
                    }
                    Ok((tallies, unfinished))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(ArenaError::Bot("a thread panicked".into())))
            })
            .collect()
    });
    let mut total = vec![Tally::default(); kinds.len()];
    let mut unfinished = 0;
    for r in results {
        let (tallies, u) = r?;
        unfinished += u;
        for (a, b) in total.iter_mut().zip(tallies) {
            a.games += b.games;
            a.wins += b.wins;
            a.draws += b.draws;
            a.score += b.score;
        }
    }
    let names: Vec<String> = kinds.iter().map(|k| k.name()).collect();
    let bots = total
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let duplicate = names.iter().filter(|n| **n == names[i]).count() > 1;
            BotReport {
                bot: if duplicate {
                    format!("{}#{i}", names[i])
                } else {
                    names[i].clone()
                },
                games: t.games,
                wins: t.wins,
                draws: t.draws,
                losses: t.games - t.wins - t.draws,
                win_rate: t.wins as f64 / t.games.max(1) as f64,
                win_rate_ci95: wilson(t.wins, t.games),
                mean_score: t.score as f64 / t.games.max(1) as f64,
            }
        })
        .collect();
    Ok(ArenaReport {
        variant,
        players,
        games,
        unfinished,
        seed,
        threads,
        seconds: started.elapsed().as_secs_f64(),
        bots,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let [lo, hi] = wilson(90, 100);
        assert!(lo < 0.9 && 0.9 < hi);
        assert!((lo - 0.826).abs() < 0.01 && (hi - 0.945).abs() < 0.01);
        assert_eq!(wilson(0, 0), [0.0, 1.0]);
        assert_eq!(wilson(0, 1000)[0], 0.0, "never below 0");
        assert_eq!(wilson(1000, 1000)[1], 1.0, "never above 1");
    }

    #[test]
    fn arena_rotates_seats_and_counts_every_game() {
        let kinds = [BotKind::Random, BotKind::Greedy];
        let r = run(Variant::KeltisCard, 2, 6, &kinds, 3, 2).unwrap();
        assert_eq!(r.bots.len(), 2);
        for b in &r.bots {
            assert_eq!(b.games + r.unfinished, 6);
            assert_eq!(b.wins + b.draws + b.losses, b.games);
        }
        assert!(run(Variant::Keltis, 3, 1, &kinds, 1, 1).is_err());
    }
}
