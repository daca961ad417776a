//! Issue 69: `GET /games/{id}/plan/choices`, the choices of the caller's next turn as it would
//! begin if the others changed nothing, one step after another (what the web client's "Plan my
//! next turn" lists): each step's choices make a plan the server keeps; nothing past a draw from
//! the deck (that card is nobody's yet); refused on one's own turn and to others. Rule C7 (a
//! Keltis Card turn: one card played, then one drawn).

use crate::support;

use serde_json::{json, Value};
use support::{Db, TestServer, User};

fn next_choices(s: &TestServer, game: i64, user: &User, query: &str) -> support::Answer {
    s.get(
        &format!("/api/v1/games/{game}/plan/choices{query}"),
        Some(&user.token),
    )
}

fn words(answer: &support::Answer) -> Vec<String> {
    answer.json()["choices"]
        .as_array()
        .expect("choices")
        .iter()
        .map(|c| c["words"].as_str().expect("words").to_string())
        .collect()
}

fn the_next_turns_choices_are_listed_step_by_step(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let (anna, ben, cyd) = (s.register("anna"), s.register("ben"), s.register("cyd"));
    let users = [anna.clone(), ben.clone()];
    let game = s.started_game("keltis-card", &users);
    let view = s.game(game, &anna);
    let seat = view["state"]["to_act"].as_u64().unwrap() as usize;
    let (player, other) = (&users[seat], &users[1 - seat]);
    let version = view["version"].as_i64().unwrap();
    // The seat to act plays now; the others are refused or not seated.
    let a = next_choices(&s, game, player, "");
    assert_eq!((a.status, a.code().as_str()), (409, "plan_on_your_turn"));
    let a = next_choices(&s, game, &cyd, "");
    assert_eq!((a.status, a.code().as_str()), (403, "not_seated"));
    // The other seat's first step: a card of its own hand, played or discarded; as the version
    // to make the plan on, the game's.
    let first = next_choices(&s, game, other, "?language=en");
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(first.json()["version"], version);
    let hand: Vec<Value> = s.game(game, other)["state"]["hand"]
        .as_array()
        .unwrap()
        .clone();
    let choices = first.json()["choices"].as_array().unwrap().clone();
    assert!(!choices.is_empty());
    let key = |card: &Value| (card["color"].clone(), card["value"].clone());
    for c in &choices {
        let d = &c["decision"];
        let cards: Vec<&Value> = match d["cards"].as_array() {
            Some(cards) => cards.iter().collect(),
            None => vec![&d["card"]],
        };
        assert!(
            cards
                .iter()
                .all(|card| hand.iter().any(|h| key(h) == key(card))),
            "cards of its own hand: {c}"
        );
    }
    // After the first, the draws: the deck and the piles that show a card.
    let step = words(&first)[0].clone();
    let second = next_choices(
        &s,
        game,
        other,
        &format!("?language=en&after={}", urlencode(&step)),
    );
    assert_eq!(second.status, 200, "{}", second.text);
    let draws = second.json()["choices"].as_array().unwrap().clone();
    assert!(draws.iter().all(|c| c["decision"]["type"]
        .as_str()
        .is_some_and(|t| t.starts_with("draw_"))));
    assert!(draws.iter().any(|c| c["decision"]["type"] == "draw_deck"));
    // After the draw from the deck: nothing (the turn is over, and that card nobody's yet).
    let text = format!("{step} then deck");
    let third = next_choices(&s, game, other, &format!("?after={}", urlencode(&text)));
    assert_eq!(third.status, 200, "{}", third.text);
    assert_eq!(third.json()["choices"], json!([]));
    // What the steps listed make a plan the server keeps.
    let a = s.send(
        s.client
            .put(s.url(&format!("/api/v1/games/{game}/plan")))
            .bearer_auth(&other.token)
            .json(&json!({"expected_version": version, "alternatives": [{"text": text}]})),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(
        a.json()["plan"]["alternatives"][0]["steps"][0],
        choices[0]["decision"]
    );
    // Words that name no step, or an invisible character: refused with the code a typed move
    // has; a control character, as in any query.
    let a = next_choices(&s, game, other, "?after=moonwalk");
    assert_eq!((a.status, a.code().as_str()), (422, "words_unreadable"));
    let a = next_choices(&s, game, other, "?after=1%E2%80%8B");
    assert_eq!((a.status, a.code().as_str()), (422, "invalid_body"));
    let a = next_choices(&s, game, other, "?after=1%0A");
    assert_eq!((a.status, a.code().as_str()), (400, "invalid_query"));
    // A parameter the operation does not take.
    let a = next_choices(&s, game, other, "?lang=fr");
    assert_eq!((a.status, a.code().as_str()), (400, "invalid_query"));
}

/// Percent-encoding for a query's value (spaces and the few characters words hold).
fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

on_both_databases!(the_next_turns_choices_are_listed_step_by_step);
