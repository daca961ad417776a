//! Passwords over HTTP, with a real SMTP server on loopback: changing one (the current one
//! required, the other sessions signed out, API tokens kept unless asked), and resetting a
//! forgotten one by the emailed link (the same answer for every name, single use, one hour, the
//! per-account limit, nothing usable stored). On SQLite, and on PostgreSQL when
//! `TEST_DATABASE_URL` is set.

use crate::support;

use serde_json::{json, Value};
use support::mail::{confirmed_address, link, register, server, PUBLIC};
use support::smtp::SmtpSink;
use support::{Db, TestServer, User};

fn login(s: &TestServer, name: &str, password: &str) -> support::Answer {
    s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": name, "password": password}),
    )
}

fn with_subject(messages: &[Value], needle: &str) -> Vec<Value> {
    messages
        .iter()
        .filter(|m| {
            m["headers"]["Subject"]
                .as_str()
                .is_some_and(|s| s.contains(needle))
        })
        .cloned()
        .collect()
}

/// Wait until `address` got `n` messages whose subject holds `needle`.
fn wait_subject(sink: &SmtpSink, address: &str, needle: &str, n: usize) -> Vec<Value> {
    for _ in 0..200 {
        let got = with_subject(&sink.to(address), needle);
        if got.len() >= n {
            return got;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("{address} did not get {n} messages about {needle}");
}

fn change(s: &TestServer, token: &str, body: Value) -> support::Answer {
    s.post("/api/v1/me/password", Some(token), body)
}

/// Changing the password needs the current one and a signed-in session; it signs the other
/// sessions out (their access and refresh tokens), keeps this one and the API tokens unless
/// asked, and tells the owner by email.
fn changing_the_password_signs_out_the_other_sessions(db: Db) {
    let sink = SmtpSink::start();
    let s = server(db, &sink, None);
    let anna = register(&s, "anna", "en");
    let address = confirmed_address(&s, &sink, &anna);
    let other = login(&s, "anna", "correct horse").json();
    let other_token = other["access_token"].as_str().unwrap().to_string();
    let api = s.post(
        "/api/v1/me/tokens",
        Some(&anna.token),
        json!({"name": "bot", "scopes": ["read", "play"]}),
    );
    let api_token = api.json()["token"].as_str().unwrap().to_string();

    // The refusals change nothing.
    let a = change(
        &s,
        &anna.token,
        json!({"current_password": "wrong horse", "new_password": "a new password"}),
    );
    assert_eq!((a.status, a.code().as_str()), (403, "wrong_password"));
    let a = change(
        &s,
        &anna.token,
        json!({"current_password": "correct horse", "new_password": "short"}),
    );
    assert_eq!((a.status, a.code().as_str()), (422, "invalid_password"));
    let a = change(
        &s,
        &api_token,
        json!({"current_password": "correct horse", "new_password": "a new password"}),
    );
    assert_eq!((a.status, a.code().as_str()), (403, "insufficient_scope"));
    let a = change(&s, &anna.token, json!({"new_password": "a new password"}));
    assert_eq!((a.status, a.code().as_str()), (422, "invalid_body"));
    assert_eq!(login(&s, "anna", "correct horse").status, 200);

    let a = change(
        &s,
        &anna.token,
        json!({"current_password": "correct horse", "new_password": "a new password"}),
    );
    assert_eq!(a.status, 204, "{}", a.text);
    // This session goes on; the others are signed out, refresh tokens included; the API token
    // stays.
    assert_eq!(s.get("/api/v1/me", Some(&anna.token)).status, 200);
    assert_eq!(s.get("/api/v1/me", Some(&other_token)).status, 401);
    let refresh = s.post(
        "/api/v1/auth/refresh",
        None,
        json!({"refresh_token": other["refresh_token"]}),
    );
    assert_eq!(refresh.status, 401, "{}", refresh.text);
    assert_eq!(s.get("/api/v1/me", Some(&api_token)).status, 200);
    assert_eq!(login(&s, "anna", "correct horse").status, 401);
    assert_eq!(login(&s, "anna", "a new password").status, 200);
    let told = wait_subject(&sink, &address, "Your password was changed", 1);
    assert!(told[0]["text"]
        .as_str()
        .unwrap()
        .contains(&format!("{PUBLIC}/reset-password")));

    // Asked to, the API tokens go too. (A second later: the notice of a change is told once per
    // moment, and the test's clock stands still.)
    s.clock.advance(1000);
    let a = change(
        &s,
        &anna.token,
        json!({"current_password": "a new password", "new_password": "a third password", "revoke_tokens": true}),
    );
    assert_eq!(a.status, 204, "{}", a.text);
    assert_eq!(s.get("/api/v1/me", Some(&api_token)).status, 401);
    wait_subject(&sink, &address, "Your password was changed", 2);
}

fn ask(s: &TestServer, who: &str) -> support::Answer {
    s.post("/api/v1/auth/password-reset", None, json!({"user": who}))
}

fn confirm(s: &TestServer, token: &str, password: &str) -> support::Answer {
    s.post(
        "/api/v1/auth/password-reset/confirm",
        None,
        json!({"token": token, "new_password": password}),
    )
}

fn token_of(s: &TestServer, message: &Value) -> String {
    let url = link(s, message, &format!("{PUBLIC}/reset-password?token="));
    url.split_once("token=").unwrap().1.to_string()
}

/// A reset is asked for by name or address with the same answer for anyone; the link goes to the
/// confirmed address only, works once within the hour, spends the account's other links, signs
/// every session out and is told by email; the database holds no usable token; at most three
/// links an hour reach one account.
fn a_forgotten_password_is_reset_by_the_emailed_link(db: Db) {
    let sink = SmtpSink::start();
    let s = server(db, &sink, None);
    let anna = register(&s, "anna", "en");
    let address = confirmed_address(&s, &sink, &anna);
    let _ben: User = register(&s, "ben", "de");

    // Known, unknown, without a confirmed address, by address in another case: one answer.
    let answers: Vec<(u16, String)> = [
        "anna",
        "nobody-here",
        "ben",
        "nobody@example.org",
        &address.to_uppercase(),
    ]
    .iter()
    .map(|who| {
        let a = ask(&s, who);
        (a.status, a.text)
    })
    .collect();
    assert!(answers.iter().all(|a| a == &answers[0]), "{answers:?}");
    assert_eq!(answers[0].0, 202);
    let bad = ask(&s, "");
    assert_eq!((bad.status, bad.code().as_str()), (422, "invalid_user"));

    // Two links to anna's address (by name, by address), none elsewhere.
    let links = wait_subject(&sink, &address, "Choose a new password", 2);
    assert_eq!(links.len(), 2);
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(sink.messages().len(), 3, "the confirmation and two links");
    let first = token_of(&s, &links[0]);
    let second = token_of(&s, &links[1]);
    assert_ne!(first, second);
    // The database keeps neither link.
    for token in [&first, &second] {
        let mac = token.split_once('-').unwrap().1;
        assert_eq!(
            s.count(&format!(
                "SELECT COUNT(*) AS n FROM password_resets WHERE token_hash LIKE '%{mac}%'"
            )),
            0
        );
        assert_eq!(
            s.count(&format!(
                "SELECT COUNT(*) AS n FROM notifications WHERE payload LIKE '%{mac}%'"
            )),
            0
        );
    }
    // The link opens the web client.
    let page = s.get(&format!("/reset-password?token={first}"), None);
    assert_eq!(page.status, 200);
    assert!(page.text.contains("<main"), "{}", page.text);

    // A tampered link, a bad password: refused, the link not spent.
    let mut tampered = first.clone();
    let last = tampered.pop().unwrap();
    tampered.push(if last == '0' { '1' } else { '0' });
    let a = confirm(&s, &tampered, "a new password");
    assert_eq!((a.status, a.code().as_str()), (422, "invalid_link"));
    let a = confirm(&s, "12345", "a new password");
    assert_eq!((a.status, a.code().as_str()), (422, "invalid_link"));
    let a = confirm(&s, &first, "short");
    assert_eq!((a.status, a.code().as_str()), (422, "invalid_password"));

    let a = confirm(&s, &first, "a new password");
    assert_eq!(a.status, 204, "{}", a.text);
    // Once only; the other link is spent with it.
    let a = confirm(&s, &first, "another password");
    assert_eq!((a.status, a.code().as_str()), (422, "invalid_link"));
    let a = confirm(&s, &second, "another password");
    assert_eq!((a.status, a.code().as_str()), (422, "invalid_link"));
    // Every session is signed out; the new password works, the old one not.
    assert_eq!(s.get("/api/v1/me", Some(&anna.token)).status, 401);
    assert_eq!(login(&s, "anna", "correct horse").status, 401);
    assert_eq!(login(&s, "anna", "a new password").status, 200);
    wait_subject(&sink, &address, "Your password was changed", 1);

    // An hour later a link no longer works.
    assert_eq!(ask(&s, "anna").status, 202);
    let links = wait_subject(&sink, &address, "Choose a new password", 3);
    let late = token_of(&s, &links[2]);
    s.clock.advance(3_600_001);
    let a = confirm(&s, &late, "a late password");
    assert_eq!((a.status, a.code().as_str()), (422, "invalid_link"));

    // Three links an hour at most, asked for as often as anyone likes.
    for _ in 0..5 {
        assert_eq!(ask(&s, "anna").status, 202);
    }
    wait_subject(&sink, &address, "Choose a new password", 6);
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        with_subject(&sink.to(&address), "Choose a new password").len(),
        6,
        "three before the hour passed, three after"
    );
}

mail_tests_on_both_databases!(
    changing_the_password_signs_out_the_other_sessions,
    a_forgotten_password_is_reset_by_the_emailed_link,
);
