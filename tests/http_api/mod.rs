//! The server through HTTP only, on a real database: SQLite always, PostgreSQL when
//! `TEST_DATABASE_URL` is set (CI sets it).

mod games;
mod guards;
mod lobby;
use crate::support;

use serde_json::Value;
use support::{Db, TestServer, User};

fn server(db: Db) -> Option<TestServer> {
    let s = support::spawn(db, |_| {});
    if s.is_none() {
        eprintln!("TEST_DATABASE_URL not set: PostgreSQL scenario skipped");
    }
    s
}

/// The sequence numbers of a game's events after `after`, as `user` reads them.
fn event_seqs(s: &TestServer, id: i64, after: i64, user: &User) -> Vec<i64> {
    let events = s
        .get(
            &format!("/api/v1/games/{id}/events?after={after}"),
            Some(&user.token),
        )
        .json();
    events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_i64().unwrap())
        .collect()
}

fn users(s: &TestServer, prefix: &str, n: usize) -> Vec<User> {
    (0..n)
        .map(|i| s.register(&format!("{prefix}{i}")))
        .collect()
}

/// Play random legal decisions through the API until the game is over; returns the number
/// of decisions. Checks on the way that no view shows another player's hand.
fn play_out(s: &TestServer, id: i64, players: &[User], seed: u64) -> usize {
    let mut rng = seed;
    let mut decisions = 0;
    loop {
        let views: Vec<Value> = players.iter().map(|u| s.game(id, u)).collect();
        for (i, v) in views.iter().enumerate() {
            assert_eq!(v["your_seat"], i as u64);
            let state = &v["state"];
            for (j, seat) in state["seats"].as_array().unwrap().iter().enumerate() {
                assert!(
                    seat.get("hand").is_none(),
                    "seat {j}'s hand shown to seat {i}"
                );
            }
            assert!(state.get("draw_pile").is_none());
        }
        let state = &views[0]["state"];
        if views[0]["status"] == "over" {
            assert!(state["result"]["scores"].is_array());
            return decisions;
        }
        let to_act = state["to_act"].as_u64().unwrap() as usize;
        let me = &views[to_act];
        for (i, v) in views.iter().enumerate() {
            let listed = v["state"]["legal_decisions"]
                .as_array()
                .expect("always an array");
            assert_eq!(!listed.is_empty(), i == to_act);
        }
        let legal = me["state"]["legal_decisions"].as_array().unwrap();
        let d = support::pick(&mut rng, legal);
        let a = s.decide(id, &players[to_act], me["version"].as_i64().unwrap(), d);
        assert_eq!(a.status, 200, "{d} -> {}", a.text);
        let body = a.json();
        assert_eq!(body["version"], me["version"].as_i64().unwrap() + 1);
        decisions += 1;
    }
}
