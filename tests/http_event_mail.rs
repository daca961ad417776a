//! Event news by email (issue 47), over HTTP on both databases with a real SMTP server on
//! loopback: the entry confirmed, the round's game ready (with its link), the event over with the
//! place, each in the player's language; nothing of any hand.

use crate::support;

use serde_json::{json, Value};
use support::events::{create_event, enter};
use support::mail::{confirmed_address, link, register, server, PUBLIC};
use support::smtp::SmtpSink;
use support::Db;

/// The first message to `address` whose subject contains `words` (the mail worker sends them).
fn mail_about(sink: &SmtpSink, address: &str, words: &str) -> Value {
    let subject_of = |m: &Value| m["headers"]["Subject"].as_str().unwrap_or("").to_string();
    for _ in 0..600 {
        if let Some(m) = sink
            .to(address)
            .into_iter()
            .find(|m| subject_of(m).contains(words))
        {
            return m;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let subjects: Vec<String> = sink.to(address).iter().map(subject_of).collect();
    panic!("no {words:?} for {address}: {subjects:?}");
}

fn event_news_reaches_each_player_in_their_language(db: Db) {
    let sink = SmtpSink::start();
    let s = server(db, &sink, None);
    let ann = register(&s, "ann", "en");
    let ben = register(&s, "ben", "fr-FR");
    let ann_at = confirmed_address(&s, &sink, &ann);
    let ben_at = confirmed_address(&s, &sink, &ben);
    let e = create_event(
        &s,
        &ann,
        json!({"name": "Club Swiss", "format": "swiss", "variant": "keltis-card", "rounds": 1,
               "max_players": 2, "min_players": 2}),
    );
    let id = e["event"]["id"].as_i64().unwrap();
    for p in [&ann, &ben] {
        let a = enter(&s, p, id);
        assert_eq!(a.status, 201, "{}", a.text);
    }
    mail_about(&sink, &ann_at, "You are entered in Club Swiss");
    mail_about(&sink, &ben_at, "Vous êtes inscrit à Club Swiss");
    let round = mail_about(
        &sink,
        &ben_at,
        "Ronde 1 de Club Swiss : votre partie est prête",
    );
    let e = s
        .get(&format!("/api/v1/events/{id}"), Some(&ann.token))
        .json();
    let game = e["rounds"][0]["games"][0]["game_id"]
        .as_i64()
        .expect("the round's game");
    let page = link(&s, &round, &format!("{PUBLIC}/games/{game}"));
    assert_eq!(
        s.send(s.client.get(&page)).status,
        200,
        "the game's page opens"
    );
    mail_about(&sink, &ann_at, "Round 1 of Club Swiss: your game is ready");

    let a = s.post(
        &format!("/api/v1/games/{game}/resign"),
        Some(&ben.token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    mail_about(&sink, &ann_at, "Club Swiss is over: you placed 1 of 2");
    let over = mail_about(
        &sink,
        &ben_at,
        "Club Swiss est terminé : vous êtes 2e sur 2",
    );
    let text = over["text"].as_str().unwrap_or_default();
    assert!(text.contains(&format!("/events/{id}")), "{text}");
    for m in sink.to(&ben_at) {
        let body = m["text"].as_str().unwrap_or_default().to_lowercase();
        assert!(!body.contains("hand"), "no hand in an event's news: {body}");
    }
}

mail_tests_on_both_databases!(event_news_reaches_each_player_in_their_language);
