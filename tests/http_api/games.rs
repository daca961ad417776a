//! Whole games through HTTP: every variant played out, bots in the seats, concurrent and repeated
//! submissions, snapshots rebuilt from the log, long polls, two instances.

use super::support::{self, Db};
use super::{event_seqs, play_out, server, users};
use keltis::engine::Record;
use serde_json::{json, Value};

fn full_games_of_every_variant(db: Db) {
    let Some(s) = server(db) else { return };
    for (variant, n) in [("keltis", 3), ("neue-wege", 2), ("keltis-card", 2)] {
        let players = users(&s, &format!("{}_", variant.replace('-', "_")), n);
        let id = s.started_game(variant, &players);
        // The record is refused before the end.
        let a = s.get(
            &format!("/api/v1/games/{id}/record"),
            Some(&players[0].token),
        );
        assert_eq!((a.status, a.code()), (409, "game_not_over".into()));
        let decisions = play_out(&s, id, &players, id as u64 * 7919);
        assert!(decisions > 50);
        let a = s.get(
            &format!("/api/v1/games/{id}/record"),
            Some(&players[1].token),
        );
        assert_eq!(a.status, 200, "{}", a.text);
        let record: Record = serde_json::from_str(&a.text).unwrap();
        assert_eq!(record.decisions.len(), decisions);
        let replayed = record.replay().expect("the record replays");
        assert!(replayed.is_over());
        let view = s.game(id, &players[0]);
        assert_eq!(
            serde_json::to_value(replayed.result()).unwrap(),
            view["state"]["result"],
            "final scores agree"
        );
        // After the end, a decision is refused with the engine's code.
        let a = s.decide(
            id,
            &players[0],
            view["version"].as_i64().unwrap(),
            &json!({"type": "draw_deck"}),
        );
        assert_eq!((a.status, a.code()), (422, "game_over".into()));
    }
}

fn concurrent_submissions_on_one_version_accept_exactly_one(db: Db) {
    let Some(s) = server(db) else { return };
    let players = users(&s, "race", 2);
    let id = s.started_game("keltis", &players);
    for _round in 0..3 {
        let view = s.game(id, &players[0]);
        let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
        let me = s.game(id, &players[to_act]);
        let version = me["version"].as_i64().unwrap();
        let decision = me["state"]["legal_decisions"][0].clone();
        let statuses: Vec<(u16, Value)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..8)
                .map(|_| {
                    let (s, u, d) = (&s, &players[to_act], &decision);
                    scope.spawn(move || {
                        let a = s.decide(id, u, version, d);
                        (a.status, a.json())
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let ok = statuses.iter().filter(|(st, _)| *st == 200).count();
        assert_eq!(ok, 1, "{statuses:?}");
        for (st, body) in &statuses {
            if *st != 200 {
                assert_eq!(*st, 409, "{body}");
                assert_eq!(body["code"], "stale_version");
                assert_eq!(body["current_version"], version + 1);
            }
        }
        // Exactly one event was appended: no event lost or doubled.
        let seqs = event_seqs(&s, id, 0, &players[0]);
        assert_eq!(seqs, (1..=version + 1).collect::<Vec<_>>());
    }
}

fn a_retried_idempotent_request_returns_the_first_answer(db: Db) {
    let Some(s) = server(db) else { return };
    let players = users(&s, "retry", 2);
    let id = s.started_game("keltis-card", &players);
    let view = s.game(id, &players[0]);
    let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
    let me = s.game(id, &players[to_act]);
    let version = me["version"].as_i64().unwrap();
    let body = json!({"expected_version": version, "decision": me["state"]["legal_decisions"][0]});
    let send = || {
        s.send(
            s.client
                .post(s.url(&format!("/api/v1/games/{id}/decisions")))
                .bearer_auth(&players[to_act].token)
                .header("Idempotency-Key", "move-1")
                .json(&body),
        )
    };
    let first = send();
    assert_eq!(first.status, 200, "{}", first.text);
    let second = send();
    assert_eq!(second.status, 200);
    assert_eq!(second.json(), first.json());
    assert_eq!(second.headers.get("idempotent-replayed").unwrap(), "true");
    assert_eq!(
        s.game(id, &players[0])["version"],
        version + 1,
        "nothing appended"
    );
    // The same key for another request is refused.
    let other = s.send(
        s.client
            .post(s.url(&format!("/api/v1/games/{id}/decisions")))
            .bearer_auth(&players[to_act].token)
            .header("Idempotency-Key", "move-1")
            .json(&json!({"expected_version": version + 1, "decision": {"type": "draw_deck"}})),
    );
    assert_eq!(
        (other.status, other.code()),
        (422, "idempotency_key_reused".into())
    );
}

fn events_wait_returns_when_a_new_event_arrives(db: Db) {
    let Some(s) = server(db) else { return };
    let players = users(&s, "poll", 2);
    let id = s.started_game("keltis", &players);
    let view = s.game(id, &players[0]);
    let version = view["version"].as_i64().unwrap();
    let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
    let me = s.game(id, &players[to_act]);
    let d = me["state"]["legal_decisions"][0].clone();
    let waiter = 1 - to_act;
    let events = std::thread::scope(|scope| {
        let h = scope.spawn(|| {
            s.get(
                &format!("/api/v1/games/{id}/events?after={version}&wait=30"),
                Some(&players[waiter].token),
            )
        });
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert_eq!(s.decide(id, &players[to_act], version, &d).status, 200);
        h.join().unwrap()
    });
    let list = events.json();
    assert_eq!(list.as_array().unwrap().len(), 1, "{}", events.text);
    assert_eq!(list[0]["seq"], version + 1);
    assert_eq!(list[0]["kind"], "decided");
    // With nothing new and no wait, the answer is empty at once.
    let none = s.get(
        &format!("/api/v1/games/{id}/events?after={}", version + 1),
        Some(&players[0].token),
    );
    assert_eq!(none.json(), json!([]));
}

fn a_snapshot_of_another_engine_version_is_rebuilt_from_the_log(db: Db) {
    let Some(s) = server(db) else { return };
    let players = users(&s, "snap", 2);
    let id = s.started_game("neue-wege", &players);
    for _ in 0..20 {
        let view = s.game(id, &players[0]);
        let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
        let me = s.game(id, &players[to_act]);
        let d = &me["state"]["legal_decisions"][0];
        assert_eq!(
            s.decide(id, &players[to_act], me["version"].as_i64().unwrap(), d)
                .status,
            200
        );
    }
    let before: Vec<Value> = players.iter().map(|u| s.game(id, u)).collect();
    // An old engine version's snapshot, unreadable to this engine.
    let changed = s.execute_sql(&format!(
        "UPDATE games SET state = '{{\"old\": true}}', state_engine_version = 1 WHERE id = {id}"
    ));
    assert_eq!(changed, 1);
    let after: Vec<Value> = players.iter().map(|u| s.game(id, u)).collect();
    assert_eq!(
        after, before,
        "the state rebuilt from the events is the same"
    );
    // Play goes on from the rebuilt state.
    let to_act = after[0]["state"]["to_act"].as_u64().unwrap() as usize;
    let d = &after[to_act]["state"]["legal_decisions"][0];
    let a = s.decide(
        id,
        &players[to_act],
        after[to_act]["version"].as_i64().unwrap(),
        d,
    );
    assert_eq!(a.status, 200, "{}", a.text);
}

/// A move stores the state's snapshot only every few events; between snapshots the game is its
/// last snapshot with the decisions logged after it. Two instances on one database take turns:
/// each decision goes to the instance that did not take the one before, so it loads the game from
/// the database (its memory holds an older version), and each instance's view is the same as the
/// other's, both players', all the way to the end.
fn a_game_between_snapshots_loads_as_played(db: Db) {
    let Some(a) = server(db) else { return };
    let b = support::second_instance(&a);
    let players = users(&a, "between", 2);
    let id = a.started_game("keltis", &players);
    let behind = format!("SELECT version - state_version AS n FROM games WHERE id = {id}");
    let mut tails = Vec::new();
    let mut rng = 7u64;
    for turn in 0.. {
        let (here, there) = if turn % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let view = here.game(id, &players[0]);
        if view["status"] == "over" {
            break;
        }
        assert!(turn < 2000, "the game does not end");
        let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
        let me = here.game(id, &players[to_act]);
        let legal = me["state"]["legal_decisions"].as_array().unwrap();
        let d = support::pick(&mut rng, legal);
        let answer = here.decide(id, &players[to_act], me["version"].as_i64().unwrap(), d);
        assert_eq!(answer.status, 200, "{d} -> {}", answer.text);
        tails.push(a.count(&behind));
        for player in &players {
            assert_eq!(there.game(id, player), here.game(id, player), "turn {turn}");
        }
    }
    // Most moves left a tail to replay; a snapshot was written at least every 16 events.
    assert!(tails.iter().all(|&n| n < 16), "{tails:?}");
    assert!(
        tails.iter().filter(|&&n| n > 0).count() > tails.len() / 2,
        "{tails:?}"
    );
    assert!(tails.iter().filter(|&&n| n == 0).count() > 1, "{tails:?}");
    assert_eq!(tails.last(), Some(&0), "the final state is stored whole");
}

fn bots_fill_every_seat_but_one_and_the_game_finishes(db: Db) {
    let Some(s) = support::spawn(db, |c| c.bot_mcts_ms = 5) else {
        return;
    };
    let human = s.register("human");
    let bots = s.get("/api/v1/bots", Some(&human.token)).json();
    let names: Vec<&str> = bots
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["bot-random", "bot-greedy", "bot-mcts", "bot-strong"]
    );
    let a = s.post(
        "/api/v1/games",
        Some(&human.token),
        json!({"variant": "keltis", "players": 4, "bots": ["bot-random", "bot-greedy", "bot-mcts"]}),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    let created = a.json();
    assert_eq!(created["status"], "active", "bots take their seats at once");
    let id = created["id"].as_i64().unwrap();
    let mut rng = 99u64;
    let mut mine = 0;
    loop {
        let view = s.game(id, &human);
        if view["status"] == "over" {
            break;
        }
        if view["state"]["to_act"] == view["your_seat"] {
            let legal = view["state"]["legal_decisions"].as_array().unwrap();
            let d = support::pick(&mut rng, legal);
            let a = s.decide(id, &human, view["version"].as_i64().unwrap(), d);
            assert!(a.status == 200 || a.status == 409, "{}", a.text);
            mine += 1;
        } else {
            let after = view["version"].as_i64().unwrap();
            let waited = s.get(
                &format!("/api/v1/games/{id}/events?after={after}&wait=20"),
                Some(&human.token),
            );
            assert_eq!(waited.status, 200);
            assert!(
                !waited.json().as_array().unwrap().is_empty(),
                "the bots keep playing"
            );
        }
    }
    assert!(mine > 10);
    let events = s
        .get(&format!("/api/v1/games/{id}/events"), Some(&human.token))
        .json();
    let bot_decisions = events
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "decided" && e["data"]["seat"] != 0)
        .count();
    assert!(bot_decisions > 30, "{bot_decisions}");
    let record = s.get(&format!("/api/v1/games/{id}/record"), Some(&human.token));
    let record: Record = serde_json::from_str(&record.text).unwrap();
    assert!(record.replay().unwrap().is_over());
    // Inviting a bot seats it at once.
    let g = s.post(
        "/api/v1/games",
        Some(&human.token),
        json!({"variant": "keltis-card", "players": 2}),
    );
    let id = g.json()["id"].as_i64().unwrap();
    let a = s.post(
        &format!("/api/v1/games/{id}/invites"),
        Some(&human.token),
        json!({"user": "bot-greedy"}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["status"], "active");
    // Bots are not people: their names are kept, they cannot log in, unknown ones are refused.
    let a = s.post(
        "/api/v1/auth/register",
        None,
        json!({"name": "bot-evil", "password": "correct horse"}),
    );
    assert_eq!((a.status, a.code()), (422, "invalid_name".into()));
    let a = s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": "bot-greedy", "password": "!"}),
    );
    assert_eq!(a.status, 401);
    let a = s.post(
        "/api/v1/games",
        Some(&human.token),
        json!({"variant": "keltis", "players": 2, "bots": ["human"]}),
    );
    assert_eq!((a.status, a.code()), (422, "unknown_bot".into()));
    let a = s.post(
        "/api/v1/games",
        Some(&human.token),
        json!({"variant": "keltis", "players": 2, "bots": ["bot-random", "bot-greedy"]}),
    );
    assert_eq!((a.status, a.code()), (422, "too_many_bots".into()));
}

/// Two server instances on one PostgreSQL: an instance decides on the version it holds in memory
/// without reading the game row, so the append's own version check must refuse a decision on a
/// version the other instance has moved past, and write nothing of it.
#[test]
#[cfg_attr(not(postgres_tests), ignore = "PostgreSQL: set TEST_DATABASE_URL")]
fn a_decision_on_a_version_another_instance_moved_past_is_stale() {
    let (a, b) = support::two_instances().expect("TEST_DATABASE_URL");
    let players = [a.register("memo1"), a.register("memo2")];
    let id = a.started_game("keltis-card", &players);
    let to_act = a.game(id, &players[0])["state"]["to_act"].as_u64().unwrap() as usize;
    let player = &players[to_act];
    // b reads the game: it now holds this version's state in memory.
    let seen = b.game(id, player);
    let version = seen["version"].as_i64().unwrap();
    let decision = seen["state"]["legal_decisions"][0].clone();
    let body = json!({"expected_version": version, "decision": decision});
    // The same player moves through a (another tab, another instance)...
    let first = a.post(
        &format!("/api/v1/games/{id}/decisions"),
        Some(&player.token),
        body.clone(),
    );
    assert_eq!(first.status, 200, "{}", first.text);
    let now_at = first.json()["version"].as_i64().unwrap();
    assert!(now_at > version);
    // ...and then through b, on the version b still holds.
    let second = b.post(
        &format!("/api/v1/games/{id}/decisions"),
        Some(&player.token),
        body,
    );
    assert_eq!(
        (second.status, second.code()),
        (409, "stale_version".to_string()),
        "{}",
        second.text
    );
    assert_eq!(second.json()["current_version"], now_at);
    // Nothing of the refused decision was written.
    let seqs = event_seqs(&a, id, version, player);
    assert_eq!(seqs, ((version + 1)..=now_at).collect::<Vec<_>>());
    assert_eq!(b.game(id, player)["version"], now_at);
}

crate::on_both_databases!(
    full_games_of_every_variant,
    concurrent_submissions_on_one_version_accept_exactly_one,
    a_retried_idempotent_request_returns_the_first_answer,
    events_wait_returns_when_a_new_event_arrives,
    a_snapshot_of_another_engine_version_is_rebuilt_from_the_log,
    a_game_between_snapshots_loads_as_played,
    bots_fill_every_seat_but_one_and_the_game_finishes,
);
