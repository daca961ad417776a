//! OAuth 2.0 with PKCE over HTTP, as a third-party app sees it: the server's metadata, the consent
//! screen's review and answer (from a signed-in session only), the code exchanged once with its
//! verifier for a scoped token that works and is listed with the app's name, and every refusal:
//! a wrong verifier, another redirect URI or client_id, `plain` or no challenge, a code used twice
//! (its token revoked), an expired code, a player who says no, a redirect to an http host; then
//! revocation and the token check. On SQLite, and on PostgreSQL when `TEST_DATABASE_URL` is set.

use crate::support;

use base64::Engine;
use serde_json::{json, Value};
use sha2::Digest;
use support::{Answer, Db, TestServer, User};

const APP: &str = "Score Keeper";
const REDIRECT: &str = "http://127.0.0.1:53117/callback";
const VERIFIER: &str = "the-verifier-of-this-test-0123456789-abcdefghijkl";

fn challenge(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier))
}

fn request(scope: &str, state: &str) -> Value {
    json!({"response_type": "code", "client_id": APP, "redirect_uri": REDIRECT, "scope": scope,
           "state": state, "code_challenge": challenge(VERIFIER), "code_challenge_method": "S256"})
}

fn review(s: &TestServer, token: &str, req: &Value) -> Answer {
    let query: Vec<(String, String)> = req
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
        .collect();
    s.send(
        s.client
            .get(s.url("/api/v1/oauth/authorize"))
            .bearer_auth(token)
            .query(&query),
    )
}

/// The player's answer; where the browser is sent.
fn answer(s: &TestServer, user: &User, req: &Value, approve: bool) -> url::Url {
    let a = s.post(
        "/api/v1/oauth/authorize",
        Some(&user.token),
        json!({"request": req, "approve": approve}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    url::Url::parse(a.json()["redirect_to"].as_str().unwrap()).expect("a URL")
}

fn param(url: &url::Url, name: &str) -> Option<String> {
    url.query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

fn exchange(s: &TestServer, code: &str, redirect: &str, client: &str, verifier: &str) -> Answer {
    s.send(s.client.post(s.url("/oauth/token")).form(&[
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", redirect),
        ("client_id", client),
        ("code_verifier", verifier),
    ]))
}

fn introspect(s: &TestServer, token: &str) -> Value {
    let a = s.send(
        s.client
            .post(s.url("/oauth/introspect"))
            .form(&[("token", token)]),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()
}

fn grant_error(a: &Answer) -> String {
    assert_eq!(a.status, 400, "{}", a.text);
    a.json()["error"].as_str().unwrap_or_default().to_string()
}

fn an_app_gets_a_scoped_token_through_pkce_and_loses_it(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let anna = s.register("anna");

    let meta = s
        .get("/.well-known/oauth-authorization-server", None)
        .json();
    assert_eq!(meta["code_challenge_methods_supported"], json!(["S256"]));
    assert_eq!(meta["grant_types_supported"], json!(["authorization_code"]));
    assert!(meta["token_endpoint"]
        .as_str()
        .unwrap()
        .ends_with("/oauth/token"));
    assert!(meta["authorization_endpoint"]
        .as_str()
        .unwrap()
        .ends_with("/oauth/authorize"));
    // The consent screen is the web client's page.
    let page = s.get("/oauth/authorize?client_id=x", None);
    assert_eq!(page.status, 200);
    assert!(page.text.contains("<main"), "{}", page.text);

    // The review: who asks, for what, where the answer goes.
    let req = request("read", "xyz-123");
    let a = review(&s, &anna.token, &req);
    assert_eq!(a.status, 200, "{}", a.text);
    let shown = a.json();
    assert_eq!(shown["outcome"], "ask");
    assert_eq!(shown["client_id"], APP);
    assert_eq!(shown["redirect_host"], "127.0.0.1");
    assert_eq!(shown["scopes"], json!(["read"]));
    // Only the player, signed in, answers: not a token.
    let personal = s.post(
        "/api/v1/me/tokens",
        Some(&anna.token),
        json!({"name": "mine", "scopes": ["read", "play"]}),
    );
    let personal = personal.json()["token"].as_str().unwrap().to_string();
    let a = review(&s, &personal, &req);
    assert_eq!((a.status, a.code().as_str()), (403, "insufficient_scope"));
    // No scope would do: the challenge names the error alone, with words for people.
    let challenge = a.headers["www-authenticate"].to_str().unwrap();
    assert!(
        challenge.starts_with("Bearer error=\"insufficient_scope\", error_description=\""),
        "{challenge}"
    );
    assert!(!challenge.contains("scope=\""), "{challenge}");

    // Yes: a code at the redirect, with the state as it was sent.
    let back = answer(&s, &anna, &req, true);
    assert!(back.as_str().starts_with(REDIRECT), "{back}");
    assert_eq!(param(&back, "state").as_deref(), Some("xyz-123"));
    let code = param(&back, "code").expect("a code");

    // Refusals that leave the code unspent.
    let wrong = "the-verifier-of-this-test-0123456789-abcdefghijkX";
    assert_eq!(
        grant_error(&exchange(&s, &code, REDIRECT, APP, wrong)),
        "invalid_grant"
    );
    let other_redirect = "http://127.0.0.1:53117/callbacK";
    assert_eq!(
        grant_error(&exchange(&s, &code, other_redirect, APP, VERIFIER)),
        "invalid_grant"
    );
    assert_eq!(
        grant_error(&exchange(&s, &code, REDIRECT, "Another App", VERIFIER)),
        "invalid_grant"
    );
    let a = s.send(s.client.post(s.url("/oauth/token")).form(&[
        ("grant_type", "password"),
        ("username", "anna"),
        ("password", "correct horse"),
    ]));
    assert_eq!(grant_error(&a), "unsupported_grant_type");

    // The exchange.
    let a = exchange(&s, &code, REDIRECT, APP, VERIFIER);
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.headers["cache-control"], "no-store");
    let granted = a.json();
    assert_eq!(granted["token_type"], "Bearer");
    assert_eq!(granted["scope"], "read");
    let token = granted["access_token"].as_str().unwrap().to_string();
    // It acts for anna, within its scope.
    let me = s.get("/api/v1/me", Some(&token));
    assert_eq!(me.status, 200, "{}", me.text);
    assert_eq!(me.json()["name"], "anna");
    let a = s.post(
        "/api/v1/games",
        Some(&token),
        json!({"variant": "keltis", "players": 2}),
    );
    assert_eq!((a.status, a.code().as_str()), (403, "insufficient_scope"));
    // RFC 6750 section 3.1: the challenge names the error and the scope needed.
    assert_eq!(
        a.headers["www-authenticate"],
        "Bearer error=\"insufficient_scope\", scope=\"play\""
    );
    // Listed among anna's tokens with the app's name.
    let tokens = s.get("/api/v1/me/tokens", Some(&anna.token)).json();
    let app = tokens
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["client_id"] == APP)
        .cloned()
        .expect("the app's token is listed");
    assert_eq!(app["redirect_host"], "127.0.0.1");
    assert_eq!(app["scopes"], json!(["read"]));
    let checked = introspect(&s, &token);
    assert_eq!(checked["active"], true);
    assert_eq!(checked["scope"], "read");
    assert_eq!(checked["client_id"], APP);
    assert_eq!(checked["username"], "anna");

    // The code again: refused, and the token it gave is revoked.
    assert_eq!(
        grant_error(&exchange(&s, &code, REDIRECT, APP, VERIFIER)),
        "invalid_grant"
    );
    assert_eq!(s.get("/api/v1/me", Some(&token)).status, 401);
    assert_eq!(introspect(&s, &token), json!({"active": false}));

    // A code past its minute.
    let late = param(
        &answer(&s, &anna, &request("read play", "s2"), true),
        "code",
    )
    .unwrap();
    s.clock.advance(61_000);
    assert_eq!(
        grant_error(&exchange(&s, &late, REDIRECT, APP, VERIFIER)),
        "invalid_grant"
    );

    // Requests the app must hear about: sent back with the error and the state.
    for (change, error) in [
        (json!({"code_challenge_method": "plain"}), "invalid_request"),
        (json!({"code_challenge_method": null}), "invalid_request"),
        (json!({"code_challenge": null}), "invalid_request"),
        (json!({"scope": "admin"}), "invalid_scope"),
        (
            json!({"response_type": "token"}),
            "unsupported_response_type",
        ),
    ] {
        let mut req = request("read", "s3");
        for (k, v) in change.as_object().unwrap() {
            if v.is_null() {
                req.as_object_mut().unwrap().remove(k);
            } else {
                req[k] = v.clone();
            }
        }
        let shown = review(&s, &anna.token, &req).json();
        assert_eq!(shown["outcome"], "refused", "{change}: {shown}");
        let to = url::Url::parse(shown["redirect_to"].as_str().unwrap()).unwrap();
        assert_eq!(param(&to, "error").as_deref(), Some(error), "{change}");
        assert_eq!(param(&to, "state").as_deref(), Some("s3"));
        let to = answer(&s, &anna, &req, true);
        assert_eq!(param(&to, "error").as_deref(), Some(error), "{change}");
        assert_eq!(param(&to, "code"), None);
    }
    // The player says no.
    let no = answer(&s, &anna, &request("read", "s4"), false);
    assert_eq!(param(&no, "error").as_deref(), Some("access_denied"));
    assert_eq!(param(&no, "state").as_deref(), Some("s4"));
    // A redirect the server will not send a browser to: told to the player, no redirect.
    for bad in [
        "http://app.example/cb",
        "https://app.example/cb#x",
        "javascript:alert(1)",
    ] {
        let mut req = request("read", "s5");
        req["redirect_uri"] = json!(bad);
        let a = review(&s, &anna.token, &req);
        assert_eq!(
            (a.status, a.code().as_str()),
            (422, "invalid_redirect_uri"),
            "{bad}"
        );
        let a = s.post(
            "/api/v1/oauth/authorize",
            Some(&anna.token),
            json!({"request": req, "approve": true}),
        );
        assert_eq!(
            (a.status, a.code().as_str()),
            (422, "invalid_redirect_uri"),
            "{bad}"
        );
    }

    // Revocation: the token stops working; unknown tokens are answered alike.
    let code = param(
        &answer(&s, &anna, &request("read play", "s6"), true),
        "code",
    )
    .unwrap();
    let token = exchange(&s, &code, REDIRECT, APP, VERIFIER).json()["access_token"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(introspect(&s, &token)["scope"], "play read");
    let revoke = |t: &str| s.send(s.client.post(s.url("/oauth/revoke")).form(&[("token", t)]));
    assert_eq!(revoke(&token).status, 200);
    assert_eq!(s.get("/api/v1/me", Some(&token)).status, 401);
    assert_eq!(introspect(&s, &token), json!({"active": false}));
    assert_eq!(revoke(&token).status, 200);
    assert_eq!(revoke("kt_nothing").status, 200);
    assert_eq!(introspect(&s, "not a token"), json!({"active": false}));
    // The player's own token was never touched.
    assert_eq!(s.get("/api/v1/me", Some(&personal)).status, 200);
}

/// One code presented twice at the same moment, many times over: at most one exchange gets a
/// token, and no token given for a code presented twice still works (RFC 6749 section 4.1.2).
fn a_code_presented_twice_at_once_leaves_no_working_token(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let anna = s.register("anna");
    let mut given = 0;
    for race in 0..20 {
        let back = answer(&s, &anna, &request("read", &format!("race-{race}")), true);
        let code = param(&back, "code").expect("a code");
        let barrier = std::sync::Barrier::new(2);
        let answers: Vec<Answer> = std::thread::scope(|scope| {
            let runs: Vec<_> = (0..2)
                .map(|_| {
                    scope.spawn(|| {
                        barrier.wait();
                        exchange(&s, &code, REDIRECT, APP, VERIFIER)
                    })
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        let tokens: Vec<String> = answers
            .iter()
            .filter(|a| a.status == 200)
            .map(|a| a.json()["access_token"].as_str().unwrap().to_string())
            .collect();
        assert!(tokens.len() <= 1, "race {race}: two tokens for one code");
        for a in answers.iter().filter(|a| a.status != 200) {
            assert_eq!(grant_error(a), "invalid_grant", "race {race}");
        }
        for token in &tokens {
            given += 1;
            let me = s.get("/api/v1/me", Some(token));
            assert_eq!(
                me.status, 401,
                "race {race}: the winner's token still works"
            );
            assert_eq!(introspect(&s, token), json!({"active": false}));
        }
    }
    assert!(given > 0, "some exchange won a race");
}

on_both_databases!(
    an_app_gets_a_scoped_token_through_pkce_and_loses_it,
    a_code_presented_twice_at_once_leaves_no_working_token,
);

/// The same flow run by a third-party app written in Python with its standard library alone
/// (`tests/oauth_app/app.py`): it shares no code with the server or these tests.
fn a_python_app_runs_the_flow(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let anna = s.register("anna");
    let app = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oauth_app/app.py");
    let out = std::process::Command::new("python3")
        .args([app, &s.base, &anna.token])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
    assert_eq!(report["ok"], true);
    assert_eq!(report["name"], "anna");
    // The game the app created with its token is anna's.
    let id = report["game"].as_i64().unwrap();
    assert_eq!(s.game(id, &anna)["seats"][0]["user"], "anna");
}

mod python {
    use super::*;

    on_both_databases!(a_python_app_runs_the_flow);
}
