//! What a seat, or a spectator, may see (K8, X7). Never the draw pile's order, the removed cards,
//! another seat's hand or the seed.

use serde::{Deserialize, Serialize};

use super::cards::{Card, Color};
use super::decision::{Decision, DecisionJson};
use super::error::RuleError;
use super::game::{Game, Phase, BIG_PAWN, PLAIN_STONE, START};
use super::rows::Direction;
use super::scoring::{GameResult, Retirement, Score};
use super::{Variant, RULESET_VERSION};

/// The game as one seat (or a spectator) sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct View {
    pub variant: Variant,
    pub players: u8,
    pub ruleset_version: u32,
    /// The seat this view is for; `null` for a spectator.
    #[schema(required = true)]
    pub seat: Option<u8>,
    /// The seat's own hand, sorted; empty for a spectator.
    pub hand: Vec<Card>,
    pub draw_pile_size: usize,
    /// Every discard pile, bottom card first (K8: their whole content is public).
    pub discard_piles: Vec<PileView>,
    pub seats: Vec<SeatView>,
    /// Board games: tiles and wish-stone piles still on the board.
    #[schema(required = true)]
    pub board: Option<BoardView>,
    /// Keltis Card: the nine wish stones and who took them (C8).
    #[schema(required = true)]
    pub stones: Option<Vec<StoneView>>,
    pub phase: Phase,
    /// The seat that must decide now; `null` once the game is over.
    #[schema(required = true)]
    pub to_act: Option<u8>,
    /// The seat whose turn it is.
    pub turn_player: u8,
    /// The viewer's legal decisions: empty unless the viewer is to act (and still in the game:
    /// a seat that resigned or timed out decides nothing more).
    pub legal_decisions: Vec<DecisionJson>,
    /// Final scores and winners, once the game is over.
    #[schema(required = true)]
    pub result: Option<GameResult>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PileView {
    pub color: Color,
    pub cards: Vec<Card>,
    /// K7: its top card was discarded this turn and cannot be drawn.
    pub discarded_this_turn: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SeatView {
    pub seat: u8,
    pub hand_size: usize,
    /// The seat's rows (paths), one per colour that has cards.
    pub rows: Vec<RowView>,
    /// Board games: the seat's five pawns.
    pub pawns: Vec<PawnView>,
    /// Board games: points scored from tiles (the score track).
    pub tile_points: u16,
    /// Board games: wish stones held (public: B5, X7); `color` is `null` for base-game stones.
    pub wish_stones: Vec<HeldStones>,
    /// Whether and how the seat left the game (then a bot plays it and it cannot win).
    #[serde(default)]
    #[schema(required = true)]
    pub retired: Option<Retirement>,
    /// The seat's score as things stand, from what everyone sees (final once the game is over).
    pub score: Score,
    /// Cards the seat drew from a discard pile and has not played since (everyone saw them
    /// drawn). Kept for the bots and the review, which sample the hidden cards from a view; not
    /// sent to clients (yet).
    #[serde(skip)]
    pub known_in_hand: Vec<Card>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct RowView {
    pub color: Color,
    pub cards: Vec<Card>,
    pub direction: Direction,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PawnView {
    /// 0 is the big pawn, 1..4 the small ones.
    pub pawn: u8,
    pub big: bool,
    /// Space id, or `null` on Start.
    #[schema(required = true)]
    pub space: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct HeldStones {
    #[schema(required = true)]
    pub color: Option<Color>,
    pub count: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct BoardView {
    /// The layout's id.
    pub layout: String,
    pub tiles: Vec<super::setup::PlacedTile>,
    pub piles: Vec<StonePileView>,
    /// Pawns in the goal zone, all players (K9a ends the game at 5).
    pub goal_pawns: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct StonePileView {
    pub space: String,
    pub color: Color,
    pub stones: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct StoneView {
    pub value: u8,
    #[schema(required = true)]
    pub taken_by: Option<u8>,
}

impl View {
    /// The legal decisions, with the layout's space ids resolved to the engine's spaces (what a
    /// bot or the review weighs).
    pub fn resolved_legal_decisions(&self) -> Result<Vec<Decision>, RuleError> {
        let board = self.variant.board();
        self.legal_decisions
            .iter()
            .map(|d| d.clone().resolve(board.as_deref()))
            .collect()
    }
}

impl Game {
    /// What `seat` may see; `None` gives the spectator view. A seat outside the game also gets
    /// the spectator view.
    pub fn view(&self, seat: Option<u8>) -> View {
        let seat = seat.filter(|s| *s < self.players);
        let board = self.board.as_deref();
        let legal_decisions = match (seat, self.to_act()) {
            (Some(s), Some(t)) if s == t => self
                .legal_decisions()
                .into_iter()
                .map(|d| d.to_json(board))
                .collect(),
            _ => Vec::new(),
        };
        let pile_colors: &[Color] = if self.variant == Variant::KeltisCard {
            &Color::ALL
        } else {
            &Color::PATHS
        };
        let discard_piles = pile_colors
            .iter()
            .map(|&color| PileView {
                color,
                cards: self.piles[color.index()].to_vec(),
                discarded_this_turn: self.discarded_this_turn[color.index()],
            })
            .collect();
        let seats = (0..self.players)
            .map(|s| {
                let rows = pile_colors
                    .iter()
                    .map(|&c| &self.rows[s as usize][c.index()])
                    .zip(pile_colors)
                    .filter(|(row, _)| !row.is_empty())
                    .map(|(row, &color)| RowView {
                        color,
                        cards: row.cards().to_vec(),
                        direction: row.direction(),
                    })
                    .collect();
                let pawns = match board {
                    Some(b) => self.pawns[s as usize]
                        .iter()
                        .enumerate()
                        .map(|(p, &pos)| PawnView {
                            pawn: p as u8,
                            big: p as u8 == BIG_PAWN,
                            space: (pos != START).then(|| b.space(pos).id.clone()),
                        })
                        .collect(),
                    None => Vec::new(),
                };
                let held = &self.wish_stones[s as usize];
                let wish_stones = match self.variant {
                    Variant::Keltis => vec![HeldStones {
                        color: None,
                        count: held[PLAIN_STONE],
                    }],
                    Variant::NeueWege => Color::PATHS
                        .iter()
                        .map(|&c| HeldStones {
                            color: Some(c),
                            count: held[c.index()],
                        })
                        .collect(),
                    Variant::KeltisCard => Vec::new(),
                };
                SeatView {
                    seat: s,
                    hand_size: self.hands[s as usize].len(),
                    rows,
                    pawns,
                    tile_points: self.tile_points[s as usize],
                    wish_stones,
                    retired: self.retired[s as usize],
                    score: self.score(s),
                    known_in_hand: self.known_in_hand(s).to_vec(),
                }
            })
            .collect();
        let board_view = board.map(|b| BoardView {
            layout: b.id.clone(),
            tiles: self
                .tiles
                .iter()
                .enumerate()
                .filter_map(|(i, t)| {
                    t.map(|tile| super::setup::PlacedTile {
                        space: b.spaces[i].id.clone(),
                        tile,
                    })
                })
                .collect(),
            piles: b
                .spaces
                .iter()
                .enumerate()
                .filter_map(|(i, s)| match s.slot {
                    super::board::Slot::Pile(color) => Some(StonePileView {
                        space: s.id.clone(),
                        color,
                        stones: self.pile_stones[i],
                    }),
                    _ => None,
                })
                .collect(),
            goal_pawns: self.goal_pawns,
        });
        let stones = (self.variant == Variant::KeltisCard).then(|| {
            (1..=9)
                .map(|value| StoneView {
                    value,
                    taken_by: self.stones[value as usize - 1],
                })
                .collect()
        });
        View {
            variant: self.variant,
            players: self.players,
            ruleset_version: RULESET_VERSION,
            seat,
            hand: seat.map_or_else(Vec::new, |s| self.hands[s as usize].to_vec()),
            draw_pile_size: self.draw_pile.len(),
            discard_piles,
            seats,
            board: board_view,
            stones,
            phase: self.phase,
            to_act: self.to_act(),
            turn_player: self.turn_player,
            legal_decisions,
            result: self.result(),
        }
    }
}
