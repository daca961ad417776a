//! Moves by email: what is refused. A forged sender, another seat's player, a token altered to
//! another seat or game, an older turn, the same message twice, a failed authentication result,
//! garbage, an oversized message, a badly signed webhook: nothing is played, and only the seat's
//! own player ever gets an answer (none to a forger: no backscatter). On SQLite, and on
//! PostgreSQL when `TEST_DATABASE_URL` is set.

use crate::support;

use serde_json::{json, Value};
use support::mail::{confirmed_address, register};
use support::replies::{
    choices, compose, offer_for, post_webhook, reply_to, send_smtp, server, turn_on, WEBHOOK_SECRET,
};
use support::smtp::SmtpSink;
use support::{Db, TestServer, User};

struct Table {
    s: TestServer,
    sink: SmtpSink,
    port: u16,
    id: i64,
    players: Vec<User>,
    addresses: Vec<String>,
}

fn table(db: Db, tune: impl FnOnce(&mut keltis::config::Config)) -> Table {
    let sink = SmtpSink::start();
    let (s, port) = server(db, &sink, tune);
    let players: Vec<User> = ["olga", "paul"]
        .iter()
        .map(|n| register(&s, n, "en"))
        .collect();
    let addresses: Vec<String> = players
        .iter()
        .map(|u| {
            let a = confirmed_address(&s, &sink, u);
            turn_on(&s, u);
            a
        })
        .collect();
    let id = s.started_with(json!({"variant": "keltis-card", "players": 2}), &players);
    Table {
        s,
        sink,
        port,
        id,
        players,
        addresses,
    }
}

impl Table {
    /// The seat to act, the version and the email offering its moves.
    fn turn(&self) -> (usize, i64, Value) {
        let view = self.s.game(self.id, &self.players[0]);
        let seat = view["state"]["to_act"].as_u64().unwrap() as usize;
        let version = self.s.game(self.id, &self.players[seat])["version"]
            .as_i64()
            .unwrap();
        (
            seat,
            version,
            offer_for(&self.sink, &self.addresses[seat], version),
        )
    }

    fn version(&self) -> i64 {
        self.s.game(self.id, &self.players[0])["version"]
            .as_i64()
            .unwrap()
    }

    /// Post through the webhook: the outcome and its reason.
    fn hook(&self, raw: &str, n: usize) -> (String, String) {
        let a = post_webhook(&self.s, raw, WEBHOOK_SECRET, &format!("msg_{n}"));
        assert_eq!(a.status, 200, "{}", a.text);
        let body = a.json();
        (
            body["outcome"].as_str().unwrap().to_string(),
            body["reason"].as_str().unwrap().to_string(),
        )
    }
}

fn message_id(n: usize) -> String {
    format!("refused-{n}-{}@mail.example.org", std::process::id())
}

fn refused_replies_play_nothing_and_answer_no_one_else(db: Db) {
    let t = table(db, |_| {});
    let (seat, v0, offer) = t.turn();
    let other = 1 - seat;
    let to = reply_to(&offer).unwrap();
    let me = &t.addresses[seat];
    let reply = |from: &str, to: &str, answer: &str, n: usize| {
        compose("gmail_en", from, to, t.id, answer, &message_id(n))
    };

    // A badly signed or stale webhook delivery: 401, nothing read.
    let raw = reply(me, &to, "1", 1);
    let a = post_webhook(
        &t.s,
        &raw,
        "whsec_c2VjcmV0IG9mIHNvbWVvbmUgZWxzZQ==",
        "msg_1",
    );
    assert_eq!(
        (a.status, a.code()),
        (401, "unauthorized".to_string()),
        "{}",
        a.text
    );
    let stale = keltis::service::notify::webhooks::sign(
        WEBHOOK_SECRET,
        "msg_1",
        t.s.clock.now() / 1000 - 3600,
        &raw,
    )
    .unwrap();
    let a = t.s.send(
        t.s.client
            .post(t.s.url("/api/v1/inbound/mail"))
            .header("webhook-id", "msg_1")
            .header(
                "webhook-timestamp",
                (t.s.clock.now() / 1000 - 3600).to_string(),
            )
            .header("webhook-signature", stale)
            .body(raw.clone()),
    );
    assert_eq!(a.status, 401, "{}", a.text);

    // A forged sender, and the other player answering for this seat.
    let forged = reply("mallory@example.org", &to, "1", 2);
    assert_eq!(
        t.hook(&forged, 2),
        ("dropped".into(), "wrong_sender".into())
    );
    let forged = reply("mallory@example.org", &to, "1", 3);
    assert_eq!(send_smtp(t.port, "mallory@example.org", &to, &forged), 250);
    let impostor = reply(&t.addresses[other], &to, "1", 4);
    assert_eq!(
        t.hook(&impostor, 4),
        ("dropped".into(), "wrong_sender".into())
    );
    // The token altered to the other seat, or to another game.
    let (local, domain) = to.split_once('@').unwrap();
    let parts: Vec<&str> = local.split('.').collect();
    let other_seat = format!("{}.{other}.{}.{}@{domain}", parts[0], parts[2], parts[3]);
    assert_eq!(
        t.hook(&reply(me, &other_seat, "1", 5), 5),
        ("dropped".into(), "no_token".into())
    );
    let (base, game) = parts[0].split_once('+').unwrap();
    let other_game = format!(
        "{base}+{}.{}.{}.{}@{domain}",
        game.parse::<i64>().unwrap() + 1,
        parts[1],
        parts[2],
        parts[3]
    );
    assert_eq!(
        t.hook(&reply(me, &other_game, "1", 6), 6),
        ("dropped".into(), "no_token".into())
    );
    // Mail to no turn at all: refused at RCPT by SMTP, dropped by the webhook.
    assert_eq!(
        send_smtp(
            t.port,
            me,
            "play@keltis.test",
            &reply(me, "play@keltis.test", "1", 7)
        ),
        550
    );
    assert_eq!(
        send_smtp(
            t.port,
            me,
            "postmaster@keltis.test",
            &reply(me, "postmaster@keltis.test", "1", 7)
        ),
        550
    );
    assert_eq!(t.hook("\u{1}\u{2} not a message at all", 8).0, "dropped");
    // Over 256 KiB.
    let big = reply(me, &to, &format!("1\n{}", "x".repeat(300 * 1024)), 9);
    assert_eq!(send_smtp(t.port, me, &to, &big), 552);
    let a = post_webhook(&t.s, &big, WEBHOOK_SECRET, "msg_9");
    assert_eq!((a.status, a.code()), (413, "body_too_large".to_string()));
    assert_eq!(t.version(), v0, "nothing was played");

    // Words that are no move, and words that are not a choice: answered, nothing played.
    assert_eq!(
        t.hook(&reply(me, &to, "Lorem ipsum dolor", 10), 10),
        ("answered".into(), "answered".into())
    );
    assert_eq!(
        t.hook(&reply(me, &to, "", 11), 11),
        ("answered".into(), "answered".into())
    );
    assert_eq!(
        t.hook(&reply(me, &to, "99", 12), 12),
        ("answered".into(), "answered".into())
    );
    assert_eq!(t.version(), v0);

    // A good reply by SMTP, then the same message again (by webhook): played once.
    let good = reply(me, &to, "1", 13);
    assert_eq!(send_smtp(t.port, me, &to, &good), 250);
    let v1 = t.version();
    assert!(v1 > v0);
    assert_eq!(t.hook(&good, 13), ("dropped".into(), "duplicate".into()));
    assert_eq!(send_smtp(t.port, me, &to, &good), 250);
    assert_eq!(t.version(), v1, "a message delivered again is played once");
    // A reply to the older turn: answered with the game as it stands, nothing played.
    assert_eq!(
        t.hook(&reply(me, &to, "1", 14), 14),
        ("answered".into(), "answered".into())
    );
    assert_eq!(t.version(), v1);

    // The answers: one per answered or played message, to the seat's address only, in order.
    let answers_of = |sink: &SmtpSink| -> Vec<Value> {
        sink.to(me)
            .into_iter()
            .filter(|m| {
                m["headers"]["Subject"]
                    .as_str()
                    .is_some_and(|s| s.contains(": your"))
            })
            .collect()
    };
    let mut answers = answers_of(&t.sink);
    for _ in 0..200 {
        if answers.len() >= 5 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
        answers = answers_of(&t.sink);
    }
    let subjects: Vec<&str> = answers
        .iter()
        .map(|m| m["headers"]["Subject"].as_str().unwrap())
        .collect();
    assert_eq!(subjects.len(), 5, "{subjects:?}");
    for (i, expected) in [
        "was not played",
        "was not played",
        "was not played",
        "is played",
        "was not played",
    ]
    .iter()
    .enumerate()
    {
        assert!(subjects[i].contains(expected), "{subjects:?}");
    }
    let texts: Vec<&str> = answers
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    // Words of one's own that name no move are unreadable; a reply with none had no move.
    assert!(
        texts[0].contains("\"Lorem ipsum dolor\" could not be read"),
        "{}",
        texts[0]
    );
    assert!(texts[1].contains("There was no move"), "{}", texts[1]);
    assert!(
        texts[2].contains("\"99\" is not one of your choices"),
        "{}",
        texts[2]
    );
    assert!(texts[4].contains("earlier turn"), "{}", texts[4]);
    // Every answer offers the choices again (the turn goes on after the first move), threaded
    // under the message it answers.
    for answer in &answers {
        assert!(!choices(answer).is_empty(), "{}", answer["text"]);
        assert!(answer["headers"]["In-Reply-To"]
            .as_str()
            .is_some_and(|h| h.contains("refused-")));
    }
    // No backscatter: the forger and the other player got nothing.
    assert!(t.sink.to("mallory@example.org").is_empty());
    assert!(t
        .sink
        .to(&t.addresses[other])
        .iter()
        .all(|m| !m["headers"]["Subject"]
            .as_str()
            .unwrap_or("")
            .contains(": your")));
}

/// With `--inbound-authserv-id`, a reply counts only when the topmost `Authentication-Results`
/// of that server shows DKIM or SPF pass.
fn authentication_results_of_the_trusted_server_decide(db: Db) {
    let t = table(db, |c| {
        c.inbound_authserv_id = Some("mx.keltis.test".into())
    });
    let (seat, v0, offer) = t.turn();
    let to = reply_to(&offer).unwrap();
    let me = &t.addresses[seat];
    let with = |headers: &str, n: usize| {
        format!(
            "{headers}{}",
            compose("thunderbird_en", me, &to, t.id, "1", &message_id(100 + n))
        )
    };
    for (n, headers) in [
        "",
        "Authentication-Results: mx.keltis.test; dkim=fail header.d=example.org; spf=softfail\n",
        "Authentication-Results: mx.other.test; dkim=pass header.d=example.org\n",
        "Authentication-Results: mx.keltis.test; dkim=fail\nAuthentication-Results: mx.keltis.test; dkim=pass\n",
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(
            t.hook(&with(headers, n), n),
            ("dropped".into(), "not_authenticated".into()),
            "{headers}"
        );
    }
    assert_eq!(t.version(), v0);
    let passed = with(
        "Authentication-Results: mx.keltis.test;\n  spf=pass smtp.mailfrom=example.org\n",
        9,
    );
    assert_eq!(send_smtp(t.port, me, &to, &passed), 250);
    assert!(t.version() > v0);
}

/// A player's replies beyond 120 an hour are dropped (no answer either); an hour later they are
/// read again.
fn a_flood_of_replies_is_dropped(db: Db) {
    let t = table(db, |_| {});
    let (seat, v0, offer) = t.turn();
    let to = reply_to(&offer).unwrap();
    let me = &t.addresses[seat];
    for n in 0..120 {
        let raw = compose(
            "gmail_en",
            me,
            &to,
            t.id,
            "lorem ipsum",
            &message_id(1000 + n),
        );
        assert_eq!(t.hook(&raw, 1000 + n).0, "answered", "reply {n}");
    }
    let raw = compose("gmail_en", me, &to, t.id, "1", &message_id(2000));
    assert_eq!(
        t.hook(&raw, 2000),
        ("dropped".into(), "rate_limited".into())
    );
    assert_eq!(t.version(), v0);
    t.s.clock.advance(3600 * 1000 + 1);
    let raw = compose("gmail_en", me, &to, t.id, "1", &message_id(2001));
    assert_eq!(t.hook(&raw, 2001).0, "played");
}

mail_tests_on_both_databases!(
    refused_replies_play_nothing_and_answer_no_one_else,
    authentication_results_of_the_trusted_server_decide,
    a_flood_of_replies_is_dropped,
);

/// Two instances on one PostgreSQL, each with its SMTP listener and webhook: the same reply
/// handed to both at once (as a mail server retrying, or two MX hosts, would) plays once; the
/// other copy is a duplicate (or, when it lost the race inside the move, a "try again" that then
/// finds the message recorded).
#[test]
#[cfg_attr(
    not(all(mail_tests, postgres_tests)),
    ignore = "mail on PostgreSQL: set KELTIS_MAIL_TESTS=1 and TEST_DATABASE_URL"
)]
fn two_instances_play_one_message_once() {
    let t = table(Db::Postgres, |_| {});
    let second_port = support::smtp::free_port();
    let url = t.s.database_url.clone();
    let b = support::spawn_at(Db::Postgres, t.s.clock.now(), move |c| {
        c.database_url = Some(url);
        c.reply_address = Some(support::replies::REPLY_ADDRESS.into());
        c.inbound_smtp = Some(format!("127.0.0.1:{second_port}"));
        c.inbound_webhook_secret = Some(WEBHOOK_SECRET.into());
    })
    .expect("a second instance");
    for round in 0..6 {
        let (seat, v0, offer) = t.turn();
        let to = reply_to(&offer).unwrap();
        let me = t.addresses[seat].clone();
        let raw = compose("webde_de", &me, &to, t.id, "1", &message_id(200 + round));
        let by_smtp = round % 2 == 0;
        let copies: Vec<_> = [(t.port, t.s.base.clone()), (second_port, b.base.clone())]
            .into_iter()
            .map(|(port, base)| {
                let (raw, me, to) = (raw.clone(), me.clone(), to.clone());
                let at = t.s.clock.now() / 1000;
                std::thread::spawn(move || {
                    if by_smtp {
                        return send_smtp(port, &me, &to, &raw).to_string();
                    }
                    let signature = keltis::service::notify::webhooks::sign(
                        WEBHOOK_SECRET,
                        "msg_twice",
                        at,
                        &raw,
                    )
                    .unwrap();
                    let answer = reqwest::blocking::Client::new()
                        .post(format!("{base}/api/v1/inbound/mail"))
                        .header("webhook-id", "msg_twice")
                        .header("webhook-timestamp", at.to_string())
                        .header("webhook-signature", signature)
                        .body(raw)
                        .send()
                        .expect("an answer");
                    let status = answer.status().as_u16();
                    format!("{status} {}", answer.text().unwrap_or_default())
                })
            })
            .collect();
        let answers: Vec<String> = copies.into_iter().map(|c| c.join().unwrap()).collect();
        let after = t.version();
        assert!(after > v0, "{answers:?}");
        // Played once: the copies' answers hold one "played" (or one 250 that played), and the
        // decisions since v0 are one reply's.
        let events = t.s.events(t.id, &t.players[0]);
        let decided = events
            .iter()
            .filter(|e| e["kind"] == "decided" && e["seq"].as_i64().unwrap_or(0) > v0)
            .count();
        assert_eq!(decided, 1, "{answers:?}");
        if !by_smtp {
            assert_eq!(
                answers.iter().filter(|a| a.contains("\"played\"")).count(),
                1,
                "{answers:?}"
            );
        }
        // A copy that lost the race and is handed over again is a duplicate.
        assert_eq!(
            t.hook(&raw, 300 + round),
            ("dropped".into(), "duplicate".into())
        );
        // Let the answer's email through before the next round's turn is read.
        t.s.clock.advance(1000);
    }
}
