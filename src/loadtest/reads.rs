//! `keltis load --reads`: the reads players make of finished games, at a steady concurrency for
//! a fixed time: everyone's history and its next page, one player's history (all, and filtered),
//! a profile, a leaderboard and its next page. Reports latency percentiles per kind of read.
//! Meant for a database seeded with `keltis seed`.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use super::{call, register, LoadError, Percentiles};

#[derive(Debug, Clone)]
pub struct ReadOptions {
    pub url: String,
    /// Concurrent readers.
    pub readers: usize,
    pub seconds: u64,
    pub seed: u64,
}

#[derive(Debug, Serialize)]
pub struct ReadReport {
    pub url: String,
    pub readers: usize,
    pub seconds: f64,
    pub requests: u64,
    pub requests_per_second: f64,
    /// Finished games the server lists (the first page's end is counted, not the total).
    pub players_sampled: usize,
    /// Latency of each kind of read, milliseconds.
    pub latency_ms: BTreeMap<&'static str, Percentiles>,
}

/// The kinds of read, in the order each reader makes them.
pub const KINDS: [&str; 7] = [
    "history",
    "history_next_page",
    "player_history",
    "player_history_filtered",
    "profile",
    "leaderboard",
    "leaderboard_next_page",
];

fn path_of(kind: &str, player: &str, variant: &str, cursors: &BTreeMap<&str, String>) -> String {
    let next = |of: &str| {
        cursors
            .get(of)
            .map(|c| format!("&cursor={c}"))
            .unwrap_or_default()
    };
    match kind {
        "history" => "/api/v1/history?limit=50".into(),
        "history_next_page" => format!("/api/v1/history?limit=50{}", next("history")),
        "player_history" => format!("/api/v1/history?limit=50&player={player}"),
        "player_history_filtered" => {
            format!("/api/v1/history?limit=50&player={player}&variant={variant}&result=won")
        }
        "profile" => format!("/api/v1/players/{player}"),
        "leaderboard" => format!("/api/v1/leaderboards/{variant}?limit=50"),
        _ => format!(
            "/api/v1/leaderboards/{variant}?limit=50{}",
            next("leaderboard")
        ),
    }
}

async fn reader(
    client: reqwest::Client,
    url: String,
    token: String,
    names: Vec<String>,
    mut rng: u64,
    deadline: Instant,
) -> Result<Vec<(&'static str, f64)>, LoadError> {
    let mut samples = Vec::new();
    let mut cursors: BTreeMap<&str, String> = BTreeMap::new();
    let variants = ["keltis", "neue-wege", "keltis-card"];
    while Instant::now() < deadline {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let player = &names[(rng >> 33) as usize % names.len().max(1)];
        let variant = variants[(rng >> 20) as usize % variants.len()];
        for kind in KINDS {
            let path = path_of(kind, player, variant, &cursors);
            let started = Instant::now();
            let body = call(client.get(format!("{url}{path}")).bearer_auth(&token), 200).await?;
            samples.push((kind, started.elapsed().as_secs_f64() * 1000.0));
            if let Some(c) = body["next_cursor"].as_str() {
                cursors.insert(kind, c.to_string());
            }
        }
    }
    Ok(samples)
}

/// Run the reads and report.
pub async fn run(options: ReadOptions) -> Result<ReadReport, LoadError> {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(options.readers)
        .timeout(Duration::from_secs(30))
        .build()?;
    let url = options.url.trim_end_matches('/').to_string();
    let tag = format!("{:x}", options.seed ^ crate::storage::now_millis() as u64);
    let me = register(
        &client,
        &url,
        &format!("reads_{}", &tag[tag.len().saturating_sub(8)..]),
    )
    .await?;
    // The players to read about: the first page of everyone's history names them.
    let first = call(
        client
            .get(format!("{url}/api/v1/history?limit=200"))
            .bearer_auth(&me.token),
        200,
    )
    .await?;
    let mut names: Vec<String> = first["games"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|g| g["seats"].as_array().cloned().unwrap_or_default())
        .filter_map(|s: Value| s["user"].as_str().map(str::to_string))
        .collect();
    names.sort();
    names.dedup();
    let started = Instant::now();
    let deadline = started + Duration::from_secs(options.seconds);
    let readers: Vec<_> = (0..options.readers)
        .map(|i| {
            tokio::spawn(reader(
                client.clone(),
                url.clone(),
                me.token.clone(),
                names.clone(),
                options.seed.wrapping_add(i as u64 * 7919),
                deadline,
            ))
        })
        .collect();
    let mut by_kind: BTreeMap<&'static str, Vec<f64>> = BTreeMap::new();
    let mut requests = 0u64;
    for r in readers {
        let samples = r.await.map_err(|e| LoadError::Answer {
            status: 0,
            body: e.to_string(),
        })??;
        requests += samples.len() as u64;
        for (kind, ms) in samples {
            by_kind.entry(kind).or_default().push(ms);
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    Ok(ReadReport {
        url,
        readers: options.readers,
        seconds,
        requests,
        requests_per_second: requests as f64 / seconds.max(1e-9),
        players_sampled: names.len(),
        latency_ms: by_kind
            .into_iter()
            .map(|(k, v)| (k, Percentiles::of(v)))
            .collect(),
    })
}
