//! The serial section's share (issue 50): SQLite's one write turn, as the server's `/metrics`
//! counts it, and the server's CPU time, read when the measured play starts and when it ends.
//! With them a run on few cores says what more cores could give: the turn held all the time
//! caps the rate at writes per second of holding, whatever the cores; below that cap, the rate
//! grows with cores at the CPU each move costs. The load tool's own CPU is read beside them: a
//! run is the server's measure only while the load tool has cores to spare.

use std::time::Instant;

use serde::Serialize;

use super::cpu;

/// The counters at one moment.
#[derive(Debug, Clone, Copy)]
pub(super) struct Reading {
    at: Instant,
    /// The server's CPU time, all threads (Linux, with its process id).
    cpu_seconds: Option<f64>,
    /// The load tool's own (Linux).
    load_cpu_seconds: Option<f64>,
    /// Turn held, committing, writes, commits, log syncs (SQLite only).
    turn: Option<[f64; 5]>,
    /// The sampled writes' turn held, and of it on a core (SQLite only).
    sampled: Option<[f64; 2]>,
}

/// What the run's measured play cost, and where the serial part stands.
#[derive(Debug, Serialize)]
pub struct SerialReport {
    /// Server CPU per accepted move, all threads, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_cpu_ms_per_move: Option<f64>,
    /// Server cores busy on average (CPU seconds per second).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_cores_busy: Option<f64>,
    /// The load tool's own CPU per accepted move, ms, and its cores busy: a load tool as busy as
    /// its threads is what limits the run, not the server.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_cpu_ms_per_move: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_cores_busy: Option<f64>,
    /// SQLite: the share of the measured time a writer held the write turn (0..1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_turn_share: Option<f64>,
    /// SQLite: the turn's time per write, µs, and of that the commit's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_turn_us_per_write: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_us_per_write: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub writes_per_commit: Option<f64>,
    /// SQLite at `synchronous = FULL`: commits made durable by one sync of the log.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commits_per_log_sync: Option<f64>,
    /// SQLite: writes per second with the turn held all the time, at this run's time per write.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_turn_ceiling_per_second: Option<f64>,
    /// SQLite: of the turn's time, the share its holder was on a core (one write in 16 sampled);
    /// the rest it waited, for the disk (a commit at `full`) or for a core (more busy threads
    /// than cores).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_turn_on_cpu_share: Option<f64>,
    /// SQLite: the turn's time per write on a core, µs, and the writes per second the turn
    /// allows at that: the ceiling where no holder waits for a core. At `full-outside-lock`
    /// nothing in the turn waits for the disk, so it is the ceiling with cores to spare.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_turn_cpu_us_per_write: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_turn_cpu_ceiling_per_second: Option<f64>,
}

/// A counter's value in Prometheus text.
fn counter(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .and_then(|v| v.trim().parse().ok())
}

/// Read the counters now.
pub(super) async fn read(client: &reqwest::Client, url: &str, pid: Option<u32>) -> Reading {
    let at = Instant::now();
    let text = match client.get(format!("{url}/metrics")).send().await {
        Ok(r) => r.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    };
    let turn = [
        "keltis_sqlite_write_turn_held_seconds_total",
        "keltis_sqlite_write_turn_commit_seconds_total",
        "keltis_sqlite_writes_total",
        "keltis_sqlite_commits_total",
        "keltis_sqlite_log_syncs_total",
    ]
    .map(|name| counter(&text, name));
    let sampled = [
        "keltis_sqlite_write_turn_sampled_held_seconds_total",
        "keltis_sqlite_write_turn_sampled_cpu_seconds_total",
    ]
    .map(|name| counter(&text, name));
    Reading {
        at,
        cpu_seconds: pid.and_then(cpu::of_process),
        load_cpu_seconds: cpu::of_self(),
        turn: match turn {
            [Some(a), Some(b), Some(c), Some(d), e] => Some([a, b, c, d, e.unwrap_or(0.0)]),
            _ => None,
        },
        sampled: match sampled {
            [Some(held), Some(cpu)] => Some([held, cpu]),
            _ => None,
        },
    }
}

/// What happened between two readings, `moves` accepted meanwhile.
pub(super) fn between(start: &Reading, end: &Reading, moves: u64) -> SerialReport {
    let wall = end.at.duration_since(start.at).as_secs_f64().max(1e-9);
    let moves = moves.max(1) as f64;
    let cpu = start.cpu_seconds.zip(end.cpu_seconds).map(|(a, b)| b - a);
    let load_cpu = start
        .load_cpu_seconds
        .zip(end.load_cpu_seconds)
        .map(|(a, b)| b - a);
    let turn = start
        .turn
        .zip(end.turn)
        .map(|(a, b)| [0, 1, 2, 3, 4].map(|i| b[i] - a[i]))
        .filter(|[_, _, writes, commits, _]| *writes > 0.0 && *commits > 0.0);
    let on_cpu = start
        .sampled
        .zip(end.sampled)
        .map(|(a, b)| [b[0] - a[0], b[1] - a[1]])
        .filter(|[held, _]| *held > 0.0)
        .map(|[held, cpu]| (cpu / held).min(1.0));
    let cpu_us_per_write = turn
        .zip(on_cpu)
        .map(|([held, _, writes, ..], share)| held * share * 1e6 / writes);
    SerialReport {
        server_cpu_ms_per_move: cpu.map(|c| c * 1000.0 / moves),
        server_cores_busy: cpu.map(|c| c / wall),
        load_cpu_ms_per_move: load_cpu.map(|c| c * 1000.0 / moves),
        load_cores_busy: load_cpu.map(|c| c / wall),
        write_turn_share: turn.map(|[held, ..]| held / wall),
        write_turn_us_per_write: turn.map(|[held, _, writes, ..]| held * 1e6 / writes),
        commit_us_per_write: turn.map(|[_, commit, writes, ..]| commit * 1e6 / writes),
        writes_per_commit: turn.map(|[_, _, writes, commits, _]| writes / commits),
        commits_per_log_sync: turn
            .filter(|[.., syncs]| *syncs > 0.0)
            .map(|[_, _, _, commits, syncs]| commits / syncs),
        write_turn_ceiling_per_second: turn
            .filter(|[held, ..]| *held > 0.0)
            .map(|[held, _, writes, ..]| writes / held),
        write_turn_on_cpu_share: on_cpu,
        write_turn_cpu_us_per_write: cpu_us_per_write,
        write_turn_cpu_ceiling_per_second: cpu_us_per_write
            .filter(|us| *us > 0.0)
            .map(|us| 1e6 / us),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_read_by_their_whole_name() {
        let text = "# HELP x\nkeltis_sqlite_writes_total 12\nkeltis_sqlite_writes_total_other 3\n";
        assert_eq!(counter(text, "keltis_sqlite_writes_total"), Some(12.0));
        assert_eq!(counter(text, "keltis_sqlite_commits_total"), None);
    }

    #[test]
    fn the_serial_share_is_the_turns_time_over_the_wall_time() {
        let at = Instant::now();
        let start = Reading {
            at,
            cpu_seconds: Some(10.0),
            load_cpu_seconds: Some(1.0),
            turn: Some([1.0, 0.5, 100.0, 10.0, 10.0]),
            sampled: Some([0.1, 0.05]),
        };
        let end = Reading {
            at: at + std::time::Duration::from_secs(2),
            cpu_seconds: Some(13.0),
            load_cpu_seconds: Some(2.0),
            turn: Some([2.0, 0.9, 1100.0, 60.0, 35.0]),
            sampled: Some([0.2, 0.1]),
        };
        let r = between(&start, &end, 1000);
        assert_eq!(r.write_turn_share, Some(0.5));
        assert_eq!(r.server_cores_busy, Some(1.5));
        assert_eq!(r.server_cpu_ms_per_move, Some(3.0));
        assert_eq!(r.load_cpu_ms_per_move, Some(1.0));
        assert_eq!(r.load_cores_busy, Some(0.5));
        assert_eq!(r.write_turn_us_per_write, Some(1000.0));
        assert_eq!(r.writes_per_commit, Some(20.0));
        assert_eq!(r.commits_per_log_sync, Some(2.0));
        assert_eq!(r.write_turn_ceiling_per_second, Some(1000.0));
        // Half the sampled holding on a core: 500 µs a write on a core, 2,000 writes/s.
        assert_eq!(r.write_turn_on_cpu_share, Some(0.5));
        assert_eq!(r.write_turn_cpu_us_per_write, Some(500.0));
        assert_eq!(r.write_turn_cpu_ceiling_per_second, Some(2000.0));
    }

    #[test]
    fn a_server_without_the_sampled_counters_gives_no_cpu_figures() {
        let at = Instant::now();
        let reading = |secs, held| Reading {
            at: at + std::time::Duration::from_secs(secs),
            cpu_seconds: None,
            load_cpu_seconds: None,
            turn: Some([held, 0.1, 100.0 * held, 10.0 * held, 0.0]),
            sampled: None,
        };
        let r = between(&reading(0, 1.0), &reading(1, 2.0), 100);
        assert!(r.write_turn_share.is_some());
        assert_eq!(r.write_turn_on_cpu_share, None);
        assert_eq!(r.write_turn_cpu_ceiling_per_second, None);
    }
}
