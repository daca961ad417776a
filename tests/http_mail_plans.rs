//! Issue 69: a plan for the next turn carried by a reply by email ("plan: ..." on a line of its
//! own), kept after the reply's own move as `PUT /games/{id}/plan` keeps one, played when the
//! turn comes; and the answer says whether it was kept, and why not, in the player's language.
//! On SQLite, and on PostgreSQL when `TEST_DATABASE_URL` is set.

use crate::support;

use serde_json::{json, Value};
use support::mail::{confirmed_address, register};
use support::replies::{compose, offer_for, reply_to, send_smtp, server, turn_on};
use support::smtp::SmtpSink;
use support::{Db, TestServer, User};

/// A Keltis Card game between Ines (English) and Jonas (French), both playing by email.
struct Table {
    s: TestServer,
    sink: SmtpSink,
    port: u16,
    id: i64,
    players: [User; 2],
    addresses: [String; 2],
    sent: usize,
    db: Db,
}

impl Table {
    fn new(db: Db) -> Table {
        let sink = SmtpSink::start();
        let (s, port) = server(db, &sink, |_| {});
        let players = [register(&s, "ines", "en"), register(&s, "jonas", "fr")];
        let addresses = [0, 1].map(|i| {
            let address = confirmed_address(&s, &sink, &players[i]);
            turn_on(&s, &players[i]);
            address
        });
        let id = s.started_with(json!({"variant": "keltis-card", "players": 2}), &players);
        Table {
            s,
            sink,
            port,
            id,
            players,
            addresses,
            sent: 0,
            db,
        }
    }

    fn view(&self, seat: usize) -> Value {
        self.s.game(self.id, &self.players[seat])
    }

    fn to_act(&self) -> usize {
        self.view(0)["state"]["to_act"]
            .as_u64()
            .expect("a seat to act") as usize
    }

    fn version(&self) -> i64 {
        self.view(0)["version"].as_i64().expect("a version")
    }

    /// Answer the email that offered `seat` the moves of `version` with `words` (in the shape
    /// of Gmail's or Apple Mail's reply, by the reader's language): the text of the server's
    /// answer to it.
    fn reply(&mut self, seat: usize, version: i64, words: &str) -> String {
        let address = self.addresses[seat].clone();
        let offer = offer_for(&self.sink, &address, version);
        let to = reply_to(&offer).expect("a reply address");
        self.sent += 1;
        let message_id = format!(
            "plan-{}-{:?}-{}@mail.example.org",
            self.sent,
            self.db,
            std::process::id()
        );
        let shape = ["gmail_en", "apple_fr"][seat];
        let raw = compose(shape, &address, &to, self.id, words, &message_id);
        assert_eq!(send_smtp(self.port, &address, &to, &raw), 250);
        // A minute between replies: under the hourly limit.
        self.s.clock.advance(60 * 1000);
        for _ in 0..400 {
            let answer = self.sink.to(&address).into_iter().find(|m| {
                m["headers"]["In-Reply-To"]
                    .as_str()
                    .is_some_and(|r| r.contains(&message_id))
            });
            if let Some(answer) = answer {
                return answer["text"].as_str().unwrap_or_default().to_string();
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        panic!("no answer to {words:?}");
    }

    /// `seat`'s plan in the game, as they read it.
    fn plan(&self, seat: usize) -> Value {
        let a = self.s.get(
            &format!("/api/v1/games/{}/plan", self.id),
            Some(&self.players[seat].token),
        );
        assert_eq!(a.status, 200, "{}", a.text);
        a.json()
    }

    /// `seat` plays one whole turn of Keltis Card through the API (a card, then a draw).
    fn play_a_turn(&self, seat: usize) {
        for step in 0..2 {
            let view = self.view(seat);
            assert_eq!(view["state"]["to_act"], seat, "step {step}");
            let version = view["version"].as_i64().expect("a version");
            let d = support::towards_the_end(&view, step);
            let a = self.s.decide(self.id, &self.players[seat], version, &d);
            assert_eq!(a.status, 200, "{}", a.text);
        }
    }
}

/// A plan by email: refused while the turn goes on, kept after a reply that ends the turn (the
/// answer says so), played when the turn comes round (its outcome in the owner's view, nothing
/// in the other's), refused after a stale reply and when its words name no move; in French for
/// the French player. Rule C7 (a turn: one card played, then one drawn) and the plans' rules in
/// docs/playing.md.
fn a_reply_keeps_a_plan_for_the_next_turn(db: Db) {
    let mut t = Table::new(db);
    let p = t.to_act();
    let q = 1 - p;
    let words = |seat: usize, en: &'static str, fr: &'static str| if seat == 0 { en } else { fr };
    let version = t.version();
    let first_offer = version;
    // The card alone: the turn goes on, so the plan is not kept.
    let answer = t.reply(
        p,
        version,
        &format!("1\nplan: {}", words(p, "1 then deck", "1 puis pioche")),
    );
    let expected = words(
        p,
        "was not kept: your turn goes on, play it first",
        "n'a pas été gardé : votre tour continue, jouez-le d'abord",
    );
    assert!(answer.contains(expected), "{answer}");
    assert!(t.plan(p)["plan"].is_null());
    // The draw, and the plan on a line of its own: kept.
    let version = t.version();
    let plan_words = words(p, "1 then deck", "1 puis pioche");
    let answer = t.reply(
        p,
        version,
        &format!("{}\nplan: {plan_words}", words(p, "deck", "pioche")),
    );
    let expected = words(
        p,
        "Your plan for your next turn is kept",
        "Votre plan pour votre prochain tour est gardé",
    );
    assert!(answer.contains(expected), "{answer}");
    assert!(answer.contains(plan_words), "{answer}");
    let plan = t.plan(p);
    let alternatives = plan["plan"]["alternatives"].as_array().expect("a plan");
    assert_eq!(alternatives.len(), 1);
    assert_eq!(alternatives[0]["text"], plan_words);
    assert_eq!(alternatives[0]["conditions"], json!([]));
    assert!(t.plan(q)["plan"].is_null(), "the other seat has none");
    // The other plays a turn: the plan plays at once, and it is the other's turn again.
    let before = t.version();
    t.play_a_turn(q);
    assert_eq!(t.to_act(), q, "the plan played the whole turn");
    assert_eq!(t.version(), before + 4);
    let plan = t.plan(p);
    assert!(plan["plan"].is_null(), "{plan}");
    assert_eq!(plan["outcomes"][0]["played"], true, "{plan}");
    assert_eq!(plan["outcomes"][0]["steps"], 2, "{plan}");
    // The other seat's emails never speak of it.
    for email in t.sink.to(&t.addresses[q]) {
        let text = email["text"].as_str().unwrap_or_default();
        assert!(
            !text.contains("Your plan") && !text.contains("Votre plan"),
            "{text}"
        );
    }
    // A reply to a turn long gone: nothing played, the plan not kept.
    let answer = t.reply(p, first_offer, &format!("1 then deck\nplan: {plan_words}"));
    let expected = words(
        p,
        "was not kept: the move before it was not played",
        "n'a pas été gardé : le coup qui le précède n'a pas été joué",
    );
    assert!(answer.contains(expected), "{answer}");
    assert!(t.plan(p)["plan"].is_null());
    // Words that name no move: refused, the move itself played.
    t.play_a_turn(q);
    assert_eq!(t.to_act(), p);
    let version = t.version();
    let answer = t.reply(
        p,
        version,
        &format!(
            "{}\nplan: moonwalk twice",
            words(p, "1 then deck", "1 puis pioche")
        ),
    );
    let expected = words(
        p,
        "was not kept: it could not be read",
        "n'a pas été gardé : il ne se lit pas",
    );
    assert!(answer.contains(expected), "{answer}");
    assert_eq!(t.to_act(), q, "the move was played");
    assert!(t.plan(p)["plan"].is_null());
    // The other seat, in its own language, keeps one too.
    t.play_a_turn(q);
    t.play_a_turn(p);
    let q_words = words(q, "1 then deck", "1 puis pioche");
    let version = t.version();
    let answer = t.reply(q, version, &format!("{q_words}\nplan: {q_words}"));
    let expected = words(
        q,
        "Your plan for your next turn is kept",
        "Votre plan pour votre prochain tour est gardé",
    );
    assert!(answer.contains(expected), "{answer}");
    assert!(t.plan(q)["plan"]["alternatives"].is_array());
}

mail_tests_on_both_databases!(a_reply_keeps_a_plan_for_the_next_turn);
