//! Races: the same write sent at the same moment, released together by a barrier, through two
//! server instances on one PostgreSQL database (or one SQLite server's many connections); and
//! whether an answer is one the operation documents.

use std::sync::{Barrier, OnceLock};

use keltis::config::Config;
use serde_json::Value;

use super::{Answer, Db, TestServer};

/// Where racing requests go: two instances on one PostgreSQL database, or one SQLite server.
pub struct Site {
    pub servers: Vec<TestServer>,
}

impl Site {
    /// The instances, each tuned by `tune`.
    pub fn start(db: Db, tune: impl Fn(&mut Config)) -> Site {
        let first = super::spawn(db, &tune).expect("a database for this test");
        let mut servers = Vec::new();
        if db == Db::Postgres {
            let second = super::instances::another_instance(&first, &tune)
                .expect("a second instance on the same database");
            servers.push(first);
            servers.push(second);
        } else {
            servers.push(first);
        }
        Site { servers }
    }

    /// The first instance (for setting up and reading back).
    pub fn a(&self) -> &TestServer {
        &self.servers[0]
    }

    /// Send `n` requests at the same moment, request `i` through instance `i % instances`:
    /// each thread waits at one barrier, then sends.
    pub fn race(
        &self,
        n: usize,
        send: impl Fn(usize, &TestServer) -> Answer + Sync,
    ) -> Vec<Answer> {
        let barrier = Barrier::new(n);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..n)
                .map(|i| {
                    let (barrier, send) = (&barrier, &send);
                    let server = &self.servers[i % self.servers.len()];
                    scope.spawn(move || {
                        barrier.wait();
                        send(i, server)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a racing request"))
                .collect()
        })
    }
}

/// The committed API document.
fn spec() -> &'static Value {
    static SPEC: OnceLock<Value> = OnceLock::new();
    SPEC.get_or_init(|| {
        serde_json::from_str(include_str!("../../openapi/keltis.json")).expect("the API document")
    })
}

/// Assert that every answer is below 500 and, where it is a problem, that its code is one the
/// operation (`method` and the path as the document writes it) documents for its status.
pub fn documented(method: &str, path: &str, answers: &[Answer]) {
    for a in answers {
        assert!(a.status < 500, "{method} {path}: {} {}", a.status, a.text);
        if a.status < 400 {
            continue;
        }
        let code = a.code();
        let response = &spec()["paths"][path][method]["responses"][a.status.to_string()];
        let response = match response["$ref"].as_str() {
            Some(name) => {
                let name = name.rsplit('/').next().unwrap_or_default();
                &spec()["components"]["responses"][name]
            }
            None => response,
        };
        let description = response["description"].as_str().unwrap_or_default();
        assert!(
            description.contains(&format!("`{code}`")),
            "{method} {path} answered {} `{code}`, which its document does not list: {description:?}",
            a.status
        );
    }
}

/// How many answers had this status.
pub fn with_status(answers: &[Answer], status: u16) -> usize {
    answers.iter().filter(|a| a.status == status).count()
}

/// The codes of the answers that had this status, sorted.
pub fn codes(answers: &[Answer], status: u16) -> Vec<String> {
    let mut codes: Vec<String> = answers
        .iter()
        .filter(|a| a.status == status)
        .map(Answer::code)
        .collect();
    codes.sort();
    codes
}
