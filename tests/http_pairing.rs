//! Play now (issue 46), over HTTP on both databases: matching requests sit down together and
//! everyone is told; 3- and 4-seat tables fill from requests arriving one by one; a bot takes
//! the seats left after the wait only when the request allows it; requests lapse, are cancelled,
//! and vanish with a suspension or a deletion; two instances seat each request once.

use crate::support;

use serde_json::{json, Value};
use support::players::make_moderator;
use support::{Db, TestServer, User};

const MINUTE: i64 = 60_000;

fn file(s: &TestServer, user: &User, body: Value) -> Value {
    let a = s.post("/api/v1/pairing/requests", Some(&user.token), body);
    assert_eq!(a.status, 201, "{}", a.text);
    a.json()
}

fn request(s: &TestServer, user: &User, id: &Value) -> Value {
    let a = s.get(&format!("/api/v1/pairing/requests/{id}"), Some(&user.token));
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()
}

/// The request once the pairing worker has made it leave `waiting`.
fn closed(s: &TestServer, user: &User, id: &Value) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let r = request(s, user, id);
        if r["state"] != "waiting" {
            return r;
        }
        assert!(std::time::Instant::now() < deadline, "still waiting: {r}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The names seated at game `id`, in seat order.
fn seated(s: &TestServer, id: &Value, viewer: &User) -> Vec<String> {
    let view = s.game(id.as_i64().expect("a game id"), viewer);
    view["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|seat| seat["user"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Who moved first at game `id`: the name at the seat its deal started with.
fn moved_first(s: &TestServer, id: &Value, viewer: &User) -> String {
    let id = id.as_i64().expect("a game id");
    let events = s.get(&format!("/api/v1/games/{id}/events"), Some(&viewer.token));
    let first = events
        .json()
        .as_array()
        .and_then(|all| all.iter().find(|e| e["kind"] == "started").cloned())
        .and_then(|e| e["data"]["start_player"].as_u64())
        .expect("a started game") as usize;
    seated(s, &json!(id), viewer)[first].clone()
}

fn kinds_of_notices(s: &TestServer, user: &User) -> Vec<String> {
    let a = s.get("/api/v1/me/notifications", Some(&user.token));
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()
        .as_array()
        .expect("notifications")
        .iter()
        .map(|n| n["notice"]["kind"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Two players filing matching requests are in one game (the older request in the first seat),
/// each is told, and it comes first in their games; requests that disagree wait.
fn two_matching_requests_make_one_game(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let [ann, ben, cat] = ["ann", "ben", "cat"].map(|n| s.register(n));
    let first = file(&s, &ann, json!({"variant": "keltis"}));
    assert_eq!(first["state"], "waiting");
    assert_eq!(first["seats"], json!([2]));
    assert!(first["game_id"].is_null());
    // Casual against rated, another time control: no table.
    let casual = file(&s, &cat, json!({"variant": "keltis", "rated": false}));
    assert_eq!(casual["state"], "waiting");
    let timed =
        json!({"variant": "keltis", "time_control": {"type": "per_turn", "seconds": 86400}});
    assert_eq!(file(&s, &cat, timed)["state"], "waiting");

    let second = file(&s, &ben, json!({"variant": "keltis", "seats": [2]}));
    assert_eq!(second["state"], "seated", "{second}");
    let game = second["game_id"].clone();
    let ann_view = request(&s, &ann, &first["id"]);
    assert_eq!(
        (ann_view["state"].clone(), ann_view["game_id"].clone()),
        ("seated".into(), game.clone())
    );
    assert_eq!(seated(&s, &game, &ann), ["ann", "ben"]);
    // The player who waited longest moves first (issue 68: the deal's draw decided).
    assert_eq!(moved_first(&s, &game, &ann), "ann");
    assert_eq!(request(&s, &cat, &casual["id"])["state"], "waiting");
    for user in [&ann, &ben] {
        assert!(kinds_of_notices(&s, user).contains(&"game_started".to_string()));
        let mine = s.get("/api/v1/me/games", Some(&user.token)).json();
        assert_eq!(mine["games"][0]["id"], game, "{mine}");
    }
    // Another player's request is not found; the list shows the closed one for a day.
    let a = s.get(
        &format!("/api/v1/pairing/requests/{}", first["id"]),
        Some(&cat.token),
    );
    assert_eq!(a.status, 404);
    let list = s.get("/api/v1/pairing/requests", Some(&ann.token)).json();
    assert_eq!(list["requests"][0]["state"], "seated");
    assert_eq!(list["max_waiting"], 5);
    s.clock.advance(25 * 60 * MINUTE);
    let later = s.get("/api/v1/pairing/requests", Some(&ann.token)).json();
    assert_eq!(later["requests"], json!([]));
}

/// A 3-seat and a 4-seat table fill from requests arriving one by one; a request accepting 2 or
/// 4 joins the 4 already waiting for it rather than waiting for a pair.
fn larger_tables_fill_one_by_one(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let users: Vec<User> = (0..7).map(|i| s.register(&format!("pl{i}"))).collect();
    let three = json!({"variant": "neue-wege", "seats": [3]});
    let a = file(&s, &users[0], three.clone());
    let b = file(&s, &users[1], three.clone());
    assert_eq!(request(&s, &users[0], &a["id"])["state"], "waiting");
    assert_eq!(b["state"], "waiting");
    let c = file(&s, &users[2], three);
    assert_eq!(c["state"], "seated");
    assert_eq!(seated(&s, &c["game_id"], &users[2]), ["pl0", "pl1", "pl2"]);
    assert_eq!(moved_first(&s, &c["game_id"], &users[2]), "pl0");

    let four = json!({"variant": "keltis", "seats": [4]});
    for user in &users[3..6] {
        assert_eq!(file(&s, user, four.clone())["state"], "waiting");
    }
    let last = file(&s, &users[6], json!({"variant": "keltis", "seats": [2, 4]}));
    assert_eq!(last["state"], "seated", "{last}");
    assert_eq!(last["seats"], json!([2, 4]));
    assert_eq!(
        seated(&s, &last["game_id"], &users[6]),
        ["pl3", "pl4", "pl5", "pl6"]
    );
    assert_eq!(moved_first(&s, &last["game_id"], &users[6]), "pl3");
}

/// A bot takes the seat nobody took once the chosen wait has passed, and never for a request
/// that does not allow bots.
fn a_bot_fills_the_seat_after_the_wait_when_allowed(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let [ann, ben] = ["ann", "ben"].map(|n| s.register(n));
    let with_bot = file(
        &s,
        &ann,
        json!({"variant": "keltis", "bot_after_minutes": 30}),
    );
    assert_eq!(with_bot["bot_after_minutes"], 30);
    let alone = file(&s, &ben, json!({"variant": "keltis-card"}));
    s.clock.advance(29 * MINUTE);
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(request(&s, &ann, &with_bot["id"])["state"], "waiting");
    s.clock.advance(2 * MINUTE);
    let seated_now = closed(&s, &ann, &with_bot["id"]);
    assert_eq!(seated_now["state"], "seated");
    let names = seated(&s, &seated_now["game_id"], &ann);
    assert_eq!(names[0], "ann");
    assert_eq!(names[1], "bot-greedy", "the bot that fills seats first");
    // Ben's request, which allows no bot, was in the same passes and still waits, for days.
    s.clock.advance(3 * 24 * 60 * MINUTE);
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(request(&s, &ben, &alone["id"])["state"], "waiting");
}

/// Requests lapse, are cancelled, and are withdrawn when the account is suspended or deleted:
/// a matching request filed afterwards waits. Bad requests get their codes.
fn requests_lapse_are_cancelled_and_withdrawn(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let [ann, ben, cyd, dee, mia] = ["ann", "ben", "cyd", "dee", "mia"].map(|n| s.register(n));
    let card = json!({"variant": "keltis-card", "expires_in_hours": 1});
    let lapsing = file(&s, &ann, card);
    assert_eq!(
        lapsing["expires_at"].as_i64(),
        Some(s.clock.now() + 60 * MINUTE)
    );
    s.clock.advance(61 * MINUTE);
    assert_eq!(closed(&s, &ann, &lapsing["id"])["state"], "expired");

    let cancelled = file(&s, &ann, json!({"variant": "keltis-card"}));
    let path = format!("/api/v1/pairing/requests/{}", cancelled["id"]);
    let a = s.delete(&path, Some(&ben.token));
    assert_eq!(a.status, 404, "another player's request");
    let a = s.delete(&path, Some(&ann.token));
    assert_eq!(
        (a.status, a.json()["state"].clone()),
        (200, "cancelled".into())
    );
    let a = s.delete(&path, Some(&ann.token));
    assert_eq!((a.status, a.code()), (409, "request_closed".into()));

    // Suspended: cyd's request is withdrawn.
    make_moderator(&s, "mia");
    let cyds = file(&s, &cyd, json!({"variant": "keltis-card"}));
    let a = s.post(
        "/api/v1/moderation/players/cyd/suspend",
        Some(&mia.token),
        json!({"hours": 48, "reason": "stalls every game"}),
    );
    assert_eq!(a.status, 204, "{}", a.text);
    // Deleted: dee's request goes with the account.
    let dees = file(&s, &dee, json!({"variant": "keltis", "seats": [3]}));
    let a = s.post(
        "/api/v1/me/delete",
        Some(&dee.token),
        json!({"password": "correct horse"}),
    );
    assert!(a.status < 300, "{}", a.text);
    let row_count = s.count(&format!(
        "SELECT COUNT(*) AS n FROM pairing_requests WHERE id = {}",
        dees["id"]
    ));
    assert_eq!(row_count, 0);
    let bens = file(&s, &ben, json!({"variant": "keltis-card"}));
    assert_eq!(bens["state"], "waiting", "nobody to play with: {bens}");
    let withdrawn = s.count(&format!(
        "SELECT COUNT(*) AS n FROM pairing_requests WHERE id = {} AND state = 'withdrawn'",
        cyds["id"]
    ));
    assert_eq!(withdrawn, 1);

    // Refusals.
    for (body, status, code) in [
        (
            json!({"variant": "keltis-card", "seats": [3]}),
            422,
            "invalid_seats",
        ),
        (
            json!({"variant": "keltis", "seats": [1]}),
            422,
            "invalid_seats",
        ),
        (
            json!({"variant": "keltis", "seats": []}),
            422,
            "invalid_seats",
        ),
        // More sizes than the schema allows, or one twice (issue 68: once stored as [2,3,4]).
        (
            json!({"variant": "keltis", "seats": [2, 3, 4, 2]}),
            422,
            "invalid_body",
        ),
        (
            json!({"variant": "keltis", "seats": [2, 2]}),
            422,
            "invalid_body",
        ),
        (
            json!({"variant": "keltis", "bot_after_minutes": 20000}),
            422,
            "invalid_bot_wait",
        ),
        (
            json!({"variant": "keltis", "expires_in_hours": 0}),
            422,
            "invalid_expiry",
        ),
        (
            json!({"variant": "keltis", "rating_range": {"below": 5000, "above": 0}}),
            422,
            "invalid_rating_range",
        ),
        (json!({"variant": "keltis-card"}), 409, "duplicate_request"),
    ] {
        let a = s.post("/api/v1/pairing/requests", Some(&ben.token), body.clone());
        assert_eq!((a.status, a.code()), (status, code.to_string()), "{body}");
    }
    for n in 2..=4 {
        file(&s, &ben, json!({"variant": "keltis", "seats": [n]}));
    }
    file(&s, &ben, json!({"variant": "neue-wege"}));
    let a = s.post(
        "/api/v1/pairing/requests",
        Some(&ben.token),
        json!({"variant": "neue-wege", "seats": [3]}),
    );
    assert_eq!((a.status, a.code()), (409, "too_many_requests".into()));
}

/// Players who blocked each other are never seated together; ratings outside a range wait.
fn blocked_players_and_ranges_keep_apart(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let [ann, ben, cat] = ["ann", "ben", "cat"].map(|n| s.register(n));
    let a = s.send(
        s.client
            .put(s.url("/api/v1/me/blocks/ben"))
            .bearer_auth(&ann.token),
    );
    assert!(a.status < 300, "{}", a.text);
    let anns = file(&s, &ann, json!({"variant": "keltis"}));
    let bens = file(&s, &ben, json!({"variant": "keltis"}));
    assert_eq!(bens["state"], "waiting", "ann blocked ben");
    // Everyone starts at the same rating: a range of 0 either way still accepts cat.
    let cats = file(
        &s,
        &cat,
        json!({"variant": "keltis", "rating_range": {"below": 0, "above": 0}}),
    );
    assert_eq!(cats["state"], "seated");
    assert_eq!(request(&s, &ann, &anns["id"])["game_id"], cats["game_id"]);
    assert_eq!(request(&s, &ben, &bens["id"])["state"], "waiting");
}

/// A challenge link seats whoever opens it first at an invitation-only game, until the seats are
/// full; a forged link is not found; only a seated player gets the link.
fn challenge_links_seat_whoever_comes_first(db: Db) {
    let s = support::spawn(db, |c| c.public_url = "https://keltis.example".into())
        .expect("a database for this test");
    let [ann, ben, cat, dan] = ["ann", "ben", "cat", "dan"].map(|n| s.register(n));
    let id = s.create(
        &ann,
        json!({"variant": "keltis", "players": 3, "invite_only": true}),
    );
    let a = s.get(
        &format!("/api/v1/games/{id}/challenge-link"),
        Some(&ben.token),
    );
    assert_eq!((a.status, a.code()), (403, "not_seated".into()));
    let a = s.get(
        &format!("/api/v1/games/{id}/challenge-link"),
        Some(&ann.token),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    let link = a.json();
    let token = link["token"].as_str().unwrap().to_string();
    assert_eq!(
        link["link"].as_str(),
        Some(format!("https://keltis.example/join/{token}").as_str())
    );
    // The page of the link is the web client's.
    let page = s.get(&format!("/join/{token}"), None);
    assert_eq!(page.status, 200);
    // A forged token, another game's id with this MAC: not found.
    let mac = token.split_once('-').unwrap().1;
    for forged in [
        format!("{}-{mac}", id + 1),
        format!("{id}-{}", "0".repeat(64)),
        "x".into(),
    ] {
        let a = s.post(
            &format!("/api/v1/challenges/{forged}"),
            Some(&ben.token),
            json!({}),
        );
        assert_eq!(a.status, 404, "{forged}: {}", a.text);
    }
    let join = |user: &User| {
        s.post(
            &format!("/api/v1/challenges/{token}"),
            Some(&user.token),
            json!({}),
        )
    };
    let a = join(&ben);
    assert_eq!((a.status, a.json()["status"].clone()), (200, "open".into()));
    let a = join(&ben);
    assert_eq!((a.status, a.code()), (409, "already_seated".into()));
    let a = join(&cat);
    assert_eq!(
        (a.status, a.json()["status"].clone()),
        (200, "active".into()),
        "the table is full"
    );
    assert_eq!(seated(&s, &json!(id), &ann), ["ann", "ben", "cat"]);
    let a = join(&dan);
    assert_eq!((a.status, a.code()), (409, "game_not_open".into()));
    let a = s.get(
        &format!("/api/v1/games/{id}/challenge-link"),
        Some(&ann.token),
    );
    assert_eq!((a.status, a.code()), (409, "game_not_open".into()));
}

/// An outside bot files requests like anyone, and sits only with requests that allow bots.
fn an_outside_bot_sits_only_with_requests_allowing_bots(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let [robo, ann, cat] = ["robo", "ann", "cat"].map(|n| s.register(n));
    let a = s.post(
        "/api/v1/me/bot",
        Some(&robo.token),
        json!({"password": "correct horse"}),
    );
    assert!(a.status < 300, "{}", a.text);
    let bots = file(&s, &robo, json!({"variant": "keltis"}));
    let anns = file(&s, &ann, json!({"variant": "keltis"}));
    assert_eq!(anns["state"], "waiting", "ann allows no bot");
    let cats = file(
        &s,
        &cat,
        json!({"variant": "keltis", "bot_after_minutes": 600}),
    );
    assert_eq!(cats["state"], "seated", "{cats}");
    assert_eq!(request(&s, &robo, &bots["id"])["game_id"], cats["game_id"]);
    assert_eq!(seated(&s, &cats["game_id"], &cat), ["robo", "cat"]);
    assert_eq!(request(&s, &ann, &anns["id"])["state"], "waiting");
}

on_both_databases!(
    an_outside_bot_sits_only_with_requests_allowing_bots,
    challenge_links_seat_whoever_comes_first,
    two_matching_requests_make_one_game,
    larger_tables_fill_one_by_one,
    a_bot_fills_the_seat_after_the_wait_when_allowed,
    requests_lapse_are_cancelled_and_withdrawn,
    blocked_players_and_ranges_keep_apart,
);

/// Two instances on one PostgreSQL, requests filed concurrently on both: every request in at
/// most one game, no player in two, every game of two requests that agree.
#[test]
#[cfg_attr(not(postgres_tests), ignore = "PostgreSQL: set TEST_DATABASE_URL")]
fn two_instances_seat_each_request_once() {
    let (a, b) = support::two_instances().expect("TEST_DATABASE_URL");
    let users: Vec<User> = (0..16).map(|i| a.register(&format!("qu{i}"))).collect();
    let ids: Vec<(usize, Value)> = std::thread::scope(|scope| {
        let handles: Vec<_> = users
            .iter()
            .enumerate()
            .map(|(i, user)| {
                let server = if i % 2 == 0 { &a } else { &b };
                scope.spawn(move || {
                    let body = json!({"variant": if i % 4 < 2 { "keltis" } else { "keltis-card" }});
                    (i, file(server, user, body)["id"].clone())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a filing thread"))
            .collect()
    });
    let mut games: std::collections::HashMap<i64, Vec<usize>> = Default::default();
    for (i, id) in &ids {
        let r = closed(&a, &users[*i], id);
        assert_eq!(r["state"], "seated", "{r}");
        games
            .entry(r["game_id"].as_i64().unwrap())
            .or_default()
            .push(*i);
    }
    assert_eq!(games.len(), 8, "{games:?}");
    for (game, members) in &games {
        assert_eq!(members.len(), 2, "game {game}: {members:?}");
        let names = seated(&a, &json!(game), &users[members[0]]);
        let mut expected: Vec<String> = members.iter().map(|&i| users[i].name.clone()).collect();
        let mut got = names.clone();
        expected.sort();
        got.sort();
        assert_eq!(got, expected);
    }
    let seats = a.count("SELECT COUNT(*) AS n FROM game_seats");
    assert_eq!(seats, 16, "every player in one game");
}
