//! K5: a player's row of cards of one colour (and C3/C4/C5, the paths of Keltis Card).

use serde::{Deserialize, Serialize};

use super::cards::{Card, InlineCards};

/// The direction a row has taken (K5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Every card so far equals the first: any value may follow.
    Open,
    Ascending,
    Descending,
}

impl Direction {
    /// The wire name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Open => "open",
            Direction::Ascending => "ascending",
            Direction::Descending => "descending",
        }
    }
}

/// A row of laid cards. The direction is fixed by the first card that differs from the first
/// card of the row (K5); equal values are always allowed.
///
/// Held inline, not on the heap: the bots and the review copy games thousands of times a
/// decision, and a game's rows were ten or more separate copies each time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Row {
    cards: InlineCards<ROW_CAPACITY>,
}

/// The most cards a row, or a discard pile, can hold: every card of one colour (K1: two of each
/// value, 0 to 10).
pub const ROW_CAPACITY: usize = 22;

impl Row {
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    pub fn last(&self) -> Option<Card> {
        self.cards.last().copied()
    }

    /// Values of the cards that carry one (end cards have none).
    fn values(&self) -> impl Iterator<Item = u8> + '_ {
        self.cards.iter().filter_map(|c| c.value())
    }

    pub fn direction(&self) -> Direction {
        let mut values = self.values();
        let Some(first) = values.next() else {
            return Direction::Open;
        };
        match values.find(|v| *v != first) {
            None => Direction::Open,
            Some(v) if v > first => Direction::Ascending,
            Some(_) => Direction::Descending,
        }
    }

    /// K5: may a card of this value be laid next?
    pub fn accepts_value(&self, value: u8) -> bool {
        // From the top down: this runs for every card of a hand at every step of the bots'
        // and the review's play-outs.
        let Some(last) = self.cards.iter().rev().find_map(|c| c.value()) else {
            return true;
        };
        match self.direction() {
            Direction::Open => true,
            Direction::Ascending => value >= last,
            Direction::Descending => value <= last,
        }
    }

    /// C5: the number of end cards on this path (a path with one is terminated).
    pub fn end_cards(&self) -> usize {
        self.cards.iter().filter(|c| c.is_end()).count()
    }

    /// Never past [`ROW_CAPACITY`]: only the cards of one colour are laid in a row.
    pub fn push(&mut self, card: Card) {
        self.cards.push(card);
    }

    /// X6: the last card leaves the row; the direction is recomputed from what remains.
    pub fn pop(&mut self) -> Option<Card> {
        self.cards.pop()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cards::Color;

    fn row(values: &[u8]) -> Row {
        let mut r = Row::default();
        for v in values {
            r.push(Card::number(Color::Green, *v));
        }
        r
    }

    #[test]
    fn k5_equal_first_cards_leave_the_row_open() {
        let r = row(&[3, 3]);
        assert_eq!(r.direction(), Direction::Open);
        for v in 0..=10 {
            assert!(r.accepts_value(v), "3,3 allows {v}");
        }
    }

    #[test]
    fn k5_first_differing_card_fixes_ascending() {
        let r = row(&[3, 6]);
        assert_eq!(r.direction(), Direction::Ascending);
        assert!(!r.accepts_value(5));
        assert!(r.accepts_value(6), "equal values are always allowed");
        assert!(r.accepts_value(10));
    }

    #[test]
    fn k5_first_differing_card_fixes_descending() {
        let r = row(&[9, 8]);
        assert_eq!(r.direction(), Direction::Descending);
        assert!(r.accepts_value(8));
        assert!(r.accepts_value(0));
        assert!(!r.accepts_value(9));
    }

    #[test]
    fn k5_direction_is_fixed_against_the_first_card_not_the_last() {
        // 5,5,5 then 7: ascending; the row never turns.
        let r = row(&[5, 5, 7, 7]);
        assert_eq!(r.direction(), Direction::Ascending);
        assert!(!r.accepts_value(6));
    }

    #[test]
    fn x6_removing_the_last_card_recomputes_the_direction() {
        let mut r = row(&[4, 2]);
        assert_eq!(r.direction(), Direction::Descending);
        assert_eq!(r.pop(), Some(Card::number(Color::Green, 2)));
        assert_eq!(r.direction(), Direction::Open);
        assert!(r.accepts_value(9));
    }

    #[test]
    fn a_row_reads_and_writes_as_its_cards_and_no_more_than_a_colour_has_is_read() {
        let r = row(&[4, 2]);
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(json, serde_json::to_string(r.cards()).unwrap());
        assert_eq!(serde_json::from_str::<Row>(&json).unwrap(), r);
        let too_long =
            serde_json::to_string(&vec![Card::number(Color::Green, 5); ROW_CAPACITY + 1]);
        assert!(serde_json::from_str::<Row>(&too_long.unwrap()).is_err());
    }

    #[test]
    fn c5_end_cards_are_counted() {
        let mut r = row(&[1]);
        assert_eq!(r.end_cards(), 0);
        r.push(Card::end(Color::Green));
        assert_eq!(r.end_cards(), 1);
    }
}
