//! Events (tournaments): the events, their entries, and what each round dealt each entry. A
//! round is dealt under a compare-and-set of the event's round, so that two instances never deal
//! one twice, and the pairings' key holds an entry to one game a round in a Swiss.

use diesel::prelude::*;

use super::schema::{event_entries, event_pairings, events, game_results, games, ratings, users};
use super::{DbConnection, StorageError};

/// The PostgreSQL advisory lock an events pass holds until its transaction ends ("events" in
/// ASCII): passes on several instances take turns.
const EVENTS_LOCK: i64 = 0x0000_6576_656e_7473;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = events)]
pub struct EventRow {
    pub id: i64,
    pub name: String,
    pub format: String,
    pub variant: String,
    pub table_size: i32,
    pub time_control: String,
    pub rated: bool,
    pub rounds: i32,
    pub group_size: Option<i32>,
    pub points_by_place: String,
    pub bye_points: i64,
    pub min_players: i32,
    pub max_players: i32,
    pub rating_min: Option<i32>,
    pub rating_max: Option<i32>,
    pub min_finished_games: i32,
    pub no_timeouts_days: Option<i32>,
    pub late_entry_until: i32,
    pub round_hours: Option<i32>,
    pub starts_at: Option<i64>,
    pub repeat_every_days: Option<i32>,
    pub next_edition_id: Option<i64>,
    pub created_by: Option<i64>,
    pub state: String,
    pub current_round: i32,
    pub round_started_at: Option<i64>,
    pub seed: i64,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    pub registration_opens_at: Option<i64>,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = events)]
pub struct NewEventRow<'a> {
    pub name: &'a str,
    pub format: &'a str,
    pub variant: &'a str,
    pub table_size: i32,
    pub time_control: &'a str,
    pub rated: bool,
    pub rounds: i32,
    pub group_size: Option<i32>,
    pub points_by_place: &'a str,
    pub bye_points: i64,
    pub min_players: i32,
    pub max_players: i32,
    pub rating_min: Option<i32>,
    pub rating_max: Option<i32>,
    pub min_finished_games: i32,
    pub no_timeouts_days: Option<i32>,
    pub late_entry_until: i32,
    pub round_hours: Option<i32>,
    pub starts_at: Option<i64>,
    pub registration_opens_at: Option<i64>,
    pub repeat_every_days: Option<i32>,
    pub created_by: Option<i64>,
    pub state: &'a str,
    pub seed: i64,
    pub created_at: i64,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = event_entries)]
pub struct EntryRow {
    pub id: i64,
    pub event_id: i64,
    pub user_id: i64,
    pub rating: f64,
    pub entered_at: i64,
    pub withdrawn_at: Option<i64>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = event_pairings)]
pub struct PairingRow {
    pub event_id: i64,
    pub round: i32,
    pub slot: i32,
    pub entry_id: i64,
    pub game_id: Option<i64>,
    pub seat: Option<i32>,
    pub bye_points: Option<i64>,
    pub full_bye: bool,
}

/// A seat's place in a decided game of an event.
#[derive(Debug, Clone, Queryable)]
pub struct PlaceRow {
    pub game_id: i64,
    pub seat: i32,
    pub place: i32,
}

/// What an entry condition asks of a player.
#[derive(Debug, Clone)]
pub struct PlayerRecord {
    pub name: String,
    pub rating: Option<f64>,
    pub finished_games: i64,
    pub last_timeout_at: Option<i64>,
    pub suspended_until: Option<i64>,
    pub is_bot: bool,
}

pub fn lock(conn: &mut DbConnection) -> Result<(), StorageError> {
    super::lock_until_commit(conn, EVENTS_LOCK)
}

pub fn insert(conn: &mut DbConnection, row: &NewEventRow) -> Result<EventRow, StorageError> {
    let id: i64 = diesel::insert_into(events::table)
        .values(row)
        .returning(events::id)
        .get_result(conn)?;
    by_id(conn, id)?.ok_or(StorageError::Corrupt("inserted event not found".into()))
}

pub fn by_id(conn: &mut DbConnection, id: i64) -> Result<Option<EventRow>, StorageError> {
    Ok(events::table
        .find(id)
        .select(EventRow::as_select())
        .first(conn)
        .optional()?)
}

/// Events in one of `states`, soonest to start first (those starting when full last, then the
/// newest first), at most `limit`.
pub fn in_states(
    conn: &mut DbConnection,
    states: &[&str],
    limit: i64,
) -> Result<Vec<EventRow>, StorageError> {
    Ok(events::table
        .filter(events::state.eq_any(states))
        .order((
            events::starts_at.is_null(),
            events::starts_at.asc(),
            events::id.desc(),
        ))
        .limit(limit)
        .select(EventRow::as_select())
        .load(conn)?)
}

/// Whether any event registers or runs (the pass reads nothing more when none does).
pub fn any_live(conn: &mut DbConnection) -> Result<bool, StorageError> {
    Ok(diesel::select(diesel::dsl::exists(
        events::table.filter(events::state.eq_any(["registering", "running"])),
    ))
    .get_result(conn)?)
}

/// Events made by `user_id` that have not started.
pub fn registering_made_by(conn: &mut DbConnection, user_id: i64) -> Result<i64, StorageError> {
    Ok(events::table
        .filter(events::created_by.eq(user_id))
        .filter(events::state.eq("registering"))
        .count()
        .get_result(conn)?)
}

/// Deal round `round` of a registering or running event: true when this call moved the event on
/// from the round before (false: another instance did, or the event is no longer live).
pub fn advance_round(
    conn: &mut DbConnection,
    id: i64,
    round: i32,
    now: i64,
) -> Result<bool, StorageError> {
    let changed = diesel::update(
        events::table
            .find(id)
            .filter(events::current_round.eq(round - 1))
            .filter(events::state.eq_any(["registering", "running"])),
    )
    .set((
        events::current_round.eq(round),
        events::round_started_at.eq(now),
        events::state.eq("running"),
    ))
    .execute(conn)?;
    if changed == 1 && round == 1 {
        diesel::update(events::table.find(id))
            .set(events::started_at.eq(now))
            .execute(conn)?;
    }
    Ok(changed == 1)
}

/// Move an event from state `from` to `to` (finished and cancelled note when): whether it was in
/// `from`.
pub fn set_state(
    conn: &mut DbConnection,
    id: i64,
    from: &str,
    to: &str,
    now: i64,
) -> Result<bool, StorageError> {
    let changed = diesel::update(events::table.find(id).filter(events::state.eq(from)))
        .set((events::state.eq(to), events::finished_at.eq(now)))
        .execute(conn)?;
    Ok(changed == 1)
}

pub fn set_next_edition(conn: &mut DbConnection, id: i64, next: i64) -> Result<(), StorageError> {
    diesel::update(events::table.find(id))
        .set(events::next_edition_id.eq(next))
        .execute(conn)?;
    Ok(())
}

/// An event's entries, first entered first, with each player's name.
pub fn entries(
    conn: &mut DbConnection,
    event_id: i64,
) -> Result<Vec<(EntryRow, String)>, StorageError> {
    Ok(event_entries::table
        .inner_join(users::table.on(users::id.eq(event_entries::user_id)))
        .filter(event_entries::event_id.eq(event_id))
        .order(event_entries::id.asc())
        .select((EntryRow::as_select(), users::name))
        .load(conn)?)
}

/// The events a player entered (withdrawn or not), newest first.
pub fn entered_by(conn: &mut DbConnection, user_id: i64) -> Result<Vec<i64>, StorageError> {
    Ok(event_entries::table
        .filter(event_entries::user_id.eq(user_id))
        .order(event_entries::event_id.desc())
        .select(event_entries::event_id)
        .load(conn)?)
}

pub fn entry_of(
    conn: &mut DbConnection,
    event_id: i64,
    user_id: i64,
) -> Result<Option<EntryRow>, StorageError> {
    Ok(event_entries::table
        .filter(event_entries::event_id.eq(event_id))
        .filter(event_entries::user_id.eq(user_id))
        .select(EntryRow::as_select())
        .first(conn)
        .optional()?)
}

/// Enter a player; `Conflict` when already entered.
pub fn insert_entry(
    conn: &mut DbConnection,
    event_id: i64,
    user_id: i64,
    rating: f64,
    now: i64,
) -> Result<EntryRow, StorageError> {
    diesel::insert_into(event_entries::table)
        .values((
            event_entries::event_id.eq(event_id),
            event_entries::user_id.eq(user_id),
            event_entries::rating.eq(rating),
            event_entries::entered_at.eq(now),
        ))
        .execute(conn)
        .map_err(StorageError::from_write)?;
    entry_of(conn, event_id, user_id)?
        .ok_or(StorageError::Corrupt("inserted entry not found".into()))
}

/// Take an entry back before the event starts (nothing was dealt to it).
pub fn delete_entry(conn: &mut DbConnection, id: i64) -> Result<(), StorageError> {
    diesel::delete(event_entries::table.find(id)).execute(conn)?;
    Ok(())
}

/// Withdraw an entry from a running event: it is dealt no more rounds.
pub fn withdraw_entry(conn: &mut DbConnection, id: i64, now: i64) -> Result<bool, StorageError> {
    let changed = diesel::update(
        event_entries::table
            .find(id)
            .filter(event_entries::withdrawn_at.is_null()),
    )
    .set(event_entries::withdrawn_at.eq(now))
    .execute(conn)?;
    Ok(changed == 1)
}

/// Record what a round dealt; `Conflict` when an entry already has that round's slot.
pub fn insert_pairings(conn: &mut DbConnection, rows: &[PairingRow]) -> Result<(), StorageError> {
    for row in rows {
        diesel::insert_into(event_pairings::table)
            .values(row)
            .execute(conn)
            .map_err(StorageError::from_write)?;
    }
    Ok(())
}

/// Everything dealt so far in an event, with each game's status (`None` for a bye).
pub fn pairings(
    conn: &mut DbConnection,
    event_id: i64,
) -> Result<Vec<(PairingRow, Option<String>)>, StorageError> {
    Ok(event_pairings::table
        .left_join(games::table.on(games::id.nullable().eq(event_pairings::game_id)))
        .filter(event_pairings::event_id.eq(event_id))
        .order((
            event_pairings::round.asc(),
            event_pairings::slot.asc(),
            event_pairings::game_id.asc(),
            event_pairings::seat.asc(),
        ))
        .select((PairingRow::as_select(), games::status.nullable()))
        .load(conn)?)
}

/// The places of every seat of an event's decided games.
pub fn places(conn: &mut DbConnection, event_id: i64) -> Result<Vec<PlaceRow>, StorageError> {
    let games_of_event = event_pairings::table
        .filter(event_pairings::event_id.eq(event_id))
        .filter(event_pairings::game_id.is_not_null())
        .select(event_pairings::game_id.assume_not_null());
    Ok(game_results::table
        .filter(game_results::game_id.eq_any(games_of_event))
        .select((
            game_results::game_id,
            game_results::seat,
            game_results::place,
        ))
        .load(conn)?)
}

/// The events a game belongs to (none, or one).
pub fn event_of_game(conn: &mut DbConnection, game_id: i64) -> Result<Option<i64>, StorageError> {
    Ok(event_pairings::table
        .filter(event_pairings::game_id.eq(game_id))
        .select(event_pairings::event_id)
        .first(conn)
        .optional()?)
}

/// What the entry conditions ask of a player, in a variant.
pub fn player_record(
    conn: &mut DbConnection,
    user_id: i64,
    variant: &str,
) -> Result<Option<PlayerRecord>, StorageError> {
    let Some((name, last_timeout_at, suspended_until, is_bot)) = users::table
        .find(user_id)
        .select((
            users::name,
            users::last_timeout_at,
            users::suspended_until,
            users::is_bot,
        ))
        .first::<(String, Option<i64>, Option<i64>, bool)>(conn)
        .optional()?
    else {
        return Ok(None);
    };
    let rating = ratings::table
        .filter(ratings::user_id.eq(user_id))
        .filter(ratings::variant.eq(variant))
        .select(ratings::rating)
        .first::<f64>(conn)
        .optional()?;
    let finished_games = game_results::table
        .filter(game_results::user_id.eq(user_id))
        .count()
        .get_result(conn)?;
    Ok(Some(PlayerRecord {
        name,
        rating,
        finished_games,
        last_timeout_at,
        suspended_until,
        is_bot,
    }))
}

/// Bring the deadlines of running games forward to `now` (a round past its time): the clock
/// worker then times out whoever is to act, as at any deadline. How many games it changed.
pub fn bring_deadlines_forward(
    conn: &mut DbConnection,
    game_ids: &[i64],
    now: i64,
) -> Result<usize, StorageError> {
    Ok(diesel::update(
        games::table
            .filter(games::id.eq_any(game_ids))
            .filter(games::status.eq("active"))
            .filter(games::deadline_at.is_null().or(games::deadline_at.gt(now))),
    )
    .set(games::deadline_at.eq(now))
    .execute(conn)?)
}

/// A deleted account's entries: taken back from events not started, withdrawn from those running
/// (dealt no more rounds).
pub fn withdraw_user(conn: &mut DbConnection, user_id: i64, now: i64) -> Result<(), StorageError> {
    let registering = events::table
        .filter(events::state.eq("registering"))
        .select(events::id);
    diesel::delete(
        event_entries::table
            .filter(event_entries::user_id.eq(user_id))
            .filter(event_entries::event_id.eq_any(registering)),
    )
    .execute(conn)?;
    diesel::update(
        event_entries::table
            .filter(event_entries::user_id.eq(user_id))
            .filter(event_entries::withdrawn_at.is_null()),
    )
    .set(event_entries::withdrawn_at.eq(now))
    .execute(conn)?;
    Ok(())
}
