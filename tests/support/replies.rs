//! Moves by email in tests: a server that offers moves and receives replies (its SMTP listener
//! and its signed inbound webhook), replies written in the shapes of common mail programs
//! (`tests/mail/replies/*.eml`), sent with Python's smtplib or posted signed, and the choices read
//! back from the emails.

use std::process::Command;

use serde_json::Value;

use super::mail::{put, server_tuned};
use super::smtp::{free_port, SmtpSink};
use super::{Db, TestServer, User};

/// The server's reply address, and the inbound webhook's secret.
pub const REPLY_ADDRESS: &str = "play@keltis.test";
pub const WEBHOOK_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/// The mail programs whose replies the tests imitate.
pub const SHAPES: [&str; 5] = [
    "gmail_en",
    "apple_fr",
    "outlook_de",
    "thunderbird_en",
    "webde_de",
];

/// A server that sends email to `sink` and receives replies on its own SMTP port (returned) and
/// by webhook; `tune` changes more.
pub fn server(
    db: Db,
    sink: &SmtpSink,
    tune: impl FnOnce(&mut keltis::config::Config),
) -> (TestServer, u16) {
    let port = free_port();
    let s = server_tuned(db, sink, move |c| {
        c.reply_address = Some(REPLY_ADDRESS.into());
        c.inbound_smtp = Some(format!("127.0.0.1:{port}"));
        c.inbound_webhook_secret = Some(WEBHOOK_SECRET.into());
        tune(c);
    });
    (s, port)
}

/// Turn moves by email on for `user` (their address confirmed already).
pub fn turn_on(s: &TestServer, user: &User) {
    let current = s.get("/api/v1/me/email", Some(&user.token)).json()["preferences"].clone();
    let mut preferences = current;
    preferences["moves_by_reply"] = Value::Bool(true);
    let a = put(s, "/api/v1/me/email/preferences", user, preferences);
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["preferences"]["moves_by_reply"], true);
    assert_eq!(
        a.json()["moves_by_reply_offered"],
        true,
        "a reply address is set"
    );
}

/// A reply as `shape`'s mail program writes it, from `from` to `to`, saying `answer`.
pub fn compose(
    shape: &str,
    from: &str,
    to: &str,
    game: i64,
    answer: &str,
    message_id: &str,
) -> String {
    let path = format!(
        "{}/tests/mail/replies/{shape}.eml",
        env!("CARGO_MANIFEST_DIR")
    );
    let template = std::fs::read_to_string(&path).expect("a reply fixture");
    template
        .replace("{{FROM}}", from)
        .replace("{{NAME}}", from.split('@').next().unwrap_or("player"))
        .replace("{{TO}}", to)
        .replace("{{GAME}}", &game.to_string())
        .replace("{{MESSAGE_ID}}", message_id)
        .replace("{{ANSWER}}", answer)
}

/// Hand a message to the server's SMTP listener with smtplib: the code of its last answer.
pub fn send_smtp(port: u16, envelope_from: &str, rcpt: &str, raw: &str) -> u16 {
    // One name per message: tests on both databases send at once from one process (a free
    // port's number, used before, can be handed out twice).
    static SENT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let file = std::env::temp_dir().join(format!(
        "keltis_reply_{}_{}.eml",
        std::process::id(),
        SENT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::write(&file, raw).expect("a temporary file");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mail/send_reply.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(port.to_string())
        .arg(envelope_from)
        .arg(rcpt)
        .arg(&file)
        .output()
        .expect("python3 runs tests/mail/send_reply.py");
    let _ = std::fs::remove_file(&file);
    let text = String::from_utf8_lossy(&out.stdout);
    text.trim().parse().unwrap_or_else(|_| {
        panic!(
            "send_reply.py said {text:?}, {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Post a message to the inbound webhook, signed at the server's time (or with `secret`).
pub fn post_webhook(s: &TestServer, raw: &str, secret: &str, id: &str) -> super::Answer {
    let at = s.clock.now() / 1000;
    let signature =
        keltis::service::notify::webhooks::sign(secret, id, at, raw).expect("a signature");
    s.send(
        s.client
            .post(s.url("/api/v1/inbound/mail"))
            .header("Content-Type", "message/rfc822")
            .header("webhook-id", id)
            .header("webhook-timestamp", at.to_string())
            .header("webhook-signature", signature)
            .body(raw.to_string()),
    )
}

/// An email's reply address, if it offers moves.
pub fn reply_to(message: &Value) -> Option<String> {
    message["headers"]["Reply-To"].as_str().map(|r| {
        r.trim()
            .trim_start_matches('<')
            .trim_end_matches('>')
            .to_string()
    })
}

/// The turn (game version) a reply address stands for.
pub fn version_of(reply_to: &str) -> i64 {
    let local = reply_to.split('@').next().unwrap_or_default();
    let tag = local.split('+').nth(1).unwrap_or_default();
    tag.split('.')
        .nth(2)
        .and_then(|v| v.parse().ok())
        .unwrap_or(-1)
}

/// The numbered choices of an email's text part, in order.
pub fn choices(message: &Value) -> Vec<String> {
    let text = message["text"].as_str().unwrap_or_default();
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some((n, rest)) = line.split_once(". ") {
            if n.parse::<usize>() == Ok(out.len() + 1) {
                out.push(rest.to_string());
            }
        }
    }
    out
}

/// Wait (real time, briefly) for the newest email to `address` offering the moves of `version`.
pub fn offer_for(sink: &SmtpSink, address: &str, version: i64) -> Value {
    for _ in 0..400 {
        let offered = sink
            .to(address)
            .into_iter()
            .rev()
            .find(|m| reply_to(m).is_some_and(|r| version_of(&r) == version));
        if let Some(m) = offered {
            return m;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    panic!("{address} got no email offering the moves of version {version}");
}
