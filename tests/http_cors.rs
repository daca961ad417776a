//! Calls from web apps on other origins: preflights are answered for the headers the API reads,
//! answers say any origin may read them and expose the headers clients need, and a preflight the
//! API cannot allow is refused with a problem body. On SQLite (CORS does not touch the database).

use crate::support;

use serde_json::json;
use support::Db;

const ORIGIN: &str = "https://community-client.example";

#[test]
fn other_origins_may_call_the_api_with_a_bearer_token() {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let anna = s.register("anna");
    let header = |a: &support::Answer, name: &str| {
        a.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase()
    };

    // The preflight of a move: a POST with a token, a JSON body and an Idempotency-Key.
    let a = s.send(
        s.client
            .request(reqwest::Method::OPTIONS, s.url("/api/v1/games/1/decisions"))
            .header("Origin", ORIGIN)
            .header("Access-Control-Request-Method", "POST")
            .header(
                "Access-Control-Request-Headers",
                "authorization, content-type, idempotency-key",
            ),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(header(&a, "access-control-allow-origin"), "*");
    assert!(header(&a, "access-control-allow-methods").contains("post"));
    for h in ["authorization", "content-type", "idempotency-key"] {
        assert!(
            header(&a, "access-control-allow-headers").contains(h),
            "{h}"
        );
    }
    assert!(!a.headers.contains_key("access-control-allow-credentials"));

    // The call itself: readable from that origin, with the headers clients need exposed.
    let a = s.send(
        s.client
            .get(s.url("/api/v1/me"))
            .bearer_auth(&anna.token)
            .header("Origin", ORIGIN),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(header(&a, "access-control-allow-origin"), "*");
    for h in ["retry-after", "idempotent-replayed", "www-authenticate"] {
        assert!(
            header(&a, "access-control-expose-headers").contains(h),
            "{h}"
        );
    }
    // A refusal is readable too (the app must see why).
    let a = s.send(s.client.get(s.url("/api/v1/me")).header("Origin", ORIGIN));
    assert_eq!(a.status, 401);
    assert_eq!(header(&a, "access-control-allow-origin"), "*");

    // A method the API has no use for: refused, as a problem.
    let a = s.send(
        s.client
            .request(reqwest::Method::OPTIONS, s.url("/api/v1/me"))
            .header("Origin", ORIGIN)
            .header("Access-Control-Request-Method", "PATCH"),
    );
    assert_eq!(a.status, 400);
    assert_eq!(a.json()["code"], json!("bad_request"));
}
