//! Pawns, tiles and piles of the board games: B3..B7, X3..X6, K9a, K13.
//!
//! The base game's paths are coloured end to end, so B3 is X3 ("move a pawn to a successor of
//! the card's colour") plus B4 (one pawn per path and player) and B6 (the end-stone bonus).

use super::board::{Board, Slot, SpaceIdx, TileKind, MOST_NEXT};
use super::cards::{Card, Color};
use super::error::RuleError;
use super::game::{Game, Position, BIG_PAWN, PAWNS, PLAIN_STONE, START};
use super::turn::Effect;
use super::Variant;

/// One way to lay a card of a colour on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LayMove {
    /// The pawn moves to the space (B3, X3).
    Pawn { pawn: u8, to: SpaceIdx },
    /// B6: the player's pawn on this path stands on the end stone; a free step follows.
    EndStoneBonus,
}

/// A Neue Wege seat's pawn moves this turn, each with the colour of the space it goes to
/// (`None`: a Joker space). Listed once a turn and filtered by each card's colour: finding them
/// again for every card in hand cost a twentieth of a Neue Wege review.
pub(super) struct PawnMoves {
    moves: [(u8, SpaceIdx, Option<Color>); PAWNS * MOST_NEXT],
    len: usize,
}

impl PawnMoves {
    /// The moves a card of `color` makes (X3: a space of its colour or a Joker space), in the
    /// order of the pawns, then of their successors.
    pub(super) fn of_color(&self, color: Color) -> impl Iterator<Item = LayMove> + '_ {
        self.moves[..self.len]
            .iter()
            .filter(move |m| m.2.is_none() || m.2 == Some(color))
            .map(|&(pawn, to, _)| LayMove::Pawn { pawn, to })
    }
}

impl LayMove {
    /// The `pawn` and `to` a decision names for this move.
    pub(super) fn named(self) -> (Option<u8>, Option<SpaceIdx>) {
        match self {
            LayMove::Pawn { pawn, to } => (Some(pawn), Some(to)),
            LayMove::EndStoneBonus => (None, None),
        }
    }

    fn matches(self, pawn: Option<u8>, to: Option<SpaceIdx>) -> bool {
        match self {
            LayMove::Pawn { pawn: p, to: t } => {
                pawn.is_none_or(|x| x == p) && to.is_none_or(|x| x == t)
            }
            LayMove::EndStoneBonus => pawn.is_none() && to.is_none(),
        }
    }
}

impl Game {
    fn layout(&self) -> &Board {
        match &self.board {
            Some(b) => b,
            // Only the board games call into this module, and they always have a board.
            None => unreachable!("board rule called in a game without a board"),
        }
    }

    fn successors(&self, pos: Position) -> &[SpaceIdx] {
        let board = self.layout();
        if pos == START {
            &board.start_next
        } else {
            &board.space(pos).next
        }
    }

    /// Small pawns on one position are identical: only the lowest-numbered of them may be named,
    /// so that every move has one name (see the rules notes).
    fn may_name_pawn(&self, seat: u8, pawn: u8) -> bool {
        let pawns = &self.pawns[seat as usize];
        pawn == BIG_PAWN || (1..pawn).all(|q| pawns[q as usize] != pawns[pawn as usize])
    }

    fn check_pawn(&self, seat: u8, pawn: u8) -> Result<(), RuleError> {
        if pawn as usize >= PAWNS {
            return Err(RuleError::NoSuchPawn { pawn });
        }
        if !self.may_name_pawn(seat, pawn) {
            return Err(RuleError::NotLowestSmallPawn { pawn });
        }
        Ok(())
    }

    /// B4: the player's pawn on the base-game path of this colour.
    fn pawn_on_path(&self, seat: u8, color: Color) -> Option<u8> {
        let board = self.layout();
        self.pawns[seat as usize]
            .iter()
            .position(|&pos| pos != START && board.space(pos).color == Some(color))
            .map(|p| p as u8)
    }

    /// K5 for a board game's row.
    pub(super) fn row_accepts(&self, seat: u8, card: Card) -> bool {
        card.value()
            .is_some_and(|v| self.rows[seat as usize][card.color().index()].accepts_value(v))
    }

    /// Every way to lay a card of `color` (B3, B4, B6, X3, X4, X5).
    pub(super) fn each_lay_move(&self, seat: u8, color: Color, mut f: impl FnMut(LayMove)) {
        let board = self.layout();
        let pawns = &self.pawns[seat as usize];
        if self.variant == Variant::Keltis {
            match self.pawn_on_path(seat, color) {
                Some(p) => {
                    let pos = pawns[p as usize];
                    match board.space(pos).next.first() {
                        Some(&to) => f(LayMove::Pawn { pawn: p, to }),
                        None => f(LayMove::EndStoneBonus),
                    }
                }
                None => {
                    let Some(&to) = board
                        .start_next
                        .iter()
                        .find(|&&s| board.space(s).color == Some(color))
                    else {
                        return;
                    };
                    for p in 0..PAWNS as u8 {
                        if pawns[p as usize] == START && self.may_name_pawn(seat, p) {
                            f(LayMove::Pawn { pawn: p, to });
                        }
                    }
                }
            }
        } else {
            self.pawn_moves(seat).of_color(color).for_each(f);
        }
    }

    /// Neue Wege: every move of the seat's pawns (X3), for cards of any colour.
    pub(super) fn pawn_moves(&self, seat: u8) -> PawnMoves {
        let board = self.layout();
        let pawns = &self.pawns[seat as usize];
        let mut moves = PawnMoves {
            moves: [(0, 0, None); PAWNS * MOST_NEXT],
            len: 0,
        };
        for p in 0..PAWNS as u8 {
            if !self.may_name_pawn(seat, p) {
                continue;
            }
            for &to in self.successors(pawns[p as usize]) {
                moves.moves[moves.len] = (p, to, board.space(to).color);
                moves.len += 1;
            }
        }
        moves
    }

    /// Every free step (K13, B7): any pawn to any successor; in the base game not onto a path
    /// where the player already has another pawn (B4).
    pub(super) fn each_step(&self, seat: u8, mut f: impl FnMut(u8, SpaceIdx)) {
        let board = self.layout();
        for p in 0..PAWNS as u8 {
            if !self.may_name_pawn(seat, p) {
                continue;
            }
            let pos = self.pawns[seat as usize][p as usize];
            for &to in self.successors(pos) {
                if self.variant == Variant::Keltis && pos == START {
                    if let Some(c) = board.space(to).color {
                        if self.pawn_on_path(seat, c).is_some() {
                            continue;
                        }
                    }
                }
                f(p, to);
            }
        }
    }

    pub(super) fn can_step(&self, seat: u8) -> bool {
        let mut any = false;
        self.each_step(seat, |_, _| any = true);
        any
    }

    /// Lay a card from hand, moving a pawn (B3, X3) or earning the end-stone bonus (B6).
    pub(super) fn lay_with_pawn(
        &mut self,
        seat: u8,
        card: Card,
        pawn: Option<u8>,
        to: Option<SpaceIdx>,
    ) -> Result<Effect, RuleError> {
        if !self.hand_has(seat, card) {
            return Err(RuleError::CardNotInHand { card });
        }
        let row = &self.rows[seat as usize][card.color().index()];
        if !self.row_accepts(seat, card) {
            return Err(RuleError::RowOrder {
                card,
                direction: row.direction(),
                last: row.last().and_then(|c| c.value()).unwrap_or(0),
            });
        }
        if let Some(p) = pawn {
            self.check_pawn(seat, p)?;
        }
        let (mut any, mut matching, mut chosen) = (false, 0, None);
        self.each_lay_move(seat, card.color(), |m| {
            any = true;
            if m.matches(pawn, to) {
                matching += 1;
                chosen = Some(m);
            }
        });
        let chosen = match (chosen, matching) {
            (Some(m), 1) => m,
            (Some(_), _) => {
                return Err(RuleError::ChoiceRequired {
                    what: if pawn.is_none() {
                        "pawn"
                    } else {
                        "target space"
                    },
                })
            }
            (None, _) if !any => return Err(RuleError::NoPawnCanMove { card }),
            (None, _) => return Err(RuleError::IllegalMove),
        };
        self.take_from_hand(seat, card);
        self.rows[seat as usize][card.color().index()].push(card);
        Ok(match chosen {
            LayMove::Pawn { pawn, to } => self.arrive(seat, pawn, to),
            LayMove::EndStoneBonus => Effect::FreeStep,
        })
    }

    /// K13: the free step itself.
    pub(super) fn free_step(
        &mut self,
        seat: u8,
        pawn: u8,
        to: SpaceIdx,
    ) -> Result<Effect, RuleError> {
        self.check_pawn(seat, pawn)?;
        let mut legal = false;
        self.each_step(seat, |p, t| legal |= p == pawn && t == to);
        if !legal {
            return Err(RuleError::IllegalMove);
        }
        Ok(self.arrive(seat, pawn, to))
    }

    /// A pawn arrives on a space: K9a, then the space's tile or pile (B5, X6).
    fn arrive(&mut self, seat: u8, pawn: u8, to: SpaceIdx) -> Effect {
        let from = self.pawns[seat as usize][pawn as usize];
        let board = self.layout();
        let was_in_goal = from != START && board.space(from).goal;
        let space = board.space(to);
        let (enters_goal, slot) = (space.goal && !was_in_goal, space.slot);
        self.pawns[seat as usize][pawn as usize] = to;
        if enters_goal {
            self.goal_pawns += 1;
            if self.goal_pawns >= 5 {
                // K9a: this arrival's tile or pile is not resolved; no drawing.
                return Effect::GameOver(super::scoring::EndReason::GoalZoneFull);
            }
        }
        let seat = seat as usize;
        if let Slot::Pile(color) = slot {
            let stones = &mut self.pile_stones[to as usize];
            if *stones > 0 {
                *stones -= 1;
                self.wish_stones[seat][color.index()] += 1;
            }
        }
        match self.tiles[to as usize] {
            None => Effect::Nothing,
            Some(TileKind::Points(n)) => {
                self.tile_points[seat] += n as u16;
                Effect::Nothing
            }
            Some(TileKind::Clover) => Effect::FreeStep,
            Some(TileKind::WishStone(color)) => {
                self.tiles[to as usize] = None;
                self.wish_stones[seat][color.map_or(PLAIN_STONE, Color::index)] += 1;
                Effect::Nothing
            }
            Some(TileKind::Discard) => Effect::DiscardTile,
        }
    }

    /// X6: a card from hand onto its pile; the turn then draws two.
    pub(super) fn discard_from_hand(&mut self, seat: u8, card: Card) -> Result<Effect, RuleError> {
        if !self.hand_has(seat, card) {
            return Err(RuleError::CardNotInHand { card });
        }
        self.take_from_hand(seat, card);
        self.discard_to_pile(card);
        Ok(Effect::Nothing)
    }

    /// X6: the last card of one of the player's rows onto its pile.
    pub(super) fn discard_from_row(&mut self, seat: u8, color: Color) -> Result<Effect, RuleError> {
        let card = self.rows[seat as usize][color.index()]
            .pop()
            .ok_or(RuleError::RowEmpty { color })?;
        self.discard_to_pile(card);
        Ok(Effect::Nothing)
    }
}
