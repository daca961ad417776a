//! Where the work of a move goes inside PostgreSQL (issue 50): the CPU of its whole process tree
//! (from the postmaster's process id, `--database-pid`) and, where `pg_stat_statements` is
//! loaded, the statements run and the time they took, over the measured play and, the same way,
//! over pgbench's move-shaped transactions. Side by side they say how near the API can come to
//! pgbench where PostgreSQL's cores are the limit, and what it asks of the database beyond the
//! move itself.

use std::time::Instant;

use serde::Serialize;

use super::{cpu, pgbench::psql};

/// The statements of the last window that cost most, as many as this.
const TOP: usize = 8;

/// What one unit of work (an accepted move, or one of pgbench's transactions) cost PostgreSQL.
#[derive(Debug, Serialize)]
pub struct DatabaseCost {
    /// CPU of all of PostgreSQL's processes, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<f64>,
    /// PostgreSQL's cores busy on average over the window (CPU seconds per second).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cores_busy: Option<f64>,
    /// Statements run (pg_stat_statements; BEGIN and COMMIT count).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statements: Option<f64>,
    /// Their execution time, ms (parsing, planning and the wire not included).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statement_ms: Option<f64>,
    /// The statements that took most execution time, most first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub top_statements: Vec<StatementCost>,
    /// Why there are no statement figures (pg_stat_statements not in shared_preload_libraries).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statements_unavailable: Option<String>,
}

/// One normalised statement (constants are `$n`: no game's state or hand shows).
#[derive(Debug, Serialize)]
pub struct StatementCost {
    pub calls: f64,
    pub ms: f64,
    pub query: String,
}

/// The start of a window.
pub(super) struct Mark {
    at: Instant,
    cpu_seconds: Option<f64>,
    /// `Err`: why the statements cannot be counted.
    statements: Result<(), String>,
}

/// Open a window: the database's CPU now, its statement counts reset.
pub(super) fn mark(url: &str, pid: Option<u32>) -> Mark {
    let statements = psql(
        url,
        "CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset();",
    )
    .map(|_| ())
    .map_err(|e| {
        let text = e.to_string();
        if text.contains("shared_preload_libraries") {
            "pg_stat_statements is not in shared_preload_libraries".to_string()
        } else {
            text
        }
    });
    Mark {
        at: Instant::now(),
        cpu_seconds: pid.and_then(cpu::of_tree),
        statements,
    }
}

/// Close the window opened at `mark`, in which `units` moves or transactions were made.
pub(super) fn cost_since(mark: &Mark, url: &str, pid: Option<u32>, units: u64) -> DatabaseCost {
    let wall = mark.at.elapsed().as_secs_f64().max(1e-9);
    let units = units.max(1) as f64;
    let cpu = mark
        .cpu_seconds
        .zip(pid.and_then(cpu::of_tree))
        .map(|(a, b)| b - a);
    let rows = mark
        .statements
        .clone()
        .and_then(|()| psql(url, STATEMENTS).map_err(|e| e.to_string()))
        .map(|text| parse_statements(&text));
    let (statements, statement_ms, top_statements, statements_unavailable) = match rows {
        Ok(rows) => (
            Some(rows.iter().map(|r| r.calls).sum::<f64>() / units),
            Some(rows.iter().map(|r| r.ms).sum::<f64>() / units),
            rows.into_iter()
                .take(TOP)
                .map(|r| StatementCost {
                    calls: r.calls / units,
                    ms: r.ms / units,
                    query: r.query,
                })
                .collect(),
            None,
        ),
        Err(why) => (None, None, Vec::new(), Some(why)),
    };
    DatabaseCost {
        cpu_ms: cpu.map(|c| c * 1000.0 / units),
        cores_busy: cpu.map(|c| c / wall),
        statements,
        statement_ms,
        top_statements,
        statements_unavailable,
    }
}

/// This database's statements since the reset, most execution time first, the profiling's own
/// left out: calls, ms and the query on one line, separated by `|` (psql's unaligned output).
const STATEMENTS: &str = "SELECT calls, round(total_exec_time::numeric, 3), \
     regexp_replace(left(query, 240), '\\s+', ' ', 'g') FROM pg_stat_statements \
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) \
     AND query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC";

fn parse_statements(text: &str) -> Vec<StatementCost> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, '|');
            Some(StatementCost {
                calls: parts.next()?.trim().parse().ok()?,
                ms: parts.next()?.trim().parse().ok()?,
                query: parts.next()?.trim().to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_are_read_from_psqls_unaligned_rows() {
        let rows = parse_statements(
            "1200|35.500|UPDATE games SET state = $1 WHERE id = $2 AND version = $3\n\
             3|0.250|SELECT a | b FROM t\n\
             not a row\n",
        );
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].calls, 1200.0);
        assert_eq!(rows[0].ms, 35.5);
        assert_eq!(
            rows[1].query, "SELECT a | b FROM t",
            "a | inside the query stays"
        );
    }
}
