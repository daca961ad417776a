//! The rules engine: pure Rust, no I/O. It plays `keltis`, `neue-wege` and `keltis-card` exactly as
//! `RULES.md` says; nothing else in the project knows a rule.
//!
//! One module per rule area:
//! - [`cards`]: colours and the decks (K1, C1)
//! - [`rows`]: a player's rows of cards (K5, C3..C5)
//! - [`board`]: layouts as data (B1, X1, the file format)
//! - [`setup`]: the deal from a seed (K2, K3, K12, B2, X2, C1)
//! - [`turn`]: the state machine of a turn (K6, K9, C7, C9), in one place
//! - [`movement`]: pawns, tiles and piles (B3..B7, X3..X6, K13)
//! - [`card_game`]: laying on paths and wish stones of Keltis Card (C3..C8)
//! - [`scoring`]: final scores (B8, X8, C10, K10, K11)
//! - [`view`]: what a seat or a spectator may see (K8, X7)
//! - [`record`]: full records and replay
//! - [`planning`]: plans for the next turn, rehearsed and checked (a server feature, no rule)
//! - [`transposition`]: what a search of the end needs: a position's key, the next card drawn

pub mod board;
pub mod bots;
pub mod card_game;
pub mod cards;
pub mod decision;
pub mod error;
pub mod game;
pub mod movement;
pub mod planning;
pub mod record;
pub mod rows;
pub mod scoring;
pub mod setup;
pub mod transposition;
pub mod turn;
pub mod view;

pub use board::{Board, LayoutError, SpaceIdx, TileKind};
pub use cards::{Card, Color};
pub use decision::{Decision, DecisionJson, DecisionOf};
pub use error::{RuleError, SetupError};
pub use game::{Game, Phase, ENGINE_VERSION};
pub use record::{Record, RecordedDecision, ReplayError};
pub use scoring::{EndReason, GameResult, Retirement, Score};
pub use setup::Setup;
pub use view::View;

use serde::{Deserialize, Serialize};

/// The version of the rules this engine plays. Every game records the version it was played
/// under; a change that alters any game's outcome from the same setup and decisions bumps it.
pub const RULESET_VERSION: u32 = 1;

/// Cards in hand between turns (K3, K6, C1).
pub const HAND_SIZE: usize = 8;
/// Room kept for a hand's cards (`cards::InlineCards`): twice what a hand ever holds.
pub const HAND_CAPACITY: usize = 2 * HAND_SIZE;

/// The three games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// The base game, 2-4 players.
    Keltis,
    /// The "Neue Wege, neue Ziele" board, 2-4 players.
    NeueWege,
    /// Keltis Card, 2 players.
    KeltisCard,
}

impl Variant {
    pub const ALL: [Variant; 3] = [Variant::Keltis, Variant::NeueWege, Variant::KeltisCard];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Keltis => "keltis",
            Variant::NeueWege => "neue-wege",
            Variant::KeltisCard => "keltis-card",
        }
    }

    pub fn parse(s: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == s)
    }

    pub fn player_counts(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Variant::Keltis | Variant::NeueWege => 2..=4,
            Variant::KeltisCard => 2..=2,
        }
    }

    pub fn is_board_game(self) -> bool {
        !matches!(self, Variant::KeltisCard)
    }

    /// The layout a board game is played on.
    pub fn board(self) -> Option<std::sync::Arc<Board>> {
        match self {
            Variant::Keltis => Some(Board::keltis()),
            Variant::NeueWege => Some(Board::neue_wege()),
            Variant::KeltisCard => None,
        }
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests;
