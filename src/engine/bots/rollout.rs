//! The rollout bot (`bot-strong`): the few best decisions one step ahead, each played out on the
//! same games sampled from the bot's view, every seat then playing as the greedy bot would; the
//! decision whose play-outs end best on average is taken. This is policy rollout (Tesauro and Galperin's
//! for backgammon): a base policy played forward judges a decision far better than its own
//! one-step look, and on the same hidden cards the comparison is paired. It beat the tree search
//! (`mcts`) clearly at the same time per decision: a play-out by greedy's rules is slower than the
//! tree's quick policy but much closer to how games really go (see docs/performance.md).

use std::time::Instant;

use super::greedy::{Valuation, POTENTIAL};
use super::sample::sample_game;
use super::Budget;
use crate::engine::decision::Decision;
use crate::engine::game::Game;
use crate::engine::setup::SeedRng;
use crate::engine::view::View;
use crate::engine::Variant;

/// Decisions searched, greedy's best first.
const WIDTH: usize = 4;
/// Keltis Card's play-outs stop after this many decisions and are judged by the heuristic (they
/// measured no worse than play-outs to the end, and are quicker).
const CARD_HORIZON: usize = 40;
/// The board games play out to the end, or this many decisions: a whole game is a few hundred,
/// and greedy players who pass cards to each other through the piles would never end one.
const BOARD_HORIZON: usize = 1_000;

/// What the search did, for tests and reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RolloutStats {
    /// Sampled games, each played out once per decision searched.
    pub samples: u32,
}

/// How many decisions a play-out of `variant` runs before its position is valued instead.
pub fn horizon(variant: Variant) -> usize {
    match variant {
        Variant::KeltisCard => CARD_HORIZON,
        Variant::Keltis | Variant::NeueWege => BOARD_HORIZON,
    }
}

/// The seat's lead over the best other seat, in points: the final totals once the game is over,
/// the planning value before (Keltis Card's play-outs stop early: its plan judged them better
/// than greedy's heuristic, 89% against 84%).
pub fn lead(game: &Game, seat: u8) -> f64 {
    let value = super::planning_value(game.variant);
    let worth: Vec<f64> = (0..game.players).map(|s| (value.of)(game, s)).collect();
    let best_other = worth
        .iter()
        .enumerate()
        .filter(|(other, _)| *other != seat as usize)
        .map(|(_, w)| *w)
        .fold(f64::NEG_INFINITY, f64::max);
    worth[seat as usize] - best_other
}

/// Play `game` on as the greedy bot would, for every seat, to the end or `horizon` decisions.
pub fn play_out(game: &mut Game, horizon: usize, legal: &mut Vec<Decision>) {
    play_out_by(game, horizon, legal, POTENTIAL, |_, _, _| {});
}

/// [`play_out`], with another valuation of the positions, and `narrow` leaving out choices
/// before greedy chooses among those left (it gets the game, the seat to act and its choices).
pub fn play_out_by(
    game: &mut Game,
    horizon: usize,
    legal: &mut Vec<Decision>,
    value: Valuation,
    mut narrow: impl FnMut(&Game, u8, &mut Vec<Decision>),
) {
    // Greedy's tries are copied into one game for the whole play-out.
    let mut scratch: Option<Game> = None;
    for _ in 0..horizon {
        let Some(actor) = game.to_act() else { return };
        game.legal_decisions_into(legal);
        narrow(game, actor, legal);
        let decision = match legal.as_slice() {
            [only] => *only,
            // The play-out's game is whole: greedy judges on it alone.
            _ => {
                let scratch = scratch.get_or_insert_with(|| game.clone());
                match super::greedy::best_by(game, actor, legal, value, scratch) {
                    Some(d) => d,
                    None => return,
                }
            }
        };
        if game.apply(actor, decision).is_err() {
            return;
        }
    }
}

/// Choose among `legal` for the view's seat within the budget (iterations are sampled games).
pub fn search(
    view: &View,
    legal: &[Decision],
    budget: Budget,
    rng: &mut SeedRng,
) -> (Decision, RolloutStats) {
    let started = Instant::now();
    let seat = view.seat.unwrap_or(0);
    let candidates = super::root_candidates(view, seat, legal, WIDTH, rng);
    if candidates.len() <= 1 {
        let only = candidates.first().copied().unwrap_or(legal[0]);
        return (only, RolloutStats { samples: 0 });
    }
    let horizon = horizon(view.variant);
    let mut leads = vec![0.0; candidates.len()];
    let mut samples = 0u32;
    let mut scratch = Vec::with_capacity(64);
    let mut game: Option<Game> = None;
    loop {
        if samples > 0 && budget.spent(started, samples) {
            break;
        }
        let Ok(sampled) = sample_game(view, rng) else {
            break;
        };
        for (i, decision) in candidates.iter().enumerate() {
            // One game copied into each time (`clone_from` keeps its buffers).
            let game = match game.as_mut() {
                Some(g) => {
                    g.clone_from(&sampled);
                    g
                }
                None => game.insert(sampled.clone()),
            };
            if game.apply(seat, *decision).is_err() {
                leads[i] = f64::NEG_INFINITY;
                continue;
            }
            play_out(game, horizon, &mut scratch);
            leads[i] += lead(game, seat);
        }
        samples += 1;
    }
    // Ties keep greedy's order.
    let mut best = 0;
    for i in 1..candidates.len() {
        if leads[i] > leads[best] {
            best = i;
        }
    }
    (candidates[best], RolloutStats { samples })
}
