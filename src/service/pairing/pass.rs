//! The pairing pass: expire what lapsed, then seat the waiting requests that fill a table (the
//! rule in `crate::pairing`), bots in the seats of tables whose wait for them has passed. Run
//! after each new request and by the pairing worker. Passes on several instances take turns
//! (a lock held to the end of the transaction), and a request is seated only while it still
//! waits: a request is in at most one game.

use std::collections::{HashMap, HashSet};

use crate::engine::Variant;
use crate::pairing::{self, Request, Seats, Table};
use crate::service::correspondence::clocks::TimeControl;
use crate::service::play::lobby::seat_together;
use crate::service::social::fair_use::FairUse;
use crate::service::{ServiceError, ServiceResult};
use crate::storage::locks;
use crate::storage::pairing::{self as store, WaitingRow};
use crate::storage::{moderation, Database, DbConnection};

/// What a pass needs besides the requests.
#[derive(Clone, Debug)]
pub struct PairingPolicy {
    /// The cap on games running at once: a player at it waits.
    pub fair: FairUse,
    /// The rating of a player who has none yet in the variant.
    pub initial_rating: f64,
    /// The server's bots (id and name) that take the seats nobody took, in this order.
    pub bots: Vec<(i64, String)>,
}

impl PairingPolicy {
    /// The policy with the server's bots in the order they fill seats: bot-greedy first (a fair
    /// game for most players), then bot-mcts, bot-strong, then the others.
    pub fn new(
        fair: FairUse,
        initial_rating: f64,
        bots: &[crate::service::play::bots::ServerBot],
    ) -> PairingPolicy {
        let mut bots: Vec<(i64, String)> =
            bots.iter().map(|b| (b.user_id, b.name.clone())).collect();
        bots.sort_by_key(|(_, name)| match name.as_str() {
            "bot-greedy" => 0,
            "bot-mcts" => 1,
            "bot-strong" => 2,
            _ => 3,
        });
        PairingPolicy {
            fair,
            initial_rating,
            bots,
        }
    }
}

/// One pass; the ids of the games it started.
pub fn pair_waiting(db: &Database, policy: &PairingPolicy) -> ServiceResult<Vec<i64>> {
    if !db.read(store::any_waiting)? {
        return Ok(Vec::new());
    }
    let now = db.now();
    db.write(|conn| {
        store::lock(conn)?;
        store::expire_due(conn, now)?;
        let rows = store::waiting(conn)?;
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        let mut room = room_per_player(conn, &rows, policy, now)?;
        let requests: Vec<Request> = rows
            .iter()
            .filter(|r| room.get(&r.request.user_id).is_some_and(|&n| n > 0))
            .filter_map(|r| as_request(r, policy.initial_rating))
            .collect();
        let players: Vec<i64> = requests.iter().map(|r| r.player).collect();
        let blocks: HashSet<(i64, i64)> =
            store::blocks_among(conn, &players)?.into_iter().collect();
        let blocked = |a: i64, b: i64| blocks.contains(&(a, b)) || blocks.contains(&(b, a));
        let mut formed = pairing::tables(&requests, &blocked);
        let seated: HashSet<i64> = formed.iter().flat_map(|t| t.requests.clone()).collect();
        let left: Vec<Request> = requests
            .iter()
            .filter(|r| !seated.contains(&r.id))
            .cloned()
            .collect();
        formed.extend(pairing::with_bots(&left, now, &blocked));
        let by_id: HashMap<i64, &WaitingRow> = rows.iter().map(|r| (r.request.id, r)).collect();
        let mut started = Vec::new();
        for table in formed {
            if let Some(game_id) = start(conn, &table, &by_id, &mut room, policy, now)? {
                started.push(game_id);
            }
        }
        Ok(started)
    })
}

/// How many more games each waiting player may start (the cap less their running games);
/// suspended players' requests are withdrawn.
fn room_per_player(
    conn: &mut DbConnection,
    rows: &[WaitingRow],
    policy: &PairingPolicy,
    now: i64,
) -> ServiceResult<HashMap<i64, i64>> {
    let mut room = HashMap::new();
    for row in rows {
        let user = row.request.user_id;
        if room.contains_key(&user) {
            continue;
        }
        if row.suspended_until.is_some_and(|until| until > now) {
            store::close_all_of(conn, user, "withdrawn", now)?;
            room.insert(user, 0);
            continue;
        }
        let running = moderation::running_games(conn, user)?;
        room.insert(user, policy.fair.max_running_games - running);
    }
    Ok(room)
}

/// A stored request as the rule sees it (`None`: a row this version cannot read, left alone).
fn as_request(row: &WaitingRow, initial_rating: f64) -> Option<Request> {
    let r = &row.request;
    let sizes: Vec<u8> = r.seats.split(',').filter_map(|n| n.parse().ok()).collect();
    Some(Request {
        id: r.id,
        player: r.user_id,
        variant: Variant::parse(&r.variant)?,
        seats: Seats::of(&sizes)?,
        time_control: r.time_control.clone(),
        rated: r.rated,
        rating: row.rating.unwrap_or(initial_rating),
        range: r
            .rating_below
            .zip(r.rating_above)
            .map(|(below, above)| (f64::from(below), f64::from(above))),
        filed_at: r.filed_at,
        bot_after_ms: r.bot_after_ms,
        by_bot: row.outside_bot,
    })
}

/// Start `table`'s game, unless one of its players has reached the cap meanwhile (an earlier
/// table of this pass): then its requests wait for the next pass.
fn start(
    conn: &mut DbConnection,
    table: &Table,
    by_id: &HashMap<i64, &WaitingRow>,
    room: &mut HashMap<i64, i64>,
    policy: &PairingPolicy,
    now: i64,
) -> ServiceResult<Option<i64>> {
    let members: Vec<&WaitingRow> = table
        .requests
        .iter()
        .filter_map(|id| by_id.get(id).copied())
        .collect();
    if members.len() != table.requests.len()
        || members
            .iter()
            .any(|m| room.get(&m.request.user_id).is_none_or(|&n| n <= 0))
    {
        return Ok(None);
    }
    // The players' locks, then their running games counted afresh: a seat they took through
    // another instance meanwhile counts.
    let ids: Vec<i64> = members.iter().map(|m| m.request.user_id).collect();
    locks::lock_players(conn, &ids)?;
    for &id in &ids {
        if moderation::running_games(conn, id)? >= policy.fair.max_running_games {
            room.insert(id, 0);
            return Ok(None);
        }
    }
    let lead = &members[0].request;
    let (Some(variant), Ok(time_control)) = (
        Variant::parse(&lead.variant),
        serde_json::from_str::<TimeControl>(&lead.time_control),
    ) else {
        return Ok(None);
    };
    let mut players: Vec<(i64, String)> = members
        .iter()
        .map(|m| (m.request.user_id, m.name.clone()))
        .collect();
    let bots = policy
        .bots
        .iter()
        .filter(|(id, _)| players.iter().all(|(p, _)| p != id))
        .take(table.bots as usize)
        .cloned()
        .collect::<Vec<_>>();
    if bots.len() < table.bots as usize {
        return Ok(None);
    }
    players.extend(bots);
    let game_id = seat_together(
        conn,
        variant,
        lead.rated,
        time_control,
        &players,
        // Seated oldest request first: the player who waited longest moves first.
        Some(0),
        now,
    )?;
    if !store::seat(conn, &table.requests, game_id, now)? {
        // Another pass seated one of them first (it cannot, under the lock; never two games).
        return Err(ServiceError::conflict(
            "request_closed",
            "a request of this table was seated meanwhile",
        ));
    }
    for m in &members {
        if let Some(n) = room.get_mut(&m.request.user_id) {
            *n -= 1;
        }
    }
    Ok(Some(game_id))
}
