//! `keltis selfplay`: random legal games, for speed figures and for records.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Instant;

use serde::Serialize;

use crate::engine::setup::SeedRng;
use crate::engine::{Game, Record, Setup, SetupError, Variant};

/// What a self-play run did.
#[derive(Debug, Serialize)]
pub struct SelfplayReport {
    pub variant: Variant,
    pub players: u8,
    pub seed: u64,
    pub games: u64,
    pub decisions: u64,
    pub seconds: f64,
    pub decisions_per_second: f64,
    /// How many games ended for each reason.
    pub end_reasons: BTreeMap<String, u64>,
    /// Mean final score of each seat.
    pub mean_scores: Vec<f64>,
}

#[derive(Debug, thiserror::Error)]
pub enum SelfplayError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("writing records: {0}")]
    Io(#[from] std::io::Error),
    #[error("engine refused its own legal decision in game seed {seed}: {error}")]
    Engine {
        seed: u64,
        error: crate::engine::RuleError,
    },
}

/// Play `games` random legal games. The games' seeds come from `seed`; with `records`, each
/// game's full record is written as one JSON line.
pub fn run(
    variant: Variant,
    players: u8,
    games: u64,
    seed: u64,
    mut records: Option<&mut dyn Write>,
) -> Result<SelfplayReport, SelfplayError> {
    let mut seeds = SeedRng::new(seed);
    let mut decisions = 0u64;
    let mut end_reasons = BTreeMap::new();
    let mut score_sums = vec![0i64; players as usize];
    let mut legal = Vec::with_capacity(64);
    let started = Instant::now();
    for _ in 0..games {
        let game_seed = seeds.next_u64();
        let setup = Setup::deal(variant, players, game_seed)?;
        let mut game = Game::from_setup(&setup)?;
        let mut record = records.is_some().then(|| Record::new(setup));
        let mut choices = SeedRng::new(game_seed ^ 0x5eed_c401ce);
        while let Some(seat) = game.to_act() {
            game.legal_decisions_into(&mut legal);
            let decision = legal[choices.below(legal.len() as u64) as usize];
            game.apply(seat, decision)
                .map_err(|error| SelfplayError::Engine {
                    seed: game_seed,
                    error,
                })?;
            if let Some(r) = record.as_mut() {
                r.push(&game, seat, decision);
            }
            decisions += 1;
        }
        if let Some(result) = game.result() {
            let reason = serde_json::to_value(result.end_reason)
                .ok()
                .and_then(|v| v.get("reason").and_then(|r| r.as_str()).map(String::from))
                .unwrap_or_default();
            *end_reasons.entry(reason).or_insert(0) += 1;
            for s in &result.scores {
                score_sums[s.seat as usize] += s.total as i64;
            }
        }
        if let (Some(out), Some(record)) = (records.as_mut(), record) {
            serde_json::to_writer(&mut **out, &record).map_err(std::io::Error::from)?;
            out.write_all(b"\n")?;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    Ok(SelfplayReport {
        variant,
        players,
        seed,
        games,
        decisions,
        seconds,
        decisions_per_second: decisions as f64 / seconds.max(1e-9),
        end_reasons,
        mean_scores: score_sums
            .iter()
            .map(|s| *s as f64 / games.max(1) as f64)
            .collect(),
    })
}
