//! The greedy bot: every legal decision tried on a few sampled games, the one whose position
//! looks best afterwards taken. Discards that feed the next player are marked down.

use super::heuristic::{
    feeds_next_player, pile_top_fits, potential, potential_after_discards, AfterDiscards,
};
use crate::engine::cards::Card;
use crate::engine::decision::{Decision, DecisionOf};
use crate::engine::game::{Game, Phase};

/// Penalty, in points, for handing the next player a card that fits their rows.
const FEED_PENALTY: f64 = 1.5;

/// Draws: a pile's top card only when it closely fits one of the bot's started rows, else the
/// deck. (Ranking draws by position let two greedy bots pass cards through the piles forever.)
fn choose_draw(game: &Game, seat: u8, legal: &[Decision]) -> Option<Decision> {
    if !legal
        .iter()
        .all(|d| matches!(d, DecisionOf::DrawDeck | DecisionOf::DrawPile { .. }))
    {
        return None;
    }
    let wanted = legal
        .iter()
        .find(|d| matches!(d, DecisionOf::DrawPile { color } if pile_top_fits(game, seat, *color)));
    Some(*wanted.unwrap_or(&DecisionOf::DrawDeck))
}

pub fn choose(samples: &[Game], seat: u8, legal: &[Decision]) -> Decision {
    rank(samples, seat, legal)[0]
}

/// A position's worth to a seat, in points.
#[derive(Clone, Copy)]
pub struct Valuation {
    pub of: fn(&Game, u8) -> f64,
    /// The same after each discard from hand the seat to play may make, read without copying
    /// the game and playing them ([`AfterDiscards`]): for a valuation that reads nothing else
    /// such a discard changes.
    pub after_discards: Option<for<'a> fn(&'a Game, u8) -> AfterDiscards<'a>>,
}

/// Greedy's own valuation ([`potential`]).
pub const POTENTIAL: Valuation = Valuation {
    of: potential,
    after_discards: Some(potential_after_discards),
};

impl Valuation {
    /// The worth after each of `seat`'s discards from `game`, where it is `seat`'s to play.
    fn after_discards<'a>(&self, game: &'a Game, seat: u8) -> Option<AfterDiscards<'a>> {
        let playing = game.phase() == Phase::Play && game.to_act() == Some(seat);
        self.after_discards
            .filter(|_| playing)
            .map(|of| of(game, seat))
    }
}

/// The legal decisions, best first by the greedy evaluation (draws by the draw rule).
pub fn rank(samples: &[Game], seat: u8, legal: &[Decision]) -> Vec<Decision> {
    rank_by(samples, seat, legal, POTENTIAL)
}

/// `rank` with another valuation of the position after each decision.
pub fn rank_by(samples: &[Game], seat: u8, legal: &[Decision], value: Valuation) -> Vec<Decision> {
    if let Some(d) = samples.first().and_then(|g| choose_draw(g, seat, legal)) {
        let mut ranked = vec![d];
        ranked.extend(legal.iter().copied().filter(|x| *x != d));
        return ranked;
    }
    let Some(first) = samples.first() else {
        return legal.to_vec();
    };
    // One scratch game, copied into for each try (`clone_from` keeps its buffers).
    let mut g = first.clone();
    let discards: Vec<_> = samples
        .iter()
        .map(|s| value.after_discards(s, seat))
        .collect();
    let mut valued: Vec<(f64, Decision)> = legal
        .iter()
        .map(|&d| (value_after(samples, &discards, seat, d, value, &mut g), d))
        .collect();
    // Stable: equal values keep the listing order.
    valued.sort_by(|a, b| b.0.total_cmp(&a.0));
    valued.into_iter().map(|(_, d)| d).collect()
}

/// `rank_by(std::slice::from_ref(game), ..)[0]`, without the ranking or a fresh copy of the game:
/// the play-outs choose so at every step. `scratch` is copied into for each try. `None`: no
/// choices.
pub fn best_by(
    game: &Game,
    seat: u8,
    legal: &[Decision],
    value: Valuation,
    scratch: &mut Game,
) -> Option<Decision> {
    if let Some(d) = choose_draw(game, seat, legal) {
        return Some(d);
    }
    let samples = std::slice::from_ref(game);
    let discards = [value.after_discards(game, seat)];
    let mut best: Option<(f64, Decision)> = None;
    for &d in legal {
        let v = value_after(samples, &discards, seat, d, value, scratch);
        // The first of equal values, as `rank_by`'s stable sort.
        if best.is_none_or(|(b, _)| v.total_cmp(&b).is_gt()) {
            best = Some((v, d));
        }
    }
    best.map(|(_, d)| d)
}

/// The mean value of the position after `d` over `samples` (`discards[k]`: the worth after each
/// discard from `samples[k]`, where it can be read so), less the penalty for feeding the next
/// player (a sample that refuses `d` counts 0).
fn value_after(
    samples: &[Game],
    discards: &[Option<AfterDiscards>],
    seat: u8,
    d: Decision,
    value: Valuation,
    g: &mut Game,
) -> f64 {
    let mut total = 0.0;
    for (game, discards) in samples.iter().zip(discards) {
        match (d, discards) {
            (DecisionOf::Discard { card }, Some(after)) if game.hand(seat).contains(&card) => {
                total += after.worth(card);
            }
            _ => {
                g.clone_from(game);
                if g.apply(seat, d).is_err() {
                    continue;
                }
                total += (value.of)(g, seat);
            }
        }
        let fed: [Option<Card>; 2] = match d {
            DecisionOf::Discard { card } | DecisionOf::DiscardFromHand { card } => {
                [Some(card), None]
            }
            DecisionOf::TakeStone { cards } => cards.map(Some),
            DecisionOf::DiscardFromRow { color } => [game.row(seat, color).last(), None],
            _ => [None, None],
        };
        for card in fed.into_iter().flatten() {
            if feeds_next_player(game, seat, card) {
                total -= FEED_PENALTY;
            }
        }
    }
    total / samples.len().max(1) as f64
}
