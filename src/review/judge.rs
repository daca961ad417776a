//! Judging one decision from what its player knew: games sampled from that player's view (their
//! hand, everything in the open, the cards the others were seen to draw from the piles; the rest
//! of the other hands, the draw pile's order and the removed cards dealt at random from the cards
//! they could not see), every choice played on the same samples
//! on, and the margins compared. The play-outs are the search bot's quick policy, to the end
//! ([`Judge::Quick`], the server's), or the strong bot's own ([`Judge::Strong`], `keltis review
//! --judge strong`: costlier, and its marks not yet calibrated). The last decisions of a game
//! (the final plays, the last card of the draw pile) are searched exactly, every seat choosing
//! its best, within [`Effort::exact_nodes`] positions; beyond, the play-outs take over.
//!
//! Given only a [`View`], the judge cannot use a card its player could not see: honest by
//! construction, as the bots are.

use crate::engine::bots::heuristic::potential;
use crate::engine::bots::mcts::rollout_choice;
use crate::engine::bots::rollout;
use crate::engine::bots::sample::{sample_game, SampleError};
use crate::engine::decision::Decision;
use crate::engine::game::{Game, Phase};
use crate::engine::setup::SeedRng;
use crate::engine::view::View;

/// A play-out still running after this many decisions is judged by its position (bots can in
/// principle pass cards through the piles for a long time).
const PLAY_OUT_LIMIT: usize = 1_000;

/// How hard the judge looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Sampled games per decision; every choice is played on each.
    pub samples: usize,
    /// Positions an exact search of the game's last decisions (where the judged decision is
    /// near the end) may visit per sample and choice before play-outs take over.
    pub exact_nodes: u32,
    /// How the sampled games are played on.
    pub judge: Judge,
}

/// How the judge plays a sampled game on after a choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judge {
    /// As the strong bot (`rollout`) plays its own: greedy for every seat, Keltis Card's
    /// stopped after 40 decisions and valued by its plan.
    Strong,
    /// The search bot's quick policy, to the end: 3.4-10 times cheaper, and weaker.
    Quick,
}

impl Judge {
    pub fn parse(s: &str) -> Option<Judge> {
        match s {
            "strong" => Some(Judge::Strong),
            "quick" => Some(Judge::Quick),
            _ => None,
        }
    }
}

/// The margins each choice reached: `margins[choice][sample]`, in points, for the judged seat.
#[derive(Clone, Debug, PartialEq)]
pub struct ChoiceMargins {
    pub margins: Vec<Vec<f64>>,
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

/// What judging from `view` starts with: its seat, the sampled games, and the exact search's
/// budget. Near the end the rest of the game is searched exactly while that stays within the
/// budget (`None` otherwise): once one search runs out, the others (as large) are not tried.
fn sampled(
    view: &View,
    effort: Effort,
    rng: &mut SeedRng,
) -> Result<(u8, Vec<Game>, Option<u32>), SampleError> {
    let seat = view
        .seat
        .ok_or(SampleError("a spectator's view has no hand"))?;
    let games = samples(view, effort.samples, rng)?;
    let exact_nodes = games
        .first()
        .filter(|g| near_the_end(g))
        .map(|_| effort.exact_nodes);
    Ok((seat, games, exact_nodes))
}

/// Every choice of `legal` played on the same sampled games, for `view.seat`.
pub fn choice_margins(
    view: &View,
    legal: &[Decision],
    effort: Effort,
    rng: &mut SeedRng,
) -> Result<ChoiceMargins, SampleError> {
    let (seat, games, mut exact_nodes) = sampled(view, effort, rng)?;
    let mut margins = vec![Vec::with_capacity(games.len()); legal.len()];
    let mut play = PlayOut::new(effort.judge);
    for base in &games {
        // One random stream per sample, the same for every choice: choices are compared on the
        // same cards and the same later play (common random numbers).
        let stream = rng.next_u64();
        for (i, &d) in legal.iter().enumerate() {
            let mut game = base.clone();
            if game.apply(seat, d).is_err() {
                return Err(SampleError("a legal choice was refused in a sample"));
            }
            let m = play.finish(game, seat, &mut exact_nodes, &mut SeedRng::new(stream));
            margins[i].push(m);
        }
    }
    Ok(ChoiceMargins { margins })
}

/// The position `view` shows, played on to the end on sampled games: the mean margin for
/// `view.seat` (who need not be the seat to act).
pub fn position_margin(view: &View, effort: Effort, rng: &mut SeedRng) -> Result<f64, SampleError> {
    let (seat, games, mut exact_nodes) = sampled(view, effort, rng)?;
    let mut play = PlayOut::new(effort.judge);
    let mut total = 0.0;
    for game in &games {
        let stream = rng.next_u64();
        total += play.finish(
            game.clone(),
            seat,
            &mut exact_nodes,
            &mut SeedRng::new(stream),
        );
    }
    Ok(total / games.len().max(1) as f64)
}

/// Plays a game on: exactly where little is left, else as the judge plays.
struct PlayOut {
    judge: Judge,
    legal: Vec<Decision>,
    good: Vec<Decision>,
}

impl PlayOut {
    fn new(judge: Judge) -> PlayOut {
        PlayOut {
            judge,
            legal: Vec::new(),
            good: Vec::new(),
        }
    }

    /// `seat`'s final margin: by the exact search where `exact_nodes` allows it (set to `None`
    /// once a search runs out), else by the judge's play-out.
    fn finish(
        &mut self,
        mut game: Game,
        seat: u8,
        exact_nodes: &mut Option<u32>,
        rng: &mut SeedRng,
    ) -> f64 {
        if let Some(budget) = *exact_nodes {
            let mut nodes = budget;
            match exact(&game, &mut nodes) {
                Some(t) => return margin(&t, seat),
                None => *exact_nodes = None,
            }
        }
        match self.judge {
            Judge::Strong => {
                let horizon = rollout::horizon(game.variant());
                rollout::play_out(&mut game, horizon, &mut self.legal);
                rollout::lead(&game, seat)
            }
            Judge::Quick => margin(&self.quick(game, rng), seat),
        }
    }

    /// The final totals by the quick policy; a play-out still running at the limit is valued
    /// by its position.
    fn quick(&mut self, mut game: Game, rng: &mut SeedRng) -> Vec<i32> {
        for _ in 0..PLAY_OUT_LIMIT {
            let Some(actor) = game.to_act() else {
                return totals(&game);
            };
            game.legal_decisions_into(&mut self.legal);
            let d = rollout_choice(&game, actor, &self.legal, rng, &mut self.good);
            if game.apply(actor, d).is_err() {
                break;
            }
        }
        (0..game.players())
            .map(|s| potential(&game, s).round() as i32)
            .collect()
    }
}

fn totals(game: &Game) -> Vec<i32> {
    (0..game.players()).map(|s| game.score(s).total).collect()
}

/// Where an exact search may finish the game: the last card of the draw pile about to be drawn,
/// or the final plays of Keltis Card.
fn near_the_end(game: &Game) -> bool {
    matches!(game.phase(), Phase::FinalPlay { .. }) || game.draw_pile_len() <= 1
}

/// The game played out with every seat choosing what maximises its own final margin, on the
/// cards of this (sampled) game; `None` once more than `nodes` positions would be needed.
pub fn exact(game: &Game, nodes: &mut u32) -> Option<Vec<i32>> {
    let Some(actor) = game.to_act() else {
        return Some(totals(game));
    };
    *nodes = nodes.checked_sub(1)?;
    let mut best: Option<(f64, Vec<i32>)> = None;
    for d in game.legal_decisions() {
        let mut next = game.clone();
        next.apply(actor, d).ok()?;
        let t = exact(&next, nodes)?;
        let m = margin(&t, actor);
        // Equal margins: the first choice listed stands (the result is the same either way).
        if best.as_ref().is_none_or(|(b, _)| m > *b) {
            best = Some((m, t));
        }
    }
    best.map(|(_, t)| t)
}
