//! Vacation and deadline reminders (time moved by the test's own clock). On SQLite, and on
//! PostgreSQL when `TEST_DATABASE_URL` is set.

use crate::support;

use serde_json::{json, Value};
use support::{kinds, Db, TestServer, User};

const HOUR: i64 = 3600 * 1000;
const DAY: i64 = 24 * HOUR;

/// Two players in a started game with this time control; its id.
fn game_with(s: &TestServer, players: &[User], variant: &str, control: Value) -> i64 {
    s.started_with(
        json!({"variant": variant, "players": 2, "time_control": control}),
        players,
    )
}

fn seat_to_act(s: &TestServer, id: i64, user: &User) -> usize {
    s.game(id, user)["state"]["to_act"]
        .as_u64()
        .expect("a seat to act") as usize
}

fn vacation(s: &TestServer, user: &User) -> Value {
    let a = s.get("/api/v1/me/vacation", Some(&user.token));
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()
}

/// While a player is away, their clocks stand still in every game (the others see the seat as
/// away), the vacation uses the allowance, and when they come back each clock runs on from
/// where it stopped.
fn vacation_stops_and_restarts_every_clock(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players: Vec<User> = (0..2).map(|i| s.register(&format!("away{i}"))).collect();
    let per_turn = json!({"type": "per_turn", "seconds": 3 * 86400});
    let fischer = json!({"type": "fischer", "initial_seconds": 2 * 86400, "increment_seconds": 86400, "max_seconds": 5 * 86400});
    let games = [
        game_with(&s, &players, "keltis", per_turn),
        game_with(&s, &players, "keltis-card", fischer),
    ];
    // Make it player 0's turn in both games (a turn of player 1 where needed).
    for id in games {
        if seat_to_act(&s, id, &players[0]) == 1 {
            s.finish_turn(id, &players);
        }
    }
    let status = vacation(&s, &players[0]);
    assert_eq!(status["allowance_days"], 30);
    assert_eq!(status["used_ms"], 0);
    assert!(status["current"].is_null());
    let a = s.delete("/api/v1/me/vacation", Some(&players[0].token));
    assert_eq!((a.status, a.code()), (409, "not_on_vacation".into()));

    // One hour into the turn, player 0 leaves for five days.
    s.clock.advance(HOUR);
    let deadlines: Vec<i64> = games
        .iter()
        .map(|&id| {
            s.game(id, &players[1])["clock"]["deadline"]
                .as_i64()
                .unwrap()
        })
        .collect();
    let a = s.post("/api/v1/me/vacation", Some(&players[0].token), json!({}));
    assert_eq!(a.status, 200, "{}", a.text);
    let started = s.clock.now();
    assert_eq!(a.json()["current"]["started_at"], started);
    assert_eq!(a.json()["current"]["ends_at"], started + 30 * DAY);
    let a = s.post("/api/v1/me/vacation", Some(&players[0].token), json!({}));
    assert_eq!((a.status, a.code()), (409, "already_on_vacation".into()));
    for id in games {
        let view = s.game(id, &players[1]);
        assert!(view["clock"]["deadline"].is_null(), "{}", view["clock"]);
        assert_eq!(view["clock"]["seats"][0]["away"], true);
        assert_eq!(view["clock"]["seats"][0]["running"], false);
        assert_eq!(view["clock"]["seats"][1]["away"], false);
        let events = s.events(id, &players[1]);
        assert_eq!(kinds(&events, "vacation_started"), 1);
        assert_eq!(
            events.last().unwrap()["data"],
            json!({"seat": 0, "user": "away0"})
        );
    }
    s.clock.advance(5 * DAY);
    std::thread::sleep(std::time::Duration::from_millis(300)); // the scheduler's passes
    for id in games {
        assert_eq!(s.game(id, &players[1])["status"], "active", "no time-out");
    }
    assert_eq!(vacation(&s, &players[0])["used_ms"], 5 * DAY);

    let a = s.delete("/api/v1/me/vacation", Some(&players[0].token));
    assert_eq!(a.status, 200, "{}", a.text);
    let back = a.json();
    assert_eq!(back["used_ms"], 5 * DAY);
    assert_eq!(back["remaining_ms"], 25 * DAY);
    assert!(back["current"].is_null());
    // Each clock runs on with what was left when it stopped: the deadline moved by the five days.
    for (id, before) in games.iter().zip(deadlines) {
        let view = s.game(*id, &players[1]);
        assert_eq!(view["clock"]["deadline"], before + 5 * DAY);
        assert_eq!(view["clock"]["seats"][0]["away"], false);
        assert_eq!(kinds(&s.events(*id, &players[1]), "vacation_ended"), 1);
    }
}

/// A vacation ends by itself when the year's allowance runs out; a game that starts while a
/// player is away starts with their clock standing still.
fn vacation_ends_when_the_allowance_runs_out(db: Db) {
    let s = support::spawn(db, |c| c.vacation_days_per_year = 2).expect("a database");
    let players: Vec<User> = (0..2).map(|i| s.register(&format!("brief{i}"))).collect();
    let a = s.post("/api/v1/me/vacation", Some(&players[1].token), json!({}));
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["current"]["ends_at"], s.clock.now() + 2 * DAY);
    let control = json!({"type": "per_turn", "seconds": 86400});
    let id = game_with(&s, &players, "keltis-card", control);
    if seat_to_act(&s, id, &players[0]) == 0 {
        s.finish_turn(id, &players);
    }
    let view = s.game(id, &players[0]);
    assert_eq!(view["clock"]["seats"][1]["away"], true);
    assert!(view["clock"]["deadline"].is_null());

    s.clock.advance(2 * DAY + 1000);
    let view = s.wait_for(id, &players[0], |v| v["clock"]["seats"][1]["away"] == false);
    let resumed = view["clock"]["deadline"].as_i64().unwrap();
    assert!(
        resumed >= s.clock.now() + DAY - 1000,
        "a whole turn left: {resumed}"
    );
    let status = vacation(&s, &players[1]);
    assert_eq!(
        status["used_ms"],
        2 * DAY,
        "charged up to the allowance, not beyond"
    );
    assert_eq!(status["remaining_ms"], 0);
    assert!(status["current"].is_null());
    let a = s.post("/api/v1/me/vacation", Some(&players[1].token), json!({}));
    assert_eq!((a.status, a.code()), (409, "no_vacation_left".into()));
}

fn reminders(s: &TestServer, user: &User) -> Vec<Value> {
    let a = s.get("/api/v1/me/notifications", Some(&user.token));
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["notice"]["kind"] == "deadline_reminder")
        .cloned()
        .collect()
}

/// Wait (real time, briefly) until the user has `n` reminders.
fn wait_for_reminders(s: &TestServer, user: &User, n: usize) -> Vec<Value> {
    for _ in 0..100 {
        let found = reminders(s, user);
        if found.len() >= n {
            return found;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("{} reminders, not {n}", reminders(s, user).len());
}

/// Before a deadline the player to act gets a reminder 24 hours and 1 hour before (when the turn
/// is long enough), each once, as a notification waiting for delivery; a turn played in time gets
/// no more.
fn reminders_come_before_deadlines(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players: Vec<User> = (0..2).map(|i| s.register(&format!("remind{i}"))).collect();
    let id = game_with(
        &s,
        &players,
        "keltis",
        json!({"type": "per_turn", "seconds": 3 * 86400}),
    );
    let seat = seat_to_act(&s, id, &players[0]);
    let (late, other) = (&players[seat], &players[1 - seat]);
    let deadline = s.game(id, late)["clock"]["deadline"].as_i64().unwrap();
    s.clock.advance(2 * DAY - 1000);
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(reminders(&s, late).is_empty(), "not yet");
    s.clock.advance(1000);
    let found = wait_for_reminders(&s, late, 1);
    assert_eq!(
        found[0]["notice"],
        json!({"kind": "deadline_reminder", "game_id": id, "seat": seat, "deadline": deadline, "lead_ms": DAY})
    );
    assert_eq!(found[0]["status"], "pending");
    s.clock.advance(DAY - HOUR);
    let found = wait_for_reminders(&s, late, 2);
    assert_eq!(found[0]["notice"]["lead_ms"], HOUR, "newest first");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(reminders(&s, late).len(), 2, "each reminder once");
    assert!(reminders(&s, other).is_empty(), "only the player to act");

    // The turn is played in time: the next seat's reminders follow its own deadline.
    s.finish_turn(id, &players);
    let next_deadline = s.game(id, other)["clock"]["deadline"].as_i64().unwrap();
    s.clock.advance(2 * DAY);
    let found = wait_for_reminders(&s, other, 1);
    assert_eq!(found[0]["notice"]["deadline"], next_deadline);
    assert_eq!(reminders(&s, late).len(), 2);
    let a = s.get("/api/v1/me/notifications?limit=0", Some(&late.token));
    assert_eq!((a.status, a.code()), (400, "invalid_query".into()));
    // Pages follow each other by id, newest first.
    let all = s.get("/api/v1/me/notifications", Some(&late.token)).json();
    let page = s
        .get("/api/v1/me/notifications?limit=1", Some(&late.token))
        .json();
    assert_eq!(page[0]["id"], all[0]["id"]);
    let older = s
        .get(
            &format!("/api/v1/me/notifications?before={}", page[0]["id"]),
            Some(&late.token),
        )
        .json();
    assert_eq!(older.as_array().unwrap()[..], all.as_array().unwrap()[1..]);
}

on_both_databases!(
    vacation_stops_and_restarts_every_clock,
    vacation_ends_when_the_allowance_runs_out,
    reminders_come_before_deadlines,
);
