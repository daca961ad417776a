//! Reviews of finished games over HTTP (issue 48), on both databases: asked for by a player
//! who sat at the game, `202` while on its way, told on the stream, then the same review the
//! pure judge gives for the record; refused before the end and to onlookers; the accuracy on the
//! profile; two instances' workers doing each review once, and a review whose instance stopped
//! taken again once its lease ran out.

use crate::support;

use serde_json::{json, Value};
use support::players::{play_out, resign, users};
use support::sse::Sse;
use support::{Db, TestServer};

const LEASE_MS: i64 = 10 * 60 * 1000;

fn server(db: Db, reviews: bool) -> Option<TestServer> {
    let s = support::spawn(db, |c| c.reviews = reviews);
    if s.is_none() {
        eprintln!("TEST_DATABASE_URL not set: PostgreSQL scenario skipped");
    }
    s
}

fn review_path(id: i64) -> String {
    format!("/api/v1/games/{id}/review")
}

fn a_finished_game_is_reviewed_on_request(db: Db) {
    let Some(s) = server(db, true) else { return };
    let p = users(&s, "judged", 2);
    let onlooker = s.register("judged-onlooker");
    let id = s.started_game("keltis-card", &p);

    // Not before the end: the judge would see cards still hidden.
    let early = s.post(&review_path(id), Some(&p[0].token), json!({}));
    assert_eq!(
        (early.status, early.code()),
        (409, "game_not_over".into()),
        "{}",
        early.text
    );
    play_out(&s, id, &p);

    // Nobody asked yet: a normal state, no error (issue 68: the record page logged the 404).
    let none = s.get(&review_path(id), Some(&onlooker.token));
    assert_eq!((none.status, none.text.as_str()), (204, ""));
    let refused = s.post(&review_path(id), Some(&onlooker.token), json!({}));
    assert_eq!((refused.status, refused.code()), (403, "not_seated".into()));

    let ticket = s.post("/api/v1/stream-tickets", Some(&p[1].token), json!({}));
    let ticket = ticket.json()["ticket"]
        .as_str()
        .expect("ticket")
        .to_string();
    let mut stream = Sse::open(
        &s.url(&format!("/api/v1/me/stream?ticket={ticket}")),
        None,
        None,
    );

    let asked = s.post(&review_path(id), Some(&p[0].token), json!({}));
    assert_eq!(asked.status, 202, "{}", asked.text);
    assert_eq!(asked.json()["state"], "queued");
    assert_eq!(asked.json()["review"], Value::Null);

    // Both players hear of it on their stream once it is done.
    let ready = loop {
        let (_, kind, data) = stream.event().expect("a notice");
        if kind == "review_ready" {
            break data;
        }
    };
    assert_eq!(ready["notice"]["game_id"], id, "{ready}");

    let done = s.get(&review_path(id), Some(&onlooker.token));
    assert_eq!(done.status, 200, "{}", done.text);
    let done = done.json();
    assert_eq!(done["state"], "done");
    // The same review the judge gives for the published record, to the hundredth.
    let record = s.get(&format!("/api/v1/games/{id}/record"), Some(&p[0].token));
    let record: keltis::engine::Record = serde_json::from_str(&record.text).expect("a record");
    let expected = keltis::review::review(
        &record,
        keltis::review::server_effort(record.setup.variant, record.setup.players),
        keltis::service::review::seed_of(id),
    )
    .expect("the record is reviewed");
    assert_eq!(
        done["review"],
        serde_json::to_value(&expected).expect("json")
    );
    // Keltis Card is judged by the hybrid judge, and the review says so, and by which revision.
    assert_eq!(done["review"]["judge"], "hybrid", "{}", done["review"]);
    assert_eq!(
        done["review"]["judge_revision"],
        keltis::review::JUDGE_REVISION,
        "{}",
        done["review"]
    );
    let decisions = done["review"]["decisions"].as_array().expect("decisions");
    assert!(!decisions.is_empty());
    for d in decisions {
        let index = d["index"].as_u64().expect("index") as usize;
        assert!(index < record.decisions.len());
        assert_eq!(
            d["played"],
            serde_json::to_value(&record.decisions[index].decision).unwrap()
        );
        if !d["mark"].is_null() {
            assert!(d["chance_lost"].as_f64().unwrap() >= 0.1, "{d}");
        }
    }

    // Asked again: the review, as it is.
    let again = s.post(&review_path(id), Some(&p[1].token), json!({}));
    assert_eq!(again.status, 200);
    assert_eq!(again.json()["review"], done["review"]);

    // The account's export carries it with the game.
    let export = s.get("/api/v1/me/export", Some(&p[0].token));
    assert_eq!(export.status, 200, "{}", export.text);
    let exported = export.json()["games"]
        .as_array()
        .and_then(|l| l.iter().find(|g| g["game"]["id"] == id).cloned())
        .expect("the game in the export");
    assert_eq!(exported["review"]["review"], done["review"]);
    // The profile gathers the accuracy per variant.
    let profile = s
        .get(
            &format!("/api/v1/players/{}", p[0].name),
            Some(&onlooker.token),
        )
        .json();
    let accuracy = &profile["accuracy"][0];
    assert_eq!(accuracy["variant"], "keltis-card", "{profile}");
    assert_eq!(accuracy["games"], 1);
    let own = done["review"]["summary"][0]["accuracy"].as_f64().unwrap();
    assert!(
        (accuracy["accuracy"].as_f64().unwrap() - own).abs() <= 0.05,
        "{profile}"
    );
}

/// Reviews queued, no worker in the server: two instances' passes at once take each review once;
/// one taken by an instance that stopped is taken again once its lease has run out.
fn each_review_is_done_once_and_a_stopped_one_again(db: Db) {
    let Some(s) = server(db, false) else { return };
    let p = users(&s, "queued", 2);
    // Short games, ended by a resignation after one turn: the cheapest reviews (this test is
    // about the worker, not the judge; an early decision's play-outs are whole games, so four
    // turns cost as much as a whole game by the quick judge).
    let ids: Vec<i64> = (0..3)
        .map(|_| {
            let id = s.started_game("neue-wege", &p);
            s.finish_turn(id, &p);
            resign(&s, id, &p[0]);
            let asked = s.post(&review_path(id), Some(&p[0].token), json!({}));
            assert_eq!(asked.status, 202, "{}", asked.text);
            id
        })
        .collect();
    let instances = [1, 2]
        .map(|_| support::instances::database(&s.database_url, 2).with_clock(s.clock.clone()));
    let drain = |db: &keltis::storage::Database| {
        let mut done = 0;
        while let keltis::service::review::Pass::Reviewed(_) =
            keltis::service::review::review_next(db, false).expect("a pass")
        {
            done += 1;
        }
        done
    };
    // The first is taken by an instance that then stops: claimed, never finished.
    let now = s.clock.now();
    instances[0]
        .write(|conn| keltis::storage::reviews::claim(conn, now, now + LEASE_MS))
        .expect("claimed")
        .expect("one waits");
    let reviewed: usize = if s.database_url.starts_with("postgres") {
        std::thread::scope(|scope| {
            let runs: Vec<_> = instances
                .iter()
                .map(|db| scope.spawn(move || drain(db)))
                .collect();
            runs.into_iter().map(|r| r.join().expect("no panic")).sum()
        })
    } else {
        instances.iter().map(|db| drain(db)).sum()
    };
    assert_eq!(reviewed, 2, "each review waiting is done once");
    let state = |id: i64| s.get(&review_path(id), Some(&p[1].token)).json()["state"].clone();
    assert_eq!(ids.iter().filter(|&&id| state(id) == "done").count(), 2);
    assert_eq!(ids.iter().filter(|&&id| state(id) == "running").count(), 1);
    s.clock.advance(LEASE_MS + 1);
    assert_eq!(drain(&instances[1]), 1);
    assert!(ids.iter().all(|&id| state(id) == "done"));
    // One notice per player and game.
    let notices = s.count("SELECT COUNT(*) AS n FROM notifications WHERE kind = 'review_ready'");
    assert_eq!(notices, 6);
}

on_both_databases!(
    a_finished_game_is_reviewed_on_request,
    each_review_is_done_once_and_a_stopped_one_again
);
