//! Notification emails through a real SMTP server on loopback (aiosmtpd, started by the tests):
//! double opt-in, "your turn" once per turn, headers and both parts, the language, one-click
//! unsubscribe, the relay down and back, bounces, two server instances. On SQLite, and on
//! PostgreSQL when `TEST_DATABASE_URL` is set.

use crate::support;
mod digests_and_reminders;
mod relay;
mod turns;

use serde_json::{json, Value};
use support::mail::{confirmed_address, put, register, server, PUBLIC};
use support::smtp::SmtpSink;
use support::{Db, TestServer, User};

fn game(s: &TestServer, players: &[User]) -> i64 {
    s.started_with(json!({"variant": "keltis", "players": 2}), players)
}

fn with_subject<'a>(messages: &'a [Value], needle: &str) -> Vec<&'a Value> {
    messages
        .iter()
        .filter(|m| {
            m["headers"]["Subject"]
                .as_str()
                .unwrap_or("")
                .contains(needle)
        })
        .collect()
}

const DAY: i64 = 24 * 3600 * 1000;

/// The messages `address` received whose subject contains `needle`.
fn received_with_subject(sink: &SmtpSink, address: &str, needle: &str) -> Vec<Value> {
    with_subject(&sink.to(address), needle)
        .into_iter()
        .cloned()
        .collect()
}
