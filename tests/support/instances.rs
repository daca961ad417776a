//! Server instances for the tests: one on a fresh database, another on the same database, or
//! several starting at the same moment on one fresh database.

use std::sync::mpsc;
use std::time::Duration;

use diesel::{Connection, RunQueryDsl};
use keltis::config::Config;
use reqwest::blocking::Client;

use super::{unique, Db, TestServer, SECRET, VAPID_KEY};

/// A server on `db`; `None` when PostgreSQL is asked for and `TEST_DATABASE_URL` is not set.
pub fn spawn(db: Db, tune: impl FnOnce(&mut Config)) -> Option<TestServer> {
    spawn_at(db, keltis::storage::now_millis(), tune)
}

/// Two server instances on one fresh PostgreSQL database; `None` without `TEST_DATABASE_URL`.
pub fn two_instances() -> Option<(TestServer, TestServer)> {
    let a = spawn(Db::Postgres, |_| {})?;
    let b = second_instance(&a);
    Some((a, b))
}

/// Another server instance on `a`'s database, its clock starting where `a`'s stands.
pub fn second_instance(a: &TestServer) -> TestServer {
    start_on(&a.database_url, Owned::default(), a.clock.now(), |_| {}).expect("a second instance")
}

/// Another server instance on `a`'s database, tuned: its error when it does not start.
pub fn another_instance(
    a: &TestServer,
    tune: impl FnOnce(&mut Config),
) -> Result<TestServer, String> {
    start_on(&a.database_url, Owned::default(), a.clock.now(), tune)
}

/// A server whose clock starts at `start` (milliseconds since the Unix epoch): a server started
/// later than another on the same database.
pub fn spawn_at(db: Db, start: i64, tune: impl FnOnce(&mut Config)) -> Option<TestServer> {
    let (url, owned) = fresh_database(db)?;
    Some(start_on(&url, owned, start, tune).expect("server builds"))
}

/// `n` instances started at the same moment on one fresh database, each tuned by `tune` (the
/// first drops the database when it goes).
pub fn started_together(
    db: Db,
    n: usize,
    tune: impl Fn(&mut Config) + Sync,
) -> Option<Vec<TestServer>> {
    let (url, owned) = fresh_database(db)?;
    let start = keltis::storage::now_millis();
    let barrier = std::sync::Barrier::new(n);
    let started: Vec<Result<TestServer, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .map(|i| {
                let (url, barrier, tune) = (&url, &barrier, &tune);
                let owner = if i == 0 {
                    owned.clone()
                } else {
                    Owned::default()
                };
                scope.spawn(move || {
                    barrier.wait();
                    start_on(url, owner, start, tune)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a starting thread"))
            .collect()
    });
    Some(
        started
            .into_iter()
            .map(|s| s.expect("server builds"))
            .collect(),
    )
}

/// What the instance that owns a fresh database removes when it goes: the SQLite file's folder
/// (its data folder too), or the PostgreSQL database (by the admin URL and its name).
#[derive(Clone, Default)]
struct Owned {
    dir: Option<std::path::PathBuf>,
    pg_database: Option<(String, String)>,
}

/// A fresh, empty database: its URL and what its owner removes; `None` for PostgreSQL without
/// `TEST_DATABASE_URL`.
fn fresh_database(db: Db) -> Option<(String, Owned)> {
    match db {
        Db::Sqlite => {
            let dir = std::env::temp_dir().join(unique("keltis_test"));
            std::fs::create_dir_all(&dir).expect("temp dir");
            let url = dir.join("keltis.sqlite3").to_string_lossy().into_owned();
            Some((
                url,
                Owned {
                    dir: Some(dir),
                    pg_database: None,
                },
            ))
        }
        Db::Postgres => {
            let admin_url = std::env::var("TEST_DATABASE_URL").ok()?;
            let name = unique("keltis_test");
            let mut admin =
                diesel::PgConnection::establish(&admin_url).expect("TEST_DATABASE_URL reachable");
            let template = migrated_template(&mut admin, &admin_url);
            diesel::sql_query(format!("CREATE DATABASE {name} TEMPLATE {template}"))
                .execute(&mut admin)
                .expect("create test database");
            let pg_database = Some((admin_url.clone(), name.clone()));
            Some((
                sibling_url(&admin_url, &name),
                Owned {
                    dir: None,
                    pg_database,
                },
            ))
        }
    }
}

/// The PostgreSQL database that fresh test databases are copied from: empty, every migration
/// applied (by `keltis migrate`, the server's own code), made once for these migrations and kept
/// between runs. Migrating each fresh database took about a third of a second of PostgreSQL's CPU
/// and as long of the test's wait, for some 200 databases a run; a copy is quicker, and the
/// server still migrates at start (it finds nothing pending). Tests of migrations themselves
/// start from databases of their own (`upgrade_from_release`).
fn migrated_template(admin: &mut diesel::PgConnection, admin_url: &str) -> String {
    static TEMPLATE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEMPLATE
        .get_or_init(|| {
            let name = format!("keltis_template_{:016x}", migrations_digest());
            // Test runs at the same moment on one cluster take turns to make it.
            diesel::sql_query("SELECT pg_advisory_lock(7007001)")
                .execute(admin)
                .expect("template lock");
            #[derive(diesel::QueryableByName)]
            struct Template {
                #[diesel(sql_type = diesel::sql_types::Text)]
                datname: String,
                #[diesel(sql_type = diesel::sql_types::Bool)]
                datistemplate: bool,
            }
            let found: Vec<Template> = diesel::sql_query(
                "SELECT datname, datistemplate FROM pg_database WHERE datname LIKE 'keltis_template_%'",
            )
            .load(admin)
            .expect("list templates");
            // Only a template marked done is used: one left half made, or made for other
            // migrations, is dropped.
            let ready = found.iter().any(|t| t.datname == name && t.datistemplate);
            for stale in found.iter().filter(|t| !ready || t.datname != name) {
                diesel::sql_query(format!(
                    "ALTER DATABASE {} IS_TEMPLATE false",
                    stale.datname
                ))
                .execute(admin)
                .expect("unmark a stale template");
                diesel::sql_query(format!("DROP DATABASE {} WITH (FORCE)", stale.datname))
                    .execute(admin)
                    .expect("drop a stale template");
            }
            if !ready {
                diesel::sql_query(format!("CREATE DATABASE {name}"))
                    .execute(admin)
                    .expect("create the template");
                let out = std::process::Command::new(env!("CARGO_BIN_EXE_keltis"))
                    .arg("migrate")
                    .env("DATABASE_URL", sibling_url(admin_url, &name))
                    .output()
                    .expect("keltis migrate runs");
                assert!(
                    out.status.success(),
                    "keltis migrate: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                diesel::sql_query(format!("ALTER DATABASE {name} IS_TEMPLATE true"))
                    .execute(admin)
                    .expect("mark the template done");
            }
            diesel::sql_query("SELECT pg_advisory_unlock(7007001)")
                .execute(admin)
                .expect("template unlock");
            name
        })
        .clone()
}

/// The URL of database `name` on the server of `admin_url`.
fn sibling_url(admin_url: &str, name: &str) -> String {
    let base = admin_url
        .rsplit_once('/')
        .map(|(b, _)| b)
        .unwrap_or(admin_url);
    format!("{base}/{name}")
}

/// A digest of the PostgreSQL migrations' files, names and contents: a template is made again
/// when they change.
fn migrations_digest() -> u64 {
    use std::hash::{Hash, Hasher};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/postgres");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .expect("migrations folder")
        .flatten()
        .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten())
        .map(|f| f.path())
        .collect();
    files.sort();
    let mut hasher = std::hash::DefaultHasher::new();
    for file in files {
        file.strip_prefix(dir).unwrap_or(&file).hash(&mut hasher);
        std::fs::read(&file).unwrap_or_default().hash(&mut hasher);
    }
    hasher.finish()
}

/// A server on the database at `url` with a data folder of its own; its error when it does not
/// build (bind, migrations, keys).
fn start_on(
    url: &str,
    owned: Owned,
    start: i64,
    tune: impl FnOnce(&mut Config),
) -> Result<TestServer, String> {
    let dir = owned.dir.unwrap_or_else(|| {
        let dir = std::env::temp_dir().join(unique("keltis_test"));
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    });
    let pg_database = owned.pg_database;
    let mut config = Config::for_database(url, dir.clone());
    config.jwt_secret = Some(SECRET.into());
    config.vapid_private_key = Some(VAPID_KEY.into());
    config.auth_rate_limit = 100_000;
    config.token_rate_limit = 100_000;
    config.clock_interval_ms = 50;
    config.pairing_interval_ms = 50;
    config.events_interval_ms = 50;
    tune(&mut config);
    // The listener's and the notifier's connections besides the pool's.
    let pg_connections = url
        .starts_with("postgres")
        .then(|| pg_budget::take(config.pool_size as usize + 2));
    let clock = keltis::clock::Clock::manual(start);
    let server_clock = clock.clone();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            match keltis::startup::build_with_clock(&config, server_clock) {
                Ok(running) => {
                    let stopper = running.stopper.clone();
                    let _ = tx.send(Ok((running.port, running.workers.clone(), stopper)));
                    let _ = running.server.await;
                }
                Err(e) => {
                    let _ = tx.send(Err(e.to_string()));
                }
            }
        })
    });
    let (port, workers, stopper) = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("server starts or fails")?;
    Ok(TestServer {
        workers,
        stopper,
        clock,
        base: format!("http://127.0.0.1:{port}"),
        database_url: url.to_string(),
        client: Client::builder()
            .timeout(Duration::from_secs(90))
            .build()
            .expect("client"),
        dir,
        pg_database,
        pg_connections,
    })
}

/// A pool of `size` connections a test opens on a server's database itself (another instance's
/// workers, say), its connections taken from the budget below like an instance's.
pub fn database(url: &str, size: u32) -> Budgeted {
    let share = url
        .starts_with("postgres")
        .then(|| pg_budget::take(size as usize));
    Budgeted {
        db: keltis::storage::Database::open(url, size).expect("the test's own pool opens"),
        _share: share,
    }
}

/// A test's own pool, holding its share of PostgreSQL's connections while it lives.
pub struct Budgeted {
    db: keltis::storage::Database,
    _share: Option<pg_budget::Share>,
}

impl Budgeted {
    /// The same pool on the clock the tests control.
    pub fn with_clock(mut self, clock: keltis::clock::Clock) -> Budgeted {
        self.db = self.db.with_clock(clock);
        self
    }
}

impl std::ops::Deref for Budgeted {
    type Target = keltis::storage::Database;
    fn deref(&self) -> &keltis::storage::Database {
        &self.db
    }
}

/// PostgreSQL's connections are a budget the tests share (`max_connections`, 100 by default):
/// an instance on PostgreSQL takes its share before it starts and gives it back when it goes.
/// Four harness threads running tests of two or three instances each (the races of
/// `http_races`, the push instances) had met "too many clients already".
pub mod pg_budget {
    use std::sync::{Condvar, Mutex, OnceLock};
    use std::time::{Duration, Instant};

    /// Connections kept out of the budget: the tests' own (counting rows, creating databases)
    /// and PostgreSQL's reserved ones.
    const RESERVE: i64 = 20;
    /// How long an instance waits for its share before it starts anyway (a test that holds
    /// more instances than the budget has must not wait forever).
    const PATIENCE: Duration = Duration::from_secs(120);

    struct Budget {
        left: Mutex<i64>,
        freed: Condvar,
    }

    fn budget() -> &'static Budget {
        static BUDGET: OnceLock<Budget> = OnceLock::new();
        BUDGET.get_or_init(|| {
            let total = std::env::var("TEST_DATABASE_URL")
                .ok()
                .map(|url| super::super::database::max_connections(&url))
                .unwrap_or(100);
            Budget {
                left: Mutex::new(total - RESERVE),
                freed: Condvar::new(),
            }
        })
    }

    /// An instance's share, given back when dropped.
    pub struct Share(i64);

    impl Drop for Share {
        fn drop(&mut self) {
            let budget = budget();
            *budget.left.lock().unwrap_or_else(|p| p.into_inner()) += self.0;
            budget.freed.notify_all();
        }
    }

    /// Wait for `n` connections of the budget.
    pub fn take(n: usize) -> Share {
        let n = n as i64;
        let budget = budget();
        let deadline = Instant::now() + PATIENCE;
        let mut left = budget.left.lock().unwrap_or_else(|p| p.into_inner());
        while *left < n {
            let Some(wait) = deadline.checked_duration_since(Instant::now()) else {
                eprintln!(
                    "PostgreSQL's connections: {n} wanted, {} left; starting anyway",
                    *left
                );
                break;
            };
            left = budget
                .freed
                .wait_timeout(left, wait)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
        *left -= n;
        Share(n)
    }
}
