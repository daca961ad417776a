//! Races of what waits to be played: pairing requests, events and their entries, ladders and
//! their challenges, rematches.

use super::*;

/// Pairing: a player has at most 5 requests waiting.
pub(super) fn pairing_requests_waiting_at_most_five(db: Db) {
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
pub(super) fn pairing_request_filed_once(db: Db) {
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
pub(super) fn events_waiting_at_most_five_made(db: Db) {
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
pub(super) fn event_last_places_taken_once(db: Db) {
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
pub(super) fn ladder_challenges_at_most_three_in(db: Db) {
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

/// Ladders: players joining at once each get a rung of their own at the bottom, one after the
/// other; a player's join sent twice gives one rung.
pub(super) fn ladder_joined_once_each(db: Db) {
    let site = Site::start(db, |_| {});
    let rungs = || {
        site.a()
            .count("SELECT COUNT(*) AS n FROM ladder_rungs WHERE variant = 'neue-wege'")
    };
    for round in 0..ROUNDS {
        let before = rungs();
        let players = users(site.a(), &format!("lj{round}_"), 5);
        // The first player's join twice.
        let answers = site.race(6, |i, s| {
            s.post(
                "/api/v1/ladders/neue-wege/rungs",
                Some(&players[i % 5].token),
                json!({}),
            )
        });
        documented("post", "/api/v1/ladders/{variant}/rungs", &answers);
        assert_eq!(with_status(&answers, 201), 6, "round {round}");
        assert_eq!(rungs(), before + 5, "round {round}");
        // Rungs 1..n, each once: nobody shares a rung, none is skipped.
        let distinct = site.a().count(
            "SELECT COUNT(DISTINCT rung) AS n FROM ladder_rungs WHERE variant = 'neue-wege'",
        );
        let highest = site.a().count(
            "SELECT CAST(MAX(rung) AS BIGINT) AS n FROM ladder_rungs WHERE variant = 'neue-wege'",
        );
        assert_eq!(
            (distinct, highest),
            (before + 5, before + 5),
            "round {round}"
        );
    }
}

/// Rematches: both players of a finished game asking for one at the same moment (each twice)
/// start one new game, which every answer that saw it started names.
pub(super) fn rematch_started_once(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let players = users(site.a(), &format!("rm{round}_"), 2);
        let id = site.a().started_game("keltis-card", &players);
        support::players::resign(site.a(), id, &players[1]);
        let answers = site.race(4, |i, s| {
            s.post(
                &format!("/api/v1/games/{id}/rematch"),
                Some(&players[i % 2].token),
                json!({}),
            )
        });
        documented("post", "/api/v1/games/{id}/rematch", &answers);
        assert_eq!(with_status(&answers, 200), 4, "round {round}");
        let started: Vec<i64> = answers
            .iter()
            .filter_map(|a| a.json()["new_game_id"].as_i64())
            .collect();
        assert!(!started.is_empty(), "round {round}: nobody saw it start");
        assert!(started.iter().all(|&g| g == started[0]), "{started:?}");
        let games_of_first = site.a().count(&format!(
            "SELECT COUNT(*) AS n FROM game_seats WHERE user_id = {}",
            players[0].id
        ));
        assert_eq!(
            games_of_first, 2,
            "round {round}: the old game and one rematch"
        );
        let shown = site.a().get(
            &format!("/api/v1/games/{id}/rematch"),
            Some(&players[0].token),
        );
        assert_eq!(shown.json()["new_game_id"].as_i64(), Some(started[0]));
    }
}
