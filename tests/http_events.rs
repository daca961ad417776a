//! Events (issue 47) over HTTP on both databases: Swisses played to their standings by people
//! and bots, with byes, withdrawals and time-outs, at two seats and at three; two instances
//! dealing each round once. Entry rules, round robins and editions: `http_event_rules.rs`.

use crate::support;

use std::collections::BTreeSet;

use serde_json::json;
use support::events::{byes_of, create_event, enter, event_news, games_of, user, wait_event};
use support::players::resign;
use support::{Db, User};

const HOUR: i64 = 3_600_000;

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
/// twice to one player), a round that runs past its time decided by the clock (the seat to
/// act times out) so that the event moves on, and a withdrawal in the last round.
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
    let mut withdrawn: Option<String> = None;
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
            if round == 3 && withdrawn.is_none() {
                // A withdrawal during the last round: the game is resigned, lost.
                let a = s.delete(
                    &format!("/api/v1/events/{id}/entries/{}", loser.name),
                    Some(&loser.token),
                );
                assert_eq!(a.status, 200, "{}", a.text);
                assert_eq!(s.game(*game, maker)["status"], "over");
                withdrawn = Some(loser.name.clone());
            } else {
                resign(&s, *game, loser);
            }
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
    let withdrawn = withdrawn.expect("a withdrawal in round three");
    let left = standings.iter().find(|s| s["name"] == withdrawn.as_str());
    assert_eq!(left.unwrap()["withdrawn"], true, "{e}");
    let games: usize = (1..=3).map(|r| games_of(&e, r).len()).sum();
    let total: f64 = standings
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .sum();
    // A point a game (the aborted one to the player who did not time out), a point a full bye,
    // half a point the late entry's half bye.
    assert_eq!(total, games as f64 + byes.len() as f64 + 0.5, "{e}");
}

/// Nine entrants at tables of three (seven people, two bots the maker entered), two rounds:
/// one person withdraws in round one (the stand-in bot plays their seat on, scored where it
/// finishes), so round two seats eight at two tables with two byes, with as few repeat
/// table-mates as those seated allow; in round two one person lets their day run out (time-out).
/// Bots play their own seats and the seats of people who resign.
fn a_three_seat_swiss_with_bots(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let people: Vec<User> = (0..7).map(|i| s.register(&format!("tri{i}"))).collect();
    let maker = &people[0];
    let e = create_event(
        &s,
        maker,
        json!({"name": "Three a table", "format": "swiss", "variant": "keltis", "table_size": 3,
               "rounds": 2, "max_players": 9, "min_players": 9,
               "time_control": {"type": "per_turn", "seconds": 86400}}),
    );
    let id = e["event"]["id"].as_i64().unwrap();
    assert_eq!(e["event"]["points_by_place"], json!([2.0, 1.0, 0.0]));
    assert_eq!(e["event"]["bye_points"], 1.0);
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
            Some(&maker.token),
            json!({ "bot": bot }),
        );
        assert_eq!(a.status, 201, "{}", a.text);
    }
    let human = |name: &str| people.iter().find(|p| p.name == name);
    let resign_all = |game: i64, seats: &[String], except: Option<&str>| {
        for name in seats.iter().filter(|n| Some(n.as_str()) != except) {
            if let Some(p) = human(name) {
                let a = s.post(
                    &format!("/api/v1/games/{game}/resign"),
                    Some(&p.token),
                    json!({}),
                );
                assert!(a.status == 200 || a.code() == "game_over", "{}", a.text);
            }
        }
    };

    // Full: it starts at once. Round one: three tables; the first person seated withdraws, the
    // others resign.
    let e = wait_event(&s, maker, id, |e| e["event"]["current_round"] == 1);
    let round_one = games_of(&e, 1);
    assert_eq!(round_one.len(), 3, "{e}");
    let (first_game, first_seats) = &round_one[0];
    let leaver = first_seats
        .iter()
        .find_map(|n| human(n))
        .expect("a person at the first table");
    let a = s.delete(
        &format!("/api/v1/events/{id}/entries/{}", leaver.name),
        Some(&leaver.token),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(
        s.game(*first_game, maker)["status"],
        "active",
        "at three seats the stand-in plays on"
    );
    for (game, seats) in &round_one {
        resign_all(*game, seats, Some(&leaver.name));
    }

    // Round two: eight players, two tables and two byes.
    let e = wait_event(&s, maker, id, |e| e["event"]["current_round"] == 2);
    let round_two = games_of(&e, 2);
    assert_eq!(round_two.len(), 2, "{e}");
    assert_eq!(byes_of(&e, 2).len(), 2, "{e}");
    let seated: Vec<&String> = round_two.iter().flat_map(|(_, seats)| seats).collect();
    assert!(!seated.contains(&&leaver.name), "{} withdrew", leaver.name);
    let met_before = |a: &str, b: &str| {
        round_one
            .iter()
            .any(|(_, seats)| seats.iter().any(|n| n == a) && seats.iter().any(|n| n == b))
    };
    let repeats = |table: &[&String]| {
        let mut n = 0;
        for (i, a) in table.iter().enumerate() {
            n += table[i + 1..].iter().filter(|b| met_before(a, b)).count();
        }
        n
    };
    let dealt: usize = round_two
        .iter()
        .map(|(_, seats)| repeats(&seats.iter().collect::<Vec<_>>()))
        .sum();
    // Every way to split the six seated into two tables of three (the first player's table
    // chosen by its two others).
    let fewest = (1..6)
        .flat_map(|i| (i + 1..6).map(move |j| (i, j)))
        .map(|(i, j)| {
            let at = |first: bool| -> Vec<&String> {
                (0..6)
                    .filter(|k| [0, i, j].contains(k) == first)
                    .map(|k| seated[k])
                    .collect()
            };
            repeats(&at(true)) + repeats(&at(false))
        })
        .min()
        .unwrap();
    assert_eq!(dealt, fewest, "as few repeat table-mates as can be: {e}");

    // The first table waits for a person to act, who lets the day run out; the rest resign.
    let (timed_game, timed_seats) = &round_two[0];
    let view = s.wait_for(*timed_game, maker, |v| {
        v["state"]["to_act"]
            .as_u64()
            .is_some_and(|seat| human(&timed_seats[seat as usize]).is_some())
    });
    let sleeper = &timed_seats[view["state"]["to_act"].as_u64().unwrap() as usize];
    resign_all(*timed_game, timed_seats, Some(sleeper));
    let (other_game, other_seats) = &round_two[1];
    resign_all(*other_game, other_seats, None);
    s.clock.advance(25 * HOUR);
    s.wait_for(*timed_game, maker, |v| v["status"] != "active");

    let e = wait_event(&s, maker, id, |e| e["event"]["state"] == "finished");
    let standings = e["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 9);
    assert_eq!(standings[0]["tie_breaks"][0]["name"], "opponents_points");
    let left = standings
        .iter()
        .find(|p| p["name"] == leaver.name.as_str())
        .unwrap();
    assert_eq!(left["withdrawn"], true);
    assert_eq!(left["games"], 1);
    let total: f64 = standings
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .sum();
    // Three points a table (2 + 1 + 0, a time-out included), five tables; a point each bye.
    assert_eq!(total, 5.0 * 3.0 + 2.0, "{e}");
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
    a_three_seat_swiss_with_bots,
);

#[test]
#[cfg_attr(not(postgres_tests), ignore = "PostgreSQL: set TEST_DATABASE_URL")]
fn two_instances_on_postgres_deal_each_round_once() {
    two_instances_deal_each_round_once();
}
