//! `keltis load --pgbench <url>`: what PostgreSQL itself commits per second in the shape of one
//! move (bump one game's version, rewrite a 2 KB state, append one event), measured by `pgbench`
//! with as many clients as the load had tables, right after the load on the same machine, so that
//! the API's rate and the database's are one command apart.
//!
//! The tables are scratch tables of their own (`keltis_pgbench_*`, created and dropped here), laid
//! out like `games` (fillfactor 50) and `game_events`.

use std::process::Command;

use serde::Serialize;

use super::LoadError;

#[derive(Debug, Serialize)]
pub struct PgbenchReport {
    pub clients: usize,
    pub seconds: u64,
    /// Committed move-shaped transactions per second (pgbench's tps, connections excluded).
    pub transactions_per_second: f64,
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

/// Run `pgbench` (and `psql` for the scratch tables) against `url` for `seconds` with `clients`.
pub fn run(url: &str, clients: usize, seconds: u64) -> Result<PgbenchReport, LoadError> {
    let clients = clients.max(1);
    let psql = |sql: &str| {
        run_tool(
            Command::new("psql")
                .args(["-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-c"])
                .arg(sql),
        )
    };
    psql(SET_UP)?;
    psql(&format!(
        "INSERT INTO keltis_pgbench_games SELECT g, 0, '', 0 FROM generate_series(1, {clients}) g"
    ))?;
    let script = std::env::temp_dir().join(format!("keltis-pgbench-{}.sql", std::process::id()));
    std::fs::write(&script, MOVE).map_err(|e| LoadError::Tool(e.to_string()))?;
    let measured = run_tool(
        Command::new("pgbench")
            .args(["-n", "-j", "2", "-c", &clients.to_string()])
            .args(["-T", &seconds.max(1).to_string(), "-f"])
            .arg(&script)
            .arg(url),
    );
    let _ = std::fs::remove_file(&script);
    let cleaned = psql(CLEAN_UP);
    let text = measured?;
    cleaned?;
    let tps = text
        .lines()
        .find(|l| l.starts_with("tps = "))
        .and_then(|l| l["tps = ".len()..].split_whitespace().next())
        .and_then(|n| n.parse::<f64>().ok())
        .ok_or_else(|| LoadError::Tool(format!("no tps in pgbench's output: {text}")))?;
    Ok(PgbenchReport {
        clients,
        seconds,
        transactions_per_second: tps,
    })
}
