//! Moves by email reply, end to end: "your turn" emails offer the turn's choices with a reply
//! address naming the turn; replies written as common mail programs write them (fixtures in
//! `tests/mail/replies/`, three languages, quotes, signatures, HTML-only) reach the server by its
//! SMTP listener (Python's smtplib) or its signed inbound webhook, and play through the same
//! decision path as the API. On SQLite, and on PostgreSQL when `TEST_DATABASE_URL` is set.

use crate::support;

use std::collections::HashSet;

use serde_json::{json, Value};
use support::mail::{confirmed_address, register};
use support::replies::{
    choices, compose, offer_for, post_webhook, reply_to, send_smtp, server, turn_on, SHAPES,
    WEBHOOK_SECRET,
};
use support::smtp::SmtpSink;
use support::{Db, TestServer, User};

/// The word for the deck in the language of a mail program's shape.
fn deck_word(shape: &str) -> &'static str {
    match &shape[shape.len() - 2..] {
        "fr" => "pioche",
        "de" => "Nachziehstapel",
        _ => "deck",
    }
}

fn is_deck_choice(choice: &str) -> bool {
    ["deck", "Nachziehstapel", "dans la pioche"]
        .iter()
        .any(|w| choice.contains(w))
}

/// A card as its colour and value words (`end` for an end card).
type CardKey = (String, String);

/// The cards a text names (English colour words followed by a value): as a set.
fn cards_named(text: &str) -> HashSet<CardKey> {
    const COLORS: [&str; 6] = ["green", "yellow", "brown", "blue", "pink", "gray"];
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .filter(|p| COLORS.contains(&p[0]) && (p[1] == "end" || p[1].parse::<u8>().is_ok()))
        .map(|p| (p[0].to_string(), p[1].to_string()))
        .collect()
}

fn card_key(card: &Value) -> Option<CardKey> {
    let color = card["color"].as_str()?.to_string();
    let value = match card["value"].as_u64() {
        Some(v) => v.to_string(),
        None => "end".to_string(),
    };
    Some((color, value))
}

fn players_with_mail(s: &TestServer, sink: &SmtpSink, names: &[&str]) -> (Vec<User>, Vec<String>) {
    let users: Vec<User> = names.iter().map(|n| register(s, n, "en")).collect();
    let addresses = users
        .iter()
        .map(|u| {
            let a = confirmed_address(s, sink, u);
            turn_on(s, u);
            a
        })
        .collect();
    (users, addresses)
}

fn unique_id(tag: &str, n: usize) -> String {
    format!("{tag}-{n}-{}@mail.example.org", std::process::id())
}

/// A whole two-player game of Keltis Card played by email alone, through the SMTP listener:
/// every email offering moves is answered in the shape of another mail program, a turn given
/// whole in one reply ("4 then deck") or in two (a number, then the draw in words, after the
/// answer offered the next choices); no decision goes through the API. Every email is checked
/// against the record afterwards: it names no card but the reader's own hand and the cards
/// already shown face up.
fn a_two_player_game_is_played_by_email_alone(db: Db) {
    let sink = SmtpSink::start();
    let (s, port) = server(db, &sink, |_| {});
    let (players, addresses) = players_with_mail(&s, &sink, &["ines", "jonas"]);
    let id = s.started_with(json!({"variant": "keltis-card", "players": 2}), &players);
    // (the email, the version it offered, the reader's hand then)
    let mut read: Vec<(Value, i64, HashSet<CardKey>)> = Vec::new();
    let mut replies = 0usize;
    let mut whole_turns = 0usize;
    let mut turn_goes_on = 0usize;
    // Every card each player held at some point (their views, at every step).
    let mut ever_held: Vec<HashSet<CardKey>> = vec![HashSet::new(); 2];
    loop {
        for (seat, player) in players.iter().enumerate() {
            let hand = &s.game(id, player)["state"]["hand"];
            ever_held[seat].extend(hand.as_array().into_iter().flatten().filter_map(card_key));
        }
        let view = s.game(id, &players[0]);
        if view["status"] == "over" {
            break;
        }
        assert!(replies < 1500, "the game goes on and on");
        let seat = view["state"]["to_act"].as_u64().unwrap() as usize;
        let me = s.game(id, &players[seat]);
        let version = me["version"].as_i64().unwrap();
        let phase = me["state"]["phase"]["type"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let offer = offer_for(&sink, &addresses[seat], version);
        let hand: HashSet<_> = me["state"]["hand"]
            .as_array()
            .map(|h| h.iter().filter_map(card_key).collect())
            .unwrap_or_default();
        let offered = choices(&offer);
        assert!(!offered.is_empty(), "{}", offer["text"]);
        if offer["headers"]["Subject"]
            .as_str()
            .unwrap_or("")
            .contains("played")
        {
            turn_goes_on += 1;
        }
        read.push((offer.clone(), version, hand));
        let shape = SHAPES[replies % SHAPES.len()];
        let deck = offered.iter().position(|c| is_deck_choice(c));
        let pick = (replies * 7 + 3) % offered.len() + 1;
        let answer = match (phase.as_str(), deck) {
            // A whole turn in one reply, two times in three.
            ("play", _) if replies % 3 != 2 => {
                whole_turns += 1;
                format!("{pick} then {}", deck_word(shape))
            }
            ("draw", Some(_)) if replies % 3 == 1 => format!("draw {}", deck_word(shape)),
            ("draw", Some(i)) if !replies.is_multiple_of(5) => (i + 1).to_string(),
            _ => pick.to_string(),
        };
        let to = reply_to(&offer).unwrap();
        let raw = compose(
            shape,
            &addresses[seat],
            &to,
            id,
            &answer,
            &unique_id("g", replies),
        );
        assert_eq!(send_smtp(port, &addresses[seat], &to, &raw), 250);
        replies += 1;
        // A minute between replies: each player stays under the hourly limit.
        s.clock.advance(60 * 1000);
        let after = s.game(id, &players[seat])["version"].as_i64().unwrap();
        if after == version {
            let answers = sink.wait_for(&addresses[seat], sink.to(&addresses[seat]).len());
            panic!(
                "{shape}: {answer:?} played nothing; the last email: {}",
                answers
                    .last()
                    .map(|m| m["text"].to_string())
                    .unwrap_or_default()
            );
        }
    }
    assert!(
        whole_turns > 10 && turn_goes_on > 5,
        "{whole_turns} {turn_goes_on}"
    );
    // Nothing went through the API: every decision is one a reply played.
    let record = s.get(
        &format!("/api/v1/games/{id}/record"),
        Some(&players[0].token),
    );
    assert_eq!(record.status, 200, "{}", record.text);
    let record = record.json();
    let decisions = record["decisions"].as_array().unwrap();
    assert!(decisions.len() >= replies, "{} {replies}", decisions.len());
    // The cards shown face up by the decisions before each version.
    let events = s.events(id, &players[0]);
    let shown_before = |version: i64| -> HashSet<CardKey> {
        events
            .iter()
            .filter(|e| e["kind"] == "decided" && e["seq"].as_i64().unwrap_or(0) <= version)
            .filter_map(|e| card_key(&e["data"]["decision"]["card"]))
            .collect()
    };
    let mut named_at_all = 0;
    for (email, version, hand) in &read {
        let shown = shown_before(*version);
        for part in ["text", "html"] {
            for card in cards_named(email[part].as_str().unwrap()) {
                named_at_all += 1;
                assert!(
                    hand.contains(&card) || shown.contains(&card),
                    "{card:?} is neither in the reader's hand nor shown by version {version}"
                );
            }
        }
    }
    assert!(named_at_all > 0);
    // A confirmation of a finished turn says what was played, the new hand and who plays next.
    let confirmations: Vec<Value> = addresses
        .iter()
        .flat_map(|a| sink.to(a))
        .filter(|m| {
            m["headers"]["Subject"]
                .as_str()
                .is_some_and(|s| s.contains("your move is played"))
                && choices(m).is_empty()
        })
        .collect();
    assert!(confirmations.len() > 10, "{}", confirmations.len());
    for m in confirmations.iter().take(20) {
        let text = m["text"].as_str().unwrap();
        assert!(text.contains("Played from your email:"), "{text}");
        assert!(
            text.contains("Your hand: ") || text.contains("is over"),
            "{text}"
        );
    }
    assert!(confirmations
        .iter()
        .any(|m| m["text"].as_str().unwrap().contains("To play: ")));
    // And every email either player got, the confirmations included: no card of the other's hand
    // that was never shown.
    let shown = shown_before(i64::MAX);
    for (seat, address) in addresses.iter().enumerate() {
        for email in sink.to(address) {
            for part in ["text", "html"] {
                for card in cards_named(email[part].as_str().unwrap_or("")) {
                    assert!(
                        ever_held[seat].contains(&card) || shown.contains(&card),
                        "{card:?} in an email to seat {seat}"
                    );
                }
            }
        }
    }
}

/// Three players of Keltis: one plays by email through the signed webhook, the others through
/// the API; the email moves are events like any other, seen by the others.
fn a_three_player_game_mixes_email_and_api(db: Db) {
    let sink = SmtpSink::start();
    let (s, _) = server(db, &sink, |_| {});
    let (mail_player, addresses) = players_with_mail(&s, &sink, &["karla"]);
    let others = [s.register("lars"), s.register("mona")];
    let players = [mail_player[0].clone(), others[0].clone(), others[1].clone()];
    let id = s.started_with(json!({"variant": "keltis", "players": 3}), &players);
    let mut by_mail = 0usize;
    let mut n = 0usize;
    while by_mail < 8 {
        n += 1;
        assert!(n < 400, "the game does not come round to the email player");
        let view = s.game(id, &players[0]);
        assert_eq!(view["status"], "active");
        let seat = view["state"]["to_act"].as_u64().unwrap() as usize;
        let me = s.game(id, &players[seat]);
        let version = me["version"].as_i64().unwrap();
        if seat != 0 {
            let d = support::towards_the_end(&me, n);
            let a = s.decide(id, &players[seat], version, &d);
            assert_eq!(a.status, 200, "{}", a.text);
            continue;
        }
        let offer = offer_for(&sink, &addresses[0], version);
        let offered = choices(&offer);
        let shape = SHAPES[by_mail % SHAPES.len()];
        let answer = match offered.iter().position(|c| is_deck_choice(c)) {
            Some(i) => (i + 1).to_string(),
            None if by_mail.is_multiple_of(2) => {
                format!("{} then {}", n % offered.len() + 1, deck_word(shape))
            }
            None => (n % offered.len() + 1).to_string(),
        };
        let to = reply_to(&offer).unwrap();
        let raw = compose(shape, &addresses[0], &to, id, &answer, &unique_id("k", n));
        let a = post_webhook(&s, &raw, WEBHOOK_SECRET, &format!("msg_{n}"));
        assert_eq!(a.status, 200, "{}", a.text);
        // "ambiguous" or "not a choice" answers are fine too: the test answers again.
        assert_ne!(
            a.json()["outcome"],
            "dropped",
            "{shape} {answer}: {}",
            a.text
        );
        if a.json()["outcome"] == "played" {
            by_mail += 1;
        }
    }
    // The other players see the email player's decisions as events like any other.
    let seen_by_lars = s.events(id, &players[1]);
    let karlas = seen_by_lars
        .iter()
        .filter(|e| e["kind"] == "decided" && e["data"]["seat"] == 0)
        .count();
    assert!(karlas >= 8, "{karlas}");
}

mail_tests_on_both_databases!(
    a_two_player_game_is_played_by_email_alone,
    a_three_player_game_mixes_email_and_api,
);
