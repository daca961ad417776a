//! The server through HTTP only, on a real database: SQLite always, PostgreSQL when
//! `TEST_DATABASE_URL` is set (CI sets it).

mod support;

use std::collections::HashSet;

use keltis::engine::Record;
use serde_json::{json, Value};
use support::{Db, TestServer, User};

fn server(db: Db) -> Option<TestServer> {
    let s = support::spawn(db, |_| {});
    if s.is_none() {
        eprintln!("TEST_DATABASE_URL not set: PostgreSQL scenario skipped");
    }
    s
}

/// The sequence numbers of a game's events after `after`, as `user` reads them.
fn event_seqs(s: &TestServer, id: i64, after: i64, user: &User) -> Vec<i64> {
    let events = s
        .get(
            &format!("/api/v1/games/{id}/events?after={after}"),
            Some(&user.token),
        )
        .json();
    events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_i64().unwrap())
        .collect()
}

fn users(s: &TestServer, prefix: &str, n: usize) -> Vec<User> {
    (0..n)
        .map(|i| s.register(&format!("{prefix}{i}")))
        .collect()
}

/// Play random legal decisions through the API until the game is over; returns the number
/// of decisions. Checks on the way that no view shows another player's hand.
fn play_out(s: &TestServer, id: i64, players: &[User], seed: u64) -> usize {
    let mut rng = seed;
    let mut decisions = 0;
    loop {
        let views: Vec<Value> = players.iter().map(|u| s.game(id, u)).collect();
        for (i, v) in views.iter().enumerate() {
            assert_eq!(v["your_seat"], i as u64);
            let state = &v["state"];
            for (j, seat) in state["seats"].as_array().unwrap().iter().enumerate() {
                assert!(
                    seat.get("hand").is_none(),
                    "seat {j}'s hand shown to seat {i}"
                );
            }
            assert!(state.get("draw_pile").is_none());
        }
        let state = &views[0]["state"];
        if views[0]["status"] == "over" {
            assert!(state["result"]["scores"].is_array());
            return decisions;
        }
        let to_act = state["to_act"].as_u64().unwrap() as usize;
        let me = &views[to_act];
        for (i, v) in views.iter().enumerate() {
            let listed = v["state"]["legal_decisions"]
                .as_array()
                .expect("always an array");
            assert_eq!(!listed.is_empty(), i == to_act);
        }
        let legal = me["state"]["legal_decisions"].as_array().unwrap();
        let d = support::pick(&mut rng, legal);
        let a = s.decide(id, &players[to_act], me["version"].as_i64().unwrap(), d);
        assert_eq!(a.status, 200, "{d} -> {}", a.text);
        let body = a.json();
        assert_eq!(body["version"], me["version"].as_i64().unwrap() + 1);
        decisions += 1;
    }
}

fn full_games_of_every_variant(db: Db) {
    let Some(s) = server(db) else { return };
    for (variant, n) in [("keltis", 3), ("neue-wege", 2), ("keltis-card", 2)] {
        let players = users(&s, &format!("{}_", variant.replace('-', "_")), n);
        let id = s.started_game(variant, &players);
        // The record is refused before the end.
        let a = s.get(
            &format!("/api/v1/games/{id}/record"),
            Some(&players[0].token),
        );
        assert_eq!((a.status, a.code()), (409, "game_not_over".into()));
        let decisions = play_out(&s, id, &players, id as u64 * 7919);
        assert!(decisions > 50);
        let a = s.get(
            &format!("/api/v1/games/{id}/record"),
            Some(&players[1].token),
        );
        assert_eq!(a.status, 200, "{}", a.text);
        let record: Record = serde_json::from_str(&a.text).unwrap();
        assert_eq!(record.decisions.len(), decisions);
        let replayed = record.replay().expect("the record replays");
        assert!(replayed.is_over());
        let view = s.game(id, &players[0]);
        assert_eq!(
            serde_json::to_value(replayed.result()).unwrap(),
            view["state"]["result"],
            "final scores agree"
        );
        // After the end, a decision is refused with the engine's code.
        let a = s.decide(
            id,
            &players[0],
            view["version"].as_i64().unwrap(),
            &json!({"type": "draw_deck"}),
        );
        assert_eq!((a.status, a.code()), (422, "game_over".into()));
    }
}

fn concurrent_submissions_on_one_version_accept_exactly_one(db: Db) {
    let Some(s) = server(db) else { return };
    let players = users(&s, "race", 2);
    let id = s.started_game("keltis", &players);
    for _round in 0..3 {
        let view = s.game(id, &players[0]);
        let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
        let me = s.game(id, &players[to_act]);
        let version = me["version"].as_i64().unwrap();
        let decision = me["state"]["legal_decisions"][0].clone();
        let statuses: Vec<(u16, Value)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..8)
                .map(|_| {
                    let (s, u, d) = (&s, &players[to_act], &decision);
                    scope.spawn(move || {
                        let a = s.decide(id, u, version, d);
                        (a.status, a.json())
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let ok = statuses.iter().filter(|(st, _)| *st == 200).count();
        assert_eq!(ok, 1, "{statuses:?}");
        for (st, body) in &statuses {
            if *st != 200 {
                assert_eq!(*st, 409, "{body}");
                assert_eq!(body["code"], "stale_version");
                assert_eq!(body["current_version"], version + 1);
            }
        }
        // Exactly one event was appended: no event lost or doubled.
        let seqs = event_seqs(&s, id, 0, &players[0]);
        assert_eq!(seqs, (1..=version + 1).collect::<Vec<_>>());
    }
}

fn a_retried_idempotent_request_returns_the_first_answer(db: Db) {
    let Some(s) = server(db) else { return };
    let players = users(&s, "retry", 2);
    let id = s.started_game("keltis-card", &players);
    let view = s.game(id, &players[0]);
    let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
    let me = s.game(id, &players[to_act]);
    let version = me["version"].as_i64().unwrap();
    let body = json!({"expected_version": version, "decision": me["state"]["legal_decisions"][0]});
    let send = || {
        s.send(
            s.client
                .post(s.url(&format!("/api/v1/games/{id}/decisions")))
                .bearer_auth(&players[to_act].token)
                .header("Idempotency-Key", "move-1")
                .json(&body),
        )
    };
    let first = send();
    assert_eq!(first.status, 200, "{}", first.text);
    let second = send();
    assert_eq!(second.status, 200);
    assert_eq!(second.json(), first.json());
    assert_eq!(second.headers.get("idempotent-replayed").unwrap(), "true");
    assert_eq!(
        s.game(id, &players[0])["version"],
        version + 1,
        "nothing appended"
    );
    // The same key for another request is refused.
    let other = s.send(
        s.client
            .post(s.url(&format!("/api/v1/games/{id}/decisions")))
            .bearer_auth(&players[to_act].token)
            .header("Idempotency-Key", "move-1")
            .json(&json!({"expected_version": version + 1, "decision": {"type": "draw_deck"}})),
    );
    assert_eq!(
        (other.status, other.code()),
        (422, "idempotency_key_reused".into())
    );
}

fn nothing_reveals_hands_draw_pile_or_seed_before_the_end(db: Db) {
    let Some(s) = server(db) else { return };
    let players = users(&s, "secret", 2);
    let spectator = s.register("watcher");
    let id = s.started_game("keltis", &players);
    // Play a few turns so that there are draws from the deck.
    for _ in 0..12 {
        let view = s.game(id, &players[0]);
        let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
        let me = s.game(id, &players[to_act]);
        let legal = me["state"]["legal_decisions"].as_array().unwrap();
        let d = legal
            .iter()
            .find(|d| d["type"] == "draw_deck" || d["type"] == "discard")
            .unwrap_or(&legal[0]);
        assert_eq!(
            s.decide(id, &players[to_act], me["version"].as_i64().unwrap(), d)
                .status,
            200
        );
    }
    let hands: Vec<HashSet<String>> = players
        .iter()
        .map(|u| {
            s.game(id, u)["state"]["hand"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.to_string())
                .collect()
        })
        .collect();
    for (i, viewer) in players.iter().chain([&spectator]).enumerate() {
        let events = s.get(&format!("/api/v1/games/{id}/events"), Some(&viewer.token));
        let game = s.get(&format!("/api/v1/games/{id}"), Some(&viewer.token));
        for text in [&events.text, &game.text] {
            for hidden in ["\"draw_pile\":", "\"removed\"", "\"seed\"", "\"setup\""] {
                assert!(!text.contains(hidden), "{hidden} shown to viewer {i}");
            }
        }
        for e in events.json().as_array().unwrap() {
            if e["kind"] == "decided" && e["data"]["decision"]["type"] == "draw_deck" {
                assert_eq!(
                    e["data"].get("drawn").is_some(),
                    e["data"]["seat"] == i as u64,
                    "{e}"
                );
            }
            if e["kind"] == "started" {
                let own = e["data"]["hand"].as_array().expect("always an array").len();
                assert_eq!(own, if i < 2 { 8 } else { 0 });
            }
        }
        let view = game.json();
        if i < 2 {
            let shown: HashSet<String> = view["state"]["hand"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.to_string())
                .collect();
            assert_eq!(shown, hands[i]);
        } else {
            assert_eq!(view["state"]["hand"], json!([]), "a spectator sees no hand");
            assert!(view["your_seat"].is_null());
        }
        let record = s.get(&format!("/api/v1/games/{id}/record"), Some(&viewer.token));
        assert_eq!(record.status, 409);
    }
}

fn tokens_missing_forged_expired_or_foreign_are_refused(db: Db) {
    let Some(s) = server(db) else { return };
    let players = users(&s, "auth", 2);
    let intruder = s.register("intruder");
    let id = s.started_game("keltis", &players);
    let path = format!("/api/v1/games/{id}");
    let a = s.get(&path, None);
    assert_eq!((a.status, a.code()), (401, "unauthorized".into()));
    assert_eq!(a.headers.get("www-authenticate").unwrap(), "Bearer");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    // Every access token names its session.
    let sid = s.get("/api/v1/me/sessions", Some(&players[0].token)).json()[0]["id"].clone();
    let sign = |secret: &str, exp: i64| {
        jsonwebtoken::encode(
            &jsonwebtoken::Header::default(),
            &json!({"sub": players[0].id.to_string(), "name": players[0].name, "iat": now - 10, "exp": exp, "sid": sid}),
            &jsonwebtoken::EncodingKey::from_secret(secret.as_bytes()),
        )
        .unwrap()
    };
    let forged = sign("not-the-server-secret-not-the-server-secret", now + 600);
    assert_eq!(s.get(&path, Some(&forged)).status, 401);
    let expired = sign(support::SECRET, now - 3600);
    let a = s.get(&path, Some(&expired));
    assert_eq!(a.status, 401);
    assert!(a.json()["message"].as_str().unwrap().contains("expired"));
    assert_eq!(s.get(&path, Some("garbage")).status, 401);
    assert_eq!(s.get(&path, Some("kt_0000")).status, 401);
    // A well-signed token of the server works.
    assert_eq!(
        s.get(&path, Some(&sign(support::SECRET, now + 600))).status,
        200
    );
    // Another user's token on a seat that is not theirs.
    let view = s.game(id, &players[0]);
    let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
    let me = s.game(id, &players[to_act]);
    let d = &me["state"]["legal_decisions"][0];
    let version = me["version"].as_i64().unwrap();
    let a = s.decide(id, &intruder, version, d);
    assert_eq!((a.status, a.code()), (403, "not_seated".into()));
    let a = s.decide(id, &players[1 - to_act], version, d);
    assert_eq!((a.status, a.code()), (422, "not_your_turn".into()));
    // A read-only API token cannot play; a revoked one cannot read.
    let a = s.post(
        "/api/v1/me/tokens",
        Some(&players[to_act].token),
        json!({"name": "bot", "scopes": ["read"]}),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    let api = a.json();
    let api_token = api["token"].as_str().unwrap().to_string();
    assert!(api_token.starts_with("kt_"));
    assert_eq!(s.get(&path, Some(&api_token)).status, 200);
    let a = s.decide(
        id,
        &User {
            token: api_token.clone(),
            ..players[to_act].clone()
        },
        version,
        d,
    );
    assert_eq!((a.status, a.code()), (403, "insufficient_scope".into()));
    let listed = s
        .get("/api/v1/me/tokens", Some(&players[to_act].token))
        .json();
    assert_eq!(listed[0]["name"], "bot");
    assert!(
        listed[0].get("token").is_none(),
        "a token is shown once only"
    );
    let a = s.send(
        s.client
            .delete(s.url(&format!("/api/v1/me/tokens/{}", api["id"])))
            .bearer_auth(&players[to_act].token),
    );
    assert_eq!(a.status, 204);
    assert_eq!(s.get(&path, Some(&api_token)).status, 401);
    // A refresh token works once.
    let a = s.post(
        "/api/v1/auth/refresh",
        None,
        json!({"refresh_token": players[0].refresh_token}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    let a = s.post(
        "/api/v1/auth/refresh",
        None,
        json!({"refresh_token": players[0].refresh_token}),
    );
    assert_eq!((a.status, a.code()), (401, "unauthorized".into()));
    let a = s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": "auth0", "password": "wrong password"}),
    );
    assert_eq!((a.status, a.code()), (401, "unauthorized".into()));
    let a = s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": "auth0", "password": "correct horse"}),
    );
    assert_eq!(a.status, 200);
}

fn bad_input_gets_a_clear_error_never_a_500(db: Db) {
    let Some(s) = server(db) else { return };
    let players = users(&s, "bad", 2);
    let t = Some(players[0].token.as_str());
    let id = s.started_game("neue-wege", &players);
    let a = s.get("/no/such/route", None);
    assert_eq!((a.status, a.code()), (404, "not_found".into()));
    let a = s.get("/api/v1/games/999999", t);
    assert_eq!((a.status, a.code()), (404, "not_found".into()));
    let a = s.get("/api/v1/games/abc", t);
    assert_eq!(a.status, 404);
    a.code();
    let raw = |body: &str, content_type: &str| {
        s.send(
            s.client
                .post(s.url("/api/v1/games"))
                .bearer_auth(&players[0].token)
                .header("content-type", content_type)
                .body(body.to_string()),
        )
    };
    let a = raw("{\"variant\":", "application/json");
    assert_eq!((a.status, a.code()), (400, "malformed_json".into()));
    let a = raw("{\"variant\":\"chess\",\"players\":2}", "application/json");
    assert_eq!((a.status, a.code()), (422, "invalid_body".into()));
    let a = raw("variant=keltis", "text/plain");
    assert_eq!((a.status, a.code()), (415, "unsupported_media_type".into()));
    let a = raw(
        &format!("{{\"variant\":\"{}\"}}", "x".repeat(100_000)),
        "application/json",
    );
    assert_eq!((a.status, a.code()), (413, "body_too_large".into()));
    let a = s.post(
        "/api/v1/games",
        t,
        json!({"variant": "keltis-card", "players": 3}),
    );
    assert_eq!((a.status, a.code()), (422, "invalid_players".into()));
    let a = s.post(
        "/api/v1/auth/register",
        None,
        json!({"name": "x", "password": "correct horse"}),
    );
    assert_eq!((a.status, a.code()), (422, "invalid_name".into()));
    let a = s.post(
        "/api/v1/auth/register",
        None,
        json!({"name": "bad0", "password": "correct horse"}),
    );
    assert_eq!((a.status, a.code()), (409, "name_taken".into()));
    let a = s.get("/api/v1/games?filter=everything", t);
    assert_eq!((a.status, a.code()), (400, "invalid_query".into()));
    // Decisions: stale version, illegal decision, unknown space.
    let view = s.game(id, &players[0]);
    let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
    let version = view["version"].as_i64().unwrap();
    let a = s.decide(
        id,
        &players[to_act],
        version - 1,
        &json!({"type": "draw_deck"}),
    );
    assert_eq!((a.status, a.code()), (409, "stale_version".into()));
    assert_eq!(a.json()["current_version"], version);
    let a = s.decide(id, &players[to_act], version, &json!({"type": "draw_deck"}));
    assert_eq!((a.status, a.code()), (422, "unexpected_decision".into()));
    let a = s.decide(
        id,
        &players[to_act],
        version,
        &json!({"type": "step", "pawn": 1, "to": "moon"}),
    );
    assert_eq!((a.status, a.code()), (422, "unknown_space".into()));
    let a = s.decide(id, &players[to_act], version, &json!({"type": "fly"}));
    assert_eq!((a.status, a.code()), (422, "invalid_body".into()));
    let hand = s.game(id, &players[to_act])["state"]["hand"].clone();
    let not_mine = json!({"color": "gray", "value": 3});
    assert!(!hand.as_array().unwrap().contains(&not_mine));
    let a = s.decide(
        id,
        &players[to_act],
        version,
        &json!({"type": "discard", "card": {"color": "green", "value": 99}}),
    );
    assert_eq!((a.status, a.code()), (422, "invalid_body".into()));
    let a = s.decide(
        id,
        &players[to_act],
        version,
        &json!({"type": "discard", "card": not_mine}),
    );
    assert_eq!((a.status, a.code()), (422, "card_not_in_hand".into()));
    assert_eq!(
        s.game(id, &players[0])["version"],
        version,
        "refusals append nothing"
    );
}

fn lobby_join_leave_invite_and_lists(db: Db) {
    let Some(s) = server(db) else { return };
    let [a, b, c] = <[User; 3]>::try_from(users(&s, "lobby", 3)).ok().unwrap();
    let g = s.post(
        "/api/v1/games",
        Some(&a.token),
        json!({"variant": "keltis", "players": 3}),
    );
    assert_eq!(g.status, 201);
    let id = g.json()["id"].as_i64().unwrap();
    let open = s.get("/api/v1/games?filter=open", Some(&b.token)).json();
    assert!(open["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == id));
    assert_eq!(
        s.post(
            &format!("/api/v1/games/{id}/join"),
            Some(&b.token),
            json!({})
        )
        .status,
        200
    );
    let again = s.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&b.token),
        json!({}),
    );
    assert_eq!((again.status, again.code()), (409, "already_seated".into()));
    let left = s.post(
        &format!("/api/v1/games/{id}/leave"),
        Some(&b.token),
        json!({}),
    );
    assert_eq!(left.status, 200);
    assert_eq!(left.json()["seats"].as_array().unwrap().len(), 1);
    // Invitation only.
    let g = s.post(
        "/api/v1/games",
        Some(&a.token),
        json!({"variant": "keltis-card", "players": 2, "invite_only": true}),
    );
    let private = g.json()["id"].as_i64().unwrap();
    let open = s.get("/api/v1/games", Some(&c.token)).json();
    assert!(!open["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == private));
    let refused = s.post(
        &format!("/api/v1/games/{private}/join"),
        Some(&c.token),
        json!({}),
    );
    assert_eq!(
        (refused.status, refused.code()),
        (403, "invite_only".into())
    );
    let inv = s.post(
        &format!("/api/v1/games/{private}/invites"),
        Some(&a.token),
        json!({"user": "lobby2"}),
    );
    assert_eq!(inv.status, 200, "{}", inv.text);
    let mine = s.get("/api/v1/games?filter=mine", Some(&c.token)).json();
    assert!(mine["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == private));
    let joined = s.post(
        &format!("/api/v1/games/{private}/join"),
        Some(&c.token),
        json!({}),
    );
    assert_eq!(joined.status, 200);
    assert_eq!(joined.json()["status"], "active", "a full game starts");
    let late = s.post(
        &format!("/api/v1/games/{private}/leave"),
        Some(&c.token),
        json!({}),
    );
    assert_eq!((late.status, late.code()), (409, "game_started".into()));
    // Resign ends it; the other player wins.
    let r = s.post(
        &format!("/api/v1/games/{private}/resign"),
        Some(&c.token),
        json!({}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let result = &r.json()["state"]["result"];
    assert_eq!(result["end_reason"]["reason"], "resigned");
    assert_eq!(result["winners"], json!([0]));
    assert_eq!(
        s.get(&format!("/api/v1/games/{private}/record"), Some(&a.token))
            .status,
        200
    );
}

fn events_wait_returns_when_a_new_event_arrives(db: Db) {
    let Some(s) = server(db) else { return };
    let players = users(&s, "poll", 2);
    let id = s.started_game("keltis", &players);
    let view = s.game(id, &players[0]);
    let version = view["version"].as_i64().unwrap();
    let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
    let me = s.game(id, &players[to_act]);
    let d = me["state"]["legal_decisions"][0].clone();
    let waiter = 1 - to_act;
    let events = std::thread::scope(|scope| {
        let h = scope.spawn(|| {
            s.get(
                &format!("/api/v1/games/{id}/events?after={version}&wait=30"),
                Some(&players[waiter].token),
            )
        });
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert_eq!(s.decide(id, &players[to_act], version, &d).status, 200);
        h.join().unwrap()
    });
    let list = events.json();
    assert_eq!(list.as_array().unwrap().len(), 1, "{}", events.text);
    assert_eq!(list[0]["seq"], version + 1);
    assert_eq!(list[0]["kind"], "decided");
    // With nothing new and no wait, the answer is empty at once.
    let none = s.get(
        &format!("/api/v1/games/{id}/events?after={}", version + 1),
        Some(&players[0].token),
    );
    assert_eq!(none.json(), json!([]));
}

fn health_and_docs(db: Db) {
    let Some(s) = server(db) else { return };
    assert_eq!(s.get("/healthz", None).json()["status"], "ok");
    assert_eq!(s.get("/readyz", None).json()["status"], "ready");
    let spec = s.get("/openapi.json", None).json();
    assert!(spec["openapi"].as_str().unwrap().starts_with("3.1"));
    let docs = s.get("/docs/", None);
    assert_eq!(docs.status, 200);
    assert!(docs.text.contains("swagger"), "Swagger UI is served");
}

fn a_snapshot_of_another_engine_version_is_rebuilt_from_the_log(db: Db) {
    let Some(s) = server(db) else { return };
    let players = users(&s, "snap", 2);
    let id = s.started_game("neue-wege", &players);
    for _ in 0..20 {
        let view = s.game(id, &players[0]);
        let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
        let me = s.game(id, &players[to_act]);
        let d = &me["state"]["legal_decisions"][0];
        assert_eq!(
            s.decide(id, &players[to_act], me["version"].as_i64().unwrap(), d)
                .status,
            200
        );
    }
    let before: Vec<Value> = players.iter().map(|u| s.game(id, u)).collect();
    // An old engine version's snapshot, unreadable to this engine.
    let changed = s.execute_sql(&format!(
        "UPDATE games SET state = '{{\"old\": true}}', state_engine_version = 1 WHERE id = {id}"
    ));
    assert_eq!(changed, 1);
    let after: Vec<Value> = players.iter().map(|u| s.game(id, u)).collect();
    assert_eq!(
        after, before,
        "the state rebuilt from the events is the same"
    );
    // Play goes on from the rebuilt state.
    let to_act = after[0]["state"]["to_act"].as_u64().unwrap() as usize;
    let d = &after[to_act]["state"]["legal_decisions"][0];
    let a = s.decide(
        id,
        &players[to_act],
        after[to_act]["version"].as_i64().unwrap(),
        d,
    );
    assert_eq!(a.status, 200, "{}", a.text);
}

/// A move stores the state's snapshot only every few events; between snapshots the game is its
/// last snapshot with the decisions logged after it. Two instances on one database take turns:
/// each decision goes to the instance that did not take the one before, so it loads the game from
/// the database (its memory holds an older version), and each instance's view is the same as the
/// other's, both players', all the way to the end.
fn a_game_between_snapshots_loads_as_played(db: Db) {
    let Some(a) = server(db) else { return };
    let b = support::second_instance(&a);
    let players = users(&a, "between", 2);
    let id = a.started_game("keltis", &players);
    let behind = format!("SELECT version - state_version AS n FROM games WHERE id = {id}");
    let mut tails = Vec::new();
    let mut rng = 7u64;
    for turn in 0.. {
        let (here, there) = if turn % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let view = here.game(id, &players[0]);
        if view["status"] == "over" {
            break;
        }
        assert!(turn < 2000, "the game does not end");
        let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
        let me = here.game(id, &players[to_act]);
        let legal = me["state"]["legal_decisions"].as_array().unwrap();
        let d = support::pick(&mut rng, legal);
        let answer = here.decide(id, &players[to_act], me["version"].as_i64().unwrap(), d);
        assert_eq!(answer.status, 200, "{d} -> {}", answer.text);
        tails.push(a.count(&behind));
        for player in &players {
            assert_eq!(there.game(id, player), here.game(id, player), "turn {turn}");
        }
    }
    // Most moves left a tail to replay; a snapshot was written at least every 16 events.
    assert!(tails.iter().all(|&n| n < 16), "{tails:?}");
    assert!(
        tails.iter().filter(|&&n| n > 0).count() > tails.len() / 2,
        "{tails:?}"
    );
    assert!(tails.iter().filter(|&&n| n == 0).count() > 1, "{tails:?}");
    assert_eq!(tails.last(), Some(&0), "the final state is stored whole");
}

fn bots_fill_every_seat_but_one_and_the_game_finishes(db: Db) {
    let Some(s) = support::spawn(db, |c| c.bot_mcts_ms = 5) else {
        return;
    };
    let human = s.register("human");
    let bots = s.get("/api/v1/bots", Some(&human.token)).json();
    let names: Vec<&str> = bots
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["bot-random", "bot-greedy", "bot-mcts"]);
    let a = s.post(
        "/api/v1/games",
        Some(&human.token),
        json!({"variant": "keltis", "players": 4, "bots": ["bot-random", "bot-greedy", "bot-mcts"]}),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    let created = a.json();
    assert_eq!(created["status"], "active", "bots take their seats at once");
    let id = created["id"].as_i64().unwrap();
    let mut rng = 99u64;
    let mut mine = 0;
    loop {
        let view = s.game(id, &human);
        if view["status"] == "over" {
            break;
        }
        if view["state"]["to_act"] == view["your_seat"] {
            let legal = view["state"]["legal_decisions"].as_array().unwrap();
            let d = support::pick(&mut rng, legal);
            let a = s.decide(id, &human, view["version"].as_i64().unwrap(), d);
            assert!(a.status == 200 || a.status == 409, "{}", a.text);
            mine += 1;
        } else {
            let after = view["version"].as_i64().unwrap();
            let waited = s.get(
                &format!("/api/v1/games/{id}/events?after={after}&wait=20"),
                Some(&human.token),
            );
            assert_eq!(waited.status, 200);
            assert!(
                !waited.json().as_array().unwrap().is_empty(),
                "the bots keep playing"
            );
        }
    }
    assert!(mine > 10);
    let events = s
        .get(&format!("/api/v1/games/{id}/events"), Some(&human.token))
        .json();
    let bot_decisions = events
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "decided" && e["data"]["seat"] != 0)
        .count();
    assert!(bot_decisions > 30, "{bot_decisions}");
    let record = s.get(&format!("/api/v1/games/{id}/record"), Some(&human.token));
    let record: Record = serde_json::from_str(&record.text).unwrap();
    assert!(record.replay().unwrap().is_over());
    // Inviting a bot seats it at once.
    let g = s.post(
        "/api/v1/games",
        Some(&human.token),
        json!({"variant": "keltis-card", "players": 2}),
    );
    let id = g.json()["id"].as_i64().unwrap();
    let a = s.post(
        &format!("/api/v1/games/{id}/invites"),
        Some(&human.token),
        json!({"user": "bot-greedy"}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["status"], "active");
    // Bots are not people: their names are kept, they cannot log in, unknown ones are refused.
    let a = s.post(
        "/api/v1/auth/register",
        None,
        json!({"name": "bot-evil", "password": "correct horse"}),
    );
    assert_eq!((a.status, a.code()), (422, "invalid_name".into()));
    let a = s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": "bot-greedy", "password": "!"}),
    );
    assert_eq!(a.status, 401);
    let a = s.post(
        "/api/v1/games",
        Some(&human.token),
        json!({"variant": "keltis", "players": 2, "bots": ["human"]}),
    );
    assert_eq!((a.status, a.code()), (422, "unknown_bot".into()));
    let a = s.post(
        "/api/v1/games",
        Some(&human.token),
        json!({"variant": "keltis", "players": 2, "bots": ["bot-random", "bot-greedy"]}),
    );
    assert_eq!((a.status, a.code()), (422, "too_many_bots".into()));
}

on_both_databases!(
    bots_fill_every_seat_but_one_and_the_game_finishes,
    a_snapshot_of_another_engine_version_is_rebuilt_from_the_log,
    a_game_between_snapshots_loads_as_played,
    full_games_of_every_variant,
    concurrent_submissions_on_one_version_accept_exactly_one,
    a_retried_idempotent_request_returns_the_first_answer,
    nothing_reveals_hands_draw_pile_or_seed_before_the_end,
    tokens_missing_forged_expired_or_foreign_are_refused,
    bad_input_gets_a_clear_error_never_a_500,
    lobby_join_leave_invite_and_lists,
    events_wait_returns_when_a_new_event_arrives,
    health_and_docs,
);

#[test]
fn login_and_registration_are_rate_limited() {
    let s = support::spawn(Db::Sqlite, |c| c.auth_rate_limit = 3).unwrap();
    s.register("limited");
    for _ in 0..3 {
        let a = s.post(
            "/api/v1/auth/login",
            None,
            json!({"name": "limited", "password": "correct horse"}),
        );
        assert_eq!(a.status, 200);
    }
    let a = s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": "limited", "password": "correct horse"}),
    );
    assert_eq!((a.status, a.code()), (429, "rate_limited".into()));
    let retry: u64 = a
        .headers
        .get("retry-after")
        .unwrap()
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry));
}

/// Two server instances on one PostgreSQL: an instance decides on the version it holds in memory
/// without reading the game row, so the append's own version check must refuse a decision on a
/// version the other instance has moved past, and write nothing of it.
#[test]
#[cfg_attr(not(postgres_tests), ignore = "PostgreSQL: set TEST_DATABASE_URL")]
fn a_decision_on_a_version_another_instance_moved_past_is_stale() {
    let (a, b) = support::two_instances().expect("TEST_DATABASE_URL");
    let players = [a.register("memo1"), a.register("memo2")];
    let id = a.started_game("keltis-card", &players);
    let to_act = a.game(id, &players[0])["state"]["to_act"].as_u64().unwrap() as usize;
    let player = &players[to_act];
    // b reads the game: it now holds this version's state in memory.
    let seen = b.game(id, player);
    let version = seen["version"].as_i64().unwrap();
    let decision = seen["state"]["legal_decisions"][0].clone();
    let body = json!({"expected_version": version, "decision": decision});
    // The same player moves through a (another tab, another instance)...
    let first = a.post(
        &format!("/api/v1/games/{id}/decisions"),
        Some(&player.token),
        body.clone(),
    );
    assert_eq!(first.status, 200, "{}", first.text);
    let now_at = first.json()["version"].as_i64().unwrap();
    assert!(now_at > version);
    // ...and then through b, on the version b still holds.
    let second = b.post(
        &format!("/api/v1/games/{id}/decisions"),
        Some(&player.token),
        body,
    );
    assert_eq!(
        (second.status, second.code()),
        (409, "stale_version".to_string()),
        "{}",
        second.text
    );
    assert_eq!(second.json()["current_version"], now_at);
    // Nothing of the refused decision was written.
    let seqs = event_seqs(&a, id, version, player);
    assert_eq!(seqs, ((version + 1)..=now_at).collect::<Vec<_>>());
    assert_eq!(b.game(id, player)["version"], now_at);
}
