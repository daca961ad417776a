//! Final scores and winners: B8, X8, C10, K10, K11.

use serde::{Deserialize, Serialize};

use super::cards::Color;
use super::game::{Game, BIG_PAWN, PLAIN_STONE, START};
use super::Variant;

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum EndReason {
    /// K9a: a fifth pawn entered the goal zone.
    GoalZoneFull,
    /// K9b / C9: the last card of the draw pile was drawn.
    DrawPileExhausted,
    /// C9: five of the ten colour paths were terminated.
    PathsTerminated,
    /// A seat resigned and fewer than two players were left in the game.
    Resigned { seat: u8 },
    /// A seat's time ran out and fewer than two players were left in the game.
    TimedOut { seat: u8 },
}

/// How a seat left the game before its end. It is played on (by a bot at the server), cannot
/// win, and ranks below every seat still in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Retirement {
    Resigned,
    TimedOut,
}

/// One seat's final score, by part. Parts a variant does not have are 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Score {
    pub seat: u8,
    pub total: i32,
    /// Board games: pawn positions, big pawn doubled (B8, K11).
    pub pawns: i32,
    /// Board games: points tiles scored during play (B5, X6).
    pub tile_points: i32,
    /// Wish stones (B8, X8, C10).
    pub wish_stones: i32,
    /// Keltis Card: the colour paths by length (C10).
    pub paths: i32,
    /// Keltis Card: the gray path, 1 per card (C10).
    pub gray_path: i32,
    /// Whether and how the seat left the game before its end.
    #[serde(default)]
    #[schema(required = true)]
    pub retired: Option<Retirement>,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct GameResult {
    pub end_reason: EndReason,
    pub scores: Vec<Score>,
    /// Seats with the highest total (K10: equal totals share the win); a seat that resigned
    /// or timed out cannot win.
    pub winners: Vec<u8>,
    /// Every seat, best first: by total among the seats still in the game, then the seats that
    /// left it, by total (equal totals: lower seat first).
    #[serde(default)]
    pub ranking: Vec<u8>,
    /// Every player shares the highest total (C10: "a draw").
    pub draw: bool,
}

/// B8: base-game wish stones by count.
pub fn b8_wish_stones(count: u8) -> i32 {
    match count {
        0 => -4,
        1 => -3,
        2 => 2,
        3 => 3,
        4 => 6,
        _ => 10,
    }
}

/// X8: expansion wish stones by number of different colours, plus 10 for each colour held three
/// or more times.
pub fn x8_wish_stones(by_color: &[u8]) -> i32 {
    let colours = by_color.iter().filter(|n| **n > 0).count();
    let variety = match colours {
        0 => -4,
        1 => -3,
        2 => -2,
        3 => 3,
        4 => 6,
        _ => 10,
    };
    let triples = by_color.iter().filter(|n| **n >= 3).count() as i32;
    variety + 10 * triples
}

/// C10: a colour path by its number of cards.
pub fn c10_path(cards: usize) -> i32 {
    match cards {
        0 => 0,
        1 => -4,
        2 => -3,
        3 => -2,
        4 => 1,
        5 => 2,
        6 => 3,
        7 => 6,
        8 => 7,
        _ => 10,
    }
}

/// C10: wish stones by count.
pub fn c10_stones(count: usize) -> i32 {
    match count {
        0 => -4,
        1 => -1,
        2 => 0,
        3 => 4,
        4 => 6,
        _ => 10,
    }
}

impl Game {
    /// A seat's score as things stand (final once the game is over).
    pub fn score(&self, seat: u8) -> Score {
        let s = seat as usize;
        let mut score = Score {
            seat,
            total: 0,
            pawns: 0,
            tile_points: 0,
            wish_stones: 0,
            paths: 0,
            gray_path: 0,
            retired: self.retired[s],
        };
        match (self.variant, &self.board) {
            (Variant::KeltisCard, _) | (_, None) => {
                let rows = &self.rows[s];
                score.paths = Color::PATHS
                    .iter()
                    .map(|c| c10_path(rows[c.index()].len()))
                    .sum();
                score.gray_path = rows[Color::Gray.index()].len() as i32;
                let stones = self.stones.iter().filter(|o| **o == Some(seat)).count();
                score.wish_stones = c10_stones(stones);
            }
            (variant, Some(board)) => {
                for (p, &pos) in self.pawns[s].iter().enumerate() {
                    if pos != START {
                        let value = board.space(pos).value as i32;
                        score.pawns += if p as u8 == BIG_PAWN {
                            2 * value
                        } else {
                            value
                        };
                    }
                }
                score.tile_points = self.tile_points[s] as i32;
                score.wish_stones = if variant == Variant::Keltis {
                    b8_wish_stones(self.wish_stones[s][PLAIN_STONE])
                } else {
                    x8_wish_stones(&self.wish_stones[s][..5])
                };
            }
        }
        score.total =
            score.pawns + score.tile_points + score.wish_stones + score.paths + score.gray_path;
        score
    }

    /// Final scores and winners, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        if !self.is_over() {
            return None;
        }
        let end_reason = self.end?;
        let scores: Vec<Score> = (0..self.players).map(|s| self.score(s)).collect();
        let out = |seat: u8| self.retired[seat as usize].is_some();
        let eligible = || scores.iter().filter(|s| !out(s.seat));
        let best = eligible().map(|s| s.total).max()?;
        let winners: Vec<u8> = eligible()
            .filter(|s| s.total == best)
            .map(|s| s.seat)
            .collect();
        let mut ranking: Vec<u8> = (0..self.players).collect();
        ranking.sort_by_key(|&seat| (out(seat), -scores[seat as usize].total, seat));
        let draw = winners.len() > 1 && winners.len() == self.players as usize;
        Some(GameResult {
            end_reason,
            scores,
            winners,
            ranking,
            draw,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b8_wish_stone_table() {
        let table: Vec<i32> = (0..=6).map(b8_wish_stones).collect();
        assert_eq!(table, vec![-4, -3, 2, 3, 6, 10, 10]);
    }

    #[test]
    fn x8_wish_stones_by_colours_plus_ten_per_triple() {
        assert_eq!(x8_wish_stones(&[0, 0, 0, 0, 0]), -4);
        assert_eq!(x8_wish_stones(&[2, 0, 0, 0, 0]), -3);
        assert_eq!(x8_wish_stones(&[1, 1, 0, 0, 0]), -2);
        assert_eq!(x8_wish_stones(&[1, 1, 1, 0, 0]), 3);
        assert_eq!(x8_wish_stones(&[1, 1, 1, 1, 0]), 6);
        assert_eq!(x8_wish_stones(&[1, 1, 1, 1, 1]), 10);
        // The rulebook's example: four colours (6) and three blue (+10).
        assert_eq!(x8_wish_stones(&[1, 1, 0, 3, 1]), 16);
        // Decision: one bonus per colour, however many of it.
        assert_eq!(x8_wish_stones(&[6, 0, 0, 0, 0]), -3 + 10);
        assert_eq!(x8_wish_stones(&[3, 3, 0, 0, 0]), -2 + 20);
    }

    #[test]
    fn c10_tables() {
        let paths: Vec<i32> = (0..=10).map(c10_path).collect();
        assert_eq!(paths, vec![0, -4, -3, -2, 1, 2, 3, 6, 7, 10, 10]);
        let stones: Vec<i32> = (0..=6).map(c10_stones).collect();
        assert_eq!(stones, vec![-4, -1, 0, 4, 6, 10, 10]);
    }
}
