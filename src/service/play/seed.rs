//! Games written fast, for measuring at scale (`keltis seed`). Each is a real game: its deal,
//! then, for a finished game, resignations until one player is left, with its events, seats,
//! result and rating changes written as a real end writes them (records, history and the
//! recompute work on them); for an active game, random legal moves (a few dozen) and the state
//! they leave, waiting for the seat to act. Hundreds of games per transaction.

use std::time::Instant;

use serde::Serialize;

use crate::engine::{Decision, DecisionJson, Game, Setup, Variant, ENGINE_VERSION};
use crate::ratings::RatingParameters;
use crate::service::correspondence::clocks::{ClockState, TimeControl};
use crate::service::play::games::{append_all, GameEvent, GameStatus};
use crate::service::ratings::record_result;
use crate::service::{ServiceError, ServiceResult};
use crate::storage::accounts;
use crate::storage::appends::GameUpdate;
use crate::storage::games::{self as store, NewGameRow};
use crate::storage::{Database, DbConnection};

/// Games per transaction.
const BATCH: usize = 500;
/// Minutes between two seeded games' ends (the last one ends now).
const SPACING_MILLIS: i64 = 60_000;

#[derive(Debug, Serialize)]
pub struct SeedReport {
    pub games: usize,
    /// Of which still being played.
    pub active: usize,
    pub players: usize,
    pub seconds: f64,
    pub games_per_second: f64,
}

/// A small deterministic generator: the same seed seeds the same games.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

/// Write `games` finished rated games among `players` accounts named `seeded-<n>` (made when
/// missing; they cannot log in), all three variants in turn, ending one a minute up to now; then
/// `active` games still being played among the same accounts; then the planner's statistics.
pub fn seed_games(
    db: &Database,
    games: usize,
    active: usize,
    players: usize,
    params: &RatingParameters,
    seed: u64,
) -> ServiceResult<SeedReport> {
    let started = Instant::now();
    let players = players.max(4);
    let now = db.now();
    let users: Vec<(i64, String)> = db.write(|conn| {
        (0..players)
            .map(|i| {
                let name = format!("seeded-{i}");
                let user = match accounts::user_by_name(conn, &name)? {
                    Some(u) => u,
                    // No password hash matches "!": the account cannot log in.
                    None => accounts::insert_user(conn, &name, "!", false, now)?,
                };
                Ok((user.id, user.name))
            })
            .collect::<ServiceResult<_>>()
    })?;
    let mut rng = Lcg(seed);
    let mut next = 0;
    let total = games + active;
    while next < total {
        let upto = (next + BATCH).min(total);
        db.write(|conn| {
            for i in next..upto {
                let (at, outcome) = if i < games {
                    let ended_at = now - (games - 1 - i) as i64 * SPACING_MILLIS;
                    (ended_at, Outcome::Finished)
                } else {
                    let decisions = 10 + rng.below(60);
                    (now - (total - i) as i64, Outcome::Active { decisions })
                };
                seed_one(conn, i, &users, &mut rng, params, at, outcome)?;
            }
            Ok::<_, ServiceError>(())
        })?;
        next = upto;
    }
    db.write(|conn| Ok::<_, ServiceError>(crate::storage::analyze(conn)?))?;
    let seconds = started.elapsed().as_secs_f64();
    Ok(SeedReport {
        games: total,
        active,
        players,
        seconds,
        games_per_second: total as f64 / seconds.max(1e-9),
    })
}

/// How a seeded game ends up.
#[derive(Clone, Copy)]
enum Outcome {
    /// Everyone but one player resigned: over, with its result and ratings.
    Finished,
    /// Still being played after this many random legal decisions (a deal and its first moves).
    Active { decisions: usize },
}

fn seed_one(
    conn: &mut DbConnection,
    index: usize,
    users: &[(i64, String)],
    rng: &mut Lcg,
    params: &RatingParameters,
    at: i64,
    outcome: Outcome,
) -> ServiceResult<()> {
    let variant = [Variant::Keltis, Variant::NeueWege, Variant::KeltisCard][index % 3];
    let counts: Vec<u8> = variant.player_counts().collect();
    let n = counts[rng.below(counts.len())];
    let mut seated: Vec<&(i64, String)> = Vec::with_capacity(n as usize);
    while seated.len() < n as usize {
        let candidate = &users[rng.below(users.len())];
        if !seated.iter().any(|s| s.0 == candidate.0) {
            seated.push(candidate);
        }
    }
    let internal = |e: String| ServiceError::Internal(e);
    let setup = Setup::deal(variant, n, rng.below(usize::MAX) as u64)
        .map_err(|e| internal(e.to_string()))?;
    let mut game = Game::from_setup(&setup).map_err(|e| internal(e.to_string()))?;
    let clock = ClockState::new(TimeControl::None, n).to_json()?;
    let row = store::insert_game(
        conn,
        &NewGameRow {
            variant: variant.name(),
            players: i32::from(n),
            invite_only: false,
            rated: true,
            created_by: seated[0].0,
            clock: Some(&clock),
            created_at: at - SPACING_MILLIS / 2,
        },
    )?;
    let mut events = vec![GameEvent::Created {
        variant,
        players: n,
        invite_only: false,
        rated: true,
        by: seated[0].1.clone(),
        time_control: TimeControl::None,
    }];
    for (seat, (user_id, name)) in seated.iter().enumerate() {
        store::insert_seat(conn, row.id, seat as i32, *user_id)?;
        events.push(GameEvent::Joined {
            seat: seat as u8,
            user: name.clone(),
        });
    }
    events.push(GameEvent::Started { setup });
    match outcome {
        Outcome::Finished => {
            // Everyone but the winner resigns, in seat order.
            let winner = rng.below(n as usize) as u8;
            for seat in (0..n).filter(|&s| s != winner) {
                game.apply(seat, Decision::Resign)?;
                events.push(GameEvent::Decided {
                    seat,
                    decision: DecisionJson::Resign,
                    drawn: None,
                });
            }
        }
        Outcome::Active { decisions } => {
            for _ in 0..decisions {
                let Some(seat) = game.to_act() else { break };
                let legal: Vec<Decision> = game
                    .legal_decisions()
                    .into_iter()
                    .filter(|d| !matches!(d, Decision::Resign))
                    .collect();
                if legal.is_empty() {
                    break;
                }
                let decision = legal[rng.below(legal.len())];
                let drawn = match decision {
                    Decision::DrawDeck => game.draw_pile_top(),
                    Decision::DrawPile { color } => game.pile(color).last().copied(),
                    _ => None,
                };
                // A seeded active game stops before its end.
                let mut after = game.clone();
                after.apply(seat, decision)?;
                if after.is_over() {
                    break;
                }
                game = after;
                events.push(GameEvent::Decided {
                    seat,
                    decision: decision.normalized().to_json(game.board()),
                    drawn,
                });
            }
        }
    }
    let over = game.is_over();
    let snapshot = game.to_snapshot();
    let seats = store::seats(conn, row.id)?;
    let to_act = crate::service::play::games::user_to_act(&game, &seats);
    let version = append_all(
        conn,
        &row,
        0,
        &events,
        GameUpdate {
            status: Some(
                if over {
                    GameStatus::Over
                } else {
                    GameStatus::Active
                }
                .name(),
            ),
            to_act: Some(to_act),
            snapshot: Some((&snapshot, ENGINE_VERSION)),
            clock: None,
        },
        at,
    )?;
    if !over {
        return Ok(());
    }
    let row = store::GameRow {
        version,
        updated_at: at,
        ..row
    };
    record_result(conn, &row, &game, &seats, params, at)?;
    crate::service::play::packing::pack_in(conn, row.id, at)?;
    Ok(())
}
