//! Live updates: server-sent event streams of a game and of a user, stream tickets, long polls
//! woken by commits, heartbeats, graceful stops, and two server instances on one PostgreSQL
//! waking each other's waiters. On SQLite, and on PostgreSQL when `TEST_DATABASE_URL` is set.

use crate::support;

use serde_json::{json, Value};
use support::sse::{Frame, Sse};
use support::{Db, TestServer, User};

fn two_players(s: &TestServer, prefix: &str) -> Vec<User> {
    (0..2)
        .map(|i| s.register(&format!("{prefix}{i}")))
        .collect()
}

fn card_game(s: &TestServer, players: &[User]) -> i64 {
    s.started_with(json!({"variant": "keltis-card", "players": 2}), players)
}

fn version(s: &TestServer, id: i64, user: &User) -> i64 {
    s.game(id, user)["version"].as_i64().unwrap()
}

/// Read events until `last`; each event's id must be the one after the previous.
fn read_until(stream: &mut Sse, first: i64, last: i64) -> Vec<Value> {
    let mut got = Vec::new();
    let mut expected = first;
    while expected <= last {
        let (id, kind, data) = stream.event().expect("the stream goes on");
        assert_eq!(id, expected, "each event once, in order");
        assert_eq!(data["seq"], id);
        assert_eq!(data["kind"], kind.as_str());
        got.push(data);
        expected += 1;
    }
    got
}

fn ticket(s: &TestServer, user: &User, body: Value) -> String {
    let a = s.post("/api/v1/stream-tickets", Some(&user.token), body);
    assert_eq!(a.status, 201, "{}", a.text);
    a.json()["ticket"].as_str().unwrap().to_string()
}

/// Each seat's stream carries every event once, in order, redacted as that seat's `events`;
/// a reconnect with `Last-Event-ID` resumes without a gap.
fn a_game_stream_carries_each_event_once_redacted_and_resumes(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players = two_players(&s, "streamer");
    let id = card_game(&s, &players);
    let path = format!("/api/v1/games/{id}/stream");
    let mut first = Sse::open(&s.url(&path), Some(&players[0].token), None);
    let t = ticket(&s, &players[1], json!({"game_id": id}));
    let mut second = Sse::open(&s.url(&format!("{path}?ticket={t}")), None, None);
    for _ in 0..4 {
        s.finish_turn(id, &players);
    }
    let v1 = version(&s, id, &players[0]);
    let seen_first = read_until(&mut first, 1, v1);
    let seen_second = read_until(&mut second, 1, v1);
    assert_eq!(seen_first, s.events(id, &players[0]), "as events shows it");
    assert_eq!(seen_second, s.events(id, &players[1]), "as events shows it");
    assert_ne!(seen_first, seen_second, "each seat sees its own hand only");
    // The first client drops; it had handled all but the last two events.
    drop(first);
    for _ in 0..2 {
        s.finish_turn(id, &players);
    }
    let v2 = version(&s, id, &players[0]);
    let mut again = Sse::open(&s.url(&path), Some(&players[0].token), Some(v1 - 2));
    let resumed = read_until(&mut again, v1 - 1, v2);
    assert_eq!(resumed, s.events(id, &players[0])[(v1 - 2) as usize..]);
    // The other stream, never dropped, goes on too.
    read_until(&mut second, v1 + 1, v2);
}

/// The user stream announces the game's start and "your turn", across games, and resumes.
fn the_user_stream_announces_your_turn(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players = two_players(&s, "noticed");
    let t = ticket(&s, &players[0], json!({}));
    let mut mine = Sse::open(&s.url(&format!("/api/v1/me/stream?ticket={t}")), None, None);
    let id = card_game(&s, &players);
    let (first_id, kind, data) = mine.event().expect("a notice");
    assert_eq!(kind, "game_started");
    assert_eq!(data["notice"]["game_id"], id);
    // Play until it is the first player's turn.
    let mut to_act = s.game(id, &players[0])["state"]["to_act"].clone();
    if to_act != 0 {
        s.finish_turn(id, &players);
        to_act = s.game(id, &players[0])["state"]["to_act"].clone();
    }
    assert_eq!(to_act, 0);
    let (turn_id, kind, data) = mine.event().expect("a notice");
    assert_eq!(kind, "your_turn");
    assert_eq!(data["notice"]["game_id"], id);
    assert_eq!(data["id"], turn_id);
    assert!(turn_id > first_id);
    // Resume after the first notice: the second comes again, nothing before it.
    let mut again = Sse::open(
        &s.url("/api/v1/me/stream"),
        Some(&players[0].token),
        Some(first_id),
    );
    let (id_again, kind_again, _) = again.event().expect("a notice");
    assert_eq!((id_again, kind_again.as_str()), (turn_id, "your_turn"));
}

/// A ticket opens the one stream it was made for, and nothing else; streams refuse callers
/// without a token or ticket.
fn a_stream_ticket_opens_its_own_stream_only(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players = two_players(&s, "ticketed");
    let id = card_game(&s, &players);
    let other = card_game(&s, &players);
    let t = ticket(&s, &players[0], json!({"game_id": id}));
    let status = |path: String| Sse::request(&s.url(&path), None, None).status().as_u16();
    assert_eq!(
        status(format!("/api/v1/games/{other}/stream?ticket={t}")),
        401
    );
    assert_eq!(status(format!("/api/v1/me/stream?ticket={t}")), 401);
    assert_eq!(
        status(format!("/api/v1/games/{id}/stream?ticket=forged")),
        401
    );
    assert_eq!(status(format!("/api/v1/games/{id}/stream")), 401);
    let user_ticket = ticket(&s, &players[0], json!({}));
    assert_eq!(
        status(format!("/api/v1/games/{id}/stream?ticket={user_ticket}")),
        401
    );
    let mut ok = Sse::open(
        &s.url(&format!("/api/v1/games/{id}/stream?ticket={t}")),
        None,
        None,
    );
    assert_eq!(ok.event().expect("an event").0, 1);
    // Bad input: clear errors.
    let a = s.post(
        "/api/v1/stream-tickets",
        Some(&players[0].token),
        json!({"game_id": "seven"}),
    );
    assert!(a.status == 400 || a.status == 422, "{}", a.text);
    let mut req = s
        .client
        .get(s.url(&format!("/api/v1/games/{id}/stream")))
        .bearer_auth(&players[0].token)
        .header("Last-Event-ID", "yesterday");
    req = req.timeout(std::time::Duration::from_secs(10));
    let a = s.send(req);
    assert_eq!((a.status, a.code()), (400, "invalid_query".into()));
    let a = s.get("/api/v1/games/999999/stream", Some(&players[0].token));
    assert_eq!(a.status, 404, "{}", a.text);
}

/// A long poll is answered with the move that woke it.
fn a_long_poll_is_woken_by_a_move(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players = two_players(&s, "poller");
    let id = card_game(&s, &players);
    let v = version(&s, id, &players[0]);
    let poll = {
        let url = s.url(&format!("/api/v1/games/{id}/events?after={v}&wait=30"));
        let token = players[1].token.clone();
        let client = s.client.clone();
        std::thread::spawn(move || {
            let r = client.get(url).bearer_auth(token).send().expect("poll");
            r.json::<Value>().expect("JSON")
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(300));
    s.finish_turn(id, &players);
    let got = poll.join().expect("the poll answers");
    assert_eq!(got[0]["seq"], v + 1, "{got}");
}

/// A silent stream sends heartbeat comments; stopping the server ends its streams.
fn streams_beat_and_end_when_the_server_stops(db: Db) {
    let s = support::spawn(db, |c| c.stream_heartbeat_seconds = 1).expect("a database");
    let players = two_players(&s, "beating");
    let id = card_game(&s, &players);
    let mut stream = Sse::open(
        &s.url(&format!("/api/v1/games/{id}/stream")),
        Some(&players[0].token),
        None,
    );
    assert_eq!(stream.frame(), Some(Frame::Comment("open".into())));
    loop {
        match stream.frame().expect("the stream goes on") {
            Frame::Comment(c) => {
                assert_eq!(c, "heartbeat");
                break;
            }
            Frame::Event { .. } => continue,
        }
    }
    s.stop();
    while let Some(frame) = stream.frame() {
        assert!(
            matches!(frame, Frame::Comment(_)),
            "no event after the stop"
        );
    }
}

/// An event committed without a wake-up (an instance stopped between its commit and its NOTIFY;
/// here written behind the server's back) still reaches an open stream, after its fourth
/// heartbeat at most (the stream reads again every four).
fn a_stream_looks_again_every_few_heartbeats(db: Db) {
    let s = support::spawn(db, |c| c.stream_heartbeat_seconds = 1).expect("a database");
    let players = two_players(&s, "unwoken");
    let id = card_game(&s, &players);
    let v = version(&s, id, &players[0]);
    let mut stream = Sse::open(
        &s.url(&format!("/api/v1/games/{id}/stream?after={v}")),
        Some(&players[1].token),
        None,
    );
    assert_eq!(stream.frame(), Some(Frame::Comment("open".into())));
    // A copy of the last event as the next one: nobody is woken by it.
    s.execute_sql(&format!(
        "INSERT INTO game_events (game_id, seq, kind, payload, created_at) \
         SELECT game_id, seq + 1, kind, payload, created_at FROM game_events \
         WHERE game_id = {id} AND seq = {v}"
    ));
    let mut heartbeats = 0;
    loop {
        match stream.frame().expect("the stream goes on") {
            Frame::Comment(c) => {
                assert_eq!(c, "heartbeat");
                heartbeats += 1;
                assert!(heartbeats <= 4, "no look after four heartbeats");
            }
            Frame::Event { id: seq, .. } => {
                assert_eq!(seq, Some((v + 1).to_string()));
                break;
            }
        }
    }
}

/// `/metrics`: requests by route and status, accepted decisions, open streams, the outbox, the
/// pool, in the Prometheus text format.
fn metrics_show_requests_decisions_streams_and_the_outbox(db: Db) {
    let sqlite = db == Db::Sqlite;
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players = two_players(&s, "measured");
    let id = card_game(&s, &players);
    let mut stream = Sse::open(
        &s.url(&format!("/api/v1/games/{id}/stream")),
        Some(&players[0].token),
        None,
    );
    assert_eq!(stream.event().expect("an event").0, 1);
    s.finish_turn(id, &players);
    let a = s.get("/metrics", None);
    assert_eq!(a.status, 200);
    let text = a.text;
    let value = |line_start: &str| -> f64 {
        text.lines()
            .find(|l| l.starts_with(line_start))
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {line_start} in {text}"))
    };
    assert!(value("keltis_decisions_accepted_total") >= 1.0);
    assert!(
        value(
            r#"keltis_http_requests_total{method="POST",route="/api/v1/games/{id}/decisions",status="200"}"#
        ) >= 1.0
    );
    assert_eq!(value("keltis_open_streams"), 1.0);
    assert!(value("keltis_waiters") >= 1.0);
    assert!(
        value("keltis_outbox_notifications_pending") >= 1.0,
        "no relay: kept"
    );
    assert_eq!(value("keltis_outbox_webhooks_pending"), 0.0);
    assert!(value("keltis_db_pool_connections") >= 1.0);
    assert!(text.contains("keltis_http_request_duration_seconds_bucket"));
    assert!(
        !text.contains(&format!("/api/v1/games/{id}/")),
        "routes, not paths"
    );
    // SQLite's one write turn (issue 50): how long it was held, committing included, by how
    // many writes in how many commits. PostgreSQL has no such turn, and no such series.
    if sqlite {
        let writes = value("keltis_sqlite_writes_total");
        let commits = value("keltis_sqlite_commits_total");
        let held = value("keltis_sqlite_write_turn_held_seconds_total");
        let committing = value("keltis_sqlite_write_turn_commit_seconds_total");
        assert!(writes >= 2.0, "the game's creation and its moves: {writes}");
        assert!(commits >= 1.0 && commits <= writes, "{commits} of {writes}");
        assert!(held > 0.0 && committing > 0.0 && committing <= held);
        // One write in 16, the first among them, is sampled for its holder's time on a core.
        let sampled = value("keltis_sqlite_write_turn_sampled_held_seconds_total");
        let on_cpu = value("keltis_sqlite_write_turn_sampled_cpu_seconds_total");
        assert!(sampled > 0.0 && sampled <= held, "{sampled} of {held}");
        assert!(on_cpu > 0.0 && on_cpu <= sampled, "{on_cpu} of {sampled}");
        // At the default `full` SQLite syncs inside its commits: none apart.
        assert_eq!(value("keltis_sqlite_log_syncs_total"), 0.0);
    } else {
        assert!(!text.contains("keltis_sqlite_"), "{text}");
    }
}

on_both_databases!(
    metrics_show_requests_decisions_streams_and_the_outbox,
    a_game_stream_carries_each_event_once_redacted_and_resumes,
    the_user_stream_announces_your_turn,
    a_stream_ticket_opens_its_own_stream_only,
    a_long_poll_is_woken_by_a_move,
    streams_beat_and_end_when_the_server_stops,
    a_stream_looks_again_every_few_heartbeats,
);

/// Two server instances on one PostgreSQL: a move posted to one wakes a stream and a long poll
/// on the other (LISTEN/NOTIFY).
#[test]
#[cfg_attr(not(postgres_tests), ignore = "PostgreSQL: set TEST_DATABASE_URL")]
fn a_move_on_one_instance_wakes_waiters_on_another() {
    let (a, b) = support::two_instances().expect("TEST_DATABASE_URL");
    let players = two_players(&a, "instance");
    let id = card_game(&a, &players);
    let v = version(&a, id, &players[0]);
    let mut stream = Sse::open(
        &b.url(&format!("/api/v1/games/{id}/stream?after={v}")),
        Some(&players[1].token),
        None,
    );
    let poll = {
        let url = b.url(&format!("/api/v1/games/{id}/events?after={v}&wait=30"));
        let token = players[1].token.clone();
        let client = b.client.clone();
        std::thread::spawn(move || {
            let r = client.get(url).bearer_auth(token).send().expect("poll");
            r.json::<Value>().expect("JSON")
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(300));
    a.finish_turn(id, &players);
    let got = poll.join().expect("the poll answers");
    assert_eq!(got[0]["seq"], v + 1, "{got}");
    let (seq, _, _) = stream.event().expect("an event");
    assert_eq!(seq, v + 1);
}
