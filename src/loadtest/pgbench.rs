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
    let mark = database::mark(url, database_pid);
    let client_cpu = cpu::of_waited_children();
    let measured = run_tool(
        Command::new("pgbench")
            .args(["-n", "-j", &threads.to_string(), "-c", &clients.to_string()])
            .args(["-T", &seconds.max(1).to_string(), "-f"])
            .arg(&script)
            .arg(url),
    );
    let client_cpu = client_cpu
        .zip(cpu::of_waited_children())
        .map(|(a, b)| b - a);
    let _ = std::fs::remove_file(&script);
    let counted = measured.and_then(|text| {
        parse_output(&text)
            .ok_or_else(|| LoadError::Tool(format!("no tps in pgbench's output: {text}")))
    });
    let (tps, transactions) = match counted {
        Ok(counted) => counted,
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

/// pgbench's rate and its count of transactions, from its report.
fn parse_output(text: &str) -> Option<(f64, u64)> {
    let after = |prefix: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(prefix))
            .and_then(|rest| rest.split_whitespace().next())
    };
    let tps = after("tps = ")?.parse().ok()?;
    let transactions = after("number of transactions actually processed: ")?
        .split('/')
        .next()?
        .parse()
        .ok()?;
    Some((tps, transactions))
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
    }
}
