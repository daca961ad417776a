//! The Keltis server: the rules engine, the HTTP API over PostgreSQL or SQLite, and tools.
//!
//! Layers, each with its own error type: `engine` (rules, pure) -> `service` (what the server
//! does) -> `api` (HTTP) ; `storage` holds all SQL. `config`, `telemetry`, `limits` and
//! `startup` set the server up; `workers` run the background work (bots, maintenance).
//! `pairing`, `ratings`, `review` and
//! `tournaments` are pure like the engine: rules the service applies.

pub mod api;
pub mod arena;
pub mod clock;
pub mod config;
pub mod engine;
pub mod limits;
pub mod loadtest;
pub mod pairing;
pub mod ratings;
pub mod review;
pub mod review_tool;
pub mod selfplay;
pub mod service;
pub mod startup;
pub mod storage;
pub mod telemetry;
pub mod tournaments;
pub mod workers;
