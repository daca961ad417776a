//! Play: the games themselves. Creating and joining them (`lobby`), listing them (`listing`), the
//! caller's view and the decisions the engine validates (`decisions`), the validation and append
//! every decider shares (`appending`), what those share (`games`: the event log, the append on a
//! version), a game loaded for a request (`loading`), the events
//! and the record (`events`), the server's bots (`bots`), finished games made small (`packing`),
//! games written fast for measuring (`seed`), and the strict reading of tagged requests
//! (`strict`).

pub(in crate::service) mod appending;
pub mod bots;
pub mod decisions;
pub mod events;
pub mod games;
pub mod listing;
pub(in crate::service) mod loading;
pub mod lobby;
pub mod packing;
pub mod seed;
pub mod strict;
