//! `keltis load --pgbench <url>`: what PostgreSQL itself commits per second in the shape of one
//! move (bump one game's version, rewrite a 2 KB state, append one event), measured by `pgbench`
//! with as many clients as the load had tables, right after the load on the same machine, so that
//! the API's rate and the database's are one command apart.
//!
//! The tables are scratch tables of their own (`keltis_pgbench_*`, created and dropped here), laid
//! out like `games` (fillfactor 50) and `game_events`.

use std::process::Command;

use serde::Serialize;

use super::{cpu, database, LoadError};

#[derive(Debug, Serialize)]
pub struct PgbenchReport {
    pub clients: usize,
    /// pgbench's threads (`-j`): as many as the cores the load tool may use, at most one per
    /// client, so that pgbench's side is not what limits it.
    pub threads: usize,
    /// The counted run's length: the one asked for, or longer where a run completed nothing.
    pub seconds: u64,
    /// Committed move-shaped transactions per second (pgbench's tps, connections excluded).
    pub transactions_per_second: f64,
    /// pgbench's own CPU per transaction, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_cpu_ms_per_transaction: Option<f64>,
    /// What each transaction cost PostgreSQL.
    pub database_per_transaction: database::DatabaseCost,
}

const SET_UP: &str = "
DROP TABLE IF EXISTS keltis_pgbench_events, keltis_pgbench_games;
CREATE TABLE keltis_pgbench_games (
    id BIGINT PRIMARY KEY, version BIGINT NOT NULL, state TEXT NOT NULL, updated_at BIGINT NOT NULL
) WITH (fillfactor = 50);
CREATE TABLE keltis_pgbench_events (
    game_id BIGINT NOT NULL, seq BIGINT NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL,
    created_at BIGINT NOT NULL, PRIMARY KEY (game_id, seq)
);
";

const CLEAN_UP: &str = "DROP TABLE IF EXISTS keltis_pgbench_events, keltis_pgbench_games;";

/// One move: each client plays its own game, as each table of the load does. The state is 2 KB
/// of hex digits (which PostgreSQL's compression cannot shrink); the payload is an event's size.
const MOVE: &str = "\\set g :client_id + 1
BEGIN;
UPDATE keltis_pgbench_games SET version = version + 1, updated_at = extract(epoch FROM now())::bigint,
    state = (SELECT string_agg(md5(random()::text), '') FROM generate_series(1, 64))
    WHERE id = :g RETURNING version AS v \\gset
INSERT INTO keltis_pgbench_events VALUES (:g, :v, 'decided', repeat('x', 110), extract(epoch FROM now())::bigint);
END;
";

fn run_tool(command: &mut Command) -> Result<String, LoadError> {
    let output = command
        .output()
        .map_err(|e| LoadError::Tool(e.to_string()))?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    if !output.status.success() {
        return Err(LoadError::Tool(format!(
            "{}{}",
            text,
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    Ok(text)
}

/// Run one SQL text with `psql` on `url`; its rows unaligned (`|` between fields), no headers.
pub(super) fn psql(url: &str, sql: &str) -> Result<String, LoadError> {
    run_tool(
        Command::new("psql")
            .args(["-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c"])
            .arg(sql),
    )
}

/// Run `pgbench` (and `psql` for the scratch tables) against `url` for `seconds` with `clients`
/// on `threads`; `database_pid`, PostgreSQL's postmaster, to count its CPU.
pub fn run(
    url: &str,
    clients: usize,
    threads: usize,
    seconds: u64,
    database_pid: Option<u32>,
) -> Result<PgbenchReport, LoadError> {
    let clients = clients.max(1);
    let threads = threads.clamp(1, clients);
    psql(url, SET_UP)?;
    psql(
        url,
        &format!(
            "INSERT INTO keltis_pgbench_games SELECT g, 0, '', 0 FROM generate_series(1, {clients}) g"
        ),
    )?;
    let script = std::env::temp_dir().join(format!("keltis-pgbench-{}.sql", std::process::id()));
    std::fs::write(&script, MOVE).map_err(|e| LoadError::Tool(e.to_string()))?;
    // A run that completes no transaction (its connections took the whole time on a loaded
    // machine) is no measurement: run again for twice as long, a few times at most.
    let mut seconds = seconds.max(1);
    let mut tries = 0;
    let measured = loop {
        tries += 1;
        let measured = measure(url, &script, clients, threads, seconds, database_pid);
        match measured {
            Ok(None) if tries < EMPTY_RUN_TRIES => seconds *= 2,
            Ok(None) => {
                break Err(LoadError::Tool(format!(
                    "pgbench completed no transaction in {tries} runs, the last of {seconds} s"
                )))
            }
            Ok(Some(counted)) => break Ok(counted),
            Err(e) => break Err(e),
        }
    };
    let _ = std::fs::remove_file(&script);
    let ((tps, transactions), client_cpu, mark) = match measured {
        Ok(measured) => measured,
        Err(e) => {
            // The scratch tables go whatever pgbench did.
            let _ = psql(url, CLEAN_UP);
            return Err(e);
        }
    };
    let database_per_transaction = database::cost_since(&mark, url, database_pid, transactions);
    psql(url, CLEAN_UP)?;
    Ok(PgbenchReport {
        clients,
        threads,
        seconds,
        transactions_per_second: tps,
        client_cpu_ms_per_transaction: client_cpu.map(|c| c * 1000.0 / transactions.max(1) as f64),
        database_per_transaction,
    })
}

/// How many times a pgbench run that completes nothing is tried, each twice as long as the last.
const EMPTY_RUN_TRIES: u32 = 3;

/// What one pgbench run measured: its rate and count, pgbench's CPU, and the database's mark from
/// before it.
type Measured = ((f64, u64), Option<f64>, database::Mark);

/// One pgbench run of `seconds` on the scratch tables; `None` where it completed no transaction.
fn measure(
    url: &str,
    script: &std::path::Path,
    clients: usize,
    threads: usize,
    seconds: u64,
    database_pid: Option<u32>,
) -> Result<Option<Measured>, LoadError> {
    let mark = database::mark(url, database_pid);
    let client_cpu = cpu::of_waited_children();
    let text = run_tool(
        Command::new("pgbench")
            .args(["-n", "-j", &threads.to_string(), "-c", &clients.to_string()])
            .args(["-T", &seconds.to_string(), "-f"])
            .arg(script)
            .arg(url),
    )?;
    let client_cpu = client_cpu
        .zip(cpu::of_waited_children())
        .map(|(a, b)| b - a);
    // pgbench prints no rate when no transaction completed, only a count of 0.
    if processed(&text) == Some(0) {
        return Ok(None);
    }
    let counted = parse_output(&text)
        .ok_or_else(|| LoadError::Tool(format!("no tps in pgbench's output: {text}")))?;
    Ok(Some((counted, client_cpu, mark)))
}

/// pgbench's rate and its count of transactions, from its report.
fn parse_output(text: &str) -> Option<(f64, u64)> {
    let after = |prefix: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(prefix))
            .and_then(|rest| rest.split_whitespace().next())
    };
    let tps = after("tps = ")?.parse().ok()?;
    Some((tps, processed(text)?))
}

/// pgbench's count of transactions processed (`N`, or `N/M` with `-t`), from its report.
fn processed(text: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("number of transactions actually processed: ")
        })?
        .split(['/', ' '])
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    /// pgbench 15's report, as `-T` prints it.
    #[test]
    fn the_rate_and_the_count_are_read_from_pgbenchs_report() {
        let text = "transaction type: move.sql\nnumber of clients: 32\nnumber of threads: 2\n\
            maximum number of tries: 1\nduration: 20 s\n\
            number of transactions actually processed: 92561\n\
            number of failed transactions: 0 (0.000%)\n\
            latency average = 6.914 ms\ninitial connection time = 21.412 ms\n\
            tps = 4628.119237 (without initial connection time)\n";
        assert_eq!(super::parse_output(text), Some((4628.119237, 92561)));
        assert_eq!(super::parse_output("tps = 10\n"), None, "a count is needed");
        assert_eq!(super::processed(text), Some(92561));
    }

    /// pgbench 15's report when no transaction completed in the time (as `-R 0.01 -T 1` makes
    /// it): no rate at all, so the run is tried again for longer rather than failed.
    #[test]
    fn a_run_that_completed_nothing_is_told_apart_from_an_unreadable_one() {
        let text = "transaction type: move.sql\nnumber of clients: 1\nnumber of threads: 1\n\
            maximum number of tries: 1\nduration: 1 s\n\
            number of transactions actually processed: 0\n\
            number of failed transactions: 0 (NaN%)\n";
        assert_eq!(super::parse_output(text), None);
        assert_eq!(super::processed(text), Some(0));
        assert_eq!(super::processed("tps = 10\n"), None);
    }
}
