//! Computer opponents. A bot is given one seat's [`View`] and nothing else: it cannot see hidden
//! cards, by construction. Where it needs a whole game to think with, it samples one
//! consistent with the view ([`sample::sample_game`]).
//!
//! - `random`: a legal decision at random.
//! - `greedy`: the decision whose position looks best one step later (a heuristic per variant:
//!   pawns towards high values, rows that stay playable, wish stones, not feeding the next player).
//! - `planner`: greedy's one-step look with Keltis Card's plan as the value (`card_plan`); the
//!   same as greedy in the board games.
//! - `mcts`: information-set Monte Carlo tree search within a time or iteration budget.
//! - `rollout`: the best few decisions by the planning value, each played out by greedy's rules
//!   on sampled games (the strongest; the server's `bot-strong`); in four-player Keltis greedy's
//!   rules start paths as players do (`paths`).

pub mod card_plan;
pub mod greedy;
pub mod heuristic;
pub mod mcts;
pub mod paths;
pub mod rollout;
pub mod sample;

use std::time::Instant;

use super::decision::Decision;
use super::setup::SeedRng;
use super::view::View;
use super::Variant;

/// How long the search may think per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    Millis(u64),
    Iterations(u32),
}

impl Budget {
    /// `50ms` or `2000i`, neither zero.
    fn parse(s: &str) -> Option<Budget> {
        if let Some(ms) = s.strip_suffix("ms") {
            Some(Budget::Millis(ms.parse().ok().filter(|v| *v > 0)?))
        } else {
            let n = s.strip_suffix('i')?.parse().ok().filter(|v| *v > 0)?;
            Some(Budget::Iterations(n))
        }
    }

    fn name(self) -> String {
        match self {
            Budget::Millis(ms) => format!("{ms}ms"),
            Budget::Iterations(n) => format!("{n}i"),
        }
    }

    /// Whether a search that began at `started` and has done `done` iterations has spent it.
    fn spent(self, started: Instant, done: u32) -> bool {
        match self {
            Budget::Iterations(n) => done >= n,
            Budget::Millis(ms) => started.elapsed().as_secs_f64() * 1000.0 >= ms as f64,
        }
    }
}

/// How the searches value a position further ahead than greedy looks: Keltis Card's by the plan
/// its remaining turns allow (greedy's own one-step value never starts a path there), the board
/// games' by greedy's heuristic.
fn planning_value(variant: Variant) -> greedy::Valuation {
    match variant {
        Variant::KeltisCard => greedy::Valuation {
            of: card_plan::plan_value,
            after_discards: None,
        },
        Variant::Keltis | Variant::NeueWege => greedy::POTENTIAL,
    }
}

/// The searches' candidates: the best `width` decisions by the planning value one step ahead,
/// ranked on two games sampled from the view, and every decision that ends the game. Searching
/// only these keeps the budget on decisions worth comparing. (In Keltis Card, greedy's own best
/// few were the limit: 73% against greedy at 100 samples a decision, 84% with the plan's,
/// docs/performance.md.) The planning value counts what a running game still promises (rows with
/// room, cards that fit), an ended one only its score: it ranks the lay that fills the goal zone
/// (K9) while ahead below going on, and a strong bot passed over a certain win 85 turns running
/// (two-player Keltis, calibration seed 425). Whether a decision ends the game hangs on nothing
/// hidden, so one sampled game tells.
fn root_candidates(
    view: &View,
    seat: u8,
    legal: &[Decision],
    width: usize,
    rng: &mut SeedRng,
) -> Vec<Decision> {
    root_candidates_by(view, seat, legal, width, planning_value(view.variant), rng)
}

/// [`root_candidates`], ranked by `value` one step ahead.
fn root_candidates_by(
    view: &View,
    seat: u8,
    legal: &[Decision],
    width: usize,
    value: greedy::Valuation,
    rng: &mut SeedRng,
) -> Vec<Decision> {
    let games: Vec<_> = (0..2)
        .filter_map(|_| sample::sample_game(view, rng).ok())
        .collect();
    let mut ranked = greedy::rank_by(&games, seat, legal, value);
    let mut rest = ranked.split_off(width.min(ranked.len()));
    if let Some(game) = games.first() {
        let mut after = game.clone();
        rest.retain(|&d| {
            after.clone_from(game);
            after.apply(seat, d).is_ok() && after.is_over()
        });
        ranked.append(&mut rest);
    }
    ranked
}

/// How the strong bot (`rollout`, and `mcts`) chooses, by revision: raised by every change that
/// can change its choices, so that calibration games of one are never pooled with another's.
/// 1: greedy's best four searched; 2: and every decision that ends the game (2026-12-06).
pub const STRONG_REVISION: u32 = 2;

/// The strong bot's revision in games of `variant` with `players` seats: [`STRONG_REVISION`],
/// and 3 in four-player Keltis, where it starts paths as players do (2026-12-07:
/// [`rollout::starts_paths`]). A change that moves its choices in some games only raises the
/// revision of those.
pub fn strong_revision(variant: Variant, players: u8) -> u32 {
    if rollout::starts_paths(variant, players) {
        3
    } else {
        STRONG_REVISION
    }
}

/// The kinds of bot, by name: `random`, `greedy`, `planner`, `mcts` (10 ms), `mcts:50ms`,
/// `mcts:2000i`, `rollout` (100 ms), `rollout:50ms`, `rollout:20i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotKind {
    Random,
    Greedy,
    Planner,
    Mcts(Budget),
    Rollout(Budget),
}

impl BotKind {
    pub fn parse(s: &str) -> Option<BotKind> {
        match s {
            "random" => Some(BotKind::Random),
            "greedy" => Some(BotKind::Greedy),
            "planner" => Some(BotKind::Planner),
            "mcts" => Some(BotKind::Mcts(Budget::Millis(10))),
            "rollout" => Some(BotKind::Rollout(Budget::Millis(100))),
            _ => {
                if let Some(budget) = s.strip_prefix("mcts:") {
                    Budget::parse(budget).map(BotKind::Mcts)
                } else {
                    Budget::parse(s.strip_prefix("rollout:")?).map(BotKind::Rollout)
                }
            }
        }
    }

    pub fn name(self) -> String {
        match self {
            BotKind::Random => "random".into(),
            BotKind::Greedy => "greedy".into(),
            BotKind::Planner => "planner".into(),
            BotKind::Mcts(budget) => format!("mcts:{}", budget.name()),
            BotKind::Rollout(budget) => format!("rollout:{}", budget.name()),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    #[error("the view's seat is not to act")]
    NotToAct,
    #[error(transparent)]
    Sample(#[from] sample::SampleError),
    /// By the refusal's code: the decision itself may name a card of the bot's hand.
    #[error("the view lists a decision this engine does not know ({0})")]
    Decision(&'static str),
}

/// Greedy's sampled games per decision.
const GREEDY_SAMPLES: usize = 3;

/// A bot at one seat.
pub struct Bot {
    kind: BotKind,
    rng: SeedRng,
}

impl Bot {
    pub fn new(kind: BotKind, seed: u64) -> Bot {
        Bot {
            kind,
            rng: SeedRng::new(seed),
        }
    }

    pub fn kind(&self) -> BotKind {
        self.kind
    }

    /// A legal decision for the view's seat, which must be the seat to act.
    pub fn decide(&mut self, view: &View) -> Result<Decision, BotError> {
        let (Some(seat), Some(to_act)) = (view.seat, view.to_act) else {
            return Err(BotError::NotToAct);
        };
        if seat != to_act {
            return Err(BotError::NotToAct);
        }
        let legal = view
            .resolved_legal_decisions()
            .map_err(|e| BotError::Decision(e.code()))?;
        if legal.is_empty() {
            return Err(BotError::NotToAct);
        }
        // No thinking where there is nothing to choose.
        if legal.len() == 1 {
            return Ok(legal[0]);
        }
        Ok(match self.kind {
            BotKind::Random => legal[self.rng.below(legal.len() as u64) as usize],
            BotKind::Greedy | BotKind::Planner => {
                let samples = (0..GREEDY_SAMPLES)
                    .map(|_| sample::sample_game(view, &mut self.rng))
                    .collect::<Result<Vec<_>, _>>()?;
                let value = match self.kind {
                    BotKind::Planner => planning_value(view.variant),
                    _ => greedy::POTENTIAL,
                };
                greedy::rank_by(&samples, seat, &legal, value)[0]
            }
            BotKind::Mcts(budget) => mcts::search(view, &legal, budget, &mut self.rng).0,
            BotKind::Rollout(budget) => rollout::search(view, &legal, budget, &mut self.rng).0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, Variant};

    #[test]
    fn bot_names_parse_and_print() {
        for name in [
            "random",
            "greedy",
            "planner",
            "mcts:10ms",
            "mcts:500i",
            "rollout:100ms",
            "rollout:20i",
        ] {
            assert_eq!(BotKind::parse(name).unwrap().name(), name);
        }
        assert_eq!(
            BotKind::parse("mcts"),
            Some(BotKind::Mcts(Budget::Millis(10)))
        );
        assert_eq!(
            BotKind::parse("rollout"),
            Some(BotKind::Rollout(Budget::Millis(100)))
        );
        for bad in [
            "",
            "smart",
            "mcts:",
            "mcts:0ms",
            "mcts:10",
            "mcts:xi",
            "rollout:",
            "rollout:0i",
            "mctsrollout:5i",
        ] {
            assert_eq!(BotKind::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn every_bot_only_returns_legal_decisions_in_every_variant() {
        for kind in [
            BotKind::Random,
            BotKind::Greedy,
            BotKind::Planner,
            BotKind::Mcts(Budget::Iterations(30)),
            BotKind::Rollout(Budget::Iterations(2)),
        ] {
            for (variant, players) in [
                (Variant::Keltis, 2),
                (Variant::Keltis, 4),
                (Variant::NeueWege, 3),
                (Variant::KeltisCard, 2),
            ] {
                for seed in 0..2 {
                    let mut game = Game::new(variant, players, seed).unwrap();
                    let mut bots: Vec<Bot> = (0..players)
                        .map(|s| Bot::new(kind, seed * 10 + s as u64))
                        .collect();
                    while let Some(seat) = game.to_act() {
                        let view = game.view(Some(seat));
                        let d = bots[seat as usize].decide(&view).unwrap();
                        assert!(game.legal_decisions().contains(&d), "{kind:?} chose {d:?}");
                        game.apply(seat, d).unwrap();
                    }
                    assert!(game.result().is_some());
                }
            }
        }
    }

    /// K9 (the fifth pawn in the goal zone ends the game, and so does the last card drawn): the
    /// searches weigh every decision that ends the game, whatever greedy's one-step value
    /// makes of it (a strong bot passed over a certain win 85 turns running, calibration seed
    /// 425 of two-player Keltis).
    #[test]
    fn the_searches_weigh_every_decision_that_ends_the_game() {
        let mut outside_greedys_best = 0;
        for (variant, players) in [(Variant::Keltis, 2), (Variant::NeueWege, 3)] {
            for seed in 0..6 {
                // Given the positions of games between greedy bots,
                let mut game = Game::new(variant, players, seed).unwrap();
                let mut bot = Bot::new(BotKind::Greedy, seed);
                while let Some(seat) = game.to_act() {
                    let legal = game.legal_decisions();
                    let ends = |d: &Decision| {
                        let mut after = game.clone();
                        after.apply(seat, *d).is_ok() && after.is_over()
                    };
                    let ending: Vec<Decision> = legal.iter().copied().filter(ends).collect();
                    let view = game.view(Some(seat));
                    if !ending.is_empty() {
                        // when the searches choose their candidates (greedy's best one alone,
                        // that its own ranking leaves many an ending out),
                        let mut rng = SeedRng::new(seed);
                        let candidates = root_candidates(&view, seat, &legal, 1, &mut rng);
                        // then every decision that ends the game is among them.
                        for d in &ending {
                            assert!(candidates.contains(d), "{d:?} not in {candidates:?}");
                        }
                        outside_greedys_best += usize::from(candidates.len() > 1);
                    }
                    let d = bot.decide(&view).unwrap();
                    game.apply(seat, d).unwrap();
                }
            }
        }
        // The case the rule is for arose: an ending greedy's own ranking left out.
        assert!(outside_greedys_best > 0);
    }

    #[test]
    fn a_bot_refuses_a_view_whose_seat_is_not_to_act() {
        let game = Game::new(Variant::Keltis, 2, 1).unwrap();
        let idle = 1 - game.to_act().unwrap();
        let mut bot = Bot::new(BotKind::Greedy, 1);
        assert_eq!(bot.decide(&game.view(Some(idle))), Err(BotError::NotToAct));
        assert_eq!(bot.decide(&game.view(None)), Err(BotError::NotToAct));
    }

    #[test]
    fn mcts_respects_its_budget() {
        let game = Game::new(Variant::NeueWege, 2, 4).unwrap();
        let seat = game.to_act().unwrap();
        let view = game.view(Some(seat));
        let legal = game.legal_decisions();
        let mut rng = SeedRng::new(9);
        // Every candidate is tried once per sampled game: the budget is met to within one
        // round of candidates.
        let (_, stats) = mcts::search(&view, &legal, Budget::Iterations(123), &mut rng);
        assert!((123..123 + 4).contains(&stats.iterations), "{stats:?}");
        // A time budget stops the search: it ran some iterations and returned.
        let (d, stats) = mcts::search(&view, &legal, Budget::Millis(20), &mut rng);
        assert!(stats.iterations > 0);
        assert!(legal.contains(&d));
    }

    #[test]
    fn rollout_respects_its_budget() {
        let game = Game::new(Variant::Keltis, 3, 5).unwrap();
        let view = game.view(game.to_act());
        let legal = game.legal_decisions();
        let mut rng = SeedRng::new(3);
        let (d, stats) = rollout::search(&view, &legal, Budget::Iterations(3), &mut rng);
        assert_eq!(stats.samples, 3);
        assert!(legal.contains(&d));
        let (_, stats) = rollout::search(&view, &legal, Budget::Millis(5), &mut rng);
        assert!(stats.samples > 0);
    }

    /// A discard's worth read without playing it (greedy's tries read it so) is, to the bit, the
    /// worth after playing it, by greedy's valuation and by the hybrid judge's, at every discard
    /// open in the play phase of games between greedy bots of every variant.
    #[test]
    fn a_discards_worth_read_without_playing_it_is_the_worth_after_it() {
        use crate::engine::decision::DecisionOf;
        use crate::engine::game::Phase;
        use heuristic::{
            potential, potential_after_discards, potential_by_own_turns,
            potential_by_own_turns_after_discards,
        };
        let mut compared = 0;
        for (variant, players) in [
            (Variant::Keltis, 2),
            (Variant::Keltis, 4),
            (Variant::NeueWege, 3),
            (Variant::KeltisCard, 2),
        ] {
            let mut game = Game::new(variant, players, 7).unwrap();
            let mut bot = Bot::new(BotKind::Greedy, 7);
            while let Some(seat) = game.to_act() {
                for d in game.legal_decisions() {
                    let DecisionOf::Discard { card } = d else {
                        continue;
                    };
                    if game.phase() != Phase::Play {
                        continue;
                    }
                    let mut after = game.clone();
                    after.apply(seat, d).unwrap();
                    assert_eq!(
                        potential_after_discards(&game, seat).worth(card).to_bits(),
                        potential(&after, seat).to_bits(),
                        "{variant:?}: discarding {card}"
                    );
                    assert_eq!(
                        potential_by_own_turns_after_discards(&game, seat)
                            .worth(card)
                            .to_bits(),
                        potential_by_own_turns(&after, seat).to_bits(),
                        "{variant:?}: discarding {card}"
                    );
                    compared += 1;
                }
                let d = bot.decide(&game.view(Some(seat))).unwrap();
                game.apply(seat, d).unwrap();
            }
        }
        assert!(compared > 1_000, "{compared}");
    }
}
