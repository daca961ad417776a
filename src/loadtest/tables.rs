//! The load tool's tables: each plays games one after the other through the API, as fast as the
//! server answers or, when the load offers a fixed rate, one move every so often.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::watch;

use super::{call, call_for, LoadError, Player};

#[derive(Default)]
pub(super) struct GameStats {
    pub(super) finished: usize,
    pub(super) accepted: u64,
    pub(super) refused: u64,
    pub(super) decision_ms: Vec<f64>,
    /// The decisions that ended their game (the end is written with the move: the result, the
    /// ratings and the packed log), ms; also counted in `decision_ms`.
    pub(super) ending_ms: Vec<f64>,
    pub(super) read_ms: Vec<f64>,
    /// How late each move was sent after it was due (paced tables only), ms.
    pub(super) lag_ms: Vec<f64>,
}

impl GameStats {
    fn add(&mut self, game: GameStats) {
        self.finished += game.finished;
        self.accepted += game.accepted;
        self.refused += game.refused;
        self.decision_ms.extend(game.decision_ms);
        self.ending_ms.extend(game.ending_ms);
        self.read_ms.extend(game.read_ms);
        self.lag_ms.extend(game.lag_ms);
    }
}

/// When a table's next move is due, when the load offers a fixed rate: a table that falls behind
/// sends at once and its lag is counted, so an offered rate the server cannot carry shows.
pub(super) struct Pace {
    every: Duration,
    next: Instant,
}

impl Pace {
    /// `rate` moves per second shared by `tables` tables, table `index` starting its share of the
    /// first period later so that the tables do not send together; its first move is due one
    /// period after it starts.
    pub(super) fn new(rate: f64, tables: usize, index: usize, start: Instant) -> Pace {
        let every = Duration::from_secs_f64(tables as f64 / rate.max(1e-3));
        Pace {
            every,
            next: start + every.mul_f64(1.0 + index as f64 / tables.max(1) as f64),
        }
    }

    /// Wait for this table's turn to start: tables that all opened their games at once would
    /// measure that burst, not the offered rate.
    async fn start(&self) {
        tokio::time::sleep_until((self.next - self.every).into()).await;
    }

    /// Wait until the next move is due; how late it is, ms.
    async fn due(&mut self) -> f64 {
        let now = Instant::now();
        let lag = if self.next > now {
            tokio::time::sleep_until(self.next.into()).await;
            0.0
        } else {
            (now - self.next).as_secs_f64() * 1000.0
        };
        self.next += self.every;
        lag
    }
}

/// One table: who sits at it and how it plays.
pub(super) struct Table {
    pub(super) client: reqwest::Client,
    pub(super) url: String,
    pub(super) players: [Arc<Player>; 2],
    pub(super) variant: String,
    pub(super) rng: u64,
    /// Moves sent before this are played but not counted (the warm-up).
    pub(super) measure_from: Instant,
    pub(super) deadline: Instant,
    /// The game it plays now, for the watchers that follow it.
    pub(super) current: watch::Sender<i64>,
    pub(super) pace: Option<Pace>,
}

/// Play games one after the other at one table until the deadline: the load stays steady.
pub(super) async fn play_table(mut table: Table) -> Result<GameStats, LoadError> {
    let mut total = GameStats::default();
    if let Some(pace) = &table.pace {
        pace.start().await;
    }
    while Instant::now() < table.deadline {
        table.rng = table.rng.wrapping_mul(6364136223846793005).wrapping_add(1);
        total.add(play_one(&mut table).await?);
    }
    Ok(total)
}

async fn play_one(table: &mut Table) -> Result<GameStats, LoadError> {
    let Table {
        client,
        url,
        players,
        variant,
        deadline,
        measure_from,
        ..
    } = table;
    let (deadline, measure_from) = (*deadline, *measure_from);
    let mut rng = table.rng;
    let created = call(
        client
            .post(format!("{url}/api/v1/games"))
            .bearer_auth(&players[0].token)
            .json(&json!({"variant": variant, "players": 2})),
        201,
    )
    .await?;
    let id = created["id"].as_i64().unwrap_or_default();
    call(
        client
            .post(format!("{url}/api/v1/games/{id}/join"))
            .bearer_auth(&players[1].token)
            .json(&json!({})),
        200,
    )
    .await?;
    table.current.send_replace(id);
    let mut stats = GameStats::default();
    // The view of the seat to act, read when the previous answer does not hold it.
    let mut view: Option<Seen> = None;
    // Counted where the game is first seen over: at its last move's answer (which may come
    // after the deadline, when the loop would not look again), or at a read.
    let mut counted_over = false;
    while Instant::now() < deadline {
        let current = match view.take() {
            Some(v) => v,
            None => {
                let started = Instant::now();
                let v: Seen = call_for(
                    client
                        .get(format!("{url}/api/v1/games/{id}"))
                        .bearer_auth(&players[0].token),
                    200,
                )
                .await?;
                if started >= measure_from {
                    stats.read_ms.push(started.elapsed().as_secs_f64() * 1000.0);
                }
                if v.can_act() || v.is_over() {
                    v
                } else {
                    let started = Instant::now();
                    let v = call_for(
                        client
                            .get(format!("{url}/api/v1/games/{id}"))
                            .bearer_auth(&players[1].token),
                        200,
                    )
                    .await?;
                    if started >= measure_from {
                        stats.read_ms.push(started.elapsed().as_secs_f64() * 1000.0);
                    }
                    v
                }
            }
        };
        if current.is_over() {
            if !counted_over && Instant::now() >= measure_from {
                stats.finished += 1;
            }
            break;
        }
        let legal = current.decisions();
        if legal.is_empty() {
            continue;
        }
        let seat = current.your_seat.unwrap_or(0);
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let decision = &legal[(rng >> 33) as usize % legal.len()];
        if let Some(pace) = table.pace.as_mut() {
            let lag = pace.due().await;
            if Instant::now() >= deadline {
                break;
            }
            if Instant::now() >= measure_from {
                stats.lag_ms.push(lag);
            }
        }
        let started = Instant::now();
        let counted = started >= measure_from;
        let r = client
            .post(format!("{url}/api/v1/games/{id}/decisions"))
            .bearer_auth(&players[seat.min(1)].token)
            .json(&json!({"expected_version": current.version, "decision": decision}))
            .send()
            .await?;
        let status = r.status().as_u16();
        let body = r.bytes().await?;
        let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
        if status == 200 {
            let next = serde_json::from_slice::<Seen>(&body).ok();
            if counted {
                stats.decision_ms.push(elapsed_ms);
                stats.accepted += 1;
                if next.as_ref().is_some_and(Seen::is_over) {
                    stats.ending_ms.push(elapsed_ms);
                    stats.finished += 1;
                    counted_over = true;
                }
            }
            view = next.filter(|next| next.can_act() || next.is_over());
        } else if counted {
            stats.refused += 1;
        }
    }
    Ok(stats)
}

/// What a table reads of a game's view; the rest (the board, hands, rows) is skipped unparsed,
/// so that the load tool, which shares the machine with the server, spends little on it.
#[derive(serde::Deserialize)]
struct Seen {
    status: String,
    version: i64,
    #[serde(default)]
    your_seat: Option<usize>,
    #[serde(default)]
    state: Option<SeenState>,
}

#[derive(serde::Deserialize)]
struct SeenState {
    #[serde(default)]
    legal_decisions: Vec<Value>,
}

impl Seen {
    fn decisions(&self) -> &[Value] {
        self.state
            .as_ref()
            .map(|s| s.legal_decisions.as_slice())
            .unwrap_or_default()
    }

    fn can_act(&self) -> bool {
        !self.decisions().is_empty()
    }

    fn is_over(&self) -> bool {
        self.status == "over"
    }
}
