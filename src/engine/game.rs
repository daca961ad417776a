//! The state of one game. The rules that change it live in [`super::turn`] (the turn's state
//! machine), [`super::movement`] and [`super::card_game`].

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::board::{Board, SpaceIdx, TileKind};
use super::cards::{Card, Color, InlineCards};
use super::error::SetupError;
use super::rows::{Row, ROW_CAPACITY};
use super::scoring::{EndReason, Retirement};
use super::setup::Setup;
use super::{Variant, HAND_CAPACITY, HAND_SIZE};

/// Where a pawn stands: a space index, or Start.
pub type Position = u8;
/// Start (K4): every pawn begins here.
pub const START: Position = u8::MAX;
/// Pawns per player (K4): pawn 0 is the big one (K11), 1..4 the small ones.
pub const PAWNS: usize = 5;
pub const BIG_PAWN: u8 = 0;
/// Pile slot for Keltis Card's gray cards; the board games have five piles.
pub const PILES: usize = 6;
/// Where base-game wish stones (colourless) are counted in `wish_stones`.
pub const PLAIN_STONE: usize = 5;

/// What the game waits for. On the wire an object tagged by `type`, e.g. `{"type":"draw"}`,
/// `{"type":"final_play","left":3}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Phase {
    /// Lay or discard a card (K6a, C7), or take a wish stone (C8).
    Play,
    /// An optional free step (K13): `step` or `skip`.
    FreeStep,
    /// The "discard a card" tile (X6): `discard_from_hand`, `discard_from_row` or `skip`.
    DiscardTile,
    /// Draw back to 8 cards, one decision per card (K6c, C7).
    Draw,
    /// Keltis Card's final phase (C9): lay, discard or pass; `left` plays remain in all.
    FinalPlay { left: u8 },
    /// The game has ended.
    Over,
}

impl Phase {
    /// The wire name (`type` tag), for messages.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Play => "play",
            Phase::FreeStep => "free_step",
            Phase::DiscardTile => "discard_tile",
            Phase::Draw => "draw",
            Phase::FinalPlay { .. } => "final_play",
            Phase::Over => "over",
        }
    }
}

/// The version of the snapshot format and the rules together: a stored snapshot whose tag differs
/// is thrown away and the state rebuilt from the game's decisions.
// + 4: the cards known to be in each hand (`known_in_hand`), which older snapshots lack.
pub const ENGINE_VERSION: i32 = super::RULESET_VERSION as i32 * 1000 + 4;

/// The whole state of a game, hidden parts included. Serialises as a snapshot (hidden parts
/// included: never send it to a client).
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub(super) variant: Variant,
    pub(super) players: u8,
    /// Re-attached from `variant` when a snapshot is read.
    #[serde(skip)]
    pub(super) board: Option<Arc<Board>>,

    /// Each seat's hand, kept sorted.
    pub(super) hands: Vec<InlineCards<HAND_CAPACITY>>,
    /// Cards each seat drew from a discard pile and has not played since, kept sorted: everyone
    /// saw them drawn (K8), so everyone knows they are in that hand. (Empty in snapshots written
    /// before it was kept: known then as unknown.)
    #[serde(default)]
    pub(super) known_in_hand: Vec<InlineCards<HAND_CAPACITY>>,
    /// The draw pile; the last card is the top.
    pub(super) draw_pile: Vec<Card>,
    pub(super) removed: Vec<Card>,
    /// Discard piles by colour index (gray only in Keltis Card); the last card is the top.
    pub(super) piles: [InlineCards<ROW_CAPACITY>; PILES],
    /// Each seat's rows (paths) by colour index.
    pub(super) rows: Vec<[Row; PILES]>,

    /// Board games: each seat's pawns.
    pub(super) pawns: Vec<[Position; PAWNS]>,
    /// Board games: the tile on each space, if any is still there.
    pub(super) tiles: Vec<Option<TileKind>>,
    /// Board games: wish stones left on each space (pile spaces, X2).
    pub(super) pile_stones: Vec<u8>,
    /// Board games: wish stones held, by colour index; base-game stones at `PLAIN_STONE`.
    pub(super) wish_stones: Vec<[u8; PILES]>,
    /// Board games: points scored at once from tiles (the score track, B5/X6).
    pub(super) tile_points: Vec<u16>,
    /// Board games: pawns in the goal zone, all players together (K9).
    pub(super) goal_pawns: u8,

    /// Keltis Card: who took wish stone v (index v - 1), C8.
    pub(super) stones: [Option<u8>; 9],

    /// The seat whose turn it is.
    pub(super) turn_player: u8,
    /// The seat that must decide now (differs from `turn_player` only in C9's final phase).
    pub(super) to_act: u8,
    pub(super) phase: Phase,
    /// K7: piles whose top card was discarded during this turn.
    pub(super) discarded_this_turn: [bool; PILES],
    pub(super) end: Option<EndReason>,
    /// Seats that resigned or timed out: played on, they cannot win and rank last.
    pub(super) retired: Vec<Option<Retirement>>,
}

/// Written out so that `clone_from` reuses the target's buffers: the bots copy a game into
/// scratch space thousands of times a decision, and allocating each time was most of their cost.
/// The destructuring names every field, so a new one cannot be forgotten here.
impl Clone for Game {
    fn clone(&self) -> Game {
        let Game {
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
            turn_player,
            to_act,
            phase,
            discarded_this_turn,
            end,
            retired,
        } = self;
        Game {
            variant: *variant,
            players: *players,
            board: board.clone(),
            hands: hands.clone(),
            known_in_hand: known_in_hand.clone(),
            draw_pile: draw_pile.clone(),
            removed: removed.clone(),
            piles: *piles,
            rows: rows.clone(),
            pawns: pawns.clone(),
            tiles: tiles.clone(),
            pile_stones: pile_stones.clone(),
            wish_stones: wish_stones.clone(),
            tile_points: tile_points.clone(),
            goal_pawns: *goal_pawns,
            stones: *stones,
            turn_player: *turn_player,
            to_act: *to_act,
            phase: *phase,
            discarded_this_turn: *discarded_this_turn,
            end: *end,
            retired: retired.clone(),
        }
    }

    fn clone_from(&mut self, source: &Game) {
        let Game {
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
            turn_player,
            to_act,
            phase,
            discarded_this_turn,
            end,
            retired,
        } = source;
        self.variant.clone_from(variant);
        self.players.clone_from(players);
        // The same layout nearly always: no reference count moved back and forth.
        if self.board.as_ref().map(Arc::as_ptr) != board.as_ref().map(Arc::as_ptr) {
            self.board.clone_from(board);
        }
        self.hands.clone_from(hands);
        self.known_in_hand.clone_from(known_in_hand);
        self.draw_pile.clone_from(draw_pile);
        self.removed.clone_from(removed);
        self.piles = *piles; // Whole: an inline vector's own `clone_from` goes card by card.
        self.rows.clone_from(rows);
        self.pawns.clone_from(pawns);
        self.tiles.clone_from(tiles);
        self.pile_stones.clone_from(pile_stones);
        self.wish_stones.clone_from(wish_stones);
        self.tile_points.clone_from(tile_points);
        self.goal_pawns.clone_from(goal_pawns);
        self.stones.clone_from(stones);
        self.turn_player.clone_from(turn_player);
        self.to_act.clone_from(to_act);
        self.phase.clone_from(phase);
        self.discarded_this_turn.clone_from(discarded_this_turn);
        self.end.clone_from(end);
        self.retired.clone_from(retired);
    }
}

impl Game {
    /// Whether and how `seat` left the game.
    pub fn retired(&self, seat: u8) -> Option<Retirement> {
        self.retired.get(seat as usize).copied().flatten()
    }
}

impl Game {
    /// A new game dealt from a seed.
    pub fn new(variant: Variant, players: u8, seed: u64) -> Result<Game, SetupError> {
        Game::from_setup(&Setup::deal(variant, players, seed)?)
    }

    /// A game from a recorded setup.
    pub fn from_setup(setup: &Setup) -> Result<Game, SetupError> {
        let variant = setup.variant;
        let players = setup.players;
        if !variant.player_counts().contains(&players) {
            return Err(SetupError::PlayerCount { variant, players });
        }
        let inconsistent = |why: &str| Err(SetupError::Inconsistent(why.into()));
        if setup.hands.len() != players as usize || setup.hands.iter().any(|h| h.len() != HAND_SIZE)
        {
            return inconsistent("every seat starts with 8 cards");
        }
        if setup.start_player >= players {
            return inconsistent("start player is not a seat");
        }
        let mut all: Vec<Card> = setup
            .draw_pile
            .iter()
            .chain(&setup.removed)
            .chain(setup.hands.iter().flatten())
            .copied()
            .collect();
        all.sort();
        let mut deck = match variant {
            Variant::KeltisCard => super::cards::card_game_deck(),
            _ => super::cards::board_game_deck(),
        };
        deck.sort();
        if all != deck {
            return inconsistent("the cards are not the variant's deck");
        }
        if setup.draw_pile.is_empty() {
            return inconsistent("the draw pile is empty");
        }

        let board = variant.board();
        let spaces = board.as_ref().map_or(0, |b| b.spaces.len());
        let mut tiles = vec![None; spaces];
        let mut pile_stones = vec![0; spaces];
        if let Some(b) = &board {
            let mut expected = b.tile_list();
            let mut placed = Vec::new();
            for t in &setup.tiles {
                let Some(idx) = b.index_of(&t.space) else {
                    return inconsistent("a tile is on an unknown space");
                };
                if b.space(idx).slot != super::board::Slot::Tile || tiles[idx as usize].is_some() {
                    return inconsistent("a tile is not on a free tile slot");
                }
                tiles[idx as usize] = Some(t.tile);
                placed.push(t.tile);
            }
            expected.sort();
            placed.sort();
            if expected != placed {
                return inconsistent("the tiles are not the layout's tiles");
            }
            for (i, s) in b.spaces.iter().enumerate() {
                if let super::board::Slot::Pile(_) = s.slot {
                    pile_stones[i] = b.pile_stones;
                }
            }
        } else if !setup.tiles.is_empty() {
            return inconsistent("Keltis Card has no tiles");
        }

        let seats = players as usize;
        Ok(Game {
            variant,
            players,
            board,
            hands: setup
                .hands
                .iter()
                .map(|h| {
                    // HAND_SIZE cards each, checked above.
                    let mut h: InlineCards<HAND_CAPACITY> = h.iter().copied().collect();
                    h.sort();
                    h
                })
                .collect(),
            known_in_hand: vec![InlineCards::default(); seats],
            draw_pile: setup.draw_pile.iter().rev().copied().collect(),
            removed: setup.removed.clone(),
            piles: Default::default(),
            rows: vec![Default::default(); seats],
            pawns: vec![[START; PAWNS]; seats],
            tiles,
            pile_stones,
            wish_stones: vec![[0; PILES]; seats],
            tile_points: vec![0; seats],
            goal_pawns: 0,
            stones: [None; 9],
            turn_player: setup.start_player,
            to_act: setup.start_player,
            phase: Phase::Play,
            discarded_this_turn: [false; PILES],
            end: None,
            retired: vec![None; players as usize],
        })
    }

    /// The state as JSON, for storage next to the event that produced it.
    pub fn to_snapshot(&self) -> String {
        // A derived Serialize of plain data into a String cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A state from [`Game::to_snapshot`] of the same [`ENGINE_VERSION`].
    pub fn from_snapshot(json: &str) -> Result<Game, serde_json::Error> {
        let mut game: Game = serde_json::from_str(json)?;
        game.board = game.variant.board();
        Ok(game)
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn players(&self) -> u8 {
        self.players
    }

    pub fn board(&self) -> Option<&Board> {
        self.board.as_deref()
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat that must decide now; `None` once the game is over.
    pub fn to_act(&self) -> Option<u8> {
        (self.phase != Phase::Over).then_some(self.to_act)
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    pub fn end_reason(&self) -> Option<EndReason> {
        self.end
    }

    pub fn hand(&self, seat: u8) -> &[Card] {
        &self.hands[seat as usize]
    }

    /// The top card of the draw pile. Hidden information: for the server's own records (the
    /// card a seat drew), never for a view.
    pub fn draw_pile_top(&self) -> Option<Card> {
        self.draw_pile.last().copied()
    }

    pub fn draw_pile_len(&self) -> usize {
        self.draw_pile.len()
    }

    pub fn pile(&self, color: Color) -> &[Card] {
        &self.piles[color.index()]
    }

    pub fn row(&self, seat: u8, color: Color) -> &Row {
        &self.rows[seat as usize][color.index()]
    }

    pub fn pawns(&self, seat: u8) -> &[Position; PAWNS] {
        &self.pawns[seat as usize]
    }

    pub fn goal_pawns(&self) -> u8 {
        self.goal_pawns
    }

    pub fn tile_at(&self, space: SpaceIdx) -> Option<TileKind> {
        self.tiles.get(space as usize).copied().flatten()
    }

    pub fn wish_stones(&self, seat: u8) -> &[u8; PILES] {
        &self.wish_stones[seat as usize]
    }

    pub fn tile_points(&self, seat: u8) -> u16 {
        self.tile_points[seat as usize]
    }

    pub fn stone_owner(&self, value: u8) -> Option<u8> {
        self.stones[value as usize - 1]
    }

    /// Every card in the game, wherever it is (hands, draw pile, removed, piles, rows).
    pub fn all_cards(&self) -> Vec<Card> {
        let mut all: Vec<Card> = self
            .hands
            .iter()
            .flatten()
            .chain(&self.draw_pile)
            .chain(&self.removed)
            .chain(self.piles.iter().flatten())
            .copied()
            .collect();
        for rows in &self.rows {
            for row in rows {
                all.extend_from_slice(row.cards());
            }
        }
        all
    }

    // Helpers shared by the rule modules.

    pub(super) fn hand_has(&self, seat: u8, card: Card) -> bool {
        self.hands[seat as usize].binary_search(&card).is_ok()
    }

    pub(super) fn take_from_hand(&mut self, seat: u8, card: Card) {
        let hand = &mut self.hands[seat as usize];
        if let Ok(i) = hand.binary_search(&card) {
            hand.remove(i);
        }
        // A copy of a known card played: one fewer is known to be left (the one played may have
        // been the unseen copy, but nobody can tell).
        if let Some(known) = self.known_in_hand.get_mut(seat as usize) {
            if let Ok(i) = known.binary_search(&card) {
                known.remove(i);
            }
        }
    }

    /// `card`, drawn from a discard pile in sight of everyone, is known to be in `seat`'s hand.
    pub(super) fn known_drawn(&mut self, seat: u8, card: Card) {
        let seats = self.players as usize;
        if self.known_in_hand.len() < seats {
            self.known_in_hand.resize(seats, InlineCards::default());
        }
        let known = &mut self.known_in_hand[seat as usize];
        let i = known.binary_search(&card).unwrap_or_else(|i| i);
        known.insert(i, card);
    }

    /// The cards known to be in `seat`'s hand: drawn from a discard pile, not played since.
    pub fn known_in_hand(&self, seat: u8) -> &[Card] {
        self.known_in_hand
            .get(seat as usize)
            .map_or(&[], |known| known.as_slice())
    }

    pub(super) fn put_in_hand(&mut self, seat: u8, card: Card) {
        let hand = &mut self.hands[seat as usize];
        let i = hand.binary_search(&card).unwrap_or_else(|i| i);
        hand.insert(i, card);
    }

    /// Put a card on its colour's discard pile; K7 forbids drawing it back this turn.
    pub(super) fn discard_to_pile(&mut self, card: Card) {
        let pile = card.color().index();
        self.piles[pile].push(card);
        self.discarded_this_turn[pile] = true;
    }
}
