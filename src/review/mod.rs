//! The review of a finished game, pure like the engine: every decision of every player judged
//! from what that player knew when they made it, and the luck of their draws told apart from
//! their play. The service (`service/review`) queues reviews and stores what this module finds.
//!
//! - [`judge`]: a decision's choices scored on games sampled from the player's own view.
//! - [`endgame`]: the end of a sampled game searched exactly, draws by their chances.
//! - [`marks`]: margins turned into winning chances, marks and an accuracy figure.
//!
//! The outcome judged is the **final margin**: the player's total minus the best total of the
//! others. With two players that is the score difference; with three or four it is how far the
//! player finished ahead of, or behind, the best of the rest, whose sign says whether they won.
//! It is in points, as players count, and unlike a placing it tells a near miss from a rout.

pub mod endgame;
pub mod judge;
pub mod marks;
mod play_out;

#[cfg(test)]
mod hybrid_tests;
#[cfg(test)]
mod play_out_tests;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use crate::engine::bots::sample::SampleError;
use crate::engine::decision::{Decision, DecisionJson, DecisionOf};
use crate::engine::game::Game;
use crate::engine::record::{Record, ReplayError};
use crate::engine::setup::SeedRng;
use crate::engine::view::View;
use crate::engine::Variant;
pub use judge::{Effort, Judge};
pub use marks::Mark;

/// Games sampled per decision, and positions an exact search may expand per sample, in the
/// server's reviews (see docs/performance.md for what they cost).
pub const SAMPLES: usize = 100;
pub const EXACT_NODES: u32 = 5_000;

/// The judge's revision: raised by every change that moves any figure a review gives, so that
/// calibration games judged before (docs/calibration/, which say theirs) are never pooled with
/// games judged after. 1: until the credit for a delay was cross-fitted (December 2026); 2: until
/// a choice credited for a delay was held to the best's value (`judge::credit_delays`, the
/// seventh of December 2026: the hybrid judge's figures move, the quick judge's do not); 3: until
/// the hybrid judge's play-outs started a Keltis path with any two cards of its colour
/// (`engine::bots::paths::StartRule::JUDGE`, the eighth of December 2026: Keltis's figures move).
pub const JUDGE_REVISION: u32 = 4;

/// The effort the server reviews a game of `variant` between `players` with: the hybrid judge
/// in Keltis and Keltis Card and in two-player Neue Wege, the quick judge elsewhere (Neue Wege
/// with three and four players). With two and three players the hybrid one tells greedy play
/// from strong play and random from greedy, with points lost a decision apart, and its advice
/// holds its own against the strong bot, where the quick one does not, at five to twelve times
/// its cost (of one core a game: Keltis 17 to 25 s with two players, 42 to 53 s with three, on
/// the machine of docs/performance.md's "A missed choice charged as a delay"; Keltis Card 8 to
/// 14 s, "Keltis Card by the hybrid judge"; Neue Wege 32 to 45 s, "Neue Wege by the hybrid
/// judge"; a quarter less each since, "The hybrid judge's play-outs a quarter quicker"). In
/// four-player Keltis the quick judge ranked a player choosing at random below the greedy bot
/// in only 38% of games; the hybrid one in 99%, at some 50 s of one core a game (on 40 samples,
/// half the cost, in 91%: docs/performance.md, "Four-player Keltis by the hybrid judge").
pub fn server_effort(variant: Variant, players: u8) -> Effort {
    let judge = match (variant, players) {
        (Variant::Keltis | Variant::KeltisCard, _) | (Variant::NeueWege, 2) => Judge::Hybrid,
        _ => Judge::Quick,
    };
    Effort {
        samples: SAMPLES,
        exact_nodes: EXACT_NODES,
        judge,
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    #[error("the game is not over: a review would judge moves by cards still hidden")]
    NotOver,
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("a position could not be sampled: {0}")]
    Sample(#[from] SampleError),
}

/// One decision judged: what was played, what was best, what the difference cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct JudgedDecision {
    /// Its place in the game's record (0 is the first decision).
    pub index: usize,
    pub seat: u8,
    /// How many choices the player had.
    pub choices: usize,
    pub played: DecisionJson,
    /// The choice with the best expected margin (the played one where it was best).
    pub best: DecisionJson,
    /// Expected final margin, in points, after the played choice and after the best one.
    pub margin: f64,
    pub best_margin: f64,
    /// Winning chance (0..1) after the played choice and after the best one.
    pub win_chance: f64,
    pub best_win_chance: f64,
    /// The winning chance given away (best minus played).
    pub chance_lost: f64,
    /// Points given away (best minus played expected margin).
    pub points_lost: f64,
    /// Points a choice made uniformly at random would have given away here, on average (by the
    /// same measure): what the accuracy compares `points_lost` with.
    #[serde(default)]
    pub random_points_lost: f64,
    /// Set only where the best choice was clearly better on the same samples.
    #[schema(required = true)]
    pub mark: Option<Mark>,
    /// Every sampled game was searched exactly to its end (near the end of the game, where it
    /// fits: see docs/playing.md).
    #[serde(default)]
    pub exact: bool,
}

/// A card drawn from the draw pile: how the player's expected margin moved when they saw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct DrawLuck {
    pub index: usize,
    pub seat: u8,
    /// Expected final margin before the card was seen, and after.
    pub before: f64,
    pub after: f64,
}

/// A player's figures over the whole game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PlayerReview {
    pub seat: u8,
    /// Decisions with more than one choice.
    pub judged: usize,
    /// Accuracy, 0..100: the share of the points that choosing at random would have given away
    /// that the player kept (100: the best choice every time; about 0: as if at random).
    pub accuracy: f64,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// Expected points given away, summed.
    pub points_lost: f64,
    /// Points the draws from the draw pile brought beyond what was expected (negative: less).
    pub luck: f64,
    /// The final margin the game ended with.
    pub final_margin: f64,
}

/// A finished game's review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = ReviewReport)]
pub struct Review {
    pub variant: Variant,
    pub players: u8,
    /// Games sampled per decision.
    pub samples: usize,
    /// How the sampled games were played on after each choice (docs/playing.md, "How a review
    /// judges"): `quick` or `hybrid` in the server's reviews. Reviews kept from before the field
    /// was named were all made by the quick judge.
    #[serde(default = "judge_of_older_reviews")]
    #[schema(required = true)]
    pub judge: Judge,
    /// The judge's revision, raised by every change that moves a figure a review gives: two
    /// reviews of one game by two revisions differ a little. Reviews kept from before the field
    /// was named read 1, which stands for every judge before revisions were counted.
    #[serde(default = "first_judge_revision")]
    #[schema(required = true, minimum = 1)]
    pub judge_revision: u32,
    pub seed: u64,
    pub decisions: Vec<JudgedDecision>,
    pub draws: Vec<DrawLuck>,
    pub summary: Vec<PlayerReview>,
}

/// See [`Review::judge`].
fn judge_of_older_reviews() -> Judge {
    Judge::Quick
}

/// The revision of whatever judged a review or a calibration game that does not say its own:
/// both were first kept before they said it ([`Review::judge_revision`]).
pub fn first_judge_revision() -> u32 {
    1
}

/// Reviews a finished game. The same record, effort and seed give the same review.
pub fn review(record: &Record, effort: Effort, seed: u64) -> Result<Review, ReviewError> {
    let finished = record.replay()?;
    let Some(result) = finished.result() else {
        return Err(ReviewError::NotOver);
    };
    let mut game = Game::from_setup(&record.setup).map_err(ReplayError::from)?;
    let players = game.players();
    let mut decisions = Vec::new();
    let mut draws = Vec::new();
    for (index, recorded) in record.decisions.iter().enumerate() {
        let seat = recorded.seat;
        let played = recorded
            .decision
            .clone()
            .resolve(game.board())
            .map_err(|error| ReplayError::Decision { index, error })?;
        // Each decision has its own stream: reviewing part of a game again gives the same figures.
        let mut rng = SeedRng::new(seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut before_draw = None;
        if game.to_act() == Some(seat) {
            let (judged, drawn) =
                judge_decision(&game.view(Some(seat)), index, played, effort, &mut rng)?;
            decisions.extend(judged);
            before_draw = drawn;
        }
        recorded
            .apply_to(&mut game)
            .map_err(|error| ReplayError::Decision { index, error })?;
        if let Some(before) = before_draw {
            let after = judge::position_margin(&game.view(Some(seat)), effort, &mut rng)?;
            draws.push(DrawLuck {
                index,
                seat,
                before: round(before),
                after: round(after),
            });
        }
    }
    let totals: Vec<i32> = result.scores.iter().map(|s| s.total).collect();
    let summary = (0..players)
        .map(|seat| summarise(seat, &decisions, &draws, judge::margin(&totals, seat)))
        .collect();
    Ok(Review {
        variant: game.variant(),
        players,
        samples: effort.samples,
        judge: effort.judge,
        judge_revision: JUDGE_REVISION,
        seed,
        decisions,
        draws,
        summary,
    })
}

/// The decision `played` at `index` of the record, judged from `view` (its player's): the
/// judgement where there was a choice, and the expected margin of drawing from the draw pile
/// where that was played. A resignation or a time-out is not among the choices: not judged.
fn judge_decision(
    view: &View,
    index: usize,
    played: Decision,
    effort: Effort,
    rng: &mut SeedRng,
) -> Result<(Option<JudgedDecision>, Option<f64>), ReviewError> {
    let legal = view
        .resolved_legal_decisions()
        .map_err(|error| ReplayError::Decision { index, error })?;
    let Some(at) = legal
        .iter()
        .position(|d| d.normalized() == played.normalized())
    else {
        return Ok((None, None));
    };
    let draws = matches!(played, DecisionOf::DrawDeck);
    if legal.len() == 1 {
        let before = draws
            .then(|| judge::position_margin(view, effort, rng))
            .transpose()?;
        return Ok((None, before));
    }
    let values = judge::choice_margins(view, &legal, Some(at), effort, rng)?;
    let Some(own) = values.position(at) else {
        return Err(SampleError("the played choice was not valued").into());
    };
    let (means, mut best) = values.means_and_best();
    // What the played choice gave away, measured on samples that did not pick the best (see
    // `marks::held_out_loss`); none, and the played choice stands as the best.
    let lost = marks::held_out_loss(&values.margins, own).max(0.0);
    let random_lost = values.random_loss();
    if lost == 0.0 {
        best = own;
    }
    // The winning chances: the share of the samples won after each choice (a search's chance
    // where it weighed the draws), the chance given away measured as the points are.
    let mut chances = marks::Chances::of(&values.wins, own);
    if !values.exact && chances.lost >= marks::LOOK_AGAIN {
        chances = look_again(view, &legal, own, &values, effort, rng)?;
    }
    let mark = chances.mark();
    let board = view.variant.board();
    let board = board.as_deref();
    let judged = JudgedDecision {
        index,
        seat: view.seat.unwrap_or_default(),
        choices: legal.len(),
        played: played.normalized().to_json(board),
        best: legal[values.choices[best]].normalized().to_json(board),
        margin: round(means[own]),
        best_margin: round(means[own] + lost),
        win_chance: round(chances.played),
        best_win_chance: round(chances.best),
        chance_lost: round(chances.lost),
        points_lost: round(lost),
        random_points_lost: round(random_lost),
        mark,
        exact: values.exact,
    };
    Ok((Some(judged), draws.then_some(means[own])))
}

/// A decision that may give winning chances away, judged again on [`LOOK_AGAIN_SAMPLES`] times
/// more samples: the played choice and the [`LOOK_AGAIN_WIDTH`] others with the best winning
/// chances so far, each on the first samples and the new ones (every choice on the same games in
/// each). A drop in winning chance is measured on half the samples (held out), so near a mark's
/// threshold a review with another seed often marked another way (92% of decisions marked alike
/// in two reviews of the same games, before): samples are spent where a mark hangs on them.
fn look_again(
    view: &View,
    legal: &[Decision],
    own: usize,
    values: &judge::ChoiceMargins,
    effort: Effort,
    rng: &mut SeedRng,
) -> Result<marks::Chances, ReviewError> {
    let wins = &values.wins;
    let means: Vec<f64> = wins.iter().map(|w| marks::mean_and_spread(w).0).collect();
    let mut order: Vec<usize> = (0..wins.len()).filter(|&k| k != own).collect();
    order.sort_by(|&a, &b| means[b].total_cmp(&means[a]));
    order.truncate(LOOK_AGAIN_WIDTH);
    order.insert(0, own);
    let chosen: Vec<Decision> = order.iter().map(|&k| legal[values.choices[k]]).collect();
    let more = Effort {
        samples: effort.samples * LOOK_AGAIN_SAMPLES,
        ..effort
    };
    // At most `HYBRID_BEST` choices: all of them valued, in order.
    let again = judge::choice_margins(view, &chosen, Some(0), more, rng)?;
    let joined: Vec<Vec<f64>> = order
        .iter()
        .zip(again.wins)
        .map(|(&k, new)| wins[k].iter().copied().chain(new).collect())
        .collect();
    Ok(marks::Chances::of(&joined, 0))
}

/// See [`look_again`].
const LOOK_AGAIN_SAMPLES: usize = 3;
const LOOK_AGAIN_WIDTH: usize = 3;
// The hybrid judge values every choice of a second look with its greedy play-outs.
const _: () = assert!(LOOK_AGAIN_WIDTH < judge::HYBRID_BEST);

/// The choice a review would call best from `view` (its seat to act): the highest mean margin on
/// the same samples a review takes. A player that plays by it is the calibration's "judge as a
/// player": a review is only as good as the advice it gives.
pub fn best_choice(
    view: &View,
    effort: Effort,
    rng: &mut SeedRng,
) -> Result<Decision, ReviewError> {
    let legal = view
        .resolved_legal_decisions()
        .map_err(|_| SampleError("the view's choices could not be listed"))?;
    let Some(&first) = legal.first() else {
        return Err(SampleError("nothing to choose").into());
    };
    if legal.len() == 1 {
        return Ok(first);
    }
    // Without the hybrid judge's stand-ins: they measure random play, not to be chosen (the quick
    // screen found them worse than the best four, and the best of many looks better than it is).
    let values = judge::candidate_margins(view, &legal, effort, rng)?;
    Ok(legal[values.choices[values.means_and_best().1]])
}

fn summarise(
    seat: u8,
    decisions: &[JudgedDecision],
    draws: &[DrawLuck],
    final_margin: f64,
) -> PlayerReview {
    let own: Vec<&JudgedDecision> = decisions.iter().filter(|d| d.seat == seat).collect();
    let count = |m: Mark| own.iter().filter(|d| d.mark == Some(m)).count();
    let accuracy = marks::accuracy(
        own.iter().map(|d| d.points_lost).sum(),
        own.iter().map(|d| d.random_points_lost).sum(),
    );
    PlayerReview {
        seat,
        judged: own.len(),
        accuracy: round(accuracy),
        inaccuracies: count(Mark::Inaccuracy),
        mistakes: count(Mark::Mistake),
        blunders: count(Mark::Blunder),
        points_lost: round(own.iter().map(|d| d.points_lost).sum()),
        luck: round(
            draws
                .iter()
                .filter(|d| d.seat == seat)
                .map(|d| d.after - d.before)
                .sum(),
        ),
        final_margin,
    }
}

/// Figures to the hundredth: what a reader needs, and a stable document.
fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
