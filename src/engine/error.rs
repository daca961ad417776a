//! Why the engine refused something. Each error has a stable machine-readable `code`; messages
//! speak only of what the acting seat may know (its own hand, public state).

use serde::Serialize;

use super::cards::{Card, Color};
use super::game::Phase;
use super::rows::Direction;
use super::Variant;

/// A refused decision. The game state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum RuleError {
    #[error("the game is over")]
    GameOver,
    #[error("seat {seat} has left the game: a bot plays it now")]
    SeatRetired { seat: u8 },
    #[error("there is no seat {seat} in this game")]
    NoSuchSeat { seat: u8 },
    #[error("it is not your turn: seat {to_act} is to act")]
    NotYourTurn { to_act: u8 },
    #[error("a {got} decision is not possible now: the game is in its {} phase", phase.name())]
    UnexpectedDecision { got: &'static str, phase: Phase },
    #[error("this decision does not exist in {variant}")]
    NotInVariant { variant: Variant },
    #[error("{card} is not in your hand")]
    CardNotInHand { card: Card },
    #[error("{card} breaks the order of your {} row (K5: it is {}, last value {last})", card.color().name(), direction.name())]
    RowOrder {
        card: Card,
        direction: Direction,
        last: u8,
    },
    #[error("no pawn of yours can move with {card}")]
    NoPawnCanMove { card: Card },
    #[error("that pawn cannot move there")]
    IllegalMove,
    #[error("there is no pawn {pawn}: pawns are 0 (big) to 4")]
    NoSuchPawn { pawn: u8 },
    #[error("small pawn {pawn} stands with a lower-numbered small pawn of yours: move that one (they are identical)")]
    NotLowestSmallPawn { pawn: u8 },
    #[error("unknown space {space:?}")]
    UnknownSpace { space: String },
    #[error("several moves are possible: name the {what}")]
    ChoiceRequired { what: &'static str },
    #[error("the top card of the {} pile was discarded this turn (K7)", color.name())]
    DiscardedThisTurn { color: Color },
    #[error("the {} pile is empty", color.name())]
    PileEmpty { color: Color },
    #[error("your {} row is empty", color.name())]
    RowEmpty { color: Color },
    #[error("{card} cannot go on the {} path", path.name())]
    WrongPath { card: Card, path: Color },
    #[error("your {} path is terminated: only its second end card may follow (C5)", path.name())]
    PathTerminated { path: Color },
    #[error("a wish stone needs two cards of the same value 1..9 (C8)")]
    StoneCardsInvalid,
    #[error("wish stone {value} is already taken (C8)")]
    StoneTaken { value: u8 },
    #[error("wish stones can no longer be taken in the final phase (C9)")]
    StoneInFinalPhase,
}

impl RuleError {
    /// The stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            RuleError::GameOver => "game_over",
            RuleError::SeatRetired { .. } => "seat_retired",
            RuleError::NoSuchSeat { .. } => "no_such_seat",
            RuleError::NotYourTurn { .. } => "not_your_turn",
            RuleError::UnexpectedDecision { .. } => "unexpected_decision",
            RuleError::NotInVariant { .. } => "not_in_variant",
            RuleError::CardNotInHand { .. } => "card_not_in_hand",
            RuleError::RowOrder { .. } => "row_order",
            RuleError::NoPawnCanMove { .. } => "no_pawn_can_move",
            RuleError::IllegalMove => "illegal_move",
            RuleError::NoSuchPawn { .. } => "no_such_pawn",
            RuleError::NotLowestSmallPawn { .. } => "not_lowest_small_pawn",
            RuleError::UnknownSpace { .. } => "unknown_space",
            RuleError::ChoiceRequired { .. } => "choice_required",
            RuleError::DiscardedThisTurn { .. } => "discarded_this_turn",
            RuleError::PileEmpty { .. } => "pile_empty",
            RuleError::RowEmpty { .. } => "row_empty",
            RuleError::WrongPath { .. } => "wrong_path",
            RuleError::PathTerminated { .. } => "path_terminated",
            RuleError::StoneCardsInvalid => "stone_cards_invalid",
            RuleError::StoneTaken { .. } => "stone_taken",
            RuleError::StoneInFinalPhase => "stone_in_final_phase",
        }
    }
}

/// A game that cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("{variant} is played by {} to {} players, not {players}", variant.player_counts().start(), variant.player_counts().end())]
    PlayerCount { variant: Variant, players: u8 },
    #[error("the setup is inconsistent: {0}")]
    Inconsistent(String),
}
