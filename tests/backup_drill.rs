//! The backup drill: tables play on the `keltis` binary, a backup is taken in the middle of play
//! (`keltis backup` on SQLite, `pg_dump` on PostgreSQL), play goes on, the server is stopped, the
//! backup restored (`keltis restore`, `pg_restore`) and the server started on it. Every event
//! the tables had before the backup began is there, as it was; play continues to the end; and
//! every finished game's record, replayed from its log, ends where the stored state does. Then
//! the guards: a restore refused while the server runs and over a database without `--force`,
//! a binary that meets a database migrated by a newer version refuses to start and changes
//! nothing.

use crate::support;

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::blocking::Client;
use serde_json::Value;
use support::drill::{play, serve};
use support::players::users;
use support::{Db, User};

const TABLES: usize = 6;

/// The server's process, killed when the test ends, passed or not.
struct Serving(std::process::Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn keltis(args: &[&str], database_url: &str, data_dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_keltis"))
        .args(args)
        .env("DATABASE_URL", database_url)
        .env("KELTIS_DATA_DIR", data_dir)
        .env("KELTIS_JWT_SECRET", support::SECRET)
        .output()
        .expect("keltis runs")
}

fn get(client: &Client, base: &str, path: &str, user: &User) -> Value {
    client
        .get(format!("{base}/api/v1{path}"))
        .bearer_auth(&user.token)
        .send()
        .and_then(|r| r.json())
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `pg_dump` or `pg_restore` on the test's database; panics with its output if it fails.
fn pg(tool: &str, args: &[&str]) {
    let out = Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{tool}: {e}"));
    assert!(
        out.status.success(),
        "{tool}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn a_backup_taken_during_play_restores_every_move_made_before_it(db: Db) {
    let Some(setup) = support::spawn(db, |_| {}) else {
        eprintln!("TEST_DATABASE_URL not set: PostgreSQL scenario skipped");
        return;
    };
    let watcher = setup.register("watcher");
    let tables: Vec<(i64, Vec<User>)> = (0..TABLES)
        .map(|t| {
            let p = users(&setup, &format!("backup{t}_"), 2);
            // The base game: long enough that play goes on well past the backup.
            (setup.started_game("keltis", &p), p)
        })
        .collect();
    setup.stop();
    let url = setup.database_url.clone();
    let work = std::env::temp_dir().join(format!("keltis-backup-{db:?}-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("work dir");
    let backup = work.join("backup.file");
    let data_dir = work.join("data");
    let (child, base) = serve(&url, &data_dir);
    let mut child = Serving(child);
    let client = Client::new();

    let acked = Arc::new(AtomicUsize::new(0));
    let tables = Arc::new(tables);
    let spawn_players = |base: &str| -> Vec<std::thread::JoinHandle<Vec<(i64, Value)>>> {
        (0..TABLES)
            .map(|t| {
                let (base, acked, tables) = (base.to_string(), acked.clone(), tables.clone());
                std::thread::spawn(move || {
                    let (id, p) = &tables[t];
                    play(&base, *id, p, &acked)
                })
            })
            .collect()
    };
    let players = spawn_players(&base);
    let wait_acked = |n: usize| {
        let until = Instant::now() + Duration::from_secs(60);
        while acked.load(Ordering::Relaxed) < n && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        acked.load(Ordering::Relaxed)
    };
    assert!(wait_acked(30) >= 30, "the tables did not start playing");
    // What every table had before the backup began: its events as its first player saw them.
    let before: Vec<Vec<Value>> = tables
        .iter()
        .map(|(id, p)| {
            get(&client, &base, &format!("/games/{id}/events"), &p[0])
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .collect();
    let backup_text = backup.to_string_lossy().into_owned();
    match db {
        Db::Sqlite => {
            let out = keltis(&["backup", "--to", &backup_text], &url, &data_dir);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            // Never over a file.
            let out = keltis(&["backup", "--to", &backup_text], &url, &data_dir);
            assert!(!out.status.success());
            assert!(String::from_utf8_lossy(&out.stderr).contains("exists already"));
        }
        Db::Postgres => pg("pg_dump", &["-Fc", "-f", &backup_text, &url]),
    }
    let at_backup = acked.load(Ordering::Relaxed);
    assert!(
        wait_acked(at_backup + 30) > at_backup,
        "play did not go on after the backup"
    );
    if db == Db::Sqlite {
        // No restore under a running server.
        let out = keltis(
            &["restore", "--from", &backup_text, "--force"],
            &url,
            &data_dir,
        );
        assert!(!out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("in use"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    child.0.kill().expect("stop the server");
    let _ = child.0.wait();
    for p in players {
        p.join().expect("table thread");
    }

    match db {
        Db::Sqlite => {
            let out = keltis(&["restore", "--from", &backup_text], &url, &data_dir);
            assert!(
                !out.status.success(),
                "a database is there: --force is asked for"
            );
            assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
            let out = keltis(
                &["restore", "--from", &backup_text, "--force"],
                &url,
                &data_dir,
            );
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        Db::Postgres => {
            // A restore into an empty database of the same name.
            let (server, name) = url.rsplit_once('/').expect("a database name");
            let admin = std::env::var("TEST_DATABASE_URL").expect("TEST_DATABASE_URL");
            pg(
                "psql",
                &[&admin, "-qc", &format!("DROP DATABASE {name} WITH (FORCE)")],
            );
            pg("psql", &[&admin, "-qc", &format!("CREATE DATABASE {name}")]);
            pg(
                "pg_restore",
                &[
                    "--no-owner",
                    "-d",
                    &format!("{server}/{name}"),
                    &backup_text,
                ],
            );
        }
    }

    let (again, base) = serve(&url, &data_dir);
    let _again = Serving(again);
    let mut finished = 0;
    for ((id, p), had) in tables.iter().zip(&before) {
        let events = get(&client, &base, &format!("/games/{id}/events"), &p[0]);
        let events = events.as_array().cloned().unwrap_or_default();
        assert!(events.len() >= had.len(), "game {id} lost events");
        assert_eq!(
            &events[..had.len()],
            &had[..],
            "game {id}'s events before the backup"
        );
        // Play goes on from the backup's state to the end.
        let view = get(&client, &base, &format!("/games/{id}"), &p[0]);
        if view["status"] == "active" {
            play(&base, *id, p, &AtomicUsize::new(0));
        }
        let stored = get(&client, &base, &format!("/games/{id}"), &watcher);
        assert_eq!(stored["status"], "over", "game {id}");
        // The record, replayed from the log, ends where the stored state is.
        let record = get(&client, &base, &format!("/games/{id}/record"), &watcher);
        let steps = record["decisions"].as_array().map(Vec::len).unwrap_or(0);
        let last = get(
            &client,
            &base,
            &format!("/games/{id}/record/steps/{steps}"),
            &watcher,
        );
        assert_eq!(
            last["view"], stored["state"],
            "game {id}: replay and stored state"
        );
        finished += 1;
    }
    assert_eq!(finished, TABLES);
    let _ = std::fs::remove_dir_all(&work);
}

/// A binary that meets a database migrated by a newer version refuses to start, says why, and
/// changes nothing.
fn a_database_from_a_newer_version_is_refused(db: Db) {
    let Some(s) = support::spawn(db, |_| {}) else {
        eprintln!("TEST_DATABASE_URL not set: PostgreSQL scenario skipped");
        return;
    };
    let anna = s.register("anna");
    s.stop();
    s.execute_sql("INSERT INTO __diesel_schema_migrations (version) VALUES ('29990101000001')");
    let count = |sql: &str| s.count(sql);
    let before = (
        count("SELECT COUNT(*) AS n FROM __diesel_schema_migrations"),
        count("SELECT COUNT(*) AS n FROM users"),
    );
    let dir = std::env::temp_dir().join(format!("keltis-newer-{db:?}-{}", std::process::id()));
    for args in [&["migrate"][..], &["serve", "--bind", "127.0.0.1:0"][..]] {
        let out = keltis(args, &s.database_url, &dir);
        assert!(!out.status.success(), "{args:?} started");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("migrated by a newer version of keltis")
                && said.contains("29990101000001"),
            "{args:?}: {said}"
        );
    }
    let after = (
        count("SELECT COUNT(*) AS n FROM __diesel_schema_migrations"),
        count("SELECT COUNT(*) AS n FROM users"),
    );
    assert_eq!(before, after, "nothing changed");
    assert_eq!(
        count(&format!(
            "SELECT COUNT(*) AS n FROM users WHERE id = {}",
            anna.id
        )),
        1
    );
    let _ = std::fs::remove_dir_all(&dir);
}

on_both_databases!(
    a_backup_taken_during_play_restores_every_move_made_before_it,
    a_database_from_a_newer_version_is_refused,
);
