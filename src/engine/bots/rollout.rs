//! The rollout bot (`bot-strong`): the few best decisions one step ahead, each played out on the
//! same games sampled from the bot's view, every seat then playing as the greedy bot would; the
//! decision whose play-outs end best on average is taken. This is policy rollout (Tesauro and Galperin's
//! for backgammon): a base policy played forward judges a decision far better than its own
//! one-step look, and on the same hidden cards the comparison is paired. It beat the tree search
//! (`mcts`) clearly at the same time per decision: a play-out by greedy's rules is slower than the
//! tree's quick policy but much closer to how games really go (see docs/performance.md). In
//! four-player Keltis the play-outs, and the decisions searched, start paths as players do
//! ([`starts_paths`]).

use std::time::Instant;

use super::greedy::{Valuation, POTENTIAL};
use super::paths;
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

/// Whether the bot plays on starting paths as players do ([`paths`]): in four-player Keltis. Its
/// candidates there are ranked with pawns valued by the seat's own turns left and include the
/// start a player would make, and every seat's play-outs start paths so. Against itself playing
/// on as greedy alone it won 49% of its seats and the other none (40 games of four seats, two
/// each, `rollout:32i`; mean score 30.8 against 6.4); with three players the same change won no
/// more than its share, so it is four-player Keltis's alone (docs/performance.md).
pub fn starts_paths(variant: Variant, players: u8) -> bool {
    variant == Variant::Keltis && players == 4
}

/// [`super::root_candidates`] ranked by [`paths::BY_OWN_TURNS`], and the lays of the start due
/// in the seat's hand ([`paths::due_start`]), if any.
fn with_due_start(view: &View, seat: u8, legal: &[Decision], rng: &mut SeedRng) -> Vec<Decision> {
    let mut candidates =
        super::root_candidates_by(view, seat, legal, WIDTH, paths::BY_OWN_TURNS, rng);
    // The hand is the seat's own in every sampled game: one says which start is due.
    if let Ok(game) = sample_game(view, rng) {
        let mut due = legal.to_vec();
        paths::keep_due_start(&game, seat, &mut due, paths::StartRule::STRONG);
        if due.len() < legal.len() {
            for d in due {
                if !candidates.contains(&d) {
                    candidates.push(d);
                }
            }
        }
    }
    candidates
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
    let paths = starts_paths(view.variant, view.players);
    let candidates = if paths {
        with_due_start(view, seat, legal, rng)
    } else {
        super::root_candidates(view, seat, legal, WIDTH, rng)
    };
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
            if paths {
                paths::greedy_starting_paths(game, horizon, &mut scratch, paths::StartRule::STRONG);
            } else {
                play_out(game, horizon, &mut scratch);
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bots::{strong_revision, Bot, BotKind, STRONG_REVISION};
    use crate::engine::decision::DecisionOf;

    /// Given the positions of four-player Keltis games between greedy bots, when the strong bot
    /// there chooses what to search, then wherever its hand holds a start a player would make
    /// (a close run of an empty path's colour, B1: a path's first stones score below nothing
    /// alone), every lay of that card is among its candidates, though greedy's ranking leaves
    /// such starts out. Its choices differ from other games' strong bot, so its revision does.
    #[test]
    fn the_four_player_strong_bot_weighs_the_start_a_player_would_make() {
        assert!(starts_paths(Variant::Keltis, 4));
        assert_eq!(strong_revision(Variant::Keltis, 4), 3);
        for (variant, players) in [
            (Variant::Keltis, 2),
            (Variant::Keltis, 3),
            (Variant::NeueWege, 4),
            (Variant::KeltisCard, 2),
        ] {
            assert!(!starts_paths(variant, players), "{variant} {players}");
            assert_eq!(strong_revision(variant, players), STRONG_REVISION);
        }
        let (mut due_starts, mut outside_greedys_best) = (0, 0);
        for seed in 0..4 {
            let mut game = Game::new(Variant::Keltis, 4, seed).unwrap();
            let mut bot = Bot::new(BotKind::Greedy, seed);
            while let Some(seat) = game.to_act() {
                let legal = game.legal_decisions();
                let view = game.view(Some(seat));
                if let Some(card) = paths::due_start(&game, seat, paths::StartRule::STRONG) {
                    let lays: Vec<Decision> = legal
                        .iter()
                        .copied()
                        .filter(|d| matches!(*d, DecisionOf::Lay { card: c, .. } if c == card))
                        .collect();
                    if !lays.is_empty() {
                        due_starts += 1;
                        let candidates =
                            with_due_start(&view, seat, &legal, &mut SeedRng::new(seed));
                        for d in &lays {
                            assert!(candidates.contains(d), "{d:?} not in {candidates:?}");
                        }
                        let greedys = super::super::root_candidates(
                            &view,
                            seat,
                            &legal,
                            WIDTH,
                            &mut SeedRng::new(seed),
                        );
                        outside_greedys_best +=
                            usize::from(lays.iter().any(|d| !greedys.contains(d)));
                    }
                }
                let d = bot.decide(&view).unwrap();
                game.apply(seat, d).unwrap();
            }
        }
        // The case the rule is for arose: a due start greedy's own ranking left out.
        assert!(
            due_starts > 0 && outside_greedys_best > 0,
            "{due_starts} {outside_greedys_best}"
        );
    }
}
