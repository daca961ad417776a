//! The record viewer's steps (`GET /games/{id}/record/steps/{step}`) and the score as it stands in
//! every view, on both databases.

mod support;

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

on_both_databases!(
    scores_stand_in_every_view,
    a_finished_game_steps_from_the_deal_to_the_end
);
