//! Decisions: what a seat may do at its turn (K6, K13, X6, C7..C9).

use serde::{Deserialize, Serialize};

use super::board::{Board, SpaceIdx};
use super::cards::{Card, Color};
use super::error::RuleError;

/// A decision, generic over how a space is named: [`Decision`] uses the layout's index inside the
/// engine, [`DecisionJson`] the layout's space id on the wire.
///
/// JSON: an object with a `type` tag, e.g. `{"type":"lay","card":{"color":"blue","value":4},
/// "pawn":0,"to":"blue-1"}`, `{"type":"draw_pile","color":"pink"}`, `{"type":"skip"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = Decision)]
pub enum DecisionOf<S> {
    /// Lay a card from hand in its row (K6a). Board games: `pawn` (0 is the big pawn, 1..4 the
    /// small ones) moves to space `to` (B3, X3); both may be left out where only one move exists;
    /// both are absent for the end-stone bonus lay (B6). Keltis Card: `path` is the colour path
    /// (or `gray`) the card goes on; it may be left out for a number or end card.
    Lay {
        card: Card,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pawn: Option<u8>,
        /// Space id from the layout (e.g. `blue-3`, `r4c2`).
        #[serde(default = "none", skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<String>)]
        to: Option<S>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        path: Option<Color>,
    },
    /// Discard a card from hand face up onto its colour's pile (K6a, C7).
    Discard { card: Card },
    /// A free step (K13, B6, B7): pawn moves to the successor `to`.
    Step {
        pawn: u8,
        /// Space id from the layout.
        #[schema(value_type = String)]
        to: S,
    },
    /// Decline an optional effect (free step, discard tile).
    Skip,
    /// "Discard a card" tile (X6): a card from hand goes to its pile; two draws this turn.
    DiscardFromHand { card: Card },
    /// "Discard a card" tile (X6): the last card of the player's row of this colour goes to its pile.
    DiscardFromRow { color: Color },
    /// Draw the top card of the draw pile (K6c, C7).
    DrawDeck,
    /// Draw the top card of a discard pile (K6c, K7, C7).
    DrawPile { color: Color },
    /// Keltis Card: discard two cards of one value v to take wish stone v (C8).
    TakeStone { cards: [Card; 2] },
    /// Keltis Card final phase: play no card (C9).
    Pass,
    /// Give up (any seat, any time; see the rules notes). With two players the game ends; with
    /// three or four the seat is played on by a bot, cannot win and ranks last.
    Resign,
    /// The seat's time ran out. Applied by the server's clock, never sent by a client; otherwise
    /// like `resign`.
    TimeOut,
}

fn none<S>() -> Option<S> {
    None
}

/// A decision inside the engine.
pub type Decision = DecisionOf<SpaceIdx>;
/// A decision on the wire, spaces named by their layout id.
pub type DecisionJson = DecisionOf<String>;

impl<S> DecisionOf<S> {
    /// The `type` tag, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            DecisionOf::Lay { .. } => "lay",
            DecisionOf::Discard { .. } => "discard",
            DecisionOf::Step { .. } => "step",
            DecisionOf::Skip => "skip",
            DecisionOf::DiscardFromHand { .. } => "discard_from_hand",
            DecisionOf::DiscardFromRow { .. } => "discard_from_row",
            DecisionOf::DrawDeck => "draw_deck",
            DecisionOf::DrawPile { .. } => "draw_pile",
            DecisionOf::TakeStone { .. } => "take_stone",
            DecisionOf::Pass => "pass",
            DecisionOf::Resign => "resign",
            DecisionOf::TimeOut => "time_out",
        }
    }

    /// The same decision with its spaces renamed.
    pub fn try_map_space<T, E>(
        self,
        mut f: impl FnMut(S) -> Result<T, E>,
    ) -> Result<DecisionOf<T>, E> {
        Ok(match self {
            DecisionOf::Lay {
                card,
                pawn,
                to,
                path,
            } => DecisionOf::Lay {
                card,
                pawn,
                to: to.map(&mut f).transpose()?,
                path,
            },
            DecisionOf::Step { pawn, to } => DecisionOf::Step { pawn, to: f(to)? },
            DecisionOf::Discard { card } => DecisionOf::Discard { card },
            DecisionOf::Skip => DecisionOf::Skip,
            DecisionOf::DiscardFromHand { card } => DecisionOf::DiscardFromHand { card },
            DecisionOf::DiscardFromRow { color } => DecisionOf::DiscardFromRow { color },
            DecisionOf::DrawDeck => DecisionOf::DrawDeck,
            DecisionOf::DrawPile { color } => DecisionOf::DrawPile { color },
            DecisionOf::TakeStone { cards } => DecisionOf::TakeStone { cards },
            DecisionOf::Pass => DecisionOf::Pass,
            DecisionOf::Resign => DecisionOf::Resign,
            DecisionOf::TimeOut => DecisionOf::TimeOut,
        })
    }
}

impl Decision {
    /// The wire form, naming spaces by id.
    pub fn to_json(self, board: Option<&Board>) -> DecisionJson {
        let named: Result<DecisionJson, std::convert::Infallible> = self.try_map_space(|idx| {
            Ok(board
                .map(|b| b.space(idx).id.clone())
                .unwrap_or_else(|| idx.to_string()))
        });
        match named {
            Ok(d) => d,
            Err(never) => match never {},
        }
    }

    /// Two cards for a wish stone are the same decision in either order: the engine lists and
    /// records them lower card first.
    pub fn normalized(self) -> Decision {
        match self {
            DecisionOf::TakeStone { cards: [a, b] } if b < a => {
                DecisionOf::TakeStone { cards: [b, a] }
            }
            d => d,
        }
    }
}

impl DecisionJson {
    /// The engine form; an unknown space id is refused.
    pub fn resolve(self, board: Option<&Board>) -> Result<Decision, RuleError> {
        self.try_map_space(|id| {
            board
                .and_then(|b| b.index_of(&id))
                .ok_or(RuleError::UnknownSpace { space: id })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decision_json_shapes() {
        let board = Board::keltis();
        let d: DecisionJson = serde_json::from_str(
            r#"{"type":"lay","card":{"color":"blue","value":4},"pawn":0,"to":"blue-1"}"#,
        )
        .unwrap();
        let resolved = d.clone().resolve(Some(&board)).unwrap();
        assert_eq!(resolved.to_json(Some(&board)), d);
        let skip: DecisionJson = serde_json::from_str(r#"{"type":"skip"}"#).unwrap();
        assert_eq!(skip, DecisionOf::Skip);
        assert_eq!(
            serde_json::to_string(&DecisionJson::DrawPile { color: Color::Pink }).unwrap(),
            r#"{"type":"draw_pile","color":"pink"}"#
        );
        let lay: DecisionJson = serde_json::from_str(
            r#"{"type":"lay","card":{"color":"gray","value":4},"path":"gray"}"#,
        )
        .unwrap();
        assert!(matches!(
            lay,
            DecisionOf::Lay {
                path: Some(Color::Gray),
                to: None,
                ..
            }
        ));
    }

    #[test]
    fn unknown_fields_types_and_spaces_are_refused() {
        for bad in [
            r#"{"type":"fly"}"#,
            r#"{"type":"step","pawn":1,"to":"x","extra":1}"#,
            r#"{"type":"draw_pile"}"#,
            r#"{"card":{"color":"blue","value":4}}"#,
        ] {
            assert!(serde_json::from_str::<DecisionJson>(bad).is_err(), "{bad}");
        }
        let d = DecisionJson::Step {
            pawn: 1,
            to: "moon".into(),
        };
        assert_eq!(
            d.resolve(Some(&Board::keltis())).unwrap_err().code(),
            "unknown_space"
        );
    }
}
