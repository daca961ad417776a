//! Outside bots (issue 31): an account its owner marks as a bot shows as one everywhere, accepts
//! invitations at once, still signs in, is told of its turns on its stream, and is never played
//! by the server's bot worker; the example bot (`examples/greedy_bot.py`) signs in through OAuth
//! with a loopback redirect and plays a rated game against a person to the end.

use crate::support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use serde_json::{json, Value};
use support::{Db, TestServer, User};

fn mark(s: &TestServer, user: &User, password: &str) -> support::Answer {
    s.post(
        "/api/v1/me/bot",
        Some(&user.token),
        json!({ "password": password }),
    )
}

fn invite(s: &TestServer, id: i64, by: &User, name: &str) -> support::Answer {
    s.post(
        &format!("/api/v1/games/{id}/invites"),
        Some(&by.token),
        json!({ "user": name }),
    )
}

fn an_account_becomes_a_bot_for_good(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let robo = s.register("robo");
    let ada = s.register("ada");

    // A token cannot; a wrong password cannot.
    let token = s.post(
        "/api/v1/me/tokens",
        Some(&robo.token),
        json!({"name": "t", "scopes": ["read", "play"]}),
    );
    let token = token.json()["token"].as_str().unwrap().to_string();
    let a = s.post(
        "/api/v1/me/bot",
        Some(&token),
        json!({"password": "correct horse"}),
    );
    assert_eq!((a.status, a.code()), (403, "insufficient_scope".into()));
    let a = mark(&s, &robo, "wrong horse");
    assert_eq!((a.status, a.code()), (403, "wrong_password".into()));
    assert_eq!(
        s.get("/api/v1/players/robo", Some(&ada.token)).json()["is_bot"],
        false
    );

    assert_eq!(mark(&s, &robo, "correct horse").status, 204);
    // Marking again changes nothing.
    assert_eq!(mark(&s, &robo, "correct horse").status, 204);
    let profile = s.get("/api/v1/players/robo", Some(&ada.token)).json();
    assert_eq!(
        (&profile["is_bot"], &profile["outside_bot"]),
        (&json!(true), &json!(true))
    );
    let bots = s.get("/api/v1/bots", Some(&ada.token)).json();
    let names: Vec<&str> = bots
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["bot-random", "bot-greedy", "bot-mcts", "bot-strong", "robo"]
    );
    assert_eq!(bots[3]["kind"], "rollout:100ms");
    assert_eq!(bots[4]["kind"], "outside");

    // It still signs in (the server's bots cannot: they have no password).
    let login = |name: &str| {
        s.post(
            "/api/v1/auth/login",
            None,
            json!({"name": name, "password": "correct horse"}),
        )
    };
    assert_eq!(login("robo").status, 200);
    assert_eq!(login("bot-greedy").status, 401);

    // A player who sat at a game cannot become a bot.
    let id = s.create(&ada, json!({"variant": "keltis", "players": 3}));
    let a = mark(&s, &ada, "correct horse");
    assert_eq!((a.status, a.code()), (409, "has_played".into()));
    assert_eq!(
        s.get("/api/v1/players/ada", Some(&ada.token)).json()["is_bot"],
        false
    );

    // Invited, it sits down at once, as the server's bots do; `bots` on creation names the
    // server's own only.
    assert_eq!(invite(&s, id, &ada, "robo").status, 200);
    let seats = s.game(id, &ada)["seats"].clone();
    assert_eq!(seats[1]["user"], "robo");
    assert_eq!(seats[1]["is_bot"], true);
    let a = s.post(
        "/api/v1/games",
        Some(&ada.token),
        json!({"variant": "keltis", "players": 2, "bots": ["robo"]}),
    );
    assert_eq!((a.status, a.code()), (422, "unknown_bot".into()));

    // The game starts with a third player; when robo is to act, the server's worker leaves it
    // alone and robo's stream says so.
    let cy = s.register("cyd");
    let a = s.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&cy.token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    let players = [ada.clone(), robo.clone(), cy.clone()];
    let mut to_act = s.game(id, &ada)["state"]["to_act"].as_u64().unwrap();
    while to_act != 1 {
        s.finish_turn(id, &players);
        to_act = s.game(id, &ada)["state"]["to_act"].as_u64().unwrap();
    }
    let notices = s.get("/api/v1/me/notifications", Some(&robo.token)).json();
    assert!(
        notices
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["notice"]["kind"] == "your_turn" && n["notice"]["game_id"] == id),
        "{notices}"
    );
    // The server's worker is woken by every move and would have played at once; a long poll of
    // a second on the events sees nothing new.
    let version = s.game(id, &ada)["version"].as_i64().unwrap();
    let a = s.get(
        &format!("/api/v1/games/{id}/events?after={version}&wait=1"),
        Some(&ada.token),
    );
    assert_eq!(a.json(), json!([]), "someone played robo's seat");
    s.finish_turn(id, &players);
    assert_ne!(s.game(id, &ada)["state"]["to_act"], 1);
}

/// The example bot in `examples/` signs in through OAuth (a loopback redirect; the test answers
/// the consent screen's call as robo, then follows the redirect as a browser would), waits on its
/// stream and plays a rated Keltis Card game against a person to the end; it is rated with its
/// bot mark.
fn the_example_bot_plays_a_rated_game_against_a_person(db: Db) {
    // One game is enough for the leaderboard here.
    let s = support::spawn(db, |c| c.rating_provisional_deviation = 400.0)
        .expect("a database for this test");
    let robo = s.register("robo");
    let ada = s.register("ada");
    assert_eq!(mark(&s, &robo, "correct horse").status, 204);

    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/greedy_bot.py");
    let mut bot = Command::new("python3")
        .args([script, "--server", &s.base, "--games", "1", "--no-browser"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut out = BufReader::new(bot.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let address = url::Url::parse(line.trim().strip_prefix("authorize: ").expect(&line)).unwrap();
    assert_eq!(address.path(), "/oauth/authorize");
    let request: serde_json::Map<String, Value> = address
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), Value::String(v.into_owned())))
        .collect();
    assert!(request["redirect_uri"]
        .as_str()
        .unwrap()
        .starts_with("http://127.0.0.1:"));
    let a = s.post(
        "/api/v1/oauth/authorize",
        Some(&robo.token),
        json!({"request": request, "approve": true}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    let back = s
        .client
        .get(a.json()["redirect_to"].as_str().unwrap())
        .send()
        .unwrap();
    assert_eq!(back.status(), 200);

    let id = s.create(
        &ada,
        json!({"variant": "keltis-card", "players": 2, "rated": true}),
    );
    assert_eq!(invite(&s, id, &ada, "robo").status, 200);
    let mut rng = 7u64;
    loop {
        let view = s.game(id, &ada);
        if view["status"] == "over" {
            break;
        }
        if view["state"]["to_act"] == view["your_seat"] {
            let d = support::pick(
                &mut rng,
                view["state"]["legal_decisions"].as_array().unwrap(),
            );
            let a = s.decide(id, &ada, view["version"].as_i64().unwrap(), d);
            assert_eq!(a.status, 200, "{}", a.text);
        } else {
            // The bot is to act: wait for its decision (a long poll, not a sleep).
            let version = view["version"].as_i64().unwrap();
            let a = s.get(
                &format!("/api/v1/games/{id}/events?after={version}&wait=30"),
                Some(&ada.token),
            );
            assert_eq!(a.status, 200);
            if a.json() == json!([]) {
                let _ = bot.kill();
                let mut errors = String::new();
                std::io::Read::read_to_string(&mut bot.stderr.take().unwrap(), &mut errors)
                    .unwrap();
                panic!("the bot did not play within 30 s: {errors}");
            }
        }
    }
    let status = bot.wait().unwrap();
    let mut report = String::new();
    out.read_line(&mut report).unwrap();
    let mut errors = String::new();
    std::io::Read::read_to_string(&mut bot.stderr.take().unwrap(), &mut errors).unwrap();
    assert!(status.success(), "{report}\n{errors}");
    let report: Value = serde_json::from_str(&report).expect(&errors);
    assert_eq!(report["finished"], json!([id]));

    // Every decision of robo's seat was the example's: the server's worker played none.
    let robo_seat = s.game(id, &robo)["your_seat"].clone();
    let robo_decisions = s
        .events(id, &ada)
        .iter()
        .filter(|e| e["kind"] == "decided" && e["data"]["seat"] == robo_seat)
        .count();
    assert!(robo_decisions > 0);
    assert_eq!(report["decisions"], robo_decisions, "{report}");

    // Rated on the same ladder as people, with its bot mark.
    let board = s
        .get("/api/v1/leaderboards/keltis-card", Some(&ada.token))
        .json();
    let entries = board["entries"].as_array().unwrap();
    let entry = |name: &str| entries.iter().find(|e| e["user"] == name).cloned();
    assert_eq!(entry("robo").expect("robo is rated")["is_bot"], true);
    assert_eq!(entry("ada").expect("ada is rated")["is_bot"], false);
    // Both ratings moved: one up and one down (or both unchanged after a draw), both surer.
    let rating = |name: &str| {
        let p = s
            .get(&format!("/api/v1/players/{name}"), Some(&ada.token))
            .json();
        let r = p["ratings"][0].clone();
        assert_eq!(
            (&r["variant"], &r["rated_games"]),
            (&json!("keltis-card"), &json!(1))
        );
        assert!(r["deviation"].as_f64().unwrap() < 350.0, "{r}");
        r["rating"].as_f64().unwrap() - 1500.0
    };
    let (robo_moved, ada_moved) = (rating("robo"), rating("ada"));
    assert!(
        robo_moved * ada_moved < 0.0 || (robo_moved == 0.0 && ada_moved == 0.0),
        "{robo_moved} {ada_moved}"
    );
}

on_both_databases!(
    an_account_becomes_a_bot_for_good,
    the_example_bot_plays_a_rated_game_against_a_person
);
