//! Entering and withdrawing. Entries are taken while an event registers (from the opening of its
//! registration window), and by a Swiss until its
//! late-entry round (a half bye for each round missed); the entry conditions are checked then.
//! Withdrawing before the start takes the entry back; after, the player is dealt no more rounds
//! and their games under way are resigned (at three or four seats the stand-in bot plays on), so
//! they count as lost.

use serde::Deserialize;
use utoipa::ToSchema;

use super::rounds::{self, EventsPolicy};
use super::{EventFormat, EventState, Settings};
use crate::service::accounts::{Caller, Scope};
use crate::service::play::decisions;
use crate::service::{ServiceError, ServiceResult};
use crate::storage::events::{self as store, EventRow, PairingRow};
use crate::storage::{accounts as users, Database, DbConnection};

use super::view::{self, EventDetail};

/// Enter an event: yourself, or (the event's maker) one of the server's bots.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewEntry {
    /// The maker of the event may enter a server bot by name (`bot-greedy`, ...): it plays its
    /// games itself.
    #[serde(default)]
    pub bot: Option<String>,
}

/// Enter; an event that starts once full starts at once when this entry fills it.
pub fn enter(
    db: &Database,
    caller: &Caller,
    id: i64,
    new: &NewEntry,
    policy: &EventsPolicy,
) -> ServiceResult<EventDetail> {
    caller.require(Scope::Play)?;
    let now = db.now();
    let full = db.write(|conn| {
        store::lock(conn)?;
        let row = store::by_id(conn, id)?.ok_or(ServiceError::NotFound("event"))?;
        let settings = Settings::of(&row)?;
        let (user_id, checked) = match &new.bot {
            Some(name) => (server_bot(conn, caller, &row, name, policy)?, false),
            None => (caller.user_id, true),
        };
        let late = open_round(&row, &settings, now)?;
        let entries = store::entries(conn, id)?;
        let active = entries
            .iter()
            .filter(|(e, _)| e.withdrawn_at.is_none())
            .count();
        if entries.iter().any(|(e, _)| e.user_id == user_id) {
            return Err(ServiceError::conflict(
                "already_entered",
                "already entered in this event (an entry withdrawn stays withdrawn)",
            ));
        }
        if active as i32 >= row.max_players {
            return Err(ServiceError::conflict("event_full", "the event is full"));
        }
        let rating = conditions(conn, &row, user_id, checked, policy, now)?;
        let entry = store::insert_entry(conn, id, user_id, rating, now).map_err(|e| match e {
            crate::storage::StorageError::Conflict => {
                ServiceError::conflict("already_entered", "already entered in this event")
            }
            e => e.into(),
        })?;
        // A late entry: a half bye for each round dealt before it came.
        let half_byes: Vec<PairingRow> = (1..=late)
            .map(|round| PairingRow {
                event_id: id,
                round,
                slot: 0,
                entry_id: entry.id,
                game_id: None,
                seat: None,
                bye_points: Some(settings.scoring.half_bye.0),
                full_bye: false,
            })
            .collect();
        if !half_byes.is_empty() {
            store::insert_pairings(conn, &half_byes)?;
        }
        rounds::tell(conn, user_id, id, super::rounds::News::Entered, now)?;
        Ok::<_, ServiceError>(row.starts_at.is_none() && active as i32 + 1 >= row.max_players)
    })?;
    if full {
        rounds::step(db, id)?;
    }
    view::detail(db, id)
}

/// The round a new entry comes after: 0 while the event registers, the rounds already dealt for
/// a late entry; refused when entries are closed.
fn open_round(row: &EventRow, settings: &Settings, now: i64) -> ServiceResult<i32> {
    match EventState::parse(&row.state) {
        EventState::Registering => match row.registration_opens_at {
            Some(opens) if opens > now => Err(ServiceError::conflict(
                "registration_not_open",
                format!("entries open at {opens} (milliseconds since the Unix epoch)"),
            )),
            _ => Ok(0),
        },
        EventState::Running
            if settings.format == EventFormat::Swiss
                && row.current_round < row.late_entry_until =>
        {
            Ok(row.current_round)
        }
        _ => Err(ServiceError::conflict(
            "entries_closed",
            "the event takes no more entries",
        )),
    }
}

/// The bot `name`, entered by the event's maker.
fn server_bot(
    conn: &mut DbConnection,
    caller: &Caller,
    row: &EventRow,
    name: &str,
    policy: &EventsPolicy,
) -> ServiceResult<i64> {
    let moderator = users::user_by_id(conn, caller.user_id)?.is_some_and(|u| u.moderator);
    if row.created_by != Some(caller.user_id) && !moderator {
        return Err(ServiceError::forbidden(
            "not_event_maker",
            "only the event's maker or a moderator may enter a bot",
        ));
    }
    policy
        .bots
        .iter()
        .find(|(_, bot)| bot == name)
        .map(|(id, _)| *id)
        .ok_or_else(|| {
            ServiceError::invalid("unknown_bot", format!("no server bot is called {name:?}"))
        })
}

/// Check the entry conditions (not for the server's bots); the player's rating, their seed.
fn conditions(
    conn: &mut DbConnection,
    row: &EventRow,
    user_id: i64,
    checked: bool,
    policy: &EventsPolicy,
    now: i64,
) -> ServiceResult<f64> {
    let record = store::player_record(conn, user_id, &row.variant)?
        .ok_or(ServiceError::Unauthorized("signed out"))?;
    if let Some(until) = record.suspended_until.filter(|u| *u > now) {
        return Err(ServiceError::Restricted {
            code: "suspended",
            until,
        });
    }
    let rating = record.rating.unwrap_or(policy.initial_rating);
    if !checked {
        return Ok(rating);
    }
    let refuse = |message: String| Err(ServiceError::conflict("entry_conditions", message));
    if row.rating_min.is_some_and(|min| rating < f64::from(min))
        || row.rating_max.is_some_and(|max| rating > f64::from(max))
    {
        return refuse(format!(
            "the event takes ratings from {} to {}; yours in {} is {}",
            row.rating_min.map_or("any".into(), |r| r.to_string()),
            row.rating_max.map_or("any".into(), |r| r.to_string()),
            row.variant,
            rating.round()
        ));
    }
    if record.finished_games < i64::from(row.min_finished_games) {
        return refuse(format!(
            "the event takes players with {} finished games; you have {}",
            row.min_finished_games, record.finished_games
        ));
    }
    if let (Some(days), Some(at)) = (row.no_timeouts_days, record.last_timeout_at) {
        if at > now - i64::from(days) * 86_400_000 {
            return refuse(format!(
                "the event takes players with no game lost on time in {days} days"
            ));
        }
    }
    Ok(rating)
}

/// Withdraw `name` (yourself; or, the event's maker, a bot you entered). Before the start the
/// entry is taken back; after, you are dealt no more rounds and your games under way are
/// resigned.
pub fn withdraw(
    db: &Database,
    caller: &Caller,
    id: i64,
    name: &str,
    policy: &EventsPolicy,
) -> ServiceResult<EventDetail> {
    caller.require(Scope::Play)?;
    let now = db.now();
    let (player, running) = db.write(|conn| {
        store::lock(conn)?;
        let row = store::by_id(conn, id)?.ok_or(ServiceError::NotFound("event"))?;
        let entries = store::entries(conn, id)?;
        let (entry, player_name) = entries
            .into_iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name))
            .ok_or(ServiceError::NotFound("entry"))?;
        let own = entry.user_id == caller.user_id;
        let bot_of_maker = row.created_by == Some(caller.user_id)
            && policy.bots.iter().any(|(bot, _)| *bot == entry.user_id);
        if !own && !bot_of_maker {
            return Err(ServiceError::forbidden(
                "not_your_entry",
                "you withdraw yourself, or a bot you entered in your event",
            ));
        }
        match EventState::parse(&row.state) {
            EventState::Registering => {
                store::delete_entry(conn, entry.id)?;
                Ok((None, vec![]))
            }
            EventState::Running => {
                if !store::withdraw_entry(conn, entry.id, now)? {
                    return Err(ServiceError::conflict("withdrawn", "already withdrawn"));
                }
                let settings = Settings::of(&row)?;
                let record = super::record::EventRecord::read(conn, id, settings.table_size)?;
                let running: Vec<i64> = record
                    .running()
                    .filter(|g| g.seats.contains(&entry.id))
                    .map(|g| g.game_id)
                    .collect();
                let player = Caller {
                    user_id: entry.user_id,
                    name: player_name,
                    scopes: vec![Scope::Read, Scope::Play],
                    session_id: None,
                };
                Ok((Some(player), running))
            }
            _ => Err(ServiceError::conflict("event_over", "the event is over")),
        }
    })?;
    if let Some(player) = player {
        for game_id in running {
            match decisions::resign(db, &player, game_id, &policy.ratings) {
                Ok(_) => {}
                // Over meanwhile, or this seat already left: nothing more to resign.
                Err(ServiceError::Rule(_)) => {}
                Err(ServiceError::Conflict {
                    code: "deadline_passed",
                    ..
                }) => {}
                Err(e) => return Err(e),
            }
        }
    }
    view::detail(db, id)
}
