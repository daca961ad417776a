//! `keltis review`: reviews games on one core, for the cost figures in docs/performance.md and
//! to look at a review by hand. The games are recorded ones (`--records`, one JSON record per
//! line, as `keltis selfplay --records` or the export writes them) or games between greedy bots.

use std::io::BufRead;
use std::time::Instant;

use serde::Serialize;

use crate::engine::bots::{Bot, BotKind};
use crate::engine::setup::SeedRng;
use crate::engine::{Game, Record, Setup, SetupError, Variant};
use crate::review::{review, Effort, Review, ReviewError};

pub mod calibrate;
pub mod tables;

/// One game reviewed, and what it cost.
#[derive(Debug, Serialize)]
pub struct ReviewedGame {
    pub decisions: usize,
    pub judged: usize,
    pub seconds: f64,
    pub review: Review,
}

#[derive(Debug, thiserror::Error)]
pub enum ReviewToolError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Review(#[from] ReviewError),
    #[error("a bot failed: {0}")]
    Bot(String),
    #[error("the game never ended: stopped after a bot game's most decisions")]
    NeverEnded,
    #[error("line {line}: {error}")]
    Record { line: usize, error: String },
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error("cannot pool: {0}")]
    Pool(String),
}

/// A bot game here lasts some 100 to 400 decisions; one still running after this many has bots
/// passing cards through the discard piles for ever (two strong bots did in Keltis Card), and is
/// stopped: 20,000 decisions of the strong bot, the arena's limit, took a calibration a quarter
/// of an hour.
pub const MOST_DECISIONS: usize = 2_000;

/// A game between greedy bots, recorded.
pub fn greedy_game(variant: Variant, players: u8, seed: u64) -> Result<Record, ReviewToolError> {
    bot_game(BotKind::Greedy, variant, players, seed)
}

/// A game between bots of one kind, recorded.
pub fn bot_game(
    kind: BotKind,
    variant: Variant,
    players: u8,
    seed: u64,
) -> Result<Record, ReviewToolError> {
    let seats = vec![Player::Bot(kind); usize::from(players)];
    mixed_game(&seats, variant, seed)
}

/// Who plays a seat of a calibration game.
#[derive(Clone, Copy, Debug)]
pub enum Player {
    Bot(BotKind),
    /// The review's own judgement, at this effort ([`crate::review::best_choice`]).
    Judge(Effort),
}

/// A game with `seats[seat]` playing each seat, recorded.
pub fn mixed_game(
    seats: &[Player],
    variant: Variant,
    seed: u64,
) -> Result<Record, ReviewToolError> {
    Ok(mixed_game_within(seats, variant, seed, MOST_DECISIONS)?.record)
}

/// A game played, and the seconds each seat's player spent deciding in it (of one core, as the
/// tool runs): what "at equal time" is measured by.
pub struct PlayedGame {
    pub record: Record,
    pub seconds_deciding: Vec<f64>,
}

/// [`mixed_game`], timed, stopped as never ending after `most_decisions`.
pub fn mixed_game_within(
    seats: &[Player],
    variant: Variant,
    seed: u64,
    most_decisions: usize,
) -> Result<PlayedGame, ReviewToolError> {
    let players = seats.len() as u8;
    let setup = Setup::deal(variant, players, seed)?;
    let mut game = Game::from_setup(&setup)?;
    let mut record = Record::new(setup);
    let mut bots: Vec<Option<Bot>> = seats
        .iter()
        .zip(0u64..)
        .map(|(p, s)| match p {
            Player::Bot(kind) => Some(Bot::new(*kind, seed ^ (0xB07 + s))),
            Player::Judge(_) => None,
        })
        .collect();
    let mut seconds_deciding = vec![0.0; seats.len()];
    while let Some(seat) = game.to_act() {
        let bot_error = |e: &dyn std::fmt::Display| ReviewToolError::Bot(e.to_string());
        let started = Instant::now();
        let view = game.view(Some(seat));
        let d = match (&mut bots[usize::from(seat)], seats[usize::from(seat)]) {
            (Some(bot), _) => bot.decide(&view).map_err(|e| bot_error(&e))?,
            (None, Player::Judge(effort)) => {
                let stream = seed ^ ((record.decisions.len() as u64) << 8) ^ u64::from(seat);
                crate::review::best_choice(&view, effort, &mut SeedRng::new(stream))?
            }
            (None, Player::Bot(_)) => return Err(ReviewToolError::Bot("no bot".into())),
        };
        seconds_deciding[usize::from(seat)] += started.elapsed().as_secs_f64();
        game.apply(seat, d).map_err(|e| bot_error(&e))?;
        record.push(&game, seat, d);
        if record.decisions.len() >= most_decisions {
            return Err(ReviewToolError::NeverEnded);
        }
    }
    Ok(PlayedGame {
        record,
        seconds_deciding,
    })
}

/// The records in `input`, one JSON record per line (blank lines skipped).
pub fn read_records(input: impl BufRead) -> Result<Vec<Record>, ReviewToolError> {
    json_lines(input, |line| !line.trim().is_empty())
}

/// The calibration games in `input`, a run's progress output: each line that opens a JSON object
/// is a game ([`tables::GameLine`]); the rest (the tables between) is skipped.
pub fn read_game_lines(input: impl BufRead) -> Result<Vec<tables::GameLine>, ReviewToolError> {
    json_lines(input, |line| line.trim_start().starts_with('{'))
}

/// The lines of `input` that `wanted` keeps, each parsed as one JSON value.
fn json_lines<T: serde::de::DeserializeOwned>(
    input: impl BufRead,
    wanted: impl Fn(&str) -> bool,
) -> Result<Vec<T>, ReviewToolError> {
    let mut values = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let error = |e: &dyn std::fmt::Display| ReviewToolError::Record {
            line: i + 1,
            error: e.to_string(),
        };
        let line = line.map_err(|e| error(&e))?;
        if wanted(&line) {
            values.push(serde_json::from_str(&line).map_err(|e| error(&e))?);
        }
    }
    Ok(values)
}

/// Reviews one game, timed.
pub fn review_timed(
    record: &Record,
    effort: Effort,
    seed: u64,
) -> Result<ReviewedGame, ReviewToolError> {
    let started = Instant::now();
    let review = review(record, effort, seed)?;
    Ok(ReviewedGame {
        decisions: record.decisions.len(),
        judged: review.decisions.len(),
        seconds: started.elapsed().as_secs_f64(),
        review,
    })
}

/// How far reviews repeat themselves: each record reviewed with its seed and with that + 1000,
/// the decisions both marked alike (`keltis review --stability`; issue 66 asks 95%).
#[derive(Debug, Default, Serialize)]
pub struct Stability {
    pub decisions: usize,
    pub marked_alike: usize,
    /// Decisions marked in either review.
    pub marked: usize,
}

pub fn stability(records: &[(Record, u64)], effort: Effort) -> Result<Stability, ReviewToolError> {
    let mut out = Stability::default();
    for (record, seed) in records {
        let seed = *seed;
        let first = review(record, effort, seed)?;
        let second = review(record, effort, seed.wrapping_add(1000))?;
        for (a, b) in first.decisions.iter().zip(&second.decisions) {
            out.decisions += 1;
            out.marked_alike += usize::from(a.mark == b.mark);
            out.marked += usize::from(a.mark.is_some() || b.mark.is_some());
        }
    }
    Ok(out)
}

/// What `keltis review` prints: each game's review (each record with its seed), one JSON line a
/// game (its figures only with `summary`).
pub fn print_reviews(
    records: &[(Record, u64)],
    effort: Effort,
    summary: bool,
) -> Result<(), ReviewToolError> {
    for (record, seed) in records {
        let mut reviewed = review_timed(record, effort, *seed)?;
        if summary {
            reviewed.review.decisions.clear();
            reviewed.review.draws.clear();
        }
        println!("{}", serde_json::to_string(&reviewed)?);
    }
    Ok(())
}
