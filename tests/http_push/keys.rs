//! Web Push's keys and reach (issue 29): subscriptions are validated and bounded, instances on
//! one database share one VAPID key kept sealed, and two instances never push a notice twice. On
//! SQLite, and on PostgreSQL when `TEST_DATABASE_URL` is set.

use crate::support;

use serde_json::{json, Value};
use support::push::PushDevice;
use support::{Db, User};

use super::{device, of_kind, server, server_key};

/// Subscriptions are checked: keys that are not a P-256 point and a 16-byte secret, endpoints
/// that are not URLs, more than ten devices; the VAPID key is the one pushes are signed with.
fn subscriptions_are_validated_and_bounded(db: Db) {
    let s = server(db);
    let anna = s.register("anna");
    let d = PushDevice::start(&server_key(&s), &[]);
    let mut bad_key = d.subscription.clone();
    bad_key["keys"]["p256dh"] = json!("AAAA");
    let mut bad_auth = d.subscription.clone();
    bad_auth["keys"]["auth"] = json!("c2hvcnQ");
    let mut bad_url = d.subscription.clone();
    bad_url["endpoint"] = json!("ftp://push.example/");
    for (body, code) in [
        (bad_key, "invalid_push_keys"),
        (bad_auth, "invalid_push_keys"),
        (bad_url, "invalid_push_endpoint"),
        (
            json!({"endpoint": "https://x.example/", "keys": {"p256dh": "a", "auth": "b"}, "extra": 1}),
            "invalid_body",
        ),
    ] {
        let a = s.post(
            "/api/v1/me/push-subscriptions",
            Some(&anna.token),
            body.clone(),
        );
        assert_eq!(a.status, 422, "{body}: {}", a.text);
        assert_eq!(a.code(), code, "{body}");
    }
    // Registering the same endpoint again updates its device.
    for _ in 0..2 {
        let a = s.post(
            "/api/v1/me/push-subscriptions",
            Some(&anna.token),
            d.subscription.clone(),
        );
        assert_eq!(a.status, 201, "{}", a.text);
    }
    for i in 1..10 {
        let mut other = d.subscription.clone();
        other["endpoint"] = json!(format!(
            "{}-{i}",
            d.subscription["endpoint"].as_str().unwrap()
        ));
        let a = s.post("/api/v1/me/push-subscriptions", Some(&anna.token), other);
        assert_eq!(a.status, 201, "{}", a.text);
    }
    let mut eleventh = d.subscription.clone();
    eleventh["endpoint"] = json!("http://127.0.0.1:9/eleventh");
    let a = s.post("/api/v1/me/push-subscriptions", Some(&anna.token), eleventh);
    assert_eq!((a.status, a.code()), (409, "too_many_push_devices".into()));
    let list = s
        .get("/api/v1/me/push-subscriptions", Some(&anna.token))
        .json();
    assert_eq!(list.as_array().unwrap().len(), 10);
    let id = list[0]["id"].as_i64().unwrap();
    assert_eq!(
        s.delete(
            &format!("/api/v1/me/push-subscriptions/{id}"),
            Some(&anna.token)
        )
        .status,
        204
    );
    assert_eq!(
        s.delete(
            &format!("/api/v1/me/push-subscriptions/{id}"),
            Some(&anna.token)
        )
        .status,
        404
    );
    // Without the operator's setting, a private endpoint is refused.
    let strict = support::spawn(db, |_| {}).expect("a database");
    let bert = strict.register("bert");
    let a = strict.post(
        "/api/v1/me/push-subscriptions",
        Some(&bert.token),
        d.subscription.clone(),
    );
    assert_eq!((a.status, a.code()), (422, "private_push_endpoint".into()));
}

/// Two instances on one database push each notice once.
fn two_instances_never_push_twice(db: Db) {
    if db != Db::Postgres {
        return;
    }
    let a = server(db);
    // Tuned as the first, so that both instances' workers push (to loopback).
    let b = support::another_instance(&a, super::tune).expect("a second instance");
    let anna = a.register("anna");
    let bert = a.register("bert");
    let pair = [anna.clone(), bert.clone()];
    let (anna_phone, _) = device(&a, &anna, &[]);
    let (bert_phone, _) = device(&a, &bert, &[]);
    let id = a.started_game("keltis-card", &pair);
    for _ in 0..6 {
        a.finish_turn(id, &pair);
        std::thread::sleep(std::time::Duration::from_millis(150));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let notices = |u: &User| {
        a.get("/api/v1/me/notifications", Some(&u.token))
            .json()
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["notice"]["kind"] == "your_turn")
            .count()
    };
    for (user, d) in [(&anna, &anna_phone), (&bert, &bert_phone)] {
        let pushed: Vec<Value> = of_kind(&d.pushes(), "your_turn")
            .iter()
            .map(|p| p.message.clone())
            .collect();
        assert!(pushed.len() <= notices(user), "{pushed:?}");
        let ids = a.count(&format!(
            "SELECT COUNT(*) AS n FROM push_deliveries d JOIN push_subscriptions s \
             ON s.id = d.subscription_id WHERE s.user_id = {} AND d.status = 'sent' \
             AND d.kind = 'your_turn'",
            user.id
        ));
        assert_eq!(pushed.len(), ids, "each sent delivery arrived once");
    }
    drop(b);
}

/// Without a VAPID setting, instances starting together on a fresh database make one key between
/// them, kept sealed in the database; a later instance reads it and its pushes verify; the setting
/// wins when given; an instance whose `--jwt-secret` cannot open the kept key refuses to start.
fn instances_share_one_vapid_key_kept_sealed(db: Db) {
    let unset = |c: &mut keltis::config::Config| {
        c.vapid_private_key = None;
        c.push_allow_private = true;
        c.push_interval_ms = 50;
    };
    let together = support::instances::started_together(db, 3, unset).expect("a database");
    let key = server_key(&together[0]);
    for s in &together[1..] {
        assert_eq!(server_key(s), key, "one key for every instance");
    }
    let a = &together[0];
    assert_eq!(a.count("SELECT COUNT(*) AS n FROM server_secrets"), 1);
    let sealed =
        support::database::texts_at(&a.database_url, "SELECT sealed AS t FROM server_secrets");
    assert_ne!(
        sealed[0].len(),
        43,
        "not a private key in the clear: {}",
        sealed[0]
    );
    let later = support::instances::another_instance(a, unset).expect("a later instance starts");
    assert_eq!(server_key(&later), key);
    // A device registered on one instance gets a push signed with the kept key.
    let anna = later.register("anna");
    let (phone, id) = device(&later, &anna, &[]);
    let test = format!("/api/v1/me/push-subscriptions/{id}/test");
    assert_eq!(a.post(&test, Some(&anna.token), json!({})).status, 202);
    assert_eq!(phone.wait_for(1).len(), 1);
    assert!(phone.errors().is_empty(), "{:?}", phone.errors());
    let set = support::instances::another_instance(a, |_| {}).expect("starts with the setting");
    assert_ne!(server_key(&set), key, "the setting wins");
    let refused = support::instances::another_instance(a, |c| {
        unset(c);
        c.jwt_secret = Some("another-secret-another-secret-another-0123".into());
    })
    .err()
    .expect("another secret cannot open the kept key");
    assert!(refused.contains("--jwt-secret"), "{refused}");
    assert_eq!(a.count("SELECT COUNT(*) AS n FROM server_secrets"), 1);
}

on_both_databases!(
    instances_share_one_vapid_key_kept_sealed,
    subscriptions_are_validated_and_bounded,
    two_instances_never_push_twice,
);
