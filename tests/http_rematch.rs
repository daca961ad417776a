//! Rematches (issue 46), over HTTP on both databases with a real SMTP server on loopback: an
//! offer at a finished game reaches an offline opponent by email, whose link leads to the game
//! where it is accepted; the new game has the same settings with the seats rotated; offers are
//! declined, lapse, and are refused before the end or to players who did not play.

use crate::support;

use serde_json::{json, Value};
use support::mail::{confirmed_address, link, register, server, PUBLIC};
use support::smtp::SmtpSink;
use support::{Db, TestServer, User};

const DAY: i64 = 24 * 3_600_000;

/// A finished two-player game with these settings: the second player resigned.
fn finished(s: &TestServer, players: &[User], body: Value) -> i64 {
    let id = s.started_with(body, players);
    let a = s.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&players[1].token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    id
}

fn rematch(s: &TestServer, id: i64, user: &User) -> support::Answer {
    s.post(
        &format!("/api/v1/games/{id}/rematch"),
        Some(&user.token),
        json!({}),
    )
}

/// Ann offers; Ben, offline, gets the email in his language, follows its link to the game and
/// accepts there: the new game has the same variant, time control and rating mode, Ben first.
fn a_rematch_is_accepted_from_its_email(db: Db) {
    let sink = SmtpSink::start();
    let s = server(db, &sink, None);
    let ann = register(&s, "ann", "en");
    let ben = register(&s, "ben", "de-DE");
    confirmed_address(&s, &sink, &ann);
    let ben_at = confirmed_address(&s, &sink, &ben);
    let control = json!({"type": "per_turn", "seconds": 3 * 86400});
    let body =
        json!({"variant": "keltis-card", "players": 2, "rated": false, "time_control": control});
    let players = [ann.clone(), ben.clone()];
    let id = finished(&s, &players, body);
    // Not before the end, nor by a stranger.
    let cyd = register(&s, "cyd", "en");
    let a = rematch(&s, id, &cyd);
    assert_eq!((a.status, a.code()), (403, "not_seated".into()));
    let running = s.started_game("keltis", &[ann.clone(), cyd.clone()]);
    let a = rematch(&s, running, &ann);
    assert_eq!((a.status, a.code()), (409, "game_not_over".into()));
    // No offer yet is a normal state, not an error (a browser logs every 404 as one).
    let a = s.get(&format!("/api/v1/games/{id}/rematch"), Some(&ann.token));
    assert_eq!((a.status, a.text.as_str()), (204, ""));
    let a = s.get(
        &format!("/api/v1/games/{}/rematch", id + 1000),
        Some(&ann.token),
    );
    assert_eq!((a.status, a.code()), (404, "not_found".into()));

    let before = sink.to(&ben_at).len();
    let a = rematch(&s, id, &ann);
    assert_eq!(a.status, 200, "{}", a.text);
    let offer = a.json();
    assert_eq!(offer["state"], "offered");
    assert_eq!(offer["offered_by"], "ann");
    assert_eq!(offer["waiting_for"], json!(["ben"]));
    assert_eq!(offer["expires_at"].as_i64(), Some(s.clock.now() + 3 * DAY));
    // Offering again changes nothing.
    assert_eq!(rematch(&s, id, &ann).json()["accepted"], json!(["ann"]));

    // Ben's mail also tells of the first game's start and end: the offer is the one that
    // speaks of a rematch, in German.
    let subject_of = |m: &Value| m["headers"]["Subject"].as_str().unwrap_or("").to_string();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let email = loop {
        let mail = sink.wait_for(&ben_at, before + 1);
        if let Some(m) = mail.iter().find(|m| subject_of(m).contains("Revanche")) {
            break m.clone();
        }
        assert!(std::time::Instant::now() < deadline, "no offer in {mail:?}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let subject = subject_of(&email);
    assert!(subject.contains("ann"), "{subject}");
    let email = &email;
    let page = link(&s, email, &format!("{PUBLIC}/games/{id}"));
    let a = s.send(s.client.get(&page));
    assert_eq!(a.status, 200, "the game's page opens");
    let shown = s.get(&format!("/api/v1/games/{id}/rematch"), Some(&ben.token));
    assert_eq!(shown.json()["waiting_for"], json!(["ben"]));
    let a = rematch(&s, id, &ben);
    assert_eq!(a.status, 200, "{}", a.text);
    let started = a.json();
    assert_eq!(started["state"], "started");
    let new_id = started["new_game_id"].as_i64().expect("the new game");
    let view = s.game(new_id, &ben);
    assert_eq!(view["variant"], "keltis-card");
    assert_eq!(view["rated"], false);
    assert_eq!(view["time_control"], control);
    assert_eq!(view["seats"][0]["user"], "ben");
    assert_eq!(view["seats"][1]["user"], "ann");
    // Who moved second in the finished game moves first in the rematch (issue 68: the deal's
    // draw decided).
    let events = s
        .get(&format!("/api/v1/games/{id}/events"), Some(&ann.token))
        .json();
    let first = events
        .as_array()
        .and_then(|all| all.iter().find(|e| e["kind"] == "started"))
        .and_then(|e| e["data"]["start_player"].as_u64())
        .expect("the finished game's first mover") as usize;
    let second = ["ann", "ben"][(first + 1) % 2];
    let to_act = view["state"]["to_act"].as_u64().expect("a seat to act") as usize;
    assert_eq!(view["seats"][to_act]["user"], second, "{view}");
    // Accepting again answers the same game; declining a started one is refused.
    assert_eq!(rematch(&s, id, &ann).json()["new_game_id"], new_id);
    let a = s.delete(&format!("/api/v1/games/{id}/rematch"), Some(&ben.token));
    assert_eq!((a.status, a.code()), (409, "no_rematch_offer".into()));
}

/// A declined offer closes; a new one may be made, and it lapses after three days. Against a
/// bot, the bot accepts at once.
fn rematches_are_declined_lapse_and_bots_accept(db: Db) {
    let sink = SmtpSink::start();
    let s = server(db, &sink, None);
    let ann = register(&s, "ann", "en");
    let ben = register(&s, "ben", "fr");
    let players = [ann.clone(), ben.clone()];
    let id = finished(&s, &players, json!({"variant": "keltis", "players": 2}));
    assert_eq!(rematch(&s, id, &ann).status, 200);
    let a = s.delete(&format!("/api/v1/games/{id}/rematch"), Some(&ben.token));
    assert_eq!(a.status, 200, "{}", a.text);
    let declined = a.json();
    assert_eq!(
        (declined["state"].clone(), declined["declined_by"].clone()),
        ("declined".into(), "ben".into())
    );
    // Offered again, by Ben this time; nobody answers for three days.
    let again = rematch(&s, id, &ben).json();
    assert_eq!(
        (again["state"].clone(), again["offered_by"].clone()),
        ("offered".into(), "ben".into())
    );
    s.clock.advance(3 * DAY);
    let lapsed = s
        .get(&format!("/api/v1/games/{id}/rematch"), Some(&ann.token))
        .json();
    assert_eq!(lapsed["state"], "lapsed");
    assert_eq!(lapsed["waiting_for"], json!([]));

    // Against a bot: the rematch starts at once.
    let vs_bot = s.create(
        &ann,
        json!({"variant": "keltis-card", "players": 2, "bots": ["bot-random"]}),
    );
    let a = s.post(
        &format!("/api/v1/games/{vs_bot}/resign"),
        Some(&ann.token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    let a = rematch(&s, vs_bot, &ann);
    assert_eq!(a.status, 200, "{}", a.text);
    let started = a.json();
    assert_eq!(started["state"], "started", "{started}");
    let view = s.game(started["new_game_id"].as_i64().unwrap(), &ann);
    assert_eq!(view["seats"][0]["user"], "bot-random");
}

mail_tests_on_both_databases!(
    a_rematch_is_accepted_from_its_email,
    rematches_are_declined_lapse_and_bots_accept,
);
