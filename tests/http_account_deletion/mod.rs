//! Deleting an account (`POST /me/delete`) over HTTP, with a real SMTP server on loopback: the
//! refusals (an API token, a wrong password, two-factor without or with a wrong code), then a
//! player with finished, running (2 and 3 players), open and invited games, tokens, webhooks, a
//! push device, a vacation and two-factor sign-in deletes the account. After it, a walk over
//! every table of the database finds neither the name nor the address, and the id only in the
//! placeholder's own rows (its user row, seats, results, games it created); the other players'
//! records replay to what they were, with the placeholder for the name; the 2-player game in
//! progress was won by the other player, the 3-player one goes on with the stand-in; the
//! goodbye reached the address and then left the database; the name stays taken for 30 days.
//! On SQLite, and on PostgreSQL when `TEST_DATABASE_URL` is set.

use crate::support;

use serde_json::{json, Value};
use support::mail::{confirmed_address, register, server_tuned};
use support::players::play_out;
use support::push::PushDevice;
use support::smtp::SmtpSink;
use support::{Db, TestServer, User};
use totp_rs::{Builder, Secret};

mod walk;

use walk::{archives, assert_erased};

const NAME: &str = "quintessa";

fn ok(a: support::Answer, status: u16) -> Value {
    assert_eq!(a.status, status, "{}", a.text);
    if a.text.is_empty() {
        Value::Null
    } else {
        a.json()
    }
}

fn text_of(s: &TestServer, path: &str, user: &User) -> String {
    let a = s.get(path, Some(&user.token));
    assert_eq!(a.status, 200, "{path}: {}", a.text);
    a.text
}

fn deleting_an_account_erases_it_and_keeps_the_others_records(db: Db) {
    let sink = SmtpSink::start();
    let s = server_tuned(db, &sink, |c| {
        c.push_allow_private = true;
        c.webhooks_allow_private = true;
        // Her review is done below, by a pass of this test's own.
        c.reviews = false;
    });
    let q = register(&s, NAME, "fr");
    let address = confirmed_address(&s, &sink, &q);
    let ben = register(&s, "ben", "en");
    let cara = register(&s, "cara", "en");
    let dan = register(&s, "dan", "en");

    // A finished game, packed.
    let over = s.started_game("keltis-card", &[q.clone(), ben.clone()]);
    play_out(&s, over, &[q.clone(), ben.clone()]);
    s.wait_packed(over);
    // Its review: her accuracy on her profile, erased with the account (the review stays).
    let asked = s.post(
        &format!("/api/v1/games/{over}/review"),
        Some(&q.token),
        json!({}),
    );
    assert_eq!(asked.status, 202, "{}", asked.text);
    let reviews = support::instances::database(&s.database_url, 1);
    assert!(matches!(
        keltis::service::review::review_next(&reviews, false),
        Ok(keltis::service::review::Pass::Reviewed(_))
    ));
    assert_eq!(
        s.count("SELECT COUNT(*) AS n FROM review_accuracies"),
        2,
        "both players' accuracies"
    );
    // A game she joined and left before it began: her name is only in its (packed) log.
    let left = s.create(&ben, json!({"variant": "keltis", "players": 3}));
    for (user, what) in [(&q, "join"), (&q, "leave"), (&cara, "join"), (&dan, "join")] {
        let path = format!("/api/v1/games/{left}/{what}");
        ok(s.post(&path, Some(&user.token), json!({})), 200);
    }
    play_out(&s, left, &[ben.clone(), cara.clone(), dan.clone()]);
    s.wait_packed(left);
    // Games in progress: two players, and three (her seat to act).
    let duel = s.started_game("keltis", &[q.clone(), ben.clone()]);
    s.finish_turn(duel, &[q.clone(), ben.clone()]);
    let trio = s.started_game("keltis", &[ben.clone(), q.clone(), cara.clone()]);
    for _ in 0..3 {
        if s.game(trio, &ben)["state"]["to_act"] == 1 {
            break;
        }
        s.finish_turn(trio, &[ben.clone(), q.clone(), cara.clone()]);
    }
    assert_eq!(s.game(trio, &ben)["state"]["to_act"], 1);
    // Ben's stored answer to a move names her (the seats).
    if s.game(duel, &ben)["state"]["to_act"] != 1 {
        s.finish_turn(duel, &[q.clone(), ben.clone()]);
    }
    let view = s.game(duel, &ben);
    let a = s.send(
        s.client
            .post(s.url(&format!("/api/v1/games/{duel}/decisions")))
            .bearer_auth(&ben.token)
            .header("Idempotency-Key", "move-1")
            .json(&json!({"expected_version": view["version"],
                          "decision": view["state"]["legal_decisions"][0]})),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    // An open game she created, with Dan seated; an invitation from her to Dan (his webhook
    // holds it), and one from Ben to her.
    let open = s.create(&q, json!({"variant": "keltis", "players": 3}));
    ok(
        s.post(
            &format!("/api/v1/games/{open}/join"),
            Some(&dan.token),
            json!({}),
        ),
        200,
    );
    ok(
        s.post(
            "/api/v1/me/webhooks",
            Some(&dan.token),
            json!({"url": "http://127.0.0.1:9/hook", "kinds": ["invitation"]}),
        ),
        201,
    );
    let invited = s.create(
        &q,
        json!({"variant": "keltis", "players": 2, "invite_only": true}),
    );
    ok(
        s.post(
            &format!("/api/v1/games/{invited}/invites"),
            Some(&q.token),
            json!({"user": "dan"}),
        ),
        200,
    );
    let hers = s.create(
        &ben,
        json!({"variant": "keltis", "players": 2, "invite_only": true}),
    );
    ok(
        s.post(
            &format!("/api/v1/games/{hers}/invites"),
            Some(&ben.token),
            json!({"user": NAME}),
        ),
        200,
    );
    // What is hers alone: a token, a webhook, a push device, a vacation, two-factor sign-in.
    let token = ok(
        s.post(
            "/api/v1/me/tokens",
            Some(&q.token),
            json!({"name": "bot", "scopes": ["read", "play"]}),
        ),
        201,
    )["token"]
        .as_str()
        .unwrap()
        .to_string();
    ok(
        s.post(
            "/api/v1/me/webhooks",
            Some(&q.token),
            json!({"url": "http://127.0.0.1:9/q", "kinds": ["your_turn"]}),
        ),
        201,
    );
    let key = ok(s.get("/api/v1/push/vapid-public-key", Some(&q.token)), 200)["public_key"]
        .as_str()
        .unwrap()
        .to_string();
    let device = PushDevice::start(&key, &[]);
    ok(
        s.post(
            "/api/v1/me/push-subscriptions",
            Some(&q.token),
            device.subscription.clone(),
        ),
        201,
    );
    let a = s.post("/api/v1/me/vacation", Some(&q.token), json!({}));
    assert!(a.status < 300, "{}", a.text);
    let secret = ok(
        s.post("/api/v1/me/two-factor", Some(&q.token), json!({})),
        201,
    )["secret"]
        .as_str()
        .unwrap()
        .to_string();
    let app = Builder::new()
        .with_secret(Secret::try_from_base32(&secret).unwrap())
        .build()
        .unwrap();
    let code_at = |ms: i64| app.generate((ms / 1000) as u64).to_string();
    ok(
        s.post(
            "/api/v1/me/two-factor/confirm",
            Some(&q.token),
            json!({"code": code_at(s.clock.now())}),
        ),
        200,
    );

    // What the others see of the finished games, before.
    let records_before: Vec<String> = [over, left]
        .iter()
        .map(|id| text_of(&s, &format!("/api/v1/games/{id}/record"), &ben))
        .collect();
    let over_events_before = text_of(&s, &format!("/api/v1/games/{over}/events"), &ben);

    // Refusals.
    let delete = |token: &str, body: Value| s.post("/api/v1/me/delete", Some(token), body);
    let a = delete(&token, json!({"password": "correct horse"}));
    assert_eq!((a.status, a.code().as_str()), (403, "insufficient_scope"));
    let a = delete(&q.token, json!({"password": "wrong horse"}));
    assert_eq!((a.status, a.code().as_str()), (403, "wrong_password"));
    let a = delete(&q.token, json!({"password": "correct horse"}));
    assert_eq!((a.status, a.code().as_str()), (403, "code_required"));
    let a = delete(
        &q.token,
        json!({"password": "correct horse", "code": "nope"}),
    );
    assert_eq!((a.status, a.code().as_str()), (422, "invalid_code"));
    assert_eq!(
        s.get("/api/v1/me", Some(&q.token)).status,
        200,
        "nothing was deleted"
    );

    // The deletion.
    s.clock.advance(30_000);
    let a = delete(
        &q.token,
        json!({"password": "correct horse", "code": code_at(s.clock.now())}),
    );
    assert_eq!(a.status, 204, "{}", a.text);

    // Every credential stops working; the name names nobody.
    assert_eq!(s.get("/api/v1/me", Some(&q.token)).status, 401);
    assert_eq!(s.get("/api/v1/me", Some(&token)).status, 401);
    let a = s.post(
        "/api/v1/auth/refresh",
        None,
        json!({"refresh_token": q.refresh_token}),
    );
    assert_eq!(a.status, 401, "{}", a.text);
    let a = s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": NAME, "password": "correct horse"}),
    );
    assert_eq!(a.status, 401, "{}", a.text);
    assert_eq!(
        s.get(&format!("/api/v1/players/{NAME}"), Some(&ben.token))
            .status,
        404
    );

    // The finished games name the placeholder, and replay as before.
    let seats = s.game(over, &ben)["seats"].clone();
    let placeholder = seats[0]["user"].as_str().unwrap().to_string();
    assert!(placeholder.starts_with("deleted-"), "{seats}");
    assert_eq!(seats[1]["user"], "ben");
    // Her accuracy went with the account; the review (seats, not names) stays with the game.
    assert_eq!(s.count("SELECT COUNT(*) AS n FROM review_accuracies"), 1);
    let review = s.get(&format!("/api/v1/games/{over}/review"), Some(&ben.token));
    assert_eq!(
        (review.status, review.json()["state"].clone()),
        (200, json!("done"))
    );
    for (id, before) in [over, left].iter().zip(&records_before) {
        let after = text_of(&s, &format!("/api/v1/games/{id}/record"), &ben);
        assert_eq!(
            after,
            before.replace(NAME, &placeholder),
            "game {id}'s record"
        );
    }
    let over_events = text_of(&s, &format!("/api/v1/games/{over}/events"), &ben);
    assert!(
        over_events == over_events_before.replace(NAME, &placeholder),
        "events changed"
    );
    assert_eq!(
        s.get(&format!("/api/v1/players/{placeholder}"), Some(&ben.token))
            .status,
        404
    );
    let a = s.post(
        &format!("/api/v1/games/{open}/invites"),
        Some(&dan.token),
        json!({"user": placeholder}),
    );
    assert_eq!((a.status, a.code().as_str()), (422, "unknown_user"));

    // Her games in progress: the duel is Ben's, the trio goes on with the stand-in.
    let duel_view = s.game(duel, &ben);
    assert_eq!(duel_view["status"], "over", "{duel_view}");
    let trio_view = s.wait_for(trio, &ben, |v| v["state"]["to_act"] != 1);
    assert_eq!(trio_view["status"], "active");
    assert!(trio_view["seats"][1]["user"]
        .as_str()
        .unwrap()
        .starts_with("deleted-"));
    let events: Vec<Value> = s.events(trio, &ben);
    assert_eq!(support::kinds(&events, "seat_taken_over"), 1);
    // The open game she created waits for players without her; her invitations are gone.
    let open_view = s.game(open, &dan);
    assert_eq!(open_view["status"], "open");
    assert_eq!(open_view["seats"].as_array().unwrap().len(), 1);
    assert_eq!(open_view["seats"][0]["user"], "dan");
    // She left the leaderboard.
    let board = text_of(&s, "/api/v1/leaderboards/keltis-card", &ben);
    assert!(!board.contains("deleted-"), "{board}");

    // The goodbye reached her address, in her language, and left no copy of it.
    let goodbye = "Votre compte Keltis a été supprimé";
    let subjects = || -> Vec<String> {
        sink.to(&address)
            .iter()
            .map(|m| m["headers"]["Subject"].as_str().unwrap_or("").to_string())
            .collect()
    };
    for _ in 0..200 {
        if subjects().iter().any(|s| s == goodbye) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(subjects().iter().any(|s| s == goodbye), "{:?}", subjects());
    for _ in 0..200 {
        if s.count(&format!(
            "SELECT COUNT(*) AS n FROM notifications WHERE user_id = {}",
            q.id
        )) == 0
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_erased(&s, q.id, &address);

    // The name stays taken for 30 days, in any case; then anyone may take it.
    let again = json!({"name": NAME, "password": "correct horse"});
    let a = s.post("/api/v1/auth/register", None, again.clone());
    assert_eq!((a.status, a.code().as_str()), (409, "name_taken"));
    let a = s.post(
        "/api/v1/auth/register",
        None,
        json!({"name": "QUINTESSA", "password": "correct horse"}),
    );
    assert_eq!((a.status, a.code().as_str()), (409, "name_taken"));
    let a = s.post(
        "/api/v1/auth/register",
        None,
        json!({"name": placeholder, "password": "correct horse"}),
    );
    assert_eq!((a.status, a.code().as_str()), (422, "invalid_name"));
    s.clock.advance(31 * 24 * 3600 * 1000);
    let a = s.post("/api/v1/auth/register", None, again);
    assert_eq!(a.status, 201, "{}", a.text);
    assert_ne!(a.json()["user_id"], q.id, "a new account, not the old one");
}

mail_tests_on_both_databases!(deleting_an_account_erases_it_and_keeps_the_others_records);

/// Both macros name their modules `sqlite` and `postgres`: this scenario has a room of its own.
mod interrupted {
    use super::*;

    /// A deletion whose renaming was cut short (the instance stopped after the erasing transaction):
    /// two more instances start on the database, and their maintenance workers finish it once, between
    /// them: no event, packed log or record names the player after it, and the row is gone.
    fn an_interrupted_deletion_is_finished_by_the_maintenance_workers(db: Db) {
        let s = support::spawn(db, |_| {}).expect("a database for this test");
        let q = s.register(NAME);
        let ben = s.register("ben");
        let over = s.started_game("keltis-card", &[q.clone(), ben.clone()]);
        play_out(&s, over, &[q.clone(), ben.clone()]);
        s.wait_packed(over);
        let running = s.started_game("keltis", &[ben.clone(), q.clone()]);
        let record_before = text_of(&s, &format!("/api/v1/games/{over}/record"), &ben);
        // What the erasing transaction leaves when the instance stops right after it.
        let placeholder = "deleted-00000000aa";
        s.execute_sql(&format!(
            "UPDATE users SET name = '{placeholder}', password_hash = '', deleted_at = 1 \
             WHERE id = {}",
            q.id
        ));
        s.execute_sql(&format!(
            "INSERT INTO account_erasures (user_id, former_name, placeholder, started_at, \
             claimed_until) VALUES ({}, '{NAME}', '{placeholder}', 0, 0)",
            q.id
        ));
        let named = || {
            s.count(&format!(
                "SELECT COUNT(*) AS n FROM game_events WHERE payload LIKE '%{NAME}%'"
            ))
        };
        assert!(named() > 0, "the running game's log names her");

        let (b, c) = (support::second_instance(&s), support::second_instance(&s));
        for _ in 0..300 {
            if s.count("SELECT COUNT(*) AS n FROM account_erasures") == 0 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert_eq!(s.count("SELECT COUNT(*) AS n FROM account_erasures"), 0);
        assert_eq!(named(), 0, "the live logs are renamed");
        for log in archives(&s) {
            assert!(!log.contains(NAME), "a packed log: {log}");
        }
        let record = text_of(&b, &format!("/api/v1/games/{over}/record"), &ben);
        assert!(
            record == record_before.replace(NAME, placeholder),
            "the record changed"
        );
        let events = c.events(running, &ben);
        assert_eq!(events[0]["data"]["by"], "ben");
        assert_eq!(events[2]["data"]["user"], placeholder, "{}", events[2]);
    }

    on_both_databases!(an_interrupted_deletion_is_finished_by_the_maintenance_workers);
}
