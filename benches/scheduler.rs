//! The scheduler's query on PostgreSQL: find the games whose deadline has passed among 100,000
//! active games with a clock, 1,000 of them due (issue: under 50 ms). Seeds a fresh database
//! under `TEST_DATABASE_URL` (or `KELTIS_BENCH_DATABASE_URL`); without one it says so and skips.
//! Under `cargo test` it seeds 2,000 games and runs once, as a smoke test.

use criterion::{criterion_group, criterion_main, Criterion};
use diesel::{Connection, PgConnection, RunQueryDsl};
use keltis::storage::games::{games_due, games_reminder_due};
use keltis::storage::Database;

const DUE: i64 = 1_000;

fn fresh_database(admin_url: &str) -> (String, String) {
    let name = format!("keltis_bench_{}", std::process::id());
    let mut admin = PgConnection::establish(admin_url).expect("PostgreSQL reachable");
    diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&mut admin)
        .expect("drop");
    diesel::sql_query(format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .expect("create");
    let base = admin_url.rsplit_once('/').map_or(admin_url, |(b, _)| b);
    (format!("{base}/{name}"), name)
}

fn due_deadlines(c: &mut Criterion) {
    let Some(admin_url) = std::env::var("KELTIS_BENCH_DATABASE_URL")
        .or_else(|_| std::env::var("TEST_DATABASE_URL"))
        .ok()
    else {
        eprintln!("scheduler benchmark SKIPPED: set TEST_DATABASE_URL to a PostgreSQL server");
        return;
    };
    let full = std::env::args().any(|a| a == "--bench");
    let games: i64 = if full { 100_000 } else { 2_000 };
    let (url, name) = fresh_database(&admin_url);
    let db = Database::open(&url, 2).expect("migrated");
    let now: i64 = 1_800_000_000_000;
    db.read(|conn| -> Result<(), keltis::storage::StorageError> {
        diesel::sql_query(
            "INSERT INTO users (name, password_hash, created_at) VALUES ('bench', '-', 0)",
        )
        .execute(conn)?;
        // Every game active with a running clock; the first DUE have passed deadlines, the rest
        // fall due over the next days, like a live server's.
        diesel::sql_query(format!(
            "INSERT INTO games (variant, players, status, invite_only, created_by, created_at, \
             updated_at, version, state_engine_version, clock, deadline_at, reminder_at) \
             SELECT 'keltis', 2, 'active', false, 1, 0, 0, 10, 0, '{{}}', \
                    CASE WHEN g <= {DUE} THEN {now} - g * 1000 ELSE {now} + g * 60000 END, \
                    {now} + g * 60000 - 86400000 \
             FROM generate_series(1::bigint, {games}::bigint) AS g"
        ))
        .execute(conn)?;
        diesel::sql_query("ANALYZE games").execute(conn)?;
        Ok(())
    })
    .expect("seeded");
    let mut group = c.benchmark_group(format!("scheduler_pg_{games}_active"));
    group.sample_size(20);
    group.bench_function("games_due_1000", |b| {
        b.iter(|| {
            let due = db.read(|conn| games_due(conn, now, DUE)).expect("query");
            assert_eq!(due.len() as i64, DUE.min(games));
        })
    });
    group.bench_function("reminders_due", |b| {
        b.iter(|| {
            db.read(|conn| games_reminder_due(conn, now, DUE))
                .expect("query")
        })
    });
    group.finish();
    drop(db);
    if let Ok(mut admin) = PgConnection::establish(&admin_url) {
        let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .execute(&mut admin);
    }
}

criterion_group!(benches, due_deadlines);
criterion_main!(benches);
