//! Two-factor sign-in (TOTP, RFC 6238) over HTTP, with a real SMTP server on loopback: enrolling
//! (not in force until a first code confirms it), signing in with a code, each code accepted once
//! and only within a step of the server's clock, recovery codes once each, turning it off with a
//! code, the emails that tell the owner, the secret never stored in clear. The codes are computed
//! here from the secret the server showed, as an authenticator app would. On SQLite, and on
//! PostgreSQL when `TEST_DATABASE_URL` is set.

use crate::support;

use serde_json::{json, Value};
use support::mail::{confirmed_address, register, server};
use support::smtp::SmtpSink;
use support::{Db, TestServer};
use totp_rs::{Builder, Secret, Totp};

fn login(s: &TestServer, code: Option<&str>) -> support::Answer {
    let mut body = json!({"name": "anna", "password": "correct horse"});
    if let Some(code) = code {
        body["code"] = json!(code);
    }
    s.post("/api/v1/auth/login", None, body)
}

/// An authenticator app's view of the secret.
fn app(secret: &str) -> Totp {
    Builder::new()
        .with_secret(Secret::try_from_base32(secret).expect("base32"))
        .build()
        .expect("a valid secret")
}

/// The app's code at the server's time, `offset_ms` from it.
fn code(app: &Totp, s: &TestServer, offset_ms: i64) -> String {
    app.generate(((s.clock.now() + offset_ms) / 1000) as u64)
        .to_string()
}

fn subjects(sink: &SmtpSink, address: &str) -> Vec<String> {
    sink.to(address)
        .iter()
        .map(|m| m["headers"]["Subject"].as_str().unwrap_or("").to_string())
        .collect()
}

fn wait_subject(sink: &SmtpSink, address: &str, needle: &str) {
    for _ in 0..200 {
        if subjects(sink, address).iter().any(|s| s.contains(needle)) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("no email about {needle}: {:?}", subjects(sink, address));
}

fn two_factor_signs_in_with_each_code_once(db: Db) {
    let sink = SmtpSink::start();
    let s = server(db, &sink, None);
    let anna = register(&s, "anna", "en");
    let address = confirmed_address(&s, &sink, &anna);
    let status = |token: &str| s.get("/api/v1/me/two-factor", Some(token)).json();
    assert_eq!(
        status(&anna.token),
        json!({"enabled": false, "recovery_codes_left": 0})
    );

    // An API token cannot enrol; a session can. Until confirmed, nothing changes at sign-in.
    let api = s.post(
        "/api/v1/me/tokens",
        Some(&anna.token),
        json!({"name": "bot", "scopes": ["read", "play"]}),
    );
    let api_token = api.json()["token"].as_str().unwrap().to_string();
    let a = s.post("/api/v1/me/two-factor", Some(&api_token), json!({}));
    assert_eq!((a.status, a.code().as_str()), (403, "insufficient_scope"));
    let a = s.post("/api/v1/me/two-factor", Some(&anna.token), json!({}));
    assert_eq!(a.status, 201, "{}", a.text);
    let enrolment: Value = a.json();
    let secret = enrolment["secret"].as_str().unwrap().to_string();
    assert!(enrolment["otpauth_url"]
        .as_str()
        .unwrap()
        .starts_with("otpauth://totp/Keltis:anna?"));
    assert!(enrolment["qr_svg"].as_str().unwrap().contains("<svg"));
    assert_eq!(
        login(&s, None).status,
        200,
        "not in force before it is confirmed"
    );
    // The database keeps the secret encrypted only.
    assert_eq!(
        s.count(&format!(
            "SELECT COUNT(*) AS n FROM two_factor WHERE secret LIKE '%{secret}%'"
        )),
        0
    );

    let app = app(&secret);
    let wrong = if code(&app, &s, 0) == "123456" {
        "654321"
    } else {
        "123456"
    };
    let a = s.post(
        "/api/v1/me/two-factor/confirm",
        Some(&anna.token),
        json!({"code": wrong}),
    );
    assert_eq!((a.status, a.code().as_str()), (422, "invalid_code"));
    let first = code(&app, &s, 0);
    let a = s.post(
        "/api/v1/me/two-factor/confirm",
        Some(&anna.token),
        json!({"code": first}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    let recovery: Vec<String> = a.json()["recovery_codes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    assert_eq!(recovery.len(), 10);
    assert_eq!(
        status(&anna.token),
        json!({"enabled": true, "recovery_codes_left": 10})
    );
    wait_subject(&sink, &address, "Two-factor sign-in is on");
    let a = s.post("/api/v1/me/two-factor", Some(&anna.token), json!({}));
    assert_eq!((a.status, a.code().as_str()), (409, "two_factor_on"));

    // Signing in now asks for the code, once the password is right (a wrong password says
    // nothing about it).
    let a = login(&s, None);
    assert_eq!((a.status, a.code().as_str()), (401, "two_factor_required"));
    let a = s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": "anna", "password": "wrong horse"}),
    );
    assert_eq!((a.status, a.code().as_str()), (401, "unauthorized"));
    // The confirming code's step is spent; the next step's code signs in, once.
    let a = login(&s, Some(&first));
    assert_eq!((a.status, a.code().as_str()), (401, "unauthorized"));
    s.clock.advance(30_000);
    let next = code(&app, &s, 0);
    assert_eq!(login(&s, Some(&next)).status, 200);
    let a = login(&s, Some(&next));
    assert_eq!(
        (a.status, a.code().as_str()),
        (401, "unauthorized"),
        "replayed"
    );
    // Outside one step either side of the server's clock: refused.
    s.clock.advance(30_000);
    let a = login(&s, Some(&code(&app, &s, 90_000)));
    assert_eq!(
        (a.status, a.code().as_str()),
        (401, "unauthorized"),
        "too early"
    );
    s.clock.advance(30_000);
    let a = login(&s, Some(&code(&app, &s, -90_000)));
    assert_eq!(
        (a.status, a.code().as_str()),
        (401, "unauthorized"),
        "too late"
    );
    // A code one step late still works (a slow hand).
    assert_eq!(login(&s, Some(&code(&app, &s, -30_000))).status, 200);

    // A recovery code works once, typed as it was shown or in capitals.
    assert_eq!(login(&s, Some(&recovery[0].to_uppercase())).status, 200);
    let a = login(&s, Some(&recovery[0]));
    assert_eq!((a.status, a.code().as_str()), (401, "unauthorized"));
    assert_eq!(status(&anna.token)["recovery_codes_left"], 9);

    // Off with a recovery code (a wrong one is refused); then the password alone signs in.
    let a = s.post(
        "/api/v1/me/two-factor/disable",
        Some(&anna.token),
        json!({"code": recovery[0]}),
    );
    assert_eq!((a.status, a.code().as_str()), (422, "invalid_code"));
    let a = s.post(
        "/api/v1/me/two-factor/disable",
        Some(&anna.token),
        json!({"code": recovery[1]}),
    );
    assert_eq!(a.status, 204, "{}", a.text);
    assert_eq!(
        status(&anna.token),
        json!({"enabled": false, "recovery_codes_left": 0})
    );
    assert_eq!(login(&s, None).status, 200);
    wait_subject(&sink, &address, "Two-factor sign-in is off");
    let a = s.post(
        "/api/v1/me/two-factor/disable",
        Some(&anna.token),
        json!({"code": next}),
    );
    assert_eq!((a.status, a.code().as_str()), (409, "two_factor_off"));
}

mail_tests_on_both_databases!(two_factor_signs_in_with_each_code_once);
