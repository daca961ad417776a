//! The record viewer's steps (`GET /games/{id}/record/steps/{step}`) and the score as it stands in
//! every view, on both databases.

use crate::support;

use serde_json::{json, Value};
use support::players::{play_out, users};
use support::{Db, TestServer};

fn server(db: Db) -> Option<TestServer> {
    let s = support::spawn(db, |_| {});
    if s.is_none() {
        eprintln!("TEST_DATABASE_URL not set: PostgreSQL scenario skipped");
    }
    s
}

fn totals(seats: &Value) -> Vec<i64> {
    seats
        .as_array()
        .map(|seats| {
            seats
                .iter()
                .map(|s| s["score"]["total"].as_i64().unwrap_or(i64::MIN))
                .collect()
        })
        .unwrap_or_default()
}

/// Every seat's score as things stand is in every view, and at the end it is the result's.
fn scores_stand_in_every_view(db: Db) {
    let Some(s) = server(db) else { return };
    let p = users(&s, "stand", 2);
    let id = s.started_game("keltis-card", &p);
    let start = s.game(id, &p[0]);
    // Nothing laid yet: C10 gives 0 for an empty path and -4 for holding no wish stone.
    assert_eq!(totals(&start["state"]["seats"]), vec![-4, -4], "{start}");
    play_out(&s, id, &p);
    let end = s.game(id, &p[1]);
    let result: Vec<i64> = end["state"]["result"]["scores"]
        .as_array()
        .expect("scores")
        .iter()
        .map(|s| s["total"].as_i64().unwrap_or_default())
        .collect();
    assert_eq!(totals(&end["state"]["seats"]), result, "{end}");
}

/// A finished game step by step: the deal, each decision of the record in order, and the end
/// with its result; any seat's view (its hand) or a spectator's; out-of-range steps and seats and
/// an unfinished game are refused with the codes the spec gives.
fn a_finished_game_steps_from_the_deal_to_the_end(db: Db) {
    let Some(s) = server(db) else { return };
    let p = users(&s, "step", 2);
    let onlooker = s.register("step-onlooker");
    let id = s.started_game("keltis", &p);
    let step = |n: usize, query: &str| {
        s.get(
            &format!("/api/v1/games/{id}/record/steps/{n}{query}"),
            Some(&onlooker.token),
        )
    };
    let early = step(0, "");
    assert_eq!((early.status, early.code()), (409, "game_not_over".into()));
    play_out(&s, id, &p);

    let record = s.get(&format!("/api/v1/games/{id}/record"), Some(&onlooker.token));
    assert_eq!(record.status, 200, "{}", record.text);
    let record = record.json();
    let decisions = record["decisions"].as_array().cloned().unwrap_or_default();
    let steps = decisions.len();
    assert!(steps > 10, "{record}");

    // The deal: no decision yet; a spectator sees no hand, a seat sees its opening hand.
    let deal = step(0, "").json();
    assert_eq!(
        (deal["step"].clone(), deal["steps"].clone()),
        (json!(0), json!(steps))
    );
    assert_eq!(deal["decision"], Value::Null);
    assert_eq!(deal["view"]["seat"], Value::Null);
    assert_eq!(deal["view"]["hand"], json!([]));
    assert_eq!(deal["view"]["result"], Value::Null);
    for seat in 0..2 {
        let hand = step(0, &format!("?seat={seat}")).json()["view"]["hand"].clone();
        let mut opening = record["setup"]["hands"][seat]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let mut shown = hand.as_array().cloned().unwrap_or_default();
        let key = |c: &Value| c.to_string();
        opening.sort_by_key(key);
        shown.sort_by_key(key);
        assert_eq!(shown, opening, "seat {seat}");
    }
    // Each step carries the record's decision that led to it.
    for n in [1, 2, steps / 2, steps - 1] {
        let at = step(n, "").json();
        assert_eq!(at["decision"], decisions[n - 1], "step {n}");
        assert_eq!(at["view"]["result"], Value::Null, "step {n}");
    }
    // The last step is the game as it ended: the same result, and for a seat the same view as
    // the game's own.
    let last = step(steps, "?seat=1").json();
    assert_eq!(last["view"]["result"], record["result"]);
    assert_eq!(last["view"], s.game(id, &p[1])["state"], "{last}");

    for (query, n) in [
        ("", steps + 1),
        ("?seat=2", 0),
        ("?seat=x", 0),
        ("?seat=0&x=1", 0),
    ] {
        let a = step(n, query);
        assert_eq!(
            (a.status, a.code()),
            (400, "invalid_query".into()),
            "{query} {n}: {}",
            a.text
        );
    }
    let missing = s.get("/api/v1/games/999999/record/steps/0", Some(&onlooker.token));
    assert_eq!(missing.status, 404, "{}", missing.text);
    let anonymous = s.get(&format!("/api/v1/games/{id}/record/steps/0"), None);
    assert_eq!(anonymous.status, 401);
}

fn seqs(events: &Value) -> Vec<i64> {
    events
        .as_array()
        .expect("a list of events")
        .iter()
        .map(|e| e["seq"].as_i64().expect("seq"))
        .collect()
}

/// A finished game's log is packed into one row just after its end and its event rows deleted
/// (its turn notices too): its events read the same, whole or by pages, and its record replays. Games that end otherwise (a
/// game cancelled in the lobby) are packed by the maintenance pass, which two instances may run.
fn a_finished_games_log_is_packed_and_reads_the_same(db: Db) {
    let Some(s) = server(db) else { return };
    let p = users(&s, "pack", 2);
    let rows = |id: i64, table: &str| {
        s.count(&format!(
            "SELECT COUNT(*) AS n FROM {table} WHERE game_id = {id}"
        ))
    };
    let events = |id: i64, query: &str| {
        s.get(
            &format!("/api/v1/games/{id}/events{query}"),
            Some(&p[0].token),
        )
        .json()
    };
    let id = s.started_game("keltis-card", &p);
    play_out(&s, id, &p);
    let version = s.game(id, &p[0])["version"].as_i64().expect("version");
    // The packing worker packs it a moment after the last move's answer.
    s.wait_packed(id);
    // Its turn notices went with it; the end's notices stay.
    let notices = |kind: &str| {
        s.count(&format!(
            "SELECT COUNT(*) AS n FROM notifications WHERE game_id = {id} AND kind = '{kind}'"
        ))
    };
    assert_eq!(notices("your_turn"), 0);
    assert_eq!(notices("game_over"), 2);
    let all = events(id, "?limit=1000");
    assert_eq!(seqs(&all), (1..=version).collect::<Vec<_>>());
    let page = events(id, "?after=10&limit=5");
    assert_eq!(seqs(&page), vec![11, 12, 13, 14, 15]);
    assert_eq!(
        page.as_array().map(|l| &l[..]),
        all.as_array().map(|l| &l[10..15])
    );
    assert_eq!(events(id, &format!("?after={version}")), json!([]));
    let record = s.get(&format!("/api/v1/games/{id}/record"), Some(&p[0].token));
    assert_eq!(record.status, 200, "{}", record.text);
    let record: keltis::engine::Record = serde_json::from_str(&record.text).expect("a record");
    assert!(record.replay().expect("the packed log replays").is_over());

    let cancelled = s.create(&p[0], json!({"variant": "keltis", "players": 2}));
    let a = s.post(
        &format!("/api/v1/games/{cancelled}/leave"),
        Some(&p[0].token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(s.game(cancelled, &p[0])["status"], "cancelled");
    let before = events(cancelled, "");
    assert!(rows(cancelled, "game_events") > 0);
    let now = keltis::storage::now_millis();
    let instances = [1, 2].map(|_| support::instances::database(&s.database_url, 2));
    let pack = |db: &keltis::storage::Database| {
        keltis::service::play::packing::pack_finished_logs(db, 10, now).expect("packing works")
    };
    // Two instances at once on PostgreSQL; one after the other on SQLite (one process's file).
    let packed: usize = if s.database_url.starts_with("postgres") {
        std::thread::scope(|scope| {
            let runs: Vec<_> = instances
                .iter()
                .map(|db| scope.spawn(move || pack(db)))
                .collect();
            runs.into_iter().map(|r| r.join().expect("no panic")).sum()
        })
    } else {
        instances.iter().map(|db| pack(db)).sum()
    };
    assert_eq!(packed, 1, "one instance packs the cancelled game");
    assert_eq!(
        (
            rows(cancelled, "game_events"),
            rows(cancelled, "game_archives")
        ),
        (0, 1)
    );
    assert_eq!(events(cancelled, ""), before);
}

on_both_databases!(
    scores_stand_in_every_view,
    a_finished_game_steps_from_the_deal_to_the_end,
    a_finished_games_log_is_packed_and_reads_the_same
);
