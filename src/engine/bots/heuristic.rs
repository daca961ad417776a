//! How good a position looks for a seat: the score it has, plus what its pawns, rows and hand
//! promise. Used by the greedy bot to rank decisions and by the search to judge a cut-off.

use crate::engine::board::{Board, MOST_AHEAD};
use crate::engine::cards::{Card, Color};
use crate::engine::game::{Game, BIG_PAWN, PILES, PLAIN_STONE, START};
use crate::engine::rows::{Direction, Row};
use crate::engine::scoring::{b8_wish_stones, c10_path, c10_stones, x8_wish_stones};
use crate::engine::Variant;

/// Room a row still has to grow, 0..10.
fn room(row: &Row) -> i32 {
    match (row.direction(), row.last().and_then(Card::value)) {
        (_, None) => 10,
        (Direction::Open, Some(_)) => 10,
        (Direction::Ascending, Some(v)) => 10 - v as i32,
        (Direction::Descending, Some(v)) => v as i32,
    }
}

/// A card that fits a row closely (gap of at most 2 in its direction).
pub fn fits_closely(row: &Row, card: Card) -> bool {
    CloseFit::of(row).takes(card)
}

/// What `fits_closely` needs of a row, read once: the position judges every card in hand
/// against every row, thousands of times per decision of the rollout bot.
struct CloseFit<'a> {
    row: &'a Row,
    /// The top card's value (None: empty, or an end card on top).
    top: Option<u8>,
}

impl<'a> CloseFit<'a> {
    fn of(row: &'a Row) -> CloseFit<'a> {
        CloseFit {
            row,
            top: row.last().and_then(Card::value),
        }
    }

    fn takes(&self, card: Card) -> bool {
        let Some(v) = card.value() else { return false };
        let near = match self.top {
            None => v <= 2 || v >= 8,
            Some(top) => v.abs_diff(top) <= 2,
        };
        // The row's direction last: most cards are not near.
        near && self.row.accepts_value(v)
    }
}

/// Cards in `hand` that fit each of the seat's rows closely, by colour index (gray: none).
fn close_fits(rows: &[Row; PILES], hand: &[Card]) -> [usize; PILES] {
    // One pass over the hand: this ran a third of a hybrid review's time as a pass per colour.
    let fit = Color::PATHS.map(|c| CloseFit::of(&rows[c.index()]));
    let mut fits = [0; PILES];
    for &card in hand {
        let i = card.color().index();
        if fit.get(i).is_some_and(|f| f.takes(card)) {
            fits[i] += 1;
        }
    }
    fits
}

/// The position's worth to `seat`, in points.
pub fn potential(game: &Game, seat: u8) -> f64 {
    worth(game, seat, &game.hands[seat as usize], Lookahead::Greedy)
}

/// As [`potential`], but the pawns valued a quarter of the seat's own turns left ahead (at most
/// three stones), whatever the number of players. The greedy bot's lookahead counts an eighth of
/// the turns of all seats together: with four players it is at most one stone after the first
/// turns, where a path's first stone is worth -3, and a greedy player starts hardly a path (a
/// mean of 3 points in four-player games between greedy bots, 15 with this lookahead; 21 and 25
/// with three players, 27 and 29 with two). The review's judge plays its play-outs by this one.
pub fn potential_by_own_turns(game: &Game, seat: u8) -> f64 {
    worth(game, seat, &game.hands[seat as usize], Lookahead::OwnTurns)
}

/// A seat's worth after each discard it may make from its hand, read without playing them: of
/// everything the worth reads, a discard in the play phase changes the hand alone (the card goes
/// to a pile, the turn on to its draw). Greedy tries every discard at every step of a play-out,
/// and they were half of its tries. Read once for all of a position's discards: in the board
/// games the hand counts only by its cards that fit a row closely, so the rest is summed once.
pub struct AfterDiscards<'a> {
    game: &'a Game,
    seat: u8,
    lookahead: Lookahead,
    /// Board games: the worth but the hand's part, and how many cards in hand fit closely.
    board: Option<(f64, usize)>,
}

impl AfterDiscards<'_> {
    fn of(game: &Game, seat: u8, lookahead: Lookahead) -> AfterDiscards<'_> {
        let board = match &game.board {
            Some(board) if !game.is_over() => {
                let fits = close_fits(&game.rows[seat as usize], &game.hands[seat as usize]);
                let rest = board_worth(game, seat, board, lookahead);
                Some((rest, fits.iter().sum()))
            }
            _ => None,
        };
        AfterDiscards {
            game,
            seat,
            lookahead,
            board,
        }
    }

    /// The worth once `card` is discarded: to the bit what playing the discard would give.
    pub fn worth(&self, card: Card) -> f64 {
        let (game, seat) = (self.game, self.seat);
        match self.board {
            Some((rest, fitting)) => {
                let row = &game.rows[seat as usize][card.color().index()];
                let fitted = card.color() != Color::Gray
                    && fits_closely(row, card)
                    && game.hand(seat).contains(&card);
                rest + 0.3 * (fitting - usize::from(fitted)) as f64
            }
            None => {
                let mut hand = game.hands[seat as usize];
                if let Some(i) = hand.iter().position(|&c| c == card) {
                    hand.remove(i);
                }
                worth(game, seat, &hand, self.lookahead)
            }
        }
    }
}

/// [`potential`] after each discard `seat` may make ([`AfterDiscards`]).
pub fn potential_after_discards(game: &Game, seat: u8) -> AfterDiscards<'_> {
    AfterDiscards::of(game, seat, Lookahead::Greedy)
}

/// [`potential_by_own_turns`] after each discard `seat` may make ([`AfterDiscards`]).
pub fn potential_by_own_turns_after_discards(game: &Game, seat: u8) -> AfterDiscards<'_> {
    AfterDiscards::of(game, seat, Lookahead::OwnTurns)
}

/// How far ahead of where they stand pawns are valued (see [`potential_by_own_turns`]).
#[derive(Clone, Copy)]
enum Lookahead {
    Greedy,
    OwnTurns,
}

/// The worth of `game` to `seat`, holding `hand`.
fn worth(game: &Game, seat: u8, hand: &[Card], lookahead: Lookahead) -> f64 {
    if game.is_over() {
        return game.score(seat).total as f64;
    }
    let fits = close_fits(&game.rows[seat as usize], hand);
    let rest = match &game.board {
        Some(board) => board_worth(game, seat, board, lookahead),
        None => card_game_worth(game, seat, &fits),
    };
    // Cards in hand that fit a row closely are future steps.
    let fitting: usize = fits.iter().sum();
    rest + 0.3 * fitting as f64
}

/// A board game's worth to `seat` but what its hand promises.
fn board_worth(game: &Game, seat: u8, board: &Board, lookahead: Lookahead) -> f64 {
    let s = seat as usize;
    let mut worth = 0.0;
    // Pawns are valued a few rows ahead of where they stand: what is to come matters more than
    // where they are, less so as the draw pile runs out.
    let players = (game.players as usize).max(1);
    let ahead = match lookahead {
        Lookahead::Greedy => game.draw_pile.len() / (8 * players),
        Lookahead::OwnTurns => game.draw_pile.len() / players / 4,
    }
    .min(MOST_AHEAD);
    for (p, &pos) in game.pawns[s].iter().enumerate() {
        if pos == START {
            continue;
        }
        let value = board.value_ahead(pos, ahead) as f64;
        worth += if p as u8 == BIG_PAWN {
            2.0 * value
        } else {
            value
        };
    }
    worth += game.tile_points[s] as f64;
    worth += match game.variant {
        Variant::Keltis => b8_wish_stones(game.wish_stones[s][PLAIN_STONE]),
        _ => x8_wish_stones(&game.wish_stones[s][..5]),
    } as f64;
    for c in Color::PATHS {
        let row = &game.rows[s][c.index()];
        if !row.is_empty() {
            worth += 0.15 * room(row) as f64;
        }
    }
    worth
}

/// Keltis Card's worth to `seat` but its hand's close fits (`fits`, by colour) counted as steps.
fn card_game_worth(game: &Game, seat: u8, fits: &[usize; PILES]) -> f64 {
    let rows = &game.rows[seat as usize];
    let mut worth = 0.0;
    for c in Color::PATHS {
        let row = &rows[c.index()];
        let playable = if row.end_cards() == 0 {
            fits[c.index()]
        } else {
            0
        };
        let expected = if row.is_empty() {
            0
        } else {
            row.len() + playable.min(3)
        };
        worth += c10_path(expected) as f64;
        if row.end_cards() == 0 && !row.is_empty() {
            worth += 0.15 * room(row) as f64;
        }
    }
    worth += rows[Color::Gray.index()].len() as f64;
    let stones = game.stones.iter().filter(|o| **o == Some(seat)).count();
    worth += c10_stones(stones) as f64;
    worth
}

/// A pile whose top card closely fits one of `seat`'s started rows: worth drawing from.
pub fn pile_top_fits(game: &Game, seat: u8, color: Color) -> bool {
    game.pile(color).last().is_some_and(|&card| {
        let row = game.row(seat, card.color());
        !row.is_empty() && fits_closely(row, card)
    })
}

/// What a card put on a pile gives the next player: it fits one of their rows closely.
pub fn feeds_next_player(game: &Game, seat: u8, card: Card) -> bool {
    let next = ((seat + 1) % game.players) as usize;
    card.color() != Color::Gray && fits_closely(&game.rows[next][card.color().index()], card)
}
