//! Judging one decision from what its player knew: games sampled from that player's view (their
//! hand, everything in the open, the cards the others were seen to draw from the piles; the rest
//! of the other hands, the draw pile's order and the removed cards dealt at random from the cards
//! they could not see), every choice played on the same samples on, and the margins compared. The
//! play-outs are the search bot's quick policy, to the end ([`Judge::Quick`]), the
//! strong bot's own ([`Judge::Strong`]: costlier), or the quick policy for every choice and
//! greedy play-outs that start paths as players do for the best few ([`Judge::Hybrid`]; the
//! play-outs are in [`super::play_out`]). Near the end (the final plays, or at most
//! [`EXACT_PILE`] cards in the draw pile) each sampled game is searched exactly
//! ([`super::endgame`]) within [`Effort::exact_nodes`] positions; a sample whose search runs out
//! is played out, every choice alike. A decision is exact when every sample was searched.
//!
//! Given only a [`View`], the judge cannot use a card its player could not see: honest by
//! construction, as the bots are.

use crate::engine::bots::sample::{sample_game, SampleError};
use crate::engine::decision::Decision;
use crate::engine::game::{Game, Phase};
use crate::engine::setup::SeedRng;
use crate::engine::view::View;

use super::endgame::{Solver, Worth};
use super::marks::{half_mean, mean_and_spread};
use super::play_out::{NextTurn, PlayOut};

/// A decision with at most this many cards in the draw pile (or in Keltis Card's final plays) is
/// searched exactly where the search fits [`Effort::exact_nodes`].
pub const EXACT_PILE: usize = 1;

/// Once this many samples of one decision have run out of budget, the others are not searched
/// (they are as large, and each costs the whole budget): the decision is judged by play-outs.
const EXACT_FAILURES: usize = 1;

/// How hard the judge looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Sampled games per decision; every choice is played on each.
    pub samples: usize,
    /// Positions an exact search of the game's end (where the judged decision is near it) may
    /// expand per sampled game, for all its choices together, before play-outs take over.
    pub exact_nodes: u32,
    /// How the sampled games are played on.
    pub judge: Judge,
}

/// How the judge plays a sampled game on after a choice (a review names the one that made it).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Judge {
    /// As the strong bot (`rollout`) plays its own: greedy for every seat, Keltis Card's
    /// stopped after 40 decisions and valued by its plan.
    Strong,
    /// The search bot's quick policy, to the end: 3.4-10 times cheaper, and weaker.
    Quick,
    /// The quick policy for every choice, then greedy play-outs (the strong bot's, but starting
    /// a Keltis path wherever a hand holds two cards of its colour and valuing pawns by a seat's
    /// own turns left: `engine::bots::paths::greedy_starting_paths` by `StartRule::JUDGE`), on
    /// the same samples, for the [`HYBRID_BEST`] choices the quick one valued most, the played
    /// one, and [`HYBRID_STAND_INS`] of the others drawn at random (standing for the rest in
    /// what random play gives away, so that both are measured on one scale). Every figure a
    /// review gives comes from the greedy play-outs (or the exact search); the quick ones only
    /// choose which choices get them. A choice other than the best is valued at least as the
    /// best played a turn late, and at most as the best ([`credit_delays`]). The server's in
    /// Keltis and Keltis Card and in two-player Neue Wege ([`super::server_effort`]).
    Hybrid,
}

/// See [`Judge::Hybrid`].
pub const HYBRID_BEST: usize = 4;
pub const HYBRID_STAND_INS: usize = 2;

impl Judge {
    pub fn parse(s: &str) -> Option<Judge> {
        match s {
            "strong" => Some(Judge::Strong),
            "quick" => Some(Judge::Quick),
            "hybrid" => Some(Judge::Hybrid),
            _ => None,
        }
    }
}

/// The margins the valued choices reached: `margins[k][sample]`, in points, for the judged seat,
/// and whether it won (`wins[k][sample]`: 1, a half for a shared win, 0; a chance between
/// where a search weighed the draws to come); `k` counts the valued choices, `choices[k]` says
/// which of the choices given it is.
#[derive(Clone, Debug, PartialEq)]
pub struct ChoiceMargins {
    pub margins: Vec<Vec<f64>>,
    pub wins: Vec<Vec<f64>>,
    /// Every sample was searched exactly.
    pub exact: bool,
    /// The valued choices, as indices into the choices given: all of them in order, but for the
    /// hybrid judge's second look (the best, the kept one, then the stand-ins).
    pub choices: Vec<usize>,
    /// How many of the last valued choices stand, drawn at random, for the choices not valued.
    pub stand_ins: usize,
    /// How many choices were given.
    pub of: usize,
}

impl ChoiceMargins {
    /// Where choice `index` (of the choices given) is among the valued ones.
    pub fn position(&self, index: usize) -> Option<usize> {
        self.choices.iter().position(|&c| c == index)
    }

    /// Each valued choice's mean margin, and the best: the highest mean; equal means, the first
    /// valued.
    pub fn means_and_best(&self) -> (Vec<f64>, usize) {
        let means: Vec<f64> = self
            .margins
            .iter()
            .map(|m| super::marks::mean_and_spread(m).0)
            .collect();
        let best = (0..means.len()).fold(0, |b, i| if means[i] > means[b] { i } else { b });
        (means, best)
    }

    /// What a uniformly random choice among all those given would give away, in points
    /// ([`super::marks::random_loss`]).
    pub fn random_loss(&self) -> f64 {
        super::marks::random_loss(&self.margins, self.stand_ins, self.of)
    }
}

/// Whether a final margin won: 1, a half where the best total is shared, 0.
pub fn won(margin: f64) -> f64 {
    if margin > 0.0 {
        1.0
    } else if margin == 0.0 {
        0.5
    } else {
        0.0
    }
}

/// A seat's final margin: its total minus the best total of the other seats (with two players,
/// the score difference). Its sign says whether the seat won.
pub fn margin(totals: &[i32], seat: u8) -> f64 {
    let own = totals[seat as usize];
    let best_other = totals
        .iter()
        .enumerate()
        .filter(|(s, _)| *s != seat as usize)
        .map(|(_, t)| *t)
        .max()
        .unwrap_or(own);
    f64::from(own - best_other)
}

/// `n` games consistent with `view`, each seen by `view.seat` exactly as `view`.
pub fn samples(view: &View, n: usize, rng: &mut SeedRng) -> Result<Vec<Game>, SampleError> {
    (0..n).map(|_| sample_game(view, rng)).collect()
}

/// What judging from `view` starts with: its seat, the sampled games, and whether the end is
/// near enough to search exactly.
fn sampled(
    view: &View,
    effort: Effort,
    rng: &mut SeedRng,
) -> Result<(u8, Vec<Game>, bool), SampleError> {
    let seat = view
        .seat
        .ok_or(SampleError("a spectator's view has no hand"))?;
    let games = samples(view, effort.samples, rng)?;
    let near = games.first().is_some_and(near_the_end) && effort.exact_nodes > 0;
    Ok((seat, games, near))
}

/// Every choice of `legal` played on the same sampled games, for `view.seat`. `keep`: a choice
/// that must be among the valued ones (the played one, in a review).
pub fn choice_margins(
    view: &View,
    legal: &[Decision],
    keep: Option<usize>,
    effort: Effort,
    rng: &mut SeedRng,
) -> Result<ChoiceMargins, SampleError> {
    let look = SecondLook {
        keep,
        stand_ins: HYBRID_STAND_INS,
    };
    valued(view, legal, look, effort, rng)
}

/// [`choice_margins`] for a player choosing, not a review: the hybrid judge's second look values
/// its best few alone, without the stand-ins (they measure random play, never to be chosen), so
/// the same choice is found with about a third fewer greedy play-outs.
pub fn candidate_margins(
    view: &View,
    legal: &[Decision],
    effort: Effort,
    rng: &mut SeedRng,
) -> Result<ChoiceMargins, SampleError> {
    let look = SecondLook {
        keep: None,
        stand_ins: 0,
    };
    valued(view, legal, look, effort, rng)
}

/// See [`choice_margins`]; `look`: what the hybrid judge's second look values besides its best.
fn valued(
    view: &View,
    legal: &[Decision],
    look: SecondLook,
    effort: Effort,
    rng: &mut SeedRng,
) -> Result<ChoiceMargins, SampleError> {
    let (seat, games, search) = sampled(view, effort, rng)?;
    let screened = effort.judge == Judge::Hybrid && legal.len() > HYBRID_BEST;
    let first = if screened { Judge::Quick } else { effort.judge };
    let exact_nodes = if search { effort.exact_nodes } else { 0 };
    let (values, solved) = play_choices(seat, &games, legal, exact_nodes, first, rng)?;
    if values.exact || effort.judge != Judge::Hybrid {
        return Ok(values);
    }
    let mut values = if screened {
        look_closer(seat, &games, legal, look, &values, &solved, rng)?
    } else {
        values
    };
    credit_delays(seat, &games, legal, &mut values, &solved)?;
    Ok(values)
}

/// The hybrid judge's second look ([`second_look`]'s choices), valued by its greedy play-outs on
/// the same samples; a sample searched exactly keeps the search's values.
fn look_closer(
    seat: u8,
    games: &[Game],
    legal: &[Decision],
    look: SecondLook,
    values: &ChoiceMargins,
    solved: &[bool],
    rng: &mut SeedRng,
) -> Result<ChoiceMargins, SampleError> {
    let (chosen, stand_ins) = second_look(&values.margins, look, rng);
    let picked: Vec<Decision> = chosen.iter().map(|&i| legal[i]).collect();
    let mut again = ChoiceMargins {
        margins: vec![Vec::with_capacity(games.len()); chosen.len()],
        wins: vec![Vec::with_capacity(games.len()); chosen.len()],
        exact: false,
        choices: chosen,
        stand_ins,
        of: legal.len(),
    };
    let mut play = PlayOut::new(Judge::Hybrid);
    for (k, base) in games.iter().enumerate() {
        for (j, (&i, &d)) in again.choices.iter().zip(&picked).enumerate() {
            let (m, w) = if solved[k] {
                (values.margins[i][k], values.wins[i][k])
            } else {
                let m = play.finish(&mut applied(base, seat, d)?, seat, rng);
                (m, won(m))
            };
            again.margins[j].push(m);
            again.wins[j].push(w);
        }
    }
    Ok(again)
}

/// The hybrid judge's choices other than the best (by their means), each valued the better of
/// its play-outs and the same with the best choice played at the seat's next turn
/// ([`super::play_out::greedy_starting_paths_then`]), half by half (below): a choice
/// that puts the best off is charged the delay, not what the play-outs lose by never playing
/// it. A sample searched exactly keeps the search's value (the search plays the best choice
/// where it is best). Which of the two counts for a half of the samples is chosen on the other
/// half's means (cross-fitting, as [`super::marks::held_out_loss`] picks the best): chosen on
/// all of them, the better of two noisy means would lift each choice by its own noise, on the
/// very samples that then value it. A choice so valued above the best takes the best's values
/// (below; judge revision 3).
fn credit_delays(
    seat: u8,
    games: &[Game],
    legal: &[Decision],
    values: &mut ChoiceMargins,
    solved: &[bool],
) -> Result<(), SampleError> {
    let (_, best) = values.means_and_best();
    let best_choice = legal[values.choices[best]];
    let (best_margins, best_wins) = (values.margins[best].clone(), values.wins[best].clone());
    let mut play = PlayOut::new(Judge::Hybrid);
    for (j, &choice) in values.choices.iter().enumerate() {
        if j == best {
            continue;
        }
        let mut margins = Vec::with_capacity(games.len());
        let mut wins = Vec::with_capacity(games.len());
        for (k, base) in games.iter().enumerate() {
            let (m, w) = if solved[k] {
                (values.margins[j][k], values.wins[j][k])
            } else {
                let then = NextTurn::of(base, best_choice);
                let m = play.finish_then(applied(base, seat, legal[choice])?, seat, then);
                (m, won(m))
            };
            margins.push(m);
            wins.push(w);
        }
        // Both halves chosen before either is changed: each on the other's own values.
        let late_on =
            [0, 1].map(|half| half_mean(&margins, half) > half_mean(&values.margins[j], half));
        let (mut credited, mut credited_wins) = (values.margins[j].clone(), values.wins[j].clone());
        for (parity, other) in [(0, 1), (1, 0)] {
            if late_on[other] {
                for k in (parity..margins.len()).step_by(2) {
                    credited[k] = margins[k];
                    credited_wins[k] = wins[k];
                }
            }
        }
        // Never above the best: played late, the best follows this choice, a plan of two
        // choices whose second the best's own play-outs never get. Valued above the best, such
        // a plan (two paths started on two turns, in four-player Keltis) became the best and
        // charged every other choice for a plan no play-out of the position follows.
        if mean_and_spread(&credited).0 > mean_and_spread(&best_margins).0 {
            credited.clone_from(&best_margins);
            credited_wins.clone_from(&best_wins);
        }
        values.margins[j] = credited;
        values.wins[j] = credited_wins;
    }
    Ok(())
}

/// `base` after `seat` plays `choice`.
fn applied(base: &Game, seat: u8, choice: Decision) -> Result<Game, SampleError> {
    let mut game = base.clone();
    played(&mut game, seat, choice)?;
    Ok(game)
}

/// `seat` plays `choice` in `game`, one of its legal choices in the sample.
fn played(game: &mut Game, seat: u8, choice: Decision) -> Result<(), SampleError> {
    game.apply(seat, choice)
        .map_err(|_| SampleError("a legal choice was refused in a sample"))
}

/// Which choices the hybrid judge's second look values besides its best few.
#[derive(Clone, Copy)]
struct SecondLook {
    /// One that must be among them (the played one, in a review).
    keep: Option<usize>,
    /// How many of the rest to draw at random.
    stand_ins: usize,
}

/// The hybrid judge's second look: the [`HYBRID_BEST`] choices with the best means, `look.keep`,
/// then `look.stand_ins` of the rest drawn at random; and how many those are.
fn second_look(margins: &[Vec<f64>], look: SecondLook, rng: &mut SeedRng) -> (Vec<usize>, usize) {
    let means: Vec<f64> = margins
        .iter()
        .map(|m| super::marks::mean_and_spread(m).0)
        .collect();
    let mut order: Vec<usize> = (0..margins.len()).collect();
    order.sort_by(|&a, &b| means[b].total_cmp(&means[a]));
    let mut rest = order.split_off(HYBRID_BEST.min(order.len()));
    let mut chosen = order;
    if let Some(k) = look.keep.filter(|k| rest.contains(k)) {
        rest.retain(|&i| i != k);
        chosen.push(k);
    }
    // Ascending, so that the draw below depends on the seed alone.
    rest.sort_unstable();
    let stand_ins = look.stand_ins.min(rest.len());
    for _ in 0..stand_ins {
        let at = rng.below(rest.len() as u64) as usize;
        chosen.push(rest.swap_remove(at));
    }
    (chosen, stand_ins)
}

/// Every choice of `legal` played on every game of `games` by `judge`'s play-outs, each sample
/// first searched exactly within `exact_nodes` positions (none: 0) until a search runs out; and
/// which samples were searched.
fn play_choices(
    seat: u8,
    games: &[Game],
    legal: &[Decision],
    exact_nodes: u32,
    judge: Judge,
    rng: &mut SeedRng,
) -> Result<(ChoiceMargins, Vec<bool>), SampleError> {
    let mut margins = vec![Vec::with_capacity(games.len()); legal.len()];
    let mut wins = vec![Vec::with_capacity(games.len()); legal.len()];
    let mut search = exact_nodes > 0;
    let (mut failures, mut exact) = (0, search);
    let mut solved_samples = Vec::with_capacity(games.len());
    let mut play = PlayOut::new(judge);
    // The games after each choice, their buffers kept from sample to sample.
    let mut after: Vec<Game> = Vec::with_capacity(legal.len());
    for base in games {
        // One random stream per sample, the same for every choice: choices are compared on the
        // same cards and the same later play (common random numbers).
        let stream = rng.next_u64();
        for (i, &d) in legal.iter().enumerate() {
            match after.get_mut(i) {
                Some(game) => game.clone_from(base),
                None => after.push(base.clone()),
            }
            played(&mut after[i], seat, d)?;
        }
        if search {
            if let Some(worths) = solved(&after, exact_nodes) {
                for (i, w) in worths.iter().enumerate() {
                    margins[i].push(w.margin(seat));
                    wins[i].push(w.win_chance(seat));
                }
                solved_samples.push(true);
                continue;
            }
            exact = false;
            failures += 1;
            search = failures < EXACT_FAILURES;
        }
        solved_samples.push(false);
        for (i, game) in after.iter_mut().enumerate() {
            let m = play.finish(game, seat, &mut SeedRng::new(stream));
            margins[i].push(m);
            wins[i].push(won(m));
        }
    }
    let values = ChoiceMargins {
        margins,
        wins,
        exact,
        choices: (0..legal.len()).collect(),
        stand_ins: 0,
        of: legal.len(),
    };
    Ok((values, solved_samples))
}

/// Every game of `after` (one sample, after each choice) searched exactly on one budget; `None`
/// where the budget ran out first.
fn solved(after: &[Game], budget: u32) -> Option<Vec<Worth>> {
    let mut solver = Solver::new(budget);
    after.iter().map(|g| solver.solve(g)).collect()
}

/// The position `view` shows, played on to the end on sampled games: the mean margin for
/// `view.seat` (who need not be the seat to act).
pub fn position_margin(view: &View, effort: Effort, rng: &mut SeedRng) -> Result<f64, SampleError> {
    let (seat, games, mut search) = sampled(view, effort, rng)?;
    let mut play = PlayOut::new(effort.judge);
    let mut failures = 0;
    let mut total = 0.0;
    let mut scratch: Option<Game> = None;
    for game in &games {
        let stream = rng.next_u64();
        if search {
            if let Some(w) = Solver::new(effort.exact_nodes).solve(game) {
                total += w.margin(seat);
                continue;
            }
            failures += 1;
            search = failures < EXACT_FAILURES;
        }
        // A copy into the same buffers every sample.
        let copy = scratch.get_or_insert_with(|| game.clone());
        copy.clone_from(game);
        total += play.finish(copy, seat, &mut SeedRng::new(stream));
    }
    Ok(total / games.len().max(1) as f64)
}

/// Where an exact search may finish the game: few cards left in the draw pile, or the final
/// plays of Keltis Card.
fn near_the_end(game: &Game) -> bool {
    matches!(game.phase(), Phase::FinalPlay { .. }) || game.draw_pile_len() <= EXACT_PILE
}
