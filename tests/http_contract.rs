//! What clients and operators can rely on beyond the rules: pagination, query limits, methods,
//! text input, and the answers while the database is down. On SQLite, and on PostgreSQL when
//! `TEST_DATABASE_URL` is set.

use crate::support;

use std::collections::HashSet;

use serde_json::{json, Value};
use support::{Db, TestServer};

fn server(db: Db) -> TestServer {
    support::spawn(db, |_| {}).expect("a database for this test")
}

fn ids(page: &Value) -> Vec<i64> {
    page["games"]
        .as_array()
        .unwrap_or_else(|| panic!("no games: {page}"))
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect()
}

/// Every page of `path` (which has `limit=` already), following `next_cursor`.
fn all_pages(s: &TestServer, path: &str, token: &str) -> Vec<Vec<i64>> {
    let mut pages = Vec::new();
    let mut url = path.to_string();
    loop {
        let a = s.get(&url, Some(token));
        assert_eq!(a.status, 200, "{url}: {}", a.text);
        let page = a.json();
        pages.push(ids(&page));
        match page["next_cursor"].as_str() {
            Some(cursor) => url = format!("{path}&cursor={cursor}"),
            None => return pages,
        }
    }
}

fn game_lists_page_with_a_cursor(db: Db) {
    let s = server(db);
    let creator = s.register("pager");
    let reader = s.register("reader");
    let mut created = Vec::new();
    for _ in 0..5 {
        let a = s.post(
            "/api/v1/games",
            Some(&creator.token),
            json!({"variant": "keltis", "players": 2}),
        );
        assert_eq!(a.status, 201, "{}", a.text);
        created.push(a.json()["id"].as_i64().unwrap());
    }
    for (filter, token) in [("open", &reader.token), ("mine", &creator.token)] {
        let pages = all_pages(&s, &format!("/api/v1/games?filter={filter}&limit=2"), token);
        assert_eq!(
            pages.iter().map(Vec::len).collect::<Vec<_>>(),
            [2, 2, 1],
            "{filter}"
        );
        let seen: Vec<i64> = pages.concat();
        let unique: HashSet<i64> = seen.iter().copied().collect();
        assert_eq!(unique.len(), 5, "{filter}: every game once");
        assert!(created.iter().all(|id| unique.contains(id)));
    }
    // A game that changes moves to the front of `mine`.
    s.clock.advance(1000);
    let first = created[0];
    let other = s.register("joiner");
    let a = s.post(
        &format!("/api/v1/games/{first}/join"),
        Some(&other.token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    let mine = s.get("/api/v1/games?filter=mine&limit=1", Some(&creator.token));
    assert_eq!(ids(&mine.json()), [first]);
}

fn out_of_range_queries_are_refused(db: Db) {
    let s = server(db);
    let u = s.register("queries");
    let other = s.register("queries2");
    let id = s.started_game("keltis-card", &[u.clone(), other]);
    let t = Some(u.token.as_str());
    for path in [
        format!("/api/v1/games/{id}/events?wait=9223372036854775808"),
        format!("/api/v1/games/{id}/events?wait=18446744073709551616"),
        format!("/api/v1/games/{id}/events?wait=61"),
        format!("/api/v1/games/{id}/events?wait=-1"),
        format!("/api/v1/games/{id}/events?limit=0"),
        format!("/api/v1/games/{id}/events?limit=1001"),
        format!("/api/v1/games/{id}/events?after=-1"),
        "/api/v1/games?limit=0".to_string(),
        "/api/v1/games?limit=201".to_string(),
        "/api/v1/games?filter=everything".to_string(),
        "/api/v1/games?cursor=yesterday".to_string(),
        "/api/v1/games?cursor=99999999999999999999.1".to_string(),
    ] {
        let a = s.get(&path, t);
        assert_eq!(
            (a.status, a.code()),
            (400, "invalid_query".into()),
            "{path}"
        );
    }
    let a = s.get(&format!("/api/v1/games/{id}/events?wait=0&limit=1"), t);
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json().as_array().unwrap().len(), 1);
}

fn wrong_methods_get_405_with_allow(db: Db) {
    let s = server(db);
    let u = s.register("methods");
    for (method, path, allow) in [
        (reqwest::Method::DELETE, "/api/v1/games", "GET, POST"),
        (reqwest::Method::PUT, "/api/v1/games/7/decisions", "POST"),
        (reqwest::Method::POST, "/api/v1/me", "GET"),
        (reqwest::Method::PATCH, "/healthz", "GET"),
    ] {
        let a = s.send(
            s.client
                .request(method.clone(), s.url(path))
                .bearer_auth(&u.token),
        );
        assert_eq!(
            (a.status, a.code()),
            (405, "method_not_allowed".into()),
            "{method} {path}"
        );
        let mut got: Vec<String> = a.headers["allow"]
            .to_str()
            .unwrap()
            .split(", ")
            .map(String::from)
            .collect();
        got.sort();
        assert_eq!(got.join(", "), allow, "{method} {path}");
    }
    let a = s.get("/api/v1/nowhere", Some(&u.token));
    assert_eq!((a.status, a.code()), (404, "not_found".into()));
    // /docs sends browsers to the Swagger UI, which validates nothing online.
    let plain = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let r = plain.get(s.url("/docs")).send().unwrap();
    assert_eq!(r.status().as_u16(), 308);
    assert_eq!(r.headers()["location"], "/docs/");
    let config = s.get("/docs/swagger-initializer.js", None);
    assert_eq!(config.status, 200);
    assert!(config.text.contains("/openapi.json"), "{}", config.text);
    assert!(
        config.text.contains("\"validatorUrl\": \"none\""),
        "{}",
        config.text
    );
}

fn control_characters_are_refused_not_stored(db: Db) {
    let s = server(db);
    let u = s.register("texter");
    let other = s.register("texter2");
    let open = s.post(
        "/api/v1/games",
        Some(&u.token),
        json!({"variant": "keltis", "players": 3}),
    );
    let id = open.json()["id"].as_i64().unwrap();
    let cases = [
        (
            "/api/v1/auth/login",
            None,
            json!({"name": "tex\u{0}ter", "password": "correct horse"}),
            "invalid_name",
        ),
        (
            "/api/v1/auth/register",
            None,
            json!({"name": "nul\u{0}name", "password": "correct horse"}),
            "invalid_name",
        ),
        (
            "/api/v1/auth/register",
            None,
            json!({"name": "belly", "password": "correct\u{7}horse"}),
            "invalid_password",
        ),
        (
            "/api/v1/me/tokens",
            Some(&u.token),
            json!({"name": "to\u{0}ken", "scopes": ["read"]}),
            "invalid_token_name",
        ),
        (
            "/api/v1/me/tokens",
            Some(&u.token),
            json!({"name": "line\nbreak", "scopes": ["read"]}),
            "invalid_token_name",
        ),
        (
            "/api/v1/me/tokens",
            Some(&u.token),
            json!({"name": "   ", "scopes": ["read"]}),
            "invalid_token_name",
        ),
        (
            &format!("/api/v1/games/{id}/invites") as &str,
            Some(&u.token),
            json!({"user": "texter2\u{0}"}),
            "invalid_name",
        ),
        (
            "/api/v1/games",
            Some(&u.token),
            json!({"variant": "keltis", "players": 2, "bots": ["bot-\u{0}"]}),
            "unknown_bot",
        ),
    ];
    for (path, token, body, code) in cases {
        let a = s.post(path, token.map(String::as_str), body.clone());
        assert_eq!((a.status, a.code()), (422, code.into()), "{path} {body}");
    }
    let tokens = s.get("/api/v1/me/tokens", Some(&u.token)).json();
    assert_eq!(tokens, json!([]), "nothing was stored");
    let invite = s.post(
        &format!("/api/v1/games/{id}/invites"),
        Some(&u.token),
        json!({"user": "nobody"}),
    );
    assert_eq!((invite.status, invite.code()), (422, "unknown_user".into()));
    // The server is fine afterwards.
    let a = s.post(
        &format!("/api/v1/games/{id}/invites"),
        Some(&u.token),
        json!({"user": other.name}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
}

fn every_error_code_names_its_reason(db: Db) {
    let s = server(db);
    let players = [s.register("coder1"), s.register("coder2")];
    let stranger = s.register("coder3");
    let id = s.started_game("keltis", &players);
    let view = s.game(id, &players[0]);
    let version = view["version"].as_i64().unwrap();
    let a = s.decide(id, &stranger, version, &json!({"type": "draw_deck"}));
    assert_eq!((a.status, a.code()), (403, "not_seated".into()));
    let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
    let waiting = &players[1 - to_act];
    let a = s.decide(id, waiting, version, &json!({"type": "draw_deck"}));
    assert_eq!((a.status, a.code()), (422, "not_your_turn".into()));
    // Messages use the wire's words, not the engine's type names.
    let a = s.decide(id, &players[to_act], version, &json!({"type": "draw_deck"}));
    assert_eq!((a.status, a.code()), (422, "unexpected_decision".into()));
    let message = a.json()["message"].as_str().unwrap().to_string();
    assert!(message.contains("its play phase"), "{message}");
    // The detail links to what else there is.
    assert_eq!(
        view["links"]["events"],
        format!("/api/v1/games/{id}/events")
    );
    assert_eq!(
        view["links"]["record"],
        format!("/api/v1/games/{id}/record")
    );
    assert_eq!(view["state"]["phase"], json!({"type": "play"}));
}

on_both_databases!(
    game_lists_page_with_a_cursor,
    out_of_range_queries_are_refused,
    wrong_methods_get_405_with_allow,
    control_characters_are_refused_not_stored,
    every_error_code_names_its_reason,
);

/// PostgreSQL goes away under a running server and comes back: 503 `database_unavailable` with
/// `Retry-After` meanwhile (never 500), `/readyz` says so, and the server recovers by itself:
/// every request is answered again (the pool drops its dead connections rather than lend them
/// for good), and wake-ups reach long polls again.
#[test]
#[cfg_attr(not(postgres_tests), ignore = "PostgreSQL: set TEST_DATABASE_URL")]
fn a_database_outage_answers_503_with_retry_after_and_recovers() {
    let admin = std::env::var("TEST_DATABASE_URL").expect("TEST_DATABASE_URL");
    let host_port = admin
        .split('@')
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .expect("host:port in TEST_DATABASE_URL")
        .to_string();
    let proxy = support::proxy::Proxy::start(&host_port);
    let port = proxy.port;
    let s = support::spawn(Db::Postgres, move |c| {
        if let Some(url) = &c.database_url {
            c.database_url = Some(url.replacen(&host_port, &format!("127.0.0.1:{port}"), 1));
        }
    })
    .expect("server");
    let u = s.register("outage");
    let players = [u.clone(), s.register("outage2")];
    let id = s.started_with(json!({"variant": "keltis-card", "players": 2}), &players);
    // Every pooled connection answers just before the cut, so that all of them look fresh
    // (connections that answered within a second are handed out without a ping).
    // Each call on a connection of its own: a kept-alive one idle through the outage may be
    // closed by the server just as the client sends on it (a transport error, not an answer).
    let fresh = reqwest::blocking::Client::builder()
        .pool_max_idle_per_host(0)
        .timeout(std::time::Duration::from_secs(60))
        .build()
        .expect("client");
    let busy = |s: &support::TestServer| {
        std::thread::scope(|scope| {
            let calls: Vec<_> = (0..8)
                .map(|_| {
                    scope.spawn(|| {
                        s.send(
                            fresh
                                .get(s.url("/api/v1/games?filter=mine"))
                                .bearer_auth(&u.token),
                        )
                    })
                })
                .collect();
            calls
                .into_iter()
                .map(|c| c.join().expect("request thread").status)
                .collect::<Vec<_>>()
        })
    };
    assert_eq!(busy(&s), vec![200; 8]);
    proxy.cut();
    for path in ["/api/v1/games?filter=mine", "/readyz", "/api/v1/me/tokens"] {
        let a = s.get(path, Some(&u.token));
        assert_eq!(
            (a.status, a.code()),
            (503, "database_unavailable".into()),
            "{path}: {}",
            a.text
        );
        assert_eq!(a.headers["retry-after"], "1", "{path}");
    }
    let a = s.post(
        "/api/v1/games",
        Some(&u.token),
        json!({"variant": "keltis", "players": 2}),
    );
    assert_eq!(a.status, 503, "{}", a.text);
    proxy.restore();
    let mut ready = false;
    for _ in 0..50 {
        if s.get("/readyz", None).status == 200 {
            ready = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    assert!(ready, "the server recovers without a restart");
    // Once the database is back every request is answered again. While the pool opens its
    // connections afresh (each request waits a second for one; on a loaded machine PostgreSQL
    // forks slowly) a request may still hear 503 with Retry-After, the documented answer, never
    // another; within a few rounds every one of eight at once is answered.
    let mut rounds = Vec::new();
    for _ in 0..20 {
        let round = busy(&s);
        let done = round.iter().all(|&status| status == 200);
        assert!(
            round.iter().all(|&status| status == 200 || status == 503),
            "{round:?}"
        );
        rounds.push(round);
        if done {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    assert_eq!(
        rounds.last(),
        Some(&vec![200; 8]),
        "every request after the recovery: {rounds:?}"
    );
    // Wake-ups travel again. The listener has reconnected by now (it woke every waiter then);
    // the notifier finds its connection dead only when it sends the move's wake-up, and must
    // send it again once reconnected (else the long poll answers empty at its deadline).
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let to_act = s.game(id, &players[0])["state"]["to_act"]
        .as_u64()
        .expect("a seat to act") as usize;
    let view = s.game(id, &players[to_act]);
    let v = view["version"].as_i64().expect("version");
    let poll = {
        let url = s.url(&format!("/api/v1/games/{id}/events?after={v}&wait=30"));
        let (client, token) = (s.client.clone(), players[0].token.clone());
        std::thread::spawn(move || {
            let r = client.get(url).bearer_auth(token).send().expect("poll");
            r.json::<serde_json::Value>().expect("JSON")
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(300));
    // One decision: one commit, one wake-up.
    let decision = &view["state"]["legal_decisions"][0];
    let a = s.decide(id, &players[to_act], v, decision);
    assert_eq!(a.status, 200, "{}", a.text);
    let got = poll.join().expect("the poll answers");
    assert_eq!(got[0]["seq"], v + 1, "{got}");
    let a = s.post(
        "/api/v1/games",
        Some(&u.token),
        json!({"variant": "keltis", "players": 2}),
    );
    assert_eq!(a.status, 201, "{}", a.text);
}

/// A client that sends its headers and then only part of its body is answered 408
/// `body_timeout` once the body deadline passes (1 s here), not held open.
#[test]
fn a_body_that_never_arrives_is_answered_408() {
    use std::io::{Read, Write};
    let s = support::spawn(Db::Sqlite, |c| c.body_timeout_seconds = 1).expect("server");
    let u = s.register("slowpoke");
    let addr = s.base.trim_start_matches("http://").to_string();
    let mut conn = std::net::TcpStream::connect(&addr).unwrap();
    conn.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    let body = r#"{"variant": "keltis", "players": 2}"#;
    write!(
        conn,
        "POST /api/v1/games HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
        u.token,
        body.len(),
        &body[..10]
    )
    .unwrap();
    let mut answer = vec![0u8; 4096];
    let n = conn.read(&mut answer).unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("body_timeout"), "{answer}");
}
