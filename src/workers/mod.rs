//! Background work, each in a thread of its own, sharing nothing but the database: safe when
//! several server instances run the same workers.
//!
//! - `bots`: plays the built-in bots' turns.
//! - `maintenance`: deletes what has expired (idempotency answers, refresh tokens, sessions).

pub mod bots;
pub mod maintenance;
