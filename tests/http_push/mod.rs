//! Web Push (issue 29) to a push service and device on loopback that really decrypts every push
//! and verifies its VAPID token (tests/support/push.rs): a move pushes exactly once to each
//! device of the player to act, a refused move pushes nothing, a device the push service answers
//! 410 for is removed, a push answered 500 is delivered once after the outage; push preferences
//! are apart from email's; a test push arrives; the decryption agrees with RFC 8291's own example;
//! an event's news is pushed. Subscriptions, the shared VAPID key and two instances: `keys.rs`. On
//! SQLite, and on PostgreSQL when `TEST_DATABASE_URL` is set.

use crate::support;

use serde_json::{json, Value};
use support::events::{create_event, enter};
use support::push::{Push, PushDevice};
use support::{Db, TestServer, User};

mod keys;

/// Every instance in these tests may push to a device on loopback.
pub(super) fn tune(c: &mut keltis::config::Config) {
    c.push_allow_private = true;
    c.push_interval_ms = 50;
}

pub(super) fn server(db: Db) -> TestServer {
    support::spawn(db, tune).expect("a database for this test")
}

pub(super) fn server_key(s: &TestServer) -> String {
    let a = s.get("/api/v1/push/vapid-public-key", None);
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()["public_key"].as_str().unwrap().to_string()
}

pub(super) fn device(s: &TestServer, user: &User, statuses: &[u16]) -> (PushDevice, i64) {
    let d = PushDevice::start(&server_key(s), statuses);
    let a = s.post(
        "/api/v1/me/push-subscriptions",
        Some(&user.token),
        d.subscription.clone(),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json()["id"].as_i64().unwrap();
    (d, id)
}

pub(super) fn of_kind<'a>(pushes: &'a [Push], kind: &str) -> Vec<&'a Push> {
    pushes
        .iter()
        .filter(|p| p.message["kind"] == kind)
        .collect()
}

/// RFC 8291's example (section 5 and appendix A): the loopback push service's strict checks pass
/// it, and the device's key and secret decrypt the published message.
#[test]
fn the_rfc_8291_example_decrypts() {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
    use base64::Engine;
    let secret = web_push_native::p256::SecretKey::from_slice(
        &B64.decode("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94")
            .unwrap(),
    )
    .unwrap();
    let auth: [u8; 16] = B64
        .decode("BTBZMqHH6r4Tts7J_aSIgg")
        .unwrap()
        .try_into()
        .unwrap();
    let body = B64
        .decode("DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
        .unwrap();
    // Its record size (4096) exceeds its one record, as RFC 8291 section 4 wants.
    support::push::record_size_is_larger_than_the_record(&body).unwrap();
    let plain = support::push::decrypt(body, &secret, &auth).unwrap();
    assert_eq!(plain, b"When I grow up, I want to be a watermelon");
    // A body whose record size equals its record (what `web-push-native`'s own `encrypt` writes,
    // and what the server sent before) is refused.
    let equal = web_push_native::encrypt(
        plain,
        &secret.public_key(),
        &web_push_native::Auth::clone_from_slice(&auth),
    )
    .unwrap();
    let refused = support::push::record_size_is_larger_than_the_record(&equal).unwrap_err();
    assert!(refused.contains("RFC 8291"), "{refused}");
}

/// A move pushes exactly one "your turn" to each device of the player to act, decrypted and
/// signed as the RFCs say, in their language, with the game's page and no card; a refused move
/// pushes nothing.
fn a_move_pushes_once_to_each_device_of_the_player_to_act(db: Db) {
    let s = server(db);
    let anna = s.register("anna");
    let bert = s.register("bert");
    let pair = [anna.clone(), bert.clone()];
    let (anna_phone, _) = device(&s, &anna, &[]);
    let (anna_laptop, _) = device(&s, &anna, &[]);
    let (bert_phone, _) = device(&s, &bert, &[]);
    let id = s.started_game("keltis-card", &pair);
    // "Game started" reaches every device.
    for d in [&anna_phone, &anna_laptop, &bert_phone] {
        let got = d.wait_for(1);
        assert!(of_kind(&got, "game_started").len() == 1, "{got:?}");
    }
    let first = s.game(id, &anna)["state"]["to_act"].as_u64().unwrap() as usize;
    // Let the first turn's pushes arrive, then play a turn: the other player is to act.
    let (first_devices, other_devices): (Vec<&PushDevice>, Vec<&PushDevice>) = if first == 0 {
        (vec![&anna_phone, &anna_laptop], vec![&bert_phone])
    } else {
        (vec![&bert_phone], vec![&anna_phone, &anna_laptop])
    };
    for d in &first_devices {
        let got = d.wait_for(2);
        assert_eq!(of_kind(&got, "your_turn").len(), 1, "{got:?}");
    }
    // A refused move (a stale version) pushes nothing.
    let stale = s.decide(id, &pair[first], 0, &json!({"type": "draw_deck"}));
    assert_eq!(stale.status, 409, "{}", stale.text);
    s.finish_turn(id, &pair);
    for d in &other_devices {
        let got = d.wait_for(2);
        let turns = of_kind(&got, "your_turn");
        assert_eq!(turns.len(), 1, "{got:?}");
        let push = turns[0];
        assert_eq!(push.message["game_id"], id);
        assert_eq!(push.message["url"], format!("/games/{id}"));
        assert_eq!(push.message["tag"], format!("game-{id}"));
        assert_eq!(push.message["title"], format!("Your turn in game {id}"));
        assert_eq!(push.headers["topic"], format!("turn-{id}"));
        assert_eq!(push.headers["urgency"], "normal");
        assert!(push.headers["ttl"].parse::<i64>().unwrap() > 0);
        assert!(push.vapid["sub"].as_str().unwrap().starts_with("mailto:"));
        assert_eq!(push.answered, 201);
    }
    std::thread::sleep(std::time::Duration::from_millis(400));
    for d in [&anna_phone, &anna_laptop, &bert_phone] {
        assert!(d.errors().is_empty(), "{:?}", d.errors());
        // No push names a card: the messages carry kinds, games and words only.
        for p in d.pushes() {
            let text = p.message.to_string();
            assert!(!text.contains("card") && !text.contains("value"), "{text}");
        }
    }
    for d in &first_devices {
        assert_eq!(of_kind(&d.pushes(), "your_turn").len(), 1, "once per turn");
    }
}

/// A device its push service says is gone (410) is removed, and gets nothing more.
fn a_gone_device_is_removed(db: Db) {
    let s = server(db);
    let anna = s.register("anna");
    let (gone, gone_id) = device(&s, &anna, &[410]);
    let (kept, kept_id) = device(&s, &anna, &[]);
    for (_, id) in [(&gone, gone_id), (&kept, kept_id)] {
        let a = s.post(
            &format!("/api/v1/me/push-subscriptions/{id}/test"),
            Some(&anna.token),
            json!({}),
        );
        assert_eq!(a.status, 202, "{}", a.text);
    }
    assert_eq!(gone.wait_for(1)[0].answered, 410);
    let test = &kept.wait_for(1)[0];
    assert_eq!(test.message["kind"], "test");
    assert_eq!(test.message["body"], "Notifications reach this device.");
    for _ in 0..100 {
        let devices = s
            .get("/api/v1/me/push-subscriptions", Some(&anna.token))
            .json();
        let ids: Vec<i64> = devices
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["id"].as_i64().unwrap())
            .collect();
        if ids == vec![kept_id] {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("the gone device stayed");
}

/// Push has its own preferences, kind by kind, apart from email's, and speaks the player's
/// language; a change that leaves `push` out keeps them.
fn push_preferences_are_apart_from_email_and_in_the_players_language(db: Db) {
    let s = server(db);
    let anna = s.register("anna");
    let bert = s.register("bert");
    let put = |body: Value| {
        s.send(
            s.client
                .put(s.url("/api/v1/me/email/preferences"))
                .bearer_auth(&anna.token)
                .json(&body),
        )
    };
    let kinds = json!({"your_turn": true, "deadline_reminder": true, "invitation": true,
        "game_started": true, "game_over": true, "digest_hours": null});
    let mut off = kinds.clone();
    off["language"] = json!("de");
    off["push"] = json!({"your_turn": false, "deadline_reminder": true, "invitation": true,
        "game_started": false, "game_over": true});
    let a = put(off);
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["preferences"]["push"]["game_started"], false);
    // Email's preferences are untouched by push's.
    assert_eq!(a.json()["preferences"]["game_started"], true);
    // A change without `push` keeps push's preferences.
    let mut same = kinds.clone();
    same["language"] = json!("de");
    let a = put(same);
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["preferences"]["push"]["your_turn"], false);
    let (anna_phone, anna_id) = device(&s, &anna, &[]);
    let (bert_phone, _) = device(&s, &bert, &[]);
    let id = s.started_game("keltis-card", &[anna.clone(), bert.clone()]);
    // Bert hears of the start; Anna, who turned it off, does not.
    assert_eq!(of_kind(&bert_phone.wait_for(1), "game_started").len(), 1);
    let a = s.post(
        &format!("/api/v1/me/push-subscriptions/{anna_id}/test"),
        Some(&anna.token),
        json!({}),
    );
    assert_eq!(a.status, 202, "{}", a.text);
    let got = anna_phone.wait_for(1);
    assert_eq!(got[0].message["kind"], "test", "{got:?}");
    assert_eq!(
        got[0].message["body"],
        "Benachrichtigungen erreichen dieses Gerät."
    );
    // Whoever is to act, Anna got neither "game started" nor "your turn" by push: both were
    // queued before the test push, and pushes go out in the order they were queued.
    let pushes = anna_phone.pushes();
    assert_eq!(pushes.len(), 1, "{pushes:?} (game {id})");
}

/// The push service is down (500): the push waits and, after the backoff, arrives once.
fn a_push_answered_500_arrives_once_after_the_outage(db: Db) {
    let s = server(db);
    let anna = s.register("anna");
    let (d, id) = device(&s, &anna, &[500, 503]);
    // A second device's test push, waited for, is a pass of the worker over every push then
    // due: pushes go out in the order they fell due, so one due since before it went first.
    let (other, other_id) = device(&s, &anna, &[]);
    let mut passes = 0;
    let mut pass = || {
        let a = s.post(
            &format!("/api/v1/me/push-subscriptions/{other_id}/test"),
            Some(&anna.token),
            json!({}),
        );
        assert_eq!(a.status, 202, "{}", a.text);
        passes += 1;
        other.wait_for(passes);
    };
    let a = s.post(
        &format!("/api/v1/me/push-subscriptions/{id}/test"),
        Some(&anna.token),
        json!({}),
    );
    assert_eq!(a.status, 202);
    assert_eq!(d.wait_for(1)[0].answered, 500);
    // Nothing more until the backoff has passed (the test's clock).
    pass();
    assert_eq!(d.pushes().len(), 1);
    // The worker records each failure, and when to try again, after the device has answered: a
    // clock moved on before that counts the backoff from the new time (under load that happened,
    // and the retry was never due). So the clock moves on, a step at a time, until it comes.
    let retried = |n: usize, step_ms| {
        for _ in 0..3 {
            s.clock.advance(step_ms);
            if d.arrived(n) {
                return d.pushes();
            }
        }
        panic!("push {n} never came: {:?}", d.pushes());
    };
    assert_eq!(retried(2, 60_000)[1].answered, 503);
    let got = retried(3, 10 * 60_000);
    assert_eq!(got[2].answered, 201);
    s.clock.advance(60 * 60_000);
    pass();
    let delivered = d.pushes().iter().filter(|p| p.answered == 201).count();
    assert_eq!(delivered, 1, "{:?}", d.pushes());
}

/// An event's news is pushed: the entry confirmed and the round's game (leading to the game), in
/// the player's words, with the event's name and nothing of any hand.
fn event_news_is_pushed(db: Db) {
    let s = server(db);
    let [ann, ben] = ["ann", "ben"].map(|n| s.register(n));
    let (d, _) = device(&s, &ben, &[]);
    let e = create_event(
        &s,
        &ann,
        json!({"name": "Pushed Swiss", "format": "swiss", "variant": "keltis-card", "rounds": 1,
               "max_players": 2, "min_players": 2}),
    );
    let id = e["event"]["id"].as_i64().unwrap();
    for p in [&ann, &ben] {
        let a = enter(&s, p, id);
        assert_eq!(a.status, 201, "{}", a.text);
    }
    let mut events = vec![];
    for _ in 0..600 {
        events = d
            .pushes()
            .into_iter()
            .filter(|p| p.message["kind"] == "event")
            .collect();
        if events.len() >= 2 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(events.len(), 2, "{events:?}");
    let entered = &events[0].message;
    assert_eq!(
        entered["title"], "You are entered in Pushed Swiss",
        "{entered}"
    );
    assert_eq!(entered["url"], format!("/events/{id}"));
    let round = &events[1].message;
    assert_eq!(
        round["title"], "Round 1 of Pushed Swiss: your game is ready",
        "{round}"
    );
    let game = round["game_id"].as_i64().expect("the round's game");
    assert_eq!(round["url"], format!("/games/{game}"));
    assert!(!round.to_string().contains("hand"), "{round}");
}

on_both_databases!(
    event_news_is_pushed,
    a_move_pushes_once_to_each_device_of_the_player_to_act,
    a_gone_device_is_removed,
    a_push_answered_500_arrives_once_after_the_outage,
    push_preferences_are_apart_from_email_and_in_the_players_language,
);
