//! A server that sends email to the tests' SMTP sink, and what mail tests share: registering in
//! a browser's language, a confirmed address, the links in a message.

use serde_json::{json, Value};

use super::smtp::SmtpSink;
use super::{Answer, Db, TestServer, User};

pub const PUBLIC: &str = "http://keltis.test";

pub fn server(db: Db, sink: &SmtpSink, url: Option<String>) -> TestServer {
    server_tuned(db, sink, move |c| {
        if let Some(url) = url {
            c.database_url = Some(url);
        }
    })
}

/// A server that sends email to the sink, with other settings changed by `tune`.
pub fn server_tuned(
    db: Db,
    sink: &SmtpSink,
    tune: impl FnOnce(&mut keltis::config::Config),
) -> TestServer {
    let port = sink.port;
    super::spawn(db, move |c| {
        c.smtp_host = Some("127.0.0.1".into());
        c.smtp_port = Some(port);
        c.smtp_tls = keltis::service::notify::mail::delivery::SmtpTls::None;
        c.mail_from = "Keltis <keltis@keltis.test>".into();
        c.public_url = PUBLIC.into();
        c.mail_interval_ms = 50;
        tune(c);
    })
    .expect("a database for this test")
}

/// Register with a browser's language.
pub fn register(s: &TestServer, name: &str, accept_language: &str) -> User {
    let a = s.send(
        s.client
            .post(s.url("/api/v1/auth/register"))
            .header("Accept-Language", accept_language)
            .json(&json!({"name": name, "password": "correct horse"})),
    );
    assert_eq!(a.status, 201, "{}", a.text);
    let body = a.json();
    User {
        name: name.into(),
        token: body["access_token"].as_str().unwrap().into(),
        refresh_token: body["refresh_token"].as_str().unwrap().into(),
        id: body["user_id"].as_i64().unwrap(),
    }
}

pub fn put(s: &TestServer, path: &str, user: &User, body: Value) -> Answer {
    s.send(
        s.client
            .put(s.url(path))
            .bearer_auth(&user.token)
            .json(&body),
    )
}

/// The link in a message that starts with `prefix`, made to point at the test server.
pub fn link(s: &TestServer, message: &Value, prefix: &str) -> String {
    let text = message["text"].as_str().unwrap();
    let start = text
        .find(prefix)
        .unwrap_or_else(|| panic!("no {prefix} in {text}"));
    let url: String = text[start..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    url.replacen(PUBLIC, &s.base, 1)
}

/// Set and confirm a user's address; the confirmation is the only message before that.
pub fn confirmed_address(s: &TestServer, sink: &SmtpSink, user: &User) -> String {
    let address = format!("{}@example.org", user.name);
    let a = put(s, "/api/v1/me/email", user, json!({"email": address}));
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["verified"], false);
    let got = sink.wait_for(&address, 1);
    let verify = link(s, &got[0], &format!("{PUBLIC}/api/v1/email/verify?token="));
    let a = s.send(s.client.get(&verify));
    assert_eq!(a.status, 200, "{}", a.text);
    let settings = s.get("/api/v1/me/email", Some(&user.token)).json();
    assert_eq!(settings["verified"], true);
    address
}
