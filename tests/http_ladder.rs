//! Ladders (issue 47) over HTTP on both databases: players join at the bottom, challenge a little
//! above (the game starts at once), the challenger who wins climbs and the others step down, the
//! limits on challenges hold, and a player who lets the clock run out leaves the ladder.

use crate::support;

use serde_json::{json, Value};
use support::players::resign;
use support::{Db, TestServer, User};

const DAY: i64 = 86_400_000;

fn ladder(s: &TestServer, user: &User) -> Value {
    let a = s.get("/api/v1/ladders/keltis-card", Some(&user.token));
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()
}

fn names(l: &Value) -> Vec<String> {
    l["rungs"]
        .as_array()
        .expect("rungs")
        .iter()
        .map(|r| r["name"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn challenge(s: &TestServer, who: &User, defender: &str) -> support::Answer {
    s.post(
        "/api/v1/ladders/keltis-card/challenges",
        Some(&who.token),
        json!({ "defender": defender }),
    )
}

/// The ladder once `check` holds (the events worker applies decided challenges).
fn wait_ladder(s: &TestServer, user: &User, check: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..600 {
        let l = ladder(s, user);
        if check(&l) {
            return l;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("never happened: {}", ladder(s, user));
}

fn a_ladder_climbed_held_and_left_on_time(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players: Vec<User> = (1..=6).map(|i| s.register(&format!("rung{i}"))).collect();
    for (i, p) in players.iter().enumerate() {
        let a = s.post(
            "/api/v1/ladders/keltis-card/rungs",
            Some(&p.token),
            json!({}),
        );
        assert_eq!(a.status, 201, "{}", a.text);
        assert_eq!(names(&a.json()).len(), i + 1);
    }
    let again = s.post(
        "/api/v1/ladders/keltis-card/rungs",
        Some(&players[0].token),
        json!({}),
    );
    assert_eq!(
        names(&again.json())[0],
        "rung1",
        "joining again keeps the rung"
    );
    let bad = s.get("/api/v1/ladders/chess", Some(&players[0].token));
    assert_eq!(bad.status, 404);

    // From rung 6, two fifths of 6 rounds up to 3 rungs: rung 3 but not rung 2; never down.
    let [_, r2, r3, r4, r5, r6] = &players[..] else {
        unreachable!()
    };
    assert_eq!(challenge(&s, r6, "rung2").code(), "out_of_reach");
    assert_eq!(challenge(&s, r3, "rung6").code(), "not_above");
    let made = challenge(&s, r6, "rung3");
    assert_eq!(made.status, 201, "{}", made.text);
    let made = made.json();
    assert_eq!(made["state"], "open");
    assert_eq!(challenge(&s, r6, "rung3").code(), "already_challenged");
    let game = made["game_id"].as_i64().expect("a game");
    let view = s.game(game, r6);
    assert_eq!(view["status"], "active");
    assert_eq!(view["seats"][0]["user"], "rung3", "the defender sits first");
    // K12 as ladders amend it (docs/rules-notes.md): the defender moves first, not the seat the
    // deal draws.
    assert_eq!(
        view["state"]["to_act"], 0,
        "the defender moves first: {view}"
    );
    let l = ladder(&s, r6);
    assert_eq!(l["rungs"][5]["challenges_out"], 1);
    assert_eq!(l["rungs"][2]["challenges_in"], 1);

    // The defender resigns: the challenger takes rung 3, the others step down.
    resign(&s, game, r3);
    let l = wait_ladder(&s, r6, |l| l["challenges"][0]["state"] == "decided");
    assert_eq!(l["challenges"][0]["outcome"], "climbed");
    assert_eq!(
        names(&l),
        ["rung1", "rung2", "rung6", "rung3", "rung4", "rung5"]
    );

    // A challenge held: the challenger resigns, nothing moves.
    let held = challenge(&s, r4, "rung6").json();
    resign(&s, held["game_id"].as_i64().unwrap(), r4);
    let l = wait_ladder(&s, r6, |l| {
        l["challenges"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["state"] == "decided")
    });
    assert_eq!(l["challenges"][0]["outcome"], "held");
    assert_eq!(names(&l)[2], "rung6");

    // A time-out: the defender (rung 2) lets the three days of the first turn run out: aborted
    // before anyone played, and the defender leaves the ladder; the rungs close up.
    let timed = challenge(&s, r5, "rung2");
    assert_eq!(
        timed.status, 409,
        "rung 6 reaches up to rung 3 only: {}",
        timed.text
    );
    let timed = challenge(&s, r2, "rung1").json();
    let game = timed["game_id"].as_i64().unwrap();
    s.clock.advance(3 * DAY + 60_000);
    s.wait_for(game, r2, |v| v["status"] != "active");
    let l = wait_ladder(&s, r2, |l| l["challenges"][0]["state"] == "decided");
    assert_eq!(l["challenges"][0]["outcome"], "timed_out");
    assert_eq!(names(&l), ["rung2", "rung6", "rung3", "rung4", "rung5"]);

    // Leaving: yourself only.
    let a = s.delete("/api/v1/ladders/keltis-card/rungs/rung2", Some(&r5.token));
    assert_eq!(a.code(), "not_your_rung");
    let a = s.delete("/api/v1/ladders/keltis-card/rungs/rung5", Some(&r5.token));
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(names(&a.json()), ["rung2", "rung6", "rung3", "rung4"]);
}

/// At most three challenges out and three in.
fn three_challenges_out_and_in_at_most(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players: Vec<User> = (1..=12).map(|i| s.register(&format!("lim{i}"))).collect();
    for p in &players {
        assert_eq!(
            s.post(
                "/api/v1/ladders/keltis-card/rungs",
                Some(&p.token),
                json!({})
            )
            .status,
            201
        );
    }
    let last = &players[11];
    for defender in ["lim8", "lim9", "lim10"] {
        assert_eq!(challenge(&s, last, defender).status, 201);
    }
    assert_eq!(challenge(&s, last, "lim11").code(), "too_many_challenges");
    for challenger in &players[8..11] {
        let a = challenge(&s, challenger, "lim7");
        assert!(a.status == 201, "{}", a.text);
    }
    assert_eq!(challenge(&s, &players[7], "lim6").status, 201);
    let a = challenge(&s, &players[9], "lim7");
    assert_eq!(a.code(), "already_challenged", "{}", a.text);
}

/// A deleted account leaves the ladder and its entries; a suspended player is withdrawn from the
/// events they entered.
fn deletion_and_suspension_take_players_out(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let [top, gone, low, mod_] = ["top", "gone", "low", "mods"].map(|n| s.register(n));
    for p in [&top, &gone, &low] {
        let a = s.post(
            "/api/v1/ladders/keltis-card/rungs",
            Some(&p.token),
            json!({}),
        );
        assert_eq!(a.status, 201);
    }
    let e = s.post(
        "/api/v1/events",
        Some(&top.token),
        json!({"name": "Soon", "format": "swiss", "variant": "keltis",
               "starts_at": s.clock.now() + DAY}),
    );
    assert_eq!(e.status, 201, "{}", e.text);
    let id = e.json()["event"]["id"].as_i64().unwrap();
    for p in [&gone, &low] {
        let a = s.post(
            &format!("/api/v1/events/{id}/entries"),
            Some(&p.token),
            json!({}),
        );
        assert_eq!(a.status, 201, "{}", a.text);
    }
    let a = s.post(
        "/api/v1/me/delete",
        Some(&gone.token),
        json!({"password": "correct horse"}),
    );
    assert!(a.status < 300, "{}", a.text);
    assert_eq!(names(&ladder(&s, &top)), ["top", "low"]);
    support::players::make_moderator(&s, "mods");
    let a = s.post(
        "/api/v1/moderation/players/low/suspend",
        Some(&mod_.token),
        json!({"hours": 48, "reason": "stalls every game"}),
    );
    assert_eq!(a.status, 204, "{}", a.text);
    let e = s
        .get(&format!("/api/v1/events/{id}"), Some(&top.token))
        .json();
    assert_eq!(e["entries"], json!([]), "{e}");
}

on_both_databases!(
    deletion_and_suspension_take_players_out,
    a_ladder_climbed_held_and_left_on_time,
    three_challenges_out_and_in_at_most,
);
