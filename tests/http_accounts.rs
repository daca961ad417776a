//! Accounts as an operator needs them: names unique whatever their case (and a migration that
//! keeps everyone's games when old names collide), refresh-token reuse revoking its session,
//! signing out of every device, idempotency answers that expire and tables that are swept.
//! On SQLite, and on PostgreSQL when `TEST_DATABASE_URL` is set.

use crate::support;

use diesel::{Connection, RunQueryDsl};
use serde_json::json;
use support::{Db, TestServer};

fn server(db: Db) -> TestServer {
    support::spawn(db, |_| {}).expect("a database for this test")
}

fn names_are_unique_whatever_their_case(db: Db) {
    let s = server(db);
    let alice = s.register("Alice");
    for taken in ["alice", "ALICE", "aLiCe"] {
        let a = s.post(
            "/api/v1/auth/register",
            None,
            json!({"name": taken, "password": "correct horse"}),
        );
        assert_eq!((a.status, a.code()), (409, "name_taken".into()), "{taken}");
    }
    // Any case logs in to the one account, which keeps the spelling it registered.
    let a = s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": "ALICE", "password": "correct horse"}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["user_id"], alice.id);
    assert_eq!(a.json()["name"], "Alice");
    // Invitations find the user whatever the case.
    let host = s.register("host");
    let g = s.post(
        "/api/v1/games",
        Some(&host.token),
        json!({"variant": "keltis", "players": 3, "invite_only": true}),
    );
    let id = g.json()["id"].as_i64().unwrap();
    let a = s.post(
        &format!("/api/v1/games/{id}/invites"),
        Some(&host.token),
        json!({"user": "alice"}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    let a = s.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&alice.token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    // Bot names are kept whatever their case.
    let a = s.post(
        "/api/v1/auth/register",
        None,
        json!({"name": "Bot-Mine", "password": "correct horse"}),
    );
    assert_eq!((a.status, a.code()), (422, "invalid_name".into()));
}

fn refresh(s: &TestServer, token: &str) -> support::Answer {
    s.post(
        "/api/v1/auth/refresh",
        None,
        json!({"refresh_token": token}),
    )
}

fn a_reused_refresh_token_signs_its_whole_session_out(db: Db) {
    let s = server(db);
    let u = s.register("victim");
    let first = refresh(&s, &u.refresh_token);
    assert_eq!(first.status, 200, "{}", first.text);
    let child = first.json();
    let child_refresh = child["refresh_token"].as_str().unwrap().to_string();
    let child_access = child["access_token"].as_str().unwrap().to_string();
    assert_eq!(s.get("/api/v1/me", Some(&child_access)).status, 200);
    // Someone presents the used token again: the session is revoked...
    let reuse = refresh(&s, &u.refresh_token);
    assert_eq!((reuse.status, reuse.code()), (401, "unauthorized".into()));
    // ...so the token issued from it no longer refreshes, and its access tokens stop working.
    let a = refresh(&s, &child_refresh);
    assert_eq!(a.status, 401, "{}", a.text);
    let a = s.get("/api/v1/me", Some(&child_access));
    assert_eq!((a.status, a.code()), (401, "unauthorized".into()));
    assert_eq!(s.get("/api/v1/me", Some(&u.token)).status, 401);
    // Another device of the same user is not touched.
    let other = s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": "victim", "password": "correct horse"}),
    );
    assert_eq!(other.status, 200);
    let other_access = other.json()["access_token"].as_str().unwrap().to_string();
    assert_eq!(s.get("/api/v1/me", Some(&other_access)).status, 200);
}

fn signing_out_everywhere_stops_every_token(db: Db) {
    let s = server(db);
    let u = s.register("traveller");
    let mut devices = vec![(u.token.clone(), u.refresh_token.clone())];
    for agent in ["phone", "tablet"] {
        let a = s.send(
            s.client
                .post(s.url("/api/v1/auth/login"))
                .header("User-Agent", agent)
                .json(&json!({"name": "traveller", "password": "correct horse"})),
        );
        assert_eq!(a.status, 200);
        let b = a.json();
        devices.push((
            b["access_token"].as_str().unwrap().into(),
            b["refresh_token"].as_str().unwrap().into(),
        ));
    }
    let listed = s.get("/api/v1/me/sessions", Some(&devices[2].0)).json();
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), 3, "{listed:?}");
    assert_eq!(listed.iter().filter(|d| d["current"] == true).count(), 1);
    assert!(listed.iter().any(|d| d["user_agent"] == "phone"));
    // Sign one device out, then all.
    let phone = listed.iter().find(|d| d["user_agent"] == "phone").unwrap()["id"]
        .as_i64()
        .unwrap();
    let a = s.send(
        s.client
            .delete(s.url(&format!("/api/v1/me/sessions/{phone}")))
            .bearer_auth(&devices[0].0),
    );
    assert_eq!(a.status, 204, "{}", a.text);
    assert_eq!(s.get("/api/v1/me", Some(&devices[1].0)).status, 401);
    assert_eq!(s.get("/api/v1/me", Some(&devices[0].0)).status, 200);
    let again = s.send(
        s.client
            .delete(s.url(&format!("/api/v1/me/sessions/{phone}")))
            .bearer_auth(&devices[0].0),
    );
    assert_eq!((again.status, again.code()), (404, "not_found".into()));
    let a = s.send(
        s.client
            .delete(s.url("/api/v1/me/sessions"))
            .bearer_auth(&devices[0].0),
    );
    assert_eq!(a.status, 204, "{}", a.text);
    for (access, refresh_token) in &devices {
        assert_eq!(s.get("/api/v1/me", Some(access)).status, 401);
        assert_eq!(refresh(&s, refresh_token).status, 401);
    }
    // Logging in again works.
    let a = s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": "traveller", "password": "correct horse"}),
    );
    assert_eq!(a.status, 200);
}

fn idempotency_answers_expire_and_old_rows_are_swept(db: Db) {
    let s = support::spawn(db, |c| c.maintenance_interval_seconds = 1).expect("server");
    let players = [s.register("keeper1"), s.register("keeper2")];
    let id = s.started_game("keltis-card", &players);
    let view = s.game(id, &players[0]);
    let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
    let me = s.game(id, &players[to_act]);
    let body = json!({
        "expected_version": me["version"],
        "decision": me["state"]["legal_decisions"][0],
    });
    let send = || {
        s.send(
            s.client
                .post(s.url(&format!("/api/v1/games/{id}/decisions")))
                .bearer_auth(&players[to_act].token)
                .header("Idempotency-Key", "move-1")
                .json(&body),
        )
    };
    assert_eq!(send().status, 200);
    let replay = send();
    assert_eq!(replay.status, 200);
    assert_eq!(replay.headers["idempotent-replayed"], "true");
    // A day later the key has expired: the same request is new again (and stale by now).
    let day = 25 * 3600 * 1000;
    s.execute_sql(&format!(
        "UPDATE idempotency_keys SET created_at = created_at - {day}"
    ));
    let late = send();
    assert_eq!((late.status, late.code()), (409, "stale_version".into()));
    // The sweeper deletes the expired answer, and refresh tokens past their expiry.
    s.execute_sql(&format!(
        "UPDATE refresh_tokens SET expires_at = expires_at - {}",
        31_i64 * 24 * 3600 * 1000
    ));
    let mut left = (usize::MAX, usize::MAX);
    for _ in 0..50 {
        left = (
            s.count("SELECT COUNT(*) AS n FROM idempotency_keys"),
            s.count("SELECT COUNT(*) AS n FROM refresh_tokens"),
        );
        if left == (0, 0) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    assert_eq!(left, (0, 0), "idempotency keys and refresh tokens left");
}

/// A database from before case-insensitive names, where `dana` and `Dana` both exist and play:
/// after the migration both accounts keep their seats; the newer is renamed `Dana-2`.
fn colliding_names_survive_the_migration(db: Db) {
    let dir = std::env::temp_dir().join(format!("keltis-migrate-{}-{db:?}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (url, admin) = match db {
        Db::Sqlite => (dir.join("old.sqlite3").to_string_lossy().into_owned(), None),
        Db::Postgres => {
            let admin = std::env::var("TEST_DATABASE_URL").expect("TEST_DATABASE_URL");
            let name = format!("keltis_migrate_{}", std::process::id());
            let mut c = diesel::PgConnection::establish(&admin).unwrap();
            diesel::sql_query(format!("DROP DATABASE IF EXISTS {name}"))
                .execute(&mut c)
                .unwrap();
            diesel::sql_query(format!("CREATE DATABASE {name}"))
                .execute(&mut c)
                .unwrap();
            let base = admin.rsplit_once('/').unwrap().0;
            (format!("{base}/{name}"), Some((admin, name)))
        }
    };
    let backend = if db == Db::Sqlite {
        "sqlite"
    } else {
        "postgres"
    };
    let mut sql = String::new();
    for m in ["2026-11-22-000001_initial", "2026-11-22-000002_bot_turns"] {
        let path = format!(
            "{}/migrations/{backend}/{m}/up.sql",
            env!("CARGO_MANIFEST_DIR")
        );
        sql.push_str(&std::fs::read_to_string(path).unwrap());
        sql.push('\n');
    }
    // What the server found in the database then: two users whose names differ in case, each
    // seated in a game.
    let hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$1pHMJ8qGxYrGQpqIX08sqE2a1gZdpVQZoFB0zT2tcxs";
    sql.push_str(&format!(
        "CREATE TABLE __diesel_schema_migrations (version VARCHAR(50) PRIMARY KEY NOT NULL, \
         run_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP);
         INSERT INTO __diesel_schema_migrations (version) VALUES ('20261122000001'), ('20261122000002');
         INSERT INTO users (name, password_hash, is_bot, created_at) VALUES ('dana', '{hash}', FALSE, 1), ('Dana', '{hash}', FALSE, 2);
         INSERT INTO games (variant, players, status, invite_only, created_by, created_at, updated_at, version, state_engine_version) VALUES ('keltis', 2, 'open', FALSE, 1, 1, 1, 0, 0), ('keltis', 2, 'open', FALSE, 2, 1, 1, 0, 0);
         INSERT INTO game_seats (game_id, seat, user_id) VALUES (1, 0, 1), (2, 0, 2);"
    ));
    match db {
        Db::Sqlite => {
            let mut c = diesel::SqliteConnection::establish(&url).unwrap();
            diesel::connection::SimpleConnection::batch_execute(&mut c, &sql).unwrap();
        }
        Db::Postgres => {
            let mut c = diesel::PgConnection::establish(&url).unwrap();
            diesel::connection::SimpleConnection::batch_execute(&mut c, &sql).unwrap();
        }
    }
    let url2 = url.clone();
    let s = support::spawn(Db::Sqlite, move |c| c.database_url = Some(url2)).expect("server");
    let names = support::database::texts_at(
        &url,
        "SELECT name AS t FROM users WHERE is_bot = FALSE ORDER BY id",
    );
    assert_eq!(names, ["dana", "Dana-2"]);
    let seats = support::database::count_at(&url, "SELECT COUNT(*) AS n FROM game_seats");
    assert_eq!(seats, 2, "nobody lost a game");
    drop(s);
    if let Some((admin, name)) = admin {
        let mut c = diesel::PgConnection::establish(&admin).unwrap();
        let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .execute(&mut c);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

on_both_databases!(
    names_are_unique_whatever_their_case,
    a_reused_refresh_token_signs_its_whole_session_out,
    signing_out_everywhere_stops_every_token,
    idempotency_answers_expire_and_old_rows_are_swept,
    colliding_names_survive_the_migration,
);

/// Two server instances on one PostgreSQL: each remembers the sessions it found live, and a
/// sign-out on one reaches the other through its listener (NOTIFY from the sessions trigger), so
/// the token stops working there too at once, not when the remembered entry would expire.
#[test]
#[cfg_attr(not(postgres_tests), ignore = "PostgreSQL: set TEST_DATABASE_URL")]
fn signing_out_on_one_instance_stops_the_token_on_another() {
    let (a, b) = support::two_instances().expect("TEST_DATABASE_URL");
    let u = a.register("wanderer");
    // Give b's listener time to connect (until then b reads every session), then let b
    // remember the session.
    std::thread::sleep(std::time::Duration::from_millis(300));
    for _ in 0..3 {
        assert_eq!(b.get("/api/v1/me", Some(&u.token)).status, 200);
    }
    let out = a.delete("/api/v1/me/sessions", Some(&u.token));
    assert_eq!(out.status, 204, "{}", out.text);
    assert_eq!(a.get("/api/v1/me", Some(&u.token)).status, 401);
    // The notification takes milliseconds; allow two seconds (the entry itself would be trusted
    // for 30).
    let refused = (0..40).any(|_| {
        let status = b.get("/api/v1/me", Some(&u.token)).status;
        if status != 401 {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        status == 401
    });
    assert!(
        refused,
        "the other instance still accepts a signed-out session"
    );
}
