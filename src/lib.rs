//! The Keltis server: rules engine, self-play and (coming) the HTTP API and bots.

pub mod engine;
pub mod selfplay;
