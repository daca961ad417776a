//! Tournaments, pure like the engine and the pairing rule: who sits with whom in an event's next
//! round, and where everyone stands. The service (`service/events`) reads an event's entries and
//! its decided games, and stores what this module decides; nothing here reads a clock or a table.
//!
//! - [`points`]: points by place, stated per event, kept exact (in twelfths).
//! - [`history`]: what each entrant has done so far, read off the decided games.
//! - [`standings`]: the order, with named tie-breaks.
//! - [`swiss`]: the next round of a Swiss: pairs by maximum-weight matching for two seats,
//!   tables of close standing with the fewest repeat table-mates for three and four.
//! - [`round_robin`]: groups formed by rating, every game of a group at once.
//! - [`ladder`]: a standing ladder's rungs, challenges and results.

pub mod history;
pub mod ladder;
pub mod points;
pub mod round_robin;
pub mod standings;
pub mod swiss;
mod tables;

#[cfg(test)]
mod tests;

pub use history::History;
pub use points::{Points, Scoring};

/// One entry of an event (the entry's id, not the player's: an entry is what the event knows).
pub type Entrant = i64;

/// A decided game of an event: its entrants in seat order (seat 0 moves first), and each one's
/// place (1 is best; equal places where the game was drawn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub round: u32,
    pub seats: Vec<Entrant>,
    pub places: Vec<u8>,
}

/// A round an entrant sat out and scored for: a bye when the players did not divide into tables,
/// or a late entrant's half bye for each round it missed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bye {
    pub round: u32,
    pub entrant: Entrant,
    pub points: Points,
    /// A bye given because the players did not divide into tables (not a late entrant's).
    pub full: bool,
}

/// What one round deals: tables (entrants in seat order, seat 0 moving first) and byes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub tables: Vec<Vec<Entrant>>,
    pub byes: Vec<Entrant>,
}
