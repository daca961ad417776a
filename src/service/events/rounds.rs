//! The server's work on events, run by the events worker (and at once when an entry fills an
//! event that starts once full): start an event when it is due (or cancel it, too few having
//! entered), deal each round once the last game of the one before is decided, bring forward the
//! deadlines of a round that ran past its time, and finish the event; and apply the ladder
//! challenges whose games have ended. Passes on several
//! instances take turns (a lock held to the end of the transaction), and a round is dealt under a
//! compare-and-set of the event's round: never twice.

use crate::ratings::RatingParameters;
use crate::service::notify::notifications::{queue, EventNews, Notice};
use crate::service::play::lobby::seat_together;
use crate::service::{ServiceError, ServiceResult};
use crate::storage::events::{self as store, EventRow, NewEventRow, PairingRow};
use crate::storage::{Database, DbConnection};
use crate::tournaments::history::histories;
use crate::tournaments::{round_robin, swiss, Entrant};

use super::record::EventRecord;
use super::{EventFormat, Settings};

pub use crate::service::notify::notifications::EventNews as News;

/// What the events' work needs.
#[derive(Clone, Debug)]
pub struct EventsPolicy {
    /// The rating of a player who has none yet in the variant (their seed).
    pub initial_rating: f64,
    /// The server's bots (id and name), which an event's maker may enter.
    pub bots: Vec<(i64, String)>,
    pub ratings: RatingParameters,
}

/// One pass over the events that register or run; how many moved on.
pub fn run_events(db: &Database) -> ServiceResult<usize> {
    let mut moved = ladders(db)?;
    if !db.read(store::any_live)? {
        return Ok(moved);
    }
    let live = db.read(|c| store::in_states(c, &["registering", "running"], 1_000))?;
    for event in live {
        match step(db, event.id) {
            Ok(true) => moved += 1,
            Ok(false) => {}
            Err(e) => {
                crate::warn_throttled!(event = event.id, error = %e.for_log(), "event pass failed")
            }
        }
    }
    Ok(moved)
}

/// Apply the ladder challenges whose games have ended; how many.
fn ladders(db: &Database) -> ServiceResult<usize> {
    if !db.read(crate::storage::ladders::any_open)? {
        return Ok(0);
    }
    let now = db.now();
    db.write(|conn| {
        store::lock(conn)?;
        super::ladder::apply_decided(conn, now)
    })
}

/// Move one event on, if it is due to; whether it moved.
pub(crate) fn step(db: &Database, id: i64) -> ServiceResult<bool> {
    let now = db.now();
    db.write(|conn| {
        store::lock(conn)?;
        let Some(row) = store::by_id(conn, id)? else {
            return Ok(false);
        };
        let settings = Settings::of(&row)?;
        match row.state.as_str() {
            "registering" => start_if_due(conn, &row, &settings, now),
            "running" => next_if_done(conn, &row, &settings, now),
            _ => Ok(false),
        }
    })
}

fn start_if_due(
    conn: &mut DbConnection,
    row: &EventRow,
    settings: &Settings,
    now: i64,
) -> ServiceResult<bool> {
    let entries = store::entries(conn, row.id)?.len() as i32;
    let due = match row.starts_at {
        Some(at) => at <= now,
        None => entries >= row.max_players,
    };
    if !due {
        return Ok(false);
    }
    if row.repeat_every_days.is_some() && row.next_edition_id.is_none() {
        next_edition(conn, row, now)?;
    }
    if entries < row.min_players.max(i32::from(settings.table_size)) {
        store::set_state(conn, row.id, "registering", "cancelled", now)?;
        tell_cancelled(conn, row.id, now)?;
        return Ok(true);
    }
    let record = EventRecord::read(conn, row.id, settings.table_size)?;
    deal(conn, row, settings, &record, 1, now)
}

/// The same event again, `repeat_every_days` later, made by the server.
fn next_edition(conn: &mut DbConnection, row: &EventRow, now: i64) -> ServiceResult<()> {
    let days = i64::from(row.repeat_every_days.unwrap_or(7).max(1));
    let later = days * 86_400_000;
    let starts_at = row.starts_at.unwrap_or(now) + later;
    let next = store::insert(
        conn,
        &NewEventRow {
            name: &row.name,
            format: &row.format,
            variant: &row.variant,
            table_size: row.table_size,
            time_control: &row.time_control,
            rated: row.rated,
            rounds: row.rounds,
            group_size: row.group_size,
            points_by_place: &row.points_by_place,
            bye_points: row.bye_points,
            min_players: row.min_players,
            max_players: row.max_players,
            rating_min: row.rating_min,
            rating_max: row.rating_max,
            min_finished_games: row.min_finished_games,
            no_timeouts_days: row.no_timeouts_days,
            late_entry_until: row.late_entry_until,
            round_hours: row.round_hours,
            starts_at: Some(starts_at),
            registration_opens_at: row.registration_opens_at.map(|at| at + later),
            repeat_every_days: row.repeat_every_days,
            created_by: None,
            state: "registering",
            seed: crate::service::random_u64()? as i64,
            created_at: now,
        },
    )?;
    store::set_next_edition(conn, row.id, next.id)?;
    Ok(())
}

fn next_if_done(
    conn: &mut DbConnection,
    row: &EventRow,
    settings: &Settings,
    now: i64,
) -> ServiceResult<bool> {
    let record = EventRecord::read(conn, row.id, settings.table_size)?;
    let running: Vec<i64> = record.running().map(|g| g.game_id).collect();
    if !running.is_empty() {
        let overdue = row
            .round_hours
            .zip(row.round_started_at)
            .is_some_and(|(hours, at)| now >= at + i64::from(hours) * 3_600_000);
        if overdue {
            // Decided by the time rules: whoever is to act times out, as at a deadline.
            return Ok(store::bring_deadlines_forward(conn, &running, now)? > 0);
        }
        return Ok(false);
    }
    let last = row.current_round >= row.rounds || settings.format == EventFormat::RoundRobin;
    if last || record.active().len() < usize::from(settings.table_size) {
        return finish(conn, row, settings, &record, now);
    }
    deal(conn, row, settings, &record, row.current_round + 1, now)
}

/// Deal round `round` from the event's record as it stands (read under the events lock): the
/// tables (each a game, started at once) and the byes.
fn deal(
    conn: &mut DbConnection,
    row: &EventRow,
    settings: &Settings,
    record: &EventRecord,
    round: i32,
    now: i64,
) -> ServiceResult<bool> {
    if !store::advance_round(conn, row.id, round, now)? {
        return Ok(false);
    }
    let active = record.active();
    let size = usize::from(settings.table_size);
    let (tables, byes): (Vec<Vec<Entrant>>, Vec<Entrant>) = match settings.format {
        EventFormat::Swiss => {
            let players = histories(&active, &record.played, &record.byes, &settings.scoring);
            // The standings the event's page shows, the players still in it.
            let standing: Vec<Entrant> = record
                .standings(settings)
                .into_iter()
                .map(|s| s.entrant)
                .filter(|e| active.contains(e))
                .collect();
            let dealt =
                swiss::next_round(&players, &standing, settings.table_size, row.seed as u64);
            (dealt.tables, dealt.byes)
        }
        EventFormat::RoundRobin => {
            let group = row.group_size.unwrap_or(4).max(0) as usize;
            let tables = round_robin::groups(&active, group, size)
                .iter()
                .flat_map(|g| round_robin::games(g, size))
                .collect();
            (tables, vec![])
        }
    };
    let mut rows = vec![];
    for (slot, table) in tables.iter().enumerate() {
        let players = table
            .iter()
            .map(|&e| {
                let user = record.user_of(e).ok_or_else(|| {
                    ServiceError::Internal(format!("event {} entry {e} unknown", row.id))
                })?;
                Ok((user, record.name_of(e)))
            })
            .collect::<ServiceResult<Vec<_>>>()?;
        let game_id = seat_together(
            conn,
            settings.variant,
            row.rated,
            settings.time_control,
            &players,
            Some(0),
            now,
        )?;
        for (seat, &entry_id) in table.iter().enumerate() {
            rows.push(PairingRow {
                event_id: row.id,
                round,
                slot: if settings.format == EventFormat::Swiss {
                    0
                } else {
                    slot as i32
                },
                entry_id,
                game_id: Some(game_id),
                seat: Some(seat as i32),
                bye_points: None,
                full_bye: false,
            });
        }
    }
    for &entry_id in &byes {
        rows.push(PairingRow {
            event_id: row.id,
            round,
            slot: 0,
            entry_id,
            game_id: None,
            seat: None,
            bye_points: Some(settings.scoring.bye.0),
            full_bye: true,
        });
    }
    store::insert_pairings(conn, &rows)?;
    for &entry in &active {
        if let Some(user) = record.user_of(entry) {
            let game_id = rows
                .iter()
                .find(|r| r.entry_id == entry && r.game_id.is_some())
                .and_then(|r| r.game_id);
            tell(conn, user, row.id, EventNews::Round { round, game_id }, now)?;
        }
    }
    Ok(true)
}

fn finish(
    conn: &mut DbConnection,
    row: &EventRow,
    settings: &Settings,
    record: &EventRecord,
    now: i64,
) -> ServiceResult<bool> {
    if !store::set_state(conn, row.id, "running", "finished", now)? {
        return Ok(false);
    }
    let table = record.standings(settings);
    let of = table.len() as u32;
    for standing in &table {
        if let Some(user) = record.user_of(standing.entrant) {
            let news = EventNews::Over {
                place: standing.place,
                of,
            };
            tell(conn, user, row.id, news, now)?;
        }
    }
    Ok(true)
}

/// Tell everyone entered that the event was cancelled.
pub(crate) fn tell_cancelled(conn: &mut DbConnection, id: i64, now: i64) -> ServiceResult<()> {
    for (entry, _) in store::entries(conn, id)? {
        tell(conn, entry.user_id, id, EventNews::Cancelled, now)?;
    }
    Ok(())
}

/// Queue news of an event for a player (the outbox carries it to their stream, push and email as
/// they chose).
pub(crate) fn tell(
    conn: &mut DbConnection,
    user_id: i64,
    event_id: i64,
    news: EventNews,
    now: i64,
) -> ServiceResult<()> {
    queue(conn, user_id, &Notice::Event { event_id, news }, now)?;
    Ok(())
}
