//! Writes that race (issue 65): every cap, "once" rule and last free place that
//! docs/architecture.md lists under "Writes that race", each met by requests released together
//! by a barrier: through two instances on one PostgreSQL database (alternating), and through one
//! SQLite server's connections. Several rounds each. Every answer is below 500 and one its
//! operation documents; the rows say the rule held.

use crate::support;

use serde_json::{json, Value};
use support::races::{codes, documented, with_status, Site};
use support::{Db, TestServer, User};

/// Rounds of each race: a race that holds by chance fails one of them.
const ROUNDS: usize = 3;
const HOUR: i64 = 3_600_000;

fn users(s: &TestServer, prefix: &str, n: usize) -> Vec<User> {
    (0..n)
        .map(|i| s.register(&format!("{prefix}{i}")))
        .collect()
}

/// A game of `players` seats that `owner` made, open for joining.
fn open_game(s: &TestServer, owner: &User, players: usize) -> i64 {
    s.create(owner, json!({"variant": "keltis", "players": players}))
}

fn seats(s: &TestServer, id: i64) -> usize {
    s.count(&format!(
        "SELECT COUNT(*) AS n FROM game_seats WHERE game_id = {id}"
    ))
}

/// Pairing: a player has at most 5 requests waiting.
fn pairing_requests_waiting_at_most_five(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let p = site.a().register(&format!("pw{round}"));
        let answers = site.race(8, |i, s| {
            let seconds = 86_400 * (i as i64 + 1);
            s.post(
                "/api/v1/pairing/requests",
                Some(&p.token),
                json!({"variant": "keltis", "time_control": {"type": "per_turn", "seconds": seconds}}),
            )
        });
        documented("post", "/api/v1/pairing/requests", &answers);
        assert_eq!(with_status(&answers, 201), 5, "round {round}");
        assert_eq!(codes(&answers, 409), vec!["too_many_requests"; 3]);
        let waiting = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM pairing_requests WHERE user_id = {} AND state = 'waiting'",
            p.id
        ));
        assert_eq!(waiting, 5, "round {round}");
        // Withdrawn, so that the next round's player does not sit down with these.
        cancel(site.a(), &p, &answers);
    }
}

/// Cancel the requests these answers filed.
fn cancel(s: &TestServer, p: &User, answers: &[support::Answer]) {
    for a in answers.iter().filter(|a| a.status == 201) {
        let id = &a.json()["id"];
        let done = s.delete(&format!("/api/v1/pairing/requests/{id}"), Some(&p.token));
        assert!(done.status < 300, "{}", done.text);
    }
}

/// Pairing: the same request is filed once.
fn pairing_request_filed_once(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let p = site.a().register(&format!("po{round}"));
        let answers = site.race(6, |_, s| {
            s.post(
                "/api/v1/pairing/requests",
                Some(&p.token),
                json!({"variant": "keltis-card"}),
            )
        });
        documented("post", "/api/v1/pairing/requests", &answers);
        assert_eq!(with_status(&answers, 201), 1, "round {round}");
        assert_eq!(codes(&answers, 409), vec!["duplicate_request"; 5]);
        let rows = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM pairing_requests WHERE user_id = {}",
            p.id
        ));
        assert_eq!(rows, 1, "round {round}");
        cancel(site.a(), &p, &answers);
    }
}

/// Events: a player has at most 5 events of their making waiting to start.
fn events_waiting_at_most_five_made(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let p = site.a().register(&format!("ev{round}"));
        let at = site.a().clock.now() + HOUR;
        let answers = site.race(7, |i, s| {
            s.post(
                "/api/v1/events",
                Some(&p.token),
                json!({"name": format!("Night {i}"), "format": "swiss", "variant": "keltis", "starts_at": at}),
            )
        });
        documented("post", "/api/v1/events", &answers);
        assert_eq!(with_status(&answers, 201), 5, "round {round}");
        assert_eq!(codes(&answers, 409), vec!["too_many_events"; 2]);
        let made = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM events WHERE created_by = {}",
            p.id
        ));
        assert_eq!(made, 5, "round {round}");
    }
}

/// Events: the last places of an event taken once each, and one player's entry made once.
fn event_last_places_taken_once(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let maker = site.a().register(&format!("em{round}"));
        let at = site.a().clock.now() + HOUR;
        let e = support::events::create_event(
            site.a(),
            &maker,
            json!({"name": format!("Full {round}"), "format": "swiss", "variant": "keltis",
                   "starts_at": at, "max_players": 4, "min_players": 2}),
        );
        let id = e["event"]["id"].as_i64().expect("the event's id");
        let early = users(site.a(), &format!("ee{round}_"), 2);
        for p in &early {
            assert_eq!(support::events::enter(site.a(), p, id).status, 201);
        }
        let late = users(site.a(), &format!("el{round}_"), 5);
        let answers = site.race(5, |i, s| support::events::enter(s, &late[i], id));
        documented("post", "/api/v1/events/{id}/entries", &answers);
        assert_eq!(with_status(&answers, 201), 2, "round {round}");
        assert_eq!(codes(&answers, 409), vec!["event_full"; 3], "round {round}");
        let entered = |id: i64| {
            site.a().count(&format!(
                "SELECT COUNT(*) AS n FROM event_entries WHERE event_id = {id}"
            ))
        };
        assert_eq!(entered(id), 4, "round {round}");

        let again = support::events::create_event(
            site.a(),
            &maker,
            json!({"name": format!("Twice {round}"), "format": "swiss", "variant": "keltis",
                   "starts_at": at}),
        );
        let again = again["event"]["id"].as_i64().expect("the event's id");
        let one = &late[0];
        let answers = site.race(2, |_, s| support::events::enter(s, one, again));
        documented("post", "/api/v1/events/{id}/entries", &answers);
        assert_eq!(with_status(&answers, 201), 1, "round {round}");
        assert_eq!(
            codes(&answers, 409),
            vec!["already_entered"],
            "round {round}"
        );
        assert_eq!(entered(again), 1, "round {round}");
    }
}

/// Ladders: a player has at most three challenges open against them, and two players one
/// between them.
fn ladder_challenges_at_most_three_in(db: Db) {
    let site = Site::start(db, |_| {});
    let challenge = |s: &TestServer, who: &User, defender: &str| {
        s.post(
            "/api/v1/ladders/keltis-card/challenges",
            Some(&who.token),
            json!({ "defender": defender }),
        )
    };
    let join = |p: &User| {
        let a = site.a().post(
            "/api/v1/ladders/keltis-card/rungs",
            Some(&p.token),
            json!({}),
        );
        assert_eq!(a.status, 201, "{}", a.text);
    };
    // Ten rungs above the rounds' players: reach grows with the rung (`Ladder::reach`), and from
    // the eleventh down every challenger below reaches four rungs up.
    for p in users(site.a(), "lctop", 10) {
        join(&p);
    }
    for round in 0..ROUNDS {
        // New players join at the bottom: the round's own rungs, one below the other.
        let players = users(site.a(), &format!("lc{round}_"), 6);
        for p in &players {
            join(p);
        }
        let defender = &players[0].name;
        let answers = site.race(4, |i, s| challenge(s, &players[i + 1], defender));
        documented("post", "/api/v1/ladders/{variant}/challenges", &answers);
        assert_eq!(with_status(&answers, 201), 3, "round {round}");
        assert_eq!(
            codes(&answers, 409),
            vec!["defender_too_challenged"],
            "round {round}"
        );

        let (one, above) = (&players[5], &players[4].name);
        let answers = site.race(2, |_, s| challenge(s, one, above));
        documented("post", "/api/v1/ladders/{variant}/challenges", &answers);
        assert_eq!(with_status(&answers, 201), 1, "round {round}");
        assert_eq!(
            codes(&answers, 409),
            vec!["already_challenged"],
            "round {round}"
        );
    }
}

/// Webhooks: an account has at most 10 endpoints.
fn webhooks_at_most_ten(db: Db) {
    let site = Site::start(db, |c| c.webhooks_allow_private = true);
    for round in 0..ROUNDS {
        let p = site.a().register(&format!("wh{round}"));
        let answers = site.race(14, |i, s| {
            s.post(
                "/api/v1/me/webhooks",
                Some(&p.token),
                json!({"url": format!("http://127.0.0.1:9/hook/{i}"), "kinds": ["your_turn"]}),
            )
        });
        documented("post", "/api/v1/me/webhooks", &answers);
        assert_eq!(with_status(&answers, 201), 10, "round {round}");
        assert_eq!(codes(&answers, 409), vec!["too_many_webhooks"; 4]);
        let rows = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM webhooks WHERE user_id = {}",
            p.id
        ));
        assert_eq!(rows, 10, "round {round}");
    }
}

/// A push subscription at `endpoint`, with the keys of a real device.
fn subscription(device: &Value, endpoint: &str) -> Value {
    let mut s = device.clone();
    s["endpoint"] = json!(endpoint);
    s
}

fn push_device(site: &Site) -> support::push::PushDevice {
    let key = site.a().get("/api/v1/push/vapid-public-key", None).json()["public_key"]
        .as_str()
        .expect("the server's VAPID key")
        .to_string();
    support::push::PushDevice::start(&key, &[])
}

/// Push: an account has at most 10 devices.
fn push_devices_at_most_ten(db: Db) {
    let site = Site::start(db, |c| c.push_allow_private = true);
    let device = push_device(&site);
    for round in 0..ROUNDS {
        let p = site.a().register(&format!("pd{round}"));
        let answers = site.race(13, |i, s| {
            let endpoint = format!("http://127.0.0.1:9/push/{round}/{i}");
            s.post(
                "/api/v1/me/push-subscriptions",
                Some(&p.token),
                subscription(&device.subscription, &endpoint),
            )
        });
        documented("post", "/api/v1/me/push-subscriptions", &answers);
        assert_eq!(with_status(&answers, 201), 10, "round {round}");
        assert_eq!(codes(&answers, 409), vec!["too_many_push_devices"; 3]);
        let rows = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = {}",
            p.id
        ));
        assert_eq!(rows, 10, "round {round}");
    }
}

/// Push: an endpoint registered twice at once is one device (the second updates it).
fn push_endpoint_registered_twice_is_one_device(db: Db) {
    let site = Site::start(db, |c| c.push_allow_private = true);
    let device = push_device(&site);
    for round in 0..ROUNDS {
        let p = site.a().register(&format!("pe{round}"));
        let endpoint = format!("http://127.0.0.1:9/push/twice/{round}");
        let answers = site.race(2, |_, s| {
            s.post(
                "/api/v1/me/push-subscriptions",
                Some(&p.token),
                subscription(&device.subscription, &endpoint),
            )
        });
        documented("post", "/api/v1/me/push-subscriptions", &answers);
        assert_eq!(with_status(&answers, 201), 2, "round {round}");
        let rows = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM push_subscriptions WHERE endpoint = '{endpoint}'"
        ));
        assert_eq!(rows, 1, "round {round}");
    }
}

/// Chat: a player writes at most 10 messages a minute.
fn chat_at_most_ten_messages_a_minute(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let [p, q] = [0, 1].map(|i| site.a().register(&format!("ch{round}{i}")));
        let id = site.a().started_game("keltis", &[p.clone(), q]);
        let answers = site.race(12, |i, s| {
            s.post(
                &format!("/api/v1/games/{id}/chat"),
                Some(&p.token),
                json!({"text": format!("message {i}")}),
            )
        });
        documented("post", "/api/v1/games/{id}/chat", &answers);
        assert_eq!(with_status(&answers, 201), 10, "round {round}");
        assert_eq!(codes(&answers, 429), vec!["rate_limited"; 2]);
        let rows = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM chat_messages WHERE user_id = {}",
            p.id
        ));
        assert_eq!(rows, 10, "round {round}");
    }
}

/// Chat: read marks sent at once never leave a lower mark standing.
fn chat_read_mark_never_goes_back(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let [p, q] = [0, 1].map(|i| site.a().register(&format!("cr{round}{i}")));
        let id = site.a().started_game("keltis", &[p.clone(), q.clone()]);
        let ids: Vec<i64> = (0..6)
            .map(|i| {
                let a = site.a().post(
                    &format!("/api/v1/games/{id}/chat"),
                    Some(&q.token),
                    json!({"text": format!("line {i}")}),
                );
                assert_eq!(a.status, 201, "{}", a.text);
                a.json()["id"].as_i64().expect("message id")
            })
            .collect();
        let answers = site.race(ids.len(), |i, s| {
            s.send(
                s.client
                    .put(s.url(&format!("/api/v1/games/{id}/chat/read")))
                    .bearer_auth(&p.token)
                    .json(&json!({"last_read": ids[i]})),
            )
        });
        documented("put", "/api/v1/games/{id}/chat/read", &answers);
        assert_eq!(with_status(&answers, 204), ids.len(), "round {round}");
        let newest = ids.iter().max().expect("messages");
        let kept = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM chat_reads WHERE game_id = {id} AND user_id = {} AND last_read = {newest}",
            p.id
        ));
        assert_eq!(kept, 1, "round {round}: the highest mark stands");
    }
}

/// Notes: a note written twice at once is one note, one of the two texts.
fn note_written_twice_is_one_note(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let [p, q] = [0, 1].map(|i| site.a().register(&format!("nt{round}{i}")));
        let id = site.a().started_game("keltis", &[p.clone(), q]);
        let answers = site.race(2, |i, s| {
            s.send(
                s.client
                    .put(s.url(&format!("/api/v1/games/{id}/note")))
                    .bearer_auth(&p.token)
                    .json(&json!({"text": format!("plan {i}")})),
            )
        });
        documented("put", "/api/v1/games/{id}/note", &answers);
        assert_eq!(with_status(&answers, 200), 2, "round {round}");
        let rows = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM game_notes WHERE game_id = {id} AND user_id = {}",
            p.id
        ));
        assert_eq!(rows, 1, "round {round}");
        let text = site
            .a()
            .get(&format!("/api/v1/games/{id}/note"), Some(&p.token))
            .json()["text"]
            .clone();
        assert!(text == "plan 0" || text == "plan 1", "{text}");
    }
}

/// Two-factor: started twice at once, one enrolment waits for its confirmation.
fn two_factor_started_twice_is_one_enrolment(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let p = site.a().register(&format!("tf{round}"));
        let answers = site.race(2, |_, s| {
            s.post("/api/v1/me/two-factor", Some(&p.token), json!({}))
        });
        documented("post", "/api/v1/me/two-factor", &answers);
        assert_eq!(with_status(&answers, 201), 2, "round {round}");
        let rows = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM two_factor WHERE user_id = {} AND confirmed_at IS NULL",
            p.id
        ));
        assert_eq!(rows, 1, "round {round}");
    }
}

/// Fair use: a player at the cap on running games (3 here) takes no further seat by joining.
fn running_games_cap_on_joins(db: Db) {
    let site = Site::start(db, |c| c.max_running_games = 3);
    for round in 0..ROUNDS {
        let p = site.a().register(&format!("rj{round}"));
        let owners = users(site.a(), &format!("ro{round}_"), 5);
        let games: Vec<i64> = owners.iter().map(|o| open_game(site.a(), o, 3)).collect();
        let answers = site.race(games.len(), |i, s| {
            s.post(
                &format!("/api/v1/games/{}/join", games[i]),
                Some(&p.token),
                json!({}),
            )
        });
        documented("post", "/api/v1/games/{id}/join", &answers);
        assert_eq!(with_status(&answers, 200), 3, "round {round}");
        assert_eq!(codes(&answers, 409), vec!["too_many_games"; 2]);
        let seated = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM game_seats WHERE user_id = {}",
            p.id
        ));
        assert_eq!(seated, 3, "round {round}");
    }
}

/// Fair use: a player at the cap on running games (3 here) creates no further game.
fn running_games_cap_on_creations(db: Db) {
    let site = Site::start(db, |c| c.max_running_games = 3);
    for round in 0..ROUNDS {
        let p = site.a().register(&format!("rc{round}"));
        let answers = site.race(5, |_, s| {
            s.post(
                "/api/v1/games",
                Some(&p.token),
                json!({"variant": "keltis", "players": 2}),
            )
        });
        documented("post", "/api/v1/games", &answers);
        assert_eq!(with_status(&answers, 201), 3, "round {round}");
        assert_eq!(codes(&answers, 409), vec!["too_many_games"; 2]);
        let made = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM games WHERE created_by = {}",
            p.id
        ));
        assert_eq!(made, 3, "round {round}");
    }
}

/// Lobby: six players for a game's last three seats: three sit, the game starts, the others are
/// told it is not open; one player joining twice at once sits once.
fn last_seats_taken_once(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let owner = site.a().register(&format!("ls{round}"));
        let joiners = users(site.a(), &format!("lj{round}_"), 6);
        let id = open_game(site.a(), &owner, 4);
        let answers = site.race(6, |i, s| {
            s.post(
                &format!("/api/v1/games/{id}/join"),
                Some(&joiners[i].token),
                json!({}),
            )
        });
        documented("post", "/api/v1/games/{id}/join", &answers);
        assert_eq!(with_status(&answers, 200), 3, "round {round}");
        assert_eq!(codes(&answers, 409), vec!["game_not_open"; 3]);
        assert_eq!(seats(site.a(), id), 4);
        assert_eq!(
            site.a().game(id, &owner)["status"],
            "active",
            "round {round}"
        );

        let twice = open_game(site.a(), &owner, 2);
        let one = site.a().register(&format!("lt{round}"));
        let answers = site.race(2, |_, s| {
            s.post(
                &format!("/api/v1/games/{twice}/join"),
                Some(&one.token),
                json!({}),
            )
        });
        documented("post", "/api/v1/games/{id}/join", &answers);
        assert_eq!(with_status(&answers, 200), 1, "round {round}");
        let refused = codes(&answers, 409);
        assert!(
            refused == ["already_seated"] || refused == ["game_not_open"],
            "{refused:?}"
        );
        assert_eq!(seats(site.a(), twice), 2);
    }
}

/// Lobby: the last seat taken at once by a join, a bot's invitation and a challenge link: one of
/// them has it.
fn last_seat_by_join_invitation_and_link(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let [owner, joiner, linked] =
            [0, 1, 2].map(|i| site.a().register(&format!("li{round}{i}")));
        let id = open_game(site.a(), &owner, 2);
        let token = site
            .a()
            .get(
                &format!("/api/v1/games/{id}/challenge-link"),
                Some(&owner.token),
            )
            .json()["token"]
            .as_str()
            .expect("a challenge token")
            .to_string();
        let answers = site.race(3, |i, s| match i {
            0 => s.post(
                &format!("/api/v1/games/{id}/join"),
                Some(&joiner.token),
                json!({}),
            ),
            1 => s.post(
                &format!("/api/v1/games/{id}/invites"),
                Some(&owner.token),
                json!({"user": "bot-random"}),
            ),
            _ => s.post(
                &format!("/api/v1/challenges/{token}"),
                Some(&linked.token),
                json!({}),
            ),
        });
        documented("post", "/api/v1/games/{id}/join", &answers[0..1]);
        documented("post", "/api/v1/games/{id}/invites", &answers[1..2]);
        documented("post", "/api/v1/challenges/{token}", &answers[2..3]);
        let won = answers.iter().filter(|a| a.status < 300).count();
        assert_eq!(
            won,
            1,
            "round {round}: {:?}",
            answers.iter().map(|a| &a.text).collect::<Vec<_>>()
        );
        assert_eq!(seats(site.a(), id), 2);
        assert_eq!(site.a().game(id, &owner)["status"], "active");
    }
}

/// Lobby: an invitation, a join and a leave at once at one open game: each is answered as if
/// alone (never `stale_version`), and the seats say all three happened.
fn invitation_join_and_leave_together(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let [owner, leaver, joiner, invited] =
            [0, 1, 2, 3].map(|i| site.a().register(&format!("ij{round}{i}")));
        let id = open_game(site.a(), &owner, 4);
        let a = site.a().post(
            &format!("/api/v1/games/{id}/join"),
            Some(&leaver.token),
            json!({}),
        );
        assert_eq!(a.status, 200, "{}", a.text);
        let answers = site.race(3, |i, s| match i {
            0 => s.post(
                &format!("/api/v1/games/{id}/invites"),
                Some(&owner.token),
                json!({"user": invited.name}),
            ),
            1 => s.post(
                &format!("/api/v1/games/{id}/join"),
                Some(&joiner.token),
                json!({}),
            ),
            _ => s.post(
                &format!("/api/v1/games/{id}/leave"),
                Some(&leaver.token),
                json!({}),
            ),
        });
        documented("post", "/api/v1/games/{id}/invites", &answers[0..1]);
        documented("post", "/api/v1/games/{id}/join", &answers[1..2]);
        documented("post", "/api/v1/games/{id}/leave", &answers[2..3]);
        for a in &answers {
            assert_eq!(a.status, 200, "round {round}: {}", a.text);
        }
        assert_eq!(seats(site.a(), id), 2, "round {round}");
        let invites = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM game_invites WHERE game_id = {id}"
        ));
        assert_eq!(invites, 1, "round {round}");
    }
}

/// The games `p` and `q` play (`p` creates them) until `p` is to act in two of them.
fn two_games_to_act(s: &TestServer, p: &User, q: &User) -> Vec<(i64, Value)> {
    let mut mine = Vec::new();
    for _ in 0..12 {
        let id = s.started_game("keltis", &[p.clone(), q.clone()]);
        let view = s.game(id, p);
        if view["state"]["to_act"] == 0 {
            mine.push((id, view));
            if mine.len() == 2 {
                return mine;
            }
        }
    }
    panic!("never to act in two games");
}

/// Decisions: one Idempotency-Key sent with decisions at two games at once: one is played, the
/// other is told the key was used.
fn one_idempotency_key_on_two_games(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let [p, q] = [0, 1].map(|i| site.a().register(&format!("ik{round}{i}")));
        let games = two_games_to_act(site.a(), &p, &q);
        let key = format!("key-{round}");
        let answers = site.race(2, |i, s| {
            let (id, view) = &games[i];
            s.send(
                s.client
                    .post(s.url(&format!("/api/v1/games/{id}/decisions")))
                    .bearer_auth(&p.token)
                    .header("Idempotency-Key", &key)
                    .json(&json!({
                        "expected_version": view["version"],
                        "decision": view["state"]["legal_decisions"][0],
                    })),
            )
        });
        documented("post", "/api/v1/games/{id}/decisions", &answers);
        assert_eq!(with_status(&answers, 200), 1, "round {round}");
        assert_eq!(codes(&answers, 422), vec!["idempotency_key_reused"]);
        let moved = games
            .iter()
            .filter(|(id, view)| site.a().game(*id, &p)["version"] != view["version"])
            .count();
        assert_eq!(moved, 1, "round {round}: one decision played");
    }
}

/// Accounts: deleted twice at once, the account is deleted once: the other request is answered
/// as one after it (401), and one placeholder name stands everywhere.
fn account_deleted_once(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let [gone, stays] = [0, 1].map(|i| site.a().register(&format!("ad{round}{i}")));
        let id = site
            .a()
            .started_game("keltis", &[stays.clone(), gone.clone()]);
        let answers = site.race(2, |_, s| {
            s.post(
                "/api/v1/me/delete",
                Some(&gone.token),
                json!({"password": "correct horse"}),
            )
        });
        documented("post", "/api/v1/me/delete", &answers);
        assert_eq!(with_status(&answers, 204), 1, "round {round}");
        assert_eq!(codes(&answers, 401), vec!["unauthorized"]);
        let names = support::database::texts_at(
            &site.a().database_url,
            &format!("SELECT name AS t FROM users WHERE id = {}", gone.id),
        );
        let placeholder = names.first().expect("the account's row").clone();
        assert!(placeholder.starts_with("deleted-"), "{placeholder}");
        let view = site.a().game(id, &stays);
        let seated: Vec<&str> = view["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .filter_map(|s| s["user"].as_str())
            .collect();
        assert!(seated.contains(&placeholder.as_str()), "{seated:?}");
        let log = serde_json::to_string(&site.a().events(id, &stays)).expect("events");
        let others = log.matches("deleted-").count();
        let this_one = log.matches(placeholder.as_str()).count();
        assert_eq!(
            others, this_one,
            "round {round}: one placeholder in the log"
        );
    }
}

/// Password resets: two links of one account used at once: one sets the password, the other is
/// told its link is spent (the two had deadlocked on each other's rows).
fn password_reset_links_used_once(db: Db) {
    let sink = support::smtp::SmtpSink::start();
    let port = sink.port;
    let site = Site::start(db, |c| {
        c.smtp_host = Some("127.0.0.1".into());
        c.smtp_port = Some(port);
        c.smtp_tls = keltis::service::notify::mail::delivery::SmtpTls::None;
        c.mail_from = "Keltis <keltis@keltis.test>".into();
        c.public_url = support::mail::PUBLIC.into();
        c.mail_interval_ms = 50;
    });
    for round in 0..ROUNDS {
        let p = support::mail::register(site.a(), &format!("rs{round}"), "en");
        let address = support::mail::confirmed_address(site.a(), &sink, &p);
        for _ in 0..2 {
            let a = site
                .a()
                .post("/api/v1/auth/password-reset", None, json!({"user": p.name}));
            assert_eq!(a.status, 202, "{}", a.text);
        }
        let prefix = format!("{}/reset-password?token=", support::mail::PUBLIC);
        let mut tokens = Vec::new();
        for _ in 0..400 {
            tokens = sink
                .to(&address)
                .iter()
                .filter(|m| m["text"].as_str().is_some_and(|t| t.contains(&prefix)))
                .map(|m| {
                    let url = support::mail::link(site.a(), m, &prefix);
                    url.split_once("token=").expect("a token").1.to_string()
                })
                .collect();
            if tokens.len() == 2 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        assert_eq!(tokens.len(), 2, "round {round}: two links mailed");
        let answers = site.race(2, |i, s| {
            s.post(
                "/api/v1/auth/password-reset/confirm",
                None,
                json!({"token": tokens[i], "new_password": format!("new horse {i}")}),
            )
        });
        documented("post", "/api/v1/auth/password-reset/confirm", &answers);
        assert_eq!(with_status(&answers, 204), 1, "round {round}");
        assert_eq!(codes(&answers, 422), vec!["invalid_link"]);
    }
}

mod mail {
    use super::password_reset_links_used_once;
    mail_tests_on_both_databases!(password_reset_links_used_once);
}

on_both_databases!(
    pairing_requests_waiting_at_most_five,
    pairing_request_filed_once,
    events_waiting_at_most_five_made,
    event_last_places_taken_once,
    ladder_challenges_at_most_three_in,
    webhooks_at_most_ten,
    push_devices_at_most_ten,
    push_endpoint_registered_twice_is_one_device,
    chat_at_most_ten_messages_a_minute,
    chat_read_mark_never_goes_back,
    note_written_twice_is_one_note,
    two_factor_started_twice_is_one_enrolment,
    running_games_cap_on_joins,
    running_games_cap_on_creations,
    last_seats_taken_once,
    last_seat_by_join_invitation_and_link,
    invitation_join_and_leave_together,
    one_idempotency_key_on_two_games,
    account_deleted_once,
);

/// The rules are listed in one place, docs/architecture.md ("Writes that race"): each names its
/// race test, which must be here.
#[test]
fn every_rule_listed_has_its_race_test() {
    let docs = include_str!("../docs/architecture.md");
    let section = docs
        .split("## Writes that race")
        .nth(1)
        .expect("docs/architecture.md has a section \"Writes that race\"");
    let section = section.split("\n## ").next().unwrap_or(section);
    let this = include_str!("http_races.rs");
    let mut listed = 0;
    for line in section.lines().filter(|l| l.starts_with('|')) {
        let Some(test) = line
            .trim_end_matches('|')
            .rsplit('|')
            .next()
            .map(|cell| cell.trim().trim_matches('`'))
        else {
            continue;
        };
        if test.is_empty() || test.starts_with('-') || test == "race test" {
            continue;
        }
        listed += 1;
        assert!(
            this.contains(&format!("fn {test}(db: Db)"))
                && (this.contains(&format!("    {test},\n"))
                    || this.contains(&format!("({test});"))),
            "docs/architecture.md lists the race test `{test}`, which tests/http_races.rs lacks"
        );
    }
    assert!(listed >= 18, "only {listed} rules listed");
}
