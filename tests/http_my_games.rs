//! The games waiting for you (`GET /me/games`, issue 29): with 60 games, the one waiting for you
//! opens the first page even when it is the oldest; the shelves come in their order (your turn by
//! deadline, invitations, others to act, finished); pages cover every game once; each entry's
//! `your_turn`, seats to act and deadline equal the game's own view; the count of games waiting
//! is right; the user stream announces a game entering and leaving your turn. On SQLite, and on
//! PostgreSQL when `TEST_DATABASE_URL` is set.

use crate::support;

use std::collections::HashSet;

use serde_json::{json, Value};
use support::sse::Sse;
use support::{Db, TestServer, User};

/// Play until `user`'s seat is to act (or, with `mine` false, until it is not).
fn play_until(s: &TestServer, id: i64, players: &[User], seat: u64, mine: bool) {
    for _ in 0..6 {
        let to_act = s.game(id, &players[0])["state"]["to_act"].clone();
        if (to_act == seat) == mine {
            return;
        }
        s.finish_turn(id, players);
    }
    panic!("seat {seat} never {}", if mine { "to act" } else { "done" });
}

/// Every page of `user`'s games, `limit` at a time.
fn all_pages(s: &TestServer, user: &User, limit: usize) -> (Vec<Value>, Vec<i64>) {
    let mut games = Vec::new();
    let mut counts = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..100 {
        let path = match &cursor {
            Some(c) => format!("/api/v1/me/games?limit={limit}&cursor={c}"),
            None => format!("/api/v1/me/games?limit={limit}"),
        };
        let a = s.get(&path, Some(&user.token));
        assert_eq!(a.status, 200, "{path}: {}", a.text);
        let page = a.json();
        let items = page["games"].as_array().unwrap().clone();
        assert!(items.len() <= limit);
        games.extend(items);
        counts.push(page["your_turn_count"].as_i64().unwrap());
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return (games, counts),
        }
    }
    panic!("no last page");
}

fn shelf_rank(shelf: &Value) -> u8 {
    match shelf.as_str().unwrap() {
        "your_turn" => 0,
        "invited" => 1,
        "waiting" => 2,
        "finished" => 3,
        other => panic!("shelf {other}"),
    }
}

fn the_games_waiting_for_you_come_first(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let anna = s.register("anna");
    let bert = s.register("bert");
    let pair = [anna.clone(), bert.clone()];
    // The oldest game: anna's turn, a day to play.
    let oldest = s.started_with(
        json!({"variant": "keltis-card", "players": 2, "time_control": {"type": "per_turn", "seconds": 86400}}),
        &pair,
    );
    play_until(&s, oldest, &pair, 0, true);
    // A second game of anna's turn with a shorter deadline, and one without a deadline.
    let urgent = s.started_with(
        json!({"variant": "keltis-card", "players": 2, "time_control": {"type": "per_turn", "seconds": 3600}}),
        &pair,
    );
    play_until(&s, urgent, &pair, 0, true);
    let untimed = s.started_game("keltis", &pair);
    play_until(&s, untimed, &pair, 0, true);
    // 50 newer games where bert is to act.
    let mut waiting = Vec::new();
    for _ in 0..50 {
        let id = s.started_game("keltis-card", &pair);
        play_until(&s, id, &pair, 0, false);
        waiting.push(id);
    }
    // Open games of anna's, waiting for players.
    for _ in 0..3 {
        s.create(&anna, json!({"variant": "keltis", "players": 3}));
    }
    // Invitations to anna.
    for _ in 0..2 {
        let id = s.create(
            &bert,
            json!({"variant": "keltis", "players": 2, "invite_only": true}),
        );
        let a = s.post(
            &format!("/api/v1/games/{id}/invites"),
            Some(&bert.token),
            json!({"user": "anna"}),
        );
        assert_eq!(a.status, 200, "{}", a.text);
    }
    // Finished games: anna resigns.
    for _ in 0..2 {
        let id = s.started_game("keltis-card", &pair);
        let a = s.post(
            &format!("/api/v1/games/{id}/resign"),
            Some(&anna.token),
            json!({}),
        );
        assert_eq!(a.status, 200, "{}", a.text);
    }

    let (games, counts) = all_pages(&s, &anna, 7);
    assert_eq!(games.len(), 3 + 50 + 3 + 2 + 2, "every game once");
    let ids: HashSet<i64> = games.iter().map(|g| g["id"].as_i64().unwrap()).collect();
    assert_eq!(ids.len(), games.len(), "no game twice");
    assert!(counts.iter().all(|c| *c == 3), "{counts:?}");
    // Your turn first, by deadline (none last), then the shelves in order.
    let first: Vec<i64> = games[..3]
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert_eq!(first, vec![urgent, oldest, untimed]);
    for pair in games.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert!(
            shelf_rank(&a["shelf"]) <= shelf_rank(&b["shelf"]),
            "{a} before {b}"
        );
        if a["shelf"] == b["shelf"] && a["shelf"] != "your_turn" {
            assert!(
                a["last_move_at"].as_i64() >= b["last_move_at"].as_i64(),
                "most recent first"
            );
        }
    }
    let count = |shelf: &str| games.iter().filter(|g| g["shelf"] == shelf).count();
    assert_eq!(
        (
            count("your_turn"),
            count("invited"),
            count("waiting"),
            count("finished")
        ),
        (3, 2, 53, 2)
    );
    // Each entry agrees with the game's own view.
    for g in &games {
        let id = g["id"].as_i64().unwrap();
        let view = s.game(id, &anna);
        assert_eq!(g["your_seat"], view["your_seat"], "game {id}");
        assert_eq!(g["version"], view["version"], "game {id}");
        let active = view["status"] == "active";
        let to_act = &view["state"]["to_act"];
        let expected_to_act = if active && !to_act.is_null() {
            json!([to_act])
        } else {
            json!([])
        };
        assert_eq!(g["to_act"], expected_to_act, "game {id}");
        assert_eq!(
            g["your_turn"],
            json!(active && *to_act == view["your_seat"]),
            "game {id}"
        );
        let deadline = if active {
            view["clock"]["deadline"].clone()
        } else {
            Value::Null
        };
        assert_eq!(g["deadline"], deadline, "game {id}");
        assert_eq!(g["time_left_ms"].is_null(), deadline.is_null(), "game {id}");
    }
    // Bert's list: the 50 waiting games are his turn.
    let (bert_games, bert_counts) = all_pages(&s, &bert, 200);
    assert_eq!(bert_counts, vec![50]);
    assert!(bert_games[..50].iter().all(|g| g["your_turn"] == true));
    assert!(waiting
        .iter()
        .all(|id| bert_games[..50].iter().any(|g| g["id"] == *id)));
    // Cursors outside the pattern are refused.
    for bad in ["4.1.1.1", "0.1.1", "0.-1.1.1", "x"] {
        let a = s.get(&format!("/api/v1/me/games?cursor={bad}"), Some(&anna.token));
        assert_eq!((a.status, a.code()), (400, "invalid_query".into()), "{bad}");
    }
}

/// The user stream tells the client when its list changes: a game entering your turn
/// (`your_turn`), and a game leaving the list's first shelves at its end (`game_over`).
fn the_user_stream_announces_changes_of_the_list(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let anna = s.register("anna");
    let bert = s.register("bert");
    let pair = [anna.clone(), bert.clone()];
    let id = s.started_game("keltis-card", &pair);
    play_until(&s, id, &pair, 0, false);
    let mut stream = Sse::open(&s.url("/api/v1/me/stream"), Some(&anna.token), None);
    let mut kinds: Vec<String> = Vec::new();
    play_until(&s, id, &pair, 0, true);
    let page = s.get("/api/v1/me/games", Some(&anna.token)).json();
    assert_eq!(page["games"][0]["id"], id);
    assert_eq!(page["games"][0]["shelf"], "your_turn");
    while !kinds.iter().any(|k| k == "your_turn") {
        kinds.push(stream.event().expect("your_turn").1);
    }
    let a = s.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&bert.token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    while !kinds.iter().any(|k| k == "game_over") {
        kinds.push(stream.event().expect("game_over").1);
    }
    let page = s.get("/api/v1/me/games", Some(&anna.token)).json();
    assert_eq!(page["games"][0]["shelf"], "finished");
    assert_eq!(page["your_turn_count"], 0);
}

on_both_databases!(
    the_games_waiting_for_you_come_first,
    the_user_stream_announces_changes_of_the_list,
);
