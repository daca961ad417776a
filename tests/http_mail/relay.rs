//! The relay down and back (each message once, one per turn, two instances), and a bouncing
//! address.

use super::*;

/// The relay is down for a while: messages wait and are retried with backoff; when it is back,
/// each arrives exactly once, even with two server instances sending from one outbox.
fn the_relay_down_then_up_delivers_each_message_once(db: Db) {
    let mut sink = SmtpSink::start();
    let a = server(db, &sink, None);
    let b = server(Db::Sqlite, &sink, Some(a.database_url.clone()));
    let players: Vec<User> = ["dora", "emil"]
        .iter()
        .map(|n| register(&a, n, "en"))
        .collect();
    let addresses: Vec<String> = players
        .iter()
        .map(|p| confirmed_address(&a, &sink, p))
        .collect();
    sink.down();
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(game(&a, &players));
    }
    // Each game: started for both, "your turn" for one: 9 messages waiting.
    std::thread::sleep(std::time::Duration::from_millis(400));
    let pending = a
        .get("/api/v1/me/notifications", Some(&players[0].token))
        .json();
    let failed_once = pending
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["status"] == "pending" && n["attempts"].as_i64() >= Some(1))
        .count();
    assert!(failed_once >= 3, "attempted while down: {pending}");
    sink.up();
    for clock in [&a.clock, &b.clock] {
        clock.advance(10 * 60 * 1000);
    }
    let total =
        sink.wait_for(&addresses[0], 1 + 3).len() + sink.wait_for(&addresses[1], 1 + 3).len();
    std::thread::sleep(std::time::Duration::from_millis(600));
    let all: Vec<Value> = addresses.iter().flat_map(|a| sink.to(a)).collect();
    let mut ids_seen: Vec<String> = all
        .iter()
        .map(|m| m["headers"]["Message-ID"].as_str().unwrap().to_string())
        .collect();
    let n = ids_seen.len();
    ids_seen.sort();
    ids_seen.dedup();
    assert_eq!(ids_seen.len(), n, "no message twice");
    assert_eq!(
        n,
        2 + 9,
        "two confirmations and nine notices (got {total} at first)"
    );
    let notices = a
        .get("/api/v1/me/notifications", Some(&players[0].token))
        .json();
    assert!(
        notices
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["notice"]["kind"] != "verify_email")
            .all(|n| n["status"] == "sent"),
        "{notices}"
    );
}

/// One "your turn" email per turn: while the relay is down the turn changes eight times (each
/// player is to act four times); when it is back, only the turn that is current gets its email,
/// once, and the turns that are over get none (each player's earlier notices used to pass,
/// since it was their turn again).
fn one_email_per_turn_after_the_relay_was_down(db: Db) {
    let mut sink = SmtpSink::start();
    let s = server(db, &sink, None);
    let players: Vec<User> = ["fanny", "gus"]
        .iter()
        .map(|n| register(&s, n, "en"))
        .collect();
    let addresses: Vec<String> = players
        .iter()
        .map(|p| confirmed_address(&s, &sink, p))
        .collect();
    sink.down();
    let id = game(&s, &players);
    for _ in 0..8 {
        s.finish_turn(id, &players);
        // The worker tries what is due while the relay is away.
        std::thread::sleep(std::time::Duration::from_millis(60));
    }
    let to_act = s.game(id, &players[0])["state"]["to_act"].as_u64().unwrap() as usize;
    let turn_notices = s
        .get("/api/v1/me/notifications", Some(&players[to_act].token))
        .json()
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["notice"]["kind"] == "your_turn")
        .count();
    assert!(
        turn_notices >= 4,
        "a notice for each of its turns: {turn_notices}"
    );
    sink.up();
    s.clock.advance(10 * 60 * 1000);
    sink.wait_for(&addresses[to_act], 2);
    // Let the worker finish every notice that is due.
    for _ in 0..100 {
        let pending = s.count("SELECT COUNT(*) AS n FROM notifications WHERE status = 'pending'");
        if pending == 0 {
            break;
        }
        s.clock.advance(10 * 60 * 1000);
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let mine = sink.to(&addresses[to_act]);
    let theirs = sink.to(&addresses[1 - to_act]);
    let turn = |m: &[Value]| with_subject(m, "Your turn").len();
    assert_eq!(turn(&mine), 1, "the current turn, once: {mine:?}");
    assert_eq!(turn(&theirs), 0, "their turns are over: {theirs:?}");
    let notices = s
        .get("/api/v1/me/notifications", Some(&players[to_act].token))
        .json();
    let skipped = notices
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["notice"]["kind"] == "your_turn" && n["status"] == "skipped")
        .count();
    assert_eq!(skipped, turn_notices - 1, "{notices}");
}

/// An address the relay refuses for good is marked bounced and used no more.
fn a_bouncing_address_is_marked_and_left_alone(db: Db) {
    let sink = SmtpSink::start();
    let s = server(db, &sink, None);
    let user = register(&s, "fay", "en");
    let a = put(
        &s,
        "/api/v1/me/email",
        &user,
        json!({"email": "bounce-fay@example.org"}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    for _ in 0..100 {
        if s.get("/api/v1/me/email", Some(&user.token)).json()["bounced"] == true {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let settings = s.get("/api/v1/me/email", Some(&user.token)).json();
    assert_eq!(settings["bounced"], true, "{settings}");
    let notices = s.get("/api/v1/me/notifications", Some(&user.token)).json();
    assert_eq!(notices[0]["status"], "failed", "{notices}");
    // Bad input: a clear error.
    let a = put(
        &s,
        "/api/v1/me/email",
        &user,
        json!({"email": "not an address"}),
    );
    assert_eq!((a.status, a.code()), (422, "invalid_email".into()));
}

mail_tests_on_both_databases!(
    the_relay_down_then_up_delivers_each_message_once,
    one_email_per_turn_after_the_relay_was_down,
    a_bouncing_address_is_marked_and_left_alone,
);
