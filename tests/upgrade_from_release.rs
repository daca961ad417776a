//! Upgrading from the last release: a database written by that release's binary (the fixtures in
//! `tests/fixtures/v0.1.0/`, made by `tests/fixtures/make_upgrade_fixture.py`, one per backend,
//! with finished games and games in progress) is opened by this binary, which migrates it at
//! start; its players log in with their passwords, the finished games keep their records, and the
//! games in progress play on to their end. On SQLite, and on PostgreSQL when
//! `TEST_DATABASE_URL` is set.

use crate::support;

use diesel::{Connection, RunQueryDsl};
use serde_json::{json, Value};
use support::{Db, TestServer};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/v0.1.0");

fn manifest() -> Value {
    let text = std::fs::read_to_string(format!("{FIXTURES}/manifest.json")).expect("the manifest");
    serde_json::from_str(&text).expect("JSON")
}

/// A server on a copy of the release's database.
fn upgraded(db: Db) -> Option<TestServer> {
    match db {
        Db::Sqlite => {
            let dir = std::env::temp_dir().join(format!(
                "keltis_upgrade_{}_{}",
                std::process::id(),
                support::smtp::free_port()
            ));
            std::fs::create_dir_all(&dir).expect("a folder");
            let file = dir.join("keltis.sqlite3");
            std::fs::copy(format!("{FIXTURES}/sqlite.sqlite3"), &file).expect("a copy");
            let url = file.to_string_lossy().into_owned();
            support::spawn(Db::Sqlite, move |c| c.database_url = Some(url))
        }
        Db::Postgres => {
            let admin_url = std::env::var("TEST_DATABASE_URL").ok()?;
            let name = format!(
                "keltis_upgrade_{}_{}",
                std::process::id(),
                support::smtp::free_port()
            );
            let mut admin = diesel::PgConnection::establish(&admin_url).expect("PostgreSQL");
            diesel::sql_query(format!("CREATE DATABASE {name}"))
                .execute(&mut admin)
                .expect("a database");
            let base = admin_url
                .rsplit_once('/')
                .map(|(b, _)| b)
                .unwrap_or(&admin_url);
            let url = format!("{base}/{name}");
            let dump =
                std::fs::read_to_string(format!("{FIXTURES}/postgres.sql")).expect("the dump");
            // psql's own commands (`\restrict`) are not SQL.
            let sql: String = dump
                .lines()
                .filter(|l| !l.starts_with('\\'))
                .collect::<Vec<_>>()
                .join("\n");
            let mut conn = diesel::PgConnection::establish(&url).expect("the new database");
            diesel::connection::SimpleConnection::batch_execute(&mut conn, &sql)
                .expect("the release's dump loads");
            drop(conn);
            support::spawn(Db::Postgres, move |c| c.database_url = Some(url))
        }
    }
}

fn an_upgraded_database_plays_on(db: Db) {
    let manifest = manifest();
    let Some(s) = upgraded(db) else { return };
    let tokens: Vec<String> = manifest["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|name| {
            let a = s.post(
                "/api/v1/auth/login",
                None,
                json!({"name": name, "password": manifest["password"]}),
            );
            assert_eq!(a.status, 200, "{name}: {}", a.text);
            a.json()["access_token"].as_str().unwrap().to_string()
        })
        .collect();
    let games = match db {
        Db::Sqlite => &manifest["sqlite_games"],
        Db::Postgres => &manifest["postgres_games"],
    };
    let mut played_on = 0;
    for game in games.as_array().unwrap() {
        let id = game["id"].as_i64().unwrap();
        let get = |token: &str| {
            let a = s.get(&format!("/api/v1/games/{id}"), Some(token));
            assert_eq!(a.status, 200, "{}", a.text);
            a.json()
        };
        let view = get(&tokens[0]);
        assert_eq!(view["status"], game["status"], "game {id}");
        assert_eq!(view["version"], game["version"], "game {id}");
        let mut decisions = game["decisions"].as_u64().unwrap() as usize;
        if game["status"] != "over" {
            played_on += 1;
            for n in 0..3000 {
                let view = get(&tokens[0]);
                if view["status"] == "over" {
                    break;
                }
                assert!(n < 2999, "game {id} does not end");
                let seat = view["state"]["to_act"].as_u64().unwrap() as usize;
                let mine = get(&tokens[seat]);
                let choice = support::towards_the_end(&mine, n);
                let a = s.post(
                    &format!("/api/v1/games/{id}/decisions"),
                    Some(&tokens[seat]),
                    json!({"expected_version": mine["version"], "decision": choice}),
                );
                assert_eq!(a.status, 200, "{}", a.text);
                decisions += 1;
            }
        }
        // Every game's record replays: the release's decisions and ours in one log.
        let record = s.get(&format!("/api/v1/games/{id}/record"), Some(&tokens[0]));
        assert_eq!(record.status, 200, "{}", record.text);
        assert_eq!(
            record.json()["decisions"].as_array().unwrap().len(),
            decisions,
            "game {id}"
        );
    }
    assert!(played_on >= 3, "the fixture holds games in progress");
    // What this version added is there, with its defaults.
    let settings = s.get("/api/v1/me/email", Some(&tokens[0]));
    assert_eq!(settings.status, 200, "{}", settings.text);
    assert_eq!(settings.json()["preferences"]["moves_by_reply"], false);
    let profile = s.get("/api/v1/players/ada", Some(&tokens[1]));
    assert_eq!(profile.status, 200, "{}", profile.text);
}

on_both_databases!(an_upgraded_database_plays_on);
