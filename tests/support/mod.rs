//! Starts the real server on a random port against a real database: a fresh SQLite file, or a
//! fresh PostgreSQL database under `TEST_DATABASE_URL`.

#![allow(dead_code)]

pub mod browser;
pub mod database;
pub mod drill;
pub mod events;
pub mod instances;
pub mod mail;
pub mod players;
pub mod proxy;
pub mod push;
pub mod races;
pub mod replies;
pub mod smtp;
pub mod sse;
pub mod webhook;

#[allow(unused_imports)]
pub use instances::{another_instance, second_instance, spawn, spawn_at, two_instances};

use std::time::Duration;

use diesel::{Connection, RunQueryDsl};
use reqwest::blocking::{Client, RequestBuilder, Response};
use serde_json::{json, Value};

pub const SECRET: &str = "test-secret-test-secret-test-secret-0123";
/// The servers' VAPID private key (every instance of a test signs with it).
pub const VAPID_KEY: &str = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Db {
    Sqlite,
    Postgres,
}

pub struct TestServer {
    /// Stopped when the test server is dropped: no worker may be inside a database call when
    /// the test process exits.
    workers: keltis::workers::Workers,
    stopper: keltis::startup::Stopper,
    /// The games' clock: tests move it forward (`clock.advance(ms)`).
    pub clock: keltis::clock::Clock,
    pub base: String,
    pub database_url: String,
    pub client: Client,
    dir: std::path::PathBuf,
    pg_database: Option<(String, String)>,
    /// Its share of PostgreSQL's connections, given back after the database is dropped.
    pg_connections: Option<instances::pg_budget::Share>,
}

fn unique(prefix: &str) -> String {
    let mut buf = [0u8; 6];
    getrandom::getrandom(&mut buf).expect("os randomness");
    format!("{prefix}_{}_{}", std::process::id(), hex::encode(buf))
}

/// One of `choices`, drawn with the test's own generator `rng` (a fixed seed replays a game).
pub fn pick<'a>(rng: &mut u64, choices: &'a [Value]) -> &'a Value {
    *rng = rng
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    &choices[(*rng >> 33) as usize % choices.len()]
}

/// A decision for the seat whose view this is that moves a game towards its end: the draw from
/// the deck when it is offered, else the `n`-th of the legal decisions (never a resignation).
pub fn towards_the_end(view: &Value, n: usize) -> Value {
    let legal: Vec<&Value> = view["state"]["legal_decisions"]
        .as_array()
        .expect("legal decisions")
        .iter()
        .filter(|d| d["type"] != "resign")
        .collect();
    legal
        .iter()
        .find(|d| d["type"] == "draw_deck")
        .copied()
        .unwrap_or(legal[n % legal.len()])
        .clone()
}

impl TestServer {
    /// Create a game (`POST /games` with `body`); its id.
    pub fn create(&self, owner: &User, body: Value) -> i64 {
        let a = self.post("/api/v1/games", Some(&owner.token), body);
        assert_eq!(a.status, 201, "{}", a.text);
        a.json()["id"].as_i64().expect("game id")
    }

    /// Play the seat to act's first legal decisions until another seat is to act (or the game
    /// ends); `players` by seat, as far as needed.
    pub fn finish_turn(&self, id: i64, players: &[User]) {
        let first = self.game(id, &players[0])["state"]["to_act"].clone();
        for _ in 0..50 {
            let view = self.game(id, &players[0]);
            if view["status"] == "over" || view["state"]["to_act"] != first {
                return;
            }
            let to_act = view["state"]["to_act"].as_u64().expect("seat to act") as usize;
            let me = self.game(id, &players[to_act]);
            let d = me["state"]["legal_decisions"][0].clone();
            let a = self.decide(
                id,
                &players[to_act],
                me["version"].as_i64().unwrap_or(0),
                &d,
            );
            assert_eq!(a.status, 200, "{d} -> {}", a.text);
        }
        panic!("the turn did not end");
    }

    /// Wait (real time, briefly: for the server's workers) until `check` holds for the game as
    /// `user` sees it.
    pub fn wait_for(&self, id: i64, user: &User, check: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..300 {
            let view = self.game(id, user);
            if check(&view) {
                return view;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("never happened: {}", self.game(id, user));
    }

    /// Wait until the packing worker has packed finished game `id`: its log in one
    /// `game_archives` row, no `game_events` rows and no turn notices left.
    pub fn wait_packed(&self, id: i64) {
        let left = || {
            (
                self.count(&format!(
                    "SELECT COUNT(*) AS n FROM game_events WHERE game_id = {id}"
                )),
                self.count(&format!(
                    "SELECT COUNT(*) AS n FROM game_archives WHERE game_id = {id}"
                )),
                self.count(&format!(
                    "SELECT COUNT(*) AS n FROM notifications WHERE game_id = {id} \
                     AND kind IN ('your_turn', 'deadline_reminder')"
                )),
            )
        };
        for _ in 0..300 {
            if left() == (0, 1, 0) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!(
            "game {id} never packed: (events, archives, turn notices) {:?}",
            left()
        );
    }

    /// The game's events as `user` sees them.
    pub fn events(&self, id: i64, user: &User) -> Vec<Value> {
        let a = self.get(&format!("/api/v1/games/{id}/events"), Some(&user.token));
        assert_eq!(a.status, 200, "{}", a.text);
        a.json().as_array().cloned().unwrap_or_default()
    }

    /// Stop the server as an operator would: its streams, its HTTP server, then its workers. Its database
    /// stays, for another server to start on.
    pub fn stop(&self) {
        let stopper = self.stopper.clone();
        std::thread::spawn(move || actix_web::rt::System::new().block_on(stopper.stop()))
            .join()
            .expect("server stops");
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.workers.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some((admin_url, name)) = &self.pg_database {
            if let Ok(mut admin) = diesel::PgConnection::establish(admin_url) {
                let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                    .execute(&mut admin);
            }
        }
    }
}

/// One HTTP request read from `stream` by a receiver of the tests: its headers (names in lower
/// case) and body; `None` when the connection closed first.
pub fn read_request(
    stream: &std::net::TcpStream,
) -> Option<(std::collections::HashMap<String, String>, Vec<u8>)> {
    use std::io::{BufRead, Read};
    let mut reader = std::io::BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return None;
    }
    let mut headers = std::collections::HashMap::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            headers.insert(k.trim().to_lowercase(), v.trim().to_string());
        }
    }
    let length: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    let _ = reader.read_exact(&mut body);
    Some((headers, body))
}

/// How many of `events` are of this kind.
pub fn kinds(events: &[Value], kind: &str) -> usize {
    events.iter().filter(|e| e["kind"] == kind).count()
}

/// A response, read once.
pub struct Answer {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub text: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }

    /// The error body's code, checking that the body has the problem shape.
    pub fn code(&self) -> String {
        let body = self.json();
        assert!(
            body["message"].is_string(),
            "problem without message: {}",
            self.text
        );
        body["code"]
            .as_str()
            .unwrap_or_else(|| panic!("no code: {}", self.text))
            .to_string()
    }
}

fn read(r: Response) -> Answer {
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    let text = r.text().expect("body");
    Answer {
        status,
        headers,
        text,
    }
}

#[derive(Clone)]
pub struct User {
    pub name: String,
    pub token: String,
    pub refresh_token: String,
    pub id: i64,
}

impl TestServer {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn send(&self, req: RequestBuilder) -> Answer {
        read(req.send().expect("request"))
    }

    pub fn get(&self, path: &str, token: Option<&str>) -> Answer {
        let mut req = self.client.get(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        self.send(req)
    }

    pub fn delete(&self, path: &str, token: Option<&str>) -> Answer {
        let mut req = self.client.delete(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        self.send(req)
    }

    pub fn post(&self, path: &str, token: Option<&str>, body: Value) -> Answer {
        let mut req = self.client.post(self.url(path)).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        self.send(req)
    }

    pub fn register(&self, name: &str) -> User {
        let a = self.post(
            "/api/v1/auth/register",
            None,
            json!({"name": name, "password": "correct horse"}),
        );
        assert_eq!(a.status, 201, "{}", a.text);
        let body = a.json();
        User {
            name: name.into(),
            token: body["access_token"].as_str().expect("access token").into(),
            refresh_token: body["refresh_token"]
                .as_str()
                .expect("refresh token")
                .into(),
            id: body["user_id"].as_i64().expect("user id"),
        }
    }

    /// A started game: the first user creates it, the others join.
    pub fn started_game(&self, variant: &str, users: &[User]) -> i64 {
        self.started_with(json!({"variant": variant, "players": users.len()}), users)
    }

    /// A started game created by the first user with `body` (`POST /games`), the others joining.
    pub fn started_with(&self, body: Value, users: &[User]) -> i64 {
        let id = self.create(&users[0], body);
        for u in &users[1..] {
            let a = self.post(
                &format!("/api/v1/games/{id}/join"),
                Some(&u.token),
                json!({}),
            );
            assert_eq!(a.status, 200, "{}", a.text);
        }
        id
    }

    pub fn game(&self, id: i64, user: &User) -> Value {
        let a = self.get(&format!("/api/v1/games/{id}"), Some(&user.token));
        assert_eq!(a.status, 200, "{}", a.text);
        a.json()
    }

    pub fn decide(&self, id: i64, user: &User, version: i64, decision: &Value) -> Answer {
        self.post(
            &format!("/api/v1/games/{id}/decisions"),
            Some(&user.token),
            json!({"expected_version": version, "decision": decision}),
        )
    }
}

/// Mail tests on both databases, reported as ignored without the SMTP server's tools.
#[macro_export]
macro_rules! mail_tests_on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[test]
                #[cfg_attr(not(mail_tests), ignore = "mail: set KELTIS_MAIL_TESTS=1 with python3's aiosmtpd installed")]
                fn $name() { super::$name($crate::support::Db::Sqlite) }
            )*
        }
        mod postgres {
            $(
                #[test]
                #[cfg_attr(not(all(mail_tests, postgres_tests)), ignore = "mail on PostgreSQL: set KELTIS_MAIL_TESTS=1 and TEST_DATABASE_URL")]
                fn $name() { super::$name($crate::support::Db::Postgres) }
            )*
        }
    };
}

/// Run a scenario on SQLite, and on PostgreSQL when `TEST_DATABASE_URL` is set (without it the
/// PostgreSQL tests show as ignored).
#[macro_export]
macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[test] fn $name() { super::$name($crate::support::Db::Sqlite) })*
        }
        mod postgres {
            $(
                #[test]
                #[cfg_attr(not(postgres_tests), ignore = "PostgreSQL: set TEST_DATABASE_URL")]
                fn $name() { super::$name($crate::support::Db::Postgres) }
            )*
        }
    };
}
