//! The daily digest (the games waiting, the chat messages) and the deadline reminders.

use super::*;

/// Digest mode: one message listing every game waiting, instead of one per game.
fn a_digest_collects_the_games_waiting(db: Db) {
    let sink = SmtpSink::start();
    let s = server(db, &sink, None);
    let gus = register(&s, "gus", "en");
    let address = confirmed_address(&s, &sink, &gus);
    let prefs = json!({"language": "en", "your_turn": true, "deadline_reminder": true, "invitation": true,
                       "game_started": false, "game_over": true, "digest_hours": 1});
    let a = put(&s, "/api/v1/me/email/preferences", &gus, prefs);
    assert_eq!(a.status, 200, "{}", a.text);
    let ids: Vec<i64> = (0..2)
        .map(|_| {
            s.create(
                &gus,
                json!({"variant": "keltis-card", "players": 2, "bots": ["bot-greedy"]}),
            )
        })
        .collect();
    for &id in &ids {
        s.wait_for(id, &gus, |v| v["state"]["to_act"] == 0);
    }
    s.clock.advance(3600 * 1000 + 1000);
    let got = sink.wait_for(&address, 2);
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        sink.to(&address).len(),
        2,
        "the confirmation and one digest"
    );
    let digest = &got[1];
    assert!(digest["headers"]["Subject"]
        .as_str()
        .unwrap()
        .contains("2 games"));
    for id in ids {
        assert!(digest["text"]
            .as_str()
            .unwrap()
            .contains(&format!("{PUBLIC}/games/{id}")));
    }
}

/// Chat reaches email only as a count in the digest: never a message's words, never one email
/// per message.
fn a_digest_counts_the_chat_messages(db: Db) {
    let sink = SmtpSink::start();
    let s = server(db, &sink, None);
    let gus = register(&s, "gus", "en");
    let ben = register(&s, "ben", "en");
    let address = confirmed_address(&s, &sink, &gus);
    let prefs = json!({"language": "en", "your_turn": true, "deadline_reminder": true, "invitation": true,
                       "game_started": false, "game_over": true, "digest_hours": 1});
    assert_eq!(
        put(&s, "/api/v1/me/email/preferences", &gus, prefs).status,
        200
    );
    let id = s.started_game("keltis-card", &[gus.clone(), ben.clone()]);
    // Ben to act: no game waits for gus.
    if s.game(id, &gus)["state"]["to_act"] == 0 {
        s.finish_turn(id, &[gus.clone(), ben.clone()]);
    }
    for text in ["the secret plan", "another word"] {
        let a = s.post(
            &format!("/api/v1/games/{id}/chat"),
            Some(&ben.token),
            json!({ "text": text }),
        );
        assert_eq!(a.status, 201);
    }
    s.clock.advance(3600 * 1000 + 1000);
    let got = sink.wait_for(&address, 2);
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        sink.to(&address).len(),
        2,
        "the confirmation and one digest"
    );
    let digest = &got[1];
    assert!(
        digest["headers"]["Subject"]
            .as_str()
            .unwrap()
            .contains("2 new messages at your tables"),
        "{digest}"
    );
    assert!(!digest.to_string().contains("secret plan"), "{digest}");
}

/// A deadline reminder arrives by email: 24 hours before the deadline, to the player to act only,
/// with the deadline and the game's link.
fn a_deadline_reminder_arrives_by_email(db: Db) {
    let sink = SmtpSink::start();
    let s = server(db, &sink, None);
    let players = [register(&s, "rita", "en"), register(&s, "rolf", "en")];
    let addresses: Vec<String> = players
        .iter()
        .map(|p| confirmed_address(&s, &sink, p))
        .collect();
    let id = s.started_with(
        json!({"variant": "keltis-card", "players": 2,
               "time_control": {"type": "per_turn", "seconds": 3 * 86400}}),
        &players,
    );
    let seat = s.game(id, &players[0])["state"]["to_act"].as_u64().unwrap() as usize;
    let deadline = s.game(id, &players[seat])["clock"]["deadline"]
        .as_i64()
        .unwrap();
    let reminders = |address: &str| received_with_subject(&sink, address, "left for your turn");
    s.clock.advance(2 * DAY);
    let mut found = Vec::new();
    for _ in 0..100 {
        found = reminders(&addresses[seat]);
        if !found.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(found.len(), 1, "one reminder");
    let subject = found[0]["headers"]["Subject"].as_str().unwrap();
    assert_eq!(subject, format!("24 hours left for your turn in game {id}"));
    let text = found[0]["text"].as_str().unwrap();
    assert!(text.contains(&format!("{PUBLIC}/games/{id}")), "{text}");
    let when = keltis::service::notify::mail::messages::utc(deadline);
    assert!(text.contains(&when), "the deadline {when} in {text}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(
        reminders(&addresses[1 - seat]).is_empty(),
        "only the player to act"
    );
    assert_eq!(reminders(&addresses[seat]).len(), 1, "once");
}

/// A deadline reminder that could not be sent at once (the relay was down) is not sent once its
/// player has moved, nor once the game is over: it is skipped, like a "your turn" that no longer
/// holds.
fn a_reminder_is_skipped_once_its_player_has_moved(db: Db) {
    let mut sink = SmtpSink::start();
    let s = server(db, &sink, None);
    let players = [register(&s, "rhea", "en"), register(&s, "remo", "en")];
    let addresses: Vec<String> = players
        .iter()
        .map(|p| confirmed_address(&s, &sink, p))
        .collect();
    let id = s.started_with(
        json!({"variant": "keltis-card", "players": 2,
               "time_control": {"type": "per_turn", "seconds": 3 * 86400}}),
        &players,
    );
    let seat = s.game(id, &players[0])["state"]["to_act"].as_u64().unwrap() as usize;
    let reminder = || -> Option<Value> {
        let notices = s
            .get("/api/v1/me/notifications", Some(&players[seat].token))
            .json();
        notices
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["notice"]["kind"] == "deadline_reminder")
            .cloned()
    };
    sink.down();
    s.clock.advance(2 * DAY);
    let mut tried = None;
    for _ in 0..100 {
        tried = reminder().filter(|n| n["attempts"].as_i64() >= Some(1));
        if tried.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let tried = tried.expect("the reminder was tried while the relay was down");
    assert_eq!(tried["status"], "pending", "{tried}");
    // The whole turn (in keltis-card, a card played and one drawn): the next seat is to act.
    for _ in 0..4 {
        let view = s.game(id, &players[seat]);
        if view["state"]["to_act"].as_u64() != Some(seat as u64) {
            break;
        }
        let version = view["version"].as_i64().unwrap();
        let moved = s.decide(
            id,
            &players[seat],
            version,
            &view["state"]["legal_decisions"][0],
        );
        assert_eq!(moved.status, 200, "{}", moved.text);
    }
    assert_ne!(
        s.game(id, &players[seat])["state"]["to_act"].as_u64(),
        Some(seat as u64)
    );
    sink.up();
    s.clock.advance(10 * 60 * 1000);
    let mut settled = tried;
    for _ in 0..100 {
        settled = reminder().expect("the reminder is listed");
        if settled["status"] != "pending" {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(settled["status"], "skipped", "{settled}");
    assert!(received_with_subject(&sink, &addresses[seat], "left for your turn").is_empty());
}

mail_tests_on_both_databases!(
    a_digest_collects_the_games_waiting,
    a_digest_counts_the_chat_messages,
    a_deadline_reminder_arrives_by_email,
    a_reminder_is_skipped_once_its_player_has_moved,
);
