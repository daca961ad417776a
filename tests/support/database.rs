//! The test's own reads and writes on a server's database, behind the server's back: counting
//! rows, reading a text column, ageing a row; and finding PostgreSQL's postmaster process.

use diesel::connection::SimpleConnection;
use diesel::{Connection, RunQueryDsl};

use super::TestServer;

#[derive(diesel::QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

#[derive(diesel::QueryableByName)]
struct Text {
    #[diesel(sql_type = diesel::sql_types::Text)]
    t: String,
}

/// A connection of the test's own to the SQLite database at `url`, waiting (as the server's
/// connections do) while the server writes, instead of failing at once with "database is locked".
pub fn sqlite_at(url: &str) -> diesel::SqliteConnection {
    let mut c = diesel::SqliteConnection::establish(url).expect("connect");
    c.batch_execute("PRAGMA busy_timeout = 10000;")
        .expect("busy timeout");
    c
}

/// A connection of the test's own to the PostgreSQL database at `url`. When every connection is
/// taken ("too many clients": the servers' pools of tests running beside this one, on a loaded
/// machine), it tries again for up to 30 s rather than failing a test that did nothing wrong.
pub fn pg_at(url: &str) -> diesel::PgConnection {
    let mut tries = 0;
    loop {
        match diesel::PgConnection::establish(url) {
            Ok(c) => return c,
            Err(e) if tries < 150 && e.to_string().contains("too many clients") => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(200));
            }
            Err(e) => panic!("connect to {url}: {e}"),
        }
    }
}

/// PostgreSQL's `max_connections` at `url`.
pub fn max_connections(url: &str) -> i64 {
    #[derive(diesel::QueryableByName)]
    struct Setting {
        #[diesel(sql_type = diesel::sql_types::Text)]
        setting: String,
    }
    let mut c = pg_at(url);
    let rows: Vec<Setting> =
        diesel::sql_query("SELECT setting FROM pg_settings WHERE name = 'max_connections'")
            .load(&mut c)
            .expect("max_connections");
    rows.first()
        .and_then(|r| r.setting.parse().ok())
        .unwrap_or(100)
}

/// `SELECT COUNT(*) AS n ...` on the database at `url`.
pub fn count_at(url: &str, sql: &str) -> usize {
    let rows: Vec<Count> = if url.starts_with("postgres") {
        let mut c = pg_at(url);
        diesel::sql_query(sql).load(&mut c).expect("sql")
    } else {
        let mut c = sqlite_at(url);
        diesel::sql_query(sql).load(&mut c).expect("sql")
    };
    rows.first().map_or(0, |r| r.n as usize)
}

/// The text column `t` of every row of `sql` on the database at `url`.
pub fn texts_at(url: &str, sql: &str) -> Vec<String> {
    let rows: Vec<Text> = if url.starts_with("postgres") {
        let mut c = pg_at(url);
        diesel::sql_query(sql).load(&mut c).expect("sql")
    } else {
        let mut c = sqlite_at(url);
        diesel::sql_query(sql).load(&mut c).expect("sql")
    };
    rows.into_iter().map(|r| r.t).collect()
}

impl TestServer {
    /// `SELECT COUNT(*) AS n ...` on the server's database.
    pub fn count(&self, sql: &str) -> usize {
        count_at(&self.database_url, sql)
    }

    /// Run SQL on the server's database behind its back (to age a snapshot, say).
    pub fn execute_sql(&self, sql: &str) -> usize {
        if self.database_url.starts_with("postgres") {
            let mut c = pg_at(&self.database_url);
            diesel::sql_query(sql).execute(&mut c).expect("sql")
        } else {
            let mut c = sqlite_at(&self.database_url);
            diesel::sql_query(sql).execute(&mut c).expect("sql")
        }
    }
}

/// PostgreSQL's postmaster, where it runs on this machine: the parent of its checkpointer.
pub fn postmaster_pid(url: &str) -> Option<u32> {
    let out = std::process::Command::new("psql")
        .args(["-At", "-d", url, "-c"])
        .arg("SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'")
        .output()
        .ok()?;
    let checkpointer: u32 = String::from_utf8_lossy(&out.stdout).trim().parse().ok()?;
    let stat = std::fs::read_to_string(format!("/proc/{checkpointer}/stat")).ok()?;
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}
