//! The scopes the document gives each operation are the ones the server enforces: every
//! operation without a path parameter is called with a token that has only its scope (not
//! refused for scope) and with one that has every other scope (403 `insufficient_scope`); the
//! session-only ones refuse a token with every scope. On SQLite (scopes do not touch storage).

use crate::support;

use serde_json::{json, Value};
use support::{Db, TestServer};

const SCOPES: [&str; 6] = ["read", "play", "email", "webhooks", "push", "organize"];

fn token(s: &TestServer, owner: &str, scopes: &[&str]) -> String {
    let a = s.post(
        "/api/v1/me/tokens",
        Some(owner),
        json!({"name": format!("only {scopes:?}"), "scopes": scopes}),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    a.json()["token"].as_str().unwrap().to_string()
}

/// A body each POST or PUT accepts, so that only the scope can refuse it.
fn body(operation: &str) -> Value {
    match operation {
        "createGame" => json!({"variant": "keltis", "players": 2}),
        "filePairingRequest" => json!({"variant": "keltis"}),
        "createEvent" => json!({"name": "Scopes", "format": "swiss", "variant": "keltis"}),
        "createBulkPairing" => json!({"variant": "keltis", "games": []}),
        "createWebhook" => json!({"url": "http://127.0.0.1:9/hook", "kinds": ["your_turn"]}),
        "createPushSubscription" => {
            json!({"endpoint": "https://push.example/abc", "keys": {"p256dh": "x", "auth": "y"}})
        }
        "createApiToken" => json!({"name": "x", "scopes": ["read"]}),
        "postTypedMove" => json!({"expected_version": 0, "text": "draw deck"}),
        "changePassword" => {
            json!({"current_password": "correct horse", "new_password": "another one"})
        }
        "deleteAccount" | "markAccountAsBot" => json!({"password": "correct horse"}),
        "createReport" => json!({"user": "nobody", "reason": "x"}),
        "setEmail" => json!({"email": null}),
        "setEmailPreferences" => json!({"your_turn": true, "deadline_reminder": true,
            "invitation": true, "game_started": true, "game_over": true, "digest_hours": null,
            "language": "en"}),
        "confirmTwoFactor" | "disableTwoFactor" => json!({"code": "123456"}),
        "answerAuthorization" => json!({"request": {}, "approve": false}),
        _ => json!({}),
    }
}

#[test]
fn the_documented_scopes_are_the_enforced_ones() {
    let s = support::spawn(Db::Sqlite, |c| c.webhooks_allow_private = true).expect("SQLite");
    let anna = s.register("anna");
    let only: Vec<String> = SCOPES
        .iter()
        .map(|sc| token(&s, &anna.token, &[sc]))
        .collect();
    let all_but: Vec<String> = SCOPES
        .iter()
        .map(|sc| {
            let rest: Vec<&str> = SCOPES.iter().copied().filter(|x| x != sc).collect();
            token(&s, &anna.token, &rest)
        })
        .collect();
    let every = token(&s, &anna.token, &SCOPES);
    let spec: Value = serde_json::from_str(&keltis::api::openapi_json()).unwrap();
    let call = |method: &str, path: &str, op: &str, bearer: &str| {
        let url = s.url(path);
        let req = match method {
            "get" => s.client.get(url),
            "post" => s.client.post(url).json(&body(op)),
            "put" => s.client.put(url).json(&body(op)),
            "delete" => s.client.delete(url),
            other => panic!("{other}"),
        };
        s.send(req.bearer_auth(bearer))
    };
    let mut checked = 0;
    for (path, item) in spec["paths"].as_object().unwrap() {
        // Streams never end; paths with parameters need things to point at.
        if path.contains('{') || path.ends_with("/stream") {
            continue;
        }
        for (method, op) in item.as_object().unwrap() {
            let Some(security) = op["security"].as_array() else {
                continue;
            };
            if !security.iter().any(|r| r.get("bearer").is_some()) {
                continue;
            }
            // Signing out everywhere would end anna's session for the rest of the test.
            let id = op["operationId"].as_str().unwrap();
            if id == "deleteAccount" || id == "signOutEverywhere" {
                let a = call(method, path, id, &every);
                assert_eq!(a.status, 403, "{id} with a token: {}", a.text);
                continue;
            }
            let oauth = security.iter().find_map(|r| r.get("oauth2"));
            match oauth.and_then(Value::as_array) {
                None => {
                    let a = call(method, path, id, &every);
                    assert_eq!(
                        (a.status, a.code()),
                        (403, "insufficient_scope".into()),
                        "{id}"
                    );
                }
                Some(scopes) if scopes.is_empty() => {
                    for t in &only {
                        assert_eq!(call(method, path, id, t).status, 200, "{id}");
                    }
                }
                Some(scopes) => {
                    let scope = scopes[0].as_str().unwrap();
                    let i = SCOPES.iter().position(|x| *x == scope).unwrap();
                    let a = call(method, path, id, &all_but[i]);
                    assert_eq!(
                        (a.status, a.code()),
                        (403, "insufficient_scope".into()),
                        "{method} {path} ({id}) without {scope}"
                    );
                    let a = call(method, path, id, &only[i]);
                    assert!(
                        a.status != 403 && a.status != 401,
                        "{method} {path} ({id}) with {scope} only: {} {}",
                        a.status,
                        a.text
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 25, "only {checked} operations checked");
}

/// A runaway token is slowed down alone: over its requests per minute it gets 429 `rate_limited`
/// with `Retry-After`, while another token of the same player and the player's own session go on.
#[test]
fn a_token_over_its_rate_waits_alone() {
    let s = support::spawn(Db::Sqlite, |c| c.token_rate_limit = 5).expect("SQLite");
    let anna = s.register("anna");
    let busy = token(&s, &anna.token, &["read"]);
    let calm = token(&s, &anna.token, &["read"]);
    for _ in 0..5 {
        assert_eq!(s.get("/api/v1/me", Some(&busy)).status, 200);
    }
    let a = s.get("/api/v1/me", Some(&busy));
    assert_eq!(
        (a.status, a.code()),
        (429, "rate_limited".into()),
        "{}",
        a.text
    );
    let wait: u64 = a.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert_eq!(s.get("/api/v1/me", Some(&calm)).status, 200);
    for _ in 0..10 {
        assert_eq!(s.get("/api/v1/me", Some(&anna.token)).status, 200);
    }
}
