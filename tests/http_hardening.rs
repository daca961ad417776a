//! The holes found from outside (issue 36), each closed and kept closed: request metrics whose
//! labels a client cannot grow, NUL and other control characters in paths and queries answered
//! the same on both databases, call-outs refused for IPv6 forms of private addresses, cursors
//! held to their documented patterns, the rate limit behind a trusted proxy, problem bodies from
//! the HTTP layer, and the smaller ones (unknown fields on a time control, a body of the wrong
//! type, tokens of no user or from the future). On SQLite, and on PostgreSQL when
//! `TEST_DATABASE_URL` is set.

use crate::support;

use std::io::{Read, Write};
use std::time::Duration;

use serde_json::{json, Value};
use support::{Db, TestServer};

fn server(db: Db) -> TestServer {
    support::spawn(db, |_| {}).expect("a database for this test")
}

/// The series `/metrics` shows (its lines that are not comments).
fn series(s: &TestServer) -> usize {
    let a = s.get("/metrics", None);
    assert_eq!(a.status, 200, "{}", a.text);
    a.text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .count()
}

/// Requests with random methods and paths add no series: every label comes from a fixed set.
/// (Before, each new method was a new series: 10,000 requests made 10,000 more.)
fn metrics_labels_stay_bounded(db: Db) {
    let s = server(db);
    // Every route answered once, so that the count below is the whole set.
    for path in ["/healthz", "/api/v1/bots", "/api/v1/games", "/nowhere"] {
        s.get(path, None);
    }
    let before = series(&s);
    let mut rng = 0x5eed_u64;
    let mut next = || {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        rng >> 33
    };
    let letters = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for i in 0..10_000 {
        let len = 3 + (next() % 60) as usize;
        let method: String = (0..len)
            .map(|_| letters[(next() % 26) as usize] as char)
            .collect();
        let path = match i % 4 {
            0 => format!("/api/v1/games/{}", next()),
            1 => format!("/x{}/y{}", next(), next()),
            2 => format!("/api/v1/players/p{}", next()),
            _ => "/healthz".to_string(),
        };
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("a method token");
        let a = s.send(s.client.request(method, s.url(&path)));
        assert!(a.status < 500, "{path} -> {}", a.status);
    }
    let after = series(&s);
    // The new statuses (404, 405) and routes seen add a few series; never one per request.
    assert!(
        after < before + 150,
        "{before} series before, {after} after 10,000 requests with random methods and paths"
    );
}

/// Bad text for a path segment or a query value, percent-encoded: NUL, invalid UTF-8 and
/// control characters.
const BAD_TEXT: &[&str] = &[
    "%00", "a%00b", "%FF", "%C3%28", "%0A", "%1B", "%7F", "%C2%85",
];

/// Every route's path and query parameters, swept with NUL, invalid UTF-8 and control
/// characters: 404 for a path, 400 `invalid_query` for a query, a problem body, the same on both
/// databases (PostgreSQL answered 500 for `/players/%00`).
fn control_characters_in_paths_and_queries(db: Db) {
    let s = server(db);
    let user = s.register("sweeper");
    let spec: Value = s.get("/openapi.json", None).json();
    let mut checked = 0;
    for (route, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let params = op["parameters"].as_array().cloned().unwrap_or_default();
            let send = |path: &str| {
                let url = s.url(path);
                let req = match method.as_str() {
                    "get" => s.client.get(url),
                    "post" => s.client.post(url).json(&json!({})),
                    "put" => s.client.put(url).json(&json!({})),
                    "delete" => s.client.delete(url),
                    other => panic!("method {other}"),
                };
                s.send(req.bearer_auth(&user.token))
            };
            // A plausible value for every path parameter.
            let base =
                params
                    .iter()
                    .filter(|p| p["in"] == "path")
                    .fold(route.clone(), |path, p| {
                        let name = p["name"].as_str().unwrap();
                        let value = if name == "variant" { "keltis" } else { "1" };
                        path.replace(&format!("{{{name}}}"), value)
                    });
            for p in &params {
                let name = p["name"].as_str().unwrap();
                for bad in BAD_TEXT {
                    let (path, status, code) = match p["in"].as_str() {
                        Some("path") => (
                            params.iter().filter(|q| q["in"] == "path").fold(
                                route.clone(),
                                |path, q| {
                                    let n = q["name"].as_str().unwrap();
                                    let v = if n == name {
                                        bad.to_string()
                                    } else if n == "variant" {
                                        "keltis".into()
                                    } else {
                                        "1".into()
                                    };
                                    path.replace(&format!("{{{n}}}"), &v)
                                },
                            ),
                            404,
                            "not_found",
                        ),
                        Some("query") => (format!("{base}?{name}={bad}"), 400, "invalid_query"),
                        _ => continue,
                    };
                    let a = send(&path);
                    assert_eq!(a.status, status, "{method} {path}: {}", a.text);
                    assert_eq!(a.code(), code, "{method} {path}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "{checked} requests");
    // The cases that were found, by name.
    for path in ["/api/v1/players/%00", "/api/v1/players/a%00b"] {
        let a = s.get(path, Some(&user.token));
        assert_eq!((a.status, a.code()), (404, "not_found".into()), "{path}");
    }
    let a = s.get("/api/v1/history?player=%00", Some(&user.token));
    assert_eq!((a.status, a.code()), (400, "invalid_query".into()));
}

/// IPv6 forms that carry a private IPv4 address (NAT64, IPv4-compatible, 6to4, IPv4-mapped) are
/// refused as webhook endpoints, like the IPv4 addresses themselves.
fn webhook_urls_hiding_private_addresses_are_refused(db: Db) {
    let s = server(db);
    let user = s.register("hooker");
    for url in [
        "http://[64:ff9b::a9fe:a9fe]/",
        "http://[::127.0.0.1]/",
        "http://[64:ff9b::7f00:1]/",
        "http://[2002:7f00:1::1]/",
        "http://[::ffff:a9fe:a9fe]/",
        "http://[fc00::1]/",
        "http://169.254.169.254/latest",
        "http://localhost/",
    ] {
        let a = s.post(
            "/api/v1/me/webhooks",
            Some(&user.token),
            json!({"url": url, "kinds": ["your_turn"]}),
        );
        assert_eq!(a.status, 422, "{url}: {}", a.text);
        assert_eq!(a.code(), "private_webhook_address", "{url}");
    }
}

/// Cursors outside the document's patterns answer 400 `invalid_query` (they answered 200 with an
/// empty page).
fn cursors_outside_their_patterns_are_refused(db: Db) {
    let s = server(db);
    let user = s.register("pager");
    let nan = format!("1.{:016x}.2", f64::NAN.to_bits());
    let inf = format!("1.{:016x}.2", f64::INFINITY.to_bits());
    for path in [
        "/api/v1/history?cursor=-1.-1".to_string(),
        "/api/v1/games?filter=mine&cursor=-1.-1".into(),
        "/api/v1/games?cursor=%2B1.2".into(),
        "/api/v1/leaderboards/keltis?cursor=1.2.3".into(),
        format!("/api/v1/leaderboards/keltis?cursor={nan}"),
        format!("/api/v1/leaderboards/keltis?cursor={inf}"),
    ] {
        let a = s.get(&path, Some(&user.token));
        assert_eq!(a.status, 400, "{path}: {}", a.text);
        assert_eq!(a.code(), "invalid_query", "{path}");
    }
}

fn login(s: &TestServer, forwarded_for: &str) -> u16 {
    let req = s
        .client
        .post(s.url("/api/v1/auth/login"))
        .header("x-forwarded-for", forwarded_for)
        .json(&json!({"name": "nobody", "password": "wrong password"}));
    s.send(req).status
}

/// Behind a trusted proxy each client has its own login limit, counted by the right-most
/// address the proxy did not add; a client's own `X-Forwarded-For` changes nothing when it
/// connects directly.
fn the_login_limit_counts_clients_behind_a_trusted_proxy(db: Db) {
    let behind_proxy = support::spawn(db, |c| {
        c.auth_rate_limit = 3;
        c.trusted_proxies = vec!["127.0.0.0/8".parse().unwrap()];
    })
    .expect("a database for this test");
    for _ in 0..3 {
        assert_eq!(login(&behind_proxy, "198.51.100.1"), 401);
    }
    assert_eq!(login(&behind_proxy, "198.51.100.1"), 429, "the fourth try");
    // Another client behind the same proxy is not locked out; nor by what the first client
    // writes to the left of its own address.
    assert_eq!(login(&behind_proxy, "198.51.100.2"), 401);
    assert_eq!(login(&behind_proxy, "198.51.100.9, 198.51.100.1"), 429);

    let direct = support::spawn(db, |c| c.auth_rate_limit = 3).expect("a database");
    for i in 0..3 {
        assert_eq!(login(&direct, &format!("203.0.113.{i}")), 401);
    }
    assert_eq!(
        login(&direct, "203.0.113.200"),
        429,
        "a client's own header is not believed"
    );
}

/// Answers from outside the handlers carry the problem body: the Swagger UI's files, a path
/// that climbs out of `/docs/`.
fn answers_outside_the_handlers_are_problems(db: Db) {
    let s = server(db);
    for path in ["/docs/../x", "/docs/no-such-file.js", "/docs/%2e%2e/x"] {
        // Sent as written: reqwest would resolve the dots itself.
        let (status, head, body) = raw_request(&s, &format!("GET {path} HTTP/1.1"));
        assert_eq!(status, 404, "{path}: {head}");
        assert!(
            head.contains("content-type: application/json"),
            "{path}: {head}"
        );
        let problem: Value = serde_json::from_str(&body).expect("a problem body");
        assert_eq!(problem["code"], "not_found", "{path}");
    }
}

/// Requests the HTTP layer refuses before any route runs (bytes that are not ASCII in the
/// request line, a URL past 64 KiB, a head past 128 KiB or with too many headers, no HTTP at all)
/// are answered with the problem body of their status (they had an empty body).
fn requests_refused_by_the_http_layer_get_problems(db: Db) {
    let s = server(db);
    let addr = s.base.trim_start_matches("http://").to_string();
    let host = format!("Host: {addr}\r\nConnection: close\r\n");
    let many_headers: String = (0..120).map(|i| format!("X-H{i}: a\r\n")).collect();
    let cases: Vec<(Vec<u8>, u16, &str)> = vec![
        (
            [
                &b"GET /api/v1/players/\xff HTTP/1.1\r\n"[..],
                host.as_bytes(),
                b"\r\n",
            ]
            .concat(),
            400,
            "bad_request",
        ),
        (
            format!(
                "GET /api/v1/games/{} HTTP/1.1\r\n{host}\r\n",
                "a".repeat(100_000)
            )
            .into_bytes(),
            400,
            "bad_request",
        ),
        (
            format!(
                "GET /healthz HTTP/1.1\r\n{host}X-Big: {}\r\n\r\n",
                "a".repeat(140_000)
            )
            .into_bytes(),
            431,
            "headers_too_large",
        ),
        (
            format!("GET /healthz HTTP/1.1\r\n{host}{many_headers}\r\n").into_bytes(),
            431,
            "headers_too_large",
        ),
        (b"NOT HTTP AT ALL\r\n\r\n".to_vec(), 400, "bad_request"),
    ];
    for (request, status, code) in cases {
        let (got, head, body) = raw_bytes(&s, &request);
        let what = String::from_utf8_lossy(&request[..request.len().min(60)]).to_string();
        assert_eq!(got, status, "{what}: {head}");
        assert!(
            head.contains("content-type: application/json"),
            "{what}: {head}"
        );
        let problem: Value = serde_json::from_str(&body).expect("a problem body");
        assert_eq!(problem["code"], code, "{what}");
        assert!(problem["message"].is_string());
    }
    // The connection-level answers change nothing for the next client.
    assert_eq!(s.get("/healthz", None).status, 200);
}

/// One request written by hand on a fresh connection: status, head (lower case), body.
fn raw_request(s: &TestServer, request_line: &str) -> (u16, String, String) {
    let addr = s.base.trim_start_matches("http://").to_string();
    raw_bytes(
        s,
        format!("{request_line}\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

/// `request`'s bytes sent as they are on a fresh connection: status, head (lower case), body.
fn raw_bytes(s: &TestServer, request: &[u8]) -> (u16, String, String) {
    let addr = s.base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    // The server may answer and close before it has read all of a request it refuses.
    let _ = stream.write_all(request);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head.to_lowercase(), body.to_string())
}

/// A time control refuses fields it does not have, whatever its type (`none` took any); a body
/// that is not an object is refused (`[]` made a stream ticket).
fn bodies_of_the_wrong_shape_are_refused(db: Db) {
    let s = server(db);
    let user = s.register("shaper");
    for time_control in [
        json!({"type": "none", "seconds": 5}),
        json!({"type": "per_turn", "seconds": 3600, "bank": 1}),
    ] {
        let a = s.post(
            "/api/v1/games",
            Some(&user.token),
            json!({"variant": "keltis", "players": 2, "time_control": time_control}),
        );
        assert_eq!(a.status, 422, "{time_control}: {}", a.text);
        assert_eq!(a.code(), "invalid_body");
    }
    let a = s.post(
        "/api/v1/games",
        Some(&user.token),
        json!({"variant": "keltis", "players": 2, "time_control": {"type": "none"}}),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    for body in [json!([]), json!([7]), json!("x"), json!(3)] {
        let a = s.post("/api/v1/stream-tickets", Some(&user.token), body.clone());
        assert_eq!(a.status, 422, "{body}: {}", a.text);
        assert_eq!(a.code(), "invalid_body");
    }
    let a = s.post("/api/v1/stream-tickets", Some(&user.token), json!({}));
    assert_eq!(a.status, 201, "{}", a.text);
    // A decision without fields takes none either.
    let other = s.register("shaper2");
    let id = s.started_game("keltis-card", &[user.clone(), other.clone()]);
    let view = s.game(id, &user);
    let to_act = if view["state"]["to_act"] == 0 {
        &user
    } else {
        &other
    };
    let version = view["version"].as_i64().unwrap();
    for decision in [
        json!({"type": "draw_deck", "color": "pink"}),
        json!({"type": "pass", "card": {"color": "blue", "value": 3}}),
    ] {
        let a = s.decide(id, to_act, version, &decision);
        assert_eq!(a.status, 422, "{decision}: {}", a.text);
        assert_eq!(a.code(), "invalid_body", "{decision}");
    }
}

fn jwt(claims: Value) -> String {
    jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(support::SECRET.as_bytes()),
    )
    .unwrap()
}

/// Signed with the server's secret, an access token of no user, or of no session, or issued in
/// the future, answers 401 (a token of no user answered 200 on `/me`).
fn tokens_of_no_user_or_from_the_future_are_refused(db: Db) {
    let s = server(db);
    let user = s.register("real");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let session = s.get("/api/v1/me/sessions", Some(&user.token)).json()[0]["id"]
        .as_i64()
        .unwrap();
    let refused = [
        // No such user, no session.
        json!({"sub": "987654", "name": "ghost", "iat": now, "exp": now + 600}),
        // No such user, with a session that is not theirs.
        json!({"sub": "987654", "name": "ghost", "iat": now, "exp": now + 600, "sid": session}),
        // The real user without a session.
        json!({"sub": user.id.to_string(), "name": "real", "iat": now, "exp": now + 600}),
        // The real user and session, issued an hour from now.
        json!({"sub": user.id.to_string(), "name": "real", "iat": now + 3600, "exp": now + 4000, "sid": session}),
    ];
    for claims in refused {
        let a = s.get("/api/v1/me", Some(&jwt(claims.clone())));
        assert_eq!(a.status, 401, "{claims}: {}", a.text);
        assert_eq!(a.code(), "unauthorized");
    }
    // A few seconds of skew between the instances' clocks are allowed.
    let fine = json!({"sub": user.id.to_string(), "name": "real", "iat": now + 20, "exp": now + 600, "sid": session});
    let a = s.get("/api/v1/me", Some(&jwt(fine)));
    assert_eq!(a.status, 200, "{}", a.text);
}

/// A body where none is expected is not read: the answer comes before the body is sent, and the
/// connection is closed after it rather than read to its end.
fn an_unexpected_body_is_not_read(db: Db) {
    let s = server(db);
    let user = s.register("traveller");
    let addr = s.base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "DELETE /api/v1/me/vacation HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{{",
        user.token
    )
    .unwrap();
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .expect("the answer, then the end");
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 409"), "answered at once: {text}");
    assert!(text.to_lowercase().contains("connection: close"), "{text}");
}

on_both_databases!(
    metrics_labels_stay_bounded,
    control_characters_in_paths_and_queries,
    webhook_urls_hiding_private_addresses_are_refused,
    cursors_outside_their_patterns_are_refused,
    the_login_limit_counts_clients_behind_a_trusted_proxy,
    answers_outside_the_handlers_are_problems,
    requests_refused_by_the_http_layer_get_problems,
    bodies_of_the_wrong_shape_are_refused,
    tokens_of_no_user_or_from_the_future_are_refused,
    an_unexpected_body_is_not_read,
);
