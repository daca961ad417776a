//! Colours and cards (K1 for the board games, C1 for Keltis Card).

use serde::{Deserialize, Serialize};

/// A card colour. The board games use the first five; Keltis Card adds `gray` point cards.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Green,
    Yellow,
    Brown,
    Blue,
    Pink,
    Gray,
}

impl Color {
    /// The five colours of the paths and rows (every variant).
    pub const PATHS: [Color; 5] = [
        Color::Green,
        Color::Yellow,
        Color::Brown,
        Color::Blue,
        Color::Pink,
    ];
    /// All six, in pile order (Keltis Card has a gray pile).
    pub const ALL: [Color; 6] = [
        Color::Green,
        Color::Yellow,
        Color::Brown,
        Color::Blue,
        Color::Pink,
        Color::Gray,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Color {
        Color::ALL[i]
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::Green => "green",
            Color::Yellow => "yellow",
            Color::Brown => "brown",
            Color::Blue => "blue",
            Color::Pink => "pink",
            Color::Gray => "gray",
        }
    }

    pub fn parse(s: &str) -> Option<Color> {
        Color::ALL.into_iter().find(|c| c.name() == s)
    }
}

/// Rank of an end card (C5): it has a colour but no value.
const END_RANK: u8 = 11;
const RANKS: u8 = 12;

/// One card, packed into a byte: colour x 12 + rank (0..=10 numbers, 11 the end card).
///
/// Duplicates (two green 5s) are the same `Card`: nothing in the rules tells them apart.
/// JSON: `{"color":"green","value":5}`, an end card `{"color":"green","end":true}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "CardJson", try_from = "CardJson")]
pub struct Card(u8);

/// At most `N` cards, held inline, not on the heap: a game's hands, discard piles and rows, which
/// the bots and the review copy thousands of times a decision (one copy of the whole, not a
/// dozen separate ones).
pub type InlineCards<const N: usize> = tinyvec::ArrayVec<[Card; N]>;

/// Green 0: only what fills the unused places of inline storage ([`InlineCards`]).
impl Default for Card {
    fn default() -> Card {
        Card(0)
    }
}

impl Card {
    pub fn number(color: Color, value: u8) -> Card {
        debug_assert!(value <= 10);
        Card(color as u8 * RANKS + value)
    }

    pub fn end(color: Color) -> Card {
        Card(color as u8 * RANKS + END_RANK)
    }

    pub fn color(self) -> Color {
        Color::from_index((self.0 / RANKS) as usize)
    }

    /// The printed value; `None` for an end card.
    pub fn value(self) -> Option<u8> {
        let rank = self.0 % RANKS;
        (rank != END_RANK).then_some(rank)
    }

    pub fn is_end(self) -> bool {
        self.0 % RANKS == END_RANK
    }

    pub fn code(self) -> u8 {
        self.0
    }
}

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.value() {
            Some(v) => write!(f, "{} {}", self.color().name(), v),
            None => write!(f, "{} end", self.color().name()),
        }
    }
}

/// A card: a number card has a `value` (0..10; `gray` point cards too); an end card (Keltis
/// Card) has `"end": true` and no value.
#[derive(Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = Card, example = json!({"color": "blue", "value": 7}))]
struct CardJson {
    color: Color,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 10)]
    value: Option<u8>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    end: bool,
}

impl utoipa::PartialSchema for Card {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        <CardJson as utoipa::PartialSchema>::schema()
    }
}

impl utoipa::ToSchema for Card {
    fn name() -> std::borrow::Cow<'static, str> {
        "Card".into()
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        <CardJson as utoipa::ToSchema>::schemas(schemas);
    }
}

impl From<Card> for CardJson {
    fn from(card: Card) -> Self {
        CardJson {
            color: card.color(),
            value: card.value(),
            end: card.is_end(),
        }
    }
}

impl TryFrom<CardJson> for Card {
    type Error = String;

    fn try_from(json: CardJson) -> Result<Self, Self::Error> {
        match (json.value, json.end) {
            (Some(v), false) if v <= 10 => Ok(Card::number(json.color, v)),
            (Some(v), false) => Err(format!("card value {v} is not in 0..=10")),
            (None, true) if json.color != Color::Gray => Ok(Card::end(json.color)),
            (None, true) => Err("there is no gray end card".into()),
            (Some(_), true) => Err("an end card has no value".into()),
            (None, false) => Err("a card needs a value or \"end\": true".into()),
        }
    }
}

/// K1: 110 cards, each of the five colours with values 0..10 twice, in a fixed order.
pub fn board_game_deck() -> Vec<Card> {
    let mut deck = Vec::with_capacity(110);
    for color in Color::PATHS {
        for value in 0..=10 {
            deck.push(Card::number(color, value));
            deck.push(Card::number(color, value));
        }
    }
    deck
}

/// C1: 101 cards: per colour one each of 0, 1, 2, 8, 9, 10, two each of 3..7 and two end cards;
/// plus 11 gray point cards 0..10. In a fixed order.
pub fn card_game_deck() -> Vec<Card> {
    let mut deck = Vec::with_capacity(101);
    for color in Color::PATHS {
        for value in 0..=10 {
            let copies = if (3..=7).contains(&value) { 2 } else { 1 };
            for _ in 0..copies {
                deck.push(Card::number(color, value));
            }
        }
        deck.push(Card::end(color));
        deck.push(Card::end(color));
    }
    for value in 0..=10 {
        deck.push(Card::number(Color::Gray, value));
    }
    deck
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k1_board_game_deck_has_110_cards_each_value_twice_per_colour() {
        let deck = board_game_deck();
        assert_eq!(deck.len(), 110);
        for color in Color::PATHS {
            for value in 0..=10 {
                let n = deck
                    .iter()
                    .filter(|c| **c == Card::number(color, value))
                    .count();
                assert_eq!(n, 2, "{color:?} {value}");
            }
        }
        assert!(deck.iter().all(|c| c.color() != Color::Gray && !c.is_end()));
    }

    #[test]
    fn c1_card_game_deck_has_101_cards() {
        let deck = card_game_deck();
        assert_eq!(deck.len(), 101);
        let count = |card: Card| deck.iter().filter(|c| **c == card).count();
        for color in Color::PATHS {
            for v in [0, 1, 2, 8, 9, 10] {
                assert_eq!(count(Card::number(color, v)), 1);
            }
            for v in 3..=7 {
                assert_eq!(count(Card::number(color, v)), 2);
            }
            assert_eq!(count(Card::end(color)), 2);
        }
        for v in 0..=10 {
            assert_eq!(count(Card::number(Color::Gray, v)), 1);
        }
    }

    #[test]
    fn card_json_shape_round_trips_and_rejects_nonsense() {
        let c = Card::number(Color::Pink, 7);
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(json, r#"{"color":"pink","value":7}"#);
        assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), c);
        let e = Card::end(Color::Blue);
        let json = serde_json::to_string(&e).unwrap();
        assert_eq!(json, r#"{"color":"blue","end":true}"#);
        assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), e);
        for bad in [
            r#"{"color":"pink","value":11}"#,
            r#"{"color":"pink"}"#,
            r#"{"color":"gray","end":true}"#,
            r#"{"color":"red","value":1}"#,
            r#"{"color":"pink","value":1,"end":true}"#,
        ] {
            assert!(serde_json::from_str::<Card>(bad).is_err(), "{bad}");
        }
    }
}
