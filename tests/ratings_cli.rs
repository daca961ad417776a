//! The rating commands run as an operator runs them, against the server's database:
//! `keltis recompute-ratings`, `keltis seed` and `keltis load --reads`.

use crate::support;

use std::process::Command;

use serde_json::{json, Value};
use support::players::{profile, resign, run_keltis, users};
use support::{Db, TestServer};

fn server(db: Db, tune: impl FnOnce(&mut keltis::config::Config)) -> Option<TestServer> {
    let s = support::spawn(db, tune);
    if s.is_none() {
        eprintln!("TEST_DATABASE_URL not set: PostgreSQL scenario skipped");
    }
    s
}

/// `keltis recompute-ratings` rebuilds every result and rating from the games' logs: with the
/// same parameters it reproduces the stored figures exactly; other parameters change them, and
/// the default ones bring them back.
fn recompute_reproduces_the_stored_ratings(db: Db) {
    let Some(s) = server(db, |_| {}) else { return };
    let p = users(&s, "again", 4);
    let pairs = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3)];
    for (i, (a, b)) in pairs.into_iter().enumerate() {
        let id = s.started_game("keltis-card", &[p[a].clone(), p[b].clone()]);
        s.clock.advance(3 * 86_400_000);
        resign(&s, id, &p[if i % 2 == 0 { b } else { a }]);
    }
    let id = s.started_game("keltis", &p);
    for user in &p[..3] {
        resign(&s, id, user);
    }
    let casual = s.started_with(
        json!({"variant": "neue-wege", "players": 2, "rated": false}),
        &p[..2],
    );
    resign(&s, casual, &p[0]);
    let profiles = |s: &TestServer| -> Vec<Value> {
        p.iter()
            .map(|u| {
                let mut v = profile(s, &p[0], &u.name);
                v["current_games"] = json!(null);
                v
            })
            .collect()
    };
    let before = profiles(&s);
    let history = s.get("/api/v1/history?limit=50", Some(&p[0].token)).json();
    let recompute = |extra: &[&str]| -> Value {
        let url = s.database_url.as_str();
        run_keltis(&[&["recompute-ratings", "--database-url", url], extra].concat())
    };
    let report = recompute(&[]);
    assert_eq!(report["games"], 7, "{report}");
    assert_eq!(report["changed"], 0, "{report}");
    assert_eq!(report["ratings"], 8, "{report}");
    assert_eq!(profiles(&s), before);
    assert_eq!(
        s.get("/api/v1/history?limit=50", Some(&p[0].token)).json(),
        history
    );
    // Other parameters: other figures; the defaults again: the first figures.
    let report = recompute(&["--rating-tau", "1.1", "--rating-period-days", "1"]);
    assert!(report["changed"].as_i64() > Some(0), "{report}");
    assert_ne!(profiles(&s), before);
    let report = recompute(&[]);
    assert!(report["changed"].as_i64() > Some(0), "{report}");
    assert_eq!(profiles(&s), before);
    // A bad parameter is refused before anything changes.
    let out = Command::new(env!("CARGO_BIN_EXE_keltis"))
        .args([
            "recompute-ratings",
            "--database-url",
            &s.database_url,
            "--rating-tau",
            "-1",
        ])
        .output()
        .expect("keltis runs");
    assert!(!out.status.success());
    assert_eq!(profiles(&s), before);
}

/// `keltis seed` writes real finished games (their records replay, the recompute reproduces
/// their ratings), and `keltis load --reads` times every kind of read over them.
fn seeded_games_are_real_games_and_the_reads_tool_times_them(db: Db) {
    let Some(s) = server(db, |_| {}) else { return };
    let url = s.database_url.clone();
    let report = run_keltis(&[
        "seed",
        "--finished",
        "60",
        "--players",
        "8",
        "--database-url",
        &url,
    ]);
    assert_eq!(report["games"], 60, "{report}");
    let reader = s.register("reader");
    let page = s
        .get("/api/v1/history?limit=200", Some(&reader.token))
        .json();
    let games = page["games"].as_array().expect("games");
    assert_eq!(games.len(), 60);
    assert!(games.iter().all(|g| g["rated"] == true));
    let a = s.get(
        &format!("/api/v1/games/{}/record", games[0]["id"]),
        Some(&reader.token),
    );
    let record: keltis::engine::Record = serde_json::from_str(&a.text).expect("a record");
    assert!(record.replay().expect("it replays").is_over());
    let report = run_keltis(&["recompute-ratings", "--database-url", &url]);
    assert_eq!(
        (report["games"].as_i64(), report["changed"].as_i64()),
        (Some(60), Some(0))
    );
    let a = s.get("/api/v1/players/seeded-0", Some(&reader.token));
    assert_eq!(a.status, 200, "{}", a.text);
    assert!(!a.json()["ratings"].as_array().expect("ratings").is_empty());

    let report = run_keltis(&[
        "load",
        "--reads",
        "--url",
        &s.base,
        "--games",
        "2",
        "--seconds",
        "1",
    ]);
    for kind in keltis::loadtest::reads::KINDS {
        assert!(
            report["latency_ms"][kind]["p99"].as_f64() > Some(0.0),
            "{kind}: {report}"
        );
    }
    assert_eq!(report["players_sampled"], 8, "{report}");
}

/// `keltis seed --active` writes games being played: started, their log as long as their
/// version, a seat to act with legal decisions, as a real game after a few dozen moves.
fn seeded_active_games_wait_for_their_seat_to_act(db: Db) {
    let Some(s) = server(db, |_| {}) else { return };
    let report = run_keltis(&[
        "seed",
        "--finished",
        "3",
        "--active",
        "6",
        "--players",
        "5",
        "--database-url",
        &s.database_url,
    ]);
    assert_eq!(
        (report["games"].as_i64(), report["active"].as_i64()),
        (Some(9), Some(6))
    );
    let reader = s.register("spectator");
    let mut active = 0;
    for id in 1..=9 {
        let game = s
            .get(&format!("/api/v1/games/{id}"), Some(&reader.token))
            .json();
        if game["status"] != "active" {
            assert_eq!(game["status"], "over", "{game}");
            continue;
        }
        active += 1;
        let version = game["version"].as_i64().expect("a version");
        assert!(game["state"]["to_act"].is_u64(), "{game}");
        let events = s
            .get(
                &format!("/api/v1/games/{id}/events?limit=1000"),
                Some(&reader.token),
            )
            .json();
        let events = events.as_array().expect("events");
        assert_eq!(events.len() as i64, version, "one event per version");
        assert!(events.iter().filter(|e| e["kind"] == "decided").count() >= 10);
    }
    assert_eq!(active, 6);
}

on_both_databases!(
    recompute_reproduces_the_stored_ratings,
    seeded_games_are_real_games_and_the_reads_tool_times_them,
    seeded_active_games_wait_for_their_seat_to_act,
);
