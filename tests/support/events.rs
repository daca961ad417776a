//! Events over HTTP for the tests: make one, enter it, wait for the events worker, read its
//! rounds, and a player's event news.

use serde_json::{json, Value};

use super::{Answer, TestServer, User};

pub fn create_event(s: &TestServer, maker: &User, body: Value) -> Value {
    let a = s.post("/api/v1/events", Some(&maker.token), body);
    assert_eq!(a.status, 201, "{}", a.text);
    a.json()
}

pub fn event(s: &TestServer, user: &User, id: i64) -> Value {
    let a = s.get(&format!("/api/v1/events/{id}"), Some(&user.token));
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()
}

/// The event once `check` holds (the events worker moves it on).
pub fn wait_event(s: &TestServer, user: &User, id: i64, check: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..600 {
        let e = event(s, user, id);
        if check(&e) {
            return e;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("never happened: {}", event(s, user, id));
}

pub fn enter(s: &TestServer, user: &User, id: i64) -> Answer {
    s.post(
        &format!("/api/v1/events/{id}/entries"),
        Some(&user.token),
        json!({}),
    )
}

/// Round `round`'s games: id and players by seat.
pub fn games_of(e: &Value, round: usize) -> Vec<(i64, Vec<String>)> {
    e["rounds"][round - 1]["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| {
            let players = g["players"]
                .as_array()
                .expect("players")
                .iter()
                .map(|p| p.as_str().unwrap_or_default().to_string())
                .collect();
            (g["game_id"].as_i64().expect("a game id"), players)
        })
        .collect()
}

pub fn byes_of(e: &Value, round: usize) -> Vec<String> {
    e["rounds"][round - 1]["byes"]
        .as_array()
        .expect("byes")
        .iter()
        .map(|b| b["name"].as_str().unwrap_or_default().to_string())
        .collect()
}

pub fn user<'a>(users: &'a [User], name: &str) -> &'a User {
    users
        .iter()
        .find(|u| u.name == name)
        .expect("a player of the test")
}

pub fn event_news(s: &TestServer, user: &User) -> Vec<String> {
    let a = s.get("/api/v1/me/notifications", Some(&user.token));
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()
        .as_array()
        .expect("notifications")
        .iter()
        .filter(|n| n["notice"]["kind"] == "event")
        .map(|n| {
            n["notice"]["news"]["type"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}
