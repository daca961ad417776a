//! Races in the lobby: the running-games cap, a game's last seats, invitations, joins and
//! leaves together, one idempotency key.

use super::*;

/// A game of `players` seats that `owner` made, open for joining.
fn open_game(s: &TestServer, owner: &User, players: usize) -> i64 {
    s.create(owner, json!({"variant": "keltis", "players": players}))
}

fn seats(s: &TestServer, id: i64) -> usize {
    s.count(&format!(
        "SELECT COUNT(*) AS n FROM game_seats WHERE game_id = {id}"
    ))
}

/// Fair use: a player at the cap on running games (3 here) takes no further seat by joining.
pub(super) fn running_games_cap_on_joins(db: Db) {
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
pub(super) fn running_games_cap_on_creations(db: Db) {
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
pub(super) fn last_seats_taken_once(db: Db) {
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
pub(super) fn last_seat_by_join_invitation_and_link(db: Db) {
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
pub(super) fn invitation_join_and_leave_together(db: Db) {
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
pub(super) fn one_idempotency_key_on_two_games(db: Db) {
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
