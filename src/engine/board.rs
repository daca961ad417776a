//! Board layouts as data (B1, X1): the format of `boards/*.json`, its validation, and the two
//! layouts the project carries.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, OnceLock};

use serde::Deserialize;

use super::cards::Color;

/// Index of a space in `Board::spaces`.
pub type SpaceIdx = u8;

/// The most spaces one space (or Start) may lead to: a turn's pawn moves are listed in a
/// fixed-size buffer (`movement::PawnMoves`). Keltis's Start leads to 5, Neue Wege's to 4, and
/// every other space to at most 2.
pub const MOST_NEXT: usize = 5;

/// What a space holds at setup (B2, X2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Empty,
    /// A path tile is shuffled onto it.
    Tile,
    /// A pile of wish stones of this colour (X2).
    Pile(Color),
}

/// A path tile (B2, X2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TileKind {
    /// Score this many points at once (B5, X6).
    Points(u8),
    /// A free step (K13).
    Clover,
    /// A wish stone: colourless in the base game, coloured in the expansion.
    WishStone(Option<Color>),
    /// X6: discard a card from hand or from the end of a row.
    Discard,
}

impl TileKind {
    pub fn name(self) -> String {
        match self {
            TileKind::Points(n) => format!("points_{n}"),
            TileKind::Clover => "clover".into(),
            TileKind::WishStone(None) => "wish_stone".into(),
            TileKind::WishStone(Some(c)) => format!("wish_stone_{}", c.name()),
            TileKind::Discard => "discard".into(),
        }
    }

    pub fn parse(s: &str) -> Option<TileKind> {
        match s {
            "clover" => Some(TileKind::Clover),
            "wish_stone" => Some(TileKind::WishStone(None)),
            "discard" => Some(TileKind::Discard),
            _ => {
                if let Some(n) = s.strip_prefix("points_") {
                    let n: u8 = n.parse().ok()?;
                    (1..=9).contains(&n).then_some(TileKind::Points(n))
                } else {
                    let c = Color::parse(s.strip_prefix("wish_stone_")?)?;
                    (c != Color::Gray).then_some(TileKind::WishStone(Some(c)))
                }
            }
        }
    }
}

impl utoipa::PartialSchema for TileKind {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::String))
            .pattern(Some(
                "^(points_[1-9]|clover|wish_stone(_(green|yellow|brown|blue|pink))?|discard)$",
            ))
            .description(Some(
                "A path tile: points_N (score N at once), clover (a free step), wish_stone \
                 (base game) or wish_stone_<colour> (expansion), discard (expansion: discard a card)",
            ))
            .into()
    }
}

impl utoipa::ToSchema for TileKind {
    fn name() -> std::borrow::Cow<'static, str> {
        "TileKind".into()
    }
}

impl serde::Serialize for TileKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl<'de> Deserialize<'de> for TileKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        TileKind::parse(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown tile kind {name:?}")))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Space {
    pub id: String,
    /// 1-based row.
    pub row: u8,
    pub value: i8,
    /// `None` is a Joker space (X3).
    pub color: Option<Color>,
    pub is_final: bool,
    pub goal: bool,
    pub slot: Slot,
    pub next: Vec<SpaceIdx>,
}

/// A validated layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub id: String,
    pub spaces: Vec<Space>,
    pub start_next: Vec<SpaceIdx>,
    /// Tile kinds and counts, in a fixed order (the setup shuffles them).
    pub tiles: Vec<(TileKind, u8)>,
    /// Wish stones on each pile space at the start (X2).
    pub pile_stones: u8,
    /// By space: the value of the space reached 0 to [`MOST_AHEAD`] steps on, each step to the
    /// first successor (a space without one is the last). Derived from `spaces`: the bots value
    /// every pawn a few steps ahead at every step of every play-out, where walking the board
    /// chased a successor list a step (some 4% of a two-player Keltis review).
    value_ahead: Vec<[i8; MOST_AHEAD + 1]>,
}

/// How many steps ahead [`Board::value_ahead`] looks at most.
pub const MOST_AHEAD: usize = 3;

impl Board {
    pub fn space(&self, idx: SpaceIdx) -> &Space {
        &self.spaces[idx as usize]
    }

    /// The value of the space `steps` on from `idx` by first successors (at most
    /// [`MOST_AHEAD`]; fewer where the path ends first).
    pub fn value_ahead(&self, idx: SpaceIdx, steps: usize) -> i8 {
        self.value_ahead[idx as usize][steps.min(MOST_AHEAD)]
    }

    pub fn index_of(&self, id: &str) -> Option<SpaceIdx> {
        self.spaces
            .iter()
            .position(|s| s.id == id)
            .map(|i| i as SpaceIdx)
    }

    /// The spaces that take a shuffled tile, in board order.
    pub fn tile_slots(&self) -> impl Iterator<Item = SpaceIdx> + '_ {
        self.spaces
            .iter()
            .enumerate()
            .filter(|(_, s)| s.slot == Slot::Tile)
            .map(|(i, _)| i as SpaceIdx)
    }

    /// The tiles in their fixed order, one entry per tile.
    pub fn tile_list(&self) -> Vec<TileKind> {
        let mut list = Vec::new();
        for (kind, n) in &self.tiles {
            list.extend(std::iter::repeat_n(*kind, *n as usize));
        }
        list
    }

    /// Parse and validate a layout file.
    pub fn from_json(text: &str) -> Result<Board, LayoutError> {
        let file: LayoutFile =
            serde_json::from_str(text).map_err(|e| LayoutError::Json(e.to_string()))?;
        file.validate()
    }

    /// The base game's layout (B1), embedded in the binary.
    pub fn keltis() -> Arc<Board> {
        static BOARD: OnceLock<Arc<Board>> = OnceLock::new();
        BOARD
            .get_or_init(|| Arc::new(embedded(include_str!("boards/keltis-base.json"))))
            .clone()
    }

    /// The expansion's layout (X1), embedded in the binary.
    pub fn neue_wege() -> Arc<Board> {
        static BOARD: OnceLock<Arc<Board>> = OnceLock::new();
        BOARD
            .get_or_init(|| Arc::new(embedded(include_str!("boards/neue-wege.json"))))
            .clone()
    }
}

fn embedded(text: &str) -> Board {
    match Board::from_json(text) {
        Ok(board) => board,
        // The embedded files are checked by the tests below; this cannot happen in a build
        // whose tests pass.
        Err(e) => panic!("embedded board layout is invalid: {e}"),
    }
}

/// Why a layout file was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error("layout is not valid JSON for the format: {0}")]
    Json(String),
    #[error("layout has no spaces")]
    NoSpaces,
    #[error("layout has more than 250 spaces")]
    TooManySpaces,
    #[error("space id {0:?} appears twice")]
    DuplicateId(String),
    #[error("space {from:?} names an unknown successor {to:?}")]
    UnknownSpace { from: String, to: String },
    #[error("space {id:?} has colour {color:?}, which is neither a path colour nor \"joker\"")]
    BadColor { id: String, color: String },
    #[error("space {id:?} has row {row}, outside 1..={rows}")]
    BadRow { id: String, row: u8, rows: u8 },
    #[error("row skipped: {from:?} (row {from_row}) leads to {to:?} (row {to_row}); successors must be exactly one row up")]
    RowSkipped {
        from: String,
        from_row: u8,
        to: String,
        to_row: u8,
    },
    #[error("{id:?} leads to {count} spaces; at most {MOST_NEXT}")]
    TooManySuccessors { id: String, count: usize },
    #[error("start_next names {0:?}, which is not on row 1")]
    StartNotRowOne(String),
    #[error("space {0:?} cannot be reached from Start")]
    Unreachable(String),
    #[error("space {0:?} is final but has successors, or is not final and has none")]
    FinalMismatch(String),
    #[error("space {id:?} has value {value} but row {row} is worth {expected}")]
    ValueMismatch {
        id: String,
        row: u8,
        value: i8,
        expected: i8,
    },
    #[error("space {id:?}: goal flag disagrees with goal_rows")]
    GoalMismatch { id: String },
    #[error("space {id:?} has an unknown slot {slot:?}")]
    BadSlot { id: String, slot: String },
    #[error("unknown tile kind {0:?}")]
    UnknownTileKind(String),
    #[error("tile count differs from slots: {tiles} tiles for {slots} tile slots")]
    TileCount { tiles: usize, slots: usize },
    #[error("pile spaces exist but piles.per_color is missing")]
    MissingPiles,
}

#[derive(Deserialize)]
struct LayoutFile {
    id: String,
    rows: u8,
    row_values: Vec<i8>,
    goal_rows: Vec<u8>,
    start_next: Vec<String>,
    spaces: Vec<SpaceFile>,
    tiles: HashMap<String, u8>,
    #[serde(default)]
    piles: Option<PilesFile>,
}

#[derive(Deserialize)]
struct SpaceFile {
    id: String,
    row: u8,
    value: i8,
    color: String,
    #[serde(rename = "final")]
    is_final: bool,
    goal: bool,
    slot: Option<String>,
    next: Vec<String>,
}

#[derive(Deserialize)]
struct PilesFile {
    per_color: u8,
}

impl LayoutFile {
    fn validate(self) -> Result<Board, LayoutError> {
        if self.spaces.is_empty() {
            return Err(LayoutError::NoSpaces);
        }
        if self.spaces.len() > 250 {
            return Err(LayoutError::TooManySpaces);
        }
        let mut index: HashMap<&str, SpaceIdx> = HashMap::new();
        for (i, s) in self.spaces.iter().enumerate() {
            if index.insert(s.id.as_str(), i as SpaceIdx).is_some() {
                return Err(LayoutError::DuplicateId(s.id.clone()));
            }
        }
        let lookup = |from: &str, to: &str| {
            index
                .get(to)
                .copied()
                .ok_or_else(|| LayoutError::UnknownSpace {
                    from: from.into(),
                    to: to.into(),
                })
        };

        let mut spaces = Vec::with_capacity(self.spaces.len());
        for s in &self.spaces {
            if s.row == 0 || s.row > self.rows {
                return Err(LayoutError::BadRow {
                    id: s.id.clone(),
                    row: s.row,
                    rows: self.rows,
                });
            }
            let color = match s.color.as_str() {
                "joker" => None,
                name => match Color::parse(name) {
                    Some(c) if c != Color::Gray => Some(c),
                    _ => {
                        return Err(LayoutError::BadColor {
                            id: s.id.clone(),
                            color: s.color.clone(),
                        })
                    }
                },
            };
            let slot = match s.slot.as_deref() {
                None => Slot::Empty,
                Some("tile") => Slot::Tile,
                Some(other) => match other.strip_prefix("pile:").and_then(Color::parse) {
                    Some(c) if c != Color::Gray => Slot::Pile(c),
                    _ => {
                        return Err(LayoutError::BadSlot {
                            id: s.id.clone(),
                            slot: other.into(),
                        })
                    }
                },
            };
            let mut next = Vec::with_capacity(s.next.len());
            for n in &s.next {
                let to = lookup(&s.id, n)?;
                let to_row = self.spaces[to as usize].row;
                if to_row != s.row + 1 {
                    return Err(LayoutError::RowSkipped {
                        from: s.id.clone(),
                        from_row: s.row,
                        to: n.clone(),
                        to_row,
                    });
                }
                next.push(to);
            }
            if next.len() > MOST_NEXT {
                return Err(LayoutError::TooManySuccessors {
                    id: s.id.clone(),
                    count: next.len(),
                });
            }
            if s.is_final != next.is_empty() {
                return Err(LayoutError::FinalMismatch(s.id.clone()));
            }
            if let Some(expected) = self.row_values.get(s.row as usize - 1) {
                if *expected != s.value {
                    return Err(LayoutError::ValueMismatch {
                        id: s.id.clone(),
                        row: s.row,
                        value: s.value,
                        expected: *expected,
                    });
                }
            }
            if s.goal != self.goal_rows.contains(&s.row) {
                return Err(LayoutError::GoalMismatch { id: s.id.clone() });
            }
            spaces.push(Space {
                id: s.id.clone(),
                row: s.row,
                value: s.value,
                color,
                is_final: s.is_final,
                goal: s.goal,
                slot,
                next,
            });
        }

        let mut start_next = Vec::new();
        for id in &self.start_next {
            let idx = lookup("Start", id)?;
            if spaces[idx as usize].row != 1 {
                return Err(LayoutError::StartNotRowOne(id.clone()));
            }
            start_next.push(idx);
        }
        if start_next.len() > MOST_NEXT {
            return Err(LayoutError::TooManySuccessors {
                id: "Start".into(),
                count: start_next.len(),
            });
        }

        // Every space must be reachable from Start.
        let mut seen: HashSet<SpaceIdx> = start_next.iter().copied().collect();
        let mut queue: VecDeque<SpaceIdx> = start_next.iter().copied().collect();
        while let Some(i) = queue.pop_front() {
            for n in &spaces[i as usize].next {
                if seen.insert(*n) {
                    queue.push_back(*n);
                }
            }
        }
        if let Some(s) = spaces
            .iter()
            .enumerate()
            .find(|(i, _)| !seen.contains(&(*i as SpaceIdx)))
        {
            return Err(LayoutError::Unreachable(s.1.id.clone()));
        }

        let mut tiles = Vec::new();
        for (name, n) in &self.tiles {
            let kind =
                TileKind::parse(name).ok_or_else(|| LayoutError::UnknownTileKind(name.clone()))?;
            if *n > 0 {
                tiles.push((kind, *n));
            }
        }
        // A fixed order, whatever the order of the JSON object: the setup shuffles this list.
        tiles.sort();
        let tile_total: usize = tiles.iter().map(|(_, n)| *n as usize).sum();
        let slots = spaces.iter().filter(|s| s.slot == Slot::Tile).count();
        if tile_total != slots {
            return Err(LayoutError::TileCount {
                tiles: tile_total,
                slots,
            });
        }
        let has_piles = spaces.iter().any(|s| matches!(s.slot, Slot::Pile(_)));
        let pile_stones = match (&self.piles, has_piles) {
            (Some(p), _) => p.per_color,
            (None, true) => return Err(LayoutError::MissingPiles),
            (None, false) => 0,
        };

        let value_ahead = (0..spaces.len())
            .map(|mut at| {
                std::array::from_fn(|steps| {
                    if steps > 0 {
                        if let Some(&next) = spaces[at].next.first() {
                            at = next as usize;
                        }
                    }
                    spaces[at].value
                })
            })
            .collect();
        Ok(Board {
            id: self.id,
            spaces,
            value_ahead,
            start_next,
            tiles,
            pile_stones,
        })
    }
}

#[cfg(test)]
mod tests;
