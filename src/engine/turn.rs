//! The state machine of a turn (K6, K9, C7, C9), in one place.
//!
//! ```text
//! board games:  Play ──lay/discard──▶ [FreeStep | DiscardTile]* ──▶ Draw ×(8 - hand) ──▶ next seat's Play
//!                 │ 5th pawn enters the goal zone (K9a) ─────────────────────────────▶ Over
//!                 └ last card of the draw pile drawn (K9b) ─────────────────────────▶ Over
//! Keltis Card:  Play ──lay/discard/take_stone──▶ Draw ×(8 - hand) ──▶ next seat's Play
//!                 │ 5 paths terminated, or last card drawn (C9) ──▶ FinalPlay ×4 ──▶ Over
//! ```
//!
//! Every action reports an [`Effect`]; [`Game::proceed`] alone decides what comes next.

use super::cards::Color;
use super::decision::{Decision, DecisionOf};
use super::error::RuleError;
use super::game::{Game, Phase};
use super::scoring::{EndReason, Retirement};
use super::{Variant, HAND_SIZE};

/// What an action leaves for the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Effect {
    /// Nothing pending: go on with the turn.
    Nothing,
    /// A free step may be taken (K13: clover, end-stone bonus).
    FreeStep,
    /// The "discard a card" tile (X6).
    DiscardTile,
    /// The game ends at once (K9).
    GameOver(EndReason),
    /// The turn ends at once and the final phase begins (C9).
    FinalPhase(EndReason),
}

/// C9: plays in the final phase, two for each player.
const FINAL_PLAYS: u8 = 4;

impl Game {
    /// Validate and apply `seat`'s decision. On error the game is unchanged.
    pub fn apply(&mut self, seat: u8, decision: Decision) -> Result<(), RuleError> {
        use DecisionOf as D;
        if seat >= self.players {
            return Err(RuleError::NoSuchSeat { seat });
        }
        if self.phase == Phase::Over {
            return Err(RuleError::GameOver);
        }
        if let D::Resign | D::TimeOut = decision {
            return self.retire(seat, decision == D::TimeOut);
        }
        if seat != self.to_act {
            return Err(RuleError::NotYourTurn {
                to_act: self.to_act,
            });
        }
        let card_game = self.variant == Variant::KeltisCard;
        let effect = match (self.phase, decision.normalized()) {
            (
                Phase::Play | Phase::FinalPlay { .. },
                D::Lay {
                    card,
                    pawn,
                    to,
                    path,
                },
            ) => {
                if card_game {
                    self.lay_on_path(seat, card, path)?
                } else {
                    self.lay_with_pawn(seat, card, pawn, to)?
                }
            }
            (Phase::Play | Phase::FinalPlay { .. }, D::Discard { card }) => {
                if !self.hand_has(seat, card) {
                    return Err(RuleError::CardNotInHand { card });
                }
                self.take_from_hand(seat, card);
                self.discard_to_pile(card);
                Effect::Nothing
            }
            (Phase::Play, D::TakeStone { cards }) if card_game => self.take_stone(seat, cards)?,
            (Phase::FinalPlay { .. }, D::TakeStone { .. }) => {
                return Err(RuleError::StoneInFinalPhase)
            }
            (Phase::FinalPlay { .. }, D::Pass) => Effect::Nothing,
            (Phase::FreeStep, D::Step { pawn, to }) => self.free_step(seat, pawn, to)?,
            (Phase::FreeStep | Phase::DiscardTile, D::Skip) => Effect::Nothing,
            (Phase::DiscardTile, D::DiscardFromHand { card }) => {
                self.discard_from_hand(seat, card)?
            }
            (Phase::DiscardTile, D::DiscardFromRow { color }) => {
                self.discard_from_row(seat, color)?
            }
            (Phase::Draw, D::DrawDeck) => self.draw_from_deck(seat),
            (Phase::Draw, D::DrawPile { color }) => self.draw_from_pile(seat, color)?,
            (_, D::TakeStone { .. } | D::Pass) if !card_game => {
                return Err(RuleError::NotInVariant {
                    variant: self.variant,
                });
            }
            (phase, d) => {
                return Err(RuleError::UnexpectedDecision {
                    got: d.kind(),
                    phase,
                })
            }
        };
        self.proceed(effect);
        Ok(())
    }

    /// What comes after an action: the one place where the phase changes.
    fn proceed(&mut self, effect: Effect) {
        match effect {
            Effect::GameOver(reason) => self.finish(reason),
            Effect::FinalPhase(reason)
                if self.phase == Phase::Play || self.phase == Phase::Draw =>
            {
                // C9: the turn ends at once; the opponent of the player who ended it starts.
                self.end = Some(reason);
                self.phase = Phase::FinalPlay { left: FINAL_PLAYS };
                self.to_act = self.next_seat(self.turn_player);
            }
            Effect::FreeStep if self.can_step(self.turn_player) => self.phase = Phase::FreeStep,
            Effect::DiscardTile => self.phase = Phase::DiscardTile,
            // Nothing pending (a free step that no pawn can take is skipped: K13 is optional).
            _ => match self.phase {
                Phase::FinalPlay { left } if left <= 1 => {
                    let reason = self.end.unwrap_or(EndReason::DrawPileExhausted);
                    self.finish(reason);
                }
                Phase::FinalPlay { left } => {
                    self.phase = Phase::FinalPlay { left: left - 1 };
                    self.to_act = self.next_seat(self.to_act);
                }
                _ if self.hands[self.turn_player as usize].len() < HAND_SIZE => {
                    self.phase = Phase::Draw
                }
                _ => self.next_turn(),
            },
        }
    }

    fn next_seat(&self, seat: u8) -> u8 {
        (seat + 1) % self.players
    }

    fn next_turn(&mut self) {
        self.turn_player = self.next_seat(self.turn_player);
        self.to_act = self.turn_player;
        self.phase = Phase::Play;
        self.discarded_this_turn = [false; super::game::PILES];
    }

    /// A seat resigns or times out: it stays in the turn order (played on by a bot at the
    /// server) but cannot win. The game ends when fewer than two seats are left in it.
    fn retire(&mut self, seat: u8, timed_out: bool) -> Result<(), RuleError> {
        if self.retired[seat as usize].is_some() {
            return Err(RuleError::SeatRetired { seat });
        }
        let (how, reason) = if timed_out {
            (Retirement::TimedOut, EndReason::TimedOut { seat })
        } else {
            (Retirement::Resigned, EndReason::Resigned { seat })
        };
        self.retired[seat as usize] = Some(how);
        if self.retired.iter().filter(|r| r.is_none()).count() < 2 {
            self.finish(reason);
        }
        Ok(())
    }

    pub(super) fn finish(&mut self, reason: EndReason) {
        self.phase = Phase::Over;
        self.end = Some(reason);
    }

    /// K6c, C7: the top card of the draw pile. Drawing its last card ends the game (K9b) or
    /// starts the final phase (C9).
    fn draw_from_deck(&mut self, seat: u8) -> Effect {
        if let Some(card) = self.draw_pile.pop() {
            self.put_in_hand(seat, card);
        }
        match (self.draw_pile.is_empty(), self.variant) {
            (false, _) => Effect::Nothing,
            (true, Variant::KeltisCard) => Effect::FinalPhase(EndReason::DrawPileExhausted),
            (true, _) => Effect::GameOver(EndReason::DrawPileExhausted),
        }
    }

    /// K6c, K7, C7: the top card of a discard pile, unless it was discarded this turn.
    fn draw_from_pile(&mut self, seat: u8, color: Color) -> Result<Effect, RuleError> {
        let pile = color.index();
        if self.discarded_this_turn[pile] {
            return Err(RuleError::DiscardedThisTurn { color });
        }
        let card = self.piles[pile]
            .pop()
            .ok_or(RuleError::PileEmpty { color })?;
        self.put_in_hand(seat, card);
        self.known_drawn(seat, card);
        Ok(Effect::Nothing)
    }

    /// Every decision the seat to act may take now, in a stable order. Empty when the game is
    /// over. `resign`, always open to every seat, is not listed.
    pub fn legal_decisions(&self) -> Vec<Decision> {
        let mut out = Vec::with_capacity(32);
        self.legal_decisions_into(&mut out);
        out
    }

    /// [`Game::legal_decisions`] into a buffer that the caller reuses.
    pub fn legal_decisions_into(&self, out: &mut Vec<Decision>) {
        use DecisionOf as D;
        out.clear();
        let seat = self.to_act;
        let hand = &self.hands[seat as usize];
        match self.phase {
            Phase::Over => {}
            Phase::Play | Phase::FinalPlay { .. } => {
                let pawn_moves = (self.variant == Variant::NeueWege).then(|| self.pawn_moves(seat));
                for (i, &card) in hand.iter().enumerate() {
                    if i > 0 && hand[i - 1] == card {
                        continue;
                    }
                    self.list_lays(seat, card, pawn_moves.as_ref(), out);
                    out.push(D::Discard { card });
                }
                match self.phase {
                    Phase::Play if self.variant == Variant::KeltisCard => {
                        self.list_stone_takes(seat, out)
                    }
                    Phase::FinalPlay { .. } => out.push(D::Pass),
                    _ => {}
                }
            }
            Phase::FreeStep => {
                self.each_step(seat, |pawn, to| out.push(D::Step { pawn, to }));
                out.push(D::Skip);
            }
            Phase::DiscardTile => {
                for (i, &card) in hand.iter().enumerate() {
                    if i == 0 || hand[i - 1] != card {
                        out.push(D::DiscardFromHand { card });
                    }
                }
                for color in Color::PATHS {
                    if !self.rows[seat as usize][color.index()].is_empty() {
                        out.push(D::DiscardFromRow { color });
                    }
                }
                out.push(D::Skip);
            }
            Phase::Draw => {
                out.push(D::DrawDeck);
                for color in Color::ALL {
                    let pile = color.index();
                    if !self.piles[pile].is_empty() && !self.discarded_this_turn[pile] {
                        out.push(D::DrawPile { color });
                    }
                }
            }
        }
    }

    /// The lays of `card`; in Neue Wege from the turn's `pawn_moves`.
    fn list_lays(
        &self,
        seat: u8,
        card: super::cards::Card,
        pawn_moves: Option<&super::movement::PawnMoves>,
        out: &mut Vec<Decision>,
    ) {
        if self.variant == Variant::KeltisCard {
            self.each_path(seat, card, |path| {
                out.push(DecisionOf::Lay {
                    card,
                    pawn: None,
                    to: None,
                    path: Some(path),
                })
            });
        } else if self.row_accepts(seat, card) {
            let push = |m: super::movement::LayMove| {
                let (pawn, to) = m.named();
                out.push(DecisionOf::Lay {
                    card,
                    pawn,
                    to,
                    path: None,
                })
            };
            match pawn_moves {
                Some(moves) => moves.of_color(card.color()).for_each(push),
                None => self.each_lay_move(seat, card.color(), push),
            }
        }
    }
}
