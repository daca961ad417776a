//! The deal, from a seed (K1..K3, K12, B2, X2, C1).
//!
//! The random source is ChaCha8 (`rand_chacha`), keyed with the seed's eight little-endian bytes
//! followed by 24 zero bytes, stream 0. Numbers below `n` come from `next_u64` by rejection (a
//! draw `x` is kept when `x < n * floor(2^64 / n)`, then `x % n`), and lists are shuffled by
//! Fisher-Yates from the last index down. ChaCha is a fixed algorithm and none of this depends on
//! a library's own sampling code, so a seed gives the same game on every machine and in every
//! later version.
//!
//! Order of use: shuffle the deck; (2 players) the first 30 cards are removed unseen; each seat in
//! turn takes the next 8 cards; the rest is the draw pile, top first; shuffle the tiles onto the
//! tile slots in board order; pick the start player.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::board::TileKind;
use super::cards::{board_game_deck, card_game_deck, Card};
use super::error::SetupError;
use super::{Variant, HAND_SIZE};

/// Cards removed unseen with two players (K2, C1).
pub const REMOVED_WITH_TWO: usize = 30;

/// The seeded random source described in the module documentation.
pub struct SeedRng(ChaCha8Rng);

impl SeedRng {
    pub fn new(seed: u64) -> SeedRng {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        SeedRng(ChaCha8Rng::from_seed(key))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = (1u128 << 64) / n as u128 * n as u128;
        loop {
            let x = self.0.next_u64();
            if (x as u128) < zone {
                return x % n;
            }
        }
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// A tile on a space, as the setup placed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PlacedTile {
    /// Space id from the layout.
    pub space: String,
    pub tile: TileKind,
}

/// Everything chance decided, without the seed: enough to replay a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Setup {
    pub variant: Variant,
    pub players: u8,
    pub start_player: u8,
    /// The draw pile, top card first.
    pub draw_pile: Vec<Card>,
    /// Cards removed unseen (K2, C1).
    pub removed: Vec<Card>,
    /// Each seat's opening hand.
    pub hands: Vec<Vec<Card>>,
    /// Path tiles on the board (board games).
    pub tiles: Vec<PlacedTile>,
}

impl Setup {
    /// Deal a game from a seed.
    pub fn deal(variant: Variant, players: u8, seed: u64) -> Result<Setup, SetupError> {
        if !variant.player_counts().contains(&players) {
            return Err(SetupError::PlayerCount { variant, players });
        }
        let mut rng = SeedRng::new(seed);
        let mut deck = match variant {
            Variant::KeltisCard => card_game_deck(),
            _ => board_game_deck(),
        };
        rng.shuffle(&mut deck);
        let mut cards = deck.into_iter();
        let removed = if players == 2 {
            cards.by_ref().take(REMOVED_WITH_TWO).collect()
        } else {
            Vec::new()
        };
        let hands = (0..players)
            .map(|_| cards.by_ref().take(HAND_SIZE).collect())
            .collect();
        let draw_pile = cards.collect();
        let mut tiles = Vec::new();
        if let Some(board) = variant.board() {
            let mut kinds = board.tile_list();
            rng.shuffle(&mut kinds);
            tiles = board
                .tile_slots()
                .zip(kinds)
                .map(|(slot, tile)| PlacedTile {
                    space: board.space(slot).id.clone(),
                    tile,
                })
                .collect();
        }
        let start_player = rng.below(players as u64) as u8;
        Ok(Setup {
            variant,
            players,
            start_player,
            draw_pile,
            removed,
            hands,
            tiles,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_rng_is_the_documented_chacha8_stream() {
        // Pinned values: if these change, every seeded game changes (bump RULESET_VERSION).
        let mut rng = SeedRng::new(42);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        let mut again = SeedRng::new(42);
        assert_eq!(first, (0..3).map(|_| again.next_u64()).collect::<Vec<_>>());
        assert_ne!(first, {
            let mut other = SeedRng::new(43);
            (0..3).map(|_| other.next_u64()).collect::<Vec<_>>()
        });
        assert_eq!(SEED_42_FIRST_U64, first[0]);
    }

    const SEED_42_FIRST_U64: u64 = 6424161053832095879;

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = SeedRng::new(7);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let x = rng.below(5) as usize;
            seen[x] = true;
        }
        assert!(seen.iter().all(|s| *s));
    }

    #[test]
    fn k2_k3_two_players_remove_30_and_deal_8_each() {
        let s = Setup::deal(Variant::Keltis, 2, 1).unwrap();
        assert_eq!(s.removed.len(), 30);
        assert_eq!(s.hands.len(), 2);
        assert!(s.hands.iter().all(|h| h.len() == 8));
        assert_eq!(s.draw_pile.len(), 110 - 30 - 16);
    }

    #[test]
    fn k3_more_players_remove_nothing() {
        for players in [3, 4] {
            let s = Setup::deal(Variant::NeueWege, players, 9).unwrap();
            assert!(s.removed.is_empty());
            assert_eq!(s.draw_pile.len(), 110 - 8 * players as usize);
        }
    }

    #[test]
    fn c1_card_game_removes_30_and_deals_8_each() {
        let s = Setup::deal(Variant::KeltisCard, 2, 3).unwrap();
        assert_eq!(s.removed.len(), 30);
        assert_eq!(s.draw_pile.len(), 101 - 30 - 16);
        assert!(s.tiles.is_empty());
    }

    #[test]
    fn k12_start_player_is_drawn_from_the_seed() {
        let starts: std::collections::HashSet<u8> = (0..40)
            .map(|seed| Setup::deal(Variant::Keltis, 4, seed).unwrap().start_player)
            .collect();
        assert_eq!(starts.len(), 4, "every seat starts in some game");
    }

    #[test]
    fn b2_x2_every_tile_is_placed_on_a_tile_slot() {
        let s = Setup::deal(Variant::Keltis, 3, 5).unwrap();
        assert_eq!(s.tiles.len(), 25);
        let s = Setup::deal(Variant::NeueWege, 3, 5).unwrap();
        assert_eq!(s.tiles.len(), 22);
    }

    #[test]
    fn same_seed_same_deal_other_seed_other_deal() {
        for v in Variant::ALL {
            let a = Setup::deal(v, 2, 1234).unwrap();
            assert_eq!(a, Setup::deal(v, 2, 1234).unwrap());
            assert_ne!(a, Setup::deal(v, 2, 1235).unwrap());
        }
    }

    #[test]
    fn player_counts_outside_the_variant_are_refused() {
        assert!(Setup::deal(Variant::Keltis, 1, 0).is_err());
        assert!(Setup::deal(Variant::Keltis, 5, 0).is_err());
        assert!(Setup::deal(Variant::KeltisCard, 3, 0).is_err());
    }
}
