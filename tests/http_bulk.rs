//! Bulk pairings (issue 47) over HTTP on both databases: an organiser with the `organize` scope
//! creates games for players who gave it their tokens, at once or at a time; bad tokens, sizes
//! and duplicates are refused with their place named; a scheduled pairing may be cancelled.

use crate::support;

use serde_json::{json, Value};
use support::{Db, TestServer, User};

const HOUR: i64 = 3_600_000;

fn token(s: &TestServer, owner: &User, scopes: &[&str]) -> String {
    let a = s.post(
        "/api/v1/me/tokens",
        Some(&owner.token),
        json!({"name": "club", "scopes": scopes}),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    a.json()["token"].as_str().unwrap().to_string()
}

fn bulk(s: &TestServer, organiser: &str, body: Value) -> support::Answer {
    s.post("/api/v1/bulk-pairings", Some(organiser), body)
}

fn games_created_for_players_who_gave_their_tokens(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let club = s.register("club");
    let players: Vec<User> = (0..4).map(|i| s.register(&format!("member{i}"))).collect();
    let organiser = token(&s, &club, &["organize"]);
    let tokens: Vec<String> = players.iter().map(|p| token(&s, p, &["play"])).collect();

    // Without the scope: refused.
    let plain = token(&s, &club, &["play"]);
    let body = json!({"variant": "keltis-card", "games": [{"players": [tokens[0], tokens[1]]}]});
    assert_eq!(bulk(&s, &plain, body).code(), "insufficient_scope");

    // Now: two games, the first seat moving first.
    let a = bulk(
        &s,
        &organiser,
        json!({"variant": "keltis-card", "rated": false,
               "games": [{"players": [tokens[0], tokens[1]]}, {"players": [tokens[3], tokens[2]]}]}),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    let made = a.json();
    assert_eq!(made["state"], "started");
    assert_eq!(made["games"][1]["players"], json!(["member3", "member2"]));
    assert!(!a.text.contains("kt_"), "no token is echoed: {}", a.text);
    let game = made["games"][1]["game_id"].as_i64().expect("started");
    let view = s.game(game, &players[3]);
    assert_eq!(view["status"], "active");
    assert_eq!(view["state"]["to_act"], 0);
    assert_eq!(view["seats"][0]["user"], "member3");

    // Refusals name the place.
    let refused = |body: Value, code: &str| {
        let a = bulk(&s, &organiser, body);
        assert_eq!((a.status, a.code().as_str()), (422, code), "{}", a.text);
        a.json()["message"].as_str().unwrap_or_default().to_string()
    };
    let message = refused(
        json!({"variant": "keltis-card", "games": [{"players": [tokens[0], "kt_nothing"]}]}),
        "invalid_player_token",
    );
    assert!(message.contains("games[0].players[1]"), "{message}");
    let read_only = token(&s, &players[1], &["read"]);
    refused(
        json!({"variant": "keltis-card", "games": [{"players": [tokens[0], read_only]}]}),
        "invalid_player_token",
    );
    refused(
        json!({"variant": "keltis-card", "games": [{"players": [tokens[0], tokens[1], tokens[2]]}]}),
        "invalid_games",
    );
    refused(
        json!({"variant": "keltis", "games": [{"players": [tokens[0], tokens[1]]}, {"players": [tokens[1], tokens[2]]}]}),
        "duplicate_player",
    );
    refused(json!({"variant": "keltis", "games": []}), "invalid_games");
    refused(
        json!({"variant": "keltis", "starts_at": s.clock.now() + 30 * 24 * HOUR,
               "games": [{"players": [tokens[0], tokens[1]]}]}),
        "invalid_start",
    );
}

fn a_scheduled_pairing_starts_at_its_time_or_is_cancelled(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let league = s.register("league");
    let players: Vec<User> = (0..4).map(|i| s.register(&format!("fixture{i}"))).collect();
    let organiser = token(&s, &league, &["organize"]);
    let tokens: Vec<String> = players.iter().map(|p| token(&s, p, &["play"])).collect();
    let at = s.clock.now() + HOUR;
    let a = bulk(
        &s,
        &organiser,
        json!({"variant": "keltis", "starts_at": at,
               "games": [{"players": [tokens[0], tokens[1], tokens[2]]}]}),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    let scheduled = a.json();
    assert_eq!(scheduled["state"], "scheduled");
    assert_eq!(scheduled["games"][0]["game_id"], Value::Null);
    let id = scheduled["id"].as_i64().unwrap();
    let other = bulk(
        &s,
        &organiser,
        json!({"variant": "keltis", "starts_at": at, "games": [{"players": [tokens[3], tokens[0]]}]}),
    )
    .json();
    let other_id = other["id"].as_i64().unwrap();
    let a = s.delete(
        &format!("/api/v1/bulk-pairings/{other_id}"),
        Some(&organiser),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["state"], "cancelled");

    s.clock.advance(HOUR + 1_000);
    let path = format!("/api/v1/bulk-pairings/{id}");
    let mut started = Value::Null;
    for _ in 0..300 {
        started = s.get(&path, Some(&organiser)).json();
        if started["state"] == "started" {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(started["state"], "started", "{started}");
    let game = started["games"][0]["game_id"].as_i64().expect("a game");
    assert_eq!(
        s.game(game, &players[0])["seats"].as_array().unwrap().len(),
        3
    );
    let a = s.delete(&path, Some(&organiser));
    assert_eq!(a.code(), "bulk_started");
    // The cancelled one never started; another organiser does not see ours.
    let cancelled = s
        .get(
            &format!("/api/v1/bulk-pairings/{other_id}"),
            Some(&organiser),
        )
        .json();
    assert_eq!(cancelled["games"][0]["game_id"], Value::Null);
    let stranger = token(&s, &players[3], &["organize"]);
    assert_eq!(s.get(&path, Some(&stranger)).status, 404);
}

on_both_databases!(
    games_created_for_players_who_gave_their_tokens,
    a_scheduled_pairing_starts_at_its_time_or_is_cancelled,
);
