//! Events (issue 47) over HTTP on both databases: a Swiss of Keltis Card from its entries to its
//! standings, with a bye, a withdrawal and a time-out; a three-seat Swiss of Keltis with bots;
//! a round robin; entry conditions and bad input; a recurring event making its next edition;
//! two instances dealing each round once.

mod support;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};
use support::players::{make_moderator, resign};
use support::{Db, TestServer, User};

const HOUR: i64 = 3_600_000;

fn create_event(s: &TestServer, maker: &User, body: Value) -> Value {
    let a = s.post("/api/v1/events", Some(&maker.token), body);
    assert_eq!(a.status, 201, "{}", a.text);
    a.json()
}

fn event(s: &TestServer, user: &User, id: i64) -> Value {
    let a = s.get(&format!("/api/v1/events/{id}"), Some(&user.token));
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()
}

/// The event once `check` holds (the events worker moves it on).
fn wait_event(s: &TestServer, user: &User, id: i64, check: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..600 {
        let e = event(s, user, id);
        if check(&e) {
            return e;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("never happened: {}", event(s, user, id));
}

fn enter(s: &TestServer, user: &User, id: i64) -> support::Answer {
    s.post(
        &format!("/api/v1/events/{id}/entries"),
        Some(&user.token),
        json!({}),
    )
}

/// Round `round`'s games: id and players by seat.
fn games_of(e: &Value, round: usize) -> Vec<(i64, Vec<String>)> {
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

fn byes_of(e: &Value, round: usize) -> Vec<String> {
    e["rounds"][round - 1]["byes"]
        .as_array()
        .expect("byes")
        .iter()
        .map(|b| b["name"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn user<'a>(users: &'a [User], name: &str) -> &'a User {
    users
        .iter()
        .find(|u| u.name == name)
        .expect("a player of the test")
}

fn event_news(s: &TestServer, user: &User) -> Vec<String> {
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

/// Five players enter a three-round Swiss of Keltis Card; round one gives the lowest seed a bye;
/// one player withdraws during round one (their game is lost); one game of round two ends on
/// time; each round is dealt once the last game of the one before is decided, without a repeat
/// opponent; at the end the standings add up and everyone hears their place.
fn a_swiss_of_keltis_card_from_entries_to_standings(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players: Vec<User> = ["ann", "ben", "cat", "dan", "eve"]
        .map(|n| s.register(n))
        .to_vec();
    let ann = &players[0];
    let starts_at = s.clock.now() + HOUR;
    let e = create_event(
        &s,
        ann,
        json!({"name": "Friday Swiss", "format": "swiss", "variant": "keltis-card", "rounds": 3,
               "starts_at": starts_at, "min_players": 4,
               "time_control": {"type": "per_turn", "seconds": 86400}}),
    );
    let id = e["event"]["id"].as_i64().expect("an event id");
    assert_eq!(e["event"]["state"], "registering");
    assert_eq!(e["event"]["points_by_place"], json!([1.0, 0.0]));
    assert_eq!(e["event"]["made_by"], "ann");
    for p in &players {
        let a = enter(&s, p, id);
        assert_eq!(a.status, 201, "{}", a.text);
    }
    assert_eq!(enter(&s, ann, id).code(), "already_entered");
    let listed = s.get("/api/v1/events", Some(&ann.token)).json();
    assert!(
        listed.as_array().unwrap().iter().any(|l| l["id"] == id),
        "{listed}"
    );
    assert_eq!(event_news(&s, &players[1]), vec!["entered"]);

    // The start: round one, two games and a bye for the lowest seed (all rated alike: the last
    // to enter).
    s.clock.advance(HOUR + 1_000);
    let e = wait_event(&s, ann, id, |e| e["event"]["current_round"] == 1);
    assert_eq!(e["event"]["state"], "running");
    assert_eq!(games_of(&e, 1).len(), 2, "{e}");
    assert_eq!(byes_of(&e, 1), vec!["eve"]);
    for (game, _) in games_of(&e, 1) {
        // K12 (as events amend it, docs/rules-notes.md): the pairing chose who moves first, the
        // first seat, rather than the draw.
        assert_eq!(s.game(game, ann)["state"]["to_act"], 0);
    }
    assert_eq!(enter(&s, &s.register("late"), id).code(), "entries_closed");

    // Dan withdraws: his game is resigned, lost.
    let (dans_game, _) = games_of(&e, 1)
        .into_iter()
        .find(|(_, seats)| seats.contains(&"dan".to_string()))
        .expect("dan plays round one");
    let a = s.delete(
        &format!("/api/v1/events/{id}/entries/dan"),
        Some(&players[3].token),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(s.game(dans_game, ann)["status"], "over");
    let a = s.delete(
        &format!("/api/v1/events/{id}/entries/ann"),
        Some(&players[1].token),
    );
    assert_eq!(a.code(), "not_your_entry");

    let mut met: BTreeSet<(String, String)> = BTreeSet::new();
    for round in 1..=3 {
        let e = wait_event(&s, ann, id, |e| e["event"]["current_round"] == round);
        for (game, seats) in games_of(&e, round as usize) {
            let pair = (
                seats[0].clone().min(seats[1].clone()),
                seats[0].clone().max(seats[1].clone()),
            );
            assert!(met.insert(pair.clone()), "{pair:?} met twice: {e}");
            assert!(
                !seats.contains(&"dan".to_string()) || round == 1,
                "dan withdrew"
            );
            if s.game(game, ann)["status"] == "over" {
                continue;
            }
            if round == 2 && met.len() == 4 {
                // A time-out: both play a turn, then the second lets the day run out.
                let by_seat: Vec<User> = seats.iter().map(|n| user(&players, n).clone()).collect();
                for _ in 0..3 {
                    s.finish_turn(game, &by_seat);
                }
                s.clock.advance(25 * HOUR);
                s.wait_for(game, ann, |v| v["status"] == "over");
            } else {
                // The second seat resigns: the first wins.
                resign(&s, game, user(&players, &seats[1]));
            }
        }
    }
    let e = wait_event(&s, ann, id, |e| e["event"]["state"] == "finished");
    let standings = e["standings"].as_array().expect("standings");
    assert_eq!(standings.len(), 5);
    // Every decided game gives out one point; a bye one.
    let games: usize = (1..=3).map(|r| games_of(&e, r).len()).sum();
    let byes: usize = (1..=3).map(|r| byes_of(&e, r).len()).sum();
    let total: f64 = standings
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, (games + byes) as f64, "{e}");
    assert_eq!(standings[0]["place"], 1);
    assert_eq!(standings[0]["tie_breaks"][0]["name"], "buchholz");
    let dan = standings.iter().find(|s| s["name"] == "dan").unwrap();
    assert_eq!(dan["withdrawn"], true);
    assert_eq!(dan["games"], 1);
    assert_eq!(e["crosstable"].as_array().unwrap().len(), 5);
    let eve_row = e["crosstable"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "eve")
        .unwrap();
    assert_eq!(eve_row["rounds"][0]["bye"], true);
    assert_eq!(eve_row["rounds"].as_array().unwrap().len(), 3);
    for p in &players {
        let news = event_news(&s, p);
        assert!(news.contains(&"over".to_string()), "{}: {news:?}", p.name);
    }
    assert_eq!(
        event_news(&s, &players[4])
            .iter()
            .filter(|n| *n == "round")
            .count(),
        3
    );
}

/// Eight entrants (seven people and a bot) in a three-round Swiss of Keltis Card without a time
/// control: a late entry in round one (a half bye for it), a fair bye in each later round (never
/// twice to one player), and a round that runs past its time decided by the clock (the seat to
/// act times out) so that the event moves on.
fn a_swiss_with_a_bot_a_late_entry_and_a_round_past_its_time(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let people: Vec<User> = (0..8).map(|i| s.register(&format!("sw{i}"))).collect();
    let maker = &people[0];
    let e = create_event(
        &s,
        maker,
        json!({"name": "Eight", "format": "swiss", "variant": "keltis-card", "rounds": 3,
               "starts_at": s.clock.now() + HOUR, "min_players": 8, "late_entry_until_round": 2,
               "round_hours": 48}),
    );
    let id = e["event"]["id"].as_i64().unwrap();
    for p in &people[..7] {
        assert_eq!(enter(&s, p, id).status, 201);
    }
    let a = s.post(
        &format!("/api/v1/events/{id}/entries"),
        Some(&maker.token),
        json!({"bot": "bot-random"}),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    s.clock.advance(HOUR + 1_000);
    let e = wait_event(&s, maker, id, |e| e["event"]["current_round"] == 1);
    assert_eq!(games_of(&e, 1).len(), 4, "{e}");
    // Late: the eighth person enters during round one, with a half bye for it.
    let late = &people[7];
    let a = enter(&s, late, id);
    assert_eq!(a.status, 201, "{}", a.text);
    assert_eq!(
        a.json()["rounds"][0]["byes"],
        json!([{"name": "sw7", "points": 0.5, "full": false}])
    );
    let human = |name: &str| people.iter().find(|p| p.name == name);
    let mut byes: Vec<String> = vec![];
    for round in 1..=3 {
        let e = wait_event(&s, maker, id, |e| e["event"]["current_round"] == round);
        if round > 1 {
            let given = byes_of(&e, round as usize);
            assert_eq!(given.len(), 1, "nine players: one bye: {e}");
            assert!(
                !byes.contains(&given[0]),
                "a second bye to {}: {e}",
                given[0]
            );
            byes.extend(given);
        }
        let games = games_of(&e, round as usize);
        // In round two, one game between two people is left to the round's time.
        let left = (round == 2)
            .then(|| {
                games
                    .iter()
                    .position(|(_, seats)| seats.iter().all(|n| human(n).is_some()))
            })
            .flatten();
        for (i, (game, seats)) in games.iter().enumerate() {
            if Some(i) == left {
                continue;
            }
            let loser = seats
                .iter()
                .rev()
                .find_map(|n| human(n))
                .expect("a person at the table");
            resign(&s, *game, loser);
        }
        if let Some(i) = left {
            let game = games[i].0;
            assert_eq!(s.game(game, maker)["status"], "active");
            s.clock.advance(48 * HOUR + 1_000);
            let ended = s.wait_for(game, maker, |v| v["status"] != "active");
            assert_eq!(ended["status"], "aborted", "nobody played: {ended}");
        }
    }
    let e = wait_event(&s, maker, id, |e| e["event"]["state"] == "finished");
    let standings = e["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 9);
    assert!(standings.iter().any(|s| s["name"] == "bot-random"));
    let games: usize = (1..=3).map(|r| games_of(&e, r).len()).sum();
    let total: f64 = standings
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .sum();
    // A point a game (the aborted one to the player who did not time out), a point a full bye,
    // half a point the late entry's half bye.
    assert_eq!(total, games as f64 + byes.len() as f64 + 0.5, "{e}");
}

/// Bad input gets its codes; entry conditions are kept; a recurring event (operators only)
/// makes its next edition when it starts; too few entries cancel an event, and its maker may
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

    // A recurring event, made by an operator: at its start (one entry, too few: cancelled) the
    // next edition is made a week later.
    make_moderator(&s, "oper");
    let weekly = create_event(
        &s,
        &op,
        with(json!({"repeat_every_days": 7, "min_players": 2})),
    );
    let weekly_id = weekly["event"]["id"].as_i64().unwrap();
    assert_eq!(enter(&s, &cat, weekly_id).status, 201);
    s.clock.advance(HOUR + 1_000);
    let done = wait_event(&s, &op, weekly_id, |e| e["event"]["state"] == "cancelled");
    let next = done["event"]["next_edition_id"]
        .as_i64()
        .expect("a next edition");
    let next = event(&s, &op, next);
    assert_eq!(next["event"]["state"], "registering");
    assert_eq!(next["event"]["starts_at"], at + 7 * 24 * HOUR);
    assert_eq!(next["event"]["made_by"], Value::Null);
    assert_eq!(next["event"]["repeat_every_days"], 7);
    assert!(event_news(&s, &cat).contains(&"cancelled".to_string()));
}

/// Nine entrants at tables of three (seven people, two bots the maker entered): two rounds of
/// three tables, no two players together twice when the standings allow, bots playing their own
/// seats and the seats of people who resign.
fn a_three_seat_swiss_with_bots(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let people: Vec<User> = (0..7).map(|i| s.register(&format!("tri{i}"))).collect();
    let e = create_event(
        &s,
        &people[0],
        json!({"name": "Three a table", "format": "swiss", "variant": "keltis", "table_size": 3,
               "rounds": 2, "max_players": 9, "min_players": 9}),
    );
    let id = e["event"]["id"].as_i64().unwrap();
    assert_eq!(e["event"]["points_by_place"], json!([2.0, 1.0, 0.0]));
    for p in &people {
        assert_eq!(enter(&s, p, id).status, 201);
    }
    let a = s.post(
        &format!("/api/v1/events/{id}/entries"),
        Some(&people[1].token),
        json!({"bot": "bot-random"}),
    );
    assert_eq!(a.code(), "not_event_maker");
    for bot in ["bot-random", "bot-greedy"] {
        let a = s.post(
            &format!("/api/v1/events/{id}/entries"),
            Some(&people[0].token),
            json!({ "bot": bot }),
        );
        assert_eq!(a.status, 201, "{}", a.text);
    }
    // Full: it starts at once.
    wait_event(&s, &people[0], id, |e| e["event"]["current_round"] == 1);
    let mut together: BTreeMap<(String, String), u32> = BTreeMap::new();
    for round in 1..=2 {
        let e = wait_event(&s, &people[0], id, |e| e["event"]["current_round"] == round);
        let games = games_of(&e, round as usize);
        assert_eq!(games.len(), 3, "{e}");
        for (game, seats) in games {
            assert_eq!(seats.len(), 3);
            for (i, a) in seats.iter().enumerate() {
                for b in &seats[i + 1..] {
                    *together
                        .entry((a.clone().min(b.clone()), a.clone().max(b.clone())))
                        .or_default() += 1;
                }
            }
            // People resign; bots play on for them.
            for name in &seats {
                if let Some(p) = people.iter().find(|p| &p.name == name) {
                    let a = s.post(
                        &format!("/api/v1/games/{game}/resign"),
                        Some(&p.token),
                        json!({}),
                    );
                    assert!(a.status == 200 || a.code() == "game_over", "{}", a.text);
                }
            }
        }
    }
    assert!(together.values().all(|&n| n == 1), "{together:?}");
    let e = wait_event(&s, &people[0], id, |e| e["event"]["state"] == "finished");
    assert_eq!(e["standings"].as_array().unwrap().len(), 9);
    assert_eq!(
        e["standings"][0]["tie_breaks"][0]["name"],
        "opponents_points"
    );
    let total: f64 = e["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .sum();
    assert_eq!(
        total,
        6.0 * 3.0,
        "three points a table (2 + 1 + 0), six tables"
    );
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

/// Two instances on one PostgreSQL, both running the events pass: the last games of a round
/// ending at the same moment on each deal the next round once.
fn two_instances_deal_each_round_once() {
    let (a, b) = support::two_instances().expect("TEST_DATABASE_URL");
    let players: Vec<User> = (0..8).map(|i| a.register(&format!("twin{i}"))).collect();
    let e = create_event(
        &a,
        &players[0],
        json!({"name": "Twins", "format": "swiss", "variant": "keltis-card", "rounds": 2,
               "max_players": 8}),
    );
    let id = e["event"]["id"].as_i64().unwrap();
    for (i, p) in players.iter().enumerate() {
        let server = if i % 2 == 0 { &a } else { &b };
        assert_eq!(enter(server, p, id).status, 201);
    }
    let e = wait_event(&a, &players[0], id, |e| e["event"]["current_round"] == 1);
    let games = games_of(&e, 1);
    std::thread::scope(|scope| {
        for (i, (game, seats)) in games.iter().enumerate() {
            let server = if i % 2 == 0 { &a } else { &b };
            let loser = user(&players, &seats[1]).clone();
            scope.spawn(move || resign(server, *game, &loser));
        }
    });
    let e = wait_event(&a, &players[0], id, |e| e["event"]["current_round"] == 2);
    assert_eq!(games_of(&e, 2).len(), 4, "{e}");
    let rows = a.count(&format!(
        "SELECT COUNT(*) AS n FROM event_pairings WHERE event_id = {id} AND round = 2"
    ));
    assert_eq!(rows, 8, "each player dealt once in round two");
    let seats = a.count("SELECT COUNT(*) AS n FROM game_seats");
    assert_eq!(seats, 16, "eight games in all, none twice");
}

on_both_databases!(
    a_swiss_of_keltis_card_from_entries_to_standings,
    a_swiss_with_a_bot_a_late_entry_and_a_round_past_its_time,
    events_are_checked_conditions_kept_and_editions_made,
    a_three_seat_swiss_with_bots,
    a_round_robin_deals_every_game_of_a_group_at_once,
);

#[test]
#[cfg_attr(not(postgres_tests), ignore = "PostgreSQL: set TEST_DATABASE_URL")]
fn two_instances_on_postgres_deal_each_round_once() {
    two_instances_deal_each_round_once();
}
