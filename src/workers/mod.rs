//! Background work, each in a thread of its own, sharing nothing but the database: safe when
//! several server instances run the same workers.
//!
//! - `bots`: plays the built-in bots' turns (and the seats of players who left).
//! - `clocks`: applies time-outs when deadlines pass.
//! - `maintenance`: deletes what has expired (idempotency answers, refresh tokens, sessions).

pub mod bots;
pub mod clocks;
pub mod maintenance;
