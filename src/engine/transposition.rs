//! What a search of the game's end needs from the engine (the review's exact solver): a key for
//! a position met again by another order of moves, and the draw pile's cards, any of which may
//! be drawn next. A search does not know the pile's order (nobody does): it draws each card in
//! the pile with its share, so the key counts the pile as a set of cards.

use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;

use super::cards::Card;
use super::game::Game;

impl Game {
    /// A key equal for positions whose rest of the game is the same: everything the rules read
    /// from here on, hashed (64 bits). Left out: what players know of others' hands (no rule
    /// reads it), the cards removed at the start (never in play again), how the game ended (an
    /// ended game is never searched on) and the draw pile's order. Fx's 64 bits: a search meets
    /// at most some hundred thousand positions, far from where two keys would meet by chance.
    pub fn transposition_key(&self) -> u64 {
        let Game {
            variant,
            players,
            board: _,
            hands,
            known_in_hand: _,
            draw_pile,
            removed: _,
            piles,
            rows,
            pawns,
            tiles,
            pile_stones,
            wish_stones,
            tile_points,
            goal_pawns,
            stones,
            turn_player,
            to_act,
            phase,
            discarded_this_turn,
            end: _,
            retired,
        } = self;
        let mut h = FxHasher::default();
        variant.hash(&mut h);
        players.hash(&mut h);
        hands.hash(&mut h);
        // The pile as a set: its cards' counts, without sorting a copy.
        let mut counts = [0u8; 128];
        for c in draw_pile {
            counts[usize::from(c.code()) % counts.len()] += 1;
        }
        counts.hash(&mut h);
        piles.hash(&mut h);
        rows.hash(&mut h);
        pawns.hash(&mut h);
        tiles.hash(&mut h);
        pile_stones.hash(&mut h);
        wish_stones.hash(&mut h);
        tile_points.hash(&mut h);
        goal_pawns.hash(&mut h);
        stones.hash(&mut h);
        turn_player.hash(&mut h);
        to_act.hash(&mut h);
        phase.hash(&mut h);
        discarded_this_turn.hash(&mut h);
        retired.hash(&mut h);
        h.finish()
    }

    /// The draw pile's cards, in no order a search may rely on. Hidden information: for the
    /// search of a sampled game, never for a view.
    pub fn draw_pile_cards(&self) -> &[Card] {
        &self.draw_pile
    }

    /// Puts `card`, which must be in the draw pile, on its top, so that the next draw takes it:
    /// how a search tries each card the pile may give. `false` (nothing changed) where the pile
    /// holds no such card.
    pub fn set_next_draw(&mut self, card: Card) -> bool {
        let Some(at) = self.draw_pile.iter().rposition(|&c| c == card) else {
            return false;
        };
        let top = self.draw_pile.len() - 1;
        self.draw_pile.swap(at, top);
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::setup::Setup;
    use crate::engine::{Game, Variant};

    fn dealt(variant: Variant, seed: u64) -> Game {
        Game::from_setup(&Setup::deal(variant, 2, seed).expect("a deal")).expect("a game")
    }

    #[test]
    fn the_key_ignores_the_piles_order_and_nothing_the_rules_read() {
        let game = dealt(Variant::Keltis, 3);
        let mut reordered = game.clone();
        let bottom = reordered.draw_pile[0];
        assert!(reordered.set_next_draw(bottom));
        assert_ne!(reordered.draw_pile, game.draw_pile);
        assert_eq!(reordered.transposition_key(), game.transposition_key());
        // Another card in a hand is another position.
        let mut swapped = game.clone();
        let from_pile = swapped.draw_pile[0];
        let from_hand = swapped.hands[0][0];
        if from_pile != from_hand {
            swapped.hands[0][0] = from_pile;
            swapped.draw_pile[0] = from_hand;
            assert_ne!(swapped.transposition_key(), game.transposition_key());
        }
        // Another seat to act is another position.
        let mut other = game.clone();
        other.to_act = 1 - other.to_act;
        other.turn_player = other.to_act;
        assert_ne!(other.transposition_key(), game.transposition_key());
    }

    #[test]
    fn the_next_draw_is_the_card_set() {
        for variant in [Variant::Keltis, Variant::NeueWege, Variant::KeltisCard] {
            let mut game = dealt(variant, 11);
            let card = game.draw_pile[2];
            assert!(game.set_next_draw(card));
            assert_eq!(game.draw_pile_top(), Some(card));
            let in_no_pile = game.hands[0][0];
            let before = game.draw_pile.clone();
            if !before.contains(&in_no_pile) {
                assert!(!game.set_next_draw(in_no_pile));
                assert_eq!(game.draw_pile, before);
            }
        }
    }
}
