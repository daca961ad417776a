//! The release-mode load tool (`keltis loadtest`), run here against a real server for a few
//! seconds: its watchers are woken by the moves it plays, and its pacing keeps to the offered
//! rate. On SQLite, and on PostgreSQL when `TEST_DATABASE_URL` is set.

use crate::support;

use support::Db;

/// The load tool's watchers: streams and long polls that follow the games being played receive
/// the moves (their wake-up times are reported), idle ones stay open without errors, over
/// HTTP/1.1 or all on one HTTP/2 connection (h2c); on
/// PostgreSQL, `--pgbench` reports the database's own rate beside the API's.
fn the_load_tool_measures_wake_ups(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let postgres = s.database_url.starts_with("postgres");
    let database_pid = postgres
        .then(|| support::database::postmaster_pid(&s.database_url))
        .flatten();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let report = runtime
        .block_on(keltis::loadtest::run(keltis::loadtest::LoadOptions {
            url: s.base.clone(),
            variant: "keltis-card".into(),
            games: 2,
            seconds: 3,
            seed: 7,
            streams: 4,
            waiters: 4,
            followers: None,
            // One way on each database: a connection each, or all on one (HTTP/2, h2c).
            watch_h2c: !postgres,
            server_pid: Some(std::process::id()),
            // On PostgreSQL the database's own rate is measured after the load (pgbench).
            pgbench: postgres.then(|| s.database_url.clone()),
            rate: None,
            warm_up_seconds: 0,
            threads: 1,
            database_pid,
        }))
        .expect("the load runs");
    assert!(report.accepted_moves > 0);
    // Without a warm-up every move is measured: a finished game's last move is timed apart too.
    assert_eq!(
        report.finished_games > 0,
        report.ending_decision_latency_ms.is_some(),
        "{} finished games",
        report.finished_games
    );
    if let Some(ending) = &report.ending_decision_latency_ms {
        assert!(ending.max <= report.decision_latency_ms.max);
    }
    if s.database_url.starts_with("postgres") {
        let pgbench = report
            .pgbench
            .as_ref()
            .unwrap_or_else(|| panic!("pgbench ran: {:?}", report.pgbench_error));
        assert!(pgbench.transactions_per_second > 0.0);
        assert!(report.share_of_pgbench.is_some_and(|r| r > 0.0));
        // What a move and a pgbench transaction cost PostgreSQL: its CPU where its processes are
        // on this machine, its statements where pg_stat_statements is loaded, or why not.
        let per_move = report.database_per_move.as_ref().expect("measured");
        let per_transaction = &pgbench.database_per_transaction;
        for cost in [per_move, per_transaction] {
            assert_eq!(cost.cpu_ms.is_some(), database_pid.is_some(), "{cost:?}");
            assert_ne!(
                cost.statements.is_some(),
                cost.statements_unavailable.is_some(),
                "{cost:?}"
            );
        }
        if let Some(statements) = per_transaction.statements {
            // BEGIN, the update, the insert, END.
            assert!((3.5..=4.5).contains(&statements), "{statements}");
            assert!(per_move.statements.is_some_and(|n| n >= 1.0));
        }
        assert_eq!(
            report.database_bound_share.is_some(),
            database_pid.is_some()
        );
        println!(
            "PostgreSQL's postmaster {}, pg_stat_statements: {:?}",
            database_pid.map_or("not found on this machine".into(), |p| p.to_string()),
            per_move.statements_unavailable
        );
    } else {
        assert!(report.pgbench.is_none() && report.database_per_move.is_none());
    }
    assert!(report.serial.load_cpu_ms_per_move.is_some(), "Linux /proc");
    // SQLite's write turn: the share of it on a core, and the ceiling that makes, above the
    // ceiling of its whole time; PostgreSQL has no turn.
    let serial = &report.serial;
    if postgres {
        assert!(serial.write_turn_on_cpu_share.is_none());
    } else {
        let share = serial.write_turn_on_cpu_share.expect("sampled writes");
        assert!(share > 0.0 && share <= 1.0, "{share}");
        let (all, on_cpu) = (
            serial.write_turn_ceiling_per_second.expect("a ceiling"),
            serial
                .write_turn_cpu_ceiling_per_second
                .expect("a ceiling on a core"),
        );
        assert!(on_cpu >= all, "{on_cpu} < {all}");
    }
    assert_eq!(report.watcher_errors, 0);
    let carried = if postgres { "http/1.1" } else { "h2c" };
    assert_eq!(report.watch_protocol, carried);
    let streams = report.stream_wake_ms.expect("streams saw moves");
    let polls = report.poll_wake_ms.expect("long polls saw moves");
    assert!(streams.max >= streams.p50 && polls.max >= polls.p50);
    assert!(report.server_threads.is_some_and(|n| n > 0));
}

/// `--rate`: the tables share the offered rate (never more moves than it allows) and the report
/// says how late the moves were sent after they were due.
fn the_load_tool_paces_moves_at_an_offered_rate(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let (rate, seconds, games) = (10.0, 3, 4);
    let report = runtime
        .block_on(keltis::loadtest::run(keltis::loadtest::LoadOptions {
            url: s.base.clone(),
            variant: "keltis-card".into(),
            games,
            seconds,
            seed: 11,
            streams: 0,
            waiters: 0,
            followers: None,
            watch_h2c: false,
            server_pid: None,
            pgbench: None,
            rate: Some(rate),
            warm_up_seconds: 1,
            threads: 1,
            database_pid: None,
        }))
        .expect("the load runs");
    // Each table's first move is due within its first period, then one every period: at most
    // rate * seconds moves in all, plus one per table for the moves due at the very start.
    let most = (rate * seconds as f64) as u64 + games as u64;
    let sent = report.accepted_moves + report.refused_moves;
    assert!(
        sent > 0 && sent <= most,
        "{sent} moves sent, at most {most}"
    );
    assert_eq!(report.offered_moves_per_second, Some(rate));
    let lag = report.schedule_lag_ms.expect("a paced run reports its lag");
    assert!(lag.max >= lag.p50 && lag.p50 >= 0.0);
}

on_both_databases!(
    the_load_tool_measures_wake_ups,
    the_load_tool_paces_moves_at_an_offered_rate,
);
