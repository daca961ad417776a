//! Correspondence play: time controls and clocks (time moved by the test's own clock), time-outs,
//! and players who leave a game of three or four. On SQLite, and on PostgreSQL when
//! `TEST_DATABASE_URL` is set.

use crate::support;

use serde_json::{json, Value};
use support::{kinds, Db, User};

/// In a three-player game a resignation does not end the game: the stand-in bot plays the seat,
/// the others play on to the end, and the resigner cannot win and ranks last.
fn resigning_from_three_players_lets_the_others_play_on(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players: Vec<User> = (0..3).map(|i| s.register(&format!("trio{i}"))).collect();
    let id = s.started_game("keltis", &players);
    let a = s.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&players[1].token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    let after = a.json();
    assert_eq!(after["status"], "active", "the game goes on");
    assert_eq!(after["state"]["seats"][1]["retired"], "resigned");
    // The resigner can no longer decide, and no client may send a time-out.
    let view = s.game(id, &players[0]);
    let version = view["version"].as_i64().unwrap();
    let a = s.decide(id, &players[1], version, &json!({"type": "draw_deck"}));
    assert_eq!((a.status, a.code()), (422, "seat_retired".into()));
    let a = s.decide(id, &players[0], version, &json!({"type": "time_out"}));
    assert_eq!((a.status, a.code()), (422, "reserved_decision".into()));
    // The two still in play their turns; the stand-in bot plays seat 1's.
    let mut rng = 7u64;
    let mut bot_turns = 0;
    let mut last_to_act = None;
    for _ in 0..20_000 {
        let view: Value = s.game(id, &players[0]);
        if view["status"] == "over" {
            let result = &view["state"]["result"];
            assert!(
                !result["winners"].as_array().unwrap().contains(&json!(1)),
                "{result}"
            );
            assert_eq!(result["ranking"][2], 1, "the resigner ranks last: {result}");
            assert_eq!(result["scores"][1]["retired"], "resigned");
            assert!(bot_turns > 0, "the stand-in played");
            let record = s.get(
                &format!("/api/v1/games/{id}/record"),
                Some(&players[2].token),
            );
            assert_eq!(record.status, 200);
            let decisions = record.json()["decisions"].as_array().unwrap().clone();
            assert!(decisions.iter().any(|d| d["decision"]["type"] == "resign"));
            // Packed, whether a player's move or the stand-in's ended it.
            s.wait_packed(id);
            return;
        }
        let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
        if to_act == 1 {
            // Its player is offered nothing to decide, even on its turn.
            let resigner = s.game(id, &players[1]);
            assert_eq!(
                resigner["state"]["legal_decisions"],
                json!([]),
                "{resigner}"
            );
            if last_to_act != Some(view["version"].clone()) {
                bot_turns += 1;
                last_to_act = Some(view["version"].clone());
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
            continue;
        }
        let me = s.game(id, &players[to_act]);
        let legal = me["state"]["legal_decisions"].as_array().unwrap();
        if legal.is_empty() {
            continue;
        }
        let d = support::pick(&mut rng, legal);
        let a = s.decide(id, &players[to_act], me["version"].as_i64().unwrap(), d);
        assert!(a.status == 200 || a.status == 409, "{d} -> {}", a.text);
    }
    panic!("the game did not finish");
}

const DAY: i64 = 24 * 3600 * 1000;

/// Fischer and per-turn clocks: every view carries each seat's time and the deadline of the seat
/// to act, by the arithmetic of the time control.
fn clocks_follow_their_time_control(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players: Vec<User> = (0..2).map(|i| s.register(&format!("clocked{i}"))).collect();
    let fischer = json!({"type": "fischer", "initial_seconds": 3 * 86400, "increment_seconds": 86400, "max_seconds": 7 * 86400});
    let started = s.clock.now();
    let id = s.started_with(
        json!({"variant": "keltis", "players": 2, "time_control": fischer}),
        &players,
    );
    let view = s.game(id, &players[0]);
    assert_eq!(view["time_control"], fischer);
    assert_eq!(view["clock"]["deadline"], started + 3 * DAY);
    let first = view["state"]["to_act"].as_u64().unwrap() as usize;
    assert_eq!(view["clock"]["seats"][first]["remaining_ms"], 3 * DAY);
    assert_eq!(view["clock"]["seats"][first]["running"], true);
    // Two days later the first seat finishes its turn: 3 - 2 + 1 = 2 days left.
    s.clock.advance(2 * DAY);
    s.finish_turn(id, &players);
    let view = s.game(id, &players[0]);
    assert_eq!(view["clock"]["seats"][first]["remaining_ms"], 2 * DAY);
    assert_eq!(view["clock"]["seats"][first]["running"], false);
    assert_eq!(view["clock"]["deadline"], started + 2 * DAY + 3 * DAY);
    // The lobby shows the time control too.
    let mine = s
        .get("/api/v1/games?filter=mine", Some(&players[0].token))
        .json();
    assert_eq!(mine["games"][0]["time_control"]["type"], "fischer");

    // Per turn: the deadline restarts with every turn.
    let id = s.started_with(json!({"variant": "keltis-card", "players": 2, "time_control": {"type": "per_turn", "seconds": 3600}}), &players);
    let t0 = s.clock.now();
    assert_eq!(
        s.game(id, &players[0])["clock"]["deadline"],
        t0 + 3600 * 1000
    );
    s.clock.advance(1000 * 1000);
    s.finish_turn(id, &players);
    let view = s.game(id, &players[1]);
    assert_eq!(view["clock"]["deadline"], t0 + 1000 * 1000 + 3600 * 1000);
    let waiting = 1 - view["state"]["to_act"].as_u64().unwrap() as usize;
    assert_eq!(view["clock"]["seats"][waiting]["remaining_ms"], 3600 * 1000);
    // Out-of-range controls are refused.
    let a = s.post(
        "/api/v1/games",
        Some(&players[0].token),
        json!({"variant": "keltis", "players": 2, "time_control": {"type": "per_turn", "seconds": 59}}),
    );
    assert_eq!(a.status, 422, "{}", a.text);
}

/// Two players: the seat whose deadline passes loses on time, exactly once, and a move after its
/// deadline is refused.
fn a_timeout_ends_a_two_player_game(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players: Vec<User> = (0..2).map(|i| s.register(&format!("late{i}"))).collect();
    let id = s.started_with(json!({"variant": "keltis", "players": 2, "time_control": {"type": "per_turn", "seconds": 60}}), &players);
    // Both have played (else the game would be aborted, not lost on time).
    s.finish_turn(id, &players);
    s.finish_turn(id, &players);
    let view = s.game(id, &players[0]);
    let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
    let me = s.game(id, &players[to_act]);
    s.clock.advance(61 * 1000);
    // The last-second move races the clock: exactly one of them is applied.
    let d = me["state"]["legal_decisions"][0].clone();
    let a = s.decide(id, &players[to_act], me["version"].as_i64().unwrap(), &d);
    assert!(
        a.status == 409 || a.status == 422,
        "a move after the deadline: {}",
        a.text
    );
    let over = s.wait_for(id, &players[0], |v| v["status"] == "over");
    assert_eq!(
        over["state"]["result"]["end_reason"],
        json!({"reason": "timed_out", "seat": to_act})
    );
    assert_eq!(over["state"]["result"]["winners"], json!([1 - to_act]));
    let events = s
        .get(
            &format!("/api/v1/games/{id}/events"),
            Some(&players[0].token),
        )
        .json();
    let events = events.as_array().unwrap();
    assert_eq!(kinds(events, "timed_out"), 1, "one time-out");
    assert_eq!(kinds(events, "clock_started"), 1);
    assert_eq!(
        kinds(events, "seat_taken_over"),
        0,
        "two players: no stand-in"
    );
    let last = events.last().unwrap();
    assert_eq!(last["kind"], "timed_out");
    assert_eq!(last["data"]["seat"], to_act);
    // The record replays the time-out as the engine's decision.
    let record = s
        .get(
            &format!("/api/v1/games/{id}/record"),
            Some(&players[0].token),
        )
        .json();
    let decisions = record["decisions"].as_array().unwrap();
    assert_eq!(decisions.last().unwrap()["decision"]["type"], "time_out");
    // A game the clock ended is packed like one a move ended.
    s.wait_packed(id);
}

/// A game whose first turn is never played is aborted without a result; with two players, also
/// when the second seat never plays its first turn.
fn a_game_never_begun_is_aborted(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players: Vec<User> = (0..2).map(|i| s.register(&format!("absent{i}"))).collect();
    let control = json!({"type": "per_turn", "seconds": 600});
    let mut ids = Vec::new();
    for played_turns in [0, 1] {
        let id = s.started_with(
            json!({"variant": "keltis-card", "players": 2, "time_control": control}),
            &players,
        );
        for _ in 0..played_turns {
            s.finish_turn(id, &players);
        }
        ids.push(id);
    }
    s.clock.advance(601 * 1000);
    for id in ids {
        let aborted = s.wait_for(id, &players[0], |v| v["status"] == "aborted");
        assert!(aborted["state"]["result"].is_null(), "no result: {aborted}");
        assert!(aborted["clock"]["deadline"].is_null());
        let events = s
            .get(
                &format!("/api/v1/games/{id}/events"),
                Some(&players[1].token),
            )
            .json();
        let events = events.as_array().unwrap();
        assert_eq!(kinds(events, "aborted"), 1);
        assert_eq!(kinds(events, "timed_out"), 0);
        // Nothing more can be played, and the deal may be shown.
        let a = s.decide(
            id,
            &players[0],
            aborted["version"].as_i64().unwrap(),
            &json!({"type": "draw_deck"}),
        );
        assert_eq!(
            (a.status, a.code()),
            (422, "game_over".into()),
            "{}",
            a.text
        );
        assert!(events[0..]
            .iter()
            .any(|e| e["kind"] == "started" && e["data"]["setup"].is_object()));
        // Its record is published, and the record viewer steps through it from the deal.
        let record = s.get(
            &format!("/api/v1/games/{id}/record"),
            Some(&players[1].token),
        );
        assert_eq!(record.status, 200, "{}", record.text);
        let deal = s.get(
            &format!("/api/v1/games/{id}/record/steps/0"),
            Some(&players[1].token),
        );
        assert_eq!(deal.status, 200, "{}", deal.text);
        assert_eq!(deal.json()["step"], 0);
    }
}

/// Past the deadline of the seat to act, before the clock worker has applied it: that seat's
/// decisions are refused, while another seat may still resign.
fn only_the_seat_to_act_is_bound_by_its_deadline(db: Db) {
    // The clock worker's first pass runs at start; after that it waits a long time.
    let s = support::spawn(db, |c| c.clock_interval_ms = 600_000).expect("a database");
    let players: Vec<User> = (0..3).map(|i| s.register(&format!("bound{i}"))).collect();
    let id = s.started_with(json!({"variant": "keltis", "players": 3, "time_control": {"type": "per_turn", "seconds": 60}}), &players);
    let view = s.game(id, &players[0]);
    let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
    let me = s.game(id, &players[to_act]);
    s.clock.advance(61 * 1000);
    let d = me["state"]["legal_decisions"][0].clone();
    let late = s.decide(id, &players[to_act], me["version"].as_i64().unwrap(), &d);
    assert_eq!((late.status, late.code()), (409, "deadline_passed".into()));
    let waiting = (to_act + 1) % 3;
    let a = s.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&players[waiting].token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["state"]["seats"][waiting]["retired"], "resigned");
}

/// Four players: the seat that times out is taken over by the stand-in bot, the game goes on to
/// its end, and the player who timed out ranks last.
fn a_timeout_with_four_players_hands_the_seat_to_a_bot(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let human = s.register("sleeper");
    let id = s.create(&human,
        json!({"variant": "keltis", "players": 4, "time_control": {"type": "per_turn", "seconds": 60},
               "bots": ["bot-random", "bot-greedy", "bot-mcts"]}),
    );
    // The sleeper plays a first turn (a game nobody began would be aborted), then no more.
    s.wait_for(id, &human, |v| v["state"]["to_act"] == 0);
    s.finish_turn(id, std::slice::from_ref(&human));
    let version = s.game(id, &human)["version"].as_i64().unwrap();
    s.wait_for(id, &human, |v| {
        v["state"]["to_act"] == 0 && v["version"].as_i64().unwrap() > version
    });
    s.clock.advance(61 * 1000);
    let view = s.wait_for(id, &human, |v| {
        v["state"]["seats"][0]["retired"] == "timed_out"
    });
    assert_eq!(view["status"], "active", "the game goes on");
    let events = s
        .get(&format!("/api/v1/games/{id}/events"), Some(&human.token))
        .json();
    let taken = events
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "seat_taken_over")
        .expect("a seat_taken_over event")
        .clone();
    assert_eq!(taken["data"], json!({"seat": 0, "by": "bot-greedy"}));
    let a = s.decide(
        id,
        &human,
        view["version"].as_i64().unwrap(),
        &json!({"type": "draw_deck"}),
    );
    assert_eq!((a.status, a.code()), (422, "seat_retired".into()));
    let mut over = Value::Null;
    for _ in 0..1200 {
        let v = s.game(id, &human);
        if v["status"] == "over" {
            over = v;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let result = &over["state"]["result"];
    assert!(result.is_object(), "the game did not finish");
    assert_eq!(result["ranking"][3], 0, "the sleeper ranks last: {result}");
    assert!(!result["winners"].as_array().unwrap().contains(&json!(0)));
}

on_both_databases!(
    resigning_from_three_players_lets_the_others_play_on,
    clocks_follow_their_time_control,
    a_timeout_ends_a_two_player_game,
    a_game_never_begun_is_aborted,
    a_timeout_with_four_players_hands_the_seat_to_a_bot,
    two_instances_apply_each_timeout_once,
    a_deadline_passed_while_stopped_is_applied_at_start,
    random_clocks_and_waits,
    only_the_seat_to_act_is_bound_by_its_deadline,
);

/// Two server instances on one database, both past every deadline: each deadline is applied once
/// (here: the games are aborted, nobody having played). The second instance starts after the
/// deadlines passed and catches up at once.
fn two_instances_apply_each_timeout_once(db: Db) {
    let a = support::spawn(db, |_| {}).expect("a database for this test");
    let players: Vec<User> = (0..2).map(|i| a.register(&format!("twin{i}"))).collect();
    let mut ids = Vec::new();
    for _ in 0..6 {
        let id = a.started_with(json!({"variant": "keltis-card", "players": 2, "time_control": {"type": "per_turn", "seconds": 60}}), &players);
        ids.push(id);
    }
    // The second instance starts with its clock past every deadline, and so does the first's.
    let url = a.database_url.clone();
    let b = support::spawn(Db::Sqlite, move |c| c.database_url = Some(url)).expect("second server");
    b.clock.advance(120 * 1000);
    a.clock.advance(120 * 1000);
    for id in ids {
        a.wait_for(id, &players[0], |v| v["status"] == "aborted");
        let events = a
            .get(
                &format!("/api/v1/games/{id}/events"),
                Some(&players[0].token),
            )
            .json();
        assert_eq!(kinds(events.as_array().unwrap(), "aborted"), 1, "game {id}");
    }
}

/// A server stopped before deadlines passed: the one started after them applies each at start,
/// a time-out where both had played, an abort where nobody had.
fn a_deadline_passed_while_stopped_is_applied_at_start(db: Db) {
    let a = support::spawn(db, |_| {}).expect("a database for this test");
    let players: Vec<User> = (0..2).map(|i| a.register(&format!("stopped{i}"))).collect();
    let mut ids = Vec::new();
    for played in [true, false] {
        let id = a.started_with(json!({"variant": "keltis-card", "players": 2, "time_control": {"type": "per_turn", "seconds": 60}}), &players);
        if played {
            a.finish_turn(id, &players);
            a.finish_turn(id, &players);
        }
        ids.push(id);
    }
    a.stop();
    assert!(
        a.client.get(a.url("/healthz")).send().is_err(),
        "the first server is down"
    );
    let url = a.database_url.clone();
    let b = support::spawn_at(db, a.clock.now() + 3_600_000, move |c| {
        c.database_url = Some(url);
        // Only the pass at start may apply them.
        c.clock_interval_ms = 600_000;
    })
    .expect("the server starts again");
    let over = b.wait_for(ids[0], &players[0], |v| v["status"] == "over");
    assert_eq!(over["state"]["result"]["end_reason"]["reason"], "timed_out");
    b.wait_for(ids[1], &players[0], |v| v["status"] == "aborted");
    let events = b.events(ids[0], &players[1]);
    let timed_out = events.iter().find(|e| e["kind"] == "timed_out").unwrap();
    assert!(timed_out["at"].as_i64() > timed_out["data"]["deadline"].as_i64());
}

/// Property, over random games with random clocks and random waits: no decision is accepted from
/// a seat after its deadline, no view shows a negative time, every time-out comes at or after the
/// deadline it names, and a game ends at most once.
fn random_clocks_and_waits(db: Db) {
    let s = support::spawn(db, |c| c.clock_interval_ms = 20).expect("a database");
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n.max(1)
    };
    let (mut accepted, mut ended_by_clock) = (0, 0);
    for case in 0..8 {
        let players: Vec<User> = (0..2)
            .map(|i| s.register(&format!("random{case}x{i}")))
            .collect();
        let control = if next(2) == 0 {
            json!({"type": "per_turn", "seconds": 60 + next(600)})
        } else {
            let initial = 60 + next(600);
            json!({"type": "fischer", "initial_seconds": initial, "increment_seconds": next(120), "max_seconds": initial + next(600)})
        };
        let id = s.started_with(
            json!({"variant": "keltis-card", "players": 2, "time_control": control}),
            &players,
        );
        for _ in 0..400 {
            let view = s.game(id, &players[0]);
            if view["status"] != "active" {
                break;
            }
            for seat in view["clock"]["seats"].as_array().unwrap() {
                assert!(seat["remaining_ms"].as_i64().unwrap() >= 0, "{seat}");
            }
            let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
            let remaining = view["clock"]["seats"][to_act]["remaining_ms"]
                .as_i64()
                .unwrap() as u64;
            // Mostly in time, now and then too late.
            let wait = if next(12) == 0 {
                remaining + next(60_000)
            } else {
                next(remaining / 3)
            };
            s.clock.advance(wait as i64);
            let me = s.game(id, &players[to_act]);
            let (Some(deadline), Some(legal)) = (
                me["clock"]["deadline"].as_i64(),
                me["state"]["legal_decisions"].as_array(),
            ) else {
                continue;
            };
            if legal.is_empty() || me["state"]["to_act"] != json!(to_act) {
                continue;
            }
            let d = &legal[next(legal.len() as u64) as usize];
            let now = s.clock.now();
            let a = s.decide(id, &players[to_act], me["version"].as_i64().unwrap(), d);
            match a.status {
                200 => {
                    assert!(now < deadline, "accepted at {now}, deadline {deadline}");
                    accepted += 1;
                }
                409 | 422 => {}
                _ => panic!("{d} -> {} {}", a.status, a.text),
            }
        }
        let events = s.events(id, &players[0]);
        for e in events.iter().filter(|e| e["kind"] == "timed_out") {
            assert!(e["at"].as_i64() >= e["data"]["deadline"].as_i64(), "{e}");
        }
        let endings = kinds(&events, "timed_out") + kinds(&events, "aborted");
        assert!(endings <= 1, "case {case}: {endings} endings");
        ended_by_clock += endings;
    }
    // The cases did exercise both sides of a deadline.
    assert!(
        accepted > 20 && ended_by_clock > 0,
        "{accepted} moves, {ended_by_clock} ended by the clock"
    );
}
