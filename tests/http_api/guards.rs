//! What the server refuses or keeps to itself: hidden cards and the seed before the end, tokens
//! that are not good, bad input (a clear error, never a 500), rate limits on login and
//! registration.

use std::collections::HashSet;

use super::support::{self, Db, User};
use super::{server, users};
use serde_json::json;

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

crate::on_both_databases!(
    nothing_reveals_hands_draw_pile_or_seed_before_the_end,
    tokens_missing_forged_expired_or_foreign_are_refused,
    bad_input_gets_a_clear_error_never_a_500,
);
