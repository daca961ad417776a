//! The greedy bot: every legal decision tried on a few sampled games, the one whose position
//! looks best afterwards taken. Discards that feed the next player are marked down.

use super::heuristic::{feeds_next_player, pile_top_fits, potential};
use crate::engine::cards::Card;
use crate::engine::decision::{Decision, DecisionOf};
use crate::engine::game::Game;

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
pub type Valuation = fn(&Game, u8) -> f64;

/// The legal decisions, best first by the greedy evaluation (draws by the draw rule).
pub fn rank(samples: &[Game], seat: u8, legal: &[Decision]) -> Vec<Decision> {
    rank_by(samples, seat, legal, potential)
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
    let mut valued: Vec<(f64, Decision)> = legal
        .iter()
        .map(|&d| (value_after(samples, seat, d, value, &mut g), d))
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
    let mut best: Option<(f64, Decision)> = None;
    for &d in legal {
        let v = value_after(samples, seat, d, value, scratch);
        // The first of equal values, as `rank_by`'s stable sort.
        if best.is_none_or(|(b, _)| v.total_cmp(&b).is_gt()) {
            best = Some((v, d));
        }
    }
    best.map(|(_, d)| d)
}

/// The mean value of the position after `d` over `samples`, less the penalty for feeding the
/// next player (a sample that refuses `d` counts 0).
fn value_after(samples: &[Game], seat: u8, d: Decision, value: Valuation, g: &mut Game) -> f64 {
    let mut total = 0.0;
    for game in samples {
        g.clone_from(game);
        if g.apply(seat, d).is_err() {
            continue;
        }
        total += value(g, seat);
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
