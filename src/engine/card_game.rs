//! Keltis Card: laying on paths (C3, C4, C5), wish stones (C8), and what ends the game (C9).

use super::cards::{Card, Color};
use super::decision::{Decision, DecisionOf};
use super::error::RuleError;
use super::game::{Game, Phase};
use super::scoring::EndReason;
use super::turn::Effect;

/// C9: terminated colour paths (both players) that end the game.
pub const TERMINATED_PATHS_TO_END: usize = 5;

impl Game {
    /// Every path the card may go on.
    pub(super) fn each_path(&self, seat: u8, card: Card, mut f: impl FnMut(Color)) {
        let rows = &self.rows[seat as usize];
        let color = card.color();
        match card.value() {
            // C5: an end card goes on its colour's path at any time; after it only the second.
            None => {
                if rows[color.index()].end_cards() < 2 {
                    f(color)
                }
            }
            // C4: a gray card on the gray path in any order, or on a colour path whose top card
            // has the same value.
            Some(v) if color == Color::Gray => {
                f(Color::Gray);
                for path in Color::PATHS {
                    let row = &rows[path.index()];
                    if row.end_cards() == 0 && row.last().and_then(Card::value) == Some(v) {
                        f(path);
                    }
                }
            }
            // C3: a number card on its colour's path, following K5.
            Some(v) => {
                let row = &rows[color.index()];
                if row.end_cards() == 0 && row.accepts_value(v) {
                    f(color)
                }
            }
        }
    }

    /// Lay a card on one of the player's paths (C3..C5); may start the final phase (C9).
    pub(super) fn lay_on_path(
        &mut self,
        seat: u8,
        card: Card,
        path: Option<Color>,
    ) -> Result<Effect, RuleError> {
        if !self.hand_has(seat, card) {
            return Err(RuleError::CardNotInHand { card });
        }
        let (mut matching, mut chosen) = (0, None);
        self.each_path(seat, card, |p| {
            if path.is_none_or(|want| want == p) {
                matching += 1;
                chosen = Some(p);
            }
        });
        let target = match (chosen, matching) {
            (Some(p), 1) => p,
            (Some(_), _) => return Err(RuleError::ChoiceRequired { what: "path" }),
            (None, _) => return Err(self.why_not_on_path(seat, card, path)),
        };
        let row = &mut self.rows[seat as usize][target.index()];
        let newly_terminated = card.is_end() && row.end_cards() == 0;
        row.push(card);
        self.take_from_hand(seat, card);
        if newly_terminated && self.phase == Phase::Play {
            let terminated = self
                .rows
                .iter()
                .flat_map(|rows| &rows[..5])
                .filter(|row| row.end_cards() > 0)
                .count();
            if terminated >= TERMINATED_PATHS_TO_END {
                return Ok(Effect::FinalPhase(EndReason::PathsTerminated));
            }
        }
        Ok(Effect::Nothing)
    }

    fn why_not_on_path(&self, seat: u8, card: Card, path: Option<Color>) -> RuleError {
        let target = path.unwrap_or(card.color());
        let row = &self.rows[seat as usize][target.index()];
        let own_colour = target == card.color();
        let gray_number = card.color() == Color::Gray && card.value().is_some();
        if !own_colour && !gray_number {
            return RuleError::WrongPath { card, path: target };
        }
        if row.end_cards() > 0 {
            return RuleError::PathTerminated { path: target };
        }
        if own_colour {
            RuleError::RowOrder {
                card,
                direction: row.direction(),
                last: row.last().and_then(Card::value).unwrap_or(0),
            }
        } else {
            // A gray card on a colour path whose top card has another value.
            RuleError::WrongPath { card, path: target }
        }
    }

    /// C8: two cards of value v (1..9) to the piles, wish stone v to the player.
    pub(super) fn take_stone(&mut self, seat: u8, cards: [Card; 2]) -> Result<Effect, RuleError> {
        let [a, b] = cards;
        let value = match (a.value(), b.value()) {
            (Some(x), Some(y)) if x == y && (1..=9).contains(&x) => x,
            _ => return Err(RuleError::StoneCardsInvalid),
        };
        let hand = &self.hands[seat as usize];
        for card in [a, b] {
            let needed = if a == b { 2 } else { 1 };
            if hand.iter().filter(|c| **c == card).count() < needed {
                return Err(RuleError::CardNotInHand { card });
            }
        }
        if self.stones[value as usize - 1].is_some() {
            return Err(RuleError::StoneTaken { value });
        }
        for card in [a, b] {
            self.take_from_hand(seat, card);
            self.discard_to_pile(card);
        }
        self.stones[value as usize - 1] = Some(seat);
        Ok(Effect::Nothing)
    }

    /// Every wish stone the hand can take, each pair lower card first.
    pub(super) fn list_stone_takes(&self, seat: u8, out: &mut Vec<Decision>) {
        let hand = &self.hands[seat as usize];
        let start = out.len();
        for i in 0..hand.len() {
            let Some(v) = hand[i].value() else { continue };
            if !(1..=9).contains(&v) || self.stones[v as usize - 1].is_some() {
                continue;
            }
            for j in i + 1..hand.len() {
                if hand[j].value() == Some(v) {
                    let d = DecisionOf::TakeStone {
                        cards: [hand[i], hand[j]],
                    };
                    if !out[start..].contains(&d) {
                        out.push(d);
                    }
                }
            }
        }
    }
}
