//! Taking your data (`GET /me/export`): the document holds what the API shows the player of
//! each part (account, profile and ratings, email, two-factor, vacation, sessions, tokens,
//! webhooks, push devices, notifications, every game with its events as the player sees them,
//! events entered, ladders, bulk pairings organised), no secret, no card the player could not see. On SQLite, and on PostgreSQL when
//! `TEST_DATABASE_URL` is set.

use crate::support;

use serde_json::{json, Value};
use support::players::play_out;
use support::push::PushDevice;
use support::{Db, TestServer};

fn get(s: &TestServer, path: &str, token: &str) -> Value {
    let a = s.get(path, Some(token));
    assert_eq!(a.status, 200, "{path}: {}", a.text);
    a.json()
}

fn the_export_holds_what_the_api_shows_and_no_secret(db: Db) {
    let s = support::spawn(db, |c| {
        c.push_allow_private = true;
        c.webhooks_allow_private = true;
    })
    .expect("a database for this test");
    let anna = s.register("anna");
    let ben = s.register("ben");
    // A finished rated game, and one in progress (ben's hand is hidden from anna).
    let over = s.started_game("keltis-card", &[anna.clone(), ben.clone()]);
    play_out(&s, over, &[anna.clone(), ben.clone()]);
    let playing = s.started_game("keltis", &[anna.clone(), ben.clone()]);
    s.finish_turn(playing, &[anna.clone(), ben.clone()]);
    // Secrets of every kind.
    let token = s.post(
        "/api/v1/me/tokens",
        Some(&anna.token),
        json!({"name": "my bot", "scopes": ["read"]}),
    );
    let api_token = token.json()["token"].as_str().unwrap().to_string();
    let hook = s.post(
        "/api/v1/me/webhooks",
        Some(&anna.token),
        json!({"url": "http://127.0.0.1:9/hook", "kinds": ["your_turn"]}),
    );
    assert_eq!(hook.status, 201, "{}", hook.text);
    let hook_secret = hook.json()["secret"].as_str().unwrap().to_string();
    let key = get(&s, "/api/v1/push/vapid-public-key", &anna.token)["public_key"]
        .as_str()
        .unwrap()
        .to_string();
    let device = PushDevice::start(&key, &[]);
    let a = s.post(
        "/api/v1/me/push-subscriptions",
        Some(&anna.token),
        device.subscription.clone(),
    );
    assert_eq!(a.status, 201, "{}", a.text);

    // Only a signed-in session takes it.
    let a = s.get("/api/v1/me/export", Some(&api_token));
    assert_eq!((a.status, a.code().as_str()), (403, "insufficient_scope"));
    let a = s.get("/api/v1/me/export", Some(&anna.token));
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(
        a.headers["content-disposition"],
        "attachment; filename=\"keltis-anna.json\""
    );
    let export = a.json();

    // Each part equals what the API shows anna.
    assert_eq!(export["user_id"], anna.id);
    for (part, path) in [
        ("profile", "/api/v1/players/anna"),
        ("email", "/api/v1/me/email"),
        ("two_factor", "/api/v1/me/two-factor"),
        ("vacation", "/api/v1/me/vacation"),
        ("api_tokens", "/api/v1/me/tokens"),
        ("webhooks", "/api/v1/me/webhooks"),
        ("push_devices", "/api/v1/me/push-subscriptions"),
    ] {
        assert_eq!(export[part], get(&s, path, &anna.token), "{part}");
    }
    // The outbox's workers change a notification's status as they go: the two reads agree once
    // they are not in the middle of a change.
    let notifications = |e: &Value| e["notifications"].clone();
    let mut agreed = false;
    for _ in 0..50 {
        let export = get(&s, "/api/v1/me/export", &anna.token);
        if notifications(&export) == get(&s, "/api/v1/me/notifications?limit=100", &anna.token) {
            agreed = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(agreed, "the export's notifications are the API's");
    assert!(export["profile"]["ratings"]
        .as_array()
        .is_some_and(|r| !r.is_empty()));
    assert_eq!(
        export["sessions"].as_array().map(Vec::len),
        get(&s, "/api/v1/me/sessions", &anna.token)
            .as_array()
            .map(Vec::len)
    );
    let games = export["games"].as_array().unwrap();
    let mine = get(&s, "/api/v1/me/games?limit=100", &anna.token);
    assert_eq!(games.len(), 2);
    for (exported, listed) in games.iter().zip(mine["games"].as_array().unwrap()) {
        let id = listed["id"].as_i64().unwrap();
        assert_eq!(exported["game"]["id"], id);
        let events = get(
            &s,
            &format!("/api/v1/games/{id}/events?after=0"),
            &anna.token,
        );
        assert_eq!(exported["events"], events, "game {id}");
    }
    // The game in progress: anna's hand, not ben's, and no setup (the deal) before the end.
    let started = games
        .iter()
        .find(|g| g["game"]["id"] == playing)
        .and_then(|g| g["events"].as_array())
        .and_then(|e| e.iter().find(|e| e["kind"] == "started"))
        .cloned()
        .unwrap();
    assert!(
        started["data"].get("setup").is_none_or(Value::is_null),
        "{started}"
    );
    let bens = s.events(playing, &ben);
    let bens_hand = bens.iter().find(|e| e["kind"] == "started").unwrap()["data"]["hand"].clone();
    assert_ne!(started["data"]["hand"], bens_hand);

    // No secret.
    let text = export.to_string();
    for secret in [
        api_token.as_str(),
        hook_secret.as_str(),
        device.subscription["keys"]["auth"].as_str().unwrap(),
        device.subscription["keys"]["p256dh"].as_str().unwrap(),
        anna.refresh_token.as_str(),
        anna.token.as_str(),
        "correct horse",
    ] {
        assert!(
            !text.contains(secret),
            "the export holds a secret: {secret}"
        );
    }
}

/// Events entered, ladder rungs and challenges, and bulk pairings organised are in the export
/// as the API shows them.
fn the_export_holds_events_ladders_and_bulk_pairings(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let anna = s.register("anna");
    let ben = s.register("ben");
    let a = s.post(
        "/api/v1/events",
        Some(&anna.token),
        json!({"name": "Exported", "format": "swiss", "variant": "keltis-card",
               "starts_at": s.clock.now() + 3_600_000}),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    let event_id = a.json()["event"]["id"].as_i64().unwrap();
    for p in [&anna, &ben] {
        let a = s.post(
            &format!("/api/v1/events/{event_id}/entries"),
            Some(&p.token),
            json!({}),
        );
        assert_eq!(a.status, 201, "{}", a.text);
    }
    for p in [&anna, &ben] {
        let a = s.post(
            "/api/v1/ladders/keltis-card/rungs",
            Some(&p.token),
            json!({}),
        );
        assert_eq!(a.status, 201, "{}", a.text);
    }
    let a = s.post(
        "/api/v1/ladders/keltis-card/challenges",
        Some(&ben.token),
        json!({"defender": "anna"}),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    let token = |user: &support::User, scopes: Value| {
        let a = s.post(
            "/api/v1/me/tokens",
            Some(&user.token),
            json!({"name": "club", "scopes": scopes}),
        );
        assert_eq!(a.status, 201, "{}", a.text);
        a.json()["token"].as_str().unwrap().to_string()
    };
    let organiser = token(&anna, json!(["organize"]));
    let seats = [token(&anna, json!(["play"])), token(&ben, json!(["play"]))];
    let a = s.post(
        "/api/v1/bulk-pairings",
        Some(&organiser),
        json!({"variant": "keltis-card", "starts_at": s.clock.now() + 3_600_000,
               "games": [{"players": seats}]}),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    let bulk_id = a.json()["id"].as_i64().unwrap();

    let export = get(&s, "/api/v1/me/export", &anna.token);
    let event = get(&s, &format!("/api/v1/events/{event_id}"), &anna.token);
    let entered = &export["events"][0];
    assert_eq!(export["events"].as_array().unwrap().len(), 1, "{export}");
    assert_eq!(entered["event"], event["event"]);
    assert_eq!(entered["entry"], event["entries"][0]);
    assert_eq!(entered["entry"]["name"], "anna");
    let standing = event["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == "anna")
        .cloned();
    assert_eq!(Some(entered["standing"].clone()), standing);
    assert_eq!(
        export["ladders"]["rungs"],
        json!([{"variant": "keltis-card", "rung": 1}])
    );
    let ladder = get(&s, "/api/v1/ladders/keltis-card", &anna.token);
    assert_eq!(export["ladders"]["challenges"], ladder["challenges"]);
    assert_eq!(export["ladders"]["challenges"][0]["challenger"], "ben");
    assert_eq!(
        export["bulk_pairings"],
        json!([get(
            &s,
            &format!("/api/v1/bulk-pairings/{bulk_id}"),
            &organiser
        )])
    );
    assert!(!export.to_string().contains(&seats[1]), "no token");
    // Ben entered the event and challenged, but organised nothing.
    let bens = get(&s, "/api/v1/me/export", &ben.token);
    assert_eq!(bens["events"][0]["entry"]["name"], "ben");
    assert_eq!(bens["ladders"]["rungs"][0]["rung"], 2);
    assert_eq!(bens["bulk_pairings"], json!([]));
}

on_both_databases!(
    the_export_holds_what_the_api_shows_and_no_secret,
    the_export_holds_events_ladders_and_bulk_pairings,
);
