//! Webhooks: signed deliveries to a receiver on loopback, a retry after a 500, the owner's
//! delivery log, an endpoint disabled after failures in a row, and the refusal of private
//! addresses. Time for the retries comes from the test's clock. On SQLite, and on PostgreSQL when
//! `TEST_DATABASE_URL` is set.

use crate::support;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;
use support::webhook::{Received, Receiver};
use support::{Db, TestServer, User};

const HOUR: i64 = 3600 * 1000;

/// Every instance in these tests may call the receiver on loopback.
fn tune(c: &mut keltis::config::Config) {
    c.webhooks_allow_private = true;
    c.webhook_interval_ms = 50;
}

fn server(db: Db) -> TestServer {
    support::spawn(db, tune).expect("a database for this test")
}

fn register_hook(s: &TestServer, user: &User, url: &str, kinds: Value) -> (i64, String) {
    let a = s.post(
        "/api/v1/me/webhooks",
        Some(&user.token),
        json!({"url": url, "kinds": kinds}),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    let body = a.json();
    assert_eq!(body["webhook"]["active"], true);
    (
        body["webhook"]["id"].as_i64().unwrap(),
        body["secret"].as_str().unwrap().to_string(),
    )
}

/// Check a delivery's signature as a receiver following Standard Webhooks would.
fn assert_signed(request: &Received, secret: &str) {
    let id = &request.headers["webhook-id"];
    let timestamp = &request.headers["webhook-timestamp"];
    let key = BASE64
        .decode(secret.strip_prefix("whsec_").expect("whsec_ prefix"))
        .unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(format!("{id}.{timestamp}.{}", request.body).as_bytes());
    let expected = format!("v1,{}", BASE64.encode(mac.finalize().into_bytes()));
    let sent = &request.headers["webhook-signature"];
    assert!(
        sent.split(' ').any(|s| s == expected),
        "signature {sent}, expected {expected}"
    );
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let ts: i64 = timestamp.parse().unwrap();
    assert!((now - ts).abs() < 300, "a fresh timestamp");
}

/// Play until `seat` is to act (so that it gets a "your turn").
fn until_turn_of(s: &TestServer, id: i64, players: &[User], seat: u64) {
    for _ in 0..4 {
        if s.game(id, &players[0])["state"]["to_act"] == seat {
            return;
        }
        s.finish_turn(id, players);
    }
    panic!("never the turn of seat {seat}");
}

/// A "your turn" reaches the endpoint signed; answered 500, it comes again (the same
/// `webhook-id`) after the backoff, and the owner's log shows both attempts.
fn a_webhook_is_signed_retried_and_logged(db: Db) {
    let s = server(db);
    let receiver = Receiver::start(&[500]);
    let players = [s.register("hooked"), s.register("plain")];
    let (hook, secret) = register_hook(&s, &players[0], &receiver.url, json!(["your_turn"]));
    let id = s.started_with(json!({"variant": "keltis-card", "players": 2}), &players);
    until_turn_of(&s, id, &players, 0);
    let got = receiver.wait_for(1);
    attempts_recorded(&s, 1);
    let first = &got[0];
    assert_eq!(first.answered, 500);
    assert_signed(first, &secret);
    let body: Value = serde_json::from_str(&first.body).unwrap();
    assert_eq!(body["type"], "your_turn");
    assert_eq!(body["data"]["kind"], "your_turn");
    assert_eq!(body["data"]["game_id"], id);
    assert!(body["timestamp"].as_str().unwrap().ends_with('Z'));
    assert!(
        !first.body.contains("hand"),
        "no hidden information: {}",
        first.body
    );
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(receiver.received().len(), 1, "no retry before the backoff");
    s.clock.advance(31_000);
    let got = receiver.wait_for(2);
    attempts_recorded(&s, 2);
    let second = &got[1];
    assert_eq!(second.answered, 200);
    assert_signed(second, &secret);
    assert_eq!(
        second.headers["webhook-id"], first.headers["webhook-id"],
        "a retry is the same message"
    );
    assert_eq!(second.body.len(), first.body.len());
    let log = s.get(
        &format!("/api/v1/me/webhooks/{hook}/attempts"),
        Some(&players[0].token),
    );
    assert_eq!(log.status, 200, "{}", log.text);
    let log = log.json();
    assert_eq!(log.as_array().unwrap().len(), 2, "{log}");
    assert_eq!(log[0]["succeeded"], true);
    assert_eq!(log[0]["status_code"], 200);
    assert_eq!(log[1]["succeeded"], false);
    assert_eq!(log[1]["status_code"], 500);
    assert_eq!(log[0]["delivery_id"], log[1]["delivery_id"]);
    // Delivered: nothing more comes, and the other player's log is not theirs to read.
    s.clock.advance(HOUR);
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(receiver.received().len(), 2);
    let theirs = s.get(
        &format!("/api/v1/me/webhooks/{hook}/attempts"),
        Some(&players[1].token),
    );
    assert_eq!(theirs.status, 404, "{}", theirs.text);
    let list = s.get("/api/v1/me/webhooks", Some(&players[0].token)).json();
    assert_eq!(list[0]["failures"], 0);
    assert!(list[0].get("secret").is_none(), "the secret is shown once");
}

/// Wait (real time, briefly) until the server has recorded `n` attempts. The receiver counts a
/// request before it answers, so the server may not yet have recorded the answer, nor scheduled
/// the retry: advancing the clock before then would push the retry out of reach.
fn attempts_recorded(s: &TestServer, n: usize) {
    for _ in 0..200 {
        if s.count("SELECT COUNT(*) AS n FROM webhook_attempts") >= n {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    panic!("{n} attempts not recorded");
}

/// An endpoint that fails 20 times in a row is disabled, and gets nothing more until its owner
/// turns it on again.
fn an_endpoint_failing_again_and_again_is_disabled(db: Db) {
    let s = server(db);
    let receiver = Receiver::start(&[500; 100]);
    let players = [s.register("failing"), s.register("partner")];
    let (hook, _) = register_hook(
        &s,
        &players[0],
        &receiver.url,
        json!(["your_turn", "game_started"]),
    );
    let id = s.started_with(json!({"variant": "keltis-card", "players": 2}), &players);
    until_turn_of(&s, id, &players, 0);
    // Two deliveries (the start and a turn), ten attempts each: twenty failures.
    let mut disabled = false;
    for _ in 0..60 {
        s.clock.advance(13 * HOUR);
        std::thread::sleep(std::time::Duration::from_millis(100));
        let list = s.get("/api/v1/me/webhooks", Some(&players[0].token)).json();
        if list[0]["active"] == false {
            assert_eq!(list[0]["failures"], 20, "{list}");
            disabled = true;
            break;
        }
    }
    assert!(disabled, "disabled after 20 failures");
    let attempts = receiver.received().len();
    assert_eq!(attempts, 20);
    s.finish_turn(id, &players);
    until_turn_of(&s, id, &players, 0);
    s.clock.advance(13 * HOUR);
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        receiver.received().len(),
        attempts,
        "nothing while disabled"
    );
    let a = s.post(
        &format!("/api/v1/me/webhooks/{hook}/enable"),
        Some(&players[0].token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["active"], true);
    assert_eq!(a.json()["failures"], 0);
}

/// Private addresses are refused unless the operator allows them; bad input is a clear error;
/// an endpoint can be removed.
fn endpoints_are_checked_and_removable(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let user = s.register("careful");
    for (url, code) in [
        ("http://127.0.0.1:9/hook", "private_webhook_address"),
        ("http://10.0.0.1/hook", "private_webhook_address"),
        (
            "http://169.254.169.254/latest/meta-data",
            "private_webhook_address",
        ),
        ("http://[::1]/hook", "private_webhook_address"),
        ("ftp://example.org/hook", "invalid_webhook_url"),
        ("not a url", "invalid_webhook_url"),
    ] {
        let a = s.post(
            "/api/v1/me/webhooks",
            Some(&user.token),
            json!({"url": url, "kinds": ["your_turn"]}),
        );
        assert_eq!((a.status, a.code()), (422, code.to_string()), "{url}");
    }
    let a = s.post(
        "/api/v1/me/webhooks",
        Some(&user.token),
        json!({"url": "http://93.184.216.34/hook", "kinds": []}),
    );
    assert_eq!((a.status, a.code()), (422, "invalid_webhook_kinds".into()));
    let a = s.post(
        "/api/v1/me/webhooks",
        Some(&user.token),
        json!({"url": "http://93.184.216.34/hook", "kinds": ["everything"]}),
    );
    assert!(a.status == 400 || a.status == 422, "{}", a.text);
    let (hook, _) = register_hook(&s, &user, "http://93.184.216.34/hook", json!(["game_over"]));
    let a = s.delete(&format!("/api/v1/me/webhooks/{hook}"), Some(&user.token));
    assert_eq!(a.status, 204, "{}", a.text);
    let a = s.delete(&format!("/api/v1/me/webhooks/{hook}"), Some(&user.token));
    assert_eq!(a.status, 404, "{}", a.text);
    assert_eq!(
        s.get("/api/v1/me/webhooks", Some(&user.token)).json(),
        json!([])
    );
}

/// The maintenance sweep deletes a finished delivery, with its attempts, once it is 30 days old,
/// and not before (the rows' dates are moved back, as the sweep reads the system's clock).
fn finished_deliveries_are_swept_after_30_days(db: Db) {
    let s = support::spawn(db, |c| {
        c.webhooks_allow_private = true;
        c.webhook_interval_ms = 50;
        c.maintenance_interval_seconds = 1;
    })
    .expect("a database for this test");
    let receiver = Receiver::start(&[500]);
    let players = [s.register("swept"), s.register("keeps")];
    register_hook(&s, &players[0], &receiver.url, json!(["your_turn"]));
    let id = s.started_with(json!({"variant": "keltis-card", "players": 2}), &players);
    until_turn_of(&s, id, &players, 0);
    receiver.wait_for(1);
    attempts_recorded(&s, 1);
    s.clock.advance(31_000);
    receiver.wait_for(2);
    let rows = || {
        (
            s.count("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status <> 'pending'"),
            s.count("SELECT COUNT(*) AS n FROM webhook_attempts"),
        )
    };
    let wait_for = |expected: (usize, usize)| {
        let mut left = rows();
        for _ in 0..100 {
            if left == expected {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
            left = rows();
        }
        left
    };
    assert_eq!(wait_for((1, 2)), (1, 2), "one delivery, two attempts");
    let day = 24 * HOUR;
    s.execute_sql(&format!(
        "UPDATE webhook_deliveries SET created_at = created_at - {}",
        29 * day
    ));
    // Two sweeps later (one a second), a 29-day-old delivery is still there.
    std::thread::sleep(std::time::Duration::from_millis(2_500));
    assert_eq!(rows(), (1, 2), "kept for 30 days");
    s.execute_sql(&format!(
        "UPDATE webhook_deliveries SET created_at = created_at - {}",
        2 * day
    ));
    assert_eq!(wait_for((0, 0)), (0, 0), "swept after 30 days");
}

/// A signing secret is kept sealed, never as given; one kept in the clear by an older version
/// still signs, and is sealed when an instance starts.
fn signing_secrets_are_sealed_at_rest(db: Db) {
    let s = server(db);
    let receiver = Receiver::start(&[]);
    let players = [s.register("sealed"), s.register("other")];
    let (_, secret) = register_hook(&s, &players[0], &receiver.url, json!(["your_turn"]));
    let in_the_clear = format!("SELECT COUNT(*) AS n FROM webhooks WHERE secret = '{secret}'");
    let sealed = "SELECT COUNT(*) AS n FROM webhooks WHERE secret LIKE 'sealed:%'";
    assert_eq!((s.count(&in_the_clear), s.count(sealed)), (0, 1));
    // As an older version kept it: in the clear. Deliveries are still signed with it.
    s.execute_sql(&format!("UPDATE webhooks SET secret = '{secret}'"));
    let id = s.started_with(json!({"variant": "keltis-card", "players": 2}), &players);
    until_turn_of(&s, id, &players, 0);
    assert_signed(&receiver.wait_for(1)[0], &secret);
    // An instance starting on the database seals it; the next delivery is signed the same.
    // Tuned as the first: its worker may be the one that delivers (to loopback).
    let _upgraded = support::another_instance(&s, tune).expect("a second instance");
    assert_eq!((s.count(&in_the_clear), s.count(sealed)), (0, 1));
    s.finish_turn(id, &players);
    until_turn_of(&s, id, &players, 0);
    assert_signed(&receiver.wait_for(2)[1], &secret);
}

on_both_databases!(
    signing_secrets_are_sealed_at_rest,
    finished_deliveries_are_swept_after_30_days,
    a_webhook_is_signed_retried_and_logged,
    an_endpoint_failing_again_and_again_is_disabled,
    endpoints_are_checked_and_removable,
);
