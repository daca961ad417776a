//! Events (issue 47) over HTTP on both databases: bad input and entry conditions, the
//! registration window, recurring editions, cancellation, round robins, and event news on the
//! user stream and to webhooks.

use crate::support;

use serde_json::{json, Value};
use support::events::{create_event, enter, event, event_news, games_of, user, wait_event};
use support::players::{make_moderator, resign};
use support::sse::Sse;
use support::webhook::Receiver;
use support::{Db, User};

const HOUR: i64 = 3_600_000;

/// Bad input gets its codes; entry conditions are kept; entries wait for the registration
/// window; a recurring event (operators only) makes its next edition, window and all, when it
/// starts; too few entries cancel an event, and its maker may
/// call one off.
fn events_are_checked_conditions_kept_and_editions_made(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let [op, ben, cat] = ["oper", "ben", "cat"].map(|n| s.register(n));
    let at = s.clock.now() + HOUR;
    let base =
        json!({"name": "Club night", "format": "swiss", "variant": "keltis", "starts_at": at});
    let with = |extra: Value| {
        let mut body = base.clone();
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    for (extra, code) in [
        (json!({"name": "x"}), "invalid_name"),
        (json!({"rounds": 0}), "invalid_rounds"),
        (
            json!({"variant": "keltis-card", "table_size": 3}),
            "invalid_table_size",
        ),
        (json!({"points_by_place": [0, 1]}), "invalid_points"),
        (
            json!({"min_players": 10, "max_players": 5}),
            "invalid_players",
        ),
        (json!({"starts_at": 1}), "invalid_start"),
        (
            json!({"registration_opens_at": at + HOUR}),
            "invalid_registration_window",
        ),
        (json!({"group_size": 4}), "invalid_group_size"),
        (json!({"late_entry_until_round": 9}), "invalid_late_entry"),
        (
            json!({"entry": {"rating_min": 1600, "rating_max": 1400}}),
            "invalid_entry_conditions",
        ),
    ] {
        let a = s.post("/api/v1/events", Some(&ben.token), with(extra.clone()));
        assert_eq!(a.status, 422, "{extra}: {}", a.text);
        assert_eq!(a.code(), code, "{extra}");
    }
    let a = s.post(
        "/api/v1/events",
        Some(&ben.token),
        with(json!({"repeat_every_days": 7})),
    );
    assert_eq!((a.status, a.code().as_str()), (403, "operators_only"));

    // Conditions: a rating of at least 1600 (a newcomer has 1500); then games finished.
    let strict = create_event(&s, &ben, with(json!({"entry": {"rating_min": 1600}})));
    let strict_id = strict["event"]["id"].as_i64().unwrap();
    let a = enter(&s, &cat, strict_id);
    assert_eq!(
        (a.status, a.code().as_str()),
        (409, "entry_conditions"),
        "{}",
        a.text
    );
    let seasoned = create_event(&s, &ben, with(json!({"entry": {"min_finished_games": 1}})));
    let a = enter(&s, &cat, seasoned["event"]["id"].as_i64().unwrap());
    assert_eq!(a.code(), "entry_conditions");
    // Its maker calls it off; the others cannot.
    let a = s.delete(&format!("/api/v1/events/{strict_id}"), Some(&cat.token));
    assert_eq!(a.code(), "not_event_maker");
    let a = s.delete(&format!("/api/v1/events/{strict_id}"), Some(&ben.token));
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["event"]["state"], "cancelled");

    // A recurring event, made by an operator, taking entries from half an hour before its start:
    // at its start (one entry, too few: cancelled) the next edition is made a week later, with
    // its registration window a week later too.
    make_moderator(&s, "oper");
    let opens = at - HOUR / 2;
    let weekly = create_event(
        &s,
        &op,
        with(json!({"repeat_every_days": 7, "min_players": 2, "registration_opens_at": opens})),
    );
    assert_eq!(weekly["event"]["registration_opens_at"], opens);
    let weekly_id = weekly["event"]["id"].as_i64().unwrap();
    let early = enter(&s, &cat, weekly_id);
    assert_eq!(
        (early.status, early.code().as_str()),
        (409, "registration_not_open"),
        "{}",
        early.text
    );
    assert!(event(&s, &op, weekly_id)["entries"]
        .as_array()
        .unwrap()
        .is_empty());
    s.clock.advance(HOUR / 2);
    assert_eq!(enter(&s, &cat, weekly_id).status, 201);
    s.clock.advance(HOUR / 2 + 1_000);
    let done = wait_event(&s, &op, weekly_id, |e| e["event"]["state"] == "cancelled");
    let next = done["event"]["next_edition_id"]
        .as_i64()
        .expect("a next edition");
    let next = event(&s, &op, next);
    assert_eq!(next["event"]["state"], "registering");
    assert_eq!(next["event"]["starts_at"], at + 7 * 24 * HOUR);
    assert_eq!(next["event"]["made_by"], Value::Null);
    assert_eq!(next["event"]["repeat_every_days"], 7);
    assert_eq!(
        next["event"]["registration_opens_at"],
        opens + 7 * 24 * HOUR
    );
    assert!(event_news(&s, &cat).contains(&"cancelled".to_string()));
}

/// A round robin in groups by rating: every pair of a group plays once, all at once.
fn a_round_robin_deals_every_game_of_a_group_at_once(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players: Vec<User> = (0..6).map(|i| s.register(&format!("rr{i}"))).collect();
    let e = create_event(
        &s,
        &players[0],
        json!({"name": "Groups", "format": "round_robin", "variant": "keltis-card", "group_size": 3,
               "max_players": 6, "min_players": 6}),
    );
    let id = e["event"]["id"].as_i64().unwrap();
    for p in &players {
        assert_eq!(enter(&s, p, id).status, 201);
    }
    let e = wait_event(&s, &players[0], id, |e| e["event"]["current_round"] == 1);
    let games = games_of(&e, 1);
    assert_eq!(games.len(), 6, "two groups of three, three games each: {e}");
    for (game, seats) in &games {
        resign(&s, *game, user(&players, &seats[1]));
    }
    let e = wait_event(&s, &players[0], id, |e| e["event"]["state"] == "finished");
    assert_eq!(e["standings"].as_array().unwrap().len(), 6);
    for row in e["crosstable"].as_array().unwrap() {
        assert_eq!(row["rounds"].as_array().unwrap().len(), 2, "{row}");
    }
}

on_both_databases!(
    events_are_checked_conditions_kept_and_editions_made,
    a_round_robin_deals_every_game_of_a_group_at_once,
    event_news_reaches_the_user_stream_and_webhooks,
);

/// Event news is told live: on the player's user stream and to their webhook for `event`
/// notices, as for any notice.
fn event_news_reaches_the_user_stream_and_webhooks(db: Db) {
    let s = support::spawn(db, |c| {
        c.webhooks_allow_private = true;
        c.webhook_interval_ms = 50;
    })
    .expect("a database for this test");
    let [ann, ben] = ["ann", "ben"].map(|n| s.register(n));
    let receiver = Receiver::start(&[200]);
    let hook = s.post(
        "/api/v1/me/webhooks",
        Some(&ben.token),
        json!({"url": receiver.url, "kinds": ["event"]}),
    );
    assert_eq!(hook.status, 201, "{}", hook.text);
    let ticket = s.post("/api/v1/stream-tickets", Some(&ben.token), json!({}));
    assert_eq!(ticket.status, 201, "{}", ticket.text);
    let ticket = ticket.json()["ticket"].as_str().unwrap().to_string();
    let mut stream = Sse::open(
        &s.url(&format!("/api/v1/me/stream?ticket={ticket}")),
        None,
        None,
    );
    let e = create_event(
        &s,
        &ann,
        json!({"name": "Told live", "format": "swiss", "variant": "keltis-card",
               "starts_at": s.clock.now() + HOUR}),
    );
    let id = e["event"]["id"].as_i64().unwrap();
    assert_eq!(enter(&s, &ben, id).status, 201);

    let (_, kind, data) = stream.event().expect("a notice");
    assert_eq!(kind, "event");
    assert_eq!(data["notice"]["event_id"], id);
    assert_eq!(data["notice"]["news"]["type"], "entered");

    let got = receiver.wait_for(1);
    let body: Value = serde_json::from_str(&got[0].body).expect("a JSON delivery");
    assert_eq!(body["type"], "event", "{body}");
    assert_eq!(body["data"]["kind"], "event");
    assert_eq!(body["data"]["event_id"], id);
    assert_eq!(body["data"]["news"]["type"], "entered");
}
