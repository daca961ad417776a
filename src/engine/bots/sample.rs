//! Determinisation: a full game state consistent with everything one seat may see. The cards the
//! others were seen to take from the discard piles stay in their hands; the unseen cards (the
//! deck minus the seat's hand, every row, every pile and those) are shuffled and dealt to the rest
//! of the other hands, the draw pile and the removed cards, in the sizes the view shows.

use crate::engine::board::Slot;
use crate::engine::cards::{board_game_deck, card_game_deck, Card, Color, InlineCards};
use crate::engine::game::{Game, Phase, PILES, PLAIN_STONE, START};
use crate::engine::rows::{Row, ROW_CAPACITY};
use crate::engine::scoring::EndReason;
use crate::engine::setup::SeedRng;
use crate::engine::view::View;
use crate::engine::{Variant, HAND_CAPACITY};

/// Why a view cannot be turned into a game (it was not made by this engine, or is a
/// spectator's).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the view cannot be sampled: {0}")]
pub struct SampleError(pub &'static str);

/// A game in which `view.seat` sees exactly `view`, hidden parts drawn at random.
pub fn sample_game(view: &View, rng: &mut SeedRng) -> Result<Game, SampleError> {
    let seat = view
        .seat
        .ok_or(SampleError("a spectator's view has no hand"))?;
    let own_hand = &view.hand;
    let variant = view.variant;
    let players = view.players;
    let board = variant.board();

    let mut unseen = match variant {
        Variant::KeltisCard => card_game_deck(),
        _ => board_game_deck(),
    };
    unseen.sort();
    let mut remove = |card: &Card| -> Result<(), SampleError> {
        let i = unseen
            .binary_search(card)
            .map_err(|_| SampleError("a card is seen twice"))?;
        unseen.remove(i);
        Ok(())
    };
    let mut piles: [InlineCards<ROW_CAPACITY>; PILES] = Default::default();
    for pile in &view.discard_piles {
        for c in &pile.cards {
            remove(c)?;
        }
        piles[pile.color.index()] = inline(&pile.cards)?;
    }
    let mut rows: Vec<[Row; PILES]> = vec![Default::default(); players as usize];
    for s in &view.seats {
        for row in &s.rows {
            for c in &row.cards {
                remove(c)?;
                rows[s.seat as usize][row.color.index()].push(*c);
            }
        }
    }
    for c in own_hand {
        remove(c)?;
    }
    // What the others were seen to draw from the piles is in their hands, not dealt at random.
    for s in view.seats.iter().filter(|s| s.seat != seat) {
        for c in &s.known_in_hand {
            remove(c)?;
        }
    }
    rng.shuffle(&mut unseen);
    let mut cards = unseen.into_iter();
    let mut hands = Vec::with_capacity(players as usize);
    let mut known_in_hand = Vec::with_capacity(players as usize);
    for s in &view.seats {
        let mut hand: InlineCards<HAND_CAPACITY> = if s.seat == seat {
            inline(own_hand)?
        } else {
            let unknown = s.hand_size.saturating_sub(s.known_in_hand.len());
            let dealt: Vec<Card> = s
                .known_in_hand
                .iter()
                .copied()
                .chain(cards.by_ref().take(unknown))
                .collect();
            inline(&dealt)?
        };
        known_in_hand.push(inline(&s.known_in_hand)?);
        if hand.len() != s.hand_size {
            return Err(SampleError("hand sizes do not add up"));
        }
        hand.sort();
        hands.push(hand);
    }
    let draw_pile: Vec<Card> = cards.by_ref().take(view.draw_pile_size).collect();
    if draw_pile.len() != view.draw_pile_size {
        return Err(SampleError("the draw pile size does not add up"));
    }
    let removed: Vec<Card> = cards.collect();

    let spaces = board.as_ref().map_or(0, |b| b.spaces.len());
    let mut tiles = vec![None; spaces];
    let mut pile_stones = vec![0; spaces];
    let mut pawns = vec![[START; 5]; players as usize];
    let mut wish_stones = vec![[0u8; PILES]; players as usize];
    let mut tile_points = vec![0u16; players as usize];
    let mut goal_pawns = 0;
    if let (Some(b), Some(bv)) = (&board, &view.board) {
        let index = |id: &str| b.index_of(id).ok_or(SampleError("unknown space"));
        for t in &bv.tiles {
            tiles[index(&t.space)? as usize] = Some(t.tile);
        }
        for p in &bv.piles {
            let i = index(&p.space)?;
            if !matches!(b.space(i).slot, Slot::Pile(_)) {
                return Err(SampleError("a stone pile on a space without one"));
            }
            pile_stones[i as usize] = p.stones;
        }
        goal_pawns = bv.goal_pawns;
        for s in &view.seats {
            for p in &s.pawns {
                if let Some(id) = &p.space {
                    pawns[s.seat as usize][p.pawn as usize] = index(id)?;
                }
            }
            for h in &s.wish_stones {
                let slot = h.color.map_or(PLAIN_STONE, Color::index);
                wish_stones[s.seat as usize][slot] = h.count;
            }
            tile_points[s.seat as usize] = s.tile_points;
        }
    }
    let mut stones = [None; 9];
    for st in view.stones.iter().flatten() {
        stones[st.value as usize - 1] = st.taken_by;
    }
    let mut discarded_this_turn = [false; PILES];
    for pile in &view.discard_piles {
        discarded_this_turn[pile.color.index()] = pile.discarded_this_turn;
    }
    let end = match (view.phase, &view.result) {
        (_, Some(r)) => Some(r.end_reason),
        (Phase::FinalPlay { .. }, None) if view.draw_pile_size == 0 => {
            Some(EndReason::DrawPileExhausted)
        }
        (Phase::FinalPlay { .. }, None) => Some(EndReason::PathsTerminated),
        _ => None,
    };
    Ok(Game {
        variant,
        players,
        board,
        hands,
        known_in_hand,
        draw_pile,
        removed,
        piles,
        rows,
        pawns,
        tiles,
        pile_stones,
        wish_stones,
        tile_points,
        goal_pawns,
        stones,
        turn_player: view.turn_player,
        to_act: view.to_act.unwrap_or(view.turn_player),
        phase: view.phase,
        discarded_this_turn,
        end,
        retired: view.seats.iter().map(|s| s.retired).collect(),
    })
}

/// `cards` held inline; more than there is room for is not a game's.
fn inline<const N: usize>(cards: &[Card]) -> Result<InlineCards<N>, SampleError> {
    InlineCards::try_from(cards).map_err(|_| SampleError("more cards than a hand or pile holds"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::decision::DecisionOf;

    #[test]
    fn a_sampled_game_shows_its_seat_exactly_the_same_view() {
        for (variant, players) in [
            (Variant::Keltis, 2),
            (Variant::Keltis, 4),
            (Variant::NeueWege, 3),
            (Variant::KeltisCard, 2),
        ] {
            let mut rng = SeedRng::new(3);
            let mut game = Game::new(variant, players, 17).unwrap();
            let mut step = 0;
            while let Some(to_act) = game.to_act() {
                if step % 7 == 0 {
                    for seat in 0..players {
                        let view = game.view(Some(seat));
                        let sample = sample_game(&view, &mut rng).unwrap();
                        assert_eq!(sample.view(Some(seat)), view, "{variant} step {step}");
                        assert_eq!(sample.all_cards().len(), game.all_cards().len());
                        if seat != to_act {
                            continue;
                        }
                        assert_eq!(sample.legal_decisions(), game.legal_decisions());
                    }
                }
                let legal = game.legal_decisions();
                let d = legal[rng.below(legal.len() as u64) as usize];
                game.apply(to_act, d).unwrap();
                step += 1;
            }
        }
    }

    /// A card seen drawn from a discard pile (K8: the piles are public) is in that hand in every
    /// sample of another seat's view, until it is played; a copy played takes one off what is
    /// known. The known cards are always in the hand.
    #[test]
    fn cards_seen_drawn_from_the_piles_stay_in_their_hands_in_every_sample() {
        let contains_all = |hand: &[Card], known: &[Card]| {
            let mut left = hand.to_vec();
            known
                .iter()
                .all(|c| match left.iter().position(|h| h == c) {
                    Some(i) => {
                        left.remove(i);
                        true
                    }
                    None => false,
                })
        };
        let mut seen_known = 0;
        for (variant, players, seed) in [
            (Variant::KeltisCard, 2, 21),
            (Variant::Keltis, 3, 22),
            (Variant::NeueWege, 2, 23),
        ] {
            let mut rng = SeedRng::new(seed);
            let mut game = Game::new(variant, players, seed).unwrap();
            while let Some(to_act) = game.to_act() {
                for other in 0..players {
                    let known = game.known_in_hand(other);
                    assert!(contains_all(game.hand(other), known), "{variant}");
                    seen_known += known.len();
                    let viewer = (other + 1) % players;
                    if !known.is_empty() {
                        let sample = sample_game(&game.view(Some(viewer)), &mut rng).unwrap();
                        assert!(contains_all(sample.hand(other), known), "{variant}");
                    }
                }
                // Drawing from a pile every other time one may: the piles' cards travel.
                let legal = game.legal_decisions();
                let pile = legal
                    .iter()
                    .find(|d| matches!(d, DecisionOf::DrawPile { .. }))
                    .filter(|_| rng.below(2) == 0);
                let d = pile
                    .copied()
                    .unwrap_or_else(|| legal[rng.below(legal.len() as u64) as usize]);
                game.apply(to_act, d).unwrap();
            }
        }
        assert!(seen_known > 100, "only {seen_known} known cards met");
    }

    #[test]
    fn samples_differ_in_what_the_seat_cannot_see() {
        let game = Game::new(Variant::Keltis, 2, 5).unwrap();
        let view = game.view(Some(0));
        let mut rng = SeedRng::new(1);
        let a = sample_game(&view, &mut rng).unwrap();
        let b = sample_game(&view, &mut rng).unwrap();
        assert_eq!(a.hand(0), b.hand(0));
        assert_ne!(a.hand(1), b.hand(1));
        assert!(sample_game(&game.view(None), &mut rng).is_err());
    }
}
