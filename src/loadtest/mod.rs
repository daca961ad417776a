//! `keltis load`: plays games at many concurrent tables through the HTTP API of a running server
//! (a table starts a new game when one ends, so the load is steady) and reports accepted moves
//! per second and latency percentiles. Bounded in tables and time; meant for a server on this
//! machine (loopback).

use std::time::{Duration, Instant};

use tokio::sync::watch;

mod cpu;
pub mod database;
pub mod pgbench;
pub mod reads;
pub mod serial;
mod tables;
mod watchers;
use tables::{play_table, Pace, Table};
use watchers::{threads_of, watch_games, Watch};

use serde::Serialize;
use serde_json::{json, Value};

#[derive(Debug, Clone)]
pub struct LoadOptions {
    pub url: String,
    pub variant: String,
    pub games: usize,
    /// Stop after this long, games unfinished or not.
    pub seconds: u64,
    pub seed: u64,
    /// Server-sent event streams to hold open: one follows each table's game (its wake-ups are
    /// measured), the rest wait on a game where nothing happens.
    pub streams: usize,
    /// Long polls (`wait=30`) to keep waiting, shared out the same way.
    pub waiters: usize,
    /// How many tables get a following stream and long poll (default: all).
    pub followers: Option<usize>,
    /// Open the streams and long polls over HTTP/2 without TLS (h2c), sharing one connection,
    /// as a reverse proxy may: the server then holds no descriptor per stream.
    pub watch_h2c: bool,
    /// The server's process id, to report its thread count (Linux).
    pub server_pid: Option<u32>,
    /// A PostgreSQL URL: after the load, measure with `pgbench` what that database commits per
    /// second in the shape of one move, with as many clients as tables, and report both.
    pub pgbench: Option<String>,
    /// Offer this many moves per second in all, shared by the tables, instead of each table
    /// moving as soon as it is answered: latency at a given load, whatever the concurrency.
    pub rate: Option<f64>,
    /// Play this long before measuring: connections, threads and caches warm up first.
    pub warm_up_seconds: u64,
    /// The load tool's threads (and pgbench's): where it has cores of its own, as many as they.
    pub threads: usize,
    /// PostgreSQL's postmaster process id (Linux): with `pgbench`, count the CPU of all of
    /// PostgreSQL's processes per move and per pgbench transaction.
    pub database_pid: Option<u32>,
}

#[derive(Debug, Serialize)]
pub struct LoadReport {
    pub url: String,
    pub variant: String,
    pub concurrent_games: usize,
    pub finished_games: usize,
    pub accepted_moves: u64,
    pub refused_moves: u64,
    /// Answers "come back later" (503 or 429) to the other requests, waited out and sent again.
    pub busy_answers: u64,
    pub seconds: f64,
    pub accepted_moves_per_second: f64,
    /// The rate offered, when the tables were paced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offered_moves_per_second: Option<f64>,
    /// How late paced moves were sent after they were due, ms: near zero while the server
    /// carries the offered rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule_lag_ms: Option<Percentiles>,
    /// Latency of accepted decision requests, milliseconds.
    pub decision_latency_ms: Percentiles,
    /// Latency of the accepted decisions that ended their game (they write its end too), ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ending_decision_latency_ms: Option<Percentiles>,
    /// Latency of the game reads between moves, milliseconds.
    pub read_latency_ms: Percentiles,
    pub streams: usize,
    pub waiters: usize,
    /// How the streams and long polls were carried: `http/1.1` (a connection each) or `h2c`.
    pub watch_protocol: &'static str,
    /// From a move's commit (its event's time) to a following stream receiving it, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_wake_ms: Option<Percentiles>,
    /// From a move's commit to a following long poll receiving it, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub poll_wake_ms: Option<Percentiles>,
    /// Streams and long polls that failed (a connection refused or cut).
    pub watcher_errors: u64,
    /// What one of those failures said.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub watcher_error: Option<String>,
    /// Streams and long polls that were waiting when the play began.
    pub watchers_waiting: usize,
    /// How long they took to open, before the timed play.
    pub ramp_up_seconds: f64,
    /// The server's threads at the end of the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_threads: Option<u64>,
    /// The database's own rate for the same shape of work, measured after the load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pgbench: Option<pgbench::PgbenchReport>,
    /// Accepted moves per second as a share of the pgbench rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share_of_pgbench: Option<f64>,
    /// Why pgbench gave no figure, when it was asked for and failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pgbench_error: Option<String>,
    /// What each accepted move cost PostgreSQL over the measured play (with `pgbench`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database_per_move: Option<database::DatabaseCost>,
    /// The share of pgbench's rate the API can reach where PostgreSQL's cores are the limit:
    /// PostgreSQL's CPU per pgbench transaction over its CPU per move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database_bound_share: Option<f64>,
    /// The server's CPU per move and SQLite's serial write turn over the measured play.
    pub serial: serial::SerialReport,
}

#[derive(Debug, Serialize)]
pub struct Percentiles {
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
}

impl Percentiles {
    fn of(mut samples: Vec<f64>) -> Percentiles {
        samples.sort_by(|a, b| a.total_cmp(b));
        let at = |q: f64| {
            if samples.is_empty() {
                0.0
            } else {
                samples[((samples.len() - 1) as f64 * q).round() as usize]
            }
        };
        Percentiles {
            p50: at(0.50),
            p90: at(0.90),
            p99: at(0.99),
            max: at(1.0),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("request failed: {}", causes(.0))]
    Http(#[from] reqwest::Error),
    #[error("unexpected answer {status}: {body}")]
    Answer { status: u16, body: String },
    #[error("pgbench or psql failed: {0}")]
    Tool(String),
}

/// An error and what caused it ("error sending request" alone does not say a timeout from a
/// connection the server closed).
fn causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

struct Player {
    token: String,
}

async fn call(req: reqwest::RequestBuilder, ok: u16) -> Result<Value, LoadError> {
    call_for(req, ok).await
}

/// Answers "come back later" (503 or 429 with `Retry-After`) to the lobby's and reads' requests,
/// each waited out and sent again: an overloaded server says so by design (its pool waits a
/// second for a connection), and a client that stopped at the first would end the run.
static BUSY_ANSWERS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Times one request is sent again after "come back later".
const BUSY_TRIES: usize = 30;

/// `call`, reading the answer as `T` (fields it does not name are skipped unparsed).
async fn call_for<T: serde::de::DeserializeOwned>(
    mut req: reqwest::RequestBuilder,
    ok: u16,
) -> Result<T, LoadError> {
    let mut tries = 0;
    let (status, body) = loop {
        let again = req.try_clone();
        let r = req.send().await?;
        let status = r.status().as_u16();
        let wait = r
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        let body = r.text().await?;
        tries += 1;
        match (again, wait) {
            (Some(again), Some(seconds)) if matches!(status, 429 | 503) && tries < BUSY_TRIES => {
                BUSY_ANSWERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                tokio::time::sleep(Duration::from_secs(seconds.clamp(1, 5))).await;
                req = again;
            }
            _ => break (status, body),
        }
    };
    if status != ok {
        return Err(LoadError::Answer { status, body });
    }
    serde_json::from_str(&body).map_err(|_| LoadError::Answer { status, body })
}

/// Two accounts sit at every game (a user may play many games at once), so the run needs two
/// registrations only.
async fn register(client: &reqwest::Client, url: &str, name: &str) -> Result<Player, LoadError> {
    let body = call(
        client
            .post(format!("{url}/api/v1/auth/register"))
            .json(&json!({"name": name, "password": "load-test-password"})),
        201,
    )
    .await?;
    Ok(Player {
        token: body["access_token"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    })
}

/// Run the load and report.
pub async fn run(options: LoadOptions) -> Result<LoadReport, LoadError> {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(options.games * 2)
        .timeout(Duration::from_secs(30))
        .build()?;
    let url = options.url.trim_end_matches('/').to_string();
    let tag = format!("{:x}", options.seed ^ crate::storage::now_millis() as u64);
    let tag = &tag[tag.len().saturating_sub(8)..];
    let a = std::sync::Arc::new(register(&client, &url, &format!("load_{tag}_a")).await?);
    let b = std::sync::Arc::new(register(&client, &url, &format!("load_{tag}_b")).await?);
    // A game nobody joins: its waiters wait for the whole run.
    let idle = call(
        client
            .post(format!("{url}/api/v1/games"))
            .bearer_auth(&a.token)
            .json(&json!({"variant": options.variant, "players": 2})),
        201,
    )
    .await?["id"]
        .as_i64()
        .unwrap_or_default();
    let mut watchers = Vec::new();
    // An idle connection is let go before the server's keep-alive (5 s) closes it: reused as it
    // closes, it fails the request sent on it, which is the client's doing, not the server's.
    let mut watch_client = reqwest::Client::builder()
        .pool_max_idle_per_host(options.streams + options.waiters)
        .pool_idle_timeout(Duration::from_secs(2));
    if options.watch_h2c {
        watch_client = watch_client.http2_prior_knowledge();
    }
    let watch_client = watch_client.build()?;
    let (stop, stopped) = watch::channel(false);
    let ready = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let opening = std::sync::Arc::new(tokio::sync::Semaphore::new(watchers::OPENING_AT_ONCE));
    let tables: Vec<(watch::Sender<i64>, watch::Receiver<i64>)> =
        (0..options.games).map(|_| watch::channel(idle)).collect();
    // Kept until the end: the idle watchers' game never changes.
    let (_idle_game, idle_watch) = watch::channel(idle);
    for (kind, count) in [
        (Watch::Stream, options.streams),
        (Watch::Poll, options.waiters),
    ] {
        for i in 0..count {
            // The first of each kind follow the tables; the others wait on the idle game.
            let following = options.followers.unwrap_or(options.games);
            let game = tables
                .get(i)
                .filter(|_| i < following)
                .map(|(_, game)| game.clone())
                .unwrap_or_else(|| idle_watch.clone());
            watchers.push(tokio::spawn(watch_games(
                kind,
                watch_client.clone(),
                url.clone(),
                a.token.clone(),
                game,
                ready.clone(),
                opening.clone(),
                stopped.clone(),
            )));
        }
    }
    // The play is timed once every watcher waits (at most two minutes of ramp-up).
    let ramp = Instant::now();
    let watching = options.streams + options.waiters;
    while ready.load(std::sync::atomic::Ordering::Relaxed) < watching
        && ramp.elapsed() < Duration::from_secs(120)
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let ramp_up_seconds = ramp.elapsed().as_secs_f64();
    let began = Instant::now();
    let started = began + Duration::from_secs(options.warm_up_seconds);
    let deadline = started + Duration::from_secs(options.seconds);
    let first_reading = {
        let (client, url, pid) = (client.clone(), url.clone(), options.server_pid);
        let (database, database_pid) = (options.pgbench.clone(), options.database_pid);
        tokio::spawn(async move {
            tokio::time::sleep_until(tokio::time::Instant::from_std(started)).await;
            let serial = serial::read(&client, &url, pid).await;
            let database = match database {
                Some(db) => tokio::task::spawn_blocking(move || database::mark(&db, database_pid))
                    .await
                    .ok(),
                None => None,
            };
            (serial, database)
        })
    };
    let mut tasks = Vec::new();
    for (g, (current, _)) in tables.into_iter().enumerate() {
        tasks.push(tokio::spawn(play_table(Table {
            client: client.clone(),
            url: url.clone(),
            players: [a.clone(), b.clone()],
            variant: options.variant.clone(),
            rng: options.seed.wrapping_add(g as u64 * 7919),
            measure_from: started,
            deadline,
            current,
            pace: options
                .rate
                .map(|rate| Pace::new(rate, options.games, g, began)),
        })));
    }
    let (mut finished, mut accepted, mut refused) = (0, 0, 0);
    let (mut decision_ms, mut read_ms, mut lag_ms) = (Vec::new(), Vec::new(), Vec::new());
    let mut ending_ms = Vec::new();
    for t in tasks {
        let stats = match t.await {
            Ok(r) => r?,
            Err(e) => {
                return Err(LoadError::Answer {
                    status: 0,
                    body: e.to_string(),
                })
            }
        };
        finished += stats.finished;
        accepted += stats.accepted;
        refused += stats.refused;
        decision_ms.extend(stats.decision_ms);
        ending_ms.extend(stats.ending_ms);
        read_ms.extend(stats.read_ms);
        lag_ms.extend(stats.lag_ms);
    }
    let seconds = started.elapsed().as_secs_f64();
    let last_reading = serial::read(&client, &url, options.server_pid).await;
    let (first, database_mark) = first_reading.await.map_err(|e| LoadError::Answer {
        status: 0,
        body: e.to_string(),
    })?;
    let serial = serial::between(&first, &last_reading, accepted);
    let database_per_move = match (database_mark, options.pgbench.clone()) {
        (Some(mark), Some(db)) => {
            let pid = options.database_pid;
            tokio::task::spawn_blocking(move || database::cost_since(&mark, &db, pid, accepted))
                .await
                .ok()
        }
        _ => None,
    };
    let server_threads = options.server_pid.and_then(threads_of);
    let waiting = ready.load(std::sync::atomic::Ordering::Relaxed);
    stop.send_replace(true);
    let (mut stream_wake, mut poll_wake, mut watcher_errors) = (Vec::new(), Vec::new(), 0);
    let mut watcher_error = None;
    for w in watchers {
        match w.await {
            Ok(seen) => {
                watcher_errors += seen.errors;
                watcher_error = watcher_error.or(seen.first_error);
                match seen.kind {
                    Watch::Stream => stream_wake.extend(seen.wake_ms),
                    Watch::Poll => poll_wake.extend(seen.wake_ms),
                }
            }
            Err(_) => watcher_errors += 1,
        }
    }
    let if_any = |samples: Vec<f64>| (!samples.is_empty()).then(|| Percentiles::of(samples));
    let accepted_moves_per_second = accepted as f64 / seconds.max(1e-9);
    // A pgbench that fails (too many clients for the server's max_connections, say) is reported
    // beside the load's figures, which stand on their own.
    let (pgbench, pgbench_error) = match &options.pgbench {
        Some(db) => {
            let (db, games, secs) = (db.clone(), options.games, options.seconds);
            let (threads, pid) = (options.threads, options.database_pid);
            let measured =
                tokio::task::spawn_blocking(move || pgbench::run(&db, games, threads, secs, pid))
                    .await
                    .map_err(|e| LoadError::Tool(e.to_string()))
                    .and_then(|r| r);
            match measured {
                Ok(report) => (Some(report), None),
                Err(e) => (None, Some(e.to_string())),
            }
        }
        None => (None, None),
    };
    let share_of_pgbench = pgbench
        .as_ref()
        .map(|p| accepted_moves_per_second / p.transactions_per_second.max(1e-9));
    let database_bound_share = pgbench
        .as_ref()
        .and_then(|p| p.database_per_transaction.cpu_ms)
        .zip(database_per_move.as_ref().and_then(|d| d.cpu_ms))
        .map(|(per_transaction, per_move)| per_transaction / per_move.max(1e-9));
    Ok(LoadReport {
        url,
        variant: options.variant,
        concurrent_games: options.games,
        finished_games: finished,
        accepted_moves: accepted,
        refused_moves: refused,
        busy_answers: BUSY_ANSWERS.load(std::sync::atomic::Ordering::Relaxed),
        seconds,
        accepted_moves_per_second,
        offered_moves_per_second: options.rate,
        schedule_lag_ms: options.rate.map(|_| Percentiles::of(lag_ms)),
        decision_latency_ms: Percentiles::of(decision_ms),
        ending_decision_latency_ms: if_any(ending_ms),
        read_latency_ms: Percentiles::of(read_ms),
        streams: options.streams,
        waiters: options.waiters,
        watch_protocol: if options.watch_h2c { "h2c" } else { "http/1.1" },
        stream_wake_ms: if_any(stream_wake),
        poll_wake_ms: if_any(poll_wake),
        watcher_errors,
        watcher_error,
        watchers_waiting: waiting,
        ramp_up_seconds,
        server_threads,
        pgbench,
        share_of_pgbench,
        pgbench_error,
        database_per_move,
        database_bound_share,
        serial,
    })
}

#[cfg(test)]
mod tests {
    /// A transport error says why: here, nothing listens on the port.
    #[test]
    fn a_failed_request_names_its_cause() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let client = reqwest::Client::new();
        let failed = runtime
            .block_on(super::register(&client, "http://127.0.0.1:9", "nobody"))
            .err()
            .expect("nothing listens on port 9");
        let text = failed.to_string();
        assert!(text.contains("refused"), "{text}");
    }
}
