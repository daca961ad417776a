//! Keeping the peace (issue 33), over HTTP on both databases: reports reach the moderators'
//! queue with their context; moderators (made with `keltis moderator`) mute, suspend and dismiss,
//! each action in the audit log; a muted player is told until when; a suspended player cannot
//! sign in and their seat is played on; the cap on running games; time-outs on the profile;
//! friends.

use crate::support;

use serde_json::{json, Value};
use support::players::make_moderator;
use support::{Db, TestServer, User};

fn say(s: &TestServer, id: i64, who: &User, text: &str) -> support::Answer {
    s.post(
        &format!("/api/v1/games/{id}/chat"),
        Some(&who.token),
        json!({ "text": text }),
    )
}

fn count(s: &TestServer, table: &str) -> usize {
    s.count(&format!("SELECT COUNT(*) AS n FROM {table}"))
}

fn reports_are_answered_and_audited(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let (anna, ben, cyd, mia) = (
        s.register("anna"),
        s.register("ben"),
        s.register("cyd"),
        s.register("mia"),
    );
    let id = s.started_game("keltis", &[anna.clone(), ben.clone(), cyd.clone()]);
    for (who, text) in [
        (&anna, "hello all"),
        (&cyd, "hi"),
        (&ben, "you are all idiots"),
    ] {
        assert_eq!(say(&s, id, who, text).status, 201);
    }
    let insult = s
        .get(
            &format!("/api/v1/games/{id}/chat?limit=1"),
            Some(&anna.token),
        )
        .json()["messages"][0]["id"]
        .as_i64()
        .unwrap();

    // Bad reports store nothing.
    let bad = [
        (
            json!({"user": "ben", "message_id": 999_999, "reason": "x"}),
            404,
            "not_found",
        ),
        (
            json!({"user": "cyd", "message_id": insult, "reason": "x"}),
            404,
            "not_found",
        ),
        (json!({"user": "nobody", "reason": "x"}), 404, "not_found"),
        (
            json!({"user": "anna", "reason": "x"}),
            422,
            "cannot_report_self",
        ),
        (json!({"user": "ben", "reason": " "}), 422, "invalid_reason"),
        (
            json!({"user": "ben", "reason": "a\u{1}b"}),
            422,
            "invalid_reason",
        ),
    ];
    for (body, status, code) in bad {
        let a = s.post("/api/v1/reports", Some(&anna.token), body.clone());
        assert_eq!((a.status, a.code()), (status, code.into()), "{body}");
    }
    // A stranger cannot report a message of a table they do not sit at.
    let a = s.post(
        "/api/v1/reports",
        Some(&mia.token),
        json!({"user": "ben", "message_id": insult, "reason": "x"}),
    );
    assert_eq!(a.status, 404);
    assert_eq!(count(&s, "reports"), 0);

    let a = s.post(
        "/api/v1/reports",
        Some(&anna.token),
        json!({"user": "ben", "message_id": insult, "reason": "insults"}),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    let report_id = a.json()["id"].as_i64().unwrap();

    // Only moderators, from a session, read the queue or act.
    let a = s.get("/api/v1/moderation/reports", Some(&mia.token));
    assert_eq!((a.status, a.code()), (403, "not_moderator".into()));
    let sanction = json!({"hours": 24, "reason": "insults", "report_id": report_id});
    let a = s.post(
        "/api/v1/moderation/players/ben/mute",
        Some(&anna.token),
        sanction.clone(),
    );
    assert_eq!((a.status, a.code()), (403, "not_moderator".into()));
    assert_eq!(count(&s, "moderation_actions"), 0);
    make_moderator(&s, "mia");
    let token = s.post(
        "/api/v1/me/tokens",
        Some(&mia.token),
        json!({"name": "t", "scopes": ["read", "play"]}),
    );
    let token = token.json()["token"].as_str().unwrap().to_string();
    let a = s.get("/api/v1/moderation/reports", Some(&token));
    assert_eq!((a.status, a.code()), (403, "insufficient_scope".into()));

    let queue = s.get("/api/v1/moderation/reports", Some(&mia.token)).json();
    assert_eq!(queue.as_array().unwrap().len(), 1, "{queue}");
    let report = &queue[0];
    assert_eq!(
        (&report["reporter"], &report["user"]),
        (&json!("anna"), &json!("ben"))
    );
    assert_eq!(report["message"]["text"], "you are all idiots");
    let context: Vec<&str> = report["context"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(context, ["hello all", "hi", "you are all idiots"]);

    // The mute: ben is told until when; the report is closed; the audit log has it.
    let a = s.post(
        "/api/v1/moderation/players/ben/mute",
        Some(&mia.token),
        sanction,
    );
    assert_eq!(a.status, 204, "{}", a.text);
    let a = say(&s, id, &ben, "sorry");
    assert_eq!((a.status, a.code()), (403, "muted".into()));
    let until = a.json()["until"].as_i64().unwrap();
    assert_eq!(until, s.clock.now() + 24 * 3_600_000);
    assert!(
        a.json()["message"].as_str().unwrap().contains("until 20"),
        "{}",
        a.text
    );
    assert_eq!(
        s.get("/api/v1/moderation/reports", Some(&mia.token)).json(),
        json!([])
    );

    // A report dismissed.
    let a = s.post(
        "/api/v1/reports",
        Some(&ben.token),
        json!({"user": "anna", "reason": "she reported me"}),
    );
    let second = a.json()["id"].as_i64().unwrap();
    let a = s.post(
        &format!("/api/v1/moderation/reports/{second}/dismiss"),
        Some(&mia.token),
        json!({"reason": "no rule broken"}),
    );
    assert_eq!(a.status, 204);
    let a = s.post(
        &format!("/api/v1/moderation/reports/{second}/dismiss"),
        Some(&mia.token),
        json!({"reason": "again"}),
    );
    assert_eq!((a.status, a.code()), (409, "report_closed".into()));

    // The suspension: cyd cannot sign in, nor create a game with a token; the game goes on.
    let cyd_token = s.post(
        "/api/v1/me/tokens",
        Some(&cyd.token),
        json!({"name": "t", "scopes": ["read", "play"]}),
    );
    let cyd_token = cyd_token.json()["token"].as_str().unwrap().to_string();
    let a = s.post(
        "/api/v1/moderation/players/cyd/suspend",
        Some(&mia.token),
        json!({"hours": 48, "reason": "stalls every game"}),
    );
    assert_eq!(a.status, 204, "{}", a.text);
    let a = s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": "cyd", "password": "correct horse"}),
    );
    assert_eq!((a.status, a.code()), (403, "suspended".into()));
    assert_eq!(a.json()["until"], s.clock.now() + 48 * 3_600_000);
    let a = s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": "cyd", "password": "wrong horse"}),
    );
    assert_eq!(a.status, 401, "said only with the password");
    assert_eq!(
        s.get("/api/v1/me", Some(&cyd.token)).status,
        401,
        "sessions end"
    );
    let a = s.post(
        "/api/v1/games",
        Some(&cyd_token),
        json!({"variant": "keltis", "players": 2}),
    );
    assert_eq!((a.status, a.code()), (403, "suspended".into()));
    let view = s.game(id, &anna);
    let cyd_seat = view["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["user"] == "cyd")
        .unwrap()["seat"]
        .clone();
    assert!(
        !view["state"]["seats"][cyd_seat.as_u64().unwrap() as usize]["retired"].is_null(),
        "{view}"
    );
    assert_eq!(view["status"], "active");
    // The others play on; the stand-in plays cyd's seat.
    let suspended_at = view["version"].as_i64().unwrap();
    let by_seat = [anna.clone(), ben.clone(), cyd.clone()];
    for _ in 0..4 {
        let v = s.wait_for(id, &anna, |v| {
            v["status"] != "active" || v["state"]["to_act"] != cyd_seat
        });
        if v["status"] != "active" {
            break;
        }
        s.finish_turn(id, &by_seat);
    }
    let stand_in_played = s.events(id, &anna).iter().any(|e| {
        e["seq"].as_i64() > Some(suspended_at)
            && e["kind"] == "decided"
            && e["data"]["seat"] == cyd_seat
    });
    assert!(
        stand_in_played,
        "the stand-in plays the suspended player's seat"
    );

    let audit = s.get("/api/v1/moderation/audit", Some(&mia.token)).json();
    let actions: Vec<(&str, &str)> = audit
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["action"].as_str().unwrap(), e["user"].as_str().unwrap()))
        .collect();
    assert_eq!(
        actions,
        [("suspend", "cyd"), ("dismiss", "anna"), ("mute", "ben")]
    );
    assert!(audit
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["moderator"] == "mia"));

    // A day later the mute is over.
    s.clock.advance(24 * 3_600_000 + 1);
    assert_eq!(say(&s, id, &ben, "sorry").status, 201);
}

fn the_cap_on_running_games(db: Db) {
    let s = support::spawn(db, |c| c.max_running_games = 2).expect("a database for this test");
    let (anna, ben) = (s.register("anna"), s.register("ben"));
    let first = s.create(&anna, json!({"variant": "keltis", "players": 2}));
    s.create(&anna, json!({"variant": "keltis", "players": 3}));
    let a = s.post(
        "/api/v1/games",
        Some(&anna.token),
        json!({"variant": "keltis", "players": 2}),
    );
    assert_eq!((a.status, a.code()), (409, "too_many_games".into()));
    let bens = s.create(&ben, json!({"variant": "keltis", "players": 2}));
    let a = s.post(
        &format!("/api/v1/games/{bens}/join"),
        Some(&anna.token),
        json!({}),
    );
    assert_eq!((a.status, a.code()), (409, "too_many_games".into()));
    // A game left (cancelled) frees a place.
    let a = s.post(
        &format!("/api/v1/games/{first}/leave"),
        Some(&anna.token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    let a = s.post(
        &format!("/api/v1/games/{bens}/join"),
        Some(&anna.token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
}

fn time_outs_show_on_the_profile(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players: Vec<User> = (0..2).map(|i| s.register(&format!("late{i}"))).collect();
    let id = s.started_with(
        json!({"variant": "keltis", "players": 2, "time_control": {"type": "per_turn", "seconds": 60}}),
        &players,
    );
    s.finish_turn(id, &players);
    s.finish_turn(id, &players);
    let to_act = s.game(id, &players[0])["state"]["to_act"].as_u64().unwrap() as usize;
    s.clock.advance(61 * 1000);
    s.wait_for(id, &players[0], |v| v["status"] == "over");
    let profile = |u: &User| -> Value {
        s.get(
            &format!("/api/v1/players/{}", u.name),
            Some(&players[0].token),
        )
        .json()
    };
    assert_eq!(profile(&players[to_act])["timed_out_games"], 1);
    assert_eq!(profile(&players[1 - to_act])["timed_out_games"], 0);
}

fn friends_are_followed_and_invited(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let (anna, ben, cyd) = (s.register("anna"), s.register("ben"), s.register("cyd"));
    let follow = |who: &User, name: &str| {
        s.send(
            s.client
                .put(s.url(&format!("/api/v1/me/following/{name}")))
                .bearer_auth(&who.token),
        )
    };
    assert_eq!(follow(&anna, "ben").status, 204);
    assert_eq!(follow(&anna, "ben").status, 204);
    assert_eq!(follow(&anna, "anna").status, 422);
    assert_eq!(follow(&anna, "nobody").status, 404);
    let bens_game = s.started_game("keltis-card", &[ben.clone(), cyd.clone()]);
    let following = s.get("/api/v1/me/following", Some(&anna.token)).json();
    assert_eq!(following[0]["user"], "ben");
    assert_eq!(following[0]["current_games"][0]["id"], bens_game);
    // Invited in one step at creation.
    let id = s.create(
        &anna,
        json!({"variant": "keltis", "players": 3, "invite": ["ben", "bot-greedy"]}),
    );
    let mine = s.get("/api/v1/me/games", Some(&ben.token)).json();
    assert!(
        mine["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id && g["shelf"] == "invited"),
        "{mine}"
    );
    assert_eq!(s.game(id, &anna)["seats"][1]["user"], "bot-greedy");
    let a = s.post(
        "/api/v1/games",
        Some(&anna.token),
        json!({"variant": "keltis", "players": 2, "invite": ["nobody"]}),
    );
    assert_eq!((a.status, a.code()), (422, "unknown_user".into()));
    let unfollow = s.send(
        s.client
            .delete(s.url("/api/v1/me/following/ben"))
            .bearer_auth(&anna.token),
    );
    assert_eq!(unfollow.status, 204);
    assert_eq!(
        s.get("/api/v1/me/following", Some(&anna.token)).json(),
        json!([])
    );
}

on_both_databases!(
    reports_are_answered_and_audited,
    the_cap_on_running_games,
    time_outs_show_on_the_profile,
    friends_are_followed_and_invited
);
