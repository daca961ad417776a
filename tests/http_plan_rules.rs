//! Plans for the next turn (issue 69) with the rest of the rules, over HTTP on SQLite and on
//! PostgreSQL when `TEST_DATABASE_URL` is set: a game of every variant where every plan is
//! dropped by its condition, and the player told why with their turn; a plan played uses none of
//! its owner's clock, plays during a vacation, and goes with its owner's seat.

use crate::http_plans::{plan_first_choice, plan_state, put_plan, turn_by_hand};
use crate::support;

use serde_json::{json, Value};
use support::{Db, TestServer, User};

/// Anna plans to take the top of a discard pile only if it still shows what it showed; Ben
/// covers it or takes it wherever that changes what it shows: every such plan is dropped, and
/// her turn notice says why (one kept by chance is played). In
/// every variant, to the game's end (Keltis Card's to its final plays, which take no draw).
fn plans_are_dropped_by_their_condition(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    for variant in ["keltis-card", "keltis", "neue-wege"] {
        let (dropped, kept_by_chance) = every_plan_dropped(&s, variant);
        assert!(
            dropped >= 5,
            "{variant}: {dropped} plans dropped ({kept_by_chance} kept)"
        );
    }
}

/// One game of `variant` played as [`plans_are_dropped_by_their_condition`] says: how many of
/// Anna's plans were dropped, and how many were played because the pile showed an equal card.
fn every_plan_dropped(s: &TestServer, variant: &str) -> (usize, usize) {
    let (anna, ben) = (
        s.register(&format!("anna-{variant}")),
        s.register(&format!("ben-{variant}")),
    );
    let users = [anna.clone(), ben.clone()];
    let game = s.started_game(variant, &users);
    let (mut dropped, mut kept_by_chance) = (0usize, 0usize);
    for _ in 0..400 {
        let view = s.game(game, &anna);
        if view["status"] != "active" || view["state"]["phase"]["type"] == "final_play" {
            break;
        }
        let seat = view["state"]["to_act"].as_u64().unwrap() as usize;
        if seat == 0 {
            turn_by_hand(s, game, &users);
            continue;
        }
        // A pile to take from: one that shows a card, not of the colour she discards.
        let hand = view["state"]["hand"].as_array().unwrap().clone();
        let discard = hand[0].clone();
        let piles = view["state"]["discard_piles"].as_array().unwrap().clone();
        let top = |p: &Value| p["cards"].as_array().and_then(|c| c.last()).cloned();
        let Some(pile) = piles
            .iter()
            .find(|p| top(p).is_some() && p["color"] != discard["color"])
        else {
            turn_by_hand(s, game, &users);
            continue;
        };
        let color = pile["color"].clone();
        let a = put_plan(
            s,
            game,
            &anna,
            json!({"expected_version": view["version"], "alternatives": [{
                "steps": [{"type": "discard", "card": discard}, {"type": "draw_pile", "color": color}],
                "conditions": ["piles_unchanged"],
            }]}),
        );
        assert_eq!(a.status, 200, "{}", a.text);
        let planned_top = top(pile);
        // Ben changes the pile's top where he can (K8: he sees the whole pile): he covers it with
        // another card of its colour, or discards elsewhere and takes its top when the card
        // beneath differs. (Taking whatever the pile showed let two pairs of equal cards pass
        // back and forth through two piles, every plan kept, the deck never drawn.)
        let bens = s.game(game, &ben);
        let discards: Vec<Value> = bens["state"]["legal_decisions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["type"] == "discard")
            .cloned()
            .collect();
        let cards = pile["cards"].as_array().unwrap();
        let beneath_differs = cards.len() < 2 || cards[cards.len() - 2] != cards[cards.len() - 1];
        let cover = discards
            .iter()
            .find(|d| d["card"]["color"] == color && Some(&d["card"]) != planned_top.as_ref());
        let elsewhere = discards.iter().find(|d| d["card"]["color"] != color);
        let (his, take) = match (cover, elsewhere) {
            (Some(cover), _) => (cover, false),
            (None, Some(other)) if beneath_differs => (other, true),
            _ => (&discards[0], false),
        };
        let v = bens["version"].as_i64().unwrap();
        assert_eq!(s.decide(game, &ben, v, his).status, 200);
        let bens = s.game(game, &ben);
        let draw = json!({"type": "draw_pile", "color": color});
        let legal = bens["state"]["legal_decisions"].as_array().unwrap();
        let d = if take && legal.contains(&draw) {
            draw
        } else {
            json!({"type": "draw_deck"})
        };
        let a = s.decide(game, &ben, bens["version"].as_i64().unwrap(), &d);
        assert_eq!(a.status, 200, "{}", a.text);
        let after = s.game(game, &anna);
        // The pile as Ben's turn left it (his own answer: before her plan, which may take from
        // it).
        let top_now = a.json()["state"]["discard_piles"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["color"] == color)
            .and_then(top);
        let state = plan_state(s, game, &anna);
        let latest = &state["outcomes"][0];
        if after["status"] == "over" {
            // Ben's draw ended the game (the last card, K9b; or the goal zone): no turn of hers is
            // left, and her plan went with the game.
            assert_eq!(latest["code"], "game_over", "{state}");
            break;
        }
        if top_now == planned_top {
            // The pile shows what it showed (two equal cards on it, or Ben had no card to cover
            // it and taking would not change it): the plan is played.
            kept_by_chance += 1;
            assert_eq!(latest["played"], true, "{state}");
            continue;
        }
        dropped += 1;
        assert_eq!(latest["played"], false, "{state}");
        assert_eq!(latest["code"], "pile_changed", "{state}");
        assert!(latest["reason"].as_str().unwrap().contains("pile"));
        assert_eq!(after["state"]["to_act"], json!(0), "her turn, by hand");
        // Her turn notice says why.
        let notices = s.get("/api/v1/me/notifications?limit=5", Some(&anna.token));
        let told = notices.json()[0]["notice"].clone();
        assert_eq!(told["kind"], "your_turn", "{told}");
        assert_eq!(told["plan_not_played"]["code"], "pile_changed", "{told}");
        turn_by_hand(s, game, &users);
    }
    // Two equal cards can pass back and forth through a pile, each plan kept by chance, for a
    // long time: the rest of the game by hand (the deck then runs down).
    for _ in 0..400 {
        let view = s.game(game, &anna);
        if view["status"] != "active" || view["state"]["phase"]["type"] == "final_play" {
            break;
        }
        turn_by_hand(s, game, &users);
    }
    let over = s.game(game, &anna);
    assert!(
        over["status"] == "over" || over["state"]["phase"]["type"] == "final_play",
        "{variant}: the game did not reach its end: {over}"
    );
    (dropped, kept_by_chance)
}

/// With the rest of the rules of play: a plan played uses none of its owner's clock (her time is
/// what it was before the others' turn, to the millisecond, however long they took); plans play
/// while their owner is on vacation; and a plan waiting when its owner leaves a game that goes
/// on is dropped (`game_over`: "the game ended, or you left it"), never played.
fn plans_keep_the_rules_of_play(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let (anna, ben) = (s.register("anna"), s.register("ben"));
    let users = [anna.clone(), ben.clone()];
    let days = json!({"type": "fischer", "initial_seconds": 3 * 86400, "increment_seconds": 0, "max_seconds": 3 * 86400});
    let game = s.started_with(
        json!({"variant": "keltis-card", "players": 2, "time_control": days}),
        &users,
    );
    if s.game(game, &anna)["state"]["to_act"] == json!(0) {
        turn_by_hand(&s, game, &users);
    }
    let hers = |v: &Value| v["clock"]["seats"][0]["remaining_ms"].as_i64().unwrap();
    let mut played = 0;
    for round in 0..6 {
        if round == 3 {
            // Away from here on (her games note it: a new version): her plans still play.
            let a = s.post("/api/v1/me/vacation", Some(&anna.token), json!({}));
            assert!(a.status < 300, "{}", a.text);
        }
        let view = s.game(game, &anna);
        assert_eq!(view["state"]["to_act"], json!(1), "Ben to act: {view}");
        let before = hers(&view);
        let a = plan_first_choice(&s, game, &anna, &view["version"]);
        if a.status != 200 || a.json()["plan"]["alternatives"][0]["ends_turn"] != true {
            break;
        }
        // Ben thinks for an hour, then moves: her plan plays at once, in his request.
        s.clock.advance(3_600_000);
        turn_by_hand(&s, game, &users);
        let after = s.game(game, &anna);
        let latest = plan_state(&s, game, &anna)["outcomes"][0].clone();
        if latest["played"] != true {
            break;
        }
        played += 1;
        assert_eq!(
            after["state"]["to_act"],
            json!(1),
            "her turn played: {after}"
        );
        assert_eq!(hers(&after), before, "round {round}: her clock was used");
    }
    assert!(played >= 4, "{played} plans played");
    // Leaving a game of three that goes on: her plan goes with her seat (a stand-in plays it
    // now), never played.
    let trio: Vec<User> = ["ada", "bob", "cyd"]
        .iter()
        .map(|n| s.register(n))
        .collect();
    let game = s.started_game("keltis", &trio);
    while s.game(game, &trio[0])["state"]["to_act"] == json!(0) {
        turn_by_hand(&s, game, &trio);
    }
    let view = s.game(game, &trio[0]);
    let a = plan_first_choice(&s, game, &trio[0], &view["version"]);
    assert_eq!(a.status, 200, "{}", a.text);
    let a = s.post(
        &format!("/api/v1/games/{game}/resign"),
        Some(&trio[0].token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["status"], "active", "the game goes on");
    let state = plan_state(&s, game, &trio[0]);
    assert!(state["plan"].is_null(), "{state}");
    assert_eq!(state["outcomes"][0]["code"], "game_over", "{state}");
    assert_eq!(state["outcomes"][0]["played"], false, "{state}");
}

on_both_databases!(
    plans_are_dropped_by_their_condition,
    plans_keep_the_rules_of_play,
);
