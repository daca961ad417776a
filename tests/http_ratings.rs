//! Ratings, profiles, history and leaderboards through HTTP, on both databases (the rating
//! commands: `ratings_cli.rs`).

use crate::support;

use keltis::ratings::{rate_game, RatedSeat, Rating, RatingParameters, Standing};
use serde_json::{json, Value};
use support::players::{figure, play_out, profile, rating_in, resign, users};
use support::{Db, TestServer, User};

fn server(db: Db, tune: impl FnOnce(&mut keltis::config::Config)) -> Option<TestServer> {
    let s = support::spawn(db, tune);
    if s.is_none() {
        eprintln!("TEST_DATABASE_URL not set: PostgreSQL scenario skipped");
    }
    s
}

/// The standings of a finished game, from its record, by seat.
fn standings(s: &TestServer, id: i64, asker: &User) -> Vec<Standing> {
    let a = s.get(&format!("/api/v1/games/{id}/record"), Some(&asker.token));
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()["result"]["scores"]
        .as_array()
        .expect("scores")
        .iter()
        .map(|score| Standing {
            left_game: !score["retired"].is_null(),
            total: score["total"].as_i64().expect("total") as i32,
        })
        .collect()
}

fn newcomer(standing: Standing) -> RatedSeat {
    RatedSeat {
        before: RatingParameters::default().initial,
        last_rated_at: None,
        standing,
    }
}

fn assert_rating(profile: &Value, variant: &str, expected: Rating) {
    let r = rating_in(profile, variant).expect("a rating");
    assert!((figure(&r["rating"]) - expected.rating).abs() < 1e-6, "{r}");
    assert!(
        (figure(&r["deviation"]) - expected.deviation).abs() < 1e-6,
        "{r}"
    );
    assert!(
        (figure(&r["volatility"]) - expected.volatility).abs() < 1e-9,
        "{r}"
    );
}

/// A rated two-player game played to its end updates both ratings once, as Glicko-2 says; the
/// profiles count the game, the history lists it with both changes, and a bot is rated too.
fn a_rated_game_updates_both_ratings_once(db: Db) {
    let Some(s) = server(db, |_| {}) else { return };
    let p = users(&s, "rated", 2);
    let id = s.started_game("keltis-card", &p);
    assert_eq!(s.game(id, &p[0])["rated"], true, "rated by default");
    play_out(&s, id, &p);
    let st = standings(&s, id, &p[0]);
    let expected = rate_game(
        &[newcomer(st[0]), newcomer(st[1])],
        0,
        &RatingParameters::default(),
    );
    for (seat, user) in p.iter().enumerate() {
        let me = profile(&s, &p[0], &user.name);
        assert_rating(&me, "keltis-card", expected[seat]);
        let r = rating_in(&me, "keltis-card").expect("rating");
        assert_eq!(r["rated_games"], 1);
        assert_eq!(r["provisional"], true, "one game: provisional");
        assert_eq!(r["changes"].as_array().map(Vec::len), Some(1));
        assert_eq!(r["changes"][0]["game_id"], id);
        assert!(
            (figure(&r["changes"][0]["change"]) - (expected[seat].rating - 1500.0)).abs() < 1e-6
        );
        let record = &me["records"][0];
        assert_eq!(
            (record["variant"].as_str(), record["played"].as_i64()),
            (Some("keltis-card"), Some(1))
        );
        let other = st[1 - seat];
        let score = st[seat].score_against(other);
        let (won, drawn, lost) = if score > 0.75 {
            (1, 0, 0)
        } else if score > 0.25 {
            (0, 1, 0)
        } else {
            (0, 0, 1)
        };
        assert_eq!(
            (
                record["won"].as_i64(),
                record["drawn"].as_i64(),
                record["lost"].as_i64()
            ),
            (Some(won), Some(drawn), Some(lost)),
            "{me}"
        );
    }
    // Once: two results, and a second look changes nothing.
    assert_eq!(
        s.count(&format!(
            "SELECT count(*) AS n FROM game_results WHERE game_id = {id}"
        )),
        2
    );
    let a = s.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&p[0].token),
        json!({}),
    );
    assert_eq!(
        (a.status, a.code()),
        (422, "game_over".into()),
        "{}",
        a.text
    );
    assert_rating(&profile(&s, &p[1], &p[0].name), "keltis-card", expected[0]);
    // The history lists it, with both ratings before and after and the record's link.
    let a = s.get(
        &format!("/api/v1/history?player={}", p[0].name),
        Some(&p[0].token),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    let game = &a.json()["games"][0];
    assert_eq!(
        (game["id"].as_i64(), game["rated"].as_bool()),
        (Some(id), Some(true))
    );
    assert_eq!(game["record"], format!("/api/v1/games/{id}/record"));
    for seat in 0..2 {
        let row = &game["seats"][seat];
        assert_eq!(row["user"], p[seat].name.as_str());
        assert_eq!(figure(&row["rating_before"]), 1500.0);
        assert!((figure(&row["rating_after"]) - expected[seat].rating).abs() < 1e-6);
    }

    // Against a bot: the bot is rated as well, and a resignation is a loss.
    let human = s.register("calibrating");
    let id = s.create(
        &human,
        json!({"variant": "keltis-card", "players": 2, "bots": ["bot-greedy"]}),
    );
    resign(&s, id, &human);
    let bot = profile(&s, &human, "bot-greedy");
    assert_eq!(bot["is_bot"], true);
    let bot_rating = rating_in(&bot, "keltis-card").expect("the bot is rated");
    assert!(figure(&bot_rating["rating"]) > 1500.0);
    let me = profile(&s, &human, "calibrating");
    assert!(figure(&rating_in(&me, "keltis-card").expect("rated")["rating"]) < 1500.0);
    assert_eq!(me["records"][0]["lost"], 1);
}

/// A player whose time runs out loses the rated game: the clock's time-out updates both
/// ratings like any end.
fn a_timeout_is_a_rated_loss(db: Db) {
    let Some(s) = server(db, |_| {}) else { return };
    let p = users(&s, "clocked", 2);
    let id = s.started_with(
        json!({"variant": "keltis-card", "players": 2,
               "time_control": {"type": "per_turn", "seconds": 60}}),
        &p,
    );
    // Both play a turn (a game nobody began would be aborted, not lost on time).
    s.finish_turn(id, &p);
    s.finish_turn(id, &p);
    let late = s.game(id, &p[0])["state"]["to_act"]
        .as_u64()
        .expect("to act") as usize;
    s.clock.advance(61 * 1000);
    s.wait_for(id, &p[0], |v| v["status"] == "over");
    let rating = |u: &User| {
        figure(&rating_in(&profile(&s, u, &u.name), "keltis-card").expect("rated")["rating"])
    };
    assert!(rating(&p[late]) < 1500.0);
    assert!(rating(&p[1 - late]) > 1500.0);
    let a = s.get(
        &format!("/api/v1/history?player={}&result=lost", p[late].name),
        Some(&p[0].token),
    );
    assert_eq!(a.json()["games"][0]["id"], id);
}

/// A casual game is recorded (history, counts) but changes no rating.
fn a_casual_game_changes_no_rating(db: Db) {
    let Some(s) = server(db, |_| {}) else { return };
    let p = users(&s, "casual", 2);
    let id = s.started_with(
        json!({"variant": "keltis", "players": 2, "rated": false}),
        &p,
    );
    assert_eq!(s.game(id, &p[0])["rated"], false);
    let created = &s.events(id, &p[0])[0];
    assert_eq!(created["data"]["rated"], false);
    // The profile lists the game being played, and no longer once it is over.
    let current = &profile(&s, &p[1], &p[0].name)["current_games"];
    assert_eq!(current.as_array().map(Vec::len), Some(1), "{current}");
    assert_eq!(current[0]["id"], id);
    resign(&s, id, &p[1]);
    assert_eq!(profile(&s, &p[1], &p[0].name)["current_games"], json!([]));
    for user in &p {
        let me = profile(&s, user, &user.name);
        assert_eq!(me["ratings"], json!([]), "{me}");
        assert_eq!(me["records"][0]["played"], 1);
    }
    assert_eq!(me_won(&s, &p[0]), 1);
    let a = s.get(
        &format!("/api/v1/history?player={}&rated=false", p[1].name),
        Some(&p[1].token),
    );
    let game = &a.json()["games"][0];
    assert_eq!(game["id"], id);
    assert_eq!(game["seats"][1]["outcome"], "lost");
    assert!(game["seats"][1]["rating_before"].is_null());
    let a = s.get(
        &format!("/api/v1/history?player={}&rated=true", p[1].name),
        Some(&p[1].token),
    );
    assert_eq!(a.json()["games"], json!([]));
    assert_eq!(s.count("SELECT count(*) AS n FROM ratings"), 0);
}

fn me_won(s: &TestServer, user: &User) -> i64 {
    profile(s, user, &user.name)["records"][0]["won"]
        .as_i64()
        .unwrap_or(-1)
}

/// A four-player game counts as the six pairwise results, all rated at once: every player's new
/// rating is Glicko-2's over their three results, against the ratings from before the game.
fn a_four_player_game_is_rated_pairwise(db: Db) {
    let Some(s) = server(db, |_| {}) else { return };
    let p = users(&s, "four", 4);
    let id = s.started_game("keltis", &p);
    // A few turns, so that totals differ; then three players resign (the last one wins).
    for _ in 0..6 {
        s.finish_turn(id, &p);
    }
    for user in &p[1..] {
        resign(&s, id, user);
    }
    let st = standings(&s, id, &p[0]);
    let seats: Vec<RatedSeat> = st.iter().map(|&x| newcomer(x)).collect();
    let expected = rate_game(&seats, 0, &RatingParameters::default());
    for (seat, user) in p.iter().enumerate() {
        assert_rating(&profile(&s, &p[0], &user.name), "keltis", expected[seat]);
    }
    // The winner beat all three; each of the others gained against anyone they finished ahead of.
    assert!(expected[0].rating > 1500.0);
    let a = s.get("/api/v1/history?players=4", Some(&p[0].token));
    let game = &a.json()["games"][0];
    assert_eq!(game["id"], id);
    assert_eq!(game["seats"][0]["place"], 1);
    assert_eq!(game["seats"][0]["outcome"], "won");
    for seat in 1..4 {
        assert_eq!(game["seats"][seat]["outcome"], "lost");
        assert!(game["seats"][seat]["place"].as_i64() > Some(1));
    }
}

/// Three games of one player end at the same moment: each update starts from the one before it
/// (no lost update), whatever order they commit in.
fn concurrent_game_ends_of_one_player_apply_every_update(db: Db) {
    let Some(s) = server(db, |_| {}) else { return };
    let hub = s.register("hub");
    let rivals = users(&s, "rival", 3);
    let games: Vec<i64> = rivals
        .iter()
        .map(|r| s.started_game("keltis-card", &[hub.clone(), r.clone()]))
        .collect();
    let barrier = std::sync::Barrier::new(rivals.len());
    std::thread::scope(|scope| {
        for (id, rival) in games.iter().zip(&rivals) {
            let (s, barrier) = (&s, &barrier);
            scope.spawn(move || {
                barrier.wait();
                resign(s, *id, rival);
            });
        }
    });
    let me = profile(&s, &hub, "hub");
    let r = rating_in(&me, "keltis-card").expect("rated");
    assert_eq!(r["rated_games"], 3);
    let changes = r["changes"].as_array().expect("changes");
    assert_eq!(changes.len(), 3);
    // Newest first: each change starts where the one before it ended.
    let mut after = 1500.0;
    for c in changes.iter().rev() {
        let before = figure(&c["rating"]) - figure(&c["change"]);
        assert!((before - after).abs() < 1e-6, "{changes:?}");
        after = figure(&c["rating"]);
    }
    assert!((figure(&r["rating"]) - after).abs() < 1e-9);
    assert_eq!(s.count("SELECT count(*) AS n FROM game_results"), 6);
}

/// Leaderboards list established ratings only, best first, page by page; the history filters
/// and pages; bad queries get clear errors.
fn leaderboards_and_history_filter_and_page(db: Db) {
    // Everyone is established after one game here, so that the board has entries.
    let Some(s) = server(db, |c| c.rating_provisional_deviation = 400.0) else {
        return;
    };
    let p = users(&s, "board", 4);
    let mut ids = Vec::new();
    // board0 beats everyone; board1 beats board2 and board3; board2 beats board3.
    for (winner, loser) in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)] {
        let id = s.started_game("keltis-card", &[p[winner].clone(), p[loser].clone()]);
        s.clock.advance(60_000);
        resign(&s, id, &p[loser]);
        ids.push(id);
    }
    let a = s.get(
        "/api/v1/leaderboards/keltis-card?limit=3",
        Some(&p[0].token),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    let first = a.json();
    let names: Vec<&str> = first["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter_map(|e| e["user"].as_str())
        .collect();
    assert_eq!(names, vec!["board0", "board1", "board2"]);
    assert_eq!(first["entries"][2]["rank"], 3);
    let cursor = first["next_cursor"].as_str().expect("a next page");
    let a = s.get(
        &format!("/api/v1/leaderboards/keltis-card?limit=3&cursor={cursor}"),
        Some(&p[0].token),
    );
    let second = a.json();
    assert_eq!(second["entries"][0]["user"], "board3");
    assert_eq!(second["entries"][0]["rank"], 4);
    assert!(second["next_cursor"].is_null());
    // Other variants have no one yet; unknown ones are not found.
    let a = s.get("/api/v1/leaderboards/keltis", Some(&p[0].token));
    assert_eq!(a.json()["entries"], json!([]));
    let a = s.get("/api/v1/leaderboards/chess", Some(&p[0].token));
    assert_eq!((a.status, a.code()), (404, "not_found".into()));
    let a = s.get(
        "/api/v1/leaderboards/keltis-card?cursor=nonsense",
        Some(&p[0].token),
    );
    assert_eq!(a.status, 400, "{}", a.text);

    // History: every game, newest first, page by page.
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(c) => format!("/api/v1/history?limit=4&cursor={c}"),
            None => "/api/v1/history?limit=4".to_string(),
        };
        let page = s.get(&path, Some(&p[0].token)).json();
        seen.extend(
            page["games"]
                .as_array()
                .expect("games")
                .iter()
                .filter_map(|g| g["id"].as_i64()),
        );
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    let newest_first: Vec<i64> = ids.iter().rev().copied().collect();
    assert_eq!(seen, newest_first);
    let count = |query: &str| {
        let a = s.get(&format!("/api/v1/history?{query}"), Some(&p[0].token));
        assert_eq!(a.status, 200, "{query}: {}", a.text);
        a.json()["games"].as_array().map_or(0, Vec::len)
    };
    assert_eq!(count("player=board1"), 3);
    assert_eq!(count("player=board1&result=won"), 2);
    assert_eq!(count("player=board1&result=lost"), 1);
    assert_eq!(count("player=board3&result=won"), 0);
    assert_eq!(count("variant=keltis-card&players=2"), 6);
    assert_eq!(count("variant=keltis"), 0);
    // Without a player: the games someone won, the drawn ones.
    assert_eq!(count("result=won"), 6);
    assert_eq!(count("result=lost"), 6);
    assert_eq!(count("result=drawn"), 0);
    assert_eq!(count("players=3"), 0);
    let third_end = s.get("/api/v1/history", Some(&p[0].token)).json()["games"][3]["ended_at"]
        .as_i64()
        .expect("ended_at");
    assert_eq!(count(&format!("since={third_end}")), 4);
    assert_eq!(count(&format!("until={third_end}")), 2);
    for (query, status, code) in [
        ("player=nobody_here", 404, "not_found"),
        ("limit=0", 400, "invalid_query"),
        ("players=7", 400, "invalid_query"),
        ("cursor=12", 400, "invalid_query"),
        ("variant=chess", 400, "invalid_query"),
    ] {
        let a = s.get(&format!("/api/v1/history?{query}"), Some(&p[0].token));
        assert_eq!(
            (a.status, a.code()),
            (status, code.to_string()),
            "{query}: {}",
            a.text
        );
    }
    let a = s.get("/api/v1/players/nobody_here", Some(&p[0].token));
    assert_eq!((a.status, a.code()), (404, "not_found".into()));
    // Profiles and lists need a token, like the rest of the API.
    assert_eq!(s.get("/api/v1/leaderboards/keltis", None).status, 401);
}

on_both_databases!(
    a_timeout_is_a_rated_loss,
    a_rated_game_updates_both_ratings_once,
    a_casual_game_changes_no_rating,
    a_four_player_game_is_rated_pairwise,
    concurrent_game_ends_of_one_player_apply_every_update,
    leaderboards_and_history_filter_and_page,
);
